/*
 * test_platform.c - platform models: loading, the derived numbers, and every validation rule.
 *
 * Checks: the v5.9 EM power, EM cost and capacity-at-OPP derivations against numbers worked
 * by hand from v5.9 energy_model.c and against a slow double-precision reference; that the built-in
 * hikey960 and juno-r0 models load with the numbers their sources give; and that each
 * validation rule rejects a model broken by one substitution in the real models/hikey960.sql
 * (or juno-r0.sql), with GS_EMODEL, a message naming the table and row, and *out untouched;
 * and that the models compiled in are the .sql files of models/ byte for byte.
 * Does not check: the CLI's output (tests/golden/platforms.sh) or the power functions
 * (test_power.c).
 */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/embedded.h"
#include "power/platform.h"

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* `text` with the one occurrence of `from` replaced by `to` (the test fails if not exactly one). */
static char *subst(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;
	size_t head;

	if (!at)
		fail_msg("substitution source not found: %s", from);
	if (strstr(at + 1, from))
		fail_msg("substitution source found twice: %s", from);
	head = (size_t)(at - text);
	out = malloc(strlen(text) - strlen(from) + strlen(to) + 1);
	assert_non_null(out);
	memcpy(out, text, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	return out;
}

/* Loads `sql` as "copy.sql"; expects GS_EMODEL, `want` in the message, and *out untouched. */
static void expect_bad(const char *sql, const char *want)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));
	int rc;

	assert_non_null(p);
	memset(p, 0xA5, sizeof(*p));
	rc = platform_load_sql("copy.sql", sql, p, &err);
	if (rc != GS_EMODEL || !strstr(err.msg, want))
		fail_msg("rc %d, message '%s'; wanted GS_EMODEL and '%s'", rc, err.msg, want);
	assert_int_equal(err.code, GS_EMODEL);
	assert_true(strncmp(err.msg, "'copy.sql':", 11) == 0);
	for (size_t i = 0; i < sizeof(*p); i++)
		if (((unsigned char *)p)[i] != 0xA5)
			fail_msg("a failed load wrote to *out (byte %zu)", i);
	free(p);
}

static void expect_bad_hikey(const char *from, const char *to, const char *want)
{
	char *orig = read_text(test_path("models/hikey960.sql"));
	char *sql = subst(orig, from, to);
	expect_bad(sql, want);
	free(sql);
	free(orig);
}

static void expect_bad_juno(const char *from, const char *to, const char *want)
{
	char *orig = read_text(test_path("models/juno-r0.sql"));
	char *sql = subst(orig, from, to);
	expect_bad(sql, want);
	free(sql);
	free(orig);
}

/* --- derivations ------------------------------------------------------------------------------ */

static const u32 a53_khz[] = {533000, 999000, 1402000, 1709000, 1844000};
static const u32 a53_uv[] = {700000, 800000, 900000, 1000000, 1100000};
static const u32 a73_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};
static const u32 a73_uv[] = {700000, 800000, 900000, 1000000, 1100000};

static void test_em_power_worked_numbers(void **state)
{
	/* hikey960 dyn_power_coeff: A53 28, 70, 124, 187, 245; A73 243, 500, 804, 1161, 1571 mW. */
	static const u32 a53_mw[] = {28, 70, 124, 187, 245};
	static const u32 a73_mw[] = {243, 500, 804, 1161, 1571};
	(void)state;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(em_opp_power_mw(110, a53_uv[i], a53_khz[i]), a53_mw[i]);
		assert_int_equal(em_opp_power_mw(550, a73_uv[i], a73_khz[i]), a73_mw[i]);
	}
}

static void test_em_power_reference(void **state)
{
	/* Slow reference: the same truncations done in double (exact for these magnitudes). */
	(void)state;
	for (u32 c = 1; c <= 1000; c += 37)
		for (u32 uv = 500000; uv <= 1300000; uv += 12345)
			for (u32 khz = 200000; khz <= 3000000; khz += 98765) {
				double mv = floor(uv / 1000.0), mhz = floor(khz / 1000.0);
				double ref = floor(c * mv * mv * mhz / 1e9);
				assert_int_equal(em_opp_power_mw(c, uv, khz), (u32)ref);
			}
}

