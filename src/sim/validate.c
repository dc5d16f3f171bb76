/*
 * validate.c - the trace's own signals in the replay: --util-source trace keeps the trace's
 * per-CPU signals for the governor. govsim validate adds an observer (observer.h,
 * sim_validate_observe) that compares the emulated PELT/util_est with the trace's util events
 * at the same instants (replays of the emulated util in traced timing), pairs the kernel's
 * governor evaluations and frequency decisions with the emulation's, keeps the util_est
 * samples waiting for their event, and scores the busy time and energy of each cluster under
 * the kernel's frequencies.
 */
#include "sim/sim_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gov/governor.h"
#include "sched/cpu_util.h"

/* Evaluations of one CPU waiting for their pair, oldest first. */
#define SIM_GOV_WAIT_MAX 8
/* One evaluation waiting for its pair: its time, util and busy-hold state (1 busy: the
 * idle-entry count unchanged since the CPU's last evaluation; 0 not; -1 unknown). */
struct sim_gov_ev {
	u64 t;
	unsigned long util;
	signed char busy;
	u64 line; /* the kernel's: its probe's trace line (0 for the emulation's) */
};

struct sim_gov_wait {
	struct sim_gov_ev ev[SIM_GOV_WAIT_MAX];
	unsigned n;
};

/* The validation observer's state: what it keeps while the replay runs. Its results go to the
 * replay's struct sim_validation (s->val), which the accounting and the caller read. */
struct sim_val_watch {
	/* the lab's probes: per CPU, the kernel's evaluations and the emulation's that wait for
	 * their pair, oldest first (val_gov_raw) */
	struct sim_gov_pair {
		struct sim_gov_wait k, e;
		/* the paired evaluations in a row whose util differs by more than
		 * SIM_GOV_UTIL_NEAR, so far (evals 0: none) */
		struct sim_gov_departure run;
	} gov_pair[GS_MAX_CPUS];
	size_t cap_depart;
	/* a shared policy's evaluation: one per CPU at one instant, the policy's util their
	 * largest (sugov_next_freq_shared()); paired in the slot of the policy's first CPU */
	struct sim_shared_eval {
		u64 t;
		unsigned long util;
		int n;
	} shared_eval[GS_MAX_CLUSTERS];
	/* the kernel's evaluations where the idle_calls probe marks them (val_gov_idle_calls):
	 * per CPU, whether it has shown one, the count it showed (sugov_cpu's saved_idle_calls),
	 * and the raw frequency of the evaluation under way with its util; per policy (the slot of
	 * its first CPU), get_next_freq()'s cached_raw_freq and the one before it, which the busy
	 * hold restores */
	struct sim_gov_probe {
		bool ic_seen, raw_pending, cached_valid, prev_cached_valid;
		unsigned long raw_util;
		u64 raw_t, raw_line, saved_calls;
		u32 raw_khz, cached_khz, prev_cached_khz;
	} probe[GS_MAX_CPUS];
	/* per CPU, the idle-entry count the emulation's last evaluation read (schedutil's
	 * saved_idle_calls), and whether there was one */
	u64 emu_calls[GS_MAX_CPUS];
	bool emu_calls_seen[GS_MAX_CPUS];
	/* emulated frequency changes per cluster (time, kHz), and the last evaluation per
	 * cluster, for the decisions */
	struct sim_emu_change *emu_chg[GS_MAX_CLUSTERS]; /* to s->val at the end */
	size_t nr_emu_chg[GS_MAX_CLUSTERS], cap_emu_chg[GS_MAX_CLUSTERS];
	struct sim_decision last_eval[GS_MAX_CLUSTERS];
	size_t dec_scan; /* decisions before it are past every window: no later evaluation marks them */
	/* a sched_wakeup_new of a task the model did not have, being applied: born in the trace */
	bool born_pending;
	s32 born_pid;
};

bool sim_is_util_event(enum event_type t)
{
	switch (t) {
	case EV_PELT_CFS:
	case EV_PELT_RT:
	case EV_PELT_DL:
	case EV_UTIL_EST_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
	case EV_CSV_UTIL:
		return true;
	default:
		return false;
	}
}

/* --util-source trace: keep the trace's per-CPU signals; returns the CPU or -1. */
int sim_trace_util(struct sim *s, const struct event *ev)
{
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	struct sched_cpu_util *u;

	if (cpu < 0 || cpu >= s->plat->nr_cpus)
		return -1;
	u = &s->cpu[cpu].trace_util;
	switch (ev->type) {
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
		if (ev->util.path != EV_PATH_ROOT)
			return -1;
		u->util_avg = ev->util.util;
		break;
	case EV_LOAD_AVG_CPU:
		u->util_avg = ev->util.util;
		break;
	case EV_UTIL_EST_CFS:
		if (ev->util.path != EV_PATH_ROOT)
			return -1;
		u->util_est_enqueued = ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED;
		break;
	case EV_PELT_RT:
		u->util_rt = ev->util.util;
		break;
	case EV_PELT_DL:
		u->util_dl = ev->util.util;
		break;
	case EV_CSV_UTIL:
		u->util_avg = ev->util.util;
		u->util_est_enqueued = ev->util.util_est_enqueued != EV_NO_VALUE
					       ? ev->util.util_est_enqueued
					       : 0;
		u->util_rt = ev->util.util_rt != EV_NO_VALUE ? ev->util.util_rt : 0;
		u->util_dl = ev->util.util_dl != EV_NO_VALUE ? ev->util.util_dl : 0;
		break;
	default:
		return -1;
	}
	u->util_cfs = u->util_avg > u->util_est_enqueued ? u->util_avg : u->util_est_enqueued;
	return cpu;
}

