/* cmd_platforms.c - `govsim platforms list | show | validate | plot | import`. */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/parse.h"
#include "core/strbuf.h"
#include "power/platform.h"
#include "power/platform_import.h"
#include "report/json.h"
#include "report/platform_plot.h"

static const char platforms_usage[] =
	"usage: govsim platforms list\n"
	"       govsim platforms show NAME|FILE.sql [--json]\n"
	"       govsim platforms validate FILE.sql\n"
	"       govsim platforms plot NAME|FILE.sql [-o FILE.png|FILE.svg]\n"
	"       govsim platforms import DIR|plat_info.yml -o FILE.sql [--name NAME]\n"
	"                               [--transition-latency-us US]\n";

static const char platforms_help[] =
	"\n"
	"Platform models: CPUs, cpufreq policies, OPPs, idle states and power, written\n"
	"as SQL against models/schema.sql. The built-in models are compiled in; your\n"
	"own is named by a path (containing '/' or ending in .sql), here and in\n"
	"--platform.\n"
	"\n"
	"  list            the built-in platforms, one per line\n"
	"  show NAME|FILE  each cluster's OPP table (kHz, mV, capacity at the OPP, em\n"
	"                  power and cost, EAS v1 busy costs) and idle states\n"
	"  validate FILE   load and check a model: an 'ok' line, or the first broken\n"
	"                  rule, naming the table and the row\n"
	"  plot NAME|FILE  power vs frequency per policy (Wattson active, idle0, static\n"
	"                  and the 2D family, or the em power) and power per unit of\n"
	"                  capacity at each OPP across clusters; -o FILE.png or .svg\n"
	"                  (default NAME.png in the current directory)\n"
	"  import SRC      build a model from a directory tools/collect-platform.sh\n"
	"                  wrote on a device (cpufreq policies, cpu_capacity, cpuidle,\n"
	"                  the debugfs energy model) or from LISA's plat_info.yml\n"
	"                  (cpu-capacities, freq-domains, freqs, nrg-model) and write it to\n"
	"                  -o FILE.sql\n"
	"                  ('-': stdout), checked as 'validate' does. Every row's source\n"
	"                  names the file and line it comes from, or the rule that gave\n"
	"                  what the source does not (ASSUMED ...): no power, em power\n"
	"                  1000 mW x capacity/1024 x (f/fmax)^3; no transition latency,\n"
	"                  0 ns unless --transition-latency-us; no idle latencies, 0 us\n"
	"                  (docs/platform-import.md). --name NAME: the platform's name\n"
	"                  (default: FILE without .sql)\n"
	"\n"
	"exit status: 0 ok; 1 an output file cannot be written; 2 bad command line;\n"
	"3 a model or input that does not exist, cannot be read or is broken\n";

/* "0-3", "0,3-5": the CPUs of a cluster (ascending) as ranges, appended to sb. */
static void format_cpus(const struct plat_cluster *c, struct strbuf *sb)
{
	for (int i = 0; i < c->nr_cpus; i++) {
		int j = i;
		while (j + 1 < c->nr_cpus && c->cpus[j + 1] == c->cpus[j] + 1)
			j++;
		if (j > i)
			strbuf_addf(sb, "%s%d-%d", i ? "," : "", c->cpus[i], c->cpus[j]);
		else
			strbuf_addf(sb, "%s%d", i ? "," : "", c->cpus[i]);
		i = j;
	}
}

/* The cluster's Wattson curves: 1D per OPP, or how its 2D grid depends on the others. */
static void show_wattson(const struct platform *p, const struct plat_cluster *c)
{
	if (!c->w_2d) {
		printf("  wattson (mW):  %9s  %9s  %9s  %9s  %9s\n", "kHz", "active", "idle0", "idle1",
		       "static");
		for (int k = 0; k < c->nr_opps; k++) {
			const struct plat_opp *o = &c->opps[k];
			printf("                 %9u  %9.2f  %9.2f  %9.2f  %9.2f\n", o->freq_khz,
			       o->w_active_mw, o->w_idle0_mw, o->w_idle1_mw, o->w_static_mw);
		}
		return;
	}
	printf("  wattson: 2D curves, %d rows of (OPP, dependency) for %d OPPs; depends on", c->w2d_count,
	       c->nr_opps);
	for (int d = -2; d < p->nr_clusters; d++) {
		bool any = false;
		for (int i = 0; i < c->w2d_count && !any; i++)
			any = p->wattson.rows2d[c->w2d_first + i].dep_cluster == d;
		if (!any)
			continue;
		if (d == PLAT_W_DSU)
			printf(" the DSU");
		else
			printf(" policy%d", p->clusters[d].cpus[0]);
	}
	printf("\n");
}

