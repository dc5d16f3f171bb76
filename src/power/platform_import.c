/*
 * platform_import.c - an imported platform (struct plat_import) written as a model file's SQL,
 * with the rules for what the source did not give; see platform_import.h.
 */
#include "power/platform_import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void platform_import_init(struct plat_import *m)
{
	memset(m, 0, sizeof(*m));
	m->freq_invariant = -1;
	m->dvfs_any_cpu = -1;
	m->latency_override_ns = -1;
}

/*
 * Dynamic power is C * V^2 * f; with no voltage known, V is taken proportional to f (DVFS
 * lowers both together), so P grows as f^3. The scale is arbitrary: 1 W for a CPU of capacity
 * 1024 at its highest OPP, a smaller CPU in proportion to its capacity. Energies from such a
 * model compare runs on the same platform; they are not the device's joules.
 */
long platform_import_assumed_mw(u32 capacity, u32 freq_khz, u32 max_khz)
{
	double r = max_khz ? (double)freq_khz / max_khz : 1.0;
	long mw = lround(1000.0 * capacity / 1024.0 * r * r * r);

	return mw < 1 ? 1 : mw;
}

/* A string literal for SQL: quoted, single quotes doubled. */
static void sql_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static int cmp_cluster(const void *a, const void *b)
{
	const struct pimp_cluster *x = a, *y = b;

	return (x->cpus[0] > y->cpus[0]) - (x->cpus[0] < y->cpus[0]);
}

/* Every CPU 0..nr_cpus-1 in exactly one cluster, every cluster with CPUs and OPPs. */
static int check_shape(const struct plat_import *m, struct gs_error *err)
{
	int owner[GS_MAX_CPUS];

	if (m->nr_cpus < 1 || m->nr_clusters < 1)
		return gs_error_set(err, GS_EINPUT, "'%s': no CPU or no cpufreq policy found",
				    m->source);
	for (int c = 0; c < m->nr_cpus; c++)
		owner[c] = -1;
	for (int i = 0; i < m->nr_clusters; i++) {
		const struct pimp_cluster *cl = &m->clusters[i];
		if (cl->nr_cpus < 1)
			return gs_error_set(err, GS_EINPUT, "'%s': a cpufreq policy without CPUs",
					    m->source);
		if (cl->nr_opps < 1)
			return gs_error_set(err, GS_EINPUT,
					    "'%s': policy of CPU %d: no frequencies (%s)", m->source,
					    cl->cpus[0], cl->source);
		for (int k = 0; k < cl->nr_cpus; k++) {
			int c = cl->cpus[k];
			if (c < 0 || c >= m->nr_cpus)
				return gs_error_set(err, GS_EINPUT,
						    "'%s': CPU %d of a policy is beyond the %d CPUs",
						    m->source, c, m->nr_cpus);
			if (owner[c] >= 0)
				return gs_error_set(err, GS_EINPUT, "'%s': CPU %d is in two policies",
						    m->source, c);
			owner[c] = i;
		}
	}
	for (int c = 0; c < m->nr_cpus; c++)
		if (owner[c] < 0)
			return gs_error_set(err, GS_EINPUT, "'%s': CPU %d is in no cpufreq policy",
					    m->source, c);
	return 0;
}

static u32 capacity_of(const struct plat_import *m, int cpu)
{
	return m->capacity[cpu] ? m->capacity[cpu] : SCHED_CAPACITY_SCALE;
}

static void write_header(FILE *f, const struct plat_import *m)
{
	fprintf(f, "-- %s.sql - imported by 'govsim platforms import' from %s.\n", m->name,
		m->source);
	fputs("-- Each row's source names the file its numbers come from, or the rule that gave\n"
	      "-- what no file states (ASSUMED ...; docs/platform-import.md).\n\n",
	      f);
	fputs("INSERT INTO platform (name, description, cost_unit, source) VALUES\n(", f);
	sql_str(f, m->name);
	fputs(", ", f);
	sql_str(f, m->description);
	fputs(", ", f);
	sql_str(f, m->has_costs ? "mW (LISA nrg-model)" : "mW");
	fputs(", ", f);
	sql_str(f, m->source);
	fputs(");\n\n", f);
	if (m->freq_invariant >= 0) {
		fprintf(f, "INSERT INTO frequency_invariance (freq_invariant, source) VALUES\n(%d, ",
			m->freq_invariant);
		sql_str(f, m->fi_source);
		fputs(");\n\n", f);
	}
	if (m->dvfs_any_cpu >= 0) {
		fputs("INSERT INTO cpufreq_driver (name, dvfs_possible_from_any_cpu, source) VALUES\n(",
		      f);
		sql_str(f, m->driver);
		fprintf(f, ", %d, ", m->dvfs_any_cpu);
		sql_str(f, m->driver_source);
		fputs(");\n\n", f);
	}
}

