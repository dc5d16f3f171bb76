/*
 * plot.h - charts drawn with cairo, to PNG (image surface) and SVG (SVG surface) from the same
 * drawing code.
 *
 * A plot is a figure: a title and a subtitle, one legend row under them (it never covers data),
 * and one or more panels side by side. A panel is either
 *   - PLOT_PANEL_XY:   lines and step lines over a numeric x axis, a left y axis and an optional
 *                      right y axis (PLOT_F_RIGHT series), or
 *   - PLOT_PANEL_BARS: named categories along x; each bar series has one value per category;
 *                      series are drawn side by side (grouped) or on top of each other (stacked),
 *                      optionally with a short text above each bar;
 *   - PLOT_PANEL_HBARS: the categories as rows (the first series of the panel), each name in
 *                      full on the left (only in the figure's first such panel: the others
 *                      share its rows), the bar to the right with its text at its end; the
 *                      value axis (labelled by PLOT_AXIS_Y) is logarithmic when the positive
 *                      values span two decades or more. A group (plot_set_category_groups)
 *                      gets a heading row above its runs.
 * Axes have tick labels on "nice" steps (1, 2, 2.5 or 5 x 10^k), a light grid at the left axis'
 * ticks, and a label that names the unit ("frequency (MHz)"). Colours come from one palette
 * (plot_palette()). Sizes are in pixels (SVG documents are written in px); fonts are at least
 * 12 px.
 *
 * The plot keeps copies of every series it was given, so a caller (or a test) can read back
 * exactly what was drawn: plot_nr_series() and plot_series_at().
 *
 * Lifecycle: plot_new()/plot_free() (heap, free accepts NULL). Functions that add data return 0
 * or a negative GS_E* code (GS_ENOMEM, GS_EARG); writers fill a struct gs_error.
 */
#ifndef GOVSIM_REPORT_PLOT_H
#define GOVSIM_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define PLOT_WIDTH      1200 /* default figure size, px */
#define PLOT_HEIGHT     600
#define PLOT_MAX_PANELS 8
#define PLOT_NAME_MAX   96

enum plot_panel_kind {
	PLOT_PANEL_XY,
	PLOT_PANEL_BARS,
	PLOT_PANEL_HBARS, /* one row per category, labels in full on the left, bars to the right */
};

enum plot_axis {
	PLOT_AXIS_X,
	PLOT_AXIS_Y,  /* left */
	PLOT_AXIS_Y2, /* right */
};

enum plot_style {
	PLOT_LINE, /* straight segments between points */
	PLOT_STEP, /* y[i] holds from x[i] until x[i+1]; the last value holds to the axis end */
	PLOT_BARS, /* bars panel only: y[i] is the value of category i (x[i] = i) */
};

/* Series flags */
#define PLOT_F_DASHED   0x1u /* dashed line */
#define PLOT_F_RIGHT    0x2u /* y on the panel's right axis */
#define PLOT_F_FILL     0x4u /* light fill between the line and y = 0 */
#define PLOT_F_THIN     0x8u /* 1 px line instead of 2 px */
#define PLOT_F_NOLEGEND 0x10u
#define PLOT_F_SEGMENTS 0x20u /* XY lines: each horizontal run between gaps a block at least
				* 3 px long and 6 px high (timelines of short slices) */

/* One series as drawn. y = NAN leaves a gap (lines) or no bar (bars). */
struct plot_series {
	char name[PLOT_NAME_MAX];
	int panel;
	enum plot_style style;
	unsigned flags;
	int color;     /* palette index */
	size_t n;
	double *x, *y; /* n points each (owned by the plot) */
	char **labels; /* bars: text above each bar, or NULL; entries may be NULL */
};

struct plot;

/* A new figure of PLOT_WIDTH x PLOT_HEIGHT px with no panels; NULL when out of memory.
 * subtitle may be NULL. */
struct plot *plot_new(const char *title, const char *subtitle);
void plot_free(struct plot *p);

/* Figure size in px (both >= 200; other values are ignored). */
void plot_set_size(struct plot *p, int width_px, int height_px);

/* Add a panel; returns its index (0, 1, ...) or GS_EARG when PLOT_MAX_PANELS are in use.
 * title may be NULL (no panel title). Panels share the figure width equally. */
int plot_add_panel(struct plot *p, enum plot_panel_kind kind, const char *title);

/*
 * Label and range of one axis of a panel. min/max NAN: from the data (y axes start at 0 when
 * the data are >= 0 and end at the first tick above the largest value plus 3% headroom, 12%
 * when the panel has bar labels; x ends at the data).
 * tick_step 0: automatic (plot_nice_ticks), otherwise ticks at multiples of tick_step.
 * Ignored for a bad panel, and for PLOT_AXIS_X on a bars panel apart from its label.
 */
void plot_set_axis(struct plot *p, int panel, enum plot_axis axis, const char *label, double min,
		   double max, double tick_step);

/*
 * XY panels, y axes: a symmetric log10 scale, s(v) = sign(v) log10(1 + |v| / c) with c the
 * decade at or below the smallest non-zero |value|: values spanning decades stay apart, and 0
 * and negative values keep their place. Ticks at 0 and +-c 10^k; min/max/step are ignored.
 */
void plot_set_axis_log(struct plot *p, int panel, enum plot_axis axis, bool log);

