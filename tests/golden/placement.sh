#!/bin/bash
# placement.sh - `run --placement eas` end to end on generated Hikey960 traces.
#
# Invariants, each derived by hand from the v5.9 rules (find_energy_efficient_cpu) and the
# Hikey960 EM:
#  - --placement eas with --timing traced, or an unknown mode, is a usage error (exit 2);
#  - traced placement (the default) prints no placement block and no "placement" JSON member;
#  - a light periodic task traced on big CPU4 (16 ms, 15 % at 2362 MHz: util about 150, below
#    LITTLE's 369 limit even at its peak) moves to LITTLE once and stays: at every util u >= 2
#    the LITTLE candidate saves more than 1/16 of the big one (u = 20: big 635 x 21 / 1024 = 13
#    at 903 MHz, LITTLE 96 x 21 / 462 = 4 at 533 MHz; u = 300: 186 vs 130, test_eas.c's
#    first example) and from LITTLE the big candidate never wins; its first wakeup (util 0:
#    both deltas 0)
#    stays. So exactly 1 migration and at least 90 % of its runtime on cluster 0;
#  - a heavy periodic task traced on LITTLE CPU0 (16 ms, 90 % at 1844 MHz: util about 415 once
#    on big) makes CPU0 overutilized (util >= 370) and is misfit there (415 x 1280 >= 462 x
#    1024): it is pulled to an idle big CPU at a tick (at least one misfit pull, overutilized
#    time > 0) and then fits only big (feec skips LITTLE: 416 does not fit 462), so most of its
#    runtime is on cluster 1;
#  - pinned with `--action 'affinity comm=light 4-7'` the light task never leaves CPU4: the
#    big CPUs tie on energy and prev (CPU4, the first of the largest spare) is kept: 0
#    migrations, all its runtime on cluster 1;
#  - the same eas run twice gives the same bytes;
#  - --db records it: runs.params has placement=eas, one placement row (mode eas, the JSON's
#    migrations), placement_tasks one row per task and cluster; a traced run adds no placement
#    row; compare selects the eas run with placement=eas;
#  - validate --placement eas on the light trace (its markers as kernel cpu_frequency events):
#    the task stays on CPU4 in the traced replay, so each of its 59 wakeups after the first
#    (which starts it) is one where v5.9 would pick LITTLE CPU0 (the reason above): policy4
#    59 wakeups, 0 agree, and --explain lists 59 disagreements "traced 4 emulated 0" whose
#    cpu0 energy delta is below cpu4's.
# Does not check: energies (tests/unit/test_eas.c computes them by hand).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs jq(1) and
# sqlite3(1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init placement
command -v jq >/dev/null || { echo "placement.sh: jq not found (tools/setup.sh)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "placement.sh: sqlite3 not found (tools/setup.sh)"; exit 1; }

"$bin" gen periodic -o "$tmp/light.txt" --platform hikey960 \
	--task name=light,period_ms=16,duty=0.15,cpu=4,count=60 >/dev/null || exit 1
"$bin" gen periodic -o "$tmp/heavy.txt" --platform hikey960 \
	--task name=heavy,period_ms=16,duty=0.9,cpu=0,count=60 >/dev/null || exit 1

"$bin" run "$tmp/light.txt" --placement eas --timing traced >/dev/null 2>"$tmp/err"
golden_check "--placement eas --timing traced: exit 2, got $?" $([ $? = 2 ]; echo $?)
"$bin" run "$tmp/light.txt" --placement nowhere >/dev/null 2>"$tmp/err"
golden_check "--placement nowhere: exit 2, got $?" $([ $? = 2 ]; echo $?)

"$bin" run "$tmp/light.txt" >"$tmp/traced.txt" || golden_check "traced run" 1
"$bin" run "$tmp/light.txt" --json >"$tmp/traced.json" || golden_check "traced json" 1
golden_check "traced placement prints no placement block" $(! grep -q '^placement eas' "$tmp/traced.txt"; echo $?)
golden_check "traced placement has no placement member" \
	$([ "$(jq 'has("placement")' "$tmp/traced.json")" = false ]; echo $?)

"$bin" run "$tmp/light.txt" --placement eas --json >"$tmp/light.json" || golden_check "eas json" 1
mig=$(jq '.placement.tasks[] | select(.comm == "light") | .migrations' "$tmp/light.json")
golden_check "light task: 1 migration, got $mig" $([ "$mig" = 1 ]; echo $?)
share=$(jq '.placement.tasks[] | select(.comm == "light") |
	(.cluster_runtime_s[0] / .runtime_s)' "$tmp/light.json")
golden_check "light task: >= 90% on LITTLE, got $share" $(jq -e -n "$share >= 0.9" >/dev/null; echo $?)

"$bin" run "$tmp/light.txt" --placement eas --action 'affinity comm=light 4-7' --json \
	>"$tmp/pinned.json" || golden_check "pinned json" 1
pmig=$(jq '.placement.tasks[] | select(.comm == "light") | .migrations' "$tmp/pinned.json")
pshare=$(jq '.placement.tasks[] | select(.comm == "light") |
	(.cluster_runtime_s[1] / .runtime_s)' "$tmp/pinned.json")
golden_check "pinned light task: 0 migrations, got $pmig" $([ "$pmig" = 0 ]; echo $?)
golden_check "pinned light task: all on big, got $pshare" $(jq -e -n "$pshare == 1" >/dev/null; echo $?)

"$bin" run "$tmp/heavy.txt" --placement eas --json >"$tmp/heavy.json" || golden_check "heavy json" 1
pulls=$(jq '.placement.misfit_pulls' "$tmp/heavy.json")
ou=$(jq '.placement.overutilized_s' "$tmp/heavy.json")
hshare=$(jq '.placement.tasks[] | select(.comm == "heavy") |
	(.cluster_runtime_s[1] / .runtime_s)' "$tmp/heavy.json")
golden_check "heavy task: a misfit pull, got $pulls" $([ "$pulls" -ge 1 ]; echo $?)
golden_check "heavy task: overutilized time > 0, got $ou" $(jq -e -n "$ou > 0" >/dev/null; echo $?)
golden_check "heavy task: > 50% on big, got $hshare" $(jq -e -n "$hshare > 0.5" >/dev/null; echo $?)

"$bin" run "$tmp/heavy.txt" --placement eas >"$tmp/h1.txt" || golden_check "heavy run 1" 1
"$bin" run "$tmp/heavy.txt" --placement eas >"$tmp/h2.txt" || golden_check "heavy run 2" 1
golden_check "eas runs are deterministic" $(cmp -s "$tmp/h1.txt" "$tmp/h2.txt"; echo $?)
golden_check "summary has the placement block" $(grep -q '^placement eas: ' "$tmp/h1.txt"; echo $?)

"$bin" run "$tmp/light.txt" --placement eas --db "$tmp/r.db" --quiet || golden_check "eas --db" 1
"$bin" run "$tmp/light.txt" --db "$tmp/r.db" --quiet || golden_check "traced --db" 1
q() { sqlite3 "$tmp/r.db" "$1"; }
golden_check "runs.params of the eas run" $([ "$(q 'SELECT params FROM runs WHERE run_id = 1')" = placement=eas ]; echo $?)
golden_check "one placement row, eas, 1 migration" \
	$([ "$(q 'SELECT run_id, mode, migrations FROM placement')" = "1|eas|1" ]; echo $?)
golden_check "placement_tasks: tasks x clusters rows" \
	$([ "$(q 'SELECT count(*) FROM placement_tasks')" = "$(q 'SELECT 2 * count(*) FROM task_stats WHERE run_id = 1')" ]; echo $?)
"$bin" compare --db "$tmp/r.db" --base run=2 --new placement=eas >"$tmp/cmp.txt" 2>&1
golden_check "compare placement=eas selector, exit $?" $(grep -q '^new:  placement=eas (1 run)' "$tmp/cmp.txt"; echo $?)

sed 's/tracing_mark_write: cpu_frequency_devlib:/cpu_frequency:/' "$tmp/light.txt" >"$tmp/lightk.txt"
"$bin" validate "$tmp/lightk.txt" --placement eas --explain >"$tmp/val.txt" 2>&1
golden_check "validate --placement eas: exit $?" $(grep -q 'policy4 *59 wakeups, *0 agree' "$tmp/val.txt"; echo $?)
golden_check "59 disagreements, traced 4 emulated 0" \
	$([ "$(grep -c 'light *1000 prev 4 traced 4 emulated 0  base [0-9]*, cpu4 +[0-9]* .*cpu0 +[0-9]*$' "$tmp/val.txt")" = 59 ]; echo $?)
golden_check "cpu0's delta below cpu4's in every one" $(awk '/traced 4 emulated 0/ {
	a = $0; sub(/.*cpu4 \+/, "", a); sub(/ .*/, "", a); b = $0; sub(/.*cpu0 \+/, "", b);
	if (b + 0 >= a + 0) bad = 1 } END { exit bad }' "$tmp/val.txt"; echo $?)

[ $fail = 0 ] && echo "placement.sh: ok"
exit $fail
