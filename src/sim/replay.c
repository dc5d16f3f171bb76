/* replay.c - one whole replay; see replay.h. */
#include "sim/replay.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/strbuf.h"
#include "core/words.h"
#include "gov/governor.h"
#include "gov/tunables.h"
#include "kernel/kernel_cost.h"
#include "trace/prefetch.h"

#define PRESCAN_EVENTS 200000

/* The trace's SHA-256 is computed on the other core while the replay reads the file. */
struct hash_job {
	const char *path;
	char hex[65];
	struct gs_error err;
	int ret;
};

static void *hash_thread(void *arg)
{
	struct hash_job *j = arg;
	j->ret = gs_file_sha256(j->path, j->hex, &j->err);
	return NULL;
}

/* Start hashing path into *hj (on this thread when no thread can be made); false when nothing
 * is left to join. */
static bool hash_start(struct hash_job *hj, pthread_t *tid, const char *path)
{
	memset(hj, 0, sizeof(*hj));
	hj->path = path;
	if (pthread_create(tid, NULL, hash_thread, hj) == 0)
		return true;
	hash_thread(hj);
	return false;
}

/* The tunables as "key=value key=value" into buf (size bytes), cut as snprintf cuts. */
static int format_params(const struct gov_param *p, int n, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", p[i].key, p[i].value);
	strbuf_copy(&sb, buf, size);
	ret = strbuf_error(&sb);
	strbuf_free(&sb);
	return ret;
}

/* The profile a recorded release maps to, or v5.9 when the trace records none; *why says which. */
static const struct kernel_profile *release_profile(const char *release, char *why,
						    size_t why_size)
{
	const struct kernel_profile *kp = release[0]
						  ? kernel_profile_for_release(release, why, why_size)
						  : NULL;
	if (!kp) {
		kp = kernel_profile_default();
		snprintf(why, why_size,
			 "kernel profile %s: the trace does not record its kernel release", kp->name);
	}
	return kp;
}

/*
 * What a trace's header says that a reader knows only after its first event (a text header's
 * kernel release and CPU count; trace.dat's are known at open): a short look ahead with a
 * reader of its own, on the spooled copy of a pipe. release "" and *cpus -1 where it says nothing.
 */
static void peek_header(const char *file, const struct reader_opts *ropts, char *release,
			size_t size, int *cpus)
{
	struct trace_reader *rd = NULL;
	struct gs_error err;

	release[0] = '\0';
	*cpus = -1;
	if (strcmp(file, "-") != 0 && trace_reader_open(file, ropts, &rd, &err) == 0) {
		struct event ev;
		const struct trace_stats *st = trace_reader_stats(rd);
		if (!st->kernel_release[0] && st->format != TRACE_FMT_DAT)
			(void)trace_reader_next(rd, &ev, &err);
		snprintf(release, size, "%s", st->kernel_release);
		*cpus = st->header_cpus;
	}
	trace_reader_free(rd);
}

/* What peek_header() finds, from a cache's statistics at open and after the first event. */
static void peek_cache(const struct trace_cache *tc, char *release, size_t size, int *cpus)
{
	const struct trace_stats *st = trace_cache_stats(tc, TRACE_CACHE_AT_OPEN);

	if (!st->kernel_release[0] && st->format != TRACE_FMT_DAT)
		st = trace_cache_stats(tc, TRACE_CACHE_AFTER_FIRST);
	snprintf(release, size, "%s", st->kernel_release);
	*cpus = st->header_cpus;
}

const struct kernel_profile *replay_trace_kernel(const char *trace, const struct reader_opts *ropts,
						 char *why, size_t why_size)
{
	char release[96];
	int cpus;

	peek_header(trace, ropts, release, sizeof(release), &cpus);
	return release_profile(release, why, why_size);
}

/* r->actions from the policy and what each action did; a note for each action that matched
 * no task or never ran (timed after the trace's end), the first RUN_ACTIONS_LISTED of each kind,
 * then one for the rest. */
static int replay_actions(const struct policy *pol, const struct policy_action_stats *st,
			  struct run_result *r, struct gs_error *err)
{
	int late = 0, unmatched = 0;
	bool is_late;

