#!/bin/bash
# post_init_attach.sh - where a forked task's averages join its CPU's cfs_rq, by kernel profile:
# src/sched/fair.c post_init_entity_util_avg(), profile behaviour post_init_attach.
#
# The kernel (kernel/sched/fair.c): wake_up_new_task() computes the child's util in
# post_init_entity_util_avg() from the cfs_rq as its last update left it,
#   util = min(cfs util * w / (cfs load + 1), (1024 - cfs util) / 2).
# Up to v5.15 that function ends in attach_entity_cfs_rq(): the cfs_rq is aged to now, which
# kicks cpufreq when a PELT period ended, and the attach kicks it again. From v6.1 ('sched/fair:
# Move task sched_avg attach to enqueue_task_fair()'; Debian 6.1 fair.c l.829, l.4773) the
# attach is enqueue_entity()'s update_load_avg(DO_ATTACH), with one kick.
#
# By hand (lab-2cpu, rq clock = trace time; the replay's ticks on CPU 1 at 1.004, 1.008,
# 1.012; the trace has a blocked-load probe, so no load balancer model): old runs on CPU 1
# from 1.000000 and forks child there at 1.014500. tests/golden/lib/pelt_ref.py: the cfs_rq's
# util is 224 at its last update (the tick at 1.012) and 265 aged to 1.0145. A task alone and
# always running has load_avg == util_avg, so the child's util is the cap, (1024 - 224) / 2 =
# 400. schedutil reads the cfs util at the fork: v5.10 twice, 265 then 265 + 400 = 665;
# v6.1 and later once, 665.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init post_init_attach.sh

pelt() { /usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000000000:0 \
	1004000000:1 1008000000:1 1012000000:1 "$@"; }
u_last=$(pelt)
u_fork=$(pelt 1014500000:1)
[ "$u_last $u_fork" = "224 265" ] ||
	golden_fail "pelt_ref.py gives $u_last $u_fork, the comment above says 224 265"
child=$(((1024 - u_last) / 2))

{
	echo "# tracer: nop"
	printf '%16s-%-5s [%03d] ..s1. %12s: %s\n' "<idle>" 0 0 1.000000 \
		"update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x80) cpu=0"
	golden_switch 1 1.000000 swapper/1 0 R old 11
	golden_line old 11 1 1.014500 "sched_wakeup_new: comm=child pid=12 prio=120 target_cpu=001"
	golden_switch 1 1.020000 old 11 S child 12
	golden_switch 1 1.021000 child 12 S swapper/1 0
} >"$tmp/trace.txt"

evals() { # KERNEL: the cfs util schedutil read on CPU 1 at the fork
	golden_lab_timeline "$tmp/trace.txt" "$1" || return
	awk -F, 'NR > 1 && $2 == 1 && $1 == "0.014500" { printf "%s ", $4 }' "$tmp/tl.csv"
}
golden_equal "v5.10: aged (a kick), then attached (a kick)" "$(evals v5.10)" \
	"$u_fork $((u_fork + child)) "
for k in v6.1 v6.12 v7.2; do
	golden_equal "$k: attached at the enqueue (one kick)" "$(evals "$k")" "$((u_fork + child)) "
done
exit $fail
