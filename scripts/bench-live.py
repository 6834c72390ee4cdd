#!/usr/bin/env python3
"""Target 13 of scripts/bench: screens that stay true.

Usage: bench-live.py BINARY WORK BIG_STORE SMALL_STORE IDLE_SECONDS CHANGES

- idle: a terminal session (navstack in a pseudo-terminal, signed in, on the list of the
  big store) left alone for IDLE_SECONDS: the CPU time it used (/proc/PID/task/*/schedstat),
  scaled to 60 s.                                                    (goal: under 0.1 s a minute)
- terminal: CHANGES toggles, each by another navstack process on the store; the time from
  that process's end (its commit is done) to the session printing "changed elsewhere":
  median and p99.                                          (goal: p99 under 1 s)
- watch: the same with `navstack watch --format json navstack://tasks` on the big store
  and on the small one: the time to its next object, and the watch's CPU time a change.
                                        (goal: p99 under 1 s; CPU a change at the big store
                                         within 1.5x of the small one: a page read, not a scan)

Prints one JSON object with the figures.
"""
import json, os, pty, random, select, subprocess, sys, time

binary, work, big, small, idle_seconds, changes = sys.argv[1:7]
idle_seconds, changes = float(idle_seconds), int(changes)
env = dict(os.environ, TZ="UTC", NAVSTACK_NOW="2026-11-27T09:00:00Z", LANG="C.UTF-8", NAVSTACK_SYNC="0",
           XDG_STATE_HOME=os.path.join(work, "live-state"))
env.pop("LC_ALL", None)


def cpu_seconds(pid):
    """The CPU time of every thread of the process, in nanoseconds as the scheduler counts
    it (/proc/PID/task/*/schedstat): /proc/PID/stat's ticks of 10 ms are too coarse for a
    change that costs a fraction of a millisecond."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{thread}/schedstat") as stat:
            total += int(stat.read().split()[0])
    return total / 1e9


jitter = random.Random(13)


def change(store):
    """One toggle of the list's first row by another process, at a moment unrelated to the
    watcher's looks (as a person's or a sync's change comes); returns when it committed."""
    time.sleep(jitter.uniform(0, 0.25))
    subprocess.run([binary, "--store", store, "-c", "tab tasks", "-c", "root", "-c", "toggle 1"],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic()


def wait_for(fd, needle, deadline, buffer):
    """Reads fd until `needle` is in what came since `buffer` started; the time it came."""
    while needle not in buffer[0]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit(f"bench-live: no {needle!r} within the time allowed")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            data = os.read(fd, 1 << 16)
            if not data:
                raise SystemExit("bench-live: the process ended")
            buffer[0] += data
    at = time.monotonic()
    buffer[0] = buffer[0][buffer[0].index(needle) + len(needle):]
    return at


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


result = {}

# The terminal: a session in a pseudo-terminal, as a person at the keyboard has it.
pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--store", big, "--width", "80", "--page-size", "20"], env)
buffer = [b""]
wait_for(fd, b"tasks> ", time.monotonic() + 30, buffer)
time.sleep(1)  # settled: whatever start-up costs is behind it
before = cpu_seconds(pid)
time.sleep(idle_seconds)
used = cpu_seconds(pid) - before
result["idle_cpu_s_per_minute"] = used * 60 / idle_seconds
result["idle_seconds"] = idle_seconds
delays = []
for _ in range(changes):
    done = change(big)
    delays.append(wait_for(fd, b"changed elsewhere", done + 10, buffer) - done)
    wait_for(fd, b"tasks> ", time.monotonic() + 10, buffer)
result["terminal_median_ms"] = percentile(delays, 50) * 1000
result["terminal_p99_ms"] = percentile(delays, 99) * 1000
os.write(fd, b"\x04")
os.waitpid(pid, 0)
os.close(fd)

# The watch, on the big store and on the small one.
for name, store in (("big", big), ("small", small)):
    watch = subprocess.Popen([binary, "watch", "--store", store, "--format", "json", "navstack://tasks"],
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = watch.stdout.fileno()
    buffer = [b""]
    wait_for(out, b"\n", time.monotonic() + 30, buffer)
    time.sleep(0.5)
    before = cpu_seconds(watch.pid)
    delays = []
    for _ in range(changes):
        done = change(store)
        delays.append(wait_for(out, b"\n", done + 10, buffer) - done)
    used = cpu_seconds(watch.pid) - before
    watch.stdin.close()
    watch.wait(timeout=10)
    result[f"watch_{name}_median_ms"] = percentile(delays, 50) * 1000
    result[f"watch_{name}_p99_ms"] = percentile(delays, 99) * 1000
    result[f"watch_{name}_cpu_ms_per_change"] = used * 1000 / changes
result["changes"] = changes
print(json.dumps(result))
