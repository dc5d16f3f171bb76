#!/bin/bash
# sugov_dl.sh - the governor's kthread sugov:N runs in the DL class, and its runs build the rq's
# avg_dl as the kernel's do: sugov:N is a "special" DL entity (SCHED_FLAG_SUGOV), which only
# keeps it out of the bandwidth accounting and cpufreq kicks (add_running_bw(),
# update_curr_dl()); set_next_task_dl(), put_prev_task_dl() and task_tick_dl() update avg_dl
# for it like for any DL task (kernel/sched/deadline.c, Debian 5.10, 6.1 and 7.2). Under v6.8+
# effective_cpu_util() adds cpu_util_dl() to the CPU's util (kernel/sched/fair.c, Debian 6.12
# and 7.2), so a slow path's long driver call raises its own CPU's request.
#
# A hand-made lab-2cpu trace: CPU 0 runs a task from 1.000000; sugov:0 preempts it at 1.000500
# and runs until 1.009000 (the CPU's ticks at 1.004 and 1.008 fall in that run); the task runs
# again until 1.010000. avg_dl is updated at 1.000500 (set_next_task_dl, not running), at the
# ticks and at 1.009000 (running), and at no other time; tests/golden/lib/pelt_ref.py computes
# its util_avg after each of those from the kernel's formulas. The --timeline rows of CPU 0
# (its evaluations) show it in util_dl.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sugov_dl

line() { printf '%16s-%-5s [000] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5"; }
sw() { # TIME PREV PREV_PID PREV_PRIO PREV_STATE NEXT NEXT_PID NEXT_PRIO
	line "$2" "$3" d..2. "$1" "sched_switch: prev_comm=$2 prev_pid=$3 prev_prio=$4 prev_state=$5 ==> next_comm=$6 next_pid=$7 next_prio=$8"
}
tick() { line sugov:0 120 d.h1. "$1" "hrtimer_expire_entry: hrtimer=00000000aa function=tick_sched_timer now=0"; }
{
	echo "# tracer: nop"
	sw 1.000000 swapper/0 0 120 R work 10 120
	sw 1.000500 work 10 120 R sugov:0 120 -1
	tick 1.004000
	tick 1.008000
	sw 1.009000 sugov:0 120 -1 S work 10 120
	sw 1.010000 work 10 120 S swapper/0 0 120
} >"$tmp/dl.txt"

"$bin" run "$tmp/dl.txt" --platform lab-2cpu --kernel v6.12 --timing traced \
	--set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0 \
	--timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" || golden_fail "run failed: $(cat "$tmp/err")"
dl_at() { awk -F, -v t="$1" 'NR > 1 && $2 == 0 && $1 == t { v = $7 } END { print v }' "$tmp/tl.csv"; }
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
golden_equal "avg_dl at the tick in sugov:0's run (1.004)" "$(dl_at 0.004000)" \
	"$(ref 1000500000:0 1004000000:1)"
golden_equal "avg_dl when sugov:0 sleeps (1.009)" "$(dl_at 0.009000)" \
	"$(ref 1000500000:0 1004000000:1 1008000000:1 1009000000:1)"
golden_equal "avg_dl after, not updated (1.010)" "$(dl_at 0.010000)" \
	"$(ref 1000500000:0 1004000000:1 1008000000:1 1009000000:1)"
[ "$(dl_at 0.009000)" -gt 0 ]
golden_check "the replay ran sugov:0 (avg_dl above 0 at 1.009)" $?
exit $fail
