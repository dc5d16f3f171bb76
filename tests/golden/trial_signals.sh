#!/bin/bash
# trial_signals.sh - a run or a sweep over a trace.dat, stopped by SIGTERM or SIGINT while the
# reader's trial child (src/trace/dat/dat_sandbox.c: the event formats and the open tried in a child
# first) is alive, leaves no process of its own behind.
#
# The trial takes a fraction of a second on a real file; the slow_trial seam (LD_PRELOAD,
# GOVSIM_FAULT_TRIAL_SLEEP=S) holds the child S seconds, long enough to signal the program while
# it lives. The trace is reached through a symbolic link of a name made for this test, so every
# process of the command carries it in its argv and pgrep -f finds them all, wherever they are
# reparented. Checks, for run and for sweep, SIGTERM and SIGINT sent to the command's own pid
# (as kill and a supervisor do, not to its process group as a terminal's Ctrl-C): it dies of the
# signal (exit 128+N), and within 1 s no process with the name is left (the trial child would
# otherwise sleep on, then parse, as an orphan). Does not check what the runs compute.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init trial_signals
seam=${GOVSIM_SEAM_SLOW_TRIAL:?GOVSIM_SEAM_SLOW_TRIAL is not set (the slow_trial test seam)}
command -v pgrep >/dev/null || { echo "trial_signals: pgrep not found (procps)" >&2; exit 1; }
trap 'pkill -KILL -f "$mark" 2>/dev/null; rm -rf "$tmp"' EXIT
mark="govsim-trial-signals-$$-$RANDOM"
ln -s "$PWD/traces/juno-r0/sched_load/trace.dat" "$tmp/$mark.dat"
set -m # background jobs keep SIGINT (a non-interactive shell would start them ignoring it)

# count: processes (not zombies: their argv is gone) whose argv carries the mark
count() {
	pgrep -f -- "$mark" | wc -l
}

for cmd in run sweep; do
	for sig in TERM INT; do
		args=("$tmp/$mark.dat" --platform juno-r0 --quiet)
		want_procs=2 # run and its trial child
		if [ $cmd = sweep ]; then
			args+=(--set hz=100,250 --jobs 1 --db "$tmp/$sig.db")
			want_procs=3 # sweep, its worker, the worker's trial child
		fi
		TMPDIR=$tmp GOVSIM_FAULT_TRIAL_SLEEP=20 LD_PRELOAD=$seam \
			ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			"$bin" $cmd "${args[@]}" >/dev/null 2>"$tmp/err" &
		pid=$!
		for _ in $(seq 300); do
			[ "$(count)" -ge $want_procs ] && break
			sleep 0.1
		done
		if [ "$(count)" -lt $want_procs ]; then
			golden_fail "$cmd: the trial child never showed ($(count) processes)"
		fi
		kill -"$sig" "$pid"
		sleep 1
		left=$(pgrep -f -- "$mark" | tr '\n' ' ')
		[ -z "$left" ] || {
			golden_fail "$cmd SIG$sig: 1 s later still running: $left"
			ps -o pid,ppid,pgid,stat,etime,args -p "$(echo $left | tr " " ,)" >&2
			pkill -KILL -f -- "$mark"
		}
		wait "$pid"
		st=$?
		want=$((128 + $(kill -l "$sig")))
		[ "$st" = "$want" ] || { golden_fail "$cmd SIG$sig: exit $st, want $want"; cat "$tmp/err" >&2; }
	done
done

exit $fail
