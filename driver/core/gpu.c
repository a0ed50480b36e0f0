// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller (F10-F13, F20-F27, F51).
 *
 * At each epoch boundary vgpu_gpu_dispatch() collects the SMs' events and
 * completions, admits arrived kernels into the task table (F13, evicting a
 * lower-priority occupant when full), then runs dispatch rounds: every
 * eligible task-table kernel (F26 gates) is matched against every SM
 * (F20); the best candidate by rotating-window rank (F22), then the F21
 * "selected" flags, then launch quota, then age, gets one decision: blocks
 * on one SM by path (a), (b) or (c) of F23, the SM picked by the device's
 * policy (F25, F27).  Rounds repeat until nothing matches; a boundary that
 * matched nothing while work was waiting is a failed round (F24).
 *
 * This file: the device (parameters, memory layout, set-up), the
 * controller's events and trace hash, the small public API and the epoch
 * boundary itself.  The mechanisms have files of their own: table.c
 * (kernels and the task table, F10-F13, F16), queue.c (queue kernels,
 * F14), child.c (child kernels, F15), place.c (matching, placement,
 * preemption and splitting, F20, F23-F26) and collect.c (the SMs' events
 * at the boundary).  The seeds' default decisions, which the ops of
 * &struct vgpu_policy_ops replace, are in policy_default.c.  What these
 * files share is in gpu_internal.h.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"
#include "check.h"

/**
 * vgpu_gpu_params_default() - default scheduling parameters
 * @p: result
 * @cfg: the device configuration
 *
 * Policy "rr", warp preemption, 64-cycle epochs, g_max 256 (F24), 32 task
 * slots, 64 channels, num_prios windows of decreasing length 4096, 2048,
 * ... cycles (F22), switch cost 64 cycles, the engine's default timing
 * (power window nx 1024 cycles) with calibrated power weights, and
 * resource weights calibrated from equal resource energies; "combined"
 * half and half; seed VGPU_GPU_DEFAULT_SEED.
 */
void vgpu_gpu_params_default(struct vgpu_gpu_params *p,
			     const struct vgpu_config *cfg)
{
	u32 i;

	memset(p, 0, sizeof(*p));
	memcpy(p->policy, "rr", 3);
	p->preempt = VGPU_PREEMPT_WARP;
	p->epoch = 64;
	p->g_max = 256;
	p->task_slots = 32;
	p->max_channels = 64;
	p->num_windows = min_t(u32, cfg->num_prios, VGPU_GPU_MAX_WINDOWS);
	for (i = 0; i < p->num_windows; i++)
		p->window[i] = 4096 >> i;
	p->switch_cost = 64;
	p->throttle_sms = max_t(u32, cfg->num_sms / 4, 1);
	p->save_slots = cfg->num_sms;
	vgpu_isa_timing_default(&p->timing);
	p->calibrate = 1;
	for (i = 0; i < ARRAY_SIZE(p->res_energy); i++)
		p->res_energy[i] = 1;
	p->combo = 50;
	p->seed = VGPU_GPU_DEFAULT_SEED;
}

/*
 * a_h (F25): as given, or calibrated from the resource energies on SM 0
 * (before it is set up), or the energies themselves; then the figures the
 * "combined" policy scales by.
 */
static int vgpu_gpu_res_weights(struct vgpu_gpu *g, struct vgpu_warp *warp)
{
	struct vgpu_gpu_params *p = &g->p;
	struct vgpu_gpu_sm *gs = &g->sm[0];
	u32 i, wmax = 1, given = 0;
	int ret;

	for (i = 0; i < VGPU_RES_NUM; i++)
		given |= p->res_weight[i];
	if (!given && p->calibrate) {
		vgpu_worker_pool_init(&gs->pool, warp, g->cfg.max_warps_per_sm);
		ret = vgpu_power_calibrate_res(&gs->sm, &gs->pool, &g->cfg,
					       &p->timing, p->res_energy,
					       p->res_weight);
		if (ret)
			return ret;
	} else if (!given) {
		memcpy(p->res_weight, p->res_energy, sizeof(p->res_weight));
	}
	g->free_max = (u64)g->cfg.subparts * vgpu_config_reg_units(&g->cfg) *
		      p->res_weight[VGPU_RES_REGS] +
		      (u64)g->cfg.max_warps_per_sm * p->res_weight[VGPU_RES_WARPS] +
		      (u64)vgpu_config_smem_units(&g->cfg) *
		      p->res_weight[VGPU_RES_SMEM] +
		      (u64)g->cfg.max_blocks_per_sm * p->res_weight[VGPU_RES_BLOCKS];
	for (i = 0; i < VGPU_ISA_NUM_CLASSES; i++)
		wmax = max(wmax, p->timing.weight[i]);
	g->power_max = (u64)g->cfg.subparts * p->timing.window * wmax;
	g->free_max = max_t(u64, g->free_max, 1);
	return 0;
}

/*
 * May the grouped search use groups of @group units?  Seed 001 [0127]: the
 * group divides every map the search runs over, the register map of a
 * sub-partition, the shared memory map of an SM and the scalar register
 * map of a sub-partition if the device has one; a tail that fills no whole
 * group would never be found free.
 */
static bool vgpu_gpu_group_divides(const struct vgpu_config *cfg, u32 group)
{
	return group && !(vgpu_config_reg_units(cfg) % group) &&
	       !(vgpu_config_smem_units(cfg) % group) &&
	       !(vgpu_config_sreg_units(cfg) % group);
}

/**
 * vgpu_gpu_params_validate() - check parameters against a configuration
 * @p: parameters
 * @cfg: a validated configuration
 * @bad_field: set to the name of the first bad field, if not NULL
 *
 * Return: 0 or -EINVAL.
 */
