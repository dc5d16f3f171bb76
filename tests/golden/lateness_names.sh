#!/bin/bash
# lateness_names.sh - the work-timing figures are named for what they are, and the "work does
# not fit" note is given only where there is a period to miss.
#
# Checks: a closed-loop `gen pipe` (each wakeup caused by the other task's work: no timer, no
# period) replayed under powersave is slower, not behind: no note that its work does not fit,
# though each slice ends later than traced; a `gen periodic` task of 90 % duty at 2 GHz every
# 10 ms (timer wakeups in hardirq context) under powersave (533 MHz on hikey960's CPU 0: 0.9 x
# 2000/533 = 3.4 periods of work per period) falls further behind at every activation: the note
# names it. The summary's sum of per-slice lateness is called that ("slice lateness summed"),
# never "total delay", and `run --help` defines it as not time lost.
# Does not check: the figures themselves (test_sim.c's closed ping-pong works them by hand).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lateness_names

"$bin" gen pipe -o "$tmp/pipe.txt" >/dev/null || golden_fail "gen pipe failed"
"$bin" run "$tmp/pipe.txt" --governor powersave >"$tmp/o" 2>&1 || golden_fail "pipe run failed"
grep -q "does not fit" "$tmp/o" && golden_fail "closed-loop pipe: a 'does not fit' note: $(grep 'does not fit' "$tmp/o")"
grep -q "^tasks: 2, slice lateness summed [0-9.]* s, worst slice [0-9.]* s (pipe-" "$tmp/o" ||
	golden_fail "pipe: the tasks line is not named as defined: $(grep '^tasks' "$tmp/o")"
grep -q "total delay" "$tmp/o" && golden_fail "pipe: 'total delay' still printed"

"$bin" gen periodic --task name=heavy,period_ms=10,duty=0.9,cpu=0,count=50 -o "$tmp/p.txt" \
	>/dev/null || golden_fail "gen periodic failed"
"$bin" run "$tmp/p.txt" --governor powersave >"$tmp/o" 2>&1 || golden_fail "periodic run failed"
grep -q "^note:     timer-driven work does not fit its period at this speed (lateness grows): heavy 1000: " "$tmp/o" ||
	golden_fail "periodic: no 'does not fit' note naming heavy: $(grep note "$tmp/o")"

"$bin" run --help >"$tmp/h" 2>&1
grep -q "slice lateness summed" "$tmp/h" && grep -q "not time lost" "$tmp/h" ||
	golden_fail "run --help does not define 'slice lateness summed'"
exit $fail
