import GRDB

extension SQLiteStore {
    /// The schema, as named migrations applied in order, each in a transaction. A store
    /// that has a migration this list does not know was written by a newer navstack.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: profiles, tasks, session, changes") { db in
            // total and done count the profile's tasks; top and bottom are the lowest and
            // highest positions ever given, so a position is never given twice.
            try db.execute(sql: """
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
                """)
        }
        return migrator
    }
}
