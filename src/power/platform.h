/*
 * platform.h - a platform's CPUs, cpufreq policies, OPPs, idle states and power numbers.
 *
 * A platform is loaded from SQL (the models/ SQL files, compiled in, or a user's file) into SQLite,
 * validated, and copied into this plain struct, which the replay reads without further I/O.
 * Units are in the field names. See models/schema.sql for the tables.
 */
#ifndef GOVSIM_POWER_PLATFORM_H
#define GOVSIM_POWER_PLATFORM_H

#include "core/error.h"
#include "core/types.h"
#include "kernel/kernel_cost.h"

struct plat_opp {
	u32 freq_khz;
	u32 volt_uv;
	u32 capacity;       /* capacity of the CPU at this OPP: cpu_scale * freq_scale >> 10 */
	u32 em_power_mw;    /* derived: C * mV^2 * MHz / 1e9, truncated (v5.9 _get_power) */
	u32 em_cost;        /* derived: fmax * power / freq (v5.9 em_create_perf_table) */
	u32 cost_cpu_busy;  /* EAS v1 sched-energy-costs, per CPU, in cost_unit; 0 if absent */
	u32 cost_cluster_busy; /* EAS v1, per cluster, while any of its CPUs is busy */
	/* Wattson 1D curve at this OPP (wattson_cpu_1d), mW: per CPU active / idle0 / idle1, and
	 * the policy's static power; w_1d false when the cluster has 2D curves instead. */
	bool w_1d;
	double w_active_mw, w_idle0_mw, w_idle1_mw, w_static_mw;
};

struct plat_idle_state {
	int index;              /* cpuidle index as in cpu_idle state= */
	char name[32];          /* "WFI", "cpu-sleep-0", ... */
	u32 exit_latency_us;
	u32 target_residency_us;
	bool cluster_level;     /* a cluster state: entered only when every CPU of it is idle */
	u32 cost_cpu_idle;      /* EAS v1 idle power per CPU in this state, in cost_unit */
	u32 cost_cluster_idle;  /* EAS v1 idle power of the cluster in this state */
};

struct plat_cluster {
	int id;
	char name[32];                 /* "little", "big", ... */
	int nr_cpus;
	int cpus[GS_MAX_CPUS];         /* ascending; cpus[0] names the cpufreq policy */
	u32 transition_latency_ns;     /* cpuinfo.transition_latency */
	u32 dyn_power_coeff;           /* dynamic-power-coefficient (C); 0 = no EM */
	int nr_opps;
	struct plat_opp opps[GS_MAX_OPPS]; /* ascending frequency */
	int nr_idle;
	struct plat_idle_state idle[GS_MAX_IDLE_STATES]; /* ascending index */
	/* Wattson: the cluster's curves are 2D (rows in platform.wattson.rows2d, first row index
	 * w2d_first, w2d_count of them, sorted by (opp, dep_cluster, dep_opp)) */
	bool w_2d;
	int w2d_first, w2d_count;
};

struct plat_cpu {
	int id;
	int cluster;  /* index into platform.clusters */
	u32 capacity; /* arch_scale_cpu_capacity: 1..1024 */
	bool capacity_assumed; /* the model says no source gives it: a trace's cpu_info wins */
};

/* The DSU pseudo-policy of Wattson's 2D curves (dep_policy 255) as a dep_cluster. */
#define PLAT_W_DSU (-2)
#define PLAT_W2D_MAX 2048
#define PLAT_WL3_MAX 1024

/* One row of a 2D curve: power of a CPU of `cluster` at its OPP `opp` while the dependency
 * (another cluster at its OPP dep_opp, or the DSU at dep_khz) is as given. mW. */
struct plat_w2d {
	int16_t cluster, opp;
	int16_t dep_cluster; /* a cluster index, or PLAT_W_DSU */
	int16_t dep_opp;     /* OPP index in dep_cluster; -1 for the DSU */
	u32 dep_khz;     /* the dependency's frequency as the CSV gives it */
	double static_mw, active_mw, idle0_mw, idle1_mw, interconnect_mw;
};

