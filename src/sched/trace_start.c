/*
 * trace_start.c - govsim's --seed-util (not a kernel mirror): tasks and root cfs_rqs that start
 * from the util the trace's own PELT events report (sched_pelt_se/cfs, sched_load_*, util_est)
 * instead of zero. In src/sched "seed" means only this: the averages a task or runqueue starts
 * from, read from the trace (start_from_trace_util, n->seed, rq->blocked_seed); the
 * generator's PRNG seed is gen/'s prng_seed. The seeded averages are attached as the kernel's
 * attach_entity_load_avg() would attach an se's averages (fair.c); the rq's blocked part is
 * one extra blocked entity.
 * Why: a trace starts mid-life; without seeds every signal would ramp from 0 for ~100 ms.
 */
#include "sched/sched_priv.h"

#include <string.h>

#include "pelt_tables.h"

/* A seeded task was part of its CPU's seeded blocked util: move its share out of that
 * blocked entity (decayed to the cfs_rq's time) before it attaches on its own. */
void absorb_blocked_seed(struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_avg *b = &rq->blocked_seed;
	u32 divider = get_pelt_divider(&cfs->avg);
	unsigned long take_util, take_runnable, take_load;

	__update_load_avg_blocked_se(cfs->avg.last_update_time, b, TASK_SE_WEIGHT);
	take_util = p->avg.util_avg < b->util_avg ? p->avg.util_avg : b->util_avg;
	take_runnable = p->avg.runnable_avg < b->runnable_avg ? p->avg.runnable_avg : b->runnable_avg;
	take_load = p->avg.load_avg < b->load_avg ? p->avg.load_avg : b->load_avg;
	b->util_avg -= take_util;
	b->runnable_avg -= take_runnable;
	b->load_avg -= take_load;
	se_sums_from_avgs(b, divider, TASK_SE_WEIGHT);
	sub_positive_ul(&cfs->avg.util_avg, take_util);
	sub_positive_u32(&cfs->avg.util_sum, (u32)(take_util * divider));
	sub_positive_ul(&cfs->avg.runnable_avg, take_runnable);
	sub_positive_u64(&cfs->avg.runnable_sum, (u64)take_runnable * divider);
	sub_positive_ul(&cfs->avg.load_avg, take_load);
	sub_positive_u64(&cfs->avg.load_sum, (u64)take_load * divider);
}


/*
 * start_from_trace_util: the root cfs_rq's util from the trace (sched_pelt_cfs /
 * sched_load_cfs_rq with path=/, sched_load_avg_cpu) before the CPU's first scheduling event:
 * the kernel's cfs_rq carried the blocked util of every task that ran there before the trace.
 * It is attached as one blocked entity that decays like any other; seeded tasks take their
 * share out of it when they attach (absorb_blocked_seed), so nothing is counted twice.
 */
int start_rq_from_trace_util(struct sched *s, const struct event *ev, u64 now)
{
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	struct rq *rq;
	struct cfs_rq *cfs;
	struct sched_avg *b;
	u32 divider;

	if (ev->type != EV_LOAD_AVG_CPU && ev->type != EV_START_CFS &&
	    ev->util.path != EV_PATH_ROOT)
		return 0;
	if (cpu < 0 || cpu >= s->cfg.nr_cpus || ev->util.util == EV_NO_VALUE)
		return 0;
	rq = &s->rq[cpu];
	if (rq->seen || rq->has_blocked_seed)
		return 0;
	cfs = &rq->cfs;
	update_rq_clock(rq, now);
	update_cfs_rq_load_avg(rq_clock_pelt(&rq->clock), cfs, &rq->pv);
	if (!cfs->avg.last_update_time)
		pelt_start_on_grid(&cfs->avg, rq_clock_pelt(&rq->clock));
	divider = get_pelt_divider(&cfs->avg);
	b = &rq->blocked_seed;
	memset(b, 0, sizeof(*b));
	b->util_avg = (unsigned long)gs_min_u64(ev->util.util, SCHED_CAPACITY_SCALE);
	b->runnable_avg = ev->util.runnable != EV_NO_VALUE
				  ? (unsigned long)gs_min_u64(ev->util.runnable, SCHED_CAPACITY_SCALE)
				  : b->util_avg;
	b->load_avg = ev->util.load != EV_NO_VALUE ? (unsigned long)ev->util.load : b->runnable_avg;
	b->last_update_time = cfs->avg.last_update_time;
	b->period_contrib = cfs->avg.period_contrib;
	se_sums_from_avgs(b, divider, TASK_SE_WEIGHT);
	cfs->avg.util_avg += b->util_avg;
	cfs->avg.util_sum += b->util_sum;
	cfs->avg.runnable_avg += b->runnable_avg;
	cfs->avg.runnable_sum += b->runnable_sum;
	cfs->avg.load_avg += b->load_avg;
	cfs->avg.load_sum += TASK_SE_WEIGHT * b->load_sum;
	rq->has_blocked_seed = true;
	s->stats.seeded_rqs++;
	return 0;
}

