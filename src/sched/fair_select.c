/*
 * fair_select.c - the rest of v5.9 CFS CPU selection on an asymmetric system (kernel/sched/
 * fair.c, kernel names kept): select_task_rq_fair (with core.c's select_task_rq affinity
 * rules), wake_affine (wake_affine_idle, wake_affine_weight), select_idle_sibling ->
 * select_idle_capacity, and fork/exec's find_idlest_cpu (find_idlest_group with
 * update_sg_wakeup_stats, group_classify, update_pick_idlest; find_idlest_group_cpu). The EAS
 * path itself is in fair_eas.c. Written from the v5.9 sources' logic; not copied.
 *
 * Differences from v5.9, and why:
 * - Topology fixed to two levels, as on a big.LITTLE phone: MC = the CPU's cluster
 *   (imbalance_pct 117), DIE = every CPU (125, SD_ASYM_CPUCAPACITY); SD_BALANCE_WAKE is never
 *   set, so a wakeup never takes find_idlest_cpu(). A one-CPU cluster has no MC level
 *   (degenerate domain).
 * - record_wakee()/wake_wide() are the caller's (struct eas_waker): the flips need every
 *   waking event with its waker, which the replay has and this snapshot has not.
 * - select_fallback_rq() is reduced to the lowest allowed CPU; sched_idle_cpu() is false (no
 *   SCHED_IDLE tasks in the model); available_idle_cpu() has no ttwu_pending (not traced).
 * - sg_imbalanced() (affinity-constrained balancing history) and asym packing are never set.
 */
#include "sched/eas.h"

#include <limits.h>

#define MC_IMBALANCE_PCT  117
#define DIE_IMBALANCE_PCT 125
#define NICE_0_LOAD_DOWN  1024UL

enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_misfit_task,
	group_asym_packing,
	group_imbalanced,
	group_overloaded,
};

struct sg_lb_stats {
	unsigned long group_load, group_util, group_runnable, group_capacity, max_capacity;
	unsigned long avg_load;
	unsigned int sum_nr_running, idle_cpus, group_weight;
	bool misfit;
	enum group_type group_type;
};

static inline bool allowed(const struct eas_task *p, int cpu)
{
	return !p->cpus_allowed || (p->cpus_allowed >> cpu) & 1;
}

static u64 cluster_mask(const struct eas_rd *rd, int cpu)
{
	u64 m = 0;

	for (int i = 0; i < rd->nr_cpus; i++)
		if (rd->cluster[i] == rd->cluster[cpu])
			m |= 1ull << i;
	return m;
}

static u64 all_mask(const struct eas_rd *rd)
{
	return rd->nr_cpus >= 64 ? ~0ull : (1ull << rd->nr_cpus) - 1;
}

/* ---- wakeup fallback ------------------------------------------------------------------------- */

/* wake_affine_idle(): -1 for "none" (nr_cpumask_bits in the kernel) */
static int wake_affine_idle(const struct eas_rd *rd, int this_cpu, int prev_cpu, bool sync)
{
	if (rd->cpu[this_cpu].idle && rd->cluster[this_cpu] == rd->cluster[prev_cpu])
		return rd->cpu[prev_cpu].idle ? prev_cpu : this_cpu;
	if (sync && rd->cpu[this_cpu].nr_running == 1)
		return this_cpu;
	return -1;
}

/*
 * wake_affine_weight(): this_eff = (load(this) [- current's, sync] + task) * 100 * cap(prev)
 * against prev_eff = (load(prev) - task) * (100 + (imbalance_pct - 100) / 2) * cap(this)
 * [+ 1, sync]; this CPU iff this_eff < prev_eff (s64 arithmetic).
 */
static int wake_affine_weight(const struct eas_rd *rd, const struct eas_task *p, int this_cpu,
			      int prev_cpu, bool sync, unsigned long current_load, int imbalance_pct)
{
	s64 this_eff = (s64)rd->cpu[this_cpu].load_avg, prev_eff;
	s64 task_load = (s64)p->load_avg;

	if (sync) {
		if ((s64)current_load > this_eff)
			return this_cpu;
		this_eff -= (s64)current_load;
	}
	this_eff += task_load;
	this_eff *= 100;
	this_eff *= (s64)rd->cpu[prev_cpu].capacity;
	prev_eff = (s64)rd->cpu[prev_cpu].load_avg - task_load;
	prev_eff *= 100 + (imbalance_pct - 100) / 2;
	prev_eff *= (s64)rd->cpu[this_cpu].capacity;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff ? this_cpu : -1;
}

