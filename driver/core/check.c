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
 * kernels to the core only at the next epoch).  vgpu_gpu_kernel_prepare()
 * makes the same check and keeps its result in the kernel, so that
 * vgpu_gpu_submit() does not check it a second time.
 *
 * A block is matched against an SM's largest free runs computed in the
 * device's search mode (F40-F43, seed 001 [0041]): the check takes the
 * search mode and group from the device's parameters, and refuses a block
 * the search can never find room for, not even on an empty SM.  The maps
 * searched are the shared memory, each sub-partition's registers and,
 * with a scalar register file, each sub-partition's scalar registers.
 *
 * Nothing here reads or writes a device (&struct vgpu_gpu), and nothing
 * calls the controller's other files: only the configuration, the
 * parameters, the ISA and the resource model.
 */
#include "vgpu_os.h"
#include "check.h"
#include "isa.h"

/**
 * vgpu_gpu_search_run() - largest free run of a map in a search mode
 * @p: the parameters: &vgpu_gpu_params.search and
 *	&vgpu_gpu_params.search_group are read, nothing else
 * @map: the map (bmap.h)
 * @nbits: its units
 *
 * F40 (exact), F41 (whole groups of @p->search_group units, seed 001
 * [0127]: the group divides the map, vgpu_gpu_params_validate(); a tail
 * that fills no whole group would never be free) or F42 (run lengths 1, 2,
 * 4, ... up to @nbits).  F43 finds the exact run: one map in the shared
 * unit is the search of embodiment 4 (seed 001 [0192]); the time
 * multiplexing changes when the runs are known, not what they are
 * (vgpu_gpu_search_cycles()).  What the controller matches blocks
 * against (vgpu_gpu_sm_runs()) and what the check of a submission asks of
 * an empty SM.
 *
 * Return: the run in units.
 */
u32 vgpu_gpu_search_run(const struct vgpu_gpu_params *p, const u64 *map,
			u32 nbits)
{
	struct vgpu_bmap_samples s;
	u32 n;

	switch (p->search) {
	case VGPU_SEARCH_GROUPED:
		if (!p->search_group)
			break;
		n = nbits - nbits % p->search_group;
		return n ? vgpu_bmap_run_grouped(map, n, n / p->search_group) :
			   0;
	case VGPU_SEARCH_SAMPLED:
		vgpu_bmap_samples_pow2(&s, nbits);
		return vgpu_bmap_run_sampled(map, nbits, &s);
	}
	return vgpu_bmap_run_exact(map, nbits);
}

/**
 * vgpu_gpu_search_exact() - does a search mode find every run there is?
 * @p: the parameters (the search mode)
 *
 * Return: true for F40 and F43, whose runs are the exact ones: a block
 * fits them wherever allocating it succeeds.
 */
bool vgpu_gpu_search_exact(const struct vgpu_gpu_params *p)
{
	return p->search == VGPU_SEARCH_EXACT || p->search == VGPU_SEARCH_MUX;
}

static_assert(VGPU_BMAP_MUX_MAX_FIELDS >= 1 + 2 * VGPU_MAX_SUBPARTS,
	      "an SM's maps fit the shared unit's fields");
static_assert(VGPU_BMAP_MUX_MAX_BITS >= VGPU_MAX_SMEM_UNITS,
	      "the shared unit holds the shared memory map");
static_assert(VGPU_BMAP_MUX_MAX_BITS >= VGPU_MAX_REG_UNITS,
	      "the shared unit holds a register map");

/**
 * vgpu_gpu_search_plan() - the time-multiplexed search of an SM (F43)
 * @cfg: the device's configuration
 * @plan: out: the periods of one round
 *
 * Seed 001 embodiment 7 (steps g1-g4, [0187]-[0191]): one shared unit per
 * SM, A bits wide, searches every map an SM has in C time periods; a
 * period searches the maps that fit beside one another in A bits.  A is
 * the widest map (the least the seed allows, [0188]), the maps go in the
 * order of vgpu_gpu_sm_runs(): the shared memory (the widest on every
 * preset: alone in the first period), then each sub-partition's registers
 * and each one's scalar registers.  The small preset's 1312 shared memory
 * units and four register maps of 64 take C = 2, as the seed's example
 * ([0212]) takes two for 128, 64 and 48.
 *
 * Return: 0, or -EINVAL for a configuration with more maps or wider ones
 * than the shared unit can hold (vgpu_config_validate() allows none).
 */
