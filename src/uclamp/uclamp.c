/*
 * uclamp.c - utilization clamping as in Linux v5.9 kernel/sched/core.c (uclamp_*,
 * sysctl_sched_uclamp_handler, cpu_uclamp_write, cpu_util_update_eff) and kernel/sched/sched.h
 * (uclamp_rq_util_with), with CONFIG_UCLAMP_TASK_GROUP on. Kernel function names are kept so
 * the two can be read side by side.
 *
 * v5.9 details mirrored on purpose (each is different in later kernels):
 * - uclamp_bucket_id() has no clamp to UCLAMP_BUCKETS - 1: with some bucket counts (20: delta
 *   51, 1024 / 51 = 20) the id is one past the last bucket. The kernel then writes past the
 *   array; here struct uclamp_rq has a spare bucket that takes the count instead, and, like the
 *   kernel, uclamp_rq_max_value() never scans it.
 * - uclamp_tg_restrict(): the group's value wins if the request is above it OR not user defined;
 *   tasks in the root group are not restricted (only by the system default).
 * - uclamp_rq_util_with() has no UCLAMP_FLAG_IDLE shortcut (later profiles: idle_shortcut).
 * - rq init flags are 0 (not UCLAMP_FLAG_IDLE).
 * - uclamp_update_active() does not clear UCLAMP_FLAG_IDLE.
 */
#include "uclamp/uclamp.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* cgroup percentages: 2 decimal digits, 100.00 % = 10000 (UCLAMP_PERCENT_SCALE). */
#define UCLAMP_PERCENT_SHIFT 2
#define UCLAMP_PERCENT_SCALE 10000ULL

static inline unsigned int uclamp_none(enum uclamp_id id)
{
	return id == UCLAMP_MIN ? 0 : (unsigned int)SCHED_CAPACITY_SCALE;
}

unsigned int uclamp_bucket_id(const struct uclamp_sys *sys, unsigned int clamp_value)
{
	/* v5.9: clamp_value / UCLAMP_BUCKET_DELTA, no min(…, UCLAMP_BUCKETS - 1); 5.4.120+ and
	 * 5.10.89+ clamp it. */
	unsigned int id = clamp_value / sys->bucket_delta;

	if (sys->bucket_clamp && id > (unsigned int)sys->buckets - 1)
		id = (unsigned int)sys->buckets - 1;
	return id;
}

static void uclamp_se_set(const struct uclamp_sys *sys, struct uclamp_se *uc_se,
			  unsigned int value, bool user_defined)
{
	uc_se->value = value;
	uc_se->bucket_id = uclamp_bucket_id(sys, value);
	uc_se->user_defined = user_defined;
}

/* static_branch_enable(&sched_uclamp_used): once on, it stays on. */
static void uclamp_key_enable(struct uclamp_sys *sys, u64 now_ns)
{
	if (sys->key)
		return;
	sys->key = true;
	sys->stats.key_on = true;
	sys->stats.key_on_at_ns = now_ns;
}

/* ---- system state ------------------------------------------------------------------------ */

static void cpu_util_update_eff(struct uclamp_sys *sys, int top);

void uclamp_sys_init(struct uclamp_sys *sys, int buckets)
{
	memset(sys, 0, sizeof(*sys));
	if (buckets < UCLAMP_BUCKETS_DEFAULT || buckets > UCLAMP_BUCKETS_MAX)
		buckets = UCLAMP_BUCKETS_DEFAULT;
	sys->buckets = buckets;
	/* UCLAMP_BUCKET_DELTA = DIV_ROUND_CLOSEST(SCHED_CAPACITY_SCALE, UCLAMP_BUCKETS) */
	sys->bucket_delta = (unsigned int)((SCHED_CAPACITY_SCALE + buckets / 2) / buckets);
	sys->key = false;
	sys->sysctl_util_clamp_min = SCHED_CAPACITY_SCALE;
	sys->sysctl_util_clamp_max = SCHED_CAPACITY_SCALE;
	sys->sysctl_util_clamp_min_rt_default = SCHED_CAPACITY_SCALE;

	/* init_uclamp(): system defaults and the root group allow max values for both ids. */
	for (int id = 0; id < UCLAMP_CNT; id++)
		uclamp_se_set(sys, &sys->uclamp_default[id], SCHED_CAPACITY_SCALE, false);

	struct uclamp_group *root = &sys->groups[0];
	snprintf(root->path, sizeof(root->path), "/");
	root->parent = -1;
	for (int id = 0; id < UCLAMP_CNT; id++) {
		uclamp_se_set(sys, &root->req[id], SCHED_CAPACITY_SCALE, false);
		root->eff[id] = root->req[id];
	}
	sys->nr_groups = 1;
}

