"""CPU seconds of processes, read from /proc: what scripts/bench-load.py and
scripts/bench-sync.py report as where a load's time went."""
import os
import subprocess

TICKS = os.sysconf("SC_CLK_TCK")


def stat_fields(pid):
    """The fields of /proc/PID/stat after the process's name (state first); `None` once it
    has ended."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def cpu_seconds(pids):
    """User + system CPU seconds of `pids` so far (those that ended count as zero)."""
    total = 0
    for pid in pids:
        fields = stat_fields(pid)
        if fields:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def postgres_cpu():
    """CPU seconds of PostgreSQL so far: its processes running now, and those that ended
    (a backend's time is added to the postmaster's children's when it exits)."""
    pids = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout.split()
    oldest = subprocess.run(["pgrep", "-o", "-x", "postgres"], capture_output=True, text=True).stdout.strip()
    ended = stat_fields(oldest) if oldest else None
    children = int(ended[13]) + int(ended[14]) if ended else 0
    return cpu_seconds(pids) + children / TICKS
