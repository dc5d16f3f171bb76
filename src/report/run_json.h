/*
 * run_json.h - one run as one JSON object (`govsim run --json`). The keys are stable and listed
 * in README.md ("JSON output"); new figures are added as new keys (add a json_* line in
 * report_run_json() and a README line), never by changing the meaning of an existing one.
 */
#ifndef GOVSIM_REPORT_RUN_JSON_H
#define GOVSIM_REPORT_RUN_JSON_H

#include <stdio.h>

#include "report/json.h"
#include "report/summary.h"
#include "core/result.h"

/* Write r (and the baselines when b is not NULL and present) as one JSON object to out. */
void report_run_json(FILE *out, const struct run_result *r, const struct summary_baselines *b);

/* The members of r, into an object the caller has opened (for commands that embed a run). */
void report_run_json_members(struct json_out *j, const struct run_result *r);

/* r->notes ("; "-separated) as an array member "notes". */
void report_json_notes(struct json_out *j, const char *notes);

#endif
