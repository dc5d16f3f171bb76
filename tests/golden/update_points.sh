#!/bin/bash
# update_points.sh - where the replay calls the governor, as the kernel does, checked on
# hand-made traces on lab-2cpu (a policy per CPU, acpi-cpufreq, not frequency invariant, so
# PELT's clock is the rq clock) with rate_limit_us=0 and fast switching: every
# cpufreq_update_util() call that reaches schedutil is a --timeline row of its CPU. The expected
# times follow from the kernel's rules alone (times relative to the first event, 1.000000):
#
# 1. Blocked-load updates (src/sim/sim.c feed_blocked_update). CPU 0 runs a task until 1.020,
#    CPU 1 stays busy. Without the kernel's update points the replay refreshes every CPU's
#    blocked averages on its 32-ms grid (1.024). With softirq_entry vec=7 (SCHED_SOFTIRQ:
#    run_rebalance_domains -> update_blocked_averages(this_cpu)) at 1.026 and 1.031, those are
#    CPU 0's updates instead (each over 1 ms after the last, so PELT decayed and the hook runs);
#    vec=1 (TIMER) at 1.028 is not one. With the lab's update_blocked_averages probe, every call
#    is an update: one run on CPU 1 for CPU 0 (the idle-load balancer's, remote) at 1.034 kicks
#    no governor on acpi-cpufreq (cpufreq_this_cpu_can_update()), one on CPU 0 at 1.036 does.
# 2. The rq clock's phase (rq_clock_offset_ns). PELT counts 1024-ns units and crosses a period
#    every 1024 units from the rq clock's zero; the hook runs only when an update crosses one.
#    CPU 0 runs from 1.000000 with ticks at 1.000600, 1.001200, 1.001500. Offset 0: periods
#    start at k * 1048576 ns, i.e. 1.000341504 and 1.001390080, so the ticks at 1.000600 and
#    1.001500 cross one and 1.001200 does not. Offset 400000 ns (the rq clock 0.4 ms behind):
#    1.000741504 and 1.001790080, so only the tick at 1.001200 crosses. The rq clock may be
#    ahead of the trace's (a negative offset, as under QEMU's icount): -648576 ns is 400000 ns
#    modulo the 1048576-ns period, so the same tick crosses.
# 3. rq_clock_skip_update(). A task woken onto idle CPU 0 at 1.002 (its enqueue decays: an
#    evaluation) makes CPU 0 reschedule with RQCF_ACT_SKIP: the switch-in at 1.004 reuses the
#    wakeup's rq clock, decays nothing and kicks nothing. The tick at 1.005 and the sleep at
#    1.0065 each cross a period since the last update: evaluations.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init update_points

tick() { printf '          task-1 [%03d] d.h1.     %s: hrtimer_expire_entry: hrtimer=00000000aa function=tick_sched_timer now=0\n' "$1" "$2"; }
softirq() { printf '          task-1 [%03d] ..s1.     %s: softirq_entry: vec=%s [action=X]\n' "$1" "$2" "$3"; }
probe() { printf '          task-1 [%03d] ..s1.     %s: update_blocked_averages: (update_blocked_averages+0x0/0x7b0) cpu=%s\n' "$1" "$2" "$3"; }

