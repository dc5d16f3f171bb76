/*
 * plot_hbars.c - a PLOT_PANEL_HBARS panel: one row per category, its name in full on the
 * left, its bar to the right with the bar's text at its end; see plot.h.
 *
 * Rows share the panel's height equally (a group's heading takes a row above its members).
 * The value axis runs along x from the panel's lowest value (0 unless a value is negative) and
 * ends where the longest bar plus its text fits the plot area: for a bar of value v with text
 * of width w, (v - lo) / (hi - lo) * W + gap + w <= W, i.e. hi >= lo + (v - lo) * W / (W - gap
 * - w). When the positive values span two decades or more, the axis is log10 of the value
 * from the decade below the smallest (a linear axis would leave the small bars a pixel wide).
 */
#include "report/plot_cairo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROW_GAP   0.22 /* share of a row left empty above and below the bar */
#define TEXT_GAP  6.0  /* px between a bar's end and its text */
#define LABEL_GAP 10.0 /* px between a row's name and the plot area */

struct hbars {
	const struct plot_panel *pa;
	const struct plot_series *s; /* the panel's first series */
	size_t rows;                 /* categories + group headings */
	bool log;
	double lo, hi;               /* the axis, in value units (log10 of them when log) */
	double first, step;          /* ticks, in axis units */
	int nticks;
	double font;                 /* the row names' size, px */
};

static const struct plot_series *first_series(const struct plot *p, int panel)
{
	for (size_t i = 0; i < p->nr_series; i++)
		if (p->series[i].panel == panel)
			return &p->series[i];
	return NULL;
}

static bool heading_before(const struct plot_panel *pa, size_t c)
{
	return pa->cat_group && pa->nr_groups && (c == 0 || pa->cat_group[c] != pa->cat_group[c - 1]);
}

static double axis_of(const struct hbars *h, double v)
{
	return h->log ? log10(v) : v;
}

/* log when every finite value is > 0 and the largest is at least 100 x the smallest */
static void value_span(struct hbars *h, double *vmin, double *vmax)
{
	bool positive = true;

	*vmin = INFINITY;
	*vmax = -INFINITY;
	for (size_t c = 0; h->s && c < h->s->n; c++) {
		double v = h->s->y[c];
		if (!isfinite(v))
			continue;
		positive &= v > 0;
		*vmin = fmin(*vmin, v);
		*vmax = fmax(*vmax, v);
	}
	if (!isfinite(*vmin)) {
		*vmin = 0;
		*vmax = 1;
	}
	h->log = positive && *vmax >= 100 * *vmin;
}

/* The axis over a plot area `width` px wide, room left for each bar's text. */
static void value_axis(cairo_t *cr, struct hbars *h, double width)
{
	double vmin, vmax, need;

	value_span(h, &vmin, &vmax);
	h->lo = h->log ? floor(log10(vmin)) : fmin(0, vmin);
	need = h->log ? log10(vmax) : fmax(vmax, h->lo + 1e-12);
	plot_font(cr, FONT_BAR, false);
	for (size_t c = 0; h->s && c < h->s->n; c++) {
		double v = h->s->y[c], room;
		const char *t = h->s->labels ? h->s->labels[c] : NULL;
		if (!isfinite(v) || !t)
			continue;
		room = width - TEXT_GAP - plot_text_width(cr, t);
		if (room > 0.2 * width)
			need = fmax(need, h->lo + (axis_of(h, v) - h->lo) * width / room);
	}
	if (h->log) {
		h->hi = fmax(ceil(need - 1e-9), h->lo + 1);
		h->step = ceil((h->hi - h->lo) / fmax(1, floor(width / 70)));
		h->first = h->lo;
		h->nticks = (int)floor((h->hi - h->lo) / h->step + 1e-9) + 1;
		return;
	}
	h->nticks = plot_nice_ticks(h->lo, need, (int)fmax(2, width / 90), &h->first, &h->step);
	h->hi = h->first + (h->nticks - 1) * h->step;
	if (h->hi < need - 1e-9 * h->step) { /* the next tick up */
		h->hi += h->step;
		h->nticks++;
	}
}

