/*
 * timeline.c - the rows a replay reports as it goes (core/timeline.h): each built once and
 * written to the --timeline / --task-timeline CSVs and handed to the run's other sink (the
 * --perfetto writer), so that every output shows the same values; an observer (observer.h)
 * registered only when one of them is asked for. And the stored timeline of the results
 * (run_result.timeline, for plots): per policy util, emulated and traced frequency.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

_Static_assert((int)TL_TASK_WAKEUP == (int)TASK_EV_WAKEUP &&
		       (int)TL_TASK_SWITCH_IN == (int)TASK_EV_SWITCH_IN &&
		       (int)TL_TASK_TICK == (int)TASK_EV_TICK &&
		       (int)TL_TASK_PREEMPT == (int)TASK_EV_PREEMPT &&
		       (int)TL_TASK_SLEEP == (int)TASK_EV_SLEEP &&
		       (int)TL_TASK_MIGRATE == (int)TASK_EV_MIGRATE &&
		       (int)TL_TASK_DELAY_END == (int)TASK_EV_DELAY_END,
	       "core/timeline.h's task events follow sched.h's");

/* A CSV field as RFC 4180 has it: as it is, or, when it holds a comma, a double quote or a line
 * break, between double quotes with each double quote doubled. */
static void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A task event to the --task-timeline CSV and the other sink: one row for both. */
static void timeline_task_event(struct sim *s, void *state, const struct task *p, int cpu,
				enum sched_task_event ev, u64 now)
{
	const struct tl_sink *k = s->cfg.opts.sink;
	struct tl_task row = {
		.ts_ns = now,
		.rel_ns = now - s->t0,
		.pid = p->pid,
		.comm = p->comm,
		.cpu = cpu,
		.event = (enum tl_task_event)ev,
		.event_name = sched_task_event_name(ev),
		.util_avg = p->avg.util_avg,
		.util_est_enqueued = p->avg.util_est.enqueued,
		.util_est_ewma = p->avg.util_est.ewma,
	};
	s64 vlag;

	row.eevdf = sched_task_eevdf(s->sched, p, &vlag, &row.delayed);
	row.vlag_ns = row.eevdf ? (long long)vlag : 0;

	(void)state;
	if (s->cfg.opts.task_timeline) {
		FILE *f = s->cfg.opts.task_timeline;
		fprintf(f, "%" PRIu64 ".%06" PRIu64 ",%d,", (u64)(row.rel_ns / NSEC_PER_SEC),
			(u64)((row.rel_ns % NSEC_PER_SEC) / NSEC_PER_USEC), row.pid);
		csv_field(f, row.comm);
		fprintf(f, ",%d,%s,%lu,%u,%u", row.cpu, row.event_name, row.util_avg,
			row.util_est_enqueued, row.util_est_ewma);
		if (row.eevdf)
			fprintf(f, ",%lld,%d\n", row.vlag_ns, row.delayed);
		else
			fputs(",,\n", f);
	}
	if (k && k->task)
		k->task(k->ctx, &row);
}

/* An evaluation to the --timeline CSV and the other sink: one row for both. */
static void timeline_gov_eval(struct sim *s, void *state, const struct gov_eval *e)
{
	const struct tl_sink *k = s->cfg.opts.sink;
	struct tl_eval row = {
		.ts_ns = e->time_ns,
		.rel_ns = e->time_ns - s->t0,
		.cpu = e->cpu,
		.policy = e->policy,
		.util_cfs = e->in.util_avg,
		.util_est_cfs = e->in.util_est_enqueued,
		.util_rt = e->in.util_rt,
		.util_dl = e->in.util_dl,
		.uclamp_min = e->uclamp_min,
		.uclamp_max = e->uclamp_max,
		.util = e->util,
		.target_khz = e->target_khz,
		.freq_khz = e->freq_khz,
	};

	(void)state;
	if (s->cfg.opts.timeline)
		fprintf(s->cfg.opts.timeline,
			"%" PRIu64 ".%06" PRIu64 ",%d,%d,%lu,%lu,%lu,%lu,%u,%u,%lu,%u,%u\n",
			(u64)(row.rel_ns / NSEC_PER_SEC),
			(u64)((row.rel_ns % NSEC_PER_SEC) / NSEC_PER_USEC), row.cpu, row.policy,
			row.util_cfs, row.util_est_cfs, row.util_rt, row.util_dl, row.uclamp_min,
			row.uclamp_max, row.util, row.target_khz, row.freq_khz);
	if (k && k->eval)
		k->eval(k->ctx, &row);
}

