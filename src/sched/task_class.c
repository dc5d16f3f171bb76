/*
 * task_class.c - which scheduling class a traced task is in: read off its prio (below 0
 * deadline, below 100 RT, else CFS), with the two kernel threads a prio does not tell apart,
 * the governor's sugov:N (deadline, SCHED_FLAG_SUGOV: not workload; a fair task from its
 * creation to its sched_setattr() where the trace shows both) and the stopper migration/N (the
 * stop class). See sched_priv.h.
 */
#include "sched/sched_priv.h"

#include <string.h>

bool is_governor_comm(const char *comm)
{
	return strncmp(comm, "sugov:", 6) == 0;
}

static enum sched_class_id class_of_prio(int prio)
{
	if (prio < 0)
		return SCHED_CLASS_DL;
	if (prio < 100)
		return SCHED_CLASS_RT;
	return SCHED_CLASS_CFS;
}

/*
 * The per-CPU stopper thread: smpboot names it "migration/%u" (kernel/stop_machine.c,
 * cpu_stop_threads) and sched_set_stop_task() makes it SCHED_FIFO at MAX_RT_PRIO - 1, prio 0
 * in a trace, before moving it to stop_sched_class (kernel/sched/core.c, v4.19 to 7.2). The
 * name alone is not enough: an RT task may be called so, and only prio 0 is the stopper's.
 */
bool is_stopper_comm(const char *comm)
{
	const char *d = comm + 10;

	if (strncmp(comm, "migration/", 10) != 0 || !*d)
		return false;
	for (; *d; d++)
		if (*d < '0' || *d > '9')
			return false;
	return true;
}

/* sched_prio_to_weight[] (kernel/sched/core.c, the same in Debian 5.10 to 7.2): a fair task's
 * load weight by nice, -20 to 19, each step about 1.25 times the next. */
static const unsigned long nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

/* set_load_weight(): a fair prio (100 + 20 + nice) gives its nice's weight; any other prio
 * (an RT, DL or unknown one) the nice-0 weight, which the task keeps should it turn fair
 * (its static_prio is not in the trace). */
unsigned long prio_to_weight(int prio)
{
	return prio >= 100 && prio < 140 ? nice_weight[prio - 100] : 1024;
}

/* The class a task of this prio is in: sugov:N is the governor's, migration/N the stop class. */
enum sched_class_id task_class(const struct task *p, int prio)
{
	if (p->is_governor)
		return SCHED_CLASS_DL;
	if (p->is_stopper && prio == 0)
		return SCHED_CLASS_STOP;
	return class_of_prio(prio);
}

/*
 * The governor's kthread made in the trace: sugov_kthread_create() (cpufreq_schedutil.c,
 * Debian 5.10 to 7.2) calls kthread_create(), whose new thread is a fair task (its
 * sched_wakeup_new shows prio 120) that runs kthread() and sleeps in D; only then does
 * sched_setattr_nocheck(SCHED_DEADLINE, SCHED_FLAG_SUGOV) make it the governor's DL thread,
 * and wake_up_process() wakes it (prio -1). Until then it is modelled as the fair task it is:
 * created, attached, running and sleeping as any, and not the governor (is_governor).
 */
void governor_created(struct task_node *n)
{
	struct task *p = &n->t;

	p->is_governor = false;
	p->class = SCHED_CLASS_CFS;
	n->queued_class = SCHED_CLASS_CFS;
	n->governor_cfs = true;
}

/* A wakeup of a sugov:N task: created (new) at a fair prio, it is that fair task; a later one at
 * an RT prio is an RT task of that name, not the governor; one at the DL prio is the setattr's
 * (the sched_waking's prio was not there). */
void governor_wakeup(struct sched *s, struct task_node *n, bool new, int prio, u64 now)
{
	if (new && n->t.is_governor && prio >= 100)
		governor_created(n);
	if (n->governor_cfs && prio >= 0 && prio < 100)
		n->governor_cfs = false;
	if (n->governor_cfs && prio < 0)
		governor_setattr(s, n, prio, now);
}

/* Its sched_setattr(), dated by the first event that shows the DL prio (the sched_waking of
 * wake_up_process(), which follows it): switched_from_fair() on the CPU it sleeps on, then the
 * governor's DL thread from here on. Left for later while the model has it queued. */
void governor_setattr(struct sched *s, struct task_node *n, int prio, u64 now)
{
	struct task *p = &n->t;
	struct rq *rq;

	/* switching_from_fair(): a delayed task is dequeued first */
	settle_delayed(s, n, now);
	if (p->on_rq || p->cpu < 0 || p->cpu >= s->cfg.nr_cpus)
		return;
	rq = &s->rq[p->cpu];
	update_rq_clock(rq, now); /* sched_change_begin() / task_rq_lock(): update_rq_clock() */
	switched_from_fair(s, rq, p);
	n->governor_cfs = false;
	p->is_governor = true;
	p->prio = prio;
	p->class = SCHED_CLASS_DL;
	n->queued_class = SCHED_CLASS_DL;
}