static double map_x(const struct hbars *h, double v, const struct frame *f)
{
	double a = h->log ? (v > 0 ? log10(v) : h->lo) : v;

	return plot_map(a, &(struct range){.lo = h->lo, .hi = h->hi}, f->x0, f->x1);
}

/* The names' column: the widest name at the largest size from FONT_TICK down to 9 px that
 * fits max_w; wider names take more, never cut. Its width, px; *font its size. */
double plot_hbars_names_width(cairo_t *cr, const struct plot_panel *pa, double max_w,
			      double *font)
{
	double w = 0;

	for (*font = FONT_TICK; *font >= 9; *font -= 1) {
		w = 0;
		for (size_t c = 0; c < pa->nr_cats; c++) {
			plot_font(cr, *font, false);
			w = fmax(w, plot_text_width(cr, pa->cats[c]));
		}
		for (size_t g = 0; g < pa->nr_groups; g++) {
			plot_font(cr, *font, true);
			w = fmax(w, plot_text_width(cr, pa->groups[g]));
		}
		if (w <= max_w)
			break;
	}
	if (*font < 9)
		*font = 9;
	return w;
}

static void record(struct plot_box *boxes, size_t *n, double x0, double y0, double x1, double y1)
{
	if (*n < PLOT_LAYOUT_MAX)
		boxes[(*n)++] = (struct plot_box){x0, y0, x1, y1};
}

/* The rows: a heading per group, a name (when `names`), a bar and its text per category. */
static void draw_rows(cairo_t *cr, const struct hbars *h, const struct frame *f, bool names,
		      struct plot_layout *lay)
{
	double row_h = (f->y1 - f->y0) / (double)h->rows, y = f->y0;

	for (size_t c = 0; c < h->pa->nr_cats; c++) {
		double v = h->s && c < h->s->n ? h->s->y[c] : NAN, mid, x0, x1, tw;
		const char *t = h->s && h->s->labels ? h->s->labels[c] : NULL;

		if (heading_before(h->pa, c)) {
			const char *g = h->pa->groups[h->pa->cat_group[c]];
			if (names) {
				plot_font(cr, h->font, true);
				plot_source_rgb(cr, 0x222222);
				tw = plot_text_width(cr, g);
				plot_text_at(cr, g, f->x0 - LABEL_GAP, y + row_h / 2 + h->font * 0.35, 1);
				if (lay)
					record(lay->groups, &lay->nr_groups, f->x0 - LABEL_GAP - tw,
					       y + row_h / 2 - h->font * 0.5, f->x0 - LABEL_GAP,
					       y + row_h / 2 + h->font * 0.5);
			}
			if (c) { /* a separator between groups */
				plot_source_rgb(cr, 0xbbbbbb);
				cairo_set_line_width(cr, 1);
				cairo_move_to(cr, f->x0, round(y) + 0.5);
				cairo_line_to(cr, f->x1, round(y) + 0.5);
				cairo_stroke(cr);
			}
			y += row_h;
		}
		mid = y + row_h / 2;
		if (names) {
			plot_font(cr, h->font, false);
			plot_source_rgb(cr, 0x333333);
			tw = plot_text_width(cr, h->pa->cats[c]);
			plot_text_at(cr, h->pa->cats[c], f->x0 - LABEL_GAP, mid + h->font * 0.35, 1);
			if (lay)
				record(lay->cats, &lay->nr_cats, f->x0 - LABEL_GAP - tw,
				       mid - h->font * 0.5, f->x0 - LABEL_GAP, mid + h->font * 0.5);
		}
		if (isfinite(v) && (!h->log || v > 0)) {
			x0 = map_x(h, h->log ? pow(10, h->lo) : 0, f);
			x1 = map_x(h, v, f);
			plot_source_palette(cr, h->s->color, 1);
			cairo_rectangle(cr, fmin(x0, x1), y + ROW_GAP * row_h, fabs(x1 - x0),
					(1 - 2 * ROW_GAP) * row_h);
			cairo_fill(cr);
		} else {
			x1 = map_x(h, h->log ? pow(10, h->lo) : 0, f);
		}
		if (t) {
			plot_font(cr, fmin(FONT_BAR, h->font), false);
			plot_source_rgb(cr, 0x222222);
			tw = plot_text_width(cr, t);
			plot_text_at(cr, t, x1 + TEXT_GAP, mid + FONT_BAR * 0.35, 0);
			if (lay)
				record(lay->bar_labels, &lay->nr_bar_labels, x1 + TEXT_GAP,
				       mid - FONT_BAR * 0.5, x1 + TEXT_GAP + tw, mid + FONT_BAR * 0.5);
		}
		y += row_h;
	}
}

