// SPDX-License-Identifier: GPL-2.0
/*
 * Per-SM resource state: block and warp allocation (F02, F23, F25,
 * F31-F33).
 *
 * Placement policy: a block's warps go round-robin over the sub-partitions
 * starting at the SM's split pointer, which yields exactly the rotated split
 * table of F31 (w / Q each, w mod Q of them one more, starting at the
 * pointer).  The pointer then advances by w mod Q, so over successive
 * blocks warp i of the whole stream lands on sub-partition i mod Q and the
 * loads never differ by more than one.  Each warp's registers are one
 * first-fit run in its sub-partition, the block's shared memory plus the
 * reserve one first-fit run in the SM (F32).  First fit keeps equal-sized
 * allocations packed, which is what makes placement agree with the closed
 * occupancy formula (userspace/core/occupancy.c).
 */
#include "vgpu_os.h"
#include "resource.h"

/**
 * vgpu_block_shape_init() - compute a block's needs in allocation units
 * @shape: result
 * @cfg: device configuration
 * @threads: threads per block (>= 1)
 * @regs_per_thread: registers per thread
 * @smem_bytes: static + dynamic shared memory per block in bytes
 * @barriers: hardware barriers the block needs
 * @limit: if not NULL, set to the VGPU_LIMIT_* mask of per-block limits the
 *	block breaks (0 if none)
 *
 * Registers per warp are roundup(regs_per_thread * warp_size, reg_unit);
 * shared memory is roundup(smem_bytes + smem_reserve, smem_unit) (F03).
 *
 * Return: 0; -EINVAL for 0 threads; -E2BIG if the block can never run:
 * more threads than max_threads_per_block, more than 255 registers per
 * thread, more shared memory than smem_max_per_block or more barriers
 * than the SM has.
 */
int vgpu_block_shape_init(struct vgpu_block_shape *shape,
			  const struct vgpu_config *cfg, u32 threads,
			  u32 regs_per_thread, u32 smem_bytes, u32 barriers,
			  u32 *limit)
{
	u32 why = 0;

	if (limit)
		*limit = 0;
	if (!threads)
		return -EINVAL;
	if (threads > cfg->max_threads_per_block)
		why |= VGPU_LIMIT_WARPS;
	if (regs_per_thread > VGPU_MAX_REGS_PER_THREAD)
		why |= VGPU_LIMIT_REGS;
	if (smem_bytes > cfg->smem_max_per_block)
		why |= VGPU_LIMIT_SMEM;
	if (barriers > cfg->max_barriers_per_sm)
		why |= VGPU_LIMIT_BARRIERS;
	if (limit)
		*limit = why;
	if (why)
		return -E2BIG;
	shape->warps = DIV_ROUND_UP(threads, cfg->warp_size);
	shape->reg_units = DIV_ROUND_UP(regs_per_thread * cfg->warp_size,
					cfg->reg_unit);
	shape->smem_units = DIV_ROUND_UP(smem_bytes + cfg->smem_reserve,
					 cfg->smem_unit);
	shape->barriers = barriers;
	shape->sreg_units = 0;
	return 0;
}

/**
 * vgpu_block_shape_set_sregs() - a block's scalar registers per warp
 * @shape: the block's needs (vgpu_block_shape_init())
 * @cfg: the configuration
 * @sregs: scalar registers each warp needs, one contiguous run in the
 *	scalar file of its sub-partition (seed 001 [0042]); 0 for none
 *
 * Return: 0, or -E2BIG if the configuration has no scalar file or a warp's
 * run is larger than a sub-partition's file.
 */
int vgpu_block_shape_set_sregs(struct vgpu_block_shape *shape,
			       const struct vgpu_config *cfg, u32 sregs)
{
	shape->sreg_units = 0;
	if (!sregs)
		return 0;
	if (!cfg->sregs_per_subpart || sregs > cfg->sregs_per_subpart)
		return -E2BIG;
	shape->sreg_units = DIV_ROUND_UP(sregs, cfg->sreg_unit);
	return 0;
}

/**
 * vgpu_split_counts() - the rotated split table of F31
 * @warps: warps of the block (w)
 * @subparts: sub-partitions (Q)
 * @ptr: the SM's split pointer
 * @counts: out: warps per sub-partition, @subparts entries
 *
 * Every sub-partition gets w / Q warps; the w mod Q sub-partitions starting
 * at @ptr (cyclically) get one more.
 */
