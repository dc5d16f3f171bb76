/*
 * iowait.c - the kernel's own iowait requests, replayed (sim_config.iowait_traced).
 *
 * Android kernels trace schedutil's sugov_set_iowait_boost() on the CPU whose update it
 * handles: "doing iow boost" when the update carries SCHED_CPUFREQ_IOWAIT (a task woke from
 * IO), "skipping iow boost" otherwise. A "doing" becomes cpufreq_update_util(rq,
 * SCHED_CPUFREQ_IOWAIT) on that CPU, at its trace time in traced timing and at the replay's
 * time in work timing (the request belongs to no one task's work); the updates without the
 * flag the model makes at its own call sites. The scheduler model then takes no D-state sleep
 * for an IO wait (sched_config.iowait_traced), so no wakeup is boosted twice.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>

int sim_feed_iowait(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (!ev->iowait.boost || !s->cfg.iowait_traced)
		return 0;
	if (ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
		return gs_error_set(err, GS_ETRACE,
				    "line %" PRIu64 ": %s on CPU %d, but platform '%s' has %d CPUs "
				    "(0-%d)",
				    ev->line, event_type_name(ev->type), ev->cpu, s->plat->name,
				    s->plat->nr_cpus, s->plat->nr_cpus - 1);
	if (!s->work) {
		ret = sim_advance(s, ev->ts_ns, err);
		if (ret)
			return ret;
	}
	s->iowait_requests++;
	sim_hook_cpufreq_update(s, ev->cpu, s->now, SCHED_CPUFREQ_IOWAIT);
	sim_flush_freq(s);
	return 0;
}

u64 sim_iowait_requests(const struct sim *s)
{
	return s->iowait_requests;
}
