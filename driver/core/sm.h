/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SM execution engine: SM controller, warps, barriers, priority
 * mutexes, class counters and power (F30, F33-F35, F25 input, F50,
 * F51, F53).  Documentation/engine.rst describes the timing model.
 *
 * A struct vgpu_sm is plain, fixed-size data owned by one worker; the
 * caller allocates it (sizeof(struct vgpu_sm)) and the warp context pool it
 * draws from.  The engine advances an SM only when told to, by a number of
 * cycles (an epoch, vgpu_sm_run()); it reads no clock, takes no lock and
 * allocates nothing.
 */
#ifndef VGPU_CORE_SM_H
#define VGPU_CORE_SM_H

#include "vgpu_os.h"
#include "config.h"
#include "resource.h"
#include "kernel.h"
#include "mutex.h"
#include "timing.h"
#include "trace.h"
#include "warp.h"

struct vgpu_fn_sm;

/*
 * The power window's classes (F25): the timed classes (an MMA of one base
 * tile in VGPU_OP_MMA's), then an MMA of 2^s tiles, s = 1 ..
 * VGPU_MMA_SIZE_MAX, each a class of its own (seed 001 [0270]: the matrix
 * instructions are classed by size).
 */
#define VGPU_SM_PCLASSES	(VGPU_ISA_NUM_CLASSES + VGPU_MMA_SIZE_MAX)
#define VGPU_SM_WIN_HIST	16	/* vgpu_sm_window_hist() */
#define VGPU_PRIO_NONE		0xff	/* no resident block */

/* enum vgpu_place_mode - how vgpu_sm_block_add() places a block (F23) */
enum vgpu_place_mode {
	VGPU_PLACE_BLOCK = 0,	/* (a) whole block, all warps' resources now */
	VGPU_PLACE_WARP = 1,	/* (b) block slot and smem now, warps as
				 * resources free; not for kernels using BAR
				 */
};

/* BLOCK_ADD event mode (arg1 >> 16) of a block brought back by restore */
#define VGPU_PLACE_RESTORE	2

/* struct vgpu_sm_block.launch: where the block is with a LAUNCH WAIT (F15) */
#define VGPU_SM_LAUNCH_NONE	0	/* not at a LAUNCH WAIT */
#define VGPU_SM_LAUNCH_ARRIVING	1	/* some warps parked at a LAUNCH WAIT */
#define VGPU_SM_LAUNCH_PARKED	2	/* all parked: waits for its child */

/*
 * LAUNCHes without VGPU_LAUNCH_WAIT one vgpu_sm_run() call forwards (its
 * launch queue, F15); warp 0 of a block that finds it full executes the
 * LAUNCH again at the start of the next call.
 */
#define VGPU_SM_LAUNCH_QUEUE	16

#define VGPU_SM_NO_WAKE		(~0ULL)	/* &vgpu_sm.start_wake: none */

/* vgpu_sm_run() flags */
#define VGPU_SM_RUN_STOP_BLOCK	BIT(0)	/* return after a cycle that
					 * completed a block
					 */

static_assert(VGPU_MAX_BLOCKS_PER_SM <= 64, "block masks are u64");
static_assert(VGPU_MAX_PRIOS <= 32, "ready masks are u32");
static_assert(VGPU_MAX_SUBPARTS <= 32, "sub-partition masks are u32");

/**
 * struct vgpu_sm_subpart - issue state of one sub-partition
 * @ready: its queued warps per competition priority, in the order of
 *	their ready cycles (vgpu_warp.ready), then of their queueing: the
 *	warps whose ready cycle has come are the queue's head, in the order
 *	they became ready (round-robin within a priority); the others wait
 *	for their latency behind them
 *
 * Its mask of non-empty queues is &vgpu_sm.sp_mask: 128 bytes a
 * sub-partition keeps the address of a queue a shift and an add.
 */
struct vgpu_sm_subpart {
	struct vgpu_wq ready[VGPU_MAX_PRIOS];
};

