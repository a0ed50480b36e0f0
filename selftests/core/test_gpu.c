// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario tests of the global controller (driver/core/gpu.c, table.c,
 * place.c, policy_default.c, policy.c): one exact expected outcome (which
 * kernel, which SM, which cycle) per F-number of the global controller -
 * F11, F12/F20, F13, F21, F22, F23 (a, b, c in both preemption modes and the
 * barrier rule), F24, F25, F26, F27 - plus F51 layout independence and the
 * F67 metric check value.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"
#include "gpu_config.h"
#include "names.h"
#include <vgpu/metrics.h>

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"
#define VGPU_SPIN	"SPIN\nEXIT\n"

/* F11: kernels of one channel start in submission order. */
TEST(f11_channel_fifo)
{
	struct vgpu_gpu_kernel *a, *b;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	a = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	/* b has the higher priority but waits behind a in the FIFO */
	EXPECT_EQ(0, a->t.dispatch);
	EXPECT_EQ(64, b->t.dispatch);
	EXPECT_EQ(VGPU_KS_DONE, a->state);
	EXPECT_EQ(VGPU_KS_DONE, b->state);
	vgpu_tg_fini(&T);
}

/*
 * F12 / F20: a big high-priority kernel that fits nowhere does not block
 * a small low-priority one.
 */
/* Parameter bounds: the largest value of each is taken, one more refused. */
TEST(params_bounds)
{
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	const char *bad;
	u32 i;
	struct {
		const char *name;
		u32 *field;
		u32 max;
	} f[] = {
		{ "preempt", &p.preempt, VGPU_PREEMPT_SWITCH },
		{ "pack", &p.pack, VGPU_PACK_SM },
		{ "epoch", &p.epoch, VGPU_GPU_MAX_EPOCH },
		{ "task_slots", &p.task_slots, VGPU_GPU_MAX_SLOTS },
		{ "max_channels", &p.max_channels, VGPU_GPU_MAX_CHANNELS },
		{ "throttle_sms", &p.throttle_sms, 4 },
		{ "save_slots", &p.save_slots, 4 * VGPU_MAX_SMS },
		{ "switch_cost", &p.switch_cost, VGPU_MAX_LATENCY },
		{ "sync_cost", &p.sync_cost, VGPU_MAX_LATENCY },
	};

	ASSERT_EQ(0, vgpu_config_preset(&cfg, "small"));
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		vgpu_gpu_params_default(&p, &cfg);
		p.num_windows = 0;
		*f[i].field = f[i].max;
		bad = NULL;
		EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad))
			TH_LOG("%s = %u", f[i].name, f[i].max);
		EXPECT_EQ(NULL, bad);
		*f[i].field = f[i].max + 1;
		EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad))
			TH_LOG("%s = %u", f[i].name, f[i].max + 1);
		ASSERT_NE(NULL, bad);
		EXPECT_STREQ(f[i].name, bad);
	}
	/* windows: at most num_prios, none longer than an epoch may be */
	vgpu_gpu_params_default(&p, &cfg);
	p.num_windows = cfg.num_prios;
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	p.num_windows = cfg.num_prios + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("windows", bad);
	/* a_h and the emulated energies of every resource (F25) */
	for (i = 0; i < ARRAY_SIZE(p.res_weight); i++) {
		vgpu_gpu_params_default(&p, &cfg);
		p.res_weight[i] = VGPU_POWER_WEIGHT_MAX;
		p.res_energy[i] = VGPU_MAX_ENERGY;
		EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
		p.res_weight[i] = VGPU_POWER_WEIGHT_MAX + 1;
		EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
		EXPECT_STREQ("res_weight", bad);
		p.res_weight[i] = 0;
		p.res_energy[i] = VGPU_MAX_ENERGY + 1;
		EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
		EXPECT_STREQ("res_energy", bad);
	}
}

/*
 * The device's memory must be line-aligned (its SMs' state is laid out
 * in cache lines): a base off by 8 bytes is refused, nothing is laid out;
 * the aligned base works.
 */
TEST(mem_line_aligned)
{
	VGPU_TEST_BIG struct vgpu_gpu g;
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	struct list_head pol;
	size_t size;
	char *mem;

	ASSERT_EQ(0, vgpu_config_preset(&cfg, "small"));
	vgpu_gpu_params_default(&p, &cfg);
	vgpu_policy_registry_init(&pol);
	size = vgpu_gpu_mem_size(&cfg, &p);
	mem = aligned_alloc(VGPU_CACHE_LINE, size + VGPU_CACHE_LINE);
	ASSERT_NE(NULL, mem);
	EXPECT_EQ(-EINVAL, vgpu_gpu_init(&g, mem + 8, size, &cfg, &p, &pol));
	EXPECT_EQ(-EINVAL, vgpu_gpu_init(&g, mem + VGPU_CACHE_LINE / 2, size,
					 &cfg, &p, &pol));
	ASSERT_EQ(0, vgpu_gpu_init(&g, mem, size, &cfg, &p, &pol));
	EXPECT_EQ(0, vgpu_gpu_channel_add(&g, 0, 0));
	EXPECT_TRUE(vgpu_gpu_idle(&g));
	vgpu_gpu_fini(&g);
	free(mem);
}

/* The one name table (names.c): each mode's name and back, and "?". */
TEST(mode_names)
{
	static const char *const pre[] = { "drain", "warp", "switch" };
	static const char *const pack[] = { "auto", "block", "sm" };
	static const char *const search[] = { "exact", "grouped", "sampled" };
	u32 i;

	for (i = 0; i < 3; i++) {
		EXPECT_STREQ(pre[i], vgpu_mode_name(VGPU_MODE_PREEMPT, i));
		EXPECT_EQ((int)i, vgpu_mode_parse(VGPU_MODE_PREEMPT, pre[i]));
		EXPECT_STREQ(pack[i], vgpu_mode_name(VGPU_MODE_PACK, i));
		EXPECT_EQ((int)i, vgpu_mode_parse(VGPU_MODE_PACK, pack[i]));
		EXPECT_STREQ(search[i], vgpu_mode_name(VGPU_MODE_SEARCH, i));
		EXPECT_EQ((int)i, vgpu_mode_parse(VGPU_MODE_SEARCH, search[i]));
	}
	EXPECT_EQ(VGPU_PREEMPT_SWITCH, vgpu_mode_parse(VGPU_MODE_PREEMPT, "switch"));
	EXPECT_EQ(VGPU_PACK_SM, vgpu_mode_parse(VGPU_MODE_PACK, "sm"));
	EXPECT_EQ(VGPU_SEARCH_SAMPLED, vgpu_mode_parse(VGPU_MODE_SEARCH, "sampled"));
	EXPECT_STREQ("?", vgpu_mode_name(VGPU_MODE_PREEMPT, 3));
	EXPECT_STREQ("?", vgpu_mode_name(VGPU_MODE_PACK, 3));
	EXPECT_STREQ("mux", vgpu_mode_name(VGPU_MODE_SEARCH, 3));
	EXPECT_EQ(VGPU_SEARCH_MUX, vgpu_mode_parse(VGPU_MODE_SEARCH, "mux"));
	EXPECT_STREQ("?", vgpu_mode_name(VGPU_MODE_SEARCH, 4));
	EXPECT_EQ(-EINVAL, vgpu_mode_parse(VGPU_MODE_PREEMPT, "Warp"));
	EXPECT_EQ(-EINVAL, vgpu_mode_parse(VGPU_MODE_PACK, ""));
	EXPECT_EQ(-EINVAL, vgpu_mode_parse(VGPU_MODE_SEARCH, "exactly"));
	/* a name of one kind is not a name of another */
	EXPECT_EQ(-EINVAL, vgpu_mode_parse(VGPU_MODE_PACK, "warp"));
	EXPECT_STREQ("?", vgpu_mode_name(VGPU_MODE_KINDS, 0));
	EXPECT_EQ(-EINVAL, vgpu_mode_parse(VGPU_MODE_KINDS, "drain"));
}

/* Every controller event type has its own name, the last one too. */
TEST(event_names)
{
	u32 t, u;

	for (t = VGPU_GEV_SUBMIT; t <= VGPU_GEV_MAX; t++) {
		ASSERT_NE(NULL, vgpu_gpu_event_name(t));
		for (u = VGPU_GEV_SUBMIT; u < t; u++)
			EXPECT_STRNE(vgpu_gpu_event_name(u),
				     vgpu_gpu_event_name(t));
	}
	EXPECT_STREQ("submit", vgpu_gpu_event_name(VGPU_GEV_SUBMIT));
	EXPECT_STREQ("coalesce", vgpu_gpu_event_name(VGPU_GEV_COALESCE));
	EXPECT_STREQ(vgpu_event_name(VGPU_EV_BLOCK_DONE),
		     vgpu_gpu_event_name(VGPU_EV_BLOCK_DONE));
}

TEST(f20_big_high_does_not_block)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog, *big, *small;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	hog = vgpu_tg_kernel(&T, 0, 1, 4, 32, 0, VGPU_SPIN);
	hog->args.smem = 100 * 1024;		/* one per SM, 63 KiB left */
	big = vgpu_tg_kernel(&T, 1, 0, 1, 32, 128, VGPU_SHORT);
	big->args.smem = 100 * 1024;
	small = vgpu_tg_kernel(&T, 2, 3, 1, 32, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, big));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, small));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(128, small->t.dispatch);
	EXPECT_EQ(VGPU_KS_DONE, small->state);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, big->t.dispatch);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, hog));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_DONE, big->state);
	EXPECT_EQ(1024, big->t.dispatch);
	vgpu_tg_fini(&T);
}

/*
 * F13: with one task slot, a higher-priority kernel evicts the occupant,
 * which stops issuing blocks, returns to the waiting list, resumes later
 * and completes.
 */
