/*
 * governor.h - struct governor, the governors as the replay drives them, and the registry.
 *
 * Every governor is written against the public interface, include/govsim/governor.h (struct
 * govsim_governor): built in (one file in src/gov/ and a line in governor.c's table) or a
 * plugin loaded at run time (governor_lookup). The host side of that interface (host.c) runs it
 * on struct gov_env and the cpufreq core: called at the kernel's cpufreq_update_util() points
 * with (cpu, time, flags), a governor reads the CPUs' signals through the host and asks for a
 * frequency with govsim_request_freq(). None reads a clock.
 */
#ifndef GOVSIM_GOV_GOVERNOR_H
#define GOVSIM_GOV_GOVERNOR_H

#include "govsim/governor.h"

#include "core/error.h"
#include "core/types.h"
#include "cpufreq/cpufreq.h"
#include "kernel/profile.h"
#include "sched/sched.h"
#include "uclamp/uclamp.h"

/* One evaluation of one CPU, for the observers (--timeline, validate): the governor's record
 * (schedutil fills every field; others what they have, the rest 0), whose signals are in the
 * public struct it reported, and the OPP in force after the decision (gov_eval_of()). */
struct gov_eval {
	u64 time_ns;
	int cpu;
	int policy;                 /* first CPU of the policy */
	struct govsim_cpu_util in;  /* what was read */
	unsigned int uclamp_min, uclamp_max; /* rq clamp values (0/1024 when unused) */
	unsigned long util;         /* the value the governor used */
	u32 target_khz;             /* before resolution */
	u32 freq_khz;               /* the OPP in force after the decision */
};

/* The governor's record e of an evaluation, with the OPP in force after it, as a gov_eval. */
static inline void gov_eval_of(struct gov_eval *out, const struct govsim_eval *e, u32 freq_khz)
{
	*out = (struct gov_eval){.time_ns = e->time_ns, .cpu = e->cpu, .policy = e->policy,
				 .in = e->in, .uclamp_min = e->uclamp_min,
				 .uclamp_max = e->uclamp_max, .util = e->util,
				 .target_khz = e->target_khz, .freq_khz = freq_khz};
}

/* What the replay offers a governor. */
struct gov_env {
	void *ctx;
	/* Writes every field of *out (zeroes for a CPU it does not know). */
	void (*cpu_util)(void *ctx, int cpu, struct sched_cpu_util *out);
	/* Optional: cpu_util()'s bw_dl alone, for an update that reads nothing else (schedutil's
	 * ignore_dl_rate_limit before the rate limit check); NULL: cpu_util() is used. */
	unsigned long (*cpu_bw_dl)(void *ctx, int cpu);
	/* Optional: the scheduler model, when cpu_util() and cpu_bw_dl() are its own readers
	 * (sched_cpu_util(), sched_cpu_bw_dl()): then read directly, the same answers without a
	 * call through ctx at every CPU of every evaluation. NULL: through cpu_util(). */
	const struct sched *sched;
	const struct uclamp_sys *uclamp;
	const struct uclamp_rq_pair *(*cpu_uclamp)(void *ctx, int cpu);
	/* Cumulative idle time of a CPU up to now (get_cpu_idle_time, for ondemand/conservative). */
	u64 (*cpu_idle_ns)(void *ctx, int cpu, u64 now_ns);
	/* Called after each evaluation with the governor's record of it (by pointer: valid during
	 * the call) and the OPP in force after the decision; may be NULL. */
	void (*on_eval)(void *ctx, const struct govsim_eval *e, u32 freq_khz);
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

/* A governor the replay can run: a built-in one (governor.c's table) or a plugin (plugin.c),
 * each a struct govsim_governor of the public interface, which host.c runs. */
struct governor {
	const char *name;
	const struct govsim_governor *pub;
	/* A plugin: its file (as resolved) and the file's SHA-256 in hex; NULL when built in. */
	const char *path;
	const char *sha256;
};

/* The registry entry of a public-interface governor `g` named `nm`. */
#define GOVERNOR_ENTRY(nm, g) {.name = (nm), .pub = (g), .path = NULL, .sha256 = NULL}
/* The governor's one-line help ("" when it has none). */
const char *governor_help(const struct governor *gov);

/* Start the governor on a policy (the host's side of govsim_governor.init): its per-policy
 * state in *data; tunables from params (marking those it takes). Bad values give GS_EARG with
 * the key named in err. */
int governor_init(const struct governor *gov, struct cpufreq_policy *pol,
		  const struct gov_env *env, struct gov_param *params, int nr_params, void **data,
		  struct gs_error *err);
/* The cpufreq_update_util() hook for `cpu` of the policy whose state is data. */
void governor_update(void *data, int cpu, u64 now_ns, unsigned int flags);
/* Stop the governor and free its state (NULL: nothing). */
void governor_release(void *data);
/* The governor's own per-policy data behind the host's state `data`. */
void *governor_data(void *data);

/* The registry: NULL-terminated. */
extern const struct governor *const governor_table[];
const struct governor *governor_find(const char *name);
/* Whether gov declares the tunable `name` (a public-interface governor's tunables list). */
bool governor_has_tunable(const struct governor *gov, const char *name);

/* Is `name` a plugin's file rather than a governor's name: it contains '/' or ends in ".so". */
bool governor_is_path(const char *name);

/*
 * A governor by name or file (plugin.c): a built-in name; a path (governor_is_path) is
 * dlopen()ed; another name is looked for as NAME.so, libNAME.so or NAME in each directory of
 * GOVSIM_PLUGIN_PATH (':'-separated). A plugin is loaded once per process and stays loaded.
 * Errors: GS_ENOTFOUND (an unknown name); GS_EINPUT (no such file, not loadable, no
 * `govsim_governor` symbol, an ABI major other than GOVSIM_GOV_ABI_MAJOR or a newer minor, an
 * incomplete struct).
 */
int governor_lookup(const char *name, const struct governor **out, struct gs_error *err);
/* The same for --governor-plugin FILE: FILE itself when it contains '/', else searched in
 * GOVSIM_PLUGIN_PATH (FILE, FILE.so, libFILE.so). */
int governor_load_plugin(const char *file, const struct governor **out,
			 struct gs_error *err);

#endif
