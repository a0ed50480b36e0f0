// SPDX-License-Identifier: GPL-2.0
/*
 * Free-unit bitmaps and largest-free-run searches (F32, F40-F42; the
 * time-multiplexed searches of F43 are in bmap_mux.c, the
 * reference searches of the tests and benchmarks in
 * userspace/core/bmap_ref.c).
 *
 * See bmap.h for the x_k notation.  Nothing here allocates: scratch maps
 * live on the stack (at most three of VGPU_BMAP_WORDS words).
 */
#include "vgpu_os.h"
#include "bmap.h"
#include "bmap_internal.h"

/**
 * vgpu_bmap_fill() - mark every unit free
 * @map: the map
 * @nbits: number of units
 */
void vgpu_bmap_fill(u64 *map, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), i;

	for (i = 0; i < nw; i++)
		map[i] = ~0ULL;
	if (nbits % 64)
		map[nw - 1] = vgpu_bmap_word_mask(0, nbits % 64);
}

/**
 * vgpu_bmap_zero() - mark every unit occupied
 * @map: the map
 * @nbits: number of units
 */
void vgpu_bmap_zero(u64 *map, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), i;

	for (i = 0; i < nw; i++)
		map[i] = 0;
}

/**
 * vgpu_bmap_set_range_words() - vgpu_bmap_set_range() word by word
 * @map: the map
 * @start: first unit
 * @len: number of units (0 is a no-op)
 */
void vgpu_bmap_set_range_words(u64 *map, u32 start, u32 len)
{
	while (len) {
		u32 b = start % 64, n = min(len, 64 - b);

		map[start / 64] |= vgpu_bmap_word_mask(b, n);
		start += n;
		len -= n;
	}
}

/**
 * vgpu_bmap_clear_range_words() - vgpu_bmap_clear_range() word by word
 * @map: the map
 * @start: first unit
 * @len: number of units (0 is a no-op)
 */
void vgpu_bmap_clear_range_words(u64 *map, u32 start, u32 len)
{
	while (len) {
		u32 b = start % 64, n = min(len, 64 - b);

		map[start / 64] &= ~vgpu_bmap_word_mask(b, n);
		start += n;
		len -= n;
	}
}

/**
 * vgpu_bmap_range_all_set() - are units [@start, @start + @len) all free?
 * @map: the map
 * @start: first unit
 * @len: number of units
 *
 * Return: true if every bit of the range is set (true for @len 0).
 */
bool vgpu_bmap_range_all_set(const u64 *map, u32 start, u32 len)
{
	while (len) {
		u32 b = start % 64, n = min(len, 64 - b);
		u64 m = vgpu_bmap_word_mask(b, n);

		if ((map[start / 64] & m) != m)
			return false;
		start += n;
		len -= n;
	}
	return true;
}

/**
 * vgpu_bmap_range_any_set() - is any unit of [@start, @start + @len) free?
 * @map: the map
 * @start: first unit
 * @len: number of units
 *
 * Return: true if some bit of the range is set.
 */
bool vgpu_bmap_range_any_set(const u64 *map, u32 start, u32 len)
{
	while (len) {
		u32 b = start % 64, n = min(len, 64 - b);

		if (map[start / 64] & vgpu_bmap_word_mask(b, n))
			return true;
		start += n;
		len -= n;
	}
	return false;
}

/**
 * vgpu_bmap_weight() - number of free units
 * @map: the map
 * @nbits: number of units
 *
 * Return: the number of set bits.
 */
u32 vgpu_bmap_weight(const u64 *map, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), i, n = 0;

	for (i = 0; i < nw; i++)
		n += hweight64(map[i]);
	return n;
}

/*
 * Exact search for maps of at most 64 * nw bits (nw a compile-time constant
 * after inlining): P[j] = x_(2^j) by doubling until it vanishes, then a
 * binary descent L += 2^j while x_L & (P[j] >> L) is non-zero.  The descent
 * is branch-free (masks), so random maps cost no mispredictions.
 */
