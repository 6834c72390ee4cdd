#!/usr/bin/env python3
"""navstack's DATE forms against the real Taskwarrior 2.6 (`task calc`), on fixed clocks.

For each clock (a local time in a zone: a Monday, a Sunday, a 30-day month's end, a 31st,
February, and the nights clocks change in Europe/Madrid and America/New_York) and each
form, navstack resolves the form as a draft's due date (`--memory --format json`, the
clock fixed by NAVSTACK_NOW and TZ) and Taskwarrior resolves it with `task calc` under
faketime (`-f`: a clock that stands still) at the same instant, with a throw-away TASKRC and TASKDATA. The two local times
must be equal, except where navstack differs on purpose: each such case names its reason
and checks the difference is exactly that one. Bad inputs must be refused by navstack and
give no date in Taskwarrior. Then Taskwarrior's rule names: the first three due dates of a
series, as Taskwarrior makes them and as navstack does when each instance is marked done.

Prints `ok - …` / `not ok - …` and a last line `N passed, M failed`; exits 1 on a failure.
Needs `task` (Debian's taskwarrior 2.6) and `faketime`.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zoneinfo

# (TZ, local time of the clock, what it is)
CLOCKS = [
    ("Europe/Madrid", "2026-12-07 10:00:00", "a Monday"),
    ("Europe/Madrid", "2026-12-06 18:30:00", "a Sunday evening"),
    ("Europe/Madrid", "2026-11-30 10:00:00", "the last day of a 30-day month"),
    ("Europe/Madrid", "2026-12-31 23:30:00", "the 31st, the year's last half hour"),
    ("Europe/Madrid", "2026-02-10 08:00:00", "February"),
    ("Europe/Madrid", "2026-03-29 01:30:00", "the night Madrid's clocks go forward"),
    ("America/New_York", "2026-11-01 00:30:00", "the night New York's clocks go back"),
    ("America/New_York", "2026-03-08 12:00:00", "the day New York's clocks went forward"),
]

# Forms whose meaning Taskwarrior's `task calc` gives directly.
SAME = [
    "someday", "later", "sod", "soq", "eoq", "sow", "eow", "som", "eom", "soy", "eoy", "eod",
    "1st", "2nd", "3rd", "15th", "22nd", "28th", "29th", "30th", "31st",
    "jan", "feb", "mar", "jun", "nov", "dec", "january", "december",
    "9am", "5pm", "12pm", "17:30", "2:30am", "1:30am",
    "2026-12-10T14:30:00Z", "2026-12-10T14:30:00+01:00", "2026-12-10T14:30:00-05:00",
    "2026-12-10T14:30:00", "20261210T143000Z", "2026-07-01T12:00:00Z",
]

# (navstack's form, the language navstack reads it in, Taskwarrior's words for the same)
TRANSLATED = [
    ("friday 9am", "en", "friday+9h"),
    ("tomorrow 17:30", "en", "tomorrow+17h+30min"),
    ("segunda", "pt", "monday"),
    ("sexta-feira", "pt", "friday"),
    ("sábado", "pt", "saturday"),
    ("lunes", "es", "monday"),
    ("miércoles", "es", "wednesday"),
    ("domingo", "es", "sunday"),
]

# Taken neither by navstack nor, as a date, by Taskwarrior.
BAD = ["13pm", "25:00", "24:00", "32nd", "0th", "2th", "9:60", "soon", "2026-02-30T10:00:00Z"]

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            print(f"ok - {name}")
        else:
            self.failed += 1
            print(f"not ok - {name}: {detail}")


def parse_local(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")


def show(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def taskwarrior(tz, clock, form, data):
    env = dict(os.environ, TZ=tz, TASKRC="/dev/null", TASKDATA=data)
    out = subprocess.run(
        ["faketime", "-f", clock, "task", "rc.verbose=nothing", "rc.date.iso=yes", "rc.confirmation=no", "calc", form],
        env=env, capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def navstack(binary, tz, now_utc, form, language):
    env = dict(os.environ, TZ=tz, NAVSTACK_NOW=now_utc)
    with tempfile.TemporaryDirectory() as home:
        env.update(HOME=home, XDG_DATA_HOME=home, XDG_STATE_HOME=home, XDG_CONFIG_HOME=home)
        out = subprocess.run(
            [binary, "--memory", "--format", "json", "--lang", language, "-c", "login ana", "-c", "go tasks/new",
             "-c", f"due {form}"],
            env=env, capture_output=True, text=True, timeout=30)
    last = json.loads(out.stdout.strip().splitlines()[-1])
    if "error" in last:
        return None, last["error"]["message"]
    due = last["draft"]["due"]
    instant = datetime.datetime.strptime(due, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    return show(instant.astimezone(zoneinfo.ZoneInfo(tz)).replace(tzinfo=None)), None


def add_months(day, months):
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    last = (datetime.date(year + (month == 12), month % 12 + 1, 1) - datetime.timedelta(days=1)).day
    return datetime.date(year, month, min(day.day, last))


def on_the_wall(text, tz):
    """The local time `text` is shown as in `tz`: one a change of clocks skips moves on by
    the gap (02:30 → 03:30), as navstack and glibc's mktime read it."""
    zone = zoneinfo.ZoneInfo(tz)
    moment = parse_local(text).replace(tzinfo=zone).astimezone(datetime.timezone.utc).astimezone(zone)
    return show(moment.replace(tzinfo=None))


