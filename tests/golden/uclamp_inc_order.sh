#!/bin/bash
# uclamp_inc_order.sh - where enqueue_task() counts a waking task's clamps in its rq
# (kernel/sched/core.c): uclamp_rq_inc() before the class's enqueue_task() from v5.3 (Debian 6.1
# l.2059) and again in 7.2 (l.2183-2195, uclamp_rq_inc(rq, p, flags)), after it in 6.12
# (l.2019-2031: ENQUEUE_DELAYED's requeue must clear sched_delayed before uclamp looks). The
# class's enqueue is where a waking CFS task's PELT update kicks schedutil
# (enqueue_entity() -> update_load_avg() -> cfs_rq_util_change()), so under 6.12 that
# evaluation reads the rq's clamps without the waking task's.
#
# A hand-made lab-2cpu trace (rate limit 0): task T, uclamp_min 1024 from its first event, runs
# 100 us on CPU 1 at 1.000100 and wakes there again at 1.010000 (the wakeup runs on CPU 1, as
# acpi-cpufreq wants; its cfs_rq has decayed since 1.000200, so the enqueue's update kicks
# schedutil). The evaluation at that wakeup: v6.1 and v7.2 see the rq's uclamp_min 1024 and
# keep the policy at its maximum, 3 GHz; v6.12 sees 0 and asks for the util alone, a few units,
# so the policy drops to its lowest P-state, 800 MHz.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init uclamp_inc_order

golden_wakes_twice >"$tmp/t.txt"

at_wakeup() { # KERNEL: "uclamp_min freq_khz" of CPU 1's evaluation at the second wakeup
	golden_lab_timeline "$tmp/t.txt" "$1" --action 'setattr comm=T uclamp_min=1024' || return
	awk -F, 'NR > 1 && $2 == 1 && $1 == "0.010000" { print $8, $12; exit }' "$tmp/tl.csv"
}
golden_equal "v6.1: the clamp counted before the enqueue's update" "$(at_wakeup v6.1)" \
	"1024 3000000"
golden_equal "v7.2: the same" "$(at_wakeup v7.2)" "1024 3000000"
golden_equal "v6.12: the enqueue's update without the clamp" "$(at_wakeup v6.12)" "0 800000"
exit $fail
