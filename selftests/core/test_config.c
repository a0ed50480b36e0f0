// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/config.c: presets and validation (F01-F03).
 */
#include <stddef.h>
#include <string.h>

#include <linux/vgpu_dispatch.h>

#include "vgpu_test.h"
#include "config.h"
#include "timing.h"

/* config.h mirrors the uapi preset numbers and struct layout. */
static_assert(VGPU_CFG_PRESET_SMALL == VGPU_PRESET_SMALL, "preset small");
static_assert(VGPU_CFG_PRESET_A100 == VGPU_PRESET_A100, "preset a100");
static_assert(VGPU_CFG_PRESET_H100 == VGPU_PRESET_H100, "preset h100");
/* the uapi's fields first; the scalar file (not in the uapi yet) after */
static_assert(offsetof(struct vgpu_config, sregs_per_subpart) ==
	      sizeof(struct vgpu_dev_config), "config mirrors uapi");
static_assert(offsetof(struct vgpu_config, preset) ==
	      offsetof(struct vgpu_dev_config, preset), "preset offset");
static_assert(offsetof(struct vgpu_config, name) ==
	      offsetof(struct vgpu_dev_config, name), "name offset");

/* F03: a100 / h100 carry NVIDIA's CC 8.0 / 9.0 per-SM limits. */
TEST(preset_a100)
{
	struct vgpu_config c;

	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	EXPECT_EQ(108, c.num_sms);
	EXPECT_EQ(4, c.subparts);
	EXPECT_EQ(65536, c.subparts * c.regs_per_subpart);
	EXPECT_EQ(256, c.reg_unit);
	EXPECT_EQ(64, c.max_warps_per_sm);
	EXPECT_EQ(32, c.max_blocks_per_sm);
	EXPECT_EQ(167936, c.smem_per_sm);
	EXPECT_EQ(166912, c.smem_max_per_block);
	EXPECT_EQ(128, c.smem_unit);
	EXPECT_EQ(1024, c.smem_reserve);
	EXPECT_EQ(VGPU_PRESET_A100, c.preset);
	EXPECT_STREQ("a100", c.name);
	EXPECT_EQ(0, vgpu_config_validate(&c, NULL));
}

TEST(preset_h100_small)
{
	struct vgpu_config c;
	const char *bad = "x";

	ASSERT_EQ(0, vgpu_config_preset(&c, "h100"));
	EXPECT_EQ(132, c.num_sms);
	EXPECT_EQ(233472, c.smem_per_sm);
	EXPECT_EQ(232448, c.smem_max_per_block);
	EXPECT_EQ(VGPU_PRESET_H100, c.preset);
	EXPECT_EQ(0, vgpu_config_validate(&c, &bad));
	EXPECT_EQ(NULL, bad);

	ASSERT_EQ(0, vgpu_config_preset(&c, "small"));
	EXPECT_EQ(4, c.num_sms);
	EXPECT_EQ(167936, c.smem_per_sm);
	EXPECT_EQ(VGPU_PRESET_SMALL, c.preset);
	EXPECT_EQ(0, vgpu_config_validate(&c, NULL));
}

TEST(preset_unknown)
{
	struct vgpu_config c;

	memset(&c, 0x5a, sizeof(c));
	EXPECT_EQ(-EINVAL, vgpu_config_preset(&c, "b200"));
	EXPECT_EQ(-EINVAL, vgpu_config_preset(&c, ""));
	EXPECT_EQ(-EINVAL, vgpu_config_preset(&c, "a1000"));
	EXPECT_EQ(-EINVAL, vgpu_config_preset(&c, NULL));
	EXPECT_EQ(0x5a5a5a5a, c.num_sms);	/* untouched on failure */
}

#define BAD(field, value) { #field, offsetof(struct vgpu_config, field), value }

