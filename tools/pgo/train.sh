#!/bin/sh
# train.sh - the training run of the profile-guided build (cmake/pgo.cmake).
#
# usage: tools/pgo/train.sh GOVSIM_BIN SOURCE_DIR WORK_DIR
#
# Runs the instrumented GOVSIM_BIN over what a user's commands spend their time on, so that its
# profile weighs the replay's paths as they are used: the text reader and the replay on a
# synthetic mixed workload (govsim gen mix: RT and CFS tasks on 8 CPUs, work timing, the energy
# model), with EAS placement and with clamps on every task; the bundled real traces (a phone's
# ftrace text, a Juno board's trace.dat, an x86 machine's Perfetto); and the lab's recordings
# of each kernel, validated under their own profiles (traced timing, non-invariant x86
# P-states, the kernel's probes). The synthetic trace has another seed and size than
# tools/bench.sh's, which measures the result. Each command's output is discarded; any failure
# fails the build (the program the profile is for does not work). Takes a few seconds.
set -eu
[ $# -eq 3 ] || { echo "usage: tools/pgo/train.sh GOVSIM_BIN SOURCE_DIR WORK_DIR" >&2; exit 2; }
bin=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"

run() {
	"$bin" "$@" >/dev/null 2>"$work/err" || {
		echo "train.sh: govsim $* failed:" >&2
		cat "$work/err" >&2
		exit 1
	}
}

mix=$work/mix.txt
run gen mix --size 120000 --seed 7 -o "$mix"
run trace read "$mix"
run trace info "$mix"
run run "$mix"
run run "$mix" --placement eas
run run "$mix" --action 'setattr comm=* uclamp_min=100 uclamp_max=900'
run run "$src/traces/android-8cpu/surfaceflinger.txt"
run run "$src/traces/juno-r0/sched_load/trace.dat" --platform juno-r0
pf=$src/traces/perfetto/systing-x86-22cpu.pftrace
run trace read "$pf"
run trace info "$pf"
# Typed ftrace events in per-CPU bundles: what tools/ftrace_to_perfetto.py writes, and what
# bench.sh's Perfetto rows read. gen-mix-15k.pftrace.gz beside this script is
#   govsim gen mix --size 15000 --seed 7 -o mix.txt
#   tools/ftrace_to_perfetto.py mix.txt mix.pftrace && gzip -9 -n mix.pftrace
# read ten times, so that the Perfetto reader weighs in the profile about as the text reader
# does (a reader the training barely runs is compiled as cold code: its helpers not inlined,
# its branches laid out for size; trained on the systing trace above alone, the Perfetto
# reader took 25 to 40 % more CPU).
typed=$(dirname "$0")/gen-mix-15k.pftrace.gz
for i in 1 2 3 4 5 6 7 8 9 10; do
	run trace read "$typed"
done
run run "$typed"
for k in 5.10 6.1 6.12 7.2; do
	run validate "$src/traces/lab/$k/fork-exit.txt.gz" "$src/traces/lab/$k/periodic.txt.gz"
done
rm -rf "$work"
