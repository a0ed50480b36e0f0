/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lane.h - the lane engine: what a functional instruction does to the data
 * of a warp's lanes (seed 004; Documentation/isa.rst, "Functional
 * instructions").
 *
 * The SM engine decides when a warp issues; the lane engine decides what
 * the issued functional instruction computes.  It is pure: no allocation,
 * no clock, O(VGPU_ISA_LANES) per instruction, every memory access bounds
 * checked against the sizes its caller gives.  The caller owns all
 * storage: the warp's registers, the block's shared memory, the lanes'
 * private memory, the buffers of the kernel's slots and the global-store
 * log of the SM.
 */
#ifndef VGPU_CORE_LANE_H
#define VGPU_CORE_LANE_H

#include "vgpu_os.h"
#include <linux/vgpu_dispatch.h>

#define VGPU_LANE_STACK		16	/* reconvergence frames per warp */
#define VGPU_LANE_NO_PC		0xffff	/* the bottom frame's rpc */

static_assert(VGPU_ISA_LANES == 32, "a lane mask is a u32");
static_assert(VGPU_ISA_MAX_INSNS < VGPU_LANE_NO_PC, "pcs fit a u16");

/* vgpu_lane_exec() results above 0 */
#define VGPU_LANE_RETRY		1	/* log full: nothing done, issue again
					 * after vgpu_lane_log_apply()
					 */
#define VGPU_LANE_PARK		2	/* done; the destination is written by
					 * vgpu_lane_log_apply(): no issue
					 * before it
					 */

/* struct vgpu_lane_slot.flags */
#define VGPU_LANE_SLOT_READ_ONLY	BIT(0)	/* no STG, no ATOMG */
#define VGPU_LANE_SLOT_CONSTANT		BIT(1)	/* LDC may read it; read-only */

/**
 * struct vgpu_lane_frame - one entry of a warp's reconvergence stack
 * @pc: where the frame's lanes go on when it is on top again (the top
 *	frame's pc is the warp's pc, kept by the caller)
 * @rpc: reconvergence pc: the frame is popped when its lanes reach it
 *	(VGPU_LANE_NO_PC for the bottom frame)
 * @mask: the frame's lanes (those of them still live)
 */
struct vgpu_lane_frame {
	u16 pc;
	u16 rpc;
	u32 mask;
};

/**
 * struct vgpu_lane_state - the functional state of a warp besides its
 *	registers and pc
 * @live: lanes that exist and have not executed EXIT
 * @pred: predicates p0..p7, bit l for lane l
 * @depth: frames on @stack, at least 1 while the warp runs
 * @stack: reconvergence stack, @stack[@depth - 1] on top: its mask & @live
 *	is the active mask
 * @insns: functional instructions the warp executed (its budget, fn.h)
 *
 * Plain data: a warp's context switch copies it with the registers and
 * the pc (vgpu_lane_state_init() makes the first one).
 */
struct vgpu_lane_state {
	u32 live;
	u32 pred[VGPU_ISA_NUM_PREDS];
	u32 depth;
	struct vgpu_lane_frame stack[VGPU_LANE_STACK];
	u64 insns;
};

/**
 * struct vgpu_lane_slot - a buffer a kernel names (slot i: its i-th)
 * @base: first byte, NULL for a slot the kernel did not name
 * @size: bytes
 * @flags: VGPU_LANE_SLOT_*
 */
struct vgpu_lane_slot {
	u8 *base;
	u32 size;
	u32 flags;
};

/**
 * struct vgpu_lane_sregs - the special registers of a warp (S2R)
 * @warp: index of the warp in its block
 * @warp_size: threads per warp of the device (%tid = @warp * @warp_size
 *	+ lane)
 * @ntid: threads of the block
 * @ctaid: index of the block in its grid
 * @nctaid: blocks of the grid
 * @item: first work item of the block in its queue (F14), 0 in a grid
 * @nitems: work items of the block (F14), 0 in a grid
 */
struct vgpu_lane_sregs {
	u32 warp;
	u32 warp_size;
	u32 ntid;
	u32 ctaid;
	u32 nctaid;
	u32 item;
	u32 nitems;
};

/* struct vgpu_lane_log_entry.op besides VGPU_ATOM_* */
#define VGPU_LANE_LOG_STORE	0xff

