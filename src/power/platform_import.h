/*
 * platform_import.h - a platform model built from what a device or a tool says about it, and
 * written out as SQL against models/schema.sql.
 *
 * Two sources fill the same plain struct plat_import:
 *   - LISA's plat_info.yml (platform_import_lisa): cpu-capacities, freq-domains, freqs and the
 *     nrg-model's per-CPU busy and idle power;
 *   - a directory dumped from a running kernel by tools/collect-platform.sh
 *     (platform_import_sysfs): cpufreq policies, cpu_capacity, cpuidle states, the energy
 *     model from debugfs, the kernel release, x86 frequency invariance.
 * platform_import_sql() turns it into the text of a model file. Every row carries a source
 * naming the file (and, for YAML, the line) its numbers come from, or the rule that supplied
 * what no file gives ("ASSUMED ..."); docs/platform-import.md lists the rules.
 *
 * The struct is large (a few hundred KiB): allocate it (calloc) rather than on the stack.
 */
#ifndef GOVSIM_POWER_PLATFORM_IMPORT_H
#define GOVSIM_POWER_PLATFORM_IMPORT_H

#include <stdbool.h>

#include "core/error.h"
#include "core/types.h"

#define PIMP_SOURCE_MAX 320
#define PIMP_NAME_MAX   64

struct pimp_opp {
	u32 freq_khz;
	long power_mw;     /* the em power (mW); 0: none given (platform_import_sql applies the rule) */
	double cost_capacity; /* the EAS v1 cost table's capacity; < 0: no cost row */
	long cost_power;
	char source[PIMP_SOURCE_MAX];
};

struct pimp_idle {
	char name[PIMP_NAME_MAX];
	bool cluster_level;
	long wakeup_latency_us;  /* < 0: not given (0 assumed, the source says so) */
	long min_residency_us;   /* < 0: not given */
	long cost_power;         /* < 0: no cost row */
	char source[PIMP_SOURCE_MAX];
};

struct pimp_cluster {
	int nr_cpus;
	int cpus[GS_MAX_CPUS];        /* ascending */
	long transition_latency_ns;   /* < 0: not given */
	char source[PIMP_SOURCE_MAX]; /* where the CPUs and the latency come from */
	int nr_opps;
	struct pimp_opp opps[GS_MAX_OPPS]; /* ascending frequency */
	int nr_idle;
	struct pimp_idle idle[GS_MAX_IDLE_STATES];
};

struct plat_import {
	char name[PIMP_NAME_MAX];
	char description[256];
	char source[PIMP_SOURCE_MAX];
	int nr_cpus;
	u32 capacity[GS_MAX_CPUS]; /* 0: not given (1024 assumed, the source says so) */
	char capacity_source[GS_MAX_CPUS][PIMP_SOURCE_MAX];
	int nr_clusters;
	struct pimp_cluster clusters[GS_MAX_CLUSTERS];
	bool has_costs;     /* the source gives EAS v1 busy and idle costs (LISA nrg-model) */
	int freq_invariant; /* -1: no row (the schema's default, 1); 0 or 1 with fi_source */
	char fi_source[PIMP_SOURCE_MAX];
	/* the cpufreq driver's name and dvfs_possible_from_any_cpu (-1: not known, no row) */
	char driver[64];
	int dvfs_any_cpu;
	char driver_source[PIMP_SOURCE_MAX];
	long latency_override_ns; /* >= 0: every cluster's transition latency (a user's value) */
};

/* An empty model: nothing given yet, freq_invariant -1, latency_override_ns -1. */
void platform_import_init(struct plat_import *m);

/* 1 when the cpufreq driver `driver` (scaling_driver) lets any CPU switch a policy's frequency,
 * 0 when only the policy's own CPUs, -1 for a driver govsim does not know. */
int platform_import_driver_dvfs_any_cpu(const char *driver);

/*
 * Fill *m from LISA's plat_info.yml at `path` (the platform-info: conf: map; tags such as
 * !!python/object are ignored, anchors followed). 0, or GS_EINPUT ("'f.yml':12: freq-domains:
 * expected a list of CPU lists") / GS_EIO / GS_ENOMEM with the detail in err.
 */
int platform_import_lisa(const char *path, struct plat_import *m, struct gs_error *err);

/*
 * Fill *m from a directory written by tools/collect-platform.sh (paths under it mirror the
 * device's: DIR/sys/devices/system/cpu/cpufreq/policyN/..., DIR/sys/kernel/debug/energy_model/,
 * DIR/proc/cpuinfo, DIR/uname-r). 0, or GS_EINPUT naming the file and what was wrong.
 */
int platform_import_sysfs(const char *dir, struct plat_import *m, struct gs_error *err);

/*
 * The model as SQL text for models/schema.sql, in *sql (malloc'd; the caller frees). Clusters
 * are sorted by their first CPU. Rules for what the source does not give are applied here and
 * named in the rows' sources. 0, GS_EINPUT (nothing to model: no CPU, a CPU in no policy or in
 * two) or GS_ENOMEM.
 */
int platform_import_sql(const struct plat_import *m, char **sql, struct gs_error *err);

/* The rule for a policy without power figures: em power = round(1000 * cap/1024 * (f/fmax)^3)
 * mW, at least 1, where cap is the policy's CPU capacity and fmax its highest OPP. */
long platform_import_assumed_mw(u32 capacity, u32 freq_khz, u32 max_khz);

#endif
