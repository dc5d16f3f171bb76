/*
 * fair.c - the CFS class of the scheduler model: the PELT and util_est update points of
 * Linux v5.9 kernel/sched/fair.c, kernel names kept: update_load_avg, update_cfs_rq_load_avg,
 * attach/detach_entity_load_avg, detach_entity_cfs_rq, remove_entity_load_avg,
 * migrate_task_rq_fair, post_init_entity_util_avg, enqueue_task_fair (enqueue_entity),
 * dequeue_task_fair (dequeue_entity), set_next_task_fair (set_next_entity), put_prev_task_fair
 * (put_prev_entity), task_tick_fair (entity_tick), update_blocked_averages
 * (sched_update_blocked). Written from a reading of the v5.8/v5.10 sources; not
 * copied.
 *
 * Differences from v5.9 fair.c, and why:
 * - No group scheduling (no task groups in a trace's model): one root cfs_rq per CPU, the
 *   se hierarchy is the task alone, UPDATE_TG and propagate_entity_load_avg do nothing.
 * - A CFS task's load weight is its nice's, read off the prio the trace shows
 *   (sched_prio_to_weight[], task_class.c prio_to_weight()); a new prio seen in any of its
 *   events (sched_waking, sched_migrate_task, sched_wakeup, sched_switch) reweights it there
 *   (reweight_task_fair()), not at the set_user_nice() the trace does not show. From v6.12
 *   post_init_entity_util_avg() divides by the cfs_rq's load: a nice -20 kworker's load
 *   makes the next forked tasks' first util tiny. EEVDF keeps the nice-0 weight
 *   (fair_eevdf.c).
 * - No pick order, no preemption: the trace (or the work timing) says who runs. Vruntime and
 *   EEVDF's eligibility are kept only for the v6.12+ delayed dequeue (fair_eevdf.c, whose top
 *   says how its picks follow the trace).
 * - v6.12+: the fair server (rq->fair_server) is started at a CPU's first fair enqueue and its
 *   bandwidth kept (its runtime, deferral and zero-lag timer are not modelled).
 * - migrate_task_rq_fair() for a sleeping task syncs it to the source cfs_rq's
 *   last_update_time as the kernel does without the rq lock; the removed load is applied at
 *   that cfs_rq's next update_cfs_rq_load_avg(), as the kernel's. From v6.0 a task leaving an
 *   idle CPU is then decayed to an estimate of now (migrate_se_pelt_lag()), whose
 *   sched_clock_cpu() read is taken at the migration's trace stamp: the kernel reads it after
 *   remove_entity_load_avg(), a few us later (on the lab's emulated guests with the PELT
 *   module's events, 10 to 90 us).
 * - The cfs_rq's sums after a removal or detach follow the profile (pelt_sum_sync): v5.9
 *   subtracts them; Debian 5.10.223 rebuilds some as avg * divider; 6.1+ floors them.
 * - update_blocked_averages(): no irq signal (the trace has no irq time); thermal pressure
 *   is not modelled.
 * - The profiles (kernel/profile.h) select the v4.19 contribution scaling (no clock_pelt),
 *   the util_est variant and whether blocked decay kicks cpufreq.
 * - Added (not kernel): a seeded task (--seed-util) takes its share out of its CPU's seeded
 *   blocked util when it first attaches (trace_start.c).
 */
#include "sched/sched_priv.h"

#include <string.h>

#include "pelt_tables.h"

/* cfs_rq_util_change(): the root cfs_rq changed: cpufreq_update_util(rq, 0) */
static void cfs_rq_util_change(struct sched *s, struct rq *rq)
{
	cpufreq_update_util(s, rq, 0);
}

#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024) /* kernel/sched/pelt.h */

/*
 * The floor the kernel keeps a sum at after averages leave it: avg * PELT_MIN_DIVIDER, the
 * least a sum can hold for its avg whatever period_contrib has become (Debian 6.1/6.12
 * update_cfs_rq_load_avg(), detach_entity_load_avg(), dequeue_load_avg(): max_t(u32, ...), both
 * sides cut to u32; 7.2 __update_sa(): max_t(typeof(sum), ...)).
 */
static u64 pelt_sum_floor(u64 sum, unsigned long avg, enum pelt_sum_sync rule)
{
	u64 floor = (u64)avg * PELT_MIN_DIVIDER;

	if (rule == PELT_SUMS_FLOORED_TYPED)
		return sum > floor ? sum : floor;
	return (u32)sum > (u32)floor ? (u32)sum : (u32)floor;
}

