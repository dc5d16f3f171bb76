#!/bin/bash
# delay_migrate.sh - the load balancer's move of a task asleep in EEVDF's delayed dequeue
# (Debian 6.12.95 and 7.2.13 kernel/sched/fair.c). A balancer moves only queued tasks, and a
# delayed task is queued: detach_task() -> deactivate_task() dequeues it with a dequeue that is
# not a sleep, so dequeue_entity() stores its lag and leaves sched_delayed set, and
# attach_task() enqueues it, still delayed, on the destination. A wakeup never moves a delayed
# task (ttwu_runnable() requeues it where it is). attach_task()'s wakeup_preempt() reschedules
# an idle destination (core.c: the fair class is above idle's), and the pick that follows
# dequeues the delayed task (pick_next_entity()): when the balancing softirq is over, where the
# trace shows the idle CPU's cpu_idle exit and no switch (the pick found nothing to run).
#
# Hand-made lab-2cpu traces under v6.12, rq_clock_offset_ns=0, nice-0 tasks, as
# delay_dequeue.sh's t1: on CPU 0, A (pid 20) runs, sleeps alone (lag 0), wakes at 1.000500, B
# (pid 30) wakes at 1.001500, and A's sleep at 1.002500 is delayed (v_A 2.0 ms past the average
# 1.5). Then CPU 1, idle, runs its SCHED softirq at 1.003000 and pulls A (sched_migrate_task
# flagged 's'), and leaves idle at 1.003200 (cpu_idle exit, task context) and goes back without
# a switch: that is the pick that dequeues A, on CPU 1. B sleeps on CPU 0 at 1.003500.
#   - moved.txt: A's delay ends on CPU 1 at 1.003200 (the task timeline's delay_end row).
#   - newidle.txt: the same move traced in task context (flags "d..2.": a newidle balance inside
#     CPU 1's __schedule(), whose pick follows at once): the delay ends at the move, on CPU 0.
#   - first.txt: A's first cycle cut (its lag unknown, the model does not delay its first sleep:
#     fair_eevdf.c); the balancer's move says the kernel had it delayed: it joins CPU 1 delayed
#     and the pick there ends the delay at 1.003200.
#   - late.txt: moved.txt without CPU 1's cpu_idle lines: the pick comes 2 ms after the move at
#     most, at the first event past that (B's wakeup at 1.005100).
# Before this behaviour the delay ended at every such move, on the source CPU, as in newidle.txt.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init delay_migrate

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # MIGRATE_FLAGS
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R A 20
	golden_switch 0 1.000100 A 20 S swapper/0 0
	ev '<idle>' 0 0 d.h3. 1.000500 "sched_waking: comm=A pid=20 prio=120 target_cpu=000"
	ev '<idle>' 0 0 d.h3. 1.000500 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.000500 swapper/0 0 R A 20
	ev A 20 0 d..3. 1.001500 "sched_waking: comm=B pid=30 prio=120 target_cpu=000"
	ev A 20 0 d..3. 1.001500 "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.002500 A 20 S B 30
	ev '<idle>' 0 1 ..s1. 1.002990 "softirq_entry: vec=7 [action=SCHED]"
	ev '<idle>' 0 1 "$1" 1.003000 "sched_migrate_task: comm=A pid=20 prio=120 orig_cpu=0 dest_cpu=1"
	ev '<idle>' 0 1 dN.1. 1.003200 "cpu_idle: state=4294967295 cpu_id=1"
	ev '<idle>' 0 1 d..1. 1.003210 "cpu_idle: state=1 cpu_id=1"
	golden_switch 0 1.003500 B 30 S swapper/0 0
	ev '<idle>' 0 0 d.h3. 1.005100 "sched_waking: comm=B pid=30 prio=120 target_cpu=000"
	ev '<idle>' 0 0 d.h3. 1.005100 "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.005100 swapper/0 0 R B 30
	golden_switch 0 1.006000 B 30 S swapper/0 0
	ev '<idle>' 0 1 d.h3. 1.008000 "sched_waking: comm=A pid=20 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.h3. 1.008000 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=001"
	golden_switch 1 1.008000 swapper/1 0 R A 20
	golden_switch 1 1.008100 A 20 S swapper/1 0
}
trace d.s2. >"$tmp/moved.txt"
trace d..2. >"$tmp/newidle.txt"
sed '2,3d' "$tmp/moved.txt" >"$tmp/first.txt"
sed '2,3d' "$tmp/newidle.txt" >"$tmp/first-newidle.txt"
grep -v 'cpu_idle' "$tmp/moved.txt" >"$tmp/late.txt"

