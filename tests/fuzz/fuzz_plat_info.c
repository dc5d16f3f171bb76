/*
 * fuzz_plat_info.c - libFuzzer target for LISA's plat_info.yml import: YAML read by
 * platform_import_lisa(), the model written by platform_import_sql() and loaded back by
 * platform_load_sql(), as `govsim platforms import` does.
 *
 * Checks, besides the sanitizers: a failed import returns GS_EINPUT/GS_EIO/GS_ENOMEM with a
 * message naming the file; an import that succeeds gives 1..GS_MAX_CPUS CPUs and
 * 1..GS_MAX_CLUSTERS policies, and SQL that either loads or is refused as a bad model (a rule
 * of the validator the source broke: GS_EMODEL), never anything else.
 * Does not check: the numbers (tests/golden/platform_import_lisa.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "power/platform.h"
#include "power/platform_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_input_path(data, size);
	struct plat_import *m = calloc(1, sizeof(*m));
	struct platform *p = malloc(sizeof(*p));
	struct gs_error err = {0};
	char *sql = NULL;
	int rc;

	fuzz_check(m && p, "out of memory in the harness");
	platform_import_init(m);
	rc = platform_import_lisa(path, m, &err);
	if (rc) {
		fuzz_check(rc == GS_EINPUT || rc == GS_EIO || rc == GS_ENOMEM, "import error code");
		fuzz_check(strstr(err.msg, path) != NULL, "import error names the file");
		goto out;
	}
	fuzz_check(m->nr_cpus >= 1 && m->nr_cpus <= GS_MAX_CPUS, "CPUs in range");
	fuzz_check(m->nr_clusters >= 1 && m->nr_clusters <= GS_MAX_CLUSTERS, "policies in range");
	snprintf(m->name, sizeof(m->name), "fuzz");
	rc = platform_import_sql(m, &sql, &err);
	if (rc) {
		fuzz_check(rc == GS_EINPUT || rc == GS_ENOMEM, "sql error code");
		goto out;
	}
	gs_error_clear(&err);
	rc = platform_load_sql("fuzz.sql", sql, p, &err);
	fuzz_check(rc == 0 || rc == GS_EMODEL || rc == GS_ENOMEM, "the model loads or is a bad model");
out:
	free(sql);
	free(m);
	free(p);
	return 0;
}
