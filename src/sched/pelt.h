/*
 * pelt.h - Per-Entity Load Tracking, the kernel's integer arithmetic (Linux v5.9
 * kernel/sched/pelt.c, pelt.h, sched-pelt.h) and util_est (fair.c).
 * Constants come from the generated pelt_tables.h (tools/gen_pelt_tables.c).
 */
#ifndef GOVSIM_SCHED_PELT_H
#define GOVSIM_SCHED_PELT_H

#include "core/types.h"
#include "kernel/profile.h"

/* include/linux/sched.h struct util_est */
struct util_est {
	unsigned int enqueued;
	unsigned int ewma;
};
#define UTIL_EST_WEIGHT_SHIFT 2
#define UTIL_AVG_UNCHANGED    0x1

/* include/linux/sched.h struct sched_avg (v5.9) */
struct sched_avg {
	u64 last_update_time;
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
	struct util_est util_est;
};

/*
 * ---- Functions (src/sched/pelt.c), v5.9 kernel/sched/pelt.c and pelt.h, kernel names kept ----
 *
 * Time is in ns of a PELT clock (rq_clock_pelt()); the unit of accumulation is 1024 ns and a
 * period is 1024 units. Every function is pure integer arithmetic on the structs passed in.
 *
 * The kernel profile's variant (src/kernel/profile.h) comes in as `pv`; NULL is v5.9's:
 * clock_pelt invariance (no scaling here) and the UTIL_AVG_UNCHANGED flag in the LSB.
 */
struct pelt_variant {
	/* v4.19 accumulate_sum (pelt.c l.109): contrib = cap_scale(contrib, scale_freq) and
	 * util_sum += contrib * scale_cpu, with the scales current at the update (no clock_pelt:
	 * the caller passes rq_clock_task as now). false: v5.1+ clock_pelt, the time is scaled. */
	bool contrib_scaling;
	unsigned long scale_freq; /* arch_scale_freq_capacity() at the update */
	unsigned long scale_cpu;  /* arch_scale_cpu_capacity() */
	/* UTIL_AVG_UNCHANGED: 0x1 (<= v5.9) or 0x80000000 (late 5.10.y+); 0 means 0x1. */
	unsigned int util_avg_unchanged;
	/* How the cfs_rq's sums follow a removal or a detach (fair.c); 0 is v5.9's. */
	enum pelt_sum_sync sum_sync;
};

static inline unsigned int pelt_util_avg_unchanged(const struct pelt_variant *pv)
{
	return pv && pv->util_avg_unchanged ? pv->util_avg_unchanged : UTIL_AVG_UNCHANGED;
}

/* kernel/sched/sched.h cap_scale(): (v * s) >> SCHED_CAPACITY_SHIFT. */
static inline u64 cap_scale(u64 v, unsigned long s)
{
	return (v * s) >> SCHED_CAPACITY_SHIFT;
}

/* lib/math/div64.c mul_u64_u32_shr(): (a * mul) >> shift with a 128-bit intermediate. */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/* val * y^n, y^32 = 1/2, truncated; 0 beyond LOAD_AVG_PERIOD * 63 periods. */
u64 decay_load(u64 val, u64 n);
/* d1 y^p + 1024 \Sum_{n=1}^{p-1} y^n + d3 (see pelt.c for the drawing). */
u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3);
/* Decay and accumulate `delta` units; returns the number of periods crossed. */
u32 accumulate_sum(u64 delta, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		   int running, const struct pelt_variant *pv);
/* Advance sa to `now`; 1 when a period boundary was crossed (then *_avg must be recomputed). */
int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		       int running, const struct pelt_variant *pv);
/*
 * An average that starts at `now` on the PELT clock as the kernel's signals run: every
 * last_update_time a multiple of 1024 ns counted from the clock's zero (a cfs_rq's starts at
 * 0 at boot and moves in whole units; an attached se copies its cfs_rq's), so period_contrib
 * is where `now` falls in its 1024-unit period and the period boundaries are the kernel's
 * (pelt_clock.phase puts the replay's clock where the kernel's is; kernel/sched/pelt.c
 * ___update_load_sum(), fair.c attach_entity_load_avg(), Debian 5.10 to 7.2). Not a kernel
 * function.
 */
void pelt_start_on_grid(struct sched_avg *sa, u64 now);

/* *_avg = *_sum / get_pelt_divider(sa) (load_avg weighted by `load`). */
void ___update_load_avg(struct sched_avg *sa, unsigned long load);
/* LOAD_AVG_MAX - 1024 + sa->period_contrib */
u32 get_pelt_divider(const struct sched_avg *sa);
/* The generated constants, for code that does not include pelt_tables.h. */
u32 pelt_load_avg_max(void);

