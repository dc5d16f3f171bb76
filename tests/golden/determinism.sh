#!/bin/bash
# determinism.sh - the same inputs give the same results, byte for byte (equal
# timestamps keep their insertion order), on one trace (the numbers
# themselves are checked by the other golden and unit tests; this only checks repeatability).
#
# Invariants, on traces/android-8cpu/surfaceflinger.txt:
# - `run` twice, in two processes (different heap addresses and, under ASLR, pointer order),
#   with a clamp policy and --baselines: identical results databases when SOURCE_DATE_EPOCH pins
#   runs.created_at, identical --csv tables, --timeline CSV, summary and stderr; two runs into
#   one database write the same rows under two run ids.
# - `sweep` over governors x policy variants at --jobs 1 and at --jobs 2: identical databases
#   (SOURCE_DATE_EPOCH pinned): the merge is in job order, whatever finished first.
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs sqlite3(1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init determinism.sh
command -v sqlite3 >/dev/null || { echo "determinism.sh: sqlite3 not found (tools/setup.sh)"; exit 1; }
sf=traces/android-8cpu/surfaceflinger.txt
policy=tests/fixtures/policies/top-app.txt

# run twice with the same arguments in fresh directories; compare everything
for d in "$tmp/a" "$tmp/b"; do
	mkdir -p "$d"
	SOURCE_DATE_EPOCH=1600000000 "$bin" run "$sf" --policy "$policy" --baselines \
		--db "$d/pinned.db" --csv "$d/csv" --timeline "$d/timeline.csv" \
		>"$d/summary.txt" 2>"$d/stderr.txt" || golden_fail "run: exit status $?"
done
cmp -s "$tmp/a/pinned.db" "$tmp/b/pinned.db" || {
	golden_fail "run: results databases differ (SOURCE_DATE_EPOCH set)"
	diff <(sqlite3 "$tmp/a/pinned.db" .dump) <(sqlite3 "$tmp/b/pinned.db" .dump) | head -10
}
for f in summary.txt stderr.txt timeline.csv csv; do
	diff -r "$tmp/a/$f" "$tmp/b/$f" >"$tmp/diff" || { golden_fail "run: $f differs"; head -10 "$tmp/diff"; }
done
[ -s "$tmp/a/timeline.csv" ] || golden_fail "run: no timeline written"

# the same run twice into one database: the same rows apart from run_id (the first column)
"$bin" run "$sf" --policy "$policy" --db "$tmp/two.db" --quiet 2>/dev/null &&
	"$bin" run "$sf" --policy "$policy" --db "$tmp/two.db" --quiet 2>/dev/null || golden_fail "run into one database failed"
for t in energy residency policy_stats task_stats uclamp_stats timeline work; do
	diff <(sqlite3 "$tmp/two.db" "SELECT * FROM $t WHERE run_id = 1" | cut -d'|' -f2-) \
		<(sqlite3 "$tmp/two.db" "SELECT * FROM $t WHERE run_id = 2" | cut -d'|' -f2-) >"$tmp/diff" || {
		golden_fail "table $t: a second run into one database wrote other rows"
		head -6 "$tmp/diff"
	}
done

# sweep at --jobs 1 and 2: the same database
for j in 1 2; do
	SOURCE_DATE_EPOCH=1600000000 "$bin" sweep "$sf" --governor schedutil --governor ondemand \
		--no-policy --policy "$policy" --jobs $j --quiet --db "$tmp/sweep$j.db" \
		>/dev/null 2>"$tmp/sweep$j.err" || { golden_fail "sweep --jobs $j: exit status $?"; cat "$tmp/sweep$j.err"; }
done
[ "$(sqlite3 "$tmp/sweep1.db" 'SELECT count(*) FROM runs')" = 4 ] || golden_fail "sweep: not 4 runs stored"
cmp -s "$tmp/sweep1.db" "$tmp/sweep2.db" || {
	golden_fail "sweep: the database at --jobs 2 differs from the one at --jobs 1"
	diff <(sqlite3 "$tmp/sweep1.db" .dump) <(sqlite3 "$tmp/sweep2.db" .dump) | head -10
}
exit $fail
