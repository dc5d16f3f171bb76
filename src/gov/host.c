/*
 * host.c - the host side of the public governor interface (include/govsim/governor.h): a
 * struct govsim_governor run on struct gov_env and the cpufreq core, as a struct governor.
 *
 * Each policy gets a struct pub_state: the struct govsim_policy the governor sees (its
 * host_data points back here), the OPP table and the kernel profile's constants in the public
 * types, and during init the --set params. The policy's frequencies are copied into the public
 * struct before each call into the governor and after each request. Signals are converted
 * field by field (struct sched_cpu_util -> struct govsim_cpu_util), so the governor sees the
 * same numbers the internal interface gave; an evaluation it reports reaches the replay as the
 * governor's own record (struct govsim_eval, by pointer), with the frequency then in force.
 */
#include "gov/governor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "gov/tunables.h"

struct pub_state {
	struct govsim_policy gp;
	const struct govsim_governor *g;
	struct cpufreq_policy *pol;
	struct gov_env env;
	struct govsim_kernel kernel;
	struct govsim_opp opps[GS_MAX_OPPS];
	u64 cpu_mask; /* bit c set: CPU c is one of the policy's (the cpufreq table's CPUs) */
	void *data; /* the governor's */
	/* during init only */
	struct gov_param *params;
	int nr_params;
	struct gs_error *err;
	bool err_set;
};

/*
 * A plugin is code we did not write: every host call checks what it is given and answers
 * "nothing" (zeroed signals, no clamp, GOVSIM_EINVAL, a dropped report) rather than pass a bad
 * CPU to the replay, which indexes its per-CPU arrays with it, or follow a NULL pointer.
 */
static struct pub_state *state_of(const struct govsim_policy *gp)
{
	return gp ? gp->host_data : NULL;
}

/* The policy's state when cpu is one of its CPUs, else NULL. */
static struct pub_state *state_cpu(const struct govsim_policy *gp, int cpu)
{
	struct pub_state *st = state_of(gp);

	if (!st || cpu < 0 || cpu >= GS_MAX_CPUS || !((st->cpu_mask >> cpu) & 1))
		return NULL;
	return st;
}

static void pub_refresh(struct pub_state *st)
{
	st->gp.min_khz = st->pol->min_khz;
	st->gp.max_khz = st->pol->max_khz;
	st->gp.cur_khz = st->pol->cur_khz;
	st->gp.this_cpu = st->pol->this_cpu;
	st->gp.next_khz = cpufreq_next_khz(st->pol);
}

static void cpu_util_to_pub(const struct sched_cpu_util *in, struct govsim_cpu_util *out)
{
	out->util_avg = in->util_avg;
	out->util_est_enqueued = in->util_est_enqueued;
	out->util_cfs = in->util_cfs;
	out->util_rt = in->util_rt;
	out->util_dl = in->util_dl;
	out->bw_dl = in->bw_dl;
	out->util_irq = in->util_irq;
	out->rt_runnable = in->rt_runnable;
	out->capacity = in->capacity;
	out->busy = in->busy;
	out->idle_calls = in->idle_calls;
	out->runnable_avg = in->runnable_avg;
}

/* ---- the host calls ---------------------------------------------------------------------------- */

static void host_cpu_util(const struct govsim_policy *gp, int cpu, struct govsim_cpu_util *out)
{
	struct pub_state *st = state_cpu(gp, cpu);
	struct sched_cpu_util cu;

	if (!out)
		return;
	/* the replay's reader writes every field (zeroed signals for an unknown CPU) */
	if (st && st->env.sched)
		sched_cpu_util(st->env.sched, cpu, &cu);
	else if (st && st->env.cpu_util)
		st->env.cpu_util(st->env.ctx, cpu, &cu);
	else
		cu = (struct sched_cpu_util){0};
	cpu_util_to_pub(&cu, out);
}

static unsigned long host_cpu_bw_dl(const struct govsim_policy *gp, int cpu)
{
	struct pub_state *st = state_cpu(gp, cpu);
	struct sched_cpu_util cu;

	if (!st)
		return 0;
	if (st->env.sched)
		return sched_cpu_bw_dl(st->env.sched, cpu);
	if (st->env.cpu_bw_dl)
		return st->env.cpu_bw_dl(st->env.ctx, cpu);
	if (!st->env.cpu_util)
		return 0;
	st->env.cpu_util(st->env.ctx, cpu, &cu); /* writes every field */
	return cu.bw_dl;
}

