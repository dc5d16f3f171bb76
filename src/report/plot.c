/* plot.c - figures with panels, axes, legend, lines and bars, drawn with cairo; see plot.h. */
#include "report/plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Type sizes, px */
#define FONT_TITLE  19
#define FONT_SUB    13
#define FONT_LEGEND 13
#define FONT_PANEL  14
#define FONT_LABEL  14
#define FONT_TICK   12
#define FONT_BAR    12

#define MARGIN 20 /* around the figure */

struct plot_axis_spec {
	char label[PLOT_NAME_MAX];
	double min, max, step; /* NAN, NAN, 0: automatic */
};

struct plot_panel {
	enum plot_panel_kind kind;
	char title[PLOT_NAME_MAX];
	struct plot_axis_spec ax[3];
	bool stacked;
	size_t nr_cats;
	char **cats;
};

struct plot {
	char title[256];
	char subtitle[512];
	int width, height;
	int nr_panels;
	struct plot_panel panels[PLOT_MAX_PANELS];
	size_t nr_series, cap_series;
	struct plot_series *series;
};

/* Tableau 10: distinct hues of similar weight, readable on white. */
static const unsigned palette_rgb[PLOT_PALETTE_SIZE] = {
	0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
	0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac,
};

void plot_palette(int i, double rgb[3])
{
	unsigned c = palette_rgb[((i % PLOT_PALETTE_SIZE) + PLOT_PALETTE_SIZE) % PLOT_PALETTE_SIZE];

	rgb[0] = ((c >> 16) & 0xff) / 255.0;
	rgb[1] = ((c >> 8) & 0xff) / 255.0;
	rgb[2] = (c & 0xff) / 255.0;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

struct plot *plot_new(const char *title, const char *subtitle)
{
	struct plot *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	copy_str(p->title, sizeof(p->title), title);
	copy_str(p->subtitle, sizeof(p->subtitle), subtitle);
	p->width = PLOT_WIDTH;
	p->height = PLOT_HEIGHT;
	return p;
}

static void free_strings(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void plot_free(struct plot *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nr_panels; i++)
		free_strings(p->panels[i].cats, p->panels[i].nr_cats);
	for (size_t i = 0; i < p->nr_series; i++) {
		free(p->series[i].x);
		free(p->series[i].y);
		free_strings(p->series[i].labels, p->series[i].n);
	}
	free(p->series);
	free(p);
}

void plot_set_size(struct plot *p, int width_px, int height_px)
{
	if (width_px >= 200 && height_px >= 200) {
		p->width = width_px;
		p->height = height_px;
	}
}

int plot_width(const struct plot *p)
{
	return p->width;
}

int plot_height(const struct plot *p)
{
	return p->height;
}

int plot_add_panel(struct plot *p, enum plot_panel_kind kind, const char *title)
{
	struct plot_panel *pa;

	if (p->nr_panels >= PLOT_MAX_PANELS)
		return GS_EARG;
	pa = &p->panels[p->nr_panels];
	memset(pa, 0, sizeof(*pa));
	pa->kind = kind;
	copy_str(pa->title, sizeof(pa->title), title);
	for (int a = 0; a < 3; a++) {
		pa->ax[a].min = NAN;
		pa->ax[a].max = NAN;
	}
	return p->nr_panels++;
}

static struct plot_panel *get_panel(struct plot *p, int panel)
{
	return panel >= 0 && panel < p->nr_panels ? &p->panels[panel] : NULL;
}

void plot_set_axis(struct plot *p, int panel, enum plot_axis axis, const char *label, double min,
		   double max, double tick_step)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (!pa || axis < PLOT_AXIS_X || axis > PLOT_AXIS_Y2)
		return;
	copy_str(pa->ax[axis].label, sizeof(pa->ax[axis].label), label);
	pa->ax[axis].min = min;
	pa->ax[axis].max = max;
	pa->ax[axis].step = tick_step > 0 && isfinite(tick_step) ? tick_step : 0;
}

static char **dup_strings(const char *const *v, size_t n)
{
	char **out = calloc(n ? n : 1, sizeof(*out));

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		out[i] = strdup(v[i]);
		if (!out[i]) {
			free_strings(out, n);
			return NULL;
		}
	}
	return out;
}