static void test_em_cost_and_capacity(void **state)
{
	/* v5.9 cost and capacity at OPP. */
	static const u32 a53_cost[] = {96, 129, 163, 201, 245};
	static const u32 a73_cost[] = {635, 831, 1052, 1298, 1571};
	static const u32 a53_cap[] = {133, 249, 351, 428, 462};
	static const u32 a73_cap[] = {391, 616, 782, 915, 1024};
	static const u32 a53_mw[] = {28, 70, 124, 187, 245};
	static const u32 a73_mw[] = {243, 500, 804, 1161, 1571};
	(void)state;
	for (int i = 0; i < 5; i++) {
		assert_int_equal(em_opp_cost(1844000, a53_mw[i], a53_khz[i]), a53_cost[i]);
		assert_int_equal(em_opp_cost(2362000, a73_mw[i], a73_khz[i]), a73_cost[i]);
		assert_int_equal(plat_opp_capacity(462, a53_khz[i], 1844000), a53_cap[i]);
		assert_int_equal(plat_opp_capacity(1024, a73_khz[i], 2362000), a73_cap[i]);
	}
}

/* --- the built-in models ----------------------------------------------------------------------- */

static void test_builtin_names(void **state)
{
	static const char *const want[] = {"hikey", "hikey960", "juno-r0", "lab-2cpu",
					   "lab-4cpu-shared", "monaco",
					   "mt6858", "mt6897", "neo", "sm8750",
					   "sxr2230p", "tensor", "tensor-g4", "tensor-g5"};
	const char *const *n = platform_builtin_names();
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(want); i++) {
		struct gs_error err = {0};
		struct platform *p = malloc(sizeof(*p));
		assert_non_null(n[i]);
		assert_string_equal(n[i], want[i]);
		/* every built-in loads; those after the lab models carry Wattson curves */
		assert_non_null(p);
		if (platform_load(n[i], p, &err))
			fail_msg("%s", err.msg);
		assert_int_equal(p->wattson.present, i >= 5);
		free(p);
	}
	assert_null(n[GS_ARRAY_SIZE(want)]);
	assert_string_equal(PLATFORM_DEFAULT, "hikey960");
}

/* The models compiled in (cmake/embed_run.cmake's string literals) are the .sql files of
 * models/ byte for byte: each entry's length and bytes against the file read here, and every
 * .sql file there has its entry. */
static void test_embedded_models_are_the_files(void **state)
{
	int nr_files = 0, nr_entries = 0;
	DIR *d = opendir(test_path("models"));
	struct dirent *de;
	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)))
		nr_files += strlen(de->d_name) > 4 &&
			    strcmp(de->d_name + strlen(de->d_name) - 4, ".sql") == 0;
	closedir(d);
	for (const struct embedded_file *e = govsim_embedded_files; e->name; e++, nr_entries++) {
		char rel[128];
		FILE *f;
		char *buf = malloc(e->len + 2);
		size_t got;

		assert_non_null(buf);
		snprintf(rel, sizeof(rel), "models/%s", e->name);
		f = fopen(test_path(rel), "rb");
		assert_non_null(f);
		got = fread(buf, 1, e->len + 2, f);
		fclose(f);
		if (got != e->len || memcmp(buf, e->text, e->len) != 0 || e->text[e->len] != '\0')
			fail_msg("%s: the embedded text is not the file's %zu bytes", e->name, got);
		free(buf);
	}
	assert_int_equal(nr_entries, nr_files);
}

