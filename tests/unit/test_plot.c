/*
 * test_plot.c - the plot module (src/report/plot.c) and the report's figures and HTML page
 * (src/report/report.c).
 *
 * Checks: tick steps against worked numbers; a PNG file is a PNG of the requested size (IHDR read
 * byte by byte, and loaded back through cairo), with a white background and bars whose drawn
 * pixels match their values (a grouped bar's width, a stacked bar's 3:1 split counted in
 * pixels); an SVG file is well-formed XML (a small tag-balance parser written here) with one
 * <svg> root of width="1200px" height="600px"; the report's plots hold exactly the run_result's
 * data (frequencies in MHz, traced gaps where the trace had none, util and capacity, residency
 * seconds and shares, energy per cluster, run-vs-run percentages worked by hand); report_write()
 * writes the predictable file names and an index.html with every PNG embedded (base64 of the PNG
 * signature), the tables' numbers, and escaped text; an unwritable directory is GS_EIO; the
 * compare chart legible at 20 and 60 runs (a row per run, labels whole, no overlap, a log axis
 * exactly when the values span decades); the same frame and axes from the PNG and SVG
 * surfaces; the tune plot's answer mark, axis units and log axis across decades.
 * Does not check: how the figures look (reviewed by eye), fonts, or the SVG's drawing.
 */
#include "testutil.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/tune_plot.h"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/plot-XXXXXX", test_tmpdir());
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	plot_release_static();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp(const char *name)
{
	static char buf[4][512];
	static int slot;
	char *b = buf[slot++ % 4];
	snprintf(b, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return b;
}

/* The whole file, NUL-terminated; *len its size. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ---- ticks ---- */

static void test_nice_ticks(void **state)
{
	double first, step;
	(void)state;

	/* 1024/6 = 170.7 -> next of 1,2,2.5,5 x 100 is 200: 0, 200, ..., 1000 */
	assert_int_equal(plot_nice_ticks(0, 1024, 6, &first, &step), 6);
	assert_true(step == 200 && first == 0);
	/* 6.678/13 = 0.514 -> 0.5 is too small, 1.0: 0 .. 6 */
	assert_int_equal(plot_nice_ticks(0, 6.678356, 13, &first, &step), 7);
	assert_true(step == 1 && first == 0);
	/* 0.78/4 = 0.195 -> 0.2: 0.2, 0.4, 0.6, 0.8 */
	assert_int_equal(plot_nice_ticks(0.13, 0.91, 4, &first, &step), 4);
	assert_true(fabs(step - 0.2) < 1e-12 && fabs(first - 0.2) < 1e-12);
	/* 10/4 = 2.5 -> 2.5: 0, 2.5, 5, 7.5, 10 */
	assert_int_equal(plot_nice_ticks(0, 10, 4, &first, &step), 5);
	assert_true(step == 2.5 && first == 0);
	/* 10/5 = 2 -> 2: -2, 0, 2, 4, 6 within [-3, 7] */
	assert_int_equal(plot_nice_ticks(-3, 7, 5, &first, &step), 5);
	assert_true(step == 2 && first == -2);
	assert_int_equal(plot_nice_ticks(5, 5, 4, &first, &step), 0);
	assert_int_equal(plot_nice_ticks(0, NAN, 4, &first, &step), 0);
}

/* ---- PNG ---- */

static unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

/* Width and height from the IHDR chunk, which must directly follow the signature. */
static void png_size(const char *path, unsigned *w, unsigned *h)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	size_t len;
	unsigned char *d = (unsigned char *)slurp(path, &len);

	assert_true(len > 33);
	assert_memory_equal(d, sig, 8);
	assert_int_equal(be32(d + 8), 13); /* IHDR length */
	assert_memory_equal(d + 12, "IHDR", 4);
	*w = be32(d + 16);
	*h = be32(d + 20);
	free(d);
}

