#!/bin/bash
# fuzz.sh - build the libFuzzer targets (tests/fuzz/) and run each for SECONDS.
#
# usage: tools/fuzz.sh [SECONDS] [BUILD_DIR] [TARGET...]
#        (default 60 s each, build-fuzz, every target: ftrace tracecmd dat dat_format csv policy
#        platform perfetto systrace)
#
# Configures BUILD_DIR with clang and -DGOVSIM_FUZZ=ON when it has no cache yet, builds only the
# fuzz targets (-j2), then runs each target in turn on one core:
#   corpus     BUILD_DIR/fuzz/corpus/NAME   kept between runs; new inputs land here
#   seeds      tests/fuzz/corpus/NAME (the committed corpus: seeds, fixed crashes, inputs earlier
#              campaigns found interesting), the malformed-input corpus (tests/fixtures/bad) and
#              40-line pieces of the real traces (traces/), the models and the policy fixtures,
#              assembled once into BUILD_DIR/fuzz/seeds/NAME
#   dictionary tests/fuzz/NAME.dict (trace.dict for both text readers)
#   crashes    BUILD_DIR/fuzz/artifacts/NAME-crash-*, -leak-*, -timeout-*, -oom-*
# Exits 1 when a target found a crash, leak, timeout or OOM; each such input should become a
# regression test: fix the bug, then copy the file into tests/fuzz/corpus/NAME/ under a name that
# says what it broke (ctest fuzz.NAME replays that directory in every build).
#
# CI runs 30 s each (.ci/run). For a real campaign run longer, e.g. `tools/fuzz.sh 3600`
# (an hour per target; the corpus grows across runs, so repeated runs continue where the last
# one stopped). Reproduce one input: BUILD_DIR/tests/fuzz/fuzz_NAME FILE.
#
# Environment: FUZZ_SEED, when set (a whole number), is passed as -seed=$FUZZ_SEED to every
# target, so that a run can be repeated, or different runs explore from different seeds (e.g.
# `FUZZ_SEED=2 tools/fuzz.sh 60 build-fuzz dat`); unset, libFuzzer picks one from the clock.
# FUZZ_TIMEOUT: seconds one input may take before libFuzzer calls it a hang (default 10). The
# clock is the wall's: a campaign at `nice 19` beside a build or a test run can be starved for
# longer than that (a 0.5-s input was reported as a 10-s timeout that way), so long campaigns on
# a shared machine use e.g. FUZZ_TIMEOUT=120; a real hang still stops the run.
# FUZZ_KEEP=1: after a target's run (that found nothing), merge what its campaign corpus adds in
# coverage into tests/fuzz/corpus/NAME (libFuzzer -merge=1: only inputs with new coverage are
# copied), to be reviewed and committed; CI and ctest then replay them.
set -u
cd "$(dirname "$0")/.." || exit 2
secs=${1:-60}
build=${2:-build-fuzz}
shift $(($# > 2 ? 2 : $#))
targets=${*:-ftrace tracecmd dat dat_format csv policy platform perfetto systrace facts plat_info}

case $secs in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2 ;; esac
seed_opt=()
if [ -n "${FUZZ_SEED+set}" ]; then
	case $FUZZ_SEED in '' | *[!0-9]*) echo "fuzz.sh: FUZZ_SEED must be a whole number, not '$FUZZ_SEED'" >&2; exit 2 ;; esac
	seed_opt=(-seed="$FUZZ_SEED")
fi
timeout_s=${FUZZ_TIMEOUT:-10}
case $timeout_s in '' | *[!0-9]*) echo "fuzz.sh: FUZZ_TIMEOUT must be a whole number, not '$timeout_s'" >&2; exit 2 ;; esac
command -v clang >/dev/null || { echo "fuzz.sh: clang not found: install 'clang libclang-rt-14-dev' (tools/setup.sh)" >&2; exit 2; }

mkdir -p "$build/fuzz"
if [ ! -f "$build/CMakeCache.txt" ]; then
	CC=clang cmake -S . -B "$build" -DGOVSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		>"$build/fuzz/build.log" 2>&1 || { cat "$build/fuzz/build.log" >&2; exit 2; }
