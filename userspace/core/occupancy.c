// SPDX-License-Identifier: GPL-2.0
/*
 * Occupancy of an empty SM (F03), two independent ways:
 *
 * - vgpu_occupancy_place(): allocate blocks with the real allocator
 *   (resource.c) one after another until one fails;
 * - vgpu_occupancy_formula(): CUDA's occupancy-calculator formula,
 *   generalised to any configuration:
 *     warps:  min(max_warps_per_sm, subparts * warps_per_subpart) / W
 *     regs:   subparts * floor(reg units per sub-partition / Rw) / W
 *     smem:   shared memory units / S
 *     blocks: max_blocks_per_sm
 *     sregs:  subparts * floor(scalar units per sub-partition / Sw) / W
 *   with W warps per block, Rw register units per warp, S shared memory
 *   units per block (reserve included) and Sw scalar register units per
 *   warp (the second register file of seed 001 [0042], when the device
 *   has one).  Blocks over a per-block limit (threads, 255 registers per
 *   thread, smem_max_per_block, a warp's scalar registers above a
 *   sub-partition's file) give 0.
 *
 * The unit tests check the two agree over a sweep of shapes on both
 * presets, and match NVIDIA's published examples.
 */
#include "vgpu_os.h"
#include "occupancy.h"

#define VGPU_OCC_INF	0xffffffffU

/* lim[] below is indexed by the bit numbers of the limiters. */
static_assert(VGPU_LIMIT_WARPS == BIT(0) && VGPU_LIMIT_REGS == BIT(1) &&
	      VGPU_LIMIT_SMEM == BIT(2) && VGPU_LIMIT_BLOCKS == BIT(3) &&
	      VGPU_LIMIT_BARRIERS == BIT(4) && VGPU_LIMIT_SREGS == BIT(5),
	      "limiter bits");

/*
 * A block over a per-block limit runs nowhere; like CUDA's calculator, name
 * also the SM resources that could not hold even one such block.
 */
static u32 vgpu_occupancy_zero(const struct vgpu_config *cfg, u32 threads,
			       u32 regs_per_thread, u32 smem_bytes, u32 sregs)
{
	u64 warps = DIV_ROUND_UP((u64)threads, cfg->warp_size);
	u64 ru = DIV_ROUND_UP((u64)regs_per_thread * cfg->warp_size,
			      cfg->reg_unit);
	u64 su = DIV_ROUND_UP((u64)smem_bytes + cfg->smem_reserve,
			      cfg->smem_unit);
	u32 q = cfg->subparts, why = 0;

	if (warps > min(cfg->max_warps_per_sm, q * cfg->warps_per_subpart))
		why |= VGPU_LIMIT_WARPS;
	/* ru < 2^30: regs_per_thread * warp_size / reg_unit */
	if (ru && (u64)q * (vgpu_config_reg_units(cfg) / (u32)ru) < warps)
		why |= VGPU_LIMIT_REGS;
	if (su > vgpu_config_smem_units(cfg))
		why |= VGPU_LIMIT_SMEM;
	if (sregs && sregs > cfg->sregs_per_subpart)
		why |= VGPU_LIMIT_SREGS;
	return why;
}

/*
 * The block's shape with its scalar registers; -EINVAL for 0 threads,
 * else 0 with *@why the per-block limits it is over (0: it can run).
 */
static int vgpu_occupancy_shape(struct vgpu_block_shape *s,
				const struct vgpu_config *cfg, u32 threads,
				u32 regs_per_thread, u32 smem_bytes, u32 sregs,
				u32 *why)
{
	int ret;

	*why = 0;
	ret = vgpu_block_shape_init(s, cfg, threads, regs_per_thread,
				    smem_bytes, 0, why);
	if (ret == -EINVAL)
		return ret;
	if (!ret && vgpu_block_shape_set_sregs(s, cfg, sregs))
		ret = -E2BIG;
	if (ret)
		*why |= vgpu_occupancy_zero(cfg, threads, regs_per_thread,
					    smem_bytes, sregs);
	else
		*why = 0;
	return 0;
}

