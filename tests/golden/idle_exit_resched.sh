#!/bin/bash
# idle_exit_resched.sh - an idle-loop exit that shows TIF_NEED_RESCHED starts do_idle() afresh,
# so the idle entry that follows it counts for schedutil's busy hold as a first entry does:
# not at all, without a cpuidle driver. do_idle()'s loop runs while (!need_resched()); on the
# way out tick_nohz_idle_exit() restarts a stopped tick and schedule_idle() runs. Where it picks
# the idle task again (the task it was woken for ran elsewhere) the trace shows no switch, and
# cpu_startup_entry() calls do_idle() again with got_tick false: its first
# cpuidle_idle_call(got_tick) keeps the tick (idle_call_stop_or_retain_tick() ->
# tick_nohz_idle_retain_tick()) and ts->idle_calls, which only tick_nohz_idle_stop_tick()
# raises, stays (Debian 6.12 kernel/sched/idle.c do_idle(), cpuidle_idle_call();
# kernel/time/tick-sched.c tick_nohz_idle_stop_tick(), tick_nohz_idle_exit()).
#
# By hand, as tests/golden/idle_calls.sh, under v6.1 (the first kernel whose idle loop keeps
# the tick at a first entry; 6.12 and 7.2 as 6.1): task 11 runs on CPU 1 from 1.000 to 1.006
# (rate_limit_us=0); the governor's evaluations ask for 2.0 to 2.1 GHz, below the maximum it
# starts at, and it is held there by the busy hold while the CPU runs. It sleeps at 1.006 and
# the idle loop's first entry at 1.006010 counts nothing: the blocked-load refresh at 1.0075
# (the lab's update_blocked_averages probe) holds the maximum. The tick at 1.008 wakes the
# loop (got_tick):
# - its exit at 1.008005 shows N ("dN.1."), and no switch follows: the entry at 1.008010 is
#   a fresh do_idle()'s first and counts nothing, so at the refresh at 1.0095 idle_calls is
#   still the one of 1.004: busy, and the maximum is held again (util 531 asks for
#   1.25 * 3 GHz * 531 / 1024 = 1.94 GHz);
# - the same exit without N ("d..1.") goes round the same loop: the entry stops the tick and
#   counts, and the frequency drops to 2400000 at 1.0095.
# Under v5.10 every entry counts (no retained tick): the frequency drops at 1.0075 already
# (1.25 * 3 GHz * 554 / 1024 = 2.03 GHz: 2400000), and again at 1.0095 (1.25 * 2.4 GHz * 531 /
# 1024 = 1.56 GHz: 1800000; the guest is not frequency invariant).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init idle_exit_resched

trace() { # EXIT_FLAGS
	echo "# tracer: nop"
	echo "            init-1       [001] d..2.     1.000000: sched_wakeup_new: comm=init pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	echo "            spin-11      [001] d.h1.     1.004000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1004000000"
	echo "            spin-11      [001] d..2.     1.006000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
	echo "          <idle>-0       [001] d..1.     1.006010: cpu_idle: state=1 cpu_id=1"
	echo "          <idle>-0       [001] ..s1.     1.007500: softirq_entry: vec=7 [action=SCHED]"
	echo "          <idle>-0       [001] ..s1.     1.007505: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1"
	echo "          <idle>-0       [001] d.h1.     1.008000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1008000000"
	echo "          <idle>-0       [001] $1     1.008005: cpu_idle: state=4294967295 cpu_id=1"
	echo "          <idle>-0       [001] d..1.     1.008010: cpu_idle: state=1 cpu_id=1"
	echo "          <idle>-0       [001] ..s1.     1.009500: softirq_entry: vec=7 [action=SCHED]"
	echo "          <idle>-0       [001] ..s1.     1.009505: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1"
}
# CPU 1's frequency after its evaluations at 1.004, 1.0075 and 1.0095 (the timeline's last row
# at each time)
freqs() { # TRACE ARGS...
	local t=$1
	shift
	"$bin" run "$t" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set cpuidle_driver=0 "$@" \
		--timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ golden_fail "run $t $* failed: $(cat "$tmp/out.txt")"; return; }
	awk -F, 'NR > 1 && $2 == 1 && $11 != "" {
			if ($1 == "0.004000") b = $12
			if ($1 >= "0.007500" && $1 < "0.008000") a = $12
			if ($1 >= "0.009500" && $1 < "0.010000") c = $12
		} END { printf "%s %s %s", b, a, c }' "$tmp/tl.csv"
}
trace dN.1. >"$tmp/resched.txt"
trace d..1. >"$tmp/plain.txt"
read -r b a c <<<"$(freqs "$tmp/resched.txt" --kernel v6.1)"
golden_equal "v6.1, exit with N: the maximum at 1.004, held at 1.0075 and 1.0095" "$b $a $c" \
	"3000000 3000000 3000000"
read -r b a c <<<"$(freqs "$tmp/plain.txt" --kernel v6.1)"
golden_equal "v6.1, exit without N: the maximum held at 1.0075, 2400000 at 1.0095" "$b $a $c" \
	"3000000 3000000 2400000"
read -r b a c <<<"$(freqs "$tmp/resched.txt" --kernel v5.10)"
golden_equal "v5.10, exit with N: 2400000 at 1.0075, 1800000 at 1.0095" "$b $a $c" \
	"3000000 2400000 1800000"
exit $fail
