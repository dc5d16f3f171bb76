/*
 * schedutil.c - the schedutil governor, following Linux v5.9 kernel/sched/cpufreq_schedutil.c
 * (and schedutil_cpu_util() from that file, map_util_freq() from include/linux/sched/cpufreq.h).
 * Facts: ../shared/facts/kernel-v5.9.md §4; design DESIGN.md §7. See schedutil.h.
 *
 * What the replay gives instead of the kernel's state: the rq signals come from
 * env->cpu_util() (struct sched_cpu_util), the rq clamps from env->cpu_uclamp(), the busy hold
 * reads sched_cpu_util.idle_calls, TICK_NSEC comes from env->hz. The kthread of the slow path is
 * the cpufreq core's switch latency (cpufreq_request). Policy limits do not change during a
 * replay, so sugov_limits() and limits_changed are only reached through ignore_dl_rate_limit.
 *
 * arm64 is frequency invariant (arch_scale_freq_invariant), so get_next_freq always scales
 * cpuinfo.max_freq.
 */
#include "gov/schedutil.h"

#include <stdlib.h>

#include "gov/tunables.h"

static const struct uclamp_rq_pair *sugov_cpu_uclamp(const struct sugov_policy *sg_policy,
						     int cpu)
{
	const struct gov_env *env = &sg_policy->env;

	if (!env->uclamp || !env->cpu_uclamp)
		return NULL;
	return env->cpu_uclamp(env->ctx, cpu);
}

unsigned long schedutil_cpu_util(const struct sched_cpu_util *cu, unsigned long util_cfs,
				 unsigned long max, enum schedutil_type type,
				 const struct uclamp_sys *uc, const struct uclamp_rq_pair *rq)
{
	bool uclamp_used = uc && uclamp_is_used(uc);
	unsigned long dl_util, util, irq;

	/* Without uclamp, a runnable RT task asks for the maximum (the RT boost). With uclamp in
	 * use, RT tasks get their boost through their uclamp.min instead. */
	if (!uclamp_used && type == FREQUENCY_UTIL && cu->rt_runnable)
		return max;

	/* Early check for a CPU saturated by irq time. */
	irq = cu->util_irq;
	if (irq >= max)
		return max;

	/* CFS and RT utilization, clamped together by the rq's uclamp values (p == NULL). */
	util = util_cfs + cu->util_rt;
	if (type == FREQUENCY_UTIL && uc && rq)
		util = uclamp_rq_util_with(uc, rq, util, NULL);

	dl_util = cu->util_dl;
	/* Saturated once DL is added: no idle time left, ask for the maximum. */
	if (util + dl_util >= max)
		return max;
	if (type == ENERGY_UTIL)
		util += dl_util;

	/*
	 * The task-clock signals do not see irq time; scale them to the time the CPU had for
	 * tasks and add irq back (scale_irq_capacity):
	 *
	 *   U' = irq + (max - irq) / max * U
	 */
	util = util * (max - irq) / max;
	util += irq;

	/* DL tasks are admitted by bandwidth: request exactly that for them. */
	if (type == FREQUENCY_UTIL)
		util += cu->bw_dl;

	return util < max ? util : max;
}

unsigned long sugov_get_util(struct sugov_cpu *sg_cpu, struct sched_cpu_util *cu)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	const struct gov_env *env = &sg_policy->env;
	unsigned long max;

	*cu = (struct sched_cpu_util){0};
	if (env->cpu_util)
		env->cpu_util(env->ctx, sg_cpu->cpu, cu);
	max = cu->capacity ? cu->capacity : (unsigned long)SCHED_CAPACITY_SCALE;
	sg_cpu->max = max;
	sg_cpu->bw_dl = cu->bw_dl;
	return schedutil_cpu_util(cu, cu->util_cfs, max, FREQUENCY_UTIL, env->uclamp,
				  sugov_cpu_uclamp(sg_policy, sg_cpu->cpu));
}

bool sugov_should_update_freq(struct sugov_policy *sg_policy, u64 time)
{
	s64 delta_ns;

	/* cpufreq_this_cpu_can_update: cpufreq-dt sets dvfs_possible_from_any_cpu, every CPU
	 * of the policy may update it. */
	if (sg_policy->limits_changed) {
		sg_policy->limits_changed = false;
		sg_policy->need_freq_update = true;
		return true;
	}

	delta_ns = (s64)(time - sg_policy->last_freq_update_time);
	return delta_ns >= sg_policy->freq_update_delay_ns;
}

