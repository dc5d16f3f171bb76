/*
 * schedutil.c - the schedutil governor, following Linux v5.9 kernel/sched/cpufreq_schedutil.c
 * (and map_util_freq() from include/linux/sched/cpufreq.h). See schedutil.h.
 *
 * Written against the public interface (include/govsim/governor.h), as any plugin is, and the
 * scheduler's one utilization function, sched/cpu_util.h (schedutil_cpu_util(), v6.8+
 * effective_cpu_util(): the kernel's own, shared with EAS), which a plugin build compiles in.
 * What the replay gives instead of the kernel's state: the rq signals come from
 * govsim_cpu_util() (struct govsim_cpu_util), the rq clamps through govsim_rq_clamp() and
 * govsim_uclamp_rq_util_with(), the busy hold reads govsim_cpu_util.idle_calls, TICK_NSEC comes
 * from the kernel profile's hz. The kthread of the slow path is the cpufreq core's switch
 * latency (govsim_request_freq). Policy limits do not change during a replay, so sugov_limits()
 * and limits_changed are only reached through ignore_dl_rate_limit.
 *
 * Where the platform is not frequency invariant (pol->freq_invariant 0: x86 without
 * APERF/MPERF, the lab's guests), get_next_freq scales policy->cur, the frequency in force, as
 * the kernel does (sugov_ref_freq).
 *
 * Other kernels (the run's kernel profile, `govsim kernels show`) change only what struct
 * sugov_variant names, read once in schedutil_init from the public struct govsim_kernel
 * (pol->kernel): the CFS input (v6.1 capped, v6.6 runnable-boosted), the headroom (v5.15+
 * map_util_perf), the busy hold and its gate, the need_freq_update commit (v5.10+),
 * 4.19-early's missing limits_changed, the iowait floor and clamp, and v6.6's plain-max shared
 * policy; RELATION_LE (v6.1+) is the profile's next_freq_relation. sugov_cpu_rq() fills what
 * the util function reads of the runqueue from the host (struct govsim_cpu_util and the rq
 * clamps); v4.19 has no uclamp, which the host's rq clamps give (never used).
 *
 * Differences from v5.9 kernel/sched/cpufreq_schedutil.c, and why:
 * - iowait boost off by default (`--set iowait_boost=1` turns it on): a trace shows D-state
 *   sleeps, not in_iowait, so the replay cannot tell which wakeups the kernel boosted. Every
 *   schedutil run says so in its notes. A trace with the kernel's own requests (Android's
 *   sugov_set_iowait_boost events) turns it on by default: the replay then sends the
 *   SCHED_CPUFREQ_IOWAIT updates the trace shows (sim/replay.c).
 * - No update_lock, irq_work or sugov:N kthread: the replay is single-threaded. The slow path
 *   (sugov_deferred_update) hands next_freq to the cpufreq core, which puts it in force after
 *   the switch latency; a newer next_freq while one waits replaces it, as the kthread reads
 *   next_freq only when it runs (work_in_progress). The kthread's own scheduling (a DL task
 *   that may be delayed) is not modelled: the latency is a constant.
 * - Fast switch (sugov_fast_switch) is chosen by a zero switch latency (--set
 *   switch_latency_us=0), not by the driver's fast_switch_possible; cpufreq-dt on Hikey960 and
 *   Juno has none, so their default is the slow path, as in the kernel.
 * - cpufreq_this_cpu_can_update() reads the host's this_cpu, the CPU whose trace event the
 *   replay is processing (a tick or blocked-load refresh of its own: the CPU itself).
 * - sugov_limits() is never called: policy limits (--set scaling_min_freq/scaling_max_freq)
 *   are set before the replay and do not change, so limits_changed is only set by
 *   ignore_dl_rate_limit().
 * - The rq signals come from the host (govsim_cpu_util: the replay's PELT and util_est, or the
 *   trace's own with --util-source trace), not from struct rq; sugov_cpu_is_busy() compares the
 *   host's idle_calls, the replay's count of idle entries, for tick_nohz_get_idle_calls_cpu().
 * - rate_limit_us is a --set tunable read at init (any unsigned int, as rate_limit_us_store
 *   takes); the kernel's sysfs store can change it while running.
 * - Added from the Android common kernels (android-4.19, android-5.4): up_rate_limit_us and
 *   down_rate_limit_us, each defaulting to rate_limit_us (sugov_up_down_rate_limit; equal,
 *   they are mainline's rule). Under a v5.10+ profile the direction check follows the
 *   need_freq_update commit, as the vendor trees that carry both order them.
 * - A governor that ran before the trace (no start of it traced: govsim_policy.running_before)
 *   starts with next_freq = the frequency in force and cached_raw_freq unknown, not as
 *   sugov_start() leaves it (0, 0): its last decision is what the trace shows in force. A
 *   known start (the lab's governor switch) is sugov_start()'s.
 * - sugov_record()/sugov_report() are the replay's own (the --timeline rows): they read the
 *   evaluation and change no decision.
 */