/* The three sums floored, as 6.1+ does after a removal and after a detach alike. */
static void pelt_sums_floor(struct sched_avg *sa, enum pelt_sum_sync rule)
{
	sa->load_sum = pelt_sum_floor(sa->load_sum, sa->load_avg, rule);
	sa->util_sum = (u32)pelt_sum_floor(sa->util_sum, sa->util_avg, rule);
	sa->runnable_sum = pelt_sum_floor(sa->runnable_sum, sa->runnable_avg, rule);
}

/*
 * Apply the removed load of tasks that left asleep or died, then advance the cfs_rq. The sums
 * follow the profile's rule (kernel/profile.h, enum pelt_sum_sync): subtracted (v5.9), rebuilt
 * from the averages for load and runnable (Debian 5.10.223 l.3673/3693, 5.15.100) or
 * subtracted and floored (Debian 6.1 l.4038-4061, 6.12 l.4712-4735, 7.2 l.5665-5671).
 */
int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs, const struct pelt_variant *pv)
{
	struct sched_avg *sa = &cfs->avg;
	int decayed = 0;

	if (cfs->removed.nr) {
		enum pelt_sum_sync rule = pv ? pv->sum_sync : PELT_SUMS_SUBTRACT;
		u32 divider = get_pelt_divider(sa);

		sub_positive_ul(&sa->load_avg, cfs->removed.load_avg);
		sub_positive_u64(&sa->load_sum, (u64)cfs->removed.load_avg * divider);
		sub_positive_ul(&sa->util_avg, cfs->removed.util_avg);
		/* sub_positive() truncates the value to the type of util_sum (u32) */
		sub_positive_u32(&sa->util_sum, (u32)(cfs->removed.util_avg * divider));
		sub_positive_ul(&sa->runnable_avg, cfs->removed.runnable_avg);
		sub_positive_u64(&sa->runnable_sum, (u64)cfs->removed.runnable_avg * divider);
		if (rule == PELT_SUMS_RESYNC) {
			sa->load_sum = (u64)sa->load_avg * divider;
			sa->util_sum = (u32)pelt_sum_floor(sa->util_sum, sa->util_avg, rule);
			sa->runnable_sum = (u64)sa->runnable_avg * divider;
		} else if (rule != PELT_SUMS_SUBTRACT) {
			pelt_sums_floor(sa, rule);
		}
		memset(&cfs->removed, 0, sizeof(cfs->removed));
		decayed = 1;
	}
	decayed |= __update_load_avg_cfs_rq(now, sa, cfs->load, cfs->h_nr_running,
					    cfs->curr != NULL, pv);
	return decayed;
}

/* dequeue_load_avg(): an se's load leaves the cfs_rq's, clamped at 0; from 6.1 the sum is then
 * floored at avg * PELT_MIN_DIVIDER (Debian 6.1 l.3291, 6.12 l.3777; 7.2 __update_sa()). */
static void dequeue_load_avg(struct rq *rq, const struct sched_avg *se, unsigned long w)
{
	struct sched_avg *sa = &rq->cfs.avg;

	sub_positive_ul(&sa->load_avg, se->load_avg);
	sub_positive_u64(&sa->load_sum, w * se->load_sum);
	if (rq->pv.sum_sync == PELT_SUMS_FLOORED || rq->pv.sum_sync == PELT_SUMS_FLOORED_TYPED)
		sa->load_sum = pelt_sum_floor(sa->load_sum, sa->load_avg, rq->pv.sum_sync);
}

/* enqueue_load_avg(): an se's load joins the cfs_rq's (7.2's __update_sa() floors it too). */
static void enqueue_load_avg(struct rq *rq, const struct sched_avg *se, unsigned long w)
{
	struct sched_avg *sa = &rq->cfs.avg;

	sa->load_avg += se->load_avg;
	sa->load_sum += w * se->load_sum;
	if (rq->pv.sum_sync == PELT_SUMS_FLOORED_TYPED)
		sa->load_sum = pelt_sum_floor(sa->load_sum, sa->load_avg, rq->pv.sum_sync);
}

/* reweight_entity()'s PELT part: the se's load leaves at its weight, its load_avg is rebuilt
 * from its own sum at the new one, se_weight * load_sum / divider, and joins again. */
static void reweight_load_avg(struct rq *rq, struct sched_avg *se, unsigned long old_w,
			      unsigned long w)
{
	dequeue_load_avg(rq, se, old_w);
	se->load_avg = (unsigned long)(w * se->load_sum / get_pelt_divider(se));
	enqueue_load_avg(rq, se, w);
}

