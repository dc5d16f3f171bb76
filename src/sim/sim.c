/*
 * sim.c - the replay loop: time, ordering, and the wiring between the stages.
 *
 * Time. Every stage is called with an explicit time and never reads a clock. Besides the trace's
 * own events, the loop generates the kernel's periodic work at its trace times (DESIGN.md §13):
 *  - the scheduler tick on busy CPUs, at multiples of TICK_NSEC = 1e9 / HZ (NO_HZ idle);
 *  - update_blocked_averages() of every CPU every LOAD_AVG_PERIOD ms (32 ms) while some CPU is
 *    busy, as the nohz idle balance and periodic load balance do;
 *  - frequency requests of a slow-path driver coming into force (cpufreq core, switch latency);
 *  - clamp policy actions at their `at` time.
 * Ties at one instant are ordered: pending frequency changes, policy actions, ticks, blocked
 * updates, then the trace event; equal trace times keep file order (the reader guarantees it).
 *
 * Accounting. Power is piecewise constant between state changes, so energy is integrated
 * exactly: the loop accumulates integer nanoseconds per (CPU, OPP) busy, per (CPU, idle state)
 * idle, per (cluster, OPP) busy and per (cluster, idle state) idle, and multiplies by the power
 * of each state once at the end. Idle states come from cpu_idle events when the trace has them
 * and the timing is traced; otherwise they are chosen with hindsight when the idle interval ends:
 * the deepest state whose target residency fits (power_pick_idle_state()).
 */
#include "sim/sim.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/parse.h"
#include "cpufreq/cpufreq.h"
#include "power/wattson.h"
#include "sched/sched.h"
#include "sim/sim_internal.h"
#include "sim/work.h"
#include "trace/reader.h"
#include "uclamp/uclamp.h"
#include "version.h"

#define BLOCKED_PERIOD_NS (32 * NSEC_PER_MSEC) /* LOAD_AVG_PERIOD ms */
#define TIMELINE_MAX_POINTS 4096               /* per policy, after decimation */
#define NO_TIME UINT64_MAX

struct sim_task {
	bool born_in_trace; /* its sched_wakeup_new was replayed (validate: pre-trace tasks apart) */
	u64 in_at_ns;     /* last switch-in */
	u64 runtime_ns;
	u64 delay_ns;     /* work timing: summed slice delays */
	u64 max_delay_ns;
};

struct sim_cpu {
	int cluster;
	bool busy;              /* a workload task is running */
	u64 idle_since_ns;      /* start of the current idle interval (hindsight) */
	int traced_idle;        /* cpu_idle state in force; -1 none */
	u32 traced_khz;         /* the trace's frequency in force; 0 unknown */
	bool traced_seen;       /* traced_khz comes from an event already replayed, not from the
				 * pre-scan's guess for the time before the first one */
	bool traced_kernel;     /* ... from a kernel cpu_frequency, not a tracer's marker */
	u64 busy_ns_opp[GS_MAX_OPPS];
	u64 idle_ns_state[GS_MAX_IDLE_STATES];
	u64 busy_ns;
	u64 idle_total_ns;      /* for ondemand/conservative (get_cpu_idle_time) */
	int clamp_dir;          /* -1 clamped down, +1 clamped up, 0 neither: at the last evaluation */
	bool overutil;          /* util above current capacity at the last evaluation */
	struct sched_cpu_util trace_util; /* --util-source trace */
	/* CSV util traces carry no scheduling events: a CPU is busy when its idle_state column
	 * says -1; without that column (csv_frac) it is busy for the share util / capacity at
	 * the current OPP of each interval, as the energy model estimates (em_cpu_energy). */
	int csv_busy;           /* -1 unknown, 0 idle, 1 busy */
	bool csv_frac;
	unsigned long csv_util;
};

struct sim_cluster {
	struct cpufreq_policy pol;
	void *gov_data;
	int cur_opp;
	u64 residency_ns[GS_MAX_OPPS];
	u64 busy_ns_opp[GS_MAX_OPPS];
	u64 idle_ns_state[GS_MAX_IDLE_STATES];
	u64 cpu_mask;           /* its CPUs, one bit each */
	bool all_idle;
	u64 all_idle_since_ns;
	u64 transitions;
	/* lazy accounting (sim_account): the counters cover the time up to acct_ns, during which
	 * the frequency was acct_khz (pol.cur_khz changes inside the governor before the loop
	 * sees it); `eager` while a CPU of it is csv_frac (its integrand is not linear in dt) */
	u64 acct_ns;
	u32 acct_khz;
	bool eager;
	bool freq_dirty;       /* cur changed inside a hook: tell the scheduler after it returns */
	/* decimated timeline */
	u64 tl_bucket_ns;
	u64 tl_bucket_end_ns;
	unsigned long tl_util;  /* max util seen in the bucket */
	bool tl_pending;
	struct run_timeline_point *tl;
	size_t nr_tl, alloc_tl;
};

struct sim {
	struct sim_config cfg;
	const struct platform *plat;
	struct sched *sched;
	struct uclamp_sys uc;
	struct gov_env env;
	struct sim_cpu cpu[GS_MAX_CPUS];
	struct sim_cluster cl[GS_MAX_CLUSTERS];
	struct work *work; /* work timing; NULL in traced timing */
	u64 busy_mask;     /* bit c: cpu[c].busy */
	bool any_freq_dirty; /* some cluster's freq_dirty is set */
	u64 csv_busy_mask; /* bit c: cpu[c].csv_busy == 1 */

	bool started;
	u64 t0;            /* first event: trace-relative 0 */
	u64 now;           /* emulated time of the loop */
	u64 last_acct;
	u64 tick_ns;
	u64 next_tick;
	u64 next_blocked;
	size_t next_action; /* policy actions are kept in run order (policy.h) */
	/* cached: the earliest pending frequency request (pol.pending changes only inside a
	 * governor update or when the loop applies one: both refresh it) and the next action */
	u64 next_pending_ns;
	u64 next_action_ns;
	/* --warmup-ms: the measurements start at warmup_at (NO_TIME: from the start, or done) */
	u64 warmup_at;
	u64 measured_from;     /* t0, or the end of the warm-up once reached */
	u64 agg_ops_base, agg_skipped_base;
	u64 events;
	u64 clamped_up_ns, clamped_down_ns;
	u64 overutil_ns[GS_MAX_CLUSTERS];
	struct sim_validation val;
	/* validate: emulated frequency changes per cluster (time, kHz), the frequency at the
	 * start, the last evaluation per cluster, and the decisions' capacity */
	struct { u64 t; u32 khz; } *emu_chg[GS_MAX_CLUSTERS];
	size_t nr_emu_chg[GS_MAX_CLUSTERS], cap_emu_chg[GS_MAX_CLUSTERS];
	u32 emu_init_khz[GS_MAX_CLUSTERS];
	struct sim_decision last_eval[GS_MAX_CLUSTERS];
	size_t cap_dec;
	char notes[GS_ERROR_MSG_MAX];
	const struct kernel_profile *kp; /* never NULL */
	bool validating; /* util_source emulated or trace, traced timing, per-decision records */
	bool any_traced_freq;
	/* --power-model wattson: the whole state's power over time (power/wattson.h); the state
	 * each CPU was last given (W_PENDING: idle, chosen with hindsight) */
	struct wattson_acc *wattson;
	int w_state[GS_MAX_CPUS];
	u64 w_idle_seen; /* bit per CPU that had a traced idle state (cpu_idle, CSV idle_state) */
	struct policy_action_stats *astats; /* one per policy action (cfg.policy->n) */
};

#define W_PENDING (-3)

/* ---- configuration -------------------------------------------------------------------------- */

void sim_config_init(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->timing = SIM_TIMING_WORK;
	cfg->util_source = SIM_UTIL_EMULATED;
	cfg->power_model = POWER_MODEL_EM;
	cfg->hz = 250;
	cfg->switch_latency_ns = -1;
	cfg->update_points = SIM_UPDATE_KERNEL;
	cfg->uclamp_buckets = UCLAMP_BUCKETS_DEFAULT;
	cfg->scaling_max_khz = CPUFREQ_NO_MAX_KHZ;
}

