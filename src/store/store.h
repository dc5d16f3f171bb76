/*
 * store.h - the results database: runs and their metrics in SQLite, and the same tables as CSV.
 *
 * One database file holds many runs. Each run is written in ONE transaction, so a
 * failed or interrupted write leaves no rows of it. Tables (schema version STORE_SCHEMA_VERSION,
 * kept in PRAGMA user_version):
 *   runs(run_id, label, trace, trace_sha256, platform, governor, timing, util_source,
 *        power_model, power_unit, policy, params, kernel, start_s, span_s, events, nr_cpus,
 *        nr_clusters, notes, govsim_version, created_at)
 *   energy(run_id, scope 'cpu'|'cluster'|'total', name 'cpu4'|'cluster1'|'total', joules)
 *   residency(run_id, policy, freq_khz, seconds)          policy = its first CPU; every OPP
 *   policy_stats(run_id, policy, cluster, transitions, avg_freq_khz, busy_s, overutilized_s)
 *   task_stats(run_id, seq, pid, comm, runtime_s, delay_s, max_delay_s)
 *   uclamp_stats(run_id, key_on_at_s (NULL: the key stayed off), agg_ops, agg_skipped,
 *                clamped_up_s, clamped_down_s)
 *   timeline(run_id, seq, time_s, policy, freq_khz, traced_khz, util, capacity)
 *            per policy a row at its start, at every change of its emulated frequency taking
 *            effect, of its first CPU's traced frequency (0 before the first) and at each
 *            (decimated) util bucket's end; each row holds the values in force from time_s on
 *   work(run_id, cpu, work_in_s, work_out_s)
 *   spans(run_id, traced_span_s, stretch)               span_s / traced_span_s (runs.span_s)
 *   activity(run_id, seq -1 (all tasks) | task_stats.seq, activations, throughput,
 *            latency_mean_s, latency_p95_s, latency_max_s, response_mean_s, response_p95_s,
 *            response_max_s, lateness_mean_s, lateness_p95_s, lateness_max_s)
 *            work timing only; a task row only for a task with activations (core/result.h)
 * A version-1 file gains the new tables when opened; its runs read with traced_span_s = span_s.
 * Energies are in joules for em; for costs, the model's power unit x seconds / 1000 (as mW x s ->
 * J), named in runs.power_unit.
 *
 * Determinism: writing the same run_result gives the same rows, in the same order, apart from
 * runs.created_at (UTC, ISO 8601; from SOURCE_DATE_EPOCH when that is set, for reproducible
 * files). Reading a run back gives the run_result that was written, field for field.
 */
#ifndef GOVSIM_STORE_STORE_H
#define GOVSIM_STORE_STORE_H

#include <stddef.h>

#include "core/error.h"
#include "core/types.h"
#include "core/result.h"

/* The schema version this govsim writes and reads. */
#define STORE_SCHEMA_VERSION 2 /* 2: spans, activity */

struct store;

/*
 * Open or create a results database at `path` and create its tables if needed. A database
 * written by a NEWER schema version fails with GS_ESCHEMA ("'x.db': results schema version 7 is
 * newer than this govsim supports (1)"); a file that is not an SQLite database, or an SQLite
 * database that is not govsim's (tables but no govsim schema), or a path that exists but is no
 * regular file (symlinks followed: a FIFO, a device, a directory), with GS_EINPUT before
 * anything is created in it; one that cannot be opened, or is locked by another process for
 * longer than the busy timeout, with GS_ESQL. On success *out is the handle (store_close() it).
 */
int store_open(const char *path, struct store **out, struct gs_error *err);

/*
 * Before a run: whether `path` can take govsim's runs, without creating or changing anything
 * (but rolling back the hot journal a writer killed before its COMMIT left, as any open does).
 * 0 when it does not exist, is empty or is a govsim results database of this or an older schema
 * version; GS_EINPUT for a foreign SQLite file (tables but no govsim schema), a file that is
 * not a database, or a path that is no regular file; GS_ESCHEMA for a newer govsim's; GS_ESQL
 * when it cannot be read (locked). store_open() makes the same checks.
 */
int store_check(const char *path, struct gs_error *err);

/*
 * Write one run in one transaction (BEGIN IMMEDIATE ... COMMIT; any failure rolls back, leaving
 * no rows of it). The new run's id goes to *run_id. Returns 0 or GS_ESQL.
 */