/* attach_entity_load_avg()'s arithmetic: the se takes the cfs_rq's clock (its decay window),
 * its sums are rebuilt from its averages at the cfs_rq's divider (the kernel's "this isn't
 * strictly correct" truncation), and its averages join the cfs_rq's. */
static void attach_avg(struct rq *rq, struct sched_avg *se, unsigned long w)
{
	struct cfs_rq *cfs = &rq->cfs;
	u32 divider = get_pelt_divider(&cfs->avg);

	se->last_update_time = cfs->avg.last_update_time;
	se->period_contrib = cfs->avg.period_contrib;
	se_sums_from_avgs(se, divider, w);
	/* from 1c35b07e6d39's resync on: a sum under one weight is 1, not 0 */
	if (rq->pv.sum_sync != PELT_SUMS_SUBTRACT && (u64)se->load_avg * divider <= w)
		se->load_sum = 1;

	enqueue_load_avg(rq, se, w);
	cfs->avg.util_avg += se->util_avg;
	cfs->avg.util_sum += se->util_sum;
	cfs->avg.runnable_avg += se->runnable_avg;
	cfs->avg.runnable_sum += se->runnable_sum;
}

static void attach_entity_load_avg(struct sched *s, struct rq *rq, struct task *p)
{
	struct sched_avg *se = &p->avg;
	struct task_node *n = (struct task_node *)p;

	if (n->absorb) {
		n->absorb = false;
		if (rq->has_blocked_seed)
			absorb_blocked_seed(rq, p);
	}

	attach_avg(rq, se, p->weight);
	cfs_rq_util_change(s, rq);
}

/* The averages and sums of se leave the cfs_rq's sa (dequeue_load_avg() and the subtractions of
 * detach_entity_load_avg()), before any rule of the profile's on what the sums keep. */
static void detach_avg(struct sched_avg *sa, const struct sched_avg *se, unsigned long w)
{
	sub_positive_ul(&sa->load_avg, se->load_avg); /* dequeue_load_avg() */
	sub_positive_u64(&sa->load_sum, w * se->load_sum);
	sub_positive_ul(&sa->util_avg, se->util_avg);
	sub_positive_u32(&sa->util_sum, se->util_sum);
	sub_positive_ul(&sa->runnable_avg, se->runnable_avg);
	sub_positive_u64(&sa->runnable_sum, se->runnable_sum);
}

/* detach_entity_load_avg(): the sums per the profile's rule, as at a removal; the load's
 * (dequeue_load_avg()) is only floored, never rebuilt (Debian 5.10.223 l.3778-3790, 6.1 l.3291
 * and l.4143, 6.12 l.3777 and l.4817, 7.2 l.4762 and l.5753). */
static void detach_entity_load_avg(struct sched *s, struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_avg *se = &p->avg;
	struct sched_avg *sa = &cfs->avg;
	enum pelt_sum_sync rule = rq->pv.sum_sync;
	u32 divider = get_pelt_divider(sa);

	detach_avg(sa, se, p->weight);
	if (rule == PELT_SUMS_RESYNC) {
		sa->util_sum = (u32)(sa->util_avg * divider);
		sa->runnable_sum = (u64)sa->runnable_avg * divider;
	} else if (rule != PELT_SUMS_SUBTRACT) {
		pelt_sums_floor(sa, rule);
	}
	cfs_rq_util_change(s, rq);
}

/*
 * The lab's snapshot of a task the replay already started (its first events came before the
 * snapshot's marker) and has asleep on the snapshot's CPU: the snapshot, as the kernel held
 * it at its last_update_time, replaces what the replay built from the trace's first
 * milliseconds alone (not a kernel path: govsim's start_state). Both are brought to the
 * cfs_rq's last update as a removal syncs a sleeping se (sync_entity_load_avg()); the replay's
 * averages leave the cfs_rq, the snapshot's join it with sums rebuilt as an attach rebuilds
 * them. No cpufreq kick: nothing happened in the kernel. The replay's own last update of the
 * task is the same sleep, dated by its trace stamps a few tens of us off the kernel's clock.
 * False where the task is queued or running in the replay (its averages move with it).
 */
bool replace_blocked_from_snapshot(struct rq *rq, struct task *p, const struct sched_avg *snap)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_avg *se = &p->avg, v = *snap;
	u64 now = cfs->avg.last_update_time;

	if (p->on_rq || p->running || !se->last_update_time)
		return false;
	if (v.last_update_time > now) { /* the kernel's update of the task updated its cfs_rq */
		update_cfs_rq_load_avg(v.last_update_time, cfs, &rq->pv);
		now = cfs->avg.last_update_time;
	}
	__update_load_avg_blocked_se(now, se, p->weight);
	__update_load_avg_blocked_se(now, &v, p->weight);
	detach_avg(&cfs->avg, se, p->weight);
	attach_avg(rq, &v, p->weight);
	*se = v;
	return true;
}

