/*
 * text.c - kernel ftrace text and trace-cmd report text, one line at a time.
 *
 * Line layout (v5.9 kernel/trace/trace_output.c
 * trace_print_context(), trace-cmd trace-read.c trace_show_data()):
 *
 *     <comm>-<pid> [(<tgid>|-----)] [<cpu>] [<irq flags>|<latency>] <sec>.<frac>: <event>: <payload>
 *
 * The comm may hold spaces and dashes ("rs:main Q:Reg", "<-transport", "<...>"): the pid is the
 * digits after the LAST '-' before the TGID/[cpu] column. The flags column is any one token that
 * is not a timestamp. Timestamps have 6 (us) or 9 (ns) decimals. trace-cmd report -l prints the
 * latency layout instead, "<comm, 8 chars>-<pid> <cpu><flags> <ts>:", CPU without brackets.
 *
 * This file: the back end (detection of ftrace against trace-cmd text, the fill loop), the
 * fast path (the kernel's own column layout and the common events' payloads in the kernel's
 * order, text_parse_hot_line()) and text_parse_line(), which takes every other line through
 * text_columns.c (the columns), the core's fields.c (payloads by name) and markers.c (trace_marker
 * writes), and text_plugin.c (the plugin layout). text_priv.h lists what they share.
 */
#include "trace/text/text_priv.h"

#include <stdio.h>
#include <string.h>

/* ---- fast path: payloads in the order the kernel prints them ------------------------------- */

/*
 * The generic path (fields.c) splits a payload into every key=value pair and then looks each
 * field up by name. Nearly every line of a real trace is a sched_switch, sched_wakeup or cpu_idle
 * printed by the kernel's own format, fields in a fixed order; these are parsed here in that
 * order, with no table and no copy but the comms. The fast path accepts only lines on which the
 * generic path must give the same event: each value is one token (no spaces, no trailing "==>"),
 * each key is the one expected next, nothing follows the last value. Anything else (a comm with
 * spaces, a field added by another kernel, a hex number, a bad value) returns NULL, and the caller
 * parses the line again through the generic path, which also words the errors.
 *
 * A fast parser returns the end of the last value, which the caller compares with the line's
 * end. A '\n' ends every token as the end of the line does: a line split from the input holds
 * none, and text_parse_hot_line() parses a line before its end is known, up to its '\n'.
 *
 * `hot`, a constant at every call: the caller is text_parse_hot_line(), which reads a line in
 * place in the input buffer with HOT_SPAN bytes after its start. Then nothing is checked against
 * end (the buffer's): every step reads at most 16 bytes ahead of where it starts and moves a
 * bounded distance (the sum is under HOT_SPAN, see there), so a scan that may run (the spaces
 * between fields, a token) looks at 16 bytes only, and finding no end there refuses the line.
 * Otherwise end is the line's end and every read is checked against it.
 */

/* "key=" at *pp. key is a literal ending in '=' (at most 16 bytes), so this folds into one
 * or two word compares. */
TEXT_INLINE bool fp_key(const char **pp, const char *end, const char *key, bool hot)
{
	const char *p = *pp;
	size_t klen = strlen(key);

	if ((!hot && (size_t)(end - p) < klen) || !short_eq(p, key, klen))
		return false;
	*pp = p + klen;
	return true;
}

/* One or more spaces between two fields (hot: 1 to 15). */
TEXT_INLINE bool fp_sep(const char **pp, const char *end, bool hot)
{
	const char *p = *pp;

	if ((!hot && p >= end) || *p != ' ')
		return false;
	if (hot) {
		p = skip_spaces(p, p + 16);
		if (p == *pp + 16)
			return false;
		*pp = p;
		return true;
	}
	do
		p++;
	while (p < end && *p == ' ');
	*pp = p;
	return true;
}

/* One or more spaces, then "key=": skey is " key=", a literal. The kernel prints one space, taken
 * in the same word compares as the key; more go through fp_sep(). */
TEXT_INLINE bool fp_next_key(const char **pp, const char *end, const char *skey, bool hot)
{
	if (fp_key(pp, end, skey, hot))
		return true;
	return fp_sep(pp, end, hot) && fp_key(pp, end, skey + 1, hot);
}

/* A token: up to the next space, '\n' or the end; hot: of 0 to 15 bytes, NULL for a longer
 * one. */
TEXT_INLINE const char *fp_token(const char *p, const char *end, bool hot)
{
	if (hot) {
		const char *q = find2(p, p + 16, ' ', '\n');
		return q == p + 16 ? NULL : q;
	}
	return find2(p, end, ' ', '\n');
}

/*
 * Up to 7 decimal digits at p read 8 bytes at a time: the count (1..7) of the digits before the
 * first byte that is not one, and in *word the n digits shifted to the top of the word (zeros
 * below), an 8-digit number "0..0d1..dn" for top_digits_value() (the first digit is the lowest
 * byte: little-endian hosts only); 0 when p has no digit, 8 or more (the caller's byte loop reads
 * those), or fewer than 8 bytes before end. Used for the six decimals of the kernel's timestamps
 * and for the payloads' signed numbers (pids, prios, CPUs), whose lengths vary from line to line.
 */