int sim_config_parse_params(struct sim_config *cfg, struct gs_error *err)
{
	for (int i = 0; i < cfg->nr_params; i++) {
		struct gov_param *p = &cfg->params[i];
		u64 v;

		if (strcmp(p->key, "update_points") == 0) {
			if (strcmp(p->value, "kernel") == 0)
				cfg->update_points = SIM_UPDATE_KERNEL;
			else if (strcmp(p->value, "context-switch") == 0)
				cfg->update_points = SIM_UPDATE_CONTEXT_SWITCH;
			else
				return gs_error_set(err, GS_EARG,
						    "--set update_points='%s': expected kernel or "
						    "context-switch",
						    p->value);
			p->used = true;
			continue;
		}
		if (strcmp(p->key, "hz") != 0 && strcmp(p->key, "switch_latency_us") != 0 &&
		    strcmp(p->key, "scaling_min_freq") != 0 &&
		    strcmp(p->key, "scaling_max_freq") != 0 && strcmp(p->key, "uclamp_buckets") != 0)
			continue;
		if (gs_parse_u64(p->value, &v) != 0)
			return gs_error_set(err, GS_EARG, "--set %s='%s': not a non-negative integer",
					    p->key, p->value);
		if (strcmp(p->key, "hz") == 0) {
			if (v < 100 || v > 1000)
				return gs_error_set(err, GS_EARG, "--set hz=%" PRIu64
						    ": CONFIG_HZ must be 100..1000", v);
			cfg->hz = (int)v;
		} else if (strcmp(p->key, "switch_latency_us") == 0) {
			if (v > 1000000)
				return gs_error_set(err, GS_EARG, "--set switch_latency_us=%" PRIu64
						    ": more than 1 s", v);
			cfg->switch_latency_ns = (s64)(v * NSEC_PER_USEC);
		} else if (strcmp(p->key, "scaling_min_freq") == 0) {
			cfg->scaling_min_khz = (u32)gs_min_u64(v, UINT32_MAX);
		} else if (strcmp(p->key, "scaling_max_freq") == 0) {
			cfg->scaling_max_khz = (u32)gs_min_u64(v, UINT32_MAX);
		} else {
			if (v < 5 || v > UCLAMP_BUCKETS_MAX)
				return gs_error_set(err, GS_EARG, "--set uclamp_buckets=%" PRIu64
						    ": CONFIG_UCLAMP_BUCKETS_COUNT must be 5..20", v);
			cfg->uclamp_buckets = (int)v;
		}
		p->used = true;
	}
	return 0;
}

/* ---- small helpers -------------------------------------------------------------------------- */

static inline struct sim_cluster *cluster_of(struct sim *s, int cpu)
{
	return &s->cl[s->cpu[cpu].cluster];
}

static inline double ns_to_s(u64 ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

static struct sim_task *task_data(struct task *p)
{
	return p->owner_data;
}

/* ---- accounting ----------------------------------------------------------------------------- */

/*
 * Accounting is lazy per cluster. Between two changes of a cluster's inputs (its frequency and
 * OPP, its first CPU's traced frequency, and per CPU busy, idle state, clamp direction and
 * over-utilization) every counter grows by the same dt, so the integration from acct_ns up to
 * the loop's accounting time last_acct is done only when an input is about to change
 * (cluster_flush()) or at the end. The counters are integers, so the sums are exact in any
 * grouping. A csv_frac CPU's busy share is floored per interval: such a cluster is accounted
 * at every step, as the intervals were before.
 */
static void cluster_account(struct sim *s, int c, u64 t)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pol.cl;
	bool any_busy = false;
	int min_idle = INT32_MAX;
	u64 cl_frac_ns = 0; /* CSV: the cluster is busy while its busiest CPU is */
	u64 dt;

	if (t <= cl->acct_ns)
		return;
	dt = t - cl->acct_ns;
	{
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
		for (int i = 0; i < pc->nr_cpus; i++) {
			struct sim_cpu *sc = &s->cpu[pc->cpus[i]];
			if (sc->clamp_dir > 0)
				s->clamped_up_ns += dt;
			else if (sc->clamp_dir < 0)
				s->clamped_down_ns += dt;
			if (sc->overutil)
				s->overutil_ns[c] += dt;
			if (sc->busy) {
				any_busy = true;
				sc->busy_ns += dt;
				sc->busy_ns_opp[cl->cur_opp] += dt;
				continue;
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
				if (part > cl_frac_ns)
					cl_frac_ns = part;
				continue;
			}
			sc->idle_total_ns += dt;
			if (sc->traced_idle >= 0) {
				int st = sc->traced_idle < pc->nr_idle ? sc->traced_idle : pc->nr_idle - 1;
				if (st >= 0)
					sc->idle_ns_state[st] += dt;
				if (st < min_idle)
					min_idle = st;
			} else if (s->cfg.has_traced_idle) {
				/* idle for the scheduler, no idle state traced: active idle (WFI) */
				if (pc->nr_idle > 0)
					sc->idle_ns_state[0] += dt;
				min_idle = 0;
			}
		}
		/* scored, like the time-weighted share, only under the kernel's own decisions */
		if (s->validating && s->cpu[pc->cpus[0]].traced_seen &&
		    s->cpu[pc->cpus[0]].traced_kernel) {
			u32 tk = s->cpu[pc->cpus[0]].traced_khz;
			int topp = plat_cluster_opp_index(pc, tk);
			int nbusy = 0;
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
		if (any_busy) {
			cl->busy_ns_opp[cl->cur_opp] += dt;
		} else if (cl_frac_ns) {
			cl->busy_ns_opp[cl->cur_opp] += cl_frac_ns;
			if (pc->nr_idle > 0)
				cl->idle_ns_state[0] += dt - cl_frac_ns;
		} else if (s->cfg.has_traced_idle && min_idle != INT32_MAX && min_idle >= 0)
			cl->idle_ns_state[min_idle] += dt;
	}
	cl->acct_ns = t;
}

/* Bring a cluster's counters to the loop's accounting time: call before changing an input. */
static inline void cluster_flush(struct sim *s, int c)
{
	if (s->cl[c].acct_ns < s->last_acct)
		cluster_account(s, c, s->last_acct);
}

static void cluster_flush_all(struct sim *s)
{
	for (int c = 0; c < s->plat->nr_clusters; c++)
		cluster_flush(s, c);
}

/* The frequency a cluster is accounted at follows pol.cur_khz (after a governor update or a
 * pending request applied). */
static inline void cluster_sync_khz(struct sim *s, int c)
{
	struct sim_cluster *cl = &s->cl[c];
	if (cl->pol.cur_khz != cl->acct_khz) {
		cluster_flush(s, c);
		cl->acct_khz = cl->pol.cur_khz;
		if (s->wattson)
			wattson_acc_freq(s->wattson, s->last_acct, c, cl->acct_khz);
	}
}

/* Whether the cluster must be accounted at every step (a CPU of it is csv_frac). */
static void cluster_update_eager(struct sim *s, int c)
{
	const struct plat_cluster *pc = s->cl[c].pol.cl;
	bool eager = false;
	for (int i = 0; i < pc->nr_cpus; i++)
		eager |= s->cpu[pc->cpus[i]].csv_frac;
	s->cl[c].eager = eager;
}

/* Integrate the state up to t: the loop's accounting time moves, eager clusters follow. */
static void sim_account(struct sim *s, u64 t)
{
	if (t <= s->last_acct)
		return;
	s->last_acct = t;
	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].eager)
			cluster_account(s, c, t);
}

/*
 * --power-model wattson: tell the accumulator a CPU's state at s->now. With traced idle states
 * (cpu_idle events, traced timing) the state is Wattson's own reading of them: the state in force,
 * active once the CPU left it (cpu_idle exit) or runs a task, and the deepest before its first
 * cpu_idle event (Wattson's NULL). Otherwise a busy CPU is active and an idle one's state is
 * chosen with hindsight when the interval ends (power_pick_idle_state, as the other models).
 */
static void wattson_sync_cpu(struct sim *s, int cpu)
{
	const struct sim_cpu *sc = &s->cpu[cpu];
	int want;

	if (!s->wattson)
		return;
	if (s->cfg.has_traced_idle)
		want = sc->traced_idle >= 0 ? sc->traced_idle
		       : sc->busy || (s->w_idle_seen & (1ull << cpu)) ? WATTSON_ACTIVE
								      : 1;
	else
		want = sc->busy ? WATTSON_ACTIVE : W_PENDING;
	if (want == s->w_state[cpu])
		return;
	s->w_state[cpu] = want;
	if (want == W_PENDING)
		wattson_acc_idle_begin(s->wattson, s->now, cpu);
	else
		wattson_acc_state(s->wattson, s->now, cpu, want);
}

/* Busy/idle transitions after the scheduler changed state at s->now: only the CPUs whose busy
 * state differs from the scheduler's (or a CSV row's) are visited. */
