/*
 * test_observer.c - the replay's hook list of optional features (src/sim/observer.c, .h), on
 * fake observers that log their calls.
 *
 * Checks: each hook reaches exactly the observers that have it, in the order they were added
 * (an observer without cpu_state, sched_event or gov_eval is skipped, not called through NULL),
 * with the arguments it was given: start, cpu_state, freq_change, opp_change, sched_event,
 * sched_done, task_event, rq_task, update_util, gov_eval, trace_event, traced_freq, account,
 * task_exit, warmup, finish, finish_tasks; task_exit calls every observer that has it and
 * answers true when one of them kept the task (false with none); finish_tasks is a second
 * phase, called only by sim_observers_finish_tasks. An empty list calls nothing,
 * start/finish/finish_tasks return 0 and task_exit false; start and finish stop at the first
 * failure and return its code (finish_tasks too); release frees every state once and empties
 * the list. The list holds one observer of each kind of SIM_OBSERVER_KINDS, all of them at
 * once (SIM_MAX_OBSERVERS is their count); a kind registered twice, SIM_OBSERVER_NONE (a
 * registration without .kind) and a kind past the list are refused with GS_EINTERNAL naming it
 * and leave the list as it was; each kind has a name of its own.
 * The loop calls sched_applied, task_ran, task_event and notes where observer.h says, on a replay
 * of three hand-made events whose calls and times are worked out by hand (test_loop_calls).
 * sim_feed()'s hold applies a tick at its hook call's clock after another CPU's event stamped
 * before that clock, and at its stamp without rq_clock_traced or with a task-context hook call
 * (test_hold_order; the values at those clocks: golden/tick_clock.sh, newidle_order.sh).
 * The timeline writers (timeline.c) are an observer only in a replay that asks for a row they
 * write, with a hook only for those rows; on the same events with two cpu_frequency events,
 * the --task-timeline CSV gets the task's four events and the sink the traced frequency of
 * the policy's first CPU only, as worked out by hand (test_timeline_writers). The trace's util
 * events with an emulated signal and a governor probe reach trace_event at their own time in
 * traced timing with the emulated util, and never with --util-source trace or in work timing
 * (test_util_events_shown).
 * Does not check: the features themselves (the Wattson observer: golden/wattson.sh, which
 * compares the energies with a hand computation; validation and the placement check: the
 * golden validate tests and the lab's tables, byte for byte with the outputs before).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/event.h"
#include "gov/governor.h"
#include "power/platform.h"
#include "sched/sched.h"
#include "sim/observer.h"
#include "sim/sim_priv.h"

static char trail[1024];

static void log_call(const char *what, const void *state)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s:%s ", what, (const char *)state);
}

static int obs_start(struct sim *s, void *state, u64 t, struct gs_error *err)
{
	(void)s;
	(void)t;
	log_call("start", state);
	return strcmp(state, "fail") == 0 ? gs_error_set(err, GS_ENOMEM, "no") : 0;
}

static void obs_cpu_state(struct sim *s, void *state, int cpu)
{
	(void)s;
	log_call(cpu == 3 ? "cpu3" : "cpu?", state);
}

static void obs_freq(struct sim *s, void *state, int cluster, u64 t, u32 khz)
{
	(void)s;
	log_call(cluster == 1 && t == 7 && khz == 903000 ? "freq" : "freq?", state);
}

static void obs_opp(struct sim *s, void *state, int cluster, u64 t, u32 khz)
{
	(void)s;
	log_call(cluster == 2 && t == 8 && khz == 1800000 ? "opp" : "opp?", state);
}

static void obs_sched_event(struct sim *s, void *state, const struct event *ev)
{
	(void)s;
	log_call(ev->type == EV_WAKEUP && ev->wake.pid == 42 ? "sched" : "sched?", state);
}

static void obs_sched_done(struct sim *s, void *state, const struct event *ev)
{
	(void)s;
	log_call(ev->type == EV_SWITCH && ev->cpu == 1 ? "done" : "done?", state);
}

static void obs_sched_applied(struct sim *s, void *state, const struct event *ev, u64 now)
{
	(void)s;
	log_call(ev->type == EV_MIGRATE && now == 15 ? "applied" : "applied?", state);
}

static void obs_task_ran(struct sim *s, void *state, const struct task *p, int cpu, u64 start,
			 u64 end)
{
	(void)s;
	log_call(p->pid == 43 && cpu == 2 && start == 16 && end == 17 ? "ran" : "ran?", state);
}

static void obs_notes(struct sim *s, void *state, u64 end, struct run_result *r)
{
	(void)s;
	(void)r;
	log_call(end == 9 ? "notes" : "notes?", state);
}

static void obs_task_event(struct sim *s, void *state, const struct task *p, int cpu,
			   enum sched_task_event ev, u64 now)
{
	(void)s;
	log_call(p->pid == 43 && cpu == 2 && ev == TASK_EV_TICK && now == 11 ? "task" : "task?",
		 state);
}

static void obs_rq_task(struct sim *s, void *state, int cpu, const struct task *p, bool enqueue)
{
	(void)s;
	log_call(cpu == 1 && p->pid == 44 ? (enqueue ? "enq" : "deq") : "rq?", state);
}

static void obs_update_util(struct sim *s, void *state, int cpu)
{
	(void)s;
	log_call(cpu == 4 ? "upd" : "upd?", state);
}

static void obs_warmup(struct sim *s, void *state, u64 t)
{
	(void)s;
	log_call(t == 12 ? "warm" : "warm?", state);
}

static void obs_gov_eval(struct sim *s, void *state, const struct gov_eval *e)
{
	(void)s;
	log_call(e->cpu == 3 && e->util == 512 ? "eval" : "eval?", state);
}

static void obs_trace_event(struct sim *s, void *state, const struct event *ev)
{
	(void)s;
	log_call(ev->type == EV_GOV_RAW_FREQ ? "trace" : "trace?", state);
}

static void obs_traced_freq(struct sim *s, void *state, int cpu, u64 t, u32 khz)
{
	(void)s;
	log_call(cpu == 4 && t == 18 && khz == 1420000 ? "tfreq" : "tfreq?", state);
}

static void obs_account(struct sim *s, void *state, int cluster, u64 dt, bool any_busy)
{
	(void)s;
	log_call(cluster == 1 && dt == 13 ? (any_busy ? "acct" : "acct-idle") : "acct?", state);
}

/* Keeps pid 45 when its state says so ("keep"), declines every other task. */
static bool obs_task_exit(struct sim *s, void *state, struct task *p, u64 now)
{
	(void)s;
	log_call(now == 14 ? "exit" : "exit?", state);
	return p->pid == 45 && strcmp(state, "keep") == 0;
}

