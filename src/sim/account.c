/*
 * account.c - the replay loop's accounting: residency per OPP, busy and idle time per CPU and
 * cluster (idle states from the trace or chosen with hindsight), clamping and over-utilization
 * time. Power is piecewise constant between the state changes counted here, so the energy sum
 * over these counters (power/energy.c) is exact.
 */
#include "sim/sim_priv.h"

#include <stdlib.h>
#include <string.h>

#include "power/power.h"

/* ---- accounting ----------------------------------------------------------------------------- */

/*
 * Accounting is lazy per cluster. Between two changes of a cluster's inputs (its frequency and
 * OPP, its first CPU's traced frequency, and per CPU busy, idle state, clamp direction and
 * over-utilization) every counter grows by the same dt, so the integration from acct_ns up to
 * the loop's accounting time last_acct is done only when an input is about to change
 * (sim_cluster_flush()) or at the end. The counters are integers, so the sums are exact in any
 * grouping. A csv_frac CPU's busy share is floored per interval: such a cluster is accounted
 * at every step, as the intervals were before.
 *
 * A CPU's own counters (busy, idle, clamped and over-utilized time) depend on its state and the
 * cluster's OPP alone, so they are kept per CPU (struct sim_cpu.acct_ns): when one CPU of a
 * cluster that stays busy starts or stops running, only that CPU's counters are brought up to
 * date (cpu_flush()); the cluster's own counters, whose inputs did not change (it was busy
 * before and after, at the same OPP), and the other CPUs' wait for the next flush of the
 * cluster, which brings every CPU up to date (a CPU's counters never lag the cluster's).
 */
/* The cluster's residency at its OPP, and the share of it at the traced frequency. */
static void account_residency(struct sim *s, int c, u64 dt)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;

	cl->residency_ns[cl->cur_opp] += dt;
	if (s->cpu[pc->cpus[0]].traced_seen) {
		u32 tk = s->cpu[pc->cpus[0]].traced_khz;
		if (!s->val.foreign_khz[c] && plat_cluster_opp_index(pc, tk) < 0)
			s->val.foreign_khz[c] = tk;
		/* only the kernel's decisions are scored, never a marker's frequency */
		if (s->cpu[pc->cpus[0]].traced_kernel) {
			s->val.opp_known_ns[c] += dt;
			if (tk == cl->acct_khz)
				s->val.opp_match_ns[c] += dt;
		} else {
			s->val.markers_only[c] = true;
		}
	}
}

/* What one CPU of cluster cl did for dt: clamped, busy (or the busy fraction of a CSV util
 * trace), idle in which state. *any_busy, *min_idle, *frac_ns gather the cluster's state. */
static void account_cpu(struct sim *s, int c, struct sim_cpu *sc, u64 dt, bool *any_busy,
			int *min_idle, u64 *frac_ns)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;

	if (sc->overutil)
		s->overutil_ns[c] += dt;
	if (sc->busy) {
		/* clamped time is CPU time: the direction of the last evaluation holds while the
		 * CPU runs; an idle CPU uses no util, clamped or not */
		if (sc->clamp_dir > 0)
			s->clamped_up_ns += dt;
		else if (sc->clamp_dir < 0)
			s->clamped_down_ns += dt;
		*any_busy = true;
		sc->busy_ns += dt;
		sc->busy_ns_opp[cl->cur_opp] += dt;
		return;
	}
	if (sc->csv_frac) {
		u64 cap = pc->opps[cl->cur_opp].capacity;
		u64 u = sc->csv_util < cap ? sc->csv_util : cap;
		u64 part = (u64)(((unsigned __int128)dt * u) / cap);
		sc->busy_ns += part;
		sc->busy_ns_opp[cl->cur_opp] += part;
		sc->idle_total_ns += dt - part;
		if (pc->nr_idle > 0)
			sc->idle_ns_state[0] += dt - part;
		if (part > *frac_ns)
			*frac_ns = part;
		return;
	}
	sc->idle_total_ns += dt;
	if (sc->traced_idle >= 0) {
		int st = sc->traced_idle < pc->nr_idle ? sc->traced_idle : pc->nr_idle - 1;
		if (st >= 0)
			sc->idle_ns_state[st] += dt;
		if (st < *min_idle)
			*min_idle = st;
	} else if (s->cfg.has_traced_idle) {
		/* idle for the scheduler, no idle state traced: active idle (WFI) */
		if (pc->nr_idle > 0)
			sc->idle_ns_state[0] += dt;
		*min_idle = 0;
	}
}