int vgpu_gpu_params_validate(const struct vgpu_gpu_params *p,
			     const struct vgpu_config *cfg,
			     const char **bad_field)
{
	const char *bad = NULL;
	u32 i;

	if (p->preempt > VGPU_PREEMPT_SWITCH)
		bad = "preempt";
	else if (p->pack > VGPU_PACK_SM)
		bad = "pack";
	else if (!p->epoch || p->epoch > VGPU_GPU_MAX_EPOCH)
		bad = "epoch";
	else if (!p->task_slots || p->task_slots > VGPU_GPU_MAX_SLOTS)
		bad = "task_slots";
	else if (!p->max_channels || p->max_channels > VGPU_GPU_MAX_CHANNELS)
		bad = "max_channels";
	else if (p->num_windows > cfg->num_prios)
		bad = "windows";
	else if (vgpu_isa_timing_validate(&p->timing))
		bad = "timing";
	else if (p->throttle_sms > cfg->num_sms || !p->throttle_sms)
		bad = "throttle_sms";
	else if (!p->save_slots || p->save_slots > 4 * VGPU_MAX_SMS)
		bad = "save_slots";
	else if (p->switch_cost > VGPU_MAX_LATENCY)
		bad = "switch_cost";
	else if (p->sync_cost > VGPU_MAX_LATENCY)
		bad = "sync_cost";
	else if (!p->policy[0] || p->policy[VGPU_POLICY_NAME_LEN - 1])
		bad = "policy";
	else if (p->sm_choice[VGPU_POLICY_NAME_LEN - 1] ||
		 (p->sm_choice[0] && !vgpu_policy_sm_choice(p->sm_choice)))
		bad = "sm_choice";
	else if (p->combo > 100)
		bad = "combo";
	else if (p->search > VGPU_SEARCH_MUX)
		bad = "search";
	else if (p->search == VGPU_SEARCH_GROUPED ?
		 !vgpu_gpu_group_divides(cfg, p->search_group) :
		 p->search_group)
		bad = "search_group";
	else if (p->search_latency > VGPU_SEARCH_MAX_LATENCY)
		bad = "search_latency";
	else if (p->assign_latency > VGPU_MAX_LATENCY)
		bad = "assign_latency";
	else if (p->dealloc_latency > VGPU_MAX_LATENCY)
		bad = "dealloc_latency";
	for (i = 0; !bad && i < ARRAY_SIZE(p->res_weight); i++)
		if (p->res_weight[i] > VGPU_POWER_WEIGHT_MAX)
			bad = "res_weight";
		else if (p->res_energy[i] > VGPU_MAX_ENERGY)
			bad = "res_energy";
	for (i = 0; !bad && i < p->num_windows; i++)
		if (!p->window[i] || p->window[i] > VGPU_GPU_MAX_EPOCH ||
		    (i && p->window[i] > p->window[i - 1]))
			bad = "windows";
	if (bad_field)
		*bad_field = bad;
	return bad ? -EINVAL : 0;
}

/* regions in whole cache lines: the SMs' state is laid out in lines */
#define VGPU_GPU_ALIGN(x)	round_up((size_t)(x), (size_t)VGPU_CACHE_LINE)

/* Byte offsets of each array in the caller's memory. */
/*
 * Each array is followed by a redzone where the host has them
 * (VGPU_MEM_REDZONE(): the native builds under AddressSanitizer; none in
 * the kernel): vgpu_gpu_init() poisons it, so that a loop one element past
 * an array faults in the unit tests although the element lies inside the
 * device's one allocation.
 */
#define VGPU_GPU_NZONES	16

struct vgpu_gpu_layout {
	size_t sm, warp, ev, chan, chanpol, slot, rank, cands, dirty;
	size_t cursor;
	size_t saved;
	size_t pos, top, seen;
	size_t win;
	size_t total;
	size_t zone[VGPU_GPU_NZONES][2];
	u32 nzones;
};

/*
 * Events an SM buffers in one epoch: the block-level ones (start and done,
 * one LAUNCH WAIT per block, VGPU_SM_LAUNCH_QUEUE other LAUNCHes, F15),
 * plus room for a few generations of warp starts and arbitrated locks
 * when the sink is verbose (vgpu_gpu_set_verbose(); beyond that they are
 * counted in &vgpu_gpu_sm.lost).
 */
static u32 vgpu_gpu_evcap(const struct vgpu_config *cfg)
{
	return 4 * cfg->max_blocks_per_sm + 4 * cfg->max_warps_per_sm + 8 +
	       VGPU_SM_LAUNCH_QUEUE;
}

/* Place @count elements of @elem bytes at *@off; returns their offset. */
static size_t vgpu_gpu_region(struct vgpu_gpu_layout *l, size_t *off,
			      size_t count, size_t elem)
{
	size_t at = *off, used = count * elem;

	*off += VGPU_GPU_ALIGN(used) + VGPU_GPU_ALIGN(VGPU_MEM_REDZONE(elem));
	if (*off > at + used && l->nzones < VGPU_GPU_NZONES) {
		l->zone[l->nzones][0] = at + used;
		l->zone[l->nzones][1] = *off;
		l->nzones++;
	}
	return at;
}

static void vgpu_gpu_layout(const struct vgpu_config *cfg,
			    const struct vgpu_gpu_params *p,
			    struct vgpu_gpu_layout *l)
{
	size_t n = cfg->num_sms, off = 0;

	l->nzones = 0;
	l->sm = vgpu_gpu_region(l, &off, n, sizeof(struct vgpu_gpu_sm));
	l->warp = vgpu_gpu_region(l, &off, n,
				  vgpu_worker_pool_bytes(cfg->max_warps_per_sm));
	l->ev = vgpu_gpu_region(l, &off, n * vgpu_gpu_evcap(cfg),
				sizeof(struct vgpu_event));
	l->chan = vgpu_gpu_region(l, &off, p->max_channels,
				  sizeof(struct vgpu_gpu_channel));
	l->chanpol = vgpu_gpu_region(l, &off, p->max_channels,
				     VGPU_POLICY_CHAN_WORDS * sizeof(u64));
	l->slot = vgpu_gpu_region(l, &off, p->task_slots, sizeof(void *));
	l->rank = vgpu_gpu_region(l, &off, n, sizeof(u16));
	l->cands = vgpu_gpu_region(l, &off, 2 * n,
				   sizeof(struct vgpu_policy_sm));
	/* whole bytes up to the next word: vgpu_gpu_init() sets them so */
	l->dirty = vgpu_gpu_region(l, &off, round_up(n, 8), 1);
	l->cursor = vgpu_gpu_region(l, &off, n, sizeof(u32));
	l->saved = vgpu_gpu_region(l, &off, p->save_slots,
				   sizeof(struct vgpu_gpu_saved));
	l->pos = vgpu_gpu_region(l, &off, 2 * n, sizeof(u16));
	l->top = vgpu_gpu_region(l, &off, VGPU_MAX_PRIOS * VGPU_BMAP_NWORDS(n),
				 sizeof(u64));
	l->seen = vgpu_gpu_region(l, &off, n, 1);
	/* the SMs' power windows (F25), one ring each */
	l->win = vgpu_gpu_region(l, &off, n,
				 vgpu_sm_window_bytes(cfg, &p->timing));
	l->total = off;
}

