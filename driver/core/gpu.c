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
	else if (p->sync_cost > VGPU_MAX_LATENCY)
		bad = "sync_cost";
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
		if (sh->start_at == VGPU_GPU_NO_CYCLE)
			sh->start_at = ev->cycle;
		else if (!gs->verbose)
			return;
	} else if (gs->verbose && (ev->type == VGPU_EV_WARP_START ||
				   (ev->type == VGPU_EV_LOCK_ACQUIRE &&
				    ev->arg1 != VGPU_LOCK_HOW_FREE))) {
		/*
		 * Warp-level detail, only for a sink that asked for it, in
		 * its own share of the buffer: the block-level events keep
		 * theirs.
		 */
		if (gs->nwev >= gs->wevcap) {
			gs->lost++;
			return;
		}
		gs->nwev++;
	} else if (ev->type == VGPU_EV_LAUNCH) {
		gs->nlaunch++;	/* the controller makes the child (F15) */
	} else if (ev->type == VGPU_EV_BLOCK_DONE) {
		s = vgpu_gpu_sm_find(&gs->sm, ev->kernel, ev->block);
		if (s >= VGPU_MAX_BLOCKS_PER_SM)
			return;
		sh = &gs->shadow[s];
		sh->done = true;
		sh->done_at = ev->cycle;
	} else if (ev->type == VGPU_EV_SYNC) {
		/* block-level: at most one per block the SM is given (F17) */
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
	g->skip_until = VGPU_GPU_NO_CYCLE;
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
		gs->sm.sync_cost = p->sync_cost;
		gs->ev = ev + i * evcap;
		gs->evcap = evcap;
		gs->wevcap = 4 * cfg->max_warps_per_sm;
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
	for (i = 0; i < VGPU_GPU_ID_BUCKETS; i++)
		INIT_LIST_HEAD(&g->id_hash[i]);
	INIT_LIST_HEAD(&g->direct);
	INIT_LIST_HEAD(&g->inplace);
	g->next_child_id = VGPU_GPU_CHILD_ID0;
	INIT_LIST_HEAD(&g->queues);
	INIT_LIST_HEAD(&g->pushes);
	INIT_LIST_HEAD(&g->push_done);
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
	struct vgpu_sched_ops *pol = vgpu_policy_find(policies, name);
	u32 i;

	if (!pol)
		return -ENOENT;
	if (g->policy != pol)
		memset(g->policy_state, 0, sizeof(g->policy_state));
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
		[VGPU_GEV_LAUNCH - VGPU_GEV_SUBMIT] = "launch",
		[VGPU_GEV_SUSPEND - VGPU_GEV_SUBMIT] = "suspend",
		[VGPU_GEV_WAKE - VGPU_GEV_SUBMIT] = "wake",
		[VGPU_GEV_FAIL - VGPU_GEV_SUBMIT] = "fail",
		[VGPU_GEV_PUSH - VGPU_GEV_SUBMIT] = "push",
		[VGPU_GEV_COALESCE - VGPU_GEV_SUBMIT] = "coalesce",
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
	g->chan[ch].policy_data[0] = 0;
	g->chan[ch].policy_data[1] = 0;
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

/* The bits of SMs that exist in word @w of an affinity mask. */
static u64 vgpu_gpu_aff_valid(const struct vgpu_gpu *g, u32 w)
{
	u32 n = g->cfg.num_sms;

	if (n >= (w + 1) * 64)
		return ~0ULL;
	if (n <= w * 64)
		return 0;
	return BIT_ULL(n - w * 64) - 1;
}

static bool vgpu_gpu_aff_any(const struct vgpu_gpu_kernel *k)
{
	u32 i;

	for (i = 0; i < VGPU_GPU_AFF_WORDS; i++)
		if (k->affinity[i])
			return true;
	return false;
}

static void vgpu_gpu_kernel_enter(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k);

/*
 * Validate and link the templates of a submitted kernel once for its whole
 * tree (F15): each must be a valid kernel whose block fits an empty SM and
 * whose LAUNCHes name templates of the same array.
 */
static int vgpu_gpu_tmpl_init(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_sm_res *empty = &g->scratch;
	struct vgpu_gpu_template *t;
	struct vgpu_kernel_desc *d;
	u32 i;

	vgpu_sm_res_init(empty, &g->cfg);
	for (i = 0; i < k->n_tmpl; i++) {
		t = &k->tmpl[i];
		d = &t->desc;
		if (t->flags & ~(VGPU_KF_INDEPENDENT | VGPU_KF_SEQUENTIAL) ||
		    !t->grid || !t->threads || !t->prog || !t->n_insns ||
		    !t->match)
			return -EINVAL;
		memset(d, 0, sizeof(*d));
		d->grid = t->grid;
		d->threads = t->threads;
		d->regs_per_thread = t->regs;
		d->smem_bytes = t->smem;
		if (vgpu_block_shape_init(&d->shape, &g->cfg, t->threads,
					  t->regs, t->smem, 0, NULL))
			return -E2BIG;
		if (vgpu_kernel_desc_init(d, &g->cfg, t->prog, t->n_insns,
					  t->match))
			return -EINVAL;
		if (((d->sum.uses_bar || d->sum.uses_launch) &&
		     (t->flags & VGPU_KF_INDEPENDENT)) ||
		    d->sum.launch_mask >> k->n_tmpl)
			return -EINVAL;
		if (!vgpu_sm_res_block_fits(empty, &d->shape))
			return -E2BIG;
	}
	return 0;
}

/* F14: a queue kernel has queue fields and no grid, another the reverse. */
static int vgpu_gpu_queue_check(const struct vgpu_gpu_kernel *k)
{
	if (!(k->flags & VGPU_KF_QUEUE))
		return !k->grid || k->queue_n || k->queue_cap ||
		       k->queue_timeout ? -EINVAL : 0;
	if (k->grid || !k->queue_n || k->queue_n > VGPU_MAX_COALESCE ||
	    !k->queue_cap || k->queue_cap > VGPU_MAX_QUEUE_ITEMS ||
	    !k->queue_timeout || k->queue_timeout > VGPU_GPU_MAX_QTIMEOUT)
		return -EINVAL;
	return 0;
}

/* F14: the queue state of a kernel entering the device. */
static void vgpu_gpu_queue_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	k->q_wait = 0;
	k->q_pending = 0;
	k->q_ready = 0;
	k->q_closing = false;
	k->q_closed = false;
	k->q_last = 0;
	k->q_close_at = 0;
	k->q_items = 0;
	INIT_LIST_HEAD(&k->q_fifo);
	INIT_LIST_HEAD(&k->q_pend);
	INIT_LIST_HEAD(&k->q_node);
	if (k->flags & VGPU_KF_QUEUE)
		list_add_tail(&k->q_node, &g->queues);
}

