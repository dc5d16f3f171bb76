#!/bin/bash
# miss_causes.sh - the cause validate names for a kernel decision the emulation did not make,
# on a hand-made lab-2cpu trace (a policy per CPU; rate_limit_us=0, so the window is one tick,
# 4 ms at HZ 250). Both policies start at 3000000 kHz (start_freq=max, the trace's first
# cpu_frequency). By the rules of validate --explain:
#  - 1.010000, policy0 -> 1200000: CPU 0 has no event in the 4 ms before; the replay evaluates
#    it first at 1.010100, a sched_wakeup the kernel's enqueue (and its decision) preceded, and
#    stays at 3000000 there: "late";
#  - 1.020000, policy1 -> 800000: CPU 1 has no event within 4 ms either side, no evaluation:
#    "no-update";
#  - 1.040000, policy1 800000 -> 1200000: the emulation ran at 3000000, not at the kernel's
#    800000, before it: "path".
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init miss_causes

cat >"$tmp/m.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [000] .....     1.000000: cpu_frequency: state=3000000 cpu_id=0
          <idle>-0       [001] .....     1.000001: cpu_frequency: state=3000000 cpu_id=1
          <idle>-0       [000] .....     1.010000: cpu_frequency: state=1200000 cpu_id=0
          <idle>-0       [000] dNh2.     1.010100: sched_wakeup: comm=work pid=10 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.010200: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120
            work-10      [000] d..2.     1.011000: sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [001] .....     1.020000: cpu_frequency: state=800000 cpu_id=1
          <idle>-0       [000] .....     1.040000: cpu_frequency: state=1200000 cpu_id=1
TRACE
args=(--platform lab-2cpu --kernel v6.1 --set rate_limit_us=0 --set rq_clock_offset_ns=0
	--set start_freq=max)
"$bin" validate "$tmp/m.txt" "${args[@]}" --explain >"$tmp/out.txt" 2>"$tmp/err" ||
	golden_fail "validate failed: $(cat "$tmp/err")"
golden_equal "each decision's cause" \
	"$(grep -o 'policy[01]  kernel.*DIFFER ([a-z-]*)' "$tmp/out.txt" | sed 's/policy\([01]\) .*DIFFER (\(.*\))/\1 \2/' | tr '\n' ' ')" \
	"0 late 1 no-update 1 path "
"$bin" validate "$tmp/m.txt" "${args[@]}" --json >"$tmp/out.json" 2>"$tmp/err" ||
	golden_fail "validate --json failed: $(cat "$tmp/err")"
golden_equal "--json misses" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["traces"][0]["kernels"][0]["policies"]:
    m = p["misses"]
    print(" ".join(f"{k}={m[k]}" for k in ("early", "path", "no-update", "util", "late")))
' "$tmp/out.json" | tr '\n' ';')" \
	"early=0 path=0 no-update=0 util=0 late=1;early=0 path=1 no-update=1 util=0 late=0;"
exit $fail