static __always_inline u32 vgpu_bmap_run_pow(const u64 *map, u32 nbits,
					     u32 nw)
{
	u64 p[9][4], c[2][4], any = 0, m;
	u32 i, j = 0, run, cs = 0;

	for (i = 0; i < nw; i++) {
		p[0][i] = i < VGPU_BMAP_NWORDS(nbits) ? map[i] : 0;
		any |= p[0][i];
	}
	if (!any)
		return 0;
	while ((2U << j) <= nbits &&
	       vgpu_bmap_and_shr(p[j + 1], p[j], p[j], nw, 1U << j))
		j++;
	run = 1U << j;
	for (i = 0; i < nw; i++)
		c[0][i] = p[j][i];
	while (j--) {
		u32 d = 1U << j;

		if (run + d > nbits)
			continue;
		any = vgpu_bmap_and_shr(c[cs ^ 1], c[cs], p[j], nw, run);
		m = -(u64)(any != 0);
		run += d & (u32)m;
		cs ^= (u32)m & 1;
	}
	return run;
}

/*
 * One shift-and-AND step of F40 on a map of at most two words held in
 * registers: (*lo, *hi) &= (a_lo, a_hi) >> d, 1 <= d < 64.
 */
static __always_inline void vgpu_bmap_and_shr2(u64 *lo, u64 *hi, u64 a_lo,
					       u64 a_hi, u32 d)
{
	*lo &= (a_lo >> d) | (a_hi << (64 - d));
	*hi &= a_hi >> d;
}

/*
 * One branch-free descent step: x_(L+d) = x_L & (x_L >> d) for d <= L;
 * kept, and L += d, only if some run of L + d is left.
 */
static __always_inline void vgpu_bmap_descend2(u64 *lo, u64 *hi, u32 *run,
					       u32 d)
{
	u64 tl = *lo, th = *hi, m;

	vgpu_bmap_and_shr2(&tl, &th, *lo, *hi, d);
	m = -(u64)((tl | th) != 0);
	*lo = (tl & m) | (*lo & ~m);
	*hi = (th & m) | (*hi & ~m);
	*run += d & (u32)m;
}

/*
 * Exact search on a map of at most 128 bits held in two registers.  The
 * doubling x_1, x_2, x_4, x_8, x_16 runs unconditionally (a dependent
 * chain of four two-word steps, no table); when x_16 is empty, which
 * random maps nearly always give, the answer lies in [L, 2L) for L = 8 if
 * x_8 is non-empty, else 4, and three branch-free descent steps (d = 4,
 * 2, 1; a step that would pass 2L finds nothing) finish it.  Shorter and
 * longer runs take the general path.
 */
static __always_inline u32 vgpu_bmap_run_two(u64 lo, u64 hi)
{
	u64 l2 = lo, h2 = hi, l4, h4, l8, h8, l16, h16, m;
	u32 run, d;

	vgpu_bmap_and_shr2(&l2, &h2, lo, hi, 1);
	l4 = l2;
	h4 = h2;
	vgpu_bmap_and_shr2(&l4, &h4, l2, h2, 2);
	l8 = l4;
	h8 = h4;
	vgpu_bmap_and_shr2(&l8, &h8, l4, h4, 4);
	l16 = l8;
	h16 = h8;
	vgpu_bmap_and_shr2(&l16, &h16, l8, h8, 8);
	if (likely(!(l16 | h16) && (l4 | h4))) {
		m = -(u64)((l8 | h8) != 0);
		lo = (l8 & m) | (l4 & ~m);
		hi = (h8 & m) | (h4 & ~m);
		run = 4 + (4 & (u32)m);
		vgpu_bmap_descend2(&lo, &hi, &run, 4);
		vgpu_bmap_descend2(&lo, &hi, &run, 2);
		vgpu_bmap_descend2(&lo, &hi, &run, 1);
		return run;
	}
	if (!(lo | hi))
		return 0;
	if (!(l4 | h4)) {
		/* a run of 1 .. 3: from x_1 */
		run = 1;
		vgpu_bmap_descend2(&lo, &hi, &run, 1);
		vgpu_bmap_descend2(&lo, &hi, &run, 1);
		return run;
	}
	/* a run of 16 or more: keep doubling from x_16, then descend */
	lo = l16;
	hi = h16;
	run = 16;
	for (;;) {
		l2 = lo;
		h2 = hi;
		if (run < 64) {
			vgpu_bmap_and_shr2(&l2, &h2, lo, hi, run);
		} else {
			l2 &= h2;
			h2 = 0;
		}
		if (!(l2 | h2))
			break;
		lo = l2;
		hi = h2;
		run *= 2;
	}
	for (d = run / 2; d; d /= 2) {
		if (d < 64) {
			vgpu_bmap_descend2(&lo, &hi, &run, d);
		} else if (lo & hi) {
			lo &= hi;
			hi = 0;
			run += d;
		}
	}
	return run;
}