int plot_set_categories(struct plot *p, int panel, const char *const *names, size_t n)
{
	struct plot_panel *pa = get_panel(p, panel);
	char **cats;

	if (!pa || pa->kind != PLOT_PANEL_BARS)
		return GS_EARG;
	cats = dup_strings(names, n);
	if (!cats)
		return GS_ENOMEM;
	free_strings(pa->cats, pa->nr_cats);
	pa->cats = cats;
	pa->nr_cats = n;
	return 0;
}

void plot_set_stacked(struct plot *p, int panel, bool stacked)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (pa)
		pa->stacked = stacked;
}

int plot_add_series(struct plot *p, int panel, const char *name, enum plot_style style,
		    unsigned flags, int color, const double *x, const double *y, size_t n)
{
	struct plot_panel *pa = get_panel(p, panel);
	struct plot_series *s;

	if (!pa || (n && !y))
		return GS_EARG;
	if ((style == PLOT_BARS) != (pa->kind == PLOT_PANEL_BARS))
		return GS_EARG;
	if (style == PLOT_BARS && n != pa->nr_cats)
		return GS_EARG;
	if (style != PLOT_BARS && n && !x)
		return GS_EARG;
	if (p->nr_series == p->cap_series) {
		size_t cap = p->cap_series ? 2 * p->cap_series : 8;
		struct plot_series *v = realloc(p->series, cap * sizeof(*v));
		if (!v)
			return GS_ENOMEM;
		p->series = v;
		p->cap_series = cap;
	}
	s = &p->series[p->nr_series];
	memset(s, 0, sizeof(*s));
	copy_str(s->name, sizeof(s->name), name);
	s->panel = panel;
	s->style = style;
	s->flags = flags;
	s->color = color;
	s->n = n;
	s->x = malloc((n ? n : 1) * sizeof(double));
	s->y = malloc((n ? n : 1) * sizeof(double));
	if (!s->x || !s->y) {
		free(s->x);
		free(s->y);
		return GS_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		s->x[i] = x ? x[i] : (double)i;
		s->y[i] = y[i];
	}
	return (int)p->nr_series++;
}

int plot_set_bar_labels(struct plot *p, int series, const char *const *labels)
{
	struct plot_series *s;
	char **v;

	if (series < 0 || (size_t)series >= p->nr_series || !labels)
		return GS_EARG;
	s = &p->series[series];
	if (s->style != PLOT_BARS)
		return GS_EARG;
	v = dup_strings(labels, s->n);
	if (!v)
		return GS_ENOMEM;
	free_strings(s->labels, s->n);
	s->labels = v;
	return 0;
}

size_t plot_nr_series(const struct plot *p)
{
	return p->nr_series;
}

const struct plot_series *plot_series_at(const struct plot *p, size_t i)
{
	return i < p->nr_series ? &p->series[i] : NULL;
}

/*
 * Nice steps: the raw step (hi - lo) / max_ticks is rounded up to 1, 2, 2.5 or 5 times a power
 * of ten, so tick labels stay short (0, 250, 500 ... or 0, 0.2, 0.4 ...).
 */
int plot_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step)
{
	static const double mult[] = {1, 2, 2.5, 5, 10};
	double raw, mag, s = 0;
	int n;

	if (!isfinite(lo) || !isfinite(hi) || hi <= lo || max_ticks < 1)
		return 0;
	raw = (hi - lo) / max_ticks;
	mag = pow(10, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
		s = mult[i] * mag;
		if (s >= raw * (1 - 1e-9))
			break;
	}
	*step = s;
	*first = ceil(lo / s - 1e-9) * s;
	n = (int)floor((hi - *first) / s + 1e-9) + 1;
	return n < 0 ? 0 : n;
}

/* ---- drawing ---------------------------------------------------------------------------- */

struct range {
	double lo, hi;    /* data range mapped to the axis */
	double first, step;
	int nticks;
	bool used;
};

struct frame {
	double x0, y0, x1, y1; /* plot area, px (y0 top) */
};

static void set_rgb(cairo_t *cr, unsigned c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
			     (c & 0xff) / 255.0);
}

static void set_palette(cairo_t *cr, int i, double alpha)
{
	double rgb[3];

	plot_palette(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}

static void font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

/* Text with its baseline at y; ha 0 = left, 0.5 = centred, 1 = right aligned at x. */
static void text_at(cairo_t *cr, const char *s, double x, double y, double ha)
{
	cairo_move_to(cr, x - ha * text_width(cr, s), y);
	cairo_show_text(cr, s);
}

/* s shortened with "..." to fit max_w px, in buf. */
static const char *fit_text(cairo_t *cr, const char *s, double max_w, char *buf, size_t size)
{
	size_t len;

	if (text_width(cr, s) <= max_w)
		return s;
	snprintf(buf, size, "%s", s);
	len = strlen(buf);
	while (len > 0) {
		/* drop whole UTF-8 characters */
		do
			len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80);
		snprintf(buf + len, size - len, "...");
		if (text_width(cr, buf) <= max_w)
			break;
	}
	return buf;
}

