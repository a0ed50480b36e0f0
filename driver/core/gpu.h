/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global controller of one device (F10-F13, F20-F27, F51).
 */
#ifndef VGPU_CORE_GPU_H
#define VGPU_CORE_GPU_H

#include "vgpu_os.h"
#include "config.h"
#include "resource.h"
#include "isa.h"
#include "kernel.h"
#include "policy.h"
#include "power.h"
#include "sm.h"
#include "timing.h"
#include "trace.h"
#include "fn_debug.h"
#include "warp.h"

/**
 * DOC: global controller object model
 *
 * One &struct vgpu_gpu per device instance.  The caller (module or
 * vgpu-sim) provides every byte: vgpu_gpu_mem_size() says how much,
 * vgpu_gpu_init() lays the device out in it; nothing is allocated later.
 *
 * Objects:
 *
 * - channels (F11), numbered 0..max_channels-1, added with
 *   vgpu_gpu_channel_add() and removed with vgpu_gpu_channel_remove(); each
 *   is a FIFO of kernels and carries the F21 "selected" flags;
 * - kernels (F10): &struct vgpu_gpu_kernel descriptors allocated by the
 *   caller, filled (id, channel, priority, grid, block, registers, shared
 *   memory, flags, program, arrival cycle) and handed to
 *   vgpu_gpu_submit().  The core links them into its lists through the
 *   embedded list heads and writes their state and virtual timestamps; the
 *   caller must keep a descriptor (and its program) alive until
 *   vgpu_gpu_kernel_finished() is true for it, which a host learns from
 *   its &vgpu_gpu_host_ops.kernel_done callback;
 * - child kernels (F15): a submitted kernel may carry templates
 *   (&struct vgpu_gpu_template) and storage for its child budget; a block's
 *   LAUNCH makes the next of those descriptors a child at the next epoch
 *   boundary (vgpu_gpu_dispatch()), which enters the kernel state table
 *   and the task-table candidates directly (&vgpu_gpu.direct).  A kernel
 *   finishes after its children, so the submitted kernel's storage is free
 *   when vgpu_gpu_kernel_finished() is true for it;
 * - the kernel state table (F12): every submitted, unfinished kernel, in
 *   submission order (&vgpu_gpu.kernels);
 * - the task table (F13): &vgpu_gpu_params.task_slots slots holding the
 *   kernels the controller may dispatch from;
 * - SMs: one SM execution engine each (&struct vgpu_sm, sm.h) with its
 *   own warp context pool, plus the controller's shadow of its block
 *   table (which kernel each slot belongs to), its entry of the SM table
 *   (the kernel assigned and the handshake's state, &struct vgpu_gpu_hs,
 *   F17) and an event buffer.
 *
 * Time (F51): virtual cycles in epochs of &vgpu_gpu_params.epoch cycles.
 * The caller loops:
 *
 *	vgpu_gpu_dispatch(g);                 one thread, epoch boundary
 *	vgpu_gpu_advance_sm(g, i) for every i, in parallel on any threads
 *
 * vgpu_gpu_dispatch() first collects what the SMs did in the epoch that
 * ended (their block-level events, buffered per SM, are merged in
 * (cycle, SM, sequence) order and passed to the event sink; completions
 * and first-warp timestamps are accounted), then admits arrived kernels
 * and runs dispatch rounds at the boundary cycle.  vgpu_gpu_advance_sm()
 * writes only the state of its own SM (engine, pool, shadow, buffer) and
 * reads the kernels' immutable fields, so workers may advance disjoint SM
 * sets concurrently.  Every SM keeps the hash of all its own events
 * (trace.h); the controller hashes its own events in order; the device
 * trace hash, vgpu_gpu_trace_hash(), folds the controller hash and the SM
 * hashes in SM order, so neither the trace nor the hash depends on how
 * the SMs are spread over threads (F51).
 *
 * Locking: the core takes no locks.  Protected by: caller.  Every
 * function except vgpu_gpu_advance_sm() must be serialised against every
 * other one by the caller (the module holds its device lock around
 * submit, cancel, gate, channel changes, queries and dispatch, and runs
 * the per-SM advances between two dispatches without it).
 */

/* Throttle mode of the device (struct vgpu_gpu.throttle_state, F26). */
#define VGPU_THROTTLE_OFF	0	/* normal dispatch */
#define VGPU_THROTTLE_DRAIN	1	/* a throttle kernel waits: SMs drain */
#define VGPU_THROTTLE_ON	2	/* throttle kernels only, pooled smem */

/*
 * How many blocks one decision places (struct vgpu_gpu_params.pack, F23
 * (a), F25): seed 002 chooses an SM for each block; seed 000 sends
 * min(undispatched, fit) blocks to the chosen SM.
 */
#define VGPU_PACK_AUTO		0	/* BLOCK under rr and avail, else SM */
#define VGPU_PACK_BLOCK		1	/* one block per decision (seed 002) */
#define VGPU_PACK_SM		2	/* as many as fit (seed 000, F23 (a)) */

/*
 * How the controller computes an SM's largest free runs of shared memory
 * and registers, the figures it matches blocks against (struct
 * vgpu_gpu_params.search, seed 001 [0041], F40-F43).
 */
#define VGPU_SEARCH_EXACT	0	/* F40: the exact largest run */
#define VGPU_SEARCH_GROUPED	1	/* F41: whole groups of search_group */
#define VGPU_SEARCH_SAMPLED	2	/* F42: powers of two only */
#define VGPU_SEARCH_MUX		3	/* F43: exact, C periods a round */
#define VGPU_SEARCH_MAX_LATENCY	3	/* cycles ([0114]: three stages) */
#define VGPU_GPU_RUNS_DIRTY	BIT(2)	/* in vgpu_gpu.fit_dirty */

/* Preemption modes VGPU_PREEMPT_* of path (c) of F23: policy.h. */

/* Kernel flags (F10, F24, F26). */
#define VGPU_KF_INDEPENDENT	BIT(0)	/* warps may be split apart (F24) */
#define VGPU_KF_SEQUENTIAL	BIT(1)	/* at most one block in flight */
#define VGPU_KF_THROTTLE	BIT(2)	/* runs only in throttle mode */
#define VGPU_KF_HEAD		BIT(3)	/* head of its priority level (F16) */
#define VGPU_KF_QUEUE		BIT(4)	/* work-item queue, no grid (F14) */
#define VGPU_KF_ALL		(VGPU_KF_INDEPENDENT | VGPU_KF_SEQUENTIAL | \
				 VGPU_KF_THROTTLE | VGPU_KF_HEAD | \
				 VGPU_KF_QUEUE)

/* Kernel states. */
#define VGPU_KS_NEW		0	/* not submitted */
#define VGPU_KS_QUEUED		1	/* submitted, waiting in its channel */
#define VGPU_KS_ACTIVE		2	/* in the task table */
#define VGPU_KS_DRAINING	3	/* all blocks dispatched, some running */
#define VGPU_KS_DONE		4	/* every block completed */
#define VGPU_KS_CANCELLED	5	/* cancelled, nothing left on the GPU */
#define VGPU_KS_FAILED		6	/* failed (F15 limit), nothing left */

/* Paths of F23, as reported in dispatch events. */
#define VGPU_PATH_BLOCK		0	/* (a) whole blocks */
#define VGPU_PATH_WARP		1	/* (b) warp fallback */
#define VGPU_PATH_PREEMPT	2	/* (c) lower-priority SM */
#define VGPU_PATH_RESUME	3	/* a switched-out block comes back */

