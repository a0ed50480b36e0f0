// SPDX-License-Identifier: GPL-2.0
/*
 * The device's search mode (F40-F42, seed 001 [0103]-[0182]) never leaves
 * a legal configuration hanging.
 *
 * - Seed 001 [0127]: the grouped search's group divides every map it runs
 *   over; a group that does not is refused (vgpu_gpu_params_validate(),
 *   "search_group").
 * - A block is matched against an SM's largest free runs in the search
 *   mode ([0041]); one the search can never find room for, not even on an
 *   empty SM, is refused at submission with -E2BIG, as one that never
 *   fits (check.c), the kernel's own block or a template's.
 * - F23 (c) asks the search too: it never preempts for room the search
 *   cannot see.
 *
 * Figures of the "small" preset: shared memory 164 KiB per SM in units of
 * 128 bytes (1,312 units), 1,024 bytes reserved per block (8 units);
 * registers 16,384 per sub-partition in units of 256 (64 units).  The
 * sampled search tests runs of 1, 2, 4, ... units (F42): on an empty SM
 * it sees 1,024 units of shared memory and 64 of registers.
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"
#include "gpu_config.h"

#define VGPU_SPIN	"SPIN\nEXIT\n"
#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"

/* Shared memory bytes of a block of @units units with its reserve. */
#define SMEM(units)	((units) * 128 - 1024)

static struct vgpu_tg T;
static struct vgpu_gpu_template TMPL[1];
static struct vgpu_gpu_kernel CHILDREN[1];

/* The search_group @group with the grouped search on @cfg: 0 or -EINVAL. */
static int group_ok(const struct vgpu_config *cfg, u32 group,
		    const char **bad)
{
	struct vgpu_gpu_params p;

	vgpu_gpu_params_default(&p, cfg);
	p.search = VGPU_SEARCH_GROUPED;
	p.search_group = group;
	return vgpu_gpu_params_validate(&p, cfg, bad);
}

/*
 * Seed 001 [0127]: the group divides the register map of a sub-partition
 * (64 units), the shared memory map (1,312 = 32 x 41 units) and, when the
 * device has one, the scalar register map (1,024 / 64 = 16 units).  41
 * divides shared memory only (it left 23 of the 64 register units unused);
 * 128 is larger than the register map (no block would ever match); 64
 * divides the registers, not the shared memory.
 */
TEST(group_divides_every_map)
{
	static const u32 good[] = { 1, 2, 4, 8, 16, 32 };
	static const u32 bad[] = { 41, 128, 64, 3, 48, 2048 };
	struct vgpu_config cfg;
	const char *field;
	u32 i;

	vgpu_config_preset(&cfg, "small");
	for (i = 0; i < ARRAY_SIZE(good); i++)
		EXPECT_EQ(0, group_ok(&cfg, good[i], &field))
			TH_LOG("group %u", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		field = NULL;
		EXPECT_EQ(-EINVAL, group_ok(&cfg, bad[i], &field))
			TH_LOG("group %u", bad[i]);
		EXPECT_STREQ("search_group", field ? field : "(none)");
	}
	/* a scalar file of 16 units: 32 does not divide it, 16 does */
	cfg.sregs_per_subpart = 1024;
	cfg.sreg_unit = 64;
	ASSERT_EQ(0, vgpu_config_validate(&cfg, &field));
	EXPECT_EQ(-EINVAL, group_ok(&cfg, 32, &field));
	EXPECT_EQ(0, group_ok(&cfg, 16, &field));
	/* h100: 1,824 = 32 x 57 units of shared memory */
	vgpu_config_preset(&cfg, "h100");
	EXPECT_EQ(0, group_ok(&cfg, 32, &field));
	EXPECT_EQ(-EINVAL, group_ok(&cfg, 57, &field));
}

