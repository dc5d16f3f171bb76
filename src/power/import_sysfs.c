/*
 * import_sysfs.c - a platform from a directory written by tools/collect-platform.sh: the
 * device's sysfs and debugfs files under their own paths; see platform_import.h.
 *
 * Read, under DIR:
 *   sys/devices/system/cpu/cpufreq/policyN/  related_cpus (one policy each),
 *       scaling_available_frequencies, else stats/time_in_state (the OPPs),
 *       cpuinfo_transition_latency (ns; CPUFREQ_ETERNAL means unknown)
 *   sys/devices/system/cpu/cpuN/cpu_capacity
 *   sys/devices/system/cpu/cpuN/cpuidle/stateK/{name,latency,residency}  (of a policy's
 *       first CPU; latency is the exit latency, residency the target residency, both us)
 *   sys/kernel/debug/energy_model/<pd>/{cpus, ps:<kHz>/{frequency,power}}: the energy model.
 *       Its power is mW up to Linux 5.18 and uW from 5.19 (the EM moved to micro-watts), told
 *       apart by the release in DIR/uname-r.
 *   proc/cpuinfo: an x86 CPU (a "flags" line) is frequency invariant only with aperfmperf
 *   uname-r: the kernel release
 */
#include "power/platform_import.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CPU_DIR "sys/devices/system/cpu"
#define EM_DIR  "sys/kernel/debug/energy_model"
#define CPUFREQ_ETERNAL 4294967295UL

struct sysfs {
	const char *dir;
	struct plat_import *m;
	struct gs_error *err;
	char release[128];
	bool em_uw; /* the EM's power file is in micro-watts */
};

/* DIR/rel's first line (trailing space cut) into buf; false when it cannot be read. */
static bool read_line(struct sysfs *s, const char *rel, char *buf, size_t size)
{
	char path[4096];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		buf[0] = '\0';
	for (size_t n = strlen(buf); n && (buf[n - 1] == '\n' || buf[n - 1] == ' '); n--)
		buf[n - 1] = '\0';
	return true;
}

static int malformed(struct sysfs *s, const char *rel, const char *what, const char *text)
{
	return gs_error_set(s->err, GS_EINPUT, "'%s/%s': %s: '%.40s'", s->dir, rel, what, text);
}

static bool parse_ulong(const char *t, unsigned long hi, unsigned long *out)
{
	char *end;

	if (!*t || *t == '-')
		return false;
	errno = 0;
	*out = strtoul(t, &end, 10);
	while (*end == ' ' || *end == '\n')
		end++;
	return !errno && !*end && *out <= hi;
}

/* A numeric directory suffix: "policy12" with prefix "policy" -> 12; -1 otherwise. */
static int suffix_num(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	unsigned long v;

	if (strncmp(name, prefix, n) != 0 || !parse_ulong(name + n, 4096, &v))
		return -1;
	return (int)v;
}

/* The numbered entries prefixN of DIR/rel, ascending, into nums (at most max). */
static int list_numbered(struct sysfs *s, const char *rel, const char *prefix, int *nums, int max)
{
	char path[4096];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d)) && n < max) {
		int v = suffix_num(e->d_name, prefix);
		if (v >= 0)
			nums[n++] = v;
	}
	closedir(d);
	for (int i = 1; i < n; i++) /* insertion sort: a handful of entries */
		for (int j = i; j > 0 && nums[j - 1] > nums[j]; j--) {
			int t = nums[j];
			nums[j] = nums[j - 1];
			nums[j - 1] = t;
		}
	return n;
}

/* related_cpus: "0 1 2 3". */
static int read_cpus(struct sysfs *s, int policy, struct pimp_cluster *c)
{
	char rel[256], buf[1024];
	char *tok, *save;

	snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/related_cpus", policy);
	if (!read_line(s, rel, buf, sizeof(buf)))
		return gs_error_set(s->err, GS_EINPUT, "'%s/%s': missing", s->dir, rel);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		unsigned long cpu;
		if (!parse_ulong(tok, GS_MAX_CPUS - 1, &cpu) || c->nr_cpus == GS_MAX_CPUS)
			return malformed(s, rel, "a CPU number 0..63 expected", tok);
		c->cpus[c->nr_cpus++] = (int)cpu;
		if ((int)cpu + 1 > s->m->nr_cpus)
			s->m->nr_cpus = (int)cpu + 1;
	}
	if (!c->nr_cpus)
		return malformed(s, rel, "no CPU", buf);
	snprintf(c->source, sizeof(c->source), "%s", rel);
	return 0;
}

