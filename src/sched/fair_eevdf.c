/*
 * fair_eevdf.c - the part of EEVDF (kernel/sched/fair.c, Debian 6.12.95 and 7.2.13) that decides
 * whether a sleeping fair task leaves its runqueue at once: DELAY_DEQUEUE. A task that blocks
 * while it is not eligible (it has had more than its share: its vruntime is past the weighted
 * average of its cfs_rq's) stays queued, "delayed", until a pick chooses it or it wakes. Its
 * weight stays in cfs_rq->load.weight meanwhile, and with it in the cfs_rq's PELT load_avg, which
 * a forked task's first util is divided by (post_init_entity_util_avg()).
 *
 * Kernel names kept: update_curr (the vruntime and deadline part), update_deadline,
 * avg_vruntime, vruntime_eligible, entity_lag / update_entity_lag, place_entity, pick_eevdf,
 * requeue_delayed_entity. Written from a reading of Debian 6.12.95 and 7.2.13 fair.c; not copied.
 *
 * Differences from the kernel, and why:
 * - The trace says who runs: the model needs the EEVDF state only to know when a delayed task
 *   is dequeued. It keeps each queued task's vruntime, deadline and lag, and emulates a pick
 *   only for the delayed tasks it would dequeue before the task the trace switched to.
 * - The entities are a list scanned at each use, not the augmented rbtree with running sums:
 *   the sums are exact integers either way (eligibility compares sum(w * v) with v * sum(w),
 *   which is the same whatever vruntime the kernel counts keys from), and a lab runqueue holds a
 *   handful of tasks. avg_vruntime()'s rounding is the kernel's for the same sums.
 * - Every task has the nice-0 weight, as the rest of the model: calc_delta_fair() is the
 *   identity. No custom slices, no group entities, no buddies, no RUN_TO_PARITY: they choose
 *   who runs, which the trace shows.
 * - The pick that dequeues delayed tasks is emulated at each sched_switch whose next is a fair
 *   task or the idle task (the classes above fair pick first otherwise), and after a tick
 *   whose update_curr() used up the running task's request with another entity queued
 *   (task_tick_fair(): the kernel's resched, whose pick may choose the same task, no switch
 *   traced); a wakeup preemption picks only where the trace shows the switch it caused.
 * - A task alive before the trace stored its lag at a dequeue the trace does not show. The model
 *   places it at lag 0, and a nice-0 task's first sleep (before any dequeue of it in the trace)
 *   is not delayed: at lag 0 any run with another task queued ends past the average, where the
 *   kernel's own EEVDF events show such tasks, short runners that stored a positive lag,
 *   eligible (ksoftirqd/0 on lab-pelt/6.12/periodic4-shared at 9.920368: vlag 282650 ns, run 97
 *   us, not delayed; the model delayed it 3.6 ms, its weight in the root's load). A heavier
 *   task is left to the model's usual test: in the kernel its own weight pulls the average to
 *   it, so a run leaves it past the average whatever its lag, as the model's nice-0 arithmetic
 *   at lag 0 has it too (tests/golden/nice_weight.sh: the forks onto a nice -20 kworker's CPU).
 */
#include "sched/sched_priv.h"

/* sysctl_sched_base_slice's default before scaling (fair.c, 6.12 and 7.2): 0.7 ms */
#define BASE_SLICE_NS 700000ULL

static struct eevdf_se *ese(struct task *p)
{
	return &node_of(p)->ev;
}

/* get_update_sysctl_factor() with SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(nr_cpus, 8)) */
u64 eevdf_base_slice(int nr_cpus)
{
	unsigned int cpus = nr_cpus < 8 ? (unsigned int)nr_cpus : 8, factor = 1;

	while (cpus >>= 1)
		factor++;
	return BASE_SLICE_NS * factor;
}

static s64 key(const struct cfs_rq *cfs, const struct eevdf_se *se)
{
	return (s64)(se->vruntime - cfs->ev.zero_vruntime);
}

/* sum(w) over the queued entities, curr included (avg_load): every weight is nice-0's */
static long queued_load(const struct cfs_rq *cfs)
{
	return (long)cfs->ev.nr * (long)TASK_SE_WEIGHT;
}

/* sum(w * key) over the same entities (avg_vruntime_add()) */
static s64 sum_w_keys(const struct cfs_rq *cfs)
{
	s64 avg = 0;

	for (struct task_node *n = cfs->ev.head; n; n = n->ev.next)
		avg += key(cfs, &n->ev) * (s64)TASK_SE_WEIGHT;
	return avg;
}

/* avg_vruntime(): the weighted average, floored; an empty cfs_rq keeps its zero_vruntime. */
static u64 avg_vruntime(struct cfs_rq *cfs)
{
	s64 avg = sum_w_keys(cfs);
	long load = queued_load(cfs);

	if (load) {
		if (avg < 0)
			avg -= load - 1;
		cfs->ev.zero_vruntime += (u64)(avg / load);
	}
	return cfs->ev.zero_vruntime;
}

