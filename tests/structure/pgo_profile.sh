#!/bin/sh
# pgo_profile.sh BUILD_DIR GCOV_DUMP: the profile-guided build (cmake/pgo.cmake) had a profile
# for the program's objects.
# - Every object of the program (CMakeFiles/govsim.dir and the folders' object libraries) has
#   a profile under the name GCC looks it up by: its path relative to the build tree
#   (-fprofile-prefix-path), '/' as '#', '.o' as '.gcda'; or defines no function (the embedded
#   models are data). GCC says nothing when it finds no profile for an object (the build passes
#   -Wno-missing-profile), so a name that does not match would leave the program unprofiled
#   without a word: this is where it shows.
# - The profiles of the replay's hot files count the training's runs and executed code
#   (gcov-dump's OBJECT_SUMMARY: runs and the largest counter both above 0).
# - The program says so: `govsim --version` names the build PGO.
set -eu
b=$1
dump=$2
if [ ! -f "$b/pgo/profile.stamp" ]; then
	echo "pgo_profile: no $b/pgo/profile.stamp: the training did not run" >&2
	exit 1
fi
cd "$b"
objs=$(find CMakeFiles/govsim.dir CMakeFiles/govsim_*.dir -name '*.o' \
	! -path 'CMakeFiles/govsim_plot.dir/*' ! -path 'CMakeFiles/govsim_layer_main.dir/*' | sort)
n=0
fail=0
for o in $objs; do
	n=$((n + 1))
	gcda=pgo/profile/$(printf '%s' "${o%.o}" | tr '/' '#').gcda
	[ -s "$gcda" ] && continue
	if nm --defined-only "$o" 2>/dev/null | grep -q ' [Tt] '; then
		echo "pgo_profile: $o defines functions but has no profile ($gcda)" >&2
		fail=1
	fi
done
if [ "$n" -lt 100 ]; then
	echo "pgo_profile: only $n objects of the program found in $b" >&2
	exit 1
fi
hot="src/sim/sim.c src/sched/core.c src/gov/schedutil.c src/trace/text/text.c src/work/work.c"
for src in $hot; do
	folder=${src#src/}
	folder=${folder%%/*}
	gcda=pgo/profile/CMakeFiles#govsim_$folder.dir#$(printf '%s' "$src" | tr '/' '#').gcda
	summary=$("$dump" -l "$gcda" 2>/dev/null |
		grep -o 'OBJECT_SUMMARY runs=[0-9]*, sum_max=[0-9]*' || true)
	runs=$(printf '%s' "$summary" | sed -n 's/.*runs=\([0-9]*\),.*/\1/p')
	max=$(printf '%s' "$summary" | sed -n 's/.*sum_max=\([0-9]*\)/\1/p')
	if [ -z "$runs" ] || [ "$runs" -eq 0 ] || [ "$max" -eq 0 ]; then
		echo "pgo_profile: $gcda: no training run counted ('${summary:-no summary}')" >&2
		fail=1
	fi
done
case $(./govsim --version) in
*PGO*) ;;
*) echo "pgo_profile: '$(./govsim --version)' does not name the build PGO" >&2; fail=1 ;;
esac
if [ "$fail" = 0 ]; then
	echo "pgo_profile: $n objects, each profiled or without code;" \
		"the hot files' profiles count the training"
fi
exit "$fail"
