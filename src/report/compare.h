/*
 * compare.h - two sets of runs side by side: per-metric means, relative change and, with
 * several runs per side, Welch's t-test; printed the way kernel developers paste comparisons
 * into mailing lists (mmtests: one row per metric, base and new columns, "( 0.00%)" for the
 * base, "*  +6.84%*" where the difference is significant). And the thresholds of --fail-on.
 *
 * The metrics, one value per run, and the thresholds of --fail-on are metrics/metrics.h's.
 *
 * Statistics per metric and side: n, arithmetic mean, harmonic mean (only defined when every
 * value is > 0), sample standard deviation (n - 1). The relative change is
 * (new - base) / |base| x 100 of the arithmetic means. Welch's two-sided t-test runs only when
 * both sides have at least 2 runs; with one run per side there is no significance claim.
 */
#ifndef GOVSIM_REPORT_COMPARE_H
#define GOVSIM_REPORT_COMPARE_H

#include <stdio.h>

#include "core/error.h"
#include "core/types.h"
#include "core/result.h"
#include "metrics/metrics.h"

/* --- statistics ---------------------------------------------------------------------------- */

struct compare_stats {
	size_t n;
	double amean; /* gsl_stats_mean */
	double hmean; /* n / sum(1/x); NAN unless every x > 0 */
	double sd;    /* gsl_stats_sd (n - 1 denominator); NAN when n < 2 */
};

/* Statistics of x[0..n-1]. GS_EARG when n is 0; GS_EINTERNAL when GSL gives a non-finite
 * mean of finite data. */
int compare_stats_of(const double *x, size_t n, struct compare_stats *st, struct gs_error *err);

/* Harmonic mean n / sum(1/x_i); NAN when n is 0 or some x_i <= 0. */
double compare_hmean(const double *x, size_t n);

struct compare_welch {
	double t;  /* (mean_b - mean_a) / sqrt(var_a/na + var_b/nb) */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p;  /* two-sided: 2 x gsl_cdf_tdist_Q(|t|, df) */
};

/*
 * Welch's unequal-variance t-test of sample b against sample a. Both need at least 2 values
 * (GS_EARG otherwise). When both variances are 0 the samples are constants: p is 1 for equal
 * means and 0 otherwise (t = +-inf), the limit of the test. GS_EINTERNAL when GSL returns a
 * non-finite p.
 */
int compare_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct compare_welch *out, struct gs_error *err);

/* --- selecting runs ------------------------------------------------------------------------ */

/*
 * How a selector's policy=FILE and action=LINE are put in the form runs.policy holds (a run's
 * clamp policy as the replay normalised it, an action a line). Parsing a policy is uclamp/'s,
 * which report/ does not include: the caller hands these in (cli/'s cli_policy_norm). A NULL
 * norm, or a NULL function in it, matches those terms by the words of the label only.
 */
struct compare_policy_norm {
	/* FILE's policy normalised, malloc'd (the caller frees it); NULL when FILE is not a
	 * readable, valid policy */
	char *(*file)(const char *path);
	/* LINE as one normalised action into out (size bytes), "" when it holds none; GS_EARG
	 * with the reason in err when it is malformed */
	int (*line)(const char *line, char *out, size_t size, struct gs_error *err);
};

/*
 * Runs matching a selector, read from a results database into a malloc'd array (*runs, *n;
 * compare_free_runs() it). The selector is comma-separated KEY=VALUE terms, all of which must
 * hold:
 *   run=N          the run with id N
 *   label=TEXT     the label, exactly (TEXT may contain '=' and spaces, not commas)
 *   policy=FILE    runs whose label has the word "policy=FILE" (as sweep writes), or whose
 *                  clamp policy text equals FILE's, parsed and normalised; policy=none: runs
 *                  without a policy
 *   governor=NAME  and the other runs columns trace, trace_sha256, platform, timing,
 *                  util_source, power_model, kernel, governor_path, governor_sha256: equality
 *   db=FILE        read FILE instead of default_db; db=FILE alone selects every run of it
 *   action=LINE    runs whose label has the word action="LINE" (as sweep writes) or whose
 *                  clamp policy has LINE, normalised, as one of its actions
 *   KEY=VALUE      any other key: a tunable (runs.params has the word KEY=VALUE) or a word
 *                  of the label (what a sweep varies); a KEY no run read has is an unknown
 *                  selector key
 * GS_EARG for a malformed selector, an unknown key, a missing database, or a selection of no
 * run; GS_ESQL/GS_ESCHEMA from the store.
 */
int compare_select(const char *selector, const char *default_db,
		   const struct compare_policy_norm *norm, struct run_result **runs, size_t *n,
		   struct gs_error *err);
