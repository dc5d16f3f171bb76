#!/bin/bash
# busy_hold_capped.sh - validate's view of the replay's busy hold skips the evaluations that
# read no idle-entry count: where uclamp.max caps the rq (src/sim/validate.c val_emu_capped()).
#
# The kernel (kernel/sched/cpufreq_schedutil.c, Debian 6.1 sugov_update_single_freq(), 6.12
# and 7.2 sugov_hold_freq()): where uclamp_rq_is_capped() (the key on, the rq's UCLAMP_MAX
# below 1024, cpu_util_cfs() + cpu_util_rt() at or above it) the busy hold returns before
# tick_nohz_get_idle_calls_cpu(), so the CPU's saved_idle_calls keeps the count of its last
# uncapped evaluation, and the lab's idle_calls probe does not fire.
#
# By hand (lab-2cpu, v6.1, a cpuidle driver: every idle entry counts): CPU 0 is idle; the
# kernel evaluates at the softirq of 1.010 with count 7. capz (uclamp_max 0, the facts'
# policy) runs 1.012-1.013 and sleeps; the rq keeps its max of 0 while idle (uclamp's idle
# hold), so the replay's evaluations at 1.012, 1.013 and the refresh at 1.020 are capped (util
# 0 or more, against 0). The CPU enters idle at 1.0131. free (no clamp) wakes at 1.025: the
# rq's max is 1024 again; the kernel's evaluation shows count 8, not the 7 it saved at 1.010,
# so not busy. The replay's count changed since 1.010 too: its busy hold agrees (1 of 1).
# Counting the capped evaluations as reads, its count at 1.025 equals the one "saved" at
# 1.020, after the idle entry: busy, and 0 of 1 -- as it also is where capz has no clamp (no
# capped evaluation: the replay did read the count at 1.020, while the kernel's trace shows
# none there).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init busy_hold_capped

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
probe() { # TIME RAW_KHZ [IDLE_CALLS]
	ev '<idle>' 0 0 "$4" "$1" "resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=$2"
	[ -z "${3:-}" ] || ev '<idle>' 0 0 "$4" "$1" \
		"idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=$3"
}
{
	echo "# tracer: nop"
	ev '<idle>' 0 0 d.s2. 1.000000 "cpu_frequency: state=800000 cpu_id=0"
	golden_switch 1 1.000000 swapper/1 0 R spin 11
	ev '<idle>' 0 0 ..s1. 1.010000 "softirq_entry: vec=7 [action=SCHED]"
	probe 1.010040 0 7 d.s2.
	ev '<idle>' 0 0 dNh2. 1.012000 "sched_wakeup: comm=capz pid=12 prio=120 target_cpu=000"
	golden_switch 0 1.012010 swapper/0 0 R capz 12
	golden_switch 0 1.013000 capz 12 S swapper/0 0
	ev '<idle>' 0 0 d..1. 1.013100 "cpu_idle: state=1 cpu_id=0"
	ev '<idle>' 0 0 ..s1. 1.020000 "softirq_entry: vec=7 [action=SCHED]"
	ev '<idle>' 0 0 d..1. 1.024000 "cpu_idle: state=4294967295 cpu_id=0"
	ev '<idle>' 0 0 dNh2. 1.025000 "sched_wakeup: comm=free pid=13 prio=120 target_cpu=000"
	probe 1.025040 1000 8 dNh2.
	golden_switch 0 1.025100 swapper/0 0 R free 13
	golden_switch 0 1.030000 free 13 S swapper/0 0
} >"$tmp/t.txt"
printf 'clamp_policy = t.policy\n' >"$tmp/t.facts"

busy_line() { # POLICY_LINE: validate's busy hold figure
	echo "$1" >"$tmp/t.policy"
	"$bin" validate "$tmp/t.txt" --platform lab-2cpu --kernel v6.1 --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set cpuidle_driver=1 \
		>"$tmp/out.txt" 2>"$tmp/err" || { golden_fail "validate failed: $(cat "$tmp/err")"; return; }
	grep "busy hold" "$tmp/out.txt" | sed 's/.*kernel.s at //'
}
golden_equal "capz capped at 0: the capped evaluations read no count" \
	"$(busy_line 'setattr comm=capz uclamp_max=0')" "1 of 1 (100.0%)"
golden_equal "no clamp: the replay reads the count at 1.020" \
	"$(busy_line 'setattr comm=capz uclamp_min=0')" "0 of 1 (0.0%)"
exit $fail
