#!/bin/bash
# kthread_traced.sh - a slow path's run and driver call follow the governor kthread the trace
# shows (cpufreq/kthread.h). A hand-made lab-4cpu-shared trace (one policy of CPUs 0-3, a 10-us
# switch latency, no fast switch) with --set transition_us=3000:
#  - sugov:0 runs once at 0.999 with nothing to do: the replay learns the kthread (pid 120);
#  - CPU 0's task starts at 1.000000: schedutil's first evaluation asks for 800 MHz (from the
#    3000 MHz of start_freq=max);
#  - the trace then wakes sugov:0 (1.000020, the irq_work's wakeup) and runs it on CPU 1 from
#    1.000100; its driver call sleeps in D from 1.001000 to 1.004500 (as scpi-cpufreq's
#    mailbox wait does: not the end of the run), and its cpu_frequency for CPU 0 comes at
#    1.005000, the kernel's decision.
# By the kernel's slow path (sugov_deferred_update() -> irq_work -> sugov_work(), Debian 6.1),
# the emulated kthread reads 800 MHz when the traced one runs, and the frequency is in force at
# the traced call's end: 1.005000, 0.0 ms from the kernel's. With kthread_traced=0 the model's
# constants apply instead: 1.000000 + 10 us + 3000 us = 1.003010, 1.99 ms early.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kthread_traced

line() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
sw() { # CPU TIME PREV PREV_PID PREV_PRIO PREV_STATE NEXT NEXT_PID NEXT_PRIO
	line "$3" "$4" "$1" d..2. "$2" "sched_switch: prev_comm=$3 prev_pid=$4 prev_prio=$5 prev_state=$6 ==> next_comm=$7 next_pid=$8 next_prio=$9"
}
waking() { line "$2" "$3" "$1" d.h3. "$4" "sched_waking: comm=sugov:0 pid=120 prio=-1 target_cpu=001"; }
{
	echo "# tracer: nop"
	waking 1 '<idle>' 0 0.999000
	sw 1 0.999100 swapper/1 0 120 R sugov:0 120 -1
	sw 1 0.999200 sugov:0 120 -1 S swapper/1 0 120
	sw 0 1.000000 swapper/0 0 120 R work 10 120
	waking 0 work 10 1.000020
	sw 1 1.000100 swapper/1 0 120 R sugov:0 120 -1
	sw 1 1.001000 sugov:0 120 -1 D swapper/1 0 120
	for ms in 004 008 012 016 020; do
		line work 10 0 d.h1. "1.$ms""000" "hrtimer_expire_entry: hrtimer=00000000aa function=tick_sched_timer now=0"
	done
	sw 1 1.004500 swapper/1 0 120 R sugov:0 120 -1
	for c in 0 1 2 3; do
		line sugov:0 120 1 ..... "1.00500$c" "cpu_frequency: state=800000 cpu_id=$c"
	done
	sw 1 1.005010 sugov:0 120 -1 S swapper/1 0 120
	sw 0 1.022000 work 10 120 S swapper/0 0 120
} | sort -s -k4,4n >"$tmp/k.txt"

explain() { # KTHREAD_TRACED: the decision line of validate --explain
	"$bin" validate "$tmp/k.txt" --platform lab-4cpu-shared --kernel v6.1 --explain \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0 --set start_freq=max \
		--set transition_us=3000 --set kthread_traced="$1" >"$tmp/v$1.txt" 2>&1 ||
		golden_fail "validate kthread_traced=$1: exit $?: $(tail -n 3 "$tmp/v$1.txt")"
	grep -E '^ +1\.005000 policy0 +kernel' "$tmp/v$1.txt" | sed 's/.*)  //'
}
golden_equal "traced kthread: the change at the traced call's end" "$(explain 1)" "agree +0.0 ms"
golden_equal "model constants: request + 10 us + 3000 us" "$(explain 0)" "agree -2.0 ms"
"$bin" run "$tmp/k.txt" --platform lab-4cpu-shared --kernel v6.1 --timing traced \
	--set rate_limit_us=0 --set rq_clock_offset_ns=0 --set start_freq=max \
	--set transition_us=3000 >"$tmp/run.txt" 2>&1 || golden_fail "run: exit $?"
golden_equal "the run's note: one call, timed by the traced kthread" \
	"$(grep -o "policy0's slow path followed the trace's sugov:0 kthread: [0-9]* of [0-9]*" "$tmp/run.txt")" \
	"policy0's slow path followed the trace's sugov:0 kthread: 1 of 1"
golden_equal "model constants: |dt|" \
	"$(awk '$1 == "v6.1" && $2 == "policy0" { print $7 }' "$tmp/v0.txt")" "1.99"
exit $fail
