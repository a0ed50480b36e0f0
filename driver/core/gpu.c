// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller (SPEC F10-F13, F20-F27, F51).
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
 */
#include "vgpu_os.h"
#include "gpu.h"

/* Candidate match: how and where (F23). */
struct vgpu_gpu_match {
	u32 path;
	u32 sm;
	u32 pre_slot;
	bool pre;
};

/**
 * vgpu_gpu_params_default() - default scheduling parameters
 * @p: result
 * @cfg: the device configuration
 *
 * Policy "rr", warp preemption, 64-cycle epochs, g_max 256 (F24), 32 task
 * slots, 64 channels, num_prios windows of decreasing length 4096, 2048,
 * ... cycles (F22), switch cost 64 cycles, the engine's default timing
 * (power window nx 1024 cycles) with calibrated power weights.
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
	for (i = 0; i < ARRAY_SIZE(p->res_weight); i++)
		p->res_weight[i] = 1;
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
	else if (!p->policy[0] || p->policy[VGPU_POLICY_NAME_LEN - 1])
		bad = "policy";
	for (i = 0; !bad && i < p->num_windows; i++)
		if (!p->window[i] || p->window[i] > VGPU_GPU_MAX_EPOCH ||
		    (i && p->window[i] > p->window[i - 1]))
			bad = "windows";
	if (bad_field)
		*bad_field = bad;
	return bad ? -EINVAL : 0;
}

#define VGPU_GPU_ALIGN(x)	round_up((size_t)(x), (size_t)8)

/* Slot of the used block of @sm whose kernel id and index match. */
static u32 vgpu_gpu_sm_find(const struct vgpu_sm *sm, u32 kernel, u32 block)
{
	u64 m;
	u32 s;

	for (m = sm->used; m; m &= m - 1) {
		s = __ffs64(m);
		if (sm->block[s].kernel->id == kernel &&
		    sm->block[s].block_idx == block)
			return s;
	}
	return VGPU_MAX_BLOCKS_PER_SM;
}

/*
 * Per-SM engine sink, runs on the thread advancing the SM and writes only
 * that SM's shadow and buffer: it notes first warp starts and block
 * completions and buffers them for the merge at the boundary.
 */
static void vgpu_gpu_sm_trace(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_gpu_sm *gs = cookie;
	struct vgpu_gpu_shadow *sh;
	u32 s;

	if (ev->type == VGPU_EV_WARP_START && ev->warp == 0) {
		s = vgpu_gpu_sm_find(&gs->sm, ev->kernel, ev->block);
		if (s >= VGPU_MAX_BLOCKS_PER_SM)
			return;
		sh = &gs->shadow[s];
		if (sh->start_at != VGPU_GPU_NO_CYCLE)
			return;
		sh->start_at = ev->cycle;
	} else if (ev->type == VGPU_EV_BLOCK_DONE) {
		s = vgpu_gpu_sm_find(&gs->sm, ev->kernel, ev->block);
		if (s >= VGPU_MAX_BLOCKS_PER_SM)
			return;
		sh = &gs->shadow[s];
		sh->done = true;
		sh->done_at = ev->cycle;
	} else {
		return;
	}
	if (gs->nev < gs->evcap)
		gs->ev[gs->nev++] = *ev;
	else
		gs->lost++;
}

/* Byte offsets of each array in the caller's memory. */
struct vgpu_gpu_layout {
	size_t sm, warp, ev, chan, slot, dealloc, rank, cands, cursor, saved;
	size_t pos, top, seen;
	size_t total;
};

/* Block-level events an SM can emit in one epoch (start and done). */
static u32 vgpu_gpu_evcap(const struct vgpu_config *cfg)
{
	return 4 * cfg->max_blocks_per_sm + 8;
}

static void vgpu_gpu_layout(const struct vgpu_config *cfg,
			    const struct vgpu_gpu_params *p,
			    struct vgpu_gpu_layout *l)
{
	size_t n = cfg->num_sms, off = 0;

	l->sm = off;
	off += VGPU_GPU_ALIGN(n * sizeof(struct vgpu_gpu_sm));
	l->warp = off;
	off += VGPU_GPU_ALIGN(n * vgpu_worker_pool_bytes(cfg->max_warps_per_sm));
	l->ev = off;
	off += VGPU_GPU_ALIGN(n * vgpu_gpu_evcap(cfg) *
			      sizeof(struct vgpu_event));
	l->chan = off;
	off += VGPU_GPU_ALIGN(p->max_channels *
			      sizeof(struct vgpu_gpu_channel));
	l->slot = off;
	off += VGPU_GPU_ALIGN(p->task_slots * sizeof(void *));
	l->dealloc = off;
	off += VGPU_GPU_ALIGN(p->task_slots);
	l->rank = off;
	off += VGPU_GPU_ALIGN(n * sizeof(u16));
	l->cands = off;
	off += VGPU_GPU_ALIGN(n * sizeof(struct vgpu_policy_sm));
	l->cursor = off;
	off += VGPU_GPU_ALIGN(n * sizeof(u32));
	l->saved = off;
	off += VGPU_GPU_ALIGN(p->save_slots * sizeof(struct vgpu_gpu_saved));
	l->pos = off;
	off += VGPU_GPU_ALIGN(2 * n * sizeof(u16));
	l->top = off;
	off += VGPU_GPU_ALIGN(VGPU_MAX_PRIOS * VGPU_BMAP_NWORDS(n) *
			      sizeof(u64));
	l->seen = off;
	off += VGPU_GPU_ALIGN(n);
	l->total = off;
}

/**
 * vgpu_gpu_mem_size() - memory vgpu_gpu_init() needs
 * @cfg: a validated configuration
 * @p: validated parameters
 *
 * Return: bytes, 8-byte aligned base required.
 */
size_t vgpu_gpu_mem_size(const struct vgpu_config *cfg,
			 const struct vgpu_gpu_params *p)
{
	struct vgpu_gpu_layout l;

	vgpu_gpu_layout(cfg, p, &l);
	return l.total;
}

