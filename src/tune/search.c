/* search.c - tune's search over a staircase: (batch+1)-section and refined grids (search.h). */
#include "tune/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tune_search_init(struct tune_search *s, enum tune_goal goal, int nd, const long *nr)
{
	memset(s, 0, sizeof(*s));
	s->goal = goal;
	s->nd = nd;
	for (int d = 0; d < nd && d < TUNE_MAX_VARY; d++)
		s->nr[d] = nr[d];
	s->batch = 3;
	s->grid = 17;
	s->best = -1;
	s->fail_below = s->fail_above = -1;
	s->monotone = true;
}

void tune_search_release(struct tune_search *s)
{
	if (!s)
		return;
	free(s->pts);
	s->pts = NULL;
	s->n = s->alloc = 0;
}

long tune_search_find(const struct tune_search *s, const long *k)
{
	for (size_t i = 0; i < s->n; i++) {
		int d;
		for (d = 0; d < s->nd; d++)
			if (s->pts[i].k[d] != k[d])
				break;
		if (d == s->nd)
			return (long)i;
	}
	return -1;
}

/* --- a round ------------------------------------------------------------------------------- */

/* The points of the next round, before they are evaluated: appended to pts past s->n. */
struct round {
	size_t first, n;
};

static int cmp_k(const struct tune_point *a, const struct tune_point *b, int nd)
{
	for (int d = 0; d < nd; d++)
		if (a->k[d] != b->k[d])
			return a->k[d] < b->k[d] ? -1 : 1;
	return 0;
}

/* Add point k to the round unless it was evaluated or is in the round already. */
static int round_add(struct tune_search *s, struct round *r, const long *k)
{
	struct tune_point *p;

	for (int d = 0; d < s->nd; d++)
		if (k[d] < 0 || k[d] >= s->nr[d])
			return 0;
	if (tune_search_find(s, k) >= 0)
		return 0;
	for (size_t i = r->first; i < r->first + r->n; i++) {
		int d;
		for (d = 0; d < s->nd; d++)
			if (s->pts[i].k[d] != k[d])
				break;
		if (d == s->nd)
			return 0;
	}
	if (r->first + r->n == s->alloc) {
		size_t alloc = s->alloc ? s->alloc * 2 : 64;
		struct tune_point *pts = realloc(s->pts, alloc * sizeof(*pts));
		if (!pts)
			return GS_ENOMEM;
		s->pts = pts;
		s->alloc = alloc;
	}
	p = &s->pts[r->first + r->n++];
	memset(p, 0, sizeof(*p));
	for (int d = 0; d < s->nd; d++)
		p->k[d] = k[d];
	p->round = s->rounds;
	p->objective = NAN;
	return 0;
}

/* Sort the round by index, evaluate it, make it part of pts. */
static int round_eval(struct tune_search *s, struct round *r, tune_eval_fn eval, void *ctx,
		      struct gs_error *err)
{
	int rc;

	if (r->n == 0)
		return 0;
	/* insertion sort: a round is small, and this keeps it stable */
	for (size_t i = r->first + 1; i < r->first + r->n; i++) {
		struct tune_point p = s->pts[i];
		size_t j = i;
		while (j > r->first && cmp_k(&s->pts[j - 1], &p, s->nd) > 0) {
			s->pts[j] = s->pts[j - 1];
			j--;
		}
		s->pts[j] = p;
	}
	rc = eval(ctx, s->pts + r->first, r->n, err);
	if (rc)
		return rc;
	s->n += r->n;
	s->rounds++;
	return 0;
}

/* --- find the smallest / largest feasible value -------------------------------------------- */

/* Index i of the search (feasible upward-closed in i) to the value index k. */
static long find_k(const struct tune_search *s, long i)
{
	return s->goal == TUNE_FIND_LARGEST ? s->nr[0] - 1 - i : i;
}

static long find_point(const struct tune_search *s, long i)
{
	long k = find_k(s, i);
	return tune_search_find(s, &k);
}

/* Is point a less bad than point b when neither is feasible (fewest failures, least excess)? */
static bool less_bad(const struct tune_point *a, const struct tune_point *b)
{
	if (a->nr_fail != b->nr_fail)
		return a->nr_fail < b->nr_fail;
	return a->excess < b->excess;
}

