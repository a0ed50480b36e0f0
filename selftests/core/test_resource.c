// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/resource.c: split table and pointer (F31),
 * all-or-nothing block allocation, per-warp release (F32, F33), the
 * F23 / F25 queries, and random allocate/free against a plain model.
 */
#include <string.h>

#include "vgpu_test.h"
#include "resource.h"
#include "vgpu_test_rand.h"

/* A tiny custom SM so that fragmentation and every limit are exercised. */
static const struct vgpu_config vgpu_test_tiny = {
	.num_sms = 2, .subparts = 4, .regs_per_subpart = 20 * 64,
	.reg_unit = 64, .warps_per_subpart = 5, .max_warps_per_sm = 17,
	.max_blocks_per_sm = 7, .max_barriers_per_sm = 4,
	.smem_per_sm = 70 * 128, .smem_unit = 128, .smem_reserve = 128,
	.smem_max_per_block = 60 * 128, .max_threads_per_block = 256,
	.warp_size = 32, .num_prios = 2, .name = "tiny",
};

/* F31: Q = 4, w = 1..16, initial combinations from the split table. */
TEST(split_table)
{
	u32 counts[4], w, i, ptr, sum;

	for (w = 1; w <= 16; w++) {
		vgpu_split_counts(w, 4, 0, counts);
		for (i = 0; i < 4; i++)
			EXPECT_EQ(w / 4 + (i < w % 4), counts[i]) TH_LOG("w=%u", w);
		for (ptr = 0; ptr < 4; ptr++) {
			vgpu_split_counts(w, 4, ptr, counts);
			sum = 0;
			for (i = 0; i < 4; i++) {
				EXPECT_EQ(w / 4 + ((i + 4 - ptr) % 4 < w % 4),
					  counts[i]);
				sum += counts[i];
			}
			EXPECT_EQ(w, sum);
		}
	}
	vgpu_split_counts(6, 4, 0, counts);
	EXPECT_EQ(2, counts[0]);
	EXPECT_EQ(2, counts[1]);
	EXPECT_EQ(1, counts[2]);
	EXPECT_EQ(1, counts[3]);
	vgpu_split_counts(6, 4, 3, counts);
	EXPECT_EQ(2, counts[3]);
	EXPECT_EQ(2, counts[0]);
	EXPECT_EQ(1, counts[1]);
}

/* A block's warps follow the split table rotated by the pointer. */
TEST(placement_follows_split_table)
{
	struct vgpu_block_place pl;
	struct vgpu_block_shape s;
	struct vgpu_sm_res sm;
	struct vgpu_config c;
	u32 counts[4], got[4] = { 0 }, i;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	vgpu_sm_res_init(&sm, &c);
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 96, 32, 0, 0, NULL));
	ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl));	/* 3 warps */
	EXPECT_EQ(3, sm.split_ptr);
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 192, 32, 0, 0, NULL));
	ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl));	/* 6 warps */
	vgpu_split_counts(6, 4, 3, counts);
	for (i = 0; i < 6; i++)
		got[pl.warp[i].subpart]++;
	for (i = 0; i < 4; i++)
		EXPECT_EQ(counts[i], got[i]);
	EXPECT_EQ(1, sm.split_ptr);
	/* 3 warps on 0,1,2 then 6 on 3,0,1,2,3,0 */
	EXPECT_EQ(3, sm.warps_used[0]);
	EXPECT_EQ(2, sm.warps_used[1]);
	EXPECT_EQ(2, sm.warps_used[2]);
	EXPECT_EQ(2, sm.warps_used[3]);
}

/*
 * F31: the pointer moves only on the SM that takes the block (not on a
 * failed allocation or a query), and after many blocks the per-sub-
 * partition loads differ by at most 1.
 */
