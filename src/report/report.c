/* report.c - figures of stored runs and the HTML page; see report.h. */

#include "report/report.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "core/outfile.h"
#include "core/strbuf.h"
#include "report/run_groups.h"
#include "report/summary.h"

#define SEP " \xc2\xb7 " /* " · " */

/* Colours (palette indices) kept the same in every figure. */
enum {
	COL_FREQ = 0,     /* emulated frequency */
	COL_TRACED = 1,   /* traced frequency */
	COL_UTIL = 4,     /* utilization */
	COL_CAPACITY = 6, /* capacity */
	COL_ENERGY = 0,
	COL_DELAY = 1,
};

static const char *unit_of(const struct run_result *r)
{
	return r->power_unit[0] ? r->power_unit : "J";
}

static bool joules(const struct run_result *r)
{
	return strcmp(unit_of(r), "J") == 0;
}

/* The energy unit for labels: "J", or the costs model's power unit x s / 1000 (power.h). */
static const char *energy_unit_short(const struct run_result *r)
{
	return joules(r) ? "J" : "model units";
}

static void energy_unit_long(char *buf, size_t size, const struct run_result *r)
{
	if (joules(r))
		snprintf(buf, size, "J");
	else
		snprintf(buf, size, "%.40s x s / 1000", unit_of(r));
}

/* The clamp policy on one line: its lines joined with "; ". */
static void policy_line(char *buf, size_t size, const char *policy)
{
	size_t len = 0;

	buf[0] = '\0';
	for (const char *s = policy; *s && len + 3 < size; s++) {
		if (*s == '\n') {
			if (s[1])
				len += (size_t)snprintf(buf + len, size - len, "; ");
			continue;
		}
		buf[len++] = *s;
		buf[len] = '\0';
	}
}

/* "run 3 (label) · trace · governor", appended to sb. */
static void run_title(struct strbuf *sb, const struct run_result *r, s64 id)
{
	strbuf_addf(sb, "run %" PRId64, id);
	if (r->label[0])
		strbuf_addf(sb, " (%s)", r->label);
	strbuf_addf(sb, SEP "%.160s" SEP "%s", run_groups_trace_short(r->trace), r->governor);
}

/* What the run replayed with (platform, timing, ..., tunables, clamp policy), appended to sb. */
static void run_subtitle(struct strbuf *sb, const struct run_result *r)
{
	char pol[512];

	policy_line(pol, sizeof(pol), r->policy);
	strbuf_addf(sb, "%s, timing %s, util %s, power %s, kernel %s", r->platform, r->timing,
		    r->util_source, r->power_model, r->kernel);
	if (r->params[0])
		strbuf_addf(sb, SEP "%.200s", r->params);
	strbuf_addf(sb, SEP "uclamp: %.400s", pol[0] ? pol : "none");
}

/* A plot of run r titled "run 3 (label) · trace · governor · WHAT" over its subtitle; NULL
 * when out of memory. */
static struct plot *run_plot_new(const struct run_result *r, s64 id, const char *what)
{
	struct strbuf title = STRBUF_INIT, sub = STRBUF_INIT;
	struct plot *pl = NULL;

	run_title(&title, r, id);
	strbuf_addf(&title, SEP "%s", what);
	run_subtitle(&sub, r);
	if (!strbuf_error(&title) && !strbuf_error(&sub))
		pl = plot_new(strbuf_str(&title), strbuf_str(&sub));
	strbuf_free(&title);
	strbuf_free(&sub);
	return pl;
}

/* "run 1" or "1: label", for category names: whole (the plot lays long ones out). */
static void run_name(char *buf, size_t size, const struct run_result *r, s64 id)
{
	if (r->label[0])
		snprintf(buf, size, "%" PRId64 ": %s", id, r->label);
	else
		snprintf(buf, size, "run %" PRId64, id);
}

struct plot *report_timeline_plot(const struct run_result *r, s64 run_id, int pol)
{
	const struct run_policy_result *p;
	char what[24];
	double *x = NULL, *f = NULL, *tr = NULL, *u = NULL, *cap = NULL;
	size_t n = 0;
	bool traced = false;
	struct plot *pl = NULL;
	int panel, ok = 0;