TEST(f13_evict_and_resume)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *low, *high;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 1;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	/* 4 SMs x 2 blocks of 32 warps resident; 16 blocks in all */
	low = vgpu_tg_kernel(&T, 0, 3, 16, 1024, 0, VGPU_LONG);
	high = vgpu_tg_kernel(&T, 1, 0, 1, 32, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	ev = vgpu_tg_find(&T, VGPU_GEV_EVICT, low->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(64, ev->cycle);
	EXPECT_EQ(high->args.id, ev->arg1);
	EXPECT_EQ(1, T.g.stats.evictions);
	EXPECT_EQ(VGPU_KS_DONE, high->state);
	EXPECT_EQ(VGPU_KS_DONE, low->state);
	EXPECT_EQ(16, low->done_units);
	EXPECT_LT(high->t.end, low->t.end);
	/* low was re-admitted after high left the table */
	EXPECT_NE(NULL, vgpu_tg_find(&T, VGPU_GEV_ADMIT, low->args.id, 1));
	vgpu_tg_fini(&T);
}

/*
 * F13, seed 002: an eviction is a deallocation request.  The victim stops
 * issuing at once, but its slot is free only when the SMs have
 * acknowledged the request, at the next boundary: the kernel that evicted
 * it enters the table at 192, not at 128.  The victim is the youngest in
 * the table by time of entry (step 432), not by arrival: A (priority 3)
 * entered at 0; B (priority 3, VGPU_KF_HEAD, so ahead of A in arrival
 * order, F16) entered at 64; H (priority 0) arrives at 128 with both
 * slots taken and evicts B.
 */
TEST(f13_eviction_waits_for_acknowledgment)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b, *h;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 2;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	/* two blocks of each spin on its SM, the third waits: undispatched */
	a = vgpu_tg_kernel(&T, 0, 3, 3, 1024, 0, VGPU_SPIN);
	b = vgpu_tg_kernel(&T, 1, 3, 3, 1024, 32, VGPU_SPIN);
	b->args.flags |= VGPU_KF_HEAD;
	h = vgpu_tg_kernel(&T, 2, 0, 1, 32, 128, VGPU_SHORT);
	a->args.affinity[0] = 1;
	b->args.affinity[0] = 2;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	vgpu_tg_until(&T, 1024);
	ev = vgpu_tg_find(&T, VGPU_GEV_ADMIT, b->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(64, ev->cycle);
	ev = vgpu_tg_find(&T, VGPU_GEV_EVICT, b->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	EXPECT_EQ(h->args.id, ev->arg1);
	EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_EVICT, a->args.id, 0));
	ev = vgpu_tg_find(&T, VGPU_GEV_ADMIT, h->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(192, ev->cycle);
	EXPECT_EQ(192, h->t.dispatch);
	EXPECT_EQ(1, T.g.stats.evictions);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_gpu_cancel(&T.g, b);
	vgpu_tg_fini(&T);
}

/*
 * F13 with several slots and mixed priorities: three slots hold kernels of
 * priorities 1, 3 and 2 (each with blocks left: 16 whole-SM-half blocks,
 * 8 resident at a time), a priority-0 kernel arrives at 64 with the table
 * full.  It takes the slot of the occupant last in the waiting order, the
 * priority-3 one; the others keep theirs.
 */
TEST(f13_evict_lowest_of_several)
{
	static const u32 prios[] = { 1, 3, 2 };
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *o[3], *w;
	const struct vgpu_event *ev;
	u32 i, n = 0;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 3;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 0; i < 3; i++) {
		o[i] = vgpu_tg_kernel(&T, i, prios[i], 16, 1024, 0, VGPU_LONG);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, o[i]));
	}
	w = vgpu_tg_kernel(&T, 3, 0, 1, 32, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, w));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
	for (i = 0; i < T.nev; i++)
		if (T.ev[i].type == VGPU_GEV_EVICT && T.ev[i].cycle == 64)
			n++;
	EXPECT_EQ(1, n);
	ev = vgpu_tg_find(&T, VGPU_GEV_EVICT, o[1]->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(64, ev->cycle);
	EXPECT_EQ(w->args.id, ev->arg1);
	EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_EVICT, o[0]->args.id, 0));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(VGPU_KS_DONE, o[i]->state);
	vgpu_tg_fini(&T);
}

/*
 * F20 with a full task table (seed 001 embodiment 1 composed with seed
 * 000's table, F13): 8 slots.  hog (priority 0) holds 32 of the 64 warp
 * slots and half the registers of every SM until about cycle 60,000;
 * eight priority-0 BAR kernels of whole-SM blocks (every register),
 * arriving at 64, fill the table and fit nowhere (a BAR block is never
 * placed warp by warp, F23); a priority-3 kernel of 20 eight-warp blocks
 * in a tenth channel arrives at 128.  Seed 001 matches every channel's
 * waiting kernel, and only the small one matches: it starts at 128, in
 * the slot of an occupant that failed to match and holds nothing on the
 * SMs (16 of its blocks fit beside hog; it keeps the slot for the other
 * 4, and the occupant it displaced, of higher priority, does not evict
 * it back before some block ends).
 */
TEST(f20_full_table_waiting_head_matches)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog, *big[8], *small;
	const struct vgpu_event *ev;
	u32 i, n;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 8;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 8; i < 10; i++)
		vgpu_gpu_channel_add(&T.g, i, 0);
	hog = vgpu_tg_kernel(&T, 0, 0, 4, 1024, 0,
			     "LOOP 60000\nALU\nENDLOOP\nEXIT\n");
	hog->args.smem = 100 * 1024;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	for (i = 0; i < 8; i++) {
		big[i] = vgpu_tg_kernel(&T, 1 + i, 0, 1, 1024, 64,
					"LOOP 10\nALU\nBAR\nENDLOOP\nEXIT\n");
		big[i]->args.regs = 64;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, big[i]));
	}
	small = vgpu_tg_kernel(&T, 9, 3, 20, 256, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, small));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
	EXPECT_EQ(4, vgpu_tg_count(&T, VGPU_GEV_DISPATCH, hog->args.id));
	EXPECT_EQ(128, small->t.dispatch);
	for (ev = NULL, i = 0; i < T.nev && !ev; i++)
		if (T.ev[i].type == VGPU_GEV_EVICT)
			ev = &T.ev[i];
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	EXPECT_EQ(small->args.id, ev->arg1);
	/* the displaced one does not take the slot back before a block ends */
	for (n = 0, i = 0; i < T.nev; i++)
		if (T.ev[i].type == VGPU_GEV_EVICT && T.ev[i].cycle < hog->t.end)
			n++;
	EXPECT_EQ(1, n);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(VGPU_KS_DONE, big[i]->state);
		EXPECT_LT(small->t.dispatch, big[i]->t.dispatch);
	}
	vgpu_tg_fini(&T);
}

/*
 * The kernels of the first @n decisions in T's events into @seq (a
 * decision places two blocks on one SM: the second is skipped); returns
 * how many were found.
 */
static u32 vgpu_tg_decisions(u32 *seq, u32 n)
{
	u32 k = 0;
	size_t i;

	for (i = 0; i < T.nev && k < n; i++) {
		if (T.ev[i].type != VGPU_GEV_DISPATCH)
			continue;
		if (i + 1 < T.nev && T.ev[i + 1].type == VGPU_GEV_DISPATCH &&
		    T.ev[i + 1].sm == T.ev[i].sm)
			i++;
		seq[k++] = T.ev[i].kernel;
	}
	return k;
}

/*
 * F21: equal-priority channels take turns through the selected flags.
 * The first pick is at random; the second is the other channel (the
 * only one without its flag, [0057]); the third, with both flags set, is
 * at random again and clears the other's flag ([0058]), so the fourth is
 * the other one again: for every seed, decisions 1 and 2 differ and so do
 * 3 and 4.  Without the clearing the fourth is at random too (under some
 * of the 8 seeds the third's channel again).
 */
TEST(f21_fairness_flags)
{
	struct vgpu_gpu_kernel *a, *b;
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	u32 seq[4], seed;

	vgpu_config_preset(&cfg, "small");
	for (seed = 0; seed < 8; seed++) {
		vgpu_gpu_params_default(&p, &cfg);
		p.seed = seed;
		ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, &p));
		a = vgpu_tg_kernel(&T, 0, 2, 8, 1024, 0, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 1, 2, 8, 1024, 0, VGPU_LONG);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		vgpu_tg_step(&T);
		ASSERT_EQ(4, vgpu_tg_decisions(seq, 4));
		EXPECT_TRUE(seq[0] == a->args.id || seq[0] == b->args.id);
		EXPECT_TRUE(seq[2] == a->args.id || seq[2] == b->args.id);
		EXPECT_NE(seq[0], seq[1]) TH_LOG("seed %u", seed);
		EXPECT_NE(seq[2], seq[3]) TH_LOG("seed %u", seed);
		vgpu_tg_fini(&T);
	}
}

/*
 * The walks over the channels visit the channels that exist (@chan_used):
 * channels beyond the first word of the map (70, 129 of 130) admit their
 * kernels and take part in F21's flags (the same alternation as
 * f21_fairness_flags), and a channel removed and added again is walked
 * again.
 */
TEST(f21_channels_beyond_first_word)
{
	struct vgpu_gpu_kernel *a, *b, *c;
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	u32 seq[4];

	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(&p, &cfg);
	p.max_channels = 130;
	ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, &p));
	ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, 70, 0));
	ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, 129, 0));
	ASSERT_EQ(0, vgpu_gpu_channel_remove(&T.g, 3));
	ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, 3, 0));
	a = vgpu_tg_kernel(&T, 70, 2, 8, 1024, 0, VGPU_LONG);
	b = vgpu_tg_kernel(&T, 129, 2, 8, 1024, 0, VGPU_LONG);
	c = vgpu_tg_kernel(&T, 3, 3, 1, 32, 1000, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
	vgpu_tg_step(&T);
	ASSERT_EQ(4, vgpu_tg_decisions(seq, 4));
	EXPECT_TRUE(seq[0] == a->args.id || seq[0] == b->args.id);
	EXPECT_TRUE(seq[2] == a->args.id || seq[2] == b->args.id);
	EXPECT_NE(seq[0], seq[1]);
	EXPECT_NE(seq[2], seq[3]);
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	EXPECT_EQ(VGPU_KS_DONE, a->state);
	EXPECT_EQ(VGPU_KS_DONE, b->state);
	EXPECT_EQ(VGPU_KS_DONE, c->state);
	vgpu_tg_fini(&T);
}

