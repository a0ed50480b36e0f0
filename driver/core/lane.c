// SPDX-License-Identifier: GPL-2.0
/*
 * lane.c - the lane engine: functional instructions on the lanes of a warp
 * (seed 004; Documentation/isa.rst, "Functional instructions").
 *
 * vgpu_lane_exec() executes one instruction of a program that passed
 * vgpu_isa_validate_flags(..., VGPU_ISA_FUNCTIONAL, ...) for the warp's
 * active lanes: all of them or, on a fault or a full log, none (nothing
 * is written and the pc stays).  The lanes are plain loops over
 * VGPU_ISA_LANES entries that the compiler can vectorise: a result is
 * computed for every lane and blended into the destination under the
 * active mask.
 *
 * Memory model, as a program sees it: registers, predicates, shared and
 * private memory change at once, in lane order within an instruction;
 * global loads read the buffer directly; global stores and atomics go to
 * the SM's log and reach the buffers at the epoch boundary
 * (vgpu_lane_log_apply(), in issue order, then lane order), an atomic's
 * old value reaching its register then (VGPU_LANE_PARK).
 *
 * Divergence: a per-warp stack of reconvergence frames {pc, rpc, mask}.
 * The top frame's lanes run; a BRP that splits them sets the top frame to
 * wait at the join and pushes the not-taken then the taken path (a path
 * that goes straight to the join needs no frame); a frame is popped when
 * its lanes reach its rpc, or when none of them is live.  A BRP whose join
 * is the top frame's own rpc (a loop's exit test) narrows the top frame
 * instead of pushing, so a loop does not grow the stack per iteration.
 */
#include "vgpu_os.h"
#include "isa.h"
#include "lane.h"

#define VGPU_LANES	VGPU_ISA_LANES

#ifdef __KERNEL__
#define VGPU_F32(op)	vgpu_sf32_##op
#else
#define VGPU_F32(op)	vgpu_hf32_##op
#endif

/**
 * vgpu_lane_state_init() - the functional state of a warp that starts
 * @st: the state
 * @live: its lanes (bit l for each thread the warp has)
 *
 * One frame, at no reconvergence point, with every live lane; predicates
 * clear.  The caller starts the warp at pc 0.
 */
void vgpu_lane_state_init(struct vgpu_lane_state *st, u32 live)
{
	memset(st, 0, sizeof(*st));
	st->live = live;
	st->depth = 1;
	st->stack[0].rpc = VGPU_LANE_NO_PC;
	st->stack[0].mask = live;
}

/**
 * vgpu_lane_reconverge() - pop the frames a warp is done with
 * @st: the warp's state
 * @pc: in: the warp's next pc; out: where it goes on
 *
 * The lane engine calls this after each instruction; the SM engine calls
 * it too when it advances a functional warp's pc itself (a timed
 * instruction of the base ISA, a BAR released, a LAUNCH or PUSH), so that
 * a frame whose lanes reach their reconvergence pc that way is popped as
 * well.  Frames without live lanes are dropped.
 */
void vgpu_lane_reconverge(struct vgpu_lane_state *st, u16 *pc)
{
	while (st->depth > 1) {
		const struct vgpu_lane_frame *top = &st->stack[st->depth - 1];

		if (*pc != top->rpc && (top->mask & st->live))
			break;
		st->depth--;
		*pc = st->stack[st->depth - 1].pc;
	}
}

/**
 * vgpu_lane_exit() - the active lanes of a warp execute EXIT
 * @st: the warp's state
 * @pc: in: the pc of the EXIT; out: where the warp goes on, unless done
 *
 * The active lanes leave (they are no longer live); the frames left
 * without live lanes are popped, and the warp goes on with the next one.
 *
 * Return: true when no lane is live any more: the warp is done.
 */
bool vgpu_lane_exit(struct vgpu_lane_state *st, u16 *pc)
{
	st->live &= ~vgpu_lane_active(st);
	if (!st->live)
		return true;
	vgpu_lane_reconverge(st, pc);
	return false;
}

/* Bit l of a lane mask, a table so that the mask loop vectorises. */
static const u32 vgpu_lane_bit[VGPU_LANES] = {
	BIT(0), BIT(1), BIT(2), BIT(3), BIT(4), BIT(5), BIT(6), BIT(7),
	BIT(8), BIT(9), BIT(10), BIT(11), BIT(12), BIT(13), BIT(14), BIT(15),
	BIT(16), BIT(17), BIT(18), BIT(19), BIT(20), BIT(21), BIT(22), BIT(23),
	BIT(24), BIT(25), BIT(26), BIT(27), BIT(28), BIT(29), BIT(30), BIT(31),
};

