/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Power weight calibration (F25, seed 001 [0247]-[0253], [0275]-[0282]).
 */
#ifndef VGPU_CORE_POWER_H
#define VGPU_CORE_POWER_H

#include "vgpu_os.h"
#include "sm.h"

#define VGPU_POWER_WEIGHT_SCALE	1024	/* weight of the most power-hungry class */
#define VGPU_POWER_WEIGHT_MAX	BIT(20)	/* largest weight a_h or b_s */
#define VGPU_POWER_PROBE_WARPS	16	/* warps of a probe block, at most */
#define VGPU_POWER_PROBE_LEN	32	/* instructions of a probe program */

/* The resources h of a_h (struct vgpu_policy_ctx.res_weight). */
#define VGPU_RES_REGS		0	/* register units */
#define VGPU_RES_WARPS		1	/* warp slots */
#define VGPU_RES_SMEM		2	/* shared memory units */
#define VGPU_RES_BLOCKS		3	/* block slots */
#define VGPU_RES_NUM		4

/**
 * struct vgpu_power_probe - result of one single-class probe kernel
 * @cycles: cycles until the probe block completed
 * @count: instructions of the class issued
 * @power: measured power, energy x count x 1024 / cycles
 */
struct vgpu_power_probe {
	u32 cycles;
	u64 count;
	u32 power;
};

int vgpu_power_calibrate(struct vgpu_sm *scratch, struct vgpu_worker_pool *pool,
			 const struct vgpu_config *cfg,
			 struct vgpu_isa_timing *timing,
			 struct vgpu_power_probe *probe);
int vgpu_power_probe_class(struct vgpu_sm *scratch,
			   struct vgpu_worker_pool *pool,
			   const struct vgpu_config *cfg,
			   const struct vgpu_isa_timing *timing, u32 cls,
			   u32 size, struct vgpu_power_probe *pr);
u64 vgpu_power_res_sensor(const u32 *energy, const u32 *held);
int vgpu_power_calibrate_res(struct vgpu_sm *scratch,
			     struct vgpu_worker_pool *pool,
			     const struct vgpu_config *cfg,
			     const struct vgpu_isa_timing *timing,
			     const u32 *energy, u32 *weight);

#endif /* VGPU_CORE_POWER_H */
