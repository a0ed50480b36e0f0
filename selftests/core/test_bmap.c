// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/bmap.c: largest free run searches (F40-F43) and
 * first-fit runs (F32) against plain bit-loop references.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vgpu_test.h"
#include "bmap.h"
#include "vgpu_test_rand.h"

#define NMAPS	VGPU_TEST_SCALE(1000000, 10000)

/* A random map of @nbits with a random density (short and long runs). */
static void vgpu_test_map(struct vgpu_test_rng *r, u64 *w, u32 nbits)
{
	u32 nw = VGPU_BMAP_NWORDS(nbits), i, k, dens = vgpu_test_below(r, 6);

	for (i = 0; i < nw; i++) {
		u64 v = vgpu_test_rand64(r);

		switch (dens) {
		case 0:		/* p = 1/4 */
			v &= vgpu_test_rand64(r);
			break;
		case 1:		/* p = 1/2 */
			break;
		case 2:		/* p = 7/8 */
		case 3:
			for (k = 0; k < 2; k++)
				v |= vgpu_test_rand64(r);
			break;
		case 4:		/* p = 63/64 */
			for (k = 0; k < 5; k++)
				v |= vgpu_test_rand64(r);
			break;
		default:	/* all free but a few holes */
			v = ~0ULL;
			if (vgpu_test_below(r, 2))
				v &= ~(1ULL << vgpu_test_below(r, 64));
			break;
		}
		w[i] = v;
	}
	if (nbits % 64)
		w[nw - 1] &= (1ULL << (nbits % 64)) - 1;
}

/* Reference first fit: lowest start of @len free units, or -1. */
static int vgpu_test_find_naive(const u64 *w, u32 nbits, u32 len)
{
	u32 i, run = 0;

	if (!len)
		return 0;
	for (i = 0; i < nbits; i++) {
		run = vgpu_bmap_test(w, i) ? run + 1 : 0;
		if (run == len)
			return i + 1 - len;
	}
	return -1;
}

/* Reference grouped search: fold bit by bit, then the bit loop. */
static u32 vgpu_test_grouped_naive(const u64 *w, u32 nbits, u32 z)
{
	u64 f[VGPU_BMAP_WORDS] = { 0 };
	u32 g = nbits / z, j, i;

	for (j = 0; j < z; j++) {
		bool all = true;

		for (i = 0; i < g; i++)
			all = all && vgpu_bmap_test(w, j * g + i);
		if (all)
			f[j / 64] |= 1ULL << (j % 64);
	}
	return vgpu_bmap_run_naive(f, z) * g;
}

/* A random divisor of n. */
static u32 vgpu_test_divisor(struct vgpu_test_rng *r, u32 n)
{
	u32 d[64], nd = 0, i;

	for (i = 1; i <= n && nd < 64; i++)
		if (!(n % i))
			d[nd++] = i;
	return d[vgpu_test_below(r, nd)];
}

/* A random valid shift list: increasing, non-decreasing gaps (F42). */
static void vgpu_test_samples(struct vgpu_test_rng *r,
			      struct vgpu_bmap_samples *s, u32 nbits)
{
	u32 k = 1 + vgpu_test_below(r, 4), gap = 1 + vgpu_test_below(r, 3);

	s->n = 0;
	s->skip_primes = vgpu_test_below(r, 2);
	while (k <= nbits + 8 && s->n < VGPU_BMAP_MAX_SAMPLES) {
		s->k[s->n++] = k;
		k += gap;
		gap += vgpu_test_below(r, 3);
	}
}

static bool vgpu_test_prime(u32 k)
{
	u32 d;

	if (k < 2)
		return false;
	for (d = 2; d * d <= k; d++)
		if (!(k % d))
			return false;
	return true;
}