bool sugov_update_next_freq(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	/* The rate limit counts from the last change of next_freq, not the last evaluation. */
	if (sg_policy->next_freq == next_freq)
		return false;

	sg_policy->next_freq = next_freq;
	sg_policy->last_freq_update_time = time;
	return true;
}

void sugov_fast_switch(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	if (sugov_update_next_freq(sg_policy, time, next_freq))
		cpufreq_request(sg_policy->policy, next_freq, time);
}

void sugov_deferred_update(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	if (!sugov_update_next_freq(sg_policy, time, next_freq))
		return;
	/* irq_work -> sugov:N kthread -> __cpufreq_driver_target(next_freq, RELATION_L). The
	 * core holds the request for switch_latency_ns; a newer next_freq replaces it, as the
	 * kthread reads next_freq only when it runs (work_in_progress). */
	cpufreq_request(sg_policy->policy, next_freq, time);
}

/*
 * get_next_freq: the frequency for util out of max, with 25% headroom -- the tipping point
 * is at util/max = 0.8:
 *
 *   next_freq = C * max_freq * util / max,  C = 1.25
 *
 * The raw value is cached: the same raw frequency returns the previous next_freq without a
 * new resolution (unless the limits changed).
 */
unsigned int get_next_freq(struct sugov_policy *sg_policy, unsigned long util,
			   unsigned long max)
{
	struct cpufreq_policy *policy = sg_policy->policy;
	unsigned long freq = map_util_freq(util, policy->cpuinfo_max_khz, max);
	unsigned int raw = freq > UINT32_MAX ? UINT32_MAX : (unsigned int)freq;

	if (raw == sg_policy->cached_raw_freq && !sg_policy->need_freq_update)
		return sg_policy->next_freq;

	sg_policy->need_freq_update = false;
	sg_policy->cached_raw_freq = raw;
	return cpufreq_driver_resolve_freq(policy, raw);
}

/*
 * The iowait boost (v5.9): a task waking from IO asks for IOWAIT_BOOST_MIN (1/8 of the
 * capacity), doubled at each further IO wakeup up to the full capacity; without new IO
 * wakeups it halves at each evaluation and drops to 0 below the minimum; after more than a
 * tick without any update of this CPU it restarts.
 */
bool sugov_iowait_reset(struct sugov_cpu *sg_cpu, u64 time, bool set_iowait_boost)
{
	s64 delta_ns = (s64)(time - sg_cpu->last_update);

	/* Reset only if a tick has elapsed since the last request. */
	if (delta_ns <= (s64)sg_cpu->sg_policy->tick_nsec)
		return false;

	sg_cpu->iowait_boost = set_iowait_boost ? IOWAIT_BOOST_MIN : 0;
	sg_cpu->iowait_boost_pending = set_iowait_boost;
	return true;
}

void sugov_iowait_boost(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	bool set_iowait_boost = flags & SCHED_CPUFREQ_IOWAIT;

	/* Reset the boost if the CPU appears to have been idle enough. */
	if (sg_cpu->iowait_boost && sugov_iowait_reset(sg_cpu, time, set_iowait_boost))
		return;

	/* Boost only tasks waking up after IO. */
	if (!set_iowait_boost)
		return;

	/* Double the boost only once per request. */
	if (sg_cpu->iowait_boost_pending)
		return;
	sg_cpu->iowait_boost_pending = true;

	if (sg_cpu->iowait_boost) {
		unsigned int b = sg_cpu->iowait_boost << 1;

		sg_cpu->iowait_boost = b < SCHED_CAPACITY_SCALE ? b : SCHED_CAPACITY_SCALE;
		return;
	}

	/* First wakeup after IO: start with the minimum boost. */
	sg_cpu->iowait_boost = IOWAIT_BOOST_MIN;
}

unsigned long sugov_iowait_apply(struct sugov_cpu *sg_cpu, u64 time, unsigned long util,
				 unsigned long max)
{
	unsigned long boost;

	if (!sg_cpu->iowait_boost)
		return util;

	if (sugov_iowait_reset(sg_cpu, time, false))
		return util;

	if (!sg_cpu->iowait_boost_pending) {
		/* No new request: decay the boost. */
		sg_cpu->iowait_boost >>= 1;
		if (sg_cpu->iowait_boost < IOWAIT_BOOST_MIN) {
			sg_cpu->iowait_boost = 0;
			return util;
		}
	}

	sg_cpu->iowait_boost_pending = false;

	/* iowait_boost is on the 1024 scale; bring it to this CPU's capacity. */
	boost = ((unsigned long)sg_cpu->iowait_boost * max) >> SCHED_CAPACITY_SHIFT;
	return boost > util ? boost : util;
}

