/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Power weight calibration (SPEC F25, seed 001 [0247]-[0253], [0275]-[0282]).
 */
#ifndef VGPU_CORE_POWER_H
#define VGPU_CORE_POWER_H

#include "vgpu_os.h"
#include "sm.h"

#define VGPU_POWER_WEIGHT_SCALE	1024	/* weight of the most power-hungry class */
#define VGPU_POWER_PROBE_ITERS	64	/* LOOP count of a probe kernel */
#define VGPU_POWER_PROBE_BODY	8	/* instructions of the class per iteration */

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

#endif /* VGPU_CORE_POWER_H */
