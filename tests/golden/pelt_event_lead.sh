#!/bin/bash
# pelt_event_lead.sh - a switch that traced the kernel's own PELT or util_est events read the rq
# clock pelt_event_lead_us before the first of them. __schedule() calls update_rq_clock() first,
# and only then the updates that print them: prev's dequeue (util_est_dequeue() traces
# sched_util_est_cfs, update_load_avg() sched_pelt_se and sched_pelt_cfs where a period ended),
# put_prev_entity(), set_next_entity() (kernel/sched/core.c, fair.c, Debian 5.10 to 7.2); then
# sched_switch. Each print costs the lab's TCG guests 15 to 50 us, so a switch's stamp less a
# lead measured without them ends its run late by their number. The first such event in task
# context since the CPU's last scheduling event, interrupt or cpu_idle is inside the switch's
# __schedule(): the switch is dated from it, unless a hook call dates it, and unless its prev
# dies (its exit's own path).
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0, switch_clock_lead_us=10,
# sleep_clock_lead_us=10, pelt_event_lead_us=150: t (pid 30) wakes on idle CPU 1 at 1.000000
# and runs from there (from idle, __schedule() skips its clock update); at 1.003500 its CPU
# traces a PELT event, and at 1.003600 it is switched out. A PELT period of the rq clock ends at
# 1.003487232 (1024 * 1024 ns periods from its zero), so t's util_avg at its switch,
# tests/golden/lib/pelt_ref.py's for a run from 1.000000, tells the ends apart:
#   S, R (preempted by o), I with the event in task context     1.003350 (1.003500 - 150 us)
#   the same without pelt_event_lead_us                          1.003500 (the event itself)
#   the event in a hard interrupt (a tick's update)              1.003590 (the stamp less 10 us)
#   a sched_waking of CPU 1 after the event (other work)         1.003590
#   a hook call in task context after the event, clock 1.003450  1.003450 (the call's clock)
#   the lead from the recording's facts file                     1.003350
# A wakeup is dated the same way from its enqueue's first print, sched_util_est_cfs of its
# target's root cfs_rq in its own context (util_est_enqueue() comes first in
# enqueue_task_fair(), after try_to_wake_up() read the clock), unless a hook call or its
# sched_waking's lag dates it: woken by CPU 1's wakeup IPI at 1.000300, the print at 1.000100,
# t runs from 0.999950 (from idle, the switch keeps the wakeup's clock) to 1.003350; with the
# print in task context, or of CPU 0's rq, from the wakeup's stamp, 1.000300.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init pelt_event_lead

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # PREV_STATE FLAGS_OF_THE_EVENT [EXTRA_LINE_BEFORE_THE_SWITCH] [WAKEUP_PRINT]
	echo "# tracer: nop"
	if [ -n "${4:-}" ]; then
		ev '<idle>' 0 1 d..1. 0.990000 "cpu_idle: state=1 cpu_id=1"
		echo "$4"
		ev '<idle>' 0 1 dNh2. 1.000300 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	else
		ev '<idle>' 0 1 dNh2. 1.000000 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	fi
	golden_switch 1 1.000350 swapper/1 0 R t 30
	[ "$1" != R ] || ev t 30 1 d..3. 1.002000 "sched_wakeup: comm=o pid=31 prio=120 target_cpu=001"
	ev t 30 1 "$2" 1.003500 "sched_util_est_cfs: cpu=1 path=/ enqueued=0 ewma=0 util=70"
	ev t 30 1 "$2" 1.003520 "sched_pelt_se: cpu=1 path=(null) comm=t pid=30 load=70 rbl_load=70 util=70 update_time=1003350000"
	[ -z "${3:-}" ] || [ "$3" = - ] || echo "$3"
	if [ "$1" = R ]; then
		golden_switch 1 1.003600 t 30 R o 31
	else
		golden_switch 1 1.003600 t 30 "$1" swapper/1 0
	fi
}
for st in S R I; do trace $st d..3. >"$tmp/$st.txt"; done
trace S d.h3. >"$tmp/irq.txt"
trace S d..3. "$(ev t 30 1 d..3. 1.003560 "sched_waking: comm=w pid=32 prio=120 target_cpu=000")" \
	>"$tmp/waking.txt"