def expected_difference(form, nav_now, tw, tz):
    """navstack's value where it reads `form` otherwise than Taskwarrior, with the reason;
    None where the two must agree."""
    expected, reason = difference(form, nav_now, tw)
    return (on_the_wall(expected, tz), reason) if expected else (None, None)


def difference(form, nav_now, tw):
    today = nav_now.date()
    match = re.fullmatch(r"(\d+)([dwmy])", form)
    if match:
        count, unit = int(match.group(1)), match.group(2)
        if unit == "d":
            day = today + datetime.timedelta(days=count)
        elif unit == "w":
            day = today + datetime.timedelta(weeks=count)
        else:
            day = add_months(today, count * (12 if unit == "y" else 1))
        return show(datetime.datetime.combine(day, datetime.time())), (
            "N then a unit counts from today's start, as navstack's +Nd does, and months and years on the calendar; "
            "Taskwarrior adds the duration to now (a month of 30 days, a year of 365)")
    match = re.fullmatch(r"(\d+)(st|nd|rd|th)", form)
    if match and tw is not None and parse_local(tw).day != int(match.group(1)):
        number = int(match.group(1))
        day = today + datetime.timedelta(days=1)
        while day.day != number:
            day += datetime.timedelta(days=1)
        return show(datetime.datetime.combine(day, datetime.time())), (
            "the next day with that number; Taskwarrior lets mktime roll a missing day over into the next month, "
            "which is no such day")
    if re.fullmatch(r"\d{1,2}(:\d{2})?(am|pm)?", form) and tw is not None and parse_local(tw).date() != today:
        moment = parse_local(tw) - datetime.timedelta(days=1)
        if show(moment) != tw:
            return show(moment), (
                "a time alone is today's, as the contract says (a time already past is overdue, like today); "
                "Taskwarrior takes the next such time, tomorrow's")
    return None, None


# Taskwarrior's rule names, and what navstack keeps for each: the first three due dates of a
# series due 2026-08-31 09:00 (a 31st: months without one clamp) in Madrid. Taskwarrior
# makes its instances itself (rc.recurrence.limit=2); navstack makes each on `toggle`.
RULES = [
    ("annual", "yearly", None), ("semiannual", "6m", None), ("biannual", "2y", None), ("bimonthly", "2m", None),
    ("fortnight", "biweekly", None), ("3days", "3d", None), ("2weeks", "2w", None),
    ("2months", "2m", "2m"), ("1year", "1y", "yearly"),
]


def taskwarrior_series(rule, tz, clock, due):
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, TZ=tz, TASKRC="/dev/null", TASKDATA=data)
        base = ["faketime", "-f", clock, "task", "rc.verbose=nothing", "rc.confirmation=no"]
        subprocess.run(base + ["add", "T", f"due:{due}", f"recur:{rule}"], env=env, capture_output=True, timeout=30)
        subprocess.run(base + ["rc.recurrence.limit=2", "list"], env=env, capture_output=True, timeout=30)
        out = subprocess.run(base + ["export"], env=env, capture_output=True, text=True, timeout=30)
    dues = sorted(task["due"] for task in json.loads(out.stdout) if task["status"] == "pending")
    return [f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[9:11]}:{d[11:13]}:{d[13:15]}Z" for d in dues]


