// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel descriptors of the SM engine (F04, F10).
 */
#include "vgpu_os.h"
#include "kernel.h"

/**
 * vgpu_kernel_desc_init() - validate a program and complete a descriptor
 * @k: descriptor whose caller-set fields (id, prio, grid, threads,
 *	regs_per_thread, smem_bytes, prio_wid_mod) are filled in
 * @cfg: device configuration
 * @prog: @n instructions
 * @n: program length
 * @match: storage for @n links (vgpu_isa_link())
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
	ret = vgpu_isa_summarize(prog, n, &k->sum);
	if (ret)
		return ret;
	ret = vgpu_isa_link(prog, n, match);
	if (ret)
		return ret;
	ret = vgpu_block_shape_init(&k->shape, cfg, k->threads,
				    k->regs_per_thread, k->smem_bytes,
				    k->sum.uses_bar ? 1 : 0, NULL);
	if (!ret)
		ret = vgpu_block_shape_set_sregs(&k->shape, cfg, k->sregs);
	if (ret)
		return ret;
	k->prog = prog;
	k->match = match;
	k->n_insns = n;
	return 0;
}