	if (pol < 0 || pol >= r->nr_clusters)
		return NULL;
	p = &r->pol[pol];
	snprintf(what, sizeof(what), "policy%d", p->policy);
	pl = run_plot_new(r, run_id, what);
	if (!pl)
		return NULL;
	x = malloc((r->nr_timeline + 1) * sizeof(double));
	f = malloc((r->nr_timeline + 1) * sizeof(double));
	tr = malloc((r->nr_timeline + 1) * sizeof(double));
	u = malloc((r->nr_timeline + 1) * sizeof(double));
	cap = malloc((r->nr_timeline + 1) * sizeof(double));
	if (!x || !f || !tr || !u || !cap)
		goto out;
	for (size_t i = 0; i < r->nr_timeline; i++) {
		const struct run_timeline_point *t = &r->timeline[i];
		if (t->policy != p->policy)
			continue;
		x[n] = t->time_s;
		f[n] = t->freq_khz / 1000.0;
		tr[n] = t->traced_khz ? t->traced_khz / 1000.0 : NAN;
		u[n] = t->util;
		cap[n] = t->capacity;
		traced |= t->traced_khz != 0;
		n++;
	}
	panel = plot_add_panel(pl, PLOT_PANEL_XY, NULL);
	plot_set_axis(pl, panel, PLOT_AXIS_X, "time since the replay start (s)", 0,
		      r->span_s > 0 ? r->span_s : NAN, 0);
	plot_set_axis(pl, panel, PLOT_AXIS_Y, "frequency (MHz)", 0, NAN, 0);
	/* 3% headroom above 1024, as the automatic axes have, so a line at 1024 stays visible */
	plot_set_axis(pl, panel, PLOT_AXIS_Y2, "utilization, capacity (0..1024)", 0,
		      SCHED_CAPACITY_SCALE * 1.03, 256);
	if (plot_add_series(pl, panel, "emulated frequency", PLOT_STEP, 0, COL_FREQ, x, f, n) < 0)
		goto out;
	if (traced && plot_add_series(pl, panel, "traced frequency", PLOT_STEP, PLOT_F_DASHED,
				      COL_TRACED, x, tr, n) < 0)
		goto out;
	/* sample and hold: util is known at evaluations only, a line between two sparse samples
	 * would draw a ramp the governor never saw */
	if (plot_add_series(pl, panel, "utilization (max over the policy's CPUs)", PLOT_STEP,
			    PLOT_F_RIGHT | PLOT_F_FILL | PLOT_F_THIN, COL_UTIL, x, u, n) < 0)
		goto out;
	if (plot_add_series(pl, panel, "capacity at the emulated frequency", PLOT_STEP,
			    PLOT_F_RIGHT | PLOT_F_DASHED | PLOT_F_THIN, COL_CAPACITY, x, cap, n) < 0)
		goto out;
	ok = 1;
out:
	free(x);
	free(f);
	free(tr);
	free(u);
	free(cap);
	if (!ok) {
		plot_free(pl);
		return NULL;
	}
	return pl;
}

struct plot *report_residency_plot(const struct run_result *r, s64 run_id)
{
	struct plot *pl = run_plot_new(r, run_id, "OPP residency");

	if (!pl)
		return NULL;
	for (int c = 0; c < r->nr_clusters && c < PLOT_MAX_PANELS; c++) {
		const struct run_policy_result *p = &r->pol[c];
		char names[GS_MAX_OPPS][24], shares[GS_MAX_OPPS][24], ptitle[96], sname[48];
		const char *namev[GS_MAX_OPPS], *sharev[GS_MAX_OPPS];
		double total = 0;
		int panel, s;

		for (int k = 0; k < p->nr_opps; k++)
			total += p->residency_s[k];
		for (int k = 0; k < p->nr_opps; k++) {
			snprintf(names[k], sizeof(names[k]), "%g", p->freq_khz[k] / 1000.0);
			snprintf(shares[k], sizeof(shares[k]), "%.1f%%",
				 total > 0 ? 100.0 * p->residency_s[k] / total : 0.0);
			namev[k] = names[k];
			sharev[k] = shares[k];
		}
		if (isnan(p->avg_freq_khz))
			snprintf(ptitle, sizeof(ptitle), "policy%d (cluster %d), no activity",
				 p->policy, p->cluster);
		else
			snprintf(ptitle, sizeof(ptitle), "policy%d (cluster %d), avg %.0f MHz",
				 p->policy, p->cluster, p->avg_freq_khz / 1000.0);
		snprintf(sname, sizeof(sname), "policy%d", p->policy);
		panel = plot_add_panel(pl, PLOT_PANEL_BARS, ptitle);
		if (panel < 0 || plot_set_categories(pl, panel, namev, (size_t)p->nr_opps))
			goto fail;
		plot_set_axis(pl, panel, PLOT_AXIS_X, "OPP (MHz)", NAN, NAN, 0);
		plot_set_axis(pl, panel, PLOT_AXIS_Y, c ? "" : "time at OPP (s)", 0, NAN, 0);
		s = plot_add_series(pl, panel, sname, PLOT_BARS, 0, c, NULL, p->residency_s,
				    (size_t)p->nr_opps);
		if (s < 0 || plot_set_bar_labels(pl, s, sharev))
			goto fail;
	}
	return pl;
fail:
	plot_free(pl);
	return NULL;
}

char *report_relative(char *buf, size_t size, double x, double ref, bool is_ref)
{
	if (is_ref)
		snprintf(buf, size, "ref");
	else if (ref == 0 || !isfinite(ref) || !isfinite(x))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%+.1f%%", 100.0 * (x / ref - 1));
	return buf;
}

