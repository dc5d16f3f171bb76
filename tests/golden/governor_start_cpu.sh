#!/bin/bash
# governor_start_cpu.sh - each policy's governor starts at its own time. The lab switches its
# policies to schedutil one after the other, each after its own trace marker, and schedutil's
# hooks go live at sugov_start() of that policy only (kernel/sched/cpufreq_schedutil.c:
# cpufreq_add_update_util_hook() per CPU of the policy); until then the policy stays where the
# performance governor left it. governor_start_ns takes one time, or one per CPU.
#
# A hand-made lab-2cpu trace (two per-CPU policies): a task runs on each CPU from 1.000 with
# ticks at 1.004 and 1.008. With governor_start_ns=1002000000:1006000000, CPU 0 evaluates at
# both ticks and CPU 1 only at 1.008; with one value 1002000000, both at both.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init governor_start_cpu

ev() { printf '%16s-%-5s [%03d] d..2. %12s: %s\n' "$1" "$2" "$3" "$4" "$5"; }
{
	echo "# tracer: nop"
	for c in 0 1; do
		ev swapper/$c 0 $c 1.000000 "sched_switch: prev_comm=swapper/$c prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w$c next_pid=1$c next_prio=120"
	done
	for t in 1.004000 1.008000; do
		for c in 0 1; do
			ev w$c 1$c $c $t "hrtimer_expire_entry: hrtimer=00000000aa function=tick_sched_timer now=0"
		done
	done
} >"$tmp/t.txt"
# the times (ms) of CPU C's evaluations (a tick may evaluate twice: once a time)
evals() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set governor_start_ns="$1" --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $1: $(cat "$tmp/err")"; return; }
	awk -F, -v c="$2" 'NR > 1 && $2 == c && !seen[$1]++ { printf "%s%d", n++ ? " " : "", $1 * 1000 + 0.5 }' "$tmp/tl.csv"
}
golden_equal "per CPU: CPU 0" "$(evals 1002000000:1006000000 0)" "4 8"
golden_equal "per CPU: CPU 1" "$(evals 1002000000:1006000000 1)" "8"
golden_equal "one value: CPU 1" "$(evals 1002000000 1)" "4 8"
# a bad list is refused with exit status 2 and says why
refused() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --set governor_start_ns="$1" >/dev/null \
		2>"$tmp/err"
	golden_equal "governor_start_ns=$1: exit status" "$?" 2
	golden_equal "governor_start_ns=$1: message" "$(cat "$tmp/err")" "govsim: $2"
}
refused 1:x "--set governor_start_ns='1:x': expected a non-negative integer, or one per CPU separated by ':' (at most 64)"
refused -1 "--set governor_start_ns='-1': expected a non-negative integer, or one per CPU separated by ':' (at most 64)"
# an empty value in the list, as the facts file refuses it (not skipped: 1::2 is not 1:2)
refused 1::2 "--set governor_start_ns='1::2': value 2 of the ':'-separated list is empty"
refused :1 "--set governor_start_ns=':1': value 1 of the ':'-separated list is empty"
refused 1: "--set governor_start_ns='1:': value 2 of the ':'-separated list is empty"
exit $fail
