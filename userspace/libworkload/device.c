// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - a workload's device section (struct vgpul_device, opaque in
 * <vgpu/workload.h>): the calls that read and change it, the mode names
 * (the core's one table each), and the device as the module's new_device
 * options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/workload.h>

#include "workload_core.h"

int vgpul_device_new(struct vgpu_workload *wl)
{
	wl->dev = calloc(1, sizeof(*wl->dev));
	return wl->dev ? 0 : -ENOMEM;
}

uint32_t vgpul_workload_num_prios(const struct vgpu_workload *wl)
{
	return wl->dev->cfg.num_prios;
}

int vgpul_workload_set_policy(struct vgpu_workload *wl, const char *name)
{
	struct vgpu_gpu_params *p = &wl->dev->params;

	if (strlen(name) >= sizeof(p->policy))
		return -ENAMETOOLONG;
	/* the workload's own SM choice stays the device's (F27) */
	if (!p->sm_choice[0] && vgpu_policy_sm_choice(p->policy))
		memcpy(p->sm_choice, p->policy, sizeof(p->sm_choice));
	snprintf(p->policy, sizeof(p->policy), "%s", name);
	return 0;
}

int vgpul_workload_set_preempt(struct vgpu_workload *wl, int mode)
{
	if (!strcmp(vgpul_preempt_name(mode), "?"))
		return -EINVAL;
	wl->dev->params.preempt = mode;
	return 0;
}

int vgpul_workload_set_pack(struct vgpu_workload *wl, int mode)
{
	if (!strcmp(vgpul_pack_name(mode), "?"))
		return -EINVAL;
	wl->dev->params.pack = mode;
	return 0;
}

int vgpul_workload_new_device(const struct vgpu_workload *wl, char *line,
			      size_t len, char *err, size_t errlen)
{
	const struct vgpu_config *cfg = &wl->dev->cfg;
	const struct vgpu_gpu_params *pp = &wl->dev->params;
	static const char *const presets[] = { "small", "a100", "h100" };
	struct vgpu_gpu_params want, p = *pp;
	struct vgpu_config base;
	const char *preset = NULL;
	struct vgpu_gpu_params dflt;
	unsigned int i, save_slots;
	size_t off;

	for (i = 0; i < 3 && !preset; i++) {
		if (vgpu_config_preset(&base, presets[i]))
			continue;
		base.num_sms = cfg->num_sms;
		base.preset = cfg->preset;
		/* the scalar register file: new_device keys of its own */
		base.sregs_per_subpart = cfg->sregs_per_subpart;
		base.sreg_unit = cfg->sreg_unit;
		memcpy(base.name, cfg->name, sizeof(base.name));
		if (!memcmp(&base, cfg, sizeof(base)))
			preset = presets[i];
	}
	if (!preset) {
		snprintf(err, errlen,
			 "the device configuration is not a preset with an optional num_sms");
		return -EINVAL;
	}
	vgpu_config_preset(&base, preset);
	vgpu_gpu_params_default(&want, cfg);
	/* what new_device can set */
	memcpy(want.policy, p.policy, sizeof(want.policy));
	memcpy(want.sm_choice, p.sm_choice, sizeof(want.sm_choice));
	want.preempt = p.preempt;
	want.pack = p.pack;
	want.epoch = p.epoch;
	want.g_max = p.g_max;
	want.task_slots = p.task_slots;
	want.switch_cost = p.switch_cost;
	want.sync_cost = p.sync_cost;
	dflt = want;
	want.search = p.search;
	want.search_group = p.search_group;
	want.search_latency = p.search_latency;
	want.combo = p.combo;
	want.throttle_sms = p.throttle_sms;
	want.assign_latency = p.assign_latency;
	want.dealloc_latency = p.dealloc_latency;
	want.seed = p.seed;
	save_slots = want.save_slots;
	want.save_slots = p.save_slots;
	want.max_channels = p.max_channels;
	want.num_windows = p.num_windows;
	memcpy(want.window, p.window, sizeof(want.window));
	if (memcmp(&want, &p, sizeof(p))) {
		snprintf(err, errlen,
			 "the workload sets scheduling parameters new_device cannot express");
		return -EINVAL;
	}
	off = snprintf(line, len, "%s", preset);
	if (cfg->num_sms != base.num_sms)
		off += snprintf(line + off, len - off, " num_sms=%u",
				cfg->num_sms);
	if (off >= len)
		goto full;
	off += snprintf(line + off, len - off,
			" policy=%s preempt=%s pack=%s epoch=%u g_max=%u task_slots=%u switch_cost=%u channels=%u windows=",
			p.policy, vgpul_preempt_name(p.preempt),
			vgpul_pack_name(p.pack), p.epoch, p.g_max,
			p.task_slots, p.switch_cost, p.max_channels);
	if (off >= len)
		goto full;
	if (!p.num_windows)
		off += snprintf(line + off, len - off, "0");
	for (i = 0; i < p.num_windows && off < len; i++)
		off += snprintf(line + off, len - off, "%s%u", i ? "," : "",
				p.window[i]);
	if (off < len && p.save_slots != save_slots)	/* F15: child-mix.json */
		off += snprintf(line + off, len - off, " save_slots=%u",
				p.save_slots);
	if (off < len && p.sm_choice[0])	/* F27 */
		off += snprintf(line + off, len - off, " sm_choice=%s",
				p.sm_choice);
	if (off < len && p.sync_cost)	/* F17 */
		off += snprintf(line + off, len - off, " sync_cost=%u",
				p.sync_cost);
	/* the dispatch options and the scalar file, when set */
	if (off < len && (p.search != dflt.search ||
			  p.search_group != dflt.search_group))
		off += snprintf(line + off, len - off,
				" search=%s search_group=%u",
				vgpu_mode_name(VGPU_MODE_SEARCH, p.search), p.search_group);
	if (off < len && p.search_latency != dflt.search_latency)
		off += snprintf(line + off, len - off, " search_latency=%u",
				p.search_latency);
	if (off < len && p.combo != dflt.combo)
		off += snprintf(line + off, len - off, " combo=%u", p.combo);
	if (off < len && p.throttle_sms != dflt.throttle_sms)
		off += snprintf(line + off, len - off, " throttle_sms=%u",
				p.throttle_sms);
	if (off < len && cfg->sregs_per_subpart)
		off += snprintf(line + off, len - off,
				" sregs_per_subpart=%u sreg_unit=%u",
				cfg->sregs_per_subpart, cfg->sreg_unit);
	if (off < len && p.assign_latency)	/* F17 */
		off += snprintf(line + off, len - off, " assign_latency=%u",
				p.assign_latency);
	if (off < len && p.dealloc_latency)	/* F13 */
		off += snprintf(line + off, len - off, " dealloc_latency=%u",
				p.dealloc_latency);
	if (off < len && p.seed != dflt.seed)	/* F21 */
		off += snprintf(line + off, len - off, " seed=%u", p.seed);
	if (off < len)
		return 0;
full:
	snprintf(err, errlen, "the new_device line is longer than %zu bytes",
		 len);
	return -ENOSPC;
}

/*
 * The mode names are the core's (driver/core/names.c, one table each);
 * the library's calls answer -1 for a name it does not know.
 */
const char *vgpul_pack_name(unsigned int mode)
{
	return vgpu_mode_name(VGPU_MODE_PACK, mode);
}

int vgpul_pack_parse(const char *name)
{
	int v = vgpu_mode_parse(VGPU_MODE_PACK, name);

	return v < 0 ? -1 : v;
}

const char *vgpul_search_name(unsigned int mode)
{
	return vgpu_mode_name(VGPU_MODE_SEARCH, mode);
}

int vgpul_search_parse(const char *name)
{
	int v = vgpu_mode_parse(VGPU_MODE_SEARCH, name);

	return v < 0 ? -1 : v;
}

const char *vgpul_preempt_name(unsigned int mode)
{
	return vgpu_mode_name(VGPU_MODE_PREEMPT, mode);
}

int vgpul_preempt_parse(const char *name)
{
	int v = vgpu_mode_parse(VGPU_MODE_PREEMPT, name);

	return v < 0 ? -1 : v;
}
