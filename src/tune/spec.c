/* spec.c - parsing and evaluating tune's --vary, metrics, --subject-to (see spec.h). */
#include "tune/spec.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* --- --vary -------------------------------------------------------------------------------- */

/* The default range of a clamp or tunable: what the kernel accepts, at its resolution. */
struct vary_default {
	const char *key;
	double lo, hi, step;
};

static const struct vary_default vary_defaults[] = {
	{"uclamp_min", 0, 1024, 1},
	{"uclamp_max", 0, 1024, 1},
	{"sched_util_clamp_min", 0, 1024, 1},
	{"sched_util_clamp_max", 0, 1024, 1},
	{"sched_util_clamp_min_rt_default", 0, 1024, 1},
	{"cpu.uclamp.min", 0, 100, 0.01},
	{"cpu.uclamp.max", 0, 100, 0.01},
	{"rate_limit_us", 0, 50000, 500},
};

/* Decimals needed to write LO + k x STEP exactly (at most 6). */
static int decimals_of(double x)
{
	for (int d = 0; d < 6; d++) {
		double scaled = x * pow(10, d);
		if (fabs(scaled - round(scaled)) < 1e-9 * fmax(1, fabs(scaled)))
			return d;
	}
	return 6;
}

static int parse_range(const char *s, const char *text, struct tune_vary *v, const char **end,
		       struct gs_error *err)
{
	double x[3];
	char *e;

	/* s is after "?[" */
	for (int i = 0; i < 3; i++) {
		errno = 0;
		x[i] = strtod(s, &e);
		if (e == s || errno || !isfinite(x[i]) || *e != (i < 2 ? ':' : ']'))
			return gs_error_set(err, GS_EARG,
					    "'%s': the range is ?[LO:HI:STEP], three numbers", text);
		s = e + 1;
	}
	if (x[2] <= 0 || x[1] < x[0])
		return gs_error_set(err, GS_EARG, "'%s': the range needs LO <= HI and STEP > 0",
				    text);
	v->lo = x[0];
	v->hi = x[1];
	v->step = x[2];
	*end = s;
	return 0;
}

/* The word before the unknown: a tunable's KEY in KEY=?, a clamp's name otherwise. */
static void vary_key(struct tune_vary *v)
{
	size_t n = strlen(v->prefix);
	size_t end = n, start;

	while (end && (v->prefix[end - 1] == '=' || isspace((unsigned char)v->prefix[end - 1])))
		end--;
	start = end;
	while (start && !isspace((unsigned char)v->prefix[start - 1]) &&
	       v->prefix[start - 1] != '=')
		start--;
	snprintf(v->key, sizeof(v->key), "%.*s", (int)(end - start), v->prefix + start);
}

