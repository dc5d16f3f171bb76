#!/bin/bash
# ran_since_start.sh - a task running when the trace starts. Its CPU's events show it current
# (the comm-pid column) from the start, but its name and class come only with its first switch
# out; the replay then starts it as having run since the first event. The kernel's ticks meanwhile
# updated its load (entity_tick -> update_load_avg), which clears util_est's UTIL_AVG_UNCHANGED,
# so at that first sleep util_est_update() learns from it (kernel/sched/fair.c, Debian 6.12:
# util_est_update() skips only when PELT did not update the task since its enqueue; an
# increase sets the EWMA to the dequeued util at once).
#
# A hand-made lab-2cpu trace under v6.12: CPU 0's switch at 1.000000 is the first scheduling
# event; CPU 1 shows `busy` (pid 30) current at every tick from 1.004 to 1.396 and switches it
# out asleep at 1.400000. Its util_avg then is tests/golden/lib/pelt_ref.py's, running from
# 1.000000 to 1.400000, and its util_est (EWMA) the same value; it wakes at 2.4 with that
# estimate (util_est does not decay in sleep).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init ran_since_start

sw() { # CPU TIME PREV PREV_PID PREV_STATE NEXT NEXT_PID
	printf '%16s-%-5s [%03d] d..2. %12s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%s next_prio=120\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
{
	echo "# tracer: nop"
	sw 0 1.000000 swapper/0 0 R kw 20
	sw 0 1.000100 kw 20 S swapper/0 0
	for ms in $(seq 4 4 396); do
		printf '%16s-%-5s [001] d.h1. %12s: hrtimer_expire_entry: hrtimer=00000000aa function=tick_nohz_handler now=0\n' \
			busy 30 "$(printf '1.%03d000' "$ms")"
	done
	sw 1 1.400000 busy 30 S swapper/1 0
	printf '%16s-%-5s [001] dNh2. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' '<idle>' 0 2.400000
	sw 1 2.400010 swapper/1 0 R busy 30
	sw 1 2.401000 busy 30 S swapper/1 0
} >"$tmp/t.txt"

"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel v6.12 --timing traced \
	--set rate_limit_us=0 --set rq_clock_offset_ns=0 \
	--task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" || golden_fail "run failed: $(cat "$tmp/err")"
# time_s,pid,comm,cpu,event,util_avg,util_est_enqueued,util_est_ewma
row() { awk -F, -v t="$1" -v e="$2" 'NR > 1 && $2 == 30 && $1 == t && $5 == e { print $'"$3"' }' "$tmp/tt.csv"; }
want=$(python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000000000:0 1400000000:1)
golden_equal "util_avg at the first sleep" "$(row 0.400000 sleep 6)" "$want"
golden_equal "util_est (EWMA) at the first sleep" "$(row 0.400000 sleep 8)" "$want"
golden_equal "util_est at the wakeup" "$(row 1.400000 wakeup 7)" "$want"
exit $fail
