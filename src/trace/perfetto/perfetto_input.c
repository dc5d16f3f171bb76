/*
 * perfetto_input.c - framing and compression of a Perfetto trace (trace.proto): the
 * outer `Trace.packet` fields read one at a time through the reader's input buffer (a packet
 * larger than it gets its own buffer), the packets of an inflated `compressed_packets` zlib
 * stream, and the arena protobuf-c unpacks a packet's messages into (reset for the next one, so
 * memory does not grow with the file).
 */
#include "trace/perfetto/perfetto_priv.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- arena allocator for protobuf-c: one packet's messages, freed all at once ------------ */

void *pf_arena_alloc(void *data, size_t size)
{
	struct pf_arena *a = data;
	struct pf_chunk *c = a->head;

	size = (size + 15) & ~(size_t)15;
	while (c && c->used + size > c->cap)
		c = c->next;
	if (!c) {
		size_t cap = size > PF_ARENA_CHUNK ? size : PF_ARENA_CHUNK;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = a->all;
		a->all = c;
	}
	a->head = c;
	c->used += size;
	return (char *)c->data + c->used - size;
}

void pf_arena_free(void *data, void *ptr)
{
	(void)data;
	(void)ptr; /* everything goes at arena_reset() */
}

/* Frees the chunks beyond the first two (a packet larger than usual), keeps the rest. */
void pf_arena_reset(struct pf_arena *a)
{
	struct pf_chunk *c = a->all, **pp = &a->all;
	int kept = 0;

	while (c) {
		struct pf_chunk *next = c->next;
		if (kept < 2 && c->cap == PF_ARENA_CHUNK) {
			c->used = 0;
			*pp = c;
			pp = &c->next;
			kept++;
		} else {
			free(c);
		}
		c = next;
	}
	*pp = NULL;
	a->head = a->all;
}

void pf_arena_release(struct pf_arena *a)
{
	while (a->all) {
		struct pf_chunk *next = a->all->next;
		free(a->all);
		a->all = next;
	}
	a->head = NULL;
}
/* ---- wire format helpers ------------------------------------------------------------------- */