/**
 * vgpu_gpu_mem_size() - memory vgpu_gpu_init() needs
 * @cfg: a validated configuration
 * @p: validated parameters
 *
 * Return: bytes, a VGPU_CACHE_LINE-aligned base required.
 */
size_t vgpu_gpu_mem_size(const struct vgpu_config *cfg,
			 const struct vgpu_gpu_params *p)
{
	struct vgpu_gpu_layout l;

	vgpu_gpu_layout(cfg, p, &l);
	return l.total;
}

/**
 * vgpu_gpu_top_move() - vgpu_gpu_top_sync() when the SM's entry may move
 * @g: the device
 * @i: SM index, whose engine's highest resident priority is not the one
 *	its entry of the F23 (c) candidate map was last put at
 */
void vgpu_gpu_top_move(struct vgpu_gpu *g, u32 i)
{
	u32 t = g->sm[i].sm.top_prio, old = g->top_seen[i], j = g->sm_pos[i];

	if (t == old)
		return;
	if (old < VGPU_MAX_PRIOS) {
		vgpu_gpu_top_row(g, old)[j / 64] &= ~BIT_ULL(j % 64);
		g->top_n[old]--;
	}
	if (t < VGPU_MAX_PRIOS) {
		vgpu_gpu_top_row(g, t)[j / 64] |= BIT_ULL(j % 64);
		g->top_n[t]++;
	}
	g->top_seen[i] = t < VGPU_MAX_PRIOS ? t : VGPU_PRIO_NONE;
}

/*
 * Sort the SMs by (rank, index) into @pos_sm (insertion sort: the list
 * changes at set-up only) and rebuild the candidate map from the engines.
 */
static void vgpu_gpu_top_rebuild(struct vgpu_gpu *g)
{
	u32 n = g->cfg.num_sms, i, j, v;

	for (i = 0; i < n; i++) {
		v = i;
		for (j = i; j && g->sm_rank[g->pos_sm[j - 1]] > g->sm_rank[v];
		     j--)
			g->pos_sm[j] = g->pos_sm[j - 1];
		g->pos_sm[j] = v;
	}
	for (j = 0; j < n; j++)
		g->sm_pos[g->pos_sm[j]] = j;
	memset(g->top_map, 0, VGPU_MAX_PRIOS * g->top_words * sizeof(u64));
	memset(g->top_n, 0, sizeof(g->top_n));
	for (i = 0; i < n; i++) {
		g->top_seen[i] = VGPU_PRIO_NONE;
		vgpu_gpu_top_sync(g, i);
	}
}

/* Undo the SMs' setup of vgpu_gpu_init_host(). */
static void vgpu_gpu_sms_fini(struct vgpu_gpu *g)
{
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++) {
		vgpu_sm_fini(&g->sm[i].sm);
		vgpu_worker_pool_fini(&g->sm[i].pool);
	}
}

/*
 * @g runs @ops.  A policy without an SM choice of its own (neither
 * &vgpu_policy_ops.select_sm nor .first_fit) takes the device's,
 * &vgpu_gpu_params.sm_choice when set: its @select_sm, @first_fit and
 * @wants, and its packing unless the policy states one or packs with an
 * op of its own (a @pack op packs by SM).  The composed table is a copy
 * in @g; sm_choice names a built-in, which outlives every device.
 */
static void vgpu_gpu_policy_use(struct vgpu_gpu *g,
				const struct vgpu_policy_ops *ops)
{
	const struct vgpu_policy_ops *sm = g->p.sm_choice[0] ?
		vgpu_policy_sm_choice(g->p.sm_choice) : NULL;

	if (!sm || ops->select_sm || ops->first_fit) {
		g->policy = ops;
		return;
	}
	g->policy_ops = *ops;
	g->policy_ops.select_sm = sm->select_sm;
	g->policy_ops.first_fit = sm->first_fit;
	g->policy_ops.wants |= sm->wants;
	if (ops->packing == VGPU_POLICY_PACK_DEFAULT && !ops->pack)
		g->policy_ops.packing = sm->packing;
	g->policy = &g->policy_ops;
}

/**
 * vgpu_gpu_init() - lay a device out in caller memory
 * @g: the device
 * @mem: vgpu_gpu_mem_size() bytes, VGPU_CACHE_LINE-aligned (vmalloc()
 *	memory is)
 * @size: their number
 * @cfg: configuration
 * @p: parameters
 * @policies: policy registry to look @p->policy up in (F27)
 *
 * A device without a host: vgpu_gpu_init_host() with no callbacks.
 *
 * Return: 0, -EINVAL for a bad configuration or parameter or a misaligned
 * @mem, -ENOENT for an unknown policy, -ENOSPC if @size is too small,
 * or the error the policy's &vgpu_policy_ops.init returned.
 */
int vgpu_gpu_init(struct vgpu_gpu *g, void *mem, size_t size,
		  const struct vgpu_config *cfg,
		  const struct vgpu_gpu_params *p,
		  struct list_head *policies)
{
	return vgpu_gpu_init_host(g, mem, size, cfg, p, policies, NULL, NULL);
}

/**
 * vgpu_gpu_init_host() - lay a device out in caller memory, for a host
 * @g: the device
 * @mem: vgpu_gpu_mem_size() bytes, VGPU_CACHE_LINE-aligned (vmalloc()
 *	memory is)
 * @size: their number
 * @cfg: configuration
 * @p: parameters
 * @policies: policy registry to look @p->policy up in (F27)
 * @ops: the host's callbacks (struct vgpu_gpu_host_ops), or NULL; they
 *	are first called once this returns (the power calibration of
 *	@p->calibrate makes none)
 * @host: passed to them first
 *
 * The policy's &vgpu_policy_ops.init is called last, once the device is
 * set up.
 *
 * Return: as vgpu_gpu_init(), or the error of the policy's init.
 */
