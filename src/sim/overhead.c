/*
 * overhead.c - the kernel's own overhead in the replay (docs/kernel-overhead.md): every
 * enqueue/dequeue (with its cgroup levels and its uclamp aggregation or static-key test),
 * cpufreq_update_util call, governor evaluation and frequency switch the emulated kernel makes
 * is counted and costed from the platform's kernel cost table (kernel/kernel_cost.h) at the
 * emulated frequency of its CPU. In work timing the difference between the emulated configuration and
 * the traced one is charged to the replay as work (work.h: kernel_work): the traced slices
 * already contain the traced kernel's own enqueue/dequeue costs.
 *
 * What is charged: enqueues and dequeues only, whose cost depends on the configuration
 * (uclamp built, key on, cgroup depth). cpufreq_update_util calls, governor evaluations and
 * frequency switches are counted and costed in the report, not charged: the traced kernel made
 * its own, which a trace does not show.
 *
 * Every replay has the model (s->ovh, made by sim_ovh_observe): the loop calls its counts
 * directly at its points (sim_ovh_rq_task, sim_ovh_update_util, sim_ovh_gov_eval,
 * sim_ovh_opp_change), as they are in every replay; what is not on the event path (the warm-up's
 * reset, the results, the release) is an observer's (observer.h). The counts change only the
 * model's own sums, which no other observer reads, so calling them before the observers of the
 * same point changes nothing. The work layer's charge (sim_ovh_kernel_work, which changes the
 * replay) reaches the same state through s->ovh.
 */
#include "sim/sim_priv.h"

#include <stdlib.h>
#include <string.h>

/* The cost table, the emulated and the traced kernel's configuration, and what the emulated
 * kernel did so far. */
struct sim_ovh {
	struct kcost kc;
	bool uclamp;             /* emulated: CONFIG_UCLAMP_TASK (the profile's, and --set) */
	int extra_depth;         /* emulated: cgroup levels above every task's own group */
	bool flat;               /* no attach action: every task in the root group (policy_apply.c
				  * moves tasks only there), at extra_depth */
	bool charging;           /* the work layer asks sim_ovh_kernel_work() (sim_ovh_follow) */
	struct kcost_config traced;
	u64 calls[KC__COUNT];
	double time_ns[KC__COUNT];
	double charged_ns;
	u64 by_depth[RUN_DEPTH_SLOTS];
	struct kcost_time_memo memo[GS_MAX_CPUS][KC__COUNT]; /* add()'s time of one call */
	/* A flat run's charge (sim_ovh_kernel_work()): the configuration it was computed for,
	 * the work of a dequeue [0] and an enqueue [1] there, and its time on each CPU at the
	 * frequency last asked; recomputed when the configuration changes (the key turning on) */
	bool charge_known;
	struct kcost_config charge_cfg;
	double charge_work[2];
	struct kcost_time_memo charge_time[GS_MAX_CPUS][2];
	const u32 *cur_khz[GS_MAX_CPUS]; /* each CPU's policy's frequency (its cluster's pol.cur_khz) */
};

_Static_assert(RUN_KERNEL_OPS == KC__COUNT, "result.h's RUN_KERNEL_OPS follows enum kcost_op");

int sim_ovh_check_policy(const struct sim_config *cfg, struct gs_error *err)
{
	for (size_t k = 0; !cfg->uclamp_task && cfg->opts.policy && k < cfg->opts.policy->n; k++) {
		const struct policy_action *a = &cfg->opts.policy->actions[k];
		if (a->op != POLICY_ATTACH)
			return gs_error_set(err, GS_EPOLICY,
					    "'%s':%ld: --set uclamp_task=0 has no uclamp: only attach "
					    "actions apply",
					    a->origin, a->line);
	}
	return 0;
}

static void ovh_init(const struct sim *s, struct sim_ovh *o)
{
	u32 cap[GS_MAX_CPUS];

	o->kc = s->plat->kcost;
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		cap[c] = s->plat->cpus[c].capacity;
		o->cur_khz[c] = &s->cl[s->plat->cpus[c].cluster].pol.cur_khz;
	}
	kcost_set_capacity(&o->kc, cap);
	o->uclamp = s->kp->uclamp_present && s->cfg.uclamp_task;
	o->extra_depth = s->cfg.cgroup_depth;
	o->flat = true;
	for (size_t k = 0; s->cfg.opts.policy && k < s->cfg.opts.policy->n; k++)
		o->flat &= s->cfg.opts.policy->actions[k].op != POLICY_ATTACH;
	if (s->cfg.opts.has_traced_config)
		o->traced = s->cfg.opts.traced;
	else
		kcost_config_default(&o->traced);
}

/* The task's cgroup depth: its group's ancestors, plus the levels above every task. */
static int task_depth(const struct sim *s, const struct task *p)
{
	int d = s->ovh->extra_depth;

	for (int g = p->uclamp.group; g > 0 && g < s->uc.nr_groups; g = s->uc.groups[g].parent)
		d++;
	return d;
}

