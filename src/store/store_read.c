/*
 * store_read.c - a run back from the results database into a run_result (one read
 * transaction), and the selectors that list runs; see store.h.
 */
#include "store/store_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static int read_error(struct store *s, struct gs_error *err, s64 run_id)
{
	return gs_error_set(err, GS_ESQL, "'%s': cannot read run %" PRId64 ": %s", s->path, run_id,
			    sqlite3_errmsg(s->db));
}

/* Prepares `sql` with ?1 bound to run_id. */
static int query(struct store *s, const char *sql, s64 run_id, sqlite3_stmt **st,
		 struct gs_error *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(*st, 1, run_id) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return read_error(s, err, run_id);
	}
	return 0;
}

static int finish(struct store *s, sqlite3_stmt *st, int rc, s64 run_id, struct gs_error *err)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return read_error(s, err, run_id);
	return 0;
}

static int bad_row(struct store *s, sqlite3_stmt *st, s64 run_id, const char *what,
		   struct gs_error *err)
{
	sqlite3_finalize(st);
	return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": %s", s->path, run_id, what);
}

/*
 * Column -> field descriptors (#17 item 5): a query's columns, by name, and where each goes in
 * the struct a row fills. select_cols() writes the SELECT list, read_cols() reads a row.
 */
enum store_col_kind {
	SCOL_TEXT,   /* char[size], "" for NULL */
	SCOL_REAL,   /* double */
	SCOL_INT,    /* int (or s32) */
	SCOL_UINT32, /* u32, from a 64-bit integer */
	SCOL_UINT64, /* u64 */
};

struct store_col {
	const char *name;
	enum store_col_kind kind;
	size_t off, size;
};

#define SCOL(type, field, kind) {#field, (kind), offsetof(type, field), sizeof(((type *)0)->field)}
#define SCOL_AS(name, type, field, kind) \
	{(name), (kind), offsetof(type, field), sizeof(((type *)0)->field)}

/* "SELECT <names> <tail>" into sql; false when it does not fit. */
static bool select_cols(char *sql, size_t size, const struct store_col *cols, size_t n,
			const char *tail)
{
	int len = snprintf(sql, size, "SELECT ");

	for (size_t i = 0; i < n && len >= 0 && (size_t)len < size; i++)
		len += snprintf(sql + len, size - (size_t)len, "%s%s", i ? ", " : "", cols[i].name);
	if (len >= 0 && (size_t)len < size)
		len += snprintf(sql + len, size - (size_t)len, " %s", tail);
	return len >= 0 && (size_t)len < size;
}

/* Columns first.. of the row st is on into the fields of base. */
static void read_cols(sqlite3_stmt *st, int first, const struct store_col *cols, size_t n,
		      void *base)
{
	for (size_t i = 0; i < n; i++) {
		void *f = (char *)base + cols[i].off;
		int c = first + (int)i;
		switch (cols[i].kind) {
		case SCOL_TEXT:
			copy_text(f, cols[i].size, st, c);
			break;
		case SCOL_REAL:
			*(double *)f = sqlite3_column_double(st, c);
			break;
		case SCOL_INT:
			*(int *)f = sqlite3_column_int(st, c);
			break;
		case SCOL_UINT32:
			*(u32 *)f = (u32)sqlite3_column_int64(st, c);
			break;
		case SCOL_UINT64:
			*(u64 *)f = (u64)sqlite3_column_int64(st, c);
			break;
		}
	}
}

/* Prepares "SELECT <cols> <tail>" with ?1 bound to run_id. */
static int query_cols(struct store *s, const struct store_col *cols, size_t n, const char *tail,
		      s64 run_id, sqlite3_stmt **st, struct gs_error *err)
{
	char sql[1024];

	if (!select_cols(sql, sizeof(sql), cols, n, tail))
		return gs_error_set(err, GS_EINTERNAL, "'%s': query too long", s->path);
	return query(s, sql, run_id, st, err);
}