int vgpu_gpu_init_host(struct vgpu_gpu *g, void *mem, size_t size,
		       const struct vgpu_config *cfg,
		       const struct vgpu_gpu_params *p,
		       struct list_head *policies,
		       const struct vgpu_gpu_host_ops *ops, void *host)
{
	struct vgpu_gpu_layout l;
	struct vgpu_gpu_saved *saved;
	struct vgpu_warp *warp;
	struct vgpu_event *ev;
	struct vgpu_gpu_sm *gs;
	char *base = mem;
	u32 i, evcap;
	int ret;

	if (vgpu_config_validate(cfg, NULL) ||
	    vgpu_gpu_params_validate(p, cfg, NULL) ||
	    ((unsigned long)mem & (VGPU_CACHE_LINE - 1)))
		return -EINVAL;
	vgpu_gpu_layout(cfg, p, &l);
	if (size < l.total)
		return -ENOSPC;
	/* the memory may have held another layout */
	vgpu_mem_unpoison(mem, l.total);
	for (i = 0; i < l.nzones; i++)
		vgpu_mem_poison(base + l.zone[i][0], l.zone[i][1] - l.zone[i][0]);
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->p = *p;
	vgpu_gpu_window_sync(g);
	prandom_seed_state(&g->rnd, p->seed);
	g->f21_salt = prandom_u32_state(&g->rnd);
	g->skip_until = VGPU_GPU_NO_CYCLE;
	g->policy_reg = vgpu_policy_find(policies, p->policy);
	if (!g->policy_reg)
		return -ENOENT;
	vgpu_gpu_policy_use(g, g->policy_reg->ops);
	vgpu_policy_watch_init(g, policies);
	ret = vgpu_gpu_search_plan(cfg, &g->mux_plan);
	if (ret)
		return ret;
	g->sm = (struct vgpu_gpu_sm *)(base + l.sm);
	warp = (struct vgpu_warp *)(base + l.warp);
	ev = (struct vgpu_event *)(base + l.ev);
	evcap = vgpu_gpu_evcap(cfg);
	if (p->calibrate) {
		/* F25: probe kernels on SM 0 alone, before it is set up */
		gs = &g->sm[0];
		vgpu_worker_pool_init(&gs->pool, warp, cfg->max_warps_per_sm);
		ret = vgpu_power_calibrate(&gs->sm, &gs->pool, cfg,
					   &g->p.timing, NULL);
		if (ret)
			return ret;
	}
	ret = vgpu_gpu_res_weights(g, warp);
	if (ret)
		return ret;
	for (i = 0; i < cfg->num_sms; i++) {
		gs = &g->sm[i];
		/* the engine, most of it, is cleared by vgpu_sm_init() */
		memset((u8 *)gs + offsetof(struct vgpu_gpu_sm, run_smem), 0,
		       sizeof(*gs) - offsetof(struct vgpu_gpu_sm, run_smem));
		vgpu_worker_pool_init(&gs->pool,
				      warp + i * cfg->max_warps_per_sm,
				      cfg->max_warps_per_sm);
		ret = vgpu_sm_init(&gs->sm, cfg, &g->p.timing, &gs->pool, i);
		if (ret)
			return ret;
		vgpu_sm_set_trace(&gs->sm, vgpu_gpu_sm_trace, gs);
		vgpu_sm_set_window(&gs->sm, (u8 *)base + l.win + i *
				   vgpu_sm_window_bytes(cfg, &g->p.timing));
		/* F17: the engine waits for the assignment and the sync */
		gs->sm.sync_cost = p->sync_cost + p->assign_latency;
		gs->sm.search_latency = vgpu_gpu_search_cycles(p, &g->mux_plan);
		gs->hs.kernel = VGPU_EV_NONE;
		gs->ev = ev + i * evcap;
		gs->evcap = evcap;
		gs->wevcap = 4 * cfg->max_warps_per_sm;
	}
	g->chan = (struct vgpu_gpu_channel *)(base + l.chan);
	memset(g->chan, 0, p->max_channels * sizeof(*g->chan));
	for (i = 0; i < p->max_channels; i++)
		INIT_LIST_HEAD(&g->chan[i].fifo);
	/* apart from the channels: the admission loop walks those */
	g->chan_policy = (u64 (*)[VGPU_POLICY_CHAN_WORDS])(base + l.chanpol);
	memset(g->chan_policy, 0, p->max_channels * sizeof(*g->chan_policy));
	g->slot = (struct vgpu_gpu_kernel **)(base + l.slot);
	memset(g->slot, 0, p->task_slots * sizeof(*g->slot));
	g->sm_rank = (u16 *)(base + l.rank);
	for (i = 0; i < cfg->num_sms; i++)
		g->sm_rank[i] = i;
	g->pos_sm = (u16 *)(base + l.pos);
	g->sm_pos = g->pos_sm + cfg->num_sms;
	g->top_words = VGPU_BMAP_NWORDS(cfg->num_sms);
	g->top_map = (u64 *)(base + l.top);
	g->top_seen = (u8 *)(base + l.seen);
	vgpu_gpu_top_rebuild(g);
	g->fit[0].cands = (struct vgpu_policy_sm *)(base + l.cands);
	g->fit[1].cands = g->fit[0].cands + cfg->num_sms;
	g->fit_dirty = (u8 *)(base + l.dirty);
	/* every bit set: the runs (VGPU_GPU_RUNS_DIRTY) are computed first */
	memset(g->fit_dirty, 0xff, round_up((size_t)cfg->num_sms, 8));
	for (i = 0; i < cfg->num_sms; i++)
		g->sm[i].sm.res.dirty = &g->fit_dirty[i];
	g->cursor = (u32 *)(base + l.cursor);
	INIT_LIST_HEAD(&g->saved_free);
	saved = (struct vgpu_gpu_saved *)(base + l.saved);
	g->saved = saved;
	g->fn = NULL;
	g->fn_hook = NULL;
	g->fn_hook_cookie = NULL;
	for (i = 0; i < p->save_slots; i++) {
		saved[i].s.fn = NULL;
		list_add_tail(&saved[i].node, &g->saved_free);
	}
	INIT_LIST_HEAD(&g->kernels);
	for (i = 0; i < VGPU_GPU_ID_BUCKETS; i++)
		INIT_LIST_HEAD(&g->id_hash[i]);
	INIT_LIST_HEAD(&g->direct);
	INIT_LIST_HEAD(&g->inplace);
	g->next_child_id = VGPU_GPU_CHILD_ID0;
	INIT_LIST_HEAD(&g->queues);
	INIT_LIST_HEAD(&g->pushes);
	INIT_LIST_HEAD(&g->push_done);
	g->hash = VGPU_FNV64_OFFSET;
	g->host_ops = ops;
	g->host = host;
	/* its state is zero: @g and the channels' words were cleared above */
	if (g->policy->init) {
		ret = g->policy->init(g);
		if (ret) {
			/* nothing to undo for vgpu_gpu_fini() */
			vgpu_gpu_sms_fini(g);
			memset(g, 0, sizeof(*g));
			return ret;
		}
	}
	return 0;
}

