#!/bin/bash
# idle_tick_clock.sh - a tick on an idle CPU updates its rq clock.
# sched_tick() starts with update_rq_clock(rq) whatever runs (kernel/sched/core.c, Debian 5.10 to
# 7.2); it only asks nothing of the idle class. That matters where a task was woken onto the
# idle CPU: the wakeup asked the next __schedule() to skip its clock update
# (rq_clock_skip_update()), so the switch-in's PELT update is dated at the last clock update,
# which is the tick's when the switch comes after it (a vCPU that stalls between the wakeup and
# the switch, as on the lab's TCG guests: lab-pelt/6.12/fork-exit at 13.952606 wakes
# rcu_preempt onto idle CPU 0, which switches to it only after its tick at 13.958809, and the
# kernel's sched_pelt_se then shows the task's util decayed, not grown: 95 -> 83).
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0: busy (pid 30) wakes onto idle
# CPU 1 at 1.000064, whose SCHED_SOFTIRQ refreshes its blocked averages at 1.000128 (a traced
# refresh: the replay runs none of its own, as at the lab's ticks, so only the tick can move
# the clock); CPU 1 takes its tick at 1.006080 and switches to busy at 1.006208; busy
# sleeps at 1.010112. Its util_avg at that sleep is tests/golden/lib/pelt_ref.py's for a task
# waiting from 1.000064 to the tick's clock and running from there (the traced tick is the
# first, so the replay's own tick grid stops; every time is a multiple of 1024 ns).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init idle_tick_clock

{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	printf '%16s-%-5s [001] dNh2. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 1.000064
	printf '%16s-%-5s [001] .Ns1. %12s: softirq_entry: vec=7 [action=SCHED]\n' '<idle>' 0 1.000128
	printf '%16s-%-5s [001] .Ns1. %12s: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1\n' \
		'<idle>' 0 1.000128
	printf '%16s-%-5s [001] dNh1. %12s: hrtimer_expire_entry: hrtimer=00000000a25321d3 function=tick_nohz_handler now=1006080000\n' \
		'<idle>' 0 1.006080
	golden_switch 1 1.006208 swapper/1 0 R busy 30
	golden_switch 1 1.010112 busy 30 S swapper/1 0
} >"$tmp/t.txt"

"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0 \
	--set rq_clock_offset_ns=0 --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
	golden_fail "run: $(cat "$tmp/err")"
got=$(awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { u = $6 } END { print u }' "$tmp/tt.csv")
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
at_tick=$(ref 1000064000:0 1006080000:0 1010112000:1)
at_refresh=$(ref 1000064000:0 1000128000:0 1010112000:1)
[ "$at_tick" != "$at_refresh" ] || golden_fail "the case cannot tell the clocks apart"
golden_equal "busy's util at its sleep" "$got" "$at_tick"
exit $fail