static unsigned pixel(cairo_surface_t *s, int x, int y)
{
	unsigned char *data = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	uint32_t v;

	memcpy(&v, data + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
	return v & 0xffffff; /* opaque: un-premultiplied RGB */
}

static unsigned palette_hex(int i)
{
	double rgb[3];
	plot_palette(i, rgb);
	return (unsigned)lround(rgb[0] * 255) << 16 | (unsigned)lround(rgb[1] * 255) << 8 |
	       (unsigned)lround(rgb[2] * 255);
}

static void test_png_size(void **state)
{
	struct plot *p = plot_new("sizes", NULL);
	double x[] = {0, 1, 2}, y[] = {1, 3, 2};
	struct gs_error err = {0};
	unsigned w, h;
	int panel;
	(void)state;

	assert_non_null(p);
	panel = plot_add_panel(p, PLOT_PANEL_XY, "a panel");
	assert_int_equal(panel, 0);
	plot_set_axis(p, panel, PLOT_AXIS_X, "time (s)", NAN, NAN, 0);
	assert_int_equal(plot_add_series(p, panel, "line", PLOT_LINE, 0, 0, x, y, 3), 0);
	assert_int_equal(plot_write_png(p, tmp("a.png"), &err), 0);
	png_size(tmp("a.png"), &w, &h);
	assert_int_equal(w, PLOT_WIDTH);
	assert_int_equal(h, PLOT_HEIGHT);
	plot_set_size(p, 800, 400);
	assert_int_equal(plot_write_png(p, tmp("b.png"), &err), 0);
	png_size(tmp("b.png"), &w, &h);
	assert_int_equal(w, 800);
	assert_int_equal(h, 400);
	/* a missing directory is an I/O error naming the file */
	assert_int_equal(plot_write_png(p, "/nonexistent-dir/x.png", &err), GS_EIO);
	assert_non_null(strstr(err.msg, "'/nonexistent-dir/x.png'"));
	plot_free(p);
	plot_free(NULL);
}

static void test_png_bars_pixels(void **state)
{
	struct plot *p = plot_new("bars", "pixels");
	const char *cats[] = {"only"};
	double a[] = {3}, b[] = {1}, g[] = {10};
	struct gs_error err = {0};
	cairo_surface_t *s;
	int panel, best_x = -1, best = 0, c0 = 0, c1 = 0, W, H, run = 0, best_run = 0;
	(void)state;

	/* panel 0: stacked 3 + 1 on a 0..4 axis; panel 1: one grouped bar */
	panel = plot_add_panel(p, PLOT_PANEL_BARS, NULL);
	assert_int_equal(plot_add_series(p, panel, "a", PLOT_BARS, 0, 0, NULL, a, 1), GS_EARG);
	assert_int_equal(plot_set_categories(p, panel, cats, 1), 0);
	plot_set_stacked(p, panel, true);
	plot_set_axis(p, panel, PLOT_AXIS_Y, "v", 0, 4, 1);
	assert_int_equal(plot_add_series(p, panel, "a", PLOT_BARS, 0, 0, NULL, a, 1), 0);
	assert_int_equal(plot_add_series(p, panel, "b", PLOT_BARS, 0, 1, NULL, b, 1), 1);
	panel = plot_add_panel(p, PLOT_PANEL_BARS, NULL);
	assert_int_equal(plot_set_categories(p, panel, cats, 1), 0);
	assert_int_equal(plot_add_series(p, panel, "g", PLOT_BARS, 0, 2, NULL, g, 1), 2);
	/* a line series does not fit a bars panel */
	assert_int_equal(plot_add_series(p, panel, "l", PLOT_LINE, 0, 0, g, g, 1), GS_EARG);
	assert_int_equal(plot_write_png(p, tmp("bars.png"), &err), 0);
	plot_free(p);

	s = cairo_image_surface_create_from_png(tmp("bars.png"));
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	W = cairo_image_surface_get_width(s);
	H = cairo_image_surface_get_height(s);
	assert_int_equal(W, PLOT_WIDTH);
	assert_int_equal(H, PLOT_HEIGHT);
	assert_int_equal(pixel(s, 2, 2), 0xffffff);
	assert_int_equal(pixel(s, W - 3, H - 3), 0xffffff);

	/* the stacked bar: the column with the most colour-0 and colour-1 pixels */
	for (int x = 0; x < W / 2; x++) {
		int n0 = 0, n1 = 0;
		for (int y = 0; y < H; y++) {
			unsigned v = pixel(s, x, y);
			n0 += v == palette_hex(0);
			n1 += v == palette_hex(1);
		}
		if (n0 + n1 > best) {
			best = n0 + n1;
			best_x = x;
			c0 = n0;
			c1 = n1;
		}
	}
	assert_true(best_x >= 0 && best > 200);
	/* 3 : 1 within the seam and rounding (2 px) */
	assert_true(abs(c0 - 3 * c1) <= 8);

	/* the grouped bar in the right half: at most 60 px wide (drawn 58), one run of pixels in
	 * the row just above the x axis' middle */
	for (int x = W / 2; x < W; x++) {
		if (pixel(s, x, H / 2) == palette_hex(2)) {
			run++;
			if (run > best_run)
				best_run = run;
		} else {
			run = 0;
		}
	}
	assert_true(best_run >= 54 && best_run <= 60);
	cairo_surface_destroy(s);
}

/* ---- SVG ---- */

/*
 * Well-formed enough: every element closed in order, attributes quoted, exactly one root.
 * Returns the root's name's start tag (a pointer into doc) or NULL.
 */
static const char *xml_check(const char *doc)
{
	const char *stack[256], *root = NULL;
	size_t stack_len[256];
	int depth = 0, roots = 0;
	const char *p = doc;

	while ((p = strchr(p, '<'))) {
		if (strncmp(p, "<?", 2) == 0) {
			p = strstr(p, "?>");
			if (!p)
				return NULL;
			continue;
		}
		if (strncmp(p, "<!--", 4) == 0) {
			p = strstr(p, "-->");
			if (!p)
				return NULL;
			continue;
		}
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, " \t\n>");
			if (!depth || n != stack_len[depth - 1] ||
			    strncmp(p + 2, stack[depth - 1], n) != 0)
				return NULL;
			depth--;
			p = strchr(p, '>');
			if (!p)
				return NULL;
			continue;
		}
		{
			const char *name = p + 1, *q;
			size_t n = strcspn(name, " \t\n/>");
			char quote = 0;
			if (!n)
				return NULL;
			for (q = name + n; *q; q++) {
				if (quote) {
					if (*q == quote)
						quote = 0;
				} else if (*q == '"' || *q == '\'') {
					quote = *q;
				} else if (*q == '<') {
					return NULL;
				} else if (*q == '>') {
					break;
				}
			}
			if (!*q)
				return NULL;
			if (!depth) {
				roots++;
				root = p;
			}
			if (q[-1] != '/') {
				if (depth == 256)
					return NULL;
				stack[depth] = name;
				stack_len[depth] = n;
				depth++;
			}
			p = q;
		}
	}
	return depth == 0 && roots == 1 ? root : NULL;
}

