// The least a durable, logged change must do, through SQLite's C API on navstack's own
// schema in memory: target 11 of scripts/bench compares `toggle` and an edit's `save`
// with it (docs/performance.md).
//
//   bench-floor STORE toggle|toggle-dated|save|complete N
//
// STORE is a store navstack made (`--store STORE --sample -c 'login ana'`): its schema and
// its three sample tasks are copied into memory (foreign keys on, as navstack opens a
// store). Then N changes, each one transaction with prepared statements: read the task,
// update it with its revision (a toggle's done and its completion time, or a save's
// title) and its modified time, append one row to the op log with the part and the writer
// that undo reads. Prints the microseconds a change took on average (the total over N).
//
// `complete` is the least a completion of a recurring instance must do (issue 46): mark
// the open instance done with its revision and log it, as a toggle does, then insert the
// next instance (its fields, `due` a day on, a uuid of its own, in the same place) and log
// it as one `task` operation whose value is the task as JSON, as navstack logs a task made.
// `toggle-dated` toggles that same first instance, made without a rule: a toggle of a task
// with a due date, which the indexes of dated tasks and the agenda's hold as well.
//
// Built by scripts/bench with the system's C compiler against libsqlite3 (the library
// navstack links).
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sqlite3 *db;

static void fail(const char *what) {
    fprintf(stderr, "bench-floor: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void no_words(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    (void)values;
    sqlite3_result_text(context, "[]", 2, SQLITE_STATIC);
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK) fail(sql);
    return statement;
}

static void step(sqlite3_stmt *statement, int expected, const char *what) {
    if (sqlite3_step(statement) != expected) fail(what);
}

