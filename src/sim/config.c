/*
 * config.c - the replay's configuration: defaults, and the replay's own --set keys taken out of
 * the tunables. The keys are one table (sim_params): each names its field of struct sim_config,
 * the kind of value it takes, its bounds and its help; parsing, the list the command line gives
 * (sim_param_key) and the error messages all come from it.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "core/parse.h"
#include "cpufreq/cpufreq.h"
#include "uclamp/uclamp.h"

void sim_opts_init(struct sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timing = SIM_TIMING_WORK;
	o->util_source = SIM_UTIL_EMULATED;
	o->power_model = POWER_MODEL_EM;
}

void sim_config_init(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	sim_opts_init(&cfg->opts);
	cfg->hz = 250;
	cfg->update_points = SIM_UPDATE_KERNEL;
	cfg->uclamp_buckets = UCLAMP_BUCKETS_DEFAULT;
	cfg->scaling_max_khz = CPUFREQ_NO_MAX_KHZ;
	cfg->uclamp_task = true;
	cfg->freq_invariant = -1;
	cfg->kthread_traced = 1;
	cfg->rq_clock_traced = 1;
	cfg->start_state = 1;
	cfg->delay_dequeue = -1;
	cfg->dvfs_any_cpu = -1;
	cfg->cpuidle_driver = 1;
	cfg->placement_slices = true;
}

/*
 * The value of p, N or N0:N1:... (CPU by CPU), into v[0..n-1]: each an s64 (is_signed) or a
 * u64 (kept in the u64's bits); n, or GS_EARG. `want` says what a value is, for the message
 * ("expected ..., or ... per CPU"). An empty element (":5", "5::6", "5:") is refused, as the
 * facts file refuses it.
 */
static int parse_cpu_values(const struct gov_param *p, bool is_signed, const char *want,
			    u64 v[GS_MAX_CPUS], struct gs_error *err)
{
	char buf[32 * 24];
	char *tok, *next;
	int n = 0;

	if (strlen(p->value) >= sizeof(buf))
		return gs_error_set(err, GS_EARG, "--set %s: value too long", p->key);
	if (!p->value[0])
		return gs_error_set(err, GS_EARG, "--set %s='': expected ns", p->key);
	strcpy(buf, p->value);
	for (tok = buf; tok; tok = next, n++) {
		s64 sv;

		next = strchr(tok, ':');
		if (next)
			*next++ = '\0';
		if (!*tok)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': value %d of the ':'-separated list is empty",
					    p->key, p->value, n + 1);
		if (n >= GS_MAX_CPUS ||
		    (is_signed ? gs_parse_s64(tok, &sv) : gs_parse_u64(tok, &v[n])) != 0)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': %s separated by ':' (at most %d)", p->key,
					    p->value, want, GS_MAX_CPUS);
		if (is_signed)
			v[n] = (u64)sv;
	}
	return n;
}

/* governor_start_ns=N (every CPU) or N0:N1:... (CPU by CPU, the last repeats: a lab
 * recording's policies each start after their own switch). governor_start_ns is the earliest.
 * 0 or GS_EARG. */
static int parse_governor_start(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	u64 v[GS_MAX_CPUS], first = UINT64_MAX;
	int n = parse_cpu_values(p, false, "expected a non-negative integer, or one per CPU", v,
				 err);

	if (n < 0)
		return n;
	for (int c = 0; c < GS_MAX_CPUS; c++) {
		cfg->governor_start_cpu_ns[c] = v[c < n ? c : n - 1];
		first = c < n && v[c] < first ? v[c] : first;
	}
	cfg->governor_start_ns = first;
	return 0;
}

/* rq_clock_offset_ns=N (every CPU) or N0:N1:... (CPU by CPU; the last repeats). 0 or GS_EARG. */
static int parse_rq_clock_offset(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	u64 v[GS_MAX_CPUS];
	int n = parse_cpu_values(p, true, "expected ns (may be negative), or ns per CPU", v, err);

	if (n < 0)
		return n;
	for (int c = 0; c < GS_MAX_CPUS; c++)
		cfg->rq_clock_offset_ns[c] = (s64)v[c < n ? c : n - 1];
	return 0;
}