size_t pf_get_varint(const unsigned char *p, const unsigned char *end, u64 *out)
{
	size_t max = (size_t)(end - p) < 10 ? (size_t)(end - p) : 10;
	u64 v = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (max >= 8) {
		size_t k = pf_varint_word(p, out);
		if (k)
			return k;
	}
#endif

	for (size_t i = 0; i < max; i++) {
		v |= (u64)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return 0;
}

/* Whether [p, end) is a sequence of well-formed protobuf fields. */
static bool wire_ok(const unsigned char *p, const unsigned char *end)
{
	while (p < end) {
		u64 tag, len;
		size_t k = pf_get_varint(p, end, &tag);
		if (!k || (tag >> 3) == 0)
			return false;
		p += k;
		switch (tag & 7) {
		case 0:
			k = pf_get_varint(p, end, &len);
			if (!k)
				return false;
			p += k;
			break;
		case 1:
			if (end - p < 8)
				return false;
			p += 8;
			break;
		case 2:
			k = pf_get_varint(p, end, &len);
			if (!k || len > (u64)(end - p - (ptrdiff_t)k))
				return false;
			p += k + len;
			break;
		case 5:
			if (end - p < 4)
				return false;
			p += 4;
			break;
		default:
			return false;
		}
	}
	return true;
}

bool pf_sniff(const unsigned char *p, size_t n, bool eof)
{
	u64 len, tag;
	size_t k, kt;

	if (n < 2 || p[0] != ((PF_TRACE_PACKET << 3) | 2))
		return false;
	k = pf_get_varint(p + 1, p + n, &len);
	if (!k || len == 0 || len > PF_MAX_PACKET)
		return false;
	if (1 + k + len <= n)
		return wire_ok(p + 1 + k, p + 1 + k + len);
	if (eof)
		return false; /* a first packet longer than the file */
	/* a first packet longer than what was read: its first field's tag must be valid */
	kt = pf_get_varint(p + 1 + k, p + n, &tag);
	return kt && (tag >> 3) != 0 && ((tag & 7) == 0 || (tag & 7) == 1 || (tag & 7) == 2 ||
					(tag & 7) == 5);
}

/* ---- input ----------------------------------------------------------------------------- */

static void consume(struct trace_reader *r, size_t n)
{
	r->buf_pos += n;
	pf_of(r)->off += n;
}

/* At least n bytes (n <= READER_BUF_SIZE) in the buffer, unless the input ends first. */
static int need(struct trace_reader *r, size_t n, struct gs_error *err)
{
	while (r->buf_len - r->buf_pos < n && !r->in_eof) {
		int ret = reader_refill(r, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int truncated(struct trace_reader *r, u64 need_bytes, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	u64 end = pf->off + (r->buf_len - r->buf_pos);

	return gs_error_set(err, GS_ETRACE,
			    "'%s': truncated at byte %llu: the packet at byte %llu needs %llu bytes",
			    r->path, (unsigned long long)end, (unsigned long long)pf->pkt_off,
			    (unsigned long long)need_bytes);
}

/* Consumes n bytes of the input, copied to dst unless it is NULL; a packet of `whole` bytes
 * that ends first is truncated. 0, or a negative code. */
static int take_bytes(struct trace_reader *r, u64 n, unsigned char *dst, u64 whole,
		      struct gs_error *err)
{
	while (n) {
		size_t avail = r->buf_len - r->buf_pos, take;
		if (!avail) {
			int ret = need(r, 1, err);
			if (ret < 0)
				return ret;
			avail = r->buf_len - r->buf_pos;
			if (!avail)
				return truncated(r, whole, err);
		}
		take = avail < n ? avail : (size_t)n;
		if (dst) {
			memcpy(dst, r->buf + r->buf_pos, take);
			dst += take;
		}
		consume(r, take);
		n -= take;
	}
	return 0;
}

/*
 * The next outer TracePacket's bytes: 1 with *data and *len set (valid until the next call), 0 at
 * the end of the input, or GS_ETRACE (truncated or not a Trace) / GS_EIO / GS_ENOMEM.
 */
int pf_next_outer(struct trace_reader *r, const unsigned char **data, size_t *len,
		  struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);

	for (;;) {
		const unsigned char *p, *end;
		u64 tag, n;
		size_t k1, k2 = 0;
		int ret = need(r, 32, err);

		if (ret < 0)
			return ret;
		p = (const unsigned char *)r->buf + r->buf_pos;
		end = (const unsigned char *)r->buf + r->buf_len;
		if (p == end)
			return 0;
		pf->pkt_off = pf->off;
		k1 = pf_get_varint(p, end, &tag);
		if (!k1)
			return truncated(r, 11, err);
		switch (tag & 7) {
		case 0:
			k2 = pf_get_varint(p + k1, end, &n);
			if (!k2)
				return truncated(r, k1 + 10, err);
			consume(r, k1 + k2);
			continue;
		case 1:
		case 5:
			n = (tag & 7) == 1 ? 8 : 4;
			break;
		case 2:
			k2 = pf_get_varint(p + k1, end, &n);
			if (!k2)
				return truncated(r, k1 + 10, err);
			break;
		default:
			return gs_error_set(err, GS_ETRACE,
					    "'%s': byte %llu: not a Perfetto trace (wire type %u)",
					    r->path, (unsigned long long)pf->off, (unsigned)(tag & 7));
		}
		if (n > PF_MAX_PACKET)
			return gs_error_set(err, GS_ETRACE,
					    "'%s': byte %llu: a packet of %llu bytes (more than %u MB)",
					    r->path, (unsigned long long)pf->off,
					    (unsigned long long)n, PF_MAX_PACKET >> 20);
		if ((tag >> 3) != PF_TRACE_PACKET || (tag & 7) != 2) {
			/* not a packet: skip it (Trace has no other field today) */
			ret = take_bytes(r, k1 + k2 + n, NULL, k1 + k2 + n, err);
			if (ret < 0)
				return ret;
			continue;
		}
		if (k1 + k2 + n <= READER_BUF_SIZE) {
			ret = need(r, k1 + k2 + n, err);
			if (ret < 0)
				return ret;
			if (r->buf_len - r->buf_pos < k1 + k2 + n)
				return truncated(r, k1 + k2 + n, err);
			*data = (const unsigned char *)r->buf + r->buf_pos + k1 + k2;
			*len = (size_t)n;
			consume(r, k1 + k2 + n);
			return 1;
		}
		/* larger than the input buffer: gathered in its own */
		if (pf->big_cap < n) {
			unsigned char *b = realloc(pf->big, (size_t)n);
			if (!b)
				return gs_error_set(err, GS_ENOMEM, "out of memory");
			pf->big = b;
			pf->big_cap = (size_t)n;
		}
		consume(r, k1 + k2);
		ret = take_bytes(r, n, pf->big, k1 + k2 + n, err);
		if (ret < 0)
			return ret;
		*data = pf->big;
		*len = (size_t)n;
		return 1;
	}
}

/* The next packet inside the inflated buffer: 1, or 0 at its end; GS_ETRACE if it is cut. */
int pf_next_inner(struct trace_reader *r, const unsigned char **data, size_t *len,
		  struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);

	while (pf->infl_pos < pf->infl_len) {
		const unsigned char *p = pf->infl + pf->infl_pos, *end = pf->infl + pf->infl_len;
		u64 tag, n;
		size_t k1 = pf_get_varint(p, end, &tag), k2 = 0;

		if (k1 && (tag & 7) == 2)
			k2 = pf_get_varint(p + k1, end, &n);
		if (!k1 || (tag & 7) != 2 || !k2 || n > (u64)(end - p) - k1 - k2)
			break;
		pf->infl_pos += k1 + k2 + n;
		if ((tag >> 3) != PF_TRACE_PACKET)
			continue;
		*data = p + k1 + k2;
		*len = (size_t)n;
		return 1;
	}
	if (pf->infl_pos < pf->infl_len) {
		pf->infl_pos = pf->infl_len;
		return reader_malformed(r, r->lineno, err,
					"compressed packets at byte %llu: cut inside a packet",
					(unsigned long long)pf->pkt_off);
	}
	return 0;
}

/* zlib stream (traced compresses with deflateInit at level 6, with a zlib header) into
 * pf->infl. */
int pf_inflate_packets(struct trace_reader *r, const ProtobufCBinaryData *in,
		       struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	z_stream zs;
	int zr;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	zs.next_in = in->data;
	zs.avail_in = (uInt)in->len;
	pf->infl_len = 0;
	do {
		if (pf->infl_len == pf->infl_cap) {
			size_t cap = pf->infl_cap ? pf->infl_cap * 2 : (1u << 20);
			unsigned char *b;
			if (cap > PF_MAX_INFLATED) {
				inflateEnd(&zs);
				return reader_malformed(r, r->lineno, err,
							"compressed packets at byte %llu: more "
							"than %u MB inflated",
							(unsigned long long)pf->pkt_off,
							PF_MAX_INFLATED >> 20);
			}
			b = realloc(pf->infl, cap);
			if (!b) {
				inflateEnd(&zs);
				return gs_error_set(err, GS_ENOMEM, "out of memory");
			}
			pf->infl = b;
			pf->infl_cap = cap;
		}
		zs.next_out = pf->infl + pf->infl_len;
		zs.avail_out = (uInt)(pf->infl_cap - pf->infl_len);
		zr = inflate(&zs, Z_NO_FLUSH);
		{
			size_t before = pf->infl_len;
			int ret;

			pf->infl_len = pf->infl_cap - zs.avail_out;
			ret = reader_inflated(r, pf->infl_len - before, err);
			if (ret < 0) {
				inflateEnd(&zs);
				pf->infl_len = 0;
				return ret;
			}
		}
	} while (zr == Z_OK && (zs.avail_in > 0 || zs.avail_out == 0));
	inflateEnd(&zs);
	if (zr != Z_STREAM_END) {
		pf->infl_len = 0;
		return reader_malformed(r, r->lineno, err,
					"compressed packets at byte %llu: corrupt zlib stream",
					(unsigned long long)pf->pkt_off);
	}
	pf->infl_pos = 0;
	pf->in_infl = true;
	return 0;
}
