// SPDX-License-Identifier: GPL-2.0
/*
 * The view a policy reads the device through (policy.h, "the view"):
 * one small function per figure, so that a policy depends on these
 * names and not on the layout of the core's structures, which it cannot
 * see (&struct vgpu_gpu and &struct vgpu_gpu_kernel are incomplete types
 * in driver/vgpu_policy.h).  The module exports every function here to
 * policy modules (driver/vgpu_policy.c); vgpu-sim exports them to the
 * policy objects it loads.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"

/**
 * DOC: the policy view
 *
 * Every function of the view takes a const device or kernel and changes
 * nothing, apart from the state accessors, which hand the policy its own
 * storage, and the helpers (vgpu_policy_yield()), which record a request
 * the core carries out and checks.  The figures are those of the current
 * boundary (vgpu_policy_now()): a policy reads them from its ops, never
 * keeps a pointer the core gave it across two calls of its ops, apart
 * from a kernel's while the kernel is in the device (between
 * &vgpu_policy_ops.submitted and &vgpu_policy_ops.kernel_done or
 * &vgpu_policy_ops.cancelled).
 */

/**
 * vgpu_policy_now() - the device clock at this boundary
 * @g: the device
 *
 * Return: the cycle of the dispatch boundary being decided.
 */
u64 vgpu_policy_now(const struct vgpu_gpu *g)
{
	return g->now;
}

/**
 * vgpu_policy_window() - the F22 window of this boundary
 * @g: the device
 *
 * Return: the priority the rotating window promotes at this boundary, or
 * ~0 when the device has no windows.
 */
u32 vgpu_policy_window(const struct vgpu_gpu *g)
{
	return g->window;
}

/**
 * vgpu_policy_num_sms() - the device's SMs
 * @g: the device
 *
 * Return: how many SMs it has; SM numbers are 0 to that minus one.
 */
u32 vgpu_policy_num_sms(const struct vgpu_gpu *g)
{
	return g->cfg.num_sms;
}

/**
 * vgpu_policy_num_channels() - the device's channel numbers
 * @g: the device
 *
 * Return: how many channels it may have (F11); channel numbers, and the
 * channels whose state vgpu_policy_chan_state() holds, are 0 to that
 * minus one.
 */
u32 vgpu_policy_num_channels(const struct vgpu_gpu *g)
{
	return g->p.max_channels;
}

/**
 * vgpu_policy_num_prios() - the device's priority levels
 * @g: the device
 *
 * Return: how many priority levels it has (at most VGPU_MAX_PRIOS); 0 is
 * the highest.
 */
u32 vgpu_policy_num_prios(const struct vgpu_gpu *g)
{
	return g->cfg.num_prios;
}

/**
 * vgpu_policy_preempt_mode() - the device's preemption mode
 * @g: the device
 *
 * Return: VGPU_PREEMPT_DRAIN, VGPU_PREEMPT_WARP or VGPU_PREEMPT_SWITCH.
 */
u32 vgpu_policy_preempt_mode(const struct vgpu_gpu *g)
{
	return g->p.preempt;
}

/* The first kernel from @pos on (in &vgpu_gpu.kernels) that arrived. */
static const struct vgpu_gpu_kernel *
vgpu_policy_arrived_from(const struct vgpu_gpu *g, const struct list_head *pos)
{
	const struct vgpu_gpu_kernel *k;

	for (; pos != &g->kernels; pos = pos->next) {
		k = list_entry(pos, struct vgpu_gpu_kernel, table_node);
		if (vgpu_gpu_arrived(g, k))
			return k;
	}
	return NULL;
}

/**
 * vgpu_policy_kernel_first() - the first kernel of the device
 * @g: the device
 *
 * The kernels a policy walks are those that arrived and have not
 * finished, in submission order: the ones in the task table (F13,
 * VGPU_POLICY_KF_TABLE), the ones waiting in their channels for a slot,
 * and the ones that left the table with all their blocks dispatched
 * while blocks of theirs still run.  The device also holds kernels
 * submitted with a later arrival: those are not visited.
 *
 * Return: the first such kernel, or NULL when there is none.
 */
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_first(const struct vgpu_gpu *g)
{
	return vgpu_policy_arrived_from(g, g->kernels.next);
}

