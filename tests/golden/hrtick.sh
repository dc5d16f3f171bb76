#!/bin/bash
# hrtick.sh - the scheduler's high-resolution tick. With HRTICK on (Debian 7.2 sets it:
# CONFIG_HRTIMER_REARM_DEFERRED in kernel/sched/features.h), hrtick_start_fair() arms a timer
# at the running task's slice end while other tasks are queued, and hrtick() (kernel/sched/
# core.c) runs the donor's task_tick(rq, curr, queued=1): for a fair task entity_tick() ->
# update_curr(), update_load_avg(UPDATE_TG), and task_tick_fair() returns before the rest of a
# tick (kernel/sched/fair.c, Debian 7.2); no load balancing. The update calls cpufreq when a
# PELT period ended since the cfs_rq's last update, so the trace's hrtimer_expire_entry of
# function=hrtick is an update point like the tick.
#
# A hand-made lab-2cpu trace under v7.2 with rate_limit_us=0: CPU 0 runs a task from 1.000000,
# its tick at 1.004000; hrticks at 1.002600, 1.003000 and 1.003600. PELT periods are 1024*1024
# ns of the rq clock (offset 0 here): 1.002600 is in the period from 1.002438, 1.003000 in the
# same one (no update, so no evaluation), 1.003600 in the next (from 1.003487). At 1.002600
# and 1.003600 the CPU's util equals tests/golden/lib/pelt_ref.py's root cfs_rq, updated at
# 1.000000 (idle until then) and at each hrtick.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init hrtick

line() { printf '%16s-%-5s [000] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5"; }
timer() { line work 10 d.h1. "$1" "hrtimer_expire_entry: hrtimer=00000000aa function=$2 now=0"; }
{
	echo "# tracer: nop"
	line swapper/0 0 d..2. 1.000000 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120"
	timer 1.002600 hrtick
	timer 1.003000 hrtick
	timer 1.003600 hrtick
	timer 1.004000 tick_nohz_handler
	line work 10 d..2. 1.005000 "sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
} >"$tmp/hr.txt"

"$bin" run "$tmp/hr.txt" --platform lab-2cpu --kernel v7.2 --timing traced \
	--set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0 \
	--timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" || golden_fail "run failed: $(cat "$tmp/err")"
cfs_at() { awk -F, -v t="$1" 'NR > 1 && $2 == 0 && $1 == t { v = $4 } END { print v }' "$tmp/tl.csv"; }
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }
golden_equal "util at the hrtick of 1.002600" "$(cfs_at 0.002600)" "$(ref 1000000000:0 1002600000:1)"
golden_equal "no evaluation at the hrtick of 1.003000 (same PELT period)" "$(cfs_at 0.003000)" ""
golden_equal "util at the hrtick of 1.003600" "$(cfs_at 0.003600)" \
	"$(ref 1000000000:0 1002600000:1 1003600000:1)"
exit $fail