static void test_xml_check_itself(void **state)
{
	(void)state;
	assert_non_null(xml_check("<?xml version=\"1.0\"?><svg a=\"1\"><g><path d=\"x\"/></g></svg>"));
	assert_null(xml_check("<svg><g></svg>"));
	assert_null(xml_check("<svg></svg><svg></svg>"));
	assert_null(xml_check("<svg a=\"<\"><g></g>"));
}

static void test_svg_wellformed(void **state)
{
	struct plot *p = plot_new("svg & <text>", "sub");
	double x[] = {0, 1, 2, 3}, y[] = {1, NAN, 2, 2};
	struct gs_error err = {0};
	const char *root;
	char *doc;
	int panel;
	(void)state;

	panel = plot_add_panel(p, PLOT_PANEL_XY, NULL);
	assert_int_equal(plot_add_series(p, panel, "a & b", PLOT_STEP, PLOT_F_FILL, 0, x, y, 4), 0);
	assert_int_equal(plot_add_series(p, panel, "r", PLOT_LINE, PLOT_F_RIGHT, 1, x, x, 4), 1);
	assert_int_equal(plot_write_svg(p, tmp("a.svg"), &err), 0);
	plot_free(p);
	doc = slurp(tmp("a.svg"), NULL);
	root = xml_check(doc);
	assert_non_null(root);
	assert_int_equal(strncmp(root, "<svg ", 5), 0);
	assert_non_null(strstr(root, "width=\"1200px\""));
	assert_non_null(strstr(root, "height=\"600px\""));
	assert_true(strstr(root, "height=\"600px\"") < strchr(root, '>'));
	free(doc);
}

/* ---- the report's figures ---- */

/* Two runs on a made-up two-policy platform (policies 0 and 4). */
static void make_runs(struct run_result runs[2])
{
	static struct run_timeline_point tl[] = {
		{0.0, 0, 500000, 0, 100, 200},
		{0.0, 4, 1000000, 1200000, 300, 512},
		{0.5, 0, 1000000, 0, 700, 400},
		{1.0, 4, 2000000, 0, 1000, 1024},
	};
	static struct run_task_result tasks[2][2] = {
		{{10, "a", 1.0, 1.5, 0.25}, {11, "b", 0.5, 0.5, 0.5}},
		{{10, "a", 1.0, 0.75, 0.1}, {11, "b", 0.5, 0.25, 0.2}},
	};

	for (int i = 0; i < 2; i++) {
		struct run_result *r = &runs[i];
		memset(r, 0, sizeof(*r));
		snprintf(r->trace, sizeof(r->trace), "traces/x/wl/trace.txt");
		snprintf(r->platform, sizeof(r->platform), "made-up");
		snprintf(r->governor, sizeof(r->governor), "schedutil");
		snprintf(r->power_unit, sizeof(r->power_unit), "J");
		r->span_s = 2.0;
		r->nr_clusters = 2;
		for (int c = 0; c < 2; c++) {
			struct run_policy_result *p = &r->pol[c];
			p->policy = c ? 4 : 0;
			p->cluster = c;
			p->nr_opps = 2;
			p->freq_khz[0] = c ? 1000000 : 500000;
			p->freq_khz[1] = c ? 2000000 : 1000000;
		}
		r->nr_timeline = 4;
		r->timeline = tl;
		r->nr_tasks = 2;
		r->tasks = tasks[i];
	}
	snprintf(runs[1].label, sizeof(runs[1].label), "a<b&c");
	/* run 1: residency 1.5 s + 0.5 s (75%, 25%); energy 0.3 + 0.1 = 0.4 J; delay 2 s */
	runs[0].pol[0].residency_s[0] = 1.5;
	runs[0].pol[0].residency_s[1] = 0.5;
	runs[0].pol[1].residency_s[0] = 2.0;
	runs[0].energy_cluster[0] = 0.3;
	runs[0].energy_cluster[1] = 0.1;
	runs[0].energy_total = 0.4;
	/* run 2: energy 0.2 + 0.4 = 0.6 J (+50%); delay 1 s (-50%) */
	runs[1].pol[0].residency_s[1] = 2.0;
	runs[1].pol[1].residency_s[1] = 2.0;
	runs[1].energy_cluster[0] = 0.2;
	runs[1].energy_cluster[1] = 0.4;
	runs[1].energy_total = 0.6;
	runs[1].key_on = true;
	runs[1].key_on_at_s = 0.25;
}

