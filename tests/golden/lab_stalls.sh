#!/bin/bash
# lab_stalls.sh - tools/lab/stalls counts the gaps of more than 8 ms between consecutive events
# of a CPU that is running a task (the host kept the guest's vCPU off a core: its 4-ms ticks are
# missing). On a hand-made trace whose answer is counted by hand: CPU 0 runs pid 100 from 1.000
# with ticks every 4 ms, then one silence of 20 ms (1.012 -> 1.032) and one of exactly 8 ms
# (1.036 -> 1.044, not more than 8: not a stall); CPU 1 is idle through a 50-ms silence (no
# stall); CPU 0 then switches to idle and is silent 30 ms (no stall). Want 1 gap, 20 ms, max 20.
# With a 5-ms limit the 8-ms gap counts too: 2 gaps, 28 ms.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_stalls.sh
ev() { printf '          %s [%03d] d..2.  %s: %s\n' "$1" "$2" "$3" "$4"; }
tick='hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_nohz_handler now=1'
{
	echo '# tracer: nop'
	ev '<idle>-0' 0 1.000000 'sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=100 next_prio=120'
	ev '<idle>-0' 1 1.000500 'cpu_idle: state=1 cpu_id=1'
	for t in 1.004000 1.008000 1.012000 1.032000 1.036000 1.044000; do ev 'w-100' 0 $t "$tick"; done
	ev '<idle>-0' 1 1.050500 'cpu_idle: state=4294967295 cpu_id=1'
	ev 'w-100' 0 1.046000 'sched_switch: prev_comm=w prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120'
	ev '<idle>-0' 0 1.076000 'cpu_idle: state=1 cpu_id=0'
} | gzip >"$tmp/t.txt.gz"
golden_equal "default limit" "$(tools/lab/stalls "$tmp/t.txt.gz")" "1 20 20.0"
golden_equal "5-ms limit" "$(tools/lab/stalls "$tmp/t.txt.gz" 5)" "2 28 20.0"
tools/lab/stalls >/dev/null 2>&1
golden_equal "no argument: exit status" "$?" 2
exit $fail
