/*
 * tables.c - the results tables' columns and how their rows map to a run_result; see tables.h.
 *
 * The column lists below are the on-disk format: their CREATE TABLE text must stay what files
 * already hold (test_store_tables.c keeps the text as written by earlier govsim versions).
 */
#include "store/tables.h"

#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_ID_REF "INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE"
#define RUN_ID_KEY "INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE"
#define NN_TEXT    "TEXT NOT NULL"
#define NN_INT     "INTEGER NOT NULL"
#define NN_REAL    "REAL NOT NULL"

#define RUN_ID_COL(decl) STORE_KEY("run_id", decl, STORE_INT, STORE_COL_RUN_ID)
#define TABLE_COLS(cols) (cols), (int)(sizeof(cols) / sizeof((cols)[0]))

/* A table of one row per run: true for its row, false after it. */
static bool one_row(size_t *pos)
{
	return (*pos)++ == 0;
}

/* Room for one more element in a heap array of n (doubling at powers of two); NULL when out of
 * memory, arr still allocated. */
static void *grow(void *arr, size_t n, size_t size)
{
	if (n && (n & (n - 1)))
		return arr;
	return realloc(arr, (n ? 2 * n : 1) * size);
}

/* --- runs ------------------------------------------------------------------------------- */

#define RUN(name, decl, field, flags) STORE_FIELD(name, decl, struct run_result, field, flags)

static const struct store_column runs_cols[] = {
	STORE_KEY("run_id", "INTEGER PRIMARY KEY", STORE_INT, STORE_COL_RUN_ID | STORE_COL_ROWID),
	RUN("label", NN_TEXT, label, 0),
	RUN("trace", NN_TEXT, trace, 0),
	RUN("trace_sha256", NN_TEXT, trace_sha256, 0),
	RUN("platform", NN_TEXT, platform, 0),
	RUN("governor", NN_TEXT, governor, 0),
	RUN("timing", NN_TEXT, timing, 0),
	RUN("util_source", NN_TEXT, util_source, 0),
	RUN("power_model", NN_TEXT, power_model, 0),
	RUN("power_unit", NN_TEXT, power_unit, 0),
	RUN("policy", NN_TEXT, policy, 0),
	RUN("params", NN_TEXT, params, 0),
	RUN("kernel", NN_TEXT, kernel, 0),
	RUN("start_s", NN_REAL, start_s, 0),
	RUN("span_s", NN_REAL, span_s, 0),
	RUN("events", NN_INT, events, 0),
	RUN("nr_cpus", "INTEGER NOT NULL CHECK (nr_cpus BETWEEN 0 AND 64)", nr_cpus, 0),
	RUN("nr_clusters", "INTEGER NOT NULL CHECK (nr_clusters BETWEEN 0 AND 16)", nr_clusters, 0),
	RUN("notes", NN_TEXT, notes, 0),
	RUN("govsim_version", NN_TEXT, govsim_version, 0),
	/* Added within schema version 1: a file written before them gets them at its end when
	 * opened (store.c); created_at stays last in a new file. */
	RUN("governor_path", "TEXT NOT NULL DEFAULT ''", governor_path, STORE_COL_ADDED),
	RUN("governor_sha256", "TEXT NOT NULL DEFAULT ''", governor_sha256, STORE_COL_ADDED),
	STORE_KEY("created_at", NN_TEXT, STORE_TEXT, STORE_COL_CREATED_AT),
};

static const void *runs_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	(void)row;
	return one_row(pos) ? r : NULL;
}

static void *runs_in(struct run_result *r, struct store_read_state *rs,
		     const struct store_row *row, const char **bad)
{
	(void)rs, (void)row, (void)bad;
	return r;
}

/* A run without a spans row kept its trace's span. */
static void runs_done(struct run_result *r, const char **bad)
{
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS)
		*bad = "nr_cpus or nr_clusters out of range";
	r->traced_span_s = r->span_s;
	r->stretch = 1;
}

static const struct store_table runs_table = {
	.name = "runs", TABLE_COLS(runs_cols), .csv = true,
	.row_out = runs_out, .row_in = runs_in, .read_done = runs_done,
};

/* --- energy: per cpu, per cluster, total ---------------------------------------------------- */

static const struct store_column energy_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("scope", "TEXT NOT NULL CHECK (scope IN ('cpu', 'cluster', 'total'))", STORE_TEXT,
		  0),
	STORE_KEY("name", NN_TEXT, STORE_TEXT, 0),
	STORE_KEY("joules", NN_REAL, STORE_DOUBLE, 0),
};