static int obs_finish_tasks(struct sim *s, void *state, u64 end, struct run_result *r,
			    struct gs_error *err)
{
	(void)s;
	(void)r;
	log_call(end == 9 ? "tasks" : "tasks?", state);
	return strcmp(state, "fail") == 0 ? gs_error_set(err, GS_ETRACE, "no") : 0;
}

static int obs_finish(struct sim *s, void *state, u64 end, struct run_result *r,
		      struct gs_error *err)
{
	(void)s;
	(void)end;
	(void)r;
	log_call("finish", state);
	return strcmp(state, "fail") == 0 ? gs_error_set(err, GS_EIO, "no") : 0;
}

static void obs_release(void *state)
{
	log_call("release", state);
}

/* An observer of the given kind with every hook, logging under name. */
static struct sim_observer full(enum sim_observer_kind kind, const char *name)
{
	return (struct sim_observer){.kind = kind,
				     .state = (void *)name,
				     .start = obs_start,
				     .cpu_state = obs_cpu_state,
				     .freq_change = obs_freq,
				     .opp_change = obs_opp,
				     .sched_event = obs_sched_event,
				     .sched_applied = obs_sched_applied,
				     .sched_done = obs_sched_done,
				     .task_ran = obs_task_ran,
				     .task_event = obs_task_event,
				     .rq_task = obs_rq_task,
				     .update_util = obs_update_util,
				     .warmup = obs_warmup,
				     .notes = obs_notes,
				     .gov_eval = obs_gov_eval,
				     .trace_event = obs_trace_event,
				     .traced_freq = obs_traced_freq,
				     .account = obs_account,
				     .task_exit = obs_task_exit,
				     .finish = obs_finish,
				     .finish_tasks = obs_finish_tasks,
				     .release = obs_release};
}

