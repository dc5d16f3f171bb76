/*
 * test_work.c - the closed-loop work timing model (src/work/work.c), through its API alone.
 *
 * A hand-made platform (two CPUs of capacity 1024 in one cluster whose top OPP is 1 GHz; three
 * in one case) and a host that records every event the layer replays, with its emulated time.
 * Each case feeds a few trace events and checks the replayed switches and wakeups, their times
 * and the tasks' measurements against answers worked out in its comment from the rules of
 * work.h:
 *  - a slice's work is its traced duration x capacity/1024 x f_traced/f_max, integrated over
 *    the trace's frequency changes; a CPU runs it at capacity/1024 x f/f_max, piecewise over
 *    the emulated frequency changes (so at f_max/2 it takes twice as long);
 *  - a task wakeup happens when the waker has done, in the emulation, the work it had done at
 *    the traced wakeup; an external (irq) wakeup keeps its traced time; a wakee switched in on
 *    a CPU idle in the trace keeps the traced wakeup -> switch-in gap;
 *  - a preempted task is ready again at the traced preemption or at the end of its slice in
 *    the emulation, whichever is later;
 *  - a free CPU starts, of its ready slices, the earliest ready, not the trace's order;
 *  - work in = work out per CPU; a slice's delay is its emulated end minus its traced end.
 *  - the kernel's work (work_host.kernel_work) is asked at each enqueue and dequeue read once
 *    the host has set its function, and added to the slice it is charged to.
 * Does not check: --placement and misfit pulls, the overhead model's charges (test_overhead),
 * the backlog note, traces that disagree with themselves (golden work_disagree), nor the replay
 * loop that hosts the layer (test_sim, the golden tests).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "power/platform.h"
#include "work/work.h"

#define US 1000ull
#define MS 1000000ull
#define F_MAX 1000000u /* kHz */

#define PID_A 10
#define PID_B 20
#define PID_C 30

/* What the layer replayed: one row per sched_event() call. */
struct replayed {
	enum event_type type;
	u64 t;
	int cpu;
	s32 prev, next; /* switch */
	u32 prev_state;
	s32 wakee;      /* wakeup */
};

struct host {
	struct work *w;
	u32 khz;                 /* the cluster's emulated frequency */
	u64 change_at;           /* an emulated frequency change to make at this time ... */
	u32 change_khz;          /* ... to this frequency (0: none) */
	u64 advanced;            /* advance_to()'s last time: never goes back */
	double kwork_ns;         /* kernel_work()'s answer to every ask */
	int kwork_asks;          /* kernel_work() calls, the first few of them kept: */
	struct {
		s32 pid;
		int cpu;
		bool enqueue;
	} kwork_ask[4];
	struct replayed ev[32];
	int n;
};

static struct platform plat;

static int host_sched_event(void *ctx, const struct event *ev, u64 now, struct gs_error *err)
{
	struct host *h = ctx;
	struct replayed *r;

	assert_true(h->n < (int)(sizeof(h->ev) / sizeof(h->ev[0])));
	assert_int_equal(ev->ts_ns, now);
	r = &h->ev[h->n++];
	memset(r, 0, sizeof(*r));
	r->type = ev->type;
	r->t = now;
	r->cpu = ev->cpu;
	if (ev->type == EV_SWITCH) {
		r->prev = ev->sw.prev_pid;
		r->next = ev->sw.next_pid;
		r->prev_state = ev->sw.prev_state;
	} else {
		r->wakee = ev->wake.pid;
	}
	return 0;
}

static int host_advance_to(void *ctx, u64 t, struct gs_error *err)
{
	struct host *h = ctx;

	assert_true(t >= h->advanced);
	h->advanced = t;
	if (h->change_khz && t >= h->change_at) {
		h->khz = h->change_khz;
		h->change_khz = 0;
		work_freq_changed(h->w, 0, t);
	}
	return 0;
}

static u64 host_next_internal_ns(void *ctx)
{
	struct host *h = ctx;

	return h->change_khz ? h->change_at : UINT64_MAX;
}