/**
 * vgpu_gpu_submit() - submit a kernel to its channel (F10, F11)
 * @g: the device
 * @k: caller-allocated descriptor with the F10 fields filled, a program
 *	that passed vgpu_isa_validate() and, for child kernels (F15), its
 *	templates and child budget with their storage; the core owns the
 *	other fields until vgpu_gpu_kernel_finished()
 *
 * Return: 0; -EINVAL for a bad field (unknown flag, priority, empty grid,
 * invalid program, independent kernel with BAR or LAUNCH, empty affinity,
 * too many templates, a bad template, a LAUNCH of a template index not
 * below @k->n_tmpl in its program or a template's, a child budget above
 * VGPU_MAX_CHILDREN or without storage); -ENOENT if the channel does not
 * exist; -E2BIG if a block (its own or a template's) can never fit an
 * empty SM.
 */
int vgpu_gpu_submit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_sm_res *empty = &g->scratch;
	struct vgpu_kernel_desc *d = &k->desc;
	struct vgpu_gpu_kernel *o;
	u64 valid;
	bool any;
	u32 i;
	int ret;

	if (k->flags & ~VGPU_KF_ALL || k->prio >= g->cfg.num_prios ||
	    !k->prog || !k->n_insns || !k->match || !k->threads ||
	    vgpu_gpu_queue_check(k))
		return -EINVAL;
	if (k->n_tmpl > VGPU_MAX_TEMPLATES || (k->n_tmpl && !k->tmpl) ||
	    k->child_budget > VGPU_MAX_CHILDREN ||
	    (k->child_budget && !k->child_store))
		return -EINVAL;
	if (k->channel >= g->p.max_channels || !g->chan[k->channel].used)
		return -ENOENT;
	list_for_each_entry(o, &g->id_hash[k->id % VGPU_GPU_ID_BUCKETS],
			    id_node)
		if (o->id == k->id)
			return -EEXIST;
	memset(d, 0, sizeof(*d));
	d->id = k->id;
	d->prio = k->prio;
	/* a queue kernel's blocks are numbered as they launch (F14) */
	d->grid = k->flags & VGPU_KF_QUEUE ? ~0U : k->grid;
	d->threads = k->threads;
	d->regs_per_thread = k->regs;
	d->smem_bytes = k->smem;
	d->prio_wid_mod = k->prio_wid_mod;
	if (vgpu_block_shape_init(&d->shape, &g->cfg, k->threads, k->regs,
				  k->smem, 0, NULL))
		return -E2BIG;
	if (vgpu_kernel_desc_init(d, &g->cfg, k->prog, k->n_insns, k->match))
		return -EINVAL;
	/* a split breaks blocks apart: no BAR, no LAUNCH (F24, F15) */
	if ((d->sum.uses_bar || d->sum.uses_launch) &&
	    (k->flags & VGPU_KF_INDEPENDENT))
		return -EINVAL;
	if (d->sum.launch_mask >> k->n_tmpl)
		return -EINVAL;
	/* word by word: SUBMIT pays this for every kernel (F60) */
	any = vgpu_gpu_aff_any(k);
	k->aff_all = true;
	for (i = 0; i < VGPU_GPU_AFF_WORDS; i++) {
		valid = vgpu_gpu_aff_valid(g, i);
		k->affinity[i] = any ? k->affinity[i] & valid : valid;
		if (k->affinity[i] != valid)
			k->aff_all = false;
	}
	if (!vgpu_gpu_aff_any(k))
		return -EINVAL;
	vgpu_sm_res_init(empty, &g->cfg);
	if (!vgpu_sm_res_block_fits(empty, &d->shape))
		return -E2BIG;
	ret = vgpu_gpu_tmpl_init(g, k);
	if (ret)
		return ret;
	vgpu_gpu_kernel_enter(g, k);
	k->parent = NULL;
	k->root = k;
	k->depth = 0;
	k->tmpl_idx = 0;
	list_add_tail(&k->chan_node, &g->chan[k->channel].fifo);
	list_add_tail(&k->table_node, &g->kernels);
	list_add_tail(&k->id_node, &g->id_hash[k->id % VGPU_GPU_ID_BUCKETS]);
	g->nkernels++;
	if (g->policy->submitted)
		g->policy->submitted(g, k);
	return 0;
}

/* The core's fields of a kernel entering the device, submitted or child. */
static void vgpu_gpu_kernel_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	const struct vgpu_kernel_desc *d = &k->desc;

	/* F23: a block that may wait at a LAUNCH is never partial either */
	k->uses_bar = d->sum.uses_bar || d->sum.uses_launch_wait;
	INIT_LIST_HEAD(&k->id_node);
	k->policy_data[0] = 0;
	k->policy_data[1] = 0;
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
	vgpu_gpu_queue_enter(g, k);
	k->error = 0;
	k->launched = 0;
	k->children = 0;
	k->nsusp = 0;
	k->waiter = NULL;
	k->wait_sm = ~0U;
	k->wait_slot = 0;
	INIT_LIST_HEAD(&k->wait_node);
}

/**
 * vgpu_gpu_kernel_finished() - may the caller free the descriptor?
 * @k: a submitted kernel
 *
 * A submitted kernel finishes after every child of its tree (F15), so its
 * templates and child storage may go with it.
 *
 * Return: true once it is done, cancelled or failed.
 */
bool vgpu_gpu_kernel_finished(const struct vgpu_gpu_kernel *k)
{
	return k->state == VGPU_KS_DONE || k->state == VGPU_KS_CANCELLED ||
	       k->state == VGPU_KS_FAILED;
}