void vgpu_split_counts(u32 warps, u32 subparts, u32 ptr, u32 *counts)
{
	u32 i;

	for (i = 0; i < subparts; i++)
		counts[i] = warps / subparts +
			((i + subparts - ptr % subparts) % subparts <
			 warps % subparts);
}

/**
 * vgpu_sm_res_init() - an SM with every resource free
 * @sm: state to initialise
 * @cfg: a validated device configuration
 */
void vgpu_sm_res_init(struct vgpu_sm_res *sm, const struct vgpu_config *cfg)
{
	u32 p;

	memset(sm, 0, sizeof(*sm));
	sm->subparts = cfg->subparts;
	sm->reg_units = vgpu_config_reg_units(cfg);
	sm->smem_units = vgpu_config_smem_units(cfg);
	sm->warps_per_subpart = cfg->warps_per_subpart;
	sm->max_warps = cfg->max_warps_per_sm;
	sm->max_blocks = cfg->max_blocks_per_sm;
	sm->max_barriers = cfg->max_barriers_per_sm;
	sm->sreg_units = vgpu_config_sreg_units(cfg);
	for (p = 0; p < sm->subparts; p++) {
		vgpu_bmap_fill(sm->regs[p], sm->reg_units);
		if (sm->sreg_units)
			vgpu_bmap_fill(sm->sregs[p], sm->sreg_units);
	}
	vgpu_bmap_fill(sm->smem, sm->smem_units);
	sm->reg_free = sm->subparts * sm->reg_units;
	sm->sreg_free = sm->subparts * sm->sreg_units;
	sm->smem_free = sm->smem_units;
}

/**
 * vgpu_sm_res_fini() - tear down SM resource state
 * @sm: state; nothing is held outside it, so this only poisons counters
 */
void vgpu_sm_res_fini(struct vgpu_sm_res *sm)
{
	sm->max_blocks = 0;
	sm->max_warps = 0;
}

/* The resources changed: tell whoever keeps a view of them. */
static void vgpu_sm_res_touch(struct vgpu_sm_res *sm)
{
	if (sm->dirty)
		*sm->dirty = 0xff;
}

/**
 * vgpu_sm_res_set_smem() - give an empty SM a shared memory share (F26)
 * @sm: the SM, holding no block
 * @units: shared memory units, 1..VGPU_MAX_SMEM_UNITS
 *
 * Throttle mode (seed 002 step 452): the SM gets a part of the device's
 * shared memory of this size; the configuration's size comes back the
 * same way.
 *
 * Return: 0, -EBUSY if a block holds resources, -EINVAL for @units.
 */
int vgpu_sm_res_set_smem(struct vgpu_sm_res *sm, u32 units)
{
	if (!units || units > VGPU_MAX_SMEM_UNITS)
		return -EINVAL;
	if (sm->blocks_used || sm->smem_free != sm->smem_units)
		return -EBUSY;
	memset(sm->smem, 0, sizeof(sm->smem));
	vgpu_bmap_fill(sm->smem, units);
	sm->smem_units = units;
	sm->smem_free = units;
	vgpu_sm_res_touch(sm);
	return 0;
}

/*
 * Block-level counted resources and the shared memory run: the first-fit
 * start of the run, or -ENOSPC.
 */
static int vgpu_sm_res_block_level(const struct vgpu_sm_res *sm,
				   const struct vgpu_block_shape *shape)
{
	if (sm->blocks_used >= sm->max_blocks ||
	    shape->barriers > sm->max_barriers - sm->barriers_used ||
	    shape->warps > VGPU_MAX_BLOCK_WARPS)
		return -ENOSPC;
	/* only blocks hold shared memory: with none the map is whole */
	if (!sm->blocks_used)
		return shape->smem_units <= sm->smem_units ? 0 : -ENOSPC;
	return vgpu_bmap_find_run(sm->smem, sm->smem_units, shape->smem_units);
}

/* Block-level counted resources and the shared memory run: fit? */
static bool vgpu_sm_res_block_level_fits(const struct vgpu_sm_res *sm,
					 const struct vgpu_block_shape *shape)
{
	return vgpu_sm_res_block_level(sm, shape) >= 0;
}

