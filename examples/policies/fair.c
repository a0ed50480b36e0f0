// SPDX-License-Identifier: GPL-2.0
/*
 * fair - fair share of GPU time between the tenants, then between the
 * channels, of one priority, in the spirit of the DRM
 * scheduler's fair policy.  A tenant is an open file in the module and a
 * workload's "tenant" in vgpu-sim (vgpu_policy_kernel_tenant()).
 *
 * Each tenant and each channel is charged the warp-cycles its resident
 * blocks hold the device, at every dispatch boundary for the time since
 * the previous one.  Among the kernels of one priority, the one whose
 * tenant was charged least is offered the next decision and enters the
 * task table first; within a tenant, the one whose channel was charged
 * least.  At equal charge, the one with fewer warps resident right now
 * (counted at each boundary and at each dispatch), so that the decisions
 * of one boundary are shared too.  A tenant or channel that was idle is
 * brought up to the least charge of the busy ones when its next kernel
 * arrives, so that idling does not bank credit (CFS's min_vruntime).  So
 * a tenant of three channels and one of one channel get about the same
 * GPU time, and so do a channel of long blocks and one of short blocks,
 * where the seeds' order (F21) gives every channel the same number of
 * decisions.  Priorities, eviction and preemption are the seeds'.
 *
 * FAIR_TENANTS tenants with kernels in the device are told apart; the
 * kernels of further tenants are shared by channel only.  Tenant numbers
 * are compared for equality only, so the module's file numbers and a
 * workload's tenant numbers give the same decisions.
 */
#include "vgpu_policy.h"

/* What a channel is charged (its per-channel state), and a tenant. */
struct fair_acct {
	u64 charge;		/* warp-cycles */
	u64 resident;		/* warps resident now */
};

/* A tenant's slot. */
struct fair_tenant {
	struct fair_acct acct;
	u64 id;			/* tenant + 1, 0 = free */
	u64 kernels;		/* its kernels in the device */
};

#define FAIR_TENANTS	31

/* The per-device state. */
struct fair_state {
	u64 floor;		/* least charge of a busy channel */
	u64 last;		/* cycle of the previous tick */
	u64 tfloor;		/* least charge of a busy tenant */
	u64 unused;
	struct fair_tenant t[FAIR_TENANTS];
};

/* The per-kernel state: the root's tenant slot + 1, 0 = none. */
struct fair_kernel {
	u64 slot;
};

/* The index of @k's tree's tenant slot, or -1: none. */
static int fair_tenant(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *k)
{
	const struct fair_kernel *fk =
		vgpu_policy_kernel_state_ro(vgpu_policy_kernel_root(k));
	const struct fair_state *st = vgpu_policy_state_ro(g);
	u64 s = fk->slot;

	if (!s || s > FAIR_TENANTS ||
	    st->t[s - 1].id != (u64)vgpu_policy_kernel_tenant(k) + 1)
		return -1;
	return s - 1;
}

/* a child kernel (F15) is charged to its tree's channel */
static const struct fair_acct *fair_channel(const struct vgpu_gpu *g,
					    const struct vgpu_gpu_kernel *k)
{
	return vgpu_policy_chan_state_ro(g, vgpu_policy_kernel_channel(k));
}

static struct fair_acct *fair_channel_rw(const struct vgpu_gpu *g,
					 const struct vgpu_gpu_kernel *k)
{
	return vgpu_policy_chan_state(g, vgpu_policy_kernel_channel(k));
}

/* Charged less, then fewer warps resident now: -1, 0 or 1. */
static int fair_cmp(const struct fair_acct *a, const struct fair_acct *b)
{
	if (a->charge != b->charge)
		return a->charge < b->charge ? -1 : 1;
	if (a->resident != b->resident)
		return a->resident < b->resident ? -1 : 1;
	return 0;
}

static bool fair_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	const struct fair_state *st = vgpu_policy_state_ro(g);
	int ta = fair_tenant(g, a), tb = fair_tenant(g, b), c;
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);
	u64 xa, xb;

	if (pa != pb)
		return pa < pb;
	if (ta >= 0 && tb >= 0 && ta != tb) {
		c = fair_cmp(&st->t[ta].acct, &st->t[tb].acct);
		if (c)
			return c < 0;
	}
	c = fair_cmp(fair_channel(g, a), fair_channel(g, b));
	if (c)
		return c < 0;
	xa = vgpu_policy_kernel_arrival(a);
	xb = vgpu_policy_kernel_arrival(b);
	if (xa != xb)
		return xa < xb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

