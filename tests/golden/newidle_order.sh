#!/bin/bash
# newidle_order.sh - a task that sleeps leaves its runqueue before the newidle balance that its
# CPU runs on the way to idle, though the trace shows the balance first. __schedule() reads the
# rq clock, dequeues the sleeping prev (deactivate_task), and only when no task is left to pick
# runs the newidle balance (pick_next_task_fair() -> sched_balance_newidle() ->
# update_blocked_averages(), whose cpufreq update reads the CPU without prev's util_est); the
# sched_switch is traced after the pick (kernel/sched/core.c, fair.c, Debian 5.10 to 6.12). The
# lab's kprobe event on update_blocked_averages in task context on its own CPU, followed on that
# CPU by the sched_switch of a sleeping prev (only schedutil's probes, cpu_frequency and PELT
# events between), is that balance: the replay applies prev's dequeue first, dated at the
# probe's stamp (the dequeue's clock is earlier still, and no later), and the switch where the
# trace has it (newidle_pull.sh: the tasks the balance pulls).
#
# A hand-made lab-2cpu trace under v6.12: busy (pid 30) wakes onto idle CPU 1 at 1.000100 and
# runs; the newidle probe is stamped 1.008500, its hook call (outside interrupts) reads rq clock
# 1.009900, and the sleep's sched_switch is stamped 1.010000. busy's util_avg at its sleep is
# tests/golden/lib/pelt_ref.py's for a task attached at the wakeup, updated at the replay's
# ticks (1.004000 and 1.008000: HZ 250, no tick traced) and running to:
#   the newidle order:                              1.008500 (the probe's stamp)
#   a softirq's update_blocked_averages instead:    1.009900 (not a newidle balance: the switch
#                                                   takes the hook call's clock, as before)
#   a preempted prev (R+):                          not a sleep: 1.009900, as before
#   a sched_waking of CPU 1 between:                other work: 1.010000 (the switch's stamp; the
#                                                   waking ends the hook call's claim too)
# A task switched out to die (Z) is dequeued before the balance too, but finish_task_switch()
# takes its util off the cfs_rq only after it (task_dead_fair()), so the balance's evaluation
# still reads its util (newidle_pull.sh: and not its util_est).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init newidle_order

trace() { # FLAGS_OF_THE_PROBE PREV_STATE [EXTRA_LINE_BEFORE_THE_SWITCH]
	echo "# tracer: nop"
	printf '%16s-%-5s [%03d] dNh2. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 1 1.000100
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	printf '%16s-%-5s [%03d] %s %12s: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1\n' \
		busy 30 1 "$1" 1.008500
	printf '%16s-%-5s [%03d] d..2. %12s: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=1009900000 flags=0\n' \
		busy 30 1 1.009990
	[ -z "${3:-}" ] || echo "$3"
	golden_switch 1 1.010000 busy 30 "$2" swapper/1 0
	golden_switch 1 1.020000 swapper/1 0 R busy 30
	golden_switch 1 1.030000 busy 30 S swapper/1 0
}
trace d..1. S >"$tmp/newidle.txt"
trace ..s1. S >"$tmp/softirq.txt"
trace d..1. R+ >"$tmp/preempted.txt"
trace d..1. S "$(printf '%16s-%-5s [%03d] d..3. %12s: sched_waking: comm=other pid=31 prio=120 target_cpu=000' busy 30 1 1.009995)" >"$tmp/waking.txt"
trace d..1. Z >"$tmp/dead.txt"

opts="--platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0
	--set freq_invariant=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0"
# the task timeline's first row of busy at a switch out (sleep, or preempt for R+)
util_at_switch() { # TRACE
	"$bin" run "$1" $opts --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $1: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && ($5 == "sleep" || $5 == "preempt") { print $6; exit }' \
		"$tmp/tt.csv"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

run="1000100000:0 1004000000:1 1008000000:1"
newidle=$(ref $run 1008500000:1)
hook=$(ref $run 1009900000:1)
stamp=$(ref $run 1010000000:1)
[ "$newidle" != "$hook" ] && [ "$hook" != "$stamp" ] ||
	golden_fail "the cases cannot tell the orders apart"

golden_equal "the newidle order" "$(util_at_switch "$tmp/newidle.txt")" "$newidle"
golden_equal "a softirq's blocked update" "$(util_at_switch "$tmp/softirq.txt")" "$hook"
golden_equal "a preempted prev" "$(util_at_switch "$tmp/preempted.txt")" "$hook"
golden_equal "a sched_waking between" "$(util_at_switch "$tmp/waking.txt")" "$stamp"

# The dying task: its util is still on CPU 1's cfs_rq at the balance's evaluation (1.008500,
# 0.008400 s into the trace; the timeline's util is v6.12's sugov_effective_cpu_perf(), the
# headroom util + util/4 in it): the task's, pelt_ref's at the probe -- 0 had it died there.
"$bin" run "$tmp/dead.txt" $opts --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
	golden_fail "run dead: $(cat "$tmp/err")"
golden_equal "the rows of the dead task's run" \
	"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "util") c = i }
		$1 == "0.008400" { print $c; exit }' "$tmp/tl.csv")" "$((newidle + newidle / 4))"
exit $fail
