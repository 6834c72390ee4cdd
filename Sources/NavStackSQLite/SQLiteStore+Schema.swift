extension SQLiteStore {
    /// A step of the schema: its name (what a `grdb_migrations` table lists) and its SQL.
    typealias Migration = (name: String, sql: String)

    /// The schema, as migrations applied in order, each in a transaction of its own;
    /// `PRAGMA user_version` counts those applied. A store with a higher count was
    /// written by a newer navstack.
    static let migrations: [Migration] = [
        // total and done count the profile's tasks; top and bottom are the lowest and
        // highest positions ever given, so a position is never given twice.
        (
            "v1: profiles, tasks, session, changes",
            """
            CREATE TABLE profile (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                total INTEGER NOT NULL DEFAULT 0,
                done INTEGER NOT NULL DEFAULT 0,
                top INTEGER NOT NULL DEFAULT 0,
                bottom INTEGER NOT NULL DEFAULT 0,
                state TEXT
            );
            CREATE TABLE task (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                notes TEXT NOT NULL DEFAULT '',
                done INTEGER NOT NULL DEFAULT 0
            );
            CREATE UNIQUE INDEX task_in_order ON task(profile_id, position);
            CREATE INDEX task_by_done_in_order ON task(profile_id, done, position);
            CREATE TABLE session (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                user TEXT REFERENCES profile(name) ON DELETE SET NULL,
                pending TEXT
            );
            INSERT INTO session (id) VALUES (1);
            CREATE TABLE change (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                undone INTEGER NOT NULL DEFAULT 0,
                rows TEXT NOT NULL
            );
            CREATE INDEX change_by_profile ON change(profile_id, undone, seq);
            """
        ),
        // changes counts the profile's change rows, so a profile's history is kept to
        // its limit without counting them; a history that grew past it is cut to its
        // newest 1,000. undone_task holds the tasks an undone import took away, until
        // it is redone or forgotten.
        (
            "v2: a profile's change count, tasks of undone imports",
            """
            DELETE FROM change WHERE seq IN (
                SELECT seq FROM (SELECT seq, row_number() OVER (PARTITION BY profile_id ORDER BY seq DESC) AS newer FROM change)
                WHERE newer > 1000);
            ALTER TABLE profile ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;
            UPDATE profile SET changes = (SELECT count(*) FROM change WHERE change.profile_id = profile.id);
            CREATE TABLE undone_task (
                change_seq INTEGER NOT NULL REFERENCES change(seq) ON DELETE CASCADE,
                id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                notes TEXT NOT NULL,
                done INTEGER NOT NULL,
                PRIMARY KEY (change_seq, id)
            ) WITHOUT ROWID;
            """
        ),
        // Every task gets a uuid (a random one for each existing task, made here) and a
        // revision. A change names the process that made it and the one that undid it
        // (`undo` and `redo` take that process's own first), and `undone` counts the
        // order changes were undone in. op is the log of every change, field by field, in order.
        (
            "v3: task uuids and revisions, the operation log",
            """
            ALTER TABLE task ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
            ALTER TABLE task ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;
            UPDATE task SET uuid = \(randomUUID);
            CREATE UNIQUE INDEX task_by_uuid ON task(uuid);
            ALTER TABLE undone_task ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
            ALTER TABLE undone_task ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;
            UPDATE undone_task SET uuid = \(randomUUID);
            ALTER TABLE change ADD COLUMN writer TEXT NOT NULL DEFAULT '';
            ALTER TABLE change ADD COLUMN undone_by TEXT NOT NULL DEFAULT '';
            CREATE TABLE op (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                task_uuid TEXT,
                field TEXT NOT NULL,
                old TEXT,
                new TEXT
            );
            CREATE INDEX op_by_task ON op(task_uuid, seq);
            """
        ),
        // A task may be a subtask of another (`parent`, 0 at the top of the list) and
        // counts its own subtasks and those done; a profile counts the tasks at the top.
        // The list order is kept for each parent's tasks, with whether each is done: one
        // index serves every filter (a filtered page reads it alone), and a task added or
        // imported at either end of a list goes at the end of it.
        (
            "v4: subtasks",
            """
            ALTER TABLE task ADD COLUMN parent INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE task ADD COLUMN subtasks INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE task ADD COLUMN subtasks_done INTEGER NOT NULL DEFAULT 0;
            DROP INDEX task_in_order;
            DROP INDEX task_by_done_in_order;
            CREATE INDEX task_in_order ON task(profile_id, parent, position, done);
            ALTER TABLE profile ADD COLUMN roots INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE profile ADD COLUMN roots_done INTEGER NOT NULL DEFAULT 0;
            UPDATE profile SET roots = total, roots_done = done;
            ALTER TABLE undone_task ADD COLUMN parent INTEGER NOT NULL DEFAULT 0;
            """
        ),
        // Sync (docs/sync.md): each operation records when it was made; `sync` keeps a
        // profile's server, token, replica id, clock and how far it has sent and
        // received; `sync_outbox` holds its stamped operations until the server has
        // them; `sync_register` holds, for each task it knows, every field's value with
        // the stamp of the operation that set it; `sync_displaced` lists the tasks kept
        // away from the parent their register names (gone, or a move dropped).
        (
            "v5: sync",
            """
            ALTER TABLE op ADD COLUMN millis INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE sync (
                profile_id INTEGER PRIMARY KEY REFERENCES profile(id) ON DELETE CASCADE,
                replica TEXT NOT NULL,
                server TEXT NOT NULL DEFAULT '',
                token TEXT NOT NULL DEFAULT '',
                stamped INTEGER NOT NULL DEFAULT 0,
                outbox INTEGER NOT NULL DEFAULT 0,
                sent INTEGER NOT NULL DEFAULT 0,
                pulled INTEGER NOT NULL DEFAULT 0,
                millis INTEGER NOT NULL DEFAULT 0,
                counter INTEGER NOT NULL DEFAULT 0,
                notices TEXT NOT NULL DEFAULT ''
            );
            CREATE TABLE sync_outbox (
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                millis INTEGER NOT NULL,
                counter INTEGER NOT NULL,
                task TEXT NOT NULL,
                field TEXT NOT NULL,
                value TEXT NOT NULL,
                old TEXT NOT NULL,
                PRIMARY KEY (profile_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE sync_register (
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                uuid TEXT NOT NULL,
                alive INTEGER NOT NULL DEFAULT 0,
                alive_at TEXT NOT NULL DEFAULT '',
                title TEXT NOT NULL DEFAULT '',
                title_at TEXT NOT NULL DEFAULT '',
                notes TEXT NOT NULL DEFAULT '',
                notes_at TEXT NOT NULL DEFAULT '',
                done INTEGER NOT NULL DEFAULT 0,
                done_at TEXT NOT NULL DEFAULT '',
                parent TEXT,
                parent_old TEXT,
                parent_at TEXT NOT NULL DEFAULT '',
                position INTEGER NOT NULL DEFAULT 0,
                position_at TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (profile_id, uuid)
            ) WITHOUT ROWID;
            CREATE INDEX sync_register_by_parent ON sync_register(profile_id, parent);
            CREATE TABLE sync_displaced (
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                uuid TEXT NOT NULL,
                PRIMARY KEY (profile_id, uuid)
            ) WITHOUT ROWID;
            """
        ),
        // Tasks waiting for a parent are found through `sync_displaced`: the index of
        // registers by parent only slowed every register written.
        (
            "v6: registers without the index by parent",
            """
            DROP INDEX sync_register_by_parent;
            """
        ),
        // Equal positions (given by two replicas) are ordered by uuid: with the uuid in
        // the index a page is read in order, where SQLite sorted each position's rows
        // in a temporary b-tree, cleared again for every row.
        (
            "v7: list order with the uuid",
            """
            DROP INDEX task_in_order;
            CREATE INDEX task_in_order ON task(profile_id, parent, position, uuid, done);
            """
        ),
        // The notices of local values another replica replaced, a row each (they were
        // JSON lines appended to a column of `sync`).
        (
            "v8: sync notices in a table",
            """
            CREATE TABLE sync_notice (
                id INTEGER PRIMARY KEY,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                fields TEXT NOT NULL
            );
            INSERT INTO sync_notice (profile_id, title, fields)
            WITH RECURSIVE line(profile_id, head, rest) AS (
                SELECT profile_id, '', notices || char(10) FROM sync WHERE notices != ''
                UNION ALL
                SELECT profile_id, substr(rest, 1, instr(rest, char(10)) - 1), substr(rest, instr(rest, char(10)) + 1)
                FROM line WHERE rest != '')
            SELECT profile_id, json_extract(head, '$.title'),
                coalesce((SELECT group_concat(value, ' ') FROM json_each(head, '$.fields')), '')
            FROM line WHERE head != '' AND json_valid(head) AND json_type(head, '$.title') = 'text';
            ALTER TABLE sync DROP COLUMN notices;
            """
        ),
        // End-to-end encryption: the account's key (derived from the passphrase, as
        // base64; never the passphrase), its record as the server keeps it, and how far
        // the profile is in sealing its account (SyncSeal.State).
        (
            "v9: the account's key",
            """
            ALTER TABLE sync ADD COLUMN seal_state INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync ADD COLUMN seal_key TEXT NOT NULL DEFAULT '';
            ALTER TABLE sync ADD COLUMN seal_record TEXT NOT NULL DEFAULT '';
            """
        ),
        // Undo and redo read the operation log (docs/storage.md): a change is its
        // operations, the first (`part` 0) naming the process that made it (`writer`),
        // the next ones (`part` 1) right after it; undo's and redo's own are -1, and
        // undone changes a later change forgot -2. No index: undo reads the log from
        // its end (an index of changes cost a change an eighth of its time). `undone`
        // lists the changes undone, in the order they were (`turn`), with an undone
        // import's tasks under them. The `change` rows become operations kept for undo
        // alone (`pair`: a task before and after; `range`: an import's ids), which sync
        // does not read, after every operation the store has, in their order.
        (
            "v10: undo reads the operation log",
            """
            ALTER TABLE op ADD COLUMN part INTEGER NOT NULL DEFAULT -1;
            ALTER TABLE op ADD COLUMN writer TEXT NOT NULL DEFAULT '';
            CREATE TABLE undone (
                seq INTEGER PRIMARY KEY,
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                turn INTEGER NOT NULL,
                by TEXT NOT NULL
            );
            CREATE INDEX undone_by_profile ON undone(profile_id);
            CREATE TEMP TABLE legacy (
                n INTEGER PRIMARY KEY, change_seq INTEGER, part INTEGER, profile_id INTEGER, kind TEXT, writer TEXT,
                task_uuid TEXT, field TEXT, old TEXT, new TEXT, undone INTEGER, undone_by TEXT);
            INSERT INTO legacy (change_seq, part, profile_id, kind, writer, task_uuid, field, old, new, undone, undone_by)
            SELECT seq, part, profile_id, kind, writer, task_uuid, field, old, new, undone, undone_by FROM (
                SELECT c.seq, p.key AS k, iif(p.key = 0, 0, 1) AS part, c.profile_id, c.kind, c.writer,
                    coalesce(json_extract(p.value, '$.after.uuid'), json_extract(p.value, '$.before.uuid')) AS task_uuid,
                    'pair' AS field, json_extract(p.value, '$.before') AS old, json_extract(p.value, '$.after') AS new,
                    c.undone, c.undone_by
                FROM change AS c, json_each(c.rows, '$.pairs') AS p
                WHERE json_valid(c.rows) AND json_type(c.rows, '$.pairs') = 'array'
                UNION ALL
                SELECT c.seq, 0, 0, c.profile_id, c.kind, c.writer, NULL, 'range', NULL,
                    json_object('first', json_extract(c.rows, '$.first'), 'last', json_extract(c.rows, '$.last')),
                    c.undone, c.undone_by
                FROM change AS c WHERE json_valid(c.rows) AND json_type(c.rows, '$.first') = 'integer'
            ) ORDER BY seq, k;
            CREATE TEMP TABLE base AS SELECT max(
                coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'op'), 0), coalesce((SELECT max(seq) FROM op), 0)) AS n;
            CREATE TEMP TABLE moved AS
                SELECT l.change_seq AS change_seq, base.n + min(l.n) AS seq, l.profile_id AS profile_id, l.undone AS undone,
                    l.undone_by AS undone_by
                FROM legacy AS l, base GROUP BY l.change_seq;
            INSERT INTO op (seq, profile_id, kind, task_uuid, field, old, new, millis, part, writer)
            SELECT base.n + l.n, l.profile_id, l.kind, l.task_uuid, l.field, l.old, l.new, 0, l.part, iif(l.part = 0, l.writer, '')
            FROM legacy AS l, base ORDER BY l.n;
            INSERT INTO undone (seq, profile_id, turn, by) SELECT seq, profile_id, undone, undone_by FROM moved WHERE undone > 0;
            CREATE TEMP TABLE waiting AS
                SELECT m.seq AS change_seq, t.id, t.position, t.title, t.notes, t.done, t.uuid, t.rev, t.parent
                FROM undone_task AS t JOIN moved AS m ON m.change_seq = t.change_seq JOIN undone AS u ON u.seq = m.seq;
            DROP TABLE undone_task;
            DROP TABLE change;
            CREATE TABLE undone_task (
                change_seq INTEGER NOT NULL REFERENCES undone(seq) ON DELETE CASCADE,
                id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                title TEXT NOT NULL,
                notes TEXT NOT NULL,
                done INTEGER NOT NULL,
                uuid TEXT NOT NULL DEFAULT '',
                rev INTEGER NOT NULL DEFAULT 1,
                parent INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (change_seq, id)
            ) WITHOUT ROWID;
            INSERT INTO undone_task SELECT * FROM waiting;
            ALTER TABLE profile DROP COLUMN changes;
            -- An empty insert left the log a sequence of 0, which a new store has not.
            DELETE FROM sqlite_sequence WHERE name = 'op' AND seq = 0;
            DROP TABLE temp.waiting;
            DROP TABLE temp.legacy;
            DROP TABLE temp.base;
            DROP TABLE temp.moved;
            """
        ),
        // What sync could not open, and where the server's log was: each operation of an
        // answer that the account's key does not open is set aside here (kept as it came,
        // applied never), and `epoch` is the server log's restore epoch the profile last
        // saw (docs/sync.md, "When the server's log goes back").
        (
            "v11: operations set aside, the server's epoch",
            """
            CREATE TABLE sync_aside (
                profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
                replica TEXT NOT NULL,
                seq INTEGER NOT NULL,
                server_seq INTEGER NOT NULL,
                millis INTEGER NOT NULL,
                counter INTEGER NOT NULL,
                sealed TEXT NOT NULL,
                PRIMARY KEY (profile_id, replica, seq)
            ) WITHOUT ROWID;
            ALTER TABLE sync ADD COLUMN epoch TEXT NOT NULL DEFAULT '';
            """
        ),
        // What a task holds beyond its title, notes and done (docs/commands.md, "What a
        // task holds"): dates as seconds since 1970 (UTC), tags and dependencies as words
        // joined by a space, annotations and custom fields as JSON; the stamps the store
        // sets. Every existing task keeps its data and has none of them set.
        (
            "v12: dates, priority, project, tags, annotations, dependencies, custom fields, stamps",
            """
            ALTER TABLE task ADD COLUMN due INTEGER;
            ALTER TABLE task ADD COLUMN scheduled INTEGER;
            ALTER TABLE task ADD COLUMN wait INTEGER;
            ALTER TABLE task ADD COLUMN until INTEGER;
            ALTER TABLE task ADD COLUMN priority TEXT;
            ALTER TABLE task ADD COLUMN project TEXT;
            ALTER TABLE task ADD COLUMN recur TEXT;
            ALTER TABLE task ADD COLUMN tags TEXT NOT NULL DEFAULT '';
            ALTER TABLE task ADD COLUMN annotations TEXT NOT NULL DEFAULT '';
            ALTER TABLE task ADD COLUMN depends TEXT NOT NULL DEFAULT '';
            ALTER TABLE task ADD COLUMN fields TEXT NOT NULL DEFAULT '';
            ALTER TABLE task ADD COLUMN created INTEGER;
            ALTER TABLE task ADD COLUMN modified INTEGER;
            ALTER TABLE task ADD COLUMN completed INTEGER;
            ALTER TABLE undone_task ADD COLUMN due INTEGER;
            ALTER TABLE undone_task ADD COLUMN scheduled INTEGER;
            ALTER TABLE undone_task ADD COLUMN wait INTEGER;
            ALTER TABLE undone_task ADD COLUMN until INTEGER;
            ALTER TABLE undone_task ADD COLUMN priority TEXT;
            ALTER TABLE undone_task ADD COLUMN project TEXT;
            ALTER TABLE undone_task ADD COLUMN recur TEXT;
            ALTER TABLE undone_task ADD COLUMN tags TEXT NOT NULL DEFAULT '';
            ALTER TABLE undone_task ADD COLUMN annotations TEXT NOT NULL DEFAULT '';
            ALTER TABLE undone_task ADD COLUMN depends TEXT NOT NULL DEFAULT '';
            ALTER TABLE undone_task ADD COLUMN fields TEXT NOT NULL DEFAULT '';
            ALTER TABLE undone_task ADD COLUMN created INTEGER;
            ALTER TABLE undone_task ADD COLUMN modified INTEGER;
            ALTER TABLE undone_task ADD COLUMN completed INTEGER;
            CREATE INDEX task_by_due ON task(profile_id, due) WHERE due IS NOT NULL;
            CREATE INDEX task_by_scheduled ON task(profile_id, scheduled) WHERE scheduled IS NOT NULL;
            CREATE INDEX task_by_wait ON task(profile_id, wait) WHERE wait IS NOT NULL;
            ALTER TABLE sync_register ADD COLUMN more TEXT NOT NULL DEFAULT '';
            """
        ),
        // The agenda: open tasks with a date, soonest first, read in order from an
        // index of those alone (a tenth of a large store, say) rather than sorted.
        (
            "v13: the agenda's index",
            """
            CREATE INDEX task_on_agenda ON task(profile_id, coalesce(min(due, scheduled), due, scheduled), uuid)
                WHERE done = 0 AND (due IS NOT NULL OR scheduled IS NOT NULL);
            """
        ),
        // The words of tags and projects, for the list by a tag or a project: read in list
        // order from this table's key, with the task's place in it, rather than by a look
        // at every task. Triggers keep it, so every way a task is written (a command, an
        // import, sync, undo, a move) keeps it alike. They call `navstack_words`, which
        // navstack registers on each connection: tasks are written through navstack.
        (
            "v14: the words of tags and projects",
            taskWordSchema + dueInOrder + wordsOfTasks(where: hasWords("task")) + ";\n"
        ),
        // A day of the agenda (the tasks due or scheduled on it) sorted and counted from
        // the indexes of its two dates alone, each task read only for the page shown; and
        // the tasks with a due date in list order, which a list by a due term walks for
        // its first pages rather than sorting every task of the span.
        (
            "v15: a day from the dates' indexes, dated tasks in list order",
            """
            DROP INDEX task_by_due;
            CREATE INDEX task_by_due ON task(profile_id, due, parent, position, uuid, done, wait, scheduled) WHERE due IS NOT NULL;
            DROP INDEX task_by_scheduled;
            CREATE INDEX task_by_scheduled ON task(profile_id, scheduled, due, uuid, done, wait) WHERE scheduled IS NOT NULL;
            CREATE INDEX task_dated_in_order ON task(profile_id, parent, position, uuid, due, done, wait) WHERE due IS NOT NULL;
            """
        ),
        // The format of the operations a profile's registers and outbox hold (docs/sync.md,
        // "Stamps"): a profile that synced before is at 2, its tasks' stamps never sent;
        // its next sync sends them (``backfillStamps(_:_:_:)``) and moves it to 3. A
        // profile that syncs from now on is written at 3 from the start.
        (
            "v16: the format a profile's sync is written in",
            """
            ALTER TABLE sync ADD COLUMN format INTEGER NOT NULL DEFAULT 2;
            """
        ),
    ]
}
