#!/bin/bash
# validate.sh - `govsim validate` on the bundled Juno trace (traces/juno-r0/sched_load, Linux
# 4.19.0 per its plat_info.yml), pinned under --kernel v4.19 and v5.9 with tolerances, plus:
# - the number of kernel decisions per policy recomputed here from the trace-cmd report text
#   beside the trace (a cpu_frequency of the policy's first CPU that changes its frequency; the
#   first one is the initial state), independently of govsim's reader;
# - a trace without util events prints "n/a" for the util-trace column;
# - a trace with neither cpu_frequency nor util events says so and exits 3;
# - --fail-below exits 1 below the threshold and 0 at or above it; --kernel all, --explain;
# - every frequency figure (decisions, agree, busy, time, util trace) of the Juno trace and of
#   traces/android-8cpu/surfaceflinger.txt recomputed by a second implementation
#   (validate_figures.py) from the trace's text and the --timeline of `govsim run` with the
#   same settings, and pinned with a tolerance;
# - validate refuses the what-if options of `run` (--policy, --action, --warmup-ms): exit 2.
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init validate.sh
juno=traces/juno-r0/sched_load/trace.dat

# field KERNEL POLICY COLUMN FILE: a column of the frequency table (1 = kernel)
field() {
	awk -v k="$1" -v p="$2" -v c="$3" '$1 == k && $2 == p { gsub(/%/, "", $c); print $c; exit }' "$4"
}
# near GOT WANT TOL
near() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= t) }'
}

"$bin" validate "$juno" --platform juno-r0 --kernel v4.19,v5.9 >"$tmp/v.txt" 2>&1 || golden_fail "exit $? on $juno"