fi
bins=""
for t in $targets; do bins="$bins fuzz_$t"; done
# shellcheck disable=SC2086
cmake --build "$build" -j2 --target $bins >"$build/fuzz/build.log" 2>&1 || {
	tail -30 "$build/fuzz/build.log" >&2
	echo "fuzz.sh: build failed; run: cmake --build $build --target$bins" >&2
	exit 2
}
grep -q '^GOVSIM_FUZZ:BOOL=ON' "$build/CMakeCache.txt" || {
	echo "fuzz.sh: $build is not a -DGOVSIM_FUZZ=ON build" >&2
	exit 2
}

# pieces FILE DIR: FILE cut into 40-line pieces (at most 25) in DIR, named after FILE.
pieces() {
	local base
	base=$(echo "$1" | tr '/' '_')
	split -l 40 -a 3 -d "$1" "$2/$base." && find "$2" -name "$base.*" | sort | tail -n +26 | xargs -r rm -f
}

# seeds NAME: assemble the seed directory once.
seeds() {
	local d="$build/fuzz/seeds/$1" f
	[ -d "$d" ] && return
	mkdir -p "$d"
	cp tests/fuzz/corpus/"$1"/* "$d"/ 2>/dev/null
	[ -d tests/fixtures/bad ] && cp tests/fixtures/bad/* "$d"/ 2>/dev/null
	case $1 in
	ftrace | tracecmd)
		for f in traces/*/*.txt traces/*/*/*.txt; do [ -f "$f" ] && pieces "$f" "$d"; done ;;
	csv | dat | dat_format) ;;
	policy) cp tests/fixtures/policies/* "$d"/ ;;
	platform) cp models/*.sql tests/fixtures/platforms/*.sql "$d"/ ;;
	perfetto) cp tests/golden/input/*.pftrace "$d"/ ;;
	systrace) ;;
	esac
}

maxlen() {
	case $1 in
	policy) echo 2048 ;;
	platform) echo 12288 ;;
	plat_info) echo 16384 ;; # the Juno plat_info.yml is 14 KiB
	dat) echo 65536 ;; # the smallest seed is 56 KiB (tests/fuzz/mkdat.py)
	*) echo 8192 ;;
	esac
}

mkdir -p "$build/fuzz/artifacts"
# libtraceevent's own leak (tests/lsan.supp), as ctest does
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for t in $targets; do
	bin="$build/tests/fuzz/fuzz_$t"
	corpus="$build/fuzz/corpus/$t"
	dict=tests/fuzz/$t.dict
	case $t in ftrace | tracecmd) dict=tests/fuzz/trace.dict ;; dat_format) dict=tests/fuzz/dat.dict ;; esac
	mkdir -p "$corpus"
	seeds "$t"
	log="$build/fuzz/$t.log"
	"$bin" "${seed_opt[@]}" -max_total_time="$secs" -max_len="$(maxlen "$t")" -timeout="$timeout_s" -rss_limit_mb=2048 \
		-dict="$dict" -artifact_prefix="$build/fuzz/artifacts/$t-" -print_final_stats=1 \
		"$corpus" "$build/fuzz/seeds/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
	printf 'fuzz %-9s %4ss  %10s execs  %-10s corpus %5d  ' "$t" "$secs" "${execs:-?}" \
		"${cov:-cov: ?}" "$(find "$corpus" -type f | wc -l)"
	if [ "$rc" -eq 0 ]; then
		echo "ok"
		if [ "${FUZZ_KEEP:-0}" = 1 ]; then
			"$bin" -merge=1 -max_len="$(maxlen "$t")" -timeout="$timeout_s" -rss_limit_mb=2048 \
				tests/fuzz/corpus/"$t" "$corpus" >"$build/fuzz/$t.merge.log" 2>&1 ||
				{ echo "fuzz.sh: $t: merge into tests/fuzz/corpus/$t failed ($build/fuzz/$t.merge.log)"; status=1; }
		fi
	else
		echo "FAILED (exit $rc), log: $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: invariant)|runtime error|artifact_prefix' "$log" | head -8
		status=1
	fi
done
exit $status
