/* platform_plot.c - power and efficiency curves of a platform model; see platform_plot.h. */
#include "report/platform_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The 2D row of cluster c at OPP k with the smallest dependency frequency (Wattson's default
 * vote when no dependency CPU is active), or NULL. */
static const struct plat_w2d *default_row(const struct platform *p, int c, int k)
{
	const struct plat_cluster *pc = &p->clusters[c];
	const struct plat_w2d *best = NULL;

	for (int i = 0; i < pc->w2d_count; i++) {
		const struct plat_w2d *r = &p->wattson.rows2d[pc->w2d_first + i];
		if (r->opp == k && (!best || r->dep_khz < best->dep_khz))
			best = r;
	}
	return best;
}

/* One CPU's Wattson active power at OPP k (2D: at the default dependency); NAN if none. */
static double active_mw(const struct platform *p, int c, int k)
{
	const struct plat_cluster *pc = &p->clusters[c];
	const struct plat_w2d *r;

	if (!pc->w_2d)
		return pc->opps[k].w_1d ? pc->opps[k].w_active_mw : NAN;
	r = default_row(p, c, k);
	return r ? r->active_mw : NAN;
}

static int add(struct plot *pl, int panel, const char *name, unsigned flags, int color,
	       const double *x, const double *y, size_t n)
{
	int rc = plot_add_series(pl, panel, name, PLOT_LINE, flags, color, x, y, n);
	return rc < 0 ? rc : 0;
}

/* The 2D family of cluster c: one thin line per dependency (cluster, frequency). */
static int add_family(struct plot *pl, const struct platform *p, int c)
{
	const struct plat_cluster *pc = &p->clusters[c];
	double x[GS_MAX_OPPS], y[GS_MAX_OPPS];

	for (int i = 0; i < pc->w2d_count; i++) {
		const struct plat_w2d *r = &p->wattson.rows2d[pc->w2d_first + i];
		bool first = true;
		size_t n = 0;
		/* one line per (dep_cluster, dep_khz), drawn at its first row */
		for (int j = 0; j < i; j++) {
			const struct plat_w2d *q = &p->wattson.rows2d[pc->w2d_first + j];
			if (q->dep_cluster == r->dep_cluster && q->dep_khz == r->dep_khz)
				first = false;
		}
		if (!first)
			continue;
		for (int k = 0; k < pc->nr_opps; k++) {
			x[k] = pc->opps[k].freq_khz / 1000.0;
			y[k] = NAN;
		}
		for (int j = 0; j < pc->w2d_count; j++) {
			const struct plat_w2d *q = &p->wattson.rows2d[pc->w2d_first + j];
			if (q->dep_cluster == r->dep_cluster && q->dep_khz == r->dep_khz) {
				y[q->opp] = q->active_mw;
				n++;
			}
		}
		if (n && add(pl, 0, "2D family", PLOT_F_THIN | PLOT_F_NOLEGEND, c, x, y,
			     (size_t)pc->nr_opps))
			return GS_ENOMEM;
	}
	return 0;
}

struct plot *platform_plot_new(const struct platform *p)
{
	char title[160], name[PLOT_NAME_MAX];
	bool w = p->wattson.present;
	struct plot *pl;

	snprintf(title, sizeof(title), "%s: power and efficiency per OPP", p->name);
	pl = plot_new(title, w ? "left: Wattson, mW per CPU (static per policy), thin: the 2D family; "
				 "right: Wattson solid, em (C x V^2 x f) dashed"
			       : "em power (C x V^2 x f, or as the model gives it)");
	if (!pl)
		return NULL;
	if (plot_add_panel(pl, PLOT_PANEL_XY, "power vs frequency") < 0 ||
	    plot_add_panel(pl, PLOT_PANEL_XY, "efficiency: power per unit of capacity") < 0)
		goto out_free;
	plot_set_axis(pl, 0, PLOT_AXIS_X, "frequency (MHz)", NAN, NAN, 0);
	plot_set_axis(pl, 0, PLOT_AXIS_Y, "power (mW)", NAN, NAN, 0);
	plot_set_axis(pl, 1, PLOT_AXIS_X, "capacity at the OPP (uclamp scale)", 0, 1024, 0);
	plot_set_axis(pl, 1, PLOT_AXIS_Y, "mW per capacity unit (energy per work)", NAN, NAN, 0);

	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		double f[GS_MAX_OPPS], act[GS_MAX_OPPS], idle0[GS_MAX_OPPS], st[GS_MAX_OPPS];
		double cap[GS_MAX_OPPS], eff[GS_MAX_OPPS], em[GS_MAX_OPPS], em_eff[GS_MAX_OPPS];
		size_t n = (size_t)pc->nr_opps;

		for (int k = 0; k < pc->nr_opps; k++) {
			const struct plat_opp *o = &pc->opps[k];
			const struct plat_w2d *r = pc->w_2d ? default_row(p, c, k) : NULL;
			f[k] = o->freq_khz / 1000.0;
			cap[k] = o->capacity;
			em[k] = o->em_power_mw;
			em_eff[k] = em[k] / cap[k];
			act[k] = active_mw(p, c, k);
			eff[k] = act[k] / cap[k];
			idle0[k] = pc->w_2d ? (r ? r->idle0_mw : NAN) : o->w_idle0_mw;
			st[k] = pc->w_2d ? (r ? r->static_mw : NAN) : o->w_static_mw;
		}
		if (w) {
			snprintf(name, sizeof(name), "policy%d active%s", pc->cpus[0],
				 pc->w_2d ? " (default dep)" : "");
			if (add(pl, 0, name, 0, c, f, act, n))
				goto out_free;
			snprintf(name, sizeof(name), "policy%d idle0", pc->cpus[0]);
			if (add(pl, 0, name, PLOT_F_DASHED, c, f, idle0, n))
				goto out_free;
			snprintf(name, sizeof(name), "policy%d static", pc->cpus[0]);
			if (add(pl, 0, name, PLOT_F_THIN, c, f, st, n))
				goto out_free;
			if (pc->w_2d && add_family(pl, p, c))
				goto out_free;
			snprintf(name, sizeof(name), "policy%d wattson", pc->cpus[0]);
			if (add(pl, 1, name, PLOT_F_NOLEGEND, c, cap, eff, n))
				goto out_free;
		} else {
			snprintf(name, sizeof(name), "policy%d em", pc->cpus[0]);
			if (add(pl, 0, name, 0, c, f, em, n))
				goto out_free;
		}
		snprintf(name, sizeof(name), "policy%d em", pc->cpus[0]);
		if (add(pl, 1, name, (w ? PLOT_F_DASHED : 0) | PLOT_F_NOLEGEND, c, cap, em_eff, n))
			goto out_free;
	}
	return pl;
out_free:
	plot_free(pl);
	return NULL;
}
