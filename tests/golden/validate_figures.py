#!/usr/bin/env python3
"""validate_figures.py - a second implementation of `govsim validate`'s frequency figures, from
the trace's own text and the `govsim run --timing traced --timeline` CSV of the same replay.
Written from the definitions in `govsim validate --help` and src/sim/sim.h, not from
the code that computes them:

  decisions  kernel frequency changes: cpu_frequency events of the policy's first CPU whose
             state differs from that CPU's previous one (the first one is the initial state)
  emulated   emulated frequency changes: rows of the timeline whose freq_khz differs from the
             policy's frequency before them (the first one against the initial frequency: the
             first traced one, resolved to the platform's OPPs as cpufreq_driver_resolve_freq
             does with RELATION_L -- the lowest OPP at or above it, else the highest)
  recall     share of the decisions paired one to one with an emulated change to the same
             frequency within +-window: in trace order each decision takes the unpaired
             change nearest to it in time
  precision  share of the emulated changes so paired
  time       time-weighted share of the time the emulated frequency equals the traced one
             (the first CPU's last cpu_frequency), from that CPU's first cpu_frequency to the
             trace's last event
  busy       the same, counted only while some CPU of the policy runs a task (sched_switch
             next_pid != 0 on that CPU, idle before its first switch)

The emulated frequency is the step function of the timeline's freq_khz per policy (each row is a
governor evaluation; with --set switch_latency_us=0 every change is in force at the evaluation
that asked for it, so the rows carry every change).

usage: validate_figures.py TRACE_TEXT TIMELINE_CSV WINDOW_MS PLATFORM_JSON POLICY_CPUS...
       [--times FILE]
  PLATFORM_JSON: `govsim platforms show NAME --json` (the OPPs)
  POLICY_CPUS: one comma-separated CPU list per policy, in the platform's order ("0,3,4,5" "1,2")
prints one line per policy: "policyN decisions emulated recall_pct precision_pct busy_pct
time_pct" ("-" where undefined). --times FILE also writes every decision and emulated change
with its pairing, one per line: "policyN kernel|emulated T_US PAIRED" (PAIRED 1 or 0), in time
order per policy (validate --json's decision_times, in us).
"""
import csv
import json
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


def resolve(opps, khz):
    above = [o for o in opps if o >= khz]
    return min(above) if above else max(opps)


def figures(pol, cpus, t0, t_end, freqs, switches, steps, window_us, opps):
    first = cpus[0]
    kf = [(t, khz) for t, c, khz in freqs if c == first]
    if not kf:
        return None
    # decisions, emulated changes, and their one-to-one pairing
    dec = [(t, khz) for (t, khz), (_, prev) in zip(kf[1:], kf[:-1]) if khz != prev]
    emu, cur = [], resolve(opps, kf[0][1])
    for ts, khz in steps:
        if khz != cur:
            emu.append((ts, khz))
            cur = khz
    used = [False] * len(emu)
    agree = 0
    paired = []
    for t, khz in dec:
        best = None
        for i, (ts, k) in enumerate(emu):
            if used[i] or k != khz or abs(ts - t) > window_us:
                continue
            if best is None or abs(ts - t) < abs(emu[best][0] - t):
                best = i
        paired.append(best is not None)
        if best is not None:
            used[best] = True
            agree += 1
    times = [("kernel", t, p) for (t, _), p in zip(dec, paired)] + \
            [("emulated", t, u) for (t, _), u in zip(emu, used)]
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
    return (len(dec), len(emu), pct(agree, len(dec)), pct(agree, len(emu)), pct(bmatch, bknown),
            pct(match, known)), times


def main():
    args = sys.argv[1:]
    times_out = None
    if "--times" in args:
        i = args.index("--times")
        times_out = open(args[i + 1], "w")
        del args[i:i + 2]
    trace, timeline, window_ms = args[0], args[1], float(args[2])
    plat = json.load(open(args[3]))
    policies = [[int(c) for c in a.split(",")] for a in args[4:]]
    t0, t_end, freqs, switches = read_trace(trace)
    steps = read_timeline(timeline, t0)
    for i, cpus in enumerate(policies):
        opps = [o["khz"] for o in plat["policies"][i]["opps"]]
        # the timeline's policy column is the policy's first CPU
        f = figures(i, cpus, t0, t_end, freqs, switches, steps.get(cpus[0], [(t0, 0)]),
                    int(window_ms * 1000), opps)
        if f:
            f, times = f
            print("policy%d %d %d %s %s %s %s" % ((cpus[0],) + f))
            for kind, t, p in times:
                if times_out:
                    times_out.write("policy%d %s %d %d\n" % (cpus[0], kind, t, p))


main()
