extension SQLiteStore {
    /// A new store's schema in one script: what the first `version` migrations make of
    /// an empty database (a test compares the two, table by table and index by index),
    /// so that a new store, and every `--memory` start, runs it instead of replaying
    /// the history (7 migrations took three quarters of a `--memory` start-up). Later
    /// migrations follow it. The migrations themselves stay as they were shipped.
    static let newStoreSchema: (version: Int, sql: String) = (
        16,
        """
        CREATE TABLE profile (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            total INTEGER NOT NULL DEFAULT 0,
            done INTEGER NOT NULL DEFAULT 0,
            top INTEGER NOT NULL DEFAULT 0,
            bottom INTEGER NOT NULL DEFAULT 0,
            state TEXT,
            roots INTEGER NOT NULL DEFAULT 0,
            roots_done INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE task (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            title TEXT NOT NULL,
            notes TEXT NOT NULL DEFAULT '',
            done INTEGER NOT NULL DEFAULT 0,
            uuid TEXT NOT NULL DEFAULT '',
            rev INTEGER NOT NULL DEFAULT 1,
            parent INTEGER NOT NULL DEFAULT 0,
            subtasks INTEGER NOT NULL DEFAULT 0,
            subtasks_done INTEGER NOT NULL DEFAULT 0,
            due INTEGER,
            scheduled INTEGER,
            wait INTEGER,
            until INTEGER,
            priority TEXT,
            project TEXT,
            recur TEXT,
            tags TEXT NOT NULL DEFAULT '',
            annotations TEXT NOT NULL DEFAULT '',
            depends TEXT NOT NULL DEFAULT '',
            fields TEXT NOT NULL DEFAULT '',
            created INTEGER,
            modified INTEGER,
            completed INTEGER
        );
        CREATE UNIQUE INDEX task_by_uuid ON task(uuid);
        CREATE INDEX task_in_order ON task(profile_id, parent, position, uuid, done);
        CREATE INDEX task_by_due ON task(profile_id, due, parent, position, uuid, done, wait, scheduled) WHERE due IS NOT NULL;
        CREATE INDEX task_by_scheduled ON task(profile_id, scheduled, due, uuid, done, wait) WHERE scheduled IS NOT NULL;
        CREATE INDEX task_dated_in_order ON task(profile_id, parent, position, uuid, due, done, wait) WHERE due IS NOT NULL;
        CREATE INDEX task_by_wait ON task(profile_id, wait) WHERE wait IS NOT NULL;
        CREATE INDEX task_on_agenda ON task(profile_id, coalesce(min(due, scheduled), due, scheduled), uuid)
            WHERE done = 0 AND (due IS NOT NULL OR scheduled IS NOT NULL);
        CREATE TABLE session (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            user TEXT REFERENCES profile(name) ON DELETE SET NULL,
            pending TEXT
        );
        INSERT INTO session (id) VALUES (1);
        CREATE TABLE undone (
            seq INTEGER PRIMARY KEY,
            profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            turn INTEGER NOT NULL,
            by TEXT NOT NULL
        );
        CREATE INDEX undone_by_profile ON undone(profile_id);
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
            due INTEGER,
            scheduled INTEGER,
            wait INTEGER,
            until INTEGER,
            priority TEXT,
            project TEXT,
            recur TEXT,
            tags TEXT NOT NULL DEFAULT '',
            annotations TEXT NOT NULL DEFAULT '',
            depends TEXT NOT NULL DEFAULT '',
            fields TEXT NOT NULL DEFAULT '',
            created INTEGER,
            modified INTEGER,
            completed INTEGER,
            PRIMARY KEY (change_seq, id)
        ) WITHOUT ROWID;
        CREATE TABLE op (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            task_uuid TEXT,
            field TEXT NOT NULL,
            old TEXT,
            new TEXT,
            millis INTEGER NOT NULL DEFAULT 0,
            part INTEGER NOT NULL DEFAULT -1,
            writer TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX op_by_task ON op(task_uuid, seq);
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
            seal_state INTEGER NOT NULL DEFAULT 0,
            seal_key TEXT NOT NULL DEFAULT '',
            seal_record TEXT NOT NULL DEFAULT '',
            epoch TEXT NOT NULL DEFAULT '',
            format INTEGER NOT NULL DEFAULT 2
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
            more TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (profile_id, uuid)
        ) WITHOUT ROWID;
        CREATE TABLE sync_displaced (
            profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            uuid TEXT NOT NULL,
            PRIMARY KEY (profile_id, uuid)
        ) WITHOUT ROWID;
        CREATE TABLE sync_notice (
            id INTEGER PRIMARY KEY,
            profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            fields TEXT NOT NULL
        );
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
        """ + taskWordSchema
    )
}
