// SPDX-License-Identifier: GPL-2.0
/*
 * fn.c - functional mode of the SM engine (seed 004): the warps' data in
 * the SM's register file and shared memory, the global-store log and its
 * application at the epoch boundary, and the copy of a block's data when
 * it is switched out and restored.  fn.h describes the memory model.
 */
#include "vgpu_os.h"
#include "fn.h"
#include "sm_internal.h"
#include "gpu_internal.h"

/*
 * Guards (VGPU_MEM_GUARD bytes, debug builds only): one before the SM's
 * log and one after each of its regions, one after each save record's
 * functional area; filled with VGPU_FN_GUARD_WORD when laid out, checked
 * at every boundary (vgpu_gpu_fn_flush()).
 */
#define VGPU_FN_GUARD_WORD	0x5a5aa5a5c3c33c3cULL

static void vgpu_fn_guard_fill(u8 *p)
{
	u32 i, n = VGPU_MEM_GUARD / 8;	/* 0 outside debug builds */
	u64 *w = (u64 *)p;

	for (i = 0; i < n; i++)
		w[i] = VGPU_FN_GUARD_WORD;
}

/* Is the guard at @p intact?  A broken one is filled again. */
static bool vgpu_fn_guard_ok(u8 *p)
{
	u32 i, n = VGPU_MEM_GUARD / 8;
	u64 *w = (u64 *)p, bad = 0;

	for (i = 0; i < n; i++)
		bad |= w[i] ^ VGPU_FN_GUARD_WORD;
	if (bad)
		vgpu_fn_guard_fill(p);
	return !bad;
}

/* Words of the register file of one SM. */
static size_t vgpu_fn_reg_words(const struct vgpu_config *cfg)
{
	return (size_t)cfg->subparts * cfg->regs_per_subpart;
}

/**
 * vgpu_fn_config_ok() - can a device of this configuration compute?
 * @cfg: the configuration
 *
 * A functional warp has VGPU_ISA_LANES lanes: the device's warps must be
 * as wide.
 *
 * Return: 0, or -EINVAL.
 */
int vgpu_fn_config_ok(const struct vgpu_config *cfg)
{
	return cfg->warp_size == VGPU_ISA_LANES ? 0 : -EINVAL;
}

/**
 * vgpu_fn_sm_bytes() - memory of one SM's functional state
 * @cfg: the configuration
 *
 * Return: bytes vgpu_fn_sm_init() lays out: the register file, the shared
 * memory, a lane state per warp context and the log, and their guards.
 */
size_t vgpu_fn_sm_bytes(const struct vgpu_config *cfg)
{
	return vgpu_fn_reg_words(cfg) * sizeof(u32) +
	       round_up((size_t)cfg->smem_per_sm, 8) +
	       (size_t)cfg->max_warps_per_sm * sizeof(struct vgpu_lane_state) +
	       VGPU_FN_LOG_ENTRIES * sizeof(struct vgpu_lane_log_entry) +
	       VGPU_FN_GUARDS * VGPU_MEM_GUARD;
}

/**
 * vgpu_fn_sm_init() - lay out one SM's functional state
 * @f: the state
 * @mem: vgpu_fn_sm_bytes() bytes, 8-aligned, zeroed by the caller
 * @cfg: the configuration
 */
