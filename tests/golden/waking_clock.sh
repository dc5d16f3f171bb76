#!/bin/bash
# waking_clock.sh - a wakeup's enqueue at the rq clock read just after its sched_waking.
# try_to_wake_up() traces sched_waking, chooses the CPU (select_task_rq(), set_task_cpu()),
# then ttwu_queue() locks the target rq and reads its clock (update_rq_clock()), enqueues and
# traces sched_wakeup last (kernel/sched/core.c, Debian 5.10 to 7.2). Where the CPU that traced
# sched_waking also traces the sched_wakeup, it did that work itself; the clock was read
# waking_clock_lag_us after the sched_waking (the lab measures it, tools/lab/clock-lead waking).
# A wakeup traced by its target's wakeup IPI (sched_ttwu_pending()) read the clock there: its
# stamp stays. A traced call of schedutil's hook in between gives the clock itself.
#
# A hand-made lab-2cpu trace under v6.12, not frequency-invariant (the lab's guests), the
# governor live from 1.000030 (governor_start_ns): busy (pid 30) is woken from a softirq on
# idle CPU 1, sched_waking at 1.000050, sched_wakeup at 1.000400 (under TCG the enqueue and its
# tracepoints take guest time), runs from 1.000450 (a wakeup onto an idle CPU asks
# __schedule() to skip its clock update: the run starts at the wakeup's clock) and sleeps at
# 1.010000 (its dequeue ends a PELT period: the hook call at rq clock 1.010000 shows it, as
# the kernel's update_load_avg() makes it). Its util_avg at that sleep is tests/golden/lib/pelt_ref.py's for a task attached
# at the wakeup's clock and running to 1.010000:
#   sched_waking's stamp (lag 0):                1.000050
#   waking_clock_lag_us=100:                     1.000150
#   the sched_wakeup's stamp (rq_clock_traced=0,
#     or the waking traced on the other CPU):    1.000400
#   a hook call between them (rq clock 1.000250): 1.000250
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init waking_clock

waking() { # CPU TIME
	printf '%16s-%-5s [%03d] d.s4. %12s: sched_waking: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 "$1" "$2"
}
wakeup() { # CPU TIME
	printf '%16s-%-5s [%03d] dNs5. %12s: sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001\n' \
		'<idle>' 0 "$1" "$2"
}
hook() { # TIME RQ_CLOCK_NS
	printf '%16s-%-5s [001] d.s5. %12s: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=%s flags=0\n' \
		'<idle>' 0 "$1" "$2"
}
trace() { # WAKING_CPU [HOOK]
	echo "# tracer: nop"
	golden_switch 0 0.990000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	waking "$1" 1.000050
	[ -z "${2:-}" ] || hook 1.000260 1000250000
	wakeup 1 1.000400
	golden_switch 1 1.000450 swapper/1 0 R busy 30
	golden_hook busy 30 1 d..2. 1.010000 1010000000
	golden_switch 1 1.010000 busy 30 S swapper/1 0
}
trace 1 >"$tmp/local.txt"
trace 0 >"$tmp/ipi.txt"
trace 1 hook >"$tmp/hook.txt"

opts="--platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0
	--set freq_invariant=0 --set governor_start_ns=1000030000 --set switch_latency_us=0
	--set rq_clock_offset_ns=0"
# util_avg of busy at its sleep (the task timeline's row at 0.010000 s)
util_at_sleep() { golden_util_at_sleep "$1" $opts "${@:2}"; }
ref() { golden_pelt_ref "$@"; }

waking=$(ref 1000050000:0 1010000000:1)
lag=$(ref 1000150000:0 1010000000:1)
stamp=$(ref 1000400000:0 1010000000:1)
hooked=$(ref 1000250000:0 1010000000:1)
[ "$waking" != "$lag" ] && [ "$waking" != "$stamp" ] && [ "$hooked" != "$stamp" ] &&
	[ "$hooked" != "$waking" ] || golden_fail "the cases cannot tell the clocks apart"

golden_equal "the clock at the sched_waking" "$(util_at_sleep "$tmp/local.txt")" "$waking"
golden_equal "waking_clock_lag_us=100" \
	"$(util_at_sleep "$tmp/local.txt" --set waking_clock_lag_us=100)" "$lag"
golden_equal "rq_clock_traced=0" \
	"$(util_at_sleep "$tmp/local.txt" --set rq_clock_traced=0)" "$stamp"
golden_equal "woken by the other CPU's IPI" "$(util_at_sleep "$tmp/ipi.txt")" "$stamp"
golden_equal "a hook call between the waking and the wakeup" \
	"$(util_at_sleep "$tmp/hook.txt" --set waking_clock_lag_us=100)" "$hooked"

# a lab recording's facts give the lag (the run's note names it)
printf 'waking_clock_lag_us = 100\nrq_clock_offset_ns = 0:0\n' >"$tmp/local.facts"
golden_equal "the facts' lag" "$(golden_util_at_sleep "$tmp/local.txt" --platform lab-2cpu \
	--kernel v6.12 --timing traced --set rate_limit_us=0 --set freq_invariant=0 \
	--set governor_start_ns=1000030000 --set switch_latency_us=0)" "$lag"
grep -q 'waking_clock_lag_us=100' "$tmp/err" || golden_fail "the note: $(cat "$tmp/err")"

# a bad value is refused with its key, exit 2
"$bin" run "$tmp/local.txt" --platform lab-2cpu --set waking_clock_lag_us=-1 >/dev/null 2>"$tmp/err"
golden_equal "exit status of waking_clock_lag_us=-1" "$?" 2
grep -q 'waking_clock_lag_us' "$tmp/err" || golden_fail "message: $(cat "$tmp/err")"
exit $fail
