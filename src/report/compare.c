/* compare.c - two sets of runs side by side; see compare.h. */
#include "report/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include "report/json.h"
#include "report/summary.h"
#include "store/store.h"
#include "uclamp/policy.h"

/* --- statistics ---------------------------------------------------------------------------- */

double compare_hmean(const double *x, size_t n)
{
	double inv = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		inv += 1.0 / x[i];
	}
	return (double)n / inv;
}

static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

int compare_stats_of(const double *x, size_t n, struct compare_stats *st, struct gs_error *err)
{
	st->n = n;
	st->amean = st->hmean = st->sd = NAN;
	if (n == 0)
		return gs_error_set(err, GS_EARG, "no value to take statistics of");
	/* GSL's statistics return plain values and no status: a non-finite result on finite
	 * data is how a failure would show, so that is what is checked. */
	st->amean = gsl_stats_mean(x, 1, n);
	if (!isfinite(st->amean) && all_finite(x, n))
		return gs_error_set(err, GS_EINTERNAL, "gsl_stats_mean: non-finite mean");
	st->hmean = compare_hmean(x, n);
	if (n >= 2)
		st->sd = gsl_stats_sd(x, 1, n);
	return 0;
}

/*
 * Welch (1947): with sample means m, variances s^2 and sizes n,
 *   se^2 = s_a^2/n_a + s_b^2/n_b,   t = (m_b - m_a) / se,
 *   df = se^4 / ((s_a^2/n_a)^2/(n_a - 1) + (s_b^2/n_b)^2/(n_b - 1))   (Welch-Satterthwaite),
 * and the two-sided p-value is P(|T_df| >= |t|) = 2 Q_df(|t|).
 */
