// SPDX-License-Identifier: GPL-2.0
/*
 * Changing a live device's scheduling parameters (SPEC F22, F23, F63):
 * used by the netlink CONFIG_SET command.
 */
#include "gpu_config.h"

/**
 * vgpu_gpu_set_sched() - change the preemption mode and the windows
 * @g: the device, between two epochs
 * @preempt: VGPU_PREEMPT_*
 * @num_windows: rotating priority windows, 0 = off (F22)
 * @window: their lengths, decreasing
 * @bad_field: set to the name of the first bad field on -EINVAL
 *
 * Nothing changes unless the whole set is valid.  Blocks already switched
 * out come back whatever the new mode; the window in force is recomputed
 * at the next epoch boundary.
 *
 * Return: 0, or -EINVAL with *@bad_field naming the offending field.
 */
int vgpu_gpu_set_sched(struct vgpu_gpu *g, u32 preempt, u32 num_windows,
		       const u32 *window, const char **bad_field)
{
	struct vgpu_gpu_params p = g->p;
	u32 i;

	if (num_windows > VGPU_GPU_MAX_WINDOWS) {
		*bad_field = "windows";
		return -EINVAL;
	}
	p.preempt = preempt;
	p.num_windows = num_windows;
	for (i = 0; i < VGPU_GPU_MAX_WINDOWS; i++)
		p.window[i] = i < num_windows ? window[i] : 0;
	if (vgpu_gpu_params_validate(&p, &g->cfg, bad_field))
		return -EINVAL;
	g->p.preempt = p.preempt;
	g->p.num_windows = p.num_windows;
	for (i = 0; i < VGPU_GPU_MAX_WINDOWS; i++)
		g->p.window[i] = p.window[i];
	return 0;
}
