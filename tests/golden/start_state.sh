#!/bin/bash
# start_state.sh - the lab's snapshot of the kernel's PELT state as tracing starts (tools/lab/init
# writes "lab: start_se ..." per CFS task from /proc/PID/sched and "lab: start_cfs ..." per root
# cfs_rq): a task starts from its snapshot, decayed as blocked from its last_update_time to its
# first event, as the kernel's update at that wakeup decays a sleeping se
# (update_load_avg() -> __update_load_avg_se(), kernel/sched/fair.c and pelt.c, Debian 5.10 to
# 7.2), not from zero; its util_est is the snapshot's. --set start_state=0 ignores the snapshot.
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0: the snapshot (1.000000) has
# pid 30 on CPU 1 with util 300, last updated at 0.999000 s on the rq clock, util_est 350; pid
# 30 wakes onto CPU 1 at 1.010000. Its util_avg at that wakeup is
# tests/golden/lib/pelt_ref.py's for util 300 at 0.999000 (its sum util * divider) decayed to
# 1.010000; without the snapshot it starts at 0 (a task alive before the trace: zero sums).
# A task already in the trace before the snapshot's marker and asleep there takes the snapshot
# in place of what the replay built: busy runs 1.000150-1.002000, the snapshot (1.003000) says
# util 200 at its sleep (1.002000); at its next wakeup (1.020000) its util_avg is
# pelt_ref.py's for 200 at 1.002000 decayed to 1.020000.
# A snapshot's update_time later than its marker (a clock the trace cannot date) is dated at
# the marker; a malformed one is a malformed line (skipped with a warning; --strict: exit 3
# with its line).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init start_state

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # SNAPSHOT_FIELDS
	echo "# tracer: nop"
	ev init 1 0 ..... 1.000000 "tracing_mark_write: lab: start_se cpu=1 pid=30 $1"
	ev init 1 0 ..... 1.000001 "tracing_mark_write: lab: start_cfs cpu=1 load=310 runnable=300 util=300 enqueued=0"
	golden_switch 0 1.000010 swapper/0 0 R kw 20
	golden_switch 0 1.000020 kw 20 S swapper/0 0
	ev '<idle>' 0 1 dNh2. 1.010000 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.010050 swapper/1 0 R busy 30
	golden_switch 1 1.020000 busy 30 S swapper/1 0
}
trace "load=310 runnable=300 util=300 update_time=999000000 enqueued=350" >"$tmp/t.txt"
trace "load=310 runnable=300 util=300 update_time=1000500000 enqueued=350" >"$tmp/late.txt"
trace "load=310 runnable=300 util=x300 update_time=999000000 enqueued=350" >"$tmp/bad.txt"

{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000010 kw 20 S swapper/0 0
	ev '<idle>' 0 1 dNh2. 1.000100 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000150 swapper/1 0 R busy 30
	golden_switch 1 1.002000 busy 30 S swapper/1 0
	ev init 1 0 ..... 1.003000 "tracing_mark_write: lab: start_se cpu=1 pid=30 load=210 runnable=200 util=200 update_time=1002000000 enqueued=250"
	ev '<idle>' 0 1 dNh2. 1.020000 "sched_wakeup: comm=busy pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.020050 swapper/1 0 R busy 30
	golden_switch 1 1.021000 busy 30 S swapper/1 0
} >"$tmp/started.txt"

at_wakeup() { # TRACE FIELD(6: util_avg, 7: util_est) NTH --set...: pid 30's NTH wakeup
	local t=$1 f=$2 nth=$3
	shift 3
	"$bin" run "$t" --platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0 \
		--set rq_clock_offset_ns=0 "$@" --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t $*: $(cat "$tmp/err")"; return; }
	awk -F, -v f="$f" -v nth="$nth" 'NR > 1 && $2 == 30 && $5 == "wakeup" && ++n == nth { print $f }' \
		"$tmp/tt.csv"
}
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

want=$(ref init=999000000:300 1010000000:0)
[ "$want" != 300 ] && [ "$want" != 0 ] || golden_fail "the reference does not decay: $want"
golden_equal "util_avg at the first wakeup" "$(at_wakeup "$tmp/t.txt" 6 1)" "$want"
golden_equal "util_est at the first wakeup" "$(at_wakeup "$tmp/t.txt" 7 1)" 350
golden_equal "start_state=0" "$(at_wakeup "$tmp/t.txt" 6 1 --set start_state=0)" 0
golden_equal "a task started before the snapshot" \
	"$(at_wakeup "$tmp/started.txt" 6 2)" "$(ref init=1002000000:200 1020000000:0)"
golden_equal "a snapshot dated after its marker" "$(at_wakeup "$tmp/late.txt" 6 1)" \
	"$(ref init=1000000000:300 1010000000:0)"

"$bin" run "$tmp/bad.txt" --platform lab-2cpu --kernel v6.12 >/dev/null 2>"$tmp/err"
golden_equal "exit status of a malformed snapshot" "$?" 0
grep -q '1 malformed line skipped' "$tmp/err" || golden_fail "warning: $(cat "$tmp/err")"
"$bin" run "$tmp/bad.txt" --platform lab-2cpu --kernel v6.12 --strict >/dev/null 2>"$tmp/err"
golden_equal "exit status of a malformed snapshot, --strict" "$?" 3
grep -q "bad.txt':2: lab_start_se: bad util value 'x300'" "$tmp/err" ||
	golden_fail "message: $(cat "$tmp/err")"
exit $fail
