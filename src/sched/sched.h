/*
 * sched.h - the scheduler model: tasks and runqueues rebuilt from trace events, with PELT and
 * util_est signals computed by the kernel's integer arithmetic (Linux v5.9 kernel/sched/fair.c,
 * rt.c, pelt.c, pelt.h).
 *
 * The model is driven by its owner (src/sim/) with "what happened, and when": an event (switch,
 * wakeup, wakeup_new, migrate) applied at time `now_ns`, which is the trace time in traced timing
 * and the emulated time in work timing. It never reads a clock. It calls back into its owner at
 * the kernel's hook points (struct sched_hooks): uclamp inc/dec around class enqueue/dequeue,
 * cpufreq_update_util() where the kernel calls it, and a per-task record for --task-timeline.
 *
 * Opaque handle: sched_new()/sched_free().
 *
 * Conventions where a trace gives no answer (implemented in core.c, fair.c, rt.c, deadline.c;
 * docs/conventions.md):
 * - every CFS task has the nice-0 weight (se_weight 1024) whatever its prio;
 * - DL tasks other than sugov:N have bandwidth 0 (bw_dl = 0); the rq clock is now_ns (no irq
 *   or steal time, util_irq = 0);
 * - a task starts at its first scheduling event: zero sums dated its rq's clock_pelt, or with
 *   sched_wakeup_new post_init_entity_util_avg(), or with start_from_trace_util the
 *   averages of the trace's util events for it (sums rebuilt as avg * divider when it is
 *   attached at its first enqueue); task_new is called then, and sched_task_find() sees only
 *   started tasks;
 * - a CPU whose first event switches out a task never seen ran it since the model's first
 *   event (PELT starts then, one update at the switch standing for the ticks of the run; no
 *   cpufreq/task_event hook is called for that past instant);
 * - a switch whose prev is not the model's running task: the trace wins, counted in
 *   struct sched_stats; an RT dequeue kicks cpufreq as enqueue_top_rt_rq() does in v5.9.
 */
#ifndef GOVSIM_SCHED_SCHED_H
#define GOVSIM_SCHED_SCHED_H

#include "core/error.h"
#include "core/event.h"
#include "core/types.h"
#include "kernel/profile.h"
#include "sched/pelt.h"
#include "uclamp/uclamp.h"

struct sched;

/* SCHED_CLASS_STOP: the per-CPU stopper, migration/N (kernel/sched/stop_task.c): above every
 * class, invisible to the frequency signals (no cpufreq kick, no PELT signal, not RT). */
enum sched_class_id {
	SCHED_CLASS_IDLE = 0,
	SCHED_CLASS_CFS,
	SCHED_CLASS_RT,
	SCHED_CLASS_DL,
	SCHED_CLASS_STOP,
};

/* Task-timeline record kinds (the `event` column of --task-timeline). */
enum sched_task_event {
	TASK_EV_WAKEUP,   /* enqueue at wakeup */
	TASK_EV_SWITCH_IN,
	TASK_EV_TICK,
	TASK_EV_PREEMPT,  /* switched out runnable (R, R+) */
	TASK_EV_SLEEP,    /* switched out sleeping: dequeue */
	TASK_EV_MIGRATE,
	TASK_EV_DELAY_END, /* v6.12+: a delayed task left its runqueue (a pick's dequeue) */
};
const char *sched_task_event_name(enum sched_task_event ev);

struct task {
	s32 pid;
	char comm[TASK_COMM_LEN];
	int prio;
	/* se_weight(): scale_load_down(se->load.weight), the weight of its nice
	 * (sched_prio_to_weight[]); 1024 outside the fair prios. Changed by reweight only. */
	unsigned long weight;
	enum sched_class_id class;
	bool is_governor;   /* sugov:N kthread: not workload, ignored */
	bool is_stopper;    /* migration/N: the stop class at its prio 0 */
	int cpu;            /* task_cpu() */
	bool on_rq;         /* enqueued (runnable or running) */
	bool running;       /* rq->curr == p */
	bool in_iowait;     /* last dequeue was in D state (iowait boost sign; never set with
			     * sched_config.iowait_traced) */
	bool ran_since_start; /* first seen switching out as its CPU's first event: it has run
			       * there since the model's start (set before the task_new hook) */
	struct sched_avg avg; /* se.avg: PELT sums and util_est */
	struct uclamp_task uclamp;
	void *owner_data;   /* free for the owner (sim) */
};

