/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the global controller share (gpu.c, collect.c,
 * table.c, queue.c, child.c, place.c, policy_default.c): the helpers and
 * mechanisms one file calls in another.  gpu.h is the core's public API;
 * nothing here is for a caller of the core.
 */
#ifndef VGPU_CORE_GPU_INTERNAL_H
#define VGPU_CORE_GPU_INTERNAL_H

#include "vgpu_os.h"
#include "gpu.h"

/*
 * vgpu_gpu_advance_range() asks for an SM's fixed lines this many SMs
 * ahead and for its blocks' lines half as many ahead (vgpu_sm_prefetch()).
 */
#define VGPU_GPU_PREFETCH_SMS	4

/* Candidate match: how and where (F23). */
struct vgpu_gpu_match {
	u32 path;
	u32 sm;
	u32 pre_slot;
	bool pre;
	bool equal;
};

/*
 * Make (@on) or drop the deallocation request of task slot @s (F13).  A
 * request made now is acknowledged by the SMs dealloc_latency cycles later
 * (vgpu_gpu_table_update() frees the slot at the first boundary from
 * then on); the kernel the slot holds is recorded for the trace.
 */
static inline void vgpu_gpu_dealloc_set(struct vgpu_gpu *g, u32 s, bool on)
{
	if (on && !vgpu_bmap_test(g->slot_dealloc, s)) {
		g->dealloc_req[s] = g->now;
		g->dealloc_ack[s] = g->now + g->p.dealloc_latency;
		g->dealloc_kernel[s] = g->slot[s] ? g->slot[s]->args.id :
						    VGPU_EV_NONE;
	}
	vgpu_bmap_assign(g->slot_dealloc, s, on);
}

/* Row @prio of the F23 (c) candidate map. */
static inline u64 *vgpu_gpu_top_row(const struct vgpu_gpu *g, u32 prio)
{
	return g->top_map + prio * g->top_words;
}

static inline bool vgpu_gpu_arrived(const struct vgpu_gpu *g,
				    const struct vgpu_gpu_kernel *k)
{
	return k->args.arrival <= g->now;
}

/* F26: while a throttle mode is pending or on, only throttle kernels. */
static inline bool vgpu_gpu_throttle_holds(const struct vgpu_gpu *g,
					   const struct vgpu_gpu_kernel *k)
{
	return unlikely(g->throttle_state) && !(k->args.flags & VGPU_KF_THROTTLE);
}

/* Undispatched units, switched-out ones included (F12). */
/* F23 (c) can serve @k in the device's mode (its next block resumes: @resume) */
static inline bool vgpu_gpu_path_c_open(const struct vgpu_gpu *g,
					const struct vgpu_gpu_kernel *k,
					bool resume)
{
	return g->p.preempt != VGPU_PREEMPT_DRAIN &&
	       (g->p.preempt != VGPU_PREEMPT_WARP || (!k->uses_bar && !resume));
}

static inline u32 vgpu_gpu_undispatched(const struct vgpu_gpu_kernel *k)
{
	return k->units - k->next_unit + k->nsaved + k->q.ready;
}

/* F14: a queue kernel that is open, or closed with items still waiting. */
static inline bool vgpu_gpu_q_open(const struct vgpu_gpu_kernel *k)
{
	return (k->args.flags & VGPU_KF_QUEUE) && (!k->q.closed || k->q.wait);
}

/* F14: items the next block of @k takes: up to queue_n, 0 in a grid. */
static inline u32 vgpu_gpu_q_peek(const struct vgpu_gpu_kernel *k)
{
	return min(k->q.wait, k->args.queue_n);
}

/* The descriptor the next new unit of @k uses (F24 split). */
static inline const struct vgpu_kernel_desc *
vgpu_gpu_next_desc(const struct vgpu_gpu_kernel *k)
{
	return k->split && k->next_unit >= k->split_from ? &k->split_desc :
							    &k->desc;
}

/* What the next unit of @k needs: a switched-out block, or a new one. */
static inline const struct vgpu_block_shape *
vgpu_gpu_next_shape(const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_gpu_saved *s;

	if (k->nsaved) {
		s = list_first_entry(&k->saved, struct vgpu_gpu_saved, node);
		return &s->s.row.kernel->shape;
	}
	return &vgpu_gpu_next_desc(k)->shape;
}

/* gpu.c */
void vgpu_gpu_top_move(struct vgpu_gpu *g, u32 i);

/* The GPU time of @gt at cycle @now. */
static inline u64 vgpu_gpu_gtime_read(const struct vgpu_gpu_gtime *gt,
				      u64 now)
{
	return gt->done + gt->rate * now - gt->start;
}