void vgpu_fn_sm_init(struct vgpu_fn_sm *f, void *mem,
		     const struct vgpu_config *cfg)
{
	u8 *p = mem;
	u32 g = 0;

	f->guard[g++] = p;
	p += VGPU_MEM_GUARD;
	f->log.e = (struct vgpu_lane_log_entry *)p;
	f->log.cap = VGPU_FN_LOG_ENTRIES;
	f->log.n = 0;
	p += VGPU_FN_LOG_ENTRIES * sizeof(struct vgpu_lane_log_entry);
	f->guard[g++] = p;
	p += VGPU_MEM_GUARD;
	f->lanes = (struct vgpu_lane_state *)p;
	p += (size_t)cfg->max_warps_per_sm * sizeof(struct vgpu_lane_state);
	f->guard[g++] = p;
	p += VGPU_MEM_GUARD;
	f->regs = (u32 *)p;
	p += vgpu_fn_reg_words(cfg) * sizeof(u32);
	f->guard[g++] = p;
	p += VGPU_MEM_GUARD;
	f->smem = p;
	f->guard[g] = p + round_up((size_t)cfg->smem_per_sm, 8);
	for (g = 0; VGPU_MEM_GUARD && g < VGPU_FN_GUARDS; g++)
		vgpu_fn_guard_fill(f->guard[g]);
	f->regs_per_subpart = cfg->regs_per_subpart;
	f->reg_unit = cfg->reg_unit;
	f->smem_unit = cfg->smem_unit;
	f->parked = false;
	f->hook = NULL;
	f->hook_cookie = NULL;
}

/**
 * vgpu_fn_save_bytes() - functional area of one save record
 * @cfg: the configuration
 *
 * A block's warps hold at most the SM's register file and the block at
 * most its shared memory; each warp adds its lane state.
 *
 * Return: bytes.
 */
size_t vgpu_fn_save_bytes(const struct vgpu_config *cfg)
{
	return VGPU_MAX_BLOCK_WARPS * sizeof(struct vgpu_lane_state) +
	       vgpu_fn_reg_words(cfg) * sizeof(u32) +
	       round_up((size_t)cfg->smem_per_sm, 8);
}

/* A save record's area and its guard. */
static size_t vgpu_fn_save_stride(const struct vgpu_config *cfg)
{
	return round_up(vgpu_fn_save_bytes(cfg), 8) + VGPU_MEM_GUARD;
}

/* The first register word of warp @wid's run in block @b. */
static u32 *vgpu_fn_warp_regs(const struct vgpu_sm *sm,
			      const struct vgpu_sm_block *b, u32 wid)
{
	const struct vgpu_warp_place *wp = &b->place.warp[wid];
	const struct vgpu_fn_sm *f = sm->fn;

	return f->regs + (size_t)wp->subpart * f->regs_per_subpart +
	       (size_t)wp->reg_start * f->reg_unit;
}

/* Words of a warp's run (its registers and its lanes' private memory). */
static u32 vgpu_fn_run_words(const struct vgpu_sm *sm,
			     const struct vgpu_sm_block *b)
{
	return b->place.shape.reg_units * sm->fn->reg_unit;
}

/* The shared memory of block @b. */
static u8 *vgpu_fn_block_smem(const struct vgpu_sm *sm,
			      const struct vgpu_sm_block *b)
{
	return sm->fn->smem + (size_t)b->place.smem_start * sm->fn->smem_unit;
}

/* Lanes of warp @wid of a block of @threads threads. */
static u32 vgpu_fn_live(u32 threads, u32 wid)
{
	u32 first = wid * VGPU_ISA_LANES;

	if (threads >= first + VGPU_ISA_LANES)
		return ~0U;
	return threads > first ? (u32)GENMASK(threads - first - 1, 0) : 0;
}

/**
 * vgpu_fn_block_arrive() - a functional block takes its shared memory
 * @sm: the SM
 * @slot: the block's slot
 *
 * Shared memory starts zeroed: what a block reads before it writes never
 * depends on who used the memory before.
 */
void vgpu_fn_block_arrive(struct vgpu_sm *sm, u32 slot)
{
	const struct vgpu_sm_block *b = &sm->block[slot];

	if (b->kernel->smem_bytes)
		memset(vgpu_fn_block_smem(sm, b), 0, b->kernel->smem_bytes);
}

/**
 * vgpu_fn_warp_start() - a functional warp starts
 * @sm: the SM
 * @idx: its context
 *
 * Its registers and private memory start zeroed, every lane of a thread
 * of the block live and active.
 */
