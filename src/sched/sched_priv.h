/*
 * sched_priv.h - the scheduler model's shared internals (the runqueue and task structures),
 * in the role of Linux v5.9 kernel/sched/sched.h for core.c, fair.c, rt.c, deadline.c and
 * trace_start.c of this directory. Not part of the model's API (sched/sched.h).
 */
#ifndef GOVSIM_SCHED_SCHED_PRIV_H
#define GOVSIM_SCHED_SCHED_PRIV_H

#include "core/pid_table.h"
#include "sched/sched.h"
#include "sched/util_est.h"

#include <string.h>

/* scale_load_down(nice-0 weight) = se_weight(); scale_load(1024) = se->load.weight (64-bit). A
 * task's own is struct task's weight (its nice's); this one serves the EEVDF model and the
 * blocked seeds, which keep nice 0. */
#define TASK_SE_WEIGHT   1024UL

/* update_load_avg() flags (fair.c) */
#define UPDATE_TG     0x1
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH     0x4
#define DO_DETACH     0x8 /* v6.1+: dequeue_entity() of a migrating task detaches it */

/* dequeue_task() flags (kernel/sched/sched.h) */
#define DEQUEUE_SLEEP   0x01
#define DEQUEUE_SPECIAL 0x10  /* a special task state (stopped, traced, parked, dead): no delay */
#define DEQUEUE_DELAYED 0x200 /* v6.12+: the end of a delayed dequeue */

#define TASK_CHUNK 256

/* EEVDF's state of a fair task (fair_eevdf.c), kept under a profile with DELAY_DEQUEUE. */
struct task_node;
struct eevdf_se {
	u64 vruntime, deadline, slice, exec_start;
	s64 vlag;
	bool on_rq;        /* se->on_rq: queued, running or delayed (on its cfs_rq's list) */
	bool delayed;      /* se->sched_delayed: asleep but still queued */
	bool rel_deadline; /* dequeued for a migration: deadline kept relative to vruntime */
	bool initial;      /* its next enqueue is its fork's (ENQUEUE_INITIAL) */
	bool lag_known;    /* forked in the trace, or dequeued once: vlag is the model's own */
	struct task_node *next, *prev;
};

struct cfs_rq {
	struct sched_avg avg;
	unsigned long load;        /* scale_load_down(cfs_rq->load.weight) */
	unsigned int h_nr_running;
	struct task *curr;         /* cfs_rq->curr */
	struct {                   /* cfs_rq->removed: applied at the next update */
		unsigned int nr;
		unsigned long load_avg, util_avg, runnable_avg;
	} removed;
	struct { /* EEVDF (fair_eevdf.c): the queued tasks, curr and the delayed included */
		struct task_node *head;
		unsigned int nr;
		u64 zero_vruntime;
	} ev;
};

struct rq {
	int cpu;
	unsigned long cpu_capacity; /* arch_scale_cpu_capacity() */
	unsigned long freq_scale;   /* arch_scale_freq_capacity() */
	struct pelt_clock clock;    /* clock_task is rq_clock(): now_ns */
	struct pelt_variant pv;     /* the profile's PELT variant, with this rq's scales */
	bool seen;                  /* the CPU had an event */
	/* RQCF_REQ_SKIP: a wakeup made the idle CPU reschedule (check_preempt_curr() ->
	 * rq_clock_skip_update()); the next __schedule() then keeps the rq clock of the last
	 * update instead of reading it again */
	bool clock_skip_req;
	struct task *curr;          /* NULL: idle (or the governor kthread) */
	struct cfs_rq cfs;
	struct sched_avg avg_rt;
	struct sched_avg avg_dl;
	unsigned int rt_nr_running;
	unsigned int dl_nr_running;
	u64 idle_calls;
	/* the idle loop, from the trace's cpu_idle events (sched_cpu_idle_enter): entries are
	 * counted from them; since the switch to idle, a tick woke it / the tick was stopped */
	bool idle_traced, got_idle_tick, idle_tick_stopped, idle_first_entry;
	struct uclamp_rq_pair uclamp;
	/* start_from_trace_util: the blocked util the trace's root cfs_rq carried before the
	 * CPU's first event, as a blocked entity attached to the cfs_rq; seeded tasks attaching
	 * here take their own share out of it (they were part of it) */
	bool has_blocked_seed;
	struct sched_avg blocked_seed;
	/* v6.12+: the fair class's deadline server is running (its bandwidth in running_bw) */
	bool fair_server_active;
	/* A task died here and task_dead_fair() is held back (sched_config.defer_task_dead):
	 * its averages and weight as its death left them, until sched_task_dead_point(). */
	bool dead_pending;
	struct sched_avg dead_avg;
	unsigned long dead_weight;
	/* when the pick in sched.pick_due_mask became due */
	u64 pick_due_at;
};

