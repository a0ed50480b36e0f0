// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel descriptors of the SM engine (F04, F10).
 */
#include "vgpu_os.h"
#include "kernel.h"

/**
 * vgpu_kernel_desc_shape() - a descriptor's block shape
 * @k: descriptor with threads, regs_per_thread, smem_bytes, sregs and
 *	priv_bytes set
 * @cfg: device configuration
 * @barriers: hardware barriers a block holds
 *
 * A functional kernel's private memory follows each warp's registers in
 * its run of the register file (fn.h): the run counts both.
 *
 * Return: 0; -EINVAL for private memory not a multiple of 4 or above
 * VGPU_MAX_PRIVATE_BYTES; -E2BIG if a block can never fit an SM.
 */
int vgpu_kernel_desc_shape(struct vgpu_kernel_desc *k,
			   const struct vgpu_config *cfg, u32 barriers)
{
	u32 words;
	int ret;

	if (k->priv_bytes % 4 || k->priv_bytes > VGPU_MAX_PRIVATE_BYTES)
		return -EINVAL;
	ret = vgpu_block_shape_init(&k->shape, cfg, k->threads,
				    k->regs_per_thread, k->smem_bytes,
				    barriers, NULL);
	if (!ret)
		ret = vgpu_block_shape_set_sregs(&k->shape, cfg, k->sregs);
	if (ret || !k->priv_bytes)
		return ret;
	words = (k->regs_per_thread + k->priv_bytes / 4) * cfg->warp_size;
	k->shape.reg_units = DIV_ROUND_UP(words, cfg->reg_unit);
	return 0;
}

/**
 * vgpu_kernel_desc_init() - validate a program and complete a descriptor
 * @k: descriptor whose caller-set fields (id, prio, grid, threads,
 *	regs_per_thread, smem_bytes, prio_wid_mod, and for a functional
 *	kernel slots and priv_bytes) are filled in
 * @cfg: device configuration
 * @prog: @n instructions
 * @n: program length
 * @match: storage for @n links (vgpu_isa_link())
 *
 * The core runs functional programs (fn.h); whether a caller may submit
 * one is its front door's decision.
 *
 * Return: 0; -EINVAL if the program fails the validator (F04), the grid is
 * empty or the priority is out of range; -E2BIG if a block can never fit
 * an SM (vgpu_block_shape_init()).
 */
int vgpu_kernel_desc_init(struct vgpu_kernel_desc *k,
			  const struct vgpu_config *cfg,
			  const struct vgpu_insn *prog, u32 n, u16 *match)
{
	int ret;

	if (!k->grid || k->prio >= VGPU_MAX_PRIOS)
		return -EINVAL;
	ret = vgpu_isa_summarize_flags(prog, n, VGPU_ISA_FUNCTIONAL, &k->sum);
	if (ret)
		return ret;
	ret = vgpu_isa_link(prog, n, match);
	if (ret)
		return ret;
	ret = vgpu_kernel_desc_shape(k, cfg, k->sum.uses_bar ? 1 : 0);
	if (ret)
		return ret;
	k->prog = prog;
	k->match = match;
	k->n_insns = n;
	return 0;
}
