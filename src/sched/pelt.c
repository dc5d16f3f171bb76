/*
 * pelt.c - Per-Entity Load Tracking in the kernel's integer arithmetic.
 *
 * Follows Linux v5.9 kernel/sched/pelt.c (decay_load, __accumulate_pelt_segments,
 * accumulate_sum, ___update_load_sum, ___update_load_avg and the per-signal wrappers) and
 * kernel/sched/pelt.h (get_pelt_divider, update_rq_clock_pelt, update_idle_rq_clock_pelt).
 * Written from the kernel's description, not copied. The constants
 * come from the generated pelt_tables.h (tools/gen_pelt_tables.c).
 *
 * Differences from v5.9 pelt.c/pelt.h, and why:
 * - No update_irq_load_avg() and no thermal signal (update_thermal_load_avg): a trace carries
 *   neither irq time nor thermal pressure, so both are 0.
 * - The clock is a struct pelt_clock (clock_task, clock_pelt, lost_idle_time) owned by the
 *   model's rq, and the scales (arch_scale_freq/cpu_capacity) come in a struct pelt_variant
 *   instead of per-CPU globals: the functions take everything as arguments (STYLE: no clock).
 * - The weight of an se is passed in (se_weight()), as the model has no struct load_weight.
 * - Added: the v4.19 variant (pelt_variant.contrib_scaling: no clock_pelt, contributions
 *   scaled by frequency and capacity at each update) and the util_est flag per profile.
 */
#include "sched/pelt.h"

#include "pelt_tables.h"

void pelt_start_on_grid(struct sched_avg *sa, u64 now)
{
	sa->last_update_time = now & ~(u64)1023;
	sa->period_contrib = (u32)((now >> 10) & 1023);
}

u32 pelt_load_avg_max(void)
{
	return LOAD_AVG_MAX;
}

/*
 * val * y^n with y^LOAD_AVG_PERIOD = 1/2:
 *   y^n = (1/2)^(n / 32) * y^(n % 32)
 * the first factor is a shift, the second a 32-bit fixed-point multiply with the table entry
 * runnable_avg_yN_inv[n % 32] = (2^32 - 1) y^(n % 32), truncating. After 63 half-lives any
 * u64 is gone: return 0.
 */
u64 decay_load(u64 val, u64 n)
{
	unsigned int local_n;

	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, runnable_avg_yN_inv[local_n], 32);
}

/*
 * The contribution of a span that crossed p >= 1 period boundaries:
 *
 *      d1          d2           d3
 *      ^           ^            ^
 *      |           |            |
 *    |<->|<----------------->|<--->|
 * ---x---|------| ... |------|-----x (now)
 *
 *   c1 = d1 y^p                 the end of the period that was open at the last update
 *   c2 = 1024 \Sum_{n=1}^{p-1} y^n = LOAD_AVG_MAX - LOAD_AVG_MAX y^p - 1024
 *                               (full periods; \Sum_{n>=0} y^n = LOAD_AVG_MAX / 1024)
 *   c3 = d3                     the part of the current period, not decayed
 *
 * All in u32, as the kernel: c2 could go below 0 by a truncation unit for small p (for p = 1
 * it is exactly 0: LOAD_AVG_MAX y truncates to 46718), and a wrap would cancel in the sum.
 */
u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1, c2, c3 = d3;

	c1 = (u32)decay_load((u64)d1, periods);
	c2 = (u32)(LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024);
	return c1 + c2 + c3;
}

/*
 * Decay the sums if `delta` (1024 ns units) crossed period boundaries, then add the new
 * contribution: u' = u y^p + contrib, where contrib is `delta` itself when no boundary was
 * crossed and the three segments above otherwise. load_sum is weighted by `load`,
 * runnable_sum by `runnable` and both that and util_sum are scaled by 1024 (<< 10).
 * When load is 0 the caller has cleared runnable and running, so contrib is not needed.
 */
u32 accumulate_sum(u64 delta, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		   int running, const struct pelt_variant *pv)
{
	u32 contrib = (u32)delta; /* periods == 0: delta < 1024 */
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;

	if (periods) {
		sa->load_sum = decay_load(sa->load_sum, periods);
		sa->runnable_sum = decay_load(sa->runnable_sum, periods);
		sa->util_sum = (u32)decay_load((u64)sa->util_sum, periods);

		delta %= 1024;
		if (load)
			contrib = __accumulate_pelt_segments(periods, 1024 - sa->period_contrib,
							     (u32)delta);
	}
	sa->period_contrib = (u32)delta;

	if (pv && pv->contrib_scaling) {
		/*
		 * v4.19: the frequency and CPU capacity at this update scale the whole span:
		 *   contrib' = contrib * scale_freq / 1024,  util_sum += contrib' * scale_cpu
		 * so an always-running entity converges to scale_cpu * scale_freq / 1024, the
		 * current capacity, not 1024. (v4.19 computes contrib even when load is 0; then
		 * runnable and running are 0 too, so nothing more is added.)
		 */
		contrib = (u32)cap_scale(contrib, pv->scale_freq);
		if (load)
			sa->load_sum += load * contrib;
		if (runnable)
			sa->runnable_sum += (runnable * contrib) << SCHED_CAPACITY_SHIFT;
		if (running)
			sa->util_sum += (u32)(contrib * pv->scale_cpu);
		return (u32)periods;
	}

	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += (runnable * contrib) << SCHED_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;

	return (u32)periods;
}