static void show_cluster(const struct platform *p, const struct plat_cluster *c)
{
	struct strbuf cpus = STRBUF_INIT;

	format_cpus(c, &cpus);
	printf("\ncluster %d (%s): CPUs %s, capacity %u, transition latency %u ns\n", c->id, c->name,
	       strbuf_str(&cpus), p->cpus[c->cpus[0]].capacity, c->transition_latency_ns);
	strbuf_free(&cpus);
	if (c->dyn_power_coeff)
		printf("dynamic-power-coefficient %u: em power = C * mV^2 * MHz / 1e9 (truncated)\n",
		       c->dyn_power_coeff);
	else
		printf("no dynamic-power-coefficient: em power as the model gives it\n");

	printf("  %9s  %6s  %9s  %6s  %8s  %9s  %13s\n", "kHz", "mV", "capacity", "em mW", "em cost",
	       "costs cpu", "costs cluster");
	for (int k = 0; k < c->nr_opps; k++) {
		const struct plat_opp *o = &c->opps[k];
		char mv[16], cpu_busy[16], cl_busy[16];

		if (o->volt_uv)
			snprintf(mv, sizeof(mv), "%u", o->volt_uv / 1000);
		else
			snprintf(mv, sizeof(mv), "-");
		snprintf(cpu_busy, sizeof(cpu_busy), "%u", o->cost_cpu_busy);
		snprintf(cl_busy, sizeof(cl_busy), "%u", o->cost_cluster_busy);
		printf("  %9u  %6s  %9u  %6u  %8u  %9s  %13s\n", o->freq_khz, mv, o->capacity,
		       o->em_power_mw, o->em_cost, p->has_costs ? cpu_busy : "-",
		       p->has_costs ? cl_busy : "-");
	}

	if (p->wattson.present)
		show_wattson(p, c);

	printf("  %3s  %-15s  %-7s  %7s  %9s  %9s  %13s\n", "idx", "idle state", "level",
	       "exit us", "target us", "costs cpu", "costs cluster");
	for (int i = 0; i < c->nr_idle; i++) {
		const struct plat_idle_state *s = &c->idle[i];
		char cpu_idle[16] = "-", cl_idle[16] = "-";

		if (p->has_costs) {
			snprintf(cpu_idle, sizeof(cpu_idle), "%u", s->cost_cpu_idle);
			snprintf(cl_idle, sizeof(cl_idle), "%u", s->cost_cluster_idle);
		}
		printf("  %3d  %-15s  %-7s  %7u  %9u  %9s  %13s\n", s->index, s->name,
		       s->cluster_level ? "cluster" : "cpu", s->exit_latency_us,
		       s->target_residency_us, cpu_idle, cl_idle);
	}
}