TEXT_INLINE int swar_digits(const char *p, const char *end, u64 *word, bool hot)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	u64 v, m;
	int n;

	if (!hot && end - p < 8)
		return 0;
	v = load8(p);
#if defined(__SSE2__)
	if (hot || end - p >= 16) {
		/* the digits counted by one SSE2 compare: 8 or more are the byte loop's */
		n = __builtin_ctz(nondigit_16(p) | 0x100u);
		if (n == 0 || n == 8)
			return 0;
	} else
#endif
	{
		m = nondigit_bytes(v);
		if (!m)
			return 0;
		n = __builtin_ctzll(m) >> 3;
		if (n == 0)
			return 0;
	}
	*word = v << (8 * (8 - n));
	return n;
#else
	(void)p;
	(void)end;
	(void)word;
	(void)hot;
	return 0;
#endif
}

/*
 * A number token of 1 to 10 digits at p (a u32's), ended by a space or '\n', from one SSE2
 * compare of 16 bytes: its digit count, and its value in *value (up to 8 digits as one word
 * shifted to its top; 9 or 10 as the first 1 or 2 times 10^8 plus the last 8, both words
 * converted at once by top_digits_value2()). 0 for anything else or fewer than 16 bytes before
 * end; other hosts have only the caller's loop. (The s32 fields keep swar_digits(): their range
 * check would cost more than it saves.)
 */
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
TEXT_INLINE int sse_number(const char *p, const char *end, u64 *value, bool hot)
{
	int n;

	if (!hot && end - p < 16)
		return 0;
	n = __builtin_ctz(nondigit_16(p) | 0x10000u);
	if (n == 0 || n > 10 || (p[n] != ' ' && p[n] != '\n'))
		return 0;
	if (n <= 8) {
		*value = top_digits_value(load8(p) << (8 * (8 - n)));
	} else {
		u64 hi, lo;
		top_digits_value2(load8(p) << (8 * (16 - n)), load8(p + n - 8), &hi, &lo);
		*value = hi * 100000000u + lo;
	}
	return n;
}
#endif

TEXT_INLINE s32 s32_of(u64 v, bool neg)
{
	return neg ? (s32)(0 - (s64)v) : (s32)v;
}

/*
 * A decimal s32 token ("-1", "003") without the conversion of its digits where they are 1 to 7:
 * 1 and those digits at the top of *word (swar_digits()), 2 and the value in *out (the byte loop,
 * more digits), 0 when it is not one. *neg: a '-' before the digits. 0x-hex, '+' and
 * out-of-range values are left to the generic path.
 */
TEXT_INLINE int fp_s32_word(const char **pp, const char *end, u64 *word, bool *neg, s32 *out,
			    bool hot)
{
	const char *p = *pp, *s, *lim;
	u64 v = 0;

	*neg = false;
	if ((hot || p < end) && *p == '-') {
		*neg = true;
		p++;
	}
	s = p;
	p += swar_digits(p, end, word, hot);
	if (p != s) {
		/* 1 to 7 digits, then a byte that is not one, inside the word read */
		if (*p != ' ' && *p != '\n')
			return 0;
		*pp = p;
		return 1;
	}
	lim = hot || end - s > 11 ? s + 11 : end; /* at most 11 digits: v cannot wrap */
	while (p < lim && is_digit(*p))
		v = v * 10 + (u64)(*p++ - '0');
	if (p == s || ((hot || p < end) && *p != ' ' && *p != '\n'))
		return 0;
	if (v > (*neg ? (u64)INT32_MAX + 1 : (u64)INT32_MAX))
		return 0;
	*out = s32_of(v, *neg);
	*pp = p;
	return 2;
}

/* A decimal s32 token: fp_s32_word() and its conversion. */
TEXT_INLINE bool fp_s32(const char **pp, const char *end, s32 *out, bool hot)
{
	u64 w = 0;
	bool neg;
	int k = fp_s32_word(pp, end, &w, &neg, out, hot);

	if (k == 1)
		*out = s32_of(top_digits_value(w), neg);
	return k != 0;
}

/* Two s32 tokens with one key between them (" prev_prio=", skey), the kernel's pid and prio: the
 * digits of both converted at once (top_digits_value2()) when each has 1 to 7. */
TEXT_INLINE bool fp_s32_pair(const char **pp, const char *end, s32 *a, const char *skey, s32 *b,
			     bool hot)
{
	u64 wa = 0, wb = 0, va, vb;
	bool na, nb;
	int ka, kb;

	ka = fp_s32_word(pp, end, &wa, &na, a, hot);
	if (!ka || !fp_next_key(pp, end, skey, hot))
		return false;
	kb = fp_s32_word(pp, end, &wb, &nb, b, hot);
	if (!kb)
		return false;
	if (ka == 1 && kb == 1) {
		top_digits_value2(wa, wb, &va, &vb);
		*a = s32_of(va, na);
		*b = s32_of(vb, nb);
	} else if (ka == 1) {
		*a = s32_of(top_digits_value(wa), na);
	} else if (kb == 1) {
		*b = s32_of(top_digits_value(wb), nb);
	}
	return true;
}