evals() { # TRACE [ARGS]: CPU 0's evaluation times strictly after FROM (env) and before TO
	local t=$1
	shift
	"$bin" run "$t" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 "$@" --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		golden_fail "run $t $* failed: $(cat "$tmp/err")"
	awk -F, -v lo="${FROM:-0}" -v hi="${TO:-1}" \
		'NR > 1 && $2 == 0 && $1 + 0 > lo + 0 && $1 + 0 < hi + 0 { print $1 }' "$tmp/tl.csv" |
		sort -u | tr '\n' ' '
}
# 1. blocked-load updates
{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R work 10
	golden_switch 1 1.000000 swapper/1 0 R spin 11
	golden_switch 0 1.020000 work 10 S swapper/0 0
} >"$tmp/base.txt"
end() { golden_switch 1 1.040000 spin 11 S swapper/1 0; }
{ cat "$tmp/base.txt"; end; } >"$tmp/grid.txt"
{ cat "$tmp/base.txt"; softirq 0 1.026000 7; softirq 0 1.028000 1; softirq 0 1.031000 7; end; } >"$tmp/softirq.txt"
{
	cat "$tmp/base.txt"
	softirq 0 1.026000 7; probe 0 1.026005 0; softirq 0 1.031000 7; probe 0 1.031005 0
	probe 1 1.034000 0; probe 0 1.036000 0; end
} >"$tmp/probe.txt"
export FROM=0.0200005 TO=0.0399995
golden_equal "CPU 0 evaluated: 32-ms grid" "$(evals "$tmp/grid.txt")" "0.024000 "
golden_equal "CPU 0 evaluated: SCHED_SOFTIRQ" "$(evals "$tmp/softirq.txt")" "0.026000 0.031000 "
golden_equal "CPU 0 evaluated: probe" "$(evals "$tmp/probe.txt")" "0.026000 0.031005 0.036000 "
golden_equal "CPU 0 evaluated: probe, any CPU" "$(evals "$tmp/probe.txt" --set dvfs_possible_from_any_cpu=1)" \
	"0.026000 0.031005 0.034000 0.036000 "

# 2. the rq clock's phase
{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R work 10
	tick 0 1.000600; tick 0 1.001200; tick 0 1.001500
	golden_switch 0 1.001800 work 10 R+ swapper/0 0
} >"$tmp/phase.txt"
export FROM=0.0000005 TO=0.0017995
golden_equal "CPU 0 evaluated: offset 0" "$(evals "$tmp/phase.txt" --set rq_clock_offset_ns=0)" "0.000600 0.001500 "
golden_equal "CPU 0 evaluated: offset 0.4 ms" "$(evals "$tmp/phase.txt" --set rq_clock_offset_ns=400000)" "0.001200 "
golden_equal "CPU 0 evaluated: offset per CPU" "$(evals "$tmp/phase.txt" --set rq_clock_offset_ns=400000:0)" "0.001200 "
golden_equal "CPU 0 evaluated: offset negative" "$(evals "$tmp/phase.txt" --set rq_clock_offset_ns=-648576)" "0.001200 "
golden_equal "CPU 0 evaluated: offset negative per CPU" "$(evals "$tmp/phase.txt" --set rq_clock_offset_ns=-648576:0)" "0.001200 "
# an empty value in the list is refused, as the facts file refuses it (not skipped as "0")
"$bin" run "$tmp/phase.txt" --platform lab-2cpu --set rq_clock_offset_ns=-5::0 >/dev/null 2>"$tmp/err"
golden_equal "rq_clock_offset_ns=-5::0: exit status" "$?" 2
golden_equal "rq_clock_offset_ns=-5::0: message" "$(cat "$tmp/err")" \
	"govsim: --set rq_clock_offset_ns='-5::0': value 2 of the ':'-separated list is empty"

# 3. the skipped clock update of the switch after a wakeup
{
	echo "# tracer: nop"
	golden_switch 1 1.000000 swapper/1 0 R spin 11
	printf '          <idle>-0 [000] dNh2.     1.002000: sched_wakeup: comm=work pid=10 prio=120 target_cpu=000\n'
	golden_switch 0 1.004000 swapper/0 0 R work 10
	tick 0 1.005000
	golden_switch 0 1.006500 work 10 S swapper/0 0
	golden_switch 1 1.008000 spin 11 S swapper/1 0
} >"$tmp/skip.txt"
export FROM=0.0010005 TO=0.0079995
golden_equal "CPU 0 evaluated: skip" "$(evals "$tmp/skip.txt" --set rq_clock_offset_ns=0)" "0.002000 0.005000 0.006500 "

# a bad offset is a usage error
"$bin" run "$tmp/skip.txt" --platform lab-2cpu --set rq_clock_offset_ns=x >/dev/null 2>&1
[ $? = 2 ] || golden_fail "rq_clock_offset_ns=x not refused with exit 2"
exit $fail
