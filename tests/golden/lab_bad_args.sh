#!/bin/bash
# lab_bad_args.sh - the lab's measuring scripts (tools/lab/measure, measure-pelt, measure-eevdf,
# departures) take recordings on their command line: each a TRACE.txt.gz with its TRACE.facts
# beside it. Anything else ends the script at once with "TOOL: PATH: why" on stderr and exit
# status 2, before any output (a shell glob such as fork-exit* also matches the recording's
# .cmd, .log and .facts); no Python traceback. The shared check (tools/lab/lab_recordings.py)
# leaves no __pycache__ beside the scripts.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_bad_args

mkdir -p "$tmp/rec"
printf 'tools/lab/record ...\n' >"$tmp/rec/r.cmd"
printf '# tracer: nop\n' | gzip >"$tmp/rec/nofacts.txt.gz"
before=$(ls -a tools/lab)

# expect TOOL PATH WHY
expect() {
	local out st
	out=$(tools/lab/"$1" --govsim "$bin" "$2" 2>"$tmp/err")
	st=$?
	[ "$st" = 2 ] || golden_fail "$1 $2: exit $st, want 2"
	[ -z "$out" ] || golden_fail "$1 $2: printed '$out' before failing"
	golden_equal "$1 $2" "$(cat "$tmp/err")" "$1: $2: $3"
}
for tool in measure measure-pelt measure-eevdf departures; do
	expect "$tool" "$tmp/rec/r.cmd" \
		"not a lab recording (a TRACE.txt.gz, with its TRACE.facts beside it)"
	expect "$tool" "$tmp/rec/none.txt.gz" "no such file"
	expect "$tool" "$tmp/rec/nofacts.txt.gz" "no facts file beside it (nofacts.facts)"
done
golden_equal "tools/lab unchanged" "$(ls -a tools/lab)" "$before"
exit $fail