int tune_vary_parse(const char *text, struct tune_vary *v, struct gs_error *err)
{
	const char *q = strchr(text, '?'), *after;
	bool ranged = false;

	memset(v, 0, sizeof(*v));
	snprintf(v->text, sizeof(v->text), "%s", text);
	if (strlen(text) >= sizeof(v->text))
		return gs_error_set(err, GS_EARG, "'%.60s...': too long", text);
	if (!q)
		return gs_error_set(err, GS_EARG,
				    "'%s': no unknown: write ? (or ?[LO:HI:STEP]) for the value to "
				    "find",
				    text);
	snprintf(v->prefix, sizeof(v->prefix), "%.*s", (int)(q - text), text);
	after = q + 1;
	if (*after == '[') {
		if (parse_range(after + 1, text, v, &after, err))
			return err->code;
		ranged = true;
	}
	if (strchr(after, '?'))
		return gs_error_set(err, GS_EARG, "'%s': one unknown per --vary (give two --vary "
						  "for two)", text);
	snprintf(v->suffix, sizeof(v->suffix), "%s", after);
	vary_key(v);
	/* KEY=? alone is a tunable; anything with a space is a clamp policy line */
	v->kind = strchr(text, ' ') ? TUNE_VARY_ACTION : TUNE_VARY_TUNABLE;
	if (!v->key[0] || (v->kind == TUNE_VARY_TUNABLE &&
			   (v->prefix[strlen(v->prefix) - 1] != '=' || v->suffix[0])))
		return gs_error_set(err, GS_EARG,
				    "'%s': expected a policy line or KEY=? with ? as a value", text);
	if (!ranged) {
		size_t i;
		for (i = 0; i < GS_ARRAY_SIZE(vary_defaults); i++)
			if (strcmp(vary_defaults[i].key, v->key) == 0)
				break;
		if (i == GS_ARRAY_SIZE(vary_defaults))
			return gs_error_set(err, GS_EARG,
					    "'%s': no default range for '%s': give ?[LO:HI:STEP]",
					    text, v->key);
		v->lo = vary_defaults[i].lo;
		v->hi = vary_defaults[i].hi;
		v->step = vary_defaults[i].step;
	}
	/* the last value is HI when HI is on the step (within rounding), else the one below */
	v->nr = (long)floor((v->hi - v->lo) / v->step + 1e-9) + 1;
	if (v->nr > 10000000)
		return gs_error_set(err, GS_EARG, "'%s': more than 10000000 values", text);
	v->decimals = decimals_of(v->step);
	if (decimals_of(v->lo) > v->decimals)
		v->decimals = decimals_of(v->lo);
	return 0;
}

double tune_vary_value(const struct tune_vary *v, long k)
{
	double x = v->lo + (double)k * v->step;
	double scale = pow(10, v->decimals);

	return round(x * scale) / scale;
}

void tune_vary_format(const struct tune_vary *v, long k, char *buf, size_t size)
{
	snprintf(buf, size, "%.*f", v->decimals, tune_vary_value(v, k));
}

void tune_vary_instance(const struct tune_vary *v, long k, char *buf, size_t size)
{
	char value[64];

	tune_vary_format(v, k, value, sizeof(value));
	snprintf(buf, size, "%s%s%s", v->prefix, value, v->suffix);
}

/* --- metrics ------------------------------------------------------------------------------- */

/* A metric of the whole run tune knows: every one of metrics.h but those of tasks only. */
static bool known_metric(const char *name)
{
	const struct metric_def *d = metric_find(name);

	return d && !d->tasks_only;
}

/* A metric that may be of some tasks: NAME(comm=GLOB), NAME(pid=N). */
static bool task_metric(const char *name)
{
	const struct metric_def *d = metric_find(name);

	return d && d->of_tasks;
}

/* The nearest metric name to a mistyped one, or NULL. */
static const char *nearest_metric(const char *name)
{
	const char *names[64];
	int n = 0;

	for (const struct metric_def *d = metric_defs; d->name && n < 63; d++)
		if (d->kind == METRIC_ONE)
			names[n++] = d->name;
	names[n] = NULL;
	return gs_suggest(name, names);
}

static int parse_task_sel(const char *sel, const char *text, struct tune_metric *m,
			  struct gs_error *err)
{
	char *end;
	long pid;

	if (strncmp(sel, "comm=", 5) == 0 && sel[5]) {
		if (strlen(sel + 5) >= sizeof(m->comm))
			return gs_error_set(err, GS_EARG, "'%s': comm too long", text);
		m->sel = TUNE_TASKS_COMM;
		snprintf(m->comm, sizeof(m->comm), "%s", sel + 5);
		return 0;
	}
	if (strncmp(sel, "pid=", 4) == 0) {
		errno = 0;
		pid = strtol(sel + 4, &end, 10);
		if (!errno && end != sel + 4 && !*end && pid >= 0 && pid <= INT32_MAX) {
			m->sel = TUNE_TASKS_PID;
			m->pid = (s32)pid;
			return 0;
		}
	}
	return gs_error_set(err, GS_EARG, "'%s': tasks are (comm=GLOB) or (pid=N)", text);
}

