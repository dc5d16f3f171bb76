/*
 * make_report_text.c - regenerate the `trace-cmd report` texts of this folder from a trace.dat,
 * through libtraceevent itself, so that the reader's plugin and latency layouts are checked
 * against text that our code did not write.
 *
 * Not part of the build. Usage (the plugins come with libtraceevent or linux-perf):
 *
 *   cc $(pkg-config --cflags libtracecmd libtraceevent) make_report_text.c \
 *      $(pkg-config --libs libtracecmd libtraceevent) -o make_report_text
 *   TRACEEVENT_PLUGIN_DIR=/usr/lib/traceevent/plugins \
 *      ./make_report_text traces/juno-r0/sched_load/trace.dat | gzip -9n >juno_sched_load_plugins.txt.gz
 *   ./make_report_text traces/juno-r0/sched_load/trace.dat -l | gzip -9n >juno_sched_load_latency.txt.gz
 *
 * The line prefix is trace-cmd's ("%16s-%-5d [%03d] %5lu.%06lu: %s: " and the event name padded
 * to 20; with -l, "%8.8s-%-5d %3d" and the latency flags); without plugins the output equals
 * traces/juno-r0/sched_load/trace.report.txt (`trace-cmd report -N`) but for its blank lines.
 * The payload is libtraceevent's: the sched_switch plugin's layout when its plugins load, the
 * kernel's print format otherwise. Records are merged across CPUs by timestamp, lower CPU first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

static void print_record(struct tep_handle *tep, struct tep_record *rec, int latency)
{
	struct tep_event *event = tep_find_event_by_record(tep, rec);
	int pid = tep_data_pid(tep, rec);
	const char *comm = tep_data_comm_from_pid(tep, pid);
	unsigned long long us = (rec->ts + 500) / 1000;
	int pad = event && strlen(event->name) < 20 ? 20 - (int)strlen(event->name) : 0;
	struct trace_seq info, lat;

	if (!event)
		return;
	trace_seq_init(&info);
	trace_seq_init(&lat);
	tep_print_event(tep, &info, rec, "%s", TEP_PRINT_INFO);
	tep_print_event(tep, &lat, rec, "%s", TEP_PRINT_LATENCY);
	trace_seq_terminate(&info);
	trace_seq_terminate(&lat);
	if (latency)
		printf("%8.8s-%-5d %3d%s", comm, pid, rec->cpu, lat.buffer);
	else
		printf("%16s-%-5d [%03d]", comm, pid, rec->cpu);
	printf(" %5llu.%06llu: %s: %*s%s\n", us / 1000000, us % 1000000, event->name, pad, "",
	       info.buffer);
	trace_seq_destroy(&info);
	trace_seq_destroy(&lat);
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct tep_record **pending;
	int latency = argc > 2 && strcmp(argv[2], "-l") == 0;
	int cpus;

	if (argc < 2) {
		fprintf(stderr, "usage: make_report_text TRACE.DAT [-l]\n");
		return 2;
	}
	handle = tracecmd_open(argv[1], 0);
	if (!handle) {
		fprintf(stderr, "make_report_text: cannot open '%s'\n", argv[1]);
		return 1;
	}
	tep = tracecmd_get_tep(handle);
	cpus = tep_get_cpus(tep);
	pending = calloc((size_t)cpus, sizeof(*pending));
	if (!pending)
		return 1;
	for (int cpu = 0; cpu < cpus; cpu++)
		pending[cpu] = tracecmd_read_cpu_first(handle, cpu);
	printf("version = 6\ncpus=%d\n", cpus);
	for (;;) {
		struct tep_record *rec;
		int best = -1;

		for (int cpu = 0; cpu < cpus; cpu++)
			if (pending[cpu] && (best < 0 || pending[cpu]->ts < pending[best]->ts))
				best = cpu;
		if (best < 0)
			break;
		rec = pending[best];
		pending[best] = tracecmd_read_data(handle, best);
		print_record(tep, rec, latency);
		tracecmd_free_record(rec);
	}
	free(pending);
	tracecmd_close(handle);
	return 0;
}
