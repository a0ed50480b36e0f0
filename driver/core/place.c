// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: matching, placement and preemption (F20,
 * F23-F26).
 *
 * A dispatch round (vgpu_gpu_round()) offers the eligible task-table
 * kernels (F26 gates) a decision in the candidate order of
 * policy_default.c; the first that matches an SM by path (a) whole
 * blocks, (b) one warp or (c) preemption of lower priorities (F23), on the
 * SM the device's policy picks (F25), has its blocks placed there.  Also
 * the switch-outs of switch mode and the split of an independent kernel
 * (F24).
 */
#include "vgpu_os.h"
#include "check.h"
#include "gpu_internal.h"
#include "policy_default.h"

static bool vgpu_gpu_aff_test(const struct vgpu_gpu_kernel *k, u32 sm)
{
	return k->args.affinity[sm / 64] & BIT_ULL(sm % 64);
}

/**
 * vgpu_gpu_sm_allowed() - may an SM take blocks of a kernel? (F26)
 * @g: the device
 * @k: the kernel
 * @sm: SM index
 *
 * Return: true if @k's affinity and the throttle mode allow SM @sm, and
 * the SM is not between an assignment and its acknowledgment: blocks go
 * only to SMs ready (CTA_LAUNCH) or with no kernel assigned (F17, seed 002
 * step 502, vgpu_gpu_sm_state()); an SM ready for another kernel is
 * assigned this one by the block.
 */
bool vgpu_gpu_sm_allowed(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k, u32 sm)
{
	if (!vgpu_gpu_aff_test(k, sm))
		return false;
	if (g->p.throttle && sm >= g->p.throttle_sms)
		return false;
	if (unlikely(g->sm[sm].hs.ready_at > g->now))
		return false;
	return true;
}

/**
 * vgpu_gpu_sm_state() - the SM table's state of an SM (F17)
 * @g: the device
 * @sm: SM index
 *
 * Seed 002 steps 434-438 and 502, at the current boundary.
 *
 * Return: VGPU_SM_PHASE_NONE before the SM's first block;
 * VGPU_SM_PHASE_TASK_ASSIGN while the kernel of its last assignment is
 * being assigned (assign_latency); VGPU_SM_PHASE_STATE_SYNC while its
 * state is sent and not acknowledged (sync_cost); VGPU_SM_PHASE_READY
 * (the seed's CTA_LAUNCH) once the SM may take blocks again.
 */
u32 vgpu_gpu_sm_state(const struct vgpu_gpu *g, u32 sm)
{
	const struct vgpu_gpu_hs *hs = &g->sm[sm].hs;

	if (hs->kernel == VGPU_EV_NONE)
		return VGPU_SM_PHASE_NONE;
	if (g->now < hs->sync_at)
		return VGPU_SM_PHASE_TASK_ASSIGN;
	if (g->now < hs->ready_at)
		return VGPU_SM_PHASE_STATE_SYNC;
	return VGPU_SM_PHASE_READY;
}

/* F26: is @k eligible in this round at all? */
static bool vgpu_gpu_eligible(const struct vgpu_gpu *g,
			      const struct vgpu_gpu_kernel *k)
{
	if (!vgpu_gpu_undispatched(k))
		return false;
	/* F26: throttle kernels in throttle mode only, nothing while it waits */
	if (!!g->p.throttle != !!(k->args.flags & VGPU_KF_THROTTLE) ||
	    g->throttle_state == VGPU_THROTTLE_DRAIN)
		return false;
	if ((k->args.flags & VGPU_KF_SEQUENTIAL) && k->inflight)
		return false;
	return true;
}

/* Let the policy pick among @c[0..n-1], or none (VGPU_POLICY_WAIT). */
static u32 vgpu_gpu_policy_pick(struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k,
				const struct vgpu_block_shape *shape,
				const struct vgpu_policy_sm *c, u32 n)
{
	struct vgpu_policy_ctx ctx = {
		.gpu = g, .shape = shape, .rr_next = g->rr_next,
		.sm_rank = g->sm_rank, .res_weight = g->p.res_weight, .k = k,
		.free_max = g->free_max, .power_max = g->power_max,
		.combo = g->p.combo,
	};
	u32 i = g->policy->select_sm(&ctx, c, n), j;

	if (i < n) {
		vgpu_gpu_policy_ok(g);
		return c[i].sm;
	}
	if (i == VGPU_POLICY_WAIT) {
		/* the default would have placed it: the watchdog knows */
		vgpu_gpu_policy_ok(g);
		g->watch.held = true;
		return VGPU_POLICY_WAIT;
	}
	/* refused: the default's answer, round robin from the pointer */
	vgpu_gpu_policy_err(g, VGPU_POLICY_OP_SELECT_SM);
	for (j = 0; j < n; j++)
		if (c[j].sm >= g->rr_next)
			return c[j].sm;
	return c[0].sm;
}

/*
 * Cheap necessary conditions for @want warps of @shape (and the block
 * level) to fit: counters and total free registers, no run searches.
 */
static bool vgpu_gpu_may_fit(const struct vgpu_sm_res *res,
			     const struct vgpu_block_shape *shape, u32 want)
{
	return res->blocks_used < res->max_blocks &&
	       res->warps_total + want <= res->max_warps &&
	       shape->barriers <= res->max_barriers - res->barriers_used &&
	       res->reg_free >= want * shape->reg_units;
}

/**
 * vgpu_gpu_sm_view() - what an SM can still start (F23 (b))
 * @g: the device
 * @sm: SM index
 * @full: out: true if a warp committed to the SM cannot start now
 *
 * A block placed warp by warp (F23 (b)) holds its block slot and shared
 * memory, and each warp takes its slot and registers when it starts.  Its
 * warps not started yet are committed to the SM all the same: they count
 * against its free resources, for every fit test and every figure of the
 * SM choice (F25), so that an SM never takes more than it can start.  The
 * view is the SM's resources with those warps in place, taken in the SM's
 * own way (vgpu_sm_res_alloc_warp()); the SM itself when it has none.
 *
 * Return: the view; with @full set it is as far as the warps went, and the
 * SM takes nothing more until they start.
 */
const struct vgpu_sm_res *vgpu_gpu_sm_view(struct vgpu_gpu *g, u32 sm,
					   bool *full)
{
	const struct vgpu_sm *s = &g->sm[sm].sm;
	const struct vgpu_sm_block *b;
	u64 m, warp = 0;
	u32 i;

	*full = false;
	for (m = s->unstarted; m; m &= m - 1)
		if (s->block[__ffs64(m)].mode == VGPU_PLACE_WARP)
			warp |= BIT_ULL(__ffs64(m));
	if (likely(!warp))
		return &s->res;
	g->view = s->res;
	g->view.dirty = NULL;
	for (; warp; warp &= warp - 1) {
		b = &s->block[__ffs64(warp)];
		g->view_place = b->place;
		for (i = b->next_start; i < b->n_warps; i++) {
			if (vgpu_sm_res_alloc_warp(&g->view, &g->view_place,
						   i)) {
				*full = true;
				return &g->view;
			}
		}
	}
	return &g->view;
}

/*
 * May a whole block of @shape go to SM @i before the allocation, which is
 * the exact test of the SM's own resources?  The cheap conditions, and
 * with warps committed to the SM, the exact test of what it can start.
 */
