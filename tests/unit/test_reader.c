/*
 * test_reader.c - the trace readers (src/trace/): every input variant, every malformed path,
 * the re-ordering window, prev_state normalisation, CSV columns, gzip, and .dat against text.
 *
 * Checks: each line layout (ftrace with TGID and irq flags, trace-cmd old/new, with and without
 * "==>", numeric or letter prev_state, comms with spaces and dashes; trace-cmd's plugin layout of
 * sched_switch/sched_wakeup(_new) and its -l latency layout) yields the fields written in the
 * fixture; the fast path (fields in the kernel's order) gives the same events as the generic
 * key=value path; the kernel's padded column layout (read at fixed offsets, one pass per line, in
 * batches) gives the same stream, counts and reports as the line-by-line path; the plugin and latency texts libtraceevent printed from the juno trace.dat give
 * the events of its `trace-cmd report -N` text; malformed lines are counted, reported as 'file':line and fail in strict mode;
 * empty, binary and event-less inputs fail with GS_ETRACE; out-of-order lines come out sorted
 * within the window, equal timestamps keep file order, disorder beyond the window is counted;
 * the juno trace.dat gives the same events as its trace-cmd report text, and the hand counts
 * (grep -c) of traces/README.md.
 * Does not check: throughput or memory (tools/bench.sh), the `trace info` layout (golden test).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/reader.h"
#include "trace/backend.h"         /* READER_INFLATE_MIN */
#include "trace/csv/csv_priv.h" /* csv_realloc_calls */
#include "trace/fields.h"         /* prev_state_parse(): the normalisation table */

#define MAX_EV 64

struct got {
	int n;
	struct event ev[MAX_EV];
	struct trace_stats st;
	int ret; /* last return of open/next */
	struct gs_error err;
};

static void read_all(const char *path, const struct reader_opts *opts, struct got *g)
{
	struct trace_reader *r = NULL;
	struct event ev;

	memset(g, 0, sizeof(*g));
	gs_error_clear(&g->err);
	g->ret = trace_reader_open(path, opts, &r, &g->err);
	if (g->ret < 0)
		return;
	while ((g->ret = trace_reader_next(r, &ev, &g->err)) == 1)
		if (g->n < MAX_EV)
			g->ev[g->n++] = ev;
	g->st = *trace_reader_stats(r);
	trace_reader_free(r);
}

static void read_text(const char *text, const struct reader_opts *opts, struct got *g)
{
	read_all(test_tmpfile(text, ".txt"), opts, g);
}

/* ---- prev_state ------------------------------------------------------------------------ */

static void test_prev_state_table(void **state)
{
	static const struct {
		const char *in;
		s64 want;
	} rows[] = {
		/* letters, v5.9 TASK_REPORT bits */
		{"R", 0}, {"R+", 0x100}, {"S", 1}, {"D", 2}, {"T", 4}, {"t", 8}, {"X", 0x10},
		{"Z", 0x20}, {"P", 0x40}, {"I", 0x80}, {"D|W", 2}, {"S|D", 3}, {"D+", 0x102},
		/* letters v5.9 does not print: D-like sleep when alone */
		{"W", 2}, {"K", 2}, {"N", 2}, {"K|W", 2}, {"x|K", 2},
		/* before v4.14 a dying task switched out as "x" (TASK_DEAD, 64): gone, as X */
		{"x", 0x10},
		/* numbers: n & 0xff when non-zero, 0 = R, else preempted */
		{"0", 0}, {"1", 1}, {"2", 2}, {"64", 64}, {"128", 128}, {"256", 0x100},
		{"1024", 0x100}, {"2048", 0x100}, {"4096", 0x100}, {"257", 1},
		/* invalid */
		{"", -1}, {"?", -1}, {"S+S", -1}, {"12a", -1},
	};
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(rows); i++) {
		s64 got = prev_state_parse(rows[i].in, strlen(rows[i].in));
		if (got != rows[i].want)
			fail_msg("prev_state '%s': got %lld, want %lld", rows[i].in, (long long)got,
				 (long long)rows[i].want);
	}
	assert_true(switch_prev_sleeps(2));
	assert_false(switch_prev_sleeps(0x100));
}

/* ---- line layouts ---------------------------------------------------------------------- */

static void test_ftrace_tgid_flags(void **state)
{
	struct got g;
	(void)state;
	read_text("# tracer: nop\n"
		  "# entries-in-buffer/entries-written: 3/3   #P:8\n"
		  "#\n"
		  "kworker/u17:1-959   (  959) [006] d..3   538.064659: sched_switch: prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S ==> next_comm=swapper/6 next_pid=0 next_prio=120\n"
		  "<-transport-5851  ( 5833) [007] dnh5   538.065227: sched_wakeup: comm=sugov:4 pid=5860 prio=49 target_cpu=007\n"
		  "          <idle>-0     (-----) [006] d..2   538.064674: cpu_idle: state=4294967295 cpu_id=6\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.st.format, TRACE_FMT_FTRACE);
	assert_int_equal(g.st.header_cpus, 8);
	assert_string_equal(g.st.header, "tracer: nop");
	/* sorted: 538.064659, 538.064674, 538.065227 */
	assert_int_equal(g.ev[0].type, EV_SWITCH);
	assert_int_equal(g.ev[0].ts_ns, 538064659000ull);
	assert_int_equal(g.ev[0].cpu, 6);
	assert_int_equal(g.ev[0].pid, 959);
	assert_string_equal(g.ev[0].sw.prev_comm, "kworker/u17:1");
	assert_int_equal(g.ev[0].sw.prev_pid, 959);
	assert_int_equal(g.ev[0].sw.prev_prio, 100);
	assert_int_equal(g.ev[0].sw.prev_state, 1);
	assert_string_equal(g.ev[0].sw.next_comm, "swapper/6");
	assert_int_equal(g.ev[0].sw.next_pid, 0);
	assert_int_equal(g.ev[0].sw.next_prio, 120);
	assert_int_equal(g.ev[1].type, EV_CPU_IDLE);
	assert_int_equal(g.ev[1].pid, 0);
	assert_int_equal(g.ev[1].power.state, PWR_EVENT_EXIT);
	assert_int_equal(g.ev[1].power.cpu_id, 6);
	assert_int_equal(g.ev[2].type, EV_WAKEUP);
	assert_int_equal(g.ev[2].pid, 5851); /* after the LAST '-' of "<-transport" */
	assert_int_equal(g.ev[2].cpu, 7);
	assert_string_equal(g.ev[2].wake.comm, "sugov:4");
	assert_int_equal(g.ev[2].wake.prio, 49);
	assert_int_equal(g.ev[2].wake.target_cpu, 7); /* "007" is decimal */
}

static void test_tracecmd_old_numeric(void **state)
{
	struct got g;
	(void)state;
	/* old trace-cmd: version/cpus header, no latency column, numeric prev_state, no "==>" */
	read_text("version = 6\n"
		  "cpus=6\n"
		  "CPU 3 is empty\n"
		  "           <...>-1701  [001]    76.211513: sched_switch:          prev_comm=trace-cmd prev_pid=1701 prev_prio=120 prev_state=64 next_comm=swapper/1 next_pid=0 next_prio=120\n"
		  "              sh-1642  [002]    76.211701: sched_switch:          prev_comm=sh prev_pid=1642 prev_prio=120 prev_state=4096 next_comm=kworker/u12:1 next_pid=46 next_prio=120\n"
		  "   rs:main Q:Reg-238   [003]    76.211702: sched_switch:          prev_comm=rs:main Q:Reg prev_pid=238 prev_prio=120 prev_state=0 next_comm=a very long comm name next_pid=7 next_prio=98\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.format, TRACE_FMT_TRACECMD);
	assert_int_equal(g.st.header_cpus, 6);
	assert_string_equal(g.st.header, "trace-cmd version 6");
	assert_int_equal(g.n, 3);
	assert_int_equal(g.ev[0].pid, 1701);
	assert_int_equal(g.ev[0].sw.prev_state, 64);
	assert_int_equal(g.ev[1].sw.prev_state, TASK_REPORT_MAX);
	assert_string_equal(g.ev[1].sw.next_comm, "kworker/u12:1");
	assert_int_equal(g.ev[2].pid, 238);
	assert_string_equal(g.ev[2].sw.prev_comm, "rs:main Q:Reg");
	assert_int_equal(g.ev[2].sw.prev_state, 0);
	assert_string_equal(g.ev[2].sw.next_comm, "a very long com"); /* 15 chars + NUL */
	assert_int_equal(g.ev[2].sw.next_pid, 7);
	assert_int_equal(g.st.malformed, 0);
}

static void test_tracecmd_new_ns_any_order(void **state)
{
	struct got g;
	(void)state;
	/* new trace-cmd -t: latency column, ns timestamps; fields in another order; lisa__ names */
	read_text("cpus=2\n"
		  "   task0-0-1710  [001] d..2.  218.215535001: sched_migrate_task:   dest_cpu=0 orig_cpu=1 comm=task0-0 pid=1710 prio=101\n"
		  "   task0-0-1710  [001] d..2.  218.215535002: lisa__sched_pelt_cfs: cpu=1 path=/ load=597 runnable=598 util=599 update_time=218123022336\n"
		  "   task0-0-1710  [001] d..2.  218.215535003: sched_pelt_se:      cpu=-1 path=(null) comm=task0-0 pid=1710 load=1 runnable=2 util=3\n"
		  "   task0-0-1710  [001] d..2.  218.215535004: sched_util_est_se:  cpu=1 path=(null) comm=task0-0 pid=1710 enqueued=283 ewma=274 util=248\n"
		  "   task0-0-1710  [001] d..2.  218.215535005: sched_load_cfs_rq:  cpu=1 path=/autogroup-3 load=5 util=6\n"
		  "   sshd-2962     [000] ....   218.215535006: sched_load_avg_cpu: cpu=0 load=13 utilization=18\n"
		  "   sshd-2962     [000] ....   218.215535007: sched_load_avg_task: comm=sshd pid=2962 cpu=0 load_avg=4 util_avg=5 load_sum=1 util_sum=2 period_contrib=3\n"
		  "   sshd-2962     [000] ....   218.215535008: uclamp_util_se: pid=2962 comm=sshd cpu=0 util_avg=100 uclamp_avg=200 uclamp_min=200 uclamp_max=1024\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 8);
	assert_int_equal(g.ev[0].type, EV_MIGRATE);
	assert_int_equal(g.ev[0].ts_ns, 218215535001ull);
	assert_int_equal(g.ev[0].migrate.orig_cpu, 1);
	assert_int_equal(g.ev[0].migrate.dest_cpu, 0);
	assert_int_equal(g.ev[0].migrate.prio, 101);
	assert_int_equal(g.ev[1].type, EV_PELT_CFS);
	assert_int_equal(g.ev[1].util.path, EV_PATH_ROOT);
	assert_int_equal(g.ev[1].util.load, 597);
	assert_int_equal(g.ev[1].util.runnable, 598);
	assert_int_equal(g.ev[1].util.util, 599);
	assert_int_equal(g.ev[1].util.update_time, 218123022336ull);
	assert_int_equal(g.ev[1].util.pid, -1);
	assert_int_equal(g.ev[2].type, EV_PELT_SE);
	assert_int_equal(g.ev[2].util.cpu, -1);
	assert_int_equal(g.ev[2].util.path, EV_PATH_NONE);
	assert_int_equal(g.ev[2].util.pid, 1710);
	assert_true(g.ev[2].util.update_time == EV_NO_VALUE);
	assert_int_equal(g.ev[3].util.util_est_enqueued, 283);
	assert_int_equal(g.ev[3].util.util_est_ewma, 274);
	assert_int_equal(g.ev[4].type, EV_LOAD_CFS_RQ);
	assert_int_equal(g.ev[4].util.path, EV_PATH_GROUP);
	assert_int_equal(g.ev[4].util.util, 6);
	assert_int_equal(g.ev[5].type, EV_LOAD_AVG_CPU);
	assert_int_equal(g.ev[5].util.load, 13);
	assert_int_equal(g.ev[5].util.util, 18);
	assert_int_equal(g.ev[6].type, EV_LOAD_AVG_TASK);
	assert_int_equal(g.ev[6].util.load, 4);
	assert_int_equal(g.ev[6].util.util, 5);
	assert_int_equal(g.ev[7].type, EV_UCLAMP_UTIL_SE);
	assert_int_equal(g.ev[7].util.uclamp_min, 200);
	assert_int_equal(g.ev[7].util.uclamp_max, 1024);
}

static void test_tracecmd_plugin_layout(void **state)
{
	struct got g;
	char want[300];
	const char *path;
	(void)state;
	/*
	 * trace-cmd report without -N: libtraceevent's sched_switch plugin prints
	 * "comm:pid [prio] STATE ==> comm:pid [prio]" and "comm:pid [prio] success=1 CPU:ccc";
	 * the pid is after the LAST ':' (comms hold ':' and spaces). STATE uses the plugin's own
	 * letters "SDTtZXxW" for bits 0..7 of the raw number: D|W = 0x02|0x80, x = 0x40.
	 */
	path = test_tmpfile(
		"version = 6\n"
		"cpus=4\n"
		"       trace-cmd-1701  [001]    76.211513: sched_switch:         trace-cmd:1701 [120] S ==> swapper/1:0 [120]\n"
		"   kworker/u12:1-46    [002]    76.211600: sched_switch:         kworker/u12:1:46 [120] R+ ==> sh:1642 [120]\n"
		"   kworker/u12:1-46    [002]    76.211601: sched_wakeup:         sh:1642 [120] success=1 CPU:002\n"
		"          <idle>-0     [003]    76.211602: sched_wakeup:         rs:main Q:Reg:811 [98] CPU:003\n"
		"              sh-1642  [002]    76.211603: sched_wakeup_new:     sh:1703 [120] success=1 CPU:000\n"
		"              sh-1642  [002]    76.211604: sched_switch:         sh:1642 [120] D|W ==> kworker/u12:1:46 [100]\n"
		"              sh-1642  [002]    76.211605: sched_switch:         sh:1642 [120] x ==> a=b:7 [120]\n"
		"              sh-1642  [002]    76.211606: sched_migrate_task:   comm=sh pid=1642 prio=120 orig_cpu=2 dest_cpu=3\n"
		"              sh-1642  [002]    76.211607: sched_switch:         sh:1642 [120] Q ==> b:2 [120]\n"
		"              sh-1642  [002]    76.211608: sched_wakeup:         sh:1642 [120] success=1\n"
		"              sh-1642  [002]    76.211609: sched_switch:         a=b:12 [120] S ==> c:3 [120]\n",
		".txt");
	read_all(path, NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 9);
	assert_int_equal(g.st.malformed, 2);

	assert_int_equal(g.ev[0].type, EV_SWITCH);
	assert_int_equal(g.ev[0].ts_ns, 76211513000ull);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[0].pid, 1701);
	assert_string_equal(g.ev[0].sw.prev_comm, "trace-cmd");
	assert_int_equal(g.ev[0].sw.prev_pid, 1701);
	assert_int_equal(g.ev[0].sw.prev_prio, 120);
	assert_int_equal(g.ev[0].sw.prev_state, TASK_STATE_S);
	assert_string_equal(g.ev[0].sw.next_comm, "swapper/1");
	assert_int_equal(g.ev[0].sw.next_pid, 0);
	assert_int_equal(g.ev[0].sw.next_prio, 120);

	assert_string_equal(g.ev[1].sw.prev_comm, "kworker/u12:1");
	assert_int_equal(g.ev[1].sw.prev_pid, 46);
	assert_int_equal(g.ev[1].sw.prev_state, TASK_REPORT_MAX); /* R+: preempted */
	assert_string_equal(g.ev[1].sw.next_comm, "sh");
	assert_int_equal(g.ev[1].sw.next_pid, 1642);

	assert_int_equal(g.ev[2].type, EV_WAKEUP);
	assert_string_equal(g.ev[2].wake.comm, "sh");
	assert_int_equal(g.ev[2].wake.pid, 1642);
	assert_int_equal(g.ev[2].wake.prio, 120);
	assert_int_equal(g.ev[2].wake.target_cpu, 2);

	assert_int_equal(g.ev[3].type, EV_WAKEUP); /* older plugin: no success=1 */
	assert_string_equal(g.ev[3].wake.comm, "rs:main Q:Reg");
	assert_int_equal(g.ev[3].wake.pid, 811);
	assert_int_equal(g.ev[3].wake.prio, 98);
	assert_int_equal(g.ev[3].wake.target_cpu, 3);

	assert_int_equal(g.ev[4].type, EV_WAKEUP_NEW);
	assert_int_equal(g.ev[4].wake.pid, 1703);
	assert_int_equal(g.ev[4].wake.target_cpu, 0);

	assert_int_equal(g.ev[5].sw.prev_state, 0x82); /* D = bit 1, W = bit 7 */
	assert_string_equal(g.ev[5].sw.next_comm, "kworker/u12:1");
	assert_int_equal(g.ev[5].sw.next_pid, 46);
	assert_int_equal(g.ev[5].sw.next_prio, 100);

	assert_int_equal(g.ev[6].sw.prev_state, 0x40); /* x = bit 6 */
	assert_string_equal(g.ev[6].sw.next_comm, "a=b");
	assert_int_equal(g.ev[6].sw.next_pid, 7);

	assert_int_equal(g.ev[7].type, EV_MIGRATE); /* stays key=value */
	assert_int_equal(g.ev[7].migrate.pid, 1642);
	assert_int_equal(g.ev[7].migrate.orig_cpu, 2);
	assert_int_equal(g.ev[7].migrate.dest_cpu, 3);

	/* a comm that looks like a key: tried as key=value first, then as the plugin layout */
	assert_int_equal(g.ev[8].type, EV_SWITCH);
	assert_string_equal(g.ev[8].sw.prev_comm, "a=b");
	assert_int_equal(g.ev[8].sw.prev_pid, 12);
	assert_int_equal(g.ev[8].sw.next_pid, 3);

	snprintf(want, sizeof(want), "'%s':11: sched_switch: bad task state before ' ==> '", path);
	assert_string_equal(g.st.reported[0], want);
	snprintf(want, sizeof(want), "'%s':12: sched_wakeup without 'CPU:'", path);
	assert_string_equal(g.st.reported[1], want);
}

static void test_tracecmd_latency_layout(void **state)
{
	struct got g;
	(void)state;
	/* trace-cmd report -l: "%8.8s-%-5d %3d" then the flags, no brackets around the CPU; the
	 * comm is cut to 8 characters ("kworker/", "rs:main ") */
	read_text("version = 6\n"
		  "cpus=12\n"
		  "  <idle>-0       2d..2.  2084.021659: sched_switch:         prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/2:1 next_pid=2923 next_prio=120\n"
		  "kworker/-2923    2d..2.  2084.021765: sched_switch:         kworker/2:1:2923 [120] D ==> swapper/2:0 [120]\n"
		  "rs:main -811    11dN.1  2084.021800: cpu_idle:             state=1 cpu_id=11\n"
		  "      sh-1642    0....   2084.021900: sched_wakeup:         comm=a pid=5 prio=120 target_cpu=000\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.ev[0].type, EV_SWITCH);
	assert_int_equal(g.ev[0].ts_ns, 2084021659000ull);
	assert_int_equal(g.ev[0].cpu, 2);
	assert_int_equal(g.ev[0].pid, 0);
	assert_string_equal(g.ev[0].sw.next_comm, "kworker/2:1");
	assert_int_equal(g.ev[0].sw.next_pid, 2923);
	assert_int_equal(g.ev[1].cpu, 2);
	assert_int_equal(g.ev[1].pid, 2923);
	assert_string_equal(g.ev[1].sw.prev_comm, "kworker/2:1");
	assert_int_equal(g.ev[1].sw.prev_state, TASK_STATE_D);
	assert_int_equal(g.ev[2].type, EV_CPU_IDLE);
	assert_int_equal(g.ev[2].cpu, 11);
	assert_int_equal(g.ev[2].pid, 811);
	assert_int_equal(g.ev[2].power.state, 1);
	assert_int_equal(g.ev[2].power.cpu_id, 11);
	assert_int_equal(g.ev[3].type, EV_WAKEUP);
	assert_int_equal(g.ev[3].cpu, 0);
	assert_int_equal(g.ev[3].pid, 1642);
	assert_int_equal(g.ev[3].wake.pid, 5);
}

/* Two readers of two texts meant to give the same events: open both. */
static void open_pair(char *const text[2], struct trace_reader **ra, struct trace_reader **rb)
{
	struct gs_error err;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_tmpfile(text[0], ".txt"), NULL, ra, &err), 0);
	assert_int_equal(trace_reader_open(test_tmpfile(text[1], ".txt"), NULL, rb, &err), 0);
}

/* The next event of each: both or neither (false at the end), with the same type, time, line,
 * CPU and pid. */
static bool next_pair(struct trace_reader *ra, struct trace_reader *rb, struct event *a,
		      struct event *b)
{
	struct gs_error err;
	int ret_a = trace_reader_next(ra, a, &err);
	int ret_b = trace_reader_next(rb, b, &err);

	assert_int_equal(ret_a, ret_b);
	if (ret_a != 1)
		return false;
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->ts_ns, b->ts_ns);
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->pid, b->pid);
	return true;
}

