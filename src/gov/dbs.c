/*
 * dbs.c - the shared core of ondemand and conservative, following Linux v5.9
 * drivers/cpufreq/cpufreq_governor.c. See dbs.h.
 *
 * Differences from v5.9 cpufreq_governor.c, and why:
 * - The sample runs in the update hook, at the hook's time: the kernel's
 *   dbs_update_util_handler() only queues irq_work and the governor's dbs_update runs later in a
 *   workqueue (work_in_progress, work_count and update_mutex keep one sample per policy at a
 *   time). The replay is single-threaded, so the sample's idle times are read at the hook's
 *   instant instead of a little later.
 * - cpufreq_dbs_governor_start() runs at the first hook of the trace (dbs_start), not when the
 *   governor starts: before the trace there is nothing to measure idle time against.
 * - get_cpu_idle_time() is the replay's idle time of the CPU (govsim_cpu_idle_ns, in µs): a CPU
 *   is idle when it runs no task, iowait included (io_is_busy 0); ignore_nice_load is 0 and not
 *   a tunable.
 * - __cpufreq_driver_target() is synchronous in the kernel (policy->cur is the new frequency
 *   when it returns); here the request waits for the switch latency, so the governors compare
 *   with policy->next_khz, the frequency last asked for, where the kernel reads policy->cur.
 * - Tunables are --set values read at init; the sysfs stores' checks are kept
 *   (dbs_tunables_parse), not their effect on a running governor.
 * - dbs_report() is the replay's own (--timeline rows: util is the load in percent).
 */
#include "gov/dbs.h"

#include <limits.h>

/* TICK_NSEC for CONFIG_HZ (0 taken as 250): (NSEC_PER_SEC + HZ/2) / HZ. */
static u64 dbs_tick_nsec(int hz)
{
	if (hz <= 0)
		hz = 250;
	return (1000000000ULL + (u64)hz / 2) / (u64)hz;
}

unsigned int dbs_min_sampling_rate_us(int hz)
{
	return (unsigned int)(2 * dbs_tick_nsec(hz) / NSEC_PER_USEC);
}

int dbs_tunables_parse(struct govsim_policy *pol, bool conservative,
		       unsigned int min_sampling_rate_us, struct dbs_tunables *t)
{
	int ret;

	/* store_sampling_rate: below CPUFREQ_DBS_MIN_SAMPLING_INTERVAL is -EINVAL. */
	ret = govsim_tunable_uint(pol, "sampling_rate", min_sampling_rate_us, UINT_MAX,
				  &t->sampling_rate_us);
	if (ret)
		return ret;
	/* MIN_FREQUENCY_UP_THRESHOLD 1 .. MAX_FREQUENCY_UP_THRESHOLD 100 (ondemand); conservative
	 * accepts up to 100 above down_threshold, checked below once both are known. */
	ret = govsim_tunable_uint(pol, "up_threshold", 1, 100, &t->up_threshold);
	if (ret)
		return ret;
	/* MAX_SAMPLING_DOWN_FACTOR: 100000 in ondemand, 10 in conservative. */
	ret = govsim_tunable_uint(pol, "sampling_down_factor", 1, conservative ? 10 : 100000,
				  &t->sampling_down_factor);
	if (ret)
		return ret;
	if (!conservative)
		return GOVSIM_OK;
	/* store_down_threshold: "cannot be lower than 1 otherwise freq will not fall". */
	ret = govsim_tunable_uint(pol, "down_threshold", 1, 100, &t->down_threshold);
	if (ret)
		return ret;
	if (t->down_threshold >= t->up_threshold)
		return govsim_error(pol, "'down_threshold=%u': must be below up_threshold (%u)",
				    t->down_threshold, t->up_threshold);
	ret = govsim_tunable_uint(pol, "freq_step", 0, UINT_MAX, &t->freq_step);
	if (ret)
		return ret;
	if (t->freq_step > 100)
		t->freq_step = 100;
	return GOVSIM_OK;
}

void dbs_policy_init(struct dbs_policy *d, struct govsim_policy *pol)
{
	unsigned int min_rate = dbs_min_sampling_rate_us(pol->kernel->hz);
	unsigned int delay = pol->transition_delay_us;

	d->policy = pol;
	/* "The sampling interval should not be less than the transition latency of the CPU and
	 * it also cannot be too small for dbs_update() to work correctly." */
	d->tun.sampling_rate_us = delay > min_rate ? delay : min_rate;
	d->rate_mult = 1;
	d->idle_periods = UINT_MAX;
	d->nr_cpus = pol->nr_cpus;
	for (int i = 0; i < d->nr_cpus; i++)
		d->cpus[i].cpu = pol->cpus[i];
}

/* get_cpu_idle_time(): idle µs so far, and the wall time in µs. */
static u64 dbs_cpu_idle_us(const struct dbs_policy *d, int cpu, u64 time, u64 *wall_us)
{
	*wall_us = time / NSEC_PER_USEC;
	return govsim_cpu_idle_ns(d->policy, cpu, time) / NSEC_PER_USEC;
}

