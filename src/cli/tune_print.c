/*
 * tune_print.c - `govsim tune`'s answer: text (the answer, its margin, the points evaluated),
 * --json, and the points in value order for the plot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/tune_cli.h"
#include "report/json.h"

static const char *goal_name(enum tune_goal g)
{
	static const char *const names[] = {"smallest", "largest", "minimize", "maximize"};
	return names[g];
}

bool tune_metric_is_time(const struct tune_metric *m)
{
	return strncmp(m->name, "latency_", 8) == 0 || strncmp(m->name, "response_", 9) == 0 ||
	       strncmp(m->name, "lateness_", 9) == 0 || strcmp(m->name, "busy") == 0 ||
	       strcmp(m->name, "span") == 0 || strcmp(m->name, "delay") == 0 ||
	       strcmp(m->name, "max_delay") == 0 || strcmp(m->name, "runtime") == 0;
}

/* A constraint's change (or value) as written: "+12.31%", "16.250 ms", "0.00931". */
static void format_change(const struct tune_constraint *c, double change, char *buf,
			  size_t size)
{
	if (isnan(change))
		snprintf(buf, size, "n/a");
	else if (c->th.relative)
		snprintf(buf, size, "%+.2f%%", change);
	else if (tune_metric_is_time(&c->metric))
		snprintf(buf, size, c->has_base ? "%+.3f ms" : "%.3f ms", change * 1e3);
	else
		snprintf(buf, size, c->has_base ? "%+.6g" : "%.6g", change);
}

static void format_limit(const struct tune_constraint *c, char *buf, size_t size)
{
	char v[64];

	format_change(c, c->th.value, v, sizeof(v));
	snprintf(buf, size, "%s %s", metric_op_text(c->th.op), v);
}

/* The worst trace of constraint c at point p (the most excess; else the nearest the limit). */
int tune_worst_trace(const struct tune_cli *t, size_t p, int c, double *change)
{
	/* nearer the limit: a larger change for <= and <, a smaller one for >= and > */
	double sign = t->cons[c].th.op == METRIC_LE || t->cons[c].th.op == METRIC_LT ? 1 : -1;
	double worst = -1, ch;
	int wt = 0;

	*change = NAN;
	for (int tr = 0; tr < t->o.nr_traces; tr++) {
		double e;
		tune_judge(t, p, c, tr, &ch);
		e = tune_constraint_excess(&t->cons[c], ch);
		if (tr == 0 || e > worst || (e == worst && e == 0 && sign * ch > sign * *change)) {
			worst = e;
			wt = tr;
			*change = ch;
		}
	}
	return wt;
}

/* "constraint C is +12.31% on 'trace' (limit <= +10.00%)" for each failing pair of point p. */
static void print_why(const struct tune_cli *t, size_t p, const char *indent)
{
	char ch[64], lim[72]; /* lim: an operator, a space and a value of up to 63 */
	double change;

	for (int c = 0; c < t->nr_cons; c++)
		for (int tr = 0; tr < t->o.nr_traces; tr++) {
			if (tune_judge(t, p, c, tr, &change))
				continue;
			format_change(&t->cons[c], change, ch, sizeof(ch));
			format_limit(&t->cons[c], lim, sizeof(lim));
			printf("%s%s is %s on '%s' (needs %s)\n", indent, t->cons[c].metric.text, ch,
			       t->o.traces[tr], lim);
		}
}

static void print_margin(const struct tune_cli *t, long idx, const char *side)
{
	char v[256];

	if (idx < 0) {
		printf("          no failing value evaluated %s\n", side);
		return;
	}
	tune_point_text(t, &t->search.pts[idx], v, sizeof(v));
	printf("          %s fails:\n", v);
	print_why(t, (size_t)idx, "            ");
}

