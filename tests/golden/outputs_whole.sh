#!/bin/bash
# outputs_whole.sh - an output file appears whole or not at all.
#
# Invariant (core/outfile.h): every file govsim writes (run's --timeline, --task-timeline,
# --perfetto and --csv tables, gen -o, report's figures and index.html, sweep --slurm) is written under a
# temporary name and renamed over its target only when complete. So when a write fails (here:
# `ulimit -f`, with SIGXFSZ ignored, makes write(2) fail with EFBIG past a size, as a full disk
# does with ENOSPC) or the command is stopped by SIGINT/SIGTERM in the middle of writing, the
# command fails (exit 1 naming the file and the system's reason; or death by the signal), the
# previous content of the target is intact and no other file is left in its folder. Also: a
# successful output is the same bytes as when written to stdout, a symbolic link target keeps
# its link, `gen -o /dev/full` stops at once with exit 1 naming the path and the reason.
# Does not check: SIGKILL (cannot be caught: it leaves the temporary file, never a truncated
# target) or power loss (no fsync).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init outputs_whole.sh
src=$(pwd)
trace=$src/traces/android-8cpu/surfaceflinger.txt
export SOURCE_DATE_EPOCH=1600000000

# seed DIR NAME...: each file holds "previous NAME"
seed() {
	local d=$1 f
	shift
	mkdir -p "$d"
	for f in "$@"; do echo "previous $f" >"$d/$f"; done
}

# intact CASE DIR NAME...: each file still holds "previous NAME" and DIR holds nothing else
intact() {
	local name=$1 d=$2 f
	shift 2
	for f in "$@"; do
		if [ "$(head -c 100 "$d/$f" 2>/dev/null)" != "previous $f" ]; then
			golden_fail "$name: '$f' lost its previous content ($(wc -c <"$d/$f" 2>/dev/null) bytes now)"
		fi
	done
	local want have
	want=$(printf '%s\n' "$@" | sort)
	have=$(ls -A "$d" | sort)
	if [ "$have" != "$want" ]; then
		golden_fail "$name: left in the folder: $(echo $have) (expected: $(echo $want))"
	fi
}

# limited BLOCKS CMD...: CMD with files limited to BLOCKS KiB, a write past that failing with
# EFBIG instead of killing the process
limited() {
	local blocks=$1
	shift
	(trap '' XFSZ; ulimit -f "$blocks"; exec "$@")
}

# expect_fail CASE STATUS MESSAGE: the last command's status and stderr ($tmp/err)
expect_fail() {
	if [ "$2" -ne 1 ] || [ "$(cat "$tmp/err")" != "$3" ]; then
		golden_fail "$1: exit status $2 (expected 1), stderr:"
		sed 's/^/  /' "$tmp/err"
		echo "  expected: $3"
	fi
}