/* The rq's clamps of cpu while uclamp is in use (the static key on), else NULL: with the key
 * off the clamps are not read (uclamp_rq_util_with() returns util unchanged), so the replay is
 * not asked for them. */
static const struct uclamp_rq_pair *env_rq_used(const struct gov_env *env, int cpu)
{
	if (!env->uclamp || !env->cpu_uclamp || !uclamp_is_used(env->uclamp))
		return NULL;
	return env->cpu_uclamp(env->ctx, cpu);
}

static void host_rq_clamp(const struct govsim_policy *gp, int cpu, struct govsim_rq_clamp *out)
{
	struct pub_state *st = out ? state_cpu(gp, cpu) : NULL;
	const struct uclamp_rq_pair *rq = st ? env_rq_used(&st->env, cpu) : NULL;

	if (!out)
		return;
	if (rq) {
		out->used = 1;
		out->min = rq->uc[UCLAMP_MIN].value;
		out->max = rq->uc[UCLAMP_MAX].value;
	} else {
		out->used = 0;
		out->min = 0;
		out->max = SCHED_CAPACITY_SCALE;
	}
}

static unsigned long host_uclamp_rq_util_with(const struct govsim_policy *gp, int cpu,
					      unsigned long util)
{
	struct pub_state *st = state_cpu(gp, cpu);
	const struct uclamp_rq_pair *rq = st ? env_rq_used(&st->env, cpu) : NULL;

	if (!rq)
		return util;
	return uclamp_rq_util_with(st->env.uclamp, rq, util, NULL);
}

static uint64_t host_cpu_idle_ns(const struct govsim_policy *gp, int cpu, uint64_t now_ns)
{
	struct pub_state *st = state_cpu(gp, cpu);

	if (!st || !st->env.cpu_idle_ns)
		return 0;
	return st->env.cpu_idle_ns(st->env.ctx, cpu, now_ns);
}

static enum cpufreq_relation relation_of(enum govsim_relation rel)
{
	switch (rel) {
	case GOVSIM_RELATION_H:
		return CPUFREQ_RELATION_H;
	case GOVSIM_RELATION_C:
		return CPUFREQ_RELATION_C;
	case GOVSIM_RELATION_L:
	default:
		return CPUFREQ_RELATION_L;
	}
}

/*
 * The OPP for khz under rel. RELATION_LE is cpufreq_driver_resolve_freq(): it honours the
 * policy's efficiencies (set by the replay for a v6.1+ profile) and is RELATION_L without them.
 */
static unsigned int resolve(const struct cpufreq_policy *pol, unsigned int khz,
			    enum govsim_relation rel)
{
	if (rel == GOVSIM_RELATION_LE)
		return cpufreq_driver_resolve_freq(pol, khz);
	return cpufreq_resolve_relation(pol, khz, relation_of(rel));
}

static unsigned int host_resolve_freq(const struct govsim_policy *gp, unsigned int khz,
				      enum govsim_relation rel)
{
	struct pub_state *st = state_of(gp);

	return st ? resolve(st->pol, khz, rel) : 0;
}

static int host_request_freq(struct govsim_policy *gp, unsigned int khz,
			     enum govsim_relation rel, uint64_t now_ns)
{
	struct pub_state *st = state_of(gp);
	bool changed;

	if (!st)
		return 0;
	/* LE: the efficient OPP, then __cpufreq_driver_target on it (L finds it exactly) */
	if (rel == GOVSIM_RELATION_LE) {
		khz = cpufreq_driver_resolve_freq(st->pol, khz);
		rel = GOVSIM_RELATION_L;
	}
	changed = cpufreq_request_relation(st->pol, khz, relation_of(rel), now_ns);

	pub_refresh(st);
	return changed;
}

static void host_start_freq(struct govsim_policy *gp, unsigned int khz, enum govsim_relation rel)
{
	struct pub_state *st = state_of(gp);

	if (!st)
		return;
	st->pol->cur_khz = resolve(st->pol, khz, rel);
	pub_refresh(st);
}