static const struct store_col runs_cols[] = {
	SCOL(struct run_result, label, SCOL_TEXT),
	SCOL(struct run_result, trace, SCOL_TEXT),
	SCOL(struct run_result, trace_sha256, SCOL_TEXT),
	SCOL(struct run_result, platform, SCOL_TEXT),
	SCOL(struct run_result, governor, SCOL_TEXT),
	SCOL(struct run_result, timing, SCOL_TEXT),
	SCOL(struct run_result, util_source, SCOL_TEXT),
	SCOL(struct run_result, power_model, SCOL_TEXT),
	SCOL(struct run_result, power_unit, SCOL_TEXT),
	SCOL(struct run_result, policy, SCOL_TEXT),
	SCOL(struct run_result, params, SCOL_TEXT),
	SCOL(struct run_result, kernel, SCOL_TEXT),
	SCOL(struct run_result, start_s, SCOL_REAL),
	SCOL(struct run_result, span_s, SCOL_REAL),
	SCOL(struct run_result, events, SCOL_UINT64),
	SCOL(struct run_result, nr_cpus, SCOL_INT),
	SCOL(struct run_result, nr_clusters, SCOL_INT),
	SCOL(struct run_result, notes, SCOL_TEXT),
	SCOL(struct run_result, govsim_version, SCOL_TEXT),
};

/* The two columns added within schema version 1 (store.c plugin_columns()). */
static const struct store_col runs_plugin_cols[] = {
	SCOL(struct run_result, governor_path, SCOL_TEXT),
	SCOL(struct run_result, governor_sha256, SCOL_TEXT),
};

static int read_runs_row(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query_cols(s, runs_cols, GS_ARRAY_SIZE(runs_cols), "FROM runs WHERE run_id = ?1",
			     id, &st, err)))
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_ENOTFOUND, "'%s': no run %" PRId64, s->path, id);
	}
	if (rc != SQLITE_ROW)
		return finish(s, st, rc, id, err);
	read_cols(st, 0, runs_cols, GS_ARRAY_SIZE(runs_cols), r);
	sqlite3_finalize(st);
	if (s->plugin_cols) {
		if ((rc = query_cols(s, runs_plugin_cols, GS_ARRAY_SIZE(runs_plugin_cols),
				     "FROM runs WHERE run_id = ?1", id, &st, err)))
			return rc;
		if ((rc = sqlite3_step(st)) != SQLITE_ROW)
			return finish(s, st, rc, id, err);
		read_cols(st, 0, runs_plugin_cols, GS_ARRAY_SIZE(runs_plugin_cols), r);
		sqlite3_finalize(st);
	}
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": nr_cpus or nr_clusters "
						  "out of range",
				    s->path, id);
	return 0;
}

static int read_energy(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT scope, name, joules FROM energy WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *scope = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		double j = sqlite3_column_double(st, 2);
		int n;

		if (!scope || !name)
			return bad_row(s, st, id, "energy row without scope or name", err);
		if (strcmp(scope, "total") == 0)
			r->energy_total = j;
		else if (strcmp(scope, "cpu") == 0 && sscanf(name, "cpu%d", &n) == 1 && n >= 0 &&
			 n < r->nr_cpus)
			r->energy_cpu[n] = j;
		else if (strcmp(scope, "cluster") == 0 && sscanf(name, "cluster%d", &n) == 1 &&
			 n >= 0 && n < r->nr_clusters)
			r->energy_cluster[n] = j;
		else
			return bad_row(s, st, id, "energy row names no cpu or cluster of the run", err);
	}
	return finish(s, st, rc, id, err);
}

