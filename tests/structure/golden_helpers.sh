#!/bin/sh
# golden_helpers.sh - golden scripts check through the shared library, not helpers of their own.
#
# Invariant: tests/golden/lib/golden.sh holds the helpers every golden script needs (golden_fail,
# golden_equal, golden_same, golden_expect, golden_cmd, ...), so no script in tests/golden/
# defines a function named check, same, fail, err or dump: a helper of that kind goes in the
# library (golden_fail reports a failed assertion), and one particular to a script is named for
# what it checks.
# Every script starts through the library's golden_init (the source tree, bin, exp, a tmp
# removed at exit, fail) rather than a prologue of its own, and no helper under another name
# is a one-line "print the message and set fail" (that is golden_fail).
# Does not check: helpers under other names written over several lines.
# Usage: golden_helpers.sh SOURCE_DIR
src=${1:?usage: golden_helpers.sh SOURCE_DIR}
found=$(grep -nE '^[[:space:]]*(function[[:space:]]+)?(check|same|fail|err|dump)[[:space:]]*\(\)' \
	"$src"/tests/golden/*.sh)
if [ -n "$found" ]; then
	echo "golden_helpers: golden scripts with their own check/same/fail/err/dump (use tests/golden/lib/golden.sh):"
	echo "$found"
	exit 1
fi
status=0
for f in "$src"/tests/golden/*.sh; do
	if ! grep -q '^golden_init ' "$f"; then
		echo "golden_helpers: $f does not start with golden_init (tests/golden/lib/golden.sh)"
		status=1
	fi
done
found=$(grep -nE '^tmp=\$\(mktemp -d\)|^[[:space:]]*[a-z_]+\(\)[[:space:]]*\{[[:space:]]*echo "[^"]*\$\*"[^}]*fail=1' \
	"$src"/tests/golden/*.sh)
if [ -n "$found" ]; then
	echo "golden_helpers: a prologue or failure helper of a script's own (golden_init, golden_fail):"
	echo "$found"
	status=1
fi
exit $status
