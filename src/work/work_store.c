/*
 * work_store.c - the storage of the work timing layer (work_priv.h): pools with stable indices
 * for slices and wake points, the per-CPU rings of waiting slices, the task table, the ring of
 * anchored trace events; and the layer's set-up and results.
 */
#include "work/work_priv.h"

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pools and containers ------------------------------------------------------------------- */

static const struct slice no_slice;

u32 work_slice_alloc(struct work *w)
{
	u32 i;

	if (w->sp_free == NO_INDEX) {
		u32 n = w->sp_cap ? w->sp_cap * 2 : 256;
		struct slice *v = realloc(w->sp, (size_t)n * sizeof(*v));
		if (!v || n <= w->sp_cap)
			return NO_INDEX;
		w->sp = v;
		for (u32 k = w->sp_cap; k < n; k++)
			v[k].next_free = k + 1 < n ? k + 1 : NO_INDEX;
		w->sp_free = w->sp_cap;
		w->sp_cap = n;
	}
	i = w->sp_free;
	w->sp_free = w->sp[i].next_free;
	memcpy(&w->sp[i], &no_slice, sizeof(w->sp[i])); /* not memset(): work.c make_switch() */
	w->sp[i].wp_head = w->sp[i].wp_tail = NO_INDEX;
	return i;
}

void work_slice_release(struct work *w, u32 i)
{
	w->sp[i].next_free = w->sp_free;
	w->sp_free = i;
}

u32 work_wp_alloc(struct work *w)
{
	u32 i;

	if (w->wp_free == NO_INDEX) {
		u32 n = w->wp_cap ? w->wp_cap * 2 : 64;
		struct wakept *v = realloc(w->wp, (size_t)n * sizeof(*v));
		if (!v || n <= w->wp_cap)
			return NO_INDEX;
		w->wp = v;
		for (u32 k = w->wp_cap; k < n; k++) {
			v[k].next = k + 1 < n ? k + 1 : NO_INDEX;
			v[k].gen = 0;
			v[k].live = false;
		}
		w->wp_free = w->wp_cap;
		w->wp_cap = n;
	}
	i = w->wp_free;
	w->wp_free = w->wp[i].next;
	w->wp[i].live = true;
	w->wp[i].next = NO_INDEX;
	w->wp[i].wakee = NULL;
	w->wp[i].wakee_slice = NO_INDEX;
	return i;
}

void work_wp_release(struct work *w, u32 i)
{
	w->wp[i].live = false;
	w->wp[i].gen++;
	w->wp[i].next = w->wp_free;
	w->wp_free = i;
}

struct wakept *work_wp_get(struct work *w, struct handle h)
{
	if (h.idx == NO_INDEX || h.idx >= w->wp_cap || !w->wp[h.idx].live || w->wp[h.idx].gen != h.gen)
		return NULL;
	return &w->wp[h.idx];
}

u32 *work_q_at(struct slice_queue *q, size_t i)
{
	return &q->v[(q->head + i) & (q->cap - 1)];
}

int work_q_push(struct slice_queue *q, u32 idx)
{
	if (q->len == q->cap) {
		size_t n = q->cap ? q->cap * 2 : 16;
		u32 *v = malloc(n * sizeof(*v));
		if (!v)
			return GS_ENOMEM;
		for (size_t i = 0; i < q->len; i++)
			v[i] = *work_q_at(q, i);
		free(q->v);
		q->v = v;
		q->head = 0;
		q->cap = n;
	}
	q->len++;
	*work_q_at(q, q->len - 1) = idx;
	return 0;
}

/* Take out the slice at position pos, keeping the others' order. */
void work_q_remove(struct slice_queue *q, size_t pos)
{
	for (size_t i = pos; i > 0; i--)
		*work_q_at(q, i) = *work_q_at(q, i - 1);
	q->head = (q->head + 1) & (q->cap - 1);
	q->len--;
}

struct wtask *work_task_find(const struct work *w, s32 pid)
{
	return pid_table_find(&w->tasks, pid);
}

/* Entries never move (slices keep pointers to them); a dead task's is reused once nothing
 * points to it (work_task_exit()). */
