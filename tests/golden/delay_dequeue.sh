#!/bin/bash
# delay_dequeue.sh - EEVDF's delayed dequeue (DELAY_DEQUEUE, kernel/sched/fair.c dequeue_entity(),
# Debian 6.12.95 and 7.2.13): a task that sleeps while not eligible (its vruntime past the
# weighted average of its cfs_rq's) stays queued, its weight in cfs_rq->load.weight and so in the
# root cfs_rq's load_avg, but not runnable (se_runnable()), until a pick chooses it
# (pick_next_entity() dequeues it) or it wakes. src/sched/fair_eevdf.c.
#
# Hand-made lab-2cpu traces under v6.12, rq_clock_offset_ns=0, CPU 0, nice-0 tasks, base slice
# 0.7 ms x (1 + ilog2(2 CPUs)) = 1.4 ms; vruntimes below in ms of each task's run, from A's
# placement at 1.000500:
#   1.000000 A runs alone for 0.1 ms and sleeps: eligible (alone, it is the average), dequeued
#            with lag 0; so the model knows A's lag (a task's first sleep in the trace, before
#            any dequeue shows its lag, is not delayed: fair_eevdf.c)
#   1.000500 A wakes and runs (alone: placed at the average, v_A = 0, deadline 1.4)
#   1.001500 B wakes (v_A = 1.0, B placed at the average with no lag: v_B = 1.0, deadline 2.4)
#   1.002500 A sleeps: v_A = 2.0 against the average 1.5: not eligible, delayed; B runs
# In t1.txt B sleeps at 1.003500 (v_B = 2.0 = the average: eligible, dequeued) and the switch to
# idle picks A, alone, which ends its delay. In t2.txt B runs on: the tick at 1.004000 finds
# v_B = 2.5 past B's deadline 2.4, reschedules, and the pick chooses A (eligible: 2.0 < 2.25,
# deadline 3.4) and dequeues it; B sleeps at 1.005000.
# The root cfs_rq's load_avg at a sample just after (a sched_pelt_cfs line, which validate
# compares) is tests/golden/lib/pelt_ref.py's with the number of queued tasks per interval:
# 1 A, 2 A and B, 2 B and the delayed A, then 1 (t2: after the tick); runnable_avg counts the
# delayed A out. Without the delay (--set delay_dequeue=0, or a v6.6 profile) A's weight leaves
# at its sleep.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init delay_dequeue

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # B_SLEEPS SAMPLE_TIME
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R A 20
	golden_switch 0 1.000100 A 20 S swapper/0 0
	ev '<idle>' 0 0 d..3. 1.000500 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.000500 swapper/0 0 R A 20
	ev A 20 0 d..3. 1.001500 "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.002500 A 20 S B 30
	golden_switch 0 "$1" B 30 S swapper/0 0
	ev '<idle>' 0 0 d.s3. "$2" "sched_pelt_cfs: cpu=0 path=/ load=0 rbl_load=0 util=0 update_time=0"
}
trace 1.003500 1.003600 >"$tmp/t1.txt"
trace 1.005000 1.005100 >"$tmp/t2.txt"
# t0.txt: t1.txt without A's first cycle, so A is first seen running at 1.000500, its lag
# stored before the trace. Placed at lag 0, it sleeps at 1.002500 past the average as in t1
# (V - v = 1.5 - 2.0 = -0.5 ms), but a nice-0 task's first sleep with its lag unknown is not
# delayed: it leaves, storing -0.5 ms, and the load is the one without the delay. t3.txt: the
# same with A at nice -20 (prio 100), whose sleep is decided as any other: delayed, at lag 0.
sed '2,4d' "$tmp/t1.txt" >"$tmp/t0.txt"
sed '2,4d; s/prev_comm=A prev_pid=20 prev_prio=120/prev_comm=A prev_pid=20 prev_prio=100/; s/next_comm=A next_pid=20 next_prio=120/next_comm=A next_pid=20 next_prio=100/' \
	"$tmp/t1.txt" >"$tmp/t3.txt"