static const struct plot_series *find(const struct plot *p, const char *prefix)
{
	for (size_t i = 0; i < plot_nr_series(p); i++)
		if (strncmp(plot_series_at(p, i)->name, prefix, strlen(prefix)) == 0)
			return plot_series_at(p, i);
	return NULL;
}

static void test_timeline_data(void **state)
{
	struct run_result runs[2];
	const struct plot_series *s;
	struct plot *p;
	(void)state;

	make_runs(runs);
	/* policy 0: no traced frequency anywhere, so no traced series */
	p = report_timeline_plot(&runs[0], 1, 0);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 3);
	assert_null(find(p, "traced"));
	s = find(p, "emulated frequency");
	assert_non_null(s);
	assert_int_equal(s->n, 2);
	assert_true(s->x[0] == 0.0 && s->x[1] == 0.5);
	assert_true(s->y[0] == 500.0 && s->y[1] == 1000.0); /* MHz */
	assert_int_equal(s->style, PLOT_STEP);
	s = find(p, "utilization");
	assert_non_null(s);
	assert_true(s->y[0] == 100 && s->y[1] == 700 && (s->flags & PLOT_F_RIGHT));
	/* util is sampled at evaluations: held until the next one, not interpolated */
	assert_int_equal(s->style, PLOT_STEP);
	s = find(p, "capacity");
	assert_non_null(s);
	assert_true(s->y[0] == 200 && s->y[1] == 400 && (s->flags & PLOT_F_RIGHT));
	plot_free(p);

	/* policy 4: a traced frequency at the first point only, a gap after it */
	p = report_timeline_plot(&runs[0], 1, 1);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 4);
	s = find(p, "traced frequency");
	assert_non_null(s);
	assert_int_equal(s->n, 2);
	assert_true(s->y[0] == 1200.0 && isnan(s->y[1]));
	s = find(p, "emulated frequency");
	assert_true(s->x[1] == 1.0 && s->y[1] == 2000.0);
	plot_free(p);

	assert_null(report_timeline_plot(&runs[0], 1, 2));
}

static void test_residency_energy_compare_data(void **state)
{
	struct run_result runs[2];
	s64 ids[2] = {1, 7};
	const struct plot_series *s;
	struct plot *p;
	char buf[32];
	(void)state;

	make_runs(runs);
	p = report_residency_plot(&runs[0], 1);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 2);
	s = plot_series_at(p, 0);
	assert_string_equal(s->name, "policy0");
	assert_true(s->n == 2 && s->y[0] == 1.5 && s->y[1] == 0.5);
	assert_string_equal(s->labels[0], "75.0%");
	assert_string_equal(s->labels[1], "25.0%");
	s = plot_series_at(p, 1);
	assert_true(s->panel == 1 && s->y[0] == 2.0 && s->y[1] == 0.0);
	assert_string_equal(s->labels[0], "100.0%");
	plot_free(p);

	p = report_energy_plot(runs, ids, 2);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 2);
	s = find(p, "cluster0");
	assert_true(s->y[0] == 0.3 && s->y[1] == 0.2);
	assert_string_equal(s->labels[0], "0.4 J");
	assert_string_equal(s->labels[1], "0.6 J");
	s = find(p, "cluster1");
	assert_true(s->y[0] == 0.1 && s->y[1] == 0.4);
	plot_free(p);

	assert_null(report_compare_plot(runs, ids, 1));
	p = report_compare_plot(runs, ids, 2);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 2);
	s = plot_series_at(p, 0); /* energy */
	assert_true(s->y[0] == 0.4 && s->y[1] == 0.6);
	/* the value at the bar's end, and the change from the first run */
	assert_string_equal(s->labels[0], "0.4 J (ref)");
	assert_string_equal(s->labels[1], "0.6 J (+50.0%)");
	s = plot_series_at(p, 1); /* delay: 1.5 + 0.5 = 2 s, then 0.75 + 0.25 = 1 s */
	assert_true(s->y[0] == 2.0 && s->y[1] == 1.0);
	assert_string_equal(s->labels[1], "1 s (-50.0%)");
	plot_free(p);

	assert_string_equal(report_relative(buf, sizeof(buf), 1, 0, false), "n/a");
	assert_string_equal(report_relative(buf, sizeof(buf), 0.9, 1.2, false), "-25.0%");
}

