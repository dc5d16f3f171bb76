#!/bin/sh
# run_clean.sh TEST [ARGS...] - run one unit test; fail when it leaves a file behind in the
# temporary folder.
#
# Invariant: a unit test writes its scratch files under $TMPDIR (testutil.h: test_tmpdir()) and
# removes them, so a test run leaves the temporary folder as it found it. As root, where a mount
# namespace can be made, the test runs with a private, empty /tmp as its $TMPDIR, so a file
# written to a fixed /tmp path is caught as well; elsewhere $TMPDIR is an empty folder of its
# own, which catches what a test leaves under $TMPDIR.
# Does not check: files written elsewhere (the build or source tree).
# The test's own exit status is kept; a leftover file turns a pass into a failure.
[ $# -ge 1 ] || { echo "usage: run_clean.sh TEST [ARGS...]" >&2; exit 2; }

# a private /tmp would hide a test binary or source tree that lives under /tmp
under_tmp() {
	case "$(realpath "$1" 2>/dev/null)" in /tmp | /tmp/*) return 0 ;; esac
	return 1
}

if [ -z "${GOVSIM_RUN_CLEAN_NS:-}" ] && [ "$(id -u)" = 0 ] && ! under_tmp "$1" &&
   ! under_tmp "${GOVSIM_SOURCE_DIR:-.}" && unshare -m --propagation private true 2>/dev/null; then
	GOVSIM_RUN_CLEAN_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
if [ "${GOVSIM_RUN_CLEAN_NS:-}" = 1 ]; then
	mount -t tmpfs -o size=1g govsim-unit /tmp || exit 1
	dir=/tmp
else
	dir=$(mktemp -d) || exit 1
fi
TMPDIR=$dir "$@"
status=$?
left=$(ls -A "$dir")
if [ -n "$left" ]; then
	echo "run_clean.sh: $(basename "$1") left in the temporary folder ($dir):" $left >&2
	[ "$status" -eq 0 ] && status=1
fi
[ "$dir" = /tmp ] || rm -rf "$dir"
exit "$status"
