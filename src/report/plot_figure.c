/* plot_figure.c - a whole figure: each panel's frame, axes and series, the title and legend
 * rows, written to PNG or SVG; see plot.h. */
#include "report/plot_cairo.h"

#include <cairo-svg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the figure ---- */

static double y_tick_width(cairo_t *cr, const struct range *r)
{
	char buf[64];
	double w = 0;

	plot_font(cr, FONT_TICK, false);
	for (int i = 0; i < r->nticks; i++) {
		plot_format_tick(buf, sizeof(buf), plot_range_tick(r, i), r->step);
		w = fmax(w, plot_text_width(cr, buf));
	}
	return w;
}

static void draw_axis_label(cairo_t *cr, const char *label, double x, double y, double angle)
{
	if (!label[0])
		return;
	plot_font(cr, FONT_LABEL, false);
	plot_source_rgb(cr, 0x333333);
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	plot_text_at(cr, label, 0, 0, 0.5);
	cairo_restore(cr);
}

/* A panel's plot area and the ranges of its axes. */
struct panel_layout {
	struct frame f;
	struct range xr, yr, y2r;
	bool bars, right;
};

/* The plot area between the tick labels, the axis labels and the category labels, and the
 * axes' ranges over it; false when it is too small to draw. */
static bool panel_layout(cairo_t *cr, const struct plot *p, int panel, double rx0, double rx1,
			 double top, double bottom, struct panel_layout *l)
{
	const struct plot_panel *pa = &p->panels[panel];
	struct frame *f = &l->f;
	double left_w, right_w, bottom_h;

	l->bars = pa->kind == PLOT_PANEL_BARS;
	l->right = !l->bars && plot_panel_has_right(p, panel);
	/* first pass with a guessed frame to size the tick labels */
	f->x0 = rx0 + 70;
	f->x1 = rx1 - (l->right ? 70 : 16);
	f->y0 = top;
	f->y1 = bottom - 60;
	l->yr = plot_axis_range(p, panel, PLOT_AXIS_Y, f->y1 - f->y0);
	left_w = y_tick_width(cr, &l->yr) + 10 + (pa->ax[PLOT_AXIS_Y].label[0] ? FONT_LABEL + 14 : 4);
	right_w = 16;
	if (l->right) {
		l->y2r = plot_axis_range(p, panel, PLOT_AXIS_Y2, f->y1 - f->y0);
		right_w = y_tick_width(cr, &l->y2r) + 10 +
			  (pa->ax[PLOT_AXIS_Y2].label[0] ? FONT_LABEL + 14 : 4);
	}
	f->x0 = rx0 + left_w;
	f->x1 = rx1 - right_w;
	bottom_h = (l->bars ? plot_category_labels(cr, pa, f, 0.4 * (bottom - top), false, NULL)
			    : 22) +
		   (pa->ax[PLOT_AXIS_X].label[0] ? FONT_LABEL + 10 : 0);
	f->y1 = bottom - bottom_h;
	if (f->x1 - f->x0 < 40 || f->y1 - f->y0 < 40)
		return false;
	l->yr = plot_axis_range(p, panel, PLOT_AXIS_Y, f->y1 - f->y0);
	if (l->right)
		l->y2r = plot_axis_range(p, panel, PLOT_AXIS_Y2, f->y1 - f->y0);
	if (!l->bars)
		l->xr = plot_axis_range(p, panel, PLOT_AXIS_X, f->x1 - f->x0);
	return true;
}

/* The grid at the left axis' ticks (and the x axis' on an XY panel). */
static void panel_grid(cairo_t *cr, const struct panel_layout *l)
{
	const struct frame *f = &l->f;

	cairo_set_line_width(cr, 1);
	plot_source_rgb(cr, 0xe6e6e6);
	for (int i = 0; i < l->yr.nticks; i++) {
		double y = round(plot_map(plot_range_tick(&l->yr, i), &l->yr, f->y1, f->y0)) + 0.5;
		cairo_move_to(cr, f->x0, y);
		cairo_line_to(cr, f->x1, y);
	}
	for (int i = 0; i < l->xr.nticks && !l->bars; i++) {
		double x = round(plot_map(plot_range_tick(&l->xr, i), &l->xr, f->x0, f->x1)) + 0.5;
		cairo_move_to(cr, x, f->y0);
		cairo_line_to(cr, x, f->y1);
	}
	cairo_stroke(cr);
}

