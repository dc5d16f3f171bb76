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
# is a one-line "print the message and set fail" (that is golden_fail). No script sets fail=1
# itself, in whatever form (an if block that echoes and sets it, `{ echo ...; fail=1; }`,
# `cmd || fail=1` after a command or a Python heredoc): a failure goes through golden_fail, so
# each says what failed, under the script's name.
# Does not check: a failure reported by echo and `exit 1` (a fatal one), or a message echoed
# without golden_fail beside a golden_fail that says something else.
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
found=$(grep -nE '(^|[^_[:alnum:]])fail=[1-9]' "$src"/tests/golden/*.sh | grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
if [ -n "$found" ]; then
	echo "golden_helpers: a failure set by hand (fail=1) rather than reported through golden_fail:"
	echo "$found"
	status=1
fi
exit $status