/* XY panels: a vertical dashed line at x across the plot area, `label` (copied) beside it at
 * the top, inside the area (e.g. the answer of a search). GS_EARG on another panel. */
int plot_add_xmark(struct plot *p, int panel, double x, const char *label);

/* The label of an axis as set (never NULL; "" for a bad panel). */
const char *plot_axis_label(const struct plot *p, int panel, enum plot_axis axis);

/* Bars panels: the category names along x (copied). GS_EARG on an XY panel. */
int plot_set_categories(struct plot *p, int panel, const char *const *names, size_t n);

/*
 * Bars panels: the categories fall in groups (e.g. runs by trace and platform): group[c] is
 * the group of category c (0..nr_groups-1; a group's categories are consecutive), names[g] its
 * label (copied), drawn under the group's category labels with a separator between groups.
 * GS_EARG on an XY panel, before plot_set_categories() or for a bad group index.
 */
int plot_set_category_groups(struct plot *p, int panel, const int *group,
			     const char *const *names, size_t nr_groups);

/* Where a drawing puts its texts, px (y down), for tests: the title's lines, and each
 * category label and group label of the first bars panel (vertical or horizontal), as boxes;
 * that panel's plot area and value axis; the segments of PLOT_F_SEGMENTS series. */
struct plot_box {
	double x0, y0, x1, y1;
};
#define PLOT_LAYOUT_MAX 128
struct plot_layout {
	int title_lines;
	size_t nr_cats, nr_groups;        /* at most PLOT_LAYOUT_MAX of each are recorded */
	struct plot_box cats[PLOT_LAYOUT_MAX], groups[PLOT_LAYOUT_MAX];
	double cat_font_px;               /* the category labels' font size */
	int cat_mode;                     /* 0 level, 1 wrapped, 2 vertical, 3 rows (hbars) */
	size_t cats_cut;                  /* category labels shortened with "..." */
	size_t nr_bar_labels;             /* texts at the bars' ends (hbars) */
	struct plot_box bar_labels[PLOT_LAYOUT_MAX];
	struct plot_box frame;            /* the first panel's plot area */
	double value_lo, value_hi;        /* its value axis (y; x on hbars), data units */
	bool value_log;                   /* that axis is logarithmic */
	size_t nr_segments;               /* PLOT_F_SEGMENTS segments drawn, and the least */
	double min_segment_w, min_segment_h; /* width and height of one, px */
	size_t nr_marks;                  /* plot_add_xmark labels, every panel */
	struct plot_box marks[PLOT_MAX_PANELS];
	double mark_px[PLOT_MAX_PANELS];  /* the mark's x, px */
	struct plot_box frames[PLOT_MAX_PANELS]; /* each XY panel's plot area (marks' panels) */
};
/* Lay the figure out as plot_write_png() would draw it, into *out. 0, or GS_ENOMEM. */
int plot_get_layout(const struct plot *p, struct plot_layout *out);
/* The same, as plot_write_svg() would draw it (the SVG surface's text metrics). */
int plot_get_layout_svg(const struct plot *p, struct plot_layout *out);

/* Bars panels: stack the series on top of each other instead of side by side. */
void plot_set_stacked(struct plot *p, int panel, bool stacked);

/*
 * Add a series to a panel (data copied). For PLOT_BARS, x may be NULL (then x[i] = i) and n
 * must equal the panel's number of categories. `color` is a palette index. Returns the series
 * index (0, 1, ... over the whole figure) or GS_EARG / GS_ENOMEM.
 */
int plot_add_series(struct plot *p, int panel, const char *name, enum plot_style style,
		    unsigned flags, int color, const double *x, const double *y, size_t n);

/* Bars: text drawn above each bar of series `series` (copied; n = the series' n; an entry may
 * be NULL). In a stacked panel the text goes above the top of the stack. */
int plot_set_bar_labels(struct plot *p, int series, const char *const *labels);

/* What was added: the number of series and series i (NULL when out of range). */
size_t plot_nr_series(const struct plot *p);
const struct plot_series *plot_series_at(const struct plot *p, size_t i);
int plot_width(const struct plot *p);
int plot_height(const struct plot *p);

/*
 * Draw the figure to `path` as PNG (cairo image surface, ARGB32) or SVG (cairo SVG surface,
 * size in px). GS_EIO with "'path': <cairo's reason>" when the file cannot be written.
 */
int plot_write_png(const struct plot *p, const char *path, struct gs_error *err);
int plot_write_svg(const struct plot *p, const char *path, struct gs_error *err);

/*
 * Ticks for an axis from lo to hi with at most about `max_ticks` ticks: *step is 1, 2, 2.5 or
 * 5 x 10^k, *first the smallest multiple of *step >= lo. Returns the number of ticks in
 * [lo, hi] (0 when hi <= lo or an argument is not finite).
 */
int plot_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step);

/* Palette colour i (wraps around), components 0..1. */
void plot_palette(int i, double rgb[3]);

/*
 * Release cairo's process-wide caches (font faces and their fontconfig patterns) once no plot
 * is being drawn any more, e.g. at the end of a command, so that leak checkers see a clean
 * exit. Drawing again afterwards is allowed (the caches refill).
 */
void plot_release_static(void);

/* Number of palette colours before plot_palette() wraps around. */
#define PLOT_PALETTE_SIZE 10

#endif
