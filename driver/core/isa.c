// SPDX-License-Identifier: GPL-2.0
/*
 * isa.c - validator and helpers of the virtual ISA (F04).
 *
 * The validator is a security boundary of the kernel: the program comes
 * from userspace.  It reads each of prog[0..n-1] exactly once, in order,
 * keeps a fixed-size stack of VGPU_ISA_MAX_NEST frames, never recurses and
 * never allocates, so it runs in O(n) time and O(1) space for any input.
 * It reports the first violation in program order (per instruction, the
 * checks run in the order of the switch below; the end-of-program checks
 * UNCLOSED then NO_EXIT come last).
 *
 * Functional mode (vgpu_isa_validate_flags() with VGPU_ISA_FUNCTIONAL)
 * accepts the functional instructions as well, each checked against the
 * operand kinds of vgpu_isa_fops[]; vgpu_isa_validate() is the mode
 * without them, so a functional opcode stays an unknown one there.
 */
#include "vgpu_os.h"
#include "isa.h"

/**
 * struct vgpu_isa_frame - one open LOOP while scanning a program
 * @pc: index of the LOOP instruction
 * @held: mutexes statically held when the LOOP was entered
 * @wid: the LOOP count depends on the warp index
 */
struct vgpu_isa_frame {
	u32 pc;
	u32 held;
	bool wid;
};

static_assert(VGPU_ISA_MAX_MUTEX <= 32, "held sets are u32 masks");
static_assert(VGPU_MAX_TEMPLATES <= 32, "launch_mask is a u32 mask");
static_assert(VGPU_ISA_MAX_INSNS <= 65536, "vgpu_isa_link() uses u16");
static_assert(VGPU_OP_ALU - VGPU_OP_MOV + 1 == VGPU_ISA_NUM_CLASSES,
	      "timed opcodes are contiguous");

static int vgpu_isa_fail(struct vgpu_isa_error *err, u32 rule, u32 index)
{
	if (err) {
		err->rule = rule;
		err->index = index;
	}
	return -EINVAL;
}

/*
 * Operand kinds of the functional instructions.  Fields a, b, c: ZERO
 * (reserved, must be 0), REG (r0..r254), PRED (p0..p7), SREG (VGPU_SR_*),
 * SLOT (buffer slot), NEG (BRP: 0 or 1).  Field imm: ZERO, ANY, REG, PRED,
 * COND, PLOP, ATOM (packed vreg, op, creg), BRP (target | join << 16),
 * JMP (target).
 */
enum vgpu_isa_kind {
	VGPU_K_ZERO,
	VGPU_K_REG,
	VGPU_K_PRED,
	VGPU_K_SREG,
	VGPU_K_SLOT,
	VGPU_K_NEG,
	VGPU_K_ANY,
	VGPU_K_COND,
	VGPU_K_PLOP,
	VGPU_K_ATOM,
	VGPU_K_BRP,
	VGPU_K_JMP,
};

/**
 * struct vgpu_isa_fop - operands and class of a functional opcode
 * @name: mnemonic, NULL for a free opcode of the functional range
 * @cls: timed class (opcode - VGPU_OP_MOV of its class), -1 if free
 * @a: kind of operand a (enum vgpu_isa_kind)
 * @b: kind of operand b
 * @c: kind of operand c
 * @imm: kind of the immediate
 */
struct vgpu_isa_fop {
	const char *name;
	s8 cls;
	u8 a;
	u8 b;
	u8 c;
	u8 imm;
};

#define VGPU_FOP(o, n, k, A, B, C, I)					\
	[(o) - VGPU_OP_FUNC_FIRST] = {					\
		.name = (n), .cls = (k) - VGPU_OP_MOV, .a = VGPU_K_##A,	\
		.b = VGPU_K_##B, .c = VGPU_K_##C, .imm = VGPU_K_##I	\
	}
#define VGPU_FALU(o, n)	VGPU_FOP(o, n, VGPU_OP_ALU, REG, REG, REG, ZERO)

