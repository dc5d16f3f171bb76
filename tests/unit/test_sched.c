/*
 * test_sched.c - the scheduler model (src/sched/core.c, fair.c, rt.c): v5.9 PELT/util_est
 * update points.
 *
 * Checks:
 * - a single periodic CFS task (4 ms run / 12 ms sleep, 50 periods, 4 ms ticks) alone on a
 *   CPU: at every `sleep` task_event its util_avg and util_est, and the root cfs_rq's
 *   util_avg and util_est.enqueued, equal a straight-line re-computation written here with the
 *   PELT/util_est functions alone (pelt.c, util_est.c), following the kernel's update points;
 *   the same at capacity 462 (clock_pelt scaled) and at half frequency, which accumulate
 *   proportionally less;
 * - the idle clock sync (a task's clock is back to the task clock after an idle wakeup);
 * - migration: sleeping (removed load applied at the source's next update, attached at the
 *   destination) and queued (detach/attach at once, util_est moved);
 * - post_init_entity_util_avg for sched_wakeup_new; --seed-util;
 * - the sugov:N kthread runs as a special DL task (its runs build avg_dl, no kick); an RT task
 *   makes rt_runnable true and grows util_rt as update_rt_rq_load_avg at its update points;
 * - hook order: uclamp_inc before the cpufreq kick of an enqueue, uclamp_dec first at a
 *   dequeue, task_event after the updates; the iowait flag;
 * - trace/model disagreements are fixed and counted; a CPU out of range is GS_ETRACE.
 * Does not check: the PELT arithmetic itself (test_pelt.c), util_est cases (test_util_est.c),
 * uclamp aggregation or governors (their modules).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/event.h"
#include "sched/pelt.h"
#include "sched/sched.h"
#include "sched/sched_priv.h"
#include "sched/util_est.h"

#define MS 1000000ULL
#define TICK_NS (4 * MS) /* HZ 250 */

/* ---- recording hooks ------------------------------------------------------------------------- */

#define LOG_MAX 4096

struct rec {
	struct sched *s;
	char log[LOG_MAX][32];
	int nlog;
	int cpufreq_calls;
	int sleeps;
	unsigned long sleep_util[128];
	struct util_est sleep_est[128];
	struct sched_cpu_util sleep_cpu[128];
	int events[8];
};

static struct rec R;

static void logf_(const char *what)
{
	if (R.nlog < LOG_MAX)
		snprintf(R.log[R.nlog++], sizeof(R.log[0]), "%s", what);
}

static int uc_inc_enabled, uc_dec_enabled, uc_inc_all, uc_dec_all;

static void h_uclamp_inc(void *ctx, int cpu, struct task *p)
{
	logf_("uclamp_inc");
	uc_inc_all++;
	uc_inc_enabled += p->uclamp.class_enabled;
}

static void h_uclamp_dec(void *ctx, int cpu, struct task *p)
{
	logf_("uclamp_dec");
	uc_dec_all++;
	uc_dec_enabled += p->uclamp.class_enabled;
}

static void h_cpufreq(void *ctx, int cpu, u64 now, unsigned int flags)
{
	R.cpufreq_calls++;
	logf_(flags & SCHED_CPUFREQ_IOWAIT ? "cpufreq_iowait" : "cpufreq");
}

static void h_task_new(void *ctx, struct task *p, u64 now)
{
	logf_("task_new");
}

static void h_task_event(void *ctx, const struct task *p, int cpu, enum sched_task_event ev,
			 u64 now)
{
	char b[32];

	snprintf(b, sizeof(b), "ev_%s", sched_task_event_name(ev));
	logf_(b);
	R.events[ev]++;
	if (ev == TASK_EV_SLEEP && R.sleeps < 128) {
		R.sleep_util[R.sleeps] = p->avg.util_avg;
		R.sleep_est[R.sleeps] = p->avg.util_est;
		sched_cpu_util(R.s, cpu, &R.sleep_cpu[R.sleeps]);
		R.sleeps++;
	}
}

/* task_exit: whether the owner lets the task's state go */
static bool free_dead;
static int exits_seen;

static bool h_task_exit(void *ctx, struct task *p, u64 now)
{
	(void)ctx;
	(void)now;
	assert_false(p->on_rq);
	assert_false(p->running);
	exits_seen++;
	return free_dead;
}

static struct sched *new_sched_kernel(int nr_cpus, const unsigned long *cap, bool seed,
				      const struct kernel_profile *kernel)
{
	struct sched_config cfg;
	struct sched_hooks hooks = {
		.uclamp_inc = h_uclamp_inc,
		.uclamp_dec = h_uclamp_dec,
		.cpufreq_update = h_cpufreq,
		.task_new = h_task_new,
		.task_event = h_task_event,
		.task_exit = h_task_exit,
	};
	struct sched *s;

	memset(&R, 0, sizeof(R));
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_cpus = nr_cpus;
	cfg.hz = 250;
	cfg.start_from_trace_util = seed;
	cfg.kernel = kernel;
	for (int i = 0; i < nr_cpus; i++)
		cfg.capacity[i] = cap ? cap[i] : 1024;
	assert_int_equal(sched_new(&cfg, &hooks, &s), 0);
	R.s = s;
	return s;
}

static struct sched *new_sched(int nr_cpus, const unsigned long *cap, bool seed)
{
	return new_sched_kernel(nr_cpus, cap, seed, NULL);
}

/* ---- event builders -------------------------------------------------------------------------- */

static void ev_wakeup(struct sched *s, u64 t, int pid, const char *comm, int prio, int cpu)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = t;
	e.type = EV_WAKEUP;
	e.cpu = cpu;
	e.wake.pid = pid;
	e.wake.prio = prio;
	e.wake.target_cpu = cpu;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "%s", comm);
	assert_int_equal(sched_event(s, &e, t, NULL), 0);
}

static void ev_wakeup_new(struct sched *s, u64 t, int pid, const char *comm, int prio, int cpu)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.type = EV_WAKEUP_NEW;
	e.cpu = cpu;
	e.wake.pid = pid;
	e.wake.prio = prio;
	e.wake.target_cpu = cpu;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "%s", comm);
	assert_int_equal(sched_event(s, &e, t, NULL), 0);
}

