/*
 * wattson.c - the `wattson` power model; see wattson.h.
 *
 * Follows Perfetto's Wattson at google/perfetto ec5d16b14b743ba6063d720956d6d6af6610fd72:
 * src/trace_processor/perfetto_sql/stdlib/wattson/{cpu/idle.sql, cpu/pivot.sql,
 * cpu/estimates.sql, curves/utils.sql, device_infos.sql}; the step numbers the comments
 * cite are wattson.h's. Wattson is SQL over a whole trace; this is the same arithmetic over
 * the replay's piecewise-constant state.
 */
#include "power/wattson.h"

#include <stdlib.h>
#include <string.h>

#include "power/power.h"

/* ---- one instant -------------------------------------------------------------------------- */

/* The Wattson state of a nominal one: active, off, 0 (shallow) or 1 (deepest). Step 3: the idle
 * map (or the index itself); an index the map lacks is taken as the deepest. */
static int wattson_state(const struct plat_wattson *w, int nominal)
{
	if (nominal == WATTSON_ACTIVE || nominal == WATTSON_OFF)
		return nominal;
	if (nominal < 0 || nominal >= GS_MAX_IDLE_STATES || w->idle_map[nominal] < 0)
		return 1;
	return w->idle_map[nominal];
}

/* Step 7: a CPU is on while active or in a shallow state (not deepest, not off). */
static bool cpu_is_on(const struct plat_wattson *w, int nominal)
{
	int st = wattson_state(w, nominal);
	return st == WATTSON_ACTIVE || st == 0;
}

static double col_1d(const struct plat_opp *o, int st)
{
	return st == WATTSON_ACTIVE ? o->w_active_mw : st == 0 ? o->w_idle0_mw : o->w_idle1_mw;
}

static double col_2d(const struct plat_w2d *r, int st)
{
	return st == WATTSON_ACTIVE ? r->active_mw : st == 0 ? r->idle0_mw : r->idle1_mw;
}

static int cmp_key(const void *key, const void *elem)
{
	const struct plat_w2d *k = key, *r = elem;

	if (k->opp != r->opp)
		return k->opp - r->opp;
	if (k->dep_cluster != r->dep_cluster)
		return k->dep_cluster - r->dep_cluster;
	return k->dep_khz < r->dep_khz ? -1 : k->dep_khz > r->dep_khz;
}

/* The 2D row of cluster c at OPP opp with this dependency, or NULL (the grid is sparse). */
static const struct plat_w2d *row_2d(const struct platform *p, int c, int opp, int dep_cluster,
				     u32 dep_khz)
{
	const struct plat_cluster *pc = &p->clusters[c];
	struct plat_w2d key = {0};

	key.opp = (int16_t)opp;
	key.dep_cluster = (int16_t)dep_cluster;
	key.dep_khz = dep_khz;
	return bsearch(&key, &p->wattson.rows2d[pc->w2d_first], (size_t)pc->w2d_count,
		       sizeof(key), cmp_key);
}

/*
 * Step 9, the dependency of a 2D cluster c: the DSU's frequency for DSU-dependent curves;
 * otherwise the vote of the active CPUs of the clusters c's rows name — by their 1D active power
 * (the default) or by frequency (by_freq) — and, with none active, the smallest dep_freq of c's
 * rows. Ties go to the lower CPU (the order Wattson's SQL reads them in is not specified).
 * Returns the dependency cluster (PLAT_W_DSU for the DSU) and its frequency in *khz (0: the DSU's
 * is unknown).
 */