static const struct vgpu_isa_fop
vgpu_isa_fops[VGPU_OP_FUNC_LAST - VGPU_OP_FUNC_FIRST + 1] = {
	VGPU_FOP(VGPU_OP_MOVI, "MOVI", VGPU_OP_MOV, REG, ZERO, ZERO, ANY),
	VGPU_FOP(VGPU_OP_MOVR, "MOV", VGPU_OP_MOV, REG, REG, ZERO, ZERO),
	VGPU_FOP(VGPU_OP_S2R, "S2R", VGPU_OP_MOV, REG, SREG, ZERO, ZERO),
	VGPU_FOP(VGPU_OP_SELP, "SELP", VGPU_OP_MOV, REG, REG, REG, PRED),
	VGPU_FALU(VGPU_OP_IADD, "IADD"),
	VGPU_FALU(VGPU_OP_ISUB, "ISUB"),
	VGPU_FALU(VGPU_OP_IMUL, "IMUL"),
	VGPU_FOP(VGPU_OP_IMAD, "IMAD", VGPU_OP_ALU, REG, REG, REG, REG),
	VGPU_FALU(VGPU_OP_IMIN, "IMIN"),
	VGPU_FALU(VGPU_OP_IMAX, "IMAX"),
	VGPU_FALU(VGPU_OP_AND, "AND"),
	VGPU_FALU(VGPU_OP_OR, "OR"),
	VGPU_FALU(VGPU_OP_XOR, "XOR"),
	VGPU_FALU(VGPU_OP_SHL, "SHL"),
	VGPU_FALU(VGPU_OP_SHR, "SHR"),
	VGPU_FALU(VGPU_OP_SRA, "SRA"),
	VGPU_FOP(VGPU_OP_IADDI, "IADDI", VGPU_OP_ALU, REG, REG, ZERO, ANY),
	VGPU_FALU(VGPU_OP_UDIV, "UDIV"),
	VGPU_FALU(VGPU_OP_UREM, "UREM"),
	VGPU_FALU(VGPU_OP_FADD, "FADD"),
	VGPU_FALU(VGPU_OP_FSUB, "FSUB"),
	VGPU_FALU(VGPU_OP_FMUL, "FMUL"),
	VGPU_FOP(VGPU_OP_FFMA, "FFMA", VGPU_OP_ALU, REG, REG, REG, REG),
	VGPU_FALU(VGPU_OP_FMIN, "FMIN"),
	VGPU_FALU(VGPU_OP_FMAX, "FMAX"),
	VGPU_FOP(VGPU_OP_I2F, "I2F", VGPU_OP_ALU, REG, REG, ZERO, ZERO),
	VGPU_FOP(VGPU_OP_F2I, "F2I", VGPU_OP_ALU, REG, REG, ZERO, ZERO),
	VGPU_FOP(VGPU_OP_ISETP, "ISETP", VGPU_OP_CMP, PRED, REG, REG, COND),
	VGPU_FOP(VGPU_OP_USETP, "USETP", VGPU_OP_CMP, PRED, REG, REG, COND),
	VGPU_FOP(VGPU_OP_FSETP, "FSETP", VGPU_OP_CMP, PRED, REG, REG, COND),
	VGPU_FOP(VGPU_OP_PLOP, "PLOP", VGPU_OP_CMP, PRED, PRED, PRED, PLOP),
	VGPU_FOP(VGPU_OP_LDG, "LDG", VGPU_OP_LOAD, REG, SLOT, REG, ANY),
	VGPU_FOP(VGPU_OP_STG, "STG", VGPU_OP_STORE, REG, SLOT, REG, ANY),
	VGPU_FOP(VGPU_OP_LDS, "LDS", VGPU_OP_LOAD, REG, ZERO, REG, ANY),
	VGPU_FOP(VGPU_OP_STS, "STS", VGPU_OP_STORE, REG, ZERO, REG, ANY),
	VGPU_FOP(VGPU_OP_LDC, "LDC", VGPU_OP_LOAD, REG, SLOT, REG, ANY),
	VGPU_FOP(VGPU_OP_LDL, "LDL", VGPU_OP_LOAD, REG, ZERO, REG, ANY),
	VGPU_FOP(VGPU_OP_STL, "STL", VGPU_OP_STORE, REG, ZERO, REG, ANY),
	VGPU_FOP(VGPU_OP_ATOMG, "ATOMG", VGPU_OP_STORE, REG, SLOT, REG, ATOM),
	VGPU_FOP(VGPU_OP_ATOMS, "ATOMS", VGPU_OP_STORE, REG, ZERO, REG, ATOM),
	VGPU_FOP(VGPU_OP_BRP, "BRP", VGPU_OP_BRA, PRED, NEG, ZERO, BRP),
	VGPU_FOP(VGPU_OP_JMP, "JMP", VGPU_OP_BRA, ZERO, ZERO, ZERO, JMP),
};