/* wake_affine(sd, p, this_cpu, prev_cpu, sync): sd = MC if both share the cluster, else DIE */
int wake_affine(const struct eas_rd *rd, const struct eas_task *p, int this_cpu, int prev_cpu,
		bool sync, unsigned long current_load)
{
	int pct = rd->cluster[this_cpu] == rd->cluster[prev_cpu] ? MC_IMBALANCE_PCT
								   : DIE_IMBALANCE_PCT;
	int target = wake_affine_idle(rd, this_cpu, prev_cpu, sync);

	if (target < 0)
		target = wake_affine_weight(rd, p, this_cpu, prev_cpu, sync, current_load, pct);
	return target < 0 ? prev_cpu : target;
}

/* select_idle_capacity(p, sd = DIE, target): the first idle CPU in wrap order from target
 * where p fits; else the idle one of largest capacity_of (first wins ties); else -1. */
int select_idle_capacity(const struct eas_rd *rd, const struct eas_task *p, int target)
{
	unsigned long best_cap = 0;
	int best_cpu = -1;

	for (int k = 0; k < rd->nr_cpus; k++) {
		int cpu = (target + k) % rd->nr_cpus;
		unsigned long cap = rd->cpu[cpu].capacity;

		if (!allowed(p, cpu) || !rd->cpu[cpu].idle)
			continue;
		if (task_fits_capacity(rd, p, cap))
			return cpu;
		if (cap > best_cap) {
			best_cap = cap;
			best_cpu = cpu;
		}
	}
	return best_cpu;
}

/* select_idle_sibling(p, prev, target): on an asym system straight to select_idle_capacity
 * (v5.9); the symmetric checks (target idle, prev, recent_used_cpu, LLC scan) otherwise. */
int select_idle_sibling(const struct eas_rd *rd, const struct eas_task *p, int prev, int target)
{
	if (rd->asym) {
		int i = select_idle_capacity(rd, p, target);

		return i >= 0 ? i : target;
	}
	if (rd->cpu[target].idle)
		return target;
	if (prev != target && rd->cluster[prev] == rd->cluster[target] && rd->cpu[prev].idle)
		return prev;
	for (int k = 0; k < rd->nr_cpus; k++) { /* select_idle_cpu() over the LLC */
		int cpu = (target + k) % rd->nr_cpus;

		if (rd->cluster[cpu] == rd->cluster[target] && allowed(p, cpu) && rd->cpu[cpu].idle)
			return cpu;
	}
	return target;
}

/* ---- fork / exec: find_idlest_cpu ------------------------------------------------------------ */

static bool group_has_capacity(int pct, const struct sg_lb_stats *s)
{
	if (s->sum_nr_running < s->group_weight)
		return true;
	if (s->group_capacity * (unsigned long)pct < s->group_runnable * 100)
		return false;
	return s->group_capacity * 100 > s->group_util * (unsigned long)pct;
}

static bool group_is_overloaded(int pct, const struct sg_lb_stats *s)
{
	if (s->sum_nr_running <= s->group_weight)
		return false;
	if (s->group_capacity * 100 < s->group_util * (unsigned long)pct)
		return true;
	return s->group_capacity * (unsigned long)pct < s->group_runnable * 100;
}

static enum group_type group_classify(int pct, const struct sg_lb_stats *s)
{
	if (group_is_overloaded(pct, s))
		return group_overloaded;
	if (s->misfit)
		return group_misfit_task;
	if (!group_has_capacity(pct, s))
		return group_fully_busy;
	return group_has_spare;
}

/* cpu_util_without(cpu, p) and cpu_load_without: p's part taken out where it last ran (not
 * for a new task: last_update_time == 0) */
static unsigned long util_without(const struct eas_rd *rd, int cpu, const struct eas_task *p)
{
	const struct eas_cpu *c = &rd->cpu[cpu];
	unsigned long util = c->util_avg, est = c->util_est_enqueued, ue;

	if (cpu != p->cpu || p->new_task)
		return cpu_util(rd, cpu);
	util = util > p->util_avg ? util - p->util_avg : 0;
	ue = eas_task_util_est(rd, p) > p->util_avg ? eas_task_util_est(rd, p) : 0;
	est = est > ue ? est - ue : 0;
	util = util > est ? util : est;
	return util < c->capacity_orig ? util : c->capacity_orig;
}