/**
 * vgpu_bmap_run_doubling() - exact largest free run for any width (F40)
 * @map: the map
 * @nbits: number of units, up to VGPU_BMAP_MAX_BITS
 *
 * Doubles L while x_(2L) is non-zero, then descends with x_(L+d) =
 * x_L & (x_L >> d) for d = L/2 .. 1.  Two scratch maps, no table of powers,
 * so it suits the wide shared-memory maps.
 *
 * Return: length of the longest run of set bits.
 */
u32 vgpu_bmap_run_doubling(const u64 *map, u32 nbits)
{
	u64 buf[2][VGPU_BMAP_WORDS], *cur = buf[0], *t = buf[1], *x, any = 0;
	u32 nw = VGPU_BMAP_NWORDS(nbits), i, run = 1, d;

	for (i = 0; i < nw; i++) {
		cur[i] = map[i];
		any |= cur[i];
	}
	if (!any)
		return 0;
	while (2 * run <= nbits && vgpu_bmap_and_shr(t, cur, cur, nw, run)) {
		x = cur;
		cur = t;
		t = x;
		run *= 2;
	}
	for (d = run / 2; d; d /= 2) {
		if (run + d <= nbits && vgpu_bmap_and_shr(t, cur, cur, nw, d)) {
			x = cur;
			cur = t;
			t = x;
			run += d;
		}
	}
	return run;
}

/*
 * Exact search on a wide map a machine word at a time: F40's shift-and-AND
 * on each word in registers (vgpu_bmap_run_two()), and a run that crosses
 * words is the free units at the top of one word, whole free words and
 * the free units at the bottom of the next.  A wholly free or wholly taken
 * word, what the shared-memory maps are mostly made of, costs a test; a
 * word whose free units cannot beat the run found is not searched.
 * O(words) where the doubling over the whole map is O(words log n).
 */
static noinline u32 vgpu_bmap_run_words(const u64 *map, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), i, best = 0, cur = 0, lo, hi;
	u64 x;

	for (i = 0; i < nw; i++) {
		x = map[i];
		if (i == nw - 1 && nbits % 64)
			x &= vgpu_bmap_word_mask(0, nbits % 64);
		if (x == ~0ULL) {
			cur += 64;
			continue;
		}
		if (!x) {
			best = max(best, cur);
			cur = 0;
			continue;
		}
		/* free units at the bottom end the run coming in */
		lo = __ffs64(~x);
		best = max(best, cur + lo);
		/* those at the top start the next one */
		hi = 64 - fls64(~x);
		if (64 - lo - hi > best)
			best = max(best, vgpu_bmap_run_two(x, 0));
		cur = hi;
	}
	return max(best, cur);
}

/* The 256-bit search out of line: vgpu_bmap_run_exact() needs no frame. */
static noinline u32 vgpu_bmap_run_four(const u64 *map, u32 nbits)
{
	return vgpu_bmap_run_pow(map, nbits, 4);
}

/**
 * vgpu_bmap_run_exact() - exact largest free run (F40)
 * @map: the map
 * @nbits: number of units, up to VGPU_BMAP_MAX_BITS
 *
 * O(log n) shift-and-AND steps; maps of up to 128 bits are searched in
 * registers (vgpu_bmap_run_two()), up to 256 with a table of x_(2^j),
 * wider ones a word at a time (vgpu_bmap_run_words()).
 *
 * Return: length of the longest run of set bits.
 */
u32 vgpu_bmap_run_exact(const u64 *map, u32 nbits)
{
	if (nbits <= 64)
		return vgpu_bmap_run_two(map[0], 0);
	if (nbits <= 128)
		return vgpu_bmap_run_two(map[0], map[1]);
	if (nbits <= 256)
		return vgpu_bmap_run_four(map, nbits);
	return vgpu_bmap_run_words(map, nbits);
}

/**
 * vgpu_bmap_xk() - x_k of a map (F40)
 * @cur: out: x_k, @nw words
 * @map: the map
 * @nw: its words
 * @k: the run length, at least 1
 *
 * By the binary digits of @k: L -> 2L with x_L & (x_L >> L), L -> L + 1
 * with x_L & (map >> L).
 *
 * Return: 0 as soon as the result is known to be empty, else non-zero.
 */
