#!/bin/bash
# markers.sh - devlib's frequency markers are the tracer's notes, not kernel decisions: the old
# form `tracing_mark_write: cpu_frequency: state=... cpu_id=...` (without
# _devlib) is read like `cpu_frequency_devlib`: counted as a marker in trace info, giving the
# initial frequency only. validate scores only the kernel's cpu_frequency: a policy whose only
# frequencies are markers says "no kernel decisions", and a stop marker after the kernel's
# decisions changes nothing (the trace with it validates exactly as the trace without it).
# The expected lines are stated here by hand from the trace below (hikey960: policy0 = CPUs 0-3,
# policy4 = CPUs 4-7).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init markers

cat >"$tmp/a.txt" <<'TRACE'
# tracer: nop
#
           shell-100   [000] ....   100.000000: tracing_mark_write: cpu_frequency: state=999000 cpu_id=0
           shell-100   [000] ....   100.000000: tracing_mark_write: cpu_frequency: state=1421000 cpu_id=4
          <idle>-0     [000] d..2   100.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120
          <idle>-0     [004] d..2   100.001000: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=big next_pid=20 next_prio=120
          <idle>-0     [000] d..2   100.010000: cpu_frequency: state=1844000 cpu_id=0
            work-10    [000] d..2   100.040000: sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
             big-20    [004] d..2   100.040000: sched_switch: prev_comm=big prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/4 next_pid=0 next_prio=120
           shell-100   [000] ....   100.050000: tracing_mark_write: cpu_frequency: state=533000 cpu_id=0
           shell-100   [000] ....   100.050000: tracing_mark_write: cpu_frequency: state=903000 cpu_id=4
          <idle>-0     [000] d..2   100.060000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120
            work-10    [000] d..2   100.100000: sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
grep -v ' 100\.050000: ' "$tmp/a.txt" >"$tmp/b.txt" # the same without the stop markers

"$bin" trace info "$tmp/a.txt" >"$tmp/info" 2>&1
for want in '^  cpu_frequency            1$' '^  cpu_frequency_devlib     4$' \
	'^  devlib cpu_frequency     4$' 'yes, 1 events (+4 initial-frequency markers)$'; do
	grep -q -- "$want" "$tmp/info" || { golden_fail "trace info lacks '$want'"; cat "$tmp/info" >&2; }
done

"$bin" validate "$tmp/a.txt" >"$tmp/va" 2>&1 || golden_fail "validate failed"
"$bin" validate "$tmp/b.txt" >"$tmp/vb" 2>&1 || golden_fail "validate failed"
# validate's per-policy row: profile policy kernel emulated recall precision |dt| busy time
# util-trace E-ratio; a policy with markers only has no kernel decision to score either way
grep -Eq '^    v5\.9 +policy4 +0 +[0-9]+ +- +- +- +- +- ' "$tmp/va" &&
	grep -q '^      (no kernel decisions for policy4' "$tmp/va" ||
	{ golden_fail "policy4 (markers only) is scored:"; cat "$tmp/va" >&2; }
grep -E '^    v5\.9 +policy0 ' "$tmp/va" | grep -q '%' ||
	golden_fail "policy0 (a kernel decision) is not scored"
diff <(tail -n +2 "$tmp/va") <(tail -n +2 "$tmp/vb") ||
	golden_fail "a stop marker after the kernel's decision changed validate"
exit $fail