static void sim_refresh_cluster(struct sim *s, int c)
{
	struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pol.cl;
	u64 busy_now = (sched_busy_mask(s->sched) | s->csv_busy_mask) & cl->cpu_mask;
	u64 changed = busy_now ^ (s->busy_mask & cl->cpu_mask);
	bool all_idle = busy_now == 0;

	if (changed) {
		/* per-CPU counters only: the order of the CPUs does not matter */
		cluster_flush(s, c);
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
			wattson_sync_cpu(s, cpu);
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
static void sim_refresh_busy(struct sim *s, int cpu)
{
	sim_refresh_cluster(s, s->cpu[cpu].cluster);
}

/* ---- decimated timeline --------------------------------------------------------------------- */

static void timeline_push(struct sim *s, struct sim_cluster *cl, u64 t)
{
	struct run_timeline_point *pt;
	const struct plat_cluster *pc = cl->pol.cl;

	if (cl->nr_tl == cl->alloc_tl) {
		size_t n = cl->alloc_tl ? cl->alloc_tl * 2 : 256;
		void *p = realloc(cl->tl, n * sizeof(*cl->tl));
		if (!p)
			return; /* the timeline is for plots: losing points is not an error */
		cl->tl = p;
		cl->alloc_tl = n;
	}
	pt = &cl->tl[cl->nr_tl++];
	pt->time_s = ns_to_s(t - s->t0);
	pt->policy = pc->cpus[0];
	pt->freq_khz = cl->pol.cur_khz;
	pt->traced_khz = s->cpu[pc->cpus[0]].traced_khz;
	pt->util = (u32)cl->tl_util;
	pt->capacity = pc->opps[cl->cur_opp].capacity;
	cl->tl_util = 0;
	cl->tl_pending = false;

	if (cl->nr_tl > TIMELINE_MAX_POINTS) {
		/* Halve: keep every other point (the later of each pair, with the pair's max util). */
		size_t j = 0;
		for (size_t i = 0; i + 1 < cl->nr_tl; i += 2) {
			struct run_timeline_point a = cl->tl[i], b = cl->tl[i + 1];
			if (a.util > b.util)
				b.util = a.util;
			cl->tl[j++] = b;
		}
		if (cl->nr_tl % 2)
			cl->tl[j++] = cl->tl[cl->nr_tl - 1];
		cl->nr_tl = j;
		cl->tl_bucket_ns *= 2;
	}
}

static void timeline_note(struct sim *s, struct sim_cluster *cl, u64 t, unsigned long util,
			  bool freq_changed)
{
	if (cl->tl_pending && t >= cl->tl_bucket_end_ns)
		timeline_push(s, cl, cl->tl_bucket_end_ns);
	if (!cl->tl_pending) {
		cl->tl_bucket_end_ns = t - (t - s->t0) % cl->tl_bucket_ns + cl->tl_bucket_ns;
		cl->tl_pending = true;
	}
	if (util > cl->tl_util)
		cl->tl_util = util;
	if (freq_changed)
		timeline_push(s, cl, t);
}

/* ---- frequency ------------------------------------------------------------------------------ */

/* validate: an emulated frequency change (kept only when validating). */
static void val_note_emulated(struct sim *s, int c, u64 t, u32 khz)
{
	if (!s->validating)
		return;
	if (s->nr_emu_chg[c] == s->cap_emu_chg[c]) {
		size_t n = s->cap_emu_chg[c] ? 2 * s->cap_emu_chg[c] : 64;
		void *p = realloc(s->emu_chg[c], n * sizeof(*s->emu_chg[c]));
		if (!p)
			return; /* out of memory: the decision figures only lose precision */
		s->emu_chg[c] = p;
		s->cap_emu_chg[c] = n;
	}
	s->emu_chg[c][s->nr_emu_chg[c]].t = t;
	s->emu_chg[c][s->nr_emu_chg[c]].khz = khz;
	s->nr_emu_chg[c]++;
}

static void sim_freq_changed(struct sim *s, struct sim_cluster *cl)
{
	int opp = plat_cluster_opp_index(cl->pol.cl, cl->pol.cur_khz);

	cluster_sync_khz(s, (int)(cl - s->cl));
	if (opp < 0 || opp == cl->cur_opp)
		return;
	cl->cur_opp = opp;
	cl->transitions++;
	val_note_emulated(s, (int)(cl - s->cl), s->now, cl->pol.cur_khz);
	cl->freq_dirty = true;
	s->any_freq_dirty = true;
	timeline_note(s, cl, s->now, 0, true);
}

/* Tell the scheduler about frequency changes made inside a hook, once it has returned. */
static void sim_flush_freq(struct sim *s)
{
	if (!s->any_freq_dirty)
		return;
	s->any_freq_dirty = false;
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pol.cl;
		unsigned long scale;

		if (!cl->freq_dirty)
			continue;
		cl->freq_dirty = false;
		scale = ((unsigned long)cl->pol.cur_khz << SCHED_CAPACITY_SHIFT) /
			plat_cluster_max_khz(pc);
		for (int i = 0; i < pc->nr_cpus; i++)
			sched_set_freq_scale(s->sched, pc->cpus[i], s->now, scale);
		if (s->work)
			work_freq_changed(s->work, c, s->now);
	}
}

static void next_pending_refresh(struct sim *s);

static void sim_governor_update(struct sim *s, int cpu, u64 now, unsigned int flags)
{
	struct sim_cluster *cl = cluster_of(s, cpu);
	u32 before = cl->pol.cur_khz;

	cl->pol.gov->update(&cl->pol, cl->gov_data, cpu, now, flags);
	next_pending_refresh(s);
	cluster_sync_khz(s, s->cpu[cpu].cluster);
	if (cl->pol.cur_khz != before)
		sim_freq_changed(s, cl);
}

/* ---- hooks from the scheduler model --------------------------------------------------------- */

static void hook_uclamp_inc(void *ctx, int cpu, struct task *p)
{
	struct sim *s = ctx;
	uclamp_rq_inc(&s->uc, sched_cpu_uclamp(s->sched, cpu), &p->uclamp);
}

static void hook_uclamp_dec(void *ctx, int cpu, struct task *p)
{
	struct sim *s = ctx;
	uclamp_rq_dec(&s->uc, sched_cpu_uclamp(s->sched, cpu), &p->uclamp);
}

static void hook_cpufreq_update(void *ctx, int cpu, u64 now, unsigned int flags)
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
	uclamp_task_init(&s->uc, &p->uclamp, p->class == SCHED_CLASS_RT);
	if (s->cfg.policy)
		policy_apply_new_task(&s->uc, s->cfg.policy, now - s->t0, now, &p->uclamp, p->pid,
				      p->comm, s->astats);
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

static void hook_task_event(void *ctx, const struct task *p, int cpu, enum sched_task_event ev,
			    u64 now)
{
	struct sim *s = ctx;
	struct sim_task *st = p->owner_data;

	if (st) {
		if (ev == TASK_EV_SWITCH_IN)
			st->in_at_ns = now;
		else if (ev == TASK_EV_PREEMPT || ev == TASK_EV_SLEEP)
			st->runtime_ns += now - st->in_at_ns;
	}
	if (s->cfg.task_timeline) {
		u64 rel = now - s->t0;
		fprintf(s->cfg.task_timeline, "%" PRIu64 ".%06" PRIu64 ",%d,%s,%d,%s,%lu,%u,%u\n",
			(u64)(rel / NSEC_PER_SEC), (u64)((rel % NSEC_PER_SEC) / NSEC_PER_USEC), p->pid, p->comm,
			cpu, sched_task_event_name(ev), p->avg.util_avg, p->avg.util_est.enqueued,
			p->avg.util_est.ewma);
	}
}

/* ---- what the governor reads ---------------------------------------------------------------- */

static void env_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	struct sim *s = ctx;
	sched_cpu_util(s->sched, cpu, out);
	if (s->cfg.util_source == SIM_UTIL_TRACE) {
		const struct sched_cpu_util *t = &s->cpu[cpu].trace_util;
		out->util_avg = t->util_avg;
		out->util_est_enqueued = t->util_est_enqueued;
		out->util_cfs = t->util_cfs;
		out->util_rt = t->util_rt;
		out->util_dl = t->util_dl;
	}
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

	cluster_flush(s, sc->cluster);
	idle = sc->idle_total_ns;
	if (!sc->busy && now > s->last_acct)
		idle += now - s->last_acct;
	return idle;
}

static void env_on_eval(void *ctx, const struct gov_eval *e)
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
	cap = cl->pol.cl->opps[cl->cur_opp].capacity;
	overutil = raw > cap;
	if (clamp_dir != sc->clamp_dir || overutil != sc->overutil) {
		cluster_flush(s, sc->cluster);
		sc->clamp_dir = clamp_dir;
		sc->overutil = overutil;
	}
	timeline_note(s, cl, e->time_ns, e->util, false);
	if (s->validating) {
		struct sim_decision *le = &s->last_eval[sc->cluster];
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

	if (s->cfg.timeline) {
		u64 rel = e->time_ns - s->t0;
		fprintf(s->cfg.timeline,
			"%" PRIu64 ".%06" PRIu64 ",%d,%d,%lu,%lu,%lu,%lu,%u,%u,%lu,%u,%u\n",
			(u64)(rel / NSEC_PER_SEC), (u64)((rel % NSEC_PER_SEC) / NSEC_PER_USEC), e->cpu, e->policy,
			e->in.util_avg, e->in.util_est_enqueued, e->in.util_rt, e->in.util_dl,
			e->uclamp_min, e->uclamp_max, e->util, e->target_khz, e->freq_khz);
	}
}

