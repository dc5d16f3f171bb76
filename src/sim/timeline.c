/*
 * timeline.c - the rows a replay reports as it goes (core/timeline.h): each built once and
 * written to the --timeline / --task-timeline CSVs and handed to the run's other sink (the
 * --perfetto writer), so that every output shows the same values.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <stdio.h>

#include "sched/sched.h"

_Static_assert((int)TL_TASK_WAKEUP == (int)TASK_EV_WAKEUP &&
		       (int)TL_TASK_SWITCH_IN == (int)TASK_EV_SWITCH_IN &&
		       (int)TL_TASK_TICK == (int)TASK_EV_TICK &&
		       (int)TL_TASK_PREEMPT == (int)TASK_EV_PREEMPT &&
		       (int)TL_TASK_SLEEP == (int)TASK_EV_SLEEP &&
		       (int)TL_TASK_MIGRATE == (int)TASK_EV_MIGRATE,
	       "core/timeline.h's task events follow sched.h's");

/* A task event to the --task-timeline CSV and the other sink: one row for both. */
void sim_emit_task(struct sim *s, const struct task *p, int cpu, enum sched_task_event ev,
		      u64 now)
{
	const struct tl_sink *k = s->cfg.opts.sink;
	struct tl_task row = {
		.ts_ns = now,
		.rel_ns = now - s->t0,
		.pid = p->pid,
		.comm = p->comm,
		.cpu = cpu,
		.event = (enum tl_task_event)ev,
		.event_name = sched_task_event_name(ev),
		.util_avg = p->avg.util_avg,
		.util_est_enqueued = p->avg.util_est.enqueued,
		.util_est_ewma = p->avg.util_est.ewma,
	};

	if (s->cfg.opts.task_timeline)
		fprintf(s->cfg.opts.task_timeline, "%" PRIu64 ".%06" PRIu64 ",%d,%s,%d,%s,%lu,%u,%u\n",
			(u64)(row.rel_ns / NSEC_PER_SEC),
			(u64)((row.rel_ns % NSEC_PER_SEC) / NSEC_PER_USEC), row.pid, row.comm, row.cpu,
			row.event_name, row.util_avg, row.util_est_enqueued, row.util_est_ewma);
	if (k && k->task)
		k->task(k->ctx, &row);
}

/* An evaluation to the --timeline CSV and the other sink: one row for both. */
void sim_emit_eval(struct sim *s, const struct gov_eval *e)
{
	const struct tl_sink *k = s->cfg.opts.sink;
	struct tl_eval row = {
		.ts_ns = e->time_ns,
		.rel_ns = e->time_ns - s->t0,
		.cpu = e->cpu,
		.policy = e->policy,
		.util_cfs = e->in.util_avg,
		.util_est_cfs = e->in.util_est_enqueued,
		.util_rt = e->in.util_rt,
		.util_dl = e->in.util_dl,
		.uclamp_min = e->uclamp_min,
		.uclamp_max = e->uclamp_max,
		.util = e->util,
		.target_khz = e->target_khz,
		.freq_khz = e->freq_khz,
	};

	if (s->cfg.opts.timeline)
		fprintf(s->cfg.opts.timeline,
			"%" PRIu64 ".%06" PRIu64 ",%d,%d,%lu,%lu,%lu,%lu,%u,%u,%lu,%u,%u\n",
			(u64)(row.rel_ns / NSEC_PER_SEC),
			(u64)((row.rel_ns % NSEC_PER_SEC) / NSEC_PER_USEC), row.cpu, row.policy,
			row.util_cfs, row.util_est_cfs, row.util_rt, row.util_dl, row.uclamp_min,
			row.uclamp_max, row.util, row.target_khz, row.freq_khz);
	if (k && k->eval)
		k->eval(k->ctx, &row);
}

/* A traced frequency of a policy's first CPU (the one the accounting reads) to the sink. */
void sim_emit_traced_freq(struct sim *s, int cpu, u64 ts_ns)
{
	const struct tl_sink *k = s->cfg.opts.sink;
	const struct plat_cluster *pc = s->cl[s->cpu[cpu].cluster].pol.cl;

	if (k && k->traced_freq && pc->cpus[0] == cpu)
		k->traced_freq(k->ctx, ts_ns, cpu, s->cpu[cpu].traced_khz);
}

