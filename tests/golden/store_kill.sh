#!/bin/bash
# store_kill.sh - the results database holds only complete runs, and refuses what it cannot read.
#
# Invariant (store.h): a run is written in one transaction, so a govsim killed
# with SIGKILL in the middle of writing one (the test seam tests/seams/kill_after_rows.c, loaded
# with LD_PRELOAD: GOVSIM_FAULT_KILL_AFTER_ROWS=N sends SIGKILL right after the Nth INSERT; the
# program itself has no fault injection) leaves a database that passes
# PRAGMA integrity_check, holds exactly the runs written before, with their rows unchanged, and no
# row of the killed run in any table; the next govsim opens it (rolling back the hot journal) and
# adds a complete run with the same rows as the first. Kill points: after the runs row, in the
# middle, and after the last row (just before COMMIT). Also through the CLI: a database with a
# newer schema version and a file that is not a database fail with exit status 1 and a message
# naming the file.
# And at random points (20 trials each of `run --db`, `sweep --db` and `merge`, killed after a
# random delay): the file passes integrity_check with no partial run visible, and the same
# command run again on it succeeds.
# Does not check: power loss (SQLite's own tests), concurrent writers (govsim sweep's tests).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs sqlite3(1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init store_kill
src=$(pwd)
seam=${GOVSIM_SEAM_KILL:?GOVSIM_SEAM_KILL is not set (the kill_after_rows test seam)}
command -v sqlite3 >/dev/null || { golden_fail "sqlite3 not found (tools/setup.sh)"; exit 1; }
tables="runs energy residency policy_stats task_stats uclamp_stats timeline work"
trace=traces/android-8cpu/surfaceflinger.txt
db=$tmp/results.db
export SOURCE_DATE_EPOCH=1600000000

# The rows of one run, without its run_id (the first column of every table) and its label.
rows_of() {
	local t
	for t in $tables; do
		echo "== $t"
		if [ $t = runs ]; then
			sqlite3 "$1" "SELECT * FROM $t WHERE run_id = $2" | cut -d'|' -f3-
		else
			sqlite3 "$1" "SELECT * FROM $t WHERE run_id = $2" | cut -d'|' -f2-
		fi
	done
}

run() { "$bin" run "$trace" --quiet --db "$db" --label "$1"; }

if ! run complete; then
	golden_fail "the first run failed"
	exit 1
fi
rows_of "$db" 1 >"$tmp/run1.txt"
total=0
for t in $tables; do
	total=$((total + $(sqlite3 "$db" "SELECT count(*) FROM $t WHERE run_id = 1")))
done
if [ "$total" -lt 100 ]; then
	golden_fail "a run writes only $total rows; the kill points need a bigger run"
	exit 1
fi

for n in 1 $((total / 2)) "$total"; do
	# the seam comes before the sanitizer runtime in a GOVSIM_SANITIZE build: allow that
	( export GOVSIM_FAULT_KILL_AFTER_ROWS=$n LD_PRELOAD=$seam \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
	  run "killed-after-$n" ) 2>/dev/null
	status=$?
	if [ "$status" -ne 137 ]; then
		golden_fail "kill after row $n of $total: exit status $status, expected 137 (SIGKILL)"
	fi
	# Read-only first: the file as the killed process left it, with its hot journal.
	if [ ! -e "$db-journal" ]; then
		golden_fail "kill after row $n: no hot journal left (was the transaction open?)"
	fi
	ic=$(sqlite3 "$db" "PRAGMA integrity_check")
	if [ "$ic" != ok ]; then
		golden_fail "kill after row $n: integrity_check: $ic"
	fi
	runs=$(sqlite3 "$db" "SELECT group_concat(run_id || ':' || label, ' ') FROM runs")
	if [ "$runs" != "1:complete" ]; then
		golden_fail "kill after row $n: runs are '$runs', expected '1:complete'"
	fi
	for t in $tables; do
		stray=$(sqlite3 "$db" "SELECT count(*) FROM $t WHERE run_id <> 1")
		if [ "$stray" != 0 ]; then
			golden_fail "kill after row $n: $stray rows of the killed run in $t"
		fi
	done
	if ! rows_of "$db" 1 | cmp -s - "$tmp/run1.txt"; then
		golden_fail "kill after row $n: the rows of run 1 changed"
	fi
done

# The next govsim adds a complete run with the same rows as the first.
if ! run after-kills; then
	golden_fail "a run after the kills failed"
fi
id=$(sqlite3 "$db" "SELECT run_id FROM runs WHERE label = 'after-kills'")
if [ "$(sqlite3 "$db" "SELECT count(*) FROM runs")" != 2 ] || [ -z "$id" ]; then
	golden_fail "after the kills: runs are '$(sqlite3 "$db" "SELECT group_concat(run_id || ':' || label, ' ') FROM runs")'"
elif ! rows_of "$db" "$id" | diff "$tmp/run1.txt" - >"$tmp/diff"; then
	head -5 "$tmp/diff"
	golden_fail "the run after the kills wrote other rows than the first"
fi

# --- SIGKILL at random points: run --db, sweep --db and merge, 20 trials each ----------------
# Each trial starts the command, kills it with SIGKILL after a random delay within its usual
# duration (measured first), then checks the file: PRAGMA integrity_check is ok, and every run
# it holds is complete (each table holds as many rows for it as for the same run written whole
# in a reference database: no partial run is visible). Then the same command is run again on
# the same file and must succeed, leaving a file that passes the same checks. The delays come
# from $RANDOM seeded with GOVSIM_KILL_SEED (printed on failure) to replay a failing trial.
seed=${GOVSIM_KILL_SEED:-$$}
RANDOM=$seed
quick=(traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0 --quiet)
kt=$tmp/kills
mkdir -p "$kt"

