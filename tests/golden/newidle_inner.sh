#!/bin/bash
# newidle_inner.sh - where the trace shows the kernel's blocked-load refreshes through a probe of
# update_blocked_averages(), a 7.2 kernel's newidle balance refreshes without calling it, and
# the replay runs that refresh itself: src/sim/balance.c, profile behaviour newidle_blocked.
#
# The kernel: sched_balance_newidle() (kernel/sched/fair.c) refreshes the CPU going idle when
# the root domain is overloaded. Debian 6.12 calls sched_balance_update_blocked_averages(),
# which the lab's probe sees (and the replay then follows the probe alone); Debian 7.2 calls
# __sched_balance_update_blocked_averages() at the rq clock __schedule() read, which the probe
# does not see. It decays the rt, dl and cfs averages (__update_blocked_others(),
# __update_blocked_fair()) and calls cpufreq_update_util() when one decayed.
#
# By hand (lab-2cpu, rq clock = trace time): the RT task rtt runs on CPU 0 from 1.000000 to
# 1.004000 while the CFS task spin waits (CPU 0 has two runnable: rd->overload is set); spin
# runs from 1.004000 and sleeps at 1.010000. rq->avg_rt is updated when rtt is switched in
# and out (set_next_task_rt(), put_prev_task_rt()) and by nothing else before 1.010
# (tests/golden/lib/pelt_ref.py): its util_avg is 81 from 1.004000 and, decayed to 1.010000,
# 71. At spin's dequeue the cfs_rq decays and schedutil reads the rt average of 1.004000 (81);
# under v7.2 the newidle refresh then decays it and schedutil reads 71; under v6.12 the refresh
# would be the probe's, and the trace shows none there, so schedutil evaluates once.
# 7.2's refresh runs at the clock __schedule() read for the switch (no update_rq_clock() on
# that path): where spin's sleep shows its own hook call at rq clock 1.008000 (stamped 1.009990),
# the dequeue and the refresh are both at 1.008000, and the refresh reads the rt average
# decayed to 1.008000, 74 (pelt_ref.py), not to the switch's stamp.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init newidle_inner.sh

pelt() { /usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
rt_out=$(pelt 1000000000:0 1004000000:1)
rt_idle=$(pelt 1000000000:0 1004000000:1 1010000000:0)
rt_hook=$(pelt 1000000000:0 1004000000:1 1008000000:0)
[ "$rt_out $rt_idle $rt_hook" = "81 71 74" ] ||
	golden_fail "pelt_ref.py gives $rt_out $rt_idle $rt_hook, the comment above says 81 71 74"

trace() { # SLEEP_HOOK
	echo "# tracer: nop"
	golden_tick "<idle>" 0 1 1.000000
	printf '%16s-%-5s [%03d] ..s1. %12s: %s\n' "<idle>" 0 1 1.000000 \
		"update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x80) cpu=1"
	golden_line "<idle>" 0 0 1.000000 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 $(
		)prev_state=R ==> next_comm=rtt next_pid=10 next_prio=89"
	golden_line rtt 10 0 1.000001 "sched_waking: comm=spin pid=11 prio=120 target_cpu=000"
	golden_line rtt 10 0 1.000002 "sched_wakeup: comm=spin pid=11 prio=120 target_cpu=000"
	golden_line rtt 10 0 1.004000 "sched_switch: prev_comm=rtt prev_pid=10 prev_prio=89 $(
		)prev_state=S ==> next_comm=spin next_pid=11 next_prio=120"
	[ "$1" = 1 ] && golden_hook spin 11 0 d..2. 1.009990 1008000000
	golden_switch 0 1.010000 spin 11 S swapper/0 0
	golden_tick "<idle>" 0 1 1.020000
}
trace 0 >"$tmp/trace.txt"
trace 1 >"$tmp/hook.txt"

rows() { # KERNEL TRACE TIME: CPU 0's evaluations at TIME (s into the trace), "util_rt ..."
	golden_lab_timeline "$2" "$1" || return
	awk -F, -v t="$3" 'NR > 1 && $2 == 0 && $1 == t { printf "%s ", $6 }' "$tmp/tl.csv"
}
golden_equal "v7.2: the dequeue's evaluation, then the newidle refresh's" \
	"$(rows v7.2 "$tmp/trace.txt" 0.010000)" "$rt_out $rt_idle "
golden_equal "v6.12: the dequeue's evaluation alone (the probe shows the refresh)" \
	"$(rows v6.12 "$tmp/trace.txt" 0.010000)" "$rt_out "
golden_equal "v7.2, the sleep's hook call: both at its clock" \
	"$(rows v7.2 "$tmp/hook.txt" 0.008000)" "$rt_out $rt_hook "
golden_equal "v7.2, the sleep's hook call: nothing at the stamp" \
	"$(rows v7.2 "$tmp/hook.txt" 0.010000)" ""
exit $fail
