#!/usr/bin/env python3
"""A straightforward Python reference for scripts/bench: the navigation commands of the
benchmark walk, in the style of the standard library's `cmd` module, printing the same
screens as `navstack --memory` (text or `--format json`) for the same lines.

Commands: login NAME, open N, add [TITLE], new, toggle [N], delete [N], filter F, next,
prev, page N, edit, title TEXT, notes [TEXT], done on|off, save, cancel, back [N], back!,
root, tab tasks|account, go URL, settings, about, where. Tasks live in a list of dicts;
the path is a list of route strings; the new-task sheet is a draft beside it. It exists to
be measured against (scripts/bench-walk.py also uses it to know which commands a screen
offers), and is checked to print the same bytes.

The walk sets none of a task's other fields (dates, priority, project, tags…): they are
printed unset, as navstack prints them for such tasks; so no task is ever waiting, and
`filter all` (every task, waiting ones too) lists what the default filter lists. The
stamps are kept as navstack's store keeps them: made and changed at "now", completed
"now" when a task becomes done. "Now" is NAVSTACK_NOW (an ISO 8601 instant, as navstack
reads it) or the clock; dates are shown in the zone TZ names, through the C library, as
navstack reads TZ.

Usage: bench-reference.py [--format text|json] < script
"""
import cmd
import datetime
import json
import os
import sys
import time

WIDTH = 80
PAGE = 20
RULE = "─" * WIDTH
VERSION = "0.2.0"
ABOUT = ["A task app whose every screen lives on a navigation path: open pushes, back",
         "pops, tabs keep their own stacks, a sheet floats above the path, and every",
         "screen has a navstack:// link that rebuilds it."]


M64 = (1 << 64) - 1


def fixed_now():
    """The instant NAVSTACK_NOW fixes "now" at, in seconds since the epoch; None when it
    is unset or empty (the clock is read)."""
    text = os.environ.get("NAVSTACK_NOW", "")
    if not text:
        return None
    try:
        instant = datetime.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        instant = None
    if instant is None or instant.tzinfo is None:
        raise SystemExit(f"bench-reference.py: NAVSTACK_NOW is not an ISO 8601 instant: {text!r}")
    return int(instant.timestamp())


