#!/bin/bash
# exit_move_clock.sh - an exiting task's move to its group, at the clock the trace's hook calls show.
# do_exit() traces sched_process_exit, then (after exit_mm() and the like) moves the task with
# sched_autogroup_exit_task() -> sched_move_task(): dequeue, detach, attach, enqueue, each
# update of the root cfs_rq calling schedutil's hook at one rq clock (kernel/exit.c,
# kernel/sched/core.c and autogroup.c, Debian 5.10 to 7.2). On the lab's guests the move comes
# tens of microseconds to milliseconds after the event. Where the lab's probes show the hook,
# the replay makes the move at the second call of the exiting task with the clock of its
# previous one (src/sim/kernel_points.c sim_exit_move_point).
#
# A hand-made lab-2cpu trace under v6.1 (rate_limit_us=0, rq_clock_offset_ns=0: a hook's time=
# is its trace time; cur 800000 kHz, so a raw frequency is util * 1000000 / 1024). spin (pid 11)
# runs on idle CPU 0 from 1.000100 and reaches sched_process_exit at 1.002500; the move's three
# hook calls read rq clock 1.003000, each followed by the kernel's evaluation (resolve_freq):
# the dequeue's, with the task: tests/golden/lib/pelt_ref.py 1000100000:0 1003000000:1 = 59
# (raw 57617); the detach's, without it: 0; the attach's: 59 again. Expected by hand: the
# emulation's three evaluations at 1.003000 pair with the kernel's three, every error 0. At
# sched_process_exit (the replay's moment before) the util was pelt_ref's 49 and the evaluations
# 600 us before the kernel's: none paired (checked below against that expectation).
#
# A hook call inside a sched_waking of the exiting task (until that task's sched_wakeup) is the
# wakeup's enqueue's, not the move's, even two at one clock, where the exiting task's CPU makes
# that enqueue: here the wakee's CPU 1 runs a task, so the waker enqueues it under CPU 1's rq
# lock and traces its sched_wakeup (core.c ttwu_queue(), Debian 6.1): the move stays at
# 1.003000.
#
# Onto a CPU with nothing queued the wakeup goes through that CPU's wakelist from v6.0: its
# wakeup IPI makes the enqueue and traces sched_wakeup, there (ttwu_queue_cond(), Debian 6.1
# l.3880). The exiting CPU's hook calls while that IPI is pending are its own: the move's, made
# at 1.003000 and paired as above. Under v5.10 (ttwu_queue_cond() l.2683: the wakelist only for
# a wakee still on a CPU) the waker would have enqueued it, so the same calls are taken as the
# wakeup's and the move waits for the dying switch at 1.003800: no evaluation pairs.
#
# A wakee still running on its CPU when it is woken (it is descheduling: its __schedule() has
# dequeued it, its switch-out is traced after the waking) goes through its CPU's wakelist on
# every kernel here where nothing else is queued there (try_to_wake_up(): p->on_cpu, then
# ttwu_queue_wakelist(); 5.10 l.2683 with WF_ON_CPU, 6.1 l.3880 nr_running without the wakee):
# the calls are the move's under v5.10 and v6.1 alike.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init exit_move_clock

want_util=$(/usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000100000:0 1003000000:1)
[ "$want_util" = 59 ] || golden_fail "pelt_ref.py gives $want_util, the comment above says 59"
raw=$((want_util * 1000000 / 1024))

trace() { # EXTRA_LINES_AFTER_THE_EXIT
	cat <<TRACE
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [000] d.h2.     1.000300: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1000300000 flags=0
            spin-11      [000] .....     1.002500: sched_process_exit: comm=spin pid=11 prio=120 group_dead=true
$1
            spin-11      [000] d..2.     1.003100: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003105: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$raw
            spin-11      [000] d..2.     1.003110: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003115: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=0
            spin-11      [000] d..2.     1.003120: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003125: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$raw
            spin-11      [000] d..2.     1.003800: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
}
evals() { # TRACE_FILE [KERNEL]
	"$bin" validate "$1" --platform lab-2cpu --kernel "${2:-v6.1}" --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set sched_autogroup=1 \
		>"$tmp/out.txt" 2>"$tmp/err" || golden_fail "validate $1 failed: $(cat "$tmp/err")"
	grep -A1 "kernel's own evaluations" "$tmp/out.txt" | tail -n 1 | sed 's/ (update points.*//'
}
paired="    3; 3 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 0 without"

trace "" >"$tmp/move.txt"
golden_equal "the move at its hook calls' clock" "$(evals "$tmp/move.txt")" "$paired"

busy='          <idle>-0       [001] d..2.     1.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=busy next_pid=13 next_prio=120'
waking='            spin-11      [000] d..3.     1.002600: sched_waking: comm=other pid=12 prio=120 target_cpu=001
            spin-11      [000] d..2.     1.002650: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1002640000 flags=0
            spin-11      [000] d..2.     1.002660: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1002640000 flags=0
            spin-11      [000] d..3.     1.002700: sched_wakeup: comm=other pid=12 prio=120 target_cpu=001'
trace "$waking" | sed "2a\\$busy" >"$tmp/waking.txt"
grep -q 'next_comm=busy' "$tmp/waking.txt" || golden_fail "the busy CPU 1 line is missing"
golden_equal "hook calls inside a sched_waking the waker enqueues are the wakeup's" \
	"$(evals "$tmp/waking.txt")" "$paired"

trace '            spin-11      [000] d..3.     1.002600: sched_waking: comm=other pid=12 prio=120 target_cpu=001' |
	sed '/prev_state=Z/i\          <idle>-0       [001] dNh2.     1.003300: sched_wakeup: comm=other pid=12 prio=120 target_cpu=001' \
		>"$tmp/ipi.txt"
golden_equal "v6.1: the wakeup IPI enqueues onto an idle CPU, the hook calls are the move's" \
	"$(evals "$tmp/ipi.txt")" "$paired"
golden_equal "v5.10: the waker would enqueue, the hook calls are the wakeup's" \
	"$(evals "$tmp/ipi.txt" v5.10)" \
	"    3; 0 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 0.0% within 10); 3 without"
trace '            spin-11      [000] d..3.     1.002600: sched_waking: comm=other pid=12 prio=120 target_cpu=001' |
	sed -e '2a\          <idle>-0       [001] d..2.     1.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=other next_pid=12 next_prio=120' \
	    -e '/prev_state=Z/i\           other-12      [001] d..2.     1.003200: sched_switch: prev_comm=other prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\
          <idle>-0       [001] dNh2.     1.003300: sched_wakeup: comm=other pid=12 prio=120 target_cpu=001' \
		>"$tmp/oncpu.txt"
[ "$(grep -c 'comm=other' "$tmp/oncpu.txt")" = 4 ] || golden_fail "the descheduling wakee's lines are missing"
for k in v5.10 v6.1; do
	golden_equal "$k: a wakee still on its CPU is enqueued there, the hook calls are the move's" \
		"$(evals "$tmp/oncpu.txt" $k)" "$paired"
done
exit $fail