/* One call of every hook on the event path, with the arguments the fakes expect. */
static void call_event_hooks(struct sim_observers *obs)
{
	struct event wake = {.type = EV_WAKEUP, .wake = {.pid = 42}};
	struct event sw = {.type = EV_SWITCH, .cpu = 1};
	struct event raw = {.type = EV_GOV_RAW_FREQ};
	struct event mig = {.type = EV_MIGRATE};
	struct task p = {.pid = 43}, q = {.pid = 44};
	struct gov_eval e = {.cpu = 3, .util = 512};

	sim_observers_cpu_state(obs, NULL, 3);
	sim_observers_freq_change(obs, NULL, 1, 7, 903000);
	sim_observers_opp_change(obs, NULL, 2, 8, 1800000);
	sim_observers_sched_event(obs, NULL, &wake);
	sim_observers_sched_applied(obs, NULL, &mig, 15);
	sim_observers_sched_done(obs, NULL, &sw);
	sim_observers_task_ran(obs, NULL, &p, 2, 16, 17);
	sim_observers_task_event(obs, NULL, &p, 2, TASK_EV_TICK, 11);
	sim_observers_rq_task(obs, NULL, 1, &q, true);
	sim_observers_rq_task(obs, NULL, 1, &q, false);
	sim_observers_update_util(obs, NULL, 4);
	sim_observers_gov_eval(obs, NULL, &e);
	sim_observers_trace_event(obs, NULL, &raw);
	sim_observers_traced_freq(obs, NULL, 4, 18, 1420000);
	sim_observers_account(obs, NULL, 1, 13, true);
	sim_observers_account(obs, NULL, 1, 13, false);
	assert_false(sim_observers_task_exit(obs, NULL, &p, 14)); /* pid 43: no one keeps it */
	sim_observers_warmup(obs, NULL, 12);
}

static void test_order_and_missing_hooks(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer a = full(SIM_OBSERVER_OVERHEAD, "a"), b = full(SIM_OBSERVER_EXITED, "b"),
			   c = full(SIM_OBSERVER_WATTSON, "c");
	struct gs_error err;
	(void)state;

	b.cpu_state = NULL; /* b does not watch CPU states, */
	b.sched_event = NULL; /* nor the scheduling events before they apply, */
	b.gov_eval = NULL;    /* nor the governor's evaluations */
	c.freq_change = NULL;
	c.opp_change = NULL;
	c.sched_done = NULL;
	c.task_event = NULL;
	c.trace_event = NULL;
	a.traced_freq = NULL;
	b.rq_task = NULL;
	c.update_util = NULL;
	a.warmup = NULL;
	b.account = NULL;
	c.task_exit = NULL;
	a.finish_tasks = NULL;
	b.sched_applied = NULL;
	a.task_ran = NULL;
	c.notes = NULL;
	assert_int_equal(sim_observers_add(&obs, &a, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &b, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &c, &err), 0);
	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), 0);
	call_event_hooks(&obs);
	sim_observers_notes(&obs, NULL, 9, NULL);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), 0);
	assert_int_equal(sim_observers_finish_tasks(&obs, NULL, 9, NULL, &err), 0);
	sim_observers_release(&obs);
	assert_string_equal(trail, "start:a start:b start:c "
				   "cpu3:a cpu3:c "
				   "freq:a freq:b "
				   "opp:a opp:b "
				   "sched:a sched:c "
				   "applied:a applied:c "
				   "done:a done:b "
				   "ran:b ran:c "
				   "task:a task:b "
				   "enq:a enq:c deq:a deq:c "
				   "upd:a upd:b "
				   "eval:a eval:c "
				   "trace:a trace:b "
				   "tfreq:b tfreq:c "
				   "acct:a acct:c acct-idle:a acct-idle:c "
				   "exit:a exit:b "
				   "warm:b warm:c "
				   "notes:a notes:b "
				   "finish:a finish:b finish:c "
				   "tasks:b tasks:c "
				   "release:a release:b release:c ");
	assert_int_equal(obs.nr, 0);
	assert_int_equal(obs.nr_cpu_state, 0);
	assert_int_equal(obs.nr_freq_change, 0);
	assert_int_equal(obs.nr_sched_event, 0);
	assert_int_equal(obs.nr_sched_applied, 0);
	assert_int_equal(obs.nr_task_ran, 0);
	assert_int_equal(obs.nr_task_event, 0);
	assert_int_equal(obs.nr_account, 0);
	assert_int_equal(obs.nr_task_exit, 0);
}

