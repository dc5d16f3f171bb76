/*
 * kernel_overhead.c - the kernel's own overhead in the summary and in --json (see the header).
 */
#include "report/kernel_overhead.h"

#include <inttypes.h>


double kernel_overhead_busy_s(const struct run_result *r)
{
	double busy = 0;

	for (int c = 0; c < r->nr_clusters; c++)
		busy += r->pol[c].busy_s;
	return busy;
}

void kernel_overhead_print(FILE *out, const struct run_result *r)
{
	const struct run_overhead *o = &r->ovh;
	double busy = kernel_overhead_busy_s(r);

	if (!o->costed) {
		fprintf(out, "kernel overhead: no cost table for %s (calls only)\n", r->platform);
	} else {
		fprintf(out, "kernel overhead %.3f ms (%.2f %% of busy)", o->total_s * 1e3,
			busy > 0 ? 100.0 * o->total_s / busy : 0.0);
		if (r->timing[0] == 'w')
			fprintf(out, ", charged to the replay %+.3f ms", o->charged_s * 1e3);
		fputc('\n', out);
	}
	for (int i = 0; i < RUN_KERNEL_OPS; i++) {
		if (!o->calls[i])
			continue;
		fprintf(out, "  %-22s %12" PRIu64 " calls", run_kernel_op_names[i],
			o->calls[i]);
		if (o->costed)
			fprintf(out, " %12.3f ms", o->time_s[i] * 1e3);
		fputc('\n', out);
	}
}

void kernel_overhead_json(struct json_out *j, const struct run_result *r)
{
	const struct run_overhead *o = &r->ovh;
	double busy = kernel_overhead_busy_s(r);

	json_out_begin_object(j, "kernel_overhead");
	json_out_bool(j, "costed", o->costed);
	json_out_number(j, "total_s", o->total_s);
	json_out_number(j, "share_of_busy", busy > 0 ? o->total_s / busy : 0.0);
	json_out_number(j, "charged_s", o->charged_s);
	json_out_begin_array(j, "operations");
	for (int i = 0; i < RUN_KERNEL_OPS; i++) {
		json_out_begin_object(j, NULL);
		json_out_string(j, "operation", run_kernel_op_names[i]);
		json_out_int(j, "calls", (long long)o->calls[i]);
		json_out_number(j, "time_s", o->time_s[i]);
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_out_begin_array(j, "sched_by_depth");
	for (int d = 0; d < RUN_DEPTH_SLOTS; d++)
		json_out_int(j, NULL, (long long)o->sched_by_depth[d]);
	json_out_end_array(j);
	json_out_end_object(j);
}
