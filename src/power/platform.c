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
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/embedded.h"

#define SCHEMA_FILE "schema.sql"

/*
 * Bounds on a model (issue #18 item 5): a model is a few thousand rows of short text, so the file,
 * every string or blob, the database and the SQLite work it may take are capped well above that
 * and far below what would hang or exhaust the machine. SQLite's progress handler is called every
 * PLATFORM_SQL_STEP_CHECK virtual-machine steps and stops the load after PLATFORM_SQL_MAX_STEPS in
 * all (a recursive CTE that never ends, a 50-million-row insert).
 */
#define PLATFORM_FILE_MAX       (16u << 20) /* bytes of SQL text */
#define PLATFORM_SQL_LENGTH_MAX (64 << 10)  /* SQLITE_LIMIT_LENGTH: one string or blob */
#define PLATFORM_DB_MAX_PAGES   "16384"     /* x 4096-byte pages: 64 MiB per database */
#define PLATFORM_SQL_STEP_CHECK 10000
#define PLATFORM_SQL_MAX_STEPS  2000000ULL

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

/* The load's SQLite work so far, in progress-handler calls; see PLATFORM_SQL_MAX_STEPS. */
struct sql_budget {
	u64 calls;
	bool exhausted;
};

static int sql_budget_check(void *arg)
{
	struct sql_budget *b = arg;

	if (++b->calls * PLATFORM_SQL_STEP_CHECK <= PLATFORM_SQL_MAX_STEPS)
		return 0;
	b->exhausted = true;
	return 1; /* interrupts the statement */
}

/*
 * A model only creates and fills tables: no PRAGMA (which could lift the bounds), no ATTACH, and
 * none of the functions that make large values in one call, where the progress handler cannot
 * stop them (printf('%.900000000c') loops for seconds even under SQLITE_LIMIT_LENGTH).
 */
static int model_authorizer(void *arg, int action, const char *a, const char *b, const char *c,
			    const char *d)
{
	static const char *const denied[] = {"printf", "format", "zeroblob", "randomblob",
					     "load_extension"};
	(void)arg;
	(void)a;
	(void)c;
	(void)d;
	if (action == SQLITE_PRAGMA || action == SQLITE_ATTACH || action == SQLITE_DETACH)
		return SQLITE_DENY;
	if (action == SQLITE_FUNCTION && b)
		for (size_t i = 0; i < GS_ARRAY_SIZE(denied); i++)
			if (strcasecmp(b, denied[i]) == 0)
				return SQLITE_DENY;
	return SQLITE_OK;
}

/* The message of a failed statement: SQLite's, or the budget's when it stopped the statement. */
static const char *sql_errmsg(sqlite3 *db, const struct sql_budget *budget, char *buf,
			      size_t size)
{
	if (!budget || !budget->exhausted)
		return sqlite3_errmsg(db);
	snprintf(buf, size,
		 "the model's SQL runs too long (stopped after %llu SQLite steps; a model is a "
		 "few thousand rows)",
		 (unsigned long long)PLATFORM_SQL_MAX_STEPS);
	return buf;
}

/*
 * Runs every statement of `sql`, one at a time so that a failure can name its line. An error is
 * GS_EMODEL with SQLite's own message: "'copy.sql':12: near \"INSERTT\": syntax error".
 */
static int exec_sql(sqlite3 *db, const char *label, const char *sql, struct gs_error *err,
		    const struct sql_budget *budget)
{
	const char *p = sql;
	char msg[160];

	while (*(p = skip_blank(p))) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(db, p, -1, &st, &tail);

		if (rc != SQLITE_OK) {
			int off = sqlite3_error_offset(db);
			const char *at = off >= 0 ? p + off : p;
			return gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, at),
					    sql_errmsg(db, budget, msg, sizeof(msg)));
		}
		if (!st) /* only a comment or a lone ';' */
			break;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		if (rc != SQLITE_DONE) {
			gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, p),
				     sql_errmsg(db, budget, msg, sizeof(msg)));
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