static int add_opp(struct sysfs *s, struct pimp_cluster *c, const char *rel, unsigned long khz)
{
	int k = c->nr_opps;

	for (int i = 0; i < c->nr_opps; i++)
		if (c->opps[i].freq_khz == khz)
			return 0;
	if (c->nr_opps == GS_MAX_OPPS)
		return gs_error_set(s->err, GS_EINPUT, "'%s/%s': more than %d frequencies", s->dir,
				    rel, GS_MAX_OPPS);
	while (k > 0 && c->opps[k - 1].freq_khz > khz) {
		c->opps[k] = c->opps[k - 1];
		k--;
	}
	memset(&c->opps[k], 0, sizeof(c->opps[k]));
	c->opps[k].freq_khz = (u32)khz;
	c->opps[k].cost_capacity = -1;
	snprintf(c->opps[k].source, sizeof(c->opps[k].source), "%s", rel);
	c->nr_opps++;
	return 0;
}

/* scaling_available_frequencies (any order), else time_in_state's first column. */
static int read_opps(struct sysfs *s, int policy, struct pimp_cluster *c)
{
	char rel[256], line[256], path[4096];
	FILE *f;
	int rc;

	snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/scaling_available_frequencies",
		 policy);
	if (read_line(s, rel, line, sizeof(line)) && line[0]) {
		char *save, *tok;
		for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			unsigned long khz;
			if (!parse_ulong(tok, UINT32_MAX, &khz) || !khz)
				return malformed(s, rel, "a frequency in kHz expected", tok);
			if ((rc = add_opp(s, c, rel, khz)))
				return rc;
		}
		return 0;
	}
	snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/stats/time_in_state", policy);
	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	if (!(f = fopen(path, "r")))
		return gs_error_set(s->err, GS_EINPUT,
				    "'%s/" CPU_DIR "/cpufreq/policy%d': no "
				    "scaling_available_frequencies or stats/time_in_state",
				    s->dir, policy);
	rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		unsigned long khz;
		char *sp = strchr(line, ' ');
		if (sp)
			*sp = '\0';
		if (!parse_ulong(line, UINT32_MAX, &khz) || !khz)
			rc = malformed(s, rel, "'kHz time' lines expected", line);
		else
			rc = add_opp(s, c, rel, khz);
	}
	fclose(f);
	return rc;
}

static void read_latency(struct sysfs *s, int policy, struct pimp_cluster *c)
{
	char rel[256], buf[64];
	unsigned long ns;

	c->transition_latency_ns = -1;
	snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/cpuinfo_transition_latency", policy);
	if (read_line(s, rel, buf, sizeof(buf)) && parse_ulong(buf, CPUFREQ_ETERNAL, &ns) &&
	    ns != CPUFREQ_ETERNAL) {
		c->transition_latency_ns = (long)ns;
		snprintf(c->source + strlen(c->source), sizeof(c->source) - strlen(c->source),
			 "; latency %s", rel);
	}
}

/* The cpuidle states of the policy's first CPU; none: the idle loop's own two. */
static int read_idle(struct sysfs *s, struct pimp_cluster *c, bool x86)
{
	int nums[GS_MAX_IDLE_STATES + 1], n;
	char rel[256];

	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpuidle", c->cpus[0]);
	n = list_numbered(s, rel, "state", nums, GS_MAX_IDLE_STATES);
	for (int i = 0; i < n; i++) {
		struct pimp_idle *st = &c->idle[c->nr_idle];
		char f[320], buf[64];
		unsigned long v;

		if (nums[i] != i)
			break; /* cpuidle indices are dense: a gap ends the list */
		snprintf(f, sizeof(f), "%s/state%d/name", rel, i);
		if (!read_line(s, f, st->name, sizeof(st->name)) || !st->name[0])
			return gs_error_set(s->err, GS_EINPUT, "'%s/%s': missing or empty", s->dir,
					    f);
		st->cluster_level = strncmp(st->name, "cluster", 7) == 0;
		st->wakeup_latency_us = st->min_residency_us = -1;
		st->cost_power = -1;
		snprintf(f, sizeof(f), "%s/state%d/latency", rel, i);
		if (read_line(s, f, buf, sizeof(buf))) {
			if (!parse_ulong(buf, UINT32_MAX, &v))
				return malformed(s, f, "microseconds expected", buf);
			st->wakeup_latency_us = (long)v;
		}
		snprintf(f, sizeof(f), "%s/state%d/residency", rel, i);
		if (read_line(s, f, buf, sizeof(buf))) {
			if (!parse_ulong(buf, UINT32_MAX, &v))
				return malformed(s, f, "microseconds expected", buf);
			st->min_residency_us = (long)v;
		}
		snprintf(st->source, sizeof(st->source), "%s/state%d/{name,latency,residency}; level %s by its name",
			 rel, i, st->cluster_level ? "cluster" : "cpu");
		c->nr_idle++;
	}
	if (c->nr_idle)
		return 0;
	/* No cpuidle driver: kernel/sched/idle.c traces cpu_idle 0 from cpu_idle_poll() and 1
	 * from default_idle_call() (HLT on x86, WFI on arm). */
	c->nr_idle = 2;
	snprintf(c->idle[0].name, sizeof(c->idle[0].name), "POLL");
	c->idle[0].wakeup_latency_us = c->idle[0].min_residency_us = 0;
	snprintf(c->idle[1].name, sizeof(c->idle[1].name), "%s", x86 ? "HLT" : "WFI");
	c->idle[1].wakeup_latency_us = c->idle[1].min_residency_us = 1;
	for (int i = 0; i < 2; i++) {
		c->idle[i].cost_power = -1;
		snprintf(c->idle[i].source, sizeof(c->idle[i].source),
			 "no %.200s/state*: no cpuidle driver, the idle loop's %s (cpu_idle %d); "
			 "latency ASSUMED %d us",
			 rel, i ? "default_idle_call()" : "cpu_idle_poll()", i, i);
	}
	return 0;
}