TEST(split_pointer)
{
	struct vgpu_test_rng r = { 31 };
	VGPU_TEST_BIG struct vgpu_block_place pl;
	VGPU_TEST_BIG struct vgpu_block_shape s, big;
	VGPU_TEST_BIG struct vgpu_sm_res sm[3];
	VGPU_TEST_BIG struct vgpu_config c;
	u64 placed[4] = { 0 };
	u32 n, i, ptr1, ptr2, lo, hi;

	ASSERT_EQ(0, vgpu_config_preset(&c, "small"));
	for (i = 0; i < 3; i++)
		vgpu_sm_res_init(&sm[i], &c);
	ASSERT_EQ(0, vgpu_block_shape_init(&big, &c, 1024, 255, 0, 0, NULL));
	for (n = 0; n < VGPU_TEST_SCALE(20000, 2000); n++) {
		u32 t = 32 * (1 + vgpu_test_below(&r, 32));

		ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, t, 32, 0, 0, NULL));
		ptr1 = sm[1].split_ptr;
		ptr2 = sm[2].split_ptr;
		vgpu_sm_res_blocks_fit(&sm[1], &s);
		vgpu_sm_res_warp_fits(&sm[1], &s);
		vgpu_sm_res_why_not(&sm[1], &s);
		EXPECT_EQ(-ENOSPC, vgpu_sm_res_alloc_block(&sm[1], &big, &pl));
		ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm[0], &s, &pl));
		for (i = 0; i < s.warps; i++)
			placed[pl.warp[i].subpart]++;
		vgpu_sm_res_free_block(&sm[0], &pl);
		ASSERT_EQ(ptr1, sm[1].split_ptr);
		ASSERT_EQ(ptr2, sm[2].split_ptr);
		if (n % 7 == 0) {	/* SM 2 takes some blocks too */
			ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm[2], &s, &pl));
			ASSERT_EQ((ptr2 + s.warps) % 4, sm[2].split_ptr);
			vgpu_sm_res_free_block(&sm[2], &pl);
		}
		lo = hi = placed[0];
		for (i = 1; i < 4; i++) {
			lo = min(lo, (u32)placed[i]);
			hi = max(hi, (u32)placed[i]);
		}
		ASSERT_LE(hi - lo, 1);
	}
	/* resident loads stay balanced while an SM fills up */
	vgpu_sm_res_init(&sm[0], &c);
	for (n = 0; n < 64; n++) {
		u32 t = 32 * (1 + vgpu_test_below(&r, 5));

		ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, t, 8, 0, 0, NULL));
		if (vgpu_sm_res_alloc_block(&sm[0], &s, &pl))
			break;
		lo = hi = sm[0].warps_used[0];
		for (i = 1; i < 4; i++) {
			lo = min(lo, sm[0].warps_used[i]);
			hi = max(hi, sm[0].warps_used[i]);
		}
		ASSERT_LE(hi - lo, 1);
	}
}

/* Per-warp release (F33), block-level release, F23 b and F25 queries. */
TEST(warp_release_and_queries)
{
	VGPU_TEST_BIG struct vgpu_block_place pl[40];
	VGPU_TEST_BIG struct vgpu_block_shape s;
	VGPU_TEST_BIG struct vgpu_sm_res sm, fresh;
	VGPU_TEST_BIG struct vgpu_config c;
	u32 n, i;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	vgpu_sm_res_init(&sm, &c);
	fresh = sm;
	/* 128 x 37 regs: 12 blocks fit (regs) */
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 128, 37, 0, 1, NULL));
	EXPECT_EQ(12, vgpu_sm_res_blocks_fit(&sm, &s));
	for (n = 0; n < 12; n++) {
		EXPECT_EQ(12 - n, vgpu_sm_res_blocks_fit(&sm, &s));
		ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl[n]));
	}
	EXPECT_EQ(0, vgpu_sm_res_blocks_fit(&sm, &s));
	EXPECT_FALSE(vgpu_sm_res_block_fits(&sm, &s));
	EXPECT_FALSE(vgpu_sm_res_warp_fits(&sm, &s));
	EXPECT_EQ(VGPU_LIMIT_REGS, vgpu_sm_res_why_not(&sm, &s));
	/* one warp of block 0 exits: one warp fits, not a block */
	vgpu_sm_res_free_warp(&sm, &pl[0], 2);
	EXPECT_EQ(3, pl[0].warps_held);
	vgpu_sm_res_free_warp(&sm, &pl[0], 2);	/* idempotent */
	EXPECT_EQ(3, pl[0].warps_held);
	EXPECT_TRUE(vgpu_sm_res_warp_fits(&sm, &s));
	EXPECT_FALSE(vgpu_sm_res_block_fits(&sm, &s));
	/* F23 b: take the block, start its warps as resources free */
	ASSERT_EQ(0, vgpu_sm_res_take_block(&sm, &s, &pl[12]));
	EXPECT_EQ(0, vgpu_sm_res_alloc_warp(&sm, &pl[12], 0));
	EXPECT_EQ(-EINVAL, vgpu_sm_res_alloc_warp(&sm, &pl[12], 0));
	EXPECT_EQ(-EINVAL, vgpu_sm_res_alloc_warp(&sm, &pl[12], 4));
	EXPECT_EQ(-ENOSPC, vgpu_sm_res_alloc_warp(&sm, &pl[12], 1));
	vgpu_sm_res_free_warp(&sm, &pl[1], 0);
	EXPECT_EQ(0, vgpu_sm_res_alloc_warp(&sm, &pl[12], 1));
	EXPECT_EQ(2, pl[12].warps_held);
	/* the block completes: everything back */
	for (n = 0; n <= 12; n++) {
		for (i = 0; i < s.warps; i++)
			vgpu_sm_res_free_warp(&sm, &pl[n], i);
		vgpu_sm_res_free_block(&sm, &pl[n]);
		EXPECT_FALSE(pl[n].block_held);
	}
	fresh.split_ptr = sm.split_ptr;
	EXPECT_EQ(0, memcmp(&fresh, &sm, sizeof(sm)));
	/* barriers are counted: 32 per SM */
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 32, 8, 0, 12, NULL));
	EXPECT_EQ(2, vgpu_sm_res_blocks_fit(&sm, &s));
	ASSERT_EQ(-E2BIG, vgpu_block_shape_init(&s, &c, 32, 8, 0, 33, &n));
	EXPECT_EQ(VGPU_LIMIT_BARRIERS, n);
}

