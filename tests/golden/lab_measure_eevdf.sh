#!/bin/bash
# lab_measure_eevdf.sh - tools/lab/measure-eevdf: govsim's EEVDF state (--task-timeline's vlag_ns
# and delayed) against the kernel's sched_eevdf_se events, counted by hand on a made trace.
#
# delay_dequeue.sh's first trace (lab-2cpu, v6.12, CPU 0, nice-0 tasks, base slice 1.4 ms;
# vruntimes in ms of each task's run) with a sched_waking before each wakeup, which govsim dates
# at the sched_waking (waking_clock.sh), after a first cycle of A alone (1.000000-1.000100, so
# that the model knows A's lag: a task's first sleep with its lag unknown is never delayed; its
# waking at 1.000400 has no event of the kernel's within 0.5 ms, and its sleep none before it):
# A (pid 20) runs from 1.000500; B (pid 30) is woken at
# 1.001400 (v_A = 0.9) and placed at lag 0 (v_B = 0.9); A sleeps at 1.002500 (v_A = 2.0 against
# the average 1.45: delayed, its lag left at 0); B runs and sleeps at 1.003500 (v_B = 1.9, the
# average with the delayed A 1.95: eligible, dequeued with lag 0.05 ms = 50000 ns); the idle
# pick dequeues A alone (lag 0). A wakes at 1.010000 (stored lag 0), B at 1.020000 (50000).
# The kernel's events written into it:
#   lag at wakeup (the first event after a sched_waking, not queued, not delayed, not curr):
#     B at 1.001450 vlag 0 (equal), A at 1.010020 vlag 5000 (5 us from govsim's 0: within
#     10 us), B at 1.020020 vlag 0 (50 us from govsim's 50000: neither): 3 wakeups, 33.3 %
#     equal, 66.7 % within 10 us
#   delayed sleeps (delayed=1 after the sleep, before the task's next sched_waking): A's at
#     1.002500 (event at 1.003000; govsim delayed it too) and B's at 1.003500 (event at
#     1.004000; govsim did not): 2, of which govsim delayed 50.0 %
#   govsim's delays of 2 ms and more: none (A's lasts 1 ms): 0, "-"
#
# A second trace, for govsim's long delays. A and B each run alone once first (1.000500 and
# 1.000700, 0.1 ms: their lags known, 0). A wakes on the idle CPU 0 at 1.010000 (placed alone:
# v_A = V), runs; B wakes at 1.011000 and is placed at lag 0 where A is (v_B = v_A - 0 = 1.0, in
# ms of A's run); A sleeps at 1.012000 with v_A = 2.0 against the average 1.5: not eligible,
# delayed. B runs until it sleeps at 1.015000 (its request, v_B + 1.4 ms, ends at 1.0134, and the
# model's tick comes at 1.016: no pick before), whose pick for the idle task dequeues A: a delay
# of 3 ms. The same from 1.020000 (A placed alone, B at 1.021000 where A is, v_B = 1.0), but A
# sleeps at 1.021500 (v_A = 1.5 against 1.25: delayed) and B's request is used up at 1.0229: the
# tick at 1.024000 reschedules, and its pick chooses A (v_A 1.5 against the average 2.5:
# eligible, with the earlier deadline) and dequeues it: 2.5 ms. The kernel's events: A delayed=1
# at 1.013000, inside the first delay, none in the second: 2 long delays, 50.0 % of them the
# kernel's too; and the first is a sleep the kernel delayed that govsim delayed (1, 100.0 %).
# No event follows a sched_waking: no lag compared.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_measure_eevdf

