/*
 * dat.c - trace.dat through libtracecmd and libtraceevent.
 *
 * The per-CPU record streams are merged here (one pending record per CPU, smallest timestamp
 * first, lower CPU first on ties), so records arrive in time order and one at a time. Each
 * record's fields are read by name from the event's format (tep_read_number_field, string and
 * __data_loc fields by hand) and rendered as key=value spans, which go through the same
 * conversion as text lines (event_from_fields(), trace/fields.h), so a .dat and its `trace-cmd report`
 * text give the same events. print/bprint records are formatted by libtraceevent
 * (tep_print_event) and searched for the cpu_frequency_devlib marker like text lines.
 */
#include "trace/backend.h"
#include "trace/fields.h"
#include "trace/dat/dat_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#define DAT_SCRATCH 8192

/* The back end's state (r->state). */
struct dat_state {
	struct tracecmd_input *tc;
	struct tep_record **pending; /* one record per CPU */
	int cpus;
	char *scratch; /* fields rendered as text */
	size_t scratch_cap;
};

static struct dat_state *dat_of(const struct trace_reader *r)
{
	return r->state;
}

/* libtracecmd exports it without declaring it in trace-cmd.h (trace-cmd-private.h does):
 * the UNAME option, "<sysname> <nodename> <release> <version...> <machine>" as trace-cmd
 * record wrote it (tracecmd/trace-record.c add_uname), or NULL when the file has none. */
const char *tracecmd_get_uname(struct tracecmd_input *handle);

/* The release (third word) of the recording's uname and the version text after it. */
static void dat_kernel_release(struct trace_reader *r)
{
	const char *u = tracecmd_get_uname(dat_of(r)->tc);
	const char *p;
	size_t len;

	if (!u)
		return;
	p = u;
	for (int word = 0; word < 2 && *p; word++) {
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	len = strcspn(p, " \n");
	reader_set_kernel(r, p, len, p + len, strlen(p + len));
}

static int dat_open(struct trace_reader *r, struct gs_error *err)
{
	struct dat_state *d;
	struct tep_handle *tep;
	int ret;

	r->st.format = TRACE_FMT_DAT;
	ret = dat_check(r->file, r->path, err); /* what would crash the library */
	if (ret)
		return ret;
	if (!(d = calloc(1, sizeof(*d))))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->state = d;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	d->tc = tracecmd_open(r->file, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->tc)
		return gs_error_set(err, GS_ETRACE, "'%s': cannot read trace.dat (corrupt or unsupported)",
				    r->path);
	tep = tracecmd_get_tep(d->tc);
	d->cpus = tep_get_cpus(tep);
	if (d->cpus <= 0)
		return gs_error_set(err, GS_ETRACE, "'%s': trace.dat without CPUs", r->path);
	d->pending = calloc((size_t)d->cpus, sizeof(*d->pending));
	d->scratch = malloc(DAT_SCRATCH);
	if (!d->pending || !d->scratch)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	d->scratch_cap = DAT_SCRATCH;
	for (int cpu = 0; cpu < d->cpus; cpu++)
		d->pending[cpu] = tracecmd_read_cpu_first(d->tc, cpu);
	r->st.header_cpus = d->cpus;
	dat_kernel_release(r);
	return 0;
}

static void dat_close(struct trace_reader *r)
{
	struct dat_state *d = dat_of(r);

	if (!d)
		return;
	if (d->pending) {
		for (int cpu = 0; cpu < d->cpus; cpu++)
			tracecmd_free_record(d->pending[cpu]);
		free(d->pending);
	}
	free(d->scratch);
	if (d->tc)
		tracecmd_close(d->tc);
	free(d);
	r->state = NULL;
}

static bool field_is_string(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_STRING)
		return true;
	return (f->flags & TEP_FIELD_IS_ARRAY) && f->type && strstr(f->type, "char");
}

