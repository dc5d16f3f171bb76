/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pelt_tp_events.h - the trace events of pelt_tp.c: the kernel's PELT and util_est signals in
 * the text formats of the sched_tp module used by LISA and Android (sched_pelt_cfs,
 * sched_pelt_rt, sched_pelt_se, sched_util_est_cfs, sched_util_est_se), which govsim reads.
 * They appear under events/sched_pelt/.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_pelt

#if !defined(PELT_TP_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define PELT_TP_EVENTS_H

#include <linux/tracepoint.h>

#define PELT_TP_PATH_LEN 64

TRACE_EVENT(sched_pelt_cfs,
	TP_PROTO(int cpu, const char *path, unsigned long load, unsigned long rbl_load,
		 unsigned long util, u64 update_time),
	TP_ARGS(cpu, path, load, rbl_load, util, update_time),
	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, PELT_TP_PATH_LEN)
		__field(unsigned long, load)
		__field(unsigned long, rbl_load)
		__field(unsigned long, util)
		__field(u64, update_time)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, PELT_TP_PATH_LEN);
		__entry->load = load;
		__entry->rbl_load = rbl_load;
		__entry->util = util;
		__entry->update_time = update_time;
	),
	TP_printk("cpu=%d path=%s load=%lu rbl_load=%lu util=%lu update_time=%llu",
		  __entry->cpu, __entry->path, __entry->load, __entry->rbl_load, __entry->util,
		  __entry->update_time)
);

TRACE_EVENT(sched_pelt_rt,
	TP_PROTO(int cpu, unsigned long util, u64 update_time),
	TP_ARGS(cpu, util, update_time),
	TP_STRUCT__entry(
		__field(int, cpu)
		__field(unsigned long, util)
		__field(u64, update_time)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->util = util;
		__entry->update_time = update_time;
	),
	TP_printk("cpu=%d util=%lu update_time=%llu", __entry->cpu, __entry->util,
		  __entry->update_time)
);

TRACE_EVENT(sched_pelt_se,
	TP_PROTO(int cpu, const char *path, const char *comm, int pid, unsigned long load,
		 unsigned long rbl_load, unsigned long util, u64 update_time),
	TP_ARGS(cpu, path, comm, pid, load, rbl_load, util, update_time),
	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, PELT_TP_PATH_LEN)
		__array(char, comm, TASK_COMM_LEN)
		__field(int, pid)
		__field(unsigned long, load)
		__field(unsigned long, rbl_load)
		__field(unsigned long, util)
		__field(u64, update_time)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, PELT_TP_PATH_LEN);
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->pid = pid;
		__entry->load = load;
		__entry->rbl_load = rbl_load;
		__entry->util = util;
		__entry->update_time = update_time;
	),
	TP_printk("cpu=%d path=%s comm=%s pid=%d load=%lu rbl_load=%lu util=%lu update_time=%llu",
		  __entry->cpu, __entry->path, __entry->comm, __entry->pid, __entry->load,
		  __entry->rbl_load, __entry->util, __entry->update_time)
);

/* A task's EEVDF state at each PELT update of its entity (v6.6+): its vruntime, deadline,
 * vlag and slice, whether it is queued, delayed (v6.12+) and its cfs_rq's curr (flags bits 0-2),
 * and the cfs_rq's average: avg_vruntime() = base + (avg_vruntime (+ curr's key * weight)) /
 * avg_load, with base its min_vruntime (v6.12) or zero_vruntime (7.2). */
TRACE_EVENT(sched_eevdf_se,
	TP_PROTO(int cpu, int pid, u64 vruntime, u64 deadline, s64 vlag, u64 slice,
		 unsigned int flags, s64 avg_vruntime, unsigned long avg_load, u64 base,
		 unsigned int nr),
	TP_ARGS(cpu, pid, vruntime, deadline, vlag, slice, flags, avg_vruntime, avg_load, base,
		nr),
	TP_STRUCT__entry(
		__field(int, cpu)
		__field(int, pid)
		__field(u64, vruntime)
		__field(u64, deadline)
		__field(s64, vlag)
		__field(u64, slice)
		__field(unsigned int, flags)
		__field(s64, avg_vruntime)
		__field(unsigned long, avg_load)
		__field(u64, base)
		__field(unsigned int, nr)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->pid = pid;
		__entry->vruntime = vruntime;
		__entry->deadline = deadline;
		__entry->vlag = vlag;
		__entry->slice = slice;
		__entry->flags = flags;
		__entry->avg_vruntime = avg_vruntime;
		__entry->avg_load = avg_load;
		__entry->base = base;
		__entry->nr = nr;
	),
	TP_printk("cpu=%d pid=%d vruntime=%llu deadline=%llu vlag=%lld slice=%llu on_rq=%u delayed=%u curr=%u avg_vruntime=%lld avg_load=%lu base=%llu nr=%u",
		  __entry->cpu, __entry->pid, __entry->vruntime, __entry->deadline, __entry->vlag,
		  __entry->slice, __entry->flags & 1, (__entry->flags >> 1) & 1,
		  (__entry->flags >> 2) & 1, __entry->avg_vruntime, __entry->avg_load,
		  __entry->base, __entry->nr)
);

TRACE_EVENT(sched_util_est_cfs,
	TP_PROTO(int cpu, const char *path, unsigned int enqueued, unsigned int ewma,
		 unsigned long util),
	TP_ARGS(cpu, path, enqueued, ewma, util),
	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, PELT_TP_PATH_LEN)
		__field(unsigned int, enqueued)
		__field(unsigned int, ewma)
		__field(unsigned long, util)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, PELT_TP_PATH_LEN);
		__entry->enqueued = enqueued;
		__entry->ewma = ewma;
		__entry->util = util;
	),
	TP_printk("cpu=%d path=%s enqueued=%u ewma=%u util=%lu", __entry->cpu, __entry->path,
		  __entry->enqueued, __entry->ewma, __entry->util)
);

TRACE_EVENT(sched_util_est_se,
	TP_PROTO(int cpu, const char *path, const char *comm, int pid, unsigned int enqueued,
		 unsigned int ewma, unsigned long util),
	TP_ARGS(cpu, path, comm, pid, enqueued, ewma, util),
	TP_STRUCT__entry(
		__field(int, cpu)
		__array(char, path, PELT_TP_PATH_LEN)
		__array(char, comm, TASK_COMM_LEN)
		__field(int, pid)
		__field(unsigned int, enqueued)
		__field(unsigned int, ewma)
		__field(unsigned long, util)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		strscpy(__entry->path, path, PELT_TP_PATH_LEN);
		strscpy(__entry->comm, comm, TASK_COMM_LEN);
		__entry->pid = pid;
		__entry->enqueued = enqueued;
		__entry->ewma = ewma;
		__entry->util = util;
	),
	TP_printk("cpu=%d path=%s comm=%s pid=%d enqueued=%u ewma=%u util=%lu", __entry->cpu,
		  __entry->path, __entry->comm, __entry->pid, __entry->enqueued, __entry->ewma,
		  __entry->util)
);

#endif /* PELT_TP_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE pelt_tp_events
#include <trace/define_trace.h>