/**
 * struct vgpu_sm_block - one row of the SM's block state table (F30)
 * @kernel: the block's kernel
 * @ready_at: its warps start at this cycle at the earliest (state sync,
 *	F17)
 * @arrived: cycle of arrival
 * @block_idx: index of the block within its grid
 * @prio: block priority (0 highest)
 * @mode: enum vgpu_place_mode
 * @n_warps: warps of the block
 * @next_start: warps started so far (they start in index order)
 * @n_done: warps that executed EXIT
 * @warp: pool index of each started, live warp, else VGPU_WARP_NONE
 * @seq: arrival order on this SM (ties between equal priorities)
 * @items: work items of the block (F14), 0 in a grid kernel
 * @bar_arrived: warps parked at the current barrier (F34) or LAUNCH WAIT
 * @launch: VGPU_SM_LAUNCH_*: the current barrier is a LAUNCH WAIT (F15)
 * @launch_tmpl: its template index
 * @place: placement record (resource.h)
 * @wprio: competition priority of each warp (F35), for the arbiter: set
 *	only for kernels that use LOCK (a warp's own is set when it starts,
 *	vgpu_sm_warp_prio())
 * @item: index of the block's first work item in its queue (F14), what
 *	a functional program reads as %item: set by the controller, only
 *	for functional kernels
 * @arb: lock words and arbiter FIFO (F35); initialised, and read, only
 *	for kernels that use LOCK
 *
 * A row is written when its block arrives and read again when its warps
 * start and exit, an epoch later: on a device of many SMs it has left the
 * caches by then.  So what a block of few warps touches is packed in
 * whole cache lines (rows are line-aligned): the first holds the fields
 * its warps' starts and exits read and @warp's first entries; another,
 * what only the arrival writes with @place's own fields and first warps'
 * entries; the arbiter, which vgpu_mutex_arb_init() clears at the
 * arrival of a block that locks, starts a third.  @wprio, read by the
 * arbiter only, and the rest of the arrays lie in between.
 */
struct vgpu_sm_block {
	VGPU_ALIGNED(VGPU_CACHE_LINE) const struct vgpu_kernel_desc *kernel;
	u64 ready_at;
	u64 arrived;
	u32 block_idx;
	u32 prio;
	u32 mode;
	u32 n_warps;
	u32 next_start;
	u32 n_done;
	u32 warp[VGPU_MAX_BLOCK_WARPS];
	/* a line: the arrival's own fields, the placement's, its first warps */
	VGPU_ALIGNED(VGPU_CACHE_LINE) u64 seq;
	u32 items;
	u32 bar_arrived;
	u8 launch;
	u8 launch_tmpl;
	struct vgpu_block_place place;
	u8 wprio[VGPU_MAX_BLOCK_WARPS];
	u32 item;
	/* from a line's start: what vgpu_mutex_arb_init() clears */
	VGPU_ALIGNED(VGPU_CACHE_LINE) struct vgpu_mutex_arb arb;
};

/* A one-warp block: three lines of its row at arrival, two at its start. */
static_assert(offsetof(struct vgpu_sm_block, warp[4]) <= VGPU_CACHE_LINE,
	      "the warp-start fields and the first warps share a line");
static_assert(offsetof(struct vgpu_sm_block, place.warp[1]) -
	      offsetof(struct vgpu_sm_block, seq) <= VGPU_CACHE_LINE,
	      "the arrival's fields, the placement's and warp 0's share a line");
static_assert(offsetof(struct vgpu_mutex_arb, held[1]) <= VGPU_CACHE_LINE,
	      "vgpu_mutex_arb_init() clears one line for a one-warp block");

/**
 * struct vgpu_sm_stats - cumulative counters of an SM
 * @events: events emitted
 * @issued: warp-instructions issued (every opcode)
 * @warps_done: warps that executed EXIT
 * @blocks_done: blocks completed
 * @last_done: cycle of the last block completion
 * @syncs: state syncs: blocks given while the SM held another kernel's
 *	state (F17)
 * @blocks_cancelled: blocks removed by vgpu_sm_cancel_kernel()
 * @cls: timed instructions issued per class
 *
 * The counters every block moves come first.
 */
struct vgpu_sm_stats {
	u64 events;
	u64 issued;
	u64 warps_done;
	u64 blocks_done;
	u64 last_done;
	u64 syncs;
	u64 blocks_cancelled;
	u64 cls[VGPU_ISA_NUM_CLASSES];
};

/*
 * F17, seed 002 steps 434-438 and 502: the kernel assigned to an SM goes
 * TASK_ASSIGN (chosen for the SM; its state not sent yet) -> STATE_SYNC
 * (sent, the SM has not acknowledged it: sync_cost cycles) -> READY (the SM
 * may be issued blocks of it).  Without a sync to make (the same kernel,
 * or sync_cost 0) the assignment is READY at once.
 */
#define VGPU_SM_PHASE_NONE		0	/* no kernel assigned yet */
#define VGPU_SM_PHASE_TASK_ASSIGN	1
#define VGPU_SM_PHASE_STATE_SYNC	2
#define VGPU_SM_PHASE_READY		3

