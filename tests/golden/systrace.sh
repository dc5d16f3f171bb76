#!/bin/bash
# systrace.sh - Android systrace HTML and Chrome JSON (systemTraceEvents) read as the ftrace text
# they carry: the same events, and the same `govsim run`, as the text itself.
#
# The two files are made here from traces/android-8cpu/surfaceflinger.txt (itself the ftrace
# text of trappy's tests/trace_surfaceflinger.html): the HTML as catapult's systrace writes it
# (the viewer's script with a line longer than the reader's 1 MB buffer, a JSON trace-data block
# first, the ftrace text in a second block), the JSON with the text escaped into one string
# (awk: \ " and tabs escaped, lines joined with \n). Also: the HTML's trace info names the block,
# and a malformed line inside the block is reported with its line number in the HTML file.
set -u
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
text=traces/android-8cpu/surfaceflinger.txt

{
	printf '<!DOCTYPE html>\n<html>\n<head i18n-values="dir:textdirection;">\n<script>\n'
	head -c 1500000 /dev/zero | tr '\0' 'x'
	printf '\n</script>\n</head>\n<body>\n  <!-- BEGIN TRACE -->\n'
	printf '  <script class="trace-data" type="application/text">\n{"processes": [1, 2]}\n  </script>\n'
	printf '  <script class="trace-data" type="application/text">\n'
	cat "$text"
	printf '  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'
} >"$tmp/sf.html"
{
	printf '{"traceEvents": [{"name": "systemTraceEvents", "ph": "i"}],\n "systemTraceEvents": "'
	awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s\\n", $0 }' "$text"
	printf '"}\n'
} >"$tmp/sf.json"

"$bin" run "$text" 2>&1 | grep -v '^trace: ' >"$tmp/run.text"
for f in sf.html sf.json; do
	"$bin" run "$tmp/$f" 2>&1 | grep -v '^trace: ' >"$tmp/run.$f"
	diff -u "$tmp/run.text" "$tmp/run.$f" || { echo "systrace: run of $f differs from the text's" >&2; fail=1; }
	"$bin" trace info "$tmp/$f" >"$tmp/info.$f" 2>&1
	grep -q '^format:      Android systrace$' "$tmp/info.$f" || { echo "systrace: $f not detected" >&2; fail=1; }
	for ev in sched_switch sched_wakeup cpu_idle cpu_frequency; do
		want=$(grep -c ": $ev: " "$text")
		got=$(sed -n "s/^  $ev  *\([0-9]*\)$/\1/p" "$tmp/info.$f")
		[ "$want" = "$got" ] || { echo "systrace: $f: $ev $got, want $want (grep -c)" >&2; fail=1; }
	done
	want=$(grep -c 'tracing_mark_write: B|' "$text")
	got=$(sed -n 's/^  atrace B (slice begin)  *\([0-9]*\)$/\1/p' "$tmp/info.$f")
	[ "$want" = "$got" ] || { echo "systrace: $f: atrace B markers $got, want $want" >&2; fail=1; }
done
grep -q 'ftrace text of trace-data block 2' "$tmp/info.sf.html" ||
	{ echo "systrace: trace info does not name the block" >&2; fail=1; }

# a malformed line in the block: reported at its line in the HTML file
first=$(grep -n 'sched_switch:' "$tmp/sf.html" | head -1 | cut -d: -f1)
sed "${first}s/next_pid=[0-9]*//" "$tmp/sf.html" >"$tmp/bad.html"
"$bin" trace info "$tmp/bad.html" --strict >"$tmp/bad.out" 2>&1
rc=$?
[ $rc = 3 ] || { echo "systrace: malformed line in the HTML: exit $rc, want 3" >&2; fail=1; }
grep -q "bad.html':$first: sched_switch without next_pid" "$tmp/bad.out" ||
	{ echo "systrace: malformed line not reported at line $first:" >&2; cat "$tmp/bad.out" >&2; fail=1; }
exit $fail