/* "/" 0, "/a" 1, "/a/b" 2 */
static int path_depth(const char *path)
{
	int d = 0;

	for (const char *c = path; *c; c++)
		if (*c == '/' && c[1])
			d++;
	return d;
}

/* A task the emulation has not met yet (the trace is read ahead of it): the depth of the group
 * the policy's attach actions run so far put it in. */
static int policy_depth(const struct sim *s, s32 pid, const char *comm)
{
	int d = 0;

	for (size_t k = 0; s->cfg.opts.policy && k < s->cfg.opts.policy->n && k < s->next_action; k++) {
		const struct policy_action *a = &s->cfg.opts.policy->actions[k];
		if (a->op == POLICY_ATTACH && policy_match(a, pid, comm))
			d = path_depth(a->path);
	}
	return d + s->ovh->extra_depth;
}

static struct kcost_config emu_config(const struct sim *s, int depth)
{
	return (struct kcost_config){
		.uclamp = s->ovh->uclamp,
		.static_key = !s->uc.no_static_key,
		.key_on = uclamp_is_used(&s->uc),
		.depth = depth,
	};
}

/* Whether two configurations cost the same path: every field kcost_sched_work() reads equal. */
static bool same_config(const struct kcost_config *a, const struct kcost_config *b)
{
	return a->uclamp == b->uclamp && a->static_key == b->static_key &&
	       a->key_on == b->key_on && a->depth == b->depth;
}

/* ns that capacity-invariant work takes on cpu now; through memo when given (the answer for
 * this work on this CPU, kept until the frequency changes). */
static double cpu_time_ns(const struct sim *s, int cpu, double work_ns,
			  struct kcost_time_memo *memo)
{
	const struct sim_cluster *cl = &s->cl[s->cpu[cpu].cluster];
	u32 cap = s->plat->cpus[cpu].capacity, max_khz = plat_cluster_max_khz(cl->pc);

	if (memo)
		return kcost_time_ns_memo(memo, work_ns, cap, cl->pol.cur_khz, max_khz);
	return kcost_time_ns(work_ns, cap, cl->pol.cur_khz, max_khz);
}

static void add(const struct sim *s, struct sim_ovh *o, int cpu, enum kcost_op op, u64 n)
{
	o->calls[op] += n;
	/* No call (a task in the root group: no cgroup level): its time is +0.0 (the table's
	 * costs are finite and >= 0, platform_kernel_cost.c), and the sum stays as it is. */
	if (n == 1) { /* (double)1 * w is w, bit for bit: the memo's fixed work */
		const struct kcost_time_memo *m = &o->memo[cpu][op];

		/* the memo's frequency still in force (the common case): its answer, without
		 * looking up the CPU's capacity and its cluster's top OPP */
		if (m->khz == *o->cur_khz[cpu])
			o->time_ns[op] += m->ns;
		else
			o->time_ns[op] += cpu_time_ns(s, cpu, o->kc.work_ns[op], &o->memo[cpu][op]);
	} else if (n)
		o->time_ns[op] += cpu_time_ns(s, cpu, (double)n * o->kc.work_ns[op], NULL);
}

void sim_ovh_rq_task(struct sim *s, int cpu, const struct task *p, bool enqueue)
{
	struct sim_ovh *o = s->ovh;
	int depth = task_depth(s, p);
	struct kcost_config cfg = emu_config(s, depth);

	add(s, o, cpu, enqueue ? KC_ACTIVATE : KC_DEACTIVATE, 1);
	if (depth) /* none in the root group: add() would count 0 calls and no time */
		add(s, o, cpu, KC_CGROUP_LEVEL, (u64)depth);
	o->by_depth[depth < RUN_DEPTH_SLOTS ? depth : RUN_DEPTH_SLOTS - 1]++;
	if (!cfg.uclamp)
		return;
	if (cfg.static_key)
		add(s, o, cpu, KC_UCLAMP_BRANCH, 1);
	if ((cfg.key_on || !cfg.static_key) && p->uclamp.class_enabled)
		add(s, o, cpu, enqueue ? KC_UCLAMP_INC_ID : KC_UCLAMP_DEC_ID, KCOST_CLAMP_IDS);
}

void sim_ovh_update_util(struct sim *s, int cpu)
{
	add(s, s->ovh, cpu, KC_UPDATE_UTIL, 1);
}

void sim_ovh_gov_eval(struct sim *s, int cpu)
{
	add(s, s->ovh, cpu, KC_GOV_EVAL, 1);
}

/* A frequency switch, made on the policy's first CPU. */
void sim_ovh_opp_change(struct sim *s, int cluster)
{
	add(s, s->ovh, s->cl[cluster].pc->cpus[0], KC_FREQ_SWITCH, 1);
}