static bool vgpu_gpu_block_may_go(struct vgpu_gpu *g, u32 i,
				  const struct vgpu_block_shape *shape)
{
	const struct vgpu_sm_res *res;
	bool full;

	res = vgpu_gpu_sm_view(g, i, &full);
	if (full || !vgpu_gpu_may_fit(res, shape, shape->warps))
		return false;
	return res == &g->sm[i].sm.res || vgpu_sm_res_block_fits(res, shape);
}

/* Did (a) and (b) already fail for these needs in this call? */
static bool vgpu_gpu_shape_nofit(const struct vgpu_gpu *g,
				 const struct vgpu_gpu_kernel *k,
				 const struct vgpu_block_shape *a)
{
	const struct vgpu_block_shape *b;
	u32 i;

	if (k->nsaved || !k->aff_all)
		return false;
	for (i = 0; i < g->nnofit; i++) {
		b = &g->nofit[i].shape;
		if (g->nofit[i].bar == k->uses_bar && a->warps == b->warps &&
		    a->reg_units == b->reg_units &&
		    a->smem_units == b->smem_units &&
		    a->barriers == b->barriers &&
		    a->sreg_units == b->sreg_units)
			return true;
	}
	return false;
}

static void vgpu_gpu_note_shape_nofit(struct vgpu_gpu *g,
				      const struct vgpu_gpu_kernel *k,
				      const struct vgpu_block_shape *shape)
{
	if (k->nsaved || !k->aff_all || g->nnofit == ARRAY_SIZE(g->nofit))
		return;
	g->nofit[g->nnofit].shape = *shape;
	g->nofit[g->nnofit].bar = k->uses_bar;
	g->nnofit++;
}

/* Does the search find a run of @len in some sub-partition's map of @maps? */
static bool vgpu_gpu_subpart_run_fits(const struct vgpu_gpu *g,
				      const u64 (*maps)[VGPU_REG_WORDS],
				      u32 subparts, u32 units, u32 len)
{
	u32 p;

	for (p = 0; p < subparts; p++)
		if (vgpu_gpu_search_run(&g->p, maps[p], units) >= len)
			return true;
	return false;
}

/*
 * Seed 001 [0041] for path (c): would the device's search mode find room
 * for @shape in @res (an SM's resources, or what they would be once the
 * victims went)?  Its shared memory run and one warp's register and
 * scalar register runs in some sub-partition, as vgpu_gpu_sm_runs()
 * computes them; exact and time-multiplexed search find what allocating
 * finds, so they answer yes.
 */
static bool vgpu_gpu_res_runs_fit(const struct vgpu_gpu *g,
				  const struct vgpu_sm_res *res,
				  const struct vgpu_block_shape *shape)
{
	if (vgpu_gpu_search_exact(&g->p))
		return true;
	if (vgpu_gpu_search_run(&g->p, res->smem, res->smem_units) <
	    shape->smem_units)
		return false;
	if (shape->sreg_units &&
	    !vgpu_gpu_subpart_run_fits(g, res->sregs, res->subparts,
				       res->sreg_units, shape->sreg_units))
		return false;
	return vgpu_gpu_subpart_run_fits(g, res->regs, res->subparts,
					 res->reg_units, shape->reg_units);
}

/**
 * vgpu_gpu_block_level_fits() - does the block level fit? (F23 (c), warp mode)
 * @g: the device
 * @res: the SM's resources
 * @shape: the block
 *
 * The block level of a block placed in warp mode is taken now, its warps
 * as the victims' end: a block slot, the barriers and a shared memory run
 * the device's search mode finds (seed 001 [0041], F40-F42).
 *
 * Return: true if a block slot, shared memory and barriers fit.
 */
bool vgpu_gpu_block_level_fits(const struct vgpu_gpu *g,
			       const struct vgpu_sm_res *res,
			       const struct vgpu_block_shape *shape)
{
	if (res->blocks_used >= res->max_blocks ||
	    shape->barriers > res->max_barriers - res->barriers_used)
		return false;
	if (!vgpu_gpu_search_exact(&g->p))
		return vgpu_gpu_search_run(&g->p, res->smem, res->smem_units) >=
		       shape->smem_units;
	return vgpu_bmap_find_run(res->smem, res->smem_units,
				  shape->smem_units) >= 0;
}

/* Switch-out order: lowest priority first, then the youngest. */
static u32 vgpu_gpu_victim(const struct vgpu_sm *sm, u64 cand)
{
	u32 best = __ffs64(cand), s;

	for (cand &= cand - 1; cand; cand &= cand - 1) {
		s = __ffs64(cand);
		if (sm->block[s].prio > sm->block[best].prio ||
		    (sm->block[s].prio == sm->block[best].prio &&
		     sm->block[s].seq > sm->block[best].seq))
			best = s;
	}
	return best;
}

/**
 * vgpu_gpu_policy_victim() - may a policy preempt a kernel now?
 * @g: the device
 * @v: the kernel whose blocks would be preempted
 *
 * A kernel preempted on a policy's request (a yield, vgpu_policy_preempt_kernel()
 * or an @preempt answer of equal priority) stays on its SMs for
 * vgpu_policy_min_residency() cycles once blocks of it are placed again
 * (policy_watch.c): so policies cannot preempt one another in a loop.
 *
 * Return: true if it may.
 */
bool vgpu_gpu_policy_victim(const struct vgpu_gpu *g,
			    const struct vgpu_gpu_kernel *v)
{
	return !v->t.resident || v->t.resident == VGPU_GPU_NO_CYCLE ||
	       g->now >= v->t.resident + vgpu_policy_min_residency(g);
}

/*
 * May the block in @slot of SM @i be preempted for @k?  One of lower
 * priority always (F23 (c)); with @equal (a policy's @preempt answer) one
 * of @k's priority too, of another kernel the policy may preempt.
 */
static bool vgpu_gpu_victim_ok(const struct vgpu_gpu *g, u32 i, u32 slot,
			       const struct vgpu_gpu_kernel *k, bool equal)
{
	const struct vgpu_gpu_kernel *v;
	u32 prio = g->sm[i].sm.block[slot].prio;

	if (prio > k->eff_prio)
		return true;
	if (!equal || prio != k->eff_prio)
		return false;
	v = g->sm[i].shadow[slot].k;
	return v && v != k && vgpu_gpu_policy_victim(g, v);
}

/**
 * vgpu_gpu_switch_victims() - blocks to switch out for a block (switch mode)
 * @g: the device
 * @i: the SM
 * @k: the kernel of the block to place
 * @equal: blocks of @k's priority may go too (vgpu_gpu_victim_ok())
 * @shape: the block to place
 *
 * Would switching out blocks of lower priority than @k's (lowest
 * priority, youngest first) make room for @shape, room the device's
 * search mode finds (seed 001 [0041], F40-F42)?
 *
 * Return: how many must go, 0 if it cannot work.
 */
u32 vgpu_gpu_switch_victims(struct vgpu_gpu *g, u32 i,
			    const struct vgpu_gpu_kernel *k, bool equal,
			    const struct vgpu_block_shape *shape)
{
	struct vgpu_block_place *place = &g->scratch_place;
	struct vgpu_sm *sm = &g->sm[i].sm;
	u64 cand = 0, m;
	u32 n = 0, s;

	for (m = sm->used; m; m &= m - 1)
		if (vgpu_gpu_victim_ok(g, i, __ffs64(m), k, equal))
			cand |= BIT_ULL(__ffs64(m));
	g->scratch = sm->res;
	g->scratch.dirty = NULL;
	while (cand) {
		s = vgpu_gpu_victim(sm, cand);
		cand &= ~BIT_ULL(s);
		*place = sm->block[s].place;
		vgpu_sm_res_free_block(&g->scratch, place);
		n++;
		if (vgpu_sm_res_block_fits(&g->scratch, shape) &&
		    vgpu_gpu_res_runs_fit(g, &g->scratch, shape))
			return n;
	}
	return 0;
}