struct wtask *work_task_new(struct work *w, s32 pid, const char *comm)
{
	struct wtask *tk;
	u32 gen;

	if (pid_table_reserve(&w->tasks) < 0)
		return NULL;
	if (w->free_tasks) {
		tk = w->free_tasks;
		w->free_tasks = tk->next_free;
	} else {
		if (w->entries == w->nr_chunks * WTASK_CHUNK) {
			struct wtask **c = realloc(w->chunks, (w->nr_chunks + 1) * sizeof(*c));
			if (!c)
				return NULL;
			w->chunks = c;
			c[w->nr_chunks] = calloc(WTASK_CHUNK, sizeof(struct wtask));
			if (!c[w->nr_chunks])
				return NULL;
			w->nr_chunks++;
		}
		tk = &w->chunks[w->entries / WTASK_CHUNK][w->entries % WTASK_CHUNK];
		w->entries++;
	}
	gen = tk->gen;
	memset(tk, 0, sizeof(*tk));
	tk->gen = gen;
	tk->pid = pid;
	tk->born = w->born++;
	tk->cause_wp.idx = tk->waking_wp.idx = NO_INDEX;
	dist_init(&tk->latency);
	dist_init(&tk->response);
	dist_init(&tk->lateness);
	pid_table_add(&w->tasks, pid, tk);
	if (++w->live_tasks > w->peak_tasks)
		w->peak_tasks = w->live_tasks;
	if (comm)
		memcpy(tk->comm, comm, TASK_COMM_LEN); /* an event's comm: NUL-terminated in 16 */
	return tk;
}

void work_task_detach(struct work *w, struct wtask *tk)
{
	if (tk->dead)
		return;
	tk->dead = true;
	if (pid_table_find(&w->tasks, tk->pid) == tk)
		pid_table_remove(&w->tasks, tk->pid);
}

int work_aq_push(struct work *w, const struct event *ev, u64 t)
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