/* A task is kept when one observer kept it, and every observer with the hook still sees it. */
static void test_task_exit_any_keeps(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer a = full(SIM_OBSERVER_OVERHEAD, "a"), k = full(SIM_OBSERVER_EXITED, "keep"),
			   b = full(SIM_OBSERVER_VALIDATE, "b");
	struct task p = {.pid = 45};
	struct gs_error err;
	(void)state;

	assert_int_equal(sim_observers_add(&obs, &a, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &k, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &b, &err), 0);
	trail[0] = '\0';
	assert_true(sim_observers_task_exit(&obs, NULL, &p, 14));
	assert_string_equal(trail, "exit:a exit:keep exit:b ");
	sim_observers_release(&obs);
}

static void test_empty(void **state)
{
	struct sim_observers obs = {0};
	struct gs_error err;
	(void)state;

	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), 0);
	call_event_hooks(&obs);
	sim_observers_notes(&obs, NULL, 9, NULL);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), 0);
	assert_int_equal(sim_observers_finish_tasks(&obs, NULL, 9, NULL, &err), 0);
	sim_observers_release(&obs);
	assert_string_equal(trail, "");
}

static void test_first_failure_stops(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer a = full(SIM_OBSERVER_VALIDATE, "fail"),
			   b = full(SIM_OBSERVER_PLACEMENT_CHECK, "b");
	struct gs_error err;
	(void)state;

	assert_int_equal(sim_observers_add(&obs, &a, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &b, &err), 0);
	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), GS_ENOMEM);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), GS_EIO);
	assert_int_equal(sim_observers_finish_tasks(&obs, NULL, 9, NULL, &err), GS_ETRACE);
	sim_observers_release(&obs);
	assert_string_equal(trail,
			    "start:fail finish:fail tasks:fail release:fail release:b ");
}

/* Each kind once: all of them fit; a second of a kind, a registration without a kind and a kind
 * past the list are refused, named, and leave the list as it was. */
static void test_each_kind_once(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer twice = full(SIM_OBSERVER_WATTSON, "twice"),
			    none = full(SIM_OBSERVER_NONE, "none"),
			    past = full(SIM_OBSERVER_KIND_END, "past");
	struct gs_error err;
	(void)state;

	/* overhead, exited, wattson, validate, placement check, placement, timeline */
	assert_int_equal(SIM_MAX_OBSERVERS, 7);
	for (int k = SIM_OBSERVER_NONE + 1; k < SIM_OBSERVER_KIND_END; k++) {
		struct sim_observer o = full((enum sim_observer_kind)k, "x");

		assert_int_equal(sim_observers_add(&obs, &o, &err), 0);
	}
	assert_int_equal(obs.nr, SIM_MAX_OBSERVERS);
	gs_error_clear(&err);
	assert_int_equal(sim_observers_add(&obs, &twice, &err), GS_EINTERNAL);
	assert_non_null(strstr(err.msg, "'wattson': registered twice"));
	gs_error_clear(&err);
	assert_int_equal(sim_observers_add(&obs, &none, &err), GS_EINTERNAL);
	assert_non_null(strstr(err.msg, "kind 0: not one of SIM_OBSERVER_KINDS"));
	gs_error_clear(&err);
	assert_int_equal(sim_observers_add(&obs, &past, &err), GS_EINTERNAL);
	assert_non_null(strstr(err.msg, "not one of SIM_OBSERVER_KINDS"));
	assert_int_equal(obs.nr, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_cpu_state, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_trace_event, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_traced_freq, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_account, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_sched_applied, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_task_ran, SIM_MAX_OBSERVERS);
	trail[0] = '\0';
	sim_observers_release(&obs);
	assert_string_equal(trail, "release:x release:x release:x release:x release:x release:x "
				   "release:x ");
	/* the list is empty again: a kind can be added anew */
	assert_int_equal(sim_observers_add(&obs, &twice, &err), 0);
	sim_observers_release(&obs);
}

/* Every kind has a name, no two the same; none for SIM_OBSERVER_NONE or past the list. */
static void test_kind_names(void **state)
{
	(void)state;
	assert_null(sim_observer_name(SIM_OBSERVER_NONE));
	assert_null(sim_observer_name(SIM_OBSERVER_KIND_END));
	assert_string_equal(sim_observer_name(SIM_OBSERVER_OVERHEAD), "kernel overhead");
	for (int k = SIM_OBSERVER_NONE + 1; k < SIM_OBSERVER_KIND_END; k++) {
		const char *name = sim_observer_name((enum sim_observer_kind)k);

		assert_non_null(name);
		assert_true(name[0] != '\0');
		for (int l = k + 1; l < SIM_OBSERVER_KIND_END; l++)
			assert_string_not_equal(name, sim_observer_name((enum sim_observer_kind)l));
	}
}

