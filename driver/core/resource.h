/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-SM resource state and block / warp allocation (F02, F23, F25,
 * F31-F33).
 *
 * Contiguous resources (F02) are free-unit bitmaps (bmap.h) addressed by a
 * start index: registers per sub-partition in reg_unit units, shared memory
 * per SM in smem_unit units.  Counted resources are plain counters: warp
 * slots per sub-partition (and per SM), block slots and barriers per SM.
 *
 * All storage is embedded; allocating and freeing never allocate memory and
 * take no locks (the worker that owns the SM serialises access).
 */
#ifndef VGPU_CORE_RESOURCE_H
#define VGPU_CORE_RESOURCE_H

#include "vgpu_os.h"
#include "config.h"
#include "bmap.h"

#define VGPU_REG_WORDS		VGPU_BMAP_NWORDS(VGPU_MAX_REG_UNITS)
#define VGPU_SMEM_WORDS		VGPU_BMAP_NWORDS(VGPU_MAX_SMEM_UNITS)

/* Limiters, as a mask (struct vgpu_occupancy.limit, vgpu_sm_res_why_not()). */
#define VGPU_LIMIT_WARPS	BIT(0)	/* warp slots, threads per block */
#define VGPU_LIMIT_REGS		BIT(1)	/* registers */
#define VGPU_LIMIT_SMEM		BIT(2)	/* shared memory */
#define VGPU_LIMIT_BLOCKS	BIT(3)	/* block slots */
#define VGPU_LIMIT_BARRIERS	BIT(4)	/* hardware barriers */
#define VGPU_LIMIT_SREGS	BIT(5)	/* scalar registers (seed 001 [0042]) */

/**
 * struct vgpu_block_shape - what one block of a kernel needs, in units
 * @warps: warps per block, ceil(threads / warp_size)
 * @reg_units: registers per warp in reg_unit units (one contiguous run)
 * @smem_units: shared memory plus the per-block reserve in smem_unit units
 *	(one contiguous run)
 * @barriers: hardware barriers the block holds while resident
 * @sreg_units: scalar registers per warp in sreg_unit units (one
 *	contiguous run in the scalar file of the warp's sub-partition); 0
 *	without scalar registers
 */
struct vgpu_block_shape {
	u32 warps;
	u32 reg_units;
	u32 smem_units;
	u32 barriers;
	u32 sreg_units;
};

/**
 * struct vgpu_warp_place - where one warp of a block sits
 * @subpart: sub-partition holding its warp slot and registers
 * @held: the warp currently holds its slot and registers
 * @reg_start: first register unit of its run in @subpart
 * @sreg_start: first scalar register unit of its run there
 */
struct vgpu_warp_place {
	u8 subpart;
	u8 held;
	u16 reg_start;
	u16 sreg_start;
};

/**
 * struct vgpu_block_place - placement record of a resident block
 * @shape: the block's needs (copied at allocation)
 * @smem_start: first shared memory unit of the block's run
 * @base_subpart: split pointer the block was taken with; warp i prefers
 *	sub-partition (@base_subpart + i) % subparts (F31)
 * @warps_held: number of warps holding their resources
 * @block_held: block slot, barriers and shared memory are held
 * @warp: per-warp placement, @shape.warps entries
 *
 * Filled by vgpu_sm_res_alloc_block() / vgpu_sm_res_take_block(), handed
 * back to the vgpu_sm_res_free_*() functions.  No hole before @warp: the
 * first warps' entries follow the block's fields closely (one cache line
 * for a small block).
 */
struct vgpu_block_place {
	struct vgpu_block_shape shape;
	u32 smem_start;
	u32 base_subpart;
	u32 warps_held;
	bool block_held;
	struct vgpu_warp_place warp[VGPU_MAX_BLOCK_WARPS];
};