#define VGPU_GPU_MAX_CHANNELS	256
#define VGPU_GPU_MAX_SLOTS	256
#define VGPU_GPU_MAX_WINDOWS	VGPU_MAX_PRIOS
#define VGPU_GPU_MAX_EPOCH	BIT(20)
#define VGPU_GPU_AFF_WORDS	(VGPU_MAX_SMS / 64)
#define VGPU_GPU_NO_CYCLE	(~0ULL)
#define VGPU_GPU_MAX_QTIMEOUT	BIT_ULL(32)	/* coalescing timeout (F14) */
#define VGPU_GPU_ID_BUCKETS	256	/* &vgpu_gpu.id_hash */
#define VGPU_GPU_MAX_DEADLINE	BIT_ULL(48)	/* relative deadline */
#define VGPU_GPU_DEFAULT_SEED	1	/* &vgpu_gpu_params.seed */

/*
 * Child kernels (F15) get ids from VGPU_GPU_CHILD_ID0 up (wrapping before
 * VGPU_EV_NONE), in launch order; the caller numbers submitted kernels
 * below it.
 */
#define VGPU_GPU_CHILD_ID0	0x80000000U

/*
 * Controller events: struct vgpu_event (trace.h) with these types, which
 * follow the engine's VGPU_EV_* range.  @warp is ~0 unless noted.
 */
enum vgpu_gpu_event_type {
	VGPU_GEV_SUBMIT = 64,	/* kernel arrived; arg0 prio, arg1 channel */
	VGPU_GEV_ADMIT,		/* task table; arg0 slot */
	VGPU_GEV_EVICT,		/* left the task table; arg0 slot, arg1 by */
	VGPU_GEV_DISPATCH,	/* block to sm; arg0 path, arg1 warps */
	VGPU_GEV_PREEMPT,	/* switched out; arg0 by kernel, arg1 warps */
	VGPU_GEV_SPLIT,		/* F24; block = first split block, arg0 blocks
				 * split, arg1 new priority
				 */
	VGPU_GEV_KERNEL_DONE,	/* arg0 units */
	VGPU_GEV_CANCEL,	/* arg0 blocks dropped */
	VGPU_GEV_LAUNCH,	/* F15: kernel = the child; block, sm = the
				 * launching block; arg0 parent id, arg1
				 * template | VGPU_LAUNCH_* << 8 | depth << 16
				 */
	VGPU_GEV_SUSPEND,	/* F15: block waits for child arg0; arg1 1 =
				 * switched out, resources released; 0 = waits
				 * on the SM (no free save record)
				 */
	VGPU_GEV_WAKE,		/* F15: a block that waited on the SM goes on;
				 * arg0 the child
				 */
	VGPU_GEV_FAIL,		/* F15: arg0 errno (ELOOP, EDQUOT), arg1
				 * blocks dropped
				 */
	VGPU_GEV_PUSH,		/* F14: items arrived; arg0 items, arg1
				 * VGPU_GPU_PUSH_* flags
				 */
	VGPU_GEV_COALESCE,	/* F14: a queue block formed; block = its
				 * index, arg0 items, arg1 VGPU_GPU_COALESCE_*
				 */
	VGPU_GEV_ASSIGN,	/* seed 002 step 434: the SM is assigned the
				 * kernel of the block it is given; sm, block;
				 * arg0 the kernel it had (VGPU_EV_NONE: none),
				 * arg1 the cycle the assignment ends and the
				 * state goes out (low 32); only with an
				 * assign_latency
				 */
	VGPU_GEV_DEALLOC,	/* F13: the SMs acknowledged the deallocation
				 * request of a task slot, which is free now;
				 * kernel = the one it held, arg0 the slot,
				 * arg1 the request's cycle (low 32); only with
				 * a dealloc_latency
				 */
	VGPU_GEV_MAX = VGPU_GEV_DEALLOC,
};

/* Why a queue block launched (arg1 of VGPU_GEV_COALESCE, F14). */
#define VGPU_GPU_COALESCE_FULL		0	/* queue_n items waited */
#define VGPU_GPU_COALESCE_TIMEOUT	1	/* fewer, after the timeout */
#define VGPU_GPU_COALESCE_CLOSE		2	/* fewer, the queue is closed */

/**
 * struct vgpu_gpu_params - device scheduling parameters
 * @policy: SM-choice policy name (F25, F27), e.g. "rr"
 * @sm_choice: the device's own SM choice, a built-in policy's name
 *	(vgpu_policy_sm_choice()), or empty: a @policy without an SM choice
 *	of its own (no &vgpu_policy_ops.select_sm or .first_fit) runs with
 *	this one's, and an ejected policy falls back to it (F27)
 * @preempt: VGPU_PREEMPT_* for F23 path (c)
 * @pack: VGPU_PACK_*: blocks a decision places (F23 (a), F25)
 * @epoch: cycles per epoch (F51)
 * @g_max: an independent kernel is split when more than this many
 *	dispatch rounds in a row failed (F24, seed 001 [0087])
 * @task_slots: task table slots (F13)
 * @max_channels: channels (F11)
 * @num_windows: rotating priority windows, 0 = off (F22)
 * @window: length of window s in cycles (promotes priority s); decreasing
 * @switch_cost: cycles a switched-out block pays when it comes back
 *	(save plus restore, switch mode), at most VGPU_MAX_LATENCY
 * @sync_cost: cycles an SM given a block of a kernel other than the one it
 *	was given last needs before the block's warps start (state sync,
 *	F17), at most VGPU_MAX_LATENCY; 0 = off
 * @throttle: the device is in throttle mode (F26): set and cleared by the
 *	controller (vgpu_gpu_throttle_update()); a value given at init is
 *	dropped at the first boundary unless a throttle kernel is there
 * @throttle_sms: in throttle mode, SMs 0..throttle_sms-1 are used, each
 *	with an equal part of the device's shared memory
 * @save_slots: switched-out blocks that can be held at once
 * @timing: latencies, power weights, power window nx and hold_max of the
 *	SM engines (timing.h, F04, F25, F35)
 * @calibrate: at init, replace @timing.weight by the weights of the power
 *	calibration (single-class probe kernels on one SM, power.h, F25)
 * @res_weight: a_h of the "resource" policy (struct vgpu_policy_ctx);
 *	all zero (the default): calibrated at init from @res_energy when
 *	@calibrate is set (vgpu_power_calibrate_res(), F25), else @res_energy
 * @res_energy: emulated energy per cycle of one held unit of each
 *	resource (VGPU_RES_*), what the calibration's sensor reads
 * @search: VGPU_SEARCH_*: how the largest free runs of shared memory and
 *	registers are computed (F40-F43); blocks are matched against them
 *	and they are r_h of the contiguous resources (seed 001 [0041],
 *	[0257]); exact by default.  VGPU_SEARCH_MUX finds the exact runs
 *	with one shared unit in C time periods (&vgpu_gpu.mux_plan)
 * @search_group: with VGPU_SEARCH_GROUPED, units per group, dividing
 *	every map the search runs over (seed 001 [0127],
 *	vgpu_gpu_params_validate()); else 0
 * @search_latency: cycles the search takes, 0..VGPU_SEARCH_MAX_LATENCY
 *	(seed 001 [0113]: one cycle, [0114]: three): a block's warps start
 *	that long after its decision; 0 (the default) = none.  Under
 *	VGPU_SEARCH_MUX the cycles of one time period: a round takes C of
 *	them (vgpu_gpu_search_cycles())
 * @combo: share in percent of seed 001 embodiment 9 (remaining resources)
 *	against embodiment 10 (power history) in the "combined" policy
 *	([0283])
 * @assign_latency: cycles the task assignment of an SM takes (seed 002
 *	step 434, TASK_ASSIGN) when it is given a block of a kernel other
 *	than the one it was assigned: the state sync (@sync_cost,
 *	STATE_SYNC) follows it, and the block's warps start after both; at
 *	most VGPU_MAX_LATENCY, 0 (the default) = the assignment is free
 * @dealloc_latency: cycles after a task slot's deallocation request at
 *	which the SMs acknowledge it (F13, seed 002 step 408); the slot is
 *	free at the first boundary from then on; at most VGPU_MAX_LATENCY,
 *	0 (the default) = acknowledged during the epoch, free at the next
 *	boundary
 * @seed: seed of the device's pseudo-random generator (F21's random pick
 *	among the top priority's candidates, seed 001 [0057]-[0058]); any
 *	value, VGPU_GPU_DEFAULT_SEED by default: the same seed gives the same
 *	run in the module and in vgpu-sim
 */
