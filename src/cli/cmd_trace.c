/*
 * cmd_trace.c - `govsim trace info FILE`: what a trace holds and which analyses it supports.
 * `govsim trace read FILE` (not in the help) runs the reader alone and prints one line; the
 * benchmark (tools/bench.sh) uses it.
 */
#include "cli/cli.h"
#include "report/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/reader.h"
#include "trace/spool.h"

static const char trace_usage[] =
	"usage: govsim trace info FILE [--format auto|ftrace|tracecmd|dat|csv|perfetto|systrace]"
	" [--strict] [--json]\n";

static const char trace_help[] =
	"\nPrints the format, header facts, CPUs, time span, event counts by type\n"
	"(and of skipped events by name), tasks, malformed and re-ordered lines,\n"
	"and which analyses the trace supports. --format trace-cmd is taken as tracecmd.\n"
	"\n"
	"exit status: 0 ok; 2 bad command line; 3 a trace that does not exist, cannot be\n"
	"read or is malformed (with --strict: at its first bad line)\n";

#define PID_LIMIT 4194304 /* the kernel's PID_MAX_LIMIT */

struct info_acc {
	unsigned char *pids; /* bitmap */
	u64 nr_tasks;
	u64 nr_governor_tasks; /* of those, sugov:N kthreads: not workload, run leaves them out */
	u64 util_cpu_samples; /* per-CPU util: root cfs_rq rows, sched_load_avg_cpu, CSV rows */
};

static void see_pid(struct info_acc *a, s32 pid, const char *comm)
{
	if (pid <= 0 || pid >= PID_LIMIT)
		return;
	if (!(a->pids[pid >> 3] & (1u << (pid & 7)))) {
		a->pids[pid >> 3] |= (unsigned char)(1u << (pid & 7));
		a->nr_tasks++;
		if (strncmp(comm, "sugov:", 6) == 0)
			a->nr_governor_tasks++;
	}
}

static void account(struct info_acc *a, const struct event *ev)
{
	switch (ev->type) {
	case EV_SWITCH:
		see_pid(a, ev->sw.prev_pid, ev->sw.prev_comm);
		see_pid(a, ev->sw.next_pid, ev->sw.next_comm);
		break;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		see_pid(a, ev->wake.pid, ev->wake.comm);
		break;
	case EV_MIGRATE:
		see_pid(a, ev->migrate.pid, ev->migrate.comm);
		break;
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
		if (ev->util.path == EV_PATH_ROOT)
			a->util_cpu_samples++;
		break;
	case EV_LOAD_AVG_CPU:
	case EV_CSV_UTIL:
		a->util_cpu_samples++;
		break;
	default:
		break;
	}
}

static const char *format_long_name(enum trace_format f)
{
	switch (f) {
	case TRACE_FMT_FTRACE:
		return "ftrace text";
	case TRACE_FMT_TRACECMD:
		return "trace-cmd report text";
	case TRACE_FMT_DAT:
		return "trace.dat (libtracecmd)";
	case TRACE_FMT_CSV:
		return "csv util trace";
	case TRACE_FMT_PERFETTO:
		return "Perfetto protobuf";
	case TRACE_FMT_SYSTRACE:
		return "Android systrace";
	default:
		return "?";
	}
}

