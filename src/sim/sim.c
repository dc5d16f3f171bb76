/*
 * sim.c - the replay loop: time, ordering, and the wiring between the stages.
 *
 * Time. Every stage is called with an explicit time and never reads a clock. Besides the trace's
 * own events, the loop generates the kernel's periodic work at trace times (docs/conventions.md):
 *  - the scheduler tick on busy CPUs, at multiples of TICK_NSEC = 1e9 / HZ (NO_HZ idle);
 *  - the load balancer's update_blocked_averages() at ticks and idle entries (balance.c); under
 *    work timing, of every CPU every LOAD_AVG_PERIOD ms (32 ms) while some CPU is busy;
 *  - frequency requests of a slow-path driver coming into force (cpufreq core, switch latency);
 *  - clamp policy actions at their `at` time.
 * Ties at one instant are ordered: pending frequency changes, policy actions, ticks, blocked
 * updates, then the trace event; equal trace times keep file order (the reader guarantees it).
 *
 * Accounting (account.c, power/energy.c). Power is piecewise constant between state changes, so
 * energy is integrated exactly: the loop accumulates integer nanoseconds per (CPU, OPP) busy, per
 * (CPU, idle state) idle, per (cluster, OPP) busy and per (cluster, idle state) idle, and
 * multiplies by the power of each state once at the end. Idle states come from cpu_idle events when
 * the trace has them and the timing is traced; otherwise they are chosen with hindsight when the
 * idle interval ends: the deepest state whose target residency fits (power_pick_idle_state()).
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/parse.h"
#include "cpufreq/cpufreq.h"
#include "sim/cpufreq_table.h"
#include "sched/sched.h"
#include "work/work.h"
#include "trace/reader.h"
#include "uclamp/uclamp.h"
#include "version.h"

/* ---- hooks from the scheduler model --------------------------------------------------------- */

void sim_hook_uclamp_inc(void *ctx, int cpu, struct task *p)
{
	struct sim *s = ctx;
	uclamp_rq_inc(&s->uc, sched_cpu_uclamp(s->sched, cpu), &p->uclamp);
	sim_ovh_rq_task(s, cpu, p, true);
	sim_observers_rq_task(&s->obs, s, cpu, p, true);
}

void sim_hook_uclamp_dec(void *ctx, int cpu, struct task *p)
{
	struct sim *s = ctx;
	sim_ovh_rq_task(s, cpu, p, false); /* with the class_enabled of the enqueue */
	sim_observers_rq_task(&s->obs, s, cpu, p, false);
	uclamp_rq_dec(&s->uc, sched_cpu_uclamp(s->sched, cpu), &p->uclamp);
}

void sim_hook_cpufreq_update(void *ctx, int cpu, u64 now, unsigned int flags)
{
	struct sim *s = ctx;
	if (s->cfg.update_points != SIM_UPDATE_KERNEL)
		return;
	sim_governor_update(s, cpu, now, flags);
}

static void hook_task_new(void *ctx, struct task *p, u64 now)
{
	struct sim *s = ctx;
	struct sim_task *st = calloc(1, sizeof(*st));

	p->owner_data = st; /* NULL on allocation failure: stats for this task are skipped */
	if (st && p->ran_since_start) {
		/* running when the trace starts: it runs from the trace's start (or the warm-up's
		 * end), not from its CPU's first event, which switches it out */
		st->in_at_ns = s->measured_from;
		st->on_cpu = true;
	}
	uclamp_task_init(&s->uc, &p->uclamp, p->class == SCHED_CLASS_RT);
	if (s->cfg.opts.policy) {
		policy_apply_new_task(&s->uc, s->cfg.opts.policy, now - s->t0, now, &p->uclamp, p->pid,
				      p->comm, s->astats);
		sim_ovh_follow(s);
	}
}

/* A task crossed the RT boundary (prio seen in the trace): __setscheduler_uclamp. */
static void hook_task_class_change(void *ctx, struct task *p, enum sched_class_id old_class,
				   u64 now)
{
	struct sim *s = ctx;
	(void)old_class;
	(void)now;
	uclamp_task_set_rt(&s->uc, &p->uclamp, p->class == SCHED_CLASS_RT);
}

/* A CPU about to idle: the load balancer model's newidle update (balance.c). */
static void hook_newidle(void *ctx, int cpu, bool prev_died, u64 now, u64 rq_clock)
{
	sim_balance_newidle(ctx, cpu, prev_died, now, rq_clock);
}

/* A task died: its state is freed when an observer (exited.c) kept what the results need. */
static bool hook_task_exit(void *ctx, struct task *p, u64 now)
{
	struct sim *s = ctx;

	sim_task_dead_noted(s, p->cpu, now); /* task_dead_fair() may wait: kernel_points.c */
	if (!sim_task_data(p) || !sim_observers_task_exit(&s->obs, s, p, now))
		return false;
	free(p->owner_data);
	p->owner_data = NULL;
	return true;
}

static void hook_task_event(void *ctx, const struct task *p, int cpu, enum sched_task_event ev,
			    u64 now)
{
	struct sim *s = ctx;
	struct sim_task *st = p->owner_data;

	if (st) {
		if (ev == TASK_EV_SWITCH_IN) {
			st->in_at_ns = now;
			st->on_cpu = true;
		} else if ((ev == TASK_EV_PREEMPT || ev == TASK_EV_SLEEP) && st->on_cpu) {
			st->runtime_ns += now - st->in_at_ns;
			st->runtime_cl_ns[s->cpu[cpu].cluster] += now - st->in_at_ns;
			sim_observers_task_ran(&s->obs, s, p, cpu, st->in_at_ns, now);
			st->on_cpu = false;
		}
	}
	sim_observers_task_event(&s->obs, s, p, cpu, ev, now);
}

