/*
 * perfetto_info.c - the packets of a Perfetto trace that describe the system rather than
 * events: system_info (kernel release, device, producer), cpu_info (capacities and OPPs),
 * process_tree (task names), clock snapshots; and the table of task names (pid -> comm) that
 * they, and the ftrace events, fill (Perfetto's system_info.proto,
 * cpu_info.proto, process_tree.proto, clock_snapshot.proto).
 */
#include "trace/perfetto/perfetto_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- task names ------------------------------------------------------------------------- */

struct pf_comm *pf_comm_find(const struct pf_comms *t, s32 pid)
{
	return pid > 0 ? pid_table_find(&t->by_pid, pid) : NULL;
}

void pf_copy_comm(char dst[TASK_COMM_LEN], const char *src)
{
	size_t i = 0;

	/* a comm ends at its first newline or NUL, as the kernel's does (the bytes after a
	 * newline are kept behind the NUL, as a copy of the whole would) */
	if (src)
		for (; i < TASK_COMM_LEN - 1 && src[i]; i++)
			dst[i] = src[i] == '\n' ? '\0' : src[i];
	dst[i] = '\0';
}

struct pf_comm *pf_comm_slot(struct pf_comms *t, s32 pid)
{
	struct pf_comm *e = pid_table_find(&t->by_pid, pid);

	if (e)
		return e;
	if (!t->by_pid.first_cap)
		pid_table_init(&t->by_pid, 1024);
	if (pid_table_reserve(&t->by_pid) < 0 || !(e = calloc(1, sizeof(*e))))
		return NULL;
	pid_table_add(&t->by_pid, pid, e);
	return e;
}

void pf_comms_free(struct pf_comms *t)
{
	for (u32 i = 0; i < t->by_pid.cap; i++)
		if (t->by_pid.slot[i].pid)
			free(t->by_pid.slot[i].val);
	pid_table_free(&t->by_pid);
}

int pf_comm_set(struct pf_comms *t, s32 pid, const char *comm)
{
	struct pf_comm *e;

	if (pid <= 0 || !comm || !comm[0])
		return 0;
	if (!(e = pf_comm_slot(t, pid)))
		return GS_ENOMEM;
	pf_copy_comm(e->comm, comm);
	return 0;
}

/* "5.10.157-android13-4" -> 5010; 0 when it does not start with major.minor. */
int pf_parse_kver(const char *rel)
{
	int major = 0, minor = 0;
	const char *p = rel;

	if (!p || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && major < 1000)
		major = major * 10 + (*p++ - '0');
	if (*p++ != '.' || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && minor < 1000)
		minor = minor * 10 + (*p++ - '0');
	if (major >= 1000 || minor >= 1000)
		return 0;
	return major * 1000 + minor;
}
/* ---- packets other than ftrace bundles -------------------------------------------------- */

void pf_set_str(char *dst, size_t cap, const char *src)
{
	if (src && src[0] && !dst[0])
		snprintf(dst, cap, "%s", src);
}

const char *pf_clock_name(u32 id)
{
	switch (id) {
	case 1: return "realtime";
	case 2: return "realtime-coarse";
	case 3: return "mono";
	case 4: return "mono-coarse";
	case 5: return "mono-raw";
	case 6: return "boot";
	case 9: return "tsc";
	case 10: return "perf";
	default: return "custom";
	}
}

const char *pf_ftrace_clock_name(int c)
{
	switch (c) {
	case 0: return "boot";
	case 2: return "global";
	case 3: return "local";
	case 4: return "mono-raw";
	default: return "unknown";
	}
}

void pf_on_system_info(struct trace_reader *r, const Pftrace__SystemInfo *si)
{
	struct trace_stats *st = &r->st;

	if (si->utsname && si->utsname->release) {
		const char *v = si->utsname->version ? si->utsname->version : "";
		reader_set_kernel(r, si->utsname->release, strlen(si->utsname->release), v,
				  strlen(v));
		pf_of(r)->kver = pf_parse_kver(si->utsname->release);
	}
	pf_set_str(st->device, sizeof(st->device), si->android_build_fingerprint);
	pf_set_str(st->device, sizeof(st->device), si->machine_name);
	pf_set_str(st->device, sizeof(st->device), si->android_soc_model);
	if (si->utsname)
		pf_set_str(st->device, sizeof(st->device), si->utsname->machine);
	if (si->tracing_service_version && si->tracing_service_version[0]) /* over "perfetto" */
		snprintf(st->producer, sizeof(st->producer), "%s", si->tracing_service_version);
	if (si->has_num_cpus && si->num_cpus > 0 && si->num_cpus <= PF_MAX_CPU &&
	    st->header_cpus < 0)
		st->header_cpus = (int)si->num_cpus;
}

void pf_on_cpu_info(struct trace_reader *r, const Pftrace__CpuInfo *ci)
{
	struct trace_stats *st = &r->st;

	st->nr_cpu_info = ci->n_cpus < GS_MAX_CPUS ? (int)ci->n_cpus : GS_MAX_CPUS;
	for (int i = 0; i < st->nr_cpu_info; i++) {
		const Pftrace__CpuInfo__Cpu *c = ci->cpus[i];
		struct trace_cpu_info *o = &st->cpu_info[i];
		o->capacity = c->has_capacity ? c->capacity : 0;
		o->nr_freqs = c->n_frequencies < TRACE_CPU_MAX_FREQS ? (u32)c->n_frequencies
								     : TRACE_CPU_MAX_FREQS;
		if (o->nr_freqs) /* a CPU without an OPP list has no array (NULL) */
			memcpy(o->freqs_khz, c->frequencies, o->nr_freqs * sizeof(u32));
	}
}

/* The basename of argv[0], as the kernel's comm of an exec'd process is (a cmdline the
 * producer wrote as one string ends its argv[0] at the first space). */
static void argv0_comm(char out[TASK_COMM_LEN], const char *argv0)
{
	const char *end = argv0 + strcspn(argv0, " "), *base = argv0;

	for (const char *p = argv0; p < end; p++)
		if (*p == '/')
			base = p + 1;
	snprintf(out, TASK_COMM_LEN, "%.*s", (int)(end - base), base);
}

int pf_on_process_tree(struct trace_reader *r, const Pftrace__ProcessTree *pt)
{
	struct pf_comms *t = &pf_of(r)->comms;
	int ret = 0;

	for (size_t i = 0; i < pt->n_processes && !ret; i++) {
		const Pftrace__ProcessTree__Process *p = pt->processes[i];
		char comm[TASK_COMM_LEN];
		if (!p->has_pid || !p->n_cmdline || pf_comm_find(t, p->pid))
			continue; /* the kernel's comm, from ftrace, is better */
		if (p->cmdline_is_comm)
			snprintf(comm, sizeof(comm), "%s", p->cmdline[0]);
		else
			argv0_comm(comm, p->cmdline[0]);
		ret = pf_comm_set(t, p->pid, comm);
	}
	for (size_t i = 0; i < pt->n_threads && !ret; i++) {
		const Pftrace__ProcessTree__Thread *th = pt->threads[i];
		if (th->has_tid)
			ret = pf_comm_set(t, th->tid, th->name);
	}
	return ret;
}
