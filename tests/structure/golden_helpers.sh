#!/bin/sh
# golden_helpers.sh - golden scripts check through the shared library, not helpers of their own.
#
# Invariant: tests/golden/lib/golden.sh holds the helpers every golden script needs (golden_fail,
# golden_equal, golden_same, golden_expect, golden_cmd, ...), so no script in tests/golden/
# defines a function named check, same, fail, err or dump: a helper of that kind goes in the
# library (golden_fail reports a failed assertion), and one particular to a script is named for
# what it checks.
# Does not check: that a script sources the library (older scripts still carry a prologue of
# their own), or helpers under other names.
# Usage: golden_helpers.sh SOURCE_DIR
src=${1:?usage: golden_helpers.sh SOURCE_DIR}
found=$(grep -nE '^[[:space:]]*(function[[:space:]]+)?(check|same|fail|err|dump)[[:space:]]*\(\)' \
	"$src"/tests/golden/*.sh)
if [ -n "$found" ]; then
	echo "golden_helpers: golden scripts with their own check/same/fail/err/dump (use tests/golden/lib/golden.sh):"
	echo "$found"
	exit 1
fi
exit 0
