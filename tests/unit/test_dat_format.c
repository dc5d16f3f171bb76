/*
 * test_dat_format.c - dat_format_check(): the event format pre-check that keeps libtraceevent
 * (1.7) from its NULL write in process_entry() (every REC->name must be a field of its event).
 * The formats are the kernel's, as tracefs prints them (sched_switch of v5.9, a __data_loc
 * string field of cpu_idle's kind), and the two found by fuzzing, reduced.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "trace/dat/dat_priv.h"

#define COMMON                                                                                    \
	"format:\n"                                                                               \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                    \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                    \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"            \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define SWITCH_FIELDS                                                                             \
	"name: sched_switch\nID: 95\n" COMMON                                                     \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                           \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"                               \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"                                \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"                              \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"                          \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"                               \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"

static char why[256];

static int check(const char *text, const char *sys)
{
	why[0] = '\0';
	return dat_format_check(text, strlen(text), sys, why, sizeof(why));
}

static void test_kernel_formats_pass(void **state)
{
	(void)state;
	assert_int_equal(check(SWITCH_FIELDS
			       "print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s%s ==> next_comm=%s "
			       "next_pid=%d\", REC->prev_comm, REC->prev_pid, REC->prev_state & "
			       "(4096-1) ? __print_flags(REC->prev_state & (4096-1), \"|\", { 1, \"S\"} , "
			       "{ 2, \"D\" }) : \"R\", REC->prev_state & 4096 ? \"+\" : \"\", "
			       "REC->next_comm, REC->next_pid\n",
			       "sched"),
			 0);
	/* a __data_loc string (the name is after the []), a common field, spaces around -> */
	assert_int_equal(check("name: cpu_idle_miss\nID: 7\n" COMMON
			       "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:u32 state;\toffset:12;\tsize:4;\tsigned:0;\n\n"
			       "print fmt: \"%s %u %d\", __get_str(name), __print_symbolic(REC -> state, "
			       "{ 0, \"x\" }), REC->common_pid\n",
			       "power"),
			 0);
	/* REC-> inside a string or character literal is text, not a field reference */
	assert_int_equal(check(SWITCH_FIELDS "print fmt: \"REC->nope \\\" REC->nope2\", 'R', "
					     "REC->next_pid\n",
			       "sched"),
			 0);
	/* a format without a print fmt is left to libtraceevent (it reports it) */
	assert_int_equal(check("name: x\nID: 1\n" COMMON, "sched"), 0);
}

/* A field line whose array suffix is not closed, or with a byte that is not printable ASCII
 * (the fuzzer's `char[\xa3 path;`), is refused; the kernel's own arrays and __data_loc pass. */
static void test_field_line_rejected(void **state)
{
	(void)state;
	assert_int_equal(check("name: e\nID: 1\n" COMMON
			       "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
			       "\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n\n"
			       "print fmt: \"%s\", __get_str(name)\n",
			       "s"),
			 0);
	assert_int_equal(check("name: e\nID: 1\n" COMMON
			       "\tfield:__data_loc char[\xa3 path;\toffset:8;\tsize:4;\tsigned:0;\n\n"
			       "print fmt: \"x\"\n",
			       "s"),
			 -1);
	assert_non_null(strstr(why, "event s/e: a field line"));
	assert_non_null(strstr(why, "char[? path;"));
	assert_int_equal(check("name: e\nID: 1\n" COMMON
			       "\tfield:char comm[16;\toffset:8;\tsize:16;\tsigned:0;\n\n"
			       "print fmt: \"x\"\n",
			       "s"),
			 -1);
	assert_int_equal(check("name: e\nID: 1\n" COMMON
			       "\tfield:char comm]16[;\toffset:8;\tsize:16;\tsigned:0;\n\n"
			       "print fmt: \"x\"\n",
			       "s"),
			 -1);
}