/* The kernel's sugov_cpu_is_busy: the CPU has not entered idle since the last call. */
static bool sugov_cpu_is_busy(struct sugov_cpu *sg_cpu, const struct sched_cpu_util *cu)
{
	bool ret = cu->idle_calls == sg_cpu->saved_idle_calls;

	sg_cpu->saved_idle_calls = cu->idle_calls;
	return ret;
}

/* ignore_dl_rate_limit: more DL bandwidth than at the last evaluation skips the rate limit. */
static void ignore_dl_rate_limit(struct sugov_cpu *sg_cpu, struct sugov_policy *sg_policy,
				 const struct sched_cpu_util *cu)
{
	if (cu->bw_dl > sg_cpu->bw_dl)
		sg_policy->limits_changed = true;
}

static void sugov_read_cpu(struct sugov_cpu *sg_cpu, struct sched_cpu_util *cu)
{
	const struct gov_env *env = &sg_cpu->sg_policy->env;

	*cu = (struct sched_cpu_util){0};
	if (env->cpu_util)
		env->cpu_util(env->ctx, sg_cpu->cpu, cu);
}

/* Record one CPU's evaluation; reported once the decision is made (sugov_report). */
static void sugov_record(struct sugov_cpu *sg_cpu, u64 time, const struct sched_cpu_util *cu,
			 unsigned long util, unsigned long max)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	const struct uclamp_rq_pair *rq = sugov_cpu_uclamp(sg_policy, sg_cpu->cpu);
	struct gov_eval *e;
	unsigned long target;

	if (!sg_policy->env.on_eval || sg_policy->nr_evals >= GS_MAX_CPUS)
		return;
	e = &sg_policy->evals[sg_policy->nr_evals++];
	*e = (struct gov_eval){0};
	e->time_ns = time;
	e->cpu = sg_cpu->cpu;
	e->policy = gov_policy_cpu(sg_policy->policy);
	e->in = *cu;
	if (rq && uclamp_is_used(sg_policy->env.uclamp)) {
		e->uclamp_min = rq->uc[UCLAMP_MIN].value;
		e->uclamp_max = rq->uc[UCLAMP_MAX].value;
	} else {
		e->uclamp_min = 0;
		e->uclamp_max = SCHED_CAPACITY_SCALE;
	}
	e->util = util;
	/* This CPU's own map_util_freq: in a shared policy the policy follows the largest. */
	target = map_util_freq(util, sg_policy->policy->cpuinfo_max_khz, max);
	e->target_khz = target > UINT32_MAX ? UINT32_MAX : (u32)target;
}

static void sugov_report(struct sugov_policy *sg_policy)
{
	const struct gov_env *env = &sg_policy->env;

	for (int i = 0; i < sg_policy->nr_evals; i++) {
		sg_policy->evals[i].freq_khz = sg_policy->policy->cur_khz;
		env->on_eval(env->ctx, &sg_policy->evals[i]);
	}
	sg_policy->nr_evals = 0;
}

static void sugov_commit(struct sugov_policy *sg_policy, u64 time, unsigned int next_f)
{
	if (sg_policy->policy->switch_latency_ns == 0)
		sugov_fast_switch(sg_policy, time, next_f);
	else
		sugov_deferred_update(sg_policy, time, next_f);
}

void sugov_update_single(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	struct sched_cpu_util cu;
	unsigned long util, max;
	unsigned int next_f;
	bool busy;

	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;

	sugov_read_cpu(sg_cpu, &cu);
	ignore_dl_rate_limit(sg_cpu, sg_policy, &cu);

	if (!sugov_should_update_freq(sg_policy, time))
		return;

	/* Limits may have changed: do not hold the frequency then. */
	busy = !sg_policy->need_freq_update && sugov_cpu_is_busy(sg_cpu, &cu);

	util = sugov_get_util(sg_cpu, &cu);
	max = sg_cpu->max;
	util = sugov_iowait_apply(sg_cpu, time, util, max);
	sugov_record(sg_cpu, time, &cu, util, max);
	next_f = get_next_freq(sg_policy, util, max);
	/* Do not lower the frequency of a CPU that has not been idle since the last
	 * evaluation: the reduction would likely be premature. */
	if (busy && next_f < sg_policy->next_freq) {
		next_f = sg_policy->next_freq;
		/* next_freq no longer matches the cached raw frequency. */
		sg_policy->cached_raw_freq = 0;
	}

	sugov_commit(sg_policy, time, next_f);
	sugov_report(sg_policy);
}