static void update_sg_wakeup_stats(const struct eas_rd *rd, const struct eas_task *p, u64 span,
				   bool asym_level, int pct, struct sg_lb_stats *s)
{
	*s = (struct sg_lb_stats){ 0 };
	for (int i = 0; i < rd->nr_cpus; i++) {
		const struct eas_cpu *c = &rd->cpu[i];
		bool mine = i == p->cpu && !p->new_task;
		unsigned int local = mine ? 1 : 0, nr; /* task_running_on_cpu() (exec) */

		if (!((span >> i) & 1))
			continue;
		s->group_weight++;
		s->group_capacity += c->capacity;
		if (c->capacity > s->max_capacity)
			s->max_capacity = c->capacity;
		s->group_load += mine && c->load_avg > p->load_avg ? c->load_avg - p->load_avg
				 : mine ? 0 : c->load_avg;
		s->group_util += util_without(rd, i, p);
		s->group_runnable += c->runnable_avg;
		nr = c->nr_running - local;
		s->sum_nr_running += nr;
		if (!nr && (c->idle || mine)) /* idle_cpu_without(): curr is idle or p */
			s->idle_cpus++;
	}
	s->misfit = asym_level && !task_fits_capacity(rd, p, s->max_capacity);
	s->group_type = group_classify(pct, s);
	if (s->group_type == group_fully_busy || s->group_type == group_overloaded)
		s->avg_load = s->group_load * 1024 / (s->group_capacity ? s->group_capacity : 1);
}

/* update_pick_idlest(): is the group with stats s idler than the idlest so far? */
static bool update_pick_idlest(const struct sg_lb_stats *idlest, const struct sg_lb_stats *s)
{
	if (s->group_type != idlest->group_type)
		return s->group_type < idlest->group_type;
	switch (s->group_type) {
	case group_overloaded:
	case group_fully_busy:
		return idlest->avg_load > s->avg_load;
	case group_misfit_task:
		return idlest->max_capacity < s->max_capacity;
	case group_has_spare:
		if (idlest->idle_cpus != s->idle_cpus)
			return idlest->idle_cpus < s->idle_cpus;
		return idlest->group_util > s->group_util;
	default:
		return false;
	}
}

/* The groups of a level: DIE's are the clusters, MC's the single CPUs of this_cpu's cluster. */
static int level_groups(const struct eas_rd *rd, int this_cpu, bool die, u64 *g)
{
	int n = 0;
	u64 seen = 0;

	for (int i = 0; i < rd->nr_cpus; i++) {
		if (die) {
			if ((seen >> i) & 1)
				continue;
			g[n] = cluster_mask(rd, i);
			seen |= g[n++];
		} else if (rd->cluster[i] == rd->cluster[this_cpu]) {
			g[n++] = 1ull << i;
		}
	}
	return n;
}

/* find_idlest_group(sd, p, this_cpu): a group span, or 0 to stay in the local group */
static u64 find_idlest_group(const struct eas_rd *rd, const struct eas_task *p, int this_cpu,
			     bool die)
{
	u64 groups[GS_MAX_CPUS], idlest = 0, local = 0, allowed_mask = p->cpus_allowed;
	struct sg_lb_stats ls = { 0 }, is = { 0 }, s;
	int pct = die ? DIE_IMBALANCE_PCT : MC_IMBALANCE_PCT;
	int n = level_groups(rd, this_cpu, die, groups);

	if (!allowed_mask)
		allowed_mask = ~0ull;
	for (int i = 0; i < n; i++) {
		bool is_local = (groups[i] >> this_cpu) & 1;

		if (!(groups[i] & allowed_mask))
			continue;
		update_sg_wakeup_stats(rd, p, groups[i], die && rd->asym, pct, is_local ? &ls : &s);
		if (is_local) {
			local = groups[i];
		} else if (!idlest || update_pick_idlest(&is, &s)) {
			idlest = groups[i];
			is = s;
		}
	}
	if (!idlest || !local)
		return idlest;
	if (ls.group_type != is.group_type)
		return ls.group_type < is.group_type ? 0 : idlest;
	switch (ls.group_type) {
	case group_overloaded:
	case group_fully_busy:
		if (is.avg_load >= ls.avg_load + NICE_0_LOAD_DOWN * (unsigned long)(pct - 100) / 100)
			return 0;
		if (100 * ls.avg_load <= (unsigned long)pct * is.avg_load)
			return 0;
		return idlest;
	case group_misfit_task:
		return ls.max_capacity >= is.max_capacity ? 0 : idlest;
	case group_has_spare:
		return ls.idle_cpus >= is.idle_cpus ? 0 : idlest;
	default:
		return 0;
	}
}

/* find_idlest_group_cpu(): the idle CPU with the shallowest state (then the latest
 * idle_stamp), else the least cpu_load; this_cpu by default. */
