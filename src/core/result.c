/* result.c - see result.h. */
#include "core/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
}

const char *const run_kernel_op_names[RUN_KERNEL_OPS] = {
	"activate_task",    "deactivate_task",      "cgroup_level",
	"uclamp_rq_inc_id", "uclamp_rq_dec_id",     "uclamp_static_branch",
	"cpufreq_update_util", "governor_eval",     "freq_switch",
};

void run_result_release(struct run_result *r)
{
	if (!r)
		return;
	free(r->tasks);
	free(r->timeline);
	free(r->slices);
	r->slices = NULL;
	r->nr_slices = 0;
	free(r->actions);
	r->actions = NULL;
	r->nr_actions = 0;
	r->tasks = NULL;
	r->timeline = NULL;
	r->nr_tasks = 0;
	r->nr_timeline = 0;
}

void run_result_note(struct run_result *r, const char *fmt, ...)
{
	size_t len = strlen(r->notes);
	va_list ap;

	if (len + 3 >= sizeof(r->notes))
		return;
	if (len) {
		memcpy(r->notes + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->notes + len, sizeof(r->notes) - len, fmt, ap);
	va_end(ap);
}
