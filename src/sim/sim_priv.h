/*
 * sim_priv.h - the replay loop's state, shared by the files of src/sim/ that make up the loop:
 * sim.c (the loop and its wiring), account.c (residency, busy/idle), timeline.c (the
 * stored timeline), balance.c and kernel_points.c (the load balancer's and the kernel's own
 * update points), observer.c (the optional features' hook list) and the observers:
 * wattson_observer.c, timeline.c (the rows a replay reports as it goes), validate.c (govsim
 * validate, --util-source trace), placement.c (--placement eas and validate's check of it),
 * overhead.c (the kernel's costs) and exited.c (the tasks that died); finish.c (the run's
 * results), prescan.c. Not API; the work timing layer (src/work/) does not see it.
 */
#ifndef GOVSIM_SIM_PRIV_H
#define GOVSIM_SIM_PRIV_H

#include "cpufreq/cpufreq.h"
#include "sched/eas.h"
#include "kernel/kernel_cost.h"
#include "sched/sched.h"
#include "sim/observer.h"
#include "sim/sim.h"
#include "work/work.h"

#define SIM_VAL_PEND_MAX 8 /* util_est samples waiting per CPU (validate.c) */
#include "uclamp/uclamp.h"

#define BLOCKED_PERIOD_NS (32 * NSEC_PER_MSEC) /* LOAD_AVG_PERIOD ms */
#define SCHED_SOFTIRQ_VEC 7                    /* include/linux/interrupt.h, v4.19 to 7.2 */
#define TIMELINE_MAX_POINTS 4096               /* per policy, after decimation */
#define NO_TIME UINT64_MAX

/* A step of a policy's frequency for the stored timeline: khz in force from t_ns on. */
struct sim_step {
	u64 t_ns;
	u32 khz;
};

/* The steps of one frequency (emulated or traced) of a policy, in time order; every one is
 * kept (a run has as many as the trace's and the governor's frequency changes). */
struct sim_steps {
	struct sim_step *v;
	size_t n, alloc;
	bool lost; /* out of memory: a step could not be kept */
};

/* The largest util the governor saw over a policy's CPUs in the bucket ending at t_ns. */
struct sim_util_sample {
	u64 t_ns;
	u32 util;
};

struct sim_task {
	bool born_in_trace; /* its sched_wakeup_new was replayed (validate: pre-trace tasks apart) */
	u64 in_at_ns;     /* last switch-in */
	bool on_cpu;      /* running since in_at_ns: its switch-in was seen (or it ran since the
			   * trace's start); false: a switch-out has no known start, runs 0 */
	u64 runtime_ns;
	u64 runtime_cl_ns[GS_MAX_CLUSTERS]; /* per cluster (--placement eas) */
	u64 migrations;
};

