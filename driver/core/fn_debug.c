// SPDX-License-Identifier: GPL-2.0
/*
 * fn_debug.c - seed 004's debugger, the core's half: what a host needs
 * beside the views of fn.c to show a functional warp (fn_debug.h).
 */
#include "vgpu_os.h"
#include "fn_debug.h"
#include "sm.h"

/**
 * vgpu_fn_warp_prog() - the program a functional warp runs
 * @sm: the SM, between two vgpu_sm_run() calls or from its hook
 * @idx: a warp context of the SM's pool
 * @n_insns: set to the program's length, 0 when there is none
 *
 * The pc of vgpu_fn_warp_view() indexes it.  A child kernel's (F15) is
 * its template's program, a split unit's (F24) its kernel's.
 *
 * Return: its first instruction, or NULL if @idx holds no started warp
 * of a functional kernel (vgpu_fn_warp_view()).
 */
const struct vgpu_insn *vgpu_fn_warp_prog(const struct vgpu_sm *sm, u32 idx,
					  u32 *n_insns)
{
	const struct vgpu_kernel_desc *k;
	struct vgpu_fn_warp_view v;

	*n_insns = 0;
	if (vgpu_fn_warp_view(sm, idx, &v))
		return NULL;
	k = sm->block[v.slot].kernel;
	*n_insns = k->n_insns;
	return k->prog;
}
