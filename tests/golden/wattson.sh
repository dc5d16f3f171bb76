#!/bin/bash
# wattson.sh - `--power-model wattson` through the CLI on tensor (gs101), on tiny traces whose
# energy is computed here by hand from the Wattson CSV rows (models/wattson/Tensor_*.csv) and the
# gs101 DT; plus the errors. The power model's steps one by one are in tests/unit/test_wattson.c.
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init wattson.sh

sw_in() { # TIME CPU PID
	printf '          <idle>-0     [%03d] d..2 %s: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n' "$2" "$1" "$2" "$3" "$3"
}
sw_out() { # TIME CPU PID
	printf '%16s-%-5d [%03d] d..2 %s: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/%d next_pid=0 next_prio=120\n' "t$3" "$3" "$2" "$1" "$3" "$3" "$2"
}

# expect NAME WANT_LINE_REGEX CMD...: a line of the output matches
expect() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	local status=$?
	if [ $status -ne 0 ] || ! grep -qE -- "$want" "$tmp/out"; then
		golden_fail "$name: exit $status, no line matching '$want'"
		sed 's/^/  /' "$tmp/out" | head -20
	fi
}

run() { "$bin" run "$@" --platform tensor --timing traced; }

# 1. CPU 6 busy 1 s at the top OPP (performance: 2802000): cpu_1d "Tensor,6,2802000,0,1942.89,..."
#    -> 1942.89 mJ; every other CPU in c2 (idle1 0 mW, no policy on, no static). The em model:
#    650 * 1056^2 * 2802 / 1e9 = 2030 mW -> 2.030000 J.
{ sw_in 1000.000000 6 100; sw_out 1001.000000 6 100; } >"$tmp/one.txt"
expect top-opp '^  total +1\.942890 ' run "$tmp/one.txt" --governor performance --power-model wattson
expect top-opp-em '^  total +2\.030000 ' run "$tmp/one.txt" --governor performance --power-model em

# 2. The deep-idle exit offset (200 us on CPU 6): busy 0-0.5 s, idle 10 ms (c2: longer than its
#    3500 us residency), busy 0.51-1 s. The second active period starts 200 us early:
#    1942.89 * (0.5 + 0.49 + 0.0002) = 1923.849678 mJ.
{ sw_in 1000.000000 6 100; sw_out 1000.500000 6 100; sw_in 1000.510000 6 100; sw_out 1001.000000 6 100; } >"$tmp/offset.txt"
expect deep-idle-offset '^  total +1\.923850 ' run "$tmp/offset.txt" --governor performance --power-model wattson

# 2b. The same from the trace's own cpu_idle states (traced timing reads them as Wattson does):
#    CPU 6 in state 1 (c2, the deepest) from 0 to 10 ms, exits, runs 1 s: active from 9.8 ms,
#    1942.89 * 1.0002 = 1943.278578 mJ.
{ echo '          <idle>-0     [006] d..2 1000.000000: cpu_idle: state=1 cpu_id=6'
  echo '          <idle>-0     [006] d..2 1000.010000: cpu_idle: state=4294967295 cpu_id=6'
  sw_in 1000.010000 6 100; sw_out 1001.010000 6 100
  echo '          <idle>-0     [006] d..2 1001.010000: cpu_idle: state=1 cpu_id=6'; } >"$tmp/idle.txt"
expect traced-idle-offset '^  total +1\.943279 ' run "$tmp/idle.txt" --governor performance --power-model wattson

# 3. Static once per policy: CPUs 0 and 1 busy 1 s at 1803000; no CPU of p4/p6 active, so policy 0
#    depends on the smallest dep_freq of its rows, p4 400000: "Tensor,0,1803000,4,400000,35.71,
#    342.95,..." -> 2 * 342.95 + 35.71 (static, once) = 721.61 mJ.
{ sw_in 1000.000000 0 100; sw_in 1000.000000 1 101; sw_out 1001.000000 0 100; sw_out 1001.000000 1 101; } >"$tmp/static.txt"
expect static-once '^  cluster0 \(policy0\) +0\.721610$' run "$tmp/static.txt" --governor performance --power-model wattson
expect static-once-total '^  total +0\.721610 ' run "$tmp/static.txt" --governor performance --power-model wattson

# 4. A pair the sparse 2D grid lacks is reported: schedutil sends policy 6 to 2802000 under a
#    long busy CPU 6 while CPU 0 wakes briefly at 300000; (300000, p6 2802000) has no row.
{ sw_in 1000.000000 6 100; sw_in 1000.500000 0 101; sw_out 1000.501000 0 101; sw_out 1001.000000 6 100; } >"$tmp/miss.txt"
expect missing-pair 'no curve value for .*policy0 at 300000 kHz with policy6 at 2802000 kHz' run "$tmp/miss.txt" --power-model wattson

# 5. Errors: a platform without curves, exit 2 with the reason.
"$bin" run "$tmp/one.txt" --power-model wattson >"$tmp/out" 2>&1
status=$?
if [ $status -ne 2 ] || ! grep -q "platform 'hikey960' has no wattson curves" "$tmp/out"; then
	golden_fail "no-curves: exit $status"
	cat "$tmp/out"
fi
exit $fail
