#!/bin/bash
# sleep_clock_lead.sh - a switch whose prev sleeps (S, D) read the rq clock sleep_clock_lead_us
# before its stamp. __schedule() calls update_rq_clock() first, then dequeues the sleeping prev
# (try_to_block_task()), picks the next task (on a CPU about to idle, after a newidle balance)
# and only then traces sched_switch (kernel/sched/core.c, Debian 5.10 to 7.2): the dequeue's
# PELT update, the end of prev's run, comes at that clock. The lab measures the lead on the
# sleeping switches whose dequeue called schedutil's hook (tools/lab/clock-lead sleep) and
# writes it in the recording's facts; a preempted prev (R) is only put back, so its switch keeps
# switch_clock_lead_us, as does an idle kthread's sleep (I).
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0, switch_clock_lead_us=10,
# sleep_clock_lead_us=200: t (pid 30) wakes on idle CPU 1 at 1.000000 and runs from there (from
# idle, __schedule() skips its clock update), and is switched out at 1.003600. A PELT period
# of the rq clock ends at 1.003487232 (1024 * 1024 ns periods from its zero): the run ends
# before it with the sleep lead (1.003400) and after it with the other (1.003590), so t's
# util_avg at that switch, tests/golden/lib/pelt_ref.py's for a run from 1.000000 to either,
# tells them apart. R: t is preempted by o (woken at 1.002000, no need-resched shown then:
# no clock skip).
# The lead from a recording's facts file, as tools/lab/record writes it.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sleep_clock_lead

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # PREV_STATE
	echo "# tracer: nop"
	ev '<idle>' 0 1 dNh2. 1.000000 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000050 swapper/1 0 R t 30
	if [ "$1" = R ]; then
		ev t 30 1 d..3. 1.002000 "sched_wakeup: comm=o pid=31 prio=120 target_cpu=001"
		golden_switch 1 1.003600 t 30 R o 31
	else
		golden_switch 1 1.003600 t 30 "$1" swapper/1 0
	fi
}
for st in S D I R; do trace $st >"$tmp/$st.txt"; done

# util_at_switch STATE [RUN_ARG...]: t's util_avg at its switch-out (its sleep or preempt row)
util_at_switch() {
	local st=$1
	shift
	"$bin" run "$tmp/$st.txt" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rq_clock_offset_ns=0 --set switch_clock_lead_us=10 "$@" \
		--task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $st: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && ($5 == "sleep" || $5 == "preempt") { print $6 }' "$tmp/tt.csv"
}
ref() { golden_pelt_ref "$@"; }
lead=$(ref 1000000000:0 1003400000:1)
net=$(ref 1000000000:0 1003590000:1)
[ "$lead" != "$net" ] || golden_fail "the cases cannot tell the leads apart"
golden_equal "S: the sleep lead" "$(util_at_switch S --set sleep_clock_lead_us=200)" "$lead"
golden_equal "D: the sleep lead" "$(util_at_switch D --set sleep_clock_lead_us=200)" "$lead"
golden_equal "I: the switch lead" "$(util_at_switch I --set sleep_clock_lead_us=200)" "$net"
golden_equal "R: the switch lead" "$(util_at_switch R --set sleep_clock_lead_us=200)" "$net"
golden_equal "S without a sleep lead: the switch lead" "$(util_at_switch S)" "$net"

# the facts file beside the trace (tools/lab/record writes the lead there)
cp "$tmp/S.txt" "$tmp/lab.txt"
printf 'platform = lab-2cpu\nrq_clock_offset_ns = 0:0\nswitch_clock_lead_us = 10\n%s\n' \
	'sleep_clock_lead_us = 200' >"$tmp/lab.facts"
"$bin" run "$tmp/lab.txt" --kernel v6.12 --timing traced --task-timeline "$tmp/tt.csv" \
	>/dev/null 2>"$tmp/note" || golden_fail "run with the facts: $(cat "$tmp/note")"
grep -q "sleep_clock_lead_us=200" "$tmp/note" || golden_fail "not in the note: $(cat "$tmp/note")"
golden_equal "the facts' sleep lead" \
	"$(awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { print $6 }' "$tmp/tt.csv")" "$lead"
exit $fail