static int wattson_vote(const struct platform *p, const struct wattson_in *in, int c, bool by_freq,
			u32 *khz)
{
	const struct plat_cluster *pc = &p->clusters[c];
	const struct plat_w2d *rows = &p->wattson.rows2d[pc->w2d_first];
	u32 deps = 0; /* bit per dependency cluster named in c's rows */
	int best = -1, best_cpu = -1;
	double best_v = 0;

	for (int i = 0; i < pc->w2d_count; i++) {
		if (rows[i].dep_cluster == PLAT_W_DSU) {
			*khz = in->dsu_khz;
			return PLAT_W_DSU;
		}
		deps |= 1u << rows[i].dep_cluster;
	}
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		int d = p->cpus[cpu].cluster;
		const struct plat_cluster *dc = &p->clusters[d];
		double v;
		int k;

		if (!(deps & (1u << d)) || in->state[cpu] != WATTSON_ACTIVE)
			continue;
		if (by_freq) {
			v = in->khz[d];
		} else {
			/* the candidate's 1D curve value; a 2D candidate has none (NULL) */
			k = plat_cluster_opp_index(dc, in->khz[d]);
			v = k >= 0 && dc->opps[k].w_1d ? dc->opps[k].w_active_mw : -1;
		}
		if (best_cpu < 0 || v > best_v) {
			best_cpu = cpu;
			best_v = v;
			best = d;
		}
	}
	if (best_cpu >= 0) {
		*khz = in->khz[best];
		return best;
	}
	/* nobody to vote: the default, the smallest dep_freq of the rows (with its policy) */
	for (int i = 0; i < pc->w2d_count; i++)
		if (best < 0 || rows[i].dep_khz < *khz ||
		    (rows[i].dep_khz == *khz && rows[i].dep_cluster < best)) {
			best = rows[i].dep_cluster;
			*khz = rows[i].dep_khz;
		}
	return best;
}

static void add_miss(struct wattson_out *out, int c, u32 khz, int dep_cluster, u32 dep_khz)
{
	for (int i = 0; i < out->nr_miss; i++)
		if (out->miss[i].cluster == c)
			return;
	out->miss[out->nr_miss++] = (struct wattson_miss){c, khz, dep_cluster, dep_khz, 0};
}

/* Steps 9, 10: the 2D row of cluster c at OPP opp for vote kind v (power or frequency), the
 * dependency it was looked up with in out; NULL (and the miss noted) when the curves have
 * none. */
static const struct plat_w2d *vote_row_2d(const struct platform *p, const struct wattson_in *in,
					  int c, int opp, int v, struct wattson_out *out)
{
	const struct plat_w2d *row = NULL;
	u32 dk = 0;
	int dc = wattson_vote(p, in, c, v, &dk);

	out->dep_cluster[c] = dc;
	out->dep_khz[c] = dk;
	if (dc == PLAT_W_DSU && !dk)
		out->missing_dsu = true;
	else
		row = row_2d(p, c, opp, dc, dk);
	if (!row)
		add_miss(out, c, in->khz[c], dc, dk);
	return row;
}

/* Step 13: interconnect, policy 0's 2D row, only where > 0; 0 while everything is off. */
static void interconnect(const struct platform *p, const struct wattson_in *in,
			 struct wattson_out *out)
{
	bool any = false;

	if (!(out->interconnect_mw > 0)) {
		out->interconnect_mw = 0;
		return;
	}
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		any |= wattson_state(&p->wattson, in->state[cpu]) != WATTSON_OFF;
	if (!any)
		out->interconnect_mw = 0;
}

void wattson_power(const struct platform *p, const struct wattson_in *in, struct wattson_out *out)
{
	const struct plat_wattson *w = &p->wattson;

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		int opp = plat_cluster_opp_index(pc, in->khz[c]);
		const struct plat_w2d *row[2] = {NULL, NULL}; /* per vote kind (power, freq) */
		bool on = false, looked[2] = {false, false};
		double st_mw = 0;

		out->dep_cluster[c] = -1;
		for (int i = 0; i < pc->nr_cpus; i++) {
			int cpu = pc->cpus[i], st = wattson_state(w, in->state[cpu]);
			bool lead = i == 0;
			double mw = 0;
			bool have = false;

			if (cpu_is_on(w, in->state[cpu]))
				on = true;
			if (st == WATTSON_OFF) {
				/* steps 5, 15: hotplugged out or suspended: nothing, not even a lookup */
				out->cpu_mw[cpu] = 0;
				continue;
			}
			if (opp < 0) {
				/* a frequency the curves do not have: no value */
			} else if (!pc->w_2d) {
				/* step 6, 1D */
				mw = col_1d(&pc->opps[opp], st);
				have = true;
				if (lead)
					st_mw = pc->opps[opp].w_static_mw;
			} else {
				/* steps 9, 10, 2D */
				int v = w->vote_by_freq[cpu];
				if (!looked[v]) {
					looked[v] = true;
					row[v] = vote_row_2d(p, in, c, opp, v, out);
				}
				if (row[v]) {
					mw = col_2d(row[v], st);
					have = true;
					if (lead) {
						st_mw = row[v]->static_mw;
						if (cpu == 0)
							out->interconnect_mw = row[v]->interconnect_mw;
					}
				}
			}
			if (!have) {
				out->missing_cpus |= 1ull << cpu;
				if (opp < 0)
					add_miss(out, c, in->khz[c], -1, 0);
			}
			out->cpu_mw[cpu] = mw;
			out->total_mw += mw;
		}
		/* steps 8, 11: static once per policy while any of its CPUs is on */
		out->static_mw[c] = on ? st_mw : 0;
		out->total_mw += out->static_mw[c];
	}
	interconnect(p, in, out);
	out->total_mw += out->interconnect_mw;
}