# delay_ends TRACE [RUN_ARG...]: A's delay_end rows of the task timeline, "CPU@TIME" each
# (the timeline's times count from the trace's first event, 1.000000)
delay_ends() {
	local t=$1
	shift
	"$bin" run "$t" --platform lab-2cpu --timing traced --set rq_clock_offset_ns=0 "$@" \
		--task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t $*: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 20 && $5 == "delay_end" { printf "%s%s@%s", s, $4, $1; s = " " }
		END { print "" }' "$tmp/tt.csv"
}
# the sleep at 1.002500 is delayed in every trace but first.txt (delay_dequeue.sh checks why)
golden_equal "moved.txt: A's sleep delayed" \
	"$(GOLDEN_SLEEP_N=2 golden_sleep_cols "$tmp/moved.txt" 20 --kernel v6.12)" "0/1"
golden_equal "first.txt: A's first sleep, its lag unknown, not delayed by the model" \
	"$(golden_sleep_cols "$tmp/first.txt" 20 --kernel v6.12)" "-500000/0"
for k in v6.12 v7.2; do
	golden_equal "$k, moved from the softirq: the delay ends on CPU 1 at its cpu_idle exit" \
		"$(delay_ends "$tmp/moved.txt" --kernel $k)" "1@0.003200"
	golden_equal "$k, moved by a newidle balance: the delay ends at the move" \
		"$(delay_ends "$tmp/newidle.txt" --kernel $k)" "0@0.003000"
done
golden_equal "first.txt: the move says the kernel had A delayed (its times from 1.000500)" \
	"$(delay_ends "$tmp/first.txt" --kernel v6.12)" "1@0.002700"
golden_equal "late.txt: no task-context event on CPU 1: at most 2 ms later" \
	"$(delay_ends "$tmp/late.txt" --kernel v6.12)" "1@0.005100"
# The lag A's wakeup on CPU 1 at 1.008000 finds (the timeline's wakeup row). After a newidle
# move the pick on CPU 1, where A is alone, dequeues it: 6.12's update_entity_lag() there gives
# V - v = 0 and DELAY_ZERO keeps it 0 whatever the model had stored (first-newidle.txt: the
# model stored -0.5 ms at A's first sleep, not delayed); 7.2 keeps a delayed entity's lag at
# or under what it had when it was delayed (-0.5 ms, delay_dequeue.sh), so the stored lag stands.
wake_lag() { # TRACE [RUN_ARG...]
	local t=$1
	shift
	"$bin" run "$t" --platform lab-2cpu --timing traced --set rq_clock_offset_ns=0 "$@" \
		--task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t $*: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 20 && $5 == "wakeup" { v = $9 } END { print v }' "$tmp/tt.csv"
}
golden_equal "v6.12, a newidle move of a task the model had not delayed: lag 0 after the pick" \
	"$(wake_lag "$tmp/first-newidle.txt" --kernel v6.12)" "0"
golden_equal "v7.2, the same: the lag it had" "$(wake_lag "$tmp/first-newidle.txt" --kernel v7.2)" "-500000"

# no delayed dequeue (v6.6; delay_dequeue=0): nothing is delayed, no delay ends
golden_equal "v6.6" "$(delay_ends "$tmp/moved.txt" --kernel v6.6)" ""
golden_equal "delay_dequeue=0" "$(delay_ends "$tmp/moved.txt" --kernel v6.12 --set delay_dequeue=0)" ""
exit $fail