/*
 * Draw s from (x, y) in lines that fit max_w px, broken at spaces (a word longer than a line
 * is shortened with "..."), at most max_lines lines (the last one ends in "..." when text is
 * left); returns the number of lines drawn. Titles wrap instead of being cut.
 */
static int text_wrapped(cairo_t *cr, const char *s, double x, double y, double max_w,
			double line_h, int max_lines)
{
	char line[512], buf[512];
	int lines = 0;

	while (*s && lines < max_lines) {
		size_t len = 0, fit = 0;

		/* the longest prefix of whole words that fits */
		while (s[len]) {
			size_t end = len;
			while (s[end] == ' ')
				end++;
			while (s[end] && s[end] != ' ')
				end++;
			if (end >= sizeof(line))
				break;
			memcpy(line, s, end);
			line[end] = '\0';
			if (text_width(cr, line) > max_w)
				break;
			fit = len = end;
		}
		if (!fit) { /* one word longer than the line */
			while (s[fit] && s[fit] != ' ' && fit < sizeof(line) - 1)
				fit++;
		}
		memcpy(line, s, fit);
		line[fit] = '\0';
		s += fit;
		while (*s == ' ')
			s++;
		if (*s && lines == max_lines - 1) {
			/* last line allowed: the rest goes behind "..." */
			snprintf(line + fit, sizeof(line) - fit, " %s", s);
			s += strlen(s);
		}
		text_at(cr, fit_text(cr, line, max_w, buf, sizeof(buf)), x, y + lines * line_h, 0);
		lines++;
	}
	return lines;
}

/* Tick label: as many decimals as the step needs. */
static void format_tick(char *buf, size_t size, double v, double step)
{
	int d = 0;

	while (d < 6) {
		double m = step * pow(10, d);
		if (fabs(m - round(m)) < 1e-6 * fmax(1, m))
			break;
		d++;
	}
	if (fabs(v) < step * 1e-9)
		v = 0;
	snprintf(buf, size, "%.*f", d, v);
}

static bool series_in(const struct plot_series *s, int panel, unsigned right)
{
	return s->panel == panel && (s->flags & PLOT_F_RIGHT) == right;
}

