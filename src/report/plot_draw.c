/* plot_draw.c - drawing primitives of the plot module: colours, text, tick labels, axis
 * ranges, the legend; see plot.h. */
#include "report/plot_cairo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void plot_source_rgb(cairo_t *cr, unsigned c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
			     (c & 0xff) / 255.0);
}

void plot_source_palette(cairo_t *cr, int i, double alpha)
{
	double rgb[3];

	plot_palette(i, rgb);
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}

/*
 * Text is measured unhinted: an image surface rounds glyph advances to whole pixels by
 * default and an SVG surface does not; with hinting, one label would have two widths, the
 * frame two sizes and the axes two ranges in the PNG and the SVG of one figure.
 */
void plot_font(cairo_t *cr, double size, bool bold)
{
	cairo_font_options_t *o = cairo_font_options_create();

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
	cairo_set_font_options(cr, o);
	cairo_font_options_destroy(o);
}

double plot_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

/* Text with its baseline at y; ha 0 = left, 0.5 = centred, 1 = right aligned at x. */
void plot_text_at(cairo_t *cr, const char *s, double x, double y, double ha)
{
	cairo_move_to(cr, x - ha * plot_text_width(cr, s), y);
	cairo_show_text(cr, s);
}

/* s shortened with "..." to fit max_w px, in buf. */
const char *plot_fit_text(cairo_t *cr, const char *s, double max_w, char *buf, size_t size)
{
	size_t len;

	if (plot_text_width(cr, s) <= max_w)
		return s;
	snprintf(buf, size, "%s", s);
	len = strlen(buf);
	while (len > 0) {
		/* drop whole UTF-8 characters */
		do
			len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80);
		snprintf(buf + len, size - len, "...");
		if (plot_text_width(cr, buf) <= max_w)
			break;
	}
	return buf;
}

/*
 * Draw s from (x, y) in lines that fit max_w px, broken at spaces (a word longer than a line
 * is shortened with "..."), at most max_lines lines (the last one ends in "..." when text is
 * left); returns the number of lines drawn. Titles wrap instead of being cut.
 */
int plot_text_wrapped(cairo_t *cr, const char *s, double x, double y, double max_w,
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
			if (plot_text_width(cr, line) > max_w)
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
		plot_text_at(cr, plot_fit_text(cr, line, max_w, buf, sizeof(buf)), x, y + lines * line_h, 0);
		lines++;
	}
	return lines;
}

/* Tick label: as many decimals as the step needs (%g on a log axis: step 0). */
void plot_format_tick(char *buf, size_t size, double v, double step)
{
	int d = 0;

	if (step <= 0) {
		snprintf(buf, size, "%g", v);
		return;
	}
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
	if (pa->kind != PLOT_PANEL_XY) {
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

bool plot_panel_has_right(const struct plot *p, int panel)
{
	for (size_t i = 0; i < p->nr_series; i++)
		if (series_in(&p->series[i], panel, PLOT_F_RIGHT))
			return true;
	return false;
}

static double symlog(double v, double c)
{
	return copysign(log10(1 + fabs(v) / c), v);
}

/* The smallest |v| > 0 of the panel's series on `axis` (y or y2), or NAN. */
static double min_abs(const struct plot *p, int panel, enum plot_axis axis)
{
	double m = INFINITY;

	for (size_t i = 0; i < p->nr_series; i++) {
		const struct plot_series *s = &p->series[i];
		if (!series_in(s, panel, axis == PLOT_AXIS_Y2 ? PLOT_F_RIGHT : 0))
			continue;
		for (size_t k = 0; k < s->n; k++)
			if (isfinite(s->y[k]) && s->y[k] != 0)
				m = fmin(m, fabs(s->y[k]));
	}
	return isfinite(m) ? m : NAN;
}

/*
 * A symmetric log axis over dlo..dhi: c the decade at or below the smallest |value|, ticks at
 * 0 and +-c 10^k out to the decade at or beyond each end (every other decade, or every third,
 * when they would crowd length_px).
 */
static void symlog_range(struct range *r, double dlo, double dhi, double amin, double length_px)
{
	int klo = 0, khi = 0, every = 1, n = 0;

	r->symlog = true;
	r->c = pow(10, floor(log10(isfinite(amin) ? amin : 1)));
	while (dhi > 0 && r->c * pow(10, khi) < dhi * (1 - 1e-9))
		khi++;
	while (dlo < 0 && r->c * pow(10, klo) < -dlo * (1 - 1e-9))
		klo++;
	while ((klo + khi) / every + 2 > (int)fmax(3, length_px / 30) && every < 8)
		every++;
	for (int k = klo; dlo < 0 && k >= 0 && n < RANGE_MAX_TICKS; k--)
		if (k % every == 0 || k == klo)
			r->tick[n++] = -r->c * pow(10, k);
	r->tick[n++] = 0;
	for (int k = 0; dhi > 0 && k <= khi && n < RANGE_MAX_TICKS; k++)
		if (k % every == 0 || k == khi)
			r->tick[n++] = r->c * pow(10, k);
	r->nticks = n;
	r->step = 0;
	r->lo = symlog(r->tick[0], r->c);
	r->hi = symlog(r->tick[n - 1], r->c);
	if (!(r->hi > r->lo))
		r->hi = r->lo + 1;
}

double plot_range_tick(const struct range *r, int i)
{
	return r->symlog ? r->tick[i] : r->first + i * r->step;
}

/*
 * The range of one axis. y: from min(0, data) to the first tick at or above the data (with
 * headroom for bar labels); x: exactly the data.
 */
struct range plot_axis_range(const struct plot *p, int panel, enum plot_axis axis,
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
	if (spec->log && axis != PLOT_AXIS_X && p->panels[panel].kind == PLOT_PANEL_XY) {
		symlog_range(&r, dlo, dhi, min_abs(p, panel, axis), length_px);
		return r;
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

double plot_map(double v, const struct range *r, double a, double b)
{
	double px;

	if (r->symlog)
		v = symlog(v, r->c);
	px = a + (v - r->lo) / (r->hi - r->lo) * (b - a);

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
		plot_source_palette(cr, s->color, 1);
		cairo_rectangle(cr, x + 7, y - 7, 14, 14);
		cairo_fill(cr);
		return;
	}
	if (s->flags & PLOT_F_FILL) {
		plot_source_palette(cr, s->color, 0.22);
		cairo_rectangle(cr, x, y - 7, LEGEND_SWATCH, 14);
		cairo_fill(cr);
	}
	plot_source_palette(cr, s->color, 1);
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
double plot_legend(cairo_t *cr, const struct plot *p, double x, double y, double max_w,
		     bool draw)
{
	double cx = x, cy = y, h = 0;

	plot_font(cr, FONT_LEGEND, false);
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
		w = LEGEND_SWATCH + 8 + plot_text_width(cr, s->name) + 24;
		if (cx > x && cx + w > x + max_w) {
			cx = x;
			cy += LEGEND_ROW;
		}
		if (draw) {
			legend_swatch(cr, s, cx, cy + LEGEND_ROW / 2.0);
			plot_source_rgb(cr, 0x333333);
			plot_text_at(cr, s->name, cx + LEGEND_SWATCH + 8, cy + LEGEND_ROW / 2.0 + 4.5, 0);
		}
		cx += w;
		h = cy - y + LEGEND_ROW;
	}
	return h;
}
