#!/bin/bash
# undrivable.sh - traces that cannot drive the emulation are refused, not replayed.
#
# Checks, on small traces written here: a trace without sched_switch (wakeups, frequencies and
# idle states only) exits 3 naming what is missing, with either util source, and prints no
# summary; one without sched_switch but with the kernel's util events (an excerpt of
# sched_pelt_cfs lines) exits 3 too and says that its util events alone cannot drive a replay;
# --util-source trace on a trace with sched_switch but no per-CPU util event exits 3 naming the
# events it needs; a --db run of a refused trace stores no run. The same trace with its
# sched_switch lines replays (exit 0), as does a CSV util trace (it has no sched_switch by
# design). `trace info` agrees ("emulated util (sched_switch): no").
# Does not check: traces with sched_switch on some CPUs only.
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init undrivable

# run_expect NAME STATUS PATTERN ARGS...: exit STATUS, stderr holding PATTERN (fixed string)
run_expect() {
	local name=$1 want=$2 pat=$3 st
	shift 3
	"$bin" run "$@" >"$tmp/o" 2>"$tmp/e"
	st=$?
	[ "$st" = "$want" ] || golden_fail "$name: exit status $st, want $want; stderr: $(cat "$tmp/e")"
	[ -z "$pat" ] || grep -qF -- "$pat" "$tmp/e" || golden_fail "$name: stderr lacks '$pat': $(cat "$tmp/e")"
	if [ "$want" != 0 ] && [ -s "$tmp/o" ]; then
		golden_fail "$name: refused, yet printed: $(head -3 "$tmp/o")"
	fi
}

hdr='# tracer: nop
#
# entries-in-buffer/entries-written: 9/9   #P:8
#'
# a task on CPU 0 woken three times, the frequency and idle states: no sched_switch
{
	echo "$hdr"
	cat <<'EOF'
          <idle>-0     [000] d..2   10.000000: cpu_frequency: state=533000 cpu_id=0
          <idle>-0     [000] dnh3   10.001000: sched_wakeup: comm=work pid=42 prio=120 target_cpu=000
          <idle>-0     [000] .n.2   10.001010: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0     [000] dnh3   10.005000: sched_wakeup: comm=work pid=42 prio=120 target_cpu=000
          <idle>-0     [000] dnh3   10.009000: sched_wakeup: comm=work pid=42 prio=120 target_cpu=000
          <idle>-0     [000] d..2   10.012000: cpu_idle: state=1 cpu_id=0
EOF
} >"$tmp/noswitch.txt"
# the kernel's util of CPU 0 (root cfs_rq), and nothing else
{
	echo "$hdr"
	cat <<'EOF'
            work-42    [000] d..3   10.001500: sched_pelt_cfs: cpu=0 path=/ load=300000 runnable=300 util=300
            work-42    [000] d..3   10.005500: sched_pelt_cfs: cpu=0 path=/ load=350000 runnable=350 util=350
            work-42    [000] d..3   10.009500: sched_pelt_cfs: cpu=0 path=/ load=380000 runnable=380 util=380
EOF
} >"$tmp/utilonly.txt"
# the first trace with the task's switches: a trace that can be replayed
{
	echo "$hdr"
	cat <<'EOF'
          <idle>-0     [000] d..2   10.000000: cpu_frequency: state=533000 cpu_id=0
          <idle>-0     [000] dnh3   10.001000: sched_wakeup: comm=work pid=42 prio=120 target_cpu=000
          <idle>-0     [000] d..3   10.001010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=42 next_prio=120
            work-42    [000] d..3   10.003000: sched_switch: prev_comm=work prev_pid=42 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [000] dnh3   10.005000: sched_wakeup: comm=work pid=42 prio=120 target_cpu=000
          <idle>-0     [000] d..3   10.005010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=42 next_prio=120
            work-42    [000] d..3   10.007000: sched_switch: prev_comm=work prev_pid=42 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOF
} >"$tmp/ok.txt"
printf 'time_s,cpu,util,freq_khz\n0.000000,0,300,533000\n0.004000,0,350,533000\n0.008000,0,20,533000\n' \
	>"$tmp/util.csv"

for u in emulated trace; do
	for timing in work traced; do
		run_expect "no switch, util $u, $timing" 3 "'$tmp/noswitch.txt': no sched_switch events" \
			"$tmp/noswitch.txt" --util-source $u --timing $timing
		run_expect "util only, util $u, $timing" 3 "'$tmp/utilonly.txt': no sched_switch events" \
			"$tmp/utilonly.txt" --util-source $u --timing $timing
		grep -qF "util events" "$tmp/e" || golden_fail "util only: the message does not name its util events"
	done
done
run_expect "no switch, emulated" 3 "util cannot be emulated" "$tmp/noswitch.txt"
run_expect "switches, no util events, util trace" 3 \
	"'$tmp/ok.txt': --util-source trace: no per-CPU util events" "$tmp/ok.txt" --util-source trace
run_expect "switches" 0 "" "$tmp/ok.txt"
run_expect "csv util trace" 0 "" "$tmp/util.csv"

# a refused run stores nothing
"$bin" run "$tmp/noswitch.txt" --db "$tmp/r.db" >/dev/null 2>&1
if [ -f "$tmp/r.db" ]; then
	n=$(sqlite3 "$tmp/r.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)
	[ "$n" = 0 ] || golden_fail "a refused run was stored ($n runs)"
fi

# trace info says the same
"$bin" trace info "$tmp/noswitch.txt" | grep -q "emulated util (sched_switch): *no" ||
	golden_fail "trace info: no 'emulated util: no'"
exit $fail