static void host_report(struct govsim_policy *gp, const struct govsim_eval *e)
{
	struct pub_state *st = e ? state_cpu(gp, e->cpu) : NULL;

	if (st && st->env.on_eval)
		st->env.on_eval(st->env.ctx, e, st->pol->cur_khz);
}

/*
 * Tunables per policy: where a driver keeps the governor's tunables per policy
 * (have_governor_per_policy(): /sys/devices/system/cpu/cpufreq/policyN/<governor>/, the
 * arm64 big.LITTLE phones), `--set policyN.NAME=V` sets them for the policy whose first CPU
 * is N; `--set NAME=V` sets every policy, and the policy's own value wins. Both are marked
 * used whenever a policy asks, so that a global value every policy overrides is no error.
 */
static void policy_key(const struct pub_state *st, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "policy%d.%s", st->pol->tbl.cpus[0], name);
}

static const char *host_tunable(struct govsim_policy *gp, const char *name)
{
	struct pub_state *st = state_of(gp);
	struct gov_param *p, *own;
	char key[128];

	if (!st || !st->params || !name)
		return NULL;
	p = gov_param_find(st->params, st->nr_params, name);
	policy_key(st, name, key, sizeof(key));
	own = gov_param_find(st->params, st->nr_params, key);
	if (own)
		p = own;
	return p ? p->value : NULL;
}

static int host_tunable_uint(struct govsim_policy *gp, const char *name, unsigned int lo,
			     unsigned int hi, unsigned int *out)
{
	struct pub_state *st = state_of(gp);
	char key[128];

	if (!st || !out)
		return GOVSIM_EINVAL;
	if (!st->params || !name)
		return GOVSIM_OK;
	policy_key(st, name, key, sizeof(key));
	if (gov_param_uint(st->params, st->nr_params, name, lo, hi, out, st->err) ||
	    gov_param_uint(st->params, st->nr_params, key, lo, hi, out, st->err)) {
		st->err_set = true;
		return GOVSIM_EINVAL;
	}
	return GOVSIM_OK;
}

