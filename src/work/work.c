/*
 * work.c - the closed-loop work timing model; see work.h for the model.
 *
 * Two timelines meet here. The traced side follows the trace as it is read: per CPU, the slice
 * open on it (who runs since when, the work done so far at the traced frequency), and the
 * wakeups read, each with its cause. The emulated side runs the CPUs at the emulated
 * frequencies and tells the replay loop what happens when: synthesised sched_switch events at
 * emulated times, task wakeups at the emulated time their waker reaches them ("wake points"),
 * and external wakeups at their trace times ("anchored" events).
 *
 * Storage. Slices and wake points live in pools with stable indices (a slice is referred to by
 * its waker's wake points and by its CPU; a wake point by its waker slice and its wakee task);
 * handles carry a generation so that a stale one is recognised. Each CPU holds its waiting
 * slices in traced order and the one it runs.
 *
 * Ordering. The pump processes, earliest first: a wake point or the end of a running slice, the
 * start of a waiting one, the loop's own work (ticks, frequency changes), and anchored trace
 * events. It may only process time t when nothing earlier can still appear: every anchored
 * event at or before the last trace time read is queued (the reader is time-ordered); a running
 * slice whose traced end is not yet read ends no earlier than the work it has already shown,
 * and any wakeup it has yet to show lies at or beyond that work too; a slice whose task wakeup
 * is not yet emulated becomes ready at that wake point's time, which is itself an item of the
 * pump (or follows one). Causes point back in traced order (a waker's slice began before its
 * wakee's), so the emulation cannot deadlock.
 */
#include "work/work_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- traced side ---------------------------------------------------------------------------- */

/* Bring the open traced slice's work up to trace time t at the traced frequency. */
static void traced_work_to(struct work *w, struct wcpu *wc, u64 t)
{
	struct slice *sl;
	double add;

	if (wc->tr_slice == NO_INDEX || t <= wc->tr_last_ns) {
		if (t > wc->tr_last_ns)
			wc->tr_last_ns = t;
		return;
	}
	sl = slice_at(w, wc->tr_slice);
	add = (double)(t - wc->tr_last_ns) * wc->capacity * wc->tr_khz / wc->max_khz;
	sl->work += add;
	wc->work_in += add;
	wc->tr_last_ns = t;
	if (w->cpu[sl->cpu].cur == wc->tr_slice)
		invalidate(w, &w->cpu[sl->cpu]); /* the running slice's end moved */
}

void work_traced_freq(struct work *w, int cpu, u32 khz, u64 t)
{
	struct wcpu *wc = &w->cpu[cpu];
	if (!w->started) {
		wc->tr_khz = khz;
		return;
	}
	traced_work_to(w, wc, t);
	wc->tr_khz = khz;
}

/* Charge the kernel's work for one enqueue (activate_task) or dequeue of tk to slice idx, at the
 * work it has shown so far (work.h: kernel_work; none where all are 0: inline, it returns). */
static inline __attribute__((always_inline)) void charge_kernel_work(struct work *w, u32 idx,
								       const struct wtask *tk, bool enqueue)
{
	struct slice *sl = slice_at(w, idx);
	struct wcpu *wc = &w->cpu[sl->cpu];
	double d, floor;

	if (!w->host.kernel_work)
		return;
	d = w->host.kernel_work(w->host.ctx, tk->pid, tk->comm, sl->cpu, enqueue);
	if (d == 0)
		return; /* the traced kernel's path: the slice's work stays as it is */
	/* a saving never takes the slice below the work it has shown at its last wake point */
	floor = sl->wp_tail != NO_INDEX ? w->wp[sl->wp_tail].offset : 0;
	if (sl->work + d < floor)
		d = floor < sl->work ? floor - sl->work : 0;
	sl->work += d;
	sl->kwork += d;
	wc->kernel_in += d;
	if (wc->cur == idx)
		invalidate(w, wc);
}

static bool is_workload(s32 pid, const char *comm)
{
	return pid != 0 && !(comm[0] == 's' && strncmp(comm, "sugov:", 6) == 0);
}

static void traced_slice_close(struct work *w, int cpu, u64 t, u32 state)
{
	struct wcpu *wc = &w->cpu[cpu];
	struct slice *sl;

	if (wc->tr_slice == NO_INDEX)
		return;
	traced_work_to(w, wc, t);
	sl = slice_at(w, wc->tr_slice);
	sl->complete = true;
	sl->traced_end = t;
	sl->end_state = state;
	sl->tk->tr_running = false;
	if (switch_prev_sleeps(state))
		/* deactivate_task in __schedule() */
		charge_kernel_work(w, wc->tr_slice, sl->tk, false);
	if (w->cpu[sl->cpu].cur == wc->tr_slice)
		invalidate(w, &w->cpu[sl->cpu]);
	wc->tr_slice = NO_INDEX;
	if (state & TASK_STATE_EXIT)
		work_task_detach(w, sl->tk); /* the pid's next events are a new task's */
	if (!switch_prev_sleeps(state) && !sl->tk->tr_ready) {
		/* preempted: ready again at the traced preemption or, if later, when this slice is
		 * done in the emulation (the preemptor, woken at that time, goes first at a tie) */
		sl->tk->tr_ready = true;
		sl->tk->cause = CAUSE_PREEMPTED;
		sl->tk->tr_ready_ns = t;
	}
}

