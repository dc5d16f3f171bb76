#!/bin/bash
# clamped_busy.sh - `clamped up/down` is CPU time: time a CPU ran a task while uclamp changed
# the util the governor used, never idle time after the last clamped evaluation.
#
# Checks, on a hand-written hikey960 trace in traced timing: task a (uclamp_min=1024 by a
# setattr action) runs on CPU 0 from 20.001 to 20.003 s, 2 ms, then CPU 0 idles; task b
# (unclamped) runs on CPU 4 at the end so the trace lasts 100 ms. While a runs its util (a few
# units) is below its uclamp.min, so the governor's util is clamped up: clamped up = 0.002 s
# (a's run, counted by hand), clamped down = 0; and on the bundled surfaceflinger trace with
# 'setattr comm=* uclamp_min=512' and with 'uclamp_max=100', clamped up and down are each at
# most the busy time summed over the policies (the help's "CPU time").
# Does not check: which evaluations see a clamp (test_uclamp.c, test_sim.c).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init clamped_busy

{
	printf '# tracer: nop\n#\n'
	printf '          <idle>-0     [000] d..2   20.000000: cpu_frequency: state=533000 cpu_id=0\n'
	printf '          <idle>-0     [004] d..2   20.000000: cpu_frequency: state=903000 cpu_id=4\n'
	printf '          <idle>-0     [000] dnh3   20.001000: sched_wakeup: comm=a pid=50 prio=120 target_cpu=000\n'
	printf '          <idle>-0     [000] d..3   20.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=50 next_prio=120\n'
	printf '               a-50    [000] d..3   20.003000: sched_switch: prev_comm=a prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n'
	printf '          <idle>-0     [004] dnh3   20.099000: sched_wakeup: comm=b pid=51 prio=120 target_cpu=004\n'
	printf '          <idle>-0     [004] d..3   20.099000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=51 next_prio=120\n'
	printf '               b-51    [004] d..3   20.100000: sched_switch: prev_comm=b prev_pid=51 prev_prio=120 prev_state=S ==> next_comm=swapper/4 next_pid=0 next_prio=120\n'
} >"$tmp/t.txt"

# clamped_within_busy NAME JSON WANT_UP: clamped up (WANT_UP, or "" for any) and down within
# the busy time
clamped_within_busy() {
	python3 - "$1" "$2" "$3" <<'PY' || golden_fail "$1: clamped time"
import json, sys
name, path, want = sys.argv[1:]
j = json.load(open(path))
u = j["uclamp"]
busy = sum(p["busy_s"] for p in j["policies"])
bad = 0
if want and abs(u["clamped_up_s"] - float(want)) > 1e-6:
    print(f"{name}: clamped up {u['clamped_up_s']}, want {want}", file=sys.stderr); bad = 1
for k in ("clamped_up_s", "clamped_down_s"):
    if u[k] > busy + 1e-9:
        print(f"{name}: {k} {u[k]} exceeds busy {busy}", file=sys.stderr); bad = 1
sys.exit(bad)
PY
}

"$bin" run "$tmp/t.txt" --timing traced --action 'setattr comm=a uclamp_min=1024' --json \
	>"$tmp/j" 2>"$tmp/e" || golden_fail "run failed: $(cat "$tmp/e")"
clamped_within_busy "hand-written" "$tmp/j" 0.002
python3 -c 'import json,sys; u=json.load(open(sys.argv[1]))["uclamp"]; sys.exit(u["clamped_down_s"] != 0)' "$tmp/j" ||
	golden_fail "hand-written: clamped down is not 0"
sf=traces/android-8cpu/surfaceflinger.txt
for a in 'setattr comm=* uclamp_min=512' 'setattr comm=* uclamp_max=100'; do
	"$bin" run $sf --action "$a" --json >"$tmp/j" 2>"$tmp/e" || golden_fail "$a: run failed"
	clamped_within_busy "surfaceflinger, $a" "$tmp/j" ""
done
exit $fail
