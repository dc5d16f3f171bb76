#!/bin/bash
# util_signals.sh - validate's util reconstruction figures (src/sim/validate.c
# sim_validate_event) on a hand-made trace with the kernel's own PELT/util_est events, as the
# lab's pelt_tp module writes them (tools/lab/pelt-tp): per signal the samples, mean and max
# |error|, the share exact and within 10, and the first divergences with their trace line.
#
# Under v6.1 the util_est flag UTIL_AVG_UNCHANGED is the MSB, 0x80000000
# (include/linux/sched.h l.445 v6.1), set in a task's util_est.enqueued; a cfs_rq's
# util_est.enqueued sums flag-free values (util_est_enqueue(), kernel/sched/fair.c v6.1), so
# nothing is masked there. Task 11 is first seen at its wakeup onto CPU 1 (line 5): the replay
# knows no history for it, its emulated util_avg and util_est are 0, and CPU 1's root cfs_rq
# util_est.enqueued is 0 before and after it (the task brings 0). Expected by hand:
#   line 3 cpu util_est.enqueued: kernel 1, emulated 0: error 1 (within 10, not exact)
#   line 6 task util_avg (pre-trace): kernel 0, emulated 0: exact
#   line 7 task util_avg (pre-trace): kernel 5, emulated 0: error 5
#   line 8 task util_est.enqueued: kernel 0x80000000|100 = 2147483748, flag masked 100,
#          emulated 0: error 100; task util_est.ewma: kernel 100, emulated 0: error 100
# so: cpu util_est 1 sample, mean 1, max 1, exact 0, within 10 1, first divergence line 3;
# task util_avg (pre-trace) 2 samples, mean 2.5, max 5, exact 1, within 10 2, first
# divergence line 7; task util_est.enqueued 1 sample, max 100, exact 0, within 10 0. The
# sched_switch on CPU 0 at the end (a replay needs one) touches neither CPU 1 nor task 11;
# CPU 0's root cfs_rq after it (a replay from the trace's util needs a per-CPU signal) has run
# nothing: kernel 0, emulated 0, exact (cpu util_avg: 1 sample, no divergence); its runnable_avg
# (rbl_load, v5.7+: the h_nr_running-weighted sum on util's scale) is written 7 there against
# the emulated 0: cpu runnable 1 sample, mean 7, max 7, not exact, within 10, line 10. Under
# v5.4 the field is runnable_load_avg (the load's scale) and is not compared. Its load_avg
# (load=0) is exact: `other`, queued at 1.000200, crosses no PELT period boundary (the next at
# 1.000341504 on this clock) by 1.000210, so the average has not moved.
# Not checked here: the emulated values of a task with history (tests/unit/test_pelt.c).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init util_signals.sh

cat >"$tmp/t.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: cpu_frequency: state=800000 cpu_id=1
          <idle>-0       [001] d..2.     1.000010: sched_util_est_cfs: cpu=1 path=/ enqueued=1 ewma=0 util=0
          <idle>-0       [000] d..2.     1.000100: sched_waking: comm=task pid=11 prio=120 target_cpu=001
          <idle>-0       [000] d..2.     1.000110: sched_wakeup: comm=task pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.000120: sched_pelt_se: cpu=1 path=(null) comm=task pid=11 load=0 rbl_load=0 util=0 update_time=1000000000
          <idle>-0       [001] d..2.     1.000130: sched_pelt_se: cpu=1 path=(null) comm=task pid=11 load=5 rbl_load=5 util=5 update_time=1000001024
          <idle>-0       [001] d..2.     1.000140: sched_util_est_se: cpu=1 path=(null) comm=task pid=11 enqueued=2147483748 ewma=100 util=5
          <idle>-0       [000] d..2.     1.000200: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=other next_pid=12 next_prio=120
          <idle>-0       [000] d..2.     1.000210: sched_pelt_cfs: cpu=0 path=/ load=0 rbl_load=7 util=0 update_time=1000200192
TRACE
args=(--platform lab-2cpu --kernel v6.1 --set rate_limit_us=0 --set rq_clock_offset_ns=0)
"$bin" validate "$tmp/t.txt" "${args[@]}" --json >"$tmp/out.json" 2>"$tmp/err" ||
	golden_fail "validate --json failed: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/out.json" <<'PY' || golden_fail "the Python check of $tmp/out.json failed"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
