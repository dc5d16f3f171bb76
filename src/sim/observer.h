/*
 * observer.h - the replay's optional features as observers: a feature that only some runs want
 * registers a struct sim_observer when the replay is made, keeps its state behind it, and is
 * called at the points of the loop it names; the loop itself tests no flag of it. A run
 * without the feature registers nothing, and each point then costs one comparison of a count
 * with zero.
 *
 * Hooks (each may be NULL), in the order a replay reaches them:
 *   start        the first event, at time t: the policies' frequencies are known. Returns 0
 *                or a negative code with err set; the replay stops.
 *   cpu_state    a CPU's state changed at the loop's time (s->now): busy or idle, or the
 *                traced idle state in force (cpu_idle, a CSV row's idle_state).
 *   freq_change  the frequency a cluster is accounted at changed, from t on (khz).
 *   opp_change   the emulated governor moved a cluster to another OPP (khz) at t, when the
 *                switch takes effect in the replay.
 *   sched_event  a scheduling event (switch, wakeup, wakeup_new, migrate) is about to be
 *                applied to the scheduler model, which the loop has brought to its time: the
 *                state the kernel decided from.
 *   sched_applied a scheduling event has been applied to the scheduler model at emulated
 *                time now, its task events reported: in traced timing each traced one at its
 *                time; in work timing each one the work layer replays, when it does (the
 *                EV_MIGRATE it makes to move a running task included). Before the loop's
 *                context-switch governor update and the CPU's new busy state.
 *   sched_done   a traced scheduling event has been fed to the replay (applied in traced
 *                timing; queued for the work layer in work timing).
 *   task_ran     a task that ran on cpu from start stopped running at end (its TASK_EV_PREEMPT
 *                or TASK_EV_SLEEP), before that event's task_event hooks. start is its
 *                switch-in, or the trace's start (or the warm-up's end) for a task running
 *                then; a switch-out whose switch-in the replay did not see calls nothing.
 *   task_event   the scheduler model reports a task event (sched.h's TASK_EV_*) on cpu at now.
 *   rq_task      p is enqueued on cpu (enqueue true: after uclamp's rq inc, the static key
 *                as the enqueue left it) or dequeued from it (before uclamp's rq dec), where
 *                the kernel profile has uclamp.
 *   update_util  cpufreq_update_util() calls the governor of cpu (once it is running).
 *   gov_eval     the emulated governor evaluated a CPU (gov/governor.h's struct gov_eval).
 *   trace_event  an event of the trace the replay reads but does not apply as such, at the
 *                loop's time (brought to the event's): in traced timing with the emulated util,
 *                a governor probe (EV_GOV_RAW_FREQ) and each util event the emulation has a
 *                signal for (validate.c's sim_is_compared_event: a CPU's or a task's PELT or
 *                util_est), the emulated state as it stands then, before --seed-util seeds
 *                from it; in any replay a kernel cpu_frequency (EV_CPU_FREQUENCY), before the
 *                replay takes its frequency as the traced one; the hook calls and idle_calls
 *                returns of the lab's probes (EV_GOV_HOOK, EV_GOV_IDLE_CALLS); and, while
 *                s->probe_open has a CPU's bit, that CPU's next event of any other type,
 *                before the replay applies it (the end of the evaluation validate waits on).
 *   traced_freq  the trace's frequency of a policy's first CPU (the one the accounting reads)
 *                is khz from t on (a cpu_frequency, a tracer's frequency marker, or a CSV
 *                row's freq_khz): called once the replay has taken it as the CPU's traced
 *                frequency and the stored timeline has its step.
 *   account      the accounting integrated a cluster's last dt ns (account.c): its inputs
 *                (the OPP, its first CPU's traced frequency, its CPUs' busy and idle states)
 *                held over them; any_busy says one of its CPUs was busy.
 *   task_exit    a started task died (sched.h's sched_hooks.task_exit), its last switch-out
 *                accounted. Returns true when the observer kept what the results need of it:
 *                every observer that has the hook is called, and when one of them returns
 *                true the replay frees the task's state (p->owner_data) and the scheduler
 *                model the task.
 *   warmup       --warmup-ms ends at t: the measurements start again from zero.
 *   notes        the replay's end at `end`, while the loop's own notes are written to r
 *                (finish.c's finish_notes: after the work backlog's, before the warm-up's and
 *                the governor start's): add the feature's results and notes that go there.
 *   finish       the replay's end at `end`, once the policies' results are in r: add the
 *                feature's results. Returns 0 or a negative code with err set.
 *   finish_tasks the second phase of the end, after every observer's finish and the
 *                timelines, once the live tasks are in r->tasks in pid order and before the
 *                figures computed over all tasks (throughput): add or change task rows,
 *                keeping pid order. Returns 0 or a negative code with err set.
 *   release      free the state (the replay's end, or an error before it). NULL state is
 *                passed as registered.
 * Observers are called in the order they were added.
 */