#include "gov/schedutil.h"

#include <stdlib.h>

/* The kernel's names for the interface's constants. */
#define SCHED_CAPACITY_SHIFT GOVSIM_CAPACITY_SHIFT
#define SCHED_CAPACITY_SCALE GOVSIM_CAPACITY_SCALE
#define SCHED_CPUFREQ_IOWAIT GOVSIM_UPDATE_IOWAIT
#define NSEC_PER_USEC        1000ULL

const struct sugov_variant sugov_variant_v5_9 = {0};

void sugov_variant_from_profile(struct sugov_variant *v, const struct govsim_kernel *k)
{
	*v = sugov_variant_v5_9;
	if (!k)
		return;
	v->cfs_input = k->sugov_cfs_input;
	v->headroom = k->sugov_headroom;
	v->busy_hold = k->sugov_busy_hold;
	v->no_limits_changed = k->sugov_no_limits_changed != 0;
	v->commit_on_need_update = k->sugov_commit_on_need_update != 0;
	v->iowait_units = k->sugov_iowait_units;
	v->iowait_clamped = k->sugov_iowait_clamped != 0;
	v->shared_agg = k->sugov_shared_agg;
}

/* uclamp_is_used() and the rq's clamp values of a CPU (none without a policy). */
static struct govsim_rq_clamp sugov_cpu_uclamp(const struct govsim_policy *pol, int cpu)
{
	struct govsim_rq_clamp rq = {.used = 0, .min = 0, .max = SCHED_CAPACITY_SCALE};

	if (pol)
		govsim_rq_clamp(pol, cpu, &rq);
	return rq;
}

/* What the util function reads of the runqueue: the signals cu and the rq clamps uc. */
static void sugov_fill_rq(const struct govsim_cpu_util *cu, const struct govsim_rq_clamp *uc,
			  struct cpu_util_rq *rq)
{
	rq->util_rt = cu->util_rt;
	rq->util_dl = cu->util_dl;
	rq->bw_dl = cu->bw_dl;
	rq->util_irq = cu->util_irq;
	rq->rt_runnable = cu->rt_runnable != 0;
	rq->uclamp_used = uc->used != 0;
	rq->uclamp_min = uc->min;
	rq->uclamp_max = uc->max;
}

void sugov_cpu_rq(const struct govsim_policy *pol, int cpu, const struct govsim_cpu_util *cu,
		  struct cpu_util_rq *rq)
{
	struct govsim_rq_clamp uc = sugov_cpu_uclamp(pol, cpu);

	sugov_fill_rq(cu, &uc, rq);
}

/*
 * The CFS util schedutil reads: cpu_util_cfs() = max(util_avg, util_est.enqueued), uncapped up
 * to v5.15; v6.1 caps it at capacity_orig; v6.6's cpu_util_cfs_boost() also takes the max
 * with runnable_avg before the cap (fair.c cpu_util l.7663-7725 v6.6).
 */