/* ---- what the governor reads ---------------------------------------------------------------- */

static void env_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	struct sim *s = ctx;
	sched_cpu_util(s->sched, cpu, out);
}

/* --util-source trace: the trace's signals of the CPU, over the model's (its bw_dl and
 * capacities stay). */
static void env_cpu_util_trace(void *ctx, int cpu, struct sched_cpu_util *out)
{
	struct sim *s = ctx;
	const struct sched_cpu_util *t = &s->cpu[cpu].trace_util;

	sched_cpu_util(s->sched, cpu, out);
	out->util_avg = t->util_avg;
	out->util_est_enqueued = t->util_est_enqueued;
	out->util_cfs = t->util_cfs;
	out->util_rt = t->util_rt;
	out->util_dl = t->util_dl;
}

/* env_cpu_util()'s bw_dl alone (--util-source trace keeps the model's). */
static unsigned long env_cpu_bw_dl(void *ctx, int cpu)
{
	struct sim *s = ctx;
	return sched_cpu_bw_dl(s->sched, cpu);
}

static const struct uclamp_rq_pair *env_cpu_uclamp(void *ctx, int cpu)
{
	struct sim *s = ctx;
	return sched_cpu_uclamp(s->sched, cpu);
}

static u64 env_cpu_idle_ns(void *ctx, int cpu, u64 now)
{
	struct sim *s = ctx;
	const struct sim_cpu *sc = &s->cpu[cpu];
	u64 idle;

	sim_cluster_flush(s, sc->cluster);
	idle = sc->idle_total_ns;
	if (!sc->busy && now > s->last_acct)
		idle += now - s->last_acct;
	return idle;
}

static void env_on_eval(void *ctx, const struct govsim_eval *e, u32 freq_khz)
{
	struct sim *s = ctx;
	struct sim_cpu *sc = &s->cpu[e->cpu];
	struct sim_cluster *cl = &s->cl[sc->cluster];
	unsigned long raw = e->in.util_cfs + e->in.util_rt;
	unsigned long cap;
	int clamp_dir = 0;
	bool overutil;

	if (uclamp_is_used(&s->uc)) {
		unsigned long clamped =
			uclamp_rq_util_with(&s->uc, sched_cpu_uclamp(s->sched, e->cpu), raw, NULL);
		clamp_dir = clamped > raw ? 1 : clamped < raw ? -1 : 0;
	}
	cap = cl->pc->opps[cl->cur_opp].capacity;
	overutil = raw > cap;
	if (clamp_dir != sc->clamp_dir || overutil != sc->overutil) {
		sim_cluster_flush(s, sc->cluster);
		sc->clamp_dir = clamp_dir;
		sc->overutil = overutil;
	}
	sim_timeline_note(s, cl, e->time_ns, e->util);
	sim_ovh_gov_eval(s, e->cpu);
	if (s->obs.nr_gov_eval) {
		struct gov_eval ev;

		gov_eval_of(&ev, e, freq_khz);
		sim_observers_gov_eval(&s->obs, s, &ev);
	}
}

/* ---- the loop ------------------------------------------------------------------------------- */

static bool any_busy(const struct sim *s)
{
	for (int c = 0; c < s->plat->nr_cpus; c++)
		if (s->cpu[c].busy)
			return true;
	return false;
}

static void warmup_reset_task(void *ctx, struct task *p)
{
	struct sim *s = ctx;
	struct sim_task *st = p->owner_data;
	if (!st)
		return;
	st->runtime_ns = 0;
	if (st->in_at_ns < s->now)
		st->in_at_ns = s->now; /* a running task's time counts from here */
}

/*
 * --warmup-ms: every signal starts cold (docs/conventions.md), so a user may measure from a later
 * point. At s->now the counters are brought up to date and zeroed: residency, energy, busy
 * time, transitions, clamping, task runtime and delay, uclamp aggregation counts; idle
 * intervals in progress count from here. The replay itself (PELT, clamps, frequencies) is
 * untouched.
 */
static void sim_warmup_end(struct sim *s)
{
	u64 t = s->now;

	sim_cluster_flush_all(s);
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		memset(cl->residency_ns, 0, sizeof(cl->residency_ns));
		memset(cl->busy_ns_opp, 0, sizeof(cl->busy_ns_opp));
		memset(cl->idle_ns_state, 0, sizeof(cl->idle_ns_state));
		cl->transitions = 0;
		if (cl->all_idle_since_ns < t)
			cl->all_idle_since_ns = t;
		s->overutil_ns[c] = 0;
	}
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		struct sim_cpu *sc = &s->cpu[c];
		memset(sc->busy_ns_opp, 0, sizeof(sc->busy_ns_opp));
		memset(sc->idle_ns_state, 0, sizeof(sc->idle_ns_state));
		sc->busy_ns = 0;
		if (sc->idle_since_ns < t)
			sc->idle_since_ns = t;
	}
	s->clamped_up_ns = s->clamped_down_ns = 0;
	s->agg_ops_base = s->uc.stats.agg_ops;
	s->agg_skipped_base = s->uc.stats.agg_skipped;
	sim_observers_warmup(&s->obs, s, t);
	sched_for_each_task(s->sched, warmup_reset_task, s);
	s->measured_from = t;
	s->warmup_at = NO_TIME;
}

