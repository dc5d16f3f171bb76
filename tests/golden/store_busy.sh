#!/bin/bash
# store_busy.sh - a results database another process keeps locked is a runtime failure (exit 1,
# "locked by another process"), not bad input; a sweep whose final merge fails keeps its jobs'
# databases and says where.
#
# Checks, with the wait shortened by GOVSIM_DB_BUSY_TIMEOUT_MS (each command under `timeout`, so
# the 30-s default or a hang fails the test instead of stalling it):
#  - a lock that readers wait for (sqlite3's BEGIN EXCLUSIVE held by a live sqlite3): run --db,
#    sweep --db and merge (the locked file as output and as input) exit 1 naming the file and
#    saying it is locked, not "not a results database", and the file is unchanged;
#  - the knob is a wait, not a refusal: a lock released after a second lets a run with a
#    20-s timeout through (exit 0, its run stored);
#  - a lock that only writers wait for (BEGIN IMMEDIATE: the sweep's check before the jobs
#    passes, its final merge cannot write): the sweep exits 1 saying the file is locked, stores
#    nothing, and names on stderr the folder where its jobs' databases are kept; those hold the
#    sweep's runs (one per governor), and `govsim merge` of them, once the lock is gone, stores
#    them in job order.
# Does not check: SQLite's locking itself, locks on NFS.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init store_busy.sh
command -v sqlite3 >/dev/null || { echo "store_busy.sh: sqlite3 not found (tools/setup.sh)"; exit 1; }
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
trace=traces/juno-r0/rtapp_switch/trace.txt
q=(--platform juno-r0 --quiet)
db=$tmp/busy.db
export TMPDIR=$tmp/tmpdir
mkdir -p "$TMPDIR"

"$bin" run "$trace" "${q[@]}" --db "$db" --label first || { echo "store_busy.sh: the first run failed"; exit 1; }

# hold_lock DB BEGIN-KIND: a live sqlite3 holds the lock until release_lock.
hold_lock() {
	rm -f "$tmp/fifo" "$tmp/locked"
	mkfifo "$tmp/fifo"
	sqlite3 "$1" <"$tmp/fifo" >/dev/null 2>&1 &
	holder=$!
	exec 3>"$tmp/fifo"
	printf 'BEGIN %s;\n.system touch %s\n' "$2" "$tmp/locked" >&3
	for _ in $(seq 100); do
		[ -e "$tmp/locked" ] && return 0
		sleep 0.1
	done
	echo "store_busy.sh: sqlite3 did not take the lock"
	exit 1
}
release_lock() {
	printf 'ROLLBACK;\n' >&3
	exec 3>&-
	wait "$holder"
	holder=
}

runs_of() { sqlite3 "$1" "SELECT group_concat(label, ' ') FROM (SELECT label FROM runs ORDER BY run_id)"; }

# expect_locked NAME CMD...: exit 1 within the timeout, the message names the database and says
# it is locked.
expect_locked() {
	local name=$1 status
	shift
	GOVSIM_DB_BUSY_TIMEOUT_MS=300 timeout 25 "$@" >/dev/null 2>"$tmp/err"
	status=$?
	if [ "$status" -ne 1 ] || ! grep -q "^govsim: '$db': .*locked by another process" "$tmp/err" ||
		grep -q "not a results database" "$tmp/err"; then
		golden_fail "$name: exit status $status (expected 1), stderr:"
		sed 's/^/  /' "$tmp/err"
	fi
}

hold_lock "$db" EXCLUSIVE
expect_locked "run --db" "$bin" run "$trace" "${q[@]}" --db "$db" --label second
expect_locked "sweep --db" "$bin" sweep "$trace" "${q[@]}" --db "$db" --label swept
"$bin" run "$trace" "${q[@]}" --db "$tmp/other.db" --label other >/dev/null
expect_locked "merge into it" "$bin" merge "$db" "$tmp/other.db"
expect_locked "merge from it" "$bin" merge "$tmp/out.db" "$db"
release_lock
if [ "$(runs_of "$db")" != first ]; then
	golden_fail "after the locked commands, runs are '$(runs_of "$db")', expected 'first'"
fi

# a lock that goes away within the timeout is waited for
hold_lock "$db" EXCLUSIVE
GOVSIM_DB_BUSY_TIMEOUT_MS=20000 timeout 25 "$bin" run "$trace" "${q[@]}" --db "$db" --label waited \
	2>"$tmp/err" &
pid=$!
sleep 1
release_lock
wait "$pid"
status=$?
if [ "$status" -ne 0 ] || [ "$(runs_of "$db")" != "first waited" ]; then
	golden_fail "a lock released after 1 s: exit status $status, runs '$(runs_of "$db")', stderr:"
	sed 's/^/  /' "$tmp/err"
fi

# the final merge of a sweep fails: the jobs' databases are kept
hold_lock "$db" IMMEDIATE
GOVSIM_DB_BUSY_TIMEOUT_MS=300 timeout 60 "$bin" sweep "$trace" "${q[@]}" --db "$db" \
	--governor schedutil --governor ondemand --governor conservative --jobs 2 2>"$tmp/err"
status=$?
kept=$(sed -n "s/.* kept in '\([^']*\)'.*/\1/p" "$tmp/err" | head -1)
if [ "$status" -ne 1 ] || ! grep -q "^govsim: '$db': .*locked by another process" "$tmp/err" ||
	[ -z "$kept" ]; then
	golden_fail "sweep, merge locked: exit status $status (expected 1), stderr:"
	sed 's/^/  /' "$tmp/err"
fi
release_lock
if [ "$(runs_of "$db")" != "first waited" ]; then
	golden_fail "sweep, merge locked: runs are '$(runs_of "$db")', the sweep stored some"
fi
if [ -n "$kept" ]; then
	parts=("$kept"/job-*.db)
	labels=
	for p in "${parts[@]}"; do
		labels="$labels $(sqlite3 "$p" "SELECT governor FROM runs" 2>/dev/null)"
	done
	if [ "$labels" != " schedutil ondemand conservative" ]; then
		golden_fail "sweep, merge locked: '$kept' holds ${parts[*]}, governors$labels"
	fi
	if ! "$bin" merge "$db" "${parts[@]}" >/dev/null ||
		[ "$(sqlite3 "$db" "SELECT group_concat(governor, ' ') FROM (SELECT governor FROM runs WHERE run_id > 2 ORDER BY run_id)")" != "schedutil ondemand conservative" ]; then
		golden_fail "sweep, merge locked: merging the kept databases failed"
	fi
fi

exit $fail