struct vgpu_gpu_params {
	char policy[VGPU_POLICY_NAME_LEN];
	char sm_choice[VGPU_POLICY_NAME_LEN];
	u32 preempt;
	u32 pack;
	u32 epoch;
	u32 g_max;
	u32 task_slots;
	u32 max_channels;
	u32 num_windows;
	u32 window[VGPU_GPU_MAX_WINDOWS];
	u32 switch_cost;
	u32 sync_cost;
	u32 throttle;
	u32 throttle_sms;
	u32 save_slots;
	struct vgpu_isa_timing timing;
	u32 calibrate;
	u32 res_weight[4];
	u32 res_energy[4];
	u32 combo;
	u32 search;
	u32 search_group;
	u32 search_latency;
	u32 assign_latency;
	u32 dealloc_latency;
	u32 seed;
};

/**
 * struct vgpu_gpu_template - a child kernel a LAUNCH may start (F15)
 * @grid: blocks
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block in bytes
 * @flags: VGPU_KF_INDEPENDENT, VGPU_KF_SEQUENTIAL
 * @prog: program (F04), @n_insns instructions
 * @n_insns: its length
 * @match: caller storage for @n_insns LOOP/ENDLOOP links
 * @desc: what the engines see; filled by vgpu_gpu_submit() (validated and
 *	linked once for the whole tree)
 *
 * Caller-allocated with the submitted kernel whose tree uses it, and kept
 * alive as long as that kernel.
 */
struct vgpu_gpu_template {
	u32 grid;
	u32 threads;
	u32 regs;
	u32 smem;
	u32 flags;
	const struct vgpu_insn *prog;
	u32 n_insns;
	u16 *match;
	struct vgpu_kernel_desc desc;
};

/* struct vgpu_gpu_push.flags */
#define VGPU_GPU_PUSH_CLOSE	BIT(0)	/* no items after these (F14) */

/**
 * struct vgpu_gpu_push - work items pushed to a queue kernel (F14),
 *	caller-allocated
 * @arrival: cycle at which the items arrive (set by the caller); raised
 *	by vgpu_gpu_queue_push() to the arrival of the kernel's previous push
 * @items: items, 0..queue_cap (set by the caller)
 * @flags: VGPU_GPU_PUSH_* (set by the caller)
 * @k: the kernel; set by the core
 * @left: items not yet in a block; core
 * @seq: push order; core
 * @done: the core is done with the record; core
 * @dev: a record of the queue kernel's own storage (@dev_push) for a PUSH
 *	instruction: it goes back to the kernel, not to the caller; core
 * @node: link in &vgpu_gpu.pushes until it arrives, then in the kernel's
 *	queue while items are left, then in &vgpu_gpu.push_done
 * @knode: link in its kernel's @q_pend until it arrives, so that a kernel
 *	leaving the device finds its pushes without walking everyone's
 *
 * The caller keeps the record until vgpu_gpu_push_reap() returns it: after
 * its items all went into blocks, or its kernel finished.
 */
struct vgpu_gpu_push {
	u64 arrival;
	u32 items;
	u32 flags;
	struct vgpu_gpu_kernel *k;
	u32 left;
	u64 seq;
	bool done;
	bool dev;
	struct list_head node;
	struct list_head knode;
};

/**
 * struct vgpu_gpu_gtime - GPU time of a kernel, channel or tenant
 * @done: warp-cycles of its blocks that left their SMs (completed or
 *	switched out)
 * @start: sum over its resident blocks of warps x the cycle each went to
 *	its SM
 * @rate: warps resident now
 *
 * Kept in O(1), without a branch, as blocks go to SMs and leave them, in
 * any order; read as @done + @rate * now - @start (vgpu_gpu_gtime_read()).
 */
struct vgpu_gpu_gtime {
	u64 done;
	u64 start;
	u64 rate;
};

/* Tenants whose GPU time the core keeps at once (&vgpu_gpu.tenant). */
#define VGPU_GPU_MAX_TENANTS	64
#define VGPU_GPU_NO_TENANT	VGPU_GPU_MAX_TENANTS	/* a sink entry */

/**
 * struct vgpu_gpu_tenant - a tenant's entry: its kernels' GPU time
 * @id: &vgpu_gpu_kernel_args.tenant of its kernels
 * @kernels: its submitted kernels in the device; 0 = the entry is free
 * @gt: the GPU time of its kernels and their children
 */
struct vgpu_gpu_tenant {
	u32 id;
	u32 kernels;
	struct vgpu_gpu_gtime gt;
};

/**
 * struct vgpu_gpu_kernel_args - a kernel's arguments (F10), set by its caller
 * @id: caller's id, reported in events
 * @channel: channel it is submitted to
 * @prio: priority, 0 highest, < num_prios
 * @grid: blocks
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block in bytes
 * @sregs: scalar registers per warp (seed 001 [0042]), 0 for none
 * @flags: VGPU_KF_*
 * @quota: launch quota (F26), 0 = none
 * @prio_wid_mod: per-warp competition priority (F35): 0 = the kernel's;
 *	k > 0 = warp w competes at priority + w % k (struct vgpu_kernel_desc)
 * @n_warp_prio: 0, or the warps of a block: @warp_prio holds each warp's
 *	competition level (F35, seed 003; overrides @prio_wid_mod)
 * @warp_prio: levels 0..num_prios-1 added to the kernel's priority
 * @fn: its host takes functional programs for it (seed 004): the program
 *	is validated with VGPU_ISA_FUNCTIONAL; a functional one needs the
 *	device's functional memory (vgpu_gpu_fn_attach())
 * @priv_bytes: private memory per thread of a functional program, a
 *	multiple of 4 up to VGPU_MAX_PRIVATE_BYTES; 0 for other programs
 * @slots: the buffers a functional program names (VGPU_ISA_MAX_SLOTS
 *	entries, outliving the kernel), or NULL
 * @insn_budget: functional instructions each warp of a functional
 *	program may execute, 0 for no bound; 0 for other programs
 * @tenant: who submitted it, for policies that share the device between
 *	tenants (the module: the open file, &vgpu_file.tenant; vgpu-sim: the
 *	workload's "tenant"); a child kernel has its parent's; the core
 *	does not read it
 * @arrival: cycle at which it arrives
 * @no_affinity: the caller gives no mask (the module: a SUBMIT without
 *	one): @affinity is neither read nor checked, and admission sets the
 *	device's words of it to every SM (the rest are left as they are)
 * @affinity: SM affinity mask, all zero = every SM (F26); a mask naming
 *	no SM of the device is refused
 * @prog: validated program (F04)
 * @n_insns: its length
 * @match: caller storage for @n_insns LOOP/ENDLOOP links
 * @tmpl: templates its LAUNCHes (and its children's) use, @n_tmpl
 *	entries, or NULL (F15)
 * @n_tmpl: 0..VGPU_MAX_TEMPLATES
 * @child_budget: children the whole tree may launch, 0..VGPU_MAX_CHILDREN
 * @child_store: caller storage for @child_budget descriptors, used in
 *	launch order; NULL when @child_budget is 0
 * @push_to: the queue kernel its PUSH instructions feed (F14), submitted
 *	before it and unfinished; NULL without PUSH (set by the caller; the
 *	core clears it when that kernel leaves: a PUSH then fails the kernel
 *	with -EPIPE)
 * @dev_push: with VGPU_KF_QUEUE, caller storage for @n_dev_push records
 *	of PUSH instructions feeding it (F14), or NULL
 * @n_dev_push: PUSHes to it that may have items waiting at once,
 *	0..queue_cap; one more fails the pushing kernel with -ENOSPC
 * @q_held: with VGPU_KF_QUEUE, items of pushes the host accepted and has
 *	not handed to vgpu_gpu_queue_push() yet (the module's QUEUE_PUSH
 *	between the ioctl and the next boundary): they count against
 *	queue_cap for every push, the PUSH instruction's too; kept by the
 *	caller, 0 when pushes go to the core at once
 * @queue_n: with VGPU_KF_QUEUE, work items per block, the coalescing N
 *	(F14), 1..VGPU_MAX_COALESCE; @grid is 0; else 0
 * @queue_cap: with VGPU_KF_QUEUE, most items waiting or pushed and not
 *	yet arrived, 1..VGPU_MAX_QUEUE_ITEMS; else 0
 * @queue_timeout: with VGPU_KF_QUEUE, cycles after which fewer than
 *	@queue_n waiting items launch a block, 1..2^32; else 0
 * @deadline: relative deadline in cycles after @arrival, 0 for none, at
 *	most VGPU_GPU_MAX_DEADLINE (set by the caller; the edf policy orders
 *	by it)
 */
