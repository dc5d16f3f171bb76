/*
 * plot_labels.c - the category labels under a bars panel, laid out from their measured extents
 * (cairo_text_extents) so that they neither overlap nor leave the figure, and the group labels
 * and separators under them: a run's whole name stays readable, never cut short with "..." nor
 * turned on its side into its neighbours.
 *
 * Nothing is cut. A set of labels that does not fit its slots level wraps at spaces (up to
 * MAX_WRAP lines); when a word is still too wide, every label turns upright (reading upwards,
 * one line per slot: the font shrinks to the slot's width), and an upright label taller than
 * the room it may take shrinks further, down to MIN_FONT px.
 */
#include "report/plot_cairo.h"

#include <math.h>
#include <string.h>

#define MIN_FONT 7.0
#define MAX_WRAP 3
#define GAP      6.0 /* px between neighbouring labels */
#define LINE     1.25 /* line height / font size */

enum { MODE_LEVEL, MODE_WRAPPED, MODE_VERTICAL };

struct cat_layout {
	int mode;
	double fs;       /* font px */
	int lines;       /* most lines of a label (level, wrapped) */
	double height;   /* px the labels take under the frame (group row not included) */
};

/*
 * s in at most max_lines lines of at most max_w px, broken at spaces: line i is
 * s[start[i] .. start[i] + len[i]). Returns the number of lines, 0 when a word is wider than
 * max_w or more lines would be needed.
 */
static int wrap_lines(cairo_t *cr, const char *s, double max_w, int max_lines, size_t start[],
		      size_t len[])
{
	size_t pos = 0, n = strlen(s);
	char buf[512];
	int lines = 0;

	while (pos < n) {
		size_t best = 0, end = pos;

		if (lines == max_lines)
			return 0;
		while (end < n) {
			size_t e = end;
			while (e < n && s[e] == ' ')
				e++;
			while (e < n && s[e] != ' ')
				e++;
			if (e - pos >= sizeof(buf))
				break;
			memcpy(buf, s + pos, e - pos);
			buf[e - pos] = '\0';
			if (plot_text_width(cr, buf) > max_w)
				break;
			best = end = e;
		}
		if (!best)
			return 0; /* a word wider than the line */
		start[lines] = pos;
		len[lines++] = best - pos;
		pos = best;
		while (pos < n && s[pos] == ' ')
			pos++;
	}
	return lines;
}

static double widest(cairo_t *cr, const struct plot_panel *pa)
{
	double w = 0;

	for (size_t c = 0; c < pa->nr_cats; c++)
		if (pa->cats[c])
			w = fmax(w, plot_text_width(cr, pa->cats[c]));
	return w;
}

static struct cat_layout choose(cairo_t *cr, const struct plot_panel *pa, double slot,
				double max_h)
{
	struct cat_layout l = {MODE_LEVEL, FONT_TICK, 1, 0};
	size_t start[MAX_WRAP], len[MAX_WRAP];
	double w;

	plot_font(cr, l.fs, false);
	if (widest(cr, pa) <= slot - GAP) {
		l.height = l.fs * LINE + 8;
		return l;
	}
	l.mode = MODE_WRAPPED;
	for (size_t c = 0; c < pa->nr_cats && l.mode == MODE_WRAPPED; c++) {
		int k = pa->cats[c] ? wrap_lines(cr, pa->cats[c], slot - GAP, MAX_WRAP, start, len)
				    : 1;
		if (!k)
			l.mode = MODE_VERTICAL;
		else if (k > l.lines)
			l.lines = k;
	}
	if (l.mode == MODE_WRAPPED) {
		l.height = l.lines * l.fs * LINE + 8;
		return l;
	}
	/* upright: one line per slot, as wide as the slot allows */
	l.lines = 1;
	l.fs = fmax(MIN_FONT, fmin(FONT_TICK, (slot - 2) / LINE));
	plot_font(cr, l.fs, false);
	w = widest(cr, pa);
	if (w > max_h && max_h > 0) { /* too tall: a smaller font, the text scales with it */
		l.fs = fmax(MIN_FONT, l.fs * max_h / w);
		plot_font(cr, l.fs, false);
		w = widest(cr, pa);
	}
	l.height = w + 10;
	return l;
}

static void record(struct plot_box *boxes, size_t *n, double x0, double y0, double x1, double y1)
{
	if (*n < PLOT_LAYOUT_MAX)
		boxes[(*n)++] = (struct plot_box){x0, y0, x1, y1};
}

