#!/bin/bash
# idle_ends_hook_claim.sh - a schedutil hook call that a CPU made before it went idle does not
# date a later wakeup onto that CPU. The lab's probe on the hook (time=, the rq clock) gives
# the clock of the enqueue it ran in; the replay dates a sched_wakeup by the last hook call of
# its target CPU (src/sim/kernel_points.c). A CPU that enters or leaves idle (cpu_idle) has
# finished that work: a wakeup after it is enqueued at a clock read later (try_to_wake_up() or
# the wakeup IPI's sched_ttwu_pending() calls update_rq_clock(), kernel/sched/core.c, Debian
# 5.10 to 7.2), so the replay takes the wakeup's stamp.
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0: an interrupt on CPU 1 calls
# the hook at rq clock 1.000050 s (stamp 1.000100), then CPU 1 idles (1.000200); busy (pid 30)
# wakes onto it at 1.000400, in an interrupt, runs from 1.000450 (from idle: __schedule() skips its clock
# update, so busy runs from the wakeup's clock) and sleeps at 1.010000 (its dequeue ends a PELT
# period and calls the hook, at rq clock 1.010000). Its util_avg at that
# sleep is tests/golden/lib/pelt_ref.py's for a task attached at 1.000400 and running to
# 1.010000; dated by the hook call, it would be attached at 1.000050. Without the idle entry
# between, the hook call dates the wakeup (the same trace less that line): 1.000050. (Both are
# in hard interrupts: a call outside one never dates a wakeup traced in one,
# tests/golden/wakeup_irq_clock.sh.)
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init idle_ends_hook_claim

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # WITH_IDLE
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	ev '<idle>' 0 1 d.h2. 1.000100 \
		"sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=1000050000 flags=0"
	[ "$1" = 1 ] && ev '<idle>' 0 1 d..1. 1.000200 "cpu_idle: state=1 cpu_id=1"
	ev '<idle>' 0 1 dNh2. 1.000400 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000450 swapper/1 0 R busy 30
	golden_hook busy 30 1 d..2. 1.010000 1010000000
	golden_switch 1 1.010000 busy 30 S swapper/1 0
}
trace 1 >"$tmp/idle.txt"
trace 0 >"$tmp/claim.txt"

util_at_sleep() { # TRACE
	golden_util_at_sleep "$1" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0
}
ref() { golden_pelt_ref "$@"; }

at_wakeup=$(ref 1000400000:0 1010000000:1)
at_hook=$(ref 1000050000:0 1010000000:1)
[ "$at_wakeup" != "$at_hook" ] || golden_fail "the cases cannot tell the clocks apart"
golden_equal "a hook call before the idle entry" "$(util_at_sleep "$tmp/idle.txt")" "$at_wakeup"
golden_equal "a hook call that claims the wakeup" "$(util_at_sleep "$tmp/claim.txt")" "$at_hook"
exit $fail
