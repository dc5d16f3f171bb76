#!/bin/bash
# newidle_overload.sh - a CPU going idle updates its own blocked load where the root domain is
# overloaded, where the trace has none of the kernel's blocked-load points: src/sim/balance.c.
#
# The kernel (kernel/sched/fair.c, newidle_balance(), sched_balance_newidle() from v6.10;
# Debian 5.10 to 7.2): a CPU about to idle runs update_blocked_averages() of itself when
# rd->overload is set (add_nr_running() sets it when a CPU gets a second runnable task; a load
# balance of the top domain sets it to whether one has two now), which stamps
# rq->last_blocked_load_update_tick; update_nohz_stats() then skips that CPU for the rest of
# the jiffy, so an idle-load balancer's pass in the same jiffy does not update it.
#
# By hand (lab-2cpu, v6.1, not frequency invariant: next_freq = 1.25 x cur x util / 1024, the
# lowest OPP at or above it; rate limit 0; HZ=250). hog runs on CPU 0 with ticks at 1.002 +
# 4k ms; spin runs on CPU 1 from 1.000002 with ticks at 1.004 + 4k ms up to 1.028 and sleeps at
# 1.033500. Its util and the root's, from zero (tests/golden/lib/pelt_ref.py, updates at those
# ticks): 511 at the sleep, 506 at 1.034, 240 at 1.070. The busy hold keeps 3000 MHz through the
# dequeue. CPU 0's tick at 1.034 kicks CPU 1, the idle-load balancer (nohz.next_blocked never
# set), and the pass sets next_blocked 32 ms on, 1.066: the tick at 1.070 kicks it again.
#  - Not overloaded: the pass at 1.034 updates CPU 1: 1.25 x 3000 x 506 / 1024 = 1853: 2400
#    MHz; at 1.070 from 2400: 1.25 x 2400 x 240 / 1024 = 703: 800 MHz.
#  - With a task woken onto busy CPU 0 at 1.010 (CPU 0 has two runnable from then on: the
#    domain stays overloaded), CPU 1's newidle update at 1.033500 (no PELT period ends at that
#    instant: no evaluation) makes the pass at 1.034 skip it; at 1.070 from 3000: 1.25 x 3000
#    x 240 / 1024 = 878: 1200 MHz.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init newidle_overload.sh

ticks=$(for ms in $(seq 4 4 28); do printf '1%03d000000:1 ' "$ms"; done)
pelt() { /usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000002000:0 $ticks "$@"; }
u_sleep=$(pelt 1033500000:1)
u_034=$(pelt 1033500000:1 1034000000:0)
u_070=$(pelt 1033500000:1 1070000000:0)
[ "$u_sleep $u_034 $u_070" = "511 506 240" ] ||
	golden_fail "pelt_ref.py gives $u_sleep $u_034 $u_070, the comment above says 511 506 240"
opp() { # CUR_KHZ UTIL: the lab-2cpu OPP at or above 1.25 x cur x util / 1024
	local f=$(($1 * 5 / 4 * $2 / 1024)) o
	for o in 800000 1200000 1800000 2400000 3000000; do
		[ "$f" -le "$o" ] && { echo "$o"; return; }
	done
	echo 3000000
}
f_034=$(opp 3000000 "$u_034")
f_070=$(opp "$f_034" "$u_070")
f_070_over=$(opp 3000000 "$u_070")

trace() { # [over]: a second task woken onto CPU 0 at 1.010
	echo "# tracer: nop"
	golden_line "<idle>" 0 1 1.000000 "cpu_frequency: state=3000000 cpu_id=1"
	golden_switch 0 1.000001 swapper/0 0 R hog 10
	golden_switch 1 1.000002 swapper/1 0 R spin 11
	for ms in $(seq 2 4 98); do
		golden_tick hog 10 0 "$(printf '1.%03d000' "$ms")"
		[ "$ms" -lt 28 ] && golden_tick spin 11 1 "$(printf '1.%03d000' $((ms + 2)))"
		[ "${1:-}" = over ] && [ "$ms" = 6 ] &&
			golden_line hog 10 0 1.010000 "sched_wakeup: comm=extra pid=12 prio=120 target_cpu=000"
		[ "$ms" = 30 ] && golden_switch 1 1.033500 spin 11 S swapper/1 0
	done
	golden_switch 0 1.100000 hog 10 S swapper/0 0
}
evals() { # TRACE: CPU 1's evaluations after its dequeue: "time:kHz ..."
	golden_lab_timeline "$1" v6.1 || return
	awk -F, 'NR > 1 && $2 == 1 && $1 > 0.0335005 && $1 < 0.0999995 { printf "%s:%s ", $1, $12 }' "$tmp/tl.csv"
}
trace >"$tmp/plain.txt"
golden_equal "not overloaded: the kick updates CPU 1 at 1.034" "$(evals "$tmp/plain.txt")" \
	"0.034000:$f_034 0.070000:$f_070 "
trace over >"$tmp/over.txt"
golden_equal "overloaded: the newidle update, the kick skips CPU 1 that jiffy" \
	"$(evals "$tmp/over.txt")" "0.070000:$f_070_over "
exit $fail