def iso8601(seconds):
    """An instant as JSON writes it: `2026-11-27T09:00:00Z`."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def screen_text(seconds):
    """An instant as a screen writes it in the local zone (TZ): `2026-11-27 09:00`, the
    date alone at midnight."""
    local = time.localtime(seconds)
    return time.strftime("%Y-%m-%d" if local.tm_hour == 0 and local.tm_min == 0 else "%Y-%m-%d %H:%M", local)


class UUIDs:
    """The uuids a store in memory makes: version 7 on a fixed clock, the random bits
    from xoshiro256** seeded by SplitMix64 from a fixed number (TaskUUIDSource.fixed)."""

    def __init__(self):
        seed = 0x6E6176737461636B
        self.state = []
        for _ in range(4):
            seed = (seed + 0x9E3779B97F4A7C15) & M64
            z = seed
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.state.append(z ^ (z >> 31))
        self.millis, self.counter = 0, 0

    def next(self):
        s = self.state
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def make(self):
        now = 1_704_067_200_000
        if now > self.millis:
            self.millis, self.counter = now, 0
        else:
            self.counter += 1
            if self.counter > 0xFFF:
                self.millis, self.counter = self.millis + 1, 0
        high = (self.millis << 16) | 0x7000 | self.counter
        low = (self.next() >> 2) | (2 << 62)
        h = f"{high:016x}{low:016x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


class Reference(cmd.Cmd):
    prompt = ""
    use_rawinput = False

    def __init__(self, fmt):
        super().__init__(stdin=sys.stdin, stdout=sys.stdout)
        self.fmt = fmt
        self.line_number = 0
        self.failed = False
        self.user = None
        self.tab = "tasks"
        self.paths = {"tasks": [], "account": []}
        self.drafts = {}
        self.sheet = None
        self.next_id = 1
        # "all" is the default (every task but the waiting ones), "every" is `filter all`.
        self.filter = "all"
        self.page = 1
        self.fixed_now = fixed_now()
        self.uuids = UUIDs()
        self.tasks = [
            self.make({"title": "Buy fruit", "notes": "Apples, bananas, grapes", "done": False}),
            self.make({"title": "Study SwiftUI", "notes": "NavigationStack and routes", "done": False}),
            self.make({"title": "Go for a walk", "notes": "30 minutes", "done": True}),
        ]

    # ------------------------------------------------------------------ state

    def now(self):
        return self.fixed_now if self.fixed_now is not None else int(time.time())

    def path(self):
        return self.paths[self.tab]

    def task(self, task_id):
        return next((t for t in self.tasks if t["id"] == task_id), None)

    def shown(self):
        # No task of the walk waits: "all" and "every" list every task, "waiting" none.
        if self.filter in ("all", "every"):
            return self.tasks
        if self.filter == "waiting":
            return []
        return [t for t in self.tasks if t["done"] == (self.filter == "done")]

    def kind(self):
        if self.user is None:
            return "login"
        if self.sheet is not None:
            return "new-task"
        path = self.path()
        if not path:
            return "list" if self.tab == "tasks" else "account"
        top = path[-1]
        if top in ("settings", "about"):
            return top
        return top.split("/")[0]

    def actions(self):
        if self.user is None:
            return ["login", "go", "help", "quit", "exit"]
        words = list(OWN_WORDS.get(self.kind(), []))
        if self.path() or self.sheet is not None:
            words.append("back")
        if self.kind() in ("edit", "new-task"):
            words.append("back!")
        if self.sheet is None:
            words += ["root", "tab"]
        return words + ["undo", "redo", "go", "where", "help", "quit", "exit"]

    def url(self):
        if self.sheet is not None:
            return "navstack://tasks/new"
        path = self.path()
        if self.tab == "account":
            return "navstack://account" + ("/" + path[-1] if path else "")
        if not path:
            # The list's state, where it is not the default.
            query = ([f"filter={self.filter_word()}"] if self.filter != "all" else []) + ([f"page={self.page}"] if self.page > 1 else [])
            return "navstack://tasks" + ("?" + "&".join(query) if query else "")
        kind, task_id = path[-1].split("/")
        return f"navstack://tasks/{task_id}" + ("/edit" if kind == "edit" else "")

    def breadcrumb(self):
        crumbs = ["My Tasks" if self.tab == "tasks" else "Account"]
        for route in self.path():
            if route in ("settings", "about"):
                crumbs.append(route.capitalize())
            elif route.startswith("detail/"):
                crumbs.append(self.task(int(route.split("/")[1]))["title"])
            else:
                crumbs.append("Edit")
        if self.sheet is not None:
            crumbs.append("New Task")
        return crumbs

    def draft(self):
        return self.sheet if self.sheet is not None else self.drafts[self.path()[-1]]

    def filter_word(self):
        """The filter as it is typed, linked and shown: `all` for the default and for `filter all`."""
        return "all" if self.filter == "every" else self.filter

    # ------------------------------------------------------------------ output

    def fail(self, message):
        self.failed = True
        sys.stdout.flush()
        if self.fmt == "json":
            print(json.dumps({"error": {"message": message, "line": self.line_number}},
                             ensure_ascii=False, separators=(",", ":")))
        else:
            print(f"navstack: line {self.line_number}: {message}", file=sys.stderr)

    def show(self):
        if self.fmt == "json":
            self.show_json()
        else:
            self.show_text()

    def show_json(self):
        kind = self.kind()
        screen = {"screen": kind, "title": self.title(), "tab": self.tab if self.user else None,
                  "path": list(self.path()) if self.user else [],
                  "sheet": "new-task" if self.sheet is not None else None,
                  "url": self.url() if self.user else None, "actions": self.actions()}
        if kind == "login":
            screen["pending"] = None
        elif kind == "list":
            rows, total, page, pages = self.list_page()
            screen["items"] = [{"row": row, **task_json(t)} for row, t in rows]
            screen.update({"total": total, "filter": self.filter_word(), "tag": None, "tags": [], "withoutTags": [],
                           "project": None, "priority": None, "due": None, "dueBefore": None, "dueAfter": None,
                           "search": None, "sort": None, "page": page, "pages": pages})
        elif kind == "detail":
            screen["task"] = {**task_json(self.task(int(self.path()[-1].split("/")[1]))), **NO_LISTS}
            screen.update({"items": [], "total": 0, "page": 1, "pages": 1})
        elif kind in ("edit", "new-task"):
            draft = self.draft()
            screen["draft"] = {**draft["fields"], **NO_ATTRIBUTES}
            screen["canSave"] = bool(draft["fields"]["title"].strip())
            screen["dirty"] = draft["fields"] != draft["original"]
            screen.update({"conflicts": [], "deleted": False})  # one writer: nothing changes elsewhere
        elif kind == "account":
            done = sum(1 for t in self.tasks if t["done"])
            screen.update({"user": self.user, "open": len(self.tasks) - done, "done": done})
        elif kind == "settings":
            screen.update({"pageSize": PAGE, "store": "in memory", "language": "English"})
        elif kind == "about":
            screen["version"] = VERSION
        print(json.dumps(screen, ensure_ascii=False, separators=(",", ":")))

    def title(self):
        kind = self.kind()
        if kind == "detail":
            return self.task(int(self.path()[-1].split("/")[1]))["title"]
        return {"login": "Sign in", "list": "My Tasks", "edit": "Edit Task", "new-task": "New Task", "account": "Account",
                "settings": "Settings", "about": "About navstack"}[kind]

    def list_page(self):
        shown = self.shown()
        pages = max(1, (len(shown) + PAGE - 1) // PAGE)
        page = min(self.page, pages)
        offset = (page - 1) * PAGE
        return [(offset + i + 1, t) for i, t in enumerate(shown[offset:offset + PAGE])], len(shown), page, pages

    def show_text(self):
        out = [self.title()]
        if self.user is None:
            out += ["signed out", RULE, "Sign in with your name to see your tasks. A new name starts a new profile."]
        else:
            out += [" › ".join(self.breadcrumb()) + " · " + self.url(), RULE]
            kind = self.kind()
            if kind == "list":
                rows, total, page, pages = self.list_page()
                status = ("1 task" if total == 1 else f"{total} tasks")
                if self.filter != "all":
                    status += " · " + ("all, waiting too" if self.filter == "every" else self.filter)
                out += [status + f" · page {page} of {pages}", ""]
                if not rows:
                    out.append("No tasks yet: add one with add TITLE or new." if self.filter == "all" else "No tasks match.")
                width = max(2, len(str(rows[-1][0]))) if rows else 2
                for row, t in rows:
                    out.append(str(row).rjust(width) + "  " + ("[x]" if t["done"] else "[ ]") + " " + t["title"]
                               + " · #" + str(t["id"]))
            elif kind == "detail":
                t = self.task(int(self.path()[-1].split("/")[1]))
                out += ["Title:  " + t["title"], "Notes:  " + (t["notes"] or "—"), "Done:   " + ("yes" if t["done"] else "no"), ""]
                if t["completed"] is not None:
                    # The task's other fields, set: of the walk's tasks only a done one's stamp.
                    out += ["Completed:".ljust(FIELD_WIDTH) + screen_text(t["completed"]), ""]
                out.append("No subtasks. add TITLE adds one.")
            elif kind in ("edit", "new-task"):
                draft = self.draft()
                f = draft["fields"]
                out += ["Title:  " + (f["title"] or "(blank)"), "Notes:  " + (f["notes"] or "—"),
                        "Done:   " + ("on" if f["done"] else "off"), ""]
                out.append("Save is disabled until the title is set." if not f["title"].strip() else
                           "Unsaved changes." if f != draft["original"] else "No changes yet.")
            elif kind == "account":
                done = sum(1 for t in self.tasks if t["done"])
                out += ["User:   " + self.user, f"Tasks:  {len(self.tasks) - done} open, {done} done"]
            elif kind == "settings":
                out += [f"Page size:  {PAGE} rows", "Store:      in memory", "Language:   English"]
            elif kind == "about":
                out += ["navstack " + VERSION, ""] + ABOUT
        out.append(RULE)
        out += self.action_lines()
        print("\n".join(out) + "\n")

    def action_lines(self):
        kind = self.kind()
        own_words = OWN_WORDS.get(kind, []) + ["back!"]

        def shown(word):
            if word in ("toggle", "delete"):
                return word + (" N" if kind == "list" else " [N]")
            if word == "done" and kind not in ("edit", "new-task"):
                return "done [N]" if kind == "detail" else "done N"
            if word == "modify":
                return "modify [N] WORDS…" if kind == "detail" else "modify N WORDS…"
            if word == "save" and not self.draft()["fields"]["title"].strip():
                return "save (disabled)"
            return USAGE.get(word, word)

        words = [w for w in self.actions() if w != "exit"]
        mine = [shown(w) for w in words if w in own_words]
        rest = [shown(w) for w in words if w not in own_words]
        if "due" in words:
            # The four date words share their usage: one item, where the first was.
            mine = [DATES if item == USAGE["due"] else item for item in mine if item not in DATE_USAGES[1:]]
        lines = []
        if mine:
            lines += flow(mine, "Actions: ")
        return lines + flow(rest, "Also:    " if mine else "Actions: ")

    # ------------------------------------------------------------------ commands

    def onecmd(self, line):
        self.line_number += 1
        line = line.strip()
        if not line or line.startswith("#"):
            return False
        word, _, arg = line.partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("quit", "exit"):
            return True
        if word not in self.actions():
            if word == "back" and self.user is not None:
                self.fail("nothing to go back to: this is the root of the tab")
            else:
                here = ", ".join(w for w in self.actions() if w != "exit")
                self.fail(f"'{word}' is not available on the {self.phrase()}; here: {here}")
            return False
        handler = getattr(self, "do_" + word.replace("!", "_discarding"), None)
        if handler is None:
            self.fail(f"unknown command '{word}' (help lists the commands)")
            return False
        if handler(arg) is not False:
            if self.kind() == "list":
                # The list shows its last page for one past it, and its URL says so.
                self.page = min(self.page, self.list_page()[3])
            if word == "where":
                print(" › ".join(self.breadcrumb()) + "\n" + self.url() + "\n" if self.fmt == "text" else
                      json.dumps({"url": self.url(), "breadcrumb": self.breadcrumb()}, ensure_ascii=False, separators=(",", ":")))
            else:
                self.show()
        return False

    def phrase(self):
        return {"login": "login screen", "list": "task list", "detail": "task detail", "edit": "edit screen",
                "new-task": "new-task sheet",
                "account": "account screen", "settings": "settings screen", "about": "about screen"}[self.kind()]

    def row(self, arg):
        shown = self.shown()
        n = int(arg)
        if n > len(shown):
            count = len(shown)
            self.fail(f"there is no row {n}: " + ("the list is empty" if count == 0 else
                                                    f"the list has {count} row" + ("" if count == 1 else "s")))
            return None
        return shown[n - 1]

    def do_login(self, arg):
        self.user = arg

    def do_open(self, arg):
        t = self.row(arg)
        if t is None:
            return False
        self.path().append(f"detail/{t['id']}")

    def make(self, fields):
        """A new task with the next id and uuid, made (and done, when it is) now."""
        now = self.now()
        t = {"id": self.next_id, "uuid": self.uuids.make(), **fields,
             "created": now, "modified": now, "completed": now if fields["done"] else None}
        self.next_id += 1
        return t

    def insert(self, fields):
        t = self.make(fields)
        self.tasks.insert(0, t)
        return t

    def change(self, t, fields):
        """Writes fields to a task, stamped as navstack's store stamps a change: changed
        now, completed now when it has just become done, and no longer once it is open."""
        was_done = t["done"]
        t.update(fields)
        t["modified"] = self.now()
        if not t["done"]:
            t["completed"] = None
        elif not was_done or t["completed"] is None:
            t["completed"] = t["modified"]

    def do_add(self, arg):
        t = self.insert({"title": arg or "New task", "notes": "", "done": False})
        self.path().append(f"detail/{t['id']}")

    def do_new(self, arg):
        fields = {"title": "", "notes": "", "done": False}
        self.sheet = {"fields": dict(fields), "original": fields}

    def guard(self, routes, word):
        """False (and an error) when one of these routes, or the sheet, holds a dirty draft."""
        drafts = [self.drafts.get(route) for route in routes] + [self.sheet]
        if any(d and d["fields"] != d["original"] for d in drafts):
            self.fail(f"'{word}' would discard unsaved changes: save them, cancel them, or use back! to discard")
            return False
        return True

    def pop(self, count):
        for _ in range(count):
            self.drafts.pop(self.path().pop(), None)

    def do_back(self, arg):
        if self.sheet is not None:
            if not self.guard([], "back"):
                return False
            self.sheet = None
            return
        count = int(arg) if arg else 1
        if not self.guard(self.path()[-count:], "back"):
            return False
        self.pop(count)

    def do_back_discarding(self, arg):
        if self.sheet is not None:
            self.sheet = None
        else:
            self.pop(1)

    do_cancel = do_back_discarding

    def do_root(self, arg, word="root"):
        if not self.guard(self.path(), word):
            return False
        self.pop(len(self.path()))

    def do_edit(self, arg):
        task_id = int(self.path()[-1].split("/")[1])
        t = self.task(task_id)
        fields = {"title": t["title"], "notes": t["notes"], "done": t["done"]}
        self.path().append(f"edit/{task_id}")
        self.drafts[f"edit/{task_id}"] = {"fields": dict(fields), "original": fields}

    def do_title(self, arg):
        self.draft()["fields"]["title"] = arg

    def do_notes(self, arg):
        self.draft()["fields"]["notes"] = arg

    def do_done(self, arg):
        self.draft()["fields"]["done"] = arg == "on"

    def do_save(self, arg):
        if self.sheet is not None:
            self.insert(self.sheet["fields"])
            self.sheet = None
            return
        route = self.path().pop()
        draft = self.drafts.pop(route)
        if draft["fields"] != draft["original"]:
            self.change(self.task(int(route.split("/")[1])), draft["fields"])

    def target(self, arg):
        """The task a list command's row names, or the task shown on the detail screen."""
        if self.kind() == "list":
            return self.row(arg)
        if arg:
            self.fail("'toggle' here takes no row number; it acts on this task")
            return None
        return self.task(int(self.path()[-1].split("/")[1]))

    def do_toggle(self, arg):
        t = self.target(arg)
        if t is None:
            return False
        self.change(t, {"done": not t["done"]})

    def do_delete(self, arg):
        t = self.target(arg)
        if t is None:
            return False
        self.tasks.remove(t)
        if self.kind() == "detail":
            self.pop(len(self.path()))

    def do_filter(self, arg):
        self.filter = "every" if arg == "all" else arg
        self.page = 1

    def do_next(self, arg):
        _, _, page, pages = self.list_page()
        if page >= pages:
            self.fail(f"already on the last page (page {pages} of {pages})")
            return False
        self.page = page + 1

    def do_prev(self, arg):
        _, _, page, pages = self.list_page()
        if page <= 1:
            self.fail(f"already on the first page (page 1 of {pages})")
            return False
        self.page = page - 1

    def do_page(self, arg):
        self.page = int(arg)

    def do_tab(self, arg):
        if arg == self.tab:
            return self.do_root("", word="tab")
        self.tab = arg

    def do_go(self, arg):
        arg, _, query = arg.partition("?")
        parts = arg.removeprefix("navstack://").split("/")
        tab, sheet = parts[0], None
        if tab == "account":
            path = parts[1:]
        elif parts[1:] == ["new"]:
            path, sheet = [], "new"
        else:
            path = [f"detail/{parts[1]}"] if len(parts) > 1 else []
            if len(parts) > 2:
                path.append(f"edit/{parts[1]}")
        if not self.guard(self.paths[tab], "go"):
            return False
        for route in self.paths[tab]:
            self.drafts.pop(route, None)
        self.tab, self.paths[tab], self.sheet = tab, path, None
        if parts == ["tasks"]:
            # The list's state is in its URL: what it does not say is the default.
            items = dict(item.split("=") for item in query.split("&") if item)
            link_filter = items.get("filter")
            self.filter = "all" if link_filter is None else "every" if link_filter == "all" else link_filter
            self.page = int(items.get("page", 1))
        if sheet:
            self.do_new("")
        for route in path:
            if route.startswith("edit/"):
                self.path().pop()
                self.do_edit("")

    def do_settings(self, arg):
        self.path().append("settings")

    def do_about(self, arg):
        self.path().append("about")

    def do_where(self, arg):
        pass


