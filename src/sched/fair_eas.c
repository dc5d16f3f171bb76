/*
 * fair_eas.c - CFS task placement of Linux v5.9 kernel/sched/fair.c on an asymmetric system,
 * kernel names kept: fits_capacity, task_util_est, uclamp_task_util, task_fits_capacity,
 * cpu_util, cpu_util_next, compute_energy (with schedutil_cpu_util for ENERGY_UTIL and
 * FREQUENCY_UTIL: cpu_util.c, the one schedutil uses too), em_cpu_energy
 * (include/linux/energy_model.h),
 * find_energy_efficient_cpu, cpu_overutilized, update_overutilized_status, the overutilized
 * part of update_sd_lb_stats, update_misfit_status; the rest of select_task_rq_fair is in
 * fair_select.c. Written from
 * the v5.9 sources' logic; checked against v5.9 fair.c excerpts
 * (find_energy_efficient_cpu's final rule, select_idle_capacity); not copied.
 *
 * Differences from v5.9, and why:
 * - The state is a snapshot (struct eas_rd) filled by the caller, not the live rqs; there is no
 *   locking, RCU or sync_entity_load_avg (the caller syncs p's util to its cfs_rq's time).
 * - Topology is fixed to the big.LITTLE shape of a phone: MC = the cluster (LLC), DIE = all
 *   CPUs with SD_ASYM_CPUCAPACITY, SD_BALANCE_WAKE never set, MC imbalance_pct 117, DIE 125.
 * - capacity_of() = capacity_orig (no RT/DL/irq/thermal pressure on capacity), so the
 *   unsigned spare-capacity underflow of v5.9 (spare = capacity - util) cannot occur.
 * - The misfit pull is an emulation rule, not load_balance() itself:
 *   while overutilized, a misfit task on a CPU moves to the lowest-numbered idle allowed CPU of
 *   a bigger capacity when that CPU's cluster has spare capacity.
 * - With rd->util_fits_cpu (kernel profiles v6.2+), the fit tests of feec,
 *   select_idle_capacity, task_fits_capacity and cpu_overutilized use util_fits_cpu() (binary
 *   form, without thermal pressure); the rest of v5.9's feec (6.25 % margin) stays.
 */
#include "sched/eas.h"

#include <limits.h>
#include <string.h>

#include "sched/cpu_util.h"

#define SCHED_CAPACITY_SCALE_UL 1024UL
#define UTIL_AVG_UNCHANGED_LSB  0x1U
#define UTIL_AVG_UNCHANGED_MSB  0x80000000U
#define DIE_IMBALANCE_PCT       125

static inline unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

