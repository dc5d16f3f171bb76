/*
 * tune_cli.h - `govsim tune`'s state, shared by cmd_tune.c (options, running the points through
 * the sweep engine) and tune_print.c (the answer as text, JSON and a plot).
 */
#ifndef GOVSIM_CLI_TUNE_CLI_H
#define GOVSIM_CLI_TUNE_CLI_H

#include "cli/run_opts.h"
#include "tune/search.h"
#include "tune/spec.h"

#define TUNE_MAX_CONSTRAINTS 16
#define TUNE_MAX_METRICS     (TUNE_MAX_CONSTRAINTS + 1)

/* One replay: a point of the search (base -1) or a baseline, on one trace. */
struct tune_job {
	int trace;
	int base;
	long k[TUNE_MAX_VARY];
};

struct tune_cli {
	struct run_opts o;
	bool opts_parsed;
	struct tune_vary vary[TUNE_MAX_VARY];
	int nd;
	enum tune_goal goal;
	bool goal_set;
	struct tune_metric objective;  /* --minimize/--maximize */
	struct tune_constraint cons[TUNE_MAX_CONSTRAINTS];
	int nr_cons;
	struct tune_baseline bases[TUNE_MAX_CONSTRAINTS]; /* distinct, in order of appearance */
	const char *base_gov[TUNE_MAX_CONSTRAINTS];        /* resolved governor, or NULL */
	const struct kernel_profile *base_kernel[TUNE_MAX_CONSTRAINTS];
	struct policy base_policy[TUNE_MAX_CONSTRAINTS]; /* policy=FILE / action=LINE */
	int nr_bases;
	/* the metrics every job reports: the objective first (when there is one), then the
	 * constraints' in order (metric of constraint c: moff + c) */
	struct tune_metric metrics[TUNE_MAX_METRICS];
	int nr_metrics, moff;
	long parallel;
	bool json, quiet;
	const char *plot;
	/* the engine's current jobs and what they reported */
	struct tune_job *jobs;
	long nr_jobs;
	double *job_vals;        /* [job][metric] */
	bool *job_unmatched;     /* the varied action matched no task */
	/* baselines' values [base][trace][metric]; points' [point][trace][metric] in the
	 * search's evaluation order */
	double *base_vals;
	double *pt_vals;
	size_t nr_pt, alloc_pt;
	bool unmatched_warned;
	int fail_status;         /* a job's exit status that stopped the search */
	long runs;               /* replays run */
	struct tune_search search;
};

/* v(point p, trace t, metric m) */
static inline double tune_pt_val(const struct tune_cli *t, size_t p, int trace, int m)
{
	return t->pt_vals[((size_t)p * (size_t)t->o.nr_traces + (size_t)trace) *
			  (size_t)t->nr_metrics + (size_t)m];
}

static inline double tune_base_val(const struct tune_cli *t, int b, int trace, int m)
{
	return t->base_vals[((size_t)b * (size_t)t->o.nr_traces + (size_t)trace) *
			    (size_t)t->nr_metrics + (size_t)m];
}

/* Constraint c on trace `trace` at point p: holds, and *change (what meets the limit). */
bool tune_judge(const struct tune_cli *t, size_t p, int c, int trace, double *change);

/* "uclamp_min=512" (every unknown, space-separated) of point p. */
void tune_point_text(const struct tune_cli *t, const struct tune_point *p, char *buf,
		     size_t size);

/* The points of the search in value order (indices into search.pts); NULL when out of memory,
 * else the caller frees. */
size_t *tune_sorted_points(const struct tune_cli *t);

/* The trace where constraint c is worst at point p (most excess; else nearest its limit), and
 * the change there. */
int tune_worst_trace(const struct tune_cli *t, size_t p, int c, double *change);

/* Is the metric a time in seconds? */
bool tune_metric_is_time(const struct tune_metric *m);

/* --plot: objective and constraints against the (one) varied value, the feasible values
 * shaded; PNG or SVG by the file's name. Returns 0 or an exit status after printing. */
int tune_plot(const struct tune_cli *t, const char *path);

/* The answer on stdout (text or --json), and --plot; returns 0 or an exit status. */
int tune_print(struct tune_cli *t);

#endif