/**
 * vgpu_policy_kernel_next() - the next kernel of the device
 * @g: the device
 * @k: a kernel vgpu_policy_kernel_first() or this function returned
 *
 * Return: the next kernel after @k in the order of
 * vgpu_policy_kernel_first(), or NULL after the last.
 */
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_next(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k)
{
	if (list_empty(&k->table_node))
		return NULL;
	return vgpu_policy_arrived_from(g, k->table_node.next);
}

/**
 * vgpu_policy_kernel_id() - a kernel's id
 * @k: the kernel
 *
 * Return: the id its submitter gave it (events and traces name it by
 * that), or the core's id of a child kernel (F15).
 */
u32 vgpu_policy_kernel_id(const struct vgpu_gpu_kernel *k)
{
	return k->args.id;
}

/**
 * vgpu_policy_kernel_seq() - a kernel's submission sequence number
 * @k: the kernel
 *
 * Return: a number unique in the device, growing in submission order
 * (the last tie-break of the seeds' orders).
 */
u64 vgpu_policy_kernel_seq(const struct vgpu_gpu_kernel *k)
{
	return k->seq;
}

/**
 * vgpu_policy_kernel_channel() - the channel a kernel's tree belongs to
 * @k: the kernel
 *
 * Return: the channel its tree's submitted kernel was submitted to (a
 * child kernel, F15, goes by its root's), below vgpu_policy_num_channels().
 */
u32 vgpu_policy_kernel_channel(const struct vgpu_gpu_kernel *k)
{
	return k->child.root->args.channel;
}

/**
 * vgpu_policy_kernel_tenant() - who submitted a kernel's tree
 * @k: the kernel
 *
 * Return: its tree's tenant (the module: the open file; vgpu-sim: the
 * workload's "tenant"); compare tenants for equality only.
 */
u32 vgpu_policy_kernel_tenant(const struct vgpu_gpu_kernel *k)
{
	return k->child.root->args.tenant;
}

/**
 * vgpu_policy_kernel_root() - the submitted kernel of a kernel's tree
 * @k: the kernel
 *
 * Return: @k for a submitted kernel, the kernel whose tree it belongs to
 * for a child kernel (F15).
 */
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_root(const struct vgpu_gpu_kernel *k)
{
	return k->child.root;
}

/**
 * vgpu_policy_kernel_prio() - a kernel's submitted priority
 * @k: the kernel
 *
 * Return: the priority it was submitted with, 0 the highest.
 */
u32 vgpu_policy_kernel_prio(const struct vgpu_gpu_kernel *k)
{
	return k->args.prio;
}

/**
 * vgpu_policy_kernel_eff_prio() - a kernel's effective priority
 * @k: the kernel
 *
 * Return: the priority the core schedules it at now (the lowest after a
 * split, F24), 0 the highest.
 */
u32 vgpu_policy_kernel_eff_prio(const struct vgpu_gpu_kernel *k)
{
	return k->eff_prio;
}

/**
 * vgpu_policy_kernel_arrival() - when a kernel arrives
 * @k: the kernel
 *
 * Return: the cycle it arrives (or arrived) at; a kernel whose arrival is
 * later than vgpu_policy_now() is known to the device but waits.
 */
u64 vgpu_policy_kernel_arrival(const struct vgpu_gpu_kernel *k)
{
	return k->args.arrival;
}

/**
 * vgpu_policy_kernel_entered() - when a kernel last entered the task table
 * @k: the kernel
 *
 * Return: the boundary at which it was last admitted to the task table
 * (F13), 0 if it never was.  A kernel admitted at cycle 0 reads 0 too:
 * VGPU_POLICY_KF_TABLE tells whether it is in the table.
 */
