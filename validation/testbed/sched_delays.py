#!/usr/bin/env python3
"""How long the deployed ranks' threads waited for a CPU after being woken.

    sched_delays.py SCHED.DATA... [--comm uniference-depl] [--samples WAKE.json]
                    [--handling-samples HANDLING.json]

Each SCHED.DATA is a `perf sched record` of a deployment (validation/README.md, "Whole runs").
For every wake-up (sched_waking) of a thread of the processes named --comm, the time until it
next ran (sched_switch to it) is one delay. Prints, for the ranks' main threads (those that
run the shard code) and for their other threads (Gloo's workers and its event loop), the
count, mean, median, 90th and 99th percentile and maximum of the delays, and how many of those over
1 ms were woken onto a CPU that was idle at the time: on a virtual machine, a halted virtual
CPU the hypervisor had yet to run again. With several files, also the same over all of them:
the main threads' mean is the host's wake-up latency of a rank (/devices/wake_latency).
--samples writes the main threads' delays over all files as a wake-up latency file, which
/devices/wake_latency takes in the mean's place: {"format": "uniference-wake-latency",
"format_version": 1, "samples_ns": [...]}, in the recordings' order. --handling-samples
writes the other threads' the same way, for /devices/handling_latency: Gloo's event loop and
workers are woken for every message that arrives.
"""
import json
import argparse
import re
import subprocess
import sys

EVENT = re.compile(r"^\s*(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(sched_waking|sched_switch):\s+(.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def events(path):
    """(time, cpu, event, fields) of every sched_waking and sched_switch in the recording."""
    script = subprocess.run(["perf", "script", "-i", path, "-F", "pid,tid,cpu,time,event,trace"],
                            capture_output=True, text=True, check=True).stdout
    for line in script.splitlines():
        m = EVENT.match(line)
        if m:
            yield float(m.group(4)), int(m.group(3)), m.group(5), dict(FIELD.findall(m.group(6)))


def percentile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def delays_of(path, comm):
    """{group: [delay in us]} and {group: delays over 1 ms onto an idle CPU} of one recording."""
    ran = subprocess.run(["perf", "script", "-i", path, "-F", "pid,tid,comm"], capture_output=True, text=True)
    if ran.returncode != 0:
        sys.exit("sched_delays.py: perf script failed on %s: %s" % (path, ran.stderr.strip()))
    process_of = {}       # tid -> pid, for the threads of `comm` processes
    for line in ran.stdout.splitlines():
        parts = line.split()  # comm, then pid/tid
        if len(parts) >= 2 and parts[0] == comm and "/" in parts[1]:
            pid, tid = parts[1].split("/")
            process_of[int(tid)] = int(pid)
    woken = {}            # tid -> (time, whether its target cpu was idle)
    running = {}          # cpu -> pid running there (0: idle)
    delays = {"main threads": [], "other threads": []}
    idle_slow = {"main threads": 0, "other threads": 0}
    for t, cpu, kind, f in events(path):
        if kind == "sched_waking":
            tid = int(f.get("pid", -1))
            # a thread woken while it still runs (it had not yet switched out) waits for nothing
            if tid in process_of and tid not in woken and tid not in running.values():
                target = int(f.get("target_cpu", cpu))
                woken[tid] = (t, running.get(target) == 0)
            continue
        nxt = int(f["next_pid"])
        running[cpu] = nxt
        if not f.get("prev_state", "R").startswith("R"):
            woken.pop(int(f["prev_pid"]), None)  # woken while still running, then slept again
        if nxt in woken:
            start, was_idle = woken.pop(nxt)
            group = "main threads" if process_of[nxt] == nxt else "other threads"
            delay = (t - start) * 1e6
            delays[group].append(delay)
            if delay > 1000 and was_idle:
                idle_slow[group] += 1
    if not any(delays.values()):
        sys.exit("sched_delays.py: no wake-ups of '%s' threads in %s" % (comm, path))
    return delays, idle_slow


def report(delays, idle_slow):
    for group, values in delays.items():
        if not values:
            continue
        values = sorted(values)
        over = sum(1 for v in values if v > 1000)
        print("  %-13s %5d wake-ups: mean %5.0f us, median %4.0f us, p90 %5.0f us, p99 %6.0f us, max %6.0f us; "
              "%d over 1 ms, %d of them onto an idle CPU"
              % (group, len(values), sum(values) / len(values), percentile(values, 0.5),
                 percentile(values, 0.9), percentile(values, 0.99), values[-1], over, idle_slow[group]))


def write_samples(path, group, delays_us, recordings):
    """A wake-up latency file (apps/wake_latency_file.h) of one group's delays."""
    if not delays_us:
        sys.exit("sched_delays.py: no wake-ups of %s to write to %s" % (group, path))
    with open(path, "w") as out:
        json.dump({"format": "uniference-wake-latency", "format_version": 1,
                   "source": "perf sched record of " + ", ".join(recordings) + " (sched_delays.py)",
                   "threads": group.split()[0],
                   "samples_ns": [round(us * 1000) for us in delays_us]}, out)
        out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--comm", default="uniference-depl", help="process name (15 characters, as the kernel keeps it)")
    parser.add_argument("--samples", metavar="WAKE.json", help="write the main threads' delays here")
    parser.add_argument("--handling-samples", metavar="HANDLING.json", help="write the other threads' delays here")
    args = parser.parse_args()
    every = {"main threads": [], "other threads": []}
    every_idle = {"main threads": 0, "other threads": 0}
    for path in args.data:
        delays, idle_slow = delays_of(path, args.comm)
        print(path)
        report(delays, idle_slow)
        for group in every:
            every[group] += delays[group]
            every_idle[group] += idle_slow[group]
    if len(args.data) > 1:
        print("all %d recordings" % len(args.data))
        report(every, every_idle)
    for path, group in ((args.samples, "main threads"), (args.handling_samples, "other threads")):
        if path:
            write_samples(path, group, every[group], args.data)


if __name__ == "__main__":
    main()