bool sim_is_compared_event(enum event_type t)
{
	return t == EV_PELT_CFS || t == EV_LOAD_CFS_RQ || t == EV_LOAD_AVG_CPU ||
	       t == EV_UTIL_EST_CFS || t == EV_PELT_SE || t == EV_LOAD_SE || t == EV_LOAD_AVG_TASK ||
	       t == EV_UTIL_EST_SE || t == EV_PELT_RT;
}

/* One sample of signal sig; ev, the trace event it came from (NULL: none), names the first
 * divergences. */
static void val_add(struct sim_validation *v, enum sim_val_signal sig, u64 traced, u64 emulated,
		    const struct event *ev)
{
	u64 d = traced > emulated ? traced - emulated : emulated - traced;
	v->n[sig]++;
	v->sum_abs[sig] += (double)d;
	if (d > v->max_abs[sig])
		v->max_abs[sig] = d;
	if (d == 0)
		v->exact[sig]++;
	if (d <= SIM_GOV_UTIL_NEAR)
		v->near[sig]++;
	if (d && ev && v->nr_div[sig] < SIM_VAL_DIV_MAX)
		v->div[sig][v->nr_div[sig]++] = (struct sim_val_div){
			.line = ev->line,
			.t_ns = ev->ts_ns,
			.cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu,
			.pid = ev->util.pid,
			.traced = traced,
			.emulated = emulated,
		};
}

/*
 * The util_est flag UTIL_AVG_UNCHANGED, where the profile's kernel keeps it: bit 0 up to
 * 5.10.88 (kernel/sched/pelt.h), also in the cfs_rq's sum, which adds flagged task values;
 * the MSB 0x80000000 from 5.10.89 (include/linux/sched.h), in a task's value only, the cfs_rq
 * summing flag-free ones (util_est_enqueue(), kernel/sched/fair.c). A mask of what to keep.
 */
static u64 util_est_task_mask(const struct sim *s)
{
	return s->kp && s->kp->util_est_flag == UTIL_EST_FLAG_MSB ? ~(u64)0x80000000u
								   : ~(u64)UTIL_AVG_UNCHANGED;
}

static u64 util_est_cfs_mask(const struct sim *s)
{
	return s->kp && s->kp->util_est_flag == UTIL_EST_FLAG_MSB ? ~(u64)0
								   : ~(u64)UTIL_AVG_UNCHANGED;
}

/*
 * govsim validate: the trace's own util signals against the emulated ones at that instant. A
 * kernel reads its util_avg inside an update (an enqueue first decays a sleeping task and its
 * cfs_rq to the rq clock), often before the trace shows the event that caused it, so the
 * emulated util_avg, util_rt, runnable and load are taken as an update at the sample's time
 * would leave them (sched_cpu_util_avg_at(), sched_task_util_avg_at(), ...): the update's own
 * clock where the sample carries it (the lab's update_time plus the CPU's rq_clock_offset_ns:
 * under TCG the print comes tens to hundreds of microseconds after it, and a PELT period can
 * end between), else its stamp; never before the replay's last update of that CPU. util_est
 * changes only at an enqueue or a dequeue, inside which the kernel traces it, before the
 * sched_wakeup/sched_switch/... the replay applies it at: its samples wait on their trace CPU
 * for that event (sim_validate_sched_done).
 */