/* A device refuses such a group at init and when it is set live. */
TEST(group_refused_at_init_and_live)
{
	struct vgpu_gpu_dispatch_opts o;
	struct vgpu_gpu_params p;
	const char *bad = NULL;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.search = VGPU_SEARCH_GROUPED;
	p.search_group = 41;
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
	p.search_group = 32;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	vgpu_gpu_get_dispatch(&T.g, &o);
	o.search_group = 41;
	EXPECT_EQ(-EINVAL, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	EXPECT_STREQ("search_group", bad ? bad : "(none)");
	EXPECT_EQ(32, T.g.p.search_group);
	vgpu_tg_fini(&T);
}

/* The check and the core agree, and both give @want. */
#define AGREE(k, want) do {						\
	int c_ = vgpu_gpu_kernel_check(&T.g.cfg, &T.g.p, (k));		\
	int s_ = vgpu_gpu_submit(&T.g, (k));				\
	EXPECT_EQ((want), c_);						\
	EXPECT_EQ((want), s_);						\
} while (0)

/* A device of @cfg (NULL: small) searching in @search (group 32). */
static void dev(const struct vgpu_config *cfg, u32 search)
{
	struct vgpu_gpu_params p;
	struct vgpu_config c;

	if (!cfg) {
		vgpu_config_preset(&c, "small");
		cfg = &c;
	}
	vgpu_gpu_params_default(&p, cfg);
	p.search = search;
	p.search_group = search == VGPU_SEARCH_GROUPED ? 32 : 0;
	if (vgpu_tg_init(&T, cfg, &p))
		abort();
}

/*
 * The block: 140,000 bytes of shared memory (1,102 units with the
 * reserve) fits an empty SM exactly, but the sampled search sees 1,024
 * units there: refused with -E2BIG under sampled, taken under exact and
 * grouped (whole groups of 32 cover the map).  At the edge: 1,024 units
 * are taken, 1,025 refused.
 */
TEST(sampled_refuses_what_it_never_finds)
{
	static const u32 mode[] = { VGPU_SEARCH_EXACT, VGPU_SEARCH_GROUPED,
				    VGPU_SEARCH_SAMPLED };
	struct vgpu_gpu_kernel *k;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(mode); i++) {
		dev(NULL, mode[i]);
		k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
		k->args.smem = 140000;
		AGREE(k, mode[i] == VGPU_SEARCH_SAMPLED ? -E2BIG : 0);
		if (mode[i] != VGPU_SEARCH_SAMPLED)
			EXPECT_TRUE(vgpu_tg_run(&T, 100000));
		vgpu_tg_fini(&T);
	}
	dev(NULL, VGPU_SEARCH_SAMPLED);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.smem = SMEM(1024);
	AGREE(k, 0);
	k = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	k->args.smem = SMEM(1025);
	AGREE(k, -E2BIG);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/*
 * Registers too: sub-partitions of 6,144 registers in units of 128 (48
 * units), sampled sees 32.  160 registers a thread are 40 units a warp of
 * 32: they fit an empty sub-partition, the sampled search never finds
 * them; 128 registers (32 units) it does.
 */
TEST(sampled_refuses_registers_it_never_finds)
{
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;
	const char *bad;

	vgpu_config_preset(&cfg, "small");
	cfg.regs_per_subpart = 6144;
	cfg.reg_unit = 128;
	ASSERT_EQ(0, vgpu_config_validate(&cfg, &bad));
	dev(&cfg, VGPU_SEARCH_SAMPLED);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.regs = 160;
	AGREE(k, -E2BIG);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.regs = 128;
	AGREE(k, 0);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
	dev(&cfg, VGPU_SEARCH_EXACT);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.regs = 160;
	AGREE(k, 0);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/* A template (F15) the sampled search never finds room for: -E2BIG. */
TEST(sampled_refuses_a_template)
{
	struct vgpu_gpu_kernel *k, *t;

	dev(NULL, VGPU_SEARCH_SAMPLED);
	t = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "EXIT\n");
	memset(TMPL, 0, sizeof(TMPL));
	TMPL[0].grid = 1;
	TMPL[0].threads = 32;
	TMPL[0].regs = 32;
	TMPL[0].smem = 140000;
	TMPL[0].prog = t->args.prog;
	TMPL[0].n_insns = t->args.n_insns;
	TMPL[0].match = t->args.match;
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "LAUNCH 0\nEXIT\n");
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	k->args.child_budget = 1;
	k->args.child_store = CHILDREN;
	AGREE(k, -E2BIG);
	TMPL[0].smem = SMEM(1024);
	AGREE(k, 0);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/*
 * A host checks a kernel before it queues it (vgpu_gpu_kernel_prepare())
 * and the device's search mode changes before the kernel reaches the core
 * (vgpu_gpu_set_dispatch()): vgpu_gpu_submit() refuses it, -E2BIG.
 */
