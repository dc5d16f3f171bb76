/* prescan.c - sim_prescan(): the first traced frequencies, whether idle is traced, and how the
 * trace's CPUs fit the platform's. */
#include "sim/sim.h"

#include <string.h>

/* ---- pre-scan ------------------------------------------------------------------------------- */

/*
 * The kernel writes one cpu_frequency per CPU of a policy in one loop (cpufreq_notify_transition,
 * or the fast-switch path's for_each_cpu), microseconds apart, and devlib writes its markers for
 * every CPU in one go; so once a cluster's CPUs have had no frequency event for FIT_QUIET_NS,
 * CPUs of one policy hold one frequency. Two values then mean the trace's CPUs were not in the
 * platform's clusters.
 */
#define FIT_QUIET_NS 5000000ull
/* CPUs named by a trace without a header can appear late: read at least this many events */
#define FIT_MIN_EVENTS 20000u

struct fit_state {
	u32 cur_khz[GS_MAX_CPUS];
	u64 last_ns[GS_MAX_CLUSTERS];
	bool dirty[GS_MAX_CLUSTERS];
};

static void fit_cpu(struct sim_fit *fit, int cpu, const struct event *ev, int nr_cpus)
{
	if (cpu < 0)
		return;
	if (cpu >= nr_cpus && fit->over_cpu < 0) {
		fit->over_cpu = cpu;
		fit->over_line = ev->line;
		fit->over_type = ev->type;
	}
	if (cpu > fit->max_cpu)
		fit->max_cpu = cpu;
	if (cpu < 64)
		fit->cpus_seen |= 1ull << cpu;
}

/* Cluster k settled: record the first time its CPUs hold different frequencies. */
static void fit_check(const struct platform *plat, struct fit_state *fs, struct sim_fit *fit, int k)
{
	const struct plat_cluster *pc = &plat->clusters[k];
	u32 seen = 0;
	bool split = false;

	fs->dirty[k] = false;
	if (fit->split_cluster >= 0)
		return;
	for (int i = 0; i < pc->nr_cpus; i++) {
		u32 khz = fs->cur_khz[pc->cpus[i]];
		if (!khz)
			continue;
		split |= seen && khz != seen;
		seen = khz;
	}
	if (!split)
		return;
	fit->split_cluster = k;
	for (int i = 0; i < pc->nr_cpus; i++)
		fit->split_khz[pc->cpus[i]] = fs->cur_khz[pc->cpus[i]];
}

static void fit_freq(const struct platform *plat, struct fit_state *fs, struct sim_fit *fit,
		     int cpu, u32 khz, u64 ts)
{
	int k;

	if (cpu < 0 || cpu >= plat->nr_cpus || !khz)
		return;
	for (int j = 0; j < plat->nr_clusters; j++)
		if (fs->dirty[j] && ts - fs->last_ns[j] > FIT_QUIET_NS)
			fit_check(plat, fs, fit, j);
	k = plat->cpus[cpu].cluster;
	fs->cur_khz[cpu] = khz;
	fs->last_ns[k] = ts;
	fs->dirty[k] = true;
}

static void fit_event(const struct event *ev, struct sim_fit *fit, int nr_cpus)
{
	switch (ev->type) {
	case EV_CPU_FREQUENCY:
	case EV_FREQ_MARKER:
		fit_cpu(fit, (int)ev->power.cpu_id, ev, nr_cpus);
		break;
	case EV_CSV_UTIL:
		fit_cpu(fit, ev->util.cpu, ev, nr_cpus);
		break;
	case EV_MIGRATE:
		fit_cpu(fit, ev->cpu, ev, nr_cpus);
		fit_cpu(fit, ev->migrate.orig_cpu, ev, nr_cpus);
		fit_cpu(fit, ev->migrate.dest_cpu, ev, nr_cpus);
		break;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		fit_cpu(fit, ev->cpu, ev, nr_cpus);
		fit_cpu(fit, ev->wake.target_cpu, ev, nr_cpus);
		break;
	default:
		fit_cpu(fit, ev->cpu, ev, nr_cpus);
	}
}

/* The events a pre-scan reads: a reader of the file, or a cursor of its cache. */
struct prescan_src {
	struct trace_reader *rd;
	struct trace_cache_cursor cur;
};

static int prescan_next(struct prescan_src *src, struct event *ev, struct gs_error *err)
{
	return src->rd ? trace_reader_next(src->rd, ev, err) : trace_cache_next(&src->cur, ev);
}

int sim_prescan(const char *path, const struct trace_cache *cache, const struct reader_opts *opts,
		u64 max_events, const struct platform *plat, bool need_idle,
		u32 initial_khz[GS_MAX_CPUS], bool *has_idle, struct sim_fit *fit,
		struct gs_error *err)
{
	struct fit_state fs;
	struct prescan_src src = {0};
	struct event ev;
	u64 n = 0;
	int known = 0, ret, nr_cpus = plat->nr_cpus;

	memset(initial_khz, 0, GS_MAX_CPUS * sizeof(u32));
	memset(fit, 0, sizeof(*fit));
	memset(&fs, 0, sizeof(fs));
	fit->max_cpu = -1;
	fit->over_cpu = -1;
	fit->split_cluster = -1;
	*has_idle = false;
	if (cache) {
		trace_cache_rewind(cache, &src.cur);
	} else {
		if (strcmp(path, "-") == 0)
			return 0;
		ret = trace_reader_open(path, opts, &src.rd, err);
		if (ret)
			return ret;
	}
	/* stop as soon as every CPU has a frequency and, if asked, idle events were seen */
	while (n++ < max_events &&
	       (known < nr_cpus || (need_idle && !*has_idle) || n <= FIT_MIN_EVENTS) &&
	       (ret = prescan_next(&src, &ev, err)) == 1) {
		int cpu = -1;
		u32 khz = 0;
		fit_event(&ev, fit, nr_cpus);
		if (ev.type == EV_IOWAIT_BOOST)
			fit->iowait_events++;
		if (ev.type == EV_CPU_FREQUENCY || ev.type == EV_FREQ_MARKER) {
			cpu = (int)ev.power.cpu_id;
			khz = ev.power.state;
			fit_freq(plat, &fs, fit, cpu, khz, ev.ts_ns);
		} else if (ev.type == EV_CSV_UTIL && ev.util.freq_khz != EV_NO_VALUE) {
			cpu = ev.util.cpu;
			khz = (u32)ev.util.freq_khz;
		}
		if (cpu >= 0 && cpu < GS_MAX_CPUS && !initial_khz[cpu] && khz) {
			initial_khz[cpu] = khz;
			if (cpu < nr_cpus)
				known++;
		}
		if (ev.type == EV_CPU_IDLE ||
		    (ev.type == EV_CSV_UTIL && ev.util.idle_state != EV_IDLE_ABSENT))
			*has_idle = true;
	}
	for (int k = 0; k < plat->nr_clusters; k++)
		if (fs.dirty[k])
			fit_check(plat, &fs, fit, k);
	trace_reader_free(src.rd);
	gs_error_clear(err);
	return 0; /* errors are reported by the real pass */
}