static void validate_sample(struct sim *s, const struct event *ev, bool pending)
{
	struct sched_cpu_util u;
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	const struct task *p;
	u64 at = ev->util.update_time != EV_NO_VALUE
			 ? sim_traced_clock(s, cpu, ev->util.update_time, s->now)
			 : s->now;

	if ((ev->type == EV_UTIL_EST_CFS || ev->type == EV_UTIL_EST_SE) && !pending &&
	    ev->cpu >= 0 && ev->cpu < s->plat->nr_cpus &&
	    s->nr_val_pend[ev->cpu] < SIM_VAL_PEND_MAX) {
		s->val_pend[ev->cpu][s->nr_val_pend[ev->cpu]++] = *ev;
		return;
	}
	switch (ev->type) {
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
	case EV_UTIL_EST_CFS:
	case EV_PELT_RT:
		if (cpu < 0 || cpu >= s->plat->nr_cpus)
			return;
		if ((ev->type == EV_PELT_CFS || ev->type == EV_LOAD_CFS_RQ ||
		     ev->type == EV_UTIL_EST_CFS) &&
		    ev->util.path != EV_PATH_ROOT)
			return;
		sched_cpu_util(s->sched, cpu, &u);
		if (ev->type == EV_UTIL_EST_CFS)
			val_add(&s->val, SIM_VAL_CPU_UTIL_EST,
				ev->util.util_est_enqueued & util_est_cfs_mask(s),
				u.util_est_enqueued & util_est_cfs_mask(s), ev);
		else if (ev->type == EV_PELT_RT)
			val_add(&s->val, SIM_VAL_CPU_UTIL_RT, ev->util.util,
				sched_cpu_util_rt_at(s->sched, cpu, at), ev);
		else if (ev->util.util != EV_NO_VALUE)
			val_add(&s->val, SIM_VAL_CPU_UTIL, ev->util.util,
				sched_cpu_util_avg_at(s->sched, cpu, at), ev);
		/* before v5.7 the field is runnable_load_avg, on the load's scale */
		if (ev->type == EV_PELT_CFS && ev->util.runnable != EV_NO_VALUE && s->kp &&
		    s->kp->pelt_runnable_avg)
			val_add(&s->val, SIM_VAL_CPU_RUNNABLE, ev->util.runnable,
				sched_cpu_runnable_avg_at(s->sched, cpu, at), ev);
		if (ev->type == EV_PELT_CFS && ev->util.load != EV_NO_VALUE)
			val_add(&s->val, SIM_VAL_CPU_LOAD, ev->util.load,
				sched_cpu_load_avg_at(s->sched, cpu, at), ev);
		return;
	default:
		if (ev->util.pid <= 0 || ev->util.path == EV_PATH_GROUP)
			return;
		p = sched_task_find(s->sched, ev->util.pid);
		if (!p || p->is_governor)
			return;
		if (ev->type == EV_UTIL_EST_SE) {
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST,
				ev->util.util_est_enqueued & util_est_task_mask(s),
				p->avg.util_est.enqueued & util_est_task_mask(s), ev);
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST_EWMA, ev->util.util_est_ewma,
				p->avg.util_est.ewma, ev);
		} else if (ev->util.util != EV_NO_VALUE) {
			const struct sim_task *td = sim_task_data((struct task *)p);
			bool born = td && td->born_in_trace;
			val_add(&s->val, born ? SIM_VAL_TASK_UTIL : SIM_VAL_TASK_UTIL_PRE, ev->util.util,
				sched_task_util_avg_at(s->sched, p, at), ev);
		}
		return;
	}
}

/* The replay has applied a scheduling event traced on CPU `cpu`: compare the util_est samples
 * waiting on that CPU; cpu -1: every CPU's (the end of the trace). */
static void val_sched_done(struct sim *s, int cpu)
{
	int from = cpu < 0 ? 0 : cpu, to = cpu < 0 ? s->plat->nr_cpus - 1 : cpu;

	if (cpu >= s->plat->nr_cpus)
		return;
	for (int c = from; c <= to; c++) {
		for (u32 i = 0; i < s->nr_val_pend[c]; i++)
			validate_sample(s, &s->val_pend[c][i], true);
		s->nr_val_pend[c] = 0;
	}
}

/*
 * The util schedutil passed to get_next_freq() at one of the kernel's own evaluations, out of
 * the raw frequency it computed from it, raw = ref * util / capacity
 * (kernel/sched/cpufreq_schedutil.c, each profile's headroom):
 *   up to v6.6: ref = f + f/4 (map_util_freq, or map_util_perf on util: the same product),
 *     f = cpuinfo.max_freq where frequency invariant, else policy->cur;
 *   v6.8+: util is sugov_effective_cpu_perf()'s, the headroom already in it, and ref =
 *     cpuinfo.max_freq, or cur + cur/4 where not invariant (get_capacity_ref_freq()).
 * This is the util the emulation reports for its evaluations (govsim_eval.util), so the two
 * compare as read. Rounded to the nearest unit: the kernel's divisions truncate, so it is
 * within 1 of the kernel's value. `cur` is the policy's frequency in force, the trace's
 * latest cpu_frequency of the CPU.
 */
static long kernel_util_from_raw(const struct sim *s, int cpu, u32 raw_khz)
{
	const struct sim_cluster *cl = &s->cl[s->cpu[cpu].cluster];
	unsigned long cap = s->plat->cpus[cpu].capacity ? s->plat->cpus[cpu].capacity : 1024;
	bool perf = s->kp->sugov_headroom == GOVSIM_HEADROOM_EFFECTIVE_PERF;
	u64 f = cl->pol.freq_invariant ? cl->pol.cpuinfo_max_khz : s->cpu[cpu].traced_khz;
	u64 ref;

	if (!f)
		return -1;
	ref = perf && cl->pol.freq_invariant ? f : f + (f >> 2);
	return (long)(((u64)raw_khz * cap + ref / 2) / ref);
}

/* Room for one more element in the heap array buf holding nr of capacity *cap (doubling from
 * 64 elements of `size` bytes): buf, or where it moved; NULL when out of memory (buf and *cap
 * unchanged: the caller's list only loses the entry). */
static void *val_reserve(void *buf, size_t nr, size_t *cap, size_t size)
{
	size_t n;
	void *p;

	if (nr < *cap)
		return buf;
	n = *cap ? 2 * *cap : 64;
	p = realloc(buf, n * size);
	if (p)
		*cap = n;
	return p;
}

/* A run of departing evaluations has ended: kept where it is long enough to be a departure. */
static void gov_depart_close(struct sim *s, struct sim_val_watch *w, struct sim_gov_departure *run)
{
	if (run->evals >= SIM_GOV_DEPART_MIN) {
		void *p = val_reserve(s->val.depart, s->val.nr_depart, &w->cap_depart,
				      sizeof(*s->val.depart));

		if (p) {
			s->val.depart = p;
			s->val.depart[s->val.nr_depart++] = *run;
		}
	}
	run->evals = 0;
}