int compare_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct compare_welch *out, struct gs_error *err)
{
	double ma, mb, va, vb, qa, qb, se2;

	/* GSL's default handler aborts the process; the library checks every status itself
	 * (idempotent and process-wide: the library's GSL entry points all pass here). */
	gsl_set_error_handler_off();
	out->t = out->df = out->p = NAN;
	if (na < 2 || nb < 2)
		return gs_error_set(err, GS_EARG, "Welch's t-test needs 2 values per side (%zu, %zu)",
				    na, nb);
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	va = gsl_stats_variance_m(a, 1, na, ma);
	vb = gsl_stats_variance_m(b, 1, nb, mb);
	if (!isfinite(ma) || !isfinite(mb) || !isfinite(va) || !isfinite(vb))
		return gs_error_set(err, GS_EINTERNAL, "gsl_stats: non-finite mean or variance");
	qa = va / (double)na;
	qb = vb / (double)nb;
	se2 = qa + qb;
	if (se2 == 0) {
		out->df = (double)(na + nb - 2);
		out->t = mb == ma ? 0 : (mb > ma ? INFINITY : -INFINITY);
		out->p = mb == ma ? 1 : 0;
		return 0;
	}
	out->t = (mb - ma) / sqrt(se2);
	out->df = se2 * se2 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (!isfinite(out->p))
		return gs_error_set(err, GS_EINTERNAL, "gsl_cdf_tdist_Q(%g, %g): no finite value",
				    fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

/* --- thresholds ---------------------------------------------------------------------------- */

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

int compare_parse_threshold(const char *text, struct compare_threshold *t, struct gs_error *err)
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
	if (s[0] == '>' && s[1] == '=')
		t->op = COMPARE_GE, s += 2;
	else if (s[0] == '<' && s[1] == '=')
		t->op = COMPARE_LE, s += 2;
	else if (s[0] == '>')
		t->op = COMPARE_GT, s++;
	else if (s[0] == '<')
		t->op = COMPARE_LT, s++;
	else
		return gs_error_set(err, GS_EARG, "'%s': expected >, >=, < or <= after '%s'", text,
				    t->metric);
	s = skip_space(s);
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

static double relative_change(double base, double new_value)
{
	if (base == 0)
		return new_value == 0 ? 0 : (new_value > 0 ? INFINITY : -INFINITY);
	return (new_value - base) / fabs(base) * 100.0;
}

double compare_threshold_change(const struct compare_threshold *t, double base, double new_value)
{
	return t->relative ? relative_change(base, new_value) : new_value - base;
}

bool compare_threshold_crossed(const struct compare_threshold *t, double base, double new_value)
{
	double c = compare_threshold_change(t, base, new_value);

	switch (t->op) {
	case COMPARE_GT:
		return c > t->value;
	case COMPARE_GE:
		return c >= t->value;
	case COMPARE_LT:
		return c < t->value;
	case COMPARE_LE:
		return c <= t->value;
	}
	return false;
}

/* --- metrics ------------------------------------------------------------------------------- */

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

double compare_metric_value(const struct run_result *r, const char *name)
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
	if (strcmp(name, "delay") == 0)
		return report_total_delay(r, NULL);
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

static void add_metric(struct compare_table *t, const char *unit, const char *name)
{
	struct compare_metric *m;

	if (t->nr_metrics == COMPARE_MAX_METRICS)
		return;
	m = &t->m[t->nr_metrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
}

/* The metric rows, from the shape of run r (every run compared has the same platform). */
static void list_metrics(struct compare_table *t, const struct run_result *r)
{
	char power_unit[sizeof(r->power_unit) + 4], name[32];

	if (strcmp(r->power_unit, "J") == 0)
		snprintf(power_unit, sizeof(power_unit), "W");
	else
		snprintf(power_unit, sizeof(power_unit), "%s/s", r->power_unit);
	t->nr_metrics = 0;
	add_metric(t, r->power_unit, "energy");
	for (int c = 0; c < r->nr_clusters; c++) {
		snprintf(name, sizeof(name), "energy_cluster%d", c);
		add_metric(t, r->power_unit, name);
	}
	add_metric(t, power_unit, "avg_power");
	for (int c = 0; c < r->nr_clusters; c++) {
		snprintf(name, sizeof(name), "avg_freq_policy%d", r->pol[c].policy);
		add_metric(t, "MHz", name);
	}
	add_metric(t, "", "transitions");
	add_metric(t, "s", "busy");
	add_metric(t, "s", "delay");
	add_metric(t, "s", "max_delay");
	add_metric(t, "s", "span");
	add_metric(t, "", "stretch");
	if (strcmp(r->timing, "work") == 0) {
		static const char *const dists[] = {"latency", "response", "lateness"};
		static const char *const stats[] = {"mean", "p95", "max"};
		add_metric(t, "", "activations");
		add_metric(t, "/s", "throughput");
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++) {
				snprintf(name, sizeof(name), "%s_%s", dists[i], stats[j]);
				add_metric(t, "s", name);
			}
	}
}

static bool has_trace(const struct run_result *runs, size_t n, const char *sha)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(runs[i].trace_sha256, sha) == 0)
			return true;
	return false;
}

/* The values of metric `name` over the runs whose trace the other side has. */
static size_t collect(const struct run_result *runs, size_t n, const struct run_result *other,
		      size_t no, const char *name, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double v;
		if (!has_trace(other, no, runs[i].trace_sha256))
			continue;
		/* absent values (the average frequency of a policy with no activity) are left
		 * out */
		v = compare_metric_value(&runs[i], name);
		if (!isnan(v))
			out[k++] = v;
	}
	return k;
}

static int check_same_setup(const struct run_result *ref, const struct run_result *r,
			    struct gs_error *err)
{
	if (strcmp(ref->platform, r->platform) != 0)
		return gs_error_set(err, GS_EINPUT,
				    "runs of different platforms ('%s', '%s') cannot be compared",
				    ref->platform, r->platform);
	/* Power models in one physical unit (em and wattson: joules) are two estimates of the
	 * same energy and compare side by side; the costs model's own units do not. */
	if (strcmp(ref->power_unit, r->power_unit) != 0)
		return gs_error_set(err, GS_EINPUT,
				    "runs of power models in different units ('%s' in %s, '%s' in %s) "
				    "cannot be compared",
				    ref->power_model, ref->power_unit, r->power_model, r->power_unit);
	return 0;
}