void uclamp_sys_set_profile(struct uclamp_sys *sys, const struct kernel_profile *kp)
{
	if (!kp)
		return;
	sys->no_static_key = kp->uclamp_present && !kp->uclamp_static_key;
	sys->rt_default_hardwired = kp->uclamp_rt_default == UCLAMP_RT_HARDWIRED;
	sys->bucket_clamp = kp->uclamp_bucket_clamp;
	sys->rq_idle_init = kp->uclamp_rq_idle_init;
	sys->tg_clamp = kp->uclamp_tg_clamp;
	sys->idle_shortcut = kp->uclamp_idle_shortcut;
	/* 5.4.59: no key to test, uclamp_rq_inc/dec and uclamp_util_with always aggregate */
	if (sys->no_static_key)
		sys->key = true;
	/* bucket ids of the boot values under the profile's rule */
	for (int id = 0; id < UCLAMP_CNT; id++) {
		sys->uclamp_default[id].bucket_id = uclamp_bucket_id(sys, sys->uclamp_default[id].value);
		sys->groups[0].req[id].bucket_id = uclamp_bucket_id(sys, sys->groups[0].req[id].value);
		sys->groups[0].eff[id] = sys->groups[0].req[id];
	}
}

void uclamp_rq_init_sys(const struct uclamp_sys *sys, struct uclamp_rq_pair *rq)
{
	uclamp_rq_init(rq);
	if (sys->rq_idle_init)
		rq->flags = UCLAMP_FLAG_IDLE;
}

void uclamp_sys_release(struct uclamp_sys *sys)
{
	(void)sys; /* nothing on the heap */
}

void uclamp_rq_init(struct uclamp_rq_pair *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->uc[UCLAMP_MIN].value = uclamp_none(UCLAMP_MIN);
	rq->uc[UCLAMP_MAX].value = uclamp_none(UCLAMP_MAX);
	rq->flags = 0; /* v5.9; v6.14 starts with UCLAMP_FLAG_IDLE */
}

/* ---- per task: requests and the RT default ------------------------------------------------ */

/* __uclamp_update_util_min_rt_default(): RT default min unless the user set a min. */
static void __uclamp_update_util_min_rt_default(const struct uclamp_sys *sys,
						struct uclamp_task *p)
{
	struct uclamp_se *uc_se = &p->req[UCLAMP_MIN];

	if (uc_se->user_defined)
		return;
	uclamp_se_set(sys, uc_se, sys->sysctl_util_clamp_min_rt_default, false);
}

void uclamp_sync_rt_default(const struct uclamp_sys *sys, struct uclamp_task *p)
{
	/* uclamp_update_util_min_rt_default(): RT tasks only. */
	if (!p->is_rt)
		return;
	__uclamp_update_util_min_rt_default(sys, p);
}

/* __setscheduler_uclamp() without clamp flags: reset what the user did not define. */
static void __setscheduler_uclamp_reset(const struct uclamp_sys *sys, struct uclamp_task *p)
{
	for (int id = 0; id < UCLAMP_CNT; id++) {
		struct uclamp_se *uc_se = &p->req[id];

		if (uc_se->user_defined)
			continue;
		if (p->is_rt && id == UCLAMP_MIN)
			__uclamp_update_util_min_rt_default(sys, p);
		else
			uclamp_se_set(sys, uc_se, uclamp_none(id), false);
	}
}