static bool vgpu_gpu_arrived(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k)
{
	return k->arrival <= g->now;
}

/* Undispatched units, switched-out ones included (F12). */
static u32 vgpu_gpu_undispatched(const struct vgpu_gpu_kernel *k)
{
	return k->units - k->next_unit + k->nsaved + k->q_ready;
}

/* F14: a queue kernel that is open, or closed with items still waiting. */
static bool vgpu_gpu_q_open(const struct vgpu_gpu_kernel *k)
{
	return (k->flags & VGPU_KF_QUEUE) && (!k->q_closed || k->q_wait);
}

/* F14: the core is done with push record @p. */
static void vgpu_gpu_push_retire(struct vgpu_gpu *g, struct vgpu_gpu_push *p)
{
	p->done = true;
	list_add_tail(&p->node, &g->push_done);
}

/* F14: drop the waiting and pending items of a kernel leaving the device. */
static void vgpu_gpu_queue_leave(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_push *p, *tmp;

	if (!(k->flags & VGPU_KF_QUEUE))
		return;
	list_for_each_entry_safe(p, tmp, &k->q_fifo, node) {
		list_del(&p->node);
		vgpu_gpu_push_retire(g, p);
	}
	/*
	 * Every push of @k not arrived yet, the item-less close too (which
	 * q_pending does not count): left here it would name a kernel gone.
	 * Its own list: a file closing with many queue kernels must not walk
	 * every push of the device for each of them.
	 */
	list_for_each_entry_safe(p, tmp, &k->q_pend, knode) {
		list_del_init(&p->knode);
		list_del(&p->node);
		vgpu_gpu_push_retire(g, p);
	}
	k->q_wait = 0;
	k->q_pending = 0;
	k->q_ready = 0;
	list_del_init(&k->q_node);
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
	list_del_init(&k->id_node);
	vgpu_gpu_queue_leave(g, k);
	g->nkernels--;
	k->state = state;
}

/*
 * Child @c is stopped, and so is its parent (the whole tree stops, F15):
 * give back the save record of the parent's block that waits for it
 * switched out (the parent counts it as dropped), forget one that waits
 * on its SM.
 */
static void vgpu_gpu_unwait(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c)
{
	if (c->waiter) {
		list_add(&c->waiter->node, &g->saved_free);
		c->waiter = NULL;
	}
	if (c->wait_sm != ~0U) {
		g->sm[c->wait_sm].shadow[c->wait_slot].wait = NULL;
		list_del_init(&c->wait_node);
		c->wait_sm = ~0U;
	}
}

/*
 * Remove @k from the device: its undispatched blocks are dropped, its
 * resident, switched-out and suspended blocks removed at once with their
 * resources.  It ends in @state (VGPU_KS_CANCELLED or VGPU_KS_FAILED) with
 * @error; a failure is a VGPU_GEV_FAIL event, anything else a CANCEL.
 */
static void vgpu_gpu_stop(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  u32 state, int error)
{
	struct vgpu_gpu_shadow *sh;
	struct list_head *e;
	u32 i, j, n = 0;

	/* nothing of it is on an SM unless a unit is in flight */
	for (i = 0; k->inflight && i < g->cfg.num_sms; i++) {
		n += vgpu_sm_cancel_kernel(&g->sm[i].sm, k->id);
		for (j = 0; j < VGPU_MAX_BLOCKS_PER_SM; j++) {
			sh = &g->sm[i].shadow[j];
			if (sh->k != k)
				continue;
			/* started in the epoch that just ended (F15 failure) */
			if (sh->start_at != VGPU_GPU_NO_CYCLE && !sh->start_seen)
				k->t_start = min(k->t_start, sh->start_at);
			if (sh->wait) {
				list_del_init(&sh->wait->wait_node);
				sh->wait->wait_sm = ~0U;
			}
			memset(sh, 0, sizeof(*sh));
			g->sm[i].shadow_used &= ~BIT_ULL(j);
		}
	}
	while (!list_empty(&k->saved)) {
		e = k->saved.next;
		list_del(e);
		list_add(e, &g->saved_free);
	}
	if (k->parent)
		vgpu_gpu_unwait(g, k);
	n += k->nsaved + k->nsusp + k->units - k->next_unit;
	k->nsaved = 0;
	k->nsusp = 0;
	k->inflight = 0;
	k->error = error;
	if (state == VGPU_KS_FAILED) {
		k->t_end = g->now;	/* when it failed */
		g->stats.failed++;
		vgpu_gpu_emit(g, g->now, VGPU_GEV_FAIL, k, ~0U, ~0U, ~0U,
			      -error, n);
	} else {
		vgpu_gpu_emit(g, g->now, VGPU_GEV_CANCEL, k, ~0U, ~0U, ~0U, n,
			      0);
	}
	vgpu_gpu_kernel_retire(g, k, state);
	if (g->policy->cancelled)
		g->policy->cancelled(g, k);
}

/*
 * Stop the tree of submitted kernel @r (F15): its unfinished children,
 * the most recent first, then @r.  Kernels whose @error is set (the path
 * of a failure) fail with it, the others are cancelled.
 */
static void vgpu_gpu_stop_tree(struct vgpu_gpu *g, struct vgpu_gpu_kernel *r)
{
	struct vgpu_gpu_kernel *c;
	u32 i;

	for (i = r->launched; i--;) {
		c = &r->child_store[i];
		if (vgpu_gpu_kernel_finished(c))
			continue;
		if (c->error)
			vgpu_gpu_stop(g, c, VGPU_KS_FAILED, c->error);
		else
			vgpu_gpu_stop(g, c, VGPU_KS_CANCELLED, -ECANCELED);
	}
	if (r->error)
		vgpu_gpu_stop(g, r, VGPU_KS_FAILED, r->error);
	else
		vgpu_gpu_stop(g, r, VGPU_KS_CANCELLED, 0);
}

/*
 * A LAUNCH of @k went beyond a limit (F15): @k and each of its ancestors
 * fail with @error, the rest of the tree is cancelled.
 */
