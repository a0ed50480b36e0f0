/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine needs to know about a kernel (F10, F04).
 *
 * A minimal descriptor: the validated program and its LOOP/ENDLOOP links,
 * the launch geometry, the block shape in allocation units and the
 * competition priority rule.  Channel, flags and timestamps (F10) belong to
 * the global controller, which embeds this descriptor in its own object.
 */
#ifndef VGPU_CORE_KERNEL_H
#define VGPU_CORE_KERNEL_H

#include "vgpu_os.h"
#include "config.h"
#include "resource.h"
#include "isa.h"
#include "lane.h"

/**
 * struct vgpu_kernel_desc - a kernel as the SM engine sees it
 * @id: kernel id, reported in every event (set by the caller)
 * @prio: kernel priority, 0 highest (set by the caller)
 * @grid: blocks in the grid (set by the caller)
 * @threads: threads per block (set by the caller)
 * @regs_per_thread: registers per thread (set by the caller)
 * @smem_bytes: shared memory per block in bytes (set by the caller)
 * @sregs: scalar registers per warp, 0 for none (seed 001 [0042]; set by
 *	the caller)
 * @prio_wid_mod: per-warp competition priority (F35): 0 = every warp has
 *	its block's priority; k > 0 = warp w has block prio + w % k, capped
 *	at VGPU_MAX_PRIOS - 1 (set by the caller)
 * @warp_prio: per-warp competition levels (F35, seed 003 [0021]-[0023]:
 *	the host sets each warp's priority from its task's real-time level):
 *	warp w competes at prio + warp_prio[w], capped like @prio_wid_mod;
 *	NULL = @prio_wid_mod decides; else one entry per warp of a block
 *	(set by the caller)
 * @prog: the program, @n_insns instructions (set by vgpu_kernel_desc_init())
 * @match: LOOP <-> ENDLOOP links from vgpu_isa_link(), caller's storage
 * @n_insns: program length
 * @sum: validated summary (vgpu_isa_summarize())
 * @shape: block shape in allocation units; one barrier if @sum.uses_bar
 * @slots: the buffers a functional kernel names (VGPU_ISA_MAX_SLOTS
 *	entries, caller's storage), or NULL: every slot unnamed (set by the
 *	caller)
 * @priv_bytes: private memory per thread of a functional kernel, a
 *	multiple of 4; the block's shape counts it with the registers (set
 *	by the caller)
 * @orig: for the descriptor of a split kernel's units (F24), the
 *	kernel's own descriptor: a unit's block index is block * warps +
 *	warp of it (set by the caller); else NULL
 * @insn_budget: functional instructions each warp of a functional kernel
 *	may execute, 0 for no bound (set by the caller): the warp that would
 *	execute one more faults with -EXFULL (fn.h)
 *
 * The descriptor, @prog and @match must outlive every block of the kernel
 * on every SM.
 */
struct vgpu_kernel_desc {
	u32 id;
	u32 prio;
	u32 grid;
	u32 threads;
	u32 regs_per_thread;
	u32 smem_bytes;
	u32 sregs;
	u32 prio_wid_mod;
	const u8 *warp_prio;
	const struct vgpu_insn *prog;
	const u16 *match;
	u32 n_insns;
	struct vgpu_isa_summary sum;
	struct vgpu_block_shape shape;
	const struct vgpu_lane_slot *slots;
	u32 priv_bytes;
	const struct vgpu_kernel_desc *orig;
	u64 insn_budget;
};

int vgpu_kernel_desc_shape(struct vgpu_kernel_desc *k,
			   const struct vgpu_config *cfg, u32 barriers);
int vgpu_kernel_desc_init(struct vgpu_kernel_desc *k,
			  const struct vgpu_config *cfg,
			  const struct vgpu_insn *prog, u32 n, u16 *match);

#endif /* VGPU_CORE_KERNEL_H */
