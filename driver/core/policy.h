/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduling policies of the global controller (F12-F27):
 * built-in and loadable, every decision an op.
 *
 * A policy makes the firmware's decisions; the core makes them happen and
 * keeps its invariants (DOC block below).  Policies are ops
 * tables registered by name in a registry (a plain list): the core keeps no
 * global state, so the caller owns the registry and serialises access to
 * it.  The module keeps one registry for all devices under a mutex and
 * exports register/unregister so another module can add its own policy,
 * the way TCP congestion control or the I/O schedulers do.
 */
#ifndef VGPU_CORE_POLICY_H
#define VGPU_CORE_POLICY_H

#include "vgpu_os.h"
#include "resource.h"

#define VGPU_POLICY_NAME_LEN	16

struct vgpu_gpu;
struct vgpu_gpu_kernel;

/**
 * struct vgpu_policy_sm - what a policy may look at for one fitting SM
 * @sm: SM index
 * @res: its remaining resources (read only): what its blocks hold, not
 *	the warps committed to it that have not started yet, which @free
 *	and @fit count (vgpu_gpu_sm_view(), F23 (b))
 * @power: with VGPU_POLICY_WANT_POWER, the instruction-power history of
 *	the SM over the last nx cycles, sum of b_s * c_s (F25); else 0
 * @free: with VGPU_POLICY_WANT_FREE, the SM's weighted remaining
 *	resources, sum of a_h * r_h with the device's weights, r_h of the
 *	registers and shared memory their largest free run in the device's
 *	search mode (one sub-partition's, F25, seed 001 [0041], [0257]),
 *	of warp and block slots the free count: the figure debugfs "sm"
 *	shows as avail; else 0
 * @fit: with VGPU_POLICY_WANT_FIT, how many more whole blocks of the shape
 *	fit on the SM (F25 availability, vgpu_sm_res_blocks_fit()); else 0
 *
 * The controller computes the figures a policy asks for in
 * &vgpu_policy_ops.wants and keeps them from one decision to the next for
 * the SMs whose resources did not change, so reading them costs a policy
 * nothing; computing its own figure from @res for every candidate costs a
 * run search each.
 */
struct vgpu_policy_sm {
	u32 sm;
	u32 fit;
	const struct vgpu_sm_res *res;
	u64 power;
	u64 free;
};

/**
 * struct vgpu_policy_ctx - one choice to make
 * @gpu: the device (for per-device policy state such as the RR pointer)
 * @shape: the block to place
 * @rr_next: round-robin pointer of the device: the SM after the last one
 *	chosen (read; the controller advances it after the choice)
 * @sm_rank: fixed SM priority list as a rank per SM (lower = preferred),
 *	used to break ties (F25)
 * @res_weight: weights a_h of the resources: [0] free register units,
 *	[1] free warp slots, [2] free shared memory units, [3] free block slots
 * @k: the kernel whose block it is
 * @free_max: @res_weight's sum over an empty SM (scales
 *	&vgpu_policy_sm.free to 0..1)
 * @power_max: the largest power history an SM can have (scales
 *	&vgpu_policy_sm.power to about 0..1)
 * @combo: percent of the remaining-resources figure against the power
 *	figure in the "combined" policy (seed 001 [0283])
 */
struct vgpu_policy_ctx {
	struct vgpu_gpu *gpu;
	const struct vgpu_block_shape *shape;
	u32 rr_next;
	const u16 *sm_rank;
	const u32 *res_weight;
	const struct vgpu_gpu_kernel *k;
	u64 free_max;
	u64 power_max;
	u32 combo;
};

