#!/bin/bash
# rq_clock_traced.sh - a switch or a wakeup at the rq clock a traced call of schedutil's hook
# shows for it. __schedule() reads the rq clock, dequeues the sleeping task (its root cfs_rq
# update calls schedutil's hook) and traces sched_switch after the pick; try_to_wake_up() reads
# the target's clock, enqueues (the hook again) and traces sched_wakeup after
# (kernel/sched/core.c, Debian 5.10 to 7.2). The lab's kprobe event on the hook prints that clock
# (time=); trace time = rq clock + rq_clock_offset_ns.
#
# A hand-made lab-4cpu-shared trace under v6.12, not frequency-invariant (the lab's guests),
# the governor started at 1.000030 (governor_start_ns): kw (pid 20) ran on CPU 0 for 10 ms,
# and busy
# (pid 30) wakes onto idle CPU 1, stamped 1.000100 with a hook call in the interrupt at rq clock
# 1.000040; the idle task is preempted, so __schedule() skips its clock update and busy runs
# from the wakeup's clock; it sleeps at 1.010000 after a hook call outside interrupts at
# 1.009900. Its util_avg at that sleep is tests/golden/lib/pelt_ref.py's for a task attached at
# the first clock and running to the second:
#   traced clocks:                          1.000040 to 1.009900
#   rq_clock_traced=0, or no offsets known: 1.000100 to 1.010000 (the stamps)
#   the sleep's hook call in an interrupt:  1.000040 to 1.010000 (a tick's update: not the
#                                           switch's clock)
#   and rq_clock_offset_ns=0:50000:         1.000090 to 1.010000 (CPU 1's offset)
#   a sched_waking between the hook call and the switch: the same (other work ends the claim)
# The wakeup's evaluation is the governor's first: CPU 0's blocked util moves the shared policy
# from its maximum to a lower OPP at the stamp. On CPUs that are not frequency-invariant that
# reads no clock (the kernel's arch_set_freq_scale() only stores a scale), so busy is not left
# runnable-and-waiting from 1.000040 to 1.000100 (which would give 1.000040 idle to 1.000100,
# then running to 1.009900).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init rq_clock_traced

wake() { # CPU TIME COMM PID TARGET
	printf '%16s-%-5s [%03d] dNh2. %12s: sched_wakeup: comm=%s pid=%s prio=120 target_cpu=%03d\n' \
		'<idle>' 0 "$1" "$2" "$3" "$4" "$5"
}
hook() { # COMM PID CPU FLAGS TIME RQ_CLOCK_NS
	printf '%16s-%-5s [%03d] %s %12s: sugov_update_shared: (sugov_update_shared+0x4/0x240) time=%s flags=0\n' \
		"$1" "$2" "$3" "$4" "$5" "$6"
}
trace() { # FLAGS_OF_THE_SLEEP_HOOK [EXTRA_LINE_BEFORE_THE_SLEEP]
	echo "# tracer: nop"
	golden_switch 0 0.990000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	hook '<idle>' 0 1 d.h4. 1.000090 1000040000
	wake 1 1.000100 busy 30 1
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	hook busy 30 1 "$1" 1.009990 1009900000
	[ -z "${2:-}" ] || echo "$2"
	golden_switch 1 1.010000 busy 30 S swapper/1 0
}
trace d..2. >"$tmp/t.txt"
trace d.h2. >"$tmp/irq.txt"
trace d..2. "$(printf '%16s-%-5s [%03d] d..3. %12s: sched_waking: comm=other pid=31 prio=120 target_cpu=000' busy 30 1 1.009995)" >"$tmp/other.txt"

opts="--platform lab-4cpu-shared --kernel v6.12 --timing traced --set rate_limit_us=0
	--set freq_invariant=0 --set governor_start_ns=1000030000 --set switch_latency_us=0"
# util_avg of busy at its sleep (the task timeline's row at 0.010000 s)
util_at_sleep() { golden_util_at_sleep "$1" $opts "${@:2}"; }
ref() { golden_pelt_ref "$@"; }

traced=$(ref 1000040000:0 1009900000:1)
stamps=$(ref 1000100000:0 1010000000:1)
wake_only=$(ref 1000040000:0 1010000000:1)
offset=$(ref 1000090000:0 1010000000:1)
waited=$(ref 1000040000:0 1000100000:0 1009900000:1)
[ "$traced" != "$stamps" ] && [ "$offset" != "$wake_only" ] && [ "$wake_only" != "$traced" ] &&
	[ "$waited" != "$traced" ] || golden_fail "the cases cannot tell the clocks apart"

golden_equal "traced clocks" "$(util_at_sleep "$tmp/t.txt" --set rq_clock_offset_ns=0)" "$traced"
golden_equal "rq_clock_traced=0" \
	"$(util_at_sleep "$tmp/t.txt" --set rq_clock_offset_ns=0 --set rq_clock_traced=0)" "$stamps"
golden_equal "no offsets known" "$(util_at_sleep "$tmp/t.txt")" "$stamps"
golden_equal "the sleep's hook call in an interrupt" \
	"$(util_at_sleep "$tmp/irq.txt" --set rq_clock_offset_ns=0)" "$wake_only"
golden_equal "and rq_clock_offset_ns=0:50000" \
	"$(util_at_sleep "$tmp/irq.txt" --set rq_clock_offset_ns=0:50000)" "$offset"
golden_equal "a sched_waking between the hook call and the switch" \
	"$(util_at_sleep "$tmp/other.txt" --set rq_clock_offset_ns=0)" "$wake_only"
# the policy did move at the wakeup (else the first case would not show the waiting): the
# timeline's first evaluation, at the wakeup's clock (0.010040 s into the trace), left it lower
# (its first four rows, one per CPU of the policy; the fair server's start on CPU 1, v6.12,
# evaluates again after it)
"$bin" run "$tmp/t.txt" $opts --set rq_clock_offset_ns=0 --timeline "$tmp/tl.csv" >/dev/null \
	2>"$tmp/err" || golden_fail "run: $(cat "$tmp/err")"
golden_equal "the frequency after the wakeup's evaluation" \
	"$(awk -F, '$1 == "0.010040" && ++n == 4 { print $12 }' "$tmp/tl.csv")" 1200000

# a bad value is refused with its key, exit 2
"$bin" run "$tmp/t.txt" --platform lab-2cpu --set rq_clock_traced=2 >/dev/null 2>"$tmp/err"
golden_equal "exit status of rq_clock_traced=2" "$?" 2
grep -q 'rq_clock_traced' "$tmp/err" || golden_fail "message: $(cat "$tmp/err")"
exit $fail