/**
 * struct vgpu_lane_log_entry - a global store or atomic of one lane
 * @addr: the buffer word (4-aligned offset of a buffer, bounds checked);
 *	the buffer must stay mapped until the log is applied
 * @dst: an atomic's destination register, NULL for a store; it must stay
 *	where it is until the log is applied (apply before a warp's
 *	registers are saved or move)
 * @val: the value stored, or the atomic's operand
 * @cmp: the compare value of VGPU_ATOM_CAS
 * @op: VGPU_LANE_LOG_STORE or VGPU_ATOM_*
 */
struct vgpu_lane_log_entry {
	u8 *addr;
	u32 *dst;
	u32 val;
	u32 cmp;
	u32 op;
};

/**
 * struct vgpu_lane_log - global stores and atomics of an SM waiting for
 *	the epoch boundary
 * @e: @cap entries, caller's storage (at least VGPU_ISA_LANES)
 * @cap: capacity
 * @n: entries in use, in issue order then lane order
 */
struct vgpu_lane_log {
	struct vgpu_lane_log_entry *e;
	u32 cap;
	u32 n;
};

/**
 * struct vgpu_lane_env - where a warp's functional instruction finds its
 *	data
 * @regs: the warp's registers, r at @regs[r * VGPU_ISA_LANES + lane]
 * @nregs: registers per lane; an instruction naming a higher one is
 *	refused (-EINVAL)
 * @smem: the block's shared memory (NULL if it has none)
 * @smem_size: its bytes
 * @priv: private memory of the warp: lane l's at @priv + l * @priv_size
 * @priv_size: bytes per lane (0: none)
 * @slot: the kernel's buffers
 * @sr: the warp's special registers
 * @log: the SM's global-store log
 */
struct vgpu_lane_env {
	u32 *regs;
	u32 nregs;
	u8 *smem;
	u32 smem_size;
	u8 *priv;
	u32 priv_size;
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS];
	struct vgpu_lane_sregs sr;
	struct vgpu_lane_log *log;
};

void vgpu_lane_state_init(struct vgpu_lane_state *st, u32 live);
int vgpu_lane_exec(const struct vgpu_lane_env *env, struct vgpu_lane_state *st,
		   const struct vgpu_insn *prog, u32 n, u16 *pc);
void vgpu_lane_reconverge(struct vgpu_lane_state *st, u16 *pc);
bool vgpu_lane_exit(struct vgpu_lane_state *st, u16 *pc);
void vgpu_lane_log_apply(struct vgpu_lane_log *log);

/**
 * vgpu_lane_active() - the lanes that execute the warp's next instruction
 * @st: the warp's state
 *
 * Return: the top frame's lanes that are live.
 */
static inline u32 vgpu_lane_active(const struct vgpu_lane_state *st)
{
	return st->stack[st->depth - 1].mask & st->live;
}

/**
 * vgpu_lane_bar_ok() - may the warp arrive at a BAR?
 * @st: the warp's state
 *
 * A barrier counts warps, so every live lane of the warp must reach it
 * together; the SM engine fails the kernel with -EDEADLK otherwise.
 *
 * Return: true when the active mask is the live mask.
 */
static inline bool vgpu_lane_bar_ok(const struct vgpu_lane_state *st)
{
	return vgpu_lane_active(st) == st->live;
}

/*
 * IEEE-754 binary32 on bit patterns (lane_float.c): round to nearest
 * even, subnormals kept, every NaN result 0x7fc00000.  vgpu_sf32_* is the
 * integer implementation the module uses (the kernel has no FPU);
 * natively vgpu_hf32_*() (inline, so that lane loops vectorise) compute
 * the same with the host's float unit.
 */
#define VGPU_F32_NAN		0x7fc00000U

u32 vgpu_sf32_add(u32 a, u32 b);
u32 vgpu_sf32_sub(u32 a, u32 b);
u32 vgpu_sf32_mul(u32 a, u32 b);
u32 vgpu_sf32_fma(u32 a, u32 b, u32 c);
u32 vgpu_sf32_min(u32 a, u32 b);
u32 vgpu_sf32_max(u32 a, u32 b);
u32 vgpu_sf32_from_int(u32 a);
u32 vgpu_sf32_to_int(u32 a);
bool vgpu_sf32_cmp(u32 a, u32 b, u32 cond);

#ifndef __KERNEL__
/*
 * The host's float unit (SSE on x86-64: binary32, round to nearest even,
 * no flush to zero), with NaN results made canonical.
 */
static inline float vgpu_hf32_f(u32 a)
{
	float f;

	memcpy(&f, &a, sizeof(f));
	return f;
}