/*
 * Per CPU: load = 100 * (elapsed - idle) / elapsed over the time since the last sample. A
 * CPU that was idle for more than two sampling periods and has just woken reuses its previous
 * load once (so a bursty task starts at a reasonable frequency), then the load is computed
 * afresh. The arithmetic is the kernel's unsigned int.
 */
unsigned int dbs_update(struct dbs_policy *d, u64 time)
{
	unsigned int max_load = 0, idle_periods = UINT_MAX;
	unsigned int sampling_rate = d->tun.sampling_rate_us * d->rate_mult;

	for (int j = 0; j < d->nr_cpus; j++) {
		struct dbs_cpu *j_cdbs = &d->cpus[j];
		u64 update_time, cur_idle_time;
		unsigned int idle_time, time_elapsed, load;

		cur_idle_time = dbs_cpu_idle_us(d, j_cdbs->cpu, time, &update_time);

		time_elapsed = (unsigned int)(update_time - j_cdbs->prev_update_time);
		j_cdbs->prev_update_time = update_time;

		idle_time = (unsigned int)(cur_idle_time - j_cdbs->prev_cpu_idle);
		j_cdbs->prev_cpu_idle = cur_idle_time;

		if (!time_elapsed) {
			/* Called twice in a row: keep the previous load. */
			load = j_cdbs->prev_load;
		} else if (idle_time > 2 * sampling_rate && j_cdbs->prev_load) {
			load = j_cdbs->prev_load;
			j_cdbs->prev_load = 0;
		} else {
			if (time_elapsed >= idle_time)
				load = 100 * (time_elapsed - idle_time) / time_elapsed;
			else
				load = (int)idle_time < 0 ? 100 : 0;
			j_cdbs->prev_load = load;
		}

		if (idle_time > 2 * sampling_rate) {
			unsigned int periods = idle_time / sampling_rate;

			if (periods < idle_periods)
				idle_periods = periods;
		}

		j_cdbs->load = load;
		if (load > max_load)
			max_load = load;
	}

	d->idle_periods = idle_periods;
	return max_load;
}

/* cpufreq_dbs_governor_start at the first hook: the idle baseline of every CPU. */
static void dbs_start(struct dbs_policy *d, u64 time)
{
	for (int j = 0; j < d->nr_cpus; j++) {
		struct dbs_cpu *j_cdbs = &d->cpus[j];

		j_cdbs->prev_cpu_idle = dbs_cpu_idle_us(d, j_cdbs->cpu, time,
							&j_cdbs->prev_update_time);
		j_cdbs->prev_load = 0;
	}
	d->rate_mult = 1;
	if (d->gov_start)
		d->gov_start(d);
	d->sample_delay_ns = (u64)d->tun.sampling_rate_us * NSEC_PER_USEC;
	d->last_sample_time = time;
	d->started = true;
}

static void dbs_report(struct dbs_policy *d, u64 time)
{
	if (!d->policy->report)
		return;
	for (int j = 0; j < d->nr_cpus; j++) {
		struct govsim_eval e = {0};

		e.time_ns = time;
		e.cpu = d->cpus[j].cpu;
		e.policy = d->policy->cpus[0];
		govsim_cpu_util(d->policy, e.cpu, &e.in);
		e.uclamp_min = 0;
		e.uclamp_max = SCHED_CAPACITY_SCALE;
		e.util = d->cpus[j].load; /* percent: what these governors use */
		e.target_khz = d->last_target_khz;
		govsim_report(d->policy, &e); /* the host adds the frequency in force */
	}
}

void dbs_driver_target(struct dbs_policy *d, u32 target_khz, enum govsim_relation rel,
		       u64 time)
{
	u32 f = govsim_resolve_freq(d->policy, target_khz, rel);

	d->last_target_khz = target_khz;
	if (f == d->policy->next_khz)
		return;
	govsim_request_freq(d->policy, f, rel, time);
}

void dbs_update_util_handler(struct dbs_policy *d, int cpu, u64 time)
{
	unsigned int delay_us;

	if (!d->started) {
		dbs_start(d, time);
		return;
	}
	/* cpufreq_this_cpu_can_update(): a remote update the driver cannot act on is dropped */
	if (!govsim_this_cpu_can_update(d->policy))
		return;
	/* Too early: too little time since the previous sample. */
	if ((s64)(time - d->last_sample_time) < (s64)d->sample_delay_ns)
		return;

	d->last_sample_time = time;
	d->last_target_khz = d->policy->next_khz;
	delay_us = d->gov_dbs_update(d, time);
	/* gov_update_sample_delay */
	d->sample_delay_ns = (u64)delay_us * NSEC_PER_USEC;
	dbs_report(d, time);
}