/* A kernel evaluation paired with the emulation's, in the slot of its policy's first CPU. */
static void gov_pair_add(struct sim *s, struct sim_val_watch *w, int slot,
			 const struct sim_gov_ev *kernel, const struct sim_gov_ev *emulated)
{
	unsigned long k = kernel->util, e = emulated->util;
	unsigned long d = k > e ? k - e : e - k;
	struct sim_gov_departure *run = &w->gov_pair[slot].run;

	val_add(&s->val, SIM_VAL_GOV_UTIL, k, e, NULL);
	if (d <= SIM_GOV_UTIL_NEAR) {
		s->val.gov_within++;
		gov_depart_close(s, w, run);
	} else {
		if (!run->evals)
			*run = (struct sim_gov_departure){.line = kernel->line, .t_ns = kernel->t,
							  .cpu = slot, .kernel = k, .emulated = e};
		run->evals++;
		run->last_ns = kernel->t;
		if (d > run->max_abs)
			run->max_abs = d;
	}
	if (kernel->busy >= 0 && emulated->busy >= 0) {
		s->val.gov_busy_compared++;
		s->val.gov_busy_agree += kernel->busy == emulated->busy;
	}
}

/*
 * govsim validate with the lab's probes: the util the kernel's schedutil read at each of its
 * evaluations against the util the emulation's read at its own evaluation of that CPU, paired
 * one to one and in order when within SIM_GOV_PAIR_NS of each other (the probe fires inside
 * the update; the trace's scheduling event follows it, so the emulation's evaluation may come
 * a little earlier or later). Several evaluations at one instant -- an exiting task's move to
 * its group kicks schedutil at the dequeue, the detach and the attach -- pair first with
 * first. A shared policy's raw frequency is its CPUs' largest util's, whichever CPU ran the
 * update: it pairs with the policy's evaluation (val_gov_eval), in the slot of its first CPU.
 * The kernel evaluations left without a pair are the update points the replay does not have.
 */
static bool gov_wait_near(u64 now, u64 t)
{
	return (now > t ? now - t : t - now) <= SIM_GOV_PAIR_NS;
}

/* Drops the evaluations that waited longer than SIM_GOV_PAIR_NS; returns how many. */
static unsigned gov_wait_expire(struct sim_gov_wait *q, u64 now)
{
	unsigned n = 0;

	while (n < q->n && !gov_wait_near(now, q->ev[n].t))
		n++;
	q->n -= n;
	memmove(q->ev, q->ev + n, q->n * sizeof(q->ev[0]));
	return n;
}

static struct sim_gov_ev gov_wait_pop(struct sim_gov_wait *q)
{
	struct sim_gov_ev ev = q->ev[0];

	q->n--;
	memmove(q->ev, q->ev + 1, q->n * sizeof(q->ev[0]));
	return ev;
}

/* Queues an evaluation; returns 1 when the queue was full and its oldest was dropped. */
static unsigned gov_wait_push(struct sim_gov_wait *q, const struct sim_gov_ev *ev)
{
	unsigned dropped = 0;

	if (q->n == SIM_GOV_WAIT_MAX) {
		gov_wait_pop(q);
		dropped = 1;
	}
	q->ev[q->n++] = *ev;
	return dropped;
}

/* The first CPU of cpu's policy: the slot of the policy's pairing and probe state. */
static int val_policy_slot(const struct sim *s, int cpu)
{
	return s->cl[s->cpu[cpu].cluster].pol.tbl.cpus[0];
}

/* The kernel's evaluation of cpu's policy at t, its util k and busy-hold state: paired, or left
 * to wait. */
static void val_gov_kernel(struct sim *s, struct sim_val_watch *w, int cpu, unsigned long k, u64 t,
			   u64 line, int busy)
{
	int slot = val_policy_slot(s, cpu);
	struct sim_gov_pair *gp = &w->gov_pair[slot];
	struct sim_gov_ev kev = {.t = t, .util = k, .busy = (signed char)busy, .line = line};

	s->val.gov_evals++;
	gov_wait_expire(&gp->e, t);
	if (gp->e.n) {
		struct sim_gov_ev eev = gov_wait_pop(&gp->e);

		gov_pair_add(s, w, slot, &kev, &eev);
		return;
	}
	s->val.gov_unmatched += gov_wait_push(&gp->k, &kev);
}

/* The probe state of cpu's policy (cached_raw_freq is the policy's). */
static struct sim_gov_probe *val_policy_probe(struct sim *s, struct sim_val_watch *w, int cpu)
{
	return &w->probe[val_policy_slot(s, cpu)];
}