static unsigned long sugov_cpu_util_cfs(const struct sugov_variant *v,
					const struct govsim_cpu_util *cu, unsigned long max)
{
	unsigned long util = cu->util_cfs;

	switch (v->cfs_input) {
	case GOVSIM_CFS_UTIL_EST:
		return util;
	case GOVSIM_CFS_RUNNABLE_BOOST:
		if (cu->runnable_avg > util)
			util = cu->runnable_avg;
		break;
	case GOVSIM_CFS_UTIL_EST_CAPPED:
		break;
	}
	return util < max ? util : max;
}

/* Read the CPU's signals into *cu and keep what the next update compares (max, bw_dl);
 * returns its capacity (arch_scale_cpu_capacity; 0 is taken as 1024). */
static unsigned long sugov_read_util(struct sugov_cpu *sg_cpu, struct govsim_cpu_util *cu)
{
	/* the host writes every field (zeroed signals for a CPU it does not know) */
	govsim_cpu_util(sg_cpu->sg_policy->policy, sg_cpu->cpu, cu);
	sg_cpu->max = cu->capacity ? cu->capacity : (unsigned long)SCHED_CAPACITY_SCALE;
	sg_cpu->bw_dl = cu->bw_dl;
	return sg_cpu->max;
}

/* sugov_get_util() that also gives the rq clamps it read (*uc), for the evaluation's record. */
static unsigned long sugov_get_util_uc(struct sugov_cpu *sg_cpu, struct govsim_cpu_util *cu,
				       struct govsim_rq_clamp *uc)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	unsigned long max = sugov_read_util(sg_cpu, cu);
	struct cpu_util_rq rq;

	*uc = sugov_cpu_uclamp(sg_policy->policy, sg_cpu->cpu);
	sugov_fill_rq(cu, uc, &rq);
	return schedutil_cpu_util(&rq, sugov_cpu_util_cfs(&sg_policy->v, cu, max), max,
				  FREQUENCY_UTIL);
}

unsigned long sugov_get_util(struct sugov_cpu *sg_cpu, struct govsim_cpu_util *cu)
{
	struct govsim_rq_clamp uc;

	return sugov_get_util_uc(sg_cpu, cu, &uc);
}

/*
 * v6.8+ sugov_get_util(sg_cpu, boost) with the boost sugov_iowait_apply() gives before it:
 * util = max(effective_cpu_util(cpu_util_cfs_boost), boost), then the headroom in the band.
 */
static unsigned long sugov_get_util_perf(struct sugov_cpu *sg_cpu, u64 time,
					 struct govsim_cpu_util *cu, struct govsim_rq_clamp *uc)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	unsigned long max = sugov_read_util(sg_cpu, cu), boost, util, lo, hi;
	struct cpu_util_rq rq;

	boost = sugov_iowait_apply(sg_cpu, time, 0, max);
	*uc = sugov_cpu_uclamp(sg_policy->policy, sg_cpu->cpu);
	sugov_fill_rq(cu, uc, &rq);
	util = effective_cpu_util(&rq, sugov_cpu_util_cfs(&sg_policy->v, cu, max), max, &lo, &hi);
	if (boost > util)
		util = boost;
	return sugov_effective_cpu_perf(util, lo, hi);
}

/* The util get_next_freq() takes for one CPU, iowait boost included, as the profile computes
 * it (sg_cpu->max is its capacity afterwards); *cu and *uc are the signals and rq clamps it read,
 * which the evaluation's record takes as they are (nothing changes them in between). */
static unsigned long sugov_cpu_perf(struct sugov_cpu *sg_cpu, u64 time, struct govsim_cpu_util *cu,
				    struct govsim_rq_clamp *uc)
{
	unsigned long util;

	if (sg_cpu->sg_policy->v.headroom == GOVSIM_HEADROOM_EFFECTIVE_PERF)
		return sugov_get_util_perf(sg_cpu, time, cu, uc);
	util = sugov_get_util_uc(sg_cpu, cu, uc);
	return sugov_iowait_apply(sg_cpu, time, util, sg_cpu->max);
}