/* Row @prio of the F23 (c) candidate map. */
static u64 *vgpu_gpu_top_row(const struct vgpu_gpu *g, u32 prio)
{
	return g->top_map + prio * g->top_words;
}

/*
 * Bring SM @i's entry of the F23 (c) candidate map in line with its
 * engine's highest resident priority (which the engine keeps, F33).
 */
static void vgpu_gpu_top_sync(struct vgpu_gpu *g, u32 i)
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

/**
 * vgpu_gpu_init() - lay a device out in caller memory
 * @g: the device
 * @mem: vgpu_gpu_mem_size() bytes, 8-byte aligned
 * @size: their number
 * @cfg: configuration
 * @p: parameters
 * @policies: policy registry to look @p->policy up in (F27)
 *
 * Return: 0, -EINVAL for a bad configuration or parameter, -ENOENT for an
 * unknown policy, -ENOSPC if @size is too small.
 */
int vgpu_gpu_init(struct vgpu_gpu *g, void *mem, size_t size,
		  const struct vgpu_config *cfg,
		  const struct vgpu_gpu_params *p,
		  struct list_head *policies)
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
	    vgpu_gpu_params_validate(p, cfg, NULL))
		return -EINVAL;
	vgpu_gpu_layout(cfg, p, &l);
	if (size < l.total)
		return -ENOSPC;
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	g->p = *p;
	g->policy = vgpu_policy_find(policies, p->policy);
	if (!g->policy)
		return -ENOENT;
	g->sm = (struct vgpu_gpu_sm *)(base + l.sm);
	warp = (struct vgpu_warp *)(base + l.warp);
	ev = (struct vgpu_event *)(base + l.ev);
	evcap = vgpu_gpu_evcap(cfg);
	if (p->calibrate) {
		/* F25: probe kernels on SM 0 alone, before it is set up */
		gs = &g->sm[0];
		vgpu_worker_pool_init(&gs->pool, warp, cfg->max_warps_per_sm);
		ret = vgpu_power_calibrate(&gs->sm, &gs->pool, cfg, &g->p.timing,
					   NULL);
		if (ret)
			return ret;
	}
	for (i = 0; i < cfg->num_sms; i++) {
		gs = &g->sm[i];
		memset(gs, 0, sizeof(*gs));
		vgpu_worker_pool_init(&gs->pool,
				      warp + i * cfg->max_warps_per_sm,
				      cfg->max_warps_per_sm);
		ret = vgpu_sm_init(&gs->sm, cfg, &g->p.timing, &gs->pool, i);
		if (ret)
			return ret;
		vgpu_sm_set_trace(&gs->sm, vgpu_gpu_sm_trace, gs);
		gs->ev = ev + i * evcap;
		gs->evcap = evcap;
	}
	g->chan = (struct vgpu_gpu_channel *)(base + l.chan);
	memset(g->chan, 0, p->max_channels * sizeof(*g->chan));
	for (i = 0; i < p->max_channels; i++)
		INIT_LIST_HEAD(&g->chan[i].fifo);
	g->slot = (struct vgpu_gpu_kernel **)(base + l.slot);
	memset(g->slot, 0, p->task_slots * sizeof(*g->slot));
	g->slot_dealloc = (u8 *)(base + l.dealloc);
	memset(g->slot_dealloc, 0, p->task_slots);
	g->sm_rank = (u16 *)(base + l.rank);
	for (i = 0; i < cfg->num_sms; i++)
		g->sm_rank[i] = i;
	g->pos_sm = (u16 *)(base + l.pos);
	g->sm_pos = g->pos_sm + cfg->num_sms;
	g->top_words = VGPU_BMAP_NWORDS(cfg->num_sms);
	g->top_map = (u64 *)(base + l.top);
	g->top_seen = (u8 *)(base + l.seen);
	vgpu_gpu_top_rebuild(g);
	g->cands = (struct vgpu_policy_sm *)(base + l.cands);
	g->cursor = (u32 *)(base + l.cursor);
	INIT_LIST_HEAD(&g->saved_free);
	saved = (struct vgpu_gpu_saved *)(base + l.saved);
	for (i = 0; i < p->save_slots; i++)
		list_add_tail(&saved[i].node, &g->saved_free);
	INIT_LIST_HEAD(&g->kernels);
	g->hash = VGPU_FNV64_OFFSET;
	return 0;
}

/**
 * vgpu_gpu_fini() - tear a device down
 * @g: the device; the caller has cancelled every kernel (or lets the
 *	memory go with them)
 */
void vgpu_gpu_fini(struct vgpu_gpu *g)
{
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++) {
		vgpu_sm_fini(&g->sm[i].sm);
		vgpu_worker_pool_fini(&g->sm[i].pool);
	}
	g->policy = NULL;
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

/**
 * vgpu_gpu_set_policy() - switch the SM-choice policy (F27)
 * @g: the device
 * @policies: the registry
 * @name: policy name
 *
 * Return: 0 or -ENOENT.
 */
int vgpu_gpu_set_policy(struct vgpu_gpu *g, struct list_head *policies,
			const char *name)
{
	struct vgpu_policy *pol = vgpu_policy_find(policies, name);
	u32 i;

	if (!pol)
		return -ENOENT;
	g->policy = pol;
	for (i = 0; i + 1 < VGPU_POLICY_NAME_LEN && name[i]; i++)
		g->p.policy[i] = name[i];
	g->p.policy[i] = 0;
	return 0;
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
	};

	if (type < VGPU_GEV_SUBMIT || type > VGPU_GEV_MAX)
		return vgpu_event_name(type);
	return names[type - VGPU_GEV_SUBMIT];
}

static void vgpu_gpu_put_event(struct vgpu_gpu *g, const struct vgpu_event *ev,
			       bool hash)
{
	if (hash)
		g->hash = vgpu_trace_hash_event(g->hash, ev);
	g->stats.events++;
	if (g->sink)
		g->sink(g->sink_cookie, ev);
}