/* --- Wattson curves (optional) ----------------------------------------------------------------- */

/* A REAL column: an integer or a finite float, at least `lo`. */
static bool col_real(sqlite3_stmt *st, int i, double lo, double *v)
{
	int t = sqlite3_column_type(st, i);

	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
		return false;
	*v = sqlite3_column_double(st, i);
	return isfinite(*v) && *v >= lo;
}

/* The cluster whose policy is named `policy` (its first CPU), or -1. */
static int cluster_of_policy(const struct platform *p, s64 policy)
{
	for (int c = 0; c < p->nr_clusters; c++)
		if (p->clusters[c].cpus[0] == policy)
			return c;
	return -1;
}

static int cmp_w2d(const void *a, const void *b)
{
	const struct plat_w2d *x = a, *y = b;

	if (x->cluster != y->cluster)
		return x->cluster - y->cluster;
	if (x->opp != y->opp)
		return x->opp - y->opp;
	if (x->dep_cluster != y->dep_cluster)
		return x->dep_cluster - y->dep_cluster;
	return x->dep_khz < y->dep_khz ? -1 : x->dep_khz > y->dep_khz;
}

static int count_rows(struct loader *l, const char *table, int *n)
{
	char sql[96];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if ((rc = prepare(l, sql, &st)))
		return rc;
	*n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return 0;
}

/* The device column of a curve row must be the platform's Wattson device. */
static int check_device(struct loader *l, sqlite3_stmt *st, int i, const char *row)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	if (!t || strcmp((const char *)t, l->p->wattson.device) != 0)
		return model_error(l, "%s: device '%s' is not the wattson_device '%s'", row,
				   coltxt(st, i), l->p->wattson.device);
	return 0;
}