bool sugov_should_update_freq(struct sugov_policy *sg_policy, u64 time)
{
	s64 delta_ns;

	/* cpufreq_this_cpu_can_update(): a driver without dvfs_possible_from_any_cpu
	 * (acpi-cpufreq) cannot be asked from a CPU outside the policy, so such an update stops
	 * here, before limits_changed is consumed (v4.14+) */
	if (!govsim_this_cpu_can_update(sg_policy->policy))
		return false;
	if (sg_policy->limits_changed) {
		sg_policy->limits_changed = false;
		sg_policy->need_freq_update = true;
		return true;
	}
	/* 4.19.1: no limits_changed, need_freq_update itself skips the rate limit */
	if (sg_policy->v.no_limits_changed && sg_policy->need_freq_update)
		return true;

	delta_ns = (s64)(time - sg_policy->last_freq_update_time);
	return delta_ns >= sg_policy->freq_update_delay_ns;
}

/*
 * Android's split rate limits (the Android common kernels' android-4.19 and android-5.4
 * kernel/sched/cpufreq_schedutil.c, sugov_up_down_rate_limit): sugov_should_update_freq()
 * lets through every update min(up, down) after the last change, and a change up (down) of
 * next_freq must also wait up_rate_delay_ns (down_rate_delay_ns) from it. With both equal
 * to rate_limit_us it is mainline's rule.
 */
static bool sugov_up_down_rate_limit(const struct sugov_policy *sg_policy, u64 time,
				     unsigned int next_freq)
{
	s64 delta_ns = (s64)(time - sg_policy->last_freq_update_time);

	if (next_freq > sg_policy->next_freq && delta_ns < sg_policy->up_rate_delay_ns)
		return true;
	if (next_freq < sg_policy->next_freq && delta_ns < sg_policy->down_rate_delay_ns)
		return true;
	return false;
}

bool sugov_update_next_freq(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	/* The rate limit counts from the last change of next_freq, not the last evaluation.
	 * v5.10+: while need_freq_update, commit even an unchanged frequency (it re-stamps
	 * the rate limit); the flag stays only with CPUFREQ_NEED_UPDATE_LIMITS, which
	 * cpufreq-dt does not set. */
	if (sg_policy->v.commit_on_need_update && sg_policy->need_freq_update)
		sg_policy->need_freq_update = false;
	else if (sg_policy->next_freq == next_freq)
		return false;

	if (sg_policy->up_down && sugov_up_down_rate_limit(sg_policy, time, next_freq)) {
		/* Restore cached freq as next_freq is not changed */
		sg_policy->cached_raw_freq = sg_policy->prev_cached_raw_freq;
		return false;
	}
	sg_policy->next_freq = next_freq;
	sg_policy->last_freq_update_time = time;
	return true;
}

void sugov_fast_switch(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	if (sugov_update_next_freq(sg_policy, time, next_freq))
		govsim_request_freq(sg_policy->policy, next_freq, GOVSIM_RELATION_L, time);
}

