/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the bitmap searches share: bmap.c (maps, the exact,
 * grouped and sampled searches, F32, F40-F42), bmap_mux.c (the
 * time-multiplexed searches, F43) and userspace/core/bmap_ref.c (the
 * reference searches of the tests and benchmarks).  bmap.h is their API; nothing here is for
 * its callers.
 */
#ifndef VGPU_CORE_BMAP_INTERNAL_H
#define VGPU_CORE_BMAP_INTERNAL_H

#include "vgpu_os.h"
#include "bmap.h"

/* Mask of bits [b, b + n) of one word, 1 <= n, b + n <= 64. */
static inline u64 vgpu_bmap_word_mask(u32 b, u32 n)
{
	return (n == 64 ? ~0ULL : (1ULL << n) - 1) << b;
}

/* Word @i of @b >> @s over @nw words, vacated bits zero (occupied). */
static __always_inline u64 vgpu_bmap_shr_word(const u64 *b, u32 nw, u32 i,
					      u32 s)
{
	u32 j = i + s / 64, bs = s % 64;
	u64 lo = j < nw ? b[j] : 0, hi;

	if (!bs)
		return lo;
	hi = j + 1 < nw ? b[j + 1] : 0;
	return (lo >> bs) | (hi << (64 - bs));
}

/*
 * dst = a & (b >> s), one shift-and-AND step of F40.  dst may alias a or b:
 * word i only reads words >= i of b.  Returns the OR of dst's words.
 */
static __always_inline u64 vgpu_bmap_and_shr(u64 *dst, const u64 *a,
					     const u64 *b, u32 nw, u32 s)
{
	u64 acc = 0;
	u32 i;

	for (i = 0; i < nw; i++) {
		dst[i] = a[i] & vgpu_bmap_shr_word(b, nw, i, s);
		acc |= dst[i];
	}
	return acc;
}

/*
 * First set bit at or after @from in a map of @nw words, or nw * 64.  Bits
 * past the map's width are zero, so a caller bounded by nbits never sees
 * them.
 */
static __always_inline u32 vgpu_bmap_next_set(const u64 *map, u32 nw,
					      u32 from)
{
	u32 i = from / 64;
	u64 w;

	if (i >= nw)
		return nw * 64;
	w = map[i] & (~0ULL << (from % 64));
	while (!w) {
		if (++i == nw)
			return nw * 64;
		w = map[i];
	}
	return i * 64 + __ffs64(w);
}

/*
 * First clear bit at or after @from, or nw * 64; the search stops at @lim:
 * the result is min(that bit, @lim).
 */
static __always_inline u32 vgpu_bmap_next_clear(const u64 *map, u32 nw,
						u32 from, u32 lim)
{
	u32 i = from / 64;
	u64 w;

	if (i >= nw)
		return min(nw * 64, lim);
	w = ~map[i] & (~0ULL << (from % 64));
	while (!w) {
		if (++i == nw || i * 64 >= lim)
			return min(i * 64, lim);
		w = ~map[i];
	}
	return min(i * 64 + (u32)__ffs64(w), lim);
}

u64 vgpu_bmap_xk(u64 *cur, const u64 *map, u32 nw, u32 k);

#endif /* VGPU_CORE_BMAP_INTERNAL_H */