struct task_node {
	struct task t; /* first: a struct task * is a struct task_node * */
	bool started;  /* first scheduling event seen, task_new called */
	bool seeded;
	bool absorb;   /* seeded: at its first attach, take its util out of the rq's blocked seed */
	bool seed_dated; /* the seed carries its last_update_time (the lab's snapshot): it decays
			  * as blocked from then to the task's first event */
	bool waking;   /* sched_waking seen, its sched_wakeup not yet */
	bool governor_cfs; /* a sugov:N kthread created in the trace, still the CFS task
			    * kthread_create() made it (task_class.c governor_setattr()) */
	bool prio_pending;
	int pending_prio;
	enum sched_class_id queued_class; /* the class it was enqueued in */
	struct sched_avg seed;
	struct eevdf_se ev;
	struct task_node *next_free; /* on sched.free_nodes once its task died */
};

struct sched {
	struct sched_config cfg;
	struct sched_hooks hooks;
	struct rq rq[GS_MAX_CPUS];
	struct task_node **chunks;
	size_t nr_chunks, chunks_cap, nr_nodes;
	struct pid_table tasks_by_pid; /* the live tasks' nodes (core/pid_table.h) */
	struct task_node *free_nodes; /* slots of dead tasks, reused first */
	bool have_start;
	u64 start_ns;
	bool mute; /* no cpufreq/task_event hooks (a retroactive start) */
	bool saw_waking; /* the trace has sched_waking events (handle_migrate) */
	/* CPUs with a pick to come at their return to task context (migrate_balanced_asleep()) */
	u64 pick_due_mask;
	/* from the kernel profile, read once */
	struct util_est_cfg ue;
	bool contrib_scaling; /* v4.19 PELT: no clock_pelt, contributions scaled */
	bool blocked_kick;    /* update_blocked_averages kicks cpufreq (v5.4+) */
	bool idle_retain_tick; /* no cpuidle driver on a v6.1+ kernel: sched_cpu_idle_enter() */
	bool post_init_se_weight; /* a new task's util by se_weight(), not se->load.weight */
	bool post_init_attach_enqueue; /* a new task attaches at its enqueue (v6.1+) */
	bool detach_in_dequeue;        /* a migrating task detaches in its dequeue (v6.1+) */
	enum eevdf_delay eevdf;        /* EEVDF's delayed dequeue (v6.12+), fair_eevdf.c */
	u64 eevdf_slice;               /* sysctl_sched_base_slice as the CPU count scales it */
	bool uclamp_inc_after_enqueue; /* v6.12: uclamp_rq_inc() after the class's enqueue */
	bool fair_server;              /* v6.12+: the fair class's deadline server (rq->fair_server) */
	bool setattr_reweight_after_detach; /* 7.2: a task leaving fair keeps its load_avg there */
	bool migrate_pelt_lag; /* v6.0+: migrate_se_pelt_lag() and the idle clock it reads */
	struct task *migrating;        /* the queued task migrate_queued() is moving, or NULL */
	u64 busy_mask; /* bit c: rq[c].curr != NULL */
	u64 event_clock; /* sched_set_event_clock(): the next sched_event's rq clock; 0 none */
	/* sched_bound_event_clock(): the next switch's __schedule() called schedutil's hook from
	 * no update, so its root cfs_rq ended no PELT period since its last update, by the replay
	 * or at event_clock_updated (rq clock; 0 none) */
	bool event_clock_bound;
	u64 switch_anchor; /* sched_anchor_switch_clock(); 0 none */
	u64 event_clock_updated;
	struct sched_stats stats;
};

