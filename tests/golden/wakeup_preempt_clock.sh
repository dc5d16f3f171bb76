#!/bin/bash
# wakeup_preempt_clock.sh - a wakeup that marks the running task for preemption keeps the rq
# clock of the switch that follows at the wakeup's.
# wakeup_preempt() (check_preempt_curr() before v6.7) ends with
#   if (task_on_rq_queued(rq->curr) && test_tsk_need_resched(rq->curr)) rq_clock_skip_update(rq);
# (kernel/sched/core.c, Debian 5.10, 6.1, 6.12 and 7.2), and the next __schedule() then does not
# update the clock: the preempted task's put_prev_entity() PELT update is dated at the wakeup,
# and it waits from there. try_to_wake_up() traces sched_wakeup after that test, so the ftrace
# flags column of a sched_wakeup printed on the target CPU shows it: TIF_NEED_RESCHED is 'N'
# or 'n'; 'L', 'l' and 'p' are not it (trace_print_lat_fmt(), kernel/trace/trace_output.c,
# Debian 7.2); 'B' and 'b' (it and 7.2's lazy bit) are not taken (src/trace/text/text.c says
# why). A wakeup printed on another CPU shows that CPU's flags, which say nothing about the
# target.
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0: busy (pid 30) wakes onto idle
# CPU 1 at 1.000064 and runs from that clock (the idle task is preempted); at 1.004032 busy wakes
# other (pid 31) on CPU 1, which preempts it at 1.006080 (prev_state R); other sleeps at
# 1.008128, busy runs again and sleeps at 1.012096. Its util_avg at that sleep is
# tests/golden/lib/pelt_ref.py's for a task running from 1.000064 to its switch-out's clock,
# waiting to 1.008128 and running to 1.012096, with the model's ticks (HZ 250) at 1.004000 and
# 1.012000 where it runs:
#   flags dN.3. or dn.3. printed on CPU 1:                        switched out at 1.004032
#   flags db.3., dl.3. or d..3. on CPU 1, or dNs3. printed on CPU 0: at 1.006080
# Every time is a multiple of 1024 ns (128 us), so that the PELT clock's phase, which the
# second implementation starts at 0, cannot change its rounding.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init wakeup_preempt_clock

trace() { # FLAGS PRINTING_CPU: the wakeup of other at 1.004032
	local waker='busy' wpid=30
	[ "$2" = 1 ] || { waker='<idle>' wpid=0; }
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	printf '%16s-%-5s [001] dNh2. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 1.000064
	golden_switch 1 1.000192 swapper/1 0 R busy 30
	printf '%16s-%-5s [%03d] %s %12s: sched_wakeup: comm=other pid=31 prio=120 target_cpu=001\n' \
		"$waker" "$wpid" "$2" "$1" 1.004032
	golden_switch 1 1.006080 busy 30 R other 31
	golden_switch 1 1.008128 other 31 S busy 30
	golden_switch 1 1.012096 busy 30 S swapper/1 0
}

# util_avg of busy at its last sleep (the task timeline's last sleep row of pid 30)
util_at_sleep() { # FLAGS PRINTING_CPU
	trace "$1" "$2" >"$tmp/t.txt"
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0 --task-timeline "$tmp/tt.csv" \
		>/dev/null 2>"$tmp/err" || { golden_fail "run $1 on CPU $2: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { u = $6 } END { print u }' "$tmp/tt.csv"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

at_wakeup=$(ref 1000064000:0 1004000000:1 1004032000:1 1008128000:0 1012000000:1 1012096000:1)
at_switch=$(ref 1000064000:0 1004000000:1 1006080000:1 1008128000:0 1012000000:1 1012096000:1)
[ "$at_wakeup" != "$at_switch" ] || golden_fail "the cases cannot tell the clocks apart"
golden_equal "TIF_NEED_RESCHED on the target (N)" "$(util_at_sleep dN.3. 1)" "$at_wakeup"
golden_equal "TIF_NEED_RESCHED on the target (n)" "$(util_at_sleep dn.3. 1)" "$at_wakeup"
golden_equal "TIF_NEED_RESCHED and the lazy bit (b): not taken" "$(util_at_sleep db.3. 1)" "$at_switch"
golden_equal "the lazy bit alone (l)" "$(util_at_sleep dl.3. 1)" "$at_switch"
golden_equal "no resched (.)" "$(util_at_sleep d..3. 1)" "$at_switch"
golden_equal "a wakeup printed on another CPU" "$(util_at_sleep dNs3. 0)" "$at_switch"
exit $fail