/* `platforms show --json`: the model as one object (keys: README "JSON output"). */
static void show_json(const struct platform *p)
{
	struct json_out j;

	json_out_init(&j, stdout);
	json_out_begin_object(&j, NULL);
	json_out_string(&j, "name", p->name);
	json_out_string(&j, "description", p->description);
	json_out_int(&j, "nr_cpus", p->nr_cpus);
	json_out_string(&j, "cost_unit", p->has_costs ? p->cost_unit : NULL);
	json_out_begin_array(&j, "cpus");
	for (int i = 0; i < p->nr_cpus; i++) {
		json_out_begin_object(&j, NULL);
		json_out_int(&j, "cpu", p->cpus[i].id);
		json_out_int(&j, "cluster", p->cpus[i].cluster);
		json_out_int(&j, "capacity", p->cpus[i].capacity);
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_begin_array(&j, "policies");
	for (int i = 0; i < p->nr_clusters; i++) {
		const struct plat_cluster *c = &p->clusters[i];
		json_out_begin_object(&j, NULL);
		json_out_int(&j, "policy", c->cpus[0]);
		json_out_int(&j, "cluster", i);
		json_out_string(&j, "name", c->name);
		json_out_begin_array(&j, "cpus");
		for (int k = 0; k < c->nr_cpus; k++)
			json_out_int(&j, NULL, c->cpus[k]);
		json_out_end_array(&j);
		json_out_int(&j, "transition_latency_ns", c->transition_latency_ns);
		json_out_int(&j, "dyn_power_coeff", c->dyn_power_coeff);
		json_out_begin_array(&j, "opps");
		for (int k = 0; k < c->nr_opps; k++) {
			const struct plat_opp *o = &c->opps[k];
			json_out_begin_object(&j, NULL);
			json_out_int(&j, "khz", o->freq_khz);
			json_out_int(&j, "uv", o->volt_uv);
			json_out_int(&j, "capacity", o->capacity);
			json_out_int(&j, "em_power_mw", o->em_power_mw);
			json_out_int(&j, "em_cost", o->em_cost);
			json_out_int(&j, "cost_cpu_busy", o->cost_cpu_busy);
			json_out_int(&j, "cost_cluster_busy", o->cost_cluster_busy);
			json_out_end_object(&j);
		}
		json_out_end_array(&j);
		json_out_begin_array(&j, "idle_states");
		for (int k = 0; k < c->nr_idle; k++) {
			const struct plat_idle_state *st = &c->idle[k];
			json_out_begin_object(&j, NULL);
			json_out_int(&j, "index", st->index);
			json_out_string(&j, "name", st->name);
			json_out_int(&j, "exit_latency_us", st->exit_latency_us);
			json_out_int(&j, "target_residency_us", st->target_residency_us);
			json_out_bool(&j, "cluster_level", st->cluster_level);
			json_out_int(&j, "cost_cpu_idle", st->cost_cpu_idle);
			json_out_int(&j, "cost_cluster_idle", st->cost_cluster_idle);
			json_out_end_object(&j);
		}
		json_out_end_array(&j);
		json_out_end_object(&j);
	}
	json_out_end_array(&j);
	json_out_end_object(&j);
}

static int platforms_show(const char *what, bool json)
{
	struct gs_error err = {0};
	struct platform p;

	if (platform_load(what, &p, &err))
		return cli_report(&err);
	if (json) {
		show_json(&p);
		return EXIT_OK;
	}
	printf("%s: %s\n", p.name, p.description);
	printf("%d CPUs in %d cpufreq %s\n", p.nr_cpus, p.nr_clusters,
	       p.nr_clusters == 1 ? "policy" : "policies");
	printf("power units: em mW; costs %s\n",
	       p.has_costs ? p.cost_unit : "- (the model has no EAS v1 costs)");
	if (p.wattson.present)
		printf("wattson: device '%s', %d 2D rows, %d L3 rows (not used: needs DSU PMU "
		       "counts)\n",
		       p.wattson.device, p.wattson.nr_2d, p.wattson.nr_l3);
	for (int i = 0; i < p.nr_clusters; i++)
		show_cluster(&p, &p.clusters[i]);
	return EXIT_OK;
}

static int platforms_list(void)
{
	int width = 0;

	for (const char *const *n = platform_builtin_names(); *n; n++)
		if ((int)strlen(*n) > width)
			width = (int)strlen(*n);
	for (const char *const *n = platform_builtin_names(); *n; n++) {
		struct gs_error err = {0};
		struct platform p;

		if (platform_load(*n, &p, &err))
			return cli_report(&err);
		printf("%-*s %s%s\n", width, *n, p.description,
		       strcmp(*n, PLATFORM_DEFAULT) == 0 ? " (default)" : "");
	}
	return EXIT_OK;
}

static int platforms_validate(const char *file)
{
	struct gs_error err = {0};
	struct platform p;

	if (platform_load(file, &p, &err))
		return cli_report(&err);
	printf("ok: '%s': platform '%s', %d CPUs, %d cpufreq %s\n", file, p.name, p.nr_cpus,
	       p.nr_clusters, p.nr_clusters == 1 ? "policy" : "policies");
	return EXIT_OK;
}

static int platforms_plot(const char *what, const char *out)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));
	char path[160];
	struct plot *pl;
	size_t len;
	int rc;

	if (!p)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	if (platform_load(what, p, &err)) {
		free(p);
		return cli_report(&err);
	}
	if (!out) {
		snprintf(path, sizeof(path), "%s.png", p->name);
		out = path;
	}
	pl = platform_plot_new(p);
	free(p);
	if (!pl)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	len = strlen(out);
	if (len > 4 && strcmp(out + len - 4, ".svg") == 0)
		rc = plot_write_svg(pl, out, &err);
	else
		rc = plot_write_png(pl, out, &err);
	plot_free(pl);
	plot_release_static();
	if (rc)
		return cli_report(&err);
	printf("%s\n", out);
	return EXIT_OK;
}