/* Rule broken by operand field @v of kind @k, VGPU_ISA_OK if none. */
static u32 vgpu_isa_check_field(u32 k, u32 v, u32 n)
{
	switch (k) {
	case VGPU_K_ZERO:
		return v ? VGPU_ISA_ERR_RESERVED : VGPU_ISA_OK;
	case VGPU_K_REG:
		return v >= VGPU_ISA_NUM_REGS ? VGPU_ISA_ERR_REGISTER : VGPU_ISA_OK;
	case VGPU_K_PRED:
		return v >= VGPU_ISA_NUM_PREDS ? VGPU_ISA_ERR_PREDICATE : VGPU_ISA_OK;
	case VGPU_K_SREG:
		return v > VGPU_SR_MAX ? VGPU_ISA_ERR_SREG : VGPU_ISA_OK;
	case VGPU_K_SLOT:
		return v >= VGPU_ISA_MAX_SLOTS ? VGPU_ISA_ERR_SLOT : VGPU_ISA_OK;
	case VGPU_K_NEG:
		return v > 1 ? VGPU_ISA_ERR_MODIFIER : VGPU_ISA_OK;
	case VGPU_K_COND:
		return v > VGPU_COND_MAX ? VGPU_ISA_ERR_MODIFIER : VGPU_ISA_OK;
	case VGPU_K_PLOP:
		return v > VGPU_PLOP_MAX ? VGPU_ISA_ERR_MODIFIER : VGPU_ISA_OK;
	case VGPU_K_ATOM:
		if (v >> 24)
			return VGPU_ISA_ERR_RESERVED;
		if (VGPU_ATOM_OP(v) != VGPU_ATOM_CAS && VGPU_ATOM_CREG(v))
			return VGPU_ISA_ERR_RESERVED;
		if (VGPU_ATOM_VREG(v) >= VGPU_ISA_NUM_REGS ||
		    VGPU_ATOM_CREG(v) >= VGPU_ISA_NUM_REGS)
			return VGPU_ISA_ERR_REGISTER;
		return VGPU_ATOM_OP(v) > VGPU_ATOM_OP_MAX ?
		       VGPU_ISA_ERR_MODIFIER : VGPU_ISA_OK;
	case VGPU_K_BRP:
		return VGPU_BRP_TARGET(v) >= n || VGPU_BRP_JOIN(v) >= n ?
		       VGPU_ISA_ERR_TARGET : VGPU_ISA_OK;
	case VGPU_K_JMP:
		return v >= n ? VGPU_ISA_ERR_TARGET : VGPU_ISA_OK;
	default:	/* VGPU_K_ANY */
		return VGPU_ISA_OK;
	}
}

/* The highest register field @v of kind @k names, 0 if none. */
static u32 vgpu_isa_field_reg(u32 k, u32 v)
{
	if (k == VGPU_K_REG)
		return v;
	if (k == VGPU_K_ATOM)
		return max(VGPU_ATOM_VREG(v), VGPU_ATOM_CREG(v));
	return 0;
}

/**
 * vgpu_isa_func_operands() - the operand rules of a functional instruction
 * @in: the instruction, a functional one (vgpu_isa_is_functional())
 * @n: length of its program (the bound of branch targets)
 *
 * Reserved fields first, then a, b, c and imm in that order.
 *
 * Return: the rule broken (VGPU_ISA_ERR_*), VGPU_ISA_OK if none.
 */
u32 vgpu_isa_func_operands(const struct vgpu_insn *in, u32 n)
{
	const struct vgpu_isa_fop *f = &vgpu_isa_fops[in->op - VGPU_OP_FUNC_FIRST];
	u32 rule;

	if ((f->a == VGPU_K_ZERO && in->a) || (f->b == VGPU_K_ZERO && in->b) ||
	    (f->c == VGPU_K_ZERO && in->c) || (f->imm == VGPU_K_ZERO && in->imm))
		return VGPU_ISA_ERR_RESERVED;
	rule = vgpu_isa_check_field(f->a, in->a, n);
	if (!rule)
		rule = vgpu_isa_check_field(f->b, in->b, n);
	if (!rule)
		rule = vgpu_isa_check_field(f->c, in->c, n);
	if (!rule)
		rule = vgpu_isa_check_field(f->imm, in->imm, n);
	return rule;
}

/**
 * vgpu_isa_insn_max_reg() - highest register a functional instruction names
 * @in: the instruction (validated or not)
 *
 * Return: the highest register number its operands name as registers, 0
 * for an instruction that names none or is not functional.
 */
u32 vgpu_isa_insn_max_reg(const struct vgpu_insn *in)
{
	const struct vgpu_isa_fop *f;

	if (!vgpu_isa_is_functional(in->op))
		return 0;
	f = &vgpu_isa_fops[in->op - VGPU_OP_FUNC_FIRST];
	return max(max(vgpu_isa_field_reg(f->a, in->a),
		       vgpu_isa_field_reg(f->b, in->b)),
		   max(vgpu_isa_field_reg(f->c, in->c),
		       vgpu_isa_field_reg(f->imm, in->imm)));
}

/**
 * vgpu_isa_loop_max() - largest count a LOOP can take over all indices
 * @insn: a LOOP instruction (0 is returned for any other opcode)
 *
 * Return: base + step * (mod - 1) for an index-dependent LOOP, base for a
 * constant one.  Never overflows (at most 65535 + 65535 * 254).
 */
u32 vgpu_isa_loop_max(const struct vgpu_insn *insn)
{
	u32 base = VGPU_LOOP_BASE(insn->imm);
	u32 step = VGPU_LOOP_STEP(insn->imm);

	if (insn->op != VGPU_OP_LOOP)
		return 0;
	if (insn->a == VGPU_LOOP_SEL_NONE || insn->b == 0)
		return base;
	/* a block has at most VGPU_MAX_COALESCE work items (F14) */
	if (insn->a == VGPU_LOOP_SEL_ITEMS)
		return base + step * min_t(u32, insn->b - 1, VGPU_MAX_COALESCE);
	return base + step * (u32)(insn->b - 1);
}