static void vgpu_gpu_fail(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  int error)
{
	struct vgpu_gpu_kernel *x;

	for (x = k; x; x = x->parent)
		x->error = error;
	vgpu_gpu_stop_tree(g, k->root);
}

/**
 * vgpu_gpu_cancel() - cancel a kernel (F53) and its children (F15)
 * @g: the device, between two epochs
 * @k: a submitted, unfinished kernel
 *
 * Its undispatched blocks are dropped, its resident and switched-out
 * blocks removed at once with their resources, and so are those of every
 * unfinished child of its tree; nothing else is touched.  The descriptor,
 * its templates and its child storage are free when this returns.
 *
 * Return: 0, or -EINVAL if it already finished or is a child kernel (a
 * child goes with its tree).
 */
int vgpu_gpu_cancel(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (vgpu_gpu_kernel_finished(k) || k->state == VGPU_KS_NEW ||
	    k->parent)
		return -EINVAL;
	vgpu_gpu_stop_tree(g, k);
	return 0;
}

/**
 * vgpu_gpu_queue_push() - push work items to a queue kernel (F14)
 * @g: the device, between two epochs
 * @k: a submitted, unfinished kernel with VGPU_KF_QUEUE
 * @p: caller-allocated record with @p->arrival, @p->items and @p->flags
 *	set; the core owns it until vgpu_gpu_push_reap() returns it
 *
 * The items join the kernel's queue at the first boundary at or after
 * @p->arrival, which is raised to the arrival of the kernel's previous push
 * (the items of a kernel arrive in push order; VGPU_GEV_PUSH event).  From
 * then on a block launches for every queue_n waiting items, or with fewer
 * once the oldest of them waited queue_timeout cycles, or at once after
 * VGPU_GPU_PUSH_CLOSE arrived; a closed kernel completes when its blocks
 * have.  Items pushed and not yet arrived count against queue_cap.
 *
 * Return: 0; -EINVAL if @k is not an unfinished queue kernel, was closed
 * by an earlier push, or @p has unknown flags, more than queue_cap items
 * or none without VGPU_GPU_PUSH_CLOSE; -ENOSPC if more than queue_cap
 * items would wait.
 */
int vgpu_gpu_queue_push(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			struct vgpu_gpu_push *p)
{
	struct vgpu_gpu_push *o;

	if (!(k->flags & VGPU_KF_QUEUE) || k->state == VGPU_KS_NEW ||
	    vgpu_gpu_kernel_finished(k) || k->q_closing ||
	    p->flags & ~VGPU_GPU_PUSH_CLOSE || p->items > k->queue_cap ||
	    (!p->items && !(p->flags & VGPU_GPU_PUSH_CLOSE)))
		return -EINVAL;
	if ((u64)k->q_wait + k->q_pending + p->items > k->queue_cap)
		return -ENOSPC;
	if (p->arrival < k->q_last)
		p->arrival = k->q_last;
	k->q_last = p->arrival;
	p->k = k;
	p->left = p->items;
	p->seq = g->push_seq++;
	p->done = false;
	if (p->flags & VGPU_GPU_PUSH_CLOSE)
		k->q_closing = true;
	k->q_pending += p->items;
	/* by (arrival, push order): most pushes go at the tail */
	list_for_each_entry_reverse(o, &g->pushes, node)
		if (o->arrival <= p->arrival)
			break;
	list_add(&p->node, &o->node);
	list_add_tail(&p->knode, &k->q_pend);
	return 0;
}

/**
 * vgpu_gpu_push_reap() - a push record the core is done with (F14)
 * @g: the device
 *
 * A record is done when its items all went into blocks, when it only
 * closed the queue and arrived, or when its kernel finished (the waiting
 * and pending items of a cancelled kernel are discarded).
 *
 * Return: the record, which the caller may free, or NULL if none.
 */
struct vgpu_gpu_push *vgpu_gpu_push_reap(struct vgpu_gpu *g)
{
	struct vgpu_gpu_push *p;

	p = list_first_entry_or_null(&g->push_done, struct vgpu_gpu_push,
				     node);
	if (p)
		list_del_init(&p->node);
	return p;
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
	u32 i = g->policy->select_sm(&ctx, g->cands, n), j;