static void find_margin(struct tune_search *s, long answer_i)
{
	long below = -1, above = -1;

	for (size_t p = 0; p < s->n; p++) {
		long i = s->goal == TUNE_FIND_LARGEST ? s->nr[0] - 1 - s->pts[p].k[0]
						      : s->pts[p].k[0];
		if (s->pts[p].feasible)
			continue;
		if (i < answer_i && (below < 0 || i > below))
			below = i;
		if (i > answer_i && (above < 0 || i < above))
			above = i;
	}
	s->monotone = above < 0;
	/* in value order: the mirror (largest) swaps them */
	if (s->goal == TUNE_FIND_LARGEST) {
		long t = below;
		below = above;
		above = t;
	}
	s->fail_below = below >= 0 ? find_point(s, below) : -1;
	s->fail_above = above >= 0 ? find_point(s, above) : -1;
}

static int search_find(struct tune_search *s, tune_eval_fn eval, void *ctx, struct gs_error *err)
{
	long last = s->nr[0] - 1, lo_bad, hi_good, k;
	struct round r = {.first = s->n};
	int rc;

	k = find_k(s, 0);
	if ((rc = round_add(s, &r, &k)))
		return rc;
	k = find_k(s, last);
	if ((rc = round_add(s, &r, &k)) || (rc = round_eval(s, &r, eval, ctx, err)))
		return rc;
	if (!s->pts[find_point(s, last)].feasible) {
		/* infeasible at the best end: the best found of the two */
		long a = find_point(s, 0), b = find_point(s, last);
		s->best = less_bad(&s->pts[a], &s->pts[b]) ? a : b;
		s->feasible = false;
		return 0;
	}
	hi_good = last;
	lo_bad = s->pts[find_point(s, 0)].feasible ? -1 : 0;
	if (lo_bad < 0)
		hi_good = 0;
	while (hi_good - lo_bad > 1) {
		long width = hi_good - lo_bad, new_hi = hi_good;
		r = (struct round){.first = s->n};
		for (long j = 1; j <= s->batch; j++) {
			long i = lo_bad + (long)((double)width * (double)j / (s->batch + 1));
			if (i <= lo_bad || i >= hi_good)
				continue;
			k = find_k(s, i);
			if ((rc = round_add(s, &r, &k)))
				return rc;
		}
		if (r.n == 0 && width > 1) { /* a batch that rounded onto the ends: the middle */
			k = find_k(s, lo_bad + width / 2);
			if ((rc = round_add(s, &r, &k)))
				return rc;
		}
		if ((rc = round_eval(s, &r, eval, ctx, err)))
			return rc;
		/* the smallest feasible point of the interval; the largest failing below it */
		for (long i = lo_bad + 1; i < hi_good; i++) {
			long p = find_point(s, i);
			if (p >= 0 && s->pts[p].feasible) {
				new_hi = i;
				break;
			}
		}
		for (long i = new_hi - 1; i > lo_bad; i--) {
			long p = find_point(s, i);
			if (p >= 0 && !s->pts[p].feasible) {
				lo_bad = i;
				break;
			}
		}
		hi_good = new_hi;
	}
	s->best = find_point(s, hi_good);
	s->feasible = true;
	find_margin(s, hi_good);
	return 0;
}

/* --- minimise / maximise ------------------------------------------------------------------- */

/* Is point a better than b? Feasible first, then the objective (NAN worst), then indices. */
static bool better(const struct tune_search *s, const struct tune_point *a,
		   const struct tune_point *b)
{
	double oa = a->objective, ob = b->objective;

	if (a->feasible != b->feasible)
		return a->feasible;
	if (!a->feasible && (a->nr_fail != b->nr_fail || a->excess != b->excess))
		return less_bad(a, b);
	if (s->goal == TUNE_MAXIMIZE)
		oa = -oa, ob = -ob;
	if (isnan(oa) != isnan(ob))
		return isnan(ob);
	if (!isnan(oa) && oa != ob)
		return oa < ob;
	return cmp_k(a, b, s->nd) < 0;
}

/* The two best points so far (top[1] -1 when there is one point). */
static void best_two(const struct tune_search *s, long top[2])
{
	top[0] = top[1] = -1;
	for (size_t i = 0; i < s->n; i++) {
		if (top[0] < 0 || better(s, &s->pts[i], &s->pts[top[0]])) {
			top[1] = top[0];
			top[0] = (long)i;
		} else if (top[1] < 0 || better(s, &s->pts[i], &s->pts[top[1]])) {
			top[1] = (long)i;
		}
	}
}

/* Add the points around centre c at spacing step within +-(h - 1) (a grid cell each side). */
static int add_window(struct tune_search *s, struct round *r, const long *c, const long *h,
		      const long *step)
{
	long m[TUNE_MAX_VARY] = {0}, k[TUNE_MAX_VARY] = {0};
	int rc;

	for (int d = 0; d < s->nd; d++)
		m[d] = (h[d] - 1) / step[d];
	for (long a = -m[0]; a <= m[0]; a++) {
		long b_lo = s->nd > 1 ? -m[1] : 0, b_hi = s->nd > 1 ? m[1] : 0;
		for (long b = b_lo; b <= b_hi; b++) {
			k[0] = c[0] + a * step[0];
			if (s->nd > 1)
				k[1] = c[1] + b * step[1];
			if ((rc = round_add(s, r, k)))
				return rc;
		}
	}
	return 0;
}