struct sim_cpu {
	int cluster;
	/* the last traced call of schedutil's hook on this CPU while no event since ends its
	 * claim on the next switch or wakeup (sim_note_event_clock) */
	bool hook_pending;
	u32 hook_irq; /* its EV_IRQ_* context bits (0: task context) */
	u64 hook_time; /* its rq clock (the kernel's, ns) */
	u64 hook_stamp; /* its trace time */
	/* the call was the first of this CPU's events since its last switch to show
	 * TIF_NEED_RESCHED (resched_shown: one of its wakeups or hook calls has) */
	bool hook_resched_first, resched_shown;
	/* the last sched_waking this CPU traced, while no event since ends its claim on the
	 * task's sched_wakeup (sim_note_event_clock): its pid (0: none) and stamp */
	s32 waking_pid;
	u64 waking_ts;
	bool hooks_seen;        /* schedutil's hook has been traced on this CPU: the governor is live */
	/* this CPU is refreshing another CPU's blocked load (its update_blocked_averages probe
	 * named that CPU): the hook calls that follow are that rq's and claim nothing here */
	bool hook_foreign;
	/* the stamp of the first PELT or util_est event this CPU traced in task context since its
	 * last event that ends a hook call's claim (0: none): inside the __schedule() whose switch
	 * comes next, after its clock read (sim_note_event_clock) */
	u64 pelt_first;
	/* the first sched_util_est_cfs of a root cfs_rq the CPU traced since then (0: none): the
	 * print of an enqueue's util_est_enqueue(), its first update after the wakeup's clock
	 * read; its context's EV_IRQ_* bits and the rq's CPU */
	u64 enqueue_first;
	u32 enqueue_irq;
	s32 enqueue_rq;
	/* the rq clock (replay time) of its last hook call, a root cfs_rq update, unless that
	 * call was a wakeup's onto another CPU; hook_clock_before: the one before it */
	u64 hook_clock, hook_clock_before;
	/* a task that reached sched_process_exit here and whose move to its group waits for the
	 * hook call that shows it (sim_exit_move_point); exit_move: sim_feed() saw that call, at
	 * rq clock exit_move_time */
	s32 exit_pid;
	bool exit_move;
	u64 exit_move_time;
	/* the move made at a hook call (sim_exit_move_point): its task and rq clock. The move's
	 * other calls at that clock are its own and claim no later event (sim_note_event_clock) */
	s32 moved_pid;
	u64 moved_time;
	/* a task died here (its sched_switch at dead_at) and its task_dead_fair() waits
	 * (sim_context_point); dead_irq: the CPU's first event since was an interrupt's */
	u64 dead_at;
	bool dead_irq;
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
	u64 acct_ns;            /* its counters cover the time up to here (account.c) */
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
	const struct plat_cluster *pc;   /* the platform's cluster the policy was made from */
	const struct governor *gov;  /* the governor and its per-policy state */
	void *gov_data;
	int cur_opp;
	u64 residency_ns[GS_MAX_OPPS];
	u64 busy_ns_opp[GS_MAX_OPPS];
	u64 idle_ns_state[GS_MAX_IDLE_STATES];
	u64 cpu_mask;           /* its CPUs, one bit each */
	bool all_idle;
	u64 all_idle_since_ns;
	u64 transitions;
	s32 kthread_pid; /* the policy's sugov:N as the trace shows it (0: not seen) */
	/* lazy accounting (sim_account): the counters cover the time up to acct_ns, during which
	 * the frequency was acct_khz (pol.cur_khz changes inside the governor before the loop
	 * sees it); `eager` while a CPU of it is csv_frac (its integrand is not linear in dt) */
	u64 acct_ns;
	u32 acct_khz;
	bool eager;
	bool freq_dirty;       /* cur changed inside a hook: tell the scheduler after it returns */
	/* the stored timeline (timeline.c): util decimated into buckets, every frequency step */
	u64 tl_bucket_ns;
	u64 tl_bucket_end_ns;
	unsigned long tl_util;  /* max util seen in the bucket */
	bool tl_pending;
	struct sim_util_sample *tl;
	size_t nr_tl, alloc_tl;
	bool tl_lost;               /* out of memory: a util sample could not be kept */
	struct sim_steps tl_emu;    /* the emulated frequency, from the replay's start */
	struct sim_steps tl_traced; /* the trace's (first CPU's), from its first event */
};

/* The events sim_feed() holds at most while a CPU's next event decides when one of them
 * happened (kernel_points.c): a __schedule() traces its switch, a tick or a softirq its hook
 * call, within tens of microseconds; beyond this many events the hold ends in trace order. */