/* The payloads of a and b, events of the same type, byte for byte (comms are NUL-padded, the
 * structs have no padding holes). */
static void same_payload(const struct event *a, const struct event *b)
{
	switch (a->type) {
	case EV_SWITCH:
		assert_memory_equal(&a->sw, &b->sw, sizeof(a->sw));
		break;
	case EV_WAKEUP:
	case EV_WAKING:
		assert_memory_equal(&a->wake, &b->wake, sizeof(a->wake));
		break;
	case EV_MIGRATE:
		assert_memory_equal(&a->migrate, &b->migrate, sizeof(a->migrate));
		break;
	default:
		assert_memory_equal(&a->power, &b->power, sizeof(a->power));
		break;
	}
}

/* Opens the two texts and reads both to their end, each event against the other's (next_pair(),
 * same_payload()): how many events. */
static u64 read_pair(char *const text[2], struct trace_reader **ra, struct trace_reader **rb)
{
	struct event a, b;
	u64 n = 0;

	open_pair(text, ra, rb);
	while (next_pair(*ra, *rb, &a, &b)) {
		n++;
		same_payload(&a, &b);
	}
	return n;
}

/* Both readers reported the same things in the same words (after the file's name). */
static void same_reports(const struct trace_stats *sa, const struct trace_stats *sb)
{
	assert_int_equal(sa->nr_reported, sb->nr_reported);
	for (int i = 0; i < sa->nr_reported; i++) /* after "'path'" */
		assert_string_equal(strchr(sa->reported[i] + 1, '\''),
				    strchr(sb->reported[i] + 1, '\''));
}

/* Both readers re-ordered events and met some beyond the window, the same ones, and said so
 * in the same words. */
static void same_disorder(const struct trace_stats *sa, const struct trace_stats *sb)
{
	assert_true(sa->reordered > 0);
	assert_true(sa->disorder_beyond_window > 0);
	assert_int_equal(sa->reordered, sb->reordered);
	assert_int_equal(sa->disorder_beyond_window, sb->disorder_beyond_window);
	same_reports(sa, sb);
}

/* The waker's context of sched_waking/_wakeup(_new): the common pid is the waker, the flags
 * column's third character (v5.9 trace_print_lat_fmt()) says hard/soft irq or NMI. One line
 * per layout: the kernel's (hot path, then the generic path for sched_waking), trace-cmd's with
 * ns timestamps, and the latency layout. */