/**
 * struct vgpu_sm - one streaming multiprocessor
 * @id: SM index, reported in events
 * @last_kernel: id of the kernel whose state the SM holds (the kernel of
 *	the block it was given last), VGPU_EV_NONE before the first
 * @now: current cycle: the next cycle vgpu_sm_run() executes
 * @seq: arrival counter
 * @used: block slots in use
 * @unstarted: block slots with unstarted warps
 * @hash: FNV-1a hash of every event so far (trace.h)
 * @trace: event sink or NULL
 * @trace_cookie: passed to @trace
 * @sync_ready: cycle at which that state is in place (F17)
 * @top_prio: highest (numerically lowest) resident block priority, or
 *	VGPU_PRIO_NONE (F33)
 * @prio_mask: bit p set while a resident block has priority p
 * @sync_cost: cycles a state sync takes, 0 = off (F17); set by the owner
 *	between two vgpu_sm_run() calls
 * @search_latency: cycles the controller's largest-run search took before
 *	a block was given (seed 001 [0113]-[0114]); its warps start no
 *	earlier; set by the owner between two vgpu_sm_run() calls
 * @phase: VGPU_SM_PHASE_* of the kernel assigned to the SM (F17, seed 002
 *	steps 434-438); read it with vgpu_sm_phase()
 * @start_dirty: warp starts must be attempted next cycle
 * @prio_blocks: resident blocks per priority
 * @stats: cumulative counters
 * @pool: the owning worker's warp context pool
 * @warps: @pool's contexts
 * @arb_pending: block slots whose arbiter FIFO is not empty
 * @launch_stalled: block slots whose warp 0 waits in VGPU_WARP_WAIT_LAUNCH
 * @start_wake: earliest @ready_at of a block whose warps wait for a state
 *	sync, VGPU_SM_NO_WAKE if none
 * @round_next: vgpu_sm_run() looks for a round (sm_issue.c) from this cycle on
 * @win_next: the power window's ring holds no room for cycles from this
 *	one on: vgpu_sm_win_roll() makes room first
 * @win_mask: the ring's cycles - 1 (a power of two, at least nx + nx / 16)
 * @subparts: sub-partitions
 * @run_flags: flags of the running vgpu_sm_run()
 * @launches: LAUNCHes without VGPU_LAUNCH_WAIT forwarded by the running
 *	vgpu_sm_run() (at most VGPU_SM_LAUNCH_QUEUE, F15)
 * @ready_sp: sub-partitions with a queued warp
 * @win_nx: the window's length nx in cycles
 * @stop: vgpu_sm_run() returns after the current cycle
 * @sp_mask: per sub-partition, bit p set when its ready[p] is not empty
 * @res: remaining resources (resource.h)
 * @timing: timing table (copied at init)
 * @sp: per sub-partition ready queues
 * @win_ring: the power window's ring, a byte per cycle and sub-partition:
 *	0, or 1 + the power class (VGPU_SM_PCLASSES) of the instruction the
 *	sub-partition issued in that cycle; caller storage
 *	(vgpu_sm_set_window()), or @win_none when there is none
 * @win_exp: the ring's oldest cycle still counted in @win_cnt (the
 *	issues of the cycles before it have left the window)
 * @win_cnt: instructions of each power class in the ring's cycles from
 *	@win_exp on
 * @win_none: the ring of an SM without one: one cycle, overwritten
 * @start_key: per used block slot, its priority << 56 | its arrival
 *	order: warps start from the lowest first (F30); apart from @block so
 *	that choosing reads a few cache lines, not one per block
 * @block: block state table, indexed by slot
 * @fn: functional memory (fn.h), NULL while the device runs no functional
 *	kernel; set by the owner between two vgpu_sm_run() calls
 *
 * The controller gives each SM of a large device a block in turn, and
 * each time the SM's state has left the caches: the scalars come first,
 * packed by use in whole cache lines (the SM is line-aligned, as its
 * rows are): what every event reads (the first line), what an arrival
 * reads besides, with the event counter (the second), the other counters
 * and what an epoch reads (the next three), then the resources'
 * counters (two lines).
 */
struct vgpu_sm {
	VGPU_ALIGNED(VGPU_CACHE_LINE) u32 id;
	u32 last_kernel;
	u64 now;
	u64 seq;
	u64 used;
	u64 unstarted;
	u64 hash;
	vgpu_trace_fn trace;
	void *trace_cookie;
	u64 sync_ready;
	u32 top_prio;
	u32 prio_mask;
	u32 sync_cost;
	u32 search_latency;
	u8 phase;
	bool start_dirty;
	u8 prio_blocks[VGPU_MAX_PRIOS];
	struct vgpu_sm_stats stats;
	struct vgpu_worker_pool *pool;
	struct vgpu_warp *warps;
	u64 arb_pending;
	u64 launch_stalled;
	u64 start_wake;
	u64 round_next;
	u64 win_next;
	u32 win_mask;
	u32 subparts;
	u32 run_flags;
	u32 launches;
	u32 ready_sp;
	u32 win_nx;
	bool stop;
	u32 sp_mask[VGPU_MAX_SUBPARTS];
	struct vgpu_sm_res res;
	struct vgpu_isa_timing timing;
	struct vgpu_sm_subpart sp[VGPU_MAX_SUBPARTS];
	u8 *win_ring;
	u64 win_exp;
	u32 win_cnt[VGPU_SM_PCLASSES];
	u8 win_none[VGPU_MAX_SUBPARTS];
	u64 start_key[VGPU_MAX_BLOCKS_PER_SM];
	struct vgpu_sm_block block[VGPU_MAX_BLOCKS_PER_SM];
	struct vgpu_fn_sm *fn;
};

