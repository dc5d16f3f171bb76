/*
 * run_opts.h - the replay options `run`, `validate` and `sweep` share: parsing them from the
 * command line, replaying one trace with them, and storing a run (--db, --csv).
 */
#ifndef GOVSIM_CLI_RUN_OPTS_H
#define GOVSIM_CLI_RUN_OPTS_H

#include <stdio.h>

#include "gov/governor.h"
#include "kernel/profile.h"
#include "power/platform.h"
#include "sim/options.h"
#include "trace/facts.h"
#include "sim/replay.h"
#include "trace/spool.h"
#include "uclamp/policy.h"

#define RUN_OPTS_MAX_PARAMS 64
/* The facts a recording can set as --set defaults (apply_facts(): one per key it knows) */
#define RUN_OPTS_MAX_FACTS 16
#define RUN_OPTS_MAX_TRACES 256

/* RUN_OPTS_SWEEP: like RUN, several traces allowed (the variant options are sweep's own). */
enum run_opts_kind { RUN_OPTS_RUN, RUN_OPTS_VALIDATE, RUN_OPTS_SWEEP };

struct run_opts {
	/* The replay's settings, filled here once and passed down as they are (sim/options.h
	 * says how to add one); sim.plat, sim.params and sim.policy point into this struct. */
	struct sim_opts sim;
	const char *traces[RUN_OPTS_MAX_TRACES];
	int nr_traces;
	const char *platform_name;
	struct platform plat;
	struct gov_param params[RUN_OPTS_MAX_PARAMS]; /* --set, sim.nr_params of them */
	struct policy policy;                         /* --policy/--action; sim.policy: &policy */
	bool util_source_set;
	bool baselines, quiet;
	bool json; /* --json: one JSON object on stdout instead of the text */
	const char *db, *csv_dir, *timeline_path, *task_timeline_path;
	const char *perfetto_path; /* --perfetto OUT.pftrace (output/perfetto_write.h) */
	/* --kernel NAME[,NAME...] | all: the profiles asked for (validate and sweep take several;
	 * run one, which is sim.kernel). nr_kernels 0: the trace's own kernel
	 * (replay_trace_kernel). */
	const struct kernel_profile *kernels[16];
	int nr_kernels;
	/* --placement MODE[,MODE]: sweep takes both (a variable); run and validate one, which is
	 * sim.placement */
	enum sim_placement placements[2];
	int nr_placements;
	/* traces[i] read once into a temporary copy when it is a pipe, a FIFO or "-" */
	struct trace_spool spools[RUN_OPTS_MAX_TRACES];
	int nr_spools; /* spools[0 .. nr_spools) to release */
	/* traces[i] read once into memory for the many replays of a sweep, a tune or validate
	 * (run_opts_cache()); NULL: replays read the file */
	struct replay_cache *caches[RUN_OPTS_MAX_TRACES];
	unsigned long long cached_bytes; /* what the caches hold together */
	/* The recording's facts beside the only trace (trace/facts.h: a lab recording), and
	 * the values of the --set defaults taken from them (params point here). */
	struct trace_facts facts;
	char facts_values[RUN_OPTS_MAX_FACTS][96];
};

/* The file to read for traces[i] (its spooled copy, or the trace itself). */
const char *run_opts_trace_file(const struct run_opts *o, const char *trace);

/* The facts file beside the only trace (run_facts.c): its platform unless *platform_given
 * (then set), its values as --set defaults, its clamp policy. 0, or the exit status of an
 * error already reported. */
int run_opts_apply_facts(struct run_opts *o, bool *platform_given, struct gs_error *err);

/*
 * Read traces[i] once into memory (replay_cache_load(); with its SHA-256 when `hash`) so that
 * every later run_opts_replay() of it, and every worker forked after this, replays from there.
 * The caches of a command hold at most trace_cache_max_bytes() together (GOVSIM_CACHE_MAX_MB):
 * a trace past what is left is read from its file by every replay, with a note on stderr
 * unless --quiet. A trace that cannot be read is left to the replays, which report it. Never
 * fails.
 */
void run_opts_cache(struct run_opts *o, int i, bool hash);
/* Free traces[i]'s cache, if any. */
void run_opts_uncache(struct run_opts *o, int i);
/* The cache of `trace`, or NULL. */
const struct replay_cache *run_opts_trace_cache(const struct run_opts *o, const char *trace);

/* Parse argv (argv[0] = the command); returns 0, or the exit status after printing the
 * problem (2 usage, 3 bad platform/policy). */
int run_opts_parse(struct run_opts *o, int argc, char **argv, const char *usage,
		   enum run_opts_kind kind);
void run_opts_release(struct run_opts *o);

/* --governor ARG (plugin false) or --governor-plugin ARG (true): a built-in name, or a plugin
 * loaded now (governor_lookup / governor_load_plugin). *name is what replays take: the name, or
 * the plugin's resolved path. Returns 0, 2 for an unknown name, 3 for a plugin that cannot be
 * used (not found, not loadable, no symbol, ABI mismatch), after printing the problem. */
int run_opts_governor(const char *arg, bool plugin, const char *usage, const char **name);

/* Replay one trace with o->sim (governor_override, when not NULL, replaces --governor and
 * its tunables, and writes no timeline: the baselines); returns 0 or the exit status after
 * printing the error. Warns on stderr about malformed lines the reader skipped. */
int run_opts_replay(struct run_opts *o, const char *trace, const char *governor_override,
		    struct run_result *r);

/* --db and --csv; returns 0 or the exit status after printing the error. */
int run_opts_store(const struct run_opts *o, const struct run_result *r);

/* "govsim: warning: ..." on stderr for each clamp policy action of r that matched no task or
 * was timed after the trace's end (the same words are in r->notes). */
void run_opts_warn_actions(const struct run_result *r);

#endif
