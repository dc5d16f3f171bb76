#!/bin/bash
# report.sh - `govsim report` on a database of two real runs (juno-r0 rtapp_switch, without and
# with a uclamp_max=300 policy).
#
# Checks: the predictable file names (expected/report_files.txt); every PNG has the PNG
# signature and an IHDR of 1200x600 (read with od, not with govsim's own code); every SVG is
# well-formed XML (python3's parser) with an <svg> root of width 1200px and height 600px;
# index.html parses as HTML and holds the database's numbers, fetched with sqlite3 (energy per
# cluster and total, residency seconds, policy figures, total delay, uclamp counts); --run picks
# runs (no compare figure for one run); exit statuses and messages of the mistakes
# (expected/report_errors.txt). Does not check: how the figures look.
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init report
trace=traces/juno-r0/rtapp_switch/trace.txt

db=$tmp/r.db

"$bin" run "$trace" --platform juno-r0 --db "$db" --label base --quiet || golden_fail "run 1 failed"
"$bin" run "$trace" --platform juno-r0 --db "$db" --label max300 --quiet \
	--action 'setattr comm=* uclamp_max=300' || golden_fail "run 2 failed"
"$bin" report --db "$db" --out "$tmp/out" --html >"$tmp/stdout" || golden_fail "report failed"

# file names
if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
	(cd "$tmp/out" && ls) >"$exp/report_files.txt"
fi
(cd "$tmp/out" && ls) | diff -u "$exp/report_files.txt" - || golden_fail "file names differ"
grep -qx "2 runs, 17 files in $tmp/out" "$tmp/stdout" || golden_fail "stdout: $(cat "$tmp/stdout")"