/* tk: pid's entry when the caller found it (named comm here, as work_task_get() would), or NULL */
static int traced_slice_open(struct work *w, int cpu, struct wtask *tk, s32 pid, const char *comm,
			     s32 prio, u64 t, bool from_idle)
{
	struct wcpu *wc = &w->cpu[cpu], *ec;
	struct slice *sl;
	u32 idx;

	if (tk)
		memcpy(tk->comm, comm, TASK_COMM_LEN);
	else if (!(tk = work_task_get(w, pid, comm)))
		return GS_ENOMEM;
	ec = tk->placed ? &w->cpu[tk->placed_cpu] : wc; /* --placement: where it runs now */
	idx = work_slice_alloc(w);
	if (idx == NO_INDEX || work_q_push(&ec->q, idx))
		return GS_ENOMEM;
	sl = slice_at(w, idx);
	sl->pid = pid;
	sl->cpu = ec->id;
	sl->tr_cpu = cpu;
	sl->tk = tk;
	memcpy(sl->comm, comm, TASK_COMM_LEN);
	sl->prio = prio;
	sl->seq = tk->next_seq++;
	sl->ready_ns = t; /* no wakeup seen: ready since it is switched in */
	if (tk->tr_ready && from_idle && (tk->cause == CAUSE_EXTERNAL || tk->cause == CAUSE_TASK)) {
		u64 since = gs_max_u64(tk->tr_wake_ns, wc->tr_idle_since);
		sl->gap_ns = t > since ? t - since : 0;
	}
	if (tk->tr_ready) {
		switch (tk->cause) {
		case CAUSE_EXTERNAL:
			sl->ready_ns = gs_min_u64(tk->tr_ready_ns, t);
			sl->woken = true;
			sl->ext_woken = true;
			/* no waker slice: on the wakee's CPU */
			charge_kernel_work(w, idx, tk, true);
			break;
		case CAUSE_TASK: {
			struct wakept *wp = work_wp_get(w, tk->cause_wp);
			sl->woken = true;
			if (wp) {
				wp->wakee_slice = idx;
				sl->ready_ns = NO_TIME;
			} else if (tk->early_valid && tk->early_seq == sl->seq) {
				sl->ready_ns = tk->early_ns;
			}
			break;
		}
		case CAUSE_PREEMPTED:
			sl->ready_ns = tk->tr_ready_ns;
			break;
		default:
			break;
		}
	}
	tk->tr_ready = false;
	tk->cause = CAUSE_NONE;
	tk->early_valid = false;
	if (tk->qcount[ec->id]++ == 0) {
		ec->nr_qtasks++;
		tk->qmask |= 1ull << ec->id;
	}
	wc->tr_slice = idx;
	wc->tr_last_ns = t;
	tk->tr_running = true;
	tk->tr_cpu = cpu;
	if (ec->cur == NO_INDEX) /* a running CPU's next item does not read its queue */
		invalidate(w, ec);
	return 0;
}

/*
 * The cause of a wakeup read in the trace: the slice of the waker (the task running on the
 * event's CPU in the trace, when that is the event's common pid and not in irq context), or
 * NO_INDEX for an external wakeup.
 */
static u32 waker_slice(struct work *w, const struct event *ev)
{
	struct wcpu *wc;

	if (ev->wake.irq || ev->pid <= 0 || ev->pid == ev->wake.pid || ev->cpu < 0 ||
	    ev->cpu >= w->plat->nr_cpus)
		return NO_INDEX;
	wc = &w->cpu[ev->cpu];
	if (wc->tr_slice == NO_INDEX || slice_at(w, wc->tr_slice)->pid != ev->pid)
		return NO_INDEX;
	return wc->tr_slice;
}

/* A task wakeup: a wake point on the waker's slice at the work it has done now. */
static int add_wake_point(struct work *w, u32 waker, const struct event *ev, struct wtask *tk,
			  struct handle *out)
{
	struct slice *sl = slice_at(w, waker);
	struct wcpu *wc = &w->cpu[sl->tr_cpu];
	u32 i;
	struct wakept *wp;