trace S d..3. "$(ev t 30 1 d..2. 1.003570 "sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=1003450000 flags=0")" \
	>"$tmp/hook.txt"
enq() { ev '<idle>' 0 1 "$1" 1.000100 "sched_util_est_cfs: cpu=$2 path=/ enqueued=70 ewma=0 util=0"; }
trace S d..3. - "$(enq d.h2. 1)" >"$tmp/wake.txt"
trace S d..3. - "$(enq d..2. 1)" >"$tmp/wake-task.txt"
trace S d..3. - "$(enq d.h2. 0)" >"$tmp/wake-rq0.txt"

# util_at_switch TRACE [RUN_ARG...]: t's util_avg at its switch-out (its sleep or preempt row)
util_at_switch() {
	local t=$1
	shift
	"$bin" run "$tmp/$t.txt" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rq_clock_offset_ns=0 --set switch_clock_lead_us=10 --set sleep_clock_lead_us=10 \
		"$@" --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && ($5 == "sleep" || $5 == "preempt") { print $6 }' "$tmp/tt.csv"
}
ref() { golden_pelt_ref 1000000000:0 "$1":1; }
anchored=$(ref 1003350000)
first=$(ref 1003500000)
stamp=$(ref 1003590000)
hook=$(ref 1003450000)
[ "$anchored" != "$first" ] && [ "$first" != "$stamp" ] && [ "$anchored" != "$hook" ] ||
	golden_fail "the cases cannot tell the clocks apart: $anchored $first $stamp $hook"
lead="--set pelt_event_lead_us=150"
# shellcheck disable=SC2086 # the option and its value
{
	golden_equal "S: from the first PELT event" "$(util_at_switch S $lead)" "$anchored"
	golden_equal "R: from the first PELT event" "$(util_at_switch R $lead)" "$anchored"
	golden_equal "I: from the first PELT event" "$(util_at_switch I $lead)" "$anchored"
	golden_equal "in an interrupt: the stamp less the lead" "$(util_at_switch irq $lead)" "$stamp"
	golden_equal "a sched_waking between: the stamp less the lead" \
		"$(util_at_switch waking $lead)" "$stamp"
	golden_equal "a hook call: its clock" "$(util_at_switch hook $lead)" "$hook"
}
golden_equal "S without the setting: the event itself" "$(util_at_switch S)" "$first"
woken=$(golden_pelt_ref 999950000:0 1003350000:1)
stamp_woken=$(golden_pelt_ref 1000300000:0 1003350000:1)
[ "$woken" != "$stamp_woken" ] || golden_fail "the wakeup cases cannot tell the clocks apart"
# shellcheck disable=SC2086 # the option and its value
{
	golden_equal "a wakeup: from its enqueue's print" "$(util_at_switch wake $lead)" "$woken"
	golden_equal "a wakeup, the print in task context: its stamp" \
		"$(util_at_switch wake-task $lead)" "$stamp_woken"
	golden_equal "a wakeup, the print of another rq: its stamp" \
		"$(util_at_switch wake-rq0 $lead)" "$stamp_woken"
}

# the facts file beside the trace (tools/lab/record writes the lead there)
cp "$tmp/S.txt" "$tmp/lab.txt"
printf 'platform = lab-2cpu\nrq_clock_offset_ns = 0:0\nswitch_clock_lead_us = 10\n%s\n%s\n' \
	'sleep_clock_lead_us = 10' 'pelt_event_lead_us = 150' >"$tmp/lab.facts"
"$bin" run "$tmp/lab.txt" --kernel v6.12 --timing traced --task-timeline "$tmp/tt.csv" \
	>/dev/null 2>"$tmp/note" || golden_fail "run with the facts: $(cat "$tmp/note")"
grep -q "pelt_event_lead_us=150" "$tmp/note" || golden_fail "not in the note: $(cat "$tmp/note")"
golden_equal "the facts' lead" \
	"$(awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { print $6 }' "$tmp/tt.csv")" "$anchored"
exit $fail