/* Put warp @idx of @place in sub-partition @p, or -ENOSPC. */
static int vgpu_sm_res_warp_in(struct vgpu_sm_res *sm,
			       struct vgpu_block_place *place, u32 idx, u32 p)
{
	u32 len = place->shape.reg_units, slen = place->shape.sreg_units;
	int start, sstart = 0;

	if (sm->warps_used[p] >= sm->warps_per_subpart ||
	    sm->warps_total >= sm->max_warps)
		return -ENOSPC;
	start = vgpu_bmap_find_run(sm->regs[p], sm->reg_units, len);
	if (start < 0)
		return -ENOSPC;
	if (slen) {	/* its scalar run, in the same sub-partition */
		sstart = vgpu_bmap_find_run(sm->sregs[p], sm->sreg_units, slen);
		if (sstart < 0)
			return -ENOSPC;
		vgpu_bmap_clear_range(sm->sregs[p], sstart, slen);
		sm->sreg_free -= slen;
	}
	vgpu_bmap_clear_range(sm->regs[p], start, len);
	vgpu_sm_res_touch(sm);
	sm->reg_free -= len;
	sm->warps_used[p]++;
	sm->warps_total++;
	place->warp[idx].subpart = p;
	place->warp[idx].reg_start = start;
	place->warp[idx].sreg_start = sstart;
	place->warp[idx].held = 1;
	place->warps_held++;
	return 0;
}

/*
 * Put warps @first, @first + Q, ... (@n of them, Q = subparts) of @place in
 * sub-partition @p, each with a first-fit register run taken in warp order,
 * or -ENOSPC (the warps placed so far stay held).  When the first fit
 * starts a free stretch long enough for all @n runs, first fit would put
 * them back to back there: one search and one range clear do it.  The
 * caller, vgpu_sm_res_alloc_block(), has checked the warp slots of @p and
 * of the SM for all of the block's warps and taken the block (which told
 * the SM's view the resources changed).
 */
static int vgpu_sm_res_warps_in(struct vgpu_sm_res *sm,
				struct vgpu_block_place *place, u32 first,
				u32 p, u32 n)
{
	u32 len = place->shape.reg_units, end = 0, i, j;
	int start = 0;

	if (!n)
		return 0;
	if (len && !sm->warps_used[p]) {
		/*
		 * Only warps hold registers: with none in @p its map is
		 * whole, and first fit starts at 0 a stretch of all of it.
		 */
		if (len > sm->reg_units)
			return -ENOSPC;
		end = min(n * len, sm->reg_units);
	} else if (len) {
		start = vgpu_bmap_first_run(sm->regs[p], sm->reg_units, len,
					    n * len, &end);
		if (start < 0)
			return -ENOSPC;
	}
	/* scalar runs too: warp by warp */
	if ((len && end - start < n * len) || place->shape.sreg_units) {
		for (j = 0, i = first; j < n; j++, i += sm->subparts)
			if (vgpu_sm_res_warp_in(sm, place, i, p))
				return -ENOSPC;
		return 0;
	}
	vgpu_bmap_clear_range(sm->regs[p], start, n * len);
	sm->reg_free -= n * len;
	sm->warps_used[p] += n;
	sm->warps_total += n;
	place->warps_held += n;
	for (j = 0, i = first; j < n; j++, i += sm->subparts) {
		place->warp[i].subpart = p;
		place->warp[i].reg_start = start + j * len;
		place->warp[i].sreg_start = 0;
		place->warp[i].held = 1;
	}
	return 0;
}

/**
 * vgpu_sm_res_take_block() - take the block-level resources of a block
 * @sm: the SM
 * @shape: the block's needs
 * @place: out: placement record, no warp placed yet
 *
 * Takes a block slot, the block's barriers and its shared memory run, and
 * advances the split pointer by warps mod subparts (F31: only the SM that
 * takes the block advances).  The warps are then started one by one with
 * vgpu_sm_res_alloc_warp() as resources allow (F23 path b).
 *
 * Return: 0, or -ENOSPC with nothing changed.
 */
int vgpu_sm_res_take_block(struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape,
			   struct vgpu_block_place *place)
{
	int start;

