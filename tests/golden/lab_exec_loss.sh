#!/bin/bash
# lab_exec_loss.sh - tools/lab/exec-loss on a hand-made recording: three execs, each task with
# two sched_pelt_se samples around its rename (4 ms apart, util 300 at the first) and its
# sched_process_exec after. tests/golden/lib/pelt_ref.py gives what a task running over the
# interval reaches; task 50's second sample is that (no loss), task 51's is 5 below it (the
# sync cost 5), and task 52 switched out between its samples (not counted: it did not run
# throughout).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_exec_loss.sh

run=$(golden_pelt_ref init=1004000256:300 1008000256:1)
se() { # TIME CPU COMM PID UTIL UPDATE_TIME
	echo "            $3-$4     [00$2] d.h1.     $1: sched_pelt_se: cpu=$2 path=(null) comm=$3 pid=$4 load=1024 rbl_load=$5 util=$5 update_time=$6"
}
{
	echo "# tracer: nop"
	se 1.004100 0 sh 50 300 1004000256
	se 1.004100 1 sh 51 300 1004000256
	se 1.004100 0 sh 52 300 1004000256
	echo "              sh-52      [000] d..2.     1.006000: sched_switch: prev_comm=sh prev_pid=52 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	se 1.008100 0 cat 50 "$run" 1008000256
	se 1.008100 1 cat 51 $((run - 5)) 1008000256
	se 1.008100 0 cat 52 "$run" 1008000256
	echo "             cat-50      [000] .....     1.009000: sched_process_exec: filename=/bin/cat pid=50 old_pid=50"
	echo "             cat-51      [001] .....     1.009500: sched_process_exec: filename=/bin/cat pid=51 old_pid=51"
	echo "             cat-52      [000] .....     1.010000: sched_process_exec: filename=/bin/cat pid=52 old_pid=52"
} | gzip >"$tmp/t.txt.gz"
python3 tools/lab/exec-loss "$tmp/t.txt.gz" >"$tmp/out.txt" 2>&1 || golden_fail "exec-loss failed: $(cat "$tmp/out.txt")"
grep -q "pid 50 sh -> cat .*kernel $run, running $run, lost 0\$" "$tmp/out.txt" ||
	golden_fail "task 50: want 'lost 0' at $run: $(cat "$tmp/out.txt")"
grep -q "pid 51 sh -> cat .*kernel $((run - 5)), running $run, lost 5\$" "$tmp/out.txt" ||
	golden_fail "task 51: want 'lost 5': $(cat "$tmp/out.txt")"
grep -q "pid 52" "$tmp/out.txt" && golden_fail "task 52 switched out between its samples but is counted"
grep -q "^3 execs: 1 lost more than 1 unit, 1 within 1, 0 gained more than 1; 1 without" "$tmp/out.txt" ||
	golden_fail "summary: $(tail -2 "$tmp/out.txt")"
grep -q "the event came 0.9 to 1.4 ms after it" "$tmp/out.txt" ||
	golden_fail "lags: $(tail -1 "$tmp/out.txt")"
exit $fail