	if (i < n)
		return g->cands[i].sm;
	/* refused: the default's answer, round robin from the pointer */
	g->stats.policy_errors++;
	for (j = 0; j < n; j++)
		if (g->cands[j].sm >= g->rr_next)
			return g->cands[j].sm;
	return g->cands[0].sm;
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

/* F14: items the next block of @k takes: up to queue_n, 0 in a grid. */
static u32 vgpu_gpu_q_peek(const struct vgpu_gpu_kernel *k)
{
	return min(k->q_wait, k->queue_n);
}

/*
 * F14: the next block of queue kernel @k (block index @bid) launched: it
 * takes up to queue_n waiting items, the oldest first.
 */
static void vgpu_gpu_q_launch(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			      u32 bid)
{
	u32 items = vgpu_gpu_q_peek(k), n = items, t, why;
	struct vgpu_gpu_push *p;

	while (n) {
		p = list_first_entry(&k->q_fifo, struct vgpu_gpu_push, node);
		t = min(n, p->left);
		p->left -= t;
		n -= t;
		if (!p->left) {
			list_del(&p->node);
			vgpu_gpu_push_retire(g, p);
		}
	}
	k->q_wait -= items;
	k->q_ready--;
	k->units++;
	g->stats.queue_blocks++;
	why = VGPU_GPU_COALESCE_FULL;
	if (items < k->queue_n) {
		g->stats.queue_partial++;
		why = k->q_closed ? VGPU_GPU_COALESCE_CLOSE :
				    VGPU_GPU_COALESCE_TIMEOUT;
	}
	vgpu_gpu_emit(g, g->now, VGPU_GEV_COALESCE, k, bid, ~0U, ~0U, items,
		      why);
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
	if (vgpu_sm_block_add_items(sm, d, bid, vgpu_gpu_q_peek(k),
				    k->eff_prio, VGPU_PLACE_BLOCK))
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

	if (g->policy->first_fit || !g->policy->select_sm) {
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

/*
 * F23 (c) by the policy (policy.h @preempt): its SM if the core's rules
 * allow preempting there, else the default's (counted as an error).
 */
static bool vgpu_gpu_preempt_pick(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k,
				  const struct vgpu_block_shape *shape,
				  struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm;
	u32 i, top;

	if (!g->policy->preempt)
		return vgpu_gpu_preempt_scan(g, k, shape, m);
	i = g->policy->preempt(g, k);
	if (i == VGPU_POLICY_WAIT)
		return false;
	if (i < g->cfg.num_sms) {
		sm = &g->sm[i].sm;
		top = sm->top_prio;
		if (top < VGPU_MAX_PRIOS && top > k->eff_prio &&
		    vgpu_gpu_sm_allowed(g, k, i) &&
		    (g->p.preempt != VGPU_PREEMPT_WARP ||
		     vgpu_gpu_block_level_fits(&sm->res, shape)) &&
		    (g->p.preempt != VGPU_PREEMPT_SWITCH ||
		     (!list_empty(&g->saved_free) &&
		      vgpu_gpu_switch_victims(g, sm, k->eff_prio, shape)))) {
			m->sm = i;
			return true;
		}
	}
	g->stats.policy_errors++;
	return vgpu_gpu_preempt_scan(g, k, shape, m);
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
	return vgpu_gpu_preempt_pick(g, k, shape, m);
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
	if (k->t_dispatch == VGPU_GPU_NO_CYCLE) {
		k->t_dispatch = g->now;
		k->skip_dispatch = g->skipped;
	}
	vgpu_gpu_emit(g, g->now, VGPU_GEV_DISPATCH, k, b->block_idx, ~0U, sm,
		      path, b->n_warps);
	if (g->policy->dispatched)
		g->policy->dispatched(g, k, sm);
}

/* Requeue a kernel that has work again at the head of its channel. */
static void vgpu_gpu_requeue(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (k->state != VGPU_KS_DRAINING)
		return;
	k->state = VGPU_KS_QUEUED;
	vgpu_gpu_slot_release(g, k);
	/* a child enters the task table directly (F15) */
	list_add(&k->chan_node, k->parent ? &g->direct :
		 &g->chan[k->channel].fifo);
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
	struct vgpu_gpu_kernel *v, *c;
	struct vgpu_gpu_saved *s;
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
		c = sh->wait;
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
		v->inflight--;
		v->preempted++;
		g->stats.preemptions++;
		if (c) {
			/* it waits for child c: it comes back after it (F15) */
			list_del_init(&c->wait_node);
			c->wait_sm = ~0U;
			c->waiter = s;
			v->nsusp++;
		} else {
			list_add_tail(&s->node, &v->saved);
			v->nsaved++;
			vgpu_gpu_requeue(g, v);
		}
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
	want = k->units - k->next_unit + k->q_ready;
	if (path != VGPU_PATH_BLOCK || (k->flags & VGPU_KF_SEQUENTIAL))
		want = 1;
	if (k->quota && k->quota > k->quota_used)
		want = min(want, k->quota - k->quota_used);
	if (g->policy->pack && want > 1) {
		n = g->policy->pack(g, k, want);
		if (n && n <= want)
			want = n;
		else
			g->stats.policy_errors++;
		n = 0;
	}
	mode = path == VGPU_PATH_BLOCK ? VGPU_PLACE_BLOCK : VGPU_PLACE_WARP;
	if (m->pre) {
		if (k->flags & VGPU_KF_QUEUE)
			vgpu_gpu_q_launch(g, k, k->next_unit);
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
		if (vgpu_sm_block_add_items(sm, d, bid, vgpu_gpu_q_peek(k),
					    k->eff_prio, mode))
			break;
		if (k->flags & VGPU_KF_QUEUE)
			vgpu_gpu_q_launch(g, k, bid);
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

/*
 * Order within a priority level: the list a kernel joins at its tail, or
 * with VGPU_KF_HEAD at its head, when it arrives (F16).  So the HEAD
 * kernels come first, the one that arrived last first; then the others,
 * the oldest first.
 */
static bool vgpu_gpu_ahead(const struct vgpu_gpu_kernel *a,
			   const struct vgpu_gpu_kernel *b)
{
	bool ha = a->flags & VGPU_KF_HEAD, hb = b->flags & VGPU_KF_HEAD;

	if (ha != hb)
		return ha;
	if (a->arrival != b->arrival)
		return ha ? a->arrival > b->arrival : a->arrival < b->arrival;
	return ha ? a->seq > b->seq : a->seq < b->seq;
}

/* Sort key of a candidate: rank (F22), F21 flag, quota (F26), age (F16). */
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
	return vgpu_gpu_ahead(a, b);
}

/* The policy's candidate order (policy.h @select_before), or the seeds'. */
static bool vgpu_gpu_select_before(const struct vgpu_gpu *g,
				   const struct vgpu_gpu_kernel *a,
				   const struct vgpu_gpu_kernel *b)
{
	if (g->policy->select_before)
		return g->policy->select_before(g, a, b);
	return vgpu_gpu_before(g, a, b);
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
				if (!best || vgpu_gpu_select_before(g, k, best))
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
	if (!vgpu_gpu_undispatched(k) && !vgpu_gpu_q_open(k)) {
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
	return vgpu_gpu_ahead(a, b);
}

/* The policy's waiting order (policy.h @admit_before), or F13's. */
static bool vgpu_gpu_admit_before(const struct vgpu_gpu *g,
				  const struct vgpu_gpu_kernel *a,
				  const struct vgpu_gpu_kernel *b)
{
	if (g->policy->admit_before)
		return g->policy->admit_before(g, a, b);
	return vgpu_gpu_older(a, b);
}

/* May waiting @w take @victim's slot (policy.h @may_evict; F13)? */
static bool vgpu_gpu_may_evict(const struct vgpu_gpu *g,
			       const struct vgpu_gpu_kernel *w,
			       const struct vgpu_gpu_kernel *victim)
{
	if (g->policy->may_evict)
		return g->policy->may_evict(g, w, victim);
	return victim->eff_prio > w->eff_prio;
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
			if (k && k->slot == ~0U &&
			    (!w || vgpu_gpu_admit_before(g, k, w)))
				w = k;
		}
		/* children wait outside the channels, all of them (F15) */
		list_for_each_entry(k, &g->direct, chan_node)
			if (k->slot == ~0U &&
			    (!w || vgpu_gpu_admit_before(g, k, w)))
				w = k;
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
			if (!low || vgpu_gpu_admit_before(g, low, k)) {
				low = k;
				low_slot = i;
			}
		}
		if (free_slot != ~0U) {
			vgpu_gpu_admit(g, w, free_slot);
			continue;
		}
		if (!low || !vgpu_gpu_may_evict(g, w, low))
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
static bool vgpu_gpu_splittable(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k)
{
	/* a queue kernel's blocks do not exist before they launch */
	return (k->flags & VGPU_KF_INDEPENDENT) && !k->split &&
	       !(k->flags & VGPU_KF_QUEUE) && !vgpu_gpu_kernel_finished(k) &&
	       k->state != VGPU_KS_NEW && vgpu_gpu_arrived(g, k) &&
	       k->next_unit < k->units;
}

/* F24's default: the first splittable kernel in F13 waiting order. */
static struct vgpu_gpu_kernel *vgpu_gpu_split_pick(const struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *best = NULL;

	list_for_each_entry(k, &g->kernels, table_node)
		if (vgpu_gpu_splittable(g, k) &&
		    (!best || vgpu_gpu_older(k, best)))
			best = k;
	return best;
}

static void vgpu_gpu_split(struct vgpu_gpu *g)
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
				g->stats.policy_errors++;
				best = vgpu_gpu_split_pick(g);
			}
		}
	} else {
		best = vgpu_gpu_split_pick(g);
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

/*
 * Switch the block in @slot of SM @i out to wait for child @c (F15): its
 * resources go back to the SM, its warps' contexts into a save record that
 * the child holds until it completes.  A save record must be free.
 */
static void vgpu_gpu_suspend_out(struct vgpu_gpu *g, u32 i, u32 slot,
				 struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	struct vgpu_gpu_shadow *sh = &gs->shadow[slot];
	struct vgpu_gpu_kernel *p = sh->k;
	struct vgpu_gpu_saved *s;

	s = list_first_entry(&g->saved_free, struct vgpu_gpu_saved, node);
	if (sh->start_at != VGPU_GPU_NO_CYCLE && !sh->start_seen)
		p->t_start = min(p->t_start, sh->start_at);
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SUSPEND, p,
		      gs->sm.block[slot].block_idx, ~0U, i, c->id, 1);
	s->unit = sh->unit;
	s->start_at = sh->start_at;
	vgpu_sm_block_save(&gs->sm, slot, &s->s);
	memset(sh, 0, sizeof(*sh));
	gs->shadow_used &= ~BIT_ULL(slot);
	list_del(&s->node);
	c->waiter = s;
	p->inflight--;
	p->nsusp++;
	g->stats.suspensions++;
	vgpu_gpu_forget_nofit(g);
}

/*
 * The block in @slot of SM @i is parked at a LAUNCH WAIT for child @c: it
 * goes off the SM if a save record is free, else waits there holding its
 * resources until one frees (vgpu_gpu_inplace_retry()) or @c completes.
 */
static void vgpu_gpu_suspend(struct vgpu_gpu *g, u32 i, u32 slot,
			     struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_shadow *sh = &g->sm[i].shadow[slot];

	if (!list_empty(&g->saved_free)) {
		vgpu_gpu_suspend_out(g, i, slot, c);
		return;
	}
	sh->wait = c;
	c->wait_sm = i;
	c->wait_slot = slot;
	list_add_tail(&c->wait_node, &g->inplace);
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SUSPEND, sh->k,
		      g->sm[i].sm.block[slot].block_idx, ~0U, i, c->id, 0);
}