/*
 * F51: the SMs' events reach the sink in cycle order, whichever SMs had
 * events in an epoch (one buffer alone, or several merged): A on SM 0
 * ends its block after B's on SM 1 in the same epochs.
 */
TEST(f51_sink_in_cycle_order)
{
	struct vgpu_gpu_kernel *a, *b;
	u64 last = 0;
	size_t i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "LOOP 6\nALU\nENDLOOP\nEXIT\n");
	b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, "ALU\nEXIT\n");
	a->args.affinity[0] = 1;
	b->args.affinity[0] = 2;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	ASSERT_NE(NULL, vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, a->args.id, 0));
	ASSERT_NE(NULL, vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, b->args.id, 0));
	EXPECT_LT(vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, b->args.id, 0)->cycle,
		  vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, a->args.id, 0)->cycle);
	for (i = 0; i < T.nev; i++) {
		if (T.ev[i].type > VGPU_EV_MAX)
			continue;
		EXPECT_LE(last, T.ev[i].cycle) TH_LOG("event %zu", i);
		last = T.ev[i].cycle;
	}
	vgpu_tg_fini(&T);
}

/*
 * F21 with a peer that never matches (seed 001 [0056]-[0058]): the flags
 * are judged over the candidates that match.  X (priority 3, a whole SM)
 * holds SM 0; A and B (priority 1, 8 blocks of 32 warps: two per SM) and
 * C (priority 1, confined to SM 0, so it matches nowhere) arrive at 64,
 * in drain mode.  By the seed the matching candidates A and B take turns:
 * the first pick is at random, the second the other; the third, with
 * both flags set, at random and it clears the other's flag, so the
 * fourth is the other one: for every seed decisions 1 and 2 differ and
 * so do 3 and 4.  Flags judged over every equal-priority kernel are never
 * all set (C's stays clear), so once A and B both have theirs the pick
 * is at random every time and under some of the 8 seeds the fourth
 * repeats the third.
 */
TEST(f21_fairness_nonmatching_peer)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *x, *a, *b, *c;
	u32 seq[5], n, seed;
	size_t i, last;

	for (seed = 0; seed < 8; seed++) {
		n = 0;
		last = 0;
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.seed = seed;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		x = vgpu_tg_kernel(&T, 3, 3, 1, 1024, 0, "LOOP 60000\nALU\nENDLOOP\nEXIT\n");
		x->args.regs = 64;
		a = vgpu_tg_kernel(&T, 0, 1, 8, 1024, 64, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 1, 1, 8, 1024, 64, VGPU_LONG);
		c = vgpu_tg_kernel(&T, 2, 1, 1, 32, 64, VGPU_SHORT);
		c->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, x));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		EXPECT_EQ(0, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, x->args.id, 0)->sm);
		/* decisions: blocks of one kernel on one SM at one cycle are one */
		for (i = 0; i < T.nev && n < 5; i++) {
			if (T.ev[i].type != VGPU_GEV_DISPATCH || T.ev[i].kernel == x->args.id)
				continue;
			if (n && T.ev[i].kernel == T.ev[last].kernel &&
			    T.ev[i].sm == T.ev[last].sm &&
			    T.ev[i].cycle == T.ev[last].cycle)
				continue;
			seq[n++] = T.ev[i].kernel;
			last = i;
		}
		ASSERT_EQ(5, n);
		for (i = 0; i < 5; i++)
			EXPECT_TRUE(seq[i] == a->args.id || seq[i] == b->args.id);
		EXPECT_NE(seq[0], seq[1]) TH_LOG("seed %u", seed);
		EXPECT_NE(seq[2], seq[3]) TH_LOG("seed %u", seed);
		EXPECT_EQ(VGPU_KS_DONE, c->state);
		vgpu_tg_fini(&T);
	}
}

/*
 * F26 launch quota with an equal-priority peer: A (quota 1) and B, one
 * priority, blocks of 32 warps, one block a decision.  A goes first (F16)
 * and uses its quota; B goes next and, being an equal-priority peer,
 * restarts A's quota; with both F21 flags set A goes first again (F16);
 * then B: A, B, A, B.  A quota restarted only by peers of another
 * priority would leave A behind B at the third decision: A, B, B, A.
 */
TEST(f26_quota_restarts_on_equal_peer)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;
	u32 seq[4], n = 0;
	size_t i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 1, 4, 1024, 0, VGPU_LONG);
	a->args.quota = 1;
	b = vgpu_tg_kernel(&T, 1, 1, 4, 1024, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_tg_step(&T);
	for (i = 0; i < T.nev && n < 4; i++)
		if (T.ev[i].type == VGPU_GEV_DISPATCH)
			seq[n++] = T.ev[i].kernel;
	ASSERT_EQ(4, n);
	EXPECT_EQ(a->args.id, seq[0]);
	EXPECT_EQ(b->args.id, seq[1]);
	EXPECT_EQ(a->args.id, seq[2]);
	EXPECT_EQ(b->args.id, seq[3]);
	vgpu_tg_fini(&T);
}

/* F22: window Ts promotes priority s exactly during Ts. */
TEST(f22_windows)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hi, *lo;
	u64 c;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.num_windows = 4;
	p.window[0] = 256;
	p.window[1] = 128;
	p.window[2] = 64;
	p.window[3] = 64;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (c = 0; c < 1024; c++) {
		u32 pos = c % 512;
		u32 want = pos < 256 ? 0 : pos < 384 ? 1 : pos < 448 ? 2 : 3;

		ASSERT_EQ(want, vgpu_gpu_window_at(&T.g, c));
		ASSERT_EQ(0, vgpu_gpu_prio_rank(&T.g, c, want));
		ASSERT_EQ(want == 0 ? 0U : 1U, vgpu_gpu_prio_rank(&T.g, c, 0));
	}
	/* both arrive in window T3 (448..511) on one free SM's worth */
	hi = vgpu_tg_kernel(&T, 0, 0, 1, 1024, 448, VGPU_SHORT);
	lo = vgpu_tg_kernel(&T, 1, 3, 1, 1024, 448, VGPU_SHORT);
	hi->args.affinity[0] = 1;
	lo->args.affinity[0] = 1;
	hi->args.smem = 100 * 1024;
	lo->args.smem = 100 * 1024;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hi));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, lo));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(448, lo->t.dispatch);
	EXPECT_LT(lo->t.dispatch, hi->t.dispatch);
	vgpu_tg_fini(&T);
}

/*
 * F25: an affinity mask keeps the SMs that exist (70 here, across a word
 * boundary), an empty one means every SM, and one naming no existing SM
 * is refused.
 */
TEST(f25_affinity_masked_to_existing_sms)
{
	struct vgpu_gpu_kernel *all, *some, *none;
	struct vgpu_config cfg;
	u32 w;

	vgpu_config_preset(&cfg, "small");
	cfg.num_sms = 70;
	ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, NULL));
	all = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	some = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	none = vgpu_tg_kernel(&T, 2, 0, 1, 32, 0, VGPU_SHORT);
	some->args.affinity[0] = 1ULL << 63;
	some->args.affinity[1] = 0xffULL;		/* SMs 64..71: 70, 71 do not exist */
	some->args.affinity[5] = 1;			/* SM 320 does not exist */
	none->args.affinity[1] = 1ULL << 6;		/* SM 70 */
	none->args.affinity[15] = 1ULL << 63;	/* SM 1023 */
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, all));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, some));
	ASSERT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, none));
	EXPECT_EQ(~0ULL, all->args.affinity[0]);
	EXPECT_EQ(0x3fULL, all->args.affinity[1]);
	EXPECT_TRUE(all->aff_all);
	EXPECT_EQ(1ULL << 63, some->args.affinity[0]);
	EXPECT_EQ(0x3fULL, some->args.affinity[1]);
	EXPECT_FALSE(some->aff_all);
	for (w = 2; w < VGPU_GPU_AFF_WORDS; w++) {
		EXPECT_EQ(0ULL, all->args.affinity[w]);
		EXPECT_EQ(0ULL, some->args.affinity[w]);
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_TRUE(vgpu_gpu_kernel_finished(some));
	vgpu_tg_fini(&T);
}

/* Blocks dispatched to SM @sm in T's events. */
static u32 vgpu_tg_dispatches_on(u32 sm)
{
	u32 n = 0;
	size_t i;

	for (i = 0; i < T.nev; i++)
		n += T.ev[i].type == VGPU_GEV_DISPATCH && T.ev[i].sm == sm;
	return n;
}

/*
 * F25 on the largest device (VGPU_MAX_AFFINITY_BITS: 4096 SMs): a mask
 * naming only the last SM places the block there, and the same mask on a
 * device one SM smaller names no SM and is refused.
 */
TEST(f25_affinity_last_of_max_sms)
{
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;

	vgpu_config_preset(&cfg, "small");
	cfg.num_sms = VGPU_MAX_SMS;
	ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
	k->args.affinity[VGPU_GPU_AFF_WORDS - 1] = 1ULL << 63;	/* SM 4095 */
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	EXPECT_FALSE(k->aff_all);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_TRUE(vgpu_gpu_kernel_finished(k));
	EXPECT_EQ(2, vgpu_tg_dispatches_on(VGPU_MAX_SMS - 1));
	EXPECT_EQ(2, vgpu_tg_count(&T, VGPU_GEV_DISPATCH, k->args.id));
	vgpu_tg_fini(&T);

	cfg.num_sms = VGPU_MAX_SMS - 1;
	ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
	k->args.affinity[VGPU_GPU_AFF_WORDS - 1] = 1ULL << 63;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_fini(&T);
}

/*
 * F25: a kernel submitted with no mask (no_affinity, the module's SUBMIT
 * without one) may use every SM whatever @affinity holds: it is neither
 * checked (a stray bit past the device's SMs is not refused) nor read.
 */
