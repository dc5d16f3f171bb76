#!/bin/bash
# trace_info.sh - `govsim trace info` on every real trace in traces/, against reviewed outputs.
#
# The expected files were checked by hand against grep counts of each text trace (event counts
# by name, malformed and out-of-order lines); the trace.dat and its `trace-cmd report` text must
# also give identical event counts (checked here directly, not only through the expected files),
# and so must the same trace printed with trace-cmd's plugins and in its latency layout
# (tests/golden/input/, made by libtraceevent; see the README there).
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init trace_info

traces=(
	"juno_sched_load_report traces/juno-r0/sched_load/trace.report.txt"
	"juno_sched_load_dat traces/juno-r0/sched_load/trace.dat"
	"juno_rtapp_switch traces/juno-r0/rtapp_switch/trace.txt"
	"android_surfaceflinger traces/android-8cpu/surfaceflinger.txt"
	"juno_sched_load_plugins tests/golden/input/juno_sched_load_plugins.txt.gz"
	"juno_sched_load_latency tests/golden/input/juno_sched_load_latency.txt.gz"
	"perfetto_systing traces/perfetto/systing-x86-22cpu.pftrace"
	"perfetto_pixel7pro traces/perfetto/pixel7pro-atrace.pftrace"
)
for f in traces/formats/*.txt; do
	b=$(basename "$f" .txt)
	traces+=("formats_${b%%_2020-*} $f")
done


for entry in "${traces[@]}"; do
	name=${entry%% *}
	path=${entry#* }
	out="$tmp/$name.txt"
	"$bin" trace info "$path" >"$out" 2>&1
	echo "exit status: $?" >>"$out"
	if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$out" "$exp/trace_info_$name.txt"
		continue
	fi
	if ! diff -u "$exp/trace_info_$name.txt" "$out"; then
		golden_fail "$path differs from $exp/trace_info_$name.txt"
	fi
done

# .dat and its report texts (-N; with plugins; -l): the same events, type by type
counts() { sed -n '/^events:/,/^tasks:/p' "$1"; }
for other in juno_sched_load_dat juno_sched_load_plugins juno_sched_load_latency; do
	if ! diff -u <(counts "$tmp/juno_sched_load_report.txt") <(counts "$tmp/$other.txt"); then
		golden_fail "$other and trace.report.txt counts differ"
	fi
done
exit $fail
