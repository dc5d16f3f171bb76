/*
 * placement.h - what --placement eas did in a run: the text block of the summary and the
 * "placement" member of --json (both absent for traced placement, so traced runs print as
 * before). Per task: its emulated running time per cluster (share of its runtime) and its
 * migrations; for the run: migrations, misfit pulls and the overutilized time.
 */
#ifndef GOVSIM_REPORT_PLACEMENT_H
#define GOVSIM_REPORT_PLACEMENT_H

#include <stdio.h>

#include "core/result.h"
#include "report/json.h"

/* True when the run placed tasks itself (r->placement "eas"). */
bool report_placement_on(const struct run_result *r);
/* The summary block: the run's figures, then the 10 tasks with the most runtime. */
void report_placement_summary(FILE *out, const struct run_result *r);
/* The "placement" member (an object; nothing for traced placement). */
void report_placement_json(struct json_out *j, const struct run_result *r);

#endif
