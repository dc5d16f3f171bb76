#!/bin/bash
# report_groups.sh - `govsim report --html` on runs of two different traces (juno-r0
# rtapp_switch and sched_load, each without and with a uclamp_max=300 policy, stored
# interleaved).
#
# Checks: the runs table states each run's energy and total delay relative to the first run of
# the same trace and platform, never against a run of another trace: every relative cell of
# index.html equals the figure python computes from the database (sqlite3: energy per run,
# summed task delay, the lowest run id of each trace as its reference), and the first run of
# each trace says "ref". Run 3's label (100 characters, two sweep points differing only at its
# end) is whole in its heading; the page's style breaks headings only between words and never a
# number cell (white-space:nowrap), and the run ids and relative figures are number cells.
# Does not check: the figures' drawing (test_report_groups.c holds their data).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init report_groups
a=traces/juno-r0/rtapp_switch/trace.txt
b=traces/juno-r0/sched_load/trace.dat

db=$tmp/r.db

max300='setattr comm=* uclamp_max=300'
"$bin" run "$a" --platform juno-r0 --db "$db" --quiet || golden_fail "run 1 failed"
"$bin" run "$b" --platform juno-r0 --db "$db" --quiet || golden_fail "run 2 failed"
label=$(printf 'sweep-point-%s-' a b c d e f g h | head -c 96)max3
"$bin" run "$a" --platform juno-r0 --db "$db" --quiet --action "$max300" --label "$label" ||
	golden_fail "run 3 failed"
"$bin" run "$b" --platform juno-r0 --db "$db" --quiet --action "$max300" || golden_fail "run 4 failed"
"$bin" report --db "$db" --out "$tmp/out" --html >/dev/null || golden_fail "report failed"

sqlite3 -bail -separator ' ' "$db" "
	SELECT r.run_id, r.trace, e.joules,
		(SELECT total(delay_s) FROM task_stats t WHERE t.run_id = r.run_id)
	FROM runs r JOIN energy e ON e.run_id = r.run_id AND e.scope = 'total' ORDER BY r.run_id;" \
	>"$tmp/db.txt" || golden_fail "sqlite3 failed"

python3 - "$tmp/db.txt" "$tmp/out/index.html" <<'PY' || golden_fail "the runs table's relative figures are not per trace"
import sys
from html.parser import HTMLParser

rows = {}
first = {}
for line in open(sys.argv[1]):
    rid, trace, e, d = line.split()
    rows[int(rid)] = (trace, float(e), float(d))
    first.setdefault(trace, int(rid))
if len(rows) != 4 or len(first) != 2:
    print(f"database: {rows}", file=sys.stderr); sys.exit(1)

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_runs = False; self.table = []; self.row = None; self.cell = None
    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "runs") in attrs: self.in_runs = True
        elif self.in_runs and tag == "tr": self.row = []
        elif self.in_runs and tag in ("td", "th"): self.cell = ""
    def handle_endtag(self, tag):
        if tag == "table": self.in_runs = False
        elif self.in_runs and tag in ("td", "th") and self.row is not None:
            self.row.append(self.cell); self.cell = None
        elif self.in_runs and tag == "tr" and self.row is not None:
            self.table.append(self.row); self.row = None
    def handle_data(self, data):
        if self.cell is not None: self.cell += data

p = P(); p.feed(open(sys.argv[2]).read())
head, body = p.table[0], p.table[1:]
ie = next(i for i, h in enumerate(head) if h.startswith("energy vs"))
idl = next(i for i, h in enumerate(head) if h.startswith("delay vs"))
def rel(x, ref):
    return "n/a" if ref == 0 else "%+.1f%%" % (100.0 * (x / ref - 1))
bad = 0
for row in body:
    rid = int(row[0]); trace, e, d = rows[rid]
    ref = rows[first[trace]]
    want_e = "ref" if rid == first[trace] else rel(e, ref[1])
    want_d = "ref" if rid == first[trace] else rel(d, ref[2])
    if row[ie] != want_e or row[idl] != want_d:
        print(f"run {rid}: energy {row[ie]!r} delay {row[idl]!r}, want {want_e!r} {want_d!r}",
              file=sys.stderr)
        bad = 1
if len(body) != 4:
    print(f"{len(body)} rows", file=sys.stderr); bad = 1
sys.exit(bad)
PY

grep -qF "(${label})" "$tmp/out/index.html" || golden_fail "run 3's label is cut in its heading"
python3 - "$tmp/out/index.html" <<'PY' || golden_fail "the page's style or number cells break words"
import re, sys
html = open(sys.argv[1]).read()
style = html[html.index("<style>"):html.index("</style>")]
rules = dict(re.findall(r"([a-z.,]+)\{([^}]*)\}", style))
bad = 0
if "anywhere" in rules.get("th", "") or "anywhere" in rules.get("th,td", ""):
    print("headings break anywhere", file=sys.stderr); bad = 1
if "white-space:nowrap" not in rules.get("td.num", ""):
    print("number cells may break", file=sys.stderr); bad = 1
runs = html[html.index('<table class="runs">'):]
runs = runs[:runs.index("</table>")]
for m in re.finditer(r"<tr><td([^>]*)><a href", runs):
    if 'class="num"' not in m.group(1):
        print("a run id is not a number cell", file=sys.stderr); bad = 1
if len(re.findall(r'<td class="num">(ref|[+-][0-9.]+%)</td>', runs)) != 8:
    print("relative figures are not number cells", file=sys.stderr); bad = 1
sys.exit(bad)
PY

exit $fail
