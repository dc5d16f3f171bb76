#!/bin/bash
# kernel_evals.sh - validate against the kernel's own evaluations (the lab's resolve_freq probe:
# the raw frequency get_next_freq() computed), src/sim/validate.c sim_validate_gov_raw.
#
# A hand-made trace on lab-2cpu (not frequency invariant: raw = (cur + cur/4) * util / 1024,
# cur = the latest cpu_frequency, 800000 kHz here). CPU 0 never runs a task, so its emulated
# util is 0 at every evaluation; SCHED_SOFTIRQ refreshes at 1.010 and 1.020 are its only
# evaluations (rate_limit_us=0). The kernel's evaluations: at 1.010050 raw 0 (util 0: paired
# with 1.010, error 0), at 1.020100 raw 488281 (util 488281 * 1024 / 1000000 = 499.99, 500:
# paired with 1.020, error 500), at 1.030000 raw 1000 (no emulated evaluation within 200 us:
# unpaired). Expected by hand: 3 evaluations, 2 paired, 1 of them within 10 (50.0 %), mean
# |err| 250, max 500, 1 unpaired -- in the text and in --json.
#
# A shared policy (lab-4cpu-shared, CPUs 0-3, cur 3000000 kHz): the kernel's raw frequency is the
# policy's, from its CPUs' largest util (sugov_next_freq_shared()), whichever CPU ran the update,
# and the emulation evaluates every CPU of the policy at that instant. At 1.000000 the probe's
# raw 37500 gives util (37500 * 1024 + 1875000) / 3750000 = 10; every CPU is idle in the
# emulation then (the policy's util 0): paired, error 10. At 1.015000 raw 1000 with no
# evaluation within 200 us (CPU 0's task is evaluated at its ticks, 1.012 and 1.016):
# unpaired. Expected: 2 evaluations, 1 paired, error 10, 100.0 % within 10, 1 unpaired.
#
# Several evaluations at one instant pair first with first. A task (pid 11) runs on CPU 0 from
# 1.000100 and exits at 1.002500; sched_autogroup_exit_task() moves it to its group
# (sched_move_task(): the dequeue's PELT update, which crossed a period, the detach and the
# attach each call schedutil), v6.1, lab-2cpu, cur 800000 kHz. Its util and the root's, running
# from zero for 2.4 ms: tests/golden/lib/pelt_ref.py 1000100000:0 1002500000:1 = 49, so the
# three evaluations read 49, 0 (the root without the task), 49. The kernel's three probes say
# the same: raw 47851 is util (47851 * 1024 + 500000) / 1000000 = 49, raw 0 is 0. Expected: 3
# evaluations, 3 paired, every error 0, none unpaired (pairing only the emulation's latest
# evaluation, as before, left the detach's and the attach's kernel evaluations unpaired).
#
# The idle_calls probe (the return of tick_nohz_get_idle_calls_cpu(), read by the busy hold after
# get_next_freq() in every evaluation of a single-CPU policy past its rate limit) marks the
# evaluations whose raw frequency equalled get_next_freq()'s cached_raw_freq, which show no
# resolve_freq; their util is the cached raw frequency's (kernel/sched/cpufreq_schedutil.c,
# Debian 6.1 get_next_freq() and sugov_update_single_freq()).
# - The hold. CPU 0 idle as above (emulated util 0 at the softirq refreshes 1.010, 1.020,
#   1.030), v6.1, cur 1200000 kHz. 1.010: raw 0 and the CPU's first idle_calls (7): util 0.
#   1.020: raw 300000, util (300000 * 1024 + 750000) / 1500000 = 205; the count is still 7
#   (busy) and 300000 resolves to 800000 kHz, below the 1200000 in force: the hold keeps the
#   frequency and restores cached_raw_freq to 0. 1.030: idle_calls alone, so the raw frequency
#   was the cached 0: util 0. Expected: 3 evaluations, 3 paired, errors 0, 205, 0 (mean 68.33,
#   66.7 % within 10). Without the restore the last one reads 205 (mean 136.67); without the
#   probe it is not an evaluation (2). The busy hold: the kernel's count is 7 at 1.020 (busy)
#   and 8 at 1.030 (an idle entry since: not busy); the replay sees no idle entry of CPU 0 (it
#   never runs a task), so its count is unchanged at both: they agree at 1 of 2 (50.0 %); the
#   1.010 pair has no kernel state (the CPU's first idle_calls).
# - A burst. The exit move above, with the probe. At 1.001500 the kernel evaluates (raw 47851,
#   util 49, the CPU's first idle_calls) where the replay does not: unpaired. The move's first
#   evaluation (util 49) then has raw 47851 again, equal to the cached one: idle_calls alone.
#   The second and third show raw 0 and 47851. Expected: 4 evaluations, 3 paired at error 0, 1
#   without. Counting only the resolve_freq events paired the kernel's 0 with the emulation's
#   49 and its 49 with the emulation's 0.
# - A capped rq. From v6.1 the busy hold is not consulted where uclamp.max caps the rq
#   (uclamp_rq_is_capped(): Debian 6.1 sugov_update_single_freq(), 6.12 and 7.2
#   sugov_hold_freq() return before tick_nohz_get_idle_calls_cpu()), so such an evaluation
#   shows resolve_freq and no idle_calls. CPU 0 idle as in the hold case; the kernel's
#   evaluations at 1.010040 (with idle_calls), 1.020040 (without) and 1.030040 (with), raw 0
#   each, util 0, as the emulation's at 1.010, 1.020 and 1.030. The 1.020040 one is complete at
#   the CPU's next event (the softirq at 1.030000): paired with 1.020. Expected: 3 evaluations,
#   3 paired, errors 0. Waiting for the next resolve_freq (1.030040) left it 10 ms late, after
#   the emulation's 1.030 evaluation had replaced 1.020's: 1 paired, 2 without.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kernel_evals.sh
# validate's line of the kernel's evaluations in output FILE, up to its unpaired count
evals_line() { grep -A1 "kernel's own evaluations" "$1" | tail -n 1 | sed 's/ (update points.*//'; }
# validate TRACE into OUT under v6.1 with the common arguments (below); CASE names a failure
validate_v61() {
	"$bin" validate "$1" "${args[@]}" --kernel v6.1 >"$2" 2>"$tmp/err" ||
		golden_fail "validate ($3) failed: $(cat "$tmp/err")"
}
# validate TRACE into OUT as the exit move's cases run: v6.1, lab-2cpu, rate limit 0, autogroup
validate_exit() {
	"$bin" validate "$1" --platform lab-2cpu --kernel v6.1 --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set sched_autogroup=1 \
		>"$2" 2>"$tmp/err"
}