	if (!pol || !pol->n || !st)
		return 0;
	r->actions = calloc(pol->n, sizeof(*r->actions));
	if (!r->actions)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->nr_actions = (int)pol->n;
	for (size_t i = 0; i < pol->n; i++) {
		const struct policy_action *a = &pol->actions[i];
		struct run_action_result *ar = &r->actions[i];
		struct strbuf text = STRBUF_INIT;

		if (policy_action_format(a, &text)) {
			strbuf_free(&text);
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		}
		strbuf_copy(&text, ar->text, sizeof(ar->text));
		strbuf_free(&text);
		snprintf(ar->origin, sizeof(ar->origin), "%.63s", a->origin);
		ar->line = a->line;
		ar->at_s = (double)policy_action_time_ns(a) / (double)NSEC_PER_SEC;
		ar->ran = st[i].ran;
		ar->selects_tasks = a->op == POLICY_SETATTR || a->op == POLICY_ATTACH;
		ar->matched = (u32)st[i].matched;
		ar->matched_later = (u32)st[i].matched_later;
		ar->rejected = (u32)st[i].rejected;
		if (!run_action_unmatched(ar, &is_late))
			continue;
		if (is_late && ++late <= RUN_ACTIONS_LISTED)
			run_result_note(r, "'%s':%ld: '%s' is timed after the trace's end: not run",
					a->origin, a->line, ar->text);
		else if (!is_late && ++unmatched <= RUN_ACTIONS_LISTED)
			run_result_note(r, "'%s':%ld: '%s' matched no task", a->origin, a->line,
					ar->text);
	}
	if (unmatched > RUN_ACTIONS_LISTED)
		run_result_note(r, "%d more action%s matched no task", unmatched - RUN_ACTIONS_LISTED,
				unmatched - RUN_ACTIONS_LISTED == 1 ? "" : "s");
	if (late > RUN_ACTIONS_LISTED)
		run_result_note(r, "%d more action%s timed after the trace's end: not run",
				late - RUN_ACTIONS_LISTED,
				late - RUN_ACTIONS_LISTED == 1 ? " is" : "s are");
	return 0;
}

/* "0-1,4" after the text in sb. */
static void cpu_list(struct strbuf *sb, u64 mask)
{
	size_t head = sb->len;

	for (int c = 0; c < 64; c++) {
		int e = c;
		if (!(mask & (1ull << c)))
			continue;
		while (e + 1 < 64 && (mask & (1ull << (e + 1))))
			e++;
		strbuf_addf(sb, "%s%d", sb->len > head ? "," : "", c);
		if (e > c)
			strbuf_addf(sb, "-%d", e);
		c = e;
	}
}

/* The frequencies the trace runs a split policy's CPUs at, "950000 kHz on CPUs 0,3, 1200000 kHz
 * on CPUs 1-2": by each group's first CPU. */
static void split_groups(struct strbuf *sb, const struct plat_cluster *pc,
			 const struct sim_fit *fit)
{
	u64 done = 0;

	for (int i = 0; i < pc->nr_cpus; i++) {
		u32 khz = fit->split_khz[pc->cpus[i]];
		u64 same = 0;
		if (!khz || (done & (1ull << pc->cpus[i])))
			continue;
		for (int j = i; j < pc->nr_cpus; j++)
			if (fit->split_khz[pc->cpus[j]] == khz)
				same |= 1ull << pc->cpus[j];
		done |= same;
		strbuf_addf(sb, "%s%u kHz on CPUs ", done != same ? ", " : "", khz);
		cpu_list(sb, same);
	}
}

/* Notes where the trace does not fit the platform: traced frequencies that are no OPP of it
 * (the replay is then a what-if on that platform), CPUs of one of its policies that the trace
 * ran at different frequencies at once (the trace's clusters are not the platform's), and CPUs
 * of it the trace never uses. 0, or GS_ENOMEM. */
static int replay_fit_notes(const struct platform *plat, const struct trace_stats *st,
			    const struct sim_validation *val, const struct sim_fit *fit,
			    struct run_result *r)
{
	u64 all = plat->nr_cpus >= 64 ? ~0ull : (1ull << plat->nr_cpus) - 1;
	struct strbuf cpus = STRBUF_INIT, groups = STRBUF_INIT;
	int ret = 0;