#define RUN_NAME_MAX 160

/* Category names for runs, in names (n x RUN_NAME_MAX bytes) with pointers in v. */
static int run_names(const struct run_result *runs, const s64 *ids, size_t n, char **names,
		     const char ***v)
{
	*names = malloc(n * RUN_NAME_MAX);
	*v = malloc(n * sizeof(**v));
	if (!*names || !*v)
		return GS_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		run_name(*names + RUN_NAME_MAX * i, RUN_NAME_MAX, &runs[i], ids[i]);
		(*v)[i] = *names + RUN_NAME_MAX * i;
	}
	return 0;
}

static int set_run_groups(struct plot *pl, int panel, const struct run_groups *g)
{
	return plot_set_category_groups(pl, panel, g->group, (const char *const *)g->names,
					g->nr_groups);
}

/* One bars panel of the energy figure: runs[0..n-1], stacked by cluster, totals above. */
static int energy_panel(struct plot *pl, const struct run_result *runs, const s64 *ids, size_t n,
			const struct run_groups *g, const char *title)
{
	int nr_clusters = 0;
	char *names = NULL, *totals = malloc(n * 32), ylabel[96];
	const char **namev = NULL, **totalv = malloc(n * sizeof(*totalv));
	double *v = malloc(n * sizeof(*v));
	int panel, ret = GS_ENOMEM;

	if (!v || !totals || !totalv || run_names(runs, ids, n, &names, &namev))
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (runs[i].nr_clusters > nr_clusters)
			nr_clusters = runs[i].nr_clusters;
		snprintf(totals + 32 * i, 32, "%.4g %s", runs[i].energy_total,
			 energy_unit_short(&runs[i]));
		totalv[i] = totals + 32 * i;
	}
	panel = plot_add_panel(pl, PLOT_PANEL_BARS, title);
	if (panel < 0 || plot_set_categories(pl, panel, namev, n) ||
	    (g && set_run_groups(pl, panel, g)))
		goto out;
	snprintf(ylabel, sizeof(ylabel), "energy (%s)", energy_unit_short(&runs[0]));
	plot_set_axis(pl, panel, PLOT_AXIS_Y, ylabel, 0, NAN, 0);
	plot_set_axis(pl, panel, PLOT_AXIS_X, "run", NAN, NAN, 0);
	plot_set_stacked(pl, panel, true);
	for (int c = 0; c < nr_clusters; c++) {
		char name[48];
		int s;
		for (size_t i = 0; i < n; i++)
			v[i] = c < runs[i].nr_clusters ? runs[i].energy_cluster[c] : NAN;
		/* the policy of the first run that has this cluster */
		for (size_t i = 0; i < n; i++)
			if (c < runs[i].nr_clusters) {
				snprintf(name, sizeof(name), "cluster%d (policy%d)", c,
					 runs[i].pol[c].policy);
				break;
			}
		s = plot_add_series(pl, panel, name, PLOT_BARS, 0, c, NULL, v, n);
		if (s < 0 || (c == 0 && plot_set_bar_labels(pl, s, totalv)))
			goto out;
	}
	ret = 0;
out:
	free(names);
	free(namev);
	free(totals);
	free(totalv);
	free(v);
	return ret;
}

/*
 * Energy per cluster per run. Runs of several traces (or platforms) get a panel per group,
 * each with its own y scale, so a trace of a hundredth of another's energy is not drawn as a
 * sliver beside it; more groups than panels share one.
 */
struct plot *report_energy_plot(const struct run_result *runs, const s64 *ids, size_t n)
{
	char sub[256];
	struct plot *pl = NULL;
	int ok = 0;
	bool same_unit = true, per_group;
	struct run_groups g;

	if (!n || run_groups_new(runs, ids, n, &g))
		return NULL;
	runs = g.runs;
	ids = g.ids;
	for (size_t i = 0; i < n; i++)
		same_unit &= strcmp(unit_of(&runs[i]), unit_of(&runs[0])) == 0;
	per_group = g.nr_groups > 1 && g.nr_groups <= PLOT_MAX_PANELS;
	snprintf(sub, sizeof(sub), "stacked by cluster (the cluster's CPUs and its own power)%s%s",
		 per_group ? "; each trace on its own scale" :
		 g.nr_groups > 1 ? "; WARNING: several traces on one scale" : "",
		 same_unit ? "" : "; WARNING: the runs use different power units");
	pl = plot_new("energy per cluster", sub);
	if (!pl)
		goto out;
	if (!per_group) {
		if (energy_panel(pl, runs, ids, n, &g, NULL))
			goto out;
	} else {
		for (size_t i = 0, j; i < n; i = j) {
			for (j = i; j < n && g.group[j] == g.group[i]; j++)
				;
			if (energy_panel(pl, runs + i, ids + i, j - i, NULL,
					 g.names[g.group[i]]))
				goto out;
		}
	}
	ok = 1;
out:
	run_groups_free(&g);
	if (!ok) {
		plot_free(pl);
		return NULL;
	}
	return pl;
}