/* ---- random allocate / free against a plain per-unit model ---- */

struct vgpu_test_model {
	u16 regs[VGPU_MAX_SUBPARTS][VGPU_MAX_REG_UNITS];	/* owner, 0 free */
	u16 smem[VGPU_MAX_SMEM_UNITS];
	u32 warps[VGPU_MAX_SUBPARTS], total, blocks, barriers, ptr;
};

struct vgpu_test_blk {
	bool live;
	struct vgpu_block_place pl;
};

/* naive first fit on an owner array */
static int vgpu_test_ff(const u16 *own, u32 n, u32 len)
{
	u32 i, run = 0;

	if (!len)
		return 0;
	for (i = 0; i < n; i++) {
		run = own[i] ? 0 : run + 1;
		if (run == len)
			return i + 1 - len;
	}
	return -1;
}

static void vgpu_test_fill(u16 *own, u32 start, u32 len, u16 v)
{
	while (len--)
		own[start++] = v;
}

/* The real state must equal the model, bit for bit and counter for counter. */
static void vgpu_test_compare(struct __test_metadata *_metadata,
			      const struct vgpu_sm_res *sm,
			      const struct vgpu_test_model *m)
{
	u32 p, u;

	for (p = 0; p < sm->subparts; p++) {
		for (u = 0; u < sm->reg_units; u++)
			ASSERT_EQ(!m->regs[p][u], vgpu_bmap_test(sm->regs[p], u));
		ASSERT_EQ(m->warps[p], sm->warps_used[p]);
	}
	for (u = 0; u < sm->smem_units; u++)
		ASSERT_EQ(!m->smem[u], vgpu_bmap_test(sm->smem, u));
	ASSERT_EQ(m->total, sm->warps_total);
	ASSERT_EQ(m->blocks, sm->blocks_used);
	ASSERT_EQ(m->barriers, sm->barriers_used);
	ASSERT_EQ(m->ptr, sm->split_ptr);
}

/*
 * Model of vgpu_sm_res_alloc_block(): returns true and fills the model if
 * the block fits, checking every unit it hands out was free.
 */
static bool vgpu_test_model_alloc(struct vgpu_test_model *m,
				  const struct vgpu_sm_res *sm,
				  const struct vgpu_block_shape *s,
				  const struct vgpu_block_place *pl, u16 id,
				  bool whole, struct __test_metadata *_metadata)
{
	VGPU_TEST_BIG struct vgpu_test_model t;
	u32 i, p;
	int st;

	t = *m;
	if (t.blocks >= sm->max_blocks ||
	    t.barriers + s->barriers > sm->max_barriers)
		return false;
	st = vgpu_test_ff(t.smem, sm->smem_units, s->smem_units);
	if (st < 0)
		return false;
	if (pl)
		EXPECT_EQ((u32)st, pl->smem_start);
	vgpu_test_fill(t.smem, st, s->smem_units, id);
	t.blocks++;
	t.barriers += s->barriers;
	for (i = 0; whole && i < s->warps; i++) {
		p = (t.ptr + i) % sm->subparts;
		if (t.warps[p] >= sm->warps_per_subpart ||
		    t.total >= sm->max_warps)
			return false;
		st = vgpu_test_ff(t.regs[p], sm->reg_units, s->reg_units);
		if (st < 0)
			return false;
		if (pl) {
			EXPECT_EQ(p, pl->warp[i].subpart);
			EXPECT_EQ((u32)st, pl->warp[i].reg_start);
		}
		vgpu_test_fill(t.regs[p], st, s->reg_units, id);
		t.warps[p]++;
		t.total++;
	}
	t.ptr = (t.ptr + s->warps) % sm->subparts;
	*m = t;
	return true;
}