/* The policy follows its most loaded CPU: the largest util/max ratio over its CPUs. */
unsigned int sugov_next_freq_shared(struct sugov_cpu *sg_cpu, u64 time)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	unsigned long util = 0, max = 1;

	for (int j = 0; j < sg_policy->nr_cpus; j++) {
		struct sugov_cpu *j_sg_cpu = &sg_policy->cpus[j];
		struct sched_cpu_util cu;
		unsigned long j_util, j_max;

		j_util = sugov_get_util(j_sg_cpu, &cu);
		j_max = j_sg_cpu->max;
		j_util = sugov_iowait_apply(j_sg_cpu, time, j_util, j_max);
		sugov_record(j_sg_cpu, time, &cu, j_util, j_max);

		/* j_util / j_max > util / max, without division. */
		if (j_util * max > j_max * util) {
			util = j_util;
			max = j_max;
		}
	}

	return get_next_freq(sg_policy, util, max);
}

void sugov_update_shared(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	struct sched_cpu_util cu;
	unsigned int next_f;

	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;

	if (sg_policy->env.cpu_bw_dl) {
		/* only bw_dl is read here: the evaluation below reads every CPU afresh */
		if (sg_policy->env.cpu_bw_dl(sg_policy->env.ctx, sg_cpu->cpu) > sg_cpu->bw_dl)
			sg_policy->limits_changed = true;
	} else {
		sugov_read_cpu(sg_cpu, &cu);
		ignore_dl_rate_limit(sg_cpu, sg_policy, &cu);
	}

	if (sugov_should_update_freq(sg_policy, time)) {
		next_f = sugov_next_freq_shared(sg_cpu, time);
		sugov_commit(sg_policy, time, next_f);
		sugov_report(sg_policy);
	}
}

static int schedutil_init(struct cpufreq_policy *pol, const struct gov_env *env,
			  struct gov_param *params, int nr_params, void **data,
			  struct gs_error *err)
{
	struct sugov_policy *sg_policy;
	unsigned int rate_limit_us = cpufreq_policy_transition_delay_us(pol);
	/* iowait boost off by default: a deliberate departure from v5.9, where it is always on.
	 * A trace shows D-state sleeps, not in_iowait (io_schedule()), so the replay cannot tell
	 * which wakeups the kernel boosted; `--set iowait_boost=1` boosts every D-state wakeup.
	 * Every schedutil run says so in its notes (sim/replay.c). */
	bool iowait = false;
	int ret;

	ret = gov_param_rate_limit_us(params, nr_params, &rate_limit_us, err);
	if (ret)
		return ret;
	ret = gov_param_iowait_boost(params, nr_params, &iowait, err);
	if (ret)
		return ret;

	sg_policy = calloc(1, sizeof(*sg_policy));
	if (!sg_policy)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	sg_policy->policy = pol;
	sg_policy->env = *env;
	sg_policy->rate_limit_us = rate_limit_us;
	sg_policy->iowait_boost_enabled = iowait;
	sg_policy->tick_nsec = gov_tick_nsec(env->hz);
	/* sugov_start: everything else starts at 0. */
	sg_policy->freq_update_delay_ns = (s64)rate_limit_us * (s64)NSEC_PER_USEC;
	sg_policy->nr_cpus = pol->cl->nr_cpus;
	for (int i = 0; i < sg_policy->nr_cpus; i++) {
		sg_policy->cpus[i].sg_policy = sg_policy;
		sg_policy->cpus[i].cpu = pol->cl->cpus[i];
	}
	*data = sg_policy;
	return 0;
}

static void schedutil_update(struct cpufreq_policy *pol, void *data, int cpu, u64 now_ns,
			     unsigned int flags)
{
	struct sugov_policy *sg_policy = data;
	int idx = gov_cpu_index(pol, cpu);

	if (idx < 0)
		return;
	if (!sg_policy->iowait_boost_enabled)
		flags &= ~SCHED_CPUFREQ_IOWAIT;
	/* sugov_start installs sugov_update_shared when the policy spans several CPUs. */
	if (sg_policy->nr_cpus > 1)
		sugov_update_shared(&sg_policy->cpus[idx], now_ns, flags);
	else
		sugov_update_single(&sg_policy->cpus[idx], now_ns, flags);
}

static void schedutil_release(void *data)
{
	free(data);
}

const struct governor_ops schedutil_gov = {
	.name = "schedutil",
	.help = "Linux v5.9 schedutil: frequency from PELT util with uclamp; rate_limit_us=N "
		"(default from the transition latency), iowait_boost=0|1 (default 0)",
	.init = schedutil_init,
	.update = schedutil_update,
	.release = schedutil_release,
};