/*
 * Energy and total task delay per run, each labelled relative to the first run of its trace
 * and platform: comparing runs of different traces says nothing about a policy. With one
 * group the bars are the figures themselves; with several, each bar is a percentage of its
 * group's first run, so every group has its own scale on a common axis.
 */
struct plot *report_compare_plot(const struct run_result *runs, const s64 *ids, size_t n)
{
	char *names = NULL, *rel = NULL, ylabel[96], title[128], pct[24];
	const char **namev = NULL, **relv = NULL;
	double *v = NULL, *bar = NULL;
	struct plot *pl = NULL;
	int ok = 0;
	bool scaled;
	struct run_groups g;

	if (n < 2 || run_groups_new(runs, ids, n, &g))
		return NULL;
	runs = g.runs; /* the first run stays first */
	ids = g.ids;
	scaled = g.nr_groups > 1;
	if (scaled)
		snprintf(title, sizeof(title), "run vs run: energy and total task delay, relative to "
					       "the first run of each trace");
	else
		snprintf(title, sizeof(title), "run vs run: energy and total task delay, relative to "
					       "run %" PRId64, ids[0]);
	pl = plot_new(title, "delay: how much later the tasks' slices finished than in the trace, "
			     "summed over tasks");
	v = malloc(n * sizeof(*v));
	bar = malloc(n * sizeof(*bar));
	rel = malloc(n * 48);
	relv = malloc(n * sizeof(*relv));
	if (!pl || !v || !bar || !rel || !relv || run_names(runs, ids, n, &names, &namev))
		goto out;
	/* a row of at least 22 px per run and group heading, under the title and legend */
	plot_set_size(pl, PLOT_WIDTH,
		      (int)fmax(PLOT_HEIGHT, 170 + 22.0 * (double)(n + g.nr_groups) + 60));
	for (int k = 0; k < 2; k++) {
		int panel = plot_add_panel(pl, PLOT_PANEL_HBARS, k ? "total task delay" : "energy");
		int s;
		if (panel < 0 || plot_set_categories(pl, panel, namev, n) ||
		    set_run_groups(pl, panel, &g))
			goto out;
		for (size_t i = 0; i < n; i++) {
			v[i] = k ? report_total_delay(&runs[i], NULL) : runs[i].energy_total;
			relv[i] = rel + 48 * i;
		}
		/* the value at the bar's end, and its change from the first run of its trace */
		for (size_t i = 0; i < n; i++) {
			size_t f = run_groups_first(&g, i);
			report_relative(pct, sizeof(pct), v[i], v[f], i == f);
			if (snprintf(rel + 48 * i, 48, "%.4g %s (%s)", v[i],
				     k ? "s" : energy_unit_short(&runs[0]), pct) >= 48)
				rel[48 * i + 46] = '~'; /* cut: say so at the label's end */
			bar[i] = !scaled ? v[i] : v[f] != 0 && isfinite(v[f]) ? 100.0 * v[i] / v[f] : NAN;
		}
		if (scaled)
			snprintf(ylabel, sizeof(ylabel), "%% of the trace's first run");
		else if (k)
			snprintf(ylabel, sizeof(ylabel), "delay (s)");
		else
			snprintf(ylabel, sizeof(ylabel), "energy (%s)", energy_unit_short(&runs[0]));
		plot_set_axis(pl, panel, PLOT_AXIS_Y, ylabel, 0, NAN, 0);
		s = plot_add_series(pl, panel, k ? "total task delay" : "energy", PLOT_BARS, 0,
				    k ? COL_DELAY : COL_ENERGY, NULL, bar, n);
		if (s < 0 || plot_set_bar_labels(pl, s, relv))
			goto out;
	}
	ok = 1;
out:
	run_groups_free(&g);
	free(names);
	free(namev);
	free(rel);
	free(relv);
	free(v);
	free(bar);
	if (!ok) {
		plot_free(pl);
		return NULL;
	}
	return pl;
}

/* ---- files ---- */

static int make_dir(const char *dir, struct gs_error *err)
{
	char path[4096];
	size_t len = strlen(dir);

	if (!len || len >= sizeof(path))
		return gs_error_set(err, GS_EARG, "'%s': bad output directory", dir);
	memcpy(path, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return gs_error_set(err, GS_EIO, "'%s': cannot create directory: %s", path,
					    strerror(errno));
		path[i] = i < len ? '/' : '\0';
	}
	return 0;
}

/* Draw pl to dir/name.png and dir/name.svg; frees pl. */
/* One figure file, drawn to a temporary name and renamed into place once complete. */
static int write_figure(const struct plot *pl, const char *path,
			int (*draw)(const struct plot *, const char *, struct gs_error *),
			struct gs_error *err)
{
	struct outfile o;
	int ret = outfile_open(&o, path, err);

