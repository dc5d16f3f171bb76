/*
 * work.c - the work-conserving timing model; see work.h for the model.
 *
 * Two timelines meet here. The traced side follows the trace as it is read: per CPU, the slice
 * open on it (who runs since when, and the work done so far at the traced frequency). The
 * emulated side runs the CPUs' slice queues at the emulated frequencies and tells the replay
 * loop (sim.c) what happens when: synthesised sched_switch events at emulated times, and the
 * trace's wakeups and migrations at their trace times (wakeups stay anchored).
 *
 * Ordering. The pump processes, earliest first: the end of a running slice, the start of a
 * queued one, the loop's own work (ticks, frequency changes), and anchored trace events. It
 * may only process time t when nothing earlier can still appear: every anchored event at or
 * before the last trace time read is queued (the reader is time-ordered), and a running slice
 * whose traced end is not yet read ends no earlier than the work it has already shown.
 */
#include "sim/work.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/sim_internal.h"

#define NO_TIME UINT64_MAX

struct wtask;

struct slice {
	s32 pid;
	struct wtask *tk; /* its task's entry (entries never move) */
	char comm[TASK_COMM_LEN];
	s32 prio;
	u64 seq;          /* the task's slice number, in traced order */
	u64 ready_ns;     /* traced time the task was runnable for this slice */
	u64 traced_end;   /* valid when complete */
	double work;      /* capacity-invariant ns; grows while the traced slice is open */
	bool complete;    /* its traced switch-out was read */
	u32 end_state;    /* prev_state of that switch-out */
};

struct slice_queue {
	struct slice *v;
	size_t head, len, cap; /* ring; cap is 0 or a power of two */
};

struct wcpu {
	int id;            /* its index in work.cpu */
	struct slice_queue q;
	double capacity;   /* arch_scale_cpu_capacity / 1024 */
	u32 max_khz;
	/* traced side */
	bool tr_open;      /* the queue's tail slice is open on the traced side */
	u64 tr_last_ns;    /* work accounted up to here */
	u32 tr_khz;
	/* emulated side */
	bool running;      /* the queue head is executing */
	double done;       /* work done of the head */
	u64 last_progress;
	double speed;      /* work per emulated ns */
	u64 free_at;       /* when the CPU became free */
	bool start_valid;  /* start_cache holds start_time() until an input of it changes */
	u64 start_cache;
	bool end_valid;    /* end_cache holds running_end() until the CPU's state changes */
	bool end_known;
	u64 end_cache;
	s32 cur_pid;       /* 0 = idle */
	char idle_comm[TASK_COMM_LEN]; /* "swapper/N" */
	char cur_comm[TASK_COMM_LEN];
	s32 cur_prio;
	double work_in, work_out;
};

struct wtask {
	s32 pid;           /* 0 = empty slot (pid 0 never has slices) */
	u64 next_seq;      /* the next slice number to hand out (traced side) */
	u64 next_start;    /* the slice number that may start next (emulated side) */
	bool running;      /* a slice of it is executing */
	u64 last_end;      /* emulated end of its last slice */
	bool tr_ready;     /* traced side: runnable since tr_ready_ns (woken or preempted) */
	u64 tr_ready_ns;
	u64 head_mask;     /* the CPUs whose head slice is one of its slices */
};

#define WTASK_CHUNK 256

struct anchored {
	struct event ev;
	u64 t;
};

struct work {
	struct sim *sim;
	const struct platform *plat;
	struct wcpu cpu[GS_MAX_CPUS];
	struct wtask **tasks; /* open addressing by pid, power-of-two size */
	size_t tasks_cap, tasks_used;
	struct wtask **chunks; /* the entries, WTASK_CHUNK per chunk */
	size_t nr_chunks;
	struct anchored *aq;
	size_t aq_head, aq_len, aq_cap; /* ring; aq_cap is 0 or a power of two */
	u64 t_read;        /* the last trace time read */
	u64 t_first;
	bool started;
	bool finishing;
	/*
	 * The pump's per-CPU index: next_t[c] is CPU c's next determinable item (the known end of
	 * its running slice, or the start of its head slice), bound_t[c] the earliest end of a
	 * running slice whose traced end is not read yet; NO_TIME where none. A CPU's entries are
	 * refreshed from its caches only when its bit in `dirty` says an input changed.
	 */
	u64 dirty;
	u64 next_t[GS_MAX_CPUS];
	u64 bound_t[GS_MAX_CPUS];
};