static void test_wake_context(void **state)
{
	struct got g;
	(void)state;
	read_text("          <idle>-0       [001] d.h2   100.000001: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001\n"
		  "             foo-42      [002] d..3   100.000002: sched_waking: comm=a pid=5 prio=120 target_cpu=001\n"
		  "             foo-42      [002] d.s3   100.000003: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001\n"
		  "             foo-42      [002] dNH3   100.000004: sched_wakeup_new: comm=b pid=6 prio=120 target_cpu=002\n"
		  "     bar-77 [003] d.z.  100.000005000: sched_waking: comm=a pid=5 prio=120 target_cpu=001\n"
		  "     bar-77 [003] d.Z.  100.000006000: sched_waking: comm=a pid=5 prio=120 target_cpu=001\n"
		  "     bar-77    3d.s2.  100.000007: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001\n"
		  "     bar-77    3d..2.  100.000008: sched_wakeup: comm=a pid=5 prio=120 target_cpu=001\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 8);
	assert_int_equal(g.ev[0].pid, 0);
	assert_int_equal(g.ev[0].wake.irq, EV_IRQ_HARD);
	assert_int_equal(g.ev[1].type, EV_WAKING);
	assert_int_equal(g.ev[1].pid, 42);
	assert_int_equal(g.ev[1].wake.irq, 0);
	assert_int_equal(g.ev[2].wake.irq, EV_IRQ_SOFT);
	assert_int_equal(g.ev[3].type, EV_WAKEUP_NEW);
	assert_int_equal(g.ev[3].wake.irq, EV_IRQ_HARD | EV_IRQ_SOFT);
	assert_int_equal(g.ev[4].pid, 77);
	assert_int_equal(g.ev[4].wake.irq, EV_IRQ_NMI);
	assert_int_equal(g.ev[5].wake.irq, EV_IRQ_HARD | EV_IRQ_NMI);
	assert_int_equal(g.ev[6].cpu, 3);
	assert_int_equal(g.ev[6].wake.irq, EV_IRQ_SOFT);
	assert_int_equal(g.ev[7].wake.irq, 0);
}

/* sched_migrate_task's context, as a wakeup's: the load balancer's SCHED softirq ('s'), task
 * context (a newidle balance inside __schedule(), or a waker's), in the kernel's layout and in
 * the latency layout. */
static void test_migrate_context(void **state)
{
	struct got g;
	(void)state;
	read_text("          <idle>-0       [001] d.s2.   100.000001: sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=0 dest_cpu=1\n"
		  "             foo-42      [001] d..2.   100.000002: sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=1 dest_cpu=0\n"
		  "             foo-42      [000] d.h3.   100.000003: sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=0 dest_cpu=1\n"
		  "     bar-77    1d.s2.  100.000004: sched_migrate_task: comm=a pid=5 prio=120 orig_cpu=1 dest_cpu=0\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.ev[0].type, EV_MIGRATE);
	assert_int_equal(g.ev[0].migrate.irq, EV_IRQ_SOFT);
	assert_int_equal(g.ev[0].migrate.dest_cpu, 1);
	assert_int_equal(g.ev[1].migrate.irq, 0);
	assert_int_equal(g.ev[2].migrate.irq, EV_IRQ_HARD);
	assert_int_equal(g.ev[3].cpu, 1);
	assert_int_equal(g.ev[3].migrate.irq, EV_IRQ_SOFT);
}

/* TIF_NEED_RESCHED of the task current on the printing CPU, from the flags column's second
 * character: 'N' and 'n' say it; 'L' and 'l' (the lazy bit alone), 'p' (PREEMPT_NEED_RESCHED
 * alone) and '.' do not (7.2 trace_print_lat_fmt(), kernel/trace/trace_output.c); 'B' and 'b'
 * (with the lazy bit) are not taken, as text.c says why. The kernel's layout (hot path), the
 * generic path of sched_waking, trace-cmd's ns layout and the latency layout. */
static void test_wake_resched(void **state)
{
	static const struct {
		const char *line;
		u32 want;
	} cases[] = {
	    {"             foo-42      [002] dN.4.   100.000001: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 1},
	    {"             foo-42      [002] dn.4.   100.000002: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 1},
	    {"             foo-42      [002] dB.4.   100.000003: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] db.4.   100.000004: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] dL.4.   100.000005: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] dl.4.   100.000006: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] dp.4.   100.000007: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] d..4.   100.000008: sched_wakeup: comm=a pid=5 prio=120 target_cpu=002\n", 0},
	    {"             foo-42      [002] dNh3.   100.000009: sched_wakeup_new: comm=b pid=6 prio=120 target_cpu=002\n", 1},
	    {"             foo-42      [002] dN.3.   100.000010: sched_waking: comm=a pid=5 prio=120 target_cpu=002\n", 1},
	    {"     bar-77 [003] dN.2  100.000011000: sched_wakeup: comm=a pid=5 prio=120 target_cpu=003\n", 1},
	    {"     bar-77 [003] d..2  100.000012000: sched_wakeup: comm=a pid=5 prio=120 target_cpu=003\n", 0},
	    {"     bar-77    3dN.2.  100.000013: sched_wakeup: comm=a pid=5 prio=120 target_cpu=003\n", 1},
	    {"     bar-77    3dl.2.  100.000014: sched_wakeup: comm=a pid=5 prio=120 target_cpu=003\n", 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct got g;

		read_text(cases[i].line, NULL, &g);
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.n, 1);
		if (g.ev[0].wake.resched != cases[i].want)
			fail_msg("case %zu: resched %u, want %u", i, g.ev[0].wake.resched, cases[i].want);
	}
}

/* The lab's kprobe events on schedutil's hook, under its three names (sugov_update_single up to
 * v5.14, _single_freq from v5.15, _shared for a shared policy): the rq clock (time=) and the
 * calling context from the flags column, as for a wakeup. */
/* The kernel's own PELT and util_est events (the lab's --pelt) keep the context that traced
 * them, as the hook calls do: an update inside __schedule() or a local wakeup in task context,
 * a tick's in a hard interrupt, a blocked-load refresh's in the SCHED softirq. */
static void test_pelt_event_context(void **state)
{
	struct got g;
	(void)state;
	read_text("             foo-42      [000] d..3.     7.000001: sched_util_est_cfs: cpu=0 path=/ enqueued=0 ewma=0 util=558\n"
		  "          <idle>-0       [001] d.h5.     7.000002: sched_pelt_se: cpu=1 path=(null) comm=bar pid=43 load=478 rbl_load=478 util=373 update_time=6946501120\n"
		  "             foo-42      [000] d.s2.     7.000003: sched_pelt_rt: cpu=0 util=0 update_time=6946501999\n"
		  "             foo-42      [000] dNH3.     7.000004: sched_util_est_se: cpu=0 path=(null) comm=foo pid=42 enqueued=2147484048 ewma=421 util=400\n"
		  "             foo-42      [000] d..3.     7.000005: sched_pelt_cfs: cpu=0 path=/ load=623 rbl_load=623 util=517 update_time=6946502000\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.ev[0].type, EV_UTIL_EST_CFS);
	assert_int_equal(g.ev[0].util.irq, 0);
	assert_int_equal(g.ev[1].type, EV_PELT_SE);
	assert_int_equal(g.ev[1].util.irq, EV_IRQ_HARD);
	assert_int_equal(g.ev[1].util.util, 373);
	assert_int_equal(g.ev[2].type, EV_PELT_RT);
	assert_int_equal(g.ev[2].util.irq, EV_IRQ_SOFT);
	assert_int_equal(g.ev[3].type, EV_UTIL_EST_SE);
	assert_int_equal(g.ev[3].util.irq, EV_IRQ_HARD | EV_IRQ_SOFT);
	assert_int_equal(g.ev[4].type, EV_PELT_CFS);
	assert_int_equal(g.ev[4].util.irq, 0);
}

static void test_hook_probe(void **state)
{
	struct got g;
	(void)state;
	read_text("          <idle>-0       [001] d.h4.     7.000001: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=6940000123 flags=0\n"
		  "             foo-42      [000] d..2.     7.000002: sugov_update_single: (sugov_update_single+0x0/0x1f0) time=6940000456 flags=0\n"
		  "             foo-42      [000] d.s1.     7.000003: sugov_update_shared: (sugov_update_shared+0x4/0x2a0) time=18446744073709551615 flags=1\n"
		  "             foo-42      [000] dN.2.     7.000004: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=6940000789 flags=0\n"
		  "             foo-42      [000] dl.2.     7.000005: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=6940000999 flags=0\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 5);
	/* TIF_NEED_RESCHED at the call, as a wakeup's: 'N' says it, the lazy 'l' alone does not */
	assert_int_equal(g.ev[0].hook.resched, 0);
	assert_int_equal(g.ev[3].hook.resched, 1);
	assert_int_equal(g.ev[3].hook.irq, 0);
	assert_int_equal(g.ev[4].hook.resched, 0);
	assert_int_equal(g.ev[0].type, EV_GOV_HOOK);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[0].hook.time, 6940000123ULL);
	assert_int_equal(g.ev[0].hook.irq, EV_IRQ_HARD);
	assert_int_equal(g.ev[1].type, EV_GOV_HOOK);
	assert_int_equal(g.ev[1].hook.time, 6940000456ULL);
	assert_int_equal(g.ev[1].hook.irq, 0);
	assert_int_equal(g.ev[2].type, EV_GOV_HOOK);
	assert_int_equal(g.ev[2].hook.time, 18446744073709551615ULL);
	assert_int_equal(g.ev[2].hook.irq, EV_IRQ_SOFT);
	/* without its clock the line is malformed, like any event missing a field it needs */
	read_text("             foo-42      [000] d..2.     7.000002: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) flags=0\n",
		  NULL, &g);
	assert_int_equal(g.st.malformed, 1);
	assert_int_equal(g.n, 0);
	/* and at an idle-loop exit, on the kernel's fast path and trace-cmd's layout */
	read_text("          <idle>-0       [001] dN.1.     7.000006: cpu_idle: state=4294967295 cpu_id=1\n"
		  "          <idle>-0       [001] d..1.     7.000007: cpu_idle: state=4294967295 cpu_id=1\n"
		  "          <idle>-0       [001] d..1.     7.000008: cpu_frequency: state=800000 cpu_id=1\n"
		  "          <idle>-0     [001] dn.1  7.000009: cpu_idle: state=1 cpu_id=1\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.ev[0].type, EV_CPU_IDLE);
	assert_int_equal(g.ev[0].power.resched, 1);
	assert_int_equal(g.ev[1].power.resched, 0);
	assert_int_equal(g.ev[2].type, EV_CPU_FREQUENCY);
	assert_int_equal(g.ev[2].power.resched, 0);
	assert_int_equal(g.ev[3].power.resched, 1);
	assert_int_equal(g.ev[3].power.state, 1);
}

/* The lab's probe on update_blocked_averages: the CPU it refreshed (cpu=) and the context
 * that called it, from the flags column: task context (the newidle balance of __schedule(),
 * "d..1.") or SCHED_SOFTIRQ's ("..s1."). */
static void test_blocked_update_probe(void **state)
{
	struct got g;
	(void)state;
	read_text("             foo-42      [001] d..1.     7.000001: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=1\n"
		  "          <idle>-0       [000] ..s1.     7.000002: update_blocked_averages: (update_blocked_averages+0x0/0x7b0) cpu=1\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, EV_BLOCKED_UPDATE);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[0].blocked.cpu, 1);
	assert_int_equal(g.ev[0].blocked.irq, 0);
	assert_int_equal(g.ev[1].type, EV_BLOCKED_UPDATE);
	assert_int_equal(g.ev[1].cpu, 0);
	assert_int_equal(g.ev[1].blocked.cpu, 1);
	assert_int_equal(g.ev[1].blocked.irq, EV_IRQ_SOFT);
}

/* The lab's kretprobe on tick_nohz_get_idle_calls_cpu(), called by schedutil's busy hold: the
 * count it returned (calls=). Without it the line is malformed. */
static void test_idle_calls_probe(void **state)
{
	struct got g;
	(void)state;
	read_text("          <idle>-0       [001] d.s2.     7.000001: idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu) calls=343\n"
		  "             foo-42      [000] d..2.     7.000002: idle_calls: (sugov_update_single+0xca/0x1f0 <- tick_nohz_get_idle_calls_cpu) calls=18446744073709551615\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, EV_GOV_IDLE_CALLS);
	assert_int_equal(g.ev[0].cpu, 1);
	assert_int_equal(g.ev[0].idle_calls.calls, 343);
	assert_int_equal(g.ev[1].type, EV_GOV_IDLE_CALLS);
	assert_int_equal(g.ev[1].cpu, 0);
	assert_int_equal(g.ev[1].idle_calls.calls, 18446744073709551615ULL);
	read_text("             foo-42      [000] d..2.     7.000002: idle_calls: (sugov_update_single_freq+0xf4/0x230 <- tick_nohz_get_idle_calls_cpu)\n",
		  NULL, &g);
	assert_int_equal(g.st.malformed, 1);
	assert_int_equal(g.n, 0);
}

/*
 * The fast path against the generic one: every line is read as written (fields in the kernel's
 * order, one space apart or more, " ==> " spaced out or left out: the fast path) and with a
 * field appended (which the fast path refuses, so the generic key=value path parses it, ignoring
 * the extra field); the two events must be equal byte for byte (comms are NUL-padded, the
 * structs have no padding holes).
 */
static void test_fast_path_equals_generic(void **state)
{
	static const char *const comms[] = {"a", "", "fifteen_chars__", "sixteen_chars___x",
					    "kworker/u12:1", "x==y", "<idle>"};
	static const char *const nums[] = {"0", "7", "120", "1234567", "12345678", "2147483647",
					   "-1", "-2147483648", "003", "0000000", "00000001",
					   "-0000009", "123456789", "0002147483647"};
	static const char *const states[] = {"R", "S", "D", "R+", "D|W", "x", "256", "64", "I"};
	static const char *const seps[] = {" ", "  "};
	static const char *const arrows[] = {" ==> ", "   ==>  ", " ", "  "};
	size_t cap = 1 << 20, len[2] = {0, 0};
	char *text[2];
	struct trace_reader *ra = NULL, *rb = NULL;
	struct event a, b;
	unsigned line = 0;
	u64 n = 0;
	(void)state;

	text[0] = malloc(cap);
	text[1] = malloc(cap);
	assert_non_null(text[0]);
	assert_non_null(text[1]);
	for (size_t c = 0; c < GS_ARRAY_SIZE(comms); c++)
		for (size_t k = 0; k < GS_ARRAY_SIZE(nums); k++)
			for (size_t s = 0; s < GS_ARRAY_SIZE(states); s++) {
				char body[3][256];
				/* fields one space apart as the kernel prints them, or more; the
				 * arrow as printed, spaced out, or left out (older trace-cmd) */
				const char *sep = seps[line % GS_ARRAY_SIZE(seps)];
				const char *arrow = arrows[line / 2 % GS_ARRAY_SIZE(arrows)];
				snprintf(body[0], sizeof(body[0]),
					 "sched_switch: prev_comm=%s%sprev_pid=%s%sprev_prio=%s%sprev_state=%s%snext_comm=%s%snext_pid=%s%snext_prio=%s",
					 comms[c], sep, nums[k], sep,
					 nums[(k + 1) % GS_ARRAY_SIZE(nums)], sep, states[s], arrow,
					 comms[(c + s) % GS_ARRAY_SIZE(comms)], sep,
					 nums[(k + s) % GS_ARRAY_SIZE(nums)], sep, nums[s]);
				snprintf(body[1], sizeof(body[1]),
					 "%s: comm=%s%spid=%s%sprio=%s%starget_cpu=%s",
					 s % 2 ? "sched_wakeup" : "sched_waking", comms[c], sep,
					 nums[k], sep, nums[s], sep, nums[(s + 2) % 5]);
				snprintf(body[2], sizeof(body[2]), "cpu_idle: state=%s%scpu_id=%s",
					 nums[k][0] == '-' ? "4294967295" : nums[k], sep,
					 nums[s % 5]);
				for (int v = 0; v < 3; v++)
					for (int t = 0; t < 2; t++) {
						len[t] += (size_t)snprintf(
							text[t] + len[t], cap - len[t],
							"  comm-%u [001] d..2 %u.%06u: %s%s\n", line, 1 + line / 1000000,
							line % 1000000, body[v], t ? " zz=1" : "");
						assert_true(len[t] < cap);
					}
				line++;
			}
	open_pair(text, &ra, &rb);
	while (next_pair(ra, rb, &a, &b)) {
		n++;
		assert_int_equal(a.type, b.type);
		assert_int_equal(a.ts_ns, b.ts_ns);
		same_payload(&a, &b);
	}
	assert_int_equal(trace_reader_stats(ra)->malformed, 0);
	/* every line a valid event; the overlong comm and x==y go through the generic path too */
	assert_int_equal(n, 3ull * line);
	assert_int_equal(trace_reader_stats(rb)->malformed, 0);
	trace_reader_free(ra);
	trace_reader_free(rb);
	free(text[0]);
	free(text[1]);
}

/*
 * The kernel's own column layout ("%16s-%-7d [%03d] flags %5u.%06u: "), which the reader takes
 * at fixed offsets, in one pass per line and in batches of in-order lines, against the same
 * events with a TGID column ("(-------)"), which takes the general line-by-line path: the same
 * stream, counts and reports. The trace steps back in time now and then, within and beyond the
 * re-ordering window, holds comms with spaces and '[', lines with trailing blanks, "\r\n" ends,
 * an event without a fast path and an unknown one, and is longer than the input buffer. Wakeups
 * and wakings carry irq-context flags; numbers run from one digit to ten, with leading zeros.
 * Comms that begin as trace-cmd's header lines do are events in both layouts ("CPU0", "cpus=x":
 * header_line() takes neither), or header lines in both ("version =1").
 */
static void test_kernel_layout_equals_line_path(void **state)
{
	static const char *const comms[] = {"rt3-0", "<idle>", "kworker/u12:1", "a b", "x[1]",
					    "fifteen_chars__", "CPU0", "cpus=x", "version =1"};
	static const char *const flags[] = {"d..2", "dnh4", "d.s3", "dNH3", "d.z.", "X.Z1"};
	static const char *const nums[] = {"0", "7", "003", "0000000", "00000001", "1234567",
					   "12345678", "123456789", "2147483647", "0000000009"};
	const size_t cap = 8u << 20;
	size_t len[2] = {0, 0};
	char *text[2];
	struct trace_reader *ra = NULL, *rb = NULL;
	u64 seed = 42, t_us = 1000000, n = 0, want_events = 0;
	const struct trace_stats *sa, *sb;
	(void)state;

	text[0] = malloc(cap);
	text[1] = malloc(cap);
	assert_non_null(text[0]);
	assert_non_null(text[1]);
	for (int i = 0; i < 20000; i++) {
		char body[256];
		const char *comm, *end, *gap;
		u64 ts;
		unsigned k, cpu;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		k = (unsigned)(seed >> 33);
		t_us += k % 40;
		ts = t_us;
		if (k % 50 == 7)
			ts -= k / 50 % 15000; /* back by up to 15 ms: within or beyond the 10 ms window */
		comm = comms[k / 7 % GS_ARRAY_SIZE(comms)];
		cpu = k / 11 % 8;
		/* after the timestamp's and the event name's ':' the kernel's one space, or more */
		gap = k % 9 == 4 ? "  " : " ";
		switch (k / 13 % 8) {
		case 0:
		case 1:
		case 2:
			snprintf(body, sizeof(body),
				 "sched_switch:%sprev_comm=%s prev_pid=%u prev_prio=%u prev_state=%s ==> next_comm=%s next_pid=%u next_prio=120",
				 gap, comm, k % 5000, 100 + k % 40, k % 3 ? "S" : "R+",
				 comms[k / 17 % GS_ARRAY_SIZE(comms)], k / 3 % 5000);
			break;
		case 3:
		case 4:
			snprintf(body, sizeof(body),
				 "%s: comm=%s pid=%u prio=%u target_cpu=%03u",
				 k % 3 ? "sched_wakeup" : "sched_waking", comm, k % 70000, k % 140, cpu);
			break;
		case 5:
			snprintf(body, sizeof(body), "cpu_idle: state=%s cpu_id=%u",
				 k % 2 ? "4294967295" : nums[k / 3 % GS_ARRAY_SIZE(nums)], cpu);
			break;
		case 6:
			if (k % 5)
				snprintf(body, sizeof(body), "cpu_frequency: state=%s cpu_id=4",
					 nums[k / 5 % GS_ARRAY_SIZE(nums)]);
			else
				snprintf(body, sizeof(body),
					 "sched_migrate_task: comm=m pid=%s prio=120 orig_cpu=1 dest_cpu=2",
					 nums[k / 5 % GS_ARRAY_SIZE(nums)]);
			break;
		default:
			snprintf(body, sizeof(body), "%s",
				 k % 3 ? "cpu_idle: state=0 cpu_id=3" : "sched_stat_runtime: comm=z pid=1");
			break;
		}
		if (strncmp(body, "sched_stat", 10) != 0 && strcmp(comm, "version =1") != 0)
			want_events++;
		end = k % 40 == 3 ? " \n" : k % 60 == 5 ? "\r\n" : "\n";
		for (int v = 0; v < 2; v++) {
			len[v] += (size_t)snprintf(text[v] + len[v], cap - len[v],
						   "%16s-%-7u %s[%03u] %s %5llu.%06llu:%s%s%s", comm,
						   k % 30000, v ? "(-------) " : "", cpu,
						   flags[k / 19 % GS_ARRAY_SIZE(flags)],
						   (unsigned long long)(ts / 1000000),
						   (unsigned long long)(ts % 1000000), gap, body, end);
			assert_true(len[v] < cap);
		}
	}
	assert_true(len[0] > 2 * (1u << 20)); /* crosses the input buffer's end */
	n = read_pair(text, &ra, &rb);
	sa = trace_reader_stats(ra);
	sb = trace_reader_stats(rb);
	assert_int_equal(n, want_events);
	assert_int_equal(sa->lines, 20000);
	assert_int_equal(sa->malformed, 0);
	assert_int_equal(sb->malformed, 0);
	same_disorder(sa, sb);
	assert_memory_equal(sa->by_type, sb->by_type, sizeof(sa->by_type));
	assert_true(sa->by_type[EV_WAKING] > 0);
	assert_int_equal(sa->first_ts_ns, sb->first_ts_ns);
	assert_int_equal(sa->last_ts_ns, sb->last_ts_ns);
	trace_reader_free(ra);
	trace_reader_free(rb);
	free(text[0]);
	free(text[1]);
}

/*
 * The u32 fields of cpu_idle / cpu_frequency (state, cpu_id) in the kernel's layout, which the
 * hot path reads with one SSE2 compare for up to 10 digits: each value against strtoull() here,
 * a value above UINT32_MAX or of more than 11 digits a malformed line, as the generic path has
 * it. Does not check the s32 fields (test_fast_path_equals_generic).
 */
static void test_kernel_layout_u32_fields(void **state)
{
	static const char *const vals[] = {"0",	     "7",	  "42",		"99999999",
					   "123456789",  "4294967295", "4294967296", "9999999999",
					   "0000000000", "00004294967295", "12345678901", "1x"};
	char text[4096];
	size_t len = 0;
	struct got g;
	int n = 0, bad = 0;
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(vals); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%16s-%-7u [%03u] d..2 %5u.%06u: cpu_idle: state=%s cpu_id=%s\n",
					"rt3-0", 12, 1, 1, (unsigned)i, vals[i],
					i % 2 ? "3" : vals[i]);
	assert_true(len < sizeof(text));
	read_text(text, NULL, &g);
	for (size_t i = 0; i < GS_ARRAY_SIZE(vals); i++) {
		char *e;
		unsigned long long v = strtoull(vals[i], &e, 10);
		/* cpu_id is the value itself on even rows: at most INT32_MAX as a CPU */
		bool ok = *e == '\0' && v <= UINT32_MAX && (i % 2 || v <= INT32_MAX);
		if (!ok) {
			bad++;
			continue;
		}
		assert_true(n < g.n);
		assert_int_equal(g.ev[n].power.state, v);
		assert_int_equal(g.ev[n].power.cpu_id, i % 2 ? 3 : v);
		n++;
	}
	assert_int_equal(g.n, n);
	assert_int_equal(g.st.malformed, bad);
}

/*
 * Timestamps of the kernel's layout, whose seconds and microseconds the hot path reads in one
 * SSE2 compare and two words, against the same lines with a TGID column (the line path's
 * parse_ts()) and, for the kernel's six decimals, against sec * 10^9 + us * 10^3 computed here:
 * seconds of 1 to 12 digits, fractions of 5, 6, 7 and 9 decimals, a timestamp with no ':' after
 * its sixth decimal. Does not check what follows the timestamp (the tests above).
 */
static void test_kernel_layout_timestamps(void **state)
{
	static const u64 secs[] = {0,	      7,	  42,	      12345,	 99999,
				   123456,    1234567,	  12345678,   99999999,	 100000000,
				   1234567890, 9223372036ull, 100000000000ull};
	/* in time order, as the seconds: events leave as written */
	static const char *const fracs[] = {"000000",  "000001",    "12345", "123456",
					    "1234567", "123456789", "999999"};
	static char buf[2][16384];
	const size_t cap = sizeof(buf[0]);
	size_t len[2] = {0, 0};
	char *text[2] = {buf[0], buf[1]};
	struct trace_reader *ra = NULL, *rb = NULL;
	struct event a, b;
	u64 n = 0, want[GS_ARRAY_SIZE(secs) * GS_ARRAY_SIZE(fracs)];
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(secs); i++)
		for (size_t f = 0; f < GS_ARRAY_SIZE(fracs); f++) {
			u64 us = strtoull(fracs[f], NULL, 10);
			/* a fraction not of six decimals: its value is parse_ts()'s, taken from rb */
			want[n++] = strlen(fracs[f]) == 6 ? secs[i] * 1000000000ull + us * 1000ull
							  : UINT64_MAX;
			for (int v = 0; v < 2; v++) {
				len[v] += (size_t)snprintf(
				    text[v] + len[v], cap - len[v],
				    "%16s-%-7u %s[%03u] %s %5llu.%s: cpu_idle: state=1 cpu_id=0\n",
				    "rt3-0", 12, v ? "(-------) " : "", 1, "d..2",
				    (unsigned long long)secs[i], fracs[f]);
				assert_true(len[v] < cap);
			}
		}
	/* no ':' after the sixth decimal: malformed on both paths */
	for (int v = 0; v < 2; v++)
		len[v] += (size_t)snprintf(text[v] + len[v], cap - len[v],
					   "%16s-%-7u %s[%03u] d..2     1.000001 cpu_idle: state=1 cpu_id=0\n",
					   "rt3-0", 12, v ? "(-------) " : "", 1);
	open_pair(text, &ra, &rb);
	n = 0;
	while (next_pair(ra, rb, &a, &b)) {
		/* the timestamps beyond 2^63 ns are malformed lines, not events */
		while (want[n] != UINT64_MAX && want[n] > READER_MAX_TS_NS)
			n++;
		if (want[n] != UINT64_MAX)
			assert_int_equal(a.ts_ns, want[n]);
		n++;
	}
	assert_int_equal(trace_reader_stats(ra)->malformed, trace_reader_stats(rb)->malformed);
	assert_int_equal(trace_reader_stats(ra)->events, trace_reader_stats(rb)->events);
	/* 9223372036.999999 and the 12-digit seconds beyond 2^63 ns, and the line without ':' */
	assert_true(trace_reader_stats(ra)->malformed >= 1 + GS_ARRAY_SIZE(fracs));
	trace_reader_free(ra);
	trace_reader_free(rb);
}

/*
 * The hot path's scans, which look at 16 bytes only (text_parse_hot_line() reads a line in place
 * without checking the buffer's end), against the same events with a TGID column (the general
 * line path): runs of 1, 2, 15, 16 and 17 spaces before the timestamp, after its ':' and the
 * event name's, between the fields and around " ==> "; comms of 0 to 17 bytes (those of 0 to 15
 * copied by one masked 16-byte store), prev_states of 15 to 17; numbers of 11 and 12
 * characters. The trace is many input buffers long: the lines
 * within HOT_SPAN of a buffer's end are read with every read checked. The same events, the same
 * malformed lines. Does not check values against the text (test_kernel_layout_equals_line_path,
 * the tests above).
 */
static void test_kernel_layout_long_runs(void **state)
{
	static const char *const gaps[] = {" ", "  ", "               ", "                ",
					   "                 "};
	static const char *const arrows[] = {" ==> ", "               ==>               ",
					     "                ==> ", " ==>                ", " "};
	static const char *const comms[] = {"a", "fifteen_chars__", "sixteen_chars___",
					    "seventeen_chars__", "", "abcdefg", "abcdefgh",
					    "abcdefghi"};
	static const char *const states[] = {"S", "R+", "S|D|T|t|X|Z|P|I", "S|D|T|t|X|Z|P|I|R",
					     "000000000000001", "0000000000000001"};
	static const char *const nums[] = {"7", "-0000000001", "00000000001", "000000000001"};
	static char buf[2][2u << 20];
	const size_t cap = sizeof(buf[0]);
	size_t len[2] = {0, 0};
	char *text[2] = {buf[0], buf[1]};
	struct trace_reader *ra = NULL, *rb = NULL;
	u64 seed = 7, n = 0;
	const struct trace_stats *sa, *sb;
	(void)state;

	for (unsigned i = 0; i < 6000; i++) {
		char body[512];
		unsigned k;
		const char *g0, *g1, *sep, *comm;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		k = (unsigned)(seed >> 33);
		/* mostly the kernel's one space, so that most lines stay on the hot path */
		g0 = gaps[k % 3 ? 0 : k / 3 % GS_ARRAY_SIZE(gaps)];
		g1 = gaps[k % 5 ? 0 : k / 5 % GS_ARRAY_SIZE(gaps)];
		sep = gaps[k % 7 ? 0 : k / 7 % GS_ARRAY_SIZE(gaps)];
		comm = comms[k / 11 % GS_ARRAY_SIZE(comms)];
		switch (k / 13 % 3) {
		case 0:
			snprintf(body, sizeof(body),
				 "sched_switch:%sprev_comm=%s%sprev_pid=%s%sprev_prio=120%s"
				 "prev_state=%s%snext_comm=%s%snext_pid=%s%snext_prio=%s",
				 g1, comm, sep, nums[k / 17 % GS_ARRAY_SIZE(nums)], sep, sep,
				 states[k / 19 % GS_ARRAY_SIZE(states)],
				 arrows[k % 2 ? 0 : k / 2 % GS_ARRAY_SIZE(arrows)],
				 comms[k / 23 % GS_ARRAY_SIZE(comms)], sep,
				 nums[k / 29 % GS_ARRAY_SIZE(nums)], sep,
				 nums[k / 31 % GS_ARRAY_SIZE(nums)]);
			break;
		case 1:
			snprintf(body, sizeof(body),
				 "sched_wakeup:%scomm=%s%spid=%s%sprio=120%starget_cpu=%s", g1, comm,
				 sep, nums[k / 17 % GS_ARRAY_SIZE(nums)], sep, sep,
				 nums[k / 29 % GS_ARRAY_SIZE(nums)]);
			break;
		default:
			snprintf(body, sizeof(body), "cpu_idle:%sstate=%s%scpu_id=%s", g1,
				 nums[k / 17 % GS_ARRAY_SIZE(nums)] + (k % 2), sep,
				 nums[k / 29 % GS_ARRAY_SIZE(nums)]);
			break;
		}
		for (int v = 0; v < 2; v++) {
			/* the timestamp's column 5 wide as the kernel prints it, or 21 or 22 */
			int ts_width = k % 37 ? 5 : 21 + (int)(k / 37 % 2);

			len[v] += (size_t)snprintf(text[v] + len[v], cap - len[v],
						   "%16s-%-7u %s[%03u] d..2 %*u.%06u:%s%s\n",
						   "rt3-0", k % 30000, v ? "(-------) " : "", k % 8,
						   ts_width, 1 + i / 100000, i % 100000 * 10, g0,
						   body);
			assert_true(len[v] < cap);
		}
	}
	assert_true(len[0] > 8 * READER_BUF_INITIAL);
	n = read_pair(text, &ra, &rb);
	sa = trace_reader_stats(ra);
	sb = trace_reader_stats(rb);
	assert_int_equal(sa->lines, 6000);
	assert_int_equal(sa->events, sb->events);
	assert_int_equal(sa->malformed, sb->malformed);
	same_reports(sa, sb); /* the malformed lines' */
	assert_int_equal(n, sa->events);
	assert_true(n > 3000);
	assert_memory_equal(sa->by_type, sb->by_type, sizeof(sa->by_type));
	trace_reader_free(ra);
	trace_reader_free(rb);
}

/*
 * The comm-pid column of the kernel's layout, whose pid the hot path reads at once when a '-'
 * is at offset 16, then 1 to 7 digits and spaces to offset 24, and otherwise from the last
 * byte before 24 that is not a space: columns of "%16s-%-7s" with dashes in the comm, pids of 1
 * to 8 digits, and columns written byte by byte (digits after a space or a letter, a '-' at
 * another offset, no '-'), against the same lines with a TGID column (the line path). The same
 * events, pids and malformed lines; the printed pids and the CPUs (000 to 999, read in the same
 * SSE2 register as the pid) also against the numbers written.
 */
static void test_kernel_layout_pid_column(void **state)
{
	static const char *const comms[] = {"a", "a-b", "-", "x-12", "sixteen-chars--_", "<idle>",
					    "rt-3 0"};
	static const char *const pids[] = {"0", "7", "42", "1234567", "0000001", "12345678"};
	/* 24 bytes each, the column as a whole */
	static const char *const cols[] = {"           abc-12 34    ", "        abc-12a45       ",
					   "          -1234567890123", "1234567890123456-1234567",
					   "               --1234567", "                -       ",
					   "              ab-123    ", "                x1234567",
					   "                -12345 7", "  a-b-c-d-e-f-g-h-1     "};
	char text[2][8192];
	size_t len[2] = {0, 0};
	struct trace_reader *ra = NULL, *rb = NULL;
	struct event a, b;
	s32 want[GS_ARRAY_SIZE(comms) * GS_ARRAY_SIZE(pids) + GS_ARRAY_SIZE(cols)];
	unsigned n = 0, i = 0;
	(void)state;

	for (size_t c = 0; c < GS_ARRAY_SIZE(comms); c++)
		for (size_t k = 0; k < GS_ARRAY_SIZE(pids); k++, n++) {
			want[n] = (s32)strtol(pids[k], NULL, 10);
			for (int v = 0; v < 2; v++) {
				len[v] += (size_t)snprintf(
				    text[v] + len[v], sizeof(text[v]) - len[v],
				    "%16s-%-7s %s[%03u] d..2     1.%06u: cpu_idle: state=1 "
				    "cpu_id=1\n",
				    comms[c], pids[k], v ? "(-------) " : "", n * 37 % 1000, n);
				assert_true(len[v] < sizeof(text[v]));
			}
		}
	for (size_t c = 0; c < GS_ARRAY_SIZE(cols); c++, n++) {
		want[n] = -1; /* not checked: what the line path makes of it */
		for (int v = 0; v < 2; v++) {
			len[v] += (size_t)snprintf(
			    text[v] + len[v], sizeof(text[v]) - len[v],
			    "%s %s[%03u] d..2     1.%06u: cpu_idle: state=1 cpu_id=1\n", cols[c],
			    v ? "(-------) " : "", n * 37 % 1000, n);
			assert_true(len[v] < sizeof(text[v]));
		}
	}
	open_pair((char *[]){text[0], text[1]}, &ra, &rb);
	while (next_pair(ra, rb, &a, &b)) {
		/* the line's number in its microseconds: which line this event is */
		i = (unsigned)(a.ts_ns / 1000 % 1000000);
		assert_true(i < n);
		if (want[i] >= 0)
			assert_int_equal(a.pid, want[i]);
		assert_int_equal(a.cpu, i * 37 % 1000);
		assert_memory_equal(&a.power, &b.power, sizeof(a.power));
	}
	assert_int_equal(trace_reader_stats(ra)->events, trace_reader_stats(rb)->events);
	assert_int_equal(trace_reader_stats(ra)->malformed, trace_reader_stats(rb)->malformed);
	/* every printed column is an event: 42, and some of the written ones */
	assert_true(trace_reader_stats(ra)->events >= GS_ARRAY_SIZE(comms) * GS_ARRAY_SIZE(pids));
	trace_reader_free(ra);
	trace_reader_free(rb);
}

/*
 * The batches of the kernel's layout where the re-ordering stage is full: 40000 in-order lines
 * 1/8 us apart (5 ms, inside the 10 ms window: more than the 32768 events held at most, so
 * events leave because the stage is full, not because they are old), and every 997th line
 * 6 ms back in time: within the window while the first 32768 are held, older than events
 * already handed out (32768 lines are 4.1 ms) after. How many are counted as each depends on how far the reader
 * has read ahead when the old line comes: the same as on the line-by-line path (the TGID
 * column) exactly when the batches stop where the stage is full, with the heap counted.
 */
static void test_kernel_layout_batches_when_full(void **state)
{
	const size_t cap = 8u << 20;
	size_t len[2] = {0, 0};
	char *text[2];
	struct trace_reader *ra = NULL, *rb = NULL;
	struct event a, b;
	const struct trace_stats *sa, *sb;
	u64 n = 0;
	(void)state;

	text[0] = malloc(cap);
	text[1] = malloc(cap);
	assert_non_null(text[0]);
	assert_non_null(text[1]);
	for (unsigned i = 0; i < 40000; i++) {
		unsigned long long us = 1000000 + i / 8 - (i % 997 == 500 ? 6000 : 0);
		for (int v = 0; v < 2; v++) {
			len[v] += (size_t)snprintf(text[v] + len[v], cap - len[v],
						   "%16s-%-7u %s[%03u] d..2 %5llu.%06llu: cpu_idle: state=%u cpu_id=%u\n",
						   "<idle>", 0u, v ? "(-------) " : "", i % 8, us / 1000000,
						   us % 1000000, i % 3, i % 8);
			assert_true(len[v] < cap);
		}
	}
	open_pair(text, &ra, &rb);
	while (next_pair(ra, rb, &a, &b)) {
		n++;
		assert_memory_equal(&a.power, &b.power, sizeof(a.power));
	}
	sa = trace_reader_stats(ra);
	sb = trace_reader_stats(rb);
	assert_int_equal(n, 40000);
	same_disorder(sa, sb);
	trace_reader_free(ra);
	trace_reader_free(rb);
	free(text[0]);
	free(text[1]);
}

/*
 * The juno trace.dat as trace-cmd prints it with plugins and in its -l layout (made by
 * libtraceevent, tests/golden/input/README.md) against its `trace-cmd report -N` text: the same
 * events. prev_state differs where the layouts carry different facts: the plugin prints "R" for
 * a preempted task (no "+") and its own letter table, so only "went to sleep or not" is compared.
 */
static void test_plugin_and_latency_equal_report(void **state)
{
	static const char *const others[] = {"tests/golden/input/juno_sched_load_plugins.txt.gz",
					     "tests/golden/input/juno_sched_load_latency.txt.gz"};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(others); i++) {
		struct trace_reader *rr = NULL, *ro = NULL;
		struct gs_error err;
		struct event a, b;
		bool plugin = i == 0;
		int ret_a, ret_b;
		u64 n = 0;

		gs_error_clear(&err);
		assert_int_equal(trace_reader_open(test_path("traces/juno-r0/sched_load/trace.report.txt"),
						   NULL, &rr, &err), 0);
		assert_int_equal(trace_reader_open(test_path(others[i]), NULL, &ro, &err), 0);
		for (;;) {
			ret_a = trace_reader_next(rr, &a, &err);
			ret_b = trace_reader_next(ro, &b, &err);
			assert_int_equal(ret_a, ret_b);
			if (ret_a != 1)
				break;
			n++;
			assert_int_equal(a.ts_ns, b.ts_ns);
			assert_int_equal(a.type, b.type);
			assert_int_equal(a.cpu, b.cpu);
			assert_int_equal(a.pid, b.pid);
			switch (a.type) {
			case EV_SWITCH:
				assert_string_equal(a.sw.prev_comm, b.sw.prev_comm);
				assert_int_equal(a.sw.prev_pid, b.sw.prev_pid);
				assert_int_equal(a.sw.prev_prio, b.sw.prev_prio);
				assert_string_equal(a.sw.next_comm, b.sw.next_comm);
				assert_int_equal(a.sw.next_pid, b.sw.next_pid);
				assert_int_equal(a.sw.next_prio, b.sw.next_prio);
				if (plugin)
					assert_int_equal(switch_prev_sleeps(a.sw.prev_state),
							 switch_prev_sleeps(b.sw.prev_state));
				else
					assert_int_equal(a.sw.prev_state, b.sw.prev_state);
				break;
			case EV_MIGRATE: /* irq: the -N text has no flags column, -l has */
				assert_string_equal(a.migrate.comm, b.migrate.comm);
				assert_int_equal(a.migrate.pid, b.migrate.pid);
				assert_int_equal(a.migrate.prio, b.migrate.prio);
				assert_int_equal(a.migrate.orig_cpu, b.migrate.orig_cpu);
				assert_int_equal(a.migrate.dest_cpu, b.migrate.dest_cpu);
				break;
			case EV_LOAD_CFS_RQ:
			case EV_LOAD_SE:
				assert_int_equal(a.util.path, b.util.path);
				assert_int_equal(a.util.pid, b.util.pid);
				assert_int_equal(a.util.load, b.util.load);
				assert_int_equal(a.util.util, b.util.util);
				break;
			default: /* power.resched: the report layout has no flags column */
				assert_int_equal(a.power.state, b.power.state);
				assert_int_equal(a.power.cpu_id, b.power.cpu_id);
				break;
			}
		}
		assert_int_equal(ret_a, 0);
		assert_int_equal(n, 3724); /* traces/README.md */
		assert_int_equal(trace_reader_stats(ro)->malformed, 0);
		assert_int_equal(trace_reader_stats(ro)->by_type[EV_SWITCH], 399);
		trace_reader_free(rr);
		trace_reader_free(ro);
	}
}

static void test_markers_and_unknown(void **state)
{
	struct got g;
	(void)state;
	read_text("cpus=6\n"
		  "         shutils-3106  [001]  2084.238797: print:                tracing_mark_write: cpu_frequency_devlib:        state=450000 cpu_id=0\n"
		  "         shutils-1703  [001]  2084.238798: print:                0xffff00000819ff24s: cpu_frequency_devlib:        state=950000 cpu_id=5\n"
		  "              sh-1702  [005]  2084.238799: print:                0xffff00000819ff24s: TRACE_MARKER_START\n"
		  "<7952>-7952  (-----) [000] ...1   2084.238800: tracing_mark_write: B|594|acquireBuffer\n"
		  "         rcuos/2-22  [001]  2084.238801: sched_load_avg_sg: cpus=00000002 load=0 utilization=0\n"
		  "         rcuos/2-22  [001]  2084.238802: sched_load_avg_sg: cpus=00000002 load=0 utilization=0\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, EV_FREQ_MARKER);
	assert_int_equal(g.ev[0].power.state, 450000);
	assert_int_equal(g.ev[0].power.cpu_id, 0);
	assert_int_equal(g.ev[1].power.state, 950000);
	assert_int_equal(g.ev[1].power.cpu_id, 5);
	/* markers are counted by kind, never as events named after them */
	assert_int_equal(g.st.nr_unknown, 1);
	assert_string_equal(g.st.unknown[0].name, "sched_load_avg_sg");
	assert_int_equal(g.st.unknown[0].count, 2);
	assert_int_equal(g.st.markers[MARKER_DEVLIB_FREQ], 2);
	assert_int_equal(g.st.markers[MARKER_OTHER], 1);
	assert_int_equal(g.st.markers[MARKER_ATRACE_BEGIN], 1);
	assert_int_equal(g.st.malformed, 0);
}

/* ---- malformed input ------------------------------------------------------------------- */

static const char bad_trace[] =
	"cpus=2\n"
	"  a-1 [000] 1.000001: cpu_idle: state=1 cpu_id=0\n"
	"  garbage line without columns\n"
	"  a-1 [000] 1.000002: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2\n"
	"  a-1 [000] 1.000003: cpu_frequency: state=abc cpu_id=0\n"
	"  a-1 [000] nots: cpu_idle: state=1 cpu_id=0\n"
	"  a-1 [000] 1.000004: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=? ==> next_comm=b next_pid=2 next_prio=120\n"
	"  a-1 [000] 1.000005: cpu_idle: state=2 cpu_id=0\n"
	"  a-1 [000] 1.000006: sched_switch: prev_comm=a prev_pid=1 prev_pri"; /* cut, no newline */

static void test_malformed_counted(void **state)
{
	struct got g;
	const char *path = test_tmpfile(bad_trace, ".txt");
	char want[300];
	(void)state;
	read_all(path, NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.st.malformed, 6);
	assert_int_equal(g.st.lines, 9);
	assert_int_equal(g.st.nr_reported, READER_MAX_REPORTED);
	snprintf(want, sizeof(want), "'%s':3: no 'comm-pid [cpu]' columns", path);
	assert_string_equal(g.st.reported[0], want);
	snprintf(want, sizeof(want), "'%s':4: sched_switch without next_prio", path);
	assert_string_equal(g.st.reported[1], want);
	snprintf(want, sizeof(want), "'%s':5: cpu_frequency: bad state value 'abc'", path);
	assert_string_equal(g.st.reported[2], want);
	snprintf(want, sizeof(want), "'%s':6: no timestamp after the cpu column", path);
	assert_string_equal(g.st.reported[3], want);
	snprintf(want, sizeof(want), "'%s':7: sched_switch: bad prev_state value '?'", path);
	assert_string_equal(g.st.reported[4], want);
}

static void test_malformed_strict(void **state)
{
	struct reader_opts opts = {.strict = true};
	struct got g;
	const char *path = test_tmpfile(bad_trace, ".txt");
	char want[300];
	(void)state;
	read_all(path, &opts, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	snprintf(want, sizeof(want), "'%s':3: no 'comm-pid [cpu]' columns", path);
	assert_string_equal(g.err.msg, want);
}

static void test_truncated_last_line_accepted(void **state)
{
	struct got g;
	(void)state;
	read_text("  a-1 [000] 1.000001: cpu_idle: state=1 cpu_id=0\n"
		  "  a-1 [000] 1.000002: cpu_idle: state=4294967295 cpu_id=0", /* no newline */
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[1].power.state, PWR_EVENT_EXIT);
	assert_int_equal(g.st.malformed, 0);
}

/* The input buffer starts at 64 KiB and grows when a line does not fit (a small input does
 * not map 1 MiB): a 300 000-byte line between two events, the file's only newlines around it. */
static void test_line_longer_than_first_buffer(void **state)
{
	const char *head = "  a-1 [000] 1.000001: cpu_idle: state=1 cpu_id=0\n"
			   "  a-1 [000] 1.000002: tracing_mark_write: ";
	const char *tail = "\n  a-1 [000] 1.000003: cpu_idle: state=4294967295 cpu_id=0\n";
	size_t n = 300000, hl = strlen(head);
	char *text = malloc(hl + n + strlen(tail) + 1);
	struct got g;
	(void)state;

	assert_non_null(text);
	memcpy(text, head, hl);
	memset(text + hl, 'x', n);
	strcpy(text + hl + n, tail);
	read_text(text, NULL, &g);
	free(text);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].power.state, 1);
	assert_int_equal(g.ev[1].power.state, PWR_EVENT_EXIT);
	assert_int_equal(g.st.malformed, 0);
	assert_int_equal(g.st.lines, 3);
}

/* A file of READER_BUF_SIZE bytes or more is read in steps of READER_BUF_LARGE, a smaller one of
 * READER_BUF_INITIAL (a fuzz input maps no more); either way every line is read, those that
 * straddle a buffer's end included. */
static void test_buffer_by_file_size(void **state)
{
	const char *line = "          <idle>-0       [001] d..2     1.000001: cpu_idle: state=1 "
			   "cpu_id=1\n";
	size_t ll = strlen(line), lines[2] = {100, READER_BUF_SIZE / ll + 1};
	const size_t want_cap[2] = {READER_BUF_INITIAL, READER_BUF_LARGE};
	(void)state;

	for (int big = 0; big < 2; big++) {
		char *text = malloc(lines[big] * ll + 1);
		struct trace_reader *r = NULL;
		struct gs_error err;
		const struct event *ev;
		u64 n = 0;
		int ret;

		assert_non_null(text);
		for (size_t i = 0; i < lines[big]; i++)
			memcpy(text + i * ll, line, ll);
		text[lines[big] * ll] = '\0';
		assert_int_equal(trace_reader_open(test_tmpfile(text, ".txt"), NULL, &r, &err), 0);
		free(text);
		assert_int_equal(r->buf_cap, want_cap[big]);
		while ((ret = trace_reader_next_ref(r, &ev, &err)) == 1)
			n++;
		assert_int_equal(ret, 0);
		assert_int_equal(n, lines[big]);
		trace_reader_free(r);
	}
}

static void test_bad_inputs(void **state)
{
	struct got g;
	char path[4096];
	unsigned char bin[256];
	FILE *f;
	int fd;
	(void)state;

	read_text("", NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "empty trace"));

	read_text("\n  \n\n", NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);

	/* only events the reader skips: no usable event */
	read_text("  a-1 [000] 1.000001: foo: x=1\n  a-1 [000] 1.000002: bar: y=2\n", NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "no usable event"));

	read_all("/nonexistent/trace.txt", NULL, &g);
	assert_int_equal(g.ret, GS_EINPUT); /* bad input: exit 3 */

	for (int i = 0; i < 256; i++)
		bin[i] = (unsigned char)(i * 7);
	snprintf(path, sizeof(path), "%s/bin-XXXXXX", test_tmpdir());
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	fwrite(bin, 1, sizeof(bin), f);
	fclose(f);
	read_all(path, NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "binary"));
	unlink(path);
}

/* ---- re-ordering ----------------------------------------------------------------------- */

static void test_reorder_window(void **state)
{
	struct got g;
	(void)state;
	/* 4 is 2 us late (within 10 ms); 5 and 6 share a timestamp and keep file order */
	read_text("  a-1 [000] 1.000010: cpu_idle: state=1 cpu_id=0\n"
		  "  a-1 [001] 1.000030: cpu_idle: state=3 cpu_id=1\n"
		  "  a-1 [000] 1.000040: cpu_idle: state=4 cpu_id=0\n"
		  "  a-1 [001] 1.000020: cpu_idle: state=2 cpu_id=1\n"
		  "  a-1 [000] 1.000050: cpu_idle: state=5 cpu_id=0\n"
		  "  a-1 [001] 1.000050: cpu_idle: state=6 cpu_id=1\n"
		  "  a-1 [001] 1.000015: cpu_idle: state=7 cpu_id=1\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 7);
	{
		static const u32 want[] = {1, 7, 2, 3, 4, 5, 6};
		for (int i = 0; i < 7; i++)
			assert_int_equal(g.ev[i].power.state, want[i]);
	}
	assert_int_equal(g.st.reordered, 2);
	assert_int_equal(g.st.disorder_beyond_window, 0);
	assert_int_equal(g.st.first_ts_ns, 1000010000ull);
	assert_int_equal(g.st.last_ts_ns, 1000050000ull);
}

/* trace_reader_next_ref() hands out the same stream as trace_reader_next(), in place: the
 * ring's events (in order) and the heap's (the late ones, 7 and 2 here), each valid until the
 * next call. The order is the one test_reorder_window() derives by hand. */
static void test_next_ref_in_place(void **state)
{
	static const u32 want[] = {1, 7, 2, 3, 4, 5, 6};
	static const u64 want_line[] = {1, 7, 4, 2, 3, 5, 6};
	const char *path = test_tmpfile("  a-1 [000] 1.000010: cpu_idle: state=1 cpu_id=0\n"
					"  a-1 [001] 1.000030: cpu_idle: state=3 cpu_id=1\n"
					"  a-1 [000] 1.000040: cpu_idle: state=4 cpu_id=0\n"
					"  a-1 [001] 1.000020: cpu_idle: state=2 cpu_id=1\n"
					"  a-1 [000] 1.000050: cpu_idle: state=5 cpu_id=0\n"
					"  a-1 [001] 1.000050: cpu_idle: state=6 cpu_id=1\n"
					"  a-1 [001] 1.000015: cpu_idle: state=7 cpu_id=1\n",
					".txt");
	struct trace_reader *r = NULL;
	struct gs_error err;
	const struct event *ev;
	int n = 0, ret;
	(void)state;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	while ((ret = trace_reader_next_ref(r, &ev, &err)) == 1) {
		assert_true(n < 7);
		assert_int_equal(ev->type, EV_CPU_IDLE);
		assert_int_equal(ev->power.state, want[n]);
		assert_int_equal(ev->line, want_line[n]);
		assert_int_equal(ev->cpu, ev->power.state == 1 || ev->power.state == 4 ||
						  ev->power.state == 5 ? 0 : 1);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 7);
	assert_int_equal(trace_reader_stats(r)->events, 7);
	assert_int_equal(trace_reader_stats(r)->reordered, 2);
	trace_reader_free(r);
}

static void test_reorder_beyond_window(void **state)
{
	struct reader_opts opts = {.reorder_window_ns = 1000}; /* 1 us */
	struct got g;
	(void)state;
	read_text("  a-1 [000] 1.000010: cpu_idle: state=1 cpu_id=0\n"
		  "  a-1 [000] 1.000020: cpu_idle: state=2 cpu_id=0\n"
		  "  a-1 [000] 1.000030: cpu_idle: state=3 cpu_id=0\n"
		  "  a-1 [000] 1.000015: cpu_idle: state=4 cpu_id=0\n" /* 15 us late */
		  "  a-1 [000] 1.000040: cpu_idle: state=5 cpu_id=0\n",
		  &opts, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.st.disorder_beyond_window, 1);
	assert_int_equal(g.st.nr_reported, 1);
	assert_non_null(strstr(g.st.reported[0], ":4: cpu_idle at 1.000015000 is older"));
	/* delivered late, as soon as it was read (before 3, which still waits for its window) */
	assert_int_equal(g.ev[1].power.state, 2);
	assert_int_equal(g.ev[2].power.state, 4);
	assert_int_equal(g.ev[3].power.state, 3);
	assert_int_equal(g.ev[4].power.state, 5);
}

/* The span delivered (first_ts_ns, last_ts_ns) is the earliest and the latest time handed out:
 * events at the time of the one before them leave both as they are, and an event delivered late
 * (beyond the window) that is older than every one delivered becomes the first. */
static void test_delivered_span(void **state)
{
	static const unsigned us[] = {20, 20, 30, 10, 30}; /* 10: older than the first two */
	struct reader_opts opts = {.reorder_window_ns = 1000}; /* 1 us */
	char text[512];
	size_t len = 0;
	struct got g;
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(us); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"  a-1 [000] 1.%06u: cpu_idle: state=%zu cpu_id=0\n", us[i],
					i + 1);
	assert_true(len < sizeof(text));
	read_text(text, &opts, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.st.disorder_beyond_window, 1);
	assert_int_equal(g.ev[2].power.state, 4);
	assert_int_equal(g.st.first_ts_ns, 1000010000ull);
	assert_int_equal(g.st.last_ts_ns, 1000030000ull);
}

static void test_unsorted_real_trace(void **state)
{
	struct got g;
	(void)state;
	read_all(test_path("traces/formats/trace_idle_unsorted.txt"), NULL, &g);
	assert_int_equal(g.ret, 0);
	/* grep: 7 sched_switch (the last cut short) and 8 cpu_idle */
	assert_int_equal(g.st.by_type[EV_SWITCH], 6);
	assert_int_equal(g.st.by_type[EV_CPU_IDLE], 8);
	assert_int_equal(g.st.malformed, 1);
	assert_int_equal(g.st.reordered, 1);
	for (int i = 1; i < g.n; i++)
		assert_true(g.ev[i].ts_ns >= g.ev[i - 1].ts_ns);
	/* numeric prev_state 64 (old TASK_DEAD) and 256 (preempted) */
	assert_int_equal(g.ev[0].sw.prev_state, 64);
	assert_int_equal(g.ev[2].sw.prev_state, TASK_REPORT_MAX);
}

/* ---- ranges ------------------------------------------------------------------------------- */

/* Timestamps past 2^63 ns are malformed lines, never wrapped (18446744073.709551616 s is 2^64
 * ns, which would wrap to 0); 2^63 - 1 ns itself is accepted. */
static void test_timestamp_range(void **state)
{
	struct reader_opts strict = {.strict = true};
	struct got g;
	(void)state;

	read_text("  a-1 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
		  "  a-1 [000] 18446744073.709551616: cpu_idle: state=2 cpu_id=0\n"
		  "  a-1 [000] 9223372036.854775808: cpu_idle: state=3 cpu_id=0\n"
		  "  a-1 [000] 9223372036.854775807: cpu_idle: state=4 cpu_id=0\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.st.malformed, 2);
	assert_non_null(strstr(g.st.reported[0], ":2: timestamp beyond 2^63 ns"));
	assert_non_null(strstr(g.st.reported[1], ":3: timestamp beyond 2^63 ns"));
	assert_int_equal(g.ev[1].power.state, 4);
	assert_true(g.ev[1].ts_ns == 9223372036854775807ull);

	read_text("  a-1 [000] 18446744073.709551616: cpu_idle: state=2 cpu_id=0\n", &strict, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, ":1: timestamp beyond 2^63 ns"));

	read_all(test_tmpfile("time_s,cpu,util\n0.5,0,100\n18446744073.709551616,0,200\n", ".csv"),
		 NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 1);
	assert_non_null(strstr(g.st.reported[0], ":3: bad time_s '18446744073.709551616'"));
}

/* A window as long as u64 allows: ts + window must not wrap into "ready" (events came out in
 * file order and the second was counted as beyond the window). */
static void test_reorder_window_no_wrap(void **state)
{
	struct reader_opts opts = {.reorder_window_ns = UINT64_MAX - 10};
	struct got g;
	(void)state;
	read_text("  a-1 [000] 1.000030: cpu_idle: state=1 cpu_id=0\n"
		  "  a-1 [000] 1.000010: cpu_idle: state=2 cpu_id=0\n",
		  &opts, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].power.state, 2);
	assert_int_equal(g.st.disorder_beyond_window, 0);
	assert_int_equal(g.st.reordered, 1);
}

/* CPU numbers past int32 are bad values (they were printed as CPU -2147483648). */
static void test_cpu_id_range(void **state)
{
	struct got g;
	(void)state;
	read_text("  a-1 [000] 1.000000: cpu_frequency: state=903000 cpu_id=2147483647\n"
		  "  a-1 [000] 1.000001: cpu_frequency: state=903000 cpu_id=2147483648\n"
		  "  a-1 [000] 1.000002: cpu_idle: state=1 cpu_id=4294967295\n"
		  "  a-1 [000] 1.000003: cpu_idle: cpu_id=2147483648 state=1\n",
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.st.malformed, 3);
	assert_non_null(strstr(g.st.reported[0], ":2: cpu_frequency: bad cpu_id value '2147483648'"));
	assert_non_null(strstr(g.st.reported[1], ":3: cpu_idle: bad cpu_id value '4294967295'"));
	assert_non_null(strstr(g.st.reported[2], ":4: cpu_idle: bad cpu_id value '2147483648'"));
}

/* ---- CSV ------------------------------------------------------------------------------- */

static void test_csv_columns(void **state)
{
	struct got g;
	(void)state;
	read_all(test_tmpfile("time_s,cpu,util\n"
			      "0.001,0,100\n"
			      "0.002,1,200\n",
			      ".csv"),
		 NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.format, TRACE_FMT_CSV);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, EV_CSV_UTIL);
	assert_int_equal(g.ev[0].ts_ns, 1000000ull);
	assert_int_equal(g.ev[1].cpu, 1);
	assert_int_equal(g.ev[1].util.cpu, 1);
	assert_int_equal(g.ev[1].util.util, 200);
	assert_true(g.ev[1].util.util_rt == EV_NO_VALUE);
	assert_true(g.ev[1].util.freq_khz == EV_NO_VALUE);
	assert_int_equal(g.ev[1].util.idle_state, EV_IDLE_ABSENT); /* no column */

	/* every optional column, in another order, one empty cell */
	read_all(test_tmpfile("cpu,time_s,util,util_rt,util_dl,util_est,freq_khz,idle_state\n"
			      "3,1.5,10,20,30,40,1800000,1\n"
			      "2,1.25,11,,31,41,903000,-1\n",
			      ".csv"),
		 NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].ts_ns, 1250000000ull); /* sorted */
	assert_true(g.ev[0].util.util_rt == EV_NO_VALUE);
	assert_int_equal(g.ev[0].util.idle_state, -1);
	assert_int_equal(g.ev[1].cpu, 3);
	assert_int_equal(g.ev[1].util.util_rt, 20);
	assert_int_equal(g.ev[1].util.util_dl, 30);
	assert_int_equal(g.ev[1].util.util_est_enqueued, 40);
	assert_int_equal(g.ev[1].util.freq_khz, 1800000);
	assert_int_equal(g.ev[1].util.idle_state, 1);
}