/* The ids of the runs of database `db` a selector selects, ascending, as a malloc'd array the
 * caller frees (*n of them): the same selector as compare_select(), less db= (GS_EARG), for
 * commands that read the runs themselves (report). */
int compare_select_ids(const char *selector, const char *db,
		       const struct compare_policy_norm *norm, s64 **ids, size_t *n,
		       struct gs_error *err);
void compare_free_runs(struct run_result *runs, size_t n);

/* --- the table ----------------------------------------------------------------------------- */

#define COMPARE_MAX_METRICS (24 + 2 * GS_MAX_CLUSTERS) /* 6, span, stretch, 5 of the kernel's
							   * overhead, 11 of work timing */

struct compare_metric {
	char name[48];
	char unit[64];
	struct compare_stats base, new;
	double change_pct;   /* of the arithmetic means; see metric_threshold_change() */
	/* >= 2 runs per side, every run of each side the same value: nothing to test the
	 * difference against (identical repeats of a deterministic replay are no sample) */
	bool no_spread;
	bool tested;         /* a t-test ran (>= 2 runs per side, not no_spread) */
	struct compare_welch welch;
	bool significant;    /* tested and p < 1 - confidence */
};

struct compare_table {
	double confidence;      /* e.g. 0.95 */
	size_t nr_base, nr_new; /* runs used: those of the traces both sides have */
	size_t nr_traces;       /* traces (by content hash) both sides have */
	size_t base_dropped, new_dropped; /* runs of a trace the other side lacks */
	int nr_metrics;
	struct compare_metric m[COMPARE_MAX_METRICS];
};

/*
 * Compare runs `base` with runs `new_runs`, matched trace by trace (runs.trace_sha256): only
 * runs of traces present on both sides count; the others are counted in *_dropped. Every run
 * must have the same platform and power model (GS_EINPUT otherwise); GS_EINPUT also when no
 * trace is on both sides. confidence is in (0, 1) (GS_EARG otherwise).
 */
int compare_runs(const struct run_result *base, size_t nb, const struct run_result *new_runs,
		 size_t nn, double confidence, struct compare_table *t, struct gs_error *err);

/* The metric called `name`, or NULL. */
const struct compare_metric *compare_find_metric(const struct compare_table *t,
						 const char *name);

/* The relative change to print: metric_relative_change(), or NAN where it has no finite value
 * (a base of 0 and a new value that is not: printed as "new", an empty CSV field, null). */
double compare_printed_change(double base, double new_value);

/* One trace's own comparison: the base and new runs of that trace only (the pooled table
 * mixes every trace in common; a regression on one trace can hide in it). */
struct compare_trace {
	char trace[256];       /* its path in the first base run of it */
	char sha256[65];
	struct compare_table t;
};

/*
 * compare_runs() per trace in common, in the order the base runs name them: a malloc'd array
 * (*out, *n; free() it). Same errors as compare_runs().
 */
int compare_per_trace(const struct run_result *base, size_t nb, const struct run_result *new_runs,
		      size_t nn, double confidence, struct compare_trace **out, size_t *n,
		      struct gs_error *err);

/* The per-trace rows in text: a row per trace with base, new and change of each metric named
 * in `metrics` (energy, avg_power and delay when nr_metrics is 0). */
void compare_print_traces(FILE *out, const struct compare_trace *tr, size_t n,
			  const char *const *metrics, int nr_metrics);

/* The whole comparison as one JSON object: selectors, counts, the pooled metrics, the
 * per-trace metrics and the thresholds (crossed by the pooled means or by which traces). */
void compare_print_json(FILE *out, const struct compare_table *t, const struct compare_trace *tr,
			size_t ntr, const char *base_name, const char *new_name,
			const struct metric_threshold *thr, int nr_thr);

enum compare_format { COMPARE_TEXT, COMPARE_MARKDOWN, COMPARE_CSV };

/* -1 when the name is none of text, markdown, csv. */
int compare_format_from_name(const char *name);

/* Several new sides against one base, mmtests style: one column per new side (t[i] compares
 * the base with new_names[i]; t[0]'s metrics name the rows, a metric another side lacks shows
 * "-"); each change is against the base column, '*' where that side's t-test says so. Text
 * only. */
void compare_print_columns(FILE *out, const struct compare_table *t, size_t n,
			   const char *base_name, const char *const *new_names);

/*
 * Write the table. base_name and new_name head the columns (the selectors, say).
 * text: the mmtests layout in at most ~90 columns (Amean rows; with several runs per side
 * also Hmean and Stddev rows, and `*` around the change where significant), then a line
 * saying what the test was. markdown: one GitHub table. csv: a header and one row per
 * statistic and metric with full precision, p-value and a 0/1 significant column.
 */
void compare_print(FILE *out, const struct compare_table *t, const char *base_name,
		   const char *new_name, enum compare_format fmt);

#endif