void uclamp_task_init(const struct uclamp_sys *sys, struct uclamp_task *p, bool is_rt)
{
	memset(p, 0, sizeof(*p));
	/* init_task.uclamp_req = {0, 1024}, inherited at fork; uclamp_fork() clears active. */
	for (int id = 0; id < UCLAMP_CNT; id++) {
		uclamp_se_set(sys, &p->req[id], uclamp_none(id), false);
		p->eff[id] = p->req[id];
		p->eff[id].active = false;
	}
	p->group = 0;
	p->is_rt = is_rt;
	p->class_enabled = true; /* CFS or RT; the scheduler model sets it at each enqueue */
	/* uclamp_post_fork() -> uclamp_update_util_min_rt_default() */
	uclamp_sync_rt_default(sys, p);
}

void uclamp_task_set_rt(const struct uclamp_sys *sys, struct uclamp_task *p, bool is_rt)
{
	p->is_rt = is_rt;
	__setscheduler_uclamp_reset(sys, p);
}

/* ---- effective values --------------------------------------------------------------------- */

struct uclamp_se uclamp_tg_restrict(const struct uclamp_sys *sys, const struct uclamp_task *p,
				    enum uclamp_id id)
{
	struct uclamp_se uc_req = p->req[id];
	const struct uclamp_se *uc_max;

	/* Tasks in the root task group are restricted by the system defaults only. */
	if (p->group <= 0 || p->group >= sys->nr_groups)
		return uc_req;

	if (sys->tg_clamp) {
		/* 5.4.286, v5.10.89+: value = clamp(req, tg_min, tg_max), not user-defined */
		unsigned int tg_min = sys->groups[p->group].eff[UCLAMP_MIN].value;
		unsigned int tg_max = sys->groups[p->group].eff[UCLAMP_MAX].value;
		unsigned int v = uc_req.value;

		v = v < tg_min ? tg_min : v;
		v = v > tg_max ? tg_max : v;
		uc_req.value = v;
		uc_req.bucket_id = uclamp_bucket_id(sys, v);
		uc_req.user_defined = false;
		return uc_req;
	}
	uc_max = &sys->groups[p->group].eff[id];
	if (uc_req.value > uc_max->value || !uc_req.user_defined)
		return *uc_max;
	return uc_req;
}

struct uclamp_se uclamp_eff_get(const struct uclamp_sys *sys, const struct uclamp_task *p,
				enum uclamp_id id)
{
	struct uclamp_se uc_req = uclamp_tg_restrict(sys, p, id);

	/* System default restrictions always apply. */
	if (uc_req.value > sys->uclamp_default[id].value)
		return sys->uclamp_default[id];
	return uc_req;
}

unsigned int uclamp_eff_value(const struct uclamp_sys *sys, const struct uclamp_task *p,
			      enum uclamp_id id)
{
	/* Task currently refcounted: use the back-annotated (effective) value. */
	if (p->eff[id].active)
		return p->eff[id].value;
	return uclamp_eff_get(sys, p, id).value;
}

/* ---- rq aggregation ----------------------------------------------------------------------- */

/* uclamp_idle_value(): MAX keeps the last value while idle (and flags it), MIN drops to 0. */
static unsigned int uclamp_idle_value(struct uclamp_rq_pair *rq, enum uclamp_id id,
				      unsigned int clamp_value)
{
	if (id == UCLAMP_MAX) {
		rq->flags |= UCLAMP_FLAG_IDLE;
		return clamp_value;
	}
	return uclamp_none(UCLAMP_MIN);
}

/* uclamp_idle_reset(): on idle exit the first task's value overwrites the retained one. */
static void uclamp_idle_reset(struct uclamp_rq_pair *rq, enum uclamp_id id,
			      unsigned int clamp_value)
{
	if (!(rq->flags & UCLAMP_FLAG_IDLE))
		return;
	rq->uc[id].value = clamp_value;
}

/* uclamp_rq_max_value(): the value of the top-most bucket with tasks, scanning from
 * UCLAMP_BUCKETS - 1 down (so, as in v5.9, never the out-of-range spare bucket). */
static unsigned int uclamp_rq_max_value(const struct uclamp_sys *sys, struct uclamp_rq_pair *rq,
					enum uclamp_id id, unsigned int clamp_value)
{
	const struct uclamp_bucket *bucket = rq->uc[id].bucket;

