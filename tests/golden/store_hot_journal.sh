#!/bin/bash
# store_hot_journal.sh - a results database left with a hot journal by a killed writer is
# rolled back and used by the next run --db, sweep --db and merge (as output and as input).
#
# Invariant (store.h): a write killed before its COMMIT leaves the file and a hot journal; the
# next govsim that opens the file rolls the journal back before it judges the file, so it
# succeeds (exit 0), the file passes PRAGMA integrity_check, the runs committed before are there
# with their rows unchanged, and nothing of the killed write is visible. The killed writer is
# sqlite3(1) itself: with a one-page cache it writes pages of an uncommitted run (a runs row and
# its timeline rows) into the file after syncing the journal, then `.system kill -9 $PPID` kills
# it before COMMIT. The test checks that the journal is hot (it starts with the journal magic)
# and that the file alone, without its journal, shows the partial run: without a rollback the
# checks below fail. Each command gets its own copy of the file and its journal; nothing else
# opens a copy before govsim does (sqlite3(1) would roll the journal back itself).
# Does not check: kills inside govsim's own writes (store_kill.sh), power loss.
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs sqlite3(1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init store_hot_journal.sh
command -v sqlite3 >/dev/null || { echo "store_hot_journal.sh: sqlite3 not found (tools/setup.sh)"; exit 1; }
trace=traces/android-8cpu/surfaceflinger.txt
export SOURCE_DATE_EPOCH=1600000000

# The rows of one run in runs and timeline, without run_id and label.
rows_of() {
	sqlite3 "$1" "SELECT * FROM runs WHERE run_id = $2" | cut -d'|' -f3-
	sqlite3 "$1" "SELECT * FROM timeline WHERE run_id = $2" | cut -d'|' -f2-
}

if ! "$bin" run "$trace" --quiet --db "$tmp/hot.db" --label first >/dev/null; then
	echo "store_hot_journal.sh: the first run failed"
	exit 1
fi
rows_of "$tmp/hot.db" 1 >"$tmp/run1.txt"
if [ "$(sqlite3 "$tmp/hot.db" "SELECT count(*) FROM timeline WHERE run_id = 1")" -lt 20 ]; then
	echo "store_hot_journal.sh: the first run has too few timeline rows to spill pages"
	exit 1
fi

# The killed writer: a partial copy of run 1, pages in the file, the journal synced, no COMMIT.
( sqlite3 "$tmp/hot.db" "PRAGMA cache_size = 1" "BEGIN" \
	"INSERT INTO runs (label, trace, trace_sha256, platform, governor, timing, util_source,
	   power_model, power_unit, policy, params, kernel, start_s, span_s, events, nr_cpus,
	   nr_clusters, notes, govsim_version, created_at)
	 SELECT 'partial', trace, trace_sha256, platform, governor, timing, util_source,
	   power_model, power_unit, policy, params, kernel, start_s, span_s, events, nr_cpus,
	   nr_clusters, notes, govsim_version, created_at FROM runs WHERE run_id = 1" \
	"INSERT INTO timeline SELECT 2, seq, time_s, policy, freq_khz, traced_khz, util, capacity
	 FROM timeline WHERE run_id = 1" \
	'.system kill -9 $PPID'; : ) >/dev/null 2>&1
magic=$(od -An -tx1 -N8 "$tmp/hot.db-journal" 2>/dev/null | tr -d ' \n')
if [ "$magic" != d9d505f920a163d7 ]; then
	echo "store_hot_journal.sh: no hot journal was left (journal starts with '$magic')"
	exit 1
fi
mv "$tmp/hot.db" "$tmp/hot.orig"
mv "$tmp/hot.db-journal" "$tmp/hot.orig-journal"
cp "$tmp/hot.orig" "$tmp/alone.db"
if [ "$(sqlite3 "$tmp/alone.db" "SELECT count(*) FROM runs WHERE label = 'partial'")" != 1 ]; then
	echo "store_hot_journal.sh: the file without its journal does not show the partial run"
	exit 1
fi

# A fresh copy of the file and its hot journal at $1.
hot_copy() {
	cp "$tmp/hot.orig" "$1"
	cp "$tmp/hot.orig-journal" "$1-journal"
}

# expect_runs NAME DB 'ID:LABEL ...': the file is sound and holds exactly these runs, run 1's
# rows unchanged, no row of another run in timeline.
expect_runs() {
	local name=$1 db=$2 want=$3 ic runs stray
	if [ -e "$db-journal" ] && [ -s "$db-journal" ]; then
		golden_fail "$name: the journal is still there"
	fi
	ic=$(sqlite3 "$db" "PRAGMA integrity_check")
	if [ "$ic" != ok ]; then
		golden_fail "$name: integrity_check: $ic"
	fi
	runs=$(sqlite3 "$db" "SELECT group_concat(run_id || ':' || label, ' ') FROM runs")
	if [ "$runs" != "$want" ]; then
		golden_fail "$name: runs are '$runs', expected '$want'"
	fi
	stray=$(sqlite3 "$db" "SELECT count(*) FROM timeline WHERE run_id NOT IN (SELECT run_id FROM runs)")
	if [ "$stray" != 0 ]; then
		golden_fail "$name: $stray timeline rows of no run"
	fi
	if ! rows_of "$db" 1 | cmp -s - "$tmp/run1.txt"; then
		golden_fail "$name: the rows of run 1 changed"
	fi
}

# expect_ok NAME CMD...: exit status 0.
expect_ok() {
	local name=$1 status
	shift
	"$@" >/dev/null 2>"$tmp/err"
	status=$?
	if [ "$status" -ne 0 ]; then
		golden_fail "$name: exit status $status, stderr:"
		sed 's/^/  /' "$tmp/err"
	fi
}

hot_copy "$tmp/run.db"
expect_ok "run --db" "$bin" run "$trace" --quiet --db "$tmp/run.db" --label second
expect_runs "run --db" "$tmp/run.db" "1:first 2:second"
if ! rows_of "$tmp/run.db" 2 | cmp -s - "$tmp/run1.txt"; then
	golden_fail "run --db: the new run's rows differ from the first run's"
fi

hot_copy "$tmp/sweep.db"
expect_ok "sweep --db" "$bin" sweep "$trace" --quiet --db "$tmp/sweep.db" --label swept
expect_runs "sweep --db" "$tmp/sweep.db" "1:first 2:swept"

hot_copy "$tmp/merge-out.db"
"$bin" run "$trace" --quiet --db "$tmp/other.db" --label other >/dev/null
expect_ok "merge into it" "$bin" merge "$tmp/merge-out.db" "$tmp/other.db"
expect_runs "merge into it" "$tmp/merge-out.db" "1:first 2:other"

hot_copy "$tmp/merge-in.db"
expect_ok "merge from it" "$bin" merge "$tmp/merged.db" "$tmp/merge-in.db"
expect_runs "merge from it" "$tmp/merged.db" "1:first"
expect_runs "merge from it (the input)" "$tmp/merge-in.db" "1:first"

exit $fail