int compare_runs(const struct run_result *base, size_t nb, const struct run_result *new_runs,
		 size_t nn, double confidence, struct compare_table *t, struct gs_error *err)
{
	double *va = NULL, *vb = NULL;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!(confidence > 0 && confidence < 1))
		return gs_error_set(err, GS_EARG, "confidence %g: expected a value in (0, 1)",
				    confidence);
	if (nb == 0 || nn == 0)
		return gs_error_set(err, GS_EARG, "nothing to compare: no %s run",
				    nb == 0 ? "base" : "new");
	t->confidence = confidence;
	for (size_t i = 0; i < nb; i++)
		if ((rc = check_same_setup(&base[0], &base[i], err)))
			return rc;
	for (size_t i = 0; i < nn; i++)
		if ((rc = check_same_setup(&base[0], &new_runs[i], err)))
			return rc;

	for (size_t i = 0; i < nb; i++) {
		if (!has_trace(new_runs, nn, base[i].trace_sha256)) {
			t->base_dropped++;
			continue;
		}
		t->nr_base++;
		if (!has_trace(base, i, base[i].trace_sha256))
			t->nr_traces++;
	}
	for (size_t i = 0; i < nn; i++) {
		if (has_trace(base, nb, new_runs[i].trace_sha256))
			t->nr_new++;
		else
			t->new_dropped++;
	}
	if (t->nr_traces == 0)
		return gs_error_set(err, GS_EINPUT, "base and new have no trace in common");

	va = calloc(nb, sizeof(*va));
	vb = calloc(nn, sizeof(*vb));
	if (!va || !vb) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free;
	}
	list_metrics(t, &base[0]);
	for (int k = 0; k < t->nr_metrics; k++) {
		struct compare_metric *m = &t->m[k];
		size_t na = collect(base, nb, new_runs, nn, m->name, va);
		size_t nbv = collect(new_runs, nn, base, nb, m->name, vb);

		if (!na || !nbv) {
			/* no value on a side (a policy with no activity in every run): no row */
			memmove(m, m + 1, (size_t)(t->nr_metrics - k - 1) * sizeof(*m));
			t->nr_metrics--;
			k--;
			continue;
		}
		if ((rc = compare_stats_of(va, na, &m->base, err)) ||
		    (rc = compare_stats_of(vb, nbv, &m->new, err)))
			goto out_free;
		m->change_pct = relative_change(m->base.amean, m->new.amean);
		if (na >= 2 && nbv >= 2) {
			if ((rc = compare_welch(va, na, vb, nbv, &m->welch, err)))
				goto out_free;
			m->tested = true;
			m->significant = m->welch.p < 1 - confidence;
		}
	}
out_free:
	free(va);
	free(vb);
	return rc;
}

const struct compare_metric *compare_find_metric(const struct compare_table *t, const char *name)
{
	for (int k = 0; k < t->nr_metrics; k++)
		if (strcmp(t->m[k].name, name) == 0)
			return &t->m[k];
	return NULL;
}

/* --- selecting runs ------------------------------------------------------------------------ */

void compare_free_runs(struct run_result *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		run_result_release(&runs[i]);
	free(runs);
}

static const char *const column_keys[] = {
	"label", "governor", "trace", "trace_sha256", "platform", "timing", "util_source",
	"power_model", "kernel",
};

/* `word` appears in `text` delimited by the start, the end or spaces. */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' '))
			return true;
	return false;
}

struct policy_filter {
	const char *arg;
	char word[1100];
	char *text;  /* FILE's policy, normalised; NULL when FILE is not a readable policy */
};

static bool policy_matches(const struct policy_filter *f, const struct run_result *r)
{
	if (has_word(r->label, f->word))
		return true;
	if (strcmp(f->arg, "none") == 0)
		return r->policy[0] == '\0';
	return f->text && strcmp(f->text, r->policy) == 0;
}

static void policy_filter_init(struct policy_filter *f, const char *arg)
{
	struct policy p;
	struct gs_error e;
	size_t len;

	f->arg = arg;
	f->text = NULL;
	snprintf(f->word, sizeof(f->word), "policy=%s", arg);
	if (strcmp(arg, "none") == 0 || access(arg, R_OK) != 0)
		return;
	policy_init(&p);
	gs_error_clear(&e);
	if (policy_parse_file(&p, arg, &e) == 0) {
		len = policy_format(&p, NULL, 0);
		f->text = malloc(len + 1);
		if (f->text)
			policy_format(&p, f->text, len + 1);
	}
	policy_release(&p);
}

