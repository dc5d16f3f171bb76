/*
 * placement_plot.c - report's per-CPU placement timeline of a --placement eas run: which task
 * ran on which CPU over time. One row per CPU (y = the CPU number); each
 * slice of run_result.slices is one horizontal segment on its CPU's row from its start to its
 * end, in its task's colour, so a migration shows as the task's colour moving to another row.
 * The PLOT_PALETTE_SIZE - 1 tasks of most runtime have a series each (named comm-pid), the
 * others share one thin "other tasks" series. A series holds three points per slice: (start,
 * cpu), (end, cpu) and a gap (y NAN), so its drawn segments are exactly its slices, each a
 * block at least 3 px long (PLOT_F_SEGMENTS): a slice of microseconds stays visible.
 */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMED_TASKS (PLOT_PALETTE_SIZE - 1)

struct pid_time {
	s32 pid;
	double runtime_s;
	int series; /* index among the named series, NAMED_TASKS: other tasks */
};

static int cmp_pid(const void *a, const void *b)
{
	const struct pid_time *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_runtime_desc(const void *a, const void *b)
{
	const struct pid_time *x = a, *y = b;
	if (x->runtime_s != y->runtime_s)
		return x->runtime_s < y->runtime_s ? 1 : -1;
	return cmp_pid(a, b);
}

/* The distinct pids of the slices with their runtime, sorted by pid, series assigned by
 * runtime; *n of them. NULL when out of memory. */
static struct pid_time *pid_table(const struct run_result *r, size_t *n)
{
	struct pid_time *t = calloc(r->nr_slices, sizeof(*t));
	size_t k = 0;

	if (!t)
		return NULL;
	for (size_t i = 0; i < r->nr_slices; i++) {
		t[i].pid = r->slices[i].pid;
		t[i].runtime_s = r->slices[i].end_s - r->slices[i].start_s;
	}
	qsort(t, r->nr_slices, sizeof(*t), cmp_pid);
	for (size_t i = 0; i < r->nr_slices; i++) {
		if (k && t[k - 1].pid == t[i].pid)
			t[k - 1].runtime_s += t[i].runtime_s;
		else
			t[k++] = t[i];
	}
	qsort(t, k, sizeof(*t), cmp_runtime_desc);
	for (size_t i = 0; i < k; i++)
		t[i].series = i < NAMED_TASKS ? (int)i : NAMED_TASKS;
	qsort(t, k, sizeof(*t), cmp_pid);
	*n = k;
	return t;
}

static void task_name(char *buf, size_t size, const struct run_result *r, s32 pid)
{
	for (int i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].pid == pid) {
			snprintf(buf, size, "%s-%d", r->tasks[i].comm, (int)pid);
			return;
		}
	snprintf(buf, size, "pid %d", (int)pid);
}

/* Series `series` (a named task's, or NAMED_TASKS: the others) into pl; 0 or < 0. */
static int add_task_series(struct plot *pl, int panel, const struct run_result *r,
			   const struct pid_time *t, size_t nt, int series, double *x, double *y)
{
	size_t n = 0;
	s32 pid = 0;
	char name[PLOT_NAME_MAX];

	for (size_t i = 0; i < r->nr_slices; i++) {
		struct pid_time key = { .pid = r->slices[i].pid };
		const struct pid_time *f = bsearch(&key, t, nt, sizeof(*t), cmp_pid);

		if (!f || f->series != series)
			continue;
		pid = f->pid;
		x[n] = r->slices[i].start_s;
		y[n++] = r->slices[i].cpu;
		x[n] = r->slices[i].end_s;
		y[n++] = r->slices[i].cpu;
		x[n] = r->slices[i].end_s;
		y[n++] = NAN;
	}
	if (!n)
		return 0;
	if (series == NAMED_TASKS)
		snprintf(name, sizeof(name), "other tasks");
	else
		task_name(name, sizeof(name), r, pid);
	return plot_add_series(pl, panel, name, PLOT_LINE,
			       PLOT_F_SEGMENTS | (series == NAMED_TASKS ? PLOT_F_THIN : 0), series,
			       x, y, n);
}

struct plot *report_placement_plot(const struct run_result *r, s64 run_id)
{
	char title[512];
	struct pid_time *t = NULL;
	double *x = NULL, *y = NULL;
	size_t nt = 0;
	struct plot *pl = NULL;
	int panel, ok = 0;

	if (!r->nr_slices || !r->slices)
		return NULL;
	if (r->label[0])
		snprintf(title, sizeof(title), "%lld: %s \xc2\xb7 placement", (long long)run_id,
			 r->label);
	else
		snprintf(title, sizeof(title), "run %lld \xc2\xb7 placement", (long long)run_id);
	pl = plot_new(title, "which task ran on which CPU (--placement eas; a migration moves a "
			     "colour to another row)");
	t = pid_table(r, &nt);
	x = malloc(3 * r->nr_slices * sizeof(*x));
	y = malloc(3 * r->nr_slices * sizeof(*y));
	if (!pl || !t || !x || !y)
		goto out;
	panel = plot_add_panel(pl, PLOT_PANEL_XY, NULL);
	plot_set_axis(pl, panel, PLOT_AXIS_X, "time since the replay start (s)", 0,
		      r->span_s > 0 ? r->span_s : NAN, 0);
	plot_set_axis(pl, panel, PLOT_AXIS_Y, "CPU", -0.5, r->nr_cpus - 0.5, 1);
	for (int k = 0; k <= NAMED_TASKS; k++)
		if (add_task_series(pl, panel, r, t, nt, k, x, y) < 0)
			goto out;
	ok = 1;
out:
	free(t);
	free(x);
	free(y);
	if (!ok) {
		plot_free(pl);
		return NULL;
	}
	return pl;
}