/* ---- clamp policy --------------------------------------------------------------------------- */

typedef void (*policy_task_fn)(void *arg, struct uclamp_task *uc, s32 pid, const char *comm);

struct foreach_ctx {
	policy_task_fn fn;
	void *arg;
};

static void foreach_task_cb(void *ctx, struct task *p)
{
	struct foreach_ctx *fc = ctx;
	if (p->is_governor || p->pid == 0)
		return;
	fc->fn(fc->arg, &p->uclamp, p->pid, p->comm);
}

static void policy_for_each_task(void *ctx, policy_task_fn fn, void *arg)
{
	struct foreach_ctx fc = {fn, arg};
	struct sim *s = ctx;
	sched_for_each_task(s->sched, foreach_task_cb, &fc);
}

/* __sched_setscheduler / sched_move_task: a queued task is dequeued and enqueued around the
 * change, so its rq buckets are re-accounted at once. */
static void policy_requeue(void *ctx, s32 pid, int phase)
{
	struct sim *s = ctx;
	struct task *p = sched_task_find(s->sched, pid);
	if (!p || !p->on_rq)
		return;
	if (phase == 0) {
		hook_uclamp_dec(s, p->cpu, p);
		return;
	}
	hook_uclamp_inc(s, p->cpu, p);
	/* v5.9 enqueue_task_rt() -> enqueue_top_rt_rq() ends with cpufreq_update_util(rq, 0)
	 * ("Kick cpufreq"), so the new clamps of a queued RT task reach the governor now. (The
	 * CFS enqueue kicks only through a PELT decay or in_iowait: nothing at this instant, as
	 * the dequeue just updated the averages.) */
	if (p->class == SCHED_CLASS_RT)
		hook_cpufreq_update(s, p->cpu, s->now, 0);
}

/* uclamp_update_active() for a queued task whose group's effective clamps changed. */
static void policy_update_active(void *ctx, s32 pid, unsigned int clamp_mask)
{
	struct sim *s = ctx;
	struct task *p = sched_task_find(s->sched, pid);
	if (!p || !p->on_rq || (p->class != SCHED_CLASS_CFS && p->class != SCHED_CLASS_RT))
		return;
	for (int id = 0; id < UCLAMP_CNT; id++)
		if (clamp_mask & (1u << id))
			uclamp_update_active(&s->uc, sched_cpu_uclamp(s->sched, p->cpu), &p->uclamp,
					     (enum uclamp_id)id);
}

static u64 action_time(const struct sim *s, size_t k)
{
	if (!s->cfg.policy || k >= s->cfg.policy->n)
		return NO_TIME;
	return s->t0 + policy_action_time_ns(&s->cfg.policy->actions[k]);
}

static int sim_apply_action(struct sim *s, struct gs_error *err)
{
	size_t k = s->next_action++;
	const struct policy_action *a = &s->cfg.policy->actions[k];
	struct policy_ops ops = {s, policy_for_each_task, policy_requeue, policy_update_active};
	struct gs_error perr;
	int ret;

	s->next_action_ns = action_time(s, s->next_action);
	gs_error_clear(&perr);
	ret = policy_apply(&s->uc, a, s->now, &ops, s->astats ? &s->astats[k] : NULL, &perr);
	if (ret == GS_EPOLICY) {
		/* rejected by the kernel for some tasks (setattr against a task's current request):
		 * applied to the others; kept as a note of the run */
		if (!s->notes[0])
			snprintf(s->notes, sizeof(s->notes), "%s", perr.msg);
		ret = 0;
	}
	if (ret)
		return gs_error_set(err, ret, "%s", perr.msg);
	/* A queued RT task's enqueue in policy_requeue() kicked cpufreq_update_util(); CFS tasks'
	 * new clamps are seen at the next update point. */
	return 0;
}

/* ---- the loop ------------------------------------------------------------------------------- */

static void next_pending_refresh(struct sim *s)
{
	u64 t = NO_TIME;
	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].pol.pending && s->cl[c].pol.pending_at_ns < t)
			t = s->cl[c].pol.pending_at_ns;
	s->next_pending_ns = t;
}

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
	st->runtime_ns = st->delay_ns = st->max_delay_ns = 0;
	if (st->in_at_ns < s->now)
		st->in_at_ns = s->now; /* a running task's time counts from here */
}

/*
 * --warmup-ms: every signal starts cold (DESIGN.md §13), so a user may measure from a later
 * point. At s->now the counters are brought up to date and zeroed: residency, energy, busy
 * time, transitions, clamping, task runtime and delay, uclamp aggregation counts; idle
 * intervals in progress count from here. The replay itself (PELT, clamps, frequencies) is
 * untouched.
 */
static void sim_warmup_end(struct sim *s)
{
	u64 t = s->now;

	cluster_flush_all(s);
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
	sched_for_each_task(s->sched, warmup_reset_task, s);
	s->measured_from = t;
	s->warmup_at = NO_TIME;
}

/* Run the loop's own work (frequency changes, policy actions, ticks, blocked updates) with
 * times <= t, then bring the accounting to t. */
static int sim_advance(struct sim *s, u64 t, struct gs_error *err)
{
	for (;;) {
		u64 tp = s->next_pending_ns;
		u64 ta = s->next_action_ns;
		u64 tt = s->next_tick, tb = s->next_blocked;
		u64 nt = gs_min_u64(gs_min_u64(tp, ta), gs_min_u64(tt, tb));

		nt = gs_min_u64(nt, s->warmup_at);
		if (nt > t || nt == NO_TIME)
			break;
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
				cluster_sync_khz(s, c);
			}
			next_pending_refresh(s);
		} else if (ta == nt) {
			int ret = sim_apply_action(s, err);
			if (ret)
				return ret;
		} else if (tt == nt) {
			for (int c = 0; c < s->plat->nr_cpus; c++)
				if (s->cpu[c].busy)
					sched_tick(s->sched, c, nt);
			s->next_tick += s->tick_ns;
		} else {
			if (any_busy(s))
				for (int c = 0; c < s->plat->nr_cpus; c++)
					sched_update_blocked(s->sched, c, nt);
			s->next_blocked += BLOCKED_PERIOD_NS;
		}
		sim_flush_freq(s); /* nothing here switches tasks: busy states stay */
	}
	sim_account(s, t);
	if (t > s->now)
		s->now = t;
	return 0;
}

static bool is_util_event(enum event_type t)
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
static int sim_trace_util(struct sim *s, const struct event *ev)
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

static bool is_compared_event(enum event_type t)
{
	return t == EV_PELT_CFS || t == EV_LOAD_CFS_RQ || t == EV_LOAD_AVG_CPU ||
	       t == EV_UTIL_EST_CFS || t == EV_PELT_SE || t == EV_LOAD_SE || t == EV_LOAD_AVG_TASK ||
	       t == EV_UTIL_EST_SE || t == EV_PELT_RT;
}

static void val_add(struct sim_validation *v, enum sim_val_signal sig, u64 traced, u64 emulated)
{
	u64 d = traced > emulated ? traced - emulated : emulated - traced;
	v->n[sig]++;
	v->sum_abs[sig] += (double)d;
	if (d > v->max_abs[sig])
		v->max_abs[sig] = d;
}

/* govsim validate: the trace's own util signals against the emulated ones at that instant. */
static void sim_compare(struct sim *s, const struct event *ev)
{
	struct sched_cpu_util u;
	int cpu = ev->util.cpu >= 0 ? ev->util.cpu : ev->cpu;
	const struct task *p;

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
				ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED,
				u.util_est_enqueued & ~(unsigned long)UTIL_AVG_UNCHANGED);
		else if (ev->type == EV_PELT_RT)
			val_add(&s->val, SIM_VAL_CPU_UTIL_RT, ev->util.util, u.util_rt);
		else if (ev->util.util != EV_NO_VALUE)
			val_add(&s->val, SIM_VAL_CPU_UTIL, ev->util.util, u.util_avg);
		return;
	default:
		if (ev->util.pid <= 0 || ev->util.path == EV_PATH_GROUP)
			return;
		p = sched_task_find(s->sched, ev->util.pid);
		if (!p || p->is_governor)
			return;
		if (ev->type == EV_UTIL_EST_SE) {
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST,
				ev->util.util_est_enqueued & ~(u64)UTIL_AVG_UNCHANGED,
				p->avg.util_est.enqueued & ~(unsigned)UTIL_AVG_UNCHANGED);
			val_add(&s->val, SIM_VAL_TASK_UTIL_EST_EWMA, ev->util.util_est_ewma,
				p->avg.util_est.ewma);
		} else if (ev->util.util != EV_NO_VALUE) {
			bool born = task_data((struct task *)p) && task_data((struct task *)p)->born_in_trace;
			val_add(&s->val, born ? SIM_VAL_TASK_UTIL : SIM_VAL_TASK_UTIL_PRE, ev->util.util,
				p->avg.util_avg);
		}
		return;
	}
}