/* Blocks that wait on their SM go off it while save records are free. */
static void vgpu_gpu_inplace_retry(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *c;
	u32 i;

	while (!list_empty(&g->inplace) && !list_empty(&g->saved_free)) {
		c = list_first_entry(&g->inplace, struct vgpu_gpu_kernel,
				     wait_node);
		i = c->wait_sm;
		list_del_init(&c->wait_node);
		c->wait_sm = ~0U;
		g->sm[i].shadow[c->wait_slot].wait = NULL;
		vgpu_gpu_suspend_out(g, i, c->wait_slot, c);
	}
}

/*
 * A LAUNCH from SM @i's buffer (F15): the controller makes the child of
 * the launching block's kernel from its tree's template, at the child's
 * parent's priority, straight into the kernel table and the task-table
 * candidates; a LAUNCH WAIT also suspends the block.  Beyond
 * VGPU_MAX_DEPTH or the tree's child budget the launching kernel fails.
 */
static void vgpu_gpu_launch(struct vgpu_gpu *g, u32 i,
			    const struct vgpu_event *ev)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	struct vgpu_gpu_kernel *p = NULL, *r, *c;
	struct vgpu_gpu_template *t;
	u32 slot = 0;
	u64 m;

	/* the block's row stays in the table until the boundary */
	for (m = gs->shadow_used; m; m &= m - 1) {
		slot = __ffs64(m);
		if (gs->shadow[slot].k->id == ev->kernel &&
		    gs->sm.block[slot].block_idx == ev->block) {
			p = gs->shadow[slot].k;
			break;
		}
	}
	if (!p)		/* its tree was stopped since */
		return;
	r = p->root;
	if (p->depth >= VGPU_MAX_DEPTH) {
		vgpu_gpu_fail(g, p, -ELOOP);
		return;
	}
	if (ev->arg0 >= r->n_tmpl) {	/* vgpu_gpu_submit() refused it */
		vgpu_gpu_fail(g, p, -EINVAL);
		return;
	}
	if (r->launched >= r->child_budget) {
		vgpu_gpu_fail(g, p, -EDQUOT);
		return;
	}
	c = &r->child_store[r->launched++];
	t = &r->tmpl[ev->arg0];
	memset(c, 0, sizeof(*c));
	c->id = g->next_child_id++;
	if (g->next_child_id == VGPU_EV_NONE)
		g->next_child_id = VGPU_GPU_CHILD_ID0;
	c->channel = p->channel;	/* F21 flags: its tree's channel */
	c->prio = p->eff_prio;
	c->grid = t->grid;
	c->threads = t->threads;
	c->regs = t->regs;
	c->smem = t->smem;
	/* a throttle-mode tree stays in throttle mode (F26) */
	c->flags = t->flags | (p->flags & VGPU_KF_THROTTLE);
	c->arrival = ev->cycle;
	memcpy(c->affinity, p->affinity, sizeof(c->affinity));
	c->aff_all = p->aff_all;
	c->prog = t->prog;
	c->n_insns = t->n_insns;
	c->match = t->match;
	c->tmpl = r->tmpl;
	c->n_tmpl = r->n_tmpl;
	c->desc = t->desc;
	c->desc.id = c->id;
	c->desc.prio = c->prio;
	vgpu_gpu_kernel_enter(g, c);
	c->parent = p;
	c->root = r;
	c->depth = p->depth + 1;
	c->tmpl_idx = ev->arg0;
	list_add_tail(&c->chan_node, &g->direct);
	list_add_tail(&c->table_node, &g->kernels);
	g->nkernels++;
	p->children++;
	g->stats.children++;
	vgpu_gpu_emit(g, ev->cycle, VGPU_GEV_LAUNCH, c, ev->block, ~0U, i,
		      p->id, ev->arg0 | ev->arg1 << 8 | c->depth << 16);
	if (ev->arg1 & VGPU_LAUNCH_WAIT)
		vgpu_gpu_suspend(g, i, slot, c);
}

