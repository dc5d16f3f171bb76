/*
 * test_policy.c - clamp policy files (src/uclamp/policy.c).
 *
 * Checks: every line form parses into the right action and formats back normalised; every
 * parse error gives GS_EPOLICY with its exact "'file':line: why" message (from files and from
 * --action lines) and adds nothing; `at` ordering (no `at` first, then time, ties in order
 * given, across files); the sysctl sequence check in run order; applying actions to a fake
 * scheduler: which tasks match (fnmatch, pid), the dequeue/enqueue calls around setattr and
 * attach, update_active after group changes, the RT-default sync, the static key stamp, a
 * runtime rejection; tasks first seen later.
 * Does not check: the kernel semantics inside uclamp.c (test_uclamp.c), the simulator's use.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "uclamp/policy.h"

static struct policy pol;
static struct gs_error err;

static int setup(void **state)
{
	(void)state;
	policy_init(&pol);
	gs_error_clear(&err);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	policy_release(&pol);
	return 0;
}

static int parse(const char *line)
{
	return policy_parse_line(&pol, line, "p.txt", 7, &err);
}

static const char *fmt(void)
{
	static char buf[4096];
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(policy_format(&pol, &sb), 0);
	assert_int_equal(sb.len, strlen(strbuf_str(&sb)));
	assert_true(sb.len < sizeof(buf));
	strbuf_copy(&sb, buf, sizeof(buf));
	strbuf_free(&sb);
	return buf;
}

/* ---- parsing ------------------------------------------------------------------------------- */

static void test_parse_forms(void **state)
{
	const struct policy_action *a;
	(void)state;

	assert_int_equal(parse("setattr comm=surface* uclamp_min=512"), 0);
	a = &pol.actions[0];
	assert_int_equal(a->op, POLICY_SETATTR);
	assert_false(a->has_at);
	assert_false(a->by_pid);
	assert_string_equal(a->comm_glob, "surface*");
	assert_int_equal(a->uclamp_min, 512);
	assert_int_equal(a->uclamp_max, -1);
	assert_string_equal(a->origin, "p.txt");
	assert_int_equal(a->line, 7);

	assert_int_equal(parse("  at 0.5   setattr pid=594 uclamp_max=0 uclamp_min=0  # note"), 0);
	a = &pol.actions[1];
	assert_true(a->has_at);
	assert_int_equal(a->at_ns, 500000000);
	assert_true(a->at_s == 0.5);
	assert_true(a->by_pid);
	assert_int_equal(a->pid, 594);
	assert_int_equal(a->uclamp_min, 0);
	assert_int_equal(a->uclamp_max, 0);
	assert_string_equal(a->text, "at 0.5 setattr pid=594 uclamp_max=0 uclamp_min=0");

	assert_int_equal(parse("sysctl sched_util_clamp_min 0"), 0);
	assert_int_equal(parse("sysctl sched_util_clamp_max 1024"), 0);
	assert_int_equal(parse("sysctl sched_util_clamp_min_rt_default 128"), 0);
	a = &pol.actions[1];
	assert_int_equal(a->op, POLICY_SYSCTL);
	assert_int_equal(a->sysctl, UCLAMP_SYSCTL_MIN);
	assert_int_equal(a->value, 0);

	assert_int_equal(parse("cgroup /top-app/fg cpu.uclamp.min 12.34"), 0);
	assert_int_equal(parse("cgroup /bg cpu.uclamp.max max"), 0);
	a = &pol.actions[4];
	assert_int_equal(a->op, POLICY_CGROUP);
	assert_string_equal(a->path, "/top-app/fg");
	assert_int_equal(a->clamp_id, UCLAMP_MIN);
	assert_string_equal(a->percent, "12.34");
	assert_int_equal(a->util, 126);
	assert_int_equal(pol.actions[5].util, 1024);

	assert_int_equal(parse("attach comm=kworker/* /bg"), 0);
	assert_int_equal(parse("at 3 attach pid=1 /"), 0);
	a = &pol.actions[6];
	assert_int_equal(a->op, POLICY_ATTACH);
	assert_string_equal(a->comm_glob, "kworker/*");
	assert_string_equal(a->path, "/bg");

	/* blank and comment-only lines add nothing */
	assert_int_equal(parse(""), 0);
	assert_int_equal(parse("   \t\n"), 0);
	assert_int_equal(parse("# setattr nothing"), 0);
	assert_int_equal(pol.n, 9);

	assert_string_equal(fmt(), "setattr comm=surface* uclamp_min=512\n"
				   "sysctl sched_util_clamp_min 0\n"
				   "sysctl sched_util_clamp_max 1024\n"
				   "sysctl sched_util_clamp_min_rt_default 128\n"
				   "cgroup /top-app/fg cpu.uclamp.min 12.34\n"
				   "cgroup /bg cpu.uclamp.max max\n"
				   "attach comm=kworker/* /bg\n"
				   "at 0.5 setattr pid=594 uclamp_min=0 uclamp_max=0\n"
				   "at 3 attach pid=1 /\n");
}