/* rd[l] = v[l] for the active lanes @act. */
static __always_inline void vgpu_lane_blend(u32 *rd, const u32 *v, u32 act)
{
	u32 l, m;

	if (act == ~0U) {
		memcpy(rd, v, VGPU_LANES * sizeof(*rd));
		return;
	}
	for (l = 0; l < VGPU_LANES; l++) {
		m = (act & vgpu_lane_bit[l]) ? ~0U : 0;
		rd[l] = (v[l] & m) | (rd[l] & ~m);
	}
}

/*
 * v = rb * rc + rz, fused, for every lane.  Natively the host's fused
 * multiply-add instruction when the CPU has one (a clone of this loop per
 * target, chosen when the program loads), else the C library's fmaf():
 * the same bits either way, the rounding being exact.  Not under
 * ThreadSanitizer: the clones' resolver runs while the dynamic loader
 * relocates the program, before the sanitizer's runtime is up.
 */
#if !defined(__KERNEL__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("fma", "default")))
#endif
static void vgpu_lane_ffma(u32 *v, const u32 *rb, const u32 *rc,
			   const u32 *rz)
{
	u32 l;

	for (l = 0; l < VGPU_LANES; l++)
		v[l] = VGPU_F32(fma)(rb[l], rc[l], rz[l]);
}

/* One lane loop per operation, so that each one vectorises. */
#define VGPU_LANE_OP2(expr) do {					\
	for (l = 0; l < VGPU_LANES; l++) {				\
		u32 x = rb[l], y = rc[l];				\
									\
		v[l] = (expr);						\
	}								\
} while (0)

/* The ALU class: rd = f(rb, rc[, rz]) or rd = f(rb, imm). */
static int vgpu_lane_alu(const struct vgpu_lane_env *env,
			 const struct vgpu_insn *in, u32 act)
{
	const u32 *rb = &env->regs[in->b * VGPU_LANES];
	const u32 *rc = &env->regs[in->c * VGPU_LANES];
	u32 v[VGPU_LANES], l, k = in->imm;
	const u32 *rz;

	switch (in->op) {
	case VGPU_OP_IADD:
		VGPU_LANE_OP2(x + y);
		break;
	case VGPU_OP_ISUB:
		VGPU_LANE_OP2(x - y);
		break;
	case VGPU_OP_IMUL:
		VGPU_LANE_OP2(x * y);
		break;
	case VGPU_OP_IMAD:
		rz = &env->regs[k * VGPU_LANES];
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = rb[l] * rc[l] + rz[l];
		break;
	case VGPU_OP_IMIN:
		VGPU_LANE_OP2((s32)x < (s32)y ? x : y);
		break;
	case VGPU_OP_IMAX:
		VGPU_LANE_OP2((s32)x > (s32)y ? x : y);
		break;
	case VGPU_OP_AND:
		VGPU_LANE_OP2(x & y);
		break;
	case VGPU_OP_OR:
		VGPU_LANE_OP2(x | y);
		break;
	case VGPU_OP_XOR:
		VGPU_LANE_OP2(x ^ y);
		break;
	case VGPU_OP_SHL:
		VGPU_LANE_OP2(x << (y & 31));
		break;
	case VGPU_OP_SHR:
		VGPU_LANE_OP2(x >> (y & 31));
		break;
	case VGPU_OP_SRA:
		VGPU_LANE_OP2((u32)((s32)x >> (y & 31)));
		break;
	case VGPU_OP_IADDI:
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = rb[l] + k;
		break;
	case VGPU_OP_UDIV:	/* RISC-V: x / 0 is all ones */
		VGPU_LANE_OP2(y ? x / y : ~0U);
		break;
	case VGPU_OP_UREM:	/* RISC-V: x % 0 is x */
		VGPU_LANE_OP2(y ? x % y : x);
		break;
	case VGPU_OP_FADD:
		VGPU_LANE_OP2(VGPU_F32(add)(x, y));
		break;
	case VGPU_OP_FSUB:
		VGPU_LANE_OP2(VGPU_F32(sub)(x, y));
		break;
	case VGPU_OP_FMUL:
		VGPU_LANE_OP2(VGPU_F32(mul)(x, y));
		break;
	case VGPU_OP_FFMA:
		vgpu_lane_ffma(v, rb, rc, &env->regs[k * VGPU_LANES]);
		break;
	case VGPU_OP_FMIN:
		VGPU_LANE_OP2(VGPU_F32(min)(x, y));
		break;
	case VGPU_OP_FMAX:
		VGPU_LANE_OP2(VGPU_F32(max)(x, y));
		break;
	case VGPU_OP_I2F:
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = VGPU_F32(from_int)(rb[l]);
		break;
	case VGPU_OP_F2I:
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = VGPU_F32(to_int)(rb[l]);
		break;
	default:
		return -EINVAL;
	}
	vgpu_lane_blend(&env->regs[in->a * VGPU_LANES], v, act);
	return 0;
}