static void fair_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct fair_acct *c = fair_channel_rw(g, k);
	struct fair_kernel *fk = vgpu_policy_kernel_state(k);
	struct fair_state *st = vgpu_policy_state(g);
	struct fair_tenant *t = NULL, *free = NULL;
	u64 id = (u64)vgpu_policy_kernel_tenant(k) + 1;
	u32 s;

	if (c->charge < st->floor)
		c->charge = st->floor;
	for (s = 0; s < FAIR_TENANTS && !t; s++) {
		if (st->t[s].id == id)
			t = &st->t[s];
		else if (!st->t[s].id && !free)
			free = &st->t[s];
	}
	if (!t) {
		if (!free)
			return;		/* shared by channel only */
		t = free;
		t->id = id;
		t->acct.charge = st->tfloor;
		t->acct.resident = 0;
	}
	t->kernels++;
	fk->slot = t - st->t + 1;
}

/* @k leaves the device: its tenant's slot is free once it has no kernel. */
static void fair_gone(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct fair_kernel *fk = vgpu_policy_kernel_state(k);
	struct fair_state *st = vgpu_policy_state(g);
	int t = vgpu_policy_kernel_root(k) == k ? fair_tenant(g, k) : -1;

	if (t >= 0 && !--st->t[t].kernels)
		st->t[t].id = 0;
	fk->slot = 0;
}

/*
 * At each boundary: charge every tenant and channel for its blocks
 * resident since the previous one and count their resident warps afresh,
 * then raise the floors to the least charges of kernels in the table.
 */
static void fair_tick(struct vgpu_gpu *g)
{
	struct fair_state *st = vgpu_policy_state(g);
	u64 now = vgpu_policy_now(g), dt = now - st->last, c;
	u64 floor = ~0ULL, tfloor = ~0ULL;
	const struct vgpu_gpu_kernel *k;
	struct fair_acct *ch;
	u32 i;
	int t;

	st->last = now;
	for (i = 0; i < vgpu_policy_num_channels(g); i++) {
		ch = vgpu_policy_chan_state(g, i);
		ch->resident = 0;
	}
	for (i = 0; i < FAIR_TENANTS; i++)
		st->t[i].acct.resident = 0;
	vgpu_policy_for_each_kernel(g, k) {
		c = (u64)vgpu_policy_kernel_resident(k) *
		    vgpu_policy_kernel_warps(k);
		ch = fair_channel_rw(g, k);
		ch->charge += c * dt;
		ch->resident += c;
		t = fair_tenant(g, k);
		if (t >= 0) {
			st->t[t].acct.charge += c * dt;
			st->t[t].acct.resident += c;
		}
	}
	vgpu_policy_for_each_kernel(g, k) {
		floor = min(floor, fair_channel(g, k)->charge);
		t = fair_tenant(g, k);
		if (t >= 0)
			tfloor = min(tfloor, st->t[t].acct.charge);
	}
	if (floor != ~0ULL && floor > st->floor)
		st->floor = floor;
	if (tfloor != ~0ULL && tfloor > st->tfloor)
		st->tfloor = tfloor;
}

static void fair_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			    u32 sm)
{
	struct fair_state *st = vgpu_policy_state(g);
	int t = fair_tenant(g, k);

	u32 w = vgpu_policy_kernel_warps(k);

	fair_channel_rw(g, k)->resident += w;
	if (t >= 0)
		st->t[t].acct.resident += w;
}

static const struct vgpu_policy_ops fair_ops = {
	.name			= "fair",
	.state_size		= sizeof(struct fair_state),
	.chan_state_size	= sizeof(struct fair_acct),
	.kernel_state_size	= sizeof(struct fair_kernel),
	.tick			= fair_tick,
	.admit_before		= fair_before,
	.select_before		= fair_before,
	.submitted		= fair_submitted,
	.dispatched		= fair_dispatched,
	.kernel_done		= fair_gone,
	.cancelled		= fair_gone,
};

static_assert(sizeof(struct fair_state) <= VGPU_POLICY_MAX_STATE,
	      "the core keeps that much");

VGPU_POLICY(fair_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: fair share of GPU time per tenant and channel");