	start = vgpu_sm_res_block_level(sm, shape);
	if (start < 0)
		return -ENOSPC;
	vgpu_bmap_clear_range(sm->smem, start, shape->smem_units);
	vgpu_sm_res_touch(sm);
	sm->smem_free -= shape->smem_units;
	sm->blocks_used++;
	sm->barriers_used += shape->barriers;
	place->shape = *shape;
	place->smem_start = start;
	place->base_subpart = sm->split_ptr;
	place->block_held = true;
	place->warps_held = 0;
	memset(place->warp, 0, shape->warps * sizeof(place->warp[0]));
	/* the pointer stays below subparts: no second division */
	sm->split_ptr += shape->warps % sm->subparts;
	if (sm->split_ptr >= sm->subparts)
		sm->split_ptr -= sm->subparts;
	return 0;
}

/**
 * vgpu_sm_res_alloc_block() - allocate a whole block, all or nothing
 * @sm: the SM
 * @shape: the block's needs
 * @place: out: placement record (undefined on failure)
 *
 * Balanced placement with the rotated split table (F31): warp i goes to
 * sub-partition (split pointer + i) mod Q; its registers are one
 * contiguous run there (F32); the shared memory plus reserve is one run.
 * On success the split pointer advances by warps mod Q.
 *
 * Return: 0, or -ENOSPC and the SM state is exactly as before.
 */
int vgpu_sm_res_alloc_block(struct vgpu_sm_res *sm,
			    const struct vgpu_block_shape *shape,
			    struct vgpu_block_place *place)
{
	u32 q = shape->warps / sm->subparts, r = shape->warps % sm->subparts;
	u32 p, i, n;

	if (shape->warps > sm->max_warps - sm->warps_total ||
	    shape->warps > VGPU_MAX_BLOCK_WARPS)
		return -ENOSPC;
	/*
	 * The split table (vgpu_split_counts()) without divisions: the i-th
	 * sub-partition from the pointer (always < subparts) gets q warps,
	 * one more if i < r.
	 */
	for (i = 0, p = sm->split_ptr; i < sm->subparts; i++) {
		n = i < r ? q + 1 : q;
		if (n > sm->warps_per_subpart - sm->warps_used[p])
			return -ENOSPC;
		if (++p == sm->subparts)
			p = 0;
	}
	if (vgpu_sm_res_take_block(sm, shape, place))
		return -ENOSPC;
	for (i = 0, p = place->base_subpart;
	     i < sm->subparts && i < shape->warps; i++) {
		n = i < r ? q + 1 : q;
		if (vgpu_sm_res_warps_in(sm, place, i, p, n))
			goto rollback;
		if (++p == sm->subparts)
			p = 0;
	}
	return 0;

rollback:
	vgpu_sm_res_free_block(sm, place);
	sm->split_ptr = place->base_subpart;
	return -ENOSPC;
}

/**
 * vgpu_sm_res_alloc_warp() - start one more warp of a taken block
 * @sm: the SM
 * @place: placement record from vgpu_sm_res_take_block()
 * @idx: warp index in the block, not currently held
 *
 * Tries the warp's split-table sub-partition first, then the others in
 * order (F23 path b, F30).
 *
 * Return: 0, -ENOSPC if no sub-partition has a warp slot and a register
 * run, -EINVAL if @idx is out of range, already held or the block is not
 * held.
 */
int vgpu_sm_res_alloc_warp(struct vgpu_sm_res *sm,
			   struct vgpu_block_place *place, u32 idx)
{
	u32 k, p;

	if (!place->block_held || idx >= place->shape.warps ||
	    place->warp[idx].held)
		return -EINVAL;
	for (k = 0; k < sm->subparts; k++) {
		p = (place->base_subpart + idx + k) % sm->subparts;
		if (!vgpu_sm_res_warp_in(sm, place, idx, p))
			return 0;
	}
	return -ENOSPC;
}

/**
 * vgpu_sm_res_free_warp() - release a warp's slot and registers (F33)
 * @sm: the SM
 * @place: the block's placement record
 * @idx: warp index; a no-op if that warp holds nothing
 */
void vgpu_sm_res_free_warp(struct vgpu_sm_res *sm,
			   struct vgpu_block_place *place, u32 idx)
{
	struct vgpu_warp_place *w;