/* The data extent of a panel's x or y (left/right) values. */
static bool data_extent(const struct plot *p, int panel, enum plot_axis axis, double *lo,
			double *hi)
{
	const struct plot_panel *pa = &p->panels[panel];
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	if (pa->kind == PLOT_PANEL_BARS) {
		for (size_t c = 0; c < pa->nr_cats; c++) {
			double pos = 0, neg = 0;
			for (size_t i = 0; i < p->nr_series; i++) {
				const struct plot_series *s = &p->series[i];
				double v;
				if (s->panel != panel || !isfinite(s->y[c]))
					continue;
				v = s->y[c];
				any = true;
				if (pa->stacked) {
					if (v >= 0)
						pos += v;
					else
						neg += v;
				} else {
					*lo = fmin(*lo, v);
					*hi = fmax(*hi, v);
				}
			}
			if (pa->stacked) {
				*lo = fmin(*lo, neg);
				*hi = fmax(*hi, pos);
			}
		}
		return any;
	}
	for (size_t i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = &p->series[i];
		if (axis == PLOT_AXIS_X ? s->panel != panel
					: !series_in(s, panel, axis == PLOT_AXIS_Y2 ? PLOT_F_RIGHT : 0))
			continue;
		for (size_t k = 0; k < s->n; k++) {
			double v = axis == PLOT_AXIS_X ? s->x[k] : s->y[k];
			if (!isfinite(v) || (axis == PLOT_AXIS_X && !isfinite(s->y[k]) &&
					     s->style == PLOT_LINE))
				continue;
			any = true;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	return any;
}

static bool panel_has_labels(const struct plot *p, int panel)
{
	for (size_t i = 0; i < p->nr_series; i++)
		if (p->series[i].panel == panel && p->series[i].labels)
			return true;
	return false;
}

static bool panel_has_right(const struct plot *p, int panel)
{
	for (size_t i = 0; i < p->nr_series; i++)
		if (series_in(&p->series[i], panel, PLOT_F_RIGHT))
			return true;
	return false;
}

/*
 * The range of one axis. y: from min(0, data) to the first tick at or above the data (with
 * headroom for bar labels); x: exactly the data.
 */
static struct range axis_range(const struct plot *p, int panel, enum plot_axis axis,
			       double length_px)
{
	const struct plot_axis_spec *spec = &p->panels[panel].ax[axis];
	struct range r = {0};
	double dlo, dhi;
	int max_ticks;

	r.used = data_extent(p, panel, axis, &dlo, &dhi);
	if (!r.used) {
		dlo = 0;
		dhi = 1;
	}
	if (axis != PLOT_AXIS_X) {
		dlo = fmin(dlo, 0);
		/* headroom: a line at the data maximum stays off the frame, bar labels fit */
		if (dhi > 0)
			dhi *= panel_has_labels(p, panel) ? 1.12 : 1.03;
	}
	r.lo = isfinite(spec->min) ? spec->min : dlo;
	r.hi = isfinite(spec->max) ? spec->max : dhi;
	if (!(r.hi > r.lo))
		r.hi = r.lo + (r.lo != 0 ? fabs(r.lo) * 0.1 : 1);
	max_ticks = axis == PLOT_AXIS_X ? (int)(length_px / 90) : (int)(length_px / 45);
	if (max_ticks < 2)
		max_ticks = 2;
	if (spec->step > 0) {
		r.step = spec->step;
		r.first = ceil(r.lo / r.step - 1e-9) * r.step;
		r.nticks = (int)floor((r.hi - r.first) / r.step + 1e-9) + 1;
	} else {
		r.nticks = plot_nice_ticks(r.lo, r.hi, max_ticks, &r.first, &r.step);
	}
	if (axis != PLOT_AXIS_X && r.step > 0) {
		/* extend automatic ends to the next tick */
		if (!isfinite(spec->max) && r.first + (r.nticks - 1) * r.step < r.hi - 1e-9 * r.step) {
			r.hi = r.first + r.nticks * r.step;
			r.nticks++;
		}
		if (!isfinite(spec->min) && r.first > r.lo + 1e-9 * r.step) {
			r.first -= r.step;
			r.lo = r.first;
			r.nticks++;
		}
	}
	if (r.nticks > 200)
		r.nticks = 200;
	return r;
}

static double map(double v, const struct range *r, double a, double b)
{
	double px = a + (v - r->lo) / (r->hi - r->lo) * (b - a);

	return fmax(-1e5, fmin(1e5, px));
}

/* ---- legend ---- */

struct legend_item {
	const struct plot_series *s;
	double w;
};

#define LEGEND_SWATCH 28
#define LEGEND_ROW    22

static void legend_swatch(cairo_t *cr, const struct plot_series *s, double x, double y)
{
	/* y: the row's middle */
	if (s->style == PLOT_BARS) {
		set_palette(cr, s->color, 1);
		cairo_rectangle(cr, x + 7, y - 7, 14, 14);
		cairo_fill(cr);
		return;
	}
	if (s->flags & PLOT_F_FILL) {
		set_palette(cr, s->color, 0.22);
		cairo_rectangle(cr, x, y - 7, LEGEND_SWATCH, 14);
		cairo_fill(cr);
	}
	set_palette(cr, s->color, 1);
	cairo_set_line_width(cr, s->flags & PLOT_F_THIN ? 1.5 : 2.5);
	if (s->flags & PLOT_F_DASHED) {
		double dash[] = {6, 3};
		cairo_set_dash(cr, dash, 2, 0);
	}
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x + LEGEND_SWATCH, y);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

/* Lay the legend out in rows from (x, y); draws when `draw`. Returns its height. */
static double legend(cairo_t *cr, const struct plot *p, double x, double y, double max_w,
		     bool draw)
{
	double cx = x, cy = y, h = 0;

	font(cr, FONT_LEGEND, false);
	for (size_t i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = &p->series[i];
		double w;
		bool dup = false;

		if (s->flags & PLOT_F_NOLEGEND || !s->name[0])
			continue;
		for (size_t j = 0; j < i && !dup; j++)
			dup = !(p->series[j].flags & PLOT_F_NOLEGEND) &&
			      strcmp(p->series[j].name, s->name) == 0 &&
			      p->series[j].color == s->color;
		if (dup)
			continue;
		w = LEGEND_SWATCH + 8 + text_width(cr, s->name) + 24;
		if (cx > x && cx + w > x + max_w) {
			cx = x;
			cy += LEGEND_ROW;
		}
		if (draw) {
			legend_swatch(cr, s, cx, cy + LEGEND_ROW / 2.0);
			set_rgb(cr, 0x333333);
			text_at(cr, s->name, cx + LEGEND_SWATCH + 8, cy + LEGEND_ROW / 2.0 + 4.5, 0);
		}
		cx += w;
		h = cy - y + LEGEND_ROW;
	}
	return h;
}

/* ---- series ---- */

/*
 * The path of a line or step series. fill: each contiguous run is closed down to y = base,
 * for a filled area; otherwise open subpaths for stroking. NAN values break the line.
 */
static void series_path(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			const struct range *ry, const struct frame *f, bool fill)
{
	double base = map(fmax(ry->lo, fmin(0, ry->hi)), ry, f->y1, f->y0);
	double prev_py = 0, run_px = 0, px = 0;
	bool down = false;

	for (size_t i = 0; i < s->n; i++) {
		px = map(s->x[i], rx, f->x0, f->x1);
		if (down && s->style == PLOT_STEP)
			cairo_line_to(cr, px, prev_py);
		if (!isfinite(s->y[i]) || !isfinite(s->x[i])) {
			if (down && fill) {
				cairo_line_to(cr, s->style == PLOT_STEP ? px : run_px, base);
				cairo_close_path(cr);
			}
			down = false;
			continue;
		}
		prev_py = map(s->y[i], ry, f->y1, f->y0);
		if (!down) {
			if (fill) {
				cairo_move_to(cr, px, base);
				cairo_line_to(cr, px, prev_py);
			} else {
				cairo_move_to(cr, px, prev_py);
			}
		} else {
			cairo_line_to(cr, px, prev_py);
		}
		run_px = px;
		down = true;
	}
	if (!down)
		return;
	if (s->style == PLOT_STEP && rx->hi > s->x[s->n - 1]) {
		px = map(rx->hi, rx, f->x0, f->x1);
		cairo_line_to(cr, px, prev_py);
		run_px = px;
	}
	if (fill) {
		cairo_line_to(cr, run_px, base);
		cairo_close_path(cr);
	}
}

static void draw_line_series(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			     const struct range *ry, const struct frame *f)
{
	if (s->flags & PLOT_F_FILL) {
		series_path(cr, s, rx, ry, f, true);
		set_palette(cr, s->color, 0.18);
		cairo_fill(cr);
	}
	series_path(cr, s, rx, ry, f, false);
	set_palette(cr, s->color, 1);
	cairo_set_line_width(cr, s->flags & PLOT_F_THIN ? 1.2 : 2.0);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	if (s->flags & PLOT_F_DASHED) {
		double dash[] = {7, 4};
		cairo_set_dash(cr, dash, 2, 0);
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

/* ---- bars ---- */

static size_t panel_bar_series(const struct plot *p, int panel)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_series; i++)
		n += p->series[i].panel == panel;
	return n;
}

static void draw_bars(cairo_t *cr, const struct plot *p, int panel, const struct range *ry,
		      const struct frame *f)
{
	const struct plot_panel *pa = &p->panels[panel];
	size_t ng = panel_bar_series(p, panel), g = 0;
	double slot, group_w, bar_w;
	double *top_pos, *top_neg;
	const char **top_label;

	if (!pa->nr_cats || !ng)
		return;
	top_pos = calloc(pa->nr_cats, sizeof(double));
	top_neg = calloc(pa->nr_cats, sizeof(double));
	top_label = calloc(pa->nr_cats, sizeof(char *));
	if (!top_pos || !top_neg || !top_label)
		goto out_free;
	slot = (f->x1 - f->x0) / (double)pa->nr_cats;
	group_w = fmin(slot * (pa->stacked ? 0.6 : 0.78), pa->stacked ? 110 : 60.0 * (double)ng);
	bar_w = pa->stacked ? group_w : group_w / (double)ng;

	font(cr, FONT_BAR, false);
	for (size_t i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = &p->series[i];
		if (s->panel != panel)
			continue;
		for (size_t c = 0; c < pa->nr_cats && c < s->n; c++) {
			double v = s->y[c], from, to, bx, ya, yb;
			if (pa->stacked && s->labels && s->labels[c])
				top_label[c] = s->labels[c];
			if (!isfinite(v))
				continue;
			bx = f->x0 + slot * ((double)c + 0.5) - group_w / 2 +
			     (pa->stacked ? 0 : bar_w * (double)g);
			if (pa->stacked) {
				double *top = v >= 0 ? &top_pos[c] : &top_neg[c];
				from = *top;
				to = *top + v;
				*top = to;
			} else {
				from = 0;
				to = v;
			}
			ya = map(from, ry, f->y1, f->y0);
			yb = map(to, ry, f->y1, f->y0);
			set_palette(cr, s->color, 1);
			cairo_rectangle(cr, bx + (pa->stacked ? 0 : 1), fmin(ya, yb),
					bar_w - (pa->stacked ? 0 : 2), fabs(ya - yb));
			cairo_fill(cr);
			if (pa->stacked && from != 0) {
				/* a white seam between stacked segments */
				cairo_set_source_rgb(cr, 1, 1, 1);
				cairo_set_line_width(cr, 1);
				cairo_move_to(cr, bx, round(ya) + 0.5);
				cairo_line_to(cr, bx + bar_w, round(ya) + 0.5);
				cairo_stroke(cr);
			}
			if (!pa->stacked && s->labels && s->labels[c]) {
				set_rgb(cr, 0x333333);
				text_at(cr, s->labels[c], bx + bar_w / 2, fmin(ya, yb) - 5, 0.5);
			}
		}
		g++;
	}
	if (pa->stacked) {
		set_rgb(cr, 0x333333);
		for (size_t c = 0; c < pa->nr_cats; c++)
			if (top_label[c])
				text_at(cr, top_label[c], f->x0 + slot * ((double)c + 0.5),
					map(top_pos[c], ry, f->y1, f->y0) - 5, 0.5);
	}
out_free:
	free(top_pos);
	free(top_neg);
	free(top_label);
}

/* Category labels under a bars panel: level, or turned 35 degrees when they do not fit. */
static double category_labels(cairo_t *cr, const struct plot_panel *pa, const struct frame *f,
			      bool draw)
{
	double slot, maxw = 0, angle = 35 * M_PI / 180;
	bool turn;

	if (!pa->nr_cats)
		return 0;
	font(cr, FONT_TICK, false);
	slot = (f->x1 - f->x0) / (double)pa->nr_cats;
	for (size_t c = 0; c < pa->nr_cats; c++)
		if (pa->cats[c])
			maxw = fmax(maxw, text_width(cr, pa->cats[c]));
	turn = maxw > slot - 6;
	if (draw) {
		set_rgb(cr, 0x333333);
		for (size_t c = 0; c < pa->nr_cats; c++) {
			double cx = f->x0 + slot * ((double)c + 0.5);
			if (!pa->cats[c])
				continue;
			if (!turn) {
				text_at(cr, pa->cats[c], cx, f->y1 + 18, 0.5);
				continue;
			}
			cairo_save(cr);
			cairo_translate(cr, cx + 4, f->y1 + 12);
			cairo_rotate(cr, -angle);
			text_at(cr, pa->cats[c], 0, 0, 1);
			cairo_restore(cr);
		}
	}
	return turn ? fmin(maxw, 160) * sin(angle) + 20 : 22;
}

/* ---- the figure ---- */

static double y_tick_width(cairo_t *cr, const struct range *r)
{
	char buf[64];
	double w = 0;

	font(cr, FONT_TICK, false);
	for (int i = 0; i < r->nticks; i++) {
		format_tick(buf, sizeof(buf), r->first + i * r->step, r->step);
		w = fmax(w, text_width(cr, buf));
	}
	return w;
}

static void draw_axis_label(cairo_t *cr, const char *label, double x, double y, double angle)
{
	if (!label[0])
		return;
	font(cr, FONT_LABEL, false);
	set_rgb(cr, 0x333333);
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	text_at(cr, label, 0, 0, 0.5);
	cairo_restore(cr);
}

static void draw_panel(cairo_t *cr, const struct plot *p, int panel, double rx0, double rx1,
		       double top, double bottom)
{
	const struct plot_panel *pa = &p->panels[panel];
	bool bars = pa->kind == PLOT_PANEL_BARS, right = !bars && panel_has_right(p, panel);
	struct frame f;
	struct range xr = {0}, yr, y2r = {0};
	double left_w, right_w, bottom_h;
	char buf[128];

	if (pa->title[0]) {
		font(cr, FONT_PANEL, true);
		set_rgb(cr, 0x222222);
		text_at(cr, fit_text(cr, pa->title, rx1 - rx0, buf, sizeof(buf)),
			(rx0 + rx1) / 2, top + FONT_PANEL, 0.5);
		top += FONT_PANEL + 12;
	}
	/* first pass with a guessed frame to size the tick labels */
	f.x0 = rx0 + 70;
	f.x1 = rx1 - (right ? 70 : 16);
	f.y0 = top;
	f.y1 = bottom - 60;
	yr = axis_range(p, panel, PLOT_AXIS_Y, f.y1 - f.y0);
	left_w = y_tick_width(cr, &yr) + 10 + (pa->ax[PLOT_AXIS_Y].label[0] ? FONT_LABEL + 14 : 4);
	right_w = 16;
	if (right) {
		y2r = axis_range(p, panel, PLOT_AXIS_Y2, f.y1 - f.y0);
		right_w = y_tick_width(cr, &y2r) + 10 +
			  (pa->ax[PLOT_AXIS_Y2].label[0] ? FONT_LABEL + 14 : 4);
	}
	f.x0 = rx0 + left_w;
	f.x1 = rx1 - right_w;
	bottom_h = (bars ? category_labels(cr, pa, &f, false) : 22) +
		   (pa->ax[PLOT_AXIS_X].label[0] ? FONT_LABEL + 10 : 0);
	f.y1 = bottom - bottom_h;
	if (f.x1 - f.x0 < 40 || f.y1 - f.y0 < 40)
		return;
	yr = axis_range(p, panel, PLOT_AXIS_Y, f.y1 - f.y0);
	if (right)
		y2r = axis_range(p, panel, PLOT_AXIS_Y2, f.y1 - f.y0);
	if (!bars)
		xr = axis_range(p, panel, PLOT_AXIS_X, f.x1 - f.x0);

	/* grid */
	cairo_set_line_width(cr, 1);
	set_rgb(cr, 0xe6e6e6);
	for (int i = 0; i < yr.nticks; i++) {
		double y = round(map(yr.first + i * yr.step, &yr, f.y1, f.y0)) + 0.5;
		cairo_move_to(cr, f.x0, y);
		cairo_line_to(cr, f.x1, y);
	}
	for (int i = 0; i < xr.nticks && !bars; i++) {
		double x = round(map(xr.first + i * xr.step, &xr, f.x0, f.x1)) + 0.5;
		cairo_move_to(cr, x, f.y0);
		cairo_line_to(cr, x, f.y1);
	}
	cairo_stroke(cr);

	/* data, clipped to the plot area */
	cairo_save(cr);
	cairo_rectangle(cr, f.x0, f.y0 - 1, f.x1 - f.x0, f.y1 - f.y0 + 2);
	cairo_clip(cr);
	if (bars) {
		cairo_restore(cr); /* bar labels may rise above the frame */
		draw_bars(cr, p, panel, &yr, &f);
	} else {
		/* the right axis' series under the left axis' ones */
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < p->nr_series; i++) {
				const struct plot_series *s = &p->series[i];
				bool r2 = s->flags & PLOT_F_RIGHT;
				if (s->panel == panel && r2 == (pass == 0))
					draw_line_series(cr, s, &xr, r2 ? &y2r : &yr, &f);
			}
		cairo_restore(cr);
	}

	/* axes */
	set_rgb(cr, 0x666666);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, round(f.x0) - 0.5, f.y0);
	cairo_line_to(cr, round(f.x0) - 0.5, round(f.y1) + 0.5);
	cairo_line_to(cr, f.x1, round(f.y1) + 0.5);
	if (right) {
		cairo_move_to(cr, round(f.x1) + 0.5, f.y0);
		cairo_line_to(cr, round(f.x1) + 0.5, round(f.y1) + 0.5);
	}
	cairo_stroke(cr);

	/* tick marks and labels */
	font(cr, FONT_TICK, false);
	for (int i = 0; i < yr.nticks; i++) {
		double v = yr.first + i * yr.step, y = map(v, &yr, f.y1, f.y0);
		format_tick(buf, sizeof(buf), v, yr.step);
		set_rgb(cr, 0x444444);
		text_at(cr, buf, f.x0 - 8, y + 4.5, 1);
	}
	for (int i = 0; i < y2r.nticks && right; i++) {
		double v = y2r.first + i * y2r.step, y = map(v, &y2r, f.y1, f.y0);
		format_tick(buf, sizeof(buf), v, y2r.step);
		set_rgb(cr, 0x666666);
		cairo_move_to(cr, f.x1, round(y) + 0.5);
		cairo_line_to(cr, f.x1 + 4, round(y) + 0.5);
		cairo_stroke(cr);
		set_rgb(cr, 0x444444);
		text_at(cr, buf, f.x1 + 8, y + 4.5, 0);
	}
	if (bars) {
		category_labels(cr, pa, &f, true);
	} else {
		for (int i = 0; i < xr.nticks; i++) {
			double v = xr.first + i * xr.step, x = map(v, &xr, f.x0, f.x1);
			format_tick(buf, sizeof(buf), v, xr.step);
			set_rgb(cr, 0x666666);
			cairo_move_to(cr, round(x) + 0.5, f.y1);
			cairo_line_to(cr, round(x) + 0.5, f.y1 + 4);
			cairo_stroke(cr);
			set_rgb(cr, 0x444444);
			text_at(cr, buf, x, f.y1 + 18, 0.5);
		}
	}

	/* axis labels */
	draw_axis_label(cr, pa->ax[PLOT_AXIS_X].label, (f.x0 + f.x1) / 2, bottom - 4, 0);
	draw_axis_label(cr, pa->ax[PLOT_AXIS_Y].label, rx0 + FONT_LABEL, (f.y0 + f.y1) / 2,
			-M_PI / 2);
	if (right)
		draw_axis_label(cr, pa->ax[PLOT_AXIS_Y2].label, rx1 - FONT_LABEL + 4,
				(f.y0 + f.y1) / 2, M_PI / 2);
}

