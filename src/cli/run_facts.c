/*
 * run_facts.c - a lab recording's facts file as the run's defaults: the platform, the --set
 * values the kernel had, the clamp policy it ran (run_opts_apply_facts(), run_opts.h).
 */
#include "cli/run_opts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/strbuf.h"

/* A --set default from the facts, its value formatted as printf does: added unless the command
 * line set the key, and said in the note; 0, or an error where no room is left (none dropped). */
static int __attribute__((format(printf, 4, 5)))
facts_param(struct run_opts *o, struct strbuf *note, const char *key, const char *fmt, ...)
{
	va_list ap;

	for (int i = 0; i < o->sim.nr_params; i++)
		if (strcmp(o->params[i].key, key) == 0)
			return 0;
	for (int i = 0; i < (int)GS_ARRAY_SIZE(o->facts_values); i++) {
		char *v = o->facts_values[i];

		if (*v || o->sim.nr_params == RUN_OPTS_MAX_PARAMS)
			continue;
		va_start(ap, fmt);
		vsnprintf(v, sizeof(o->facts_values[i]), fmt, ap);
		va_end(ap);
		o->params[o->sim.nr_params++] = (struct gov_param){.key = key, .value = v};
		strbuf_addf(note, ", %s=%s", key, v);
		return 0;
	}
	return cli_fail(EXIT_USAGE, "%s: %s: no room for it beside %d --set options", o->facts.path,
			key, o->sim.nr_params);
}

/* The facts' clamp policy (the settings the workload made in the kernel: the traced
 * configuration, so validate takes it too), read from beside the facts file. */
static int apply_facts_policy(struct run_opts *o, struct gs_error *err)
{
	const char *slash = strrchr(o->facts.path, '/');
	int dir = slash ? (int)(slash - o->facts.path) + 1 : 0;
	char path[sizeof(o->facts.path) + sizeof(o->facts.policy)];

	snprintf(path, sizeof(path), "%.*s%s", dir, o->facts.path, o->facts.policy);
	if (policy_parse_file(&o->policy, path, err))
		return cli_report(err);
	o->sim.policy = &o->policy;
	return 0;
}

/*
 * The facts file beside the only trace (a lab recording, trace/facts.h): its platform unless
 * --platform names one, and as --set defaults (a --set of the same key wins) what the kernel
 * had -- freq_invariant, start_freq=max after sugov_start, hz, the fast-switch path
 * (switch_latency_us=0), the slow path's measured driver call (transition_us), schedutil's
 * rate_limit_us -- and, unless --policy/--action, the clamp
 * settings it made (clamp_policy = FILE). Said on stderr, and recorded with the run as any --set
 * and policy are.
 */
int run_opts_apply_facts(struct run_opts *o, bool *platform_given, struct gs_error *err)
{
	struct trace_facts *f = &o->facts;
	struct strbuf note = STRBUF_INIT;
	int ret = 0;

	if (o->nr_traces != 1)
		return 0;
	if (trace_facts_find(o->traces[0], f, err))
		return cli_report(err);
	if (!f->present)
		return 0;
	strbuf_addf(&note, "govsim: note: facts of the recording from '%s'", f->path);
	if (!*platform_given && f->platform[0]) {
		o->platform_name = f->platform;
		*platform_given = true;
		strbuf_addf(&note, ": platform %s", f->platform);
	}
	if (f->freq_invariant >= 0)
		ret |= facts_param(o, &note, "freq_invariant", "%d", f->freq_invariant);
	if (f->sugov_start)
		ret |= facts_param(o, &note, "start_freq", "max");
	if (f->sugov_start && f->governor_start[0])
		ret |= facts_param(o, &note, "governor_start_ns", "%s", f->governor_start);
	if (f->hz)
		ret |= facts_param(o, &note, "hz", "%d", f->hz);
	if (f->cpuidle_driver >= 0)
		ret |= facts_param(o, &note, "cpuidle_driver", "%d", f->cpuidle_driver);
	if (f->sched_autogroup >= 0)
		ret |= facts_param(o, &note, "sched_autogroup", "%d", f->sched_autogroup);
	if (f->rq_clock_offset[0])
		ret |= facts_param(o, &note, "rq_clock_offset_ns", "%s", f->rq_clock_offset);
	if (f->switch_clock_lead_us >= 0)
		ret |= facts_param(o, &note, "switch_clock_lead_us", "%ld", f->switch_clock_lead_us);
	if (f->sleep_clock_lead_us >= 0)
		ret |= facts_param(o, &note, "sleep_clock_lead_us", "%ld", f->sleep_clock_lead_us);
	if (f->pelt_event_lead_us >= 0)
		ret |= facts_param(o, &note, "pelt_event_lead_us", "%ld", f->pelt_event_lead_us);
	if (f->waking_clock_lag_us >= 0)
		ret |= facts_param(o, &note, "waking_clock_lag_us", "%ld", f->waking_clock_lag_us);
	if (f->task_dead_irq_us >= 0)
		ret |= facts_param(o, &note, "task_dead_irq_us", "%ld", f->task_dead_irq_us);
	if (f->fast_switch == 1)
		ret |= facts_param(o, &note, "switch_latency_us", "0");
	if (f->fast_switch == 0 && f->transition_us >= 0)
		ret |= facts_param(o, &note, "transition_us", "%ld", f->transition_us);
	if (f->rate_limit_us >= 0 && strcmp(o->sim.governor, "schedutil") == 0)
		ret |= facts_param(o, &note, "rate_limit_us", "%ld", f->rate_limit_us);
	if (ret)
		goto out;
	if (f->policy[0] && !o->sim.policy) {
		if ((ret = apply_facts_policy(o, err)))
			goto out;
		strbuf_addf(&note, ", policy %s", f->policy);
	}
	if (strbuf_error(&note))
		ret = cli_fail(EXIT_FAILURE_RT, "out of memory");
	else if (!o->quiet && !o->json)
		fprintf(stderr, "%s (--platform and --set override)\n", strbuf_str(&note));
out:
	strbuf_free(&note);
	return ret;
}