	for (int bucket_id = sys->buckets - 1; bucket_id >= 0; bucket_id--) {
		if (!bucket[bucket_id].tasks)
			continue;
		return bucket[bucket_id].value;
	}
	return uclamp_idle_value(rq, id, clamp_value);
}

static void uclamp_rq_inc_id(const struct uclamp_sys *sys, struct uclamp_rq_pair *rq,
			     struct uclamp_task *p, enum uclamp_id id)
{
	struct uclamp_rq *uc_rq = &rq->uc[id];
	struct uclamp_se *uc_se = &p->eff[id];
	struct uclamp_bucket *bucket;

	/* Update the task's effective clamp. */
	*uc_se = uclamp_eff_get(sys, p, id);

	bucket = &uc_rq->bucket[uc_se->bucket_id];
	bucket->tasks++;
	uc_se->active = true;

	uclamp_idle_reset(rq, id, uc_se->value);

	/* Local max aggregation: a bucket tracks the max value of its RUNNABLE tasks. */
	if (bucket->tasks == 1 || uc_se->value > bucket->value)
		bucket->value = uc_se->value;

	if (uc_se->value > uc_rq->value)
		uc_rq->value = uc_se->value;
}

static void uclamp_rq_dec_id(const struct uclamp_sys *sys, struct uclamp_rq_pair *rq,
			     struct uclamp_task *p, enum uclamp_id id)
{
	struct uclamp_rq *uc_rq = &rq->uc[id];
	struct uclamp_se *uc_se = &p->eff[id];
	struct uclamp_bucket *bucket;

	/* Not refcounted: the key flipped on while the task was enqueued. */
	if (!uc_se->active)
		return;

	bucket = &uc_rq->bucket[uc_se->bucket_id];
	if (bucket->tasks)
		bucket->tasks--;
	uc_se->active = false;

	/* Tasks left in the bucket: its value is not lowered (may over-boost them). */
	if (bucket->tasks)
		return;

	if (bucket->value >= uc_rq->value)
		uc_rq->value = uclamp_rq_max_value(sys, rq, id, uc_se->value);
}

void uclamp_rq_inc(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p)
{
	/* No clamp work at all until uclamp is used. */
	if (!uclamp_is_used(sys)) {
		sys->stats.agg_skipped++;
		return;
	}
	/* p->sched_class->uclamp_enabled: only CFS and RT are clamped */
	if (!p->class_enabled)
		return;
	sys->stats.agg_ops++;

	for (int id = 0; id < UCLAMP_CNT; id++)
		uclamp_rq_inc_id(sys, rq, p, id);

	/* Reset clamp idle holding when there is one RUNNABLE task. */
	rq->flags &= ~UCLAMP_FLAG_IDLE;
}

void uclamp_rq_dec(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p)
{
	if (!uclamp_is_used(sys)) {
		sys->stats.agg_skipped++;
		return;
	}
	if (!p->class_enabled)
		return;
	sys->stats.agg_ops++;

	for (int id = 0; id < UCLAMP_CNT; id++)
		uclamp_rq_dec_id(sys, rq, p, id);
}

void uclamp_update_active(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p,
			  enum uclamp_id id)
{
	if (!p->eff[id].active)
		return;
	uclamp_rq_dec_id(sys, rq, p, id);
	uclamp_rq_inc_id(sys, rq, p, id);
}

void uclamp_rq_util_bounds(const struct uclamp_sys *sys, const struct uclamp_rq_pair *rq,
			   const struct uclamp_task *p, unsigned long *min_util,
			   unsigned long *max_util)
{
	*min_util = rq->uc[UCLAMP_MIN].value;
	*max_util = rq->uc[UCLAMP_MAX].value;
	if (p) {
		unsigned long p_min = uclamp_eff_value(sys, p, UCLAMP_MIN);
		unsigned long p_max = uclamp_eff_value(sys, p, UCLAMP_MAX);

		/* uclamp_rq_is_idle(): the task's enqueue will reset the retained max, and an
		 * idle rq's min is 0 (v5.10.89+ uclamp_rq_util_with; v6.8+ eenv_pd_max_util) */
		if (sys->idle_shortcut && (rq->flags & UCLAMP_FLAG_IDLE)) {
			*min_util = p_min;
			*max_util = p_max;
			return;
		}
		if (p_min > *min_util)
			*min_util = p_min;
		if (p_max > *max_util)
			*max_util = p_max;
	}
}

