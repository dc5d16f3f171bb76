#!/bin/bash
# timeline_traced.sh - the traced frequency of the stored timeline (results database, --csv
# timeline.csv; `report` draws its plot from these rows) against the trace text.
#
# Checks: for each policy, the step function of `timeline.traced_khz` (its rows in seq order,
# rows before the first known traced frequency left out, consecutive equal values merged) is
# exactly the list of the kernel's `cpu_frequency` changes of the policy's first CPU, each at its
# time since the trace's first event (within 1.5 us: the text has us, trace.dat ns), extracted
# by a parser written here (python, over the ftrace / trace-cmd report text), in work and in
# traced timing; on surfaceflinger (hikey960, policies 0 and 4) and on the Juno trace.dat
# (juno-r0, policies 0 and 1, against its trace-cmd report text). The database and the CSV hold
# the same rows. As a consistency check (govsim's own figures): the emulated frequency of the
# timeline changes as many times as `policy_stats.transitions` says.
# Does not check: the util and capacity columns, the look of the plot.
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init timeline_traced

# steps_as_traced NAME TRACE TEXT PLATFORM POLICIES TIMING
steps_as_traced() {
	local name=$1 trace=$2 text=$3 plat=$4 pols=$5 timing=$6 d="$tmp/$1"
	mkdir -p "$d"
	if ! "$bin" run "$trace" --platform "$plat" --timing "$timing" --db "$d/r.db" \
		--csv "$d/csv" --quiet; then
		golden_fail "$name: run failed"
		return
	fi
	python3 - "$name" "$text" "$d/r.db" "$d/csv/timeline.csv" "$pols" <<'PY' || golden_fail "$name: the timeline against the trace"
import csv, re, sqlite3, sys

name, text, db, csv_path, pols = sys.argv[1:]
# an event line of ftrace or trace-cmd report text: ... [CPU] [flags] SECONDS: EVENT: ARGS
line_re = re.compile(r'\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+([\w]+):\s*(.*)$')
t0 = None
changes = {}  # cpu -> [(t, khz)] of cpu_frequency events
with open(text, errors='replace') as f:
    for line in f:
        if line.startswith('#'):
            continue
        m = line_re.search(line)
        if not m:
            continue
        t = float(m.group(2))
        if t0 is None:
            t0 = t
        if m.group(3) != 'cpu_frequency':
            continue  # markers (print: ... cpu_frequency_devlib) are not kernel decisions
        args = dict(kv.split('=', 1) for kv in m.group(4).split())
        changes.setdefault(int(args['cpu_id']), []).append((t, int(args['state'])))

def steps(points):
    out = []
    for t, khz in points:
        if khz and (not out or out[-1][1] != khz):
            out.append((t, khz))
    return out

con = sqlite3.connect(db)
rows = con.execute('SELECT seq, time_s, policy, freq_khz, traced_khz, util, capacity '
                   'FROM timeline ORDER BY seq').fetchall()
with open(csv_path) as f:
    crow = [(int(r['seq']), float(r['time_s']), int(r['policy']), int(r['freq_khz']),
             int(r['traced_khz']), int(r['util']), int(r['capacity']))
            for r in csv.DictReader(f)]
bad = 0
if [(r[0], round(r[1], 6)) + r[2:] for r in rows] != \
   [(r[0], round(r[1], 6)) + r[2:] for r in crow]:
    print(f'{name}: database and timeline.csv differ', file=sys.stderr)
    bad = 1
for pol in map(int, pols.split(',')):
    want = [(t - t0, khz) for t, khz in steps(changes.get(pol, []))]
    mine = [r for r in rows if r[2] == pol]
    got = steps([(r[1], r[4]) for r in mine])
    ok = len(got) == len(want) and all(
        g[1] == w[1] and abs(g[0] - w[0]) <= 1.5e-6 for g, w in zip(got, want))
    if not ok or not want:
        bad = 1
        print(f'{name}: policy{pol}: traced frequency steps differ from the '
              f'trace ({len(got)} vs {len(want)} changes)', file=sys.stderr)
        for i in range(max(len(got), len(want))):
            g = '%.6f %d' % got[i] if i < len(got) else '-'
            w = '%.6f %d' % want[i] if i < len(want) else '-'
            print(f'  govsim {g:>20}   trace {w:>20}', file=sys.stderr)
    emu = 0
    for a, b in zip(mine, mine[1:]):
        emu += a[3] != b[3]
    tr = con.execute('SELECT transitions FROM policy_stats WHERE policy = ?',
                     (pol,)).fetchone()[0]
    if emu != tr:
        bad = 1
        print(f'{name}: policy{pol}: the emulated frequency changes {emu} '
              f'times in the timeline, policy_stats says {tr} transitions', file=sys.stderr)
sys.exit(bad)
PY
}

sf=traces/android-8cpu/surfaceflinger.txt
juno=traces/juno-r0/sched_load
for timing in work traced; do
	steps_as_traced "sf-$timing" $sf $sf hikey960 0,4 $timing
	steps_as_traced "juno-$timing" $juno/trace.dat $juno/trace.report.txt juno-r0 0,1 $timing
done
exit $fail
