/* result.c - see result.h. */
#include "core/result.h"

#include <stdlib.h>
#include <string.h>

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
}

void run_result_release(struct run_result *r)
{
	if (!r)
		return;
	free(r->tasks);
	free(r->timeline);
	r->tasks = NULL;
	r->timeline = NULL;
	r->nr_tasks = 0;
	r->nr_timeline = 0;
}