/* The model's name: --name, else the output file's name without directory and .sql. */
static void import_name(const char *name, const char *out, char *buf, size_t size)
{
	const char *base = strrchr(out, '/');
	size_t len;

	if (name) {
		snprintf(buf, size, "%s", name);
		return;
	}
	base = base ? base + 1 : out;
	len = strlen(base);
	if (len > 4 && strcmp(base + len - 4, ".sql") == 0)
		len -= 4;
	if (strcmp(out, "-") == 0 || len == 0)
		snprintf(buf, size, "imported");
	else
		snprintf(buf, size, "%.*s", (int)len, base);
}

/* Writes `text` to `out` whole or not at all: a temporary file beside it, then renamed. */
static int write_whole(const char *out, const char *text)
{
	size_t len = strlen(text);
	char *tmp;
	FILE *f;
	int fd;

	if (strcmp(out, "-") == 0) {
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout))
			return cli_fail(EXIT_FAILURE_RT, "'stdout': write error: %s", strerror(errno));
		return EXIT_OK;
	}
	tmp = malloc(strlen(out) + sizeof(".XXXXXX"));
	if (!tmp)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	sprintf(tmp, "%s.XXXXXX", out);
	fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot write: %s", out, strerror(e));
	}
	f = fdopen(fd, "w");
	if (!f || fwrite(text, 1, len, f) != len || fflush(f) || fchmod(fd, 0644) ||
	    fclose(f) || rename(tmp, out)) {
		int e = errno;
		if (!f)
			close(fd);
		unlink(tmp);
		free(tmp);
		return cli_fail(EXIT_FAILURE_RT, "'%s': write error: %s", out, strerror(e));
	}
	free(tmp);
	return EXIT_OK;
}