	if (ret)
		return ret;
	errno = 0;
	ret = draw(pl, outfile_name(&o), err);
	if (ret == GS_EIO && errno) {
		/* a failed write: the system's reason, for the output's name */
		gs_error_set(err, ret, "'%s': write error: %s", path, strerror(errno));
	} else if (ret && err) {
		/* the drawing said "'TMP': REASON": name the output instead */
		char why[sizeof(err->msg)];
		size_t skip = strlen(outfile_name(&o)) + 4;
		bool named = strlen(err->msg) >= skip && err->msg[0] == '\'' &&
			     strncmp(err->msg + 1, outfile_name(&o), skip - 4) == 0;
		snprintf(why, sizeof(why), "%s", named ? err->msg + skip : err->msg);
		gs_error_set(err, ret, "'%s': %s", path, why);
	}
	if (ret) {
		outfile_abort(&o);
		return ret;
	}
	return outfile_commit(&o, err);
}

static int write_plot(struct plot *pl, const char *dir, const char *name, size_t *nr_files,
		      struct gs_error *err)
{
	char path[4096];
	int ret;

	if (!pl)
		return gs_error_set(err, GS_ENOMEM, "out of memory drawing '%s'", name);
	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	ret = write_figure(pl, path, plot_write_png, err);
	if (!ret) {
		(*nr_files)++;
		snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
		ret = write_figure(pl, path, plot_write_svg, err);
		if (!ret)
			(*nr_files)++;
	}
	plot_free(pl);
	return ret;
}

int report_write(const struct run_result *runs, const s64 *ids, size_t n, const char *dir,
		 unsigned flags, const char *source, size_t *nr_files, struct gs_error *err)
{
	size_t files = 0;
	char name[128];
	int ret;

	if (nr_files)
		*nr_files = 0;
	if (!n)
		return gs_error_set(err, GS_EARG, "no runs to report");
	/* the cross-run plots put every run on one scale relative to the first (as compare
	 * does, runs of different platforms or power units are refused; nothing is written) */
	for (size_t i = 1; i < n; i++) {
		if (strcmp(runs[i].platform, runs[0].platform) != 0)
			return gs_error_set(err, GS_EINPUT,
					    "runs of different platforms ('%s', '%s') cannot be put "
					    "on one relative scale: report the runs of one platform",
					    runs[0].platform, runs[i].platform);
		if (strcmp(unit_of(&runs[i]), unit_of(&runs[0])) != 0)
			return gs_error_set(err, GS_EINPUT,
					    "runs of different power units ('%s', '%s') cannot be put "
					    "on one relative scale: report the runs of one power model",
					    unit_of(&runs[0]), unit_of(&runs[i]));
	}
	ret = make_dir(dir, err);
	for (size_t i = 0; i < n && !ret; i++) {
		const struct run_result *r = &runs[i];
		for (int c = 0; c < r->nr_clusters && !ret; c++) {
			snprintf(name, sizeof(name), "run%" PRId64 "_timeline_policy%d", ids[i],
				 r->pol[c].policy);
			ret = write_plot(report_timeline_plot(r, ids[i], c), dir, name, &files, err);
		}
		snprintf(name, sizeof(name), "run%" PRId64 "_residency", ids[i]);
		if (!ret)
			ret = write_plot(report_residency_plot(r, ids[i]), dir, name, &files, err);
		snprintf(name, sizeof(name), "run%" PRId64 "_placement", ids[i]);
		if (!ret && r->nr_slices)
			ret = write_plot(report_placement_plot(r, ids[i]), dir, name, &files, err);
	}
	if (!ret)
		ret = write_plot(report_energy_plot(runs, ids, n), dir, "energy", &files, err);
	if (!ret && n >= 2)
		ret = write_plot(report_compare_plot(runs, ids, n), dir, "compare", &files, err);
	if (!ret && (flags & REPORT_HTML)) {
		char path[4096];
		struct outfile out;
		snprintf(path, sizeof(path), "%s/index.html", dir);
		if ((ret = outfile_open(&out, path, err)))
			return ret;
		ret = report_html(out.f, runs, ids, n, dir, source, err);
		if (ret == GS_EIO && ferror(out.f))
			ret = outfile_commit(&out, err); /* fails: the path and the reason */
		else if (ret)
			outfile_abort(&out);
		else
			ret = outfile_commit(&out, err);
		if (!ret)
			files++;
	}
	if (nr_files)
		*nr_files = files;
	return ret;
}

/* ---- HTML ---- */