/*
 * A block of @w warps of @k went to an SM at cycle @t: its GPU time, its
 * tree's channel's and its tree's tenant's (F27 policies read them).
 */
static inline void vgpu_gpu_charge_start(struct vgpu_gpu *g,
					 struct vgpu_gpu_kernel *k, u64 t,
					 u32 w)
{
	const struct vgpu_gpu_kernel *r = k->child.root;
	struct vgpu_gpu_gtime *c = &g->chan_gt[r->args.channel];
	struct vgpu_gpu_gtime *n = &g->tenant[r->tenant_slot].gt;
	u64 wt = (u64)w * t;

	k->gt.rate += w;
	k->gt.start += wt;
	c->rate += w;
	c->start += wt;
	n->rate += w;
	n->start += wt;
}

/* That block, which went to its SM at @at, left it at cycle @t. */
static inline void vgpu_gpu_charge_end(struct vgpu_gpu *g,
				       struct vgpu_gpu_kernel *k, u64 at,
				       u64 t, u32 w)
{
	const struct vgpu_gpu_kernel *r = k->child.root;
	struct vgpu_gpu_gtime *c = &g->chan_gt[r->args.channel];
	struct vgpu_gpu_gtime *n = &g->tenant[r->tenant_slot].gt;
	u64 wt = (u64)w * at, d = (u64)w * (t - at);

	k->gt.rate -= w;
	k->gt.start -= wt;
	k->gt.done += d;
	c->rate -= w;
	c->start -= wt;
	c->done += d;
	n->rate -= w;
	n->start -= wt;
	n->done += d;
}

/*
 * Bring SM @i's entry of the F23 (c) candidate map in line with its
 * engine's highest resident priority (which the engine keeps, F33): a
 * call only when they differ, which most boundaries and SMs do not.
 */
static inline void vgpu_gpu_top_sync(struct vgpu_gpu *g, u32 i)
{
	if (g->sm[i].sm.top_prio != g->top_seen[i])
		vgpu_gpu_top_move(g, i);
}

/* Does the host take events (&vgpu_gpu_host_ops.event)? */
static inline bool vgpu_gpu_host_events(const struct vgpu_gpu *g)
{
	return g->host_ops && g->host_ops->event;
}

/* Is anyone passed events: the sink or the host? */
static inline bool vgpu_gpu_has_sink(const struct vgpu_gpu *g)
{
	return g->sink || vgpu_gpu_host_events(g);
}

/* Submitted kernel @k finished: tell the host (&vgpu_gpu_host_ops). */
static inline void vgpu_gpu_host_done(struct vgpu_gpu *g,
				      struct vgpu_gpu_kernel *k)
{
	if (g->host_ops && g->host_ops->kernel_done)
		g->host_ops->kernel_done(g->host, k);
}

void vgpu_gpu_put_event(struct vgpu_gpu *g, const struct vgpu_event *ev,
			const struct vgpu_gpu_kernel *k, bool hash);
void vgpu_gpu_emit(struct vgpu_gpu *g, u64 cycle, u32 type,
		   const struct vgpu_gpu_kernel *k, u32 block, u32 warp,
		   u32 sm, u32 arg0, u32 arg1);

/* collect.c */
void vgpu_gpu_sm_trace(void *cookie, const struct vgpu_event *ev);
void vgpu_gpu_collect(struct vgpu_gpu *g);

