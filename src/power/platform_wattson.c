/*
 * platform_wattson.c - the optional Wattson curve tables of a platform model (device, cpus,
 * idle map, 1-D and 2-D curves, L3), read and checked like the core tables
 * (platform_validate.c).
 */
#include "power/platform_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* --- Wattson curves (optional) ----------------------------------------------------------------- */

/* A REAL column: an integer or a finite float, at least `lo`. */
static bool col_real(sqlite3_stmt *st, int i, double lo, double *v)
{
	int t = sqlite3_column_type(st, i);

	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
		return false;
	*v = sqlite3_column_double(st, i);
	return isfinite(*v) && *v >= lo;
}

/* The cluster whose policy is named `policy` (its first CPU), or -1. */
static int cluster_of_policy(const struct platform *p, s64 policy)
{
	for (int c = 0; c < p->nr_clusters; c++)
		if (p->clusters[c].cpus[0] == policy)
			return c;
	return -1;
}

static int cmp_w2d(const void *a, const void *b)
{
	const struct plat_w2d *x = a, *y = b;

	if (x->cluster != y->cluster)
		return x->cluster - y->cluster;
	if (x->opp != y->opp)
		return x->opp - y->opp;
	if (x->dep_cluster != y->dep_cluster)
		return x->dep_cluster - y->dep_cluster;
	return x->dep_khz < y->dep_khz ? -1 : x->dep_khz > y->dep_khz;
}

static int count_rows(struct loader *l, const char *table, int *n)
{
	char sql[96];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if ((rc = loader_prepare(l, sql, &st)))
		return rc;
	*n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* The device column of a curve row must be the platform's Wattson device. */
static int check_device(struct loader *l, sqlite3_stmt *st, int i, const char *row)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	if (!t || strcmp((const char *)t, l->p->wattson.device) != 0)
		return model_error(l, "%s: device '%s' is not the wattson_device '%s'", row,
				   coltxt(st, i), l->p->wattson.device);
	return 0;
}

static int wattson_device_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct plat_wattson *w = &l->p->wattson;
	int *n = arg;

	if (++*n > 1 || !col_str(st, 0, w->device, sizeof(w->device)) || !w->device[0])
		return model_error(l, "%s: %s", row,
				   *n > 1 ? "more than one wattson_device row"
					  : "device must be 1..31 characters");
	return 0;
}

static int load_wattson_device(struct loader *l)
{
	static const struct model_col cols[] = {{"device", true}};
	static const struct model_table t =
		MODEL_TABLE("wattson_device", cols, true, wattson_device_row);
	static const char *const curves[] = {"wattson_cpus", "wattson_idle_map", "wattson_cpu_1d",
					     "wattson_cpu_2d", "wattson_l3"};
	int rc, n = 0;

	if ((rc = load_rows(l, &t, &n)))
		return rc;
	if (n == 1) {
		l->p->wattson.present = true;
		return 0;
	}
	for (size_t i = 0; i < GS_ARRAY_SIZE(curves); i++) {
		int rows = 0;
		if ((rc = count_rows(l, curves[i], &rows)))
			return rc;
		if (rows)
			return model_error(l, "%s: %d rows but no wattson_device row", curves[i], rows);
	}
	return 0;
}

static int wattson_cpu_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct plat_wattson *w = &l->p->wattson;
	bool *seen = arg;
	s64 cpu = 0, off = 0, vote = 0;

	if (!col_int(st, 0, 0, l->p->nr_cpus - 1, &cpu))
		return model_error(l, "%s: no such cpu", row);
	if (seen[cpu])
		return model_error(l, "%s: listed twice", row);
	if (!col_int(st, 1, 0, NSEC_PER_SEC, &off))
		return bad_int(l, row, "deep_idle_offset_ns", 0, NSEC_PER_SEC);
	if (!col_int(st, 2, 0, 1, &vote))
		return bad_int(l, row, "vote_by_freq", 0, 1);
	seen[cpu] = true;
	w->deep_idle_offset_ns[cpu] = (u32)off;
	w->vote_by_freq[cpu] = vote;
	return 0;
}

static int load_wattson_cpus(struct loader *l)
{
	static const struct model_col cols[] = {
		{"cpu", true}, {"deep_idle_offset_ns", false}, {"vote_by_freq", false}};
	static const struct model_table t = MODEL_TABLE("wattson_cpus", cols, false, wattson_cpu_row);
	bool seen[GS_MAX_CPUS] = {false};

	return load_rows(l, &t, seen);
}

static int wattson_idle_map_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct plat_wattson *w = &l->p->wattson;
	s64 idx = 0, state = 0;

	(void)arg;
	if (!col_int(st, 0, 0, GS_MAX_IDLE_STATES - 1, &idx))
		return bad_int(l, row, "idx", 0, GS_MAX_IDLE_STATES - 1);
	if (w->idle_map[idx] >= 0)
		return model_error(l, "%s: listed twice", row);
	if (!col_int(st, 1, 0, 1, &state))
		return bad_int(l, row, "state", 0, 1);
	w->idle_map[idx] = (int)state;
	w->has_idle_map = true;
	return 0;
}

