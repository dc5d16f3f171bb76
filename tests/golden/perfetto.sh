#!/bin/bash
# perfetto.sh - the same trace as ftrace text and as Perfetto protobuf gives the same `govsim run`.
#
# tests/golden/input/surfaceflinger.pftrace is traces/android-8cpu/surfaceflinger.txt encoded as
# traced_probes lays a trace out (one bundle per CPU every 50 ms of trace time, typed events),
# made and checked by unit test test_perfetto (test_text_equals_perfetto), without the text's
# sugov_set_iowait_boost events (the encoding carries the scheduling and power events only):
# the text trace is compared without them. Every line of `run` but the trace's path must be
# identical, under both timing models and two governors; and the Perfetto trace
# gzip-compressed reads the same.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init perfetto
text=$tmp/surfaceflinger.txt
grep -v ': sugov_set_iowait_boost: ' traces/android-8cpu/surfaceflinger.txt >"$text"
pf=tests/golden/input/surfaceflinger.pftrace
gzip -c "$pf" >"$tmp/sf.pftrace.gz"

# same_run NAME ARGS...: `run ARGS...` of the text trace, the Perfetto one and the gzipped
# Perfetto one print the same, apart from the line naming the trace
same_run() {
	local name=$1 a b
	shift
	for f in "$text" "$pf" "$tmp/sf.pftrace.gz"; do
		"$bin" run "$f" "$@" 2>&1 | grep -v '^trace: ' >"$tmp/out.$(basename "$f")"
		echo "exit status: ${PIPESTATUS[0]}" >>"$tmp/out.$(basename "$f")"
	done
	a="$tmp/out.$(basename "$text")"
	for b in "$tmp/out.$(basename "$pf")" "$tmp/out.sf.pftrace.gz"; do
		golden_same "'$name': the run of $(basename "$b") against the text trace's" "$a" "$b"
	done
	grep -q '^exit status: 0$' "$a" || golden_fail "'$name' failed"
}

same_run work
same_run traced --timing traced --power-model costs
same_run performance --governor performance
same_run clamp --action 'setattr comm=surfaceflinger uclamp_min=512'

# trace info: the same events by type (the Perfetto encoding keeps only what the stream holds)
"$bin" trace info "$text" | sed -n '/^events:/,/^skipped/p' | grep -v '^skipped' >"$tmp/ti.text"
"$bin" trace info "$pf" | sed -n '/^events:/,/^skipped/p' | grep -v '^skipped' >"$tmp/ti.pf"
golden_same "trace info event counts" "$tmp/ti.text" "$tmp/ti.pf"
exit $fail