cat >"$tmp/t.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
          <idle>-0       [000] ..s1.     1.010000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.010050: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
          <idle>-0       [000] ..s1.     1.020000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.020100: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=488281
          <idle>-0       [000] d.s2.     1.030000: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=1000
            spin-11      [001] d..2.     1.040000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE
args=(--platform lab-2cpu --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0)
"$bin" validate "$tmp/t.txt" "${args[@]}" >"$tmp/out.txt" 2>"$tmp/err" ||
	golden_fail "validate failed: $(cat "$tmp/err")"
grep -q "^    3; 2 with an emulated evaluation of the CPU within 200 us (util mean |err| 250.00, max 500, 50.0% within 10); 1 without" "$tmp/out.txt" ||
	{ golden_fail "text:"; cat "$tmp/out.txt"; }
"$bin" validate "$tmp/t.txt" "${args[@]}" --json >"$tmp/out.json" 2>"$tmp/err" ||
	golden_fail "validate --json failed: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/out.json" <<'PY' || golden_fail "the Python check of $tmp/out.json failed"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
ke = k["kernel_evaluations"]
want = {"count": 3, "paired": 2, "util_within": 1, "unpaired": 1, "busy_compared": 0,
        "busy_agree": 0, "departures": []}
if ke != want:
    sys.exit(f"kernel_evals.sh: json kernel_evaluations {ke}, want {want}")
PY
cat >"$tmp/s.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [000] .....     0.999000: cpu_frequency: state=3000000 cpu_id=0
          <idle>-0       [000] .....     0.999001: cpu_frequency: state=3000000 cpu_id=1
          <idle>-0       [000] .....     0.999002: cpu_frequency: state=3000000 cpu_id=2
          <idle>-0       [000] .....     0.999003: cpu_frequency: state=3000000 cpu_id=3
            work-10      [000] d.h2.     1.000000: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=37500
            work-10      [000] d..2.     1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=work next_pid=10 next_prio=120
            work-10      [000] d.h2.     1.015000: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=1000
            work-10      [000] d..2.     1.022000: sched_switch: prev_comm=work prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
