/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two files of the bitmap searches share: bmap.c (maps, the
 * exact, grouped and sampled searches, F32, F40-F42) and bmap_mux.c (the
 * time-multiplexed searches, F43).  bmap.h is their API; nothing here is
 * for its callers.
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

#endif /* VGPU_CORE_BMAP_INTERNAL_H */
