/* metrics.c - the metrics of a run and the thresholds on their change; see metrics.h. */
#include "metrics/metrics.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct metric_def metric_defs[] = {
	{"energy", NULL, METRIC_ONE, false, false, false, "energy of every CPU and cluster"},
	{"energy_cluster", NULL, METRIC_PER_CLUSTER, false, false, false, "energy of cluster N"},
	{"avg_power", METRIC_UNIT_POWER, METRIC_ONE, false, false, false, "energy / span"},
	{"avg_freq_policy", "MHz", METRIC_PER_POLICY, false, false, false,
	 "time-weighted average frequency of policy N"},
	{"transitions", "", METRIC_ONE, false, false, false, "frequency changes, all policies"},
	{"busy", "s", METRIC_ONE, false, false, false, "CPU time running workload"},
	{"delay", "s", METRIC_ONE, false, true, false, "slice lateness summed over all slices"},
	{"max_delay", "s", METRIC_ONE, false, true, false, "the latest single slice's lateness"},
	{"span", "s", METRIC_ONE, false, false, false, "the run's emulated time"},
	{"stretch", "", METRIC_ONE, false, false, false, "span / the trace's span"},
	{"kernel_overhead", "ms", METRIC_ONE, false, false, false,
	 "the emulated kernel's own CPU time"},
	{"kernel_charged", "ms", METRIC_ONE, true, false, false,
	 "of it, the part charged to the workload"},
	{"uclamp_aggregations", "", METRIC_ONE, false, false, false,
	 "uclamp_rq_inc/dec bucket updates"},
	{"update_calls", "", METRIC_ONE, false, false, false, "cpufreq_update_util() calls"},
	{"governor_evals", "", METRIC_ONE, false, false, false, "governor evaluations"},
	{"activations", "", METRIC_ONE, true, true, false,
	 "task activations (wakeup to the next sleep)"},
	{"throughput", "/s", METRIC_ONE, true, true, false,
	 "completed activations per second of span"},
	{"latency_mean", "s", METRIC_ONE, true, true, false, "wakeup to first run, mean"},
	{"latency_p95", "s", METRIC_ONE, true, true, false, "wakeup to first run, 95th percentile"},
	{"latency_max", "s", METRIC_ONE, true, true, false, "wakeup to first run, worst"},
	{"response_mean", "s", METRIC_ONE, true, true, false, "wakeup to the activation's end, mean"},
	{"response_p95", "s", METRIC_ONE, true, true, false, "wakeup to the activation's end, p95"},
	{"response_max", "s", METRIC_ONE, true, true, false,
	 "wakeup to the activation's end, worst"},
	{"lateness_mean", "s", METRIC_ONE, true, true, false,
	 "activation's end, emulated - traced, mean"},
	{"lateness_p95", "s", METRIC_ONE, true, true, false,
	 "activation's end, emulated - traced, p95"},
	{"lateness_max", "s", METRIC_ONE, true, true, false,
	 "activation's end, emulated - traced, worst"},
	{"runtime", "s", METRIC_ONE, false, true, true, "emulated running time (of tasks only)"},
	{NULL, NULL, METRIC_ONE, false, false, false, NULL},
};

/* "prefixN" -> N, or -1 */
static int suffix_index(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, len) != 0 || !isdigit((unsigned char)name[len]))
		return -1;
	v = strtol(name + len, &end, 10);
	if (*end || v < 0 || v > 1000000)
		return -1;
	return (int)v;
}

const struct metric_def *metric_find(const char *name)
{
	for (const struct metric_def *d = metric_defs; d->name; d++) {
		if (d->kind == METRIC_ONE ? strcmp(name, d->name) == 0
					  : suffix_index(name, d->name) >= 0)
			return d;
	}
	return NULL;
}

void metric_unit(const struct metric_def *d, const char *power_unit, char *buf, size_t size)
{
	if (!d->unit)
		snprintf(buf, size, "%s", power_unit);
	else if (strcmp(d->unit, METRIC_UNIT_POWER) == 0 && strcmp(power_unit, "J") == 0)
		snprintf(buf, size, "W");
	else if (strcmp(d->unit, METRIC_UNIT_POWER) == 0)
		snprintf(buf, size, "%s/s", power_unit);
	else
		snprintf(buf, size, "%s", d->unit);
}

/* The closed-loop figures of work timing (core/result.h struct run_activity) by name. */
static double activity_value(const struct run_activity *a, const char *name)
{
	static const struct {
		const char *prefix;
		size_t off;
	} dists[] = {
		{"latency_", offsetof(struct run_activity, latency)},
		{"response_", offsetof(struct run_activity, response)},
		{"lateness_", offsetof(struct run_activity, lateness)},
	};

	if (strcmp(name, "activations") == 0)
		return (double)a->activations;
	if (strcmp(name, "throughput") == 0)
		return a->throughput;
	for (size_t i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		const struct run_dist *d;
		const char *stat;
		if (strncmp(name, dists[i].prefix, strlen(dists[i].prefix)) != 0)
			continue;
		d = (const struct run_dist *)((const char *)a + dists[i].off);
		stat = name + strlen(dists[i].prefix);
		if (strcmp(stat, "mean") == 0)
			return d->mean_s;
		if (strcmp(stat, "p95") == 0)
			return d->p95_s;
		if (strcmp(stat, "max") == 0)
			return d->max_s;
	}
	return NAN;
}