static void test_load_hikey960(void **state)
{
	static const u32 a53_cost_busy[] = {87, 164, 265, 388, 502};
	static const u32 a53_cost_cluster[] = {12, 22, 36, 67, 144};
	static const u32 a73_cost_busy[] = {404, 861, 1398, 2200, 2848};
	static const u32 a73_cost_cluster[] = {102, 124, 221, 330, 433};
	struct gs_error err = {0};
	struct platform p;
	const struct plat_cluster *l, *b;
	(void)state;

	if (platform_load("hikey960", &p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(p.name, "hikey960");
	assert_true(p.has_costs);
	assert_non_null(strstr(p.cost_unit, "EAS v1"));
	assert_int_equal(p.nr_cpus, 8);
	assert_int_equal(p.nr_clusters, 2);
	for (int cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(p.cpus[cpu].id, cpu);
		assert_int_equal(p.cpus[cpu].cluster, cpu < 4 ? 0 : 1);
		assert_int_equal(p.cpus[cpu].capacity, cpu < 4 ? 462 : 1024);
	}
	l = &p.clusters[0];
	b = &p.clusters[1];
	assert_int_equal(l->nr_cpus, 4);
	assert_int_equal(l->cpus[0], 0);
	assert_int_equal(b->cpus[0], 4);
	assert_int_equal(b->cpus[3], 7);
	assert_int_equal(l->transition_latency_ns, 300000);
	assert_int_equal(b->transition_latency_ns, 300000);
	assert_int_equal(l->dyn_power_coeff, 110);
	assert_int_equal(b->dyn_power_coeff, 550);
	assert_int_equal(l->nr_opps, 5);
	assert_int_equal(b->nr_opps, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(l->opps[i].freq_khz, a53_khz[i]);
		assert_int_equal(l->opps[i].volt_uv, a53_uv[i]);
		assert_int_equal(b->opps[i].freq_khz, a73_khz[i]);
		assert_int_equal(l->opps[i].cost_cpu_busy, a53_cost_busy[i]);
		assert_int_equal(l->opps[i].cost_cluster_busy, a53_cost_cluster[i]);
		assert_int_equal(b->opps[i].cost_cpu_busy, a73_cost_busy[i]);
		assert_int_equal(b->opps[i].cost_cluster_busy, a73_cost_cluster[i]);
	}
	assert_int_equal(l->opps[0].em_power_mw, 28);
	assert_int_equal(b->opps[4].em_power_mw, 1571);
	assert_int_equal(l->opps[1].capacity, 249);
	assert_int_equal(b->opps[0].capacity, 391);
	assert_int_equal(b->opps[0].em_cost, 635);
	assert_int_equal(plat_cluster_max_khz(b), 2362000);
	assert_int_equal(plat_cluster_opp_index(b, 1805000), 2);
	assert_int_equal(plat_cluster_opp_index(b, 1805001), -1);

	/* Idle states: WFI 1/1 us; exit latency entry + exit; LISA cost order. */
	assert_int_equal(l->nr_idle, 3);
	assert_string_equal(l->idle[0].name, "WFI");
	assert_string_equal(l->idle[1].name, "cpu-sleep-0");
	assert_string_equal(b->idle[2].name, "cluster-sleep-1");
	assert_int_equal(l->idle[0].exit_latency_us, 1);
	assert_int_equal(l->idle[0].target_residency_us, 1);
	assert_int_equal(l->idle[1].exit_latency_us, 400 + 650);
	assert_int_equal(l->idle[2].exit_latency_us, 500 + 1600);
	assert_int_equal(b->idle[1].exit_latency_us, 400 + 550);
	assert_int_equal(b->idle[2].exit_latency_us, 800 + 2900);
	assert_int_equal(l->idle[1].target_residency_us, 1500);
	assert_int_equal(b->idle[2].target_residency_us, 3500);
	assert_false(l->idle[1].cluster_level);
	assert_true(l->idle[2].cluster_level);
	assert_int_equal(l->idle[2].index, 2);
	assert_int_equal(l->idle[0].cost_cpu_idle, 5);
	assert_int_equal(l->idle[1].cost_cpu_idle, 0);
	assert_int_equal(l->idle[1].cost_cluster_idle, 12);
	assert_int_equal(l->idle[2].cost_cluster_idle, 0);
	assert_int_equal(b->idle[0].cost_cpu_idle, 18);
	assert_int_equal(b->idle[1].cost_cluster_idle, 102);
	assert_ptr_equal(platform_cluster_of(&p, 5), b);
}

static void test_load_juno(void **state)
{
	static const u32 little_khz[] = {450000, 575000, 700000, 775000, 850000};
	static const u32 little_mw[] = {42, 58, 79, 97, 119};
	static const u32 big_mw[] = {160, 239, 343, 454, 583};
	struct gs_error err = {0};
	struct platform p;
	const struct plat_cluster *l, *b;
	(void)state;

	if (platform_load("juno-r0", &p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(p.nr_cpus, 6);
	l = &p.clusters[0];
	b = &p.clusters[1];
	/* CPUs 0, 3, 4, 5 A53 (446); 1, 2 A57 (1024). */
	assert_int_equal(l->nr_cpus, 4);
	assert_int_equal(l->cpus[0], 0);
	assert_int_equal(l->cpus[1], 3);
	assert_int_equal(l->cpus[3], 5);
	assert_int_equal(b->nr_cpus, 2);
	assert_int_equal(b->cpus[0], 1);
	assert_int_equal(p.cpus[3].capacity, 446);
	assert_int_equal(p.cpus[2].capacity, 1024);
	assert_int_equal(p.cpus[4].cluster, 0);
	assert_int_equal(p.cpus[2].cluster, 1);
	assert_int_equal(l->dyn_power_coeff, 0);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(l->opps[i].freq_khz, little_khz[i]);
		assert_int_equal(l->opps[i].em_power_mw, little_mw[i]); /* given, not derived */
		assert_int_equal(b->opps[i].em_power_mw, big_mw[i]);
		assert_int_equal(l->opps[i].cost_cpu_busy, little_mw[i]);
		assert_int_equal(l->opps[i].cost_cluster_busy, 0);
	}
	/* 446 * ((450000 << 10) / 850000 = 542) >> 10 = 236 (by hand). */
	assert_int_equal(l->opps[0].capacity, 236);
	assert_int_equal(b->opps[4].capacity, 1024);
	/* cost = 1100000 * 160 / 450000 = 391.1 */
	assert_int_equal(b->opps[0].em_cost, 391);
	assert_int_equal(l->nr_idle, 3);
	assert_string_equal(l->idle[2].name, "cluster-sleep-0");
	assert_true(l->idle[2].cluster_level);
	assert_int_equal(l->idle[1].exit_latency_us, 300 + 1200);
	assert_int_equal(l->idle[2].target_residency_us, 2500);
}

static void test_load_by_path_and_errors(void **state)
{
	struct gs_error err = {0};
	struct platform p;
	char *text = read_text(test_path("models/hikey960.sql"));
	const char *path = test_tmpfile(text, ".sql");
	(void)state;

	free(text);
	if (platform_load(path, &p, &err))
		fail_msg("%s", err.msg);
	remove(path);
	assert_string_equal(p.name, "hikey960");

	gs_error_clear(&err);
	assert_int_equal(platform_load("no-such-board", &p, &err), GS_EMODEL); /* exit 3 */
	assert_non_null(strstr(err.msg, "'no-such-board'"));
	assert_non_null(strstr(err.msg, "hikey960, juno-r0"));
	gs_error_clear(&err);
	assert_int_equal(platform_load("schema", &p, &err), GS_EMODEL);
	gs_error_clear(&err);
	assert_int_equal(platform_load("/nonexistent/x.sql", &p, &err), GS_EMODEL);
	assert_non_null(strstr(err.msg, "'/nonexistent/x.sql'"));
}

/*
 * tensor (gs101): the numbers of arch/arm64/boot/dts/exynos/google/gs101.dtsi (torvalds/linux
 * 01272f05aae5) and Perfetto's Wattson CSVs, computed here by hand:
 *  capacity: A55 (250 * 1803 << 10) / (1024 * 2802) = 461568000 / 2869248 = 160 (160.87);
 *            A76 (620 * 2253 << 10) / 2869248 = 1430384640 / 2869248 = 498 (498.52); X1 1024.
 *  em power: X1 at 2802 MHz, 1056 mV: 650 * 1056^2 * 2802 / 1e9 = 2030997196800 / 1e9 = 2030;
 *            A55 at 300 MHz, 537 mV: 70 * 537^2 * 300 / 1e9 = 6055749000 / 1e9 = 6.
 */
static void test_load_tensor(void **state)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	const struct plat_wattson *w;
	int n0 = 0;
	(void)state;

	assert_non_null(p);
	assert_non_null(q);
	if (platform_load("tensor", p, &err))
		fail_msg("%s", err.msg);
	if (platform_load("pixel6", q, &err)) /* the alias */
		fail_msg("%s", err.msg);
	assert_string_equal(q->name, "tensor");
	assert_int_equal(p->nr_cpus, 8);
	assert_int_equal(p->nr_clusters, 3);
	assert_int_equal(p->cpus[0].capacity, 160);
	assert_int_equal(p->cpus[5].capacity, 498);
	assert_int_equal(p->cpus[7].capacity, 1024);
	assert_int_equal(p->clusters[0].nr_opps, 11);
	assert_int_equal(p->clusters[1].nr_opps, 14);
	assert_int_equal(p->clusters[2].nr_opps, 17);
	assert_int_equal(p->clusters[2].opps[16].freq_khz, 2802000);
	assert_int_equal(p->clusters[2].opps[16].volt_uv, 1056250);
	assert_int_equal(p->clusters[2].opps[16].em_power_mw, 2030);
	assert_int_equal(p->clusters[0].opps[0].em_power_mw, 6);
	assert_int_equal(p->clusters[2].idle[1].exit_latency_us, 235 + 220);
	assert_int_equal(p->clusters[2].idle[1].target_residency_us, 3500);

	w = &p->wattson;
	assert_true(w->present);
	assert_string_equal(w->device, "Tensor");
	assert_int_equal(w->deep_idle_offset_ns[6], 200000);
	assert_int_equal(w->deep_idle_offset_ns[5], 0);
	/* 1D: Tensor cpu_1d.csv "Tensor,6,2802000,0,1942.89,121.43,0" and "Tensor,4,400000,0,28.51,5.24,0" */
	assert_true(p->clusters[2].opps[16].w_1d);
	assert_true(p->clusters[2].opps[16].w_active_mw == 1942.89);
	assert_true(p->clusters[2].opps[16].w_idle0_mw == 121.43);
	assert_true(p->clusters[1].opps[0].w_active_mw == 28.51);
	/* 2D: policy 0 only, all 250 rows of cpu_2d.csv; 250 L3 rows */
	assert_false(p->clusters[0].opps[0].w_1d);
	assert_true(p->clusters[0].w_2d);
	assert_int_equal(w->nr_2d, 250);
	assert_int_equal(p->clusters[0].w2d_count, 250);
	assert_int_equal(w->nr_l3, 250);
	/* "Tensor,0,300000,6,500000,2.61,22.89,0.76,0,0": at 300000 the grid has dep p6 only at 500000 */
	for (int i = 0; i < w->nr_2d; i++) {
		const struct plat_w2d *r = &w->rows2d[i];
		if (r->opp == 0 && r->dep_cluster == 2) {
			n0++;
			assert_int_equal(r->dep_khz, 500000);
			assert_true(r->active_mw == 22.89 && r->static_mw == 2.61);
		}
	}
	assert_int_equal(n0, 1);
	free(p);
	free(q);
}

/* Device strings from traces -> platform names (Wattson's device strings and codename map). */
static void test_platform_for_device(void **state)
{
	(void)state;
	assert_string_equal(platform_for_device("Tensor"), "tensor");
	assert_string_equal(platform_for_device("tensor"), "tensor");
	assert_string_equal(platform_for_device("gs101"), "tensor");
	assert_string_equal(platform_for_device("Tensor G4"), "tensor-g4");
	assert_string_equal(platform_for_device("SM8750"), "sm8750");
	assert_string_equal(platform_for_device("hi6220"), "hikey");
	assert_string_equal(platform_for_device("hikey960"), "hikey960");
	/* build fingerprints: brand/product/device:release/id/incremental:type/tags */
	assert_string_equal(platform_for_device("google/oriole/oriole:13/TQ1A.230105.002/9325679:"
						"user/release-keys"),
			    "tensor");
	assert_string_equal(platform_for_device("google/raven/raven:14/AP1A/1:userdebug/dev-keys"),
			    "tensor");
	assert_string_equal(platform_for_device("google/eos/eos:11/x:user/release-keys"), "monaco");
	assert_string_equal(platform_for_device("Android/hikey/hikey:9/PPR1/1:userdebug/test-keys"),
			    "hikey");
	/* the words after the first ':' are not looked at ("user" is no board) */
	assert_null(platform_for_device("google/sunfish/sunfish:13/monaco:user/keys"));
	assert_null(platform_for_device("Tensor G9"));
	assert_null(platform_for_device("Ten"));
	assert_null(platform_for_device(""));
	assert_null(platform_for_device(NULL));
}

/* The Wattson tables' rules, each broken once in the real models/tensor.sql. */
static void expect_bad_tensor(const char *from, const char *to, const char *want)
{
	char *orig = read_text(test_path("models/tensor.sql"));
	char *s = subst(orig, from, to);
	expect_bad(s, want);
	free(s);
	free(orig);
}

static void test_rule_wattson(void **state)
{
	(void)state;
	expect_bad_tensor("('Tensor', 6, 2802000, 0, 1942.89,", "('Tensor', 6, 2802001, 0, 1942.89,",
			  "wattson_cpu_1d row policy=6 freq_khz=2802001: no such opp in cluster 2");
	expect_bad_tensor("('Tensor', 6, 2802000, 0, 1942.89,", "('Tensor', 7, 2802000, 0, 1942.89,",
			  "wattson_cpu_1d row policy=7 freq_khz=2802000: no cpufreq policy 7");
	expect_bad_tensor("('Tensor', 6, 2802000, 0, 1942.89,", "('Pixel', 6, 2802000, 0, 1942.89,",
			  "wattson_cpu_1d row policy=6 freq_khz=2802000: device 'Pixel' is not the "
			  "wattson_device 'Tensor'");
	expect_bad_tensor("('Tensor', 6, 2802000, 0, 1942.89,", "('Tensor', 6, 2802000, 0, -1,",
			  "wattson_cpu_1d row policy=6 freq_khz=2802000: active must be a number >= 0");
	expect_bad_tensor("('Tensor', 0, 300000, 6, 500000, 2.61,", "('Tensor', 0, 300000, 6, 500001, 2.61,",
			  "wattson_cpu_2d row policy=0 freq_khz=300000 dep_policy=6 dep_freq=500001: "
			  "dep_freq 500001 is no opp of cluster 2");
	expect_bad_tensor("('Tensor', 0, 300000, 6, 500000, 2.61,", "('Tensor', 0, 300000, 0, 500000, 2.61,",
			  "dep_policy 0 is the row's own policy");
	expect_bad_tensor("('Tensor', 0, 300000, 6, 500000, 2.61,", "('Tensor', 0, 300000, 4, 400000, 2.61,",
			  "wattson_cpu_2d row policy=0 freq_khz=300000 dep_policy=4 dep_freq=400000: "
			  "listed twice");
	/* a 1D policy with an OPP missing */
	expect_bad_tensor("('Tensor', 6, 2802000, 0, 1942.89, 121.43, 0, 'perfetto ec5d16b "
			  "src/trace_processor/plugins/wattson/data/Tensor/cpu_1d.csv line 32')",
			  "('Tensor', 6, 2704000, 0, 1942.89, 121.43, 0, 'dup')",
			  "wattson_cpu_1d row policy=6 freq_khz=2704000: listed twice");
	expect_bad_tensor("('Tensor', 'perfetto", "('Tensor', 'x'), ('Tensor2', 'perfetto",
			  "more than one wattson_device row");
	expect_bad_tensor("INSERT INTO wattson_device (device, source) VALUES\n('Tensor', "
			  "'perfetto ec5d16b src/trace_processor/perfetto_sql/stdlib/wattson/"
			  "device_infos.sql');",
			  "", "wattson_cpus: 8 rows but no wattson_device row");
}

/* --- every rule, failing ------------------------------------------------------------------- */

static void test_rule_freq_strictly_increasing(void **state)
{
	(void)state;
	/* Two OPPs swapped: the row that breaks the order is named. */
	{
		char *orig = read_text(test_path("models/hikey960.sql"));
		const char *a = "(0,  999000,  800000, NULL, 'DT v5.9 cluster0 opp01'),";
		const char *b = "(0, 1402000,  900000, NULL, 'DT v5.9 cluster0 opp02'),";
		char *s1 = subst(orig, a, "@SWAP@");
		char *s2 = subst(s1, b, a);
		char *s3 = subst(s2, "@SWAP@", b);
		expect_bad(s3, "'copy.sql': opps row cluster=0 freq_khz=999000: frequencies not "
			       "strictly increasing");
		free(s1);
		free(s2);
		free(s3);
		free(orig);
	}
	/* A repeated frequency is not strictly increasing either. */
	expect_bad_hikey("(1, 1805000,  900000,", "(1, 1421000,  900000,",
			 "opps row cluster=1 freq_khz=1421000: frequencies not strictly increasing");
}

static void test_rule_voltage_non_decreasing(void **state)
{
	(void)state;
	expect_bad_hikey("(0, 1402000,  900000,", "(0, 1402000,  750000,",
			 "opps row cluster=0 freq_khz=1402000: voltages decrease");
}

static void test_rule_power_positive(void **state)
{
	(void)state;
	/* C = 1: 1 * 700^2 * 533 / 1e9 truncates to 0 mW. */
	expect_bad_hikey("(0, 'little', 300000, 110,", "(0, 'little', 300000, 1,",
			 "opps row cluster=0 freq_khz=533000: em power 0 mW is not positive");
	/* A given power of 0. */
	expect_bad_juno("(0,  450000, NULL,  42,", "(0,  450000, NULL,   0,",
			"opps row cluster=0 freq_khz=450000: em power 0 mW is not positive");
	/* Above the v5.9 EM_MAX_POWER: 1000000 * 700^2 * 533 / 1e9 = 261170 mW. */
	expect_bad_hikey("(0, 'little', 300000, 110,", "(0, 'little', 300000, 1000000,",
			 "opps row cluster=0 freq_khz=533000: em power 261170 mW above EM_MAX_POWER");
	/* Busy costs must be positive too. */
	expect_bad_hikey("(0, 'cpu',      533000,  133,   87,", "(0, 'cpu',      533000,  133,    0,",
			 "cost_busy row cluster=0 level=cpu freq_khz=533000: power 0 is not positive");
	/* Idle costs may be 0 but not negative. */
	expect_bad_hikey("(1, 'cpu',     0,  18,", "(1, 'cpu',     0,  -1,",
			 "cost_idle row cluster=1 level=cpu idx=0: power -1 must be a non-negative");
}

static void test_rule_power_non_decreasing(void **state)
{
	(void)state;
	expect_bad_juno("(0,  575000, NULL,  58,", "(0,  575000, NULL,  40,",
			"opps row cluster=0 freq_khz=575000: em power decreases with frequency");
	expect_bad_hikey("(1, 'cluster', 1805000,  782,  221,", "(1, 'cluster', 1805000,  782,  100,",
			 "cost_busy row cluster=1 level=cluster freq_khz=1805000: power decreases");
}

static void test_rule_capacities(void **state)
{
	(void)state;
	expect_bad_hikey("(0, 462,  'derived", "(0, 1025,  'derived",
			 "cpus row cpu=0: capacity 1025 not in 1..1024");
	expect_bad_hikey("(2, 462,  'derived", "(2, 0,  'derived",
			 "cpus row cpu=2: capacity 0 not in 1..1024");
	/* 534000 kHz gives capacity 133, the same as 533000: not increasing. */
	expect_bad_hikey("(0,  999000,  800000,", "(0,  534000,  800000,",
			 "opps row cluster=0 freq_khz=534000: capacity at the OPP 133 not increasing");
	/* 1 kHz gives capacity 0 (juno: the em power is given, so it stays positive). */
	expect_bad_juno("(0,  450000, NULL,  42,", "(0,  1, NULL,  42,",
			"opps row cluster=0 freq_khz=1: capacity at the OPP 0 not in 1..1024");
	expect_bad_hikey("(0, 'cpu',      999000,  250,", "(0, 'cpu',      999000,  100,",
			 "cost_busy row cluster=0 level=cpu freq_khz=999000: capacity 100 not increasing");
	expect_bad_hikey("(1, 'cpu',     2362000, 1024,", "(1, 'cpu',     2362000, 2048,",
			 "cost_busy row cluster=1 level=cpu freq_khz=2362000: capacity 2048 not in 1..1024");
	/* CPUs of one cluster share the capacity that their OPP table's capacities derive from. */
	expect_bad_hikey("(3, 462,  'derived", "(3, 400,  'derived",
			 "cpus row cpu=3: capacity 400 differs from cpu 0's 462");
}

static void test_rule_cpu_in_exactly_one_policy(void **state)
{
	(void)state;
	expect_bad_hikey("(1, 4, 'DT v5.9", "(0, 3, 'dup'),\n(1, 4, 'DT v5.9",
			 "cluster_cpus row cluster=0 cpu=3: cpu 3 is already in the policy of "
			 "cluster 0");
	expect_bad_hikey("(1, 7, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs "
			 "4-7');",
			 "(1, 6, 'x');",
			 "cluster_cpus row cluster=1 cpu=6: cpu 6 is already in the policy");
	expect_bad_hikey(",\n(1, 7, 'DT v5.9 cpu-map cluster1, opp-shared table: one policy for CPUs "
			 "4-7');",
			 ";", "cpus row cpu=7: cpu in no policy");
	expect_bad_hikey("(1, 7, 'DT v5.9", "(1, 9, 'DT v5.9",
			 "cluster_cpus row cluster=1 cpu=9: no such cpu");
	expect_bad_hikey("(1, 7, 'DT v5.9", "(2, 7, 'DT v5.9",
			 "cluster_cpus row cluster=2 cpu=7: no such cluster");
}

static void test_rule_one_cpu_of_capacity_1024(void **state)
{
	char *orig = read_text(test_path("models/hikey960.sql"));
	char *s = orig;
	(void)state;
	for (int cpu = 4; cpu < 8; cpu++) {
		char from[32], to[32];
		char *next;
		snprintf(from, sizeof(from), "(%d, 1024, 'derived", cpu);
		snprintf(to, sizeof(to), "(%d, 1000, 'derived", cpu);
		next = subst(s, from, to);
		if (s != orig)
			free(s);
		s = next;
	}
	expect_bad(s, "cpus: no cpu has capacity 1024 (the largest is 1000)");
	free(s);
	free(orig);
}

static void test_rule_em_source(void **state)
{
	(void)state;
	/* The em power is derived where there is a coefficient ... */
	expect_bad_hikey("(0,  533000,  700000, NULL,", "(0,  533000,  700000, 28,",
			 "opps row cluster=0 freq_khz=533000: em_power_mw_given is set but cluster 0 "
			 "has a dyn_power_coeff");
	expect_bad_hikey("(0,  533000,  700000, NULL,", "(0,  533000,  NULL, NULL,",
			 "opps row cluster=0 freq_khz=533000: no volt_uv to derive the em power from");
	/* ... and must be given where there is none. */
	expect_bad_juno("(0,  450000, NULL,  42,", "(0,  450000, NULL,  NULL,",
			"opps row cluster=0 freq_khz=450000: no em power");
}

static void test_rule_structure(void **state)
{
	(void)state;
	expect_bad_hikey("(0, 2, 'cluster-sleep-0',", "(0, 3, 'cluster-sleep-0',",
			 "idle_states row cluster=0 idx=3: idle state indices must be 0, 1, ...");
	expect_bad_hikey("(1, 'cpu',     1805000,  782,", "(1, 'cpu',     1805001,  782,",
			 "cost_busy row cluster=1 level=cpu freq_khz=1805001: no such opp in cluster 1");
	expect_bad_hikey("(0, 'cpu',     2,   0,", "(0, 'cpu',     7,   0,",
			 "cost_idle row cluster=0 level=cpu idx=7: no such idle state");
	expect_bad_hikey("(1, 'big',    300000, 550,", "(2, 'big',    300000, 550,",
			 "clusters row cluster=2: cluster ids must be 0, 1, ... in row order");
	expect_bad_hikey("INSERT INTO platform (name, description, cost_unit, source) VALUES",
			 "INSERT INTO platform VALUES ('x', 'y', 'z', 's');\n"
			 "INSERT INTO platform (name, description, cost_unit, source) VALUES",
			 "more than one platform row");
}

static void test_sql_errors(void **state)
{
	char *orig = read_text(test_path("models/hikey960.sql"));
	size_t len = strlen(orig);
	char *sql = malloc(len + 64);
	char want[64];
	int lines = 0;
	(void)state;

	for (const char *p = orig; *p; p++)
		lines += *p == '\n';
	/* A syntax error on the line after the last: the message names it and quotes SQLite. */
	snprintf(sql, len + 64, "%sINSERTT INTO opps VALUES (1);\n", orig);
	snprintf(want, sizeof(want), "'copy.sql':%d: near \"INSERTT\": syntax error", lines + 1);
	expect_bad(sql, want);
	free(sql);
	free(orig);

	/* A schema CHECK constraint: SQLite's message, GS_EMODEL. */
	expect_bad_hikey("(0, 1, 'cpu-sleep-0',     'cpu',", "(0, 1, 'cpu-sleep-0',     'core',",
			 "CHECK constraint failed");
	/* NOT NULL. */
	expect_bad_hikey("(0, 462,  'derived", "(0, NULL,  'derived", "NOT NULL constraint failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_em_power_worked_numbers),
		cmocka_unit_test(test_em_power_reference),
		cmocka_unit_test(test_em_cost_and_capacity),
		cmocka_unit_test(test_builtin_names),
		cmocka_unit_test(test_embedded_models_are_the_files),
		cmocka_unit_test(test_load_hikey960),
		cmocka_unit_test(test_load_juno),
		cmocka_unit_test(test_load_by_path_and_errors),
		cmocka_unit_test(test_rule_freq_strictly_increasing),
		cmocka_unit_test(test_rule_voltage_non_decreasing),
		cmocka_unit_test(test_rule_power_positive),
		cmocka_unit_test(test_rule_power_non_decreasing),
		cmocka_unit_test(test_rule_capacities),
		cmocka_unit_test(test_rule_cpu_in_exactly_one_policy),
		cmocka_unit_test(test_rule_one_cpu_of_capacity_1024),
		cmocka_unit_test(test_rule_em_source),
		cmocka_unit_test(test_rule_structure),
		cmocka_unit_test(test_sql_errors),
		cmocka_unit_test(test_load_tensor),
		cmocka_unit_test(test_rule_wattson),
		cmocka_unit_test(test_platform_for_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