u64 vgpu_policy_kernel_entered(const struct vgpu_gpu_kernel *k)
{
	return k->t.entered;
}

/**
 * vgpu_policy_kernel_blocks() - a kernel's grid
 * @k: the kernel
 *
 * Return: its blocks (0 for a queue kernel, F14, whose blocks are made as
 * work items arrive).
 */
u32 vgpu_policy_kernel_blocks(const struct vgpu_gpu_kernel *k)
{
	return k->args.grid;
}

/**
 * vgpu_policy_kernel_warps() - the warps of one of a kernel's blocks
 * @k: the kernel
 *
 * Return: warps per block (before a split, F24).
 */
u32 vgpu_policy_kernel_warps(const struct vgpu_gpu_kernel *k)
{
	return k->warps;
}

/**
 * vgpu_policy_kernel_pending() - a kernel's dispatch units still to place
 * @k: the kernel
 *
 * Return: its blocks (and single-warp sub-blocks after a split, F24) not
 * dispatched yet, switched-out ones and a queue kernel's ready blocks
 * (F14) included.
 */
u32 vgpu_policy_kernel_pending(const struct vgpu_gpu_kernel *k)
{
	return vgpu_gpu_undispatched(k);
}

/**
 * vgpu_policy_kernel_resident() - a kernel's dispatch units on the SMs
 * @k: the kernel
 *
 * Return: its blocks (or sub-blocks) placed on SMs and not completed or
 * switched out: each holds vgpu_policy_kernel_warps() warps of an SM (a
 * sub-block one).
 */
u32 vgpu_policy_kernel_resident(const struct vgpu_gpu_kernel *k)
{
	return k->inflight;
}

/**
 * vgpu_policy_kernel_deadline() - the deadline of a kernel's tree
 * @k: the kernel
 *
 * Return: the absolute cycle its tree's submitted kernel should complete
 * by (its relative deadline after its arrival), or 0 for none.
 */
u64 vgpu_policy_kernel_deadline(const struct vgpu_gpu_kernel *k)
{
	u64 d = k->child.root->t.deadline_at;

	return d == VGPU_GPU_NO_CYCLE ? 0 : d;
}

/**
 * vgpu_policy_kernel_flags() - what kind of kernel it is
 * @k: the kernel
 *
 * Return: VGPU_POLICY_KF_* bits.
 */
u32 vgpu_policy_kernel_flags(const struct vgpu_gpu_kernel *k)
{
	u32 f = 0;

	if (k->args.flags & VGPU_KF_HEAD)
		f |= VGPU_POLICY_KF_HEAD;
	if (k->args.flags & VGPU_KF_SEQUENTIAL)
		f |= VGPU_POLICY_KF_SEQUENTIAL;
	if (k->args.flags & VGPU_KF_QUEUE)
		f |= VGPU_POLICY_KF_QUEUE;
	if (k->args.flags & VGPU_KF_INDEPENDENT)
		f |= VGPU_POLICY_KF_INDEPENDENT;
	if (k->args.flags & VGPU_KF_THROTTLE)
		f |= VGPU_POLICY_KF_THROTTLE;
	if (k->child.parent)
		f |= VGPU_POLICY_KF_CHILD;
	if (k->split)
		f |= VGPU_POLICY_KF_SPLIT;
	if (k->uses_bar)
		f |= VGPU_POLICY_KF_BAR;
	if (k->slot != ~0U)
		f |= VGPU_POLICY_KF_TABLE;
	return f;
}

/**
 * vgpu_policy_sm_top_prio() - the highest priority resident on an SM
 * @g: the device
 * @sm: the SM, below vgpu_policy_num_sms()
 *
 * Return: the highest (numerically lowest) effective priority of the
 * blocks resident on @sm, ~0 when it holds none (or @sm is out of range).
 */