/* What the governor reads of one CPU (sugov_get_util inputs), after the latest updates. */
struct sched_cpu_util {
	unsigned long util_avg;        /* rq->cfs.avg.util_avg */
	unsigned long util_est_enqueued; /* rq->cfs.avg.util_est.enqueued */
	unsigned long util_cfs;        /* cpu_util_cfs(): max(util_avg, util_est.enqueued) */
	unsigned long runnable_avg;    /* rq->cfs.avg.runnable_avg (v6.6 cpu_util_cfs_boost) */
	unsigned long load_avg;        /* rq->cfs.avg.load_avg */
	unsigned long util_rt;         /* cpu_util_rt(): rq->avg_rt.util_avg */
	unsigned long util_dl;         /* cpu_util_dl(): rq->avg_dl.util_avg */
	unsigned long bw_dl;           /* cpu_bw_dl() */
	unsigned long util_irq;        /* cpu_util_irq(); 0: the trace carries no irq time */
	bool rt_runnable;              /* rt_rq_is_runnable() */
	unsigned long capacity;        /* arch_scale_cpu_capacity() */
	bool busy;                     /* rq->curr is not idle */
	u64 idle_calls;                /* tick_nohz_get_idle_calls_cpu() (sugov_cpu_is_busy) */
};

#define SCHED_CPUFREQ_IOWAIT (1U << 0)

struct sched_hooks {
	void *ctx;
	/* uclamp_rq_inc/dec: before the class enqueue/dequeue (core.c enqueue_task/dequeue_task). */
	void (*uclamp_inc)(void *ctx, int cpu, struct task *p);
	void (*uclamp_dec)(void *ctx, int cpu, struct task *p);
	/* cpufreq_update_util(rq, flags) at the v5.9 call sites (fair.c, rt.c, deadline.c). */
	void (*cpufreq_update)(void *ctx, int cpu, u64 now_ns, unsigned int flags);
	/* A task first seen (policy rules are applied here). */
	void (*task_new)(void *ctx, struct task *p, u64 now_ns);
	/* --task-timeline: after the kernel's updates at that point. */
	void (*task_event)(void *ctx, const struct task *p, int cpu, enum sched_task_event ev,
			   u64 now_ns);
	/* Added: a task's class changed (its prio crossed 0 or 100), applied while it is not
	 * queued, before its next enqueue; the owner re-derives p->uclamp.is_rt here
	 * (uclamp_task_set_rt). May be NULL. */
	void (*task_class_change)(void *ctx, struct task *p, enum sched_class_id old_class,
				  u64 now_ns);
	/* Added: a started task died (switched out X or Z, do_task_dead(): it never runs again;
	 * its pid may come back as a new task). Called after its final switch-out, off every
	 * runqueue. Return true when the owner has kept what its results need and released
	 * p->owner_data: the task's state is then freed (sched_task_find() no longer sees it).
	 * NULL or false: the task is kept, as before. */
	bool (*task_exit)(void *ctx, struct task *p, u64 now_ns);
	/* A started task's name changed (an event names it differently: prctl(PR_SET_NAME), or
	 * an exec). Called when an event first shows the new name, before the event is applied,
	 * with p->comm already the new name; the task may be running or queued. May be NULL. */
	void (*task_rename)(void *ctx, struct task *p, const char *old_comm, u64 now_ns);
	/* A CPU about to idle after prev (pick_next_task_fair() with no task left:
	 * newidle_balance(), sched_balance_newidle() from v6.10): after prev's dequeue, before
	 * the idle loop counts an entry; prev_died: prev was switched out to die; rq_clock_ns:
	 * the rq clock __schedule() read for the switch. May be NULL. */
	void (*newidle)(void *ctx, int cpu, bool prev_died, u64 now_ns, u64 rq_clock_ns);
};