struct vgpu_gpu_kernel_args {
	u32 id;
	u32 channel;
	u32 prio;
	u32 grid;
	u32 threads;
	u32 regs;
	u32 smem;
	u32 sregs;
	u32 flags;
	u32 quota;
	u32 prio_wid_mod;
	u32 n_warp_prio;
	u8 warp_prio[VGPU_MAX_BLOCK_WARPS];
	bool fn;
	u32 priv_bytes;
	const struct vgpu_lane_slot *slots;
	u64 insn_budget;
	u32 tenant;
	u64 arrival;
	bool no_affinity;
	u64 affinity[VGPU_GPU_AFF_WORDS];
	const struct vgpu_insn *prog;
	u32 n_insns;
	u16 *match;
	struct vgpu_gpu_template *tmpl;
	u32 n_tmpl;
	u32 child_budget;
	struct vgpu_gpu_kernel *child_store;
	struct vgpu_gpu_kernel *push_to;
	struct vgpu_gpu_push *dev_push;
	u32 n_dev_push;
	u32 q_held;
	u32 queue_n;
	u32 queue_cap;
	u64 queue_timeout;
	u64 deadline;
};

/**
 * struct vgpu_gpu_kernel_child - a kernel's place in its tree (F15); core
 * @parent: the kernel whose LAUNCH made it, NULL for a submitted kernel
 * @root: the submitted kernel of its tree (itself for a submitted one)
 * @depth: 0 for a submitted kernel, parent's + 1 for a child
 * @tmpl_idx: a child's template index
 * @launched: (submitted kernel) children of its tree so far
 * @children: its unfinished children; it completes after them
 * @nsusp: its blocks switched out while they wait for a child
 * @waiter: (child) the parent's block that waits for it switched out, or
 *	NULL
 * @wait_sm: (child) the SM where the parent's block waits for it holding
 *	its resources, or ~0
 * @wait_slot: the block's slot there
 * @wait_node: (child) link in &vgpu_gpu.inplace while @wait_sm is set
 */
struct vgpu_gpu_kernel_child {
	struct vgpu_gpu_kernel *parent;
	struct vgpu_gpu_kernel *root;
	u32 depth;
	u32 tmpl_idx;
	u32 launched;
	u32 children;
	u32 nsusp;
	struct vgpu_gpu_saved *waiter;
	u32 wait_sm;
	u32 wait_slot;
	struct list_head wait_node;
};

/**
 * struct vgpu_gpu_kernel_queue - a queue kernel's items and pushes (F14); core
 * @wait: (queue kernel) items arrived and not yet in a block
 * @pending: items pushed and not yet arrived
 * @ready: blocks its waiting items may launch now (F12 undispatched)
 * @closing: a push with VGPU_GPU_PUSH_CLOSE was made
 * @closed: that push arrived: the waiting items launch at once
 * @last: arrival cycle of its latest push
 * @close_at: arrival cycle of the closing push
 * @items: items arrived so far
 * @fifo: its arrived pushes that still have items waiting, oldest first
 * @pend: its pushes not arrived yet (in &vgpu_gpu.pushes), by @knode
 * @dev_free: its free @dev_push records
 * @node: link in &vgpu_gpu.queues while unfinished
 */
struct vgpu_gpu_kernel_queue {
	u32 wait;
	u32 pending;
	u32 ready;
	bool closing;
	bool closed;
	u64 last;
	u64 close_at;
	u64 items;
	struct list_head fifo;
	struct list_head pend;
	struct list_head dev_free;
	struct list_head node;
};

/**
 * struct vgpu_gpu_kernel_timing - when things happened to a kernel; core
 * @admit: when it last entered the task table, in admissions
 *	(&vgpu_gpu.admit_seq): its age there (F13, seed 002 step 432)
 * @submit: arrival cycle (virtual timestamp, F60 query)
 * @dispatch: first dispatch cycle, or VGPU_GPU_NO_CYCLE
 * @skip_dispatch: &vgpu_gpu.skipped at @dispatch: idle time skipped since
 *	is not time the kernel could have run (hang timeouts)
 * @start: first warp start cycle, or VGPU_GPU_NO_CYCLE
 * @end: completion cycle, or VGPU_GPU_NO_CYCLE
 * @deadline_at: absolute deadline cycle of a submitted kernel, or
 *	VGPU_GPU_NO_CYCLE; core
 * @deadline_missed: it completed after @deadline_at; core
 * @resident: the boundary its blocks went to SMs again after a yield
 *	(0: never yielded, VGPU_GPU_NO_CYCLE: not since the last one); a
 *	yield before the minimum residency has passed is refused (core)
 * @yield_hold: no block of it is placed before this cycle: the boundary
 *	after its yield in switch mode; VGPU_GPU_NO_CYCLE while @held
 *	(vgpu_gpu_yield(); core)
 * @entered: the boundary it last entered the task table at, 0 if never
 *	(vgpu_policy_kernel_entered(); core)
 */
struct vgpu_gpu_kernel_timing {
	u64 admit;
	u64 submit;
	u64 dispatch;
	u64 skip_dispatch;
	u64 start;
	u64 end;
	u64 deadline_at;
	bool deadline_missed;
	u64 resident;
	u64 yield_hold;
	u64 entered;
};