static const void *energy_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	size_t i = (*pos)++;

	if (i < (size_t)r->nr_cpus) {
		row->v[1].t = "cpu";
		snprintf(row->text, sizeof(row->text), "cpu%zu", i);
		row->v[3].d = r->energy_cpu[i];
	} else if ((i -= (size_t)r->nr_cpus) < (size_t)r->nr_clusters) {
		row->v[1].t = "cluster";
		snprintf(row->text, sizeof(row->text), "cluster%zu", i);
		row->v[3].d = r->energy_cluster[i];
	} else if (i == (size_t)r->nr_clusters) {
		row->v[1].t = "total";
		snprintf(row->text, sizeof(row->text), "total");
		row->v[3].d = r->energy_total;
	} else {
		return NULL;
	}
	row->v[2].t = row->text;
	return r;
}

static void *energy_in(struct run_result *r, struct store_read_state *rs,
		       const struct store_row *row, const char **bad)
{
	const char *scope = row->v[1].t, *name = row->v[2].t;
	int n;

	(void)rs;
	if (row->v[1].null || row->v[2].null) {
		*bad = "energy row without scope or name";
		return NULL;
	}
	if (strcmp(scope, "total") == 0)
		r->energy_total = row->v[3].d;
	else if (strcmp(scope, "cpu") == 0 && sscanf(name, "cpu%d", &n) == 1 && n >= 0 &&
		 n < r->nr_cpus)
		r->energy_cpu[n] = row->v[3].d;
	else if (strcmp(scope, "cluster") == 0 && sscanf(name, "cluster%d", &n) == 1 && n >= 0 &&
		 n < r->nr_clusters)
		r->energy_cluster[n] = row->v[3].d;
	else
		*bad = "energy row names no cpu or cluster of the run";
	return *bad ? NULL : r;
}

static const struct store_table energy_table = {
	.name = "energy", TABLE_COLS(energy_cols), .constraints = "PRIMARY KEY (run_id, scope, name)",
	.csv = true, .row_out = energy_out, .row_in = energy_in,
};

/* --- residency: per policy (its first CPU), every OPP ----------------------------------------- */

static const struct store_column residency_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("policy", "INTEGER NOT NULL CHECK (policy >= 0)", STORE_INT, 0),
	STORE_KEY("freq_khz", NN_INT, STORE_U32, 0),
	STORE_KEY("seconds", NN_REAL, STORE_DOUBLE, 0),
};

/* *pos: cluster * GS_MAX_OPPS + OPP index */
static const void *residency_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	for (;; ++*pos) {
		size_t c = *pos / GS_MAX_OPPS, k = *pos % GS_MAX_OPPS;
		if (c >= (size_t)r->nr_clusters)
			return NULL;
		if ((int)k >= r->pol[c].nr_opps)
			continue;
		row->v[1].i = r->pol[c].policy;
		row->v[2].i = r->pol[c].freq_khz[k];
		row->v[3].d = r->pol[c].residency_s[k];
		++*pos;
		return r;
	}
}

static void *residency_in(struct run_result *r, struct store_read_state *rs,
			  const struct store_row *row, const char **bad)
{
	struct run_policy_result *pr = NULL;

	(void)rs;
	for (int i = 0; i < r->nr_clusters; i++)
		if (r->pol[i].policy == (int)row->v[1].i)
			pr = &r->pol[i];
	if (!pr || pr->nr_opps >= GS_MAX_OPPS) {
		*bad = "residency row of no policy of the run";
		return NULL;
	}
	pr->freq_khz[pr->nr_opps] = (u32)row->v[2].i;
	pr->residency_s[pr->nr_opps] = row->v[3].d;
	pr->nr_opps++;
	return r;
}

static const struct store_table residency_table = {
	.name = "residency", TABLE_COLS(residency_cols),
	.constraints = "PRIMARY KEY (run_id, policy, freq_khz)", .read_order = "policy, freq_khz",
	.csv = true, .row_out = residency_out, .row_in = residency_in,
};

/* --- policy_stats ------------------------------------------------------------------------- */

#define POL(name, decl, flags) STORE_FIELD(#name, decl, struct run_policy_result, name, flags)