/*
 * The kernel's evaluations as the lab's probes show them (kernel/sched/cpufreq_schedutil.c,
 * Debian 5.10 to 7.2: sugov_update_single_freq(), sugov_update_single() in 5.10, and
 * get_next_freq()):
 * - resolve_freq shows the raw frequency of an evaluation where it differed from
 *   cached_raw_freq, which then takes it;
 * - idle_calls shows every evaluation of a single-CPU policy past its rate limit (the busy
 *   hold's read of the idle-entry count, after get_next_freq(); none where a uclamp-capped rq
 *   skips the hold, v6.1+). Where the hold keeps the frequency (the count unchanged since the
 *   CPU's last evaluation, and the resolved frequency below next_freq), cached_raw_freq goes
 *   back to what it was before the evaluation;
 * - an evaluation without resolve_freq had the cached raw frequency: its util is that
 *   frequency's at the frequency in force.
 * Up to a CPU's first idle_calls (and on a shared policy, which has none) each resolve_freq is
 * an evaluation; from then on each idle_calls is. A resolve_freq still waiting at the next call
 * of the hook had no idle_calls, and is an evaluation of its own. Only the profiles whose hold
 * comes after get_next_freq and restores the cached frequency (GOVSIM_HOLD_RESTORE on) are
 * read this way; before, each resolve_freq is an evaluation.
 */
static bool val_ic_marks(const struct sim *s)
{
	return s->kp && s->kp->sugov_busy_hold >= GOVSIM_HOLD_RESTORE;
}

static void val_gov_flush_raw(struct sim *s, struct sim_val_watch *w, int cpu)
{
	struct sim_gov_probe *p = &w->probe[cpu];

	if (p->raw_pending) {
		p->raw_pending = false;
		s->probe_open &= ~(1ull << cpu);
		val_gov_kernel(s, w, cpu, p->raw_util, p->raw_t, p->raw_line, -1);
	}
}

static void val_gov_raw(struct sim *s, struct sim_val_watch *w, const struct event *ev)
{
	int cpu = ev->cpu;
	struct sim_gov_probe *p, *pol;
	long k;

	if (cpu < 0 || cpu >= s->plat->nr_cpus)
		return;
	p = &w->probe[cpu];
	pol = val_policy_probe(s, w, cpu);
	val_gov_flush_raw(s, w, cpu);
	pol->prev_cached_valid = pol->cached_valid;
	pol->prev_cached_khz = pol->cached_khz;
	pol->cached_valid = true;
	pol->cached_khz = ev->raw.khz;
	k = kernel_util_from_raw(s, cpu, ev->raw.khz);
	if (k < 0)
		return;
	if (!p->ic_seen || !val_ic_marks(s)) {
		val_gov_kernel(s, w, cpu, (unsigned long)k, ev->ts_ns, ev->line, -1);
		return;
	}
	p->raw_pending = true;
	s->probe_open |= 1ull << cpu;
	p->raw_util = (unsigned long)k;
	p->raw_khz = ev->raw.khz;
	p->raw_t = ev->ts_ns;
	p->raw_line = ev->line;
}

static void val_gov_idle_calls(struct sim *s, struct sim_val_watch *w, const struct event *ev)
{
	int cpu = ev->cpu;
	struct sim_gov_probe *p, *pol;
	const struct cpufreq_policy *cp;
	bool first, busy, raw;
	long k;

	if (cpu < 0 || cpu >= s->plat->nr_cpus || !val_ic_marks(s))
		return;
	p = &w->probe[cpu];
	pol = val_policy_probe(s, w, cpu);
	cp = &s->cl[s->cpu[cpu].cluster].pol;
	first = !p->ic_seen;
	busy = !first && ev->idle_calls.calls == p->saved_calls;
	raw = p->raw_pending;
	p->ic_seen = true;
	p->saved_calls = ev->idle_calls.calls;
	p->raw_pending = false;
	s->probe_open &= ~(1ull << cpu);
	if (raw && busy && cpufreq_driver_resolve_freq(cp, p->raw_khz) < s->cpu[cpu].traced_khz) {
		pol->cached_valid = pol->prev_cached_valid;
		pol->cached_khz = pol->prev_cached_khz;
	}
	if (first)
		return;
	if (raw) {
		val_gov_kernel(s, w, cpu, p->raw_util, p->raw_t, p->raw_line, busy);
		return;
	}
	if (!pol->cached_valid || (k = kernel_util_from_raw(s, cpu, pol->cached_khz)) < 0)
		return;
	val_gov_kernel(s, w, cpu, (unsigned long)k, ev->ts_ns, ev->line, busy);
}

/*
 * Any event of a CPU but its idle_calls probe ends the evaluation under way there: the probe
 * follows resolve_freq inside one evaluation (sugov_update_single_freq()), or does not come at
 * all where uclamp.max caps the rq (uclamp_rq_is_capped(): Debian 6.1
 * sugov_update_single_freq(), 6.12 and 7.2 sugov_hold_freq() return before
 * tick_nohz_get_idle_calls_cpu()). sim_feed_event() shows such a CPU's next event
 * (s->probe_open).
 */
static void val_gov_end(struct sim *s, struct sim_val_watch *w, const struct event *ev)
{
	if (ev->cpu >= 0 && ev->cpu < s->plat->nr_cpus)
		val_gov_flush_raw(s, w, ev->cpu);
}