/* Unit @u of @k as (descriptor, block index, warps) (F24 split). */
static const struct vgpu_kernel_desc *
vgpu_gpu_unit(const struct vgpu_gpu_kernel *k, u32 u, u32 *bid, u32 *wbase)
{
	u32 r;

	if (!k->split || u < k->split_from) {
		*bid = u;
		*wbase = 0;
		return &k->desc;
	}
	r = u - k->split_from;
	*bid = k->split_from * k->warps + r;
	*wbase = r % k->warps;
	return &k->split_desc;
}

/*
 * Add block @bid of @k (descriptor @d) to @sm with the items it takes
 * (F14); a functional block learns the index of its first item, which
 * the oldest waiting one has: the items before it have all launched.
 */
static int vgpu_gpu_block_add(struct vgpu_sm *sm,
			      const struct vgpu_kernel_desc *d, u32 bid,
			      const struct vgpu_gpu_kernel *k,
			      enum vgpu_place_mode mode)
{
	u64 before = sm->used;
	int ret;

	ret = vgpu_sm_block_add_items(sm, d, bid, vgpu_gpu_q_peek(k),
				      k->eff_prio, mode);
	if (!ret && unlikely(d->sum.uses_functional))
		sm->block[__ffs64(sm->used & ~before)].item =
			(u32)(k->q.items - k->q.wait);
	return ret;
}

/* First-fit path (a): place @k's next block on SM @i if it fits. */
static bool vgpu_gpu_try_add(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			     u32 i, struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm = &g->sm[i].sm;
	const struct vgpu_kernel_desc *d;
	u32 bid, wbase;
	u64 before = sm->used;

	d = vgpu_gpu_unit(k, k->next_unit, &bid, &wbase);
	if (vgpu_gpu_block_add(sm, d, bid, k, VGPU_PLACE_BLOCK))
		return false;
	m->sm = i;
	m->pre = true;
	m->pre_slot = __ffs64(sm->used & ~before);
	return true;
}

/* Largest free run of @map (@nbits units) by the device's search mode. */
static u32 vgpu_gpu_run_of(const struct vgpu_gpu *g, const u64 *map,
			   u32 nbits)
{
	return vgpu_gpu_search_run(&g->p, map, nbits);
}

/*
 * F43: every map of @res in one round of the shared unit
 * (vgpu_gpu_search_plan()'s order), into @runs: the shared memory's, then
 * each sub-partition's registers, then each one's scalar registers.
 */
static void vgpu_gpu_runs_mux(struct vgpu_gpu *g,
			      const struct vgpu_sm_res *res, u32 *runs)
{
	const u64 *maps[VGPU_BMAP_MUX_MAX_FIELDS];
	u32 p, n = 0;

	maps[n++] = res->smem;
	for (p = 0; p < res->subparts; p++)
		maps[n++] = res->regs[p];
	for (p = 0; res->sreg_units && p < res->subparts; p++)
		maps[n++] = res->sregs[p];
	vgpu_bmap_run_periods(&g->mux_plan, maps, runs, &g->mux_scratch);
}

/*
 * Registers sub-partition @p can give warps: its register run, and with
 * a scalar file at most its scalar run @srun as the same share of the
 * register map (a warp takes a run of each, vgpu_gpu_sm_free()).
 */
static u32 vgpu_gpu_subpart_usable(const struct vgpu_sm_res *res, u32 run,
				   u32 srun)
{
	if (!res->sreg_units)
		return run;
	return min_t(u32, run, div_u64((u64)srun * res->reg_units,
				       res->sreg_units));
}

/**
 * vgpu_gpu_sm_runs() - bring an SM's largest free runs up to date
 * @g: the device
 * @sm: SM index
 *
 * Seed 001 [0041]: the remaining resources of an SM are, for each
 * resource allocated contiguously, its largest contiguous free run,
 * computed in the device's search mode (F40-F43), and for the others
 * their free count; the warps committed to the SM count as taken
 * (vgpu_gpu_sm_view()).  The runs of shared memory, of registers and of
 * scalar registers (the largest over the sub-partitions: what a block is
 * matched against) and each sub-partition's usable registers (what
 * vgpu_gpu_sm_free() sums).  Under VGPU_SEARCH_MUX one round of the
 * shared unit searches every map (vgpu_gpu_runs_mux()).  Computed again
 * only when the SM's resources changed (so do its committed warps).
 */
void vgpu_gpu_sm_runs(struct vgpu_gpu *g, u32 sm)
{
	u32 runs[VGPU_BMAP_MUX_MAX_FIELDS], p, r, sr = 0;
	struct vgpu_gpu_sm *gs = &g->sm[sm];
	const struct vgpu_sm_res *res;
	bool full;

	if (!(g->fit_dirty[sm] & VGPU_GPU_RUNS_DIRTY))
		return;
	g->fit_dirty[sm] &= ~VGPU_GPU_RUNS_DIRTY;
	res = vgpu_gpu_sm_view(g, sm, &full);
	if (g->p.search == VGPU_SEARCH_MUX)
		vgpu_gpu_runs_mux(g, res, runs);
	gs->run_smem = g->p.search == VGPU_SEARCH_MUX ? runs[0] :
		       vgpu_gpu_run_of(g, res->smem, res->smem_units);
	gs->run_regs = 0;
	gs->run_sregs = 0;
	for (p = 0; p < res->subparts; p++) {
		if (g->p.search == VGPU_SEARCH_MUX) {
			r = runs[1 + p];
			if (res->sreg_units)
				sr = runs[1 + res->subparts + p];
		} else {
			r = vgpu_gpu_run_of(g, res->regs[p], res->reg_units);
			if (res->sreg_units)
				sr = vgpu_gpu_run_of(g, res->sregs[p],
						     res->sreg_units);
		}
		gs->run_regs = max(gs->run_regs, r);
		gs->run_sregs = max(gs->run_sregs, sr);
		gs->runs_regs[p] = vgpu_gpu_subpart_usable(res, r, sr);
	}
}

/**
 * vgpu_gpu_sm_free() - weighted remaining resources of an SM (F25)
 * @g: the device
 * @sm: SM index
 *
 * Seed 001 embodiment 9 with [0257]: sum a_h * r_h, where r_h of the
 * contiguous resources (registers, shared memory) is the largest free run
 * in the device's search mode (vgpu_gpu_sm_runs()) and of the others
 * (warp slots, block slots) the free count, the warps committed to the SM
 * counted as taken (vgpu_gpu_sm_view()).  Each register sub-partition is
 * a map of its own: r_h of the registers sums their largest runs, so the
 * load on every sub-partition shows and an empty SM's r_h is the
 * register file's total, as the counting unit of [0256] starts
 * (&vgpu_gpu.free_max).  With a scalar register file a sub-partition
 * counts at most its largest scalar run as the same share of the register
 * map: a warp needs a run of both, and a full scalar file leaves its
 * registers unusable.
 *
 * Return: the sum.
 */