/* start_from_trace_util: per-task util events before the task's first scheduling event. */
int start_task_from_trace_util(struct sched *s, const struct event *ev, struct gs_error *err)
{
	struct task_node *n;
	struct sched_avg *sa;
	u64 util = ev->util.util;

	if (ev->util.pid <= 0 || ev->util.path != EV_PATH_NONE)
		return 0;
	n = node_find(s, ev->util.pid);
	if (n && n->started)
		return 0;
	n = node_get(s, ev->util.pid, ev->util.comm, 0); /* not started: no rename hook */
	if (!n)
		return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
	sa = &n->seed;
	if (ev->type == EV_UTIL_EST_SE) {
		if (ev->util.util_est_enqueued != EV_NO_VALUE)
			sa->util_est.enqueued = (unsigned int)ev->util.util_est_enqueued;
		if (ev->util.util_est_ewma != EV_NO_VALUE)
			sa->util_est.ewma = (unsigned int)ev->util.util_est_ewma;
		n->seeded = true;
		return 0;
	}
	if (util == EV_NO_VALUE)
		return 0;
	sa->util_avg = (unsigned long)gs_min_u64(util, SCHED_CAPACITY_SCALE);
	sa->runnable_avg = ev->util.runnable != EV_NO_VALUE ? (unsigned long)ev->util.runnable
							    : sa->util_avg;
	sa->load_avg = ev->util.load != EV_NO_VALUE ? (unsigned long)ev->util.load
						    : sa->runnable_avg;
	n->seeded = true;
	return 0;
}

/*
 * The lab's snapshot of a task (EV_START_SE: /proc/PID/sched's se.avg as tracing started,
 * tools/lab/init): the averages, the util_est and when the kernel last updated them
 * (update_time, already on the replay's clock: the kernel's PELT clock plus the CPU's
 * rq_clock_offset_ns). The task starts from them decayed as blocked to its first event
 * (task_start(): the kernel decays a sleeping se the same way at its next update). The sums
 * are rebuilt as avg * divider with the period_contrib of the last update's instant, whose
 * period boundaries the replay's PELT clock shares with the kernel's (pelt_clock.phase). A
 * task whose first events came before the snapshot's marker and that sleeps on that CPU
 * takes the snapshot in place of what the replay built (replace_blocked_from_snapshot()).
 */
int start_task_from_snapshot(struct sched *s, const struct event *ev, struct gs_error *err)
{
	struct task_node *n;
	struct sched_avg snap, *sa;
	struct rq *rq;
	u32 divider;

	if (ev->util.pid <= 0 || ev->util.cpu < 0 || ev->util.cpu >= s->cfg.nr_cpus)
		return 0;
	n = node_find(s, ev->util.pid);
	if (n && n->started && (n->t.cpu != ev->util.cpu || n->t.class != SCHED_CLASS_CFS ||
				n->t.is_governor))
		return 0;
	if (!n && !(n = node_new(s, ev->util.pid, ev->util.comm)))
		return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
	rq = &s->rq[ev->util.cpu];
	sa = n->started ? &snap : &n->seed;
	memset(sa, 0, sizeof(*sa));
	sa->last_update_time = ev->util.update_time + rq->clock.phase;
	sa->period_contrib = (u32)((sa->last_update_time >> 10) & 1023);
	divider = get_pelt_divider(sa);
	sa->util_avg = (unsigned long)gs_min_u64(ev->util.util, SCHED_CAPACITY_SCALE);
	sa->runnable_avg = (unsigned long)gs_min_u64(ev->util.runnable, SCHED_CAPACITY_SCALE);
	sa->load_avg = (unsigned long)ev->util.load;
	/* the task's weight where it has one already; else nice 0 until task_start() */
	se_sums_from_avgs(sa, divider, n->started ? n->t.weight : TASK_SE_WEIGHT);
	sa->util_est.enqueued = (unsigned int)ev->util.util_est_enqueued;
	sa->util_est.ewma = ev->util.util_est_ewma != EV_NO_VALUE
				    ? (unsigned int)ev->util.util_est_ewma
				    : sa->util_est.enqueued;
	if (n->started) {
		if (replace_blocked_from_snapshot(rq, &n->t, &snap)) {
			n->t.avg.util_est = snap.util_est;
			s->stats.seeded++;
		}
		return 0;
	}
	n->seeded = true;
	n->seed_dated = true;
	return 0;
}