/* sim_ovh_kernel_work() in a flat run: every task at extra_depth, so the charge is one of two
 * values until the configuration changes, and its time one per CPU and frequency. The same
 * arithmetic as the general path, done once: the same doubles. */
static double flat_kernel_work(struct sim *s, struct sim_ovh *o, int cpu, bool enqueue)
{
	struct kcost_config emu = emu_config(s, o->extra_depth);
	const struct sim_cluster *cl;

	if (same_config(&emu, &o->traced))
		return 0;
	if (!o->charge_known || !same_config(&emu, &o->charge_cfg)) {
		o->charge_known = true;
		o->charge_cfg = emu;
		for (int e = 0; e < 2; e++)
			o->charge_work[e] = kcost_sched_delta(&o->kc, &emu, &o->traced, e);
		memset(o->charge_time, 0, sizeof(o->charge_time));
	}
	cl = &s->cl[s->cpu[cpu].cluster];
	o->charged_ns += kcost_time_ns_memo(&o->charge_time[cpu][enqueue], o->charge_work[enqueue],
					    s->plat->cpus[cpu].capacity, cl->pol.cur_khz,
					    plat_cluster_max_khz(cl->pc));
	return o->charge_work[enqueue];
}

/* work_host.kernel_work: asked as the trace is read, so the configuration is the emulation's
 * at that point (a policy action that turns the key on counts from when the loop ran it). */
double sim_ovh_kernel_work(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue)
{
	struct sim *s = ctx;
	const struct task *p;
	struct kcost_config emu;
	double d;

	if (!s->ovh->kc.present)
		return 0;
	if (s->ovh->flat)
		return flat_kernel_work(s, s->ovh, cpu, enqueue);
	p = sched_task_find(s->sched, pid);
	emu = emu_config(s, p ? task_depth(s, p) : policy_depth(s, pid, comm));
	/* The traced kernel's path (the default): its cost less itself, +0.0, whose time is +0.0
	 * too; the sum it would be added to is never -0.0, so nothing changes. */
	if (same_config(&emu, &s->ovh->traced))
		return 0;
	d = kcost_sched_delta(&s->ovh->kc, &emu, &s->ovh->traced, enqueue);
	s->ovh->charged_ns += cpu_time_ns(s, cpu, d, NULL);
	return d;
}

/* Whether sim_ovh_kernel_work() may answer other than 0 from now on. In a flat run every ask
 * meets the configuration of the moment at extra_depth, which changes only where the static key
 * flips on (a policy application), and then stays; an attach action gives tasks depths of
 * their own, so such a run is asked throughout. */
static bool ovh_may_charge(const struct sim *s)
{
	struct kcost_config emu;

	if (!s->ovh->kc.present)
		return false;
	if (!s->ovh->flat)
		return true;
	emu = emu_config(s, s->ovh->extra_depth);
	return !same_config(&emu, &s->ovh->traced);
}

void sim_ovh_follow(struct sim *s)
{
	if (!s->work || s->ovh->charging || !ovh_may_charge(s))
		return;
	s->ovh->charging = true;
	work_set_kernel_work(s->work, sim_ovh_kernel_work);
}

static void ovh_warmup(struct sim *s, void *state, u64 t)
{
	struct sim_ovh *o = state;

	(void)s;
	(void)t;
	memset(o->calls, 0, sizeof(o->calls));
	memset(o->time_ns, 0, sizeof(o->time_ns));
	memset(o->by_depth, 0, sizeof(o->by_depth));
	o->charged_ns = 0;
}

static int ovh_finish(struct sim *s, void *state, u64 end, struct run_result *r,
		      struct gs_error *err)
{
	const struct sim_ovh *ovh = state;
	struct run_overhead *o = &r->ovh;

	(void)end;
	(void)err;
	o->costed = ovh->kc.present;
	o->total_s = 0;
	for (int i = 0; i < KC__COUNT; i++) {
		o->calls[i] = ovh->calls[i];
		o->time_s[i] = ovh->time_ns[i] / (double)NSEC_PER_SEC;
		o->total_s += o->time_s[i];
	}
	o->charged_s = s->work ? ovh->charged_ns / (double)NSEC_PER_SEC : 0;
	memcpy(o->sched_by_depth, ovh->by_depth, sizeof(o->sched_by_depth));
	return 0;
}

int sim_ovh_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_OVERHEAD,
		.warmup = ovh_warmup,
		.finish = ovh_finish,
		.release = free,
	};
	struct sim_ovh *ovh = calloc(1, sizeof(*ovh));
	int ret;

	if (!ovh)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ovh_init(s, ovh);
	o.state = ovh;
	ret = sim_observers_add(&s->obs, &o, err);
	if (ret) {
		free(ovh);
		return ret;
	}
	s->ovh = ovh;
	return 0;
}