struct sched_config {
	int nr_cpus;
	unsigned long capacity[GS_MAX_CPUS]; /* arch_scale_cpu_capacity per CPU */
	int hz;                              /* CONFIG_HZ, default 250 */
	bool start_from_trace_util; /* --seed-util: start tasks and rqs from the trace's util */
	/* The trace gives the kernel's own iowait requests (sugov_set_iowait_boost), which the
	 * owner replays: in_iowait is not guessed from D-state sleeps. */
	bool iowait_traced;
	/* CONFIG_SCHED_AUTOGROUP: an exiting task is moved to its group while it runs
	 * (sched_autogroup_exit_task() -> sched_move_task(): sched_task_exiting()). */
	bool sched_autogroup;
	/* DELAY_DEQUEUE (sched_feat, v6.12+): 0 the profile's, < 0 off, > 0 on (the profile's
	 * variant, or v6.12's for a profile without it) */
	int delay_dequeue;
	/* How long before a sched_switch's timestamp its __schedule() read the rq clock
	 * (update_rq_clock() at its start): the switch's PELT updates, and the governor update
	 * they make, happen then (not before the rq's last clock update). 0: at the stamp. */
	u64 switch_clock_lead_ns;
	/* The same for a switch whose prev sleeps, still queued at the switch (no newidle probe
	 * dequeued it first): its dequeue, its pick (and a newidle balance) come between the
	 * clock read and sched_switch. 0: switch_clock_lead_ns. */
	u64 sleep_clock_lead_ns;
	/* The same for a wakeup: try_to_wake_up() updates the rq clock, enqueues, checks for
	 * preemption and only then traces sched_wakeup (sched_wakeup_new). */
	u64 wakeup_clock_lead_ns;
	/* A dying task's task_dead_fair() waits for sched_task_dead_point() (its caller knows
	 * whether an interrupt ran before it); false: it runs at the dying switch. */
	bool defer_task_dead;
	/* v6.12+: the pick that a load balancer's move of a delayed task onto a CPU calls for
	 * waits for sched_delayed_pick_point() (the CPU back in task context); false: at once. */
	bool defer_delayed_pick;
	/* Traced timing: the trace's own wakeups mark the running task for preemption (a
	 * sched_wakeup printed on its target CPU with TIF_NEED_RESCHED, event.wake.resched), so
	 * the next switch keeps the wakeup's rq clock. In work timing the replay's schedule is
	 * not the trace's, and only a wakeup onto an idle CPU does. */
	bool preempt_traced;
	/* The CPUs have a cpuidle driver (the default); without one, kernels with
	 * kernel_profile.idle_retain_tick count an idle entry only after a tick wakeup. */
	bool cpuidle_driver;
	/* The trace has cpu_idle events: idle entries are counted from them from the start. */
	bool idle_traced;
	/* The kernel profile (NULL: v5.9): PELT invariance, util_est variant, whether
	 * update_blocked_averages kicks cpufreq. Read once by sched_new(). */
	const struct kernel_profile *kernel;
	/* The kernel's rq clock of each CPU is trace time minus rq_clock_offset_ns[cpu], where
	 * known (has_rq_clock_offset): PELT's periods then fall where the kernel's do. */
	bool has_rq_clock_offset;
	s64 rq_clock_offset_ns[GS_MAX_CPUS];
};

int sched_new(const struct sched_config *cfg, const struct sched_hooks *hooks, struct sched **out);
void sched_free(struct sched *s);

/*
 * Apply a scheduling event at now_ns (>= every earlier now_ns; equal times keep call order):
 * EV_SWITCH, EV_WAKEUP, EV_WAKEUP_NEW, EV_MIGRATE change state; EV_PELT_SE / EV_LOAD_SE /
 * EV_UTIL_EST_SE seed a not-yet-started task's signals when start_from_trace_util is set;
 * other types are ignored. A CPU outside 0..nr_cpus-1 gives GS_ETRACE. An EV_SWITCH marked
 * TASK_STATE_BLOCK_EARLY is only __schedule()'s deactivate_task() of its prev, ahead of the
 * switch (src/sim/kernel_points.c).
 */
int sched_event(struct sched *s, const struct event *ev, u64 now_ns, struct gs_error *err);
/* The rq clock the kernel read for the next sched_event() (a switch's __schedule(), a wakeup's
 * enqueue), where the trace shows it: that event's PELT updates happen at it instead of its
 * stamp less switch_clock_lead_ns / wakeup_clock_lead_ns. The next sched_event() uses it when
 * it is not after that event's now_ns, and clears it. */
void sched_set_event_clock(struct sched *s, u64 clock_ns);
/* Whether cpu's next __schedule() is to skip its clock update (a wakeup's
 * rq_clock_skip_update()): its PELT updates then see the clock last read there. */
bool sched_clock_skip_pending(const struct sched *s, int cpu);
/* With defer_task_dead: whether a task that died on cpu still has its task_dead_fair() to come,
 * and that call (its util queued to leave the cfs_rq at the next update; nothing pending: a
 * no-op). finish_task_switch() makes it once interrupts are back on, so an interrupt pending at
 * the dying switch runs before it. */
bool sched_task_dead_pending(const struct sched *s, int cpu);
void sched_task_dead_point(struct sched *s, int cpu);
/* With defer_delayed_pick: the CPUs (a mask) where the load balancer, from its softirq, moved a
 * task asleep in EEVDF's delayed dequeue and a pick is to come, since when, and that pick
 * (the delayed tasks it chooses leave the CPU's cfs_rq; a switch on the CPU makes it too). */