/* ---- the loop's calls: a replay of three hand-made events ------------------------------------ */

static const char *const task_ev_names[] = {
	[TASK_EV_WAKEUP] = "wakeup", [TASK_EV_SWITCH_IN] = "in", [TASK_EV_TICK] = "tick",
	[TASK_EV_PREEMPT] = "preempt", [TASK_EV_SLEEP] = "sleep", [TASK_EV_MIGRATE] = "migrate",
};

static void loop_log(const char *what, u64 t_ns, const char *more)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s@%llu%s ", what,
		 (unsigned long long)(t_ns / 1000), more);
}

static void loop_task_event(struct sim *s, void *state, const struct task *p, int cpu,
			    enum sched_task_event ev, u64 now)
{
	(void)s;
	(void)state;
	if (p->pid == 100)
		loop_log(cpu == 0 ? task_ev_names[ev] : "cpu?", now, "");
}

/* The model as the hook sees it: what CPU 0 runs, and whether pid 100 is queued. */
static void loop_sched_applied(struct sim *s, void *state, const struct event *ev, u64 now)
{
	const struct task *curr = sched_cpu_curr(s->sched, 0), *p = sched_task_find(s->sched, 100);
	char more[64];

	(void)state;
	snprintf(more, sizeof(more), ":curr=%d,queued=%d", curr ? curr->pid : -1,
		 p ? (int)p->on_rq : -1);
	loop_log(ev->type == EV_WAKEUP ? "applied-wakeup" : "applied-switch", now, more);
}

static void loop_task_ran(struct sim *s, void *state, const struct task *p, int cpu, u64 start,
			  u64 end)
{
	char more[64];

	(void)s;
	(void)state;
	snprintf(more, sizeof(more), ":pid=%d,cpu=%d,from=%llu", p->pid, cpu,
		 (unsigned long long)(start / 1000));
	loop_log("ran", end, more);
}

static void loop_notes(struct sim *s, void *state, u64 end, struct run_result *r)
{
	(void)s;
	(void)state;
	run_result_note(r, "the loop observer's note");
	loop_log("notes", end, "");
}

/* pid 100 on CPU 0 of HiKey960: woken at 1 ms, switched in at 2 ms, switched out asleep (S) at
 * 5 ms. */
static const struct event task_wakeup = {
	.ts_ns = 1000000, .line = 1, .cpu = 0, .pid = 0, .type = EV_WAKEUP,
	.wake = {.comm = "worker", .pid = 100, .prio = 120, .target_cpu = 0}};
static const struct event task_in = {
	.ts_ns = 2000000, .line = 2, .cpu = 0, .pid = 0, .type = EV_SWITCH,
	.sw = {.prev_comm = "swapper/0", .prev_pid = 0, .prev_prio = 120, .next_comm = "worker",
	       .next_pid = 100, .next_prio = 120}};
static const struct event task_out = {
	.ts_ns = 5000000, .line = 9, .cpu = 0, .pid = 100, .type = EV_SWITCH,
	.sw = {.prev_comm = "worker", .prev_pid = 100, .prev_prio = 120, .prev_state = TASK_STATE_S,
	       .next_comm = "swapper/0", .next_pid = 0, .next_prio = 120}};

/* A replay on HiKey960 under performance of the n events, with what the caller set in cfg
 * (timing, util source, outputs) and observer o added (NULL: none), finished into *r (the
 * caller releases r and frees the replay); trail emptied before the first event. */
static struct sim *replay_hikey(struct sim_config *cfg, const struct sim_observer *o,
				const struct event *ev, int n, struct run_result *r)
{
	static struct platform hikey;
	static bool loaded;
	struct gs_error err;
	struct sim *s;

	gs_error_clear(&err);
	if (!loaded && platform_load("hikey960", &hikey, &err))
		fail_msg("%s", err.msg);
	loaded = true;
	cfg->opts.plat = &hikey;
	cfg->gov = governor_find("performance");
	assert_non_null(cfg->gov);
	if (sim_new(cfg, &s, &err))
		fail_msg("%s", err.msg);
	if (o)
		assert_int_equal(sim_observers_add(&s->obs, o, &err), 0);
	trail[0] = '\0';
	for (int i = 0; i < n; i++)
		if (sim_feed(s, &ev[i], &err))
			fail_msg("%s", err.msg);
	run_result_init(r);
	if (sim_finish(s, r, &err))
		fail_msg("%s", err.msg);
	return s;
}

