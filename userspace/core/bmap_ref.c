// SPDX-License-Identifier: GPL-2.0
/*
 * The reference searches of the bitmaps (F32, F40, F43): a plain bit
 * loop, the find_next_bit() style run walk and the shift-and-AND search of
 * the whole map, for the largest free run and for first fit, and the bit
 * loops of a time-multiplexed word's fields.  The unit tests
 * check the fast searches of bmap.c against them and ``vgpu-sim bench
 * bitmap`` times them side by side; the module does not use them
 * (it lives outside driver/core for that reason).
 */
#include "vgpu_os.h"
#include "bmap.h"
#include "bmap_internal.h"

/**
 * vgpu_bmap_run_naive() - reference largest free run: a plain bit loop
 * @map: the map
 * @nbits: number of units
 *
 * Return: length of the longest run of set bits.
 */
u32 vgpu_bmap_run_naive(const u64 *map, u32 nbits)
{
	u32 i, run = 0, best = 0;

	for (i = 0; i < nbits; i++) {
		if (vgpu_bmap_test(map, i)) {
			run++;
			if (run > best)
				best = run;
		} else {
			run = 0;
		}
	}
	return best;
}

/**
 * vgpu_bmap_run_ctz() - reference largest free run: a walk over the runs
 * @map: the map
 * @nbits: number of units
 *
 * The find_next_bit() / find_next_zero_bit() walk: from each run's first
 * set bit to the next clear one, a word at a time with count-trailing-
 * zeros.  A second reference for the exact search (and its benchmark).
 *
 * Return: length of the longest run of set bits.
 */
u32 vgpu_bmap_run_ctz(const u64 *map, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), pos = 0, s, e, best = 0;

	for (;;) {
		s = vgpu_bmap_next_set(map, nw, pos);
		if (s >= nbits)
			return best;
		e = vgpu_bmap_next_clear(map, nw, s, nbits);
		best = max(best, e - s);
		pos = e;
	}
}

/**
 * vgpu_bmap_find_run_naive() - reference first fit: a plain bit loop
 * @map: the map
 * @nbits: number of units
 * @len: run length wanted
 *
 * Return: as vgpu_bmap_find_run().
 */
int vgpu_bmap_find_run_naive(const u64 *map, u32 nbits, u32 len)
{
	u32 i, run = 0;

	if (!len)
		return 0;
	for (i = 0; i < nbits; i++) {
		run = vgpu_bmap_test(map, i) ? run + 1 : 0;
		if (run == len)
			return i + 1 - len;
	}
	return -ENOSPC;
}

/**
 * vgpu_bmap_find_run_ctz() - reference first fit: a walk over the runs
 * @map: the map
 * @nbits: number of units
 * @len: run length wanted
 *
 * The find_next_bit() / find_next_zero_bit() walk over every free
 * stretch until one holds @len units (vgpu_bmap_first_run() without its
 * bound on the walk).
 *
 * Return: as vgpu_bmap_find_run().
 */
int vgpu_bmap_find_run_ctz(const u64 *map, u32 nbits, u32 len)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), pos = 0, s, e;

	if (!len)
		return 0;
	if (len > nbits)
		return -ENOSPC;
	for (;;) {
		s = vgpu_bmap_next_set(map, nw, pos);
		if (s >= nbits || len > nbits - s)
			return -ENOSPC;
		e = vgpu_bmap_next_clear(map, nw, s, s + len);
		if (e - s >= len)
			return s;
		pos = e;
	}
}

/**
 * vgpu_bmap_find_run_xk() - first-fit free run by the shift-and-AND search
 * @map: the map
 * @nbits: number of units
 * @len: run length wanted
 *
 * The reference for vgpu_bmap_find_run(): x_len of the whole map (F40),
 * then its lowest set bit.
 *
 * Return: as vgpu_bmap_find_run().
 */
int vgpu_bmap_find_run_xk(const u64 *map, u32 nbits, u32 len)
{
	u64 cur[VGPU_BMAP_WORDS];
	u32 nw = VGPU_BMAP_NWORDS(nbits), i;

	if (!len)
		return 0;
	if (len > nbits || !vgpu_bmap_xk(cur, map, nw, len))
		return -ENOSPC;
	for (i = 0; i < nw; i++)
		if (cur[i])
			return i * 64 + __ffs64(cur[i]);
	return -ENOSPC;
}

/**
 * vgpu_bmap_run_mux_naive() - reference for vgpu_bmap_run_mux(): bit loops
 * @map: the wide word
 * @m: its fields
 * @runs: out: the largest free run of each field
 */
void vgpu_bmap_run_mux_naive(const u64 *map, const struct vgpu_bmap_mux *m,
			     u32 *runs)
{
	u32 f, i, run;

	for (f = 0; f < m->nfields; f++) {
		runs[f] = 0;
		run = 0;
		for (i = m->lo[f]; i < m->lo[f] + m->width[f]; i++) {
			run = vgpu_bmap_test(map, i) ? run + 1 : 0;
			runs[f] = max(runs[f], run);
		}
	}
}
