/* summary.c - the 80-column run summary; see summary.h. */
#include "report/summary.h"

#include "report/placement.h"
#include "report/kernel_overhead.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define BAR_WIDTH 30

double report_total_delay(const struct run_result *r, const struct run_task_result **worst)
{
	double total = 0;
	const struct run_task_result *w = NULL;

	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];
		total += t->delay_s;
		if (t->max_delay_s > 0 && (!w || t->max_delay_s > w->max_delay_s))
			w = t;
	}
	if (worst)
		*worst = w;
	return total;
}

double report_position(double x, double lo, double hi)
{
	if (hi == lo)
		return NAN;
	return 100.0 * (x - lo) / (hi - lo);
}

static void print_bar(FILE *out, double share)
{
	int n = (int)lround(share * BAR_WIDTH);
	if (n < 0)
		n = 0;
	if (n > BAR_WIDTH)
		n = BAR_WIDTH;
	for (int i = 0; i < n; i++)
		fputc('#', out);
}

static void print_policy(FILE *out, const struct run_result *r, const struct run_policy_result *p)
{
	double total = 0;

	for (int k = 0; k < p->nr_opps; k++)
		total += p->residency_s[k];
	if (isnan(p->avg_freq_khz))
		fprintf(out, "policy%d: no activity", p->policy);
	else
		fprintf(out, "policy%d: avg %.1f MHz", p->policy, p->avg_freq_khz / 1000.0);
	fprintf(out, ", %" PRIu64 " transition%s, busy %.3f s", p->transitions,
		p->transitions == 1 ? "" : "s", p->busy_s);
	if (p->overutilized_s > 0)
		fprintf(out, ", overutilized %.3f s", p->overutilized_s);
	fputc('\n', out);
	fprintf(out, "  %9s %10s %7s\n", "kHz", "time (s)", "share");
	for (int k = 0; k < p->nr_opps; k++) {
		double share = total > 0 ? p->residency_s[k] / total : 0;
		fprintf(out, "  %9u %10.4f %6.1f%% ", p->freq_khz[k], p->residency_s[k],
			100.0 * share);
		print_bar(out, share);
		fputc('\n', out);
	}
	(void)r;
}

static void print_dist(FILE *out, const char *name, const struct run_dist *d)
{
	fprintf(out, "  %-9s mean %10.6f s, p95 %10.6f s, max %10.6f s\n", name, d->mean_s, d->p95_s,
		d->max_s);
}

/* Work timing's performance figures (core/result.h struct run_activity). */
static void print_activity(FILE *out, const struct run_activity *a)
{
	if (!a->activations) {
		fprintf(out, "activations: none (no completed wakeup of a workload task)\n");
		return;
	}
	fprintf(out, "activations: %" PRIu64 ", throughput %.3f /s (wakeup to the next sleep)\n",
		a->activations, a->throughput);
	print_dist(out, "latency", &a->latency);
	print_dist(out, "response", &a->response);
	print_dist(out, "lateness", &a->lateness);
}

/* One baseline line: lo .. hi and where x falls, or why it cannot be placed. */
static void print_baseline(FILE *out, const char *name, const char *unit, double x, double lo,
			   double hi)
{
	double p = report_position(x, lo, hi);

	fprintf(out, "  %-13s %12.6f .. %12.6f %-2s", name, lo, hi, unit);
	if (isnan(p))
		fprintf(out, " degenerate: powersave and performance give the same\n");
	else
		fprintf(out, " this run at %6.1f%%\n", p);
}

/* One action and how many tasks it reached: "  setattr comm=x uclamp_min=5   (2 tasks)". */
static void print_action(FILE *out, const struct run_action_result *a)
{
	fprintf(out, "  %s", a->text);
	if (!a->ran) {
		fprintf(out, "   (after the trace's end: not run)\n");
		return;
	}
	if (a->selects_tasks) {
		fprintf(out, "   (%u task%s", a->matched, a->matched == 1 ? "" : "s");
		if (a->matched_later)
			fprintf(out, ", %u first seen later", a->matched_later);
		if (a->rejected)
			fprintf(out, ", %u rejected", a->rejected);
		fputc(')', out);
	}
	fputc('\n', out);
}