int tune_metric_parse(const char *text, struct tune_metric *m, struct gs_error *err)
{
	const char *s = skip_space(text), *open;
	size_t len;
	char sel[128];

	memset(m, 0, sizeof(*m));
	len = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (len == 0 || len >= sizeof(m->name))
		return gs_error_set(err, GS_EARG, "'%s': expected a metric name", text);
	memcpy(m->name, s, len);
	open = skip_space(s + len);
	if (*open == '(') {
		const char *close = strchr(open, ')');
		if (!close || *skip_space(close + 1) || (size_t)(close - open - 1) >= sizeof(sel))
			return gs_error_set(err, GS_EARG, "'%s': expected NAME(comm=GLOB)", text);
		snprintf(sel, sizeof(sel), "%.*s", (int)(close - open - 1), open + 1);
		if (parse_task_sel(sel, text, m, err))
			return err->code;
		if (!task_metric(m->name))
			return gs_error_set(err, GS_EARG,
					    "'%s': '%s' is not a metric of tasks (those are "
					    "latency_*, response_*, lateness_*, activations, "
					    "throughput, runtime, delay, max_delay)",
					    text, m->name);
	} else if (*open) {
		return gs_error_set(err, GS_EARG, "'%s': unexpected '%s' after the metric", text,
				    open);
	} else if (!known_metric(m->name)) {
		const char *near = nearest_metric(m->name);
		return gs_error_set(err, GS_EARG, "'%s': unknown metric '%s'%s%s%s", text, m->name,
				    near ? " (did you mean '" : "", near ? near : "",
				    near ? "'?)" : "");
	}
	if (m->sel == TUNE_TASKS_COMM)
		snprintf(m->text, sizeof(m->text), "%s(comm=%s)", m->name, m->comm);
	else if (m->sel == TUNE_TASKS_PID)
		snprintf(m->text, sizeof(m->text), "%s(pid=%d)", m->name, m->pid);
	else
		snprintf(m->text, sizeof(m->text), "%s", m->name);
	return 0;
}

static bool task_selected(const struct tune_metric *m, const struct run_task_result *t)
{
	if (m->sel == TUNE_TASKS_PID)
		return t->pid == m->pid;
	return fnmatch(m->comm, t->comm, 0) == 0;
}

static const struct run_dist *task_dist(const struct run_activity *a, const char *name)
{
	if (strncmp(name, "latency_", 8) == 0)
		return &a->latency;
	if (strncmp(name, "response_", 9) == 0)
		return &a->response;
	return &a->lateness;
}

/* One task's contribution: sums, maxima and activation-weighted means (see spec.h). */
static double task_metric_value(const struct tune_metric *m, const struct run_result *r)
{
	const char *stat = strrchr(m->name, '_');
	double acc = 0, weight = 0;
	bool any = false, is_max = false, is_mean = false;

	if (strcmp(m->name, "max_delay") == 0 || (stat && (strcmp(stat, "_p95") == 0 ||
							   strcmp(stat, "_max") == 0)))
		is_max = true, acc = -INFINITY;
	else if (stat && strcmp(stat, "_mean") == 0)
		is_mean = true;
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];
		double x;
		if (!task_selected(m, t))
			continue;
		if (strcmp(m->name, "runtime") == 0)
			x = t->runtime_s;
		else if (strcmp(m->name, "delay") == 0)
			x = t->delay_s;
		else if (strcmp(m->name, "max_delay") == 0)
			x = t->max_delay_s;
		else if (strcmp(m->name, "activations") == 0)
			x = (double)t->act.activations;
		else if (strcmp(m->name, "throughput") == 0)
			x = t->act.throughput;
		else if (t->act.activations == 0)
			continue; /* no activation: no latency/response/lateness */
		else if (strcmp(stat, "_p95") == 0)
			x = task_dist(&t->act, m->name)->p95_s;
		else if (strcmp(stat, "_max") == 0)
			x = task_dist(&t->act, m->name)->max_s;
		else
			x = task_dist(&t->act, m->name)->mean_s;
		any = true;
		if (is_max)
			acc = fmax(acc, x);
		else if (is_mean)
			acc += x * (double)t->act.activations,
				weight += (double)t->act.activations;
		else
			acc += x;
	}
	if (!any)
		return NAN;
	return is_mean ? acc / weight : acc;
}

