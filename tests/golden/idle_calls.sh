#!/bin/bash
# idle_calls.sh - schedutil's busy hold (sugov_cpu_is_busy / sugov_hold_freq: a CPU whose
# tick_nohz_get_idle_calls_cpu() has not changed since the last evaluation keeps its frequency
# rather than lower it) counts idle-loop entries as the kernel does (kernel/sched/idle.c
# do_idle, kernel/time/tick-sched.c tick_nohz_idle_stop_tick; Debian 5.10, 6.1, 6.12, 7.2).
#
# By hand: task 11 runs on CPU 1 from 1.000 to 1.006; the tick at 1.004 (rate_limit_us=0)
# lowers the frequency from the maximum to 2400000 (util about 550: 1.25 * 3000000 * 550 /
# 1024 = 2.0 GHz). It sleeps at 1.006 and the CPU enters the idle loop at 1.006010 (cpu_idle
# state=1). SCHED_SOFTIRQ at 1.0075 refreshes its blocked load (a PELT period crossed, so the
# governor runs): util about 560 at cur 2400000 asks for 1.25 * 2.4 GHz * 560 / 1024 = 1.64
# GHz, below the frequency it runs at.
# - v6.1 without a cpuidle driver (cpuidle_driver=0, the lab's guests): the first
#   idle entry after a switch keeps the tick (cpuidle_idle_call(got_tick = false) ->
#   tick_nohz_idle_retain_tick()) and counts nothing: idle_calls is unchanged since the tick at
#   1.004, the CPU counts as busy and 2400000 is held at 1.0075. The tick at 1.008 wakes the idle
#   loop (got_tick), whose next entry at 1.008010 stops the tick and counts: at the refresh at
#   1.0095 the CPU is idle for schedutil and the frequency drops.
# - v5.10 (every entry stops the tick) or a CPU with a cpuidle driver: the entry at 1.006010
#   counts, so the frequency drops at 1.0075 already.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init idle_calls

{
	echo "# tracer: nop"
	echo "            init-1       [001] d..2.     1.000000: sched_wakeup_new: comm=init pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	echo "            spin-11      [001] d.h1.     1.004000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1004000000"
	echo "            spin-11      [001] d..2.     1.006000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
	echo "          <idle>-0       [001] d..1.     1.006010: cpu_idle: state=1 cpu_id=1"
	echo "          <idle>-0       [001] ..s1.     1.007500: softirq_entry: vec=7 [action=SCHED]"
	echo "          <idle>-0       [001] d.h1.     1.008000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1008000000"
	echo "          <idle>-0       [001] d..1.     1.008005: cpu_idle: state=4294967295 cpu_id=1"
	echo "          <idle>-0       [001] d..1.     1.008010: cpu_idle: state=1 cpu_id=1"
	echo "          <idle>-0       [001] ..s1.     1.009500: softirq_entry: vec=7 [action=SCHED]"
} >"$tmp/t.txt"
# CPU 1's frequency after its evaluations at 1.004, 1.0075 and 1.0095 (the timeline's last row
# at each time)
freqs() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 "$@" --timeline "$tmp/tl.csv" \
		>"$tmp/out.txt" 2>&1 || { golden_fail "run $* failed: $(cat "$tmp/out.txt")"; return; }
	awk -F, 'NR > 1 && $2 == 1 && $11 != "" { f[$1] = $12 }
		END { printf "%s %s %s", f["0.004000"], f["0.007500"], f["0.009500"] }' "$tmp/tl.csv"
}
held_at_softirq() { # NAME HELD(1: the frequency at 1.0075 is the one before) ARGS...
	local name=$1 held=$2 b a c
	shift 2
	read -r b a c <<<"$(freqs "$@")"
	if [ -z "${c:-}" ] || [ "$c" -ge "$b" ] || { [ "$held" = 1 ] && [ "$a" != "$b" ]; } ||
		{ [ "$held" = 0 ] && [ "$a" -ge "$b" ]; }; then
		golden_fail "$name: frequencies at 1.004, 1.0075, 1.0095: '$b $a $c'," \
			"want the one at 1.0075 $([ "$held" = 1 ] && echo equal to || echo below) the first, the last below"
	fi
}
held_at_softirq "v6.1, no cpuidle driver" 1 --kernel v6.1 --set cpuidle_driver=0
held_at_softirq "v6.1, a cpuidle driver" 0 --kernel v6.1
held_at_softirq "v5.10, no cpuidle driver" 0 --kernel v5.10 --set cpuidle_driver=0
# A tick between the switch to idle and the loop's first entry: do_idle()'s got_tick starts
# false for its first cpuidle_idle_call() whatever ticked before (the tick sets
# ts->got_idle_tick, which tick_nohz_idle_got_tick() reads only after that call returns), so
# the first entry still counts nothing and 2400000 is held at 1.0075; the tick's mark makes the
# second entry, at 1.008010, count. (7.2 uclamp-task, CPU 1 at 18.506719: a tick 27 us after
# the switch to idle, the first entry after it, and idle_calls unchanged at the refresh that
# follows.) The refreshes here are the lab probe's update_blocked_averages events, so that
# the early tick triggers none of the model's own.
ubl() { echo "          <idle>-0       [001] ..s1.     $1: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x80) cpu=1"; }
awk '/1\.006000: sched_switch/ { print; print "          <idle>-0       [001] d.h1.     1.006005: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1006005000"; next }
	/softirq_entry/ { next } { print }' "$tmp/t.txt" >"$tmp/t2.txt"
{ cat "$tmp/t2.txt"; ubl 1.007500; ubl 1.009500; } | sort -s -k4,4 >"$tmp/t.txt"
grep -q '1.006005: hrtimer' "$tmp/t.txt" && [ "$(grep -c update_blocked "$tmp/t.txt")" = 2 ] ||
	golden_fail "the variant trace was not made: $(cat "$tmp/t.txt")"
held_at_softirq "v6.1, no cpuidle driver, a tick before the first entry" 1 --kernel v6.1 --set cpuidle_driver=0
held_at_softirq "v5.10, no cpuidle driver, a tick before the first entry" 0 --kernel v5.10 --set cpuidle_driver=0
"$bin" run "$tmp/t.txt" --platform lab-2cpu --set cpuidle_driver=x >/dev/null 2>&1
golden_equal "cpuidle_driver=x: exit status" $? 2
exit $fail
