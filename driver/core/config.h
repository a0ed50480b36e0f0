/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device configuration of the scheduling core (F01-F03).
 *
 * struct vgpu_config mirrors struct vgpu_dev_config of the uapi
 * (uapi/linux/vgpu_dispatch.h) field for field, in the same order and with
 * the same names, so the module can copy it out member by member.
 */
#ifndef VGPU_CORE_CONFIG_H
#define VGPU_CORE_CONFIG_H

#include "vgpu_os.h"

/* Same values as VGPU_PRESET_* in uapi/linux/vgpu_dispatch.h (F03). */
#define VGPU_CFG_PRESET_CUSTOM		0
#define VGPU_CFG_PRESET_SMALL		1
#define VGPU_CFG_PRESET_A100		2
#define VGPU_CFG_PRESET_H100		3

#define VGPU_CFG_NAME_LEN		16

/* Hard bounds of any configuration (vgpu_config_validate()). */
#define VGPU_MAX_SMS			4096
#define VGPU_MAX_SUBPARTS		8
#define VGPU_MAX_REG_UNITS		256	/* register units per sub-partition */
#define VGPU_MAX_SMEM_UNITS		2048	/* shared memory units per SM */
#define VGPU_MAX_WARPS_PER_SUBPART	64
#define VGPU_MAX_WARPS_PER_SM		256
#define VGPU_MAX_BLOCK_WARPS		64	/* warps of one block */
#define VGPU_MAX_BLOCKS_PER_SM		64
#define VGPU_MAX_BARRIERS_PER_SM	64
#define VGPU_MAX_WARP_SIZE		64
#define VGPU_MAX_PRIOS			16
#define VGPU_MAX_REGS_PER_THREAD	255	/* NVIDIA CC 8.0 / 9.0 rule */

/*
 * The cache line the layouts of the per-SM state assume (struct vgpu_sm,
 * struct vgpu_sm_block): 64 bytes on the x86-64 and arm64 hosts.
 */
#define VGPU_CACHE_LINE			64

/**
 * struct vgpu_config - configuration of one device instance (F01-F03)
 * @num_sms: number of streaming multiprocessors (F01)
 * @subparts: sub-partitions per SM (F01)
 * @regs_per_subpart: registers per sub-partition (F02)
 * @reg_unit: register allocation unit; registers per warp round up to it
 * @warps_per_subpart: warp slots per sub-partition (counted, F02)
 * @max_warps_per_sm: warp slots per SM
 * @max_blocks_per_sm: block slots per SM (counted, F02)
 * @max_barriers_per_sm: hardware barriers per SM (counted, F02)
 * @smem_per_sm: shared memory per SM in bytes (contiguous, F02)
 * @smem_unit: shared memory allocation unit in bytes
 * @smem_reserve: shared memory reserved per resident block in bytes
 * @smem_max_per_block: largest static+dynamic shared memory per block
 * @max_threads_per_block: largest block in threads
 * @warp_size: threads per warp
 * @num_prios: priority levels, 0 is the highest
 * @preset: VGPU_CFG_PRESET_* (== VGPU_PRESET_*) this configuration came from
 * @name: preset or instance name, NUL-terminated
 * @sregs_per_subpart: scalar registers per sub-partition, a second
 *	contiguous register file beside the vector one (seed 001 [0042]:
 *	s-GPR and v-GPR are both allocated contiguously, F01/F02); 0 = none
 * @sreg_unit: scalar register allocation unit (a power of two dividing
 *	@sregs_per_subpart); 0 without a scalar file
 *
 * Field names and order mirror struct vgpu_dev_config of the uapi, up to
 * @name; the scalar register file comes after it.
 */
struct vgpu_config {
	u32 num_sms;
	u32 subparts;
	u32 regs_per_subpart;
	u32 reg_unit;
	u32 warps_per_subpart;
	u32 max_warps_per_sm;
	u32 max_blocks_per_sm;
	u32 max_barriers_per_sm;
	u32 smem_per_sm;
	u32 smem_unit;
	u32 smem_reserve;
	u32 smem_max_per_block;
	u32 max_threads_per_block;
	u32 warp_size;
	u32 num_prios;
	u32 preset;
	char name[VGPU_CFG_NAME_LEN];
	u32 sregs_per_subpart;
	u32 sreg_unit;
};

int vgpu_config_preset(struct vgpu_config *cfg, const char *name);
int vgpu_config_validate(const struct vgpu_config *cfg, const char **bad_field);

/**
 * vgpu_config_reg_units() - register allocation units per sub-partition
 * @cfg: a validated configuration
 *
 * Return: regs_per_subpart / reg_unit.
 */
static inline u32 vgpu_config_reg_units(const struct vgpu_config *cfg)
{
	return cfg->regs_per_subpart / cfg->reg_unit;
}

/**
 * vgpu_config_sreg_units() - scalar register units per sub-partition
 * @cfg: a validated configuration
 *
 * Return: sregs_per_subpart / sreg_unit, 0 without a scalar file.
 */
static inline u32 vgpu_config_sreg_units(const struct vgpu_config *cfg)
{
	return cfg->sreg_unit ? cfg->sregs_per_subpart / cfg->sreg_unit : 0;
}

/**
 * vgpu_config_smem_units() - shared memory allocation units per SM
 * @cfg: a validated configuration
 *
 * Return: smem_per_sm / smem_unit.
 */
static inline u32 vgpu_config_smem_units(const struct vgpu_config *cfg)
{
	return cfg->smem_per_sm / cfg->smem_unit;
}

#endif /* VGPU_CORE_CONFIG_H */
