#!/bin/bash
# wakeup_irq_clock.sh - a wakeup traced in a hard interrupt read the rq clock there: a hook call
# of its CPU made outside hard interrupts does not date its enqueue. The replay dates a wakeup by
# the last hook call of its target CPU (the lab's probe, time= the rq clock;
# src/sim/kernel_points.c), which is right where the enqueue's own update called the hook. A
# wakeup onto an idle CPU of the same cache goes through that CPU's wakelist from v6.0: its
# wakeup IPI runs sched_ttwu_pending(), which reads the clock (update_rq_clock(); Debian 6.12
# kernel/sched/core.c l.3783, an interrupt's own ttwu_queue() l.3967; 5.10 l.2591 / l.2721) and
# enqueues, and whose enqueue calls no hook unless a PELT period ended since the CPU's last
# update. The trace shows it as a sched_wakeup with the hardirq flag ('H' inside a softirq).
#
# A hand-made lab-2cpu trace, rq_clock_offset_ns=0, v6.12: t (pid 30) wakes on idle CPU 1 at
# 1.000000, runs to its sleep at 1.002000; at 1.020000 CPU 1's SCHED_SOFTIRQ refreshes its
# blocked load (the probe, and a hook call at rq clock 1.020015); CPU 0 wakes t at 1.020030, and
# CPU 1 traces its sched_wakeup at 1.020200 in the IPI, inside that softirq (dNH2.); t runs from
# idle (__schedule() skips its clock update: the run counts from the enqueue's clock) to its
# sleep at 1.023000 (that dequeue's hook call at rq clock 1.023000). t's util_avg at that sleep
# is tests/golden/lib/pelt_ref.py's for its updates, the enqueue at the wakeup's stamp; dated by
# the softirq's call, the run would start 185 us earlier. Where the call was made in a hard
# interrupt too (d.h2., the wakeup dNh2.), or the wakeup in the softirq itself (dNs2.), the call
# can be the enqueue's and keeps its claim.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init wakeup_irq_clock

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # HOOK_FLAGS WAKEUP_FLAGS
	echo "# tracer: nop"
	ev '<idle>' 0 1 dNh2. 1.000000 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000050 swapper/1 0 R t 30
	golden_switch 1 1.002000 t 30 S swapper/1 0
	ev '<idle>' 0 1 ..s1. 1.020000 "softirq_entry: vec=7 [action=SCHED]"
	ev '<idle>' 0 1 ..s1. 1.020010 \
		"update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1"
	golden_hook '<idle>' 0 1 "$1" 1.020020 1020015000
	ev '<idle>' 0 0 d.s3. 1.020030 "sched_waking: comm=t pid=30 prio=120 target_cpu=001"
	ev '<idle>' 0 1 "$2" 1.020200 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.020250 swapper/1 0 R t 30
	golden_hook t 30 1 d..2. 1.023000 1023000000
	golden_switch 1 1.023000 t 30 S swapper/1 0
}
trace d.s2. dNH2. >"$tmp/ipi.txt"
trace d.h2. dNh2. >"$tmp/hard.txt"
trace d.s2. dNs2. >"$tmp/soft.txt"

# util_at_sleep TRACE: t's util_avg at its second sleep
util_at_sleep() {
	golden_util_at_sleep "$1" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0 | sed -n 2p
}
ref() { golden_pelt_ref "$@"; }

own=$(ref 1000000000:0 1002000000:1 1020200000:0 1023000000:1)
hook=$(ref 1000000000:0 1002000000:1 1020015000:0 1023000000:1)
[ "$own" != "$hook" ] || golden_fail "the cases cannot tell the clocks apart"
golden_equal "the wakeup IPI inside the softirq: its own clock" \
	"$(util_at_sleep "$tmp/ipi.txt")" "$own"
golden_equal "a hard interrupt's call, then its wakeup: the call's clock" \
	"$(util_at_sleep "$tmp/hard.txt")" "$hook"
golden_equal "the softirq's call, then its own wakeup: the call's clock" \
	"$(util_at_sleep "$tmp/soft.txt")" "$hook"
exit $fail