/* A traced frequency of a policy's first CPU to the sink. */
static void timeline_traced_freq(struct sim *s, void *state, int cpu, u64 t, u32 khz)
{
	const struct tl_sink *k = s->cfg.opts.sink;

	(void)state;
	k->traced_freq(k->ctx, t, cpu, khz);
}

int sim_timeline_observe(struct sim *s, struct gs_error *err)
{
	const struct sim_opts *o = &s->cfg.opts;
	const struct tl_sink *k = o->sink;
	struct sim_observer obs = {
		.kind = SIM_OBSERVER_TIMELINE,
		.task_event = o->task_timeline || (k && k->task) ? timeline_task_event : NULL,
		.gov_eval = o->timeline || (k && k->eval) ? timeline_gov_eval : NULL,
		.traced_freq = k && k->traced_freq ? timeline_traced_freq : NULL,
	};

	if (!obs.task_event && !obs.gov_eval && !obs.traced_freq)
		return 0;
	return sim_observers_add(&s->obs, &obs, err);
}

/* A traced frequency of a policy's first CPU (the one the accounting reads) to the stored
 * timeline and the observers. */
void sim_traced_freq_step(struct sim *s, int cpu, u64 ts_ns)
{
	struct sim_cluster *cl = &s->cl[s->cpu[cpu].cluster];

	if (cl->pc->cpus[0] != cpu)
		return;
	sim_timeline_step(&cl->tl_traced, ts_ns, s->cpu[cpu].traced_khz);
	sim_observers_traced_freq(&s->obs, s, cpu, ts_ns, s->cpu[cpu].traced_khz);
}

/* ---- the stored timeline -------------------------------------------------------------------- */

/* A frequency step at t, kept unless it repeats the frequency in force. */
void sim_timeline_step(struct sim_steps *st, u64 t, u32 khz)
{
	if (st->n && st->v[st->n - 1].khz == khz)
		return;
	if (st->n == st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 64;
		void *p = realloc(st->v, n * sizeof(*st->v));
		if (!p) {
			st->lost = true;
			return;
		}
		st->v = p;
		st->alloc = n;
	}
	st->v[st->n++] = (struct sim_step){t, khz};
}

/* The bucket's largest util, at the bucket's end. */
static void timeline_push(struct sim_cluster *cl, u64 t)
{
	if (cl->nr_tl == cl->alloc_tl) {
		size_t n = cl->alloc_tl ? cl->alloc_tl * 2 : 256;
		void *p = realloc(cl->tl, n * sizeof(*cl->tl));
		if (!p) {
			cl->tl_lost = true;
			return;
		}
		cl->tl = p;
		cl->alloc_tl = n;
	}
	cl->tl[cl->nr_tl++] = (struct sim_util_sample){t, (u32)cl->tl_util};
	cl->tl_util = 0;
	cl->tl_pending = false;

	if (cl->nr_tl > TIMELINE_MAX_POINTS) {
		/* Halve: keep every other point (the later of each pair, with the pair's max util). */
		size_t j = 0;
		for (size_t i = 0; i + 1 < cl->nr_tl; i += 2) {
			struct sim_util_sample a = cl->tl[i], b = cl->tl[i + 1];
			if (a.util > b.util)
				b.util = a.util;
			cl->tl[j++] = b;
		}
		if (cl->nr_tl % 2)
			cl->tl[j++] = cl->tl[cl->nr_tl - 1];
		cl->nr_tl = j;
		cl->tl_bucket_ns *= 2;
	}
}

