/*
 * exited.c - tasks that died during the replay: what the results keep of them once the
 * scheduler model frees their state (sched_hooks.task_exit; issue 18 item 12).
 *
 * A trace of many short-lived pids (a build, a test suite, a shell loop) used to hold every
 * task's scheduler state (~440 bytes) to the end. A task that switched out X or Z never runs
 * again, so all the results need of it is its pid, comm and runtime: 32 bytes here, given to
 * struct run_result by sim_collect_exited() in pid order among the live tasks, as before.
 * Work timing (--timing work) keeps every task: its per-task delays are read at the end.
 */
#include "sim/sim_priv.h"

#include <stdlib.h>
#include <string.h>

bool sim_task_exit(void *ctx, struct task *p, u64 now_ns)
{
	struct sim *s = ctx;
	struct sim_task *st = p->owner_data;
	struct sim_exited *e;

	(void)now_ns;
	if (s->work || !st)
		return false;
	if (s->nr_exited == s->cap_exited) {
		size_t cap = s->cap_exited ? s->cap_exited * 2 : 64;
		void *q = realloc(s->exited, cap * sizeof(*s->exited));

		if (!q)
			return false; /* keep the task: nothing is lost */
		s->exited = q;
		s->cap_exited = cap;
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
			all[o++].runtime_s = ns_to_s(e[i++].runtime_ns);
		} else {
			all[o++] = r->tasks[k++];
		}
	}
	free(r->tasks);
	r->tasks = all;
	r->nr_tasks = (int)n;
	return 0;
}