void vgpu_fn_warp_start(struct vgpu_sm *sm, u32 idx)
{
	const struct vgpu_warp *w = &sm->warps[idx];
	const struct vgpu_sm_block *b = &sm->block[w->slot];
	const struct vgpu_kernel_desc *k = b->kernel;
	u32 threads = k->threads, wid = w->wid;

	if (k->orig) {	/* a unit of a split kernel: one original warp */
		threads = k->orig->threads;
		wid = b->block_idx % k->orig->shape.warps;
	}
	memset(vgpu_fn_warp_regs(sm, b, w->wid), 0,
	       vgpu_fn_run_words(sm, b) * sizeof(u32));
	vgpu_lane_state_init(&sm->fn->lanes[idx], vgpu_fn_live(threads, wid));
}

/* Where warp @w of block @b finds its data. */
static void vgpu_fn_env(const struct vgpu_sm *sm,
			const struct vgpu_sm_block *b,
			const struct vgpu_warp *w, struct vgpu_lane_env *env)
{
	const struct vgpu_kernel_desc *k = b->kernel;
	u32 *regs = vgpu_fn_warp_regs(sm, b, w->wid);

	env->regs = regs;
	env->nregs = k->regs_per_thread;
	env->smem = vgpu_fn_block_smem(sm, b);
	env->smem_size = k->smem_bytes;
	env->priv = (u8 *)(regs + (size_t)k->regs_per_thread * VGPU_ISA_LANES);
	env->priv_size = k->priv_bytes;
	if (k->slots)
		memcpy(env->slot, k->slots, sizeof(env->slot));
	else
		memset(env->slot, 0, sizeof(env->slot));
	env->sr.warp_size = VGPU_ISA_LANES;
	if (k->orig) {
		env->sr.warp = b->block_idx % k->orig->shape.warps;
		env->sr.ctaid = b->block_idx / k->orig->shape.warps;
		env->sr.ntid = k->orig->threads;
		env->sr.nctaid = k->orig->grid;
	} else {
		env->sr.warp = w->wid;
		env->sr.ctaid = b->block_idx;
		env->sr.ntid = k->threads;
		env->sr.nctaid = k->grid;
	}
	env->sr.item = b->item;
	env->sr.nitems = b->items;
	env->log = &sm->fn->log;
}

/*
 * Warp @w faulted with @err: it stops where it is (off every queue) and
 * the fault goes to the controller, which fails the kernel at the
 * boundary.
 */
static void vgpu_fn_fault(struct vgpu_sm *sm, struct vgpu_warp *w, int err)
{
	w->state = VGPU_WARP_FAULTED;
	vgpu_sm_emit(sm, VGPU_EV_FAULT, &sm->block[w->slot], w->wid,
		     (u32)-err, w->pc);
}

/**
 * vgpu_fn_exec() - issue a functional instruction
 * @sm: the SM
 * @idx: the warp's context
 * @w: the warp
 * @in: its instruction
 *
 * It costs what its class costs (latency, power window, class counter).
 * A global atomic parks the warp until the boundary, where its result
 * arrives; a full log makes it issue the instruction again then.  A warp
 * that executed its kernel's budget of functional instructions faults
 * (-EXFULL) instead: a data-dependent loop ends.
 */
