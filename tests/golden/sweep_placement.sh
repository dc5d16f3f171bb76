#!/bin/bash
# sweep_placement.sh - `govsim sweep --placement traced,eas`: placement as a sweep variable
#.
#
# Invariants, derived by hand:
#  - 2 placements x 2 values of a tunable on one trace give 4 jobs, placement varying slower
#    (jobs ordered trace, policy, kernel, placement, governor, tunables): labels, in order,
#    "placement=traced rate_limit_us=500", "placement=traced rate_limit_us=2000",
#    "placement=eas rate_limit_us=500", "placement=eas rate_limit_us=2000" (schedutil both: EAS
#    needs it, with another governor the fallback path keeps the task on its idle prev CPU);
#  - the sweep stores 4 runs; `compare --base placement=traced --new placement=eas` takes 2 runs
#    a side; only the eas runs have runs.params "placement=eas" and a placement row;
#  - on the light trace of placement.sh (a task of util about 150 traced on big CPU4: v5.9 moves
#    it to LITTLE once and keeps it there, the derivation is in placement.sh) each eas run has 1
#    migration and its LITTLE cluster (policy 0) is busier than in the traced run of the same
#    tunable value, whose LITTLE cluster runs nothing of the task (busy 0), so the energies differ;
#  - the eas runs keep what ran where: 60 slices each in placement_slices (the trace's 60
#    activations of light, never preempted: one slice each), the traced runs none; `report`
#    draws run3_placement.png and run4_placement.png (1200 x 600), none for runs 1 and 2;
#  - a comma list needs --timing work when it holds eas, and `run` takes one mode (exit 2);
#    an unknown or repeated mode is exit 2.
# Run from the source root with GOVSIM_BIN set (tests/CMakeLists.txt); needs sqlite3(1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sweep_placement
command -v sqlite3 >/dev/null || { echo "sweep_placement.sh: sqlite3 not found"; exit 1; }

"$bin" gen periodic -o "$tmp/light.txt" --platform hikey960 \
	--task name=light,period_ms=16,duty=0.15,cpu=4,count=60 >/dev/null || exit 1
args=("$tmp/light.txt" --timing work --set rate_limit_us=500,2000 --placement traced,eas)

"$bin" sweep "${args[@]}" --list-jobs >"$tmp/list.txt" 2>&1
golden_check "--list-jobs exit 0" $?
cut -f3 "$tmp/list.txt" >"$tmp/labels.txt"
printf '%s\n' "placement=traced rate_limit_us=500" "placement=traced rate_limit_us=2000" \
	"placement=eas rate_limit_us=500" "placement=eas rate_limit_us=2000" >"$tmp/want.txt"
golden_check "job labels: $(tr '\n' '|' <"$tmp/labels.txt")" $(cmp -s "$tmp/labels.txt" "$tmp/want.txt"; echo $?)

"$bin" sweep "${args[@]}" --db "$tmp/r.db" --jobs 2 --quiet
golden_check "sweep exit 0, got $?" $?
q() { sqlite3 "$tmp/r.db" "$1"; }
golden_check "4 runs stored" $([ "$(q 'SELECT count(*) FROM runs')" = 4 ]; echo $?)
golden_check "the eas runs' params" $([ "$(q "SELECT group_concat(run_id) FROM runs WHERE params LIKE '%placement=eas%'")" = 3,4 ]; echo $?)
golden_check "placement rows: the eas runs, 1 migration each" \
	$([ "$(q 'SELECT group_concat(run_id || ":" || migrations) FROM placement')" = 3:1,4:1 ]; echo $?)
for gov in 500 2000; do
	t=$(q "SELECT run_id FROM runs WHERE label = 'placement=traced rate_limit_us=$gov'")
	e=$(q "SELECT run_id FROM runs WHERE label = 'placement=eas rate_limit_us=$gov'")
	tb=$(q "SELECT busy_s FROM policy_stats WHERE run_id = $t AND policy = 0")
	eb=$(q "SELECT busy_s FROM policy_stats WHERE run_id = $e AND policy = 0")
	golden_check "$gov: traced LITTLE busy 0, got $tb" $(awk -v b="$tb" 'BEGIN { exit !(b == 0) }'; echo $?)
	golden_check "$gov: eas LITTLE busier ($eb)" $(awk -v b="$eb" 'BEGIN { exit !(b > 0) }'; echo $?)
	te=$(q "SELECT joules FROM energy WHERE run_id = $t AND scope = 'total'")
	ee=$(q "SELECT joules FROM energy WHERE run_id = $e AND scope = 'total'")
	golden_check "$gov: energies differ ($te, $ee)" $([ "$te" != "$ee" ]; echo $?)
done

golden_check "60 slices per eas run, none traced" \
	$([ "$(q 'SELECT group_concat(run_id || ":" || n) FROM (SELECT run_id, count(*) AS n FROM placement_slices GROUP BY run_id ORDER BY run_id)')" = 3:60,4:60 ]; echo $?)
"$bin" report --db "$tmp/r.db" --out "$tmp/rep" >/dev/null 2>&1
golden_check "report exit 0, got $?" $?
golden_check "placement plots of the eas runs only" \
	$([ "$(cd "$tmp/rep" && ls run*_placement.png | tr '\n' ' ')" = "run3_placement.png run4_placement.png " ]; echo $?)
golden_check "run3_placement.png is a 1200x600 PNG" \
	$([ "$(od -An -tx1 -j16 -N8 "$tmp/rep/run3_placement.png" | tr -d ' \n')" = 000004b000000258 ]; echo $?)

"$bin" compare --db "$tmp/r.db" --base placement=traced --new placement=eas >"$tmp/cmp.txt" 2>&1
golden_check "compare exit 0, got $?" $?
golden_check "compare base: 2 traced runs" $(grep -q '^base: placement=traced (2 runs)' "$tmp/cmp.txt"; echo $?)
golden_check "compare new: 2 eas runs" $(grep -q '^new:  placement=eas (2 runs)' "$tmp/cmp.txt"; echo $?)

"$bin" sweep "$tmp/light.txt" --timing traced --placement traced,eas --db "$tmp/x.db" --quiet 2>/dev/null
golden_check "traced,eas with traced timing: exit 2, got $?" $([ $? = 2 ]; echo $?)
"$bin" sweep "$tmp/light.txt" --timing work --placement eas,eas --list-jobs >/dev/null 2>&1
golden_check "eas,eas: exit 2, got $?" $([ $? = 2 ]; echo $?)
"$bin" sweep "$tmp/light.txt" --timing work --placement traced,far --list-jobs >/dev/null 2>&1
golden_check "traced,far: exit 2, got $?" $([ $? = 2 ]; echo $?)
"$bin" run "$tmp/light.txt" --timing work --placement traced,eas >/dev/null 2>&1
golden_check "run with two modes: exit 2, got $?" $([ $? = 2 ]; echo $?)
"$bin" sweep "$tmp/light.txt" --timing work --placement eas --list-jobs >"$tmp/one.txt" 2>&1
golden_check "one mode: 1 job, not labelled" $([ "$(cut -f3 "$tmp/one.txt")" = "" ] && [ "$(wc -l <"$tmp/one.txt")" = 1 ]; echo $?)

[ $fail = 0 ] && echo "sweep_placement.sh: ok"
exit $fail