/* prev_pid 0 / next_pid 0 is the idle task */
static void ev_switch(struct sched *s, u64 t, int cpu, int prev, const char *pcomm, int pprio,
		      u32 state, int next, const char *ncomm, int nprio)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.type = EV_SWITCH;
	e.cpu = cpu;
	e.sw.prev_pid = prev;
	e.sw.prev_prio = pprio;
	e.sw.prev_state = state;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "%s", prev ? pcomm : "swapper");
	e.sw.next_pid = next;
	e.sw.next_prio = nprio;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", next ? ncomm : "swapper");
	assert_int_equal(sched_event(s, &e, t, NULL), 0);
}

static void ev_migrate(struct sched *s, u64 t, int pid, const char *comm, int prio, int from,
		       int to)
{
	struct event e;

	memset(&e, 0, sizeof(e));
	e.type = EV_MIGRATE;
	e.cpu = from;
	e.migrate.pid = pid;
	e.migrate.prio = prio;
	e.migrate.orig_cpu = from;
	e.migrate.dest_cpu = to;
	snprintf(e.migrate.comm, sizeof(e.migrate.comm), "%s", comm);
	assert_int_equal(sched_event(s, &e, t, NULL), 0);
}

/* ---- the periodic task and its straight-line reference ------------------------------------- */

/*
 * The workload: task 100 (CFS) on `cpu`; activation k wakes at w_k = T0 + k*16 ms + 1.3 ms,
 * switches in at once, runs 4 ms (one 4 ms tick falls inside, at T0 + k*16 ms + 4 ms) and
 * sleeps. Events are fed in time order.
 */
#define T0      (1000 * MS)
#define PERIODS 50

static u64 wake_at(int k)
{
	return T0 + (u64)k * 16 * MS + 1300000;
}

static u64 tick_at(int k)
{
	return T0 + (u64)k * 16 * MS + 4 * MS;
}

static void run_periodic(struct sched *s, int cpu, int pid)
{
	for (int k = 0; k < PERIODS; k++) {
		ev_wakeup(s, wake_at(k), pid, "task", 120, cpu);
		ev_switch(s, wake_at(k), cpu, 0, NULL, 120, 0, pid, "task", 120);
		sched_tick(s, cpu, tick_at(k));
		ev_switch(s, wake_at(k) + 4 * MS, cpu, pid, "task", 120, TASK_STATE_S, 0, NULL, 120);
	}
}

/*
 * Straight-line: the kernel's sequence at each point, with the PELT clock of a CPU of capacity
 * `cap` at frequency scale `fs`: idle -> clock_pelt = clock_task; busy -> += delta*cap*fs.
 *   wakeup   (idle, sync)   se: decay (not on_rq)     cfs: load 0 (not yet accounted)
 *            util_est_enqueue first
 *   switch-in (same time)   se: on_rq, not curr       cfs: load 1024, h_nr 1, curr NULL
 *   tick     (busy)         se: on_rq, curr           cfs: 1024, 1, curr
 *   sleep    (busy)         se: on_rq, curr           cfs: 1024, 1, curr, then util_est_dequeue
 * The task starts with zero sums dated its first wakeup; the cfs_rq from 0 at time 0.
 */
struct ref_out {
	unsigned long util[PERIODS];
	struct util_est est[PERIODS];
	unsigned long cfs_util[PERIODS];
};

static void reference(unsigned long cap, unsigned long fs, struct ref_out *o)
{
	struct sched_avg se, cfs;
	u64 pelt, clock_task;

	memset(&se, 0, sizeof(se));
	memset(&cfs, 0, sizeof(cfs));
	/* a task first seen starts on the PELT clock's period grid, as an attached se shares its
	 * cfs_rq's (whose last_update_time starts at 0 and moves in whole 1024-ns units) */
	se.last_update_time = wake_at(0) & ~(u64)1023;
	se.period_contrib = (u32)((wake_at(0) >> 10) & 1023);
	for (int k = 0; k < PERIODS; k++) {
		u64 w = wake_at(k), t = tick_at(k), z = wake_at(k) + 4 * MS;

		/* wakeup on the idle CPU */
		pelt = w;
		clock_task = w;
		util_est_enqueue(&cfs, &se);
		__update_load_avg_se(pelt, &se, 1024, false, false, false, NULL);
		__update_load_avg_cfs_rq(pelt, &cfs, 0, 0, false, NULL);
		/* switch-in, same instant */
		__update_load_avg_se(pelt, &se, 1024, true, true, false, NULL);
		__update_load_avg_cfs_rq(pelt, &cfs, 1024, 1, false, NULL);
		/* tick */
		pelt += cap_scale(cap_scale(t - clock_task, cap), fs);
		clock_task = t;
		__update_load_avg_se(pelt, &se, 1024, true, true, true, NULL);
		__update_load_avg_cfs_rq(pelt, &cfs, 1024, 1, true, NULL);
		/* sleep */
		pelt += cap_scale(cap_scale(z - clock_task, cap), fs);
		__update_load_avg_se(pelt, &se, 1024, true, true, true, NULL);
		__update_load_avg_cfs_rq(pelt, &cfs, 1024, 1, true, NULL);
		util_est_dequeue(&cfs, &se, true, cap);
		o->util[k] = se.util_avg;
		o->est[k] = se.util_est;
		o->cfs_util[k] = cfs.util_avg;
	}
}

static void check_periodic(unsigned long cap, unsigned long fs, unsigned long *last_util)
{
	unsigned long caps[2] = { cap, cap };
	struct sched *s = new_sched(2, caps, false);
	static struct ref_out o;

	if (fs != 1024)
		sched_set_freq_scale(s, 1, 0, fs);
	reference(cap, fs, &o);
	run_periodic(s, 1, 100);
	assert_int_equal(R.sleeps, PERIODS);
	for (int k = 0; k < PERIODS; k++) {
		assert_int_equal(R.sleep_util[k], o.util[k]);
		assert_int_equal(R.sleep_est[k].enqueued, o.est[k].enqueued);
		assert_int_equal(R.sleep_est[k].ewma, o.est[k].ewma);
		assert_int_equal(R.sleep_cpu[k].util_avg, o.cfs_util[k]);
		assert_int_equal(R.sleep_cpu[k].util_est_enqueued, 0); /* dequeued */
	}
	/* the signal is alive: it grew well beyond its start */
	assert_true(o.util[PERIODS - 1] > 20);
	*last_util = o.util[PERIODS - 1];
	sched_free(s);
}