static void vgpu_test_random_alloc_free(struct __test_metadata *_metadata,
					const struct vgpu_config *c, u64 seed,
					u32 steps)
{
	static struct vgpu_test_blk blk[64];
	struct vgpu_test_rng r = { seed };
	VGPU_TEST_BIG struct vgpu_test_model m;
	VGPU_TEST_BIG struct vgpu_sm_res sm, before, fresh;
	VGPU_TEST_BIG struct vgpu_block_shape s;
	u32 n, i, k, op, fails = 0, oks = 0, ures = 0;
	bool whole, fit;
	int ret;

	memset(&m, 0, sizeof(m));
	memset(blk, 0, sizeof(blk));
	vgpu_sm_res_init(&sm, c);
	fresh = sm;
	for (n = 0; n < steps; n++) {
		op = vgpu_test_below(&r, 100);
		k = vgpu_test_below(&r, 64);
		if (op < 55 && !blk[k].live) {
			u32 t = 1 + vgpu_test_below(&r, c->max_threads_per_block /
						    (1 + vgpu_test_below(&r, 4)));
			u32 rg = vgpu_test_below(&r, 1 + min(254u,
						 c->regs_per_subpart / c->warp_size / 2));
			u32 sb = vgpu_test_below(&r, c->smem_max_per_block / 3 + 1);

			ASSERT_EQ(0, vgpu_block_shape_init(&s, c, t, rg, sb,
							   vgpu_test_below(&r, 2),
							   NULL));
			whole = op < 45;
			before = sm;
			if (whole)
				ret = vgpu_sm_res_alloc_block(&sm, &s, &blk[k].pl);
			else
				ret = vgpu_sm_res_take_block(&sm, &s, &blk[k].pl);
			fit = vgpu_test_model_alloc(&m, &before, &s,
						    ret ? NULL : &blk[k].pl,
						    k + 1, whole, _metadata);
			ASSERT_EQ(fit, !ret) TH_LOG("step %u", n);
			if (ret) {
				/* a failed allocation changes nothing */
				ASSERT_EQ(0, memcmp(&before, &sm, sizeof(sm)));
				fails++;
			} else {
				blk[k].live = true;
				oks++;
			}
		} else if (op < 75 && blk[k].live) {
			/* a block completes */
			struct vgpu_block_place *pl = &blk[k].pl;

			for (i = 0; i < pl->shape.warps; i++) {
				if (!pl->warp[i].held)
					continue;
				vgpu_test_fill(m.regs[pl->warp[i].subpart],
					       pl->warp[i].reg_start,
					       pl->shape.reg_units, 0);
				m.warps[pl->warp[i].subpart]--;
				m.total--;
			}
			vgpu_test_fill(m.smem, pl->smem_start,
				       pl->shape.smem_units, 0);
			m.blocks--;
			m.barriers -= pl->shape.barriers;
			vgpu_sm_res_free_block(&sm, pl);
			blk[k].live = false;
		} else if (op < 88 && blk[k].live) {
			/* one warp exits (F33) */
			struct vgpu_block_place *pl = &blk[k].pl;

			i = vgpu_test_below(&r, pl->shape.warps);
			if (pl->warp[i].held) {
				vgpu_test_fill(m.regs[pl->warp[i].subpart],
					       pl->warp[i].reg_start,
					       pl->shape.reg_units, 0);
				m.warps[pl->warp[i].subpart]--;
				m.total--;
			}
			vgpu_sm_res_free_warp(&sm, pl, i);
		} else if (blk[k].live) {
			/* start an unstarted warp where it fits (F23 b) */
			struct vgpu_block_place *pl = &blk[k].pl;
			u32 p = 0, j;
			int st = -1;

			i = vgpu_test_below(&r, pl->shape.warps);
			if (pl->warp[i].held)
				continue;
			before = sm;
			ret = vgpu_sm_res_alloc_warp(&sm, pl, i);
			for (j = 0; j < sm.subparts; j++) {
				p = (pl->base_subpart + i + j) % sm.subparts;
				if (m.warps[p] >= sm.warps_per_subpart ||
				    m.total >= sm.max_warps)
					continue;
				st = vgpu_test_ff(m.regs[p], sm.reg_units,
						  pl->shape.reg_units);
				if (st >= 0)
					break;
			}
			ASSERT_EQ(st >= 0, !ret);
			if (ret) {
				ASSERT_EQ(0, memcmp(&before, &sm, sizeof(sm)));
				continue;
			}
			ASSERT_EQ(p, pl->warp[i].subpart);
			ASSERT_EQ((u32)st, pl->warp[i].reg_start);
			vgpu_test_fill(m.regs[p], st, pl->shape.reg_units, k + 1);
			m.warps[p]++;
			m.total++;
			ures++;
		}
		vgpu_test_compare(_metadata, &sm, &m);
	}
	/* no leak: freeing everything gives back a fresh SM */
	for (k = 0; k < 64; k++)
		if (blk[k].live)
			vgpu_sm_res_free_block(&sm, &blk[k].pl);
	fresh.split_ptr = sm.split_ptr;
	ASSERT_EQ(0, memcmp(&fresh, &sm, sizeof(sm)));
	TH_LOG("%u blocks placed, %u refused, %u warps started late", oks,
	       fails, ures);
	ASSERT_GT(oks, steps / 20);
	ASSERT_GT(fails, steps / 50);
}

