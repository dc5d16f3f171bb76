#!/bin/bash
# work_disagree.sh - duplicated events and sched_switch events that disagree with what the CPU
# runs in the trace, under work timing (and traced timing where it applies).
#
# The traces are made here (lab-2cpu, 0.1 s): tasks 101 and 103 on CPU 0, 102 and 104 on CPU 1,
# each woken from idle in irq context every 10 ms, switched in 5 us later, running 2 ms, then
# sleeping. Checks, with the expected figures worked out from that schedule, not from a run:
#  1. every line written twice gives the figures of the trace once (work and traced timing),
#     with a note counting the 120 duplicates ignored;
#  2. a switch-out naming a pid that never ran (twice): both counted in the usual note ("2
#     sched_switch events disagreed with the model"), the CPU's slice still ends there (the
#     figures are those of the clean trace), and the phantom pid is no task (tasks: 4);
#  3. a lost switch-out (task 101 at 30.105 ms on CPU 0), after which 101 runs on CPU 1 and CPU
#     0 records nothing more: the slice left open on CPU 0 ends when 101 is switched in on CPU 1
#     (43.605 ms), not at the end of the trace. Under performance (traced work assumed at the
#     maximum frequency, replayed at it) nothing is late (slice lateness summed 0), every
#     activation ends (33: 101 and 102, 104 ten each, 103 three), and one switch is noted.
# Does not check: what schedutil chooses (run.sh, validate).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init work_disagree