/* An input of the CPU's running_end() changed (its slice's work, its speed, its state). */
static inline void end_changed(struct work *w, struct wcpu *wc)
{
	wc->end_valid = false;
	w->dirty |= 1ull << wc->id;
}

/* An input of the CPU's start_time() changed (its head slice, its head task, free_at). */
static inline void start_changed(struct work *w, struct wcpu *wc)
{
	wc->start_valid = false;
	w->dirty |= 1ull << wc->id;
}

/* ---- small containers ----------------------------------------------------------------------- */

static struct slice *q_at(struct slice_queue *q, size_t i)
{
	return &q->v[(q->head + i) & (q->cap - 1)];
}

static struct slice *q_push(struct slice_queue *q)
{
	if (q->len == q->cap) {
		size_t n = q->cap ? q->cap * 2 : 16;
		struct slice *v = malloc(n * sizeof(*v));
		if (!v)
			return NULL;
		for (size_t i = 0; i < q->len; i++)
			v[i] = *q_at(q, i);
		free(q->v);
		q->v = v;
		q->head = 0;
		q->cap = n;
	}
	q->len++;
	return q_at(q, q->len - 1);
}

static void q_pop(struct slice_queue *q)
{
	q->head = (q->head + 1) & (q->cap - 1);
	q->len--;
}

static struct wtask *task_lookup(struct work *w, s32 pid, size_t *slot)
{
	size_t mask = w->tasks_cap - 1, i;

	if (!w->tasks_cap)
		return NULL;
	for (i = (size_t)(u32)pid & mask; w->tasks[i]; i = (i + 1) & mask)
		if (w->tasks[i]->pid == pid)
			return w->tasks[i];
	*slot = i;
	return NULL;
}

/* The task's entry, created if new. Entries never move (slices keep pointers to them). */
static struct wtask *task_get(struct work *w, s32 pid)
{
	struct wtask *tk;
	size_t slot = 0;

	tk = task_lookup(w, pid, &slot);
	if (tk)
		return tk;
	if ((w->tasks_used + 1) * 2 > w->tasks_cap) {
		size_t ncap = w->tasks_cap ? w->tasks_cap * 2 : 256;
		struct wtask **nt = calloc(ncap, sizeof(*nt));
		struct wtask **old = w->tasks;
		size_t ocap = w->tasks_cap;
		if (!nt)
			return NULL;
		w->tasks = nt;
		w->tasks_cap = ncap;
		for (size_t k = 0; k < ocap; k++) {
			if (!old[k])
				continue;
			task_lookup(w, old[k]->pid, &slot);
			nt[slot] = old[k];
		}
		free(old);
		task_lookup(w, pid, &slot);
	}
	if (w->tasks_used == w->nr_chunks * WTASK_CHUNK) {
		struct wtask **c = realloc(w->chunks, (w->nr_chunks + 1) * sizeof(*c));
		if (!c)
			return NULL;
		w->chunks = c;
		c[w->nr_chunks] = calloc(WTASK_CHUNK, sizeof(struct wtask));
		if (!c[w->nr_chunks])
			return NULL;
		w->nr_chunks++;
	}
	tk = &w->chunks[w->tasks_used / WTASK_CHUNK][w->tasks_used % WTASK_CHUNK];
	tk->pid = pid;
	w->tasks[slot] = tk;
	w->tasks_used++;
	return tk;
}

static int aq_push(struct work *w, const struct event *ev, u64 t)
{
	if (w->aq_len == w->aq_cap) {
		size_t n = w->aq_cap ? w->aq_cap * 2 : 64;
		struct anchored *v = malloc(n * sizeof(*v));
		if (!v)
			return GS_ENOMEM;
		for (size_t i = 0; i < w->aq_len; i++)
			v[i] = w->aq[(w->aq_head + i) & (w->aq_cap - 1)];
		free(w->aq);
		w->aq = v;
		w->aq_head = 0;
		w->aq_cap = n;
	}
	w->aq[(w->aq_head + w->aq_len) & (w->aq_cap - 1)] = (struct anchored){*ev, t};
	w->aq_len++;
	return 0;
}

