#!/bin/bash
# sweep_args.sh - `govsim sweep`'s command line: what it refuses (exit 2, before anything runs)
# and the job list it makes of what it accepts.
#
# Checks: an empty value in --set (a,,b; a trailing or leading comma) exits 2 naming the option
# instead of being dropped. It does not replay anything (sweep.sh does).
set -u
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
fail=0
trace=traces/juno-r0/rtapp_switch/trace.txt

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches the extended regex PATTERN
expect() {
	local code=$1 pat=$2 st
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" != "$code" ]; then
		echo "sweep_args: '$*': exit $st, expected $code" >&2
		cat "$tmp/err" >&2
		fail=1
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		echo "sweep_args: '$*': stderr does not match '$pat':" >&2
		cat "$tmp/err" >&2
		fail=1
	fi
}

# --- an empty value in --set is a command-line mistake
for v in 'hz=100,,250' 'hz=100,' 'hz=,100'; do
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" --list-jobs
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" \
		--db "$tmp/x.db"
	[ ! -e "$tmp/x.db" ] || { echo "sweep_args: '$v': a database was written" >&2; fail=1; }
done
# the same values without the hole: two jobs, labelled with each
"$bin" sweep "$trace" --platform juno-r0 --set hz=100,250 --list-jobs >"$tmp/list" 2>&1
printf '0\t%s\thz=100\n1\t%s\thz=250\n' "$trace" "$trace" | diff -u - "$tmp/list" || fail=1

exit $fail