static void test_periodic_task(void **state)
{
	unsigned long u;
	(void)state;
	check_periodic(1024, 1024, &u);
	/* 4 ms in 16: the steady state swings around 256 (a sleep point is a local maximum) */
	assert_true(u > 256 && u < 400);
}

static void test_capacity_invariance(void **state)
{
	unsigned long full, small;
	(void)state;
	check_periodic(1024, 1024, &full);
	check_periodic(462, 1024, &small);
	/* proportionally less: util(462) / util(1024) ~ 462 / 1024 */
	assert_true(fabs((double)small / (double)full - 462.0 / 1024.0) < 0.05);
}

static void test_freq_invariance(void **state)
{
	unsigned long full, half;
	(void)state;
	check_periodic(1024, 1024, &full);
	check_periodic(1024, 512, &half);
	assert_true(fabs((double)half / (double)full - 0.5) < 0.05);
}

/* After a busy slice at capacity 462 clock_pelt lags clock_task; at the next wakeup on the
 * idle CPU it is synced again: the task's last_update_time is within a 1024 ns unit of now. */
static void test_idle_clock_sync(void **state)
{
	unsigned long caps[1] = { 462 };
	struct sched *s = new_sched(1, caps, false);
	struct task *p;
	u64 t = 100 * MS;
	(void)state;

	ev_wakeup(s, t, 7, "t", 120, 0);
	ev_switch(s, t, 0, 0, NULL, 120, 0, 7, "t", 120);
	ev_switch(s, t + 10 * MS, 0, 7, "t", 120, TASK_STATE_S, 0, NULL, 120);
	p = sched_task_find(s, 7);
	assert_non_null(p);
	/* 10 ms at 462/1024: clock_pelt moved 4.51 ms only */
	assert_true(t + 10 * MS - p->avg.last_update_time > 5 * MS);
	ev_wakeup(s, t + 20 * MS, 7, "t", 120, 0);
	assert_true(t + 20 * MS - p->avg.last_update_time < 1024);
	sched_free(s);
}

/* ---- migration ------------------------------------------------------------------------------- */

static void test_migration_sleeping(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	struct sched_cpu_util u0, u1;
	struct task *p;
	u64 end;
	(void)state;

	run_periodic(s, 0, 100);
	end = wake_at(PERIODS - 1) + 4 * MS;
	p = sched_task_find(s, 100);
	sched_cpu_util(s, 0, &u0);
	assert_true(u0.util_avg > 200);
	assert_int_equal(p->cpu, 0);

	/* asleep, moved 0 -> 1: the source keeps it until its next update */
	ev_migrate(s, end + 2 * MS, 100, "task", 120, 0, 1);
	assert_int_equal(p->cpu, 1);
	assert_int_equal(p->avg.last_update_time, 0);
	sched_cpu_util(s, 0, &u0);
	assert_true(u0.util_avg > 200);
	sched_update_blocked(s, 0, end + 3 * MS);
	sched_cpu_util(s, 0, &u0);
	assert_true(u0.util_avg <= 2); /* the removed util is gone (blocked remainder only) */

	/* woken on CPU 1: attached there, the whole of its util */
	ev_wakeup(s, end + 4 * MS, 100, "task", 120, 1);
	sched_cpu_util(s, 1, &u1);
	assert_true(p->avg.util_avg > 150);
	assert_int_equal(u1.util_avg, p->avg.util_avg);
	assert_int_equal(u1.util_est_enqueued, _task_util_est(&p->avg));
	assert_int_equal(R.events[TASK_EV_MIGRATE], 1);
	sched_free(s);
}

/*
 * A task asleep in the model moves with no wakeup in progress, in a trace that records
 * sched_waking: only the load balancer moves a task outside try_to_wake_up(), so the kernel had
 * it on its runqueue (queued, or v6.12+'s delayed dequeue: Debian 6.12's fork-exit recording,
 * kthreadd at 21.0814, moved with util 229 and CPU 1's cfs util went 1023 -> 1252 at once). Its
 * util goes with it at the move (attach_entity_load_avg(): the destination's cfs util_avg +=
 * the task's), where a wakeup's move attaches it at the enqueue.
 */
static void test_migration_balancer(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	struct sched_cpu_util u0, u1;
	struct task *p;
	struct event e;
	u64 end;
	(void)state;

	memset(&e, 0, sizeof(e)); /* some sched_waking in the trace (another task's) */
	e.type = EV_WAKING;
	e.wake.pid = 999;
	e.wake.target_cpu = 1;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "other");
	assert_int_equal(sched_event(s, &e, 0, NULL), 0);
	run_periodic(s, 0, 100);
	end = wake_at(PERIODS - 1) + 4 * MS;
	p = sched_task_find(s, 100);
	sched_cpu_util(s, 0, &u0);
	assert_true(u0.util_avg > 200);

	/* moved 0 -> 1 while asleep, no sched_waking of it: on CPU 1 at once, whole */
	ev_migrate(s, end + 2 * MS, 100, "task", 120, 0, 1);
	assert_int_equal(p->cpu, 1);
	assert_true(p->avg.last_update_time != 0);
	assert_false(p->on_rq);
	sched_cpu_util(s, 1, &u1);
	assert_true(p->avg.util_avg > 150);
	assert_int_equal(u1.util_avg, p->avg.util_avg);
	assert_int_equal(u1.util_est_enqueued, 0); /* asleep: no estimate enqueued */
	sched_cpu_util(s, 0, &u0);
	assert_true(u0.util_avg <= 2); /* detached from the source at once */

	/* its wakeup on CPU 1 attaches nothing more */
	ev_wakeup(s, end + 2 * MS + MS / 10, 100, "task", 120, 1);
	sched_cpu_util(s, 1, &u1);
	assert_true(u1.util_avg <= p->avg.util_avg + 1);
	sched_free(s);

	/* the same move inside its wakeup (sched_waking first): attached at the enqueue */
	s = new_sched(2, NULL, false);
	run_periodic(s, 0, 100);
	p = sched_task_find(s, 100);
	memset(&e, 0, sizeof(e));
	e.type = EV_WAKING;
	e.wake.pid = 100;
	e.wake.target_cpu = 1;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "task");
	assert_int_equal(sched_event(s, &e, end + 2 * MS, NULL), 0);
	ev_migrate(s, end + 2 * MS, 100, "task", 120, 0, 1);
	assert_int_equal(p->avg.last_update_time, 0);
	sched_cpu_util(s, 1, &u1);
	assert_int_equal(u1.util_avg, 0);
	sched_free(s);
}