/**
 * DOC: scheduling policies (struct vgpu_policy_ops)
 *
 * Every decision the firmware makes is an op of one table, named after its
 * decision point, the way &struct sched_ext_ops is.  Every op is optional:
 * an op left NULL is the seeds' pipeline (F12-F27), so a policy
 * replaces only what it wants to, and the default policy ("rr", and the
 * other built-in SM choices) gives the trace hashes recorded in
 * selftests/core/trace-hashes.txt.  The ops run in the controller, between
 * two epochs (the module: under &vgpu_sched.lock), never concurrently with
 * each other or with the SMs; they must be deterministic (F51: the same
 * answers for the same calls), must not sleep, allocate or read a clock,
 * and may write nothing but the policy's own state (vgpu_policy_state(),
 * vgpu_policy_chan_state(), vgpu_policy_kernel_state(): the sizes the
 * table declares); from @tick they may ask for a kernel's SMs back
 * (vgpu_policy_yield()).  They read the device, its kernels and its SMs
 * through the view (DOC "the view of a policy" below), never the core's
 * structures, which a policy cannot see.
 *
 * The core enforces the invariants whatever a policy answers: resources,
 * affinity masks and SM throttling, sequential kernels, BAR kernels never
 * partially resident, preemption of lower priorities only, nothing of a
 * cancelled kernel dispatched.  An answer that breaks one of them, names
 * something that does not exist or is out of range is not used: the core
 * counts it (&vgpu_gpu_stats.policy_errors) and takes the default's answer
 * instead.  Ordering ops (@admit_before, @select_before) cannot be wrong,
 * only odd: the core still visits every candidate once.
 *
 * Life of a policy on a device: @init when the device starts using it
 * (the device is made with it, or switched to it with
 * vgpu_gpu_set_policy()), its declared state zeroed before; an error from
 * @init refuses the policy: the device is not made, or keeps its previous
 * policy, which restarts (@exit and @init again, its state zeroed).
 * @exit when the device stops using it (a switch away, vgpu_gpu_fini()).
 * A channel's state is zeroed when the channel is added, a kernel's when
 * it enters the device.
 *
 * Decision points, in the order a dispatch boundary meets them:
 *
 * @tick: once per dispatch boundary (also while the gate holds dispatch),
 * after arrivals and the task-table update, with the device clock at
 * vgpu_policy_now() and the F22 window of the boundary in
 * vgpu_policy_window(), before the first decision: a timeslicing or
 * fair-share policy ages its state here.  It may ask for kernels' SMs
 * back (vgpu_policy_preempt_kernel(), or vgpu_policy_yield(), the same),
 * in every preemption mode (vgpu_gpu_yield()), and set their effective
 * priorities (vgpu_policy_set_prio()).
 *
 * @admit_before: F13, the task table.  The waiting kernels (channel heads
 * and child kernels) enter free slots in this order; the waiting kernel
 * first in it may evict the occupant last in it when @may_evict says so.
 * Default: priority, then F16 order (HEAD kernels first, then by arrival).
 *
 * @may_evict: F13, whether @w may take @victim's slot (the table is full).
 * Default: @victim has a lower priority than @w.
 *
 * @select_before: F12, F20-F22, F16: the order in which the kernels of the
 * task table are offered a decision; the first one that fits anywhere
 * gets it.  The F26 gates (throttle, sequential, quota-exhausted kernels
 * last) filter the candidates before; a kernel that fits nowhere is not
 * offered again at the same boundary.  Default: the F22 window's priority
 * first, then priority, the F21 fairness flag, F26 quota, F16 order by
 * the time of entry into the table (HEAD kernels first, then the one that
 * entered first; seed 002 steps 430-434).
 *
 * @select_sm: F25, the SM a kernel's next block goes to, among the SMs it
 * fits (@cands, in ascending SM order, @n >= 1); returns an index into
 * @cands, or VGPU_POLICY_WAIT when none of them will do (the block then
 * does not fit at this boundary: a policy that confines kernels to SMs).
 * @first_fit says the op always picks the first candidate at or after
 * &vgpu_policy_ctx.rr_next, which lets the core stop at the first SM that
 * fits.  @wants names the figures of &vgpu_policy_sm it reads.  The
 * candidates and their figures are kept by the core across the decisions
 * of a boundary (only SMs whose resources changed are looked at again),
 * so an op that reads them and loops once over @cands stays cheap.
 * Default: that round robin.
 *
 * @pack: F23 (a), how many of the kernel's blocks go to the chosen SM in
 * this decision, at most @want (its undispatched blocks, bounded by its
 * F26 quota; 1 for warp-level placement and sequential kernels); the core
 * places as many of them as fit.  Default: @want.
 *
 * @preempt: F23 (b)/(c), nothing fits anywhere: the SM on which the
 * device's preemption mode makes room for @k's next block, or
 * VGPU_POLICY_WAIT to wait (not called in drain mode).  The SM's highest
 * resident priority must be lower than @k's, or @k's own (the blocks of
 * that priority of other kernels are then preempted too: DOC "policy
 * expressiveness" in policy_default.c); it must be allowed for @k and
 * pass the mode's test (warp mode: the block fits once the preempted
 * blocks stop issuing; switch mode: it fits once they are switched out).
 * Default: the SM whose highest resident priority is the lowest below
 * @k's, ties by the fixed SM list (vgpu_policy_default_preempt()).
 *
 * @split: F24, once more than g_max dispatch rounds in a row failed while
 * kernels waited: the waiting independent kernel to split into single-warp
 * blocks, or NULL for none.  It must be in the table, independent, not a
 * queue kernel, not split, arrived, with blocks left and the head of its
 * channel.  Default: the first of them in F13 waiting order (priority,
 * then F16 order).
 *
 * Notifications for a stateful policy, after the core acted:
 * @submitted (a kernel entered the device), @dispatched (a block went to
 * an SM), @block_done (a block completed, with the cycles it was
 * resident), @kernel_done (completed), @cancelled (cancelled or failed),
 * @arrived (a kernel entered the task table: each time it does, again
 * after an eviction or a switch-out that sent it back to its channel),
 * @preempted (blocks of a kernel on an SM were preempted, for a higher
 * priority or on a policy's request), @resumed (a switched-out block was
 * restored).  The device's kernel list also holds kernels submitted with
 * a later arrival: @submitted is called for them at submission,
 * vgpu_policy_for_each_kernel() visits them once they arrived.
 */