/* Seconds: 6 decimals when every timestamp is in whole us (text traces), else 9. */
static void print_time(u64 ns, bool us)
{
	if (us)
		printf("%llu.%06llu", (unsigned long long)(ns / NSEC_PER_SEC),
		       (unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
	else
		printf("%llu.%09llu", (unsigned long long)(ns / NSEC_PER_SEC),
		       (unsigned long long)(ns % NSEC_PER_SEC));
}

static void print_cpu_list(u64 mask)
{
	int first = 1;
	for (int c = 0; c < 64; c++) {
		int e = c;
		if (!(mask & (1ull << c)))
			continue;
		while (e + 1 < 64 && (mask & (1ull << (e + 1))))
			e++;
		printf("%s%d", first ? "" : ",", c);
		if (e > c)
			printf("-%d", e);
		first = 0;
		c = e;
	}
	if (first)
		printf("none");
}

/* trace info: where the trace comes from and its CPUs. */
static void print_info_source(const char *path, const struct trace_stats *st)
{
	printf("file:        %s\n", path);
	printf("format:      %s%s\n", format_long_name(st->format), st->gzip ? ", gzip" : "");
	if (st->header[0])
		printf("header:      %s\n", st->header);
	if (st->producer[0])
		printf("producer:    %s\n", st->producer);
	if (st->kernel_release[0])
		printf("kernel:      %s\n", st->kernel_release);
	if (st->device[0])
		printf("device:      %s\n", st->device);
	if (st->clock[0])
		printf("clock:       %s\n", st->clock);
	printf("cpus:        ");
	if (st->header_cpus >= 0)
		printf("%d in the header, ", st->header_cpus);
	printf("seen ");
	print_cpu_list(st->cpus_seen_mask);
	if (st->max_cpu >= 64)
		printf(" (highest %d)", st->max_cpu);
	printf("\n");
	for (int c = 0; c < st->nr_cpu_info; c++) {
		const struct trace_cpu_info *ci = &st->cpu_info[c];
		printf("  cpu%-3d capacity ", c);
		if (ci->capacity)
			printf("%u", ci->capacity);
		else
			printf("?");
		printf(", OPPs (kHz):");
		for (u32 i = 0; i < ci->nr_freqs; i++)
			printf(" %u", ci->freqs_khz[i]);
		printf("%s\n", ci->nr_freqs ? "" : " none");
	}
}

/* trace info: the time span and the counts per event type, skipped name and marker kind. */
static void print_info_counts(const struct trace_stats *st)
{
	bool us = st->first_ts_ns % NSEC_PER_USEC == 0 && st->last_ts_ns % NSEC_PER_USEC == 0;
	u64 span = st->last_ts_ns - st->first_ts_ns;
	u64 unknown_total = st->unknown_other;

	printf("time span:   ");
	if (st->events) {
		print_time(st->first_ts_ns, us);
		printf(" .. ");
		print_time(st->last_ts_ns, us);
		printf(" (");
		print_time(span, us);
		printf(" s)\n");
	} else {
		printf("none (no scheduler, frequency or util event)\n");
	}
	printf("%-12s %llu\n", st->format == TRACE_FMT_DAT ? "records:"
				: st->format == TRACE_FMT_PERFETTO ? "packets:"
								    : "lines:",
	       (unsigned long long)st->lines);
	printf("events:      %llu\n", (unsigned long long)st->events);
	for (int t = 0; t < EV__COUNT; t++)
		if (st->by_type[t])
			printf("  %-24s %llu\n", event_type_name(t),
			       (unsigned long long)st->by_type[t]);
	for (int i = 0; i < st->nr_unknown; i++)
		unknown_total += st->unknown[i].count;
	printf("skipped (not used): %llu\n", (unsigned long long)unknown_total);
	for (int i = 0; i < st->nr_unknown; i++)
		printf("  %-24s %llu\n", st->unknown[i].name,
		       (unsigned long long)st->unknown[i].count);
	if (st->unknown_other)
		printf("  %-24s %llu\n", "(other names)", (unsigned long long)st->unknown_other);
	{
		u64 nm = 0;
		for (int k = 0; k < MARKER__COUNT; k++)
			nm += st->markers[k];
		if (nm)
			printf("markers:     %llu (trace_marker writes; not kernel events)\n",
		       (unsigned long long)nm);
		for (int k = 0; k < MARKER__COUNT; k++)
			if (st->markers[k])
				printf("  %-24s %llu\n", trace_marker_kind_name((enum trace_marker_kind)k),
				       (unsigned long long)st->markers[k]);
	}
}

/* trace info: what the tracer lost, the tasks, the lines that did not read. */
static void print_info_quality(const struct trace_stats *st, const struct info_acc *a)
{
	if (st->data_loss)
		printf("data loss:   %llu places where the tracer says events were lost\n",
		       (unsigned long long)st->data_loss);
	if (st->raw_prev_state)
		printf("prev_state:  %llu sched_switch values outside the kernel's encoding (raw task "
		       "state): only S D T t X Z read\n",
		       (unsigned long long)st->raw_prev_state);
	printf("tasks:       %llu (distinct pids > 0 in switch, wakeup and migrate events)\n",
	       (unsigned long long)a->nr_tasks);
	if (a->nr_governor_tasks)
		printf("             of which %llu sugov:N kthread%s: not workload, left out of "
		       "run's task count\n",
		       (unsigned long long)a->nr_governor_tasks,
		       a->nr_governor_tasks == 1 ? "" : "s");
	printf("malformed:   %llu\n", (unsigned long long)st->malformed);
	printf("reordered:   %llu within the window, %llu beyond it\n",
	       (unsigned long long)st->reordered, (unsigned long long)st->disorder_beyond_window);
	for (int i = 0; i < st->nr_reported; i++)
		printf("  %s\n", st->reported[i]);
}

/* trace info: which analyses the trace supports. */
static void print_info_analyses(const struct trace_stats *st, const struct info_acc *a)
{
	u64 wake = st->by_type[EV_WAKEUP] + st->by_type[EV_WAKEUP_NEW] + st->by_type[EV_WAKING];

	printf("analyses:\n");
	printf("  emulated util (sched_switch):   %s",
	       st->by_type[EV_SWITCH] ? "yes" : "no");
	if (st->by_type[EV_SWITCH] && !wake)
		printf(" (no wakeup events: runnable from switch-in only)");
	printf("\n");
	printf("  traced util (per-CPU util):     ");
	if (a->util_cpu_samples)
		printf("yes, samples: %llu\n", (unsigned long long)a->util_cpu_samples);
	else
		printf("no\n");
	printf("  frequency (cpu_frequency):      ");
	if (st->by_type[EV_CPU_FREQUENCY])
		printf("yes, %llu events", (unsigned long long)st->by_type[EV_CPU_FREQUENCY]);
	else
		printf("no");
	if (st->by_type[EV_FREQ_MARKER])
		printf(" (+%llu initial-frequency markers)",
		       (unsigned long long)st->by_type[EV_FREQ_MARKER]);
	printf("\n");
	printf("  idle states (cpu_idle):         %s\n", st->by_type[EV_CPU_IDLE] ? "yes" : "no");
	if (st->by_type[EV_IOWAIT_BOOST]) /* Android kernels only: said when present */
		printf("  iowait boost (the kernel's):    yes, %llu sugov_set_iowait_boost events\n",
		       (unsigned long long)st->by_type[EV_IOWAIT_BOOST]);
}

static void print_info(const char *path, const struct trace_stats *st, const struct info_acc *a)
{
	print_info_source(path, st);
	print_info_counts(st);
	print_info_quality(st, a);
	print_info_analyses(st, a);
}

/* `trace info --json`: the same facts as print_info(), as one object (keys: README). */
static void print_info_json(const char *path, const struct trace_stats *st,
			    const struct info_acc *a)
{
	struct json_out j;
	u64 unknown_total = st->unknown_other;
	json_out_init(&j, stdout);
	json_out_begin_object(&j, NULL);
	json_out_string(&j, "file", path);
	json_out_string(&j, "format", trace_format_name(st->format));
	json_out_bool(&j, "gzip", st->gzip);
	json_out_string(&j, "header", st->header);
	if (st->header_cpus >= 0)
		json_out_int(&j, "header_cpus", st->header_cpus);
	else
		json_out_null(&j, "header_cpus");
	json_out_begin_array(&j, "cpus_seen");
	for (int c = 0; c < 64; c++)
		if (st->cpus_seen_mask & (1ull << c))
			json_out_int(&j, NULL, c);
	json_out_end_array(&j);
	json_out_int(&j, "max_cpu", st->max_cpu);
	json_out_number(&j, "first_s", (double)st->first_ts_ns / (double)NSEC_PER_SEC);
	json_out_number(&j, "last_s", (double)st->last_ts_ns / (double)NSEC_PER_SEC);
	json_out_number(&j, "span_s",
			(double)(st->last_ts_ns - st->first_ts_ns) / (double)NSEC_PER_SEC);
	json_out_int(&j, "lines", (long long)st->lines);
	json_out_int(&j, "events", (long long)st->events);
	json_out_begin_object(&j, "by_type");
	for (int t = 0; t < EV__COUNT; t++)
		if (st->by_type[t])
			json_out_int(&j, event_type_name((enum event_type)t),
				     (long long)st->by_type[t]);
	json_out_end_object(&j);
	json_out_begin_object(&j, "skipped");
	for (int i = 0; i < st->nr_unknown; i++) {
		unknown_total += st->unknown[i].count;
		json_out_int(&j, st->unknown[i].name, (long long)st->unknown[i].count);
	}
	if (st->unknown_other)
		json_out_int(&j, "(other names)", (long long)st->unknown_other);
	json_out_end_object(&j);
	json_out_int(&j, "skipped_total", (long long)unknown_total);
	json_out_int(&j, "tasks", (long long)a->nr_tasks);
	json_out_int(&j, "governor_tasks", (long long)a->nr_governor_tasks);
	json_out_int(&j, "malformed", (long long)st->malformed);
	json_out_int(&j, "reordered", (long long)st->reordered);
	json_out_int(&j, "reordered_beyond_window", (long long)st->disorder_beyond_window);
	json_out_int(&j, "util_cpu_samples", (long long)a->util_cpu_samples);
	json_out_end_object(&j);
}

static int trace_args(int argc, char **argv, const char **file, struct reader_opts *opts,
		      bool *json)
{
	*file = NULL;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--strict") == 0) {
			opts->strict = true;
		} else if (strcmp(argv[i], "--json") == 0 && strcmp(argv[1], "info") == 0) {
			*json = true;
		} else if (strcmp(argv[i], "--format") == 0 || strncmp(argv[i], "--format=", 9) == 0) {
			const char *v = argv[i][8] == '=' ? argv[i] + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v || !trace_format_from_name(v, &opts->format))
				return cli_usage_error(trace_usage, "trace: unknown format '%s'%s",
						       v ? v : "", trace_format_hint(v));
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			return cli_usage_error(trace_usage, "trace: unknown option '%s'", argv[i]);
		} else if (*file) {
			return cli_usage_error(trace_usage, "trace: more than one file");
		} else {
			*file = argv[i];
		}
	}
	if (!*file)
		return cli_usage_error(trace_usage, "trace: no trace file given");
	return 0;
}