DRAFT_WORDS = ["title", "notes", "done", "due", "scheduled", "wait", "until", "recur", "priority", "project", "tag", "save",
               "cancel"]
# Each screen's own commands, before the ones available anywhere.
OWN_WORDS = {
    "login": ["login"],
    "list": ["open", "add", "new", "toggle", "done", "modify", "delete", "move", "filter", "find", "sort", "next", "prev",
             "page"],
    "detail": ["edit", "toggle", "done", "modify", "delete", "open", "add", "new", "move", "next", "prev", "page",
               "annotate"],
    "edit": DRAFT_WORDS,
    "new-task": DRAFT_WORDS,
    "account": ["settings", "about", "logout"],
}
USAGE = {"login": "login NAME", "go": "go URL", "open": "open N", "add": "add [TITLE]",
         "filter": "filter all|open|done|waiting [TERM…]", "find": "find [TEXT]", "sort": "sort [-]KEY|none", "page": "page N",
         "tab": "tab tasks|agenda|account", "back": "back [N]", "title": "title TEXT", "notes": "notes [TEXT]",
         "done": "done on|off", "move": "move N to ID|top", "annotate": "annotate TEXT", "due": "due DATE|none",
         "scheduled": "scheduled DATE|none", "wait": "wait DATE|none", "until": "until DATE|none",
         "recur": "recur RULE|none", "priority": "priority H|M|L|none", "project": "project NAME|none",
         "tag": "tag +NAME -NAME …|none"}