# decisions per policy, from the report text: juno-r0's policies start at CPUs 0 and 1
for pc in 0:policy0 1:policy1; do
	cpu=${pc%%:*}
	pol=${pc#*:}
	want=$(awk -v cpu="$cpu" '/ cpu_frequency: / {
		split($0, a, "state="); split(a[2], b, " "); st = b[1];
		split($0, c, "cpu_id="); if (c[2] + 0 != cpu) next;
		if (seen && st != last) n++; seen = 1; last = st } END { print n + 0 }' \
		traces/juno-r0/sched_load/trace.report.txt)
	for k in v4.19 v5.9; do
		got=$(field $k $pol 3 "$tmp/v.txt")
		[ "$got" = "$want" ] || golden_fail "$k $pol: $got decisions, the report text has $want"
	done
done

# pinned figures (tolerance: 2 percentage points, 0.5 ms, 0.02 energy ratio); the columns:
# 3 kernel 4 emulated 5 recall 6 precision 7 |dt| 8 busy 9 time 10 util-trace 11 E-ratio
#          kernel policy col want tol
while read -r k p c w t; do
	got=$(field "$k" "$p" "$c" "$tmp/v.txt")
	near "$got" "$w" "$t" || golden_fail "$k $p column $c: '$got', pinned $w +- $t"
done <<'PINS'
v4.19 policy0 5 50.0 0
v4.19 policy0 6 14.3 0.1
v4.19 policy0 7 0.36 0.5
v4.19 policy0 8 43.3 2
v4.19 policy0 9 55.8 2
v4.19 policy0 10 54.8 2
v4.19 policy0 11 0.494 0.02
v4.19 policy1 5 0.0 0
v4.19 policy1 6 0.0 0
v4.19 policy1 9 73.9 2
v4.19 policy1 10 86.8 2
v4.19 policy1 11 0.628 0.02
v5.9 policy0 5 50.0 0
v5.9 policy0 9 55.8 2
v5.9 policy1 9 73.9 2
PINS
# util reconstruction: root cfs_rq util_avg mean |err| under each profile (tolerance 3)
for kw in "v4.19 102.91" "v5.9 104.09"; do
	set -- $kw
	got=$(awk -v k="$1" '$1 == k && $2 == "cpu" && $3 == "util_avg" { print $(NF-3); exit }' "$tmp/v.txt")
	near "$got" "$2" 3 || golden_fail "$1 cpu util_avg mean |err| '$got', pinned $2"
done
grep -q "task util_avg (pre-trace)" "$tmp/v.txt" || golden_fail "pre-trace tasks not reported apart"

# the default profile and why: this trace.dat has no uname; its plat_info.yml is a hint
"$bin" validate "$juno" --platform juno-r0 --util-source emulated >"$tmp/d.txt" 2>&1
grep -q "kernel profile v5.9: the trace does not record its kernel release" "$tmp/d.txt" ||
	golden_fail "default profile line missing"
grep -q "try --kernel v4.19-early" "$tmp/d.txt" || golden_fail "plat_info.yml hint missing"

# --explain: one line per decision (3 in all), each with the emulated util and target
"$bin" validate "$juno" --platform juno-r0 --kernel v4.19 --util-source emulated --explain >"$tmp/e.txt" 2>&1
[ "$(grep -c ' kernel .* -> .* emulated ' "$tmp/e.txt")" = 3 ] || golden_fail "--explain: not 3 decisions"
grep -q "util .* clamp .* target" "$tmp/e.txt" || golden_fail "--explain: no evaluation shown"

# --kernel all: every profile, both policies (on a small trace: one replay per profile)
"$bin" gen periodic --count 20 -o "$tmp/small.txt" >/dev/null 2>&1 || golden_fail "gen --count 20 failed"
sed -i 's/tracing_mark_write: cpu_frequency_devlib: /cpu_frequency: /' "$tmp/small.txt"
"$bin" validate "$tmp/small.txt" --util-source emulated --kernel all >"$tmp/a.txt" 2>&1
n=$("$bin" kernels list | wc -l)
[ "$(grep -c '^    v[0-9].* policy[04] ' "$tmp/a.txt")" = $((2 * n)) ] || golden_fail "--kernel all: rows missing"

# --fail-below
"$bin" validate "$juno" --platform juno-r0 --kernel v5.9 --util-source emulated --fail-below recall=0 >/dev/null 2>&1
[ $? = 0 ] || golden_fail "--fail-below recall=0 should pass"
# policy1: the kernel's one decision is not paired with an emulated change within the window
"$bin" validate "$juno" --platform juno-r0 --kernel v5.9 --util-source emulated --fail-below recall=50 >/dev/null 2>"$tmp/f.txt"
[ $? = 1 ] || golden_fail "--fail-below recall=50 should exit 1"
grep -q "policy1: recall 0.0% is below 50.0%" "$tmp/f.txt" || golden_fail "--fail-below recall: policy1 not named"
"$bin" validate "$juno" --platform juno-r0 --kernel v5.9 --util-source emulated --fail-below busy=50 >/dev/null 2>"$tmp/f.txt"
[ $? = 1 ] || golden_fail "--fail-below busy=50 should exit 1"
grep -q "busy 0.0% is below 50.0%" "$tmp/f.txt" || golden_fail "--fail-below: the failing policy is not named"
"$bin" validate "$juno" --platform juno-r0 --util-source emulated --fail-below speed=5 >/dev/null 2>&1
[ $? = 2 ] || golden_fail "--fail-below speed=5 should be a usage error"

# no util events: the util-trace column says n/a (a kernel cpu_frequency line added)
"$bin" gen periodic -o "$tmp/p.txt" >/dev/null 2>&1 || golden_fail "gen failed"
grep -v "cpu_frequency\|pelt" "$tmp/p.txt" >"$tmp/none.txt"
"$bin" validate "$tmp/none.txt" >"$tmp/none.out" 2>&1
[ $? = 3 ] || golden_fail "nothing to validate against: exit $?, expected 3"
grep -q "nothing to validate against" "$tmp/none.out" || golden_fail "nothing to validate: no message"
[ ! -s "$tmp/none.out" ] || ! grep -q "policy" "$tmp/none.out" || golden_fail "nothing to validate: a table was printed"
awk 'NR == 4 { print "          <idle>-0       [000] d..2     1.000100: cpu_frequency: state=533000 cpu_id=0" } { print }' \
	"$tmp/none.txt" >"$tmp/freq.txt"
"$bin" validate "$tmp/freq.txt" >"$tmp/freq.out" 2>&1 || golden_fail "one cpu_frequency: exit $?"
[ "$(field v5.9 policy0 10 "$tmp/freq.out")" = "n/a" ] || golden_fail "util trace column: not n/a"
grep -q "the trace carries no util events" "$tmp/freq.out" || golden_fail "no util events: not said"

# --- every figure a second time, from the trace text and the timeline of the same replay ------
# With --set switch_latency_us=0 each emulated frequency change is in force at the governor
# evaluation that asked for it, so the timeline's freq_khz column is the emulated frequency.
command -v python3 >/dev/null || golden_fail "python3 not found (tools/setup.sh)"
# recompute NAME TRACE REPORT_TEXT KERNEL_COL_KERNEL PLATFORM POLICY_CPUS... -- GOVSIM_ARGS...
recompute() {
	local name=$1 trace=$2 text=$3 k=$4 plat=$5 pols=() args
	shift 5
	"$bin" platforms show "$plat" --json >"$tmp/$name.plat.json" || golden_fail "$name: platforms show"

	while [ "$1" != "--" ]; do pols+=("$1"); shift; done
	shift
	args=("$@" --set switch_latency_us=0)
	"$bin" validate "$trace" "${args[@]}" --window-ms 10 >"$tmp/$name.v" 2>&1 ||
		golden_fail "$name: validate exit $?"
	for us in emulated trace; do
		if ! "$bin" run "$trace" "${args[@]}" --timing traced --util-source $us \
			--timeline "$tmp/$name.$us.csv" >/dev/null 2>"$tmp/$name.$us.err"; then
			# a trace without util events is refused with its own util (exit 3): nothing to
			# recompute, validate's util-trace column must say n/a (checked below)
			[ $us = trace ] && grep -q "no per-CPU util events" "$tmp/$name.$us.err" ||
				golden_fail "$name: run --util-source $us failed: $(cat "$tmp/$name.$us.err")"
			: >"$tmp/$name.$us.fig"
			continue
		fi
		python3 tests/golden/validate_figures.py "$text" "$tmp/$name.$us.csv" 10 \
			"$tmp/$name.plat.json" "${pols[@]}" --times "$tmp/$name.$us.times" \
			>"$tmp/$name.$us.fig" || golden_fail "$name: validate_figures.py failed"
	done
	# --json's decision_times: each kernel decision and emulated change with its pairing, as
	# the second implementation pairs them (its times in us: the report text's stamps rounded,
	# the timeline's truncated; ns here, so within 1 us)
	"$bin" validate "$trace" "${args[@]}" --window-ms 10 --json >"$tmp/$name.json" 2>/dev/null ||
		golden_fail "$name: validate --json exit $?"
	python3 -c '
import json, sys
got = [("policy%d" % p["policy"], kind, t, paired)
       for k in json.load(open(sys.argv[1]))["traces"][0]["kernels"] for p in k["policies"]
       for kind in ("kernel", "emulated") for t, paired in p["decision_times"][kind]]
want = [(f[0], f[1], int(f[2]), int(f[3])) for f in (l.split() for l in open(sys.argv[2]))]
if len(got) != len(want):
    sys.exit("%d decision times, the second implementation %d" % (len(got), len(want)))
for g, w in zip(got, want):
    if g[:2] != w[:2] or g[3] != w[3] or abs(g[2] / 1000 - w[2]) > 1:
        sys.exit("%s, the second implementation %s" % (g, w))
' "$tmp/$name.json" "$tmp/$name.emulated.times" >"$tmp/$name.dt.err" 2>&1 ||
		golden_fail "$name: decision_times: $(cat "$tmp/$name.dt.err")"
	# policy decisions emulated recall precision busy time (the second implementation) against
	# columns 3, 4, 5, 6, 8, 9
	while read -r p dec emu recall precision busy time; do
		[ "$(field "$k" "$p" 3 "$tmp/$name.v")" = "$dec" ] ||
			golden_fail "$name $p: decisions $(field "$k" "$p" 3 "$tmp/$name.v"), recomputed $dec"
		[ "$(field "$k" "$p" 4 "$tmp/$name.v")" = "$emu" ] ||
			golden_fail "$name $p: emulated $(field "$k" "$p" 4 "$tmp/$name.v"), recomputed $emu"
		for cw in "5 $recall 0.1" "6 $precision 0.1" "8 $busy 0.5" "9 $time 0.5"; do
			set -- $cw
			got=$(field "$k" "$p" "$1" "$tmp/$name.v")
			[ "$2" = - ] && { [ "$got" = - ] || golden_fail "$name $p column $1: '$got', recomputed -"; continue; }
			near "$got" "$2" "$3" || golden_fail "$name $p column $1: '$got', recomputed $2 (+- $3)"
		done
	done <"$tmp/$name.emulated.fig"
	# the util-trace column: the time share of the replay with the trace's util (n/a without)
	while read -r p dec emu recall precision busy time; do
		got=$(field "$k" "$p" 10 "$tmp/$name.v")
		[ "$got" = n/a ] || near "$got" "$time" 0.5 ||
			golden_fail "$name $p util trace: '$got', recomputed $time (+- 0.5)"
	done <"$tmp/$name.trace.fig"
	if [ ! -s "$tmp/$name.trace.fig" ]; then
		while read -r p dec emu recall precision busy time; do
			got=$(field "$k" "$p" 10 "$tmp/$name.v")
			[ "$got" = n/a ] || golden_fail "$name $p util trace: '$got' without util events, want n/a"
		done <"$tmp/$name.emulated.fig"
	fi
}
recompute juno "$juno" traces/juno-r0/sched_load/trace.report.txt v4.19 juno-r0 0,3,4,5 1,2 -- \
	--platform juno-r0 --kernel v4.19
recompute sf traces/android-8cpu/surfaceflinger.txt traces/android-8cpu/surfaceflinger.txt v5.9 \
	hikey960 0,1,2,3 4,5,6,7 -- --platform hikey960 --kernel v5.9
# the same figures pinned (tolerance: 1 percentage point)
while read -r n k p c w t; do
	got=$(field "$k" "$p" "$c" "$tmp/$n.v")
	near "$got" "$w" "$t" || golden_fail "$n $k $p column $c: '$got', pinned $w +- $t"
done <<'PINS'
juno v4.19 policy0 3 2 0
juno v4.19 policy0 5 50.0 0
juno v4.19 policy0 8 44.1 1
juno v4.19 policy0 9 54.4 1
juno v4.19 policy0 10 54.2 1
juno v4.19 policy1 3 1 0
juno v4.19 policy1 8 0.0 1
juno v4.19 policy1 9 74.5 1
juno v4.19 policy1 10 86.8 1
sf v5.9 policy0 3 1 0
sf v5.9 policy4 3 16 0
sf v5.9 policy4 9 0.0 0
PINS
# the surfaceflinger phone's OPPs are not hikey960's: validate says so rather than score it
grep -q "runs policy4 at 300000 kHz, which is no OPP of 'hikey960'" "$tmp/sf.v" ||
	golden_fail "surfaceflinger: the foreign-OPP note is missing"

# --- the what-ifs of `run` are refused (validate replays the traced configuration) -------------
refused() {
	"$bin" validate "$juno" --platform juno-r0 "$@" >/dev/null 2>"$tmp/r.txt"
	local s=$?
	[ $s = 2 ] || golden_fail "validate $1: exit $s, expected 2"
	grep -q "validate takes no" "$tmp/r.txt" || golden_fail "validate $1: no refusal message"
}
refused --policy tests/fixtures/policies/top-app.txt
refused --action 'setattr comm=x uclamp_min=1'
refused --warmup-ms 5

exit $fail
