/*
 * observer.c - the replay's list of observers (observer.h): adding one (and filing it under
 * each hook it has), and the hooks called once per replay (start, notes, finish,
 * finish_tasks, release). The hooks called on the event path are inline in observer.h.
 */
#include "sim/observer.h"

#include <limits.h>
#include <string.h>

_Static_assert(SIM_OBSERVER_KIND_END <= sizeof(unsigned int) * CHAR_BIT,
	       "struct sim_observers.kinds has a bit per kind");

#define SIM_OBSERVER_KIND_NAME(id, name) [id] = name,
static const char *const kind_names[SIM_OBSERVER_KIND_END] = {
	SIM_OBSERVER_KINDS(SIM_OBSERVER_KIND_NAME)};
#undef SIM_OBSERVER_KIND_NAME

const char *sim_observer_name(enum sim_observer_kind kind)
{
	return kind > SIM_OBSERVER_NONE && kind < SIM_OBSERVER_KIND_END ? kind_names[kind] : NULL;
}

int sim_observers_add(struct sim_observers *obs, const struct sim_observer *o,
		      struct gs_error *err)
{
	const char *name = sim_observer_name(o->kind);
	struct sim_observer *n;

	if (!name)
		return gs_error_set(err, GS_EINTERNAL,
				    "observer of kind %d: not one of SIM_OBSERVER_KINDS (observer.h)",
				    (int)o->kind);
	if (obs->kinds & (1U << o->kind))
		return gs_error_set(err, GS_EINTERNAL, "observer '%s': registered twice", name);
	obs->kinds |= 1U << o->kind;
	n = &obs->all[obs->nr++];
	*n = *o;
	if (n->cpu_state)
		obs->cpu_state[obs->nr_cpu_state++] = n;
	if (n->freq_change)
		obs->freq_change[obs->nr_freq_change++] = n;
	if (n->opp_change)
		obs->opp_change[obs->nr_opp_change++] = n;
	if (n->sched_event)
		obs->sched_event[obs->nr_sched_event++] = n;
	if (n->sched_applied)
		obs->sched_applied[obs->nr_sched_applied++] = n;
	if (n->sched_done)
		obs->sched_done[obs->nr_sched_done++] = n;
	if (n->task_ran)
		obs->task_ran[obs->nr_task_ran++] = n;
	if (n->task_event)
		obs->task_event[obs->nr_task_event++] = n;
	if (n->rq_task)
		obs->rq_task[obs->nr_rq_task++] = n;
	if (n->update_util)
		obs->update_util[obs->nr_update_util++] = n;
	if (n->account)
		obs->account[obs->nr_account++] = n;
	if (n->task_exit)
		obs->task_exit[obs->nr_task_exit++] = n;
	if (n->warmup)
		obs->warmup[obs->nr_warmup++] = n;
	if (n->gov_eval)
		obs->gov_eval[obs->nr_gov_eval++] = n;
	if (n->trace_event)
		obs->trace_event[obs->nr_trace_event++] = n;
	if (n->traced_freq)
		obs->traced_freq[obs->nr_traced_freq++] = n;
	return 0;
}

int sim_observers_start(struct sim_observers *obs, struct sim *s, u64 t, struct gs_error *err)
{
	for (int i = 0; i < obs->nr; i++) {
		const struct sim_observer *o = &obs->all[i];
		int ret = o->start ? o->start(s, o->state, t, err) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

void sim_observers_notes(struct sim_observers *obs, struct sim *s, u64 end, struct run_result *r)
{
	for (int i = 0; i < obs->nr; i++)
		if (obs->all[i].notes)
			obs->all[i].notes(s, obs->all[i].state, end, r);
}

int sim_observers_finish(struct sim_observers *obs, struct sim *s, u64 end, struct run_result *r,
			 struct gs_error *err)
{
	for (int i = 0; i < obs->nr; i++) {
		const struct sim_observer *o = &obs->all[i];
		int ret = o->finish ? o->finish(s, o->state, end, r, err) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

int sim_observers_finish_tasks(struct sim_observers *obs, struct sim *s, u64 end,
			       struct run_result *r, struct gs_error *err)
{
	for (int i = 0; i < obs->nr; i++) {
		const struct sim_observer *o = &obs->all[i];
		int ret = o->finish_tasks ? o->finish_tasks(s, o->state, end, r, err) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

void sim_observers_release(struct sim_observers *obs)
{
	for (int i = 0; i < obs->nr; i++)
		if (obs->all[i].release)
			obs->all[i].release(obs->all[i].state);
	memset(obs, 0, sizeof(*obs));
}