/**
 * vgpu_isa_loop_count_items() - iterations of a LOOP for one warp (F04, F14)
 * @insn: a LOOP instruction (0 is returned for any other opcode)
 * @bid: index of the warp's block within its grid
 * @wid: index of the warp within its block
 * @items: work items of the warp's block (F14), 0 in a grid kernel; at
 *	most VGPU_MAX_COALESCE
 *
 * count = base + step * (index % mod), index being @wid, @bid or @items as
 * the selector says.  Safe on unvalidated input (mod 0 or an unknown
 * selector count as a constant LOOP).
 *
 * Return: the iteration count, at most vgpu_isa_loop_max(@insn).
 */
u32 vgpu_isa_loop_count_items(const struct vgpu_insn *insn, u32 bid, u32 wid,
			      u32 items)
{
	u32 base = VGPU_LOOP_BASE(insn->imm);
	u32 step = VGPU_LOOP_STEP(insn->imm);
	u32 idx;

	if (insn->op != VGPU_OP_LOOP)
		return 0;
	if (insn->b == 0)
		return base;
	switch (insn->a) {
	case VGPU_LOOP_SEL_WID:
		idx = wid;
		break;
	case VGPU_LOOP_SEL_BID:
		idx = bid;
		break;
	case VGPU_LOOP_SEL_ITEMS:
		idx = min_t(u32, items, VGPU_MAX_COALESCE);
		break;
	default:
		return base;
	}
	return base + step * (idx % insn->b);
}

/**
 * vgpu_isa_loop_count() - iterations of a LOOP for one warp (F04)
 * @insn: a LOOP instruction (0 is returned for any other opcode)
 * @bid: index of the warp's block within its grid
 * @wid: index of the warp within its block
 *
 * vgpu_isa_loop_count_items() for a block of a grid kernel (no work
 * items: VGPU_LOOP_SEL_ITEMS selects index 0).
 *
 * Return: the iteration count, at most vgpu_isa_loop_max(@insn).
 */
u32 vgpu_isa_loop_count(const struct vgpu_insn *insn, u32 bid, u32 wid)
{
	return vgpu_isa_loop_count_items(insn, bid, wid, 0);
}

/**
 * vgpu_isa_class() - timed instruction class of an opcode (F04)
 * @op: opcode
 *
 * Return: 0..VGPU_ISA_NUM_CLASSES-1 (MOV, LOAD, STORE, MMA, CMP, BRA, ALU)
 * for a timed opcode, -1 for a control or unknown one.
 */
int vgpu_isa_class(u8 op)
{
	if (op >= VGPU_OP_MOV && op <= VGPU_OP_ALU)
		return op - VGPU_OP_MOV;
	if (vgpu_isa_is_functional(op))
		return vgpu_isa_fops[op - VGPU_OP_FUNC_FIRST].cls;
	return -1;
}

/**
 * vgpu_isa_is_functional() - is @op a functional instruction?
 * @op: opcode
 *
 * Return: true for an opcode of VGPU_OP_FUNC_FIRST..VGPU_OP_FUNC_LAST that
 * the ISA defines (the free ones of that range are unknown opcodes).
 */
bool vgpu_isa_is_functional(u8 op)
{
	return op >= VGPU_OP_FUNC_FIRST && op <= VGPU_OP_FUNC_LAST &&
	       vgpu_isa_fops[op - VGPU_OP_FUNC_FIRST].name;
}

/**
 * vgpu_isa_op_name() - mnemonic of an opcode
 * @op: opcode
 *
 * Return: the upper-case mnemonic, or NULL for an unknown opcode.
 */
const char *vgpu_isa_op_name(u8 op)
{
	switch (op) {
	case VGPU_OP_MOV:	return "MOV";
	case VGPU_OP_LOAD:	return "LOAD";
	case VGPU_OP_STORE:	return "STORE";
	case VGPU_OP_MMA:	return "MMA";
	case VGPU_OP_CMP:	return "CMP";
	case VGPU_OP_BRA:	return "BRA";
	case VGPU_OP_ALU:	return "ALU";
	case VGPU_OP_LOOP:	return "LOOP";
	case VGPU_OP_ENDLOOP:	return "ENDLOOP";
	case VGPU_OP_BAR:	return "BAR";
	case VGPU_OP_LOCK:	return "LOCK";
	case VGPU_OP_UNLOCK:	return "UNLOCK";
	case VGPU_OP_SPIN:	return "SPIN";
	case VGPU_OP_EXIT:	return "EXIT";
	case VGPU_OP_LAUNCH:	return "LAUNCH";
	case VGPU_OP_PUSH:	return "PUSH";
	default:
		if (vgpu_isa_is_functional(op))
			return vgpu_isa_fops[op - VGPU_OP_FUNC_FIRST].name;
		return NULL;
	}
}

