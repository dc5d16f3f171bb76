#!/bin/bash
# readme_tour.sh - the README's tour, taken from README.md and run as pasted, so it cannot rot.
#
# Runs, from a scratch directory that looks like the repository root (traces/, examples/,
# models/ and build/ linked in): the `$ ./build/govsim ...` command of "What a run prints",
# whose output must equal the block that follows it in README.md line for line; and every
# `./build/govsim` command of the README's ```sh blocks (with their `\` continuations), which
# must exit 0 (compare with --fail-on: 0 or 1, its documented answers) and leave what they
# promise (the database, the report's HTML page). Also checks that every relative link of the
# README names a file of the repository. Does not check the numbers (run.sh, compare.sh do).
set -u
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
src=$PWD
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$src/traces" "$src/examples" "$src/models" "$tmp/"
ln -s "$(dirname "$bin")" "$tmp/build"

# 1. the printed run, against the block in the README
awk '/^### What a run prints/{f=1} f&&/^```$/{n++; if(n==2) exit} f&&n==1' README.md |
	sed -n '2,$p' >"$tmp/block.txt"
cmd=$(sed -n '1s/^\$ //p' "$tmp/block.txt")
case "$cmd" in ./build/govsim\ *) ;; *) echo "readme_tour: no '\$ ./build/govsim' line in 'What a run prints'" >&2; exit 1 ;; esac
tail -n +2 "$tmp/block.txt" >"$tmp/want.txt"
(cd "$tmp" && eval "$cmd") >"$tmp/got.txt" 2>/dev/null || { echo "readme_tour: '$cmd' failed" >&2; fail=1; }
diff -u "$tmp/want.txt" "$tmp/got.txt" >&2 || { echo "readme_tour: README's 'What a run prints' differs from the output" >&2; fail=1; }

# 2. every ./build/govsim command of the ```sh blocks
awk '/^```sh$/{f=1; next} /^```$/{f=0} f' README.md |
	awk '{ if (sub(/\\$/, "")) { acc = acc $0; next } print acc $0; acc = "" }' |
	grep '^\./build/govsim ' >"$tmp/cmds.txt"
[ "$(wc -l <"$tmp/cmds.txt")" -ge 3 ] || { echo "readme_tour: fewer than 3 commands found" >&2; fail=1; }
while IFS= read -r c; do
	(cd "$tmp" && eval "$c") >"$tmp/out.txt" 2>&1
	st=$?
	case "$c" in
	*" compare "*--fail-on*) [ $st = 0 ] || [ $st = 1 ] || { echo "readme_tour: exit $st: $c" >&2; cat "$tmp/out.txt" >&2; fail=1; } ;;
	*) [ $st = 0 ] || { echo "readme_tour: exit $st: $c" >&2; cat "$tmp/out.txt" >&2; fail=1; } ;;
	esac
	if grep -q "warning" "$tmp/out.txt"; then
		echo "readme_tour: warnings from: $c" >&2
		cat "$tmp/out.txt" >&2
		fail=1
	fi
done <"$tmp/cmds.txt"
[ -s "$tmp/whatif.db" ] || { echo "readme_tour: the sweep left no whatif.db" >&2; fail=1; }
[ -s "$tmp/report/index.html" ] || ls "$tmp/report"/*.html >/dev/null 2>&1 ||
	{ echo "readme_tour: the report left no HTML page" >&2; fail=1; }

# 3. links stay inside the repository
grep -o '](\([^)#]*\))' README.md | sed 's/^](//; s/)$//' | grep -v '^https\?:' | while read -r l; do
	[ -e "$l" ] || { echo "readme_tour: README links to '$l', not in the repository" >&2; exit 1; }
done || fail=1
grep -n '\.\./' README.md >&2 && { echo "readme_tour: README names a path outside the repository" >&2; fail=1; }

exit $fail
