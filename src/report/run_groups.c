/* run_groups.c - stored runs grouped by trace and platform; see run_groups.h. */

#include "report/run_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* "rtapp_switch/trace.txt": the file and its folder, since trace files are often trace.txt. */
const char *run_groups_trace_short(const char *path)
{
	const char *last = strrchr(path, '/');

	if (!last)
		return path;
	for (const char *q = last - 1; q >= path; q--)
		if (*q == '/')
			return q + 1;
	return path;
}

bool run_groups_same(const struct run_result *a, const struct run_result *b)
{
	return strcmp(a->trace, b->trace) == 0 && strcmp(a->platform, b->platform) == 0;
}

void run_groups_free(struct run_groups *g)
{
	for (size_t i = 0; g->names && i < g->nr_groups; i++)
		free(g->names[i]);
	free(g->names);
	free(g->runs);
	free(g->ids);
	free(g->group);
}

int run_groups_new(const struct run_result *runs, const s64 *ids, size_t n, struct run_groups *g)
{
	bool *done = calloc(n, sizeof(*done));
	size_t k = 0;

	memset(g, 0, sizeof(*g));
	g->runs = malloc(n * sizeof(*g->runs));
	g->ids = malloc(n * sizeof(*g->ids));
	g->group = malloc(n * sizeof(*g->group));
	g->names = calloc(n, sizeof(*g->names));
	if (!done || !g->runs || !g->ids || !g->group || !g->names)
		goto out_nomem;
	for (size_t i = 0; i < n; i++) {
		char name[1200];

		if (done[i])
			continue;
		snprintf(name, sizeof(name), "%s on %s", run_groups_trace_short(runs[i].trace),
			 runs[i].platform);
		if (!(g->names[g->nr_groups] = strdup(name)))
			goto out_nomem;
		for (size_t j = i; j < n; j++)
			if (!done[j] && run_groups_same(&runs[i], &runs[j])) {
				done[j] = true;
				g->runs[k] = runs[j];
				g->ids[k] = ids[j];
				g->group[k++] = (int)g->nr_groups;
			}
		g->nr_groups++;
	}
	free(done);
	return 0;
out_nomem:
	free(done);
	run_groups_free(g);
	return GS_ENOMEM;
}

/* The index of the first run of run i's group (the groups' runs are consecutive in g). */
size_t run_groups_first(const struct run_groups *g, size_t i)
{
	while (i > 0 && g->group[i - 1] == g->group[i])
		i--;
	return i;
}