/*
 * Whether a cpufreq driver lets any CPU change a policy's frequency (its init sets
 * policy->dvfs_possible_from_any_cpu); -1 for a driver not listed here. From the drivers'
 * cpu_init functions in drivers/cpufreq/ (v5.10 to 7.2).
 */
int platform_import_driver_dvfs_any_cpu(const char *driver)
{
	static const struct {
		const char *name;
		int any;
	} drivers[] = {
		{"acpi-cpufreq", 0}, /* acpi_cpufreq_cpu_init(): not set */
		{"cpufreq-dt", 1},   /* cpufreq_init() */
		{"cppc_cpufreq", 1}, /* cppc_cpufreq_cpu_init() */
		{"scmi", 1},         /* scmi_cpufreq_init() */
		{"qcom-cpufreq-hw", 1}, /* qcom_cpufreq_hw_cpu_init() */
	};

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i].name, driver) == 0)
			return drivers[i].any;
	return -1;
}

static void write_cpus(FILE *f, const struct plat_import *m, const struct pimp_cluster *cl)
{
	char src[PIMP_SOURCE_MAX + 64];

	fputs("INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, "
	      "source) VALUES\n",
	      f);
	for (int i = 0; i < m->nr_clusters; i++) {
		long lat = m->latency_override_ns >= 0 ? m->latency_override_ns
						       : cl[i].transition_latency_ns;
		const char *why = m->latency_override_ns >= 0
					  ? "; transition latency given on the command line"
				  : cl[i].transition_latency_ns < 0
					  ? "; transition latency not given: ASSUMED 0 ns (fast switch)"
					  : "";
		snprintf(src, sizeof(src), "%s%s", cl[i].source, why);
		fprintf(f, "%s(%d, 'policy%d', %ld, NULL, ", i ? ",\n" : "", i, cl[i].cpus[0],
			lat < 0 ? 0 : lat);
		sql_str(f, src);
		fputc(')', f);
	}
	fputs(";\n\nINSERT INTO cpus (cpu, capacity, source) VALUES\n", f);
	for (int c = 0; c < m->nr_cpus; c++) {
		fprintf(f, "%s(%d, %u, ", c ? ",\n" : "", c, capacity_of(m, c));
		sql_str(f, m->capacity[c] ? m->capacity_source[c]
					  : "no capacity given: ASSUMED 1024 (symmetric CPUs)");
		fputc(')', f);
	}
	fputs(";\n\nINSERT INTO cluster_cpus (cluster, cpu, source) VALUES\n", f);
	for (int i = 0, n = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < cl[i].nr_cpus; k++, n++) {
			fprintf(f, "%s(%d, %d, ", n ? ",\n" : "", i, cl[i].cpus[k]);
			sql_str(f, cl[i].source);
			fputc(')', f);
		}
	fputs(";\n\n", f);
}

static void write_opps(FILE *f, const struct plat_import *m, const struct pimp_cluster *cl)
{
	char src[PIMP_SOURCE_MAX + 128];

	fputs("INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES\n",
	      f);
	for (int i = 0, n = 0; i < m->nr_clusters; i++) {
		u32 max_khz = cl[i].opps[cl[i].nr_opps - 1].freq_khz;
		u32 cap = capacity_of(m, cl[i].cpus[0]);
		for (int k = 0; k < cl[i].nr_opps; k++, n++) {
			const struct pimp_opp *o = &cl[i].opps[k];
			long mw = o->power_mw;
			if (mw > 0)
				snprintf(src, sizeof(src), "%s", o->source);
			else {
				mw = platform_import_assumed_mw(cap, o->freq_khz, max_khz);
				snprintf(src, sizeof(src),
					 "%s; no power given: em power ASSUMED 1000 mW x "
					 "capacity/1024 x (f/fmax)^3",
					 o->source);
			}
			fprintf(f, "%s(%d, %u, NULL, %ld, ", n ? ",\n" : "", i, o->freq_khz, mw);
			sql_str(f, src);
			fputc(')', f);
		}
	}
	fputs(";\n\n", f);
}