u64 vgpu_gpu_sm_free(struct vgpu_gpu *g, u32 sm)
{
	const struct vgpu_sm_res *res;
	const u32 *a = g->p.res_weight;
	u64 regs = 0;
	bool full;
	u32 p;

	vgpu_gpu_sm_runs(g, sm);
	res = vgpu_gpu_sm_view(g, sm, &full);
	for (p = 0; p < res->subparts; p++)
		regs += g->sm[sm].runs_regs[p];
	return regs * a[VGPU_RES_REGS] +
	       (u64)(res->max_warps - res->warps_total) * a[VGPU_RES_WARPS] +
	       (u64)g->sm[sm].run_smem * a[VGPU_RES_SMEM] +
	       (u64)(res->max_blocks - res->blocks_used) * a[VGPU_RES_BLOCKS];
}

/*
 * Seed 001 [0041]: does @shape match SM @sm's largest runs by @path?  In
 * exact and time-multiplexed mode this follows from the allocation test;
 * the grouped and sampled searches see less than there is, and reject
 * more.
 */
static bool vgpu_gpu_runs_fit(struct vgpu_gpu *g, u32 sm,
			      const struct vgpu_block_shape *shape)
{
	if (vgpu_gpu_search_exact(&g->p))
		return true;
	vgpu_gpu_sm_runs(g, sm);
	return g->sm[sm].run_smem >= shape->smem_units &&
	       g->sm[sm].run_regs >= shape->reg_units &&
	       g->sm[sm].run_sregs >= shape->sreg_units;
}

/* Does @shape fit SM @i by @path ((a) whole block or (b) one warp)? */
static bool vgpu_gpu_fits(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  const struct vgpu_block_shape *shape, u32 path, u32 i)
{
	const struct vgpu_sm_res *res;
	bool full;

	if (!vgpu_gpu_sm_allowed(g, k, i) || !vgpu_gpu_runs_fit(g, i, shape))
		return false;
	res = vgpu_gpu_sm_view(g, i, &full);
	if (full)
		return false;
	if (path == VGPU_PATH_BLOCK)
		return vgpu_gpu_may_fit(res, shape, shape->warps) &&
		       vgpu_sm_res_block_fits(res, shape);
	/*
	 * Seed 000 claim 4: the first SM has more free registers, more free
	 * hardware warps and more free shared memory than one warp needs
	 * (strictly; a warp's share of the block's shared memory), and the
	 * block level itself must be takeable (vgpu_sm_res_warp_fits()).
	 */
	return vgpu_gpu_may_fit(res, shape, 1) &&
	       res->max_warps - res->warps_total > 1 &&
	       res->reg_free > shape->reg_units &&
	       res->smem_free > DIV_ROUND_UP(shape->smem_units, shape->warps) &&
	       (!shape->sreg_units || res->sreg_free > shape->sreg_units) &&
	       vgpu_sm_res_warp_fits(res, shape);
}

/*
 * F25 candidate sets.  A policy with an SM choice of its own is offered
 * every SM the block fits, with figures (power, weighted free resources,
 * further blocks that fit).  Checking an SM exactly costs run searches, so
 * the set is kept across the decisions of a dispatch call and only the SMs
 * whose resources changed since (their fit_dirty bit) are checked again:
 * the set is always the one a fresh scan would build, same SMs, same
 * order, same figures.  Nothing else a set depends on changes during the
 * rounds (the SMs do not run, so their power stays), and the key covers
 * what differs from one kernel to the next.
 */

/**
 * vgpu_gpu_fit_forget() - start the candidate sets afresh
 * @g: the device
 *
 * Called when a dispatch call's rounds begin: the SMs ran since the last.
 */
void vgpu_gpu_fit_forget(struct vgpu_gpu *g)
{
	g->fit[0].valid = false;
	g->fit[1].valid = false;
}

static void vgpu_gpu_fit_fill(struct vgpu_gpu *g, struct vgpu_policy_sm *c,
			      u32 sm, const struct vgpu_block_shape *shape)
{
	u32 wants = g->policy->wants;
	bool full;

	c->sm = sm;
	c->res = &g->sm[sm].sm.res;
	c->power = wants & VGPU_POLICY_WANT_POWER ?
		   vgpu_sm_power(&g->sm[sm].sm) : 0;
	c->free = wants & VGPU_POLICY_WANT_FREE ? vgpu_gpu_sm_free(g, sm) : 0;
	c->fit = wants & VGPU_POLICY_WANT_FIT ?
		 vgpu_sm_res_blocks_fit(vgpu_gpu_sm_view(g, sm, &full),
					shape) : 0;
}