void vgpu_fn_exec(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w,
		  const struct vgpu_insn *in)
{
	const struct vgpu_kernel_desc *k = sm->block[w->slot].kernel;
	struct vgpu_lane_env env;
	u32 c = vgpu_isa_class(in->op);
	u16 pc = w->pc;
	int ret;

	if (unlikely(sm->fn->hook))
		sm->fn->hook(sm->fn->hook_cookie, sm, idx);
	if (k->insn_budget && sm->fn->lanes[idx].insns >= k->insn_budget) {
		vgpu_fn_fault(sm, w, -EXFULL);
		return;
	}
	vgpu_fn_env(sm, &sm->block[w->slot], w, &env);
	ret = vgpu_lane_exec(&env, &sm->fn->lanes[idx], k->prog, k->n_insns,
			     &pc);
	if (ret < 0) {
		vgpu_fn_fault(sm, w, ret);
		return;
	}
	if (ret == VGPU_LANE_RETRY) {
		w->insns--;	/* it issues again */
		w->state = VGPU_WARP_WAIT_MEM;
		sm->fn->parked = true;
		return;
	}
	w->pc = pc;
	w->run = 0;
	sm->fn->lanes[idx].insns++;
	sm->stats.cls[c]++;
	vgpu_sm_win_add(sm, vgpu_sm_win_slot(sm, sm->now), w->subpart, c, 0);
	if (ret == VGPU_LANE_PARK) {
		w->state = VGPU_WARP_WAIT_MEM;
		sm->fn->parked = true;
		return;
	}
	vgpu_sm_queue(sm, idx, sm->now + sm->timing.latency[c]);
}

/**
 * vgpu_fn_exit() - the active lanes of a functional warp execute EXIT
 * @sm: the SM
 * @idx: the warp's context
 * @w: the warp
 *
 * Return: true when the warp is done; false when other lanes go on (the
 * warp is queued again at its new pc).
 */
bool vgpu_fn_exit(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w)
{
	u16 pc = w->pc;

	if (unlikely(sm->fn->hook))
		sm->fn->hook(sm->fn->hook_cookie, sm, idx);
	if (vgpu_lane_exit(&sm->fn->lanes[idx], &pc))
		return true;
	w->pc = pc;
	vgpu_sm_queue(sm, idx, sm->now + sm->timing.ctrl_latency);
	return false;
}

/**
 * vgpu_fn_bar() - may a functional warp arrive at a BAR?
 * @sm: the SM
 * @idx: the warp's context
 * @w: the warp
 *
 * A barrier counts whole warps: one reached by only some of a warp's live
 * lanes is a divergent barrier, which faults (-EDEADLK).
 *
 * Return: true if the warp may arrive; false if it faulted.
 */
bool vgpu_fn_bar(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w)
{
	struct vgpu_lane_state *st = &sm->fn->lanes[idx];
	u16 pc = w->pc + 1;

	if (unlikely(sm->fn->hook))
		sm->fn->hook(sm->fn->hook_cookie, sm, idx);
	if (!vgpu_lane_bar_ok(st)) {
		vgpu_fn_fault(sm, w, -EDEADLK);
		return false;
	}
	/* the warp leaves the BAR at pc + 1 (the engine's increment) */
	vgpu_lane_reconverge(st, &pc);
	w->pc = pc - 1;
	return true;
}

/**
 * vgpu_fn_sm_flush() - the epoch boundary of one SM's global memory
 * @sm: the SM, between two vgpu_sm_run() calls
 *
 * Its logged global stores and atomics reach the buffers in log order
 * and the warps that waited for them issue again from the current cycle.
 * The controller calls it for every SM in SM order.
 */
void vgpu_fn_sm_flush(struct vgpu_sm *sm)
{
	struct vgpu_fn_sm *f = sm->fn;
	const struct vgpu_sm_block *b;
	u32 slot, i, idx;
	u64 m;

	if (!f)
		return;
	if (f->log.n)
		vgpu_lane_log_apply(&f->log);
	if (!f->parked)
		return;
	f->parked = false;
	for (m = sm->used; m; m &= m - 1) {
		slot = __ffs64(m);
		b = &sm->block[slot];
		for (i = 0; i < b->next_start; i++) {
			idx = b->warp[i];
			if (idx != VGPU_WARP_NONE &&
			    sm->warps[idx].state == VGPU_WARP_WAIT_MEM)
				vgpu_sm_queue(sm, idx, sm->now);
		}
	}
}

/**
 * vgpu_fn_block_save() - copy a functional block's data out
 * @sm: the SM, between two vgpu_sm_run() calls, the block still resident
 * @slot: the block's slot
 * @s: its save record
 *
 * Each live warp's lane state and run (registers and private memory), then
 * the block's shared memory.  A timing-only block has nothing to copy.
 *
 * Return: 0, or -ENOSPC if the record has no functional area.
 */
