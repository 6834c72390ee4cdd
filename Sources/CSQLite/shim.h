// The system SQLite, and what of its header Swift cannot import.
#ifndef NAVSTACK_CSQLITE_SHIM_H
#define NAVSTACK_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT (SQLite copies bound text before the call returns): the macro is a
/// cast Swift cannot import.
static inline sqlite3_destructor_type ns_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic, which Swift cannot call.
static inline int ns_sqlite_db_config_flag(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

/// sqlite3_config is variadic too: turns off SQLite's memory statistics, which take a
/// global lock on every allocation. Only before SQLite is first used.
static inline int ns_sqlite_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// How many bytes a statement's or savepoint's journal holds in memory before it moves
/// to a temporary file. Only before SQLite is first used.
static inline int ns_sqlite_config_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

#endif