#define SIM_HOLD_MAX 64

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
	u64 dead_mask;     /* bit c: cpu[c] has a task_dead_fair() waiting (task_dead_irq_us) */
	bool any_freq_dirty; /* some cluster's freq_dirty is set */
	bool traced_ticks;   /* the trace gives the scheduler tick: no grid (feed_tick) */
	bool kthread_timing; /* traced timing, kthread_traced: look for the governor kthread */
	/* traced timing, rq_clock_traced and rq_clock_offset_ns: the clocks of the traced hook
	 * calls date switches and wakeups (kernel_points.c sim_note_event_clock) */
	bool clock_timing;
	/* kernel_points.c sim_feed(): the events held until a CPU's next event says when one of
	 * them happened (the newidle order, the tick's and a refresh's clock) */
	struct sim_hold {
		struct sim_held {
			struct event ev;
			unsigned order; /* trace order within the hold; a sleeper's switch before
					 * its newidle probe */
		} ev[SIM_HOLD_MAX];
		int n;
		u64 waiting; /* bit c: CPU c's next event decides (sim_hold_cpu) */
		struct sim_hold_cpu {
			unsigned char kind;  /* HOLD_NEWIDLE, HOLD_TICK, HOLD_EXIT */
			unsigned char chain; /* held events of the CPU its hook call dates */
			unsigned char at[2]; /* their indices in ev[] */
			/* as sim_feed() sees the trace: a task past sched_process_exit here whose
			 * move has not shown, and the task it is waking (until its sched_wakeup)
			 * where this CPU may make that wakeup's enqueue (exit_woken: the task it
			 * woke, whether or not) */
			s32 exit_pid, exit_waking, exit_woken;
		} cpu[GS_MAX_CPUS];
	} hold;
	/* The CPU whose event (or tick, or blocked-load refresh) is being applied: the CPU
	 * calling cpufreq_update_util(), -1 when not known (cpufreq_this_cpu_can_update()). */
	int this_cpu;
	/* where the blocked-load updates come from (feed_blocked_update): the replay's own (the
	 * load balancer's of balance.c, or the 32-ms refresh under work timing), the trace's
	 * SCHED_SOFTIRQ entries, or the lab's update_blocked_averages probe */
	enum { TRACED_BLOCKED_NONE, TRACED_BLOCKED_SOFTIRQ, TRACED_BLOCKED_PROBE } traced_blocked;
	/* bit c: validate waits for the end of CPU c's traced evaluation (a resolve_freq whose
	 * idle_calls probe may follow): the CPU's next event ends it (sim_feed_event) */
	u64 probe_open;
	u64 iowait_requests; /* the trace's iowait requests replayed (feed_iowait) */
	u64 csv_busy_mask; /* bit c: cpu[c].csv_busy == 1 */

	bool started;
	u64 t0;            /* first event: trace-relative 0 */
	u64 t_last;        /* the trace's last event, of any type */
	u64 now;           /* emulated time of the loop */
	u64 last_acct;
	u64 tick_ns;
	u64 next_tick;
	u64 next_blocked;
	/* the load balancer's update points where the trace has none (balance.c) */
	struct sim_balance {
		u64 next_balance[GS_MAX_CPUS]; /* rq->next_balance */
		u64 last_balance[GS_MAX_CPUS]; /* the CPU's domain's last_balance */
		u64 last_update[GS_MAX_CPUS];  /* rq->last_blocked_load_update_tick */
		u64 idle_stamp[GS_MAX_CPUS];   /* rq->idle_stamp, 0: none */
		u64 avg_idle[GS_MAX_CPUS];     /* rq->avg_idle */
		bool has_blocked_load[GS_MAX_CPUS];
		bool has_blocked;              /* nohz.has_blocked */
		u64 next_blocked;              /* nohz.next_blocked */
		/* rq->idle_balance: the CPU was idle at its last tick (sched_tick()) */
		bool idle_balance[GS_MAX_CPUS];
		/* the CPU's tick ran and the CPU has not switched or left the idle loop since: a
		 * SCHED_SOFTIRQ now is the one that tick raised, not an idle-load balancer's kick */
		bool tick_irq[GS_MAX_CPUS];
		bool nohz_tick_stopped[GS_MAX_CPUS]; /* rq->nohz_tick_stopped: in idle_cpus_mask */
		bool overloaded; /* rd->overload: a CPU had two runnable since the last balance */
	} bal;
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
	/* the last event each CPU recorded, and how many were that event again (ignored) */
	struct event last_ev[GS_MAX_CPUS];
	bool have_last_ev[GS_MAX_CPUS];
	u64 duplicates;
	u64 clamped_up_ns, clamped_down_ns;
	u64 overutil_ns[GS_MAX_CLUSTERS];
	struct sim_validation val;
	/* util_est samples the kernel traced inside an enqueue or dequeue, per trace CPU,
	 * waiting for the scheduling event that shows it (validate.c's observer) */
	struct event val_pend[GS_MAX_CPUS][SIM_VAL_PEND_MAX];
	u32 nr_val_pend[GS_MAX_CPUS];
	/* the emulated frequency at the start, per cluster; validate's decisions' capacity */
	u32 emu_init_khz[GS_MAX_CLUSTERS];
	size_t cap_dec;
	char notes[GS_ERROR_MSG_MAX];
	const struct kernel_profile *kp; /* never NULL */
	bool any_traced_freq;
	/* the optional features that watch the replay (observer.h): --power-model wattson,
	 * validate, validate --placement eas, --placement eas, the --timeline, --task-timeline
	 * and --perfetto writers, and in every replay the kernel overhead model and the tasks
	 * that died */
	struct sim_observers obs;
	/* what the trace's util signals do (sim.c's feed_util), chosen at sim_new from the
	 * options, in this order: shown to the observers (traced timing, the emulated util),
	 * seeds (--seed-util), the util the governor reads (--util-source trace, traced timing) */
	int (*util_step[3])(struct sim *s, const struct event *ev, struct gs_error *err);
	int nr_util_steps;
	u64 w_idle_seen; /* bit per CPU that had a traced idle state (cpu_idle, CSV idle_state) */
	struct policy_action_stats *astats; /* one per policy action (cfg.policy->n) */
	/* --placement eas: the placement driver's state (placement.c, an observer), which the
	 * work layer's place and take_pull strategy reads too; NULL without the driver */
	struct sim_place *place;
	/* the kernel overhead observer's state (overhead.c), which the work layer's kernel_work
	 * charge reads too */
	struct sim_ovh *ovh;
};