const struct sim_validation *sim_get_validation(const struct sim *s)
{
	return &s->val;
}

/* A cpu_frequency of a policy's first CPU that changes its traced frequency: a decision. */
static void val_note_decision(struct sim *s, int cpu, u64 t, u32 khz)
{
	int c = s->cpu[cpu].cluster;
	const struct plat_cluster *pc = s->cl[c].pol.cl;
	struct sim_decision *d;
	u32 prev = s->cpu[cpu].traced_khz;

	if (!s->validating || pc->cpus[0] != cpu)
		return;
	s->val.kernel_freq_events[c]++;
	if (prev == khz || !prev)
		return;
	if (s->val.nr_dec == s->cap_dec) {
		size_t n = s->cap_dec ? 2 * s->cap_dec : 64;
		void *p = realloc(s->val.dec, n * sizeof(*s->val.dec));
		if (!p)
			return;
		s->val.dec = p;
		s->cap_dec = n;
	}
	d = &s->val.dec[s->val.nr_dec++];
	*d = s->last_eval[c];
	d->t_ns = t;
	d->cluster = c;
	d->kernel_khz = khz;
	d->kernel_prev_khz = prev;
	d->emu_khz = s->cl[c].pol.cur_khz;
}

/* The emulated frequency in force at t (the last change at or before t). */
static u32 val_emu_at(const struct sim *s, int c, u64 t, size_t *idx)
{
	size_t lo = 0, hi = s->nr_emu_chg[c];

	while (lo < hi) { /* first change after t */
		size_t mid = (lo + hi) / 2;
		if (s->emu_chg[c][mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*idx = lo;
	return lo ? s->emu_chg[c][lo - 1].khz : s->emu_init_khz[c];
}

/* At the end: each decision against the emulated changes within its window. */
static void val_finish_decisions(struct sim *s)
{
	for (size_t i = 0; i < s->val.nr_dec; i++) {
		struct sim_decision *d = &s->val.dec[i];
		int c = d->cluster;
		u64 w = s->val.window_ns[c];
		u64 from = d->t_ns > w ? d->t_ns - w : 0;
		size_t k;
		u32 f = val_emu_at(s, c, from, &k);
		bool found = false;
		s64 best = 0;

		if (f == d->kernel_khz) {
			/* there at the window's start: since when (clipped to the window) */
			u64 since = k ? s->emu_chg[c][k - 1].t : s->t0;
			found = true;
			best = since > from ? (s64)(since - d->t_ns) : -(s64)w;
		}
		for (; k < s->nr_emu_chg[c] && s->emu_chg[c][k].t <= d->t_ns + w; k++) {
			s64 e = (s64)(s->emu_chg[c][k].t - d->t_ns);
			if (s->emu_chg[c][k].khz != d->kernel_khz)
				continue;
			if (!found || llabs(e) < llabs(best))
				best = e;
			found = true;
		}
		d->agree = found;
		d->timing_err_ns = found ? best : 0;
		s->val.decisions[c]++;
		if (found) {
			s->val.decisions_agree[c]++;
			s->val.sum_abs_timing_ns[c] += (double)llabs(best);
		}
	}
}

void sim_take_validation(struct sim *s, struct sim_validation *out)
{
	*out = s->val;
	s->val.dec = NULL;
	s->val.nr_dec = 0;
	s->cap_dec = 0;
}

void sim_validation_release(struct sim_validation *v)
{
	if (!v)
		return;
	free(v->dec);
	v->dec = NULL;
	v->nr_dec = 0;
}

static int check_cpu(const struct sim *s, int cpu, const struct event *ev, struct gs_error *err)
{
	if (cpu >= 0 && cpu < s->plat->nr_cpus)
		return 0;
	return gs_error_set(err, GS_ETRACE,
			    "line %" PRIu64 ": %s on CPU %d, but platform '%s' has %d CPUs (0-%d)",
			    ev->line, event_type_name(ev->type), cpu, s->plat->name, s->plat->nr_cpus,
			    s->plat->nr_cpus - 1);
}

static int sim_start(struct sim *s, u64 t, struct gs_error *err)
{
	s->started = true;
	s->t0 = t;
	s->measured_from = t;
	s->warmup_at = s->cfg.warmup_ns ? t + s->cfg.warmup_ns : NO_TIME;
	s->now = t;
	s->last_acct = t;
	s->next_tick = t - t % s->tick_ns + s->tick_ns;
	s->next_blocked = t - t % BLOCKED_PERIOD_NS + BLOCKED_PERIOD_NS;
	for (int c = 0; c < s->plat->nr_cpus; c++)
		s->cpu[c].idle_since_ns = t;
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		s->cl[c].all_idle = true;
		s->cl[c].all_idle_since_ns = t;
		s->cl[c].acct_ns = t;
		s->cl[c].acct_khz = s->cl[c].pol.cur_khz;
	}
	next_pending_refresh(s);
	s->next_action_ns = action_time(s, s->next_action);
	if (s->cfg.power_model == POWER_MODEL_WATTSON) {
		u32 khz[GS_MAX_CLUSTERS];
		for (int c = 0; c < s->plat->nr_clusters; c++)
			khz[c] = s->cl[c].pol.cur_khz;
		s->wattson = wattson_acc_new(s->plat, t, khz, err);
		if (!s->wattson)
			return err->code;
		/* every CPU idle from the start: chosen with hindsight, or with traced idle states
		 * the deepest until its first cpu_idle event (wattson_sync_cpu) */
		for (int c = 0; c < s->plat->nr_cpus; c++) {
			s->w_state[c] = W_PENDING;
			wattson_sync_cpu(s, c);
		}
	}
	return 0;
}

/* Apply one scheduling event at emulated time `now` (called by the traced path directly and by
 * the work-timing layer at emulated times). */
int sim_sched_event(struct sim *s, const struct event *ev, u64 now, struct gs_error *err)
{
	bool new_task = false;
	int ret = sim_advance(s, now, err);
	if (ret)
		return ret;
	if (s->validating && ev->type == EV_WAKEUP_NEW)
		new_task = sched_task_find(s->sched, ev->wake.pid) == NULL;
	ret = sched_event(s->sched, ev, now, err);
	if (ret)
		return ret;
	if (new_task) {
		struct task *p = sched_task_find(s->sched, ev->wake.pid);
		if (p && task_data(p))
			task_data(p)->born_in_trace = true;
	}
	if (s->cfg.update_points == SIM_UPDATE_CONTEXT_SWITCH && ev->type == EV_SWITCH)
		sim_governor_update(s, ev->cpu, now, 0);
	sim_flush_freq(s);
	if (ev->type == EV_SWITCH) /* only a switch changes what a CPU runs */
		sim_refresh_busy(s, ev->cpu);
	return 0;
}

int sim_feed(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (!s->started && (ret = sim_start(s, ev->ts_ns, err)))
		return ret;
	s->events++;

	switch (ev->type) {
	case EV_SWITCH:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_MIGRATE:
		ret = check_cpu(s, ev->cpu, ev, err);
		if (!ret && ev->type == EV_MIGRATE) {
			ret = check_cpu(s, ev->migrate.orig_cpu, ev, err);
			if (!ret)
				ret = check_cpu(s, ev->migrate.dest_cpu, ev, err);
		} else if (!ret && ev->type != EV_SWITCH) {
			ret = check_cpu(s, ev->wake.target_cpu, ev, err);
		}
		if (ret)
			return ret;
		if (s->work)
			return work_feed(s->work, ev, err);
		return sim_sched_event(s, ev, ev->ts_ns, err);
	case EV_CPU_FREQUENCY:
	case EV_FREQ_MARKER:
		if (check_cpu(s, (int)ev->power.cpu_id, ev, err))
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
		cluster_flush(s, s->cpu[ev->power.cpu_id].cluster);
		if (ev->type == EV_CPU_FREQUENCY)
			val_note_decision(s, (int)ev->power.cpu_id, ev->ts_ns, ev->power.state);
		s->cpu[ev->power.cpu_id].traced_khz = ev->power.state;
		s->cpu[ev->power.cpu_id].traced_seen = true;
		if (ev->type == EV_CPU_FREQUENCY)
			s->cpu[ev->power.cpu_id].traced_kernel = true;
		s->any_traced_freq = true;
		if (s->work)
			work_traced_freq(s->work, (int)ev->power.cpu_id, ev->power.state, ev->ts_ns);
		return 0;
	case EV_CPU_IDLE:
		if (check_cpu(s, (int)ev->power.cpu_id, ev, err))
			return GS_ETRACE;
		if (s->work || !s->cfg.has_traced_idle)
			return 0;
		ret = sim_advance(s, ev->ts_ns, err);
		if (ret)
			return ret;
		cluster_flush(s, s->cpu[ev->power.cpu_id].cluster);
		s->cpu[ev->power.cpu_id].traced_idle =
			ev->power.state == PWR_EVENT_EXIT ? -1 : (int)ev->power.state;
		s->w_idle_seen |= 1ull << ev->power.cpu_id;
		wattson_sync_cpu(s, (int)ev->power.cpu_id);
		return 0;
	default:
		break;
	}

	if (s->cfg.util_source == SIM_UTIL_EMULATED && is_compared_event(ev->type) && !s->work) {
		ret = sim_advance(s, ev->ts_ns, err);
		if (ret)
			return ret;
		sim_compare(s, ev);
	}
	if (ev->type == EV_PELT_SE || ev->type == EV_LOAD_SE || ev->type == EV_UTIL_EST_SE ||
	    ev->type == EV_LOAD_AVG_TASK) {
		if (s->cfg.seed_util)
			return sched_event(s->sched, ev, s->now, err);
		return 0;
	}
	if (s->cfg.seed_util &&
	    (ev->type == EV_PELT_CFS || ev->type == EV_LOAD_CFS_RQ || ev->type == EV_LOAD_AVG_CPU)) {
		/* the root cfs_rq's util before its CPU's first event seeds its blocked util */
		if (!s->work) {
			ret = sim_advance(s, ev->ts_ns, err);
			if (ret)
				return ret;
		}
		ret = sched_event(s->sched, ev, s->now, err);
		if (ret)
			return ret;
	}
	if (ev->type == EV_CSV_UTIL && check_cpu(s, ev->util.cpu, ev, err))
		return GS_ETRACE; /* a CSV row is all a CSV trace has: it must fit the platform */
	if (s->cfg.util_source == SIM_UTIL_TRACE && is_util_event(ev->type) && !s->work) {
		int cpu;
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
		if (ev->type == EV_CSV_UTIL && cpu >= 0) {
			struct sim_cpu *sc = &s->cpu[cpu];
			cluster_flush(s, sc->cluster);
			if (ev->util.freq_khz != EV_NO_VALUE) {
				sc->traced_khz = (u32)ev->util.freq_khz;
				sc->traced_seen = true;
				sc->traced_kernel = true;
				s->any_traced_freq = true;
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
					sc->traced_idle = ev->util.idle_state < 0
								  ? -1
								  : (int)ev->util.idle_state;
					s->w_idle_seen |= 1ull << cpu;
				}
				wattson_sync_cpu(s, cpu);
			}
			cluster_update_eager(s, sc->cluster);
			sim_refresh_busy(s, cpu);
		}
	}
	return 0;
}

/* ---- set-up and results --------------------------------------------------------------------- */

/* One rate-limit period: --set rate_limit_us when given, else the default schedutil takes. */
static u64 val_default_window_ns(const struct sim_config *cfg, const struct cpufreq_policy *pol)
{
	for (int i = 0; i < cfg->nr_params; i++) {
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

int sim_new(const struct sim_config *cfg, struct sim **out, struct gs_error *err)
{
	struct sim *s;
	struct sched_config sc = {0};
	struct sched_hooks hooks = {0};
	int ret;

	*out = NULL;
	if (cfg->power_model == POWER_MODEL_WATTSON && !cfg->plat->wattson.present)
		return gs_error_set(err, GS_EARG,
				    "--power-model wattson: platform '%s' has no wattson curves "
				    "(built-in models with them: tensor)",
				    cfg->plat->name);
	if (cfg->power_model == POWER_MODEL_WATTSON && cfg->warmup_ns)
		return gs_error_set(err, GS_EARG,
				    "--power-model wattson does not take --warmup-ms yet");
	s = calloc(1, sizeof(*s));
	if (!s)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	s->warmup_at = NO_TIME;
	s->cfg = *cfg;
	s->plat = cfg->plat;
	s->tick_ns = NSEC_PER_SEC / (u64)cfg->hz;
	uclamp_sys_init(&s->uc, cfg->uclamp_buckets);
	s->kp = cfg->kernel ? cfg->kernel : kernel_profile_default();
	s->validating = cfg->validate;
	uclamp_sys_set_profile(&s->uc, s->kp);
	if (!s->kp->uclamp_present && cfg->policy && cfg->policy->n) {
		const char *name = s->kp->name;
		free(s);
		return gs_error_set(err, GS_EPOLICY,
				    "kernel profile %s has no uclamp: clamp policies cannot apply "
				    "(choose --kernel v5.4 or later)",
				    name);
	}
	if (cfg->policy && cfg->policy->n &&
	    !(s->astats = calloc(cfg->policy->n, sizeof(*s->astats)))) {
		free(s);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}

	sc.nr_cpus = s->plat->nr_cpus;
	sc.kernel = s->kp;
	sc.hz = cfg->hz;
	sc.seed_util = cfg->seed_util;
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		sc.capacity[c] = s->plat->cpus[c].capacity;
		s->cpu[c].cluster = s->plat->cpus[c].cluster;
		s->cpu[c].traced_idle = -1;
		s->cpu[c].csv_busy = -1;
		s->cpu[c].traced_khz = cfg->initial_khz[c];
		if (cfg->initial_khz[c])
			s->any_traced_freq = true;
	}
	hooks.ctx = s;
	/* v4.19 has no uclamp: no enqueue/dequeue hook, nothing to count */
	hooks.uclamp_inc = s->kp->uclamp_present ? hook_uclamp_inc : NULL;
	hooks.uclamp_dec = s->kp->uclamp_present ? hook_uclamp_dec : NULL;
	hooks.cpufreq_update = hook_cpufreq_update;
	hooks.task_new = hook_task_new;
	hooks.task_event = hook_task_event;
	hooks.task_class_change = hook_task_class_change;
	ret = sched_new(&sc, &hooks, &s->sched);
	if (ret) {
		free(s->astats);
		free(s);
		return gs_error_set(err, ret, "cannot set up the scheduler model: %s",
				    gs_strerror(ret));
	}
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		/*
		 * init_uclamp_rq() (v5.9) leaves rq->uclamp_flags 0: on a freshly booted rq the first
		 * task's uclamp.max below 1024 cannot lower the rq value until the rq has once gone
		 * idle after a task of the top bucket. A traced system is not freshly booted: its
		 * CPUs have gone idle many times, so every rq starts as after such an idle period,
		 * with UCLAMP_FLAG_IDLE set and MAX 1024 retained (DESIGN.md §13).
		 */
		struct uclamp_rq_pair *rq = sched_cpu_uclamp(s->sched, c);
		uclamp_rq_init_sys(&s->uc, rq);
		rq->flags |= UCLAMP_FLAG_IDLE;
	}

	s->env.ctx = s;
	s->env.cpu_util = env_cpu_util;
	s->env.cpu_bw_dl = env_cpu_bw_dl;
	s->env.uclamp = s->kp->uclamp_present ? &s->uc : NULL;
	s->env.kernel = s->kp;
	s->env.cpu_uclamp = env_cpu_uclamp;
	s->env.cpu_idle_ns = env_cpu_idle_ns;
	s->env.on_eval = env_on_eval;
	s->env.hz = cfg->hz;

	for (int c = 0; c < s->plat->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = &s->plat->clusters[c];
		u64 lat = cfg->switch_latency_ns >= 0 ? (u64)cfg->switch_latency_ns
						      : pc->transition_latency_ns;
		u32 init = 0;

		for (int i = 0; i < pc->nr_cpus && !init; i++)
			init = cfg->initial_khz[pc->cpus[i]];
		cpufreq_policy_init(&cl->pol, c, pc, init ? init : plat_cluster_max_khz(pc), lat);
		cpufreq_policy_set_limits(&cl->pol, cfg->scaling_min_khz, cfg->scaling_max_khz);
		if (s->kp->resolve_relation == CPUFREQ_RESOLVE_LE)
			cpufreq_policy_set_efficiencies(&cl->pol);
		cl->pol.cur_khz = cpufreq_driver_resolve_freq(&cl->pol, cl->pol.cur_khz);
		cl->pol.gov = cfg->gov;
		cl->tl_bucket_ns = NSEC_PER_MSEC;
		ret = governor_init(cfg->gov, &cl->pol, &s->env, cfg->params, cfg->nr_params,
				    &cl->gov_data, err);
		if (ret) {
			sim_free(s);
			return ret;
		}
		/* performance, powersave and userspace set their frequency in init */
		s->emu_init_khz[c] = cl->pol.cur_khz;
		s->val.window_ns[c] = cfg->val_window_ns ? cfg->val_window_ns
							 : val_default_window_ns(cfg, &cl->pol);
		cl->cur_opp = plat_cluster_opp_index(pc, cl->pol.cur_khz);
		if (cl->cur_opp < 0)
			cl->cur_opp = pc->nr_opps - 1;
		for (int i = 0; i < pc->nr_cpus; i++)
			cl->cpu_mask |= 1ull << pc->cpus[i];
		/* The initial frequency's scale for PELT invariance. */
		for (int i = 0; i < pc->nr_cpus; i++)
			sched_set_freq_scale(s->sched, pc->cpus[i], 0,
					     ((unsigned long)cl->pol.cur_khz << SCHED_CAPACITY_SHIFT) /
						     plat_cluster_max_khz(pc));
	}

	if (cfg->timing == SIM_TIMING_WORK) {
		ret = work_new(s, s->plat, &s->work, err);
		if (ret) {
			sim_free(s);
			return ret;
		}
	}
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
	wattson_acc_free(s->wattson);
	work_free(s->work);
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		if (s->cl[c].pol.gov && s->cl[c].gov_data)
			s->cl[c].pol.gov->release(s->cl[c].gov_data);
		free(s->cl[c].tl);
	}
	if (s->sched) {
		sched_for_each_task(s->sched, free_task_data, NULL);
		sched_free(s->sched);
	}
	uclamp_sys_release(&s->uc);
	for (int c = 0; c < GS_MAX_CLUSTERS; c++)
		free(s->emu_chg[c]);
	free(s->val.dec);
	free(s->astats);
	free(s);
}