	traced_work_to(w, wc, ev->ts_ns);
	if (!tk->tr_ready)
		/* activate_task in the waker's try_to_wake_up() */
		charge_kernel_work(w, waker, tk, true);
	i = work_wp_alloc(w);
	if (i == NO_INDEX)
		return GS_ENOMEM;
	sl = slice_at(w, waker);
	wp = &w->wp[i];
	wp->offset = sl->work;
	wp->ev = *ev;
	if (wp->ev.type == EV_WAKING)
		wp->ev.type = EV_WAKEUP; /* replaced by the sched_wakeup once read */
	if (!tk->tr_ready) {
		tk->tr_ready = true;
		tk->tr_wake_ns = ev->ts_ns;
		tk->cause = CAUSE_TASK;
		tk->cause_wp = (struct handle){i, wp->gen};
		wp->wakee = tk;
		wp->wakee_gen = tk->gen;
		wp->wakee_seq = tk->next_seq;
	}
	if (sl->wp_tail == NO_INDEX)
		sl->wp_head = i;
	else
		w->wp[sl->wp_tail].next = i;
	sl->wp_tail = i;
	if (w->cpu[sl->cpu].cur == waker)
		invalidate(w, &w->cpu[sl->cpu]);
	if (out)
		*out = (struct handle){i, wp->gen};
	return 0;
}

static void set_external(struct wtask *tk, u64 t)
{
	if (tk->tr_ready)
		return;
	tk->tr_ready = true;
	tk->cause = CAUSE_EXTERNAL;
	tk->tr_ready_ns = t;
	tk->tr_wake_ns = t;
}

static int feed_wake(struct work *w, const struct event *ev)
{
	struct wtask *tk;
	u32 waker;

	if (!is_workload(ev->wake.pid, ev->wake.comm))
		return 0;
	tk = work_task_get(w, ev->wake.pid, ev->wake.comm);
	if (!tk)
		return GS_ENOMEM;
	if (ev->type == EV_WAKING) {
		/* the cause is decided here; the sched_wakeup that follows replays with it */
		tk->waking_wp.idx = NO_INDEX;
		tk->waking_ext = false;
		waker = waker_slice(w, ev);
		if (waker != NO_INDEX)
			return add_wake_point(w, waker, ev, tk, &tk->waking_wp);
		tk->waking_ext = true; /* ready at its sched_wakeup, replayed at the trace's time */
		return 0;
	}
	if (tk->waking_wp.idx != NO_INDEX) {
		struct wakept *wp = work_wp_get(w, tk->waking_wp);
		tk->waking_wp.idx = NO_INDEX;
		if (wp)
			wp->ev = *ev; /* replayed at the waking's emulated time */
		return 0;         /* else the waking was replayed already */
	}
	if (tk->waking_ext) {
		tk->waking_ext = false;
		set_external(tk, ev->ts_ns);
		return work_aq_push(w, ev, ev->ts_ns);
	}
	waker = waker_slice(w, ev);
	if (waker != NO_INDEX)
		return add_wake_point(w, waker, ev, tk, NULL);
	set_external(tk, ev->ts_ns);
	return work_aq_push(w, ev, ev->ts_ns);
}

/*
 * Events the tracer lost (or a corrupt one) show as a sched_switch that disagrees with the trace
 * read before it. The trace is trusted for what each switch says of its own CPU, and what it
 * leaves unknown gets no work:
 *  - prev is not the task the CPU runs in the trace (another task, or idle): the CPU's open
 *    slice ends here all the same, with the event's prev_state (the CPU switched out whatever
 *    ran, and nothing says until when else). A prev that the trace never showed running gets
 *    no slice and is no task of the replay: it ran for no time the trace records.
 *  - next's slice is still open on another CPU (its switch-out there was lost): that slice ends
 *    here, when the task is seen running elsewhere, instead of growing until its CPU's next
 *    switch (possibly the end of the trace) and holding every later slice of the task back.
 *    It ends in a sleep when a wakeup of the task was read since (it must have slept), else
 *    preempted.
 * Both are counted (work_disagreements()) and noted as traced timing notes its own.
 */
static bool switch_agrees(const struct work *w, int cpu, const struct event *ev, bool prev_work)
{
	u32 open = w->cpu[cpu].tr_slice;

	if (open == NO_INDEX)
		return !prev_work;
	return prev_work && w->sp[open].pid == ev->sw.prev_pid;
}

/* next's traced slice open on a CPU other than cpu ends at the event's time: true if it did.
 * tk: next's entry (work_task_find(), NULL when it has none). */
static bool close_elsewhere(struct work *w, int cpu, const struct event *ev,
			    const struct wtask *tk)
{
	int d;

	if (!tk || !tk->tr_running || tk->tr_cpu == cpu)
		return false;
	d = tk->tr_cpu;
	traced_slice_close(w, d, ev->ts_ns, tk->tr_ready ? TASK_STATE_S : 0);
	w->cpu[d].tr_idle_since = ev->ts_ns;
	return true;
}

static int work_pump(struct work *w, struct gs_error *err);