int vgpu_gpu_search_plan(const struct vgpu_config *cfg,
			 struct vgpu_bmap_periods *plan)
{
	u32 widths[VGPU_BMAP_MUX_MAX_FIELDS], n = 0, a, s;

	if (cfg->subparts > VGPU_MAX_SUBPARTS)
		return -EINVAL;
	widths[n++] = vgpu_config_smem_units(cfg);
	for (s = 0; s < cfg->subparts; s++)
		widths[n++] = vgpu_config_reg_units(cfg);
	for (s = 0; vgpu_config_sreg_units(cfg) && s < cfg->subparts; s++)
		widths[n++] = vgpu_config_sreg_units(cfg);
	a = max(widths[0], max(vgpu_config_reg_units(cfg),
			       vgpu_config_sreg_units(cfg)));
	return vgpu_bmap_periods_init(plan, a, widths, n);
}

/**
 * vgpu_gpu_search_cycles() - cycles one round of the device's search takes
 * @p: the parameters (the search mode and &vgpu_gpu_params.search_latency)
 * @plan: the device's time-multiplexed search (vgpu_gpu_search_plan())
 *
 * The latency a block's warps wait after its decision (F40-F43): the
 * search's, and under F43 that of each of the round's C periods ([0192]:
 * a period is one or more clock cycles).
 *
 * Return: the cycles.
 */
u32 vgpu_gpu_search_cycles(const struct vgpu_gpu_params *p,
			   const struct vgpu_bmap_periods *plan)
{
	return p->search == VGPU_SEARCH_MUX ?
	       p->search_latency * plan->nperiods : p->search_latency;
}

/**
 * vgpu_gpu_search_run_empty() - the run a search finds in an empty map
 * @p: the parameters (the search mode and group)
 * @nbits: units of the map, all free
 *
 * Return: vgpu_gpu_search_run() of the map.
 */
u32 vgpu_gpu_search_run_empty(const struct vgpu_gpu_params *p, u32 nbits)
{
	u64 map[VGPU_BMAP_WORDS];

	vgpu_bmap_fill(map, nbits);
	return vgpu_gpu_search_run(p, map, nbits);
}

/**
 * vgpu_gpu_search_fits_empty() - can the search find room for a block?
 * @cfg: the device's configuration
 * @p: its parameters (the search mode and group only)
 * @shape: the block
 *
 * The controller matches a block's shared memory and one warp's register
 * and scalar register runs against an SM's largest free runs in the
 * search mode (seed 001 [0041]); they are largest on an empty SM.  Exact
 * and time-multiplexed search find every run there is
 * (vgpu_block_fits_empty() decides); the grouped search with a group
 * dividing the maps, too; the sampled search sees the largest power of
 * two at most the map (F42): a block larger than that never matches.
 *
 * Return: true if an empty SM's runs in @p's search mode are large enough.
 */
bool vgpu_gpu_search_fits_empty(const struct vgpu_config *cfg,
				const struct vgpu_gpu_params *p,
				const struct vgpu_block_shape *shape)
{
	if (vgpu_gpu_search_exact(p))
		return true;
	return vgpu_gpu_search_run_empty(p, vgpu_config_smem_units(cfg)) >=
	       shape->smem_units &&
	       vgpu_gpu_search_run_empty(p, vgpu_config_reg_units(cfg)) >=
	       shape->reg_units &&
	       (!shape->sreg_units ||
		vgpu_gpu_search_run_empty(p, vgpu_config_sreg_units(cfg)) >=
		shape->sreg_units);
}

/* A block's shape: vgpu_block_shape_init() and its scalar registers. */
static int vgpu_check_shape(const struct vgpu_config *cfg,
			    struct vgpu_block_shape *shape, u32 threads,
			    u32 regs, u32 smem, u32 sregs, u32 barriers)
{
	if (vgpu_block_shape_init(shape, cfg, threads, regs, smem, barriers,
				  NULL))
		return -E2BIG;
	return vgpu_block_shape_set_sregs(shape, cfg, sregs) ? -E2BIG : 0;
}

