#!/bin/bash
# validate_task_signals.sh - validate on a trace whose only util signals are per task.
#
# `validate` replays a trace twice where it has util events: once with the emulated util and
# once with the trace's own (--util-source trace), which needs each CPU's root cfs_rq util
# (sched_pelt_cfs path=/, sched_load_cfs_rq, sched_load_avg_cpu). A trace with only a task's
# util_est events has signals to compare but none to replay from: validate must compare them
# in the emulated replay and leave the trace's replay out ("n/a"), not stop with an error
# about the second replay. By hand: one sched_util_est_se sample of task 11, enqueued 100
# against the emulation's 0 at its wakeup: one sample, |error| 100.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init validate_task_signals.sh

cat >"$tmp/t.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: cpu_frequency: state=800000 cpu_id=1
          <idle>-0       [000] d..2.     1.000100: sched_waking: comm=task pid=11 prio=120 target_cpu=001
          <idle>-0       [000] d..2.     1.000110: sched_wakeup: comm=task pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.000140: sched_util_est_se: cpu=1 path=(null) comm=task pid=11 enqueued=2147483748 ewma=100 util=5
          <idle>-0       [001] d..2.     1.000200: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=task next_pid=11 next_prio=120
          task-11        [001] d..2.     1.004200: sched_switch: prev_comm=task prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE
"$bin" validate "$tmp/t.txt" --platform lab-2cpu --kernel v6.1 --json >"$tmp/out.json" 2>"$tmp/err"
st=$?
[ $st = 0 ] || golden_fail "validate exit $st: $(cat "$tmp/err")"
[ $st = 0 ] && /usr/bin/python3 - "$tmp/out.json" <<'PY' || golden_fail "signals: $(cat "$tmp/out.json" | head -c 600)"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
sig = {s["signal"]: s for s in k["signals"]}
s = sig["task util_est.enqueued"]
assert s["samples"] == 1 and s["max_abs_err"] == 100, s
assert all(p["time_util_trace"] is None for p in k["policies"]), k["policies"]
PY
exit $fail