/* Nonsense in any field -> -EINVAL naming that field. */
TEST(validate_names_field)
{
	static const struct {
		const char *field;
		size_t off;
		u32 value;
	} cases[] = {
		BAD(num_sms, 0), BAD(num_sms, 100000),
		BAD(subparts, 0), BAD(subparts, 9),
		BAD(regs_per_subpart, 0), BAD(regs_per_subpart, 1000),
		BAD(regs_per_subpart, 256 * 257),
		BAD(reg_unit, 0), BAD(reg_unit, 300),
		BAD(warps_per_subpart, 0), BAD(warps_per_subpart, 65),
		BAD(max_warps_per_sm, 0), BAD(max_warps_per_sm, 65),
		BAD(max_blocks_per_sm, 0), BAD(max_blocks_per_sm, 65),
		BAD(max_barriers_per_sm, 0), BAD(max_barriers_per_sm, 1000),
		BAD(smem_per_sm, 0), BAD(smem_per_sm, 1000),
		BAD(smem_per_sm, 128 * 2049),
		BAD(smem_unit, 0), BAD(smem_unit, 100),
		BAD(smem_reserve, 167936),
		BAD(smem_max_per_block, 167936),
		BAD(max_threads_per_block, 0), BAD(max_threads_per_block, 4096),
		BAD(warp_size, 0), BAD(warp_size, 65),
		BAD(num_prios, 0), BAD(num_prios, 17),
		BAD(preset, 4),
	};
	struct vgpu_config c;
	const char *bad;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
		*(u32 *)((char *)&c + cases[i].off) = cases[i].value;
		bad = NULL;
		EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad))
			TH_LOG("case %zu %s=%u", i, cases[i].field, cases[i].value);
		ASSERT_NE(NULL, bad);
		EXPECT_STREQ(cases[i].field, bad);
	}
	ASSERT_EQ(0, vgpu_config_preset(&c, "a100"));
	memset(c.name, 'x', sizeof(c.name));
	EXPECT_EQ(-EINVAL, vgpu_config_validate(&c, &bad));
	EXPECT_STREQ("name", bad);
}

/* A small custom configuration is accepted. */
TEST(validate_custom_ok)
{
	struct vgpu_config c = {
		.num_sms = 2, .subparts = 2, .regs_per_subpart = 1024,
		.reg_unit = 64, .warps_per_subpart = 4, .max_warps_per_sm = 8,
		.max_blocks_per_sm = 4, .max_barriers_per_sm = 4,
		.smem_per_sm = 4096, .smem_unit = 64, .smem_reserve = 0,
		.smem_max_per_block = 4096, .max_threads_per_block = 128,
		.warp_size = 32, .num_prios = 2, .preset = VGPU_PRESET_CUSTOM,
		.name = "tiny",
	};

	EXPECT_EQ(0, vgpu_config_validate(&c, NULL));
}

/* Timing table bounds (F04, F25): each largest value taken, one more not. */
TEST(timing_bounds)
{
	struct vgpu_isa_timing t;

	vgpu_isa_timing_default(&t);
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.weight[0] = 1U << 20;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.weight[0] = (1U << 20) + 1;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	vgpu_isa_timing_default(&t);
	t.energy[1] = VGPU_MAX_ENERGY;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.energy[1] = VGPU_MAX_ENERGY + 1;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	vgpu_isa_timing_default(&t);
	t.latency[2] = VGPU_MAX_LATENCY;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.latency[2] = VGPU_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	t.latency[2] = 0;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	vgpu_isa_timing_default(&t);
	t.window = VGPU_MAX_WINDOW;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.window = VGPU_MAX_WINDOW + 16;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	t.window = 24;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	t.window = 16;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	/* the control latency, then hold_max and the window alone */
	vgpu_isa_timing_default(&t);
	t.ctrl_latency = VGPU_MAX_LATENCY;
	EXPECT_EQ(0, vgpu_isa_timing_validate(&t));
	t.ctrl_latency = VGPU_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	t.ctrl_latency = 0;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	vgpu_isa_timing_default(&t);
	t.hold_max = 0;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
	vgpu_isa_timing_default(&t);
	t.window = 8;
	EXPECT_EQ(-EINVAL, vgpu_isa_timing_validate(&t));
}

VGPU_TEST_SUITE(config,
	VGPU_CASE(preset_a100)
	VGPU_CASE(preset_h100_small)
	VGPU_CASE(preset_unknown)
	VGPU_CASE(validate_names_field)
	VGPU_CASE(validate_custom_ok)
	VGPU_CASE(timing_bounds))