sig = {s["signal"]: s for s in k["signals"]}
want = {
    "cpu util_avg (root cfs_rq)": dict(samples=1, mean_abs_err=0, max_abs_err=0, exact=1,
                                       within_10=1, first=[]),
    "cpu util_est.enqueued": dict(samples=1, mean_abs_err=1, max_abs_err=1, exact=0,
                                  within_10=1, first=[(3, 1, 0)]),
    "task util_avg (pre-trace)": dict(samples=2, mean_abs_err=2.5, max_abs_err=5, exact=1,
                                      within_10=2, first=[(7, 5, 0)]),
    "task util_est.enqueued": dict(samples=1, mean_abs_err=100, max_abs_err=100, exact=0,
                                   within_10=0, first=[(8, 100, 0)]),
    "task util_est.ewma": dict(samples=1, mean_abs_err=100, max_abs_err=100, exact=0,
                               within_10=0, first=[(8, 100, 0)]),
    "cpu runnable (root cfs_rq)": dict(samples=1, mean_abs_err=7, max_abs_err=7, exact=0,
                                       within_10=1, first=[(10, 7, 0)]),
    "cpu load_avg (root cfs_rq)": dict(samples=1, mean_abs_err=0, max_abs_err=0, exact=1,
                                       within_10=1, first=[]),
}
bad = []
for name, w in want.items():
    s = sig.get(name)
    if s is None:
        bad.append(f"no signal '{name}' in {sorted(sig)}")
        continue
    for key in ("samples", "mean_abs_err", "max_abs_err", "exact", "within_10"):
        if s.get(key) != w[key]:
            bad.append(f"{name}: {key} {s.get(key)}, want {w[key]}")
    first = [(d["line"], d["traced"], d["emulated"]) for d in s.get("first_divergences", [])]
    if first != w["first"]:
        bad.append(f"{name}: first divergences {first}, want {w['first']}")
if set(sig) != set(want):
    bad.append(f"signals {sorted(sig)}, want {sorted(want)}")
for b in bad:
    print("util_signals.sh:", b)
sys.exit(1 if bad else 0)
PY
# the text table: the exact and within-10 shares beside the errors
"$bin" validate "$tmp/t.txt" "${args[@]}" >"$tmp/out.txt" 2>"$tmp/err"
grep -Eq '^    v6\.1 +task util_avg \(pre-trace\) +2 +2\.50 +5 +50\.0% +100\.0%$' "$tmp/out.txt" ||
	{ golden_fail "text:"; cat "$tmp/out.txt"; }
# --explain names the first divergences with their line
"$bin" validate "$tmp/t.txt" "${args[@]}" --explain >"$tmp/out.txt" 2>"$tmp/err"
grep -Eq 'task util_est\.enqueued +line 8 +1\.000140 s +cpu 1 +pid 11 +kernel 100 +emulated 0$' "$tmp/out.txt" ||
	{ golden_fail "--explain:"; cat "$tmp/out.txt"; }
# before v5.7 rbl_load is runnable_load_avg: no runnable row
"$bin" validate "$tmp/t.txt" --platform lab-2cpu --kernel v5.4 --set rq_clock_offset_ns=0 \
	>"$tmp/out.txt" 2>"$tmp/err" || golden_fail "validate --kernel v5.4 failed: $(cat "$tmp/err")"
grep -q 'cpu util_avg (root cfs_rq)' "$tmp/out.txt" || golden_fail "v5.4: no util_avg row"
grep -q 'cpu runnable' "$tmp/out.txt" && golden_fail "v5.4 compares runnable_load_avg as runnable_avg"

# The instant of a sample: the kernel reads its signal inside an update (a wakeup's enqueue
# decays a sleeping task's and the cfs_rq's averages to that instant before sched_wakeup is
# traced), so the emulated util_avg is compared as an update at the event's time would leave
# it, not as the replay's last update left it. Task 11 runs on CPU 1 from 1.0 to 1.1 s (100 ms:
# its util and the root cfs_rq's reach 1024 * (1 - y^97) ~ 900, y^32 = 1/2), then sleeps. At
# 2.1 s, 1 s later (~976 periods of 1024 us: a factor y^976 ~ 2^-30.5), the kernel's samples
# say 0: decayed, the emulated values are 0 too (exact; the last update's values, ~900, are not
# what the kernel read then).
cat >"$tmp/d.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: cpu_frequency: state=800000 cpu_id=1
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [001] d..2.     1.100000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] d..2.     2.100000: sched_pelt_se: cpu=1 path=(null) comm=spin pid=11 load=0 rbl_load=0 util=0 update_time=2100000768
          <idle>-0       [001] d..2.     2.100010: sched_pelt_cfs: cpu=1 path=/ load=0 rbl_load=0 util=0 update_time=2100000768
          <idle>-0       [001] d..2.     2.100100: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     2.100200: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