int vgpu_fn_block_save(struct vgpu_sm *sm, u32 slot, struct vgpu_sm_saved *s)
{
	const struct vgpu_sm_block *b = &sm->block[slot];
	u32 words = vgpu_fn_run_words(sm, b), i, idx;
	u8 *p = s->fn;

	if (!b->kernel->sum.uses_functional)
		return 0;
	if (!p || !sm->fn)
		return -ENOSPC;
	for (i = 0; i < b->next_start; i++) {
		idx = b->warp[i];
		if (idx == VGPU_WARP_NONE)
			continue;
		memcpy(p, &sm->fn->lanes[idx], sizeof(struct vgpu_lane_state));
		p += sizeof(struct vgpu_lane_state);
		memcpy(p, vgpu_fn_warp_regs(sm, b, i), words * sizeof(u32));
		p += words * sizeof(u32);
	}
	memcpy(p, vgpu_fn_block_smem(sm, b), b->kernel->smem_bytes);
	return 0;
}

/**
 * vgpu_fn_block_restore() - copy a functional block's data back in
 * @sm: the SM; the block is resident again in @slot, its live warps have
 *	their contexts
 * @slot: the block's slot
 * @s: the record vgpu_fn_block_save() filled (on any SM)
 *
 * Into the block's new place: its registers and shared memory may now be
 * anywhere in this SM's files.
 */
void vgpu_fn_block_restore(struct vgpu_sm *sm, u32 slot,
			   const struct vgpu_sm_saved *s)
{
	const struct vgpu_sm_block *b = &sm->block[slot];
	u32 words = vgpu_fn_run_words(sm, b), i, idx;
	const u8 *p = s->fn;

	if (!b->kernel->sum.uses_functional || !p || !sm->fn)
		return;
	for (i = 0; i < b->next_start; i++) {
		idx = b->warp[i];
		if (idx == VGPU_WARP_NONE)
			continue;
		memcpy(&sm->fn->lanes[idx], p, sizeof(struct vgpu_lane_state));
		p += sizeof(struct vgpu_lane_state);
		memcpy(vgpu_fn_warp_regs(sm, b, i), p, words * sizeof(u32));
		p += words * sizeof(u32);
		if (sm->warps[idx].state == VGPU_WARP_WAIT_MEM)
			sm->fn->parked = true;
	}
	memcpy(vgpu_fn_block_smem(sm, b), p, b->kernel->smem_bytes);
}

/**
 * vgpu_gpu_fn_bytes() - memory of a device's functional mode
 * @g: the device
 *
 * Every SM's functional memory and a functional area per save record:
 * bounded by the configuration's sizes, allocated only once a device
 * runs a functional kernel (vgpu_gpu_fn_attach()).
 *
 * Return: bytes.
 */
size_t vgpu_gpu_fn_bytes(const struct vgpu_gpu *g)
{
	const struct vgpu_config *cfg = &g->cfg;

	return round_up(cfg->num_sms * sizeof(struct vgpu_fn_sm), 8) +
	       cfg->num_sms * round_up(vgpu_fn_sm_bytes(cfg), 8) +
	       g->p.save_slots * vgpu_fn_save_stride(cfg);
}

/**
 * vgpu_gpu_fn_attach() - give a device its functional memory
 * @g: the device, between two epochs
 * @mem: vgpu_gpu_fn_bytes() bytes, 8-aligned and zeroed, that outlive
 *	the device (vgpu_gpu_fini())
 * @size: their size
 *
 * Functional kernels may run from now on.
 *
 * Return: 0, -EBUSY if the device has its functional memory already,
 * -EINVAL if @size is too small or the device's warps are not
 * VGPU_ISA_LANES wide.
 */