int work_new(const struct work_host *host, const struct platform *plat, u64 warmup_ns,
	     struct work **out, struct gs_error *err)
{
	struct work *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	w->host = *host;
	w->plat = plat;
	w->sp_free = w->wp_free = NO_INDEX;
	pid_table_init(&w->tasks, 256);
	w->warmup_ns = warmup_ns;
	/* every CPU's cache starts out of date; the tree holds no item and no bound */
	w->stale = plat->nr_cpus >= 64 ? ~0ull : (1ull << plat->nr_cpus) - 1;
	for (w->tree_n = 1; w->tree_n < (u32)plat->nr_cpus; w->tree_n <<= 1)
		;
	for (u32 i = 2 * w->tree_n - 1; i >= 1; i--) {
		w->item_t[i] = NO_TIME;
		w->bound_t[i] = NO_TIME;
		w->item_cpu[i] = (uint8_t)(i >= w->tree_n ? i - w->tree_n : w->item_cpu[2 * i]);
	}
	w->scan_stale = true;
	dist_init(&w->latency);
	dist_init(&w->response);
	dist_init(&w->lateness);
	if (dist_alloc(&w->latency) || dist_alloc(&w->response) || dist_alloc(&w->lateness)) {
		work_free(w);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	for (int c = 0; c < GS_MAX_CPUS; c++) {
		w->cpu[c].id = c;
		w->cpu[c].cur = NO_INDEX;
		w->cpu[c].tr_slice = NO_INDEX;
	}
	for (int c = 0; c < plat->nr_cpus; c++) {
		struct wcpu *wc = &w->cpu[c];
		const struct plat_cluster *pc = platform_cluster_of(plat, c);
		wc->capacity = (double)plat->cpus[c].capacity / SCHED_CAPACITY_SCALE;
		wc->max_khz = plat_cluster_max_khz(pc);
		wc->tr_khz = wc->max_khz;
		snprintf(wc->idle_comm, sizeof(wc->idle_comm), "swapper/%u", (unsigned)c % 1000u);
		wc->speed = wc->capacity * host->cluster_khz(host->ctx, plat->cpus[c].cluster) /
			    wc->max_khz;
	}
	*out = w;
	return 0;
}

void work_set_kernel_work(struct work *w,
			  double (*fn)(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue))
{
	w->host.kernel_work = fn;
}

void work_free(struct work *w)
{
	if (!w)
		return;
	for (int c = 0; c < GS_MAX_CPUS; c++)
		free(w->cpu[c].q.v);
	pid_table_free(&w->tasks);
	for (size_t i = 0; i < w->nr_chunks; i++) {
		for (size_t k = 0; k < WTASK_CHUNK; k++) {
			dist_release(&w->chunks[i][k].latency);
			dist_release(&w->chunks[i][k].response);
			dist_release(&w->chunks[i][k].lateness);
		}
		free(w->chunks[i]);
	}
	free(w->chunks);
	free(w->gone);
	free(w->aq);
	free(w->sp);
	free(w->wp);
	dist_release(&w->latency);
	dist_release(&w->response);
	dist_release(&w->lateness);
	free(w);
}

void work_totals(const struct work *w, int cpu, double *in, double *out)
{
	*in = w->cpu[cpu].work_in;
	*out = w->cpu[cpu].work_out;
}

void work_kernel_totals(const struct work *w, int cpu, double *in, double *out)
{
	*in = w->cpu[cpu].kernel_in;
	*out = w->cpu[cpu].kernel_out;
}

u64 work_end_ns(const struct work *w)
{
	return w->t_end;
}

static void activity(const struct dist *lat, const struct dist *resp, const struct dist *late,
		     u64 n, struct run_activity *act)
{
	memset(act, 0, sizeof(*act));
	act->activations = n;
	dist_summary(lat, &act->latency);
	dist_summary(resp, &act->response);
	dist_summary(late, &act->lateness);
}

static void task_result(const struct wtask *tk, double *delay_s, double *max_delay_s,
			struct run_activity *act)
{
	*delay_s = (double)tk->delay_ns / (double)NSEC_PER_SEC;
	*max_delay_s = (double)tk->max_delay_ns / (double)NSEC_PER_SEC;
	activity(&tk->latency, &tk->response, &tk->lateness, tk->activations, act);
}

bool work_task_result(const struct work *w, s32 pid, double *delay_s, double *max_delay_s,
		      struct run_activity *act)
{
	const struct wtask *tk = work_task_find(w, pid);

	if (!tk)
		return false;
	task_result(tk, delay_s, max_delay_s, act);
	return true;
}

/* A task with a period to miss whose lateness grows: at least 90 % of its activations began
 * at a timer's or an interrupt's traced time (a task woken by other tasks' work, a pipe, only
 * runs later with them, however late its slices end), at least 10 of them, the lateness rose
 * 9 times in 10 and by more than 1 ms. */
static bool backlog_grows(const struct wtask *tk)
{
	return tk->activations >= 10 && tk->late_rises * 10 >= (tk->activations - 1) * 9 &&
	       tk->ext_activations * 10 >= tk->activations * 9 &&
	       tk->late_last_ns - tk->late_first_ns > (s64)NSEC_PER_MSEC;
}

bool work_task_exit(struct work *w, s32 pid, double *delay_s, double *max_delay_s,
		    struct run_activity *act)
{
	struct wtask *tk = w->dying;