	for (int c = 0; c < plat->nr_clusters; c++)
		if (val->foreign_khz[c]) {
			run_result_note(r,
					"the trace runs policy%d at %u kHz, no OPP of %s: replaying "
					"as a what-if on %s",
					plat->clusters[c].cpus[0], val->foreign_khz[c], plat->name,
					plat->name);
			break;
		}
	if (fit->split_cluster >= 0) {
		const struct plat_cluster *pc = &plat->clusters[fit->split_cluster];
		u64 mask = 0;

		for (int i = 0; i < pc->nr_cpus; i++)
			mask |= 1ull << pc->cpus[i];
		cpu_list(&cpus, mask);
		split_groups(&groups, pc, fit);
		run_result_note(r,
				"the trace runs the CPUs of %s's policy%d (CPUs %s) at different "
				"frequencies at once: %s: its clusters are not %s's (see 'govsim "
				"platforms list' for a platform with its clusters)",
				plat->name, pc->cpus[0], strbuf_str(&cpus), strbuf_str(&groups),
				plat->name);
		ret = strbuf_error(&cpus) ? strbuf_error(&cpus) : strbuf_error(&groups);
		strbuf_reset(&cpus);
	}
	if (st->cpus_seen_mask && (st->cpus_seen_mask & all) != all) {
		cpu_list(&cpus, st->cpus_seen_mask & all);
		run_result_note(r, "trace uses CPUs %s of %d", strbuf_str(&cpus), plat->nr_cpus);
	}
	ret = ret ? ret : strbuf_error(&cpus);
	strbuf_free(&cpus);
	strbuf_free(&groups);
	return ret;
}

/* cfg from spec: the settings, the governor looked up, a copy of the tunables (*params, the
 * caller frees it) with the replay's own keys parsed. */
static int replay_config(const struct replay_spec *spec, struct sim_config *cfg,
			 struct gov_param **params, struct gs_error *err)
{
	const struct sim_opts *o = &spec->opts;
	int ret;

	sim_config_init(cfg);
	cfg->opts = *o;
	cfg->opts.ropts.name = spec->trace;
	ret = governor_lookup(o->governor ? o->governor : "schedutil", &cfg->gov, err);
	if (ret == GS_ENOTFOUND)
		ret = err->code = GS_EARG; /* an unknown name is a bad argument */
	if (ret)
		return ret;
	if (o->nr_params) {
		*params = calloc((size_t)o->nr_params, sizeof(**params));
		if (!*params)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		memcpy(*params, o->params, (size_t)o->nr_params * sizeof(**params));
		for (int i = 0; i < o->nr_params; i++)
			(*params)[i].used = false;
	}
	cfg->params = *params;
	cfg->decisions = spec->validation_out ? SIM_DECISIONS_KERNEL : SIM_DECISIONS_EMULATED;
	cfg->val_window_ns = spec->val_window_ns;
	cfg->placement_slices = !spec->no_slices;
	return sim_config_parse_params(cfg, err);
}

/*
 * The kernel profile (cfg->opts.kernel, why in kernel_why) and the trace's CPU count against
 * the platform's, from what the trace's header says: trace.dat's uname and CPU count are known
 * at open (no second open: libtracecmd's is not cheap); a text header's only with its first
 * event, read by one short look ahead; a CSV util trace records neither.
 */
static int replay_kernel(const struct replay_spec *spec, const char *file,
			 const struct trace_stats *st, const struct trace_cache *tc,
			 struct sim_config *cfg, char *kernel_why, size_t why_size,
			 struct gs_error *err)
{
	const struct platform *plat = spec->opts.plat;
	const struct policy *pol = spec->opts.policy;
	char release[96];
	int hdr_cpus;

	snprintf(release, sizeof(release), "%s", st->kernel_release);
	hdr_cpus = st->header_cpus;
	if (st->format != TRACE_FMT_DAT && st->format != TRACE_FMT_CSV &&
	    (!release[0] || hdr_cpus < 0)) {
		if (tc)
			peek_cache(tc, release, sizeof(release), &hdr_cpus);
		else
			peek_header(file, &spec->opts.ropts, release, sizeof(release), &hdr_cpus);
	}
	if (!spec->opts.kernel) {
		cfg->opts.kernel = release_profile(release, kernel_why, why_size);
		cfg->kernel_note = kernel_why;
		if (!cfg->opts.kernel->uclamp_present && pol && pol->n) {
			/* a clamp what-if on a kernel without uclamp: replay it where uclamp
			 * exists, and say so (an explicit --kernel without uclamp is refused) */
			size_t len = strlen(kernel_why);
			snprintf(kernel_why + len, why_size - len,
				 ", which has no uclamp: the clamp policy is replayed under %s",
				 KERNEL_PROFILE_DEFAULT);
			cfg->opts.kernel = kernel_profile_default();
		}
	}
	if (hdr_cpus > plat->nr_cpus) /* the header says so before any event: refuse up front */
		return gs_error_set(err, GS_EINPUT,
				    "'%s': the trace has %d CPUs (its header) and platform '%s' %d: "
				    "use a platform with at least %d CPUs (--platform; see 'govsim "
				    "platforms list')",
				    spec->trace, hdr_cpus, plat->name, plat->nr_cpus, hdr_cpus);
	return 0;
}