# counts DB: per run, its identity (governor, params, label) and its row count in every table
counts() {
	local t q="SELECT r.governor || ' ' || r.params || ' ' || r.label"
	for t in $tables; do
		q="$q || ' $t=' || (SELECT count(*) FROM $t x WHERE x.run_id = r.run_id)"
	done
	sqlite3 "$1" "$q FROM runs r ORDER BY r.run_id"
}

# whole NAME DB REF: DB (when it exists) passes integrity_check and each of its runs has the
# row counts of the run with the same identity in REF
whole() {
	local name=$1 db=$2 ref=$3 ic line
	[ -e "$db" ] || return 0
	ic=$(sqlite3 "$db" "PRAGMA integrity_check" 2>&1)
	if [ "$ic" != ok ]; then
		golden_fail "$name: integrity_check: $ic (GOVSIM_KILL_SEED=$seed)"
		return 1
	fi
	counts "$ref" >"$kt/ref-counts"
	line=$(counts "$db" | grep -vxF -f "$kt/ref-counts" | head -1)
	if [ -n "$line" ]; then
		golden_fail "$name: a partial run is visible: $line (GOVSIM_KILL_SEED=$seed)"
		return 1
	fi
	return 0
}

# timed CMD...: how long CMD takes, in ms
timed() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# kills NAME DB REF CMD...: 20 trials of CMD (which writes DB) killed at random, each checked
# and followed by CMD run whole
kills() {
	local name=$1 db=$2 ref=$3 ms pid i d
	shift 3
	ms=$(timed "$@")
	rm -f "$db" "$db-journal"
	for ((i = 1; i <= 20; i++)); do
		d=$((RANDOM % (ms + 1)))
		"$@" >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '0.%03d' "$d")"
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
		whole "$name: killed after ${d} of ${ms} ms (trial $i)" "$db" "$ref" || return
		if ! "$@" >/dev/null 2>"$kt/err"; then
			sed 's/^/  /' "$kt/err"
			golden_fail "$name: the run after trial $i failed (GOVSIM_KILL_SEED=$seed)"
			return
		fi
		whole "$name: rerun after trial $i" "$db" "$ref" || return
	done
}

# run --db
"$bin" run "${quick[@]}" --db "$kt/ref-run.db" || { golden_fail "reference run failed"; exit 1; }
kills "run --db" "$kt/run.db" "$kt/ref-run.db" "$bin" run "${quick[@]}" --db "$kt/run.db"

# sweep --db: its own temporary folder, which a killed sweep leaves for the next to remove
mkdir -p "$kt/sweep-tmp"
sw=(sweep "${quick[@]}" --governor schedutil --governor performance --jobs 2)
TMPDIR=$kt/sweep-tmp "$bin" "${sw[@]}" --db "$kt/ref-sweep.db" ||
	{ golden_fail "reference sweep failed"; exit 1; }
TMPDIR=$kt/sweep-tmp kills "sweep --db" "$kt/sweep.db" "$kt/ref-sweep.db" \
	"$bin" "${sw[@]}" --db "$kt/sweep.db"
# a sweep's runs go in together: never a part of them
if [ -e "$kt/sweep.db" ] && [ $(($(sqlite3 "$kt/sweep.db" "SELECT count(*) FROM runs") % 2)) != 0 ]; then
	golden_fail "sweep --db: an odd number of runs: a sweep stored in part"
fi

# merge: two parts of one run each into one file
"$bin" run "${quick[@]}" --db "$kt/part1.db" --label part1 &&
	"$bin" run "${quick[@]}" --db "$kt/part2.db" --label part2 &&
	"$bin" merge "$kt/ref-merge.db" "$kt/part1.db" "$kt/part2.db" >/dev/null ||
	{ golden_fail "reference merge failed"; exit 1; }
kills "merge" "$kt/merge.db" "$kt/ref-merge.db" "$bin" merge "$kt/merge.db" "$kt/part1.db" "$kt/part2.db"
if [ -e "$kt/merge.db" ] && [ $(($(sqlite3 "$kt/merge.db" "SELECT count(*) FROM runs") % 2)) != 0 ]; then
	golden_fail "merge: an odd number of runs: a merge stored in part"
fi
for p in part1 part2; do
	whole "merge: its input $p" "$kt/$p.db" "$kt/ref-merge.db"
done

# refused NAME STATUS MESSAGE CMD...: CMD, run in the temporary folder, exits STATUS with
# exactly MESSAGE on stderr
refused() {
	local name=$1 want=$2 msg=$3 status
	shift 3
	(cd "$tmp" && "$@") >/dev/null 2>"$tmp/err"
	status=$?
	golden_equal "$name: exit status" "$status" "$want"
	golden_equal "$name: stderr" "$(cat "$tmp/err")" "$msg"
}

cp "$db" "$tmp/newer.db"
sqlite3 "$tmp/newer.db" "PRAGMA user_version = $(($(sqlite3 "$db" "PRAGMA user_version") + 1))"
newer=$(sqlite3 "$tmp/newer.db" "PRAGMA user_version")
refused newer-schema 1 "govsim: 'newer.db': results schema version $newer is newer than this govsim supports ($((newer - 1)))" \
	"$bin" run "$src/$trace" --quiet --db newer.db
if [ "$(sqlite3 "$tmp/newer.db" "SELECT count(*) FROM runs")" != 2 ]; then
	golden_fail "newer-schema: the newer database was written to"
fi
echo "version = 6" >"$tmp/not-a-db.txt"
refused not-a-database 3 "govsim: 'not-a-db.txt': not a results database: file is not a database" \
	"$bin" run "$src/$trace" --quiet --db not-a-db.txt

exit $fail
