// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of userspace/core/occupancy.c (F03): NVIDIA's public examples, and
 * placement with the real allocator agreeing with the closed formula.
 */
#include <string.h>

#include "vgpu_test.h"
#include "occupancy.h"

static void vgpu_test_occ(struct __test_metadata *_metadata, const char *preset,
			  u32 t, u32 r, u32 smem, u32 blocks, u32 limit)
{
	struct vgpu_occupancy a, b;
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, preset));
	ASSERT_EQ(0, vgpu_occupancy_place(&c, t, r, smem, 0, &a));
	ASSERT_EQ(0, vgpu_occupancy_formula(&c, t, r, smem, 0, &b));
	EXPECT_EQ(blocks, a.blocks) TH_LOG("%s %u x %u smem %u", preset, t, r, smem);
	EXPECT_EQ(blocks, b.blocks);
	EXPECT_EQ(limit, a.limit) TH_LOG("%s %u x %u smem %u", preset, t, r, smem);
	EXPECT_EQ(limit, b.limit);
	EXPECT_EQ(a.blocks * ((t + 31) / 32), a.warps);
}

/* Public examples (CUDA occupancy calculator, CC 8.0 / 9.0). */
TEST(public_examples)
{
	static const char * const presets[] = { "a100", "h100" };
	u32 i;

	for (i = 0; i < 2; i++) {
		vgpu_test_occ(_metadata, presets[i], 128, 37, 0, 12,
			      VGPU_LIMIT_REGS);
		vgpu_test_occ(_metadata, presets[i], 320, 37, 0, 4,
			      VGPU_LIMIT_REGS);
	}
	vgpu_test_occ(_metadata, "a100", 224, 92, 0, 2, VGPU_LIMIT_REGS);
	vgpu_test_occ(_metadata, "a100", 256, 41, 0, 5, VGPU_LIMIT_REGS);
	vgpu_test_occ(_metadata, "a100", 256, 43, 0, 5, VGPU_LIMIT_REGS);
}

TEST(limiters)
{
	/* 64 warps: 256 threads x 32 regs -> 8 blocks, warps and regs bind */
	vgpu_test_occ(_metadata, "a100", 256, 32, 0, 8,
		      VGPU_LIMIT_WARPS | VGPU_LIMIT_REGS);
	/* 32 threads, few regs -> 32 blocks (block slots) */
	vgpu_test_occ(_metadata, "a100", 32, 16, 0, 32, VGPU_LIMIT_BLOCKS);
	/* 48 KiB + 1 KiB reserve: 164 / 49 -> 3 blocks on a100 */
	vgpu_test_occ(_metadata, "a100", 128, 16, 48 * 1024, 3,
		      VGPU_LIMIT_SMEM);
	vgpu_test_occ(_metadata, "h100", 128, 16, 48 * 1024, 4,
		      VGPU_LIMIT_SMEM);
	/* largest allowed block smem */
	vgpu_test_occ(_metadata, "a100", 128, 16, 166912, 1, VGPU_LIMIT_SMEM);
	vgpu_test_occ(_metadata, "h100", 128, 16, 232448, 1, VGPU_LIMIT_SMEM);
	/* cannot run at all */
	vgpu_test_occ(_metadata, "a100", 128, 16, 166913, 0, VGPU_LIMIT_SMEM);
	vgpu_test_occ(_metadata, "a100", 1056, 16, 0, 0, VGPU_LIMIT_WARPS);
	/*
	 * Several limits at zero blocks, all named: 1,056 threads
	 * break the per-block limit, and 33 warps of 64 registers a thread
	 * (67,584 registers) would not fit the SM's 65,536 either; more
	 * shared memory than a block may have is named with them.  256
	 * registers a thread (over 255) with 66 KiB of shared memory, which
	 * the SM holds: registers only.
	 */
	vgpu_test_occ(_metadata, "a100", 1056, 64, 0, 0,
		      VGPU_LIMIT_WARPS | VGPU_LIMIT_REGS);
	vgpu_test_occ(_metadata, "a100", 1056, 64, 166913, 0,
		      VGPU_LIMIT_WARPS | VGPU_LIMIT_REGS | VGPU_LIMIT_SMEM);
	vgpu_test_occ(_metadata, "a100", 128, 256, 66 * 1024, 0,
		      VGPU_LIMIT_REGS);
	vgpu_test_occ(_metadata, "a100", 128, 256, 0, 0, VGPU_LIMIT_REGS);
	/* Rw * roundup(W, 4) > 65536: 1024 threads x 255 regs */
	vgpu_test_occ(_metadata, "a100", 1024, 255, 0, 0, VGPU_LIMIT_REGS);
	/* 1024 threads x 64 regs = exactly 65536 */
	vgpu_test_occ(_metadata, "a100", 1024, 64, 0, 1,
		      VGPU_LIMIT_REGS);
}