u32 vgpu_policy_sm_top_prio(const struct vgpu_gpu *g, u32 sm)
{
	u32 p;

	if (sm >= g->cfg.num_sms)
		return ~0U;
	p = g->sm[sm].sm.top_prio;
	return p == VGPU_PRIO_NONE ? ~0U : p;
}

/**
 * vgpu_policy_sm_blocks() - the blocks resident on an SM
 * @g: the device
 * @sm: the SM, below vgpu_policy_num_sms()
 *
 * Return: how many blocks (or sub-blocks) hold a block slot of @sm, 0
 * when @sm is out of range.
 */
u32 vgpu_policy_sm_blocks(const struct vgpu_gpu *g, u32 sm)
{
	if (sm >= g->cfg.num_sms)
		return 0;
	return hweight64(g->sm[sm].shadow_used);
}

/*
 * The state accessors return the policy's own storage, writable, from a
 * const device or kernel: the one place the view drops const.  The
 * storage is the policy's, not the core's (the core only zeroes it when
 * the policy starts, a channel is added or a kernel enters the device),
 * and the ops that may write it get the device or the kernel as a const
 * pointer like every other op, so a writable handle to the state cannot
 * come from anywhere else.
 */

/**
 * vgpu_policy_state() - the policy's per-device state
 * @g: the device
 *
 * Return: &vgpu_policy_ops.state_size bytes of storage, 8-byte aligned.
 */
void *vgpu_policy_state(const struct vgpu_gpu *g)
{
	return (void *)g->policy_state;
}

/**
 * vgpu_policy_state_ro() - the policy's per-device state, to read
 * @g: the device
 *
 * Return: what vgpu_policy_state() returns, as const.
 */
const void *vgpu_policy_state_ro(const struct vgpu_gpu *g)
{
	return g->policy_state;
}

/**
 * vgpu_policy_chan_state() - the policy's state of a channel
 * @g: the device
 * @ch: the channel, below vgpu_policy_num_channels()
 *
 * Return: &vgpu_policy_ops.chan_state_size bytes of storage, 8-byte
 * aligned, zeroed when the channel was added.
 */
void *vgpu_policy_chan_state(const struct vgpu_gpu *g, u32 ch)
{
	return (void *)g->chan_policy[ch];
}

/**
 * vgpu_policy_chan_state_ro() - the policy's state of a channel, to read
 * @g: the device
 * @ch: the channel, below vgpu_policy_num_channels()
 *
 * Return: what vgpu_policy_chan_state() returns, as const.
 */
const void *vgpu_policy_chan_state_ro(const struct vgpu_gpu *g, u32 ch)
{
	return g->chan_policy[ch];
}

/**
 * vgpu_policy_kernel_state() - the policy's state of a kernel
 * @k: the kernel
 *
 * Return: &vgpu_policy_ops.kernel_state_size bytes of storage, 8-byte
 * aligned, zeroed when the kernel entered the device.
 */
void *vgpu_policy_kernel_state(const struct vgpu_gpu_kernel *k)
{
	return (void *)k->policy_data;
}

/**
 * vgpu_policy_kernel_state_ro() - the policy's state of a kernel, to read
 * @k: the kernel
 *
 * Return: what vgpu_policy_kernel_state() returns, as const.
 */
const void *vgpu_policy_kernel_state_ro(const struct vgpu_gpu_kernel *k)
{
	return k->policy_data;
}

/**
 * vgpu_policy_yield() - ask for a kernel's SMs back (from @tick)
 * @g: the device
 * @k: a kernel of the device
 *
 * The same as vgpu_policy_preempt_kernel() (policy_default.c): after the
 * tick the core preempts @k in the device's preemption mode as
 * vgpu_gpu_yield() describes, or refuses the request before the minimum
 * residency (policy_watch.c).
 *
 * Return: what vgpu_policy_preempt_kernel() returns.
 */
int vgpu_policy_yield(const struct vgpu_gpu *g,
		      const struct vgpu_gpu_kernel *k)
{
	return vgpu_policy_preempt_kernel(g, k);
}
