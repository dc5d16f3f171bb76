/* placement.c - a run's task placement figures as text and JSON; see placement.h. */
#include "report/placement.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PLACEMENT_TOP_TASKS 10

bool report_placement_on(const struct run_result *r)
{
	return strcmp(r->placement, "eas") == 0;
}

static int cmp_runtime(const void *a, const void *b)
{
	const struct run_task_result *x = *(const struct run_task_result *const *)a;
	const struct run_task_result *y = *(const struct run_task_result *const *)b;

	if (x->runtime_s != y->runtime_s)
		return x->runtime_s < y->runtime_s ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static double share(const struct run_task_result *t, int c)
{
	return t->runtime_s > 0 ? 100.0 * t->cluster_runtime_s[c] / t->runtime_s : 0;
}

void report_placement_summary(FILE *out, const struct run_result *r)
{
	const struct run_task_result **v;
	int n = 0;

	if (!report_placement_on(r))
		return;
	fprintf(out,
		"placement eas: %" PRIu64 " wakeups placed, %" PRIu64 " migrations (%" PRIu64
		" misfit pulls), overutilized %.6f s\n",
		r->placement_wakeups, r->placement_migrations, r->misfit_pulls,
		r->rd_overutilized_s);
	v = malloc((size_t)(r->nr_tasks ? r->nr_tasks : 1) * sizeof(*v));
	if (!v)
		return;
	for (int i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].runtime_s > 0)
			v[n++] = &r->tasks[i];
	qsort(v, (size_t)n, sizeof(*v), cmp_runtime);
	fprintf(out, "  %-16s %7s %10s", "task", "pid", "runtime s");
	for (int c = 0; c < r->nr_clusters; c++)
		fprintf(out, "  cluster%d", c);
	fprintf(out, "  migrations\n");
	for (int i = 0; i < n && i < PLACEMENT_TOP_TASKS; i++) {
		fprintf(out, "  %-16s %7d %10.6f", v[i]->comm, v[i]->pid, v[i]->runtime_s);
		for (int c = 0; c < r->nr_clusters; c++)
			fprintf(out, "  %7.1f%%", share(v[i], c));
		fprintf(out, "  %10" PRIu64 "\n", v[i]->migrations);
	}
	if (n > PLACEMENT_TOP_TASKS)
		fprintf(out, "  (%d more tasks in --json)\n", n - PLACEMENT_TOP_TASKS);
	free(v);
}

void report_placement_json(struct json_out *j, const struct run_result *r)
{
	if (!report_placement_on(r))
		return;
	json_out_begin_object(j, "placement");
	json_out_string(j, "mode", r->placement);
	json_out_int(j, "wakeups_placed", (long long)r->placement_wakeups);
	json_out_int(j, "migrations", (long long)r->placement_migrations);
	json_out_int(j, "misfit_pulls", (long long)r->misfit_pulls);
	json_out_number(j, "overutilized_s", r->rd_overutilized_s);
	json_out_begin_array(j, "tasks");
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];

		json_out_begin_object(j, NULL);
		json_out_int(j, "pid", t->pid);
		json_out_string(j, "comm", t->comm);
		json_out_number(j, "runtime_s", t->runtime_s);
		json_out_begin_array(j, "cluster_runtime_s");
		for (int c = 0; c < r->nr_clusters; c++)
			json_out_number(j, NULL, t->cluster_runtime_s[c]);
		json_out_end_array(j);
		json_out_int(j, "migrations", (long long)t->migrations);
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_out_end_object(j);
}
