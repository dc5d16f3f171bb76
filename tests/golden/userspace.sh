#!/bin/bash
# userspace.sh - `--governor userspace` as Linux v5.9's drivers/cpufreq/cpufreq_userspace.c.
#
# Checks, on a hand-written trace on hikey960 (OPPs from models/hikey960.sql: LITTLE 533000,
# 999000, 1402000, 1709000, 1844000 kHz; big 903000, 1421000, 1805000, 2112000, 2362000):
# without freq_khz each policy keeps the frequency it had, the trace's initial one (1402000 on
# policy0, 1805000 on policy4: all of the residency there), and a note says so; a trace
# giving no frequency of a policy is refused (exit 2, naming freq_khz); freq_khz above the max
# or below the min is clamped into [min, max] and resolved (5000000 -> 1844000 / 2362000,
# 1000 -> 533000 / 903000), freq_khz between OPPs resolves to the lowest OPP at or above it
# (1000000 -> 1402000 / 1421000), each with a note; an OPP (1709000 on policy0) runs as given
# with no such note for that policy. With start_freq=max the frequency kept is each policy's
# maximum, traced or not (1844000 / 2362000), and the note says so. In work and traced timing.
# Does not check: scaling_min/max_freq with userspace (test_governors.c does).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init userspace

body='          <idle>-0     [000] dnh3   20.001000: sched_wakeup: comm=a pid=50 prio=120 target_cpu=000
          <idle>-0     [000] d..3   20.001010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=50 next_prio=120
               a-50    [000] d..3   20.003000: sched_switch: prev_comm=a prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [004] dnh3   20.004000: sched_wakeup: comm=b pid=51 prio=120 target_cpu=004
          <idle>-0     [004] d..3   20.004010: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=51 next_prio=120
               b-51    [004] d..3   20.008000: sched_switch: prev_comm=b prev_pid=51 prev_prio=120 prev_state=S ==> next_comm=swapper/4 next_pid=0 next_prio=120'
{
	printf '# tracer: nop\n#\n'
	printf '          <idle>-0     [000] d..2   20.000000: cpu_frequency: state=1402000 cpu_id=0\n'
	printf '          <idle>-0     [004] d..2   20.000000: cpu_frequency: state=1805000 cpu_id=4\n'
	echo "$body"
} >"$tmp/freq.txt"
{
	printf '# tracer: nop\n#\n'
	echo "$body"
} >"$tmp/nofreq.txt"

# run_us NAME TRACE WANT0 WANT4 NOTE_PATTERN ARGS...: the one OPP of each policy's residency,
# and a note matching NOTE_PATTERN (grep -E; "" for none expected about userspace)
run_us() {
	local name=$1 trace=$2 w0=$3 w4=$4 pat=$5 timing
	shift 5
	for timing in work traced; do
		if ! "$bin" run "$trace" --governor userspace --timing $timing --json "$@" \
			>"$tmp/j" 2>"$tmp/e"; then
			golden_fail "$name ($timing): run failed: $(cat "$tmp/e")"
			continue
		fi
		python3 - "$name ($timing)" "$tmp/j" "$w0" "$w4" "$pat" <<'PY' || golden_fail "the Python check of $name ($timing) failed"
import json, re, sys
name, path, w0, w4, pat = sys.argv[1:]
j = json.load(open(path))
bad = 0
for pol, want in ((0, int(w0)), (4, int(w4))):
    p = [x for x in j['policies'] if x['policy'] == pol][0]
    got = [r['khz'] for r in p['residency'] if r['s'] > 0]
    if got != [want]:
        print(f'userspace: {name}: policy{pol} ran at {got}, want [{want}]', file=sys.stderr)
        bad = 1
notes = [n for n in j['notes'] if 'userspace' in n]
if pat and not any(re.search(pat, n) for n in notes):
    print(f'userspace: {name}: no note matching {pat!r} in {notes}', file=sys.stderr)
    bad = 1
if not pat and notes:
    print(f'userspace: {name}: unexpected notes {notes}', file=sys.stderr)
    bad = 1
sys.exit(bad)
PY
	done
}

run_us "kept" "$tmp/freq.txt" 1402000 1805000 \
	"policy0 keeps the trace's initial 1402000 kHz"
run_us "kept4" "$tmp/freq.txt" 1402000 1805000 \
	"policy4 keeps the trace's initial 1805000 kHz"
run_us "above max" "$tmp/freq.txt" 1844000 2362000 \
	"freq_khz=5000000 is above policy0's max 1844000 kHz: clamped" --set freq_khz=5000000
run_us "above max 4" "$tmp/freq.txt" 1844000 2362000 \
	"freq_khz=5000000 is above policy4's max 2362000 kHz: clamped" --set freq_khz=5000000
run_us "below min" "$tmp/freq.txt" 533000 903000 \
	"freq_khz=1000 is below policy4's min 903000 kHz: clamped" --set freq_khz=1000
run_us "between" "$tmp/freq.txt" 1402000 1421000 \
	"freq_khz=1000000 is no OPP of policy4: 1421000 kHz" --set freq_khz=1000000
run_us "an OPP" "$tmp/freq.txt" 1709000 1805000 \
	"freq_khz=1709000 is no OPP of policy4: 1805000 kHz" --set freq_khz=1709000
"$bin" run "$tmp/freq.txt" --governor userspace --set freq_khz=1709000 --json 2>/dev/null |
	grep -q "no OPP of policy0" && golden_fail "an OPP of policy0 noted as none"

# nothing to keep: refused, naming the way out
"$bin" run "$tmp/nofreq.txt" --governor userspace >"$tmp/o" 2>"$tmp/e"
st=$?
[ "$st" = 2 ] || golden_fail "no traced frequency: exit status $st, want 2"
grep -q "freq_khz" "$tmp/e" || golden_fail "no traced frequency: message lacks freq_khz: $(cat "$tmp/e")"
[ -s "$tmp/o" ] && golden_fail "no traced frequency: refused, yet printed a summary"
run_us "no traced frequency, freq_khz" "$tmp/nofreq.txt" 999000 1421000 \
	"freq_khz=999000 is no OPP of policy4" --set freq_khz=999000
# start_freq=max: policy->cur is each policy's maximum when the governor starts, traced or not
run_us "start max" "$tmp/nofreq.txt" 1844000 2362000 \
	"policy4 keeps its maximum 2362000 kHz \(start_freq=max\)" --set start_freq=max
run_us "start max, traced" "$tmp/freq.txt" 1844000 2362000 \
	"policy0 keeps its maximum 1844000 kHz \(start_freq=max\)" --set start_freq=max
exit $fail