static u32 host_cluster_khz(void *ctx, int cluster)
{
	return ((struct host *)ctx)->khz;
}

static double host_kernel_work(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue)
{
	struct host *h = ctx;

	(void)comm;
	if (h->kwork_asks < (int)(sizeof(h->kwork_ask) / sizeof(h->kwork_ask[0]))) {
		h->kwork_ask[h->kwork_asks].pid = pid;
		h->kwork_ask[h->kwork_asks].cpu = cpu;
		h->kwork_ask[h->kwork_asks].enqueue = enqueue;
	}
	h->kwork_asks++;
	return h->kwork_ns;
}

static void host_init(struct host *h, u32 khz)
{
	struct work_host wh = {
		.ctx = h,
		.sched_event = host_sched_event,
		.advance_to = host_advance_to,
		.next_internal_ns = host_next_internal_ns,
		.cluster_khz = host_cluster_khz,
	};
	struct gs_error err = {0};

	memset(h, 0, sizeof(*h));
	h->khz = khz;
	assert_int_equal(work_new(&wh, &plat, 0, &h->w, &err), 0);
}

/* ---- trace events ---------------------------------------------------------------------------- */

static void set_comm(char *dst, s32 pid, int cpu)
{
	if (pid == 0)
		snprintf(dst, TASK_COMM_LEN, "swapper/%d", cpu);
	else
		snprintf(dst, TASK_COMM_LEN, "task%d", (int)pid);
}

static void feed_switch(struct host *h, u64 t, int cpu, s32 prev, u32 prev_state, s32 next)
{
	struct event ev;
	struct gs_error err = {0};

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SWITCH;
	ev.ts_ns = t;
	ev.cpu = cpu;
	ev.pid = prev;
	ev.sw.prev_pid = prev;
	set_comm(ev.sw.prev_comm, prev, cpu);
	ev.sw.prev_prio = 120;
	ev.sw.prev_state = prev_state;
	ev.sw.next_pid = next;
	set_comm(ev.sw.next_comm, next, cpu);
	ev.sw.next_prio = 120;
	assert_int_equal(work_feed(h->w, &ev, &err), 0);
}

/* sched_wakeup of wakee, emitted on cpu in the context of `waker` (irq: EV_IRQ_* or 0). */
static void feed_wakeup(struct host *h, u64 t, int cpu, s32 waker, u32 irq, s32 wakee,
			int target)
{
	struct event ev;
	struct gs_error err = {0};

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_WAKEUP;
	ev.ts_ns = t;
	ev.cpu = cpu;
	ev.pid = waker;
	set_comm(ev.wake.comm, wakee, target);
	ev.wake.pid = wakee;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.irq = irq;
	assert_int_equal(work_feed(h->w, &ev, &err), 0);
}

static void finish(struct host *h)
{
	struct gs_error err = {0};

	assert_int_equal(work_finish(h->w, &err), 0);
}

/* ---- what was replayed ------------------------------------------------------------------------- */

static void expect_switch(const struct host *h, int i, u64 t, int cpu, s32 prev, u32 prev_state,
			  s32 next)
{
	assert_true(i < h->n);
	assert_int_equal(h->ev[i].type, EV_SWITCH);
	assert_int_equal(h->ev[i].t, t);
	assert_int_equal(h->ev[i].cpu, cpu);
	assert_int_equal(h->ev[i].prev, prev);
	assert_int_equal(h->ev[i].prev_state, prev_state);
	assert_int_equal(h->ev[i].next, next);
}

static void expect_wakeup(const struct host *h, int i, u64 t, s32 wakee)
{
	assert_true(i < h->n);
	assert_int_equal(h->ev[i].type, EV_WAKEUP);
	assert_int_equal(h->ev[i].t, t);
	assert_int_equal(h->ev[i].wakee, wakee);
}