/* GS_ETRACE: the trace has events on a CPU past the platform's (fit->over_cpu), with the CPUs
 * it uses and the fix. */
static int over_cpu_error(const struct replay_spec *spec, enum trace_format f,
			  const struct platform *plat, const struct sim_fit *fit,
			  struct gs_error *err)
{
	struct strbuf cpus = STRBUF_INIT;
	int ret;

	cpu_list(&cpus, fit->cpus_seen);
	if (fit->max_cpu >= 64)
		strbuf_addf(&cpus, "%s%d", cpus.len ? "," : "", fit->max_cpu);
	if (strbuf_error(&cpus))
		ret = gs_error_set(err, GS_ENOMEM, "out of memory");
	/* a text trace's line points at the event; a binary one has no lines */
	else if (f == TRACE_FMT_DAT || f == TRACE_FMT_PERFETTO)
		ret = gs_error_set(err, GS_ETRACE,
				   "'%s': the trace has events on CPUs %s, but platform '%s' has %d "
				   "CPUs (0-%d): use a platform with at least %d CPUs (--platform; "
				   "see 'govsim platforms list')",
				   spec->trace, strbuf_str(&cpus), plat->name, plat->nr_cpus,
				   plat->nr_cpus - 1, fit->max_cpu + 1);
	else
		ret = gs_error_set(err, GS_ETRACE,
				   "'%s':%" PRIu64 ": %s on CPU %d, but platform '%s' has %d CPUs "
				   "(0-%d): the trace has events on CPUs %s: use a platform with at "
				   "least %d CPUs (--platform; see 'govsim platforms list')",
				   spec->trace, fit->over_line, event_type_name(fit->over_type),
				   fit->over_cpu, plat->name, plat->nr_cpus, plat->nr_cpus - 1,
				   strbuf_str(&cpus), fit->max_cpu + 1);
	strbuf_free(&cpus);
	return ret;
}

/* What the format and a pre-scan of the trace settle: a CSV util trace's timing and util
 * source, the first traced frequencies, whether idle states come from the trace, and how the
 * trace's CPUs fit the platform (*fit). A trace naming more CPUs than the platform has is
 * refused here, before anything is replayed: GS_ETRACE with the fix. */
static int replay_prescan(const struct replay_spec *spec, const char *file,
			  const struct trace_stats *st, const struct trace_cache *tc,
			  struct sim_config *cfg, struct sim_fit *fit, struct gs_error *err)
{
	const struct platform *plat = cfg->opts.plat;

	if (st->format == TRACE_FMT_CSV) {
		/* a CSV util trace has no scheduling events: its util is the only source, and its
		 * rows are the timeline (traced timing) */
		cfg->opts.util_source = SIM_UTIL_TRACE;
		cfg->opts.timing = SIM_TIMING_TRACED;
	}
	/* idle states from the trace are used in traced timing only: emulated idle intervals
	 * differ from the traced ones */
	sim_prescan(file, tc, &cfg->opts.ropts, PRESCAN_EVENTS, plat,
		    cfg->opts.timing == SIM_TIMING_TRACED, cfg->initial_khz,
		    &cfg->has_traced_idle, fit, err);
	if (cfg->opts.timing == SIM_TIMING_WORK)
		cfg->has_traced_idle = false;
	if (fit->over_cpu >= 0)
		return over_cpu_error(spec, st->format, plat, fit, err);
	return 0;
}

/* The value of tunable `key` among cfg's, or NULL. */
static const char *replay_param(const struct sim_config *cfg, const char *key)
{
	for (int i = 0; i < cfg->opts.nr_params; i++)
		if (strcmp(cfg->params[i].key, key) == 0)
			return cfg->params[i].value;
	return NULL;
}

/*
 * A trace with the kernel's own iowait requests (sugov_set_iowait_boost) drives the iowait
 * boost of a governor that has one (schedutil, or a plugin with an iowait_boost tunable): the boost is on (an added iowait_boost=1 in *params, which grows)
 * and D-state sleeps are not taken for IO waits. --set iowait_boost=0 replays it as a trace
 * without them.
 */
static int replay_iowait(struct sim_config *cfg, const struct sim_fit *fit,
			 struct gov_param **params, struct gs_error *err)
{
	const char *v = replay_param(cfg, "iowait_boost");
	struct gov_param *p;
	int n = cfg->opts.nr_params;