/* Has @k nothing left: no unit, suspended block or child (F15)? */
static bool vgpu_gpu_all_done(const struct vgpu_gpu_kernel *k)
{
	return k->done_units == k->units && !k->inflight && !k->nsaved &&
	       !k->nsusp && !k->children && !vgpu_gpu_q_open(k) &&
	       !vgpu_gpu_kernel_finished(k);
}

/*
 * Child @c completed: the parent's block that waited for it comes back,
 * through the dispatch rounds if it was switched out, at once if it waited
 * on its SM (F15).
 */
static void vgpu_gpu_child_done(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_kernel *p = c->parent;
	struct vgpu_gpu_saved *s = c->waiter;
	u32 i = c->wait_sm, slot = c->wait_slot;

	p->children--;
	if (p->t_end == VGPU_GPU_NO_CYCLE || c->t_end > p->t_end)
		p->t_end = c->t_end;
	if (s) {
		c->waiter = NULL;
		list_add_tail(&s->node, &p->saved);
		p->nsusp--;
		p->nsaved++;
		vgpu_gpu_requeue(g, p);
	} else if (i != ~0U) {
		g->sm[i].shadow[slot].wait = NULL;
		list_del_init(&c->wait_node);
		c->wait_sm = ~0U;
		vgpu_gpu_emit(g, g->now, VGPU_GEV_WAKE, p,
			      g->sm[i].sm.block[slot].block_idx, ~0U, i, c->id,
			      0);
		vgpu_sm_block_wake(&g->sm[i].sm, slot);
	}
}

/*
 * @k may have completed: every unit done, nothing suspended, no child
 * left.  A parent completes after its children (F15), so its own
 * completion may follow, up the tree.
 */
static void vgpu_gpu_complete(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	while (k && vgpu_gpu_all_done(k)) {
		vgpu_gpu_emit(g, k->t_end, VGPU_GEV_KERNEL_DONE, k, ~0U, ~0U,
			      ~0U, k->units, 0);
		vgpu_gpu_kernel_retire(g, k, VGPU_KS_DONE);
		if (g->policy->kernel_done)
			g->policy->kernel_done(g, k);
		if (k->parent)
			vgpu_gpu_child_done(g, k);
		k = k->parent;
	}
}

/*
 * Merge the SMs' buffered events in (cycle, SM, sequence) order, passing
 * them to the sink if @sink and acting on the LAUNCHes (F15) in that
 * order, which depends neither on thread timing nor on how the SMs are
 * spread over workers (F51).
 */
static void vgpu_gpu_merge_events(struct vgpu_gpu *g, bool sink)
{
	u32 *pos = g->cursor, i, best;
	const struct vgpu_event *ev;
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
		ev = &g->sm[best].ev[pos[best]++];
		if (sink)
			vgpu_gpu_put_event(g, ev, false);
		if (ev->type == VGPU_EV_LAUNCH)
			vgpu_gpu_launch(g, best, ev);
	}
	for (i = 0; i < g->cfg.num_sms; i++) {
		g->sm[i].nev = 0;
		g->sm[i].nwev = 0;
		g->sm[i].nlaunch = 0;
	}
}