TEXT_INLINE bool fp_u32(const char **pp, const char *end, u32 *out, bool hot)
{
	const char *p = *pp, *s = p, *lim = hot || end - p > 11 ? p + 11 : end;
	u64 v = 0;
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	int n = sse_number(p, end, &v, hot);

	if (n) {
		if (v > UINT32_MAX)
			return false;
		*out = (u32)v;
		*pp = p + n;
		return true;
	}
#endif
	while (p < lim && is_digit(*p))
		v = v * 10 + (u64)(*p++ - '0');
	if (p == s || ((hot || p < end) && *p != ' ' && *p != '\n') || v > UINT32_MAX)
		return false;
	*out = (u32)v;
	*pp = p;
	return true;
}

/* A comm token, truncated to TASK_COMM_LEN - 1 like copy_comm() (hot: the kernel's, at most
 * that long). */
TEXT_INLINE bool fp_comm(const char **pp, const char *end, char *dst, bool hot)
{
	const char *v = *pp, *p = fp_token(v, end, hot);
	size_t n;

	if (!p)
		return false;
	n = (size_t)(p - v);
	if (n >= 3 && p[-1] == '>' && p[-2] == '=' && p[-3] == '=')
		return false; /* the generic path strips it */
	if (!hot && n > TASK_COMM_LEN - 1) /* hot: at most 15 (fp_token()) */
		n = TASK_COMM_LEN - 1;
#if defined(__SSE2__)
	if (hot || end - v >= 16) {
		/* 16 bytes stored at once, byte k kept where k < n (one pcmpgtb of n against
		 * 0..15), the rest cleared: no branch on the comm's length */
		const __m128i index =
		    _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
		__m128i keep = _mm_cmpgt_epi8(_mm_set1_epi8((char)n), index);
		__m128i comm = _mm_loadu_si128((const __m128i *)(const void *)v);

		_mm_storeu_si128((__m128i *)(void *)dst, _mm_and_si128(comm, keep));
		*pp = p;
		return true;
	}
#elif __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (hot || end - v >= 16) {
		/* two words, the bytes past the comm masked off: no call for a variable length */
		u64 w0 = load8(v), w1 = load8(v + 8);
		if (n < 8) {
			w0 &= (1ull << (8 * n)) - 1;
			w1 = 0;
		} else {
			w1 &= (1ull << (8 * (n - 8))) - 1;
		}
		memcpy(dst, &w0, 8);
		memcpy(dst + 8, &w1, 8);
		*pp = p;
		return true;
	}
#endif
	memset(dst, 0, TASK_COMM_LEN);
	memcpy(dst, v, n);
	*pp = p;
	return true;
}

/* v5.9 sched_switch: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s
 * next_pid=%d next_prio=%d" (the " ==>" may be absent, as in older trace-cmd). */
TEXT_INLINE const char *fast_switch(const char *p, const char *end, struct event *ev, bool hot)
{
	const char *v;
	s64 st;

	if (!fp_key(&p, end, "prev_comm=", hot) || !fp_comm(&p, end, ev->sw.prev_comm, hot) ||
	    !fp_next_key(&p, end, " prev_pid=", hot) ||
	    !fp_s32_pair(&p, end, &ev->sw.prev_pid, " prev_prio=", &ev->sw.prev_prio, hot) ||
	    !fp_next_key(&p, end, " prev_state=", hot))
		return NULL;
	v = p;
	if ((hot || end - v >= 2) && (*v == 'S' || *v == 'R') && v[1] == ' ') {
		/* the usual two, without the token scan and the general parser */
		p = v + 1;
		st = *v == 'S' ? TASK_STATE_S : 0;
	} else {
		p = fp_token(p, end, hot);
		if (!p)
			return NULL;
		st = prev_state_parse(v, (size_t)(p - v));
		if (st < 0)
			return NULL;
	}
	ev->sw.prev_state = (u32)st;
	/* " ==> next_comm=" as the kernel prints it, in one compare; else what may stand for it */
	if (!fp_key(&p, end, " ==> next_comm=", hot)) {
		if (!fp_sep(&p, end, hot))
			return NULL;
		if ((hot || end - p > 4) && short_eq(p, "==> ", 4)) {
			p += 3;
			fp_sep(&p, end, hot);
		}
		if (!fp_key(&p, end, "next_comm=", hot))
			return NULL;
	}
	if (fp_comm(&p, end, ev->sw.next_comm, hot) && fp_next_key(&p, end, " next_pid=", hot) &&
	    fp_s32_pair(&p, end, &ev->sw.next_pid, " next_prio=", &ev->sw.next_prio, hot))
		return p;
	return NULL;
}

/* v5.9 sched_wakeup, sched_wakeup_new, sched_waking: "comm=%s pid=%d prio=%d target_cpu=%03d". */
TEXT_INLINE const char *fast_wake(const char *p, const char *end, struct event *ev, bool hot)
{
	if (fp_key(&p, end, "comm=", hot) && fp_comm(&p, end, ev->wake.comm, hot) &&
	    fp_next_key(&p, end, " pid=", hot) &&
	    fp_s32_pair(&p, end, &ev->wake.pid, " prio=", &ev->wake.prio, hot) &&
	    fp_next_key(&p, end, " target_cpu=", hot) &&
	    fp_s32(&p, end, &ev->wake.target_cpu, hot) && ev->wake.target_cpu >= 0)
		return p;
	return NULL;
}

