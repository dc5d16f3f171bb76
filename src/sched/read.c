/*
 * read.c - what the replay reads of the scheduler model: a CPU's signals as schedutil and the
 * validation read them (cpu_util_cfs() and friends, kernel/sched/sched.h and fair.c, v5.9 to
 * 7.2), the root cfs_rq's and a task's averages as an update at a given time would leave them
 * (computed on copies: reading changes nothing), and the task table.
 */
#include "sched/sched_priv.h"

#include <stdlib.h>

void sched_get_stats(const struct sched *s, struct sched_stats *out)
{
	*out = s->stats;
}

/* rq->nr_running: the CPU's runnable tasks of the modelled classes, the running one included */
unsigned int sched_cpu_nr_running(const struct sched *s, int cpu)
{
	const struct rq *rq;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return 0;
	rq = &s->rq[cpu];
	return rq->cfs.h_nr_running + rq->rt_nr_running + rq->dl_nr_running;
}

void sched_cpu_util(const struct sched *s, int cpu, struct sched_cpu_util *out)
{
	const struct rq *rq;
	unsigned long util_avg, util_est;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus) {
		*out = (struct sched_cpu_util){0};
		return;
	}
	rq = &s->rq[cpu];
	util_avg = rq->cfs.avg.util_avg;
	util_est = rq->cfs.avg.util_est.enqueued;
	/* one designated initialiser: a field added to the struct cannot be left unset (and GCC
	 * stores the fields instead of a rep stos of the whole struct first) */
	*out = (struct sched_cpu_util){
		.util_avg = util_avg,
		.util_est_enqueued = util_est,
		.util_cfs = util_avg > util_est ? util_avg : util_est,
		.runnable_avg = rq->cfs.avg.runnable_avg,
		.load_avg = rq->cfs.avg.load_avg,
		.util_rt = rq->avg_rt.util_avg,
		.util_dl = rq->avg_dl.util_avg,
		.bw_dl = sched_cpu_bw_dl(s, cpu),
		.util_irq = 0,
		.rt_runnable = rq->rt_nr_running > 0,
		.capacity = rq->cpu_capacity,
		.busy = rq->curr != NULL,
		.idle_calls = rq->idle_calls,
	};
}

/* The root cfs_rq's averages as update_cfs_rq_load_avg() at now_ns would leave them, on a copy. */
static struct sched_avg cfs_avg_at(const struct sched *s, int cpu, u64 now_ns)
{
	struct rq rq = s->rq[cpu];

	update_rq_clock(&rq, now_ns);
	update_cfs_rq_load_avg(rq_clock_pelt(&rq.clock), &rq.cfs, &rq.pv);
	return rq.cfs.avg;
}

/* rq->avg_rt as update_rt_rq_load_avg() at now_ns would leave it, on a copy: running while the
 * CPU runs an RT task (the update of put_prev_task_rt() or task_tick_rt() then). */
unsigned long sched_cpu_util_rt_at(const struct sched *s, int cpu, u64 now_ns)
{
	struct rq rq;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return 0;
	rq = s->rq[cpu];
	update_rq_clock(&rq, now_ns);
	update_rt_rq_load_avg(rq_clock_pelt(&rq.clock), &rq.avg_rt,
			      rq.curr && rq.curr->class == SCHED_CLASS_RT, &rq.pv);
	return rq.avg_rt.util_avg;
}

unsigned long sched_cpu_util_avg_at(const struct sched *s, int cpu, u64 now_ns)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return 0;
	return cfs_avg_at(s, cpu, now_ns).util_avg;
}

unsigned long sched_cpu_runnable_avg_at(const struct sched *s, int cpu, u64 now_ns)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return 0;
	return cfs_avg_at(s, cpu, now_ns).runnable_avg;
}

unsigned long sched_cpu_load_avg_at(const struct sched *s, int cpu, u64 now_ns)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return 0;
	return cfs_avg_at(s, cpu, now_ns).load_avg;
}

bool sched_task_eevdf(const struct sched *s, const struct task *p, s64 *vlag_ns, bool *delayed)
{
	const struct eevdf_se *se = &((const struct task_node *)p)->ev; /* as task_delayed() */

	if (!s->eevdf)
		return false;
	*vlag_ns = se->vlag;
	*delayed = se->delayed;
	return true;
}

/* update_load_avg()'s first step on a copy of the task's se: running, runnable or blocked, at
 * its CPU's PELT clock; a task never attached (no last_update_time) keeps its value. */
unsigned long sched_task_util_avg_at(const struct sched *s, const struct task *p, u64 now_ns)
{
	struct sched_avg avg = p->avg;
	struct rq rq;

	if (p->cpu < 0 || p->cpu >= s->cfg.nr_cpus || !avg.last_update_time)
		return avg.util_avg;
	rq = s->rq[p->cpu];
	update_rq_clock(&rq, now_ns);
	__update_load_avg_se(rq_clock_pelt(&rq.clock), &avg, p->weight,
			     se_on_rq(p), p->on_rq, rq.cfs.curr == p, &rq.pv);
	return avg.util_avg;
}

/* cpu_bw_dl(): running_bw * SCHED_CAPACITY_SCALE >> BW_SHIFT. A DL task's bandwidth is unknown
 * (0, see the conventions at the top); the fair server's (v6.12+) is to_ratio(1 s, 50 ms) =
 * 52428, 51 of 1024, once started (deadline.c dl_server_start()). */
#define FAIR_SERVER_BW ((((50ULL << 20) / 1000) * SCHED_CAPACITY_SCALE) >> 20)

unsigned long sched_cpu_bw_dl(const struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus || !s->rq[cpu].fair_server_active)
		return 0;
	return (unsigned long)FAIR_SERVER_BW;
}

struct task *sched_cpu_curr(const struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return NULL;
	return s->rq[cpu].curr;
}

u64 sched_busy_mask(const struct sched *s)
{
	return s->busy_mask;
}

struct task *sched_task_find(const struct sched *s, s32 pid)
{
	struct task_node *n = node_find(s, pid);

	return n && n->started ? &n->t : NULL;
}

static int cmp_pid(const void *a, const void *b)
{
	s32 x = (*(struct task_node *const *)a)->t.pid;
	s32 y = (*(struct task_node *const *)b)->t.pid;

	return (x > y) - (x < y);
}

void sched_for_each_task(struct sched *s, void (*fn)(void *ctx, struct task *p), void *ctx)
{
	struct task_node **v = malloc((s->nr_nodes ? s->nr_nodes : 1) * sizeof(*v));
	size_t nv = 0;

	for (size_t i = 0; i < s->nr_nodes; i++) {
		struct task_node *n = &s->chunks[i / TASK_CHUNK][i % TASK_CHUNK];

		if (!n->started)
			continue;
		if (v)
			v[nv++] = n;
		else
			fn(ctx, &n->t); /* no memory to sort: creation order */
	}
	if (!v)
		return;
	qsort(v, nv, sizeof(*v), cmp_pid);
	for (size_t i = 0; i < nv; i++)
		fn(ctx, &v[i]->t);
	free(v);
}