int work_feed(struct work *w, const struct event *ev, struct gs_error *err)
{
	bool first;
	int ret = 0;

	if (!w->started) {
		w->started = true;
		w->t_first = ev->ts_ns;
		w->t_emu = ev->ts_ns;
		w->measure_from = ev->ts_ns + w->warmup_ns;
		for (int c = 0; c < w->plat->nr_cpus; c++) {
			w->cpu[c].free_at = ev->ts_ns;
			w->cpu[c].tr_idle_since = ev->ts_ns;
		}
	}
	if (ev->ts_ns > w->t_read)
		w->t_read = ev->ts_ns;

	first = ev->cpu >= 0 && ev->cpu < w->plat->nr_cpus && !w->cpu[ev->cpu].ever;
	if (first)
		w->cpu[ev->cpu].ever = true;
	if (first && ev->type != EV_SWITCH && ev->pid > 0) {
		/* The first event of a CPU, in the context of a task: that task has been running
		 * since the trace began (a sched_switch as first event says so itself, below). */
		struct wtask *cur = work_task_get(w, ev->pid, NULL);
		if (!cur)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		if (!cur->comm[0])
			memcpy(cur->comm, "<...>", 6);
		ret = traced_slice_open(w, ev->cpu, NULL, ev->pid, cur->comm, 120, w->t_first, false);
		if (ret)
			return gs_error_set(err, ret, "out of memory");
	}

	switch (ev->type) {
	case EV_SWITCH: {
		int cpu = ev->cpu;
		bool prev_work = is_workload(ev->sw.prev_pid, ev->sw.prev_comm);
		bool next_work = is_workload(ev->sw.next_pid, ev->sw.next_comm);

		if (prev_work && first) {
			/* Its first event is a switch-out: it ran since the trace's first event. */
			ret = traced_slice_open(w, cpu, NULL, ev->sw.prev_pid, ev->sw.prev_comm,
						ev->sw.prev_prio, w->t_first, false);
		} else if (!first && !switch_agrees(w, cpu, ev, prev_work)) {
			w->disagreed++;
		}
		if (!ret)
			traced_slice_close(w, cpu, ev->ts_ns, ev->sw.prev_state);
		if (!ret && next_work) {
			struct wtask *next = work_task_find(w, ev->sw.next_pid); /* after prev's close */

			w->disagreed += close_elsewhere(w, cpu, ev, next);
			ret = traced_slice_open(w, cpu, next, ev->sw.next_pid, ev->sw.next_comm,
						ev->sw.next_prio, ev->ts_ns, !prev_work);
		} else if (!ret)
			w->cpu[cpu].tr_idle_since = ev->ts_ns;
		break;
	}
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		ret = feed_wake(w, ev);
		break;
	case EV_MIGRATE:
		/* The next slice's CPU says where the task runs; the scheduler model migrates a task
		 * when it is switched in elsewhere, at the emulated time that happens. */
		break;
	default:
		break;
	}
	if (ret)
		return gs_error_set(err, ret, "out of memory");
	return work_pump(w, err);
}

/* ---- emulated side -------------------------------------------------------------------------- */

void work_freq_changed(struct work *w, int cluster, u64 now)
{
	const struct plat_cluster *pc = &w->plat->clusters[cluster];
	u32 khz = w->host.cluster_khz(w->host.ctx, cluster);

	for (int i = 0; i < pc->nr_cpus; i++) {
		struct wcpu *wc = &w->cpu[pc->cpus[i]];
		if (wc->cur != NO_INDEX && now > wc->last_progress) {
			wc->done += (double)(now - wc->last_progress) * wc->speed;
			wc->last_progress = now;
		}
		wc->speed = wc->capacity * khz / wc->max_khz;
		invalidate(w, wc);
	}
}

/* When the running slice has done `work` of its work at the current speed (rounded up to the
 * ns; never before the time already processed). */
static u64 time_at(const struct work *w, const struct wcpu *wc, double work)
{
	double rem = work - wc->done, dt;
	u64 t = wc->last_progress;

	if (rem > 0) {
		dt = ceil(rem / wc->speed - 1e-6);
		if (dt > 0)
			t += (u64)dt;
	}
	return gs_max_u64(t, w->t_emu);
}

/*
 * The slice an idle CPU starts next and when: of its waiting slices whose task is ready (its
 * ready time known, its earlier slices done) the earliest ready, ties in traced order. Only a
 * task's first waiting slice on the CPU can qualify, so the scan stops once every task with
 * waiting slices here has been seen.
 */
static u64 choose_start(struct work *w, struct wcpu *wc, u32 *pos)
{
	u64 best_r = NO_TIME, stamp = ++w->stamp;
	int seen = 0;

	for (size_t i = 0; i < wc->q.len && seen < wc->nr_qtasks; i++) {
		struct slice *sl = slice_at(w, *work_q_at(&wc->q, i));
		struct wtask *tk = sl->tk;
		u64 r;

		if (tk->stamp == stamp)
			continue;
		tk->stamp = stamp;
		seen++;
		if (tk->running || tk->next_start != sl->seq || sl->ready_ns == NO_TIME)
			continue;
		r = gs_max_u64(sl->ready_ns + sl->gap_ns, tk->last_end);
		if (r < best_r) {
			best_r = r;
			*pos = (u32)i;
		}
	}
	if (best_r == NO_TIME)
		return NO_TIME;
	return gs_max_u64(gs_max_u64(wc->free_at, best_r), w->t_emu);
}

