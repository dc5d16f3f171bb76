#!/bin/bash
# merge_parts.sh - `govsim merge` of the databases `sweep --job K` writes (a job array's parts).
#
# Checks: the parts, given in any order (reversed, a shell glob where part-10 sorts before
# part-2), merge to the same database as a local sweep; with parts missing, merge refuses
# (exit 1), names exactly the missing jobs and leaves no output file; --partial merges the rest
# and names them; --expect N refuses a part of a sweep of another size and a database that is
# no part; a job given twice is refused. The missing jobs are chosen here, so the expected
# list is known without asking govsim.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init merge_parts


# 12 jobs: 2 governors x 6 values of hz
args=(traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0 --governor schedutil
	--governor performance --set hz=100,200,250,300,500,1000)
n=$("$bin" sweep "${args[@]}" --list-jobs | wc -l)
[ "$n" = 12 ] || { echo "merge_parts: expected 12 jobs, got $n" >&2; exit 1; }

same_db() {
	if ! diff -u <(golden_db_dump "$1") <(golden_db_dump "$2") >"$tmp/db.diff"; then
		head -20 "$tmp/db.diff"
		golden_fail "$3: '$1' and '$2' differ"
	fi
}
# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches PATTERN
expect() {
	local code=$1 pat=$2 st
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" != "$code" ] || ! grep -Eq -- "$pat" "$tmp/err"; then
		golden_fail "'$*': exit $st (expected $code), stderr:"
		cat "$tmp/err" >&2
		echo "  expected to match: $pat" >&2
	fi
}

"$bin" sweep "${args[@]}" --db "$tmp/local.db" --jobs 2 --quiet || golden_fail "local sweep: exit $?"
mkdir "$tmp/parts"
seq 0 $((n - 1)) | xargs -P2 -I{} "$bin" sweep "${args[@]}" --job {} \
	--db "$tmp/parts/part-{}.db" --quiet || golden_fail "a sweep --job failed"

# any order: reversed, and a glob (part-10 and part-11 come before part-2)
rev=()
for k in $(seq $((n - 1)) -1 0); do rev+=("$tmp/parts/part-$k.db"); done
"$bin" merge "$tmp/rev.db" "${rev[@]}" --quiet || golden_fail "merge of the reversed parts: exit $?"
same_db "$tmp/local.db" "$tmp/rev.db" "parts in reverse order"
"$bin" merge --expect "$n" "$tmp/glob.db" "$tmp"/parts/part-*.db --quiet ||
	golden_fail "merge --expect $n of the globbed parts: exit $?"
same_db "$tmp/local.db" "$tmp/glob.db" "parts from a glob, --expect $n"
# the merged database is a results database, not a part: no sweep_part table
t=$(sqlite3 "$tmp/glob.db" "SELECT count(*) FROM sqlite_master WHERE name = 'sweep_part'")
[ "$t" = 0 ] || golden_fail "sweep_part copied into the output"

# jobs 1, 3, 4 and 11 missing
mkdir "$tmp/some"
for k in 0 2 5 6 7 8 9 10; do cp "$tmp/parts/part-$k.db" "$tmp/some/"; done
expect 1 "missing 4 of 12 jobs: 1,3-4,11 \(no part for them\); nothing merged" \
	"$bin" merge "$tmp/missing.db" "$tmp"/some/part-*.db
[ ! -e "$tmp/missing.db" ] || golden_fail "a refused merge left a file"
expect 1 "missing 4 of 12 jobs: 1,3-4,11" \
	"$bin" merge --expect 12 "$tmp/missing.db" "$tmp"/some/part-*.db
[ ! -e "$tmp/missing.db" ] || golden_fail "a refused merge left a file"
expect 0 "missing jobs 1,3-4,11; merged the others" \
	"$bin" merge --partial "$tmp/partial.db" "$tmp"/some/part-*.db
r=$(sqlite3 "$tmp/partial.db" "SELECT group_concat(label, ';') FROM runs")
# jobs 0, 2, 5..10 in job order: jobs 0-5 are schedutil hz=100..1000, 6-11 performance
want="governor=schedutil hz=100;governor=schedutil hz=250;governor=schedutil hz=1000"
want="$want;governor=performance hz=100;governor=performance hz=200"
want="$want;governor=performance hz=250;governor=performance hz=300"
want="$want;governor=performance hz=500"
[ "$r" = "$want" ] || golden_fail "--partial runs: $r"

# --expect: the size of the sweep, and parts only
expect 3 "a part of a sweep of 12 jobs, expected 8" \
	"$bin" merge --expect 8 "$tmp/x.db" "$tmp"/parts/part-*.db
expect 3 "'$tmp/local.db': not a part of a sweep" \
	"$bin" merge --expect 12 "$tmp/x.db" "$tmp/local.db"
expect 3 "job 2 is in both" \
	"$bin" merge "$tmp/x.db" "$tmp/parts/part-2.db" "$tmp/some/part-2.db"
[ ! -e "$tmp/x.db" ] || golden_fail "a refused merge left a file"
expect 2 "--expect '0'" "$bin" merge --expect 0 "$tmp/x.db" "$tmp/local.db"

exit $fail
