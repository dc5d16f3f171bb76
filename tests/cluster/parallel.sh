#!/bin/bash
# parallel.sh - docs/cluster.md's GNU parallel recipe, verbatim, over two local "hosts".
#
# Checks: the doc's parallel block, run with a hosts.txt of `:` twice (the local machine, no
# ssh, no network), stores every part, and the doc's merge in it gives the database a local
# `sweep` of the same command line gives (every table, every column but runs.created_at).
# Skipped (77) when GNU parallel is not installed.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/cluster/common.sh"
cd "$src"

for p in parallel sqlite3; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "cluster: skipped: '$p' is not installed (tools/setup.sh)"
		exit $SKIP
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" # parallel keeps its state in ~/.parallel

workdir "$tmp/w"
cd "$tmp/w" || exit 1
eval "$(doc_block sweep)" >list.txt || fail=1
printf ':\n:\n' >hosts.txt
bounded 120 bash -c "$(doc_block sweep)"$'\n'"$(doc_block parallel)" >run.out 2>&1
st=$?
[ $st = 0 ] || { echo "cluster: the doc's parallel block: exit $st" >&2; cat run.out >&2; fail=1; }
n=$(awk '$7 == 0' sweep.joblog | wc -l)
[ "$n" = "$(wc -l <list.txt)" ] || { echo "cluster: $n jobs in the joblog succeeded" >&2; fail=1; }
govsim sweep $SWEEP --db local.db --jobs 2 --quiet || fail=1
same_db local.db results.db "GNU parallel + merge against the local sweep"

exit $fail