static const struct store_column policy_stats_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	POL(policy, "INTEGER NOT NULL CHECK (policy >= 0)", 0),
	POL(cluster, NN_INT, 0),
	POL(transitions, NN_INT, 0),
	POL(avg_freq_khz, "REAL", STORE_COL_NAN_NULL), /* no activity: NULL */
	POL(busy_s, NN_REAL, 0),
	POL(overutilized_s, NN_REAL, 0),
};

static const void *policy_stats_out(const struct run_result *r, size_t *pos,
				    struct store_row *row)
{
	(void)row;
	return *pos < (size_t)r->nr_clusters ? &r->pol[(*pos)++] : NULL;
}

static void *policy_stats_in(struct run_result *r, struct store_read_state *rs,
			     const struct store_row *row, const char **bad)
{
	(void)row;
	if (rs->nr_policies >= r->nr_clusters) {
		*bad = "more policy_stats rows than clusters";
		return NULL;
	}
	return &r->pol[rs->nr_policies++];
}

static const struct store_table policy_stats_table = {
	.name = "policy_stats", TABLE_COLS(policy_stats_cols),
	.constraints = "PRIMARY KEY (run_id, policy)", .read_order = "cluster, policy", .csv = true,
	.row_out = policy_stats_out, .row_in = policy_stats_in,
};

/* --- task_stats: seq is the task's index in run_result.tasks ---------------------------------- */

#define TASK(name, decl) STORE_FIELD(#name, decl, struct run_task_result, name, 0)

static const struct store_column task_stats_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("seq", NN_INT, STORE_INT, 0),
	TASK(pid, NN_INT),
	TASK(comm, NN_TEXT),
	TASK(runtime_s, NN_REAL),
	TASK(delay_s, NN_REAL),
	TASK(max_delay_s, NN_REAL),
};

static const void *task_stats_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	if (*pos >= (size_t)r->nr_tasks)
		return NULL;
	row->v[1].i = (s64)*pos;
	return &r->tasks[(*pos)++];
}

static void *task_stats_in(struct run_result *r, struct store_read_state *rs,
			   const struct store_row *row, const char **bad)
{
	struct run_task_result *tasks;

	(void)rs, (void)row;
	if (r->nr_tasks == INT_MAX) {
		*bad = "too many tasks";
		return NULL;
	}
	if (!(tasks = grow(r->tasks, (size_t)r->nr_tasks, sizeof(*tasks)))) {
		*bad = "out of memory";
		return NULL;
	}
	r->tasks = tasks;
	memset(&tasks[r->nr_tasks], 0, sizeof(*tasks));
	return &tasks[r->nr_tasks++];
}

static const struct store_table task_stats_table = {
	.name = "task_stats", TABLE_COLS(task_stats_cols),
	.constraints = "PRIMARY KEY (run_id, seq)", .read_order = "seq", .csv = true,
	.row_out = task_stats_out, .row_in = task_stats_in,
};

/* --- placement (--placement eas): the run's figures, per task per cluster, the slices --------- */

static bool placement_eas(const struct run_result *r)
{
	return strcmp(r->placement, "eas") == 0;
}

static const struct store_column placement_cols[] = {
	RUN_ID_COL(RUN_ID_KEY),
	RUN("mode", NN_TEXT, placement, 0),
	RUN("wakeups", NN_INT, placement_wakeups, 0),
	RUN("migrations", NN_INT, placement_migrations, 0),
	RUN("misfit_pulls", NN_INT, misfit_pulls, 0),
	RUN("overutilized_s", NN_REAL, rd_overutilized_s, 0),
};

static const struct store_table placement_table = {
	.name = "placement", TABLE_COLS(placement_cols), .present = placement_eas,
	.row_out = runs_out,
};

static const struct store_column placement_tasks_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("seq", NN_INT, STORE_INT, 0),
	STORE_KEY("cluster", NN_INT, STORE_INT, 0),
	STORE_KEY("runtime_s", NN_REAL, STORE_DOUBLE, 0),
	STORE_KEY("migrations", NN_INT, STORE_U64, 0),
};

/* *pos: task_stats seq * nr_clusters + cluster */
static const void *placement_tasks_out(const struct run_result *r, size_t *pos,
				       struct store_row *row)
{
	size_t i, c;

