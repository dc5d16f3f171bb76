#!/bin/bash
# slice_end_clock.sh - a schedutil hook call that a running task's own update made outside
# __schedule() does not date the switch that preempts it later. The replay dates a switch by
# the last hook call of its CPU (the lab's probe, time= the rq clock; src/sim/kernel_points.c).
# On v6.6 to v6.12 any update of the running task's cfs_rq runs update_curr(), which asks for a
# reschedule when the task's slice has ended (resched_curr(): TIF_NEED_RESCHED, traced 'N';
# Debian 6.12 kernel/sched/fair.c update_curr l.1271-1272). A task's sched_setaffinity()
# dequeues and enqueues it (__do_set_cpus_allowed(), kernel/sched/core.c): its hook call is the
# first event since the task was switched in to show 'N', and the task is switched out only at
# its next preemption point, with a clock read there (__schedule() -> update_rq_clock()). From
# v6.13 update_curr() asks lazily (resched_curr_lazy(): 'l', 7.2 fair.c l.2226-2227), so a
# first 'N' there says nothing of the slice, and the call keeps its claim.
#
# A hand-made lab-2cpu trace, rq_clock_offset_ns=0: busy (pid 30) wakes onto idle CPU 1 at
# 1.000000 and runs (from idle: __schedule() skips its clock update); kw (pid 20) wakes onto
# CPU 1 at 1.002000 (busy's own wakeup of it, no 'N'; an RT kw is woken from CPU 0); busy's
# update at rq clock 1.002450 calls the hook (stamp 1.002500, flags dN.2.); busy is switched
# out for kw at 1.003400 (still runnable, and before the end of the PELT period that update
# began, 1.003487232: no period ends in that __schedule(), which calls no hook); kw sleeps at
# 1.004500 and busy runs to its sleep at 1.010000 (its dequeue's hook call at rq clock
# 1.010000). busy's util_avg at that sleep is tests/golden/lib/pelt_ref.py's for its updates,
# the kernel's: attached at 1.000000, running to 1.002450 (the setaffinity update) and to
# 1.003400 (put_prev_entity() at the switch's clock), queued to 1.004500, running to 1.010000.
# Dated by the hook call, the run would end at 1.002450.
# Under v6.12 the call keeps its claim where the switch follows within 40 us, where the call
# shows no 'N' or an earlier event did, and where the next task is an RT one (its wakeup
# preempted busy and asked the switch to skip its clock update: the clock stays the call's).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init slice_end_clock

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # HOOK_FLAGS SWITCH_TIME KW_WAKE_FLAGS KW_PRIO KW_WAKER_CPU [TICK_HOOK_FLAGS]
	echo "# tracer: nop"
	golden_switch 0 0.999000 swapper/0 0 R boot 10
	golden_switch 0 0.999010 boot 10 S swapper/0 0
	ev '<idle>' 0 1 dNh2. 1.000000 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000050 swapper/1 0 R busy 30
	if [ "$5" = 1 ]; then
		ev busy 30 1 "$3" 1.002000 "sched_wakeup: comm=kw pid=20 prio=$4 target_cpu=001"
	else
		ev '<idle>' 0 0 "$3" 1.002000 "sched_wakeup: comm=kw pid=20 prio=$4 target_cpu=001"
	fi
	[ -n "${6:-}" ] && golden_hook busy 30 1 "$6" 1.002200 1002200000
	golden_hook busy 30 1 "$1" 1.002500 1002450000
	ev busy 30 1 d..2. "$2" "sched_switch: prev_comm=busy prev_pid=30 prev_prio=120 \
prev_state=R ==> next_comm=kw next_pid=20 next_prio=$4"
	ev kw 20 1 d..2. 1.004500 "sched_switch: prev_comm=kw prev_pid=20 prev_prio=$4 \
prev_state=S ==> next_comm=busy next_pid=30 next_prio=120"
	golden_hook busy 30 1 d..2. 1.010000 1010000000
	golden_switch 1 1.010000 busy 30 S swapper/1 0
}
trace dN.2. 1.003400 d..3. 120 1 >"$tmp/slice.txt"
trace dN.2. 1.002520 d..3. 120 1 >"$tmp/near.txt"
trace d..2. 1.003400 d..3. 120 1 >"$tmp/no_resched.txt"
trace dN.2. 1.003400 d..3. 120 1 dNh2. >"$tmp/shown_before.txt"
trace dN.2. 1.003400 d.h3. 50 0 >"$tmp/rt_next.txt"

util_at_sleep() { # TRACE KERNEL
	golden_util_at_sleep "$1" --platform lab-2cpu --kernel "$2" --timing traced \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0
}
ref() { golden_pelt_ref "$@"; }

at_switch=$(ref 1000000000:0 1002450000:1 1003400000:1 1004500000:0 1010000000:1)
at_hook=$(ref 1000000000:0 1002450000:1 1004500000:0 1010000000:1)
[ "$at_switch" != "$at_hook" ] || golden_fail "the cases cannot tell the clocks apart"
golden_equal "v6.12: the slice end's call, 900 us before the switch" \
	"$(util_at_sleep "$tmp/slice.txt" v6.12)" "$at_switch"
golden_equal "v7.2 (a lazy slice end): the call claims the switch" \
	"$(util_at_sleep "$tmp/slice.txt" v7.2)" "$at_hook"
golden_equal "v6.12: the switch 20 us after the call" "$(util_at_sleep "$tmp/near.txt" v6.12)" \
	"$at_hook"
golden_equal "v6.12: the call shows no need-resched" \
	"$(util_at_sleep "$tmp/no_resched.txt" v6.12)" "$at_hook"
golden_equal "v6.12: an earlier call (a tick's, in its interrupt) showed need-resched" \
	"$(util_at_sleep "$tmp/shown_before.txt" v6.12)" "$at_hook"
golden_equal "v6.12: the next task is an RT one" "$(util_at_sleep "$tmp/rt_next.txt" v6.12)" \
	"$at_hook"
exit $fail
