/*
 * plot_priv.h - the figure's data, shared by the plot files: plot.c builds it (part of the
 * program), the drawing files read it (govsim-plot.so, plot_cairo.h lists them).
 * Only src/report/plot*.c include it.
 */
#ifndef GOVSIM_REPORT_PLOT_PRIV_H
#define GOVSIM_REPORT_PLOT_PRIV_H

#include "report/plot.h"

struct plot_axis_spec {
	char label[PLOT_NAME_MAX];
	double min, max, step; /* NAN, NAN, 0: automatic */
	bool log;              /* symmetric log10 (plot_set_axis_log) */
};

struct plot_panel {
	enum plot_panel_kind kind;
	char title[PLOT_NAME_MAX];
	struct plot_axis_spec ax[3];
	bool stacked;
	size_t nr_cats;
	char **cats;
	int *cat_group;      /* nr_cats entries, or NULL: no groups */
	size_t nr_groups;
	char **groups;
	bool has_mark;       /* plot_add_xmark */
	double mark_x;
	char mark_label[PLOT_NAME_MAX * 2];
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

#endif