/* Run the loop's own work (frequency changes, policy actions, ticks, blocked updates) with
 * times <= t (sim_advance() when some is due). */
int sim_advance_due(struct sim *s, u64 t, struct gs_error *err)
{
	for (;;) {
		u64 tp = s->next_pending_ns;
		u64 ta = s->next_action_ns;
		u64 tt = s->next_tick;
		u64 nt = sim_next_due(s);

		if (nt > t || nt == NO_TIME)
			return 0;
		sim_task_dead_due(s, nt);
		sim_account(s, nt);
		s->now = nt;
		if (s->warmup_at == nt) {
			sim_warmup_end(s);
		} else if (tp == nt) {
			for (int c = 0; c < s->plat->nr_clusters; c++) {
				struct sim_cluster *cl = &s->cl[c];
				if (cl->pol.pending && cl->pol.pending_at_ns <= nt &&
				    cpufreq_apply_pending(&cl->pol, nt))
					sim_freq_changed(s, cl);
				sim_cluster_sync_khz(s, c);
			}
			sim_next_pending_refresh(s);
		} else if (ta == nt) {
			int ret = sim_apply_action(s, err);
			if (ret)
				return ret;
		} else if (tt == nt) {
			for (int c = 0; c < s->plat->nr_cpus; c++)
				if (s->cpu[c].busy) {
					s->this_cpu = c;
					sched_tick(s->sched, c, nt);
					s->this_cpu = -1;
					sim_balance_tick(s, c, nt);
				}
			s->next_tick += s->tick_ns;
		} else {
			if (any_busy(s))
				for (int c = 0; c < s->plat->nr_cpus; c++) {
					s->this_cpu = c;
					sched_update_blocked(s->sched, c, nt);
				}
			s->next_blocked += BLOCKED_PERIOD_NS;
		}
		s->this_cpu = -1;
		sim_flush_freq(s); /* nothing here switches tasks: busy states stay */
	}
}

int sim_check_cpu(const struct sim *s, int cpu, const struct event *ev, struct gs_error *err)
{
	if (cpu >= 0 && cpu < s->plat->nr_cpus)
		return 0;
	return gs_error_set(err, GS_ETRACE,
			    "line %" PRIu64 ": %s on CPU %d, but platform '%s' has %d CPUs (0-%d): "
			    "use a platform with more CPUs (--platform; see 'govsim platforms list')",
			    ev->line, event_type_name(ev->type), cpu, s->plat->name, s->plat->nr_cpus,
			    s->plat->nr_cpus - 1);
}

static int sim_start(struct sim *s, u64 t, struct gs_error *err)
{
	s->started = true;
	s->t0 = t;
	s->measured_from = t;
	s->warmup_at = s->cfg.opts.warmup_ns ? t + s->cfg.opts.warmup_ns : NO_TIME;
	s->now = t;
	s->last_acct = t;
	s->next_tick = t - t % s->tick_ns + s->tick_ns;
	/* the 32-ms refresh: work timing only (traced timing has balance.c) */
	s->next_blocked = s->work ? t - t % BLOCKED_PERIOD_NS + BLOCKED_PERIOD_NS : NO_TIME;
	sim_balance_start(s, t);
	for (int c = 0; c < s->plat->nr_cpus; c++)
		s->cpu[c].idle_since_ns = s->cpu[c].acct_ns = t;
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		s->cl[c].all_idle = true;
		s->cl[c].all_idle_since_ns = t;
		s->cl[c].acct_ns = t;
		s->cl[c].acct_khz = s->cl[c].pol.cur_khz;
		sim_timeline_step(&s->cl[c].tl_emu, t, s->cl[c].pol.cur_khz);
	}
	sim_next_pending_refresh(s);
	s->next_action_ns = sim_action_time(s, s->next_action);
	return sim_observers_start(&s->obs, s, t, err);
}

/* Apply one scheduling event at emulated time `now` (called by the traced path directly and by
 * the work-timing layer at emulated times). */
static int sim_sched_event(struct sim *s, const struct event *ev, u64 now, struct gs_error *err)
{
	int ret = sim_advance(s, now, err);
	if (ret)
		return ret;
	sim_observers_sched_event(&s->obs, s, ev);
	/* the scheduler runs this event's code on the CPU that recorded it: a wakeup enqueued
	 * by the waker's CPU, wake_up_new_task on the parent's */
	s->this_cpu = ev->cpu >= 0 && ev->cpu < s->plat->nr_cpus ? ev->cpu : -1;
	ret = sched_event(s->sched, ev, now, err);
	s->this_cpu = -1;
	if (ret)
		return ret;
	sim_observers_sched_applied(&s->obs, s, ev, now);
	if (ev->type == EV_WAKEUP || ev->type == EV_WAKEUP_NEW)
		sim_balance_enqueued(s, ev->wake.target_cpu);
	else if (ev->type == EV_MIGRATE)
		sim_balance_enqueued(s, ev->migrate.dest_cpu);
	if (s->cfg.update_points == SIM_UPDATE_CONTEXT_SWITCH && ev->type == EV_SWITCH)
		sim_governor_update(s, ev->cpu, now, 0);
	sim_flush_freq(s);
	if (ev->type == EV_SWITCH) { /* only a switch changes what a CPU runs */
		bool was_busy = s->cpu[ev->cpu].busy;
		sim_balance_cpu_event(s, ev->cpu);
		sim_refresh_busy(s, ev->cpu);
		sim_balance_switch(s, ev->cpu, was_busy, now);
	}
	return 0;
}