	if (!r->nr_clusters || *pos >= (size_t)r->nr_tasks * (size_t)r->nr_clusters)
		return NULL;
	i = *pos / (size_t)r->nr_clusters;
	c = *pos % (size_t)r->nr_clusters;
	row->v[1].i = (s64)i;
	row->v[2].i = (s64)c;
	row->v[3].d = r->tasks[i].cluster_runtime_s[c];
	row->v[4].i = (s64)r->tasks[i].migrations;
	++*pos;
	return r;
}

static const struct store_table placement_tasks_table = {
	.name = "placement_tasks", TABLE_COLS(placement_tasks_cols),
	.constraints = "PRIMARY KEY (run_id, seq, cluster)", .present = placement_eas,
	.row_out = placement_tasks_out,
};

#define SLICE(name) STORE_FIELD(#name, NN_INT, struct run_place_slice, name, 0)

static const struct store_column placement_slices_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("seq", NN_INT, STORE_INT, 0),
	SLICE(pid),
	SLICE(cpu),
	STORE_FIELD("start_s", NN_REAL, struct run_place_slice, start_s, 0),
	STORE_FIELD("end_s", NN_REAL, struct run_place_slice, end_s, 0),
};

static const void *placement_slices_out(const struct run_result *r, size_t *pos,
					struct store_row *row)
{
	if (*pos >= r->nr_slices)
		return NULL;
	row->v[1].i = (s64)*pos;
	return &r->slices[(*pos)++];
}

static void *placement_slices_in(struct run_result *r, struct store_read_state *rs,
				 const struct store_row *row, const char **bad)
{
	struct run_place_slice *slices;

	(void)rs, (void)row;
	if (!(slices = grow(r->slices, r->nr_slices, sizeof(*slices)))) {
		*bad = "out of memory";
		return NULL;
	}
	r->slices = slices;
	memset(&slices[r->nr_slices], 0, sizeof(*slices));
	return &slices[r->nr_slices++];
}

static const struct store_table placement_slices_table = {
	.name = "placement_slices", TABLE_COLS(placement_slices_cols),
	.constraints = "PRIMARY KEY (run_id, seq)", .read_order = "seq", .optional = true,
	.present = placement_eas, .row_out = placement_slices_out, .row_in = placement_slices_in,
};

/* --- uclamp_stats ------------------------------------------------------------------------- */

static const struct store_column uclamp_stats_cols[] = {
	RUN_ID_COL(RUN_ID_KEY),
	STORE_KEY("key_on_at_s", "REAL", STORE_DOUBLE, 0), /* NULL: the key stayed off */
	RUN("agg_ops", NN_INT, agg_ops, 0),
	RUN("agg_skipped", NN_INT, agg_skipped, 0),
	RUN("clamped_up_s", NN_REAL, clamped_up_s, 0),
	RUN("clamped_down_s", NN_REAL, clamped_down_s, 0),
};

static const void *uclamp_stats_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	if (!one_row(pos))
		return NULL;
	row->v[1].null = !r->key_on;
	row->v[1].d = r->key_on_at_s;
	return r;
}

static void *uclamp_stats_in(struct run_result *r, struct store_read_state *rs,
			     const struct store_row *row, const char **bad)
{
	(void)rs, (void)bad;
	r->key_on = !row->v[1].null;
	r->key_on_at_s = r->key_on ? row->v[1].d : 0;
	return r;
}

static const struct store_table uclamp_stats_table = {
	.name = "uclamp_stats", TABLE_COLS(uclamp_stats_cols), .csv = true,
	.row_out = uclamp_stats_out, .row_in = uclamp_stats_in,
};

/* --- timeline: seq is the point's index in run_result.timeline ------------------------------ */

#define POINT(name, decl) STORE_FIELD(#name, decl, struct run_timeline_point, name, 0)

static const struct store_column timeline_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("seq", NN_INT, STORE_U64, 0),
	POINT(time_s, NN_REAL),
	POINT(policy, "INTEGER NOT NULL CHECK (policy >= 0)"),
	POINT(freq_khz, NN_INT),
	POINT(traced_khz, NN_INT),
	POINT(util, NN_INT),
	POINT(capacity, NN_INT),
};

static const void *timeline_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	if (*pos >= r->nr_timeline)
		return NULL;
	row->v[1].i = (s64)*pos;
	return &r->timeline[(*pos)++];
}

static void *timeline_in(struct run_result *r, struct store_read_state *rs,
			 const struct store_row *row, const char **bad)
{
	struct run_timeline_point *points;

	(void)rs, (void)row;
	if (!(points = grow(r->timeline, r->nr_timeline, sizeof(*points)))) {
		*bad = "out of memory";
		return NULL;
	}
	r->timeline = points;
	memset(&points[r->nr_timeline], 0, sizeof(*points));
	return &points[r->nr_timeline++];
}

