/* cache.c - a trace's event stream held in memory as compact records; see cache.h. */
#include "trace/cache.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Records are appended to chunks of this size; none straddles two. A chunk is one huge page
 * where the kernel gives them (chunk_alloc()). */
#define CACHE_CHUNK_BYTES (2u << 20)
/* The common fields after the type byte: ts_ns, line, cpu, pid. */
#define CACHE_COMMON_BYTES (sizeof(u64) + sizeof(u64) + sizeof(s32) + sizeof(s32))

struct cache_chunk {
	unsigned char *data;
	size_t used;
};

struct trace_cache {
	char *file;
	struct reader_opts opts; /* as loaded; opts.name not kept */
	struct trace_stats st[3]; /* by enum trace_cache_moment */
	struct cache_chunk *chunks;
	size_t nr_chunks, cap_chunks;
	size_t bytes; /* allocated for records */
	u64 events;
};

unsigned long long trace_cache_max_bytes(void)
{
	const char *v = getenv("GOVSIM_CACHE_MAX_MB");
	unsigned long long mb = 0;

	if (!v || !*v)
		return (unsigned long long)TRACE_CACHE_MAX_MB_DEFAULT << 20;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9' || mb > (1ull << 30))
			return (unsigned long long)TRACE_CACHE_MAX_MB_DEFAULT << 20;
		mb = mb * 10 + (unsigned long long)(*p - '0');
	}
	if (mb > (1ull << 30))
		return (unsigned long long)TRACE_CACHE_MAX_MB_DEFAULT << 20;
	return mb << 20;
}

/* The union member of struct event that events of type t fill (event.h), in bytes. */
static size_t payload_bytes(enum event_type t)
{
	const struct event *e = NULL;

	switch (t) {
	case EV_SWITCH:
		return sizeof(e->sw);
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		return sizeof(e->wake);
	case EV_MIGRATE:
		return sizeof(e->migrate);
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
	case EV_FREQ_MARKER:
		return sizeof(e->power);
	case EV_HRTIMER_EXPIRE:
		return sizeof(e->timer);
	case EV_SOFTIRQ_ENTRY:
		return sizeof(e->softirq);
	case EV_BLOCKED_UPDATE:
		return sizeof(e->blocked);
	case EV_GOV_RAW_FREQ:
		return sizeof(e->raw);
	case EV_GOV_HOOK:
		return sizeof(e->hook);
	case EV_GOV_IDLE_CALLS:
		return sizeof(e->idle_calls);
	case EV_IOWAIT_BOOST:
		return sizeof(e->iowait);
	case EV_PROCESS_EXIT:
		return sizeof(e->proc);
	default: /* the util events; a type added later is kept whole */
		return sizeof(*e) - offsetof(struct event, sw);
	}
}

/* Where the union starts: every member begins there. */
static inline unsigned char *payload(struct event *ev)
{
	return (unsigned char *)&ev->sw;
}

static inline const unsigned char *payload_const(const struct event *ev)
{
	return (const unsigned char *)&ev->sw;
}

/*
 * A chunk aligned to its size and offered to the kernel as a transparent huge page. The forked
 * workers of a sweep each read every chunk once: in 4 KiB pages that is one page-table walk
 * (and, under some hypervisors, one trap to build a shadow entry) per page and per worker, a
 * cost that can reach a sixth of a worker's time, all of it on the copy out of the cache; a
 * huge page makes it one per 2 MiB. With THP off the advice is ignored.
 */
static unsigned char *chunk_alloc(void)
{
	void *p;

	if (posix_memalign(&p, CACHE_CHUNK_BYTES, CACHE_CHUNK_BYTES) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, CACHE_CHUNK_BYTES, MADV_HUGEPAGE);
#endif
	return p;
}

/* Room for one more record of `need` bytes: a new chunk when the last is full; GS_EUNSUPPORTED
 * past max_bytes, GS_ENOMEM. */
static int cache_room(struct trace_cache *c, size_t need, unsigned long long max_bytes,
		      struct gs_error *err)
{
	struct cache_chunk *last = c->nr_chunks ? &c->chunks[c->nr_chunks - 1] : NULL;

	if (last && last->used + need <= CACHE_CHUNK_BYTES)
		return 0;
	if (c->bytes + CACHE_CHUNK_BYTES > max_bytes)
		return gs_error_set(err, GS_EUNSUPPORTED,
				    "more than %llu MiB in memory after %llu events",
				    max_bytes >> 20, (unsigned long long)c->events);
	if (c->nr_chunks == c->cap_chunks) {
		size_t cap = c->cap_chunks ? 2 * c->cap_chunks : 64;
		struct cache_chunk *p = realloc(c->chunks, cap * sizeof(*p));
		if (!p)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		c->chunks = p;
		c->cap_chunks = cap;
	}
	last = &c->chunks[c->nr_chunks];
	last->data = chunk_alloc();
	if (!last->data)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	last->used = 0;
	c->nr_chunks++;
	c->bytes += CACHE_CHUNK_BYTES;
	return 0;
}

