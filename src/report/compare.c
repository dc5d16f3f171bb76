/* compare.c - two sets of runs side by side: statistics, thresholds, metrics and the
 * comparison itself; see compare.h (selection in compare_select.c, layout in compare_print.c). */
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

/* --- metrics ---------------------------------------------------------------------------- */

double compare_printed_change(double base, double new_value)
{
	double c = metric_relative_change(base, new_value);
	return isfinite(c) ? c : NAN;
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

/*
 * Every metric, in the order of the table's rows. A per-cluster (per-policy) metric is a row per
 * cluster (policy): its name plus the cluster index (the policy's first CPU).
 */

/* The metric rows, from the shape of run r (every run compared has the same platform). */
static void list_metrics(struct compare_table *t, const struct run_result *r)
{
	bool work = strcmp(r->timing, "work") == 0;
	char unit[sizeof(r->power_unit) + 4], name[48];

	t->nr_metrics = 0;
	for (const struct metric_def *d = metric_defs; d->name; d++) {
		if ((d->work_only && !work) || d->tasks_only)
			continue;
		metric_unit(d, r->power_unit, unit, sizeof(unit));
		if (d->kind == METRIC_ONE) {
			add_metric(t, unit, d->name);
			continue;
		}
		for (int c = 0; c < r->nr_clusters; c++) {
			snprintf(name, sizeof(name), "%s%d", d->name,
				 d->kind == METRIC_PER_CLUSTER ? c : r->pol[c].policy);
			add_metric(t, unit, name);
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
		v = metric_value(&runs[i], name);
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
		m->change_pct = metric_relative_change(m->base.amean, m->new.amean);
		m->no_spread = na >= 2 && nbv >= 2 && m->base.sd == 0 && m->new.sd == 0;
		if (na >= 2 && nbv >= 2 && !m->no_spread) {
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