static const struct store_table timeline_table = {
	.name = "timeline", TABLE_COLS(timeline_cols), .constraints = "PRIMARY KEY (run_id, seq)",
	.read_order = "seq", .csv = true, .row_out = timeline_out, .row_in = timeline_in,
};

/* --- work: per CPU, traced in and emulated out ---------------------------------------------- */

static const struct store_column work_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("cpu", NN_INT, STORE_INT, 0),
	STORE_KEY("work_in_s", NN_REAL, STORE_DOUBLE, 0),
	STORE_KEY("work_out_s", NN_REAL, STORE_DOUBLE, 0),
};

static const void *work_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	size_t cpu = *pos;

	if (cpu >= (size_t)r->nr_cpus)
		return NULL;
	row->v[1].i = (s64)cpu;
	row->v[2].d = r->work_in_s[cpu];
	row->v[3].d = r->work_out_s[cpu];
	++*pos;
	return r;
}

static void *work_in(struct run_result *r, struct store_read_state *rs,
		     const struct store_row *row, const char **bad)
{
	int cpu = (int)row->v[1].i;

	(void)rs;
	if (cpu < 0 || cpu >= r->nr_cpus) {
		*bad = "work row of no cpu of the run";
		return NULL;
	}
	r->work_in_s[cpu] = row->v[2].d;
	r->work_out_s[cpu] = row->v[3].d;
	return r;
}

static const struct store_table work_table = {
	.name = "work", TABLE_COLS(work_cols), .constraints = "PRIMARY KEY (run_id, cpu)",
	.csv = true, .row_out = work_out, .row_in = work_in,
};

/* --- spans: the trace's span and the stretch (runs.span_s / traced_span_s) ------------------ */

static const struct store_column spans_cols[] = {
	RUN_ID_COL(RUN_ID_KEY),
	RUN("traced_span_s", NN_REAL, traced_span_s, 0),
	RUN("stretch", NN_REAL, stretch, 0),
};

static const struct store_table spans_table = {
	.name = "spans", TABLE_COLS(spans_cols), .csv = true, .row_out = runs_out,
	.row_in = runs_in,
};

/* --- activity (work timing): seq -1 for all tasks, else the task_stats seq ------------------ */

#define ACT(name, field) STORE_FIELD(name, NN_REAL, struct run_activity, field, 0)

static const struct store_column activity_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("seq", "INTEGER NOT NULL CHECK (seq >= -1)", STORE_INT, 0),
	STORE_FIELD("activations", NN_INT, struct run_activity, activations, 0),
	ACT("throughput", throughput),
	ACT("latency_mean_s", latency.mean_s),
	ACT("latency_p95_s", latency.p95_s),
	ACT("latency_max_s", latency.max_s),
	ACT("response_mean_s", response.mean_s),
	ACT("response_p95_s", response.p95_s),
	ACT("response_max_s", response.max_s),
	ACT("lateness_mean_s", lateness.mean_s),
	ACT("lateness_p95_s", lateness.p95_s),
	ACT("lateness_max_s", lateness.max_s),
};

static bool work_timing(const struct run_result *r)
{
	return strcmp(r->timing, "work") == 0;
}

/* *pos 0: all tasks; k: task k - 1, when it had activations */
static const void *activity_out(const struct run_result *r, size_t *pos, struct store_row *row)
{
	for (;; ++*pos) {
		s64 seq = (s64)*pos - 1;
		if (seq >= r->nr_tasks)
			return NULL;
		if (seq >= 0 && !r->tasks[seq].act.activations)
			continue;
		row->v[1].i = seq;
		++*pos;
		return seq < 0 ? &r->act_total : &r->tasks[seq].act;
	}
}

static void *activity_in(struct run_result *r, struct store_read_state *rs,
			 const struct store_row *row, const char **bad)
{
	s64 seq = row->v[1].i;

	(void)rs;
	if (seq == -1)
		return &r->act_total;
	if (seq >= 0 && seq < r->nr_tasks)
		return &r->tasks[seq].act;
	*bad = "activity row of no task of the run";
	return NULL;
}