	if (idx >= place->shape.warps || !place->warp[idx].held)
		return;
	w = &place->warp[idx];
	vgpu_sm_res_touch(sm);
	vgpu_bmap_set_range(sm->regs[w->subpart], w->reg_start,
			    place->shape.reg_units);
	sm->reg_free += place->shape.reg_units;
	if (place->shape.sreg_units) {
		vgpu_bmap_set_range(sm->sregs[w->subpart], w->sreg_start,
				    place->shape.sreg_units);
		sm->sreg_free += place->shape.sreg_units;
	}
	sm->warps_used[w->subpart]--;
	sm->warps_total--;
	w->held = 0;
	place->warps_held--;
}

/**
 * vgpu_sm_res_free_block() - release everything a block still holds (F33)
 * @sm: the SM
 * @place: the block's placement record
 *
 * Frees the warps still held, then the shared memory run, the block slot
 * and the barriers.  Freeing restores the bitmaps exactly.
 */
void vgpu_sm_res_free_block(struct vgpu_sm_res *sm,
			    struct vgpu_block_place *place)
{
	u32 i;

	for (i = 0; i < place->shape.warps && place->warps_held; i++)
		vgpu_sm_res_free_warp(sm, place, i);
	if (!place->block_held)
		return;
	vgpu_sm_res_touch(sm);
	vgpu_bmap_set_range(sm->smem, place->smem_start,
			    place->shape.smem_units);
	sm->smem_free += place->shape.smem_units;
	sm->blocks_used--;
	sm->barriers_used -= place->shape.barriers;
	place->block_held = false;
}

/*
 * How many of @want runs of @len units first fit can carve out of a
 * register map (counted from its free stretches, the map is untouched).
 */
static u32 vgpu_sm_res_reg_runs(const struct vgpu_sm_res *sm, u32 p, u32 len,
				u32 want)
{
	return vgpu_bmap_count_runs(sm->regs[p], sm->reg_units, len, want);
}

/**
 * vgpu_sm_res_why_not() - which resources lack room for one more block
 * @sm: the SM
 * @shape: the block's needs
 *
 * Each resource is checked on its own against the placement
 * vgpu_sm_res_alloc_block() would use now.
 *
 * Return: VGPU_LIMIT_* mask, 0 if the block fits.
 */
u32 vgpu_sm_res_why_not(const struct vgpu_sm_res *sm,
			const struct vgpu_block_shape *shape)
{
	u32 counts[VGPU_MAX_SUBPARTS], why = 0, p;

	if (sm->blocks_used >= sm->max_blocks)
		why |= VGPU_LIMIT_BLOCKS;
	if (shape->barriers > sm->max_barriers - sm->barriers_used)
		why |= VGPU_LIMIT_BARRIERS;
	if (vgpu_bmap_find_run(sm->smem, sm->smem_units,
			       shape->smem_units) < 0)
		why |= VGPU_LIMIT_SMEM;
	if (shape->warps > sm->max_warps - sm->warps_total ||
	    shape->warps > VGPU_MAX_BLOCK_WARPS)
		why |= VGPU_LIMIT_WARPS;
	vgpu_split_counts(shape->warps, sm->subparts, sm->split_ptr, counts);
	for (p = 0; p < sm->subparts; p++) {
		if (counts[p] > sm->warps_per_subpart - sm->warps_used[p])
			why |= VGPU_LIMIT_WARPS;
		if (vgpu_sm_res_reg_runs(sm, p, shape->reg_units,
					 counts[p]) < counts[p])
			why |= VGPU_LIMIT_REGS;
		if (shape->sreg_units &&
		    vgpu_bmap_count_runs(sm->sregs[p], sm->sreg_units,
					 shape->sreg_units, counts[p]) <
		    counts[p])
			why |= VGPU_LIMIT_SREGS;
	}
	return why;
}

/**
 * vgpu_sm_res_block_fits() - would vgpu_sm_res_alloc_block() succeed now?
 * @sm: the SM
 * @shape: the block's needs
 *
 * Return: true if a whole block fits (F23 path a).
 */
bool vgpu_sm_res_block_fits(const struct vgpu_sm_res *sm,
			    const struct vgpu_block_shape *shape)
{
	return !vgpu_sm_res_why_not(sm, shape);
}