/* Several CPUs in one file: rows interleaved by CPU and equal timestamps on several CPUs
 * are all read, in (time, file) order, and the span starts at the first row. */
static void test_csv_several_cpus(void **state)
{
	struct got g;
	(void)state;
	read_all(test_tmpfile("time_s,cpu,util,freq_khz,idle_state\n"
			      "0.000000,0,300,533000,-1\n"
			      "0.000000,4,800,903000,-1\n"
			      "0.004000,4,810,903000,-1\n"
			      "0.004000,0,310,533000,-1\n"
			      "0.008000,0,320,533000,-1\n"
			      "0.006000,4,820,903000,-1\n"
			      "0.012000,4,830,903000,-1\n",
			      ".csv"),
		 NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 7);
	assert_int_equal(g.st.malformed, 0);
	assert_true(g.st.first_ts_ns == 0);
	assert_true(g.st.last_ts_ns == 12000000ull);
	{
		static const struct { int cpu; unsigned util; u64 ts; } want[] = {
			{0, 300, 0}, {4, 800, 0}, {4, 810, 4000000}, {0, 310, 4000000},
			{4, 820, 6000000}, {0, 320, 8000000}, {4, 830, 12000000},
		};
		for (int i = 0; i < 7; i++) {
			assert_int_equal(g.ev[i].util.cpu, want[i].cpu);
			assert_int_equal(g.ev[i].util.util, want[i].util);
			assert_true(g.ev[i].ts_ns == want[i].ts);
		}
	}
}