/* Where SM @sm is, or would go, in @fs. */
static u32 vgpu_gpu_fit_pos(const struct vgpu_gpu_fitset *fs, u32 sm)
{
	u32 lo = 0, hi = fs->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (fs->cands[mid].sm < sm)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* SM @sm's resources changed: is it in @fs now, with which figures? */
static void vgpu_gpu_fit_update(struct vgpu_gpu *g, struct vgpu_gpu_fitset *fs,
				struct vgpu_gpu_kernel *k,
				const struct vgpu_block_shape *shape, u32 path,
				u32 sm)
{
	u32 i = vgpu_gpu_fit_pos(fs, sm);
	bool in = i < fs->n && fs->cands[i].sm == sm;

	if (!vgpu_gpu_fits(g, k, shape, path, sm)) {
		if (in) {
			fs->n--;
			memmove(&fs->cands[i], &fs->cands[i + 1],
				(fs->n - i) * sizeof(*fs->cands));
		}
		return;
	}
	if (!in) {
		memmove(&fs->cands[i + 1], &fs->cands[i],
			(fs->n - i) * sizeof(*fs->cands));
		fs->n++;
	}
	vgpu_gpu_fit_fill(g, &fs->cands[i], sm, shape);
}

/* Is @fs the set for @k's @shape (same needs, mask and mode)? */
static bool vgpu_gpu_fit_hit(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_fitset *fs,
			     const struct vgpu_gpu_kernel *k,
			     const struct vgpu_block_shape *shape)
{
	u32 w;

	if (!fs->valid || fs->throttle != !!g->p.throttle ||
	    fs->shape.warps != shape->warps ||
	    fs->shape.reg_units != shape->reg_units ||
	    fs->shape.smem_units != shape->smem_units ||
	    fs->shape.barriers != shape->barriers ||
	    fs->shape.sreg_units != shape->sreg_units)
		return false;
	for (w = 0; w < g->top_words; w++)
		if (fs->aff[w] != k->args.affinity[w])
			return false;
	return true;
}

/* The SMs @shape of @k fits by @path, ascending, with their figures. */
static struct vgpu_gpu_fitset *
vgpu_gpu_fit_get(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
		 const struct vgpu_block_shape *shape, u32 path)
{
	u32 idx = path == VGPU_PATH_WARP, i, w, nsms = g->cfg.num_sms;
	struct vgpu_gpu_fitset *fs = &g->fit[idx];
	u8 bit = BIT(idx);
	u64 word;

	if (!vgpu_gpu_fit_hit(g, fs, k, shape)) {
		fs->n = 0;
		for (i = 0; i < nsms; i++) {
			g->fit_dirty[i] &= ~bit;
			if (vgpu_gpu_fits(g, k, shape, path, i))
				vgpu_gpu_fit_fill(g, &fs->cands[fs->n++], i,
						  shape);
		}
		fs->valid = true;
		fs->throttle = !!g->p.throttle;
		fs->shape = *shape;
		memcpy(fs->aff, k->args.affinity, g->top_words * sizeof(u64));
		return fs;
	}
	/* eight SMs a word: the bytes are padded to a multiple of 8 */
	for (w = 0; w < nsms; w += 8) {
		memcpy(&word, &g->fit_dirty[w], sizeof(word));
		if (!(word & (0x0101010101010101ULL * bit)))
			continue;
		for (i = w; i < w + 8 && i < nsms; i++) {
			if (!(g->fit_dirty[i] & bit))
				continue;
			g->fit_dirty[i] &= ~bit;
			vgpu_gpu_fit_update(g, fs, k, shape, path, i);
		}
	}
	return fs;
}

/*
 * The SMs @shape fits by @path, chosen by the policy (F25): a first-fit
 * policy stops at the first SM at or after the round-robin pointer.
 */
static bool vgpu_gpu_scan(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  const struct vgpu_block_shape *shape, u32 path,
			  struct vgpu_gpu_match *m)
{
	u32 i, j, nsms = g->cfg.num_sms;
	struct vgpu_gpu_fitset *fs;

	if (g->policy->first_fit || !g->policy->select_sm) {
		for (j = 0, i = g->rr_next; j < nsms; j++, i++) {
			if (i == nsms)
				i = 0;
			if (path == VGPU_PATH_BLOCK && !k->nsaved) {
				/* allocating is the exact test: keep it */
				if (vgpu_gpu_sm_allowed(g, k, i) &&
				    vgpu_gpu_runs_fit(g, i, shape) &&
				    vgpu_gpu_block_may_go(g, i, shape) &&
				    vgpu_gpu_try_add(g, k, i, m))
					return true;
				continue;
			}
			if (vgpu_gpu_fits(g, k, shape, path, i)) {
				m->sm = i;
				return true;
			}
		}
		return false;
	}
	fs = vgpu_gpu_fit_get(g, k, shape, path);
	if (!fs->n)
		return false;
	/* none of them, for this policy: the block does not fit now */
	m->sm = vgpu_gpu_policy_pick(g, k, shape, fs->cands, fs->n);
	return m->sm != VGPU_POLICY_WAIT;
}

/* F23: find how and where @k's next unit can go.  True if it can. */
static bool vgpu_gpu_match(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   struct vgpu_gpu_match *m)
{
	const struct vgpu_block_shape *shape = vgpu_gpu_next_shape(k);
	bool resume = k->nsaved > 0;

	m->sm = 0;
	m->pre = false;
	m->equal = false;
	/* yielded at this boundary: not back before the next (policy_watch.c) */
	if (unlikely(k->t.yield_hold > g->now))
		return false;
	if (vgpu_gpu_shape_nofit(g, k, shape))
		goto preempt;
	/* (a) whole blocks */
	if (vgpu_gpu_scan(g, k, shape, VGPU_PATH_BLOCK, m)) {
		m->path = resume ? VGPU_PATH_RESUME : VGPU_PATH_BLOCK;
		return true;
	}
	/* (b) at least one warp; never for BAR kernels or resumes */
	if (!k->uses_bar && !resume &&
	    vgpu_gpu_scan(g, k, shape, VGPU_PATH_WARP, m)) {
		m->path = VGPU_PATH_WARP;
		return true;
	}
	vgpu_gpu_note_shape_nofit(g, k, shape);
preempt:
	/* (c) an SM whose highest resident priority is lower */
	if (!vgpu_gpu_path_c_open(g, k, resume))
		return false;
	m->path = VGPU_PATH_PREEMPT;
	return vgpu_gpu_preempt_pick(g, k, shape, m);
}

/*
 * F25: does a decision place one block, its SM chosen for it (seed 002),
 * or min(undispatched, fit) on one SM (seed 000, F23 (a))?  Under
 * VGPU_PACK_AUTO what the policy states (&vgpu_policy_ops.packing: rr
 * and avail the former, resource, power and combined the latter); one
 * that states nothing the default's: one block, or @pack's answer.
 */
static bool vgpu_gpu_per_block(const struct vgpu_gpu *g)
{
	const struct vgpu_policy_ops *pol = g->policy;

	if (g->p.pack != VGPU_PACK_AUTO)
		return g->p.pack == VGPU_PACK_BLOCK;
	if (pol->packing != VGPU_POLICY_PACK_DEFAULT)
		return pol->packing == VGPU_POLICY_PACK_BLOCK;
	return !pol->pack;
}

/**
 * vgpu_gpu_release() - a policy's hold on a kernel ends
 * @g: the device
 * @k: the kernel, held (vgpu_gpu_yield())
 */
void vgpu_gpu_release(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	k->held = false;
	k->t.yield_hold = 0;
	g->nheld--;
}

/* A block of @k was placed: the held kernels it took the place of go. */
static void vgpu_gpu_took_place(struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *v;

	list_for_each_entry(v, &g->kernels, table_node)
		if (v->held && v != k && k->eff_prio <= v->eff_prio)
			vgpu_gpu_release(g, v);
}

/**
 * vgpu_gpu_holds_update() - end the holds nothing took the place of
 * @g: the device, after a boundary's dispatch rounds, some kernels held
 *	(&vgpu_gpu.nheld)
 *
 * A held kernel is released when its next block fits an SM now (the
 * others had their turn and left the room), or when no other arrived
 * kernel of its priority or higher has blocks to place.
 *
 * Return: true if one was released (the rounds go on).
 */
bool vgpu_gpu_holds_update(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *v, *w;
	bool other, any = false;

	list_for_each_entry(v, &g->kernels, table_node) {
		if (!v->held)
			continue;
		other = false;
		list_for_each_entry(w, &g->kernels, table_node) {
			if (w != v && !w->held && w->eff_prio <= v->eff_prio &&
			    vgpu_gpu_arrived(g, w) && vgpu_gpu_undispatched(w)) {
				other = true;
				break;
			}
		}
		if (!other || vgpu_gpu_fits_now(g, v)) {
			vgpu_gpu_release(g, v);
			any = true;
		}
	}
	return any;
}

/*
 * Block @b of @k went to SM @sm: if the SM was assigned another kernel (or
 * none), this is its assignment (seed 002 step 434): TASK_ASSIGN for
 * assign_latency cycles, then STATE_SYNC (step 438) for sync_cost, then
 * ready (step 502).  The engine syncs on the same change and starts the
 * block's warps when both are over: its sync cost is the two together
 * (vgpu_gpu_init()), so its sync_ready is the end of the handshake.
 */
static void vgpu_gpu_assign(struct vgpu_gpu *g, const struct vgpu_gpu_kernel *k,
			    u32 sm, const struct vgpu_sm_block *b)
{
	struct vgpu_gpu_hs *hs = &g->sm[sm].hs;
	const struct vgpu_sm *s = &g->sm[sm].sm;
	u32 old = hs->kernel;

	if (b->kernel->id == old)
		return;
	hs->kernel = b->kernel->id;
	hs->assigned = s->now;
	hs->assigns++;
	if (!s->sync_cost)
		return;		/* ready at once: the cycles stay where they were */
	hs->ready_at = max(s->sync_ready, s->now);
	hs->sync_at = min(s->now + g->p.assign_latency, hs->ready_at);
	if (unlikely(g->p.assign_latency))
		vgpu_gpu_emit(g, g->now, VGPU_GEV_ASSIGN, k, b->block_idx, ~0U,
			      sm, old, (u32)hs->sync_at);
}

/* Record a block that went into slot @slot of SM @sm. */
static void vgpu_gpu_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
				u32 sm, u32 slot, u32 unit, u64 start_at,
				u32 path)
{
	struct vgpu_gpu_shadow *sh = &g->sm[sm].shadow[slot];
	const struct vgpu_sm_block *b = &g->sm[sm].sm.block[slot];

	vgpu_gpu_assign(g, k, sm, b);
	g->sm[sm].shadow_used |= BIT_ULL(slot);
	sh->k = k;
	sh->unit = unit;
	sh->start_at = start_at;
	sh->start_seen = start_at != VGPU_GPU_NO_CYCLE;
	sh->done = false;
	sh->warps = b->n_warps;
	sh->at = g->now;
	vgpu_gpu_charge_start(g, k, g->now, b->n_warps);
	if (unlikely(g->nheld))
		vgpu_gpu_took_place(g, k);
	k->inflight++;
	k->quota_used++;
	g->stats.blocks++;
	if (k->t.dispatch == VGPU_GPU_NO_CYCLE) {
		k->t.dispatch = g->now;
		k->t.skip_dispatch = g->skipped;
	}
	vgpu_gpu_emit(g, g->now, VGPU_GEV_DISPATCH, k, b->block_idx, ~0U, sm,
		      path, b->n_warps);
	if (g->policy->dispatched)
		g->policy->dispatched(g, k, sm);
}