/**
 * vgpu_gpu_fini() - tear a device down
 * @g: the device; the caller has cancelled every kernel (or lets the
 *	memory go with them)
 *
 * The policy's &vgpu_policy_ops.exit is called first.  A device whose
 * init failed (@g zeroed before) has nothing to undo.
 */
void vgpu_gpu_fini(struct vgpu_gpu *g)
{
	if (g->policy && g->policy->exit)
		g->policy->exit(g);
	vgpu_gpu_sms_fini(g);
	g->policy = NULL;
	g->policy_reg = NULL;
}

/**
 * vgpu_gpu_set_verbose() - pass warp-level events to the sink too
 * @g: the device
 * @on: besides the block-level events, pass every warp start and every
 *	lock the arbiter granted (not the uncontended ones) to the sink
 *
 * For tracing: the sink sees these events in the same (cycle, SM) order
 * as the others.  An SM buffers a bounded number of events per epoch;
 * what does not fit is counted in &vgpu_gpu_sm.lost (vgpu_gpu_events_lost())
 * and the block-level accounting never depends on it.  Neither the trace
 * hash nor any result changes.  Call between two epochs.
 */
void vgpu_gpu_set_verbose(struct vgpu_gpu *g, bool on)
{
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].verbose = on;
}

/**
 * vgpu_gpu_events_lost() - events the SM buffers could not hold
 * @g: the device
 *
 * Return: the sum over the SMs of &vgpu_gpu_sm.lost.
 */
u64 vgpu_gpu_events_lost(const struct vgpu_gpu *g)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		n += g->sm[i].lost;
	return n;
}

/**
 * vgpu_gpu_set_sink() - set the event sink
 * @g: the device
 * @fn: callback, or NULL
 * @cookie: passed to @fn
 */
void vgpu_gpu_set_sink(struct vgpu_gpu *g, vgpu_trace_fn fn, void *cookie)
{
	g->sink = fn;
	g->sink_cookie = cookie;
}

/*
 * Zero the state @ops declares: the device's, every channel's and every
 * kernel's; no kernel is asked to yield.
 */
static void vgpu_gpu_policy_zero(struct vgpu_gpu *g,
				 const struct vgpu_policy_ops *ops)
{
	struct vgpu_gpu_kernel *k;
	u32 i;

	memset(g->policy_state, 0, ops->state_size);
	if (ops->chan_state_size)
		for (i = 0; i < g->p.max_channels; i++)
			memset(g->chan_policy[i], 0, ops->chan_state_size);
	list_for_each_entry(k, &g->kernels, table_node) {
		memset(k->policy_data, 0, ops->kernel_state_size);
		k->yield = false;
		k->t.resident = 0;
		k->t.yield_hold = 0;
		k->held = false;
	}
	g->nheld = 0;
}

/**
 * vgpu_gpu_policy_start() - @g starts using @reg's policy, from zero state
 * @g: the device, between two epochs
 * @reg: the policy's registry entry
 *
 * A policy without an SM choice of its own runs with the device's
 * (vgpu_gpu_policy_use()).  Its watch starts afresh (policy_watch.c) and
 * its init is called.
 *
 * Return: 0, or the error of its &vgpu_policy_ops.init.
 */
int vgpu_gpu_policy_start(struct vgpu_gpu *g, struct vgpu_policy_reg *reg)
{
	vgpu_gpu_policy_use(g, reg->ops);
	g->policy_reg = reg;
	vgpu_gpu_policy_zero(g, reg->ops);
	vgpu_policy_watch_reset(g);
	return reg->ops->init ? reg->ops->init(g) : 0;
}

static void vgpu_gpu_policy_name(struct vgpu_gpu *g)
{
	const char *name = g->policy->name;
	u32 i;

	for (i = 0; i + 1 < VGPU_POLICY_NAME_LEN && name[i]; i++)
		g->p.policy[i] = name[i];
	g->p.policy[i] = 0;
}

/**
 * vgpu_gpu_set_policy() - switch the scheduling policy (F27)
 * @g: the device
 * @policies: the registry
 * @name: policy name
 *
 * Switching to another policy calls the old one's &vgpu_policy_ops.exit,
 * zeroes the state the new one declares (the device's, every channel's
 * and every kernel's; no kernel is asked to yield) and calls its
 * &vgpu_policy_ops.init.  If that fails, the switch is refused: the old
 * policy restarts the same way (exit, zeroed state, init); should it
 * refuse too, the device falls back to the built-in "rr".  The caller
 * finds the policy in use in &vgpu_gpu.policy_reg.  Switching to the
 * policy in use changes nothing but its watch, which starts afresh (an
 * ejected device's fallback chosen again is no longer "ejected").
 *
 * Return: 0, -ENOENT for a name not in @policies, or the error of the
 * new policy's init (the device kept its old policy).
 */