static_assert(offsetof(struct vgpu_sm, trace_cookie) + sizeof(void *) <=
	      VGPU_CACHE_LINE, "an event reads one line of the SM");
static_assert(offsetof(struct vgpu_sm, stats.events) + sizeof(u64) <=
	      2 * VGPU_CACHE_LINE, "an arrival reads one more");
static_assert(offsetof(struct vgpu_sm, res) % VGPU_CACHE_LINE +
	      offsetof(struct vgpu_sm_res, regs) <= 2 * VGPU_CACHE_LINE,
	      "the resources' counters take two lines");

/**
 * struct vgpu_sm_saved - a block switched out of its SM (switch mode)
 * @row: its block state table row (pool indices in @row.warp are stale)
 * @rem: cycles of latency each waiting warp had left
 * @w: contexts of its started, live warps, by warp index
 * @fn: functional area (vgpu_fn_save_bytes()), or NULL: a functional
 *	block cannot be saved (set by the owner of the record)
 *
 * Filled by vgpu_sm_block_save(), consumed by vgpu_sm_block_restore():
 * warps keep their PC, loop stack, lock and barrier state, so the block
 * neither loses nor repeats work.
 */
struct vgpu_sm_saved {
	struct vgpu_sm_block row;
	u8 rem[VGPU_MAX_BLOCK_WARPS];
	struct vgpu_warp w[VGPU_MAX_BLOCK_WARPS];
	void *fn;
};

int vgpu_sm_init(struct vgpu_sm *sm, const struct vgpu_config *cfg,
		 const struct vgpu_isa_timing *timing,
		 struct vgpu_worker_pool *pool, u32 id);
void vgpu_sm_fini(struct vgpu_sm *sm);
void vgpu_sm_block_set_prio(struct vgpu_sm *sm, u32 slot, u32 prio);
void vgpu_sm_set_trace(struct vgpu_sm *sm, vgpu_trace_fn fn, void *cookie);
int vgpu_sm_block_add(struct vgpu_sm *sm, const struct vgpu_kernel_desc *k,
		      u32 block_idx, u32 prio, enum vgpu_place_mode mode);
int vgpu_sm_block_add_items(struct vgpu_sm *sm,
			    const struct vgpu_kernel_desc *k, u32 block_idx,
			    u32 items, u32 prio, enum vgpu_place_mode mode);
u64 vgpu_sm_run(struct vgpu_sm *sm, u64 cycles, u32 flags);
void vgpu_sm_prefetch(const struct vgpu_sm *sm, bool blocks);
u32 vgpu_sm_cancel_kernel(struct vgpu_sm *sm, u32 kernel_id);
int vgpu_sm_block_save(struct vgpu_sm *sm, u32 slot, struct vgpu_sm_saved *s);
int vgpu_sm_block_restore(struct vgpu_sm *sm, const struct vgpu_sm_saved *s,
			  u32 delay);
int vgpu_sm_block_wake(struct vgpu_sm *sm, u32 slot);
size_t vgpu_sm_window_bytes(const struct vgpu_config *cfg,
			    const struct vgpu_isa_timing *timing);
void vgpu_sm_set_window(struct vgpu_sm *sm, u8 *ring);
u32 vgpu_sm_window_count(const struct vgpu_sm *sm, u32 cls);
u32 vgpu_sm_window_pcount(const struct vgpu_sm *sm, u32 pcls);
void vgpu_sm_window_hist(const struct vgpu_sm *sm,
			 u32 hist[VGPU_SM_WIN_HIST]);
u64 vgpu_sm_power(const struct vgpu_sm *sm);
u32 vgpu_sm_phase(const struct vgpu_sm *sm);
const char *vgpu_sm_phase_name(u32 phase);

/**
 * vgpu_sm_idle() - does the SM hold no block at all?
 * @sm: the SM
 *
 * Return: true when the block state table is empty.
 */
static inline bool vgpu_sm_idle(const struct vgpu_sm *sm)
{
	return !sm->used;
}

#endif /* VGPU_CORE_SM_H */