double tune_metric_value(const struct tune_metric *m, const struct run_result *r)
{
	const struct metric_def *d = metric_find(m->name);

	if (m->sel != TUNE_TASKS_ALL)
		return task_metric_value(m, r);
	if (d && d->work_only && strcmp(r->timing, "work") != 0)
		return NAN;
	return metric_value(r, m->name);
}

/* --- baselines ----------------------------------------------------------------------------- */

int tune_baseline_parse(const char *text, struct tune_baseline *b, struct gs_error *err)
{
	char buf[256];
	char *save = NULL;

	memset(b, 0, sizeof(*b));
	snprintf(b->text, sizeof(b->text), "%s", text);
	if (strlen(text) >= sizeof(buf))
		return gs_error_set(err, GS_EARG, "'%.60s...': baseline too long", text);
	snprintf(buf, sizeof(buf), "%s", text);
	if (strcmp(buf, "base") == 0)
		return 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq;
		const char *val;

		t = (char *)skip_space(t);
		eq = strchr(t, '=');
		if (!eq || eq == t || !eq[1] || memchr(t, ' ', (size_t)(eq - t)))
			return gs_error_set(err, GS_EARG,
					    "'%s': a baseline is KEY=VALUE[,KEY=VALUE] (governor=, "
					    "policy=none|FILE, action=LINE, kernel=, a tunable) or "
					    "'base'",
					    text);
		*eq = '\0';
		val = eq + 1;
		if (strcmp(t, "action") == 0 || strcmp(t, "policy") == 0) {
			char *dst = t[0] == 'a' ? b->action : b->policy_file;
			size_t len = strlen(val);
			if (len >= sizeof(b->action))
				return gs_error_set(err, GS_EARG, "'%s': '%s' too long", text, t);
			/* action='LINE' as compare writes it: the quotes are not the line's */
			if (len >= 2 && (val[0] == '\'' || val[0] == '"') && val[len - 1] == val[0])
				snprintf(dst, sizeof(b->action), "%.*s", (int)len - 2, val + 1);
			else
				snprintf(dst, sizeof(b->action), "%s", val);
			if (t[0] == 'p' && strcmp(dst, "none") == 0) {
				b->no_policy = true;
				dst[0] = '\0';
			}
			continue;
		}
		if (strlen(val) >= 64 || strlen(t) >= 64 || strchr(val, ' ') ||
		    (strcmp(t, "kernel") == 0 && strlen(val) >= sizeof(b->kernel)))
			return gs_error_set(err, GS_EARG, "'%s': '%s=%s': too long or spaces", text,
					    t, val);
		if (strcmp(t, "governor") == 0) {
			snprintf(b->governor, sizeof(b->governor), "%s", val);
		} else if (strcmp(t, "kernel") == 0) {
			snprintf(b->kernel, sizeof(b->kernel), "%s", val);
		} else {
			if (b->nr_params == TUNE_MAX_BASE_PARAMS)
				return gs_error_set(err, GS_EARG, "'%s': too many tunables", text);
			snprintf(b->keys[b->nr_params], sizeof(b->keys[0]), "%s", t);
			snprintf(b->values[b->nr_params], sizeof(b->values[0]), "%s", val);
			b->nr_params++;
		}
	}
	if (b->no_policy && b->action[0])
		return gs_error_set(err, GS_EARG, "'%s': policy=none and action=", text);
	return 0;
}

/* --- constraints --------------------------------------------------------------------------- */

