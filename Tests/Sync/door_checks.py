#!/usr/bin/env python3
"""The test of every door: generated tasks with every field, hostile values included, go in
through each door and out through every other, and through a real server on PostgreSQL.

Run inside scripts/sync-env (PostgreSQL and two navstack-server instances):

    scripts/sync-env python3 Tests/Sync/door_checks.py --bin .build/release/navstack --seeds 1 2 3

For each seed it draws tasks with every field (title, notes, done, due, scheduled, wait,
until, priority, project, rule, tags, annotations, custom fields, created, modified,
completed), their texts drawn from plain words and from what breaks doors: bidi controls
(U+202E), zero-width characters (U+200B), control characters, tabs and line ends, words a
format reads (`PR:123`, `+tag`, `@ctx`, a leading `x ` or `(A) ` or date), texts of 1,000 and
10,000 characters, 500 tags, 201 annotations, dates in the years 0001 and 9999. Each task
goes in through one door of four: the prompt (typed lines on a pipe), `import` (navstack's
JSON), `import --from taskwarrior` and `import --from todotxt`, each into a store of its
own. Then:
  - refused: the door answers exit status 1 with one line on stderr that names the record
    (the todo.txt line, or the record's index), and the store holds what it held before;
  - taken: the task's fields equal what went in; `undo` then `redo` gives it back equal;
    `export`, `export --to taskwarrior` and `export --to todotxt` of that store, each
    imported into a new store, give the same task (todo.txt: the fields its lines carry);
    and after the store syncs and a second replica joins the account through the other
    server, the second replica's `export` equals the first's.
Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`; every failure names its
seed (NAVSTACK_TEST_SEED=N or --seeds N runs it again).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

PASSPHRASE = "door checks passphrase"
NOW = "2026-12-06T09:00:00Z"
ENV = dict(os.environ, NAVSTACK_SYNC="0", LANG="C.UTF-8", NAVSTACK_NOW=NOW, TZ="Europe/Madrid",
           NAVSTACK_SYNC_PASSPHRASE=PASSPHRASE)
RUN = "%04x" % random.SystemRandom().randrange(1 << 16)
passed = 0
failed = 0
seed_now = None


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {what}")
    else:
        failed += 1
        print(f"not ok - {what}" + (f"\n  {detail}" if detail else "") + f"\n  (seed {seed_now}: --seeds {seed_now})")
    return ok


class Navstack:
    def __init__(self, binary, folder):
        self.binary = binary
        self.folder = folder
        self.count = 0

    def store(self, name):
        self.count += 1
        return os.path.join(self.folder, f"{self.count}-{name}.sqlite")

    def run(self, store, *args, stdin=None, timeout=120):
        return subprocess.run([self.binary, "--store", store, *args], input=stdin, capture_output=True,
                              env=ENV, timeout=timeout)

    def export(self, store, kind=None):
        args = ["export", "--user", "ana"] + (["--to", kind] if kind else [])
        out = self.run(store, *args)
        if out.returncode != 0:
            raise RuntimeError(f"export {kind or 'navstack'} failed: {out.stderr.decode(errors='replace')}")
        return out.stdout

    def tasks(self, store):
        return json.loads(self.export(store))


# ---------------------------------------------------------------------------------------
# What the generated tasks hold.

WORDS = ["pay", "rent", "call", "mum", "review", "café", "naïve", "日本語", "Ünïcödé", "🚀", "straße", "ok"]
HOSTILE = ["\u200b", "\u202e", "\u200f", "\u2066", "\ufeff", "\x07", "\x1b[31m", "\x7f", "\x85", "\t", "\n",
           "PR:123", "+tag", "@ctx", "due:tomorrow", "uuid:x", "x ", "(A) ", "2026-01-01 ", "\\", "\"", "%20"]
TAGS = ["home", "work", "bills", "café", "日本", "a-b", "x_y", "urgent"]


def text(rng, hostile=True, long=True, lines=False):
    r = rng.random()
    if long and r < 0.05:
        return ("word " * 2000)[: rng.choice([999, 1000, 1001, 10000])].strip() or "w"
    parts = []
    for _ in range(rng.randint(1, 5)):
        if hostile and rng.random() < 0.25:
            piece = rng.choice(HOSTILE)
            if piece == "\n" and not lines:
                piece = " "
            parts.append(piece)
        else:
            parts.append(rng.choice(WORDS))
    value = " ".join(parts)
    return value if value.strip() else "blank"


def instant(rng):
    r = rng.random()
    if r < 0.05:
        return "0001-01-01T00:00:00Z"
    if r < 0.1:
        return "9999-12-30T00:00:00Z"
    year = rng.randint(2020, 2027)
    return f"{year:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z"


def task(rng, index):
    """One task as navstack's export writes it (the fields a door may carry)."""
    done = rng.random() < 0.3
    created = instant(rng)
    t = {
        "uuid": "%08x-%04x-4%03x-8%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                rng.getrandbits(12), rng.getrandbits(48)),
        "title": text(rng),
        "notes": text(rng, lines=True) if rng.random() < 0.4 else "",
        "done": done,
        "due": instant(rng) if rng.random() < 0.5 else None,
        "scheduled": instant(rng) if rng.random() < 0.2 else None,
        "wait": instant(rng) if rng.random() < 0.1 else None,
        "until": None,
        "priority": rng.choice(["H", "M", "L", None]),
        "project": ".".join(rng.sample(TAGS[:4], rng.randint(1, 2))) if rng.random() < 0.4 else None,
        "recur": None,
        "tags": [],
        "created": created,
        "modified": created,
        "completed": created if done else None,
        "annotations": [],
        "depends": [],
        "fields": {},
    }
    r = rng.random()
    if r < 0.05:
        t["tags"] = sorted({f"t{n}" for n in range(500)}, key=lambda s: (s.lower(), s))
    else:
        t["tags"] = sorted(set(rng.sample(TAGS, rng.randint(0, 3))), key=lambda s: (s.lower(), s))
    count = 201 if rng.random() < 0.03 else rng.randint(0, 2)
    t["annotations"] = [{"entry": instant(rng), "text": text(rng, long=False)} for _ in range(count)]
    t["annotations"].sort(key=lambda a: a["entry"])
    for _ in range(rng.randint(0, 2)):
        t["fields"][rng.choice(["myuda", "estimate", "client", "size"])] = text(rng, long=rng.random() < 0.5)
    return t