unsigned long uclamp_rq_util_with(const struct uclamp_sys *sys, const struct uclamp_rq_pair *rq,
				  unsigned long util, const struct uclamp_task *p)
{
	unsigned long min_util, max_util;

	if (!uclamp_is_used(sys))
		return util;
	uclamp_rq_util_bounds(sys, rq, p, &min_util, &max_util);
	return uclamp_clamp_util(util, min_util, max_util);
}

/* ---- user interfaces ---------------------------------------------------------------------- */

int uclamp_validate(int min, int max, struct gs_error *err)
{
	/* Values given alone are checked against the defaults {0, 1024} here; uclamp_setattr checks
	 * them against the task's current requests as the kernel does. */
	if (min > SCHED_CAPACITY_SCALE)
		return gs_error_set(err, GS_EPOLICY, "uclamp_min %d out of range 0..1024", min);
	if (max > SCHED_CAPACITY_SCALE)
		return gs_error_set(err, GS_EPOLICY, "uclamp_max %d out of range 0..1024", max);
	if (min >= 0 && max >= 0 && min > max)
		return gs_error_set(err, GS_EPOLICY, "uclamp_min %d > uclamp_max %d", min, max);
	return 0;
}

int uclamp_setattr_validate(struct uclamp_sys *sys, const struct uclamp_task *p, int min, int max,
			    u64 now_ns, struct gs_error *err)
{
	/* A clamp not given keeps the task's current request as its bound. */
	unsigned int lower_bound = p->req[UCLAMP_MIN].value;
	unsigned int upper_bound = p->req[UCLAMP_MAX].value;

	if (min >= 0)
		lower_bound = (unsigned int)min;
	if (max >= 0)
		upper_bound = (unsigned int)max;

	if (lower_bound > upper_bound) {
		sys->stats.setattr_rejected++;
		return gs_error_set(err, GS_EPOLICY, "uclamp_min %u > uclamp_max %u", lower_bound,
				    upper_bound);
	}
	if (upper_bound > SCHED_CAPACITY_SCALE) {
		sys->stats.setattr_rejected++;
		return gs_error_set(err, GS_EPOLICY, "uclamp_max %u out of range 0..1024",
				    upper_bound);
	}

	/* Valid uclamp attributes: make sure uclamp is enabled. */
	uclamp_key_enable(sys, now_ns);
	return 0;
}

int uclamp_setattr(struct uclamp_sys *sys, struct uclamp_task *p, int min, int max, u64 now_ns,
		   struct gs_error *err)
{
	int rc = uclamp_setattr_validate(sys, p, min, max, now_ns, err);

	if (rc)
		return rc;

	/* __setscheduler_uclamp(): reset the non-user-defined clamps, then set the given ones. */
	__setscheduler_uclamp_reset(sys, p);
	if (min >= 0)
		uclamp_se_set(sys, &p->req[UCLAMP_MIN], (unsigned int)min, true);
	if (max >= 0)
		uclamp_se_set(sys, &p->req[UCLAMP_MAX], (unsigned int)max, true);
	return 0;
}

static const char *const uclamp_sysctl_names[] = {
	[UCLAMP_SYSCTL_MIN] = "sched_util_clamp_min",
	[UCLAMP_SYSCTL_MAX] = "sched_util_clamp_max",
	[UCLAMP_SYSCTL_MIN_RT_DEFAULT] = "sched_util_clamp_min_rt_default",
};

const char *uclamp_sysctl_name(enum uclamp_sysctl which)
{
	if ((unsigned int)which >= GS_ARRAY_SIZE(uclamp_sysctl_names))
		return "?";
	return uclamp_sysctl_names[which];
}

bool uclamp_sysctl_from_name(const char *name, enum uclamp_sysctl *out)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(uclamp_sysctl_names); i++)
		if (strcmp(name, uclamp_sysctl_names[i]) == 0) {
			*out = (enum uclamp_sysctl)i;
			return true;
		}
	return false;
}

