/* prefetch.c - read a trace ahead on another thread; see prefetch.h. */
#include "trace/prefetch.h"

#include <pthread.h>
#include <stdlib.h>

struct prefetch_batch {
	struct event ev[PREFETCH_BATCH];
	int n;
	bool end;            /* the reader returned 0 or an error after these events */
	int ret;             /* that return value */
	struct gs_error err; /* its message */
};

struct trace_prefetch {
	struct trace_reader *r;
	struct prefetch_batch *b; /* PREFETCH_DEPTH of them, a ring */
	pthread_t tid;
	bool threaded;
	pthread_mutex_t mu;
	pthread_cond_t data;  /* a batch was filled */
	pthread_cond_t space; /* a batch was released, or stop */
	size_t head;          /* the consumer's batch */
	size_t filled;        /* batches handed over and not yet released */
	bool stop;
	/* consumer side */
	struct prefetch_batch *cur;
	int pos;
};

/* Fill one batch from the reader: events until it is full or the reader ends. */
static void fill_batch(struct trace_reader *r, struct prefetch_batch *b)
{
	int ret = 1;

	b->n = 0;
	gs_error_clear(&b->err);
	while (b->n < PREFETCH_BATCH && (ret = trace_reader_next(r, &b->ev[b->n], &b->err)) == 1)
		b->n++;
	b->end = ret != 1;
	b->ret = ret == 1 ? 0 : ret;
}

static void *producer(void *arg)
{
	struct trace_prefetch *p = arg;

	for (;;) {
		struct prefetch_batch *b;
		bool end;

		pthread_mutex_lock(&p->mu);
		while (p->filled == PREFETCH_DEPTH && !p->stop)
			pthread_cond_wait(&p->space, &p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		b = &p->b[(p->head + p->filled) % PREFETCH_DEPTH];
		pthread_mutex_unlock(&p->mu);

		fill_batch(p->r, b); /* this slot is the producer's until it is handed over */
		end = b->end;

		pthread_mutex_lock(&p->mu);
		p->filled++;
		pthread_cond_signal(&p->data);
		pthread_mutex_unlock(&p->mu);
		if (end)
			return NULL;
	}
}

int trace_prefetch_start(struct trace_reader *r, struct trace_prefetch **out,
			 struct gs_error *err)
{
	struct trace_prefetch *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	p->b = malloc(PREFETCH_DEPTH * sizeof(*p->b));
	if (!p->b) {
		free(p);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	p->r = r;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->data, NULL);
	pthread_cond_init(&p->space, NULL);
	p->threaded = pthread_create(&p->tid, NULL, producer, p) == 0;
	*out = p;
	return 0;
}

int trace_prefetch_next(struct trace_prefetch *p, const struct event **ev, struct gs_error *err)
{
	for (;;) {
		if (p->cur && p->pos < p->cur->n) {
			*ev = &p->cur->ev[p->pos++];
			return 1;
		}
		if (p->cur && p->cur->end) {
			if (p->cur->ret && err)
				*err = p->cur->err;
			return p->cur->ret;
		}
		if (!p->threaded) {
			/* no thread: one batch slot, filled here */
			p->cur = &p->b[0];
			fill_batch(p->r, p->cur);
			p->pos = 0;
			continue;
		}
		pthread_mutex_lock(&p->mu);
		if (p->cur) { /* release the batch just consumed */
			p->head = (p->head + 1) % PREFETCH_DEPTH;
			p->filled--;
			pthread_cond_signal(&p->space);
		}
		while (p->filled == 0)
			pthread_cond_wait(&p->data, &p->mu);
		p->cur = &p->b[p->head];
		pthread_mutex_unlock(&p->mu);
		p->pos = 0;
	}
}

void trace_prefetch_stop(struct trace_prefetch *p)
{
	if (!p)
		return;
	if (p->threaded) {
		pthread_mutex_lock(&p->mu);
		p->stop = true;
		pthread_cond_signal(&p->space);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->tid, NULL);
	}
	pthread_cond_destroy(&p->data);
	pthread_cond_destroy(&p->space);
	pthread_mutex_destroy(&p->mu);
	free(p->b);
	free(p);
}