size_t *tune_sorted_points(const struct tune_cli *t)
{
	const struct tune_search *s = &t->search;
	size_t *order = malloc((s->n + 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		size_t j = i;
		order[i] = i;
		while (j > 0) {
			const struct tune_point *a = &s->pts[order[j - 1]], *b = &s->pts[i];
			int d = 0;
			while (d < s->nd && a->k[d] == b->k[d])
				d++;
			if (d == s->nd || a->k[d] < b->k[d])
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return order;
}

static void print_table(const struct tune_cli *t, const size_t *order)
{
	const struct tune_search *s = &t->search;
	char v[256], ch[64];
	double change;

	printf("\n%-24s %5s %4s", "value", "round", "ok");
	if (t->moff)
		printf(" %14s", t->objective.text);
	for (int c = 0; c < t->nr_cons; c++)
		printf("  %s", t->cons[c].metric.text);
	printf("\n");
	for (size_t i = 0; i < s->n; i++) {
		size_t p = order[i];
		tune_point_text(t, &s->pts[p], v, sizeof(v));
		printf("%-24s %5d %4s", v, s->pts[p].round, s->pts[p].feasible ? "yes" : "no");
		if (t->moff)
			printf(" %*.6g", (int)(strlen(t->objective.text) > 14
						   ? strlen(t->objective.text) : 14),
			       s->pts[p].objective);
		for (int c = 0; c < t->nr_cons; c++) {
			tune_worst_trace(t, p, c, &change);
			format_change(&t->cons[c], change, ch, sizeof(ch));
			printf("  %*s", (int)strlen(t->cons[c].metric.text), ch);
		}
		printf("%s\n", (long)p == s->best ? "  <-" : "");
	}
}

static void print_text(const struct tune_cli *t)
{
	const struct tune_search *s = &t->search;
	char v[256], lim[72];
	size_t *order;

	printf("govsim tune: %s", goal_name(t->goal));
	if (t->moff)
		printf(" %s over", t->objective.text);
	else
		printf(" %s in", t->vary[0].key);
	for (int d = 0; d < t->nd; d++)
		printf("%s '%s'", d ? " and" : "", t->vary[d].text);
	printf(", %d trace%s\n", t->o.nr_traces, t->o.nr_traces == 1 ? "" : "s");
	for (int c = 0; c < t->nr_cons; c++) {
		format_limit(&t->cons[c], lim, sizeof(lim));
		printf("%s %s %s%s%s\n", c ? "        " : "subject:", t->cons[c].metric.text, lim,
		       t->cons[c].has_base ? " vs " : "",
		       t->cons[c].has_base ? t->cons[c].base.text : "");
	}
	tune_point_text(t, &s->pts[s->best], v, sizeof(v));
	if (s->feasible) {
		printf("answer:   %s", v);
		if (t->moff)
			printf(" (%s %.6g)", t->objective.text, s->pts[s->best].objective);
		printf("\n");
	} else {
		printf("answer:   none: no value meets every constraint; best found %s\n", v);
		print_why(t, (size_t)s->best, "            ");
	}
	if (!t->nr_cons) {
		/* no constraint: no value fails */
	} else if (s->feasible && t->nd == 1) {
		printf("margin:\n");
		print_margin(t, s->fail_below, "below");
		print_margin(t, s->fail_above, "above");
	} else if (s->feasible && s->fail_below >= 0) {
		printf("margin:\n");
		print_margin(t, s->fail_below, "near");
	}
	if (!s->monotone)
		printf("note:     a failing value above the answer: the constraints are not "
		       "monotone in the value (--minimize evaluates a grid)\n");
	printf("runs:     %zu point%s in %d round%s, %ld replays", s->n, s->n == 1 ? "" : "s",
	       s->rounds, s->rounds == 1 ? "" : "s", t->runs);
	if (t->o.db)
		printf(", stored in '%s'", t->o.db);
	printf("\n");
	order = tune_sorted_points(t);
	if (order)
		print_table(t, order);
	free(order);
}

static void json_point(struct json_out *j, const struct tune_cli *t, long idx, const char *key)
{
	const struct tune_point *p;
	double change;

	if (idx < 0) {
		json_out_null(j, key);
		return;
	}
	p = &t->search.pts[idx];
	json_out_begin_object(j, key);
	json_out_begin_object(j, "values");
	for (int d = 0; d < t->nd; d++)
		json_out_number(j, t->vary[d].key, tune_vary_value(&t->vary[d], p->k[d]));
	json_out_end_object(j);
	json_out_int(j, "round", p->round);
	json_out_bool(j, "feasible", p->feasible);
	if (t->moff)
		json_out_number(j, "objective", p->objective);
	else
		json_out_null(j, "objective");
	json_out_begin_array(j, "constraints");
	for (int c = 0; c < t->nr_cons; c++)
		for (int tr = 0; tr < t->o.nr_traces; tr++) {
			bool holds = tune_judge(t, (size_t)idx, c, tr, &change);
			json_out_begin_object(j, NULL);
			json_out_int(j, "constraint", c);
			json_out_string(j, "trace", t->o.traces[tr]);
			json_out_number(j, "value", tune_pt_val(t, (size_t)idx, tr, t->moff + c));
			if (t->cons[c].has_base)
				json_out_number(j, "base",
					    tune_base_val(t, t->cons[c].base_index, tr, t->moff + c));
			else
				json_out_null(j, "base");
			json_out_number(j, "change", change);
			json_out_bool(j, "holds", holds);
			json_out_end_object(j);
		}
	json_out_end_array(j);
	json_out_end_object(j);
}

static void print_json(const struct tune_cli *t)
{
	const struct tune_search *s = &t->search;
	struct json_out j;
	size_t *order = tune_sorted_points(t);

	json_out_init(&j, stdout);
	json_out_begin_object(&j, NULL);
	json_out_begin_array(&j, "vary");
	for (int d = 0; d < t->nd; d++) {
		json_out_begin_object(&j, NULL);
		json_out_string(&j, "spec", t->vary[d].text);
		json_out_string(&j, "key", t->vary[d].key);
		json_out_number(&j, "lo", t->vary[d].lo);
		json_out_number(&j, "hi", tune_vary_value(&t->vary[d], t->vary[d].nr - 1));
		json_out_number(&j, "step", t->vary[d].step);
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_string(&j, "goal", goal_name(t->goal));
	if (t->moff)
		json_out_string(&j, "objective", t->objective.text);
	else
		json_out_null(&j, "objective");
	json_out_begin_array(&j, "constraints");
	for (int c = 0; c < t->nr_cons; c++) {
		json_out_begin_object(&j, NULL);
		json_out_string(&j, "text", t->cons[c].text);
		json_out_string(&j, "metric", t->cons[c].metric.text);
		json_out_string(&j, "op", metric_op_text(t->cons[c].th.op));
		json_out_number(&j, "limit", t->cons[c].th.value);
		json_out_bool(&j, "relative", t->cons[c].th.relative);
		if (t->cons[c].has_base)
			json_out_string(&j, "baseline", t->cons[c].base.text);
		else
			json_out_null(&j, "baseline");
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_begin_array(&j, "traces");
	for (int tr = 0; tr < t->o.nr_traces; tr++)
		json_out_string(&j, NULL, t->o.traces[tr]);
	json_out_end_array(&j);
	json_out_bool(&j, "feasible", s->feasible);
	json_out_bool(&j, "monotone", s->monotone);
	json_point(&j, t, s->best, "answer");
	json_point(&j, t, s->fail_below, "fails_below");
	json_point(&j, t, s->fail_above, "fails_above");
	json_out_int(&j, "rounds", s->rounds);
	json_out_int(&j, "replays", t->runs);
	if (t->o.db)
		json_out_string(&j, "db", t->o.db);
	else
		json_out_null(&j, "db");
	json_out_begin_array(&j, "points");
	for (size_t i = 0; order && i < s->n; i++)
		json_point(&j, t, (long)order[i], NULL);
	json_out_end_array(&j);
	json_out_end_object(&j);
	fputc('\n', stdout);
	free(order);
}

int tune_print(struct tune_cli *t)
{
	int status;

	if (t->json)
		print_json(t);
	else
		print_text(t);
	if (t->plot && (status = tune_plot(t, t->plot)))
		return status;
	if (fflush(stdout) || ferror(stdout))
		return cli_fail(EXIT_FAILURE_RT, "stdout: write error");
	return t->search.feasible ? EXIT_OK : EXIT_FAILURE_RT;
}
