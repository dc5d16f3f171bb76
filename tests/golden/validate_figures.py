#!/usr/bin/env python3
"""validate_figures.py - a second implementation of `govsim validate`'s frequency figures, from
the trace's own text and the `govsim run --timing traced --timeline` CSV of the same replay (issue
#17 item 6). Written from the definitions in `govsim validate --help` and src/sim/sim.h, not from
the code that computes them:

  decisions  kernel frequency changes: cpu_frequency events of the policy's first CPU whose
             state differs from that CPU's previous one (the first one is the initial state)
  agree      share of the decisions where the emulated frequency equals the kernel's new one at
             some instant within +-window of the decision
  time       time-weighted share of the time the emulated frequency equals the traced one
             (the first CPU's last cpu_frequency), from that CPU's first cpu_frequency to the
             trace's last event
  busy       the same, counted only while some CPU of the policy runs a task (sched_switch
             next_pid != 0 on that CPU, idle before its first switch)

The emulated frequency is the step function of the timeline's freq_khz per policy (each row is a
governor evaluation; with --set switch_latency_us=0 every change is in force at the evaluation
that asked for it, so the rows carry every change).

usage: validate_figures.py TRACE_TEXT TIMELINE_CSV WINDOW_MS POLICY_CPUS...
  POLICY_CPUS: one comma-separated CPU list per policy, in the platform's order ("0,3,4,5" "1,2")
prints one line per policy: "policyN decisions agree_pct busy_pct time_pct" ("-" where undefined)
"""
import csv
import re
import sys

EV = re.compile(r"\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\w+):\s*(.*)$")


def read_trace(path):
    """(t0, t_end, freq events [(t, cpu, khz)], switches [(t, cpu, busy)]), times in us."""
    freqs, switches = [], []
    t0 = t_end = None
    with open(path, errors="replace") as f:
        for line in f:
            m = EV.search(line)
            if not m:
                continue
            cpu, ts, name, args = int(m.group(1)), m.group(2), m.group(3), m.group(4)
            sec, frac = ts.split(".")
            t = int(sec) * 1000000 + int(frac.ljust(6, "0")[:6])
            t0 = t if t0 is None else t0
            t_end = t
            kv = dict(re.findall(r"(\w+)=(\S+)", args))
            if name == "cpu_frequency":
                freqs.append((t, int(kv["cpu_id"]), int(kv["state"])))
            elif name == "sched_switch":
                switches.append((t, cpu, kv.get("next_pid", "0") != "0"))
    return t0, t_end, freqs, switches


def read_timeline(path, t0):
    """{policy index: [(t_us absolute, khz)]} in time order."""
    steps = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            sec, frac = row["time_s"].split(".")
            t = t0 + int(sec) * 1000000 + int(frac.ljust(6, "0")[:6])
            steps.setdefault(int(row["policy"]), []).append((t, int(row["freq_khz"])))
    return steps


def value_at(steps, t):
    """The step function's value at t (the last step at or before t; the first before it)."""
    v = steps[0][1]
    for ts, khz in steps:
        if ts > t:
            break
        v = khz
    return v


def figures(pol, cpus, t0, t_end, freqs, switches, steps, window_us):
    first = cpus[0]
    kf = [(t, khz) for t, c, khz in freqs if c == first]
    if not kf:
        return None
    # decisions and their agreement
    dec = [(t, khz) for (t, khz), (_, prev) in zip(kf[1:], kf[:-1]) if khz != prev]
    agree = 0
    for t, khz in dec:
        lo, hi = t - window_us, t + window_us
        vals = {value_at(steps, lo)} | {k for ts, k in steps if lo <= ts <= hi}
        agree += khz in vals
    # time and busy shares: walk every instant where something changes
    cuts = sorted({t for t, _ in kf} | {t for t, _ in steps} |
                  {t for t, c, _ in switches if c in cpus} | {t_end})
    busy_cpu = {c: False for c in cpus}
    sw = [(t, c, b) for t, c, b in switches if c in cpus]
    si = 0
    known = match = bknown = bmatch = 0
    traced = None
    ki = 0
    for a, b in zip(cuts, cuts[1:]):
        while ki < len(kf) and kf[ki][0] <= a:
            traced = kf[ki][1]
            ki += 1
        while si < len(sw) and sw[si][0] <= a:
            busy_cpu[sw[si][1]] = sw[si][2]
            si += 1
        if traced is None or b <= a:
            continue
        same = value_at(steps, a) == traced
        known += b - a
        match += (b - a) if same else 0
        if any(busy_cpu.values()):
            bknown += b - a
            bmatch += (b - a) if same else 0
    pct = lambda x, y: "%.2f" % (100.0 * x / y) if y else "-"
    return len(dec), pct(agree, len(dec)), pct(bmatch, bknown), pct(match, known)


def main():
    trace, timeline, window_ms = sys.argv[1], sys.argv[2], float(sys.argv[3])
    policies = [[int(c) for c in a.split(",")] for a in sys.argv[4:]]
    t0, t_end, freqs, switches = read_trace(trace)
    steps = read_timeline(timeline, t0)
    for i, cpus in enumerate(policies):
        f = figures(i, cpus, t0, t_end, freqs, switches, steps.get(i, [(t0, 0)]),
                    int(window_ms * 1000))
        if f:
            print("policy%d %d %s %s %s" % ((cpus[0],) + f))


main()