/* Work in = work out on every CPU, and equal to `cpu0` and `cpu1` (ns at f_max). */
static void expect_work(const struct host *h, double cpu0, double cpu1)
{
	double in, out;

	work_totals(h->w, 0, &in, &out);
	assert_float_equal(in, cpu0, 1e-6);
	assert_float_equal(out, cpu0, 1e-6);
	work_totals(h->w, 1, &in, &out);
	assert_float_equal(in, cpu1, 1e-6);
	assert_float_equal(out, cpu1, 1e-6);
}

/* ---- cases ------------------------------------------------------------------------------------ */

/*
 * Work at half the frequency takes twice the time. A runs on CPU0 from 1 ms to 2 ms in the
 * trace at f_max (no cpu_frequency: the trace's frequency is taken as the top OPP), then
 * sleeps: work = 1 ms x 1024/1024 x 1 = 1,000,000 ns. The emulation runs CPU0 at 500 MHz,
 * speed 1 x 500/1000 = 0.5: A starts at its traced 1 ms (first seen switching in: ready then)
 * and ends at 1 + 1/0.5 = 3 ms. Its slice's delay: 3 - 2 = 1 ms, the worst too.
 */
static void test_half_frequency_twice_the_time(void **state)
{
	struct host h;
	struct run_activity act;
	double delay, worst;

	host_init(&h, F_MAX / 2);
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	feed_switch(&h, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.n, 2);
	expect_switch(&h, 0, 1 * MS, 0, 0, 0, PID_A);
	expect_switch(&h, 1, 3 * MS, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 1e6, 0);
	assert_true(work_task_result(h.w, PID_A, &delay, &worst, &act));
	assert_float_equal(delay, 0.001, 1e-12);
	assert_float_equal(worst, 0.001, 1e-12);
	assert_int_equal(work_end_ns(h.w), 3 * MS);
	work_free(h.w);
}

/*
 * The trace's frequency changes within a slice: A runs 1 ms -> 3 ms, the trace's CPU0 at
 * f_max until 2 ms and at 500 MHz after. Work = 1 ms x 1 + 1 ms x 0.5 = 1,500,000 ns; at f_max
 * in the emulation it ends at 1 + 1.5 = 2.5 ms (not 3 ms as at the traced duration, nor
 * 2 ms as at the traced frequency of its start).
 */
static void test_traced_frequency_integrated(void **state)
{
	struct host h;

	host_init(&h, F_MAX);
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	work_traced_freq(h.w, 0, F_MAX / 2, 2 * MS);
	feed_switch(&h, 3 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.n, 2);
	expect_switch(&h, 1, 2500 * US, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 1.5e6, 0);
	work_free(h.w);
}

/*
 * The emulated frequency changes within a slice: A's 1 ms of work (1 ms -> 2 ms traced at
 * f_max) starts at 1 ms at f_max; at 1.5 ms the loop lowers the cluster to 500 MHz. Done by
 * then: 0.5 ms of work; the other 0.5 ms at speed 0.5 take 1 ms: A ends at 2.5 ms.
 */
static void test_emulated_frequency_change(void **state)
{
	struct host h;

	host_init(&h, F_MAX);
	h.change_at = 1500 * US;
	h.change_khz = F_MAX / 2;
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	feed_switch(&h, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.khz, F_MAX / 2); /* the change was made */
	assert_int_equal(h.n, 2);
	expect_switch(&h, 1, 2500 * US, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 1e6, 0);
	work_free(h.w);
}

/*
 * The trace of the next two cases, at 500 MHz: A runs on CPU0 1 -> 2 ms; B is woken at 1.5 ms
 * on CPU0 (by A, or in the given irq context), runs on CPU1 1.6 -> 1.85 ms.
 */
