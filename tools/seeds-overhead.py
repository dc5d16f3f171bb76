#!/usr/bin/env python3
"""Reproduce the seeds' overhead figures with govsim (README 'Kernel overhead').

Runs `govsim gen pipe` traces through `govsim run --json` in the configurations of seeds 000,
003 and 001 and prints one Markdown table: the document's relative figure, govsim's, and the
difference in percentage points. With --check, exits 1 when a figure the cost table targets
misses by more than --tolerance points (default 0.5); the figures documented as misses
(seed 003's uclamp rows at depths 1 and 3, seed 001's performance run) are printed, not
checked. Seeds 000 and 001 replay on hikey960, seed 003 on hikey (the boards they ran on, or
for 001 the table it calibrates).

usage: tools/seeds-overhead.py [--govsim BIN] [--loops N] [--check] [--tolerance PP]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(govsim, trace, *args):
    out = subprocess.run([govsim, "run", trace, "--json", *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def span(r):
    return r["span_s"]


def throughput(r):
    return r["activity"]["throughput_per_s"]


def ops(r):
    return {o["operation"]: o for o in r["kernel_overhead"]["operations"]}


def pct(new, base):
    return 100.0 * (new / base - 1.0)


def seed000(govsim, pipe2):
    perf = ["--governor", "performance"]
    base = span(run(govsim, pipe2, *perf, "--set", "uclamp_task=0"))
    rows = []
    cases = [
        ("000 (2) uclamp compiled in (no static key): time", 2.5789,
         ["--kernel", "v5.4-early"], True),
        ("000 (3) static key, no user: time", -0.3245, [], True),
        ("000 (4) sched_util_clamp_min 512: time", 1.9938,
         ["--action", "sysctl sched_util_clamp_min 512"], True),
    ]
    for name, doc, extra, checked in cases:
        rows.append((name, doc, pct(span(run(govsim, pipe2, *perf, *extra)), base), checked))
    return rows


def seed003(govsim, pipe2):
    """Seed 003 was measured on a HiKey (Hi6220, 8x A53): replayed on --platform hikey, whose
    cost table is derived from it (models/hikey.sql)."""
    perf = ["--platform", "hikey", "--governor", "performance"]
    doc_depth = [None, -6.8407, -12.0131, -17.2310]
    doc_uclamp = [-3.66, -3.37, -3.92, -3.98]
    # /w patch uclamp enabled vs /w patch uclamp disabled: 49661/50615, 46611/47198, ...
    doc_key_off = [-1.8848, -1.2437, -1.8068, -1.1789]
    # the minimax uclamp_rq_inc_id misses these two by 0.52 pp (models/hikey.sql)
    uclamp_miss = (1, 3)
    rows = []
    tput = []
    for d in range(4):
        depth = ["--set", "cgroup_depth=%d" % d]
        off = throughput(run(govsim, pipe2, *perf, *depth, "--set", "uclamp_task=0"))
        on = throughput(run(govsim, pipe2, *perf, *depth, "--kernel", "v5.4-early"))
        key_off = throughput(run(govsim, pipe2, *perf, *depth))
        tput.append(off)
        if d:
            rows.append(("003 depth %d, no uclamp: throughput vs root" % d, doc_depth[d],
                         pct(off, tput[0]), True))
        rows.append(("003 depth %d, uclamp on (no static key): throughput vs no uclamp" % d,
                     doc_uclamp[d], pct(on, off), d not in uclamp_miss))
        rows.append(("003 depth %d, static key off, no user: throughput vs no uclamp" % d,
                     doc_key_off[d], pct(key_off, off), True))
    return rows


def seed001(govsim, pipe1):
    rows = []
    for gov, doc in (("schedutil", 0.5367), ("performance", -0.6750)):
        runs = [run(govsim, pipe1, "--governor", gov, "--set", "update_points=" + up)
                for up in ("kernel", "context-switch")]
        cost = [sum(ops(r)[k]["time_s"] for k in ("cpufreq_update_util", "governor_eval"))
                for r in runs]
        calls = [ops(r)["cpufreq_update_util"]["calls"] for r in runs]
        name = "001 %s, context-switch update points (%d -> %d calls): cost" % (
            gov, calls[0], calls[1])
        rows.append((name, doc, 100.0 * (cost[1] - cost[0]) / span(runs[0]),
                     gov == "schedutil"))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--govsim", default="./build/govsim")
    ap.add_argument("--loops", type=int, default=100000)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tolerance", type=float, default=0.5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pipe2 = os.path.join(tmp, "pipe2.txt")
        pipe1 = os.path.join(tmp, "pipe1.txt")
        # one trace for every platform replayed: 8 CPUs at 2 GHz, as the figures were fitted
        subprocess.run([a.govsim, "gen", "pipe", "-o", pipe2, "--loops", str(a.loops),
                        "--max-khz", "2000000"], check=True)
        subprocess.run([a.govsim, "gen", "pipe", "-o", pipe1, "--cpus", "0", "--loops",
                        str(max(a.loops // 5, 1)), "--max-khz", "2000000"], check=True)
        rows = seed000(a.govsim, pipe2) + seed003(a.govsim, pipe2) + seed001(a.govsim, pipe1)
    bad = 0
    print("| seed figure (relative, %) | document | govsim | difference (pp) |")
    print("|---|---:|---:|---:|")
    for name, doc, got, checked in rows:
        diff = got - doc
        mark = "" if checked else " (documented miss)"
        print("| %s | %+.2f | %+.2f | %+.2f%s |" % (name, doc, got, diff, mark))
        if a.check and checked and abs(diff) > a.tolerance:
            print("seeds-overhead: %s: %+.2f pp, more than %.2f" % (name, diff, a.tolerance),
                  file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
