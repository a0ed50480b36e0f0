// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the preemption modes (F23) and packing modes (F25) of
 * &struct vgpu_gpu_params, one table each.  One convention: a name of a
 * value, "?" for a value out of range; a value of a name, -EINVAL for an
 * unknown name.
 */
#include "vgpu_os.h"
#include "gpu.h"
#include "names.h"

static const char *const vgpu_gpu_preempt_names[] = {
	[VGPU_PREEMPT_DRAIN] = "drain",
	[VGPU_PREEMPT_WARP] = "warp",
	[VGPU_PREEMPT_SWITCH] = "switch",
};

static const char *const vgpu_gpu_pack_names[] = {
	[VGPU_PACK_AUTO] = "auto",
	[VGPU_PACK_BLOCK] = "block",
	[VGPU_PACK_SM] = "sm",
};

static const char *const vgpu_gpu_search_names[] = {
	[VGPU_SEARCH_EXACT] = "exact",
	[VGPU_SEARCH_GROUPED] = "grouped",
	[VGPU_SEARCH_SAMPLED] = "sampled",
};

static const char *vgpu_name_of(const char *const *names, u32 n, u32 v)
{
	return v < n && names[v] ? names[v] : "?";
}

static int vgpu_name_parse(const char *const *names, u32 n, const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(name, names[i]))
			return i;
	return -EINVAL;
}

/**
 * vgpu_gpu_preempt_name() - name of a preemption mode
 * @mode: VGPU_PREEMPT_*
 *
 * Return: "drain", "warp", "switch", or "?" for another value.
 */
const char *vgpu_gpu_preempt_name(u32 mode)
{
	return vgpu_name_of(vgpu_gpu_preempt_names,
			    ARRAY_SIZE(vgpu_gpu_preempt_names), mode);
}

/**
 * vgpu_gpu_preempt_parse() - preemption mode of a name
 * @name: "drain", "warp" or "switch"
 *
 * Return: VGPU_PREEMPT_*, or -EINVAL for another name.
 */
int vgpu_gpu_preempt_parse(const char *name)
{
	return vgpu_name_parse(vgpu_gpu_preempt_names,
			       ARRAY_SIZE(vgpu_gpu_preempt_names), name);
}

/**
 * vgpu_gpu_pack_name() - name of a packing mode
 * @pack: VGPU_PACK_*
 *
 * Return: "auto", "block", "sm", or "?" for another value.
 */
const char *vgpu_gpu_pack_name(u32 pack)
{
	return vgpu_name_of(vgpu_gpu_pack_names,
			    ARRAY_SIZE(vgpu_gpu_pack_names), pack);
}

/**
 * vgpu_gpu_pack_parse() - packing mode of a name
 * @name: "auto", "block" or "sm"
 *
 * Return: VGPU_PACK_*, or -EINVAL for another name.
 */
int vgpu_gpu_pack_parse(const char *name)
{
	return vgpu_name_parse(vgpu_gpu_pack_names,
			       ARRAY_SIZE(vgpu_gpu_pack_names), name);
}

/**
 * vgpu_gpu_search_name() - name of a largest-run search mode (F40-F42)
 * @mode: VGPU_SEARCH_*
 *
 * Return: "exact", "grouped", "sampled", or "?" for another value.
 */
const char *vgpu_gpu_search_name(u32 mode)
{
	return vgpu_name_of(vgpu_gpu_search_names,
			    ARRAY_SIZE(vgpu_gpu_search_names), mode);
}

/**
 * vgpu_gpu_search_parse() - largest-run search mode of a name
 * @name: "exact", "grouped" or "sampled"
 *
 * Return: VGPU_SEARCH_*, or -EINVAL for another name.
 */
int vgpu_gpu_search_parse(const char *name)
{
	return vgpu_name_parse(vgpu_gpu_search_names,
			       ARRAY_SIZE(vgpu_gpu_search_names), name);
}