/* sched_switch, sched_wakeup(_new), sched_waking, sched_migrate_task. */
static int feed_sched(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret = sim_check_cpu(s, ev->cpu, ev, err);

	if (!ret && ev->type == EV_MIGRATE) {
		ret = sim_check_cpu(s, ev->migrate.orig_cpu, ev, err);
		if (!ret)
			ret = sim_check_cpu(s, ev->migrate.dest_cpu, ev, err);
	} else if (!ret && ev->type != EV_SWITCH) {
		ret = sim_check_cpu(s, ev->wake.target_cpu, ev, err);
	}
	if (ret)
		return ret;
	if (s->work)
		return work_feed(s->work, ev, err);
	if (ev->type == EV_WAKING) /* traced timing: the sched_wakeup that follows counts */
		return sched_note_waking(s->sched, ev->wake.pid, ev->wake.prio, ev->ts_ns);
	return sim_sched_event(s, ev, ev->ts_ns, err);
}

/* cpu_frequency, or a devlib frequency marker. */
static int feed_freq(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (sim_check_cpu(s, (int)ev->power.cpu_id, ev, err))
		return GS_ETRACE;
	/* a devlib marker is the tracer's note of the frequency at start or stop: it gives
	 * the initial state, and nothing once the kernel's own decisions are known */
	if (ev->type == EV_FREQ_MARKER && s->cpu[ev->power.cpu_id].traced_kernel)
		return 0;
	if (!s->work) {
		ret = sim_advance(s, ev->ts_ns, err);
		if (ret)
			return ret;
	}
	sim_cluster_flush(s, s->cpu[ev->power.cpu_id].cluster);
	if (ev->type == EV_CPU_FREQUENCY)
		sim_observers_trace_event(&s->obs, s, ev);
	s->cpu[ev->power.cpu_id].traced_khz = ev->power.state;
	s->cpu[ev->power.cpu_id].traced_seen = true;
	sim_traced_freq_step(s, (int)ev->power.cpu_id, ev->ts_ns);
	if (ev->type == EV_CPU_FREQUENCY)
		s->cpu[ev->power.cpu_id].traced_kernel = true;
	s->any_traced_freq = true;
	if (s->work)
		work_traced_freq(s->work, (int)ev->power.cpu_id, ev->power.state, ev->ts_ns);
	return 0;
}

/* cpu_idle: the traced idle state, used in traced timing when the trace has them. */

/* A CSV util trace's row of CPU cpu: its frequency, and its busy state (idle_state) or its
 * busy fraction (util, without idle_state). */
static void feed_csv_row(struct sim *s, const struct event *ev, int cpu)
{
	struct sim_cpu *sc = &s->cpu[cpu];

	sim_cluster_flush(s, sc->cluster);
	if (ev->util.freq_khz != EV_NO_VALUE) {
		sc->traced_khz = (u32)ev->util.freq_khz;
		sc->traced_seen = true;
		sc->traced_kernel = true;
		s->any_traced_freq = true;
		sim_traced_freq_step(s, cpu, ev->ts_ns);
	}
	if (ev->util.idle_state == EV_IDLE_ABSENT) {
		sc->csv_frac = true;
		sc->csv_util = ev->util.util +
			       (ev->util.util_rt != EV_NO_VALUE ? ev->util.util_rt : 0);
	} else {
		sc->csv_frac = false;
		sc->csv_busy = ev->util.idle_state < 0;
		if (sc->csv_busy == 1)
			s->csv_busy_mask |= 1ull << cpu;
		else
			s->csv_busy_mask &= ~(1ull << cpu);
		if (s->cfg.has_traced_idle) {
			sc->traced_idle = ev->util.idle_state < 0 ? -1 : (int)ev->util.idle_state;
			s->w_idle_seen |= 1ull << cpu;
		}
		sim_observers_cpu_state(&s->obs, s, cpu);
	}
	sim_cluster_update_eager(s, sc->cluster);
	sim_refresh_busy(s, cpu);
}

/* ---- the trace's util signals, through steps chosen once at sim_new -------------------------- */

/* Traced timing with the emulated util: the loop goes to each util event the emulation has a
 * signal for, and to each governor probe, and shows it to the observers (validate compares
 * it); a probe only when an observer takes it. */
static int util_show(struct sim *s, const struct event *ev, struct gs_error *err)
{
	bool shown = ev->type == EV_GOV_RAW_FREQ ? s->obs.nr_trace_event > 0
						 : sim_is_compared_event(ev->type);
	int ret;

	if (!shown)
		return 0;
	ret = sim_advance(s, ev->ts_ns, err);
	if (!ret)
		sim_observers_trace_event(&s->obs, s, ev);
	return ret;
}

/* The events the observers of trace events are shown on their own paths (util_show,
 * probe_show, feed_freq). */
static bool shown_to_trace_observers(enum event_type t)
{
	return t == EV_GOV_RAW_FREQ || t == EV_GOV_IDLE_CALLS || t == EV_GOV_HOOK ||
	       t == EV_CPU_FREQUENCY || sim_is_compared_event(t);
}

/* A CPU's event after a traced evaluation validate waits on (s->probe_open): the evaluation
 * has ended, whatever the event is; one of another kind is shown too, so that validate sees
 * the end before the replay applies the event. */
