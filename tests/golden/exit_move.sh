#!/bin/bash
# exit_move.sh - sched_move_task() at exit (kernel/sched/autogroup.c sched_autogroup_exit_task,
# kernel/sched/core.c sched_move_task, kernel/sched/fair.c task_change_group_fair; v5.10 to
# Debian 7.2, CONFIG_SCHED_AUTOGROUP=y as Debian builds them): an exiting task is moved to its
# group while it still runs -- dequeued (DEQUEUE_SAVE|DEQUEUE_MOVE, not a sleep), detached from
# the cfs_rq (its util taken off: a cpufreq kick), attached back (a kick), enqueued.
#
# By hand: task 11 runs alone on CPU 1 from 1.000 (a fork: its util starts at half the spare
# capacity, 512, and is attached: the root cfs_rq's util_avg equals the task's at every update
# after, as both see the same running time on the same PELT clock). At its exit (1.030), with
# rate_limit_us=0 every kick evaluates: the dequeue's update (decayed: a period crossed since
# the tick at 1.028) sees util U; the detach sees util_avg - U = 0 and util_est without the
# task, 0 (util_est_dequeue came first); the attach sees U again. So three evaluations at
# 1.030 with utils U, 0, U, U > 512 (it ran 30 ms). Without the move (sched_autogroup=0, the
# default for a trace without lab facts): none at 1.030.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init exit_move.sh

{
	echo "# tracer: nop"
	echo "            init-1       [001] d..2.     1.000000: sched_wakeup_new: comm=init pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	for ms in 004 008 012 016 020 024 028; do
		echo "            spin-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "            spin-11      [001] .....     1.030000: sched_process_exit: comm=spin pid=11 prio=120"
	echo "            spin-11      [001] d..2.     1.030100: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120"
} >"$tmp/t.txt"
args=(--platform lab-2cpu --kernel v6.1 --timing traced --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0)
# the utils of CPU 1's evaluations at 1.030000 (the timeline's time is from the trace's start)
evals() {
	"$bin" run "$tmp/t.txt" "${args[@]}" "$@" --timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ echo "exit_move.sh: run $* failed: $(cat "$tmp/out.txt")" >&2; return; }
	awk -F, 'NR > 1 && $2 == 1 && $1 == "0.030000" && $11 != "" { printf "%s ", $10 }' "$tmp/tl.csv"
}
got=$(evals --set sched_autogroup=1)
read -r u1 u2 u3 rest <<<"$got"
if [ -n "${rest:-}" ] || [ -z "${u3:-}" ] || [ "$u2" != 0 ] || [ "$u1" != "$u3" ] || [ "$u1" -le 512 ]; then
	golden_fail "sched_autogroup=1: utils at the exit '$got', want 'U 0 U' with U > 512"
fi
got=$(evals --set sched_autogroup=0)
[ -z "$got" ] || golden_fail "sched_autogroup=0: evaluations at the exit '$got', want none"
got=$(evals)
[ -z "$got" ] || golden_fail "default: evaluations at the exit '$got', want none"
"$bin" run "$tmp/t.txt" "${args[@]}" --set sched_autogroup=2 >/dev/null 2>&1
[ $? = 2 ] || golden_fail "sched_autogroup=2 not refused with exit 2"
exit $fail
