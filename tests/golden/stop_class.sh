#!/bin/bash
# stop_class.sh - the per-CPU stopper thread, `migration/N`, is the stop class, not RT.
#
# The kernel creates it as "migration/%u" (kernel/stop_machine.c, cpu_stop_threads) and moves
# it into stop_sched_class with SCHED_FIFO priority MAX_RT_PRIO - 1 (sched_set_stop_task(),
# kernel/sched/core.c), so a trace shows it at prio 0, the same number as an RT task of
# priority 99. But it is no RT task: enqueue_task_stop() only counts it (no
# cpufreq_update_util(), unlike enqueue_top_rt_rq()), rt_rq_is_runnable() does not see it, it
# adds nothing to avg_rt, and task_tick_stop() does nothing (kernel/sched/stop_task.c, v4.19 to
# 7.2).
#
# By hand, on lab-2cpu (OPPs 800..3000 MHz, not frequency invariant) under v5.10, whose
# effective_cpu_util() returns the CPU's max when an RT task is runnable and uclamp is not used:
# `spin` runs on CPU 1 from a zero util for 30 ms at 800 MHz, preempted at 10 ms for 20 us by
# migration/1. schedutil scales the current frequency: the largest util spin reaches,
# 1024 (1 - 0.5^(30/32)) ~ 490, asks 1.25 x 800 MHz x 490 / 1024 = 479 MHz: 800 MHz all along.
# Were migration/1 RT, its enqueue would ask the max, util 1024, which without frequency
# invariance is 1.25 x 800 MHz = 1000 MHz: 1200 MHz, and on from there.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init stop_class.sh

trace() { # $1: the stopper's comm, $2 its prio
	echo "# tracer: nop"
	echo "          <idle>-0       [001] d..2.     0.999000: cpu_frequency: state=800000 cpu_id=1"
	echo "          <idle>-0       [001] dNh2.     1.000000: sched_waking: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] dNh2.     1.000001: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	for ms in 004 008; do
		echo "            spin-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "            spin-11      [001] d..4.     1.010000: sched_waking: comm=$1 pid=17 prio=$2 target_cpu=001"
	echo "            spin-11      [001] dN.5.     1.010001: sched_wakeup: comm=$1 pid=17 prio=$2 target_cpu=001"
	echo "            spin-11      [001] d..2.     1.010002: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=$1 next_pid=17 next_prio=$2"
	echo "     $1-17      [001] d..2.     1.010022: sched_switch: prev_comm=$1 prev_pid=17 prev_prio=$2 prev_state=S ==> next_comm=spin next_pid=11 next_prio=120"
	for ms in 012 016 020 024 028; do
		echo "            spin-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "            spin-11      [001] d..2.     1.030000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
}
args=(--platform lab-2cpu --kernel v5.10 --timing traced --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0)
# CPU 1's frequencies (kHz) over its evaluations, each distinct value once in order
freqs() {
	"$bin" run "$tmp/t.txt" "${args[@]}" --timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ echo "stop_class.sh: run failed: $(cat "$tmp/out.txt")" >&2; return; }
	awk -F, 'NR > 1 && $2 == 1 && $12 != last { printf "%s ", $12; last = $12 }' "$tmp/tl.csv"
}
trace migration/1 0 >"$tmp/t.txt"
got=$(freqs)
[ "$got" = "800000 " ] || golden_fail "with migration/1: frequencies '$got', want '800000 '"
# the control: an RT task of priority 99 under another name does ask the maximum
trace watchdog/1 0 >"$tmp/t.txt"
got=$(freqs)
case "$got" in
800000\ 1200000\ *) ;;
*) golden_fail "with the RT watchdog/1: frequencies '$got', want 800000 then 1200000" ;;
esac
exit $fail
