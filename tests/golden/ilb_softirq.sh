#!/bin/bash
# ilb_softirq.sh - what a SCHED_SOFTIRQ the trace shows refreshes, where the trace has the
# softirqs (softirq_entry vec=7) but not the kernel's update_blocked_averages() calls, checked on
# a hand-made trace on lab-2cpu (a policy per CPU, not frequency invariant) with
# rate_limit_us=0 and rq_clock_offset_ns=0: every cpufreq_update_util() that reaches schedutil
# is a --timeline row of its CPU, and a blocked-load refresh calls it when a PELT period
# (1048576 ns of rq clock, here the trace's clock) has begun since the CPU's last update.
#
# CPU 1 runs a task throughout; its ticks (every 4 ms) are the busy ticks that kick the
# idle-load balancer. CPU 0 runs a task until 1.010 and is idle after; the trace shows its idle
# loop (cpu_idle). The kernel's rules (kernel/sched/fair.c sched_balance_softirq(),
# nohz_idle_balance(), _nohz_idle_balance(), update_nohz_stats(): Debian 6.1 and 7.2; 5.10 for
# the older pass), and what follows for CPU 0 (times after the first event, 1.000000):
#  a. 1.012000, a softirq with no tick of CPU 0 before it: a kick. CPU 0's last tick (1.008)
#     found it busy (rq->idle_balance = 0), so nohz_idle_balance() declines and the softirq
#     refreshes CPU 0 itself: an evaluation.
#  b. 1.016050 follows CPU 0's own tick (1.016000) in the same interrupt: its own rebalance,
#     a refresh: an evaluation. The idle loop then goes round once more after that tick wakeup
#     and stops the tick (1.016120): CPU 0 enters nohz.idle_cpus_mask with blocked load.
#  c. 1.020100, a kick. nohz.next_blocked has never been set, so the kick carries
#     NOHZ_STATS_KICK and the pass refreshes CPU 0 (in the mask, a jiffy since its last
#     update): an evaluation. The pass sets nohz.next_blocked 32 ms on, 1.052100.
#  d. 1.024100, a kick before nohz.next_blocked: v5.13+ (the v7.2 profile) refreshes nothing
#     without NOHZ_STATS_KICK; before v5.13 (v5.10) every pass refreshes the kicked CPU: an
#     evaluation there only.
#  e. 1.028050 follows CPU 0's own tick: an evaluation.
#  f. 1.056050 follows CPU 0's own tick: an evaluation. 1.057500, a kick after
#     nohz.next_blocked (v7.2: 1.052100) but in the jiffy of CPU 0's last update (1.45 ms on):
#     update_nohz_stats() skips CPU 0 under v7.2; v5.10 refreshes it whatever the jiffy, and a
#     period began at 1.056964608 (1008 * 1048576 ns): an evaluation there only.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init ilb_softirq

tick() { printf '          task-1 [%03d] d.h1.     %s: hrtimer_expire_entry: hrtimer=00000000aa function=tick_sched_timer now=0\n' "$1" "$2"; }
softirq() { printf '          task-1 [%03d] ..s1.     %s: softirq_entry: vec=7 [action=SCHED]\n' "$1" "$2"; }
idle() { printf '          <idle>-0 [%03d] d..1.     %s: cpu_idle: state=%s cpu_id=%s\n' "$1" "$2" "$3" "$1"; }

{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R work 10
	golden_switch 1 1.000000 swapper/1 0 R spin 11
	softirq 1 1.000500
	for ms in 004 008 012 016 020 024 028 032 036 040 044 048 052 056; do
		tick 1 "1.$ms""000"
	done
	tick 0 1.004000
	tick 0 1.008000
	golden_switch 0 1.010000 work 10 S swapper/0 0
	idle 0 1.010010 1
	softirq 0 1.012000
	tick 0 1.016000
	softirq 0 1.016050
	idle 0 1.016100 4294967295
	idle 0 1.016120 1
	softirq 0 1.020100
	softirq 0 1.024100
	tick 0 1.028000
	softirq 0 1.028050
	idle 0 1.028100 4294967295
	idle 0 1.028120 1
	tick 0 1.056000
	softirq 0 1.056050
	idle 0 1.056100 4294967295
	idle 0 1.056120 1
	softirq 0 1.057500
	golden_switch 1 1.060000 spin 11 S swapper/1 0
} | sort -s -k4,4n >"$tmp/ilb.txt"

evals() { # KERNEL: CPU 0's evaluation times after it went idle
	"$bin" run "$tmp/ilb.txt" --platform lab-2cpu --kernel "$1" --timing traced \
		--set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0 \
		--timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		golden_fail "run --kernel $1 failed: $(cat "$tmp/err")"
	awk -F, 'NR > 1 && $2 == 0 && $1 + 0 > 0.0105 && $1 + 0 < 0.0595 { print $1 }' "$tmp/tl.csv" |
		sort -u | tr '\n' ' '
}
golden_equal "CPU 0 evaluated, v7.2" "$(evals v7.2)" \
	"0.012000 0.016050 0.020100 0.028050 0.056050 "
golden_equal "CPU 0 evaluated, v5.10" "$(evals v5.10)" \
	"0.012000 0.016050 0.020100 0.024100 0.028050 0.056050 0.057500 "
exit $fail