int vgpu_gpu_set_policy(struct vgpu_gpu *g, struct list_head *policies,
			const char *name)
{
	struct vgpu_policy_reg *reg = vgpu_policy_find(policies, name);
	struct vgpu_policy_reg *old = g->policy_reg;
	int ret;

	if (!reg)
		return -ENOENT;
	if (reg == old) {
		/* chosen again: its watch starts afresh (policy_watch.c) */
		vgpu_policy_watch_reset(g);
		return 0;
	}
	if (g->policy->exit)
		g->policy->exit(g);
	/* a policy whose init failed never started: no exit for it */
	ret = vgpu_gpu_policy_start(g, reg);
	if (ret && vgpu_gpu_policy_start(g, old)) {
		/* "rr" is built in and has no init: it cannot refuse */
		vgpu_gpu_policy_start(g, vgpu_policy_find(policies, "rr"));
	}
	vgpu_gpu_policy_name(g);
	return ret;
}

/**
 * vgpu_gpu_set_sm_rank() - set the fixed SM priority list (F25 ties)
 * @g: the device
 * @order: SM indices, most preferred first
 * @n: entries; SMs not listed keep their order after them
 */
void vgpu_gpu_set_sm_rank(struct vgpu_gpu *g, const u16 *order, u32 n)
{
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm_rank[i] = n + i;
	for (i = 0; i < n; i++)
		if (order[i] < g->cfg.num_sms)
			g->sm_rank[order[i]] = i;
	vgpu_gpu_top_rebuild(g);
}

/**
 * vgpu_gpu_trace_hash() - the device's trace hash (F51)
 * @g: the device
 *
 * Folds the hash of the controller's events and each SM's hash of its own
 * events (trace.h), in SM order; it depends neither on thread timing nor
 * on how the SMs are spread over workers.
 *
 * Return: the 64-bit hash.
 */
u64 vgpu_gpu_trace_hash(const struct vgpu_gpu *g)
{
	u64 h = g->hash;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		h = vgpu_trace_hash_u64(h, g->sm[i].sm.hash, 8);
	return h;
}

/**
 * vgpu_gpu_event_name() - short name of an event type
 * @type: VGPU_GEV_*
 *
 * Return: a static string ("?" if unknown).
 */
const char *vgpu_gpu_event_name(u32 type)
{
	static const char *const names[VGPU_GEV_MAX + 1 - VGPU_GEV_SUBMIT] = {
		[VGPU_GEV_SUBMIT - VGPU_GEV_SUBMIT] = "submit",
		[VGPU_GEV_ADMIT - VGPU_GEV_SUBMIT] = "admit",
		[VGPU_GEV_EVICT - VGPU_GEV_SUBMIT] = "evict",
		[VGPU_GEV_DISPATCH - VGPU_GEV_SUBMIT] = "dispatch",
		[VGPU_GEV_PREEMPT - VGPU_GEV_SUBMIT] = "preempt",
		[VGPU_GEV_SPLIT - VGPU_GEV_SUBMIT] = "split",
		[VGPU_GEV_KERNEL_DONE - VGPU_GEV_SUBMIT] = "kernel_done",
		[VGPU_GEV_CANCEL - VGPU_GEV_SUBMIT] = "cancel",
		[VGPU_GEV_LAUNCH - VGPU_GEV_SUBMIT] = "launch",
		[VGPU_GEV_SUSPEND - VGPU_GEV_SUBMIT] = "suspend",
		[VGPU_GEV_WAKE - VGPU_GEV_SUBMIT] = "wake",
		[VGPU_GEV_FAIL - VGPU_GEV_SUBMIT] = "fail",
		[VGPU_GEV_PUSH - VGPU_GEV_SUBMIT] = "push",
		[VGPU_GEV_COALESCE - VGPU_GEV_SUBMIT] = "coalesce",
		[VGPU_GEV_ASSIGN - VGPU_GEV_SUBMIT] = "assign",
		[VGPU_GEV_DEALLOC - VGPU_GEV_SUBMIT] = "dealloc",
	};

	if (type < VGPU_GEV_SUBMIT || type > VGPU_GEV_MAX)
		return vgpu_event_name(type);
	return names[type - VGPU_GEV_SUBMIT];
}

/**
 * vgpu_gpu_put_event() - count an event and pass it to the sink and the
 *	host
 * @g: the device
 * @ev: the event
 * @k: the kernel it is about, or NULL (&vgpu_gpu_host_ops.event)
 * @hash: fold it into the controller's hash too (the SMs' own events are
 *	already in their hashes, trace.h)
 */
void vgpu_gpu_put_event(struct vgpu_gpu *g, const struct vgpu_event *ev,
			const struct vgpu_gpu_kernel *k, bool hash)
{
	if (hash)
		g->hash = vgpu_trace_hash_event(g->hash, ev);
	g->stats.events++;
	if (g->sink)
		g->sink(g->sink_cookie, ev);
	if (vgpu_gpu_host_events(g))
		g->host_ops->event(g->host, ev, k);
}

/**
 * vgpu_gpu_emit() - a controller event (VGPU_GEV_*): hash, count, sink
 * @g: the device
 * @cycle: its cycle
 * @type: VGPU_GEV_*
 * @k: the kernel it is about
 * @block: block index, or ~0
 * @warp: warp index, or ~0
 * @sm: SM index, or ~0
 * @arg0: first argument (per type, gpu.h)
 * @arg1: second argument (per type, gpu.h)
 */
void vgpu_gpu_emit(struct vgpu_gpu *g, u64 cycle, u32 type,
		   const struct vgpu_gpu_kernel *k, u32 block, u32 warp,
		   u32 sm, u32 arg0, u32 arg1)
{
	struct vgpu_event ev = {
		.cycle = cycle, .type = type, .kernel = k->args.id,
		.block = block, .warp = warp, .sm = sm,
		.arg0 = arg0, .arg1 = arg1,
	};

	vgpu_gpu_put_event(g, &ev, k, true);
}

/**
 * vgpu_gpu_channel_add() - create channel @ch (F11)
 * @g: the device
 * @ch: channel number < max_channels
 * @prio: its default priority
 *
 * Return: 0, -EINVAL, or -EEXIST.
 */
