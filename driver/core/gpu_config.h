/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changing a live device's scheduling parameters (gpu_config.c).
 */
#ifndef VGPU_CORE_GPU_CONFIG_H
#define VGPU_CORE_GPU_CONFIG_H

#include "gpu.h"

int vgpu_gpu_set_sched(struct vgpu_gpu *g, u32 preempt, u32 num_windows,
		       const u32 *window, const char **bad_field);

#endif /* VGPU_CORE_GPU_CONFIG_H */
