#!/bin/bash
# runtime_start.sh - the runtime of a task already running when the trace starts.
#
# Checks: a hand-written trace (below) whose task 'busy' is first seen switching out of CPU 0,
# 4 ms after the trace's first event: in traced timing its runtime_s is that 4 ms plus its one
# later slice of 1 ms, 0.005 s (the arithmetic is in the comments of the trace), in --json,
# task_stats of the database and --csv task_stats.csv; in work timing its runtime is within
# the replay's span. On surfaceflinger (text and Perfetto, 8 CPUs), in both timings: no task
# runs longer than the span, and the runtimes add up to at most 8 x span.
# Does not check: the runtime of tasks in the middle of the trace (their slices are the
# trace's; test_sim.c and json.sh pin those).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init runtime_start

# the trace starts at 100.000000 (CPU 1 leaves idle); 'busy' ran on CPU 0 since then and
# sleeps at 100.004000 (4 ms); woken at 100.006000, it runs 100.006010 .. 100.007010 (1 ms)
cat >"$tmp/t.txt" <<'EOF'
# tracer: nop
#
# entries-in-buffer/entries-written: 6/6   #P:2
#
          <idle>-0     [001] d..2   100.000000: cpu_idle: state=4294967295 cpu_id=1
            busy-100   [000] d..3   100.004000: sched_switch: prev_comm=busy prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [001] dnh3   100.006000: sched_wakeup: comm=busy pid=100 prio=120 target_cpu=000
          <idle>-0     [000] d..3   100.006010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=busy next_pid=100 next_prio=120
            busy-100   [000] d..3   100.007010: sched_switch: prev_comm=busy prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [001] d..2   100.010000: cpu_idle: state=1 cpu_id=1
EOF

for timing in traced work; do
	d="$tmp/$timing"
	mkdir -p "$d"
	"$bin" run "$tmp/t.txt" --timing $timing --json --db "$d/r.db" --csv "$d/csv" \
		>"$d/j" 2>"$d/e" || { golden_fail "$timing: run failed: $(cat "$d/e")"; continue; }
	python3 - "$timing" "$d" <<'PY' || golden_fail "the Python check of $timing $d failed"
import csv, json, sqlite3, sys
timing, d = sys.argv[1:]
j = json.load(open(f'{d}/j'))
got = {
    'json': [t['runtime_s'] for t in j['tasks']['list'] if t['comm'] == 'busy'],
    'db': [r[0] for r in sqlite3.connect(f'{d}/r.db').execute(
        "SELECT runtime_s FROM task_stats WHERE comm = 'busy'")],
    'csv': [float(r['runtime_s']) for r in csv.DictReader(open(f'{d}/csv/task_stats.csv'))
            if r['comm'] == 'busy'],
}
bad = 0
for where, v in got.items():
    if len(v) != 1:
        print(f'runtime_start: {timing}: {where}: {len(v)} rows for busy', file=sys.stderr)
        bad = 1
    elif timing == 'traced' and abs(v[0] - 0.005) > 1e-9:
        print(f'runtime_start: {timing}: {where}: busy ran {v[0]} s, want 0.005', file=sys.stderr)
        bad = 1
    elif not 0 < v[0] <= j['span_s'] + 1e-9:
        print(f'runtime_start: {timing}: {where}: busy ran {v[0]} s in a span of '
              f'{j["span_s"]} s', file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
done

# real traces: every runtime within the span, their sum within CPUs x span
for t in traces/android-8cpu/surfaceflinger.txt tests/golden/input/surfaceflinger.pftrace; do
	for timing in traced work; do
		"$bin" run "$t" --timing $timing --json >"$tmp/j" 2>/dev/null ||
			{ golden_fail "$t $timing: run failed"; continue; }
		python3 - "$t $timing" "$tmp/j" 8 <<'PY' || golden_fail "the Python check of $t $timing failed"
import json, sys
name, path, cpus = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.load(open(path))
span = j['span_s']
tasks = j['tasks']['list']
bad = 0
for t in tasks:
    if t['runtime_s'] > span + 1e-9:
        print(f"runtime_start: {name}: {t['comm']} ({t['pid']}) ran {t['runtime_s']} s in a "
              f'span of {span} s', file=sys.stderr)
        bad = 1
total = sum(t['runtime_s'] for t in tasks)
if total > cpus * span + 1e-9:
    print(f'runtime_start: {name}: runtimes add up to {total} s, more than {cpus} CPUs x '
          f'{span} s', file=sys.stderr)
    bad = 1
sys.exit(bad)
PY
	done
done
exit $fail
