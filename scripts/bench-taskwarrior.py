#!/usr/bin/env python3
"""A Taskwarrior export of COUNT records with every field in use, for target 14 of
scripts/bench (issue 47), in the form `task export` prints (a JSON array, a record a line).

    bench-taskwarrior.py COUNT EXPORT.json ROWS.csv

Records: pending, waiting, completed and deleted tasks; due, scheduled, wait and until
dates; tags, projects (dotted), priorities; annotations; dependencies on earlier records;
recurring series (a template with `mask`, its instances with `parent` and `imask`); a
numeric user-defined attribute `estimate` (declare `uda.estimate.type=numeric` in the
taskrc); long descriptions with unicode and quotes. ROWS.csv holds the same records as
rows (uuid, description, status, dates, tags, project, priority, annotations as JSON,
depends, estimate) for sqlite3 loading them into a bare table, the row given for scale
(the like-for-like side loads the rows navstack writes: scripts/bench-like.py). Seeded:
the same COUNT gives the same files.
"""
import csv
import json
import random
import sys
import uuid

count, export_path, rows_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(47)
uuids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(count)]


def stamp(day, hour=9):
    """20261127T090000Z for day 0, days counted from 2026-11-27 (within 2025–2027)."""
    import datetime
    moment = datetime.datetime(2026, 11, 27, hour) + datetime.timedelta(days=day)
    return moment.strftime("%Y%m%dT%H%M%SZ")


records = []
index = 0
while index < count:
    if index + 4 <= count and rng.random() < 0.01:
        # A weekly series: its template, then three instances (two done, one pending).
        template = {"uuid": uuids[index], "description": f"Water the plants {index}", "entry": stamp(-30),
                    "modified": stamp(-1), "status": "recurring", "recur": "weekly", "due": stamp(-21),
                    "mask": "++-", "tags": ["home"], "project": "home.garden"}
        records.append(template)
        for n in range(3):
            instance = {"uuid": uuids[index + 1 + n], "description": template["description"], "entry": stamp(-21 + 7 * n),
                        "modified": stamp(-20 + 7 * n), "status": "completed" if n < 2 else "pending",
                        "due": stamp(-21 + 7 * n), "recur": "weekly", "parent": template["uuid"], "imask": n,
                        "tags": ["home"], "project": "home.garden"}
            if n < 2:
                instance["end"] = stamp(-20 + 7 * n)
            records.append(instance)
        index += 4
        continue
    record = {"id": index + 1, "uuid": uuids[index],
              "description": f"Task {index}: call the bank about the “mortgage” and \"fees\" — ação"
              + (" with a longer description to make it realistic" * rng.randint(0, 2)),
              "entry": stamp(-rng.randint(1, 400)), "modified": stamp(-rng.randint(0, 1)), "status": "pending",
              "urgency": round(rng.random() * 10, 4)}
    roll = rng.random()
    if roll < 0.15:
        record["status"], record["end"] = "completed", stamp(-rng.randint(0, 30))
    elif roll < 0.17:
        record["status"], record["end"] = "deleted", stamp(-rng.randint(0, 30))
    elif roll < 0.20:
        record["status"], record["wait"] = "waiting", stamp(rng.randint(1, 30))
    if rng.random() < 0.3:
        record["due"] = stamp(rng.randint(-20, 200), rng.choice([0, 9, 17]))
    if rng.random() < 0.05:
        record["scheduled"] = stamp(rng.randint(-5, 60))
    if "due" in record and rng.random() < 0.05:
        record["until"] = stamp(rng.randint(200, 400))
    if rng.random() < 0.5:
        record["tags"] = rng.sample(["home", "work", "errand", "phone", "later", "Home"], rng.randint(1, 3))
    if rng.random() < 0.4:
        record["project"] = rng.choice(["home", "home.garden", "work.q4", "trip.lisbon"])
    if rng.random() < 0.3:
        record["priority"] = rng.choice("HML")
    if rng.random() < 0.1:
        record["annotations"] = [{"entry": stamp(-rng.randint(0, 60), h), "description": f"note {h}: called, no answer"}
                                 for h in range(rng.randint(1, 3))]
    if rng.random() < 0.05 and index > 0:
        record["depends"] = ",".join(rng.sample(uuids[:index], min(index, rng.randint(1, 2))))
    if rng.random() < 0.2:
        record["estimate"] = rng.choice([1, 2.5, 8])
    records.append(record)
    index += 1

with open(export_path, "w") as out:
    out.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records) + "\n]\n")
with open(rows_path, "w", newline="") as out:
    writer = csv.writer(out)
    for r in records:
        writer.writerow([r["uuid"], r["description"], r["status"], r.get("entry", ""), r.get("modified", ""),
                         r.get("end", ""), r.get("due", ""), r.get("scheduled", ""), r.get("wait", ""),
                         r.get("until", ""), " ".join(r.get("tags", [])), r.get("project", ""), r.get("priority", ""),
                         json.dumps(r.get("annotations", []), ensure_ascii=False), r.get("depends", ""),
                         r.get("estimate", ""), r.get("recur", ""), r.get("parent", "")])