static void draw(cairo_t *cr, const struct plot *p)
{
	double w = p->width, h = p->height, y = MARGIN, panel_w;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);

	font(cr, FONT_TITLE, true);
	set_rgb(cr, 0x222222);
	y += (FONT_TITLE + 4) * text_wrapped(cr, p->title, MARGIN, y + FONT_TITLE,
					     w - 2 * MARGIN, FONT_TITLE + 4, 2) + 4;
	if (p->subtitle[0]) {
		font(cr, FONT_SUB, false);
		set_rgb(cr, 0x555555);
		y += (FONT_SUB + 4) * text_wrapped(cr, p->subtitle, MARGIN, y + FONT_SUB,
						   w - 2 * MARGIN, FONT_SUB + 4, 3) + 4;
	}
	y += 2;
	y += legend(cr, p, MARGIN, y, w - 2 * MARGIN, true) + 10;

	if (!p->nr_panels)
		return;
	panel_w = (w - 2 * MARGIN) / p->nr_panels;
	for (int i = 0; i < p->nr_panels; i++)
		draw_panel(cr, p, i, MARGIN + i * panel_w + (i ? 12 : 0),
			   MARGIN + (i + 1) * panel_w, y, h - MARGIN + 6);
}

static int cairo_fail(struct gs_error *err, const char *path, cairo_status_t st)
{
	return gs_error_set(err, GS_EIO, "'%s': %s", path, cairo_status_to_string(st));
}