/* ---- the holds of sim_feed() (kernel_points.c): held events applied in time order ---------- */

static void hold_sched_applied(struct sim *s, void *state, const struct event *ev, u64 now)
{
	(void)s;
	(void)state;
	if (ev->type == EV_WAKEUP && ev->wake.pid == 101)
		loop_log("wakeup101", now, "");
}

static void hold_update_util(struct sim *s, void *state, int cpu)
{
	(void)state;
	if (cpu == 1 && s->now >= 4000000)
		loop_log("update1", s->now, "");
}

/*
 * CPU 1 takes an idle tick at 0.5 ms (from the first traced tick on, the trace's ticks replace
 * the replay's 4-ms grid). A tick of CPU 1 stamped 4.000 ms whose hook call (in the interrupt, rq clock 4.200 ms with
 * rq_clock_offset_ns 0) is stamped 4.300 ms, and between them a wakeup on CPU 0 stamped 4.100.
 * CPU 1 runs a task from 1.1 ms, so its tick updates its util and kicks cpufreq (the
 * update_util hook, at the loop's time). By hand: with rq_clock_traced the tick runs at 4.200,
 * after the wakeup of CPU 0 held at 4.100, then the hook call's event (4.300, nothing applied);
 * with rq_clock_traced=0 the tick runs at its stamp, before the wakeup. The same with a hook
 * call outside interrupts (another update's: the tick keeps its stamp).
 */
static void test_hold_order(void **state)
{
	struct event ev[] = {
		{.ts_ns = 500000, .line = 1, .cpu = 1, .pid = 0, .type = EV_HRTIMER_EXPIRE,
		 .timer = {.sched_tick = true}},
		{.ts_ns = 1000000, .line = 1, .cpu = 1, .pid = 0, .type = EV_WAKEUP,
		 .wake = {.comm = "busy", .pid = 100, .prio = 120, .target_cpu = 1}},
		{.ts_ns = 1100000, .line = 2, .cpu = 1, .pid = 0, .type = EV_SWITCH,
		 .sw = {.prev_comm = "swapper/1", .prev_pid = 0, .prev_prio = 120,
			.next_comm = "busy", .next_pid = 100, .next_prio = 120}},
		{.ts_ns = 4000000, .line = 3, .cpu = 1, .pid = 100, .type = EV_HRTIMER_EXPIRE,
		 .timer = {.sched_tick = true}},
		{.ts_ns = 4100000, .line = 4, .cpu = 0, .pid = 0, .type = EV_WAKEUP,
		 .wake = {.comm = "other", .pid = 101, .prio = 120, .target_cpu = 0}},
		{.ts_ns = 4300000, .line = 5, .cpu = 1, .pid = 100, .type = EV_GOV_HOOK,
		 .hook = {.time = 4200000, .irq = EV_IRQ_HARD}},
	};
	struct sim_observer o = {.kind = SIM_OBSERVER_VALIDATE,
				 .sched_applied = hold_sched_applied,
				 .update_util = hold_update_util};
	static const struct {
		int traced;
		u32 hook_irq;
		const char *want;
	} cases[] = {
		{1, EV_IRQ_HARD, "wakeup101@4100 update1@4200 "},
		{0, EV_IRQ_HARD, "update1@4000 wakeup101@4100 "},
		{1, 0, "update1@4000 wakeup101@4100 "},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_config cfg;
		struct run_result r;
		struct sim *s;

		sim_config_init(&cfg);
		cfg.opts.timing = SIM_TIMING_TRACED;
		cfg.rq_clock_traced = cases[i].traced;
		cfg.has_rq_clock_offset = true;
		ev[5].hook.irq = cases[i].hook_irq;
		s = replay_hikey(&cfg, &o, ev, (int)(sizeof(ev) / sizeof(ev[0])), &r);
		assert_string_equal(trail, cases[i].want);
		run_result_release(&r);
		sim_free(s);
	}
}