static const char *selector_keys_help =
	"run, label, policy, action, governor, db, trace, trace_sha256, platform, timing, "
	"util_source, power_model, kernel, or a tunable KEY";

/* A term that is no runs column: action=LINE (a policy action) or KEY=VALUE (a tunable, or
 * any word sweep put in the label). */
struct extra_term {
	bool action;
	char word[600];     /* "KEY=VALUE", or action="LINE" as sweep labels it */
	char line[300];     /* action: LINE, normalised as policy_format() writes it */
	char key[104];      /* "KEY=" */
	bool key_seen;      /* some run read has KEY= in its tunables or label */
};

/* Whether a word of text starts with prefix ("rate_limit_us=" in "hz=250 rate_limit_us=1"). */
static bool has_word_prefix(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	for (const char *p = strstr(text, prefix); p; p = strstr(p + 1, prefix))
		if (p == text || p[-1] == ' ')
			return true;
	(void)len;
	return false;
}

#define SELECT_MAX_EXTRA 16

/* Whether r->policy has LINE as one of its lines. */
static bool policy_has_line(const char *policy, const char *line)
{
	size_t len = strlen(line);
	for (const char *p = policy; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (l == len && strncmp(p, line, len) == 0)
			return true;
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

static bool extra_matches(const struct extra_term *t, const struct run_result *r)
{
	if (has_word(r->label, t->word))
		return true;
	if (t->action)
		return t->line[0] && policy_has_line(r->policy, t->line);
	return has_word(r->params, t->word);
}

static int extra_init(struct extra_term *t, const char *key, const char *value,
		      struct gs_error *err)
{
	memset(t, 0, sizeof(*t));
	t->action = strcmp(key, "action") == 0;
	snprintf(t->key, sizeof(t->key), "%.100s=", key);
	if (!t->action) {
		snprintf(t->word, sizeof(t->word), "%.100s=%.400s", key, value);
		return 0;
	}
	snprintf(t->word, sizeof(t->word), "action=\"%.500s\"", value);
	{
		struct policy p;
		struct gs_error e;
		policy_init(&p);
		gs_error_clear(&e);
		if (policy_parse_line(&p, value, "action=", 1, &e) == 0 && p.n == 1)
			policy_action_format(&p.actions[0], t->line, sizeof(t->line));
		else if (e.msg[0]) {
			policy_release(&p);
			return gs_error_set(err, GS_EARG, "action='%s': %s", value, e.msg);
		}
		policy_release(&p);
	}
	return 0;
}

int compare_select(const char *selector, const char *default_db, struct run_result **runs,
		   size_t *n, struct gs_error *err)
{
	char *sel = NULL, *tok, *next;
	char store_sel[2048] = "";
	const char *db = default_db, *policy = NULL;
	struct policy_filter pf = {0};
	struct extra_term *extra = NULL;
	int nr_extra = 0;
	struct run_result *out = NULL;
	struct store *st = NULL;
	s64 run_id = -1, *ids = NULL;
	size_t nr_ids = 0, count = 0;
	int rc = 0;

	*runs = NULL;
	*n = 0;
	if (!selector || !*selector)
		return gs_error_set(err, GS_EARG, "empty run selector");
	if (!(sel = strdup(selector)))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	for (tok = sel; tok; tok = next) {
		char *eq, *key, *value;
		bool column = false;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1]) {
			rc = gs_error_set(err, GS_EARG,
					  "'%s': a run selector is KEY=VALUE[,KEY=VALUE...]",
					  selector);
			goto out_free;
		}
		*eq = '\0';
		key = tok;
		value = eq + 1;
		for (size_t k = 0; k < GS_ARRAY_SIZE(column_keys); k++)
			column = column || strcmp(key, column_keys[k]) == 0;
		if (strcmp(key, "run") == 0) {
			char *end;
			errno = 0;
			run_id = strtoll(value, &end, 10);
			if (errno || *end || run_id < 1) {
				rc = gs_error_set(err, GS_EARG, "'%s': run=N takes a run id", selector);
				goto out_free;
			}
		} else if (strcmp(key, "db") == 0) {
			db = value;
		} else if (strcmp(key, "policy") == 0) {
			policy = value;
		} else if (column) {
			size_t len = strlen(store_sel);
			if ((size_t)snprintf(store_sel + len, sizeof(store_sel) - len, "%s%s=%s",
					     len ? "," : "", key, value) >= sizeof(store_sel) - len) {
				rc = gs_error_set(err, GS_EARG, "'%s': selector too long", selector);
				goto out_free;
			}
		} else {
			/* action=LINE, or a tunable / any label word KEY=VALUE (what a sweep
			 * varies) */
			if (nr_extra == SELECT_MAX_EXTRA) {
				rc = gs_error_set(err, GS_EARG, "'%s': too many terms", selector);
				goto out_free;
			}
			if (!extra && !(extra = calloc(SELECT_MAX_EXTRA, sizeof(*extra)))) {
				rc = gs_error_set(err, GS_ENOMEM, "out of memory");
				goto out_free;
			}
			if ((rc = extra_init(&extra[nr_extra++], key, value, err)))
				goto out_free;
		}
	}
	if (!db) {
		rc = gs_error_set(err, GS_EARG, "'%s': no database: give --db FILE or db=FILE",
				  selector);
		goto out_free;
	}
	if (access(db, R_OK) != 0) {
		rc = gs_error_set(err, GS_EINPUT, "'%s': %s", db, strerror(errno));
		goto out_free;
	}
	if ((rc = store_open(db, &st, err)) ||
	    (rc = store_select_runs(st, store_sel, &ids, &nr_ids, err)))
		goto out_free;
	if (policy)
		policy_filter_init(&pf, policy);
	if (nr_ids && !(out = calloc(nr_ids, sizeof(*out)))) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nr_ids; i++) {
		if (run_id >= 0 && ids[i] != run_id)
			continue;
		rc = store_read_run(st, ids[i], &out[count], err);
		if (rc) {
			run_result_release(&out[count]);
			goto out_free;
		}
		for (int k = 0; k < nr_extra; k++)
			extra[k].key_seen = extra[k].key_seen || extra[k].action ||
					    has_word_prefix(out[count].params, extra[k].key) ||
					    has_word_prefix(out[count].label, extra[k].key);
		if (policy && !policy_matches(&pf, &out[count])) {
			run_result_release(&out[count]);
			continue;
		}
		{
			bool ok = true;
			for (int k = 0; k < nr_extra && ok; k++)
				ok = extra_matches(&extra[k], &out[count]);
			if (!ok) {
				run_result_release(&out[count]);
				continue;
			}
		}
		count++;
	}
	if (count == 0) {
		for (int k = 0; k < nr_extra; k++) {
			if (extra[k].key_seen || !nr_ids)
				continue;
			extra[k].key[strlen(extra[k].key) - 1] = '\0';
			rc = gs_error_set(err, GS_EARG,
					  "'%s': unknown selector key (one of: %s; no run in '%s' has "
					  "it as a tunable or label word)",
					  extra[k].key, selector_keys_help, db);
			goto out_free;
		}
		rc = gs_error_set(err, GS_EARG, "'%s': selects no run in '%s'", selector, db);
		goto out_free;
	}
	*runs = out;
	*n = count;
	out = NULL;
	count = 0;
