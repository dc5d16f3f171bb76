#!/bin/sh
# check_size.sh - tools/check-size.sh on small trees made here: it fails on a file over 1,000
# lines and on a function over 85 lines, accepts a long function with a "/* long: reason */"
# comment right above it, and accepts what the allow-list names (the list is read, not
# pinned). The limits are counted by hand: a function of N body lines plus its signature and
# braces is N + 3 lines.
# Usage: check_size.sh SOURCE_DIR
set -eu
src=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_size.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_size: $*" >&2; exit 1; }

# tree DIR BODY_LINES [COMMENT]: src/a/f.c with one function of BODY_LINES lines
tree() {
	mkdir -p "$1/src/a" "$1/tools"
	cp "$src/tools/check-size.sh" "$1/tools/"
	: > "$1/tools/size-allow.txt"
	{
		[ -z "${3:-}" ] || echo "$3"
		echo "int f(int x)"
		echo "{"
		i=0
		while [ "$i" -lt "$2" ]; do echo "	x++;"; i=$((i + 1)); done
		echo "}"
	} > "$1/src/a/f.c"
}

tree "$tmp/ok" 82           # 85 lines: at the limit
sh "$tmp/ok/tools/check-size.sh" "$tmp/ok" > /dev/null || fail "an 85-line function was refused"

tree "$tmp/long" 83         # 86 lines
if out=$(sh "$tmp/long/tools/check-size.sh" "$tmp/long"); then
	fail "an 86-line function was accepted"
fi
case $out in *"src/a/f.c:1: f() is 86 lines"*) ;; *) fail "unexpected report: $out" ;; esac

tree "$tmp/why" 118 "/* long: one switch over every event type */"
sh "$tmp/why/tools/check-size.sh" "$tmp/why" > /dev/null || fail "a reasoned long function was refused"

tree "$tmp/other" 118 "/* a comment without the word */"
sh "$tmp/other/tools/check-size.sh" "$tmp/other" > /dev/null && fail "a comment without 'long:' was taken as a reason"

tree "$tmp/allowed" 118
echo "src/a/f.c:f" > "$tmp/allowed/tools/size-allow.txt"
sh "$tmp/allowed/tools/check-size.sh" "$tmp/allowed" > /dev/null || fail "an allowed function was refused"

tree "$tmp/big" 996         # 999 lines in the file: 996 + 3
sh "$tmp/big/tools/check-size.sh" "$tmp/big" > /dev/null 2>&1 && fail "a 999-line file with a 999-line function was accepted"
echo "src/a/f.c:f" > "$tmp/big/tools/size-allow.txt"
sh "$tmp/big/tools/check-size.sh" "$tmp/big" > /dev/null || fail "a 999-line file was refused"
printf '/* %s */\n' 1 2 >> "$tmp/big/src/a/f.c"   # 1,001 lines
if out=$(sh "$tmp/big/tools/check-size.sh" "$tmp/big"); then
	fail "a 1,001-line file was accepted"
fi
case $out in *"src/a/f.c:1001: 1001 lines (at most 1000)"*) ;; *) fail "unexpected report: $out" ;; esac
echo "check_size: every case behaves"
