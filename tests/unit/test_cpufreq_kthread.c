/*
 * test_cpufreq_kthread.c - the slow path timed by the traced governor kthread
 * (cpufreq/kthread.h), on a policy built by hand with the lab's P-states (800 to 3000 MHz), a
 * 10 us switch latency and a 7 ms model driver call.
 *
 * Checks, each against times worked by hand from the kernel's slow path
 * (kernel/sched/cpufreq_schedutil.c sugov_deferred_update(), sugov_irq_work(), sugov_work();
 * Debian 5.10 to 7.2): a request attaches to the kthread the trace wakes just after it; the
 * kthread reads the newest request when it runs; a request during its driver call queues the
 * next call, which runs at the traced end and ends at the next one; with no traced wakeup
 * within CPUFREQ_KTHREAD_ATTACH_NS the model's constants time the run and the call; a request
 * made while the traced kthread finishes its run waits for the wakeup that follows; a traced
 * run that ends without ending the attached call leaves the model's call length, unless the
 * newest request is the frequency in force (what such a run read: it changed nothing).
 * Does not check: the replay's mapping of trace events to a policy (golden kthread_traced).
 */
#include "testutil.h"

#include <string.h>

#include "cpufreq/cpufreq.h"

static void make_policy(struct cpufreq_policy *p)
{
	static const u32 khz[] = {800000, 1200000, 1800000, 2400000, 3000000};
	struct cpufreq_opp_table tbl;

	memset(&tbl, 0, sizeof(tbl));
	tbl.nr_opps = 5;
	for (int i = 0; i < 5; i++)
		tbl.opps[i].freq_khz = khz[i];
	tbl.nr_cpus = 4;
	for (int i = 0; i < 4; i++)
		tbl.cpus[i] = i;
	tbl.transition_latency_ns = 10000;
	cpufreq_policy_init(p, 0, &tbl, 3000000, 10000);
	p->transition_ns = 7000000;
	p->kth.traced = true;
}

/* Attach at the wakeup; the newest request is read at the run; a request during the call is
 * the next call, from the traced end to the next traced end. */
static void test_attach_and_requeue(void **state)
{
	struct cpufreq_policy p;

	(void)state;
	make_policy(&p);
	assert_false(cpufreq_request(&p, 2400000, 1000000));
	assert_true(p.pending);
	cpufreq_kthread_woken(&p, 1024000);
	assert_false(cpufreq_request(&p, 1800000, 1050000)); /* before the run: replaces */
	cpufreq_kthread_run(&p, 1130000);
	assert_true(p.in_call);
	assert_int_equal(p.call_khz, 1800000);
	assert_false(cpufreq_request(&p, 3000000, 1200000)); /* during the call: queued */
	/* the model's 7 ms would end the call at 8.13 ms: the traced end decides instead */
	assert_false(cpufreq_apply_pending(&p, 9000000));
	assert_int_equal(p.cur_khz, 3000000);
	assert_true(cpufreq_kthread_call_end(&p, 30000000));
	assert_int_equal(p.cur_khz, 1800000);
	assert_true(p.in_call);
	assert_int_equal(p.call_khz, 3000000);
	assert_true(cpufreq_kthread_call_end(&p, 30300000));
	assert_int_equal(p.cur_khz, 3000000);
	assert_false(p.pending);
	cpufreq_kthread_sleep(&p, 30320000);
	assert_false(p.pending);
	assert_int_equal(p.kth.calls_traced, 2);
	assert_int_equal(p.kth.calls_model, 0);
}

/* No traced wakeup within the window: the run at request + 10 us, the call 7 ms long. */
static void test_fallback(void **state)
{
	struct cpufreq_policy p;

	(void)state;
	make_policy(&p);
	assert_false(cpufreq_request(&p, 1200000, 50000000));
	assert_false(cpufreq_apply_pending(&p, 50999999));
	assert_false(cpufreq_apply_pending(&p, 51000000)); /* the run was at 50.01 ms */
	assert_true(p.in_call);
	assert_int_equal(p.pending_at_ns, 57010000);
	assert_false(cpufreq_apply_pending(&p, 57009999));
	assert_true(cpufreq_apply_pending(&p, 57010000));
	assert_int_equal(p.cur_khz, 1200000);
	assert_false(p.pending);
	/* a wakeup after the window is another request's: nothing pending to attach */
	cpufreq_kthread_woken(&p, 57100000);
	cpufreq_kthread_run(&p, 57200000);
	assert_false(p.pending);
	assert_int_equal(p.kth.calls_model, 1);
}