TEST(ranges)
{
	u64 w[VGPU_BMAP_WORDS];

	vgpu_bmap_fill(w, 200);
	EXPECT_EQ(200, vgpu_bmap_weight(w, 200));
	EXPECT_EQ(200, vgpu_bmap_run_exact(w, 200));
	vgpu_bmap_clear_range(w, 60, 10);
	EXPECT_EQ(190, vgpu_bmap_weight(w, 200));
	EXPECT_FALSE(vgpu_bmap_range_any_set(w, 60, 10));
	EXPECT_TRUE(vgpu_bmap_range_any_set(w, 59, 2));
	EXPECT_TRUE(vgpu_bmap_range_all_set(w, 70, 130));
	EXPECT_FALSE(vgpu_bmap_range_all_set(w, 69, 2));
	EXPECT_EQ(130, vgpu_bmap_run_exact(w, 200));
	EXPECT_EQ(70, vgpu_bmap_find_run(w, 200, 61));
	EXPECT_EQ(0, vgpu_bmap_find_run(w, 200, 60));
	EXPECT_EQ(-ENOSPC, vgpu_bmap_find_run(w, 200, 131));
	vgpu_bmap_set_range(w, 60, 10);
	EXPECT_EQ(200, vgpu_bmap_run_doubling(w, 200));
	vgpu_bmap_zero(w, 200);
	EXPECT_EQ(0, vgpu_bmap_run_exact(w, 200));
	EXPECT_EQ(-ENOSPC, vgpu_bmap_find_run(w, 200, 1));
}

/* F40-F42 and F32 on >= 1,000,000 seeded random maps of widths 1..256. */
TEST(random_maps_vs_reference)
{
	struct vgpu_test_rng r = { 0x5eed0001 };
	struct vgpu_bmap_samples s;
	u64 w[VGPU_BMAP_WORDS];
	u32 n, nbits, ref, got, z, g, len, i, want;
	int fit;

	for (n = 0; n < NMAPS; n++) {
		nbits = 1 + vgpu_test_below(&r, 256);
		vgpu_test_map(&r, w, nbits);
		ref = vgpu_bmap_run_naive(w, nbits);

		got = vgpu_bmap_run_exact(w, nbits);
		ASSERT_EQ(ref, got) TH_LOG("exact map %u width %u", n, nbits);
		got = vgpu_bmap_run_doubling(w, nbits);
		ASSERT_EQ(ref, got) TH_LOG("doubling map %u width %u", n, nbits);
		got = vgpu_bmap_run_ctz(w, nbits);
		ASSERT_EQ(ref, got) TH_LOG("ctz walk map %u width %u", n, nbits);

		len = vgpu_test_below(&r, ref + 3);
		fit = vgpu_bmap_find_run(w, nbits, len);
		want = vgpu_test_find_naive(w, nbits, len);
		ASSERT_EQ((int)want < 0 ? -ENOSPC : (int)want, fit)
			TH_LOG("find map %u width %u len %u", n, nbits, len);
		ASSERT_EQ(fit, vgpu_bmap_find_run_naive(w, nbits, len));
		ASSERT_EQ(fit, vgpu_bmap_find_run_ctz(w, nbits, len))
			TH_LOG("ctz first fit map %u width %u len %u", n,
			       nbits, len);

		z = vgpu_test_divisor(&r, nbits);
		g = nbits / z;
		got = vgpu_bmap_run_grouped(w, nbits, z);
		ASSERT_EQ(vgpu_test_grouped_naive(w, nbits, z), got);
		ASSERT_EQ(0, got % g);
		ASSERT_LE(got, ref);

		if (n & 1)
			vgpu_bmap_samples_pow2(&s, nbits);
		else
			vgpu_test_samples(&r, &s, nbits);
		ASSERT_EQ(0, vgpu_bmap_samples_check(&s));
		want = 0;
		for (i = 0; i < s.n; i++)
			if (s.k[i] <= ref &&
			    !(s.skip_primes && vgpu_test_prime(s.k[i])))
				want = s.k[i];
		got = vgpu_bmap_run_sampled(w, nbits, &s);
		ASSERT_EQ(want, got) TH_LOG("sampled map %u width %u", n, nbits);
	}
}

/*
 * Every single run of length 1 .. width at every position of 64- and
 * 128-bit maps, alone and next to a shorter one: each path of the
 * register search (runs under 4, 4 .. 15, 16 and more, across the word
 * border) gives the length itself.
 */
