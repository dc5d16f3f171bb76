/*
 * options.h - struct sim_opts: the what-if settings of one replay (which governor with which
 * tunables, the timing model, where util comes from, the power model, a clamp policy, the kernel
 * profile, the outputs). One struct from the command line to the loop:
 *
 *   govsim run|validate|sweep --flags   src/cli/run_opts.c fills struct run_opts.sim once
 *     -> struct replay_spec.opts        (sim/replay.h) a copy; validate and sweep change only
 *                                       the axes they vary (util source, kernel, governor, ...)
 *     -> struct sim_config.opts         (sim/sim.h) a copy, beside what the replay derives from
 *                                       it and the trace (governor ops, the replay's tunables,
 *                                       the pre-scan); the loop reads s->cfg.opts.FIELD.
 *
 * Adding an option is one place per layer, and nothing copies fields in between:
 *   1. a field here, its default in sim_opts_init() (a zero field needs none);
 *   2. in src/cli/run_opts.c: an OPT_ value, a long_opts[] row and a case in run_opt_apply()
 *      (or apply_model_opt(), the model's settings) that stores optarg into o->sim.FIELD
 *      (and, when `validate` must refuse it, a line in validate_refused());
 *   3. read it where it acts (s->cfg.opts.FIELD in src/sim, or spec->opts.FIELD in replay.c).
 * Settings that are not the replay's (--db, --csv, --json, --baselines) stay in struct run_opts.
 */
#ifndef GOVSIM_SIM_OPTIONS_H
#define GOVSIM_SIM_OPTIONS_H

#include <stdio.h>

#include "core/timeline.h"
#include "core/types.h"
#include "gov/governor.h"
#include "kernel/profile.h"
#include "power/platform.h"
#include "power/power.h"
#include "trace/reader.h"
#include "uclamp/policy.h"

enum sim_timing { SIM_TIMING_TRACED, SIM_TIMING_WORK };
enum sim_util_source { SIM_UTIL_EMULATED, SIM_UTIL_TRACE };
enum sim_placement { SIM_PLACEMENT_TRACED, SIM_PLACEMENT_EAS };

struct sim_opts {
	const struct platform *plat;
	const char *governor;           /* name or plugin path; "schedutil" when NULL */
	const struct gov_param *params; /* --set KEY=VALUE (not modified: the replay copies) */
	int nr_params;
	enum sim_timing timing;            /* --timing; default work */
	enum sim_util_source util_source;  /* --util-source; default emulated */
	enum sim_placement placement;      /* --placement; default traced (eas: work timing) */
	enum power_model power_model;      /* --power-model; default em */
	const struct policy *policy;       /* --policy/--action; NULL: none */
	bool start_from_trace_util;        /* --seed-util */
	u64 warmup_ns;                     /* --warmup-ms: measure from this long after the
					    * first event (the replay runs from it) */
	/* --kernel: the kernel profile. NULL: the trace's own kernel release (trace.dat uname, a
	 * text header's "Linux version") mapped to the nearest profile, else v5.9 (also v5.9 when
	 * that kernel has no uclamp and a clamp policy is given); the run's notes say why. In
	 * struct sim_config: the profile in force (NULL: v5.9). */
	const struct kernel_profile *kernel;
	struct reader_opts ropts; /* --format, --strict (ropts.name: set by the replay) */
	const char *label;        /* --label: the run's label */
	/* --traced-config: what the traced kernel had (uclamp, key, cgroup depth): the replay
	 * charges the emulated kernel's enqueue/dequeue cost minus this one's
	 * (kernel/kernel_cost.h).
	 * Without has_traced_config: kcost_config_default(), uclamp built in, key off, no
	 * nesting. */
	bool has_traced_config;
	struct kcost_config traced;
	/* Optional outputs, opened by the caller (NULL: none). */
	FILE *timeline;      /* --timeline CSV: one row per governor evaluation per CPU */
	FILE *task_timeline; /* --task-timeline CSV: one row per task event */
	/* Another sink of the same rows (core/timeline.h), e.g. --perfetto's writer. */
	const struct tl_sink *sink;
};

/* The defaults: governor NULL (schedutil), work timing, util emulated, em power, all else 0. */
void sim_opts_init(struct sim_opts *o);

#endif