/* update_load_avg(cfs_rq, se, flags): the task's se, then its cfs_rq, then attach or kick. */
static void update_load_avg(struct sched *s, struct rq *rq, struct task *p, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;
	u64 now = rq_clock_pelt(&rq->clock);
	int decayed;

	/* a delayed task (v6.12+) is on_rq for its load, not runnable (se_runnable()) */
	if (p->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		__update_load_avg_se(now, &p->avg, p->weight, se_on_rq(p), p->on_rq,
				     cfs->curr == p, &rq->pv);

	decayed = update_cfs_rq_load_avg(now, cfs, &rq->pv);

	if (!p->avg.last_update_time && (flags & DO_ATTACH))
		attach_entity_load_avg(s, rq, p); /* enqueued on a new CPU after a migration */
	else if (flags & DO_DETACH)
		detach_entity_load_avg(s, rq, p); /* v6.1+: leaving for another CPU, one kick */
	else if (decayed)
		cfs_rq_util_change(s, rq);
}

/* remove_entity_load_avg(): a sleeping task leaves; its source rq is not locked, so the
 * task is synced to the cfs_rq's last update and its averages queued as "removed". */
static void remove_avg(struct rq *rq, struct sched_avg *avg, unsigned long weight)
{
	struct cfs_rq *cfs = &rq->cfs;

	__update_load_avg_blocked_se(cfs->avg.last_update_time, avg, weight);
	cfs->removed.nr++;
	cfs->removed.util_avg += avg->util_avg;
	cfs->removed.load_avg += avg->load_avg;
	cfs->removed.runnable_avg += avg->runnable_avg;
}

static void remove_entity_load_avg(struct rq *rq, struct task *p)
{
	remove_avg(rq, &p->avg, p->weight);
}

/*
 * task_dead_fair() (kernel/sched/fair.c, v5.9 to Debian 7.2): called from finish_task_switch()
 * once a task has switched out to die (TASK_DEAD); remove_entity_load_avg() queues its util to
 * be taken off its last CPU's cfs_rq at that rq's next update. finish_task_switch() calls it
 * after finish_lock_switch() has enabled interrupts (kernel/sched/core.c, Debian 5.10 to 7.2):
 * an interrupt pending by then runs first. With defer_task_dead the call is held on the rq
 * (one at a time) until sched_task_dead_point() says the CPU is back in task context.
 */
void task_dead_fair(struct sched *s, struct task *p)
{
	struct rq *rq;

	if (p->class != SCHED_CLASS_CFS || p->is_governor || p->cpu < 0 || p->cpu >= s->cfg.nr_cpus ||
	    !p->avg.last_update_time)
		return;
	rq = &s->rq[p->cpu];
	if (s->cfg.defer_task_dead) {
		sched_task_dead_point(s, p->cpu);
		rq->dead_pending = true;
		rq->dead_avg = p->avg;
		rq->dead_weight = p->weight;
	} else {
		remove_entity_load_avg(rq, p);
	}
	p->avg.last_update_time = 0;
}

bool sched_task_dead_pending(const struct sched *s, int cpu)
{
	return cpu >= 0 && cpu < s->cfg.nr_cpus && s->rq[cpu].dead_pending;
}

void sched_task_dead_point(struct sched *s, int cpu)
{
	struct rq *rq;

	if (!sched_task_dead_pending(s, cpu))
		return;
	rq = &s->rq[cpu];
	rq->dead_pending = false;
	remove_avg(rq, &rq->dead_avg, rq->dead_weight);
}

/*
 * post_init_entity_util_avg(): a forked task starts at half the spare capacity of its CPU,
 *   util = min(cfs.util_avg * w / (cfs.load_avg + 1), (cpu_scale - cfs.util) / 2)
 * or the cap itself on an idle cfs_rq, from the cfs_rq as its last update left it; then it is
 * attached (CFS) or just dated (other classes). w is se->load.weight up to v6.6 (1024 << 10 for
 * nice 0 on 64-bit, so the cap almost always wins) and se_weight(), 1024, in v6.12 and later
 * (s->post_init_se_weight). From v6.1 (s->post_init_attach_enqueue) a task of another class is
 * dated before any util is computed, and a fair task is left unattached: enqueue_entity()'s
 * update_load_avg(DO_ATTACH) attaches it, after its util_est is enqueued, with one cpufreq kick
 * (Debian 6.1 fair.c l.829 and l.4773); up to v5.15 attach_entity_cfs_rq() here ages the
 * cfs_rq first, which kicks cpufreq where it decayed, and the attach kicks again.
 */
void post_init_entity_util_avg(struct sched *s, struct rq *rq, struct task *p)
{
	struct sched_avg *sa = &p->avg;
	struct cfs_rq *cfs = &rq->cfs;
	long cpu_scale = (long)rq->cpu_capacity;
	long cap = (cpu_scale - (long)cfs->avg.util_avg) / 2;

	/* init_entity_runnable_average() at fork; wake_up_new_task() enqueues it with
	 * ENQUEUE_INITIAL (EEVDF: half a slice for its first request) */
	memset(sa, 0, sizeof(*sa));
	node_of(p)->ev.initial = true;
	node_of(p)->ev.lag_known = true;
	sa->load_avg = p->weight;

	if (s->post_init_attach_enqueue && p->class != SCHED_CLASS_CFS) {
		sa->last_update_time = rq_clock_pelt(&rq->clock);
		return;
	}
	if (cap > 0) {
		if (cfs->avg.util_avg != 0) {
			sa->util_avg = cfs->avg.util_avg *
				       (s->post_init_se_weight ? p->weight
							       : p->weight << SCHED_FIXEDPOINT_SHIFT);
			sa->util_avg /= cfs->avg.load_avg + 1;
			if (sa->util_avg > (unsigned long)cap)
				sa->util_avg = (unsigned long)cap;
		} else {
			sa->util_avg = (unsigned long)cap;
		}
	}
	sa->runnable_avg = sa->util_avg;

	if (p->class != SCHED_CLASS_CFS) {
		sa->last_update_time = rq_clock_pelt(&rq->clock);
		return;
	}
	if (s->post_init_attach_enqueue)
		return;
	/* attach_entity_cfs_rq(): sync the cfs_rq (ATTACH_AGE_LOAD), then attach */
	update_load_avg(s, rq, p, 0);
	attach_entity_load_avg(s, rq, p);
}

void enqueue_task_fair(struct sched *s, struct rq *rq, struct task *p)
{
	/* the estimate first, so every cpufreq kick below already sees it */
	util_est_enqueue_cfg(&s->ue, &rq->cfs.avg, &p->avg);
	if (task_delayed(p)) {
		/* v6.12+ ttwu_runnable() of a delayed task: requeue_delayed_entity(), one update
		 * without attach, and no iowait kick (enqueue_task_fair() returns first); its
		 * weight never left the cfs_rq */
		eevdf_requeue(s, rq, p);
		update_load_avg(s, rq, p, 0);
		p->on_rq = true;
		rq->cfs.h_nr_running++;
		return;
	}
	if (p->in_iowait)
		cpufreq_update_util(s, rq, SCHED_CPUFREQ_IOWAIT);
	/* enqueue_entity(): se not on_rq yet, so its update only decays */
	update_load_avg(s, rq, p, UPDATE_TG | DO_ATTACH);
	eevdf_enqueue(s, rq, p);
	rq->cfs.load += p->weight; /* account_entity_enqueue() */
	p->on_rq = true;
	rq->cfs.h_nr_running++;
	/* v6.12+: the first fair task queued starts the fair server (dl_server_start()), whose
	 * bandwidth joins running_bw with a cpufreq kick (__add_running_bw()). Its stop (picked
	 * with nothing to run, or its runtime spent idle) leaves the bandwidth until the 0-lag
	 * time and a restart takes it back without a kick: the lab's kernels show it at every
	 * evaluation once started, so the model keeps it. */
	if (s->fair_server && !rq->fair_server_active) {
		rq->fair_server_active = true;
		cpufreq_update_util(s, rq, 0);
	}
}

/* account_entity_dequeue(): the task's weight leaves the cfs_rq's load.weight. */
static void account_entity_dequeue(struct cfs_rq *cfs, unsigned long w)
{
	sub_positive_ul(&cfs->load, w);
}

/* util_est's steps in the profile's order (util_est.h's enum util_est_dequeue_order). */
void dequeue_task_fair(struct sched *s, struct rq *rq, struct task *p, int flags)
{
	enum util_est_dequeue_order order = s->ue.dequeue_order;
	bool sleep = flags & DEQUEUE_SLEEP, delay;

	/* v5.10.89+: util_est_dequeue() first, so the kick below no longer sees the task */
	if (order != UTIL_EST_ORDER_PELT_SUB_UPDATE)
		util_est_sub(&s->ue, &rq->cfs.avg, &p->avg);
	/* v6.12: the task's estimate from its util as the last update left it */
	if (order == UTIL_EST_ORDER_SUB_UPDATE_PELT)
		util_est_update(&s->ue, &p->avg, sleep, rq->cpu_capacity);
	/* dequeue_entity(): running = (cfs_rq->curr == se), still on_rq; from v6.1 a migrating
	 * task is detached here (Debian 6.1 l.4850, 6.12 l.5575, 7.2 l.6494); from v6.12 a
	 * sleep while not eligible is delayed: one update, the weight stays */
	delay = eevdf_dequeue(s, rq, p, flags);
	update_load_avg(s, rq, p,
			delay ? 0
			      : UPDATE_TG | (s->detach_in_dequeue && s->migrating == p ? DO_DETACH : 0));
	p->on_rq = false;
	if (!delay)
		account_entity_dequeue(&rq->cfs, p->weight);
	if (rq->cfs.h_nr_running)
		rq->cfs.h_nr_running--;
	/* at the end of dequeue_task_fair(), after any cpufreq kick of the PELT update */
	if (order == UTIL_EST_ORDER_SUB_PELT_UPDATE)
		util_est_update(&s->ue, &p->avg, sleep, rq->cpu_capacity);
	else if (order == UTIL_EST_ORDER_PELT_SUB_UPDATE)
		util_est_dequeue_cfg(&s->ue, &rq->cfs.avg, &p->avg, sleep, rq->cpu_capacity);
}

/*
 * dequeue_entities(rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED) (Debian 6.12 l.7158, 7.2): the end
 * of a delayed dequeue, when a pick chooses the task (pick_next_entity()) or the model must
 * move it. The full dequeue's update (a kick where it decays, no util_est: that left at the
 * sleep), and the weight leaves; a delay_end task event at that update's clock (a delay a
 * wakeup ends shows as the wakeup's).
 */
void dequeue_delayed_fair(struct sched *s, struct rq *rq, struct task *p)
{
	if (!task_delayed(p))
		return;
	update_load_avg(s, rq, p, UPDATE_TG);
	(void)eevdf_dequeue(s, rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED); /* clears the delay */
	account_entity_dequeue(&rq->cfs, p->weight);
	task_event(s, p, rq->cpu, TASK_EV_DELAY_END, rq->clock.clock_task);
}

/*
 * detach_task() -> attach_task() of a delayed task (v6.12+): the load balancer moves it as it is,
 * queued and still delayed (Debian 6.12 fair.c dequeue_entity(): a dequeue that is not a sleep
 * stores the lag and the relative deadline, detaches (DO_DETACH), and leaves sched_delayed set;
 * enqueue_task_fair() adds no util_est for a delayed migrating task; enqueue_entity() places it
 * and attaches it (DO_ATTACH); 7.2 the same). Its weight, and with it load_avg, goes to the
 * destination's cfs_rq, where it stays until a pick there dequeues it or a wakeup requeues it;
 * uclamp_rq_dec()/inc() skip a delayed task, and so does this move. The clocks are the rqs'.
 */
void migrate_delayed_fair(struct sched *s, struct rq *src_rq, struct rq *dst_rq, struct task *p)
{
	(void)eevdf_dequeue(s, src_rq, p, 0); /* not a sleep: lag, relative deadline; delayed */
	update_load_avg(s, src_rq, p, UPDATE_TG | DO_DETACH);
	account_entity_dequeue(&src_rq->cfs, p->weight);
	p->avg.last_update_time = 0; /* migrate_task_rq_fair(): attach at the enqueue */
	p->cpu = dst_rq->cpu;
	update_load_avg(s, dst_rq, p, UPDATE_TG | DO_ATTACH);
	eevdf_enqueue(s, dst_rq, p);
	dst_rq->cfs.load += p->weight; /* account_entity_enqueue() */
}

void enqueue_delayed_fair(struct sched *s, struct rq *rq, struct task *p)
{
	eevdf_enqueue_delayed(s, rq, p);
	rq->cfs.load += p->weight; /* account_entity_enqueue() */
}

/* pick_next_task_fair() -> pick_task_fair() -> pick_next_entity(): each delayed task picked
 * before a runnable one is dequeued, and the pick goes again. */
void pick_delayed_fair(struct sched *s, struct rq *rq)
{
	struct task *p;

	while ((p = eevdf_pick_delayed(s, rq)))
		dequeue_delayed_fair(s, rq, p);
}

/* set_next_entity(): a queued task's se is updated before it becomes cfs_rq->curr. */
void set_next_task_fair(struct sched *s, struct rq *rq, struct task *p)
{
	if (p->on_rq)
		update_load_avg(s, rq, p, UPDATE_TG);
	rq->cfs.curr = p;
	eevdf_set_next(s, rq, p);
}

/* put_prev_entity(): running = 1 if still queued (a delayed task too: on_rq). */
void put_prev_task_fair(struct sched *s, struct rq *rq, struct task *p)
{
	(void)eevdf_update_curr(s, rq);
	if (se_on_rq(p))
		update_load_avg(s, rq, p, 0);
	rq->cfs.curr = NULL;
}

/* task_tick_fair() -> entity_tick(): update_curr(), then the update. A request used up
 * reschedules: the pick that follows dequeues the delayed tasks it chooses before picking the
 * running task again, which the trace does not show (or another, whose switch it shows). */
void task_tick_fair(struct sched *s, struct rq *rq, struct task *p)
{
	bool resched = eevdf_update_curr(s, rq);

	update_load_avg(s, rq, p, UPDATE_TG);
	if (resched)
		pick_delayed_fair(s, rq);
}

/* detach_entity_cfs_rq(): sync the se and its cfs_rq, then detach. */
static void detach_entity_cfs_rq(struct sched *s, struct rq *rq, struct task *p)
{
	update_load_avg(s, rq, p, 0);
	detach_entity_load_avg(s, rq, p);
}

/*
 * switched_from_fair(): a task sched_setattr() takes out of the fair class while off its
 * runqueue leaves its cfs_rq: detach_task_cfs_rq() -> detach_entity_cfs_rq() syncs it and takes
 * its util, runnable and load off, with one cpufreq kick (nothing for a task never attached).
 * From 7.2 (s->setattr_reweight_after_detach) sched_change_begin() detaches first and the
 * scope's __setscheduler_params() -> set_load_weight(p, true) then reaches reweight_task_fair()
 * while the class is still fair: reweight_entity() takes the task's load_avg off the cfs_rq
 * again (dequeue_load_avg(): clamped at 0), recomputes it as se_weight * load_sum / divider and
 * adds it back (enqueue_load_avg()), each through __update_sa()'s floor of the sum. The cfs_rq
 * keeps a blocked load no task owns, which decays away (Debian 7.2 core.c sched_change_begin()
 * l.11255, fair.c reweight_entity() l.4871; before 7.2 the reweight comes first, while the task
 * is still attached, and the detach takes everything: core.c/syscalls.c __sched_setscheduler()).
 */
void switched_from_fair(struct sched *s, struct rq *rq, struct task *p)
{
	if (!p->avg.last_update_time)
		return;
	detach_entity_cfs_rq(s, rq, p);
	if (s->setattr_reweight_after_detach)
		reweight_load_avg(rq, &p->avg, p->weight, p->weight);
}

/*
 * reweight_task_fair() -> reweight_entity() (Debian 5.10 to 7.2 fair.c): a fair task whose
 * nice changes (set_user_nice(), sched_setattr() within the class; here a new prio in the
 * trace). A queued task's weight leaves cfs_rq->load and joins it again at w; its load_avg is
 * rebuilt at w from its own sum, without a PELT update (update_curr() only); a task that has
 * left its cfs_rq (migrating: last_update_time 0) only takes the weight. Its EEVDF state keeps
 * the nice-0 weight (fair_eevdf.c).
 */
void reweight_task_fair(struct rq *rq, struct task *p, unsigned long w)
{
	if (se_on_rq(p)) { /* a delayed task's weight is queued too */
		sub_positive_ul(&rq->cfs.load, p->weight);
		rq->cfs.load += w;
	}
	if (p->avg.last_update_time)
		reweight_load_avg(rq, &p->avg, p->weight, w);
	p->weight = w;
}

void attach_task_cfs_rq(struct sched *s, struct rq *rq, struct task *p)
{
	update_load_avg(s, rq, p, 0);
	attach_entity_load_avg(s, rq, p);
}

/*
 * task_change_group_fair() (kernel/sched/fair.c, v5.10 to Debian 7.2): detach_task_cfs_rq()
 * (sync, take the task's load off: cfs_rq_util_change), last_update_time = 0, then
 * attach_task_cfs_rq() (sync with ATTACH_AGE_LOAD, add it back: cfs_rq_util_change). Without
 * group scheduling the task leaves and rejoins the one cfs_rq, so only the two kicks and the
 * sums' realignment to the cfs_rq's window remain.
 */
void task_change_group_fair(struct sched *s, struct rq *rq, struct task *p)
{
	if (p->avg.last_update_time)
		detach_entity_cfs_rq(s, rq, p);
	p->avg.last_update_time = 0;
	update_load_avg(s, rq, p, 0);
	attach_entity_load_avg(s, rq, p);
}

/*
 * migrate_se_pelt_lag() (v6.0+; Debian 6.1 fair.c l.3920, 6.12 l.4593, 7.2 l.5549): a waking
 * task leaving an idle CPU, already synced to that cfs_rq's last update, is decayed as blocked
 * to an estimate of now on the source's PELT clock: clock_pelt_idle (rq_clock_pelt() at the
 * source's last idle clock update) plus the time since that update (sched_clock_cpu() -
 * clock_idle), or the cfs_rq's last update where that is later. Differences: no bandwidth
 * throttling (throttled_pelt_idle is 0); sched_clock_cpu() is the migration's trace time.
 */
static void migrate_se_pelt_lag(struct rq *rq, struct task *p, u64 now_ns)
{
	const struct sched_avg *sa = &p->avg;
	u64 now, lut;

	if (!sa->load_sum && !sa->util_sum && !sa->runnable_sum) /* load_avg_is_decayed() */
		return;
	if (rq->curr) /* is_idle_task(rq->curr): only an idle source's clock is that late */
		return;
	now = rq->clock.clock_pelt_idle;
	lut = rq->cfs.avg.last_update_time;
	if (now < lut)
		now = lut;
	else if (now_ns > rq->clock.clock_idle)
		now += now_ns - rq->clock.clock_idle;
	__update_load_avg_blocked_se(now, &p->avg, p->weight);
}

void migrate_task_rq_fair(struct sched *s, struct rq *src_rq, struct task *p, bool queued,
			  u64 now)
{
	if (queued) {
		/* TASK_ON_RQ_MIGRATING: up to 5.15 detach_entity_cfs_rq() here (a kick where the
		 * sync decayed, another at the detach); from v6.1 (e1f078f50478) the dequeue did it
		 * with DO_DETACH (one kick), and a task moved without one (migrate_parked(): asleep
		 * in the model, on the kernel's rq) is detached the same way */
		if (!s->detach_in_dequeue)
			detach_entity_cfs_rq(s, src_rq, p);
		else if (s->migrating != p)
			update_load_avg(s, src_rq, p, DO_DETACH);
		p->avg.last_update_time = 0;
		return;
	}
	/* a sleeping task: its source rq is not locked, the load is removed at its next update */
	if (p->avg.last_update_time) {
		remove_entity_load_avg(src_rq, p);
		if (s->migrate_pelt_lag)
			migrate_se_pelt_lag(src_rq, p, now);
		p->avg.last_update_time = 0;
	}
}


/* update_blocked_averages() without group scheduling: __update_blocked_others() (rt, dl with
 * running = the class of curr; irq is not modelled) and __update_blocked_fair() (the root
 * cfs_rq, removed load included); one cpufreq kick if anything decayed. */
bool sched_update_blocked(struct sched *s, int cpu, u64 now_ns)
{
	struct rq *rq;
	enum sched_class_id c = SCHED_CLASS_IDLE;
	u64 now;
	int decayed, cfs_decayed;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return false;
	rq = &s->rq[cpu];
	update_rq_clock(rq, now_ns);
	if (rq->curr)
		c = node_of(rq->curr)->queued_class;
	now = rq_clock_pelt(&rq->clock);
	decayed = update_rt_rq_load_avg(now, &rq->avg_rt, c == SCHED_CLASS_RT, &rq->pv) |
		  update_dl_rq_load_avg(now, &rq->avg_dl, c == SCHED_CLASS_DL, &rq->pv);
	cfs_decayed = update_cfs_rq_load_avg(now, &rq->cfs, &rq->pv);
	/* v4.19 has no kick of its own here: only the root cfs_rq's decay kicks, from
	 * update_cfs_rq_load_avg (fair.c l.3517-3518 v4.19); rt/dl decay reaches no one */
	if (s->blocked_kick ? (decayed | cfs_decayed) : cfs_decayed)
		cpufreq_update_util(s, rq, 0);
	/* update_blocked_load_status(rq, !done): others_have_blocked() || cfs_rq_has_blocked() */
	return rq->avg_rt.util_avg || rq->avg_dl.util_avg || rq->cfs.avg.load_avg ||
	       rq->cfs.avg.util_avg;
}
