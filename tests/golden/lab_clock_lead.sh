#!/bin/bash
# lab_clock_lead.sh - tools/lab/clock-lead: how long before its stamp a switch's and a wakeup's
# rq clock was read, from the lab's hook probes (time=, the rq clock) and the recording's
# rq_clock_offset_ns. Counted by hand on a made trace, offsets 1000 ns (CPU 0) and 2000 ns
# (CPU 1):
#   switches (CPU 0): a task-context hook call, time=1000000000, then a sleep's switch at
#     1.000300: 1000300000 - (1000000000 + 1000) = 299 us; a D sleep's, time=1008000000, at
#     1.008400: 399 us; an idle kthread's (I), time=1009000000, at 1.009200: 199 us. Not
#     counted: a switch after a hook call in a hardirq (1.000500), one after a sched_waking
#     came between (1.001200), one from idle (1.001600: the clock update was skipped). Median
#     299.
#   sleep: the S and D switches' leads less their hook call's probes (the hook at 1.000100,
#     its last probe at 1.000140: 40 us; at 1.008100 and 1.008130: 30 us): 259 and 369 us, not
#     the I one. Median 314.
#   wakeups (on CPU 1): time=1002000000, sched_wakeup onto CPU 1 at 1.002100: 1002100000 -
#     (1002000000 + 2000) = 98 us; time=1003000000, onto CPU 0 (its offset) at 1.003059:
#     1003059000 - 1003001000 = 58 us. Not counted: one after CPU 1 idled between the probe and
#     the wakeup (1.004600; it would be 500 us). Three woken by CPU 1 itself, each with its
#     sched_waking first: 1.005070 - 1.005012 = 58 us, 1.006120 - 1.006022 = 98, 1.007100 -
#     1.007022 = 78. Median 78.
#   net: 299 - 78 = 221. Without offsets (none given, no facts file): nothing.
#   waking (the wakeups CPU 1 did itself, a hook call after the sched_waking): 1005010000 +
#     2000 - 1005000000 = 12 us (a sched_migrate_task between does not end the pairing),
#     1006020000 + 2000 - 1006000000 = 22 us; not the third, whose hrtimer_expire_entry came
#     between. Median 17.
#   pelt (a second trace, with the kernel's own PELT events; CPU 0): the first PELT or util_est
#     event in task context since the CPU's last scheduling event, less the clock of the first
#     task-context hook call after it, where a switch follows: 1010050000 - (1010000000 + 1000)
#     = 49 us (an S sleep); 1011030000 - 1011001000 = 29 (R); 1015040000 - 1015001000 = 39 (S,
#     the first of two calls). Not counted: an event in a hard interrupt (1.012010), a
#     sched_waking between (1.013040), a dying prev (Z, 1.014200), a switch from idle
#     (1.016100). Median 39.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_clock_lead
ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
hook() { ev "$1" "$2" "$3" "$4" "$5" "sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=$6 flags=0"; }
sw() { ev "$1" "$2" 0 d..2. "$3" "sched_switch: prev_comm=$1 prev_pid=$2 prev_prio=120 prev_state=$4 ==> next_comm=x next_pid=7 next_prio=120"; }
{
	echo "# tracer: nop"
	hook t 5 0 d..2. 1.000100 1000000000
	ev t 5 0 d..2. 1.000120 "resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=800000"
	ev t 5 0 d..2. 1.000140 "idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=7"
	sw t 5 1.000300 S
	hook x 7 0 d.h2. 1.000400 1000350000
	sw x 7 1.000500 R
	hook t 5 0 d..2. 1.001050 1001000000
	ev t 5 0 d..3. 1.001100 "sched_waking: comm=w pid=9 prio=120 target_cpu=001"
	sw t 5 1.001200 S
	hook swapper/0 0 0 d..2. 1.001500 1001450000
	sw swapper/0 0 1.001600 R
	hook '<idle>' 0 1 d.h2. 1.002050 1002000000
	ev '<idle>' 0 1 dNh2. 1.002100 "sched_wakeup: comm=w pid=9 prio=120 target_cpu=001"
	hook '<idle>' 0 1 d.h2. 1.003010 1003000000
	ev '<idle>' 0 1 d.h2. 1.003059 "sched_wakeup: comm=v pid=8 prio=120 target_cpu=000"
	hook '<idle>' 0 1 d.s2. 1.004050 1004098000
	ev '<idle>' 0 1 d..1. 1.004060 "cpu_idle: state=1 cpu_id=1"
	ev '<idle>' 0 1 dNh2. 1.004600 "sched_wakeup: comm=w pid=9 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.s4. 1.005000 "sched_waking: comm=a pid=11 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.s4. 1.005010 "sched_migrate_task: comm=a pid=11 prio=120 orig_cpu=0 dest_cpu=1"
	hook '<idle>' 0 1 d.s5. 1.005020 1005010000
	ev '<idle>' 0 1 dNs5. 1.005070 "sched_wakeup: comm=a pid=11 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.s4. 1.006000 "sched_waking: comm=b pid=12 prio=120 target_cpu=001"
	hook '<idle>' 0 1 d.s5. 1.006030 1006020000
	ev '<idle>' 0 1 dNs5. 1.006120 "sched_wakeup: comm=b pid=12 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.s4. 1.007000 "sched_waking: comm=c pid=13 prio=120 target_cpu=001"
	ev '<idle>' 0 1 d.h4. 1.007005 "hrtimer_expire_entry: hrtimer=0000000012345678 function=tick_nohz_handler now=1007000000"
	hook '<idle>' 0 1 d.h5. 1.007030 1007020000
	ev '<idle>' 0 1 dNh5. 1.007100 "sched_wakeup: comm=c pid=13 prio=120 target_cpu=001"
	hook u 20 0 d..2. 1.008100 1008000000
	ev u 20 0 d..2. 1.008130 "idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=8"
	sw u 20 1.008400 D
	hook k 21 0 d..2. 1.009100 1009000000
	sw k 21 1.009200 I
} | gzip >"$tmp/t.txt.gz"
lead() { "$GOVSIM_SOURCE_DIR/tools/lab/clock-lead" "$tmp/t.txt.gz" "$@"; }
golden_equal "switch" "$(lead switch 1000:2000)" 299
golden_equal "wakeup" "$(lead wakeup 1000:2000)" 78
golden_equal "net" "$(lead net 1000:2000)" 221
golden_equal "waking" "$(lead waking 1000:2000)" 17
golden_equal "sleep" "$(lead sleep 1000:2000)" 314
golden_equal "no offsets" "$(lead net)" ""
golden_equal "no PELT events" "$(lead pelt 1000:2000)" ""