	if (!fit->iowait_events || !governor_has_tunable(cfg->gov, "iowait_boost") ||
	    (v && strcmp(v, "1") != 0))
		return 0;
	cfg->iowait_traced = true;
	if (v)
		return 0;
	p = realloc(*params, (size_t)(n + 1) * sizeof(*p));
	if (!p)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	p[n] = (struct gov_param){.key = "iowait_boost", .value = "1"};
	*params = p;
	cfg->params = p;
	cfg->opts.nr_params = n + 1;
	return 0;
}

/*
 * Whether the trace could drive the replay, once read: its sched_switch events say what each
 * CPU ran when (the busy time, and the util the emulation builds from it); the kernel's util
 * events give util but not when a CPU ran, so a replay needs sched_switch with either util
 * source, and --util-source trace also the CPUs' CFS util. A CSV util trace is a model of its
 * own (its rows say both). GS_ETRACE (exit 3) naming what is missing.
 */
static int replay_check_drivable(const char *trace, const struct sim_config *cfg,
				 const struct trace_stats *st, struct gs_error *err)
{
	u64 util_events = 0, cpu_util;

	if (st->format == TRACE_FMT_CSV)
		return 0;
	for (int t = EV_PELT_CFS; t <= EV_UCLAMP_UTIL_CFS; t++)
		util_events += st->by_type[t];
	cpu_util = st->by_type[EV_PELT_CFS] + st->by_type[EV_LOAD_CFS_RQ] +
		   st->by_type[EV_LOAD_AVG_CPU];
	if (!st->by_type[EV_SWITCH] && cfg->opts.util_source == SIM_UTIL_TRACE)
		return gs_error_set(err, GS_ETRACE,
				    "'%s': no sched_switch events: the trace does not say when a CPU "
				    "ran, and %s",
				    trace, util_events ? "its util events alone cannot drive a replay"
						       : "it has no util events either");
	if (!st->by_type[EV_SWITCH])
		return gs_error_set(err, GS_ETRACE,
				    "'%s': no sched_switch events: util cannot be emulated, nor the "
				    "CPUs' busy time replayed%s",
				    trace, util_events ? " (its util events alone cannot drive a replay: "
							 "--util-source trace needs sched_switch too)"
						       : "");
	if (!cpu_util && cfg->opts.util_source == SIM_UTIL_TRACE)
		return gs_error_set(err, GS_ETRACE,
				    "'%s': --util-source trace: no per-CPU util events (sched_pelt_cfs, "
				    "sched_load_cfs_rq, sched_load_avg_cpu): use --util-source emulated",
				    trace);
	return 0;
}

/* A Perfetto trace's cpu_info capacities in place of the platform's assumed ones (a copy in
 * *own, freed by the caller), with a note in note[] for the run. 0, or a negative code. */
static int replay_cpu_info(const char *file, const struct trace_stats *st_open,
			   const struct trace_cache *tc, struct sim_config *cfg,
			   struct platform **own, char *note, size_t size, struct gs_error *err)
{
	const struct platform *plat = cfg->opts.plat;
	struct trace_stats *st;
	bool assumed = false;
	int ret;

	for (int c = 0; c < plat->nr_cpus; c++)
		assumed |= plat->cpus[c].capacity_assumed;
	if (!assumed || st_open->format != TRACE_FMT_PERFETTO)
		return 0;
	st = malloc(sizeof(*st));
	if (!st)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (tc) {
		*st = *trace_cache_stats(tc, TRACE_CACHE_AFTER_FIRST);
		ret = 0;
	} else {
		ret = sim_trace_cpu_info(file, &cfg->opts.ropts, st, err);
	}
	if (!ret && sim_cpu_info_override(plat, st, own, note, size) < 0)
		ret = gs_error_set(err, GS_ENOMEM, "out of memory");
	if (!ret && *own)
		cfg->opts.plat = *own;
	free(st);
	return ret;
}

/* The file name prefixed to a loop message that names only the line; returns ret. */
static int feed_error(const char *trace, int ret, struct gs_error *err)
{
	if (strncmp(err->msg, "line ", 5) == 0) {
		struct gs_error e2 = *err;
		gs_error_set(err, ret, "'%s':%s", trace, e2.msg + 5);
	}
	return ret;
}

/* Every event of rd into s, the reader running ahead on the other core (the same order). */
static int replay_feed(const char *trace, struct trace_reader *rd, struct sim *s,
		       struct gs_error *err)
{
	struct trace_prefetch *pf = NULL;
	const struct event *ev;
	int ret;