/* uclamp_update_root_tg(): the root group's requests follow the system defaults. */
static void uclamp_update_root_tg(struct uclamp_sys *sys)
{
	struct uclamp_group *root = &sys->groups[0];

	uclamp_se_set(sys, &root->req[UCLAMP_MIN], sys->sysctl_util_clamp_min, false);
	uclamp_se_set(sys, &root->req[UCLAMP_MAX], sys->sysctl_util_clamp_max, false);
	cpu_util_update_eff(sys, 0);
}

int uclamp_sysctl_write(struct uclamp_sys *sys, enum uclamp_sysctl which, unsigned int value,
			u64 now_ns, struct gs_error *err)
{
	unsigned int old_min = sys->sysctl_util_clamp_min;
	unsigned int old_max = sys->sysctl_util_clamp_max;
	unsigned int old_min_rt = sys->sysctl_util_clamp_min_rt_default;
	bool update_root_tg = false;

	for (int i = 0; i < sys->nr_groups; i++)
		sys->groups[i].eff_changed = 0;

	switch (which) {
	case UCLAMP_SYSCTL_MIN:
		sys->sysctl_util_clamp_min = value;
		break;
	case UCLAMP_SYSCTL_MAX:
		sys->sysctl_util_clamp_max = value;
		break;
	case UCLAMP_SYSCTL_MIN_RT_DEFAULT:
		/* added in v5.9 (5.4 hard-wires 1024) */
		if (sys->rt_default_hardwired)
			return gs_error_set(err, GS_EPOLICY,
					    "sched_util_clamp_min_rt_default does not exist in "
					    "this kernel profile (RT uclamp.min is hard-wired 1024)");
		sys->sysctl_util_clamp_min_rt_default = value;
		break;
	default:
		return gs_error_set(err, GS_EPOLICY, "unknown sysctl %d", (int)which);
	}

	if (sys->sysctl_util_clamp_min > sys->sysctl_util_clamp_max ||
	    sys->sysctl_util_clamp_max > SCHED_CAPACITY_SCALE ||
	    sys->sysctl_util_clamp_min_rt_default > SCHED_CAPACITY_SCALE) {
		unsigned int new_min = sys->sysctl_util_clamp_min;
		unsigned int new_max = sys->sysctl_util_clamp_max;

		/* undo */
		sys->sysctl_util_clamp_min = old_min;
		sys->sysctl_util_clamp_max = old_max;
		sys->sysctl_util_clamp_min_rt_default = old_min_rt;
		sys->stats.sysctl_rejected++;
		if (value > SCHED_CAPACITY_SCALE)
			return gs_error_set(err, GS_EPOLICY, "%s %u out of range 0..1024",
					    uclamp_sysctl_name(which), value);
		return gs_error_set(err, GS_EPOLICY, "sched_util_clamp_min %u > sched_util_clamp_max %u",
				    new_min, new_max);
	}

	if (old_min != sys->sysctl_util_clamp_min) {
		uclamp_se_set(sys, &sys->uclamp_default[UCLAMP_MIN], sys->sysctl_util_clamp_min,
			      false);
		update_root_tg = true;
	}
	if (old_max != sys->sysctl_util_clamp_max) {
		uclamp_se_set(sys, &sys->uclamp_default[UCLAMP_MAX], sys->sysctl_util_clamp_max,
			      false);
		update_root_tg = true;
	}
	if (update_root_tg) {
		uclamp_key_enable(sys, now_ns);
		uclamp_update_root_tg(sys);
	}
	/* The caller syncs its RT tasks (uclamp_sync_util_min_rt_default) with
	 * uclamp_sync_rt_default(). */
	if (old_min_rt != sys->sysctl_util_clamp_min_rt_default)
		uclamp_key_enable(sys, now_ns);
	return 0;
}

/* ---- task groups (cgroup v2 cpu controller) ----------------------------------------------- */

bool uclamp_group_path_valid(const char *path)
{
	size_t len;

	if (!path || path[0] != '/')
		return false;
	len = strlen(path);
	if (len >= sizeof(((struct uclamp_group *)0)->path))
		return false;
	if (len == 1)
		return true;
	if (path[len - 1] == '/')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)path[i];

		if (c == '/' && path[i + 1] == '/')
			return false;
		if (isspace(c) || !isprint(c))
			return false;
	}
	return true;
}

