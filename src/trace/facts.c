/*
 * facts.c - the `.facts` file beside a trace (facts.h): find it by the trace's name, read its
 * `key = value` lines, keep the keys the replay uses.
 */
#include "trace/facts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A facts file is a few kilobytes; anything larger is not one. */
#define FACTS_MAX_BYTES (1 << 20)

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* A whole number in [lo, hi] or -1 (after the caller's error). */
static int facts_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

/* facts_long() for a key the recorder leaves empty when it measured nothing: then *out stays. */
static int facts_long_or_empty(const char *v, long hi, long *out)
{
	return *v ? facts_long(v, 0, hi, out) : 0;
}

static int facts_copy(char *dst, size_t size, const char *v)
{
	size_t n = strlen(v);

	if (n >= size)
		return -1;
	memcpy(dst, v, n + 1);
	return 0;
}

/* One `key = value`; the keys the replay does not use are accepted and ignored. */
/* "N0:N1:...": each an integer, '-' allowed before its digits (the rq clock ahead). */
static bool offsets_ok(const char *v)
{
	for (;;) {
		size_t n;

		v += *v == '-';
		n = strspn(v, "0123456789");
		if (!n)
			return false;
		v += n;
		if (!*v)
			return true;
		if (*v++ != ':')
			return false;
	}
}

static int facts_set(struct trace_facts *f, const char *key, const char *v)
{
	long n;

	if (strcmp(key, "platform") == 0)
		return facts_copy(f->platform, sizeof(f->platform), v);
	if (strcmp(key, "clamp_policy") == 0)
		return strchr(v, '/') ? -1 : facts_copy(f->policy, sizeof(f->policy), v);
	if (strcmp(key, "kernel_release") == 0)
		return facts_copy(f->kernel_release, sizeof(f->kernel_release), v);
	if (strcmp(key, "freq_invariant") == 0 || strcmp(key, "fast_switch") == 0) {
		if (facts_long(v, 0, 1, &n))
			return -1;
		*(strcmp(key, "fast_switch") == 0 ? &f->fast_switch : &f->freq_invariant) = (int)n;
		return 0;
	}
	/* empty: no frequency written by the sugov kthread (a fast-switch recording) */
	if (strcmp(key, "transition_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->transition_us);
	/* empty: no probe measured it (a recording without --probes) */
	if (strcmp(key, "switch_clock_lead_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->switch_clock_lead_us);
	if (strcmp(key, "sleep_clock_lead_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->sleep_clock_lead_us);
	if (strcmp(key, "pelt_event_lead_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->pelt_event_lead_us);
	if (strcmp(key, "waking_clock_lag_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->waking_clock_lag_us);
	if (strcmp(key, "task_dead_irq_us") == 0)
		return facts_long_or_empty(v, 1000000, &f->task_dead_irq_us);
	/* empty: the guest had no global schedutil tunables (per-policy ones) */
	if (strcmp(key, "rate_limit_us") == 0)
		return facts_long_or_empty(v, 0xffffffffL, &f->rate_limit_us);
	if (strcmp(key, "cpuidle_driver") == 0) {
		/* /sys/devices/system/cpu/cpuidle/current_driver, "none" without one */
		f->cpuidle_driver = *v && strcmp(v, "none") != 0;
		return 0;
	}
	if (strcmp(key, "config_SCHED_AUTOGROUP") == 0) {
		/* the kernel's .config: "y", or empty where it is not set */
		if (*v && strcmp(v, "y") != 0)
			return -1;
		f->sched_autogroup = *v == 'y';
		return 0;
	}
	if (strcmp(key, "config_HZ") == 0) {
		if (facts_long(v, 100, 1000, &n))
			return -1;
		f->hz = (int)n;
		return 0;
	}
	if (strcmp(key, "governor_start_ns") == 0) {
		if (!*v || strchr(v, '-') || !offsets_ok(v))
			return -1;
		return facts_copy(f->governor_start, sizeof(f->governor_start), v);
	}
	if (strcmp(key, "rq_clock_offset_ns") == 0) {
		/* empty: the recording had no probes */
		if (*v && !offsets_ok(v))
			return -1;
		return facts_copy(f->rq_clock_offset, sizeof(f->rq_clock_offset), v);
	}
	if (strcmp(key, "governor_start") == 0) {
		f->sugov_start = strcmp(v, "sugov_start") == 0;
		return 0;
	}
	return 0;
}

/* Nothing known: absent values are 0, "" or -1 where 0 is a value. */
static void facts_init(struct trace_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->freq_invariant = -1;
	f->fast_switch = -1;
	f->rate_limit_us = -1;
	f->transition_us = -1;
	f->switch_clock_lead_us = -1;
	f->task_dead_irq_us = -1;
	f->waking_clock_lag_us = -1;
	f->sleep_clock_lead_us = -1;
	f->pelt_event_lead_us = -1;
	f->sched_autogroup = -1;
	f->cpuidle_driver = -1;
}

int trace_facts_parse(const char *label, const char *text, struct trace_facts *f,
		      struct gs_error *err)
{
	const char *p = text;
	long line = 0;

	facts_init(f);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char buf[1024], *key, *v, *eq;

		line++;
		if (len >= sizeof(buf))
			return gs_error_set(err, GS_ETRACE, "'%s':%ld: line longer than %zu bytes",
					    label, line, sizeof(buf) - 1);
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl ? 1 : 0);
		key = trim(buf);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq)
			return gs_error_set(err, GS_ETRACE, "'%s':%ld: expected 'key = value'",
					    label, line);
		*eq = '\0';
		v = trim(eq + 1);
		key = trim(key);
		if (!*key)
			return gs_error_set(err, GS_ETRACE, "'%s':%ld: a value without a key",
					    label, line);
		if (facts_set(f, key, v))
			return gs_error_set(err, GS_ETRACE, "'%s':%ld: %s = '%s': not a valid value",
					    label, line, key, v);
	}
	f->present = true;
	return 0;
}

/* DIR/NAME.facts for DIR/NAME.txt.gz, NAME.txt, NAME.dat, NAME. */
static int facts_path(const char *trace, char *out, size_t size)
{
	size_t n = strlen(trace);
	const char *slash = strrchr(trace, '/');
	const char *base = slash ? slash + 1 : trace;
	size_t dot = n;

	if (n > 3 && strcmp(trace + n - 3, ".gz") == 0)
		n -= 3;
	for (size_t i = (size_t)(base - trace) + 1; i < n; i++)
		if (trace[i] == '.')
			dot = i;
	if (dot < n)
		n = dot;
	if (n + 7 > size)
		return -1;
	memcpy(out, trace, n);
	memcpy(out + n, ".facts", 7);
	return 0;
}

int trace_facts_find(const char *trace, struct trace_facts *f, struct gs_error *err)
{
	char path[sizeof(f->path)];
	struct stat sb;
	FILE *in;
	char *text;
	size_t n;
	int ret;

	facts_init(f);
	if (!trace || strcmp(trace, "-") == 0 || facts_path(trace, path, sizeof(path)))
		return 0;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	if (sb.st_size > FACTS_MAX_BYTES)
		return gs_error_set(err, GS_ETRACE, "'%s': %lld bytes: not a facts file", path,
				    (long long)sb.st_size);
	in = fopen(path, "r");
	if (!in)
		return gs_error_set(err, GS_EIO, "'%s': %s", path, strerror(errno));
	text = malloc((size_t)sb.st_size + 1);
	if (!text) {
		fclose(in);
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	n = fread(text, 1, (size_t)sb.st_size, in);
	if (ferror(in)) {
		ret = gs_error_set(err, GS_EIO, "'%s': read error", path);
		goto out;
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		ret = gs_error_set(err, GS_ETRACE, "'%s': a NUL byte: not a facts file", path);
		goto out;
	}
	ret = trace_facts_parse(path, text, f, err);
	if (!ret)
		snprintf(f->path, sizeof(f->path), "%s", path);
out:
	free(text);
	fclose(in);
	return ret;
}