static void vgpu_gpu_emit(struct vgpu_gpu *g, u64 cycle, u32 type,
			  const struct vgpu_gpu_kernel *k, u32 block, u32 warp,
			  u32 sm, u32 arg0, u32 arg1)
{
	struct vgpu_event ev = {
		.cycle = cycle, .type = type, .kernel = k->id,
		.block = block, .warp = warp, .sm = sm,
		.arg0 = arg0, .arg1 = arg1,
	};

	vgpu_gpu_put_event(g, &ev, true);
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
	g->chan[ch].prio = prio;
	g->chan[ch].selected = 0;
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
		if (k->channel == ch)
			return -EBUSY;
	g->chan[ch].used = false;
	return 0;
}

static bool vgpu_gpu_aff_test(const struct vgpu_gpu_kernel *k, u32 sm)
{
	return k->affinity[sm / 64] & BIT_ULL(sm % 64);
}

static bool vgpu_gpu_aff_any(const struct vgpu_gpu_kernel *k)
{
	u32 i;

	for (i = 0; i < VGPU_GPU_AFF_WORDS; i++)
		if (k->affinity[i])
			return true;
	return false;
}

/**
 * vgpu_gpu_submit() - submit a kernel to its channel (F10, F11)
 * @g: the device
 * @k: caller-allocated descriptor with the F10 fields filled and a
 *	program that passed vgpu_isa_validate(); the core owns the other
 *	fields until vgpu_gpu_kernel_finished()
 *
 * Return: 0; -EINVAL for a bad field (unknown flag, priority, empty grid,
 * invalid program, independent kernel with BAR, empty affinity); -ENOENT
 * if the channel does not exist; -E2BIG if a block can never fit an empty
 * SM it may run on.
 */
int vgpu_gpu_submit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_sm_res *empty = &g->scratch;
	struct vgpu_kernel_desc *d = &k->desc;
	struct vgpu_gpu_kernel *o;
	u32 i;

	if (k->flags & ~VGPU_KF_ALL || k->prio >= g->cfg.num_prios ||
	    !k->grid || !k->prog || !k->n_insns || !k->match || !k->threads)
		return -EINVAL;
	if (k->channel >= g->p.max_channels || !g->chan[k->channel].used)
		return -ENOENT;
	list_for_each_entry(o, &g->kernels, table_node)
		if (o->id == k->id)
			return -EEXIST;
	memset(d, 0, sizeof(*d));
	d->id = k->id;
	d->prio = k->prio;
	d->grid = k->grid;
	d->threads = k->threads;
	d->regs_per_thread = k->regs;
	d->smem_bytes = k->smem;
	d->prio_wid_mod = k->prio_wid_mod;
	if (vgpu_block_shape_init(&d->shape, &g->cfg, k->threads, k->regs,
				  k->smem, 0, NULL))
		return -E2BIG;
	if (vgpu_kernel_desc_init(d, &g->cfg, k->prog, k->n_insns, k->match))
		return -EINVAL;
	if (d->sum.uses_bar && (k->flags & VGPU_KF_INDEPENDENT))
		return -EINVAL;
	if (!vgpu_gpu_aff_any(k)) {
		for (i = 0; i < g->cfg.num_sms; i++)
			k->affinity[i / 64] |= BIT_ULL(i % 64);
	}
	for (i = g->cfg.num_sms; i < VGPU_MAX_SMS; i++)
		k->affinity[i / 64] &= ~BIT_ULL(i % 64);
	if (!vgpu_gpu_aff_any(k))
		return -EINVAL;
	k->aff_all = true;
	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_aff_test(k, i))
			k->aff_all = false;
	vgpu_sm_res_init(empty, &g->cfg);
	if (!vgpu_sm_res_block_fits(empty, &d->shape))
		return -E2BIG;
	k->uses_bar = d->sum.uses_bar;
	k->warps = d->shape.warps;
	k->eff_prio = k->prio;
	k->split = false;
	k->split_from = k->grid;
	k->units = k->grid;
	k->next_unit = 0;
	k->inflight = 0;
	k->done_units = 0;
	k->nsaved = 0;
	INIT_LIST_HEAD(&k->saved);
	k->quota_used = 0;
	k->slot = ~0U;
	k->preempted = 0;
	k->busy_arrival = false;
	k->seen = false;
	k->t_submit = k->arrival;
	k->t_dispatch = VGPU_GPU_NO_CYCLE;
	k->t_start = VGPU_GPU_NO_CYCLE;
	k->t_end = VGPU_GPU_NO_CYCLE;
	k->seq = g->seq++;
	k->state = VGPU_KS_QUEUED;
	list_add_tail(&k->chan_node, &g->chan[k->channel].fifo);
	list_add_tail(&k->table_node, &g->kernels);
	g->nkernels++;
	return 0;
}

/**
 * vgpu_gpu_kernel_finished() - may the caller free the descriptor?
 * @k: a submitted kernel
 *
 * Return: true once it is done or cancelled.
 */
bool vgpu_gpu_kernel_finished(const struct vgpu_gpu_kernel *k)
{
	return k->state == VGPU_KS_DONE || k->state == VGPU_KS_CANCELLED;
}

static bool vgpu_gpu_arrived(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k)
{
	return k->arrival <= g->now;
}

/* Undispatched units, switched-out ones included (F12). */
static u32 vgpu_gpu_undispatched(const struct vgpu_gpu_kernel *k)
{
	return k->units - k->next_unit + k->nsaved;
}

/* Put @k (or NULL) in task slot @s, keeping @slot_used in step. */
static void vgpu_gpu_slot_set(struct vgpu_gpu *g, u32 s,
			      struct vgpu_gpu_kernel *k)
{
	g->slot[s] = k;
	if (k)
		g->slot_used[s / 64] |= BIT_ULL(s % 64);
	else
		g->slot_used[s / 64] &= ~BIT_ULL(s % 64);
}

static void vgpu_gpu_slot_release(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k)
{
	if (k->slot != ~0U) {
		vgpu_gpu_slot_set(g, k->slot, NULL);
		g->slot_dealloc[k->slot] = 0;
		k->slot = ~0U;
	}
}