/*
 * A functional program (seed 004): lanes as wide as the device's warps,
 * its registers among the kernel's, private memory a multiple of 4 up to
 * VGPU_MAX_PRIVATE_BYTES, counted in the warp's run of the register file
 * (fn.h).  Private memory or an instruction budget without a functional
 * program is refused: a timing-only program's length is bounded already.
 */
static int vgpu_check_fn(const struct vgpu_config *cfg,
			 const struct vgpu_gpu_kernel *k,
			 const struct vgpu_isa_summary *sum,
			 struct vgpu_block_shape *shape)
{
	if (!sum->uses_functional)
		return k->args.priv_bytes || k->args.insn_budget ? -EINVAL : 0;
	if (cfg->warp_size != VGPU_ISA_LANES || sum->max_reg >= k->args.regs ||
	    k->args.priv_bytes % 4 || k->args.priv_bytes > VGPU_MAX_PRIVATE_BYTES)
		return -EINVAL;
	if (k->args.priv_bytes)
		shape->reg_units = DIV_ROUND_UP((k->args.regs + k->args.priv_bytes / 4) *
						cfg->warp_size, cfg->reg_unit);
	return 0;
}

/*
 * One kernel's or template's program and block, in the order of
 * vgpu_gpu_submit(): its shape (-E2BIG), the program and its shape with
 * the barrier (what vgpu_kernel_desc_init() refuses, -EINVAL), PUSH only
 * with a target (kernels, F14), BAR and LAUNCH (F24, F15), the fit on an
 * empty SM, exact and in @p's search mode (-E2BIG).  @k is the kernel,
 * NULL for a template.
 */
static int vgpu_check_block(const struct vgpu_config *cfg,
			    const struct vgpu_gpu_params *p,
			    const struct vgpu_gpu_kernel *k,
			    const struct vgpu_insn *prog, u32 n_insns,
			    u32 threads, u32 regs, u32 smem, u32 sregs,
			    u32 flags, u32 n_tmpl, struct vgpu_isa_summary *sum,
			    struct vgpu_block_shape *shape)
{
	u32 i, isa = k && k->args.fn ? VGPU_ISA_FUNCTIONAL : 0;

	if (vgpu_check_shape(cfg, shape, threads, regs, smem, sregs, 0))
		return -E2BIG;
	/* F35: one level per warp of a block, each a priority level */
	if (k && k->args.n_warp_prio && k->args.n_warp_prio != shape->warps)
		return -EINVAL;
	for (i = 0; k && i < k->args.n_warp_prio; i++)
		if (k->args.warp_prio[i] >= cfg->num_prios)
			return -EINVAL;
	/* without BAR the shape with the barrier is the one just made */
	if (vgpu_isa_summarize_flags(prog, n_insns, isa, sum) ||
	    (sum->uses_bar &&
	     vgpu_check_shape(cfg, shape, threads, regs, smem, sregs, 1)))
		return -EINVAL;
	if (k && vgpu_check_fn(cfg, k, sum, shape))
		return -EINVAL;
	/* F14: a program with PUSH has a target, and only such a program */
	if (k && sum->uses_push != !!k->args.push_to)
		return -EINVAL;
	/* a split breaks blocks apart: no BAR, no LAUNCH (F24, F15) */
	if ((sum->uses_bar || sum->uses_launch) &&
	    (flags & VGPU_KF_INDEPENDENT))
		return -EINVAL;
	/* every LAUNCH names one of the templates (F15) */
	if (sum->launch_mask >> n_tmpl)
		return -EINVAL;
	return vgpu_block_fits_empty(cfg, shape) &&
	       vgpu_gpu_search_fits_empty(cfg, p, shape) ? 0 : -E2BIG;
}

/*
 * The queue fields of a submitted kernel (F14): a queue kernel has queue
 * fields and no grid, another the reverse.  0 or -EINVAL.
 */