static void write_idle(FILE *f, const struct plat_import *m, const struct pimp_cluster *cl)
{
	int n = 0;

	for (int i = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < cl[i].nr_idle; k++, n++) {
			const struct pimp_idle *s = &cl[i].idle[k];
			char src[PIMP_SOURCE_MAX + 96];

			if (!n)
				fputs("INSERT INTO idle_states (cluster, idx, name, level, "
				      "entry_latency_us, exit_latency_us, wakeup_latency_us, "
				      "min_residency_us, source) VALUES\n",
				      f);
			snprintf(src, sizeof(src), "%s%s", s->source,
				 s->wakeup_latency_us < 0 || s->min_residency_us < 0
					 ? "; latency and residency not given: ASSUMED 0 us"
					 : "");
			fprintf(f, "%s(%d, %d, ", n ? ",\n" : "", i, k);
			sql_str(f, s->name);
			fprintf(f, ", '%s', NULL, NULL, %ld, %ld, ", s->cluster_level ? "cluster" : "cpu",
				s->wakeup_latency_us < 0 ? 0 : s->wakeup_latency_us,
				s->min_residency_us < 0 ? 0 : s->min_residency_us);
			sql_str(f, src);
			fputc(')', f);
		}
	if (n)
		fputs(";\n\n", f);
}

/* EAS v1 costs (LISA nrg-model): per-CPU busy rows for every OPP, idle rows per state. */
static void write_costs(FILE *f, const struct plat_import *m, const struct pimp_cluster *cl)
{
	int n = 0;

	if (!m->has_costs)
		return;
	fputs("INSERT INTO cost_busy (cluster, level, freq_khz, capacity, power, source) VALUES\n",
	      f);
	for (int i = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < cl[i].nr_opps; k++, n++) {
			const struct pimp_opp *o = &cl[i].opps[k];
			fprintf(f, "%s(%d, 'cpu', %u, %ld, %ld, ", n ? ",\n" : "", i, o->freq_khz,
				lround(o->cost_capacity), o->cost_power);
			sql_str(f, o->source);
			fputc(')', f);
		}
	fputs(";\n\n", f);
	n = 0;
	for (int i = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < cl[i].nr_idle; k++) {
			const struct pimp_idle *s = &cl[i].idle[k];
			if (s->cost_power < 0)
				continue;
			if (!n++)
				fputs("INSERT INTO cost_idle (cluster, level, idx, power, source) "
				      "VALUES\n",
				      f);
			else
				fputs(",\n", f);
			fprintf(f, "(%d, 'cpu', %d, %ld, ", i, k, s->cost_power);
			sql_str(f, s->source);
			fputc(')', f);
		}
	if (n)
		fputs(";\n", f);
}

/* A model with costs needs a cost row per OPP: drop the costs when one is missing. */
static bool costs_complete(const struct plat_import *m)
{
	for (int i = 0; i < m->nr_clusters; i++)
		for (int k = 0; k < m->clusters[i].nr_opps; k++)
			if (m->clusters[i].opps[k].cost_capacity < 0)
				return false;
	return true;
}

int platform_import_sql(const struct plat_import *m, char **sql, struct gs_error *err)
{
	struct pimp_cluster *cl;
	struct plat_import *copy;
	size_t len = 0;
	FILE *f;
	int rc;

	*sql = NULL;
	if ((rc = check_shape(m, err)))
		return rc;
	copy = malloc(sizeof(*copy));
	if (!copy)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	memcpy(copy, m, sizeof(*copy));
	cl = copy->clusters;
	qsort(cl, (size_t)copy->nr_clusters, sizeof(*cl), cmp_cluster);
	if (copy->has_costs && !costs_complete(copy))
		copy->has_costs = false;
	f = open_memstream(sql, &len);
	if (!f) {
		free(copy);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	write_header(f, copy);
	write_cpus(f, copy, cl);
	write_opps(f, copy, cl);
	write_idle(f, copy, cl);
	write_costs(f, copy, cl);
	rc = ferror(f);
	if (fclose(f) || rc) {
		free(*sql);
		*sql = NULL;
		free(copy);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	free(copy);
	return 0;
}
