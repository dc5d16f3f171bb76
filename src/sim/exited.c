/*
 * exited.c - tasks that died during the replay, an observer (observer.h) every replay has: what
 * the results keep of them once the scheduler model frees their state.
 *
 * A trace of many short-lived pids (a build, a test suite, a shell loop) would otherwise hold
 * every task's scheduler state (~440 bytes) to the end. A task that switched out X or Z never
 * runs again, so all the results need of it is its pid, comm and runtime: 32 bytes here
 * (task_exit), added to struct run_result's tasks in pid order among the live ones
 * (finish_tasks, once the live tasks are in). Under work timing the work layer's measurements
 * of the task come too (work_task_exit(): its delays and activations, and the layer reuses the
 * task's entry), 104 bytes more. A pid used again after its task died is a new task, listed
 * after the dead one. The warm-up's end zeroes their runtime like the live tasks'.
 */
#include "sim/sim_priv.h"
#include "work/work.h"

#include <stdlib.h>
#include <string.h>

/* What the results keep of a task that died. */
struct exited_task {
	s32 pid;
	char comm[TASK_COMM_LEN];
	u32 seq; /* order of death */
	u64 runtime_ns;
};
/* And under work timing, its measurements (work_task_exit()), by order of death. */
struct exited_work {
	double delay_s, max_delay_s;
	struct run_activity act;
};

/* The observer's state. */
struct exited_list {
	struct exited_task *task;  /* the tasks whose state the scheduler model freed */
	struct exited_work *work;  /* work timing: cap of them, by seq */
	size_t nr, cap;
};

/* Room for one more; false when memory is short (the task is kept then: nothing is lost). */
static bool exited_reserve(struct exited_list *x, bool work)
{
	size_t cap;
	void *q;

	if (x->nr < x->cap)
		return true;
	cap = x->cap ? x->cap * 2 : 64;
	q = realloc(x->task, cap * sizeof(*x->task));
	if (!q)
		return false;
	x->task = q;
	if (work) {
		q = realloc(x->work, cap * sizeof(*x->work));
		if (!q)
			return false; /* x->task grew: harmless, cap did not */
		x->work = q;
	}
	x->cap = cap;
	return true;
}

static bool exited_task_exit(struct sim *s, void *state, struct task *p, u64 now)
{
	struct exited_list *x = state;
	const struct sim_task *st = sim_task_data(p);
	struct exited_task *e;

	(void)now;
	if (!st || !exited_reserve(x, s->work != NULL))
		return false;
	if (s->work) {
		struct exited_work *ew = &x->work[x->nr];
		if (!work_task_exit(s->work, p->pid, &ew->delay_s, &ew->max_delay_s, &ew->act))
			return false; /* not the task the work layer ends: keep it */
	}
	e = &x->task[x->nr];
	e->seq = (u32)x->nr++;
	e->pid = p->pid;
	memcpy(e->comm, p->comm, sizeof(e->comm));
	e->runtime_ns = st->runtime_ns; /* its last switch-out was just accounted */
	return true;
}

static void exited_warmup(struct sim *s, void *state, u64 t)
{
	struct exited_list *x = state;

	(void)s;
	(void)t;
	for (size_t i = 0; i < x->nr; i++)
		x->task[i].runtime_ns = 0;
}

/* By pid; a pid that died twice (reused) keeps its order of death. */
static int cmp_exited(const void *a, const void *b)
{
	const struct exited_task *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int exited_finish_tasks(struct sim *s, void *state, u64 end, struct run_result *r,
			       struct gs_error *err)
{
	struct exited_list *x = state;
	size_t n = (size_t)r->nr_tasks + x->nr, i = 0, k = 0, o = 0;
	const struct exited_task *e = x->task;
	struct run_task_result *all;

	(void)s;
	(void)end;
	if (!x->nr)
		return 0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	qsort(x->task, x->nr, sizeof(*x->task), cmp_exited);
	/* merge with the live tasks (already in pid order); on a tie the dead task first: its
	 * pid was reused after it died */
	while (i < x->nr || k < (size_t)r->nr_tasks) {
		if (i < x->nr && (k == (size_t)r->nr_tasks || e[i].pid <= r->tasks[k].pid)) {
			memset(&all[o], 0, sizeof(all[o]));
			all[o].pid = e[i].pid;
			memcpy(all[o].comm, e[i].comm, sizeof(e[i].comm));
			all[o].comm[sizeof(all[o].comm) - 1] = '\0';
			all[o].runtime_s = ns_to_s(e[i].runtime_ns);
			if (x->work) {
				const struct exited_work *ew = &x->work[e[i].seq];
				all[o].delay_s = ew->delay_s;
				all[o].max_delay_s = ew->max_delay_s;
				all[o].act = ew->act;
			}
			o++;
			i++;
		} else {
			all[o++] = r->tasks[k++];
		}
	}
	free(r->tasks);
	r->tasks = all;
	r->nr_tasks = (int)n;
	return 0;
}

static void exited_release(void *state)
{
	struct exited_list *x = state;

	if (!x)
		return;
	free(x->task);
	free(x->work);
	free(x);
}

int sim_exited_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_EXITED,
		.task_exit = exited_task_exit,
		.warmup = exited_warmup,
		.finish_tasks = exited_finish_tasks,
		.release = exited_release,
	};
	int ret;

	o.state = calloc(1, sizeof(struct exited_list));
	if (!o.state)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = sim_observers_add(&s->obs, &o, err);
	if (ret)
		exited_release(o.state);
	return ret;
}