static int vgpu_check_queue(const struct vgpu_gpu_kernel *k)
{
	/* a PUSH's target is a queue kernel (F14): its state is the device's */
	if (k->args.push_to && !(k->args.push_to->args.flags & VGPU_KF_QUEUE))
		return -EINVAL;
	if (!(k->args.flags & VGPU_KF_QUEUE))
		return !k->args.grid || k->args.queue_n || k->args.queue_cap ||
		       k->args.queue_timeout || k->args.n_dev_push ? -EINVAL : 0;
	if (k->args.n_dev_push > k->args.queue_cap || (k->args.n_dev_push && !k->args.dev_push))
		return -EINVAL;
	if (k->args.grid || !k->args.queue_n || k->args.queue_n > VGPU_MAX_COALESCE ||
	    !k->args.queue_cap || k->args.queue_cap > VGPU_MAX_QUEUE_ITEMS ||
	    !k->args.queue_timeout || k->args.queue_timeout > VGPU_GPU_MAX_QTIMEOUT)
		return -EINVAL;
	return 0;
}

static_assert(VGPU_GPU_AFF_WORDS % 4 == 0, "four words a step");

/* An affinity mask (F25) with bits set but none on one of @num_sms SMs. */
static bool vgpu_check_aff_empty(const u64 *aff, u32 num_sms)
{
	u64 any = 0;
	u32 i;

	/* the device's SMs first: the words of a real mask */
	for (i = 0; i < num_sms / 64; i++)
		if (aff[i])
			return false;
	if (num_sms % 64 && aff[i] & (BIT_ULL(num_sms % 64) - 1))
		return false;
	/* none of them: is it all zero (every SM) or stray bits? */
	for (i = 0; i < VGPU_GPU_AFF_WORDS; i += 4)
		any |= aff[i] | aff[i + 1] | aff[i + 2] | aff[i + 3];
	return any != 0;
}

/**
 * vgpu_gpu_kernel_check() - would vgpu_gpu_submit() take this kernel?
 * @cfg: the device's configuration
 * @p: the device's parameters: only the search mode and group are read
 * @k: the kernel as it will be submitted: its F10 fields, its program and
 *	its templates' (F15), each passed by vgpu_isa_validate() (@match:
 *	storage only), its child budget; an all-zero @k->affinity means
 *	every SM
 *
 * Pure: reads its arguments and writes nothing, so any number of callers
 * may check at once.  Everything vgpu_gpu_submit() checks but the
 * device's state (the channel exists, the id is unused).
 *
 * Return: 0; -EINVAL for what vgpu_gpu_submit() refuses with -EINVAL (a
 * field, the warp levels, the program, PUSH without a target or a target
 * without PUSH, an independent kernel with BAR or LAUNCH, a LAUNCH of a
 * template it does not have, an affinity naming no SM of @cfg, a bad
 * template); -E2BIG for a block, its own or a template's, that can never
 * fit an empty SM, or that the device's search mode can never find room
 * for there (vgpu_gpu_search_fits_empty()).
 */
int vgpu_gpu_kernel_check(const struct vgpu_config *cfg,
			  const struct vgpu_gpu_params *p,
			  const struct vgpu_gpu_kernel *k)
{
	struct vgpu_block_shape shape;
	struct vgpu_isa_summary sum;

	return vgpu_gpu_kernel_check_sum(cfg, p, k, &sum, &shape);
}

/**
 * vgpu_gpu_kernel_check_sum() - vgpu_gpu_kernel_check(), keeping what it
 *	made of the kernel's own program and block
 * @cfg: the device's configuration
 * @p: the device's parameters (as for vgpu_gpu_kernel_check())
 * @k: the kernel (as for vgpu_gpu_kernel_check())
 * @sum: out: on success, vgpu_isa_summarize() of @k's program
 * @shape: out: on success, the shape of @k's blocks as
 *	vgpu_kernel_desc_init() makes it (the barrier if the program has
 *	BAR, the scalar registers)
 *
 * vgpu_gpu_submit() takes both for the kernel's descriptor rather than
 * scanning the program and shaping the block again.
 *
 * Return: as vgpu_gpu_kernel_check().
 */
int vgpu_gpu_kernel_check_sum(const struct vgpu_config *cfg,
			      const struct vgpu_gpu_params *p,
			      const struct vgpu_gpu_kernel *k,
			      struct vgpu_isa_summary *sum,
			      struct vgpu_block_shape *shape)
{
	const struct vgpu_gpu_template *t;
	struct vgpu_block_shape tshape;
	struct vgpu_isa_summary tsum;
	u32 i;
	int ret;