ev() { printf '%16s-%-5s [000] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5"; }
eevdf() { # COMM PID TIME EV_PID VLAG ON_RQ DELAYED
	ev "$1" "$2" d..3. "$3" "sched_eevdf_se: cpu=0 pid=$4 vruntime=1000 deadline=2400 vlag=$5 slice=1400000 on_rq=$6 delayed=$7 curr=0 avg_vruntime=0 avg_load=1024 base=1000 nr=1"
}
{
	echo "# tracer: nop"
	echo "# Linux version 6.12.95+deb12-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.12.95-1~bpo12+1 (2026-07-05)"
	golden_switch 0 1.000000 swapper/0 0 R A 20
	golden_switch 0 1.000100 A 20 S swapper/0 0
	ev '<idle>' 0 d.s4. 1.000400 "sched_waking: comm=A pid=20 prio=120 target_cpu=000"
	ev '<idle>' 0 dNs5. 1.000450 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.000500 swapper/0 0 R A 20
	ev A 20 d..3. 1.001400 "sched_waking: comm=B pid=30 prio=120 target_cpu=000"
	eevdf A 20 1.001450 30 0 0 0
	ev A 20 d..3. 1.001500 "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.002500 A 20 S B 30
	eevdf B 30 1.003000 20 0 1 1
	golden_switch 0 1.003500 B 30 S swapper/0 0
	eevdf '<idle>' 0 1.004000 30 0 1 1
	ev '<idle>' 0 d.s4. 1.010000 "sched_waking: comm=A pid=20 prio=120 target_cpu=000"
	eevdf '<idle>' 0 1.010020 20 5000 0 0
	ev '<idle>' 0 dNs5. 1.010100 "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 1.010150 swapper/0 0 R A 20
	golden_switch 0 1.011000 A 20 S swapper/0 0
	ev '<idle>' 0 d.s4. 1.020000 "sched_waking: comm=B pid=30 prio=120 target_cpu=000"
	eevdf '<idle>' 0 1.020020 30 0 0 0
	ev '<idle>' 0 dNs5. 1.020100 "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.020150 swapper/0 0 R B 30
	golden_switch 0 1.021000 B 30 S swapper/0 0
} | gzip >"$tmp/t.txt.gz"
printf 'platform = lab-2cpu\nrq_clock_offset_ns = 0:0\n' >"$tmp/t.facts"

m() { "$GOVSIM_SOURCE_DIR/tools/lab/measure-eevdf" --govsim "$bin" "$@"; }
out=$(m "$tmp/t.txt.gz" 2>"$tmp/err") || golden_fail "measure-eevdf: $(cat "$tmp/err")"
golden_equal "the trace's line" "$(echo "$out" | awk 'NR == 2 { $1 = ""; print substr($0, 2) }')" \
	"3 33.3 66.7 2 50.0 0 -"

# a round on CPU 0 from idle: A wakes at $1, B at $2; A sleeps at $3 (the kernel's delayed=1
# event of A at $5, if given), B at $4
round() {
	ev '<idle>' 0 d.s4. "$1" "sched_waking: comm=A pid=20 prio=120 target_cpu=000"
	ev '<idle>' 0 dNs5. "${1}1" "sched_wakeup: comm=A pid=20 prio=120 target_cpu=000"
	golden_switch 0 "${1}2" swapper/0 0 R A 20
	ev A 20 d..3. "$2" "sched_waking: comm=B pid=30 prio=120 target_cpu=000"
	ev A 20 d..3. "${2}1" "sched_wakeup: comm=B pid=30 prio=120 target_cpu=000"
	golden_switch 0 "$3" A 20 S B 30
	[ -z "${5:-}" ] || eevdf B 30 "$5" 20 -500000 1 1
	golden_switch 0 "$4" B 30 S swapper/0 0
}
{
	echo "# tracer: nop"
	echo "# Linux version 6.12.95+deb12-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.12.95-1~bpo12+1 (2026-07-05)"
	golden_switch 0 1.000500 swapper/0 0 R A 20
	golden_switch 0 1.000600 A 20 S swapper/0 0
	golden_switch 0 1.000700 swapper/0 0 R B 30
	golden_switch 0 1.000800 B 30 S swapper/0 0
	round 1.01000 1.01100 1.012000 1.015000 1.013000
	round 1.02000 1.02100 1.021500 1.025000
} | gzip >"$tmp/t2.txt.gz"
printf 'platform = lab-2cpu\nrq_clock_offset_ns = 0:0\n' >"$tmp/t2.facts"
out=$(m "$tmp/t2.txt.gz" 2>"$tmp/err") || golden_fail "measure-eevdf (t2): $(cat "$tmp/err")"
golden_equal "govsim's long delays" "$(echo "$out" | awk 'NR == 2 { $1 = ""; print substr($0, 2) }')" \
	"0 - - 1 100.0 2 50.0"
m --fail-below kernel=60 "$tmp/t2.txt.gz" >/dev/null 2>"$tmp/err"
golden_equal "exit status below the kernel floor" "$?" 1
grep -q 'kernel 50.0 % below 60 %' "$tmp/err" || golden_fail "message: $(cat "$tmp/err")"

m --fail-below lag=60,delayed=50 "$tmp/t.txt.gz" >/dev/null 2>"$tmp/err"
golden_equal "exit status at the floors" "$?" 0
m --fail-below lag=70 "$tmp/t.txt.gz" >/dev/null 2>"$tmp/err"
golden_equal "exit status below the lag floor" "$?" 1
grep -q 'lag 66.7 % below 70 %' "$tmp/err" || golden_fail "message: $(cat "$tmp/err")"
m --fail-below lags=70 "$tmp/t.txt.gz" >/dev/null 2>"$tmp/err"
golden_equal "exit status of a bad floor" "$?" 2
exit $fail
