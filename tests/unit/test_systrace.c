/*
 * test_systrace.c - Android systrace HTML and Chrome JSON (src/trace/text/systrace.c).
 *
 * Checks: detection from content; only trace-data blocks of ftrace text are read (JSON blocks,
 * the page's scripts and text outside blocks are not); the header names the block; line numbers
 * are the file's; the JSON string's escapes (\n, \t, \", \\, \/, \u0041) decode to the text the
 * fields were written with; an unterminated string is bad input; atrace markers are counted by
 * kind, never as events.
 * Does not check: whole real traces (tests/golden/systrace.sh).
 */
#include "testutil.h"

#include <string.h>

#include "trace/reader.h"

#define SW0 "          <idle>-0     [000] d..2   100.000000: sched_switch: prev_comm=swapper/0 " \
	    "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
#define SW1 "               a-10    [000] d..2   100.001000: sched_switch: prev_comm=a " \
	    "prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"

struct got {
	int n;
	struct event ev[8];
	struct trace_stats st;
	int ret;
	struct gs_error err;
};

static void read_text(const char *text, const char *suffix, struct got *g)
{
	struct trace_reader *r = NULL;
	struct event ev;

	memset(g, 0, sizeof(*g));
	gs_error_clear(&g->err);
	g->ret = trace_reader_open(test_tmpfile(text, suffix), NULL, &r, &g->err);
	if (g->ret < 0)
		return;
	while ((g->ret = trace_reader_next(r, &ev, &g->err)) == 1)
		if (g->n < 8)
			g->ev[g->n++] = ev;
	g->st = *trace_reader_stats(r);
	trace_reader_free(r);
}

static void test_html_blocks(void **state)
{
	struct got g;

	(void)state;
	read_text("<!DOCTYPE html>\n<html>\n<script>var x = 1;</script>\n"
		  "<!-- BEGIN TRACE -->\n"
		  "  <script class=\"trace-data\" type=\"application/text\">\n"
		  "{\"sched_switch\": \"not ftrace\"}\n"
		  "  </script>\n"
		  "  <script class=\"trace-data\" type=\"application/text\">\n"
		  "# tracer: nop\n" SW0
		  "           a-10    [000] ...1   100.000500: tracing_mark_write: B|10|frame\n"
		  "           a-10    [000] ...1   100.000600: tracing_mark_write: E|10\n"
		  "           a-10    [000] ...1   100.000700: 0: C|10|queued|2\n"
		  SW1 "  </script>\n"
		  "<p>" SW0 "</p>\n</html>\n",
		  ".html", &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.format, TRACE_FMT_SYSTRACE);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.ev[0].type, EV_SWITCH);
	assert_int_equal(g.ev[0].line, 10); /* the file's line */
	assert_int_equal(g.ev[1].sw.prev_state, 1);
	assert_int_equal(g.st.markers[MARKER_ATRACE_BEGIN], 1);
	assert_int_equal(g.st.markers[MARKER_ATRACE_END], 1);
	assert_int_equal(g.st.markers[MARKER_ATRACE_COUNTER], 1); /* "0:", an unresolved ip */
	assert_int_equal(g.st.nr_unknown, 0); /* never an event called "0" */
	assert_int_equal(g.st.malformed, 0);
	assert_non_null(strstr(g.st.header, "trace-data block 2"));
}

static void test_json(void **state)
{
	struct got g;

	(void)state;
	read_text("{\"traceEvents\": [{\"name\": \"x\"}],\n \"systemTraceEvents\": \""
		  "# tracer: nop\\n"
		  "          <idle>-0     [000] d..2   100.000000: sched_switch: prev_comm=swapper\\/0 "
		  "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=\\u0041b\\\"c next_pid=10 "
		  "next_prio=120\\n"
		  "\\t   a-10    [000] ...1   100.000500: tracing_mark_write: C|10|fps|60\"}\n",
		  ".json", &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.format, TRACE_FMT_SYSTRACE);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.ev[0].sw.prev_comm, "swapper/0");
	assert_string_equal(g.ev[0].sw.next_comm, "Ab\"c");
	assert_int_equal(g.ev[0].line, 2); /* lines of the string */
	assert_int_equal(g.st.markers[MARKER_ATRACE_COUNTER], 1);

	read_text("{\"systemTraceEvents\": \"# tracer: nop\\n" , ".json", &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "not terminated"));
}

static void test_not_systrace(void **state)
{
	struct got g;

	(void)state;
	/* JSON without systemTraceEvents, HTML-looking text later in a file: not systrace */
	read_text("{\"traceEvents\": []}\n", ".json", &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_int_not_equal(g.st.format, TRACE_FMT_SYSTRACE);
	read_text("# tracer: nop\n" SW0 "<html>\n", ".txt", &g);
	assert_int_equal(g.st.format, TRACE_FMT_FTRACE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_blocks),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_not_systrace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