/* ---- over time ------------------------------------------------------------------------------ */

enum { K_FREQ, K_DSU, K_STATE };
#define IDLE_STATE_PENDING (-100) /* a K_STATE whose idle state is chosen when the interval ends */

struct wlog {
	u64 t;
	int kind;
	int idx; /* cluster or CPU */
	int val; /* kHz fits an int for every model (validated u32 but < 2^31 in practice) */
	u32 khz;
};

struct wattson_acc {
	const struct platform *p;
	u64 t0;
	struct wattson_in cur; /* the state at cur_t */
	u64 cur_t;
	bool dirty;
	struct wattson_out out;
	struct wlog *log;
	size_t head, n, cap;
	u64 latest_t;
	u64 max_offset_ns;
	/* per CPU, as last logged */
	int last_state[GS_MAX_CPUS];
	u64 last_change[GS_MAX_CPUS];
	size_t pending_at[GS_MAX_CPUS]; /* log index of the open hindsight interval */
	u64 pending_mask;
	u64 resolve_after_ns[GS_MAX_CPUS];
	bool oom;
	struct wattson_energy e;
};

struct wattson_acc *wattson_acc_new(const struct platform *p, u64 t0_ns, const u32 *khz,
				    struct gs_error *err)
{
	struct wattson_acc *w;

	if (!p->wattson.present) {
		gs_error_set(err, GS_EMODEL,
			     "platform '%s' has no wattson curves (--power-model wattson needs a "
			     "model with wattson_* tables, e.g. tensor)",
			     p->name);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		gs_error_set(err, GS_ENOMEM, "out of memory");
		return NULL;
	}
	w->p = p;
	w->t0 = w->cur_t = w->latest_t = t0_ns;
	w->dirty = true;
	for (int c = 0; c < p->nr_clusters; c++)
		w->cur.khz[c] = khz[c];
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct plat_cluster *pc = platform_cluster_of(p, cpu);
		if (p->wattson.deep_idle_offset_ns[cpu] > w->max_offset_ns)
			w->max_offset_ns = p->wattson.deep_idle_offset_ns[cpu];
		/* hindsight picks no deeper state once the interval has lasted the deepest
		 * cpu-level state's target residency: resolve it then */
		for (int i = 0; i < pc->nr_idle; i++)
			if (!pc->idle[i].cluster_level &&
			    (u64)pc->idle[i].target_residency_us * NSEC_PER_USEC >
				    w->resolve_after_ns[cpu])
				w->resolve_after_ns[cpu] =
					(u64)pc->idle[i].target_residency_us * NSEC_PER_USEC;
		w->cur.state[cpu] = 1; /* before anything is known: deepest, as Wattson's NULL */
		wattson_acc_idle_begin(w, t0_ns, cpu);
	}
	return w;
}

void wattson_acc_free(struct wattson_acc *w)
{
	if (!w)
		return;
	free(w->log);
	free(w);
}

static void record_miss(struct wattson_energy *e, const struct wattson_miss *m, u64 dt)
{
	for (int i = 0; i < e->nr_miss; i++) {
		struct wattson_miss *x = &e->miss[i];
		if (x->cluster == m->cluster && x->khz == m->khz &&
		    x->dep_cluster == m->dep_cluster && x->dep_khz == m->dep_khz) {
			x->ns += dt;
			return;
		}
	}
	if (e->nr_miss == WATTSON_MAX_MISS) {
		e->miss_dropped++;
		return;
	}
	e->miss[e->nr_miss] = *m;
	e->miss[e->nr_miss++].ns = dt;
}