	ret = trace_prefetch_start(rd, &pf, err);
	if (ret)
		return ret;
	while ((ret = trace_prefetch_next(pf, &ev, err)) == 1) {
		ret = sim_feed(s, ev, err);
		if (ret) {
			feed_error(trace, ret, err);
			break;
		}
	}
	trace_prefetch_stop(pf); /* before the reader is freed or its statistics read */
	return ret; /* 0 at the end, else the reader's or the loop's error */
}

/* Every event of the cache into s. */
static int replay_feed_cache(const char *trace, const struct trace_cache *tc, struct sim *s,
			     struct gs_error *err)
{
	struct trace_cache_cursor cur;
	struct event ev;
	int ret;

	trace_cache_rewind(tc, &cur);
	while (trace_cache_next(&cur, &ev) == 1)
		if ((ret = sim_feed(s, &ev, err)))
			return feed_error(trace, ret, err);
	return 0;
}

/*
 * The options beyond the tunables that change a result, recorded with them (runs.params, the
 * summary's set: line, --json params) so that runs differing only in them differ there and
 * `compare` selects them by the word: placement=eas, seed_util=1, warmup_ms=MS, and the traced
 * kernel of --traced-config where it is not the default (traced_uclamp=MODE, traced_depth=N).
 */
static void replay_record_options(const struct sim_opts *o, char *buf, size_t size)
{
	struct kcost_config def;

	kcost_config_default(&def);
	if (o->placement == SIM_PLACEMENT_EAS)
		gs_words_add(buf, size, "placement=eas");
	if (o->start_from_trace_util)
		gs_words_add(buf, size, "seed_util=1");
	if (o->warmup_ns)
		gs_words_add(buf, size, "warmup_ms=%" PRIu64, (u64)(o->warmup_ns / NSEC_PER_MSEC));
	if (o->has_traced_config && strcmp(kcost_config_uclamp_name(&o->traced),
					   kcost_config_uclamp_name(&def)) != 0)
		gs_words_add(buf, size, "traced_uclamp=%s", kcost_config_uclamp_name(&o->traced));
	if (o->has_traced_config && o->traced.depth != def.depth)
		gs_words_add(buf, size, "traced_depth=%d", o->traced.depth);
}

/* The run's identity and notes that the loop does not know: trace, label, policy, tunables.
 * 0, or GS_ENOMEM. */
static int replay_identity(const struct replay_spec *spec, const struct sim_config *cfg,
			   const struct sim_fit *fit, const struct sim *s, struct run_result *r)
{
	const struct sim_opts *o = &spec->opts;

	if (cfg->iowait_traced) {
		run_result_note(r, "iowait boost from the trace: %" PRIu64 " kernel requests "
				   "(sugov_set_iowait_boost 'doing iow boost') replayed as updates "
				   "with SCHED_CPUFREQ_IOWAIT, D-state sleeps not taken for IO waits",
				sim_iowait_requests(s));
	} else if (strcmp(cfg->gov->name, "schedutil") == 0) {
		/* its init took only 0 or 1 */
		const char *v = replay_param(cfg, "iowait_boost");
		bool iowait = v && strcmp(v, "1") == 0;

		if (fit->iowait_events)
			run_result_note(r, "iowait boost off (--set iowait_boost=0), though the "
					   "trace gives the kernel's requests");
		else if (!iowait)
			/* a deliberate departure from v5.9 (see gov/schedutil.c) */
			run_result_note(r, "iowait boost off (a trace cannot tell in_iowait from "
					   "other D-state sleeps: --set iowait_boost=1 models it)");
	}
	u64 traced, model;

	for (int c = 0, cpu; (cpu = sim_kthread_calls(s, c, &traced, &model)) >= 0; c++)
		if (traced + model)
			run_result_note(r, "policy%d's slow path followed the trace's sugov:%d "
					   "kthread: %" PRIu64 " of %" PRIu64 " driver calls timed by its "
					   "runs, the rest by switch_latency_us and transition_us (no "
					   "traced run for them)",
					c, cpu, traced, traced + model);
	if (strcmp(cfg->gov->name, "schedutil") == 0 && !cfg->governor_start_ns)
		run_result_note(r, "schedutil taken as running before the trace (no start of it "
				   "traced): its last decision is each policy's frequency at the "
				   "first event, the raw frequency it cached unknown");
	snprintf(r->trace, sizeof(r->trace), "%s", spec->trace);
	if (o->label)
		snprintf(r->label, sizeof(r->label), "%s", o->label);
	if (o->policy) {
		struct strbuf text = STRBUF_INIT;
		int ret = policy_format(o->policy, &text);

		strbuf_copy(&text, r->policy, sizeof(r->policy));
		strbuf_free(&text);
		if (ret)
			return ret;
	}
	if (format_params(o->params, o->nr_params, r->params, sizeof(r->params)))
		return GS_ENOMEM;
	replay_record_options(o, r->params, sizeof(r->params));
	if (cfg->iowait_traced)
		gs_words_add(r->params, sizeof(r->params), "iowait_source=trace");
	return 0;
}

