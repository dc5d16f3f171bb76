#!/bin/bash
# newidle_pull.sh - the tasks a newidle balance pulls arrive after prev left its runqueue, though
# the trace shows their sched_migrate_task first. __schedule() dequeues a prev that sleeps or
# dies (try_to_block_task() -> block_task()), its pick finds no runnable fair task and runs the
# newidle balance (sched_balance_newidle(): update_blocked_averages(), then sched_balance_rq()
# detaches tasks from a busier CPU and attaches them here, each traced as a migration to this
# CPU), and only after picking a pulled task traces sched_switch (kernel/sched/core.c and
# fair.c, Debian 5.10 to 7.2). The replay applies prev's dequeue at the lab's probe on
# update_blocked_averages (task context, own CPU), or without the probe at the first pull, and
# the switch where the trace has it.
#
# Hand-made lab-2cpu traces, rq_clock_offset_ns=0, nice-0 tasks, EEVDF's base slice 0.7 ms x
# (1 + ilog2(2 CPUs)) = 1.4 ms; vruntimes in ms of each CPU's runs:
#   1.000000 busy runs alone on CPU 1 for 0.1 ms and sleeps: eligible, it leaves with lag 0, so
#            the model knows its lag (a first sleep with the lag unknown is never delayed)
#   1.000500 hog runs on CPU 0 (v = 0), busy, woken, on CPU 1 (v = 0)
#   1.001500 pulled wakes on CPU 0 behind hog: placed at the average with no lag, v = 1.0
#   1.003000 CPU 1's newidle probe (with-probe traces), 1.003100 pulled migrates to CPU 1:
#            on CPU 0 v_hog = 2.6, the average 1.8, so pulled leaves with lag 0.8; on CPU 1 it
#            is placed with that lag inflated by (W + w) / W = 2: v = v_busy - 1.6 = 1.0
#   1.003200 busy sleeps (S) and pulled runs; 1.005000 pulled sleeps, CPU 1 goes idle
# The kernel's order: busy, alone on CPU 1 when it is dequeued, is at the average (its lag 0):
# eligible, it leaves at once; pulled, alone when it sleeps, leaves too. Had pulled been queued
# first (the trace's order), busy at v = 2.7 would sleep against the average 1.85: not
# eligible, delayed (v6.12 keeps its placement lag, 0; v7.2 updates it, 1.85 - 2.7 = -0.85 ms),
# and pulled after it too. The task timeline's columns at each sleep (vlag_ns/delayed; busy's
# second) say so.
# A wakeup that migrates its task to the waker's CPU is no pull: there the task is enqueued
# before the waker sleeps (sched_wakeup comes first), and busy, past the average with the
# woken task placed at it, is delayed.
#
# A task switched out to die leaves its runqueue before the balance too (a special state, never
# delayed): the balance's evaluation reads the CPU without its util_est, which an earlier sleep
# made non-zero, while its util stays until finish_task_switch() (task_dead_fair()).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init newidle_pull

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
pull_trace() { # probe|noprobe|wakeup
	echo "# tracer: nop"
	golden_switch 1 1.000000 swapper/1 0 R busy 30
	golden_switch 1 1.000100 busy 30 S swapper/1 0
	ev '<idle>' 0 1 d..3. 1.000500 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 0 1.000500 swapper/0 0 R hog 21
	golden_switch 1 1.000500 swapper/1 0 R busy 30
	if [ "$1" = wakeup ]; then
		ev busy 30 1 d..3. 1.003050 "sched_waking: comm=pulled pid=31 prio=120 target_cpu=000"
		ev busy 30 1 d..3. 1.003100 "sched_migrate_task: comm=pulled pid=31 prio=120 orig_cpu=0 dest_cpu=1"
		ev busy 30 1 d..3. 1.003150 "sched_wakeup: comm=pulled pid=31 prio=120 target_cpu=001"
	else
		ev hog 21 0 d..3. 1.001500 "sched_wakeup: comm=pulled pid=31 prio=120 target_cpu=000"
		[ "$1" = noprobe ] ||
			ev busy 30 1 d..1. 1.003000 "update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1"
		ev busy 30 1 d..2. 1.003100 "sched_migrate_task: comm=pulled pid=31 prio=120 orig_cpu=0 dest_cpu=1"
	fi
	golden_switch 1 1.003200 busy 30 S pulled 31
	golden_switch 1 1.005000 pulled 31 S swapper/1 0
	golden_switch 0 1.006000 hog 21 S swapper/0 0
}
pull_trace probe >"$tmp/probe.txt"
pull_trace noprobe >"$tmp/noprobe.txt"
pull_trace wakeup >"$tmp/wakeup.txt"

