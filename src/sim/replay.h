/*
 * replay.h - one whole replay of one trace file: the trace reader, the pre-scan, the replay
 * loop and the run's identity (trace hash, policy text, tunables), into a struct run_result.
 * What `govsim run`, `validate` and `sweep` share; never prints.
 */
#ifndef GOVSIM_SIM_REPLAY_H
#define GOVSIM_SIM_REPLAY_H

#include <stdio.h>

#include "sim/options.h"
#include "sim/sim.h"
#include "trace/reader.h"

/*
 * A trace read once for many replays (a sweep's, a tune's, validate's): its events in memory
 * (trace/cache.h) and, when asked for, its SHA-256. Load it before forking workers: they share
 * it. A replay from it gives what a replay from the file gives.
 */
struct replay_cache {
	struct trace_cache *events;
	char sha256[65]; /* "" when not computed */
};

/*
 * Read `file` (named `trace` in messages) once with ropts into a new cache, hashing it on the
 * other core when `hash`. 0 and *out; GS_EUNSUPPORTED when its events need more than
 * max_bytes (trace_cache_load()), else the reader's code; err says why. A caller replays from
 * the file when this fails: the replay then reports a bad trace in its own words.
 */
int replay_cache_load(const char *trace, const char *file, const struct reader_opts *ropts,
		      unsigned long long max_bytes, bool hash, struct replay_cache **out,
		      struct gs_error *err);
void replay_cache_free(struct replay_cache *rc);

struct replay_spec {
	const char *trace;      /* its name in messages and in the run */
	const char *trace_file; /* the file read: a spooled copy (trace/spool.h); NULL: trace */
	/* The trace read once (replay_cache_load() of trace_file with opts.ropts); NULL, or a
	 * cache of another file or other reader options: the file is read. */
	const struct replay_cache *cache;
	struct sim_opts opts;   /* the what-if settings (sim/options.h); opts.plat required */
	/* Skip the trace's SHA-256 (r->trace_sha256 left empty) when nothing stores the run. */
	bool no_hash;
	/* Skip the placement plot's slices (r->slices left empty; --placement eas) when nothing
	 * stores the run: they are one row per time a task ran, so they grow with the trace. */
	bool no_slices;
	/* Filled by replay_run() when not NULL: the reader's statistics (malformed lines, ...). */
	struct trace_stats *stats_out;
	/* Filled when not NULL: the validation figures (govsim validate); the caller releases
	 * them with sim_validation_release(). val_window_ns: the per-decision window (0: one
	 * rate-limit period). */
	struct sim_validation *validation_out;
	u64 val_window_ns;
};

/*
 * Replay spec->trace into r (initialised by the caller). Errors: GS_EARG (unknown governor or
 * tunable, bad value), GS_ETRACE/GS_EIO (trace), GS_EPOLICY (a policy action the kernel rejects
 * at run time), GS_ENOMEM; err holds the message.
 */
int replay_run(const struct replay_spec *spec, struct run_result *r, struct gs_error *err);

/* The profile replay_run() would choose for `trace` with spec->opts.kernel NULL, and why (a line for
 * notes). Never fails: v5.9 when the trace says nothing. */
const struct kernel_profile *replay_trace_kernel(const char *trace, const struct reader_opts *ropts,
						 char *why, size_t why_size);

#endif