static inline struct task_node *node_of(struct task *p)
{
	return (struct task_node *)p;
}

/* se->sched_delayed (v6.12+): asleep, but its se still queued (fair_eevdf.c) */
static inline bool task_delayed(const struct task *p)
{
	return ((const struct task_node *)p)->ev.delayed;
}

/* se->on_rq: queued, running, or delayed (its load counts, not its runnable: se_runnable()) */
static inline bool se_on_rq(const struct task *p)
{
	return p->on_rq || task_delayed(p);
}

/* sub_positive(): subtract, floored at 0 */
static inline void sub_positive_ul(unsigned long *p, unsigned long v)
{
	*p = *p > v ? *p - v : 0;
}

static inline void sub_positive_u64(u64 *p, u64 v)
{
	*p = *p > v ? *p - v : 0;
}

static inline void sub_positive_u32(u32 *p, u32 v)
{
	*p = *p > v ? *p - v : 0;
}

/* do_idle() starts afresh, after a switch to idle or an idle exit that showed need-resched
 * (idle.c): no tick seen yet, the tick running, its next entry the first. */
static inline void idle_loop_restart(struct rq *rq)
{
	rq->got_idle_tick = false;
	rq->idle_tick_stopped = false;
	rq->idle_first_entry = true;
}

/* ---- core.c ---------------------------------------------------------------------------------- */
void cpufreq_update_util(struct sched *s, struct rq *rq, unsigned int flags);
void task_event(struct sched *s, struct task *p, int cpu, enum sched_task_event ev, u64 now);
/* core.c: enqueue_task(), dequeue_task() (uclamp, then the class; flags: DEQUEUE_SLEEP,
 * DEQUEUE_SPECIAL) */
void enqueue_task(struct sched *s, struct rq *rq, struct task_node *n);
void dequeue_task(struct sched *s, struct rq *rq, struct task_node *n, int flags, u64 now);
/* migrate.c: p moves to dst. Queued (not running): dequeue, detach, move, enqueue. Parked:
 * asleep in the model but on the kernel's runqueue (the balancer moved it): its util moves now.
 * Sleeping: at a wakeup, its load removed from the source at that rq's next update. Balanced
 * asleep (v6.12+): the balancer's move, from its softirq, of a task the kernel had delayed. */
void migrate_queued(struct sched *s, struct task_node *n, int dst, u64 now);
void migrate_parked(struct sched *s, struct task_node *n, int dst, u64 now);
void migrate_sleeping(struct sched *s, struct task_node *n, int dst, u64 now);
void migrate_balanced_asleep(struct sched *s, struct task_node *n, int dst, u64 now);
void update_rq_clock(struct rq *rq, u64 now);

/* ---- clock.c --------------------------------------------------------------------------------- */
/* The rq clock of the switch or wakeup being handled, stamped at now: the traced one where the
 * trace shows it (sched_set_event_clock), else the stamp less the lead (sched_config's). */
static inline u64 event_clock(const struct sched *s, u64 now, u64 lead)
{
	return s->event_clock ? s->event_clock : now > lead ? now - lead : 0;
}
/* switch_clock() where sched_bound_event_clock() bounds it */
u64 bounded_switch_clock(const struct sched *s, const struct rq *rq,
			 const struct task_node *prev, u64 t);
/* The rq clock of the switch being handled on rq, stamped at now, from prev (NULL: idle);
 * sleeping: prev sleeps there and is still queued (sleep_clock_lead_ns). */
static inline u64 switch_clock(const struct sched *s, const struct rq *rq,
			       const struct task_node *prev, u64 now, bool sleeping)
{
	u64 t = !s->event_clock && s->switch_anchor && s->switch_anchor <= now
			? s->switch_anchor
			: event_clock(s, now, sleeping && s->cfg.sleep_clock_lead_ns
						      ? s->cfg.sleep_clock_lead_ns
						      : s->cfg.switch_clock_lead_ns);

	return s->event_clock_bound ? bounded_switch_clock(s, rq, prev, t) : t;
}