/* The calls of the kernel operation `op` (core/result.h run_kernel_op_names). */
static double kernel_calls(const struct run_result *r, const char *op)
{
	for (int i = 0; i < RUN_KERNEL_OPS; i++)
		if (strcmp(run_kernel_op_names[i], op) == 0)
			return (double)r->ovh.calls[i];
	return NAN;
}

double metric_value(const struct run_result *r, const char *name)
{
	double sum = 0;
	int k;

	if (strcmp(name, "energy") == 0)
		return r->energy_total;
	if (strcmp(name, "avg_power") == 0)
		return r->span_s > 0 ? r->energy_total / r->span_s : NAN;
	if (strcmp(name, "transitions") == 0) {
		for (int c = 0; c < r->nr_clusters; c++)
			sum += (double)r->pol[c].transitions;
		return sum;
	}
	if (strcmp(name, "busy") == 0) {
		for (int c = 0; c < r->nr_clusters; c++)
			sum += r->pol[c].busy_s;
		return sum;
	}
	if (strcmp(name, "delay") == 0) {
		for (int i = 0; i < r->nr_tasks; i++)
			sum += r->tasks[i].delay_s;
		return sum;
	}
	if (strcmp(name, "max_delay") == 0) {
		for (int i = 0; i < r->nr_tasks; i++)
			if (r->tasks[i].max_delay_s > sum)
				sum = r->tasks[i].max_delay_s;
		return sum;
	}
	if (strcmp(name, "span") == 0)
		return r->span_s;
	if (strcmp(name, "stretch") == 0)
		return r->stretch;
	if (strcmp(name, "kernel_overhead") == 0)
		return r->ovh.total_s * 1e3;
	if (strcmp(name, "kernel_charged") == 0)
		return r->ovh.charged_s * 1e3;
	if (strcmp(name, "uclamp_aggregations") == 0)
		return (double)r->agg_ops;
	if (strcmp(name, "update_calls") == 0)
		return kernel_calls(r, "cpufreq_update_util");
	if (strcmp(name, "governor_evals") == 0)
		return kernel_calls(r, "governor_eval");
	if (strncmp(name, "latency_", 8) == 0 || strncmp(name, "response_", 9) == 0 ||
	    strncmp(name, "lateness_", 9) == 0 || strcmp(name, "activations") == 0 ||
	    strcmp(name, "throughput") == 0)
		return activity_value(&r->act_total, name);
	if ((k = suffix_index(name, "energy_cluster")) >= 0)
		return k < r->nr_clusters ? r->energy_cluster[k] : NAN;
	if ((k = suffix_index(name, "avg_freq_policy")) >= 0) {
		for (int c = 0; c < r->nr_clusters; c++)
			if (r->pol[c].policy == k)
				return r->pol[c].avg_freq_khz / 1000.0;
		return NAN;
	}
	return NAN;
}

/* --- thresholds ---------------------------------------------------------------------------- */

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

size_t metric_op_parse(const char *s, enum metric_op *op)
{
	if (s[0] == '<' && s[1] == '=')
		return *op = METRIC_LE, 2;
	if (s[0] == '>' && s[1] == '=')
		return *op = METRIC_GE, 2;
	if (s[0] == '<')
		return *op = METRIC_LT, 1;
	if (s[0] == '>')
		return *op = METRIC_GT, 1;
	return 0;
}

const char *metric_op_text(enum metric_op op)
{
	switch (op) {
	case METRIC_GT:
		return ">";
	case METRIC_GE:
		return ">=";
	case METRIC_LT:
		return "<";
	case METRIC_LE:
		return "<=";
	}
	return "?";
}

int metric_threshold_parse(const char *text, struct metric_threshold *t, struct gs_error *err)
{
	const char *s = skip_space(text), *start = s;
	char *end;
	size_t len;

	memset(t, 0, sizeof(*t));
	snprintf(t->text, sizeof(t->text), "%s", text);
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	len = (size_t)(s - start);
	if (len == 0 || len >= sizeof(t->metric))
		return gs_error_set(err, GS_EARG,
				    "'%s': a threshold is METRIC>VALUE[%%] or METRIC<VALUE[%%]",
				    text);
	memcpy(t->metric, start, len);
	s = skip_space(s);
	if (!(len = metric_op_parse(s, &t->op)))
		return gs_error_set(err, GS_EARG, "'%s': expected >, >=, < or <= after '%s'", text,
				    t->metric);
	s = skip_space(s + len);
	errno = 0;
	t->value = strtod(s, &end);
	if (end == s || errno || !isfinite(t->value) || isalpha((unsigned char)*s))
		return gs_error_set(err, GS_EARG, "'%s': expected a number after the operator",
				    text);
	s = skip_space(end);
	if (*s == '%') {
		t->relative = true;
		s = skip_space(s + 1);
	}
	if (*s)
		return gs_error_set(err, GS_EARG, "'%s': unexpected '%s' at the end", text, s);
	return 0;
}

double metric_relative_change(double base, double new_value)
{
	if (base == 0)
		return new_value == 0 ? 0 : (new_value > 0 ? INFINITY : -INFINITY);
	return (new_value - base) / fabs(base) * 100.0;
}

double metric_threshold_change(const struct metric_threshold *t, double base, double new_value)
{
	return t->relative ? metric_relative_change(base, new_value) : new_value - base;
}

bool metric_threshold_crossed(const struct metric_threshold *t, double base, double new_value)
{
	double c = metric_threshold_change(t, base, new_value);

	switch (t->op) {
	case METRIC_GT:
		return c > t->value;
	case METRIC_GE:
		return c >= t->value;
	case METRIC_LT:
		return c < t->value;
	case METRIC_LE:
		return c <= t->value;
	}
	return false;
}
