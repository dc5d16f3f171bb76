#!/bin/sh
# check-layers.sh - every #include "folder/..." between two src/ folders must be an edge the
# table in docs/architecture.md allows. Prints each forbidden edge as file:line and exits 1.
# Usage: tools/check-layers.sh [SOURCE_DIR]
set -eu
root=${1:-$(dirname "$0")/..}
doc="$root/docs/architecture.md"
[ -f "$doc" ] || { echo "check-layers: '$doc' not found" >&2; exit 2; }

# "| from | a, b, c | why |" rows of the table -> "from:a from:b ..."
allowed=$(awk -F'|' '/^\| *[a-z]+ *\|/ && $2 !~ /from/ {
	gsub(/ /, "", $2); n = split($3, a, ",");
	printf "%s:%s ", $2, $2;
	for (i = 1; i <= n; i++) { gsub(/ /, "", a[i]); if (a[i] != "") printf "%s:%s ", $2, a[i] } }' "$doc")

bad=0
for f in $(cd "$root" && find src -name '*.[ch]' | sort); do
	from=$(echo "$f" | cut -d/ -f2)
	grep -n '^#include "[a-z_]*/' "$root/$f" | while IFS= read -r line; do
		to=$(echo "$line" | sed 's/^[0-9]*:#include "\([a-z_]*\)\/.*/\1/')
		case " $allowed " in
		*" $from:$to "*) ;;
		*) echo "$f:${line%%:*}: $from -> $to is not an allowed edge (docs/architecture.md)"; exit 1 ;;
		esac
	done || bad=1
done
[ "$bad" -eq 0 ] || exit 1
echo "check-layers: every include edge between src/ folders is allowed"