/* Integrate the current state's power over [cur_t, t). */
static void integrate(struct wattson_acc *w, u64 t)
{
	const struct platform *p = w->p;
	struct wattson_energy *e = &w->e;
	double s;
	u64 dt;

	if (t <= w->cur_t)
		return;
	dt = t - w->cur_t;
	w->cur_t = t;
	if (w->dirty) {
		wattson_power(p, &w->cur, &w->out);
		w->dirty = false;
	}
	s = (double)dt / (double)NSEC_PER_SEC;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		e->cpu_mj[cpu] += w->out.cpu_mw[cpu] * s;
	for (int c = 0; c < p->nr_clusters; c++)
		e->static_mj[c] += w->out.static_mw[c] * s;
	e->interconnect_mj += w->out.interconnect_mw * s;
	e->total_mj += w->out.total_mw * s;
	if (w->out.missing_cpus || w->out.missing_dsu)
		e->missing_ns += dt;
	if (w->out.missing_dsu)
		e->dsu_unknown_ns += dt;
	for (int i = 0; i < w->out.nr_miss; i++)
		record_miss(e, &w->out.miss[i], dt);
}

static void apply(struct wattson_acc *w, const struct wlog *l)
{
	integrate(w, l->t);
	switch (l->kind) {
	case K_FREQ:
		w->cur.khz[l->idx] = l->khz;
		break;
	case K_DSU:
		w->cur.dsu_khz = l->khz;
		break;
	default:
		w->cur.state[l->idx] = l->val;
		break;
	}
	w->dirty = true;
}

/* Apply the logged changes that nothing can move any more: before the first open hindsight
 * interval and more than the largest deep-idle offset before the latest change. */
static void drain(struct wattson_acc *w, bool all)
{
	while (w->head < w->n) {
		const struct wlog *l = &w->log[w->head];
		if (l->kind == K_STATE && l->val == IDLE_STATE_PENDING)
			break;
		if (!all && l->t + w->max_offset_ns > w->latest_t)
			break;
		apply(w, l);
		w->head++;
	}
	if (w->head == w->n) {
		w->head = w->n = 0;
	} else if (w->head > 1024 && w->head * 2 > w->n) {
		memmove(w->log, w->log + w->head, (w->n - w->head) * sizeof(*w->log));
		for (int cpu = 0; cpu < w->p->nr_cpus; cpu++)
			if (w->pending_mask & (1ull << cpu))
				w->pending_at[cpu] -= w->head;
		w->n -= w->head;
		w->head = 0;
	}
}

/* Insert a change at time t, after every logged change at or before t. */
static size_t log_insert(struct wattson_acc *w, const struct wlog *l)
{
	size_t at;

	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		struct wlog *nl = realloc(w->log, cap * sizeof(*nl));
		if (!nl) {
			w->oom = true;
			return SIZE_MAX;
		}
		w->log = nl;
		w->cap = cap;
	}
	at = w->n;
	while (at > w->head && w->log[at - 1].t > l->t)
		at--;
	if (at < w->n) {
		memmove(w->log + at + 1, w->log + at, (w->n - at) * sizeof(*w->log));
		for (int cpu = 0; cpu < w->p->nr_cpus; cpu++)
			if ((w->pending_mask & (1ull << cpu)) && w->pending_at[cpu] >= at)
				w->pending_at[cpu]++;
	}
	w->log[at] = *l;
	w->n++;
	return at;
}

/* The hindsight choice for an interval of len_ns (power_pick_idle_state, cpu-level states). */
static void resolve(struct wattson_acc *w, int cpu, u64 len_ns)
{
	const struct plat_cluster *pc = platform_cluster_of(w->p, cpu);
	int st = pc->nr_idle ? power_pick_idle_state(pc, len_ns, false) : 0;

	w->log[w->pending_at[cpu]].val = st;
	w->last_state[cpu] = st;
	w->pending_mask &= ~(1ull << cpu);
}

