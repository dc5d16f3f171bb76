/*
 * policy_apply.c - clamp policy actions applied to the uclamp state (uclamp.c, Linux v5.9
 * semantics) through the owner's callbacks (struct policy_ops): at their time, to tasks first
 * seen later, and to tasks renamed later. See policy.h.
 *
 * Each action stands for a user-space call into v5.9 kernel/sched/core.c (policy.c says which).
 * Differences in how the actions reach the kernel's rules, and why:
 * - comm=GLOB selects tasks by name, as a script looping over pids would; a setattr or attach
 *   also applies to a matching task first seen in the trace after the action's time (it
 *   existed, the trace had not shown it yet), or first shown under a matching name (renamed
 *   after it started), checked then against its own request.
 * - A pid the model has never seen is -ESRCH (find_process_by_pid) and touches nothing, as in
 *   the kernel; a comm that matches nothing makes no call. Both are counted and noted.
 */
#include "uclamp/policy.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

bool policy_match(const struct policy_action *a, s32 pid, const char *comm)
{
	if (a->op != POLICY_SETATTR && a->op != POLICY_ATTACH && a->op != POLICY_AFFINITY)
		return false;
	if (a->by_pid)
		return a->pid == pid;
	return fnmatch(a->comm_glob, comm ? comm : "", 0) == 0;
}

struct policy_apply_ctx {
	struct uclamp_sys *sys;
	const struct policy_action *a;
	const struct policy_ops *ops;
	u64 now_ns;
	int group;       /* attach: target group */
	size_t matched;
	size_t rejected;
	char first_reject[GS_ERROR_MSG_MAX];
};

static void policy_requeue(const struct policy_ops *ops, s32 pid, int phase)
{
	if (ops->requeue)
		ops->requeue(ops->ctx, pid, phase);
}

/* A setattr with a clamp is sched_setattr(SCHED_FLAG_UTIL_CLAMP_*); without one it is a
 * sched_setattr() that changes nothing uclamp sees (__sched_setscheduler() returns early). */
static bool policy_has_clamp(const struct policy_action *a)
{
	return a->uclamp_min >= 0 || a->uclamp_max >= 0;
}

static void policy_setattr_task(void *arg, struct uclamp_task *uc, s32 pid, const char *comm)
{
	struct policy_apply_ctx *c = arg;
	const struct policy_action *a = c->a;
	struct gs_error why;

	if (!policy_match(a, pid, comm))
		return;
	c->matched++;
	if (!policy_has_clamp(a))
		return;
	/* __sched_setscheduler(): uclamp_validate() (key on) before the dequeue, then
	 * __setscheduler_uclamp() between dequeue and enqueue. */
	gs_error_clear(&why);
	if (uclamp_setattr_validate(c->sys, uc, a->uclamp_min, a->uclamp_max, c->now_ns, &why)) {
		if (!c->rejected++)
			snprintf(c->first_reject, sizeof(c->first_reject), "pid %d (%.16s): %.512s",
				 (int)pid, comm ? comm : "", why.msg);
		return;
	}
	policy_requeue(c->ops, pid, 0);
	uclamp_setattr(c->sys, uc, a->uclamp_min, a->uclamp_max, c->now_ns, NULL);
	policy_requeue(c->ops, pid, 1);
}

static void policy_attach_task(void *arg, struct uclamp_task *uc, s32 pid, const char *comm)
{
	struct policy_apply_ctx *c = arg;

	if (!policy_match(c->a, pid, comm) || uc->group == c->group)
		return;
	c->matched++;
	/* sched_move_task(): dequeue, change group, enqueue. */
	policy_requeue(c->ops, pid, 0);
	uc->group = c->group;
	policy_requeue(c->ops, pid, 1);
}