/* v5.9 sched_migrate_task: "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d". */
static const char *fast_migrate(const char *p, const char *end, struct event *ev, bool hot)
{
	if (fp_key(&p, end, "comm=", hot) && fp_comm(&p, end, ev->migrate.comm, hot) &&
	    fp_next_key(&p, end, " pid=", hot) && fp_s32(&p, end, &ev->migrate.pid, hot) &&
	    fp_next_key(&p, end, " prio=", hot) && fp_s32(&p, end, &ev->migrate.prio, hot) &&
	    fp_next_key(&p, end, " orig_cpu=", hot) &&
	    fp_s32(&p, end, &ev->migrate.orig_cpu, hot) &&
	    fp_next_key(&p, end, " dest_cpu=", hot) && fp_s32(&p, end, &ev->migrate.dest_cpu, hot))
		return p;
	return NULL;
}

/* cpu_idle, cpu_frequency: "state=%lu cpu_id=%lu". */
TEXT_INLINE const char *fast_power(const char *p, const char *end, struct event *ev, bool hot)
{
	ev->power.resched = 0; /* cpu_idle's: flags_to_event() */
	if (fp_key(&p, end, "state=", hot) && fp_u32(&p, end, &ev->power.state, hot) &&
	    fp_next_key(&p, end, " cpu_id=", hot) && fp_u32(&p, end, &ev->power.cpu_id, hot) &&
	    ev->power.cpu_id <= INT32_MAX)
		return p;
	return NULL;
}

/* The fast path of event `type`: the end of its last value, or NULL when it has none or the
 * line is not in its order. A switch rather than a table of pointers: the direct calls inline
 * (1-2 % of the reader's time). fast_parse(), fast_switch(), fast_wake() and fast_power() are
 * always inlined (GCC would call them: 20 instructions a line more; called, fast_power() would
 * check its reads in the hot path too); fast_migrate() is left to the compiler. */
TEXT_INLINE const char *fast_parse(int type, const char *p, const char *end, struct event *ev,
				   bool hot)
{
	switch (type) {
	case EV_SWITCH:
		return fast_switch(p, end, ev, hot);
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		return fast_wake(p, end, ev, hot);
	case EV_MIGRATE:
		return fast_migrate(p, end, ev, hot);
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
		return fast_power(p, end, ev, hot);
	default:
		return NULL;
	}
}
/* parse_ts() of the kernel's "%5llu.%06lu:" (microseconds), inlined; false for any other
 * timestamp, which parse_ts() then reads. */
TEXT_INLINE bool fast_ts(const char *p, const char *end, u64 *ts_ns, const char **next, bool hot)
{
	const char *s = p, *lim = hot ? p + 13 : end;
	u64 sec = 0, us = 0;
	int n;

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (hot || end - p >= 17) {
		/* 1 to 8 digits, '.', 6 digits, ':' in one SSE2 compare: the non-digits at n and
		 * n + 7 and none between (m >> n is 0x81 in its low byte); each run of digits then
		 * read as a word shifted to its top (the microseconds' word with its ':' and the
		 * byte after it shifted out) */
		unsigned m = nondigit_16(p);
		n = __builtin_ctz(m | 0x10000u);
		if (n >= 1 && n <= 8 && ((m >> n) & 0xffu) == 0x81u && p[n] == '.' &&
		    p[n + 7] == ':') {
			top_digits_value2(load8(p) << (8 * (8 - n)), load8(p + n + 1) << 16, &sec,
					  &us);
			*ts_ns = sec * NSEC_PER_SEC + us * NSEC_PER_USEC;
			*next = p + n + 8;
			return true;
		}
	}
#endif
	while (p < lim && is_digit(*p))
		sec = sec * 10 + (u64)(*p++ - '0');
	/* beyond 2^63 ns (or near it): parse_ts() reads and range-checks it */
	if (p == s || p - s > 12 || (!hot && end - p < 8) || *p != '.' || p[7] != ':' ||
	    sec >= READER_MAX_TS_NS / NSEC_PER_SEC)
		return false;
	n = swar_digits(p + 1, end, &us, hot);
	if (n != 0 && n != 6)
		return false;
	if (n)
		us = top_digits_value(us);
	for (int i = 1; n == 0 && i <= 6; i++) {
		if (!is_digit(p[i]))
			return false;
		us = us * 10 + (u64)(p[i] - '0');
	}
	*ts_ns = sec * NSEC_PER_SEC + us * NSEC_PER_USEC;
	*next = p + 8;
	return true;
}

/* The end of the comm-pid column: just after the last byte of line[0, 24) that is not a space,
 * p being the first (so there is one). Little-endian hosts look a word at a time from the
 * right: in x a byte is not zero exactly where the line's is not a space, and the highest such
 * byte is the last one; others take the byte loop. */
TEXT_INLINE const char *last_non_space24(const char *line, const char *p)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)p;
	for (int w = 16; w >= 0; w -= 8) {
		u64 x = load8(line + w) ^ (BYTES_ONES * ' ');
		if (x)
			return line + w + ((63 - __builtin_clzll(x)) >> 3) + 1;
	}
	return line; /* not reached: p < line + 24 is not a space */
