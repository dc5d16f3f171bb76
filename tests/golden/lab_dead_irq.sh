#!/bin/bash
# lab_dead_irq.sh - tools/lab/dead-irq: whether the interrupt a CPU traces first after a task's
# death ran before the task's util left (the root sched_pelt_cfs inside it still over 70 % of
# the one before the death), and the window that classifies the most cases right. A made trace,
# counted by hand:
#   CPU 0: root util 600, a dies at 1.000100, the tick at 1.000150 and its softirq's root update
#     540 (> 420): "before", gap 50 us.
#   CPU 1: root util 500, b dies at 1.001000, cpu_idle (task context) at 1.001030, then the tick:
#     not counted (the CPU was back in task context first).
#   CPU 0: root util 600, c dies at 1.010000, the tick at 1.010400 and a root update 30: "after",
#     gap 400 us.
#   CPU 1: root util 150, d dies: under 200 before, not counted.
#   Windows 0 to 1000 by 50: right for both at 50 to 350 (the first, 50, is the best); 1 at 0
#   and from 400 on. Nothing but a usage message for a file without deaths.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_dead_irq
ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
cfs() { ev "$1" "$2" "$3" "$4" "$5" "sched_pelt_cfs: cpu=$3 path=/ load=$6 rbl_load=$6 util=$6 update_time=1"; }
die() { ev "$1" "$2" "$3" d..2. "$4" "sched_switch: prev_comm=$1 prev_pid=$2 prev_prio=120 prev_state=Z ==> next_comm=swapper/$3 next_pid=0 next_prio=120"; }
tick() { ev "<idle>" 0 "$1" d.h1. "$2" "hrtimer_expire_entry: hrtimer=00000000a518572e function=tick_nohz_handler now=1"; }
mkdir -p "$tmp/6.12"
{
	echo "# tracer: nop"
	cfs a 11 0 d..3. 1.000050 600
	die a 11 0 1.000100
	tick 0 1.000150
	ev "<idle>" 0 0 ..s1. 1.000200 "softirq_entry: vec=7 [action=SCHED]"
	cfs "<idle>" 0 0 d.s3. 1.000210 540
	cfs b 12 1 d..3. 1.000900 500
	die b 12 1 1.001000
	ev "<idle>" 0 1 d..1. 1.001030 "cpu_idle: state=1 cpu_id=1"
	tick 1 1.001100
	cfs "<idle>" 0 1 d.h3. 1.001120 480
	cfs c 13 0 d..3. 1.009900 600
	die c 13 0 1.010000
	tick 0 1.010400
	cfs "<idle>" 0 0 d.h3. 1.010420 30
	cfs d 14 1 d..3. 1.019900 150
	die d 14 1 1.020000
	tick 1 1.020050
	cfs "<idle>" 0 1 d.h3. 1.020060 140
} | gzip >"$tmp/6.12/t.txt.gz"
out=$("$GOVSIM_SOURCE_DIR/tools/lab/dead-irq" "$tmp/6.12/t.txt.gz") || golden_fail "dead-irq failed"
golden_equal "the cases" "$(grep '^6.12' <<<"$out")" "6.12  before: 50
6.12  after:  400"
golden_equal "the window" "$(grep '^best' <<<"$out")" "best window: 50 us (2 of 2 right; without one: 1)"
golden_equal "right at 0 and 400" "$(awk '$1 == 0 || $1 == 400 {print $1, $2}' <<<"$out")" "0 1
400 1"
"$GOVSIM_SOURCE_DIR/tools/lab/dead-irq" --check 50 "$tmp/6.12/t.txt.gz" >/dev/null ||
	golden_fail "--check 50 failed: 50 is a best window"
"$GOVSIM_SOURCE_DIR/tools/lab/dead-irq" --check 400 "$tmp/6.12/t.txt.gz" >/dev/null 2>"$tmp/err" &&
	golden_fail "--check 400 passed: 400 classifies 1 of 2 right"
grep -q "a window of 400 us classifies 1 right, the best 2" "$tmp/err" ||
	golden_fail "--check 400's message: $(cat "$tmp/err")"
exit $fail
