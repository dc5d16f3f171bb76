// SPDX-License-Identifier: MIT
/*
 * uclampctl - set a task's uclamp request inside the lab guest (static, no libraries).
 *
 *   uclampctl [-n] COMM|PID [min=N] [max=N]
 *
 * Every thread whose comm is COMM (or the thread PID) gets sched_setattr(2) with
 * SCHED_FLAG_KEEP_ALL plus SCHED_FLAG_UTIL_CLAMP_MIN/MAX for the values given (0..1024), so its
 * policy and nice value stay as they were. Prints one line per thread to stdout and to the trace
 * marker (so the recording holds the time of the call): "uclampctl: COMM PID min=N max=N -> 0".
 * -n does all of that but the call, and its line ends "-> dry-run": a workload without clamps
 * that marks where they would be set, at the same cost in processes and time
 * (workloads/whatif-task.sh under `record --dry-clamps`).
 * Exit status: 0 if every call returned 0, 1 if one failed (EOPNOTSUPP on a kernel built without
 * CONFIG_UCLAMP_TASK), 2 on a bad command line or when no thread matched.
 *
 * The cgroup and sysctl interfaces need no helper: the workload scripts write
 * /sys/fs/cgroup/<group>/cpu.uclamp.{min,max} and /proc/sys/kernel/sched_util_clamp_* directly.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/sched/types.h: the size-56 layout with the util clamps (v5.3+). */
struct lab_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

/* include/uapi/linux/sched.h */
#define LAB_SCHED_FLAG_KEEP_POLICY 0x08
#define LAB_SCHED_FLAG_KEEP_PARAMS 0x10
#define LAB_SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define LAB_SCHED_FLAG_UTIL_CLAMP_MAX 0x40

static long util_min = -1, util_max = -1;
static int dry_run;

static void mark(const char *line)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd >= 0) {
		ssize_t n = write(fd, line, strlen(line));
		(void)n;
		close(fd);
	}
}

static int set_one(long tid, const char *comm)
{
	struct lab_sched_attr a;
	char line[256];
	long rc;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_flags = LAB_SCHED_FLAG_KEEP_POLICY | LAB_SCHED_FLAG_KEEP_PARAMS;
	if (util_min >= 0) {
		a.sched_flags |= LAB_SCHED_FLAG_UTIL_CLAMP_MIN;
		a.sched_util_min = (uint32_t)util_min;
	}
	if (util_max >= 0) {
		a.sched_flags |= LAB_SCHED_FLAG_UTIL_CLAMP_MAX;
		a.sched_util_max = (uint32_t)util_max;
	}
	rc = dry_run ? 0 : syscall(SYS_sched_setattr, (pid_t)tid, &a, 0U);
	snprintf(line, sizeof(line), "uclampctl: %s %ld min=%ld max=%ld -> %s\n", comm, tid,
		 util_min, util_max, dry_run ? "dry-run" : rc == 0 ? "0" : strerror(errno));
	fputs(line, stdout);
	mark(line);
	return rc == 0 ? 0 : 1;
}

static int read_comm(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int parse_value(const char *s, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0 || v > 1024)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *who;
	char *end;
	long pid;
	int i, matched = 0, failed = 0;
	DIR *procs;
	struct dirent *p;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		dry_run = 1;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: uclampctl [-n] COMM|PID [min=N] [max=N]\n");
		return 2;
	}
	who = argv[1];
	for (i = 2; i < argc; i++) {
		if (strncmp(argv[i], "min=", 4) == 0 && parse_value(argv[i] + 4, &util_min) == 0)
			continue;
		if (strncmp(argv[i], "max=", 4) == 0 && parse_value(argv[i] + 4, &util_max) == 0)
			continue;
		fprintf(stderr, "uclampctl: '%s': expected min=0..1024 or max=0..1024\n", argv[i]);
		return 2;
	}

	pid = strtol(who, &end, 10);
	if (*who && *end == '\0')
		return set_one(pid, who) ? 1 : 0;

	/* Every thread of every process: rt-app names its threads, not its processes. */
	procs = opendir("/proc");
	if (!procs) {
		perror("uclampctl: /proc");
		return 1;
	}
	while ((p = readdir(procs))) {
		char dir[300];
		DIR *tasks;
		struct dirent *t;

		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(dir, sizeof(dir), "/proc/%s/task", p->d_name);
		tasks = opendir(dir);
		if (!tasks)
			continue;
		while ((t = readdir(tasks))) {
			char path[600], comm[64];

			if (t->d_name[0] < '0' || t->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%s/%s/comm", dir, t->d_name);
			if (read_comm(path, comm, sizeof(comm)) || strcmp(comm, who) != 0)
				continue;
			matched++;
			failed |= set_one(strtol(t->d_name, NULL, 10), comm);
		}
		closedir(tasks);
	}
	closedir(procs);
	if (!matched) {
		fprintf(stderr, "uclampctl: no thread named '%s'\n", who);
		return 2;
	}
	return failed ? 1 : 0;
}
