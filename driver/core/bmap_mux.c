// SPDX-License-Identifier: GPL-2.0
/*
 * Time-multiplexed free-run searches (F43): every field of a wide
 * word at once (vgpu_bmap_run_mux()), and the periods of a search of
 * several resource maps (vgpu_bmap_run_periods()).
 *
 * See bmap.h for the x_k notation.  Nothing here allocates: the scratch
 * maps are the caller's (&struct vgpu_bmap_mux_scratch), so a search of
 * maps as wide as VGPU_BMAP_MAX_BITS needs no kilobyte of stack.  The
 * device's VGPU_SEARCH_MUX searches an SM's maps with
 * vgpu_bmap_run_periods(); the bit-loop reference of vgpu_bmap_run_mux()
 * is with the other references (userspace/core/bmap_ref.c).
 */
#include "vgpu_os.h"
#include "bmap.h"
#include "bmap_internal.h"

/* dst[start, start + len) = src[start, start + len), other bits kept. */
static void vgpu_bmap_copy_range(u64 *dst, const u64 *src, u32 start, u32 len)
{
	while (len) {
		u32 b = start % 64, n = min(len, 64 - b), i = start / 64;
		u64 m = vgpu_bmap_word_mask(b, n);

		dst[i] = (dst[i] & ~m) | (src[i] & m);
		start += n;
		len -= n;
	}
}

/**
 * vgpu_bmap_mux_init() - describe a time-multiplexed word (F43)
 * @m: description to fill
 * @nbits: width of the whole word, up to VGPU_BMAP_MUX_MAX_BITS
 * @widths: width of each field, least significant field first
 * @nfields: number of fields, 1 .. VGPU_BMAP_MUX_MAX_FIELDS
 *
 * Return: 0, or -EINVAL if a width is 0 or they do not fit in @nbits.
 */
int vgpu_bmap_mux_init(struct vgpu_bmap_mux *m, u32 nbits, const u32 *widths,
		       u32 nfields)
{
	u32 f, lo = 0;

	if (!nbits || nbits > VGPU_BMAP_MUX_MAX_BITS || !nfields ||
	    nfields > VGPU_BMAP_MUX_MAX_FIELDS)
		return -EINVAL;
	for (f = 0; f < nfields; f++) {
		if (!widths[f] || widths[f] > nbits - lo)
			return -EINVAL;
		m->lo[f] = lo;
		m->width[f] = widths[f];
		lo += widths[f];
	}
	m->nbits = nbits;
	m->nfields = nfields;
	return 0;
}

/* Clear bit positions p of every field with p + d past the field's end. */
static void vgpu_bmap_mux_clip(u64 *t, const struct vgpu_bmap_mux *m, u32 d)
{
	u32 f, n;

	for (f = 0; f < m->nfields; f++) {
		n = min(d, m->width[f]);
		vgpu_bmap_clear_range(t, m->lo[f] + m->width[f] - n, n);
	}
}

/**
 * vgpu_bmap_run_mux() - largest free run of every field of a wide word (F43)
 * @map: the wide word, VGPU_BMAP_NWORDS(@m->nbits) words
 * @m: its fields
 * @runs: out: the largest free run of each field
 * @s: scratch maps (@s->word is not used, @map may be it)
 *
 * One pass for all fields: the shift-and-AND steps are shared and after
 * each one the top d positions of every field are masked off, so a run never
 * continues across a field border.  Doubling records per field the last
 * power of two that still has a run; the descent x_(L+d) = x_L & (x_L >> d)
 * commits per field (per-field masks) where d <= that field's L.
 */
void vgpu_bmap_run_mux(const u64 *map, const struct vgpu_bmap_mux *m,
		       u32 *runs, struct vgpu_bmap_mux_scratch *s)
{
	u64 *cur = s->cur, *nxt = s->nxt, *best = s->best;
	u32 nw = VGPU_BMAP_NWORDS(m->nbits), f, j = 0, d, maxw = 0;
	u32 jf[VGPU_BMAP_MUX_MAX_FIELDS];
	bool more;

	memset(cur, 0, nw * sizeof(*cur));
	for (f = 0; f < m->nfields; f++) {
		vgpu_bmap_copy_range(cur, map, m->lo[f], m->width[f]);
		runs[f] = 0;
		jf[f] = 0;
		maxw = max(maxw, m->width[f]);
	}
	for (f = 0; f < nw; f++)
		best[f] = cur[f];
	for (f = 0; f < m->nfields; f++)
		if (vgpu_bmap_range_any_set(cur, m->lo[f], m->width[f]))
			runs[f] = 1;
	/* Doubling: cur = x_(2^j), clipped to stay inside fields. */
	more = true;
	while (more && maxw >= (2U << j)) {
		d = 1U << j;
		vgpu_bmap_and_shr(nxt, cur, cur, nw, d);
		vgpu_bmap_mux_clip(nxt, m, d);
		more = false;
		j++;
		for (f = 0; f < m->nfields; f++) {
			if (!vgpu_bmap_range_any_set(nxt, m->lo[f], m->width[f]))
				continue;
			vgpu_bmap_copy_range(best, nxt, m->lo[f], m->width[f]);
			runs[f] = 1U << j;
			jf[f] = j;
			more = true;
		}
		for (f = 0; f < nw; f++)
			cur[f] = nxt[f];
	}
	/*
	 * Descent over the shared d; a field takes part once d < 2^jf, so
	 * d <= L/2 and p + d stays inside the field of p: no clipping needed.
	 */
	while (j--) {
		d = 1U << j;
		vgpu_bmap_and_shr(nxt, best, best, nw, d);
		for (f = 0; f < m->nfields; f++) {
			if (jf[f] <= j ||
			    !vgpu_bmap_range_any_set(nxt, m->lo[f], m->width[f]))
				continue;
			vgpu_bmap_copy_range(best, nxt, m->lo[f], m->width[f]);
			runs[f] += d;
		}
	}
}

