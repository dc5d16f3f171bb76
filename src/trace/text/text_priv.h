/*
 * text_priv.h - what the text reader's files share: the per-character helpers of the hot path
 * (always inlined) and the functions one file calls in another. Only src/trace/text/ includes
 * it.
 *
 *   text.c          the back end (detection, fill), the fast path (the kernel's column layout,
 *                   the common events' payloads in the kernel's order) and text_parse_line(),
 *                   which ties the files together;
 *   text_plugin.c   trace-cmd's plugin layout of sched_switch / sched_wakeup;
 *   text_columns.c  header lines and the columns before the event name (comm-pid, cpu, flags,
 *                   timestamp) in every layout;
 *   systrace.c      the systrace HTML / Chrome JSON back end, whose ftrace text goes through
 *                   text_parse_line().
 * Payload fields by name, prev_state, event names and markers are the core's (trace/fields.h),
 * shared with the other back ends.
 */
#ifndef GOVSIM_TRACE_TEXT_PRIV_H
#define GOVSIM_TRACE_TEXT_PRIV_H

#include "trace/backend.h"
#include "trace/fields.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The per-character helpers of the hot path: always inlined, so that strlen() and memcmp() of
 * literal keys fold into compares. */
#define TEXT_INLINE static inline __attribute__((always_inline))

/*
 * Word-at-a-time scanning for the columns of a line (the leading spaces, the event name): 8
 * bytes per step. zero_bytes() sets the high bit of each zero byte of x; only bytes above the
 * first zero one can be set falsely (by the borrow), so the lowest set bit, which is the one
 * used, is exact. Little-endian hosts only; others take the byte loops.
 */
#define BYTES_ONES 0x0101010101010101ull
#define BYTES_HIGH 0x8080808080808080ull

TEXT_INLINE u64 load8(const char *p)
{
	u64 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

TEXT_INLINE u64 zero_bytes(u64 x)
{
	return (x - BYTES_ONES) & ~x & BYTES_HIGH;
}

/*
 * SSE2, on every x86-64: 16 bytes a step where a scan looks for one of two bytes (the end of a
 * token, of an event name) and for the checks of the comm-pid column; the word loops take what
 * is left, and other hosts.
 */
#if defined(__SSE2__)
/* Bit k set where p[k] is a or b, k < 16. */
TEXT_INLINE unsigned match2_16(const char *p, char a, char b)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i hit =
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(a)), _mm_cmpeq_epi8(v, _mm_set1_epi8(b)));

	return (unsigned)_mm_movemask_epi8(hit);
}
#endif

#if defined(__SSE2__)
/* Bit k set where p[k] is a, k < 16. */
TEXT_INLINE unsigned match_16(const char *p, char a)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(a)));
}

/* Bit k set where p[k] is not an ASCII digit, k < 16: p[k] - '0' above 9 (unsigned bytes). */
TEXT_INLINE unsigned nondigit_16(const char *p)
{
	__m128i t =
	    _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8('0'));

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t)) ^
	       0xffffu;
}
#endif

/* The first byte of [p, end) that is a or b, or end. */
TEXT_INLINE const char *find2(const char *p, const char *end, char a, char b)
{
#if defined(__SSE2__)
	while (end - p >= 16) {
		unsigned m = match2_16(p, a, b);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		u64 v = load8(p);
		u64 m = zero_bytes(v ^ (BYTES_ONES * (unsigned char)a)) |
			zero_bytes(v ^ (BYTES_ONES * (unsigned char)b));
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p != a && *p != b)
		p++;
	return p;
}

/* Any '[' or '\n' in line[0, 24): one SSE2 compare of 16 and of 8 bytes; elsewhere a zero byte
 * of a word xor "[[[[[[[[" or "\n\n..." (exact for "any"). */
TEXT_INLINE bool any_bracket_or_newline24(const char *line)
{
#if defined(__SSE2__)
	const __m128i br = _mm_set1_epi8('['), nl = _mm_set1_epi8('\n');
	__m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(line + 16));

	/* b's upper 8 bytes are zero, neither byte */
	return match2_16(line, '[', '\n') ||
	       _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(b, br), _mm_cmpeq_epi8(b, nl)));