TEST(f25_no_affinity_is_every_sm)
{
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;
	u32 i;

	vgpu_config_preset(&cfg, "small");
	ASSERT_EQ(0, vgpu_tg_init(&T, &cfg, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 8, 32, 0, VGPU_SHORT);
	k->args.affinity[VGPU_GPU_AFF_WORDS - 1] = 1;	/* alone: refused */
	k->args.no_affinity = true;
	ASSERT_EQ(0, vgpu_gpu_kernel_check(&T.g.cfg, &T.g.p, k));
	k->args.affinity[0] = BIT_ULL(2);		/* would pin it to SM 2 */
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	EXPECT_TRUE(k->aff_all);
	EXPECT_EQ(BIT_ULL(cfg.num_sms) - 1, k->args.affinity[0]);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_TRUE(vgpu_gpu_kernel_finished(k));
	for (i = 0; i < cfg.num_sms; i++)
		EXPECT_LT(0, vgpu_tg_dispatches_on(i));
	vgpu_tg_fini(&T);
}

/* F23 (a) then (b): whole blocks first, then one warp at a time. */
TEST(f23_block_then_warp)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *fill, *k;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	/* 60 of the 64 warp slots of SM 0 taken by a spinner */
	fill = vgpu_tg_kernel(&T, 0, 0, 2, 960, 0, VGPU_SPIN);
	fill->args.affinity[0] = 1;
	k = vgpu_tg_kernel(&T, 1, 0, 1, 256, 64, VGPU_SHORT);
	k->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, fill));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_until(&T, 2000);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, fill->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(VGPU_PATH_BLOCK, ev->arg0);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(VGPU_PATH_WARP, ev->arg0);
	EXPECT_EQ(0, ev->sm);
	EXPECT_EQ(64, ev->cycle);
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	vgpu_gpu_cancel(&T.g, fill);
	vgpu_tg_fini(&T);
}

/* F23 barrier rule: a BAR kernel is never partially resident. */
TEST(f23_bar_never_partial)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *fill, *bar, *twin;
	u32 mode;

	for (mode = VGPU_PREEMPT_DRAIN; mode <= VGPU_PREEMPT_WARP; mode++) {
		vgpu_tg_params_small(&p, mode);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		fill = vgpu_tg_kernel(&T, 0, 1, 2, 960, 0, VGPU_SPIN);
		fill->args.affinity[0] = 1;
		bar = vgpu_tg_kernel(&T, 1, 0, 1, 256, 64,
				     "ALU\nBAR\nALU\nEXIT\n");
		bar->args.affinity[0] = 1;
		twin = vgpu_tg_kernel(&T, 2, 0, 1, 256, 64, VGPU_SHORT);
		twin->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, fill));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, bar));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, twin));
		vgpu_tg_until(&T, 4096);
		/* the twin without BAR went in by (b) or (c); BAR waits */
		EXPECT_EQ(64, twin->t.dispatch);
		EXPECT_EQ(VGPU_GPU_NO_CYCLE, bar->t.dispatch);
		vgpu_gpu_cancel(&T.g, fill);
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		EXPECT_EQ(VGPU_PATH_BLOCK,
			  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, bar->args.id, 0)->arg0);
		EXPECT_EQ(VGPU_KS_DONE, bar->state);
		vgpu_tg_fini(&T);
	}
}

/* F23 (c), warp mode: the high block goes to a lower-priority SM now. */
TEST(f23_preempt_warp)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *low, *high;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	low = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0,
			     "LOOP 20*(1+wid%32)\nALU\nENDLOOP\nEXIT\n");
	high = vgpu_tg_kernel(&T, 1, 0, 1, 64, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, high->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
	EXPECT_EQ(0, ev->sm);
	EXPECT_TRUE(high->busy_arrival);
	EXPECT_EQ(8, low->done_units);
	vgpu_tg_fini(&T);
}

/* F23 (c), switch mode: a block is saved, freed, restored, completes. */
/*
 * F23 (b), seed 000 claim 4: the first SM has strictly more free hardware
 * warps (and registers, and shared memory) than one warp needs.  Drain
 * mode, everything pinned to SM 0: blocks of 32 and 31 warps leave one
 * warp slot free; a three-warp block arriving at 64 fits neither whole
 * nor, with a single free warp slot, by path (b): it is not dispatched at
 * 64.  With two free slots (a 30-warp block beside the 32) path (b) takes
 * it at 64.
 */
TEST(f23_warp_path_strictly_more_than_a_warp)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b, *k;
	const struct vgpu_event *ev;
	u32 round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 0, 1, 1024, 0,
				   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
		b = vgpu_tg_kernel(&T, 1, 0, 1, round ? 960 : 992, 0,
				   "LOOP 100\nALU\nENDLOOP\nEXIT\n");
		k = vgpu_tg_kernel(&T, 2, 1, 1, 96, 64, VGPU_SHORT);
		a->args.regs = b->args.regs = k->args.regs = 16;
		a->args.affinity[0] = b->args.affinity[0] = k->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 0);
		ASSERT_NE(NULL, ev);
		if (round) {
			EXPECT_EQ(64, ev->cycle);
			EXPECT_EQ(VGPU_PATH_WARP, ev->arg0);
		} else {
			EXPECT_LT(64, ev->cycle);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * F23 (c), seed 000 claim 1: the second SM is one whose highest resident
 * priority is lower than the kernel's.  Four SMs filled by pinned kernels
 * of priorities @tops (two 32-warp blocks each); a one-block priority-1
 * kernel arrives at 128 in warp mode.  With tops 0, 1, 2, 1 only SM 2
 * qualifies (SM 1 and SM 3 are equal, SM 0 higher); with 0, 1, 1, 1 none
 * does and the kernel waits for a block to end.
 */
static void preempt_tops(struct __test_metadata *_metadata, const u32 *tops,
			 u32 want_sm)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *f[4], *k;
	const struct vgpu_event *ev;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 0; i < 4; i++) {
		f[i] = vgpu_tg_kernel(&T, i, tops[i], 2, 1024, 0,
				      "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
		f[i]->args.affinity[0] = BIT_ULL(i);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f[i]));
	}
	k = vgpu_tg_kernel(&T, 4, 1, 1, 64, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(i, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, f[i]->args.id,
					  1)->sm);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 0);
	ASSERT_NE(NULL, ev);
	if (want_sm < 4) {
		EXPECT_EQ(128, ev->cycle);
		EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
		EXPECT_EQ(want_sm, ev->sm);
	} else {
		EXPECT_LT(2000, ev->cycle);
		EXPECT_NE(VGPU_PATH_PREEMPT, ev->arg0);
		EXPECT_EQ(0, T.g.stats.preemptions);
	}
	vgpu_tg_fini(&T);
}

TEST(f23_preempt_only_lower_priority)
{
	static const u32 one_lower[] = { 0, 1, 2, 1 };
	static const u32 none_lower[] = { 0, 1, 1, 1 };

	preempt_tops(_metadata, one_lower, 2);
	preempt_tops(_metadata, none_lower, 4);
}

TEST(f23_preempt_switch)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *low, *high;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_SWITCH);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	low = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0,
			     "LOOP 200\nALU\nBAR\nENDLOOP\nEXIT\n");
	high = vgpu_tg_kernel(&T, 1, 0, 1, 1024, 128,
			      "ALU\nBAR\nALU\nEXIT\n");
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	ev = vgpu_tg_find(&T, VGPU_GEV_PREEMPT, low->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	EXPECT_EQ(high->args.id, ev->arg0);
	EXPECT_EQ(0, ev->sm);
	EXPECT_EQ(128, high->t.dispatch);
	EXPECT_EQ(1, low->preempted);
	EXPECT_EQ(1, T.g.stats.resumes);
	EXPECT_EQ(VGPU_KS_DONE, low->state);
	EXPECT_EQ(8, low->done_units);
	/* every block completed exactly once */
	EXPECT_EQ(8, vgpu_tg_count(&T, VGPU_EV_BLOCK_DONE, low->args.id));
	vgpu_tg_fini(&T);
}

/*
 * F24: an independent kernel whose block fits nowhere for g_max rounds is
 * split into single-warp sub-blocks at the lowest priority.
 */
TEST(f24_split)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog, *ind;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.g_max = 4;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	hog = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0, VGPU_SPIN);
	hog->args.smem = 120 * 1024;
	ind = vgpu_tg_kernel(&T, 1, 1, 2, 256, 64, VGPU_SHORT);
	ind->args.smem = 64 * 1024;		/* 8 KiB per warp once split */
	ind->args.flags = VGPU_KF_INDEPENDENT;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, ind));
	vgpu_tg_until(&T, 4096);
	ev = vgpu_tg_find(&T, VGPU_GEV_SPLIT, ind->args.id, 0);
	ASSERT_NE(NULL, ev);
	/* failed rounds at 64, 128, 192, 256, 320: the fifth exceeds 4 */
	EXPECT_EQ(320, ev->cycle);
	EXPECT_EQ(2, ev->arg0);
	EXPECT_EQ(3, ev->arg1);
	EXPECT_EQ(3, ind->eff_prio);
	EXPECT_EQ(2 + 2 * 8, ind->units + 2);
	EXPECT_EQ(384, ind->t.dispatch);
	EXPECT_EQ(VGPU_KS_DONE, ind->state);
	EXPECT_EQ(16, vgpu_tg_count(&T, VGPU_EV_BLOCK_DONE, ind->args.id));
	vgpu_gpu_cancel(&T.g, hog);
	vgpu_tg_fini(&T);
}

/*
 * F24, seed 001 [0087], [0091]: g counts consecutive failed rounds; a
 * round that places something restarts it.  As f24_split, with g_max 4:
 * ind fails at 64, 128, 192; at 256 a small kernel of channel 2 is
 * placed (that boundary's rounds end with one failure: g = 1), then ind
 * fails at 320, 384, 448, 512: g = 5 exceeds 4 at 512.  Without the
 * restart the split comes at 320.
 */
