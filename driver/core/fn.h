/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fn.h - functional mode of the SM engine: where the data of the warps
 * lives and when global memory changes (seed 004; Documentation/engine.rst,
 * "Functional mode").
 *
 * The lane engine (lane.h) computes what one functional instruction does
 * to a warp's lanes; this room gives it the warp's data where seed 004 and
 * the hardware keep it:
 *
 * - registers in the SM's register file, at the run the resource bitmaps
 *   gave the warp (sub-partition, first unit): a wrong allocation
 *   corrupts results, as on hardware.  A lane's private memory follows
 *   the warp's registers in the same run (the kernel's shape counts it);
 * - shared memory in the SM's shared memory, from the block's
 *   allocated first unit;
 * - global memory in the buffers the kernel names (its slots); stores and
 *   atomics wait in the SM's log until the epoch boundary, where the
 *   controller applies the logs of every SM in SM order
 *   (vgpu_fn_sm_flush()), so the data never depends on how the SMs are
 *   spread over workers.
 *
 * Switch-out (and suspension at a LAUNCH WAIT) copies a block's registers,
 * private and shared memory and its warps' lane states into the save
 * record's functional area; restore copies them into the block's new
 * place.  Timing-only kernels never come here: a device without
 * functional kernels has no functional memory at all (struct
 * vgpu_sm.fn is NULL).
 */
#ifndef VGPU_CORE_FN_H
#define VGPU_CORE_FN_H

#include "vgpu_os.h"
#include "config.h"
#include "lane.h"
#include "bmap.h"
#include "fn_debug.h"

static_assert(VGPU_MAX_BUFFER_SLOTS == VGPU_ISA_MAX_SLOTS,
	      "a kernel's buffers are the lane engine's slots");

struct vgpu_sm;
struct vgpu_sm_saved;
struct vgpu_warp;

/* Guards of one SM's functional memory (debug builds, fn.c). */
#define VGPU_FN_GUARDS		5

/* Global stores and atomics one SM may log per epoch (lanes). */
#define VGPU_FN_LOG_ENTRIES	4096

/**
 * struct vgpu_fn_sm - the functional memory of one SM
 * @regs: the register file: sub-partition p's at @regs + p *
 *	regs_per_subpart, one 32-bit lane register a word
 * @smem: the shared memory, smem_per_sm bytes
 * @lanes: lane state of each warp context of the SM's pool, by pool index
 * @log: global stores and atomics of the running epoch
 * @regs_per_subpart: words of a sub-partition's register file
 * @reg_unit: register allocation unit, in words
 * @smem_unit: shared memory allocation unit, in bytes
 * @parked: some warp waits for the boundary (VGPU_WARP_WAIT_MEM)
 * @guard: the guards before its log and after each region (debug builds:
 *	VGPU_MEM_GUARD bytes each)
 * @hook: the debugger's hook (fn_debug.h), or NULL
 * @hook_cookie: its cookie
 */
struct vgpu_fn_sm {
	u32 *regs;
	u8 *smem;
	struct vgpu_lane_state *lanes;
	struct vgpu_lane_log log;
	u32 regs_per_subpart;
	u32 reg_unit;
	u32 smem_unit;
	bool parked;
	u8 *guard[VGPU_FN_GUARDS];
	vgpu_fn_hook_fn hook;
	void *hook_cookie;
};

size_t vgpu_fn_sm_bytes(const struct vgpu_config *cfg);
void vgpu_fn_sm_init(struct vgpu_fn_sm *f, void *mem,
		     const struct vgpu_config *cfg);
size_t vgpu_fn_save_bytes(const struct vgpu_config *cfg);
int vgpu_fn_config_ok(const struct vgpu_config *cfg);

void vgpu_fn_block_arrive(struct vgpu_sm *sm, u32 slot);
void vgpu_fn_warp_start(struct vgpu_sm *sm, u32 idx);
void vgpu_fn_exec(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w,
		  const struct vgpu_insn *in);
bool vgpu_fn_exit(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w);
bool vgpu_fn_bar(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w);
void vgpu_fn_sm_flush(struct vgpu_sm *sm);
int vgpu_fn_block_save(struct vgpu_sm *sm, u32 slot,
		       struct vgpu_sm_saved *s);
void vgpu_fn_block_restore(struct vgpu_sm *sm, u32 slot,
			   const struct vgpu_sm_saved *s);

#endif /* VGPU_CORE_FN_H */