TEST(prepared_then_sampled)
{
	struct vgpu_gpu_dispatch_opts o;
	struct vgpu_gpu_kernel *k;
	const char *bad;

	dev(NULL, VGPU_SEARCH_EXACT);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.smem = 140000;
	ASSERT_EQ(0, vgpu_gpu_kernel_prepare(&T.g.cfg, &T.g.p, k));
	vgpu_gpu_get_dispatch(&T.g, &o);
	o.search = VGPU_SEARCH_SAMPLED;
	ASSERT_EQ(0, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	EXPECT_EQ(-E2BIG, vgpu_gpu_submit(&T.g, k));
	EXPECT_TRUE(vgpu_gpu_idle(&T.g));
	vgpu_tg_fini(&T);
}

/*
 * A live device keeps its kernels placeable: the sampled search is
 * refused (-EBUSY, "search") while a kernel of 140,000 bytes of shared
 * memory is queued, and taken once it finished.
 */
TEST(live_search_keeps_kernels_placeable)
{
	struct vgpu_gpu_dispatch_opts o;
	struct vgpu_gpu_kernel *k;
	const char *bad = NULL;

	dev(NULL, VGPU_SEARCH_EXACT);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.smem = 140000;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_gpu_get_dispatch(&T.g, &o);
	o.search = VGPU_SEARCH_SAMPLED;
	EXPECT_EQ(-EBUSY, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	EXPECT_STREQ("search", bad ? bad : "(none)");
	EXPECT_EQ(VGPU_SEARCH_EXACT, T.g.p.search);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(0, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	EXPECT_EQ(VGPU_SEARCH_SAMPLED, T.g.p.search);
	vgpu_tg_fini(&T);
}

/*
 * F23 (c) under the sampled search.  SMs 1-3 each hold a spinner of
 * priority 0 at shared memory units 0-399 (400 units): their exact run is
 * 912 units, the sampled one 512, and they are no candidates of path (c)
 * (nothing of lower priority than H there).  SM 0 holds spinners of lower
 * priority than H's 1, placed in this order: @lo[0] units of priority 2
 * (none if 0), then @lo[1] units of priority 3.  H needs 900 units.
 * Returns H's dispatch cycle, its SM (~0U: none) and the blocks switched
 * out, at cycle 4096.
 */
static void path_c(u32 preempt, const u32 *lo, u64 *h_dispatch, u32 *h_sm,
		   u64 *preemptions)
{
	struct vgpu_gpu_kernel *e[3], *l[2] = { NULL, NULL }, *h;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	u32 i;

	vgpu_tg_params_small(&p, preempt);
	p.search = VGPU_SEARCH_SAMPLED;
	if (vgpu_tg_init(&T, NULL, &p))
		abort();
	for (i = 0; i < 3; i++) {
		e[i] = vgpu_tg_kernel(&T, i, 0, 1, 32, 0, VGPU_SPIN);
		e[i]->args.smem = SMEM(400);
		e[i]->args.affinity[0] = 2ULL << i;
		if (vgpu_gpu_submit(&T.g, e[i]))
			abort();
	}
	for (i = 0; i < 2; i++) {
		if (!lo[i])
			continue;
		l[i] = vgpu_tg_kernel(&T, 3 + i, 2 + i, 1, 32, T.g.now,
				      VGPU_SPIN);
		l[i]->args.smem = SMEM(lo[i]);
		l[i]->args.affinity[0] = 1;
		if (vgpu_gpu_submit(&T.g, l[i]))
			abort();
		vgpu_tg_until(&T, T.g.now + 64);
	}
	h = vgpu_tg_kernel(&T, 5, 1, 1, 32, 128, VGPU_SHORT);
	h->args.smem = SMEM(900);
	if (vgpu_gpu_submit(&T.g, h))
		abort();
	vgpu_tg_until(&T, 4096);
	*h_dispatch = h->t.dispatch;
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, h->args.id, 0);
	*h_sm = ev ? ev->sm : ~0U;
	*preemptions = T.g.stats.preemptions;
	for (i = 0; i < 3; i++)
		vgpu_gpu_cancel(&T.g, e[i]);
	for (i = 0; i < 2; i++)
		if (l[i])
			vgpu_gpu_cancel(&T.g, l[i]);
	if (!vgpu_tg_run(&T, 1000000))
		abort();
	vgpu_tg_fini(&T);
}

/*
 * Warp mode takes the block level now, the warps as the victims end: SM 0
 * holds 400 units of priority 3 (units 0-399), so its run is 912 units,
 * room for H exactly but 512 for the sampled search.  The search finds no
 * room anywhere: H waits (it used to go to SM 0 at its arrival, 128).
 */
TEST(path_c_warp_honours_the_search)
{
	static const u32 lo[2] = { 0, 400 };
	u64 at, pre;
	u32 sm;

	path_c(VGPU_PREEMPT_WARP, lo, &at, &sm, &pre);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, at);
	EXPECT_EQ(~0U, sm);
	EXPECT_EQ(0, pre);
}

/*
 * Switch mode frees victims, lowest priority first, until the block fits:
 * SM 0 holds 400 units of priority 2 (units 0-399) and 100 of priority 3
 * (400-499).  Switching out the priority 3 block leaves a run of 912
 * units: enough for an exact fit, 512 for the sampled search, so the
 * priority 2 block goes too (a run of 1,312, sampled 1,024) and H starts
 * on SM 0 at 128; two blocks switched out (it used to be one, and H
 * placed where the search sees no room).
 */
TEST(path_c_switch_honours_the_search)
{
	static const u32 lo[2] = { 400, 100 };
	u64 at, pre;
	u32 sm;

	path_c(VGPU_PREEMPT_SWITCH, lo, &at, &sm, &pre);
	EXPECT_EQ(128, at);
	EXPECT_EQ(0, sm);
	EXPECT_EQ(2, pre);
}

/*
 * The same with room the search sees once the first victim goes: 200
 * units of priority 2, then 300 of priority 3 (units 200-499; with them
 * the run is 812, sampled 512).  Without the priority 3 block it is 1,112
 * (sampled 1,024 >= 900): one block switched out, H on SM 0 at 128.
 */
TEST(path_c_switch_takes_room_the_search_sees)
{
	static const u32 lo[2] = { 200, 300 };
	u64 at, pre;
	u32 sm;

	path_c(VGPU_PREEMPT_SWITCH, lo, &at, &sm, &pre);
	EXPECT_EQ(128, at);
	EXPECT_EQ(0, sm);
	EXPECT_EQ(1, pre);
}

VGPU_TEST_SUITE(search,
	VGPU_CASE(group_divides_every_map)
	VGPU_CASE(group_refused_at_init_and_live)
	VGPU_CASE(sampled_refuses_what_it_never_finds)
	VGPU_CASE(sampled_refuses_registers_it_never_finds)
	VGPU_CASE(sampled_refuses_a_template)
	VGPU_CASE(prepared_then_sampled)
	VGPU_CASE(live_search_keeps_kernels_placeable)
	VGPU_CASE(path_c_warp_honours_the_search)
	VGPU_CASE(path_c_switch_honours_the_search)
	VGPU_CASE(path_c_switch_takes_room_the_search_sees))