/*
 * Advance sa from last_update_time to now in whole 1024 ns units (the remainder is carried
 * to the next call by advancing last_update_time by whole units only). Time going backwards
 * resets last_update_time. Returns 1 only when a period boundary was crossed.
 */
int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		       int running, const struct pelt_variant *pv)
{
	u64 delta = now - sa->last_update_time;

	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;

	/* running is a subset of runnable is a subset of load: no load, nothing else either */
	if (!load)
		runnable = running = 0;

	if (!accumulate_sum(delta, sa, load, runnable, running, pv))
		return 0;
	return 1;
}

/*
 * The most a sum can be at this point of the current period is LOAD_AVG_MAX y + period_contrib
 * = LOAD_AVG_MAX - 1024 + period_contrib: dividing by that keeps an always-running signal at
 * 1024 wherever in the period it is read.
 */
u32 get_pelt_divider(const struct sched_avg *sa)
{
	return LOAD_AVG_MAX - 1024 + sa->period_contrib;
}

void ___update_load_avg(struct sched_avg *sa, unsigned long load)
{
	u32 divider = get_pelt_divider(sa);

	sa->load_avg = (unsigned long)((load * sa->load_sum) / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
}

int __update_load_avg_blocked_se(u64 now, struct sched_avg *se, unsigned long weight)
{
	if (___update_load_sum(now, se, 0, 0, 0, NULL)) {
		___update_load_avg(se, weight);
		return 1;
	}
	return 0;
}

int __update_load_avg_se(u64 now, struct sched_avg *se, unsigned long weight, bool on_rq,
			 bool runnable, bool running, const struct pelt_variant *pv)
{
	if (___update_load_sum(now, se, on_rq, runnable, running, pv)) {
		___update_load_avg(se, weight);
		cfs_se_util_change_flag(se, pelt_util_avg_unchanged(pv));
		return 1;
	}
	return 0;
}

int __update_load_avg_cfs_rq(u64 now, struct sched_avg *cfs, unsigned long load,
			     unsigned long h_nr_running, bool curr, const struct pelt_variant *pv)
{
	if (___update_load_sum(now, cfs, load, h_nr_running, curr, pv)) {
		___update_load_avg(cfs, 1);
		return 1;
	}
	return 0;
}

int update_rt_rq_load_avg(u64 now, struct sched_avg *avg_rt, int running,
			  const struct pelt_variant *pv)
{
	if (___update_load_sum(now, avg_rt, (unsigned long)running, (unsigned long)running,
			       running, pv)) {
		___update_load_avg(avg_rt, 1);
		return 1;
	}
	return 0;
}

int update_dl_rq_load_avg(u64 now, struct sched_avg *avg_dl, int running,
			  const struct pelt_variant *pv)
{
	if (___update_load_sum(now, avg_dl, (unsigned long)running, (unsigned long)running,
			       running, pv)) {
		___update_load_avg(avg_dl, 1);
		return 1;
	}
	return 0;
}

void update_rq_clock_pelt(struct pelt_clock *pc, s64 delta, bool idle, unsigned long capacity,
			  unsigned long freq_scale)
{
	u64 d;

	if (idle) {
		/* an idle rq has nothing to scale: catch up with the task clock */
		_update_idle_rq_clock_pelt(pc);
		return;
	}
	if (delta <= 0)
		return;
	/* time at capacity c and frequency f counts as delta * c/1024 * f/1024 at max */
	d = cap_scale((u64)delta, capacity);
	d = cap_scale(d, freq_scale);
	pc->clock_pelt += d;
}

/*
 * A CPU that was 100% busy has util_sum at its maximum; the time clock_pelt is behind
 * clock_task was then not idle time the CPU could have had, so it must not be given back
 * as decay: remember it as lost. The threshold is ((LOAD_AVG_MAX - 1024) << 10) - LOAD_AVG_MAX.
 */
void update_idle_rq_clock_pelt(struct pelt_clock *pc, u32 util_sum_total)
{
	u32 divider = ((LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX;

	if (util_sum_total >= divider)
		pc->lost_idle_time += pc->clock_task - pc->clock_pelt;
}