void sugov_deferred_update(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq)
{
	if (!sugov_update_next_freq(sg_policy, time, next_freq))
		return;
	/* irq_work -> sugov:N kthread -> __cpufreq_driver_target(next_freq, RELATION_L). The
	 * core holds the request for switch_latency_ns; a newer next_freq replaces it, as the
	 * kthread reads next_freq only when it runs (work_in_progress). */
	govsim_request_freq(sg_policy->policy, next_freq, GOVSIM_RELATION_L, time);
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
unsigned long sugov_ref_freq(const struct sugov_policy *sg_policy)
{
	const struct govsim_policy *policy = sg_policy->policy;

	if (policy->freq_invariant)
		return policy->cpuinfo_max_khz;
	if (sg_policy->v.headroom == GOVSIM_HEADROOM_EFFECTIVE_PERF)
		return (unsigned long)policy->cur_khz + (policy->cur_khz >> 2);
	return policy->cur_khz;
}

unsigned int get_next_freq(struct sugov_policy *sg_policy, unsigned long util,
			   unsigned long max)
{
	struct govsim_policy *policy = sg_policy->policy;
	unsigned long freq = sugov_map_util_freq(&sg_policy->v, util, sugov_ref_freq(sg_policy), max);
	unsigned int raw = freq > UINT32_MAX ? UINT32_MAX : (unsigned int)freq;

	if (raw == sg_policy->cached_raw_freq && !sg_policy->need_freq_update)
		return sg_policy->next_freq;

	/* v5.10+ leave need_freq_update to sugov_update_next_freq */
	if (!sg_policy->v.commit_on_need_update)
		sg_policy->need_freq_update = false;
	sg_policy->prev_cached_raw_freq = sg_policy->cached_raw_freq;
	sg_policy->cached_raw_freq = raw;
	/* cpufreq_driver_resolve_freq (RELATION_L, or RELATION_LE on v6.1+) */
	return govsim_resolve_freq(policy, raw, policy->kernel->next_freq_relation);
}

/*
 * The iowait boost (v5.9): a task waking from IO asks for IOWAIT_BOOST_MIN (1/8 of the
 * capacity), doubled at each further IO wakeup up to the full capacity; without new IO
 * wakeups it halves at each evaluation and drops to 0 below the minimum; after more than a
 * tick without any update of this CPU it restarts.
 */
/* IOWAIT_BOOST_MIN (v5.4+), or v4.19's sg_cpu->min = 1024 * fmin / fmax (set by init). */
static unsigned int sugov_iowait_min(const struct sugov_cpu *sg_cpu)
{
	return sg_cpu->iowait_boost_min ? sg_cpu->iowait_boost_min : IOWAIT_BOOST_MIN;
}

bool sugov_iowait_reset(struct sugov_cpu *sg_cpu, u64 time, bool set_iowait_boost)
{
	s64 delta_ns = (s64)(time - sg_cpu->last_update);

	/* Reset only if a tick has elapsed since the last request. */
	if (delta_ns <= (s64)sg_cpu->sg_policy->tick_nsec)
		return false;

	sg_cpu->iowait_boost = set_iowait_boost ? sugov_iowait_min(sg_cpu) : 0;
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
	sg_cpu->iowait_boost = sugov_iowait_min(sg_cpu);
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
		if (sg_cpu->iowait_boost < sugov_iowait_min(sg_cpu)) {
			sg_cpu->iowait_boost = 0;
			return util;
		}
	}

	sg_cpu->iowait_boost_pending = false;

	/* iowait_boost is on the 1024 scale; bring it to this CPU's capacity. */
	boost = ((unsigned long)sg_cpu->iowait_boost * max) >> SCHED_CAPACITY_SHIFT;
	/* v5.15+: the boost goes through the rq's clamps first (identity without uclamp) */
	if (sg_cpu->sg_policy->v.iowait_clamped)
		boost = govsim_uclamp_rq_util_with(sg_cpu->sg_policy->policy, sg_cpu->cpu, boost);
	return boost > util ? boost : util;
}

/* The kernel's sugov_cpu_is_busy: the CPU has not entered idle since the last call. */
static bool sugov_cpu_is_busy(struct sugov_cpu *sg_cpu, const struct govsim_cpu_util *cu)
{
	bool ret = cu->idle_calls == sg_cpu->saved_idle_calls;

	sg_cpu->saved_idle_calls = cu->idle_calls;
	return ret;
}

/*
 * v5.10+: hold when the CPU has not been idle; v6.1+ not when the rq is capped by its
 * uclamp.max (uclamp_rq_is_capped, sched.h l.3053 v6.1: key on, rq MAX != 1024 and
 * cpu_util_cfs + cpu_util_rt >= rq MAX, cpu_util_cfs capped at capacity_orig).
 */
static bool sugov_hold_freq(struct sugov_cpu *sg_cpu, const struct govsim_cpu_util *cu)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;

	if (sg_policy->v.busy_hold != GOVSIM_HOLD_RESTORE) {
		struct govsim_rq_clamp rq = sugov_cpu_uclamp(sg_policy->policy, sg_cpu->cpu);

		if (uclamp_rq_is_capped(cu->util_cfs, cu->util_rt,
					cu->capacity ? cu->capacity : SCHED_CAPACITY_SCALE,
					rq.used ? rq.max : SCHED_CAPACITY_SCALE))
			return false;
	}
	return sugov_cpu_is_busy(sg_cpu, cu);
}