# 1. A write error in the middle of each of run's outputs (every one is over 16 KiB).
for opt in --timeline --task-timeline --perfetto; do
	d=$tmp/run${opt#--}
	seed "$d" out
	(cd "$d" && limited 16 "$bin" run "$trace" --quiet $opt out) 2>"$tmp/err"
	expect_fail "run $opt" $? "govsim: 'out': write error: File too large"
	intact "run $opt" "$d" out
done

# --csv: activity.csv (16.5 KiB) fails after the smaller tables were written; none replaces
# its previous version
tables="runs.csv energy.csv residency.csv policy_stats.csv task_stats.csv uclamp_stats.csv timeline.csv work.csv spans.csv activity.csv"
seed "$tmp/csvrun/c" $tables
(cd "$tmp/csvrun" && limited 16 "$bin" run "$trace" --quiet --csv c) 2>"$tmp/err"
expect_fail "run --csv" $? "govsim: 'c/activity.csv': write error: File too large"
intact "run --csv" "$tmp/csvrun/c" $tables

# sweep --slurm: the script is under 1 KiB, so no room at all (the message goes through a pipe,
# which the limit does not cover)
seed "$tmp/slurm" job.sbatch
(cd "$tmp/slurm" && limited 0 "$bin" sweep "$trace" --governor schedutil --governor performance \
	--slurm job.sbatch 2>&1 >/dev/null) | cat >"$tmp/err"
expect_fail "sweep --slurm" "${PIPESTATUS[0]}" "govsim: 'job.sbatch': write error: File too large"
rmdir "$tmp/slurm/parts" # made before the script, for Slurm's logs
intact "sweep --slurm" "$tmp/slurm" job.sbatch

# gen -o: 10^9 lines would be 120 GB; it must stop at the first failed write
seed "$tmp/gen" g.txt
(cd "$tmp/gen" && limited 64 timeout 20 "$bin" gen mix -o g.txt --size 1000000000) 2>"$tmp/err"
expect_fail "gen -o" $? "govsim: 'g.txt': write error: File too large"
intact "gen -o" "$tmp/gen" g.txt

# gen -o /dev/full: a device is written in place; ENOSPC stops it at once
timeout 20 "$bin" gen mix -o /dev/full --size 1000000000 2>"$tmp/err"
expect_fail "gen -o /dev/full" $? "govsim: '/dev/full': write error: No space left on device"

# report: every figure is over 16 KiB, so the first fails and nothing is replaced
if ! "$bin" run "$trace" --quiet --db "$tmp/r.db"; then
	echo "outputs_whole.sh: run --db failed"
	exit 1
fi
figures="run1_timeline_policy0 run1_timeline_policy4 run1_residency energy"
files="index.html"
for f in $figures; do files="$files $f.png $f.svg"; done
seed "$tmp/rep" $files
(cd "$tmp" && limited 16 "$bin" report --db r.db --out rep --html) >/dev/null 2>"$tmp/err"
expect_fail "report" $? "govsim: 'rep/run1_timeline_policy0.png': write error: File too large"
intact "report" "$tmp/rep" $files
# with room for the figures but not for the page: each file is either its previous content or
# the complete new one
(cd "$tmp" && "$bin" report --db r.db --out ref --html) >/dev/null 2>&1
(cd "$tmp" && limited 160 "$bin" report --db r.db --out rep --html) >/dev/null 2>"$tmp/err"
expect_fail "report index.html" $? "govsim: 'rep/index.html': write error: File too large"
for f in $files; do
	if ! echo "previous $f" | cmp -s - "$tmp/rep/$f" && ! cmp -s "$tmp/rep/$f" "$tmp/ref/$f"; then
		golden_fail "report index.html: '$f' is neither its previous nor its new content"
	fi
done
if [ "$(cat "$tmp/rep/index.html")" != "previous index.html" ]; then
	golden_fail "report index.html: the page lost its previous content"
fi
if [ "$(ls -A "$tmp/rep" | wc -l)" != "$(echo $files | wc -w)" ]; then
	golden_fail "report index.html: left in the folder: $(ls -A "$tmp/rep" | tr '\n' ' ')"
fi

# 2. Stopped by a signal in the middle of writing. A trace long enough to be caught writing.
"$bin" gen mix -o "$tmp/big.txt" --size 3000000 || exit 1

# stopped CASE SIGNAL DIR TARGET CMD...: start CMD in DIR, send SIGNAL once a file other than
# TARGET has data in DIR or TARGET changed; it must die of the signal leaving TARGET intact
stopped() {
	local name=$1 sig=$2 d=$3 target=$4 pid status i
	shift 4
	seed "$d" "$target"
	(cd "$d" && exec "$@") 2>/dev/null &
	pid=$!
	for ((i = 0; i < 2000; i++)); do
		if [ -n "$(find "$d" -mindepth 1 ! -name "$target" -size +0 2>/dev/null)" ] ||
		   [ "$(head -c 100 "$d/$target")" != "previous $target" ]; then
			break
		fi
		sleep 0.01
	done
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	status=$?
	if [ "$status" -eq 0 ]; then
		golden_fail "$name: finished before SIG$sig arrived (make the input bigger)"
	elif [ "$status" -ne $((128 + $(kill -l "$sig"))) ]; then
		golden_fail "$name: exit status $status, expected death by SIG$sig"
	fi
	intact "$name" "$d" "$target"
}

stopped "SIGINT run --timeline" INT "$tmp/int-run" t.csv "$bin" run "$tmp/big.txt" --quiet --timeline t.csv
stopped "SIGTERM run --task-timeline" TERM "$tmp/term-run" tt.csv "$bin" run "$tmp/big.txt" --quiet --task-timeline tt.csv
stopped "SIGINT gen -o" INT "$tmp/int-gen" g.txt "$bin" gen mix -o g.txt --size 1000000000

# 3. What is written whole: the same bytes as on stdout; a link to the target is kept.
"$bin" run "$trace" --quiet --timeline - >"$tmp/stdout.csv"
mkdir "$tmp/link"
echo "previous" >"$tmp/link/real.csv"
ln -s real.csv "$tmp/link/t.csv"
(cd "$tmp/link" && "$bin" run "$trace" --quiet --timeline t.csv)
if ! cmp -s "$tmp/stdout.csv" "$tmp/link/real.csv" || [ ! -L "$tmp/link/t.csv" ] ||
   [ "$(ls -A "$tmp/link" | tr '\n' ' ')" != "real.csv t.csv " ]; then
	golden_fail "--timeline through a link: $(ls -lA "$tmp/link" | tail -n +2 | tr '\n' ';')"
fi

exit $fail