/* Bring a CPU's cached next item up to date (inline: the scan's and emu_end()'s hot step). */
static inline __attribute__((always_inline)) void update_next_item(struct work *w,
								    struct wcpu *wc)
{
	u64 item = NO_TIME, bound = NO_TIME;

	if (!(w->stale & 1ull << wc->id))
		return;
	w->stale &= ~(1ull << wc->id);
	if (wc->cur != NO_INDEX) {
		struct slice *sl = slice_at(w, wc->cur);
		u64 t_end = time_at(w, wc, sl->work);
		if (sl->complete) {
			item = t_end;
			wc->kind = ITEM_END;
		} else {
			bound = t_end;
		}
		if (sl->wp_head != NO_INDEX) {
			u64 t = time_at(w, wc, w->wp[sl->wp_head].offset);
			if (t <= item) { /* a wakeup before the switch-out at one instant */
				item = t;
				wc->kind = ITEM_WAKE;
			}
		}
	} else if (wc->q.len) {
		item = choose_start(w, wc, &wc->cand_pos);
		wc->kind = ITEM_START;
	}
	if (w->item_t[w->tree_n + wc->id] == item && w->bound_t[w->tree_n + wc->id] == bound)
		return; /* the tree holds it already */
	w->item_t[w->tree_n + wc->id] = item;
	w->bound_t[w->tree_n + wc->id] = bound;
	w->tree_dirty |= 1ull << wc->id;
}

/* A slice of tk started or ended: the CPUs where it waits may start something else. */
static void task_changed(struct work *w, const struct wtask *tk)
{
	for (u64 m = tk->qmask; m; m &= m - 1)
		invalidate(w, &w->cpu[__builtin_ctzll(m)]);
}

/* A zeroed event (migrate_running()'s), copied: GCC makes a memset() of it a `rep stos`. */
static const struct event no_event;

/* The sched_switch the emulation makes at t, in w->sw_ev: zeroed once (work_new()), every switch
 * writing the same fields, each is as if made from a zeroed event. Valid until the next one. */
static const struct event *make_switch(struct work *w, int cpu, u64 t, s32 prev_pid,
				       const char *prev_comm, s32 prev_prio, u32 prev_state,
				       s32 next_pid, const char *next_comm, s32 next_prio)
{
	struct event *ev = &w->sw_ev;

	ev->type = EV_SWITCH;
	ev->ts_ns = t;
	ev->cpu = cpu;
	ev->pid = prev_pid;
	ev->sw.prev_pid = prev_pid;
	memcpy(ev->sw.prev_comm, prev_comm, TASK_COMM_LEN); /* NUL-terminated within 16 */
	ev->sw.prev_prio = prev_prio;
	ev->sw.prev_state = prev_state;
	ev->sw.next_pid = next_pid;
	memcpy(ev->sw.next_comm, next_comm, TASK_COMM_LEN);
	ev->sw.next_prio = next_prio;
	return ev;
}

/* Take the waiting slice at position pos of CPU c as its running one, at t. */
static u32 take_waiting_slice(struct work *w, struct wcpu *wc, u32 pos, u64 t)
{
	u32 idx = *work_q_at(&wc->q, pos);
	struct slice *sl = slice_at(w, idx);
	struct wtask *tk = sl->tk;

	work_q_remove(&wc->q, pos);
	if (--tk->qcount[wc->id] == 0) {
		wc->nr_qtasks--;
		tk->qmask &= ~(1ull << wc->id);
	}
	wc->cur = idx;
	wc->done = 0;
	wc->last_progress = t;
	tk->running = true;
	tk->next_start++;
	if (sl->woken) {
		/* an activation begins: wakeup -> first run */
		tk->act_open = true;
		tk->act_external = sl->ext_woken;
		tk->act_wake_ns = sl->ready_ns;
		tk->act_measured = sl->ready_ns >= w->measure_from;
		if (tk->act_measured && t >= sl->ready_ns) {
			if (dist_add(&tk->latency, (s64)(t - sl->ready_ns)))
				return NO_INDEX;
			dist_note(&w->latency, (s64)(t - sl->ready_ns));
		}
	}
	task_changed(w, tk);
	invalidate(w, wc);
	return idx;
}

/* The running slice of an activation ended at t in a sleep: response and lateness. */
static int activation_end(struct work *w, struct wtask *tk, const struct slice *sl, u64 t)
{
	s64 late = (s64)t - (s64)sl->traced_end;

	if (!tk->act_open)
		return 0;
	tk->act_open = false;
	if (!tk->act_measured)
		return 0;
	if (tk->activations == 0)
		tk->late_first_ns = late;
	else if (late > tk->late_last_ns)
		tk->late_rises++;
	tk->late_last_ns = late;
	tk->ext_activations += tk->act_external;
	tk->activations++;
	w->activations++;
	if (dist_add(&tk->response, (s64)(t - tk->act_wake_ns)) || dist_add(&tk->lateness, late))
		return GS_ENOMEM;
	dist_note(&w->response, (s64)(t - tk->act_wake_ns));
	dist_note(&w->lateness, late);
	return 0;
}

