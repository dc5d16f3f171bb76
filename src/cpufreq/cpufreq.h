/*
 * cpufreq.h - the cpufreq core as the governors see it (Linux v5.9 drivers/cpufreq/cpufreq.c,
 * include/linux/cpufreq.h): one policy per cluster, scaling limits, RELATION_L resolution, and
 * the switch latency of a slow-path driver (cpufreq-dt on Hikey960 has no fast switch: a new
 * frequency takes effect when the sugov:N kthread runs, modelled as a delay).
 */
#ifndef GOVSIM_CPUFREQ_CPUFREQ_H
#define GOVSIM_CPUFREQ_CPUFREQ_H

#include "core/types.h"
#include "cpufreq/kthread.h"

/*
 * The hardware of a policy as the cpufreq core and the governors read it: the driver's
 * frequency table (v5.9 struct cpufreq_frequency_table, which cpufreq-dt builds from the OPPs:
 * dev_pm_opp_init_cpufreq_table()), the capacity at each OPP and the EM cost that RELATION_LE
 * needs (v6.1+), the policy's CPUs and cpuinfo.transition_latency. An interface: the cpufreq
 * core does not read the power model; whoever owns the platform fills it (the replay from a
 * platform cluster: sim/cpufreq_table.h).
 */
struct cpufreq_opp {
	u32 freq_khz;
	u32 capacity; /* of the policy's CPUs at freq_khz */
	u32 em_cost;  /* the energy model's cost (em_perf_state.cost); 0 without a model */
};

struct cpufreq_opp_table {
	int nr_opps;                          /* >= 1 */
	struct cpufreq_opp opps[GS_MAX_OPPS]; /* ascending frequencies */
	int nr_cpus;
	int cpus[GS_MAX_CPUS];                /* ascending; cpus[0] names the policy */
	u32 transition_latency_ns;
};

struct cpufreq_policy {
	int id;                           /* cluster index */
	struct cpufreq_opp_table tbl;     /* OPP table, CPUs */
	u32 cpuinfo_min_khz, cpuinfo_max_khz;
	u32 min_khz, max_khz;             /* scaling_min_freq / scaling_max_freq */
	u32 cur_khz;                      /* the frequency in force */
	u32 transition_latency_ns;        /* cpuinfo.transition_latency */
	u64 switch_latency_ns;            /* request -> in force; 0 = fast switch */
	/* arch_scale_freq_invariant(): false on a CPU without frequency counters (x86 without
	 * APERF/MPERF): PELT is not scaled by frequency, and schedutil scales policy->cur. */
	bool freq_invariant;
	/* policy->dvfs_possible_from_any_cpu (a driver property), and the CPU the code calling
	 * the governor runs on (-1: not known): cpufreq_this_cpu_can_update() */
	bool dvfs_possible_from_any_cpu;
	int this_cpu;
	/* The default rate limit's rule (cpufreq_policy_transition_delay_us): false, latency x
	 * 1000 capped at 10 ms (up to v6.8); true, latency x 1.5 (v6.9+). */
	bool transition_delay_1_5x;
	/* The governor ran before the replay's first event (no known start in the trace). */
	bool gov_running_before;
	/* The slow path's driver call (sugov:N's __cpufreq_driver_target): 0, the write is in
	 * force when the kthread runs; otherwise it lands transition_ns after the kthread read
	 * next_freq, and a request meanwhile queues another run (sugov_work). */
	u64 transition_ns;
	/* Something due at pending_at_ns: the kthread's run, which reads pending_khz (in_call
	 * false), or the end of its driver call, which puts call_khz in force (in_call true; then
	 * requeued says a request came meanwhile, pending_khz being the newest). */
	bool pending;
	u32 pending_khz;
	u64 pending_at_ns;
	bool in_call, requeued;
	u32 call_khz;
	/* The slow path timed by the traced kthread (kthread.h), when kth.traced. */
	struct cpufreq_kthread kth;
	/* v6.1+ RELATION_LE (cpufreq_policy_set_efficiencies): OPPs the EM flags inefficient,
	 * one bit per OPP index, skipped by cpufreq_driver_resolve_freq. */
	bool efficiencies;
	u32 inefficient_mask;
};

/* Set up a policy on a copy of tbl: limits = cpuinfo, cur = initial_khz resolved
 * (RELATION_L). */
void cpufreq_policy_init(struct cpufreq_policy *pol, int id, const struct cpufreq_opp_table *tbl,
			 u32 initial_khz, u64 switch_latency_ns);