# ---------------------------------------------------------------------------------------
# The doors in.

def tw_instant(value):
    return value.replace("-", "").replace(":", "")


def taskwarrior_record(t):
    r = {"uuid": t["uuid"], "description": t["title"], "status": "completed" if t["done"] else "pending",
         "entry": tw_instant(t["created"]), "modified": tw_instant(t["modified"])}
    if t["completed"]:
        r["end"] = tw_instant(t["completed"])
    for key in ("due", "scheduled", "wait", "until"):
        if t[key]:
            r[key] = tw_instant(t[key])
    for key in ("priority", "project"):
        if t[key]:
            r[key] = t[key]
    if t["tags"]:
        r["tags"] = t["tags"]
    if t["annotations"]:
        r["annotations"] = [{"entry": tw_instant(a["entry"]), "description": a["text"]} for a in t["annotations"]]
    if t["notes"]:
        r["navstack_notes"] = t["notes"]
    r.update(t["fields"])
    return r


def navstack_record(t):
    return {key: value for key, value in t.items()}


def for_todotxt(t):
    """The task as a todo.txt line can say it: a done task's priority is not written (the
    format drops it), and a key:value ends at a blank."""
    fields = {name: (value.split() or ["v"])[0] for name, value in t["fields"].items()}
    return dict(t, fields=fields, priority=None if t["done"] else t["priority"])


def todotxt_line(t):
    words = []
    if t["done"]:
        words.append("x " + t["completed"][:10])
    if t["priority"]:
        words.append({"H": "(A)", "M": "(B)", "L": "(C)"}[t["priority"]])
    words.append(t["created"][:10])
    words.append(t["title"])
    words += ["+" + tag for tag in t["tags"]]
    if t["project"]:
        words.append("project:" + t["project"])
    for name, value in t["fields"].items():
        words.append(f"{name}:{value}")
    return " ".join(words)


class Door:
    """One way in: writes the task into a new store; returns (store, process)."""

    def __init__(self, name):
        self.name = name


def through_import(nav, t, kind):
    store = nav.store(kind)
    nav.run(store, "-c", "login ana")
    before = nav.export(store)
    path = store + ".in"
    if kind == "taskwarrior":
        data = json.dumps([taskwarrior_record(t)], ensure_ascii=False).encode()
    elif kind == "navstack":
        data = json.dumps([navstack_record(t)], ensure_ascii=False).encode()
    else:
        data = (todotxt_line(t) + "\n").encode()
    with open(path, "wb") as f:
        f.write(data)
    args = ["import", "--user", "ana", path] + ([] if kind == "navstack" else ["--from", kind])
    return store, before, nav.run(store, *args)


ADD_ATTRIBUTES = {"due", "scheduled", "wait", "until", "recur", "priority", "pri", "project", "pro"}


def is_add_attribute(word):
    """Whether `add` reads a word as an attribute (`+TAG`, `NAME:VALUE`), as AddLine does."""
    if word.startswith("+"):
        tag = word[1:]
        return 0 < len(tag) <= 64 and all(c.isalnum() or c in "-_" for c in tag)
    return ":" in word and word.split(":", 1)[0].lower() in ADD_ATTRIBUTES