static inline unsigned long min_ul(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static inline bool cpu_allowed(const struct eas_task *p, int cpu)
{
	return !p->cpus_allowed || (p->cpus_allowed >> cpu) & 1;
}

static unsigned int uclamp_eff(const struct eas_rd *rd, const struct eas_task *p,
			       enum uclamp_id id)
{
	if (!rd->uclamp || !p->uc)
		return id == UCLAMP_MIN ? 0 : (unsigned int)SCHED_CAPACITY_SCALE_UL;
	return uclamp_eff_value(rd->uclamp, p->uc, id);
}

/* fits_capacity(cap, max) = cap * capacity_margin(1280) < max * 1024: an 80 % threshold */
bool fits_capacity(unsigned long util, unsigned long capacity)
{
	return util * 1280 < capacity * 1024;
}

/* v6.2 util_fits_cpu() without thermal pressure, binary */
static bool util_fits_cpu(unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
			  unsigned long capacity_orig, unsigned long capacity)
{
	bool fits = fits_capacity(util, capacity);

	if (uclamp_max < uclamp_min)
		uclamp_min = uclamp_max;
	/* a cap at or below this CPU's capacity lets any util fit, except 1024 on a 1024 CPU */
	if (capacity_orig == SCHED_CAPACITY_SCALE_UL && uclamp_max == SCHED_CAPACITY_SCALE_UL)
		uclamp_max = ULONG_MAX;
	fits = fits || uclamp_max <= capacity_orig;
	/* a boost above what the CPU can give does not fit */
	if (util < uclamp_min)
		fits = fits && uclamp_min <= capacity_orig;
	return fits;
}

/* _task_util_est(p) = max(ewma, enqueued) | UTIL_AVG_UNCHANGED (v5.9: the LSB flag) */
static unsigned long _task_util_est(const struct eas_rd *rd, const struct eas_task *p)
{
	unsigned int ue = p->util_est_ewma > p->util_est_enqueued ? p->util_est_ewma
								: p->util_est_enqueued;

	if (rd->util_est_lsb)
		return ue | UTIL_AVG_UNCHANGED_LSB;
	return ue & ~UTIL_AVG_UNCHANGED_MSB;
}

static unsigned long task_util_est(const struct eas_rd *rd, const struct eas_task *p)
{
	return max_ul(p->util_avg, _task_util_est(rd, p));
}

unsigned long eas_task_util_est(const struct eas_rd *rd, const struct eas_task *p)
{
	return task_util_est(rd, p);
}

/* clamp(task_util_est, eff MIN, eff MAX): the task's own clamps, whatever the static key */
unsigned long uclamp_task_util(const struct eas_rd *rd, const struct eas_task *p)
{
	unsigned long u = task_util_est(rd, p);
	unsigned long lo = uclamp_eff(rd, p, UCLAMP_MIN), hi = uclamp_eff(rd, p, UCLAMP_MAX);

	return u < lo ? lo : u > hi ? hi : u;
}

static bool task_fits_cpu(const struct eas_rd *rd, const struct eas_task *p, int cpu,
			  unsigned long capacity)
{
	if (rd->util_fits_cpu)
		return util_fits_cpu(task_util_est(rd, p), uclamp_eff(rd, p, UCLAMP_MIN),
				     uclamp_eff(rd, p, UCLAMP_MAX), rd->cpu[cpu].capacity_orig,
				     capacity);
	return fits_capacity(uclamp_task_util(rd, p), capacity);
}

bool task_fits_capacity(const struct eas_rd *rd, const struct eas_task *p,
			unsigned long capacity)
{
	return fits_capacity(uclamp_task_util(rd, p), capacity);
}

/* cpu_util(cpu) = min(max(util_avg, util_est.enqueued), capacity_orig) */
unsigned long cpu_util(const struct eas_rd *rd, int cpu)
{
	const struct eas_cpu *c = &rd->cpu[cpu];

	return min_ul(max_ul(c->util_avg, c->util_est_enqueued), c->capacity_orig);
}

/*
 * cpu_util_next(cpu, p, dst): the CPU's util if p ran on dst:
 *   util = cfs util_avg, - task_util(p) if p leaves cpu, + task_util(p) if p comes to it;
 *   est = util_est.enqueued (+ _task_util_est(p) on dst; p is enqueued nowhere yet);
 *   return min(max(util, est), capacity_orig)
 */
unsigned long cpu_util_next(const struct eas_rd *rd, int cpu, const struct eas_task *p,
			    int dst_cpu)
{
	const struct eas_cpu *c = &rd->cpu[cpu];
	unsigned long util = c->util_avg, est;

	if (p->cpu == cpu && dst_cpu != cpu)
		util = util > p->util_avg ? util - p->util_avg : 0;
	else if (p->cpu != cpu && dst_cpu == cpu)
		util += p->util_avg;
	est = c->util_est_enqueued;
	if (dst_cpu == cpu)
		est += _task_util_est(rd, p);
	return min_ul(max_ul(util, est), c->capacity_orig);
}

/* v5.9 uclamp_rq_util_with(rq, util, p) on this snapshot (identity without uclamp) */
static unsigned long rq_util_with(const struct eas_rd *rd, int cpu, unsigned long util,
				  const struct eas_task *p)
{
	if (!rd->uclamp || !rd->cpu[cpu].uclamp)
		return util;
	return uclamp_rq_util_with(rd->uclamp, rd->cpu[cpu].uclamp, util, p ? p->uc : NULL);
}

/*
 * What schedutil_cpu_util() reads of the snapshot's rq of cpu; p not NULL: with p's effective
 * clamps max-aggregated into the rq's, as uclamp_rq_util_with(rq, util, p) does (the bounds
 * matter only while uclamp is in use; a CPU without rq clamps leaves the util unclamped).
 */
static void eas_cpu_util_rq(const struct eas_rd *rd, int cpu, const struct eas_task *p,
			    struct cpu_util_rq *rq)
{
	const struct eas_cpu *c = &rd->cpu[cpu];

	rq->util_rt = c->util_rt;
	rq->util_dl = c->util_dl;
	rq->bw_dl = c->bw_dl;
	rq->util_irq = c->util_irq;
	rq->rt_runnable = c->rt_runnable;
	rq->uclamp_used = rd->uclamp && uclamp_is_used(rd->uclamp);
	rq->uclamp_min = 0;
	rq->uclamp_max = ULONG_MAX;
	if (rq->uclamp_used && c->uclamp)
		uclamp_rq_util_bounds(rd->uclamp, c->uclamp, p ? p->uc : NULL, &rq->uclamp_min,
				      &rq->uclamp_max);
}

static int pd_first_cpu(const struct em_perf_domain *pd)
{
	return pd->cpus ? __builtin_ctzll(pd->cpus) : 0;
}

/*
 * em_cpu_energy(pd, max_util, sum_util), v5.9:
 *   freq = map_util_freq(max_util, fmax, scale_cpu) = (fmax + fmax/4) * max_util / scale_cpu
 *   ps   = the lowest perf state with frequency >= freq (else the highest)
 *   energy = ps.cost * sum_util / scale_cpu
 * (cost = fmax * power / freq, so this is power x busy time normalised to the pd's fmax.)
 */
unsigned long em_cpu_energy(const struct em_perf_domain *pd, unsigned long max_util,
			    unsigned long sum_util, unsigned long scale_cpu)
{
	unsigned long fmax = pd->table[pd->nr_perf_states - 1].frequency, freq;
	const struct em_perf_state *ps = &pd->table[pd->nr_perf_states - 1];

	freq = (fmax + (fmax >> 2)) * max_util / scale_cpu;
	for (int i = 0; i < pd->nr_perf_states; i++) {
		if (pd->table[i].frequency >= freq) {
			ps = &pd->table[i];
			break;
		}
	}
	return ps->cost * sum_util / scale_cpu;
}

/*
 * compute_energy(p, dst_cpu, pd): for each CPU of the pd, util_cfs = cpu_util_next(cpu, p,
 * dst); sum_util += ENERGY_UTIL; max_util = max of FREQUENCY_UTIL with p's clamps on dst only;
 * cpu_cap is capacity_orig of the pd's first CPU.
 */
unsigned long compute_energy(const struct eas_rd *rd, const struct eas_task *p, int dst_cpu,
			     const struct em_perf_domain *pd)
{
	int first = pd_first_cpu(pd);
	unsigned long cpu_cap = rd->cpu[first].capacity_orig, max_util = 0, sum_util = 0;

	for (int cpu = first; cpu < rd->nr_cpus; cpu++) {
		unsigned long util_cfs, cpu_util_f;
		struct cpu_util_rq rq;

		if (!((pd->cpus >> cpu) & 1))
			continue;
		util_cfs = cpu_util_next(rd, cpu, p, dst_cpu);
		/* p's clamps count on dst only; ENERGY_UTIL reads no clamp */
		eas_cpu_util_rq(rd, cpu, cpu == dst_cpu ? p : NULL, &rq);
		sum_util += schedutil_cpu_util(&rq, util_cfs, cpu_cap, ENERGY_UTIL);
		cpu_util_f = schedutil_cpu_util(&rq, util_cfs, cpu_cap, FREQUENCY_UTIL);
		max_util = max_ul(max_util, cpu_util_f);
	}
	return em_cpu_energy(pd, max_util, sum_util, cpu_cap);
}

static void explain_add(struct eas_feec_explain *ex, int cpu, unsigned long delta)
{
	if (ex && ex->nr < (int)(sizeof(ex->cand) / sizeof(ex->cand[0]))) {
		ex->cand[ex->nr].cpu = cpu;
		ex->cand[ex->nr].delta = delta;
		ex->nr++;
	}
}

/* The feec fit test of one CPU: uclamp'd cpu_util_next, or util_fits_cpu (v6.2+). */
static bool feec_fits(const struct eas_rd *rd, const struct eas_task *p, int cpu,
		      unsigned long util)
{
	unsigned long cap = rd->cpu[cpu].capacity;

	if (rd->util_fits_cpu) {
		unsigned long lo = uclamp_eff(rd, p, UCLAMP_MIN), hi = uclamp_eff(rd, p, UCLAMP_MAX);
		const struct uclamp_rq_pair *uq = rd->cpu[cpu].uclamp;

		if (uq && !(uq->flags & UCLAMP_FLAG_IDLE) && rd->uclamp &&
		    uclamp_is_used(rd->uclamp)) {
			lo = max_ul(lo, uq->uc[UCLAMP_MIN].value);
			hi = max_ul(hi, uq->uc[UCLAMP_MAX].value);
		}
		return util_fits_cpu(util, lo, hi, rd->cpu[cpu].capacity_orig, cap);
	}
	return fits_capacity(rq_util_with(rd, cpu, util, p), cap);
}

/* One pd of feec: prev's delta if it fits, and the max-spare CPU's (strict >, from 0). */
static void feec_pd(const struct eas_rd *rd, const struct eas_task *p, int prev_cpu,
		    const struct em_perf_domain *pd, unsigned long *prev_delta,
		    unsigned long *best_delta, int *best_cpu, unsigned long *base_energy,
		    struct eas_feec_explain *ex)
{
	unsigned long base = compute_energy(rd, p, -1, pd), max_spare = 0;
	int max_spare_cpu = -1;

	*base_energy += base;
	for (int cpu = 0; cpu < rd->nr_cpus; cpu++) {
		unsigned long util, spare;

		if (!((pd->cpus >> cpu) & 1) || !cpu_allowed(p, cpu))
			continue;
		util = cpu_util_next(rd, cpu, p, cpu);
		spare = rd->cpu[cpu].capacity - util; /* unsigned, unclamped */
		if (!feec_fits(rd, p, cpu, util))
			continue;
		if (cpu == prev_cpu) {
			*prev_delta = compute_energy(rd, p, prev_cpu, pd) - base;
			*best_delta = min_ul(*best_delta, *prev_delta);
			explain_add(ex, cpu, *prev_delta);
		}
		if (spare > max_spare) {
			max_spare = spare;
			max_spare_cpu = cpu;
		}
	}
	if (max_spare_cpu >= 0 && max_spare_cpu != prev_cpu) {
		unsigned long cur = compute_energy(rd, p, max_spare_cpu, pd) - base;

		explain_add(ex, max_spare_cpu, cur);
		if (cur < *best_delta) {
			*best_delta = cur;
			*best_cpu = max_spare_cpu;
		}
	}
}

/*
 * find_energy_efficient_cpu(p, prev_cpu), v5.9 l.6554: -1 when no EM or overutilized; else
 * over the pds (rd->pd order) prev's energy delta and each pd's max-spare CPU's; the best
 * replaces prev only if prev did not fit or it saves more than (prev_delta + base) / 16.
 */
int find_energy_efficient_cpu(const struct eas_rd *rd, const struct eas_task *p, int prev_cpu,
			      struct eas_feec_explain *ex)
{
	unsigned long prev_delta = ULONG_MAX, best_delta = ULONG_MAX, base_energy = 0;
	int best_cpu = prev_cpu;

	if (ex)
		memset(ex, 0, sizeof(*ex));
	if (!rd->energy || !rd->nr_pd || rd->overutilized || !rd->asym) {
		if (ex)
			ex->result = -1;
		return -1;
	}
	/* if (!task_util_est(p)) return prev_cpu: dead code with the v5.9 LSB flag */
	if (!task_util_est(rd, p)) {
		if (ex)
			ex->result = prev_cpu;
		return prev_cpu;
	}
	for (int i = 0; i < rd->nr_pd; i++)
		feec_pd(rd, p, prev_cpu, rd->pd[i], &prev_delta, &best_delta, &best_cpu,
			&base_energy, ex);
	if (ex) {
		ex->prev_delta = prev_delta;
		ex->base_energy = base_energy;
	}
	if (prev_delta != ULONG_MAX && prev_delta - best_delta <= (prev_delta + base_energy) >> 4)
		best_cpu = prev_cpu;
	if (ex)
		ex->result = best_cpu;
	return best_cpu;
}

/* ---- overutilized ---------------------------------------------------------------------------- */

/* cpu_overutilized(cpu) = !fits_capacity(cpu_util(cpu), capacity_of(cpu)): no uclamp in v5.9 */
bool cpu_overutilized(const struct eas_rd *rd, int cpu)
{
	const struct eas_cpu *c = &rd->cpu[cpu];

	if (rd->util_fits_cpu) {
		unsigned long lo = 0, hi = SCHED_CAPACITY_SCALE_UL;

		if (c->uclamp && rd->uclamp && uclamp_is_used(rd->uclamp)) {
			lo = c->uclamp->uc[UCLAMP_MIN].value;
			hi = c->uclamp->uc[UCLAMP_MAX].value;
		}
		return !util_fits_cpu(cpu_util(rd, cpu), lo, hi, c->capacity_orig, c->capacity);
	}
	return !fits_capacity(cpu_util(rd, cpu), c->capacity);
}

/* at the end of enqueue_task_fair() and in task_tick_fair(): set only */
bool update_overutilized_status(struct eas_rd *rd, int cpu)
{
	if (!rd->energy || rd->overutilized || !cpu_overutilized(rd, cpu))
		return false;
	rd->overutilized = true;
	return true;
}

/* root-level update_sd_lb_stats(): the flag = some CPU overutilized; the only clear */
bool update_sd_lb_stats_overutilized(struct eas_rd *rd)
{
	bool ou = false, old = rd->overutilized;

	for (int cpu = 0; cpu < rd->nr_cpus && !ou; cpu++)
		ou = cpu_overutilized(rd, cpu);
	rd->overutilized = ou;
	return ou != old;
}

/* ---- misfit ---------------------------------------------------------------------------------- */

void update_misfit_status(struct eas_rd *rd, int cpu, const struct eas_task *p)
{
	struct eas_cpu *c = &rd->cpu[cpu];

	if (!rd->asym)
		return;
	if (!p || task_fits_cpu(rd, p, cpu, c->capacity)) {
		c->misfit_task_load = 0;
		return;
	}
	c->misfit_task_load = p->load_avg ? p->load_avg : 1;
}

/* Spare in a cluster for the misfit pull (group_has_spare, v5.9 group_has_capacity). */
static bool cluster_has_spare(const struct eas_rd *rd, int cluster)
{
	unsigned long cap = 0, util = 0, runnable = 0;
	unsigned int nr = 0, weight = 0;

	for (int cpu = 0; cpu < rd->nr_cpus; cpu++) {
		if (rd->cluster[cpu] != cluster)
			continue;
		weight++;
		nr += rd->cpu[cpu].nr_running;
		cap += rd->cpu[cpu].capacity;
		util += cpu_util(rd, cpu);
		runnable += rd->cpu[cpu].runnable_avg;
	}
	if (nr < weight)
		return true;
	if (cap * DIE_IMBALANCE_PCT < runnable * 100)
		return false;
	return cap * 100 > util * DIE_IMBALANCE_PCT;
}

int misfit_pull_cpu(const struct eas_rd *rd, const struct eas_task *p, int src)
{
	unsigned long src_cap = rd->cpu[src].capacity_orig;

	if (!rd->asym || !rd->cpu[src].misfit_task_load)
		return -1;
	if (rd->energy && !rd->overutilized) /* find_busiest_group: balanced */
		return -1;
	for (int cpu = 0; cpu < rd->nr_cpus; cpu++) {
		const struct eas_cpu *c = &rd->cpu[cpu];

		if (cpu == src || !cpu_allowed(p, cpu) || !c->idle)
			continue;
		/* group_smaller_max_cpu_capacity(src group, local group) */
		if (!fits_capacity(src_cap, c->capacity_orig))
			continue;
		if (cluster_has_spare(rd, rd->cluster[cpu]))
			return cpu;
	}
	return -1;
}