/* The panel's series, clipped to the plot area (bars are not: their labels may rise above). */
static void panel_data(cairo_t *cr, const struct plot *p, int panel, const struct panel_layout *l,
		       struct plot_layout *lay)
{
	const struct frame *f = &l->f;

	cairo_save(cr);
	cairo_rectangle(cr, f->x0, f->y0 - 1, f->x1 - f->x0, f->y1 - f->y0 + 2);
	cairo_clip(cr);
	if (l->bars) {
		cairo_restore(cr); /* bar labels may rise above the frame */
		plot_draw_bars(cr, p, panel, &l->yr, f);
		return;
	}
	/* the right axis' series under the left axis' ones */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < p->nr_series; i++) {
			const struct plot_series *s = &p->series[i];
			bool r2 = s->flags & PLOT_F_RIGHT;
			if (s->panel == panel && r2 == (pass == 0))
				plot_draw_line_series(cr, s, &l->xr, r2 ? &l->y2r : &l->yr, f, lay);
		}
	cairo_restore(cr);
}

/* The axis lines, their tick marks and tick labels (category labels on a bars panel). */
static void panel_axes(cairo_t *cr, const struct plot_panel *pa, const struct panel_layout *l,
		       double max_h, struct plot_layout *lay)
{
	const struct frame *f = &l->f;
	char buf[128];

	plot_source_rgb(cr, 0x666666);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, round(f->x0) - 0.5, f->y0);
	cairo_line_to(cr, round(f->x0) - 0.5, round(f->y1) + 0.5);
	cairo_line_to(cr, f->x1, round(f->y1) + 0.5);
	if (l->right) {
		cairo_move_to(cr, round(f->x1) + 0.5, f->y0);
		cairo_line_to(cr, round(f->x1) + 0.5, round(f->y1) + 0.5);
	}
	cairo_stroke(cr);

	plot_font(cr, FONT_TICK, false);
	for (int i = 0; i < l->yr.nticks; i++) {
		double v = plot_range_tick(&l->yr, i), y = plot_map(v, &l->yr, f->y1, f->y0);
		plot_format_tick(buf, sizeof(buf), v, l->yr.step);
		plot_source_rgb(cr, 0x444444);
		plot_text_at(cr, buf, f->x0 - 8, y + 4.5, 1);
	}
	for (int i = 0; i < l->y2r.nticks && l->right; i++) {
		double v = plot_range_tick(&l->y2r, i), y = plot_map(v, &l->y2r, f->y1, f->y0);
		plot_format_tick(buf, sizeof(buf), v, l->y2r.step);
		plot_source_rgb(cr, 0x666666);
		cairo_move_to(cr, f->x1, round(y) + 0.5);
		cairo_line_to(cr, f->x1 + 4, round(y) + 0.5);
		cairo_stroke(cr);
		plot_source_rgb(cr, 0x444444);
		plot_text_at(cr, buf, f->x1 + 8, y + 4.5, 0);
	}
	if (l->bars) {
		plot_category_labels(cr, pa, f, max_h, true, lay);
		return;
	}
	for (int i = 0; i < l->xr.nticks; i++) {
		double v = plot_range_tick(&l->xr, i), x = plot_map(v, &l->xr, f->x0, f->x1);
		plot_format_tick(buf, sizeof(buf), v, l->xr.step);
		plot_source_rgb(cr, 0x666666);
		cairo_move_to(cr, round(x) + 0.5, f->y1);
		cairo_line_to(cr, round(x) + 0.5, f->y1 + 4);
		cairo_stroke(cr);
		plot_source_rgb(cr, 0x444444);
		plot_text_at(cr, buf, x, f->y1 + 18, 0.5);
	}
}

/* lay: the category labels' layout (the first bars panel); lay_frame: the plot area and
 * value axis (the first panel); marks: every panel's frame and mark. */
/* plot_add_xmark: the dashed line, and its label at the top on the side with room. */
static void panel_mark(cairo_t *cr, const struct plot_panel *pa, const struct panel_layout *l,
		       struct plot_layout *lay)
{
	const struct frame *f = &l->f;
	double x = round(plot_map(pa->mark_x, &l->xr, f->x0, f->x1)) + 0.5, tw, tx;
	double dash[] = {5, 3};
	char buf[PLOT_NAME_MAX * 2];
	const char *t;

