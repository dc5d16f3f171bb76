/*
 * run_groups.h - stored runs grouped by trace and platform, for the report's cross-run figures
 * and tables: a run is compared only with runs of its own group (the same trace replayed on the
 * same platform), never with another trace's.
 *
 * run_groups_new() orders the groups as their first run was given and the runs of a group in
 * their given order, so each group's first run comes first: the reference of its relative
 * figures. runs/ids are shallow copies in that order; group[i] is run i's group, names[g] its
 * name, "trace on platform". run_groups_free() releases what run_groups_new() allocated.
 */
#ifndef GOVSIM_REPORT_RUN_GROUPS_H
#define GOVSIM_REPORT_RUN_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/types.h"

struct run_groups {
	struct run_result *runs;
	s64 *ids;
	int *group;
	char **names;
	size_t nr_groups;
};

/* 0, or GS_ENOMEM (g then holds nothing to free). */
int run_groups_new(const struct run_result *runs, const s64 *ids, size_t n, struct run_groups *g);
void run_groups_free(struct run_groups *g);

/* Whether a and b replay the same trace on the same platform. */
bool run_groups_same(const struct run_result *a, const struct run_result *b);

/* The index (in g->runs) of the first run of run i's group. */
size_t run_groups_first(const struct run_groups *g, size_t i);

/* "rtapp_switch/trace.txt": a trace path's file and its folder (trace files are often
 * trace.txt). A pointer into path. */
const char *run_groups_trace_short(const char *path);

#endif