static void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* PNG bytes as base64 (OpenSSL's EVP_EncodeBlock, a 3-byte group per 4 characters, '='-padded);
 * 0 or GS_ENOMEM. */
static int base64(FILE *out, const unsigned char *d, size_t n)
{
	unsigned char *b64;

	if (n > INT_MAX / 4 * 3 - 3)
		return GS_ENOMEM;
	b64 = malloc(4 * ((n + 2) / 3) + 1);
	if (!b64)
		return GS_ENOMEM;
	EVP_EncodeBlock(b64, d, (int)n);
	fputs((const char *)b64, out);
	free(b64);
	return 0;
}

/* <img> with dir/name.png embedded as a data: URI. */
static int html_img(FILE *out, const char *dir, const char *name, const char *alt,
		    struct gs_error *err)
{
	char path[4096];
	unsigned char *buf;
	long size;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	in = fopen(path, "rb");
	if (!in)
		return gs_error_set(err, GS_EIO, "'%s': %s", path, strerror(errno));
	if (fseek(in, 0, SEEK_END) || (size = ftell(in)) < 0 || fseek(in, 0, SEEK_SET)) {
		fclose(in);
		return gs_error_set(err, GS_EIO, "'%s': cannot read", path);
	}
	buf = malloc((size_t)size + 1);
	if (!buf) {
		fclose(in);
		return gs_error_set(err, GS_ENOMEM, "out of memory reading '%s'", path);
	}
	if (fread(buf, 1, (size_t)size, in) != (size_t)size) {
		free(buf);
		fclose(in);
		return gs_error_set(err, GS_EIO, "'%s': short read", path);
	}
	fclose(in);
	fprintf(out, "<figure id=\"fig-%s\"><img alt=\"", name);
	html_text(out, alt);
	fputs("\" src=\"data:image/png;base64,", out);
	if (base64(out, buf, (size_t)size)) {
		free(buf);
		return gs_error_set(err, GS_ENOMEM, "out of memory embedding '%s'", path);
	}
	fputs("\"><figcaption>", out);
	html_text(out, name);
	fputs(".png / .svg</figcaption></figure>\n", out);
	free(buf);
	return 0;
}

static const char html_style[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px auto;"
	"max-width:1240px;color:#222;line-height:1.4}\n"
	"h1{font-size:24px}h2{font-size:20px;margin-top:36px;border-bottom:1px solid #ddd}"
	"h3{font-size:16px}\n"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:14px;max-width:100%}\n"
	/* long paths, labels and policy lines break anywhere: the tables fit the 1240-px body,
	 * so a 1400-px window shows them without a horizontal scroll bar; headings break only
	 * between words and numbers never ("r/u/n", "0.42/808/3" in a squeezed column) */
	"th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}\n"
	"td{overflow-wrap:anywhere}\n"
	"th{background:#f4f6f8;overflow-wrap:normal}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"figure{margin:12px 0}img{max-width:100%;height:auto;border:1px solid #eee}\n"
	"figcaption{font-size:12px;color:#777}code{font-size:13px}\n";

/* A number cell: v with `decimals` decimals, then `suffix` ("%" or ""). */
static void td_num(FILE *out, int decimals, double v, const char *suffix)
{
	fprintf(out, "<td class=\"num\">%.*f%s</td>", decimals, v, suffix);
}

static void td_text(FILE *out, const char *s)
{
	fputs("<td>", out);
	html_text(out, s);
	fputs("</td>", out);
}

/* A relative figure ("+12.3%", "ref"): a number cell, never broken. */
static void td_rel(FILE *out, const char *s)
{
	fputs("<td class=\"num\">", out);
	html_text(out, s);
	fputs("</td>", out);
}

/* The runs table; each run's energy and delay relative to the first run of its trace and
 * platform (in the order given). */
static void html_runs_table(FILE *out, const struct run_result *runs, const s64 *ids, size_t n)
{
	char buf[96], pol[1024];

	fputs("<table class=\"runs\">\n<tr><th>run</th><th>label</th><th>trace</th><th>platform</th>"
	      "<th>governor</th><th>timing</th><th>util</th><th>power</th><th>clamp policy</th>"
	      "<th>tunables</th><th>span (s)</th><th>energy</th><th>energy vs first of trace</th>"
	      "<th>total delay (s)</th><th>delay vs first of trace</th></tr>\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = &runs[i];
		double d = report_total_delay(r, NULL);
		size_t f = 0;
		while (!run_groups_same(&runs[f], r))
			f++;
		fprintf(out, "<tr><td class=\"num\"><a href=\"#run%" PRId64 "\">%" PRId64 "</a></td>",
			ids[i], ids[i]);
		td_text(out, r->label);
		td_text(out, r->trace);
		td_text(out, r->platform);
		td_text(out, r->governor);
		td_text(out, r->timing);
		td_text(out, r->util_source);
		td_text(out, r->power_model);
		policy_line(pol, sizeof(pol), r->policy);
		td_text(out, pol);
		td_text(out, r->params);
		td_num(out, 6, r->span_s, "");
		fputs("<td class=\"num\">", out);
		energy_unit_long(buf, sizeof(buf), r);
		fprintf(out, "%.6f ", r->energy_total);
		html_text(out, buf);
		fputs("</td>", out);
		td_rel(out, report_relative(buf, sizeof(buf), r->energy_total, runs[f].energy_total,
					    i == f));
		td_num(out, 6, d, "");
		td_rel(out, report_relative(buf, sizeof(buf), d, report_total_delay(&runs[f], NULL),
					    i == f));
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_energy_table(FILE *out, const struct run_result *runs, const s64 *ids, size_t n)
{
	int nr_clusters = 0;
	char unit[64];

	for (size_t i = 0; i < n; i++)
		if (runs[i].nr_clusters > nr_clusters)
			nr_clusters = runs[i].nr_clusters;
	fputs("<table class=\"energy\">\n<tr><th>run</th>", out);
	for (int c = 0; c < nr_clusters; c++)
		fprintf(out, "<th>cluster%d</th>", c);
	fputs("<th>total</th><th>unit</th><th>avg power</th></tr>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = &runs[i];
		fprintf(out, "<tr><td class=\"num\">%" PRId64 "</td>", ids[i]);
		for (int c = 0; c < nr_clusters; c++) {
			if (c < r->nr_clusters)
				td_num(out, 6, r->energy_cluster[c], "");
			else
				fputs("<td></td>", out);
		}
		td_num(out, 6, r->energy_total, "");
		energy_unit_long(unit, sizeof(unit), r);
		td_text(out, unit);
		if (r->span_s > 0)
			td_num(out, 6, r->energy_total / r->span_s, "");
		else
			fputs("<td></td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void html_residency_table(FILE *out, const struct run_result *r)
{
	fputs("<table class=\"residency\">\n<tr><th>policy</th><th>OPP (kHz)</th>"
	      "<th>time (s)</th><th>share</th></tr>\n",
	      out);
	for (int c = 0; c < r->nr_clusters; c++) {
		const struct run_policy_result *p = &r->pol[c];
		double total = 0;
		for (int k = 0; k < p->nr_opps; k++)
			total += p->residency_s[k];
		for (int k = 0; k < p->nr_opps; k++) {
			fprintf(out, "<tr><td>policy%d</td><td class=\"num\">%u</td>", p->policy,
				p->freq_khz[k]);
			td_num(out, 6, p->residency_s[k], "");
			td_num(out, 1, total > 0 ? 100.0 * p->residency_s[k] / total : 0, "%");
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);

	fputs("<table class=\"policy\">\n<tr><th>policy</th><th>cluster</th><th>avg freq (MHz)</th>"
	      "<th>transitions</th><th>busy (s)</th><th>overutilized (s)</th></tr>\n",
	      out);
	for (int c = 0; c < r->nr_clusters; c++) {
		const struct run_policy_result *p = &r->pol[c];
		fprintf(out, "<tr><td>policy%d</td><td>%d</td>", p->policy, p->cluster);
		if (isnan(p->avg_freq_khz))
			fputs("<td>no activity</td>", out);
		else
			td_num(out, 1, p->avg_freq_khz / 1000.0, "");
		fprintf(out, "<td class=\"num\">%" PRIu64 "</td>", p->transitions);
		td_num(out, 6, p->busy_s, "");
		td_num(out, 6, p->overutilized_s, "");
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static int cmp_delay_desc(const void *a, const void *b)
{
	const struct run_task_result *x = *(const struct run_task_result *const *)a;
	const struct run_task_result *y = *(const struct run_task_result *const *)b;

	if (x->delay_s != y->delay_s)
		return x->delay_s < y->delay_s ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

#define HTML_TOP_TASKS 10

static int html_delay_table(FILE *out, const struct run_result *r, struct gs_error *err)
{
	const struct run_task_result *worst, **v;
	double total = report_total_delay(r, &worst);
	int shown;

	fputs("<table class=\"delay\">\n<tr><th>tasks</th><th>total delay (s)</th>"
	      "<th>worst slice (s)</th><th>worst task</th></tr>\n",
	      out);
	fprintf(out, "<tr><td class=\"num\">%d</td>", r->nr_tasks);
	td_num(out, 6, total, "");
	if (worst) {
		char who[64];
		td_num(out, 6, worst->max_delay_s, "");
		snprintf(who, sizeof(who), "%s %d", worst->comm, worst->pid);
		td_text(out, who);
	} else {
		fputs("<td></td><td></td>", out);
	}
	fputs("</tr>\n</table>\n", out);
	if (r->nr_tasks <= 0)
		return 0;

	v = malloc((size_t)r->nr_tasks * sizeof(*v));
	if (!v)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	for (int i = 0; i < r->nr_tasks; i++)
		v[i] = &r->tasks[i];
	qsort(v, (size_t)r->nr_tasks, sizeof(*v), cmp_delay_desc);
	shown = r->nr_tasks < HTML_TOP_TASKS ? r->nr_tasks : HTML_TOP_TASKS;
	fprintf(out, "<table class=\"tasks\">\n<tr><th colspan=\"5\">the %d most delayed tasks"
		     "</th></tr>\n<tr><th>pid</th><th>comm</th><th>runtime (s)</th>"
		     "<th>delay (s)</th><th>worst slice (s)</th></tr>\n",
		shown);
	for (int i = 0; i < shown; i++) {
		fprintf(out, "<tr><td class=\"num\">%d</td>", v[i]->pid);
		td_text(out, v[i]->comm);
		td_num(out, 6, v[i]->runtime_s, "");
		td_num(out, 6, v[i]->delay_s, "");
		td_num(out, 6, v[i]->max_delay_s, "");
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	free(v);
	return 0;
}

static void html_uclamp_table(FILE *out, const struct run_result *r)
{
	fputs("<table class=\"uclamp\">\n<tr><th>static key</th><th>on since (s)</th>"
	      "<th>aggregations run</th><th>skipped</th><th>clamped up (s)</th>"
	      "<th>clamped down (s)</th></tr>\n",
	      out);
	fprintf(out, "<tr><td>%s</td>", r->key_on ? "on" : "off");
	if (r->key_on)
		td_num(out, 6, r->key_on_at_s, "");
	else
		fputs("<td></td>", out);
	fprintf(out, "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64 "</td>",
		r->agg_ops, r->agg_skipped);
	td_num(out, 6, r->clamped_up_s, "");
	td_num(out, 6, r->clamped_down_s, "");
	fputs("</tr>\n</table>\n", out);
}

int report_html(FILE *out, const struct run_result *runs, const s64 *ids, size_t n,
		const char *dir, const char *source, struct gs_error *err)
{
	struct strbuf title = STRBUF_INIT, sub = STRBUF_INIT;
	char name[128];
	int ret = 0;

	if (!n)
		return gs_error_set(err, GS_EARG, "no runs to report");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>govsim report</title>\n<style>\n",
	      out);
	fputs(html_style, out);
	fputs("</style>\n</head>\n<body>\n<h1>govsim report</h1>\n<p>", out);
	if (source) {
		fputs("results database <code>", out);
		html_text(out, source);
		fputs("</code>, ", out);
	}
	fprintf(out, "%zu run%s. Energies in joules for the em power model, otherwise in the "
		     "costs model's unit &times; s. Delay: how much later each task's slices "
		     "finished than in the trace (work timing), summed.</p>\n",
		n, n == 1 ? "" : "s");

	fputs("<h2 id=\"runs\">Runs</h2>\n", out);
	html_runs_table(out, runs, ids, n);
	if (n >= 2) {
		fputs("<h2 id=\"compare\">Run vs run</h2>\n", out);
		ret = html_img(out, dir, "compare", "energy and total delay per run", err);
	}
	if (!ret) {
		fputs("<h2 id=\"energy\">Energy</h2>\n", out);
		html_energy_table(out, runs, ids, n);
		ret = html_img(out, dir, "energy", "energy per cluster per run", err);
	}
	for (size_t i = 0; i < n && !ret; i++) {
		const struct run_result *r = &runs[i];
		strbuf_reset(&title);
		strbuf_reset(&sub);
		run_title(&title, r, ids[i]);
		run_subtitle(&sub, r);
		if (strbuf_error(&title) || strbuf_error(&sub)) {
			ret = gs_error_set(err, GS_ENOMEM, "out of memory");
			break;
		}
		fprintf(out, "<h2 id=\"run%" PRId64 "\">", ids[i]);
		html_text(out, strbuf_str(&title));
		fputs("</h2>\n<p>", out);
		html_text(out, strbuf_str(&sub));
		if (r->notes[0]) {
			fputs("<br>note: ", out);
			html_text(out, r->notes);
		}
		fputs("</p>\n<h3>Frequency, utilization and capacity</h3>\n", out);
		for (int c = 0; c < r->nr_clusters && !ret; c++) {
			snprintf(name, sizeof(name), "run%" PRId64 "_timeline_policy%d", ids[i],
				 r->pol[c].policy);
			ret = html_img(out, dir, name, "frequency timeline", err);
		}
		if (ret)
			break;
		fputs("<h3>OPP residency</h3>\n", out);
		snprintf(name, sizeof(name), "run%" PRId64 "_residency", ids[i]);
		ret = html_img(out, dir, name, "OPP residency", err);
		if (ret)
			break;
		html_residency_table(out, r);
		fputs("<h3>Delay</h3>\n", out);
		ret = html_delay_table(out, r, err);
		fputs("<h3>uclamp</h3>\n", out);
		html_uclamp_table(out, r);
	}
	strbuf_free(&title);
	strbuf_free(&sub);
	fputs("</body>\n</html>\n", out);
	if (!ret && ferror(out))
		ret = gs_error_set(err, GS_EIO, "error writing the HTML page");
	return ret;
}
