// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/occupancy.c (F03): NVIDIA's public examples, and
 * placement with the real allocator agreeing with the closed formula.
 */
#include <string.h>

#include "kselftest_harness.h"
#undef ARRAY_SIZE	/* the shim brings the kernel's */
#include "occupancy.h"

static void vgpu_test_occ(struct __test_metadata *_metadata, const char *preset,
			  u32 t, u32 r, u32 smem, u32 blocks, u32 limit)
{
	struct vgpu_occupancy a, b;
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, preset));
	ASSERT_EQ(0, vgpu_occupancy_place(&c, t, r, smem, &a));
	ASSERT_EQ(0, vgpu_occupancy_formula(&c, t, r, smem, &b));
	EXPECT_EQ(blocks, a.blocks) TH_LOG("%s %u x %u smem %u", preset, t, r, smem);
	EXPECT_EQ(blocks, b.blocks);
	EXPECT_EQ(limit, a.limit) TH_LOG("%s %u x %u smem %u", preset, t, r, smem);
	EXPECT_EQ(limit, b.limit);
	EXPECT_EQ(a.blocks * ((t + 31) / 32), a.warps);
}

/* The public examples (CUDA occupancy calculator, CC 8.0 / 9.0). */
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
	 * Several limits at zero blocks, all named (issue 18): 1,056 threads
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
					ASSERT_EQ(0, vgpu_occupancy_place(&c, t, r, smems[s], &a));
					ASSERT_EQ(0, vgpu_occupancy_formula(&c, t, r, smems[s], &b));
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

TEST(zero_threads)
{
	struct vgpu_occupancy o;
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	EXPECT_EQ(-EINVAL, vgpu_occupancy_place(&c, 0, 1, 0, &o));
	EXPECT_EQ(-EINVAL, vgpu_occupancy_formula(&c, 0, 1, 0, &o));
}

TEST_HARNESS_MAIN