out_free:
	compare_free_runs(out, count);
	free(extra);
	free(pf.text);
	free(ids);
	store_close(st);
	free(sel);
	return rc;
}

/* --- printing ------------------------------------------------------------------------------ */

int compare_format_from_name(const char *name)
{
	if (strcmp(name, "text") == 0)
		return COMPARE_TEXT;
	if (strcmp(name, "markdown") == 0)
		return COMPARE_MARKDOWN;
	if (strcmp(name, "csv") == 0)
		return COMPARE_CSV;
	return -1;
}

enum stat_row { ROW_AMEAN, ROW_HMEAN, ROW_SD };
static const char *const row_names[] = {"Amean", "Hmean", "Stddev"};

static double row_value(const struct compare_stats *s, enum stat_row row)
{
	return row == ROW_AMEAN ? s->amean : row == ROW_HMEAN ? s->hmean : s->sd;
}

static void format_value(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.6g", v);
}

static void format_change(char *buf, size_t size, double base, double new_value)
{
	if (isnan(base) || isnan(new_value))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%+.2f%%", relative_change(base, new_value));
}

static bool several(const struct compare_table *t)
{
	return t->nr_base > 1 || t->nr_new > 1;
}

static bool any_tested(const struct compare_table *t)
{
	for (int k = 0; k < t->nr_metrics; k++)
		if (t->m[k].tested)
			return true;
	return false;
}