/* cpufreq_driver_resolve_freq: clamp to [min, max], then the lowest OPP >= target, else the
 * highest (cpufreq_table_find_index_al). With efficiencies (v6.1+ RELATION_LE), the same over
 * the efficient OPPs, unless the result falls outside [min, max] (then as RELATION_L). */
u32 cpufreq_driver_resolve_freq(const struct cpufreq_policy *pol, u32 target_khz);

/*
 * v6.1+ (kernel profiles v6.1 and later): resolve with CPUFREQ_RELATION_LE. An OPP is
 * inefficient when its EM cost (fmax * P / f) is >= the cost of a higher efficient OPP
 * (em_create_perf_table, from the top, v6.1 energy_model.c l.158-182); the top OPP never is.
 * A cluster without EM power has no inefficient OPP.
 */
void cpufreq_policy_set_efficiencies(struct cpufreq_policy *pol);

/* cpufreq_policy_transition_delay_us(): the schedutil rate_limit_us default (the rule of
 * pol->transition_delay_1_5x). */
unsigned int cpufreq_policy_transition_delay_us(const struct cpufreq_policy *pol);

/*
 * A governor asks for a frequency at now_ns (__cpufreq_driver_target(.., RELATION_L) from the
 * governor's context). With switch_latency_ns 0 it is in force at once; otherwise it is in
 * force at now + latency; a request while one is pending replaces the frequency but keeps the
 * time (the kthread reads next_freq when it runs). Returns true when cur_khz changed now.
 */
bool cpufreq_request(struct cpufreq_policy *pol, u32 target_khz, u64 now_ns);

/* If a pending request is due at or before now_ns, put it in force; returns true when
 * cur_khz changed (a request equal to cur is dropped, as __cpufreq_driver_target does). */
bool cpufreq_apply_pending(struct cpufreq_policy *pol, u64 now_ns);

/* ---- the relations of __cpufreq_driver_target, the policy limits, the next frequency ---- */

/* The relations of __cpufreq_driver_target (include/linux/cpufreq.h v5.9), for an ascending
 * OPP table: L = lowest >= target, else the highest; H = highest <= target, else the lowest;
 * C = the closest, a tie going to the lower (cpufreq_table_find_index_ac). */
enum cpufreq_relation {
	CPUFREQ_RELATION_L = 0,
	CPUFREQ_RELATION_H = 1,
	CPUFREQ_RELATION_C = 2,
};

/* cpufreq_frequency_table_target on the policy's OPPs, for a target already within limits. */
u32 cpufreq_frequency_table_target(const struct cpufreq_policy *pol, u32 target_khz,
				   enum cpufreq_relation relation);

/* __cpufreq_driver_target: clamp to [min, max], then the OPP by `relation`. */
u32 cpufreq_resolve_relation(const struct cpufreq_policy *pol, u32 target_khz,
			     enum cpufreq_relation relation);

/* cpufreq_request() with another relation (ondemand and conservative use H and C).
 * Both request functions, when a pending request is already due (pending_at_ns <= now_ns)
 * but the owner has not applied it yet, put it in force first (the kthread ran before this
 * request) -- the return value then says true -- and queue the new request with a fresh
 * latency. A request while one is pending and not due replaces its frequency only. */
bool cpufreq_request_relation(struct cpufreq_policy *pol, u32 target_khz,
			      enum cpufreq_relation relation, u64 now_ns);

/*
 * scaling_min_freq / scaling_max_freq as v5.9 cpufreq_set_policy() applies them: each is
 * clamped to cpuinfo like any value (0 included: scaling_max_freq=0 is the lowest OPP; pass
 * 0 and CPUFREQ_NO_MAX_KHZ for the limits nothing wrote), min > max lowers min to max
 * (cpufreq_verify_within_limits), and when no OPP lies in [min, max] max is raised to the next
 * OPP (cpufreq_frequency_table_verify). cur_khz is not changed: the governor sees the new
 * limits at its next request. Never fails.
 */
#define CPUFREQ_NO_MAX_KHZ UINT32_MAX /* scaling_max_freq not written: cpuinfo's max */
void cpufreq_policy_set_limits(struct cpufreq_policy *pol, u32 min_khz, u32 max_khz);

/* The frequency the policy will run at once a pending request, if any, is in force. */
static inline u32 cpufreq_next_khz(const struct cpufreq_policy *pol)
{
	if (!pol->pending)
		return pol->cur_khz;
	return pol->in_call && !pol->requeued ? pol->call_khz : pol->pending_khz;
}

#endif
