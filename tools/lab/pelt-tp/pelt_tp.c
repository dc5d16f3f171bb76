// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_tp.c - the scheduler's bare PELT and util_est tracepoints as trace events, for the
 * govsim lab: the kernel's own util_avg, runnable/load and util_est of every root and group
 * cfs_rq, of rq->avg_rt and of every scheduling entity, each time the kernel updates it.
 *
 * The bare tracepoints (include/trace/events/sched.h: pelt_cfs_tp, pelt_rt_tp, pelt_se_tp,
 * sched_util_est_cfs_tp, sched_util_est_se_tp) pass the scheduler's private structures and
 * print nothing; a module registers a probe on them. The kernel once exported helpers
 * (sched_trace_cfs_rq_avg() ...) to read those structures; the trees this lab boots no longer
 * have them, so the module is built with the kernel's own kernel/sched/sched.h from the
 * source of the exact release (tools/lab/build-pelt-tp), which gives it the layout of
 * struct cfs_rq, struct rq and struct task_group of that build.
 *
 * The tracepoints' names: v6.12's include/trace/events/sched.h declares them with the suffix
 * (DECLARE_TRACE(pelt_cfs_tp, ...)); v7.2's declares DECLARE_TRACE(pelt_cfs, ...) and its
 * include/linux/tracepoint.h makes DECLARE_TRACE() append "_tp" itself, so both have
 * register_trace_pelt_cfs_tp() and the rest as used below. v7.2's kernel/sched/fair.c and
 * pelt.c call them at the same places as v6.12's, with the same structures.
 *
 * From v6.6 each task entity's update also writes its EEVDF state (sched_eevdf_se: vruntime,
 * deadline, vlag, slice, queued / delayed / curr, and its cfs_rq's sums), read from struct
 * sched_entity and struct cfs_rq of the same build.
 *
 * util_est: up to v6.7 struct util_est holds enqueued and ewma (the task's enqueued carries
 * the UTIL_AVG_UNCHANGED flag); from v6.8 it is one unsigned int, the EWMA with the flag, for
 * a task, and the sum of the enqueued tasks' estimates for a cfs_rq. The events keep the old
 * fields: enqueued is that value as the kernel holds it, ewma the flag-free EWMA (the task's)
 * or 0 (a cfs_rq's).
 */
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
/* what kernel/sched/build_policy.c includes before sched.h, which relies on it (v5.18 split
 * sched.h's includes out to the files that include it) */
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/rt.h>
#include <linux/cpuidle.h>
#include <linux/mmu_context.h>
#include <linux/psi.h>
#include <linux/seqlock_api.h>
#include <linux/slab.h>
#include <uapi/linux/sched/types.h>
#else
/* Before v5.18 sched.h includes what it needs, but its asm/tlb.h calls flush_tlb_mm_range(),
 * which asm/tlbflush.h declares only outside modules (#ifndef MODULE); declared here as there
 * (v5.10 arch/x86/include/asm/tlbflush.h), never called. */
#include <linux/mm_types.h>
extern void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			       unsigned int stride_shift, bool freed_tables);
#endif
#include "sched.h"

#include <linux/cgroup.h>
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "pelt_tp_events.h"

/* The cfs_rq's task group as a path: "/" for the CPU's root cfs_rq, the cgroup's path, an
 * autogroup's name; "(null)" when it has none. */
static void cfs_rq_path(struct cfs_rq *cfs_rq, char *buf, int len)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	struct task_group *tg = cfs_rq->tg;

	if (cfs_rq == &cfs_rq->rq->cfs) {
		strscpy(buf, "/", len);
		return;
	}
#ifdef CONFIG_SCHED_AUTOGROUP
	if (tg && tg->autogroup) {
		strscpy(buf, "/autogroup", len);
		return;
	}
#endif
	if (tg && tg->css.cgroup) {
		cgroup_path(tg->css.cgroup, buf, len);
		return;
	}
	strscpy(buf, "(null)", len);
#else
	strscpy(buf, "/", len);
#endif
}

static void probe_pelt_cfs(void *data, struct cfs_rq *cfs_rq)
{
	char path[PELT_TP_PATH_LEN];
	const struct sched_avg *avg = &cfs_rq->avg;

	if (!trace_sched_pelt_cfs_enabled())
		return;
	cfs_rq_path(cfs_rq, path, sizeof(path));
	trace_sched_pelt_cfs(cpu_of(rq_of(cfs_rq)), path, avg->load_avg, avg->runnable_avg,
			     avg->util_avg, avg->last_update_time);
}

static void probe_pelt_rt(void *data, struct rq *rq)
{
	if (!trace_sched_pelt_rt_enabled())
		return;
	trace_sched_pelt_rt(cpu_of(rq), rq->avg_rt.util_avg, rq->avg_rt.last_update_time);
}

/* An entity's CPU, path and task: a task's own CPU, no path, its comm and pid; a group's CPU
 * of its queue, the path of the group it stands for, no task. */
static void se_who(struct sched_entity *se, int *cpu, char *path, int len, const char **comm,
		   int *pid)
{
	if (entity_is_task(se)) {
		struct task_struct *p = container_of(se, struct task_struct, se);

		*cpu = task_cpu(p);
		strscpy(path, "(null)", len);
		*comm = p->comm;
		*pid = p->pid;
		return;
	}
#ifdef CONFIG_FAIR_GROUP_SCHED
	*cpu = cpu_of(rq_of(se->cfs_rq));
	cfs_rq_path(se->my_q, path, len);
#else
	*cpu = -1;
	strscpy(path, "(null)", len);
#endif
	*comm = "(null)";
	*pid = -1;
}