static void print_text(FILE *out, const struct compare_table *t, const char *base_name,
		       const char *new_name)
{
	int name_w = 6, unit_w = 1;
	int rows = several(t) ? 3 : 1;

	for (int k = 0; k < t->nr_metrics; k++) {
		int nl = (int)strlen(t->m[k].name), ul = (int)strlen(t->m[k].unit);
		name_w = nl > name_w ? nl : name_w;
		unit_w = ul > unit_w ? ul : unit_w;
	}
	fprintf(out, "base: %s (%zu run%s)\n", base_name, t->nr_base, t->nr_base == 1 ? "" : "s");
	fprintf(out, "new:  %s (%zu run%s)\n", new_name, t->nr_new, t->nr_new == 1 ? "" : "s");
	fprintf(out, "%zu trace%s in common", t->nr_traces, t->nr_traces == 1 ? "" : "s");
	if (t->base_dropped || t->new_dropped)
		fprintf(out, "; left out, trace not on the other side: %zu base, %zu new run%s",
			t->base_dropped, t->new_dropped, t->new_dropped == 1 ? "" : "s");
	fprintf(out, "\n\n");
	fprintf(out, "%-7s%-*s %-*s %14s %10s %14s\n", "", name_w, "", unit_w, "", "base", "",
		"new");
	for (int row = 0; row < rows; row++) {
		for (int k = 0; k < t->nr_metrics; k++) {
			const struct compare_metric *m = &t->m[k];
			double b = row_value(&m->base, (enum stat_row)row);
			double nv = row_value(&m->new, (enum stat_row)row);
			char bs[32], ns[32], cs[32];
			bool star = row == ROW_AMEAN && m->significant;

			format_value(bs, sizeof(bs), b);
			format_value(ns, sizeof(ns), nv);
			format_change(cs, sizeof(cs), b, nv);
			fprintf(out, "%-7s%-*s %-*s %14s %c%8s%c %14s %c%8s%c\n", row_names[row],
				name_w, m->name, unit_w, m->unit, bs, '(', isnan(b) ? "-" : "0.00%",
				')', ns, star ? '*' : '(', cs, star ? '*' : ')');
		}
	}
	fputc('\n', out);
	if (any_tested(t))
		fprintf(out, "* a significant difference of the means at %g%% confidence (Welch's "
			     "t-test, two-sided)\n",
			t->confidence * 100);
	else if (several(t))
		fprintf(out, "no significance claim: a side has fewer than 2 runs\n");
	else
		fprintf(out, "one run per side: plain differences, no significance claim\n");
}

static void print_markdown(FILE *out, const struct compare_table *t, const char *base_name,
			   const char *new_name)
{
	int rows = several(t) ? 3 : 1;

	fprintf(out, "base: `%s` (%zu run%s), new: `%s` (%zu run%s), %zu trace%s in common\n\n",
		base_name, t->nr_base, t->nr_base == 1 ? "" : "s", new_name, t->nr_new,
		t->nr_new == 1 ? "" : "s", t->nr_traces, t->nr_traces == 1 ? "" : "s");
	fprintf(out, "| stat | metric | unit | base | new | change | p | significant |\n");
	fprintf(out, "|:--|:--|:--|--:|--:|--:|--:|:-:|\n");
	for (int row = 0; row < rows; row++) {
		for (int k = 0; k < t->nr_metrics; k++) {
			const struct compare_metric *m = &t->m[k];
			double b = row_value(&m->base, (enum stat_row)row);
			double nv = row_value(&m->new, (enum stat_row)row);
			char bs[32], ns[32], cs[32], ps[32];
			bool tested = row == ROW_AMEAN && m->tested;

			format_value(bs, sizeof(bs), b);
			format_value(ns, sizeof(ns), nv);
			format_change(cs, sizeof(cs), b, nv);
			if (tested)
				snprintf(ps, sizeof(ps), "%.3g", m->welch.p);
			else
				snprintf(ps, sizeof(ps), "-");
			fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", row_names[row],
				m->name, m->unit, bs, ns, cs, ps,
				tested ? (m->significant ? "*" : "no") : "-");
		}
	}
	if (any_tested(t))
		fprintf(out, "\nWelch's t-test, two-sided, at %g%% confidence.\n",
			t->confidence * 100);
	else
		fprintf(out, "\nNo significance claim: fewer than 2 runs on a side.\n");
}

