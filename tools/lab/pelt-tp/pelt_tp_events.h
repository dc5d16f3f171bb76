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
