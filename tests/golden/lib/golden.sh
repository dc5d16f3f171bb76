# golden.sh - what the golden scripts share (sourced, not a test: ctest runs golden/*.sh).
#
#   . "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
#   golden_init NAME      # cd to the source tree; bin, exp, tmp (removed at exit), fail=0
#   golden_fail MSG...    # "NAME: MSG" on stdout, and the script fails
#   golden_check WHAT STATUS     # fails with WHAT unless STATUS (a condition's exit status,
#                         # as $(test ...; echo $?) gives it) is 0
#   golden_equal WHAT GOT WANT   # fails unless the strings GOT and WANT are equal
#   golden_same WHAT WANT GOT    # fails unless the files WANT and GOT are equal (shows the
#                         # first lines of the diff)
#   golden_empty WHAT FILE       # fails unless FILE (say, a command's stderr) is empty
#   golden_expect OUT EXPECTED   # OUT must equal the reviewed EXPECTED file; with
#                         # GOVSIM_GOLDEN_UPDATE=1 it is copied there instead (the update gate
#                         # first checks the invariants every run must satisfy)
#   golden_cmd NAME STATUS CMD...  # CMD's stdout and stderr, then "exit N", must be the reviewed
#                         # $exp/NAME.txt (golden_expect), and N must be STATUS
#   golden_db_dump DB     # the results database as SQL text, its creation times blanked
#   exit $fail

