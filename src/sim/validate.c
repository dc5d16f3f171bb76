/*
 * validate.c - the trace's own signals in the replay: govsim validate compares the emulated
 * PELT/util_est with the trace's util events at the same instants; --util-source trace keeps the
 * trace's per-CPU signals for the governor.
 */
#include "sim/sim_priv.h"

bool sim_is_util_event(enum event_type t)
{
	switch (t) {
	case EV_PELT_CFS:
	case EV_PELT_RT:
	case EV_PELT_DL:
	case EV_UTIL_EST_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
	case EV_CSV_UTIL:
		return true;
	default:
		return false;
	}
}

/* --util-source trace: keep the trace's per-CPU signals; returns the CPU or -1. */
int sim_trace_util(struct sim *s, const struct event *ev)
{
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	struct sched_cpu_util *u;

	if (cpu < 0 || cpu >= s->plat->nr_cpus)
		return -1;
	u = &s->cpu[cpu].trace_util;
	switch (ev->type) {
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
		if (ev->util.path != EV_PATH_ROOT)
			return -1;
		u->util_avg = ev->util.util;
		break;
	case EV_LOAD_AVG_CPU:
		u->util_avg = ev->util.util;
		break;
	case EV_UTIL_EST_CFS:
		if (ev->util.path != EV_PATH_ROOT)
			return -1;
		u->util_est_enqueued = ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED;
		break;
	case EV_PELT_RT:
		u->util_rt = ev->util.util;
		break;
	case EV_PELT_DL:
		u->util_dl = ev->util.util;
		break;
	case EV_CSV_UTIL:
		u->util_avg = ev->util.util;
		u->util_est_enqueued = ev->util.util_est_enqueued != EV_NO_VALUE
					       ? ev->util.util_est_enqueued
					       : 0;
		u->util_rt = ev->util.util_rt != EV_NO_VALUE ? ev->util.util_rt : 0;
		u->util_dl = ev->util.util_dl != EV_NO_VALUE ? ev->util.util_dl : 0;
		break;
	default:
		return -1;
	}
	u->util_cfs = u->util_avg > u->util_est_enqueued ? u->util_avg : u->util_est_enqueued;
	return cpu;
}

bool sim_is_compared_event(enum event_type t)
{
	return t == EV_PELT_CFS || t == EV_LOAD_CFS_RQ || t == EV_LOAD_AVG_CPU ||
	       t == EV_UTIL_EST_CFS || t == EV_PELT_SE || t == EV_LOAD_SE || t == EV_LOAD_AVG_TASK ||
	       t == EV_UTIL_EST_SE || t == EV_PELT_RT;
}

static void val_add(struct sim_validation *v, enum sim_val_signal sig, u64 traced, u64 emulated)
{
	u64 d = traced > emulated ? traced - emulated : emulated - traced;
	v->n[sig]++;
	v->sum_abs[sig] += (double)d;
	if (d > v->max_abs[sig])
		v->max_abs[sig] = d;
}

/* govsim validate: the trace's own util signals against the emulated ones at that instant. */
void sim_validate_event(struct sim *s, const struct event *ev)
{
	struct sched_cpu_util u;
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	const struct task *p;

	switch (ev->type) {
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
	case EV_UTIL_EST_CFS:
	case EV_PELT_RT:
		if (cpu < 0 || cpu >= s->plat->nr_cpus)
			return;
		if ((ev->type == EV_PELT_CFS || ev->type == EV_LOAD_CFS_RQ ||
		     ev->type == EV_UTIL_EST_CFS) &&
		    ev->util.path != EV_PATH_ROOT)
			return;
		sched_cpu_util(s->sched, cpu, &u);
		if (ev->type == EV_UTIL_EST_CFS)
			val_add(&s->val, SIM_VAL_CPU_UTIL_EST,
				ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED,
				u.util_est_enqueued & ~(unsigned long)UTIL_AVG_UNCHANGED);
		else if (ev->type == EV_PELT_RT)
			val_add(&s->val, SIM_VAL_CPU_UTIL_RT, ev->util.util, u.util_rt);
		else if (ev->util.util != EV_NO_VALUE)
			val_add(&s->val, SIM_VAL_CPU_UTIL, ev->util.util, u.util_avg);
		return;
	default:
		if (ev->util.pid <= 0 || ev->util.path == EV_PATH_GROUP)
			return;
		p = sched_task_find(s->sched, ev->util.pid);
		if (!p || p->is_governor)
			return;
		if (ev->type == EV_UTIL_EST_SE) {
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST,
				ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED,
				p->avg.util_est.enqueued & ~(unsigned)UTIL_AVG_UNCHANGED);
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST_EWMA, ev->util.util_est_ewma,
				p->avg.util_est.ewma);
		} else if (ev->util.util != EV_NO_VALUE) {
			val_add(&s->val, SIM_VAL_TASK_UTIL, ev->util.util, p->avg.util_avg);
		}
		return;
	}
}

const struct sim_validation *sim_get_validation(const struct sim *s)
{
	return &s->val;
}
