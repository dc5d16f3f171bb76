/*
 * cpufreq.c - the cpufreq core: policy limits, OPP resolution, the transition delay default and
 * the switch latency. Follows Linux v5.9 drivers/cpufreq/cpufreq.c (cpufreq_driver_resolve_freq,
 * __cpufreq_driver_target, __target_index, cpufreq_policy_transition_delay_us),
 * drivers/cpufreq/freq_table.c (cpufreq_frequency_table_verify) and include/linux/cpufreq.h
 * (cpufreq_table_find_index_al/ah/ac, cpufreq_verify_within_limits). See cpufreq.h.
 *
 * Differences from those v5.9 files, and why:
 * - Only a table driver (cpufreq-dt, .target_index) exists: resolution always goes through the
 *   OPP table; there is no ->target, ->resolve_freq or ->setpolicy driver. The table is the
 *   platform's, sorted ascending, every entry valid (no CPUFREQ_ENTRY_INVALID, no boost OPPs),
 *   so the _al/_ah/_ac searches keep only their ascending branch.
 * - A frequency change (__cpufreq_driver_target -> __target_index) is not synchronous: it is in
 *   force switch_latency_ns after the request (the platform's transition latency, or --set
 *   switch_latency_us), standing for the sugov:N kthread's wakeup and the driver's set_target.
 *   A second request while one waits replaces its frequency (cpufreq_request_relation). Zero
 *   latency is the fast switch: in force at once. With a driver call of transition_ns
 *   (--set transition_us), the frequency the kthread read lands that long after it ran, and
 *   a request meanwhile queues another run, as sugov_work() and sugov_deferred_update() do.
 *   Where the trace shows the governor's kthread (kth.traced), kthread.c times the run and the
 *   call from it instead of these two constants.
 *   No PRECHANGE/POSTCHANGE notifiers run and no cpu_frequency event is emitted (the replay's
 *   accounting reads cur_khz).
 * - Policy limits come from --set scaling_min_freq/scaling_max_freq once, before the replay
 *   (cpufreq_policy_set_limits: cpufreq_verify_within_cpu_limits then
 *   cpufreq_frequency_table_verify); no QoS requests, thermal caps or boost change them later.
 * - cpufreq_policy_transition_delay_us() computes latency x LATENCY_MULTIPLIER in 64 bits: the
 *   kernel's unsigned int product wraps only past 4.29 s of latency, which no platform has.
 * - policy->transition_delay_us is 0 (cpufreq-dt does not set it), so the latency decides.
 * - RELATION_E / the efficiencies (cpufreq_driver_resolve_freq with the Energy Model's
 *   inefficient OPPs) are v6.1+, used only under a kernel profile that names them.
 */
#include "cpufreq/cpufreq.h"

/* LATENCY_MULTIPLIER (include/linux/cpufreq.h v5.9): µs of delay per µs of latency. */
#define LATENCY_MULTIPLIER 1000U
/* The cap of the default delay in cpufreq_policy_transition_delay_us (v5.9): 10 ms. */
#define TRANSITION_DELAY_MAX_US 10000U

