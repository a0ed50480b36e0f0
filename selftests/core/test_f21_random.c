// SPDX-License-Identifier: GPL-2.0
/*
 * F21's random pick (seed 001 [0056]-[0058]): among the candidates of
 * the top priority whose channel has no flag for it, one is chosen at
 * random, and when every channel has its flag, one of all of them; the
 * device's generator (struct rnd_state, seeded with
 * &vgpu_gpu_params.seed) keeps runs reproducible.  Natively the
 * generator is the shim's twin of the kernel's prandom_u32_state(); in
 * KUnit the kernel's own: the known answers below hold for both.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

/*
 * The generator is the combined Tausworthe generator taus113: the
 * answers of lib/random32.c's self-test (CONFIG_RANDOM32_SELFTEST, taken
 * from the GSL's taus113): the state seeded from @seed by the LCG
 * x * 69069, ten warm-up draws, then the @iter-th draw.
 */
static const struct {
	u32 seed, iter, result;
} vgpu_taus_answers[] = {
	{ 1, 1, 3484351685U },
	{ 2, 1, 2623130059U },
	{ 4, 1, 984847254U },
	{ 931557656U, 959, 2975593782U },
	{ 1339693295U, 876, 3887776532U },
	{ 407983964U, 921, 728767059U },
};

static u32 vgpu_taus_min(u32 x, u32 m)
{
	return x < m ? x + m : x;
}

TEST(taus113_known_answers)
{
	struct rnd_state s;
	u32 i, j, r = 0;

	for (i = 0; i < ARRAY_SIZE(vgpu_taus_answers); i++) {
		s.s1 = vgpu_taus_min(vgpu_taus_answers[i].seed * 69069U, 2);
		s.s2 = vgpu_taus_min(s.s1 * 69069U, 8);
		s.s3 = vgpu_taus_min(s.s2 * 69069U, 16);
		s.s4 = vgpu_taus_min(s.s3 * 69069U, 128);
		for (j = 0; j < 10; j++)
			prandom_u32_state(&s);
		for (j = 0; j < vgpu_taus_answers[i].iter; j++)
			r = prandom_u32_state(&s);
		EXPECT_EQ(vgpu_taus_answers[i].result, r) TH_LOG("answer %u", i);
	}
	/* seed 1: (1 >> 32) ^ (1 << 10) ^ 1 = 1025, above every bound */
	prandom_seed_state(&s, 1);
	EXPECT_EQ(1025, s.s1);
	EXPECT_EQ(1025, s.s2);
	EXPECT_EQ(1025, s.s3);
	EXPECT_EQ(1025, s.s4);
	/* seed 0: 0, each component raised to its bound */
	prandom_seed_state(&s, 0);
	EXPECT_EQ(2, s.s1);
	EXPECT_EQ(8, s.s2);
	EXPECT_EQ(16, s.s3);
	EXPECT_EQ(128, s.s4);
}

/*
 * The channels of the first @n decisions of T (blocks of one kernel on
 * one SM at one cycle are one decision) into @ch; returns how many.
 */
static u32 vgpu_f21_decisions(const struct vgpu_gpu_kernel *const *k,
			      u32 nk, u32 *ch, u32 n)
{
	u32 got = 0, j;
	size_t i, last = 0;

	for (i = 0; i < T.nev && got < n; i++) {
		if (T.ev[i].type != VGPU_GEV_DISPATCH)
			continue;
		if (got && T.ev[i].kernel == T.ev[last].kernel &&
		    T.ev[i].sm == T.ev[last].sm &&
		    T.ev[i].cycle == T.ev[last].cycle)
			continue;
		for (j = 0; j < nk; j++)
			if (k[j]->args.id == T.ev[i].kernel)
				ch[got++] = k[j]->args.channel;
		last = i;
	}
	return got;
}

/*
 * Three kernels of one priority on channels 0, 1 and 2 enter the task
 * table at the same boundary, each with 8 blocks of 1,024 threads (two a
 * decision, one SM): the seeds' order leaves them equal, so F21 decides.
 * Into @ch the channels of the first @n decisions under seed @seed.
 */
