#!/bin/bash
# compare_spread.sh - `govsim compare` claims no significance without spread, prints no inf/nan.
#
# Checks, on a database built here (surfaceflinger, two identical repeats per side: no policy,
# and uclamp_min=1024 on every task, whose clamp aggregation and charged overhead go from 0 to
# more): no '*' on any row (both sides have zero spread: a deterministic replay's repeats are
# no sample), the JSON has no metric tested or significant and p null there, and the text
# footer says why; no 'inf' or 'nan' in the text, markdown, csv or --new columns outputs, and a
# change from a base of 0 reads 'new' (uclamp_aggregations). The same with one run per side.
# Does not check: Welch's test itself (test_compare.c).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init compare_spread
sf=traces/android-8cpu/surfaceflinger.txt
db=$tmp/r.db
boost='setattr comm=* uclamp_min=1024'

for i in 1 2; do
	"$bin" run $sf --db "$db" --label base --quiet || golden_fail "base run $i failed"
	"$bin" run $sf --db "$db" --label boost --action "$boost" --quiet || golden_fail "boost run $i failed"
done

# no_inf NAME FILE: no inf or nan as a word in FILE
no_inf() {
	if grep -qiwE 'inf|nan|[+-]inf%' "$2"; then
		golden_fail "$1: inf or nan in the output:"
		grep -iwE 'inf|nan|[+-]inf%' "$2" >&2
	fi
}

sel=(--db "$db" --base label=base --new label=boost)
"$bin" compare "${sel[@]}" >"$tmp/text" || golden_fail "compare failed"
no_inf text "$tmp/text"
grep -E '^Amean' "$tmp/text" | grep -qF '*' && golden_fail "text: a '*' with no spread on either side"
grep -qE '^Amean +uclamp_aggregations +[0-9]+ \( +0\.00%\) +[0-9]+ \( +new\)' "$tmp/text" ||
	golden_fail "text: uclamp_aggregations 0 -> N does not read 'new': $(grep uclamp_agg "$tmp/text")"
grep -q "no spread" "$tmp/text" || golden_fail "text: the footer does not say why there is no test"
"$bin" compare "${sel[@]}" --format markdown >"$tmp/md" || golden_fail "compare markdown failed"
no_inf markdown "$tmp/md"
grep -F '| Amean |' "$tmp/md" | grep -qF '| * |' && golden_fail "markdown: a '*' with no spread"
"$bin" compare "${sel[@]}" --format csv >"$tmp/csv" || golden_fail "compare csv failed"
no_inf csv "$tmp/csv"
"$bin" compare --db "$db" --base label=base --new label=boost --new label=base >"$tmp/cols" ||
	golden_fail "compare --new --new failed"
no_inf columns "$tmp/cols"
grep -E '^Amean' "$tmp/cols" | grep -qF '*' && golden_fail "columns: a '*' with no spread"
"$bin" compare "${sel[@]}" --json >"$tmp/json" || golden_fail "compare --json failed"
python3 - "$tmp/json" <<'PY' || golden_fail "the Python check of $tmp/json failed"
import json, sys
j = json.load(open(sys.argv[1]))
bad = 0
for m in j['metrics']:
    if m['base']['sd'] == 0 and m['new']['sd'] == 0 and (m['tested'] or m['significant']
                                                        or m['p'] is not None):
        print(f"compare_spread: json: {m['metric']} tested without spread: {m}", file=sys.stderr)
        bad = 1
sys.exit(bad)
PY

# one run per side
"$bin" compare --db "$db" --base run=1 --new run=2 >"$tmp/one" || golden_fail "compare one run failed"
no_inf one "$tmp/one"
grep -qF '*' "$tmp/one" && golden_fail "one run per side: a '*'"
exit $fail