static void test_migration_queued(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	struct sched_cpu_util a0, a1, b0, b1;
	struct task *p;
	u64 t;
	(void)state;

	run_periodic(s, 0, 100);
	t = wake_at(PERIODS);
	/* 100 wakes on CPU 0 but another task runs there: it stays queued */
	ev_wakeup(s, t, 200, "other", 120, 0);
	ev_switch(s, t, 0, 0, NULL, 120, 0, 200, "other", 120);
	ev_wakeup(s, t + MS, 100, "task", 120, 0);
	p = sched_task_find(s, 100);
	assert_true(p->on_rq && !p->running);
	sched_cpu_util(s, 0, &a0);
	sched_cpu_util(s, 1, &a1);
	ev_migrate(s, t + MS, 100, "task", 120, 0, 1);
	sched_cpu_util(s, 0, &b0);
	sched_cpu_util(s, 1, &b1);
	/* the util left CPU 0 at once (detach) and arrived on CPU 1 (attach) */
	assert_true(p->on_rq && p->cpu == 1);
	assert_true(p->avg.util_avg > 150);
	assert_true(a0.util_avg - b0.util_avg + 1 >= p->avg.util_avg);
	assert_int_equal(b1.util_avg, a1.util_avg + p->avg.util_avg);
	/* util_est moved with it */
	assert_int_equal(a0.util_est_enqueued - b0.util_est_enqueued, _task_util_est(&p->avg));
	assert_int_equal(b1.util_est_enqueued - a1.util_est_enqueued, _task_util_est(&p->avg));
	sched_free(s);
}

/*
 * The cpufreq kicks of a queued task's move, per kernel. Debian 5.10 (and v5.9, 5.15):
 * dequeue_entity()'s update_load_avg(UPDATE_TG) kicks where the source cfs_rq decayed, then
 * migrate_task_rq_fair() -> detach_entity_cfs_rq() kicks at the detach: two on the source.
 * From v6.1 (e1f078f50478; Debian 6.1 dequeue_entity l.4850, 6.12 l.5575, 7.2 l.6494)
 * dequeue_entity() passes DO_DETACH and update_load_avg() detaches in place of the decay kick:
 * one. The destination's attach kicks once on each. The move comes 2 ms after the source's last
 * update, so its cfs_rq has decayed. From v6.12 the task is the destination's first fair task:
 * enqueue_task_fair() starts its fair server (dl_server_start(), Debian 6.12 fair.c l.7117),
 * whose bandwidth joins running_bw with one more kick (__add_running_bw()).
 */
static void test_migration_queued_kicks(void **state)
{
	static const struct {
		const char *kernel;
		int kicks;
	} want[] = {{"v5.10", 3}, {"v6.1", 2}, {"v6.12", 3}, {"v7.2", 3}};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sched *s = new_sched_kernel(2, NULL, false, kernel_profile_find(want[i].kernel));
		u64 t;
		unsigned before;

		run_periodic(s, 0, 100);
		t = wake_at(PERIODS);
		ev_wakeup(s, t, 200, "other", 120, 0);
		ev_switch(s, t, 0, 0, NULL, 120, 0, 200, "other", 120);
		ev_wakeup(s, t + MS, 100, "task", 120, 0);
		before = R.cpufreq_calls;
		ev_migrate(s, t + 3 * MS, 100, "task", 120, 0, 1);
		assert_int_equal(R.cpufreq_calls - before, want[i].kicks);
		sched_free(s);
	}
}

/* ---- creation -------------------------------------------------------------------------------- */

static void test_wakeup_new(void **state)
{
	struct sched *s = new_sched(1, NULL, false);
	struct sched_cpu_util u;
	struct task *p;
	u64 t;
	(void)state;

	/* an idle, empty CPU: half of the capacity */
	ev_wakeup_new(s, 10 * MS, 50, "fork", 120, 0);
	p = sched_task_find(s, 50);
	assert_int_equal(p->avg.util_avg, 512);
	assert_int_equal(p->avg.runnable_avg, 512);
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_avg, 512);
	assert_int_equal(u.util_est_enqueued, 1); /* a fresh estimate: 0 | UTIL_AVG_UNCHANGED */
	sched_free(s);

	/* a loaded CPU: (capacity - cfs util) / 2 of the stored cfs util */
	s = new_sched(1, NULL, false);
	run_periodic(s, 0, 100);
	t = wake_at(PERIODS - 1) + 5 * MS;
	sched_cpu_util(s, 0, &u);
	ev_wakeup_new(s, t, 51, "fork", 120, 0);
	p = sched_task_find(s, 51);
	assert_int_equal(p->avg.util_avg, (1024 - u.util_avg) / 2);
	sched_free(s);
}

/*
 * post_init_entity_util_avg() on a CPU whose tasks wait for each other (cfs load_avg well above
 * util_avg): util = cfs.util_avg * w / (cfs.load_avg + 1), at most (1024 - cfs.util_avg) / 2.
 * Up to v6.6 w is se->load.weight, 1024 << 10 for nice 0 on 64-bit, so the cap wins
 * (kernel/sched/fair.c, Debian 5.10 and 6.1); from 6.12 on (the fix "sched/fair: fix initial
 * util_avg calculation", read in Debian 6.12 and 7.2) it is se_weight(), 1024. Six tasks
 * woken together every 30 ms run 1 ms each in turn: util ~205, load ~700.
 */
static void new_task_util(const char *kernel, unsigned long *util, unsigned long *cfs_util,
			  unsigned long *cfs_load)
{
	const struct kernel_profile *kp = kernel_profile_find(kernel);
	struct sched *s;
	struct sched_cpu_util u;
	u64 t = T0;

	assert_non_null(kp);
	s = new_sched_kernel(1, NULL, false, kp);
	for (int k = 0; k < 30; k++, t += 30 * MS) {
		for (int i = 0; i < 6; i++)
			ev_wakeup(s, t, 200 + i, "q", 120, 0);
		for (int i = 0; i < 6; i++)
			ev_switch(s, t + (u64)i * MS, 0, i ? 200 + i - 1 : 0, "q", 120,
				  i ? TASK_STATE_S : 0, 200 + i, "q", 120);
		ev_switch(s, t + 6 * MS, 0, 205, "q", 120, TASK_STATE_S, 0, NULL, 120);
	}
	sched_cpu_util(s, 0, &u);
	ev_wakeup_new(s, t + 2 * MS, 300, "fork", 120, 0);
	*util = sched_task_find(s, 300)->avg.util_avg;
	*cfs_util = u.util_avg;
	*cfs_load = u.load_avg;
	sched_free(s);
}

