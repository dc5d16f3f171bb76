/*
 * platform.c - load a platform model from SQL into SQLite, validate it, fill struct platform.
 *
 * Follows Linux v5.9 where it derives numbers: the EM power of an OPP as drivers/opp/of.c
 * _get_power(), the EM cost as kernel/power/energy_model.c em_create_perf_table(), the capacity at
 * an OPP as drivers/base/arch_topology.c (cpu_scale * freq_scale >> 10), the cpuidle exit latency
 * as drivers/cpuidle/dt_idle_states.c init_state_node(). See models/schema.sql for the tables.
 *
 * Every rule failure names the table, the row (by its key columns, as written in the file) and
 * the rule; the caller's struct platform is only written once the whole model is valid.
 */
#include "power/platform.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embedded.h"

#define SCHEMA_FILE "schema.sql"

u32 em_opp_power_mw(u32 dyn_power_coeff, u32 volt_uv, u32 freq_khz)
{
	/*
	 * _get_power(): mV = uV / 1000 and MHz = Hz / 1000000 (both truncated; Hz = kHz * 1000, so
	 * MHz = kHz / 1000), then P = C * mV^2 * MHz / 1e9 mW, truncated. Saturates instead of
	 * wrapping for absurd inputs, which the EM_MAX_POWER rule then rejects.
	 */
	u64 mv = volt_uv / 1000, mhz = freq_khz / 1000, p;

	if (__builtin_mul_overflow((u64)dyn_power_coeff, mv, &p) ||
	    __builtin_mul_overflow(p, mv, &p) || __builtin_mul_overflow(p, mhz, &p))
		return UINT32_MAX;
	p /= 1000000000ULL;
	return p > UINT32_MAX ? UINT32_MAX : (u32)p;
}

u32 em_opp_cost(u32 max_khz, u32 power_mw, u32 freq_khz)
{
	/* em_create_perf_table(): cost = fmax * power / freq, div64_u64, so truncated. */
	u64 cost;

	if (!freq_khz)
		return 0;
	cost = (u64)max_khz * power_mw / freq_khz;
	return cost > UINT32_MAX ? UINT32_MAX : (u32)cost;
}

u32 plat_opp_capacity(u32 cpu_scale, u32 freq_khz, u32 max_khz)
{
	u64 freq_scale;

	if (!max_khz)
		return 0;
	freq_scale = ((u64)freq_khz << SCHED_CAPACITY_SHIFT) / max_khz;
	return (u32)(((u64)cpu_scale * freq_scale) >> SCHED_CAPACITY_SHIFT);
}

int plat_cluster_opp_index(const struct plat_cluster *c, u32 freq_khz)
{
	for (int i = 0; i < c->nr_opps; i++)
		if (c->opps[i].freq_khz == freq_khz)
			return i;
	return -1;
}

/* --- built-in models ------------------------------------------------------------------------ */

static const char *builtin_names[16];
static char builtin_name_buf[16][64];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void builtin_names_init(void)
{
	size_t n = 0;

	for (const struct embedded_file *f = govsim_embedded_files; f->name; f++) {
		size_t len = strlen(f->name);
		if (len < 5 || strcmp(f->name + len - 4, ".sql") != 0 ||
		    strcmp(f->name, SCHEMA_FILE) == 0)
			continue;
		if (n + 1 >= GS_ARRAY_SIZE(builtin_names) || len - 4 >= sizeof(builtin_name_buf[0]))
			continue;
		memcpy(builtin_name_buf[n], f->name, len - 4);
		builtin_name_buf[n][len - 4] = '\0';
		builtin_names[n] = builtin_name_buf[n];
		n++;
	}
	qsort(builtin_names, n, sizeof(builtin_names[0]), cmp_str);
	builtin_names[n] = NULL;
}

const char *const *platform_builtin_names(void)
{
	pthread_once(&builtin_once, builtin_names_init);
	return builtin_names;
}

