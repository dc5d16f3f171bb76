/* plot.c - figures with panels, axes, legend, lines and bars; see plot.h. This file: the figure,
 * its panels and series, part of the program; govsim-plot.so draws them (plot_cairo.h). */
#include "report/plot_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tableau 10: distinct hues of similar weight, readable on white. */
static const unsigned palette_rgb[PLOT_PALETTE_SIZE] = {
	0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
	0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac,
};

void plot_palette(int i, double rgb[3])
{
	unsigned c = palette_rgb[((i % PLOT_PALETTE_SIZE) + PLOT_PALETTE_SIZE) % PLOT_PALETTE_SIZE];

	rgb[0] = ((c >> 16) & 0xff) / 255.0;
	rgb[1] = ((c >> 8) & 0xff) / 255.0;
	rgb[2] = (c & 0xff) / 255.0;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

struct plot *plot_new(const char *title, const char *subtitle)
{
	struct plot *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	copy_str(p->title, sizeof(p->title), title);
	copy_str(p->subtitle, sizeof(p->subtitle), subtitle);
	p->width = PLOT_WIDTH;
	p->height = PLOT_HEIGHT;
	return p;
}

static void free_strings(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void plot_free(struct plot *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nr_panels; i++) {
		free_strings(p->panels[i].cats, p->panels[i].nr_cats);
		free_strings(p->panels[i].groups, p->panels[i].nr_groups);
		free(p->panels[i].cat_group);
	}
	for (size_t i = 0; i < p->nr_series; i++) {
		free(p->series[i].x);
		free(p->series[i].y);
		free_strings(p->series[i].labels, p->series[i].n);
	}
	free(p->series);
	free(p);
}

void plot_set_size(struct plot *p, int width_px, int height_px)
{
	if (width_px >= 200 && height_px >= 200) {
		p->width = width_px;
		p->height = height_px;
	}
}

int plot_width(const struct plot *p)
{
	return p->width;
}

int plot_height(const struct plot *p)
{
	return p->height;
}

int plot_add_panel(struct plot *p, enum plot_panel_kind kind, const char *title)
{
	struct plot_panel *pa;

	if (p->nr_panels >= PLOT_MAX_PANELS)
		return GS_EARG;
	pa = &p->panels[p->nr_panels];
	memset(pa, 0, sizeof(*pa));
	pa->kind = kind;
	copy_str(pa->title, sizeof(pa->title), title);
	for (int a = 0; a < 3; a++) {
		pa->ax[a].min = NAN;
		pa->ax[a].max = NAN;
	}
	return p->nr_panels++;
}

static struct plot_panel *get_panel(struct plot *p, int panel)
{
	return panel >= 0 && panel < p->nr_panels ? &p->panels[panel] : NULL;
}

void plot_set_axis(struct plot *p, int panel, enum plot_axis axis, const char *label, double min,
		   double max, double tick_step)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (!pa || axis < PLOT_AXIS_X || axis > PLOT_AXIS_Y2)
		return;
	copy_str(pa->ax[axis].label, sizeof(pa->ax[axis].label), label);
	pa->ax[axis].min = min;
	pa->ax[axis].max = max;
	pa->ax[axis].step = tick_step > 0 && isfinite(tick_step) ? tick_step : 0;
}

static char **dup_strings(const char *const *v, size_t n)
{
	char **out = calloc(n ? n : 1, sizeof(*out));

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		out[i] = strdup(v[i]);
		if (!out[i]) {
			free_strings(out, n);
			return NULL;
		}
	}
	return out;
}

int plot_add_xmark(struct plot *p, int panel, double x, const char *label)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (!pa || pa->kind != PLOT_PANEL_XY || !isfinite(x))
		return GS_EARG;
	pa->has_mark = true;
	pa->mark_x = x;
	copy_str(pa->mark_label, sizeof(pa->mark_label), label);
	return 0;
}

const char *plot_axis_label(const struct plot *p, int panel, enum plot_axis axis)
{
	if (panel < 0 || panel >= p->nr_panels || axis < PLOT_AXIS_X || axis > PLOT_AXIS_Y2)
		return "";
	return p->panels[panel].ax[axis].label;
}

void plot_set_axis_log(struct plot *p, int panel, enum plot_axis axis, bool log)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (pa && axis >= PLOT_AXIS_Y && axis <= PLOT_AXIS_Y2)
		pa->ax[axis].log = log;
}

int plot_set_categories(struct plot *p, int panel, const char *const *names, size_t n)
{
	struct plot_panel *pa = get_panel(p, panel);
	char **cats;

	if (!pa || pa->kind == PLOT_PANEL_XY)
		return GS_EARG;
	cats = dup_strings(names, n);
	if (!cats)
		return GS_ENOMEM;
	free_strings(pa->cats, pa->nr_cats);
	pa->cats = cats;
	pa->nr_cats = n;
	/* groups described the old categories */
	free_strings(pa->groups, pa->nr_groups);
	free(pa->cat_group);
	pa->groups = NULL;
	pa->cat_group = NULL;
	pa->nr_groups = 0;
	return 0;
}