u64 vgpu_bmap_xk(u64 *cur, const u64 *map, u32 nw, u32 k)
{
	u64 any = 0;
	u32 i, run = 1;
	int b;

	for (i = 0; i < nw; i++) {
		cur[i] = map[i];
		any |= cur[i];
	}
	for (b = fls64(k) - 2; b >= 0 && any; b--) {
		any = vgpu_bmap_and_shr(cur, cur, cur, nw, run);
		run *= 2;
		if (any && (k >> b) & 1) {
			any = vgpu_bmap_and_shr(cur, cur, map, nw, run);
			run++;
		}
	}
	return any;
}

/*
 * Free stretches visited by vgpu_bmap_first_run() before it falls back to
 * the shift-and-AND search: first fit keeps maps packed, so the first few
 * stretches nearly always hold the answer.
 */
#define VGPU_BMAP_WALK		8

/**
 * vgpu_bmap_first_run() - first-fit free run and the free stretch it starts
 * @map: the map
 * @nbits: number of units
 * @len: run length wanted (>= 1)
 * @cap: how far the caller cares about the stretch (>= @len)
 * @end: out: min(end of the maximal free stretch starting at the returned
 *	index, that index + @cap): [start, *@end) is free, and either unit
 *	*@end is not or *@end - start == @cap
 *
 * Walks the maximal free stretches from the bottom, a word at a time, and
 * returns the first as long as @len; after VGPU_BMAP_WALK stretches that
 * are too short it runs the shift-and-AND search (F40) on the rest of the
 * map.  Same answer as the search on the whole map: every start below the
 * walk's position lies in a stretch shorter than @len.  A stretch is
 * never followed further than @cap units, so a long one costs one word.
 *
 * Return: the lowest start index of @len consecutive free units, or
 * -ENOSPC (*@end untouched).
 */
int vgpu_bmap_first_run(const u64 *map, u32 nbits, u32 len, u32 cap,
			u32 *end)
{
	u64 cur[VGPU_BMAP_WORDS];
	u32 nw = VGPU_BMAP_NWORDS(nbits), pos = 0, s, e, w0, i, n;

	if (!len || len > nbits)
		return -ENOSPC;
	cap = max(cap, len);
	for (n = 0; n < VGPU_BMAP_WALK; n++) {
		s = vgpu_bmap_next_set(map, nw, pos);
		if (s >= nbits || len > nbits - s)
			return -ENOSPC;
		e = vgpu_bmap_next_clear(map, nw, s, s + cap);
		if (e - s >= len) {
			*end = e;
			return s;
		}
		pos = e;
	}
	w0 = pos / 64;
	if (!vgpu_bmap_xk(cur, map + w0, nw - w0, len))
		return -ENOSPC;
	for (i = 0; i < nw - w0; i++) {
		if (cur[i]) {
			s = (w0 + i) * 64 + __ffs64(cur[i]);
			*end = vgpu_bmap_next_clear(map, nw, s, s + cap);
			return s;
		}
	}
	return -ENOSPC;
}

/**
 * vgpu_bmap_find_run() - first-fit free run of a given length (F32)
 * @map: the map
 * @nbits: number of units
 * @len: run length wanted
 *
 * Return: the lowest start index of @len consecutive free units (0 for
 * @len 0), or -ENOSPC if the largest free run is shorter than @len.
 */
int vgpu_bmap_find_run(const u64 *map, u32 nbits, u32 len)
{
	u32 end;

	if (!len)
		return 0;
	return vgpu_bmap_first_run(map, nbits, len, len, &end);
}

/**
 * vgpu_bmap_count_runs() - how many runs first fit can carve out of a map
 * @map: the map (not changed)
 * @nbits: number of units
 * @len: run length (0: @want)
 * @want: stop counting at this many
 *
 * Repeated first fit takes each run from the bottom of the lowest free
 * stretch that still holds @len units, so the count is the sum over the
 * maximal free stretches of length L of L / @len; no copy of the map is
 * needed.
 *
 * Return: min(@want, number of runs).
 */