util_est() { ev "$1" "$2" 0 "$3" "$4" "sched_util_est_cfs: cpu=0 path=/ enqueued=0 ewma=0 util=100"; }
pelt_se() { ev "$1" "$2" 0 "$3" "$4" "sched_pelt_se: cpu=0 path=(null) comm=$1 pid=$2 load=9 rbl_load=9 util=9 update_time=$5"; }
{
	echo "# tracer: nop"
	util_est t 5 d..3. 1.010050
	pelt_se t 5 d..3. 1.010080 1010000000
	hook t 5 0 d..2. 1.010100 1010000000
	sw t 5 1.010300 S
	pelt_se x 7 d..3. 1.011030 1011000000
	hook x 7 0 d..2. 1.011060 1011000000
	sw x 7 1.011200 R
	pelt_se x 7 d.h3. 1.012010 1012000000
	hook x 7 0 d..2. 1.012100 1012000000
	sw x 7 1.012300 S
	util_est x 7 d..3. 1.013020
	ev x 7 0 d..3. 1.013040 "sched_waking: comm=w pid=9 prio=120 target_cpu=001"
	hook x 7 0 d..2. 1.013060 1013000000
	sw x 7 1.013200 S
	util_est x 7 d..3. 1.014030
	hook x 7 0 d..2. 1.014050 1014000000
	sw x 7 1.014200 Z
	util_est x 7 d..3. 1.015040
	hook x 7 0 d..2. 1.015060 1015000000
	hook x 7 0 d..2. 1.015070 1015020000
	sw x 7 1.015200 S
	pelt_se swapper/0 0 d..3. 1.016010 1016000000
	hook swapper/0 0 0 d..2. 1.016020 1016000000
	sw swapper/0 0 1.016100 R
} | gzip >"$tmp/pelt.txt.gz"
golden_equal "pelt" "$("$GOVSIM_SOURCE_DIR/tools/lab/clock-lead" "$tmp/pelt.txt.gz" pelt 1000:2000)" 39
echo "rq_clock_offset_ns = 1000:2000" >"$tmp/t.facts"
golden_equal "offsets from the facts file" "$(lead net)" 221
exit $fail