/* The emulation's evaluation of cpu (a shared policy's: in the slot of its first CPU, busy -1). */
static void val_emu_eval(struct sim *s, struct sim_val_watch *w, int cpu, unsigned long util,
			 int busy)
{
	struct sim_gov_ev eev = {.t = s->now, .util = util, .busy = (signed char)busy};
	struct sim_gov_pair *gp;

	if (cpu < 0 || cpu >= s->plat->nr_cpus)
		return;
	gp = &w->gov_pair[cpu];
	s->val.gov_unmatched += gov_wait_expire(&gp->k, s->now);
	if (gp->k.n) {
		struct sim_gov_ev kev = gov_wait_pop(&gp->k);

		gov_pair_add(s, w, cpu, &kev, &eev);
		return;
	}
	/* an emulated evaluation the kernel did not make is superseded by a later one: the queue
	 * keeps one instant's */
	if (gp->e.n && gp->e.ev[gp->e.n - 1].t != s->now)
		gp->e.n = 0;
	gov_wait_push(&gp->e, &eev);
}

/* Whether the emulation's evaluation e skipped the busy hold: from v6.1 sugov_hold_freq()
 * (sugov_update_single_freq() in 6.1) returns before it reads the idle-entry count where
 * uclamp.max caps the rq (uclamp_rq_is_capped(), sched/cpu_util.c: the test
 * src/gov/schedutil.c makes), so the CPU's saved count stays. */
static bool val_emu_capped(const struct sim *s, const struct gov_eval *e)
{
	return (s->kp->sugov_busy_hold == GOVSIM_HOLD_NOT_CAPPED ||
		s->kp->sugov_busy_hold == GOVSIM_HOLD_NOT_CAPPED_GATED) &&
	       uclamp_rq_is_capped(e->in.util_cfs, e->in.util_rt,
				   e->in.capacity ? e->in.capacity : SCHED_CAPACITY_SCALE,
				   e->uclamp_max);
}

/* The busy hold's view of the emulation's evaluation e of a single-CPU policy: whether the
 * replay's idle-entry count of the CPU (tick_nohz_get_idle_calls_cpu(), src/sched/idle.c) is
 * the one its last evaluation that read it read; -1 at its first, and where e did not read it
 * (val_emu_capped(): the kernel's shows no idle_calls then either). */
static int val_emu_busy(struct sim *s, struct sim_val_watch *w, const struct gov_eval *e)
{
	struct sched_cpu_util u;
	int busy, cpu = e->cpu;

	if (val_emu_capped(s, e))
		return -1;
	sched_cpu_util(s->sched, cpu, &u);
	busy = w->emu_calls_seen[cpu] ? u.idle_calls == w->emu_calls[cpu] : -1;
	w->emu_calls_seen[cpu] = true;
	w->emu_calls[cpu] = u.idle_calls;
	return busy;
}

/* At the end: kernel evaluations still waiting count as unmatched. */
static void val_gov_finish(struct sim *s, struct sim_val_watch *w)
{
	for (int c = 0; c < s->plat->nr_cpus; c++)
		val_gov_flush_raw(s, w, c);
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		s->val.gov_unmatched += w->gov_pair[c].k.n;
		w->gov_pair[c].k.n = 0;
		gov_depart_close(s, w, &w->gov_pair[c].run);
	}
}

const struct sim_validation *sim_get_validation(const struct sim *s)
{
	return &s->val;
}

/* An emulated frequency change. */
static void val_note_emulated(struct sim_val_watch *w, int c, u64 t, u32 khz)
{
	void *p = val_reserve(w->emu_chg[c], w->nr_emu_chg[c], &w->cap_emu_chg[c],
			      sizeof(*w->emu_chg[c]));

	if (!p)
		return; /* out of memory: the decision figures only lose precision */
	w->emu_chg[c] = p;
	w->emu_chg[c][w->nr_emu_chg[c]++] = (struct sim_emu_change){.t_ns = t, .khz = khz};
}

/* A cpu_frequency of a policy's first CPU that changes its traced frequency: a decision. */
static void val_note_decision(struct sim *s, struct sim_val_watch *w, int cpu, u64 t, u32 khz)
{
	int c = s->cpu[cpu].cluster;
	const struct plat_cluster *pc = s->cl[c].pc;
	struct sim_decision *d;
	u32 prev = s->cpu[cpu].traced_khz;
	void *p;

	if (pc->cpus[0] != cpu)
		return;
	s->val.kernel_freq_events[c]++;
	if (prev == khz || !prev)
		return;
	p = val_reserve(s->val.dec, s->val.nr_dec, &s->cap_dec, sizeof(*s->val.dec));
	if (!p)
		return;
	s->val.dec = p;
	d = &s->val.dec[s->val.nr_dec++];
	*d = w->last_eval[c];
	d->t_ns = t;
	d->cluster = c;
	d->kernel_khz = khz;
	d->kernel_prev_khz = prev;
	d->emu_khz = s->cl[c].pol.cur_khz;
	d->eval_after = false;
}

/* The emulated frequency in force at t: the last change at or before t, else the initial. */
static u32 val_emu_before(const struct sim *s, const struct sim_val_watch *w, int c, u64 t)
{
	size_t lo = 0, hi = w->nr_emu_chg[c];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->emu_chg[c][mid].t_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? w->emu_chg[c][lo - 1].khz : s->emu_init_khz[c];
}