/* Where the events come from: spec's cache when it holds this file read with these reader
 * options (*tc), else a reader of the file (*rd); *st: their statistics as opened (a reader's
 * stay so until replay_feed() reads on). */
static int replay_source(const struct replay_spec *spec, const char *file,
			 const struct sim_config *cfg, struct trace_reader **rd,
			 const struct trace_cache **tc, const struct trace_stats **st,
			 struct gs_error *err)
{
	int ret;

	if (spec->cache && trace_cache_matches(spec->cache->events, file, &cfg->opts.ropts)) {
		*tc = spec->cache->events;
		*st = trace_cache_stats(*tc, TRACE_CACHE_AT_OPEN);
		return 0;
	}
	ret = trace_reader_open(file, &cfg->opts.ropts, rd, err);
	if (!ret)
		*st = trace_reader_stats(*rd);
	return ret;
}

/* The trace's SHA-256 into hj unless spec->no_hash: the cache's, else computed on the other
 * core; true when there is a thread to join. */
static bool replay_hash(const struct replay_spec *spec, const struct trace_cache *tc,
			const char *file, struct hash_job *hj, pthread_t *tid)
{
	memset(hj, 0, sizeof(*hj));
	if (spec->no_hash)
		return false;
	if (tc && spec->cache->sha256[0]) {
		memcpy(hj->hex, spec->cache->sha256, sizeof(hj->hex));
		return false;
	}
	return hash_start(hj, tid, file);
}

static void write_timeline_headers(const struct sim_opts *o)
{
	if (o->timeline)
		fputs("time_s,cpu,policy,util_cfs,util_est_cfs,util_rt,util_dl,uclamp_min,"
		      "uclamp_max,util,target_khz,freq_khz\n",
		      o->timeline);
	if (o->task_timeline)
		fputs("time_s,pid,comm,cpu,event,util_avg,util_est_enqueued,util_est_ewma,vlag_ns,"
		      "delayed\n",
		      o->task_timeline);
}

int replay_cache_load(const char *trace, const char *file, const struct reader_opts *ropts,
		      unsigned long long max_bytes, bool hash, struct replay_cache **out,
		      struct gs_error *err)
{
	struct replay_cache *rc = calloc(1, sizeof(*rc));
	struct reader_opts o = *ropts;
	struct hash_job hj;
	pthread_t hash_tid;
	bool hashing = false;
	int ret;

	*out = NULL;
	if (!rc)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	memset(&hj, 0, sizeof(hj));
	if (hash)
		hashing = hash_start(&hj, &hash_tid, file);
	o.name = trace; /* as replay_config() names it: the statistics' messages quote it */
	ret = trace_cache_load(file, &o, max_bytes, &rc->events, err);
	if (hashing)
		pthread_join(hash_tid, NULL);
	if (!ret && hj.ret) {
		ret = hj.ret;
		*err = hj.err;
	}
	if (ret) {
		replay_cache_free(rc);
		return ret;
	}
	memcpy(rc->sha256, hj.hex, sizeof(hj.hex));
	*out = rc;
	return 0;
}

void replay_cache_free(struct replay_cache *rc)
{
	if (!rc)
		return;
	trace_cache_free(rc->events);
	free(rc);
}

/* A --set key no governor asked for: a policyN.NAME whose N names no policy, or unknown. */
static int unused_tunable(const struct gov_param *p, const struct sim_config *cfg,
			  struct gs_error *err)
{
	const struct platform *plat = cfg->opts.plat;
	struct strbuf list = STRBUF_INIT;
	int n, ret;