/* ---- set-up --------------------------------------------------------------------------------- */

int work_new(struct sim *s, const struct platform *plat, struct work **out, struct gs_error *err)
{
	struct work *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	w->sim = s;
	w->plat = plat;
	for (int c = 0; c < GS_MAX_CPUS; c++) {
		w->cpu[c].id = c;
		w->next_t[c] = NO_TIME;
		w->bound_t[c] = NO_TIME;
	}
	for (int c = 0; c < plat->nr_cpus; c++) {
		struct wcpu *wc = &w->cpu[c];
		const struct plat_cluster *pc = platform_cluster_of(plat, c);
		wc->capacity = (double)plat->cpus[c].capacity / SCHED_CAPACITY_SCALE;
		wc->max_khz = plat_cluster_max_khz(pc);
		wc->tr_khz = wc->max_khz;
		snprintf(wc->idle_comm, sizeof(wc->idle_comm), "swapper/%u", (unsigned)c % 1000u);
		wc->speed = wc->capacity * sim_cluster_khz(s, plat->cpus[c].cluster) / wc->max_khz;
	}
	*out = w;
	return 0;
}

void work_free(struct work *w)
{
	if (!w)
		return;
	for (int c = 0; c < GS_MAX_CPUS; c++)
		free(w->cpu[c].q.v);
	free(w->tasks);
	for (size_t i = 0; i < w->nr_chunks; i++)
		free(w->chunks[i]);
	free(w->chunks);
	free(w->aq);
	free(w);
}

void work_totals(const struct work *w, int cpu, double *in, double *out)
{
	*in = w->cpu[cpu].work_in;
	*out = w->cpu[cpu].work_out;
}

/* ---- traced side ---------------------------------------------------------------------------- */

/* Bring the open traced slice's work up to trace time t at the traced frequency. */
static void tr_accumulate(struct work *w, struct wcpu *wc, u64 t)
{
	struct slice *sl;
	double add;

	if (!wc->tr_open || t <= wc->tr_last_ns) {
		if (t > wc->tr_last_ns)
			wc->tr_last_ns = t;
		return;
	}
	sl = q_at(&wc->q, wc->q.len - 1);
	add = (double)(t - wc->tr_last_ns) * wc->capacity * wc->tr_khz / wc->max_khz;
	end_changed(w, wc);
	sl->work += add;
	wc->work_in += add;
	wc->tr_last_ns = t;
}

void work_traced_freq(struct work *w, int cpu, u32 khz, u64 t)
{
	struct wcpu *wc = &w->cpu[cpu];
	if (!w->started) {
		wc->tr_khz = khz;
		return;
	}
	tr_accumulate(w, wc, t);
	wc->tr_khz = khz;
}

static bool is_workload(s32 pid, const char *comm)
{
	return pid != 0 && !(comm[0] == 's' && strncmp(comm, "sugov:", 6) == 0);
}

static int tr_close(struct work *w, int cpu, u64 t, u32 state)
{
	struct wcpu *wc = &w->cpu[cpu];
	struct slice *sl;

	if (!wc->tr_open)
		return 0;
	tr_accumulate(w, wc, t);
	sl = q_at(&wc->q, wc->q.len - 1);
	sl->complete = true;
	sl->traced_end = t;
	sl->end_state = state;
	wc->tr_open = false;
	end_changed(w, wc);
	if (!switch_prev_sleeps(state)) {
		sl->tk->tr_ready = true;
		sl->tk->tr_ready_ns = t;
	}
	return 0;
}