DATE_USAGES = [USAGE[w] for w in ("due", "scheduled", "wait", "until")]
DATES = "due|scheduled|wait|until DATE|none"
# A task's other fields are labelled alike, as wide as the widest label ("Depends on").
FIELD_WIDTH = len("Depends on:") + 2
# The fields a draft edits beyond the title, the notes and done: the walk sets none.
NO_ATTRIBUTES = {"due": None, "scheduled": None, "wait": None, "until": None, "priority": None, "project": None,
                 "recur": None, "tags": []}
# The lists a detail's task has: the walk adds no annotation.
NO_LISTS = {"annotations": [], "depends": [], "fields": {}}


def task_json(t):
    """A task's members, as a list row and a detail write them. The walk has no subtasks:
    every task is at the top, with none below it."""
    return {"id": t["id"], "uuid": t["uuid"], "title": t["title"], "notes": t["notes"], "done": t["done"],
            "parent": None, "subtasks": {"done": 0, "total": 0}, **NO_ATTRIBUTES,
            "created": iso8601(t["created"]), "modified": iso8601(t["modified"]),
            "completed": None if t["completed"] is None else iso8601(t["completed"])}


def flow(items, prefix):
    pad = " " * len(prefix)
    lines, line, empty = [], prefix, True
    for item in items:
        piece = item if empty else " · " + item
        if not empty and len(line + piece) > WIDTH:
            lines.append(line)
            line = pad + item
        else:
            line += piece
        empty = False
    return lines + [line]


def main():
    fmt = "json" if "--format" in sys.argv and sys.argv[sys.argv.index("--format") + 1] == "json" else "text"
    reference = Reference(fmt)
    reference.show()
    for line in sys.stdin:
        if reference.onecmd(line.rstrip("\n")):
            break
    sys.stdout.flush()
    sys.exit(1 if reference.failed else 0)


if __name__ == "__main__":
    main()