/* Account what the SMs did in the epoch that just ended. */
static void vgpu_gpu_collect(struct vgpu_gpu *g)
{
	struct vgpu_gpu_shadow *sh;
	struct vgpu_gpu_kernel *k;
	u32 i, j, nlaunch = 0;
	u64 m;

	for (i = 0; i < g->cfg.num_sms; i++)
		nlaunch += g->sm[i].nlaunch;
	if (g->sink || nlaunch) {
		vgpu_gpu_merge_events(g, !!g->sink);
	} else {
		for (i = 0; i < g->cfg.num_sms; i++) {
			g->sm[i].nev = 0;
			g->sm[i].nwev = 0;
		}
	}
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
			if (g->policy->block_done)
				g->policy->block_done(g, k, i,
					sh->start_at == VGPU_GPU_NO_CYCLE ? 0 :
					sh->done_at - sh->start_at);
			memset(sh, 0, sizeof(*sh));
			g->sm[i].shadow_used &= ~BIT_ULL(j);
			vgpu_gpu_complete(g, k);
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

/* F14: the arrival of the oldest of the @n most recent waiting items. */
static u64 vgpu_gpu_q_since(const struct vgpu_gpu_kernel *k, u32 n)
{
	const struct vgpu_gpu_push *p;
	u32 seen = 0;

	list_for_each_entry_reverse(p, &k->q_fifo, node) {
		seen += p->left;
		if (seen >= n)
			return p->arrival;
	}
	return 0;
}

/*
 * F14: blocks the waiting items of queue kernel @k may launch at the
 * current boundary: one for every queue_n of them, the oldest first, and
 * one for the rest (the most recent items) once the queue is closed or
 * the oldest of the rest has waited queue_timeout cycles.  @due, if not
 * NULL, receives the cycle at which that last block may launch
 * (VGPU_GPU_NO_CYCLE if no item is left over).
 */
static u32 vgpu_gpu_q_blocks(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k, u64 *due)
{
	u32 full, rem;
	u64 at = VGPU_GPU_NO_CYCLE;

	if (!k->q_wait) {
		if (due)
			*due = at;
		return 0;
	}
	full = k->q_wait / k->queue_n;
	rem = k->q_wait - full * k->queue_n;
	if (rem)
		at = k->q_closed ? 0 :
		     vgpu_gpu_q_since(k, rem) + k->queue_timeout;
	if (due)
		*due = at;
	return full + (rem && at <= g->now);
}

/**
 * vgpu_gpu_next_arrival() - earliest cycle at which something arrives
 * @g: the device
 *
 * The arrival of a kernel, or of the items of a push, or the end of a
 * coalescing timeout (F14), after the current boundary.
 *
 * Return: its cycle, or VGPU_GPU_NO_CYCLE.
 */
u64 vgpu_gpu_next_arrival(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	const struct vgpu_gpu_push *p;
	u64 t = VGPU_GPU_NO_CYCLE, due;

	list_for_each_entry(k, &g->kernels, table_node)
		if (k->arrival > g->now && k->arrival < t)
			t = k->arrival;
	/* F14: pushes arriving, coalescing timeouts running out */
	if (!list_empty(&g->pushes)) {
		p = list_first_entry(&g->pushes, struct vgpu_gpu_push, node);
		if (p->arrival > g->now && p->arrival < t)
			t = p->arrival;
	}
	list_for_each_entry(k, &g->queues, q_node) {
		vgpu_gpu_q_blocks(g, k, &due);
		if (due > g->now && due < t)
			t = due;
	}
	return t;
}

/*
 * F14: has queue kernel @k nothing to do at the current boundary (no block
 * to launch or bring back, none on an SM, not closed and drained)?  A grid
 * kernel always has something.
 */
static bool vgpu_gpu_q_idle(const struct vgpu_gpu *g,
			    const struct vgpu_gpu_kernel *k)
{
	return (k->flags & VGPU_KF_QUEUE) && !k->nsaved && !k->inflight &&
	       vgpu_gpu_q_open(k) && !vgpu_gpu_q_blocks(g, k, NULL);
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
	/* the host may hold the clock back (the paced clock, issue 16) */
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

/*
 * F16: a HEAD kernel that arrives moves ahead of the kernels of its
 * channel that have neither started nor been admitted and are of its
 * priority or lower.
 */
static void vgpu_gpu_head_insert(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;

	list_for_each_entry(o, &g->chan[k->channel].fifo, chan_node) {
		if (o == k)
			return;
		if (o->slot == ~0U && o->t_dispatch == VGPU_GPU_NO_CYCLE &&
		    o->eff_prio >= k->eff_prio) {
			list_move_tail(&k->chan_node, &o->chan_node);
			return;
		}
	}
}

/*
 * F14 at this boundary: pushes whose items arrived join their kernel's
 * queue; every queue kernel's launchable blocks are counted again (time
 * passed); a closed kernel with nothing waiting leaves its channel and
 * task slot like a grid kernel whose blocks are all dispatched, and
 * completes if nothing of it runs.
 */
static void vgpu_gpu_q_arrivals(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *kt;
	struct vgpu_gpu_push *p, *tmp;

	list_for_each_entry_safe(p, tmp, &g->pushes, node) {
		if (p->arrival > g->now)
			break;
		k = p->k;
		list_del(&p->node);
		list_del_init(&p->knode);
		k->q_pending -= p->items;
		k->q_wait += p->items;
		k->q_items += p->items;
		g->stats.queue_items += p->items;
		if (p->flags & VGPU_GPU_PUSH_CLOSE) {
			k->q_closed = true;
			k->q_close_at = p->arrival;
		}
		vgpu_gpu_emit(g, p->arrival, VGPU_GEV_PUSH, k, ~0U, ~0U, ~0U,
			      p->items, p->flags);
		if (p->items)
			list_add_tail(&p->node, &k->q_fifo);
		else
			vgpu_gpu_push_retire(g, p);
	}
	list_for_each_entry_safe(k, kt, &g->queues, q_node) {
		k->q_ready = vgpu_gpu_q_blocks(g, k, NULL);
		if (vgpu_gpu_q_open(k) || !k->seen)
			continue;
		if (k->state != VGPU_KS_DRAINING && !k->nsaved) {
			k->state = VGPU_KS_DRAINING;
			if (!list_empty(&k->chan_node))
				list_del_init(&k->chan_node);
			if (k->slot != ~0U)
				g->slot_dealloc[k->slot] = 1;
		}
		if (k->t_end == VGPU_GPU_NO_CYCLE || k->t_end < k->q_close_at)
			k->t_end = k->q_close_at;
		if (k->t_end < k->arrival)
			k->t_end = k->arrival;
		vgpu_gpu_complete(g, k);
	}
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
		if (k->flags & VGPU_KF_HEAD)
			vgpu_gpu_head_insert(g, k);
	}
	vgpu_gpu_q_arrivals(g);
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
	vgpu_gpu_collect(g);
	vgpu_gpu_inplace_retry(g);
	/* the epoch and any cancel changed what the SMs hold */
	for (i = 0; i < g->cfg.num_sms; i++)
		vgpu_gpu_top_sync(g, i);
	vgpu_gpu_skip_idle(g);
	vgpu_gpu_arrivals(g);
	vgpu_gpu_table_update(g);
	g->window = vgpu_gpu_window_at(g, g->now);
	if (g->policy->tick)
		g->policy->tick(g);
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
		g->sm[i].sm.sync_cost = cost;
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
		if (!k->seen || !vgpu_gpu_q_idle(g, k) || k->q_wait)
			return false;
	return true;
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