#else
	const char *q = line + 24;
	while (q > p && q[-1] == ' ')
		q--;
	return q;
#endif
}

/* The three digits of the kernel's "[%03d]" CPU column, line[26, 29). */
TEXT_INLINE s32 cpu_column(const char *line)
{
	return (line[26] - '0') * 100 + (line[27] - '0') * 10 + (line[28] - '0');
}

/*
 * The kernel's own layout, v5.9 trace_print_context() with the irq-info flags and no tgid,
 * "%16s-%-7d [%03d] %4s %5llu.%06lu: ": the '[' of the CPU column is at offset 25 of every line
 * whose comm and pid fit their widths. Such a line is read at those offsets, to what
 * parse_prefix() finds on it: its first "[cpu]" is this one (no '[' before it), the comm-pid
 * before it is read by the same pid_before(), the flags column does not start with a digit (so
 * it is not a timestamp) and the timestamp follows it. false sends the line to parse_prefix().
 * `line` is the start of the line, p its first character that is not blank. No '\n' in the
 * columns read at offsets: end may be past the line's end (text_parse_hot_line()). hot: the
 * spaces before the timestamp and the timestamp itself looked for in 16 and 48 bytes.
 */
TEXT_INLINE bool fixed_prefix(const char *line, const char *p, const char *end, s32 *pid, s32 *cpu,
			      u64 *ts, const char **next, bool hot)
{
	const char *q = line + 24;

	if ((!hot && end - line < 40) || p >= q)
		return false;
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* line[16, 32) in one SSE2 compare for digits and one for spaces (bit k for line[16 + k]):
	 * " [" at 24 and "] " at 29 (one word), digits at 26-28 and a flags byte at 31 that is not
	 * one; the flags line[31, 35) none a space or a '\n' (one more compare), line[35] a
	 * space */
	unsigned nd = nondigit_16(line + 16), sp = match_16(line + 16, ' '), k;
	const u64 cols = ' ' | '[' << 8 | (u64)']' << 40 | (u64)' ' << 48;

	if ((load8(line + 24) & 0x00ffff000000ffffull) != cols || (nd & 0x9c00u) != 0x8000u ||
	    line[35] != ' ' || (match2_16(line + 24, ' ', '\n') & 0x780u))
		return false;
	if (any_bracket_or_newline24(line))
		return false;
	/* the kernel's "%16s-%-7d" as printed: '-' at 16, k = 1 to 7 digits, spaces to 24. Then
	 * the digits end at the last byte before 24 that is not a space and a '-' is before them:
	 * the pid that last_non_space24() and pid_before() find, read here at once */
	k = (unsigned)__builtin_ctz((nd >> 1) | 0x80u);
	if (line[16] == '-' && k && ((sp | ((2u << k) - 1)) & 0xffu) == 0xffu) {
		/* and the CPU's three digits, line[26, 29), at the top of the word at 21 */
		u64 v_pid, v_cpu;
		top_digits_value2(load8(line + 17) << (8 * (8 - k)),
				  load8(line + 21) & 0xffffff0000000000ull, &v_pid, &v_cpu);
		*pid = (s32)v_pid;
		*cpu = (s32)v_cpu;
	} else {
		q = last_non_space24(line, p);
		if (q[-1] == ')' || !pid_before(p, q, pid))
			return false;
		*cpu = cpu_column(line);
	}
#else
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		/* line[24, 32) as one word (line[24 + k] in byte k): " [" at 24, "] " at 29,
		 * digits at 26-28 and a flags byte at 31 that is not one; then line[35] and the
		 * flags line[31, 35), none of them a space or a '\n' */
		u64 w = load8(line + 24), nd = nondigit_bytes(w);
		u64 f = load4(line + 31);
		const u64 digits = 0x80ull << 16 | 0x80ull << 24 | 0x80ull << 32;
		const u64 flag0 = 0x80ull << 56;
		const u64 cols = ' ' | '[' << 8 | (u64)']' << 40 | (u64)' ' << 48;

		if ((w & 0x00ffff000000ffffull) != cols || (nd & (digits | flag0)) != flag0 ||
		    line[35] != ' ' ||
		    ((zero_bytes(f ^ (BYTES_ONES * ' ')) | zero_bytes(f ^ (BYTES_ONES * '\n'))) &
		     0x80808080u))
			return false;
	}
#else
	if (line[24] != ' ' || line[25] != '[' || line[29] != ']' || line[30] != ' ' ||
	    line[35] != ' ' || !is_digit(line[26]) || !is_digit(line[27]) || !is_digit(line[28]) ||
	    line[31] == ' ' || is_digit(line[31]) || line[32] == ' ' || line[33] == ' ' ||
	    line[34] == ' ' || line[31] == '\n' || line[32] == '\n' || line[33] == '\n' ||
	    line[34] == '\n')
		return false;
#endif
	if (any_bracket_or_newline24(line))
		return false;
	q = last_non_space24(line, p);
	if (q[-1] == ')' || !pid_before(p, q, pid))
		return false;
	*cpu = cpu_column(line);