"$bin" validate "$tmp/s.txt" --platform lab-4cpu-shared --kernel v6.1 --set rq_clock_offset_ns=0 \
	--set start_freq=max >"$tmp/shared.txt" 2>"$tmp/err" ||
	golden_fail "validate (shared policy) failed: $(cat "$tmp/err")"
golden_equal "shared policy: the kernel's evaluations paired with the policy's" \
	"$(evals_line "$tmp/shared.txt")" \
	"    2; 1 with an emulated evaluation of the CPU within 200 us (util mean |err| 10.00, max 10, 100.0% within 10); 1 without"
cat >"$tmp/b.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [000] .....     1.002500: sched_process_exit: comm=spin pid=11 prio=120
            spin-11      [000] d..2.     1.002550: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=47851
            spin-11      [000] d..2.     1.002560: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
            spin-11      [000] d..2.     1.002570: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=47851
            spin-11      [000] d..2.     1.002700: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
want_util=$(/usr/bin/python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" 1000100000:0 1002500000:1)
[ "$want_util" = 49 ] || golden_fail "pelt_ref.py gives $want_util, the comment above says 49"
validate_exit "$tmp/b.txt" "$tmp/burst.txt" || golden_fail "validate (burst) failed: $(cat "$tmp/err")"
golden_equal "three evaluations at one instant, paired first with first" "$(evals_line "$tmp/burst.txt")" \
	"    3; 3 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 0 without"
cat >"$tmp/h.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=1200000 cpu_id=0
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
          <idle>-0       [000] ..s1.     1.010000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.010040: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
          <idle>-0       [000] d.s2.     1.010050: idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=7
          <idle>-0       [000] ..s1.     1.020000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.020040: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=300000
          <idle>-0       [000] d.s2.     1.020050: idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=7
          <idle>-0       [000] ..s1.     1.030000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.030050: idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=8
            spin-11      [001] d..2.     1.040000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE
validate_v61 "$tmp/h.txt" "$tmp/hold.txt" hold
golden_equal "idle_calls: the busy hold restores the cached raw frequency" \
	"$(evals_line "$tmp/hold.txt")" \
	"    3; 3 with an emulated evaluation of the CPU within 200 us (util mean |err| 68.33, max 205, 66.7% within 10); 0 without"
golden_equal "idle_calls: the busy hold's state, the kernel's against the replay's" \
	"$(grep "busy hold" "$tmp/hold.txt")" \
	"    busy hold (the idle-entry count unchanged since the CPU's last evaluation): the replay's says the same as the kernel's at 1 of 2 (50.0%)"
ic='(sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=5'
cat >"$tmp/bi.txt" <<TRACE
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [000] d.h2.     1.001500: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=47851
            spin-11      [000] d.h2.     1.001510: idle_calls: $ic
            spin-11      [000] .....     1.002500: sched_process_exit: comm=spin pid=11 prio=120
            spin-11      [000] d..2.     1.002550: idle_calls: $ic
            spin-11      [000] d..2.     1.002560: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
            spin-11      [000] d..2.     1.002565: idle_calls: $ic
            spin-11      [000] d..2.     1.002570: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=47851
            spin-11      [000] d..2.     1.002575: idle_calls: $ic
            spin-11      [000] d..2.     1.002700: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120
TRACE
validate_exit "$tmp/bi.txt" "$tmp/burst_ic.txt" ||
	golden_fail "validate (burst, idle_calls) failed: $(cat "$tmp/err")"
golden_equal "idle_calls: an evaluation at the cached raw frequency keeps its place in a burst" \
	"$(evals_line "$tmp/burst_ic.txt")" \
	"    4; 3 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 1 without"
cat >"$tmp/c.txt" <<TRACE
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=1200000 cpu_id=0
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
          <idle>-0       [000] ..s1.     1.010000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.010040: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
          <idle>-0       [000] d.s2.     1.010050: idle_calls: $ic
          <idle>-0       [000] ..s1.     1.020000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.020040: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
          <idle>-0       [000] ..s1.     1.030000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] d.s2.     1.030040: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=0
          <idle>-0       [000] d.s2.     1.030050: idle_calls: $ic
            spin-11      [001] d..2.     1.040000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE
validate_v61 "$tmp/c.txt" "$tmp/capped.txt" capped
golden_equal "a capped rq's evaluation (no idle_calls) is complete at the CPU's next event" \
	"$(evals_line "$tmp/capped.txt")" \
	"    3; 3 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 0 without"
exit $fail