/**
 * vgpu_block_fits_empty() - would a block fit an SM with nothing on it?
 * @cfg: a validated device configuration
 * @shape: the block's needs
 *
 * What vgpu_sm_res_block_fits() answers for an SM fresh from
 * vgpu_sm_res_init(), from the configuration's sizes: on a map with every
 * unit free, first fit finds a run of L units if L is at most the map's
 * size and carves size / L of them (vgpu_bmap_find_run(),
 * vgpu_bmap_count_runs()), and an empty SM splits a block's warps from
 * sub-partition 0.  Every kernel's check asks this (F60: SUBMIT).
 *
 * Return: true if a whole block fits an empty SM.
 */
bool vgpu_block_fits_empty(const struct vgpu_config *cfg,
			   const struct vgpu_block_shape *shape)
{
	u32 c;

	if (!cfg->max_blocks_per_sm ||
	    shape->barriers > cfg->max_barriers_per_sm ||
	    shape->smem_units > vgpu_config_smem_units(cfg) ||
	    shape->warps > cfg->max_warps_per_sm ||
	    shape->warps > VGPU_MAX_BLOCK_WARPS)
		return false;
	/*
	 * Every test below fails on a sub-partition's count only when it
	 * fails on the largest: the split table's first, w / Q rounded up.
	 */
	c = DIV_ROUND_UP(shape->warps, cfg->subparts);
	return c <= cfg->warps_per_subpart &&
	       (!shape->reg_units ||
		vgpu_config_reg_units(cfg) / shape->reg_units >= c) &&
	       (!shape->sreg_units ||
		vgpu_config_sreg_units(cfg) / shape->sreg_units >= c);
}

/**
 * vgpu_sm_res_warp_fits() - could a block be taken with at least one warp?
 * @sm: the SM
 * @shape: the block's needs
 *
 * F23 path b: the block-level resources (slot, barriers, shared memory)
 * fit and some sub-partition has a free warp slot and a register run of
 * the warp's size.
 *
 * Return: true if so.
 */
bool vgpu_sm_res_warp_fits(const struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape)
{
	u32 p;

	if (!vgpu_sm_res_block_level_fits(sm, shape) ||
	    sm->warps_total >= sm->max_warps)
		return false;
	for (p = 0; p < sm->subparts; p++)
		if (sm->warps_used[p] < sm->warps_per_subpart &&
		    vgpu_sm_res_reg_runs(sm, p, shape->reg_units, 1) &&
		    (!shape->sreg_units ||
		     vgpu_bmap_find_run(sm->sregs[p], sm->sreg_units,
					shape->sreg_units) >= 0))
			return true;
	return false;
}

/**
 * vgpu_sm_res_blocks_fit() - availability: how many more blocks fit (F25)
 * @sm: the SM
 * @shape: the block's needs
 *
 * Places blocks one after another on a copy of the SM until one fails, at
 * most as many as the counters leave room for (each block takes a slot,
 * its warps, their registers and its barriers); when that bound is 0 or 1
 * the answer needs no copy.
 *
 * Return: the number of further whole blocks of @shape that fit.
 */
u32 vgpu_sm_res_blocks_fit(const struct vgpu_sm_res *sm,
			   const struct vgpu_block_shape *shape)
{
	u32 bound = sm->max_blocks - sm->blocks_used, n = 0;
	struct vgpu_block_place place;
	struct vgpu_sm_res tmp;

	if (shape->warps)
		bound = min(bound, (sm->max_warps - sm->warps_total) /
				   shape->warps);
	if (shape->warps && shape->reg_units)
		bound = min(bound, sm->reg_free /
				   (shape->warps * shape->reg_units));
	if (shape->warps && shape->sreg_units)
		bound = min(bound, sm->sreg_free /
				   (shape->warps * shape->sreg_units));
	if (shape->barriers)
		bound = min(bound, (sm->max_barriers - sm->barriers_used) /
				   shape->barriers);
	if (bound <= 1)
		return bound && vgpu_sm_res_block_fits(sm, shape);
	tmp = *sm;
	tmp.dirty = NULL;
	while (n < bound && !vgpu_sm_res_alloc_block(&tmp, shape, &place))
		n++;
	return n;
}