/**
 * vgpu_gpu_forget_nofit() - resources were freed
 * @g: the device
 *
 * Every earlier no-fit may fit now.
 */
void vgpu_gpu_forget_nofit(struct vgpu_gpu *g)
{
	memset(g->failed, 0, sizeof(g->failed));
	g->nnofit = 0;
}

/*
 * A policy preempted kernel @v (on SM @sm): it must be placed again and
 * stay vgpu_policy_min_residency() before a policy may preempt it again.
 */
static void vgpu_gpu_policy_preempted(struct vgpu_gpu *g,
				      struct vgpu_gpu_kernel *v, u32 sm)
{
	v->t.resident = VGPU_GPU_NO_CYCLE;
	g->pstats.preemptions++;
	if (g->policy->preempted)
		g->policy->preempted(g, v, sm, VGPU_POLICY_BY_POLICY);
}

/*
 * Switch the block in @slot of SM @i out into a save record, which must be
 * free (F23 (c) switch mode): for kernel @by (its id in the PREEMPT
 * event), or VGPU_EV_NONE when its own kernel yields (vgpu_gpu_yield()).
 * @pol: a policy asked for it (a yield, or an @preempt answer of equal
 * priority), not a higher priority.
 */
static void vgpu_gpu_save_block(struct vgpu_gpu *g, u32 i, u32 slot, u32 by,
				bool pol)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	struct vgpu_sm *sm = &gs->sm;
	struct vgpu_gpu_shadow *sh = &gs->shadow[slot];
	struct vgpu_gpu_kernel *v = sh->k, *c = sh->wait;
	struct vgpu_gpu_saved *s;

	s = list_first_entry(&g->saved_free, struct vgpu_gpu_saved, node);
	vgpu_gpu_emit(g, g->now, VGPU_GEV_PREEMPT, v,
		      sm->block[slot].block_idx, ~0U, i, by,
		      sm->block[slot].n_warps);
	s->unit = sh->unit;
	s->start_at = sh->start_at;
	vgpu_sm_block_save(sm, slot, &s->s);
	vgpu_gpu_charge_end(g, v, sh->at, g->now, sh->warps);
	memset(sh, 0, sizeof(*sh));
	gs->shadow_used &= ~BIT_ULL(slot);
	list_del(&s->node);
	v->inflight--;
	v->preempted++;
	g->stats.preemptions++;
	if (c) {
		/* it waits for child c: it comes back after it (F15) */
		list_del_init(&c->child.wait_node);
		c->child.wait_sm = ~0U;
		c->child.waiter = s;
		v->child.nsusp++;
	} else {
		list_add_tail(&s->node, &v->saved);
		v->nsaved++;
		vgpu_gpu_requeue(g, v);
	}
	vgpu_gpu_forget_nofit(g);
	if (pol)
		vgpu_gpu_policy_preempted(g, v, i);
	else if (g->policy->preempted)
		g->policy->preempted(g, v, i, VGPU_POLICY_BY_PRIO);
}

/*
 * Switch out blocks of SM @i until @shape fits, in room the device's
 * search mode finds (vgpu_gpu_switch_victims()): of lower priority than
 * @k's, and with @equal of its priority (vgpu_gpu_victim_ok()).  A kernel
 * switched out for an equal priority is not placed again at this
 * boundary: policies cannot swap two kernels in a loop within it.
 */
static void vgpu_gpu_switch_out(struct vgpu_gpu *g, u32 i,
				struct vgpu_gpu_kernel *k,
				const struct vgpu_block_shape *shape, bool equal)
{
	struct vgpu_sm *sm = &g->sm[i].sm;
	struct vgpu_gpu_kernel *v;
	u64 cand = 0, m;
	u32 slot;
	bool pol;

	for (m = sm->used; m; m &= m - 1)
		if (vgpu_gpu_victim_ok(g, i, __ffs64(m), k, equal))
			cand |= BIT_ULL(__ffs64(m));
	while (cand && !(vgpu_sm_res_block_fits(&sm->res, shape) &&
			 vgpu_gpu_res_runs_fit(g, &sm->res, shape)) &&
	       !list_empty(&g->saved_free)) {
		slot = vgpu_gpu_victim(sm, cand);
		cand &= ~BIT_ULL(slot);
		v = g->sm[i].shadow[slot].k;
		pol = sm->block[slot].prio == k->eff_prio;
		if (pol)
			v->t.yield_hold = g->now + 1;
		vgpu_gpu_save_block(g, i, slot, k->args.id, pol);
	}
}

/**
 * vgpu_gpu_yield() - preempt the kernels whose policy asked
 * @g: the device, at a boundary, after the policy's tick
 *
 * A policy asks from its tick with vgpu_policy_preempt_kernel() (or
 * vgpu_policy_yield(), the same), which sets &vgpu_gpu_kernel.yield:
 * timeslicing (examples/policies/timeslice.c), fair share.  What happens
 * to a kernel with blocks on SMs depends on the preemption mode:
 *
 * - switch: each resident block goes into a save record while one is
 *   free, like a preempted block (PREEMPT event by VGPU_EV_NONE), and
 *   resumes when the kernel is chosen again, not at this boundary;
 * - warp: its resident blocks stay, but it is held (no new block of it
 *   is placed), and the SMs holding its blocks are path (c) candidates
 *   for kernels of its priority or higher: their blocks are placed in
 *   warp mode and take its warps' slots as they end (F23 (b), as for a
 *   lower priority);
 * - drain: it is held; its resident blocks run to their end.
 *
 * A hold ends (vgpu_gpu_release()) when a block of another kernel of its
 * priority or higher is placed (it took the held kernel's place), or
 * when the dispatch rounds of a boundary leave room the held kernel's
 * next block fits, or no other kernel of its priority or higher has
 * blocks to place (vgpu_gpu_holds_update()): a hold never leaves an SM
 * idle that the held kernel could use.
 *
 * The flag is cleared.  Once blocks of it are back on SMs it cannot be
 * preempted again by a policy before vgpu_policy_min_residency() cycles,
 * nor before it is back: such a request is refused and counted
 * (policy_watch.c).  A request for a kernel with nothing on an SM is
 * dropped.
 */