/* What a key's value is, and how it is written into its field. */
enum sim_param_type {
	SIM_PARAM_FLAG,  /* an int, 0 or 1 written as such */
	SIM_PARAM_INT,   /* an int, a non-negative integer within [min, max] */
	SIM_PARAM_BOOL,  /* a bool, a non-negative integer within [min, max] (0..1) */
	SIM_PARAM_US,    /* a u64 in ns, given in us: a non-negative integer within [min, max] */
	SIM_PARAM_KHZ,   /* a u32 in kHz, a non-negative integer (larger ones saturate) */
	SIM_PARAM_WORD,  /* an enum (int-sized): the index of the value among words */
	SIM_PARAM_CUSTOM /* parsed by parse (a per-CPU list) */
};

struct sim_param {
	const char *key;
	enum sim_param_type type;
	size_t offset; /* of the field in struct sim_config */
	/* offset of a bool of struct sim_config set when the key is given; 0 (where opts is,
	 * never a bool): none */
	size_t given;
	u64 min, max;      /* SIM_PARAM_INT, _BOOL and _US: the bounds, inclusive */
	const char *range; /* ... the error's words for a value out of them */
	const char *words[3]; /* SIM_PARAM_WORD: the values, in the enum's order */
	int (*parse)(struct sim_config *cfg, struct gov_param *p, struct gs_error *err);
	const char *help; /* one line of `run --help`, after the key */
};

_Static_assert(offsetof(struct sim_config, opts) == 0, "sim_param.given: 0 is no field");
_Static_assert(sizeof(enum sim_update_points) == sizeof(int) &&
		       sizeof(enum sim_start_freq) == sizeof(int),
	       "SIM_PARAM_WORD fields are int-sized");

/* The offset of field f of struct sim_config, which must be of type T (else a compile error):
 * what parse_param() writes through it is the field's type. */
#define FIELD(f, T) \
	(offsetof(struct sim_config, f) + 0 * sizeof(_Generic(((struct sim_config *)0)->f, T: 1)))

