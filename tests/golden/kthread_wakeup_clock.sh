#!/bin/bash
# kthread_wakeup_clock.sh - the governor kthread's run is accounted from its wakeup's clock.
# try_to_wake_up() of sugov:N reads the target rq's clock (ttwu_queue() -> update_rq_clock())
# and, the kthread being a DL task above every CFS task (and the idle task), preempts the CPU's
# task: check_preempt_curr() (wakeup_preempt() from v6.7) calls resched_curr() and then, the
# current task queued and marked, rq_clock_skip_update() (kernel/sched/core.c, Debian 5.10 to
# 7.2). The __schedule() that switches to the kthread skips its clock update, so
# put_prev_task_fair() ends the preempted task's run and set_next_task_dl() starts the
# kthread's at the wakeup's clock, and put_prev_task_dl() accrues avg_dl over the kthread's
# whole time on the CPU from there (deadline.c: update_dl_rq_load_avg(..., 1)).
#
# A hand-made lab-4cpu-shared trace (a slow path) under v6.1, not frequency-invariant, so
# clock_pelt is the rq clock, with the rq clock known (rq_clock_offset_ns) and
# waking_clock_lag_us=5: each wakeup's clock is its sched_waking's stamp + 5 us (as any task's,
# tests/golden/waking_clock.sh):
#  - CPU 0 runs work (pid 10) from 1.000000; sugov:0 is woken onto CPU 0 (sched_waking at
#    1.002000, sched_wakeup with need-resched, N, at 1.002010), runs from 1.002800 and sleeps
#    at 1.003800;
#  - CPU 1 is idle; sugov:0 is woken onto it at 1.010000 (1.010010), runs from 1.010600 to
#    1.011600.
# avg_dl's util_avg after each run (the timeline's util_dl at the next evaluation of the CPU)
# is tests/golden/lib/pelt_ref.py's for a signal updated idle at the run's start and running to
# its end: the start at the wakeup's clock (1.002005, 1.010005), not at the switch's stamp.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kthread_wakeup_clock

line() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
kwake() { # CPU COMM PID TIME(waking) TIME(wakeup)
	line "$2" "$3" "$1" d.h3. "$4" "sched_waking: comm=sugov:0 pid=120 prio=-1 target_cpu=00$1"
	line "$2" "$3" "$1" dNh4. "$5" "sched_wakeup: comm=sugov:0 pid=120 prio=-1 target_cpu=00$1"
}
{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R work 10
	kwake 0 work 10 1.002000 1.002010
	line work 10 0 d..2. 1.002800 "sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=sugov:0 next_pid=120 next_prio=-1"
	line sugov:0 120 0 d..2. 1.003800 "sched_switch: prev_comm=sugov:0 prev_pid=120 prev_prio=-1 prev_state=S ==> next_comm=work next_pid=10 next_prio=120"
	kwake 1 '<idle>' 0 1.010000 1.010010
	line '<idle>' 0 1 d..2. 1.010600 "sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sugov:0 next_pid=120 next_prio=-1"
	line sugov:0 120 1 d..2. 1.011600 "sched_switch: prev_comm=sugov:0 prev_pid=120 prev_prio=-1 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
	golden_switch 0 1.014000 work 10 S swapper/0 0
} >"$tmp/k.txt"

"$bin" run "$tmp/k.txt" --platform lab-4cpu-shared --kernel v6.1 --timing traced \
	--set rate_limit_us=0 --set freq_invariant=0 --set rq_clock_offset_ns=0 --set waking_clock_lag_us=5 \
	--timeline "$tmp/tl.csv" >"$tmp/run.txt" 2>&1 || golden_fail "run: exit $?: $(tail -n 3 "$tmp/run.txt")"

# util_dl of CPU C at its first evaluation at or after T s (relative to the trace's start)
util_dl() { awk -F, -v c="$1" -v t="$2" 'NR > 1 && $2 == c && $1 + 0 >= t { print $7; exit }' "$tmp/tl.csv"; }
ref() { golden_pelt_ref "$@"; }

busy=$(ref 1002005000:0 1003800000:1)
idle=$(ref 1010005000:0 1011600000:1)
golden_equal "busy CPU: avg_dl from the wakeup's clock 1.002005 to 1.003800" "$(util_dl 0 0.0038)" "$busy"
golden_equal "idle CPU: avg_dl from the wakeup's clock 1.010005 to 1.011600" "$(util_dl 1 0.0116)" "$idle"
# the answers the switch stamps would give are other numbers: the test can tell them apart
[ "$busy" != "$(ref 1002800000:0 1003800000:1)" ] || golden_fail "busy: the stamps give the same figure"
[ "$idle" != "$(ref 1010600000:0 1011600000:1)" ] || golden_fail "idle: the stamps give the same figure"
# the preempted task's run ends at the wakeup's clock too: work's util at the switch to the
# kthread (the evaluation at its clock, 1.002005) is a run from 1.000000 to 1.002005
golden_equal "work's run ends at the kthread's wakeup clock" \
	"$(awk -F, 'NR > 1 && $2 == 0 && $1 + 0 >= 0.002001 { print $1 ":" $4; exit }' "$tmp/tl.csv")" \
	"0.002005:$(ref 1000000000:0 1002005000:1)"
exit $fail
