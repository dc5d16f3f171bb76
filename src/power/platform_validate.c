/*
 * platform_validate.c - a platform model's database, table by table in the order of the
 * dependencies, into a struct platform: each row read and checked against the rules of its
 * table (models/schema.sql). Every rule failure names the table, the row (by its key columns,
 * as written in the file) and the rule.
 */
#include "power/platform_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* "'label': <message>", GS_EMODEL. */
int model_error(struct loader *l, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return gs_error_set(l->err, GS_EMODEL, "'%s': %s", l->label, msg);
}

int loader_prepare(struct loader *l, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(l->db, sql, -1, st, NULL) != SQLITE_OK)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

/* The end of a query: SQLITE_DONE is fine, anything else is an error naming SQLite's reason. */
int loader_step_done(struct loader *l, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

int bad_int(struct loader *l, const char *row, const char *col, s64 lo, s64 hi)
{
	return model_error(l, "%s: %s must be an integer in %lld..%lld", row, col, (long long)lo,
			   (long long)hi);
}

static int load_platform_row(struct loader *l)
{
	sqlite3_stmt *st;
	int rc, n = 0;

	if ((rc = loader_prepare(l, "SELECT name, description, cost_unit FROM platform ORDER BY rowid",
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, name, transition_latency_ns, dyn_power_coeff "
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cpu, capacity FROM cpus ORDER BY rowid", &st)))
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, cpu FROM cluster_cpus ORDER BY rowid", &st)))
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, freq_khz, volt_uv, em_power_mw_given FROM opps "
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, idx, name, level, entry_latency_us, "
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, level, freq_khz, capacity, power FROM cost_busy "
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
	if ((rc = loader_step_done(l, st, rc)))
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

	if ((rc = loader_prepare(l, "SELECT cluster, level, idx, power FROM cost_idle ORDER BY rowid",
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
	return loader_step_done(l, st, rc);
}

/*
 * Checks every rule on the tables of `db` and fills *p. The order of the checks is the order of
 * the dependencies: clusters, cpus, their policies, then what hangs off a cluster.
 */
int platform_validate_db(sqlite3 *db, const char *label, struct platform *p,
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