# PNG: signature, IHDR, 1200x600 (big-endian 32-bit at offsets 16 and 20)
for f in "$tmp"/out/*.png; do
	sig=$(od -An -tx1 -N16 "$f" | tr -d ' \n')
	[ "$sig" = "89504e470d0a1a0a0000000d49484452" ] || golden_fail "$(basename "$f"): not a PNG ($sig)"
	size=$(od -An -tu1 -j16 -N8 "$f" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" \
		$5*16777216+$6*65536+$7*256+$8}')
	[ "$size" = "1200x600" ] || golden_fail "$(basename "$f"): $size, expected 1200x600"
done

# SVG: well-formed, root <svg width="1200px" height="600px">
python3 - "$tmp"/out/*.svg <<'PY' || golden_fail "an SVG is not as expected"
import sys, xml.etree.ElementTree as ET
bad = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: {e}", file=sys.stderr); bad = 1; continue
    if root.tag != "{http://www.w3.org/2000/svg}svg" or root.get("width") != "1200px" \
            or root.get("height") != "600px":
        print(f"{path}: root {root.tag} {root.attrib}", file=sys.stderr); bad = 1
sys.exit(bad)
PY

# HTML: parses, every element closed, 8 embedded PNGs (2 runs x 3 + energy + compare)
python3 - "$tmp/out/index.html" <<'PY' || golden_fail "index.html is not as expected"
import sys
from html.parser import HTMLParser
void = {"meta", "img", "br", "link", "hr", "input"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.imgs = 0; self.bad = 0
    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs += 1
            src = dict(attrs).get("src", "")
            if not src.startswith("data:image/png;base64,iVBORw0KGgo"):
                self.bad = 1
        if tag not in void:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.bad = 1
p = P(); p.feed(open(sys.argv[1]).read())
if p.bad or p.stack or p.imgs != 8:
    print(f"bad={p.bad} open={p.stack} imgs={p.imgs}", file=sys.stderr); sys.exit(1)
PY

# HTML tables hold the database's numbers
html="$tmp/out/index.html"
sqlite3 -bail "$db" "
	SELECT printf('%.6f', joules) FROM energy WHERE scope IN ('cluster', 'total');
	SELECT printf('%.6f', joules) || ' J' FROM energy WHERE scope = 'total';
	SELECT printf('%.6f', seconds) FROM residency;
	SELECT freq_khz FROM residency;
	SELECT printf('%.1f', avg_freq_khz / 1000.0) FROM policy_stats;
	SELECT transitions FROM policy_stats;
	SELECT printf('%.6f', busy_s) FROM policy_stats;
	SELECT printf('%.6f', sum(delay_s)) FROM task_stats GROUP BY run_id;
	SELECT agg_ops FROM uclamp_stats;
	SELECT agg_skipped FROM uclamp_stats;
	SELECT printf('%.6f', clamped_down_s) FROM uclamp_stats;
	SELECT label FROM runs;
	-- residency shares: seconds / sum over the policy, as the page rounds them
	SELECT printf('%.1f%%', 100.0 * seconds / (SELECT sum(seconds) FROM residency r2
		WHERE r2.run_id = r.run_id AND r2.policy = r.policy)) FROM residency r;" \
	>"$tmp/cells.txt" || golden_fail "sqlite3 failed"
# 6 energies + 2 totals with unit + 20 residency seconds + 20 OPPs + 12 policy figures
# + 2 delays + 6 uclamp figures + 2 labels + 20 shares = 90 cells
[ "$(wc -l <"$tmp/cells.txt")" -ge 90 ] || golden_fail "only $(wc -l <"$tmp/cells.txt") cells from sqlite3"
while IFS= read -r cell; do
	grep -qF ">$cell<" "$html" || golden_fail "index.html lacks the database's '$cell'"
done <"$tmp/cells.txt"

# --run: one run, its files and energy only
"$bin" report --db "$db" --run 2 --out "$tmp/one" >/dev/null || golden_fail "--run 2 failed"
(cd "$tmp/one" && ls | tr '\n' ' ') >"$tmp/one.txt"
want="energy.png energy.svg run2_residency.png run2_residency.svg run2_timeline_policy0.png \
run2_timeline_policy0.svg run2_timeline_policy1.png run2_timeline_policy1.svg "
[ "$(cat "$tmp/one.txt")" = "$want" ] || golden_fail "--run 2 wrote: $(cat "$tmp/one.txt")"

# mistakes: message and exit status
{
	run_case() {
		echo "\$ govsim report $*" | sed "s|$tmp|TMP|g"
		"$bin" report "$@" 2>&1 | sed "s|$tmp|TMP|g"
		echo "exit status: ${PIPESTATUS[0]}"
	}
	run_case
	run_case --db "$db"
	run_case --db "$db" --out "$tmp/x" --bogus
	run_case --db "$db" --out "$tmp/x" --run two
	run_case --db "$db" --out "$tmp/x" --run
	run_case --db "$db" --out "$tmp/x" extra
	run_case --db "$db" --out "$tmp/x" --run 1 --select governor=schedutil
	run_case --db "$db" --out "$tmp/x" --select colour=blue
	run_case --db "$db" --out "$tmp/x" --run 9
	run_case --db "$db" --out "$tmp/x" --select label=nothing
	run_case --db "$tmp/missing.db" --out "$tmp/x"
	run_case --db "$db" --out /proc/govsim-report-test
} >"$tmp/errors.txt"
if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
	cp "$tmp/errors.txt" "$exp/report_errors.txt"
fi
diff -u "$exp/report_errors.txt" "$tmp/errors.txt" || golden_fail "error cases differ"
"$bin" report --help >/dev/null || golden_fail "--help did not exit 0"
# HTML tables fit a 1400-px window: the body is at most 1240 px wide and cells may break long
# words (paths, labels), so no table can be wider than the body
grep -q "max-width:1240px" "$tmp/out/index.html" && grep -q "overflow-wrap:anywhere" "$tmp/out/index.html" ||
	golden_fail "index.html: the tables may not fit a 1400-px window"

# runs of two platforms on one relative scale: refused before anything is written
"$bin" run "$trace" --platform hikey960 --db "$db" --label other-platform --quiet || golden_fail "run 3 failed"
"$bin" report --db "$db" --out "$tmp/mixed" >"$tmp/mixed.txt" 2>&1
st=$?
[ $st = 3 ] || golden_fail "mixed platforms: exit $st, want 3"
grep -q "runs of different platforms ('juno-r0', 'hikey960') cannot be put on one relative scale" \
	"$tmp/mixed.txt" || golden_fail "mixed platforms: $(cat "$tmp/mixed.txt")"
[ ! -e "$tmp/mixed" ] || golden_fail "mixed platforms: '$tmp/mixed' was created"

exit $fail