static void test_report_write_html(void **state)
{
	static const char *const files[] = {
		"run1_timeline_policy0.png", "run1_timeline_policy0.svg", "run1_timeline_policy4.png",
		"run1_timeline_policy4.svg", "run1_residency.png",        "run1_residency.svg",
		"run7_timeline_policy0.png", "run7_timeline_policy4.svg", "run7_residency.png",
		"energy.png",                "energy.svg",                "compare.png",
		"compare.svg",               "index.html",
	};
	struct run_result runs[2];
	s64 ids[2] = {1, 7};
	struct gs_error err = {0};
	char dir[512], path[600], *html;
	size_t nr_files;
	unsigned w, h;
	(void)state;

	make_runs(runs);
	snprintf(dir, sizeof(dir), "%s/out/sub", tmpdir); /* created, parents too */
	assert_int_equal(report_write(runs, ids, 2, dir, REPORT_HTML, "x.db", &nr_files, &err), 0);
	/* 2 runs x (2 timelines + residency) + energy + compare, twice (png, svg), + html */
	assert_int_equal(nr_files, 2 * (2 * 3 + 2) + 1);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		assert_int_equal(access(path, R_OK), 0);
	}
	snprintf(path, sizeof(path), "%s/energy.png", dir);
	png_size(path, &w, &h);
	assert_true(w == 1200 && h == 600);

	snprintf(path, sizeof(path), "%s/index.html", dir);
	html = slurp(path, NULL);
	/* every PNG embedded: "iVBORw0KGgo" is base64 of the 8-byte PNG signature */
	assert_int_equal(count(html, "src=\"data:image/png;base64,iVBORw0KGgo"), 8);
	assert_int_equal(count(html, "<img "), 8);
	assert_non_null(strstr(html, ">75.0%<"));
	assert_non_null(strstr(html, ">1.500000<"));
	assert_non_null(strstr(html, ">0.400000 J<"));
	assert_non_null(strstr(html, ">+50.0%<"));
	assert_non_null(strstr(html, ">-50.0%<"));
	assert_non_null(strstr(html, ">2.000000<")); /* run 1's total delay */
	assert_non_null(strstr(html, ">0.250000<")); /* run 7's key-on time */
	assert_non_null(strstr(html, "a&lt;b&amp;c"));
	assert_null(strstr(html, "a<b"));
	free(html);

	/* one run: no compare figure */
	snprintf(dir, sizeof(dir), "%s/one", tmpdir);
	assert_int_equal(report_write(runs, ids, 1, dir, 0, NULL, &nr_files, &err), 0);
	assert_int_equal(nr_files, 2 * (2 + 1 + 1));
	snprintf(path, sizeof(path), "%s/compare.png", dir);
	assert_int_not_equal(access(path, F_OK), 0);

	assert_int_equal(report_write(runs, ids, 1, "/proc/govsim-no/x", 0, NULL, NULL, &err),
			 GS_EIO);
	assert_int_equal(report_write(runs, ids, 0, dir, 0, NULL, NULL, &err), GS_EARG);
}

/* ---- layout of category labels, groups and titles ---- */