/* Wattson's data for the platform (see models/schema.sql), when it has curves. */
struct plat_wattson {
	bool present;
	char device[32];                    /* "Tensor" */
	u32 deep_idle_offset_ns[GS_MAX_CPUS];
	bool vote_by_freq[GS_MAX_CPUS];
	int idle_map[GS_MAX_IDLE_STATES];   /* cpuidle index -> 0/1; -1 unmapped (identity map when
					     * the model gives none) */
	bool has_idle_map;
	int nr_2d;
	struct plat_w2d rows2d[PLAT_W2D_MAX];
	int nr_l3;                          /* L3 rows loaded and checked (not used: needs PMU) */
};

struct platform {
	char name[64];
	char description[256];
	char cost_unit[32]; /* unit of the cost_* columns, e.g. "bogo-mW (EAS v1, normalised)" */
	bool has_costs;     /* the model has EAS v1 busy costs (cost_busy rows) */
	bool freq_invariant; /* arch_scale_freq_invariant() (platform.freq_invariant) */
	bool dvfs_any_cpu;   /* the driver's dvfs_possible_from_any_cpu (cpufreq_driver) */
	int nr_cpus;
	struct plat_cpu cpus[GS_MAX_CPUS]; /* indexed by CPU id 0..nr_cpus-1 */
	int nr_clusters;
	struct plat_cluster clusters[GS_MAX_CLUSTERS];
	struct plat_wattson wattson;
	struct kcost kcost; /* table kernel_costs (kernel/kernel_cost.h); present false if none */
};

/* The platform used when none is named. */
#define PLATFORM_DEFAULT "hikey960"

/*
 * Load a platform: `name_or_path` is a built-in name ("hikey960", "juno-r0") or a path to a
 * .sql file written against models/schema.sql. Validates every rule (platform_validate_db) and
 * fills *out. Returns 0, or GS_EMODEL (also for an unknown name or a missing file: bad input,
 * exit 3) / GS_EIO (a read error) with the detail in err
 * ("'file.sql': opps row cluster=1 freq_khz=903000: frequencies not strictly increasing").
 */
int platform_load(const char *name_or_path, struct platform *out, struct gs_error *err);

/*
 * Like platform_load(), from SQL text in memory (run after models/schema.sql); `label` names the
 * text in messages ("'label':12: near \"x\": syntax error"). Nothing is read from disk.
 */
int platform_load_sql(const char *label, const char *sql, struct platform *out,
		      struct gs_error *err);

/*
 * The built-in platform a recording device names, or NULL: `device` is what a trace says about
 * where it was recorded (trace_stats.device: a SoC model such as Perfetto's system_info
 * android_soc_model "Tensor" or "gs101", a board name, or an Android build fingerprint
 * "google/oriole/oriole:13/..." whose codenames map as Wattson's _wattson_device_map does).
 * Case-insensitive. A name returned may still lack its model file (the caller loads it).
 */
const char *platform_for_device(const char *device);

/* Names of the built-in platforms, NULL-terminated, in a static array. */
const char *const *platform_builtin_names(void);

/* Lookups. The cluster (policy) of a CPU; the max OPP of a cluster. */
static inline const struct plat_cluster *platform_cluster_of(const struct platform *p, int cpu)
{
	return &p->clusters[p->cpus[cpu].cluster];
}

static inline u32 plat_cluster_max_khz(const struct plat_cluster *c)
{
	return c->opps[c->nr_opps - 1].freq_khz;
}

/* Index of the OPP with exactly this frequency in the cluster, or -1. */
int plat_cluster_opp_index(const struct plat_cluster *c, u32 freq_khz);

/* v5.9 include/linux/energy_model.h: the largest power an EM perf state may have, in mW. */
#define EM_MAX_POWER 0xFFFF

/* The v5.9 EM power of one OPP: C * mV^2 * MHz / 1e9 in mW, truncated like drivers/opp/of.c. */
u32 em_opp_power_mw(u32 dyn_power_coeff, u32 volt_uv, u32 freq_khz);

/* The v5.9 EM cost of one OPP: fmax * power / freq, truncated (em_create_perf_table). */
u32 em_opp_cost(u32 max_khz, u32 power_mw, u32 freq_khz);

/* Capacity of a CPU of capacity cpu_scale at freq_khz: cpu_scale * freq_scale >> 10, with
 * freq_scale = (freq_khz << 10) / max_khz, both truncated (arch_topology.c, v5.9). */
u32 plat_opp_capacity(u32 cpu_scale, u32 freq_khz, u32 max_khz);

#endif