def add_line(title):
    """The words typed after `add` for a title, and the title `add` makes of them: the
    prompt trims a line; a word `add` would read as an attribute is typed after a `\\`;
    and a line with such a word, or one that starts with `\\`, has its words joined by one
    space (docs/commands.md)."""
    text = title.strip()
    words = text.split()
    if not any(is_add_attribute(w) or w.startswith("\\") for w in words):
        return text, text
    return " ".join("\\" + w if is_add_attribute(w) else w for w in words), " ".join(words)


def through_prompt(nav, t):
    """Types the task at the prompt: `add` with its title, then its notes, attributes and
    annotations on its draft and detail. Lines are as typed: a line break in a text is
    what a user types for one (`\\n`)."""
    store = nav.store("prompt")
    nav.run(store, "-c", "login ana")
    before = nav.export(store)

    def typed(value):
        return value.replace("\\", "\\\\").replace("\n", "\\n")

    # `add` on the list opens the new task's detail.
    lines = ["root", "add " + add_line(t["title"])[0], "edit"]
    if t["notes"]:
        lines.append("notes " + typed(t["notes"]))
    for key in ("due", "scheduled", "wait"):
        if t[key]:
            lines.append(f"{key} {t[key]}")
    if t["priority"]:
        lines.append("priority " + t["priority"])
    if t["project"]:
        lines.append("project " + t["project"])
    if t["tags"]:
        lines.append("tag " + " ".join("+" + tag for tag in t["tags"]))
    if t["done"]:
        lines.append("done on")
    lines.append("save")
    for annotation in t["annotations"]:
        lines.append("annotate " + typed(annotation["text"]))
    data = ("\n".join(lines) + "\n").encode()
    return store, before, nav.run(store, "--bail", stdin=data)


# ---------------------------------------------------------------------------------------
# What comes out.

KEYS = ["uuid", "title", "notes", "done", "due", "scheduled", "wait", "until", "priority", "project", "recur", "tags",
        "annotations", "depends", "fields", "created", "modified", "completed"]


def comparable(task, keys=KEYS):
    return {key: task.get(key) for key in keys}


def differences(one, other, keys=KEYS):
    return [f"{key}: {one.get(key)!r:.200} != {other.get(key)!r:.200}" for key in keys if one.get(key) != other.get(key)]


def fields_in(t, door):
    """What a door carries of a task: the prompt makes its own uuid and stamps and
    annotations' instants; todo.txt carries dates to the minute (its own format)."""
    keys = [k for k in KEYS if k not in ("until", "recur", "depends")]
    if door == "prompt":
        keys = ["title", "notes", "done", "priority", "project", "tags"]
    if door == "todotxt":
        keys = ["title", "done", "priority", "project", "tags", "fields"]
    return keys


def canonical_annotations(annotations):
    """Annotations in the order every replica keeps them: by instant, and those of one
    instant as their JSON sorts (Annotation.canonical)."""
    entries = [a["entry"] for a in annotations]
    if all(a < b for a, b in zip(entries, entries[1:])):
        return annotations
    return sorted(annotations, key=lambda a: json.dumps({"entry": a["entry"], "text": a["text"]}, ensure_ascii=False,
                                                        separators=(",", ":")))


def expected(t, door):
    """The task as a door should hold it: a todo.txt line keeps its +words in the title
    (the format's convention: each is also a tag)."""
    t = dict(t, annotations=canonical_annotations(t["annotations"]))
    if door == "prompt":
        return dict(t, title=add_line(t["title"])[1])
    if door != "todotxt" or not t["tags"]:
        return t
    return dict(t, title=t["title"] + " " + " ".join("+" + tag for tag in t["tags"]))


def without_written_tags(title, task):
    """A todo.txt title read back without the `+TAG` words the export wrote after it for
    the task's tags its title does not show: todo.txt keeps every word of the line in the
    text, so they come back in the title (a known limit of the format, docs/moving-in.md)."""
    words = title.split(" ")
    while len(words) > 1 and words[-1].startswith("+") and words[-1][1:] in task["tags"]:
        words.pop()
    stripped = " ".join(words)
    return stripped if stripped == task["title"] else title


def one_line_naming(stderr, door):
    lines = stderr.decode(errors="replace").strip().splitlines()
    if len(lines) != 1:
        return False
    line = lines[0]
    return ("line 1" in line) if door == "todotxt" else ("record 0" in line or "line" in line or door == "prompt")