static int cache_put(struct trace_cache *c, const struct event *ev, unsigned long long max_bytes,
		     struct gs_error *err)
{
	size_t n = payload_bytes(ev->type);
	struct cache_chunk *k;
	unsigned char *p;
	int ret = cache_room(c, 1 + CACHE_COMMON_BYTES + n, max_bytes, err);

	if (ret)
		return ret;
	k = &c->chunks[c->nr_chunks - 1];
	p = k->data + k->used;
	*p++ = (unsigned char)ev->type;
	memcpy(p, &ev->ts_ns, sizeof(ev->ts_ns));
	p += sizeof(ev->ts_ns);
	memcpy(p, &ev->line, sizeof(ev->line));
	p += sizeof(ev->line);
	memcpy(p, &ev->cpu, sizeof(ev->cpu));
	p += sizeof(ev->cpu);
	memcpy(p, &ev->pid, sizeof(ev->pid));
	p += sizeof(ev->pid);
	memcpy(p, payload_const(ev), n);
	k->used += 1 + CACHE_COMMON_BYTES + n;
	c->events++;
	return 0;
}

int trace_cache_load(const char *file, const struct reader_opts *opts,
		     unsigned long long max_bytes, struct trace_cache **out, struct gs_error *err)
{
	struct trace_cache *c = calloc(1, sizeof(*c));
	struct trace_reader *rd = NULL;
	const struct event *ev;
	bool first = true;
	int ret;

	*out = NULL;
	if (!c || !(c->file = strdup(file))) {
		free(c);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	if (opts)
		c->opts = *opts;
	c->opts.name = NULL;
	ret = trace_reader_open(file, opts, &rd, err);
	if (ret)
		goto out_free;
	c->st[TRACE_CACHE_AT_OPEN] = *trace_reader_stats(rd);
	while ((ret = trace_reader_next_ref(rd, &ev, err)) == 1) {
		if (first) {
			c->st[TRACE_CACHE_AFTER_FIRST] = *trace_reader_stats(rd);
			first = false;
		}
		ret = cache_put(c, ev, max_bytes, err);
		if (ret)
			goto out_free;
	}
	if (ret)
		goto out_free;
	if (first)
		c->st[TRACE_CACHE_AFTER_FIRST] = *trace_reader_stats(rd);
	c->st[TRACE_CACHE_AT_END] = *trace_reader_stats(rd);
	trace_reader_free(rd);
	/* the last chunk is rarely full: give back what it does not use */
	if (c->nr_chunks) {
		struct cache_chunk *k = &c->chunks[c->nr_chunks - 1];
		unsigned char *p = realloc(k->data, k->used ? k->used : 1);
		if (p) {
			c->bytes -= CACHE_CHUNK_BYTES - k->used;
			k->data = p;
		}
	}
	*out = c;
	return 0;

out_free:
	trace_reader_free(rd);
	trace_cache_free(c);
	return ret;
}

bool trace_cache_matches(const struct trace_cache *c, const char *file,
			 const struct reader_opts *opts)
{
	struct reader_opts def = {0};

	if (!opts)
		opts = &def;
	return c && strcmp(c->file, file) == 0 && c->opts.format == opts->format &&
	       c->opts.strict == opts->strict &&
	       c->opts.reorder_window_ns == opts->reorder_window_ns &&
	       c->opts.allow_markers_only == opts->allow_markers_only;
}

const struct trace_stats *trace_cache_stats(const struct trace_cache *c,
					    enum trace_cache_moment when)
{
	return &c->st[when];
}

u64 trace_cache_events(const struct trace_cache *c)
{
	return c->events;
}

size_t trace_cache_bytes(const struct trace_cache *c)
{
	return c->bytes;
}

void trace_cache_rewind(const struct trace_cache *c, struct trace_cache_cursor *cur)
{
	cur->c = c;
	cur->chunk = 0;
	cur->off = 0;
}

int trace_cache_next(struct trace_cache_cursor *cur, struct event *ev)
{
	const struct trace_cache *c = cur->c;
	const unsigned char *p;

	while (cur->chunk < c->nr_chunks && cur->off >= c->chunks[cur->chunk].used) {
		cur->chunk++;
		cur->off = 0;
	}
	if (cur->chunk >= c->nr_chunks)
		return 0;
	p = c->chunks[cur->chunk].data + cur->off;
	ev->type = (enum event_type)*p++;
	memcpy(&ev->ts_ns, p, sizeof(ev->ts_ns));
	p += sizeof(ev->ts_ns);
	memcpy(&ev->line, p, sizeof(ev->line));
	p += sizeof(ev->line);
	memcpy(&ev->cpu, p, sizeof(ev->cpu));
	p += sizeof(ev->cpu);
	memcpy(&ev->pid, p, sizeof(ev->pid));
	p += sizeof(ev->pid);
	memcpy(payload(ev), p, payload_bytes(ev->type));
	cur->off += 1 + CACHE_COMMON_BYTES + payload_bytes(ev->type);
	return 1;
}

void trace_cache_free(struct trace_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_chunks; i++)
		free(c->chunks[i].data);
	free(c->chunks);
	free(c->file);
	free(c);
}