static void test_wakeup_new_weight(void **state)
{
	unsigned long util, cu, cl, cap, by_weight;
	(void)state;

	new_task_util("v6.1", &util, &cu, &cl);
	cap = (1024 - cu) / 2;
	assert_true(cu > 150 && cl > 2 * cu); /* the tasks did wait */
	assert_int_equal(util, cu * (1024UL << 10) / (cl + 1) < cap ? cu * (1024UL << 10) / (cl + 1)
								     : cap);
	assert_int_equal(util, cap);

	for (int k = 0; k < 2; k++) {
		new_task_util(k ? "v7.2" : "v6.12", &util, &cu, &cl);
		cap = (1024 - cu) / 2;
		by_weight = cu * 1024 / (cl + 1);
		assert_true(by_weight < cap); /* the case where the two rules differ */
		assert_int_equal(util, by_weight);
	}
}

static void test_start_from_trace_util(void **state)
{
	struct sched *s = new_sched(1, NULL, true);
	struct sched_cpu_util u;
	struct event e;
	struct task *p;
	(void)state;

	memset(&e, 0, sizeof(e));
	e.type = EV_PELT_SE;
	e.util.cpu = -1;
	e.util.pid = 300;
	e.util.path = EV_PATH_NONE;
	snprintf(e.util.comm, sizeof(e.util.comm), "seeded");
	e.util.load = 410;
	e.util.runnable = 405;
	e.util.util = 400;
	e.util.util_est_enqueued = EV_NO_VALUE;
	e.util.util_est_ewma = EV_NO_VALUE;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	assert_null(sched_task_find(s, 300)); /* not started before a scheduling event */
	ev_wakeup(s, 6 * MS, 300, "seeded", 120, 0);
	p = sched_task_find(s, 300);
	assert_non_null(p);
	assert_int_equal(p->avg.util_avg, 400);
	assert_int_equal(p->avg.runnable_avg, 405);
	assert_int_equal(p->avg.load_avg, 410);
	/* attached: util_sum = util_avg * divider of the cfs_rq */
	assert_int_equal(p->avg.util_sum, 400 * get_pelt_divider(&p->avg));
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_avg, 400);
	sched_free(s);

	/* without start_from_trace_util the same events start it at 0 */
	s = new_sched(1, NULL, false);
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	ev_wakeup(s, 6 * MS, 300, "seeded", 120, 0);
	assert_int_equal(sched_task_find(s, 300)->avg.util_avg, 0);
	sched_free(s);
}

/* start_from_trace_util of a runqueue: the trace's root util before the CPU's first event
 * becomes blocked util; a seeded task waking there takes its share out of it instead of adding
 * to it. */
static void test_seed_rq_util(void **state)
{
	struct sched *s = new_sched(1, NULL, true);
	struct sched_cpu_util u;
	struct event e;
	struct task *p;
	(void)state;

	memset(&e, 0, sizeof(e));
	e.type = EV_PELT_CFS;
	e.util.cpu = 0;
	e.util.pid = -1;
	e.util.path = EV_PATH_ROOT;
	e.util.util = 500;
	e.util.load = EV_NO_VALUE;
	e.util.runnable = EV_NO_VALUE;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_avg, 500);

	/* a second root event, or one for a group, seeds nothing more */
	e.util.util = 900;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	e.util.path = EV_PATH_GROUP;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_avg, 500);

	/* a task seeded at 300 wakes 1 ms later: the rq keeps ~500 (decayed by one period at
	 * most: 500 * y = 489), not 800 */
	memset(&e, 0, sizeof(e));
	e.type = EV_PELT_SE;
	e.util.cpu = 0;
	e.util.pid = 300;
	e.util.path = EV_PATH_NONE;
	snprintf(e.util.comm, sizeof(e.util.comm), "seeded");
	e.util.util = 300;
	e.util.load = EV_NO_VALUE;
	e.util.runnable = EV_NO_VALUE;
	e.util.util_est_enqueued = EV_NO_VALUE;
	e.util.util_est_ewma = EV_NO_VALUE;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	ev_wakeup(s, 6 * MS, 300, "seeded", 120, 0);
	p = sched_task_find(s, 300);
	assert_int_equal(p->avg.util_avg, 300);
	sched_cpu_util(s, 0, &u);
	assert_true(u.util_avg >= 489 && u.util_avg <= 500);
	sched_free(s);

	/* without start_from_trace_util a root event changes nothing */
	s = new_sched(1, NULL, false);
	memset(&e, 0, sizeof(e));
	e.type = EV_PELT_CFS;
	e.util.cpu = 0;
	e.util.path = EV_PATH_ROOT;
	e.util.util = 500;
	assert_int_equal(sched_event(s, &e, 5 * MS, NULL), 0);
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_avg, 0);
	sched_free(s);
}

/* ---- classes --------------------------------------------------------------------------------- */

/*
 * The governor's kthread is a special DL task (SCHED_FLAG_SUGOV): its wakeup and enqueue kick
 * no cpufreq update (add_running_bw() skips special entities), and it is no workload, but it
 * runs in the DL class and its runs build avg_dl like any DL task's (set_next_task_dl running 0,
 * put_prev_task_dl running 1; kernel/sched/deadline.c, Debian 5.10 to 7.2). 191 is avg_dl's
 * util after an update at 51 ms (not running) and one at 61 ms (running), from the kernel's
 * formulas by tests/golden/lib/pelt_ref.py.
 */