TEST(every_run_in_registers)
{
	u32 widths[] = { 64, 128, 100, 65 }, t, len, at, other;
	u64 w[VGPU_BMAP_WORDS];

	for (t = 0; t < ARRAY_SIZE(widths); t++) {
		u32 nbits = widths[t];

		for (len = 1; len <= nbits; len++) {
			for (at = 0; at + len <= nbits; at++) {
				vgpu_bmap_zero(w, nbits);
				vgpu_bmap_set_range(w, at, len);
				ASSERT_EQ(len, vgpu_bmap_run_exact(w, nbits))
					TH_LOG("width %u run %u at %u", nbits,
					       len, at);
				/* a shorter run two units after it */
				other = len / 2;
				if (!other || at + len + 1 + other > nbits)
					continue;
				vgpu_bmap_set_range(w, at + len + 1, other);
				ASSERT_EQ(len, vgpu_bmap_run_exact(w, nbits));
			}
		}
	}
}

/*
 * Wide maps of long runs, as allocations leave them: free words, taken
 * words and runs across word borders (the word-at-a-time search of maps
 * wider than 256 units), against the reference and the doubling search.
 */
TEST(wide_long_runs_vs_reference)
{
	struct vgpu_test_rng r = { 0x5eed0003 };
	u64 w[VGPU_BMAP_WORDS];
	u32 n, nbits, ref, i, at, len;

	for (n = 0; n < VGPU_TEST_SCALE(20000, 1000); n++) {
		nbits = 257 + vgpu_test_below(&r, VGPU_BMAP_MAX_BITS - 256);
		vgpu_bmap_zero(w, VGPU_BMAP_MAX_BITS);
		if (!(n & 1))
			vgpu_bmap_set_range(w, 0, nbits);
		for (i = vgpu_test_below(&r, 6); i; i--) {
			at = vgpu_test_below(&r, nbits);
			len = 1 + vgpu_test_below(&r, nbits - at);
			if (n & 1)
				vgpu_bmap_set_range(w, at, len);
			else
				vgpu_bmap_clear_range(w, at, len);
		}
		ref = vgpu_bmap_run_naive(w, nbits);
		ASSERT_EQ(ref, vgpu_bmap_run_exact(w, nbits))
			TH_LOG("map %u width %u", n, nbits);
		ASSERT_EQ(ref, vgpu_bmap_run_doubling(w, nbits));
	}
}

/* The shared-memory maps are wider than 256 units: the doubling path. */
TEST(wide_maps_vs_reference)
{
	struct vgpu_test_rng r = { 0x5eed0002 };
	u64 w[VGPU_BMAP_WORDS];
	u32 n, nbits, ref, len;
	int want;

	for (n = 0; n < VGPU_TEST_SCALE(20000, 1000); n++) {
		nbits = 1 + vgpu_test_below(&r, VGPU_BMAP_MAX_BITS);
		vgpu_test_map(&r, w, nbits);
		ref = vgpu_bmap_run_naive(w, nbits);
		ASSERT_EQ(ref, vgpu_bmap_run_exact(w, nbits));
		ASSERT_EQ(ref, vgpu_bmap_run_ctz(w, nbits));
		len = vgpu_test_below(&r, ref + 3);
		want = vgpu_test_find_naive(w, nbits, len);
		ASSERT_EQ(want < 0 ? -ENOSPC : want,
			  vgpu_bmap_find_run(w, nbits, len));
		ASSERT_EQ(want < 0 ? -ENOSPC : want,
			  vgpu_bmap_find_run_ctz(w, nbits, len));
	}
}

/* the mux searches' working maps (static: big for a kernel stack) */
static struct vgpu_bmap_mux_scratch vgpu_test_mux_scratch;

/* F43: mux fields against per-field bit loops; no leaks across borders. */
TEST(mux_vs_reference)
{
	struct vgpu_test_rng r = { 0x5eed0003 };
	u32 widths[VGPU_BMAP_MUX_MAX_FIELDS], runs[VGPU_BMAP_MUX_MAX_FIELDS];
	u32 ref[VGPU_BMAP_MUX_MAX_FIELDS], n, nbits, nf, f, left;
	struct vgpu_bmap_mux m;
	u64 w[VGPU_BMAP_WORDS];

	for (n = 0; n < NMAPS; n++) {
		/* one word in 16 as wide as an SM's shared memory map */
		nbits = 1 + vgpu_test_below(&r, n % 16 ? 256 :
					    VGPU_BMAP_MUX_MAX_BITS);
		nf = 1 + vgpu_test_below(&r, min(nbits,
						 (u32)VGPU_BMAP_MUX_MAX_FIELDS));
		left = nbits;
		for (f = 0; f < nf; f++) {
			widths[f] = 1 + vgpu_test_below(&r,
							left - (nf - f - 1));
			left -= widths[f];
		}
		ASSERT_EQ(0, vgpu_bmap_mux_init(&m, nbits, widths, nf));
		vgpu_test_map(&r, w, nbits);
		vgpu_bmap_run_mux(w, &m, runs, &vgpu_test_mux_scratch);
		vgpu_bmap_run_mux_naive(w, &m, ref);
		for (f = 0; f < nf; f++)
			ASSERT_EQ(ref[f], runs[f])
				TH_LOG("map %u width %u field %u/%u", n, nbits,
				       f, nf);
	}
}

