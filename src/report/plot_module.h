/*
 * plot_module.h - the plot module: the figure drawing code (the files plot_cairo.h lists), the
 * only user of cairo, built as a shared object of its own, govsim-plot.so, that the program
 * dlopen()s on the first plot drawn (plot_load.c). A command that draws nothing never maps
 * cairo and the ~20 libraries it needs (pixman, fontconfig, freetype, png, xcb, X11, ...).
 *
 * The module exports one symbol, PLOT_MODULE_SYMBOL, this table; it is looked for next to the
 * program (/proc/self/exe's folder, as in a build tree), then in the install's
 * <libdir>/govsim/ relative to the program's folder (bin/../lib/govsim), then in the libdir
 * the build was configured with. Program and module are one build: a table of another build
 * (version or struct sizes) is refused.
 */
#ifndef GOVSIM_REPORT_PLOT_MODULE_H
#define GOVSIM_REPORT_PLOT_MODULE_H

#include "report/plot_priv.h"

#define PLOT_MODULE_FILE   "govsim-plot.so"
#define PLOT_MODULE_SYMBOL "govsim_plot_module"
#define PLOT_MODULE_ABI    1

struct plot_module {
	int abi;            /* PLOT_MODULE_ABI */
	const char *version; /* GOVSIM_VERSION of the build */
	size_t plot_size;    /* sizeof(struct plot), sizeof(struct plot_layout) */
	size_t layout_size;
	/* plot_get_layout() (svg false) and plot_get_layout_svg() */
	int (*layout)(const struct plot *p, bool svg, struct plot_layout *out);
	/* draw to path as PNG or SVG: 0, or GS_EIO with cairo's reason in *why */
	int (*write)(const struct plot *p, bool svg, const char *path, const char **why);
	/* plot_release_static() */
	void (*release)(void);
};

#endif
