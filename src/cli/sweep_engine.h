/*
 * sweep_engine.h - running a list of replay jobs in forked worker processes and appending their
 * runs to one results database in job order: what `sweep` and `tune` share.
 *
 * Determinism: every job runs in its own forked process and writes its own temporary database;
 * when all are done the parent appends them to `db` with store_merge_ext() in JOB ORDER, in one
 * transaction. So the database content does not depend on `parallel` or on scheduling.
 *
 * The temporary folder: TMPDIR/govsim-sweep.XXXXXX holds the jobs' databases, logs and `out`
 * files, with an flock on its `lock` file for as long as the parent or a worker lives (the
 * workers inherit the descriptor). It is removed when the run ends, also on SIGINT, SIGTERM and
 * SIGHUP (then the workers are stopped, nothing is stored, and the process dies of the same
 * signal); what a kill -9 leaves, the next run removes: a folder whose lock nobody holds. When
 * the final merge into `db` fails (the file locked by another process, a full disk), the
 * databases of the jobs that succeeded are kept instead, in TMPDIR/govsim-sweep.XXXXXX.kept,
 * which stderr names with the `govsim merge` that stores them.
 *
 * What a job wrote on stderr is printed by the parent under a line naming the job (`describe`).
 */
#ifndef GOVSIM_CLI_SWEEP_ENGINE_H
#define GOVSIM_CLI_SWEEP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "gov/governor.h"
#include "power/platform.h"
#include "store/store.h"

struct sweep_engine {
	const char *name;       /* the command, for messages: "sweep", "tune" */
	long first, nr_jobs;    /* the jobs first .. first + nr_jobs - 1 */
	long parallel;          /* worker processes at once; 0: the online CPUs */
	bool quiet;             /* no progress line, no summary */
	const char *db;         /* the results database the runs are appended to; NULL: none */
	const struct store_part *mark; /* store_merge_opts.mark (sweep --job K), or NULL */
	void *ctx;
	/* In the parent, before job i forks: 0, or an exit status and *msg (the job fails
	 * without running). May be NULL. */
	int (*precheck)(void *ctx, long i, const char **msg);
	/* In the worker: run job i and store it in `db`; `out` is a file it may write for
	 * collect(). Returns the worker's exit status. */
	int (*run)(void *ctx, long i, const char *db, const char *out);
	/* In the parent: "TRACE, LABEL" of job i, for messages. */
	void (*describe)(void *ctx, long i, char *buf, size_t size);
	/* In the parent once every job has ended (not after a stop by a signal), in job order,
	 * before the temporary folder goes: job i's exit status and its `out` file. Returns 0 or
	 * an exit status (the run's result then). May be NULL. */
	int (*collect)(void *ctx, long i, int status, const char *out);
	/* results */
	long failed;            /* jobs that failed */
	size_t merged;          /* runs appended to db */
};

/*
 * Run the jobs. Returns 0 when every job succeeded and its run is stored; 3 when some failed,
 * all on bad input; 1 when some failed otherwise or db could not be written (the runs that
 * succeeded are stored in every case); collect()'s status when it returned one.
 */
int sweep_engine_run(struct sweep_engine *e);

/* Does governor `gov` take tunable `key` (with `value`) on platform `plat`? */
bool sweep_gov_takes(const struct platform *plat, const struct governor *gov,
		     const char *key, const char *value);

#endif