int store_write_run(struct store *s, const struct run_result *r, s64 *run_id, struct gs_error *err);

/*
 * Read run `run_id` back into *r, which need not be initialised: it is overwritten
 * (run_result_init) and the caller run_result_release()s it, on success or failure.
 * GS_ENOTFOUND when there is no such run.
 */
int store_read_run(struct store *s, s64 run_id, struct run_result *r, struct gs_error *err);

/* Every run id, ascending, as a malloc'd array the caller frees (NULL when *n is 0). */
int store_list_runs(struct store *s, s64 **ids, size_t *n, struct gs_error *err);

/*
 * Run ids matching a SQL-free selector, ascending, malloc'd as above. `selector` is NULL or ""
 * for every run, a run id ("42"), or comma-separated key=value equalities on the runs columns
 * label, trace, trace_sha256, platform, governor, timing, util_source, power_model, kernel
 * ("governor=schedutil,platform=hikey960"). A malformed selector or an unknown key is GS_EARG.
 */
int store_select_runs(struct store *s, const char *selector, s64 **ids, size_t *n,
		      struct gs_error *err);

/*
 * Append every run of the results databases inputs[0..n-1] to the database at `out_path`
 * (created if missing), in input order and, within an input, in run_id order, all in ONE
 * transaction on `out_path`: either every run lands or none does. Runs are renumbered (the
 * output assigns new run ids, continuing after its own); every other column, created_at
 * included, and the order of every table's rows are copied unchanged, so merging the same
 * inputs into an empty file always gives the same content. Each input must carry exactly
 * STORE_SCHEMA_VERSION (GS_ESCHEMA otherwise, also for a file that is not a govsim results
 * database) and the same tables and columns as the output; inputs are only read (a hot
 * journal in one is rolled back first).
 * `nr_runs` (may be NULL) receives the number of runs appended. GS_ESQL on database errors.
 * Written in src/store/merge.c.
 */
int store_merge(const char *out_path, const char *const *inputs, size_t n, size_t *nr_runs,
		struct gs_error *err);

/*
 * The parts of a sweep run as a job array. `sweep --job K` records in its database that it is
 * job K of N (table sweep_part(job, nr_jobs, trace, label), which merge reads and never copies
 * into its output), so a merge can tell which parts are missing and put the parts in job
 * order whatever order they are given in.
 */
struct store_part {
	long job, nr_jobs;
	const char *trace, *label;
};

struct store_merge_opts {
	long expect;                   /* > 0: the inputs are the parts of a sweep of this many
					* jobs; an input that is no such part is refused */
	bool partial;                  /* merge the parts there are when some are missing */
	const struct store_part *mark; /* not NULL: record the output as this part */
	char missing[256];             /* out: with `partial`, the jobs missing ("2-3,6-7"),
					* "" when none; cut short with "..." */
};

/*
 * store_merge() with options (NULL: none). When every input is a part (or with `expect`), the
 * parts must be of one sweep (the same number of jobs), each job at most once (GS_EINPUT
 * otherwise), and they are merged in job order; when jobs are missing, nothing is merged and
 * the error is GS_ENOTFOUND naming them ("missing 4 of 8 jobs: 2-3,6-7"), unless `partial`,
 * which merges the others and names the missing in opts->missing. A sweep of N jobs is
 * complete when each of 0..N-1 is there.
 */
int store_merge_ext(const char *out_path, const char *const *inputs, size_t n,
		    struct store_merge_opts *opts, size_t *nr_runs, struct gs_error *err);

/* Close the database; NULL is fine. */
void store_close(struct store *s);

/*
 * The same tables for one run as CSV files in `dir` (created if missing): runs.csv,
 * energy.csv, residency.csv, policy_stats.csv, task_stats.csv, uclamp_stats.csv, timeline.csv,
 * work.csv, spans.csv and (work timing) activity.csv, the columns and rows of the database
 * (src/store/tables.c), each with a header line, text fields written through libcsv (csv_fwrite), numbers
 * with 17 significant digits (exact for doubles). runs.csv has no created_at column, so the
 * files of one run_result are byte-identical. Existing files are replaced. GS_EIO on failure.
 */
int store_write_csv(const struct run_result *r, s64 run_id, const char *dir, struct gs_error *err);

#endif