def check_task(nav, t, door, server_a, server_b, token):
    if door == "prompt":
        store, before, out = through_prompt(nav, t)
    else:
        store, before, out = through_import(nav, t, door)
    label = f"{door}: task {t['uuid'][:8]} ({t['title'][:24]!r})"
    if out.returncode != 0:
        ok = check(out.returncode == 1 and one_line_naming(out.stderr, door), f"{label}: refused with one line",
                   out.stderr.decode(errors="replace")[:600])
        after = nav.export(store)
        check(after == before or door == "prompt", f"{label}: a refusal changes nothing",
              after.decode(errors="replace")[:400])
        return ok
    held = nav.tasks(store)
    if not check(len(held) == 1, f"{label}: the store holds the task", repr(held)[:400]):
        return False
    got = held[0]
    keys = fields_in(t, door)
    diff = differences(comparable(expected(t, door), keys), comparable(got, keys), keys)
    check(not diff, f"{label}: taken whole", "; ".join(diff))
    # undo, then redo: the same task again.
    if door != "prompt":
        undo = nav.run(store, "-c", "undo")
        gone = nav.tasks(store)
        redo = nav.run(store, "-c", "redo")
        back = nav.tasks(store)
        check(undo.returncode == 0 and gone == [] and redo.returncode == 0 and back == held,
              f"{label}: undo takes it away, redo gives it back equal",
              f"undo {undo.returncode} {undo.stderr[:200]!r}, after undo {len(gone)}, redo {redo.returncode}, "
              + "; ".join(differences(held[0], back[0]) if back else ["gone"]))
    # Each export, imported into a new store, gives the same task.
    for kind in ("navstack", "taskwarrior", "todotxt"):
        data = nav.export(store, None if kind == "navstack" else kind)
        again = nav.store("again-" + kind)
        nav.run(again, "-c", "login ana")
        path = again + ".in"
        with open(path, "wb") as f:
            f.write(data)
        args = ["import", "--user", "ana", path] + ([] if kind == "navstack" else ["--from", kind])
        out = nav.run(again, *args)
        if not check(out.returncode == 0, f"{label}: its {kind} export imports again",
                     out.stderr.decode(errors="replace")[:400]):
            continue
        other = nav.tasks(again)
        keys = KEYS if kind != "todotxt" else ["uuid", "title", "done", "priority", "project", "tags", "fields"]
        if other and kind == "todotxt":
            other[0] = dict(other[0], title=without_written_tags(other[0]["title"], got))
        diff = differences(comparable(got, keys), comparable(other[0], keys), keys) if other else ["no task"]
        check(not diff, f"{label}: its {kind} export comes back equal", "; ".join(diff))
    # Sync: the store sends it; a second replica joins through the other server.
    sent = nav.run(store, "sync", "--user", "ana", "--server", server_a, "--token", token)
    if not check(sent.returncode == 0, f"{label}: sync sends it", sent.stderr.decode(errors="replace")[:400]):
        return False
    replica = nav.store("replica")
    nav.run(replica, "-c", "login ana")
    got_b = nav.run(replica, "sync", "--user", "ana", "--server", server_b, "--token", token)
    if not check(got_b.returncode == 0, f"{label}: a second replica syncs", got_b.stderr.decode(errors="replace")[:400]):
        return False
    mine, theirs = nav.tasks(store), nav.tasks(replica)
    theirs_by_uuid = {task["uuid"]: task for task in theirs}
    diff = []
    for task in mine:
        other = theirs_by_uuid.get(task["uuid"])
        diff += differences(task, other) if other else [f"{task['uuid']} missing"]
    check(not diff, f"{label}: the second replica holds it equal", "; ".join(diff))
    return True


def token(name):
    out = subprocess.run([os.environ["NAVSTACK_SERVER_BIN"], "--database", os.environ["NAVSTACK_PG_URL"],
                          "user", "add", name + RUN], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def main():
    global seed_now
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--seeds", type=int, nargs="*")
    parser.add_argument("--tasks", type=int, default=6, help="tasks a door a seed")
    args = parser.parse_args()
    env_seed = os.environ.get("NAVSTACK_TEST_SEED")
    seeds = args.seeds or ([int(env_seed)] if env_seed else [random.SystemRandom().randrange(1 << 31)])
    server_a, server_b = os.environ["NAVSTACK_SERVER_A"], os.environ["NAVSTACK_SERVER_B"]
    with tempfile.TemporaryDirectory(prefix="navstack-doors-") as folder:
        nav = Navstack(os.path.abspath(args.bin), folder)
        for seed in seeds:
            seed_now = seed
            print(f"# seed {seed}")
            rng = random.Random(seed)
            for door in ("taskwarrior", "navstack", "todotxt", "prompt"):
                for index in range(args.tasks):
                    drawn = task(rng, index)
                    if door == "todotxt":
                        drawn = for_todotxt(drawn)
                    check_task(nav, drawn, door, server_a, server_b, token(f"door{seed}{door}{index}"))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
