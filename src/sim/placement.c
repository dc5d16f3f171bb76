/*
 * placement.c - --placement eas: the task placement what-if, an observer of the replay
 * (observer.h) with a strategy the work timing layer asks (struct work_host.place and
 * take_pull). At each wakeup the work timing layer replays, the CPU is chosen as v5.9's
 * select_task_rq() would from the emulated state (src/sched/eas.h: find_energy_efficient_cpu,
 * or wake_affine + select_idle_capacity while overutilized; find_idlest_cpu at fork;
 * select_task_rq_rt for RT tasks), and the root domain's overutilized flag and the misfit
 * status follow the emulated runqueues:
 *  - set at every CFS enqueue and tick (update_overutilized_status);
 *  - recomputed (set or cleared) as the root-level load balance does, at the first tick at or
 *    after nr_cpus ms since the last recomputation while some CPU is idle (the DIE
 *    balance_interval of an idle CPU), nr_cpus x 32 ms while every CPU is busy;
 *  - misfit status at every tick of a CFS task (update_misfit_status); while overutilized,
 *    a misfit task is pulled at that tick to the lowest idle allowed CPU of larger capacity
 *    whose cluster has spare capacity (fair_eas.c's rule; the ILB/softirq/stopper
 *    delays, sub-ms, are not added).
 * The overutilized time is the emulated time the flag was set, in seconds.
 * validate --placement eas registers the same root domain as another observer, the placement
 * check: it keeps the flags up as the driver would and scores the kernel's traced choices.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/eas.h"

#define BUSY_FACTOR 32

/* The root domain as v5.9's placement reads it, the flags it keeps (overutilized, misfit), and
 * counts: the driver's state (`driver`), or the placement check's. */
struct sim_place {
	bool driver; /* --placement eas: the replay places the tasks (else validate's check) */
	struct eas_rd rd;
	struct em_perf_domain pd[EAS_MAX_PD];
	u64 wakeups, forks, migrations, misfit_pulls, misfit_ticks, ou_switches;
	u64 ou_ns, ou_since;    /* overutilized time; since when (NO_TIME: not set) */
	u64 next_lb_ns;         /* the next root-level recomputation of the flag */
	int pull_src, pull_dst; /* a misfit pull for the work layer (-1: none) */
	s32 pull_pid;           /* of this task, if still running on pull_src */
	struct run_place_slice *slices; /* what ran where (heap; moved to the result) */
	size_t nr_slices, cap_slices;
	bool slices_cut;        /* SIM_PLACE_SLICES_MAX reached: the later ones not kept */
};

static bool profile_util_fits_cpu(const struct kernel_profile *kp)
{
	/* util_fits_cpu: mainline v6.2, backported to 5.15.100 and 6.1.20 */
	return strcmp(kp->name, "v5.15") == 0 || strcmp(kp->name, "v6.1") == 0 ||
	       strcmp(kp->name, "v6.6") == 0;
}

/* The root domain of the platform: clusters as MC spans, one perf domain per cluster in
 * v5.9's rd->pd order (build_perf_domains prepends: the cluster of the highest CPU first). */
static void place_init(struct sim *s, struct sim_place *pl)
{
	struct eas_rd *rd = &pl->rd;
	const struct platform *p = s->plat;
	bool em = true;
	unsigned long cap0 = p->cpus[0].capacity;

	rd->nr_cpus = p->nr_cpus;
	for (int c = 0; c < p->nr_cpus; c++) {
		rd->cluster[c] = p->cpus[c].cluster;
		rd->max_cpu_capacity = gs_max_u64(rd->max_cpu_capacity, p->cpus[c].capacity);
		if (p->cpus[c].capacity != cap0)
			rd->asym = true;
	}
	for (int k = p->nr_clusters - 1; k >= 0 && rd->nr_pd < EAS_MAX_PD; k--) {
		const struct plat_cluster *pc = &p->clusters[k];
		struct em_perf_domain *pd = &pl->pd[rd->nr_pd];

		if (!pc->dyn_power_coeff || pc->nr_opps > EAS_MAX_PS)
			em = false;
		pd->nr_perf_states = pc->nr_opps;
		for (int i = 0; i < pc->nr_opps && i < EAS_MAX_PS; i++) {
			pd->table[i].frequency = pc->opps[i].freq_khz;
			pd->table[i].power = pc->opps[i].em_power_mw;
			pd->table[i].cost = pc->opps[i].em_cost;
		}
		for (int i = 0; i < pc->nr_cpus; i++)
			pd->cpus |= 1ull << pc->cpus[i];
		rd->pd[rd->nr_pd++] = pd;
	}
	/* sched_energy_enabled(): an EM everywhere, asymmetric capacities, schedutil */
	rd->energy = em && rd->asym && strcmp(s->cfg.gov->name, "schedutil") == 0;
	rd->uclamp = s->kp->uclamp_present ? &s->uc : NULL;
	rd->util_est_lsb = s->kp->util_est_flag == UTIL_EST_FLAG_LSB;
	rd->util_fits_cpu = profile_util_fits_cpu(s->kp);
	pl->ou_since = NO_TIME;
	pl->pull_src = pl->pull_dst = -1;
}