/* Render every field of the record as key=value spans in the state's scratch. */
static void render_fields(struct trace_reader *r, struct tep_event *event, struct tep_record *rec,
			  struct fieldset *fs)
{
	struct dat_state *d = dat_of(r);
	struct tep_handle *tep = event->tep;
	size_t used = 0;

	fs->n = 0;
	for (struct tep_format_field *f = event->format.fields; f && fs->n < FIELDSET_MAX;
	     f = f->next) {
		char *out = d->scratch + used;
		size_t room = d->scratch_cap - used;
		int n;

		if (room < 96)
			break;
		if (field_is_string(f)) {
			const char *s;
			size_t len;
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				unsigned long long v =
					tep_read_number(tep, (char *)rec->data + f->offset, f->size);
				size_t off = v & 0xffff;
				len = (size_t)(v >> 16);
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += (size_t)f->offset + (size_t)f->size;
				if (off + len > (size_t)rec->size)
					continue;
				s = (const char *)rec->data + off;
			} else {
				if ((size_t)f->offset + (size_t)f->size > (size_t)rec->size)
					continue;
				s = (const char *)rec->data + f->offset;
				len = (size_t)f->size;
			}
			len = strnlen(s, len);
			if (len > room - 1)
				len = room - 1;
			memcpy(out, s, len);
			n = (int)len;
		} else if (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size <= 8 && f->size > 0) {
			unsigned long long v;
			if (tep_read_number_field(f, rec->data, &v) != 0)
				continue;
			if (f->flags & TEP_FIELD_IS_SIGNED) {
				long long sv;
				switch (f->size) {
				case 1: sv = (signed char)v; break;
				case 2: sv = (short)v; break;
				case 4: sv = (int)v; break;
				default: sv = (long long)v; break;
				}
				n = snprintf(out, room, "%lld", sv);
			} else {
				n = snprintf(out, room, "%llu", v);
			}
			if (n < 0 || (size_t)n >= room)
				break;
		} else {
			continue;
		}
		fs->f[fs->n].key = f->name;
		fs->f[fs->n].klen = (u32)strlen(f->name);
		fs->f[fs->n].val = out;
		fs->f[fs->n].vlen = (u32)n;
		fs->n++;
		used += (size_t)n;
	}
}

/*
 * prev_state bits changed meaning across kernels (4.19: Z=16 X=32 x=64 ... preempted=4096;
 * v5.9: X=16 Z=32 P=64 ... preempted=256). The record's own print format knows its kernel's
 * table, so sched_switch's prev_state is taken as the letters that format prints (what
 * `trace-cmd report` shows), and normalised like text. Falls back to the number.
 */
static void switch_state_as_printed(struct tep_handle *tep, struct tep_record *rec,
				    struct trace_seq *s, struct fieldset *fs)
{
	const char *p, *e;

	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	p = s->buffer ? strstr(s->buffer, "prev_state=") : NULL;
	if (!p)
		return;
	p += 11;
	e = p;
	while (*e && *e != ' ')
		e++;
	for (int i = 0; i < fs->n; i++)
		if (fs->f[i].klen == 10 && memcmp(fs->f[i].key, "prev_state", 10) == 0) {
			fs->f[i].val = p;
			fs->f[i].vlen = (u32)(e - p);
		}
}

/*
 * A marker record (print, bprint, tracing_mark_write), rendered as its text and read as the
 * text reader reads a marker line: > 0 when ev is an event, 0 when it is not (counted), < 0 when the text
 * is malformed (then *ret is reader_malformed()'s answer).
 */
static int dat_marker(struct trace_reader *r, struct tep_handle *tep, struct tep_event *event,
		      struct tep_record *rec, struct event *ev, struct gs_error *err, int *ret)
{
	struct trace_seq s;
	const char *why;
	int m;