static const struct embedded_file *embedded_find(const char *base)
{
	for (const struct embedded_file *f = govsim_embedded_files; f->name; f++)
		if (strcmp(f->name, base) == 0)
			return f;
	return NULL;
}

/* --- running SQL text ------------------------------------------------------------------------ */

/* Skips blanks and SQL comments; returns the first byte of the next token. */
static const char *skip_blank(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

static int line_of(const char *text, const char *at)
{
	int line = 1;
	for (const char *p = text; p < at && *p; p++)
		if (*p == '\n')
			line++;
	return line;
}

/*
 * Runs every statement of `sql`, one at a time so that a failure can name its line. An error is
 * GS_EMODEL with SQLite's own message: "'copy.sql':12: near \"INSERTT\": syntax error".
 */
static int exec_sql(sqlite3 *db, const char *label, const char *sql, struct gs_error *err)
{
	const char *p = sql;

	while (*(p = skip_blank(p))) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(db, p, -1, &st, &tail);

		if (rc != SQLITE_OK) {
			int off = sqlite3_error_offset(db);
			const char *at = off >= 0 ? p + off : p;
			return gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, at),
					    sqlite3_errmsg(db));
		}
		if (!st) /* only a comment or a lone ';' */
			break;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		if (rc != SQLITE_DONE) {
			gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, p),
				     sqlite3_errmsg(db));
			sqlite3_finalize(st);
			return GS_EMODEL;
		}
		sqlite3_finalize(st);
		p = tail;
	}
	return 0;
}

/* --- validation --------------------------------------------------------------------------- */

struct loader {
	sqlite3 *db;
	const char *label;
	struct gs_error *err;
	struct platform *p;
	int cpu_cluster[GS_MAX_CPUS]; /* -1 until cluster_cpus places the CPU */
	u32 cpu_capacity[GS_MAX_CPUS];
	bool cpu_seen[GS_MAX_CPUS];
	bool idle_cost_seen[GS_MAX_CLUSTERS][2][GS_MAX_IDLE_STATES];
};