/**
 * vgpu_bmap_periods_init() - plan a time-multiplexed search (F43)
 * @p: the plan to fill
 * @a: width A of the shared unit
 * @widths: width of each map (resource type)
 * @nres: number of maps
 *
 * Seed 001 embodiment 7 (steps g1-g4, [0187]-[0191]): one round of the
 * search takes C time periods; each period searches at least one resource
 * type, and the resource blocks of a period's types total at most A, A at
 * least the largest type.  The maps go to periods in order, a new period
 * when the next one no longer fits beside the others: the seed's example
 * ([0212]: 128, 64 and 48 blocks, A = 128) takes two periods, the first
 * resource alone and then the other two together.
 *
 * Return: 0, or -EINVAL for a width of 0 or above @a, @a above
 * VGPU_BMAP_MUX_MAX_BITS or a count out of range.
 */
int vgpu_bmap_periods_init(struct vgpu_bmap_periods *p, u32 a,
			   const u32 *widths, u32 nres)
{
	u32 w[VGPU_BMAP_MUX_MAX_FIELDS], r, c = 0, n = 0, used = 0;
	int ret;

	if (!a || a > VGPU_BMAP_MUX_MAX_BITS || !nres ||
	    nres > VGPU_BMAP_MUX_MAX_FIELDS)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	for (r = 0; r < nres; r++) {
		if (!widths[r] || widths[r] > a)
			return -EINVAL;
		if (n && used + widths[r] > a) {
			ret = vgpu_bmap_mux_init(&p->mux[c], a, w, n);
			if (ret)
				return ret;
			c++;
			n = 0;
			used = 0;
		}
		p->period[r] = c;
		p->res[c][n] = r;
		w[n++] = widths[r];
		used += widths[r];
	}
	ret = vgpu_bmap_mux_init(&p->mux[c], a, w, n);
	if (ret)
		return ret;
	p->a = a;
	p->nres = nres;
	p->nperiods = c + 1;
	return 0;
}

/* OR @len bits of @src into @dst from bit @lo on (step g2: into a group). */
static void vgpu_bmap_put(u64 *dst, u32 lo, const u64 *src, u32 len)
{
	u32 i, nw = VGPU_BMAP_NWORDS(len), sh = lo % 64, d = lo / 64;
	u64 v;

	for (i = 0; i < nw; i++) {
		v = src[i];
		if (i == nw - 1 && len % 64)
			v &= GENMASK_ULL(len % 64 - 1, 0);
		dst[d + i] |= v << sh;
		if (sh && d + i + 1 < VGPU_BMAP_NWORDS(VGPU_BMAP_MUX_MAX_BITS))
			dst[d + i + 1] |= v >> (64 - sh);
	}
}

/**
 * vgpu_bmap_run_periods() - one round of a time-multiplexed search (F43)
 * @p: the plan (vgpu_bmap_periods_init())
 * @maps: the map of each resource type, @p->nres of them
 * @runs: out: the largest free run of each map
 * @s: scratch maps
 *
 * Period by period (steps g2-g4): the maps of the period are put side by
 * side into the A-bit shared unit, one group each, and searched at once
 * (vgpu_bmap_run_mux(): no run crosses from one group into the next).
 */
void vgpu_bmap_run_periods(const struct vgpu_bmap_periods *p,
			   const u64 *const *maps, u32 *runs,
			   struct vgpu_bmap_mux_scratch *s)
{
	u64 *word = s->word;
	u32 out[VGPU_BMAP_MUX_MAX_FIELDS], c, f;
	const struct vgpu_bmap_mux *m;

	for (c = 0; c < p->nperiods; c++) {
		m = &p->mux[c];
		memset(word, 0, VGPU_BMAP_NWORDS(m->nbits) * sizeof(*word));
		for (f = 0; f < m->nfields; f++)
			vgpu_bmap_put(word, m->lo[f], maps[p->res[c][f]],
				      m->width[f]);
		vgpu_bmap_run_mux(word, m, out, s);
		for (f = 0; f < m->nfields; f++)
			runs[p->res[c][f]] = out[f];
	}
}
