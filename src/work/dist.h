/*
 * dist.h - a distribution of durations (ns, signed) in bounded memory: count, mean, exact
 * min/max, and p95 from a log-linear histogram.
 *
 * Resolution. Magnitudes below 16 ns have a bucket each (exact). Above, every power-of-two
 * octave [2^e, 2^(e+1)) is split into 16 equal buckets, so a bucket is at most 1/16 of its
 * lower edge wide; a percentile is reported as its bucket's midpoint, clamped to the exact
 * [min, max] seen: within 1/32 (3.1 %) of the nearest-rank percentile (exact when all samples
 * fall in one bucket, e.g. equal values). Magnitudes at or above 2^44 ns (4.9 h) share the top
 * bucket. Negative values (lateness ahead of the trace) have a histogram of their own.
 * Memory: 2 x 656 counters (5.2 KB) per distribution, allocated at the first sample; it does
 * not grow with the number of samples.
 *
 * Caller-owned: zero-initialise (or dist_init()), dist_release().
 */
#ifndef GOVSIM_WORK_DIST_H
#define GOVSIM_WORK_DIST_H

#include "core/error.h"
#include "core/result.h"
#include "core/types.h"

#define DIST_SUB_BITS 4
#define DIST_BUCKETS (16 + 40 * 16) /* 2^4 exact, octaves 2^4 .. 2^44 */

struct dist {
	u64 n;
	double sum_ns;
	s64 min_ns, max_ns;
	u32 *pos; /* DIST_BUCKETS counters of values >= 0, then DIST_BUCKETS of -values > 0 */
};

void dist_init(struct dist *d);
void dist_release(struct dist *d);
/* The histogram's allocation, at the first sample (GS_ENOMEM when it cannot be made). */
int dist_alloc(struct dist *d);

/* The bucket of a magnitude: exact below 16, then 16 buckets per octave. */
static inline unsigned dist_bucket_of(u64 v)
{
	unsigned e, sub;

	if (v < (1u << DIST_SUB_BITS))
		return (unsigned)v;
	if (v >= (1ull << 44))
		return DIST_BUCKETS - 1;
	e = 63u - (unsigned)__builtin_clzll(v); /* 4 .. 43 */
	sub = (unsigned)(v >> (e - DIST_SUB_BITS)) & ((1u << DIST_SUB_BITS) - 1);
	return (1u << DIST_SUB_BITS) + (e - DIST_SUB_BITS) * (1u << DIST_SUB_BITS) + sub;
}

/* A sample's count, sum, min and max without its histogram counter: for a distribution whose
 * histogram is the sum of others' (dist_merge_hist()), each of which dist_add() got the sample.
 * The sum and extremes are kept per sample, in the samples' order, as dist_add() keeps them. */
static inline void dist_note(struct dist *d, s64 v)
{
	if (d->n == 0 || v < d->min_ns)
		d->min_ns = v;
	if (d->n == 0 || v > d->max_ns)
		d->max_ns = v;
	d->n++;
	d->sum_ns += (double)v;
}

/* Add src's histogram counters to dst's, whose histogram is allocated (dist_alloc()); src's
 * count, sum and extremes are not added (dst keeps its own with dist_note()). */
void dist_merge_hist(struct dist *dst, const struct dist *src);

/* Add one sample; GS_ENOMEM when the histogram cannot be allocated. Inline: the work layer
 * adds a measurement to its task's distribution at every activation. */
static inline int dist_add(struct dist *d, s64 v)
{
	if (!d->pos && dist_alloc(d))
		return GS_ENOMEM;
	if (v >= 0)
		d->pos[dist_bucket_of((u64)v)]++;
	else
		d->pos[DIST_BUCKETS + dist_bucket_of((u64)(-(v + 1)) + 1)]++;
	dist_note(d, v);
	return 0;
}
/* The fraction-q quantile (0 < q <= 1, nearest rank) in ns; 0 for an empty distribution. */
double dist_quantile_ns(const struct dist *d, double q);
/* Mean, p95 and max in seconds (0 for an empty distribution). */
void dist_summary(const struct dist *d, struct run_dist *out);

#endif