static const char * const vgpu_isa_rule_strs[VGPU_ISA_ERR_MAX + 1] = {
	[VGPU_ISA_OK]			= "valid program",
	[VGPU_ISA_ERR_LENGTH]		= "program must have 1 to 4096 instructions",
	[VGPU_ISA_ERR_OPCODE]		= "unknown opcode",
	[VGPU_ISA_ERR_RESERVED]		= "reserved or unused field is not zero",
	[VGPU_ISA_ERR_OPERAND]		= "invalid LOOP selector or modulus",
	[VGPU_ISA_ERR_LOOP_COUNT]	= "LOOP count exceeds 65535",
	[VGPU_ISA_ERR_NESTING]		= "LOOP nesting deeper than 8",
	[VGPU_ISA_ERR_ENDLOOP]		= "ENDLOOP without a matching LOOP",
	[VGPU_ISA_ERR_UNCLOSED]		= "LOOP without a matching ENDLOOP",
	[VGPU_ISA_ERR_MUTEX_ID]		= "mutex id out of range (0..15)",
	[VGPU_ISA_ERR_LOCK_HELD]	= "LOCK of a mutex already held",
	[VGPU_ISA_ERR_NOT_HELD]		= "UNLOCK of a mutex not held",
	[VGPU_ISA_ERR_LOCK_LOOP]	= "loop body does not release exactly the locks it takes",
	[VGPU_ISA_ERR_LOCK_EXIT]	= "EXIT while holding a lock",
	[VGPU_ISA_ERR_BAR_LOCK]		= "BAR while holding a lock",
	[VGPU_ISA_ERR_BAR_DIVERGENT]	= "BAR inside a loop whose count depends on the warp index",
	[VGPU_ISA_ERR_EXIT_POS]		= "EXIT before the last instruction",
	[VGPU_ISA_ERR_NO_EXIT]		= "last instruction is not EXIT",
	[VGPU_ISA_ERR_DYN_COUNT]	= "worst-case executed instructions exceed 2^32",
	[VGPU_ISA_ERR_LAUNCH]		= "invalid LAUNCH template, flags or WAIT position",
	[VGPU_ISA_ERR_PUSH]		= "PUSH of no items or more than 1048576",
	[VGPU_ISA_ERR_REGISTER]		= "register out of range (r0..r254)",
	[VGPU_ISA_ERR_PREDICATE]	= "predicate out of range (p0..p7)",
	[VGPU_ISA_ERR_SREG]		= "unknown special register",
	[VGPU_ISA_ERR_SLOT]		= "buffer slot out of range (0..15)",
	[VGPU_ISA_ERR_MODIFIER]		= "invalid condition or operation, or BRP negation above 1",
	[VGPU_ISA_ERR_TARGET]		= "branch target or join beyond the program",
	[VGPU_ISA_ERR_BRANCH_MIX]	= "BRP/JMP with LOOP, LOCK, LAUNCH, SPIN, PUSH or timed op",
};

/**
 * vgpu_isa_rule_str() - human-readable text of a validator rule code
 * @rule: VGPU_ISA_OK or VGPU_ISA_ERR_*
 *
 * Return: a constant string (never NULL).
 */
const char *vgpu_isa_rule_str(u32 rule)
{
	if (rule > VGPU_ISA_ERR_MAX)
		return "unknown rule";
	return vgpu_isa_rule_strs[rule];
}

#define VGPU_ISA_A	BIT(0)
#define VGPU_ISA_B	BIT(1)
#define VGPU_ISA_C	BIT(2)
#define VGPU_ISA_IMM	BIT(3)
#define VGPU_ISA_ALL	(VGPU_ISA_A | VGPU_ISA_B | VGPU_ISA_C | VGPU_ISA_IMM)

/*
 * The operands each opcode leaves reserved (must be 0, else
 * VGPU_ISA_ERR_RESERVED, the first rule checked); MMA's a, its size, is
 * checked by its own bound.  0 for an unknown opcode.
 */
static const u8 vgpu_isa_reserved[] = {
	[VGPU_OP_MOV ... VGPU_OP_STORE]	= VGPU_ISA_ALL,
	[VGPU_OP_MMA]			= VGPU_ISA_B | VGPU_ISA_C | VGPU_ISA_IMM,
	[VGPU_OP_CMP ... VGPU_OP_ALU]	= VGPU_ISA_ALL,
	[VGPU_OP_LOOP]			= VGPU_ISA_C,
	[VGPU_OP_ENDLOOP]		= VGPU_ISA_ALL,
	[VGPU_OP_BAR]			= VGPU_ISA_ALL,
	[VGPU_OP_LOCK]			= VGPU_ISA_B | VGPU_ISA_C | VGPU_ISA_IMM,
	[VGPU_OP_UNLOCK]		= VGPU_ISA_B | VGPU_ISA_C | VGPU_ISA_IMM,
	[VGPU_OP_SPIN]			= VGPU_ISA_ALL,
	[VGPU_OP_EXIT]			= VGPU_ISA_ALL,
	[VGPU_OP_LAUNCH]		= VGPU_ISA_C | VGPU_ISA_IMM,
	[VGPU_OP_PUSH]			= VGPU_ISA_A | VGPU_ISA_B | VGPU_ISA_C,
};

/* Does @in set an operand its opcode leaves reserved? */
static bool vgpu_isa_uses_reserved(const struct vgpu_insn *in)
{
	u32 r = in->op < ARRAY_SIZE(vgpu_isa_reserved) ?
		vgpu_isa_reserved[in->op] : 0;

	return ((r & VGPU_ISA_A) && in->a) || ((r & VGPU_ISA_B) && in->b) ||
	       ((r & VGPU_ISA_C) && in->c) || ((r & VGPU_ISA_IMM) && in->imm);
}