/* uclamp_update_active_tasks() for every group whose effective value just changed. */
static void policy_update_active_task(void *arg, struct uclamp_task *uc, s32 pid,
				      const char *comm)
{
	struct policy_apply_ctx *c = arg;
	unsigned int mask;

	(void)comm;
	if (uc->group < 0 || uc->group >= c->sys->nr_groups)
		return;
	mask = c->sys->groups[uc->group].eff_changed;
	if (!mask)
		return;
	if (c->ops->update_active) {
		c->ops->update_active(c->ops->ctx, pid, mask);
	} else {
		policy_requeue(c->ops, pid, 0);
		policy_requeue(c->ops, pid, 1);
	}
}

static void policy_sync_rt_task(void *arg, struct uclamp_task *uc, s32 pid, const char *comm)
{
	struct policy_apply_ctx *c = arg;

	(void)pid;
	(void)comm;
	uclamp_sync_rt_default(c->sys, uc);
}

static bool policy_any_group_changed(const struct uclamp_sys *sys)
{
	for (int i = 0; i < sys->nr_groups; i++)
		if (sys->groups[i].eff_changed)
			return true;
	return false;
}

static void policy_for_each(const struct policy_ops *ops,
			    void (*fn)(void *arg, struct uclamp_task *uc, s32 pid, const char *comm),
			    void *arg)
{
	if (ops && ops->for_each_task)
		ops->for_each_task(ops->ctx, fn, arg);
}

static int policy_apply_one(struct uclamp_sys *sys, const struct policy_action *a, u64 now_ns,
			    const struct policy_ops *ops, struct policy_action_stats *st,
			    struct gs_error *err);

int policy_apply(struct uclamp_sys *sys, const struct policy_action *a, u64 now_ns,
		 const struct policy_ops *ops, struct policy_action_stats *st, struct gs_error *err)
{
	int rc = policy_apply_one(sys, a, now_ns, ops, st, err);

	if (st)
		st->ran = true;
	return rc;
}

static int policy_apply_one(struct uclamp_sys *sys, const struct policy_action *a, u64 now_ns,
			    const struct policy_ops *ops, struct policy_action_stats *st,
			    struct gs_error *err)
{
	static const struct policy_ops no_ops;
	struct policy_apply_ctx c;
	struct gs_error why;
	int rc;

	if (!ops)
		ops = &no_ops;
	memset(&c, 0, sizeof(c));
	c.sys = sys;
	c.a = a;
	c.ops = ops;
	c.now_ns = now_ns;
	gs_error_clear(&why);

	switch (a->op) {
	case POLICY_SETATTR:
		/* sched_setattr() per matching task: a pid absent from the model is -ESRCH from
		 * find_process_by_pid() before uclamp_validate(), and a comm nothing matches makes
		 * no call, so neither touches the key. Tasks first seen later get the call then
		 * (policy_apply_new_task), checked against their own request. */
		policy_for_each(ops, policy_setattr_task, &c);
		if (st) {
			st->matched += c.matched;
			st->rejected += c.rejected;
		}
		if (c.rejected)
			return gs_error_set(err, GS_EPOLICY,
					    "'%s':%ld: setattr rejected for %zu of %zu tasks, "
					    "first %s",
					    a->origin, a->line, c.rejected, c.matched, c.first_reject);
		return 0;
	case POLICY_SYSCTL:
		rc = uclamp_sysctl_write(sys, a->sysctl, a->value, now_ns, &why);
		if (rc)
			return gs_error_set(err, rc, "'%s':%ld: %s", a->origin, a->line, why.msg);
		if (a->sysctl == UCLAMP_SYSCTL_MIN_RT_DEFAULT)
			policy_for_each(ops, policy_sync_rt_task, &c);
		else if (policy_any_group_changed(sys))
			policy_for_each(ops, policy_update_active_task, &c);
		return 0;
	case POLICY_CGROUP:
		c.group = uclamp_group_get(sys, a->path);
		if (c.group < 0)
			return gs_error_set(err, GS_EPOLICY, "'%s':%ld: too many cgroups (at most %d)",
					    a->origin, a->line, UCLAMP_MAX_GROUPS);
		if (a->create_only)
			return 0; /* mkdir: a new group inherits its parent's values, no task in it */
		rc = uclamp_group_write(sys, c.group, a->clamp_id, a->percent, now_ns, &why);
		if (rc)
			return gs_error_set(err, rc, "'%s':%ld: %s", a->origin, a->line, why.msg);
		if (policy_any_group_changed(sys))
			policy_for_each(ops, policy_update_active_task, &c);
		return 0;
	case POLICY_ATTACH:
		c.group = uclamp_group_get(sys, a->path);
		if (c.group < 0)
			return gs_error_set(err, GS_EPOLICY, "'%s':%ld: too many cgroups (at most %d)",
					    a->origin, a->line, UCLAMP_MAX_GROUPS);
		policy_for_each(ops, policy_attach_task, &c);
		if (st)
			st->matched += c.matched;
		return 0;
	case POLICY_AFFINITY: /* read by the replay's placement (policy_affinity) */
		return 0;
	}
	return gs_error_set(err, GS_EINTERNAL, "'%s':%ld: unknown action %d", a->origin, a->line,
			    (int)a->op);
}