# emulated TRACE SIGNAL [ARG...]: the emulated value validate compared with the trace's sample
emulated() {
	local t=$1 sig=$2
	shift 2
	"$bin" validate "$t" --platform lab-2cpu --timing traced --set rq_clock_offset_ns=0 "$@" \
		--json 2>"$tmp/err" >"$tmp/v.json" || { golden_fail "validate $t $*: $(cat "$tmp/err")"; return; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["traces"][0]["kernels"][0]["signals"]:
    if s["signal"] == sys.argv[2]:
        print(s["first_divergences"][0]["emulated"])' "$tmp/v.json" "$sig"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
LOAD="cpu load_avg (root cfs_rq)"
RUNNABLE="cpu runnable (root cfs_rq)"

delayed=$(ref 1000000000:0 1000100000:1 1000500000:0 1001500000:1 1002500000:2 1003500000:2 1003600000:0)
gone=$(ref 1000000000:0 1000100000:1 1000500000:0 1001500000:1 1002500000:2 1003500000:1 1003600000:0)
[ "$delayed" != "$gone" ] || golden_fail "the reference does not tell the delay: $delayed"
golden_equal "load_avg, A delayed until the idle pick" \
	"$(emulated "$tmp/t1.txt" "$LOAD" --kernel v6.12)" "$delayed"
golden_equal "load_avg under v7.2" "$(emulated "$tmp/t1.txt" "$LOAD" --kernel v7.2)" "$delayed"
golden_equal "runnable_avg: the delayed A is not runnable" \
	"$(emulated "$tmp/t1.txt" "$RUNNABLE" --kernel v6.12)" "$gone"
golden_equal "load_avg, A's first sleep with its lag unknown: not delayed" \
	"$(emulated "$tmp/t0.txt" "$LOAD" --kernel v6.12)" \
	"$(ref 1000500000:0 1001500000:1 1002500000:2 1003500000:1 1003600000:0)"
golden_equal "load_avg, --set delay_dequeue=0" \
	"$(emulated "$tmp/t1.txt" "$LOAD" --kernel v6.12 --set delay_dequeue=0)" "$gone"
golden_equal "load_avg under v6.6 (no delayed dequeue)" \
	"$(emulated "$tmp/t1.txt" "$LOAD" --kernel v6.6)" "$gone"
golden_equal "load_avg, A dequeued by the tick's pick" \
	"$(emulated "$tmp/t2.txt" "$LOAD" --kernel v6.12)" \
	"$(ref 1000000000:0 1000100000:1 1000500000:0 1001500000:1 1002500000:2 1004000000:2 1005000000:1 1005100000:0)"
# The task timeline's EEVDF columns (vlag_ns, delayed) at each sleep (A's second: GOLDEN_SLEEP_N):
# A's first leaves at lag 0, not delayed; at its second A is delayed with the lag
# its placement left it (0; 7.2 updates the lag as it delays: V - v = 1.5 - 2.0 = -0.5 ms), B
# leaves at lag 0 (v_B = 2.0, the average with the delayed A). The model keeps EEVDF's state
# only for the delayed dequeue: with delay_dequeue=0, and under v6.6, the columns are empty.
golden_equal "A's first sleep under v6.12" "$(golden_sleep_cols "$tmp/t1.txt" 20 --kernel v6.12)" "0/0"
golden_equal "A's sleep under v6.12" "$(GOLDEN_SLEEP_N=2 golden_sleep_cols "$tmp/t1.txt" 20 --kernel v6.12)" "0/1"
golden_equal "A's sleep under v7.2" "$(GOLDEN_SLEEP_N=2 golden_sleep_cols "$tmp/t1.txt" 20 --kernel v7.2)" \
	"-500000/1"
golden_equal "A's first sleep, its lag unknown, under v6.12" \
	"$(golden_sleep_cols "$tmp/t0.txt" 20 --kernel v6.12)" "-500000/0"
golden_equal "A's first sleep, its lag unknown, under v7.2" \
	"$(golden_sleep_cols "$tmp/t0.txt" 20 --kernel v7.2)" "-500000/0"
golden_equal "A at nice -20, its first sleep: delayed" \
	"$(golden_sleep_cols "$tmp/t3.txt" 20 --kernel v6.12)" "0/1"
golden_equal "B's sleep under v6.12" "$(golden_sleep_cols "$tmp/t1.txt" 30 --kernel v6.12)" "0/0"
golden_equal "A's sleep with delay_dequeue=0" \
	"$(GOLDEN_SLEEP_N=2 golden_sleep_cols "$tmp/t1.txt" 20 --kernel v6.12 --set delay_dequeue=0)" "/"
golden_equal "A's sleep under v6.6" "$(GOLDEN_SLEEP_N=2 golden_sleep_cols "$tmp/t1.txt" 20 --kernel v6.6)" "/"
exit $fail