int uclamp_group_find(const struct uclamp_sys *sys, const char *path)
{
	for (int i = 0; i < sys->nr_groups; i++)
		if (strcmp(sys->groups[i].path, path) == 0)
			return i;
	return -1;
}

/* Whether group g is top or one of its descendants. */
static bool uclamp_group_in_subtree(const struct uclamp_sys *sys, int g, int top)
{
	for (; g >= 0; g = sys->groups[g].parent)
		if (g == top)
			return true;
	return false;
}

/*
 * cpu_util_update_eff(): for top and its descendants, parents first,
 *   eff[id] = min(req[id], parent eff[id]);  eff[MIN] = min(eff[MIN], eff[MAX]).
 * Groups are stored parents first (a parent is created before its children), so one pass in
 * index order visits the subtree in a valid order. The kernel skips the subtree of a group whose
 * values did not change; the descendants of such a group cannot change either, so visiting them
 * gives the same result with eff_changed 0.
 */
static void cpu_util_update_eff(struct uclamp_sys *sys, int top)
{
	for (int i = 0; i < sys->nr_groups; i++)
		sys->groups[i].eff_changed = 0;

	for (int g = top; g < sys->nr_groups; g++) {
		struct uclamp_group *tg = &sys->groups[g];
		const struct uclamp_se *uc_parent;
		unsigned int eff[UCLAMP_CNT];

		if (!uclamp_group_in_subtree(sys, g, top))
			continue;
		uc_parent = tg->parent >= 0 ? sys->groups[tg->parent].eff : NULL;
		for (int id = 0; id < UCLAMP_CNT; id++) {
			eff[id] = tg->req[id].value;
			if (uc_parent && eff[id] > uc_parent[id].value)
				eff[id] = uc_parent[id].value;
		}
		/* Protection is always capped by the limit. */
		if (eff[UCLAMP_MIN] > eff[UCLAMP_MAX])
			eff[UCLAMP_MIN] = eff[UCLAMP_MAX];

		for (int id = 0; id < UCLAMP_CNT; id++) {
			if (eff[id] == tg->eff[id].value)
				continue;
			tg->eff[id].value = eff[id];
			tg->eff[id].bucket_id = uclamp_bucket_id(sys, eff[id]);
			tg->eff_changed |= 1U << id;
		}
	}
}

int uclamp_group_get(struct uclamp_sys *sys, const char *path)
{
	char parent_path[sizeof(sys->groups[0].path)];
	const char *slash;
	int parent, g;

	if (!uclamp_group_path_valid(path))
		return -1;
	g = uclamp_group_find(sys, path);
	if (g >= 0)
		return g;

	/* Create the parent first ("/a/b" needs "/a"). */
	slash = strrchr(path, '/');
	if (slash == path) {
		snprintf(parent_path, sizeof(parent_path), "/");
	} else {
		size_t n = (size_t)(slash - path);

		memcpy(parent_path, path, n);
		parent_path[n] = '\0';
	}
	parent = uclamp_group_get(sys, parent_path);
	if (parent < 0 || sys->nr_groups >= UCLAMP_MAX_GROUPS)
		return -1;

	g = sys->nr_groups++;
	struct uclamp_group *tg = &sys->groups[g];
	memset(tg, 0, sizeof(*tg));
	snprintf(tg->path, sizeof(tg->path), "%s", path);
	tg->parent = parent;
	/* alloc_uclamp_sched_group(): requests {0, 1024} (not user defined), effective copied from
	 * the parent; then css_online() runs cpu_util_update_eff() on the new group. */
	for (int id = 0; id < UCLAMP_CNT; id++) {
		uclamp_se_set(sys, &tg->req[id], uclamp_none(id), false);
		tg->eff[id] = sys->groups[parent].eff[id];
	}
	cpu_util_update_eff(sys, g);
	return g;
}

const char *uclamp_group_file_name(enum uclamp_id id)
{
	return id == UCLAMP_MIN ? "cpu.uclamp.min" : "cpu.uclamp.max";
}

