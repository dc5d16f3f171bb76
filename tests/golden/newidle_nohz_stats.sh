#!/bin/bash
# newidle_nohz_stats.sh - up to v5.12 the newidle balance of a CPU on its way to idle also
# refreshes the blocked load of other idle CPUs, before __schedule() traces its sched_switch:
# load_balance() -> update_sd_lb_stats() with LBF_NOHZ_STATS -> update_nohz_stats() ->
# update_blocked_averages(other CPU), or, with no overloaded root domain,
# nohz_newidle_balance() -> _nohz_idle_balance(NOHZ_STATS_KICK) (kernel/sched/fair.c, Debian
# 5.10.223 l.8656-8699, l.10665-10817; v5.13 moved both to the idle task, after the switch).
# Each such refresh calls schedutil's hook of the other CPU's rq from this CPU, at that rq's
# clock. The lab's probes show it: update_blocked_averages cpu=0 traced on CPU 1, then a hook
# call there. That call is not an update of CPU 1's rq:
#   - the newidle balance goes on through it: the sleeping prev's dequeue still comes first,
#     at the clock of its own hook call (the call before the balance's probe);
#   - it claims no switch or wakeup of CPU 1: without a newidle probe of CPU 1 (the
#     nohz_newidle_balance() path), the switch takes its own dequeue's call, not the other
#     CPU's.
#
# A hand-made lab-2cpu trace under v5.10: busy (pid 30) wakes onto idle CPU 1 at 1.000100 and
# runs; its dequeue's hook call (task context) reads rq clock 1.009000; the sleep's
# sched_switch is stamped 1.010000. busy's util_avg at its sleep is
# tests/golden/lib/pelt_ref.py's for a task attached at the wakeup, updated at the replay's ticks
# (1.004000, 1.008000: HZ 250, none traced) and running to the dequeue's clock, 1.009000, in
# every case:
#   own balance, then another CPU's refresh   (probe cpu=1 at 1.009200, its call at 1.009250;
#                                              probe cpu=0 at 1.009400, its call at 1.009450)
#   another CPU's refresh only                (probe cpu=0 and its call)
#   own balance only                          (the case newidle_order.sh covers, as a control)
# Before this, the other CPU's probe ended the balance and its call, at 1.009450, dated the
# dequeue.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init newidle_nohz_stats

probe() { # TIME CPU_ARG
	printf '%16s-%-5s [%03d] d... %12s: update_blocked_averages: (update_blocked_averages+0x0/0x620) cpu=%s\n' \
		busy 30 1 "$1" "$2"
}
hook() { # TIME CLOCK_NS
	printf '%16s-%-5s [%03d] d... %12s: sugov_update_single: (sugov_update_single+0x0/0x1f0) time=%s flags=0\n' \
		busy 30 1 "$1" "$2"
}
trace() { # own|other|both
	echo "# tracer: nop"
	printf '%16s-%-5s [%03d] dNh. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 1 1.000100
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	hook 1.009100 1009000000
	case $1 in own | both) probe 1.009200 1 && hook 1.009300 1009250000 ;; esac
	case $1 in other | both) probe 1.009400 0 && hook 1.009500 1009450000 ;; esac
	golden_switch 1 1.010000 busy 30 S swapper/1 0
	golden_switch 1 1.020000 swapper/1 0 R busy 30
	golden_switch 1 1.030000 busy 30 S swapper/1 0
}
for k in own other both; do trace $k >"$tmp/$k.txt"; done

opts="--platform lab-2cpu --kernel v5.10 --timing traced --set rate_limit_us=0
	--set freq_invariant=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0"
util_at_sleep() { # TRACE
	"$bin" run "$1" $opts --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $1: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { print $6; exit }' "$tmp/tt.csv"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

run="1000100000:0 1004000000:1 1008000000:1"
dequeue=$(ref $run 1009000000:1)
other=$(ref $run 1009450000:1)
[ "$dequeue" != "$other" ] || golden_fail "the cases cannot tell the clocks apart"

golden_equal "own balance, then another CPU's refresh" "$(util_at_sleep "$tmp/both.txt")" "$dequeue"
golden_equal "another CPU's refresh only" "$(util_at_sleep "$tmp/other.txt")" "$dequeue"
golden_equal "own balance only" "$(util_at_sleep "$tmp/own.txt")" "$dequeue"
exit $fail