/* F43: the seed's packing, 64 + 48 bits in one 128-bit unit. */
TEST(mux_fields_do_not_leak)
{
	static const u32 widths[] = { 64, 48 };
	struct vgpu_bmap_mux m;
	u64 w[2];
	u32 runs[2];

	ASSERT_EQ(0, vgpu_bmap_mux_init(&m, 128, widths, 2));
	/* top 10 bits of field 0 and low 10 bits of field 1 free */
	w[0] = 0x3ffULL << 54;
	w[1] = 0x3ff;
	vgpu_bmap_run_mux(w, &m, runs, &vgpu_test_mux_scratch);
	EXPECT_EQ(10, runs[0]);
	EXPECT_EQ(10, runs[1]);
	EXPECT_EQ(20, vgpu_bmap_run_exact(w, 128));
	/* bits above the last field are not part of any field */
	w[0] = 0;
	w[1] = ~0ULL << 48;
	vgpu_bmap_run_mux(w, &m, runs, &vgpu_test_mux_scratch);
	EXPECT_EQ(0, runs[0]);
	EXPECT_EQ(0, runs[1]);
	EXPECT_EQ(-EINVAL, vgpu_bmap_mux_init(&m, 100, widths, 2));
}

TEST(samples_check)
{
	struct vgpu_bmap_samples s = { .n = 4, .k = { 1, 2, 4, 8 } };

	EXPECT_EQ(0, vgpu_bmap_samples_check(&s));
	s.k[3] = 5;	/* gap 1 after gap 2 */
	EXPECT_EQ(-EINVAL, vgpu_bmap_samples_check(&s));
	s.k[3] = 4;
	EXPECT_EQ(-EINVAL, vgpu_bmap_samples_check(&s));
	s.n = 0;
	EXPECT_EQ(-EINVAL, vgpu_bmap_samples_check(&s));
}

/*
 * F41, seed 001: 128 random bits, p = 1/2 free, groups of 4, need 4.
 * P(nofit) on one unit = (15/16)^32 ~ 0.127; on 4 units (any of 4 fails)
 * ~ 0.418.  Monte Carlo over 250,000 trials of 4 units (1,000,000 maps, each
 * also checked against the reference fold), tolerance 0.01.
 */
#ifndef __KERNEL__
TEST(seed001_monte_carlo)
{
	struct vgpu_test_rng r = { 0x5eed0001 };
	u32 n, trials = 250000, u, fail1 = 0, fail4 = 0, got;
	u64 w[2];
	bool any;

	for (n = 0; n < trials; n++) {
		any = false;
		for (u = 0; u < 4; u++) {
			w[0] = vgpu_test_rand64(&r);
			w[1] = vgpu_test_rand64(&r);
			got = vgpu_bmap_run_grouped(w, 128, 32);
			ASSERT_EQ(vgpu_test_grouped_naive(w, 128, 32), got);
			if (got < 4) {
				any = true;
				if (!u)
					fail1++;
			}
		}
		fail4 += any;
	}
	TH_LOG("P(nofit) one unit %.4f, four units %.4f",
	       (double)fail1 / trials, (double)fail4 / trials);
	EXPECT_LT(fabs((double)fail1 / trials - 0.127), 0.01);
	EXPECT_LT(fabs((double)fail4 / trials - 0.418), 0.01);
}
#endif

