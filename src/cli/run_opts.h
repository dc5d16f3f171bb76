/*
 * run_opts.h - the replay options `run`, `validate` and `sweep` share: parsing them from the
 * command line, replaying one trace with them, and storing a run (--db, --csv).
 */
#ifndef GOVSIM_CLI_RUN_OPTS_H
#define GOVSIM_CLI_RUN_OPTS_H

#include <stdio.h>

#include "gov/governor.h"
#include "power/platform.h"
#include "sim/replay.h"
#include "uclamp/policy.h"

#define RUN_OPTS_MAX_PARAMS 64
#define RUN_OPTS_MAX_TRACES 256

/* RUN_OPTS_SWEEP: like RUN, several traces allowed (the variant options are sweep's own). */
enum run_opts_kind { RUN_OPTS_RUN, RUN_OPTS_VALIDATE, RUN_OPTS_SWEEP };

struct run_opts {
	const char *traces[RUN_OPTS_MAX_TRACES];
	int nr_traces;
	const char *platform_name;
	struct platform plat;
	const char *governor;
	struct gov_param params[RUN_OPTS_MAX_PARAMS];
	int nr_params;
	struct policy policy;
	bool has_policy;
	enum sim_timing timing;
	enum sim_util_source util_source;
	bool util_source_set;
	enum power_model power_model;
	struct reader_opts ropts;
	bool seed_util, baselines, quiet;
	bool json; /* --json: one JSON object on stdout instead of the text */
	u64 warmup_ns;
	const char *db, *label, *csv_dir, *timeline_path, *task_timeline_path;
};

/* Parse argv (argv[0] = the command); returns 0, or the exit status after printing the
 * problem (2 usage, 3 bad platform/policy). */
int run_opts_parse(struct run_opts *o, int argc, char **argv, const char *usage,
		   enum run_opts_kind kind);
void run_opts_release(struct run_opts *o);

/* Replay one trace with the options (governor_override replaces --governor when not NULL);
 * returns 0 or the exit status after printing the error. Warns on stderr about malformed
 * lines the reader skipped. */
int run_opts_replay(struct run_opts *o, const char *trace, const char *governor_override,
		    struct run_result *r);

/* --db and --csv; returns 0 or the exit status after printing the error. */
int run_opts_store(const struct run_opts *o, const struct run_result *r);

/* "govsim: warning: ..." on stderr for each clamp policy action of r that matched no task or
 * was timed after the trace's end (the same words are in r->notes). */
void run_opts_warn_actions(const struct run_result *r);

#endif