int vgpu_gpu_channel_add(struct vgpu_gpu *g, u32 ch, u32 prio)
{
	if (ch >= g->p.max_channels || prio >= g->cfg.num_prios)
		return -EINVAL;
	if (g->chan[ch].used)
		return -EEXIST;
	g->chan[ch].used = true;
	vgpu_bmap_assign(g->chan_used, ch, true);
	g->chan[ch].prio = prio;
	g->chan[ch].selected = 0;
	memset(&g->chan_gt[ch], 0, sizeof(g->chan_gt[ch]));
	if (g->policy->chan_state_size)
		memset(g->chan_policy[ch], 0, g->policy->chan_state_size);
	return 0;
}

/**
 * vgpu_gpu_channel_remove() - remove an empty channel
 * @g: the device
 * @ch: channel
 *
 * Return: 0, -EINVAL if it does not exist, -EBUSY if kernels are queued
 * (cancel them first).
 */
int vgpu_gpu_channel_remove(struct vgpu_gpu *g, u32 ch)
{
	struct vgpu_gpu_kernel *k;

	if (ch >= g->p.max_channels || !g->chan[ch].used)
		return -EINVAL;
	if (!list_empty(&g->chan[ch].fifo))
		return -EBUSY;
	list_for_each_entry(k, &g->kernels, table_node)
		if (k->args.channel == ch)
			return -EBUSY;
	g->chan[ch].used = false;
	vgpu_bmap_assign(g->chan_used, ch, false);
	return 0;
}

/**
 * vgpu_gpu_gate() - hold or release dispatch (F52 "cork")
 * @g: the device
 * @hold: true to hold; SMs keep running what they have
 */
void vgpu_gpu_gate(struct vgpu_gpu *g, bool hold)
{
	g->gated = hold;
}

/**
 * vgpu_gpu_window_sync() - recompute the F22 period from the parameters
 * @g: the device; called by everything that writes @g->p
 *
 * vgpu_gpu_window_at() runs at every epoch boundary: the period it divides
 * by is summed here once, not there each time.
 */
void vgpu_gpu_window_sync(struct vgpu_gpu *g)
{
	u32 period = 0, i;

	for (i = 0; i < g->p.num_windows; i++)
		period += g->p.window[i];
	g->win_period = period;
}

/**
 * vgpu_gpu_window_at() - the rotating priority window at a cycle (F22)
 * @g: the device
 * @cycle: virtual cycle
 *
 * The period is the sum of the window lengths (@g->win_period); window s
 * covers [sum of T0..Ts-1, sum of T0..Ts) of each period.
 *
 * Return: window index s (promoting priority s), or ~0 if windows are off.
 */
u32 vgpu_gpu_window_at(const struct vgpu_gpu *g, u64 cycle)
{
	u32 period = g->win_period, i, pos;

	if (!period)
		return ~0U;
	pos = cycle - div_u64(cycle, period) * period;
	for (i = 0; i < g->p.num_windows; i++) {
		if (pos < g->p.window[i])
			return i;
		pos -= g->p.window[i];
	}
	return ~0U;
}

/**
 * vgpu_gpu_prio_rank() - dispatch rank of a priority at a cycle (F22)
 * @g: the device
 * @cycle: virtual cycle
 * @prio: priority
 *
 * Return: 0 for the promoted priority of the current window, prio + 1 for
 * the others (so they keep their order); lower ranks win.
 */
u32 vgpu_gpu_prio_rank(const struct vgpu_gpu *g, u64 cycle, u32 prio)
{
	return prio == vgpu_gpu_window_at(g, cycle) ? 0 : prio + 1;
}

/**
 * vgpu_gpu_sm_empty() - does an SM hold nothing at all?
 * @g: the device
 * @sm: SM index
 *
 * Return: true if no block is assigned to it.
 */
bool vgpu_gpu_sm_empty(const struct vgpu_gpu *g, u32 sm)
{
	return vgpu_sm_idle(&g->sm[sm].sm);
}

/*
 * Nothing can happen before the next arrival (of a kernel or of pushed
 * items) or coalescing timeout: jump to its epoch.
 */
static void vgpu_gpu_skip_idle(struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	const struct vgpu_gpu_push *p;
	u64 next, d;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_sm_empty(g, i))
			return;
	list_for_each_entry(k, &g->kernels, table_node)
		if (vgpu_gpu_arrived(g, k) && !vgpu_gpu_q_idle(g, k))
			return;
	p = list_first_entry_or_null(&g->pushes, struct vgpu_gpu_push, node);
	if (p && p->arrival <= g->now)
		return;
	next = vgpu_gpu_next_arrival(g);
	if (next == VGPU_GPU_NO_CYCLE)
		return;
	/* the host may hold the clock back (the paced clock of the module) */
	if (next > g->skip_until)
		next = g->skip_until;
	if (next <= g->now)
		return;
	d = next - g->now;
	d = div_u64(d + g->p.epoch - 1, g->p.epoch) * g->p.epoch;
	g->now += d;
	g->skipped += d;
	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].sm.now = g->now;
}

/**
 * vgpu_gpu_dispatch() - run the global controller at an epoch boundary
 * @g: the device; no SM may be advancing
 *
 * Collects the epoch that ended (events merged in (cycle, SM, sequence)
 * order into the hash and the sink; completions; first-warp timestamps),
 * skips idle time to the next arrival, admits arrived kernels (F11, F13)
 * and runs dispatch rounds until nothing matches (F20-F26).  A boundary
 * with waiting work and no decision is a failed round; g_max of them in a
 * row split an independent kernel (F24).  Called again before the SMs
 * advance, it dispatches again at the same boundary.
 *
 * Return: the cycle the SMs must now be advanced to (the epoch end).
 */
