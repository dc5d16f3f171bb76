/* compare_print.c - the comparison table's layout: text (mmtests), Markdown, CSV, per trace,
 * JSON; see compare.h (statistics in compare.c, selection in compare_select.c). */
#include "report/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json.h"
#include "report/summary.h"

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

/* "+4.23%"; "new" from a base of 0 (no relative change); "-" where a value is unknown. */
static void format_change(char *buf, size_t size, double base, double new_value)
{
	double c = compare_printed_change(base, new_value);

	if (isnan(base) || isnan(new_value))
		snprintf(buf, size, "-");
	else if (isnan(c))
		snprintf(buf, size, "new");
	else
		snprintf(buf, size, "%+.2f%%", c);
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

static bool any_no_spread(const struct compare_table *t)
{
	for (int k = 0; k < t->nr_metrics; k++)
		if (t->m[k].no_spread)
			return true;
	return false;
}

static const char no_spread_text[] =
	"no spread on either side (every run of a side alike: a replay is deterministic, its "
	"repeats are no sample)";

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
	if (any_no_spread(t))
		fprintf(out, "no significance claim where there is %s\n", no_spread_text);
	else if (!any_tested(t) && several(t))
		fprintf(out, "no significance claim: a side has fewer than 2 runs\n");
	else if (!several(t))
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
	if (any_no_spread(t))
		fprintf(out, "%sNo significance claim where there is %s.\n",
			any_tested(t) ? "" : "\n", no_spread_text);
	else if (!any_tested(t))
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
			csv_number(out, isnan(b) || isnan(nv) ? NAN : compare_printed_change(b, nv));
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
	json_out_begin_object(j, key);
	json_out_int(j, "n", (long long)st->n);
	json_out_number(j, "amean", st->amean);
	json_out_number(j, "hmean", st->hmean);
	json_out_number(j, "sd", st->sd);
	json_out_end_object(j);
}

static void json_metrics(struct json_out *j, const struct compare_table *t)
{
	json_out_begin_array(j, "metrics");
	for (int k = 0; k < t->nr_metrics; k++) {
		const struct compare_metric *m = &t->m[k];
		json_out_begin_object(j, NULL);
		json_out_string(j, "metric", m->name);
		json_out_string(j, "unit", m->unit);
		json_stats(j, "base", &m->base);
		json_stats(j, "new", &m->new);
		json_out_number(j, "change_pct", m->change_pct);
		json_out_bool(j, "tested", m->tested);
		json_out_number(j, "p", m->tested ? m->welch.p : NAN);
		json_out_bool(j, "significant", m->significant);
		json_out_end_object(j);
	}
	json_out_end_array(j);
}

void compare_print_json(FILE *out, const struct compare_table *t, const struct compare_trace *tr,
			size_t ntr, const char *base_name, const char *new_name,
			const struct metric_threshold *thr, int nr_thr)
{
	struct json_out j;

	json_out_init(&j, out);
	json_out_begin_object(&j, NULL);
	json_out_string(&j, "base", base_name);
	json_out_string(&j, "new", new_name);
	json_out_number(&j, "confidence", t->confidence);
	json_out_int(&j, "base_runs", (long long)t->nr_base);
	json_out_int(&j, "new_runs", (long long)t->nr_new);
	json_out_int(&j, "traces", (long long)t->nr_traces);
	json_out_int(&j, "base_dropped", (long long)t->base_dropped);
	json_out_int(&j, "new_dropped", (long long)t->new_dropped);
	json_metrics(&j, t);
	json_out_begin_array(&j, "per_trace");
	for (size_t i = 0; i < ntr; i++) {
		json_out_begin_object(&j, NULL);
		json_out_string(&j, "trace", tr[i].trace);
		json_out_string(&j, "trace_sha256", tr[i].sha256);
		json_out_int(&j, "base_runs", (long long)tr[i].t.nr_base);
		json_out_int(&j, "new_runs", (long long)tr[i].t.nr_new);
		json_metrics(&j, &tr[i].t);
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_begin_array(&j, "fail_on");
	for (int i = 0; i < nr_thr; i++) {
		const struct compare_metric *m = compare_find_metric(t, thr[i].metric);
		json_out_begin_object(&j, NULL);
		json_out_string(&j, "threshold", thr[i].text);
		json_out_string(&j, "metric", thr[i].metric);
		if (m) {
			json_out_number(&j, "change",
				    metric_threshold_change(&thr[i], m->base.amean, m->new.amean));
			json_out_bool(&j, "crossed",
				  metric_threshold_crossed(&thr[i], m->base.amean, m->new.amean));
		} else {
			json_out_null(&j, "change");
			json_out_bool(&j, "crossed", false);
		}
		json_out_begin_array(&j, "traces_crossed");
		for (size_t k = 0; k < ntr; k++) {
			const struct compare_metric *tm = compare_find_metric(&tr[k].t, thr[i].metric);
			if (tm && metric_threshold_crossed(&thr[i], tm->base.amean, tm->new.amean))
				json_out_string(&j, NULL, tr[k].trace);
		}
		json_out_end_array(&j);
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_end_object(&j);
}

/* --- several new sides: one column each ----------------------------------------------------- */

static void print_column_header(FILE *out, const struct compare_table *t, size_t n,
				const char *base_name, const char *const *new_names)
{
	fprintf(out, "base: %s (%zu run%s)\n", base_name, t[0].nr_base, t[0].nr_base == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "new%zu: %s (%zu run%s, %zu trace%s in common)\n", i + 1, new_names[i],
			t[i].nr_new, t[i].nr_new == 1 ? "" : "s", t[i].nr_traces,
			t[i].nr_traces == 1 ? "" : "s");
	fputc('\n', out);
}

void compare_print_columns(FILE *out, const struct compare_table *t, size_t n,
			   const char *base_name, const char *const *new_names)
{
	int name_w = 6, unit_w = 1, rows = 1;

	for (size_t i = 0; i < n; i++)
		rows = several(&t[i]) ? 3 : rows;
	for (int k = 0; k < t[0].nr_metrics; k++) {
		int nl = (int)strlen(t[0].m[k].name), ul = (int)strlen(t[0].m[k].unit);
		name_w = nl > name_w ? nl : name_w;
		unit_w = ul > unit_w ? ul : unit_w;
	}
	print_column_header(out, t, n, base_name, new_names);
	fprintf(out, "%-7s%-*s %-*s %14s %10s", "", name_w, "", unit_w, "", "base", "");
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %13s%zu %10s", "new", i + 1, "");
	fputc('\n', out);
	for (int row = 0; row < rows; row++) {
		for (int k = 0; k < t[0].nr_metrics; k++) {
			const struct compare_metric *m0 = &t[0].m[k];
			double b = row_value(&m0->base, (enum stat_row)row);
			char bs[32];

			format_value(bs, sizeof(bs), b);
			fprintf(out, "%-7s%-*s %-*s %14s %c%8s%c", row_names[row], name_w, m0->name,
				unit_w, m0->unit, bs, '(', isnan(b) ? "-" : "0.00%", ')');
			for (size_t i = 0; i < n; i++) {
				const struct compare_metric *m = compare_find_metric(&t[i], m0->name);
				double nv = m ? row_value(&m->new, (enum stat_row)row) : NAN;
				bool star = m && row == ROW_AMEAN && m->significant;
				char ns[32], cs[32];

				format_value(ns, sizeof(ns), nv);
				format_change(cs, sizeof(cs), b, nv);
				fprintf(out, " %14s %c%8s%c", ns, star ? '*' : '(', cs, star ? '*' : ')');
			}
			fputc('\n', out);
		}
	}
}