static int load_wattson_device(struct loader *l)
{
	struct plat_wattson *w = &l->p->wattson;
	static const char *const curves[] = {"wattson_cpus", "wattson_idle_map", "wattson_cpu_1d",
					     "wattson_cpu_2d", "wattson_l3"};
	sqlite3_stmt *st;
	int rc, n = 0;

	if ((rc = prepare(l, "SELECT device FROM wattson_device ORDER BY rowid", &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (++n > 1 || !col_str(st, 0, w->device, sizeof(w->device)) || !w->device[0]) {
			rc = model_error(l, "wattson_device row device='%s': %s", coltxt(st, 0),
					 n > 1 ? "more than one wattson_device row"
					       : "device must be 1..31 characters");
			sqlite3_finalize(st);
			return rc;
		}
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	if (n == 1) {
		w->present = true;
		return 0;
	}
	for (size_t i = 0; i < GS_ARRAY_SIZE(curves); i++) {
		int rows = 0;
		if ((rc = count_rows(l, curves[i], &rows)))
			return rc;
		if (rows)
			return model_error(l, "%s: %d rows but no wattson_device row", curves[i], rows);
	}
	return 0;
}

static int load_wattson_cpus(struct loader *l)
{
	struct plat_wattson *w = &l->p->wattson;
	bool seen[GS_MAX_CPUS] = {false};
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT cpu, deep_idle_offset_ns, vote_by_freq FROM wattson_cpus "
			     "ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char row[128];
		s64 cpu = 0, off = 0, vote = 0;

		snprintf(row, sizeof(row), "wattson_cpus row cpu=%s", coltxt(st, 0));
		rc = 0;
		if (!col_int(st, 0, 0, l->p->nr_cpus - 1, &cpu))
			rc = model_error(l, "%s: no such cpu", row);
		else if (seen[cpu])
			rc = model_error(l, "%s: listed twice", row);
		else if (!col_int(st, 1, 0, NSEC_PER_SEC, &off))
			rc = bad_int(l, row, "deep_idle_offset_ns", 0, NSEC_PER_SEC);
		else if (!col_int(st, 2, 0, 1, &vote))
			rc = bad_int(l, row, "vote_by_freq", 0, 1);
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		seen[cpu] = true;
		w->deep_idle_offset_ns[cpu] = (u32)off;
		w->vote_by_freq[cpu] = vote;
	}
	return step_done(l, st, rc);
}

static int load_wattson_idle_map(struct loader *l)
{
	struct plat_wattson *w = &l->p->wattson;
	sqlite3_stmt *st;
	int rc;

	for (int i = 0; i < GS_MAX_IDLE_STATES; i++)
		w->idle_map[i] = -1;
	if ((rc = prepare(l, "SELECT idx, state FROM wattson_idle_map ORDER BY rowid", &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char row[128];
		s64 idx = 0, state = 0;

		snprintf(row, sizeof(row), "wattson_idle_map row idx=%s", coltxt(st, 0));
		rc = 0;
		if (!col_int(st, 0, 0, GS_MAX_IDLE_STATES - 1, &idx))
			rc = bad_int(l, row, "idx", 0, GS_MAX_IDLE_STATES - 1);
		else if (w->idle_map[idx] >= 0)
			rc = model_error(l, "%s: listed twice", row);
		else if (!col_int(st, 1, 0, 1, &state))
			rc = bad_int(l, row, "state", 0, 1);
		if (rc) {
			sqlite3_finalize(st);
			return rc;
		}
		w->idle_map[idx] = (int)state;
		w->has_idle_map = true;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	if (!w->has_idle_map)
		for (int i = 0; i < GS_MAX_IDLE_STATES; i++)
			w->idle_map[i] = i <= 1 ? i : -1;
	return 0;
}

static int load_wattson_1d(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT device, policy, freq_khz, static, active, idle0, idle1 "
			     "FROM wattson_cpu_1d ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		static const char *const cols[] = {"static", "active", "idle0", "idle1"};
		double v[4];
		char row[160];
		s64 policy = 0, khz = 0;
		int c = -1, k = -1;

		snprintf(row, sizeof(row), "wattson_cpu_1d row policy=%s freq_khz=%s", coltxt(st, 1),
			 coltxt(st, 2));
		if ((rc = check_device(l, st, 0, row)))
			goto out_row;
		if (!col_int(st, 1, 0, GS_MAX_CPUS - 1, &policy) ||
		    (c = cluster_of_policy(p, policy)) < 0) {
			rc = model_error(l, "%s: no cpufreq policy %s (a policy is named by its first "
					    "cpu)",
					 row, coltxt(st, 1));
			goto out_row;
		}
		if (!col_int(st, 2, 1, UINT32_MAX, &khz) ||
		    (k = plat_cluster_opp_index(&p->clusters[c], (u32)khz)) < 0) {
			rc = model_error(l, "%s: no such opp in cluster %d", row, c);
			goto out_row;
		}
		if (p->clusters[c].opps[k].w_1d) {
			rc = model_error(l, "%s: listed twice", row);
			goto out_row;
		}
		for (int i = 0; i < 4; i++)
			if (!col_real(st, 3 + i, 0, &v[i])) {
				rc = model_error(l, "%s: %s must be a number >= 0 (mW)", row, cols[i]);
				goto out_row;
			}
		p->clusters[c].opps[k].w_1d = true;
		p->clusters[c].opps[k].w_static_mw = v[0];
		p->clusters[c].opps[k].w_active_mw = v[1];
		p->clusters[c].opps[k].w_idle0_mw = v[2];
		p->clusters[c].opps[k].w_idle1_mw = v[3];
		continue;
	out_row:
		sqlite3_finalize(st);
		return rc;
	}
	return step_done(l, st, rc);
}

/* dep_policy/dep_freq of a 2D or L3 row: another cluster at one of its OPPs, or 255 = the DSU. */
static int col_dep(struct loader *l, sqlite3_stmt *st, int i, int own, const char *row,
		   struct plat_w2d *r)
{
	struct platform *p = l->p;
	s64 dep = 0, khz = 0;
	int c;

	if (!col_int(st, i + 1, 1, UINT32_MAX, &khz))
		return bad_int(l, row, "dep_freq", 1, UINT32_MAX);
	r->dep_khz = (u32)khz;
	if (col_int(st, i, 255, 255, &dep)) {
		r->dep_cluster = PLAT_W_DSU;
		r->dep_opp = -1;
		return 0;
	}
	if (!col_int(st, i, 0, GS_MAX_CPUS - 1, &dep) || (c = cluster_of_policy(p, dep)) < 0)
		return model_error(l, "%s: dep_policy %s is no cpufreq policy (nor 255, the DSU)",
				   row, coltxt(st, i));
	if (c == own)
		return model_error(l, "%s: dep_policy %s is the row's own policy", row,
				   coltxt(st, i));
	r->dep_cluster = (int16_t)c;
	r->dep_opp = (int16_t)plat_cluster_opp_index(&p->clusters[c], (u32)khz);
	if (r->dep_opp < 0)
		return model_error(l, "%s: dep_freq %s is no opp of cluster %d", row, coltxt(st, i + 1),
				   c);
	return 0;
}

static int load_wattson_2d(struct loader *l)
{
	struct platform *p = l->p;
	struct plat_wattson *w = &p->wattson;
	sqlite3_stmt *st;
	int rc;

	if ((rc = prepare(l, "SELECT device, policy, freq_khz, dep_policy, dep_freq, static, "
			     "active, idle0, idle1, interconnect FROM wattson_cpu_2d ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		static const char *const cols[] = {"static", "active", "idle0", "idle1",
						   "interconnect"};
		struct plat_w2d *r = &w->rows2d[w->nr_2d];
		double v[5];
		char row[192];
		s64 policy = 0, khz = 0;
		int c = -1, k = -1;

		snprintf(row, sizeof(row),
			 "wattson_cpu_2d row policy=%s freq_khz=%s dep_policy=%s dep_freq=%s",
			 coltxt(st, 1), coltxt(st, 2), coltxt(st, 3), coltxt(st, 4));
		if (w->nr_2d >= PLAT_W2D_MAX) {
			rc = model_error(l, "%s: more than %d rows", row, PLAT_W2D_MAX);
			goto out_row;
		}
		if ((rc = check_device(l, st, 0, row)))
			goto out_row;
		if (!col_int(st, 1, 0, GS_MAX_CPUS - 1, &policy) ||
		    (c = cluster_of_policy(p, policy)) < 0) {
			rc = model_error(l, "%s: no cpufreq policy %s (a policy is named by its first "
					    "cpu)",
					 row, coltxt(st, 1));
			goto out_row;
		}
		if (!col_int(st, 2, 1, UINT32_MAX, &khz) ||
		    (k = plat_cluster_opp_index(&p->clusters[c], (u32)khz)) < 0) {
			rc = model_error(l, "%s: no such opp in cluster %d", row, c);
			goto out_row;
		}
		if (p->clusters[c].opps[0].w_1d) {
			rc = model_error(l, "%s: cluster %d has 1D curves already (a policy's curves "
					    "are 1D or 2D)",
					 row, c);
			goto out_row;
		}
		if ((rc = col_dep(l, st, 3, c, row, r)))
			goto out_row;
		for (int i = 0; i < 5; i++)
			if (!col_real(st, 5 + i, 0, &v[i])) {
				rc = model_error(l, "%s: %s must be a number >= 0 (mW)", row, cols[i]);
				goto out_row;
			}
		r->cluster = (int16_t)c;
		r->opp = (int16_t)k;
		r->static_mw = v[0];
		r->active_mw = v[1];
		r->idle0_mw = v[2];
		r->idle1_mw = v[3];
		r->interconnect_mw = v[4];
		p->clusters[c].w_2d = true;
		w->nr_2d++;
		continue;
	out_row:
		sqlite3_finalize(st);
		return rc;
	}
	if ((rc = step_done(l, st, rc)))
		return rc;
	qsort(w->rows2d, (size_t)w->nr_2d, sizeof(w->rows2d[0]), cmp_w2d);
	for (int i = 0; i < w->nr_2d; i++) {
		struct plat_w2d *r = &w->rows2d[i];
		struct plat_cluster *c = &p->clusters[r->cluster];
		if (i && cmp_w2d(r - 1, r) == 0)
			return model_error(l, "wattson_cpu_2d row policy=%d freq_khz=%u dep_policy=%d "
					      "dep_freq=%u: listed twice",
					   c->cpus[0], c->opps[r->opp].freq_khz,
					   r->dep_cluster == PLAT_W_DSU
						   ? 255
						   : p->clusters[r->dep_cluster].cpus[0],
					   r->dep_khz);
		if (!c->w2d_count)
			c->w2d_first = i;
		c->w2d_count++;
	}
	return 0;
}

static int load_wattson_l3(struct loader *l)
{
	struct platform *p = l->p;
	sqlite3_stmt *st;
	int rc, c0 = p->cpus[0].cluster;

	if ((rc = prepare(l, "SELECT device, freq_khz, dep_policy, dep_freq, l3_hit, l3_miss "
			     "FROM wattson_l3 ORDER BY rowid",
			  &st)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct plat_w2d r;
		char row[192];
		double v;
		s64 khz = 0;

		snprintf(row, sizeof(row), "wattson_l3 row freq_khz=%s dep_policy=%s dep_freq=%s",
			 coltxt(st, 1), coltxt(st, 2), coltxt(st, 3));
		if ((rc = check_device(l, st, 0, row)))
			goto out_row;
		if (!col_int(st, 1, 1, UINT32_MAX, &khz) ||
		    plat_cluster_opp_index(&p->clusters[c0], (u32)khz) < 0) {
			rc = model_error(l, "%s: no such opp of cpu 0's cluster %d", row, c0);
			goto out_row;
		}
		if ((rc = col_dep(l, st, 2, c0, row, &r)))
			goto out_row;
		/* fitted values: Tensor G5 has small negative ones */
		if (!col_real(st, 4, -HUGE_VAL, &v) || !col_real(st, 5, -HUGE_VAL, &v)) {
			rc = model_error(l, "%s: l3_hit and l3_miss must be numbers (nJ)", row);
			goto out_row;
		}
		p->wattson.nr_l3++;
		continue;
	out_row:
		sqlite3_finalize(st);
		return rc;
	}
	return step_done(l, st, rc);
}

static int load_wattson(struct loader *l)
{
	struct platform *p = l->p;
	int rc;

	if ((rc = load_wattson_device(l)) || !p->wattson.present)
		return rc;
	if ((rc = load_wattson_cpus(l)) || (rc = load_wattson_idle_map(l)) ||
	    (rc = load_wattson_1d(l)) || (rc = load_wattson_2d(l)) || (rc = load_wattson_l3(l)))
		return rc;
	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		if (pc->w_2d)
			continue;
		for (int k = 0; k < pc->nr_opps; k++)
			if (!pc->opps[k].w_1d)
				return model_error(l, "opps row cluster=%d freq_khz=%u: no wattson_cpu_1d "
						      "row (policy %d) and no 2D curves",
						   c, pc->opps[k].freq_khz, pc->cpus[0]);
	}
	return 0;
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
	    !(rc = load_cost_busy(l)) && !(rc = load_cost_idle(l)))
		rc = load_wattson(l);
	free(l);
	return rc;
}

/* --- loading ---------------------------------------------------------------------------------- */

int platform_load_sql(const char *label, const char *sql, struct platform *out,
		      struct gs_error *err)
{
	const struct embedded_file *schema = embedded_find(SCHEMA_FILE);
	struct sql_budget budget = {0, false};
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
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, PLATFORM_SQL_LENGTH_MAX);
	sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
	if ((rc = exec_sql(db, "bounds", "PRAGMA main.max_page_count = " PLATFORM_DB_MAX_PAGES ";"
					 "PRAGMA temp.max_page_count = " PLATFORM_DB_MAX_PAGES ";",
			   err, NULL)))
		goto out_close_db;
	sqlite3_progress_handler(db, PLATFORM_SQL_STEP_CHECK, sql_budget_check, &budget);
	sqlite3_set_authorizer(db, model_authorizer, NULL);

	if ((rc = exec_sql(db, SCHEMA_FILE, schema->text, err, &budget)))
		goto out_close_db;
	if ((rc = exec_sql(db, label, sql, err, &budget)))
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

/* Other names of built-in platforms: the phones a SoC is known by. */
static const struct {
	const char *alias, *name;
} platform_aliases[] = {
	{"pixel6", "tensor"},
};

/*
 * Device strings -> platforms. The SoC model strings are Wattson's device column (perfetto ec5d16b
 * stdlib/wattson/device_infos.sql); the codenames its _wattson_device_map (oriole, raven, bluejay:
 * Tensor; eos, aurora: monaco); the SoC code names from the device trees (gs101, zumapro, hi3660).
 */
static const struct {
	const char *device, *platform;
} device_map[] = {
	{"Tensor", "tensor"},       {"gs101", "tensor"},       {"oriole", "tensor"},
	{"raven", "tensor"},        {"bluejay", "tensor"},     {"Tensor G4", "tensor-g4"},
	{"zumapro", "tensor-g4"},   {"Tensor G5", "tensor-g5"}, {"MT6858", "mt6858"},
	{"MT6897", "mt6897"},       {"SM8750", "sm8750"},      {"SXR2230P", "sxr2230p"},
	{"monaco", "monaco"},       {"eos", "monaco"},         {"aurora", "monaco"},
	{"neo", "neo"},             {"hi3660", "hikey960"},    {"hikey960", "hikey960"},
	{"juno", "juno-r0"},        {"juno-r0", "juno-r0"},
};

static const char *device_lookup(const char *s, size_t len)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(device_map); i++)
		if (strlen(device_map[i].device) == len &&
		    strncasecmp(device_map[i].device, s, len) == 0)
			return device_map[i].platform;
	return NULL;
}

const char *platform_for_device(const char *device)
{
	const char *p, *hit;

	if (!device || !*device)
		return NULL;
	/* the whole string: a SoC model ("Tensor G4") */
	if ((hit = device_lookup(device, strlen(device))))
		return hit;
	/* a fingerprint brand/product/device:release/...: each field, up to the first ':' */
	p = device;
	while (*p && *p != ':') {
		size_t n = strcspn(p, "/:");
		if ((hit = device_lookup(p, n)))
			return hit;
		p += n;
		if (*p == '/')
			p++;
	}
	return NULL;
}

static bool is_path(const char *s)
{
	size_t len = strlen(s);
	return strchr(s, '/') || (len >= 4 && strcmp(s + len - 4, ".sql") == 0);
}

static int read_file(const char *path, char **text, struct gs_error *err)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return gs_error_set(err, GS_EMODEL, "'%s': cannot open: %s", path, strerror(errno));
	/* a file or a pipe (<(...)), read up to the cap; not a device such as /dev/zero */
	if (fstat(fileno(f), &sb) != 0 || !(S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		fclose(f);
		return gs_error_set(err, GS_EMODEL, "'%s': not a regular file or a pipe", path);
	}
	if (S_ISREG(sb.st_mode) && sb.st_size > (off_t)PLATFORM_FILE_MAX) {
		fclose(f);
		return gs_error_set(err, GS_EMODEL, "'%s': larger than %u MiB (a model is a few "
						    "hundred KiB of SQL)",
				    path, PLATFORM_FILE_MAX >> 20);
	}
	do {
		if (len > PLATFORM_FILE_MAX) {
			free(buf);
			fclose(f);
			return gs_error_set(err, GS_EMODEL, "'%s': larger than %u MiB (a model is a "
							    "few hundred KiB of SQL)",
					    path, PLATFORM_FILE_MAX >> 20);
		}
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
	for (size_t i = 0; i < GS_ARRAY_SIZE(platform_aliases); i++)
		if (strcmp(name_or_path, platform_aliases[i].alias) == 0)
			name_or_path = platform_aliases[i].name;
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
