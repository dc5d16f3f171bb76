#!/bin/bash
# ticks.sh - the kernel's own tick (hrtimer_expire_entry of tick_sched_timer, which the lab
# traces) replaces the replay's tick grid in traced timing (src/sim/sim.c feed_tick).
#
# A hand-made trace: one task runs on CPU 0 from 1.000000 to 1.030000 s; the kernel's ticks on
# CPU 0 fall at 1.0013 + k * 4 ms (k = 0..6; tick_sched_timer, then v6.9's tick_nohz_handler),
# off the grid of 4-ms multiples; another hrtimer
# (hrtimer_wakeup) fires at 1.0100. With rate_limit_us=0 every tick of the busy CPU is a governor
# evaluation (task_tick_fair -> update_load_avg -> cpufreq_update_util), so the evaluations of
# CPU 0 between the switch-in and the switch-out are exactly at the traced tick times, never at
# 1.004, 1.008, ... (the grid), and not at 1.0100. Nor at 1.024, where the replay's 32-ms
# refresh would fall: with the kernel's ticks the load balancer's updates replace it
# (src/sim/balance.c), and the busy CPU's own fall on its ticks (rq->next_balance passed at the
# tick of 1.0053, then lab-2cpu's one-CPU domain is due 2 ms x 16 = 32 ms -> 8 jiffies - 1 = 28 ms
# after its last balance at the start, 1.028, which no tick reaches). Without the hrtimer lines
# the same trace is evaluated on the grid, refresh included. Expected times are written here by
# hand.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init ticks.sh

{
	echo "# tracer: nop"
	echo "          <idle>-0       [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120"
	for k in 0 1 2 3 4 5 6; do
		t=$(awk -v k=$k 'BEGIN { printf "%.6f", 1.0013 + k * 0.004 }')
		# the tick's handler: tick_sched_timer up to v6.8, tick_nohz_handler from v6.9
		fn=tick_sched_timer
		[ $k -ge 4 ] && fn=tick_nohz_handler
		echo "            work-10      [000] d.h1.     $t: hrtimer_expire_entry: hrtimer=00000000aa function=$fn now=$k"
		[ $k = 2 ] && echo "            work-10      [000] d.h1.     1.010000: hrtimer_expire_entry: hrtimer=00000000bb function=hrtimer_wakeup now=9"
	done
	echo "            work-10      [000] d..2.     1.030000: sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	echo "          <idle>-0       [001] d..2.     1.040000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120"
} >"$tmp/t.txt"
grep -v hrtimer_expire "$tmp/t.txt" >"$tmp/grid.txt"

evals() { # the times (relative to the first event) of CPU 0's evaluations strictly inside the run
	"$bin" run "$1" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		golden_fail "run $1 failed: $(cat "$tmp/err")"
	awk -F, 'NR > 1 && $2 == 0 && $1 > 0.0000005 && $1 < 0.0299995 { print $1 }' "$tmp/tl.csv" | sort -u | tr '\n' ' '
}
got=$(evals "$tmp/t.txt")
want="0.001300 0.005300 0.009300 0.013300 0.017300 0.021300 0.025300 "
[ "$got" = "$want" ] || golden_fail "traced ticks: evaluations at '$got', want '$want'"
got=$(evals "$tmp/grid.txt")
want="0.004000 0.008000 0.012000 0.016000 0.020000 0.024000 0.028000 "
[ "$got" = "$want" ] || golden_fail "grid: evaluations at '$got', want '$want'"
# trace info counts them as events of their own
"$bin" trace info "$tmp/t.txt" 2>&1 | grep -q "hrtimer_expire_entry  *8" ||
	golden_fail "trace info does not count the 8 hrtimer_expire_entry events"
exit $fail