#ifndef GOVSIM_SIM_OBSERVER_H
#define GOVSIM_SIM_OBSERVER_H

#include "core/error.h"
#include "core/event.h"
#include "core/result.h"
#include "core/types.h"
#include "sched/sched.h"

struct gov_eval;
struct sim;

/* The replay's observers, one line each: the kind a registration names (.kind) and the name its
 * errors give. The list sizes struct sim_observers, which holds each kind at most once, so a
 * new observer is added here; one that is not (no .kind, or a kind registered twice) is refused
 * on its first registration, in any run, not only in one that registers enough others. */
#define SIM_OBSERVER_KINDS(X)                                                                   \
	X(SIM_OBSERVER_OVERHEAD, "kernel overhead") /* overhead.c, every replay */               \
	X(SIM_OBSERVER_EXITED, "exited")            /* exited.c, every replay */                 \
	X(SIM_OBSERVER_WATTSON, "wattson")          /* wattson_observer.c, --power-model wattson */ \
	X(SIM_OBSERVER_VALIDATE, "validate")        /* validate.c, govsim validate */            \
	X(SIM_OBSERVER_PLACEMENT_CHECK, "placement check") /* placement.c, validate --placement */ \
	X(SIM_OBSERVER_PLACEMENT, "placement")      /* placement.c, run --placement eas */   \
	X(SIM_OBSERVER_TIMELINE, "timeline")        /* timeline.c, --(task-)timeline, --perfetto */

#define SIM_OBSERVER_KIND_ENUM(id, name) id,
/* SIM_OBSERVER_NONE (0) is what a registration that forgot its .kind says: it is refused. */
enum sim_observer_kind {
	SIM_OBSERVER_NONE = 0,
	SIM_OBSERVER_KINDS(SIM_OBSERVER_KIND_ENUM) SIM_OBSERVER_KIND_END
};
#undef SIM_OBSERVER_KIND_ENUM

/* Every kind once: the most a replay can register. */
#define SIM_MAX_OBSERVERS (SIM_OBSERVER_KIND_END - 1)

/* The name of a kind ("kernel overhead"), or NULL for SIM_OBSERVER_NONE and past the list. */
const char *sim_observer_name(enum sim_observer_kind kind);

struct sim_observer {
	enum sim_observer_kind kind;
	void *state;
	int (*start)(struct sim *s, void *state, u64 t, struct gs_error *err);
	void (*cpu_state)(struct sim *s, void *state, int cpu);
	void (*freq_change)(struct sim *s, void *state, int cluster, u64 t, u32 khz);
	void (*opp_change)(struct sim *s, void *state, int cluster, u64 t, u32 khz);
	void (*sched_event)(struct sim *s, void *state, const struct event *ev);
	void (*sched_applied)(struct sim *s, void *state, const struct event *ev, u64 now);
	void (*sched_done)(struct sim *s, void *state, const struct event *ev);
	void (*task_ran)(struct sim *s, void *state, const struct task *p, int cpu, u64 start,
			 u64 end);
	void (*task_event)(struct sim *s, void *state, const struct task *p, int cpu,
			   enum sched_task_event ev, u64 now);
	void (*rq_task)(struct sim *s, void *state, int cpu, const struct task *p, bool enqueue);
	void (*update_util)(struct sim *s, void *state, int cpu);
	void (*gov_eval)(struct sim *s, void *state, const struct gov_eval *e);
	void (*trace_event)(struct sim *s, void *state, const struct event *ev);
	void (*traced_freq)(struct sim *s, void *state, int cpu, u64 t, u32 khz);
	void (*account)(struct sim *s, void *state, int cluster, u64 dt, bool any_busy);
	bool (*task_exit)(struct sim *s, void *state, struct task *p, u64 now);
	void (*warmup)(struct sim *s, void *state, u64 t);
	void (*notes)(struct sim *s, void *state, u64 end, struct run_result *r);
	int (*finish)(struct sim *s, void *state, u64 end, struct run_result *r,
		      struct gs_error *err);
	int (*finish_tasks)(struct sim *s, void *state, u64 end, struct run_result *r,
			    struct gs_error *err);
	void (*release)(void *state);
};