/* VALUE[%|s|ms|us|ns] up to the end or " vs"; *end after it. */
static int parse_limit(const char *s, const char *text, struct tune_constraint *c,
		       const char **end, struct gs_error *err)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"%", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"s", 1}};
	char *e;

	errno = 0;
	c->th.value = strtod(s, &e);
	if (e == s || errno || !isfinite(c->th.value))
		return gs_error_set(err, GS_EARG, "'%s': expected a number after '%s'", text,
				    metric_op_text(c->th.op));
	for (size_t i = 0; i < GS_ARRAY_SIZE(units); i++) {
		size_t len = strlen(units[i].unit);
		if (strncmp(e, units[i].unit, len) == 0 &&
		    (!e[len] || isspace((unsigned char)e[len]))) {
			c->th.value *= units[i].scale;
			c->th.relative = i == 0;
			e += len;
			break;
		}
	}
	*end = e;
	return 0;
}

int tune_constraint_parse(const char *text, struct tune_constraint *c, struct gs_error *err)
{
	char metric[160];
	const char *s = text, *op_at = NULL, *rest = "";
	size_t oplen = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->text, sizeof(c->text), "%s", text);
	for (; *s; s++)
		if ((oplen = metric_op_parse(s, &c->th.op))) {
			op_at = s;
			break;
		}
	if (!op_at || (size_t)(op_at - text) >= sizeof(metric))
		return gs_error_set(err, GS_EARG,
				    "'%s': a constraint is METRIC OP VALUE[%%] [vs BASELINE], OP "
				    "one of <= < >= >",
				    text);
	snprintf(metric, sizeof(metric), "%.*s", (int)(op_at - text), text);
	for (size_t n = strlen(metric); n && isspace((unsigned char)metric[n - 1]); n--)
		metric[n - 1] = '\0';
	if (tune_metric_parse(metric, &c->metric, err))
		return gs_error_set(err, GS_EARG, "'%s': %s", text, err->msg);
	if (parse_limit(skip_space(op_at + oplen), text, c, &rest, err))
		return err->code;
	snprintf(c->th.metric, sizeof(c->th.metric), "%s", c->metric.name);
	snprintf(c->th.text, sizeof(c->th.text), "%s", text);
	rest = skip_space(rest);
	if (strncmp(rest, "vs", 2) == 0 && isspace((unsigned char)rest[2])) {
		c->has_base = true;
		if (tune_baseline_parse(skip_space(rest + 2), &c->base, err))
			return gs_error_set(err, GS_EARG, "'%s': %s", text, err->msg);
	} else if (*rest) {
		return gs_error_set(err, GS_EARG, "'%s': unexpected '%s' (a baseline is 'vs "
						  "SELECTOR')", text, rest);
	}
	if (c->th.relative && !c->has_base)
		return gs_error_set(err, GS_EARG,
				    "'%s': a change in %% needs a baseline ('vs governor=performance', "
				    "'vs base', ...)",
				    text);
	return 0;
}

bool tune_constraint_holds(const struct tune_constraint *c, double base, double value,
			   double *change)
{
	struct metric_threshold th = c->th;

	if (!c->has_base)
		base = 0, th.relative = false;
	*change = isnan(value) || isnan(base) ? NAN : metric_threshold_change(&th, base, value);
	if (isnan(*change))
		return false;
	return metric_threshold_crossed(&th, base, value);
}

double tune_constraint_excess(const struct tune_constraint *c, double change)
{
	double scale = c->th.value != 0 ? fabs(c->th.value) : 1;

	if (isnan(change))
		return INFINITY;
	switch (c->th.op) {
	case METRIC_LE:
		return change > c->th.value ? (change - c->th.value) / scale : 0;
	case METRIC_LT: /* on the limit fails: a least excess */
		return change >= c->th.value ? fmax((change - c->th.value) / scale, 1e-12) : 0;
	case METRIC_GE:
		return change < c->th.value ? (c->th.value - change) / scale : 0;
	case METRIC_GT:
		return change <= c->th.value ? fmax((c->th.value - change) / scale, 1e-12) : 0;
	}
	return 0;
}