/* 5.19 and later: uW in the EM's power files. */
static bool release_em_uw(const char *release)
{
	unsigned long major = 0, minor = 0;

	if (sscanf(release, "%lu.%lu", &major, &minor) != 2)
		return true;
	return major > 5 || (major == 5 && minor >= 19);
}

/* The first CPU of an EM perf domain: its cpus file ("0-3", "0,4-5"), else its name cpuN/pdN. */
static int em_first_cpu(struct sysfs *s, const char *pd)
{
	char rel[512], buf[256];
	unsigned long v;
	int n;

	snprintf(rel, sizeof(rel), EM_DIR "/%s/cpus", pd);
	if (read_line(s, rel, buf, sizeof(buf))) {
		buf[strcspn(buf, "-, ")] = '\0';
		if (parse_ulong(buf, GS_MAX_CPUS - 1, &v))
			return (int)v;
	}
	if ((n = suffix_num(pd, "cpu")) >= 0 || (n = suffix_num(pd, "pd")) >= 0)
		return n < GS_MAX_CPUS ? n : -1;
	return -1;
}

static struct pimp_cluster *cluster_of(struct plat_import *m, int cpu)
{
	for (int i = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < m->clusters[i].nr_cpus; k++)
			if (m->clusters[i].cpus[k] == cpu)
				return &m->clusters[i];
	return NULL;
}

/* One perf domain's ps:<kHz> directories: the power of each OPP of its policy. */
static int read_em_pd(struct sysfs *s, const char *pd, struct pimp_cluster *c)
{
	for (int k = 0; k < c->nr_opps; k++) {
		struct pimp_opp *o = &c->opps[k];
		char rel[512], buf[64];
		unsigned long khz, power;

		snprintf(rel, sizeof(rel), EM_DIR "/%s/ps:%u/frequency", pd, o->freq_khz);
		if (!read_line(s, rel, buf, sizeof(buf)))
			continue; /* no EM entry for this OPP: the rule gives its power */
		if (!parse_ulong(buf, UINT32_MAX, &khz) || khz != o->freq_khz)
			return malformed(s, rel, "the OPP's frequency expected", buf);
		snprintf(rel, sizeof(rel), EM_DIR "/%s/ps:%u/power", pd, o->freq_khz);
		if (!read_line(s, rel, buf, sizeof(buf)) || !parse_ulong(buf, UINT32_MAX, &power) ||
		    !power)
			return malformed(s, rel, "a positive power expected", buf);
		o->power_mw = s->em_uw ? lround(power / 1000.0) : (long)power;
		if (o->power_mw < 1)
			o->power_mw = 1;
		snprintf(o->source + strlen(o->source), sizeof(o->source) - strlen(o->source),
			 "; em power %s: %lu %s", rel, power,
			 !s->release[0] ? "uW (no uname-r: ASSUMED a kernel >= 5.19), rounded to mW"
			 : s->em_uw     ? "uW (kernel >= 5.19), rounded to mW"
					: "mW (kernel < 5.19)");
	}
	return 0;
}

