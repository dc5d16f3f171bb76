/* plot_module.c - govsim-plot.so's one exported symbol: its table of entry points, read by
 * plot_load.c (plot_module.h). */
#include "report/plot_module.h"

#include "report/plot_cairo.h"
#include "version.h"

__attribute__((visibility("default"))) extern const struct plot_module govsim_plot_module;
const struct plot_module govsim_plot_module = {
	.abi = PLOT_MODULE_ABI,
	.version = GOVSIM_VERSION,
	.plot_size = sizeof(struct plot),
	.layout_size = sizeof(struct plot_layout),
	.layout = plot_cairo_layout,
	.write = plot_cairo_write,
	.release = plot_cairo_release,
};
