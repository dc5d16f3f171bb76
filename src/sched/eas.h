/*
 * eas.h - task placement as Linux v5.9 decides it on an asymmetric (big.LITTLE) system with an
 * Energy Model: the EAS wakeup path (find_energy_efficient_cpu), its fallback (wake_affine,
 * select_idle_sibling -> select_idle_capacity), fork/exec (find_idlest_cpu), the root domain's
 * overutilized flag, misfit status and the misfit pull, and capacity-aware RT placement
 * (find_lowest_rq with uclamp_min). Mirror in fair_eas.c (and rt_eas.c).
 *
 * The functions read a plain snapshot of the runqueues (struct eas_rd), not the scheduler
 * model's internals, so that a test can set any state by hand and the replay can fill it from
 * the model (sched_eas_fill). They never allocate, print or read a clock.
 *
 * Units: util, capacity and clamps on the 1024 scale; frequencies in kHz; EM power in mW and
 * cost as v5.9 em_create_perf_table() computes it (fmax * power / freq); energies in the EM's
 * "cost x util / capacity" unit of em_cpu_energy() (comparable only with each other).
 */
#ifndef GOVSIM_SCHED_EAS_H
#define GOVSIM_SCHED_EAS_H

#include "core/types.h"
#include "uclamp/uclamp.h"

#define EAS_MAX_PS 32
#define EAS_MAX_PD 8

/* include/linux/energy_model.h, v5.9 */
struct em_perf_state {
	unsigned long frequency; /* kHz */
	unsigned long power;     /* mW */
	unsigned long cost;      /* fmax * power / frequency */
};

struct em_perf_domain {
	int nr_perf_states;
	struct em_perf_state table[EAS_MAX_PS]; /* ascending frequency */
	u64 cpus;                                /* span: bit c for CPU c */
};

/* One runqueue as placement reads it (cpu_rq(cpu) fields, after the latest updates). */
struct eas_cpu {
	unsigned long capacity_orig;   /* arch_scale_cpu_capacity() */
	unsigned long capacity;        /* capacity_of(): capacity_orig in this model */
	unsigned long util_avg;        /* rq->cfs.avg.util_avg */
	unsigned long util_est_enqueued; /* rq->cfs.avg.util_est.enqueued */
	unsigned long runnable_avg;    /* rq->cfs.avg.runnable_avg */
	unsigned long load_avg;        /* cpu_load(): rq->cfs.avg.load_avg */
	unsigned long util_rt, util_dl, bw_dl, util_irq;
	bool rt_runnable;              /* rt_rq_is_runnable() */
	unsigned int nr_running;       /* rq->nr_running, every class */
	bool idle;                     /* available_idle_cpu() */
	int curr_prio;                 /* prio of rq->curr; 140 (MAX_PRIO) when idle */
	int rt_highest_prio;           /* rq->rt.highest_prio.curr; 100 (MAX_RT_PRIO): no RT */
	u32 idle_exit_latency_us;      /* of the idle state it is in (when idle) */
	u64 idle_stamp;                /* rq->idle_stamp, ns */
	const struct uclamp_rq_pair *uclamp; /* the rq's clamps (NULL: none) */
	unsigned long misfit_task_load; /* rq->misfit_task_load (update_misfit_status) */
};

/* The task being placed (p). */
struct eas_task {
	int cpu;                       /* task_cpu(p) (the previous CPU) */
	unsigned long util_avg;        /* p->se.avg.util_avg, synced (sync_entity_load_avg) */
	unsigned int util_est_ewma, util_est_enqueued;
	unsigned long load_avg;        /* task_h_load(p): se.avg.load_avg without groups */
	bool new_task;                 /* se.avg.last_update_time == 0 (fork) */
	int prio;
	const struct uclamp_task *uc;  /* for uclamp_eff_value() (NULL: no clamps) */
	u64 cpus_allowed;              /* p->cpus_ptr; 0 means every CPU */
};

/* The root domain and its topology: perf domains in rd->pd order, clusters = MC spans. */
struct eas_rd {
	int nr_cpus;
	struct eas_cpu cpu[GS_MAX_CPUS];
	int cluster[GS_MAX_CPUS];        /* MC (LLC) span id of each CPU */
	int nr_pd;
	const struct em_perf_domain *pd[EAS_MAX_PD]; /* rd->pd order (v5.9: highest CPU first) */
	const struct uclamp_sys *uclamp; /* the static key and the defaults (NULL: no uclamp) */
	bool asym;                       /* sched_asym_cpucapacity (an SD_ASYM_CPUCAPACITY level) */
	bool energy;                     /* sched_energy_enabled() */
	bool overutilized;               /* rd->overutilized (SG_OVERUTILIZED) */
	bool util_est_lsb;               /* _task_util_est ORs UTIL_AVG_UNCHANGED (v5.9); else MSB */
	bool util_fits_cpu;              /* v6.2+: util_fits_cpu() for fits (kernel profile) */
	unsigned long max_cpu_capacity;  /* rd->max_cpu_capacity */
};

