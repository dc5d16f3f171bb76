/*
 * public_abi.h - what the built-in governors written against the public interface share, and
 * nothing else of govsim: include/govsim/governor.h, the kernel's names for its types and
 * constants, and the report of a governor that does not read utilization.
 *
 * The definitions repeat core/types.h token for token, so a file may include both.
 */
#ifndef GOVSIM_GOV_PUBLIC_ABI_H
#define GOVSIM_GOV_PUBLIC_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "govsim/governor.h"

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;

#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
#define NSEC_PER_USEC        1000ULL

extern const struct govsim_governor performance_governor;
extern const struct govsim_governor powersave_governor;
extern const struct govsim_governor userspace_governor;

/* For governors that do not read utilization (performance, powersave, userspace): report one
 * evaluation of `cpu` (when the host reads them) with the CPU's signals, clamps 0/1024,
 * util 0 and target_khz as given; the host adds the frequency in force. */
static inline void gov_report_no_util(struct govsim_policy *pol, int cpu, u64 now_ns,
				    unsigned int target_khz)
{
	struct govsim_eval e = {0};

	if (!pol->report)
		return;
	e.time_ns = now_ns;
	e.cpu = cpu;
	e.policy = pol->cpus[0];
	govsim_cpu_util(pol, cpu, &e.in);
	e.uclamp_min = 0;
	e.uclamp_max = SCHED_CAPACITY_SCALE;
	e.util = 0;
	e.target_khz = target_khz;
	govsim_report(pol, &e);
}

#endif