#endif
	q = skip_spaces(line + 36, hot ? line + 52 : end);
	return fast_ts(q, end, ts, next, hot) || parse_ts(q, hot ? q + 48 : end, ts, next);
}

/* skip_spaces() where the kernel prints one space (after the timestamp's and the event name's
 * ':'): that one without the scan (hot: the scan of 16 bytes only; what follows is a name or a
 * key, which a space at p + 16 is not). */
TEXT_INLINE const char *skip_one_space(const char *p, const char *end, bool hot)
{
	if ((hot || end - p >= 2) && p[0] == ' ' && p[1] != ' ')
		return p + 1;
	return skip_spaces(p, hot ? p + 16 : end);
}

/* `name` (a literal ending in ':') at p: compares of whole words once inlined. */
TEXT_INLINE bool name_is(const char *p, const char *end, const char *name, const char **colon,
			 bool hot)
{
	size_t n = strlen(name);

	if ((!hot && (size_t)(end - p) < n) || !short_eq(p, name, n))
		return false;
	*colon = p + n - 1;
	return true;
}

/*
 * The names of nearly every line, recognised before the general scan and table lookup: the
 * event type and *colon at the ':' after the name, or -1.
 */
TEXT_INLINE int hot_event_name(const char *p, const char *end, const char **colon, bool hot)
{
	if (name_is(p, end, "sched_switch:", colon, hot))
		return EV_SWITCH;
	if (name_is(p, end, "sched_wakeup:", colon, hot))
		return EV_WAKEUP;
	if (name_is(p, end, "sched_waking:", colon, hot))
		return EV_WAKING;
	if (name_is(p, end, "cpu_idle:", colon, hot))
		return EV_CPU_IDLE;
	if (name_is(p, end, "cpu_frequency:", colon, hot))
		return EV_CPU_FREQUENCY;
	return -1;
}

/* Any line header_line() might take: "version =", "cpus=", "CPU". */
TEXT_INLINE bool maybe_header(const char *p, const char *end, bool hot)
{
	if (hot) {
		/* the three compares of words at once, with no branch on the first character (a
		 * comm's, which is 'c' as often as not) */
		u64 w = load8(p);
		return ((w == load8("version ")) & (p[8] == '=')) |
		       ((w & 0xffffffffffull) == (load8("cpus=...") & 0xffffffffffull)) |
		       ((w & 0xffffffull) == (load8("CPU.....") & 0xffffffull));
	}
	if (*p != 'v' && *p != 'c' && *p != 'C')
		return false;
	return (!hot && end - p < 9) || short_eq(p, "version =", 9) || short_eq(p, "cpus=", 5) ||
	       short_eq(p, "CPU", 3);
}

/*
 * What text_parse_hot_line() may read from a line's start: every step reads at most 16 bytes
 * ahead of where it starts, and moves at most so far. The columns are read to offset 40, the
 * spaces before the timestamp to 52, the timestamp ends by 100 (parse_ts() within 48 bytes);
 * then up to 15 spaces, the longest event name (14) and up to 15 spaces: the payload starts by
 * 146. sched_switch's is the longest: 7 keys (79 bytes, the space before each included), 5 of
 * them after up to 15 spaces (70 more), " ==> " spaced out (28 more), 2 comms and a prev_state
 * of at most 15 bytes, 4 numbers of at most 12 (a sign, 11 digits): 270. The last read ends by
 * 146 + 270 + 16 = 432.
 */
#define HOT_SPAN 512

/*
 * The line at the start of [line, end) when it is one of the common events in the kernel's
 * layout, ends with a '\n' before end and is no older than every event before it: parsed,
 * counted and committed as text_parse_line() would, without looking for its end first. The
 * bytes used, newline included; 0 when the line must be split and go through text_parse_line()
 * (nothing counted then). Needs a free ring slot beyond reader_slot()'s. hot: HOT_SPAN bytes
 * follow line (else the parsers check every read against end, the buffer's).
 *
 * One pass over the commonest line: the kernel's column layout (fixed_prefix()), a hot event
 * name, its fast parser, and a '\n' right after the last value. Its end is found by parsing it:
 * no memchr() for the newline first. What text_parse_line() does with such a line is done here
 * (the same steps, the same event); anything else (trailing blanks, a "\r\n" end, a header or
 * comment line, another layout or event) returns 0 with nothing changed but the unused ring
 * slot, and the caller splits the line and calls text_parse_line(). So does an event older than
 * the newest one read (or the first): only events that go straight onto the ring are taken here.
 */
