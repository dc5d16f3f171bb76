#!/bin/bash
# facts_room.sh - a lab recording's facts file sets each value it has as a --set default, none
# dropped. The run keeps the facts' values in slots of its own (run_opts.facts_values): when
# they ran out, a fact was left out in silence, and the replay ran with the default instead
# (the last one applied, rate_limit_us, first). A facts file with every key the replay takes
# sets each (the run's note lists them, rate_limit_us too), and with more --set options than
# leave room for its facts the run fails with exit 2 and says so, rather than drop one.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init facts_room

{
	echo "# tracer: nop"
	golden_switch 1 1.000050 swapper/1 0 R t 30
	golden_switch 1 1.003600 t 30 S swapper/1 0
} >"$tmp/lab.txt"
cat >"$tmp/lab.facts" <<'EOF'
platform = lab-2cpu
freq_invariant = 0
governor_start = sugov_start
governor_start_ns = 1000
config_HZ = 250
cpuidle_driver = none
config_SCHED_AUTOGROUP = y
rq_clock_offset_ns = 0:0
switch_clock_lead_us = 10
sleep_clock_lead_us = 90
pelt_event_lead_us = 12
waking_clock_lag_us = 16
task_dead_irq_us = 200
fast_switch = 0
transition_us = 500
rate_limit_us = 2000
EOF
"$bin" run "$tmp/lab.txt" --kernel v6.12 >/dev/null 2>"$tmp/note" ||
	golden_fail "run with the facts: $(cat "$tmp/note")"
for kv in freq_invariant=0 start_freq=max governor_start_ns=1000 hz=250 cpuidle_driver=0 \
	sched_autogroup=1 rq_clock_offset_ns=0:0 switch_clock_lead_us=10 sleep_clock_lead_us=90 \
	pelt_event_lead_us=12 waking_clock_lag_us=16 \
	task_dead_irq_us=200 transition_us=500 rate_limit_us=2000; do
	grep -q ", $kv\b" "$tmp/note" || golden_fail "the facts' $kv is not in the note: $(cat "$tmp/note")"
done
sets=()
for i in $(seq 1 60); do sets+=(--set "rate_limit_us=$((1000 + i))"); done
"$bin" run "$tmp/lab.txt" --kernel v6.12 "${sets[@]}" >/dev/null 2>"$tmp/err"
golden_equal "no room for the facts: exit" "$?" 2
grep -q "no room for it beside" "$tmp/err" ||
	golden_fail "no room: $(cat "$tmp/err")"
exit $fail
