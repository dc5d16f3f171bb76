#!/bin/sh
# check-size.sh - no file in src/ over 1,000 lines, no function over 85 lines (aim: ~80) unless a comment
# right above it says why ("/* long: <reason> */"). Prints each excess as
# file:line and exits 1. Files and functions listed in tools/size-allow.txt ("path" for a file,
# "path:function" for a function, '#' comments) are not reported: they are the ones still to be
# split, and the list only shrinks (an entry no longer needed is named in a note, not an error,
# so that a merge that fixes one does not break the check).
# Usage: tools/check-size.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
allow="$root/tools/size-allow.txt"
[ -d "$root/src" ] || { echo "check-size: '$root/src' not found" >&2; exit 2; }
[ -f "$allow" ] || { echo "check-size: '$allow' not found" >&2; exit 2; }
cd "$root"

files=$(find src -name '*.c' -o -name '*.h' | LC_ALL=C sort)
# shellcheck disable=SC2086 # one word per path: src/ has no spaces in its names
awk -v allow="tools/size-allow.txt" '
BEGIN {
	FILE_MAX = 1000; FUNC_MAX = 85
	while ((getline row < allow) > 0) {
		sub(/#.*/, "", row); gsub(/[ \t]/, "", row)
		if (row != "") { allowed[row] = 1; used[row] = 0 }
	}
}
function flush_file() {
	if (cur != "" && lines > FILE_MAX) {
		if (cur in allowed) used[cur] = 1
		else { printf "%s:%d: %d lines (at most %d)\n", cur, lines, lines, FILE_MAX; bad = 1 }
	}
}
FNR == 1 { flush_file(); cur = FILENAME; sig = ""; start = 0; blk = ""; incomment = 0; reason = 0 }
{ lines = FNR }
# the comment block right above a definition: does it say "long:"?
incomment { blk = blk $0; if ($0 ~ /\*\//) { incomment = 0; closed = FNR } ; next }
/^\/\*/ { blk = $0; if ($0 !~ /\*\//) incomment = 1; else closed = FNR; next }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(typedef|#)/ {
	sig = $0; sigline = FNR
	reason = (closed == FNR - 1 && blk ~ /long:/)
}
/^\{/ { if (sig != "") start = sigline }
/^\}/ {
	if (start) {
		name = sig; sub(/\(.*/, "", name); n = split(name, w, /[ *]+/); name = w[n]
		len = FNR - start + 1
		if (len > FUNC_MAX && !reason) {
			key = FILENAME ":" name
			if (key in allowed) used[key] = 1
			else {
				printf "%s:%d: %s() is %d lines (at most %d without a /* long: reason */ comment above it)\n", FILENAME, start, name, len, FUNC_MAX
				bad = 1
			}
		}
	}
	start = 0; sig = ""
}
END {
	flush_file()
	for (k in allowed)
		if (!used[k]) printf "check-size: note: %s is within the limits: remove it from %s\n", k, allow
	if (bad) exit 1
	print "check-size: no file over " FILE_MAX " lines, no function over " FUNC_MAX " lines without a reason"
}' $files