static void refresh_cpu(struct sim *s, struct sim_place *pl, int cpu)
{
	struct eas_cpu *c = &pl->rd.cpu[cpu];

	sched_eas_cpu(s->sched, cpu, c);
	c->idle_exit_latency_us = 0; /* the emulation has no idle states: all alike */
	c->idle_stamp = s->cpu[cpu].idle_since_ns;
}

static void refresh_all(struct sim *s, struct sim_place *pl)
{
	for (int c = 0; c < s->plat->nr_cpus; c++)
		refresh_cpu(s, pl, c);
}

/* The flag changed at now: account its time. */
static void ou_changed(struct sim_place *pl, u64 now)
{
	if (pl->rd.overutilized) {
		pl->ou_since = now;
		pl->ou_switches++;
	} else if (pl->ou_since != NO_TIME) {
		pl->ou_ns += now - pl->ou_since;
		pl->ou_since = NO_TIME;
	}
}

/* struct work_host.place: ctx is the replay, whose driver's state is s->place. */
int sim_placement_wakeup(void *ctx, const struct event *ev, int waker_cpu, u64 now)
{
	struct sim *s = ctx;
	struct sim_place *pl = s->place;
	struct task *p = sched_task_find(s->sched, ev->wake.pid);
	struct eas_waker wk = { .cpu = waker_cpu };
	struct eas_task t;
	int cpu;

	refresh_all(s, pl);
	if (!p) {
		if (ev->type != EV_WAKEUP_NEW || ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
			return -1;
		/* fork: the child, util 0, on its parent's CPU (sched_fork) */
		memset(&t, 0, sizeof(t));
		t.cpu = waker_cpu >= 0 ? waker_cpu : ev->cpu;
		t.new_task = true;
		t.prio = ev->wake.prio;
		t.cpus_allowed = policy_affinity(s->cfg.opts.policy, now - s->t0, ev->wake.pid,
						 ev->wake.comm);
		pl->forks++;
		if (t.prio < 100)
			return select_task_rq_rt(&pl->rd, &t, t.cpu, t.cpu);
		return select_task_rq_fair(&pl->rd, &t, t.cpu, EAS_BALANCE_FORK, &wk, NULL);
	}
	if (p->on_rq || p->cpu < 0 || p->is_governor || p->class == SCHED_CLASS_DL ||
	    p->class == SCHED_CLASS_STOP)
		return -1;
	sched_eas_task(s->sched, p, &t);
	t.cpus_allowed = policy_affinity(s->cfg.opts.policy, now - s->t0, p->pid, p->comm);
	if (p->class == SCHED_CLASS_RT)
		cpu = select_task_rq_rt(&pl->rd, &t, p->cpu, waker_cpu);
	else
		cpu = select_task_rq_fair(&pl->rd, &t, p->cpu, EAS_BALANCE_WAKE, &wk, NULL);
	pl->wakeups++;
	if (cpu != p->cpu) {
		pl->migrations++;
		if (sim_task_data(p))
			sim_task_data(p)->migrations++;
	}
	return cpu;
}

/* The CPU that pulls the misfit task running on cpu now (-1: none). */
static int misfit(struct sim *s, struct sim_place *pl, int cpu)
{
	struct task *p = sched_cpu_curr(s->sched, cpu);
	struct eas_task t;

	if (!p || p->class != SCHED_CLASS_CFS)
		return -1;
	refresh_all(s, pl);
	sched_eas_task(s->sched, p, &t);
	t.cpus_allowed = policy_affinity(s->cfg.opts.policy, s->now - s->t0, p->pid, p->comm);
	return misfit_pull_cpu(&pl->rd, &t, cpu);
}

/* A CFS task was enqueued at a wakeup (tick false) or ticked (tick true) on cpu: the driver's
 * and the check's task_event hook. Only the driver decides misfit pulls. */
static void place_task_event(struct sim *s, struct sim_place *pl, const struct task *p, int cpu,
			     bool tick, u64 now)
{
	struct eas_rd *rd = &pl->rd;

	if (p->class != SCHED_CLASS_CFS || cpu < 0 || cpu >= s->plat->nr_cpus)
		return;
	refresh_cpu(s, pl, cpu);
	if (update_overutilized_status(rd, cpu))
		ou_changed(pl, now);
	if (!tick)
		return;
	{
		struct eas_task t;

		sched_eas_task(s->sched, p, &t);
		update_misfit_status(rd, cpu, &t);
		if (rd->cpu[cpu].misfit_task_load)
			pl->misfit_ticks++;
	}
	if (pl->driver && pl->pull_src < 0 && rd->cpu[cpu].misfit_task_load && rd->overutilized) {
		int dst = misfit(s, pl, cpu);

		if (dst >= 0) {
			pl->pull_src = cpu;
			pl->pull_dst = dst;
			pl->pull_pid = p->pid;
		}
	}
	if (now >= pl->next_lb_ns) {
		bool any_idle = false;

		refresh_all(s, pl);
		for (int c = 0; c < s->plat->nr_cpus; c++)
			any_idle |= rd->cpu[c].idle;
		if (update_sd_lb_stats_overutilized(rd))
			ou_changed(pl, now);
		pl->next_lb_ns = now + (u64)s->plat->nr_cpus * NSEC_PER_MSEC *
					       (any_idle ? 1 : BUSY_FACTOR);
	}
}

static void place_task_event_hook(struct sim *s, void *state, const struct task *p, int cpu,
				  enum sched_task_event ev, u64 now)
{
	if (ev == TASK_EV_WAKEUP || ev == TASK_EV_TICK)
		place_task_event(s, state, p, cpu, ev == TASK_EV_TICK, now);
}

/* struct work_host.take_pull: a misfit pull decided at a tick, once. */
bool sim_placement_take_pull(void *ctx, int *src, int *dst)
{
	struct sim *s = ctx;
	struct sim_place *pl = s->place;
	struct task *p;

	if (pl->pull_src < 0)
		return false;
	*src = pl->pull_src;
	*dst = pl->pull_dst;
	pl->pull_src = pl->pull_dst = -1;
	p = sched_cpu_curr(s->sched, *src);
	return p && p->pid == pl->pull_pid && !sched_cpu_curr(s->sched, *dst);
}

/* The driver's sched_applied hook: an EV_MIGRATE reaches the replay under --placement eas only
 * as the work layer's move of a running task for a misfit pull (take_pull). */
static void drv_sched_applied(struct sim *s, void *state, const struct event *ev, u64 now)
{
	struct sim_place *pl = state;
	struct task *p;
	int src;

	(void)now;
	if (ev->type != EV_MIGRATE)
		return;
	src = ev->migrate.orig_cpu;
	p = sched_task_find(s->sched, ev->migrate.pid);
	pl->misfit_pulls++;
	pl->migrations++;
	if (p && sim_task_data(p))
		sim_task_data(p)->migrations++;
	if (src >= 0 && src < s->plat->nr_cpus)
		pl->rd.cpu[src].misfit_task_load = 0;
}

/* A disagreement: the first SIM_PLACE_DIS_MAX are kept for --explain. */
static void record_dis(struct sim *s, const struct sim_place *pl, const struct event *ev,
		       const struct task *p, int traced, int cpu, const struct eas_feec_explain *ex,
		       bool migrate)
{
	struct sim_place_dis *d;

	if (s->val.nr_pdis >= SIM_PLACE_DIS_MAX)
		return;
	if (!s->val.pdis && !(s->val.pdis = calloc(SIM_PLACE_DIS_MAX, sizeof(*s->val.pdis))))
		return;
	d = &s->val.pdis[s->val.nr_pdis++];
	d->t_ns = ev->ts_ns - s->t0;
	d->pid = p->pid;
	snprintf(d->comm, sizeof(d->comm), "%s", p->comm);
	d->prev = p->cpu;
	d->traced = traced;
	d->emulated = cpu;
	d->overutilized = pl->rd.overutilized;
	d->migrate = migrate;
	d->queued = migrate && p->on_rq;
	d->nr = ex && ex->nr < 9 ? ex->nr : ex ? 9 : 0;
	for (int i = 0; i < d->nr; i++) {
		d->cand_cpu[i] = ex->cand[i].cpu;
		d->cand_delta[i] = ex->cand[i].delta;
	}
	d->base_energy = ex ? ex->base_energy : 0;
}

/*
 * validate --placement eas: a traced sched_wakeup of a sleeping CFS task (its traced target_cpu
 * is the kernel's choice): would v5.9's select_task_rq_fair(), from the emulated state just
 * before it, pick that CPU? The waker's CPU is taken as the event's CPU.
 */
static void check_wakeup(struct sim *s, struct sim_place *pl, const struct event *ev)
{
	struct task *p = sched_task_find(s->sched, ev->wake.pid);
	struct eas_waker wk = { .cpu = ev->cpu >= 0 && ev->cpu < s->plat->nr_cpus ? ev->cpu : -1 };
	struct eas_feec_explain ex;
	struct eas_task t;
	int traced = ev->wake.target_cpu, cpu, cl;

	if (!p || p->on_rq || p->cpu < 0 || p->is_governor || p->class != SCHED_CLASS_CFS ||
	    traced < 0 || traced >= s->plat->nr_cpus)
		return;
	refresh_all(s, pl);
	sched_eas_task(s->sched, p, &t);
	cpu = select_task_rq_fair(&pl->rd, &t, p->cpu, EAS_BALANCE_WAKE, &wk, &ex);
	cl = s->cpu[traced].cluster;
	s->val.place_n[cl]++;
	if (cpu == traced)
		s->val.place_agree[cl]++;
	else
		record_dis(s, pl, ev, p, traced, cpu, &ex, false);
}

/*
 * validate --placement eas: a traced sched_migrate_task of a CFS task (set_task_cpu; its
 * dest_cpu is the kernel's choice). Would the emulation, from the emulated state just before
 * it, move the task from its CPU to dest_cpu?
 *  - the task asleep (v5.9 emits it in try_to_wake_up, before the sched_wakeup): the CPU
 *    select_task_rq_fair() picks with the task's emulated CPU as prev_cpu and the event's CPU
 *    as the waker's, as for a wakeup;
 *  - the task runnable (a load balance moved it): the emulation's only balance is the misfit
 *    pull (misfit_pull_cpu: while overutilized, a misfit task to an idle bigger CPU); without
 *    one the task stays where it is, a disagreement.
 * Scored per cluster of dest_cpu, only when the emulated CPU is the traced orig_cpu (the same
 * state); the wakeup that follows is scored as a wakeup too.
 */
static void check_migrate(struct sim *s, struct sim_place *pl, const struct event *ev)
{
	struct task *p = sched_task_find(s->sched, ev->migrate.pid);
	struct eas_waker wk = { .cpu = ev->cpu >= 0 && ev->cpu < s->plat->nr_cpus ? ev->cpu : -1 };
	struct eas_feec_explain ex;
	struct eas_task t;
	int dest = ev->migrate.dest_cpu, cpu, cl;

	if (!p || p->cpu < 0 || p->cpu != ev->migrate.orig_cpu || p->is_governor ||
	    p->class != SCHED_CLASS_CFS || dest < 0 || dest >= s->plat->nr_cpus || dest == p->cpu)
		return;
	refresh_all(s, pl);
	sched_eas_task(s->sched, p, &t);
	memset(&ex, 0, sizeof(ex));
	if (!p->on_rq) {
		cpu = select_task_rq_fair(&pl->rd, &t, p->cpu, EAS_BALANCE_WAKE, &wk, &ex);
	} else {
		cpu = misfit_pull_cpu(&pl->rd, &t, p->cpu);
		if (cpu < 0)
			cpu = p->cpu;
	}
	cl = s->cpu[dest].cluster;
	s->val.mig_n[cl]++;
	if (cpu == dest)
		s->val.mig_agree[cl]++;
	else
		record_dis(s, pl, ev, p, dest, cpu, p->on_rq ? NULL : &ex, true);
}

/* The placement check's sched_event hook. */
static void check_sched_event(struct sim *s, void *state, const struct event *ev)
{
	if (ev->type == EV_WAKEUP)
		check_wakeup(s, state, ev);
	else if (ev->type == EV_MIGRATE)
		check_migrate(s, state, ev);
}

#define SIM_PLACE_SLICES_MAX (1u << 21) /* 2 M slices, 48 MiB */

/* The driver's task_ran hook: p ran on cpu from start to end (ns), a slice of the placement
 * plot. */
static void drv_task_ran(struct sim *s, void *state, const struct task *p, int cpu, u64 start,
			 u64 end)
{
	struct sim_place *pl = state;
	struct run_place_slice *sl;

	if (end <= start || start < s->t0)
		return;
	if (pl->nr_slices == pl->cap_slices) {
		size_t cap = pl->cap_slices ? pl->cap_slices * 2 : 1024;

		if (cap > SIM_PLACE_SLICES_MAX || !(sl = realloc(pl->slices, cap * sizeof(*sl)))) {
			pl->slices_cut = true;
			return;
		}
		pl->slices = sl;
		pl->cap_slices = cap;
	}
	sl = &pl->slices[pl->nr_slices++];
	sl->start_s = ns_to_s(start - s->t0);
	sl->end_s = ns_to_s(end - s->t0);
	sl->pid = p->pid;
	sl->cpu = cpu;
}

/* The driver's notes hook: close the overutilized interval; results and notes. */
static void drv_notes(struct sim *s, void *state, u64 end, struct run_result *r)
{
	struct sim_place *pl = state;

	snprintf(r->placement, sizeof(r->placement), "%s", "eas");
	if (pl->ou_since != NO_TIME && end > pl->ou_since) {
		pl->ou_ns += end - pl->ou_since;
		pl->ou_since = NO_TIME;
	}
	r->rd_overutilized_s = ns_to_s(pl->ou_ns);
	r->placement_wakeups = pl->wakeups;
	r->placement_migrations = pl->migrations;
	r->misfit_pulls = pl->misfit_pulls;
	r->slices = pl->slices;
	r->nr_slices = pl->nr_slices;
	pl->slices = NULL;
	pl->nr_slices = pl->cap_slices = 0;
	if (pl->slices_cut)
		run_result_note(r, "placement eas: only the first %zu slices kept for the placement "
				   "plot", r->nr_slices);
	run_result_note(r,
			"placement eas: %" PRIu64 " wakeups and %" PRIu64 " forks placed as v5.9 "
			"select_task_rq() (%s), %" PRIu64 " migrations of which %" PRIu64
			" misfit pulls; overutilized %.3f s (the root domain's flag: set when a CPU's "
			"util reaches 80 %% of its capacity, cleared by the root load balance)",
			pl->wakeups, pl->forks,
			!pl->rd.energy ? "no energy model or symmetric CPUs: EAS off, wake_affine "
					 "and select_idle_sibling"
			: pl->rd.util_fits_cpu ? "find_energy_efficient_cpu with v6.2 util_fits_cpu; "
						 "later feec changes not emulated"
					       : "find_energy_efficient_cpu",
			pl->migrations, pl->misfit_pulls, r->rd_overutilized_s);
	if (strcmp(s->kp->name, "v5.9") != 0 && !pl->rd.util_fits_cpu)
		run_result_note(r, "placement follows v5.9 for kernel profile %s", s->kp->name);
}

static void place_release(void *state)
{
	struct sim_place *pl = state;

	if (pl)
		free(pl->slices);
	free(pl);
}

/* A root domain for s's platform, kernel and governor (NULL: out of memory). */
static struct sim_place *place_new(struct sim *s, bool driver, struct gs_error *err)
{
	struct sim_place *pl = calloc(1, sizeof(*pl));

	if (!pl) {
		gs_error_set(err, GS_ENOMEM, "out of memory");
		return NULL;
	}
	place_init(s, pl);
	pl->driver = driver;
	return pl;
}

/* Register *o with a new root domain as its state (o->state; NULL when it fails). */
static int place_add(struct sim *s, struct sim_observer *o, bool driver, struct gs_error *err)
{
	int ret;

	if (!(o->state = place_new(s, driver, err)))
		return GS_ENOMEM;
	ret = sim_observers_add(&s->obs, o, err);
	if (ret) {
		place_release(o->state);
		o->state = NULL;
	}
	return ret;
}

int sim_placement_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_PLACEMENT,
		.task_event = place_task_event_hook,
		.sched_applied = drv_sched_applied,
		.task_ran = s->cfg.placement_slices ? drv_task_ran : NULL,
		.notes = drv_notes,
		.release = place_release,
	};
	int ret = place_add(s, &o, true, err);

	s->place = o.state;
	return ret;
}

int sim_placement_check_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_PLACEMENT_CHECK,
		.sched_event = check_sched_event,
		.task_event = place_task_event_hook,
		.release = place_release,
	};

	return place_add(s, &o, false, err);
}