static int platforms_import(const char *src, const char *out, const char *name,
			    long latency_ns)
{
	struct plat_import *m = calloc(1, sizeof(*m));
	struct platform *p = malloc(sizeof(*p));
	struct gs_error err = {0};
	struct stat st;
	char *sql = NULL;
	int rc, assumed = 0;

	if (!m || !p) {
		free(m);
		free(p);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	platform_import_init(m);
	m->latency_override_ns = latency_ns;
	if (stat(src, &st) != 0)
		rc = gs_error_set(&err, GS_EINPUT, "'%s': cannot open: %s", src, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = platform_import_sysfs(src, m, &err);
	else
		rc = platform_import_lisa(src, m, &err);
	if (!rc) {
		import_name(name, out, m->name, sizeof(m->name));
		rc = platform_import_sql(m, &sql, &err);
	}
	/* the model as govsim will load it: a rule it breaks is the source's fault (exit 3) */
	if (!rc && platform_load_sql(out, sql, p, &err)) {
		char msg[GS_ERROR_MSG_MAX];
		snprintf(msg, sizeof(msg), "%s", err.msg);
		rc = gs_error_set(&err, GS_EINPUT, "'%s': the imported model is not valid: %s", src,
				  msg);
	}
	if (rc) {
		free(m);
		free(p);
		free(sql);
		return cli_report(&err);
	}
	rc = write_whole(out, sql);
	for (const char *s = sql; (s = strstr(s, "ASSUMED")); s++)
		assumed++;
	if (rc == EXIT_OK && strcmp(out, "-") != 0)
		printf("wrote '%s': platform '%s', %d CPUs, %d cpufreq %s; %d rows with an "
		       "ASSUMED value (their source says which)\n",
		       out, p->name, p->nr_cpus, p->nr_clusters,
		       p->nr_clusters == 1 ? "policy" : "policies", assumed);
	free(m);
	free(p);
	free(sql);
	return rc;
}

static int parse_import(int argc, char **argv)
{
	const char *src = NULL, *out = NULL, *name = NULL;
	long latency_ns = -1;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if ((strcmp(a, "-o") == 0 || strcmp(a, "--name") == 0 ||
		     strcmp(a, "--transition-latency-us") == 0) &&
		    i + 1 >= argc)
			return cli_usage_error(platforms_usage, "platforms import: %s needs a value",
					       a);
		if (strcmp(a, "-o") == 0)
			out = argv[++i];
		else if (strcmp(a, "--name") == 0)
			name = argv[++i];
		else if (strcmp(a, "--transition-latency-us") == 0) {
			u64 us;
			if (gs_parse_u64(argv[++i], &us) || us > UINT32_MAX / 1000)
				return cli_usage_error(platforms_usage,
						       "platforms import: --transition-latency-us "
						       "'%s': microseconds 0..%u expected",
						       argv[i], UINT32_MAX / 1000);
			latency_ns = (long)us * 1000;
		} else if (a[0] == '-' && a[1])
			return cli_usage_error(platforms_usage,
					       "platforms import: unknown option '%s'", a);
		else if (!src)
			src = a;
		else
			return cli_usage_error(platforms_usage,
					       "platforms import: one source expected");
	}
	if (!src)
		return cli_usage_error(platforms_usage, "platforms import: a source is needed");
	if (!out)
		return cli_usage_error(platforms_usage, "platforms import: -o FILE.sql is needed");
	if (name && (!*name || strlen(name) >= PIMP_NAME_MAX))
		return cli_usage_error(platforms_usage,
				       "platforms import: --name: 1 to %d characters expected",
				       PIMP_NAME_MAX - 1);
	return platforms_import(src, out, name, latency_ns);
}

int cmd_platforms(int argc, char **argv)
{
	const char *sub;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			printf("%s%s", platforms_usage, platforms_help);
			return EXIT_OK;
		}
	}
	if (argc < 2)
		return cli_usage_error(platforms_usage, "platforms: a subcommand is needed");
	sub = argv[1];
	if (strcmp(sub, "import") == 0)
		return parse_import(argc, argv);
	if (strcmp(sub, "plot") == 0) {
		const char *name = NULL, *out = NULL;
		for (int i = 2; i < argc; i++) {
			if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
				out = argv[++i];
			else if (argv[i][0] == '-' && argv[i][1])
				return cli_usage_error(platforms_usage,
						       "platforms plot: unknown option '%s'", argv[i]);
			else if (!name)
				name = argv[i];
			else
				return cli_usage_error(platforms_usage,
						       "platforms plot: one NAME or FILE.sql expected");
		}
		if (!name)
			return cli_usage_error(platforms_usage,
					       "platforms plot: one NAME or FILE.sql expected");
		return platforms_plot(name, out);
	}
	if (strcmp(sub, "show") == 0 && argc >= 3 && strcmp(argv[argc - 1], "--json") == 0) {
		json = true;
		argc--;
	}
	for (int i = 2; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error(platforms_usage, "platforms %s: unknown option '%s'",
					       sub, argv[i]);

	if (strcmp(sub, "list") == 0) {
		if (argc != 2)
			return cli_usage_error(platforms_usage, "platforms list: no argument expected");
		return platforms_list();
	}
	if (strcmp(sub, "show") == 0) {
		if (argc != 3)
			return cli_usage_error(platforms_usage,
					       "platforms show: one NAME or FILE.sql expected");
		return platforms_show(argv[2], json);
	}
	if (strcmp(sub, "validate") == 0) {
		if (argc != 3)
			return cli_usage_error(platforms_usage,
					       "platforms validate: one FILE.sql expected");
		return platforms_validate(argv[2]);
	}
	return cli_usage_error(platforms_usage, "platforms: '%s' is not a subcommand", sub);
}
