#!/usr/bin/env python3
"""sqlite3 loading the rows a navstack import writes, for target 14 of scripts/bench.

    bench-like.py script STORE SCRIPT DIR   what sqlite3 runs, and its CSV files in DIR
    bench-like.py check LOADED STORE        exits 1 unless both hold the same rows

`script` reads STORE (a store a navstack import made) and writes each of its tables'
rows to DIR/TABLE.csv, and SCRIPT for `sqlite3 NEW < SCRIPT`: in one transaction, make
navstack's schema (the same tables and indexes, WAL, synchronous = FULL, foreign keys
on, as navstack opens a store), then load each table from its CSV file through a table in
memory, a column left empty read as NULL where the column may be NULL. The schema's
triggers are left out: they keep `task_word` and `word_count` through navstack's own SQL
function, which sqlite3 does not have; those two tables' rows are loaded as they are.

`check` compares every table of LOADED with STORE's, row by row, both ways: the side
that sqlite3 ran is only a comparison if it wrote what navstack wrote.
"""
import csv
import sqlite3
import sys


def tables(db, schema="main"):
    return [name for (name,) in db.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]


def script(store_path, script_path, folder):
    db = sqlite3.connect(store_path)
    schema = [sql + ";" for (sql,) in db.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND type != 'trigger' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY rowid")]
    lines = ["PRAGMA journal_mode = WAL;", "PRAGMA synchronous = FULL;", "PRAGMA foreign_keys = ON;",
             "PRAGMA temp_store = MEMORY;", "BEGIN;", *schema, ".mode csv"]
    for table in tables(db):
        columns = list(db.execute(f"PRAGMA table_info({table})"))
        names = [column[1] for column in columns]
        rows = db.execute(f"SELECT * FROM {table}").fetchall()
        if not rows:
            continue
        with open(f"{folder}/{table}.csv", "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(names)
            writer.writerows(["" if value is None else value for value in row] for row in rows)
        # NULLIF for a column that may be NULL and is not the key (notnull 0, pk 0).
        values = [f"NULLIF({name}, '')" if not notnull and not key else name
                  for (_, name, _, notnull, _, key) in columns]
        lines.append(f".import --schema temp {folder}/{table}.csv staged_{table}")
        lines.append(f"INSERT INTO main.{table} SELECT {', '.join(values)} FROM temp.staged_{table};")
    lines.append("COMMIT;")
    with open(script_path, "w") as out:
        out.write("\n".join(lines) + "\n")


def check(loaded_path, store_path):
    db = sqlite3.connect(loaded_path)
    db.execute("ATTACH ? AS navstack", (store_path,))
    differ = []
    for table in tables(db, "navstack") + ["sqlite_sequence"]:
        extra, missing = db.execute(
            f"SELECT (SELECT count(*) FROM (SELECT * FROM main.{table} EXCEPT SELECT * FROM navstack.{table})), "
            f"(SELECT count(*) FROM (SELECT * FROM navstack.{table} EXCEPT SELECT * FROM main.{table}))").fetchone()
        if extra or missing:
            differ.append(f"{table}: {extra} rows only sqlite3 wrote, {missing} only navstack wrote")
    for line in differ:
        print(f"bench-like.py: {line}", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "script":
        script(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
