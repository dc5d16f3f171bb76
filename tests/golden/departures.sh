#!/bin/bash
# departures.sh - validate's departures of the util at the kernel's evaluations (the lab's
# resolve_freq probe), src/sim/validate.c gov_pair_add() and src/cli/cmd_validate.c: three or
# more paired evaluations of a policy in a row whose util differs from the kernel's by more
# than 10, and which missed decisions fall in one.
#
# A hand-made trace on lab-2cpu (not frequency invariant: the kernel's util is raw * 1024 /
# (cur + cur/4), rounded, cur the latest cpu_frequency of the CPU). CPU 0 never runs a task, so
# the emulation's util is 0 at each of its evaluations, the SCHED_SOFTIRQ refreshes every 10 ms
# from 1.010 to 1.110 (rate_limit_us=0); the kernel's probe follows each by 50 us, so each pairs.
# The kernel's utils, by hand from the raw frequencies below:
#   1.010  raw 0       at 800 MHz (ref 1000000 kHz): 0
#   1.020  raw 488281  at 800 MHz: (488281 * 1024 + 500000) / 1000000 = 500
#   1.030  raw 488281  at 800 MHz: 500; then the kernel decides 800 -> 1200 MHz at 1.030100
#   1.040  raw 366211  at 1200 MHz (ref 1500000): (366211 * 1024 + 750000) / 1500000 = 250
#   1.050  raw 7324    at 1200 MHz: 5
#   1.060  raw 439453  at 1200 MHz: 300
#   1.070  raw 439453  at 1200 MHz: 300
#   1.080  raw 0: 0; then the kernel decides 1200 -> 800 MHz at 1.085200
#   1.090, 1.100, 1.110  raw 390625 at 800 MHz: 400
# The errors (emulated 0): 0, 500, 500, 250, 5, 300, 300, 0, 400, 400, 400 (mean 3055 / 11 =
# 277.73). Departures: 1.020-1.040 (3 in a row, first on line 7, kernel 500, emulated 0, max
# 500), ended by 1.050's 5; 1.060-1.070 is only 2 in a row; 1.090-1.110 (3, first on line 23,
# kernel 400, max 400), ended by the trace's end. 6 of the 11 paired evaluations.
# The emulation stays at 800 MHz, so both kernel decisions are missed. The window is a tick
# (HZ 250: 4 ms, rate limit 0): 1.030100 falls in the first departure; 1.085200 is more than
# 4 ms after the first one's last evaluation (1.040050) and before the second one's first
# (1.090050): 1 of the 2 missed decisions in one.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init departures.sh

{
	echo "# tracer: nop"
	echo "          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0"
	echo "          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	for e in 010:0 020:488281 030:488281 040:366211 050:7324 060:439453 070:439453 080:0 \
		090:390625 100:390625 110:390625; do
		echo "          <idle>-0       [000] ..s1.     1.${e%%:*}000: softirq_entry: vec=7 [action=SCHED]"
		echo "          <idle>-0       [000] d.s2.     1.${e%%:*}050: resolve_freq: (cpufreq_driver_resolve_freq+0x0/0x70) target_freq=${e##*:}"
		[ "${e%%:*}" = 030 ] && echo "          <idle>-0       [000] d.s2.     1.030100: cpu_frequency: state=1200000 cpu_id=0"
		[ "${e%%:*}" = 080 ] && echo "          <idle>-0       [000] d.s2.     1.085200: cpu_frequency: state=800000 cpu_id=0"
	done
	echo "            spin-11      [001] d..2.     1.120000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
} >"$tmp/d.txt"
args=(--platform lab-2cpu --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0)
"$bin" validate "$tmp/d.txt" "${args[@]}" --explain >"$tmp/out.txt" 2>"$tmp/err" ||
	golden_fail "validate failed: $(cat "$tmp/err")"
grep -q "^    11; 11 with an emulated evaluation of the CPU within 200 us (util mean |err| 277.73, max 500, 27.3% within 10); 0 without" "$tmp/out.txt" ||
	golden_fail "the kernel's evaluations are not as computed by hand: $(grep -A1 "own evaluations" "$tmp/out.txt")"
grep -q "^    departures (3 or more paired evaluations of a policy in a row with the util more than 10 from the kernel's): 2, holding 6 of the paired evaluations$" "$tmp/out.txt" ||
	golden_fail "departures line: $(grep departures "$tmp/out.txt")"
grep -q "): 1 of the 2 missed decisions fall in one (within the policy's window)$" "$tmp/out.txt" ||
	golden_fail "misses in departures: $(grep "util departures" "$tmp/out.txt")"
golden_equal "the departures listed" "$(grep -E '^    line [0-9]+ ' "$tmp/out.txt")" \
"    line 7            1.020050 policy0  kernel  500 emulated    0    3 evaluations to 1.040050, max |error| 500
    line 23           1.090050 policy0  kernel  400 emulated    0    3 evaluations to 1.110050, max |error| 400"
golden_equal "the missed decision in a departure" \
	"$(grep -c 'DIFFER ([a-z-]*)  in the util departure from 1.020050 (line 7)$' "$tmp/out.txt") $(grep -c DIFFER "$tmp/out.txt")" \
	"1 2"
"$bin" validate "$tmp/d.txt" "${args[@]}" --json >"$tmp/out.json" 2>"$tmp/err" ||
	golden_fail "validate --json failed: $(cat "$tmp/err")"
/usr/bin/python3 - "$tmp/out.json" <<'PY' || golden_fail "the Python check of $tmp/out.json failed"
import json, sys
k = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]
got = k["kernel_evaluations"]["departures"]
want = [{"line": 7, "t_ns": 1020050000, "cpu": 0, "kernel": 500, "emulated": 0,
         "evaluations": 3, "last_t_ns": 1040050000, "max_abs_err": 500},
        {"line": 23, "t_ns": 1090050000, "cpu": 0, "kernel": 400, "emulated": 0,
         "evaluations": 3, "last_t_ns": 1110050000, "max_abs_err": 400}]
if got != want:
    sys.exit(f"departures.sh: json departures {got}, want {want}")
# the window the misses are placed in: a tick at HZ 250 (the rate limit is 0)
if k["policies"][0]["window_ns"] != 4000000:
    sys.exit(f"departures.sh: json window_ns {k['policies'][0]['window_ns']}, want 4000000")
PY
exit $fail