# sleep_cols TRACE PID KERNEL: vlag_ns/delayed of PID's first sleep (golden_sleep_cols); busy's
# second (its first is the cycle before the run)
sleep_cols() { golden_sleep_cols "$1" "$2" --kernel "$3"; }
busy_cols() { GOLDEN_SLEEP_N=2 golden_sleep_cols "$1" 30 --kernel "$2"; }
golden_equal "busy's first sleep, alone (v6.12)" "$(sleep_cols "$tmp/probe.txt" 30 v6.12)" "0/0"
golden_equal "busy leaves after the probe (v6.12)" "$(busy_cols "$tmp/probe.txt" v6.12)" "0/0"
golden_equal "pulled leaves alone (v6.12)" "$(sleep_cols "$tmp/probe.txt" 31 v6.12)" "0/0"
golden_equal "busy leaves at the pull without a probe (v7.2)" \
	"$(busy_cols "$tmp/noprobe.txt" v7.2)" "0/0"
golden_equal "busy leaves at the pull without a probe (v6.12)" \
	"$(busy_cols "$tmp/noprobe.txt" v6.12)" "0/0"
golden_equal "a wakeup's migration: busy delayed behind the woken task (v6.12)" \
	"$(busy_cols "$tmp/wakeup.txt" v6.12)" "0/1"

# The dying task (pid 30 on CPU 1): runs 1.000150-1.010000 and sleeps (its util_est becomes
# its util at its last update, the tick at 1.008000: > 0), wakes at 1.030000, runs, exits; the
# newidle probe at 1.031000, its switch (Z) at 1.031500. The timeline's evaluation at the probe
# (0.030900 s into the trace): util_est_cfs 0, and util_cfs still the task's util, as
# tests/golden/lib/pelt_ref.py has it for its runs (from each wakeup: an idle CPU's switch keeps
# the wakeup's clock) to the probe.
{
	echo "# tracer: nop"
	ev '<idle>' 0 1 dNh2. 1.000100 "sched_wakeup: comm=dying pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000150 swapper/1 0 R dying 30
	golden_switch 1 1.010000 dying 30 S swapper/1 0
	ev '<idle>' 0 1 dNh2. 1.030000 "sched_wakeup: comm=dying pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.030050 swapper/1 0 R dying 30
	ev dying 30 1 ..... 1.030800 "sched_process_exit: comm=dying pid=30 prio=120"
	ev dying 30 1 d..1. 1.031000 "update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1"
	golden_switch 1 1.031500 dying 30 Z swapper/1 0
	golden_switch 1 1.040000 swapper/1 0 R other 40
	golden_switch 1 1.041000 other 40 S swapper/1 0
} >"$tmp/dead.txt"
util=$(golden_pelt_ref 1000100000:0 1010000000:1 1030000000:0 1031000000:1)
golden_lab_timeline "$tmp/dead.txt" v6.12 --set freq_invariant=0 &&
	golden_equal "the balance's util_est and util, the dying task dequeued" \
		"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "util_est_cfs") e = i
				if ($i == "util_cfs") u = i } }
			$1 == "0.030900" { print $e "," $u; exit }' "$tmp/tl.csv")" "0,$util"
exit $fail