/**
 * vgpu_occupancy_formula() - occupancy by the closed formula (F03)
 * @cfg: device configuration
 * @threads: threads per block (>= 1)
 * @regs_per_thread: registers per thread
 * @smem_bytes: static + dynamic shared memory per block
 * @sregs: scalar registers per warp, 0 for none (seed 001 [0042])
 * @occ: out: blocks, warps and binding limiters
 *
 * Return: 0, or -EINVAL for 0 threads.
 */
int vgpu_occupancy_formula(const struct vgpu_config *cfg, u32 threads,
			   u32 regs_per_thread, u32 smem_bytes, u32 sregs,
			   struct vgpu_occupancy *occ)
{
	struct vgpu_block_shape s;
	u32 lim[6], q = cfg->subparts, n = VGPU_OCC_INF, i, why;
	int ret;

	ret = vgpu_occupancy_shape(&s, cfg, threads, regs_per_thread,
				   smem_bytes, sregs, &why);
	if (ret)
		return ret;
	if (why) {
		occ->blocks = 0;
		occ->warps = 0;
		occ->limit = why;
		return 0;
	}
	lim[0] = min(cfg->max_warps_per_sm, q * cfg->warps_per_subpart) /
		 s.warps;
	lim[1] = s.reg_units ? q * (vgpu_config_reg_units(cfg) / s.reg_units) /
			       s.warps : VGPU_OCC_INF;
	lim[2] = s.smem_units ? vgpu_config_smem_units(cfg) / s.smem_units :
				VGPU_OCC_INF;
	lim[3] = cfg->max_blocks_per_sm;
	lim[4] = VGPU_OCC_INF;		/* the block takes no barrier */
	lim[5] = s.sreg_units ?
		 q * (vgpu_config_sreg_units(cfg) / s.sreg_units) / s.warps :
		 VGPU_OCC_INF;
	for (i = 0; i < ARRAY_SIZE(lim); i++)
		n = min(n, lim[i]);
	occ->blocks = n;
	occ->warps = n * s.warps;
	occ->limit = 0;
	for (i = 0; i < ARRAY_SIZE(lim); i++)
		if (lim[i] == n)
			occ->limit |= BIT(i);	/* VGPU_LIMIT_WARPS .. SREGS */
	return 0;
}

/**
 * vgpu_occupancy_place() - occupancy by placing blocks (F03)
 * @cfg: device configuration
 * @threads: threads per block (>= 1)
 * @regs_per_thread: registers per thread
 * @smem_bytes: static + dynamic shared memory per block
 * @sregs: scalar registers per warp, 0 for none (seed 001 [0042])
 * @occ: out: blocks, warps and binding limiters
 *
 * Allocates blocks on an empty SM with vgpu_sm_res_alloc_block() until one
 * fails; the binding limiters are the resources that, each on its own,
 * lack room for one more block (vgpu_sm_res_why_not()).
 *
 * Return: 0, or -EINVAL for 0 threads.
 */
int vgpu_occupancy_place(const struct vgpu_config *cfg, u32 threads,
			 u32 regs_per_thread, u32 smem_bytes, u32 sregs,
			 struct vgpu_occupancy *occ)
{
	struct vgpu_block_place place;
	struct vgpu_block_shape s;
	struct vgpu_sm_res sm;
	u32 why;
	int ret;

	ret = vgpu_occupancy_shape(&s, cfg, threads, regs_per_thread,
				   smem_bytes, sregs, &why);
	if (ret)
		return ret;
	occ->blocks = 0;
	occ->warps = 0;
	occ->limit = why;
	if (why)
		return 0;
	vgpu_sm_res_init(&sm, cfg);
	while (!vgpu_sm_res_alloc_block(&sm, &s, &place))
		occ->blocks++;
	occ->warps = occ->blocks * s.warps;
	occ->limit = vgpu_sm_res_why_not(&sm, &s);
	vgpu_sm_res_fini(&sm);
	return 0;
}