def navstack_series(binary, rule, tz, now_utc, due):
    env = dict(os.environ, TZ=tz, NAVSTACK_NOW=now_utc)
    with tempfile.TemporaryDirectory() as home:
        env.update(HOME=home, XDG_DATA_HOME=home, XDG_STATE_HOME=home, XDG_CONFIG_HOME=home)
        out = subprocess.run(
            [binary, "--memory", "--format", "json", "-c", "login ana", "-c", f"add T due:{due} recur:{rule}", "-c", "toggle",
             "-c", "go tasks/5", "-c", "toggle", "-c", "root", "-c", "filter all"],
            env=env, capture_output=True, text=True, timeout=30)
    items = json.loads(out.stdout.strip().splitlines()[-1]).get("items", [])
    series = [item for item in items if item["title"] == "T"]
    return sorted(item["due"] for item in series), sorted({item["recur"] for item in series})


def check_rules(checks, binary):
    tz, clock, due = "Europe/Madrid", "2026-08-31 10:00:00", "2026-08-31T09:00"
    now_utc = "2026-08-31T08:00:00Z"
    for rule, kept, taskwarrior_rule in RULES:
        tw = taskwarrior_series(taskwarrior_rule or rule, tz, clock, due)
        nav, rules = navstack_series(binary, rule, tz, now_utc, due)
        name = f"recur:{rule} is kept as {kept}"
        checks.check(rules == [kept], name, f"navstack keeps {rules}")
        if taskwarrior_rule:
            name = (f"recur:{rule} steps as Taskwarrior's recur:{taskwarrior_rule} ({', '.join(nav)}): expected difference, "
                    f"a number of months or years counts on the calendar, as Taskwarrior's {taskwarrior_rule} does, "
                    f"where its {rule} adds 30 or 365 days")
        else:
            name = f"recur:{rule} steps as in Taskwarrior: {', '.join(tw)}"
        own = taskwarrior_series(rule, tz, clock, due) if taskwarrior_rule else tw
        checks.check(len(tw) == 3 and nav == tw and (own != tw) == bool(taskwarrior_rule), name,
                     f"navstack {nav}, task {tw}, task's own {rule} {own}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/navstack")
    args = parser.parse_args()
    checks = Checks()
    for tool in ("task", "faketime"):
        if shutil.which(tool) is None:
            checks.check(False, f"{tool} is installed", "install taskwarrior and faketime (scripts/lib/setup.sh)")
    if checks.failed:
        print(f"{checks.passed} passed, {checks.failed} failed")
        return 1
    forms = [(form, "en", form) for form in SAME + ["0d", "3d", "2w", "1m", "1y", "99d"]] + TRANSLATED
    with tempfile.TemporaryDirectory() as data:
        for tz, clock, what in CLOCKS:
            local = datetime.datetime.strptime(clock, "%Y-%m-%d %H:%M:%S").replace(tzinfo=zoneinfo.ZoneInfo(tz))
            now_utc = local.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            nav_now = local.replace(tzinfo=None)
            where = f"{tz} {clock} ({what})"
            tw_now = taskwarrior(tz, clock, "now", data)
            checks.check(tw_now == clock.replace(" ", "T"), f"{where}: task calc now is the clock", tw_now)
            for form, language, tw_form in forms:
                tw = taskwarrior(tz, clock, tw_form if not re.fullmatch(r"\d+[dwmy]", tw_form) else "now+" + tw_form, data)
                tw = tw if DATE.match(tw) else None
                nav, error = navstack(args.bin, tz, now_utc, form, language)
                name = f"{where}: {form}" + (f" ({language}; task calc {tw_form})" if tw_form != form else "")
                if tw is None or nav is None:
                    checks.check(False, name, f"navstack {nav or error}, task calc {tw}")
                    continue
                expected, reason = expected_difference(form, nav_now, tw, tz)
                if expected is None:
                    checks.check(nav == tw, name + f" = {tw}", f"navstack {nav}, task calc {tw}")
                else:
                    checks.check(nav == expected, name + f" = {nav}, task calc {tw}: expected difference, {reason}",
                                 f"navstack {nav}, expected {expected}")
            for form in BAD:
                tw = taskwarrior(tz, clock, form, data)
                nav, error = navstack(args.bin, tz, now_utc, form, "en")
                checks.check(nav is None and not DATE.match(tw), f"{where}: {form} is refused",
                             f"navstack {nav or error}, task calc {tw}")
            # A number past what navstack takes is one error, where Taskwarrior makes a duration of it.
            nav, error = navstack(args.bin, tz, now_utc, "99999999y", "en")
            checks.check(nav is None and error.startswith("'99999999y' is not a date"), f"{where}: 99999999y is one error",
                         f"navstack {nav or error}")
    check_rules(checks, args.bin)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