/* The running slice of CPU c ends at t: the task goes, the next ready slice (or idle) comes. */
static int emu_end(struct work *w, int c, u64 t, struct gs_error *err)
{
	struct wcpu *wc = &w->cpu[c];
	u32 idx = wc->cur;
	struct slice done_sl = *slice_at(w, idx);
	struct wtask *tk = done_sl.tk;
	const struct event *ev;
	u64 tn;
	int ret;

	ret = w->host.advance_to(w->host.ctx, t, err);
	if (ret)
		return ret;
	wc->work_out += done_sl.work - done_sl.kwork;
	wc->kernel_out += done_sl.kwork;
	work_slice_release(w, idx);
	wc->cur = NO_INDEX;
	wc->done = 0;
	wc->free_at = t;
	w->t_end = gs_max_u64(w->t_end, t);
	tk->running = false;
	tk->last_end = t;
	task_changed(w, tk);
	invalidate(w, wc);
	if (t > done_sl.traced_end && t >= w->measure_from) {
		tk->delay_ns += t - done_sl.traced_end;
		tk->max_delay_ns = gs_max_u64(tk->max_delay_ns, t - done_sl.traced_end);
	}
	if (switch_prev_sleeps(done_sl.end_state) && activation_end(w, tk, &done_sl, t))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	/* its last slice, of a task that died: the scheduler model may free it now
	 * (work_task_exit(), from the sched_event() below) */
	w->dying = tk->dead && tk->next_start == tk->next_seq && !tk->qmask ? tk : NULL;

	/* Switch straight to the next slice if it can start now, else to idle. */
	update_next_item(w, wc);
	tn = w->item_t[w->tree_n + c];
	if (tn <= t) {
		u32 nx = take_waiting_slice(w, wc, wc->cand_pos, t);
		if (nx == NO_INDEX)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		ev = make_switch(w, c, t, done_sl.pid, done_sl.comm, done_sl.prio,
				 done_sl.end_state, slice_at(w, nx)->pid, slice_at(w, nx)->comm,
				 slice_at(w, nx)->prio);
	} else {
		ev = make_switch(w, c, t, done_sl.pid, done_sl.comm, done_sl.prio,
				 done_sl.end_state, 0, wc->idle_comm, 120);
	}
	ret = w->host.sched_event(w->host.ctx, ev, t, err);
	w->dying = NULL;
	return ret;
}

static int emu_start(struct work *w, int c, u64 t, struct gs_error *err)
{
	struct wcpu *wc = &w->cpu[c];
	u32 idx = take_waiting_slice(w, wc, wc->cand_pos, t);

	if (idx == NO_INDEX)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	return w->host.sched_event(w->host.ctx,
				   make_switch(w, c, t, 0, wc->idle_comm, 120, 0, slice_at(w, idx)->pid,
					       slice_at(w, idx)->comm, slice_at(w, idx)->prio),
				   t, err);
}

/* --placement: the task's waiting slices move to dst in slice-number order (choose_start
 * needs a task's slices in order in a queue), and the ones read later go there too. */
static int cmp_seq(const void *a, const void *b)
{
	u64 x = (*(struct slice *const *)a)->seq, y = (*(struct slice *const *)b)->seq;

	return (x > y) - (x < y);
}

static int move_task(struct work *w, struct wtask *tk, int dst)
{
	struct wcpu *dc = &w->cpu[dst];
	struct slice **v;
	size_t n = 0, k = 0;

	tk->placed = true;
	tk->placed_cpu = dst;
	if (!(tk->qmask & ~(1ull << dst)))
		return 0; /* nothing waits elsewhere: already in order */
	for (u64 m = tk->qmask; m; m &= m - 1)
		n += tk->qcount[__builtin_ctzll(m)];
	v = malloc(n * sizeof(*v));
	if (!v)
		return GS_ENOMEM;
	for (u64 m = tk->qmask; m; m &= m - 1) {
		struct wcpu *wc = &w->cpu[__builtin_ctzll(m)];

		for (size_t i = 0; i < wc->q.len;) {
			struct slice *sl = slice_at(w, *work_q_at(&wc->q, i));

			if (sl->tk != tk) {
				i++;
				continue;
			}
			v[k++] = sl;
			work_q_remove(&wc->q, i);
		}
		wc->nr_qtasks--;
		tk->qcount[wc->id] = 0;
		invalidate(w, wc);
	}
	tk->qmask = 0;
	if (!k) {
		free(v);
		return 0;
	}
	qsort(v, k, sizeof(*v), cmp_seq);
	for (size_t i = 0; i < k; i++) {
		if (work_q_push(&dc->q, (u32)(v[i] - w->sp))) {
			free(v);
			return GS_ENOMEM;
		}
		v[i]->cpu = dst;
	}
	free(v);
	tk->qcount[dst] = (u32)k;
	tk->qmask = 1ull << dst;
	dc->nr_qtasks++;
	invalidate(w, dc);
	return 0;
}