/*
 * The policy's state: at most VGPU_POLICY_MAX_STATE bytes per device,
 * VGPU_POLICY_MAX_CHAN_STATE per channel and VGPU_POLICY_MAX_KERNEL_STATE
 * per kernel, the sizes it declares in &vgpu_policy_ops.  The core
 * reserves that much for every policy (the words below) and allocates
 * nothing when a policy starts.
 */
#define VGPU_POLICY_MAX_STATE		1024
#define VGPU_POLICY_MAX_CHAN_STATE	16
#define VGPU_POLICY_MAX_KERNEL_STATE	16
#define VGPU_POLICY_STATE_WORDS		(VGPU_POLICY_MAX_STATE / 8)
#define VGPU_POLICY_CHAN_WORDS		(VGPU_POLICY_MAX_CHAN_STATE / 8)
#define VGPU_POLICY_KERNEL_WORDS	(VGPU_POLICY_MAX_KERNEL_STATE / 8)

/* Figures of struct vgpu_policy_sm a policy reads (&vgpu_policy_ops.wants). */
#define VGPU_POLICY_WANT_FIT	BIT(0)
#define VGPU_POLICY_WANT_POWER	BIT(1)
#define VGPU_POLICY_WANT_FREE	BIT(2)

/**
 * enum vgpu_policy_packing - blocks per decision (&vgpu_policy_ops.packing)
 * @VGPU_POLICY_PACK_DEFAULT: not stated: the packing of the SM choice the
 *	policy runs with when it has no @select_sm of its own (vgpu-sim
 *	--policy FILE.so: the workload's), else the default's: one block,
 *	or @pack's answer when the policy has a @pack op
 * @VGPU_POLICY_PACK_BLOCK: one block, its SM chosen for it (seed 002);
 *	refused with a @pack op, which would never be asked
 * @VGPU_POLICY_PACK_SM: as many of the kernel's blocks as fit on the chosen
 *	SM, or @pack of them (seed 000, F23 (a))
 *
 * The device's pack mode (VGPU_PACK_BLOCK, VGPU_PACK_SM) overrides it.
 */
enum vgpu_policy_packing {
	VGPU_POLICY_PACK_DEFAULT,
	VGPU_POLICY_PACK_BLOCK,
	VGPU_POLICY_PACK_SM,
};

/* @preempt's and @select_sm's answer for "wait: none of these". */
#define VGPU_POLICY_WAIT	(~0U)

struct vgpu_gpu_kernel;
struct module;