/* The candidates find_energy_efficient_cpu() evaluated (validate --explain, tests). */
struct eas_feec_explain {
	int nr;
	struct { int cpu; unsigned long delta; } cand[EAS_MAX_PD + 1];
	unsigned long base_energy;   /* sum over every pd */
	unsigned long prev_delta;    /* ULONG_MAX: prev did not fit */
	int result;
};

/* The waker, for the fallback path (select_task_rq_fair when feec gives -1). */
struct eas_waker {
	int cpu;            /* smp_processor_id(): the waker's CPU; -1 unknown (= prev) */
	bool sync;          /* WF_SYNC and the waker not exiting */
	bool wake_wide;     /* wake_wide(p) (from the waker's wakee flips) */
	unsigned long load; /* task_h_load(current) */
};

/* v5.9 fair.c helpers */
bool fits_capacity(unsigned long util, unsigned long capacity);
/* task_util_est(p) (that name is util_est.h's, on a struct sched_avg) */
unsigned long eas_task_util_est(const struct eas_rd *rd, const struct eas_task *p);
unsigned long uclamp_task_util(const struct eas_rd *rd, const struct eas_task *p);
bool task_fits_capacity(const struct eas_rd *rd, const struct eas_task *p,
			unsigned long capacity);
unsigned long cpu_util(const struct eas_rd *rd, int cpu);
unsigned long cpu_util_next(const struct eas_rd *rd, int cpu, const struct eas_task *p,
			    int dst_cpu);

/* v5.9 em_cpu_energy(pd, max_util, sum_util) with scale_cpu = capacity of the pd's CPUs. */
unsigned long em_cpu_energy(const struct em_perf_domain *pd, unsigned long max_util,
			    unsigned long sum_util, unsigned long scale_cpu);
/* compute_energy(p, dst_cpu, pd); dst_cpu -1: p placed nowhere (the pd's base energy). */
unsigned long compute_energy(const struct eas_rd *rd, const struct eas_task *p, int dst_cpu,
			     const struct em_perf_domain *pd);
/* find_energy_efficient_cpu(p, prev_cpu): a CPU, or -1 (overutilized / no EM); ex may be NULL */
int find_energy_efficient_cpu(const struct eas_rd *rd, const struct eas_task *p, int prev_cpu,
			      struct eas_feec_explain *ex);

/* The overutilized flag: cpu_overutilized(); the set-only update at enqueue and tick
 * (update_overutilized_status); the root-level recomputation of update_sd_lb_stats(), the
 * only place that clears it. The last two return whether the flag changed. */
bool cpu_overutilized(const struct eas_rd *rd, int cpu);
bool update_overutilized_status(struct eas_rd *rd, int cpu);
bool update_sd_lb_stats_overutilized(struct eas_rd *rd);

/* Fallback wakeup path and fork/exec. */
int wake_affine(const struct eas_rd *rd, const struct eas_task *p, int this_cpu, int prev_cpu,
		bool sync, unsigned long current_load);
int select_idle_capacity(const struct eas_rd *rd, const struct eas_task *p, int target);
int select_idle_sibling(const struct eas_rd *rd, const struct eas_task *p, int prev, int target);
int find_idlest_cpu(const struct eas_rd *rd, const struct eas_task *p, int this_cpu,
		    int prev_cpu);

enum eas_sd_flag { EAS_BALANCE_WAKE, EAS_BALANCE_FORK, EAS_BALANCE_EXEC };
/* select_task_rq() + select_task_rq_fair(p, prev_cpu, sd_flag, wake_flags) */
int select_task_rq_fair(const struct eas_rd *rd, const struct eas_task *p, int prev_cpu,
			enum eas_sd_flag sd_flag, const struct eas_waker *waker,
			struct eas_feec_explain *ex);

/* Misfit: update_misfit_status(p, rq) at pick, tick and newidle (p NULL: clear); and the
 * emulation of load balance's misfit pull (the rule in fair_eas.c's header): the destination CPU
 * for the misfit task p running on src, or -1 when nothing pulls it now. */
void update_misfit_status(struct eas_rd *rd, int cpu, const struct eas_task *p);
int misfit_pull_cpu(const struct eas_rd *rd, const struct eas_task *p, int src);

/* RT: select_task_rq_rt(p, cpu) with find_lowest_rq() and rt_task_fits_capacity(). */
bool rt_task_fits_capacity(const struct eas_rd *rd, const struct eas_task *p, int cpu);
int find_lowest_rq(const struct eas_rd *rd, const struct eas_task *p, int this_cpu);
int select_task_rq_rt(const struct eas_rd *rd, const struct eas_task *p, int cpu, int this_cpu);

#endif