golden_init() {
	me=$1
	cd "${GOVSIM_SOURCE_DIR:?}" || exit 1
	. tests/golden/lib/update_gate.sh
	bin=${GOVSIM_BIN:?GOVSIM_BIN is not set}
	exp=tests/golden/expected
	fail=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

golden_fail() {
	echo "$me: $*"
	fail=1
}

golden_check() {
	[ "$2" = 0 ] || golden_fail "$1"
}

golden_equal() {
	[ "$2" = "$3" ] || golden_fail "$1: got '$2', want '$3'"
}

golden_same() {
	if ! diff -u "$2" "$3" >"$tmp/golden_same.diff"; then
		head -40 "$tmp/golden_same.diff"
		golden_fail "$1: '$3' differs from '$2'"
	fi
}

golden_empty() {
	if [ -s "$2" ]; then
		head -5 "$2"
		golden_fail "$1: '$2' is not empty"
	fi
}

golden_expect() {
	if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$1" "$2"
	elif ! diff -u "$2" "$1"; then
		golden_fail "'$1' differs from $2"
	fi
}

golden_cmd() {
	local name=$1 want=$2 out status
	shift 2
	out="$tmp/$name.txt"
	"$@" >"$out" 2>&1
	status=$?
	echo "exit $status" >>"$out"
	[ "$status" = "$want" ] || golden_fail "$name: exit status $status, expected $want"
	golden_expect "$out" "$exp/$name.txt"
}

# golden_switch CPU TIME PREV PREV_PID PREV_STATE NEXT NEXT_PID: one sched_switch line of ftrace
# text (prio 120 both sides), for traces written in a script.
golden_switch() {
	printf '%16s-%-5s [%03d] d..2. %12s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%s next_prio=120\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}

# golden_line COMM PID CPU TIME REST: one line of ftrace text (flags d..2.) whose event and
# fields are REST ("cpu_frequency: state=... cpu_id=..."), for traces written in a script.
golden_line() {
	printf '%16s-%-5s [%03d] d..2. %12s: %s\n' "$1" "$2" "$3" "$4" "$5"
}

# golden_hook COMM PID CPU FLAGS TIME RQ_CLOCK_NS: the lab's probe on schedutil's hook of a
# single-CPU policy (sugov_update_single_freq, time= the rq clock it was called with). A running
# fair task's dequeue that ends a PELT period of the root cfs_rq calls the hook
# (update_load_avg(), kernel/sched/fair.c); in a trace with the probe, a sleep after a run
# that crossed a period boundary since the last update shows its call.
golden_hook() {
	printf '%16s-%-5s [%03d] %s %12s: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x230) time=%s flags=0\n' \
		"$1" "$2" "$3" "$4" "$5" "$6"
}

# golden_lab_timeline TRACE KERNEL [ARG...]: govsim run of TRACE on lab-2cpu under the KERNEL
# profile in traced timing, with schedutil's rate limit 0, fast switch and the rq clock at trace
# time, its --timeline in $tmp/tl.csv; a failure (and status 1) when the run fails.
golden_lab_timeline() {
	local trace=$1 kernel=$2
	shift 2
	"$bin" run "$trace" --platform lab-2cpu --kernel "$kernel" --timing traced \
		--set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0 \
		--timeline "$tmp/tl.csv" "$@" >"$tmp/out.txt" 2>&1 && return 0
	golden_fail "run $trace --kernel $kernel failed: $(head -3 "$tmp/out.txt")"
	return 1
}

# golden_lab_validate TRACE KERNEL [ARG...]: govsim validate of TRACE on lab-2cpu under the
# KERNEL profile, with schedutil's rate limit 0, fast switch and the rq clock at trace time, its
# output in $tmp/out.txt; a failure (and status 1) when validate fails.
golden_lab_validate() {
	local trace=$1 kernel=$2
	shift 2
	"$bin" validate "$trace" --platform lab-2cpu --kernel "$kernel" --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 "$@" >"$tmp/out.txt" \
		2>"$tmp/err" && return 0
	golden_fail "$kernel: validate $trace failed: $(head -3 "$tmp/err")"
	return 1
}

# golden_wakes_twice: a trace in which task T (pid 40) wakes on idle CPU 1 at 1.000000 (the
# wakeup run there), runs 1.000100-1.000200, wakes there again at 1.010000 and runs
# 1.010100-1.011000: a task's two wakeups on an idle CPU, the second after its cfs_rq decayed.
golden_wakes_twice() {
	echo "# tracer: nop"
	golden_line "<idle>" 0 1 1.000000 "sched_wakeup: comm=T pid=40 prio=120 target_cpu=001"
	golden_switch 1 1.000100 swapper/1 0 R T 40
	golden_switch 1 1.000200 T 40 S swapper/1 0
	golden_line "<idle>" 0 1 1.010000 "sched_wakeup: comm=T pid=40 prio=120 target_cpu=001"
	golden_switch 1 1.010100 swapper/1 0 R T 40
	golden_switch 1 1.011000 T 40 S swapper/1 0
}

# golden_util_at_sleep TRACE [RUN_ARG...]: `govsim run TRACE RUN_ARG...` and the util_avg of
# pid 30 at its sleep, from the task timeline (a failed run is a failure, and prints nothing).
golden_util_at_sleep() {
	local t=$1
	shift
	"$bin" run "$t" "$@" --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t $*: $(cat "$tmp/err")"; return; }
	awk -F, 'NR > 1 && $2 == 30 && $5 == "sleep" { print $6 }' "$tmp/tt.csv"
}

# golden_sleep_cols TRACE PID [RUN_ARG...]: `govsim run TRACE` on lab-2cpu in traced timing with
# the rq clock at trace time (and RUN_ARG...), and the EEVDF columns vlag_ns/delayed of PID's
# first sleep row in the task timeline, or its GOLDEN_SLEEP_N-th (a failed run is a failure,
# and prints nothing).
golden_sleep_cols() {
	local t=$1 pid=$2
	shift 2
	"$bin" run "$t" --platform lab-2cpu --timing traced --set rq_clock_offset_ns=0 "$@" \
		--task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
		{ golden_fail "run $t $*: $(cat "$tmp/err")"; return; }
	awk -F, -v p="$pid" -v n="${GOLDEN_SLEEP_N:-1}" \
		'NR > 1 && $2 == p && $5 == "sleep" && ++k == n { print $9 "/" $10; exit }' "$tmp/tt.csv"
}

# golden_pelt_ref ARG...: tests/golden/lib/pelt_ref.py's util for a task's history
golden_pelt_ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

# golden_tick COMM PID CPU TIME: the scheduler tick's hrtimer_expire_entry (tick_sched_timer).
golden_tick() {
	golden_line "$1" "$2" "$3" "$4" "hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1"
}

golden_db_dump() {
	cp "$1" "$1.dump.db"
	sqlite3 "$1.dump.db" "UPDATE runs SET created_at = ''" && sqlite3 "$1.dump.db" .dump
}