/* The MOV class: MOVI, MOV, S2R, SELP. */
static int vgpu_lane_mov(const struct vgpu_lane_env *env,
			 const struct vgpu_lane_state *st,
			 const struct vgpu_insn *in, u32 act)
{
	const struct vgpu_lane_sregs *sr = &env->sr;
	u32 v[VGPU_LANES], l, p, k = 0;
	const u32 *rb, *rc;

	switch (in->op) {
	case VGPU_OP_MOVI:
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = in->imm;
		break;
	case VGPU_OP_MOVR:
		memcpy(v, &env->regs[in->b * VGPU_LANES], sizeof(v));
		break;
	case VGPU_OP_S2R:
		switch (in->b) {
		case VGPU_SR_LANE:
			break;
		case VGPU_SR_TID:
			k = sr->warp * sr->warp_size;
			break;
		default:
			k = in->b == VGPU_SR_WARP ? sr->warp :
			    in->b == VGPU_SR_NTID ? sr->ntid :
			    in->b == VGPU_SR_CTAID ? sr->ctaid :
			    in->b == VGPU_SR_NCTAID ? sr->nctaid :
			    in->b == VGPU_SR_ITEM ? sr->item : sr->nitems;
			for (l = 0; l < VGPU_LANES; l++)
				v[l] = k;
			goto out;
		}
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = k + l;
		break;
	case VGPU_OP_SELP:
		p = st->pred[in->imm & (VGPU_ISA_NUM_PREDS - 1)];
		rb = &env->regs[in->b * VGPU_LANES];
		rc = &env->regs[in->c * VGPU_LANES];
		for (l = 0; l < VGPU_LANES; l++)
			v[l] = (p >> l) & 1 ? rb[l] : rc[l];
		break;
	default:
		return -EINVAL;
	}
out:
	vgpu_lane_blend(&env->regs[in->a * VGPU_LANES], v, act);
	return 0;
}

/* The CMP class: ISETP, USETP, FSETP, PLOP. */
static int vgpu_lane_cmp(const struct vgpu_lane_env *env,
			 struct vgpu_lane_state *st,
			 const struct vgpu_insn *in, u32 act)
{
	u32 *pd = &st->pred[in->a & (VGPU_ISA_NUM_PREDS - 1)];
	u32 bits = 0, l, lt = 0, eq = 0;
	const u32 *rb, *rc;

	if (in->op != VGPU_OP_PLOP) {
		rb = &env->regs[in->b * VGPU_LANES];
		rc = &env->regs[in->c * VGPU_LANES];
	}
	switch (in->op) {
	case VGPU_OP_ISETP:
		for (l = 0; l < VGPU_LANES; l++) {
			lt |= (u32)((s32)rb[l] < (s32)rc[l]) << l;
			eq |= (u32)(rb[l] == rc[l]) << l;
		}
		break;
	case VGPU_OP_USETP:
		for (l = 0; l < VGPU_LANES; l++) {
			lt |= (u32)(rb[l] < rc[l]) << l;
			eq |= (u32)(rb[l] == rc[l]) << l;
		}
		break;
	case VGPU_OP_FSETP:
		for (l = 0; l < VGPU_LANES; l++)
			bits |= (u32)VGPU_F32(cmp)(rb[l], rc[l], in->imm) << l;
		goto out;
	case VGPU_OP_PLOP: {
		u32 x = st->pred[in->b & (VGPU_ISA_NUM_PREDS - 1)];
		u32 y = st->pred[in->c & (VGPU_ISA_NUM_PREDS - 1)];

		bits = in->imm == VGPU_PLOP_AND ? x & y :
		       in->imm == VGPU_PLOP_OR ? x | y :
		       in->imm == VGPU_PLOP_XOR ? x ^ y : x & ~y;
		goto out;
	}
	default:
		return -EINVAL;
	}
	switch (in->imm) {
	case VGPU_COND_EQ:
		bits = eq;
		break;
	case VGPU_COND_NE:
		bits = ~eq;
		break;
	case VGPU_COND_LT:
		bits = lt;
		break;
	case VGPU_COND_LE:
		bits = lt | eq;
		break;
	case VGPU_COND_GT:
		bits = ~(lt | eq);
		break;
	default:
		bits = ~lt;
		break;
	}
out:
	*pd = (*pd & ~act) | (bits & act);
	return 0;
}

