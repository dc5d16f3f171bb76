/*
 * cache.h - a trace read once into memory, to be replayed many times.
 *
 * A sweep, a tune or `validate --kernel all` replays one trace under many configurations; each
 * replay reading and parsing the file again costs more than the replay itself. A trace_cache
 * holds the reader's whole event stream, in the reader's (time) order, as compact records: a
 * type byte, the common fields (ts_ns, line, cpu, pid: 24 bytes) and the bytes of the one union
 * member of struct event that type uses (8 bytes for cpu_idle and cpu_frequency, 32 for the
 * wakeups, 52 for sched_switch, 128 for the util events): 33 to 153 bytes an event instead of
 * sizeof(struct event), 160. A cursor decodes them back into struct event one at a time, the
 * same fields with the same values the reader gave, so a replay from the cache is the replay
 * from the file.
 *
 * Besides the events it keeps the reader's statistics at three moments a replay looks at: right
 * after the open (the header: format, kernel release, CPU count), after the first event (what a
 * text header or Perfetto's first packets say), and at the end.
 *
 * Memory is bounded: a load stops, frees what it held and says so (GS_EUNSUPPORTED) as soon as
 * the records pass `max_bytes`; the caller then replays from the file as before.
 * trace_cache_max_bytes() gives the bound GOVSIM_CACHE_MAX_MB sets (default
 * TRACE_CACHE_MAX_MB_DEFAULT, 1 GiB: about 18 million events of a typical scheduler trace).
 *
 * Opaque handle: trace_cache_load()/trace_cache_free(). Read-only once loaded: forked workers
 * share it.
 */
#ifndef GOVSIM_TRACE_CACHE_H
#define GOVSIM_TRACE_CACHE_H

#include <stddef.h>

#include "core/error.h"
#include "core/event.h"
#include "trace/reader.h"

#define TRACE_CACHE_MAX_MB_DEFAULT 1024u

struct trace_cache;

/* The bound on a cache's records in bytes: GOVSIM_CACHE_MAX_MB (MiB, 0 to 2^30; 0 turns the
 * cache off), or TRACE_CACHE_MAX_MB_DEFAULT MiB when it is unset or not such a number. */
unsigned long long trace_cache_max_bytes(void);

/*
 * Read `file` whole with `opts` (opts->name names it in the statistics' messages) into a new
 * cache. 0 and *out; GS_EUNSUPPORTED when its records pass max_bytes (err says how far it got);
 * the reader's code (GS_ETRACE, GS_EIO, GS_ENOMEM) when reading fails; *out NULL on failure.
 */
int trace_cache_load(const char *file, const struct reader_opts *opts,
		     unsigned long long max_bytes, struct trace_cache **out, struct gs_error *err);

/* Whether c was loaded from `file` with options that give the same events as `opts`
 * (format, strict, re-ordering window, markers-only; the name in messages aside). */
bool trace_cache_matches(const struct trace_cache *c, const char *file,
			 const struct reader_opts *opts);

enum trace_cache_moment {
	TRACE_CACHE_AT_OPEN,     /* trace_reader_stats() right after trace_reader_open() */
	TRACE_CACHE_AFTER_FIRST, /* after the first trace_reader_next() */
	TRACE_CACHE_AT_END,      /* after the last */
};
const struct trace_stats *trace_cache_stats(const struct trace_cache *c,
					    enum trace_cache_moment when);

u64 trace_cache_events(const struct trace_cache *c);
/* The memory the records take, in bytes (what max_bytes bounds). */
size_t trace_cache_bytes(const struct trace_cache *c);

/* A position in a cache; plain data, one per pass. */
struct trace_cache_cursor {
	const struct trace_cache *c;
	size_t chunk;
	size_t off;
};

/* A cursor at c's first event. */
void trace_cache_rewind(const struct trace_cache *c, struct trace_cache_cursor *cur);

/* The next event into *ev: 1, or 0 at the end. Only ev's common fields and its type's union
 * member are written. */
int trace_cache_next(struct trace_cache_cursor *cur, struct event *ev);

void trace_cache_free(struct trace_cache *c);

#endif