/**
 * struct vgpu_gpu_kernel - a kernel descriptor (F10), caller-allocated
 * @args: the caller's arguments (set before vgpu_gpu_submit())
 * @state: VGPU_KS_*; written by the core
 * @eff_prio: current priority (the lowest after a split, F24)
 * @desc: what the SM engines see (id, geometry, shape, program); built
 *	by vgpu_gpu_submit(), so the caller need not clear it
 * @split_desc: the single-warp sub-blocks after a split (F24): sub-block
 *	b * warps + w is warp w of block b; written by the split, read only
 *	after it (@split), so the caller need not clear it either
 * @uses_bar: the program uses BAR (F23 barrier rule)
 * @split: blocks from @split_from on are single-warp sub-blocks (F24)
 * @split_from: first split block
 * @warps: warps per original block
 * @units: dispatch units: blocks, or blocks + sub-blocks after a split
 * @next_unit: next undispatched unit
 * @inflight: units on SMs (resident or pending)
 * @done_units: units completed
 * @nsaved: switched-out units waiting to come back
 * @saved: their records
 * @quota_used: blocks dispatched since the kernel last yielded (F26)
 * @slot: task table slot, or ~0
 * @preempted: times one of its blocks was switched out
 * @busy_arrival: on arrival every SM was busy with lower-priority work
 * @displaced_at: 1 + &vgpu_gpu.done_blocks when a waiting kernel that
 *	matched took its slot (F20), 0 if never; core
 * @seen: the controller has seen it arrive
 * @aff_all: its affinity allows every SM
 * @seq: submission sequence number
 * @error: why it failed or was cancelled by the core: -ELOOP, -EDQUOT
 *	(F15), -ECANCELED (the rest of a failed tree); 0 otherwise
 * @chan_node: link in the channel FIFO (F11); a child's in
 *	&vgpu_gpu.direct
 * @table_node: link in the kernel state table (F12)
 * @id_node: link in &vgpu_gpu.id_hash while a submitted kernel is
 *	unfinished (a child's is empty)
 * @policy_data: the policy's own per-kernel state, read and written
 *	through vgpu_policy_kernel_state() (&vgpu_policy_ops.kernel_state_size
 *	bytes of it zeroed when the kernel enters the device)
 * @yield: set by the policy's tick: switch its resident blocks out at
 *	this boundary (vgpu_gpu_yield(); switch mode only)
 * @prepared: vgpu_gpu_kernel_prepare() checked it and left the summary
 *	of its program and the shape of its block in @desc: the next
 *	vgpu_gpu_submit() takes them rather than checking it again; core
 * @held: a policy's preemption holds its dispatch (drain and warp modes,
 *	vgpu_gpu_yield()); core
 * @tick_prio: @eff_prio before the policy's tick, which must not change
 *	it (core)
 * @gt: its GPU time: warp-cycles of its resident blocks (core;
 *	vgpu_policy_kernel_gpu_time())
 * @tenant_slot: a submitted kernel's entry in &vgpu_gpu.tenant, or
 *	VGPU_GPU_NO_TENANT (the table was full); core
 * @child: its place in its tree (F15; core)
 * @q: its queue, with VGPU_KF_QUEUE (F14; core)
 * @t: its timing (core)
 */
struct vgpu_gpu_kernel {
	struct vgpu_gpu_kernel_args args;
	u32 state;
	u32 eff_prio;
	struct vgpu_kernel_desc desc;
	struct vgpu_kernel_desc split_desc;
	bool uses_bar;
	bool split;
	u32 split_from;
	u32 warps;
	u32 units;
	u32 next_unit;
	u32 inflight;
	u32 done_units;
	u32 nsaved;
	struct list_head saved;
	u32 quota_used;
	u32 slot;
	u32 preempted;
	bool busy_arrival;
	u64 displaced_at;
	bool seen;
	bool aff_all;
	u64 seq;
	int error;
	struct list_head chan_node;
	struct list_head table_node;
	struct list_head id_node;
	u64 policy_data[VGPU_POLICY_KERNEL_WORDS];
	bool yield;
	bool prepared;
	bool held;
	u32 tick_prio;
	struct vgpu_gpu_gtime gt;
	u32 tenant_slot;
	struct vgpu_gpu_kernel_child child;
	struct vgpu_gpu_kernel_queue q;
	struct vgpu_gpu_kernel_timing t;
};

/**
 * struct vgpu_gpu_channel - a channel (F11)
 * @used: the channel exists
 * @prio: its default priority (informative; kernels carry their own)
 * @selected: F21 "selected" flag per priority, bit p
 * @fifo: its kernels in submission order
 *
 * The policy's per-channel state is &vgpu_gpu.chan_policy, apart: this
 * struct stays 32 bytes, the stride of the admission loop over channels.
 */
struct vgpu_gpu_channel {
	bool used;
	u32 prio;
	u32 selected;
	struct list_head fifo;
};

/**
 * struct vgpu_gpu_stats - device counters
 * @decisions: dispatch decisions (one kernel, one SM, >= 1 block)
 * @blocks: units dispatched
 * @preemptions: blocks switched out or overtaken through path (c)
 * @resumes: switched-out blocks restored
 * @splits: F24 splits
 * @evictions: F13 evictions
 * @failed_rounds: dispatches that matched nothing with work waiting
 * @events: events emitted
 * @queue_items: work items arrived at queue kernels (F14)
 * @queue_blocks: blocks launched from queues (F14)
 * @queue_partial: those with fewer than queue_n items (timeout or close)
 * @children: child kernels launched (F15)
 * @suspensions: blocks switched out to wait for a child (F15)
 * @failed: kernels that failed (F15 limits)
 * @policy_errors: answers of the policy the core refused (policy.h)
 * @deadline_misses: submitted kernels that completed after their deadline
 * @dev_pushes: PUSH instructions whose items went to their target (F14)
 * @faults: functional instructions that faulted (fn.h): each failed its
 *	kernel
 * @guards_broken: guards of the functional memory found overwritten
 *	(debug builds, vgpu_gpu_fn_guards_check()): always 0 unless the
 *	engine has a bug
 */
struct vgpu_gpu_stats {
	u64 decisions;
	u64 blocks;
	u64 preemptions;
	u64 resumes;
	u64 splits;
	u64 evictions;
	u64 failed_rounds;
	u64 events;
	u64 queue_items;
	u64 queue_blocks;
	u64 queue_partial;
	u64 children;
	u64 suspensions;
	u64 failed;
	u64 policy_errors;
	u64 deadline_misses;
	u64 dev_pushes;
	u64 faults;
	u64 guards_broken;
};

/**
 * struct vgpu_gpu_shadow - what the controller knows of one block slot
 * @k: the kernel of the block in the slot, NULL if free
 * @unit: dispatch unit it carries
 * @start_at: first warp start, VGPU_GPU_NO_CYCLE before
 * @done_at: cycle its last warp exited
 * @done: the block completed in the running epoch
 * @start_seen: @start_at was accounted
 * @wait: the child the block waits for parked on the SM (F15), or NULL
 * @warps: its warps, as its kernel's GPU time counts them
 * @at: the boundary it went to the SM (its GPU time counts from there)
 */
struct vgpu_gpu_shadow {
	struct vgpu_gpu_kernel *k;
	u32 unit;
	u32 warps;
	u64 at;
	u64 start_at;
	u64 done_at;
	bool done;
	bool start_seen;
	struct vgpu_gpu_kernel *wait;
};

/**
 * struct vgpu_gpu_hs - the controller's handshake with one SM (F17)
 * @kernel: id of the kernel assigned to the SM (the kernel of the block
 *	it was given last), VGPU_EV_NONE before its first block
 * @assigned: cycle of that assignment
 * @sync_at: cycle the assignment ends and the kernel's state goes out
 *	(TASK_ASSIGN before it, &vgpu_gpu_params.assign_latency)
 * @ready_at: cycle the SM has acknowledged the state (STATE_SYNC before
 *	it, &vgpu_gpu_params.sync_cost; CTA_LAUNCH from it on)
 * @assigns: assignments so far
 *
 * Seed 002 method 400 steps 434-438 and method 500 step 502: the SM
 * table's state of the SM; read it with vgpu_gpu_sm_state().  An
 * assignment without latency (assign_latency and sync_cost 0) leaves
 * @sync_at and @ready_at where they were (0 if never set).
 */
struct vgpu_gpu_hs {
	u32 kernel;
	u64 assigned;
	u64 sync_at;
	u64 ready_at;
	u64 assigns;
};