void vgpu_gpu_yield(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	u32 i, slot;
	u64 m;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (!k->yield)
			continue;
		k->yield = false;
		if (!k->inflight)
			continue;
		/* back on its SMs for less than the minimum residency */
		if (k->t.resident == VGPU_GPU_NO_CYCLE ||
		    !vgpu_gpu_policy_victim(g, k)) {
			g->pstats.yields_refused++;
			vgpu_gpu_policy_refused(g, VGPU_POLICY_OP_YIELD);
			continue;
		}
		vgpu_gpu_policy_ok(g);
		g->pstats.yields++;
		g->watch.held = true;
		k->t.resident = VGPU_GPU_NO_CYCLE;
		if (g->p.preempt != VGPU_PREEMPT_SWITCH) {
			if (!k->held)
				g->nheld++;
			k->held = true;
			k->t.yield_hold = VGPU_GPU_NO_CYCLE;
			g->pstats.holds++;
			continue;
		}
		k->t.yield_hold = g->now + 1;
		for (i = 0; k->inflight && i < g->cfg.num_sms; i++) {
			for (m = g->sm[i].shadow_used; m; m &= m - 1) {
				slot = __ffs64(m);
				if (g->sm[i].shadow[slot].k != k ||
				    list_empty(&g->saved_free))
					continue;
				vgpu_gpu_save_block(g, i, slot, VGPU_EV_NONE,
						    true);
			}
			vgpu_gpu_top_sync(g, i);
		}
	}
}

/*
 * Blocks of @k went to SM @i in warp mode over blocks of its own priority
 * (a policy's @preempt answer, or the SMs of a kernel it preempted): the
 * other kernels of that priority there were preempted by the policy.
 */
static void vgpu_gpu_warp_victims(struct vgpu_gpu *g, u32 i,
				  const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_sm *sm = &g->sm[i].sm;
	struct vgpu_gpu_kernel *v;
	u64 m;

	for (m = g->sm[i].shadow_used; m; m &= m - 1) {
		v = g->sm[i].shadow[__ffs64(m)].k;
		if (v != k && sm->block[__ffs64(m)].prio == k->eff_prio)
			vgpu_gpu_policy_preempted(g, v, i);
	}
}

/* The slot a block just went into: the bit that became used. */
static u32 vgpu_gpu_new_slot(const struct vgpu_sm *sm, u64 before)
{
	return __ffs64(sm->used & ~before);
}

/* Place the next unit(s) of @k on SM @m->sm.  Return blocks placed. */
static u32 vgpu_gpu_place(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  const struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm = &g->sm[m->sm].sm;
	const struct vgpu_kernel_desc *d;
	struct vgpu_gpu_saved *s;
	u32 bid, wbase, path = m->path, want, n = 0;
	enum vgpu_place_mode mode;
	u64 before;

	if (path == VGPU_PATH_PREEMPT && g->p.preempt == VGPU_PREEMPT_SWITCH) {
		vgpu_gpu_switch_out(g, m->sm, k, vgpu_gpu_next_shape(k),
				    m->equal);
		path = k->nsaved ? VGPU_PATH_RESUME : VGPU_PATH_BLOCK;
	}
	if (path == VGPU_PATH_RESUME) {
		s = list_first_entry(&k->saved, struct vgpu_gpu_saved, node);
		before = sm->used;
		if (vgpu_sm_block_restore(sm, &s->s, g->p.switch_cost))
			return 0;
		list_del(&s->node);
		list_add(&s->node, &g->saved_free);
		k->nsaved--;
		g->stats.resumes++;
		vgpu_gpu_dispatched(g, k, m->sm, vgpu_gpu_new_slot(sm, before),
				    s->unit, s->start_at, VGPU_PATH_RESUME);
		if (g->policy->resumed)
			g->policy->resumed(g, k, m->sm);
		return 1;
	}
	want = k->units - k->next_unit + k->q.ready;
	if (path != VGPU_PATH_BLOCK || (k->args.flags & VGPU_KF_SEQUENTIAL) ||
	    vgpu_gpu_per_block(g))
		want = 1;
	if (k->args.quota && k->args.quota > k->quota_used)
		want = min(want, k->args.quota - k->quota_used);
	if (g->policy->pack && want > 1) {
		n = g->policy->pack(g, k, want);
		if (n && n <= want) {
			want = n;
			vgpu_gpu_policy_ok(g);
		} else {
			vgpu_gpu_policy_err(g, VGPU_POLICY_OP_PACK);
		}
		n = 0;
	}
	mode = path == VGPU_PATH_BLOCK ? VGPU_PLACE_BLOCK : VGPU_PLACE_WARP;
	if (m->pre) {
		if (k->args.flags & VGPU_KF_QUEUE)
			vgpu_gpu_q_launch(g, k, k->next_unit);
		vgpu_gpu_dispatched(g, k, m->sm, m->pre_slot, k->next_unit,
				    VGPU_GPU_NO_CYCLE, m->path);
		k->next_unit++;
		n++;
	}
	while (n < want) {
		d = vgpu_gpu_unit(k, k->next_unit, &bid, &wbase);
		if (n && (mode == VGPU_PLACE_BLOCK ?
			  !vgpu_gpu_block_may_go(g, m->sm, &d->shape) :
			  !vgpu_gpu_may_fit(&sm->res, &d->shape, 1)))
			break;
		before = sm->used;
		if (vgpu_gpu_block_add(sm, d, bid, k, mode))
			break;
		if (k->args.flags & VGPU_KF_QUEUE)
			vgpu_gpu_q_launch(g, k, bid);
		vgpu_gpu_dispatched(g, k, m->sm, vgpu_gpu_new_slot(sm, before),
				    k->next_unit, VGPU_GPU_NO_CYCLE, m->path);
		k->next_unit++;
		n++;
		if (m->path == VGPU_PATH_PREEMPT &&
		    g->p.preempt == VGPU_PREEMPT_WARP)
			g->stats.preemptions++;
	}
	if (unlikely(m->equal) && n && m->path == VGPU_PATH_PREEMPT)
		vgpu_gpu_warp_victims(g, m->sm, k);
	return n;
}

/*
 * Within one dispatch call resources only shrink, except when blocks are
 * switched out: a kernel that failed to match keeps failing, and so does
 * any kernel with the same needs.  Remember both to skip them.
 */
static bool vgpu_gpu_known_nofit(const struct vgpu_gpu *g,
				 const struct vgpu_gpu_kernel *k)
{
	return g->failed[k->slot / 64] & BIT_ULL(k->slot % 64);
}

static void vgpu_gpu_note_nofit(struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k)
{
	g->failed[k->slot / 64] |= BIT_ULL(k->slot % 64);
}

/*
 * The policy's @select_before: is @a offered a decision before @b?  An
 * answer that says so both ways is not used (policy_watch.c).
 */
static inline bool vgpu_gpu_select_first(struct vgpu_gpu *g,
					 const struct vgpu_gpu_kernel *a,
					 const struct vgpu_gpu_kernel *b)
{
	if (!g->policy->select_before(g, a, b))
		return false;
	return likely(!g->watch.order_checks) ||
	       vgpu_policy_order_check(g, VGPU_POLICY_OP_SELECT_BEFORE, a, b);
}

/*
 * The first candidate in the policy's order (@op, a constant of the
 * caller, as vgpu_gpu_next_waiting()), or NULL; the ineligible and the
 * known no-fits join @done_mask.
 */
