#!/bin/sh
# unit_tmp_paths.sh - no unit test names a fixed path under /tmp.
#
# Invariant: unit tests put their scratch files in testutil's test_tmpdir() (a unique folder
# under $TMPDIR, removed at exit), so two test runs at once cannot collide and a run leaves
# nothing behind (run_clean.sh checks the latter as each test runs). A literal "/tmp/..." in
# tests/unit/ bypasses both.
# Does not check: paths built at run time from other strings.
# Usage: unit_tmp_paths.sh SOURCE_DIR
src=${1:?usage: unit_tmp_paths.sh SOURCE_DIR}
found=$(grep -n '"/tmp/' "$src"/tests/unit/*.c "$src"/tests/unit/*.h)
if [ -n "$found" ]; then
	echo "unit_tmp_paths: fixed /tmp paths in unit tests (use test_tmpdir() or test_tmppath()):"
	echo "$found"
	exit 1
fi
exit 0
