/*
 * spec.h - what `govsim tune` is asked: the varied values (--vary), the metrics a run is judged
 * by, the constraints (--subject-to) and the baselines they compare with. Parsing and pure
 * evaluation only; running replays is the command's (src/cli/cmd_tune.c).
 *
 * A --vary is a clamp policy line or a tunable with one unknown, `?` or `?[LO:HI:STEP]`:
 *   setattr comm=RenderThread uclamp_min=?      0..1024 step 1 (also uclamp_max)
 *   sysctl sched_util_clamp_min ?               0..1024 step 1 (every sched_util_clamp_*)
 *   cgroup /top-app cpu.uclamp.max ?            0..100 step 0.01 (percent, the kernel's
 *                                               resolution: two decimals)
 *   rate_limit_us=?[0:20000:500]                a --set tunable; rate_limit_us defaults to
 *                                               0..50000 step 500, other keys need the range
 * The values are LO + k x STEP for k = 0 .. nr - 1 (HI included when it is on the step).
 *
 * A metric is a name of metrics/metrics.h's (energy, busy, span, delay, response_p95,
 * kernel_overhead, ...), optionally of some tasks: `response_p95(comm=RenderThread)` (a glob, as
 * policy lines match comms) or `(pid=N)`. Over several matching tasks: p95 and max are the worst
 * task's, mean the activation-weighted mean, activations, throughput, runtime and delay sums.
 *
 * A constraint: `METRIC OP VALUE[%|s|ms|us|ns] [vs SELECTOR]`, OP one of <= < >= >. Without
 * `vs` the VALUE is the metric's own (a time with a unit); with `vs SELECTOR` it is the change
 * from that baseline run of the same trace: percent with `%` ((run - base) / |base| x 100),
 * else run - base (compare --fail-on's rule). A SELECTOR is comma-separated terms naming how the
 * baseline differs from the tuned runs without the varied value: `governor=NAME`,
 * `policy=none` (no --policy/--action), `policy=FILE` and `action=LINE` (that clamp policy
 * instead of --policy/--action; LINE may be quoted), `kernel=NAME`, `KEY=VALUE` (a tunable), or
 * `base` (just without the varied value).
 */
#ifndef GOVSIM_TUNE_SPEC_H
#define GOVSIM_TUNE_SPEC_H

#include <stddef.h>

#include "core/error.h"
#include "core/result.h"
#include "core/types.h"
#include "metrics/metrics.h"

#define TUNE_MAX_VARY        2
#define TUNE_MAX_BASE_PARAMS 8

enum tune_vary_kind { TUNE_VARY_ACTION, TUNE_VARY_TUNABLE };

struct tune_vary {
	enum tune_vary_kind kind;
	char text[512];         /* as given */
	char prefix[512];       /* the text before the unknown */
	char suffix[512];       /* after it */
	char key[64];           /* the tunable, or the clamp the action sets (uclamp_min, ...) */
	double lo, hi, step;
	long nr;                /* number of values */
	int decimals;           /* to write a value */
};

/* Parse a --vary; GS_EARG with "'text': why" when it is malformed. */
int tune_vary_parse(const char *text, struct tune_vary *v, struct gs_error *err);
/* The k-th value, LO + k x STEP. */
double tune_vary_value(const struct tune_vary *v, long k);
/* The k-th value as written ("512", "20.50"). */
void tune_vary_format(const struct tune_vary *v, long k, char *buf, size_t size);
/* The policy line (TUNE_VARY_ACTION) or KEY=VALUE (TUNE_VARY_TUNABLE) with the k-th value. */
void tune_vary_instance(const struct tune_vary *v, long k, char *buf, size_t size);

enum tune_task_sel { TUNE_TASKS_ALL, TUNE_TASKS_COMM, TUNE_TASKS_PID };

struct tune_metric {
	char text[128];         /* as written, normalised: "response_p95(comm=RenderThread)" */
	char name[32];
	enum tune_task_sel sel;
	char comm[TASK_COMM_LEN * 4]; /* a glob */
	s32 pid;
};

/* Parse "NAME" or "NAME(comm=GLOB)" / "NAME(pid=N)"; GS_EARG for an unknown name (with the
 * nearest) or a malformed selector. */
int tune_metric_parse(const char *text, struct tune_metric *m, struct gs_error *err);
/* The metric of a run; NAN when no task matches or the run lacks it (traced timing). */
double tune_metric_value(const struct tune_metric *m, const struct run_result *r);

struct tune_baseline {
	char text[256];         /* the selector as given, or "base" */
	char governor[64];      /* "" unchanged */
	char kernel[32];        /* "" unchanged */
	bool no_policy;         /* policy=none */
	char policy_file[256];  /* policy=FILE: its actions instead of --policy/--action */
	char action[256];       /* action=LINE: this line instead (after policy=FILE's) */
	int nr_params;
	char keys[TUNE_MAX_BASE_PARAMS][64];
	char values[TUNE_MAX_BASE_PARAMS][64];
};

/* Parse a baseline selector; GS_EARG when malformed. */
int tune_baseline_parse(const char *text, struct tune_baseline *b, struct gs_error *err);

struct tune_constraint {
	char text[256];
	struct tune_metric metric;
	struct metric_threshold th; /* op, value and relative: compare's rule */
	bool has_base;
	struct tune_baseline base;
	int base_index;         /* the caller's index of its baseline run (distinct selectors) */
};

int tune_constraint_parse(const char *text, struct tune_constraint *c, struct gs_error *err);

/*
 * Whether the constraint holds for a run's value (and its baseline's, when it has one). *change
 * gets what is compared with the limit (the value itself, or its change from the baseline).
 * A NAN value or baseline does not hold.
 */
bool tune_constraint_holds(const struct tune_constraint *c, double base, double value,
			   double *change);

/*
 * How far a change is beyond the limit, in units of the limit (|limit|, or 1 when the limit is
 * 0): 0 when it holds, +inf for a NAN.
 */
double tune_constraint_excess(const struct tune_constraint *c, double change);

#endif
