/*
 * policy_actions.c - clamp policy actions applied to the replay at their time: the policy layer's
 * view of the scheduler model's tasks (for_each_task, the requeue around a change, and
 * uclamp_update_active() for queued tasks), as __sched_setscheduler() and the cgroup
 * controller do (v5.9 kernel/sched/core.c).
 */
#include "sim/sim_priv.h"

#include <stdio.h>

#include "sched/sched.h"
#include "uclamp/policy.h"
#include "uclamp/uclamp.h"

typedef void (*policy_task_fn)(void *arg, struct uclamp_task *uc, s32 pid, const char *comm);

struct foreach_ctx {
	policy_task_fn fn;
	void *arg;
};

static void foreach_task_cb(void *ctx, struct task *p)
{
	struct foreach_ctx *fc = ctx;
	if (p->is_governor || p->pid == 0)
		return;
	fc->fn(fc->arg, &p->uclamp, p->pid, p->comm);
}

static void policy_for_each_task(void *ctx, policy_task_fn fn, void *arg)
{
	struct foreach_ctx fc = {fn, arg};
	struct sim *s = ctx;
	sched_for_each_task(s->sched, foreach_task_cb, &fc);
}

/* __sched_setscheduler / sched_move_task: a queued task is dequeued and enqueued around the
 * change, so its rq buckets are re-accounted at once. */
static void policy_requeue(void *ctx, s32 pid, int phase)
{
	struct sim *s = ctx;
	struct task *p = sched_task_find(s->sched, pid);
	if (!p || !p->on_rq)
		return;
	if (phase == 0) {
		sim_hook_uclamp_dec(s, p->cpu, p);
		return;
	}
	/* v5.9 enqueue_task_rt() -> enqueue_top_rt_rq() ends with cpufreq_update_util(rq, 0)
	 * ("Kick cpufreq"), so the new clamps of a queued RT task reach the governor now -- unless
	 * the profile's enqueue_task() counts them only after the class's enqueue (v6.12), whose
	 * kick then reads the rq without them. (The CFS enqueue kicks only through a PELT decay
	 * or in_iowait: nothing at this instant, as the dequeue just updated the averages.) */
	bool after = s->kp && s->kp->uclamp_inc_after_enqueue;

	if (!after)
		sim_hook_uclamp_inc(s, p->cpu, p);
	if (p->class == SCHED_CLASS_RT)
		sim_hook_cpufreq_update(s, p->cpu, s->now, 0);
	if (after)
		sim_hook_uclamp_inc(s, p->cpu, p);
}

/* uclamp_update_active() for a queued task whose group's effective clamps changed. */
static void policy_update_active(void *ctx, s32 pid, unsigned int clamp_mask)
{
	struct sim *s = ctx;
	struct task *p = sched_task_find(s->sched, pid);
	if (!p || !p->on_rq || (p->class != SCHED_CLASS_CFS && p->class != SCHED_CLASS_RT))
		return;
	for (int id = 0; id < UCLAMP_CNT; id++)
		if (clamp_mask & (1u << id))
			uclamp_update_active(&s->uc, sched_cpu_uclamp(s->sched, p->cpu), &p->uclamp,
					     (enum uclamp_id)id);
}

u64 sim_action_time(const struct sim *s, size_t k)
{
	if (!s->cfg.opts.policy || k >= s->cfg.opts.policy->n)
		return NO_TIME;
	return s->t0 + policy_action_time_ns(&s->cfg.opts.policy->actions[k]);
}

/* The policy layer's callbacks into this replay. */
static struct policy_ops sim_policy_ops(struct sim *s)
{
	return (struct policy_ops){s, policy_for_each_task, policy_requeue, policy_update_active};
}

int sim_apply_action(struct sim *s, struct gs_error *err)
{
	size_t k = s->next_action++;
	const struct policy_action *a = &s->cfg.opts.policy->actions[k];
	struct policy_ops ops = sim_policy_ops(s);
	struct gs_error perr;
	int ret;

	s->next_action_ns = sim_action_time(s, s->next_action);
	gs_error_clear(&perr);
	ret = policy_apply(&s->uc, a, s->now, &ops, s->astats ? &s->astats[k] : NULL, &perr);
	sim_ovh_follow(s);
	if (ret == GS_EPOLICY) {
		/* rejected by the kernel for some tasks (setattr against a task's current request):
		 * applied to the others; kept as a note of the run */
		if (!s->notes[0])
			snprintf(s->notes, sizeof(s->notes), "%s", perr.msg);
		ret = 0;
	}
	if (ret)
		return gs_error_set(err, ret, "%s", perr.msg);
	/* A queued RT task's enqueue in policy_requeue() kicked cpufreq_update_util(); CFS tasks'
	 * new clamps are seen at the next update point. */
	return 0;
}

/* The sched_hooks task_rename hook: the actions run so far that select the task's new name
 * and not its old one are applied now, to the task where it is (running, queued or asleep). */
void sim_task_rename(void *ctx, struct task *p, const char *old_comm, u64 now)
{
	struct sim *s = ctx;
	struct policy_ops ops = sim_policy_ops(s);

	if (!s->cfg.opts.policy || p->is_governor)
		return;
	policy_apply_renamed_task(&s->uc, s->cfg.opts.policy, now - s->t0, now, &p->uclamp, p->pid,
				  old_comm, p->comm, &ops, s->astats);
	sim_ovh_follow(s);
}
