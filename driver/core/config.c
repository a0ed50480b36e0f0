// SPDX-License-Identifier: GPL-2.0
/*
 * Presets and validation of the device configuration (F01-F03).
 *
 * Presets (F03): a100 and h100 carry NVIDIA's published per-SM occupancy
 * limits of compute capability 8.0 and 9.0: 65536 registers in 4
 * sub-partitions of 16384, allocated 256 per warp; 16 warp slots per
 * sub-partition, 64 per SM; 32 blocks per SM; 164 KiB (a100) / 228 KiB (h100)
 * of shared memory in 128-byte units, 1 KiB reserved per resident block, at
 * most 163 KiB / 227 KiB per block; 1024 threads per block, 32-thread warps.
 * Barriers per SM equal block slots, so one barrier per block never limits
 * occupancy (CUDA's calculator has no barrier limiter).
 *
 * small: 4 SMs with exactly the a100 per-SM limits, for tests.
 */
#include "vgpu_os.h"
#include "config.h"

/**
 * struct vgpu_config_preset_def - a named preset
 * @name: preset name as given on command lines and to the module
 * @cfg: the configuration it stands for
 */
struct vgpu_config_preset_def {
	const char *name;
	struct vgpu_config cfg;
};

#define VGPU_CFG_SM_LIMITS(smem_kib, smem_blk_kib)			\
	.subparts = 4,							\
	.regs_per_subpart = 16384,					\
	.reg_unit = 256,						\
	.warps_per_subpart = 16,					\
	.max_warps_per_sm = 64,						\
	.max_blocks_per_sm = 32,					\
	.max_barriers_per_sm = 32,					\
	.smem_per_sm = (smem_kib) * 1024,				\
	.smem_unit = 128,						\
	.smem_reserve = 1024,						\
	.smem_max_per_block = (smem_blk_kib) * 1024,			\
	.max_threads_per_block = 1024,					\
	.warp_size = 32,						\
	.num_prios = 4

static const struct vgpu_config_preset_def vgpu_config_presets[] = {
	{ "small", { .num_sms = 4, VGPU_CFG_SM_LIMITS(164, 163),
		     .preset = VGPU_CFG_PRESET_SMALL, .name = "small" } },
	{ "a100", { .num_sms = 108, VGPU_CFG_SM_LIMITS(164, 163),
		    .preset = VGPU_CFG_PRESET_A100, .name = "a100" } },
	{ "h100", { .num_sms = 132, VGPU_CFG_SM_LIMITS(228, 227),
		    .preset = VGPU_CFG_PRESET_H100, .name = "h100" } },
};

static bool vgpu_config_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/**
 * vgpu_config_preset() - fill a configuration from a named preset (F03)
 * @cfg: configuration to fill
 * @name: "small", "a100" or "h100"
 *
 * Return: 0, or -EINVAL if @name is not a preset (@cfg is then untouched).
 */
int vgpu_config_preset(struct vgpu_config *cfg, const char *name)
{
	u32 i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(vgpu_config_presets); i++) {
		if (vgpu_config_streq(vgpu_config_presets[i].name, name)) {
			*cfg = vgpu_config_presets[i].cfg;
			return 0;
		}
	}
	return -EINVAL;
}

static bool vgpu_config_in(u32 v, u32 lo, u32 hi)
{
	return v >= lo && v <= hi;
}

/* Allocation units are powers of two between 1 and 65536. */
static bool vgpu_config_pow2(u32 v)
{
	return v && v <= 65536 && !(v & (v - 1));
}

/* @total is a whole number of @unit (not 0), 1 to @max of them. */
static bool vgpu_config_units(u32 total, u32 unit, u32 max)
{
	return !(total % unit) && vgpu_config_in(total / unit, 1, max);
}

/**
 * vgpu_config_validate() - check every field of a configuration is sane
 * @cfg: configuration to check
 * @bad_field: if not NULL, set to the name of the first offending field
 *	(the struct member name), or NULL when the configuration is valid
 *
 * Every field is bounded (VGPU_MAX_*), divisibilities that the contiguous
 * allocators rely on are enforced (F02), and cross-field limits must be
 * consistent (e.g. a maximal block must fit an empty SM).
 *
 * Return: 0 if valid, -EINVAL otherwise.
 */
int vgpu_config_validate(const struct vgpu_config *cfg, const char **bad_field)
{
	const char *bad = NULL;
	u32 block_warps;

	if (!vgpu_config_in(cfg->num_sms, 1, VGPU_MAX_SMS))
		bad = "num_sms";
	else if (!vgpu_config_in(cfg->subparts, 1, VGPU_MAX_SUBPARTS))
		bad = "subparts";
	else if (!vgpu_config_pow2(cfg->reg_unit))
		bad = "reg_unit";
	else if (!vgpu_config_units(cfg->regs_per_subpart, cfg->reg_unit,
				    VGPU_MAX_REG_UNITS))
		bad = "regs_per_subpart";
	else if (!vgpu_config_in(cfg->warps_per_subpart, 1,
				 VGPU_MAX_WARPS_PER_SUBPART))
		bad = "warps_per_subpart";
	else if (!vgpu_config_in(cfg->max_warps_per_sm, 1,
				 min_t(u32, VGPU_MAX_WARPS_PER_SM,
				       cfg->subparts * cfg->warps_per_subpart)))
		bad = "max_warps_per_sm";
	else if (!vgpu_config_in(cfg->max_blocks_per_sm, 1,
				 VGPU_MAX_BLOCKS_PER_SM))
		bad = "max_blocks_per_sm";
	else if (!vgpu_config_in(cfg->max_barriers_per_sm, 1,
				 VGPU_MAX_BARRIERS_PER_SM))
		bad = "max_barriers_per_sm";
	else if (!vgpu_config_pow2(cfg->smem_unit))
		bad = "smem_unit";
	else if (!vgpu_config_units(cfg->smem_per_sm, cfg->smem_unit,
				    VGPU_MAX_SMEM_UNITS))
		bad = "smem_per_sm";
	else if (cfg->smem_reserve >= cfg->smem_per_sm)
		bad = "smem_reserve";
	else if (cfg->smem_max_per_block > cfg->smem_per_sm - cfg->smem_reserve)
		bad = "smem_max_per_block";
	else if (!vgpu_config_in(cfg->warp_size, 1, VGPU_MAX_WARP_SIZE))
		bad = "warp_size";
	else if (cfg->sregs_per_subpart ? !vgpu_config_pow2(cfg->sreg_unit) :
		 cfg->sreg_unit)
		bad = "sreg_unit";
	else if (cfg->sregs_per_subpart &&
		 !vgpu_config_units(cfg->sregs_per_subpart, cfg->sreg_unit,
				    VGPU_MAX_REG_UNITS))
		bad = "sregs_per_subpart";
	if (bad)
		goto out;

	block_warps = DIV_ROUND_UP(cfg->max_threads_per_block, cfg->warp_size);
	if (!vgpu_config_in(cfg->max_threads_per_block, 1, 65536) ||
	    block_warps > VGPU_MAX_BLOCK_WARPS ||
	    block_warps > cfg->max_warps_per_sm)
		bad = "max_threads_per_block";
	else if (!vgpu_config_in(cfg->num_prios, 1, VGPU_MAX_PRIOS))
		bad = "num_prios";
	else if (cfg->preset > VGPU_CFG_PRESET_H100)
		bad = "preset";
	else if (cfg->name[VGPU_CFG_NAME_LEN - 1])
		bad = "name";
out:
	if (bad_field)
		*bad_field = bad;
	return bad ? -EINVAL : 0;
}