/* ---- tasks.c --------------------------------------------------------------------------------- */
/* Make the task table (1024 slots) or double it. */
int table_grow(struct sched *s);
struct task_node *node_find(const struct sched *s, s32 pid);
/* An event names n, a known task, as comm (NULL or empty: no name): a started task whose name
 * changed is announced to the owner (the task_rename hook) before the event is applied. */
void node_rename(struct sched *s, struct task_node *n, const char *comm, u64 now);
/* Create (not started) the task of a pid > 0 not in the table; NULL only when out of memory. */
struct task_node *node_new(struct sched *s, s32 pid, const char *comm);
/* Take n out of the task table and recycle its node (its task exited). */
void node_free(struct sched *s, struct task_node *n);

/* ---- fair.c ---------------------------------------------------------------------------------- */
int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs, const struct pelt_variant *pv);
void post_init_entity_util_avg(struct sched *s, struct rq *rq, struct task *p);
void task_dead_fair(struct sched *s, struct task *p);
void switched_from_fair(struct sched *s, struct rq *rq, struct task *p);
/* core.c: a delayed task's dequeue (v6.12+), where something ends the delay */
void settle_delayed(struct sched *s, struct task_node *n, u64 now);
/* task_class.c: the weight of a fair prio (sched_prio_to_weight[], 1024 for other prios) */
unsigned long prio_to_weight(int prio);
/* fair.c: reweight_task_fair() -> reweight_entity(): p's load leaves its cfs_rq at the old
 * weight and joins it at w (and cfs_rq->load while queued) */
void reweight_task_fair(struct rq *rq, struct task *p, unsigned long w);
/* task_class.c: the governor's kthread created in the trace, and its sched_setattr() */
void governor_created(struct task_node *n);
void governor_setattr(struct sched *s, struct task_node *n, int prio, u64 now);
void governor_wakeup(struct sched *s, struct task_node *n, bool new, int prio, u64 now);
/* task_change_group_fair(): detach the task from the cfs_rq and attach it back (each a
 * cpufreq kick), as a move between groups does; the root cfs_rq is every group here. */
void task_change_group_fair(struct sched *s, struct rq *rq, struct task *p);
void enqueue_task_fair(struct sched *s, struct rq *rq, struct task *p);
/* flags: DEQUEUE_SLEEP, DEQUEUE_SPECIAL */
void dequeue_task_fair(struct sched *s, struct rq *rq, struct task *p, int flags);
/* v6.12+: a delayed task leaves its cfs_rq (dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED)):
 * picked, or moved, or woken elsewhere. */
void dequeue_delayed_fair(struct sched *s, struct rq *rq, struct task *p);
/* v6.12+: the load balancer moves a delayed task, queued and still delayed (sets p->cpu). */
void migrate_delayed_fair(struct sched *s, struct rq *src_rq, struct rq *dst_rq, struct task *p);
/* v6.12+: a task asleep, just attached to rq's cfs_rq (synced at its clock), joins it in the
 * delayed dequeue at lag 0. */
void enqueue_delayed_fair(struct sched *s, struct rq *rq, struct task *p);
/* The pick of a sched_switch to a fair task or to idle: the delayed tasks it dequeues first. */
void pick_delayed_fair(struct sched *s, struct rq *rq);
void set_next_task_fair(struct sched *s, struct rq *rq, struct task *p);
void put_prev_task_fair(struct sched *s, struct rq *rq, struct task *p);
void task_tick_fair(struct sched *s, struct rq *rq, struct task *p);
/* migrate_task_rq_fair(): a queued task leaves (detach_entity_cfs_rq), or a sleeping one
 * (remove_entity_load_avg); either way it attaches afresh at its next enqueue. */
void migrate_task_rq_fair(struct sched *s, struct rq *src_rq, struct task *p, bool queued,
			  u64 now);
/* attach_entity_cfs_rq(): a task not queued joins rq's cfs_rq (synced with ATTACH_AGE_LOAD). */
void attach_task_cfs_rq(struct sched *s, struct rq *rq, struct task *p);