TEST(f24_split_count_restarts)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog, *ind, *small;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.g_max = 4;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	hog = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0, VGPU_SPIN);
	hog->args.smem = 120 * 1024;
	ind = vgpu_tg_kernel(&T, 1, 1, 2, 256, 64, VGPU_SHORT);
	ind->args.smem = 64 * 1024;
	ind->args.flags = VGPU_KF_INDEPENDENT;
	small = vgpu_tg_kernel(&T, 2, 1, 1, 32, 256, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, ind));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, small));
	vgpu_tg_until(&T, 4096);
	EXPECT_EQ(256, small->t.dispatch);
	ev = vgpu_tg_find(&T, VGPU_GEV_SPLIT, ind->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(512, ev->cycle);
	vgpu_gpu_cancel(&T.g, hog);
	vgpu_tg_fini(&T);
}

/*
 * F24, seed 001 [0089]: the kernel split is a channel's waiting head.  In
 * channel 1 a kernel that is not independent and fits nowhere while hog
 * runs (head) is followed by an independent one: splitting that one would
 * not let it past its head, so nothing is split.
 */
TEST(f24_split_only_channel_heads)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog, *head, *ind;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.g_max = 4;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	hog = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0, VGPU_SPIN);
	hog->args.smem = 120 * 1024;
	head = vgpu_tg_kernel(&T, 1, 1, 2, 256, 64, VGPU_SHORT);
	head->args.smem = 64 * 1024;
	ind = vgpu_tg_kernel(&T, 1, 1, 2, 256, 64, VGPU_SHORT);
	ind->args.smem = 64 * 1024;
	ind->args.flags = VGPU_KF_INDEPENDENT;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, head));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, ind));
	vgpu_tg_until(&T, 4096);
	EXPECT_LT(10, T.g.stats.failed_rounds);
	EXPECT_EQ(0, T.g.stats.splits);
	EXPECT_FALSE(ind->split);
	vgpu_gpu_cancel(&T.g, hog);
	vgpu_tg_fini(&T);
}

/* The SM the first dispatch of a fresh kernel goes to. */
static u32 vgpu_first_sm(struct vgpu_gpu_kernel *k)
{
	const struct vgpu_event *ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						   k->args.id, 0);

	return ev ? ev->sm : ~0U;
}

/* F25 round-robin: successive decisions go to SM 0, 1, 2, 3, 0. */
TEST(f25_rr)
{
	struct vgpu_gpu_kernel *k;
	u32 i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 5, 1024, 0, VGPU_SHORT);
	k->args.flags = VGPU_KF_SEQUENTIAL;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(i % 4,
			  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, i)->sm);
	vgpu_tg_fini(&T);
}

/*
 * F25, seed 002: rr and avail choose an SM for each block (the device's
 * pack=auto), so 8 one-warp blocks of one kernel spread over the 4 SMs:
 * rr from its pointer, avail to the SM where most further blocks fit
 * (ties by the SM list: SM 0 first, then the emptier ones).  With
 * pack=sm (seed 000, F23 (a)) one decision sends all 8 to SM 0.
 */
TEST(f25_per_block_spreads)
{
	static const char *const pol[] = { "rr", "avail" };
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 i, j, pack;

	for (j = 0; j < 2; j++) {
		for (pack = VGPU_PACK_AUTO; pack <= VGPU_PACK_SM; pack += 2) {
			vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
			snprintf(p.policy, sizeof(p.policy), "%s", pol[j]);
			p.pack = pack;
			ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
			k = vgpu_tg_kernel(&T, 0, 0, 8, 32, 0, VGPU_SHORT);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
			ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
			for (i = 0; i < 8; i++)
				EXPECT_EQ(pack == VGPU_PACK_SM ? 0 : i % 4,
					  vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						       k->args.id, i)->sm);
			EXPECT_EQ(pack == VGPU_PACK_SM ? 1 : 8,
				  T.g.stats.decisions);
			/* warp mode, nothing to preempt: none counted */
			EXPECT_EQ(0, T.g.stats.preemptions);
			vgpu_tg_fini(&T);
		}
	}
}

/* F25 availability: most further blocks fit; ties by the SM list. */
TEST(f25_avail)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *f0, *f1, *k;
	const u16 order[] = { 3, 1, 2, 0 };

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	memcpy(p.policy, "avail", 6);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	vgpu_gpu_set_sm_rank(&T.g, order, 4);
	/* SM 3 and SM 1 get a spinner: fewer blocks fit there */
	f0 = vgpu_tg_kernel(&T, 0, 0, 1, 512, 0, VGPU_SPIN);
	f0->args.affinity[0] = 1 << 3;
	f1 = vgpu_tg_kernel(&T, 1, 0, 1, 512, 0, VGPU_SPIN);
	f1->args.affinity[0] = 1 << 1;
	k = vgpu_tg_kernel(&T, 2, 0, 1, 512, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f0));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f1));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_until(&T, 1024);
	/* SMs 0 and 2 tie on 4 blocks; the list prefers 2 over 0 */
	EXPECT_EQ(2, vgpu_first_sm(k));
	vgpu_tg_fini(&T);
}

/*
 * F40-F42 as the device's search mode (seed 001 [0041]): SM 0 matches
 * blocks against its largest free shared memory run computed in that
 * mode.  A spinner holds the 8-unit block reserve at units 0-7 of the
 * 1,312 (small preset, 128-byte units), so the exact run is 1,304 units;
 * in groups of 32 units only groups 1-40 are whole (1,280); sampled at
 * powers of two, 1,024.  B needs 1,290 units (164,096 bytes + the
 * reserve): exact dispatches it at 64, grouped never while A stays;
 * sampled refuses it at submission (-E2BIG: even an empty SM's sampled
 * run, 1,024, is too short).  The same runs are r_h of shared memory for
 * embodiment 9 ([0257]); r_h of the registers sums every sub-partition's
 * largest run.
 */
TEST(f41_search_mode_matches_largest_run)
{
	static const u32 mode[] = { VGPU_SEARCH_EXACT, VGPU_SEARCH_GROUPED,
				    VGPU_SEARCH_SAMPLED };
	static const u32 run[] = { 1304, 1280, 1024 };
	static const u32 reg0[] = { 60, 32, 32 };
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(mode); i++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.search = mode[i];
		p.search_group = mode[i] == VGPU_SEARCH_GROUPED ? 32 : 0;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SPIN);
		a->args.affinity[0] = 1;
		b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 64, VGPU_SHORT);
		b->args.smem = 1290 * 128 - 1024;
		b->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(mode[i] == VGPU_SEARCH_SAMPLED ? -E2BIG : 0,
			  vgpu_gpu_submit(&T.g, b));
		vgpu_tg_until(&T, 64);
		vgpu_gpu_sm_runs(&T.g, 0);
		EXPECT_EQ(run[i], T.g.sm[0].run_smem) TH_LOG("mode %u", mode[i]);
		/*
		 * registers: A's warp holds units 0-3 of sub-partition 0's
		 * 64, a run of 60 (32 in groups of 32 or sampled), the other
		 * three are free
		 */
		EXPECT_EQ((u64)run[i] * T.g.p.res_weight[VGPU_RES_SMEM] +
			  (u64)(reg0[i] + 3 * 64) *
			  T.g.p.res_weight[VGPU_RES_REGS] +
			  (u64)63 * T.g.p.res_weight[VGPU_RES_WARPS] +
			  (u64)31 * T.g.p.res_weight[VGPU_RES_BLOCKS],
			  vgpu_gpu_sm_free(&T.g, 0));
		vgpu_tg_until(&T, 1024);
		if (mode[i] != VGPU_SEARCH_SAMPLED)
			EXPECT_EQ(i ? VGPU_GPU_NO_CYCLE : 64, b->t.dispatch)
				TH_LOG("mode %u", mode[i]);
		vgpu_gpu_cancel(&T.g, a);
		if (mode[i] == VGPU_SEARCH_GROUPED)
			vgpu_gpu_cancel(&T.g, b);
		vgpu_tg_fini(&T);
	}
	/* the group size goes with the grouped mode only */
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.search = VGPU_SEARCH_GROUPED;
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.search_group = 32;
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
}

/*
 * The search's own latency (seed 001 [0113]: one cycle; [0114]: three):
 * a block's warps start that long after its decision.
 */
TEST(f40_search_latency_delays_the_start)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 lat;

	for (lat = 0; lat <= VGPU_SEARCH_MAX_LATENCY; lat += 3) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.search_latency = lat;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 64, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		EXPECT_EQ(64, k->t.dispatch);
		EXPECT_EQ(64 + lat, k->t.start);
		vgpu_tg_fini(&T);
	}
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.search_latency = VGPU_SEARCH_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
}

/*
 * F35, seed 003 [0044]-[0052] through the controller: the host gives each
 * warp of a block its task's real-time level (warp_prio).  Warp 1 gets
 * level 0, warp 0 level 1; warp 0 takes mutex 0 first (warp 1 first loops
 * 10 ALUs), warp 1 requests it, and the arbiter takes it from warp 0
 * (VGPU_LOCK_HOW_PREEMPT).  With equal levels warp 1 waits for the
 * UNLOCK (FIFO).  A level per warp, each below num_prios, or -EINVAL.
 */
