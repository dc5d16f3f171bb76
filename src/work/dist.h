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

#include "core/types.h"
#include "core/result.h"

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
/* Add one sample; GS_ENOMEM when the histogram cannot be allocated. */
int dist_add(struct dist *d, s64 v_ns);
/* The fraction-q quantile (0 < q <= 1, nearest rank) in ns; 0 for an empty distribution. */
double dist_quantile_ns(const struct dist *d, double q);
/* Mean, p95 and max in seconds (0 for an empty distribution). */
void dist_summary(const struct dist *d, struct run_dist *out);

#endif