const struct policy_action_stats *sim_get_action_stats(const struct sim *s)
{
	return s->astats;
}

struct collect_ctx {
	struct run_result *r;
	int cap;
	bool oom;
};

static void collect_task(void *ctx, struct task *p)
{
	struct collect_ctx *cc = ctx;
	struct sim_task *st = task_data(p);
	struct run_task_result *t;

	if (!st || p->is_governor || p->pid == 0)
		return;
	if (cc->r->nr_tasks == cc->cap) {
		int n = cc->cap ? cc->cap * 2 : 64;
		void *q = realloc(cc->r->tasks, (size_t)n * sizeof(*cc->r->tasks));
		if (!q) {
			cc->oom = true;
			return;
		}
		cc->r->tasks = q;
		cc->cap = n;
	}
	t = &cc->r->tasks[cc->r->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = p->pid;
	snprintf(t->comm, sizeof(t->comm), "%s", p->comm);
	t->runtime_s = ns_to_s(st->runtime_ns);
	t->delay_s = ns_to_s(st->delay_ns);
	t->max_delay_s = ns_to_s(st->max_delay_ns);
}

void sim_task_delay(struct sim *s, struct task *p, u64 delay_ns)
{
	struct sim_task *st = task_data(p);
	(void)s;
	if (!st)
		return;
	st->delay_ns += delay_ns;
	if (delay_ns > st->max_delay_ns)
		st->max_delay_ns = delay_ns;
}

struct sched *sim_sched(struct sim *s)
{
	return s->sched;
}

u32 sim_cluster_khz(const struct sim *s, int cluster)
{
	return s->cl[cluster].pol.cur_khz;
}

int sim_advance_to(struct sim *s, u64 t, struct gs_error *err)
{
	int ret = sim_advance(s, t, err);
	sim_flush_freq(s);
	return ret;
}

u64 sim_next_internal_ns(const struct sim *s)
{
	u64 t = gs_min_u64(s->next_pending_ns, s->next_action_ns);
	t = gs_min_u64(t, s->warmup_at);
	return gs_min_u64(t, gs_min_u64(s->next_tick, s->next_blocked));
}

/*
 * --power-model wattson: the energy is the accumulator's (power/wattson.h), per CPU, per cluster
 * (its CPUs, its static power, and for CPU 0's cluster the interconnect) and in total, in J; the
 * notes say what it could not estimate.
 */
static int sim_wattson_finish(struct sim *s, u64 end, struct run_result *r, struct gs_error *err)
{
	const struct platform *p = s->plat;
	struct wattson_energy e;
	size_t len;
	int ret = wattson_acc_finish(s->wattson, end, &e, err);

	wattson_acc_free(s->wattson);
	s->wattson = NULL;
	if (ret)
		return ret;
	r->energy_total = 0;
	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		double cl = e.static_mj[c];
		for (int i = 0; i < pc->nr_cpus; i++) {
			r->energy_cpu[pc->cpus[i]] = e.cpu_mj[pc->cpus[i]] / 1000.0;
			cl += e.cpu_mj[pc->cpus[i]];
		}
		if (c == p->cpus[0].cluster)
			cl += e.interconnect_mj;
		r->energy_cluster[c] = cl / 1000.0;
		r->energy_total += cl / 1000.0;
	}
	len = strlen(r->notes);
	if (len < sizeof(r->notes))
		snprintf(r->notes + len, sizeof(r->notes) - len,
			 "%swattson: L3 power not estimated (needs DSU PMU counts, which the trace "
			 "does not carry)",
			 len ? "; " : "");
	if (e.missing_ns) {
		len = strlen(r->notes);
		if (len < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len,
				 "; wattson: no curve value for %.6f s (counted 0 mW, as Wattson)",
				 ns_to_s(e.missing_ns));
		if (e.dsu_unknown_ns && (len = strlen(r->notes)) < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len,
				 ", %.6f s of it for want of the DSU frequency (not in the trace)",
				 ns_to_s(e.dsu_unknown_ns));
		for (int i = 0; i < e.nr_miss; i++) {
			const struct wattson_miss *m = &e.miss[i];
			const struct plat_cluster *pc = &p->clusters[m->cluster];
			if (m->dep_cluster == PLAT_W_DSU && !m->dep_khz)
				continue;
			len = strlen(r->notes);
			if (len >= sizeof(r->notes))
				break;
			if (m->dep_cluster < 0 && m->dep_cluster != PLAT_W_DSU)
				snprintf(r->notes + len, sizeof(r->notes) - len,
					 "%s policy%d at %u kHz %.6f s", i ? "," : ":", pc->cpus[0],
					 m->khz, ns_to_s(m->ns));
			else
				snprintf(r->notes + len, sizeof(r->notes) - len,
					 "%s policy%d at %u kHz with %s%d at %u kHz %.6f s",
					 i ? "," : ":", pc->cpus[0], m->khz,
					 m->dep_cluster == PLAT_W_DSU ? "the DSU" : "policy",
					 m->dep_cluster == PLAT_W_DSU
						 ? 255
						 : p->clusters[m->dep_cluster].cpus[0],
					 m->dep_khz, ns_to_s(m->ns));
		}
		if (e.miss_dropped && (len = strlen(r->notes)) < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len, " and %" PRIu64 " more",
				 e.miss_dropped);
	}
	return 0;
}