u64 vgpu_gpu_dispatch(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	bool waiting = false;
	u64 before;
	u32 i;

	/*
	 * What the epoch's LAUNCHes do happens at its end (F15).  A second
	 * call at the same boundary, the SMs not advanced since (the module
	 * when kernels or pushes came in after its dispatch there), stays
	 * at the boundary: they arrived at it.
	 */
	if (g->epoch_end > g->now && g->sm[0].sm.now >= g->epoch_end)
		g->now = g->epoch_end;
	vgpu_gpu_fn_flush(g);
	vgpu_gpu_collect(g);
	vgpu_gpu_inplace_retry(g);
	/* the epoch and any cancel changed what the SMs hold */
	for (i = 0; i < g->cfg.num_sms; i++)
		vgpu_gpu_top_sync(g, i);
	vgpu_gpu_skip_idle(g);
	vgpu_gpu_arrivals(g);
	vgpu_policy_watch_start(g);
	vgpu_gpu_table_update(g);
	vgpu_gpu_throttle_update(g);
	g->window = vgpu_gpu_window_at(g, g->now);
	if (g->policy->tick)
		vgpu_policy_watch_tick(g);
	if (!g->gated) {
		before = g->stats.decisions;
		vgpu_gpu_forget_nofit(g);
		vgpu_gpu_fit_forget(g);
		do {
			while (vgpu_gpu_round(g))
				;
		} while (vgpu_gpu_displace(g) ||
			 (unlikely(g->nheld) && vgpu_gpu_holds_update(g)));
		list_for_each_entry(k, &g->kernels, table_node)
			if (vgpu_gpu_arrived(g, k) && vgpu_gpu_undispatched(k))
				waiting = true;
		/*
		 * F24, seed 001 [0086]-[0091]: g counts the consecutive
		 * rounds in which every waiting kernel failed to match.  The
		 * rounds here placed blocks until one failed: a success
		 * restarts the count, the last round counts.  When g exceeds
		 * g_max, split.
		 */
		if (!waiting) {
			g->fail_rounds = 0;
		} else {
			if (g->stats.decisions != before)
				g->fail_rounds = 0;
			g->stats.failed_rounds++;
			if (++g->fail_rounds > g->p.g_max) {
				g->fail_rounds = 0;
				vgpu_gpu_split(g);
			}
		}
		vgpu_policy_watch_end(g, waiting &&
				      g->stats.decisions == before);
	}
	g->epoch_end = g->now + g->p.epoch;
	return g->epoch_end;
}

/**
 * vgpu_gpu_advance_sm() - advance one SM to the epoch end
 * @g: the device
 * @sm: SM index
 *
 * Writes only that SM's state; may run concurrently for different SMs.
 */
void vgpu_gpu_advance_sm(struct vgpu_gpu *g, u32 sm)
{
	struct vgpu_sm *s = &g->sm[sm].sm;

	if (g->epoch_end > s->now)
		vgpu_sm_run(s, g->epoch_end - s->now, 0);
}

/**
 * vgpu_gpu_advance_range() - advance SMs @first..@first+@count-1
 * @g: the device
 * @first: first SM
 * @count: how many
 */
void vgpu_gpu_advance_range(struct vgpu_gpu *g, u32 first, u32 count)
{
	u32 i, end = min(first + count, g->cfg.num_sms);
	struct vgpu_gpu_sm *ahead;

	for (i = first; i < end; i++) {
		/* what the SMs after this one read first (vgpu_sm_prefetch()) */
		if (i + VGPU_GPU_PREFETCH_SMS < end) {
			ahead = &g->sm[i + VGPU_GPU_PREFETCH_SMS];
			vgpu_sm_prefetch(&ahead->sm, false);
			prefetch(&ahead->pool);
		}
		if (i + VGPU_GPU_PREFETCH_SMS / 2 < end)
			vgpu_sm_prefetch(&g->sm[i + VGPU_GPU_PREFETCH_SMS / 2].sm,
					 true);
		vgpu_gpu_advance_sm(g, i);
	}
}

/**
 * vgpu_gpu_idle() - is every submitted kernel finished?
 * @g: the device
 *
 * Return: true if the kernel state table is empty.
 */
bool vgpu_gpu_idle(const struct vgpu_gpu *g)
{
	return list_empty(&g->kernels);
}

/**
 * vgpu_gpu_set_sync_cost() - change the state sync cost (F17)
 * @g: the device, between two epochs
 * @cost: cycles, at most VGPU_MAX_LATENCY; 0 turns syncs off
 *
 * Blocks given from now on pay the new cost; a sync in progress keeps its
 * end.
 *
 * Return: 0 or -EINVAL.
 */
int vgpu_gpu_set_sync_cost(struct vgpu_gpu *g, u32 cost)
{
	u32 i;

	if (cost > VGPU_MAX_LATENCY)
		return -EINVAL;
	g->p.sync_cost = cost;
	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].sm.sync_cost = cost + g->p.assign_latency;
	return 0;
}

/**
 * vgpu_gpu_syncs() - state syncs of every SM (F17)
 * @g: the device
 *
 * Return: the sum over the SMs of &vgpu_sm_stats.syncs.
 */
u64 vgpu_gpu_syncs(const struct vgpu_gpu *g)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		n += g->sm[i].sm.stats.syncs;
	return n;
}

/**
 * vgpu_gpu_quiescent() - can nothing happen without a new submission or
 *	push?
 * @g: the device
 *
 * True when no SM holds a block, no push is on its way and every
 * unfinished kernel is an open queue kernel (F14) that arrived and has no
 * item waiting: dispatching would only move the clock.  A caller that
 * runs epochs while !vgpu_gpu_idle() may stop (and sleep) until it submits
 * or pushes again; vgpu_gpu_next_arrival() is then VGPU_GPU_NO_CYCLE.
 *
 * Return: true when quiescent (also when idle).
 */
bool vgpu_gpu_quiescent(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_sm_empty(g, i))
			return false;
	if (!list_empty(&g->pushes))
		return false;
	list_for_each_entry(k, &g->kernels, table_node)
		if (!k->seen || !vgpu_gpu_q_idle(g, k) || k->q.wait)
			return false;
	return true;
}

/**
 * vgpu_gpu_sm_power() - instruction-power history of an SM (F25)
 * @g: the device
 * @sm: SM index
 *
 * Return: sum of b_s * c_s over the last nx cycles (sm.h).
 */
u64 vgpu_gpu_sm_power(const struct vgpu_gpu *g, u32 sm)
{
	return vgpu_sm_power(&g->sm[sm].sm);
}

/**
 * vgpu_gpu_sm_res() - remaining resources of an SM
 * @g: the device
 * @sm: SM index
 *
 * Return: the SM's resource state (read only).
 */
const struct vgpu_sm_res *vgpu_gpu_sm_res(const struct vgpu_gpu *g, u32 sm)
{
	return &g->sm[sm].sm.res;
}