#else
	return zero_bytes(load8(line) ^ (BYTES_ONES * '[')) |
	       zero_bytes(load8(line + 8) ^ (BYTES_ONES * '[')) |
	       zero_bytes(load8(line + 16) ^ (BYTES_ONES * '[')) |
	       zero_bytes(load8(line) ^ (BYTES_ONES * '\n')) |
	       zero_bytes(load8(line + 8) ^ (BYTES_ONES * '\n')) |
	       zero_bytes(load8(line + 16) ^ (BYTES_ONES * '\n'));
#endif
}

/* The first byte at or after p that is not a space. */
TEXT_INLINE const char *skip_spaces(const char *p, const char *end)
{
#if defined(__SSE2__)
	while (end - p >= 16) {
		unsigned m = match_16(p, ' ') ^ 0xffffu;

		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		u64 x = load8(p) ^ (BYTES_ONES * ' ');
		if (x)
			return p + (__builtin_ctzll(x) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* The first ':' or ' ' at or after p (the end of an event name). */
TEXT_INLINE const char *name_end(const char *p, const char *end)
{
	return find2(p, end, ':', ' ');
}

TEXT_INLINE u32 load4(const char *p)
{
	u32 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* a[0..n) == b[0..n) for n <= 16, in at most two overlapping word compares: with n a constant
 * and b a literal this is a few instructions (GCC calls memcmp() for some lengths). */
TEXT_INLINE bool short_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8)
		return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
	if (n >= 4)
		return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}
/*
 * The high bit of each byte of v that is not an ASCII digit, exactly (no borrow or carry
 * between bytes). A byte is a digit when its high nibble is 3 and its low nibble plus 6 stays
 * below 16: (b & 0xf0) == 0x30 and ((b & 0x0f) + 6) & 0xf0 == 0 (a nibble plus 6 cannot carry
 * out of its byte). In nd a byte is not zero where v's is not a digit; (b & 0x7f) + 0x7f sets
 * its high bit.
 */
TEXT_INLINE u64 nondigit_bytes(u64 v)
{
	u64 nd = ((v & (BYTES_ONES * 0xf0)) ^ (BYTES_ONES * 0x30)) |
		 (((v & (BYTES_ONES * 0x0f)) + BYTES_ONES * 6) & (BYTES_ONES * 0xf0));

	return (((nd & (BYTES_ONES * 0x7f)) + BYTES_ONES * 0x7f) | nd) & BYTES_HIGH;
}

/*
 * The digits of x (bytes 0x30..0x39, the first in its lowest byte), shifted to the top of the
 * word with zero bytes below them: the number they spell (at most 8 digits), added up in three
 * steps of pairs (the usual SWAR conversion): 10 * a + b in each 16-bit lane
 * (x * (1 + 10 << 8) >> 8), 100 * ab + cd in each 32-bit lane (x * (1 + 100 << 16) >> 16),
 * 10000 * abcd + efgh (x * (1 + 10000 << 32) >> 32).
 */
TEXT_INLINE u64 top_digits_value(u64 x)
{
	x &= BYTES_ONES * 0x0f;
	x = (x * (1 + (10ull << 8))) >> 8;
	x = ((x & 0x00ff00ff00ff00ffull) * (1 + (100ull << 16))) >> 16;
	return ((x & 0x0000ffff0000ffffull) * (1 + (10000ull << 32))) >> 32;
}

/*
 * top_digits_value() of two words at once: the same three steps in the two 64-bit lanes of one
 * SSE2 register (10 * a + b per 16-bit lane by a multiply and a shift, 100 * ab + cd by one
 * multiply-add of 16-bit pairs into 32 bits, 10000 * abcd + efgh by one 32 x 32 -> 64 multiply
 * and an add); other hosts convert one word after the other.
 */
TEXT_INLINE void top_digits_value2(u64 a, u64 b, u64 *va, u64 *vb)
{
#if defined(__SSE2__)
	__m128i x = _mm_set_epi64x((long long)b, (long long)a);

	x = _mm_and_si128(x, _mm_set1_epi8(0x0f));
	x = _mm_srli_epi16(_mm_mullo_epi16(x, _mm_set1_epi16(1 + (10 << 8))), 8);
	x = _mm_madd_epi16(x, _mm_set1_epi32(100 | 1 << 16));
	x = _mm_add_epi64(_mm_mul_epu32(x, _mm_set1_epi64x(10000)), _mm_srli_epi64(x, 32));
	*va = (u64)_mm_cvtsi128_si64(x);
	*vb = (u64)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
#else
	*va = top_digits_value(a);
	*vb = top_digits_value(b);
#endif
}

/* The pid digits ending at q, preceded by '-' (the comm's last dash); false if not there.
 * Little-endian hosts read the 8 bytes before q as one word when they are all in the line: the
 * highest byte that is not a digit ends the run of digits; 8 digits take the byte loop. */
TEXT_INLINE bool pid_before(const char *line, const char *q, s32 *pid)
{
	const char *d = q;
	u64 v = 0, mul = 1;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (q - line >= 8) {
		u64 w = load8(q - 8), m = nondigit_bytes(w);
		if (m) {
			int i = (63 - __builtin_clzll(m)) >> 3; /* q[i - 8]: the last non-digit */
			if (i == 7 || q[i - 8] != '-')
				return false;
			*pid = (s32)top_digits_value(w & ~((1ull << (8 * (i + 1))) - 1));
			return true;
		}
	}
#endif
	while (d > line && is_digit(d[-1]) && q - d < 10) {
		d--;
		v += (u64)(*d - '0') * mul;
		mul *= 10;
	}
	if (d == q || d == line || d[-1] != '-')
		return false;
	*pid = (s32)v;
	return true;
}

/* text.c: one text line (without its newline, NUL-terminated at line[len]). Produces at most
 * one event through reader_slot()/reader_commit(). 0, or GS_ETRACE in strict mode. */
int text_parse_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err);

/* text_plugin.c */
/* The plugin layout of sched_switch / sched_wakeup / sched_wakeup_new: NULL when ev is filled,
 * else why not, in `why`. */
const char *plugin_payload(int type, const char *p, const char *end, struct event *ev, char *why,
			   size_t why_size);
bool has_plugin_layout(int type);
/* The payload starts with "ident=": the kernel's key=value print format. */
bool starts_key_value(const char *p, const char *end);

/* A flags column ("d.h2": irqs-off, need-resched, hardirq/softirq, preempt depth; v5.9 and
 * 7.2 trace_print_lat_fmt(), kernel/trace/trace_output.c) of a layout this reader knows. */
TEXT_INLINE bool flags_known(const char *f, const char *end)
{
	return f && end - f >= 3 && (f[0] == 'd' || f[0] == 'X' || f[0] == '.');
}

/* Its EV_IRQ_* bits; 0 for none or an unknown layout. */
TEXT_INLINE u32 flags_irq(const char *f, const char *end)
{
	if (!flags_known(f, end))
		return 0;
	switch (f[2]) {
	case 'Z':
		return EV_IRQ_HARD | EV_IRQ_NMI;
	case 'z':
		return EV_IRQ_NMI;
	case 'H':
		return EV_IRQ_HARD | EV_IRQ_SOFT;
	case 'h':
		return EV_IRQ_HARD;
	case 's':
		return EV_IRQ_SOFT;
	default:
		return 0;
	}
}

/* Whether its need-resched character is 'N' or 'n': TIF_NEED_RESCHED without 7.2's lazy bit.
 * 'B' and 'b' (TIF_NEED_RESCHED and the lazy bit) are not taken: on the lab's 7.2 recordings
 * such a wakeup's switch came with a fresh rq clock (docs/lab.md). 0 for an unknown layout. */
TEXT_INLINE u32 flags_resched(const char *f, const char *end)
{
	return flags_known(f, end) && (f[1] == 'N' || f[1] == 'n');
}

/* Both into the event, where its type keeps them (event_irq_slot(), event_resched_slot()). */
TEXT_INLINE void flags_to_event(struct event *ev, const char *f, const char *end)
{
	u32 *irq = event_irq_slot(ev), *resched = event_resched_slot(ev);

	if (irq)
		*irq = flags_irq(f, end);
	if (resched)
		*resched = flags_resched(f, end);
}

/* text_columns.c */
/* A '#' comment line: "#P:<cpus>", "tracer:", "Linux version". */
void header_comment(struct trace_reader *r, const char *p, const char *end);
/* trace-cmd's preamble lines; true when the line was one. */
bool header_line(struct trace_reader *r, const char *p, const char *end);
/* "<sec>.<frac>:" at p; on success *next points after the ':'. */
bool parse_ts(const char *p, const char *end, u64 *ts_ns, const char **next);
/* The columns before the event name: "comm-pid [cpu] flags ts:" in any of the layouts. NULL
 * and *next after the timestamp's ':', or why not. */
const char *parse_prefix(const char *p, const char *end, s32 *pid, s32 *cpu, u64 *ts,
			 const char **next, const char **flags);

#endif
