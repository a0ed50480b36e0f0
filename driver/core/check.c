// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: the checks of a submission (F10, F14, F15, F24),
 * without a device.
 *
 * vgpu_gpu_submit() refuses a kernel for its fields, its program, the
 * shape of its blocks, its affinity and its templates, and for the state
 * of the device (its channel, its id).  vgpu_gpu_kernel_check() makes the
 * first kind of checks alone, reading nothing but its arguments, so a host
 * can refuse a submission before it queues it and never see the core
 * refuse it later (the module's SUBMIT is all or nothing, and hands its
 * kernels to the core only at the next epoch).
 */
#include "vgpu_os.h"
#include "check.h"
#include "gpu_internal.h"
#include "isa.h"

/*
 * One kernel's or template's program and block: what vgpu_kernel_desc_init()
 * and the tests after it in vgpu_gpu_submit() refuse.
 */
static int vgpu_check_block(const struct vgpu_config *cfg,
			    const struct vgpu_sm_res *empty,
			    const struct vgpu_insn *prog, u32 n_insns,
			    u32 threads, u32 regs, u32 smem, u32 flags,
			    u32 n_tmpl)
{
	struct vgpu_isa_summary sum;
	struct vgpu_block_shape shape;

	if (vgpu_block_shape_init(&shape, cfg, threads, regs, smem, 0, NULL))
		return -E2BIG;
	if (vgpu_isa_summarize(prog, n_insns, &sum))
		return -EINVAL;
	if (vgpu_block_shape_init(&shape, cfg, threads, regs, smem,
				  sum.uses_bar ? 1 : 0, NULL))
		return -E2BIG;
	/* a split breaks blocks apart: no BAR, no LAUNCH (F24, F15) */
	if ((sum.uses_bar || sum.uses_launch) && (flags & VGPU_KF_INDEPENDENT))
		return -EINVAL;
	/* every LAUNCH names one of the templates (F15) */
	if (sum.launch_mask >> n_tmpl)
		return -EINVAL;
	return vgpu_sm_res_block_fits(empty, &shape) ? 0 : -E2BIG;
}

/* An affinity mask (F25) with bits set but none on one of @num_sms SMs. */
static bool vgpu_check_aff_empty(const u64 *aff, u32 num_sms)
{
	bool any = false;
	u32 i, n;

	for (i = 0; i < VGPU_GPU_AFF_WORDS; i++) {
		if (!aff[i])
			continue;
		any = true;
		n = num_sms > i * 64 ? num_sms - i * 64 : 0;
		if (n >= 64 ? aff[i] : aff[i] & (BIT_ULL(n) - 1))
			return false;
	}
	return any;
}

/**
 * vgpu_gpu_kernel_check() - would vgpu_gpu_submit() take this kernel?
 * @cfg: the device's configuration
 * @empty: an empty SM of @cfg (vgpu_sm_res_init()); only read
 * @k: the kernel as it will be submitted: its F10 fields, its program and
 *	its templates' (F15), each passed by vgpu_isa_validate() (@match:
 *	storage only), its child budget; an all-zero @k->affinity means
 *	every SM
 *
 * Pure: reads its arguments and writes nothing, so any number of callers
 * may use one @empty at once.  Everything vgpu_gpu_submit() checks but the
 * device's state (the channel exists, the id is unused).
 *
 * Return: 0; -EINVAL for what vgpu_gpu_submit() refuses with -EINVAL (a
 * field, the program, an independent kernel with BAR or LAUNCH, a LAUNCH
 * of a template it does not have, an affinity naming no SM of @cfg, a bad
 * template); -E2BIG for a block, its own or a template's, that can never
 * fit an empty SM.
 */
int vgpu_gpu_kernel_check(const struct vgpu_config *cfg,
			  const struct vgpu_sm_res *empty,
			  const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_gpu_template *t;
	u32 i;
	int ret;

	if (k->flags & ~VGPU_KF_ALL || k->prio >= cfg->num_prios ||
	    !k->prog || !k->n_insns || !k->match || !k->threads ||
	    k->deadline > VGPU_GPU_MAX_DEADLINE || vgpu_gpu_queue_check(k))
		return -EINVAL;
	if (k->n_tmpl > VGPU_MAX_TEMPLATES || (k->n_tmpl && !k->tmpl) ||
	    k->child_budget > VGPU_MAX_CHILDREN ||
	    (k->child_budget && !k->child_store))
		return -EINVAL;
	ret = vgpu_check_block(cfg, empty, k->prog, k->n_insns, k->threads,
			       k->regs, k->smem, k->flags, k->n_tmpl);
	if (ret)
		return ret;
	if (vgpu_check_aff_empty(k->affinity, cfg->num_sms))
		return -EINVAL;
	for (i = 0; i < k->n_tmpl; i++) {
		t = &k->tmpl[i];
		if (t->flags & ~(VGPU_KF_INDEPENDENT | VGPU_KF_SEQUENTIAL) ||
		    !t->grid || !t->threads || !t->prog || !t->n_insns ||
		    !t->match)
			return -EINVAL;
		ret = vgpu_check_block(cfg, empty, t->prog, t->n_insns,
				       t->threads, t->regs, t->smem, t->flags,
				       k->n_tmpl);
		if (ret)
			return ret;
	}
	return 0;
}