static void probe_end(struct sim *s, const struct event *ev)
{
	if (ev->cpu >= 0 && ev->cpu < GS_MAX_CPUS && (s->probe_open >> ev->cpu & 1) &&
	    !shown_to_trace_observers(ev->type))
		sim_observers_trace_event(&s->obs, s, ev);
}

/* A governor probe that validate reads and the replay does not (a hook call, an idle_calls
 * return): shown to the observers that take trace events, without advancing the loop. */
static int probe_show(struct sim *s, const struct event *ev)
{
	if (s->obs.nr_trace_event > 0)
		sim_observers_trace_event(&s->obs, s, ev);
	return 0;
}

/* --util-source trace in traced timing: the trace's per-CPU signals are the util the governor
 * reads (env_cpu_util_trace), and a CSV util trace's rows the CPUs' frequency and state. */
static int util_from_trace(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int cpu, ret;

	if (!sim_is_util_event(ev->type))
		return 0;
	ret = sim_advance(s, ev->ts_ns, err);
	if (ret)
		return ret;
	cpu = sim_trace_util(s, ev);
	if (cpu >= 0 && (ev->type == EV_CSV_UTIL || ev->type == EV_PELT_CFS ||
			 ev->type == EV_LOAD_CFS_RQ || ev->type == EV_LOAD_AVG_CPU)) {
		/* The trace's util changed where the kernel would call cpufreq_update_util
		 * (cfs_rq_util_change after a decay). */
		sim_governor_update(s, cpu, s->now, 0);
		sim_flush_freq(s);
	}
	if (ev->type == EV_CSV_UTIL && cpu >= 0)
		feed_csv_row(s, ev, cpu);
	return 0;
}

/* What the trace's util signals do, in this order: shown to the observers (traced timing, the
 * emulated util), seeds (--seed-util), the util the governor reads (--util-source trace,
 * traced timing). */
static void sim_new_util_steps(struct sim *s, const struct sim_config *cfg)
{
	bool traced = cfg->opts.timing != SIM_TIMING_WORK;

	if (traced && cfg->opts.util_source == SIM_UTIL_EMULATED)
		s->util_step[s->nr_util_steps++] = util_show;
	if (cfg->opts.start_from_trace_util)
		s->util_step[s->nr_util_steps++] = sim_util_seed;
	if (traced && cfg->opts.util_source == SIM_UTIL_TRACE)
		s->util_step[s->nr_util_steps++] = util_from_trace;
}

/* The trace's util signals and governor probes, through the steps sim_new chose. */
static int feed_util(struct sim *s, const struct event *ev, struct gs_error *err)
{
	if (ev->type == EV_CSV_UTIL && sim_check_cpu(s, ev->util.cpu, ev, err))
		return GS_ETRACE; /* a CSV row is all a CSV trace has: it must fit the platform */
	for (int i = 0; i < s->nr_util_steps; i++) {
		int ret = s->util_step[i](s, ev, err);

		if (ret)
			return ret;
	}
	return 0;
}

int sim_feed_event(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (!s->started) {
		if ((ret = sim_start(s, ev->ts_ns, err)))
			return ret;
	} else if (ev->ts_ns > s->t_last && ev->ts_ns - s->t_last > SIM_MAX_GAP_NS)
		/* the loop simulates every tick and blocked update across a gap: refusing gaps
		 * over the limit bounds the run time by the number of events */
		return gs_error_set(err, GS_ETRACE,
				    "line %" PRIu64 ": %s %.3f s after the previous event: gaps over "
				    "%llu s are refused",
				    ev->line, event_type_name(ev->type),
				    (double)(ev->ts_ns - s->t_last) / (double)NSEC_PER_SEC,
				    (unsigned long long)(SIM_MAX_GAP_NS / NSEC_PER_SEC));
	if (ev->type == EV_SWITCH && (ev->sw.prev_state & TASK_STATE_BLOCK_EARLY))
		return sim_feed_block_early(s, ev, err); /* not the trace's: kernel_points.c */
	/* the kernel's evaluation, for validate: the replay neither counts it nor advances to it
	 * (it comes inside the evaluation the next scheduling event applies) */
	if (ev->type == EV_GOV_IDLE_CALLS)
		return probe_show(s, ev);
	if (s->probe_open)
		probe_end(s, ev);
	sim_context_point(s, ev);
	if (sim_take_event(s, ev)) /* a copy of its CPU's previous event: ignored */
		return 0;
	if ((ret = sim_kthread_event(s, ev, err)))
		return ret;
	if ((ret = sim_exit_move_point(s, ev, err)))
		return ret;
	sim_note_event_clock(s, ev);

	switch (ev->type) {
	case EV_SWITCH:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_MIGRATE:
		ret = feed_sched(s, ev, err);
		if (!ret)
			sim_observers_sched_done(&s->obs, s, ev);
		if (!ret && ev->type == EV_SWITCH)
			sim_kthread_switched_in(s, ev);
		return ret;
	case EV_WAKING:
		return feed_sched(s, ev, err);
	case EV_CPU_FREQUENCY:
	case EV_FREQ_MARKER:
		return feed_freq(s, ev, err);
	case EV_CPU_IDLE:
		return sim_feed_idle(s, ev, err);
	case EV_HRTIMER_EXPIRE:
		return sim_feed_tick(s, ev, err);
	case EV_SOFTIRQ_ENTRY:
	case EV_BLOCKED_UPDATE:
		return sim_feed_blocked_update(s, ev, err);
	case EV_PROCESS_EXIT:
		return sim_feed_exit(s, ev, err);
	case EV_IOWAIT_BOOST:
		return sim_feed_iowait(s, ev, err);
	case EV_GOV_HOOK: /* sim_note_event_clock; validate's */
		return probe_show(s, ev);
	case EV_START_SE:
	case EV_START_CFS:
		return sim_feed_start_state(s, ev, err);
	default: /* the util signals and EV_GOV_RAW_FREQ */
		return feed_util(s, ev, err);
	}
}