TEXT_INLINE size_t text_parse_hot_line(struct trace_reader *r, const char *line, const char *end,
				       bool hot)
{
	const char *p, *q, *body;
	struct event *ev;
	u32 slot;
	s32 pid, cpu;
	u64 ts;
	int type;

	/* hot: more than 23 spaces fail fixed_prefix() */
	p = skip_spaces(line, hot ? line + 32 : end);
	if ((!hot && p == end) || *p == '\t' || *p == '#' || maybe_header(p, end, hot) ||
	    !fixed_prefix(line, p, end, &pid, &cpu, &ts, &p, hot) || ts > READER_MAX_TS_NS)
		return 0;
	p = skip_one_space(p, end, hot);
	type = hot_event_name(p, end, &q, hot);
	if (type < 0)
		return 0;
	body = skip_one_space(q + 1, end, hot);
	slot = r->ring_head + r->ring_count; /* reader_slot()'s, its index kept for ring_seq */
	if (slot >= r->ring_cap)
		slot -= r->ring_cap;
	ev = &r->ring[slot];
	q = fast_parse(type, body, end, ev, hot);
	if (!q || (!hot && q == end) || *q != '\n' || !r->have_max || ts < r->max_ts_ns)
		return 0;
	r->lineno++;
	r->st.lines++;
	ev->type = (enum event_type)type;
	flags_to_event(ev, line + 31, end); /* fixed_prefix(): flags at 31 */
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = cpu;
	ev->pid = pid;
	/* reader_commit() of an event no older than every one before it (checked above): onto
	 * the ring, in the slot reader_slot() gave */
	r->max_ts_ns = ts;
	r->ring_seq[slot] = r->seq++;
	r->ring_count++;
	return (size_t)(q + 1 - line);
}

/*
 * The payload of an event line into ev: 1 when ev is an event to commit, else what
 * text_parse_line() returns (0: nothing to commit, or reader_malformed()'s answer). name[0, nlen)
 * is the event's name, type its tracepoint_type() (or EVNAME_MARKER).
 */
static int text_payload(struct trace_reader *r, int type, const char *name, size_t nlen,
			const char *body, const char *end, struct event *ev, struct gs_error *err)
{
	const char *why;
	char whybuf[160];
	struct fieldset fs;

	if (type == EVNAME_MARKER) {
		/* bprint is the kernel's trace_printk(), not a trace_marker write */
		bool bprint = nlen == 6 && memcmp(name, "bprint", 6) == 0;
		int m = bprint ? marker_parse_devlib(body, end, ev, &why, r->marker_why,
						   sizeof(r->marker_why))
			       : reader_marker(r, body, end, ev, &why);
		if (m == 0) {
			if (bprint)
				reader_count_unknown(r, name, 6);
			return 0;
		}
		if (m > 0 && bprint)
			r->st.markers[MARKER_DEVLIB_FREQ]++;
		if (m < 0)
			return reader_malformed(r, r->lineno, err, "%s", why);
	} else if (type == EV_IOWAIT_BOOST) {
		/* free text, not key=value fields */
		why = iowait_boost_from_text(body, end, ev);
		if (why)
			return reader_malformed(r, r->lineno, err, "%s", why);
	} else if (fast_parse(type, body, end, ev, false) == end) {
		ev->type = (enum event_type)type;
	} else if (has_plugin_layout(type) && !starts_key_value(body, end)) {
		/* trace-cmd report without -N; key=value fields in an odd order are still taken */
		why = plugin_payload(type, body, end, ev, whybuf, sizeof(whybuf));
		if (why) {
			char kvbuf[160];
			fieldset_split(&fs, body, end);
			if (event_from_fields(type, &fs, ev, kvbuf, sizeof(kvbuf)))
				return reader_malformed(r, r->lineno, err, "%s", why);
		}
	} else {
		fieldset_split(&fs, body, end);
		why = event_from_fields(type, &fs, ev, whybuf, sizeof(whybuf));
		if (why && has_plugin_layout(type)) {
			/* a plugin-layout comm that looks like a key ("a=b:12 [120] ...") */
			char plbuf[160];
			if (!plugin_payload(type, body, end, ev, plbuf, sizeof(plbuf)))
				why = NULL;
		}
		if (why)
			return reader_malformed(r, r->lineno, err, "%s", why);
	}
	return 1;
}

int text_parse_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err)
{
	const char *p = line, *end = line + len, *name, *body;
	struct event *ev;
	const char *why;
	const char *flags = NULL;
	s32 pid, cpu;
	u64 ts;
	int type, ret;

	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (;;) {
		p = skip_spaces(p, end);
		if (p == end || *p != '\t')
			break;
		p++;
	}
	if (p == end)
		return 0;
	if (*p == '#') {
		header_comment(r, p, end);
		return 0;
	}
	if ((*p == 'v' || *p == 'c' || *p == 'C') && header_line(r, p, end))
		return 0;

	if (fixed_prefix(line, p, end, &pid, &cpu, &ts, &p, false)) {
		flags = line + 31;
	} else {
		why = parse_prefix(p, end, &pid, &cpu, &ts, &p, &flags);
		if (why)
			return reader_malformed(r, r->lineno, err, "%s", why);
	}
	if (ts > READER_MAX_TS_NS)
		return reader_malformed(r, r->lineno, err,
					"timestamp beyond 2^63 ns (9223372036.854775807 s)");
	p = skip_spaces(p, end);
	name = p;
	type = hot_event_name(name, end, &p, false);
	if (type < 0) {
		p = name_end(p, end);
		if (p == name || p >= end || *p != ':')
			return reader_malformed(r, r->lineno, err,
						"no event name after the timestamp");
		type = tracepoint_type(name, (size_t)(p - name));
		if (type == -1 && is_unresolved_ip(name, (size_t)(p - name)))
			type = EVNAME_MARKER;
	}
	body = p + 1;
	while (body < end && *body == ' ')
		body++;

	if (type == -1) {
		reader_count_unknown(r, name, (size_t)(p - name));
		return 0;
	}
	ev = reader_slot(r);
	ret = text_payload(r, type, name, (size_t)(p - name), body, end, ev, err);
	if (ret <= 0)
		return ret;
	flags_to_event(ev, flags, end);
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = cpu;
	ev->pid = pid;
	reader_commit(r);
	return 0;
}