/* vruntime_eligible(): sum(w * (v_i - v)) >= 0, without the division's loss; avg is
 * sum_w_keys()'s. */
static bool vruntime_eligible(const struct cfs_rq *cfs, const struct eevdf_se *se, s64 avg)
{
	return avg >= key(cfs, se) * queued_load(cfs);
}

/* update_deadline(): a request used up starts the next (vd = v + slice); true: resched. */
static bool update_deadline(struct eevdf_se *se, u64 slice)
{
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;
	se->slice = slice;
	se->deadline = se->vruntime + slice;
	return true;
}

/* update_curr(): the running task's vruntime advances by its run on the task clock. true
 * when it used up its request with another entity queued: resched_curr(), a pick follows. */
bool eevdf_update_curr(struct sched *s, struct rq *rq)
{
	struct task *curr = rq->cfs.curr;
	struct eevdf_se *se;
	s64 delta;
	bool resched;

	if (!s->eevdf || !curr)
		return false;
	se = ese(curr);
	if (!se->on_rq)
		return false;
	delta = (s64)(rq->clock.clock_task - se->exec_start);
	if (delta <= 0)
		return false;
	se->exec_start = rq->clock.clock_task;
	se->vruntime += (u64)delta;
	resched = update_deadline(se, s->eevdf_slice);
	return resched && rq->cfs.ev.nr > 1;
}

/* set_next_entity() -> update_stats_curr_start(): exec_start = rq_clock_task() */
void eevdf_set_next(struct sched *s, struct rq *rq, struct task *p)
{
	if (s->eevdf)
		ese(p)->exec_start = rq->clock.clock_task;
}

/* entity_lag(): V - v, clamped. 6.12: to max(2 * slice, TICK_NSEC); 7.2: to the cfs_rq's
 * largest slice + TICK_NSEC (every slice here is the base slice). */
