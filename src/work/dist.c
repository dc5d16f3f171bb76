/* dist.c - see dist.h for the histogram's layout and resolution. */
#include "work/dist.h"

#include <stdlib.h>

#include "core/error.h"

void dist_init(struct dist *d)
{
	d->n = 0;
	d->sum_ns = 0;
	d->min_ns = d->max_ns = 0;
	d->pos = NULL;
}

void dist_release(struct dist *d)
{
	if (!d)
		return;
	free(d->pos);
	d->pos = NULL;
}

/* The midpoint of a bucket's magnitudes [lo, lo + width). */
static double bucket_mid(unsigned b)
{
	unsigned e, sub;
	double lo, width;

	if (b < (1u << DIST_SUB_BITS))
		return b;
	e = (b - (1u << DIST_SUB_BITS)) / (1u << DIST_SUB_BITS) + DIST_SUB_BITS;
	sub = (b - (1u << DIST_SUB_BITS)) % (1u << DIST_SUB_BITS);
	width = (double)(1ull << (e - DIST_SUB_BITS));
	lo = ((1u << DIST_SUB_BITS) + sub) * width;
	return lo + (width - 1) / 2;
}

int dist_alloc(struct dist *d)
{
	d->pos = calloc(2 * DIST_BUCKETS, sizeof(*d->pos));
	return d->pos ? 0 : GS_ENOMEM;
}

void dist_merge_hist(struct dist *dst, const struct dist *src)
{
	if (!src->pos)
		return;
	for (unsigned b = 0; b < 2 * DIST_BUCKETS; b++)
		dst->pos[b] += src->pos[b];
}

double dist_quantile_ns(const struct dist *d, double q)
{
	u64 rank, seen = 0;
	double v = 0;
	bool found = false;

	if (!d->n)
		return 0;
	/* nearest rank: the smallest value with at least ceil(q n) samples at or below it */
	rank = (u64)((double)d->n * q);
	if ((double)rank < (double)d->n * q)
		rank++;
	if (rank < 1)
		rank = 1;
	/* ascending: negatives from the largest magnitude down, then the positives */
	for (int b = DIST_BUCKETS - 1; b >= 0 && !found; b--) {
		seen += d->pos[DIST_BUCKETS + b];
		if (seen >= rank) {
			v = -bucket_mid((unsigned)b);
			found = true;
		}
	}
	for (int b = 0; b < DIST_BUCKETS && !found; b++) {
		seen += d->pos[b];
		if (seen >= rank) {
			v = bucket_mid((unsigned)b);
			found = true;
		}
	}
	if (v < (double)d->min_ns)
		v = (double)d->min_ns;
	if (v > (double)d->max_ns)
		v = (double)d->max_ns;
	return v;
}

void dist_summary(const struct dist *d, struct run_dist *out)
{
	out->mean_s = d->n ? d->sum_ns / (double)d->n / (double)NSEC_PER_SEC : 0;
	out->p95_s = dist_quantile_ns(d, 0.95) / (double)NSEC_PER_SEC;
	out->max_s = d->n ? (double)d->max_ns / (double)NSEC_PER_SEC : 0;
}