/* --placement: the host chooses the CPU of a workload task's wakeup replayed at t. */
static int place_wakeup(struct work *w, struct event *ev, int waker_cpu, u64 t)
{
	struct wtask *tk;
	int cpu;

	if (!w->host.place || (ev->type != EV_WAKEUP && ev->type != EV_WAKEUP_NEW) ||
	    !is_workload(ev->wake.pid, ev->wake.comm))
		return 0;
	cpu = w->host.place(w->host.ctx, ev, waker_cpu, t);
	if (cpu < 0 || cpu >= w->plat->nr_cpus)
		return 0;
	ev->wake.target_cpu = cpu;
	tk = work_task_get(w, ev->wake.pid, NULL);
	return tk ? move_task(w, tk, cpu) : GS_ENOMEM;
}

/* The running slice of CPU c reached its first wake point at t: replay the wakeup. */
static int emu_wake(struct work *w, int c, u64 t, struct gs_error *err)
{
	struct wcpu *wc = &w->cpu[c];
	struct slice *sl = slice_at(w, wc->cur);
	u32 i = sl->wp_head;
	struct wakept *wp = &w->wp[i];
	struct event ev = wp->ev;
	int ret;

	sl->wp_head = wp->next;
	if (sl->wp_head == NO_INDEX)
		sl->wp_tail = NO_INDEX;
	invalidate(w, wc);
	if (wp->wakee && wp->wakee->gen == wp->wakee_gen) {
		struct wtask *tk = wp->wakee;
		if (wp->wakee_slice != NO_INDEX) {
			struct slice *ws = slice_at(w, wp->wakee_slice);
			ws->ready_ns = t;
			invalidate(w, &w->cpu[ws->cpu]);
		} else {
			tk->early_valid = true;
			tk->early_seq = wp->wakee_seq;
			tk->early_ns = t;
		}
	}
	work_wp_release(w, i);
	ret = w->host.advance_to(w->host.ctx, t, err);
	if (ret)
		return ret;
	ev.ts_ns = t;
	if (place_wakeup(w, &ev, c, t))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	return w->host.sched_event(w->host.ctx, &ev, t, err);
}

/*
 * --placement: a misfit pull at t. The running slice of src moves, with the work it has done,
 * to the idle CPU dst and goes on there at dst's speed; src switches to idle (its next waiting
 * slice starts through the pump); the task's waiting slices follow it. The scheduler model
 * sees the kernel's sequence: a preemption on src, sched_migrate_task, a switch-in on dst.
 */
static int migrate_running(struct work *w, int src, int dst, u64 t, struct gs_error *err)
{
	struct wcpu *sc = &w->cpu[src], *dc = &w->cpu[dst];
	struct slice *sl;
	struct event ev;
	u32 idx = sc->cur;
	int ret;

	if (idx == NO_INDEX || dc->cur != NO_INDEX || src == dst)
		return 0;
	ret = w->host.advance_to(w->host.ctx, t, err);
	if (ret)
		return ret;
	sl = slice_at(w, idx);
	if (t > sc->last_progress)
		sc->done += (double)(t - sc->last_progress) * sc->speed;
	dc->cur = idx;
	dc->done = sc->done;
	dc->last_progress = t;
	sc->cur = NO_INDEX;
	sc->done = 0;
	sc->free_at = t;
	sl->cpu = dst;
	invalidate(w, sc);
	invalidate(w, dc);
	if (move_task(w, sl->tk, dst))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = w->host.sched_event(w->host.ctx,
				  make_switch(w, src, t, sl->pid, sl->comm, sl->prio, 0, 0,
					      sc->idle_comm, 120),
				  t, err);
	if (ret)
		return ret;
	memcpy(&ev, &no_event, sizeof(ev));
	ev.type = EV_MIGRATE;
	ev.ts_ns = t;
	ev.cpu = src;
	ev.migrate.pid = sl->pid;
	memcpy(ev.migrate.comm, sl->comm, TASK_COMM_LEN);
	ev.migrate.prio = sl->prio;
	ev.migrate.orig_cpu = src;
	ev.migrate.dest_cpu = dst;
	ret = w->host.sched_event(w->host.ctx, &ev, t, err);
	if (ret)
		return ret;
	return w->host.sched_event(w->host.ctx,
				   make_switch(w, dst, t, 0, dc->idle_comm, 120, 0, sl->pid, sl->comm,
					       sl->prio),
				   t, err);
}

/* Node i's children changed: its earliest item (the left one at a tie: the lower CPU) and bound,
 * and its ancestors', up to one found unchanged (another changed leaf climbs on its own). */
static void tree_up(struct work *w, u32 i)
{
	for (; i; i >>= 1) {
		u32 l = 2 * i, k = w->item_t[l + 1] < w->item_t[l] ? l + 1 : l;
		u64 b = gs_min_u64(w->bound_t[l], w->bound_t[l + 1]);

		if (w->item_t[i] == w->item_t[k] && w->item_cpu[i] == w->item_cpu[k] &&
		    w->bound_t[i] == b)
			return;
		w->item_t[i] = w->item_t[k];
		w->item_cpu[i] = w->item_cpu[k];
		w->bound_t[i] = b;
	}
}