	trace_seq_init(&s);
	tep_print_event(tep, &s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (strcmp(event->name, "bprint") == 0) { /* trace_printk(), not a marker */
		m = marker_parse_devlib(s.buffer, s.buffer + s.len, ev, &why, r->marker_why,
					sizeof(r->marker_why));
		if (m == 0)
			reader_count_unknown(r, event->name, strlen(event->name));
		else if (m > 0)
			r->st.markers[MARKER_DEVLIB_FREQ]++;
	} else {
		m = reader_marker(r, s.buffer, s.buffer + s.len, ev, &why);
	}
	if (m < 0)
		*ret = reader_malformed(r, r->lineno, err, "%s", why);
	trace_seq_destroy(&s);
	return m;
}

static int dat_fill(struct trace_reader *r, struct gs_error *err)
{
	struct dat_state *d = dat_of(r);
	struct tep_handle *tep = tracecmd_get_tep(d->tc);
	struct tep_record *rec;
	struct tep_event *event;
	struct event *ev;
	u32 *irq;
	struct fieldset fs;
	const char *why;
	char whybuf[160];
	int best = -1, type, ret = 0;

	for (int cpu = 0; cpu < d->cpus; cpu++)
		if (d->pending[cpu] && (best < 0 || d->pending[cpu]->ts < d->pending[best]->ts))
			best = cpu;
	if (best < 0) {
		r->done = true;
		return 0;
	}
	rec = d->pending[best];
	d->pending[best] = tracecmd_read_data(d->tc, best);
	r->lineno++;
	r->st.lines++;

	event = tep_find_event_by_record(tep, rec);
	if (!event) {
		ret = reader_malformed(r, r->lineno, err, "record of an unknown event id");
		goto out_free;
	}
	type = tracepoint_type(event->name, strlen(event->name));
	if (type == -1) {
		reader_count_unknown(r, event->name, strlen(event->name));
		goto out_free;
	}
	ev = reader_slot(r);
	if (type == EVNAME_MARKER) {
		if (dat_marker(r, tep, event, rec, ev, err, &ret) <= 0)
			goto out_free;
	} else {
		struct trace_seq s;
		trace_seq_init(&s);
		render_fields(r, event, rec, &fs);
		if (type == EV_SWITCH)
			switch_state_as_printed(tep, rec, &s, &fs);
		why = event_from_fields(type, &fs, ev, whybuf, sizeof(whybuf));
		trace_seq_destroy(&s);
		if (why) {
			ret = reader_malformed(r, r->lineno, err, "%s", why);
			goto out_free;
		}
	}
	if (rec->ts > READER_MAX_TS_NS) {
		ret = reader_malformed(r, r->lineno, err,
				       "timestamp beyond 2^63 ns (9223372036.854775807 s)");
		goto out_free;
	}
	if ((irq = event_irq_slot(ev)) || event_resched_slot(ev)) {
		int fl = tep_data_flags(tep, rec);
		u32 *resched = event_resched_slot(ev);

		if (irq)
			*irq = fl < 0 ? 0 : event_irq_from_common_flags((u32)fl);
		if (resched)
			*resched = fl >= 0 && event_resched_from_common_flags((u32)fl);
	}
	ev->ts_ns = rec->ts;
	ev->line = r->lineno;
	ev->cpu = rec->cpu;
	ev->pid = tep_data_pid(tep, rec);
	reader_commit(r);

out_free:
	tracecmd_free_record(rec);
	return ret;
}

static bool dat_sniff(const char *p, size_t n, bool eof)
{
	static const char magic[] = "\027\010\104tracing";

	(void)eof;
	return n >= 10 && memcmp(p, magic, 10) == 0;
}

const struct trace_backend trace_backend_dat = {
	.name = "trace.dat",
	.formats = 1u << TRACE_FMT_DAT,
	.unit = "records",
	.whole_file = true,
	.sniff = dat_sniff,
	.open = dat_open,
	.fill = dat_fill,
	.close = dat_close,
};