static bool overlap(const struct plot_box *a, const struct plot_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* every box inside the canvas, and no two of them (labels, group labels, bar values)
 * overlapping */
static void assert_laid_out(const struct plot *p, const struct plot_layout *l)
{
	static struct plot_box all[3 * PLOT_LAYOUT_MAX];
	size_t n = 0;

	for (size_t i = 0; i < l->nr_cats; i++)
		all[n++] = l->cats[i];
	for (size_t i = 0; i < l->nr_groups; i++)
		all[n++] = l->groups[i];
	for (size_t i = 0; i < l->nr_bar_labels; i++)
		all[n++] = l->bar_labels[i];
	for (size_t i = 0; i < n; i++) {
		if (!(all[i].x0 >= 0 && all[i].y0 >= 0 && all[i].x1 <= plot_width(p) &&
		      all[i].y1 <= plot_height(p)))
			fail_msg("box %zu (%.1f,%.1f)-(%.1f,%.1f) leaves the %dx%d canvas", i,
				 all[i].x0, all[i].y0, all[i].x1, all[i].y1, plot_width(p),
				 plot_height(p));
		assert_true(all[i].x1 > all[i].x0 && all[i].y1 > all[i].y0);
		for (size_t j = 0; j < i; j++)
			if (overlap(&all[i], &all[j]))
				fail_msg("boxes %zu and %zu overlap", j, i);
	}
}

static struct plot *bars_plot(const char *title, const char *const *names, size_t n)
{
	struct plot *p = plot_new(title, "sub");
	double v[PLOT_LAYOUT_MAX];
	int panel;

	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		v[i] = (double)(i + 1);
	panel = plot_add_panel(p, PLOT_PANEL_BARS, NULL);
	assert_int_equal(plot_set_categories(p, panel, names, n), 0);
	plot_set_axis(p, panel, PLOT_AXIS_X, "run", NAN, NAN, 0);
	assert_true(plot_add_series(p, panel, "energy", PLOT_BARS, 0, 0, NULL, v, n) >= 0);
	return p;
}

static void test_category_label_layout(void **state)
{
	static const char *const short_names[] = {"run 1", "run 2", "run 3"};
	static const char *const words[] = {
		"1: schedutil with rate limit 500", "2: schedutil with rate limit 1000",
		"3: schedutil with rate limit 2000", "4: schedutil with rate limit 4000",
		"5: schedutil with rate limit 8000", "6: schedutil with rate limit 16000",
		"7: schedutil with rate limit 32000", "8: schedutil with rate limit 64000"};
	const char *longs[40];
	char buf[40][96];
	struct plot_layout l;
	struct plot *p;
	(void)state;

	/* short names stay level, centred under their bars, and overlap nothing */
	p = bars_plot("t", short_names, 3);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.cat_mode, 0);
	assert_int_equal(l.nr_cats, 3);
	assert_laid_out(p, &l);
	plot_free(p);

	/* eight 30-odd character names in 8 slots of ~130 px: wrapped, whole, at 12 px */
	p = bars_plot("t", words, 8);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.cat_mode, 1);
	assert_true(l.cat_font_px == 12);
	assert_int_equal(l.nr_cats, 8);
	assert_laid_out(p, &l);
	/* the labels keep their order left to right */
	for (size_t i = 1; i < l.nr_cats; i++)
		assert_true(l.cats[i].x0 > l.cats[i - 1].x0);
	plot_free(p);

	/* forty long single-word names (no space to wrap at): upright, smaller, inside */
	for (int i = 0; i < 40; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%d:sweep_rate_limit_us=%d_hz=250_long_label", i,
			 (i + 1) * 250);
		longs[i] = buf[i];
	}
	p = bars_plot("t", longs, 40);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.cat_mode, 2);
	assert_int_equal(l.nr_cats, 40);
	assert_true(l.cat_font_px >= 7 && l.cat_font_px <= 12);
	assert_laid_out(p, &l);
	/* upright: each box is taller than wide (the whole text, not cut) */
	assert_true(l.cats[0].y1 - l.cats[0].y0 > 3 * (l.cats[0].x1 - l.cats[0].x0));
	plot_free(p);
}

static void test_title_wraps(void **state)
{
	static const char *const names[] = {"a", "b"};
	char title[400];
	struct plot_layout l;
	struct plot *p;
	(void)state;

	p = bars_plot("energy per cluster", names, 2);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.title_lines, 1);
	plot_free(p);
	/* about 1.5 widths of 19-px bold text (~11 px a character over 1160 px) */
	snprintf(title, sizeof(title), "%s",
		 "run 12: traces/android-8cpu/surfaceflinger.txt on hikey960, schedutil with "
		 "rate_limit_us=2000 and a clamp policy, timing work, util emulated, power em, "
		 "kernel 5.9, policy4 frequency over time and more words");
	p = bars_plot(title, names, 2);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.title_lines, 2);
	plot_free(p);
}

/* Runs of two traces given interleaved (A, B, A): the charts show A's runs, then B's, each
 * group named under its runs; the first run stays first; the energy chart gives each trace a
 * panel, the run-vs-run chart each run relative to its trace's first (test_report_groups.c). */
static void test_runs_grouped_by_trace(void **state)
{
	struct run_result runs[3];
	s64 ids[3] = {1, 2, 3};
	const struct plot_series *s;
	struct plot_layout l;
	struct plot *p;
	(void)state;

	make_runs(runs);
	runs[2] = runs[0];
	snprintf(runs[1].trace, sizeof(runs[1].trace), "traces/y/other/trace.txt");
	runs[2].energy_cluster[0] = 0.5;
	runs[2].energy_total = 0.6;
	p = report_energy_plot(runs, ids, 3);
	assert_non_null(p);
	s = find(p, "cluster0");
	assert_true(s->panel == 0 && s->n == 2 && s->y[0] == 0.3 && s->y[1] == 0.5); /* runs 1, 3 */
	s = plot_series_at(p, 2);
	assert_true(s->panel == 1 && s->n == 1 && s->y[0] == 0.2); /* run 2 */
	plot_free(p);

	p = report_compare_plot(runs, ids, 3);
	assert_non_null(p);
	s = plot_series_at(p, 0); /* energy, % of each trace's first run: 0.6 / 0.4 */
	assert_true(s->y[0] == 100 && fabs(s->y[1] - 150) < 1e-9 && s->y[2] == 100);
	/* each bar's value, and its change from its own trace's first run */
	assert_string_equal(s->labels[0], "0.4 J (ref)");
	assert_string_equal(s->labels[1], "0.6 J (+50.0%)");
	assert_string_equal(s->labels[2], "0.6 J (ref)");
	/* horizontal bars: a heading row per group, above its runs */
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_int_equal(l.nr_cats, 3);
	assert_int_equal(l.nr_groups, 2);
	assert_true(l.groups[0].y1 <= l.cats[0].y0 && l.cats[1].y1 <= l.groups[1].y0);
	assert_laid_out(p, &l);
	plot_free(p);
}

