/*
 * task_class.c - which scheduling class a traced task is in: read off its prio (below 0
 * deadline, below 100 RT, else CFS), with the two kernel threads a prio does not tell apart,
 * the governor's sugov:N (deadline, SCHED_FLAG_SUGOV: not workload) and the stopper
 * migration/N (the stop class). See sched_priv.h.
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

/* The class a task of this prio is in: sugov:N is the governor's, migration/N the stop class. */
enum sched_class_id task_class(const struct task *p, int prio)
{
	if (p->is_governor)
		return SCHED_CLASS_DL;
	if (p->is_stopper && prio == 0)
		return SCHED_CLASS_STOP;
	return class_of_prio(prio);
}