/* A CSV saved with a UTF-8 byte order mark (spreadsheets write one): the mark before the header
 * is not part of its first column's name, detected or forced, and every row is read. */
static void test_csv_bom(void **state)
{
	static const char text[] = "\xef\xbb\xbftime_s,cpu,util\n0.5,0,100\n0.6,1,200\n";
	struct reader_opts csv = {.format = TRACE_FMT_CSV};
	struct got g;
	(void)state;
	for (int forced = 0; forced < 2; forced++) {
		read_all(test_tmpfile(text, ".csv"), forced ? &csv : NULL, &g);
		assert_string_equal(g.err.msg, "");
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.st.format, TRACE_FMT_CSV);
		assert_int_equal(g.n, 2);
		assert_int_equal(g.ev[0].util.cpu, 0);
		assert_int_equal(g.ev[0].util.util, 100);
		assert_true(g.ev[0].ts_ns == 500000000ull);
		assert_int_equal(g.ev[1].util.cpu, 1);
		assert_int_equal(g.ev[1].util.util, 200);
		assert_int_equal(g.st.malformed, 0);
	}
}

/* More rows in the first chunk libcsv parses than the ring's first size, read through
 * the reader API: 600 rows of 6 to 8 bytes (about 520 in the first 4 KiB: past twice the ring's
 * 256 slots, a write out of bounds), then of 10 to 12 bytes (about 340: the first rows were
 * overwritten). Every row comes out once, in order, with its own values, and the span starts
 * at the first row. */
