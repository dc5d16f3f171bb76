#!/bin/bash
# running_start.sh - the governor's state at the trace's first event. A trace that shows no
# start of the governor was recorded while it ran: schedutil's last decision is the frequency in
# force (next_freq = policy->cur) and the raw frequency it cached is not known, so the first
# evaluation resolves what it computes. A trace with a known start (--set governor_start_ns, as
# the lab's facts give it) starts as sugov_start() leaves it: next_freq 0, cached_raw_freq 0
# (kernel/sched/cpufreq_schedutil.c, v5.9 to 7.2).
#
# By hand: one task wakes on the idle CPU 1 and runs (lab-2cpu, OPPs 800..3000 MHz) with the frequency at
# 3000 MHz; `setattr comm=spin uclamp_max=0` clamps every util schedutil reads to 0, so
# get_next_freq() computes raw 0:
# - running before the trace: 0 is not the cached raw frequency; it resolves to 800 MHz, which
#   differs from next_freq (3000 MHz): the policy goes to 800 MHz at its first evaluation and
#   stays (one transition).
# - started at the first event: raw 0 == cached_raw_freq 0 and need_freq_update is false
#   (acpi-cpufreq has no CPUFREQ_NEED_UPDATE_LIMITS), so get_next_freq() returns next_freq 0,
#   which equals sg_policy->next_freq: sugov_update_next_freq() changes nothing, ever. The
#   policy keeps 3000 MHz (the kernel's own behaviour after a governor switch).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init running_start.sh

{
	echo "# tracer: nop"
	echo "          <idle>-0       [001] d..2.     0.999000: cpu_frequency: state=3000000 cpu_id=1"
	echo "          <idle>-0       [001] dNh2.     1.000000: sched_waking: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] dNh2.     1.000001: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	for ms in 004 008 012 016 020 024 028; do
		echo "            spin-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "            spin-11      [001] d..2.     1.030000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
} >"$tmp/t.txt"
args=(--platform lab-2cpu --kernel v6.1 --timing traced --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0 --action 'setattr comm=spin uclamp_max=0')
# CPU 1's frequencies (kHz) over its evaluations, each distinct value once in order
freqs() {
	"$bin" run "$tmp/t.txt" "${args[@]}" "$@" --timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ echo "running_start.sh: run $* failed: $(cat "$tmp/out.txt")" >&2; return; }
	awk -F, 'NR > 1 && $2 == 1 && $12 != last { printf "%s ", $12; last = $12 }' "$tmp/tl.csv"
}
got=$(freqs)
[ "$got" = "800000 " ] || golden_fail "running before the trace: frequencies '$got', want '800000 '"
grep -q "running before the trace" "$tmp/out.txt" ||
	golden_fail "the run's notes do not say the governor was taken as running"
got=$(freqs --set governor_start_ns=999000000)
[ "$got" = "3000000 " ] || golden_fail "started at the first event: frequencies '$got', want '3000000 '"
exit $fail