/*
 * At the end: pair each policy's kernel decisions with its emulated changes, one to one. In
 * trace order, a kernel decision to OPP f at t takes the unpaired emulated change to f nearest
 * to t within [t - w, t + w] (w: the window, one rate-limit period by default). Unpaired on
 * either side is a miss: a kernel decision the emulation did not make (recall), or an emulated
 * change the kernel did not make (precision). Both lists are in time order, so each pairing
 * scans only the window.
 */
static void val_finish_decisions(struct sim *s, struct sim_val_watch *w)
{
	size_t lo[GS_MAX_CLUSTERS] = {0};

	for (size_t i = 0; i < s->val.nr_dec; i++) {
		struct sim_decision *d = &s->val.dec[i];
		int c = d->cluster;
		u64 win = s->val.window_ns[c];
		u64 from = d->t_ns > win ? d->t_ns - win : 0;
		size_t best = SIZE_MAX;

		while (lo[c] < w->nr_emu_chg[c] && w->emu_chg[c][lo[c]].t_ns < from)
			lo[c]++;
		for (size_t k = lo[c];
		     k < w->nr_emu_chg[c] && w->emu_chg[c][k].t_ns <= d->t_ns + win; k++) {
			if (w->emu_chg[c][k].matched || w->emu_chg[c][k].khz != d->kernel_khz)
				continue;
			if (best == SIZE_MAX ||
			    llabs((s64)(w->emu_chg[c][k].t_ns - d->t_ns)) <
				    llabs((s64)(w->emu_chg[c][best].t_ns - d->t_ns)))
				best = k;
		}
		d->agree = best != SIZE_MAX;
		d->timing_err_ns = d->agree ? (s64)(w->emu_chg[c][best].t_ns - d->t_ns) : 0;
		if (!d->agree) {
			u32 before = val_emu_before(s, w, c, from);

			if (before == d->kernel_khz)
				d->miss = SIM_MISS_EARLY;
			else if (before != d->kernel_prev_khz)
				d->miss = SIM_MISS_PATH;
			else if (!d->has_eval || d->eval_t_ns + win < d->t_ns)
				d->miss = d->eval_after ? SIM_MISS_LATE : SIM_MISS_NO_UPDATE;
			else
				d->miss = SIM_MISS_UTIL;
			s->val.misses[c][d->miss]++;
		}
		s->val.decisions[c]++;
		if (d->agree) {
			w->emu_chg[c][best].matched = true;
			s->val.decisions_agree[c]++;
			s->val.emu_matched[c]++;
			s->val.sum_abs_timing_ns[c] += (double)llabs(d->timing_err_ns);
		}
	}
	/* the list, with its pairing, becomes the validation's */
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		free(s->val.emu_chg[c]);
		s->val.emu_chg[c] = w->emu_chg[c];
		s->val.nr_emu_chg[c] = w->nr_emu_chg[c];
		w->emu_chg[c] = NULL;
		w->nr_emu_chg[c] = w->cap_emu_chg[c] = 0;
	}
}

void sim_take_validation(struct sim *s, struct sim_validation *out)
{
	*out = s->val;
	s->val.dec = NULL;
	s->val.nr_dec = 0;
	s->cap_dec = 0;
	for (int c = 0; c < GS_MAX_CLUSTERS; c++) {
		s->val.emu_chg[c] = NULL;
		s->val.nr_emu_chg[c] = 0;
	}
	s->val.pdis = NULL;
	s->val.nr_pdis = 0;
	s->val.depart = NULL;
	s->val.nr_depart = 0;
}

void sim_validation_release(struct sim_validation *v)
{
	if (!v)
		return;
	free(v->dec);
	v->dec = NULL;
	v->nr_dec = 0;
	for (int c = 0; c < GS_MAX_CLUSTERS; c++) {
		free(v->emu_chg[c]);
		v->emu_chg[c] = NULL;
		v->nr_emu_chg[c] = 0;
	}
	free(v->pdis);
	v->pdis = NULL;
	v->nr_pdis = 0;
	free(v->depart);
	v->depart = NULL;
	v->nr_depart = 0;
}

/* ---- the validation observer ------------------------------------------------------------- */

static void val_opp_change(struct sim *s, void *state, int cluster, u64 t, u32 khz)
{
	(void)s;
	val_note_emulated(state, cluster, t, khz);
}

static void val_sched_event(struct sim *s, void *state, const struct event *ev)
{
	struct sim_val_watch *w = state;

	w->born_pending = ev->type == EV_WAKEUP_NEW && !sched_task_find(s->sched, ev->wake.pid);
	w->born_pid = ev->wake.pid;
}

static void val_sched_done_hook(struct sim *s, void *state, const struct event *ev)
{
	struct sim_val_watch *w = state;

	if (w->born_pending) {
		struct task *p = sched_task_find(s->sched, w->born_pid);

		w->born_pending = false;
		if (p && sim_task_data(p))
			sim_task_data(p)->born_in_trace = true;
	}
	val_sched_done(s, ev->cpu);
}

/* An emulated evaluation of cluster c at t: the kernel's decisions of c in the window before it
 * had an evaluation after them (the cause of a miss, val_finish_decisions). */