/* The text goes after what the buffer holds, as a whole; one action alone has no newline. */
static void test_format_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(parse("at 1.000000001 sysctl sched_util_clamp_min 5"), 0);
	assert_int_equal(parse("cgroup /bg cpu.uclamp.max max"), 0);
	strbuf_addf(&sb, "policy: ");
	assert_int_equal(policy_format(&pol, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "policy: cgroup /bg cpu.uclamp.max max\n"
					     "at 1.000000001 sysctl sched_util_clamp_min 5\n");
	strbuf_reset(&sb);
	assert_int_equal(policy_action_format(&pol.actions[1], &sb), 0);
	assert_string_equal(strbuf_str(&sb), "at 1.000000001 sysctl sched_util_clamp_min 5");
	strbuf_free(&sb);
}

/* One bad line: the exact message, and nothing added. */
static void expect_error(const char *line, const char *msg)
{
	size_t n = pol.n;

	gs_error_clear(&err);
	assert_int_equal(parse(line), GS_EPOLICY);
	assert_int_equal(err.code, GS_EPOLICY);
	assert_string_equal(err.msg, msg);
	assert_int_equal(pol.n, n);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("frobnicate x",
		     "'p.txt':7: unknown action 'frobnicate' (want setattr, sysctl, cgroup, attach or affinity)");
	expect_error("at", "'p.txt':7: 'at' without a time");
	expect_error("at 1", "'p.txt':7: 'at 1' without an action");
	expect_error("at -1 sysctl sched_util_clamp_min 0",
		     "'p.txt':7: bad time '-1' (want seconds from the trace start, e.g. at 0.5)");
	expect_error("at 1.5s sysctl sched_util_clamp_min 0",
		     "'p.txt':7: bad time '1.5s' (want seconds from the trace start, e.g. at 0.5)");
	expect_error("at 0.0000000001 sysctl sched_util_clamp_min 0",
		     "'p.txt':7: bad time '0.0000000001' (want seconds from the trace start, e.g. "
		     "at 0.5)");

	/* setattr */
	expect_error("setattr uclamp_min=1", "'p.txt':7: setattr without comm=GLOB or pid=N");
	expect_error("setattr comm=a pid=3 uclamp_min=1",
		     "'p.txt':7: more than one task selector ('pid=3')");
	expect_error("setattr comm= uclamp_min=1", "'p.txt':7: empty comm= pattern");
	expect_error("setattr pid=x uclamp_min=1", "'p.txt':7: bad pid 'x'");
	expect_error("setattr pid=-4 uclamp_min=1", "'p.txt':7: bad pid '-4'");
	expect_error("setattr comm=a nice=3", "'p.txt':7: unknown setattr argument 'nice=3'");
	expect_error("setattr comm=a uclamp_min=1 uclamp_min=2",
		     "'p.txt':7: uclamp_min given twice");
	expect_error("setattr comm=a uclamp_min=abc", "'p.txt':7: bad uclamp_min 'abc' (want 0..1024)");
	expect_error("setattr comm=a uclamp_max=-1", "'p.txt':7: bad uclamp_max '-1' (want 0..1024)");
	expect_error("setattr comm=a uclamp_max=1025",
		     "'p.txt':7: uclamp_max 1025 out of range 0..1024");
	expect_error("setattr comm=a uclamp_min=600 uclamp_max=500",
		     "'p.txt':7: uclamp_min 600 > uclamp_max 500");
	expect_error("setattr comm=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
		     "uclamp_min=1",
		     "'p.txt':7: comm= pattern "
		     "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' too long (at "
		     "most 63)");

	/* sysctl */
	expect_error("sysctl sched_util_clamp_min", "'p.txt':7: sysctl needs a name and a value");
	expect_error("sysctl sched_util_clamp_min 1 2", "'p.txt':7: unexpected '2'");
	expect_error("sysctl kernel.sched_util_clamp_min 1",
		     "'p.txt':7: unknown sysctl 'kernel.sched_util_clamp_min' (want "
		     "sched_util_clamp_min, sched_util_clamp_max or sched_util_clamp_min_rt_default)");
	expect_error("sysctl sched_util_clamp_max x",
		     "'p.txt':7: bad sched_util_clamp_max value 'x' (want 0..1024)");
	expect_error("sysctl sched_util_clamp_min_rt_default 2000",
		     "'p.txt':7: sched_util_clamp_min_rt_default 2000 out of range 0..1024");
	/* max 100 alone: the default min is 1024, the kernel rejects it */
	expect_error("sysctl sched_util_clamp_max 100",
		     "'p.txt':7: sched_util_clamp_min 1024 > sched_util_clamp_max 100");

	/* cgroup */
	expect_error("cgroup", "'p.txt':7: cgroup needs a path");
	expect_error("cgroup /a cpu.uclamp.min",
		     "'p.txt':7: cgroup /a cpu.uclamp.min without a value");
	expect_error("cgroup /a cpu.uclamp.min 5 6", "'p.txt':7: unexpected '6'");
	expect_error("cgroup a cpu.uclamp.min 5",
		     "'p.txt':7: bad cgroup path 'a' (want / or /name/..., at most 127 characters)");
	expect_error("cgroup /a/ cpu.uclamp.min 5",
		     "'p.txt':7: bad cgroup path '/a/' (want / or /name/..., at most 127 characters)");
	expect_error("cgroup /a cpu.weight 5",
		     "'p.txt':7: unknown cgroup file 'cpu.weight' (want cpu.uclamp.min or "
		     "cpu.uclamp.max)");
	expect_error("cgroup / cpu.uclamp.max 5",
		     "'p.txt':7: '/': cpu.uclamp.max does not exist on the root cgroup");
	expect_error("cgroup /a cpu.uclamp.max 100.01",
		     "'p.txt':7: '100.01': percent out of range 0..100");
	expect_error("cgroup /a cpu.uclamp.max -5",
		     "'p.txt':7: '-5': not a percent (want 0..100 with up to 2 decimals, or max)");
	expect_error("cgroup /a cpu.uclamp.max 5%",
		     "'p.txt':7: '5%': not a percent (want 0..100 with up to 2 decimals, or max)");

	/* attach */
	expect_error("attach comm=a",
		     "'p.txt':7: attach needs comm=GLOB or pid=N, and a cgroup path");
	expect_error("attach /a comm=a",
		     "'p.txt':7: attach without comm=GLOB or pid=N (got '/a')");
	expect_error("attach comm=a /a x", "'p.txt':7: unexpected 'x'");
	expect_error("attach comm=a top-app",
		     "'p.txt':7: bad cgroup path 'top-app' (want / or /name/..., at most 127 "
		     "characters)");
	assert_int_equal(pol.n, 0);
}