static int load_wattson_idle_map(struct loader *l)
{
	static const struct model_col cols[] = {{"idx", true}, {"state", false}};
	static const struct model_table t =
		MODEL_TABLE("wattson_idle_map", cols, false, wattson_idle_map_row);
	struct plat_wattson *w = &l->p->wattson;
	int rc;

	for (int i = 0; i < GS_MAX_IDLE_STATES; i++)
		w->idle_map[i] = -1;
	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	if (!w->has_idle_map)
		for (int i = 0; i < GS_MAX_IDLE_STATES; i++)
			w->idle_map[i] = i <= 1 ? i : -1;
	return 0;
}

/* The policy (column 1) and freq_khz (column 2) of a curve row: *c its cluster, *k the OPP. */
static int curve_opp(struct loader *l, sqlite3_stmt *st, const char *row, int *c, int *k)
{
	struct platform *p = l->p;
	s64 policy = 0, khz = 0;

	if (!col_int(st, 1, 0, GS_MAX_CPUS - 1, &policy) || (*c = cluster_of_policy(p, policy)) < 0)
		return model_error(l, "%s: no cpufreq policy %s (a policy is named by its first "
				      "cpu)",
				   row, coltxt(st, 1));
	if (!col_int(st, 2, 1, UINT32_MAX, &khz) ||
	    (*k = plat_cluster_opp_index(&p->clusters[*c], (u32)khz)) < 0)
		return model_error(l, "%s: no such opp in cluster %d", row, *c);
	return 0;
}

/* n mW columns from column `first` on, named in cols: numbers >= 0. */
static int curve_mw(struct loader *l, sqlite3_stmt *st, const char *row, int first,
		    const char *const *cols, int n, double *v)
{
	for (int i = 0; i < n; i++)
		if (!col_real(st, first + i, 0, &v[i]))
			return model_error(l, "%s: %s must be a number >= 0 (mW)", row, cols[i]);
	return 0;
}

static const char *const curve_cols[] = {"static", "active", "idle0", "idle1", "interconnect"};

static int wattson_1d_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_opp *o;
	double v[4];
	int rc, c = -1, k = -1;

	(void)arg;
	if ((rc = check_device(l, st, 0, row)) || (rc = curve_opp(l, st, row, &c, &k)))
		return rc;
	o = &p->clusters[c].opps[k];
	if (o->w_1d)
		return model_error(l, "%s: listed twice", row);
	if ((rc = curve_mw(l, st, row, 3, curve_cols, 4, v)))
		return rc;
	o->w_1d = true;
	o->w_static_mw = v[0];
	o->w_active_mw = v[1];
	o->w_idle0_mw = v[2];
	o->w_idle1_mw = v[3];
	return 0;
}

static int load_wattson_1d(struct loader *l)
{
	static const struct model_col cols[] = {{"device", false}, {"policy", true},
						{"freq_khz", true}, {"static", false},
						{"active", false}, {"idle0", false},
						{"idle1", false}};
	static const struct model_table t = MODEL_TABLE("wattson_cpu_1d", cols, false, wattson_1d_row);

	return load_rows(l, &t, NULL);
}

/* dep_policy/dep_freq of a 2D or L3 row: another cluster at one of its OPPs, or 255 = the DSU. */
static int col_dep(struct loader *l, sqlite3_stmt *st, int i, int own, const char *row,
		   struct plat_w2d *r)
{
	struct platform *p = l->p;
	s64 dep = 0, khz = 0;
	int c;

	if (!col_int(st, i + 1, 1, UINT32_MAX, &khz))
		return bad_int(l, row, "dep_freq", 1, UINT32_MAX);
	r->dep_khz = (u32)khz;
	if (col_int(st, i, 255, 255, &dep)) {
		r->dep_cluster = PLAT_W_DSU;
		r->dep_opp = -1;
		return 0;
	}
	if (!col_int(st, i, 0, GS_MAX_CPUS - 1, &dep) || (c = cluster_of_policy(p, dep)) < 0)
		return model_error(l, "%s: dep_policy %s is no cpufreq policy (nor 255, the DSU)",
				   row, coltxt(st, i));
	if (c == own)
		return model_error(l, "%s: dep_policy %s is the row's own policy", row,
				   coltxt(st, i));
	r->dep_cluster = (int16_t)c;
	r->dep_opp = (int16_t)plat_cluster_opp_index(&p->clusters[c], (u32)khz);
	if (r->dep_opp < 0)
		return model_error(l, "%s: dep_freq %s is no opp of cluster %d", row, coltxt(st, i + 1),
				   c);
	return 0;
}

