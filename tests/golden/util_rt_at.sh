#!/bin/bash
# util_rt_at.sh - validate compares rq->avg_rt with the kernel's sched_pelt_rt as an update at
# the sample's time would leave it (src/sched/read.c sched_cpu_util_rt_at()), as it does the
# root cfs_rq's.
#
# The kernel (kernel/sched/rt.c, Debian 5.10 to 7.2): put_prev_task_rt() and
# set_next_task_rt() update rq->avg_rt at the switch (update_rt_rq_load_avg(), running = the
# previous task was RT), inside __schedule(), so the lab's sched_pelt_rt of a switch comes
# before its sched_switch; the tick's task_tick_rt() updates it too. The replay applies the
# switch at its sched_switch: at the sample it has not, and its avg_rt is as its last update
# left it.
#
# By hand (lab-2cpu, rq clock = trace time): rt (pid 21, prio 89: SCHED_FIFO) runs on CPU 0
# from 1.000000 and sleeps at 1.002600; the kernel's sample of its switch-out is dated 1.002500
# (the update, 100 us before the stamp), and one at 1.012000 decays the idle CPU's. The switch
# read the rq clock before that sample, its first PELT event (pelt_event_lead_us 0,
# pelt_event_lead.sh), so the run ends at 1.002500.
# tests/golden/lib/pelt_ref.py: 1000000000:0 1002500000:1 and ... 1002500000:1 1012000000:0.
# Read as their last updates left it, 0 (the switch-in) and 51 (the switch-out), the samples were
# off by 51 and 9.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init util_rt_at.sh

pelt() { /usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000000000:0 "$@"; }
u1=$(pelt 1002500000:1)
u2=$(pelt 1002500000:1 1012000000:0)
[ "$u1 $u2" = "51 42" ] || golden_fail "pelt_ref.py gives $u1 $u2, want 51 42"
{
	echo "# tracer: nop"
	golden_line "<idle>" 0 0 1.000000 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=rt next_pid=21 next_prio=89"
	golden_line rt 21 0 1.002500 "sched_pelt_rt: cpu=0 util=$u1 update_time=1002500000"
	golden_line rt 21 0 1.002600 "sched_switch: prev_comm=rt prev_pid=21 prev_prio=89 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	golden_line "<idle>" 0 0 1.012000 "sched_pelt_rt: cpu=0 util=$u2 update_time=1012000000"
	golden_line "<idle>" 0 1 1.013000 "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=x next_pid=30 next_prio=120"
} >"$tmp/trace.txt"
for k in v5.10 v6.1 v6.12 v7.2; do
	golden_lab_validate "$tmp/trace.txt" "$k" || continue
	golden_equal "$k: util_rt at the kernel's samples" \
		"$(grep "cpu util_rt" "$tmp/out.txt" | awk '{print $4, $5, $6, $7, $8}')" \
		"2 0.00 0 100.0% 100.0%"
done
exit $fail