/* ignore_dl_rate_limit: more DL bandwidth than at the last evaluation skips the rate limit. */
static void ignore_dl_rate_limit(struct sugov_cpu *sg_cpu, struct sugov_policy *sg_policy,
				 const struct govsim_cpu_util *cu)
{
	if (cu->bw_dl > sg_cpu->bw_dl)
		sg_policy->limits_changed = true;
}

static void sugov_read_cpu(struct sugov_cpu *sg_cpu, struct govsim_cpu_util *cu)
{
	*cu = (struct govsim_cpu_util){0};
	govsim_cpu_util(sg_cpu->sg_policy->policy, sg_cpu->cpu, cu);
}

/* The record of the CPU evaluated next (sugov_record() fills it), or NULL when the host takes
 * no reports: the evaluation reads the CPU's signals straight into its `in`. */
static struct govsim_eval *sugov_next_eval(struct sugov_policy *sg_policy)
{
	if (!sg_policy->policy->report || sg_policy->nr_evals >= GOVSIM_MAX_CPUS)
		return NULL;
	return &sg_policy->evals[sg_policy->nr_evals];
}

/* Record one CPU's evaluation in e (sugov_next_eval(), or NULL: nothing), cu and rq being what
 * sugov_cpu_perf() read (cu may be e->in itself); reported once the decision is made
 * (sugov_report). Every field is written: no zeroing first. */
static void sugov_record(struct govsim_eval *e, struct sugov_cpu *sg_cpu, u64 time,
			 const struct govsim_cpu_util *cu, const struct govsim_rq_clamp *rq,
			 unsigned long util, unsigned long max)
{
	struct sugov_policy *sg_policy = sg_cpu->sg_policy;
	unsigned long target;

	if (!e)
		return;
	sg_policy->nr_evals++;
	e->time_ns = time;
	e->cpu = sg_cpu->cpu;
	e->policy = sg_policy->policy->cpus[0];
	if (cu != &e->in)
		e->in = *cu;
	if (rq->used) {
		e->uclamp_min = rq->min;
		e->uclamp_max = rq->max;
	} else {
		e->uclamp_min = 0;
		e->uclamp_max = SCHED_CAPACITY_SCALE;
	}
	e->util = util;
	/* This CPU's own map_util_freq: in a shared policy the policy follows the largest. */
	target = sugov_map_util_freq(&sg_policy->v, util, sugov_ref_freq(sg_policy), max);
	e->target_khz = target > UINT32_MAX ? UINT32_MAX : (u32)target;
	e->freq_khz = 0; /* the host's */
}

