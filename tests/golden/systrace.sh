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
# Two fixtures in tests/fixtures/traces/ (see README-systrace.md): systrace-viewer-js.html holds
# the viewer's importer script, whose regular expressions name `<script class="trace-data"` and
# `var linuxPerfData = "\`, before the blocks: those lines are code, not a block, and --strict
# accepts the file; systrace-legacy.html is the older catapult layout, the text inside a
# JavaScript string (`var linuxPerfData = "\`, each line ending `\n\`, the last `\n";`). Each
# replays as its text, taken out by awk/sed here, and counts its events as grep does.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init systrace
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
	diff -u "$tmp/run.text" "$tmp/run.$f" || golden_fail "run of $f differs from the text's"
	"$bin" trace info "$tmp/$f" >"$tmp/info.$f" 2>&1
	grep -q '^format:      Android systrace$' "$tmp/info.$f" || golden_fail "$f not detected"
	for ev in sched_switch sched_wakeup cpu_idle cpu_frequency; do
		want=$(grep -c ": $ev: " "$text")
		got=$(sed -n "s/^  $ev  *\([0-9]*\)$/\1/p" "$tmp/info.$f")
		[ "$want" = "$got" ] || golden_fail "$f: $ev $got, want $want (grep -c)"
	done
	want=$(grep -c 'tracing_mark_write: B|' "$text")
	got=$(sed -n 's/^  atrace B (slice begin)  *\([0-9]*\)$/\1/p' "$tmp/info.$f")
	[ "$want" = "$got" ] || golden_fail "$f: atrace B markers $got, want $want"
done
grep -q 'ftrace text of trace-data block 2' "$tmp/info.sf.html" ||
	golden_fail "trace info does not name the block"

# a malformed line in the block: reported at its line in the HTML file
first=$(grep -n 'sched_switch:' "$tmp/sf.html" | head -1 | cut -d: -f1)
sed "${first}s/next_pid=[0-9]*//" "$tmp/sf.html" >"$tmp/bad.html"
"$bin" trace info "$tmp/bad.html" --strict >"$tmp/bad.out" 2>&1
rc=$?
[ $rc = 3 ] || golden_fail "malformed line in the HTML: exit $rc, want 3"
grep -q "bad.html':$first: sched_switch without next_pid" "$tmp/bad.out" ||
	{ golden_fail "malformed line not reported at line $first:"; cat "$tmp/bad.out" >&2; }

fx=tests/fixtures/traces
# the text of each fixture, taken out independently: the lines between the last trace-data tag
# and its </script>; the legacy string's lines with their `\n\` / `\n";` ends cut off
awk '/^  <script class="trace-data"/ { n++; c = 0; next }
     /^  <\/script>/ { if (c) for (i = 1; i <= c; i++) print l[i]; c = 0; next }
     n { l[++c] = $0 }' "$fx/systrace-viewer-js.html" | sed -n '/^# tracer/,$p' >"$tmp/viewer.txt"
sed -n '/^  var linuxPerfData = "\\$/,/^  <\/script>$/p' "$fx/systrace-legacy.html" |
	sed '1d;$d' | sed -e 's/\\n\\$//' -e 's/\\n";$//' >"$tmp/legacy.txt"
for pair in systrace-viewer-js.html:viewer.txt systrace-legacy.html:legacy.txt; do
	f=${pair%%:*} t=$tmp/${pair#*:}
	[ "$(grep -c ': sched_switch: ' "$t")" -gt 5 ] || golden_fail "$f: no text taken out"
	"$bin" trace info --strict "$fx/$f" >"$tmp/info.$f" 2>&1
	rc=$?
	[ $rc = 0 ] || { golden_fail "$f: trace info --strict exit $rc, want 0:"; head -3 "$tmp/info.$f" >&2; }
	grep -q '^malformed:   0$' "$tmp/info.$f" || golden_fail "$f: malformed lines"
	for ev in sched_switch sched_wakeup cpu_idle; do
		want=$(grep -c ": $ev: " "$t")
		got=$(sed -n "s/^  $ev  *\([0-9]*\)$/\1/p" "$tmp/info.$f")
		[ "$want" = "$got" ] || golden_fail "$f: $ev '$got', want $want (grep -c)"
	done
	cp "$t" "$tmp/plain.txt"
	"$bin" run "$tmp/plain.txt" 2>&1 | grep -v '^trace: ' >"$tmp/run.plain"
	"$bin" run "$fx/$f" 2>&1 | grep -v '^trace: ' >"$tmp/run.fx"
	diff -u "$tmp/run.plain" "$tmp/run.fx" >&2 || golden_fail "run of $f differs from its text's"
done
exit $fail
