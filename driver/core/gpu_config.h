/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changing a live device's scheduling parameters (gpu_config.c).
 */
#ifndef VGPU_CORE_GPU_CONFIG_H
#define VGPU_CORE_GPU_CONFIG_H

#include "gpu.h"

int vgpu_gpu_set_sched(struct vgpu_gpu *g, u32 preempt, u32 num_windows,
		       const u32 *window, const char **bad_field);

/**
 * struct vgpu_gpu_dispatch_opts - dispatch options a live device may change
 * @pack: VGPU_PACK_* (F23 (a), F25)
 * @search: VGPU_SEARCH_* (F40-F42)
 * @search_group: units per group with VGPU_SEARCH_GROUPED, else 0 (F41)
 * @search_latency: cycles of the search, 0..VGPU_SEARCH_MAX_LATENCY
 * @throttle_sms: SMs of throttle mode (F26)
 * @combo: the "combined" policy's share of embodiment 9, in percent
 *
 * The fields of &struct vgpu_gpu_params of the same names.
 */
struct vgpu_gpu_dispatch_opts {
	u32 pack;
	u32 search;
	u32 search_group;
	u32 search_latency;
	u32 throttle_sms;
	u32 combo;
};

void vgpu_gpu_get_dispatch(const struct vgpu_gpu *g,
			   struct vgpu_gpu_dispatch_opts *o);
int vgpu_gpu_set_dispatch(struct vgpu_gpu *g,
			  const struct vgpu_gpu_dispatch_opts *o,
			  const char **bad_field);

#endif /* VGPU_CORE_GPU_CONFIG_H */