TEST(f35_warp_levels_from_the_host)
{
	static const char prog[] =
		"LOOP 10*(wid%2)\nALU\nENDLOOP\nLOCK 0\nLOOP 40\nALU\n"
		"ENDLOOP\nUNLOCK 0\nEXIT\n";
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	const struct vgpu_event *ev;
	u32 lv;

	for (lv = 0; lv < 2; lv++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		vgpu_gpu_set_verbose(&T.g, true);
		k = vgpu_tg_kernel(&T, 0, 0, 1, 64, 0, prog);
		k->args.n_warp_prio = 2;
		k->args.warp_prio[0] = lv;
		k->args.warp_prio[1] = 0;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		/* the sink sees the arbiter's grants only: warp 1's */
		ev = vgpu_tg_find(&T, VGPU_EV_LOCK_ACQUIRE, k->args.id, 0);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(1, ev->warp);
		EXPECT_EQ(lv ? VGPU_LOCK_HOW_PREEMPT : VGPU_LOCK_HOW_FIFO,
			  ev->arg1);
		/* preempted, warp 0 gets it back after warp 1's UNLOCK */
		ev = vgpu_tg_find(&T, VGPU_EV_LOCK_ACQUIRE, k->args.id, 1);
		if (lv) {
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(0, ev->warp);
			EXPECT_EQ(VGPU_LOCK_HOW_FIFO, ev->arg1);
		} else {
			EXPECT_EQ(NULL, ev);
		}
		vgpu_tg_fini(&T);
	}
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 64, 0, prog);
	k->args.n_warp_prio = 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.n_warp_prio = 2;
	k->args.warp_prio[1] = 4;	/* small: 4 levels */
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.warp_prio[1] = 3;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_fini(&T);
}

/*
 * A second dispatch at the same boundary, the SMs not advanced since (the
 * module when a kernel comes in after its dispatch there), stays at that
 * boundary: the kernel that came in starts there, at 0, not an epoch on.
 */
TEST(second_dispatch_stays_at_the_boundary)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	vgpu_gpu_dispatch(&T.g);
	EXPECT_EQ(0, T.g.now);
	EXPECT_EQ(0, a->t.dispatch);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_gpu_dispatch(&T.g);
	EXPECT_EQ(0, T.g.now);
	EXPECT_EQ(0, b->t.dispatch);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/* The events the SM buffers could not hold: the sum over every SM. */
TEST(events_lost_sums_every_sm)
{
	struct vgpu_gpu_params p;
	u32 i, n;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_EQ(0, vgpu_gpu_events_lost(&T.g));
	n = T.g.cfg.num_sms;
	for (i = 0; i < n; i++)
		T.g.sm[i].lost = i + 1;
	EXPECT_EQ((u64)n * (n + 1) / 2, vgpu_gpu_events_lost(&T.g));
	vgpu_tg_fini(&T);
}

/*
 * F41 at the boundary: a block that needs exactly the grouped run fits.
 * The spinner holds units 0-7, groups of 32: the grouped run is 1,280
 * units, and a block of 1,280 units (163,840 - 1,024 bytes + the reserve)
 * is dispatched at 64.
 */
TEST(f41_grouped_run_fits_exactly)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.search = VGPU_SEARCH_GROUPED;
	p.search_group = 32;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SPIN);
	a->args.affinity[0] = 1;
	b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 64, VGPU_SHORT);
	b->args.smem = 1280 * 128 - 1024;
	b->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(64, b->t.dispatch);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_tg_fini(&T);
}

/*
 * The "does not fit anywhere" cache of a dispatch call only learns from
 * kernels that may use every SM: A (priority 0, SM 0 only, full) does not
 * fit, B (priority 1, the same block, any SM) goes to SM 1 at once.
 */
TEST(nofit_cache_ignores_affine_kernels)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *f, *a, *b;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	f = vgpu_tg_kernel(&T, 0, 3, 2, 1024, 0, VGPU_SPIN);
	f->args.affinity[0] = 1;
	a = vgpu_tg_kernel(&T, 1, 0, 1, 1024, 64, VGPU_SHORT);
	a->args.affinity[0] = 1;
	b = vgpu_tg_kernel(&T, 2, 1, 1, 1024, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, a->t.dispatch);
	EXPECT_EQ(64, b->t.dispatch);
	EXPECT_NE(0, vgpu_first_sm(b));
	vgpu_gpu_cancel(&T.g, f);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_tg_fini(&T);
}

/*
 * F22 windows: only the first num_windows lengths count, whatever the
 * array holds beyond them.  T1 = 1,000, T2 = 500 (a stale 300 after
 * them): the period is 1,500; cycle 100 is in T1, 1,200 in T2, 1,600 in
 * T1 of the second period.
 */
TEST(f22_windows_only_the_first_num_windows)
{
	struct vgpu_gpu_params p;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.num_windows = 2;
	p.window[0] = 1000;
	p.window[1] = 500;
	p.window[2] = 300;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_EQ(0, vgpu_gpu_window_at(&T.g, 100));
	EXPECT_EQ(1, vgpu_gpu_window_at(&T.g, 1200));
	EXPECT_EQ(0, vgpu_gpu_window_at(&T.g, 1600));
	vgpu_tg_fini(&T);
}

/*
 * F13: a dispatch round looks at every task slot without a deallocation
 * request, in every word of the table.  65 one-block kernels on 65
 * channels arrive at 0 and all enter the table (slots 0..64); every block
 * fits, so all go out at boundary 0, kernel 64 too once those in slots
 * 0..63 have theirs out (their slots have deallocation requests).
 */
TEST(f13_round_sees_every_slot_word)
{
	static struct vgpu_gpu_kernel k[65];
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *t;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 65;
	p.max_channels = 65;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 8; i < 65; i++)
		ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, i, 0));
	t = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	for (i = 0; i < 65; i++) {
		k[i] = *t;
		k[i].args.id = 100 + i;
		k[i].args.channel = i;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, &k[i]));
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	for (i = 0; i < 65; i++) {
		ASSERT_EQ(VGPU_KS_DONE, k[i].state);
		ASSERT_EQ(0, k[i].t.dispatch) TH_LOG("kernel %u", i);
	}
	vgpu_tg_fini(&T);
}

/*
 * F22 windows after vgpu_gpu_set_sched(): the period vgpu_gpu_window_at()
 * divides by is the one of the new lengths (it is cached, not summed at
 * each call).  T = 300, 200, 100 replacing 1,000, 500: period 600; then
 * no windows at all: off.
 */
TEST(f22_windows_follow_set_sched)
{
	static const u32 win[3] = { 300, 200, 100 };
	struct vgpu_gpu_params p;
	const char *bad = NULL;
	u64 c;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.num_windows = 2;
	p.window[0] = 1000;
	p.window[1] = 500;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_EQ(1, vgpu_gpu_window_at(&T.g, 1200));
	ASSERT_EQ(0, vgpu_gpu_set_sched(&T.g, VGPU_PREEMPT_DRAIN, 3, win,
					&bad));
	for (c = 0; c < 1800; c++) {
		u32 pos = c % 600;

		ASSERT_EQ(pos < 300 ? 0U : pos < 500 ? 1U : 2U,
			  vgpu_gpu_window_at(&T.g, c));
	}
	ASSERT_EQ(0, vgpu_gpu_set_sched(&T.g, VGPU_PREEMPT_DRAIN, 0, win,
					&bad));
	EXPECT_EQ(~0U, vgpu_gpu_window_at(&T.g, 1200));
	vgpu_tg_fini(&T);
}

/* F25 weighted remaining resources: the emptiest SM wins. */
/*
 * F25 "resource" (seed 001 embodiment 9) against rr and avail on one
 * layout, weights a_h = (0, 0, 1, 0): free shared memory alone.  Pinned
 * spinners: SM 0 a one-warp block with 100 KiB, SM 1 a 32-warp block
 * without shared memory, SM 2 a one-warp block with 150 KiB, SM 3 full
 * (two 32-warp blocks).  An 8-warp block without shared memory arrives at
 * 64: rr takes the first SM from its pointer (0, after SM 3), avail the
 * SM where most such blocks fit (SM 0 and SM 2: 7; SM 1: 4; tie by the
 * SM list: 0), resource the SM with the most free shared memory: SM 1.
 */
TEST(f25_resource_differs)
{
	static const char *const pol[] = { "rr", "avail", "resource" };
	static const u32 want[] = { 0, 0, 1 };
	static const u32 threads[] = { 32, 1024, 32, 1024 };
	static const u32 smem[] = { 100 << 10, 0, 150 << 10, 0 };
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *f, *k;
	u32 i, j;

	for (j = 0; j < 3; j++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		snprintf(p.policy, sizeof(p.policy), "%s", pol[j]);
		p.res_weight[0] = 0;
		p.res_weight[1] = 0;
		p.res_weight[2] = 1;
		p.res_weight[3] = 0;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		for (i = 0; i < 4; i++) {
			f = vgpu_tg_kernel(&T, i, 0, i == 3 ? 2 : 1, threads[i],
					   0, VGPU_SPIN);
			f->args.smem = smem[i];
			f->args.affinity[0] = 1 << i;
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f));
		}
		k = vgpu_tg_kernel(&T, 4, 0, 1, 256, 64, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		vgpu_tg_until(&T, 1024);
		EXPECT_EQ(want[j], vgpu_first_sm(k)) TH_LOG("%s", pol[j]);
		for (i = 0; i < 4; i++)
			vgpu_gpu_cancel(&T.g, &T.k[i]);
		vgpu_tg_fini(&T);
	}
}

TEST(f25_resource)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *f[3], *k;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	memcpy(p.policy, "resource", 9);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 0; i < 3; i++) {
		f[i] = vgpu_tg_kernel(&T, i, 0, 1, 256 * (3 - i), 0,
				      VGPU_SPIN);
		f[i]->args.affinity[0] = 1 << i;	/* SM 3 stays empty */
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, f[i]));
	}
	k = vgpu_tg_kernel(&T, 3, 0, 1, 256, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(3, vgpu_first_sm(k));
	vgpu_tg_fini(&T);
}

/* F25 power history: the SM with the least recent power wins. */
TEST(f25_power)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *busy[3], *k;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	memcpy(p.policy, "power", 6);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	for (i = 0; i < 4; i++) {
		if (i == 2)
			continue;	/* SM 2 stays cold */
		busy[i == 3 ? 2 : i] = vgpu_tg_kernel(&T, i, 0, 1, 32, 0,
			"LOOP 100\nMMA\nALU\nENDLOOP\nEXIT\n");
		busy[i == 3 ? 2 : i]->args.affinity[0] = 1 << i;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, busy[i == 3 ? 2 : i]));
	}
	k = vgpu_tg_kernel(&T, 4, 0, 1, 32, 512, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(2, vgpu_first_sm(k));
	vgpu_tg_fini(&T);
}