/* The replay's observers, and per hook the ones that have it (so a hook no one has costs a
 * test of its count). */
struct sim_observers {
	int nr;
	unsigned int kinds; /* bit per kind on the list */
	struct sim_observer all[SIM_MAX_OBSERVERS];
	int nr_cpu_state, nr_freq_change, nr_opp_change, nr_sched_event, nr_sched_applied,
		nr_sched_done, nr_task_ran, nr_task_event, nr_rq_task, nr_update_util, nr_gov_eval,
		nr_trace_event, nr_traced_freq, nr_account, nr_task_exit, nr_warmup;
	const struct sim_observer *cpu_state[SIM_MAX_OBSERVERS];
	const struct sim_observer *freq_change[SIM_MAX_OBSERVERS];
	const struct sim_observer *opp_change[SIM_MAX_OBSERVERS];
	const struct sim_observer *sched_event[SIM_MAX_OBSERVERS];
	const struct sim_observer *sched_applied[SIM_MAX_OBSERVERS];
	const struct sim_observer *sched_done[SIM_MAX_OBSERVERS];
	const struct sim_observer *task_ran[SIM_MAX_OBSERVERS];
	const struct sim_observer *task_event[SIM_MAX_OBSERVERS];
	const struct sim_observer *rq_task[SIM_MAX_OBSERVERS];
	const struct sim_observer *update_util[SIM_MAX_OBSERVERS];
	const struct sim_observer *gov_eval[SIM_MAX_OBSERVERS];
	const struct sim_observer *trace_event[SIM_MAX_OBSERVERS];
	const struct sim_observer *traced_freq[SIM_MAX_OBSERVERS];
	const struct sim_observer *account[SIM_MAX_OBSERVERS];
	const struct sim_observer *task_exit[SIM_MAX_OBSERVERS];
	const struct sim_observer *warmup[SIM_MAX_OBSERVERS];
};

/* Add *o (copied; its state is the list's to release from then on). Fails (GS_EINTERNAL, with
 * nothing added: the caller releases o->state) when o->kind is not one of SIM_OBSERVER_KINDS or
 * is on the list already. */
int sim_observers_add(struct sim_observers *obs, const struct sim_observer *o,
		      struct gs_error *err);
/* Call every start hook; the first failure stops it. */
int sim_observers_start(struct sim_observers *obs, struct sim *s, u64 t, struct gs_error *err);
/* Call every notes hook. */
void sim_observers_notes(struct sim_observers *obs, struct sim *s, u64 end, struct run_result *r);
/* Call every finish hook; the first failure stops it. */
int sim_observers_finish(struct sim_observers *obs, struct sim *s, u64 end, struct run_result *r,
			 struct gs_error *err);
/* Call every finish_tasks hook (after sim_observers_finish); the first failure stops it. */
int sim_observers_finish_tasks(struct sim_observers *obs, struct sim *s, u64 end,
			       struct run_result *r, struct gs_error *err);
/* Release every observer's state and empty the list. */
void sim_observers_release(struct sim_observers *obs);

static inline void sim_observers_cpu_state(const struct sim_observers *obs, struct sim *s,
					   int cpu)
{
	for (int i = 0; i < obs->nr_cpu_state; i++)
		obs->cpu_state[i]->cpu_state(s, obs->cpu_state[i]->state, cpu);
}

static inline void sim_observers_freq_change(const struct sim_observers *obs, struct sim *s,
					     int cluster, u64 t, u32 khz)
{
	for (int i = 0; i < obs->nr_freq_change; i++)
		obs->freq_change[i]->freq_change(s, obs->freq_change[i]->state, cluster, t, khz);
}