/**
 * struct vgpu_policy_ops - a scheduling policy: one op per decision point
 * @name: the name devices select it by (new_device policy=NAME, F27)
 * @first_fit: @select_sm always picks the first candidate at or after
 *	&vgpu_policy_ctx.rr_next (wrapping), so the controller may stop
 *	scanning at the first SM that fits and skip @select_sm
 * @packing: how many blocks a decision places under the device's
 *	VGPU_PACK_AUTO, enum vgpu_policy_packing: stated by the policy,
 *	never inferred from the ops it sets
 * @wants: the figures of &vgpu_policy_sm @select_sm reads,
 *	VGPU_POLICY_WANT_* (the core computes only those)
 * @state_size: bytes of per-device state the policy uses
 *	(vgpu_policy_state()), at most VGPU_POLICY_MAX_STATE
 * @chan_state_size: bytes of per-channel state (vgpu_policy_chan_state()),
 *	at most VGPU_POLICY_MAX_CHAN_STATE
 * @kernel_state_size: bytes of per-kernel state
 *	(vgpu_policy_kernel_state()), at most VGPU_POLICY_MAX_KERNEL_STATE
 * @init: a device starts using the policy, its state zeroed; non-zero
 *	(an errno) refuses: the device keeps its previous policy, or fails
 *	to start
 * @exit: a device stops using the policy (it switches to another one or
 *	goes away)
 * @tick: a dispatch boundary at vgpu_policy_now()
 * @admit_before: true if waiting kernel @a enters the task table before @b
 * @may_evict: true if waiting kernel @w may evict @victim (table full)
 * @select_before: true if candidate @a is offered a decision before @b
 * @select_sm: the index into @cands of the chosen SM, or VGPU_POLICY_WAIT
 * @pack: blocks of @k for the chosen SM, 1..@want
 * @preempt: the SM to preempt on for @k, or VGPU_POLICY_WAIT
 * @split: the kernel to split (F24), or NULL
 * @submitted: @k entered the device
 * @dispatched: a block of @k went to SM @sm
 * @block_done: a block of @k completed on SM @sm after @cycles resident
 * @kernel_done: @k completed
 * @cancelled: @k was cancelled or failed
 * @arrived: @k entered the task table (F13): it may be offered decisions
 * @preempted: block(s) of @k on SM @sm were preempted, @by
 *	VGPU_POLICY_BY_PRIO (a higher priority, F23 (c)) or
 *	VGPU_POLICY_BY_POLICY (a policy's request)
 * @resumed: a switched-out block of @k was restored on SM @sm
 *
 * See the DOC block above for when each op is called, what it may read and
 * write, and what the core guarantees.  Every op may be NULL.  A table is
 * constant: what registering it takes lives in &struct vgpu_policy_reg.
 */
struct vgpu_policy_ops {
	char name[VGPU_POLICY_NAME_LEN];
	bool first_fit;
	u8 packing;
	u32 wants;
	u32 state_size;
	u32 chan_state_size;
	u32 kernel_state_size;
	int (*init)(struct vgpu_gpu *g);
	void (*exit)(struct vgpu_gpu *g);
	void (*tick)(struct vgpu_gpu *g);
	bool (*admit_before)(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *a,
			     const struct vgpu_gpu_kernel *b);
	bool (*may_evict)(const struct vgpu_gpu *g,
			  const struct vgpu_gpu_kernel *w,
			  const struct vgpu_gpu_kernel *victim);
	bool (*select_before)(const struct vgpu_gpu *g,
			      const struct vgpu_gpu_kernel *a,
			      const struct vgpu_gpu_kernel *b);
	u32 (*select_sm)(const struct vgpu_policy_ctx *ctx,
			 const struct vgpu_policy_sm *cands, u32 n);
	u32 (*pack)(const struct vgpu_gpu *g, const struct vgpu_gpu_kernel *k,
		    u32 want);
	u32 (*preempt)(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *k);
	struct vgpu_gpu_kernel *(*split)(const struct vgpu_gpu *g);
	void (*submitted)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
	void (*dispatched)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   u32 sm);
	void (*block_done)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   u32 sm, u64 cycles);
	void (*kernel_done)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
	void (*cancelled)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
	void (*arrived)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
	void (*preempted)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  u32 sm, u32 by);
	void (*resumed)(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k, u32 sm);
};

/**
 * struct vgpu_policy_reg - a policy's entry in a registry
 * @ops: its ops table
 * @owner: the module holding @ops and this entry (the kernel; NULL for
 *	the built-ins and natively); a device using the policy holds a
 *	reference on it
 * @users: devices using the policy; kept by the registry's user
 * @node: link in the registry
 *
 * The registry's user owns the entry and serialises access to it (the
 * module: under its registry mutex); the core only links it.
 */
struct vgpu_policy_reg {
	const struct vgpu_policy_ops *ops;
	struct module *owner;
	u32 users;
	struct list_head node;
};