static int read_policies(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc, c = 0;

	if ((rc = query(s,
			"SELECT policy, cluster, transitions, avg_freq_khz, busy_s, overutilized_s"
			" FROM policy_stats WHERE run_id = ?1 ORDER BY cluster, policy",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_policy_result *pr;
		if (c >= r->nr_clusters)
			return bad_row(s, st, id, "more policy_stats rows than clusters", err);
		pr = &r->pol[c++];
		pr->policy = sqlite3_column_int(st, 0);
		pr->cluster = sqlite3_column_int(st, 1);
		pr->transitions = (u64)sqlite3_column_int64(st, 2);
		pr->avg_freq_khz = sqlite3_column_type(st, 3) == SQLITE_NULL
					   ? NAN
					   : sqlite3_column_double(st, 3);
		pr->busy_s = sqlite3_column_double(st, 4);
		pr->overutilized_s = sqlite3_column_double(st, 5);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;

	if ((rc = query(s,
			"SELECT policy, freq_khz, seconds FROM residency WHERE run_id = ?1"
			" ORDER BY policy, freq_khz",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int policy = sqlite3_column_int(st, 0);
		struct run_policy_result *pr = NULL;

		for (int i = 0; i < r->nr_clusters; i++)
			if (r->pol[i].policy == policy)
				pr = &r->pol[i];
		if (!pr || pr->nr_opps >= GS_MAX_OPPS)
			return bad_row(s, st, id, "residency row of no policy of the run", err);
		pr->freq_khz[pr->nr_opps] = (u32)sqlite3_column_int64(st, 1);
		pr->residency_s[pr->nr_opps] = sqlite3_column_double(st, 2);
		pr->nr_opps++;
	}
	return finish(s, st, rc, id, err);
}

static const struct store_col task_cols[] = {
	SCOL(struct run_task_result, pid, SCOL_INT),
	SCOL(struct run_task_result, comm, SCOL_TEXT),
	SCOL(struct run_task_result, runtime_s, SCOL_REAL),
	SCOL(struct run_task_result, delay_s, SCOL_REAL),
	SCOL(struct run_task_result, max_delay_s, SCOL_REAL),
};

static int read_tasks(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM task_stats WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n > INT32_MAX)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": too many tasks", s->path,
				    id);
	if (n && !(r->tasks = calloc((size_t)n, sizeof(*r->tasks))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query_cols(s, task_cols, GS_ARRAY_SIZE(task_cols),
			     "FROM task_stats WHERE run_id = ?1 ORDER BY seq", id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nr_tasks < n)
		read_cols(st, 0, task_cols, GS_ARRAY_SIZE(task_cols), &r->tasks[r->nr_tasks++]);
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE; /* more rows than counted cannot happen inside one read */
	return finish(s, st, rc, id, err);
}

static int read_uclamp(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s,
			"SELECT key_on_at_s, agg_ops, agg_skipped, clamped_up_s, clamped_down_s"
			" FROM uclamp_stats WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->key_on = sqlite3_column_type(st, 0) != SQLITE_NULL;
		r->key_on_at_s = r->key_on ? sqlite3_column_double(st, 0) : 0;
		r->agg_ops = (u64)sqlite3_column_int64(st, 1);
		r->agg_skipped = (u64)sqlite3_column_int64(st, 2);
		r->clamped_up_s = sqlite3_column_double(st, 3);
		r->clamped_down_s = sqlite3_column_double(st, 4);
		rc = sqlite3_step(st);
	}
	return finish(s, st, rc, id, err);
}

/* kernel_overhead rows (issue #16); a database written before them has none: zeros. */
static int read_overhead(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	struct run_overhead *o = &r->ovh;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT costed, total_s, charged_s FROM kernel_overhead_runs"
				      " WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);
	if ((rc = query(s, "SELECT costed, total_s, charged_s FROM kernel_overhead_runs"
			   " WHERE run_id = ?1", id, &st, err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		o->costed = sqlite3_column_int(st, 0) != 0;
		o->total_s = sqlite3_column_double(st, 1);
		o->charged_s = sqlite3_column_double(st, 2);
		rc = sqlite3_step(st);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;
	if ((rc = query(s, "SELECT operation, calls, time_s FROM kernel_overhead WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *op = (const char *)sqlite3_column_text(st, 0);
		for (int i = 0; op && i < RUN_KERNEL_OPS; i++) {
			if (strcmp(op, run_kernel_op_names[i]) != 0)
				continue;
			o->calls[i] = (u64)sqlite3_column_int64(st, 1);
			o->time_s[i] = sqlite3_column_double(st, 2);
		}
	}
	return finish(s, st, rc, id, err);
}

static const struct store_col timeline_cols[] = {
	SCOL(struct run_timeline_point, time_s, SCOL_REAL),
	SCOL(struct run_timeline_point, policy, SCOL_INT),
	SCOL(struct run_timeline_point, freq_khz, SCOL_UINT32),
	SCOL(struct run_timeline_point, traced_khz, SCOL_UINT32),
	SCOL(struct run_timeline_point, util, SCOL_UINT32),
	SCOL(struct run_timeline_point, capacity, SCOL_UINT32),
};

static int read_timeline(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM timeline WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n && !(r->timeline = calloc((size_t)n, sizeof(*r->timeline))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query_cols(s, timeline_cols, GS_ARRAY_SIZE(timeline_cols),
			     "FROM timeline WHERE run_id = ?1 ORDER BY seq", id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && (s64)r->nr_timeline < n)
		read_cols(st, 0, timeline_cols, GS_ARRAY_SIZE(timeline_cols),
			  &r->timeline[r->nr_timeline++]);
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	return finish(s, st, rc, id, err);
}

static const struct store_col slice_cols[] = {
	SCOL(struct run_place_slice, start_s, SCOL_REAL),
	SCOL(struct run_place_slice, end_s, SCOL_REAL),
	SCOL(struct run_place_slice, pid, SCOL_INT),
	SCOL(struct run_place_slice, cpu, SCOL_INT),
};

/* --placement eas: the slices (none in a file made before the table existed). */
static int read_slices(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
			   "name = 'placement_slices' AND ?1 = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!n)
		return 0;
	if ((rc = query(s, "SELECT count(*) FROM placement_slices WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (n && !(r->slices = calloc((size_t)n, sizeof(*r->slices))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query_cols(s, slice_cols, GS_ARRAY_SIZE(slice_cols),
			     "FROM placement_slices WHERE run_id = ?1 ORDER BY seq", id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && (s64)r->nr_slices < n)
		read_cols(st, 0, slice_cols, GS_ARRAY_SIZE(slice_cols), &r->slices[r->nr_slices++]);
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	return finish(s, st, rc, id, err);
}

static int read_work(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT cpu, work_in_s, work_out_s FROM work WHERE run_id = ?1", id,
			&st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(st, 0);
		if (cpu < 0 || cpu >= r->nr_cpus)
			return bad_row(s, st, id, "work row of no cpu of the run", err);
		r->work_in_s[cpu] = sqlite3_column_double(st, 1);
		r->work_out_s[cpu] = sqlite3_column_double(st, 2);
	}
	return finish(s, st, rc, id, err);
}

/* seq first (read by read_spans()), then the fields of a struct run_activity. */
static const struct store_col activity_cols[] = {
	{"seq", SCOL_INT, 0, 0},
	SCOL(struct run_activity, activations, SCOL_UINT64),
	SCOL(struct run_activity, throughput, SCOL_REAL),
	SCOL_AS("latency_mean_s", struct run_activity, latency.mean_s, SCOL_REAL),
	SCOL_AS("latency_p95_s", struct run_activity, latency.p95_s, SCOL_REAL),
	SCOL_AS("latency_max_s", struct run_activity, latency.max_s, SCOL_REAL),
	SCOL_AS("response_mean_s", struct run_activity, response.mean_s, SCOL_REAL),
	SCOL_AS("response_p95_s", struct run_activity, response.p95_s, SCOL_REAL),
	SCOL_AS("response_max_s", struct run_activity, response.max_s, SCOL_REAL),
	SCOL_AS("lateness_mean_s", struct run_activity, lateness.mean_s, SCOL_REAL),
	SCOL_AS("lateness_p95_s", struct run_activity, lateness.p95_s, SCOL_REAL),
	SCOL_AS("lateness_max_s", struct run_activity, lateness.max_s, SCOL_REAL),
};

/* Spans (a run without its row: nothing moved, the replay's span is the trace's) and the
 * activity rows (work timing). */
static int read_spans(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	r->traced_span_s = r->span_s;
	r->stretch = 1;
	if ((rc = query(s, "SELECT traced_span_s, stretch FROM spans WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->traced_span_s = sqlite3_column_double(st, 0);
		r->stretch = sqlite3_column_double(st, 1);
		rc = sqlite3_step(st);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;
	if ((rc = query_cols(s, activity_cols, GS_ARRAY_SIZE(activity_cols),
			     "FROM activity WHERE run_id = ?1 ORDER BY seq", id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s64 seq = sqlite3_column_int64(st, 0);
		struct run_activity *a;
		if (seq == -1)
			a = &r->act_total;
		else if (seq >= 0 && seq < r->nr_tasks)
			a = &r->tasks[seq].act;
		else
			return bad_row(s, st, id, "activity row of no task of the run", err);
		read_cols(st, 1, activity_cols + 1, GS_ARRAY_SIZE(activity_cols) - 1, a);
	}
	return finish(s, st, rc, id, err);
}

int store_read_run(struct store *s, s64 run_id, struct run_result *r, struct gs_error *err)
{
	int rc;

	run_result_init(r);
	/* One read transaction: a concurrent writer cannot show us half of anything. */
	if ((rc = store_exec(s, "BEGIN", "cannot read", err)))
		return rc;
	if (!(rc = read_runs_row(s, run_id, r, err)) && !(rc = read_energy(s, run_id, r, err)) &&
	    !(rc = read_policies(s, run_id, r, err)) && !(rc = read_tasks(s, run_id, r, err)) &&
	    !(rc = read_uclamp(s, run_id, r, err)) &&
	    !(rc = read_overhead(s, run_id, r, err)) && !(rc = read_timeline(s, run_id, r, err)) &&
	    !(rc = read_work(s, run_id, r, err)) && !(rc = read_slices(s, run_id, r, err)))
		rc = read_spans(s, run_id, r, err);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* --- listing ------------------------------------------------------------------------------ */

static const char *const selector_keys[] = {
	"label", "trace", "trace_sha256", "platform", "governor", "timing", "util_source",
	"power_model", "kernel", "governor_path", "governor_sha256",
};

int store_select_runs(struct store *s, const char *selector, s64 **ids, size_t *n,
		      struct gs_error *err)
{
	char sql[1024] = "SELECT run_id FROM runs WHERE 1";
	char *sel = NULL, *save = NULL;
	const char *values[32];
	int nr_values = 0, rc = 0;
	bool by_id = false;
	s64 want_id = 0, *out = NULL;
	size_t count = 0, cap = 0;
	sqlite3_stmt *st = NULL;

	*ids = NULL;
	*n = 0;
	if (selector && *selector) {
		char *end;
		want_id = strtoll(selector, &end, 10);
		by_id = *end == '\0';
	}
	if (by_id) {
		strcat(sql, " AND run_id = ?1");
	} else if (selector && *selector) {
		if (!(sel = strdup(selector)))
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		for (char *tok = strtok_r(sel, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			size_t k;
			if (!eq || eq == tok || nr_values >= (int)GS_ARRAY_SIZE(values)) {
				rc = gs_error_set(err, GS_EARG,
						  "'%s': a run selector is key=value[,key=value...]",
						  selector);
				goto out_free;
			}
			*eq = '\0';
			for (k = 0; k < GS_ARRAY_SIZE(selector_keys); k++)
				if (strcmp(tok, selector_keys[k]) == 0)
					break;
			if (k == GS_ARRAY_SIZE(selector_keys)) {
				rc = gs_error_set(err, GS_EARG, "'%s': unknown run selector key", tok);
				goto out_free;
			}
			/* Column names come from the fixed list above, values are bound. */
			snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND %s = ?%d",
				 selector_keys[k], nr_values + 1);
			values[nr_values++] = eq + 1;
		}
	}
	strcat(sql, " ORDER BY run_id");
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = store_sql_error(s, err, "cannot list runs");
		goto out_free;
	}
	if (by_id)
		sqlite3_bind_int64(st, 1, want_id);
	for (int i = 0; i < nr_values; i++)
		sqlite3_bind_text(st, i + 1, values[i], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap) {
			s64 *nout = realloc(out, (cap = cap ? cap * 2 : 16) * sizeof(*out));
			if (!nout) {
				rc = gs_error_set(err, GS_ENOMEM, "out of memory");
				goto out_free;
			}
			out = nout;
		}
		out[count++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE) {
		rc = store_sql_error(s, err, "cannot list runs");
		goto out_free;
	}
	rc = 0;
	*ids = out;
	*n = count;
	out = NULL;
out_free:
	sqlite3_finalize(st);
	free(out);
	free(sel);
	return rc;
}

int store_list_runs(struct store *s, s64 **ids, size_t *n, struct gs_error *err)
{
	return store_select_runs(s, NULL, ids, n, err);
}