static void test_action_origin(void **state)
{
	(void)state;
	assert_int_equal(policy_parse_line(&pol, "sysctl sched_util_clamp_min 10", "--action", 1,
					   &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "setattr comm=x uclamp_min=900 uclamp_max=100",
					   "--action", 2, &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'--action':2: uclamp_min 900 > uclamp_max 100");
}

static void test_parse_file(void **state)
{
	(void)state;
	assert_int_equal(policy_parse_file(&pol, test_path("tests/fixtures/policies/top-app.txt"),
					   &err),
			 0);
	assert_int_equal(pol.n, 10);
	assert_string_equal(fmt(), "cgroup /top-app cpu.uclamp.min 10\n"
				   "cgroup /top-app cpu.uclamp.max max\n"
				   "cgroup /background cpu.uclamp.max 40.5\n"
				   "attach comm=surfaceflinger /top-app\n"
				   "attach comm=RenderThread /top-app\n"
				   "attach comm=kworker/* /background\n"
				   "setattr comm=surfaceflinger uclamp_min=512\n"
				   "setattr comm=DispSync uclamp_min=256 uclamp_max=1024\n"
				   "at 0.5 sysctl sched_util_clamp_min_rt_default 128\n"
				   "at 1.25 setattr pid=594 uclamp_max=800\n");
	/* 40.5 % = 4050 * 1024 / 10000 = 414.72 -> 415; 10 % = 102.4 -> 102 */
	assert_int_equal(pol.actions[2].util, 415);
	assert_int_equal(pol.actions[0].util, 102);
	assert_int_equal(pol.actions[9].line, 16);
}

static void test_parse_file_errors(void **state)
{
	char msg[1024];
	const char *path;
	(void)state;

	path = test_path("tests/fixtures/policies/bad-setattr.txt");
	assert_int_equal(policy_parse_file(&pol, path, &err), GS_EPOLICY);
	snprintf(msg, sizeof(msg), "'%s':3: uclamp_min 600 > uclamp_max 500", path);
	assert_string_equal(err.msg, msg);

	policy_release(&pol);
	path = test_path("tests/fixtures/policies/bad-sysctl-order.txt");
	assert_int_equal(policy_parse_file(&pol, path, &err), GS_EPOLICY);
	snprintf(msg, sizeof(msg), "'%s':4: sched_util_clamp_min 200 > sched_util_clamp_max 100",
		 path);
	assert_string_equal(err.msg, msg);

	/* within one file the sequence is checked whole: a later line without `at` runs first
	 * and makes room for an earlier `at` line */
	policy_release(&pol);
	path = test_tmpfile("at 1 sysctl sched_util_clamp_max 100\nsysctl sched_util_clamp_min 0\n",
			    ".txt");
	assert_int_equal(policy_parse_file(&pol, path, &err), 0);
	assert_int_equal(pol.n, 2);
	policy_release(&pol);

	assert_int_equal(policy_parse_file(&pol, "/nonexistent/p.txt", &err), GS_EPOLICY);
	assert_string_equal(err.msg, "'/nonexistent/p.txt': cannot open: No such file or directory");

	path = test_tmpfile("# ok\n\nsetattr comm=a uclamp_min=1\nsetattr comm=a uclamp_min=x\n",
			    ".txt");
	policy_release(&pol);
	assert_int_equal(policy_parse_file(&pol, path, &err), GS_EPOLICY);
	snprintf(msg, sizeof(msg), "'%s':4: bad uclamp_min 'x' (want 0..1024)", path);
	assert_string_equal(err.msg, msg);
}

/* attach to a cgroup nothing created is ENOENT in the kernel (writing to a missing
 * cgroup.procs); checked in run order at parse time, reported at the attach's file:line. */
static void test_attach_needs_existing_group(void **state)
{
	char msg[1024];
	const char *path;
	(void)state;

	expect_error("attach comm=a /nope",
		     "'p.txt':7: attach to cgroup '/nope', which does not exist then (ENOENT): "
		     "create it first with 'cgroup /nope' or a cgroup write");
	assert_int_equal(parse("attach pid=1 /"), 0); /* the root always exists */
	/* created by a write, or create-only; parents come with their child (mkdir -p) */
	assert_int_equal(parse("cgroup /a/b cpu.uclamp.min 5"), 0);
	assert_int_equal(parse("attach comm=x /a/b"), 0);
	assert_int_equal(parse("attach comm=x /a"), 0);
	assert_int_equal(parse("cgroup /c"), 0);
	assert_int_equal(parse("attach comm=y /c"), 0);
	assert_string_equal(fmt(), "attach pid=1 /\n"
				   "cgroup /a/b cpu.uclamp.min 5\n"
				   "attach comm=x /a/b\n"
				   "attach comm=x /a\n"
				   "cgroup /c\n"
				   "attach comm=y /c\n");
	/* a group created later in run order does not exist yet at an earlier attach */
	expect_error("attach comm=y /d", "'p.txt':7: attach to cgroup '/d', which does not exist "
					 "then (ENOENT): create it first with 'cgroup /d' or a "
					 "cgroup write");
	policy_release(&pol);
	path = test_tmpfile("at 1 attach comm=a /late\nat 2 cgroup /late\n", ".txt");
	assert_int_equal(policy_parse_file(&pol, path, &err), GS_EPOLICY);
	snprintf(msg, sizeof(msg), "'%s':1: attach to cgroup '/late', which does not exist then "
		 "(ENOENT): create it first with 'cgroup /late' or a cgroup write", path);
	assert_string_equal(err.msg, msg);
	/* ... but a line without `at` runs before every timed one, wherever it is in the file */
	policy_release(&pol);
	path = test_tmpfile("at 1 attach comm=a /early\ncgroup /early\n", ".txt");
	assert_int_equal(policy_parse_file(&pol, path, &err), 0);
	assert_int_equal(pol.n, 2);
}

static void test_at_ordering(void **state)
{
	(void)state;
	assert_int_equal(policy_parse_line(&pol, "at 2 setattr comm=a uclamp_min=2", "f1", 1, &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "at 1 setattr comm=a uclamp_min=1", "f1", 2, &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "setattr comm=a uclamp_min=10", "f1", 3, &err), 0);
	assert_int_equal(policy_parse_line(&pol, "at 1.0 setattr comm=b uclamp_min=11", "f1", 4,
					   &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "at 0 setattr comm=c uclamp_min=0", "f2", 1, &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "setattr comm=c uclamp_min=20", "f2", 2, &err), 0);
	/* no `at` first (in order given), then by time, ties in order given */
	assert_string_equal(fmt(), "setattr comm=a uclamp_min=10\n"
				   "setattr comm=c uclamp_min=20\n"
				   "at 0 setattr comm=c uclamp_min=0\n"
				   "at 1 setattr comm=a uclamp_min=1\n"
				   "at 1 setattr comm=b uclamp_min=11\n"
				   "at 2 setattr comm=a uclamp_min=2\n");
	assert_int_equal(policy_action_time_ns(&pol.actions[0]), 0);
	assert_int_equal(policy_action_time_ns(&pol.actions[5]), 2000000000);
}

static void test_sysctl_sequence_in_run_order(void **state)
{
	(void)state;
	/* file order min 200 then max 300 then min 0; run order puts max 300 before min 0 */
	assert_int_equal(policy_parse_line(&pol, "at 2 sysctl sched_util_clamp_min 200", "f", 1,
					   &err),
			 0);
	assert_int_equal(policy_parse_line(&pol, "at 3 sysctl sched_util_clamp_min 0", "f", 2, &err),
			 0);
	/* run order: min 200 (t2), max 300 (t2.5), min 0 (t3): fine */
	assert_int_equal(policy_parse_line(&pol, "at 2.5 sysctl sched_util_clamp_max 300", "f", 3,
					   &err),
			 0);
	/* max 100 at t1 would run while min is 1024: this line is the bad one */
	assert_int_equal(policy_parse_line(&pol, "at 1 sysctl sched_util_clamp_max 100", "g", 9,
					   &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'g':9: sched_util_clamp_min 1024 > sched_util_clamp_max 100");
	/* max 150 at t2.7 is fine alone but makes nothing wrong: min 200 > 150 -> this line */
	assert_int_equal(policy_parse_line(&pol, "at 2.7 sysctl sched_util_clamp_max 150", "g", 10,
					   &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'g':10: sched_util_clamp_min 200 > sched_util_clamp_max 150");
	/* a new earlier write can make a later line the offending one: min 500 before max 300 */
	assert_int_equal(policy_parse_line(&pol, "at 2.6 sysctl sched_util_clamp_min 500", "g", 11,
					   &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'g':11: sched_util_clamp_min 500 > sched_util_clamp_max 300");
	assert_int_equal(policy_parse_line(&pol, "at 2.1 sysctl sched_util_clamp_min 500", "g", 12,
					   &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'f':3: sched_util_clamp_min 500 > sched_util_clamp_max 300");
	assert_int_equal(pol.n, 3);
}

static void test_too_many_groups(void **state)
{
	char line[64];
	(void)state;
	for (int i = 1; i < UCLAMP_MAX_GROUPS; i++) {
		snprintf(line, sizeof(line), "cgroup /g%d", i);
		assert_int_equal(policy_parse_line(&pol, line, "f", i, &err), 0);
	}
	assert_int_equal(policy_parse_line(&pol, "attach pid=1 /g1", "f", 70, &err), 0);
	assert_int_equal(policy_parse_line(&pol, "cgroup /g1", "f", 70, &err), 0); /* exists */
	assert_int_equal(policy_parse_line(&pol, "cgroup /x cpu.uclamp.min 1", "f", 71, &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "'f':71: too many cgroups (at most 64, with the root)");
	assert_int_equal(policy_parse_line(&pol, "cgroup /y", "f", 72, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "'f':72: too many cgroups (at most 64, with the root)");
}

/* ---- applying ------------------------------------------------------------------------------ */

struct fake_task {
	s32 pid;
	const char *comm;
	bool queued;
	struct uclamp_task uc;
};

struct fake {
	struct uclamp_sys *sys;
	struct uclamp_rq_pair rq;
	struct fake_task t[4];
	int n;
	char log[1024];
};

static struct fake_task *fake_find(struct fake *f, s32 pid)
{
	for (int i = 0; i < f->n; i++)
		if (f->t[i].pid == pid)
			return &f->t[i];
	return NULL;
}

static void fake_log(struct fake *f, const char *what, s32 pid)
{
	size_t len = strlen(f->log);
	snprintf(f->log + len, sizeof(f->log) - len, "%s%s%d", len ? " " : "", what, (int)pid);
}

static void fake_for_each(void *ctx,
			  void (*fn)(void *arg, struct uclamp_task *uc, s32 pid, const char *comm),
			  void *arg)
{
	struct fake *f = ctx;
	for (int i = 0; i < f->n; i++)
		fn(arg, &f->t[i].uc, f->t[i].pid, f->t[i].comm);
}

static void fake_requeue(void *ctx, s32 pid, int phase)
{
	struct fake *f = ctx;
	struct fake_task *t = fake_find(f, pid);

	if (!t->queued)
		return;
	fake_log(f, phase ? "enq" : "deq", pid);
	if (phase)
		uclamp_rq_inc(f->sys, &f->rq, &t->uc);
	else
		uclamp_rq_dec(f->sys, &f->rq, &t->uc);
}

static void fake_update_active(void *ctx, s32 pid, unsigned int mask)
{
	struct fake *f = ctx;
	struct fake_task *t = fake_find(f, pid);

	fake_log(f, mask == 1 ? "upd-min" : mask == 2 ? "upd-max" : "upd-both", pid);
	for (int id = 0; id < UCLAMP_CNT; id++)
		if (mask & (1U << id))
			uclamp_update_active(f->sys, &f->rq, &t->uc, id);
}

static struct uclamp_sys usys;
static struct fake fk;
static const struct policy_ops fake_ops = {&fk, fake_for_each, fake_requeue, fake_update_active};

static void fake_init(void)
{
	static const struct {
		s32 pid;
		const char *comm;
		bool rt, queued;
	} tasks[] = {
		{100, "surfaceflinger", false, true},
		{101, "RenderThread", false, false},
		{102, "kworker/u16:1", false, true},
		{103, "irq/77-rt", true, true},
	};

	uclamp_sys_init(&usys, 5);
	memset(&fk, 0, sizeof(fk));
	fk.sys = &usys;
	uclamp_rq_init(&fk.rq);
	fk.n = (int)GS_ARRAY_SIZE(tasks);
	for (int i = 0; i < fk.n; i++) {
		fk.t[i].pid = tasks[i].pid;
		fk.t[i].comm = tasks[i].comm;
		fk.t[i].queued = tasks[i].queued;
		uclamp_task_init(&usys, &fk.t[i].uc, tasks[i].rt);
		if (tasks[i].queued)
			uclamp_rq_inc(&usys, &fk.rq, &fk.t[i].uc); /* key off: skipped */
	}
}

static int apply_all(u64 now_ns)
{
	for (size_t i = 0; i < pol.n; i++) {
		int rc = policy_apply(&usys, &pol.actions[i], now_ns, &fake_ops, NULL, &err);
		if (rc)
			return rc;
	}
	return 0;
}

static void test_match(void **state)
{
	(void)state;
	assert_int_equal(parse("setattr comm=kworker/* uclamp_min=1"), 0);
	assert_int_equal(parse("setattr pid=7 uclamp_min=1"), 0);
	assert_int_equal(parse("sysctl sched_util_clamp_min 3"), 0);
	assert_true(policy_match(&pol.actions[0], 1, "kworker/u16:1"));
	assert_false(policy_match(&pol.actions[0], 1, "kworke"));
	assert_false(policy_match(&pol.actions[0], 1, NULL));
	assert_true(policy_match(&pol.actions[1], 7, "x"));
	assert_false(policy_match(&pol.actions[1], 8, "x"));
	assert_false(policy_match(&pol.actions[2], 7, "x")); /* not a task action */
}

static void test_apply_setattr(void **state)
{
	(void)state;
	fake_init();
	assert_int_equal(parse("setattr comm=*Thread uclamp_max=300"), 0);
	assert_int_equal(parse("setattr comm=surfaceflinger uclamp_min=512"), 0);
	assert_false(usys.key);
	assert_int_equal(apply_all(1234), 0);

	/* only matching tasks; queued ones dequeued and enqueued around the change */
	assert_string_equal(fk.log, "deq100 enq100");
	assert_int_equal(fk.t[1].uc.req[UCLAMP_MAX].value, 300);
	assert_true(fk.t[1].uc.req[UCLAMP_MAX].user_defined);
	assert_int_equal(fk.t[0].uc.req[UCLAMP_MIN].value, 512);
	assert_int_equal(fk.t[2].uc.req[UCLAMP_MIN].value, 0);
	assert_true(usys.stats.key_on);
	assert_int_equal(usys.stats.key_on_at_ns, 1234);
	/* key flipped before the dequeue (uclamp_validate first): the dequeue of a task enqueued
	 * while off is a quiet counted op, the enqueue refcounts it */
	assert_int_equal(usys.stats.agg_skipped, 3);
	assert_int_equal(usys.stats.agg_ops, 2);
	assert_int_equal(fk.rq.uc[UCLAMP_MIN].value, 512);
	assert_int_equal(fk.rq.uc[UCLAMP_MIN].bucket[2].tasks, 1);
}

/* v5.9 sched_setattr(): a pid that does not exist is -ESRCH from find_process_by_pid() before
 * __sched_setscheduler() and uclamp_validate(); a comm nothing matches makes no call. Neither
 * turns the static key on. */
static void test_apply_setattr_no_task_yet(void **state)
{
	struct policy_action_stats st[2];
	(void)state;
	fake_init();
	memset(st, 0, sizeof(st));
	assert_int_equal(parse("at 3 setattr comm=nobody uclamp_min=5"), 0);
	assert_int_equal(parse("at 3 setattr pid=4242 uclamp_max=5"), 0);
	for (size_t i = 0; i < pol.n; i++)
		assert_int_equal(policy_apply(&usys, &pol.actions[i], 99, &fake_ops, &st[i], &err),
				 0);
	assert_false(usys.stats.key_on);
	assert_false(usys.key);
	assert_string_equal(fk.log, "");
	assert_true(st[0].ran);
	assert_int_equal(st[0].matched, 0);
	assert_true(st[1].ran);
	assert_int_equal(st[1].matched, 0);
}

/* A setattr rejected by uclamp_validate() for every task it matches never reaches
 * static_branch_enable(): an RT task's default min 1024 with uclamp_max=512 alone. */
static void test_apply_setattr_rejected_everywhere(void **state)
{
	struct policy_action_stats st = {0};
	(void)state;
	fake_init();
	assert_int_equal(parse("setattr comm=irq/* uclamp_max=512"), 0);
	assert_int_equal(policy_apply(&usys, &pol.actions[0], 5, &fake_ops, &st, &err), GS_EPOLICY);
	assert_false(usys.stats.key_on);
	assert_int_equal(st.matched, 1);
	assert_int_equal(st.rejected, 1);
	assert_string_equal(fk.log, "");
}

/* sched_setattr() without SCHED_FLAG_UTIL_CLAMP: valid, uclamp_validate() is not called, the
 * key stays off and no request changes; the tasks are still counted as matched. */
static void test_apply_setattr_without_clamp(void **state)
{
	struct policy_action_stats st = {0};
	(void)state;
	fake_init();
	assert_int_equal(parse("setattr comm=* "), 0);
	assert_int_equal(pol.actions[0].uclamp_min, -1);
	assert_int_equal(pol.actions[0].uclamp_max, -1);
	assert_int_equal(policy_apply(&usys, &pol.actions[0], 5, &fake_ops, &st, &err), 0);
	assert_false(usys.stats.key_on);
	assert_int_equal(st.matched, 4);
	assert_int_equal(st.rejected, 0);
	assert_string_equal(fk.log, "");
	assert_int_equal(fk.t[3].uc.req[UCLAMP_MIN].value, 1024);
	assert_false(fk.t[0].uc.req[UCLAMP_MIN].user_defined);
}

/* A task first seen later gets the call at the time it is seen: checked against its own
 * request, and only a success turns the key on, stamped with that time. */
static void test_apply_new_task_key(void **state)
{
	struct uclamp_task uc;
	struct policy_action_stats st[1];
	(void)state;
	uclamp_sys_init(&usys, 5);
	memset(st, 0, sizeof(st));
	assert_int_equal(parse("setattr comm=late* uclamp_max=512"), 0);
	assert_int_equal(policy_apply(&usys, &pol.actions[0], 100, NULL, &st[0], &err), 0);
	assert_false(usys.stats.key_on);

	/* an RT task (min 1024): -EINVAL, key stays off */
	uclamp_task_init(&usys, &uc, true);
	policy_apply_new_task(&usys, &pol, 400, 1400, &uc, 7, "late-rt", st);
	assert_false(usys.stats.key_on);
	assert_int_equal(uc.req[UCLAMP_MAX].value, 1024);
	assert_int_equal(st[0].matched_later, 1);
	assert_int_equal(st[0].rejected, 1);

	/* a CFS task: applied, key on at the time it was seen (1900, the caller's clock) */
	uclamp_task_init(&usys, &uc, false);
	policy_apply_new_task(&usys, &pol, 900, 1900, &uc, 8, "late-cfs", st);
	assert_true(usys.stats.key_on);
	assert_int_equal(usys.stats.key_on_at_ns, 1900);
	assert_int_equal(uc.req[UCLAMP_MAX].value, 512);
	assert_int_equal(st[0].matched_later, 2);
	assert_int_equal(st[0].rejected, 1);
}

static void test_apply_setattr_rejected(void **state)
{
	(void)state;
	fake_init();
	/* the RT task's default min is 1024: max 512 alone is -EINVAL for it only */
	assert_int_equal(parse("setattr comm=* uclamp_max=512"), 0);
	assert_int_equal(apply_all(5), GS_EPOLICY);
	assert_string_equal(err.msg, "'p.txt':7: setattr rejected for 1 of 4 tasks, first pid 103 "
				     "(irq/77-rt): uclamp_min 1024 > uclamp_max 512");
	assert_int_equal(fk.t[3].uc.req[UCLAMP_MAX].value, 1024);
	assert_int_equal(fk.t[0].uc.req[UCLAMP_MAX].value, 512);
	assert_int_equal(usys.stats.setattr_rejected, 1);
	assert_string_equal(fk.log, "deq100 enq100 deq102 enq102");
}

static void test_apply_attach_and_cgroup(void **state)
{
	(void)state;
	fake_init();
	assert_int_equal(parse("cgroup /bg"), 0); /* mkdir only: no write */
	assert_int_equal(parse("attach comm=kworker/* /bg"), 0);
	assert_int_equal(parse("at 1 attach comm=kworker/* /bg"), 0); /* already there: no-op */
	assert_int_equal(parse("at 2 cgroup /bg cpu.uclamp.max 25"), 0);
	assert_int_equal(parse("at 3 cgroup /other cpu.uclamp.max 25"), 0);
	assert_string_equal(pol.actions[0].text, "cgroup /bg");
	assert_true(pol.actions[0].create_only);

	assert_int_equal(policy_apply(&usys, &pol.actions[0], 5, &fake_ops, NULL, &err), 0);
	int bg = uclamp_group_find(&usys, "/bg");
	assert_int_equal(bg, 1);
	assert_false(usys.key); /* creating a group is not a use of uclamp */
	assert_string_equal(fk.log, "");
	assert_int_equal(policy_apply(&usys, &pol.actions[1], 10, &fake_ops, NULL, &err), 0);
	assert_string_equal(fk.log, "deq102 enq102");
	assert_int_equal(uclamp_group_find(&usys, "/bg"), bg);
	assert_int_equal(fk.t[2].uc.group, bg);
	assert_false(usys.key); /* attach is not a use of uclamp */
	assert_int_equal(policy_apply(&usys, &pol.actions[2], 11, &fake_ops, NULL, &err), 0);
	assert_string_equal(fk.log, "deq102 enq102");

	/* the cgroup write turns the key on and re-accounts the tasks of the changed group */
	assert_int_equal(policy_apply(&usys, &pol.actions[3], 20, &fake_ops, NULL, &err), 0);
	assert_true(usys.key);
	assert_int_equal(usys.stats.key_on_at_ns, 20);
	assert_string_equal(fk.log, "deq102 enq102 upd-max102");
	assert_int_equal(usys.groups[bg].eff[UCLAMP_MAX].value, 256);
	/* the task was enqueued while the key was off: not refcounted, nothing to move yet */
	assert_false(fk.t[2].uc.eff[UCLAMP_MAX].active);
	assert_int_equal(uclamp_eff_value(&usys, &fk.t[2].uc, UCLAMP_MAX), 256);
	/* a write to another group touches no task of /bg */
	assert_int_equal(policy_apply(&usys, &pol.actions[4], 30, &fake_ops, NULL, &err), 0);
	assert_string_equal(fk.log, "deq102 enq102 upd-max102");
}

static void test_apply_sysctl(void **state)
{
	(void)state;
	fake_init();
	assert_int_equal(parse("sysctl sched_util_clamp_min_rt_default 128"), 0);
	assert_int_equal(parse("at 1 sysctl sched_util_clamp_min 100"), 0);
	assert_int_equal(policy_apply(&usys, &pol.actions[0], 7, &fake_ops, NULL, &err), 0);
	/* RT default: requests rewritten, no requeue (as the kernel) */
	assert_int_equal(fk.t[3].uc.req[UCLAMP_MIN].value, 128);
	assert_int_equal(fk.t[0].uc.req[UCLAMP_MIN].value, 0);
	assert_string_equal(fk.log, "");
	assert_int_equal(usys.stats.key_on_at_ns, 7);
	/* min/max: the root group's tasks are re-accounted (uclamp_update_root_tg) */
	assert_int_equal(policy_apply(&usys, &pol.actions[1], 8, &fake_ops, NULL, &err), 0);
	assert_string_equal(fk.log, "upd-min100 upd-min101 upd-min102 upd-min103");
	assert_int_equal(uclamp_eff_value(&usys, &fk.t[3].uc, UCLAMP_MIN), 100);
}

static void test_apply_new_task(void **state)
{
	struct uclamp_task uc;
	(void)state;
	uclamp_sys_init(&usys, 5);
	assert_int_equal(parse("cgroup /top-app"), 0);
	assert_int_equal(parse("attach comm=Render* /top-app"), 0);
	assert_int_equal(parse("at 1 setattr comm=RenderThread uclamp_min=100"), 0);
	assert_int_equal(parse("at 2 setattr comm=RenderThread uclamp_min=200"), 0);
	assert_int_equal(parse("at 2 setattr pid=5 uclamp_max=10"), 0);
	/* the simulator applies the actions in force first */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(policy_apply(&usys, &pol.actions[i], 1000000000, NULL, NULL, &err), 0);

	uclamp_task_init(&usys, &uc, false);
	policy_apply_new_task(&usys, &pol, 1500000000, 1500000000, &uc, 5, "RenderThread", NULL);
	assert_int_equal(uc.group, uclamp_group_find(&usys, "/top-app"));
	assert_int_equal(uc.req[UCLAMP_MIN].value, 100); /* the t=2 ones are not in force yet */
	assert_int_equal(uc.req[UCLAMP_MAX].value, 1024);

	uclamp_task_init(&usys, &uc, false);
	policy_apply_new_task(&usys, &pol, 2000000000, 2000000000, &uc, 5, "RenderThread", NULL);
	assert_int_equal(uc.req[UCLAMP_MIN].value, 200);
	/* pid 5's max 10 < its min 200: rejected by the kernel, counted */
	assert_int_equal(uc.req[UCLAMP_MAX].value, 1024);
	assert_int_equal(usys.stats.setattr_rejected, 1);

	uclamp_task_init(&usys, &uc, false);
	policy_apply_new_task(&usys, &pol, 2000000000, 2000000000, &uc, 6, "other", NULL);
	assert_int_equal(uc.group, 0);
	assert_int_equal(uc.req[UCLAMP_MIN].value, 0);
}

/* affinity: CPU lists parse to masks (0-3,6 = 0x0f | 0x40), format back, the last matching
 * line run by the time wins; bad lists are errors. */
static void test_affinity(void **state)
{
	(void)state;
	assert_int_equal(parse("affinity comm=light 0-3,6"), 0);
	assert_int_equal(pol.actions[0].op, POLICY_AFFINITY);
	assert_int_equal(pol.actions[0].cpus, 0x4f);
	assert_int_equal(parse("at 1 affinity pid=7 5"), 0);
	assert_int_equal(pol.actions[1].cpus, 0x20);
	assert_string_equal(fmt(), "affinity comm=light 0-3,6\nat 1 affinity pid=7 5\n");
	assert_int_equal(policy_affinity(&pol, 0, 7, "light"), 0x4f);
	assert_int_equal(policy_affinity(&pol, 999999999, 7, "light"), 0x4f);
	assert_int_equal(policy_affinity(&pol, 1000000000, 7, "light"), 0x20);
	assert_int_equal(policy_affinity(&pol, 1000000000, 8, "heavy"), 0);
	assert_int_not_equal(parse("affinity comm=x 3-1"), 0);
	assert_int_not_equal(parse("affinity comm=x 64"), 0);
	assert_int_not_equal(parse("affinity comm=x"), 0);
	assert_int_not_equal(parse("affinity 0-3 comm=x"), 0);
	assert_int_equal(pol.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_format_appends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_action_origin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_file_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attach_needs_existing_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_at_ordering, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl_sequence_in_run_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_many_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_setattr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_setattr_no_task_yet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_setattr_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_setattr_rejected_everywhere, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_apply_setattr_without_clamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_new_task_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_attach_and_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_sysctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_new_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_affinity, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