/* ---- fair_eevdf.c --------------------------------------------------------------------------- */
u64 eevdf_base_slice(int nr_cpus);
bool eevdf_update_curr(struct sched *s, struct rq *rq);
void eevdf_set_next(struct sched *s, struct rq *rq, struct task *p);
void eevdf_enqueue(struct sched *s, struct rq *rq, struct task *p);
/* 6.12: a newidle pull of a task asleep in the trace leaves it lag 0 (the pick's dequeue) */
void eevdf_newidle_pulled(struct sched *s, struct task *p);
/* eevdf_enqueue() of a task that stays asleep, delayed, at lag 0 (enqueue_delayed_fair()) */
void eevdf_enqueue_delayed(struct sched *s, struct rq *rq, struct task *p);
bool eevdf_dequeue(struct sched *s, struct rq *rq, struct task *p, int flags);
void eevdf_requeue(struct sched *s, struct rq *rq, struct task *p);
struct task *eevdf_pick_delayed(struct sched *s, struct rq *rq);

/* ---- rt.c, deadline.c ------------------------------------------------------------------------ */
void enqueue_task_rt(struct sched *s, struct rq *rq);
void dequeue_task_rt(struct sched *s, struct rq *rq);
void set_next_task_rt(struct rq *rq, enum sched_class_id prev_class);
void put_prev_task_rt(struct rq *rq);
void task_tick_rt(struct rq *rq);
void enqueue_task_dl(struct sched *s, struct rq *rq, bool special);
void dequeue_task_dl(struct rq *rq);
void set_next_task_dl(struct rq *rq, enum sched_class_id prev_class);
void put_prev_task_dl(struct rq *rq);
void task_tick_dl(struct rq *rq);

/* ---- trace_start.c (govsim: --seed-util) ----------------------------------------------------- */
void absorb_blocked_seed(struct rq *rq, struct task *p);
/* An se's sums rebuilt from its averages at `divider`, as attach_entity_load_avg() rebuilds them
 * (fair.c; the load's unweighted: load_avg carries the se's weight w). */
static inline void se_sums_from_avgs(struct sched_avg *sa, u32 divider, unsigned long w)
{
	sa->util_sum = (u32)(sa->util_avg * divider);
	sa->runnable_sum = (u64)sa->runnable_avg * divider;
	sa->load_sum = ((u64)sa->load_avg * divider) / w;
}

int start_rq_from_trace_util(struct sched *s, const struct event *ev, u64 now);
int start_task_from_trace_util(struct sched *s, const struct event *ev, struct gs_error *err);
int start_task_from_snapshot(struct sched *s, const struct event *ev, struct gs_error *err);
bool replace_blocked_from_snapshot(struct rq *rq, struct task *p, const struct sched_avg *snap);

/* tasks.c: whether an event's comm (TASK_COMM_LEN bytes readable) names a task as p_comm
 * does (NUL-padded after its end): strncmp() over the 15 characters kept, which an event that
 * names the task as before, nearly every one, answers with one 16-byte compare. */
static inline bool comm_same(const char *comm, const char p_comm[TASK_COMM_LEN])
{
	return memcmp(comm, p_comm, TASK_COMM_LEN) == 0 ||
	       strncmp(comm, p_comm, TASK_COMM_LEN - 1) == 0;
}

/* Find or create (not started) the task of a pid > 0; NULL only when out of memory. comm: NULL
 * or an event's TASK_COMM_LEN array (comm_same() reads all of it). Inline: the events name
 * known tasks, nearly always by the name they have. */
static inline struct task_node *node_get(struct sched *s, s32 pid, const char *comm, u64 now)
{
	struct task_node *n = node_find(s, pid);

	if (!n)
		return node_new(s, pid, comm);
	if (comm && comm[0] && !comm_same(comm, n->t.comm))
		node_rename(s, n, comm, now);
	return n;
}

/* task_class.c: the class of a task at a prio, and the two kernel threads a prio does not
 * tell (sugov:N, the governor's; migration/N, the stopper). */
bool is_governor_comm(const char *comm);
bool is_stopper_comm(const char *comm);
enum sched_class_id task_class(const struct task *p, int prio);

#endif