static void draw_label(cairo_t *cr, const char *s, const struct cat_layout *l, double cx,
		       double top, double slot, bool draw, struct plot_layout *lay)
{
	size_t start[MAX_WRAP], len[MAX_WRAP];
	double line_h = l->fs * LINE, w = plot_text_width(cr, s), wmax = 0;
	char buf[512];
	int k = 1;

	if (l->mode == MODE_VERTICAL) {
		if (draw) {
			cairo_save(cr);
			cairo_translate(cr, cx + l->fs * 0.35, top);
			cairo_rotate(cr, -M_PI / 2);
			plot_text_at(cr, s, 0, 0, 1);
			cairo_restore(cr);
		}
		if (lay)
			record(lay->cats, &lay->nr_cats, cx - line_h / 2, top, cx + line_h / 2,
			       top + w);
		return;
	}
	if (l->mode == MODE_WRAPPED)
		k = wrap_lines(cr, s, slot - GAP, MAX_WRAP, start, len);
	if (l->mode == MODE_LEVEL || k == 0) {
		k = 1;
		start[0] = 0;
		len[0] = strlen(s) < sizeof(buf) ? strlen(s) : sizeof(buf) - 1;
	}
	for (int i = 0; i < k; i++) {
		memcpy(buf, s + start[i], len[i]);
		buf[len[i]] = '\0';
		wmax = fmax(wmax, plot_text_width(cr, buf));
		if (draw)
			plot_text_at(cr, buf, cx, top + l->fs + i * line_h, 0.5);
	}
	if (lay)
		record(lay->cats, &lay->nr_cats, cx - wmax / 2, top, cx + wmax / 2,
		       top + k * line_h);
}

/* The group labels (wrapped in their span, shrunk if a word is wider) and the separators. */
static double group_row(cairo_t *cr, const struct plot_panel *pa, const struct frame *f,
			double slot, double top, bool draw, struct plot_layout *lay)
{
	double h = 0;
	size_t first = 0;

	if (!pa->nr_groups || !pa->cat_group)
		return 0;
	for (size_t g = 0; g < pa->nr_groups; g++) {
		size_t last = first, start[2], len[2];
		double fs = FONT_TICK, x0, x1, span, wmax = 0;
		const char *s = pa->groups[g] ? pa->groups[g] : "";
		char buf[512];
		int k;

		while (last + 1 < pa->nr_cats && pa->cat_group[last + 1] == (int)g)
			last++;
		x0 = f->x0 + slot * (double)first;
		x1 = f->x0 + slot * (double)(last + 1);
		span = x1 - x0 - GAP;
		plot_font(cr, fs, true);
		while ((k = wrap_lines(cr, s, span, 2, start, len)) == 0 && fs > MIN_FONT && *s)
			plot_font(cr, fs = fmax(MIN_FONT, fs - 1), true);
		if (!*s || !k) { /* empty, or nothing fits even at MIN_FONT: one line as is */
			k = 1;
			start[0] = 0;
			len[0] = strlen(s) < sizeof(buf) ? strlen(s) : sizeof(buf) - 1;
		}
		for (int i = 0; i < k; i++) {
			memcpy(buf, s + start[i], len[i]);
			buf[len[i]] = '\0';
			wmax = fmax(wmax, plot_text_width(cr, buf));
			if (draw) {
				plot_source_rgb(cr, 0x222222);
				plot_text_at(cr, buf, (x0 + x1) / 2, top + fs + i * fs * LINE, 0.5);
			}
		}
		if (lay)
			record(lay->groups, &lay->nr_groups, (x0 + x1) / 2 - wmax / 2, top,
			       (x0 + x1) / 2 + wmax / 2, top + k * fs * LINE);
		h = fmax(h, k * fs * LINE + 6);
		if (draw && first > 0) { /* the separator before this group */
			plot_source_rgb(cr, 0x999999);
			cairo_set_line_width(cr, 1);
			cairo_set_dash(cr, (const double[]){4, 3}, 2, 0);
			cairo_move_to(cr, round(x0) + 0.5, f->y0);
			cairo_line_to(cr, round(x0) + 0.5, top + FONT_TICK * LINE * 2);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		first = last + 1;
	}
	return h;
}

double plot_category_labels(cairo_t *cr, const struct plot_panel *pa, const struct frame *f,
			    double max_h, bool draw, struct plot_layout *lay)
{
	struct cat_layout l;
	double slot, top = f->y1 + 6;

	if (!pa->nr_cats)
		return 0;
	slot = (f->x1 - f->x0) / (double)pa->nr_cats;
	l = choose(cr, pa, slot, max_h);
	if (lay) {
		lay->cat_font_px = l.fs;
		lay->cat_mode = l.mode;
	}
	plot_font(cr, l.fs, false);
	plot_source_rgb(cr, 0x333333);
	for (size_t c = 0; c < pa->nr_cats; c++)
		if (pa->cats[c])
			draw_label(cr, pa->cats[c], &l, f->x0 + slot * ((double)c + 0.5), top, slot,
				   draw, lay);
	return 6 + l.height + group_row(cr, pa, f, slot, top + l.height, draw, lay);
}