static int model_error(struct loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "'label': <message>", GS_EMODEL. */
static int model_error(struct loader *l, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return gs_error_set(l->err, GS_EMODEL, "'%s': %s", l->label, msg);
}

static int prepare(struct loader *l, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(l->db, sql, -1, st, NULL) != SQLITE_OK)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

/* The end of a query: SQLITE_DONE is fine, anything else is an error naming SQLite's reason. */
static int step_done(struct loader *l, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

/* The column as the file wrote it, for naming a row. */
static const char *coltxt(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "NULL";
}

static bool col_is_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

/* An integer column within [lo, hi]; false when it is NULL, not an integer or out of range. */
static bool col_int(sqlite3_stmt *st, int i, s64 lo, s64 hi, s64 *v)
{
	if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
		return false;
	*v = sqlite3_column_int64(st, i);
	return *v >= lo && *v <= hi;
}

/* Copies a text column into buf; false when NULL or too long. */
static bool col_str(sqlite3_stmt *st, int i, char *buf, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t || strlen((const char *)t) >= size)
		return false;
	strcpy(buf, (const char *)t);
	return true;
}

static int bad_int(struct loader *l, const char *row, const char *col, s64 lo, s64 hi)
{
	return model_error(l, "%s: %s must be an integer in %lld..%lld", row, col, (long long)lo,
			   (long long)hi);
}

static int load_platform_row(struct loader *l)
{
	sqlite3_stmt *st;
	int rc, n = 0;

	if ((rc = prepare(l, "SELECT name, description, cost_unit FROM platform ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char row[160];
		snprintf(row, sizeof(row), "platform row name='%s'", coltxt(st, 0));
		if (++n > 1) {
			sqlite3_finalize(st);
			return model_error(l, "%s: more than one platform row", row);
		}
		if (!col_str(st, 0, l->p->name, sizeof(l->p->name)) || !l->p->name[0])
			rc = model_error(l, "%s: name must be 1..%zu characters", row,
					 sizeof(l->p->name) - 1);
		else if (!col_str(st, 1, l->p->description, sizeof(l->p->description)))
			rc = model_error(l, "%s: description longer than %zu characters", row,
					 sizeof(l->p->description) - 1);
		else if (!col_str(st, 2, l->p->cost_unit, sizeof(l->p->cost_unit)))
			rc = model_error(l, "%s: cost_unit longer than %zu characters", row,
					 sizeof(l->p->cost_unit) - 1);
		if (rc != SQLITE_ROW) {
			sqlite3_finalize(st);
			return rc;
		}
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	if (n == 0)
		return model_error(l, "platform: no row (exactly one is needed)");
	return 0;
}

static int load_clusters(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, name, transition_latency_ns, dyn_power_coeff "
			     "FROM clusters ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_cluster *c = &p->clusters[p->nr_clusters];
		char row[128];
		s64 v = 0;

		snprintf(row, sizeof(row), "clusters row cluster=%s", coltxt(st, 0));
		rc = 0;
		if (p->nr_clusters >= GS_MAX_CLUSTERS)
			rc = model_error(l, "%s: more than %d clusters", row, GS_MAX_CLUSTERS);
		else if (!col_int(st, 0, 0, GS_MAX_CLUSTERS - 1, &v) || v != p->nr_clusters)
			rc = model_error(l, "%s: cluster ids must be 0, 1, ... in row order "
					    "(expected %d)",
					 row, p->nr_clusters);
		else if (!col_str(st, 1, c->name, sizeof(c->name)))
			rc = model_error(l, "%s: name longer than %zu characters", row,
					 sizeof(c->name) - 1);
		if (!rc) {
			c->id = (int)v;
			if (!col_int(st, 2, 0, UINT32_MAX, &v))
				rc = bad_int(l, row, "transition_latency_ns", 0, UINT32_MAX);
			else
				c->transition_latency_ns = (u32)v;
		}
		if (!rc && !col_is_null(st, 3)) {
			if (!col_int(st, 3, 0, UINT32_MAX, &v))
				rc = bad_int(l, row, "dyn_power_coeff", 0, UINT32_MAX);
			else
				c->dyn_power_coeff = (u32)v;
		}
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		p->nr_clusters++;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	if (p->nr_clusters == 0)
		return model_error(l, "clusters: no row (at least one cluster is needed)");
	return 0;
}

static int load_cpus(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc, max_cpu = -1, n = 0;
	u32 max_cap = 0;

	if ((rc = prepare(l, "SELECT cpu, capacity FROM cpus ORDER BY rowid", &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char row[128];
		s64 cpu = 0, cap = 0;

		snprintf(row, sizeof(row), "cpus row cpu=%s", coltxt(st, 0));
		rc = 0;
		if (!col_int(st, 0, 0, GS_MAX_CPUS - 1, &cpu))
			rc = bad_int(l, row, "cpu", 0, GS_MAX_CPUS - 1);
		else if (l->cpu_seen[cpu])
			rc = model_error(l, "%s: cpu listed twice", row);
		else if (!col_int(st, 1, 1, SCHED_CAPACITY_SCALE, &cap))
			rc = model_error(l, "%s: capacity %s not in 1..%ld", row, coltxt(st, 1),
					 SCHED_CAPACITY_SCALE);
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		l->cpu_seen[cpu] = true;
		l->cpu_capacity[cpu] = (u32)cap;
		if (cpu > max_cpu)
			max_cpu = (int)cpu;
		if ((u32)cap > max_cap)
			max_cap = (u32)cap;
		n++;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	if (n == 0)
		return model_error(l, "cpus: no row (at least one cpu is needed)");
	for (int cpu = 0; cpu <= max_cpu; cpu++)
		if (!l->cpu_seen[cpu])
			return model_error(l, "cpus: cpu %d missing (cpu ids must be 0..%d)", cpu,
					   max_cpu);
	if (max_cap != SCHED_CAPACITY_SCALE)
		return model_error(l, "cpus: no cpu has capacity %ld (the largest is %u)",
				   SCHED_CAPACITY_SCALE, max_cap);
	p->nr_cpus = n;
	for (int cpu = 0; cpu < n; cpu++) {
		p->cpus[cpu].id = cpu;
		p->cpus[cpu].capacity = l->cpu_capacity[cpu];
		p->cpus[cpu].cluster = -1;
	}
	return 0;
}

static int load_cluster_cpus(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, cpu FROM cluster_cpus ORDER BY rowid", &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char row[128];
		s64 cl = 0, cpu = 0;

		snprintf(row, sizeof(row), "cluster_cpus row cluster=%s cpu=%s", coltxt(st, 0),
			 coltxt(st, 1));
		rc = 0;
		if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
			rc = model_error(l, "%s: no such cluster", row);
		else if (!col_int(st, 1, 0, p->nr_cpus - 1, &cpu))
			rc = model_error(l, "%s: no such cpu", row);
		else if (p->cpus[cpu].cluster >= 0)
			rc = model_error(l, "%s: cpu %lld is already in the policy of cluster %d "
					    "(every cpu must be in exactly one policy)",
					 row, (long long)cpu, p->cpus[cpu].cluster);
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		p->cpus[cpu].cluster = (int)cl;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;

	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct plat_cluster *c;
		if (p->cpus[cpu].cluster < 0)
			return model_error(l, "cpus row cpu=%d: cpu in no policy (no cluster_cpus "
					      "row; every cpu must be in exactly one policy)",
					   cpu);
		c = &p->clusters[p->cpus[cpu].cluster];
		if (c->nr_cpus && p->cpus[c->cpus[0]].capacity != p->cpus[cpu].capacity)
			return model_error(l, "cpus row cpu=%d: capacity %u differs from cpu %d's %u "
					      "in the same cluster %d",
					   cpu, p->cpus[cpu].capacity, c->cpus[0],
					   p->cpus[c->cpus[0]].capacity, c->id);
		c->cpus[c->nr_cpus++] = cpu; /* ascending, as cpu ascends */
	}
	for (int i = 0; i < p->nr_clusters; i++)
		if (p->clusters[i].nr_cpus == 0)
			return model_error(l, "clusters row cluster=%d: no cpus (no cluster_cpus row)",
					   i);
	return 0;
}

static int load_opps(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, freq_khz, volt_uv, em_power_mw_given FROM opps "
			     "ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_cluster *c = NULL;
		struct plat_opp *o, *prev;
		char row[128];
		s64 cl = 0, khz = 0, uv = 0, given = 0;

		snprintf(row, sizeof(row), "opps row cluster=%s freq_khz=%s", coltxt(st, 0),
			 coltxt(st, 1));
		rc = 0;
		if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl)) {
			rc = model_error(l, "%s: no such cluster", row);
			goto out_row;
		}
		c = &p->clusters[cl];
		o = &c->opps[c->nr_opps];
		prev = c->nr_opps ? o - 1 : NULL;
		if (c->nr_opps >= GS_MAX_OPPS)
			rc = model_error(l, "%s: more than %d opps in the cluster", row, GS_MAX_OPPS);
		else if (!col_int(st, 1, 1, UINT32_MAX, &khz))
			rc = bad_int(l, row, "freq_khz", 1, UINT32_MAX);
		else if (prev && khz <= prev->freq_khz)
			rc = model_error(l, "%s: frequencies not strictly increasing", row);
		else if (!col_is_null(st, 2) && !col_int(st, 2, 1, UINT32_MAX, &uv))
			rc = bad_int(l, row, "volt_uv", 1, UINT32_MAX);
		else if (uv && prev && prev->volt_uv && uv < prev->volt_uv)
			rc = model_error(l, "%s: voltages decrease (%lld uV after %u uV)", row,
					 (long long)uv, prev->volt_uv);
		if (rc)
			goto out_row;
		o->freq_khz = (u32)khz;
		o->volt_uv = (u32)uv;

		if (c->dyn_power_coeff) {
			if (!col_is_null(st, 3))
				rc = model_error(l, "%s: em_power_mw_given is set but cluster %d has a "
						    "dyn_power_coeff (the em power is derived from it)",
						 row, c->id);
			else if (!uv)
				rc = model_error(l, "%s: no volt_uv to derive the em power from", row);
			else
				o->em_power_mw = em_opp_power_mw(c->dyn_power_coeff, o->volt_uv,
								 o->freq_khz);
		} else if (col_is_null(st, 3)) {
			rc = model_error(l, "%s: no em power: cluster %d has no dyn_power_coeff and "
					    "em_power_mw_given is NULL",
					 row, c->id);
		} else if (!col_int(st, 3, INT64_MIN, INT64_MAX, &given)) {
			rc = model_error(l, "%s: em_power_mw_given must be an integer", row);
		} else {
			o->em_power_mw = given < 0 ? 0 : given > UINT32_MAX ? UINT32_MAX : (u32)given;
		}
		if (rc)
			goto out_row;
		if (o->em_power_mw == 0)
			rc = model_error(l, "%s: em power %u mW is not positive", row, o->em_power_mw);
		else if (o->em_power_mw > EM_MAX_POWER)
			rc = model_error(l, "%s: em power %u mW above EM_MAX_POWER (%u mW)", row,
					 o->em_power_mw, EM_MAX_POWER);
		else if (prev && o->em_power_mw < prev->em_power_mw)
			rc = model_error(l, "%s: em power decreases with frequency (%u mW after %u mW)",
					 row, o->em_power_mw, prev->em_power_mw);
	out_row:
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		c->nr_opps++;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;

	/* Derived per-OPP values, once each cluster's max frequency is known. */
	for (int i = 0; i < p->nr_clusters; i++) {
		struct plat_cluster *c = &p->clusters[i];
		u32 max_khz, cpu_scale = p->cpus[c->cpus[0]].capacity;

		if (c->nr_opps == 0)
			return model_error(l, "clusters row cluster=%d: no opps", i);
		max_khz = plat_cluster_max_khz(c);
		for (int k = 0; k < c->nr_opps; k++) {
			struct plat_opp *o = &c->opps[k];
			o->capacity = plat_opp_capacity(cpu_scale, o->freq_khz, max_khz);
			o->em_cost = em_opp_cost(max_khz, o->em_power_mw, o->freq_khz);
			if (o->capacity < 1)
				return model_error(l, "opps row cluster=%d freq_khz=%u: capacity at the "
						      "OPP %u not in 1..%ld",
						   i, o->freq_khz, o->capacity, SCHED_CAPACITY_SCALE);
			if (k && o->capacity <= c->opps[k - 1].capacity)
				return model_error(l, "opps row cluster=%d freq_khz=%u: capacity at the "
						      "OPP %u not increasing (%u at %u kHz)",
						   i, o->freq_khz, o->capacity,
						   c->opps[k - 1].capacity, c->opps[k - 1].freq_khz);
		}
	}
	return 0;
}

/* The level column: 0 for 'cpu', 1 for 'cluster'; false (and *level 0) for anything else. */
static bool col_level(sqlite3_stmt *st, int i, int *level)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	*level = 0;
	if (t && strcmp((const char *)t, "cpu") == 0)
		return true;
	if (t && strcmp((const char *)t, "cluster") == 0) {
		*level = 1;
		return true;
	}
	return false;
}

static int load_idle_states(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, idx, name, level, entry_latency_us, "
			     "exit_latency_us, wakeup_latency_us, min_residency_us "
			     "FROM idle_states ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_cluster *c = NULL;
		struct plat_idle_state *s = NULL;
		char row[128];
		s64 cl = 0, idx = 0, entry = 0, ex = 0, wakeup = 0, res = 0;
		int level = 0;

		snprintf(row, sizeof(row), "idle_states row cluster=%s idx=%s", coltxt(st, 0),
			 coltxt(st, 1));
		rc = 0;
		if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl)) {
			rc = model_error(l, "%s: no such cluster", row);
			goto out_row;
		}
		c = &p->clusters[cl];
		s = &c->idle[c->nr_idle];
		if (c->nr_idle >= GS_MAX_IDLE_STATES)
			rc = model_error(l, "%s: more than %d idle states in the cluster", row,
					 GS_MAX_IDLE_STATES);
		else if (!col_int(st, 1, 0, GS_MAX_IDLE_STATES - 1, &idx) || idx != c->nr_idle)
			rc = model_error(l, "%s: idle state indices must be 0, 1, ... in row order "
					    "(expected %d)",
					 row, c->nr_idle);
		else if (!col_str(st, 2, s->name, sizeof(s->name)) || !s->name[0])
			rc = model_error(l, "%s: name must be 1..%zu characters", row,
					 sizeof(s->name) - 1);
		else if (!col_level(st, 3, &level))
			rc = model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
		else if (idx == 0 && level != 0)
			rc = model_error(l, "%s: state 0 (WFI) must be a cpu-level state", row);
		else if (!col_int(st, 7, 0, UINT32_MAX, &res))
			rc = bad_int(l, row, "min_residency_us", 0, UINT32_MAX);
		if (rc)
			goto out_row;
		if (!col_is_null(st, 6)) {
			/* dt_idle_states.c: wakeup-latency-us, when present, is the exit latency. */
			if (!col_int(st, 6, 0, UINT32_MAX, &wakeup))
				rc = bad_int(l, row, "wakeup_latency_us", 0, UINT32_MAX);
			else
				s->exit_latency_us = (u32)wakeup;
		} else if (!col_int(st, 4, 0, UINT32_MAX / 2, &entry)) {
			rc = model_error(l, "%s: entry_latency_us and exit_latency_us are needed when "
					    "wakeup_latency_us is NULL",
					 row);
		} else if (!col_int(st, 5, 0, UINT32_MAX / 2, &ex)) {
			rc = model_error(l, "%s: entry_latency_us and exit_latency_us are needed when "
					    "wakeup_latency_us is NULL",
					 row);
		} else {
			/* ... otherwise entry + exit. */
			s->exit_latency_us = (u32)(entry + ex);
		}
	out_row:
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		s->index = (int)idx;
		s->cluster_level = level == 1;
		s->target_residency_us = (u32)res;
		c->nr_idle++;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	for (int i = 0; i < p->nr_clusters; i++)
		if (p->clusters[i].nr_idle == 0)
			return model_error(l, "clusters row cluster=%d: no idle states (state 0, WFI, "
					      "is needed)",
					   i);
	return 0;
}

static int load_cost_busy(struct loader *l)
{
	struct platform *p = l->p;
	int count[GS_MAX_CLUSTERS][2] = {{0}};
	u32 prev_cap[GS_MAX_CLUSTERS][2] = {{0}}, prev_pow[GS_MAX_CLUSTERS][2] = {{0}};
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, level, freq_khz, capacity, power FROM cost_busy "
			     "ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_cluster *c = NULL;
		char row[160];
		s64 cl = 0, khz = 0, cap = 0, pow = 0;
		int level = 0, k = -1;

		snprintf(row, sizeof(row), "cost_busy row cluster=%s level=%s freq_khz=%s",
			 coltxt(st, 0), coltxt(st, 1), coltxt(st, 2));
		rc = 0;
		if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl)) {
			rc = model_error(l, "%s: no such cluster", row);
			goto out_row;
		}
		c = &p->clusters[cl];
		if (!col_level(st, 1, &level))
			rc = model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
		else if (!col_int(st, 2, 1, UINT32_MAX, &khz) ||
			 (k = plat_cluster_opp_index(c, (u32)khz)) < 0)
			rc = model_error(l, "%s: no such opp in cluster %d", row, c->id);
		else if (k != count[cl][level])
			rc = model_error(l, "%s: entries must follow the cluster's opps in order, one "
					    "each (expected freq_khz=%u)",
					 row,
					 count[cl][level] < c->nr_opps
						 ? c->opps[count[cl][level]].freq_khz
						 : 0);
		else if (!col_int(st, 3, 1, SCHED_CAPACITY_SCALE, &cap))
			rc = model_error(l, "%s: capacity %s not in 1..%ld", row, coltxt(st, 3),
					 SCHED_CAPACITY_SCALE);
		else if (k > 0 && cap <= prev_cap[cl][level])
			rc = model_error(l, "%s: capacity %lld not increasing (%u before)", row,
					 (long long)cap, prev_cap[cl][level]);
		else if (!col_int(st, 4, INT64_MIN, INT64_MAX, &pow))
			rc = model_error(l, "%s: power must be an integer", row);
		else if (pow <= 0 || pow > UINT32_MAX)
			rc = model_error(l, "%s: power %lld is not positive", row, (long long)pow);
		else if (k > 0 && pow < prev_pow[cl][level])
			rc = model_error(l, "%s: power decreases with frequency (%lld after %u)", row,
					 (long long)pow, prev_pow[cl][level]);
	out_row:
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		if (level == 0)
			c->opps[k].cost_cpu_busy = (u32)pow;
		else
			c->opps[k].cost_cluster_busy = (u32)pow;
		prev_cap[cl][level] = (u32)cap;
		prev_pow[cl][level] = (u32)pow;
		count[cl][level]++;
		p->has_costs = true;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	for (int i = 0; i < p->nr_clusters; i++)
		for (int level = 0; level < 2; level++)
			if (count[i][level] && count[i][level] != p->clusters[i].nr_opps)
				return model_error(l, "cost_busy: cluster %d level %s has %d entries "
						      "for %d opps",
						   i, level ? "cluster" : "cpu", count[i][level],
						   p->clusters[i].nr_opps);
	return 0;
}