void sim_cluster_account(struct sim *s, int c, u64 t)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;
	bool any_busy = false;
	int min_idle = INT32_MAX;
	u64 cl_frac_ns = 0; /* CSV: the cluster is busy while its busiest CPU is */
	u64 dt;

	if (t <= cl->acct_ns)
		return;
	dt = t - cl->acct_ns;
	account_residency(s, c, dt);
	for (int i = 0; i < pc->nr_cpus; i++) {
		struct sim_cpu *sc = &s->cpu[pc->cpus[i]];

		/* from its own accounting time: it may lag the cluster's (cpu_flush()) */
		account_cpu(s, c, sc, t - sc->acct_ns, &any_busy, &min_idle, &cl_frac_ns);
		sc->acct_ns = t;
	}
	sim_observers_account(&s->obs, s, c, dt, any_busy);
	if (any_busy) {
		cl->busy_ns_opp[cl->cur_opp] += dt;
	} else if (cl_frac_ns) {
		cl->busy_ns_opp[cl->cur_opp] += cl_frac_ns;
		if (pc->nr_idle > 0)
			cl->idle_ns_state[0] += dt - cl_frac_ns;
	} else if (s->cfg.has_traced_idle && min_idle != INT32_MAX && min_idle >= 0)
		cl->idle_ns_state[min_idle] += dt;
	cl->acct_ns = t;
}


void sim_cluster_flush_all(struct sim *s)
{
	for (int c = 0; c < s->plat->nr_clusters; c++)
		sim_cluster_flush(s, c);
}

/* The frequency a cluster is accounted at follows pol.cur_khz (after a governor update or a
 * pending request applied). */
void sim_cluster_sync_khz(struct sim *s, int c)
{
	struct sim_cluster *cl = &s->cl[c];
	if (cl->pol.cur_khz != cl->acct_khz) {
		sim_cluster_flush(s, c);
		cl->acct_khz = cl->pol.cur_khz;
		sim_observers_freq_change(&s->obs, s, c, s->last_acct, cl->acct_khz);
	}
}

/* Whether the cluster must be accounted at every step (a CPU of it is csv_frac). */
void sim_cluster_update_eager(struct sim *s, int c)
{
	const struct plat_cluster *pc = s->cl[c].pc;
	bool eager = false;
	for (int i = 0; i < pc->nr_cpus; i++)
		eager |= s->cpu[pc->cpus[i]].csv_frac;
	s->cl[c].eager = eager;
}

/* Integrate the state up to t: the loop's accounting time moves, eager clusters follow. */
void sim_account(struct sim *s, u64 t)
{
	if (t <= s->last_acct)
		return;
	s->last_acct = t;
	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].eager)
			sim_cluster_account(s, c, t);
}

/* The counters of the CPUs in mask up to the loop's accounting time, with the state they had,
 * in a cluster busy all along (any_busy then stays true: the cluster's own counters do not
 * read what account_cpu() gathers for them). */
static void cpu_flush(struct sim *s, int c, u64 mask)
{
	bool any_busy = false;
	int min_idle = INT32_MAX;
	u64 frac_ns = 0;

	for (; mask; mask &= mask - 1) {
		struct sim_cpu *sc = &s->cpu[__builtin_ctzll(mask)];

		if (sc->acct_ns < s->last_acct) {
			account_cpu(s, c, sc, s->last_acct - sc->acct_ns, &any_busy, &min_idle,
				    &frac_ns);
			sc->acct_ns = s->last_acct;
		}
	}
}

/* Busy/idle transitions after the scheduler changed state at s->now: only the CPUs whose busy
 * state differs from the scheduler's (or a CSV row's) are visited. */
void sim_refresh_cluster(struct sim *s, int c)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;
	u64 busy_now = (sched_busy_mask(s->sched) | s->csv_busy_mask) & cl->cpu_mask;
	u64 changed = busy_now ^ (s->busy_mask & cl->cpu_mask);
	bool all_idle = busy_now == 0;

	if (changed) {
		/* per-CPU counters only: the order of the CPUs does not matter. A cluster busy
		 * before and after keeps its own counters' inputs: only the CPUs that change are
		 * brought up to date, unless an observer takes each interval of the cluster
		 * (account) or the cluster is accounted at every step (eager) */
		if (!all_idle && !cl->all_idle && !cl->eager && !s->obs.nr_account)
			cpu_flush(s, c, changed);
		else
			sim_cluster_flush(s, c);
		s->busy_mask ^= changed;
		for (; changed; changed &= changed - 1) {
			int cpu = __builtin_ctzll(changed);
			struct sim_cpu *sc = &s->cpu[cpu];
			bool busy = !sc->busy;

			if (busy && !s->cfg.has_traced_idle && pc->nr_idle > 0) {
				u64 len = s->now - sc->idle_since_ns;
				int st = power_pick_idle_state(pc, len, false);
				sc->idle_ns_state[st] += len;
			}
			if (!busy)
				sc->idle_since_ns = s->now;
			sc->busy = busy;
			sim_observers_cpu_state(&s->obs, s, cpu);
		}
	}
	if (all_idle != cl->all_idle) {
		if (!all_idle && !s->cfg.has_traced_idle && pc->nr_idle > 0) {
			u64 len = s->now - cl->all_idle_since_ns;
			int st = power_pick_idle_state(pc, len, true);
			cl->idle_ns_state[st] += len;
		}
		if (all_idle)
			cl->all_idle_since_ns = s->now;
		cl->all_idle = all_idle;
	}
}

/* Busy/idle transitions of a CPU's cluster after the scheduler or a CSV row changed it. */
void sim_refresh_busy(struct sim *s, int cpu)
{
	sim_refresh_cluster(s, s->cpu[cpu].cluster);
}