/*
 * The task above, traced timing, HZ 250, a 1-ms warm-up. By hand: each event's task event comes
 * first, then sched_applied with the model already changed (the wakeup queued the task on an
 * idle CPU; the switch in made it current; the switch out left CPU 0 idle and the task
 * dequeued); the tick grid is every 4 ms from 0, so the busy CPU ticks once, at 4 ms; the run
 * from 2 to 5 ms is task_ran's, just before the sleep's task event; at the end (5 ms) the notes
 * hook writes among the loop's notes, before the warm-up's.
 */
static void test_loop_calls(void **state)
{
	struct event ev[3] = {task_wakeup, task_in, task_out};
	/* a kind this replay does not register itself (it does not validate) */
	struct sim_observer o = {.kind = SIM_OBSERVER_VALIDATE,
				 .task_event = loop_task_event,
				 .sched_applied = loop_sched_applied,
				 .task_ran = loop_task_ran,
				 .notes = loop_notes};
	struct sim_config cfg;
	struct run_result r;
	struct sim *s;
	const char *mine, *warmup;
	(void)state;

	sim_config_init(&cfg);
	cfg.opts.timing = SIM_TIMING_TRACED;
	cfg.opts.warmup_ns = 1000000;
	s = replay_hikey(&cfg, &o, ev, 3, &r);
	assert_string_equal(trail, "wakeup@1000 applied-wakeup@1000:curr=-1,queued=1 "
				   "in@2000 applied-switch@2000:curr=100,queued=1 "
				   "tick@4000 "
				   "ran@5000:pid=100,cpu=0,from=2000 sleep@5000 "
				   "applied-switch@5000:curr=-1,queued=0 "
				   "notes@5000 ");
	mine = strstr(r.notes, "the loop observer's note");
	warmup = strstr(r.notes, "the first 1 ms are a warm-up");
	assert_non_null(mine);
	assert_non_null(warmup);
	assert_true(mine < warmup);
	run_result_release(&r);
	sim_free(s);
}

/* ---- the timeline writers ------------------------------------------------------------------ */

struct sink_log {
	int tasks;
	char freqs[128];
};

static void sink_task(void *ctx, const struct tl_task *t)
{
	struct sink_log *l = ctx;

	l->tasks += t->pid == 100;
}

static void sink_traced_freq(void *ctx, u64 ts_ns, int policy, u32 khz)
{
	struct sink_log *l = ctx;
	size_t len = strlen(l->freqs);

	snprintf(l->freqs + len, sizeof(l->freqs) - len, "%llu:policy%d:%u ",
		 (unsigned long long)ts_ns, policy, khz);
}

/* The task above in traced timing, with cpu_frequency events of CPUs 0 and 1 (both of
 * HiKey960's policy0) at 3 ms, writing what cfg asks for. */
static struct sim *timeline_replay(struct sim_config *cfg)
{
	struct event ev[5] = {
		task_wakeup,
		task_in,
		{.ts_ns = 3000000, .line = 3, .cpu = 0, .type = EV_CPU_FREQUENCY,
		 .power = {.cpu_id = 0, .state = 999000}},
		{.ts_ns = 3000000, .line = 4, .cpu = 1, .type = EV_CPU_FREQUENCY,
		 .power = {.cpu_id = 1, .state = 999000}},
		task_out,
	};
	struct run_result r;
	struct sim *s;

	cfg->opts.timing = SIM_TIMING_TRACED;
	s = replay_hikey(cfg, NULL, ev, 5, &r);
	run_result_release(&r);
	return s;
}

/*
 * By hand: nothing asked, no observer of the kind. --task-timeline and a sink that takes task
 * rows and traced frequencies: the observer has task_event and traced_freq, not gov_eval.
 * Times are from the first event (1 ms): the wakeup at 0, the switch in at 1 ms, the tick of
 * the 4-ms grid at 3 ms, the sleep at 4 ms, each on CPU 0; the sink gets the same four rows,
 * and of the two cpu_frequency events only CPU 0's, policy0's first CPU, at its trace time.
 */