static int load_cost_idle(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cluster, level, idx, power FROM cost_idle ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_cluster *c = NULL;
		char row[160];
		s64 cl = 0, idx = 0, pow = 0;
		int level = 0;

		snprintf(row, sizeof(row), "cost_idle row cluster=%s level=%s idx=%s",
			 coltxt(st, 0), coltxt(st, 1), coltxt(st, 2));
		rc = 0;
		if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl)) {
			rc = model_error(l, "%s: no such cluster", row);
			goto out_row;
		}
		c = &p->clusters[cl];
		if (!col_level(st, 1, &level))
			rc = model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
		else if (!col_int(st, 2, 0, c->nr_idle - 1, &idx))
			rc = model_error(l, "%s: no such idle state in cluster %d", row, c->id);
		else if (l->idle_cost_seen[cl][level][idx])
			rc = model_error(l, "%s: listed twice", row);
		else if (!col_int(st, 3, 0, UINT32_MAX, &pow))
			rc = model_error(l, "%s: power %s must be a non-negative integer", row,
					 coltxt(st, 3));
	out_row:
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		l->idle_cost_seen[cl][level][idx] = true;
		if (level == 0)
			c->idle[idx].cost_cpu_idle = (u32)pow;
		else
			c->idle[idx].cost_cluster_idle = (u32)pow;
	}
	return step_done(l, st, rc);
}