/* Time moves to t: intervals that have lasted long enough are resolved, the rest drains. */
static void advance(struct wattson_acc *w, u64 t)
{
	if (t > w->latest_t)
		w->latest_t = t;
	for (u64 m = w->pending_mask; m; m &= m - 1) {
		int cpu = __builtin_ctzll(m);
		u64 start = w->log[w->pending_at[cpu]].t;
		if (w->latest_t - start >= w->resolve_after_ns[cpu])
			resolve(w, cpu, w->latest_t - start);
	}
	drain(w, false);
}

static u64 clamp_t(struct wattson_acc *w, u64 t)
{
	return t < w->latest_t ? w->latest_t : t;
}

void wattson_acc_freq(struct wattson_acc *w, u64 t_ns, int cluster, u32 khz)
{
	struct wlog l = {clamp_t(w, t_ns), K_FREQ, cluster, 0, khz};

	if (w->oom || cluster < 0 || cluster >= w->p->nr_clusters)
		return;
	advance(w, l.t);
	log_insert(w, &l);
}

void wattson_acc_dsu(struct wattson_acc *w, u64 t_ns, u32 dsu_khz)
{
	struct wlog l = {clamp_t(w, t_ns), K_DSU, 0, 0, dsu_khz};

	if (w->oom)
		return;
	advance(w, l.t);
	log_insert(w, &l);
}

void wattson_acc_state(struct wattson_acc *w, u64 t_ns, int cpu, int state)
{
	struct wlog l = {clamp_t(w, t_ns), K_STATE, cpu, state, 0};
	const struct plat_wattson *pw = &w->p->wattson;

	if (w->oom || cpu < 0 || cpu >= w->p->nr_cpus)
		return;
	advance(w, l.t);
	if (w->pending_mask & (1ull << cpu))
		resolve(w, cpu, l.t - w->log[w->pending_at[cpu]].t);
	if (state >= 0 && (state >= GS_MAX_IDLE_STATES || pw->idle_map[state] < 0))
		w->e.unmapped_idle++;
	/* step 4: leaving the deepest state, the active period starts offset_ns earlier, but not
	 * before the CPU's previous change */
	if (state == WATTSON_ACTIVE && pw->deep_idle_offset_ns[cpu] &&
	    wattson_state(pw, w->last_state[cpu]) == 1) {
		u64 off = pw->deep_idle_offset_ns[cpu];
		u64 t = l.t > off ? l.t - off : 0;
		l.t = t > w->last_change[cpu] ? t : w->last_change[cpu];
		w->e.offset_exits++;
	}
	w->last_state[cpu] = state;
	w->last_change[cpu] = l.t;
	log_insert(w, &l);
}

void wattson_acc_idle_begin(struct wattson_acc *w, u64 t_ns, int cpu)
{
	struct wlog l = {clamp_t(w, t_ns), K_STATE, cpu, IDLE_STATE_PENDING, 0};
	size_t at;

	if (w->oom || cpu < 0 || cpu >= w->p->nr_cpus)
		return;
	advance(w, l.t);
	if (w->pending_mask & (1ull << cpu))
		resolve(w, cpu, l.t - w->log[w->pending_at[cpu]].t);
	at = log_insert(w, &l);
	if (at == SIZE_MAX)
		return;
	w->pending_at[cpu] = at;
	w->pending_mask |= 1ull << cpu;
	w->last_state[cpu] = IDLE_STATE_PENDING;
	w->last_change[cpu] = l.t;
}

static int cmp_miss(const void *a, const void *b)
{
	const struct wattson_miss *x = a, *y = b;
	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

int wattson_acc_finish(struct wattson_acc *w, u64 end_ns, struct wattson_energy *e,
		       struct gs_error *err)
{
	if (w->oom)
		return gs_error_set(err, GS_ENOMEM, "out of memory (wattson power model)");
	end_ns = clamp_t(w, end_ns);
	w->latest_t = end_ns;
	for (u64 m = w->pending_mask; m; m &= m - 1) {
		int cpu = __builtin_ctzll(m);
		resolve(w, cpu, end_ns - w->log[w->pending_at[cpu]].t);
	}
	w->pending_mask = 0;
	drain(w, true);
	integrate(w, end_ns);
	w->e.span_ns = end_ns - w->t0;
	*e = w->e;
	qsort(e->miss, (size_t)e->nr_miss, sizeof(e->miss[0]), cmp_miss);
	return 0;
}
