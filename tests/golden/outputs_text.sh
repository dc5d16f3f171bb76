#!/bin/bash
# outputs_text.sh - what a trace names reaches the outputs intact and well-formed, and the
# environment's date is checked.
#
# Invariants: (1) --task-timeline is RFC 4180 CSV: a comm holding a comma or a double quote is
# quoted (quotes doubled), so every row has the header's 8 columns and a CSV parser (Python's
# csv module, not govsim) reads back the comm as the trace wrote it. (2) --json is valid JSON
# (RFC 8259: UTF-8) whatever bytes a comm holds: a byte that is not part of valid UTF-8 is
# written as the character of the same number (\u00XX), valid UTF-8 passes through; Python's
# strict json module reads it. (3) SOURCE_DATE_EPOCH (reproducible-builds.org: decimal seconds
# since 1970) that is not a number or is past 9999-12-31T23:59:59Z (253402300799) stops govsim
# with exit 2 and a message naming it; a valid one is what the database's created_at shows
# (computed here by Python's datetime).
# Does not check: comms in the database (SQLite keeps bytes) or in --csv (libcsv quotes all).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs python3.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init outputs_text.sh
py=/usr/bin/python3
[ -x $py ] || py=python3

"$bin" gen periodic -o "$tmp/p.txt" --count 3 --task name=rtapp,period_ms=16,duty=0.5,cpu=0 || exit 1

# (1) a comm with a comma and a quote
sed 's/rtapp/a,"b/g' "$tmp/p.txt" >"$tmp/comma.txt"
if ! "$bin" run "$tmp/comma.txt" --quiet --task-timeline "$tmp/tt.csv"; then
	golden_fail "run --task-timeline failed"
fi
if ! $py - "$tmp/tt.csv" <<'EOF'; then
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
head, body = rows[0], rows[1:]
bad = [r for r in body if len(r) != len(head)]
if bad:
    sys.exit("outputs_text.sh: --task-timeline rows with %d columns, not %d: %r" % (len(bad[0]), len(head), bad[0]))
comms = sorted({r[head.index('comm')] for r in body})
if 'a,"b' not in comms:
    sys.exit("outputs_text.sh: --task-timeline comms read back as %r, expected 'a,\"b' among them" % comms)
EOF
	golden_fail "--task-timeline: the comma and quote in a comm did not survive the CSV"
fi

# (2) comms that are not UTF-8: 0xff 0xfe (never valid), a lone continuation byte 0x80, a cut
# sequence 0xe2 0x82 followed by 'z'; and one that is valid UTF-8 (é, U+00E9)
printf 's/rtapp/x\xff\xfe/g' >"$tmp/sed1"
sed -f "$tmp/sed1" "$tmp/p.txt" >"$tmp/bytes.txt"
printf 's/rtapp/\x80q\xe2\x82z/g' >"$tmp/sed2"
sed -f "$tmp/sed2" "$tmp/p.txt" >"$tmp/bytes2.txt"
printf 's/rtapp/caf\xc3\xa9/g' >"$tmp/sed3"
sed -f "$tmp/sed3" "$tmp/p.txt" >"$tmp/utf8.txt"
for c in "bytes.txt:x\\u00ff\\u00fe" "bytes2.txt:\\u0080q\\u00e2\\u0082z" "utf8.txt:caf\\u00e9"; do
	t=${c%%:*}
	want=${c#*:}
	"$bin" run "$tmp/$t" --json >"$tmp/out.json" 2>"$tmp/err"
	if ! $py - "$tmp/out.json" "$want" <<'EOF'; then
import json, sys
raw = open(sys.argv[1], 'rb').read()
try:
    doc = json.loads(raw.decode('utf-8', errors='strict'))
except (UnicodeDecodeError, ValueError) as e:
    sys.exit("outputs_text.sh: --json is not valid UTF-8 JSON: %s" % e)
want = json.loads('"%s"' % sys.argv[2])
comms = [t['comm'] for t in doc['tasks']['list']]
if want not in comms:
    sys.exit("outputs_text.sh: --json comms %r, expected %r among them" % (comms, want))
EOF
		golden_fail "--json comms of trace $t (above)"
	fi
done

# (3) SOURCE_DATE_EPOCH
trace=traces/android-8cpu/surfaceflinger.txt
for v in abc 12x -5 1e9 99999999999999999999 253402300800; do
	SOURCE_DATE_EPOCH=$v "$bin" run "$trace" --quiet --db "$tmp/bad.db" 2>"$tmp/err"
	status=$?
	want="govsim: bad SOURCE_DATE_EPOCH '$v' (want seconds since 1970-01-01 UTC, 0..253402300799)"
	if [ $status -ne 2 ] || [ "$(cat "$tmp/err")" != "$want" ]; then
		golden_fail "SOURCE_DATE_EPOCH=$v: exit status $status (expected 2), stderr:"
		sed 's/^/  /' "$tmp/err"
		echo "  expected: $want"
	fi
done
if [ -e "$tmp/bad.db" ]; then
	golden_fail "a bad SOURCE_DATE_EPOCH still wrote the database"
fi
for v in 0 1600000000 253402300799; do
	rm -f "$tmp/ok.db"
	if ! SOURCE_DATE_EPOCH=$v "$bin" run "$trace" --quiet --db "$tmp/ok.db"; then
		golden_fail "SOURCE_DATE_EPOCH=$v: run failed"
		continue
	fi
	got=$($py -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT created_at FROM runs").fetchone()[0])' "$tmp/ok.db")
	want=$($py -c 'import datetime, sys; print(datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))' "$v")
	if [ "$got" != "$want" ]; then
		golden_fail "SOURCE_DATE_EPOCH=$v: created_at '$got', expected '$want'"
	fi
done

exit $fail
