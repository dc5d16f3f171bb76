#!/bin/bash
# switch_clock_lead.sh - the rq clock of a switch and of a wakeup, before their stamps.
# __schedule() reads the rq clock first (update_rq_clock()), dequeues a sleeping task at that
# clock, and traces sched_switch only after picking the next task; try_to_wake_up() updates
# the clock, enqueues, and traces sched_wakeup after (kernel/sched/core.c, Debian 5.10 to 7.2).
# --set switch_clock_lead_us / wakeup_clock_lead_us move the switch's and the wakeup's PELT
# updates that much before their stamps, never before the rq's last clock update.
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0: busy (pid 30) wakes onto idle
# CPU 1 at 1.000100 (the idle task is preempted, so __schedule() skips its clock update: busy
# runs from the wakeup's clock), switches in at 1.000150 and sleeps at 1.010000. Its util_avg
# at that sleep is tests/golden/lib/pelt_ref.py's for a task attached at the wakeup's clock and
# running to the switch's:
#   no leads:                 1.000100 to 1.010000
#   switch lead 100 us:       1.000100 to 1.009900
#   and wakeup lead 30 us:    1.000070 to 1.009900
# In a second trace other (pid 31) wakes onto CPU 1 at 1.009970, while busy runs: busy's sleep
# at 1.010000 with a switch lead of 200 us would be at 1.009800, before the rq's clock update at
# that wakeup, so it is at 1.009970.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init switch_clock_lead

wake() { # CPU TIME COMM PID TARGET
	printf '%16s-%-5s [%03d] dNh2. %12s: sched_wakeup: comm=%s pid=%s prio=120 target_cpu=%03d\n' \
		'<idle>' 0 "$1" "$2" "$3" "$4" "$5"
}
{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	wake 1 1.000100 busy 30 1
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	golden_switch 1 1.010000 busy 30 S swapper/1 0
} >"$tmp/t.txt"
{
	head -5 "$tmp/t.txt"
	wake 0 1.009970 other 31 1
	golden_switch 1 1.010000 busy 30 S other 31
	golden_switch 1 1.011000 other 31 S swapper/1 0
} >"$tmp/c.txt"

# util_avg of busy at its sleep (the task timeline's row at 0.010000 s)
util_at_sleep() {
	golden_util_at_sleep "$1" --platform lab-2cpu --kernel v6.12 --timing traced \
		--set rate_limit_us=0 --set rq_clock_offset_ns=0 "${@:2}"
}
ref() { golden_pelt_ref "$@"; }

no_lead=$(ref 1000100000:0 1010000000:1)
golden_equal "no leads" "$(util_at_sleep "$tmp/t.txt")" "$no_lead"
with_switch=$(ref 1000100000:0 1009900000:1)
with_both=$(ref 1000070000:0 1009900000:1)
bounded=$(ref 1000100000:0 1009970000:1)
[ "$with_switch" != "$no_lead" ] && [ "$with_both" != "$with_switch" ] &&
	[ "$bounded" != "$(ref 1000100000:0 1009800000:1)" ] ||
	golden_fail "the cases cannot tell the leads apart"
golden_equal "switch lead 100 us" \
	"$(util_at_sleep "$tmp/t.txt" --set switch_clock_lead_us=100)" "$with_switch"
golden_equal "switch lead 100 us, wakeup lead 30 us" \
	"$(util_at_sleep "$tmp/t.txt" --set switch_clock_lead_us=100 --set wakeup_clock_lead_us=30)" \
	"$with_both"
golden_equal "a switch lead bounded by the rq's last update" \
	"$(util_at_sleep "$tmp/c.txt" --set switch_clock_lead_us=200)" "$bounded"

# a bad value is refused with its key, exit 2
"$bin" run "$tmp/t.txt" --platform lab-2cpu --set switch_clock_lead_us=2000000 >/dev/null \
	2>"$tmp/err"
golden_equal "exit status of a lead over 1 s" "$?" 2
grep -q 'switch_clock_lead_us=2000000: more than 1 s' "$tmp/err" ||
	golden_fail "message: $(cat "$tmp/err")"
exit $fail