/**
 * struct vgpu_sm_res - remaining resources of one SM
 * @dirty: NULL, or a byte set to all ones whenever these resources
 *	change (the controller's candidate sets, struct vgpu_gpu_fitset,
 *	clear it bit by bit); a copy made to try placements on sets it NULL
 * @subparts: sub-partitions (from the configuration)
 * @reg_units: register units per sub-partition
 * @smem_units: shared memory units of the SM
 * @warps_per_subpart: warp slots per sub-partition
 * @max_warps: warp slots per SM
 * @max_blocks: block slots
 * @max_barriers: hardware barriers
 * @warps_total: warp slots in use on the SM
 * @blocks_used: block slots in use
 * @barriers_used: barriers in use
 * @reg_free: free register units, all sub-partitions together (kept with
 *	the maps: a cheap bound for the controller's fit tests)
 * @smem_free: free shared memory units (kept with @smem)
 * @split_ptr: rotating split-table pointer (F31), advanced only when this
 *	SM takes a block
 * @sreg_units: scalar register units per sub-partition, 0 without a
 *	scalar file (seed 001 [0042])
 * @sreg_free: free scalar register units, all sub-partitions together
 * @warps_used: warp slots in use per sub-partition
 * @regs: per sub-partition register map, bit set = unit free
 * @smem: shared memory map, bit set = unit free
 * @sregs: per sub-partition scalar register map, bit set = unit free
 *
 * The counters come first, together (two cache lines), then the maps:
 * every fit test and allocation reads the counters, the controller's of
 * many SMs per decision.
 */
struct vgpu_sm_res {
	u8 *dirty;
	u32 subparts;
	u32 reg_units;
	u32 smem_units;
	u32 warps_per_subpart;
	u32 max_warps;
	u32 max_blocks;
	u32 max_barriers;
	u32 warps_total;
	u32 blocks_used;
	u32 barriers_used;
	u32 reg_free;
	u32 smem_free;
	u32 split_ptr;
	u32 sreg_units;
	u32 sreg_free;
	u32 warps_used[VGPU_MAX_SUBPARTS];
	u64 regs[VGPU_MAX_SUBPARTS][VGPU_REG_WORDS];
	u64 smem[VGPU_SMEM_WORDS];
	u64 sregs[VGPU_MAX_SUBPARTS][VGPU_REG_WORDS];
};

int vgpu_block_shape_init(struct vgpu_block_shape *shape,
			  const struct vgpu_config *cfg, u32 threads,
			  u32 regs_per_thread, u32 smem_bytes, u32 barriers,
			  u32 *limit);
int vgpu_block_shape_set_sregs(struct vgpu_block_shape *shape,
			       const struct vgpu_config *cfg, u32 sregs);
void vgpu_split_counts(u32 warps, u32 subparts, u32 ptr, u32 *counts);

void vgpu_sm_res_init(struct vgpu_sm_res *sm, const struct vgpu_config *cfg);
void vgpu_sm_res_fini(struct vgpu_sm_res *sm);
int vgpu_sm_res_set_smem(struct vgpu_sm_res *sm, u32 units);
int vgpu_sm_res_alloc_block(struct vgpu_sm_res *sm,
			    const struct vgpu_block_shape *shape,
			    struct vgpu_block_place *place);
int vgpu_sm_res_take_block(struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape,
			   struct vgpu_block_place *place);
int vgpu_sm_res_alloc_warp(struct vgpu_sm_res *sm,
			   struct vgpu_block_place *place, u32 idx);
void vgpu_sm_res_free_warp(struct vgpu_sm_res *sm,
			   struct vgpu_block_place *place, u32 idx);
void vgpu_sm_res_free_block(struct vgpu_sm_res *sm,
			    struct vgpu_block_place *place);
bool vgpu_block_fits_empty(const struct vgpu_config *cfg,
			   const struct vgpu_block_shape *shape);
bool vgpu_sm_res_block_fits(const struct vgpu_sm_res *sm,
			    const struct vgpu_block_shape *shape);
bool vgpu_sm_res_warp_fits(const struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape);
u32 vgpu_sm_res_blocks_fit(const struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape);
u32 vgpu_sm_res_why_not(const struct vgpu_sm_res *sm,
			const struct vgpu_block_shape *shape);

#endif /* VGPU_CORE_RESOURCE_H */