u64 sched_delayed_pick_mask(const struct sched *s);
u64 sched_delayed_pick_since(const struct sched *s, int cpu);
void sched_delayed_pick_point(struct sched *s, int cpu, u64 now_ns);
/* The next sched_event, a switch, is one whose __schedule() the trace shows calling schedutil's
 * hook from no update (the CPU's hook calls are traced; `updated`: the rq clock of its last
 * one, 0 none): where the rq clock it would take otherwise is at or past the end of the PELT
 * period of the root cfs_rq's last update (the replay's, or `updated`), it takes the last
 * microsecond before it. */
void sched_bound_event_clock(struct sched *s, u64 updated);
/* The next switch's clock, where no traced clock dates it (sched_set_event_clock): its
 * __schedule() read it before the first PELT or util_est event it traced, so at `clock` (the
 * sim's estimate from that event), not at the stamp less the lead. 0: none. */
void sched_anchor_switch_clock(struct sched *s, u64 clock);
/* sched_waking of pid: its wakeup is in progress until its sched_wakeup, so a migration of it
 * meanwhile is the wakeup's (sched_event() does the same for an EV_WAKING event). prio is the
 * event's: a governor kthread created in the trace shows its sched_setattr() there. Returns 0. */
int sched_note_waking(struct sched *s, s32 pid, int prio, u64 now_ns);

/* The scheduler tick on a busy CPU (scheduler_tick -> task_tick_fair/rt). */
void sched_tick(struct sched *s, int cpu, u64 now_ns);
/* The scheduler's high-resolution tick (hrtick -> task_tick(queued=1)) on a busy CPU. */
void sched_hrtick(struct sched *s, int cpu, u64 now_ns);
/* update_blocked_averages(cpu) as the nohz idle balance runs it; true while the CPU has blocked
 * load left (rq->has_blocked_load: some rt, dl or root cfs signal not yet decayed to 0). */
bool sched_update_blocked(struct sched *s, int cpu, u64 now_ns);
/* Task pid starts to exit on cpu (sched_process_exit): with sched_autogroup, the kernel's
 * sched_move_task() of it, each cpufreq kick included; nothing otherwise, or when the model
 * does not have pid running there. */
void sched_task_exiting(struct sched *s, int cpu, s32 pid, u64 now_ns);
/* The trace's idle-loop steps on an idle cpu: an entry (cpu_idle with a state) and a tick.
 * From a CPU's first traced entry on, these count its idle entries for schedutil's busy hold
 * (tick_nohz_get_idle_calls_cpu()) instead of its switches to idle. sched_cpu_idle_enter() is
 * true when the entry stopped the tick (nohz_balance_enter_idle() follows); the tick also
 * updates the rq clock, as sched_tick() does. */
bool sched_cpu_idle_enter(struct sched *s, int cpu);
/* An idle-loop exit (cpu_idle 4294967295) that shows TIF_NEED_RESCHED (resched): the loop ends
 * and do_idle() starts again, as after a switch to idle. */
void sched_cpu_idle_exit(struct sched *s, int cpu, bool resched);
void sched_idle_tick(struct sched *s, int cpu, u64 now_ns);
/* An idle CPU woken by an interrupt that queues no task (an IPI) goes round the idle loop
 * again: counted as an idle entry where the trace has no cpu_idle entries of the CPU. */
void sched_cpu_idle_reenter(struct sched *s, int cpu);
/* A frequency change takes effect: advance clock_pelt at the old scale up to now, then use the
 * new arch_scale_freq_capacity (= (cur_khz << 10) / max_khz). A scale that does not change (a
 * CPU that is not frequency-invariant) reads no clock: the kernel's arch_set_freq_scale()
 * only stores the scale (drivers/base/arch_topology.c topology_set_freq_scale(), Debian 7.2;
 * the model reads the clock only to split an interval at a new scale). */
void sched_set_freq_scale(struct sched *s, int cpu, u64 now_ns, unsigned long freq_scale);

void sched_cpu_util(const struct sched *s, int cpu, struct sched_cpu_util *out);
/* rq->nr_running (cfs, rt and dl tasks runnable on cpu, the running one included). */
unsigned int sched_cpu_nr_running(const struct sched *s, int cpu);
/* The CPU's root cfs_rq util_avg, and a task's util_avg, as a PELT update at now_ns would leave
 * them (decayed, or accumulated while runnable/running, to now_ns), computed on copies: the
 * scheduler is not changed. For comparing with a kernel's signal read at an instant where the
 * model has no update; a time before the last update gives the last value. */