static void test_timeline_writers(void **state)
{
	struct sink_log log = {0};
	struct tl_sink sink = {.ctx = &log, .task = sink_task, .traced_freq = sink_traced_freq};
	const unsigned int bit = 1U << SIM_OBSERVER_TIMELINE;
	struct sim_config cfg;
	char *csv = NULL;
	size_t len = 0;
	struct sim *s;
	int n_task = 0, rows = 0;
	(void)state;

	sim_config_init(&cfg);
	s = timeline_replay(&cfg);
	assert_int_equal(s->obs.kinds & bit, 0);
	sim_free(s);

	sim_config_init(&cfg);
	cfg.opts.task_timeline = open_memstream(&csv, &len);
	assert_non_null(cfg.opts.task_timeline);
	cfg.opts.sink = &sink;
	s = timeline_replay(&cfg);
	assert_int_equal(s->obs.kinds & bit, bit);
	for (int i = 0; i < s->obs.nr_task_event; i++)
		n_task += s->obs.task_event[i]->kind == SIM_OBSERVER_TIMELINE;
	assert_int_equal(n_task, 1);
	for (int i = 0; i < s->obs.nr_gov_eval; i++)
		assert_int_not_equal(s->obs.gov_eval[i]->kind, SIM_OBSERVER_TIMELINE);
	assert_int_equal(s->obs.nr_traced_freq, 1);
	sim_free(s);
	fclose(cfg.opts.task_timeline);
	assert_non_null(csv);
	assert_non_null(strstr(csv, "0.000000,100,worker,0,wakeup,"));
	assert_non_null(strstr(csv, "\n0.001000,100,worker,0,switch_in,"));
	assert_non_null(strstr(csv, "\n0.003000,100,worker,0,tick,"));
	assert_non_null(strstr(csv, "\n0.004000,100,worker,0,sleep,"));
	for (const char *c = csv; *c; c++)
		rows += *c == '\n';
	assert_int_equal(rows, 4);
	assert_int_equal(log.tasks, 4);
	assert_string_equal(log.freqs, "3000000:policy0:999000 ");
	free(csv);
}

/* ---- the trace's util signals shown to the observers --------------------------------------- */

static void util_trace_event(struct sim *s, void *state, const struct event *ev)
{
	const char *what = ev->type == EV_PELT_SE	 ? "pelt_se"
			   : ev->type == EV_PELT_CFS	 ? "pelt_cfs"
			   : ev->type == EV_GOV_RAW_FREQ ? "raw"
							 : "other";

	(void)state;
	loop_log(what, s->now, "");
}

/* The task above with a PELT event of its own and one of its CPU's root cfs_rq and a governor
 * probe while it runs, replayed with the given timing and util source. */
static void util_replay(enum sim_timing timing, enum sim_util_source util)
{
	struct event ev[6] = {
		task_wakeup,
		task_in,
		{.ts_ns = 3000000, .line = 3, .cpu = 0, .pid = 100, .type = EV_PELT_SE,
		 .util = {.cpu = 0, .pid = 100, .comm = "worker", .path = EV_PATH_NONE,
			  .load = EV_NO_VALUE, .runnable = EV_NO_VALUE, .util = 200}},
		{.ts_ns = 3500000, .line = 4, .cpu = 0, .pid = 100, .type = EV_PELT_CFS,
		 .util = {.cpu = 0, .pid = -1, .path = EV_PATH_ROOT, .load = EV_NO_VALUE,
			  .runnable = EV_NO_VALUE, .util = 300}},
		{.ts_ns = 3600000, .line = 5, .cpu = 0, .pid = 100, .type = EV_GOV_RAW_FREQ},
		task_out,
	};
	struct sim_observer o = {.kind = SIM_OBSERVER_VALIDATE, .trace_event = util_trace_event};
	struct sim_config cfg;
	struct run_result r;

	sim_config_init(&cfg);
	cfg.opts.timing = timing;
	cfg.opts.util_source = util;
	sim_free(replay_hikey(&cfg, &o, ev, 6, &r));
	run_result_release(&r);
}

/* By hand: in traced timing with the emulated util, each of the three at its trace time (the
 * loop brought there first); nothing with the trace's util or in work timing. */
static void test_util_events_shown(void **state)
{
	(void)state;
	util_replay(SIM_TIMING_TRACED, SIM_UTIL_EMULATED);
	assert_string_equal(trail, "pelt_se@3000 pelt_cfs@3500 raw@3600 ");
	util_replay(SIM_TIMING_TRACED, SIM_UTIL_TRACE);
	assert_string_equal(trail, "");
	util_replay(SIM_TIMING_WORK, SIM_UTIL_EMULATED);
	assert_string_equal(trail, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_missing_hooks),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_task_exit_any_keeps),
		cmocka_unit_test(test_first_failure_stops),
		cmocka_unit_test(test_each_kind_once),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_loop_calls),
		cmocka_unit_test(test_hold_order),
		cmocka_unit_test(test_timeline_writers),
		cmocka_unit_test(test_util_events_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