/* F26: affinity, sequential, launch quota and throttle gates. */
TEST(f26_gates)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *aff, *seq, *q, *thr, *norm;
	const struct vgpu_event *ev;
	size_t i;
	u32 n = 0, live = 0, max_live = 0;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	aff = vgpu_tg_kernel(&T, 0, 0, 6, 256, 0, VGPU_SHORT);
	aff->args.affinity[0] = 1 << 2;
	seq = vgpu_tg_kernel(&T, 1, 1, 4, 32, 0, VGPU_SHORT);
	seq->args.flags = VGPU_KF_SEQUENTIAL;
	q = vgpu_tg_kernel(&T, 2, 2, 4, 32, 0, VGPU_SHORT);
	q->args.quota = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, aff));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, seq));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	for (i = 0; (ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, aff->args.id, i));
	     i++) {
		EXPECT_EQ(2, ev->sm);
		n++;
	}
	EXPECT_EQ(6, n);
	for (i = 0; i < T.nev; i++) {
		if (T.ev[i].kernel != seq->args.id)
			continue;
		if (T.ev[i].type == VGPU_GEV_DISPATCH)
			live++;
		if (T.ev[i].type == VGPU_EV_BLOCK_DONE)
			live--;
		max_live = max(max_live, live);
	}
	EXPECT_EQ(1, max_live);
	/* quota 1: one block per decision, each at its own boundary-round */
	for (i = 0; i < 4; i++) {
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, q->args.id, i);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(i % 4, ev->sm);
	}
	vgpu_tg_fini(&T);

	/*
	 * throttle mode (seed 002 steps 412-454, 413): with a throttle
	 * kernel in the table only throttle kernels run, only on SM 0; the
	 * other kernel runs once the throttle kernel is done and the mode
	 * is off again
	 */
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.throttle_sms = 1;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	thr = vgpu_tg_kernel(&T, 0, 0, 3, 32, 0, VGPU_SHORT);
	thr->args.flags = VGPU_KF_THROTTLE;
	norm = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, thr));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, norm));
	vgpu_tg_until(&T, 4096);
	EXPECT_EQ(VGPU_KS_DONE, thr->state);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, thr->args.id,
					  i)->sm);
	EXPECT_EQ(VGPU_KS_DONE, norm->state);
	EXPECT_LT(thr->t.end, norm->t.dispatch);
	EXPECT_EQ(VGPU_THROTTLE_OFF, T.g.throttle_state);
	EXPECT_EQ(0, T.g.p.throttle);
	vgpu_tg_fini(&T);
}

/*
 * F26 throttle mode switch (seed 002 steps 412, 450-454, 413).  N (16
 * blocks of 32 warps, two per SM at a time) runs from 0; a throttle
 * kernel T (4 one-warp blocks of 100 KiB shared memory) arrives at 64.
 * Step 450: no block of N is dispatched any more and T waits until every
 * block on the SMs has ended; 452-454: throttle mode on, T only, on SM 0
 * (throttle_sms 1), which gets the device's pooled shared memory up to
 * what an SM's map holds (2,048 units of 128 bytes: two of T's 808-unit
 * blocks at once, where the SM's own 1,312 units hold one); 413: once T
 * is done the mode goes off, SM 0 gets its own shared memory back and N
 * goes on.
 */
TEST(f26_throttle_switch)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *n, *t;
	const struct vgpu_event *ev;
	u64 n_end = 0, t0;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.throttle_sms = 1;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	n = vgpu_tg_kernel(&T, 0, 0, 16, 1024, 0, VGPU_LONG);
	t = vgpu_tg_kernel(&T, 1, 0, 4, 32, 64,
			   "LOOP 200\nALU\nENDLOOP\nEXIT\n");
	t->args.flags = VGPU_KF_THROTTLE;
	t->args.smem = 100 * 1024;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, n));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, t));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
	ASSERT_EQ(VGPU_KS_DONE, t->state);
	ASSERT_EQ(VGPU_KS_DONE, n->state);
	/* N's first wave: 8 blocks at 0, none more before T is done */
	for (i = 0; i < 8; i++) {
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, n->args.id, i);
		EXPECT_EQ(0, ev->cycle);
	}
	for (i = 0; i < T.nev; i++)
		if (T.ev[i].type == VGPU_EV_BLOCK_DONE &&
		    T.ev[i].kernel == n->args.id && T.ev[i].cycle > n_end &&
		    T.ev[i].cycle < t->t.dispatch + 1)
			n_end = T.ev[i].cycle;
	EXPECT_LE(n_end, t->t.dispatch);
	EXPECT_LT(t->t.end, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, n->args.id, 8)->cycle);
	/* T on SM 0 only, two at once on the pooled shared memory */
	t0 = t->t.dispatch;
	for (i = 0; i < 4; i++) {
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, t->args.id, i);
		EXPECT_EQ(0, ev->sm);
		if (i < 2) {
			EXPECT_EQ(t0, ev->cycle);
		} else {
			EXPECT_LT(t0, ev->cycle);
		}
	}
	EXPECT_EQ(VGPU_THROTTLE_OFF, T.g.throttle_state);
	EXPECT_EQ(1312, T.g.sm[0].sm.res.smem_units);
	EXPECT_EQ(1312, T.g.sm[0].sm.res.smem_free);
	vgpu_tg_fini(&T);
}

static u32 vgpu_test_last_choose(const struct vgpu_policy_ctx *ctx,
				 const struct vgpu_policy_sm *c, u32 n)
{
	return n - 1;
}

static u32 vgpu_test_pack_two(const struct vgpu_gpu *g,
			      const struct vgpu_gpu_kernel *k, u32 want)
{
	return 2;
}

/* F27: policies are ops tables registered and selected by name. */
TEST(f27_registry)
{
	static const struct vgpu_policy_ops last = {
		.name = "last", .select_sm = vgpu_test_last_choose,
	};
	static const struct vgpu_policy_ops dup = {
		.name = "rr", .select_sm = vgpu_test_last_choose,
	};
	/* packing is stated, and a stated one-block packing has no pack op */
	static const struct vgpu_policy_ops bad_packing = {
		.name = "badpack", .packing = VGPU_POLICY_PACK_SM + 1,
	};
	static const struct vgpu_policy_ops block_and_pack = {
		.name = "blockpack", .packing = VGPU_POLICY_PACK_BLOCK,
		.pack = vgpu_test_pack_two,
	};
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	EXPECT_NE(NULL, vgpu_policy_find(&T.pol, "rr"));
	EXPECT_NE(NULL, vgpu_policy_find(&T.pol, "avail"));
	EXPECT_NE(NULL, vgpu_policy_find(&T.pol, "resource"));
	EXPECT_NE(NULL, vgpu_policy_find(&T.pol, "power"));
	EXPECT_EQ(NULL, vgpu_policy_find(&T.pol, "nope"));
	EXPECT_EQ(-EEXIST, vgpu_tg_register_policy(&T, &dup));
	EXPECT_EQ(-EINVAL, vgpu_tg_register_policy(&T, &bad_packing));
	EXPECT_EQ(-EINVAL, vgpu_tg_register_policy(&T, &block_and_pack));
	ASSERT_EQ(0, vgpu_tg_register_policy(&T, &last));
	EXPECT_EQ(-ENOENT, vgpu_gpu_set_policy(&T.g, &T.pol, "nope"));
	ASSERT_EQ(0, vgpu_gpu_set_policy(&T.g, &T.pol, "last"));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(3, vgpu_first_sm(k));
	vgpu_tg_unregister_policy(&T, &last);
	EXPECT_EQ(NULL, vgpu_policy_find(&T.pol, "last"));
	vgpu_tg_fini(&T);
}

/* Submission checks (F10). */
TEST(f10_submit_checks)
{
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "ALU\nBAR\nEXIT\n");
	k->args.flags = VGPU_KF_INDEPENDENT;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.flags = 0x80;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.flags = 0;
	k->args.prio = 4;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.prio = 0;
	k->args.channel = 9;
	EXPECT_EQ(-ENOENT, vgpu_gpu_submit(&T.g, k));
	k->args.channel = 0;
	k->args.smem = 200 * 1024;
	EXPECT_EQ(-E2BIG, vgpu_gpu_submit(&T.g, k));
	k->args.smem = 0;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.id = 0;
	EXPECT_EQ(-EEXIST, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_fini(&T);
}

/* F52 gate: nothing is dispatched while held; all of it at release. */
TEST(f52_gate)
{
	struct vgpu_gpu_kernel *a, *b;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_gpu_gate(&T.g, true);
	a = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 1, 0, 2, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_tg_until(&T, 640);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, a->t.dispatch);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, b->t.dispatch);
	vgpu_gpu_gate(&T.g, false);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(640, a->t.dispatch);
	EXPECT_EQ(640, b->t.dispatch);
	/* b first: higher priority, both released at once */
	EXPECT_EQ(b->args.id, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0)->kernel);
	EXPECT_LT(vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0),
		  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 0));
	vgpu_tg_fini(&T);
}

/* F53: a SPIN kernel runs until cancelled; only its blocks go. */
TEST(f53_cancel_spin)
{
	struct vgpu_gpu_kernel *spin, *other;
	u32 i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	spin = vgpu_tg_kernel(&T, 0, 0, 8, 512, 0, VGPU_SPIN);
	other = vgpu_tg_kernel(&T, 1, 1, 4, 512, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, spin));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, other));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(VGPU_KS_DRAINING, spin->state);	/* all 8 on SMs */
	EXPECT_EQ(8, spin->inflight);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, spin));
	EXPECT_EQ(VGPU_KS_CANCELLED, spin->state);
	EXPECT_EQ(-EINVAL, vgpu_gpu_cancel(&T.g, spin));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, other->state);
	EXPECT_EQ(4, other->done_units);
	for (i = 0; i < T.g.cfg.num_sms; i++) {
		EXPECT_EQ(0, T.g.sm[i].sm.res.warps_total);
		EXPECT_EQ(0, T.g.sm[i].sm.res.blocks_used);
	}
	vgpu_tg_fini(&T);
}

