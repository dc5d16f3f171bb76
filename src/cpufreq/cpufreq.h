/*
 * cpufreq.h - the cpufreq core as the governors see it (Linux v5.9 drivers/cpufreq/cpufreq.c,
 * include/linux/cpufreq.h): one policy per cluster, scaling limits, RELATION_L resolution, and
 * the switch latency of a slow-path driver (cpufreq-dt on Hikey960 has no fast switch: a new
 * frequency takes effect when the sugov:N kthread runs, modelled as a delay).
 */
#ifndef GOVSIM_CPUFREQ_CPUFREQ_H
#define GOVSIM_CPUFREQ_CPUFREQ_H

#include "core/types.h"
#include "power/platform.h"

struct governor_ops;

struct cpufreq_policy {
	int id;                           /* cluster index */
	const struct plat_cluster *cl;    /* OPP table, CPUs */
	u32 cpuinfo_min_khz, cpuinfo_max_khz;
	u32 min_khz, max_khz;             /* scaling_min_freq / scaling_max_freq */
	u32 cur_khz;                      /* the frequency in force */
	u32 transition_latency_ns;        /* cpuinfo.transition_latency */
	u64 switch_latency_ns;            /* request -> in force; 0 = fast switch */
	/* A request waiting for the slow path: in force at pending_at_ns. */
	bool pending;
	u32 pending_khz;
	u64 pending_at_ns;
	/* The governor. */
	const struct governor_ops *gov;
	void *gov_data;
};

/* Set up a policy for a cluster: limits = cpuinfo, cur = initial_khz resolved (RELATION_L). */
void cpufreq_policy_init(struct cpufreq_policy *pol, int id, const struct plat_cluster *cl,
			 u32 initial_khz, u64 switch_latency_ns);

/* cpufreq_driver_resolve_freq: clamp to [min, max], then the lowest OPP >= target, else the
 * highest (cpufreq_table_find_index_al). */
u32 cpufreq_driver_resolve_freq(const struct cpufreq_policy *pol, u32 target_khz);

/* v5.9 cpufreq_policy_transition_delay_us(): the schedutil rate_limit_us default. */
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

#endif
