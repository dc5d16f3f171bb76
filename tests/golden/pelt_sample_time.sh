#!/bin/bash
# pelt_sample_time.sh - validate compares a PELT sample of the kernel with the emulated signal
# at the sample's own update (its update_time, plus the CPU's rq_clock_offset_ns), not at the
# stamp of its print (src/sim/validate.c validate_sample()).
#
# The kernel: the lab's pelt_tp module prints sched_pelt_cfs and sched_pelt_se from the PELT
# tracepoints inside ___update_load_avg()'s caller (kernel/sched/pelt.c
# __update_load_avg_cfs_rq(), __update_load_avg_se(), Debian 5.10 to 7.2), with the
# last_update_time the update reached; under QEMU's TCG the line is stamped tens to hundreds of
# microseconds later, and a PELT period of the signal can end between.
#
# By hand (lab-2cpu, rq clock = trace time: PELT periods end at multiples of 2^20 ns): F (pid
# 20) wakes on the idle CPU 0 at 1.000000 and runs. The kernel's samples of F and of the root
# cfs_rq carry update_time 1.001300000 and are stamped 1.001500; a period ends at 1.001390080
# between. tests/golden/lib/pelt_ref.py gives 27 at 1.001300 (1000000000:0 1001300000:1), and
# 31 at the stamp (1000000000:0 1001500000:1): read at the stamp, every sample was off by 4.
# The load and runnable averages of one running nice-0 task equal its util here.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init pelt_sample_time

at_update=$(golden_pelt_ref 1000000000:0 1001300000:1)
at_stamp=$(golden_pelt_ref 1000000000:0 1001500000:1)
[ "$at_update $at_stamp" = "27 31" ] ||
	golden_fail "pelt_ref.py gives $at_update $at_stamp, want 27 31"
avg="load=$at_update rbl_load=$at_update util=$at_update update_time=1001300000"
{
	echo "# tracer: nop"
	golden_line "<idle>" 0 0 1.000000 "sched_wakeup: comm=F pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.000000 swapper/0 0 R F 20
	golden_line F 20 0 1.001500 "sched_pelt_se: cpu=0 path=(null) comm=F pid=20 $avg"
	golden_line F 20 0 1.001500 "sched_pelt_cfs: cpu=0 path=/ $avg"
	golden_switch 0 1.003000 F 20 S swapper/0 0
	golden_switch 1 1.004000 swapper/1 0 R x 30
} >"$tmp/trace.txt"
for k in v5.10 v6.1 v6.12 v7.2; do
	golden_lab_validate "$tmp/trace.txt" "$k" || continue
	golden_equal "$k: the root cfs_rq's and F's samples, exact" \
		"$(grep -E "root cfs_rq|task util_avg" "$tmp/out.txt" |
			awk '{print $(NF-4), $(NF-3), $(NF-1)}' | sort | uniq -c | awk '{$1=$1; print}')" \
		"4 1 0.00 100.0%"
done
exit $fail