/* ---- the compare chart at 20 and 60 runs, and the axes of PNG and SVG ---- */

/* n runs of one trace (labels of a sweep, 40-odd characters), energies 0.30 J + 0.01 J per
 * run, or spanning four decades (1 mJ .. 1 J) when `decades` */
static void compare_runs(struct run_result *runs, s64 *ids, size_t n, bool decades)
{
	struct run_result two[2];

	make_runs(two);
	for (size_t i = 0; i < n; i++) {
		runs[i] = two[i % 2];
		snprintf(runs[i].label, sizeof(runs[i].label),
			 "governor=schedutil rate_limit_us=%zu hz=250 uclamp_min=%zu", 500 * i,
			 (i * 37) % 1024);
		runs[i].energy_total = decades ? 0.001 * pow(10, (double)(i % 4)) : 0.3 + 0.01 * i;
		ids[i] = (s64)i + 1;
	}
}

static void test_compare_chart_legible(void **state)
{
	static const size_t sizes[] = {20, 60};
	struct run_result *runs = calloc(60, sizeof(*runs));
	s64 ids[60];
	(void)state;

	assert_non_null(runs);
	for (size_t k = 0; k < 2; k++)
		for (int decades = 0; decades < 2; decades++) {
			size_t n = sizes[k];
			struct plot_layout l;
			struct plot *p;

			compare_runs(runs, ids, n, decades);
			p = report_compare_plot(runs, ids, n);
			assert_non_null(p);
			assert_int_equal(plot_get_layout(p, &l), 0);
			/* one row per run, top to bottom in run order, each label whole, left
			 * of the plot area */
			assert_int_equal(l.cat_mode, 3);
			assert_int_equal(l.nr_cats, n);
			assert_int_equal(l.cats_cut, 0);
			for (size_t i = 0; i < n; i++) {
				assert_true(l.cats[i].x1 <= l.frame.x0);
				if (i)
					assert_true(l.cats[i].y0 >= l.cats[i - 1].y1);
			}
			assert_true(l.cat_font_px >= 11);
			/* the plot area keeps at least 14 px a row, and is not squashed */
			assert_true(l.frame.y1 - l.frame.y0 >= 14.0 * n);
			assert_true(l.frame.x1 - l.frame.x0 >= 200);
			/* every bar's value at its end, inside the plot area */
			assert_int_equal(l.nr_bar_labels, n);
			for (size_t i = 0; i < n; i++) {
				assert_true(l.bar_labels[i].x0 >= l.frame.x0);
				assert_true(l.bar_labels[i].x1 <= l.frame.x1 + 0.5);
			}
			assert_laid_out(p, &l);
			/* four decades: a log axis; 0.30 .. 0.89 J: linear from 0 */
			assert_int_equal(l.value_log, decades);
			if (!decades)
				assert_true(l.value_lo == 0);
			else
				assert_true(l.value_lo <= 0.001 && l.value_hi >= 1);
			plot_free(p);
		}
	free(runs);
}

/* The PNG and the SVG of one figure have the same axes: the same plot area and value range
 * (the two surfaces must measure text alike, or the frame and the ticks move). */
static void test_png_svg_same_axes(void **state)
{
	static const double x[] = {0, 1, 2, 3, 4}, y[] = {10, 240, 3100, 18000, 23821};
	struct plot_layout a, b;
	struct plot *p = plot_new("png and svg", "the same axes");
	int panel;
	(void)state;

	assert_non_null(p);
	panel = plot_add_panel(p, PLOT_PANEL_XY, "change");
	plot_set_axis(p, panel, PLOT_AXIS_X, "rate_limit_us", NAN, NAN, 0);
	plot_set_axis(p, panel, PLOT_AXIS_Y, "response_p95 (% change)", NAN, NAN, 0);
	assert_true(plot_add_series(p, panel, "worst", PLOT_STEP, 0, 0, x, y, 5) >= 0);
	for (int h = 300; h <= 700; h += 20) {
		plot_set_size(p, 620, h);
		assert_int_equal(plot_get_layout(p, &a), 0);
		assert_int_equal(plot_get_layout_svg(p, &b), 0);
		if (a.value_hi != b.value_hi || a.value_lo != b.value_lo)
			fail_msg("height %d: png y %g..%g, svg y %g..%g", h, a.value_lo, a.value_hi,
				 b.value_lo, b.value_hi);
		assert_true(fabs(a.frame.y1 - b.frame.y1) < 0.01);
		assert_true(fabs(a.frame.x0 - b.frame.x0) < 0.01);
	}
	plot_free(p);
}