int plot_write_png(const struct plot *p, const char *path, struct gs_error *err)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	cairo_status_t st = cairo_surface_status(surf);
	cairo_t *cr;

	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surf);
		return cairo_fail(err, path, st);
	}
	cr = cairo_create(surf);
	draw(cr, p);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png(surf, path);
	cairo_surface_destroy(surf);
	return st == CAIRO_STATUS_SUCCESS ? 0 : cairo_fail(err, path, st);
}

int plot_write_svg(const struct plot *p, const char *path, struct gs_error *err)
{
	cairo_surface_t *surf = cairo_svg_surface_create(path, p->width, p->height);
	cairo_status_t st = cairo_surface_status(surf);
	cairo_t *cr;

	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surf);
		return cairo_fail(err, path, st);
	}
	cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
	cr = cairo_create(surf);
	draw(cr, p);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	cairo_surface_destroy(surf);
	return st == CAIRO_STATUS_SUCCESS ? 0 : cairo_fail(err, path, st);
}

void plot_release_static(void)
{
	cairo_debug_reset_static_data();
}

/*
 * fontconfig (2.14) keeps a few blocks from parsing its XML configuration that nothing can
 * free, not even FcFini(); tell LeakSanitizer (GOVSIM_SANITIZE builds) that these are not
 * ours. LSan calls this hook when it is linked in; otherwise it is an unused function.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}
