#!/bin/bash
# sweep.sh - `govsim sweep` and `govsim merge` on the real Juno traces.
#
# Checks: 4 policy variants x 2 traces give 8 runs with the expected labels; the database is the
# same, row for row and table for table, with --jobs 1, with --jobs 2, and when the jobs run one
# by one (--job K, two at a time through xargs -P2, as a cluster job array would) and are joined
# with `govsim merge` -- apart from runs.created_at; a policy file that does not parse fails its
# own runs (exit 3, reported) while the others are stored; merge refuses a newer schema.
# It does not check the replayed numbers themselves (the run tests do).
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sweep

printf 'setattr comm=* uclamp_max=300\n' >"$tmp/cap300.txt"
printf 'setattr comm=* uclamp_min=512\n' >"$tmp/boost512.txt"
printf '# the ramp tasks of rt-app at full speed\nsetattr comm=ramp* uclamp_min=1024\n' >"$tmp/ramp.txt"
printf 'sysctl sched_util_clamp_min 128\n' >"$tmp/sysmin.txt"
printf 'setattr comm=* uclamp_min=900 uclamp_max=100\n' >"$tmp/bad.txt"

traces=(traces/juno-r0/rtapp_switch/trace.txt traces/juno-r0/sched_load/trace.dat)
args=("${traces[@]}" --platform juno-r0 --policy "$tmp/cap300.txt" --policy "$tmp/boost512.txt"
	--policy "$tmp/ramp.txt" --policy "$tmp/sysmin.txt")

# expect_clean NAME FILE: FILE, the temporary directory's name replaced, is the expected file NAME
expect_clean() {
	sed "s|$tmp|TMP|g" "$2" >"$2.clean"
	golden_expect "$2.clean" "$exp/$1"
}

# same_db A B WHAT: the databases A and B hold the same, apart from their creation times
same_db() {
	golden_db_dump "$1" >"$1.sql"
	golden_db_dump "$2" >"$2.sql"
	golden_same "$3" "$1.sql" "$2.sql"
}

# the job list
"$bin" sweep "${args[@]}" --list-jobs >"$tmp/list.txt" 2>&1
echo "exit status: $?" >>"$tmp/list.txt"
expect_clean sweep_list_jobs.txt "$tmp/list.txt"

# the same sweep with one and with two workers
"$bin" sweep "${args[@]}" --db "$tmp/j1.db" --jobs 1 >"$tmp/j1.txt" 2>&1
echo "exit status: $?" >>"$tmp/j1.txt"
expect_clean sweep_jobs1.txt "$tmp/j1.txt"
"$bin" sweep "${args[@]}" --db "$tmp/j2.db" --jobs 2 --quiet
st=$?
golden_equal "--jobs 2: exit status" "$st" 0
sqlite3 -separator ' | ' "$tmp/j2.db" \
	"SELECT run_id, label, trace, governor, replace(policy, char(10), ';') FROM runs" >"$tmp/runs.txt"
expect_clean sweep_runs.txt "$tmp/runs.txt"
n=$(sqlite3 "$tmp/j2.db" "SELECT count(*) FROM runs")
golden_equal "runs of --jobs 2" "$n" 8
same_db "$tmp/j1.db" "$tmp/j2.db" "--jobs 1 against --jobs 2"

# the cluster recipe with a local stand-in: one process per job, two at a time, then merge
"$bin" sweep "${args[@]}" --list-jobs | cut -f1 |
	xargs -P2 -I{} "$bin" sweep "${args[@]}" --job {} --db "$tmp/part-{}.db" --quiet
parts=()
for k in 0 1 2 3 4 5 6 7; do parts+=("$tmp/part-$k.db"); done
"$bin" merge "$tmp/merged.db" "${parts[@]}" >"$tmp/merge.txt" 2>&1
echo "exit status: $?" >>"$tmp/merge.txt"
expect_clean sweep_merge.txt "$tmp/merge.txt"
same_db "$tmp/j2.db" "$tmp/merged.db" "--jobs 2 against --job K and merge"

# a bad policy fails its two runs; the other eight are stored; exit 3 (bad input only)
"$bin" sweep "${args[@]}" --policy "$tmp/bad.txt" --db "$tmp/bad.db" --jobs 2 >"$tmp/bad.txt.out" 2>&1
echo "exit status: $?" >>"$tmp/bad.txt.out"
expect_clean sweep_bad_policy.txt "$tmp/bad.txt.out"
n=$(sqlite3 "$tmp/bad.db" "SELECT count(*) FROM runs WHERE label NOT LIKE '%bad.txt%'")
golden_equal "good runs stored beside a bad policy" "$n" 8

# merge checks the schema version; nothing is merged (no file made) when one input is refused
cp "$tmp/part-0.db" "$tmp/newer.db"
sqlite3 "$tmp/newer.db" "PRAGMA user_version = 3"
"$bin" merge "$tmp/refused.db" "$tmp/part-1.db" "$tmp/newer.db" >"$tmp/newer.txt" 2>&1
echo "exit status: $?" >>"$tmp/newer.txt"
if [ -e "$tmp/refused.db" ]; then
	echo "runs: $(sqlite3 "$tmp/refused.db" "SELECT count(*) FROM runs")" >>"$tmp/newer.txt"
else
	echo "no output file" >>"$tmp/newer.txt"
fi
expect_clean sweep_merge_schema.txt "$tmp/newer.txt"

exit $fail