/* pelt.h cfs_se_util_change(): clear UTIL_AVG_UNCHANGED once the se's util_avg changed. */
static inline void cfs_se_util_change_flag(struct sched_avg *avg, unsigned int flag)
{
	if (avg->util_est.enqueued & flag)
		avg->util_est.enqueued &= ~flag;
}

static inline void cfs_se_util_change(struct sched_avg *avg)
{
	cfs_se_util_change_flag(avg, UTIL_AVG_UNCHANGED);
}

/*
 * The signals of pelt.c with the kernel's arguments spelt out (no struct sched_entity/cfs_rq
 * here; the scheduler model passes its own fields):
 *   task se:   load = on_rq, runnable = se_runnable() (on_rq, not delayed), running = (cfs_rq->curr
 *              == se), avg x weight
 *   cfs_rq:    load = scale_load_down(load.weight), runnable = h_nr_running, running = curr != NULL
 *   rt_rq, dl: load = runnable = running = running
 * Each returns 1 when the averages were recomputed (a period was crossed).
 */
int __update_load_avg_blocked_se(u64 now, struct sched_avg *se, unsigned long weight);
int __update_load_avg_se(u64 now, struct sched_avg *se, unsigned long weight, bool on_rq,
			 bool runnable, bool running, const struct pelt_variant *pv);
int __update_load_avg_cfs_rq(u64 now, struct sched_avg *cfs, unsigned long load,
			     unsigned long h_nr_running, bool curr, const struct pelt_variant *pv);
int update_rt_rq_load_avg(u64 now, struct sched_avg *avg_rt, int running,
			  const struct pelt_variant *pv);
int update_dl_rq_load_avg(u64 now, struct sched_avg *avg_dl, int running,
			  const struct pelt_variant *pv);

/* One PELT period in ns: 1024 units of 1024 ns (the span of the phase below). */
#define PELT_PHASE_SPAN (1024ULL * 1024ULL)

/*
 * The PELT clock of one runqueue (v5.9 pelt.h): clock_task is the rq's task clock (here the
 * replay time, no irq/steal accounting); clock_pelt runs slower than it while the CPU is busy
 * below max capacity/frequency, and is synced to it while idle.
 */
struct pelt_clock {
	u64 clock_task;     /* rq_clock_task() */
	u64 clock_pelt;     /* rq->clock_pelt */
	u64 lost_idle_time; /* rq->lost_idle_time */
	/* Added to every PELT time read: the kernel's rq clock is the trace clock minus an
	 * offset, and PELT's 1024-ns units and 1024-unit periods count from the rq clock's zero,
	 * so which update crosses a period (and kicks cpufreq) depends on it. phase = -offset
	 * mod 2^20 ns puts the replay's period boundaries where the kernel's are. */
	u64 phase;
	/* _update_idle_rq_clock_pelt() (v6.0+): rq_clock() and rq_clock_pelt() as they were at the
	 * rq's last clock update while idle, or at its switch to idle from a fair task; read by
	 * migrate_se_pelt_lag() (fair.c) */
	u64 clock_idle;
	u64 clock_pelt_idle;
};

/* update_rq_clock_pelt(rq, delta): `delta` ns of clock_task have just elapsed (clock_task is
 * already advanced); idle: sync, else clock_pelt += cap_scale(cap_scale(delta, cap), freq). */
void update_rq_clock_pelt(struct pelt_clock *pc, s64 delta, bool idle, unsigned long capacity,
			  unsigned long freq_scale);
/* update_idle_rq_clock_pelt(rq): the rq is about to go idle; util_sum_total is
 * cfs.util_sum + avg_rt.util_sum + avg_dl.util_sum (u32 arithmetic, as the kernel). When the
 * rq was always running, the gap between clock_task and clock_pelt is lost idle time. */
void update_idle_rq_clock_pelt(struct pelt_clock *pc, u32 util_sum_total);
/* rq_clock_pelt(rq) = clock_pelt - lost_idle_time (+ the phase of the kernel's clock) */
static inline u64 rq_clock_pelt(const struct pelt_clock *pc)
{
	return pc->clock_pelt - pc->lost_idle_time + pc->phase;
}

/* _update_idle_rq_clock_pelt() (pelt.h, v6.0+; before, its first line alone): an idle rq's
 * clock_pelt catches up with clock_task, and the clocks of that update are recorded for
 * migrate_se_pelt_lag() */
static inline void _update_idle_rq_clock_pelt(struct pelt_clock *pc)
{
	pc->clock_pelt = pc->clock_task;
	pc->clock_idle = pc->clock_task;
	pc->clock_pelt_idle = rq_clock_pelt(pc);
}

#endif
