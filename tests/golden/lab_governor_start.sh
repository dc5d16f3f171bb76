#!/bin/bash
# lab_governor_start.sh - tools/lab/governor-start: when each CPU's schedutil hooks went live in
# a lab recording. Counted by hand on a made trace of two per-CPU policies: policy0's marker at
# 1.000000; on CPU 0 a refresh probe at 1.001000 makes no hook call (not live yet), a tick at
# 1.004000 is followed by the first sugov_update_single_freq at 1.004100 (the tick is the last
# event before it): CPU 0 starts at 1.004000. policy1's marker at 1.002000; CPU 1's first hook
# call at 1.002500 follows a sched_waking at 1.002400 and a resolve_freq probe line (a probe,
# not an update point): CPU 1 starts at 1.002400. As one shared policy of both CPUs (policy0's
# marker only): the first call on either CPU, CPU 1's at 1.002500, after its waking: 1.002400
# for both. Without probes: the markers.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_governor_start
ev() { printf '%16s-%-5s [%03d] d..2. %12s: %s\n' "$1" "$2" "$3" "$4" "$5"; }
hook() { ev swapper/$1 0 "$1" "$2" "sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1 flags=0"; }
{
	echo "# tracer: nop"
	ev init 1 0 1.000000 "tracing_mark_write: lab: policy0 schedutil"
	ev swapper/0 0 0 1.001000 "update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x80) cpu=0"
	ev init 1 1 1.002000 "tracing_mark_write: lab: policy1 schedutil"
	ev swapper/1 0 1 1.002400 "sched_waking: comm=w pid=9 prio=120 target_cpu=001"
	ev swapper/1 0 1 1.002450 "resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1"
	hook 1 1.002500
	ev swapper/0 0 0 1.004000 "hrtimer_expire_entry: hrtimer=00000000aa function=tick_nohz_handler now=0"
	hook 0 1.004100
} | gzip >"$tmp/t.txt.gz"
golden_equal "per-cpu" "$(tools/lab/governor-start "$tmp/t.txt.gz" 2 per-cpu)" "1004000000:1002400000"
zcat "$tmp/t.txt.gz" | grep -v 'policy1 schedutil' | gzip >"$tmp/s.txt.gz"
golden_equal "shared" "$(tools/lab/governor-start "$tmp/s.txt.gz" 2 shared)" "1002400000:1002400000"
zcat "$tmp/t.txt.gz" | grep -v sugov_update | gzip >"$tmp/n.txt.gz"
golden_equal "no probes" "$(tools/lab/governor-start "$tmp/n.txt.gz" 2 per-cpu)" "1000000000:1002000000"
exit $fail
