/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Occupancy: how many copies of a block fit on an empty SM (F03).
 */
#ifndef VGPU_CORE_OCCUPANCY_H
#define VGPU_CORE_OCCUPANCY_H

#include "vgpu_os.h"
#include "config.h"
#include "resource.h"

/**
 * struct vgpu_occupancy - result of an occupancy computation
 * @blocks: resident blocks per SM (0: the block cannot run at all)
 * @warps: resident warps per SM, @blocks times warps per block
 * @limit: VGPU_LIMIT_* mask of every binding limiter
 */
struct vgpu_occupancy {
	u32 blocks;
	u32 warps;
	u32 limit;
};

int vgpu_occupancy_formula(const struct vgpu_config *cfg, u32 threads,
			   u32 regs_per_thread, u32 smem_bytes, u32 sregs,
			   struct vgpu_occupancy *occ);
int vgpu_occupancy_place(const struct vgpu_config *cfg, u32 threads,
			 u32 regs_per_thread, u32 smem_bytes, u32 sregs,
			 struct vgpu_occupancy *occ);

#endif /* VGPU_CORE_OCCUPANCY_H */