static void csv_rows_read_back(bool decimals)
{
	struct trace_reader *r = NULL;
	struct tb text = {0};
	struct gs_error err;
	struct event ev;
	int n = 0, ret;

	tb_printf(&text, "time_s,cpu,util\n");
	for (int i = 0; i < 600; i++)
		tb_printf(&text, "%d%s,0,%d\n", i, decimals ? ".000" : "", i % 10);
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_tmpfile(text.buf, ".csv"), NULL, &r, &err), 0);
	free(text.buf);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
		assert_int_equal(ev.type, EV_CSV_UTIL);
		assert_true(n < 600);
		assert_true(ev.ts_ns == (u64)n * NSEC_PER_SEC);
		assert_int_equal(ev.util.util, n % 10);
		assert_int_equal(ev.line, n + 2);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 600);
	assert_int_equal(trace_reader_stats(r)->by_type[EV_CSV_UTIL], 600);
	assert_true(trace_reader_stats(r)->first_ts_ns == 0);
	assert_true(trace_reader_stats(r)->last_ts_ns == 599 * NSEC_PER_SEC);
	trace_reader_free(r);
}

static void test_csv_many_short_rows(void **state)
{
	(void)state;
	csv_rows_read_back(false);
	csv_rows_read_back(true);
}

/* A huge cell grows libcsv's buffer geometrically: a 4 MB cell would take 32768 reallocs, each
 * a copy, if the buffer grew 128 bytes at a time. log2(4 MB / 128) is 15. */