int vgpu_gpu_fn_attach(struct vgpu_gpu *g, void *mem, size_t size)
{
	const struct vgpu_config *cfg = &g->cfg;
	size_t sm_bytes = round_up(vgpu_fn_sm_bytes(cfg), 8);
	size_t save_bytes = vgpu_fn_save_stride(cfg);
	struct vgpu_fn_sm *fn = mem;
	u8 *p = mem;
	u32 i;

	if (g->fn)
		return -EBUSY;
	if (vgpu_fn_config_ok(cfg) || size < vgpu_gpu_fn_bytes(g))
		return -EINVAL;
	p += round_up(cfg->num_sms * sizeof(struct vgpu_fn_sm), 8);
	for (i = 0; i < cfg->num_sms; i++, p += sm_bytes) {
		vgpu_fn_sm_init(&fn[i], p, cfg);
		fn[i].hook = g->fn_hook;
		fn[i].hook_cookie = g->fn_hook_cookie;
		g->sm[i].sm.fn = &fn[i];
	}
	for (i = 0; i < g->p.save_slots; i++, p += save_bytes) {
		g->saved[i].s.fn = p;
		if (VGPU_MEM_GUARD)
			vgpu_fn_guard_fill(p + save_bytes - VGPU_MEM_GUARD);
	}
	g->fn = fn;
	return 0;
}

/**
 * vgpu_gpu_fn_flush() - the epoch boundary of global memory
 * @g: the device, between two epochs
 *
 * Every SM's logged global stores and atomics reach the buffers, SM by SM
 * in index order: the result never depends on how the SMs were spread
 * over workers.  Called at each boundary before anything else, and
 * before a kernel is stopped (its buffers may go with it).  In debug
 * builds the guards are checked first (vgpu_gpu_fn_guards_check()).
 */
void vgpu_gpu_fn_flush(struct vgpu_gpu *g)
{
	u32 i;

	if (!g->fn)
		return;
	if (VGPU_MEM_GUARD)
		g->stats.guards_broken += vgpu_gpu_fn_guards_check(g);
	for (i = 0; i < g->cfg.num_sms; i++)
		vgpu_fn_sm_flush(&g->sm[i].sm);
}

/**
 * vgpu_gpu_fn_guards_check() - are the guards of the functional memory
 *	intact?
 * @g: the device, between two epochs
 *
 * In debug builds (VGPU_MEM_GUARD) a guard lies between the regions of
 * each SM's functional memory and after each save record's area; the
 * engine never writes one.  A broken guard is counted once and filled
 * again.
 *
 * Return: guards found broken; 0 in other builds or without functional
 * memory.
 */
u32 vgpu_gpu_fn_guards_check(struct vgpu_gpu *g)
{
	size_t stride = vgpu_fn_save_stride(&g->cfg);
	u32 i, j, broken = 0;

	if (!VGPU_MEM_GUARD || !g->fn)
		return 0;
	for (i = 0; i < g->cfg.num_sms; i++)
		for (j = 0; j < VGPU_FN_GUARDS; j++)
			broken += !vgpu_fn_guard_ok(g->fn[i].guard[j]);
	for (i = 0; i < g->p.save_slots; i++)
		broken += !vgpu_fn_guard_ok((u8 *)g->saved[i].s.fn + stride -
					    VGPU_MEM_GUARD);
	return broken;
}

/**
 * vgpu_gpu_fault() - a functional instruction of a kernel faulted
 * @g: the device
 * @i: the SM
 * @ev: its VGPU_EV_FAULT event
 *
 * The kernel fails with the fault's errno (its QUERY error); the rest of
 * its tree is cancelled.
 */
void vgpu_gpu_fault(struct vgpu_gpu *g, u32 i, const struct vgpu_event *ev)
{
	struct vgpu_gpu_kernel *k = vgpu_gpu_event_kernel(g, i, ev, NULL);

	if (!k)		/* its tree was stopped since */
		return;
	g->stats.faults++;
	vgpu_gpu_fail(g, k, -(int)ev->arg0);
}

