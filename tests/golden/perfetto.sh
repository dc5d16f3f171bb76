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
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
text=$tmp/surfaceflinger.txt
grep -v ': sugov_set_iowait_boost: ' traces/android-8cpu/surfaceflinger.txt >"$text"
pf=tests/golden/input/surfaceflinger.pftrace
gzip -c "$pf" >"$tmp/sf.pftrace.gz"

same() {
	local name=$1 a b
	shift
	for f in "$text" "$pf" "$tmp/sf.pftrace.gz"; do
		"$bin" run "$f" "$@" 2>&1 | grep -v '^trace: ' >"$tmp/out.$(basename "$f")"
		echo "exit status: ${PIPESTATUS[0]}" >>"$tmp/out.$(basename "$f")"
	done
	a="$tmp/out.$(basename "$text")"
	for b in "$tmp/out.$(basename "$pf")" "$tmp/out.sf.pftrace.gz"; do
		if ! diff -u "$a" "$b"; then
			echo "perfetto: '$name': $b differs from the text trace's run" >&2
			fail=1
		fi
	done
	grep -q '^exit status: 0$' "$a" || { echo "perfetto: '$name' failed" >&2; fail=1; }
}

same work
same traced --timing traced --power-model costs
same performance --governor performance
same clamp --action 'setattr comm=surfaceflinger uclamp_min=512'

# trace info: the same events by type (the Perfetto encoding keeps only what the stream holds)
"$bin" trace info "$text" | sed -n '/^events:/,/^skipped/p' >"$tmp/ti.text"
"$bin" trace info "$pf" | sed -n '/^events:/,/^skipped/p' >"$tmp/ti.pf"
diff <(grep -v '^skipped' "$tmp/ti.text") <(grep -v '^skipped' "$tmp/ti.pf") ||
	{ echo "perfetto: trace info event counts differ" >&2; fail=1; }
exit $fail