static void test_csv_huge_cell(void **state)
{
	size_t big = 4u << 20;
	char *text = malloc(big + 64);
	unsigned long before;
	struct got g;
	(void)state;
	assert_non_null(text);
	strcpy(text, "time_s,cpu,util\n0.1,0,");
	memset(text + strlen(text), '7', big);
	strcpy(text + strlen("time_s,cpu,util\n0.1,0,") + big, "\n0.2,0,5\n");
	before = csv_realloc_calls;
	read_all(test_tmpfile(text, ".csv"), NULL, &g);
	free(text);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.st.malformed, 1);
	assert_true(csv_realloc_calls - before < 64);
}

static void test_csv_errors(void **state)
{
	struct reader_opts strict = {.strict = true, .format = TRACE_FMT_CSV};
	struct reader_opts csv = {.format = TRACE_FMT_CSV};
	struct got g;
	const char *rows = "time_s,cpu,util\n"
			   "0.001,0,100\n"
			   "0.002,x,100\n"
			   "0.003,0\n"
			   "0.004,0,100,7\n"
			   "-1,0,100\n"
			   "0.005,1,5\n";
	(void)state;

	read_all(test_tmpfile("time_s,cpu\n0.1,0\n", ".csv"), &csv, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, ":1: csv header without util column"));

	read_all(test_tmpfile("time_s,cpu,util,utl\n0.1,0,1,2\n", ".csv"), &csv, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "unknown column 'utl'"));

	read_all(test_tmpfile(rows, ".csv"), NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.st.malformed, 4);
	assert_non_null(strstr(g.st.reported[0], ":3: bad cpu 'x'"));
	assert_non_null(strstr(g.st.reported[1], ":4: 2 cells, the header has 3 columns"));
	assert_non_null(strstr(g.st.reported[2], ":5: more cells than columns"));
	assert_non_null(strstr(g.st.reported[3], ":6: bad time_s '-1'"));

	read_all(test_tmpfile(rows, ".csv"), &strict, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, ":3: bad cpu 'x'"));
}