/* ---- the tune plot: log axis across decades, the answer marked, units on the axes ---- */

static void test_tune_plot(void **state)
{
	static const double x[] = {0, 5000, 10000, 15000, 20000}, feas[] = {0, 0, 1, 1, 1};
	static const double energy[] = {0.0069, 0.0079, 0.0093, 0.0094, 0.0099};
	static const double change[] = {23821, 36.4, 0, 12.1, 0}, small[] = {31, 36.4, 0, 12.1, 0};
	struct report_tune_plot t = {
		.title = "govsim tune: the least energy",
		.subtitle = "rate_limit_us=?[0:20000:5000]; answer: rate_limit_us=10000",
		.x_label = "rate_limit_us (us)",
		.n = 5,
		.x = x,
		.feasible = feas,
		.nr_panels = 2,
		.panels = {{"energy", "energy (J)", energy, NAN},
			   {"response_p95 <= +20% vs base", "response_p95 (% change from base)",
			    change, 20}},
		.answer_x = 10000,
		.answer_label = "answer: rate_limit_us=10000",
	};
	struct plot_layout l;
	struct plot *p;
	(void)state;

	p = report_tune_plot(&t);
	assert_non_null(p);
	assert_int_equal(plot_get_layout(p, &l), 0);
	/* the answer: a mark in every panel at x = 10000 of 0..20000, its label whole inside */
	assert_int_equal(l.nr_marks, 2);
	for (int i = 0; i < 2; i++) {
		const struct plot_box *f = &l.frames[i];
		assert_true(fabs(l.mark_px[i] - (f->x0 + 0.5 * (f->x1 - f->x0))) <= 1);
		assert_true(l.marks[i].x0 >= f->x0 && l.marks[i].x1 <= f->x1);
		assert_true(l.marks[i].y0 >= f->y0 && l.marks[i].y1 <= f->y1);
	}
	/* units on every axis */
	for (int i = 0; i < 2; i++) {
		assert_string_equal(plot_axis_label(p, i, PLOT_AXIS_X), "rate_limit_us (us)");
		assert_string_equal(plot_axis_label(p, i, PLOT_AXIS_Y2), "feasible (0 or 1)");
	}
	assert_string_equal(plot_axis_label(p, 0, PLOT_AXIS_Y), "energy (J)");
	plot_free(p);

	/* the constraint alone: +20 % against +23,821 % spans three decades: a log axis */
	t.nr_panels = 1;
	t.panels[0] = t.panels[1];
	p = report_tune_plot(&t);
	assert_non_null(p);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_true(l.value_log);
	assert_true(l.value_hi >= 23821 && l.value_lo <= 0);
	plot_free(p);
	/* +31 % .. +36 % against +20 %: linear */
	t.panels[0].y = small;
	p = report_tune_plot(&t);
	assert_non_null(p);
	assert_int_equal(plot_get_layout(p, &l), 0);
	assert_false(l.value_log);
	plot_free(p);

	/* the units of the metrics and of the varied values */
	assert_string_equal(report_metric_unit("energy", "J"), "J");
	assert_string_equal(report_metric_unit("energy_cluster1", "bogo"), "bogo");
	assert_string_equal(report_metric_unit("response_p95", "J"), "s");
	assert_string_equal(report_metric_unit("avg_power", "J"), "W");
	assert_string_equal(report_metric_unit("avg_freq_policy4", "J"), "kHz");
	assert_string_equal(report_metric_unit("transitions", "J"), "count");
	assert_string_equal(report_metric_unit("throughput", "J"), "1/s");
	assert_string_equal(report_vary_unit("rate_limit_us", false), "us");
	assert_string_equal(report_vary_unit("uclamp_min", false), "0..1024");
	assert_string_equal(report_vary_unit("cpu.uclamp.min", true), "%");
	assert_string_equal(report_vary_unit("up_threshold", false), "value");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_ticks),
		cmocka_unit_test(test_png_size),
		cmocka_unit_test(test_png_bars_pixels),
		cmocka_unit_test(test_xml_check_itself),
		cmocka_unit_test(test_svg_wellformed),
		cmocka_unit_test(test_timeline_data),
		cmocka_unit_test(test_residency_energy_compare_data),
		cmocka_unit_test(test_report_write_html),
		cmocka_unit_test(test_category_label_layout),
		cmocka_unit_test(test_title_wraps),
		cmocka_unit_test(test_runs_grouped_by_trace),
		cmocka_unit_test(test_compare_chart_legible),
		cmocka_unit_test(test_png_svg_same_axes),
		cmocka_unit_test(test_tune_plot),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
