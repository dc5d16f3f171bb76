#!/bin/bash
# sweep_signals.sh - a sweep leaves nothing in TMPDIR: not when it ends, not when it is stopped
# by SIGINT or SIGTERM, and what a kill -9 left is removed by the next sweep.
#
# Checks: SIGTERM and SIGINT in the middle of a sweep (a worker running) end it with that
# signal (exit 128+N), no --db written, its temporary folder, its workers and whatever they
# started (the trace.dat reader's trial parse runs in a child) gone; a folder left by
# a dead sweep (its lock free) is removed by the next sweep, while one whose lock is held (a
# live sweep) and one without a lock (not ours to judge) are left alone. It does not check
# what the runs store (sweep.sh does).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sweep_signals

holder=
# the lock holder is a job of its own (set -m): its process group is its pid
trap '[ -n "$holder" ] && kill -- -"$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
# job control: background jobs get their own process group and keep SIGINT (a non-interactive
# shell would start them with SIGINT ignored)
set -m

quick=(traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0 --quiet)
# 64 runs of the longest bundled trace, one at a time (read once, replayed from memory: a run
# takes some 0.05 s): seconds, time enough to stop it
slow=(traces/juno-r0/sched_load/trace.dat --platform juno-r0 --set hz=100,250,300,1000
	--set rate_limit_us="$(seq -s, 1000 1000 16000)" --jobs 1 --quiet)

# --- what a kill -9 leaves: removed by the next sweep; a held lock and no lock: kept
T="$tmp/t1"
mkdir -p "$T/govsim-sweep.dead01" "$T/govsim-sweep.live01" "$T/govsim-sweep.nolck1"
for d in dead01 live01; do : >"$T/govsim-sweep.$d/lock"; done
: >"$T/govsim-sweep.dead01/job-3.db"
: >"$T/govsim-sweep.dead01/job-3.db-journal"
: >"$T/govsim-sweep.dead01/job-3.log"
: >"$T/govsim-sweep.nolck1/job-0.db"
touch -d '-1 min' "$T"/govsim-sweep.*/lock
flock -x "$T/govsim-sweep.live01/lock" sleep 60 </dev/null >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do
	flock -n "$T/govsim-sweep.live01/lock" true || break # held
	sleep 0.1
done
TMPDIR="$T" "$bin" sweep "${quick[@]}" --db "$tmp/t1.db" ||
	golden_fail "the quick sweep (TMPDIR=$T): exit $?"
kill -- -"$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=
left=$(cd "$T" && echo govsim-sweep.*)
[ "$left" = "govsim-sweep.live01 govsim-sweep.nolck1" ] ||
	golden_fail "after a sweep, TMPDIR holds: $left"

# marked DEPTH: the live processes (not zombies) carrying $mark in their environment; DEPTH 1:
# only the sweep's children (its workers)
marked() {
	local e p st ppid
	for e in $(grep -lsa "GOVSIM_TEST_MARK=$mark" /proc/[0-9]*/environ); do
		p=${e#/proc/}
		p=${p%/environ}
		# (comm, the second field, is "(govsim)": no space in it)
		read -r _ _ st ppid _ <"/proc/$p/stat" 2>/dev/null || continue
		[ "$st" = Z ] && continue
		[ "$1" = 1 ] && [ "$ppid" != "$pid" ] && continue
		echo -n " $p"
	done
}

# --- SIGTERM and SIGINT while a worker runs
for sig in TERM INT; do
	T="$tmp/t-$sig"
	mkdir -p "$T"
	# every process the sweep starts inherits the mark: found in /proc afterwards
	mark="govsim-sweep-signals-$$-$sig"
	GOVSIM_TEST_MARK=$mark TMPDIR="$T" "$bin" sweep "${slow[@]}" --db "$tmp/$sig.db" \
		2>"$tmp/$sig.err" &
	pid=$!
	for _ in $(seq 300); do
		compgen -G "$T/govsim-sweep.*/job-*.log" >/dev/null && break
		sleep 0.1
	done
	compgen -G "$T/govsim-sweep.*/job-*.log" >/dev/null ||
		golden_fail "no worker started in 30 s"
	dir=$(echo "$T"/govsim-sweep.*)
	# Each worker leads a process group of its own, which the sweep signals as a whole: what
	# a worker started (the trial parse of trace.dat, a child living a fraction of a second)
	# is stopped with it. The group is checked here; the end-to-end check below (no process
	# left) can only catch such a child when it happens to outlive the sweep.
	# A worker just forked is in the sweep's group until its setpgid() (and the parent's) runs:
	# with runs this short, one is often caught there, so look until one is seen in its own.
	w= ok= pgrp=
	for _ in $(seq 500); do
		for c in $(marked 1); do
			read -r _ _ _ _ pgrp _ <"/proc/$c/stat" 2>/dev/null || continue
			w=$c
			[ "$pgrp" = "$c" ] && ok=1 && break
		done
		[ -n "$ok" ] && break
		sleep 0.01
	done
	if [ -z "$w" ]; then
		golden_fail "SIG$sig: no worker seen"
	else
		[ -n "$ok" ] || golden_fail "SIG$sig: worker $w is in process group $pgrp, not its own"
	fi
	kill -"$sig" "$pid"
	timeout 30 tail --pid="$pid" -f /dev/null || { golden_fail "SIG$sig: still running"; kill -KILL "$pid"; }
	wait "$pid"
	st=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$st" = "$want" ] || { golden_fail "SIG$sig: exit $st, expected $want"; cat "$tmp/$sig.err" >&2; }
	[ ! -e "$dir" ] && [ -z "$(ls -A "$T")" ] ||
		{ golden_fail "SIG$sig left in TMPDIR:"; ls -lR "$T" >&2; }
	[ ! -e "$tmp/$sig.db" ] || golden_fail "SIG$sig: a database was written"
	grep -q "stopped by" "$tmp/$sig.err" || { golden_fail "SIG$sig: not said:"; cat "$tmp/$sig.err" >&2; }
	# no process of the sweep's outlives it: not a worker, not what a worker started (the
	# trial parse of trace.dat in a child of its own); zombies aside (an init that does not reap)
	left=$(marked 0)
	[ -z "$left" ] || { golden_fail "SIG$sig: processes left running:$left"; ps -o pid,ppid,pgid,stat,cmd -p "$(echo $left | tr " " ,)" >&2; }
done

exit $fail