/**
 * struct vgpu_gpu_sm - one SM of the device
 * @sm: its execution engine
 * @run_smem: largest free run of shared memory units by the device's
 *	search mode (vgpu_gpu_sm_runs(); valid while the SM's
 *	VGPU_GPU_RUNS_DIRTY bit in &vgpu_gpu.fit_dirty is clear)
 * @run_regs: the same for registers: the largest over the sub-partitions
 * @run_sregs: the same for scalar registers (0 without a scalar file)
 * @runs_regs: per sub-partition, the largest run of its registers; with
 *	a scalar file, at most its scalar run as a share of the register
 *	map (vgpu_gpu_sm_free())
 * @pool: its warp context pool (max_warps_per_sm contexts)
 * @shadow_used: slots of @shadow in use
 * @ev: block-level events of the running epoch, in emission order
 * @nev: events in @ev
 * @evcap: capacity of @ev
 * @lost: events that did not fit @ev (only warp-level ones can, with
 *	@verbose; counted)
 * @verbose: buffer warp-level events too (vgpu_gpu_set_verbose())
 * @nwev: warp-level events in @ev
 * @wevcap: most warp-level events in @ev (the rest of @evcap is kept for
 *	the block-level ones)
 * @nlaunch: events in @ev the controller acts on: LAUNCH (F15), PUSH
 *	(F14) and FAULT (fn.h)
 * @hs: the SM table's handshake state (F17, seed 002 method 400)
 * @shadow: per block slot of @sm
 *
 * What every block given to the SM and every event of it touches comes
 * right after @sm, @shadow last.
 */
struct vgpu_gpu_sm {
	struct vgpu_sm sm;
	u32 run_smem;
	u32 run_regs;
	u32 run_sregs;
	u32 runs_regs[VGPU_MAX_SUBPARTS];
	struct vgpu_worker_pool pool;
	u64 shadow_used;
	struct vgpu_event *ev;
	u32 nev;
	u32 evcap;
	u64 lost;
	bool verbose;
	u32 nwev;
	u32 wevcap;
	u32 nlaunch;
	struct vgpu_gpu_hs hs;
	struct vgpu_gpu_shadow shadow[VGPU_MAX_BLOCKS_PER_SM];
};

/**
 * struct vgpu_gpu_saved - a switched-out block waiting to come back
 * @node: link in its kernel's saved list or the device free list
 * @unit: the dispatch unit it carries
 * @start_at: its first warp start
 * @s: the engine's saved state
 */
struct vgpu_gpu_saved {
	struct list_head node;
	u32 unit;
	u64 start_at;
	struct vgpu_sm_saved s;
};

/**
 * struct vgpu_gpu_nofit - needs that fit no SM by path (a) or (b) in
 *	this dispatch call
 * @shape: block shape
 * @bar: the kernel uses BAR (no path (b))
 */
struct vgpu_gpu_nofit {
	struct vgpu_block_shape shape;
	bool bar;
};

/**
 * struct vgpu_gpu_fitset - the SMs a block shape fits by one path, kept
 *	across the decisions of a dispatch call (F25 candidates)
 * @cands: the SMs that fit, in ascending order, with their figures
 * @n: entries in @cands
 * @valid: @cands is for the key below; cleared when a call's dispatch
 *	rounds begin (the SMs advanced and their power changed)
 * @throttle: key: the device's throttle mode (F26)
 * @shape: key: the block's needs
 * @aff: key: the kernel's affinity mask (F26)
 *
 * An SM whose resources change has its &vgpu_gpu.fit_dirty byte set
 * (&vgpu_sm_res.dirty); the set looks again at those SMs only.
 */
struct vgpu_gpu_fitset {
	struct vgpu_policy_sm *cands;
	u32 n;
	bool valid;
	bool throttle;
	struct vgpu_block_shape shape;
	u64 aff[VGPU_GPU_AFF_WORDS];
};

/**
 * struct vgpu_policy_stats - what the core saw of its policies
 * @errors: answers refused, per op (enum vgpu_policy_op): each also counts
 *	in &vgpu_gpu_stats.policy_errors
 * @yields: yields the core carried out (blocks switched out)
 * @yields_refused: yields refused before the minimum residency (also in
 *	@errors[VGPU_POLICY_OP_YIELD])
 * @preemptions: blocks preempted because the policy asked: switched out
 *	(yields, and @preempt answers of equal priority), or placed over
 *	another kernel's blocks in warp mode
 * @holds: kernels whose dispatch a policy's preemption held (drain and
 *	warp modes)
 * @prio_sets: effective priorities a policy changed (vgpu_policy_set_prio())
 * @ejections: policies ejected (policy_watch.c)
 * @exit_reason: why the last one was, enum vgpu_policy_exit
 * @exit_op: with VGPU_POLICY_EXIT_ERRORS, the op of its last refused
 *	answer; else VGPU_POLICY_NUM_OPS
 * @exit_at: the boundary at which it was
 * @exit_name: its name
 * @ejected: the device runs the fallback policy after an ejection (until
 *	a policy is set again)
 *
 * Kept across policy switches; read by the host (debugfs, netlink,
 * vgpu-sim run) between two epochs.
 */
struct vgpu_policy_stats {
	u64 errors[VGPU_POLICY_NUM_OPS];
	u64 yields;
	u64 yields_refused;
	u64 preemptions;
	u64 holds;
	u64 prio_sets;
	u64 ejections;
	u32 exit_reason;
	u32 exit_op;
	u64 exit_at;
	char exit_name[VGPU_POLICY_NAME_LEN];
	bool ejected;
};

/**
 * struct vgpu_policy_watch - the watchdog's state (core, policy_watch.c)
 * @fallback: the policy an ejected one is replaced by ("rr")
 * @err_row: answers refused in a row
 * @last_op: the op of the last refused answer
 * @stall: boundaries in a row without progress, the policy holding
 *	runnable work back
 * @eject: the reason of an ejection to carry out at the next boundary,
 *	VGPU_POLICY_EXIT_NONE if none
 * @order_checks: answers of the ordering ops still to check for
 *	consistency (VGPU_POLICY_ORDER_CHECKS after a policy is set)
 * @held: the policy held runnable work back at this boundary (an SM
 *	choice of VGPU_POLICY_WAIT among SMs that fit, or a yield)
 * @in_tick: the policy's @tick runs (the helpers that act on kernels are
 *	for it only)
 */
struct vgpu_policy_watch {
	struct vgpu_policy_reg *fallback;
	u32 err_row;
	u32 last_op;
	u32 stall;
	u32 eject;
	u32 order_checks;
	bool held;
	bool in_tick;
};

/**
 * struct vgpu_gpu_host_ops - what the core tells its host
 * @kernel_done: a kernel the host submitted (vgpu_gpu_submit()) has
 *	finished: its state is VGPU_KS_DONE, VGPU_KS_CANCELLED or
 *	VGPU_KS_FAILED (with &vgpu_gpu_kernel.error) and the core will not
 *	look at it, its templates or its child storage again.  Called once
 *	per submitted kernel, never for a child kernel (F15), after the
 *	kernel's last event: from vgpu_gpu_dispatch() when it completes or
 *	fails, from vgpu_gpu_cancel() when the host cancels it.
 * @event: an event of the device, as the sink of vgpu_gpu_set_sink() gets
 *	it, with the kernel it is about: a controller event's kernel, or the
 *	kernel of an SM's block-level event while its block is on the SM
 *	(NULL for an event about no kernel, and for the events of a tree
 *	that failed earlier in the same merge).  @kernel may be a child
 *	kernel (&vgpu_gpu_kernel_child.parent set).
 *
 * @policy_exit: the watchdog ejected policy @old (enum vgpu_policy_exit
 *	@reason, &vgpu_gpu.pstats): the device now uses @now.  A host that
 *	pins the module of the policy a device uses moves its pin from @old
 *	to @now here; the core does not look at @old again.  Called from
 *	vgpu_gpu_dispatch() at the boundary after the one that decided it.
 *
 * Passed to vgpu_gpu_init_host() with a @host pointer, which every call
 * gets first; every callback is optional.  Completion thus flows back to
 * the host as it happens, the way &drm_sched_backend_ops hands a driver
 * its jobs, and the host never polls its kernels (vgpu_gpu_kernel_finished()
 * stays for a host that likes to).  The callbacks run in the core call
 * that made them, under the host's serialisation of the core (see "global
 * controller object model"); they must not call back into the core.  The
 * host keeps a finished kernel's descriptor until that call has returned.
 */