int plot_set_category_groups(struct plot *p, int panel, const int *group,
			     const char *const *names, size_t nr_groups)
{
	struct plot_panel *pa = get_panel(p, panel);
	char **g;
	int *cg;

	if (!pa || pa->kind == PLOT_PANEL_XY || !pa->nr_cats)
		return GS_EARG;
	for (size_t c = 0; c < pa->nr_cats; c++)
		if (group[c] < 0 || (size_t)group[c] >= nr_groups ||
		    (c && group[c] != group[c - 1] && group[c] != group[c - 1] + 1))
			return GS_EARG;
	g = dup_strings(names, nr_groups);
	cg = malloc(pa->nr_cats * sizeof(*cg));
	if (!g || !cg) {
		free_strings(g, nr_groups);
		free(cg);
		return GS_ENOMEM;
	}
	memcpy(cg, group, pa->nr_cats * sizeof(*cg));
	free_strings(pa->groups, pa->nr_groups);
	free(pa->cat_group);
	pa->groups = g;
	pa->nr_groups = nr_groups;
	pa->cat_group = cg;
	return 0;
}

void plot_set_stacked(struct plot *p, int panel, bool stacked)
{
	struct plot_panel *pa = get_panel(p, panel);

	if (pa)
		pa->stacked = stacked;
}

int plot_add_series(struct plot *p, int panel, const char *name, enum plot_style style,
		    unsigned flags, int color, const double *x, const double *y, size_t n)
{
	struct plot_panel *pa = get_panel(p, panel);
	struct plot_series *s;

	if (!pa || (n && !y))
		return GS_EARG;
	if ((style == PLOT_BARS) != (pa->kind != PLOT_PANEL_XY))
		return GS_EARG;
	if (style == PLOT_BARS && n != pa->nr_cats)
		return GS_EARG;
	if (style != PLOT_BARS && n && !x)
		return GS_EARG;
	if (p->nr_series == p->cap_series) {
		size_t cap = p->cap_series ? 2 * p->cap_series : 8;
		struct plot_series *v = realloc(p->series, cap * sizeof(*v));
		if (!v)
			return GS_ENOMEM;
		p->series = v;
		p->cap_series = cap;
	}
	s = &p->series[p->nr_series];
	memset(s, 0, sizeof(*s));
	copy_str(s->name, sizeof(s->name), name);
	s->panel = panel;
	s->style = style;
	s->flags = flags;
	s->color = color;
	s->n = n;
	s->x = malloc((n ? n : 1) * sizeof(double));
	s->y = malloc((n ? n : 1) * sizeof(double));
	if (!s->x || !s->y) {
		free(s->x);
		free(s->y);
		return GS_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		s->x[i] = x ? x[i] : (double)i;
		s->y[i] = y[i];
	}
	return (int)p->nr_series++;
}

int plot_set_bar_labels(struct plot *p, int series, const char *const *labels)
{
	struct plot_series *s;
	char **v;

	if (series < 0 || (size_t)series >= p->nr_series || !labels)
		return GS_EARG;
	s = &p->series[series];
	if (s->style != PLOT_BARS)
		return GS_EARG;
	v = dup_strings(labels, s->n);
	if (!v)
		return GS_ENOMEM;
	free_strings(s->labels, s->n);
	s->labels = v;
	return 0;
}

size_t plot_nr_series(const struct plot *p)
{
	return p->nr_series;
}

const struct plot_series *plot_series_at(const struct plot *p, size_t i)
{
	return i < p->nr_series ? &p->series[i] : NULL;
}

/*
 * Nice steps: the raw step (hi - lo) / max_ticks is rounded up to 1, 2, 2.5 or 5 times a power
 * of ten, so tick labels stay short (0, 250, 500 ... or 0, 0.2, 0.4 ...).
 */
int plot_nice_ticks(double lo, double hi, int max_ticks, double *first, double *step)
{
	static const double mult[] = {1, 2, 2.5, 5, 10};
	double raw, mag, s = 0;
	int n;

	if (!isfinite(lo) || !isfinite(hi) || hi <= lo || max_ticks < 1)
		return 0;
	raw = (hi - lo) / max_ticks;
	mag = pow(10, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
		s = mult[i] * mag;
		if (s >= raw * (1 - 1e-9))
			break;
	}
	*step = s;
	*first = ceil(lo / s - 1e-9) * s;
	n = (int)floor((hi - *first) / s + 1e-9) + 1;
	return n < 0 ? 0 : n;
}
