/*
 * fuzz_platform.c - libFuzzer target for platform models: SQL text run by platform_load_sql()
 * (after models/schema.sql), then validated into struct platform.
 *
 * Arbitrary SQL can also make SQLite itself loop (recursive CTEs, triggers) or allocate without
 * bound (zeroblob(1e9)); those are not govsim bugs, so an auto-extension bounds every database
 * this process opens: a progress handler interrupts a statement after FUZZ_SQL_STEPS virtual
 * machine steps, and strings/blobs are limited to 1 MB. An interrupted statement is an ordinary
 * load error ("interrupted") and is checked like any other.
 *
 * Checks, besides the sanitizers: a failed load returns GS_EMODEL/GS_ESQL/GS_ENOMEM with a
 * message naming the file; a model that loads satisfies what platform.h promises the replay:
 * 1..GS_MAX_CPUS CPUs numbered 0..n-1, each in a cluster that lists it, capacities 1..1024,
 * every cluster with 1..GS_MAX_OPPS OPPs in strictly ascending frequency and 0..GS_MAX_IDLE_STATES
 * idle states.
 * Does not check: the numbers themselves (tests/unit/test_platform.c, golden platforms.sh).
 */
#include <sqlite3.h>
#include <string.h>

#include "fuzz_input.h"
#include "power/platform.h"

#define FUZZ_SQL_STEPS 200000
#define FUZZ_LABEL "fuzz.sql"

static int stop_runaway(void *arg)
{
	(void)arg;
	return 1; /* called every FUZZ_SQL_STEPS steps: the statement has run long enough */
}

static int bound_db(sqlite3 *db, const char **errmsg, const struct sqlite3_api_routines *api)
{
	(void)errmsg;
	(void)api;
	sqlite3_progress_handler(db, FUZZ_SQL_STEPS, stop_runaway, NULL);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
	sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
	return SQLITE_OK;
}

static void check_platform(const struct platform *p)
{
	fuzz_check(p->nr_cpus >= 1 && p->nr_cpus <= GS_MAX_CPUS, "nr_cpus");
	fuzz_check(p->nr_clusters >= 1 && p->nr_clusters <= GS_MAX_CLUSTERS, "nr_clusters");
	for (int i = 0; i < p->nr_cpus; i++) {
		const struct plat_cpu *c = &p->cpus[i];
		const struct plat_cluster *cl;
		bool listed = false;

		fuzz_check(c->id == i, "cpu ids 0..n-1");
		fuzz_check(c->cluster >= 0 && c->cluster < p->nr_clusters, "cpu cluster index");
		fuzz_check(c->capacity >= 1 && c->capacity <= SCHED_CAPACITY_SCALE, "cpu capacity");
		cl = platform_cluster_of(p, i);
		for (int k = 0; k < cl->nr_cpus; k++)
			listed |= cl->cpus[k] == i;
		fuzz_check(listed, "cpu listed by its cluster");
	}
	for (int i = 0; i < p->nr_clusters; i++) {
		const struct plat_cluster *cl = &p->clusters[i];

		fuzz_check(cl->nr_cpus >= 1 && cl->nr_cpus <= GS_MAX_CPUS, "cluster nr_cpus");
		fuzz_check(cl->nr_opps >= 1 && cl->nr_opps <= GS_MAX_OPPS, "cluster nr_opps");
		fuzz_check(cl->nr_idle >= 0 && cl->nr_idle <= GS_MAX_IDLE_STATES, "cluster nr_idle");
		for (int k = 0; k < cl->nr_cpus; k++)
			fuzz_check(cl->cpus[k] >= 0 && cl->cpus[k] < p->nr_cpus &&
					   (k == 0 || cl->cpus[k] > cl->cpus[k - 1]),
				   "cluster cpus ascending and known");
		for (int k = 1; k < cl->nr_opps; k++)
			fuzz_check(cl->opps[k].freq_khz > cl->opps[k - 1].freq_khz,
				   "opps strictly ascending");
		fuzz_check(cl->opps[0].freq_khz > 0, "opp frequency > 0");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool registered;
	struct platform *p;
	struct gs_error err;
	char *sql;
	int rc;

	if (!registered) {
		fuzz_check(sqlite3_auto_extension((void (*)(void))bound_db) == SQLITE_OK,
			   "sqlite3_auto_extension");
		registered = true;
	}
	sql = malloc(size + 1);
	p = malloc(sizeof(*p));
	fuzz_check(sql && p, "malloc");
	memcpy(sql, data, size);
	sql[size] = '\0';

	gs_error_clear(&err);
	rc = platform_load_sql(FUZZ_LABEL, sql, p, &err);
	if (rc < 0) {
		fuzz_check(rc == GS_EMODEL || rc == GS_ESQL || rc == GS_ENOMEM, "platform error code");
		fuzz_check(err.code == rc && strstr(err.msg, "'" FUZZ_LABEL "'") != NULL,
			   "platform error message without the file name");
	} else {
		fuzz_check(rc == 0, "platform_load_sql return");
		check_platform(p);
	}
	free(p);
	free(sql);
	return 0;
}