struct vgpu_gpu_host_ops {
	void (*kernel_done)(void *host, struct vgpu_gpu_kernel *k);
	void (*event)(void *host, const struct vgpu_event *ev,
		      const struct vgpu_gpu_kernel *kernel);
	void (*policy_exit)(void *host, struct vgpu_policy_reg *old,
			    struct vgpu_policy_reg *now, u32 reason);
};

/**
 * struct vgpu_gpu - one device's global controller
 * @cfg: configuration (F01-F03)
 * @p: scheduling parameters
 * @policy: the scheduling policy in use (policy.h)
 * @policy_reg: its registry entry (the host's bookkeeping of its users)
 * @policy_ops: @policy when it is composed: the entry's ops with the SM
 *	choice of &vgpu_gpu_params.sm_choice (vgpu_gpu_policy_start())
 * @policy_state: the policy's own per-device state (vgpu_policy_state());
 *	its declared size zeroed when the device starts using the policy
 * @chan_policy: the policy's own per-channel state, VGPU_POLICY_CHAN_WORDS
 *	words per channel (vgpu_policy_chan_state()); its declared size
 *	zeroed when the channel is added or the policy starts
 * @now: the current epoch boundary
 * @skipped: cycles the clock jumped over in all, idle with nothing to run
 *	before the next arrival (vgpu_gpu_skip_idle())
 * @skip_until: no idle jump goes past this cycle (the host's paced clock
 *	sets it to what the wall clock allows); VGPU_GPU_NO_CYCLE: no limit
 * @window: the F22 window at @now (~0 if off)
 * @win_period: the sum of &vgpu_gpu_params.window, refreshed by
 *	vgpu_gpu_window_sync() whenever @p changes
 * @epoch_end: where the SMs are advanced to next
 * @gated: dispatch held (F52 gate)
 * @throttle_state: VGPU_THROTTLE_OFF, _DRAIN or _ON (F26, seed 002 steps
 *	412-454, vgpu_gpu_throttle_update()); &vgpu_gpu_params.throttle is
 *	set while it is ON
 * @throttle_share: in throttle mode, shared memory units of each of the
 *	first throttle_sms SMs (the SM at index i has units [i * share,
 *	(i + 1) * share) of the device's pooled shared memory)
 * @sm: the SMs, @cfg.num_sms entries
 * @chan: channels
 * @slot: task table, NULL = free slot
 * @slot_dealloc: a bit per task slot with a deallocation request pending
 *	(F13; vgpu_gpu_dealloc_set())
 * @kernels: kernel state table (F12), submission order
 * @nkernels: its length
 * @id_hash: submitted kernels by id % VGPU_GPU_ID_BUCKETS
 *	(&vgpu_gpu_kernel.id_node): vgpu_gpu_submit() refuses an id in use
 *	without walking the whole table (4,096 queued kernels made linking
 *	quadratic)
 * @direct: child kernels (F15), which enter the task table directly and
 *	not through a channel, while they wait for or hold a slot
 * @inplace: children whose parent's block waits for them on its SM
 *	(no save record was free); switched out when one frees up
 * @next_child_id: id of the next child kernel
 * @queues: unfinished queue kernels (F14, &vgpu_gpu_kernel_queue.node)
 * @pushes: pushes not yet arrived, by (arrival, push order) (F14)
 * @push_done: push records the core is done with (vgpu_gpu_push_reap())
 * @push_seq: push counter
 * @admit_seq: admissions into the task table so far (&vgpu_gpu_kernel_timing.admit)
 * @fail_rounds: consecutive failed rounds (F24)
 * @done_blocks: blocks completed so far (the SMs freed resources)
 * @rr_next: round-robin pointer (F25)
 * @sm_rank: fixed SM priority list as ranks (F25 ties)
 * @free_max: weighted remaining resources of an empty SM (F25)
 * @power_max: power history of an SM that issued every cycle on every
 *	sub-partition the most power-hungry class for nx cycles (F25)
 * @pos_sm: the SMs sorted by (@sm_rank, index): the order of F23 (c) ties
 * @sm_pos: position of each SM in @pos_sm
 * @top_words: words of one @top_map row, VGPU_BMAP_NWORDS(num_sms)
 * @top_map: F23 (c) candidates: row p (p < VGPU_MAX_PRIOS) has bit j set
 *	when the SM @pos_sm[j] has highest resident priority p
 * @top_n: SMs in each row of @top_map
 * @top_seen: per SM, the highest resident priority @top_map holds for it
 *	(VGPU_PRIO_NONE: in no row); synced with the engines at each
 *	boundary and after each decision
 * @saved_free: free switched-out block records
 * @fit: candidate sets of the policy's SM choice, one per path ((a) whole
 *	blocks, (b) one warp)
 * @fit_dirty: per SM, bit i set = @fit[i] must look at the SM again,
 *	VGPU_GPU_RUNS_DIRTY = its largest runs must be computed again;
 *	written by the SM's engine (its own byte) and by the controller
 * @cursor: scratch: one merge cursor per SM
 * @scratch: scratch SM state for switch feasibility
 * @scratch_place: scratch placement record for the same
 * @view: scratch: an SM's resources with its committed, unstarted warps
 *	in place (vgpu_gpu_sm_view())
 * @view_place: scratch placement record for the same
 * @hash: FNV-1a hash of every controller event so far
 * @sink: event sink or NULL
 * @sink_cookie: its cookie
 * @host_ops: the host's callbacks (vgpu_gpu_init_host()), or NULL
 * @host: passed to them
 * @slot_used: task slots holding a kernel (@slot[i] != NULL)
 * @chan_used: channels that exist (@chan[i].used): the walks over the
 *	channels visit these only
 * @failed: task slots whose kernel failed to match in this call
 * @nofit: needs that failed to match in this call
 * @nnofit: entries in @nofit
 * @seq: submission / block sequence counter
 * @stats: counters
 * @saved: the save records, @p.save_slots of them
 * @fn: functional memory of the SMs (fn.h), NULL until
 *	vgpu_gpu_fn_attach()
 * @fn_hook: the debugger's hook for every SM (fn_debug.h), or NULL
 * @fn_hook_cookie: its cookie
 * @pstats: what the core saw of its policies (errors per op, yields,
 *	ejections)
 * @watch: the policy watchdog (policy_watch.c)
 * @nheld: kernels a policy's preemption holds in drain and warp modes
 *	(&vgpu_gpu_kernel.held, vgpu_gpu_yield())
 * @chan_gt: the GPU time of each channel's kernels and their children
 * @tenant: the tenants with kernels in the device, first free entry first;
 *	entry VGPU_GPU_NO_TENANT is where the kernels of no entry count
 * @dealloc_ack: per task slot with a deallocation request pending, the
 *	cycle the SMs acknowledge it (&vgpu_gpu_params.dealloc_latency)
 * @dealloc_req: the cycle of that request
 * @dealloc_kernel: id of the kernel the slot held then
 * @mux_plan: the time-multiplexed search of an SM's maps (F43,
 *	vgpu_gpu_search_plan()), used under VGPU_SEARCH_MUX
 * @mux_scratch: its working maps
 * @rnd: the pseudo-random generator, seeded with @p.seed at init
 * @f21_salt: F21's draw for the next decision (vgpu_gpu_f21_key()),
 *	drawn from @rnd at init and after every decision
 */