/* ---- what the work timing layer calls (struct work_host) ------------------------------------ */

static int host_sched_event(void *ctx, const struct event *ev, u64 now, struct gs_error *err)
{
	return sim_sched_event(ctx, ev, now, err);
}

static u32 host_cluster_khz(void *ctx, int cluster)
{
	const struct sim *s = ctx;
	return s->cl[cluster].pol.cur_khz;
}

static int host_advance_to(void *ctx, u64 t, struct gs_error *err)
{
	struct sim *s = ctx;
	int ret = sim_advance(s, t, err);
	sim_flush_freq(s);
	return ret;
}

static u64 host_next_internal_ns(void *ctx)
{
	const struct sim *s = ctx;
	u64 t = gs_min_u64(s->next_pending_ns, s->next_action_ns);
	t = gs_min_u64(t, s->warmup_at);
	return gs_min_u64(t, gs_min_u64(s->next_tick, s->next_blocked));
}

/* ---- set-up and results --------------------------------------------------------------------- */

/* One rate-limit period: --set rate_limit_us when given, else the default schedutil takes. */
static u64 val_default_window_ns(const struct sim_config *cfg, const struct cpufreq_policy *pol)
{
	for (int i = 0; i < cfg->opts.nr_params; i++) {
		unsigned long v;
		char *end;
		if (strcmp(cfg->params[i].key, "rate_limit_us") != 0)
			continue;
		v = strtoul(cfg->params[i].value, &end, 10);
		if (end != cfg->params[i].value && !*end)
			return (u64)v * NSEC_PER_USEC;
	}
	return (u64)cpufreq_policy_transition_delay_us(pol) * NSEC_PER_USEC;
}

/* validate's default window: one rate-limit period, but at least one tick (TICK_NSEC): the
 * trace does not record the tick, and a kernel with a rate limit of microseconds decides at
 * every update, tick-driven ones included. */
static u64 val_window_ns(const struct sim_config *cfg, const struct cpufreq_policy *pol)
{
	u64 tick = (NSEC_PER_SEC + (u64)cfg->hz / 2) / (u64)cfg->hz;
	u64 w = val_default_window_ns(cfg, pol);

	return w > tick ? w : tick;
}

/* The scheduler model, with the loop's hooks, and the rqs' initial clamp state. */
static int sim_new_sched(struct sim *s, const struct sim_config *cfg, struct gs_error *err)
{
	struct sched_config sc = {0};
	struct sched_hooks hooks = {0};
	int ret;

	sc.nr_cpus = s->plat->nr_cpus;
	sc.kernel = s->kp;
	sc.hz = cfg->hz;
	sc.start_from_trace_util = cfg->opts.start_from_trace_util;
	sc.has_rq_clock_offset = cfg->has_rq_clock_offset;
	memcpy(sc.rq_clock_offset_ns, cfg->rq_clock_offset_ns, sizeof(sc.rq_clock_offset_ns));
	sc.iowait_traced = cfg->iowait_traced;
	sc.sched_autogroup = cfg->sched_autogroup;
	sc.delay_dequeue = cfg->delay_dequeue < 0 ? 0 : cfg->delay_dequeue ? 1 : -1;
	sc.switch_clock_lead_ns = cfg->switch_clock_lead_ns;
	sc.sleep_clock_lead_ns = cfg->sleep_clock_lead_ns;
	sc.wakeup_clock_lead_ns = cfg->wakeup_clock_lead_ns;
	sc.defer_task_dead = cfg->task_dead_irq_ns && cfg->opts.timing != SIM_TIMING_WORK;
	sc.preempt_traced = sc.defer_delayed_pick = cfg->opts.timing != SIM_TIMING_WORK;
	sc.cpuidle_driver = cfg->cpuidle_driver != 0;
	sc.idle_traced = cfg->has_traced_idle;
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		sc.capacity[c] = s->plat->cpus[c].capacity;
		s->cpu[c].cluster = s->plat->cpus[c].cluster;
		s->cpu[c].traced_idle = -1;
		s->cpu[c].csv_busy = -1;
		s->cpu[c].traced_khz = cfg->initial_khz[c];
		/* a known start: the policy ran at its maximum until the first cpu_frequency */
		if (cfg->start_freq == SIM_START_MAX)
			s->cpu[c].traced_khz = plat_cluster_max_khz(
			    &s->plat->clusters[s->plat->cpus[c].cluster]);
		if (s->cpu[c].traced_khz)
			s->any_traced_freq = true;
	}
	hooks.ctx = s;
	/* v4.19 has no uclamp: no enqueue/dequeue hook, nothing to count */
	hooks.uclamp_inc = s->kp->uclamp_present ? sim_hook_uclamp_inc : NULL;
	hooks.uclamp_dec = s->kp->uclamp_present ? sim_hook_uclamp_dec : NULL;
	hooks.cpufreq_update = sim_hook_cpufreq_update;
	hooks.task_new = hook_task_new;
	hooks.task_event = hook_task_event;
	hooks.task_class_change = hook_task_class_change;
	hooks.task_exit = hook_task_exit;
	hooks.task_rename = sim_task_rename;
	hooks.newidle = hook_newidle;
	ret = sched_new(&sc, &hooks, &s->sched);
	if (ret)
		return gs_error_set(err, ret, "cannot set up the scheduler model: %s",
				    gs_strerror(ret));
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		/*
		 * init_uclamp_rq() (v5.9) leaves rq->uclamp_flags 0: on a freshly booted rq the first
		 * task's uclamp.max below 1024 cannot lower the rq value until the rq has once gone
		 * idle after a task of the top bucket. A traced system is not freshly booted: its
		 * CPUs have gone idle many times, so every rq starts as after such an idle period,
		 * with UCLAMP_FLAG_IDLE set and MAX 1024 retained.
		 */
		struct uclamp_rq_pair *rq = sched_cpu_uclamp(s->sched, c);
		uclamp_rq_init_sys(&s->uc, rq);
		rq->flags |= UCLAMP_FLAG_IDLE;
	}
	return 0;
}

