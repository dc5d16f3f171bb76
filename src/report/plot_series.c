/* plot_series.c - the plot module's chart families: lines and step lines on an XY panel,
 * grouped or stacked bars with their labels; see plot.h. */
#include "report/plot_cairo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- series ---- */

/*
 * The path of a line or step series. fill: each contiguous run is closed down to y = base,
 * for a filled area; otherwise open subpaths for stroking. NAN values break the line.
 */
static void series_path(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			const struct range *ry, const struct frame *f, bool fill)
{
	double base = plot_map(fmax(ry->lo, fmin(0, ry->hi)), ry, f->y1, f->y0);
	double prev_py = 0, run_px = 0, px = 0;
	bool down = false;

	for (size_t i = 0; i < s->n; i++) {
		px = plot_map(s->x[i], rx, f->x0, f->x1);
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
		prev_py = plot_map(s->y[i], ry, f->y1, f->y0);
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
		px = plot_map(rx->hi, rx, f->x0, f->x1);
		cairo_line_to(cr, px, prev_py);
		run_px = px;
	}
	if (fill) {
		cairo_line_to(cr, run_px, base);
		cairo_close_path(cr);
	}
}

/* PLOT_F_SEGMENTS: each pair of finite points a block from the first x, at least MIN_SEG px
 * long (a slice of microseconds in a run of seconds stays visible), centred on the first y. */
#define MIN_SEG 3.0
static void draw_segments(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			  const struct range *ry, const struct frame *f, struct plot_layout *lay)
{
	double h = s->flags & PLOT_F_THIN ? 4.0 : 6.0;

	plot_source_palette(cr, s->color, 1);
	for (size_t i = 0; i + 1 < s->n; i++) {
		double x0, x1, y;
		if (!isfinite(s->x[i]) || !isfinite(s->y[i]) || !isfinite(s->x[i + 1]) ||
		    !isfinite(s->y[i + 1]))
			continue;
		x0 = plot_map(s->x[i], rx, f->x0, f->x1);
		x1 = fmax(plot_map(s->x[i + 1], rx, f->x0, f->x1), x0 + MIN_SEG);
		y = plot_map(s->y[i], ry, f->y1, f->y0);
		cairo_rectangle(cr, x0, y - h / 2, x1 - x0, h);
		if (lay) {
			lay->min_segment_w = lay->nr_segments ? fmin(lay->min_segment_w, x1 - x0) : x1 - x0;
			lay->min_segment_h = lay->nr_segments ? fmin(lay->min_segment_h, h) : h;
			lay->nr_segments++;
		}
	}
	cairo_fill(cr);
}

void plot_draw_line_series(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			     const struct range *ry, const struct frame *f, struct plot_layout *lay)
{
	if (s->flags & PLOT_F_SEGMENTS) {
		draw_segments(cr, s, rx, ry, f, lay);
		return;
	}
	if (s->flags & PLOT_F_FILL) {
		series_path(cr, s, rx, ry, f, true);
		plot_source_palette(cr, s->color, 0.18);
		cairo_fill(cr);
	}
	series_path(cr, s, rx, ry, f, false);
	plot_source_palette(cr, s->color, 1);
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

void plot_draw_bars(cairo_t *cr, const struct plot *p, int panel, const struct range *ry,
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

	plot_font(cr, FONT_BAR, false);
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
			ya = plot_map(from, ry, f->y1, f->y0);
			yb = plot_map(to, ry, f->y1, f->y0);
			plot_source_palette(cr, s->color, 1);
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
				plot_source_rgb(cr, 0x333333);
				plot_text_at(cr, s->labels[c], bx + bar_w / 2, fmin(ya, yb) - 5, 0.5);
			}
		}
		g++;
	}
	if (pa->stacked) {
		plot_source_rgb(cr, 0x333333);
		for (size_t c = 0; c < pa->nr_cats; c++)
			if (top_label[c])
				plot_text_at(cr, top_label[c], f->x0 + slot * ((double)c + 0.5),
					plot_map(top_pos[c], ry, f->y1, f->y0) - 5, 0.5);
	}
out_free:
	free(top_pos);
	free(top_neg);
	free(top_label);
}