/* ---- the back end -------------------------------------------------------------------------- */

static bool has_word(const char *s, const char *e, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = s; p + wl <= e; p++)
		if (memcmp(p, word, wl) == 0)
			return true;
	return false;
}

/* A header names the tool; otherwise the irq-info flags column marks ftrace. TRACE_FMT_AUTO
 * when every line is blank. */
static enum trace_format detect_text(const char *p, size_t n)
{
	const char *s, *e;

	if (!reader_first_line(p, n, &s, &e))
		return TRACE_FMT_AUTO;
	if (strncmp(s, "version =", 9) == 0 || strncmp(s, "cpus=", 5) == 0 ||
	    strncmp(s, "CPU ", 4) == 0)
		return TRACE_FMT_TRACECMD;
	if (*s == '#' && has_word(s, e, "tracer:"))
		return TRACE_FMT_FTRACE;
	/* no header: look at the first event line for a flags column after "[cpu]" */
	while (s < p + n) {
		const char *b;
		if (*s != '#') {
			b = memchr(s, ']', (size_t)(e - s));
			if (b) {
				b++;
				while (b < e && *b == ' ')
					b++;
				if (e - b > 5 && b[4] == ' ' && !(b[0] >= '0' && b[0] <= '9'))
					return TRACE_FMT_FTRACE;
				return TRACE_FMT_TRACECMD;
			}
		}
		if (e >= p + n || !reader_first_line(e + 1, (size_t)(p + n - e - 1), &s, &e))
			break;
	}
	return TRACE_FMT_TRACECMD;
}

/* The text back end takes whatever the others did not. */
static bool text_sniff(const char *p, size_t n, bool eof)
{
	(void)p;
	(void)n;
	(void)eof;
	return true;
}

static int text_open(struct trace_reader *r, struct gs_error *err)
{
	r->st.format = r->opts.format;
	if (r->st.format == TRACE_FMT_AUTO)
		r->st.format = detect_text(r->buf, r->buf_len);
	if (r->st.format == TRACE_FMT_AUTO)
		return gs_error_set(err, GS_ETRACE, "'%s': empty trace (only blank lines)",
				    r->path);
	return 0;
}

/*
 * A batch of text lines, or one through text_parse_line(); sets r->done at the end of the input.
 *
 * The batch: the commonest lines, in time order (text_parse_hot_line()), as many as the ring
 * holds, before any event is handed out. Handing out after every line, as the single-line path
 * does, turns each call of trace_reader_next() into an unpredictable choice between reading and
 * handing out (a tenth of the reader's time). The stream is the same: an event in time order goes
 * onto the ring's tail whatever has been handed out, and comes after every event held (it is no
 * older, and later in the file), so the order in which trace_reader_next() hands events out does
 * not change, only when it reads ahead. The batch stops before an event out of order, whose
 * placement depends on what has been handed out: trace_reader_next() first hands out all that is
 * ready, as it would have, then reads that line here alone. It stops too while held + slack is
 * still within max_held, so that no event is forced out earlier than before.
 */
static int text_fill(struct trace_reader *r, struct gs_error *err)
{
	const char *start = r->buf + r->buf_pos, *p = start, *end = r->buf + r->buf_len;
	u32 room = 0;
	char *line;
	size_t len;
	int ret;

	/* the lines the loop below may take: each one that it takes adds one event to the ring
	 * and none to the heap */
	if (r->ring_count + r->slack < r->ring_cap &&
	    r->ring_count + r->heap_n + r->slack < r->max_held) {
		room = r->ring_cap - r->ring_count - r->slack;
		if (room > r->max_held - r->ring_count - r->heap_n - r->slack)
			room = r->max_held - r->ring_count - r->heap_n - r->slack;
	}
	/* a line within HOT_SPAN of the buffer's end is read with every read checked */
	for (; room; room--) {
		size_t used = end - p >= HOT_SPAN ? text_parse_hot_line(r, p, end, true)
						  : text_parse_hot_line(r, p, end, false);
		if (!used)
			break;
		p += used;
	}
	if (p != start) {
		r->buf_pos += (size_t)(p - start);
		return 0;
	}
	ret = reader_next_line(r, &line, &len, err);
	if (ret == READER_LINE_TOO_LONG)
		return reader_malformed(r, r->lineno, err, "line longer than %u bytes",
					READER_BUF_SIZE);
	if (ret <= 0)
		return ret;
	return text_parse_line(r, line, len, err);
}

static void text_close(struct trace_reader *r)
{
	(void)r;
}

const struct trace_backend trace_backend_text = {
	.name = "text",
	.formats = 1u << TRACE_FMT_FTRACE | 1u << TRACE_FMT_TRACECMD,
	.unit = "lines",
	.sniff = text_sniff,
	.open = text_open,
	.fill = text_fill,
	.close = text_close,
};