	if (!tk || tk->pid != pid)
		return false;
	w->dying = NULL;
	task_result(tk, delay_s, max_delay_s, act);
	if (backlog_grows(tk)) {
		if (w->nr_gone == w->cap_gone) {
			size_t cap = w->cap_gone ? w->cap_gone * 2 : 8;
			void *v = realloc(w->gone, cap * sizeof(*w->gone));
			if (!v)
				return false; /* the entry stays: nothing is lost */
			w->gone = v;
			w->cap_gone = cap;
		}
		w->gone[w->nr_gone++] = (struct work_backlog){tk->born, tk->pid, {0},
							      tk->late_first_ns, tk->late_last_ns,
							      tk->activations};
		memcpy(w->gone[w->nr_gone - 1].comm, tk->comm, TASK_COMM_LEN);
	}
	dist_merge_hist(&w->latency, &tk->latency);
	dist_merge_hist(&w->response, &tk->response);
	dist_merge_hist(&w->lateness, &tk->lateness);
	dist_release(&tk->latency);
	dist_release(&tk->response);
	dist_release(&tk->lateness);
	tk->pid = 0; /* an empty entry to work_backlog_note() */
	tk->activations = 0;
	tk->gen++;   /* its wake points still pending no longer reach it */
	tk->next_free = w->free_tasks;
	w->free_tasks = tk;
	w->live_tasks--;
	return true;
}

u64 work_disagreements(const struct work *w)
{
	return w->disagreed;
}

u64 work_peak_tasks(const struct work *w)
{
	return w->peak_tasks;
}

static int cmp_born(const void *a, const void *b)
{
	u64 x = ((const struct work_backlog *)a)->born, y = ((const struct work_backlog *)b)->born;

	return (x > y) - (x < y);
}

int work_backlog_note(const struct work *w, struct strbuf *sb)
{
	struct work_backlog *v = NULL;
	size_t n = w->nr_gone, named = 0;

	for (size_t i = 0; i < w->entries; i++) {
		const struct wtask *tk = &w->chunks[i / WTASK_CHUNK][i % WTASK_CHUNK];
		n += tk->pid && backlog_grows(tk);
	}
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return GS_ENOMEM;
	if (w->nr_gone)
		memcpy(v, w->gone, w->nr_gone * sizeof(*v));
	n = w->nr_gone;
	for (size_t i = 0; i < w->entries; i++) {
		const struct wtask *tk = &w->chunks[i / WTASK_CHUNK][i % WTASK_CHUNK];
		if (!tk->pid || !backlog_grows(tk))
			continue;
		v[n] = (struct work_backlog){tk->born, tk->pid, {0}, tk->late_first_ns,
					     tk->late_last_ns, tk->activations};
		memcpy(v[n++].comm, tk->comm, TASK_COMM_LEN);
	}
	qsort(v, n, sizeof(*v), cmp_born); /* in the order the tasks appeared */
	strbuf_addf(sb, "timer-driven work does not fit its period at this speed (lateness "
			"grows): ");
	for (; named < n && named < 3; named++)
		strbuf_addf(sb, "%s%s %d: lateness %.6f s -> %.6f s over %llu activations",
			    named ? ", " : "", v[named].comm, v[named].pid,
			    (double)v[named].late_first_ns / 1e9, (double)v[named].late_last_ns / 1e9,
			    (unsigned long long)v[named].activations);
	if (n > named)
		strbuf_addf(sb, " and %zu more", n - named);
	free(v);
	return strbuf_error(sb);
}

/* Which of the three distributions of a task or of the run. */
enum work_dist { WD_LATENCY, WD_RESPONSE, WD_LATENESS };

static const struct dist *task_dist(const struct wtask *tk, enum work_dist k)
{
	return k == WD_LATENCY ? &tk->latency : k == WD_RESPONSE ? &tk->response : &tk->lateness;
}

/* The run's distribution k, its histogram (w's, of the tasks freed) with the live tasks' added,
 * in *d with its counters in buf (2 * DIST_BUCKETS). */
static void total_dist(const struct work *w, enum work_dist k, struct dist *d, u32 *buf)
{
	*d = k == WD_LATENCY ? w->latency : k == WD_RESPONSE ? w->response : w->lateness;
	memcpy(buf, d->pos, 2 * DIST_BUCKETS * sizeof(*buf));
	d->pos = buf;
	for (size_t i = 0; i < w->entries; i++)
		dist_merge_hist(d, task_dist(&w->chunks[i / WTASK_CHUNK][i % WTASK_CHUNK], k));
}

void work_total_activity(const struct work *w, struct run_activity *act)
{
	u32 buf[3][2 * DIST_BUCKETS];
	struct dist lat, resp, late;

	total_dist(w, WD_LATENCY, &lat, buf[0]);
	total_dist(w, WD_RESPONSE, &resp, buf[1]);
	total_dist(w, WD_LATENESS, &late, buf[2]);
	activity(&lat, &resp, &late, w->activations, act);
}