static void test_sugov_special_dl(void **state)
{
	struct sched *s = new_sched(1, NULL, false);
	struct sched_cpu_util u;
	struct sched_stats st;
	int calls, events;
	u64 t = 50 * MS;
	(void)state;

	ev_wakeup(s, t, 10, "work", 120, 0);
	ev_switch(s, t, 0, 0, NULL, 120, 0, 10, "work", 120);
	calls = R.cpufreq_calls;
	events = R.nlog;
	ev_wakeup(s, t + MS, 99, "sugov:0", -1, 0); /* no hook: not workload, no kick */
	assert_int_equal(R.cpufreq_calls, calls);
	assert_int_equal(R.nlog, events + 1); /* task_new only */
	ev_switch(s, t + MS, 0, 10, "work", 120, TASK_REPORT_MAX, 99, "sugov:0", -1);
	assert_non_null(sched_cpu_curr(s, 0));
	assert_int_equal(sched_cpu_curr(s, 0)->pid, 99);
	sched_cpu_util(s, 0, &u);
	assert_true(u.busy);
	ev_switch(s, t + 11 * MS, 0, 99, "sugov:0", -1, TASK_STATE_S, 10, "work", 120);
	assert_non_null(sched_cpu_curr(s, 0));
	assert_int_equal(sched_cpu_curr(s, 0)->pid, 10);
	sched_cpu_util(s, 0, &u);
	assert_int_equal(u.util_dl, 191);
	assert_int_equal(u.util_rt, 0);
	assert_false(u.rt_runnable);
	assert_true(u.busy);
	sched_get_stats(s, &st);
	assert_int_equal(st.governor_switches, 1);
	assert_int_equal(st.switch_prev_mismatch, 0);
	assert_true(sched_task_find(s, 99)->is_governor);
	assert_false(sched_task_find(s, 99)->on_rq);
	sched_free(s);
}

/* RT: set_next_task_rt (prev not RT) running 0, task_tick_rt 1, put_prev_task_rt 1. */
static void test_rt_task(void **state)
{
	struct sched *s = new_sched(1, NULL, false);
	struct sched_cpu_util u;
	struct sched_avg ref;
	u64 t = 200 * MS;
	int calls;
	(void)state;

	calls = R.cpufreq_calls;
	ev_wakeup(s, t, 20, "irq/rt", 49, 0);
	assert_int_equal(R.cpufreq_calls, calls + 1); /* enqueue_top_rt_rq() */
	sched_cpu_util(s, 0, &u);
	assert_true(u.rt_runnable);
	ev_switch(s, t, 0, 0, NULL, 120, 0, 20, "irq/rt", 49);
	sched_tick(s, 0, t + 2 * MS);
	sched_tick(s, 0, t + 6 * MS);
	ev_switch(s, t + 8 * MS, 0, 20, "irq/rt", 49, TASK_STATE_S, 0, NULL, 120);
	sched_cpu_util(s, 0, &u);
	assert_false(u.rt_runnable);
	assert_int_equal(u.util_avg, 0);

	memset(&ref, 0, sizeof(ref));
	update_rt_rq_load_avg(t, &ref, 0, NULL);
	update_rt_rq_load_avg(t + 2 * MS, &ref, 1, NULL);
	update_rt_rq_load_avg(t + 6 * MS, &ref, 1, NULL);
	update_rt_rq_load_avg(t + 8 * MS, &ref, 1, NULL);
	assert_true(ref.util_avg > 100);
	assert_int_equal(u.util_rt, ref.util_avg);
	/* dequeue_rt_entity() kicks cpufreq too */
	assert_int_equal(R.cpufreq_calls, calls + 2);
	sched_free(s);
}

/* ---- hooks ----------------------------------------------------------------------------------- */

static int log_find(const char *what, int from)
{
	for (int i = from; i < R.nlog; i++)
		if (strcmp(R.log[i], what) == 0)
			return i;
	return -1;
}

static void test_hook_order(void **state)
{
	struct sched *s = new_sched(1, NULL, false);
	int i, j, k;
	u64 t = 300 * MS;
	(void)state;

	/* RT enqueue: uclamp_inc, then the cpufreq kick, then the task event */
	ev_wakeup(s, t, 30, "rt", 10, 0);
	i = log_find("uclamp_inc", 0);
	j = log_find("cpufreq", 0);
	k = log_find("ev_wakeup", 0);
	assert_true(i >= 0 && j > i && k > j);

	/* CFS task that slept in D: its wakeup kicks cpufreq with IOWAIT after uclamp_inc */
	ev_switch(s, t, 0, 0, NULL, 120, 0, 30, "rt", 10);
	ev_switch(s, t + MS, 0, 30, "rt", 10, TASK_STATE_S, 0, NULL, 120);
	ev_wakeup(s, t + 2 * MS, 31, "io", 120, 0);
	ev_switch(s, t + 2 * MS, 0, 0, NULL, 120, 0, 31, "io", 120);
	assert_false(sched_task_find(s, 31)->in_iowait);
	ev_switch(s, t + 5 * MS, 0, 31, "io", 120, TASK_STATE_D, 0, NULL, 120);
	assert_true(sched_task_find(s, 31)->in_iowait);
	i = R.nlog;
	ev_wakeup(s, t + 9 * MS, 31, "io", 120, 0);
	j = log_find("uclamp_inc", i);
	k = log_find("cpufreq_iowait", i);
	assert_true(j == i && k > j);
	assert_true(log_find("ev_wakeup", i) > k);

	/* a dequeue starts with uclamp_dec, and the sleep event comes last */
	ev_switch(s, t + 9 * MS, 0, 0, NULL, 120, 0, 31, "io", 120);
	i = R.nlog;
	ev_switch(s, t + 12 * MS, 0, 31, "io", 120, TASK_STATE_S, 0, NULL, 120);
	assert_int_equal(log_find("uclamp_dec", i), i);
	assert_int_equal(log_find("ev_sleep", i), R.nlog - 1);
	sched_free(s);
}

/* ---- disagreements and errors ---------------------------------------------------------------- */

/*
 * enqueue_task()/dequeue_task() call uclamp_rq_inc/dec for every task, and the class check is
 * uclamp's (p->uclamp.class_enabled, the queued class's uclamp_enabled): an RT task seen with a
 * CFS prio while queued keeps its RT class until it leaves the runqueue, so each dequeue sees
 * the same flag as its enqueue and the buckets balance; a deadline task is never clamped.
 */
