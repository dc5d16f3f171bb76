#!/bin/bash
# pgo_training_trace.sh - the Perfetto trace the profile-guided build trains on
# (tools/pgo/gen-mix-15k.pftrace.gz) is what the recipe in tools/pgo/train.sh makes of today's
# `govsim gen mix`: its bytes, decompressed, equal those of
#   govsim gen mix --size 15000 --seed 7 -o mix.txt
#   tools/ftrace_to_perfetto.py mix.txt mix.pftrace
# (gzip's own bytes may differ between gzip versions, so the comparison is of the content). A
# change to the generator or the converter fails here until the file is made again, so the
# training keeps reading the events that tools/bench.sh's Perfetto rows read. And govsim reads
# it as such a trace: typed sched_switch and sched_wakeup events, each as many as the text has.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init pgo_training_trace

"$bin" gen mix --size 15000 --seed 7 -o "$tmp/mix.txt" >"$tmp/err" 2>&1 ||
	golden_fail "gen mix: $(cat "$tmp/err")"
python3 tools/ftrace_to_perfetto.py "$tmp/mix.txt" "$tmp/mix.pftrace" >"$tmp/err" 2>&1 ||
	golden_fail "ftrace_to_perfetto.py: $(cat "$tmp/err")"
gzip -dc tools/pgo/gen-mix-15k.pftrace.gz >"$tmp/bundled.pftrace" ||
	golden_fail "tools/pgo/gen-mix-15k.pftrace.gz does not decompress"
cmp -s "$tmp/mix.pftrace" "$tmp/bundled.pftrace" ||
	golden_fail "tools/pgo/gen-mix-15k.pftrace.gz is not its recipe's output (see tools/pgo/train.sh)"

# counts FILE: "N M", its sched_switch and sched_wakeup events by govsim trace info
counts() {
	"$bin" trace info "$1" 2>/dev/null |
		awk '$1 == "sched_switch" { s = $2 } $1 == "sched_wakeup" { w = $2 }
			END { print s + 0, w + 0 }'
}
text=$(counts "$tmp/mix.txt")
golden_equal "the training trace's sched_switch and sched_wakeup events, read as Perfetto" \
	"$(counts tools/pgo/gen-mix-15k.pftrace.gz)" "$text"
set -- $text
golden_check "the text has switches and wakeups ($text)" \
	"$([ "$1" -gt 0 ] && [ "$2" -gt 0 ]; echo $?)"
exit $fail