static const struct store_table activity_table = {
	.name = "activity", TABLE_COLS(activity_cols), .constraints = "PRIMARY KEY (run_id, seq)",
	.read_order = "seq", .csv = true, .present = work_timing, .row_out = activity_out,
	.row_in = activity_in,
};

/* --- kernel_overhead: per operation (run_kernel_op_names), and the run's totals ------------- */

static const struct store_column kernel_overhead_cols[] = {
	RUN_ID_COL(RUN_ID_REF),
	STORE_KEY("operation", NN_TEXT, STORE_TEXT, 0),
	STORE_KEY("calls", NN_INT, STORE_U64, 0),
	STORE_KEY("time_s", NN_REAL, STORE_DOUBLE, 0),
};

static const void *kernel_overhead_out(const struct run_result *r, size_t *pos,
				       struct store_row *row)
{
	size_t op = *pos;

	if (op >= RUN_KERNEL_OPS)
		return NULL;
	row->v[1].t = run_kernel_op_names[op];
	row->v[2].i = (s64)r->ovh.calls[op];
	row->v[3].d = r->ovh.time_s[op];
	++*pos;
	return r;
}

/* An operation this govsim does not know is skipped. */
static void *kernel_overhead_in(struct run_result *r, struct store_read_state *rs,
				const struct store_row *row, const char **bad)
{
	(void)rs, (void)bad;
	for (int op = 0; !row->v[1].null && op < RUN_KERNEL_OPS; op++) {
		if (strcmp(row->v[1].t, run_kernel_op_names[op]) != 0)
			continue;
		r->ovh.calls[op] = (u64)row->v[2].i;
		r->ovh.time_s[op] = row->v[3].d;
		return r;
	}
	return NULL;
}

static const struct store_table kernel_overhead_table = {
	.name = "kernel_overhead", TABLE_COLS(kernel_overhead_cols),
	.constraints = "PRIMARY KEY (run_id, operation)", .optional = true,
	.row_out = kernel_overhead_out, .row_in = kernel_overhead_in,
};

#define OVH(name) STORE_FIELD(#name, NN_REAL, struct run_overhead, name, 0)

static const struct store_column kernel_overhead_runs_cols[] = {
	RUN_ID_COL(RUN_ID_KEY),
	STORE_FIELD("costed", NN_INT, struct run_overhead, costed, 0),
	OVH(total_s),
	OVH(charged_s),
};

static const void *overhead_runs_out(const struct run_result *r, size_t *pos,
				     struct store_row *row)
{
	(void)row;
	return one_row(pos) ? &r->ovh : NULL;
}

static void *overhead_runs_in(struct run_result *r, struct store_read_state *rs,
			      const struct store_row *row, const char **bad)
{
	(void)rs, (void)row, (void)bad;
	return &r->ovh;
}

static const struct store_table kernel_overhead_runs_table = {
	.name = "kernel_overhead_runs", TABLE_COLS(kernel_overhead_runs_cols), .optional = true,
	.row_out = overhead_runs_out, .row_in = overhead_runs_in,
};

/* --- the lists ------------------------------------------------------------------------------ */

const struct store_table *const store_tables[] = {
	&runs_table,
	&energy_table,
	&residency_table,
	&policy_stats_table,
	&task_stats_table,
	&placement_table,
	&placement_tasks_table,
	&placement_slices_table,
	&uclamp_stats_table,
	&timeline_table,
	&work_table,
	&spans_table,
	&activity_table,
	&kernel_overhead_table,
	&kernel_overhead_runs_table,
};
const int store_nr_tables = (int)(sizeof(store_tables) / sizeof(store_tables[0]));

const struct store_table *const store_read_tables[] = {
	&runs_table,	   &energy_table,
	&policy_stats_table,	   &residency_table, /* names policy_stats' policies */
	&task_stats_table,	   &uclamp_stats_table,
	&kernel_overhead_runs_table, &kernel_overhead_table,
	&timeline_table,	   &work_table,
	&placement_slices_table, &spans_table,
	&activity_table, /* names task_stats' seqs */
};
const int store_nr_read_tables = (int)(sizeof(store_read_tables) / sizeof(store_read_tables[0]));

/* --- generated statements and generic rows ------------------------------------------------- */

