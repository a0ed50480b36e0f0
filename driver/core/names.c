// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the modes of &struct vgpu_gpu_params: preemption (F23),
 * packing (F25) and the largest-run search (F40-F43), in one table.  One
 * convention: a name of a value, "?" for a value out of range; a value of
 * a name, -EINVAL for an unknown name.
 */
#include "vgpu_os.h"
#include "gpu.h"
#include "names.h"

static const char *const vgpu_mode_names[VGPU_MODE_KINDS][4] = {
	[VGPU_MODE_PREEMPT] = {
		[VGPU_PREEMPT_DRAIN] = "drain",
		[VGPU_PREEMPT_WARP] = "warp",
		[VGPU_PREEMPT_SWITCH] = "switch",
	},
	[VGPU_MODE_PACK] = {
		[VGPU_PACK_AUTO] = "auto",
		[VGPU_PACK_BLOCK] = "block",
		[VGPU_PACK_SM] = "sm",
	},
	[VGPU_MODE_SEARCH] = {
		[VGPU_SEARCH_EXACT] = "exact",
		[VGPU_SEARCH_GROUPED] = "grouped",
		[VGPU_SEARCH_SAMPLED] = "sampled",
		[VGPU_SEARCH_MUX] = "mux",
	},
};

/**
 * vgpu_mode_name() - name of a mode
 * @kind: which parameter: VGPU_MODE_PREEMPT (VGPU_PREEMPT_*),
 *	VGPU_MODE_PACK (VGPU_PACK_*) or VGPU_MODE_SEARCH (VGPU_SEARCH_*)
 * @v: its value
 *
 * Return: "drain", "warp", "switch"; "auto", "block", "sm"; "exact",
 * "grouped", "sampled", "mux"; or "?" for another value or kind.
 */
const char *vgpu_mode_name(enum vgpu_mode_kind kind, u32 v)
{
	if ((u32)kind >= VGPU_MODE_KINDS ||
	    v >= ARRAY_SIZE(vgpu_mode_names[0]) || !vgpu_mode_names[kind][v])
		return "?";
	return vgpu_mode_names[kind][v];
}

/**
 * vgpu_mode_parse() - value of a mode's name
 * @kind: which parameter (vgpu_mode_name())
 * @name: one of its names
 *
 * Return: the value (VGPU_PREEMPT_*, VGPU_PACK_* or VGPU_SEARCH_*), or
 * -EINVAL for another name or kind.
 */
int vgpu_mode_parse(enum vgpu_mode_kind kind, const char *name)
{
	u32 i;

	if ((u32)kind >= VGPU_MODE_KINDS)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(vgpu_mode_names[0]); i++)
		if (vgpu_mode_names[kind][i] &&
		    !strcmp(name, vgpu_mode_names[kind][i]))
			return i;
	return -EINVAL;
}