static u32 clamp_u32(u32 v, u32 lo, u32 hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

/*
 * The three table searches on an ascending table (every OPP is valid here). They take a target
 * already clamped to the policy limits, as the kernel's callers do.
 */
static int find_index_al(const struct cpufreq_opp_table *tbl, u32 target)
{
	for (int i = 0; i < tbl->nr_opps; i++)
		if (tbl->opps[i].freq_khz >= target)
			return i;
	return tbl->nr_opps - 1;
}

static int find_index_ah(const struct cpufreq_opp_table *tbl, u32 target)
{
	int best = -1;

	for (int i = 0; i < tbl->nr_opps; i++) {
		u32 f = tbl->opps[i].freq_khz;

		if (f == target)
			return i;
		if (f < target) {
			best = i;
			continue;
		}
		/* Nothing below the target: the lowest above it. */
		return best == -1 ? i : best;
	}
	return best;
}

static int find_index_ac(const struct cpufreq_opp_table *tbl, u32 target)
{
	int best = -1;

	for (int i = 0; i < tbl->nr_opps; i++) {
		u32 f = tbl->opps[i].freq_khz;

		if (f == target)
			return i;
		if (f < target) {
			best = i;
			continue;
		}
		if (best == -1)
			return i;
		/* The closer of the two neighbours; a tie keeps the lower one. */
		if (target - tbl->opps[best].freq_khz > f - target)
			return i;
		return best;
	}
	return best;
}

u32 cpufreq_frequency_table_target(const struct cpufreq_policy *pol, u32 target_khz,
				   enum cpufreq_relation relation)
{
	const struct cpufreq_opp_table *tbl = &pol->tbl;
	int idx;

	switch (relation) {
	case CPUFREQ_RELATION_H:
		idx = find_index_ah(tbl, target_khz);
		break;
	case CPUFREQ_RELATION_C:
		idx = find_index_ac(tbl, target_khz);
		break;
	case CPUFREQ_RELATION_L:
	default:
		idx = find_index_al(tbl, target_khz);
		break;
	}
	return tbl->opps[idx].freq_khz;
}

u32 cpufreq_resolve_relation(const struct cpufreq_policy *pol, u32 target_khz,
			     enum cpufreq_relation relation)
{
	target_khz = clamp_u32(target_khz, pol->min_khz, pol->max_khz);
	return cpufreq_frequency_table_target(pol, target_khz, relation);
}

/* cpufreq_table_find_index_al(.., efficiencies = true): the lowest efficient OPP >= target,
 * else the highest efficient one. */
static int find_index_al_efficient(const struct cpufreq_policy *pol, u32 target)
{
	const struct cpufreq_opp_table *tbl = &pol->tbl;
	int best = -1;

	for (int i = 0; i < tbl->nr_opps; i++) {
		if (pol->inefficient_mask & (1U << i))
			continue;
		if (tbl->opps[i].freq_khz >= target)
			return i;
		best = i;
	}
	return best;
}

u32 cpufreq_driver_resolve_freq(const struct cpufreq_policy *pol, u32 target_khz)
{
	if (pol->efficiencies) {
		/* cpufreq_frequency_table_target with RELATION_E: retry without the
		 * efficiencies when the efficient OPP is outside the limits */
		u32 t = clamp_u32(target_khz, pol->min_khz, pol->max_khz);
		int idx = find_index_al_efficient(pol, t);

		if (idx >= 0) {
			u32 f = pol->tbl.opps[idx].freq_khz;
			if (f >= pol->min_khz && f <= pol->max_khz)
				return f;
		}
	}
	return cpufreq_resolve_relation(pol, target_khz, CPUFREQ_RELATION_L);
}

void cpufreq_policy_set_efficiencies(struct cpufreq_policy *pol)
{
	const struct cpufreq_opp_table *tbl = &pol->tbl;
	u32 prev_cost = UINT32_MAX;

	pol->efficiencies = true;
	pol->inefficient_mask = 0;
	for (int i = tbl->nr_opps - 1; i >= 0; i--) {
		if (!tbl->opps[i].em_cost)
			return; /* no EM: nothing is flagged */
		if (tbl->opps[i].em_cost >= prev_cost)
			pol->inefficient_mask |= 1U << i;
		else
			prev_cost = tbl->opps[i].em_cost;
	}
}

void cpufreq_policy_init(struct cpufreq_policy *pol, int id, const struct cpufreq_opp_table *tbl,
			 u32 initial_khz, u64 switch_latency_ns)
{
	*pol = (struct cpufreq_policy){0};
	pol->id = id;
	pol->tbl = *tbl;
	pol->cpuinfo_min_khz = tbl->opps[0].freq_khz;
	pol->cpuinfo_max_khz = tbl->opps[tbl->nr_opps - 1].freq_khz;
	pol->min_khz = pol->cpuinfo_min_khz;
	pol->max_khz = pol->cpuinfo_max_khz;
	pol->transition_latency_ns = tbl->transition_latency_ns;
	pol->switch_latency_ns = switch_latency_ns;
	pol->freq_invariant = true; /* arm64 with the kernel's arch_set_freq_scale(); sim sets it */
	pol->dvfs_possible_from_any_cpu = true; /* cpufreq-dt's; sim sets the platform's */
	pol->this_cpu = -1;
	pol->cur_khz = cpufreq_driver_resolve_freq(pol, initial_khz);
}

void cpufreq_policy_set_limits(struct cpufreq_policy *pol, u32 min_khz, u32 max_khz)
{
	const struct cpufreq_opp_table *tbl = &pol->tbl;
	u32 lo = pol->cpuinfo_min_khz, hi = pol->cpuinfo_max_khz;
	/* cpufreq_verify_within_cpu_limits(): every value is clamped, 0 included (v5.9 has no
	 * "unset": a write of 0 to scaling_max_freq gives the lowest OPP) */
	u32 min = clamp_u32(min_khz, lo, hi);
	u32 max = clamp_u32(max_khz, lo, hi);
	u32 next_larger = UINT32_MAX;
	bool found = false;

	if (min > max)
		min = max;
	/* cpufreq_frequency_table_verify: at least one OPP must lie in [min, max]. */
	for (int i = 0; i < tbl->nr_opps; i++) {
		u32 f = tbl->opps[i].freq_khz;

		if (f >= min && f <= max) {
			found = true;
			break;
		}
		if (f > max && f < next_larger)
			next_larger = f;
	}
	if (!found)
		max = clamp_u32(next_larger, lo, hi);
	pol->min_khz = min;
	pol->max_khz = max;
}

unsigned int cpufreq_policy_transition_delay_us(const struct cpufreq_policy *pol)
{
	/* policy->transition_delay_us is 0 for cpufreq-dt and acpi-cpufreq, so the latency
	 * decides. */
	unsigned int latency_us = pol->transition_latency_ns / 1000U;

	/* v6.9+ (drivers/cpufreq/cpufreq.c cpufreq_policy_transition_delay_us(), Debian 6.12 and
	 * 7.2): "a 50% breathing room between updates", latency + latency / 2, else 1 ms. */
	if (pol->transition_delay_1_5x)
		return latency_us ? latency_us + (latency_us >> 1) : 1000U;
	if (latency_us) {
		/* latency × 1000 gives sensible delays for fast (< 10 µs) switches; slower ones are
		 * capped at 10 ms. Computed in 64 bits: the kernel's unsigned int product can wrap
		 * only beyond 4.29 s of latency, which no platform has. */
		u64 d = (u64)latency_us * LATENCY_MULTIPLIER;

		return (unsigned int)gs_min_u64(d, TRANSITION_DELAY_MAX_US);
	}
	return LATENCY_MULTIPLIER;
}

bool cpufreq_apply_pending(struct cpufreq_policy *pol, u64 now_ns)
{
	u32 old = pol->cur_khz;

	if (pol->kth.traced)
		return cpufreq_kthread_apply_pending(pol, now_ns);
	while (pol->pending && pol->pending_at_ns <= now_ns) {
		if (!pol->in_call && pol->transition_ns) {
			/* sugov_work(): read next_freq, clear work_in_progress, call the driver */
			pol->in_call = true;
			pol->requeued = false;
			pol->call_khz = pol->pending_khz;
			pol->pending_at_ns += pol->transition_ns;
			continue;
		}
		/* __cpufreq_driver_target / __target_index: a frequency equal to cur does nothing */
		pol->cur_khz = pol->in_call ? pol->call_khz : pol->pending_khz;
		pol->pending = pol->in_call && pol->requeued; /* the queued run starts at once */
		pol->in_call = false;
	}
	return pol->cur_khz != old;
}

bool cpufreq_request_relation(struct cpufreq_policy *pol, u32 target_khz,
			      enum cpufreq_relation relation, u64 now_ns)
{
	u32 freq = cpufreq_resolve_relation(pol, target_khz, relation);
	bool changed = false;

	if (pol->switch_latency_ns == 0) {
		/* Fast switch: in force at once (sugov_fast_switch sets policy->cur). */
		changed = freq != pol->cur_khz;
		pol->cur_khz = freq;
		return changed;
	}
	/* A request already due that the owner has not applied yet runs first: its kthread ran
	 * before this request was made. */
	if (pol->pending && pol->pending_at_ns <= now_ns)
		changed = cpufreq_apply_pending(pol, now_ns);
	if (pol->pending) {
		/* The kthread has not run yet: it will read the newest frequency. During its driver
		 * call, the request queues the next run, which reads the newest one. */
		pol->pending_khz = freq;
		pol->requeued = pol->in_call;
		return changed;
	}
	pol->pending = true;
	pol->pending_khz = freq;
	if (pol->kth.traced)
		cpufreq_kthread_request(pol, now_ns);
	else
		pol->pending_at_ns = now_ns + pol->switch_latency_ns;
	return changed;
}

bool cpufreq_request(struct cpufreq_policy *pol, u32 target_khz, u64 now_ns)
{
	return cpufreq_request_relation(pol, target_khz, CPUFREQ_RELATION_L, now_ns);
}
