#!/bin/bash
# help_text.sh - the help describes what the program prints and accepts.
#
# Checks:
#  - compare --help lists every metric compare accepts: the names come from the program's own
#    answer to an unknown --fail-on metric ("one of: ..."), on work-timing runs (which have
#    every metric), per-cluster and per-policy names with their number written as N;
#  - run --help's summary section names every line a run prints: each unindented line's label
#    (its first word, numbers as N; "kernel overhead", "placement eas") and the latency,
#    response and lateness lines, taken from a run that prints them all (work timing,
#    --placement eas, a clamp action, --traced-config, --baselines).
# Does not check: the wording of the descriptions.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init help_text

"$bin" gen periodic --count 20 -o "$tmp/p.txt" || exit 1

# compare: every accepted metric in the help
"$bin" run "$tmp/p.txt" --db "$tmp/c.db" --quiet &&
	"$bin" run "$tmp/p.txt" --db "$tmp/c.db" --quiet --governor performance || exit 1
"$bin" compare --db "$tmp/c.db" --base run=1 --new run=2 --fail-on 'no_such_metric>1' \
	>/dev/null 2>"$tmp/err.txt"
sed -n 's/.*(one of: \(.*\))$/\1/p' "$tmp/err.txt" | tr ',' '\n' | sed 's/^ *//; s/\(cluster\|policy\)[0-9][0-9]*$/\1N/' |
	sort -u >"$tmp/accepted.txt"
[ "$(wc -l <"$tmp/accepted.txt")" -ge 20 ] ||
	{ golden_fail "compare named fewer than 20 metrics:"; cat "$tmp/err.txt" >&2; }
"$bin" compare --help >"$tmp/compare_help.txt"
while read -r m; do
	grep -qE "^  $m( |$)" "$tmp/compare_help.txt" ||
		golden_fail "compare accepts metric '$m', its --help does not list it"
done <"$tmp/accepted.txt"

# run: every line of the summary described
"$bin" run "$tmp/p.txt" --baselines --placement eas --traced-config uclamp=on,depth=2 \
	--action 'setattr comm=* uclamp_max=300' >"$tmp/run.txt" 2>/dev/null || { echo "help_text: run failed" >&2; exit 1; }
"$bin" run --help | sed -n '/^The summary/,/^exit status/p' >"$tmp/run_help.txt"
{
	grep -v '^govsim ' "$tmp/run.txt" | grep '^[a-z]' | awk '{ print $1 }' | sed 's/:$//; s/[0-9][0-9]*$/N/' |
		sed 's/^kernel$/kernel overhead/; s/^placement$/placement eas/'
	grep -oE '^  (latency|response|lateness) ' "$tmp/run.txt" | sed 's/^ *//; s/ *$//'
} | sort -u >"$tmp/labels.txt"
[ "$(wc -l <"$tmp/labels.txt")" -ge 15 ] ||
	{ golden_fail "fewer than 15 summary labels found:"; cat "$tmp/labels.txt" >&2; }
while read -r l; do
	grep -qF "  $l" "$tmp/run_help.txt" ||
		golden_fail "run prints '$l ...', run --help's summary does not describe it"
done <"$tmp/labels.txt"
# The program's summary names the kernels it follows: the first and last row of `kernels list`
# (it said "Linux v5.9" long after the profiles went from v4.19 to v7.2).
first=$("$bin" kernels list | awk 'NR == 1 { sub(/-early$/, "", $1); print $1 }')
last=$("$bin" kernels list | awk 'END { print $1 }')
"$bin" --help | tr '\n' ' ' | grep -qF "profiles $first to $last" ||
	golden_fail "govsim --help does not name the profiles $first to $last"
exit $fail
