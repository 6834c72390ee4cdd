#!/usr/bin/env python3
"""Writes the command walk of scripts/bench (target 5): a seeded walk through navstack in
which every command is valid where it is typed, as a person using the app would type them.

It follows the screen: scripts/bench-reference.py (the Python reference, which prints
the same screens as `navstack --memory`) is the model, and at each step the walk picks
among the commands the current screen offers, with the weights below. A dirty draft is
always saved, cancelled or discarded with back! (never left behind by back, root, go or
a tab), and adds and deletes keep the task count between about 20 and 60, so the list
has one to three pages. The walk checks itself: a command the model refuses stops it.

Usage: bench-walk.py [--commands N] [--seed S] [--mix FILE] > walk.nav
The first line is `login ana`; N commands follow. --mix writes the count of each kind of
command (and its share) to FILE.
"""
import argparse
import collections
import importlib.util
import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("reference", os.path.join(here, "bench-reference.py"))
reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference)

LOW, HIGH = 20, 60  # the task count the walk keeps to

# The kinds of command the mix is counted in, and the words of each.
KINDS = {
    "move": "list moves and tabs: filter, next, prev, page N, tab",
    "open": "open N",
    "edit": "edit (open the edit screen)",
    "field": "title, notes, done on|off (edit screen and sheet)",
    "save": "save (edit screen and sheet)",
    "toggle": "toggle, toggle N",
    "new": "new (the new-task sheet)",
    "cancel": "cancel (edit screen and sheet)",
    "back": "back, back N",
    "back!": "back! (discarding a dirty draft)",
    "root": "root",
    "go": "go URL",
    "add": "add [TITLE]",
    "delete": "delete, delete N",
    "account": "settings, about",
    "where": "where",
}


class Model(reference.Reference):
    """The reference without its output: the walk only needs its state."""

    def show(self):
        pass

    def fail(self, message):
        raise SystemExit(f"bench-walk.py: command {self.line_number} is refused: {message}")


class Quiet:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


class Walk:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.model = Model("json")
        self.counter = 0

    def word(self):
        self.counter += 1
        return self.counter

    def clean(self):
        kind = self.model.kind()
        if kind not in ("edit", "new-task"):
            return True
        draft = self.model.draft()
        return draft["fields"] == draft["original"]

    def go_urls(self):
        ids = [t["id"] for t in self.model.tasks]
        task = self.rng.choice(ids)
        urls = ["tasks", f"tasks/{task}", f"tasks/{task}/edit", "tasks/new", "account",
                "account/settings", "account/about"]
        url = self.rng.choice(urls)
        return ("navstack://" + url) if self.rng.random() < 0.5 else url

    def candidates(self):
        """(kind, command, weight) for every command the walk may type here."""
        m, rng = self.model, self.rng
        kind, count = m.kind(), len(m.tasks)
        grow = min(2.0, max(0.1, (HIGH - count) / 20))
        shrink = min(2.0, max(0.1, (count - LOW) / 20))
        out = []
        if kind == "list":
            rows, total, page, pages = m.list_page()
            if rows:
                out.append(("open", f"open {rng.choice(rows)[0]}", 10))
                out.append(("toggle", f"toggle {rng.choice(rows)[0]}", 3))
                out.append(("delete", f"delete {rng.choice(rows)[0]}", 1.5 * shrink))
            others = [f for f in ("all", "open", "done") if f != m.filter_word()]
            out.append(("move", f"filter {rng.choice(others)}", 5))
            if page < pages:
                out.append(("move", "next", 4))
            if page > 1:
                out.append(("move", "prev", 3))
            if pages > 1:
                out.append(("move", f"page {rng.choice([p for p in range(1, pages + 1) if p != page])}", 2))
            out.append(("move", "tab account", 3))
            out.append(("move", "tab tasks", 0.3))
            out.append(("new", "new", 3 * grow))
            out.append(("add", rng.choice(["add", f"add Task {self.word()}"]), 1 * grow))
            out.append(("root", "root", 0.3))
        elif kind == "detail":
            out.append(("edit", "edit", 7))
            out.append(("toggle", "toggle", 2.5))
            out.append(("delete", "delete", 1 * shrink))
            out.append(("back", "back", 5))
            out.append(("back", "back 1", 0.5))
            out.append(("root", "root", 1.5))
            out.append(("move", "tab tasks", 0.7))
            out.append(("move", "tab account", 1))
        elif kind == "edit" and self.clean():
            out += self.fields(3)
            out.append(("cancel", "cancel", 1))
            out.append(("back", "back", 1.5))
            out.append(("back", "back 2", 0.7))
            out.append(("root", "root", 0.7))
            out.append(("move", "tab account", 0.4))
        elif kind == "edit":
            out += self.fields(2)
            out.append(("save", "save", 9))
            out.append(("cancel", "cancel", 1.5))
            out.append(("back!", "back!", 1.5))
        elif kind == "new-task" and not m.sheet["fields"]["title"]:
            out.append(("field", f"title Task {self.word()}", 10))
            out.append(("cancel", "cancel", 0.7))
            out.append(("back", "back", 0.5))
        elif kind == "new-task":
            out += self.fields(1.5)
            out.append(("save", "save", 9))
            out.append(("cancel", "cancel", 1))
            out.append(("back!", "back!", 1))
        elif kind == "account":
            out.append(("account", "settings", 3))
            out.append(("account", "about", 2))
            out.append(("move", "tab tasks", 7))
            out.append(("move", "tab account", 0.3))
            out.append(("root", "root", 0.3))
        elif kind in ("settings", "about"):
            out.append(("back", "back", 4))
            out.append(("root", "root", 1.5))
            out.append(("move", "tab tasks", 3))
            out.append(("move", "tab account", 1))
        if self.clean():
            out.append(("go", "go " + self.go_urls(), 1.2))
        out.append(("where", "where", 1))
        return out

    def fields(self, weight):
        fields = self.model.draft()["fields"]
        n = self.word()
        notes = self.rng.choice(["notes", f"notes note {n}", f"notes call back before {n}"])
        return [("field", f"title Task {n}", weight),
                ("field", notes, weight * 0.6),
                ("field", "done off" if fields["done"] else "done on", weight * 0.5)]

    def step(self):
        options = self.candidates()
        kind, command, _ = self.rng.choices(options, weights=[w for _, _, w in options])[0]
        self.model.onecmd(command)
        return kind, command


def main():
    parser = argparse.ArgumentParser(description="Writes scripts/bench's walk of valid commands.")
    parser.add_argument("--commands", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mix", help="write the count of each kind of command to this file")
    args = parser.parse_args()

    walk = Walk(args.seed)
    lines, mix = ["login ana"], collections.Counter()
    stdout, sys.stdout = sys.stdout, Quiet()
    try:
        walk.model.onecmd("login ana")
        for _ in range(args.commands):
            kind, command = walk.step()
            mix[kind] += 1
            lines.append(command)
    finally:
        sys.stdout = stdout
    sys.stdout.write("\n".join(lines) + "\n")
    if args.mix:
        with open(args.mix, "w") as out:
            for kind in sorted(mix, key=lambda k: -mix[k]):
                out.write(f"{kind:8} {mix[kind]:7,}  {100 * mix[kind] / args.commands:5.1f}%  {KINDS[kind]}\n")
            out.write(f"tasks at the end: {len(walk.model.tasks)}\n")


if __name__ == "__main__":
    main()