/* A governor evaluation at t that saw util. */
void sim_timeline_note(struct sim *s, struct sim_cluster *cl, u64 t, unsigned long util)
{
	if (cl->tl_pending && t >= cl->tl_bucket_end_ns)
		timeline_push(cl, cl->tl_bucket_end_ns);
	if (!cl->tl_pending) {
		cl->tl_bucket_end_ns = t - (t - s->t0) % cl->tl_bucket_ns + cl->tl_bucket_ns;
		cl->tl_pending = true;
	}
	if (util > cl->tl_util)
		cl->tl_util = util;
}

/* The replay ends at end: the bucket in progress is cut there. */
void sim_timeline_end(struct sim_cluster *cl, u64 end)
{
	if (cl->tl_pending)
		timeline_push(cl, gs_min_u64(end, cl->tl_bucket_end_ns));
}

static u64 next_time(const struct sim_cluster *cl, size_t iu, size_t ie, size_t it)
{
	u64 t = NO_TIME;

	if (iu < cl->nr_tl)
		t = cl->tl[iu].t_ns;
	if (ie < cl->tl_emu.n)
		t = gs_min_u64(t, cl->tl_emu.v[ie].t_ns);
	if (it < cl->tl_traced.n)
		t = gs_min_u64(t, cl->tl_traced.v[it].t_ns);
	return t;
}

/*
 * Cluster c's rows from out[0] on; returns how many. A row at every time one of the three
 * step functions changes, holding the three values in force from then on (a step of each at
 * one time makes one row); traced_khz is 0 before the trace's first frequency of the policy.
 */
static size_t timeline_rows(const struct sim *s, int c, struct run_timeline_point *out)
{
	const struct sim_cluster *cl = &s->cl[c];
	const struct plat_cluster *pc = cl->pc;
	size_t iu = 0, ie = 0, it = 0, n = 0;
	u32 util = 0, khz = s->emu_init_khz[c], traced = 0;
	u64 t;

	while ((t = next_time(cl, iu, ie, it)) != NO_TIME) {
		int opp;

		for (; iu < cl->nr_tl && cl->tl[iu].t_ns == t; iu++)
			util = cl->tl[iu].util;
		for (; ie < cl->tl_emu.n && cl->tl_emu.v[ie].t_ns == t; ie++)
			khz = cl->tl_emu.v[ie].khz;
		for (; it < cl->tl_traced.n && cl->tl_traced.v[it].t_ns == t; it++)
			traced = cl->tl_traced.v[it].khz;
		opp = plat_cluster_opp_index(pc, khz);
		out[n++] = (struct run_timeline_point){
			.time_s = ns_to_s(t - s->t0),
			.policy = pc->cpus[0],
			.freq_khz = khz,
			.traced_khz = traced,
			.util = util,
			.capacity = pc->opps[opp >= 0 ? opp : 0].capacity, /* always an OPP */
		};
	}
	return n;
}

int sim_timeline_finish(struct sim *s, struct run_result *r, struct gs_error *err)
{
	size_t n = 0;

	for (int c = 0; c < s->plat->nr_clusters; c++) {
		const struct sim_cluster *cl = &s->cl[c];
		if (cl->tl_lost || cl->tl_emu.lost || cl->tl_traced.lost)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		n += cl->nr_tl + cl->tl_emu.n + cl->tl_traced.n;
	}
	if (!n)
		return 0;
	r->timeline = malloc(n * sizeof(*r->timeline));
	if (!r->timeline)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->nr_timeline = 0;
	for (int c = 0; c < s->plat->nr_clusters; c++)
		r->nr_timeline += timeline_rows(s, c, r->timeline + r->nr_timeline);
	return 0;
}

void sim_timeline_release(struct sim_cluster *cl)
{
	free(cl->tl);
	free(cl->tl_emu.v);
	free(cl->tl_traced.v);
}