static void val_mark_eval_after(struct sim *s, struct sim_val_watch *w, int c, u64 t)
{
	u64 wmax = 0;

	for (int k = 0; k < s->plat->nr_clusters; k++)
		if (s->val.window_ns[k] > wmax)
			wmax = s->val.window_ns[k];
	while (w->dec_scan < s->val.nr_dec && s->val.dec[w->dec_scan].t_ns + wmax < t)
		w->dec_scan++;
	for (size_t i = w->dec_scan; i < s->val.nr_dec; i++) {
		struct sim_decision *d = &s->val.dec[i];

		if (d->cluster == c && d->t_ns < t && t <= d->t_ns + s->val.window_ns[c])
			d->eval_after = true;
	}
}

/* The emulation's evaluation: paired with the kernel's, and kept as the cluster's last one
 * (the highest target of the evaluations at one instant) for the decision that follows. */
static void val_gov_eval(struct sim *s, void *state, const struct gov_eval *e)
{
	struct sim_val_watch *w = state;
	int c = s->cpu[e->cpu].cluster;
	struct sim_decision *le = &w->last_eval[c];
	const struct cpufreq_opp_table *tbl = &s->cl[c].pol.tbl;

	val_mark_eval_after(s, w, c, e->time_ns);
	if (tbl->nr_cpus == 1) {
		val_emu_eval(s, w, e->cpu, e->util, val_emu_busy(s, w, e));
	} else {
		struct sim_shared_eval *se = &w->shared_eval[c];

		if (!se->n || se->t != e->time_ns) {
			se->t = e->time_ns;
			se->util = 0;
			se->n = 0;
		}
		if (e->util > se->util)
			se->util = e->util;
		if (++se->n == tbl->nr_cpus) { /* every CPU of the policy evaluated */
			val_emu_eval(s, w, tbl->cpus[0], se->util, -1);
			se->n = 0;
		}
	}
	if (!le->has_eval || le->eval_t_ns != e->time_ns || e->target_khz >= le->target_khz) {
		le->has_eval = true;
		le->eval_t_ns = e->time_ns;
		le->eval_cpu = e->cpu;
		le->util = e->util;
		le->max = e->in.capacity;
		le->uclamp_min = e->uclamp_min;
		le->uclamp_max = e->uclamp_max;
		le->target_khz = e->target_khz;
	}
}

static void val_trace_event(struct sim *s, void *state, const struct event *ev)
{
	if (ev->type == EV_GOV_RAW_FREQ) {
		val_gov_raw(s, state, ev);
		return;
	}
	if (ev->type == EV_GOV_IDLE_CALLS) {
		val_gov_idle_calls(s, state, ev);
		return;
	}
	val_gov_end(s, state, ev);
	if (ev->type == EV_CPU_FREQUENCY)
		val_note_decision(s, state, (int)ev->power.cpu_id, ev->ts_ns, ev->power.state);
	else if (sim_is_compared_event(ev->type))
		validate_sample(s, ev, false);
}

/* The busy-time share and the energies of a cluster's last dt ns, scored like the time-weighted
 * share only where the kernel's own governor chose the traced frequency: busy time at the
 * emulated frequency against busy time, and the energy of the busy CPUs at the emulated OPP
 * and at the traced one (the energy model's power, mW times ns). */
static void val_account(struct sim *s, void *state, int c, u64 dt, bool any_busy)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;
	const struct sim_cpu *first = &s->cpu[pc->cpus[0]];
	u32 tk;
	int topp, nbusy = 0;

	(void)state;
	if (!first->traced_seen || !first->traced_kernel)
		return;
	tk = first->traced_khz;
	topp = plat_cluster_opp_index(pc, tk);
	for (int i = 0; i < pc->nr_cpus; i++)
		nbusy += s->cpu[pc->cpus[i]].busy;
	if (any_busy) {
		s->val.busy_known_ns[c] += dt;
		if (tk == cl->acct_khz)
			s->val.busy_match_ns[c] += dt;
	}
	if (nbusy && topp >= 0) {
		s->val.energy_emul_mwns[c] +=
			(double)nbusy * (double)dt * pc->opps[cl->cur_opp].em_power_mw;
		s->val.energy_traced_mwns[c] +=
			(double)nbusy * (double)dt * pc->opps[topp].em_power_mw;
	}
}

/* The end of the trace: the samples still waiting, the evaluations without a pair, and the
 * decisions matched with the emulated changes. */
static int val_finish(struct sim *s, void *state, u64 end, struct run_result *r,
		      struct gs_error *err)
{
	(void)end;
	(void)r;
	(void)err;
	val_sched_done(s, -1);
	val_gov_finish(s, state);
	val_finish_decisions(s, state);
	return 0;
}

static void val_release(void *state)
{
	struct sim_val_watch *w = state;

	if (!w)
		return;
	for (int c = 0; c < GS_MAX_CLUSTERS; c++)
		free(w->emu_chg[c]);
	free(w);
}

int sim_validate_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_VALIDATE,
		.opp_change = val_opp_change,
		.sched_event = val_sched_event,
		.sched_done = val_sched_done_hook,
		.gov_eval = val_gov_eval,
		.trace_event = val_trace_event,
		.account = val_account,
		.finish = val_finish,
		.release = val_release,
	};
	int ret;

	o.state = calloc(1, sizeof(struct sim_val_watch));
	if (!o.state)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = sim_observers_add(&s->obs, &o, err);
	if (ret)
		val_release(o.state);
	return ret;
}