static int read_em(struct sysfs *s)
{
	char path[4096];
	struct dirent *e;
	int rc = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" EM_DIR, s->dir);
	if (!(d = opendir(path)))
		return 0;
	while (!rc && (e = readdir(d))) {
		struct pimp_cluster *c;
		int cpu;

		if (e->d_name[0] == '.')
			continue;
		cpu = em_first_cpu(s, e->d_name);
		if (cpu < 0 || !(c = cluster_of(s->m, cpu)))
			continue; /* not a CPU perf domain (a GPU's, a device's) */
		rc = read_em_pd(s, e->d_name, c);
	}
	closedir(d);
	return rc;
}

/* proc/cpuinfo: x86 (a "flags" line) is frequency invariant with aperfmperf only. */
static bool read_cpuinfo(struct sysfs *s)
{
	char path[4096], line[4096];
	bool x86 = false, aperf = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", s->dir);
	if (!(f = fopen(path, "r")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		x86 = true;
		aperf = strstr(line, " aperfmperf") != NULL;
		break;
	}
	fclose(f);
	if (x86) {
		s->m->freq_invariant = aperf;
		snprintf(s->m->fi_source, sizeof(s->m->fi_source),
			 "proc/cpuinfo flags: %s (x86 frequency invariance needs APERF/MPERF)",
			 aperf ? "aperfmperf" : "no aperfmperf");
	}
	return x86;
}

static void read_capacities(struct sysfs *s)
{
	for (int cpu = 0; cpu < s->m->nr_cpus; cpu++) {
		char rel[256], buf[64];
		unsigned long v;

		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpu_capacity", cpu);
		if (read_line(s, rel, buf, sizeof(buf)) && parse_ulong(buf, SCHED_CAPACITY_SCALE, &v) &&
		    v) {
			s->m->capacity[cpu] = (u32)v;
			snprintf(s->m->capacity_source[cpu], PIMP_SOURCE_MAX, "%s", rel);
		}
	}
}

static void describe(struct sysfs *s, int policy, int n)
{
	struct plat_import *m = s->m;
	char rel[128], driver[64] = "";

	snprintf(rel, sizeof(rel), CPU_DIR "/cpufreq/policy%d/scaling_driver", policy);
	read_line(s, rel, driver, sizeof(driver));
	m->dvfs_any_cpu = driver[0] ? platform_import_driver_dvfs_any_cpu(driver) : -1;
	if (m->dvfs_any_cpu >= 0) {
		snprintf(m->driver, sizeof(m->driver), "%s", driver);
		snprintf(m->driver_source, sizeof(m->driver_source), "%s: %s, which %s", rel, driver,
			 m->dvfs_any_cpu ? "sets dvfs_possible_from_any_cpu"
					 : "does not set dvfs_possible_from_any_cpu");
	}
	snprintf(m->source, sizeof(m->source), "%s (collect-platform.sh)", s->dir);
	snprintf(m->description, sizeof(m->description),
		 "%d CPUs, %d cpufreq %s, imported from a device%s%s%s%s%s", m->nr_cpus, n,
		 n == 1 ? "policy" : "policies", driver[0] ? " (" : "", driver,
		 driver[0] ? ")" : "", s->release[0] ? ", kernel " : "", s->release);
}

int platform_import_sysfs(const char *dir, struct plat_import *m, struct gs_error *err)
{
	struct sysfs s = {.dir = dir, .m = m, .err = err};
	int policies[GS_MAX_CLUSTERS + 1], n, rc;
	bool x86;

	n = list_numbered(&s, CPU_DIR "/cpufreq", "policy", policies, GS_MAX_CLUSTERS + 1);
	if (n == 0)
		return gs_error_set(err, GS_EINPUT,
				    "'%s': no " CPU_DIR "/cpufreq/policy*: not a directory written "
				    "by collect-platform.sh, or the device has no cpufreq",
				    dir);
	if (n > GS_MAX_CLUSTERS)
		return gs_error_set(err, GS_EINPUT, "'%s': more than %d cpufreq policies", dir,
				    GS_MAX_CLUSTERS);
	if (!read_line(&s, "uname-r", s.release, sizeof(s.release)))
		s.release[0] = '\0';
	s.em_uw = release_em_uw(s.release);
	x86 = read_cpuinfo(&s);
	for (int i = 0; i < n; i++) {
		struct pimp_cluster *c = &m->clusters[i];
		if ((rc = read_cpus(&s, policies[i], c)) || (rc = read_opps(&s, policies[i], c)))
			return rc;
		read_latency(&s, policies[i], c);
		if ((rc = read_idle(&s, c, x86)))
			return rc;
	}
	m->nr_clusters = n;
	read_capacities(&s);
	if ((rc = read_em(&s)))
		return rc;
	describe(&s, policies[0], n);
	return 0;
}
