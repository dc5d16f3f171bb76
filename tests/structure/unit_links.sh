#!/bin/sh
# unit_links.sh - a unit test links the src/ folders it includes and those they may use, no more.
#
# tests/structure/unit_probe.c includes sched/sched.h and calls store_check() of store/ through
# a declaration of its own. Linked as a unit test (unit_probe_as_test) it must fail with an
# undefined reference to store_check: sched/ may not use store/. Linked with the whole library
# (unit_probe_whole) it must link, so the failure comes from the libraries a test gets.
# Usage: unit_links.sh BUILD_DIR
set -u
build=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

if cmake --build "$build" --target unit_probe_as_test >"$out" 2>&1; then
	echo "unit_links: a unit test of sched/ calling store/ linked: it got more than it tests" >&2
	cat "$out" >&2
	exit 1
fi
if ! grep -q "undefined reference to .store_check" "$out"; then
	echo "unit_links: the probe's link failed, but not on store_check:" >&2
	cat "$out" >&2
	exit 1
fi
if ! cmake --build "$build" --target unit_probe_whole >"$out" 2>&1; then
	echo "unit_links: the probe did not link with the whole library:" >&2
	cat "$out" >&2
	exit 1
fi
echo "unit_links: a unit test of sched/ calling store/ refused; linked with the whole library"