static void feed_a_wakes_b(struct host *h, u32 irq)
{
	host_init(h, F_MAX / 2);
	feed_switch(h, 1 * MS, 0, 0, 0, PID_A);
	feed_wakeup(h, 1500 * US, 0, PID_A, irq, PID_B, 1);
	feed_switch(h, 1600 * US, 1, 0, 0, PID_B);
	feed_switch(h, 1850 * US, 1, PID_B, TASK_STATE_S, 0);
	feed_switch(h, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(h);
}

/*
 * A task wakeup follows its waker's work. Trace: A runs on CPU0 1 ms -> 2 ms; at 1.5 ms A wakes
 * B (task context, on CPU0); B is switched in on CPU1, idle until then, at 1.6 ms and sleeps at
 * 1.85 ms; A sleeps at 2 ms. Both CPUs emulated at 500 MHz (speed 0.5):
 *  - A starts at 1 ms; its wake point is at 0.5 ms of its work, reached at 1 + 0.5/0.5 = 2 ms:
 *    B's wakeup is replayed at 2 ms;
 *  - B keeps its traced wakeup -> switch-in gap on an idle CPU, 1.6 - 1.5 = 0.1 ms: it starts at
 *    2.1 ms; its 0.25 ms of work take 0.5 ms: it ends at 2.6 ms;
 *  - A ends at 1 + 1/0.5 = 3 ms.
 * B's activation: latency 2.1 - 2.0 = 0.1 ms, response 2.6 - 2.0 = 0.6 ms, lateness (emulated
 * end - traced end) 2.6 - 1.85 = 0.75 ms. Work: CPU0 1 ms, CPU1 0.25 ms.
 */
static void test_task_wakeup_at_wakers_work(void **state)
{
	struct host h;
	struct run_activity act;
	double delay, worst;

	feed_a_wakes_b(&h, 0);
	assert_int_equal(h.n, 5);
	expect_switch(&h, 0, 1 * MS, 0, 0, 0, PID_A);
	expect_wakeup(&h, 1, 2 * MS, PID_B);
	expect_switch(&h, 2, 2100 * US, 1, 0, 0, PID_B);
	expect_switch(&h, 3, 2600 * US, 1, PID_B, TASK_STATE_S, 0);
	expect_switch(&h, 4, 3 * MS, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 1e6, 0.25e6);

	assert_true(work_task_result(h.w, PID_B, &delay, &worst, &act));
	assert_int_equal(act.activations, 1);
	assert_float_equal(act.latency.mean_s, 0.0001, 1e-12);
	assert_float_equal(act.response.mean_s, 0.0006, 1e-12);
	assert_float_equal(act.lateness.mean_s, 0.00075, 1e-12);
	assert_float_equal(act.lateness.max_s, 0.00075, 1e-12);
	work_free(h.w);
}

/*
 * An external wakeup keeps its traced time. The trace of the previous case, but B's wakeup at
 * 1.5 ms is emitted in hard irq context: no task caused it. At 500 MHz it is replayed at its
 * traced 1.5 ms; B starts after the traced gap, at 1.6 ms, and its 0.25 ms of work end at
 * 1.6 + 0.5 = 2.1 ms. A is untouched: 1 ms -> 3 ms. B's activation: latency 0.1 ms, response
 * 2.1 - 1.5 = 0.6 ms, lateness 2.1 - 1.85 = 0.25 ms.
 */
static void test_external_wakeup_keeps_traced_time(void **state)
{
	struct host h;
	struct run_activity act;
	double delay, worst;

	feed_a_wakes_b(&h, EV_IRQ_HARD);
	assert_int_equal(h.n, 5);
	expect_switch(&h, 0, 1 * MS, 0, 0, 0, PID_A);
	expect_wakeup(&h, 1, 1500 * US, PID_B);
	expect_switch(&h, 2, 1600 * US, 1, 0, 0, PID_B);
	expect_switch(&h, 3, 2100 * US, 1, PID_B, TASK_STATE_S, 0);
	expect_switch(&h, 4, 3 * MS, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 1e6, 0.25e6);

	assert_true(work_task_result(h.w, PID_B, &delay, &worst, &act));
	assert_int_equal(act.activations, 1);
	assert_float_equal(act.latency.mean_s, 0.0001, 1e-12);
	assert_float_equal(act.response.mean_s, 0.0006, 1e-12);
	assert_float_equal(act.lateness.mean_s, 0.00025, 1e-12);
	work_free(h.w);
}

/*
 * A free CPU starts the earliest ready slice, not the trace's next. Trace, CPU0 only: A runs
 * 1 -> 2 ms and sleeps; C (woken by an irq at 1.9 ms) runs 2 -> 2.5 ms; B (woken by an irq at
 * 1.1 ms) runs 2.5 -> 3 ms. At 500 MHz, A ends at 1 + 1/0.5 = 3 ms; then B, ready since
 * 1.1 ms, goes before C, ready since 1.9 ms (no gap: CPU0 was not idle in the trace when they
 * were switched in): B 3 -> 4 ms, C 4 -> 5 ms. The wakeups are replayed at their traced times.
 * Delays: B 4 - 3 = 1 ms; C 5 - 2.5 = 2.5 ms.
 */
static void test_earliest_ready_first(void **state)
{
	struct host h;
	struct run_activity act;
	double delay, worst;

	host_init(&h, F_MAX / 2);
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	feed_wakeup(&h, 1100 * US, 0, PID_A, EV_IRQ_HARD, PID_B, 0);
	feed_wakeup(&h, 1900 * US, 0, PID_A, EV_IRQ_HARD, PID_C, 0);
	feed_switch(&h, 2 * MS, 0, PID_A, TASK_STATE_S, PID_C);
	feed_switch(&h, 2500 * US, 0, PID_C, TASK_STATE_S, PID_B);
	feed_switch(&h, 3 * MS, 0, PID_B, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.n, 6);
	expect_switch(&h, 0, 1 * MS, 0, 0, 0, PID_A);
	expect_wakeup(&h, 1, 1100 * US, PID_B);
	expect_wakeup(&h, 2, 1900 * US, PID_C);
	expect_switch(&h, 3, 3 * MS, 0, PID_A, TASK_STATE_S, PID_B);
	expect_switch(&h, 4, 4 * MS, 0, PID_B, TASK_STATE_S, PID_C);
	expect_switch(&h, 5, 5 * MS, 0, PID_C, TASK_STATE_S, 0);
	expect_work(&h, 2e6, 0);

	assert_true(work_task_result(h.w, PID_B, &delay, &worst, &act));
	assert_float_equal(delay, 0.001, 1e-12);
	assert_true(work_task_result(h.w, PID_C, &delay, &worst, &act));
	assert_float_equal(delay, 0.0025, 1e-12);
	work_free(h.w);
}

/*
 * A preempted task is ready again at the traced preemption or when its slice ends in the
 * emulation, whichever is later. Trace, CPU0 only: A runs 1 -> 2 ms and is preempted (R) by B,
 * first seen switching in (ready at 2 ms); an irq wakes C at 2.1 ms; B sleeps at 2.2 ms, A runs
 * again 2.2 -> 2.4 ms and sleeps, C runs 2.4 -> 2.6 ms. At 500 MHz: A's first slice 1 -> 3 ms.
 * At 3 ms: B ready at 2 ms, C at 2.1 ms, A at max(2 ms, 3 ms) = 3 ms. B runs 3 -> 3.4 ms;
 * then C (2.1 ms) before A (3 ms): C 3.4 -> 3.8 ms, A 3.8 -> 4.2 ms. Were A ready at its traced
 * 2 ms, it would run before C. A's delays: 3 - 2 = 1 ms and 4.2 - 2.4 = 1.8 ms, 2.8 ms in all.
 */
static void test_preempted_ready_after_its_slice(void **state)
{
	struct host h;
	struct run_activity act;
	double delay, worst;

	host_init(&h, F_MAX / 2);
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	feed_switch(&h, 2 * MS, 0, PID_A, 0, PID_B);
	feed_wakeup(&h, 2100 * US, 0, PID_B, EV_IRQ_HARD, PID_C, 0);
	feed_switch(&h, 2200 * US, 0, PID_B, TASK_STATE_S, PID_A);
	feed_switch(&h, 2400 * US, 0, PID_A, TASK_STATE_S, PID_C);
	feed_switch(&h, 2600 * US, 0, PID_C, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.n, 6);
	expect_switch(&h, 0, 1 * MS, 0, 0, 0, PID_A);
	expect_wakeup(&h, 1, 2100 * US, PID_C);
	expect_switch(&h, 2, 3 * MS, 0, PID_A, 0, PID_B);
	expect_switch(&h, 3, 3400 * US, 0, PID_B, TASK_STATE_S, PID_C);
	expect_switch(&h, 4, 3800 * US, 0, PID_C, TASK_STATE_S, PID_A);
	expect_switch(&h, 5, 4200 * US, 0, PID_A, TASK_STATE_S, 0);
	assert_true(work_task_result(h.w, PID_A, &delay, &worst, &act));
	assert_float_equal(delay, 0.0028, 1e-12);
	assert_float_equal(worst, 0.0018, 1e-12);
	assert_int_equal(work_end_ns(h.w), 4200 * US);
	expect_work(&h, 1.6e6, 0);
	work_free(h.w);
}

/*
 * Items at one instant go to the lowest CPU first, whatever order the trace read them in (the
 * pump's rule, work.c), on a platform of three CPUs. A, B and C run on CPU0, CPU1 and CPU2 from
 * 1 ms to 2 ms at f_max, read CPU2 first each time; the emulation runs at f_max. A running
 * slice whose end is unread may end as early as the work it has shown, which holds back every
 * item at or after that time (work.c, "Ordering"):
 *  - C's switch-in (the only item) goes at 1 ms; C has shown no work yet, so B's and A's
 *    switch-ins, at 1 ms too, wait;
 *  - C's end read (2 ms: 1 ms of work), nothing holds them: of the two at 1 ms, CPU0's first;
 *    A then holds CPU1's, until A's end is read (two events later);
 *  - then B starts at 1 ms and every slice ends at 2 ms: CPU0, CPU1, CPU2 in that order.
 */
static void test_ties_to_lowest_cpu(void **state)
{
	struct plat_cluster *c = &plat.clusters[0];
	struct host h;

	(void)state;
	plat.nr_cpus = c->nr_cpus = 3;
	c->cpus[2] = 2;
	plat.cpus[2] = plat.cpus[1];
	plat.cpus[2].id = 2;
	host_init(&h, F_MAX);
	feed_switch(&h, 1 * MS, 2, 0, 0, PID_C);
	feed_switch(&h, 1 * MS, 1, 0, 0, PID_B);
	feed_switch(&h, 1 * MS, 0, 0, 0, PID_A);
	assert_int_equal(h.n, 1);
	feed_switch(&h, 2 * MS, 2, PID_C, TASK_STATE_S, 0);
	feed_switch(&h, 2 * MS, 1, PID_B, TASK_STATE_S, 0);
	assert_int_equal(h.n, 2);
	feed_switch(&h, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(&h);
	assert_int_equal(h.n, 6);
	expect_switch(&h, 0, 1 * MS, 2, 0, 0, PID_C);
	expect_switch(&h, 1, 1 * MS, 0, 0, 0, PID_A);
	expect_switch(&h, 2, 1 * MS, 1, 0, 0, PID_B);
	expect_switch(&h, 3, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	expect_switch(&h, 4, 2 * MS, 1, PID_B, TASK_STATE_S, 0);
	expect_switch(&h, 5, 2 * MS, 2, PID_C, TASK_STATE_S, 0);
	work_free(h.w);
	plat.nr_cpus = c->nr_cpus = 2; /* the other cases' two CPUs */
}

/*
 * The kernel's work is asked from the point the host sets its function, not before. Trace,
 * CPU0 only, at f_max (speed 1): A runs 1 -> 2 ms and sleeps; an irq wakes it at 2.9 ms; it
 * runs 3 -> 4 ms and sleeps. Every ask answers 0.1 ms. Set after the first sleep was read, the
 * function is asked twice: A's enqueue at the irq wakeup and its dequeue at 4 ms, both on
 * CPU0; the second slice's 1 ms of work grows by 0.2 ms: A ends at 3 + 1.2 = 4.2 ms. CPU0's
 * traced work is 2 ms, the kernel's 0.2 ms beside it. Set before any event, the first sleep's
 * dequeue is asked too: three asks, the first slice ends at 2.1 ms, the kernel's work 0.3 ms.
 */
static void feed_a_twice(struct host *h, bool from_start)
{
	host_init(h, F_MAX);
	h->kwork_ns = 100 * US;
	if (from_start)
		work_set_kernel_work(h->w, host_kernel_work);
	feed_switch(h, 1 * MS, 0, 0, 0, PID_A);
	feed_switch(h, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	if (!from_start)
		work_set_kernel_work(h->w, host_kernel_work);
	feed_wakeup(h, 2900 * US, 0, 0, EV_IRQ_HARD, PID_A, 0);
	feed_switch(h, 3 * MS, 0, 0, 0, PID_A);
	feed_switch(h, 4 * MS, 0, PID_A, TASK_STATE_S, 0);
	finish(h);
}

static void test_kernel_work_asked_once_set(void **state)
{
	struct host h;
	double in, out;

	(void)state;
	feed_a_twice(&h, false);
	assert_int_equal(h.kwork_asks, 2);
	assert_int_equal(h.kwork_ask[0].pid, PID_A);
	assert_int_equal(h.kwork_ask[0].cpu, 0);
	assert_true(h.kwork_ask[0].enqueue);
	assert_int_equal(h.kwork_ask[1].pid, PID_A);
	assert_int_equal(h.kwork_ask[1].cpu, 0);
	assert_false(h.kwork_ask[1].enqueue);
	expect_switch(&h, 1, 2 * MS, 0, PID_A, TASK_STATE_S, 0);
	assert_int_equal(work_end_ns(h.w), 4200 * US);
	expect_work(&h, 2e6, 0);
	work_kernel_totals(h.w, 0, &in, &out);
	assert_float_equal(in, 0.2e6, 1e-6);
	assert_float_equal(out, 0.2e6, 1e-6);
	work_free(h.w);

	feed_a_twice(&h, true);
	assert_int_equal(h.kwork_asks, 3);
	assert_false(h.kwork_ask[0].enqueue);
	expect_switch(&h, 1, 2100 * US, 0, PID_A, TASK_STATE_S, 0);
	expect_work(&h, 2e6, 0);
	work_kernel_totals(h.w, 0, &in, &out);
	assert_float_equal(in, 0.3e6, 1e-6);
	assert_float_equal(out, 0.3e6, 1e-6);
	work_free(h.w);
}

static int setup_platform(void **state)
{
	struct plat_cluster *c = &plat.clusters[0];

	memset(&plat, 0, sizeof(plat));
	snprintf(plat.name, sizeof(plat.name), "two-cpus");
	plat.nr_cpus = 2;
	plat.nr_clusters = 1;
	c->nr_cpus = 2;
	c->cpus[0] = 0;
	c->cpus[1] = 1;
	c->nr_opps = 2;
	c->opps[0].freq_khz = F_MAX / 2;
	c->opps[1].freq_khz = F_MAX;
	for (int i = 0; i < 2; i++) {
		plat.cpus[i].id = i;
		plat.cpus[i].cluster = 0;
		plat.cpus[i].capacity = 1024;
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_frequency_twice_the_time),
		cmocka_unit_test(test_traced_frequency_integrated),
		cmocka_unit_test(test_emulated_frequency_change),
		cmocka_unit_test(test_task_wakeup_at_wakers_work),
		cmocka_unit_test(test_external_wakeup_keeps_traced_time),
		cmocka_unit_test(test_earliest_ready_first),
		cmocka_unit_test(test_preempted_ready_after_its_slice),
		cmocka_unit_test(test_ties_to_lowest_cpu),
		cmocka_unit_test(test_kernel_work_asked_once_set),
	};
	return cmocka_run_group_tests(tests, setup_platform, NULL);
}
