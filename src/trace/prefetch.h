/*
 * prefetch.h - read a trace ahead on another thread.
 *
 * Parsing a text trace costs about as much as a third of a replay; on a machine with a second
 * core the reader can run there while the replay consumes what it has read. Events come out
 * in exactly the reader's order (one producer, one consumer, batches handed over under a
 * mutex), so results do not change; memory is bounded (PREFETCH_DEPTH batches of
 * PREFETCH_BATCH events). Without threads (pthread_create fails) it reads synchronously.
 */
#ifndef GOVSIM_TRACE_PREFETCH_H
#define GOVSIM_TRACE_PREFETCH_H

#include "core/error.h"
#include "core/event.h"
#include "trace/reader.h"

#define PREFETCH_BATCH 2048
#define PREFETCH_DEPTH 4

struct trace_prefetch;

/* Start reading r ahead. The caller keeps owning r and must not use it until
 * trace_prefetch_stop(). */
int trace_prefetch_start(struct trace_reader *r, struct trace_prefetch **out,
			 struct gs_error *err);

/* The next event: 1 and *ev (valid until the next call), 0 at the end, or the reader's
 * negative code with its message in err. */
int trace_prefetch_next(struct trace_prefetch *p, const struct event **ev, struct gs_error *err);

/* Stop the reading thread (wherever it is) and free; accepts NULL. */
void trace_prefetch_stop(struct trace_prefetch *p);

#endif