/* The replay's own --set keys, in the order `run --help` and the errors list them. */
static const struct sim_param sim_params[] = {
	{.key = "hz", .type = SIM_PARAM_INT, .offset = FIELD(hz, int), .min = 100, .max = 1000,
	 .range = "CONFIG_HZ must be 100..1000",
	 .help = "CONFIG_HZ, the scheduler tick's rate (250)"},
	{.key = "switch_latency_us", .type = SIM_PARAM_US, .offset = FIELD(switch_latency_ns, u64),
	 .given = FIELD(has_switch_latency, bool), .max = 1000000, .range = "more than 1 s",
	 .help = "a frequency request's latency (the platform's transition latency; 0 = fast "
		 "switch)"},
	{.key = "transition_us", .type = SIM_PARAM_US, .offset = FIELD(transition_ns, u64),
	 .max = 1000000, .range = "more than 1 s",
	 .help = "the slow path's driver call: a frequency lands that long after the sugov "
		 "kthread read it (0)"},
	{.key = "switch_clock_lead_us", .type = SIM_PARAM_US,
	 .offset = FIELD(switch_clock_lead_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "a switch's PELT updates happen that long before its sched_switch, where "
		 "__schedule() read the rq clock (0; the lab measures it)"},
	{.key = "sleep_clock_lead_us", .type = SIM_PARAM_US,
	 .offset = FIELD(sleep_clock_lead_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "the same for a switch whose prev sleeps, where no hook call dates it (0: "
		 "switch_clock_lead_us; the lab measures it)"},
	{.key = "pelt_event_lead_us", .type = SIM_PARAM_US,
	 .offset = FIELD(pelt_event_lead_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "a switch or a wakeup that traced the kernel's own PELT or util_est events "
		 "read the rq clock that long before the first of them, where no hook call dates "
		 "it (0; the lab measures it on its PELT recordings)"},
	{.key = "wakeup_clock_lead_us", .type = SIM_PARAM_US,
	 .offset = FIELD(wakeup_clock_lead_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "the same for a wakeup's enqueue (0)"},
	{.key = "waking_clock_lag_us", .type = SIM_PARAM_US,
	 .offset = FIELD(waking_clock_lag_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "a wakeup whose sched_waking its own CPU traced read the rq clock that long "
		 "after it (0; the lab measures it)"},
	{.key = "task_dead_irq_us", .type = SIM_PARAM_US,
	 .offset = FIELD(task_dead_irq_ns, u64), .max = 1000000, .range = "more than 1 s",
	 .help = "an interrupt traced on a dying task's CPU within that long of its switch ran "
		 "before its util left the CPU (finish_task_switch()'s task_dead(); 0; the lab "
		 "measures it)"},
	{.key = "update_points", .type = SIM_PARAM_WORD,
	 .offset = FIELD(update_points, enum sim_update_points),
	 .words = {"kernel", "context-switch"}, /* SIM_UPDATE_KERNEL, SIM_UPDATE_CONTEXT_SWITCH */
	 .help = "kernel|context-switch: the governor is called where the kernel calls "
		 "cpufreq_update_util (kernel), or at each context switch"},
	{.key = "scaling_min_freq", .type = SIM_PARAM_KHZ, .offset = FIELD(scaling_min_khz, u32),
	 .help = "every policy's scaling_min_freq (kHz)"},
	{.key = "scaling_max_freq", .type = SIM_PARAM_KHZ, .offset = FIELD(scaling_max_khz, u32),
	 .help = "every policy's scaling_max_freq (kHz)"},
	{.key = "uclamp_buckets", .type = SIM_PARAM_INT, .offset = FIELD(uclamp_buckets, int),
	 .min = 5, .max = UCLAMP_BUCKETS_MAX, .range = "CONFIG_UCLAMP_BUCKETS_COUNT must be 5..20",
	 .help = "CONFIG_UCLAMP_BUCKETS_COUNT, 5..20 (5)"},
	{.key = "cgroup_depth", .type = SIM_PARAM_INT, .offset = FIELD(cgroup_depth, int),
	 .max = 64, .range = "more than 64 levels",
	 .help = "cgroup levels above every task's group (0): the kernel overhead's "
		 "configuration"},
	{.key = "uclamp_task", .type = SIM_PARAM_BOOL, .offset = FIELD(uclamp_task, bool),
	 .max = 1, .range = "expected 0 or 1 (CONFIG_UCLAMP_TASK)",
	 .help = "0|1: CONFIG_UCLAMP_TASK (1; 0: no uclamp costs, and a policy may only "
		 "attach): the kernel overhead's configuration"},
	{.key = "freq_invariant", .type = SIM_PARAM_FLAG, .offset = FIELD(freq_invariant, int),
	 .help = "0|1 (the platform's): 0 for a CPU without frequency counters, PELT unscaled "
		 "and schedutil scaling policy->cur"},
	{.key = "dvfs_possible_from_any_cpu", .type = SIM_PARAM_FLAG,
	 .offset = FIELD(dvfs_any_cpu, int),
	 .help = "0|1 (the platform's driver): 0 for acpi-cpufreq, whose policies only their "
		 "own CPUs update"},
	{.key = "rq_clock_offset_ns", .type = SIM_PARAM_CUSTOM, .parse = parse_rq_clock_offset,
	 .given = FIELD(has_rq_clock_offset, bool),
	 .help = "N|N0:N1:...: trace time minus the kernel's rq clock, may be negative (PELT "
		 "periods then start where the kernel's did)"},
	{.key = "start_freq", .type = SIM_PARAM_WORD,
	 .offset = FIELD(start_freq, enum sim_start_freq),
	 .words = {"traced", "max"}, /* SIM_START_TRACED, SIM_START_MAX */
	 .help = "traced|max: each policy's frequency at the start (traced: the trace's first, "
		 "else its maximum)"},
	{.key = "governor_start_ns", .type = SIM_PARAM_CUSTOM, .parse = parse_governor_start,
	 .help = "N|N0:N1:...: no governor evaluation before trace time N (CPU by CPU, the last "
		 "repeating)"},
	{.key = "sched_autogroup", .type = SIM_PARAM_FLAG, .offset = FIELD(sched_autogroup, int),
	 .help = "0|1: CONFIG_SCHED_AUTOGROUP (0; 1: an exiting task is moved to its group at "
		 "sched_process_exit, three cpufreq updates; traced timing)"},
	{.key = "cpuidle_driver", .type = SIM_PARAM_FLAG, .offset = FIELD(cpuidle_driver, int),
	 .help = "0|1 (1; 0: no cpuidle driver, so a v6.1+ kernel's idle entry counts for "
		 "schedutil's busy hold only after a tick woke the idle loop)"},
	{.key = "kthread_traced", .type = SIM_PARAM_FLAG, .offset = FIELD(kthread_traced, int),
	 .help = "0|1 (1: where the trace shows the sugov:N kthread, the slow path's run and "
		 "driver call follow its traced wakeup, switches and cpu_frequency; 0: "
		 "switch_latency_us and transition_us)"},
	{.key = "rq_clock_traced", .type = SIM_PARAM_FLAG, .offset = FIELD(rq_clock_traced, int),
	 .help = "0|1 (1: a switch or wakeup right after a traced call of schedutil's hook, "
		 "time=, runs at that rq clock, a tick or SCHED_SOFTIRQ refresh right before its "
		 "own call too; needs rq_clock_offset_ns)"},
	{.key = "start_state", .type = SIM_PARAM_FLAG, .offset = FIELD(start_state, int),
	 .help = "0|1 (1: where the trace carries the lab's snapshot of the kernel's PELT "
		 "state, lab: start_se / start_cfs markers, tasks and runqueues start from it)"},
	{.key = "delay_dequeue", .type = SIM_PARAM_FLAG, .offset = FIELD(delay_dequeue, int),
	 .help = "0|1 (the profile's: 1 from v6.12): EEVDF's DELAY_DEQUEUE scheduler feature; a "
		 "task that sleeps while not eligible stays queued, its weight in the load, until "
		 "a pick dequeues it or it wakes"},
};

#undef FIELD

const char *sim_param_key(size_t i, const char **help)
{
	if (i >= GS_ARRAY_SIZE(sim_params))
		return NULL;
	if (help)
		*help = sim_params[i].help;
	return sim_params[i].key;
}

static const struct sim_param *sim_param_find(const char *key)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(sim_params); i++)
		if (strcmp(sim_params[i].key, key) == 0)
			return &sim_params[i];
	return NULL;
}

/* A SIM_PARAM_WORD's value: the index of p's value among d's words, or GS_EARG naming them. */
static int parse_word(const struct sim_param *d, const struct gov_param *p, struct gs_error *err)
{
	char want[64] = "";
	int n = 0;

	for (; n < (int)GS_ARRAY_SIZE(d->words) && d->words[n]; n++)
		if (strcmp(p->value, d->words[n]) == 0)
			return n;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(want);

		snprintf(want + len, sizeof(want) - len, "%s%s",
			 !i ? "" : i == n - 1 ? " or " : ", ", d->words[i]);
	}
	return gs_error_set(err, GS_EARG, "--set %s='%s': expected %s", p->key, p->value, want);
}

/* Key d's value p into cfg: 0, or GS_EARG saying what is wrong with it. */
static int parse_param(struct sim_config *cfg, const struct sim_param *d, struct gov_param *p,
		       struct gs_error *err)
{
	char *field = (char *)cfg + d->offset;
	u64 v = 0;
	int w;

	switch (d->type) {
	case SIM_PARAM_CUSTOM:
		if ((w = d->parse(cfg, p, err)) != 0)
			return w;
		break;
	case SIM_PARAM_FLAG:
		if (strcmp(p->value, "0") != 0 && strcmp(p->value, "1") != 0)
			return gs_error_set(err, GS_EARG, "--set %s='%s': expected 0 or 1", p->key,
					    p->value);
		*(int *)field = p->value[0] == '1';
		break;
	case SIM_PARAM_WORD:
		if ((w = parse_word(d, p, err)) < 0)
			return w;
		*(int *)field = w;
		break;
	default:
		if (gs_parse_u64(p->value, &v) != 0)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': not a non-negative integer", p->key,
					    p->value);
		if (d->type != SIM_PARAM_KHZ && (v < d->min || v > d->max))
			return gs_error_set(err, GS_EARG, "--set %s=%" PRIu64 ": %s", p->key, v,
					    d->range);
		if (d->type == SIM_PARAM_INT)
			*(int *)field = (int)v;
		else if (d->type == SIM_PARAM_BOOL)
			*(bool *)field = v == 1;
		else if (d->type == SIM_PARAM_US)
			*(u64 *)field = v * NSEC_PER_USEC;
		else
			*(u32 *)field = (u32)gs_min_u64(v, UINT32_MAX);
		break;
	}
	if (d->given)
		*(bool *)((char *)cfg + d->given) = true;
	p->used = true;
	return 0;
}

int sim_config_parse_params(struct sim_config *cfg, struct gs_error *err)
{
	for (int i = 0; i < cfg->opts.nr_params; i++) {
		struct gov_param *p = &cfg->params[i];
		const struct sim_param *d = sim_param_find(p->key);
		int ret = d ? parse_param(cfg, d, p, err) : 0;

		if (ret)
			return ret;
	}
	return 0;
}