int main(int argc, char **argv) {
    enum { TOGGLE, TOGGLE_DATED, SAVE, COMPLETE, MODES };
    const char *modes[MODES] = {"toggle", "toggle-dated", "save", "complete"};
    int mode = -1;
    for (int m = 0; argc == 4 && m < MODES; m++)
        if (strcmp(argv[2], modes[m]) == 0) mode = m;
    if (mode < 0) {
        fprintf(stderr, "usage: bench-floor STORE toggle|toggle-dated|save|complete N\n");
        return 64;
    }
    int complete = mode == COMPLETE, dated = complete || mode == TOGGLE_DATED;
    int toggle = mode != SAVE;
    long count = atol(argv[3]);
    sqlite3 *file;
    if (sqlite3_open_v2(argv[1], &file, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) fail("open the store");
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) fail("open memory");
    sqlite3_backup *copy = sqlite3_backup_init(db, "main", file, "main");
    if (copy == NULL || sqlite3_backup_step(copy, -1) != SQLITE_DONE) fail("copy the store");
    sqlite3_backup_finish(copy);
    sqlite3_close(file);
    if (sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) fail("foreign keys");

    sqlite3_stmt *begin = prepare("BEGIN IMMEDIATE");
    sqlite3_stmt *commit = prepare("COMMIT");
    sqlite3_stmt *ids = prepare("SELECT id, profile_id FROM task ORDER BY id LIMIT 3");
    sqlite3_stmt *read = prepare(
        "SELECT position, title, notes, done, uuid, rev, parent FROM task WHERE id = ?1 AND profile_id = ?2");
    sqlite3_stmt *update =
        toggle ? prepare("UPDATE task SET done = ?1, rev = ?2, modified = ?5, completed = ?6 WHERE id = ?3 AND rev = ?4")
               : prepare("UPDATE task SET title = ?1, rev = ?2, modified = ?5 WHERE id = ?3 AND rev = ?4");
    sqlite3_stmt *log = prepare("INSERT INTO op (profile_id, kind, task_uuid, field, old, new, millis, part, writer) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    // The writer of a command's first operation: the process's own id, as undo reads it.
    const char *writer = "01a2481d-260a-7000-a76a-230e2326febe";
    long task[3], profile = 0;
    int tasks = 0;
    while (tasks < 3 && sqlite3_step(ids) == SQLITE_ROW) {
        task[tasks++] = sqlite3_column_int64(ids, 0);
        profile = sqlite3_column_int64(ids, 1);
    }
    if (tasks == 0) fail("the store has no task");
    // The series' first instance: due 2026-11-27 09:00 UTC, daily (or without a rule for
    // toggle-dated), at the top. (The triggers that keep tags and projects name navstack's
    // function, which a task with neither never calls: one that gives no words stands in
    // for it.)
    if (dated && sqlite3_create_function(db, "navstack_words", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, no_words, NULL,
                        NULL) != SQLITE_OK)
        fail("navstack_words");
    sqlite3_stmt *insert = !dated ? NULL : prepare(
        "INSERT INTO task (profile_id, position, title, notes, done, uuid, rev, parent, due, recur, created, modified) "
        "VALUES (?1, -1, 'Water the plants', '', 0, ?2, 1, 0, ?3, ?5, ?4, ?4)");
    long due = 1795770000L;
    if (dated) {
        if (complete) sqlite3_bind_text(insert, 5, "daily", -1, SQLITE_STATIC);
        else sqlite3_bind_null(insert, 5);
        sqlite3_bind_int64(insert, 1, profile);
        sqlite3_bind_text(insert, 2, "00000000-0000-8000-8000-000000000000", -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(insert, 3, due);
        sqlite3_bind_int64(insert, 4, 1795770000L);
        step(insert, SQLITE_DONE, "add the series");
        sqlite3_reset(insert);
        task[0] = sqlite3_last_insert_rowid(db);
        tasks = 1;
    }

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char uuid[64], old[512], new[512];
    for (long i = 0; i < count; i++) {
        long id = task[i % tasks];
        step(begin, SQLITE_DONE, "begin");
        sqlite3_reset(begin);
        sqlite3_bind_int64(read, 1, id);
        sqlite3_bind_int64(read, 2, profile);
        step(read, SQLITE_ROW, "read the task");
        int done = sqlite3_column_int(read, 3);
        long rev = sqlite3_column_int64(read, 5);
        snprintf(uuid, sizeof uuid, "%s", (const char *)sqlite3_column_text(read, 4));
        // The op log keeps values as JSON text, as navstack writes them.
        if (toggle) {
            snprintf(old, sizeof old, "%s", done ? "true" : "false");
            snprintf(new, sizeof new, "%s", done ? "false" : "true");
        } else {
            snprintf(old, sizeof old, "\"%s\"", (const char *)sqlite3_column_text(read, 1));
            snprintf(new, sizeof new, "\"Title %ld\"", i);
        }
        sqlite3_reset(read);
        long now = 1795770000L + i;
        if (toggle) {
            sqlite3_bind_int(update, 1, !done);
            if (done) sqlite3_bind_null(update, 6);
            else sqlite3_bind_int64(update, 6, now);
        } else {
            sqlite3_bind_text(update, 1, new + 1, (int)strlen(new) - 2, SQLITE_STATIC);
        }
        sqlite3_bind_int64(update, 2, rev + 1);
        sqlite3_bind_int64(update, 3, id);
        sqlite3_bind_int64(update, 4, rev);
        sqlite3_bind_int64(update, 5, now);
        step(update, SQLITE_DONE, "update the task");
        if (sqlite3_changes(db) != 1) fail("update the task");
        sqlite3_reset(update);
        sqlite3_bind_int64(log, 1, profile);
        sqlite3_bind_text(log, 2, toggle ? "toggle" : "save", -1, SQLITE_STATIC);
        sqlite3_bind_text(log, 3, uuid, -1, SQLITE_STATIC);
        sqlite3_bind_text(log, 4, toggle ? "done" : "title", -1, SQLITE_STATIC);
        sqlite3_bind_text(log, 5, old, -1, SQLITE_STATIC);
        sqlite3_bind_text(log, 6, new, -1, SQLITE_STATIC);
        sqlite3_bind_int64(log, 7, 1795711974404L + i);
        sqlite3_bind_int(log, 8, 0);
        sqlite3_bind_text(log, 9, writer, -1, SQLITE_STATIC);
        step(log, SQLITE_DONE, "append to the op log");
        sqlite3_reset(log);
        if (complete) {
            due += 86400;
            snprintf(uuid, sizeof uuid, "00000000-0000-8000-8000-%012ld", i + 1);
            sqlite3_bind_int64(insert, 1, profile);
            sqlite3_bind_text(insert, 2, uuid, -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 3, due);
            sqlite3_bind_int64(insert, 4, 1795770000L + i);
            step(insert, SQLITE_DONE, "add the next instance");
            sqlite3_reset(insert);
            task[0] = sqlite3_last_insert_rowid(db);
            snprintf(new, sizeof new,
                "{\"id\":%lld,\"position\":-1,\"uuid\":\"%s\",\"rev\":1,\"title\":\"Water the plants\",\"notes\":\"\","
                "\"done\":false,\"due\":\"2026-11-28T09:00:00Z\",\"recur\":\"daily\",\"created\":\"2026-11-27T09:00:00Z\","
                "\"modified\":\"2026-11-27T09:00:00Z\"}",
                (long long)task[0], uuid);
            sqlite3_bind_int64(log, 1, profile);
            sqlite3_bind_text(log, 2, "toggle", -1, SQLITE_STATIC);
            sqlite3_bind_text(log, 3, uuid, -1, SQLITE_STATIC);
            sqlite3_bind_text(log, 4, "task", -1, SQLITE_STATIC);
            sqlite3_bind_null(log, 5);
            sqlite3_bind_text(log, 6, new, -1, SQLITE_STATIC);
            sqlite3_bind_int64(log, 7, 1795711974404L + i);
            sqlite3_bind_int(log, 8, 1);
            sqlite3_bind_text(log, 9, "", 0, SQLITE_STATIC);
            step(log, SQLITE_DONE, "log the next instance");
            sqlite3_reset(log);
        }
        step(commit, SQLITE_DONE, "commit");
        sqlite3_reset(commit);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double micros = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1e3;
    printf("%s: %ld changes, %.2f us each\n", argv[2], count, count > 0 ? micros / count : 0);
    return 0;
}