static void test_uclamp_class_while_queued(void **state)
{
	struct sched *s = new_sched(1, NULL, false);
	u64 t = 100 * MS;
	(void)state;

	uc_inc_enabled = uc_dec_enabled = uc_inc_all = uc_dec_all = 0;
	ev_wakeup(s, t, 30, "rtthread", 49, 0);                  /* RT enqueue: clamped */
	assert_int_equal(uc_inc_all, 1);
	assert_int_equal(uc_inc_enabled, 1);
	ev_switch(s, t + 1 * MS, 0, 0, NULL, 120, 0, 30, "rtthread", 49);
	/* preempted (R: still queued) and now shown at a CFS prio: the class change waits */
	ev_switch(s, t + 2 * MS, 0, 30, "rtthread", 120, 0, 0, NULL, 120);
	ev_switch(s, t + 3 * MS, 0, 0, NULL, 120, 0, 30, "rtthread", 120);
	ev_switch(s, t + 4 * MS, 0, 30, "rtthread", 120, TASK_STATE_S, 0, NULL, 120);
	assert_int_equal(uc_dec_all, uc_inc_all);
	assert_int_equal(uc_dec_enabled, uc_inc_enabled);
	/* now CFS: clamped again at its next enqueue */
	ev_wakeup(s, t + 10 * MS, 30, "rtthread", 120, 0);
	assert_int_equal(uc_inc_enabled, 2);
	/* a deadline task (prio < 0): the hook runs, uclamp leaves it alone */
	ev_wakeup(s, t + 11 * MS, 40, "dlworker", -1, 0);
	assert_int_equal(uc_inc_all, 3);
	assert_int_equal(uc_inc_enabled, 2);
	sched_free(s);
}

static void test_trust_the_trace(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	struct sched_stats st;
	struct event e;
	struct gs_error err;
	u64 t = 400 * MS;
	(void)state;

	/* first event of CPU 0 switches out a task never seen: it ran since the model's start */
	ev_wakeup(s, t, 60, "a", 120, 1);
	ev_switch(s, t + 20 * MS, 0, 61, "b", 120, TASK_STATE_S, 0, NULL, 120);
	sched_get_stats(s, &st);
	assert_int_equal(st.started_running, 1);
	assert_true(sched_task_find(s, 61)->avg.util_avg > 300); /* 20 ms running */
	assert_false(sched_task_find(s, 61)->on_rq);

	/* CPU 1: the model has nothing running, the trace switches out task 60 (no switch-in) */
	ev_switch(s, t + 25 * MS, 1, 60, "a", 120, TASK_REPORT_MAX, 0, NULL, 120);
	sched_get_stats(s, &st);
	assert_int_equal(st.switch_prev_mismatch, 1);
	assert_true(sched_task_find(s, 60)->on_rq);
	assert_false(sched_task_find(s, 60)->running);

	/* a wakeup of a queued task is ignored */
	ev_wakeup(s, t + 26 * MS, 60, "a", 120, 1);
	sched_get_stats(s, &st);
	assert_int_equal(st.wakeup_on_rq, 1);

	/* CPU out of range */
	memset(&e, 0, sizeof(e));
	gs_error_clear(&err);
	e.type = EV_SWITCH;
	e.cpu = 5;
	e.line = 42;
	assert_int_equal(sched_event(s, &e, t + 30 * MS, &err), GS_ETRACE);
	assert_int_equal(err.code, GS_ETRACE);
	assert_string_equal(err.msg, "sched_switch at line 42: cpu 5 outside 0..1");
	sched_free(s);
}

static void count_cb(void *ctx, struct task *p)
{
	s32 *last = ctx;

	assert_true(p->pid > *last);
	*last = p->pid;
}

/* Many tasks: the table grows, lookups and the pid-ordered iteration hold. */
static void test_many_tasks(void **state)
{
	struct sched *s = new_sched(4, NULL, false);
	s32 last = 0;
	(void)state;

	for (int i = 0; i < 5000; i++) {
		int pid = 1 + (i * 7919) % 20011;
		ev_wakeup(s, MS + (u64)i, pid, "x", 120, i % 4);
	}
	for (int i = 0; i < 5000; i++) {
		int pid = 1 + (i * 7919) % 20011;
		assert_non_null(sched_task_find(s, pid));
		assert_int_equal(sched_task_find(s, pid)->cpu, i % 4);
	}
	assert_null(sched_task_find(s, 20012));
	sched_for_each_task(s, count_cb, &last);
	assert_true(last > 0);
	sched_free(s);
	sched_free(NULL);
}

/* 200k short-lived pids (each woken new, run 100 us, switched out X) next to
 * a long-lived task: the states held at once stay at one per CPU plus it. */
static void test_dead_tasks_freed(void **state)
{
	struct sched *s = new_sched(4, NULL, false);
	struct sched_stats st;
	const int n = 200000;
	(void)state;

	free_dead = true;
	exits_seen = 0;
	ev_wakeup(s, MS, 1, "daemon", 120, 3); /* queued on CPU 3 all along */
	for (int k = 0; k < n; k++) {
		u64 t = 2 * MS + (u64)k * 200000;
		int cpu = k % 3, pid = 1000 + k;

		ev_wakeup_new(s, t, pid, "sh", 120, cpu);
		ev_switch(s, t, cpu, 0, "", 120, 0, pid, "sh", 120);
		/* a zombie (Z) or a self-reaping task (X): both die */
		ev_switch(s, t + 100000, cpu, pid, "sh", 120, k % 2 ? 0x10 : 0x20, 0, "", 120);
		if (k == 10)
			assert_null(sched_task_find(s, pid - 1));
	}
	sched_get_stats(s, &st);
	assert_int_equal(exits_seen, n);
	assert_int_equal(st.exited, n);
	assert_int_equal(st.live_tasks, 1);
	assert_true(st.peak_live_tasks <= 2); /* the daemon and one short-lived task at a time */
	assert_int_equal(st.tasks, n + 1);
	assert_non_null(sched_task_find(s, 1));
	assert_true(sched_task_find(s, 1)->on_rq);
	/* a pid that comes back after its death is a new task */
	ev_wakeup(s, 3 * NSEC_PER_SEC * 100, 1000, "again", 120, 0);
	assert_string_equal(sched_task_find(s, 1000)->comm, "again");
	assert_int_equal(sched_task_find(s, 1000)->avg.util_avg, 0);
	free_dead = false;
	sched_free(s);
}

