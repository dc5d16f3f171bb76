/*
 * exited.c - tasks that died during the replay: what the results keep of them once the
 * scheduler model frees their state (sched_hooks.task_exit).
 *
 * A trace of many short-lived pids (a build, a test suite, a shell loop) would otherwise hold
 * every task's scheduler state (~440 bytes) to the end. A task that switched out X or Z never
 * runs again, so all the results need of it is its pid, comm and runtime: 32 bytes here, given
 * to struct run_result by sim_collect_exited() in pid order among the live tasks. Under work
 * timing the work layer's measurements of the task come too (work_task_exit(): its delays and
 * activations, and the layer reuses the task's entry), 104 bytes more. A pid used again after
 * its task died is a new task, listed after the dead one.
 */
#include "sim/sim_priv.h"
#include "work/work.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more; false when memory is short (the task is kept then: nothing is lost). */
static bool exited_reserve(struct sim *s)
{
	size_t cap;
	void *q;

	if (s->nr_exited < s->cap_exited)
		return true;
	cap = s->cap_exited ? s->cap_exited * 2 : 64;
	q = realloc(s->exited, cap * sizeof(*s->exited));
	if (!q)
		return false;
	s->exited = q;
	if (s->work) {
		q = realloc(s->exited_work, cap * sizeof(*s->exited_work));
		if (!q)
			return false; /* s->exited grew: harmless, cap_exited did not */
		s->exited_work = q;
	}
	s->cap_exited = cap;
	return true;
}

bool sim_task_exit(void *ctx, struct task *p, u64 now_ns)
{
	struct sim *s = ctx;
	struct sim_task *st = p->owner_data;
	struct sim_exited *e;

	(void)now_ns;
	if (!st || !exited_reserve(s))
		return false;
	if (s->work) {
		struct sim_exited_work *ew = &s->exited_work[s->nr_exited];
		if (!work_task_exit(s->work, p->pid, &ew->delay_s, &ew->max_delay_s, &ew->act))
			return false; /* not the task the work layer ends: keep it */
	}
	e = &s->exited[s->nr_exited];
	e->seq = (u32)s->nr_exited++;
	e->pid = p->pid;
	memcpy(e->comm, p->comm, sizeof(e->comm));
	e->runtime_ns = st->runtime_ns; /* its last switch-out was just accounted */
	free(st);
	p->owner_data = NULL;
	return true;
}

void sim_exited_warmup_reset(struct sim *s)
{
	for (size_t i = 0; i < s->nr_exited; i++)
		s->exited[i].runtime_ns = 0;
}

/* By pid; a pid that died twice (reused) keeps its order of death. */
static int cmp_exited(const void *a, const void *b)
{
	const struct sim_exited *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int sim_collect_exited(struct sim *s, struct run_result *r)
{
	size_t n = (size_t)r->nr_tasks + s->nr_exited, i = 0, k = 0, o = 0;
	const struct sim_exited *e = s->exited;
	struct run_task_result *all;

	if (!s->nr_exited)
		return 0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return GS_ENOMEM;
	qsort(s->exited, s->nr_exited, sizeof(*s->exited), cmp_exited);
	/* merge with the live tasks (already in pid order); on a tie the dead task first: its
	 * pid was reused after it died */
	while (i < s->nr_exited || k < (size_t)r->nr_tasks) {
		if (i < s->nr_exited && (k == (size_t)r->nr_tasks || e[i].pid <= r->tasks[k].pid)) {
			memset(&all[o], 0, sizeof(all[o]));
			all[o].pid = e[i].pid;
			memcpy(all[o].comm, e[i].comm, sizeof(e[i].comm));
			all[o].comm[sizeof(all[o].comm) - 1] = '\0';
			all[o].runtime_s = ns_to_s(e[i].runtime_ns);
			if (s->exited_work) {
				const struct sim_exited_work *ew = &s->exited_work[e[i].seq];
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