static void vgpu_gpu_kernel_retire(struct vgpu_gpu *g,
				   struct vgpu_gpu_kernel *k, u32 state)
{
	vgpu_gpu_slot_release(g, k);
	if (!list_empty(&k->chan_node))
		list_del_init(&k->chan_node);
	list_del_init(&k->table_node);
	g->nkernels--;
	k->state = state;
}

/**
 * vgpu_gpu_cancel() - cancel a kernel (F53)
 * @g: the device, between two epochs
 * @k: a submitted, unfinished kernel
 *
 * Its undispatched blocks are dropped, its resident and switched-out
 * blocks removed at once with their resources; only its own state is
 * touched.  The descriptor is free when this returns.
 *
 * Return: 0, or -EINVAL if it already finished.
 */
int vgpu_gpu_cancel(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_shadow *sh;
	struct list_head *e;
	u32 i, j, n = 0;

	if (vgpu_gpu_kernel_finished(k) || k->state == VGPU_KS_NEW)
		return -EINVAL;
	for (i = 0; i < g->cfg.num_sms; i++) {
		n += vgpu_sm_cancel_kernel(&g->sm[i].sm, k->id);
		for (j = 0; j < VGPU_MAX_BLOCKS_PER_SM; j++) {
			sh = &g->sm[i].shadow[j];
			if (sh->k != k)
				continue;
			memset(sh, 0, sizeof(*sh));
			g->sm[i].shadow_used &= ~BIT_ULL(j);
		}
	}
	while (!list_empty(&k->saved)) {
		e = k->saved.next;
		list_del(e);
		list_add(e, &g->saved_free);
	}
	n += k->nsaved + k->units - k->next_unit;
	k->nsaved = 0;
	k->inflight = 0;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_CANCEL, k, ~0U, ~0U, ~0U, n, 0);
	vgpu_gpu_kernel_retire(g, k, VGPU_KS_CANCELLED);
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
 * vgpu_gpu_window_at() - the rotating priority window at a cycle (F22)
 * @g: the device
 * @cycle: virtual cycle
 *
 * The period is the sum of the window lengths; window s covers
 * [sum of T0..Ts-1, sum of T0..Ts) of each period.
 *
 * Return: window index s (promoting priority s), or ~0 if windows are off.
 */