/*
 * F01/F02, seed 001 [0042]: a scalar register file beside the vector one,
 * both contiguous per sub-partition.  a100 limits with 1,024 scalar
 * registers in units of 64 (16 units) per sub-partition.  320 scalar
 * registers a warp (5 units): a block of 4 warps (one per sub-partition)
 * takes 5 units in each, so 3 blocks fit (15 of 16 units) and the fourth
 * is refused for the scalar file alone.  Free the middle block: 6 units
 * are free in each sub-partition but in two runs (5 + 1), so a warp of 384
 * (6 units) does not fit: the file is allocated contiguously.  Without a
 * scalar file a kernel that needs one never fits (-E2BIG).
 */
TEST(scalar_register_file)
{
	VGPU_TEST_BIG struct vgpu_block_place pl[3], x;
	VGPU_TEST_BIG struct vgpu_block_shape s, big;
	VGPU_TEST_BIG struct vgpu_sm_res sm;
	VGPU_TEST_BIG struct vgpu_config c;
	const char *bad;
	u32 i;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	EXPECT_EQ(-E2BIG, vgpu_block_shape_set_sregs(&s, &c, 64));
	c.sregs_per_subpart = 1024;
	c.sreg_unit = 64;
	ASSERT_EQ(0, vgpu_config_validate(&c, NULL));
	vgpu_sm_res_init(&sm, &c);
	EXPECT_EQ(16, sm.sreg_units);
	EXPECT_EQ(64, sm.sreg_free);
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 128, 16, 0, 0, NULL));
	/* a warp's run is at most a sub-partition's file (1,024) */
	EXPECT_EQ(-E2BIG, vgpu_block_shape_set_sregs(&s, &c, 1025));
	EXPECT_EQ(0, s.sreg_units);
	ASSERT_EQ(0, vgpu_block_shape_set_sregs(&s, &c, 1024));
	EXPECT_EQ(16, s.sreg_units);
	ASSERT_EQ(0, vgpu_block_shape_set_sregs(&s, &c, 320));
	EXPECT_EQ(5, s.sreg_units);
	EXPECT_EQ(3, vgpu_sm_res_blocks_fit(&sm, &s));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl[i]));
	EXPECT_EQ(VGPU_LIMIT_SREGS, vgpu_sm_res_why_not(&sm, &s));
	EXPECT_EQ(-ENOSPC, vgpu_sm_res_alloc_block(&sm, &s, &x));
	EXPECT_EQ(4, sm.sreg_free);
	vgpu_sm_res_free_block(&sm, &pl[1]);
	EXPECT_EQ(24, sm.sreg_free);
	ASSERT_EQ(0, vgpu_block_shape_init(&big, &c, 128, 16, 0, 0, NULL));
	ASSERT_EQ(0, vgpu_block_shape_set_sregs(&big, &c, 384));
	EXPECT_EQ(VGPU_LIMIT_SREGS, vgpu_sm_res_why_not(&sm, &big));
	EXPECT_FALSE(vgpu_sm_res_warp_fits(&sm, &big));
	EXPECT_TRUE(vgpu_sm_res_block_fits(&sm, &s));
	vgpu_sm_res_free_block(&sm, &pl[0]);
	vgpu_sm_res_free_block(&sm, &pl[2]);
	EXPECT_EQ(64, sm.sreg_free);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(16, vgpu_bmap_weight(sm.sregs[i], 16));
	/* whole units, at most VGPU_MAX_REG_UNITS of them */
	c.sregs_per_subpart = 1000;
	EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad));
	EXPECT_STREQ("sregs_per_subpart", bad);
	c.sregs_per_subpart = (VGPU_MAX_REG_UNITS + 1) * 64;
	EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad));
	EXPECT_STREQ("sregs_per_subpart", bad);
	c.sregs_per_subpart = VGPU_MAX_REG_UNITS * 64;
	EXPECT_EQ(0, vgpu_config_validate(&c, &bad));
	c.sregs_per_subpart = 1024;
	/* a scalar file asks for a unit; a unit asks for a file */
	c.sreg_unit = 48;
	EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad));
	EXPECT_STREQ("sreg_unit", bad);
	c.sregs_per_subpart = 0;
	c.sreg_unit = 64;
	EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad));
	EXPECT_STREQ("sreg_unit", bad);
}