/* "CREATE TABLE IF NOT EXISTS t ( col decl, ..., constraints);" */
static void append_create(sqlite3_str *sql, const struct store_table *t)
{
	sqlite3_str_appendf(sql, "CREATE TABLE IF NOT EXISTS %s (", t->name);
	for (int c = 0; c < t->nr_cols; c++)
		sqlite3_str_appendf(sql, "%s %s %s", c ? "," : "", t->cols[c].name, t->cols[c].decl);
	if (t->constraints)
		sqlite3_str_appendf(sql, ", %s", t->constraints);
	sqlite3_str_appendall(sql, ");");
}

char *store_table_create_sql(const struct store_table *t)
{
	sqlite3_str *sql = sqlite3_str_new(NULL);

	append_create(sql, t);
	return sqlite3_str_finish(sql);
}

char *store_schema_sql(void)
{
	sqlite3_str *sql = sqlite3_str_new(NULL);

	for (int i = 0; i < store_nr_tables; i++)
		append_create(sql, store_tables[i]);
	return sqlite3_str_finish(sql);
}

static void value_from_field(const struct store_column *col, const void *rec,
			     struct store_value *v)
{
	const char *f = (const char *)rec + col->off;

	switch (col->type) {
	case STORE_TEXT:
		v->t = f; /* bound and written up to strnlen(f, size) */
		break;
	case STORE_DOUBLE:
		memcpy(&v->d, f, sizeof(double));
		v->null = (col->flags & STORE_COL_NAN_NULL) && isnan(v->d);
		break;
	case STORE_INT: {
		int x;
		memcpy(&x, f, sizeof(x));
		v->i = x;
		break;
	}
	case STORE_U32: {
		u32 x;
		memcpy(&x, f, sizeof(x));
		v->i = x;
		break;
	}
	case STORE_U64: {
		u64 x;
		memcpy(&x, f, sizeof(x));
		v->i = (s64)x;
		break;
	}
	case STORE_BOOL: {
		bool x;
		memcpy(&x, f, sizeof(x));
		v->i = x;
		break;
	}
	}
}

static void value_to_field(const struct store_column *col, void *rec, const struct store_value *v)
{
	char *f = (char *)rec + col->off;

	switch (col->type) {
	case STORE_TEXT:
		snprintf(f, col->size, "%s", v->t ? v->t : "");
		break;
	case STORE_DOUBLE: {
		double x = v->null && (col->flags & STORE_COL_NAN_NULL) ? NAN : v->d;
		memcpy(f, &x, sizeof(x));
		break;
	}
	case STORE_INT: {
		int x = (int)v->i;
		memcpy(f, &x, sizeof(x));
		break;
	}
	case STORE_U32: {
		u32 x = (u32)v->i;
		memcpy(f, &x, sizeof(x));
		break;
	}
	case STORE_U64: {
		u64 x = (u64)v->i;
		memcpy(f, &x, sizeof(x));
		break;
	}
	case STORE_BOOL: {
		bool x = v->i != 0;
		memcpy(f, &x, sizeof(x));
		break;
	}
	}
}

bool store_row_next(const struct store_table *t, const struct run_result *r, s64 run_id,
		    const char *created_at, size_t *pos, struct store_row *row)
{
	const void *rec;

	memset(row->v, 0, sizeof(row->v));
	if (!(rec = t->row_out(r, pos, row)))
		return false;
	for (int c = 0; c < t->nr_cols; c++) {
		const struct store_column *col = &t->cols[c];
		if (col->flags & STORE_COL_RUN_ID)
			row->v[c].i = run_id;
		else if (col->flags & STORE_COL_CREATED_AT)
			row->v[c].t = created_at;
		else if (col->off != STORE_NO_FIELD)
			value_from_field(col, rec, &row->v[c]);
	}
	return true;
}

int store_row_take(const struct store_table *t, struct run_result *r, struct store_read_state *rs,
		   const struct store_row *row, const char **bad)
{
	void *rec;

	*bad = NULL;
	if (!(rec = t->row_in(r, rs, row, bad)))
		return *bad ? -1 : 0;
	for (int c = 0; c < t->nr_cols; c++)
		if (t->cols[c].off != STORE_NO_FIELD && !(t->cols[c].flags & STORE_COL_RUN_ID))
			value_to_field(&t->cols[c], rec, &row->v[c]);
	return 1;
}

bool store_col_read(const struct store_table *t, int c, bool plugin_cols)
{
	unsigned flags = t->cols[c].flags;

	return !(flags & (STORE_COL_RUN_ID | STORE_COL_CREATED_AT)) &&
	       (plugin_cols || !(flags & STORE_COL_ADDED));
}
