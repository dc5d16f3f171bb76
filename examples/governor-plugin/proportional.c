/*
 * proportional.c - a governor plugin for govsim: the frequency proportional to the busiest
 * CPU's utilization, with no headroom (schedutil adds 25 %):
 *
 *   target = cpuinfo_max_khz * (util_cfs + util_rt) / capacity   of the busiest CPU,
 *
 * resolved to the lowest OPP at or above it (RELATION_L) within the policy limits. Tunable
 * `floor_khz=N`: never ask for less than N kHz (default 0).
 *
 * Built against the installed header alone (pkg-config govsim); see CMakeLists.txt and the
 * README's "Governor plugins".
 */
#include <stdlib.h>

#include <govsim/governor.h>

struct prop {
	unsigned int floor_khz;
};

static int prop_init(struct govsim_policy *pol, void **data)
{
	struct prop *g;
	unsigned int floor_khz = 0;
	int ret = govsim_tunable_uint(pol, "floor_khz", 0, pol->cpuinfo_max_khz, &floor_khz);

	if (ret)
		return ret;
	g = calloc(1, sizeof(*g));
	if (!g)
		return GOVSIM_ENOMEM;
	g->floor_khz = floor_khz;
	*data = g;
	return GOVSIM_OK;
}

static void prop_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			unsigned int flags)
{
	struct prop *g = data;
	struct govsim_cpu_util u[GOVSIM_MAX_CPUS];
	unsigned long ratio = 0; /* util / capacity of the busiest CPU, x 1024 */
	unsigned long long target;
	int busiest = 0;

	(void)cpu;
	(void)flags;
	for (int i = 0; i < pol->nr_cpus; i++) {
		unsigned long cap, r;

		govsim_cpu_util(pol, pol->cpus[i], &u[i]);
		cap = u[i].capacity ? u[i].capacity : GOVSIM_CAPACITY_SCALE;
		r = (u[i].util_cfs + u[i].util_rt) * GOVSIM_CAPACITY_SCALE / cap;
		if (r > ratio) {
			ratio = r;
			busiest = i;
		}
	}
	target = (unsigned long long)pol->cpuinfo_max_khz * ratio / GOVSIM_CAPACITY_SCALE;
	if (target < g->floor_khz)
		target = g->floor_khz;
	if (target > 0xffffffffULL)
		target = 0xffffffffULL;
	govsim_request_freq(pol, (unsigned int)target, GOVSIM_RELATION_L, now_ns);

	/* one evaluation per CPU for --timeline: the busiest CPU's ratio decided */
	if (pol->report) {
		for (int i = 0; i < pol->nr_cpus; i++) {
			struct govsim_eval e = {0};

			e.time_ns = now_ns;
			e.cpu = pol->cpus[i];
			e.policy = pol->cpus[0];
			e.in = u[i];
			e.uclamp_min = 0;
			e.uclamp_max = GOVSIM_CAPACITY_SCALE;
			e.util = i == busiest ? ratio : 0;
			e.target_khz = (unsigned int)target;
			govsim_report(pol, &e);
		}
	}
}

static void prop_release(struct govsim_policy *pol, void *data)
{
	(void)pol;
	free(data);
}

static const struct govsim_tunable prop_tunables[] = {
	{"floor_khz", "never ask for less than N kHz (0..cpuinfo_max_freq, default 0)"},
	{NULL, NULL},
};

/* The one symbol govsim looks for. */
__attribute__((visibility("default"))) const struct govsim_governor govsim_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "proportional",
	.help = "f = f_max x util / capacity of the busiest CPU, no headroom; floor_khz=N",
	.tunables = prop_tunables,
	.init = prop_init,
	.update = prop_update,
	.release = prop_release,
};