void vgpu_policy_registry_init(struct list_head *registry);
int vgpu_policy_register(struct list_head *registry,
			 struct vgpu_policy_reg *reg);
void vgpu_policy_unregister(struct vgpu_policy_reg *reg);
struct vgpu_policy_reg *vgpu_policy_find(struct list_head *registry,
					 const char *name);
const struct vgpu_policy_ops *vgpu_policy_sm_choice(const char *name);
u64 vgpu_policy_weighted_free(const struct vgpu_sm_res *res,
			      const u32 *weight);

/*
 * ---- The view: what a policy reads, and its helpers (policy_view.c) ----
 */

/**
 * DOC: the view of a policy
 *
 * A policy sees no structure of the core: &struct vgpu_gpu (the device)
 * and &struct vgpu_gpu_kernel (a kernel) are incomplete types for it
 * (driver/vgpu_policy.h includes this header, not gpu.h), handles it
 * passes to the functions below.  Every one takes a const handle and
 * reads one figure of the current boundary; none has side effects, apart
 * from the helpers, which record a request the core checks and carries
 * out after the op returns.  They are functions, not inline reads, so
 * that a policy's object code does not depend on the core's layout: the
 * same .ko loads into another build of the module, the same .so into
 * another vgpu-sim, and each function maps one-for-one onto a helper of
 * an in-kernel verifier.
 *
 * Device: vgpu_policy_now(), vgpu_policy_window(), vgpu_policy_num_sms(),
 * vgpu_policy_num_channels(), vgpu_policy_num_prios(),
 * vgpu_policy_preempt_mode(); its kernels by vgpu_policy_for_each_kernel()
 * (vgpu_policy_kernel_first(), vgpu_policy_kernel_next()): those that
 * arrived and have not finished, in submission order, whether in the task
 * table (F13, VGPU_POLICY_KF_TABLE: the ones decisions are offered to),
 * waiting in their channels for a slot, or out of the table with every
 * block dispatched and some still running.  The device also holds
 * kernels submitted with a later arrival: no op sees those.
 *
 * Kernel: vgpu_policy_kernel_id(), _seq(), _channel(), _tenant(),
 * _root(), _prio(), _eff_prio(), _arrival(), _entered(), _blocks(),
 * _warps(), _pending(), _resident(), _deadline(), _flags()
 * (VGPU_POLICY_KF_*).  A child kernel (F15) belongs to its tree: its
 * channel, tenant and deadline are its root's.
 *
 * SM: vgpu_policy_sm_top_prio(), vgpu_policy_sm_blocks(); an SM choice
 * gets its candidates' figures in &struct vgpu_policy_sm.
 *
 * State: vgpu_policy_state(), vgpu_policy_chan_state(),
 * vgpu_policy_kernel_state() and their _ro variants return the policy's
 * own storage, the sizes its table declares.  They return it writable
 * from a const handle: the one place the view drops const, because the
 * storage is the policy's, not the core's.
 *
 * Helpers: vgpu_policy_yield() from @tick.
 */

/* Preemption modes for path (c) of F23 (vgpu_policy_preempt_mode()). */
#define VGPU_PREEMPT_DRAIN	0	/* no preemption (baseline) */
#define VGPU_PREEMPT_WARP	1	/* new warps take slots as old ones end */
#define VGPU_PREEMPT_SWITCH	2	/* save, free, restore whole blocks */

/* What kind of kernel it is (vgpu_policy_kernel_flags()). */
#define VGPU_POLICY_KF_HEAD		BIT(0)	/* head of its priority (F16) */
#define VGPU_POLICY_KF_SEQUENTIAL	BIT(1)	/* one block at a time (F26) */
#define VGPU_POLICY_KF_CHILD		BIT(2)	/* launched by a kernel (F15) */
#define VGPU_POLICY_KF_QUEUE		BIT(3)	/* work-item queue (F14) */
#define VGPU_POLICY_KF_SPLIT		BIT(4)	/* split to warps (F24) */
#define VGPU_POLICY_KF_BAR		BIT(5)	/* never partly resident (F23) */
#define VGPU_POLICY_KF_INDEPENDENT	BIT(6)	/* may be split (F24) */
#define VGPU_POLICY_KF_THROTTLE		BIT(7)	/* throttle mode only (F26) */
#define VGPU_POLICY_KF_TABLE		BIT(8)	/* in the task table now */