/* ---- small helpers -------------------------------------------------------------------------- */

static inline struct sim_cluster *sim_cluster_of(struct sim *s, int cpu)
{
	return &s->cl[s->cpu[cpu].cluster];
}

static inline double ns_to_s(u64 ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

static inline struct sim_task *sim_task_data(struct task *p)
{
	return p->owner_data;
}

/* account.c: lazy per-cluster accounting (see there) */
void sim_cluster_account(struct sim *s, int c, u64 t);
void sim_cluster_flush_all(struct sim *s);
void sim_cluster_sync_khz(struct sim *s, int c);
void sim_cluster_update_eager(struct sim *s, int c);
void sim_account(struct sim *s, u64 t);
void sim_refresh_cluster(struct sim *s, int c);
void sim_refresh_busy(struct sim *s, int cpu);
static inline void sim_cluster_flush(struct sim *s, int c)
{
	if (s->cl[c].acct_ns < s->last_acct)
		sim_cluster_account(s, c, s->last_acct);
}

/* gov_start.c: the userspace governor's start (setspeed = the frequency the policy had, or
 * --set freq_khz clamped and resolved). The check refuses (GS_EARG) a policy whose frequency
 * the trace does not give when freq_khz is not set; the notes say where the frequency in
 * force is not the one asked for, or whose it is. */
int sim_gov_start_check(const struct sim_config *cfg, const struct plat_cluster *pc,
			struct gs_error *err);
void sim_gov_start_notes(const struct sim *s, struct run_result *r);

/* validate.c */
bool sim_is_util_event(enum event_type t);
int sim_trace_util(struct sim *s, const struct event *ev);
/* The trace's util events the emulation has a signal for: shown to the observers in traced
 * timing with the emulated util (the validation observer compares them). */
bool sim_is_compared_event(enum event_type t);
/* Register govsim validate's observer (0, or GS_ENOMEM): the kernel's evaluations (a
 * resolve_freq probe event) and the emulation's (of one CPU at s->now) paired one to one within
 * SIM_GOV_PAIR_NS; the kernel's frequency decisions matched with the emulated changes; the
 * trace's util signals compared with the emulated ones, util_est samples once their scheduling
 * event is applied; tasks born in the trace marked. */
int sim_validate_observe(struct sim *s, struct gs_error *err);

/* wattson_observer.c: register --power-model wattson's observer (0, or GS_ENOMEM). */
int sim_wattson_observe(struct sim *s, struct gs_error *err);

/* exited.c: register the observer of the tasks that died (0, or GS_ENOMEM): it keeps their
 * pid, comm, runtime and the work layer's measures, and adds them to r->tasks in pid order. */
int sim_exited_observe(struct sim *s, struct gs_error *err);

/* placement.c: register --placement eas's driver, an observer, and set s->place (0, or
 * GS_ENOMEM): the root domain's overutilized and misfit flags kept up from the emulated
 * runqueues, the slices of the placement plot (sim_config.placement_slices), the results and
 * notes. */
int sim_placement_observe(struct sim *s, struct gs_error *err);
/* struct work_host.place and take_pull (ctx: the replay), once the driver is registered: the CPU
 * v5.9's select_task_rq() picks for a wakeup; a misfit pull the driver decided at a tick. */
int sim_placement_wakeup(void *ctx, const struct event *ev, int waker_cpu, u64 now);
bool sim_placement_take_pull(void *ctx, int *src, int *dst);
/* Register validate --placement eas's observer (0, or GS_ENOMEM): the traced wakeups and
 * migrations scored against v5.9's choice from the emulated state. */
int sim_placement_check_observe(struct sim *s, struct gs_error *err);
/* overhead.c: the kernel's own overhead */
/* --set uclamp_task=0: only attach actions apply (GS_EPOLICY naming the first other one). */
int sim_ovh_check_policy(const struct sim_config *cfg, struct gs_error *err);
/* Make the model, s->ovh, and register its observer (0, or GS_ENOMEM): the enqueues and
 * dequeues, cpufreq_update_util calls, governor evaluations and frequency switches counted and
 * costed (the calls below, which the loop makes itself at those points in every replay), put in
 * r->ovh at the end. */
int sim_ovh_observe(struct sim *s, struct gs_error *err);
/* enqueue_task()/dequeue_task() of p on cpu (v5.9 core.c: after uclamp's rq inc, before its dec),
 * as kcost_sched_work() costs it, where the kernel profile has uclamp. */
void sim_ovh_rq_task(struct sim *s, int cpu, const struct task *p, bool enqueue);
/* cpufreq_update_util() called cpu's governor. */
void sim_ovh_update_util(struct sim *s, int cpu);
/* The governor evaluated cpu. */
void sim_ovh_gov_eval(struct sim *s, int cpu);
/* The governor moved cluster to another OPP (a switch made on its first CPU). */
void sim_ovh_opp_change(struct sim *s, int cluster);
/* struct work_host.kernel_work: the ns of work the emulated configuration's enqueue (dequeue)
 * of pid costs over the traced kernel's, charged to the replay. */
double sim_ovh_kernel_work(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue);
/* The work layer asks sim_ovh_kernel_work() from the point it may answer other than 0 (a cost
 * table, and the emulated configuration no longer the traced one, or an attach action in the
 * policy): called when the work layer is made and after every policy application (an action
 * at its time, a new or renamed task), the only places the configuration changes. Until then
 * every answer would be 0, which charges nothing: the slices' work is as traced. */
void sim_ovh_follow(struct sim *s);

/* When the loop's own work is next due (NO_TIME: none). */
static inline u64 sim_next_due(const struct sim *s)
{
	u64 nt = gs_min_u64(gs_min_u64(s->next_pending_ns, s->next_action_ns),
			    gs_min_u64(s->next_tick, s->next_blocked));

	return gs_min_u64(nt, s->warmup_at);
}

/* sim.c: run the loop's own work due at t or before */
int sim_advance_due(struct sim *s, u64 t, struct gs_error *err);

/* Run the loop's own work up to t, then bring the accounting to t. Inline: most calls find
 * nothing due (the work layer's second call for one instant, an event between ticks). */
static inline int sim_advance(struct sim *s, u64 t, struct gs_error *err)
{
	u64 nt = sim_next_due(s);

	if (nt <= t && nt != NO_TIME) {
		int ret = sim_advance_due(s, t, err);
		if (ret)
			return ret;
	}
	sim_account(s, t);
	if (t > s->now)
		s->now = t;
	return 0;
}
/* freq.c: the governor's update at a cpufreq_update_util() point (from cpu, at now, with
 * flags SCHED_CPUFREQ_*), once the CPU's governor runs (governor_start_cpu_ns); a frequency
 * change it made follows. */
void sim_governor_update(struct sim *s, int cpu, u64 now, unsigned int flags);
/* a policy's cur changed (count it, tell the observers); tell the scheduler about
 * frequency changes once a hook has returned; PELT's frequency scale of a policy; the time of
 * the next pending frequency change of any policy (s->next_pending_ns) */
void sim_freq_changed(struct sim *s, struct sim_cluster *cl);
void sim_flush_freq(struct sim *s);
unsigned long sim_freq_scale(const struct cpufreq_policy *pol, const struct plat_cluster *pc);
void sim_next_pending_refresh(struct sim *s);
/* freq.c: the governor kthread's events of a traced slow path (cpufreq/kthread.h), handed to
 * its policy before the event's own handling; 0 or the error of advancing the loop */
int sim_kthread_event(struct sim *s, const struct event *ev, struct gs_error *err);
/* freq.c: a switch to the traced governor kthread, once the switch is applied: its run */
void sim_kthread_switched_in(struct sim *s, const struct event *ev);
/* 0 when cpu is one of the platform's, else GS_ETRACE naming the event's line. */
int sim_check_cpu(const struct sim *s, int cpu, const struct event *ev, struct gs_error *err);
/* duplicate.c: an event read: counted (s->events), the last trace time kept (s->t_last); true
 * when it is the previous event of its CPU again (counted in s->duplicates: the caller ignores
 * it), else it becomes that CPU's previous event. */
bool sim_take_event(struct sim *s, const struct event *ev);
/* kernel_points.c: hrtimer_expire_entry (the tick), and update_blocked_averages / softirq_entry
 * (blocked-load refreshes), applied in traced timing. */
int sim_feed_tick(struct sim *s, const struct event *ev, struct gs_error *err);
/* sim.c: one event applied (sim_feed() without the holds of kernel_points.c). */
int sim_feed_event(struct sim *s, const struct event *ev, struct gs_error *err);
/* kernel_points.c: the events sim_feed() holds, applied in time order (at the end of the
 * trace: sim_finish()); 0 or the first one's error. */
int sim_feed_held(struct sim *s, struct gs_error *err);
/* kernel_points.c: every event fed in traced timing, before it is applied: a traced call of
 * schedutil's hook and what ends its claim; gives a switch or wakeup that claims one its clock
 * (sched_set_event_clock(), which that event's sched_event() uses and clears). */
void sim_note_event_clock(struct sim *s, const struct event *ev);
/* kernel_points.c: the replay time of a clock the kernel read on cpu's rq and traced (a PELT
 * update's update_time): rq_clock plus the CPU's rq_clock_offset_ns where the offsets are known
 * and that is not after stamp, the event's time; else stamp. */
u64 sim_traced_clock(const struct sim *s, int cpu, u64 rq_clock, u64 stamp);
/* balance.c: set-up; a CPU's tick in traced timing (after the tick's own updates); a switch
 * on a CPU that was busy or not before it (after sim_refresh_busy()) */
void sim_balance_start(struct sim *s, u64 t);
void sim_balance_tick(struct sim *s, int cpu, u64 now);
void sim_balance_switch(struct sim *s, int cpu, bool was_busy, u64 now);
/* add_nr_running() and newidle_balance()'s update: the model's rd->overload. */
void sim_balance_enqueued(struct sim *s, int cpu);
/* rq_clock: the switch's (__schedule()'s) rq clock, now its stamp */
void sim_balance_newidle(struct sim *s, int cpu, bool prev_died, u64 now, u64 rq_clock);
void sim_balance_softirq(struct sim *s, int cpu, u64 now);
void sim_balance_cpu_event(struct sim *s, int cpu);
void sim_balance_tick_stopped(struct sim *s, int cpu);
int sim_feed_blocked_update(struct sim *s, const struct event *ev, struct gs_error *err);
/* kernel_points.c, with task_dead_irq_us: a task died on cpu at now (its switch); before ev is
 * applied, the waiting task_dead_fair() its CPU's context or the time calls for; before the
 * loop's own updates at t, the ones whose time has passed. Inline: nothing waits, no call. */
void sim_task_dead_noted(struct sim *s, int cpu, u64 now);
void sim_task_dead_at_event(struct sim *s, const struct event *ev);
void sim_task_dead_at_time(struct sim *s, u64 t);
/* kernel_points.c: before ev is applied, the pick a balancer's move of a delayed task called
 * for, where ev shows its CPU back in task context or the time has passed */
void sim_delayed_pick_at_event(struct sim *s, const struct event *ev);
/* What waits for a CPU's return to task context, before ev: the two above. */
static inline void sim_context_point(struct sim *s, const struct event *ev)
{
	if (s->dead_mask)
		sim_task_dead_at_event(s, ev);
	if (sched_delayed_pick_mask(s->sched))
		sim_delayed_pick_at_event(s, ev);
}
static inline void sim_task_dead_due(struct sim *s, u64 t)
{
	if (s->dead_mask)
		sim_task_dead_at_time(s, t);
}
/* sched_process_exit: the exiting task's group move (sim_config.sched_autogroup). */
int sim_feed_exit(struct sim *s, const struct event *ev, struct gs_error *err);
/* trace_seed.c: --seed-util's util step; the lab's snapshot markers (EV_START_SE/CFS) */
int sim_util_seed(struct sim *s, const struct event *ev, struct gs_error *err);
int sim_feed_start_state(struct sim *s, const struct event *ev, struct gs_error *err);
/* An exit move waiting for its hook call (sim_feed_exit): made at ev, if ev shows it. */
int sim_exit_move_point(struct sim *s, const struct event *ev, struct gs_error *err);
/* A sleeping or dying prev's dequeue ahead of its switch, before its CPU's newidle balance
 * (the copy of the switch sim_feed() made, marked TASK_STATE_BLOCK_EARLY). */
int sim_feed_block_early(struct sim *s, const struct event *ev, struct gs_error *err);
/* cpu_idle: idle-loop entries (sched_cpu_idle_enter) and the traced idle state. */
int sim_feed_idle(struct sim *s, const struct event *ev, struct gs_error *err);

/* timeline.c: register the observer that writes the rows a replay reports as it goes (task
 * events, governor evaluations, the traced frequency of each policy) to the --timeline and
 * --task-timeline CSVs and the run's other sink (sim_opts.sink), with a hook only for the
 * rows one of them takes; nothing when none is asked for. 0, or GS_EINTERNAL. */
int sim_timeline_observe(struct sim *s, struct gs_error *err);
/* timeline.c: CPU cpu's traced frequency (s->cpu[cpu].traced_khz) changed at ts_ns: when it is
 * its policy's first CPU, a step of the stored timeline and the observers' traced_freq. */
void sim_traced_freq_step(struct sim *s, int cpu, u64 ts_ns);

/*
 * timeline.c: the stored timeline (run_result.timeline, the `timeline` table), per policy the
 * union of three step functions: the util the governor saw (the max per bucket of
 * tl_bucket_ns, decimated to at most TIMELINE_MAX_POINTS buckets), the emulated frequency at
 * each change taking effect and the traced frequency at each change of the trace; each row
 * holds all three as in force from its time on.
 */
void sim_timeline_note(struct sim *s, struct sim_cluster *cl, u64 t, unsigned long util);
void sim_timeline_step(struct sim_steps *st, u64 t, u32 khz);
void sim_timeline_end(struct sim_cluster *cl, u64 end);
/* The rows of all policies into r->timeline (policy after policy); GS_ENOMEM when out of
 * memory now or when a step could not be kept during the replay. */
int sim_timeline_finish(struct sim *s, struct run_result *r, struct gs_error *err);
void sim_timeline_release(struct sim_cluster *cl);

/* sim.c: the scheduler model's uclamp and cpufreq hooks (also used by policy_actions.c). */
void sim_hook_uclamp_inc(void *ctx, int cpu, struct task *p);
void sim_hook_uclamp_dec(void *ctx, int cpu, struct task *p);
void sim_hook_cpufreq_update(void *ctx, int cpu, u64 now, unsigned int flags);

/* iowait.c: a sugov_set_iowait_boost event of the trace (see there). 0 or GS_ETRACE. */
int sim_feed_iowait(struct sim *s, const struct event *ev, struct gs_error *err);

/* policy_actions.c: the time of policy action k (NO_TIME past the last), and the next action
 * applied now (s->next_action). */
u64 sim_action_time(const struct sim *s, size_t k);
int sim_apply_action(struct sim *s, struct gs_error *err);
void sim_task_rename(void *ctx, struct task *p, const char *old_comm, u64 now);

#endif
