/*
 * types.h - units and limits shared by every stage.
 *
 * Time is trace time in nanoseconds (u64, `_ns`). Utilization, capacity and clamps share the
 * kernel's one scale, SCHED_CAPACITY_SCALE (1024). Frequencies are kHz as in cpufreq.
 */
#ifndef GOVSIM_CORE_TYPES_H
#define GOVSIM_CORE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

#define SCHED_FIXEDPOINT_SHIFT 10
#define SCHED_CAPACITY_SHIFT   10
#define SCHED_CAPACITY_SCALE   (1L << SCHED_CAPACITY_SHIFT)

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC  1000000000ULL

/* Kernel's TASK_COMM_LEN: 15 characters and the NUL. Longer comms are truncated. */
#define TASK_COMM_LEN 16

/* Limits of the fixed-size state; a platform or trace beyond them is rejected as bad input. */
#define GS_MAX_CPUS        64
#define GS_MAX_CLUSTERS    16
#define GS_MAX_OPPS        32
#define GS_MAX_IDLE_STATES 8

#define GS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline u64 gs_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 gs_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

#endif