static void csv_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.17g", v);
	else if (isinf(v))
		fprintf(out, ",%s", v > 0 ? "inf" : "-inf");
	else
		fputc(',', out);
}

static void print_csv(FILE *out, const struct compare_table *t)
{
	fprintf(out, "stat,metric,unit,base_n,new_n,base,new,change_pct,p_value,significant\n");
	for (int row = 0; row < 3; row++) {
		for (int k = 0; k < t->nr_metrics; k++) {
			const struct compare_metric *m = &t->m[k];
			double b = row_value(&m->base, (enum stat_row)row);
			double nv = row_value(&m->new, (enum stat_row)row);
			bool tested = row == ROW_AMEAN && m->tested;

			/* names and units are identifiers or unit symbols: no quoting needed */
			fprintf(out, "%s,%s,%s,%zu,%zu", row_names[row], m->name, m->unit,
				m->base.n, m->new.n);
			csv_number(out, b);
			csv_number(out, nv);
			csv_number(out, isnan(b) || isnan(nv) ? NAN : relative_change(b, nv));
			csv_number(out, tested ? m->welch.p : NAN);
			fprintf(out, ",%s\n", tested ? (m->significant ? "1" : "0") : "");
		}
	}
}

void compare_print(FILE *out, const struct compare_table *t, const char *base_name,
		   const char *new_name, enum compare_format fmt)
{
	switch (fmt) {
	case COMPARE_TEXT:
		print_text(out, t, base_name, new_name);
		break;
	case COMPARE_MARKDOWN:
		print_markdown(out, t, base_name, new_name);
		break;
	case COMPARE_CSV:
		print_csv(out, t);
		break;
	}
}

/* --- per trace ----------------------------------------------------------------------------- */

/* Shallow copies of the runs of one trace (their heap arrays stay the originals'). */
static size_t runs_of_trace(const struct run_result *runs, size_t n, const char *sha,
			    struct run_result *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(runs[i].trace_sha256, sha) == 0)
			memcpy(&out[k++], &runs[i], sizeof(*out));
	return k;
}

int compare_per_trace(const struct run_result *base, size_t nb, const struct run_result *new_runs,
		      size_t nn, double confidence, struct compare_trace **out, size_t *n,
		      struct gs_error *err)
{
	struct run_result *vb = malloc((nb ? nb : 1) * sizeof(*vb));
	struct run_result *vn = malloc((nn ? nn : 1) * sizeof(*vn));
	struct compare_trace *tr = calloc(nb ? nb : 1, sizeof(*tr));
	size_t ntr = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!vb || !vn || !tr) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < nb; i++) {
		const char *sha = base[i].trace_sha256;
		size_t kb, kn;

		if (!has_trace(new_runs, nn, sha) || has_trace(base, i, sha))
			continue;
		kb = runs_of_trace(base, nb, sha, vb);
		kn = runs_of_trace(new_runs, nn, sha, vn);
		rc = compare_runs(vb, kb, vn, kn, confidence, &tr[ntr].t, err);
		if (rc)
			goto out_free;
		snprintf(tr[ntr].trace, sizeof(tr[ntr].trace), "%.255s", base[i].trace);
		snprintf(tr[ntr].sha256, sizeof(tr[ntr].sha256), "%s", sha);
		ntr++;
	}
	*out = tr;
	*n = ntr;
	tr = NULL;
out_free:
	free(tr);
	free(vb);
	free(vn);
	return rc;
}