# gen MODE: the trace on stdout (plain, dup, ghost, lostmig)
gen() {
	python3 - "$1" <<'PY'
import sys
mode = sys.argv[1]
ev = []
for k in range(10):
    for i, pid in enumerate((101, 102, 103, 104)):
        cpu = i % 2
        off = 5000 * (i // 2) + 1000 * cpu
        if mode == "lostmig" and pid == 103 and k >= 3:
            continue                      # CPU 0 records nothing after 101's lost switch-out
        if mode == "lostmig" and pid == 101 and k >= 4:
            cpu, off = 1, 3500            # 101 now runs on CPU 1, between 102 and 104
        w = 100_000_000 + k * 10_000 + off + 100   # us
        s, e = w + 5, w + 2005
        ev.append((w, f"<idle>-0     [{cpu:03d}] d.h3 {w // 10**6}.{w % 10**6:06d}: sched_wakeup: comm=t{pid} pid={pid} prio=120 target_cpu={cpu:03d}"))
        ev.append((s, f"<idle>-0     [{cpu:03d}] d..3 {s // 10**6}.{s % 10**6:06d}: sched_switch: prev_comm=swapper/{cpu} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t{pid} next_pid={pid} next_prio=120"))
        if mode == "lostmig" and pid == 101 and k == 3:
            continue                      # its switch-out is lost
        pp, pc = pid, f"t{pid}"
        if mode == "ghost" and pid == 101 and k in (3, 7):
            pp, pc = 999, "ghost"
        ev.append((e, f"{pc}-{pp}     [{cpu:03d}] d..3 {e // 10**6}.{e % 10**6:06d}: sched_switch: prev_comm={pc} prev_pid={pp} prev_prio=120 prev_state=S ==> next_comm=swapper/{cpu} next_pid=0 next_prio=120"))
ev.sort(key=lambda x: x[0])
print("# tracer: nop")
for _, line in ev:
    print(line)
    if mode == "dup":
        print(line)
PY
}
for m in plain dup ghost lostmig; do gen $m >"$tmp/$m.txt" || { echo "work_disagree: cannot make $m" >&2; exit 1; }; done
[ "$(grep -c sched_ "$tmp/plain.txt")" = 120 ] || { echo "work_disagree: plain trace is not 120 events" >&2; exit 1; }

# run NAME TIMING [ARGS...] -> $tmp/NAME.TIMING.out, exit status checked
run() {
	local n=$1 t=$2
	shift 2
	"$bin" run "$tmp/$n.txt" --platform lab-2cpu --timing "$t" "$@" >"$tmp/$n.$t.out" 2>"$tmp/$n.$t.err"
	[ $? = 0 ] || { golden_fail "$n ($t): exit $?"; cat "$tmp/$n.$t.err" >&2; }
}
# figures FILE: the output without the lines naming the file and counting its events, nor notes
# in NOTE_SKIP
figures() {
	grep -v -e '^trace: ' -e ' events$' -e "${NOTE_SKIP:-^\$^}" "$1"
}
expect_line() {
	grep -qxF -- "$3" "$2" || { golden_fail "$1: no line '$3' in:"; cat "$2" >&2; }
}

# 1. duplicates, both timings
for t in work traced; do
	run plain $t
	run dup $t
	NOTE_SKIP='^note:     120 duplicate events' figures "$tmp/dup.$t.out" >"$tmp/dup.$t.fig"
	figures "$tmp/plain.$t.out" >"$tmp/plain.$t.fig"
	diff "$tmp/plain.$t.fig" "$tmp/dup.$t.fig" >"$tmp/d" ||
		{ golden_fail "dup ($t): figures differ from the trace once:"; cat "$tmp/d" >&2; }
	expect_line "dup ($t)" "$tmp/dup.$t.out" \
		"note:     120 duplicate events (the same event twice at one time on one CPU) ignored"
done
grep -q 'disagreed' "$tmp/plain.work.out" && golden_fail "plain: disagreement noted"

# 2. a phantom prev_pid, work timing: noted, same figures, not a task
run ghost work
note2="note:     2 sched_switch events disagreed with the model (events lost by the tracer?), the trace was trusted"
expect_line ghost "$tmp/ghost.work.out" "$note2"
NOTE_SKIP="^$note2\$" figures "$tmp/ghost.work.out" >"$tmp/ghost.fig"
diff "$tmp/plain.work.fig" "$tmp/ghost.fig" >"$tmp/d" ||
	{ golden_fail "ghost: figures differ from the clean trace:"; cat "$tmp/d" >&2; }
grep -q '^tasks: 4,' "$tmp/ghost.work.out" || golden_fail "ghost: not 4 tasks"

# 3. a lost switch-out, then the task elsewhere: bounded, noted, nothing late at max frequency
run lostmig work --governor performance
expect_line lostmig "$tmp/lostmig.work.out" \
	"note:     1 sched_switch events disagreed with the model (events lost by the tracer?), the trace was trusted"
grep -q '^tasks: 4, slice lateness summed 0.000000 s$' "$tmp/lostmig.work.out" ||
	{ golden_fail "lostmig: want 4 tasks and no lateness:"; cat "$tmp/lostmig.work.out" >&2; }
grep -q '^activations: 33,' "$tmp/lostmig.work.out" ||
	golden_fail "lostmig: want 33 activations"
# CPU time: CPU 0 runs 101 for 3 x 2 ms + 13.5 ms (30.105 to 43.605 ms) and 103 for 3 x 2 ms;
# CPU 1 runs 102 and 104 for 10 x 2 ms each and 101 for 6 x 2 ms
"$bin" run "$tmp/lostmig.txt" --platform lab-2cpu --governor performance --quiet --csv "$tmp/csv" \
	>/dev/null 2>&1 || golden_fail "lostmig --csv failed"
python3 - "$tmp/csv" <<'PY' || golden_fail "the Python check of $tmp/csv failed"
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/policy_stats.csv")))
want = {0: 0.0255, 1: 0.052}
for r in rows:
    got = float(r["busy_s"])
    if abs(got - want[int(r["policy"])]) > 2e-6:
        print(f"work_disagree: lostmig: policy{r['policy']} busy {got}, want {want[int(r['policy'])]}", file=sys.stderr)
        sys.exit(1)
PY

exit $fail