int sim_finish(struct sim *s, struct run_result *r, struct gs_error *err)
{
	const struct platform *p = s->plat;
	struct collect_ctx cc = {r, 0, false};
	u64 end, span;
	int ret;

	if (!s->started)
		return gs_error_set(err, GS_ETRACE, "the trace has no usable event");
	if (s->work) {
		ret = work_finish(s->work, err);
		if (ret)
			return ret;
	}
	end = s->now;
	ret = sim_advance(s, end, err);
	if (ret)
		return ret;
	if (s->warmup_at != NO_TIME)
		return gs_error_set(err, GS_EARG,
				    "--warmup-ms %" PRIu64 ": the replay is only %.3f ms long",
				    (u64)(s->cfg.warmup_ns / NSEC_PER_MSEC),
				    (double)(end - s->t0) / (double)NSEC_PER_MSEC);
	cluster_flush_all(s);
	if (s->validating)
		val_finish_decisions(s);
	/* close the open hindsight idle intervals */
	for (int c = 0; c < p->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pol.cl;
		if (s->cfg.has_traced_idle || pc->nr_idle == 0)
			continue;
		for (int i = 0; i < pc->nr_cpus; i++) {
			struct sim_cpu *sc = &s->cpu[pc->cpus[i]];
			if (!sc->busy && end > sc->idle_since_ns)
				sc->idle_ns_state[power_pick_idle_state(pc, end - sc->idle_since_ns,
									  false)] +=
					end - sc->idle_since_ns;
		}
		if (cl->all_idle && end > cl->all_idle_since_ns)
			cl->idle_ns_state[power_pick_idle_state(pc, end - cl->all_idle_since_ns,
								  true)] += end - cl->all_idle_since_ns;
	}

	span = end - s->measured_from;
	r->start_s = ns_to_s(s->measured_from);
	r->span_s = ns_to_s(span);
	r->events = s->events;
	snprintf(r->platform, sizeof(r->platform), "%s", p->name);
	snprintf(r->governor, sizeof(r->governor), "%s", s->cfg.gov->name);
	snprintf(r->governor_path, sizeof(r->governor_path), "%s",
		 s->cfg.gov->path ? s->cfg.gov->path : "");
	snprintf(r->governor_sha256, sizeof(r->governor_sha256), "%s",
		 s->cfg.gov->sha256 ? s->cfg.gov->sha256 : "");
	snprintf(r->timing, sizeof(r->timing), "%s",
		 s->cfg.timing == SIM_TIMING_WORK ? "work" : "traced");
	snprintf(r->util_source, sizeof(r->util_source), "%s",
		 s->cfg.util_source == SIM_UTIL_TRACE ? "trace" : "emulated");
	snprintf(r->power_model, sizeof(r->power_model), "%s",
		 power_model_name(s->cfg.power_model));
	snprintf(r->power_unit, sizeof(r->power_unit), "%s",
		 s->cfg.power_model != POWER_MODEL_COSTS ? "J" : power_unit(p, s->cfg.power_model));
	snprintf(r->kernel, sizeof(r->kernel), "%s", s->kp->name);
	snprintf(r->govsim_version, sizeof(r->govsim_version), "%s", GOVSIM_VERSION);
	if (!s->any_traced_freq && s->cfg.timing == SIM_TIMING_WORK)
		snprintf(r->notes, sizeof(r->notes),
			 "the trace has no cpu_frequency events: traced work assumed at max "
			 "frequency%s%s",
			 s->notes[0] ? "; " : "", s->notes);
	else
		snprintf(r->notes, sizeof(r->notes), "%s", s->notes);
	{
		struct sched_stats st;
		size_t len = strlen(r->notes);
		sched_get_stats(s->sched, &st);
		if (st.switch_prev_mismatch + st.switch_next_elsewhere && len < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len,
				 "%s%" PRIu64 " sched_switch events disagreed with the model (events "
				 "lost by the tracer?), the trace was trusted",
				 len ? "; " : "", st.switch_prev_mismatch + st.switch_next_elsewhere);
	}
	if (s->cfg.kernel_note || s->uc.no_static_key) {
		size_t len = strlen(r->notes);
		if (len < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len, "%s%s%s%s", len ? "; " : "",
				 s->cfg.kernel_note ? s->cfg.kernel_note : "",
				 s->cfg.kernel_note && s->uc.no_static_key ? "; " : "",
				 s->uc.no_static_key ? "this kernel has no uclamp static key: clamp "
						       "aggregation always runs"
						     : "");
	}
	if (s->cfg.warmup_ns) {
		size_t len = strlen(r->notes);
		if (len < sizeof(r->notes))
			snprintf(r->notes + len, sizeof(r->notes) - len,
				 "%sthe first %" PRIu64 " ms are a warm-up, not measured", len ? "; " : "",
				 (u64)(s->cfg.warmup_ns / NSEC_PER_MSEC));
	}

	r->nr_cpus = p->nr_cpus;
	r->nr_clusters = p->nr_clusters;
	r->energy_total = 0;
	for (int c = 0; c < p->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pol.cl;
		struct run_policy_result *pr = &r->pol[c];
		double cl_energy = 0, freq_sum = 0;

		for (int i = 0; i < pc->nr_cpus; i++) {
			int cpu = pc->cpus[i];
			struct sim_cpu *sc = &s->cpu[cpu];
			double e = 0;
			for (int k = 0; k < pc->nr_opps; k++)
				e += power_cpu_busy(p, s->cfg.power_model, cpu, k) *
				     ns_to_s(sc->busy_ns_opp[k]);
			for (int k = 0; k < pc->nr_idle; k++)
				e += power_cpu_idle(p, s->cfg.power_model, cpu, k) *
				     ns_to_s(sc->idle_ns_state[k]);
			e /= 1000.0; /* mW x s -> J (costs: the model's unit x s / 1000) */
			r->energy_cpu[cpu] = e;
			cl_energy += e;
			pr->busy_s += ns_to_s(sc->busy_ns);
		}
		for (int k = 0; k < pc->nr_opps; k++)
			cl_energy += power_cluster_busy(p, s->cfg.power_model, c, k) *
				     ns_to_s(cl->busy_ns_opp[k]) / 1000.0;
		for (int k = 0; k < pc->nr_idle; k++)
			cl_energy += power_cluster_idle(p, s->cfg.power_model, c, k) *
				     ns_to_s(cl->idle_ns_state[k]) / 1000.0;
		r->energy_cluster[c] = cl_energy;
		r->energy_total += cl_energy;

		pr->policy = pc->cpus[0];
		pr->cluster = c;
		pr->nr_opps = pc->nr_opps;
		for (int k = 0; k < pc->nr_opps; k++) {
			pr->freq_khz[k] = pc->opps[k].freq_khz;
			pr->residency_s[k] = ns_to_s(cl->residency_ns[k]);
			freq_sum += (double)pc->opps[k].freq_khz * (double)cl->residency_ns[k];
		}
		pr->transitions = cl->transitions;
		/* a cluster nothing ran on has no average frequency to speak of (issue 11):
		 * NAN, "no activity" in the summary, NULL in the database, left out of compare */
		pr->avg_freq_khz = pr->busy_s <= 0 ? NAN
				   : span	     ? freq_sum / (double)span
						     : cl->pol.cur_khz;
		pr->overutilized_s = ns_to_s(s->overutil_ns[c]);
		if (cl->tl_pending)
			timeline_push(s, cl, end);
	}

	if (s->wattson) {
		int ret2 = sim_wattson_finish(s, end, r, err);
		if (ret2)
			return ret2;
	}

	/* timeline: concatenate the policies' points */
	{
		size_t n = 0, k = 0;
		for (int c = 0; c < p->nr_clusters; c++)
			n += s->cl[c].nr_tl;
		if (n) {
			r->timeline = malloc(n * sizeof(*r->timeline));
			if (!r->timeline)
				return gs_error_set(err, GS_ENOMEM, "out of memory");
			for (int c = 0; c < p->nr_clusters; c++) {
				if (!s->cl[c].nr_tl)
					continue;
				memcpy(&r->timeline[k], s->cl[c].tl,
				       s->cl[c].nr_tl * sizeof(*r->timeline));
				k += s->cl[c].nr_tl;
			}
			r->nr_timeline = n;
		}
	}

	r->key_on = s->uc.stats.key_on;
	r->key_on_at_s = s->uc.stats.key_on ? ns_to_s(s->uc.stats.key_on_at_ns - s->t0) : 0;
	r->agg_ops = s->uc.stats.agg_ops - s->agg_ops_base;
	r->agg_skipped = s->uc.stats.agg_skipped - s->agg_skipped_base;
	r->clamped_up_s = ns_to_s(s->clamped_up_ns);
	r->clamped_down_s = ns_to_s(s->clamped_down_ns);

	if (s->work)
		for (int c = 0; c < p->nr_cpus; c++) {
			double in, out;
			work_totals(s->work, c, &in, &out);
			r->work_in_s[c] = in / (double)NSEC_PER_SEC;
			r->work_out_s[c] = out / (double)NSEC_PER_SEC;
		}

	sched_for_each_task(s->sched, collect_task, &cc);
	if (cc.oom)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	return 0;
}