/**
 * vgpu_fn_warp_view() - what a functional warp holds
 * @sm: the SM, between two vgpu_sm_run() calls or from its hook
 * @idx: a warp context of the SM's pool
 * @v: filled; its pointers stay valid until the SM runs on
 *
 * Return: 0, or -ENOENT if @idx holds no started warp of a functional
 * kernel (free, done, or the device has no functional memory).
 */
int vgpu_fn_warp_view(const struct vgpu_sm *sm, u32 idx,
		      struct vgpu_fn_warp_view *v)
{
	const struct vgpu_lane_state *st;
	const struct vgpu_kernel_desc *k;
	const struct vgpu_sm_block *b;
	const struct vgpu_warp *w;
	u32 *regs;

	if (!sm->fn || idx >= sm->pool->size)
		return -ENOENT;
	w = &sm->warps[idx];
	if (w->state == VGPU_WARP_FREE || w->state == VGPU_WARP_DONE ||
	    w->state == VGPU_WARP_SUSPENDED || w->slot >= VGPU_MAX_BLOCKS_PER_SM ||
	    !(sm->used & BIT_ULL(w->slot)))
		return -ENOENT;
	b = &sm->block[w->slot];
	k = b->kernel;
	if (!k->sum.uses_functional || b->warp[w->wid] != idx)
		return -ENOENT;
	st = &sm->fn->lanes[idx];
	regs = vgpu_fn_warp_regs(sm, b, w->wid);
	memset(v, 0, sizeof(*v));
	v->slot = w->slot;
	v->wid = k->orig ? b->block_idx % k->orig->shape.warps : w->wid;
	v->kernel = k->id;
	v->block = k->orig ? b->block_idx / k->orig->shape.warps :
			     b->block_idx;
	v->state = w->state;
	v->pc = w->pc;
	v->live = st->live;
	v->active = vgpu_lane_active(st);
	v->depth = st->depth;
	memcpy(v->pred, st->pred, sizeof(v->pred));
	v->nregs = k->regs_per_thread;
	v->regs = regs;
	v->priv_bytes = k->priv_bytes;
	v->priv = (const u8 *)(regs + (size_t)k->regs_per_thread *
				      VGPU_ISA_LANES);
	return 0;
}

/**
 * vgpu_fn_block_smem_view() - the shared memory of a functional block
 * @sm: the SM, between two vgpu_sm_run() calls or from its hook
 * @slot: the block's slot
 * @size: set to its bytes
 *
 * Return: its first byte, or NULL if @slot holds no functional block (or
 * the device has no functional memory).
 */
const u8 *vgpu_fn_block_smem_view(const struct vgpu_sm *sm, u32 slot,
				  u32 *size)
{
	const struct vgpu_sm_block *b;

	*size = 0;
	if (!sm->fn || slot >= VGPU_MAX_BLOCKS_PER_SM ||
	    !(sm->used & BIT_ULL(slot)))
		return NULL;
	b = &sm->block[slot];
	if (!b->kernel->sum.uses_functional)
		return NULL;
	*size = b->kernel->smem_bytes;
	return vgpu_fn_block_smem(sm, b);
}

/**
 * vgpu_gpu_fn_set_hook() - call @fn before each functional instruction
 * @g: the device, between two epochs
 * @fn: the hook (fn_debug.h), or NULL for none
 * @cookie: passed to @fn
 *
 * For a host that runs every SM on its own thread (vgpu-sim's debugger);
 * set before or after the device's functional memory is attached.
 */
void vgpu_gpu_fn_set_hook(struct vgpu_gpu *g, vgpu_fn_hook_fn fn,
			  void *cookie)
{
	u32 i;

	g->fn_hook = fn;
	g->fn_hook_cookie = cookie;
	if (!g->fn)
		return;
	for (i = 0; i < g->cfg.num_sms; i++) {
		g->fn[i].hook = fn;
		g->fn[i].hook_cookie = cookie;
	}
}
