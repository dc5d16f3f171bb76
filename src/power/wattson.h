/*
 * wattson.h - the `wattson` power model: Perfetto's CPU power estimator, Wattson, run on govsim's
 * emulated (or traced) frequencies and idle states.
 *
 * Wattson (google/perfetto ec5d16b, src/trace_processor/perfetto_sql/stdlib/wattson/) looks
 * measured power up by exact frequency and idle state. The step numbers below label the parts
 * of that arithmetic, and wattson.c's comments use the same labels. For one instant
 * (wattson_power()):
 *  - every CPU draws active, idle0 or idle1 mW of its policy's curve at the policy's frequency
 *    (steps 6, 10); a CPU that is off (hotplugged out, suspended) draws 0 (steps 5, 15);
 *  - a policy with 2D curves depends on another policy's frequency (or the DSU's): the active
 *    CPUs of the policies its curves name vote, the one drawing the most 1D active power (or, for
 *    vote_by_freq CPUs, running fastest) wins; with none active, the smallest dep_freq of its rows
 *    (step 9);
 *  - each policy adds its static power once while any of its CPUs is on, i.e. active or in a
 *    shallow state (steps 7, 8, 11), and policy 0's 2D row its interconnect power (step 13);
 *  - L3 power needs DSU PMU counts, which govsim's traces do not carry: 0, said in the notes.
 * A (frequency, state[, dependency]) with no row gives no value: it counts as 0 mW, as in Wattson,
 * and is reported (the time and the pairs), never silently.
 *
 * Over time (struct wattson_acc): power is piecewise constant between changes and integrated
 * exactly. A CPU's idle interval whose state is chosen with hindsight (the deepest state whose
 * target residency fits, power_pick_idle_state()) is resolved when it ends, or as soon as it has
 * lasted the deepest state's residency; an exit from the deepest state makes the active period
 * start deep_idle_offset_ns earlier, no earlier than the CPU's previous change (step 4). So the
 * accumulator holds back the changes of the last few milliseconds, never the whole trace.
 */
#ifndef GOVSIM_POWER_WATTSON_H
#define GOVSIM_POWER_WATTSON_H

#include "core/error.h"
#include "core/types.h"
#include "power/platform.h"

/* A CPU's Wattson state: active, a cpuidle index (0 shallow; mapped by the model's idle map), or
 * off (hotplugged out, suspended: 0 mW and, for static power, in the deepest state). */
#define WATTSON_ACTIVE (-1)
#define WATTSON_OFF    (-2)

/* The inputs at one instant. */
struct wattson_in {
	u32 khz[GS_MAX_CLUSTERS];  /* each cluster's (policy's) frequency */
	int state[GS_MAX_CPUS];    /* WATTSON_ACTIVE, WATTSON_OFF, or a nominal cpuidle index */
	u32 dsu_khz;               /* the DSU's devfreq frequency; 0 unknown */
};

/* A lookup without a row: the cluster at khz, its dependency (a cluster, or PLAT_W_DSU) at
 * dep_khz (0 for a 1D policy), or an idle state the model does not map. */
struct wattson_miss {
	int cluster;
	u32 khz;
	int dep_cluster;
	u32 dep_khz;
	u64 ns; /* how long (in wattson_acc results) */
};

/* The power at one instant, mW. */
struct wattson_out {
	double cpu_mw[GS_MAX_CPUS];
	double static_mw[GS_MAX_CLUSTERS];
	double interconnect_mw;  /* policy 0's 2D row (booked on cluster 0 in govsim's results) */
	double total_mw;
	u64 missing_cpus;        /* bit per CPU whose value had no row */
	bool missing_dsu;        /* a DSU-dependent policy ran without a DSU frequency */
	int nr_miss;             /* distinct misses below, one per cluster at most */
	struct wattson_miss miss[GS_MAX_CLUSTERS];
	int dep_cluster[GS_MAX_CLUSTERS]; /* the voted dependency per 2D cluster (-1: none) */
	u32 dep_khz[GS_MAX_CLUSTERS];
};

/* The power of the state `in` on platform p (which must have Wattson curves). */
void wattson_power(const struct platform *p, const struct wattson_in *in, struct wattson_out *out);

/* ---- integration over time ---- */

#define WATTSON_MAX_MISS 16

struct wattson_energy {
	double cpu_mj[GS_MAX_CPUS];       /* mW x s = mJ */
	double static_mj[GS_MAX_CLUSTERS];
	double interconnect_mj;
	double total_mj;
	u64 span_ns;
	u64 missing_ns;                   /* time during which some value had no row (0 mW) */
	u64 dsu_unknown_ns;               /* of which: a DSU-dependent policy without DSU frequency */
	int nr_miss;                      /* distinct missing lookups, longest first */
	struct wattson_miss miss[WATTSON_MAX_MISS];
	u64 miss_dropped;                 /* distinct misses beyond WATTSON_MAX_MISS */
	u64 offset_exits;                 /* deep-idle exits moved earlier (step 4) */
	u64 unmapped_idle;                /* idle states the model's idle map lacks (taken as deepest) */
};

struct wattson_acc;

/*
 * A new accumulator from t0_ns: every cluster at khz[cluster], every CPU idle from t0 with its
 * state chosen with hindsight (as if wattson_acc_idle_begin(t0) for each). NULL when out of
 * memory or when p has no Wattson curves (GS_EMODEL: "platform 'x' has no wattson curves").
 */
struct wattson_acc *wattson_acc_new(const struct platform *p, u64 t0_ns, const u32 *khz,
				    struct gs_error *err);
void wattson_acc_free(struct wattson_acc *w);

/* Changes at t_ns, never earlier than an earlier call's (equal times keep their call order). */
void wattson_acc_freq(struct wattson_acc *w, u64 t_ns, int cluster, u32 khz);
void wattson_acc_dsu(struct wattson_acc *w, u64 t_ns, u32 dsu_khz);
/* The CPU's state is known now: WATTSON_ACTIVE, WATTSON_OFF or a nominal cpuidle index. */
void wattson_acc_state(struct wattson_acc *w, u64 t_ns, int cpu, int state);
/* The CPU goes idle; its state is chosen with hindsight when it ends (next state call). */
void wattson_acc_idle_begin(struct wattson_acc *w, u64 t_ns, int cpu);

/* Integrate up to end_ns (open hindsight intervals end there) and fill *e. Returns 0, or
 * GS_ENOMEM (the accumulator ran out of memory earlier). The accumulator is spent after. */
int wattson_acc_finish(struct wattson_acc *w, u64 end_ns, struct wattson_energy *e,
		       struct gs_error *err);

#endif