/* ---- pre-scan ------------------------------------------------------------------------------- */

int sim_prescan(const char *path, const struct reader_opts *opts, u64 max_events, int nr_cpus,
		bool need_idle, u32 initial_khz[GS_MAX_CPUS], bool *has_idle, struct gs_error *err)
{
	struct trace_reader *r;
	struct event ev;
	u64 n = 0;
	int known = 0, ret;

	memset(initial_khz, 0, GS_MAX_CPUS * sizeof(u32));
	*has_idle = false;
	if (strcmp(path, "-") == 0)
		return 0;
	ret = trace_reader_open(path, opts, &r, err);
	if (ret)
		return ret;
	/* stop as soon as every CPU has a frequency and, if asked, idle events were seen */
	while (n++ < max_events && (known < nr_cpus || (need_idle && !*has_idle)) &&
	       (ret = trace_reader_next(r, &ev, err)) == 1) {
		int cpu = -1;
		u32 khz = 0;
		if (ev.type == EV_CPU_FREQUENCY || ev.type == EV_FREQ_MARKER) {
			cpu = (int)ev.power.cpu_id;
			khz = ev.power.state;
		} else if (ev.type == EV_CSV_UTIL && ev.util.freq_khz != EV_NO_VALUE) {
			cpu = ev.util.cpu;
			khz = (u32)ev.util.freq_khz;
		}
		if (cpu >= 0 && cpu < GS_MAX_CPUS && !initial_khz[cpu] && khz) {
			initial_khz[cpu] = khz;
			if (cpu < nr_cpus)
				known++;
		}
		if (ev.type == EV_CPU_IDLE ||
		    (ev.type == EV_CSV_UTIL && ev.util.idle_state != EV_IDLE_ABSENT))
			*has_idle = true;
	}
	trace_reader_free(r);
	gs_error_clear(err);
	return 0; /* errors are reported by the real pass */
}