/*
 * The CPUs' earliest next item (w->scan_t, of CPU w->scan_cpu, -1 none) and earliest bound
 * (w->scan_bound), each CPU's item brought up to date. The items change only in
 * update_next_item(), for a CPU invalidated since: with none invalidated, the last scan stands;
 * else the leaves it wrote climb the tree, whose root holds the answer (a CPU's item and bound
 * are compared with the CPUs' of its subtree only: a few nodes, not every CPU).
 */
static void scan_cpus(struct work *w)
{
	if (!w->scan_stale)
		return;
	w->scan_stale = false;
	for (u64 m = w->stale; m; m &= m - 1)
		update_next_item(w, &w->cpu[__builtin_ctzll(m)]);
	for (u64 m = w->tree_dirty; m; m &= m - 1)
		tree_up(w, (w->tree_n + (u32)__builtin_ctzll(m)) >> 1);
	w->tree_dirty = 0;
	w->scan_t = w->item_t[1];
	w->scan_cpu = w->scan_t == NO_TIME ? -1 : w->item_cpu[1];
	w->scan_bound = w->bound_t[1];
}

/*
 * The pump: process the earliest determinable item until none is, then wait for more trace.
 * A pass takes the minimum of the CPUs' next items (ties to the lowest CPU), the anchored
 * queue's head (first at a tie: a traced wakeup before a switch at one instant) and the loop's
 * own next item.
 */
static int work_pump(struct work *w, struct gs_error *err)
{
	for (;;) {
		enum work_item kind = ITEM_NONE;
		u64 best, bound, t;
		int who, ret, src, dst;

		if (w->host.take_pull && w->host.take_pull(w->host.ctx, &src, &dst)) {
			ret = migrate_running(w, src, dst, w->t_emu, err);
			if (ret)
				return ret;
		}
		scan_cpus(w);
		best = w->scan_t;
		who = w->scan_cpu;
		bound = w->scan_bound;
		if (who >= 0)
			kind = w->cpu[who].kind;
		if (w->aq_len && w->aq[w->aq_head].t <= best) {
			best = w->aq[w->aq_head].t;
			kind = ITEM_ANCHORED;
		}
		t = w->host.next_internal_ns(w->host.ctx);
		if (t < best && (best != NO_TIME || bound != NO_TIME)) {
			/* the loop's own work matters only while something is left to replay */
			best = t;
			kind = ITEM_INTERNAL;
		}
		if (best == NO_TIME)
			return 0;
		/* Nothing may be processed at or past an open slice's earliest end, nor past what the
		 * trace has shown so far (until it has ended). */
		if (best >= bound)
			return 0;
		if (!w->finishing && best > w->t_read)
			return 0;
		best = gs_max_u64(best, w->t_emu); /* a cached time never runs the clock back */
		w->t_emu = best;
		switch (kind) {
		case ITEM_END:
			ret = emu_end(w, who, best, err);
			break;
		case ITEM_START:
			ret = emu_start(w, who, best, err);
			break;
		case ITEM_INTERNAL:
			ret = w->host.advance_to(w->host.ctx, best, err);
			break;
		case ITEM_WAKE:
			ret = emu_wake(w, who, best, err);
			break;
		case ITEM_ANCHORED:
		default: {
			struct anchored a = w->aq[w->aq_head];
			w->aq_head = (w->aq_head + 1) & (w->aq_cap - 1);
			w->aq_len--;
			if (w->host.place) {
				ret = w->host.advance_to(w->host.ctx, a.t, err);
				if (!ret && place_wakeup(w, &a.ev, -1, a.t))
					ret = gs_error_set(err, GS_ENOMEM, "out of memory");
				if (ret)
					return ret;
			}
			ret = w->host.sched_event(w->host.ctx, &a.ev, a.t, err);
			break;
		}
		}
		if (ret)
			return ret;
	}
}

static bool work_left(const struct work *w)
{
	if (w->aq_len)
		return true;
	for (int c = 0; c < w->plat->nr_cpus; c++)
		if (w->cpu[c].cur != NO_INDEX || w->cpu[c].q.len)
			return true;
	return false;
}

int work_finish(struct work *w, struct gs_error *err)
{
	int ret;

	if (!w->started)
		return 0;
	for (int c = 0; c < w->plat->nr_cpus; c++)
		traced_slice_close(w, c, w->t_read, TASK_STATE_S);
	w->finishing = true;
	ret = work_pump(w, err);
	if (ret)
		return ret;
	/* with every slice closed, the pump returns only when nothing is determinable; causes
	 * point back in traced order, so that means done: guard anyway */
	if (work_left(w))
		return gs_error_set(err, GS_EINTERNAL, "work timing stalled with slices left");
	return 0;
}