/* The notes, one a line: r->notes separates them with "; ". */
static void print_notes(FILE *out, const char *notes)
{
	const char *p = notes;

	while (*p) {
		const char *sep = strstr(p, "; ");
		int len = sep ? (int)(sep - p) : (int)strlen(p);
		fprintf(out, "note:     %.*s\n", len, p);
		p += len + (sep ? 2 : 0);
	}
}

void report_summary(FILE *out, const struct run_result *r, const struct summary_baselines *b)
{
	const struct run_task_result *worst;
	double delay = report_total_delay(r, &worst);
	const char *unit = r->power_unit[0] ? r->power_unit : "J";
	bool joules = strcmp(unit, "J") == 0;

	fprintf(out, "govsim %s, kernel profile %s\n", r->govsim_version, r->kernel);
	fprintf(out, "trace:    %s\n", r->trace);
	if (fabs(r->span_s - r->traced_span_s) < 5e-7 || r->traced_span_s <= 0)
		fprintf(out, "          %.6f s from %.6f, %" PRIu64 " events\n", r->span_s,
			r->start_s, r->events);
	else /* the replay's work ended before or after the trace's last event */
		fprintf(out,
			"          %.6f s traced, %.6f s replayed (stretch %.3f) from %.6f, %" PRIu64
			" events\n",
			r->traced_span_s, r->span_s, r->stretch, r->start_s, r->events);
	fprintf(out, "platform: %s, governor %s, timing %s, util %s, power %s\n", r->platform,
		r->governor, r->timing, r->util_source, r->power_model);
	if (r->params[0])
		fprintf(out, "set:      %s\n", r->params);
	if (r->nr_actions) {
		fprintf(out, "policy:\n");
		for (int i = 0; i < r->nr_actions; i++)
			print_action(out, &r->actions[i]);
	} else if (r->policy[0]) {
		const char *line = r->policy;
		fprintf(out, "policy:\n");
		while (*line) {
			const char *nl = strchr(line, '\n');
			int len = nl ? (int)(nl - line) : (int)strlen(line);
			fprintf(out, "  %.*s\n", len, line);
			line += len + (nl ? 1 : 0);
		}
	}
	print_notes(out, r->notes);
	fputc('\n', out);

	for (int c = 0; c < r->nr_clusters; c++) {
		print_policy(out, r, &r->pol[c]);
		fputc('\n', out);
	}

	fprintf(out, "energy (%s%s):\n", r->power_model,
		joules ? ", J" : ", model units x s / 1000");
	for (int c = 0; c < r->nr_clusters; c++)
		fprintf(out, "  cluster%d (policy%d) %12.6f\n", c, r->pol[c].policy,
			r->energy_cluster[c]);
	fprintf(out, "  total              %12.6f", r->energy_total);
	if (r->span_s > 0)
		fprintf(out, "   avg power %.3f %s", r->energy_total / r->span_s,
			joules ? "W" : "units");
	fprintf(out, "\n\n");

	if (strcmp(r->timing, "work") == 0)
		print_activity(out, &r->act_total);
	/* each slice's end, emulated minus traced, added over slices: not time lost */
	fprintf(out, "tasks: %d, slice lateness summed %.6f s", r->nr_tasks, delay);
	if (worst)
		fprintf(out, ", worst slice %.6f s (%s %d)", worst->max_delay_s, worst->comm,
			worst->pid);
	fputc('\n', out);
	report_placement_summary(out, r);

	fprintf(out, "uclamp: static key %s", r->key_on ? "on" : "off");
	if (r->key_on)
		fprintf(out, " since %.6f s", r->key_on_at_s);
	fprintf(out, ", aggregations run %" PRIu64 ", skipped %" PRIu64 "\n", r->agg_ops,
		r->agg_skipped);
	fprintf(out, "        clamped up %.6f s, down %.6f s (CPU time)\n", r->clamped_up_s,
		r->clamped_down_s);
	kernel_overhead_print(out, r);

	if (b && b->present) {
		fprintf(out, "\nbaselines (powersave = 0%%, performance = 100%%):\n");
		print_baseline(out, "energy", joules ? "J" : "", r->energy_total,
			       b->powersave_energy, b->performance_energy);
		if (strcmp(r->timing, "work") == 0)
			print_baseline(out, "response p95", "s", r->act_total.response.p95_s,
				       b->powersave_response_p95_s, b->performance_response_p95_s);
		else
			fprintf(out, "  response p95  needs work timing (traced timing keeps the "
				     "trace's times)\n");
	}
}