TRACE
"$bin" validate "$tmp/d.txt" "${args[@]}" --json >"$tmp/d.json" 2>"$tmp/err" ||
	golden_fail "validate --json (decay) failed: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/d.json" <<'PY' || golden_fail "the Python check of $tmp/d.json failed"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
sig = {s["signal"]: s for s in k["signals"]}
bad = []
for name in ("cpu util_avg (root cfs_rq)", "task util_avg (pre-trace)",
             "cpu runnable (root cfs_rq)", "cpu load_avg (root cfs_rq)"):
    s = sig.get(name)
    got = None if s is None else (s["samples"], s["exact"], s["max_abs_err"])
    if got != (1, 1, 0):
        bad.append(f"decay: {name}: (samples, exact, max |err|) {got}, want (1, 1, 0)")
for b in bad:
    print("util_signals.sh:", b)
sys.exit(1 if bad else 0)
PY

# util_est changes only at an enqueue or a dequeue, and the kernel traces its cfs_rq's and the
# task's util_est inside them, before the sched_wakeup or sched_switch that shows them: those
# samples are compared once the replay has applied that event (util_est_enqueue() adds the
# task's estimate to its cfs_rq's, util_est_dequeue() takes it out; kernel/sched/fair.c). Task
# 11 runs on CPU 1 from 1.0 s and sleeps at 1.1 s (line 6); the kernel's samples of line 4-5
# come from that dequeue, so the cfs_rq's estimate is compared after it: 0 (the CPU's only
# task left), equal to the kernel's 0 -- no divergence. Its own estimate Y (util_est_update()
# at that dequeue) is the emulated value of line 5. At the wakeup (line 8) the kernel's sample
# of line 7 is compared after the enqueue: the emulated cfs_rq's estimate is then the one
# task's, Y. The kernel's value there is written 0, so line 7 is the one divergence, (0, Y).
cat >"$tmp/e.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: cpu_frequency: state=800000 cpu_id=1
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [001] d..3.     1.100000: sched_util_est_cfs: cpu=1 path=/ enqueued=0 ewma=0 util=900
            spin-11      [001] d..3.     1.100001: sched_util_est_se: cpu=1 path=(null) comm=spin pid=11 enqueued=2147484548 ewma=900 util=900
            spin-11      [001] d..2.     1.100010: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] d..3.     1.200000: sched_util_est_cfs: cpu=1 path=/ enqueued=0 ewma=0 util=0
          <idle>-0       [001] d..2.     1.200010: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.200020: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
          <idle>-0       [000] d..2.     1.200030: sched_pelt_cfs: cpu=0 path=/ load=0 rbl_load=0 util=0 update_time=1200030720
TRACE
"$bin" validate "$tmp/e.txt" "${args[@]}" --json >"$tmp/e.json" 2>"$tmp/err" ||
	golden_fail "validate --json (util_est) failed: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/e.json" <<'PY' || golden_fail "the Python check of $tmp/e.json failed"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
sig = {s["signal"]: s for s in k["signals"]}
task = [(d["line"], d["emulated"]) for d in sig["task util_est.enqueued"]["first_divergences"]]
cfs = [(d["line"], d["traced"], d["emulated"]) for d in sig["cpu util_est.enqueued"]["first_divergences"]]
if len(task) != 1 or task[0][0] != 5 or task[0][1] == 0:
    sys.exit(f"util_signals.sh: util_est: task divergences {task}, want one at line 5 with Y > 0")
y = task[0][1]
if cfs != [(7, 0, y)]:
    sys.exit(f"util_signals.sh: util_est: cpu divergences {cfs}, want [(7, 0, {y})]")
PY
exit $fail