/* Every event of r (into acc when not NULL); 0 or a negative error code in err. */
static int read_all(struct trace_reader *r, bool strict, struct info_acc *acc,
		    struct gs_error *err)
{
	const struct trace_stats *st = trace_reader_stats(r); /* r's own, for its lifetime */
	const struct event *ev;
	int ret;

	while ((ret = trace_reader_next_ref(r, &ev, err)) == 1) {
		if (acc)
			account(acc, ev);
		/* --strict: time going back beyond the re-ordering window is bad input too (the
		 * reader counts and reports it); its report is the last one, as strict stops at the
		 * first malformed line. */
		if (strict && st->disorder_beyond_window && st->nr_reported)
			return gs_error_set(err, GS_ETRACE, "%s", st->reported[st->nr_reported - 1]);
	}
	return ret;
}

int cmd_trace(int argc, char **argv)
{
	struct reader_opts opts = {0};
	struct trace_spool spool = {.fd = -1};
	struct trace_reader *r = NULL;
	struct info_acc acc = {0};
	struct gs_error err;
	const char *file;
	bool info, json = false;
	int ret;

	gs_error_clear(&err);
	if (argc < 2 || cli_is_help(argv[1])) {
		if (argc >= 2) {
			printf("%s%s", trace_usage, trace_help);
			return EXIT_OK;
		}
		return cli_usage_error(trace_usage, "trace: no subcommand");
	}
	if (strcmp(argv[1], "info") == 0)
		info = true;
	else if (strcmp(argv[1], "read") == 0)
		info = false;
	else
		return cli_usage_error(trace_usage, "trace: unknown subcommand '%s'", argv[1]);
	for (int i = 2; i < argc; i++)
		if (cli_is_help(argv[i])) {
			printf("%s%s", trace_usage, trace_help);
			return EXIT_OK;
		}
	ret = trace_args(argc, argv, &file, &opts, &json);
	if (ret)
		return ret;

	opts.allow_markers_only = info;
	if (info) {
		acc.pids = calloc(PID_LIMIT / 8, 1);
		if (!acc.pids)
			return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	/* a pipe or "-" is read through a temporary copy, as in every command (trace/spool.h) */
	ret = trace_spool(file, &spool, &err);
	if (ret < 0)
		goto out;
	opts.name = file;
	ret = trace_reader_open(trace_spool_file(&spool, file), &opts, &r, &err);
	if (ret < 0)
		goto out;
	ret = read_all(r, opts.strict, info ? &acc : NULL, &err);
	if (ret < 0)
		goto out;
	if (info && json) {
		print_info_json(file, trace_reader_stats(r), &acc);
	} else if (info) {
		print_info(file, trace_reader_stats(r), &acc);
	} else {
		const struct trace_stats *st = trace_reader_stats(r);
		printf("%llu events, %llu lines, %llu malformed, %llu reordered\n",
		       (unsigned long long)st->events, (unsigned long long)st->lines,
		       (unsigned long long)st->malformed, (unsigned long long)st->reordered);
	}
out:
	trace_reader_free(r);
	trace_spool_release(&spool);
	free(acc.pids);
	if (ret < 0)
		return cli_report(&err);
	return EXIT_OK;
}