static int host_error(struct govsim_policy *gp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int host_error(struct govsim_policy *gp, const char *fmt, ...)
{
	struct pub_state *st = state_of(gp);
	char msg[GS_ERROR_MSG_MAX];
	va_list ap;

	if (!st || !fmt)
		return GOVSIM_EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (st->err) {
		gs_error_set(st->err, GS_EARG, "%s", msg);
		st->err_set = true;
	}
	return GOVSIM_EINVAL;
}

static const struct govsim_host host = {
	.abi_major = GOVSIM_GOV_ABI_MAJOR,
	.abi_minor = GOVSIM_GOV_ABI_MINOR,
	.cpu_util = host_cpu_util,
	.cpu_bw_dl = host_cpu_bw_dl,
	.rq_clamp = host_rq_clamp,
	.uclamp_rq_util_with = host_uclamp_rq_util_with,
	.cpu_idle_ns = host_cpu_idle_ns,
	.resolve_freq = host_resolve_freq,
	.request_freq = host_request_freq,
	.start_freq = host_start_freq,
	.report = host_report,
	.tunable = host_tunable,
	.tunable_uint = host_tunable_uint,
	.error = host_error,
};

/* ---- starting, running and stopping a governor ---------------------------------------------- */

/*
 * The run's kernel profile (env->kernel; NULL: the default, v5.9) as struct govsim_kernel: the
 * profile's schedutil behaviours are the public enums already. Constants:
 * map_util_freq/map_util_perf's 5/4 (include/linux/sched/cpufreq.h),
 * IOWAIT_BOOST_MIN = SCHED_CAPACITY_SCALE / 8 (cpufreq_schedutil.c v5.4+).
 */
static void kernel_from_profile(struct govsim_kernel *k, const struct kernel_profile *kp, int hz)
{
	if (!kp)
		kp = kernel_profile_default();
	k->release = kp->name;
	k->hz = hz > 0 ? hz : 250;
	k->headroom_num = 5;
	k->headroom_den = 4;
	k->next_freq_relation =
		kp->resolve_relation == CPUFREQ_RESOLVE_LE ? GOVSIM_RELATION_LE : GOVSIM_RELATION_L;
	k->iowait_boost_min = SCHED_CAPACITY_SCALE / 8;
	k->sugov_cfs_input = kp->sugov_cfs_input;
	k->sugov_headroom = kp->sugov_headroom;
	k->sugov_busy_hold = kp->sugov_busy_hold;
	k->sugov_no_limits_changed = !kp->sugov_limits_changed;
	k->sugov_commit_on_need_update = kp->sugov_commit_on_need_update;
	k->sugov_iowait_units = kp->sugov_iowait_units;
	k->sugov_iowait_clamped = kp->sugov_iowait_clamped;
	k->sugov_shared_agg = kp->sugov_shared_agg;
}

static int pub_init(const struct govsim_governor *g, struct cpufreq_policy *pol,
		    const struct gov_env *env, struct gov_param *params, int nr_params,
		    void **data, struct gs_error *err)
{
	struct pub_state *st = calloc(1, sizeof(*st));
	const struct cpufreq_opp_table *tbl = &pol->tbl;
	int ret;

	if (!st)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	st->g = g;
	st->pol = pol;
	st->env = *env;
	kernel_from_profile(&st->kernel, env->kernel, env->hz);
	for (int i = 0; i < tbl->nr_opps; i++) {
		st->opps[i].khz = tbl->opps[i].freq_khz;
		st->opps[i].capacity = tbl->opps[i].capacity;
	}
	st->gp.host = &host;
	st->gp.host_data = st;
	st->gp.kernel = &st->kernel;
	st->gp.id = pol->id;
	st->gp.nr_cpus = tbl->nr_cpus;
	st->gp.cpus = tbl->cpus;
	for (int i = 0; i < tbl->nr_cpus; i++)
		if (tbl->cpus[i] >= 0 && tbl->cpus[i] < GS_MAX_CPUS)
			st->cpu_mask |= 1ull << tbl->cpus[i];
	st->gp.nr_opps = tbl->nr_opps;
	st->gp.opps = st->opps;
	st->gp.cpuinfo_min_khz = pol->cpuinfo_min_khz;
	st->gp.cpuinfo_max_khz = pol->cpuinfo_max_khz;
	st->gp.transition_latency_ns = pol->transition_latency_ns;
	st->gp.transition_delay_us = cpufreq_policy_transition_delay_us(pol);
	st->gp.switch_latency_ns = pol->switch_latency_ns;
	st->gp.freq_invariant = pol->freq_invariant;
	st->gp.dvfs_possible_from_any_cpu = pol->dvfs_possible_from_any_cpu;
	st->gp.running_before = pol->gov_running_before;
	st->gp.report = env->on_eval != NULL;
	pub_refresh(st);

	st->params = params;
	st->nr_params = nr_params;
	st->err = err;
	ret = g->init(&st->gp, &st->data);
	st->params = NULL;
	st->err = NULL;
	if (ret != GOVSIM_OK) {
		if (ret == GOVSIM_ENOMEM)
			gs_error_set(err, GS_ENOMEM, "governor '%s': out of memory", g->name);
		else if (!st->err_set)
			gs_error_set(err, GS_EARG, "governor '%s': init failed (%d)", g->name, ret);
		if (st->data && g->release)
			g->release(&st->gp, st->data);
		free(st);
		return err->code ? err->code : GS_EARG;
	}
	*data = st;
	return 0;
}

int governor_init(const struct governor *gov, struct cpufreq_policy *pol,
		  const struct gov_env *env, struct gov_param *params, int nr_params, void **data,
		  struct gs_error *err)
{
	return pub_init(gov->pub, pol, env, params, nr_params, data, err);
}

void governor_update(void *data, int cpu, u64 now_ns, unsigned int flags)
{
	struct pub_state *st = data;

	pub_refresh(st);
	st->g->update(&st->gp, st->data, cpu, now_ns, flags);
}

void governor_release(void *data)
{
	struct pub_state *st = data;

	if (!st)
		return;
	if (st->g->release)
		st->g->release(&st->gp, st->data);
	free(st);
}

void *governor_data(void *data)
{
	return data ? ((struct pub_state *)data)->data : NULL;
}