struct vgpu_gpu {
	struct vgpu_config cfg;
	struct vgpu_gpu_params p;
	const struct vgpu_policy_ops *policy;
	struct vgpu_policy_reg *policy_reg;
	struct vgpu_policy_ops policy_ops;
	u64 policy_state[VGPU_POLICY_STATE_WORDS];
	u64 (*chan_policy)[VGPU_POLICY_CHAN_WORDS];
	u64 now;
	u64 skipped;
	u64 skip_until;
	u32 window;
	u32 win_period;
	u64 epoch_end;
	bool gated;
	u8 throttle_state;
	u32 throttle_share;
	struct vgpu_gpu_sm *sm;
	struct vgpu_gpu_channel *chan;
	struct vgpu_gpu_kernel **slot;
	struct list_head kernels;
	u32 nkernels;
	struct list_head id_hash[VGPU_GPU_ID_BUCKETS];
	struct list_head direct;
	struct list_head inplace;
	u32 next_child_id;
	struct list_head queues;
	struct list_head pushes;
	struct list_head push_done;
	u64 push_seq;
	u64 admit_seq;
	u32 fail_rounds;
	u64 done_blocks;
	u32 rr_next;
	u16 *sm_rank;
	u64 free_max;
	u64 power_max;
	u16 *pos_sm;
	u16 *sm_pos;
	u32 top_words;
	u64 *top_map;
	u32 top_n[VGPU_MAX_PRIOS];
	u8 *top_seen;
	struct list_head saved_free;
	struct vgpu_gpu_fitset fit[2];
	u8 *fit_dirty;
	u32 *cursor;
	struct vgpu_sm_res scratch;
	struct vgpu_block_place scratch_place;
	struct vgpu_sm_res view;
	struct vgpu_block_place view_place;
	u64 hash;
	vgpu_trace_fn sink;
	void *sink_cookie;
	const struct vgpu_gpu_host_ops *host_ops;
	void *host;
	u64 slot_used[VGPU_GPU_MAX_SLOTS / 64];
	u64 slot_dealloc[VGPU_GPU_MAX_SLOTS / 64];
	u64 chan_used[VGPU_GPU_MAX_CHANNELS / 64];
	u64 failed[VGPU_GPU_MAX_SLOTS / 64];
	struct vgpu_gpu_nofit nofit[8];
	u32 nnofit;
	u64 seq;
	struct vgpu_gpu_stats stats;
	struct vgpu_gpu_saved *saved;
	struct vgpu_fn_sm *fn;
	vgpu_fn_hook_fn fn_hook;
	void *fn_hook_cookie;
	struct vgpu_policy_stats pstats;
	struct vgpu_policy_watch watch;
	u32 nheld;
	struct vgpu_gpu_gtime chan_gt[VGPU_GPU_MAX_CHANNELS];
	struct vgpu_gpu_tenant tenant[VGPU_GPU_MAX_TENANTS + 1];
	u64 dealloc_ack[VGPU_GPU_MAX_SLOTS];
	u64 dealloc_req[VGPU_GPU_MAX_SLOTS];
	u32 dealloc_kernel[VGPU_GPU_MAX_SLOTS];
	struct vgpu_bmap_periods mux_plan;
	struct vgpu_bmap_mux_scratch mux_scratch;
	struct rnd_state rnd;
	u32 f21_salt;
};

void vgpu_gpu_params_default(struct vgpu_gpu_params *p,
			     const struct vgpu_config *cfg);
int vgpu_gpu_params_validate(const struct vgpu_gpu_params *p,
			     const struct vgpu_config *cfg,
			     const char **bad_field);
size_t vgpu_gpu_mem_size(const struct vgpu_config *cfg,
			 const struct vgpu_gpu_params *p);
int vgpu_gpu_init(struct vgpu_gpu *g, void *mem, size_t size,
		  const struct vgpu_config *cfg,
		  const struct vgpu_gpu_params *p,
		  struct list_head *policies);
int vgpu_gpu_init_host(struct vgpu_gpu *g, void *mem, size_t size,
		       const struct vgpu_config *cfg,
		       const struct vgpu_gpu_params *p,
		       struct list_head *policies,
		       const struct vgpu_gpu_host_ops *ops, void *host);
void vgpu_gpu_fini(struct vgpu_gpu *g);
size_t vgpu_gpu_fn_bytes(const struct vgpu_gpu *g);
int vgpu_gpu_fn_attach(struct vgpu_gpu *g, void *mem, size_t size);
void vgpu_gpu_fn_flush(struct vgpu_gpu *g);
u32 vgpu_gpu_fn_guards_check(struct vgpu_gpu *g);
void vgpu_gpu_set_sink(struct vgpu_gpu *g, vgpu_trace_fn fn, void *cookie);
void vgpu_gpu_set_verbose(struct vgpu_gpu *g, bool on);
u64 vgpu_gpu_events_lost(const struct vgpu_gpu *g);
int vgpu_gpu_set_policy(struct vgpu_gpu *g, struct list_head *policies,
			const char *name);
void vgpu_gpu_set_sm_rank(struct vgpu_gpu *g, const u16 *order, u32 n);

int vgpu_gpu_channel_add(struct vgpu_gpu *g, u32 ch, u32 prio);
int vgpu_gpu_channel_remove(struct vgpu_gpu *g, u32 ch);
int vgpu_gpu_submit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
int vgpu_gpu_push_target_check(const struct vgpu_gpu_kernel *k);
int vgpu_gpu_push_check(const struct vgpu_gpu_kernel *k,
			const struct vgpu_gpu_push *p);
int vgpu_gpu_cancel(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k);
int vgpu_gpu_queue_push(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			struct vgpu_gpu_push *p);
struct vgpu_gpu_push *vgpu_gpu_push_reap(struct vgpu_gpu *g);
void vgpu_gpu_gate(struct vgpu_gpu *g, bool hold);

u64 vgpu_gpu_dispatch(struct vgpu_gpu *g);
void vgpu_gpu_advance_sm(struct vgpu_gpu *g, u32 sm);
void vgpu_gpu_advance_range(struct vgpu_gpu *g, u32 first, u32 count);
bool vgpu_gpu_idle(const struct vgpu_gpu *g);
bool vgpu_gpu_quiescent(const struct vgpu_gpu *g);
u64 vgpu_gpu_syncs(const struct vgpu_gpu *g);
int vgpu_gpu_set_sync_cost(struct vgpu_gpu *g, u32 cost);
u64 vgpu_gpu_next_arrival(const struct vgpu_gpu *g);

bool vgpu_gpu_kernel_finished(const struct vgpu_gpu_kernel *k);
u64 vgpu_gpu_sm_power(const struct vgpu_gpu *g, u32 sm);
u64 vgpu_gpu_sm_free(struct vgpu_gpu *g, u32 sm);
void vgpu_gpu_sm_runs(struct vgpu_gpu *g, u32 sm);
const struct vgpu_sm_res *vgpu_gpu_sm_view(struct vgpu_gpu *g, u32 sm,
					   bool *full);
const struct vgpu_sm_res *vgpu_gpu_sm_res(const struct vgpu_gpu *g, u32 sm);
/**
 * vgpu_gpu_dealloc_pending() - has a task slot a deallocation request?
 * @g: the device
 * @s: the slot, below &vgpu_gpu_params.task_slots
 *
 * Return: true while the request is pending (F13).
 */
static inline bool vgpu_gpu_dealloc_pending(const struct vgpu_gpu *g, u32 s)
{
	return vgpu_bmap_test(g->slot_dealloc, s);
}

bool vgpu_gpu_sm_empty(const struct vgpu_gpu *g, u32 sm);
u32 vgpu_gpu_sm_state(const struct vgpu_gpu *g, u32 sm);
u32 vgpu_gpu_prio_rank(const struct vgpu_gpu *g, u64 cycle, u32 prio);
void vgpu_gpu_window_sync(struct vgpu_gpu *g);
u32 vgpu_gpu_window_at(const struct vgpu_gpu *g, u64 cycle);
u64 vgpu_gpu_trace_hash(const struct vgpu_gpu *g);
const char *vgpu_gpu_event_name(u32 type);

#endif /* VGPU_CORE_GPU_H */