void compare_print_traces(FILE *out, const struct compare_trace *tr, size_t n,
			  const char *const *metrics, int nr_metrics)
{
	static const char *const dflt[] = {"energy", "avg_power", "delay"};

	if (!nr_metrics) {
		metrics = dflt;
		nr_metrics = 3;
	}
	int trace_w = 5;

	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(tr[i].trace);
		trace_w = l > trace_w ? l : trace_w;
	}
	fprintf(out, "\nper trace (means of its runs):\n");
	fprintf(out, "  %-*s %-16s %14s %14s %10s\n", trace_w, "trace", "metric", "base", "new",
		"change");
	for (int k = 0; k < nr_metrics; k++) {
		for (size_t i = 0; i < n; i++) {
			const struct compare_metric *m = compare_find_metric(&tr[i].t, metrics[k]);
			char bs[32], ns[32], cs[32];

			if (!m) {
				fprintf(out, "  %-*s %-16s -\n", trace_w, tr[i].trace, metrics[k]);
				continue;
			}
			format_value(bs, sizeof(bs), m->base.amean);
			format_value(ns, sizeof(ns), m->new.amean);
			format_change(cs, sizeof(cs), m->base.amean, m->new.amean);
			fprintf(out, "  %-*s %-16s %14s %14s %10s\n", trace_w, tr[i].trace, m->name,
				bs, ns, cs);
		}
	}
}

static void json_stats(struct json_out *j, const char *key, const struct compare_stats *st)
{
	json_begin_object(j, key);
	json_int(j, "n", (long long)st->n);
	json_number(j, "amean", st->amean);
	json_number(j, "hmean", st->hmean);
	json_number(j, "sd", st->sd);
	json_end_object(j);
}

static void json_metrics(struct json_out *j, const struct compare_table *t)
{
	json_begin_array(j, "metrics");
	for (int k = 0; k < t->nr_metrics; k++) {
		const struct compare_metric *m = &t->m[k];
		json_begin_object(j, NULL);
		json_string(j, "metric", m->name);
		json_string(j, "unit", m->unit);
		json_stats(j, "base", &m->base);
		json_stats(j, "new", &m->new);
		json_number(j, "change_pct", m->change_pct);
		json_bool(j, "tested", m->tested);
		json_number(j, "p", m->tested ? m->welch.p : NAN);
		json_bool(j, "significant", m->significant);
		json_end_object(j);
	}
	json_end_array(j);
}

void compare_print_json(FILE *out, const struct compare_table *t, const struct compare_trace *tr,
			size_t ntr, const char *base_name, const char *new_name,
			const struct compare_threshold *thr, int nr_thr)
{
	struct json_out j;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_string(&j, "base", base_name);
	json_string(&j, "new", new_name);
	json_number(&j, "confidence", t->confidence);
	json_int(&j, "base_runs", (long long)t->nr_base);
	json_int(&j, "new_runs", (long long)t->nr_new);
	json_int(&j, "traces", (long long)t->nr_traces);
	json_int(&j, "base_dropped", (long long)t->base_dropped);
	json_int(&j, "new_dropped", (long long)t->new_dropped);
	json_metrics(&j, t);
	json_begin_array(&j, "per_trace");
	for (size_t i = 0; i < ntr; i++) {
		json_begin_object(&j, NULL);
		json_string(&j, "trace", tr[i].trace);
		json_string(&j, "trace_sha256", tr[i].sha256);
		json_int(&j, "base_runs", (long long)tr[i].t.nr_base);
		json_int(&j, "new_runs", (long long)tr[i].t.nr_new);
		json_metrics(&j, &tr[i].t);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_array(&j, "fail_on");
	for (int i = 0; i < nr_thr; i++) {
		const struct compare_metric *m = compare_find_metric(t, thr[i].metric);
		json_begin_object(&j, NULL);
		json_string(&j, "threshold", thr[i].text);
		json_string(&j, "metric", thr[i].metric);
		if (m) {
			json_number(&j, "change",
				    compare_threshold_change(&thr[i], m->base.amean, m->new.amean));
			json_bool(&j, "crossed",
				  compare_threshold_crossed(&thr[i], m->base.amean, m->new.amean));
		} else {
			json_null(&j, "change");
			json_bool(&j, "crossed", false);
		}
		json_begin_array(&j, "traces_crossed");
		for (size_t k = 0; k < ntr; k++) {
			const struct compare_metric *tm = compare_find_metric(&tr[k].t, thr[i].metric);
			if (tm && compare_threshold_crossed(&thr[i], tm->base.amean, tm->new.amean))
				json_string(&j, NULL, tr[k].trace);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
}
