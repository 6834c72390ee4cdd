#!/usr/bin/env python3
"""Concurrency property test for navstack's store (SPEC: "Identity, revisions and conflicts").

Several navstack processes (default 4 x 300 commands) run at the same time on ONE store
file, all signed in as the same profile. Each is driven through pipes one command at a
time (`--format json`: one JSON object per command), choosing its next command at random
(seeded) from the screen it was just shown: open, toggle, add, delete, edit and save,
`save!`, `theirs`, undo, redo, deep links... Every title and notes value it types is unique
(`p2-c117`, `notes p2-c117`), so each write can be traced. Errors (conflicts, a task
deleted or a row moved by another process) are expected and do not stop the run.

Afterwards the store is read (sqlite3, read-only) and these must hold:
  1. `task` ids and uuids are unique; every uuid is lowercase 8-4-4-4-12 hex.
  2. Every successful printed write has its operations in `op`: a toggle its `done` op
     with the printed value; a save (`save`, `save!`) one op for each field the command
     sequence set on that edit screen to a value different from the one the screen
     started from; `add` and the new-task sheet a `task` creation op; `delete` a `task`
     deletion op; each successful undo/redo at least one op of its kind.
  3. No silent writes: every `save`/`toggle` op on a field is claimed by a printed command
     of that kind that intended that value on that task (one op per command and field).
     A save writing a field its draft did not change is the lost update issue 7 fixes.
  4. Replaying `op` in seq order gives the store: each task's title/notes/done is the
     `new` of its last op on that field (or of its last creation op), a task whose last
     `task` op deletes it is absent, every other task logged is present.
  5. Nothing printed is lost: every value a successful write printed is the final value,
     or a later op (higher seq) on that task and field (or the whole task) exists.

Usage: property.py --bin PATH [--seed N] [--processes 4] [--commands 300] [--keep DIR]
Exit 0 when every check holds, 1 with a report of each violation (and the seed).
Only the standard library is used. The binary is copied into the work directory first,
so a rebuild during the run does not change it; the store is created by one launch before
the concurrent processes start (concurrent creation of a new store is not tested here).
"""
import argparse, collections, json, os, random, re, select, shlex, shutil, sqlite3
import subprocess, sys, tempfile, threading, time, traceback

FIELDS = ("title", "notes", "done")
SAMPLE = {1: ("Buy fruit", "Apples, bananas, grapes", False),
          2: ("Study SwiftUI", "NavigationStack and routes", False),
          3: ("Go for a walk", "30 minutes", True)}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")
ANSWER_TIMEOUT = 20.0


class Gone(Exception):
    """The process stopped answering: it exited, printed garbage or timed out."""