/* The value axis under the rows: grid, ticks, labels (10^k values on a log axis). */
static void draw_axis(cairo_t *cr, const struct hbars *h, const struct frame *f)
{
	char buf[64];

	for (int i = 0; i < h->nticks; i++) {
		double a = h->first + i * h->step;
		double x = round(plot_map(a, &(struct range){.lo = h->lo, .hi = h->hi}, f->x0, f->x1)) +
			   0.5;
		plot_source_rgb(cr, 0xe6e6e6);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, f->y0);
		cairo_line_to(cr, x, f->y1);
		cairo_stroke(cr);
		if (h->log)
			snprintf(buf, sizeof(buf), "%g", pow(10, a));
		else
			plot_format_tick(buf, sizeof(buf), a, h->step);
		plot_font(cr, FONT_TICK, false);
		plot_source_rgb(cr, 0x444444);
		plot_text_at(cr, buf, x, f->y1 + 18, 0.5);
	}
	plot_source_rgb(cr, 0x666666);
	cairo_move_to(cr, round(f->x0) - 0.5, f->y0);
	cairo_line_to(cr, round(f->x0) - 0.5, round(f->y1) + 0.5);
	cairo_line_to(cr, f->x1, round(f->y1) + 0.5);
	cairo_stroke(cr);
}

void plot_draw_hbars(cairo_t *cr, const struct plot *p, int panel, double rx0, double rx1,
		     double top, double bottom, double names_max_w, struct plot_layout *lay)
{
	struct hbars h = {.pa = &p->panels[panel], .s = first_series(p, panel)};
	const char *label = h.pa->ax[PLOT_AXIS_Y].label;
	char text[PLOT_NAME_MAX + 16];
	bool names = names_max_w > 0;
	struct frame f;
	double names_w = plot_hbars_names_width(cr, h.pa, names ? names_max_w : 1e9, &h.font);

	h.rows = h.pa->nr_cats;
	for (size_t c = 0; c < h.pa->nr_cats; c++)
		h.rows += heading_before(h.pa, c);
	f.x0 = rx0 + (names ? names_w + LABEL_GAP : 8);
	f.x1 = rx1 - 28; /* half the last tick label, clear of the next panel */
	f.y0 = top;
	f.y1 = bottom - 22 - (label[0] ? FONT_LABEL + 10 : 0);
	if (!h.rows || f.x1 - f.x0 < 40 || f.y1 - f.y0 < 20)
		return;
	value_axis(cr, &h, f.x1 - f.x0);
	draw_axis(cr, &h, &f);
	draw_rows(cr, &h, &f, names, names ? lay : NULL);
	snprintf(text, sizeof(text), "%s%s", label, h.log && label[0] ? ", log scale" : "");
	plot_font(cr, FONT_LABEL, false);
	plot_source_rgb(cr, 0x333333);
	plot_text_at(cr, text, (f.x0 + f.x1) / 2, bottom - 4, 0.5);
	if (lay && names) {
		lay->cat_mode = 3;
		lay->cat_font_px = h.font;
		lay->frame = (struct plot_box){f.x0, f.y0, f.x1, f.y1};
		lay->value_lo = h.log ? pow(10, h.lo) : h.lo;
		lay->value_hi = h.log ? pow(10, h.hi) : h.hi;
		lay->value_log = h.log;
	}
}
