#!/bin/bash
# nohz_stats.sh - idle CPUs' blocked load updated by the idle-load balancer, where the trace has
# the kernel's ticks but none of its blocked-load points (no update_blocked_averages probe, no
# SCHED_SOFTIRQ): src/sim/balance.c.
#
# The kernel (kernel/sched/fair.c, v5.10 to 7.2): a tickless idle CPU's signals decay only when
# some CPU runs update_blocked_averages() for it. nohz_balancer_kick() at a busy CPU's tick
# kicks the first idle CPU with NOHZ_STATS_KICK once nohz.has_blocked is set (a CPU went idle)
# and jiffies are after nohz.next_blocked; _nohz_idle_balance() updates every idle CPU and sets
# nohz.next_blocked 32 ms (8 jiffies at HZ=250) on. A CPU going idle with avg_idle >= 0.5 ms
# once next_blocked has come runs the same update itself (nohz_newidle_balance()).
#
# By hand (lab-2cpu, v6.1, not frequency invariant: next_freq = 1.25 x cur x util / 1024, the
# lowest OPP at or above it; rate limit 0). spin runs on CPU 1 from 1.000 to 1.031 from zero
# util: util u0 ~ 1024 (1 - 0.5^(31/32)) ~ 500, a little less with PELT's 1024-us periods
# (470..500 is all the figures below need). The busy hold keeps 3000 MHz through its dequeue
# (the CPU has not idled since the evaluation before). CPU 1 then idles with no tick; hog keeps
# CPU 0 busy with ticks at 1.002 + 4k ms.
#  - The tick at 1.034 kicks CPU 1 (the only idle CPU): util u0 x 0.5^(3/32) = 440..469,
#    1.25 x 3000 x util / 1024 = 1611..1718: 1800 MHz. next_blocked = 1.066; jiffies are after
#    it from the tick of 1.070: u0 x 0.5^(39/32) = 202..215, 1.25 x 1800 x util / 1024 =
#    444..472: 800 MHz -- not held, because the kick's IPI sent CPU 1 round its idle loop
#    again. So after the dequeue CPU 1 is evaluated at 1.034 and 1.070 and at no other time.
#    (The replay's 32-ms refresh, on multiples of 32 ms, updated it at 1.056 and 1.088.)
#  - hog sleeps from 1.067 to 1.068: next_blocked has come, avg_idle is 1 ms, so CPU 0 updates
#    CPU 1 at 1.067 (u0 x 0.5^(36/32) = 215..229: 472..503 from 1800: 800 MHz) and next_blocked
#    moves to 1.099, so the tick at 1.070 kicks nothing. acpi-cpufreq ignores an update from
#    outside the policy (cpufreq_this_cpu_can_update()): CPU 1 is evaluated at 1.034 only; with
#    dvfs_possible_from_any_cpu=1, at 1.034 and 1.067.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init nohz_stats.sh

trace() { # [nap]: hog sleeps 1.067 to 1.068
	echo "# tracer: nop"
	golden_line "<idle>" 0 1 1.000000 "cpu_frequency: state=3000000 cpu_id=1"
	golden_switch 0 1.000001 swapper/0 0 R hog 10
	golden_switch 1 1.000002 swapper/1 0 R spin 11
	for ms in $(seq 2 4 98); do
		golden_tick hog 10 0 "$(printf '1.%03d000' "$ms")"
		[ "$ms" = 30 ] && golden_switch 1 1.031000 spin 11 S swapper/1 0
		[ "$ms" -lt 28 ] && golden_tick spin 11 1 "$(printf '1.%03d000' $((ms + 2)))"
		if [ "${1:-}" = nap ] && [ "$ms" = 66 ]; then
			golden_switch 0 1.067000 hog 10 S swapper/0 0
			golden_line "<idle>" 0 0 1.068000 "sched_wakeup: comm=hog pid=10 prio=120 target_cpu=000"
			golden_switch 0 1.068001 swapper/0 0 R hog 10
		fi
	done
	golden_switch 0 1.100000 hog 10 S swapper/0 0
}
evals() { # TRACE [ARGS]: CPU 1's evaluations after its dequeue: "time:kHz ..."
	local t=$1
	shift
	golden_lab_timeline "$t" v6.1 "$@" || return
	awk -F, 'NR > 1 && $2 == 1 && $1 > 0.0310005 && $1 < 0.0999995 { printf "%s:%s ", $1, $12 }' "$tmp/tl.csv"
}
trace >"$tmp/kick.txt"
golden_equal "stats kick" "$(evals "$tmp/kick.txt")" "0.034000:1800000 0.070000:800000 "
trace nap >"$tmp/nap.txt"
golden_equal "newidle, acpi-cpufreq" "$(evals "$tmp/nap.txt")" "0.034000:1800000 "
golden_equal "newidle, any CPU" "$(evals "$tmp/nap.txt" --set dvfs_possible_from_any_cpu=1)" \
	"0.034000:1800000 0.067000:800000 "
exit $fail