static __always_inline struct vgpu_gpu_kernel *
vgpu_gpu_best(struct vgpu_gpu *g, bool op, u64 *done_mask)
{
	u32 i, w, nw = DIV_ROUND_UP(g->p.task_slots, 64);
	struct vgpu_gpu_kernel *k, *best = NULL;
	u64 c;

	for (w = 0; w < nw; w++) {
		for (c = g->slot_used[w] & ~done_mask[w]; c; c &= c - 1) {
			i = w * 64 + __ffs64(c);
			k = g->slot[i];
			if (vgpu_gpu_dealloc_pending(g, i))
				continue;
			if (!vgpu_gpu_eligible(g, k) ||
			    vgpu_gpu_known_nofit(g, k)) {
				done_mask[w] |= BIT_ULL(i % 64);
				continue;
			}
			if (!best || (op ? vgpu_gpu_select_first(g, k, best) :
				      vgpu_gpu_before(g, k, best)))
				best = k;
		}
	}
	return best;
}

/* vgpu_gpu_round() with a slot that has no deallocation request. */
static noinline bool vgpu_gpu_round_slots(struct vgpu_gpu *g)
{
	u64 done_mask[VGPU_GPU_MAX_SLOTS / 64] = { 0 };
	struct vgpu_gpu_kernel *k, *best;
	struct vgpu_gpu_match m, best_m;
	bool op = g->policy->select_before;
	u32 n;

	/* Candidates in preference order; the first that matches wins. */
	for (;;) {
		best = op ? vgpu_gpu_best(g, true, done_mask) :
			    vgpu_gpu_best(g, false, done_mask);
		if (!best)
			return false;
		done_mask[best->slot / 64] |= BIT_ULL(best->slot % 64);
		if (vgpu_gpu_match(g, best, &m)) {
			best_m = m;
			break;
		}
		vgpu_gpu_note_nofit(g, best);
	}
	k = best;
	if (k->args.quota && k->quota_used >= k->args.quota)
		k->quota_used = 0;
	n = vgpu_gpu_place(g, k, &best_m);
	vgpu_gpu_top_sync(g, best_m.sm);
	if (!n)
		return false;
	g->stats.decisions++;
	if (unlikely(k->t.resident == VGPU_GPU_NO_CYCLE))
		k->t.resident = g->now;
	g->rr_next = best_m.sm + 1 < g->cfg.num_sms ? best_m.sm + 1 : 0;
	vgpu_gpu_chosen(g, k);
	if (!vgpu_gpu_undispatched(k) && !vgpu_gpu_q_open(k)) {
		/* F13: the slot gets a deallocation request */
		k->state = VGPU_KS_DRAINING;
		if (!list_empty(&k->chan_node))
			list_del_init(&k->chan_node);
		vgpu_gpu_dealloc_set(g, k->slot, true);
	}
	return true;
}

/**
 * vgpu_gpu_round() - one dispatch round
 * @g: the device
 *
 * The best matching candidate gets one decision.  A kernel whose slot has
 * a deallocation request is never one (vgpu_gpu_best()): with no other in
 * the table, as after the last block of the only kernel went out, the
 * round ends before looking at any.
 *
 * Return: true if it placed blocks.
 */
bool vgpu_gpu_round(struct vgpu_gpu *g)
{
	u32 w, nw = DIV_ROUND_UP(g->p.task_slots, 64);
	u64 live = 0;

	for (w = 0; w < nw; w++)
		live |= g->slot_used[w] & ~g->slot_dealloc[w];
	return live && vgpu_gpu_round_slots(g);
}

/**
 * vgpu_gpu_fits_now() - could a kernel outside the task table match now?
 * @g: the device
 * @k: a waiting kernel
 *
 * Return: true if it passes the F26 gates and its next unit fits some SM
 * it may use by F23 path (a), or (b) when it may take that path.
 */
bool vgpu_gpu_fits_now(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	const struct vgpu_block_shape *shape = vgpu_gpu_next_shape(k);
	bool warp = !k->uses_bar && !k->nsaved;
	u32 i;

	if (!vgpu_gpu_eligible(g, k))
		return false;
	for (i = 0; i < g->cfg.num_sms; i++)
		if (vgpu_gpu_fits(g, k, shape, VGPU_PATH_BLOCK, i) ||
		    (warp && vgpu_gpu_fits(g, k, shape, VGPU_PATH_WARP, i)))
			return true;
	return false;
}

/**
 * vgpu_gpu_splittable() - may a kernel be split? (F24)
 * @g: the device
 * @k: a kernel of the table
 *
 * Seed 001 [0089]: the kernels split are among the waiting task groups of
 * the channels, one per channel: its head (a kernel behind it would still
 * wait for the head once split).
 *
 * Return: true if @k is independent, not a queue kernel, not split,
 * unfinished, arrived, with blocks left, and the head of its channel; a
 * functional kernel only without shared memory (a unit's share of it
 * would not hold the data the block's warps share).
 */
bool vgpu_gpu_splittable(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k)
{
	/* a queue kernel's blocks do not exist before they launch */
	return (k->args.flags & VGPU_KF_INDEPENDENT) && !k->split &&
	       !(k->args.flags & VGPU_KF_QUEUE) && !vgpu_gpu_kernel_finished(k) &&
	       !(k->desc.sum.uses_functional && k->desc.smem_bytes) &&
	       k->state != VGPU_KS_NEW && vgpu_gpu_arrived(g, k) &&
	       k->next_unit < k->units && !k->child.parent &&
	       list_first_entry(&g->chan[k->args.channel].fifo,
				struct vgpu_gpu_kernel, chan_node) == k;
}

/**
 * vgpu_gpu_split() - split a waiting independent kernel (F24)
 * @g: the device
 *
 * F24: split the first waiting independent kernel into single-warp
 * sub-blocks at the lowest priority; each takes its share of the block's
 * shared memory (independent warps share nothing).
 */
void vgpu_gpu_split(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *best = NULL;
	struct vgpu_kernel_desc *d;
	u32 left;

	if (g->policy->split) {
		best = g->policy->split(g);
		/* it must be a kernel of this device's table */
		if (best) {
			list_for_each_entry(k, &g->kernels, table_node)
				if (k == best)
					break;
			if (&k->table_node == &g->kernels ||
			    !vgpu_gpu_splittable(g, best)) {
				vgpu_gpu_policy_err(g, VGPU_POLICY_OP_SPLIT);
				best = vgpu_gpu_split_pick(g);
			} else {
				vgpu_gpu_policy_ok(g);
			}
		}
	} else {
		best = vgpu_gpu_split_pick(g);
	}
	if (!best)
		return;
	d = &best->split_desc;
	*d = best->desc;
	d->grid = best->args.grid * best->warps;
	d->threads = min(best->args.threads, g->cfg.warp_size);
	d->smem_bytes = DIV_ROUND_UP(best->args.smem, best->warps);
	d->prio = g->cfg.num_prios - 1;
	d->warp_prio = NULL;	/* one warp each, at the lowest level */
	d->orig = &best->desc;	/* a unit computes as its warp (fn.h) */
	if (vgpu_kernel_desc_shape(d, &g->cfg, 0))
		return;
	left = best->args.grid - best->next_unit;
	best->split = true;
	best->split_from = best->next_unit;
	best->units = best->next_unit + left * best->warps;
	best->eff_prio = g->cfg.num_prios - 1;
	g->stats.splits++;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SPLIT, best, best->split_from, ~0U,
		      ~0U, left, best->eff_prio);
}