	if (x < f->x0 - 1 || x > f->x1 + 1)
		return;
	plot_source_rgb(cr, 0x222222);
	cairo_set_line_width(cr, 1.5);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, x, f->y0);
	cairo_line_to(cr, x, f->y1);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	plot_font(cr, FONT_BAR, true);
	/* the wider side of the line; the text fits it or is shortened (the subtitle has it whole) */
	t = plot_fit_text(cr, pa->mark_label, fmax(x - f->x0, f->x1 - x) - 8, buf, sizeof(buf));
	tw = plot_text_width(cr, t);
	tx = x - f->x0 > f->x1 - x ? x - 4 - tw : x + 4;
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, tx - 2, f->y0 + 2, tw + 4, FONT_BAR + 6);
	cairo_fill(cr);
	plot_source_rgb(cr, 0x222222);
	plot_text_at(cr, t, tx, f->y0 + 4 + FONT_BAR, 0);
	if (lay && lay->nr_marks < PLOT_MAX_PANELS) {
		lay->mark_px[lay->nr_marks] = x;
		lay->marks[lay->nr_marks++] = (struct plot_box){tx, f->y0 + 4, tx + tw,
								f->y0 + 6 + FONT_BAR};
	}
}

static void draw_panel(cairo_t *cr, const struct plot *p, int panel, double rx0, double rx1,
		       double top, double bottom, struct plot_layout *lay,
		       struct plot_layout *lay_frame, double names_max_w, struct plot_layout *marks)
{
	const struct plot_panel *pa = &p->panels[panel];
	struct panel_layout l = {0};
	char buf[128];

	if (pa->title[0]) {
		plot_font(cr, FONT_PANEL, true);
		plot_source_rgb(cr, 0x222222);
		plot_text_at(cr, plot_fit_text(cr, pa->title, rx1 - rx0, buf, sizeof(buf)),
			     (rx0 + rx1) / 2, top + FONT_PANEL, 0.5);
		top += FONT_PANEL + 12;
	}
	double max_h = 0.4 * (bottom - top);

	if (pa->kind == PLOT_PANEL_HBARS) {
		plot_draw_hbars(cr, p, panel, rx0, rx1, top, bottom, names_max_w, lay);
		return;
	}
	if (!panel_layout(cr, p, panel, rx0, rx1, top, bottom, &l))
		return;
	if (lay_frame) {
		lay_frame->frame = (struct plot_box){l.f.x0, l.f.y0, l.f.x1, l.f.y1};
		lay_frame->value_lo = l.yr.symlog ? l.yr.tick[0] : l.yr.lo;
		lay_frame->value_hi = l.yr.symlog ? l.yr.tick[l.yr.nticks - 1] : l.yr.hi;
		lay_frame->value_log = l.yr.symlog;
	}
	panel_grid(cr, &l);
	panel_data(cr, p, panel, &l, marks);
	panel_axes(cr, pa, &l, max_h, lay);
	if (marks && panel < PLOT_MAX_PANELS)
		marks->frames[panel] = (struct plot_box){l.f.x0, l.f.y0, l.f.x1, l.f.y1};
	if (pa->has_mark)
		panel_mark(cr, pa, &l, marks);
	draw_axis_label(cr, pa->ax[PLOT_AXIS_X].label, (l.f.x0 + l.f.x1) / 2, bottom - 4, 0);
	draw_axis_label(cr, pa->ax[PLOT_AXIS_Y].label, rx0 + FONT_LABEL, (l.f.y0 + l.f.y1) / 2,
			-M_PI / 2);
	if (l.right)
		draw_axis_label(cr, pa->ax[PLOT_AXIS_Y2].label, rx1 - FONT_LABEL + 4,
				(l.f.y0 + l.f.y1) / 2, M_PI / 2);
}

