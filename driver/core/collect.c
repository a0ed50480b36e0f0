// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: what the SMs did in an epoch (F51, F15).
 *
 * During an epoch each SM's engine reports to a sink of its own, which
 * writes only that SM's shadow and event buffer; at the boundary the
 * buffers are merged in (cycle, SM, sequence) order for the caller's sink
 * and the LAUNCHes (F15), and the blocks that completed are accounted.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"

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

/* The event types vgpu_gpu_sm_trace() acts on for a sink not verbose. */
#define VGPU_GPU_SM_KEPT	(BIT_ULL(VGPU_EV_WARP_START) |		\
				 BIT_ULL(VGPU_EV_LAUNCH) |		\
				 BIT_ULL(VGPU_EV_PUSH) |		\
				 BIT_ULL(VGPU_EV_BLOCK_DONE) |		\
				 BIT_ULL(VGPU_EV_SYNC) |		\
				 BIT_ULL(VGPU_EV_FAULT))
static_assert(VGPU_EV_MAX < 64, "an event type is a bit of a u64");

/**
 * vgpu_gpu_sm_trace() - per-SM engine sink
 * @cookie: the SM's &struct vgpu_gpu_sm
 * @ev: an event of its engine
 *
 * Runs on the thread advancing the SM and writes only that SM's shadow and
 * buffer: it notes first warp starts and block completions and buffers
 * them for the merge at the boundary.
 */
void vgpu_gpu_sm_trace(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_gpu_sm *gs = cookie;
	struct vgpu_gpu_shadow *sh;
	u32 s;

	/*
	 * Most events are none of these: one test for them (a type past 63
	 * may pass it; the tests below are exact).
	 */
	if (!((VGPU_GPU_SM_KEPT >> (ev->type % 64)) & 1) && !gs->verbose)
		return;
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
	} else if (ev->type == VGPU_EV_LAUNCH || ev->type == VGPU_EV_PUSH) {
		gs->nlaunch++;	/* the controller acts on it (F15, F14) */
	} else if (ev->type == VGPU_EV_BLOCK_DONE) {
		s = vgpu_gpu_sm_find(&gs->sm, ev->kernel, ev->block);
		if (s >= VGPU_MAX_BLOCKS_PER_SM)
			return;
		sh = &gs->shadow[s];
		sh->done = true;
		sh->done_at = ev->cycle;
	} else if (ev->type == VGPU_EV_SYNC) {
		/* block-level: at most one per block the SM is given (F17) */
	} else if (ev->type == VGPU_EV_FAULT) {
		gs->nlaunch++;	/* the controller fails the kernel (fn.h) */
	} else {
		return;
	}
	if (gs->nev < gs->evcap)
		gs->ev[gs->nev++] = *ev;
	else
		gs->lost++;
}

/*
 * Pass the buffered event @ev of SM @i to the sink and the host, the
 * latter with its kernel (&vgpu_gpu_host_ops.event).
 */
static void vgpu_gpu_put_sm_event(struct vgpu_gpu *g, u32 i,
				  const struct vgpu_event *ev)
{
	const struct vgpu_gpu_kernel *k = NULL;

	if (vgpu_gpu_host_events(g) && ev->kernel != VGPU_EV_NONE)
		k = vgpu_gpu_event_kernel(g, i, ev, NULL);
	vgpu_gpu_put_event(g, ev, k, false);
}

/*
 * Merge the SMs' buffered events in (cycle, SM, sequence) order, passing
 * them to the sink and the host if @sink and acting on the LAUNCHes (F15)
 * in that order, which depends neither on thread timing nor on how the
 * SMs are spread over workers (F51).
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
			vgpu_gpu_put_sm_event(g, best, ev);
		if (ev->type == VGPU_EV_LAUNCH)
			vgpu_gpu_launch(g, best, ev);
		else if (ev->type == VGPU_EV_PUSH)
			vgpu_gpu_dev_push(g, best, ev);
		else if (ev->type == VGPU_EV_FAULT)
			vgpu_gpu_fault(g, best, ev);
	}
	for (i = 0; i < g->cfg.num_sms; i++) {
		g->sm[i].nev = 0;
		g->sm[i].nwev = 0;
		g->sm[i].nlaunch = 0;
	}
}

/**
 * vgpu_gpu_collect() - account what the SMs did in the epoch that just ended
 * @g: the device
 */
void vgpu_gpu_collect(struct vgpu_gpu *g)
{
	u32 i, j, nlaunch = 0, nbusy = 0, one = 0;
	struct vgpu_gpu_shadow *sh;
	struct vgpu_gpu_kernel *k;
	struct vgpu_gpu_sm *gs;
	u64 m;

	for (i = 0; i < g->cfg.num_sms; i++) {
		gs = &g->sm[i];
		nlaunch += gs->nlaunch;
		gs->nwev = 0;
		if (gs->nev) {
			nbusy++;
			one = i;
		}
	}
	if (nlaunch || (vgpu_gpu_has_sink(g) && nbusy > 1)) {
		vgpu_gpu_merge_events(g, vgpu_gpu_has_sink(g));
	} else if (nbusy == 1) {
		/*
		 * No LAUNCH or PUSH, so nothing is added to the buffers while
		 * they are read: one SM's buffer is the merge's order.
		 */
		gs = &g->sm[one];
		for (j = 0; vgpu_gpu_has_sink(g) && j < gs->nev; j++)
			vgpu_gpu_put_sm_event(g, one, &gs->ev[j]);
		gs->nev = 0;
	} else {
		for (i = 0; nbusy && i < g->cfg.num_sms; i++)
			g->sm[i].nev = 0;
	}
	for (i = 0; i < g->cfg.num_sms; i++) {
		for (m = g->sm[i].shadow_used; m; m &= m - 1) {
			j = __ffs64(m);
			sh = &g->sm[i].shadow[j];
			k = sh->k;
			if (sh->start_at != VGPU_GPU_NO_CYCLE &&
			    !sh->start_seen) {
				sh->start_seen = true;
				k->t.start = min(k->t.start, sh->start_at);
			}
			if (!sh->done)
				continue;
			vgpu_gpu_charge_end(g, k, sh->at, sh->done_at,
					    sh->warps);
			k->inflight--;
			k->done_units++;
			g->done_blocks++;
			if (k->t.end == VGPU_GPU_NO_CYCLE ||
			    sh->done_at > k->t.end)
				k->t.end = sh->done_at;
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