/* ---- gzip ------------------------------------------------------------------------------ */

static void test_gzip(void **state)
{
	const char *text = "version = 6\ncpus=2\n"
			   "  a-1 [000] 1.000001: cpu_idle: state=1 cpu_id=0\n"
			   "  a-1 [001] 1.000002: cpu_frequency: state=903000 cpu_id=1\n";
	char path[4096];
	struct got plain, gz;
	gzFile f;
	int fd;
	(void)state;

	snprintf(path, sizeof(path), "%s/gz-XXXXXX", test_tmpdir());
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = gzdopen(fd, "wb");
	assert_non_null(f);
	gzputs(f, text);
	gzclose(f);
	read_all(path, NULL, &gz);
	read_text(text, NULL, &plain);
	unlink(path);
	assert_int_equal(gz.ret, 0);
	assert_true(gz.st.gzip);
	assert_false(plain.st.gzip);
	assert_int_equal(gz.st.format, TRACE_FMT_TRACECMD);
	assert_int_equal(gz.n, 2);
	assert_int_equal(gz.n, plain.n);
	for (int i = 0; i < gz.n; i++) {
		assert_int_equal(gz.ev[i].ts_ns, plain.ev[i].ts_ns);
		assert_int_equal(gz.ev[i].type, plain.ev[i].type);
		assert_int_equal(gz.ev[i].cpu, plain.ev[i].cpu);
		assert_int_equal(gz.ev[i].power.state, plain.ev[i].power.state);
		assert_int_equal(gz.ev[i].power.cpu_id, plain.ev[i].power.cpu_id);
	}
	assert_int_equal(gz.ev[1].power.state, 903000);
}

/* A gzip stream in a temporary file (unlinked by the caller): an event, `pad` bytes of 'x' in
 * lines of 2 MiB (longer than the reader's buffer: skipped whole, as malformed, which keeps the
 * test fast under sanitizers), and another event. */
static void gzip_with_padding(char *path, size_t pad)
{
	static char x[1 << 16];
	gzFile f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	memset(x, 'x', sizeof(x));
	x[sizeof(x) - 1] = '\n';
	f = gzdopen(fd, "wb9");
	assert_non_null(f);
	gzputs(f, "version = 6\ncpus=2\n  a-1 [000] 1.000001: cpu_idle: state=1 cpu_id=0\n");
	for (size_t done = 0; done < pad; done += sizeof(x)) {
		bool nl = (done / sizeof(x)) % 32 == 31;
		assert_true(gzwrite(f, x, nl ? sizeof(x) : sizeof(x) - 1) > 0);
	}
	gzputs(f, "\n  a-1 [001] 1.000002: cpu_frequency: state=903000 cpu_id=1\n");
	assert_int_equal(gzclose(f), Z_OK);
}

/* A decompression bomb: gzip text that inflates beyond READER_INFLATE_RATIO times the file and
 * beyond READER_INFLATE_MIN is refused (exit 3) once that much is read, not read to its end; a
 * stream as compressible but inflating to less than READER_INFLATE_MIN is read whole. Runs of
 * one byte compress about 1000 times, far beyond any trace's ratio. */
static void test_gzip_bomb(void **state)
{
	char path[4096];
	char want[96];
	struct got g;
	(void)state;

	snprintf(path, sizeof(path), "%s", test_tmppath("gz-XXXXXX"));
	gzip_with_padding(path, 8u << 20);
	read_all(path, NULL, &g);
	unlink(path);
	assert_string_equal(g.err.msg, "");
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 2);
	assert_true(g.st.malformed >= 4); /* the 2-MiB lines */

	snprintf(path, sizeof(path), "%s", test_tmppath("gz-XXXXXX"));
	gzip_with_padding(path, READER_INFLATE_MIN + (4u << 20));
	read_all(path, NULL, &g);
	unlink(path);
	assert_int_equal(g.ret, GS_ETRACE);
	snprintf(want, sizeof(want), "': decompresses to more than %llu bytes",
		 (unsigned long long)READER_INFLATE_MIN);
	assert_non_null(strstr(g.err.msg, want));
}

/* ---- trace.dat against its report text ------------------------------------------------- */

static void test_dat_equals_text(void **state)
{
	struct trace_reader *rd = NULL, *rt = NULL;
	struct gs_error err;
	struct event a, b;
	int ra, rb;
	u64 n = 0;
	(void)state;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_path("traces/juno-r0/sched_load/trace.dat"), NULL,
					   &rd, &err), 0);
	assert_int_equal(trace_reader_open(test_path("traces/juno-r0/sched_load/trace.report.txt"),
					   NULL, &rt, &err), 0);
	assert_int_equal(trace_reader_stats(rd)->format, TRACE_FMT_DAT);
	for (;;) {
		ra = trace_reader_next(rd, &a, &err);
		rb = trace_reader_next(rt, &b, &err);
		assert_int_equal(ra, rb);
		if (ra != 1)
			break;
		n++;
		/* the report prints nanoseconds rounded to microseconds */
		assert_int_equal((a.ts_ns + 500) / 1000 * 1000, b.ts_ns);
		assert_int_equal(a.type, b.type);
		assert_int_equal(a.cpu, b.cpu);
		assert_int_equal(a.pid, b.pid);
		switch (a.type) {
		case EV_SWITCH:
			assert_string_equal(a.sw.prev_comm, b.sw.prev_comm);
			assert_string_equal(a.sw.next_comm, b.sw.next_comm);
			assert_int_equal(a.sw.prev_pid, b.sw.prev_pid);
			assert_int_equal(a.sw.next_pid, b.sw.next_pid);
			assert_int_equal(a.sw.prev_prio, b.sw.prev_prio);
			assert_int_equal(a.sw.prev_state, b.sw.prev_state);
			break;
		case EV_LOAD_CFS_RQ:
		case EV_LOAD_SE:
			assert_int_equal(a.util.cpu, b.util.cpu);
			assert_int_equal(a.util.path, b.util.path);
			assert_int_equal(a.util.pid, b.util.pid);
			assert_int_equal(a.util.load, b.util.load);
			assert_int_equal(a.util.util, b.util.util);
			break;
		case EV_WAKEUP:
		case EV_WAKEUP_NEW:
		case EV_WAKING:
			assert_int_equal(a.wake.pid, b.wake.pid);
			assert_int_equal(a.wake.irq, b.wake.irq);
			assert_int_equal(a.wake.resched, b.wake.resched);
			break;
		case EV_MIGRATE:
			assert_string_equal(a.migrate.comm, b.migrate.comm);
			assert_int_equal(a.migrate.pid, b.migrate.pid);
			assert_int_equal(a.migrate.prio, b.migrate.prio);
			assert_int_equal(a.migrate.orig_cpu, b.migrate.orig_cpu);
			assert_int_equal(a.migrate.dest_cpu, b.migrate.dest_cpu);
			break;
		default: /* power.resched: the report layout has no flags column */
			assert_int_equal(a.power.state, b.power.state);
			assert_int_equal(a.power.cpu_id, b.power.cpu_id);
			break;
		}
	}
	assert_int_equal(ra, 0);
	/* traces/README.md hand counts (grep -c) */
	{
		const struct trace_stats *s = trace_reader_stats(rd);
		assert_int_equal(n, 3724);
		assert_int_equal(s->by_type[EV_SWITCH], 399);
		assert_int_equal(s->by_type[EV_CPU_IDLE], 474);
		assert_int_equal(s->by_type[EV_MIGRATE], 28);
		assert_int_equal(s->by_type[EV_CPU_FREQUENCY], 16);
		assert_int_equal(s->by_type[EV_LOAD_CFS_RQ], 2437);
		assert_int_equal(s->by_type[EV_LOAD_SE], 364);
		assert_int_equal(s->by_type[EV_FREQ_MARKER], 6);
		assert_int_equal(s->header_cpus, 6);
	}
	trace_reader_free(rd);
	trace_reader_free(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prev_state_table),
		cmocka_unit_test(test_ftrace_tgid_flags),
		cmocka_unit_test(test_tracecmd_old_numeric),
		cmocka_unit_test(test_tracecmd_new_ns_any_order),
		cmocka_unit_test(test_tracecmd_plugin_layout),
		cmocka_unit_test(test_tracecmd_latency_layout),
		cmocka_unit_test(test_wake_context),
	    cmocka_unit_test(test_migrate_context),
		cmocka_unit_test(test_wake_resched),
		cmocka_unit_test(test_pelt_event_context),
		cmocka_unit_test(test_hook_probe),
		cmocka_unit_test(test_blocked_update_probe),
		cmocka_unit_test(test_idle_calls_probe),
		cmocka_unit_test(test_fast_path_equals_generic),
		cmocka_unit_test(test_kernel_layout_equals_line_path),
		cmocka_unit_test(test_kernel_layout_timestamps),
		cmocka_unit_test(test_kernel_layout_long_runs),
		cmocka_unit_test(test_kernel_layout_pid_column),
		cmocka_unit_test(test_kernel_layout_u32_fields),
		cmocka_unit_test(test_kernel_layout_batches_when_full),
		cmocka_unit_test(test_plugin_and_latency_equal_report),
		cmocka_unit_test(test_markers_and_unknown),
		cmocka_unit_test(test_malformed_counted),
		cmocka_unit_test(test_malformed_strict),
		cmocka_unit_test(test_truncated_last_line_accepted),
		cmocka_unit_test(test_line_longer_than_first_buffer),
		cmocka_unit_test(test_buffer_by_file_size),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_reorder_window),
		cmocka_unit_test(test_next_ref_in_place),
		cmocka_unit_test(test_reorder_beyond_window),
		cmocka_unit_test(test_delivered_span),
		cmocka_unit_test(test_unsorted_real_trace),
		cmocka_unit_test(test_timestamp_range),
		cmocka_unit_test(test_reorder_window_no_wrap),
		cmocka_unit_test(test_cpu_id_range),
		cmocka_unit_test(test_csv_columns),
		cmocka_unit_test(test_csv_several_cpus),
		cmocka_unit_test(test_csv_bom),
		cmocka_unit_test(test_gzip_bomb),
		cmocka_unit_test(test_csv_many_short_rows),
		cmocka_unit_test(test_csv_errors),
		cmocka_unit_test(test_csv_huge_cell),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_dat_equals_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