/* A task entity's EEVDF state (v6.6+), at the same PELT update: sched_eevdf_se. */
static void eevdf_se(struct sched_entity *se)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	struct cfs_rq *cfs_rq;
	struct task_struct *p;
	unsigned long load;
	unsigned int nr;
	int delayed = 0;
	u64 base;
	s64 sum;

	if (!trace_sched_eevdf_se_enabled() || !entity_is_task(se))
		return;
	cfs_rq = cfs_rq_of(se);
	p = container_of(se, struct task_struct, se);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	/* Debian's 6.12 has zero_vruntime in place of min_vruntime (backported) */
	delayed = se->sched_delayed;
	base = cfs_rq->zero_vruntime;
#else
	base = cfs_rq->min_vruntime;
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
	/* 7.2: weights are se->load.weight >> sum_shift (at least 2) */
	sum = cfs_rq->sum_w_vruntime;
	load = cfs_rq->sum_weight;
	nr = cfs_rq->nr_queued;
#else
	sum = cfs_rq->avg_vruntime;
	load = cfs_rq->avg_load;
	nr = cfs_rq->nr_running;
#endif
	trace_sched_eevdf_se(task_cpu(p), p->pid, se->vruntime, se->deadline, se->vlag, se->slice,
			     (se->on_rq ? 1u : 0u) | (delayed ? 2u : 0u) |
			     (cfs_rq->curr == se ? 4u : 0u), sum, load, base, nr);
#endif
}

static void probe_pelt_se(void *data, struct sched_entity *se)
{
	char path[PELT_TP_PATH_LEN];
	const char *comm;
	int cpu, pid;

	if (trace_sched_pelt_se_enabled()) {
		se_who(se, &cpu, path, sizeof(path), &comm, &pid);
		trace_sched_pelt_se(cpu, path, comm, pid, se->avg.load_avg, se->avg.runnable_avg,
				    se->avg.util_avg, se->avg.last_update_time);
	}
	eevdf_se(se);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define UE_CFS_ENQUEUED(avg) ((avg)->util_est)
#define UE_CFS_EWMA(avg) 0u
#define UE_SE_ENQUEUED(avg) ((avg)->util_est)
#define UE_SE_EWMA(avg) ((avg)->util_est & ~UTIL_AVG_UNCHANGED)
#else
#define UE_CFS_ENQUEUED(avg) ((avg)->util_est.enqueued)
#define UE_CFS_EWMA(avg) ((avg)->util_est.ewma)
#define UE_SE_ENQUEUED(avg) ((avg)->util_est.enqueued)
#define UE_SE_EWMA(avg) ((avg)->util_est.ewma)
#endif

static void probe_util_est_cfs(void *data, struct cfs_rq *cfs_rq)
{
	char path[PELT_TP_PATH_LEN];
	const struct sched_avg *avg = &cfs_rq->avg;

	if (!trace_sched_util_est_cfs_enabled())
		return;
	cfs_rq_path(cfs_rq, path, sizeof(path));
	trace_sched_util_est_cfs(cpu_of(rq_of(cfs_rq)), path, UE_CFS_ENQUEUED(avg),
				 UE_CFS_EWMA(avg), avg->util_avg);
}

static void probe_util_est_se(void *data, struct sched_entity *se)
{
	char path[PELT_TP_PATH_LEN];
	const char *comm;
	int cpu, pid;

	if (!trace_sched_util_est_se_enabled())
		return;
	se_who(se, &cpu, path, sizeof(path), &comm, &pid);
	trace_sched_util_est_se(cpu, path, comm, pid, UE_SE_ENQUEUED(&se->avg),
				UE_SE_EWMA(&se->avg), se->avg.util_avg);
}

static int __init pelt_tp_init(void)
{
	int err;

	err = register_trace_pelt_cfs_tp(probe_pelt_cfs, NULL);
	if (err)
		goto out;
	err = register_trace_pelt_rt_tp(probe_pelt_rt, NULL);
	if (err)
		goto out_cfs;
	err = register_trace_pelt_se_tp(probe_pelt_se, NULL);
	if (err)
		goto out_rt;
	err = register_trace_sched_util_est_cfs_tp(probe_util_est_cfs, NULL);
	if (err)
		goto out_se;
	err = register_trace_sched_util_est_se_tp(probe_util_est_se, NULL);
	if (err)
		goto out_ue_cfs;
	return 0;

out_ue_cfs:
	unregister_trace_sched_util_est_cfs_tp(probe_util_est_cfs, NULL);
out_se:
	unregister_trace_pelt_se_tp(probe_pelt_se, NULL);
out_rt:
	unregister_trace_pelt_rt_tp(probe_pelt_rt, NULL);
out_cfs:
	unregister_trace_pelt_cfs_tp(probe_pelt_cfs, NULL);
out:
	return err;
}

static void __exit pelt_tp_exit(void)
{
	unregister_trace_sched_util_est_se_tp(probe_util_est_se, NULL);
	unregister_trace_sched_util_est_cfs_tp(probe_util_est_cfs, NULL);
	unregister_trace_pelt_se_tp(probe_pelt_se, NULL);
	unregister_trace_pelt_rt_tp(probe_pelt_rt, NULL);
	unregister_trace_pelt_cfs_tp(probe_pelt_cfs, NULL);
	tracepoint_synchronize_unregister();
}

module_init(pelt_tp_init);
module_exit(pelt_tp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("govsim lab: PELT and util_est tracepoints as sched_pelt trace events");