/*
 * The byte offsets of a memory instruction's active lanes, r[c] + imm,
 * checked against a region of @size bytes: 0, -EILSEQ for the first lane
 * (in lane order) whose address is not 4-aligned, -EFAULT for the first
 * one past the end.
 */
static int vgpu_lane_addrs(const struct vgpu_lane_env *env,
			   const struct vgpu_insn *in, u32 act, u64 size,
			   u32 *off)
{
	const u32 *rc = &env->regs[in->c * VGPU_LANES];
	u64 k = in->imm, a, hi = 0;
	u32 l, low = 0;

	if (in->op == VGPU_OP_ATOMG || in->op == VGPU_OP_ATOMS)
		k = 0;	/* imm holds the atomic's operands */
	if (act == ~0U) {	/* every lane: one pass the compiler vectorises */
		for (l = 0; l < VGPU_LANES; l++) {
			a = rc[l] + k;
			low |= (u32)a;
			hi = max(hi, a);
			off[l] = (u32)a;
		}
		if (!(low & 3) && hi + 4 <= size)
			return 0;
	}
	for (; act; act &= act - 1) {
		l = __ffs64(act);
		a = rc[l] + k;
		if (a & 3)
			return -EILSEQ;
		if (a + 4 > size)
			return -EFAULT;
		off[l] = (u32)a;
	}
	return 0;
}