/* The summary's account of valid functional instruction @in. */
static void vgpu_isa_sum_func(struct vgpu_isa_summary *sum,
			      const struct vgpu_insn *in)
{
	sum->uses_functional = true;
	sum->class_count[vgpu_isa_class(in->op)]++;
	switch (in->op) {
	case VGPU_OP_STG:
		sum->uses_global_store = true;
		fallthrough;
	case VGPU_OP_LDG:
	case VGPU_OP_LDC:
		sum->slot_mask |= 1U << in->b;
		break;
	case VGPU_OP_ATOMG:
		sum->uses_global_store = true;
		sum->slot_mask |= 1U << in->b;
		fallthrough;
	case VGPU_OP_ATOMS:
		sum->uses_atomic = true;
		break;
	case VGPU_OP_BRP:
	case VGPU_OP_JMP:
		sum->uses_branch = true;
		break;
	}
}

/*
 * One pass over the program: every rule of Documentation/isa.rst, plus the
 * summary when @sum is not NULL.  prod[d] is the worst-case number of times
 * an instruction at nesting depth d runs per warp, saturated just above
 * VGPU_ISA_MAX_DYN_INSNS (so prod * 65535 never overflows u64); total is the
 * running worst-case dynamic instruction count (at most 4096 * (2^32 + 1)).
 */
static int vgpu_isa_scan(const struct vgpu_insn *prog, u32 n, u32 flags,
			 struct vgpu_isa_error *err,
			 struct vgpu_isa_summary *sum)
{
	struct vgpu_isa_frame stack[VGPU_ISA_MAX_NEST];
	u64 prod[VGPU_ISA_MAX_NEST + 1];
	u32 depth = 0, held = 0, wid_loops = 0, i, rule, max_reg = 0;
	bool branch = false, structured = false;
	u64 total = 0;

	if (err) {
		err->rule = VGPU_ISA_OK;
		err->index = 0;
	}
	if (sum)
		memset(sum, 0, sizeof(*sum));
	if (flags & ~VGPU_ISA_FLAGS_ALL)
		return -EINVAL;
	if (n == 0 || !prog)
		return vgpu_isa_fail(err, VGPU_ISA_ERR_LENGTH, 0);
	if (n > VGPU_ISA_MAX_INSNS)
		return vgpu_isa_fail(err, VGPU_ISA_ERR_LENGTH,
				     VGPU_ISA_MAX_INSNS);

