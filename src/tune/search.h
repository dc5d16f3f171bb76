/*
 * search.h - where to evaluate next, for `govsim tune`: the varied values are indices
 * k = 0 .. nr - 1 of a grid (spec.h), one or two of them; an evaluator (the command: it runs
 * the replays) says of each point whether every constraint holds and what the objective is.
 *
 * The response of a clamp or a tunable is a staircase (a value maps to an OPP; many values to the
 * same one), so the search works on the indices, in rounds of points evaluated together:
 *
 * - TUNE_FIND_SMALLEST (one unknown): the smallest feasible value, for a feasibility that only
 *   grows with the value (a uclamp_min that makes a deadline). Round 0 evaluates both ends; then
 *   each round splits the interval between the largest failing and the smallest feasible value
 *   known with `batch` evenly spaced points (a (batch + 1)-section: bisection for batch 1) until
 *   they are neighbours. TUNE_FIND_LARGEST is the mirror image. A feasible point evaluated below
 *   a failing one says the constraint was not monotone (tune_search.monotone false).
 * - TUNE_MINIMIZE / TUNE_MAXIMIZE: the objective over the feasible values. Round 0 is a grid of
 *   `grid` points per unknown (the ends included); each next round takes the two best points so
 *   far and evaluates, around each, the interval between its grid neighbours at a finer spacing
 *   (a quarter; a half with two unknowns) until the spacing is one step. The best is the
 *   feasible point with the least objective (greatest for MAXIMIZE), ties to the lower indices;
 *   without a feasible point, the one with the fewest failing constraints, then the least excess.
 *   Not GSL's minimisers: they need a continuous objective, and a staircase has zero slope almost
 *   everywhere and jumps in between (Brent's method stalls on a plateau).
 *
 * Which points are evaluated depends only on nr, batch, grid and the evaluations: never on how
 * many run at once. Each round's points are passed to the evaluator sorted by index.
 */
#ifndef GOVSIM_TUNE_SEARCH_H
#define GOVSIM_TUNE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "tune/spec.h"

enum tune_goal { TUNE_FIND_SMALLEST, TUNE_FIND_LARGEST, TUNE_MINIMIZE, TUNE_MAXIMIZE };

struct tune_point {
	long k[TUNE_MAX_VARY];  /* value indices (unused dimensions 0) */
	int round;
	/* the evaluator's answer */
	bool feasible;          /* every constraint holds on every trace */
	double objective;       /* MINIMIZE/MAXIMIZE; NAN counts as the worst */
	int nr_fail;            /* failing (constraint, trace) pairs */
	double excess;          /* summed tune_constraint_excess() of those */
};

struct tune_search {
	enum tune_goal goal;
	int nd;                 /* unknowns, 1 or 2 */
	long nr[TUNE_MAX_VARY];
	int batch;              /* points per round of a find, >= 1 */
	int grid;               /* points per unknown of the first minimise round, >= 2 */
	/* every point evaluated, in evaluation order (rounds in order, each sorted by index) */
	struct tune_point *pts;
	size_t n, alloc;
	int rounds;
	/* the answer */
	long best;              /* index into pts, -1 before the search */
	bool feasible;          /* best is feasible */
	bool monotone;          /* find: no failing point beyond the answer */
	long fail_below, fail_above; /* nearest evaluated failing points around best (pts index, -1
				      * none); with two unknowns fail_below is the nearest (L1) */
};

/* Evaluate pts[0 .. n-1] (k and round set): fill feasible, objective, nr_fail, excess. Returns
 * 0, or a GS_E* code with err set (the search stops with it). */
typedef int (*tune_eval_fn)(void *ctx, struct tune_point *pts, size_t n, struct gs_error *err);

/* nd 1 or 2 (2 only for MINIMIZE/MAXIMIZE), nr[d] >= 1; batch 3, grid 17 by default. */
void tune_search_init(struct tune_search *s, enum tune_goal goal, int nd, const long *nr);
void tune_search_release(struct tune_search *s);

/* Run the search to its end; GS_EARG for a find with two unknowns, GS_ENOMEM, or the
 * evaluator's code. */
int tune_search_run(struct tune_search *s, tune_eval_fn eval, void *ctx, struct gs_error *err);

/* The point of pts with indices k, or -1. */
long tune_search_find(const struct tune_search *s, const long *k);

#endif
