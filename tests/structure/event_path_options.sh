#!/bin/sh
# event_path_options.sh - the replay's optional outputs and util sources are chosen once, when
# the replay is made, not tested on the event path.
#
# Invariant: src/sim/sim.c, which holds the per-event loop, reads the timeline and sink outputs
# (--timeline, --task-timeline, --perfetto) and the util options (--util-source, --seed-util)
# only from the configuration its set-up is given (cfg->), never from the running replay's copy
# (s->cfg.opts.): the writers are an observer registered when asked for (timeline.c), the util
# steps a list chosen in sim_new(). Does not check: other files, or options under other names.
# Usage: event_path_options.sh SOURCE_DIR
src=${1:?usage: event_path_options.sh SOURCE_DIR}
found=$(grep -nE 's->cfg\.opts\.(timeline|task_timeline|sink|util_source|start_from_trace_util)\b' \
	"$src"/src/sim/sim.c)
if [ -n "$found" ]; then
	echo "event_path_options: src/sim/sim.c tests an output or util option on the event path"
	echo "(choose at set-up: an observer, or sim_new()'s util steps):"
	echo "$found"
	exit 1
fi
exit 0