class Process:
    """One navstack process, asked one line at a time."""

    def __init__(self, n, binary, store, work):
        self.stderr_path = os.path.join(work, f"p{n}.stderr")
        self.proc = subprocess.Popen(
            [binary, "--store", store, "--sample", "--format", "json", "--page-size", "5",
             "--width", "80"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(self.stderr_path, "wb"))
        self.buffer = b""

    def read(self):
        deadline = time.monotonic() + ANSWER_TIMEOUT
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise Gone(f"no answer within {ANSWER_TIMEOUT:.0f} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise Gone(f"exited ({self.proc.wait()}) {self.stderr_tail()}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            raise Gone(f"printed a line that is not JSON: {line[:200]!r}")

    def ask(self, command):
        try:
            self.proc.stdin.write(command.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as error:
            raise Gone(f"cannot write to it ({error}) {self.stderr_tail()}")
        return self.read()

    def finish(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return "hung at end of input (killed)"

    def stderr_tail(self):
        with open(self.stderr_path, "rb") as f:
            text = f.read()[-400:].decode(errors="replace").strip()
        return f"stderr: {text}" if text else ""


class Driver:
    """Chooses each command from the last screen and notes what each success wrote.

    Writes are dicts: kind (toggle|save|add|delete), proc, step, cmd, id, uuid, and
    field/value (None = not known) or, for a created task, fields {title, notes, done};
    `optional` marks a save of a field set back to the value its screen started from
    (written or not, depending on whether the store's base moved: both are fine).
    """

    def __init__(self, n, process, seed, commands):
        self.n, self.process, self.commands = n, process, commands
        self.rng = random.Random(f"{seed}/{n}")
        self.screen = None          # last screen successfully shown
        self.base = None            # draft when `edit` opened the edit screen (rebased by theirs)
        self.edit_path = None
        self.mine = {}              # fields set on the edit screen since: field -> value
        self.sheet = False          # a new-task sheet this process opened
        self.conflicted = False     # last save failed: prefer save!/theirs/cancel
        self.ids = {}               # id -> uuid (or None) of every task seen
        self.steps, self.writes, self.errors = [], [], []
        self.done = collections.Counter()   # successful commands by word
        self.failure, self.sent = None, 0.0

    # ---- running

    def launch(self):
        self.screen = self.process.read()
        self.see(self.screen)

    def run(self):
        try:
            for step in range(1, self.commands + 1):
                command = self.choose(step)
                self.sent = time.monotonic()
                answer = self.process.ask(command)
                self.steps.append((step, command, answer, time.monotonic() - self.sent))
                self.take(step, command, answer)
        except Gone as gone:
            self.failure = f"p{self.n} after {len(self.steps)} commands: {gone}"
        except Exception:           # a screen this driver did not expect: say so, end the process
            self.failure = f"p{self.n} after {len(self.steps)} commands: driver error\n{traceback.format_exc()}"
        status = self.process.finish()
        if self.failure is None and status not in (0, 1):
            self.failure = f"p{self.n} ended with status {status} {self.process.stderr_tail()}"

    # ---- choosing

    def choose(self, step):
        s, r, tag = self.screen or {}, self.rng, f"p{self.n}-c{step}"
        kind = s.get("screen")
        pick = lambda *pairs: r.choices([p[0] for p in pairs], [p[1] for p in pairs])[0]
        anywhere = (("undo", 3), ("redo", 3), ("go", 3))
        hot = [id for id in sorted(self.ids) if id in SAMPLE]   # edited by all: conflicts
        if kind == "login":
            return "login ana"
        if kind == "list":
            rows = [item["row"] for item in s.get("items", [])]
            if not rows:
                return pick(("add " + tag, 3), ("filter all", 1)) if s.get("filter") != "all" else "add " + tag
            what = pick(("open", 22), ("toggle", 18), ("delete", 3 if s.get("total", 0) > 4 else 1),
                        ("add", 6), ("new", 3), ("filter", 6), ("page", 4), ("root", 1),
                        ("go edit", 20 if hot else 0), *anywhere)
            if what == "delete":    # the sample tasks stay: all processes edit them (conflicts)
                rows = [t["row"] for t in s["items"] if t["id"] not in SAMPLE]
                what = what if rows else "add"
            if what in ("open", "toggle", "delete"):    # the top rows most: more contention
                return f"{what} {r.choices(rows, [1 / row for row in rows])[0]}"
            if what == "add":
                return "add " + tag
            if what == "filter":
                return "filter " + r.choice(("all", "all", "open", "done"))
            if what == "page":
                return "next" if s.get("page", 1) < s.get("pages", 1) and r.random() < .7 else "prev"
        elif kind == "detail":
            what = pick(("edit", 40), ("toggle", 20), ("delete", 0 if s["task"]["id"] in SAMPLE else 4),
                        ("back", 20), ("root", 4), ("go edit", 15 if hot else 0), *anywhere)
        elif kind == "edit" and self.base is not None:
            # a conflict shows on the screen, or after a save failed (its error shows no screen)
            if self.conflicted:
                what = pick(("theirs", 35), ("save!", 30), ("save", 5), ("cancel", 10), ("title", 10),
                            ("notes", 10), ("back!", 5))
            else:
                offered = 3 if "theirs" in s.get("actions", ()) else .5
                what = pick(("title", 24), ("notes", 20), ("done", 12), ("save", 18), ("save!", offered),
                            ("theirs", offered), ("cancel", 5), ("back!", 3), ("root", 2), *anywhere)
        elif kind == "new-task" and self.sheet:
            blank = not s.get("draft", {}).get("title", "").strip()
            what = pick(("title", 40 if blank else 10), ("notes", 15), ("done", 10),
                        ("save", 2 if blank else 40), ("cancel", 5), ("back!", 3), ("undo", 2), ("redo", 2))
        elif kind in ("edit", "new-task"):
            return "back!"                  # a draft this process did not start: drop it
        elif kind == "not-found":
            return r.choice(("back", "root"))
        elif kind in ("account", "settings", "about"):
            return "tab tasks"
        else:
            return "go tasks"
        if what == "title":
            return "title " + tag
        if what == "notes":
            return "notes notes " + tag
        if what == "done":
            done = s.get("draft", {}).get("done", False)
            return "done " + ("on" if (not done if r.random() < .85 else done) else "off")
        if what == "go":
            if not self.ids:
                return "go tasks"
            id = r.choice(hot if hot and r.random() < .5 else sorted(self.ids))
            uuid = self.ids[id]
            return f"go tasks/{uuid if uuid and r.random() < .3 else id}"
        if what == "go edit":
            return f"go tasks/{r.choice(hot)}/edit"
        return what

    # ---- what an answer means

    def see(self, screen):
        for task in screen.get("items", []) + ([screen["task"]] if "task" in screen else []):
            self.ids[task["id"]] = task.get("uuid") or self.ids.get(task["id"])

    def write(self, step, command, kind, task=None, **more):
        task = task or {}
        self.writes.append(dict(kind=kind, proc=self.n, step=step, cmd=command, at=self.sent, id=task.get("id"),
                                uuid=task.get("uuid") or self.ids.get(task.get("id")), **more))

    def take(self, step, command, answer):
        if "error" in answer:
            self.errors.append(answer["error"].get("message", ""))
            if answer["error"].get("line") != step:
                raise Gone(f"answer out of step: line {answer['error'].get('line')} for command {step}")
            if command in ("save", "save!", "theirs"):     # no loop of refused save!/theirs
                self.conflicted = command == "save"
            return
        if "screen" not in answer:
            return
        before, word = self.screen, command.split()[0]
        arg = command[len(word):].strip()
        self.see(answer)
        shown = lambda id: next((t for t in answer.get("items", []) if t["id"] == id), None)
        if word == "toggle":
            if before["screen"] == "detail":
                task = answer.get("task") or before["task"]
                self.write(step, command, "toggle", task, field="done",
                           value=answer["task"]["done"] if "task" in answer else None)
            else:
                task = next(t for t in before["items"] if t["row"] == int(arg))
                now = shown(task["id"])
                self.write(step, command, "toggle", now or task, field="done",
                           value=now["done"] if now else None)
        elif word == "delete":
            task = before["task"] if before["screen"] == "detail" else \
                next(t for t in before["items"] if t["row"] == int(arg))
            self.write(step, command, "delete", task)
        elif word == "add" and answer["screen"] == "detail":
            self.write(step, command, "add", answer["task"], fields=dict(title=arg or "New task"))
        elif word in ("save", "save!") and before["screen"] == "new-task" and self.sheet:
            self.write(step, command, "add", fields=dict(before["draft"]))
        elif word in ("save", "save!") and before["screen"] == "edit" and self.base is not None:
            id = int(self.edit_path[-1].split("/")[1])
            for field, value in self.mine.items():
                self.write(step, command, "save", {"id": id}, field=field, value=value,
                           optional=value == self.base[field])
        self.done[word] += 1
        # the draft this process tracks
        if answer["screen"] == "edit":
            self.done["conflict shown"] += bool(answer.get("conflicts")) and not self.conflicted
            self.conflicted = bool(answer.get("conflicts"))
            if word in ("edit", "go"):     # a new edit screen (go is refused over a dirty draft)
                self.base, self.edit_path, self.mine = dict(answer["draft"]), answer["path"], {}
            elif self.base is None or answer["path"] != self.edit_path:
                self.base = None
            elif word == "theirs":          # rebased: fields that took the stored value are no longer mine
                self.mine = {f: v for f, v in self.mine.items() if answer["draft"][f] == v}
                self.base.update({f: v for f, v in answer["draft"].items() if f not in self.mine})
            elif word in FIELDS:
                self.mine[word] = answer["draft"][word]
        elif answer["screen"] == "new-task":
            self.sheet = self.sheet or word == "new"
        else:
            self.base, self.edit_path, self.mine, self.sheet, self.conflicted = None, None, {}, False, False
        self.screen = answer


# ---- checks


def load(store):
    """Tasks by id and ops in seq order of profile `ana`, or a list of what is missing."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    columns = {row[1] for row in db.execute("PRAGMA table_info(task)")}
    missing = [f"{what} missing: the store has no issue-7 {what}" for what, ok in
               (("task.uuid column", "uuid" in columns), ("op table", "op" in tables)) if not ok]
    if missing:
        return missing, None, None
    profile = db.execute("SELECT id FROM profile WHERE name = 'ana'").fetchone()
    if profile is None:
        return ["profile ana missing: no process signed in"], None, None
    tasks = {id: dict(id=id, uuid=uuid, title=title, notes=notes, done=bool(done))
             for id, uuid, title, notes, done in db.execute(
                 "SELECT id, uuid, title, notes, done FROM task WHERE profile_id = ?", profile)}
    value = lambda text: None if text is None else json.loads(text)
    ops = [dict(seq=seq, kind=kind, uuid=uuid, field=field, old=value(old), new=value(new))
           for seq, kind, uuid, field, old, new in db.execute(
               "SELECT seq, kind, task_uuid, field, old, new FROM op WHERE profile_id = ? ORDER BY seq",
               profile)]
    db.close()
    return [], tasks, ops


def match(writes, candidates):
    """Maximum one-to-one matching of writes to ops (Kuhn); earlier writes are never
    unmatched by later ones, so required writes go first. Returns {write index: op index}."""
    op_of, write_of = {}, {}

    def augment(w, seen):
        for o in candidates[w]:
            if o not in seen:
                seen.add(o)
                if o not in write_of or augment(write_of[o], seen):
                    op_of[w], write_of[o] = o, w
                    return True
        return False

    for w in range(len(writes)):
        augment(w, set())
    return op_of


def check(store, drivers):
    missing, tasks, ops = load(store)
    if missing:
        return {0: missing}, 0
    bad = collections.defaultdict(list)
    say = lambda n, text: bad[n].append(text)
    who = lambda w: f"p{w['proc']} #{w['step']} `{w['cmd']}`"

    # 1. identity
    uuids = collections.Counter(t["uuid"] for t in tasks.values())
    for uuid, count in uuids.items():
        if count > 1:
            say(1, f"uuid {uuid} is on {count} tasks")
    for t in tasks.values():
        if not isinstance(t["uuid"], str) or not UUID.match(t["uuid"]):
            say(1, f"task {t['id']} has uuid {t['uuid']!r}, not lowercase 8-4-4-4-12 hex")

    # who is who: ids are never reused, so id -> uuid is one function over the store and the log
    uuid_of = {t["id"]: t["uuid"] for t in tasks.values()}
    for op in ops:
        for obj in (op["old"], op["new"]):
            if op["field"] == "task" and isinstance(obj, dict) and "id" in obj:
                uuid_of.setdefault(obj["id"], obj.get("uuid"))
    id_of = {uuid: id for id, uuid in uuid_of.items()}
    name = lambda uuid: f"task {id_of.get(uuid, '?')} ({uuid})"
    writes = [w for d in drivers for w in d.writes]
    for w in writes:
        w["uuid"] = w["uuid"] or uuid_of.get(w["id"])

    # 4. the log replays to the store; also gives, per op, whether a later one touches its field
    state, last = {}, {}    # uuid -> {field: value} | "deleted"; (uuid, field) -> last seq
    for op in ops:
        uuid, field = op["uuid"], op["field"]
        if field == "task":
            state[uuid] = "deleted" if op["new"] is None else {f: op["new"].get(f) for f in FIELDS}
            for f in FIELDS:
                last[uuid, f] = op["seq"]
        elif field in FIELDS:
            if state.get(uuid) == "deleted":
                say(4, f"op {op['seq']} ({op['kind']}) sets {field} of {name(uuid)} after its deletion")
                continue
            state.setdefault(uuid, {})[field] = op["new"]
            last[uuid, field] = op["seq"]
        else:
            say(4, f"op {op['seq']} names field {field!r}")
    by_uuid = {t["uuid"]: t for t in tasks.values()}
    for uuid, logged in state.items():
        task = by_uuid.get(uuid)
        if logged == "deleted":
            if task:
                say(4, f"{name(uuid)} is in the store, but its last task op deletes it")
        elif not task:
            say(4, f"{name(uuid)} is not in the store, but no op deletes it")
        else:
            for field, value in logged.items():
                if task[field] != value:
                    say(4, f"{name(uuid)} has {field} {task[field]!r} in the store, "
                           f"but its last op on it set {value!r}")
    for task in tasks.values():
        logged = state.get(task["uuid"], {})
        if logged == "deleted":
            continue
        if not any(f in logged for f in FIELDS) and task["id"] not in SAMPLE:
            say(4, f"task {task['id']} ({task['title']!r}) is in the store, but no op created it")
        for i, field in enumerate(FIELDS):
            if field not in logged and task["id"] in SAMPLE and task[field] != SAMPLE[task["id"]][i]:
                say(4, f"sample task {task['id']} has {field} {task[field]!r} that no op set")

    # 2 and 3. field writes of save and toggle, one op each, matched both ways
    field_ops = [i for i, op in enumerate(ops) if op["kind"] in ("save", "toggle") and op["field"] in FIELDS]
    # in the order they were sent, so that each tends to get the earliest op that fits
    field_writes = sorted((w for w in writes if w["kind"] in ("save", "toggle")),
                          key=lambda w: (w.get("optional", False), w["at"]))
    fits = lambda w, op: (op["kind"] == w["kind"] and op["uuid"] == w["uuid"] and op["field"] == w["field"]
                          and (w["value"] is None or op["new"] == w["value"]))
    candidates = [[i for i in field_ops if fits(w, ops[i])] for w in field_writes]
    op_of = match(field_writes, candidates)
    claimed = set(op_of.values())
    recorded = []     # (write, field, value, seq of the op that recorded it)
    for k, w in enumerate(field_writes):
        if k in op_of:
            recorded.append((w, w["field"], ops[op_of[k]]["new"], ops[op_of[k]]["seq"]))
            continue
        if w.get("optional"):
            continue
        # save! of a task deleted elsewhere re-creates it: a whole-task op of kind save
        # counts; a `done` another change had already set to the same value may be skipped
        other = next((op for op in ops if op["uuid"] == w["uuid"] and (
            (op["field"] == "task" and op["kind"] == "save" and op["new"]
             and op["new"].get(w["field"]) == w["value"]) or
            (w["kind"] == "save" and w["field"] == "done" == op["field"] and op["new"] == w["value"]))), None)
        if other:
            recorded.append((w, w["field"], w["value"], other["seq"]))
            continue
        value = "" if w["value"] is None else f" = {json.dumps(w['value'])}"
        say(2, f"{who(w)} succeeded, but no {w['kind']} op sets {w['field']}{value} on "
               f"{name(w['uuid']) if w['uuid'] else 'task ' + str(w['id'])}")
    for i in field_ops:
        if i not in claimed:
            op = ops[i]
            intents = [who(w) + ("" if w["value"] is None else f" -> {json.dumps(w['value'])}")
                       for w in field_writes if w["uuid"] == op["uuid"] and w["field"] == op["field"]
                       and w["kind"] == op["kind"]]
            say(3, f"op {op['seq']} ({op['kind']}) sets {op['field']} of {name(op['uuid'])} "
                   f"{json.dumps(op['old'])} -> {json.dumps(op['new'])}, but no printed {op['kind']} intended it"
                   + (f" (latest {op['kind']}s of it: {', '.join(intents[-4:])})" if intents else ""))

    # 2. whole-task writes and undo/redo
    for w in writes:
        if w["kind"] == "add":
            # The fields this test changes (a draft shows the others too, all unset here).
            f = {k: v for k, v in w["fields"].items() if k in FIELDS}
            kinds = ("add",) if w["cmd"].startswith("add") else ("add", "save")    # the sheet's is a save
            op = next((op for op in ops if op["field"] == "task" and op["kind"] in kinds and op["new"]
                       and all(op["new"].get(k) == v for k, v in f.items())
                       and (w["uuid"] is None or op["new"].get("uuid") == w["uuid"])), None)
            if op is None:
                say(2, f"{who(w)} succeeded, but no {'/'.join(kinds)} op creates a task with {json.dumps(f)}")
            else:
                w["uuid"] = op["uuid"] or op["new"].get("uuid")
                recorded += [(w, k, v, op["seq"]) for k, v in f.items()]
        elif w["kind"] == "delete":
            op = next((op for op in ops if op["field"] == "task" and op["kind"] == "delete"
                       and op["new"] is None and op["uuid"] == w["uuid"]), None)
            if op is None:
                say(2, f"{who(w)} succeeded, but no delete op removes task {w['id']} ({w['uuid']})")
            else:
                recorded.append((w, "task", None, op["seq"]))
    for word in ("undo", "redo"):
        done = sum(d.done[word] for d in drivers)
        logged = sum(op["kind"] == word for op in ops)
        if logged < done:
            say(2, f"{done} {word}s succeeded, but only {logged} ops of kind {word} were logged")

    # 5. nothing printed is lost
    for w, field, value, seq in recorded:
        task = by_uuid.get(w["uuid"])
        final = (task is None) if field == "task" else (task is not None and task[field] == value)
        later = max(last.get((w["uuid"], f), 0) for f in FIELDS if field in (f, "task"))
        if not final and later <= seq:
            say(5, f"{who(w)} set {field} {json.dumps(value)} on {name(w['uuid'])} (op {seq}), the store "
                   f"has {json.dumps(task and task.get(field))}, and no later op changed it")
    return bad, len(ops)


def drive(executable, work, seed, processes, commands):
    """Runs the processes on a new store in `work`; returns the store's path and the drivers.
    Their transcripts are written there too (p0.jsonl: step, cmd, seconds, answer)."""
    os.makedirs(work, exist_ok=True)
    binary, store = os.path.join(work, "navstack"), os.path.join(work, "store.sqlite")
    shutil.copy2(executable, binary)
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    made = subprocess.run([binary, "--store", store, "--sample", "--format", "json"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=ANSWER_TIMEOUT)
    if made.returncode != 0:
        sys.exit(f"navstack concurrency (seed {seed}): cannot create the store: {made.stderr.decode().strip()}")
    drivers = [Driver(n, Process(n, binary, store, work), seed, commands) for n in range(processes)]
    for d in drivers:        # every process shows its launch screen before any command runs
        try:
            d.launch()
        except Gone as gone:
            d.failure = f"p{d.n} at launch: {gone}"
            d.process.finish()
    threads = [threading.Thread(target=d.run) for d in drivers if d.failure is None]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for d in drivers:
        with open(os.path.join(work, f"p{d.n}.jsonl"), "w") as f:
            for step, command, answer, seconds in d.steps:
                f.write(json.dumps(dict(step=step, cmd=command, seconds=round(seconds, 4), answer=answer)) + "\n")
    return store, drivers


def error_kind(message):
    """An error message without its particulars: quoted text, numbers, what follows `;`."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|[0-9a-f]{8}-[-0-9a-f]{27}|\d+", "…", message).split(";")[0].strip()[:60]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="the navstack executable")
    parser.add_argument("--seed", type=int, default=None,
                        help="default: NAVSTACK_TEST_SEED, else a random one (printed)")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--keep", metavar="DIR", help="keep the store, transcripts and stderr here")
    args = parser.parse_args()
    if args.seed is None and os.environ.get("NAVSTACK_TEST_SEED", "").isdigit():
        args.seed = int(os.environ["NAVSTACK_TEST_SEED"])
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    rerun = (f"python3 {shlex.quote(sys.argv[0])} --bin {shlex.quote(args.bin)} --seed {seed} "
             f"--processes {args.processes} --commands {args.commands}")
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="navstack-concurrency-")
    started = time.monotonic()
    store, drivers = drive(args.bin, work, seed, args.processes, args.commands)
    elapsed = time.monotonic() - started
    bad, op_count = check(store, drivers)
    if any(d.failure for d in drivers):
        bad[0][:0] = [d.failure for d in drivers if d.failure]
    commands = sum(len(d.steps) for d in drivers)
    errors = collections.Counter(error_kind(m) for d in drivers for m in d.errors)
    slowest = max((s[3] for d in drivers for s in d.steps), default=0)
    print(f"navstack concurrency, seed {seed}: {args.processes} processes, {elapsed:.1f} s, "
          f"slowest answer {slowest * 1000:.0f} ms")
    print("  succeeded: " + ", ".join(f"{word} {sum(d.done[word] for d in drivers)}" for word in
                                      ("toggle", "save", "save!", "theirs", "add", "new", "delete", "undo", "redo",
                                       "conflict shown")))
    for kind, count in errors.most_common():
        print(f"  {count:5d}  {kind}")
    summary = f"{commands} commands, {sum(errors.values())} errors ({len(errors)} kinds), {op_count} ops"
    if not bad:
        print(summary + ", all checks held")
        if not args.keep:
            shutil.rmtree(work)
        return 0
    titles = {0: "the run (processes, store schema)", 1: "check 1 (identity)",
              2: "check 2 (every printed write is logged)", 3: "check 3 (no silent writes)", 4: "check 4 (the log replays to the store)",
              5: "check 5 (nothing printed is lost)"}
    for n in sorted(bad):
        print(f"FAILED {titles[n]}: {len(bad[n])} violation{'s' * (len(bad[n]) != 1)}")
        for line in bad[n][:25]:
            print("  " + line)
        if len(bad[n]) > 25:
            print(f"  … and {len(bad[n]) - 25} more")
    print(f"{summary}; {sum(map(len, bad.values()))} violations, seed {seed}")
    print(f"store, transcripts (p*.jsonl) and stderr kept in {work}")
    print(f"rerun: {rerun}")
    return 1


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    sys.exit(main())
