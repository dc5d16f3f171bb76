#!/bin/bash
# readme_tour.sh - the README's tour, taken from README.md and run as pasted, so it cannot rot.
#
# Runs, from a scratch directory that looks like the repository root (traces/, examples/,
# models/ and build/ linked in): the `$ ./build/govsim ...` command of "What a run prints",
# whose output must equal the block that follows it in README.md line for line; and every
# `./build/govsim` command of the README's ```sh blocks (with their `\` continuations), which
# must exit 0 (compare with --fail-on: 0 or 1, its documented answers) and leave what they
# promise (the database, the report's HTML page); where an output block follows a ```sh block
# at once, every line of it must be a line the block's last command printed; the sweep's
# comment must count its clamp policies, governors, traces and runs as the command line and
# the database do. Also checks that every relative link of the README names a file of the
# repository. Does not check the numbers otherwise (run.sh, compare.sh do).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init readme_tour
src=$PWD
ln -s "$src/traces" "$src/examples" "$src/models" "$tmp/"
ln -s "$(dirname "$bin")" "$tmp/build"

# 1. the printed run, against the block in the README
awk '/^### What a run prints/{f=1} f&&/^```$/{n++; if(n==2) exit} f&&n==1' README.md |
	sed -n '2,$p' >"$tmp/block.txt"
cmd=$(sed -n '1s/^\$ //p' "$tmp/block.txt")
case "$cmd" in ./build/govsim\ *) ;; *) echo "readme_tour: no '\$ ./build/govsim' line in 'What a run prints'" >&2; exit 1 ;; esac
tail -n +2 "$tmp/block.txt" >"$tmp/want.txt"
(cd "$tmp" && eval "$cmd") >"$tmp/got.txt" 2>/dev/null || golden_fail "'$cmd' failed"
diff -u "$tmp/want.txt" "$tmp/got.txt" >&2 || golden_fail "README's 'What a run prints' differs from the output"

# 2. every ./build/govsim command of the ```sh blocks, numbered by block (C lines), and the
# output blocks that follow a ```sh block at once (O lines)
awk '
	f && /^```$/ { f = 0; last = NR; next }
	f { print b "\tC\t" $0; next }
	o && /^```$/ { o = 0; next }
	o { print b "\tO\t" $0; next }
	other && /^```/ { other = 0; next }
	other { next }
	/^```sh$/ { b++; f = 1; next }
	/^```$/ && NR == last + 1 { o = 1; next }
	/^```/ { other = 1 }' README.md >"$tmp/blocks.txt"
awk -F'\t' '$2 == "C" { line = $3; if (sub(/\\$/, "", line)) { acc = acc line; next }
	print $1 "\t" acc line; acc = "" }' "$tmp/blocks.txt" |
	grep -P '^[0-9]+\t\./build/govsim ' >"$tmp/cmds.txt"
[ "$(wc -l <"$tmp/cmds.txt")" -ge 3 ] || golden_fail "fewer than 3 commands found"
while IFS=$'\t' read -r blk c; do
	(cd "$tmp" && eval "$c") >"$tmp/out.txt" 2>&1
	st=$?
	cp "$tmp/out.txt" "$tmp/out.$blk"
	case "$c" in
	*" compare "*--fail-on*) [ $st = 0 ] || [ $st = 1 ] || { golden_fail "exit $st: $c"; cat "$tmp/out.txt" >&2; } ;;
	*) [ $st = 0 ] || { golden_fail "exit $st: $c"; cat "$tmp/out.txt" >&2; } ;;
	esac
	if grep -q "warning" "$tmp/out.txt"; then
		golden_fail "warnings from: $c"
		cat "$tmp/out.txt" >&2
	fi
done <"$tmp/cmds.txt"
[ -s "$tmp/whatif.db" ] || golden_fail "the sweep left no whatif.db"

# output blocks: each line one the block's last command printed
for blk in $(awk -F'\t' '$2 == "O" { print $1 }' "$tmp/blocks.txt" | sort -un); do
	[ -f "$tmp/out.$blk" ] || { golden_fail "output block after sh block $blk, which runs no govsim"; continue; }
	awk -F'\t' -v b="$blk" '$1 == b && $2 == "O" { print $3 }' "$tmp/blocks.txt" | while IFS= read -r l; do
		[ -z "$l" ] || grep -Fxq -- "$l" "$tmp/out.$blk" ||
			{ echo "readme_tour: README shows '$l', the command printed no such line:" >&2; cat "$tmp/out.$blk" >&2; exit 1; }
	done || golden_fail "output block after sh block $blk: a line the command did not print"
done

# the sweep's comment counts what its command line holds and what the database gets
words='one two three four five six seven eight nine ten'
num() { local i=1; for w in $words; do [ "$w" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo "$1"; }
sweep_cmd=$(cut -f2 "$tmp/cmds.txt" | grep '^\./build/govsim sweep ' | head -1)
comment=$(grep -B3 '^\./build/govsim sweep ' README.md | grep '^#' | tr '\n' ' ')
pol=$(num "$(echo "$comment" | sed -n 's/.*# \([a-z0-9]*\) clamp policies.*/\1/p')")
gov=$(num "$(echo "$comment" | sed -n 's/.* x \([a-z0-9]*\) governors.*/\1/p')")
trc=$(num "$(echo "$comment" | sed -n 's/.* over \([a-z0-9]*\) traces.*/\1/p')")
runs=$(echo "$comment" | sed -n 's/.* \([0-9][0-9]*\) runs.*/\1/p')
set -f
# shellcheck disable=SC2086
set -- $(echo "$sweep_cmd" | sed "s/'[^']*'/Q/g")
set +f
n_pol=0 n_gov=0 n_trc=0
shift 2
while [ $# -gt 0 ]; do
	case "$1" in
	--no-policy) n_pol=$((n_pol + 1)) ;;
	--policy | --action) n_pol=$((n_pol + 1)); shift ;;
	--governor) n_gov=$((n_gov + 1)); shift ;;
	--*) shift ;;
	*) n_trc=$((n_trc + 1)) ;;
	esac
	shift
done
db_runs=$(sqlite3 "$tmp/whatif.db" 'SELECT count(*) FROM runs' 2>/dev/null)
if [ "$pol/$gov/$trc/$runs" != "$n_pol/$n_gov/$n_trc/$db_runs" ] ||
	[ "$runs" != "$((n_pol * n_gov * n_trc))" ]; then
	golden_fail "the sweep's comment says $pol policies x $gov governors x $trc traces, $runs runs;" \
		"the command has $n_pol x $n_gov x $n_trc, the database $db_runs runs"
fi
[ -s "$tmp/report/index.html" ] || ls "$tmp/report"/*.html >/dev/null 2>&1 ||
	golden_fail "the report left no HTML page"

# 3. links stay inside the repository
grep -o '](\([^)#]*\))' README.md | sed 's/^](//; s/)$//' | grep -v '^https\?:' | while read -r l; do
	[ -e "$l" ] || { echo "readme_tour: README links to '$l', not in the repository" >&2; exit 1; }
done || golden_fail "a README link leaves the repository"
grep -n '\.\./' README.md >&2 && golden_fail "README names a path outside the repository"

exit $fail