/* The figure; lay, when not NULL, gets where the texts went (plot_get_layout()). */
static void draw(cairo_t *cr, const struct plot *p, struct plot_layout *lay)
{
	double w = p->width, h = p->height, y = MARGIN, panel_w, names_w = 0, names_max_w = 0;
	bool recorded = false;
	int lines;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);

	plot_font(cr, FONT_TITLE, true);
	plot_source_rgb(cr, 0x222222);
	/* a title wraps (3 lines at most: one longer than that is not a title) */
	lines = plot_text_wrapped(cr, p->title, MARGIN, y + FONT_TITLE, w - 2 * MARGIN,
				  FONT_TITLE + 4, 3);
	if (lay)
		lay->title_lines = lines;
	y += (FONT_TITLE + 4) * lines + 4;
	if (p->subtitle[0]) {
		plot_font(cr, FONT_SUB, false);
		plot_source_rgb(cr, 0x555555);
		y += (FONT_SUB + 4) * plot_text_wrapped(cr, p->subtitle, MARGIN, y + FONT_SUB,
						   w - 2 * MARGIN, FONT_SUB + 4, 3) + 4;
	}
	y += 2;
	y += plot_legend(cr, p, MARGIN, y, w - 2 * MARGIN, true) + 10;

	if (!p->nr_panels)
		return;
	/* Horizontal bars in the first panel: their rows are named once, at the figure's left
	 * (up to 45% of its width), and the panels share the rest. */
	if (p->panels[0].kind == PLOT_PANEL_HBARS) {
		double font;
		names_max_w = 0.45 * (w - 2 * MARGIN);
		names_w = plot_hbars_names_width(cr, &p->panels[0], names_max_w, &font) + 10;
	}
	panel_w = (w - 2 * MARGIN - names_w) / p->nr_panels;
	for (int i = 0; i < p->nr_panels; i++) {
		bool rec = lay && !recorded && p->panels[i].kind != PLOT_PANEL_XY;
		double x0 = MARGIN + (i ? names_w + i * panel_w + 12 : 0);

		draw_panel(cr, p, i, x0, MARGIN + names_w + (i + 1) * panel_w, y, h - MARGIN + 6,
			   rec ? lay : NULL, i == 0 ? lay : NULL, i == 0 ? names_max_w : 0, lay);
		recorded |= rec;
	}
}

/* The layout as the PNG (image) surface draws it. */
static int layout_png(const struct plot *p, struct plot_layout *out)
{
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	cairo_t *cr = cairo_create(sf);
	int ret = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : GS_ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!ret)
		draw(cr, p, out);
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	return ret;
}

static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int length)
{
	(void)closure;
	(void)data;
	(void)length;
	return CAIRO_STATUS_SUCCESS;
}

/* The layout as the SVG surface draws it (its own text metrics). */
static int layout_svg(const struct plot *p, struct plot_layout *out)
{
	cairo_surface_t *sf = cairo_svg_surface_create_for_stream(discard, NULL, p->width, p->height);
	cairo_t *cr;
	int ret;

	cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PX);
	cr = cairo_create(sf);
	ret = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : GS_ENOMEM;
	memset(out, 0, sizeof(*out));
	if (!ret)
		draw(cr, p, out);
	cairo_destroy(cr);
	cairo_surface_finish(sf);
	cairo_surface_destroy(sf);
	return ret;
}

int plot_cairo_layout(const struct plot *p, bool svg, struct plot_layout *out)
{
	return svg ? layout_svg(p, out) : layout_png(p, out);
}

static int cairo_fail(const char **why, cairo_status_t st)
{
	*why = cairo_status_to_string(st);
	return GS_EIO;
}

static int write_png(const struct plot *p, const char *path, const char **why)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	cairo_status_t st = cairo_surface_status(surf);
	cairo_t *cr;

	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surf);
		return cairo_fail(why, st);
	}
	cr = cairo_create(surf);
	draw(cr, p, NULL);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png(surf, path);
	cairo_surface_destroy(surf);
	return st == CAIRO_STATUS_SUCCESS ? 0 : cairo_fail(why, st);
}

static int write_svg(const struct plot *p, const char *path, const char **why)
{
	cairo_surface_t *surf = cairo_svg_surface_create(path, p->width, p->height);
	cairo_status_t st = cairo_surface_status(surf);
	cairo_t *cr;

	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surf);
		return cairo_fail(why, st);
	}
	cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
	cr = cairo_create(surf);
	draw(cr, p, NULL);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	cairo_surface_destroy(surf);
	return st == CAIRO_STATUS_SUCCESS ? 0 : cairo_fail(why, st);
}

int plot_cairo_write(const struct plot *p, bool svg, const char *path, const char **why)
{
	return svg ? write_svg(p, path, why) : write_png(p, path, why);
}

void plot_cairo_release(void)
{
	cairo_debug_reset_static_data();
}