unsigned long sched_cpu_util_avg_at(const struct sched *s, int cpu, u64 now_ns);
/* The root cfs_rq's runnable_avg the same way (v5.7+: h_nr_running-based, util's scale). */
unsigned long sched_cpu_runnable_avg_at(const struct sched *s, int cpu, u64 now_ns);
/* Its load_avg the same way (scale_load_down(load.weight): 1024 per queued nice-0 task). */
unsigned long sched_cpu_load_avg_at(const struct sched *s, int cpu, u64 now_ns);
/* rq->avg_rt.util_avg the same way (running while the CPU runs an RT task). */
unsigned long sched_cpu_util_rt_at(const struct sched *s, int cpu, u64 now_ns);
unsigned long sched_task_util_avg_at(const struct sched *s, const struct task *p, u64 now_ns);
/* A task's EEVDF state where the profile models it (v6.12, 7.2: delayed dequeue): its vlag as
 * stored (ns of virtual time; the lag its next placement uses while it is off the queue) and
 * whether it is delayed (se->sched_delayed). False, and nothing written, elsewhere. */
bool sched_task_eevdf(const struct sched *s, const struct task *p, s64 *vlag_ns, bool *delayed);
/* sched_cpu_util()'s bw_dl alone (cpu_bw_dl(); 0 in this model). */
unsigned long sched_cpu_bw_dl(const struct sched *s, int cpu);
/* The running task of a CPU (NULL when idle or running the governor kthread). */
struct task *sched_cpu_curr(const struct sched *s, int cpu);
/* The CPUs running a task, one bit each: bit c is set iff sched_cpu_curr(s, c) != NULL. */
u64 sched_busy_mask(const struct sched *s);
struct task *sched_task_find(const struct sched *s, s32 pid);
/* Iterate every known task: calls fn for each, in pid order. */
void sched_for_each_task(struct sched *s, void (*fn)(void *ctx, struct task *p), void *ctx);
/* The uclamp state of a CPU's runqueue (zeroed by sched_new(): the owner initialises it with
 * uclamp_rq_init(); the model never calls uclamp functions, only the hooks). */
struct uclamp_rq_pair *sched_cpu_uclamp(struct sched *s, int cpu);

/*
 * Placement (eas.h): what v5.9's CPU selection reads of a runqueue, into *out (util, load,
 * nr_running, idle, curr's prio, the rq's clamps; capacity_of = capacity_orig; the idle
 * state's exit latency and idle_stamp are left to the caller); and of a task: its util synced
 * to its cfs_rq's last update (sync_entity_load_avg), util_est, load, prio, clamps
 * (cpus_allowed left 0: the caller's).
 */
struct eas_cpu;
struct eas_task;
void sched_eas_cpu(struct sched *s, int cpu, struct eas_cpu *out);
void sched_eas_task(const struct sched *s, const struct task *p, struct eas_task *out);

/* Re-account a queued task's clamps after a change (uclamp_update_active: dec then inc). */
void sched_task_uclamp_update(struct sched *s, struct task *p);

/*
 * Added: how often the trace and the model disagreed, and what the model did about it.
 * Each is a count of events; none of them is an error.
 */
struct sched_stats {
	u64 tasks;                 /* tasks started (first scheduling event seen) */
	u64 switch_prev_mismatch;  /* sched_switch whose prev was not the model's running task:
				    * the trace is trusted (prev switched out, the model fixed) */
	u64 switch_next_elsewhere; /* next was running on another CPU in the model: put back there */
	u64 wakeup_on_rq;          /* wakeups of a task already queued: ignored */
	u64 implicit_enqueue;      /* switch-in of a task not queued (no wakeup seen): enqueued then */
	u64 implicit_migration;    /* woken/switched in on another CPU without sched_migrate_task */
	u64 migrate_orig_mismatch; /* sched_migrate_task orig_cpu != the model's task_cpu() */
	u64 governor_switches;     /* switches into the sugov:N kthread (a switch to idle) */
	u64 started_running;       /* a CPU's first event switched out a new task: running since
				    * the first event of the model */
	u64 seeded;                /* tasks started from the trace's util events */
	u64 seeded_rqs;            /* CPUs whose cfs_rq started from the trace's root util */
	u64 live_tasks;            /* task states held now (started or not) */
	u64 peak_live_tasks;       /* the most held at once: memory grows with this */
	u64 exited;                /* task states freed at their death (hooks.task_exit) */
};
void sched_get_stats(const struct sched *s, struct sched_stats *out);

#endif