static int tr_open(struct work *w, int cpu, s32 pid, const char *comm, s32 prio, u64 ready, u64 t)
{
	struct wcpu *wc = &w->cpu[cpu];
	struct wtask *tk = task_get(w, pid);
	struct slice *sl;

	if (!tk)
		return GS_ENOMEM;
	sl = q_push(&wc->q);
	if (!sl)
		return GS_ENOMEM;
	if (wc->q.len == 1) {
		start_changed(w, wc); /* a new head */
		tk->head_mask |= 1ull << wc->id;
	}
	memset(sl, 0, sizeof(*sl));
	sl->pid = pid;
	sl->tk = tk;
	memcpy(sl->comm, comm, TASK_COMM_LEN); /* an event's comm: 16 bytes, NUL-terminated */
	sl->prio = prio;
	sl->seq = tk->next_seq++;
	/* ready since its wakeup or its preemption in the trace, if seen; else since now */
	sl->ready_ns = tk->tr_ready && tk->tr_ready_ns <= ready ? tk->tr_ready_ns : ready;
	tk->tr_ready = false;
	wc->tr_open = true;
	wc->tr_last_ns = t;
	return 0;
}

int work_feed(struct work *w, const struct event *ev, struct gs_error *err);
static int work_pump(struct work *w, struct gs_error *err);