/*
 * cgroup_parse_float(buf, 2, &percent) then the range check of capacity_from_percent().
 * Stricter than the kernel's sscanf("%lld.%n%lld%n") on purpose: trailing junk and any minus
 * sign are rejected (the kernel accepts "12abc" as 12 and "-0.5" as 0.50). Like the kernel,
 * more than 2 decimals are rounded to 2 (DIV_ROUND_CLOSEST).
 * Returns 0, -1 for junk, -2 for out of range.
 */
static int uclamp_parse_percent(const char *text, u64 *percent_x100)
{
	const char *s = text;
	u64 whole = 0, frac = 0, pow10 = 1;
	int wdigits = 0, fdigits = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		if (++wdigits > 15)
			return -2;
		whole = whole * 10 + (u64)(*s++ - '0');
	}
	if (*s == '.') {
		s++;
		while (isdigit((unsigned char)*s)) {
			if (++fdigits > 15)
				return -1;
			frac = frac * 10 + (u64)(*s++ - '0');
			pow10 *= 10;
		}
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return -1;

	/* Scale the fraction to 2 digits: pad, or DIV_ROUND_CLOSEST by the extra digits. */
	if (fdigits < UCLAMP_PERCENT_SHIFT) {
		for (int i = fdigits; i < UCLAMP_PERCENT_SHIFT; i++)
			frac *= 10;
	} else {
		u64 div = pow10 / 100;

		frac = (frac + div / 2) / div;
	}
	*percent_x100 = whole * 100 + frac;
	if (*percent_x100 > UCLAMP_PERCENT_SCALE)
		return -2;
	return 0;
}

static bool uclamp_is_max_keyword(const char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	if (strncmp(text, "max", 3) != 0)
		return false;
	text += 3;
	while (isspace((unsigned char)*text))
		text++;
	return *text == '\0';
}

int uclamp_capacity_from_percent(const char *text, unsigned int *out)
{
	u64 percent;

	if (uclamp_is_max_keyword(text)) {
		*out = SCHED_CAPACITY_SCALE;
		return 0;
	}
	if (uclamp_parse_percent(text, &percent) < 0)
		return GS_EPOLICY;
	/* util = DIV_ROUND_CLOSEST(percent << SCHED_CAPACITY_SHIFT, UCLAMP_PERCENT_SCALE) */
	*out = (unsigned int)(((percent << SCHED_CAPACITY_SHIFT) + UCLAMP_PERCENT_SCALE / 2) /
			      UCLAMP_PERCENT_SCALE);
	return 0;
}

int uclamp_group_write(struct uclamp_sys *sys, int group, enum uclamp_id id, const char *text,
		       u64 now_ns, struct gs_error *err)
{
	unsigned int util = 0;
	u64 percent;
	int rc;

	if (group < 0 || group >= sys->nr_groups)
		return gs_error_set(err, GS_EPOLICY, "no cgroup %d", group);
	if ((unsigned int)id >= UCLAMP_CNT)
		return gs_error_set(err, GS_EPOLICY, "bad clamp id %d", (int)id);
	/* The files are CFTYPE_NOT_ON_ROOT: the root's values follow the sysctls. */
	if (group == 0)
		return gs_error_set(err, GS_EPOLICY, "'/': %s does not exist on the root cgroup",
				    uclamp_group_file_name(id));

	if (!uclamp_is_max_keyword(text)) {
		rc = uclamp_parse_percent(text, &percent);
		if (rc == -2)
			return gs_error_set(err, GS_EPOLICY, "'%s': percent out of range 0..100",
					    text);
		if (rc < 0)
			return gs_error_set(err, GS_EPOLICY,
					    "'%s': not a percent (want 0..100 with up to 2 decimals, "
					    "or max)",
					    text);
	}
	if (uclamp_capacity_from_percent(text, &util))
		return gs_error_set(err, GS_EPOLICY, "'%s': not a percent", text);

	/* cpu_uclamp_write(): the key flips on once the value parses, changed or not. No check
	 * of min <= max here: cpu_util_update_eff() caps the effective min by the max. */
	uclamp_key_enable(sys, now_ns);

	struct uclamp_group *tg = &sys->groups[group];
	if (tg->req[id].value != util)
		uclamp_se_set(sys, &tg->req[id], util, false);
	cpu_util_update_eff(sys, group);
	return 0;
}