/*
 * task_dead_fair() -> remove_entity_load_avg() (kernel/sched/fair.c, v5.9 and Debian 6.1,
 * 6.12, 7.2): a task switched out to die leaves its CPU's cfs_rq at once; its util is queued
 * as removed and taken off at the cfs_rq's next update (update_cfs_rq_load_avg). A task alone
 * on CPU 0 runs 200 ms (util 1024 (1 - y^195) ~ 1009, y^32 = 1/2) and dies (Z); 1 ms later a
 * wakeup on CPU 0 updates the cfs_rq, whose util_avg is then the task's util minus the same,
 * up to the truncation of the two averages, each util_sum / divider: 0 or 1. (Were the load
 * left there, it would still be ~ 1009 y ~ 987.)
 */
static void test_dead_task_util_removed(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	struct sched_cpu_util u;
	(void)state;

	free_dead = true;
	ev_wakeup(s, MS, 10, "worker", 120, 0);
	ev_switch(s, MS, 0, 0, "", 120, 0, 10, "worker", 120);
	ev_switch(s, 201 * MS, 0, 10, "worker", 120, 0x20, 0, "", 120);
	sched_cpu_util(s, 0, &u);
	assert_true(u.util_avg > 1000); /* the sanity of the setup: 200 ms running */
	ev_wakeup(s, 202 * MS, 11, "other", 120, 0);
	sched_cpu_util(s, 0, &u);
	assert_true(u.util_avg <= 1);
	/* the dead task's estimate left at its dequeue; "other" adds 0 | UTIL_AVG_UNCHANGED (v5.9
	 * sums the LSB flag) */
	assert_true(u.util_est_enqueued <= 1);
	free_dead = false;
	sched_free(s);
}

static void alive_cb(void *ctx, struct task *p)
{
	int *count = ctx;

	(*count)++;
	assert_true(p->pid % 65536 == 1);
}

/*
 * Freeing in the middle of a probe cluster: 600 pids with one home slot (k * 65536 + 1: the
 * same hash for every table size up to 65536), so every lookup walks one long cluster that
 * wraps around the table; every third dies, in a scrambled order. The survivors are still
 * found (the entries after a freed one moved back), the dead are not (a plain array says
 * which is which).
 */
static void test_free_in_probe_cluster(void **state)
{
	struct sched *s = new_sched(2, NULL, false);
	static bool dead[600];
	int alive = 0;
	(void)state;

	free_dead = true;
	memset(dead, 0, sizeof(dead));
	for (int k = 0; k < 600; k++)
		ev_wakeup(s, MS + (u64)k, k * 65536 + 1, "x", 120, k % 2);
	for (int i = 0; i < 600; i++) {
		int k = (i * 367) % 600, pid = k * 65536 + 1;
		u64 t = 2 * MS + (u64)i * 1000;

		if (k % 3)
			continue;
		ev_switch(s, t, k % 2, 0, "", 120, 0, pid, "x", 120);
		ev_switch(s, t + 500, k % 2, pid, "x", 120, 0x10, 0, "", 120);
		dead[k] = true;
		for (int j = 0; j < 600; j++) {
			const struct task *p = sched_task_find(s, j * 65536 + 1);

			if (dead[j])
				assert_null(p);
			else
				assert_true(p && p->pid == j * 65536 + 1 && p->cpu == j % 2);
		}
	}
	sched_for_each_task(s, alive_cb, &alive);
	assert_int_equal(alive, 400);
	free_dead = false;
	sched_free(s);
}

/* comm_same() (set_comm's compare) answers what strncmp() over 15 characters answers, for a
 * task's NUL-padded name against event names that equal it, differ in one byte before or
 * after the NUL, carry bytes after their NUL (a reader need not pad), or fill all 15. */
static void test_comm_same_is_strncmp(void **state)
{
	static const char *names[] = {"", "a", "rt3-0", "cfs6-2", "swapper/3", "sugov:0",
				      "abcdefghijklmno", "abcdefghijklmnop"};
	u32 x = 7;
	(void)state;

	for (size_t a = 0; a < sizeof(names) / sizeof(names[0]); a++) {
		char p_comm[TASK_COMM_LEN] = {0};

		strncpy(p_comm, names[a], TASK_COMM_LEN - 1);
		for (int i = 0; i < 4000; i++) {
			char comm[TASK_COMM_LEN];
			size_t len;

			x = x * 1103515245u + 12345u; /* fixed LCG: same every run */
			memcpy(comm, p_comm, TASK_COMM_LEN);
			len = strlen(comm);
			switch ((x >> 8) % 4) {
			case 0: /* equal */
				break;
			case 1: /* a byte changed anywhere (before, at or after the NUL) */
				comm[(x >> 12) % TASK_COMM_LEN] = (char)('a' + (x >> 20) % 4);
				break;
			case 2: /* garbage after the NUL */
				for (size_t k = len + 1; k < TASK_COMM_LEN; k++)
					comm[k] = (char)(x >> (k % 24));
				break;
			default: /* another name */
				memset(comm, 0, sizeof(comm));
				strncpy(comm, names[(x >> 16) % 8], TASK_COMM_LEN - 1);
				comm[TASK_COMM_LEN - 1] = (char)(x >> 24);
				break;
			}
			assert_int_equal(comm_same(comm, p_comm),
					 strncmp(comm, p_comm, TASK_COMM_LEN - 1) == 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_task),
		cmocka_unit_test(test_capacity_invariance),
		cmocka_unit_test(test_freq_invariance),
		cmocka_unit_test(test_idle_clock_sync),
		cmocka_unit_test(test_migration_sleeping),
		cmocka_unit_test(test_migration_balancer),
		cmocka_unit_test(test_migration_queued),
		cmocka_unit_test(test_migration_queued_kicks),
		cmocka_unit_test(test_wakeup_new),
		cmocka_unit_test(test_wakeup_new_weight),
		cmocka_unit_test(test_start_from_trace_util),
		cmocka_unit_test(test_seed_rq_util),
		cmocka_unit_test(test_sugov_special_dl),
		cmocka_unit_test(test_rt_task),
		cmocka_unit_test(test_hook_order),
		cmocka_unit_test(test_uclamp_class_while_queued),
		cmocka_unit_test(test_trust_the_trace),
		cmocka_unit_test(test_many_tasks),
		cmocka_unit_test(test_dead_tasks_freed),
		cmocka_unit_test(test_dead_task_util_removed),
		cmocka_unit_test(test_free_in_probe_cluster),
		cmocka_unit_test(test_comm_same_is_strncmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