static int wattson_2d_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_wattson *w = &p->wattson;
	struct plat_w2d *r = &w->rows2d[w->nr_2d];
	double v[5];
	int rc, c = -1, k = -1;

	(void)arg;
	if (w->nr_2d >= PLAT_W2D_MAX)
		return model_error(l, "%s: more than %d rows", row, PLAT_W2D_MAX);
	if ((rc = check_device(l, st, 0, row)) || (rc = curve_opp(l, st, row, &c, &k)))
		return rc;
	if (p->clusters[c].opps[0].w_1d)
		return model_error(l, "%s: cluster %d has 1D curves already (a policy's curves "
				      "are 1D or 2D)",
				   row, c);
	if ((rc = col_dep(l, st, 3, c, row, r)) || (rc = curve_mw(l, st, row, 5, curve_cols, 5, v)))
		return rc;
	r->cluster = (int16_t)c;
	r->opp = (int16_t)k;
	r->static_mw = v[0];
	r->active_mw = v[1];
	r->idle0_mw = v[2];
	r->idle1_mw = v[3];
	r->interconnect_mw = v[4];
	p->clusters[c].w_2d = true;
	w->nr_2d++;
	return 0;
}

/* The 2D rows sorted by policy, OPP and dependency: no two alike; each cluster's first row and
 * count. */
static int wattson_2d_index(struct loader *l)
{
	struct platform *p = l->p;
	struct plat_wattson *w = &p->wattson;

	qsort(w->rows2d, (size_t)w->nr_2d, sizeof(w->rows2d[0]), cmp_w2d);
	for (int i = 0; i < w->nr_2d; i++) {
		struct plat_w2d *r = &w->rows2d[i];
		struct plat_cluster *c = &p->clusters[r->cluster];
		if (i && cmp_w2d(r - 1, r) == 0)
			return model_error(l, "wattson_cpu_2d row policy=%d freq_khz=%u dep_policy=%d "
					      "dep_freq=%u: listed twice",
					   c->cpus[0], c->opps[r->opp].freq_khz,
					   r->dep_cluster == PLAT_W_DSU
						   ? 255
						   : p->clusters[r->dep_cluster].cpus[0],
					   r->dep_khz);
		if (!c->w2d_count)
			c->w2d_first = i;
		c->w2d_count++;
	}
	return 0;
}

static int load_wattson_2d(struct loader *l)
{
	static const struct model_col cols[] = {
		{"device", false}, {"policy", true},  {"freq_khz", true}, {"dep_policy", true},
		{"dep_freq", true}, {"static", false}, {"active", false},  {"idle0", false},
		{"idle1", false},  {"interconnect", false}};
	static const struct model_table t = MODEL_TABLE("wattson_cpu_2d", cols, false, wattson_2d_row);
	int rc;

	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	return wattson_2d_index(l);
}

static int wattson_l3_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	int rc, c0 = p->cpus[0].cluster;
	struct plat_w2d r;
	double v;
	s64 khz = 0;

	(void)arg;
	if ((rc = check_device(l, st, 0, row)))
		return rc;
	if (!col_int(st, 1, 1, UINT32_MAX, &khz) ||
	    plat_cluster_opp_index(&p->clusters[c0], (u32)khz) < 0)
		return model_error(l, "%s: no such opp of cpu 0's cluster %d", row, c0);
	if ((rc = col_dep(l, st, 2, c0, row, &r)))
		return rc;
	/* fitted values: Tensor G5 has small negative ones */
	if (!col_real(st, 4, -HUGE_VAL, &v) || !col_real(st, 5, -HUGE_VAL, &v))
		return model_error(l, "%s: l3_hit and l3_miss must be numbers (nJ)", row);
	p->wattson.nr_l3++;
	return 0;
}

static int load_wattson_l3(struct loader *l)
{
	static const struct model_col cols[] = {{"device", false},  {"freq_khz", true},
						{"dep_policy", true}, {"dep_freq", true},
						{"l3_hit", false},    {"l3_miss", false}};
	static const struct model_table t = MODEL_TABLE("wattson_l3", cols, false, wattson_l3_row);

	return load_rows(l, &t, NULL);
}

int load_wattson(struct loader *l)
{
	struct platform *p = l->p;
	int rc;

	if ((rc = load_wattson_device(l)) || !p->wattson.present)
		return rc;
	if ((rc = load_wattson_cpus(l)) || (rc = load_wattson_idle_map(l)) ||
	    (rc = load_wattson_1d(l)) || (rc = load_wattson_2d(l)) || (rc = load_wattson_l3(l)))
		return rc;
	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		if (pc->w_2d)
			continue;
		for (int k = 0; k < pc->nr_opps; k++)
			if (!pc->opps[k].w_1d)
				return model_error(l, "opps row cluster=%d freq_khz=%u: no wattson_cpu_1d "
						      "row (policy %d) and no 2D curves",
						   c, pc->opps[k].freq_khz, pc->cpus[0]);
	}
	return 0;
}