static void test_unknown_field_rejected(void **state)
{
	(void)state;
	/* fuzzing: REC->prev_state became REC->prev_statlong inside __print_flags( */
	assert_int_equal(check(SWITCH_FIELDS
			       "print fmt: \"%s\", REC->prev_state & (4096-1) ? "
			       "__print_flags(REC->prev_statlong(4096-1), \"|\", { 1, \"S\"} ) : \"R\"\n",
			       "sched"),
			 -1);
	assert_string_equal(why, "event sched/sched_switch: its print fmt names REC->prev_statlong, "
				 "which is not one of its fields");
	/* fuzzing: __print_symbolic's field name merged with the next symbol */
	assert_int_equal(check("name: pm_qos_add_request\nID: 142\n" COMMON
			       "\tfield:int pm_qos_class;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:s32 value;\toffset:12;\tsize:4;\tsigned:1;\n\n"
			       "print fmt: \"pm_qos_class=%s value=%d\", "
			       "__print_symbolic(REC->pm_qos_clkmem_free_QOS_CPU_DMA_LATENCY, "
			       "\"CPU_DMA_LATENCY\" }), REC->value\n",
			       "power"),
			 -1);
	assert_string_equal(why, "event power/pm_qos_add_request: its print fmt names "
				 "REC->pm_qos_clkmem_free_QOS_CPU_DMA_LATENCY, which is not one of its "
				 "fields");
	/* a prefix of a field is not the field; an array's size is not its name */
	assert_int_equal(check(SWITCH_FIELDS "print fmt: \"%d\", REC->next_pi\n", "sched"), -1);
	assert_int_equal(check(SWITCH_FIELDS "print fmt: \"%d\", REC->16\n", "sched"), -1);
	/* the text ends inside the name: still checked */
	assert_int_equal(check(SWITCH_FIELDS "print fmt: \"%d\", REC->zz", "sched"), -1);
	assert_string_equal(why, "event sched/sched_switch: its print fmt names REC->zz, which is "
				 "not one of its fields");
}

/*
 * libtraceevent folds `atom / atom` and `atom % atom` while parsing, each atom read with
 * strtoull(): a divisor that reads 0 is SIGFPE (fuzz_dat_format). Each row was run through
 * tep_parse_event() first: the refused ones crashed it, the accepted ones did not (a field or a
 * function's result on either side is not folded; -0 and (1-1) are not atoms).
 */
static void test_zero_divisor(void **state)
{
	static const char *const crash[] = {
		"5 / 0", "5 % 00", "5 / 0x0", "5 / 0ULL", "5 / 0.5", "5 / (0)", "5 / ((0))",
		"5 / R", "5 / (R)", "R / 0", "(5) / 0", "0x5 / 0", "\"a\" / 0", "'a' / 0",
		"sizeof(int) / 0", "REC->x ? 5/0 : 1", "1 + 5 / 0",
	};
	static const char *const fine[] = {
		"REC->x / 0", "REC -> x / 0", "REC->x % R", "REC->x[0] / 0", "5 / REC->x",
		"5 / f(1)", "5 / R(1)", "5 / sizeof(int)", "5 / -0", "5 / (1-1)", "5 / 1000L",
		"REC->x / 1000", "__get_str(x) / 0", "f(1) / 0", "5 % 2",
	};
	char text[1024];
	(void)state;

	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]) + sizeof(fine) / sizeof(fine[0]);
	     i++) {
		bool bad = i < sizeof(crash) / sizeof(crash[0]);
		const char *e = bad ? crash[i] : fine[i - sizeof(crash) / sizeof(crash[0])];

		snprintf(text, sizeof(text),
			 "name: g\nID: 8\n" COMMON
			 "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: \"%%d\", %s\n", e);
		if ((check(text, "sched") != 0) != bad)
			fail_msg("'%s': %s (%s)", e, bad ? "accepted" : "refused", why);
		if (bad)
			assert_non_null(strstr(why, "divides by a constant zero"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_formats_pass),
		cmocka_unit_test(test_unknown_field_rejected),
		cmocka_unit_test(test_field_line_rejected),
		cmocka_unit_test(test_zero_divisor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