/*
 * Checks every rule on the tables of `db` and fills *p. The order of the checks is the order of
 * the dependencies: clusters, cpus, their policies, then what hangs off a cluster.
 */
static int platform_validate_db(sqlite3 *db, const char *label, struct platform *p,
				struct gs_error *err)
{
	struct loader *l = calloc(1, sizeof(*l));
	int rc;

	if (!l)
		return gs_error_set(err, GS_ENOMEM, "out of memory loading '%s'", label);
	l->db = db;
	l->label = label;
	l->err = err;
	l->p = p;
	memset(p, 0, sizeof(*p));

	if (!(rc = load_platform_row(l)) && !(rc = load_clusters(l)) && !(rc = load_cpus(l)) &&
	    !(rc = load_cluster_cpus(l)) && !(rc = load_opps(l)) && !(rc = load_idle_states(l)) &&
	    !(rc = load_cost_busy(l)))
		rc = load_cost_idle(l);
	free(l);
	return rc;
}

/* --- loading ---------------------------------------------------------------------------------- */

int platform_load_sql(const char *label, const char *sql, struct platform *out,
		      struct gs_error *err)
{
	const struct embedded_file *schema = embedded_find(SCHEMA_FILE);
	struct platform *tmp;
	sqlite3 *db = NULL;
	int rc;