u32 vgpu_bmap_count_runs(const u64 *map, u32 nbits, u32 len, u32 want)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), pos = 0, s, e, n = 0;

	if (!len)
		return want;
	while (n < want) {
		s = vgpu_bmap_next_set(map, nw, pos);
		if (s >= nbits || len > nbits - s)
			break;
		e = vgpu_bmap_next_clear(map, nw, s, nbits);
		n += (e - s) / len;
		pos = e;
	}
	return min(n, want);
}

/**
 * vgpu_bmap_run_grouped() - grouped largest free run (F41)
 * @map: the map
 * @nbits: number of units
 * @groups: z; must divide @nbits
 *
 * Folds every n/z units into one (a group is free only if all its units
 * are) and searches the z-bit map exactly.
 *
 * Return: the largest run of whole free groups, in units (a multiple of
 * n/z), or 0 if @groups is not a divisor of @nbits.
 */
u32 vgpu_bmap_run_grouped(const u64 *map, u32 nbits, u32 groups)
{
	u64 f[VGPU_BMAP_WORDS];
	u32 g, j;

	if (!groups || groups > nbits || nbits % groups)
		return 0;
	g = nbits / groups;
	if (g == 1)
		return vgpu_bmap_run_exact(map, nbits);
	vgpu_bmap_zero(f, groups);
	for (j = 0; j < groups; j++)
		if (vgpu_bmap_range_all_set(map, j * g, g))
			f[j / 64] |= 1ULL << (j % 64);
	return vgpu_bmap_run_exact(f, groups) * g;
}

static bool vgpu_bmap_is_prime(u32 k)
{
	u32 d;

	if (k < 2)
		return false;
	for (d = 2; d * d <= k; d++)
		if (!(k % d))
			return false;
	return true;
}

/**
 * vgpu_bmap_samples_pow2() - the default shift list 1, 2, 4, ... <= @nbits
 * @s: list to fill
 * @nbits: width of the maps it will search
 */
void vgpu_bmap_samples_pow2(struct vgpu_bmap_samples *s, u32 nbits)
{
	u32 k;

	s->n = 0;
	s->skip_primes = false;
	for (k = 1; k <= nbits && s->n < VGPU_BMAP_MAX_SAMPLES; k *= 2)
		s->k[s->n++] = k;
}

/**
 * vgpu_bmap_samples_check() - is a shift list valid for F42?
 * @s: the list
 *
 * Return: 0 if it has 1 .. VGPU_BMAP_MAX_SAMPLES strictly increasing
 * entries >= 1 with non-decreasing gaps, else -EINVAL.
 */
int vgpu_bmap_samples_check(const struct vgpu_bmap_samples *s)
{
	u32 i;

	if (!s->n || s->n > VGPU_BMAP_MAX_SAMPLES || !s->k[0])
		return -EINVAL;
	for (i = 1; i < s->n; i++) {
		if (s->k[i] <= s->k[i - 1])
			return -EINVAL;
		if (i >= 2 && s->k[i] - s->k[i - 1] < s->k[i - 1] - s->k[i - 2])
			return -EINVAL;
	}
	return 0;
}

/**
 * vgpu_bmap_run_sampled() - sampled largest free run (F42)
 * @map: the map
 * @nbits: number of units
 * @s: the shift list (see vgpu_bmap_samples_check())
 *
 * Tests only the run lengths of @s in increasing order, stepping x_k to
 * x_k' with shifts of at most k, and stops at the first that has no run.
 *
 * Return: the largest listed length (primes skipped if asked) for which a
 * free run exists, 0 if none.
 */
u32 vgpu_bmap_run_sampled(const u64 *map, u32 nbits,
			  const struct vgpu_bmap_samples *s)
{
	u64 cur[VGPU_BMAP_WORDS];
	u32 nw = VGPU_BMAP_NWORDS(nbits), i, k, run = 0, best = 0, step;

	for (i = 0; i < s->n; i++) {
		k = s->k[i];
		if (k > nbits)
			break;
		if (s->skip_primes && vgpu_bmap_is_prime(k))
			continue;
		if (!run) {
			if (!vgpu_bmap_xk(cur, map, nw, k))
				break;
			run = k;
		}
		while (k > run) {
			step = min(k - run, run);
			if (!vgpu_bmap_and_shr(cur, cur, cur, nw, step))
				return best;
			run += step;
		}
		best = k;
	}
	return best;
}