static u32 vgpu_f21_run(u32 seed, u32 *ch, u32 n)
{
	struct vgpu_gpu_kernel *k[3];
	struct vgpu_gpu_params p;
	u32 i, got;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.seed = seed;
	if (vgpu_tg_init(&T, NULL, &p))
		return 0;
	for (i = 0; i < 3; i++)
		k[i] = vgpu_tg_kernel(&T, i, 2, 8, 1024, 0, VGPU_LONG);
	for (i = 0; i < 3; i++)
		if (vgpu_gpu_submit(&T.g, k[i]))
			return 0;
	vgpu_tg_step(&T);
	got = vgpu_f21_decisions((const struct vgpu_gpu_kernel *const *)k, 3,
				 ch, n);
	vgpu_tg_fini(&T);
	return got;
}

/*
 * [0057]: while a channel without its flag is left, the pick is among
 * those: the first three decisions are the three channels in some order,
 * for every seed.  At random: over 48 seeds each channel comes first
 * about 16 times (at least 8 here; the deterministic pick gave channel 0
 * all 48).  [0058]: with every flag set the fourth is among all three,
 * and it too takes each channel under some seed.
 */
TEST(f21_pick_is_random_among_unflagged)
{
	u32 first[3] = { 0 }, fourth[3] = { 0 }, seed, ch[4], c;

	for (seed = 0; seed < 48; seed++) {
		ASSERT_EQ(4, vgpu_f21_run(seed, ch, 4)) TH_LOG("seed %u", seed);
		ASSERT_LT(ch[0], 3);
		ASSERT_LT(ch[3], 3);
		EXPECT_TRUE(ch[0] != ch[1] && ch[1] != ch[2] && ch[0] != ch[2])
			TH_LOG("seed %u: %u %u %u", seed, ch[0], ch[1], ch[2]);
		first[ch[0]]++;
		fourth[ch[3]]++;
	}
	for (c = 0; c < 3; c++) {
		EXPECT_LE(8, first[c]) TH_LOG("channel %u first %u times", c,
					      first[c]);
		EXPECT_LT(0, fourth[c]) TH_LOG("channel %u fourth %u times", c,
					       fourth[c]);
	}
}

/*
 * The seed makes the run: the same seed gives the same decisions, and
 * another seed, for some of seeds 1..8, other ones.
 */
TEST(f21_seed_makes_the_run)
{
	u32 a[4], b[4], seed, differ = 0;

	ASSERT_EQ(4, vgpu_f21_run(7, a, 4));
	ASSERT_EQ(4, vgpu_f21_run(7, b, 4));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	for (seed = 1; seed <= 8; seed++) {
		if (seed == 7)
			continue;
		ASSERT_EQ(4, vgpu_f21_run(seed, b, 4));
		differ += !!memcmp(a, b, sizeof(a));
	}
	EXPECT_LT(0, differ);
}

/*
 * Kernels of one channel keep their order: two kernels of channel 0 of
 * one priority entered at the same boundary, the first submitted goes
 * first under every seed (the random order is between channels).
 */
TEST(f21_one_channel_keeps_its_order)
{
	struct vgpu_gpu_kernel *a, *b;
	struct vgpu_gpu_params p;
	const struct vgpu_event *ea, *eb;
	u32 seed;

	for (seed = 0; seed < 8; seed++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.seed = seed;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 2, 8, 1024, 0, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 0, 2, 8, 1024, 0, VGPU_LONG);
		b->args.flags |= VGPU_KF_INDEPENDENT;
		a->args.flags |= VGPU_KF_INDEPENDENT;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ea = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 0);
		eb = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0);
		ASSERT_NE(NULL, ea);
		ASSERT_NE(NULL, eb);
		EXPECT_LT(ea, eb) TH_LOG("seed %u", seed);
		vgpu_tg_fini(&T);
	}
}

VGPU_TEST_SUITE(f21_random,
	VGPU_CASE(taus113_known_answers)
	VGPU_CASE(f21_pick_is_random_among_unflagged)
	VGPU_CASE(f21_seed_makes_the_run)
	VGPU_CASE(f21_one_channel_keeps_its_order))
