#!/bin/bash
# no_private_refs.sh - what a user of this repository reads points at nothing outside it.
#
# Checks: README.md, docs/*.md, every command's --help, `kernels list` and `kernels show` of
# every profile name no design document or fact sheet the repository does not hold: no
# "shared/", "DESIGN.md", "facts/" or section sign ("§n", the sheets' section numbers).
# Does not check: the repository's own files beyond README.md and docs/ (tests/structure/
# private_refs.sh does).
set -u
export LC_ALL=C
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pat='shared/|DESIGN\.md|facts/|§'
check() {
	if grep -nE "$pat" "$2" >"$tmp/hits"; then
		echo "no_private_refs: $1 cites what the repository does not hold:" >&2
		head -5 "$tmp/hits" >&2
		fail=1
	fi
}

for f in README.md docs/*.md; do
	check "$f" "$f"
done
for c in run validate kernels trace gen platforms sweep compare merge report tune; do
	"$bin" $c --help >"$tmp/h" 2>&1
	check "govsim $c --help" "$tmp/h"
done
"$bin" kernels list >"$tmp/l" 2>&1 || { echo "no_private_refs: kernels list failed" >&2; fail=1; }
check "govsim kernels list" "$tmp/l"
for k in $(awk '{ print $1 }' "$tmp/l"); do
	"$bin" kernels show "$k" >"$tmp/k" 2>&1 || { echo "no_private_refs: kernels show $k failed" >&2; fail=1; }
	check "govsim kernels show $k" "$tmp/k"
done
exit $fail