	prod[0] = 1;
	for (i = 0; i < n; i++) {
		const struct vgpu_insn *in = &prog[i];
		u64 weight = prod[depth];
		u32 max, bit;

		if (vgpu_isa_uses_reserved(in))
			return vgpu_isa_fail(err, VGPU_ISA_ERR_RESERVED, i);
		/*
		 * Structured control flow does not mix with branches; nor
		 * does what the SM engine steps without the lane engine (the
		 * timed classes, PUSH): it would move a warp's pc past a
		 * reconvergence point unseen.
		 */
		switch (in->op) {
		case VGPU_OP_MOV ... VGPU_OP_ALU:
		case VGPU_OP_PUSH:
		case VGPU_OP_LOOP:
		case VGPU_OP_ENDLOOP:
		case VGPU_OP_LOCK:
		case VGPU_OP_UNLOCK:
		case VGPU_OP_LAUNCH:
		case VGPU_OP_SPIN:
			if (branch)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_BRANCH_MIX, i);
			structured = true;
			break;
		}
		switch (in->op) {
		case VGPU_OP_MOV ... VGPU_OP_ALU:
			/* MMA's a: its size (seed 001 [0270], F25) */
			if (in->op == VGPU_OP_MMA && in->a > VGPU_MMA_SIZE_MAX)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_RESERVED, i);
			if (sum)
				sum->class_count[in->op - VGPU_OP_MOV]++;
			break;
		case VGPU_OP_LOOP:
			if (in->a > VGPU_LOOP_SEL_ITEMS)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_OPERAND, i);
			if (in->a == VGPU_LOOP_SEL_NONE &&
			    (in->b || VGPU_LOOP_STEP(in->imm)))
				return vgpu_isa_fail(err, VGPU_ISA_ERR_OPERAND, i);
			if (in->a != VGPU_LOOP_SEL_NONE && !in->b)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_OPERAND, i);
			max = vgpu_isa_loop_max(in);
			if (max > VGPU_ISA_MAX_LOOP_COUNT)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_LOOP_COUNT, i);
			if (depth >= VGPU_ISA_MAX_NEST)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_NESTING, i);
			stack[depth].pc = i;
			stack[depth].held = held;
			stack[depth].wid = in->a == VGPU_LOOP_SEL_WID;
			wid_loops += stack[depth].wid;
			prod[depth + 1] = min_t(u64, prod[depth] * max,
						VGPU_ISA_MAX_DYN_INSNS + 1);
			depth++;
			if (sum) {
				sum->n_loops++;
				sum->max_depth = max(sum->max_depth, depth);
				if (in->a == VGPU_LOOP_SEL_WID)
					sum->wid_dependent = true;
				if (in->a == VGPU_LOOP_SEL_BID)
					sum->bid_dependent = true;
			}
			break;
		case VGPU_OP_ENDLOOP:
			if (!depth)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_ENDLOOP, i);
			if (held != stack[depth - 1].held)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_LOCK_LOOP, i);
			/* runs once per iteration: the body's weight */
			weight = prod[depth];
			depth--;
			wid_loops -= stack[depth].wid;
			break;
		case VGPU_OP_BAR:
			if (held)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_BAR_LOCK, i);
			if (wid_loops)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_BAR_DIVERGENT, i);
			if (sum)
				sum->uses_bar = true;
			break;
		case VGPU_OP_LOCK:
		case VGPU_OP_UNLOCK:
			if (in->a >= VGPU_ISA_MAX_MUTEX)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_MUTEX_ID, i);
			bit = 1U << in->a;
			if (in->op == VGPU_OP_LOCK) {
				if (held & bit)
					return vgpu_isa_fail(err, VGPU_ISA_ERR_LOCK_HELD, i);
				held |= bit;
			} else {
				if (!(held & bit))
					return vgpu_isa_fail(err, VGPU_ISA_ERR_NOT_HELD, i);
				held &= ~bit;
			}
			if (sum) {
				sum->mutex_mask |= bit;
				if (in->op == VGPU_OP_LOCK)
					sum->uses_lock = true;
			}
			break;
		case VGPU_OP_SPIN:
			if (sum)
				sum->uses_spin = true;
			break;
		case VGPU_OP_LAUNCH:
			/* a block-wide wait: the BAR rules, plus no lock held */
			if (in->a >= VGPU_MAX_TEMPLATES ||
			    in->b & ~VGPU_LAUNCH_FLAGS_ALL ||
			    ((in->b & VGPU_LAUNCH_WAIT) && (held || wid_loops)))
				return vgpu_isa_fail(err, VGPU_ISA_ERR_LAUNCH, i);
			if (sum) {
				sum->launch_mask |= 1U << in->a;
				sum->uses_launch = true;
				if (in->b & VGPU_LAUNCH_WAIT)
					sum->uses_launch_wait = true;
			}
			break;
		case VGPU_OP_PUSH:	/* F14: imm items to the push target */
			if (!in->imm || in->imm > VGPU_MAX_QUEUE_ITEMS)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_PUSH, i);
			if (sum)
				sum->uses_push = true;
			break;
		case VGPU_OP_EXIT:
			if (i != n - 1)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_EXIT_POS, i);
			if (held)
				return vgpu_isa_fail(err, VGPU_ISA_ERR_LOCK_EXIT, i);
			break;
		case VGPU_OP_FUNC_FIRST ... VGPU_OP_FUNC_LAST:
			if (!(flags & VGPU_ISA_FUNCTIONAL) ||
			    !vgpu_isa_is_functional(in->op))
				return vgpu_isa_fail(err, VGPU_ISA_ERR_OPCODE, i);
			rule = vgpu_isa_func_operands(in, n);
			if (rule)
				return vgpu_isa_fail(err, rule, i);
			max_reg = max(max_reg, vgpu_isa_insn_max_reg(in));
			if (in->op == VGPU_OP_BRP || in->op == VGPU_OP_JMP) {
				if (structured)
					return vgpu_isa_fail(err, VGPU_ISA_ERR_BRANCH_MIX, i);
				branch = true;
			}
			if (sum)
				vgpu_isa_sum_func(sum, in);
			break;
		default:
			return vgpu_isa_fail(err, VGPU_ISA_ERR_OPCODE, i);
		}
		total += weight;
		if (total > VGPU_ISA_MAX_DYN_INSNS)
			return vgpu_isa_fail(err, VGPU_ISA_ERR_DYN_COUNT, i);
	}
	if (depth)
		return vgpu_isa_fail(err, VGPU_ISA_ERR_UNCLOSED,
				     stack[depth - 1].pc);
	if (prog[n - 1].op != VGPU_OP_EXIT)
		return vgpu_isa_fail(err, VGPU_ISA_ERR_NO_EXIT, n - 1);
	if (sum) {
		sum->n_insns = n;
		sum->max_dyn_insns = branch ? VGPU_ISA_DYN_UNBOUNDED : total;
		sum->max_reg = max_reg;
	}
	return 0;
}