/* The setattr and attach actions run by upto_ns that select a task under comm and did not
 * under old_comm (NULL: a task first seen, selected by nothing before), applied in run order,
 * each as the kernel call would at now_ns. ops->requeue brackets each change of a queued task
 * (a task first seen is not queued: no ops). */
static void policy_apply_late(struct uclamp_sys *sys, const struct policy *p, u64 upto_ns,
			      u64 now_ns, struct uclamp_task *uc, s32 pid, const char *old_comm,
			      const char *comm, const struct policy_ops *ops,
			      struct policy_action_stats *st)
{
	static const struct policy_ops no_ops;

	if (!ops)
		ops = &no_ops;
	for (size_t i = 0; i < p->n; i++) {
		const struct policy_action *a = &p->actions[i];
		int g;

		if (a->has_at && a->at_ns > upto_ns)
			break; /* run order: every later action is later still */
		if (!policy_match(a, pid, comm) || (old_comm && policy_match(a, pid, old_comm)))
			continue;
		if (st)
			st[i].matched_later++;
		if (a->op == POLICY_SETATTR) {
			/* uclamp_setattr() validates against this task's own request (an RT task's
			 * min 1024 rejects uclamp_max alone) and turns the key on only if it passes */
			if (!policy_has_clamp(a))
				continue;
			if (uclamp_setattr_validate(sys, uc, a->uclamp_min, a->uclamp_max, now_ns,
						    NULL)) { /* counted in sys->stats */
				if (st)
					st[i].rejected++;
				continue;
			}
			policy_requeue(ops, pid, 0);
			uclamp_setattr(sys, uc, a->uclamp_min, a->uclamp_max, now_ns, NULL);
			policy_requeue(ops, pid, 1);
		} else if (a->op == POLICY_ATTACH) {
			g = uclamp_group_get(sys, a->path);
			if (g < 0 || uc->group == g)
				continue;
			/* sched_move_task(): dequeue, change group, enqueue */
			policy_requeue(ops, pid, 0);
			uc->group = g;
			policy_requeue(ops, pid, 1);
		}
	}
}

void policy_apply_new_task(struct uclamp_sys *sys, const struct policy *p, u64 upto_ns,
			   u64 now_ns, struct uclamp_task *uc, s32 pid, const char *comm,
			   struct policy_action_stats *st)
{
	policy_apply_late(sys, p, upto_ns, now_ns, uc, pid, NULL, comm, NULL, st);
}

void policy_apply_renamed_task(struct uclamp_sys *sys, const struct policy *p, u64 upto_ns,
			       u64 now_ns, struct uclamp_task *uc, s32 pid, const char *old_comm,
			       const char *comm, const struct policy_ops *ops,
			       struct policy_action_stats *st)
{
	policy_apply_late(sys, p, upto_ns, now_ns, uc, pid, old_comm, comm, ops, st);
}