	if (!gov_param_policy(p->key, &n) || !plat)
		return gs_error_set(err, GS_EARG, "unknown tunable '%s' for governor '%s'", p->key,
				    cfg->gov->name);
	for (int c = 0; c < plat->nr_clusters; c++)
		strbuf_addf(&list, "%spolicy%d", c ? ", " : "", plat->clusters[c].cpus[0]);
	if (strbuf_error(&list))
		ret = gs_error_set(err, GS_ENOMEM, "out of memory");
	else
		ret = gs_error_set(err, GS_EARG,
				   "'%s': platform %s has no policy%d (a policy is named after its "
				   "first CPU: %s)",
				   p->key, plat->name, n, strbuf_str(&list));
	strbuf_free(&list);
	return ret;
}

/* After the loop's own: the notes on how the trace fits the platform, the capacities taken
 * from it (cap_note) and its cpu_info, then the run's identity. 0, or GS_ENOMEM. */
static int replay_notes(const struct replay_spec *spec, const struct sim_config *cfg,
			const struct trace_stats *st, const struct sim_fit *fit,
			const char *cap_note, struct sim *s, struct run_result *r,
			struct gs_error *err)
{
	int ret = replay_fit_notes(cfg->opts.plat, st, sim_get_validation(s), fit, r);

	if (cap_note[0])
		run_result_note(r, "%s", cap_note);
	if (!ret)
		ret = sim_cpu_info_notes(cfg->opts.plat, st, r);
	if (!ret)
		ret = replay_identity(spec, cfg, fit, s, r);
	return ret ? gs_error_set(err, ret, "out of memory for the run's notes") : 0;
}

int replay_run(const struct replay_spec *spec, struct run_result *r, struct gs_error *err)
{
	char kernel_why[384] = "", cap_note[384] = "";
	struct platform *own_plat = NULL; /* the platform with the trace's capacities */
	struct sim_config cfg;
	struct sim_fit fit;
	struct gov_param *params = NULL;
	struct trace_reader *rd = NULL;
	const struct trace_cache *tc = NULL; /* the events from memory instead of rd */
	const struct trace_stats *st = NULL;
	struct sim *s = NULL;
	struct hash_job hj;
	const char *file = spec->trace_file ? spec->trace_file : spec->trace;
	pthread_t hash_tid;
	bool hashing = false;
	int ret;

	ret = replay_config(spec, &cfg, &params, err);
	if (!ret)
		ret = replay_source(spec, file, &cfg, &rd, &tc, &st, err);
	if (ret)
		goto out;
	ret = replay_kernel(spec, file, st, tc, &cfg, kernel_why, sizeof(kernel_why), err);
	if (!ret)
		ret = replay_cpu_info(file, st, tc, &cfg, &own_plat, cap_note, sizeof(cap_note),
				      err);
	if (!ret)
		ret = replay_prescan(spec, file, st, tc, &cfg, &fit, err);
	if (!ret)
		ret = replay_iowait(&cfg, &fit, &params, err);
	if (ret)
		goto out;
	hashing = replay_hash(spec, tc, file, &hj, &hash_tid);
	ret = sim_new(&cfg, &s, err);
	if (ret)
		goto out;
	for (int i = 0; i < cfg.opts.nr_params; i++) {
		if (!params[i].used) {
			ret = unused_tunable(&params[i], &cfg, err);
			goto out;
		}
	}
	write_timeline_headers(&spec->opts);
	ret = tc ? replay_feed_cache(spec->trace, tc, s, err) : replay_feed(spec->trace, rd, s, err);
	if (ret)
		goto out;
	st = tc ? trace_cache_stats(tc, TRACE_CACHE_AT_END) : trace_reader_stats(rd);
	ret = replay_check_drivable(spec->trace, &cfg, st, err);
	if (ret)
		goto out;
	ret = sim_finish(s, r, err);
	if (ret)
		goto out;
	ret = replay_actions(spec->opts.policy, sim_get_action_stats(s), r, err);
	if (ret)
		goto out;
	ret = replay_notes(spec, &cfg, st, &fit, cap_note, s, r, err);
	if (ret)
		goto out;
	if (hashing) {
		pthread_join(hash_tid, NULL);
		hashing = false;
	}
	if (hj.ret) {
		ret = hj.ret;
		*err = hj.err;
		goto out;
	}
	memcpy(r->trace_sha256, hj.hex, sizeof(hj.hex));
	if (spec->stats_out)
		*spec->stats_out = *st;
	if (spec->validation_out)
		sim_take_validation(s, spec->validation_out);
out:
	if (hashing)
		pthread_join(hash_tid, NULL);
	sim_free(s);
	trace_reader_free(rd);
	free(params);
	free(own_plat);
	return ret;
}