static s64 entity_lag(const struct sched *s, u64 avruntime, const struct eevdf_se *se)
{
	u64 tick = NSEC_PER_SEC / (u64)s->cfg.hz;
	s64 vlag = (s64)(avruntime - se->vruntime), limit;

	if (s->eevdf == EEVDF_DELAY_V7_2)
		limit = (s64)(se->slice + tick);
	else
		limit = (s64)(2 * se->slice > tick ? 2 * se->slice : tick);
	return vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

/* update_entity_lag(). 7.2: a delayed entity's lag never rises above what it had when it was
 * delayed, nor above 0 (DELAY_ZERO); returns whether the entity is off its lag's place. */
static bool update_entity_lag(const struct sched *s, struct cfs_rq *cfs, struct eevdf_se *se)
{
	u64 avruntime = avg_vruntime(cfs);
	s64 vlag = entity_lag(s, avruntime, se);

	if (s->eevdf == EEVDF_DELAY_V7_2 && se->delayed) {
		vlag = vlag > se->vlag ? vlag : se->vlag;
		vlag = vlag < 0 ? vlag : 0;
	}
	se->vlag = vlag;
	return avruntime - (u64)vlag != se->vruntime;
}

/* place_entity(): v = V - lag, the lag inflated by (W + w) / W so that it survives the
 * entity's own weight joining the average; a fresh task's first request is half a slice. */
static void place_entity(const struct sched *s, struct cfs_rq *cfs, struct eevdf_se *se,
			 bool initial)
{
	u64 vslice = s->eevdf_slice, vruntime = avg_vruntime(cfs);
	s64 lag = 0;

	se->slice = s->eevdf_slice;
	if (cfs->ev.nr && se->vlag) {
		long load = queued_load(cfs);

		lag = se->vlag * (load + (long)TASK_SE_WEIGHT) / load;
	}
	se->vruntime = vruntime - (u64)lag;
	if (se->rel_deadline) { /* PLACE_REL_DEADLINE: a migration keeps its relative deadline */
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (initial) /* PLACE_DEADLINE_INITIAL */
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

static void list_add(struct cfs_rq *cfs, struct task_node *n)
{
	n->ev.prev = NULL;
	n->ev.next = cfs->ev.head;
	if (cfs->ev.head)
		cfs->ev.head->ev.prev = n;
	cfs->ev.head = n;
	cfs->ev.nr++;
	n->ev.on_rq = true;
}

static void list_del(struct cfs_rq *cfs, struct task_node *n)
{
	if (n->ev.prev)
		n->ev.prev->ev.next = n->ev.next;
	else
		cfs->ev.head = n->ev.next;
	if (n->ev.next)
		n->ev.next->ev.prev = n->ev.prev;
	n->ev.next = n->ev.prev = NULL;
	cfs->ev.nr--;
	n->ev.on_rq = false;
}

/* enqueue_entity(): update_curr(), place, join. */
void eevdf_enqueue(struct sched *s, struct rq *rq, struct task *p)
{
	struct eevdf_se *se = ese(p);
	bool initial = se->initial;

	if (!s->eevdf || se->on_rq)
		return;
	se->initial = false;
	(void)eevdf_update_curr(s, rq);
	place_entity(s, &rq->cfs, se, initial);
	list_add(&rq->cfs, node_of(p));
}

/*
 * A newidle balance's pull of a task the trace has asleep (v6.12+: the kernel had it delayed;
 * migrate_parked()): the pick that follows the pull on the destination, where the task is
 * alone, dequeues it (DEQUEUE_DELAYED): 6.12's update_entity_lag() gives V - v = 0 there and
 * DELAY_ZERO keeps 0, whatever the model had stored. 7.2 keeps a delayed entity's lag at or
 * under what it had when it was delayed: the model's stands.
 */
void eevdf_newidle_pulled(struct sched *s, struct task *p)
{
	if (s->eevdf == EEVDF_DELAY_V6_12 && !ese(p)->on_rq)
		ese(p)->vlag = 0;
}

void eevdf_enqueue_delayed(struct sched *s, struct rq *rq, struct task *p)
{
	struct eevdf_se *se = ese(p);

	if (!s->eevdf || se->on_rq)
		return;
	se->vlag = 0;
	se->rel_deadline = false;
	eevdf_enqueue(s, rq, p);
	se->delayed = true;
	se->lag_known = true;
}

/* dequeue_entity()'s choice for a sleep: true when the task is to be delayed (DELAY_DEQUEUE, not
 * a special state, not eligible; not a nice-0 task's first sleep before any lag of its own:
 * see the top); then it stays on the list (7.2 updates its lag first).
 * Otherwise it leaves: its lag is kept for its next placement (a migration's deadline
 * relative: PLACE_REL_DEADLINE). */
bool eevdf_dequeue(struct sched *s, struct rq *rq, struct task *p, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct eevdf_se *se = ese(p);

	if (!s->eevdf || !se->on_rq)
		return false;
	(void)eevdf_update_curr(s, rq);
	if ((flags & DEQUEUE_SLEEP) && !(flags & (DEQUEUE_SPECIAL | DEQUEUE_DELAYED)) &&
	    (se->lag_known || p->weight != TASK_SE_WEIGHT) &&
	    !vruntime_eligible(cfs, se, sum_w_keys(cfs))) {
		if (s->eevdf == EEVDF_DELAY_V7_2)
			(void)update_entity_lag(s, cfs, se);
		se->delayed = true;
		return true;
	}
	(void)update_entity_lag(s, cfs, se);
	se->lag_known = true;
	if (!(flags & DEQUEUE_SLEEP)) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	list_del(cfs, node_of(p));
	if (flags & DEQUEUE_DELAYED) { /* finish_delayed_dequeue_entity() */
		se->delayed = false;
		if (s->eevdf != EEVDF_DELAY_V7_2 && se->vlag > 0) /* 6.12 DELAY_ZERO */
			se->vlag = 0;
	}
	return false;
}

/* requeue_delayed_entity(): a delayed task woken where it is queued. 6.12: with positive lag
 * it is placed again at lag 0 (DELAY_ZERO); 7.2: update_curr(), and placed again where its lag
 * (never above 0) puts it. */
void eevdf_requeue(struct sched *s, struct rq *rq, struct task *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct eevdf_se *se = ese(p);
	bool replace;

	if (s->eevdf == EEVDF_DELAY_V7_2)
		(void)eevdf_update_curr(s, rq);
	replace = update_entity_lag(s, cfs, se);
	if (s->eevdf != EEVDF_DELAY_V7_2) {
		replace = se->vlag > 0;
		if (replace)
			se->vlag = 0;
	}
	if (replace) {
		list_del(cfs, node_of(p));
		place_entity(s, cfs, se, false);
		list_add(cfs, node_of(p));
	}
	se->delayed = false;
}

/*
 * pick_eevdf(): of the eligible entities the one with the earliest deadline; with one entity,
 * that one. The kernel's pick dequeues a delayed task it picks and picks again
 * (pick_next_entity()); returned here for the caller to dequeue, NULL once the pick would be
 * a runnable task (or nothing is queued).
 */
struct task *eevdf_pick_delayed(struct sched *s, struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct task_node *best = NULL;
	s64 avg;

	if (!s->eevdf || !cfs->ev.head)
		return NULL;
	(void)eevdf_update_curr(s, rq);
	if (cfs->ev.nr == 1) {
		best = cfs->ev.head;
	} else {
		avg = sum_w_keys(cfs);
		for (struct task_node *n = cfs->ev.head; n; n = n->ev.next)
			if (vruntime_eligible(cfs, &n->ev, avg) &&
			    (!best || (s64)(n->ev.deadline - best->ev.deadline) < 0))
				best = n;
	}
	return best && best->ev.delayed ? &best->t : NULL;
}