static inline void sim_observers_opp_change(const struct sim_observers *obs, struct sim *s,
					    int cluster, u64 t, u32 khz)
{
	for (int i = 0; i < obs->nr_opp_change; i++)
		obs->opp_change[i]->opp_change(s, obs->opp_change[i]->state, cluster, t, khz);
}

static inline void sim_observers_sched_event(const struct sim_observers *obs, struct sim *s,
					     const struct event *ev)
{
	for (int i = 0; i < obs->nr_sched_event; i++)
		obs->sched_event[i]->sched_event(s, obs->sched_event[i]->state, ev);
}

static inline void sim_observers_sched_applied(const struct sim_observers *obs, struct sim *s,
					       const struct event *ev, u64 now)
{
	for (int i = 0; i < obs->nr_sched_applied; i++)
		obs->sched_applied[i]->sched_applied(s, obs->sched_applied[i]->state, ev, now);
}

static inline void sim_observers_sched_done(const struct sim_observers *obs, struct sim *s,
					    const struct event *ev)
{
	for (int i = 0; i < obs->nr_sched_done; i++)
		obs->sched_done[i]->sched_done(s, obs->sched_done[i]->state, ev);
}

static inline void sim_observers_task_ran(const struct sim_observers *obs, struct sim *s,
					  const struct task *p, int cpu, u64 start, u64 end)
{
	for (int i = 0; i < obs->nr_task_ran; i++)
		obs->task_ran[i]->task_ran(s, obs->task_ran[i]->state, p, cpu, start, end);
}

static inline void sim_observers_task_event(const struct sim_observers *obs, struct sim *s,
					    const struct task *p, int cpu,
					    enum sched_task_event ev, u64 now)
{
	for (int i = 0; i < obs->nr_task_event; i++)
		obs->task_event[i]->task_event(s, obs->task_event[i]->state, p, cpu, ev, now);
}

static inline void sim_observers_rq_task(const struct sim_observers *obs, struct sim *s, int cpu,
					 const struct task *p, bool enqueue)
{
	for (int i = 0; i < obs->nr_rq_task; i++)
		obs->rq_task[i]->rq_task(s, obs->rq_task[i]->state, cpu, p, enqueue);
}

static inline void sim_observers_update_util(const struct sim_observers *obs, struct sim *s,
					     int cpu)
{
	for (int i = 0; i < obs->nr_update_util; i++)
		obs->update_util[i]->update_util(s, obs->update_util[i]->state, cpu);
}

static inline void sim_observers_gov_eval(const struct sim_observers *obs, struct sim *s,
					  const struct gov_eval *e)
{
	for (int i = 0; i < obs->nr_gov_eval; i++)
		obs->gov_eval[i]->gov_eval(s, obs->gov_eval[i]->state, e);
}

static inline void sim_observers_trace_event(const struct sim_observers *obs, struct sim *s,
					     const struct event *ev)
{
	for (int i = 0; i < obs->nr_trace_event; i++)
		obs->trace_event[i]->trace_event(s, obs->trace_event[i]->state, ev);
}

static inline void sim_observers_traced_freq(const struct sim_observers *obs, struct sim *s,
					     int cpu, u64 t, u32 khz)
{
	for (int i = 0; i < obs->nr_traced_freq; i++)
		obs->traced_freq[i]->traced_freq(s, obs->traced_freq[i]->state, cpu, t, khz);
}

static inline void sim_observers_account(const struct sim_observers *obs, struct sim *s,
					 int cluster, u64 dt, bool any_busy)
{
	for (int i = 0; i < obs->nr_account; i++)
		obs->account[i]->account(s, obs->account[i]->state, cluster, dt, any_busy);
}

/* Every task_exit hook; true when one of them kept the task. */
static inline bool sim_observers_task_exit(const struct sim_observers *obs, struct sim *s,
					   struct task *p, u64 now)
{
	bool kept = false;

	for (int i = 0; i < obs->nr_task_exit; i++)
		kept |= obs->task_exit[i]->task_exit(s, obs->task_exit[i]->state, p, now);
	return kept;
}

static inline void sim_observers_warmup(const struct sim_observers *obs, struct sim *s, u64 t)
{
	for (int i = 0; i < obs->nr_warmup; i++)
		obs->warmup[i]->warmup(s, obs->warmup[i]->state, t);
}

#endif
