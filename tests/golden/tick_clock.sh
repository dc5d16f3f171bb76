#!/bin/bash
# tick_clock.sh - the scheduler tick and a SCHED_SOFTIRQ blocked-load refresh at the rq clock
# their own call of schedutil's hook shows. hrtimer_expire_entry is traced when the tick's timer
# fires; sched_tick() reads the rq clock (update_rq_clock()) a little later, updates the running
# task's PELT and calls cpufreq_update_util() with that clock (kernel/sched/core.c sched_tick(),
# fair.c task_tick_fair(), Debian 5.10 to 7.2); likewise softirq_entry of SCHED_SOFTIRQ and the
# lab's update_blocked_averages probe come before the refresh reads its clock
# (sched_balance_update_blocked_averages()). Where the lab's probe on the hook (time=, in that
# interrupt) follows on the same CPU with nothing but schedutil's probes and cpu_frequency
# between, the replay runs the tick or the refresh at that clock (trace time = rq clock +
# rq_clock_offset_ns), after the other CPUs' events stamped before it.
#
# A hand-made lab-2cpu trace under v6.12, not frequency-invariant: CPU 1 takes an idle tick at
# 0.996000 (from the first traced tick on, the trace's ticks replace the replay's 4-ms grid),
# busy (pid 30) wakes onto it at 1.000100 and runs. Its tick is stamped 1.004000 and its hook call reads rq clock
# 1.004300; CPU 0 traces a cpu_idle at 1.004100, between the two. The timeline's row of the
# tick's evaluation is then at 1.004300 (0.008300 s into the trace) with the util of a task
# running from 1.000100 to 1.004300 (tests/golden/lib/pelt_ref.py), plus v6.12's headroom
# (util + util/4); without the hook call (or with rq_clock_traced=0) the row is at the stamp,
# 0.008000 s, with the util at 1.004000. The scheduler's high-resolution tick (hrtick(), 7.2's
# sched_feat(HRTICK): task_tick(queued=1)) likewise. A hook call in task context (not the tick's) or a
# sched_waking of CPU 1 between leaves the tick at its stamp. Then busy sleeps at 1.010000 (its
# dequeue ends a PELT period: its hook call, at rq clock 1.010000) and CPU 1 idles; its softirq
# at 1.020000 refreshes it, the probe at 1.020010, the hook call at rq clock 1.020200: the
# refresh's evaluation is at 1.020200 (0.024200 s) with the blocked util decayed to 1.020200.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init tick_clock

line() { # COMM PID CPU FLAGS TIME REST
	printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"
}
trace() { # TICK_HOOK_FLAGS [EXTRA_LINE_BEFORE_THE_TICK_HOOK] [TIMER_FUNCTION]
	echo "# tracer: nop"
	line '<idle>' 0 1 d.h1. 0.996000 'hrtimer_expire_entry: hrtimer=00000000e10d721f function=tick_nohz_handler now=996000000'
	line '<idle>' 0 1 dNh2. 1.000100 'sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001'
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	line busy 30 1 d.h.. 1.004000 "hrtimer_expire_entry: hrtimer=00000000e10d721f function=${3:-tick_nohz_handler} now=1004000000"
	line '<idle>' 0 0 d..1. 1.004100 'cpu_idle: state=1 cpu_id=0'
	[ -z "${2:-}" ] || echo "$2"
	line busy 30 1 "$1" 1.004310 'sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=1004300000 flags=0'
	golden_hook busy 30 1 d..2. 1.010000 1010000000
	golden_switch 1 1.010000 busy 30 S swapper/1 0
	line '<idle>' 0 1 ..s1. 1.020000 'softirq_entry: vec=7 [action=SCHED]'
	line '<idle>' 0 1 ..s1. 1.020010 'update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1'
	line '<idle>' 0 1 d.s2. 1.020210 'sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=1020200000 flags=0'
	line '<idle>' 0 1 d..1. 1.030000 'cpu_idle: state=1 cpu_id=1'
}
trace d.h1. >"$tmp/t.txt"
trace d..2. >"$tmp/task.txt"
trace d.h1. '' hrtick >"$tmp/hrtick.txt"
trace d.h1. "$(line busy 30 1 d.h3. 1.004200 'sched_waking: comm=other pid=31 prio=120 target_cpu=000')" >"$tmp/waking.txt"

opts="--platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0
	--set freq_invariant=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0"
# the util of the timeline's row at TIME (s into the trace), or "none"
util_at() { # TIME TRACE --set...
	local t=$1 f=$2
	shift 2
	"$bin" run "$f" $opts "$@" --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $f $*: $(cat "$tmp/err")"; return; }
	awk -F, -v t="$t" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "util") c = i; next }
		$1 == t && $2 == 1 { u = $c } END { print (u == "" ? "none" : u) }' "$tmp/tl.csv"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
head() { local u=$1; echo $((u + u / 4)); }

at_hook=$(head "$(ref 1000100000:0 1004300000:1)")
at_stamp=$(head "$(ref 1000100000:0 1004000000:1)")
blocked=$(head "$(ref 1000100000:0 1010000000:1 1020200000:0)")
[ "$at_hook" != "$at_stamp" ] || golden_fail "the cases cannot tell the clocks apart"

golden_equal "the tick at its hook call's clock" "$(util_at 0.008300 "$tmp/t.txt")" "$at_hook"
golden_equal "the hrtick at its hook call's clock" "$(util_at 0.008300 "$tmp/hrtick.txt")" "$at_hook"
golden_equal "no row at the tick's stamp" "$(util_at 0.008000 "$tmp/t.txt")" none
golden_equal "rq_clock_traced=0" "$(util_at 0.008000 "$tmp/t.txt" --set rq_clock_traced=0)" \
	"$at_stamp"
golden_equal "a hook call in task context" "$(util_at 0.008000 "$tmp/task.txt")" "$at_stamp"
golden_equal "a sched_waking between" "$(util_at 0.008000 "$tmp/waking.txt")" "$at_stamp"
golden_equal "the softirq's refresh at its hook call's clock" \
	"$(util_at 0.024200 "$tmp/t.txt")" "$blocked"
exit $fail
