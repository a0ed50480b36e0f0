// SPDX-License-Identifier: GPL-2.0
/*
 * Changing a live device's scheduling parameters (F22, F23, F25,
 * F26, F40-F42, F63): used by the netlink CONFIG_SET command.
 */
#include "gpu_config.h"
#include "check.h"

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
	vgpu_gpu_window_sync(g);
	return 0;
}

/**
 * vgpu_gpu_get_dispatch() - the dispatch options in force
 * @g: the device
 * @o: filled with them
 */
void vgpu_gpu_get_dispatch(const struct vgpu_gpu *g,
			   struct vgpu_gpu_dispatch_opts *o)
{
	*o = (struct vgpu_gpu_dispatch_opts){
		.pack = g->p.pack,
		.search = g->p.search,
		.search_group = g->p.search_group,
		.search_latency = g->p.search_latency,
		.throttle_sms = g->p.throttle_sms,
		.combo = g->p.combo,
	};
}

/*
 * Would the search of @p leave a kernel of @g waiting for ever?  One with
 * a block, its own or a template's (F15), that the search can never find
 * room for on an empty SM (vgpu_gpu_kernel_search_check()).
 */
static bool vgpu_gpu_search_strands(const struct vgpu_gpu *g,
				    const struct vgpu_gpu_params *p)
{
	const struct vgpu_gpu_kernel *k;

	list_for_each_entry(k, &g->kernels, table_node)
		if (vgpu_gpu_kernel_search_check(&g->cfg, p, k))
			return true;
	return false;
}

/**
 * vgpu_gpu_set_dispatch() - change the dispatch options
 * @g: the device, between two epochs
 * @o: the new options, all of them (vgpu_gpu_get_dispatch() for the rest)
 * @bad_field: set to the name of the first bad field on -EINVAL or -EBUSY
 *
 * Nothing changes unless the whole set is valid.  The next decision packs
 * and weighs with the new values; a new search mode recomputes every SM's
 * largest free runs before they are matched against again (F40-F42), a
 * block already decided keeps the latency it was given.  The SMs of
 * throttle mode change only while the device is not in it or draining
 * into it (F26: they hold its pooled shared memory).
 *
 * Return: 0; -EINVAL with *@bad_field naming the offending field; -EBUSY
 * (throttle_sms) while throttle mode is entered or in force; -EBUSY
 * ("search") for a search mode or group that could never find room for a
 * block of a kernel the device holds (submission refuses such a block,
 * vgpu_gpu_search_fits_empty(): none may be left waiting for ever).
 */
int vgpu_gpu_set_dispatch(struct vgpu_gpu *g,
			  const struct vgpu_gpu_dispatch_opts *o,
			  const char **bad_field)
{
	struct vgpu_gpu_params p = g->p;
	u32 i;

	p.pack = o->pack;
	p.search = o->search;
	p.search_group = o->search_group;
	p.search_latency = o->search_latency;
	p.throttle_sms = o->throttle_sms;
	p.combo = o->combo;
	if (vgpu_gpu_params_validate(&p, &g->cfg, bad_field))
		return -EINVAL;
	if (p.throttle_sms != g->p.throttle_sms &&
	    g->throttle_state != VGPU_THROTTLE_OFF) {
		*bad_field = "throttle_sms";
		return -EBUSY;
	}
	/* every SM's runs and every fit cached against them, as at init */
	if (p.search != g->p.search || p.search_group != g->p.search_group) {
		if (vgpu_gpu_search_strands(g, &p)) {
			*bad_field = "search";
			return -EBUSY;
		}
		for (i = 0; i < g->cfg.num_sms; i++)
			g->fit_dirty[i] = 0xff;
	}
	g->p = p;
	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].sm.search_latency = vgpu_gpu_search_cycles(&p,
								    &g->mux_plan);
	vgpu_gpu_window_sync(g);
	return 0;
}