/* What the governors see of the replay (struct gov_env). */
static void sim_new_env(struct sim *s, const struct sim_config *cfg)
{
	s->env.ctx = s;
	s->env.cpu_util =
		cfg->opts.util_source == SIM_UTIL_TRACE ? env_cpu_util_trace : env_cpu_util;
	s->env.cpu_bw_dl = env_cpu_bw_dl;
	/* the model's own signals: read directly (env_cpu_util() and env_cpu_bw_dl() answer so) */
	s->env.sched = cfg->opts.util_source == SIM_UTIL_TRACE ? NULL : s->sched;
	s->env.uclamp = s->kp->uclamp_present ? &s->uc : NULL;
	s->env.kernel = s->kp;
	s->env.cpu_uclamp = env_cpu_uclamp;
	s->env.cpu_idle_ns = env_cpu_idle_ns;
	s->env.on_eval = env_on_eval;
	s->env.hz = cfg->hz;
}

/* Cluster c's cpufreq policy, its governor and its initial frequency. */
static int sim_new_cluster(struct sim *s, const struct sim_config *cfg, int c,
			   struct gs_error *err)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = &s->plat->clusters[c];
	u64 lat = cfg->has_switch_latency ? cfg->switch_latency_ns : pc->transition_latency_ns;
	u32 init = 0;
	int ret;

	ret = sim_gov_start_check(cfg, pc, err);
	if (ret)
		return ret;
	for (int i = 0; i < pc->nr_cpus && !init && cfg->start_freq == SIM_START_TRACED; i++)
		init = cfg->initial_khz[pc->cpus[i]];
	cpufreq_policy_init_cluster(&cl->pol, c, pc, init ? init : plat_cluster_max_khz(pc), lat);
	cl->pol.transition_ns = cfg->transition_ns;
	cpufreq_policy_set_limits(&cl->pol, cfg->scaling_min_khz, cfg->scaling_max_khz);
	if (cfg->start_freq == SIM_START_MAX)
		cl->pol.cur_khz = cl->pol.max_khz;
	cl->pol.freq_invariant =
		cfg->freq_invariant >= 0 ? cfg->freq_invariant != 0 : s->plat->freq_invariant;
	cl->pol.dvfs_possible_from_any_cpu =
		cfg->dvfs_any_cpu >= 0 ? cfg->dvfs_any_cpu != 0 : s->plat->dvfs_any_cpu;
	cl->pol.transition_delay_1_5x = s->kp->rate_limit_1_5x;
	cl->pol.gov_running_before = cfg->governor_start_ns == 0;
	if (s->kp->resolve_relation == CPUFREQ_RESOLVE_LE)
		cpufreq_policy_set_efficiencies(&cl->pol);
	cl->pol.cur_khz = cpufreq_driver_resolve_freq(&cl->pol, cl->pol.cur_khz);
	cl->gov = cfg->gov;
	cl->pc = pc;
	cl->tl_bucket_ns = NSEC_PER_MSEC;
	ret = governor_init(cfg->gov, &cl->pol, &s->env, cfg->params, cfg->opts.nr_params,
			    &cl->gov_data, err);
	if (ret)
		return ret;
	/* performance, powersave and userspace set their frequency in init */
	s->emu_init_khz[c] = cl->pol.cur_khz;
	s->val.window_ns[c] = cfg->val_window_ns ? cfg->val_window_ns
						 : val_window_ns(cfg, &cl->pol);
	cl->cur_opp = plat_cluster_opp_index(pc, cl->pol.cur_khz);
	if (cl->cur_opp < 0)
		cl->cur_opp = pc->nr_opps - 1;
	for (int i = 0; i < pc->nr_cpus; i++)
		cl->cpu_mask |= 1ull << pc->cpus[i];
	/* The initial frequency's scale for PELT invariance. */
	for (int i = 0; i < pc->nr_cpus; i++)
		sched_set_freq_scale(s->sched, pc->cpus[i], 0, sim_freq_scale(&cl->pol, pc));
	return 0;
}