static inline u32 vgpu_hf32_u(float f)
{
	u32 a;

	memcpy(&a, &f, sizeof(a));
	return (a & 0x7fffffffU) > 0x7f800000U ? VGPU_F32_NAN : a;
}

/**
 * vgpu_hf32_add() - vgpu_sf32_add() on the host's float unit
 * @a: operand
 * @b: operand
 *
 * Return: the rounded sum.
 */
static inline u32 vgpu_hf32_add(u32 a, u32 b)
{
	return vgpu_hf32_u(vgpu_hf32_f(a) + vgpu_hf32_f(b));
}

/**
 * vgpu_hf32_sub() - vgpu_sf32_sub() on the host's float unit
 * @a: operand
 * @b: operand
 *
 * Return: the rounded difference.
 */
static inline u32 vgpu_hf32_sub(u32 a, u32 b)
{
	return vgpu_hf32_u(vgpu_hf32_f(a) - vgpu_hf32_f(b));
}

/**
 * vgpu_hf32_mul() - vgpu_sf32_mul() on the host's float unit
 * @a: operand
 * @b: operand
 *
 * Return: the rounded product.
 */
static inline u32 vgpu_hf32_mul(u32 a, u32 b)
{
	return vgpu_hf32_u(vgpu_hf32_f(a) * vgpu_hf32_f(b));
}

/**
 * vgpu_hf32_fma() - vgpu_sf32_fma() on the host's float unit
 * @a: factor
 * @b: factor
 * @c: addend
 *
 * Return: the fused multiply-add.
 */
static inline u32 vgpu_hf32_fma(u32 a, u32 b, u32 c)
{
	return vgpu_hf32_u(__builtin_fmaf(vgpu_hf32_f(a), vgpu_hf32_f(b),
					  vgpu_hf32_f(c)));
}

/**
 * vgpu_hf32_min() - vgpu_sf32_min() on the host's float unit
 * @a: operand
 * @b: operand
 *
 * Return: the smaller operand, as vgpu_sf32_min().
 */
static inline u32 vgpu_hf32_min(u32 a, u32 b)
{
	float x = vgpu_hf32_f(a), y = vgpu_hf32_f(b);

	if (x != x)
		return y != y ? VGPU_F32_NAN : b;
	if (y != y)
		return a;
	return x < y ? a : y < x ? b : a | b;
}

/**
 * vgpu_hf32_max() - vgpu_sf32_max() on the host's float unit
 * @a: operand
 * @b: operand
 *
 * Return: the larger operand, as vgpu_sf32_max().
 */
static inline u32 vgpu_hf32_max(u32 a, u32 b)
{
	float x = vgpu_hf32_f(a), y = vgpu_hf32_f(b);

	if (x != x)
		return y != y ? VGPU_F32_NAN : b;
	if (y != y)
		return a;
	return x > y ? a : y > x ? b : a & b;
}

/**
 * vgpu_hf32_from_int() - vgpu_sf32_from_int() on the host's float unit
 * @a: the integer's bits
 *
 * Return: the nearest float.
 */
static inline u32 vgpu_hf32_from_int(u32 a)
{
	return vgpu_hf32_u((float)(s32)a);
}

/**
 * vgpu_hf32_to_int() - vgpu_sf32_to_int() on the host's float unit
 * @a: the float's bits
 *
 * Return: the value truncated toward zero, saturated; 0 for a NaN.
 */
static inline u32 vgpu_hf32_to_int(u32 a)
{
	float f = vgpu_hf32_f(a);

	if (f != f)
		return 0;
	if (f >= 2147483648.0f)
		return 0x7fffffffU;
	if (f <= -2147483648.0f)
		return 0x80000000U;
	return (u32)(s32)f;
}

/**
 * vgpu_hf32_cmp() - vgpu_sf32_cmp() on the host's float unit
 * @a: left operand
 * @b: right operand
 * @cond: VGPU_COND_*
 *
 * Return: a @cond b, as vgpu_sf32_cmp().
 */
static inline bool vgpu_hf32_cmp(u32 a, u32 b, u32 cond)
{
	float x = vgpu_hf32_f(a), y = vgpu_hf32_f(b);

	switch (cond) {
	case VGPU_COND_EQ:
		return x == y;
	case VGPU_COND_NE:
		return !(x == y);
	case VGPU_COND_LT:
		return x < y;
	case VGPU_COND_LE:
		return x <= y;
	case VGPU_COND_GT:
		return x > y;
	default:
		return x >= y;
	}
}
#endif /* !__KERNEL__ */

#endif /* VGPU_CORE_LANE_H */