/* table.c */
void vgpu_gpu_kernel_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
void vgpu_gpu_stop_tree(struct vgpu_gpu *g, struct vgpu_gpu_kernel *r);
void vgpu_gpu_requeue(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
void vgpu_gpu_complete(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
void vgpu_gpu_table_update(struct vgpu_gpu *g);
void vgpu_gpu_arrivals(struct vgpu_gpu *g);

/* queue.c */
void vgpu_gpu_queue_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
void vgpu_gpu_queue_leave(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
void vgpu_gpu_q_launch(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
		       u32 bid);
bool vgpu_gpu_q_idle(const struct vgpu_gpu *g,
		     const struct vgpu_gpu_kernel *k);
void vgpu_gpu_q_arrivals(struct vgpu_gpu *g);

/* child.c */
void vgpu_gpu_unwait(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c);
void vgpu_gpu_inplace_retry(struct vgpu_gpu *g);
void vgpu_gpu_fail(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k, int error);
struct vgpu_gpu_kernel *vgpu_gpu_event_kernel(struct vgpu_gpu *g, u32 i,
					      const struct vgpu_event *ev,
					      u32 *slot);
void vgpu_gpu_dev_push(struct vgpu_gpu *g, u32 i, const struct vgpu_event *ev);
void vgpu_gpu_fault(struct vgpu_gpu *g, u32 i, const struct vgpu_event *ev);
void vgpu_gpu_launch(struct vgpu_gpu *g, u32 i,
		     const struct vgpu_event *ev);
void vgpu_gpu_child_done(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c);

/* place.c */
bool vgpu_gpu_sm_allowed(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k, u32 sm);
bool vgpu_gpu_block_level_fits(const struct vgpu_gpu *g,
			       const struct vgpu_sm_res *res,
			       const struct vgpu_block_shape *shape);
u32 vgpu_gpu_switch_victims(struct vgpu_gpu *g, u32 i,
			    const struct vgpu_gpu_kernel *k, bool equal,
			    const struct vgpu_block_shape *shape);
void vgpu_gpu_yield(struct vgpu_gpu *g);
void vgpu_gpu_release(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
bool vgpu_gpu_holds_update(struct vgpu_gpu *g);
bool vgpu_gpu_policy_victim(const struct vgpu_gpu *g,
			    const struct vgpu_gpu_kernel *v);
void vgpu_gpu_forget_nofit(struct vgpu_gpu *g);
void vgpu_gpu_fit_forget(struct vgpu_gpu *g);
bool vgpu_gpu_fits_now(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
bool vgpu_gpu_displace(struct vgpu_gpu *g);
void vgpu_gpu_throttle_update(struct vgpu_gpu *g);
bool vgpu_gpu_round(struct vgpu_gpu *g);
bool vgpu_gpu_splittable(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k);
void vgpu_gpu_split(struct vgpu_gpu *g);

/* policy_default.c */
void vgpu_gpu_chosen(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
bool vgpu_gpu_may_evict(struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *w,
			const struct vgpu_gpu_kernel *victim);
struct vgpu_gpu_kernel *vgpu_gpu_split_pick(const struct vgpu_gpu *g);
bool vgpu_gpu_preempt_pick(struct vgpu_gpu *g,
			   struct vgpu_gpu_kernel *k,
			   const struct vgpu_block_shape *shape,
			   struct vgpu_gpu_match *m);

/* policy_watch.c: the policy's answers, as the watchdog counts them */

/* An answer of op @op (enum vgpu_policy_op) was refused. */
static inline void vgpu_gpu_policy_err(struct vgpu_gpu *g, u32 op)
{
	g->stats.policy_errors++;
	g->pstats.errors[op]++;
	g->watch.last_op = op;
	if (++g->watch.err_row >= VGPU_POLICY_MAX_ERRORS_IN_ROW &&
	    !g->watch.eject)
		g->watch.eject = VGPU_POLICY_EXIT_ERRORS;
}

/*
 * A request of op @op was refused that does no harm (a yield before the
 * minimum residency): counted, not towards an ejection.
 */
static inline void vgpu_gpu_policy_refused(struct vgpu_gpu *g, u32 op)
{
	g->stats.policy_errors++;
	g->pstats.errors[op]++;
}

/* An answer the core could have refused was used. */
static inline void vgpu_gpu_policy_ok(struct vgpu_gpu *g)
{
	g->watch.err_row = 0;
}

void vgpu_policy_watch_reset(struct vgpu_gpu *g);
int vgpu_gpu_policy_start(struct vgpu_gpu *g, struct vgpu_policy_reg *reg);
void vgpu_policy_watch_init(struct vgpu_gpu *g, struct list_head *policies);
void vgpu_policy_eject(struct vgpu_gpu *g);
void vgpu_policy_watch_tick(struct vgpu_gpu *g);
void vgpu_policy_watch_boundary(struct vgpu_gpu *g, bool stuck);
bool vgpu_policy_order_check(struct vgpu_gpu *g, u32 op,
			     const struct vgpu_gpu_kernel *a,
			     const struct vgpu_gpu_kernel *b);
u64 vgpu_policy_min_residency(const struct vgpu_gpu *g);

/* A boundary begins: carry out an ejection decided at the one before. */
static inline void vgpu_policy_watch_start(struct vgpu_gpu *g)
{
	if (unlikely(g->watch.eject))
		vgpu_policy_eject(g);
}

/*
 * The dispatch rounds of a boundary are over; @stuck: kernels wait with
 * blocks to place and none was placed.  The fallback is not watched.
 */
static inline void vgpu_policy_watch_end(struct vgpu_gpu *g, bool stuck)
{
	if (g->policy_reg != g->watch.fallback)
		vgpu_policy_watch_boundary(g, stuck);
}

#endif /* VGPU_CORE_GPU_INTERNAL_H */