u64 vgpu_policy_now(const struct vgpu_gpu *g);
u32 vgpu_policy_window(const struct vgpu_gpu *g);
u32 vgpu_policy_num_sms(const struct vgpu_gpu *g);
u32 vgpu_policy_num_channels(const struct vgpu_gpu *g);
u32 vgpu_policy_num_prios(const struct vgpu_gpu *g);
u32 vgpu_policy_preempt_mode(const struct vgpu_gpu *g);
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_first(const struct vgpu_gpu *g);
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_next(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k);

/*
 * vgpu_policy_for_each_kernel(g, k): @k (a const struct vgpu_gpu_kernel
 * pointer) over the arrived, unfinished kernels of @g, in submission
 * order (vgpu_policy_kernel_first()).
 */
#define vgpu_policy_for_each_kernel(g, k)				\
	for ((k) = vgpu_policy_kernel_first(g); (k);			\
	     (k) = vgpu_policy_kernel_next((g), (k)))

u32 vgpu_policy_kernel_id(const struct vgpu_gpu_kernel *k);
u64 vgpu_policy_kernel_seq(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_channel(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_tenant(const struct vgpu_gpu_kernel *k);
const struct vgpu_gpu_kernel *
vgpu_policy_kernel_root(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_prio(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_eff_prio(const struct vgpu_gpu_kernel *k);
u64 vgpu_policy_kernel_arrival(const struct vgpu_gpu_kernel *k);
u64 vgpu_policy_kernel_entered(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_blocks(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_warps(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_pending(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_resident(const struct vgpu_gpu_kernel *k);
u64 vgpu_policy_kernel_deadline(const struct vgpu_gpu_kernel *k);
u32 vgpu_policy_kernel_flags(const struct vgpu_gpu_kernel *k);

u32 vgpu_policy_sm_top_prio(const struct vgpu_gpu *g, u32 sm);
u32 vgpu_policy_sm_blocks(const struct vgpu_gpu *g, u32 sm);

void *vgpu_policy_state(const struct vgpu_gpu *g);
const void *vgpu_policy_state_ro(const struct vgpu_gpu *g);
void *vgpu_policy_chan_state(const struct vgpu_gpu *g, u32 ch);
const void *vgpu_policy_chan_state_ro(const struct vgpu_gpu *g, u32 ch);
void *vgpu_policy_kernel_state(const struct vgpu_gpu_kernel *k);
const void *vgpu_policy_kernel_state_ro(const struct vgpu_gpu_kernel *k);

int vgpu_policy_yield(const struct vgpu_gpu *g,
		      const struct vgpu_gpu_kernel *k);

/*
 * ---- The watchdog: a policy cannot stall the device (policy_watch.c) ----
 *
 * See the DOC block "policy watchdog" in policy_watch.c.
 */

/**
 * enum vgpu_policy_op - the decision points whose answers the core checks
 * @VGPU_POLICY_OP_TICK: @tick wrote a kernel's effective priority
 * @VGPU_POLICY_OP_ADMIT_BEFORE: @admit_before said a < b and b < a
 * @VGPU_POLICY_OP_MAY_EVICT: @may_evict let two kernels evict each other
 * @VGPU_POLICY_OP_SELECT_BEFORE: @select_before said a < b and b < a
 * @VGPU_POLICY_OP_SELECT_SM: @select_sm answered out of range
 * @VGPU_POLICY_OP_PACK: @pack answered 0 or more than it may
 * @VGPU_POLICY_OP_PREEMPT: @preempt named an SM the rules forbid
 * @VGPU_POLICY_OP_SPLIT: @split named a kernel that cannot be split
 * @VGPU_POLICY_OP_YIELD: a yield the core refused (minimum residency)
 * @VGPU_POLICY_OP_SET_PRIO: vgpu_policy_set_prio() out of range, out of
 *	@tick or on a kernel that cannot change priority
 * @VGPU_POLICY_NUM_OPS: how many
 */
enum vgpu_policy_op {
	VGPU_POLICY_OP_TICK,
	VGPU_POLICY_OP_ADMIT_BEFORE,
	VGPU_POLICY_OP_MAY_EVICT,
	VGPU_POLICY_OP_SELECT_BEFORE,
	VGPU_POLICY_OP_SELECT_SM,
	VGPU_POLICY_OP_PACK,
	VGPU_POLICY_OP_PREEMPT,
	VGPU_POLICY_OP_SPLIT,
	VGPU_POLICY_OP_YIELD,
	VGPU_POLICY_OP_SET_PRIO,
	VGPU_POLICY_NUM_OPS
};

/**
 * enum vgpu_policy_exit - why a policy was ejected
 * @VGPU_POLICY_EXIT_NONE: it was not
 * @VGPU_POLICY_EXIT_STALL: runnable work made no progress for
 *	VGPU_POLICY_STALL_BOUNDARIES boundaries because of its answers
 * @VGPU_POLICY_EXIT_ERRORS: VGPU_POLICY_MAX_ERRORS_IN_ROW of its answers
 *	in a row were refused
 * @VGPU_POLICY_NUM_EXITS: how many
 */
enum vgpu_policy_exit {
	VGPU_POLICY_EXIT_NONE,
	VGPU_POLICY_EXIT_STALL,
	VGPU_POLICY_EXIT_ERRORS,
	VGPU_POLICY_NUM_EXITS
};

/* Boundaries without progress, the policy holding work back: ejected. */
#define VGPU_POLICY_STALL_BOUNDARIES	64
/* Refused answers in a row: ejected. */
#define VGPU_POLICY_MAX_ERRORS_IN_ROW	32
/* Answers of the ordering ops checked for consistency after a switch. */
#define VGPU_POLICY_ORDER_CHECKS	256
/* Minimum residency after a yield: this many switch costs (or an epoch). */
#define VGPU_POLICY_MIN_RESIDENCY_SWITCHES	4

const char *vgpu_policy_op_name(u32 op);
const char *vgpu_policy_exit_name(u32 reason);

/*
 * ---- Expressiveness: what a policy may ask of the core ----
 *
 * See the DOC block "policy expressiveness" in policy_view.c.
 */

/* &vgpu_policy_ops.preempted's @by: who preempted the blocks. */
#define VGPU_POLICY_BY_PRIO	0	/* a higher priority (F23 (c)) */
#define VGPU_POLICY_BY_POLICY	1	/* a policy's request */

/* Asked from @tick: the core carries the request out, or refuses it. */
int vgpu_policy_preempt_kernel(const struct vgpu_gpu *g,
			       const struct vgpu_gpu_kernel *k);
int vgpu_policy_set_prio(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k, u32 prio);

/* GPU time kept by the core, in warp-cycles, at &vgpu_gpu.now. */
u64 vgpu_policy_kernel_gpu_time(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k);
u64 vgpu_policy_channel_gpu_time(const struct vgpu_gpu *g, u32 ch);
u64 vgpu_policy_tenant_gpu_time(const struct vgpu_gpu *g, u32 tenant);

/* The blocks on an SM, slot by slot: VGPU_POLICY_SM_SLOTS slots. */
#define VGPU_POLICY_SM_SLOTS	64
const struct vgpu_gpu_kernel *
vgpu_policy_sm_block_kernel(const struct vgpu_gpu *g, u32 sm, u32 slot);
u32 vgpu_policy_sm_block_prio(const struct vgpu_gpu *g, u32 sm, u32 slot);
bool vgpu_policy_kernel_preemptible(const struct vgpu_gpu *g,
				    const struct vgpu_gpu_kernel *k);

/* The default's decisions, for a policy that refines them. */
bool vgpu_policy_default_admit_before(const struct vgpu_gpu *g,
				      const struct vgpu_gpu_kernel *a,
				      const struct vgpu_gpu_kernel *b);
bool vgpu_policy_default_select_before(const struct vgpu_gpu *g,
				       const struct vgpu_gpu_kernel *a,
				       const struct vgpu_gpu_kernel *b);
bool vgpu_policy_default_may_evict(const struct vgpu_gpu *g,
				   const struct vgpu_gpu_kernel *w,
				   const struct vgpu_gpu_kernel *victim);
u32 vgpu_policy_default_select_sm(const struct vgpu_policy_ctx *ctx,
				  const struct vgpu_policy_sm *cands, u32 n);
u32 vgpu_policy_default_pack(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k, u32 want);
u32 vgpu_policy_default_preempt(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k);
struct vgpu_gpu_kernel *vgpu_policy_default_split(const struct vgpu_gpu *g);

#endif /* VGPU_CORE_POLICY_H */