/*
 * vgpu_sm_res_why_not() names the barriers only when too few are left:
 * an SM with two hardware barriers and one block holding one still has
 * room for a block needing one; with both held it has not.
 */
TEST(why_not_barriers_at_the_bound)
{
	struct vgpu_block_place pl;
	struct vgpu_block_shape s;
	struct vgpu_sm_res sm;
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, "small"));
	c.max_barriers_per_sm = 2;
	ASSERT_EQ(0, vgpu_config_validate(&c, NULL));
	vgpu_sm_res_init(&sm, &c);
	ASSERT_EQ(0, vgpu_block_shape_init(&s, &c, 32, 16, 0, 1, NULL));
	ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl));
	EXPECT_EQ(0, vgpu_sm_res_why_not(&sm, &s) & VGPU_LIMIT_BARRIERS);
	ASSERT_EQ(0, vgpu_sm_res_alloc_block(&sm, &s, &pl));
	EXPECT_EQ(VGPU_LIMIT_BARRIERS,
		  vgpu_sm_res_why_not(&sm, &s) & VGPU_LIMIT_BARRIERS);
	vgpu_sm_res_fini(&sm);
}

/*
 * A block's arrival clears its warp table and placement with memset() of a
 * size known at run time; natively a size under 64 bytes is stored in
 * words (vgpu_os_user.h).  Every size around the word and 64-byte bounds,
 * at every alignment: the bytes asked for take the value, the guards
 * around them do not change.
 */
TEST(memset_of_runtime_sizes)
{
	static const int vals[] = { 0, 0xff, 0x5a };
	u8 buf[160];
	size_t n, off, i, v;

	for (v = 0; v < ARRAY_SIZE(vals); v++)
		for (off = 0; off < 8; off++)
			for (n = 0; n <= 80; n++) {
				for (i = 0; i < sizeof(buf); i++)
					buf[i] = (u8)(i * 7 + 1);
				memset(buf + 16 + off, vals[v], n);
				for (i = 0; i < sizeof(buf); i++) {
					bool in = i >= 16 + off &&
						  i < 16 + off + n;

					ASSERT_EQ(in ? (u8)vals[v] :
						  (u8)(i * 7 + 1), buf[i])
						TH_LOG("size %zu offset %zu byte %zu",
						       n, off, i);
				}
			}
}

TEST(random_alloc_free_tiny)
{
	vgpu_test_random_alloc_free(_metadata, &vgpu_test_tiny, 1,
				    VGPU_TEST_SCALE(200000, 5000));
}

TEST(random_alloc_free_a100)
{
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	vgpu_test_random_alloc_free(_metadata, &c, 2,
				    VGPU_TEST_SCALE(50000, 2000));
}

VGPU_TEST_SUITE(resource,
	VGPU_CASE(split_table)
	VGPU_CASE(placement_follows_split_table)
	VGPU_CASE(split_pointer)
	VGPU_CASE(warp_release_and_queries)
	VGPU_CASE(scalar_register_file)
	VGPU_CASE(why_not_barriers_at_the_bound)
	VGPU_CASE(memset_of_runtime_sizes)
	VGPU_CASE(random_alloc_free_tiny)
	VGPU_CASE(random_alloc_free_a100))