	if (k->args.flags & ~VGPU_KF_ALL || k->args.prio >= cfg->num_prios ||
	    !k->args.prog || !k->args.n_insns || !k->args.match || !k->args.threads ||
	    k->args.deadline > VGPU_GPU_MAX_DEADLINE || vgpu_check_queue(k))
		return -EINVAL;
	if (k->args.n_tmpl > VGPU_MAX_TEMPLATES || (k->args.n_tmpl && !k->args.tmpl) ||
	    k->args.child_budget > VGPU_MAX_CHILDREN ||
	    (k->args.child_budget && !k->args.child_store))
		return -EINVAL;
	ret = vgpu_check_block(cfg, p, k, k->args.prog, k->args.n_insns,
			       k->args.threads, k->args.regs, k->args.smem,
			       k->args.sregs, k->args.flags, k->args.n_tmpl,
			       sum, shape);
	if (ret)
		return ret;
	if (!k->args.no_affinity && vgpu_check_aff_empty(k->args.affinity, cfg->num_sms))
		return -EINVAL;
	for (i = 0; i < k->args.n_tmpl; i++) {
		t = &k->args.tmpl[i];
		if (t->flags & ~(VGPU_KF_INDEPENDENT | VGPU_KF_SEQUENTIAL) ||
		    !t->grid || !t->threads || !t->prog || !t->n_insns ||
		    !t->match)
			return -EINVAL;
		ret = vgpu_check_block(cfg, p, NULL, t->prog, t->n_insns,
				       t->threads, t->regs, t->smem, 0,
				       t->flags, k->args.n_tmpl, &tsum, &tshape);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * vgpu_gpu_kernel_prepare() - check a kernel once, before vgpu_gpu_submit()
 * @cfg: the configuration of the device it will be submitted to
 * @p: its parameters (as for vgpu_gpu_kernel_check())
 * @k: the kernel (as for vgpu_gpu_kernel_check())
 *
 * vgpu_gpu_kernel_check(), keeping in @k what it made of the kernel's own
 * program and block (&vgpu_gpu_kernel.desc, &vgpu_gpu_kernel.prepared):
 * the next vgpu_gpu_submit() of @k to a device of @cfg then checks only
 * the device's state (the channel, the id, a PUSH target), so a host that
 * checks at its own submission validates each kernel once.  The fields
 * checked must not change in between.  The device's search mode may:
 * vgpu_gpu_submit() matches a prepared kernel's blocks against the mode
 * in force again (vgpu_gpu_kernel_search_check()).
 *
 * Return: as vgpu_gpu_kernel_check(); on error @k is not prepared.
 */
int vgpu_gpu_kernel_prepare(const struct vgpu_config *cfg,
			    const struct vgpu_gpu_params *p,
			    struct vgpu_gpu_kernel *k)
{
	int ret;

	ret = vgpu_gpu_kernel_check_sum(cfg, p, k, &k->desc.sum,
					&k->desc.shape);
	k->prepared = !ret;
	return ret;
}

/**
 * vgpu_gpu_kernel_search_check() - a prepared kernel against a search mode
 * @cfg: the device's configuration
 * @p: the parameters in force (the search mode and group)
 * @k: a kernel vgpu_gpu_kernel_prepare() checked, its templates'
 *	descriptors built (vgpu_gpu_submit())
 *
 * The search mode of a live device may change between a host's check and
 * the submission (vgpu_gpu_set_dispatch()): vgpu_gpu_submit() asks again,
 * from the shapes already made, without checking the rest a second time.
 *
 * Return: 0, or -E2BIG if @p's search can never find room for one of
 * @k's blocks or its templates' on an empty SM.
 */
int vgpu_gpu_kernel_search_check(const struct vgpu_config *cfg,
				 const struct vgpu_gpu_params *p,
				 const struct vgpu_gpu_kernel *k)
{
	u32 i;

	if (vgpu_gpu_search_exact(p))
		return 0;
	if (!vgpu_gpu_search_fits_empty(cfg, p, &k->desc.shape))
		return -E2BIG;
	for (i = 0; i < k->args.n_tmpl; i++)
		if (!vgpu_gpu_search_fits_empty(cfg, p,
						&k->args.tmpl[i].desc.shape))
			return -E2BIG;
	return 0;
}
