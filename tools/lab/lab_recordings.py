"""lab_recordings - the recordings a tools/lab script is given on its command line: each a
TRACE.txt.gz that tools/lab/record wrote, with its TRACE.facts beside it (docs/lab.md)."""
import os
import sys


def check(tool, traces):
    """traces, each checked first: a name that is no TRACE.txt.gz, a missing file or a missing
    facts file ends the script with "TOOL: PATH: why" on stderr and exit status 2, before any
    work (a shell glob such as fork-exit* also matches the .cmd, .log and .facts beside it)."""
    for t in traces:
        if not t.endswith(".txt.gz"):
            why = "not a lab recording (a TRACE.txt.gz, with its TRACE.facts beside it)"
        elif not os.path.isfile(t):
            why = "no such file"
        elif not os.path.isfile(t[: -len(".txt.gz")] + ".facts"):
            why = f"no facts file beside it ({os.path.basename(t[: -len('.txt.gz')])}.facts)"
        else:
            continue
        print(f"{tool}: {t}: {why}", file=sys.stderr)
        sys.exit(2)
    return traces