static int grid_round(struct tune_search *s, const long *h, tune_eval_fn eval, void *ctx,
		      struct gs_error *err)
{
	struct round r = {.first = s->n};
	long k[TUNE_MAX_VARY] = {0};
	int rc;

	for (long a = 0;; a += h[0]) {
		k[0] = a < s->nr[0] ? a : s->nr[0] - 1;
		for (long b = 0; s->nd < 2 || b < s->nr[1] + h[1] - 1; b += h[1]) {
			if (s->nd > 1)
				k[1] = b < s->nr[1] ? b : s->nr[1] - 1;
			if ((rc = round_add(s, &r, k)))
				return rc;
			if (s->nd < 2)
				break;
		}
		if (a >= s->nr[0] - 1)
			break;
	}
	return round_eval(s, &r, eval, ctx, err);
}

static void minimize_margin(struct tune_search *s)
{
	const struct tune_point *b = &s->pts[s->best];
	long best_dist = -1;

	for (size_t i = 0; i < s->n; i++) {
		const struct tune_point *p = &s->pts[i];
		long dist = 0;
		if (p->feasible)
			continue;
		if (s->nd == 1) {
			if (p->k[0] < b->k[0] &&
			    (s->fail_below < 0 || p->k[0] > s->pts[s->fail_below].k[0]))
				s->fail_below = (long)i;
			if (p->k[0] > b->k[0] &&
			    (s->fail_above < 0 || p->k[0] < s->pts[s->fail_above].k[0]))
				s->fail_above = (long)i;
			continue;
		}
		for (int d = 0; d < s->nd; d++)
			dist += labs(p->k[d] - b->k[d]);
		if (best_dist < 0 || dist < best_dist)
			best_dist = dist, s->fail_below = (long)i;
	}
}

static int search_minimize(struct tune_search *s, tune_eval_fn eval, void *ctx,
			   struct gs_error *err)
{
	long h[TUNE_MAX_VARY] = {1, 1}, step[TUNE_MAX_VARY] = {1, 1};
	int shrink = s->nd > 1 ? 2 : 4, rc;
	int grid = s->grid < 2 ? 2 : s->grid;

	for (int d = 0; d < s->nd; d++) {
		h[d] = (s->nr[d] - 1 + grid - 2) / (grid - 1);
		if (h[d] < 1)
			h[d] = 1;
	}
	if ((rc = grid_round(s, h, eval, ctx, err)))
		return rc;
	for (;;) {
		struct round r = {.first = s->n};
		long top[2];
		bool fine = true;

		for (int d = 0; d < s->nd; d++) {
			step[d] = h[d] / shrink > 1 ? h[d] / shrink : 1;
			fine = fine && h[d] == 1;
		}
		if (fine)
			break;
		best_two(s, top);
		for (int t = 0; t < 2; t++) {
			long c[TUNE_MAX_VARY];
			if (top[t] < 0)
				continue;
			memcpy(c, s->pts[top[t]].k, sizeof(c));
			if ((rc = add_window(s, &r, c, h, step)))
				return rc;
		}
		if ((rc = round_eval(s, &r, eval, ctx, err)))
			return rc;
		memcpy(h, step, sizeof(h));
	}
	{
		long top[2];
		best_two(s, top);
		s->best = top[0];
	}
	s->feasible = s->pts[s->best].feasible;
	minimize_margin(s);
	return 0;
}

int tune_search_run(struct tune_search *s, tune_eval_fn eval, void *ctx, struct gs_error *err)
{
	for (int d = 0; d < s->nd; d++)
		if (s->nr[d] < 1)
			return gs_error_set(err, GS_EARG, "an unknown with no value to try");
	if (s->nd < 1 || s->nd > TUNE_MAX_VARY)
		return gs_error_set(err, GS_EARG, "one or two unknowns");
	if (s->goal == TUNE_FIND_SMALLEST || s->goal == TUNE_FIND_LARGEST) {
		if (s->nd != 1)
			return gs_error_set(err, GS_EARG,
					    "--find takes one unknown (two: --minimize or --maximize)");
		if (s->batch < 1)
			s->batch = 1;
		return search_find(s, eval, ctx, err);
	}
	return search_minimize(s, eval, ctx, err);
}
