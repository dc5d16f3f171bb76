#!/bin/sh
# check-layers.sh - every #include "folder/..." between two src/ folders must be an edge the
# table in docs/architecture.md allows. Prints each forbidden edge as file:line and exits 1.
# Usage: tools/check-layers.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
doc="$root/docs/architecture.md"
[ -f "$doc" ] || { echo "check-layers: '$doc' not found" >&2; exit 2; }
cd "$root"

# Rows "| from | a, b, c | why |" of the table give the allowed edges; then every include line
# "src/<from>/file:line:#include "<to>/..." is checked against them.
grep -rn '^#include "[a-z_]*/' src --include='*.c' --include='*.h' | sort | awk -v doc="$doc" '
BEGIN {
	while ((getline row < doc) > 0) {
		if (row !~ /^\| *[a-z]+ *\|/) continue
		split(row, col, "|"); from = col[2]; gsub(/ /, "", from)
		if (from == "from") continue
		ok[from ":" from] = 1
		n = split(col[3], dst, ",")
		for (i = 1; i <= n; i++) { gsub(/ /, "", dst[i]); if (dst[i] != "") ok[from ":" dst[i]] = 1 }
	}
}
{
	split($0, part, ":"); file = part[1]; line = part[2]
	split(file, dir, "/"); from = dir[2]
	to = $0; sub(/^[^"]*"/, "", to); sub(/\/.*/, "", to)
	if (!((from ":" to) in ok)) {
		printf "%s:%s: %s -> %s is not an allowed edge (docs/architecture.md)\n", file, line, from, to
		bad = 1
	}
}
END {
	if (bad) exit 1
	print "check-layers: every include edge between src/ folders is allowed"
}'