static int find_idlest_group_cpu(const struct eas_rd *rd, const struct eas_task *p, u64 group,
				 int this_cpu)
{
	unsigned long min_load = ULONG_MAX;
	u32 min_exit = UINT_MAX;
	u64 latest = 0;
	int shallowest = -1, least_loaded = this_cpu;

	if (__builtin_popcountll(group) == 1)
		return __builtin_ctzll(group);
	for (int i = 0; i < rd->nr_cpus; i++) {
		const struct eas_cpu *c = &rd->cpu[i];

		if (!((group >> i) & 1) || !allowed(p, i))
			continue;
		if (c->idle) {
			if (c->idle_exit_latency_us < min_exit) {
				min_exit = c->idle_exit_latency_us;
				latest = c->idle_stamp;
				shallowest = i;
			} else if (c->idle_exit_latency_us == min_exit && c->idle_stamp > latest) {
				latest = c->idle_stamp;
				shallowest = i;
			}
		} else if (shallowest == -1 && c->load_avg < min_load) {
			min_load = c->load_avg;
			least_loaded = i;
		}
	}
	return shallowest != -1 ? shallowest : least_loaded;
}

/* find_idlest_cpu(sd = DIE, p, cpu, prev_cpu, sd_flag): DIE, then MC of the chosen CPU. */
int find_idlest_cpu(const struct eas_rd *rd, const struct eas_task *p, int this_cpu,
		    int prev_cpu)
{
	int cpu = this_cpu, new_cpu = this_cpu, level = 1; /* 1 DIE, 0 MC, -1 done */

	if (p->cpus_allowed && !(p->cpus_allowed & all_mask(rd)))
		return prev_cpu;
	while (level >= 0) {
		bool die = level == 1;
		u64 group;

		if (!die && __builtin_popcountll(cluster_mask(rd, cpu)) < 2)
			break; /* a one-CPU MC level is degenerate */
		group = find_idlest_group(rd, p, cpu, die);
		if (!group) {
			level--;
			continue;
		}
		new_cpu = find_idlest_group_cpu(rd, p, group, cpu);
		if (new_cpu == cpu) {
			level--;
			continue;
		}
		cpu = new_cpu;
		/* the highest domain of new_cpu below the span just balanced */
		level = die && __builtin_popcountll(cluster_mask(rd, cpu)) <
				       __builtin_popcountll(all_mask(rd))
				? 0
				: -1;
	}
	return new_cpu;
}

/* ---- select_task_rq_fair --------------------------------------------------------------------- */

static int lowest_allowed(const struct eas_rd *rd, const struct eas_task *p)
{
	for (int i = 0; i < rd->nr_cpus; i++)
		if (allowed(p, i))
			return i;
	return 0;
}

/*
 * select_task_rq(p, prev, sd_flag, wake_flags): one allowed CPU -> it; else
 * select_task_rq_fair: a wakeup tries EAS first (returned as is when >= 0), then wake_affine
 * (when !wake_wide and the waker's CPU is allowed) and select_idle_sibling; fork and exec take
 * find_idlest_cpu over DIE. A result outside p's affinity takes the lowest allowed CPU.
 */
int select_task_rq_fair(const struct eas_rd *rd, const struct eas_task *p, int prev_cpu,
			enum eas_sd_flag sd_flag, const struct eas_waker *waker,
			struct eas_feec_explain *ex)
{
	int this_cpu = waker && waker->cpu >= 0 ? waker->cpu : prev_cpu, new_cpu = prev_cpu;
	bool want_affine;

	if (p->cpus_allowed && __builtin_popcountll(p->cpus_allowed & all_mask(rd)) == 1)
		return __builtin_ctzll(p->cpus_allowed);
	if (sd_flag != EAS_BALANCE_WAKE) {
		new_cpu = find_idlest_cpu(rd, p, this_cpu, prev_cpu);
	} else {
		new_cpu = find_energy_efficient_cpu(rd, p, prev_cpu, ex);
		if (new_cpu >= 0)
			goto out;
		new_cpu = prev_cpu;
		want_affine = !(waker && waker->wake_wide) && allowed(p, this_cpu);
		if (want_affine && this_cpu != prev_cpu)
			new_cpu = wake_affine(rd, p, this_cpu, prev_cpu, waker && waker->sync,
					      waker ? waker->load : 0);
		new_cpu = select_idle_sibling(rd, p, prev_cpu, new_cpu);
	}
out:
	if (!allowed(p, new_cpu))
		new_cpu = lowest_allowed(rd, p); /* select_fallback_rq() */
	return new_cpu;
}
