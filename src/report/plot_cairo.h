/*
 * plot_cairo.h - what the drawing files of the plot module share: type sizes, axis ranges and
 * the cairo drawing helpers. Only the files built into govsim-plot.so (plot_module.h) include
 * it: the rest of govsim never sees cairo.
 *
 *   plot_draw.c    drawing primitives: colours, text, tick labels, axis ranges, the legend;
 *   plot_series.c  the two chart families: lines/steps on an XY panel, grouped/stacked bars;
 *   plot_figure.c  the panels' frames and axes, the whole figure, PNG and SVG output;
 *   plot_hbars.c   horizontal bars: one row per category, names on the left;
 *   plot_labels.c  category and group labels under a bars panel;
 *   plot_module.c  the module's table of entry points.
 */
#ifndef GOVSIM_REPORT_PLOT_CAIRO_H
#define GOVSIM_REPORT_PLOT_CAIRO_H

#include "report/plot_priv.h"

#include <cairo.h>

/* Type sizes, px */
#define FONT_TITLE  19
#define FONT_SUB    13
#define FONT_LEGEND 13
#define FONT_PANEL  14
#define FONT_LABEL  14
#define FONT_TICK   12
#define FONT_BAR    12

#define MARGIN 20 /* around the figure */

#define RANGE_MAX_TICKS 32
struct range {
	double lo, hi;    /* data range mapped to the axis (symlog: in its units) */
	double first, step;
	int nticks;
	bool used;
	/* symmetric log10: s(v) = sign(v) log10(1 + |v| / c), linear within +-c of 0; ticks at 0
	 * and +-c 10^k, listed in tick[] (data values) */
	bool symlog;
	double c;
	double tick[RANGE_MAX_TICKS];
};

/* Tick i of a range, a data value. */
double plot_range_tick(const struct range *r, int i);

struct frame {
	double x0, y0, x1, y1; /* plot area, px (y0 top) */
};

/*
 * The range of one axis. y: from min(0, data) to the first tick at or above the data (with
 * headroom for bar labels); x: exactly the data.
 */
struct range plot_axis_range(const struct plot *p, int panel, enum plot_axis axis,
			       double length_px);

/*
 * Category labels under a bars panel (plot_labels.c), laid out by their measured extents:
 * level when they fit their slots, else wrapped at spaces (up to 3 lines), else turned upright
 * (reading upwards) in a smaller font when the slots are narrow, and wrapped or shrunk when
 * taller than max_h; then the group labels and the separators between groups. Nothing is
 * cut. Returns the height they take under the frame; draws when `draw`; records the boxes in
 * lay when not NULL.
 */
double plot_category_labels(cairo_t *cr, const struct plot_panel *pa, const struct frame *f,
			    double max_h, bool draw, struct plot_layout *lay);

void plot_draw_bars(cairo_t *cr, const struct plot *p, int panel, const struct range *ry,
		      const struct frame *f);

/* A PLOT_PANEL_HBARS panel in the box rx0..rx1 x top..bottom (plot_hbars.c), with the row
 * names in a column of at most names_max_w px at its left (none when 0: another panel names
 * the rows); records its layout in lay (when not NULL and it names the rows). */
void plot_draw_hbars(cairo_t *cr, const struct plot *p, int panel, double rx0, double rx1,
		     double top, double bottom, double names_max_w, struct plot_layout *lay);

/* The width of a hbars panel's names column when it may take max_w px (the names in full, in
 * the largest font from 12 px down to 9 px that fits), and that font's size in *font. */
double plot_hbars_names_width(cairo_t *cr, const struct plot_panel *pa, double max_w,
			      double *font);

/* A line or step series, or PLOT_F_SEGMENTS blocks (counted in lay when not NULL). */
void plot_draw_line_series(cairo_t *cr, const struct plot_series *s, const struct range *rx,
			     const struct range *ry, const struct frame *f, struct plot_layout *lay);

/* s shortened with "..." to fit max_w px, in buf. */
const char *plot_fit_text(cairo_t *cr, const char *s, double max_w, char *buf, size_t size);

void plot_font(cairo_t *cr, double size, bool bold);

/* Tick label: as many decimals as the step needs. */
void plot_format_tick(char *buf, size_t size, double v, double step);

/* Lay the legend out in rows from (x, y); draws when `draw`. Returns its height. */
double plot_legend(cairo_t *cr, const struct plot *p, double x, double y, double max_w,
		     bool draw);

double plot_map(double v, const struct range *r, double a, double b);

bool plot_panel_has_right(const struct plot *p, int panel);

void plot_source_palette(cairo_t *cr, int i, double alpha);

void plot_source_rgb(cairo_t *cr, unsigned c);

/* Text with its baseline at y; ha 0 = left, 0.5 = centred, 1 = right aligned at x. */
void plot_text_at(cairo_t *cr, const char *s, double x, double y, double ha);

double plot_text_width(cairo_t *cr, const char *s);

/*
 * Draw s from (x, y) in lines that fit max_w px, broken at spaces (a word longer than a line
 * is shortened with "..."), at most max_lines lines (the last one ends in "..." when text is
 * left); returns the number of lines drawn. Titles wrap instead of being cut.
 */
int plot_text_wrapped(cairo_t *cr, const char *s, double x, double y, double max_w,
			double line_h, int max_lines);


/* The module's entry points (plot_figure.c), behind plot_module.h's table: the layout as the
 * PNG (svg false) or SVG surface draws it; the figure written to path, 0 or GS_EIO with cairo's
 * reason in *why; cairo's caches released. */
int plot_cairo_layout(const struct plot *p, bool svg, struct plot_layout *out);
int plot_cairo_write(const struct plot *p, bool svg, const char *path, const char **why);
void plot_cairo_release(void);

#endif