static void sugov_report(struct sugov_policy *sg_policy)
{
	for (int i = 0; i < sg_policy->nr_evals; i++)
		govsim_report(sg_policy->policy, &sg_policy->evals[i]);
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
	struct govsim_cpu_util cu;
	struct govsim_rq_clamp uc;
	unsigned long util, max;
	unsigned int next_f, cached_freq;
	bool busy;

	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;

	sugov_read_cpu(sg_cpu, &cu);
	ignore_dl_rate_limit(sg_cpu, sg_policy, &cu);

	if (!sugov_should_update_freq(sg_policy, time))
		return;

	cached_freq = sg_policy->cached_raw_freq;
	switch (sg_policy->v.busy_hold) {
	case GOVSIM_HOLD_GATED:
		/* Limits may have changed: do not hold the frequency then. */
		busy = !sg_policy->need_freq_update && sugov_cpu_is_busy(sg_cpu, &cu);
		break;
	case GOVSIM_HOLD_UNGATED:
		busy = sugov_cpu_is_busy(sg_cpu, &cu);
		break;
	default:
		busy = false; /* v5.10+: decided after get_next_freq */
		break;
	}

	util = sugov_cpu_perf(sg_cpu, time, &cu, &uc);
	max = sg_cpu->max;
	sugov_record(sugov_next_eval(sg_policy), sg_cpu, time, &cu, &uc, util, max);
	next_f = get_next_freq(sg_policy, util, max);
	/* Do not lower the frequency of a CPU that has not been idle since the last
	 * evaluation: the reduction would likely be premature. */
	if (sg_policy->v.busy_hold == GOVSIM_HOLD_GATED ||
	    sg_policy->v.busy_hold == GOVSIM_HOLD_UNGATED) {
		if (busy && next_f < sg_policy->next_freq) {
			next_f = sg_policy->next_freq;
			/* next_freq no longer matches the cached raw frequency. */
			sg_policy->cached_raw_freq = 0;
		}
	} else if (sugov_hold_freq(sg_cpu, &cu) && next_f < sg_policy->next_freq &&
		   !(sg_policy->v.busy_hold == GOVSIM_HOLD_NOT_CAPPED_GATED &&
		     sg_policy->need_freq_update)) {
		next_f = sg_policy->next_freq;
		/* Restore cached freq as next_freq has changed */
		sg_policy->cached_raw_freq = cached_freq;
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
		struct govsim_eval *e = sugov_next_eval(sg_policy);
		struct govsim_cpu_util own, *cu = e ? &e->in : &own;
		struct govsim_rq_clamp uc;
		unsigned long j_util, j_max;

		j_util = sugov_cpu_perf(j_sg_cpu, time, cu, &uc);
		j_max = j_sg_cpu->max;
		sugov_record(e, j_sg_cpu, time, cu, &uc, j_util, j_max);

		if (sg_policy->v.shared_agg == GOVSIM_SHARED_MAX) {
			/* v6.6: the plain max over the CPUs, against the capacity of the CPUs
			 * (max_cap; one value in a policy of equal CPUs) */
			if (j_util > util)
				util = j_util;
			max = j_max;
			continue;
		}
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
	unsigned int next_f;

	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;

	/* ignore_dl_rate_limit on bw_dl alone: the evaluation below reads every CPU afresh */
	if (govsim_cpu_bw_dl(sg_policy->policy, sg_cpu->cpu) > sg_cpu->bw_dl)
		sg_policy->limits_changed = true;

	if (sugov_should_update_freq(sg_policy, time)) {
		next_f = sugov_next_freq_shared(sg_cpu, time);
		sugov_commit(sg_policy, time, next_f);
		sugov_report(sg_policy);
	}
}

static const struct govsim_tunable schedutil_tunables[] = {
	{"rate_limit_us", "µs between frequency changes (any unsigned int; default "
			  "cpufreq_policy_transition_delay_us())"},
	{"up_rate_limit_us", "µs from a change before a change up (Android; default "
			     "rate_limit_us)"},
	{"down_rate_limit_us", "µs from a change before a change down (Android; default "
			       "rate_limit_us)"},
	{"iowait_boost", "0|1: boost CPUs whose tasks wake up from IO (default 0)"},
	{NULL, NULL},
};

static int schedutil_init(struct govsim_policy *pol, void **data)
{
	struct sugov_policy *sg_policy;
	unsigned int rate_limit_us = pol->transition_delay_us, up_us, down_us;
	/* iowait boost off by default: a deliberate departure from v5.9, where it is always on.
	 * A trace shows D-state sleeps, not in_iowait (io_schedule()), so the replay cannot tell
	 * which wakeups the kernel boosted; `--set iowait_boost=1` boosts every D-state wakeup.
	 * Every schedutil run says so in its notes (sim/replay.c). */
	int iowait = 0;
	int ret;

	/* rate_limit_us_store: any value kstrtouint accepts. */
	ret = govsim_tunable_uint(pol, "rate_limit_us", 0, UINT32_MAX, &rate_limit_us);
	if (ret)
		return ret;
	up_us = down_us = rate_limit_us;
	ret = govsim_tunable_uint(pol, "up_rate_limit_us", 0, UINT32_MAX, &up_us);
	if (!ret)
		ret = govsim_tunable_uint(pol, "down_rate_limit_us", 0, UINT32_MAX, &down_us);
	if (!ret)
		ret = govsim_tunable_bool(pol, "iowait_boost", &iowait);
	if (ret)
		return ret;

	sg_policy = calloc(1, sizeof(*sg_policy));
	if (!sg_policy)
		return GOVSIM_ENOMEM;
	sg_policy->policy = pol;
	sugov_variant_from_profile(&sg_policy->v, pol->kernel);
	sg_policy->rate_limit_us = rate_limit_us;
	sg_policy->iowait_boost_enabled = iowait != 0;
	sg_policy->tick_nsec = govsim_tick_nsec(pol);
	/* sugov_start: everything else starts at 0. A governor that ran before the trace made its
	 * last decision already: it is the frequency in force, and the raw frequency it cached is
	 * unknown (no util maps to SUGOV_RAW_FREQ_UNKNOWN, so the first evaluation resolves). */
	if (pol->running_before) {
		sg_policy->next_freq = pol->cur_khz;
		sg_policy->cached_raw_freq = SUGOV_RAW_FREQ_UNKNOWN;
	}
	sg_policy->freq_update_delay_ns = (s64)rate_limit_us * (s64)NSEC_PER_USEC;
	if (up_us != rate_limit_us || down_us != rate_limit_us) {
		/* Android: min_rate_limit_ns gates the evaluation, the direction the change */
		sg_policy->up_down = true;
		sg_policy->up_rate_delay_ns = (s64)up_us * (s64)NSEC_PER_USEC;
		sg_policy->down_rate_delay_ns = (s64)down_us * (s64)NSEC_PER_USEC;
		sg_policy->freq_update_delay_ns = up_us < down_us ? sg_policy->up_rate_delay_ns
								  : sg_policy->down_rate_delay_ns;
	}
	sg_policy->nr_cpus = pol->nr_cpus;
	for (int i = 0; i < sg_policy->nr_cpus; i++) {
		sg_policy->cpus[i].sg_policy = sg_policy;
		sg_policy->cpus[i].cpu = pol->cpus[i];
		/* v4.19 sugov_start: sg_cpu->min = 1024 * cpuinfo.min_freq / cpuinfo.max_freq
		 * (4.19-early's kHz boost is emulated on this util floor: kernels show says so) */
		if (sg_policy->v.iowait_units != GOVSIM_IOWAIT_UTIL_128 && pol->cpuinfo_max_khz)
			sg_policy->cpus[i].iowait_boost_min =
				(unsigned int)(((u64)SCHED_CAPACITY_SCALE * pol->cpuinfo_min_khz) /
					       pol->cpuinfo_max_khz);
	}
	*data = sg_policy;
	return GOVSIM_OK;
}

static void schedutil_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			     unsigned int flags)
{
	struct sugov_policy *sg_policy = data;
	int idx = govsim_cpu_index(pol, cpu);

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

static void schedutil_release(struct govsim_policy *pol, void *data)
{
	(void)pol;
	free(data);
}

const struct govsim_governor schedutil_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "schedutil",
	.help = SCHEDUTIL_HELP,
	.tunables = schedutil_tunables,
	.init = schedutil_init,
	.update = schedutil_update,
	.release = schedutil_release,
};

#ifdef GOVSIM_SCHEDUTIL_PLUGIN
/* Built as a plugin (tests: the same governor loaded with dlopen), under a name of its own: a
 * plugin may not take a built-in governor's. */
#ifndef GOVSIM_SCHEDUTIL_PLUGIN_NAME
#define GOVSIM_SCHEDUTIL_PLUGIN_NAME "schedutil_plugin"
#endif
__attribute__((visibility("default"))) extern const struct govsim_governor govsim_governor;
const struct govsim_governor govsim_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = GOVSIM_SCHEDUTIL_PLUGIN_NAME,
	.help = "Linux v5.9 schedutil (as a plugin)",
	.tunables = schedutil_tunables,
	.init = schedutil_init,
	.update = schedutil_update,
	.release = schedutil_release,
};
#endif