static u32 vgpu_lane_ld(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void vgpu_lane_st(u8 *p, u32 v)
{
	memcpy(p, &v, sizeof(v));
}

/* The new value of an atomic @op on @old with operand @v, compare @cmp. */
static u32 vgpu_lane_atom(u32 op, u32 old, u32 v, u32 cmp)
{
	switch (op) {
	case VGPU_ATOM_ADD:
		return old + v;
	case VGPU_ATOM_MIN:
		return (s32)v < (s32)old ? v : old;
	case VGPU_ATOM_MAX:
		return (s32)v > (s32)old ? v : old;
	case VGPU_ATOM_EXCH:
		return v;
	default:	/* VGPU_ATOM_CAS */
		return old == cmp ? v : old;
	}
}

/* The LOAD and STORE classes. */
static int vgpu_lane_mem(const struct vgpu_lane_env *env,
			 const struct vgpu_insn *in, u32 act)
{
	const struct vgpu_lane_slot *s = &env->slot[in->b % VGPU_ISA_MAX_SLOTS];
	u32 *ra = &env->regs[in->a * VGPU_LANES];
	u32 off[VGPU_LANES], v[VGPU_LANES], w[VGPU_LANES];
	u32 l, x, vreg, creg, op = 0, per = 0, old;
	struct vgpu_lane_log *log = env->log;
	struct vgpu_lane_log_entry *e;
	u64 size;
	u8 *base;
	int ret;

	switch (in->op) {
	case VGPU_OP_LDG:
	case VGPU_OP_STG:
	case VGPU_OP_LDC:
	case VGPU_OP_ATOMG:
		if (!s->base)
			return -EBADF;
		if (in->op == VGPU_OP_LDC &&
		    !(s->flags & VGPU_LANE_SLOT_CONSTANT))
			return -EBADF;
		if ((in->op == VGPU_OP_STG || in->op == VGPU_OP_ATOMG) &&
		    (s->flags & (VGPU_LANE_SLOT_READ_ONLY |
				 VGPU_LANE_SLOT_CONSTANT)))
			return -EROFS;
		base = s->base;
		size = s->size;
		break;
	case VGPU_OP_LDS:
	case VGPU_OP_STS:
	case VGPU_OP_ATOMS:
		base = env->smem;
		size = base ? env->smem_size : 0;
		break;
	default:	/* LDL, STL */
		base = env->priv;
		size = base ? env->priv_size : 0;
		per = env->priv_size;
		break;
	}
	ret = vgpu_lane_addrs(env, in, act, size, off);
	if (ret)
		return ret;

	switch (in->op) {
	case VGPU_OP_LDG:
	case VGPU_OP_LDC:
	case VGPU_OP_LDS:
	case VGPU_OP_LDL:
		if (act == ~0U) {
			for (l = 0; l < VGPU_LANES; l++)
				ra[l] = vgpu_lane_ld(base + (size_t)per * l + off[l]);
			return 0;
		}
		memset(v, 0, sizeof(v));
		for (x = act; x; x &= x - 1) {
			l = __ffs64(x);
			v[l] = vgpu_lane_ld(base + (size_t)per * l + off[l]);
		}
		vgpu_lane_blend(ra, v, act);
		return 0;
	case VGPU_OP_STS:
	case VGPU_OP_STL:
		for (x = act; x; x &= x - 1) {
			l = __ffs64(x);
			vgpu_lane_st(base + (size_t)per * l + off[l], ra[l]);
		}
		return 0;
	case VGPU_OP_ATOMS:
		vreg = VGPU_ATOM_VREG(in->imm);
		creg = VGPU_ATOM_CREG(in->imm);
		op = VGPU_ATOM_OP(in->imm);
		/* operands first: rd may be one of them */
		memcpy(v, &env->regs[vreg * VGPU_LANES], sizeof(v));
		memcpy(w, &env->regs[creg * VGPU_LANES], sizeof(w));
		for (x = act; x; x &= x - 1) {
			l = __ffs64(x);
			old = vgpu_lane_ld(base + off[l]);
			vgpu_lane_st(base + off[l],
				     vgpu_lane_atom(op, old, v[l], w[l]));
			ra[l] = old;
		}
		return 0;
	}

	/* STG, ATOMG: to the log, all lanes or none */
	if (!log || hweight64((u64)act) > log->cap)
		return -EINVAL;
	if (hweight64((u64)act) > log->cap - log->n)
		return VGPU_LANE_RETRY;
	e = &log->e[log->n];
	log->n += hweight64((u64)act);
	vreg = VGPU_ATOM_VREG(in->imm);
	creg = VGPU_ATOM_CREG(in->imm);
	for (x = act; x; x &= x - 1, e++) {
		l = __ffs64(x);
		e->addr = base + off[l];
		if (in->op == VGPU_OP_STG) {
			e->dst = NULL;
			e->val = ra[l];
			e->cmp = 0;
			e->op = VGPU_LANE_LOG_STORE;
		} else {
			e->dst = &ra[l];
			e->val = env->regs[vreg * VGPU_LANES + l];
			e->cmp = env->regs[creg * VGPU_LANES + l];
			e->op = VGPU_ATOM_OP(in->imm);
		}
	}
	return in->op == VGPU_OP_STG ? 0 : VGPU_LANE_PARK;
}

/*
 * BRP at @pc of a program of @n instructions (p[a], negated if b) for the
 * active lanes @act: a uniform branch is a jump, a divergent one pushes
 * frames (file comment).  Sets *@next; -EOVERFLOW when the stack is full,
 * -EINVAL for a target or join out of the program (nothing changed).
 */
static int vgpu_lane_brp(struct vgpu_lane_state *st,
			 const struct vgpu_insn *in, u32 n, u32 act, u16 pc,
			 u16 *next)
{
	struct vgpu_lane_frame *top = &st->stack[st->depth - 1];
	u32 p = st->pred[in->a & (VGPU_ISA_NUM_PREDS - 1)];
	u16 t = VGPU_BRP_TARGET(in->imm), j = VGPU_BRP_JOIN(in->imm);
	u16 f = pc + 1;
	u32 taken = act & (in->b ? ~p : p), nt = act & ~taken, need;

	if (t >= n || j >= n)
		return -EINVAL;
	if (taken == act || t == f) {
		*next = t;
		return 0;
	}
	if (!taken) {
		*next = f;
		return 0;
	}
	if (j == top->rpc) {
		/* the lanes bound for j wait in the frame below already */
		if (t == j || f == j) {
			top->mask = t == j ? nt : taken;
			*next = t == j ? f : t;
			return 0;
		}
		if (st->depth >= VGPU_LANE_STACK)
			return -EOVERFLOW;
		top->pc = f;
		top->mask = nt;
	} else {
		need = (f != j) + (t != j);
		if (st->depth + need > VGPU_LANE_STACK)
			return -EOVERFLOW;
		top->pc = j;
		if (f != j)
			st->stack[st->depth++] = (struct vgpu_lane_frame){
				.pc = f, .rpc = j, .mask = nt,
			};
		if (t == j) {
			*next = f;
			return 0;
		}
	}
	st->stack[st->depth++] = (struct vgpu_lane_frame){
		.pc = t, .rpc = j, .mask = taken,
	};
	*next = t;
	return 0;
}

/**
 * vgpu_lane_exec() - execute a warp's functional instruction
 * @env: where the warp's data is
 * @st: the warp's functional state
 * @prog: the kernel's program, validated with VGPU_ISA_FUNCTIONAL
 * @n: its length
 * @pc: in: the instruction, prog[*@pc]; out: the warp's next pc (left
 *	alone unless the result is 0 or VGPU_LANE_PARK)
 *
 * The active lanes (vgpu_lane_active()) execute prog[*@pc]; a timed
 * instruction of the base ISA (VGPU_OP_MOV..VGPU_OP_ALU) does nothing to
 * the data and just moves on.  BAR, EXIT and the other control
 * instructions are the SM engine's (vgpu_lane_bar_ok(), vgpu_lane_exit()).
 *
 * Return: 0 when done; VGPU_LANE_PARK when done but an atomic's old
 * values reach their register only with vgpu_lane_log_apply();
 * VGPU_LANE_RETRY when the log has no room for the instruction's stores
 * (nothing done); or a fault, nothing done: -EBADF (a slot the kernel did
 * not name; LDC of a buffer that is not constant), -EROFS (STG or ATOMG
 * to a read-only or constant buffer), -EILSEQ (an address not 4-aligned),
 * -EFAULT (an access past the end of its region), -EOVERFLOW (the
 * reconvergence stack is full), -EINVAL (an instruction the lane engine
 * does not execute, a register at or above @env->nregs, a pc out of the
 * program, or a log smaller than VGPU_ISA_LANES entries).
 */
int vgpu_lane_exec(const struct vgpu_lane_env *env, struct vgpu_lane_state *st,
		   const struct vgpu_insn *prog, u32 n, u16 *pc)
{
	const struct vgpu_insn *in;
	u32 act = vgpu_lane_active(st);
	u16 next;
	int ret;

	if (*pc >= n)
		return -EINVAL;
	in = &prog[*pc];
	next = *pc + 1;
	if (in->op >= VGPU_OP_MOV && in->op <= VGPU_OP_ALU)
		goto done;
	if (!vgpu_isa_is_functional(in->op) ||
	    vgpu_isa_insn_max_reg(in) >= env->nregs)
		return -EINVAL;
	switch (vgpu_isa_class(in->op)) {
	case VGPU_OP_ALU - VGPU_OP_MOV:
		ret = vgpu_lane_alu(env, in, act);
		break;
	case VGPU_OP_MOV - VGPU_OP_MOV:
		ret = vgpu_lane_mov(env, st, in, act);
		break;
	case VGPU_OP_CMP - VGPU_OP_MOV:
		ret = vgpu_lane_cmp(env, st, in, act);
		break;
	case VGPU_OP_LOAD - VGPU_OP_MOV:
	case VGPU_OP_STORE - VGPU_OP_MOV:
		ret = vgpu_lane_mem(env, in, act);
		break;
	default:	/* BRA class */
		if (in->op == VGPU_OP_BRP) {
			ret = vgpu_lane_brp(st, in, n, act, *pc, &next);
		} else if (in->imm < n) {
			next = in->imm;
			ret = 0;
		} else {
			ret = -EINVAL;
		}
		break;
	}
	if (ret < 0 || ret == VGPU_LANE_RETRY)
		return ret;
	*pc = next;
	vgpu_lane_reconverge(st, pc);
	return ret;
done:
	*pc = next;
	vgpu_lane_reconverge(st, pc);
	return 0;
}

/**
 * vgpu_lane_log_apply() - the epoch boundary: global stores and atomics
 *	reach the buffers
 * @log: the SM's log
 *
 * In log order (issue order, then lane order): a store writes its word;
 * an atomic reads the word, writes its destination register with the old
 * value and the word with the new one.  The log is empty afterwards.
 */
void vgpu_lane_log_apply(struct vgpu_lane_log *log)
{
	const struct vgpu_lane_log_entry *e = log->e, *end = e + log->n;
	u32 old;

	for (; e < end; e++) {
		if (e->op == VGPU_LANE_LOG_STORE) {
			vgpu_lane_st(e->addr, e->val);
			continue;
		}
		old = vgpu_lane_ld(e->addr);
		vgpu_lane_st(e->addr, vgpu_lane_atom(e->op, old, e->val, e->cmp));
		*e->dst = old;
	}
	log->n = 0;
}
