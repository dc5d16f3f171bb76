/*
 * governor.h - struct governor_ops, the whole interface a governor sees, and the registry.
 *
 * A governor is one file (src/gov/<name>.c) that defines a `const struct governor_ops` and one
 * line in governor.c's table. It is called at the kernel's cpufreq_update_util() points with
 * (cpu, time, flags), reads the CPUs' utilization through struct gov_env, and asks the cpufreq
 * core for a frequency with cpufreq_request(). It never reads a clock.
 */
#ifndef GOVSIM_GOV_GOVERNOR_H
#define GOVSIM_GOV_GOVERNOR_H

#include "core/error.h"
#include "core/types.h"
#include "cpufreq/cpufreq.h"
#include "kernel/profile.h"
#include "sched/sched.h"
#include "uclamp/uclamp.h"

/* One evaluation of one CPU, for --timeline (schedutil fills every field; others what they
 * have, the rest 0). */
struct gov_eval {
	u64 time_ns;
	int cpu;
	int policy;                 /* first CPU of the policy */
	struct sched_cpu_util in;   /* what was read */
	unsigned int uclamp_min, uclamp_max; /* rq clamp values (0/1024 when unused) */
	unsigned long util;         /* the value the governor used */
	u32 target_khz;             /* before resolution */
	u32 freq_khz;               /* the OPP in force after the decision */
};

/* What the replay offers a governor. */
struct gov_env {
	void *ctx;
	void (*cpu_util)(void *ctx, int cpu, struct sched_cpu_util *out);
	/* Optional: cpu_util()'s bw_dl alone, for an update that reads nothing else (schedutil's
	 * ignore_dl_rate_limit before the rate limit check); NULL: cpu_util() is used. */
	unsigned long (*cpu_bw_dl)(void *ctx, int cpu);
	const struct uclamp_sys *uclamp;
	const struct uclamp_rq_pair *(*cpu_uclamp)(void *ctx, int cpu);
	/* Cumulative idle time of a CPU up to now (get_cpu_idle_time, for ondemand/conservative). */
	u64 (*cpu_idle_ns)(void *ctx, int cpu, u64 now_ns);
	/* Called after each evaluation; may be NULL. */
	void (*on_eval)(void *ctx, const struct gov_eval *e);
	int hz; /* CONFIG_HZ: TICK_NSEC for the iowait boost */
	/* The kernel profile the replay follows (src/kernel/profile.h); NULL: v5.9. A governor
	 * reads the behaviours it needs once, in init. */
	const struct kernel_profile *kernel;
};

/* Tunables from --set KEY=VALUE: a governor takes the keys it knows. */
struct gov_param {
	const char *key;
	const char *value;
	bool used; /* set by the governor that consumed it */
};

struct governor_ops {
	const char *name;
	const char *help; /* one line, for --help: what it does and its tunables */
	/* Allocate per-policy data; parse its tunables from params (marking them used). Bad values
	 * give GS_EARG with the key named in err. */
	int (*init)(struct cpufreq_policy *pol, const struct gov_env *env,
		    struct gov_param *params, int nr_params, void **data, struct gs_error *err);
	/* The cpufreq_update_util() hook for `cpu` of this policy. */
	void (*update)(struct cpufreq_policy *pol, void *data, int cpu, u64 now_ns,
		       unsigned int flags);
	void (*release)(void *data);
};

/* The registry: NULL-terminated. */
extern const struct governor_ops *const governor_table[];
const struct governor_ops *governor_find(const char *name);

#endif
