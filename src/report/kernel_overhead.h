/*
 * kernel_overhead.h - the kernel's own overhead of a run (core/result.h struct run_overhead) in
 * the run summary and in --json.
 */
#ifndef GOVSIM_REPORT_KERNEL_OVERHEAD_H
#define GOVSIM_REPORT_KERNEL_OVERHEAD_H

#include <stdio.h>

#include "core/result.h"
#include "report/json.h"

/* The sum of the policies' busy time (s): what the overhead is a share of. */
double kernel_overhead_busy_s(const struct run_result *r);

/* "kernel overhead X ms (Y % of busy), charged to the replay Z ms" and one line per operation
 * with its calls and time; without a cost table, the counts alone. */
void kernel_overhead_print(FILE *out, const struct run_result *r);

/* "kernel_overhead": {"costed", "total_s", "share_of_busy", "charged_s", "operations": [...],
 * "sched_by_depth": [...]} */
void kernel_overhead_json(struct json_out *j, const struct run_result *r);

#endif