	if (!schema)
		return gs_error_set(err, GS_EINTERNAL, "'%s' is not built in", SCHEMA_FILE);
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = gs_error_set(err, GS_ESQL, "cannot open an in-memory database: %s",
				  db ? sqlite3_errmsg(db) : "out of memory");
		goto out_close_db;
	}
	/* A model file only fills tables: it has no business attaching other databases. */
	sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);

	if ((rc = exec_sql(db, SCHEMA_FILE, schema->text, err)))
		goto out_close_db;
	if ((rc = exec_sql(db, label, sql, err)))
		goto out_close_db;

	tmp = malloc(sizeof(*tmp));
	if (!tmp) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory loading '%s'", label);
		goto out_close_db;
	}
	rc = platform_validate_db(db, label, tmp, err);
	if (!rc)
		*out = *tmp;
	free(tmp);
out_close_db:
	sqlite3_close(db);
	return rc;
}

static bool is_path(const char *s)
{
	size_t len = strlen(s);
	return strchr(s, '/') || (len >= 4 && strcmp(s + len - 4, ".sql") == 0);
}

static int read_file(const char *path, char **text, struct gs_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return gs_error_set(err, GS_EMODEL, "'%s': cannot open: %s", path, strerror(errno));
	do {
		if (cap - len < 4096) {
			char *nbuf = realloc(buf, cap = cap ? cap * 2 : 16384);
			if (!nbuf) {
				free(buf);
				fclose(f);
				return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return gs_error_set(err, GS_EIO, "'%s': read error", path);
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return gs_error_set(err, GS_EMODEL, "'%s': not a text file (NUL byte)", path);
	}
	*text = buf;
	return 0;
}

int platform_load(const char *name_or_path, struct platform *out, struct gs_error *err)
{
	const struct embedded_file *f;
	char base[96];
	char *text = NULL;
	int rc;

	if (is_path(name_or_path)) {
		if ((rc = read_file(name_or_path, &text, err)))
			return rc;
		rc = platform_load_sql(name_or_path, text, out, err);
		free(text);
		return rc;
	}
	f = NULL;
	if (strlen(name_or_path) + 5 <= sizeof(base) && strcmp(name_or_path, "schema") != 0) {
		snprintf(base, sizeof(base), "%s.sql", name_or_path);
		f = embedded_find(base);
	}
	if (!f) {
		char names[256] = "";
		for (const char *const *n = platform_builtin_names(); *n; n++) {
			if (names[0])
				strncat(names, ", ", sizeof(names) - strlen(names) - 1);
			strncat(names, *n, sizeof(names) - strlen(names) - 1);
		}
		return gs_error_set(err, GS_EMODEL,
				    "'%s': no such built-in platform (built-in: %s; a model file "
				    "is named by a path ending in .sql)",
				    name_or_path, names);
	}
	return platform_load_sql(base, f->text, out, err);
}