u32 vgpu_gpu_window_at(const struct vgpu_gpu *g, u64 cycle)
{
	u32 period = 0, i, pos;

	for (i = 0; i < g->p.num_windows; i++)
		period += g->p.window[i];
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

/* F26: may SM @sm take blocks of @k? */
static bool vgpu_gpu_sm_allowed(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k, u32 sm)
{
	if (!vgpu_gpu_aff_test(k, sm))
		return false;
	if (g->p.throttle && sm >= g->p.throttle_sms)
		return false;
	return true;
}

/* F26: is @k eligible in this round at all? */
static bool vgpu_gpu_eligible(const struct vgpu_gpu *g,
			      const struct vgpu_gpu_kernel *k)
{
	if (!vgpu_gpu_undispatched(k))
		return false;
	if (!!g->p.throttle != !!(k->flags & VGPU_KF_THROTTLE))
		return false;
	if ((k->flags & VGPU_KF_SEQUENTIAL) && k->inflight)
		return false;
	return true;
}

/* Let the policy pick among g->cands[0..n-1]. */
static u32 vgpu_gpu_policy_pick(struct vgpu_gpu *g,
				const struct vgpu_block_shape *shape, u32 n)
{
	struct vgpu_policy_ctx ctx = {
		.gpu = g, .shape = shape, .rr_next = g->rr_next,
		.sm_rank = g->sm_rank, .res_weight = g->p.res_weight,
	};
	u32 i = g->policy->choose(&ctx, g->cands, n);

	return g->cands[i < n ? i : 0].sm;
}

static void vgpu_gpu_cand_add(struct vgpu_gpu *g, u32 *n, u32 sm)
{
	struct vgpu_policy_sm *c = &g->cands[(*n)++];

	c->sm = sm;
	c->res = &g->sm[sm].sm.res;
	c->power = vgpu_sm_power(&g->sm[sm].sm);
}

/* The descriptor the next new unit of @k uses (F24 split). */
static const struct vgpu_kernel_desc *
vgpu_gpu_next_desc(const struct vgpu_gpu_kernel *k)
{
	return k->split && k->next_unit >= k->split_from ? &k->split_desc :
							    &k->desc;
}

/* What the next unit of @k needs: a switched-out block, or a new one. */
static const struct vgpu_block_shape *
vgpu_gpu_next_shape(const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_gpu_saved *s;

	if (k->nsaved) {
		s = list_first_entry(&k->saved, struct vgpu_gpu_saved, node);
		return &s->s.row.kernel->shape;
	}
	return &vgpu_gpu_next_desc(k)->shape;
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
		    a->barriers == b->barriers)
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

/* Block slot, shared memory and barriers fit (F23 (c), warp mode)? */
static bool vgpu_gpu_block_level_fits(const struct vgpu_sm_res *res,
				      const struct vgpu_block_shape *shape)
{
	return res->blocks_used < res->max_blocks &&
	       shape->barriers <= res->max_barriers - res->barriers_used &&
	       vgpu_bmap_find_run(res->smem, res->smem_units,
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

/*
 * Switch mode: would switching out blocks of lower priority than @prio
 * (lowest priority, youngest first) make room for @shape?  Return how
 * many must go, 0 if it cannot work.
 */
static u32 vgpu_gpu_switch_victims(struct vgpu_gpu *g, struct vgpu_sm *sm,
				   u32 prio, const struct vgpu_block_shape *shape)
{
	struct vgpu_block_place *place = &g->scratch_place;
	u64 cand = 0, m;
	u32 n = 0, s;

	for (m = sm->used; m; m &= m - 1)
		if (sm->block[__ffs64(m)].prio > prio)
			cand |= BIT_ULL(__ffs64(m));
	g->scratch = sm->res;
	while (cand) {
		s = vgpu_gpu_victim(sm, cand);
		cand &= ~BIT_ULL(s);
		*place = sm->block[s].place;
		vgpu_sm_res_free_block(&g->scratch, place);
		n++;
		if (vgpu_sm_res_block_fits(&g->scratch, shape))
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

/* First-fit path (a): place @k's next block on SM @i if it fits. */
static bool vgpu_gpu_try_add(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			     u32 i, struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm = &g->sm[i].sm;
	const struct vgpu_kernel_desc *d;
	u32 bid, wbase;
	u64 before = sm->used;

	d = vgpu_gpu_unit(k, k->next_unit, &bid, &wbase);
	if (vgpu_sm_block_add(sm, d, bid, k->eff_prio, VGPU_PLACE_BLOCK))
		return false;
	m->sm = i;
	m->pre = true;
	m->pre_slot = __ffs64(sm->used & ~before);
	return true;
}

/* Does @shape fit SM @i by @path ((a) whole block or (b) one warp)? */
static bool vgpu_gpu_fits(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  const struct vgpu_block_shape *shape, u32 path, u32 i)
{
	const struct vgpu_sm_res *res = &g->sm[i].sm.res;

	if (!vgpu_gpu_sm_allowed(g, k, i))
		return false;
	if (path == VGPU_PATH_BLOCK)
		return vgpu_gpu_may_fit(res, shape, shape->warps) &&
		       vgpu_sm_res_block_fits(res, shape);
	return vgpu_gpu_may_fit(res, shape, 1) &&
	       vgpu_sm_res_warp_fits(res, shape);
}

/*
 * The SMs @shape fits by @path, chosen by the policy (F25): a first-fit
 * policy stops at the first SM at or after the round-robin pointer.
 */
static bool vgpu_gpu_scan(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  const struct vgpu_block_shape *shape, u32 path,
			  struct vgpu_gpu_match *m)
{
	u32 i, j, n = 0, nsms = g->cfg.num_sms;

	if (g->policy->first_fit) {
		for (j = 0, i = g->rr_next; j < nsms; j++, i++) {
			if (i == nsms)
				i = 0;
			if (path == VGPU_PATH_BLOCK && !k->nsaved) {
				/* allocating is the exact test: keep it */
				if (vgpu_gpu_sm_allowed(g, k, i) &&
				    vgpu_gpu_may_fit(&g->sm[i].sm.res, shape,
						     shape->warps) &&
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
	for (i = 0; i < nsms; i++)
		if (vgpu_gpu_fits(g, k, shape, path, i))
			vgpu_gpu_cand_add(g, &n, i);
	if (!n)
		return false;
	m->sm = vgpu_gpu_policy_pick(g, shape, n);
	return true;
}

/*
 * F23 (c): the SM whose highest resident priority is the lowest below
 * @k's, ties by the fixed SM list, among those the preemption mode can
 * use.  The candidate map holds the SMs by that priority in list order,
 * so the first SM that passes the mode's test is the answer and only the
 * SMs before it are looked at, not every SM.
 */
static bool vgpu_gpu_preempt_scan(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k,
				  const struct vgpu_block_shape *shape,
				  struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm;
	u32 prio, w, i;
	u64 *row, bits;

	if (g->p.preempt == VGPU_PREEMPT_SWITCH && list_empty(&g->saved_free))
		return false;
	for (prio = VGPU_MAX_PRIOS - 1; prio > k->eff_prio; prio--) {
		if (!g->top_n[prio])
			continue;
		row = vgpu_gpu_top_row(g, prio);
		for (w = 0; w < g->top_words; w++) {
			for (bits = row[w]; bits; bits &= bits - 1) {
				i = g->pos_sm[w * 64 + __ffs64(bits)];
				sm = &g->sm[i].sm;
				if (!vgpu_gpu_sm_allowed(g, k, i))
					continue;
				if (g->p.preempt == VGPU_PREEMPT_WARP &&
				    !vgpu_gpu_block_level_fits(&sm->res, shape))
					continue;
				if (g->p.preempt == VGPU_PREEMPT_SWITCH &&
				    !vgpu_gpu_switch_victims(g, sm, k->eff_prio,
							     shape))
					continue;
				m->sm = i;
				return true;
			}
		}
	}
	return false;
}

/* F23: find how and where @k's next unit can go.  True if it can. */
static bool vgpu_gpu_match(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   struct vgpu_gpu_match *m)
{
	const struct vgpu_block_shape *shape = vgpu_gpu_next_shape(k);
	bool resume = k->nsaved > 0;

	m->sm = 0;
	m->pre = false;
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
	if (g->p.preempt == VGPU_PREEMPT_DRAIN ||
	    (g->p.preempt == VGPU_PREEMPT_WARP && (k->uses_bar || resume)))
		return false;
	m->path = VGPU_PATH_PREEMPT;
	return vgpu_gpu_preempt_scan(g, k, shape, m);
}

/* Record a block that went into slot @slot of SM @sm. */
static void vgpu_gpu_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
				u32 sm, u32 slot, u32 unit, u64 start_at,
				u32 path)
{
	struct vgpu_gpu_shadow *sh = &g->sm[sm].shadow[slot];
	const struct vgpu_sm_block *b = &g->sm[sm].sm.block[slot];

	g->sm[sm].shadow_used |= BIT_ULL(slot);
	sh->k = k;
	sh->unit = unit;
	sh->start_at = start_at;
	sh->start_seen = start_at != VGPU_GPU_NO_CYCLE;
	sh->done = false;
	k->inflight++;
	k->quota_used++;
	g->stats.blocks++;
	if (k->t_dispatch == VGPU_GPU_NO_CYCLE)
		k->t_dispatch = g->now;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_DISPATCH, k, b->block_idx, ~0U, sm,
		      path, b->n_warps);
}

/* Requeue a kernel that has work again at the head of its channel. */
static void vgpu_gpu_requeue(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (k->state != VGPU_KS_DRAINING)
		return;
	k->state = VGPU_KS_QUEUED;
	vgpu_gpu_slot_release(g, k);
	list_add(&k->chan_node, &g->chan[k->channel].fifo);
}

/* Resources were freed: every earlier no-fit may fit now. */
static void vgpu_gpu_forget_nofit(struct vgpu_gpu *g)
{
	memset(g->failed, 0, sizeof(g->failed));
	g->nnofit = 0;
}

/* Switch out lower-priority blocks of SM @i until @shape fits. */
static void vgpu_gpu_switch_out(struct vgpu_gpu *g, u32 i,
				struct vgpu_gpu_kernel *k,
				const struct vgpu_block_shape *shape)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	struct vgpu_sm *sm = &gs->sm;
	struct vgpu_gpu_shadow *sh;
	struct vgpu_gpu_saved *s;
	struct vgpu_gpu_kernel *v;
	u64 cand = 0, m;
	u32 slot;

	for (m = sm->used; m; m &= m - 1)
		if (sm->block[__ffs64(m)].prio > k->eff_prio)
			cand |= BIT_ULL(__ffs64(m));
	while (cand && !vgpu_sm_res_block_fits(&sm->res, shape) &&
	       !list_empty(&g->saved_free)) {
		slot = vgpu_gpu_victim(sm, cand);
		cand &= ~BIT_ULL(slot);
		sh = &gs->shadow[slot];
		v = sh->k;
		s = list_first_entry(&g->saved_free, struct vgpu_gpu_saved,
				     node);
		vgpu_gpu_emit(g, g->now, VGPU_GEV_PREEMPT, v,
			      sm->block[slot].block_idx, ~0U, i, k->id,
			      sm->block[slot].n_warps);
		s->unit = sh->unit;
		s->start_at = sh->start_at;
		vgpu_sm_block_save(sm, slot, &s->s);
		memset(sh, 0, sizeof(*sh));
		gs->shadow_used &= ~BIT_ULL(slot);
		list_del(&s->node);
		list_add_tail(&s->node, &v->saved);
		v->inflight--;
		v->nsaved++;
		v->preempted++;
		g->stats.preemptions++;
		vgpu_gpu_requeue(g, v);
		vgpu_gpu_forget_nofit(g);
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
		vgpu_gpu_switch_out(g, m->sm, k, vgpu_gpu_next_shape(k));
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
		return 1;
	}
	want = k->units - k->next_unit;
	if (path != VGPU_PATH_BLOCK || (k->flags & VGPU_KF_SEQUENTIAL))
		want = 1;
	if (k->quota && k->quota > k->quota_used)
		want = min(want, k->quota - k->quota_used);
	mode = path == VGPU_PATH_BLOCK ? VGPU_PLACE_BLOCK : VGPU_PLACE_WARP;
	if (m->pre) {
		vgpu_gpu_dispatched(g, k, m->sm, m->pre_slot, k->next_unit,
				    VGPU_GPU_NO_CYCLE, m->path);
		k->next_unit++;
		n++;
	}
	while (n < want) {
		d = vgpu_gpu_unit(k, k->next_unit, &bid, &wbase);
		if (n && !vgpu_gpu_may_fit(&sm->res, &d->shape,
					   mode == VGPU_PLACE_BLOCK ?
					   d->shape.warps : 1))
			break;
		before = sm->used;
		if (vgpu_sm_block_add(sm, d, bid, k->eff_prio, mode))
			break;
		vgpu_gpu_dispatched(g, k, m->sm, vgpu_gpu_new_slot(sm, before),
				    k->next_unit, VGPU_GPU_NO_CYCLE, m->path);
		k->next_unit++;
		n++;
		if (m->path == VGPU_PATH_PREEMPT &&
		    g->p.preempt == VGPU_PREEMPT_WARP)
			g->stats.preemptions++;
	}
	return n;
}

/* Sort key of a candidate: rank (F22), F21 flag, quota (F26), age. */
static bool vgpu_gpu_before(const struct vgpu_gpu *g,
			    const struct vgpu_gpu_kernel *a,
			    const struct vgpu_gpu_kernel *b)
{
	u32 ra = a->eff_prio == g->window ? 0 : a->eff_prio + 1;
	u32 rb = b->eff_prio == g->window ? 0 : b->eff_prio + 1;
	bool fa, fb, qa, qb;

	if (ra != rb)
		return ra < rb;
	fa = g->chan[a->channel].selected & BIT(a->eff_prio);
	fb = g->chan[b->channel].selected & BIT(b->eff_prio);
	if (fa != fb)
		return !fa;
	qa = a->quota && a->quota_used >= a->quota;
	qb = b->quota && b->quota_used >= b->quota;
	if (qa != qb)
		return !qa;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->seq < b->seq;
}

/* F21 and F26 bookkeeping after @k won a decision. */
static void vgpu_gpu_chosen(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;
	u32 bit = BIT(k->eff_prio), i, w;
	bool all = true;
	u64 m;

	g->chan[k->channel].selected |= bit;
	for (w = 0; w < DIV_ROUND_UP(g->p.task_slots, 64); w++) {
		for (m = g->slot_used[w]; m; m &= m - 1) {
			o = g->slot[w * 64 + __ffs64(m)];
			if (o == k || o->eff_prio != k->eff_prio)
				continue;
			if (!(g->chan[o->channel].selected & bit))
				all = false;
			/* a peer of equal priority ran: quotas restart */
			if (o->quota && o->quota_used >= o->quota)
				o->quota_used = 0;
		}
	}
	if (all) {
		for (i = 0; i < g->p.max_channels; i++)
			if (i != k->channel)
				g->chan[i].selected &= ~bit;
	}
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

/* One dispatch round: the best matching candidate gets one decision. */
static bool vgpu_gpu_round(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *best;
	struct vgpu_gpu_match m, best_m;
	u32 i, n, w, nw = DIV_ROUND_UP(g->p.task_slots, 64);
	u64 done_mask[VGPU_GPU_MAX_SLOTS / 64] = { 0 }, c;

	/* Candidates in preference order; the first that matches wins. */
	for (;;) {
		best = NULL;
		for (w = 0; w < nw; w++) {
			for (c = g->slot_used[w] & ~done_mask[w]; c;
			     c &= c - 1) {
				i = w * 64 + __ffs64(c);
				k = g->slot[i];
				if (g->slot_dealloc[i])
					continue;
				if (!vgpu_gpu_eligible(g, k) ||
				    vgpu_gpu_known_nofit(g, k)) {
					done_mask[w] |= BIT_ULL(i % 64);
					continue;
				}
				if (!best || vgpu_gpu_before(g, k, best))
					best = k;
			}
		}
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
	if (k->quota && k->quota_used >= k->quota)
		k->quota_used = 0;
	n = vgpu_gpu_place(g, k, &best_m);
	vgpu_gpu_top_sync(g, best_m.sm);
	if (!n)
		return false;
	g->stats.decisions++;
	g->rr_next = best_m.sm + 1 < g->cfg.num_sms ? best_m.sm + 1 : 0;
	vgpu_gpu_chosen(g, k);
	if (!vgpu_gpu_undispatched(k)) {
		/* F13: the slot gets a deallocation request */
		k->state = VGPU_KS_DRAINING;
		if (!list_empty(&k->chan_node))
			list_del_init(&k->chan_node);
		g->slot_dealloc[k->slot] = 1;
	}
	return true;
}

/* The kernel a channel presents: its oldest unfinished, arrived one. */
static struct vgpu_gpu_kernel *vgpu_gpu_chan_head(struct vgpu_gpu *g, u32 ch)
{
	struct vgpu_gpu_kernel *k;

	k = list_first_entry_or_null(&g->chan[ch].fifo,
				     struct vgpu_gpu_kernel, chan_node);
	if (!k || !vgpu_gpu_arrived(g, k))
		return NULL;
	return k;
}

/* Waiting order (F13): priority, then oldest timestamp. */
static bool vgpu_gpu_older(const struct vgpu_gpu_kernel *a,
			   const struct vgpu_gpu_kernel *b)
{
	if (a->eff_prio != b->eff_prio)
		return a->eff_prio < b->eff_prio;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->seq < b->seq;
}

static void vgpu_gpu_admit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   u32 s)
{
	vgpu_gpu_slot_set(g, s, k);
	g->slot_dealloc[s] = 0;
	k->slot = s;
	k->state = VGPU_KS_ACTIVE;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_ADMIT, k, ~0U, ~0U, ~0U, s, 0);
}

/* F13: free deallocated slots, admit channel heads, evict if needed. */
static void vgpu_gpu_table_update(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *w, *low;
	u32 i, free_slot, low_slot;

	for (i = 0; i < g->p.task_slots; i++) {
		if (g->slot[i] && g->slot_dealloc[i]) {
			g->slot[i]->slot = ~0U;
			vgpu_gpu_slot_set(g, i, NULL);
			g->slot_dealloc[i] = 0;
		}
	}
	for (;;) {
		w = NULL;
		for (i = 0; i < g->p.max_channels; i++) {
			k = vgpu_gpu_chan_head(g, i);
			if (k && k->slot == ~0U && (!w || vgpu_gpu_older(k, w)))
				w = k;
		}
		if (!w)
			return;
		free_slot = ~0U;
		low = NULL;
		low_slot = 0;
		for (i = 0; i < g->p.task_slots; i++) {
			k = g->slot[i];
			if (!k) {
				if (free_slot == ~0U)
					free_slot = i;
				continue;
			}
			if (g->slot_dealloc[i])
				continue;
			if (!low || vgpu_gpu_older(low, k)) {
				low = k;
				low_slot = i;
			}
		}
		if (free_slot != ~0U) {
			vgpu_gpu_admit(g, w, free_slot);
			continue;
		}
		if (!low || low->eff_prio <= w->eff_prio)
			return;
		/* evict: it stops issuing and waits to resume later */
		vgpu_gpu_emit(g, g->now, VGPU_GEV_EVICT, low, ~0U, ~0U, ~0U,
			      low_slot, w->id);
		low->slot = ~0U;
		low->state = VGPU_KS_QUEUED;
		vgpu_gpu_slot_set(g, low_slot, NULL);
		g->stats.evictions++;
		vgpu_gpu_admit(g, w, low_slot);
	}
}

/*
 * F24: split the first waiting independent kernel into single-warp
 * sub-blocks at the lowest priority; each takes its share of the block's
 * shared memory (independent warps share nothing).
 */
static void vgpu_gpu_split(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *best = NULL;
	struct vgpu_kernel_desc *d;
	u32 left;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (!(k->flags & VGPU_KF_INDEPENDENT) || k->split ||
		    !vgpu_gpu_arrived(g, k) || k->next_unit >= k->units)
			continue;
		if (!best || vgpu_gpu_older(k, best))
			best = k;
	}
	if (!best)
		return;
	d = &best->split_desc;
	*d = best->desc;
	d->grid = best->grid * best->warps;
	d->threads = min(best->threads, g->cfg.warp_size);
	d->smem_bytes = DIV_ROUND_UP(best->smem, best->warps);
	d->prio = g->cfg.num_prios - 1;
	if (vgpu_block_shape_init(&d->shape, &g->cfg, d->threads,
				  d->regs_per_thread, d->smem_bytes, 0, NULL))
		return;
	left = best->grid - best->next_unit;
	best->split = true;
	best->split_from = best->next_unit;
	best->units = best->next_unit + left * best->warps;
	best->eff_prio = g->cfg.num_prios - 1;
	g->stats.splits++;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SPLIT, best, best->split_from, ~0U,
		      ~0U, left, best->eff_prio);
}

/* Merge the SMs' buffered events in (cycle, SM, sequence) order. */
static void vgpu_gpu_merge_events(struct vgpu_gpu *g)
{
	u32 *pos = g->cursor, i, best;
	struct vgpu_gpu_sm *gs;

	for (i = 0; i < g->cfg.num_sms; i++)
		pos[i] = 0;
	for (;;) {
		best = ~0U;
		for (i = 0; i < g->cfg.num_sms; i++) {
			gs = &g->sm[i];
			if (pos[i] >= gs->nev)
				continue;
			if (best == ~0U || gs->ev[pos[i]].cycle <
			    g->sm[best].ev[pos[best]].cycle)
				best = i;
		}
		if (best == ~0U)
			break;
		vgpu_gpu_put_event(g, &g->sm[best].ev[pos[best]++], false);
	}
	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].nev = 0;
}

/* Account what the SMs did in the epoch that just ended. */
static void vgpu_gpu_collect(struct vgpu_gpu *g)
{
	struct vgpu_gpu_shadow *sh;
	struct vgpu_gpu_kernel *k;
	u32 i, j;
	u64 m;

	if (g->sink)
		vgpu_gpu_merge_events(g);
	else
		for (i = 0; i < g->cfg.num_sms; i++)
			g->sm[i].nev = 0;
	for (i = 0; i < g->cfg.num_sms; i++) {
		for (m = g->sm[i].shadow_used; m; m &= m - 1) {
			j = __ffs64(m);
			sh = &g->sm[i].shadow[j];
			k = sh->k;
			if (sh->start_at != VGPU_GPU_NO_CYCLE &&
			    !sh->start_seen) {
				sh->start_seen = true;
				k->t_start = min(k->t_start, sh->start_at);
			}
			if (!sh->done)
				continue;
			k->inflight--;
			k->done_units++;
			if (k->t_end == VGPU_GPU_NO_CYCLE || sh->done_at > k->t_end)
				k->t_end = sh->done_at;
			memset(sh, 0, sizeof(*sh));
			g->sm[i].shadow_used &= ~BIT_ULL(j);
			if (k->done_units == k->units && !k->inflight &&
			    !k->nsaved) {
				vgpu_gpu_emit(g, k->t_end, VGPU_GEV_KERNEL_DONE,
					      k, ~0U, ~0U, ~0U, k->units, 0);
				vgpu_gpu_kernel_retire(g, k, VGPU_KS_DONE);
			}
		}
	}
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

/**
 * vgpu_gpu_next_arrival() - earliest arrival of a kernel not yet arrived
 * @g: the device
 *
 * Return: its cycle, or VGPU_GPU_NO_CYCLE.
 */
u64 vgpu_gpu_next_arrival(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	u64 t = VGPU_GPU_NO_CYCLE;

	list_for_each_entry(k, &g->kernels, table_node)
		if (k->arrival > g->now && k->arrival < t)
			t = k->arrival;
	return t;
}

/* Nothing can happen before the next arrival: jump to its epoch. */
static void vgpu_gpu_skip_idle(struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	u64 next, d;
	u32 i;

	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_sm_empty(g, i))
			return;
	list_for_each_entry(k, &g->kernels, table_node)
		if (vgpu_gpu_arrived(g, k))
			return;
	next = vgpu_gpu_next_arrival(g);
	if (next == VGPU_GPU_NO_CYCLE)
		return;
	d = next - g->now;
	d = div_u64(d + g->p.epoch - 1, g->p.epoch) * g->p.epoch;
	g->now += d;
	for (i = 0; i < g->cfg.num_sms; i++)
		g->sm[i].sm.now = g->now;
}

/* Kernels arriving at this boundary: events and the busy test. */
static void vgpu_gpu_arrivals(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	bool busy;
	u32 i;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (k->seen || k->arrival > g->now)
			continue;
		k->seen = true;
		busy = true;
		for (i = 0; i < g->cfg.num_sms && busy; i++)
			if (g->sm[i].sm.top_prio == VGPU_PRIO_NONE ||
			    g->sm[i].sm.top_prio <= k->eff_prio)
				busy = false;
		k->busy_arrival = busy;
		vgpu_gpu_emit(g, k->arrival, VGPU_GEV_SUBMIT, k, ~0U, ~0U, ~0U,
			      k->prio, k->channel);
	}
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
 * row split an independent kernel (F24).
 *
 * Return: the cycle the SMs must now be advanced to (the epoch end).
 */
u64 vgpu_gpu_dispatch(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	bool waiting = false;
	u64 before;
	u32 i;

	vgpu_gpu_collect(g);
	/* the epoch and any cancel changed what the SMs hold */
	for (i = 0; i < g->cfg.num_sms; i++)
		vgpu_gpu_top_sync(g, i);
	if (g->epoch_end > g->now)
		g->now = g->epoch_end;
	vgpu_gpu_skip_idle(g);
	vgpu_gpu_arrivals(g);
	vgpu_gpu_table_update(g);
	g->window = vgpu_gpu_window_at(g, g->now);
	if (!g->gated) {
		before = g->stats.decisions;
		vgpu_gpu_forget_nofit(g);
		while (vgpu_gpu_round(g))
			;
		list_for_each_entry(k, &g->kernels, table_node)
			if (vgpu_gpu_arrived(g, k) && vgpu_gpu_undispatched(k))
				waiting = true;
		if (g->stats.decisions != before || !waiting) {
			g->fail_rounds = 0;
		} else {
			g->stats.failed_rounds++;
			if (++g->fail_rounds >= g->p.g_max) {
				g->fail_rounds = 0;
				vgpu_gpu_split(g);
			}
		}
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
	u32 i;

	for (i = first; i < first + count && i < g->cfg.num_sms; i++)
		vgpu_gpu_advance_sm(g, i);
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
 * vgpu_gpu_sm_top_prio() - highest resident priority of an SM (F33)
 * @g: the device
 * @sm: SM index
 *
 * Return: the priority, or VGPU_GPU_PRIO_NONE if no block is resident.
 */
u32 vgpu_gpu_sm_top_prio(const struct vgpu_gpu *g, u32 sm)
{
	return g->sm[sm].sm.top_prio;
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