/* The options that cannot go together with the platform or each other: 0 or GS_EARG. */
static int sim_check_options(const struct sim_config *cfg, struct gs_error *err)
{
	if (cfg->opts.power_model == POWER_MODEL_WATTSON && !cfg->opts.plat->wattson.present)
		return gs_error_set(err, GS_EARG,
				    "--power-model wattson: platform '%s' has no wattson curves "
				    "(built-in models with them: tensor)",
				    cfg->opts.plat->name);
	if (cfg->opts.power_model == POWER_MODEL_WATTSON && cfg->opts.warmup_ns)
		return gs_error_set(err, GS_EARG,
				    "--power-model wattson does not take --warmup-ms yet");
	if (cfg->opts.placement == SIM_PLACEMENT_EAS && cfg->opts.timing != SIM_TIMING_WORK &&
	    cfg->decisions != SIM_DECISIONS_KERNEL)
		return gs_error_set(err, GS_EARG,
				    "--placement eas needs work timing: moved work runs at its new "
				    "CPU's speed (a CSV util trace has no scheduling events)");
	return 0;
}

/* The features that watch the replay (observer.h), after the kernel overhead model: the tasks
 * that died, which every replay keeps, then the optional ones, the placement driver, and last
 * the writers of the rows reported as the replay goes (so each row is written once every
 * other observer has seen its event). */
static int sim_new_observers(struct sim *s, const struct sim_config *cfg, struct gs_error *err)
{
	int ret = sim_exited_observe(s, err);

	if (!ret && cfg->opts.power_model == POWER_MODEL_WATTSON)
		ret = sim_wattson_observe(s, err);
	if (!ret && cfg->decisions == SIM_DECISIONS_KERNEL)
		ret = sim_validate_observe(s, err);
	if (!ret && cfg->decisions == SIM_DECISIONS_KERNEL &&
	    cfg->opts.placement == SIM_PLACEMENT_EAS)
		ret = sim_placement_check_observe(s, err);
	/* the driver: the work layer replays the wakeups it places (sim_check_options) */
	if (!ret && cfg->decisions == SIM_DECISIONS_EMULATED &&
	    cfg->opts.placement == SIM_PLACEMENT_EAS && cfg->opts.timing == SIM_TIMING_WORK)
		ret = sim_placement_observe(s, err);
	if (!ret)
		ret = sim_timeline_observe(s, err);
	return ret;
}

int sim_new(const struct sim_config *cfg, struct sim **out, struct gs_error *err)
{
	struct sim *s;
	int ret;

	*out = NULL;
	if ((ret = sim_check_options(cfg, err)))
		return ret;
	s = calloc(1, sizeof(*s));
	if (s)
		s->this_cpu = -1;
	if (!s)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	s->warmup_at = NO_TIME;
	s->cfg = *cfg;
	s->plat = cfg->opts.plat;
	s->tick_ns = NSEC_PER_SEC / (u64)cfg->hz;
	uclamp_sys_init(&s->uc, cfg->uclamp_buckets);
	s->kp = cfg->opts.kernel ? cfg->opts.kernel : kernel_profile_default();
	uclamp_sys_set_profile(&s->uc, s->kp);
	if (!s->kp->uclamp_present && cfg->opts.policy && cfg->opts.policy->n) {
		const char *name = s->kp->name;
		free(s);
		return gs_error_set(err, GS_EPOLICY,
				    "kernel profile %s has no uclamp: clamp policies cannot apply "
				    "(choose --kernel v5.4 or later)",
				    name);
	}
	if ((ret = sim_ovh_check_policy(cfg, err))) {
		free(s);
		return ret;
	}
	if (cfg->opts.policy && cfg->opts.policy->n &&
	    !(s->astats = calloc(cfg->opts.policy->n, sizeof(*s->astats)))) {
		free(s);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}

	ret = sim_new_sched(s, cfg, err);
	if (ret) {
		free(s->astats);
		free(s);
		return ret;
	}
	if ((ret = sim_ovh_observe(s, err))) {
		sim_free(s);
		return ret;
	}
	sim_new_env(s, cfg);
	sim_new_util_steps(s, cfg);
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		ret = sim_new_cluster(s, cfg, c, err);
		if (ret) {
			sim_free(s);
			return ret;
		}
	}

	if ((ret = sim_new_observers(s, cfg, err))) {
		sim_free(s);
		return ret;
	}
	if (cfg->opts.timing == SIM_TIMING_WORK) {
		struct work_host host = {s, host_sched_event, host_advance_to, host_next_internal_ns,
					 host_cluster_khz, NULL, NULL, NULL};

		if (s->place) { /* the placement driver's strategy */
			host.place = sim_placement_wakeup;
			host.take_pull = sim_placement_take_pull;
		}
		ret = work_new(&host, s->plat, cfg->opts.warmup_ns, &s->work, err);
		if (ret) {
			sim_free(s);
			return ret;
		}
		sim_ovh_follow(s); /* the kernel's work asked where it may differ from the traced */
	}
	s->kthread_timing = !s->work && cfg->kthread_traced;
	s->clock_timing = !s->work && cfg->rq_clock_traced && cfg->has_rq_clock_offset;
	*out = s;
	return 0;
}

static void free_task_data(void *ctx, struct task *p)
{
	(void)ctx;
	free(p->owner_data);
	p->owner_data = NULL;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	sim_observers_release(&s->obs);
	work_free(s->work);
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		if (s->cl[c].gov && s->cl[c].gov_data)
			governor_release(s->cl[c].gov_data);
		sim_timeline_release(&s->cl[c]);
	}
	if (s->sched) {
		sched_for_each_task(s->sched, free_task_data, NULL);
		sched_free(s->sched);
	}
	uclamp_sys_release(&s->uc);
	sim_validation_release(&s->val);
	free(s->astats);
	free(s);
}

const struct policy_action_stats *sim_get_action_stats(const struct sim *s)
{
	return s->astats;
}