int work_feed(struct work *w, const struct event *ev, struct gs_error *err)
{
	int ret = 0;

	if (!w->started) {
		w->started = true;
		w->t_first = ev->ts_ns;
		for (int c = 0; c < w->plat->nr_cpus; c++)
			w->cpu[c].free_at = ev->ts_ns;
	}
	if (ev->ts_ns > w->t_read)
		w->t_read = ev->ts_ns;

	switch (ev->type) {
	case EV_SWITCH: {
		int cpu = ev->cpu;
		struct wcpu *wc = &w->cpu[cpu];
		bool prev_work = is_workload(ev->sw.prev_pid, ev->sw.prev_comm);

		if (prev_work && !wc->tr_open && wc->q.len == 0 && wc->work_in == 0) {
			/* Its first event is a switch-out: it ran since the CPU's first event. */
			ret = tr_open(w, cpu, ev->sw.prev_pid, ev->sw.prev_comm, ev->sw.prev_prio,
				      w->t_first, w->t_first);
		}
		if (!ret)
			ret = tr_close(w, cpu, ev->ts_ns, ev->sw.prev_state);
		if (!ret && is_workload(ev->sw.next_pid, ev->sw.next_comm))
			ret = tr_open(w, cpu, ev->sw.next_pid, ev->sw.next_comm, ev->sw.next_prio,
				      ev->ts_ns, ev->ts_ns);
		break;
	}
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		if (is_workload(ev->wake.pid, ev->wake.comm)) {
			struct wtask *tk = task_get(w, ev->wake.pid);
			if (!tk) {
				ret = GS_ENOMEM;
				break;
			}
			if (!tk->tr_ready) {
				tk->tr_ready = true;
				tk->tr_ready_ns = ev->ts_ns;
			}
			ret = aq_push(w, ev, ev->ts_ns);
		}
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
	u32 khz = sim_cluster_khz(w->sim, cluster);

	for (int i = 0; i < pc->nr_cpus; i++) {
		struct wcpu *wc = &w->cpu[pc->cpus[i]];
		if (wc->running && now > wc->last_progress) {
			wc->done += (double)(now - wc->last_progress) * wc->speed;
			wc->last_progress = now;
		}
		wc->speed = wc->capacity * khz / wc->max_khz;
		end_changed(w, wc);
	}
}

/* The emulated end of the running head slice; *known is false while its work may still grow. */
static u64 running_end(struct wcpu *wc, bool *known)
{
	struct slice *sl;
	double rem, dt;

	if (wc->end_valid) {
		*known = wc->end_known;
		return wc->end_cache;
	}
	sl = q_at(&wc->q, 0);
	rem = sl->work - wc->done;
	wc->end_known = *known = sl->complete;
	wc->end_valid = true;
	if (rem <= 0)
		return wc->end_cache = wc->last_progress;
	dt = ceil(rem / wc->speed - 1e-6);
	if (dt < 0)
		dt = 0;
	return wc->end_cache = wc->last_progress + (u64)dt;
}

/* When the head slice of an idle CPU can start, or NO_TIME. */
static u64 start_time_compute(struct work *w, struct wcpu *wc)
{
	struct slice *sl;
	struct wtask *tk;
	u64 t;

	if (wc->running || wc->q.len == 0)
		return NO_TIME;
	sl = q_at(&wc->q, 0);
	tk = sl->tk;
	if (tk->running || tk->next_start != sl->seq)
		return NO_TIME;
	t = gs_max_u64(wc->free_at, sl->ready_ns);
	return gs_max_u64(t, tk->last_end);
}

/* start_time_compute(), cached. Its inputs: the CPU's running flag, head slice and free_at
 * (emu_end() and tr_open() drop the cache), and the head task's running, next_start and
 * last_end (task_changed() drops the cache of every CPU whose head slice is that task's). */
static u64 start_time(struct work *w, struct wcpu *wc)
{
	if (!wc->start_valid) {
		wc->start_cache = start_time_compute(w, wc);
		wc->start_valid = true;
	}
	return wc->start_cache;
}

/* A slice of tk started or ended: the start times of the CPUs it heads may have changed. */
static void task_changed(struct work *w, const struct wtask *tk)
{
	u64 m = tk->head_mask;

	w->dirty |= m;
	for (; m; m &= m - 1)
		w->cpu[__builtin_ctzll(m)].start_valid = false;
}

static void make_switch(struct event *ev, int cpu, u64 t, s32 prev_pid, const char *prev_comm,
			s32 prev_prio, u32 prev_state, s32 next_pid, const char *next_comm,
			s32 next_prio)
{
	memset(ev, 0, sizeof(*ev));
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
}

/* The head slice of CPU c ends at t: the task goes, the next ready slice (or idle) comes. */
static int emu_end(struct work *w, int c, u64 t, struct gs_error *err)
{
	struct wcpu *wc = &w->cpu[c];
	struct slice done_sl = *q_at(&wc->q, 0);
	struct wtask *tk = done_sl.tk;
	struct event ev;
	u64 tn;
	struct task *p;
	int ret;

	ret = sim_advance_to(w->sim, t, err);
	if (ret)
		return ret;
	wc->work_out += done_sl.work;
	q_pop(&wc->q);
	tk->head_mask &= ~(1ull << c);
	if (wc->q.len)
		q_at(&wc->q, 0)->tk->head_mask |= 1ull << c;
	wc->running = false;
	end_changed(w, wc);
	start_changed(w, wc);
	wc->done = 0;
	wc->free_at = t;
	tk->running = false;
	tk->last_end = t;
	task_changed(w, tk);

	/* Switch straight to the next slice if it can start now, else to idle. */
	tn = start_time(w, wc);
	if (tn <= t) {
		struct slice *nx = q_at(&wc->q, 0);
		struct wtask *nt = nx->tk;
		make_switch(&ev, c, t, done_sl.pid, done_sl.comm, done_sl.prio, done_sl.end_state,
			    nx->pid, nx->comm, nx->prio);
		wc->running = true;
		wc->last_progress = t;
		wc->cur_pid = nx->pid;
		nt->running = true;
		nt->next_start++;
		task_changed(w, nt);
	} else {
		make_switch(&ev, c, t, done_sl.pid, done_sl.comm, done_sl.prio, done_sl.end_state, 0,
			    wc->idle_comm, 120);
		wc->cur_pid = 0;
	}
	ret = sim_sched_event(w->sim, &ev, t, err);
	if (ret)
		return ret;
	p = sched_task_find(sim_sched(w->sim), done_sl.pid);
	if (p && t > done_sl.traced_end)
		sim_task_delay(w->sim, p, t - done_sl.traced_end);
	return 0;
}

static int emu_start(struct work *w, int c, u64 t, struct gs_error *err)
{
	struct wcpu *wc = &w->cpu[c];
	struct slice *sl = q_at(&wc->q, 0);
	struct wtask *tk = sl->tk;
	struct event ev;

	make_switch(&ev, c, t, 0, wc->idle_comm, 120, 0, sl->pid, sl->comm, sl->prio);
	wc->running = true;
	end_changed(w, wc);
	wc->done = 0;
	wc->last_progress = t;
	wc->cur_pid = sl->pid;
	tk->running = true;
	tk->next_start++;
	task_changed(w, tk);
	return sim_sched_event(w->sim, &ev, t, err);
}

/* Bring the pump's index entries of the CPUs marked dirty up to date. */
static void refresh_dirty(struct work *w)
{
	while (w->dirty) {
		int c = __builtin_ctzll(w->dirty);
		struct wcpu *wc = &w->cpu[c];

		w->dirty &= w->dirty - 1;
		if (wc->running) {
			bool known;
			u64 t = running_end(wc, &known);
			w->next_t[c] = known ? t : NO_TIME;
			w->bound_t[c] = known ? NO_TIME : t;
		} else {
			w->next_t[c] = start_time(w, wc);
			w->bound_t[c] = NO_TIME;
		}
	}
}

/*
 * The pump: process the earliest determinable item until none is, then wait for more trace.
 * A pass takes the minimum of the CPUs' index entries (refreshed only where an input changed,
 * ties to the lowest CPU), the anchored queue's head and the loop's own next item.
 */
static int work_pump(struct work *w, struct gs_error *err)
{
	for (;;) {
		u64 best = NO_TIME, bound = NO_TIME;
		int kind = -1, who = -1; /* 0 end, 1 start, 2 internal, 3 anchored */
		u64 t;
		int ret;

		refresh_dirty(w);
		for (int c = 0; c < w->plat->nr_cpus; c++) {
			t = w->next_t[c];
			if (t < best) {
				best = t;
				who = c;
			}
			bound = gs_min_u64(bound, w->bound_t[c]);
		}
		if (who >= 0)
			kind = w->cpu[who].running ? 0 : 1;
		if (w->aq_len && w->aq[w->aq_head].t < best) {
			best = w->aq[w->aq_head].t;
			kind = 3;
		}
		t = sim_next_internal_ns(w->sim);
		if (t < best && (best != NO_TIME || bound != NO_TIME)) {
			/* the loop's own work matters only while something is left to replay */
			best = t;
			kind = 2;
		}
		if (best == NO_TIME)
			return 0;
		/* Nothing may be processed at or past an open slice's earliest end, nor past what the
		 * trace has shown so far (until it has ended). */
		if (best >= bound)
			return 0;
		if (!w->finishing && best > w->t_read)
			return 0;
		switch (kind) {
		case 0:
			ret = emu_end(w, who, best, err);
			break;
		case 1:
			ret = emu_start(w, who, best, err);
			break;
		case 2:
			ret = sim_advance_to(w->sim, best, err);
			break;
		default: {
			struct anchored a = w->aq[w->aq_head];
			w->aq_head = (w->aq_head + 1) & (w->aq_cap - 1);
			w->aq_len--;
			ret = sim_sched_event(w->sim, &a.ev, a.t, err);
			break;
		}
		}
		if (ret)
			return ret;
	}
}

int work_finish(struct work *w, struct gs_error *err)
{
	if (!w->started)
		return 0;
	for (int c = 0; c < w->plat->nr_cpus; c++)
		tr_close(w, c, w->t_read, TASK_STATE_S);
	w->finishing = true;
	for (;;) {
		bool left = w->aq_len > 0;
		int ret;
		for (int c = 0; c < w->plat->nr_cpus && !left; c++)
			left = w->cpu[c].running || w->cpu[c].q.len;
		if (!left)
			return 0;
		ret = work_pump(w, err);
		if (ret)
			return ret;
		/* pump returns with work left only if a slice cannot start: a task whose earlier
		 * slice is queued behind another on a different CPU cannot deadlock, because slices
		 * are queued in traced order; guard anyway */
		left = w->aq_len > 0;
		for (int c = 0; c < w->plat->nr_cpus && !left; c++)
			left = w->cpu[c].running || w->cpu[c].q.len;
		if (left && sim_next_internal_ns(w->sim) == NO_TIME) {
			bool any_start = false;
			for (int c = 0; c < w->plat->nr_cpus; c++)
				if (w->cpu[c].running || start_time(w, &w->cpu[c]) != NO_TIME)
					any_start = true;
			if (!any_start && w->aq_len == 0)
				return gs_error_set(err, GS_EINTERNAL,
						    "work timing stalled with slices left");
		}
	}
}