/* Placement and formula agree: threads 32..1024, regs 1..255, smem sizes. */
TEST(sweep_place_equals_formula)
{
	static const char * const presets[] = { "a100", "h100" };
	static const u32 smems[] = { 0, 1, 3000, 8192, 20000, 49152, 100000,
				     166912, 232448 };
	struct vgpu_occupancy a, b;
	struct vgpu_config c;
	u32 p, t, r, s, n = 0;

	for (p = 0; p < 2; p++) {
		ASSERT_EQ(0, vgpu_config_preset(&c, presets[p]));
		for (t = 32; t <= 1024; t += 32)
			for (r = 1; r <= 255; r++)
				for (s = 0; s < ARRAY_SIZE(smems); s++) {
					ASSERT_EQ(0, vgpu_occupancy_place(&c, t, r, smems[s], 0, &a));
					ASSERT_EQ(0, vgpu_occupancy_formula(&c, t, r, smems[s], 0, &b));
					ASSERT_EQ(b.blocks, a.blocks)
						TH_LOG("%s %u x %u smem %u", presets[p], t, r, smems[s]);
					ASSERT_EQ(b.limit, a.limit)
						TH_LOG("%s %u x %u smem %u", presets[p], t, r, smems[s]);
					ASSERT_EQ(b.warps, a.warps);
					ASSERT_NE(0, a.limit);
					n++;
				}
	}
	TH_LOG("%u shapes agree", n);
}

/*
 * The scalar register file (seed 001 [0042]) as a fifth limiter, by hand:
 * h100 with 1,024 scalar registers per sub-partition in units of 64 (16
 * units).  128 threads (4 warps) x 32 registers: warps allow 16 blocks,
 * registers 16 (1,024 per warp = 4 units of 256; 64 units per
 * sub-partition: 16 warps each, 64 / 4 = 16 blocks).  320 scalar
 * registers a warp = 5 units: 3 warps per sub-partition, 12 per SM, 3
 * blocks; 256 = 4 units: 4 warps each, 4 blocks; 1,025 > the file:
 * none; and a device without the file runs no block that wants one.
 */
TEST(scalar_file)
{
	static const struct {
		u32 sregs, blocks, limit;
	} v[] = {
		{ 0, 16, VGPU_LIMIT_WARPS | VGPU_LIMIT_REGS },
		{ 320, 3, VGPU_LIMIT_SREGS },
		{ 256, 4, VGPU_LIMIT_SREGS },
		{ 64, 16, VGPU_LIMIT_WARPS | VGPU_LIMIT_REGS |
			  VGPU_LIMIT_SREGS },
		{ 1025, 0, VGPU_LIMIT_SREGS },
	};
	struct vgpu_occupancy a, b;
	struct vgpu_config c;
	u32 i;

	ASSERT_EQ(0, vgpu_config_preset(&c, "h100"));
	ASSERT_EQ(0, vgpu_occupancy_formula(&c, 128, 32, 0, 4, &a));
	EXPECT_EQ(0, a.blocks);
	EXPECT_EQ(VGPU_LIMIT_SREGS, a.limit);
	c.sregs_per_subpart = 1024;
	c.sreg_unit = 64;
	ASSERT_EQ(0, vgpu_config_validate(&c, NULL));
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		ASSERT_EQ(0, vgpu_occupancy_place(&c, 128, 32, 0, v[i].sregs,
						  &a));
		ASSERT_EQ(0, vgpu_occupancy_formula(&c, 128, 32, 0,
						    v[i].sregs, &b));
		EXPECT_EQ(v[i].blocks, a.blocks) TH_LOG("sregs %u", v[i].sregs);
		EXPECT_EQ(v[i].blocks, b.blocks) TH_LOG("sregs %u", v[i].sregs);
		EXPECT_EQ(v[i].limit, a.limit) TH_LOG("sregs %u", v[i].sregs);
		EXPECT_EQ(v[i].limit, b.limit) TH_LOG("sregs %u", v[i].sregs);
	}
}

/* Placement and formula agree with a scalar file too. */
TEST(sweep_scalar_file)
{
	struct vgpu_occupancy a, b;
	struct vgpu_config c;
	u32 t, r, sr;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	c.sregs_per_subpart = 2048;
	c.sreg_unit = 32;
	ASSERT_EQ(0, vgpu_config_validate(&c, NULL));
	for (t = 32; t <= 1024; t += 96)
		for (r = 8; r <= 255; r += 23)
			for (sr = 0; sr <= 2048; sr += 97) {
				ASSERT_EQ(0, vgpu_occupancy_place(&c, t, r, 0, sr, &a));
				ASSERT_EQ(0, vgpu_occupancy_formula(&c, t, r, 0, sr, &b));
				ASSERT_EQ(b.blocks, a.blocks)
					TH_LOG("%u x %u sregs %u", t, r, sr);
				ASSERT_EQ(b.limit, a.limit)
					TH_LOG("%u x %u sregs %u", t, r, sr);
			}
}

TEST(zero_threads)
{
	struct vgpu_occupancy o;
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	EXPECT_EQ(-EINVAL, vgpu_occupancy_place(&c, 0, 1, 0, 0, &o));
	EXPECT_EQ(-EINVAL, vgpu_occupancy_formula(&c, 0, 1, 0, 0, &o));
}

VGPU_TEST_SUITE(occupancy,
	VGPU_CASE(public_examples)
	VGPU_CASE(limiters)
	VGPU_CASE(sweep_place_equals_formula)
	VGPU_CASE(scalar_file)
	VGPU_CASE(sweep_scalar_file)
	VGPU_CASE(zero_threads))