/*
 * F43, seed 001 [0212]: resources of 128, 64 and 48 blocks on a 128-bit
 * shared unit take two periods, the first alone, the other two together
 * (112 <= 128); each map's largest run is what a bit loop finds.  A = 256
 * takes one period; a width above A or a zero width is refused.
 */
TEST(periods_seed_example)
{
	static const u32 widths[3] = { 128, 64, 48 };
	u64 m0[2], m1[1], m2[1];
	const u64 *maps[3] = { m0, m1, m2 };
	VGPU_TEST_BIG struct vgpu_bmap_periods p;
	u32 runs[3], i, r, bad[1] = { 129 }, zero[2] = { 8, 0 };
	struct vgpu_test_rng rng = { .s = 43 };

	ASSERT_EQ(0, vgpu_bmap_periods_init(&p, 128, widths, 3));
	EXPECT_EQ(2, p.nperiods);
	EXPECT_EQ(0, p.period[0]);
	EXPECT_EQ(1, p.period[1]);
	EXPECT_EQ(1, p.period[2]);
	EXPECT_EQ(1, p.mux[0].nfields);
	EXPECT_EQ(2, p.mux[1].nfields);
	EXPECT_EQ(64, p.mux[1].lo[1]);
	for (i = 0; i < 2000; i++) {
		m0[0] = vgpu_test_rand64(&rng) | vgpu_test_rand64(&rng);
		m0[1] = vgpu_test_rand64(&rng) | vgpu_test_rand64(&rng);
		m1[0] = i % 7 ? vgpu_test_rand64(&rng) | vgpu_test_rand64(&rng) : ~0ULL;
		m2[0] = (vgpu_test_rand64(&rng) | vgpu_test_rand64(&rng)) &
			GENMASK_ULL(47, 0);
		if (i % 5 == 0)
			m2[0] = GENMASK_ULL(47, 0);
		vgpu_bmap_run_periods(&p, maps, runs, &vgpu_test_mux_scratch);
		for (r = 0; r < 3; r++)
			ASSERT_EQ(vgpu_bmap_run_naive(maps[r], widths[r]), runs[r])
				TH_LOG("map %u round %u", r, i);
	}
	/* groups that do not start on a word: 48 + 64 + 16 in one period */
	{
		static const u32 w2[3] = { 48, 64, 16 };
		const u64 *maps2[3] = { m2, m1, m0 };

		ASSERT_EQ(0, vgpu_bmap_periods_init(&p, 128, w2, 3));
		EXPECT_EQ(1, p.nperiods);
		for (i = 0; i < 2000; i++) {
			m2[0] = vgpu_test_rand64(&rng) & GENMASK_ULL(47, 0);
			m1[0] = vgpu_test_rand64(&rng) | vgpu_test_rand64(&rng);
			m0[0] = vgpu_test_rand64(&rng) & GENMASK_ULL(15, 0);
			if (i % 3 == 0)
				m1[0] = ~0ULL;
			vgpu_bmap_run_periods(&p, maps2, runs, &vgpu_test_mux_scratch);
			for (r = 0; r < 3; r++)
				ASSERT_EQ(vgpu_bmap_run_naive(maps2[r], w2[r]),
					  runs[r]) TH_LOG("map %u round %u", r, i);
		}
	}
	ASSERT_EQ(0, vgpu_bmap_periods_init(&p, 256, widths, 3));
	EXPECT_EQ(1, p.nperiods);
	EXPECT_EQ(-EINVAL, vgpu_bmap_periods_init(&p, 128, bad, 1));
	EXPECT_EQ(-EINVAL, vgpu_bmap_periods_init(&p, 128, zero, 2));
	EXPECT_EQ(-EINVAL, vgpu_bmap_periods_init(&p, VGPU_BMAP_MUX_MAX_BITS + 1,
						  widths, 3));
}

VGPU_TEST_SUITE(bmap,
	VGPU_CASE(ranges)
	VGPU_CASE(random_maps_vs_reference)
	VGPU_CASE(every_run_in_registers)
	VGPU_CASE(wide_maps_vs_reference)
	VGPU_CASE(wide_long_runs_vs_reference)
	VGPU_CASE(mux_vs_reference)
	VGPU_CASE(mux_fields_do_not_leak)
	VGPU_CASE(samples_check)
	VGPU_NATIVE(seed001_monte_carlo)
	VGPU_CASE(periods_seed_example))