/**
 * vgpu_isa_validate() - check a program against every rule of the ISA
 * @prog: @n instructions (only prog[0..n-1] is read)
 * @n: number of instructions
 * @err: if not NULL, receives the rule and instruction index of the first
 *       violation in program order, or VGPU_ISA_OK
 *
 * The rules (F04, Documentation/isa.rst): 1 <= @n <= VGPU_ISA_MAX_INSNS;
 * known opcodes; unused fields zero; LOOP operands valid, counts at most
 * VGPU_ISA_MAX_LOOP_COUNT, nesting at most VGPU_ISA_MAX_NEST, LOOP/ENDLOOP
 * balanced; mutex ids below VGPU_ISA_MAX_MUTEX, no LOCK of a held mutex, no
 * UNLOCK of a free one, loop bodies lock-neutral, no lock held at BAR or
 * EXIT; no BAR in a loop whose count depends on the warp index; LAUNCH
 * of a template below VGPU_MAX_TEMPLATES with flags in VGPU_LAUNCH_FLAGS_ALL,
 * and with VGPU_LAUNCH_WAIT neither under a lock nor in a loop whose count
 * depends on the warp index (F15); EXIT last
 * and only last; at most VGPU_ISA_MAX_DYN_INSNS instructions executed per
 * warp in the worst case; no functional instruction (opcodes
 * VGPU_OP_FUNC_FIRST..VGPU_OP_FUNC_LAST are unknown here: see
 * vgpu_isa_validate_flags()).  O(@n) time, no allocation, no recursion.
 *
 * Return: 0 if the program is valid, -EINVAL otherwise.
 */
int vgpu_isa_validate(const struct vgpu_insn *prog, u32 n,
		      struct vgpu_isa_error *err)
{
	return vgpu_isa_scan(prog, n, 0, err, NULL);
}

/**
 * vgpu_isa_validate_flags() - vgpu_isa_validate() with options
 * @prog: @n instructions (only prog[0..n-1] is read)
 * @n: number of instructions
 * @flags: VGPU_ISA_FUNCTIONAL to accept the functional instructions
 *	(their operand rules REGISTER, PREDICATE, SREG, SLOT, MODIFIER,
 *	TARGET and BRANCH_MIX apply); 0 is vgpu_isa_validate()
 * @err: as for vgpu_isa_validate()
 *
 * Return: 0 if the program is valid, -EINVAL otherwise or for flags
 * outside VGPU_ISA_FLAGS_ALL (then @err says VGPU_ISA_OK).
 */
int vgpu_isa_validate_flags(const struct vgpu_insn *prog, u32 n, u32 flags,
			    struct vgpu_isa_error *err)
{
	return vgpu_isa_scan(prog, n, flags, err, NULL);
}

/**
 * vgpu_isa_summarize_flags() - vgpu_isa_summarize() with options
 * @prog: @n instructions
 * @n: number of instructions
 * @flags: as for vgpu_isa_validate_flags()
 * @sum: receives the summary (zeroed if the program is invalid)
 *
 * Return: 0, or -EINVAL if vgpu_isa_validate_flags() rejects the program.
 */
int vgpu_isa_summarize_flags(const struct vgpu_insn *prog, u32 n, u32 flags,
			     struct vgpu_isa_summary *sum)
{
	int ret = vgpu_isa_scan(prog, n, flags, NULL, sum);

	if (ret)
		memset(sum, 0, sizeof(*sum));
	return ret;
}

/**
 * vgpu_isa_summarize() - validate a program and describe it for the engine
 * @prog: @n instructions
 * @n: number of instructions
 * @sum: receives the summary (zeroed if the program is invalid)
 *
 * Return: 0, or -EINVAL if vgpu_isa_validate() rejects the program.
 */
int vgpu_isa_summarize(const struct vgpu_insn *prog, u32 n,
		       struct vgpu_isa_summary *sum)
{
	return vgpu_isa_summarize_flags(prog, n, 0, sum);
}

/**
 * vgpu_isa_link() - match every LOOP with its ENDLOOP
 * @prog: @n instructions
 * @n: number of instructions
 * @match: array of @n entries; receives, for a LOOP, the index of its
 *         ENDLOOP, for an ENDLOOP the index of its LOOP, and i for any other
 *         instruction i
 *
 * The engine uses @match to skip a body whose count is 0 and to jump back
 * from ENDLOOP.  Validates the program first.
 *
 * Return: 0, or -EINVAL if vgpu_isa_validate() rejects the program.
 */
int vgpu_isa_link(const struct vgpu_insn *prog, u32 n, u16 *match)
{
	int ret;

	ret = vgpu_isa_validate(prog, n, NULL);
	if (ret)
		return ret;
	vgpu_isa_link_valid(prog, n, match);
	return 0;
}

/**
 * vgpu_isa_link_valid() - vgpu_isa_link() of a program known to be valid
 * @prog: @n instructions that passed vgpu_isa_validate() or
 *	vgpu_isa_summarize()
 * @n: number of instructions
 * @match: array of @n entries, filled as by vgpu_isa_link()
 *
 * The program is not scanned again: a caller that has just summarized it
 * links it without a second validation.
 */
void vgpu_isa_link_valid(const struct vgpu_insn *prog, u32 n, u16 *match)
{
	u16 stack[VGPU_ISA_MAX_NEST];
	u32 depth = 0, i;

	for (i = 0; i < n; i++) {
		match[i] = i;
		if (prog[i].op == VGPU_OP_LOOP) {
			stack[depth++] = i;
		} else if (prog[i].op == VGPU_OP_ENDLOOP) {
			depth--;
			match[i] = stack[depth];
			match[stack[depth]] = i;
		}
	}
}