/* A request while the traced kthread runs after its last call end (its own switch made it),
 * then the kthread sleeps: the irq_work wakes it again, and that run carries the request. */
static void test_request_in_run_tail(void **state)
{
	struct cpufreq_policy p;

	(void)state;
	make_policy(&p);
	cpufreq_kthread_woken(&p, 60000000);
	cpufreq_kthread_run(&p, 60100000);
	assert_false(cpufreq_kthread_call_end(&p, 60200000)); /* the kernel's own call */
	assert_false(cpufreq_request(&p, 800000, 60210000));
	cpufreq_kthread_sleep(&p, 60220000);
	assert_true(p.pending);
	assert_false(p.in_call);
	cpufreq_kthread_woken(&p, 60260000);
	cpufreq_kthread_run(&p, 60300000);
	assert_true(p.in_call);
	assert_true(cpufreq_kthread_call_end(&p, 60400000));
	assert_int_equal(p.cur_khz, 800000);
	assert_false(p.pending);
}

/* The traced run ends with no call end (the kernel's call found its frequency in force): the
 * attached call lands the model's 7 ms after it started. */
static void test_run_without_call_end(void **state)
{
	struct cpufreq_policy p;

	(void)state;
	make_policy(&p);
	assert_false(cpufreq_request(&p, 1800000, 70000000));
	cpufreq_kthread_woken(&p, 70020000);
	cpufreq_kthread_run(&p, 70100000);
	cpufreq_kthread_sleep(&p, 70150000);
	assert_int_equal(p.pending_at_ns, 77100000);
	assert_false(cpufreq_apply_pending(&p, 77099999));
	assert_true(cpufreq_apply_pending(&p, 77100000));
	assert_int_equal(p.cur_khz, 1800000);
	assert_int_equal(p.kth.calls_traced, 0);
	assert_int_equal(p.kth.calls_model, 1);
}

/* A request during a call queues the next work, which the kthread runs as soon as the call
 * ends; a later request makes the newest the frequency in force again, and the traced run ends
 * with no further call end: sugov_work() read next_freq after that request (the newest), found
 * it in force (acpi-cpufreq changes nothing then: no cpu_frequency) and the kthread slept. The
 * replay's second call, which read the request in between, ends with the run, changing
 * nothing: no model call lands later (lab 6.12/periodic4-shared at 13.6345: 3000 MHz asked
 * 9 us before the 2400 MHz call ended, 2400 MHz again 106 us after, the kthread asleep 60 us
 * later; the replay went to 3000 MHz and back, 0.54 ms apart, a transition_us each). */
static void test_run_ends_with_newest_in_force(void **state)
{
	struct cpufreq_policy p;

	(void)state;
	make_policy(&p);
	assert_false(cpufreq_request(&p, 2400000, 80000000));
	cpufreq_kthread_woken(&p, 80020000);
	cpufreq_kthread_run(&p, 80100000);
	assert_false(cpufreq_request(&p, 3000000, 80481000)); /* during the call: queued */
	assert_true(cpufreq_kthread_call_end(&p, 80490000));
	assert_int_equal(p.cur_khz, 2400000);
	assert_true(p.in_call); /* the queued work runs at once, reading 3000 MHz */
	assert_int_equal(p.call_khz, 3000000);
	assert_false(cpufreq_request(&p, 2400000, 80596000)); /* the newest: in force */
	cpufreq_kthread_sleep(&p, 80656000);
	assert_false(p.pending);
	assert_false(p.in_call);
	assert_false(cpufreq_apply_pending(&p, 100000000));
	assert_int_equal(p.cur_khz, 2400000);
	assert_int_equal(p.kth.calls_traced, 2);
	assert_int_equal(p.kth.calls_model, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_and_requeue),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_request_in_run_tail),
		cmocka_unit_test(test_run_without_call_end),
		cmocka_unit_test(test_run_ends_with_newest_in_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
