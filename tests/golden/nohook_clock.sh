#!/bin/bash
# nohook_clock.sh - a switch whose __schedule() called no hook came before the root cfs_rq's next
# PELT period boundary (src/sched/clock.c clock_before_boundary(), sim/kernel_points.c).
#
# The kernel (kernel/sched/fair.c update_load_avg(), Debian 5.10 to 7.2): the updates of a
# running fair task at a switch (its dequeue, put_prev_entity()) call cpufreq_update_util()
# exactly where update_cfs_rq_load_avg() ends a PELT period of the root cfs_rq. Where the trace
# shows schedutil's hook calls (the lab's probe), a switch with no call of its own ended no
# period since the cfs_rq's last update (the replay's, or the CPU's last hook call): its clock was
# before the end of that period.
#
# By hand (lab-2cpu, v6.1, rq clock = trace time: PELT periods end at multiples of 2^20 ns;
# switch_clock_lead_us=50): A (pid 20) wakes on the idle CPU 0 from an interrupt, whose hook call
# at 1.000005 gives the wakeup's clock; the switch from idle keeps it. The root cfs_rq's first
# update is that enqueue (last_update_time 0 before), so its next period ends at 954 x 2^20 =
# 1000341504 ns. A sleeps at 1.000420 with no hook call: its stamp less the lead, 1.000370, is
# past the boundary, so the clock is 1 us before it, 1000340480, where A's util is still 0
# (tests/golden/lib/pelt_ref.py 1000005000:0 1000340480:1), and no evaluation is made. Without
# the probe in the trace (the same trace less its hook call) nothing says so: the wakeup keeps
# its stamp, the sleep is dated at 1.000370, a period ends, schedutil evaluates and A's util is
# 7 (pelt_ref.py 1000000000:0 1000370000:1). With a hook call in an interrupt on CPU 0 at rq
# clock 1.000345 (an update the replay does not make, past the boundary), the period that
# update is in ends at 1001390080 ns: the sleep keeps its clock and A's util is 7 again
# (pelt_ref.py 1000005000:0 1000370000:1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init nohook_clock

pelt() { golden_pelt_ref "$@"; }
[ "$(pelt 1000005000:0 1000340480:1) $(pelt 1000000000:0 1000370000:1)" = "0 7" ] &&
	[ "$(pelt 1000005000:0 1000370000:1)" = 7 ] || golden_fail "pelt_ref.py does not give 0, 7, 7"

hook() { # CPU FLAGS TIME RQ_CLOCK_NS
	golden_hook "<idle>" 0 "$1" "$2" "$3" "$4"
}
trace() { # WITH_HOOK [IRQ_HOOK]
	echo "# tracer: nop"
	golden_line "<idle>" 0 0 1.000000 "sched_waking: comm=A pid=20 prio=120 target_cpu=000"
	[ "$1" = 1 ] && hook 0 d.h4. 1.000005 1000005000
	golden_line "<idle>" 0 0 1.000010 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.000020 swapper/0 0 R A 20
	[ -z "${2:-}" ] || hook 0 d.h1. 1.000346 1000345000
	golden_switch 0 1.000420 A 20 S swapper/0 0
	golden_switch 1 1.001000 swapper/1 0 R B 30
}
# CASE WITH_HOOK IRQ_HOOK EVALUATIONS UTIL: the evaluations on CPU 0 after the wakeup's, and
# A's util at its sleep
evals_and_util() {
	trace "$2" "$3" >"$tmp/t.txt"
	golden_lab_timeline "$tmp/t.txt" v6.1 --set switch_clock_lead_us=50 \
		--task-timeline "$tmp/tt.csv" || return
	golden_equal "$1: evaluations at the sleep" \
		"$(awk -F, 'NR > 1 && $2 == 0 && $1 > 0.0001' "$tmp/tl.csv" | wc -l)" "$4"
	golden_equal "$1: A's util at its sleep" \
		"$(awk -F, '$2 == 20 && $5 == "sleep" { print $6 }' "$tmp/tt.csv")" "$5"
}
evals_and_util "hook calls traced" 1 "" 0 0
evals_and_util "no hook calls traced" 0 "" 1 7
evals_and_util "a hook call in an interrupt during the run" 1 irq 1 7
exit $fail