#ifndef __KERNEL__
/* Half of the SMs of T, on a thread of its own (F50-style worker). */
static void *vgpu_test_worker(void *arg)
{
	uintptr_t half = (uintptr_t)arg;
	u32 n = T.g.cfg.num_sms / 2;

	vgpu_gpu_advance_range(&T.g, half * n, half ? T.g.cfg.num_sms - n : n);
	return NULL;
}
#endif

/*
 * F51: the same run advanced in SM order, in reverse order and by two
 * threads in parallel gives the same events and the same hash.
 */
#ifndef __KERNEL__
TEST(f51_layout_independent)
{
	pthread_t th[2];
	u64 h[3];
	size_t n[3];
	u32 r, i;

	for (r = 0; r < 3; r++) {
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
		T.reverse = r == 1;
		for (i = 0; i < 6; i++)
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g,
				vgpu_tg_kernel(&T, i % 3, i % 4, 3 + i,
					       64 * (i + 1), 50 * i,
					       "LOOP 5*(1+bid%4)\nALU\nBAR\nMMA\nENDLOOP\nLOOP 3*(1+wid%4)\nLOAD\nENDLOOP\nEXIT\n")));
		while (!vgpu_gpu_idle(&T.g)) {
			if (r < 2) {
				vgpu_tg_step(&T);
				continue;
			}
			vgpu_gpu_dispatch(&T.g);
			for (i = 0; i < 2; i++)
				ASSERT_EQ(0, pthread_create(&th[i], NULL,
							    vgpu_test_worker,
							    (void *)(uintptr_t)i));
			for (i = 0; i < 2; i++)
				pthread_join(th[i], NULL);
		}
		h[r] = vgpu_gpu_trace_hash(&T.g);
		n[r] = T.nev;
		vgpu_tg_fini(&T);
	}
	EXPECT_EQ(h[0], h[1]);
	EXPECT_EQ(h[0], h[2]);
	EXPECT_EQ(n[0], n[1]);
	EXPECT_EQ(n[0], n[2]);
}
#endif

/* F67: alone 10 and 20, together 15 and 25. */
#ifndef __KERNEL__
TEST(f67_metrics_check_value)
{
	const uint64_t alone[] = { 10, 20 }, shared[] = { 15, 25 };
	struct vgpu_metrics m;
	char buf[64];

	vgpul_metrics_compute(alone, shared, 2, &m);
	snprintf(buf, sizeof(buf), "%.3f %.3f %.3f", m.stp, m.antt,
		 m.fairness);
	EXPECT_STREQ("1.467 1.375 0.833", buf);
}
#endif

/*
 * The host's callbacks (struct vgpu_gpu_host_ops): kernel_done once per
 * submitted kernel, in the core call that finished it (a dispatch for a
 * completion, vgpu_gpu_cancel() for a cancel), with the final state; the
 * event callback sees the sink's stream with each event's kernel.
 */
struct vgpu_host_rec {
	struct vgpu_gpu_kernel *done[8];
	u32 ndone;
	const struct vgpu_event *ev;	/* the sink's stream, to compare */
	size_t nev;
	u32 mismatch;
	u32 no_kernel;
	u32 wrong_kernel;
};

static struct vgpu_host_rec HR;

static void host_done(void *host, struct vgpu_gpu_kernel *k)
{
	struct vgpu_host_rec *r = host;

	if (r->ndone < ARRAY_SIZE(r->done))
		r->done[r->ndone] = k;
	r->ndone++;
}

static void host_event(void *host, const struct vgpu_event *ev,
		       const struct vgpu_gpu_kernel *k)
{
	struct vgpu_host_rec *r = host;

	/* the sink saw it just before: the last event of T's stream */
	if (!T.nev || memcmp(&T.ev[T.nev - 1], ev, sizeof(*ev)))
		r->mismatch++;
	r->nev++;
	if (k && k->args.id != ev->kernel)
		r->wrong_kernel++;
	if (!k && (ev->type == VGPU_GEV_DISPATCH ||
		   ev->type == VGPU_GEV_KERNEL_DONE ||
		   ev->type == VGPU_EV_BLOCK_DONE))
		r->no_kernel++;
}

static const struct vgpu_gpu_host_ops host_rec_ops = {
	.kernel_done = host_done,
	.event = host_event,
};

TEST(host_ops)
{
	struct vgpu_gpu_kernel *a, *b, *c;
	u64 hash = 0;
	u32 n, i;

	/* the reference: the same run without a host */
	for (i = 0; i < 2; i++) {
		memset(&HR, 0, sizeof(HR));
		ASSERT_EQ(0, vgpu_tg_init_host(&T, NULL, NULL,
					       i ? &host_rec_ops : NULL, &HR));
		a = vgpu_tg_kernel(&T, 0, 0, 3, 64, 0, VGPU_SHORT);
		b = vgpu_tg_kernel(&T, 1, 0, 2, 32, 0, VGPU_LONG);
		c = vgpu_tg_kernel(&T, 2, 1, 4, 32, 100, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
		/* each kernel reported in the dispatch that finished it */
		while (!vgpu_gpu_kernel_finished(a) ||
		       !vgpu_gpu_kernel_finished(c)) {
			ASSERT_GT(200000, T.g.now);
			n = HR.ndone;
			vgpu_gpu_dispatch(&T.g);
			if (i)
				EXPECT_EQ(HR.ndone - n,
					  (u32)(vgpu_gpu_kernel_finished(a) &&
						(n < 1 || HR.done[0] != a) &&
						(n < 2 || HR.done[1] != a)) +
					  (u32)(vgpu_gpu_kernel_finished(c) &&
						(n < 1 || HR.done[0] != c) &&
						(n < 2 || HR.done[1] != c)));
			vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
		}
		EXPECT_FALSE(vgpu_gpu_kernel_finished(b));
		n = HR.ndone;
		ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, b));
		if (i) {
			/* reported by the cancel itself, once */
			EXPECT_EQ(n + 1, HR.ndone);
			EXPECT_EQ(b, HR.done[2]);
			EXPECT_EQ(VGPU_KS_CANCELLED, b->state);
			EXPECT_EQ(3, HR.ndone);
			EXPECT_EQ(VGPU_KS_DONE, HR.done[0]->state);
			EXPECT_EQ(VGPU_KS_DONE, HR.done[1]->state);
			EXPECT_TRUE((HR.done[0] == a && HR.done[1] == c) ||
				    (HR.done[0] == c && HR.done[1] == a));
			/* every event, with its kernel */
			EXPECT_EQ(T.nev, HR.nev);
			EXPECT_EQ(0, HR.mismatch);
			EXPECT_EQ(0, HR.wrong_kernel);
			EXPECT_EQ(0, HR.no_kernel);
			/* and the same trace as without a host */
			EXPECT_EQ(hash, vgpu_gpu_trace_hash(&T.g));
		} else {
			EXPECT_EQ(0, HR.ndone);
			hash = vgpu_gpu_trace_hash(&T.g);
		}
		vgpu_tg_fini(&T);
	}
}

VGPU_TEST_SUITE(gpu,
	VGPU_CASE(host_ops)
	VGPU_CASE(f11_channel_fifo)
	VGPU_CASE(params_bounds)
	VGPU_CASE(mem_line_aligned)
	VGPU_CASE(mode_names)
	VGPU_CASE(event_names)
	VGPU_CASE(f20_big_high_does_not_block)
	VGPU_CASE(f13_evict_and_resume)
	VGPU_CASE(f13_eviction_waits_for_acknowledgment)
	VGPU_CASE(f13_evict_lowest_of_several)
	VGPU_CASE(f20_full_table_waiting_head_matches)
	VGPU_CASE(f21_fairness_flags)
	VGPU_CASE(f21_channels_beyond_first_word)
	VGPU_CASE(f51_sink_in_cycle_order)
	VGPU_CASE(f21_fairness_nonmatching_peer)
	VGPU_CASE(f26_quota_restarts_on_equal_peer)
	VGPU_CASE(f22_windows)
	VGPU_CASE(f25_affinity_masked_to_existing_sms)
	VGPU_CASE(f25_affinity_last_of_max_sms)
	VGPU_CASE(f25_no_affinity_is_every_sm)
	VGPU_CASE(f23_block_then_warp)
	VGPU_CASE(f23_bar_never_partial)
	VGPU_CASE(f23_preempt_warp)
	VGPU_CASE(f23_warp_path_strictly_more_than_a_warp)
	VGPU_CASE(f23_preempt_only_lower_priority)
	VGPU_CASE(f23_preempt_switch)
	VGPU_CASE(f24_split)
	VGPU_CASE(f24_split_count_restarts)
	VGPU_CASE(f24_split_only_channel_heads)
	VGPU_CASE(f25_rr)
	VGPU_CASE(f25_per_block_spreads)
	VGPU_CASE(f25_avail)
	VGPU_CASE(f41_search_mode_matches_largest_run)
	VGPU_CASE(f40_search_latency_delays_the_start)
	VGPU_CASE(f35_warp_levels_from_the_host)
	VGPU_CASE(events_lost_sums_every_sm)
	VGPU_CASE(second_dispatch_stays_at_the_boundary)
	VGPU_CASE(f41_grouped_run_fits_exactly)
	VGPU_CASE(nofit_cache_ignores_affine_kernels)
	VGPU_CASE(f22_windows_only_the_first_num_windows)
	VGPU_CASE(f13_round_sees_every_slot_word)
	VGPU_CASE(f22_windows_follow_set_sched)
	VGPU_CASE(f25_resource_differs)
	VGPU_CASE(f25_resource)
	VGPU_CASE(f25_power)
	VGPU_CASE(f26_gates)
	VGPU_CASE(f26_throttle_switch)
	VGPU_CASE(f27_registry)
	VGPU_CASE(f10_submit_checks)
	VGPU_CASE(f52_gate)
	VGPU_CASE(f53_cancel_spin)
	VGPU_NATIVE(f51_layout_independent)
	VGPU_NATIVE(f67_metrics_check_value))
