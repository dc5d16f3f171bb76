/*
 * metrics.h - the figures a run is judged by, one value per run, and the thresholds on their
 * change: what `govsim compare` tabulates and tests (--fail-on) and what `govsim tune` minimises
 * and constrains (--minimize, --subject-to). Both read the one table here, and so do their
 * --help texts.
 *
 * A metric's value comes from a run_result only (core/result.h): nothing here reads a trace,
 * a platform or the store.
 */
#ifndef GOVSIM_METRICS_METRICS_H
#define GOVSIM_METRICS_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/result.h"

enum metric_kind {
	METRIC_ONE,         /* one value per run */
	METRIC_PER_CLUSTER, /* a value per cluster: NAME0, NAME1, ... */
	METRIC_PER_POLICY,  /* a value per policy, by its first CPU: NAME0, NAME4, ... */
};

#define METRIC_UNIT_POWER "energy/s" /* W for J, else the energy unit and "/s" */

struct metric_def {
	const char *name;   /* the metric's name, or the prefix of per-cluster/policy names */
	const char *unit;   /* NULL: the run's energy unit (runs.power_unit); METRIC_UNIT_POWER */
	enum metric_kind kind;
	bool work_only;     /* only runs in work timing have it */
	bool of_tasks;      /* also of some tasks: tune's NAME(comm=GLOB) / NAME(pid=N) */
	bool tasks_only;    /* only of some tasks (not a figure of the whole run) */
	const char *help;   /* what it is, for --help */
};

/*
 * Every metric, in the order compare prints its rows, ended by an entry with a NULL name:
 *   energy              total energy (runs.power_unit: J for the em model)
 *   energy_clusterN     energy of cluster N (its CPUs and its own cluster power)
 *   avg_power           energy / replayed span (W for em)
 *   avg_freq_policyN    time-weighted average frequency of the policy of first CPU N, MHz
 *   transitions         frequency transitions, all policies
 *   busy                busy time summed over CPUs, s
 *   delay, max_delay    total task delay against the trace and the worst slice's, s
 *   span, stretch       the replayed span, s, and its ratio to the trace's
 *   kernel_overhead     the kernel's own overhead (struct run_overhead), ms
 *   kernel_charged      of which charged to the replay (work timing), ms
 *   uclamp_aggregations uclamp_rq_inc/dec calls that aggregated (static key on)
 *   update_calls        cpufreq_update_util calls
 *   governor_evals      per-CPU governor evaluations
 *   activations, throughput, latency_|response_|lateness_ mean|p95|max   (work timing)
 *   runtime             of some tasks only: their emulated running time, s
 */
extern const struct metric_def metric_defs[];

/* The definition `name` is a metric of (energy_cluster1 -> energy_cluster), or NULL. */
const struct metric_def *metric_find(const char *name);

/* The metric's unit for runs of energy unit `power_unit` ("J": W for the power) into buf. */
void metric_unit(const struct metric_def *d, const char *power_unit, char *buf, size_t size);

/* The value of metric `name` for run r (the whole run, every task); NAN when the run has no
 * such metric (a cluster or policy it lacks, a metric of tasks only, an unknown name). */
double metric_value(const struct run_result *r, const char *name);

/* --- thresholds ---------------------------------------------------------------------------- */

enum metric_op { METRIC_GT, METRIC_GE, METRIC_LT, METRIC_LE };

struct metric_threshold {
	char metric[64];
	enum metric_op op;
	double value;  /* percent when relative, else in the metric's unit */
	bool relative; /* written with a trailing % */
	char text[128];
};

/*
 * Parse "METRIC OP VALUE[%]": OP is >, >=, < or <=; VALUE a decimal number with an optional
 * sign ("energy>+2%", "avg_freq_policy4<-10%", "transitions>+100"); spaces around the parts
 * are allowed. The metric name is not checked here (it depends on the platform). GS_EARG with
 * "'text': ..." on a malformed threshold.
 */
int metric_threshold_parse(const char *text, struct metric_threshold *t, struct gs_error *err);

/* (new - base) / |base| x 100; 0 when both are 0, +-inf when only base is. */
double metric_relative_change(double base, double new_value);

/*
 * The change from base to new_value that the threshold is about: percent
 * (new - base) / |base| x 100 when relative (+inf/-inf when base is 0 and new is not, 0 when
 * both are 0), new - base otherwise.
 */
double metric_threshold_change(const struct metric_threshold *t, double base, double new_value);

/* Whether that change crosses the threshold (change OP value). */
bool metric_threshold_crossed(const struct metric_threshold *t, double base, double new_value);

/* The operator at s (<=, >=, < or >) into *op: its length in characters, or 0 for none. */
size_t metric_op_parse(const char *s, enum metric_op *op);

/* "<=", "<", ">=", ">". */
const char *metric_op_text(enum metric_op op);

#endif
