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
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init no_private_refs

pat='shared/|DESIGN\.md|facts/|§'
# cites_nothing WHAT FILE: FILE names nothing of $pat
cites_nothing() {
	if grep -nE "$pat" "$2" >"$tmp/hits"; then
		head -5 "$tmp/hits"
		golden_fail "$1 cites what the repository does not hold"
	fi
}

for f in README.md docs/*.md; do
	cites_nothing "$f" "$f"
done
for c in run validate kernels trace gen platforms sweep compare merge report tune; do
	"$bin" $c --help >"$tmp/h" 2>&1
	cites_nothing "govsim $c --help" "$tmp/h"
done
"$bin" kernels list >"$tmp/l" 2>&1 || golden_fail "kernels list failed"
cites_nothing "govsim kernels list" "$tmp/l"
for k in $(awk '{ print $1 }' "$tmp/l"); do
	"$bin" kernels show "$k" >"$tmp/k" 2>&1 || golden_fail "kernels show $k failed"
	cites_nothing "govsim kernels show $k" "$tmp/k"
done
exit $fail
