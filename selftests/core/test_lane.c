// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/lane.c and lane_float.c: the lane engine of
 * the functional ISA (seed 004; Documentation/isa.rst, "Functional
 * instructions").  Each opcode against values worked out by hand,
 * divergence and reconvergence, every fault, the global-store log; then,
 * natively, the integer binary32 against the host's float unit bit for
 * bit, and the five example programs of examples/vasm/ run on the lane
 * engine by a small block driver against results computed here.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/vgpu_dispatch.h>

#include "vgpu_test.h"
#include "isa.h"
#include "lane.h"

#ifndef __KERNEL__
#include <stdio.h>
#include <vgpu/vasm.h>
#endif

#define INSN(o, A, B, C, IMM) \
	((struct vgpu_insn){ .op = (o), .a = (A), .b = (B), .c = (C), .imm = (IMM) })
#define EXIT_I		INSN(VGPU_OP_EXIT, 0, 0, 0, 0)

#define TL_REGS		24
#define TL_SMEM		256
#define TL_PRIV		16
#define TL_LOG		64
#define ALL		0xffffffffU

/**
 * struct tl - one warp and everything it can reach
 * @regs: TL_REGS registers of 32 lanes
 * @smem: the block's shared memory
 * @priv: TL_PRIV bytes of private memory per lane
 * @buf: buffer of slot 0 (read-write)
 * @ro: buffer of slot 1 (read-only)
 * @con: buffer of slot 2 (constant)
 * @le: log entries
 * @log: the log
 * @env: the environment
 * @st: the warp's state
 */
struct tl {
	u32 regs[TL_REGS * 32];
	u8 smem[TL_SMEM];
	u8 priv[32 * TL_PRIV];
	u32 buf[64];
	u32 ro[16];
	u32 con[16];
	struct vgpu_lane_log_entry le[TL_LOG];
	struct vgpu_lane_log log;
	struct vgpu_lane_env env;
	struct vgpu_lane_state st;
};

static void tl_init(struct tl *t, u32 live)
{
	memset(t, 0, sizeof(*t));
	t->log.e = t->le;
	t->log.cap = TL_LOG;
	t->env.regs = t->regs;
	t->env.nregs = TL_REGS;
	t->env.smem = t->smem;
	t->env.smem_size = TL_SMEM;
	t->env.priv = t->priv;
	t->env.priv_size = TL_PRIV;
	t->env.slot[0] = (struct vgpu_lane_slot){ (u8 *)t->buf, sizeof(t->buf), 0 };
	t->env.slot[1] = (struct vgpu_lane_slot){
		(u8 *)t->ro, sizeof(t->ro), VGPU_LANE_SLOT_READ_ONLY };
	t->env.slot[2] = (struct vgpu_lane_slot){
		(u8 *)t->con, sizeof(t->con), VGPU_LANE_SLOT_CONSTANT };
	t->env.sr = (struct vgpu_lane_sregs){
		.warp = 3, .warp_size = 32, .ntid = 200, .ctaid = 7,
		.nctaid = 9, .item = 40, .nitems = 2,
	};
	t->env.log = &t->log;
	vgpu_lane_state_init(&t->st, live);
}

static u32 *R(struct tl *t, u32 r)
{
	return &t->regs[r * 32];
}

/* Execute the one instruction @in (followed by EXIT) at pc 0. */
static int tl_exec1(struct tl *t, struct vgpu_insn in, u16 *pc)
{
	const struct vgpu_insn prog[] = { in, EXIT_I };

	*pc = 0;
	return vgpu_lane_exec(&t->env, &t->st, prog, ARRAY_SIZE(prog), pc);
}

/* Lanes l: r1 = a[l % 4], r2 = b[l % 4]; r3 = 0xdead. */
static void tl_ab(struct tl *t, const u32 *a, const u32 *b)
{
	u32 l;

	for (l = 0; l < 32; l++) {
		R(t, 1)[l] = a[l % 4];
		R(t, 2)[l] = b[l % 4];
		R(t, 3)[l] = 0xdead;
	}
}

/* Seed 004: integer arithmetic, one op at a time, by hand. */
TEST(integer_ops)
{
	static const u32 a[4] = { 7, 0x80000000U, 0xffffffffU, 100 };
	static const u32 b[4] = { 0, 31, 2, 33 };
	static const struct {
		u8 op;
		u32 want[4];
	} cases[] = {
		{ VGPU_OP_IADD, { 7, 0x8000001fU, 1, 133 } },
		{ VGPU_OP_ISUB, { 7, 0x7fffffe1U, 0xfffffffdU, 67 } },
		{ VGPU_OP_IMUL, { 0, 0x80000000U, 0xfffffffeU, 3300 } },
		{ VGPU_OP_IMIN, { 0, 0x80000000U, 0xffffffffU, 33 } },
		{ VGPU_OP_IMAX, { 7, 31, 2, 100 } },
		{ VGPU_OP_AND, { 0, 0, 2, 32 } },
		{ VGPU_OP_OR, { 7, 0x8000001fU, 0xffffffffU, 101 } },
		{ VGPU_OP_XOR, { 7, 0x8000001fU, 0xfffffffdU, 69 } },
		{ VGPU_OP_SHL, { 7, 0, 0xfffffffcU, 200 } },	/* 33 & 31 = 1 */
		{ VGPU_OP_SHR, { 7, 1, 0x3fffffffU, 50 } },
		{ VGPU_OP_SRA, { 7, 0xffffffffU, 0xffffffffU, 50 } },
		{ VGPU_OP_UDIV, { 0xffffffffU, 0x4210842U, 0x7fffffffU, 3 } },
		{ VGPU_OP_UREM, { 7, 2, 1, 1 } },
	};
	VGPU_TEST_BIG struct tl t;
	unsigned int i, l;
	u16 pc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tl_init(&t, ALL);
		tl_ab(&t, a, b);
		ASSERT_EQ(0, tl_exec1(&t, INSN(cases[i].op, 3, 1, 2, 0), &pc));
		EXPECT_EQ(1, pc);
		for (l = 0; l < 32; l++)
			EXPECT_EQ(cases[i].want[l % 4], R(&t, 3)[l])
				TH_LOG("%s lane %u", vgpu_isa_op_name(cases[i].op), l);
	}
	/* IMAD: b * c + r[imm]; IADDI: b + imm */
	tl_init(&t, ALL);
	tl_ab(&t, a, b);
	for (l = 0; l < 32; l++)
		R(&t, 4)[l] = 5;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_IMAD, 3, 1, 2, 4), &pc));
	EXPECT_EQ(5, R(&t, 3)[0]);
	EXPECT_EQ(3305, R(&t, 3)[3]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_IADDI, 3, 1, 0, 0xfffffffeU), &pc));
	EXPECT_EQ(5, R(&t, 3)[0]);
	EXPECT_EQ(0xfffffffdU, R(&t, 3)[2]);
}

/* Inactive lanes keep their registers: only the active mask is written. */
TEST(inactive_lanes_untouched)
{
	VGPU_TEST_BIG struct tl t;
	u32 l;
	u16 pc;

	tl_init(&t, 0x0000ffffU);
	for (l = 0; l < 32; l++)
		R(&t, 5)[l] = 0x1234;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_MOVI, 5, 0, 0, 99), &pc));
	for (l = 0; l < 32; l++)
		EXPECT_EQ(l < 16 ? 99 : 0x1234, R(&t, 5)[l]);
	/* a timed instruction of the base ISA does nothing to the data */
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ALU, 0, 0, 0, 0), &pc));
	EXPECT_EQ(1, pc);
	EXPECT_EQ(99, R(&t, 5)[0]);
}

/* MOV class: MOVI, MOV, S2R of every special register, SELP. */
TEST(mov_class)
{
	VGPU_TEST_BIG struct tl t;
	u32 l;
	u16 pc;

	tl_init(&t, ALL);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_MOVI, 1, 0, 0, 0xcafe), &pc));
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_MOVR, 2, 1, 0, 0), &pc));
	EXPECT_EQ(0xcafe, R(&t, 2)[31]);
	for (l = VGPU_SR_LANE; l <= VGPU_SR_MAX; l++)
		ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_S2R, 4 + l, l, 0, 0), &pc));
	EXPECT_EQ(5, R(&t, 4)[5]);		/* lane */
	EXPECT_EQ(3, R(&t, 5)[5]);		/* warp */
	EXPECT_EQ(3 * 32 + 5, R(&t, 6)[5]);	/* tid */
	EXPECT_EQ(200, R(&t, 7)[5]);
	EXPECT_EQ(7, R(&t, 8)[5]);
	EXPECT_EQ(9, R(&t, 9)[5]);
	EXPECT_EQ(40, R(&t, 10)[5]);
	EXPECT_EQ(2, R(&t, 11)[5]);
	/* SELP r3 = p6 ? r1 : r4 (lane) */
	t.st.pred[6] = 0xaaaaaaaaU;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_SELP, 3, 1, 4, 6), &pc));
	for (l = 0; l < 32; l++)
		EXPECT_EQ(l & 1 ? 0xcafe : l, R(&t, 3)[l]);
}

/* Float ops through the engine: exact cases and the rounding rules. */
TEST(float_ops)
{
	static const struct {
		u8 op;
		u32 x, y, z, want;
	} cases[] = {
		{ VGPU_OP_FADD, 0x3fc00000, 0x40100000, 0, 0x40700000 },	/* 1.5+2.25 */
		{ VGPU_OP_FSUB, 0x3f800000, 0x3f800000, 0, 0x00000000 },	/* +0 */
		{ VGPU_OP_FMUL, 0x40400000, 0xc0000000, 0, 0xc0c00000 },	/* 3*-2 */
		/* 1 + 2^-24: a tie, to even: 1.0 */
		{ VGPU_OP_FADD, 0x3f800000, 0x33800000, 0, 0x3f800000 },
		/* 1 + 3 * 2^-25 rounds up */
		{ VGPU_OP_FADD, 0x3f800000, 0x33c00000, 0, 0x3f800001 },
		/* inf - inf, NaN payloads: the canonical NaN */
		{ VGPU_OP_FADD, 0x7f800000, 0xff800000, 0, VGPU_F32_NAN },
		{ VGPU_OP_FMUL, 0x7f800001, 0x3f800000, 0, VGPU_F32_NAN },
		{ VGPU_OP_FMUL, 0x00000000, 0xff800000, 0, VGPU_F32_NAN },
		/* overflow to infinity, subnormal results kept */
		{ VGPU_OP_FMUL, 0x7f7fffff, 0x40000000, 0, 0x7f800000 },
		{ VGPU_OP_FMUL, 0x00800000, 0x3f000000, 0, 0x00400000 },
		/* (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46, lost without fusion */
		{ VGPU_OP_FFMA, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000 },
		{ VGPU_OP_FMIN, VGPU_F32_NAN, 0x40000000, 0, 0x40000000 },
		{ VGPU_OP_FMAX, 0x40000000, 0xffc00001, 0, 0x40000000 },
		{ VGPU_OP_FMIN, 0x80000000, 0x00000000, 0, 0x80000000 },	/* -0 */
		{ VGPU_OP_FMAX, 0x80000000, 0x00000000, 0, 0x00000000 },
		{ VGPU_OP_FMIN, 0x7f800001, 0xffc00000, 0, VGPU_F32_NAN },
		{ VGPU_OP_I2F, 0xfffffffdU, 0, 0, 0xc0400000 },		/* -3 */
		{ VGPU_OP_I2F, 16777217, 0, 0, 0x4b800000 },		/* tie: even */
		{ VGPU_OP_I2F, 0x80000000U, 0, 0, 0xcf000000 },		/* -2^31 */
		{ VGPU_OP_F2I, 0xc02ccccd, 0, 0, 0xfffffffeU },		/* -2.7 */
		{ VGPU_OP_F2I, VGPU_F32_NAN, 0, 0, 0 },
		{ VGPU_OP_F2I, 0x4f32d05e, 0, 0, 0x7fffffff },		/* 3e9 */
		{ VGPU_OP_F2I, 0xff800000, 0, 0, 0x80000000U },
		{ VGPU_OP_F2I, 0x3f7fffff, 0, 0, 0 },
	};
	VGPU_TEST_BIG struct tl t;
	unsigned int i;
	u32 l, c, z;
	u16 pc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tl_init(&t, ALL);
		for (l = 0; l < 32; l++) {
			R(&t, 1)[l] = cases[i].x;
			R(&t, 2)[l] = cases[i].y;
			R(&t, 4)[l] = cases[i].z;
		}
		/* one operand for I2F, F2I; r4 the addend of FFMA */
		c = 2;
		if (cases[i].op == VGPU_OP_I2F || cases[i].op == VGPU_OP_F2I)
			c = 0;
		z = 0;
		if (cases[i].op == VGPU_OP_FFMA)
			z = 4;
		ASSERT_EQ(0, tl_exec1(&t, INSN(cases[i].op, 3, 1, c, z), &pc));
		EXPECT_EQ(cases[i].want, R(&t, 3)[17])
			TH_LOG("case %u (%s)", i, vgpu_isa_op_name(cases[i].op));
		/* and the integer implementation says the same */
		switch (cases[i].op) {
		case VGPU_OP_FADD:
			EXPECT_EQ(cases[i].want, vgpu_sf32_add(cases[i].x, cases[i].y));
			break;
		case VGPU_OP_FFMA:
			EXPECT_EQ(cases[i].want,
				  vgpu_sf32_fma(cases[i].x, cases[i].y, cases[i].z));
			break;
		case VGPU_OP_F2I:
			EXPECT_EQ(cases[i].want, vgpu_sf32_to_int(cases[i].x));
			break;
		}
	}
}

/* CMP class: every condition, signed, unsigned, float; PLOP. */
TEST(compares)
{
	static const u32 a[4] = { 1, 0xffffffffU, 5, 0x7fc00000 };
	static const u32 b[4] = { 2, 1, 5, 0x3f800000 };
	VGPU_TEST_BIG struct tl t;
	u32 cond, l, want;
	u16 pc;

	tl_init(&t, ALL);
	tl_ab(&t, a, b);
	for (cond = 0; cond <= VGPU_COND_MAX; cond++) {
		ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ISETP, 0, 1, 2, cond), &pc));
		ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_USETP, 1, 1, 2, cond), &pc));
		ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_FSETP, 2, 1, 2, cond), &pc));
		for (l = 0; l < 4; l++) {
			/* signed: 1<2, -1<1, 5=5, NaN bits 0x7fc00000 > 1 */
			static const u8 s[6][4] = {
				{ 0, 0, 1, 0 }, { 1, 1, 0, 1 }, { 1, 1, 0, 0 },
				{ 1, 1, 1, 0 }, { 0, 0, 0, 1 }, { 0, 0, 1, 1 },
			};
			/* unsigned: 0xffffffff > 1 */
			static const u8 u[6][4] = {
				{ 0, 0, 1, 0 }, { 1, 1, 0, 1 }, { 1, 0, 0, 0 },
				{ 1, 0, 1, 0 }, { 0, 1, 0, 1 }, { 0, 1, 1, 1 },
			};
			/* float: 1.4e-45 < 2.8e-45, NaN vs 1.4e-45, 7e-45 = 7e-45,
			 * NaN vs 1.0: false but NE
			 */
			static const u8 f[6][4] = {
				{ 0, 0, 1, 0 }, { 1, 1, 0, 1 }, { 1, 0, 0, 0 },
				{ 1, 0, 1, 0 }, { 0, 0, 0, 0 }, { 0, 0, 1, 0 },
			};
			want = s[cond][l];
			EXPECT_EQ(want, (t.st.pred[0] >> l) & 1) TH_LOG("cond %u lane %u", cond, l);
			EXPECT_EQ(u[cond][l], (t.st.pred[1] >> l) & 1);
			EXPECT_EQ(f[cond][l], (t.st.pred[2] >> l) & 1);
		}
	}
	t.st.pred[3] = 0xff00ff00U;
	t.st.pred[4] = 0x0ff00ff0U;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_PLOP, 5, 3, 4, VGPU_PLOP_AND), &pc));
	EXPECT_EQ(0x0f000f00U, t.st.pred[5]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_PLOP, 5, 3, 4, VGPU_PLOP_OR), &pc));
	EXPECT_EQ(0xfff0fff0U, t.st.pred[5]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_PLOP, 5, 3, 4, VGPU_PLOP_XOR), &pc));
	EXPECT_EQ(0xf0f0f0f0U, t.st.pred[5]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_PLOP, 5, 3, 4, VGPU_PLOP_ANDNOT), &pc));
	EXPECT_EQ(0xf000f000U, t.st.pred[5]);
	/* the inactive lanes' predicate bits stay */
	tl_init(&t, 0x0000ffffU);
	t.st.pred[7] = 0xffff0000U;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ISETP, 7, 1, 1, VGPU_COND_EQ), &pc));
	EXPECT_EQ(ALL, t.st.pred[7]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ISETP, 7, 1, 1, VGPU_COND_NE), &pc));
	EXPECT_EQ(0xffff0000U, t.st.pred[7]);
}

/* Shared, private and constant memory and global loads, at once. */
TEST(memory)
{
	VGPU_TEST_BIG struct tl t;
	u32 l;
	u16 pc;

	tl_init(&t, ALL);
	for (l = 0; l < 32; l++) {
		R(&t, 1)[l] = 4 * l;		/* address */
		R(&t, 2)[l] = 1000 + l;		/* value */
		t.buf[l] = 50 + l;
		t.con[l % 16] = 70 + l % 16;
	}
	/* STS [r1 + 8], r2 then LDS r3, [r1 + 8] */
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STS, 2, 0, 1, 8), &pc));
	EXPECT_EQ(1002U, ((u32 *)t.smem)[4]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDS, 3, 0, 1, 8), &pc));
	EXPECT_EQ(1031U, R(&t, 3)[31]);
	/* private: every lane its own TL_PRIV bytes, same offset */
	for (l = 0; l < 32; l++)
		R(&t, 4)[l] = 12;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STL, 2, 0, 4, 0), &pc));
	EXPECT_EQ(1009U, ((u32 *)t.priv)[9 * TL_PRIV / 4 + 3]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDL, 5, 0, 4, 0), &pc));
	EXPECT_EQ(1020U, R(&t, 5)[20]);
	/* global load, directly */
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDG, 6, 0, 1, 4), &pc));
	EXPECT_EQ(51U, R(&t, 6)[0]);
	EXPECT_EQ(81U, R(&t, 6)[30]);
	EXPECT_EQ(0U, R(&t, 6)[31]);
	/* constant load (lanes 0..15 fit the 64-byte buffer) */
	vgpu_lane_state_init(&t.st, 0xffff);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDC, 7, 2, 1, 0), &pc));
	EXPECT_EQ(85U, R(&t, 7)[15]);
	EXPECT_EQ(0U, R(&t, 7)[16]);
	/* a read-only buffer can be loaded */
	t.ro[3] = 7;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDG, 7, 1, 1, 0), &pc));
	EXPECT_EQ(7U, R(&t, 7)[3]);
}

/* Shared atomics: immediate, in lane order, old values returned. */
TEST(shared_atomics)
{
	VGPU_TEST_BIG struct tl t;
	u32 *w = (u32 *)t.smem;
	u32 l;
	u16 pc;

	tl_init(&t, ALL);
	for (l = 0; l < 32; l++) {
		R(&t, 1)[l] = 0;	/* every lane the same word */
		R(&t, 2)[l] = l + 1;
		R(&t, 4)[l] = l;	/* CAS compare */
	}
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 3, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_ADD, 0)), &pc));
	EXPECT_EQ(528U, w[0]);			/* 1 + ... + 32 */
	EXPECT_EQ(0U, R(&t, 3)[0]);
	EXPECT_EQ(3U, R(&t, 3)[2]);		/* 1 + 2 before lane 2 */
	w[0] = 10;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 3, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_MIN, 0)), &pc));
	EXPECT_EQ(1U, w[0]);
	w[0] = 0xfffffff0U;			/* -16 */
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 3, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_MAX, 0)), &pc));
	EXPECT_EQ(32U, w[0]);
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 3, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_EXCH, 0)), &pc));
	EXPECT_EQ(32U, w[0]);
	EXPECT_EQ(32U, R(&t, 3)[0]);
	EXPECT_EQ(1U, R(&t, 3)[1]);
	/* CAS chain: lane l stores l + 1 if the word is l */
	w[0] = 0;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 3, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_CAS, 4)), &pc));
	EXPECT_EQ(32U, w[0]);
	EXPECT_EQ(31U, R(&t, 3)[31]);
	/* the destination may be an operand: it is read first */
	w[0] = 5;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_ATOMS, 2, 0, 1,
				       VGPU_ATOM_IMM(2, VGPU_ATOM_ADD, 0)), &pc));
	EXPECT_EQ(5U + 528, w[0]);
	EXPECT_EQ(5U, R(&t, 2)[0]);
}

/* Global stores and atomics wait in the log, applied in issue and lane order. */
TEST(global_log)
{
	VGPU_TEST_BIG struct tl t;
	u32 l;
	u16 pc;

	tl_init(&t, 0x0000000fU);
	for (l = 0; l < 32; l++) {
		R(&t, 1)[l] = 0;	/* all on word 0 */
		R(&t, 2)[l] = 10 + l;
		R(&t, 3)[l] = 0xdead;
	}
	t.buf[0] = 1;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
	EXPECT_EQ(1U, t.buf[0]);	/* not yet */
	EXPECT_EQ(4U, t.log.n);
	/* a load still sees the old value until the boundary */
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDG, 4, 0, 1, 0), &pc));
	EXPECT_EQ(1U, R(&t, 4)[0]);
	ASSERT_EQ(VGPU_LANE_PARK,
		  tl_exec1(&t, INSN(VGPU_OP_ATOMG, 3, 0, 1,
				    VGPU_ATOM_IMM(2, VGPU_ATOM_ADD, 0)), &pc));
	EXPECT_EQ(1, pc);
	EXPECT_EQ(0xdeadU, R(&t, 3)[0]);	/* written at the boundary */
	EXPECT_EQ(8U, t.log.n);
	vgpu_lane_log_apply(&t.log);
	EXPECT_EQ(0U, t.log.n);
	/* stores 10, 11, 12, 13 (13 last), then adds 10..13 */
	EXPECT_EQ(13U + 10 + 11 + 12 + 13, t.buf[0]);
	EXPECT_EQ(13U, R(&t, 3)[0]);
	EXPECT_EQ(13U + 10, R(&t, 3)[1]);
	EXPECT_EQ(13U + 10 + 11 + 12, R(&t, 3)[3]);
	EXPECT_EQ(0xdeadU, R(&t, 3)[4]);	/* inactive */
	/* CAS through the log */
	t.buf[1] = 7;
	for (l = 0; l < 32; l++) {
		R(&t, 1)[l] = 4;
		R(&t, 5)[l] = 7 + l;
	}
	ASSERT_EQ(VGPU_LANE_PARK,
		  tl_exec1(&t, INSN(VGPU_OP_ATOMG, 3, 0, 1,
				    VGPU_ATOM_IMM(2, VGPU_ATOM_CAS, 5)), &pc));
	vgpu_lane_log_apply(&t.log);
	/* lane 0: 7 == 7, stores 10; lanes 1, 2: 10 != 8, 9; lane 3: 13 */
	EXPECT_EQ(13U, t.buf[1]);
	EXPECT_EQ(7U, R(&t, 3)[0]);
	EXPECT_EQ(10U, R(&t, 3)[1]);
	EXPECT_EQ(10U, R(&t, 3)[3]);
}

/* A full log: RETRY, nothing done, the pc stays; too small a log: -EINVAL. */
TEST(log_full_retry)
{
	VGPU_TEST_BIG struct tl t;
	u32 l;
	u16 pc;

	tl_init(&t, ALL);
	for (l = 0; l < 32; l++)
		R(&t, 1)[l] = 4 * l;
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
	ASSERT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
	EXPECT_EQ(64U, t.log.n);
	EXPECT_EQ(VGPU_LANE_RETRY, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
	EXPECT_EQ(0, pc);
	EXPECT_EQ(64U, t.log.n);
	EXPECT_EQ(VGPU_LANE_RETRY,
		  tl_exec1(&t, INSN(VGPU_OP_ATOMG, 3, 0, 1, 0), &pc));
	vgpu_lane_log_apply(&t.log);
	EXPECT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
	t.log.cap = 16;
	t.log.n = 0;
	EXPECT_EQ(-EINVAL, tl_exec1(&t, INSN(VGPU_OP_STG, 2, 0, 1, 0), &pc));
}

/* Every fault, and nothing done by a faulting instruction. */
TEST(faults)
{
	static const struct {
		struct vgpu_insn in;
		u32 addr;	/* lane 5's address register; the rest 0 */
		int err;
	} cases[] = {
		/* slot 3 not named */
		{ INSN(VGPU_OP_LDG, 3, 3, 1, 0), 0, -EBADF },
		{ INSN(VGPU_OP_STG, 3, 3, 1, 0), 0, -EBADF },
		/* LDC of a buffer that is not constant */
		{ INSN(VGPU_OP_LDC, 3, 0, 1, 0), 0, -EBADF },
		{ INSN(VGPU_OP_LDC, 3, 1, 1, 0), 0, -EBADF },
		/* stores to read-only and constant buffers */
		{ INSN(VGPU_OP_STG, 3, 1, 1, 0), 0, -EROFS },
		{ INSN(VGPU_OP_STG, 3, 2, 1, 0), 0, -EROFS },
		{ INSN(VGPU_OP_ATOMG, 3, 1, 1, 0), 0, -EROFS },
		/* misaligned */
		{ INSN(VGPU_OP_LDG, 3, 0, 1, 0), 2, -EILSEQ },
		{ INSN(VGPU_OP_LDS, 3, 0, 1, 1), 0, -EILSEQ },
		{ INSN(VGPU_OP_STL, 3, 0, 1, 0), 6, -EILSEQ },
		{ INSN(VGPU_OP_ATOMS, 3, 0, 1, 0), 3, -EILSEQ },
		/* out of bounds: the last word fits, the next does not */
		{ INSN(VGPU_OP_LDG, 3, 0, 1, 252), 4, -EFAULT },
		{ INSN(VGPU_OP_LDG, 3, 0, 1, 256), 0, -EFAULT },
		{ INSN(VGPU_OP_STS, 3, 0, 1, TL_SMEM), 0, -EFAULT },
		{ INSN(VGPU_OP_LDL, 3, 0, 1, 0), TL_PRIV, -EFAULT },
		{ INSN(VGPU_OP_LDC, 3, 2, 1, 64), 0, -EFAULT },
		/* r[c] + imm is a 64-bit sum: no wrap to a small address */
		{ INSN(VGPU_OP_LDG, 3, 0, 1, 8), 0xfffffffcU, -EFAULT },
		{ INSN(VGPU_OP_ATOMG, 3, 0, 1, 0), 256, -EFAULT },
		/* a register the warp does not have, a non-lane opcode */
		{ INSN(VGPU_OP_MOVI, TL_REGS, 0, 0, 0), 0, -EINVAL },
		{ INSN(VGPU_OP_IADD, 3, 1, TL_REGS, 0), 0, -EINVAL },
		{ INSN(VGPU_OP_BAR, 0, 0, 0, 0), 0, -EINVAL },
		{ INSN(0x44, 0, 0, 0, 0), 0, -EINVAL },
		{ INSN(VGPU_OP_JMP, 0, 0, 0, 2), 0, -EINVAL },
	};
	VGPU_TEST_BIG struct tl t;
	unsigned int i;
	u32 l;
	u16 pc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tl_init(&t, ALL);
		for (l = 0; l < 32; l++) {
			R(&t, 3)[l] = 0x5555;
			t.buf[l] = 0x77;
		}
		R(&t, 1)[5] = cases[i].addr;
		EXPECT_EQ(cases[i].err, tl_exec1(&t, cases[i].in, &pc))
			TH_LOG("case %u (%s)", i, vgpu_isa_op_name(cases[i].in.op));
		EXPECT_EQ(0, pc);
		for (l = 0; l < 32; l++)
			EXPECT_EQ(0x5555U, R(&t, 3)[l]);
		EXPECT_EQ(0x77U, t.buf[0]);
		EXPECT_EQ(0U, ((u32 *)t.smem)[0]);
		EXPECT_EQ(0U, t.log.n);
	}
	/* no shared memory at all: every access is out of bounds */
	tl_init(&t, ALL);
	t.env.smem = NULL;
	t.env.smem_size = 0;
	EXPECT_EQ(-EFAULT, tl_exec1(&t, INSN(VGPU_OP_LDS, 3, 0, 1, 0), &pc));
	/* an inactive lane's bad address does not fault */
	tl_init(&t, ALL & ~BIT(5));
	R(&t, 1)[5] = 2;
	EXPECT_EQ(0, tl_exec1(&t, INSN(VGPU_OP_LDG, 3, 0, 1, 0), &pc));
}

/*
 * Run @prog on the warp of @t from pc 0 until every lane has exited (at
 * most @max instructions); the instructions executed go to *@count, the
 * deepest stack to *@deepest.  0 or the first error.
 */
static int tl_run(struct tl *t, const struct vgpu_insn *prog, u32 n,
		  u32 max, u32 *count, u32 *deepest)
{
	u32 k;
	u16 pc = 0;
	int ret;

	*deepest = t->st.depth;
	for (k = 0; k < max; k++) {
		if (prog[pc].op == VGPU_OP_EXIT) {
			if (vgpu_lane_exit(&t->st, &pc))
				break;
			continue;
		}
		ret = vgpu_lane_exec(&t->env, &t->st, prog, n, &pc);
		if (ret == VGPU_LANE_PARK) {
			vgpu_lane_log_apply(&t->log);
			ret = 0;
		}
		if (ret)
			return ret;
		*deepest = max(*deepest, t->st.depth);
	}
	*count = k;
	return k == max ? -ETIME : 0;
}

#define BRP(p, neg, t, j)	INSN(VGPU_OP_BRP, p, neg, 0, VGPU_BRP_IMM(t, j))
#define JMP(t)			INSN(VGPU_OP_JMP, 0, 0, 0, t)
#define MOVI(r, v)		INSN(VGPU_OP_MOVI, r, 0, 0, v)
#define S2R(r, s)		INSN(VGPU_OP_S2R, r, s, 0, 0)
#define SETP(p, x, y, c)	INSN(VGPU_OP_ISETP, p, x, y, c)
#define IADD(d, x, y)		INSN(VGPU_OP_IADD, d, x, y, 0)
#define IADDI(d, x, k)		INSN(VGPU_OP_IADDI, d, x, 0, k)

/* If/else: both sides run, each for its lanes, then they meet again. */
TEST(if_else)
{
	const struct vgpu_insn prog[] = {
		/* 0 */ S2R(0, VGPU_SR_LANE),
		/* 1 */ MOVI(1, 20),
		/* 2 */ SETP(0, 0, 1, VGPU_COND_LT),	/* lane < 20 */
		/* 3 */ BRP(0, 1, 6, 8),		/* !p0: else */
		/* 4 */ MOVI(2, 1),			/* then */
		/* 5 */ JMP(8),
		/* 6 */ MOVI(2, 2),			/* else */
		/* 7 */ IADDI(2, 2, 5),
		/* 8 */ IADDI(3, 2, 100),		/* join */
		/* 9 */ EXIT_I,
	};
	VGPU_TEST_BIG struct tl t;
	u32 l, count, deepest;

	tl_init(&t, ALL);
	ASSERT_EQ(0, tl_run(&t, prog, ARRAY_SIZE(prog), 100, &count, &deepest));
	for (l = 0; l < 32; l++) {
		EXPECT_EQ(l < 20 ? 1U : 7U, R(&t, 2)[l]);
		EXPECT_EQ(l < 20 ? 101U : 107U, R(&t, 3)[l]);
	}
	/* 0-3, else 6-7, then 4-5, the join 8 once; EXIT not counted */
	EXPECT_EQ(9U, count);
	EXPECT_EQ(3U, deepest);
	EXPECT_EQ(1U, t.st.depth);
	EXPECT_EQ(0U, t.st.live);
}

/* Uniform branches are jumps: no frame; a diverged warp fails a BAR. */
TEST(uniform_branch_and_bar)
{
	const struct vgpu_insn prog[] = {
		/* 0 */ S2R(0, VGPU_SR_LANE),
		/* 1 */ MOVI(1, 100),
		/* 2 */ SETP(0, 0, 1, VGPU_COND_LT),	/* all lanes */
		/* 3 */ BRP(0, 0, 5, 5),
		/* 4 */ MOVI(2, 9),
		/* 5 */ BRP(0, 1, 4, 6),		/* none */
		/* 6 */ EXIT_I,
	};
	VGPU_TEST_BIG struct tl t;
	u16 pc = 0;
	int i;

	tl_init(&t, ALL);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, prog, 7, &pc));
	EXPECT_EQ(5, pc);
	EXPECT_EQ(1U, t.st.depth);
	ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, prog, 7, &pc));
	EXPECT_EQ(6, pc);
	EXPECT_EQ(0U, R(&t, 2)[0]);
	EXPECT_TRUE(vgpu_lane_bar_ok(&t.st));
	/* diverge: lanes 0..9 take the branch */
	t.st.pred[1] = 0x3ff;
	pc = 3;
	{
		const struct vgpu_insn d[] = {
			MOVI(1, 0), MOVI(1, 0), MOVI(1, 0),
			BRP(1, 0, 5, 6), MOVI(2, 1), MOVI(2, 2), EXIT_I,
		};

		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, d, 7, &pc));
		EXPECT_EQ(5, pc);
		EXPECT_EQ(0x3ffU, vgpu_lane_active(&t.st));
		EXPECT_FALSE(vgpu_lane_bar_ok(&t.st));
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, d, 7, &pc));
		/* taken side done at the join: the other side, from 4 */
		EXPECT_EQ(4, pc);
		EXPECT_EQ(~0x3ffU, vgpu_lane_active(&t.st));
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, d, 7, &pc));
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, d, 7, &pc));
		EXPECT_EQ(6, pc);
		EXPECT_TRUE(vgpu_lane_bar_ok(&t.st));
		EXPECT_EQ(2U, R(&t, 2)[0]);
		EXPECT_EQ(2U, R(&t, 2)[31]);
	}
}

/*
 * The SM engine advances the pc itself past a timed instruction or a
 * BAR: vgpu_lane_reconverge() pops the frame that reached its join.
 */
TEST(reconverge_after_engine_step)
{
	VGPU_TEST_BIG struct tl t;
	u16 pc;

	tl_init(&t, ALL);
	t.st.pred[0] = 0xffff;
	{
		const struct vgpu_insn d[] = {
			BRP(0, 0, 3, 4), INSN(VGPU_OP_ALU, 0, 0, 0, 0),
			INSN(VGPU_OP_ALU, 0, 0, 0, 0),
			INSN(VGPU_OP_MOV, 0, 0, 0, 0), EXIT_I,
		};

		pc = 0;
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, d, 5, &pc));
		EXPECT_EQ(3, pc);
		EXPECT_EQ(0xffffU, vgpu_lane_active(&t.st));
		/* the engine issues the MOV at 3 itself, then: */
		pc = 4;
		vgpu_lane_reconverge(&t.st, &pc);
		EXPECT_EQ(1, pc);
		EXPECT_EQ(0xffff0000U, vgpu_lane_active(&t.st));
		pc = 4;
		vgpu_lane_reconverge(&t.st, &pc);
		EXPECT_EQ(4, pc);
		EXPECT_EQ(ALL, vgpu_lane_active(&t.st));
		EXPECT_EQ(1U, t.st.depth);
	}
}

/*
 * A data-dependent loop: lane l runs l iterations, lanes leave one by
 * one, and the stack stays at two frames.
 */
TEST(divergent_loop)
{
	const struct vgpu_insn prog[] = {
		/* 0 */ S2R(0, VGPU_SR_LANE),		/* count = lane */
		/* 1 */ MOVI(1, 0),			/* i */
		/* 2 */ MOVI(2, 0),			/* acc */
		/* 3 */ SETP(0, 1, 0, VGPU_COND_GE),	/* i >= count: out */
		/* 4 */ BRP(0, 0, 8, 8),
		/* 5 */ IADD(2, 2, 1),
		/* 6 */ IADDI(1, 1, 1),
		/* 7 */ JMP(3),
		/* 8 */ IADDI(3, 2, 0),
		/* 9 */ EXIT_I,
	};
	/* the same as a do-while with the test at the bottom */
	const struct vgpu_insn dw[] = {
		/* 0 */ S2R(0, VGPU_SR_LANE),
		/* 1 */ MOVI(1, 0),
		/* 2 */ MOVI(2, 0),
		/* 3 */ IADD(2, 2, 1),
		/* 4 */ IADDI(1, 1, 1),
		/* 5 */ SETP(0, 1, 0, VGPU_COND_LT),	/* i < count: again */
		/* 6 */ BRP(0, 0, 3, 7),
		/* 7 */ EXIT_I,
	};
	VGPU_TEST_BIG struct tl t;
	u32 l, count, deepest;

	tl_init(&t, ALL);
	ASSERT_EQ(0, tl_run(&t, prog, ARRAY_SIZE(prog), 10000, &count, &deepest));
	for (l = 0; l < 32; l++)
		EXPECT_EQ(l * (l - 1) / 2, R(&t, 3)[l]) TH_LOG("lane %u", l);
	EXPECT_EQ(2U, deepest);
	/* 3 + 32 tests of 2 + 31 bodies of 3 + the join: 3 + 64 + 93 + 1 */
	EXPECT_EQ(161U, count);

	tl_init(&t, ALL);
	ASSERT_EQ(0, tl_run(&t, dw, ARRAY_SIZE(dw), 10000, &count, &deepest));
	for (l = 0; l < 32; l++)	/* at least one iteration: lane 0 too */
		EXPECT_EQ(l ? l * (l - 1) / 2 : 0, R(&t, 2)[l]) TH_LOG("lane %u", l);
	EXPECT_EQ(2U, deepest);
}

/*
 * Nested divergence, one level of ifs per lane: each level pushes two
 * frames; 7 levels fit VGPU_LANE_STACK, the 8th overflows.
 */
static u32 tl_nest(struct vgpu_insn *p, u32 levels)
{
	u32 n = 0, k;

	p[n++] = S2R(0, VGPU_SR_LANE);
	for (k = 0; k < levels; k++) {
		/* L_k: MOVI r1, k; ISETP p0, r0 > r1; BRP p0, L_k+1, J_k;
		 * JMP J_k, with J_k = 4 * levels + 2 + (levels - 1 - k)
		 */
		u32 j = 4 * levels + 2 + (levels - 1 - k);

		p[n++] = MOVI(1, k);
		p[n++] = SETP(0, 0, 1, VGPU_COND_GT);
		p[n] = BRP(0, 0, n + 2, j);	/* taken: the next level */
		n++;
		p[n++] = JMP(j);
	}
	p[n++] = IADDI(2, 2, 1);	/* the innermost */
	for (k = 0; k < levels; k++)
		p[n++] = IADDI(3, 3, 1);	/* J_levels-1 .. J_0 */
	p[n++] = EXIT_I;
	return n;
}

TEST(nested_divergence_and_overflow)
{
	VGPU_TEST_BIG struct vgpu_insn p[64];
	VGPU_TEST_BIG struct tl t;
	u32 n, l, count, deepest;

	n = tl_nest(p, 7);
	tl_init(&t, ALL);
	ASSERT_EQ(0, tl_run(&t, p, n, 10000, &count, &deepest));
	EXPECT_EQ(15U, deepest);
	for (l = 0; l < 32; l++) {
		/* J_k runs for the lanes that entered level k: lane >= k */
		EXPECT_EQ(min(l + 1, 7U), R(&t, 3)[l]) TH_LOG("lane %u", l);
		EXPECT_EQ(l >= 7 ? 1U : 0U, R(&t, 2)[l]);
	}
	n = tl_nest(p, 8);
	tl_init(&t, ALL);
	EXPECT_EQ(-EOVERFLOW, tl_run(&t, p, n, 10000, &count, &deepest));
	EXPECT_EQ(15U, t.st.depth);	/* nothing pushed by the failing BRP */
}

/* EXIT: lanes leave at different places; the warp is done with the last. */
TEST(partial_exit)
{
	const struct vgpu_insn prog[] = {
		/* 0 */ S2R(0, VGPU_SR_LANE),
		/* 1 */ MOVI(1, 8),
		/* 2 */ SETP(0, 0, 1, VGPU_COND_LT),
		/* 3 */ BRP(0, 0, 6, 5),		/* lanes < 8: leave now */
		/* 4 */ MOVI(2, 4),
		/* 5 */ IADDI(2, 2, 1),
		/* 6 */ EXIT_I,
	};
	VGPU_TEST_BIG struct tl t;
	u16 pc = 0;
	int i;

	tl_init(&t, 0x00ffffffU);	/* 24 threads */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, prog, 7, &pc));
	EXPECT_EQ(6, pc);
	EXPECT_EQ(0xffU, vgpu_lane_active(&t.st));
	EXPECT_FALSE(vgpu_lane_exit(&t.st, &pc));
	EXPECT_EQ(0x00ffff00U, t.st.live);
	EXPECT_EQ(4, pc);
	EXPECT_TRUE(vgpu_lane_bar_ok(&t.st));	/* all the live lanes */
	ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, prog, 7, &pc));
	ASSERT_EQ(0, vgpu_lane_exec(&t.env, &t.st, prog, 7, &pc));
	EXPECT_EQ(6, pc);
	EXPECT_EQ(5U, R(&t, 2)[8]);
	EXPECT_EQ(0U, R(&t, 2)[0]);
	EXPECT_EQ(0U, R(&t, 2)[24]);		/* never a thread */
	EXPECT_TRUE(vgpu_lane_exit(&t.st, &pc));
	EXPECT_EQ(0U, t.st.live);
}

#ifndef __KERNEL__
static u32 tl_f(float f)
{
	u32 a;

	memcpy(&a, &f, sizeof(a));
	return a;
}

/* xorshift64*: reproducible operands */
static u64 tl_rng_state = 0x9e3779b97f4a7c15ULL;

static u32 tl_rand(void)
{
	tl_rng_state ^= tl_rng_state >> 12;
	tl_rng_state ^= tl_rng_state << 25;
	tl_rng_state ^= tl_rng_state >> 27;
	return (u32)((tl_rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

static const u32 tl_special[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff,
	0x807fffff, 0x00800000, 0x80800000, 0x00800001, 0x3f800000,
	0xbf800000, 0x3f800001, 0x3fc00000, 0x40000000, 0x33800000,
	0x33800001, 0x337fffff, 0x4b800000, 0x4b800001, 0x4effffff,
	0x4f000000, 0xcf000000, 0xcf000001, 0x7f7fffff, 0xff7fffff,
	0x7f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x7f800001, 0x7fbfffff, 0xffc00001, 0x00400000, 0x34000000,
	0x3effffff, 0x3f000000, 0x3f7fffff, 0x1f800000, 0x5f800000,
};

/* An operand: special, fully random, or near @near (cancellation). */
static u32 tl_operand(u32 near)
{
	u32 r = tl_rand();

	switch (r & 7) {
	case 0:
		return tl_special[(r >> 3) % ARRAY_SIZE(tl_special)];
	case 1:
	case 2:
		return tl_rand();
	case 3:		/* small exponents: subnormal results */
		return (tl_rand() & 0x81ffffff);
	case 4:		/* close to @near, either sign */
		return (near ^ (tl_rand() & 0x8000001f)) + (tl_rand() & 3);
	default:	/* ordinary magnitudes */
		return (tl_rand() & 0x807fffff) | (((tl_rand() % 60) + 97) << 23);
	}
}

/*
 * The integer binary32 the module uses equals the host's float unit with
 * canonical NaNs, bit for bit, for every operation: special operands in
 * every pair and millions of random ones.
 */
TEST(soft_float_equals_hardware)
{
	u32 i, j, k, cond, a, b, c, n = 2000000;
	u64 bad = 0;

#define TL_SAME(what, s, h) do {					\
	u32 s_ = (s), h_ = (h);						\
	if (s_ != h_ && bad++ < 10)					\
		TH_LOG("%s(%08x, %08x, %08x): soft %08x, hard %08x",	\
		       what, a, b, c, s_, h_);				\
} while (0)
#define TL_ALL() do {							\
	TL_SAME("add", vgpu_sf32_add(a, b), vgpu_hf32_add(a, b));	\
	TL_SAME("sub", vgpu_sf32_sub(a, b), vgpu_hf32_sub(a, b));	\
	TL_SAME("mul", vgpu_sf32_mul(a, b), vgpu_hf32_mul(a, b));	\
	TL_SAME("fma", vgpu_sf32_fma(a, b, c), vgpu_hf32_fma(a, b, c));	\
	TL_SAME("min", vgpu_sf32_min(a, b), vgpu_hf32_min(a, b));	\
	TL_SAME("max", vgpu_sf32_max(a, b), vgpu_hf32_max(a, b));	\
	TL_SAME("i2f", vgpu_sf32_from_int(a), vgpu_hf32_from_int(a));	\
	TL_SAME("f2i", vgpu_sf32_to_int(a), vgpu_hf32_to_int(a));	\
	for (cond = 0; cond <= VGPU_COND_MAX; cond++)			\
		TL_SAME("cmp", vgpu_sf32_cmp(a, b, cond),		\
			vgpu_hf32_cmp(a, b, cond));			\
} while (0)

	for (i = 0; i < ARRAY_SIZE(tl_special); i++)
		for (j = 0; j < ARRAY_SIZE(tl_special); j++)
			for (k = 0; k < ARRAY_SIZE(tl_special); k += 3) {
				a = tl_special[i];
				b = tl_special[j];
				c = tl_special[k];
				TL_ALL();
			}
	for (i = 0; i < n; i++) {
		a = tl_operand(0x3f800000);
		b = tl_operand(a);
		/* c near -(a * b): the sum cancels */
		c = (i & 1) ? tl_operand(vgpu_hf32_mul(a, b) ^ 0x80000000) :
		    tl_operand(b);
		TL_ALL();
	}
	/* every integer conversion edge */
	for (i = 0; i < 64; i++) {
		a = 1U << (i & 31);
		a = i & 32 ? a - 1 : a + 1;
		b = 0;
		c = 0;
		TL_ALL();
		a = -a;
		TL_ALL();
	}
	EXPECT_EQ(0, bad);
#undef TL_ALL
#undef TL_SAME
}

/*
 * Random structured programs (if/else, data-dependent loops, early exits,
 * nested) run on the warp must leave every lane with the registers the
 * same program leaves when each lane runs alone, one instruction after
 * the other: divergence and reconvergence change nothing but the order.
 */
#define TG_MAX	600

struct tl_gen {
	struct vgpu_insn p[TG_MAX];
	u32 n;
	u32 exits[64];
	u32 nexits;
};

static u32 tg_emit(struct tl_gen *g, struct vgpu_insn in)
{
	if (g->n < TG_MAX - 2)
		g->p[g->n++] = in;
	return g->n - 1;
}

static const u8 tg_alu[] = {
	VGPU_OP_IADD, VGPU_OP_ISUB, VGPU_OP_IMUL, VGPU_OP_IMIN, VGPU_OP_IMAX,
	VGPU_OP_AND, VGPU_OP_OR, VGPU_OP_XOR, VGPU_OP_SHL, VGPU_OP_SHR,
	VGPU_OP_SRA, VGPU_OP_UDIV, VGPU_OP_UREM, VGPU_OP_IADDI, VGPU_OP_MOVI,
	VGPU_OP_MOVR,
};

static void tg_block(struct tl_gen *g, u32 depth);

static void tg_stmt(struct tl_gen *g, u32 depth)
{
	u32 r = tl_rand() % 10, x = tl_rand() % 8, y = tl_rand() % 8;
	u32 d = 1 + tl_rand() % 7, op, b, j, top, c;

	if (depth >= 3 || r < 5 || g->n > TG_MAX - 60) {
		op = tg_alu[tl_rand() % ARRAY_SIZE(tg_alu)];
		if (op == VGPU_OP_MOVI)
			tg_emit(g, INSN(op, d, 0, 0, tl_rand() % 5));
		else if (op == VGPU_OP_IADDI)
			tg_emit(g, INSN(op, d, x, 0, tl_rand()));
		else if (op == VGPU_OP_MOVR)
			tg_emit(g, INSN(op, d, x, 0, 0));
		else
			tg_emit(g, INSN(op, d, x, y, 0));
		return;
	}
	if (r < 7) {		/* if / else */
		tg_emit(g, SETP(0, x, y, tl_rand() % 6));
		b = tg_emit(g, BRP(0, tl_rand() & 1, 0, 0));
		tg_block(g, depth + 1);
		j = tg_emit(g, JMP(0));
		c = g->n;
		tg_block(g, depth + 1);
		g->p[b].imm = VGPU_BRP_IMM(c, g->n);
		g->p[j].imm = g->n;
	} else if (r < 8) {	/* if */
		tg_emit(g, SETP(0, x, y, tl_rand() % 6));
		b = tg_emit(g, BRP(0, tl_rand() & 1, 0, 0));
		tg_block(g, depth + 1);
		g->p[b].imm = VGPU_BRP_IMM(g->n, g->n);
	} else if (r < 9) {	/* loop: rX & 3 iterations, counter r10 + depth */
		c = 10 + depth;
		tg_emit(g, INSN(VGPU_OP_AND, c, x, 20, 0));
		top = tg_emit(g, SETP(1, c, 21, VGPU_COND_EQ));
		b = tg_emit(g, BRP(1, 0, 0, 0));
		tg_block(g, depth + 1);
		tg_emit(g, IADDI(c, c, 0xffffffffU));
		tg_emit(g, JMP(top));
		g->p[b].imm = VGPU_BRP_IMM(g->n, g->n);
	} else if (g->nexits < ARRAY_SIZE(g->exits)) {	/* some lanes leave */
		tg_emit(g, SETP(2, x, y, tl_rand() % 6));
		b = tg_emit(g, BRP(2, 0, 0, 0));
		g->p[b].imm = VGPU_BRP_IMM(0, g->n);	/* target: EXIT */
		g->exits[g->nexits++] = b;
	}
}

static void tg_block(struct tl_gen *g, u32 depth)
{
	u32 k, n = 1 + tl_rand() % 4;

	for (k = 0; k < n; k++)
		tg_stmt(g, depth);
}

/* One lane alone: 0, or -ETIME if it does not end. */
static int tg_scalar(const struct vgpu_insn *p, u32 n, u32 lane, u32 *r)
{
	bool pr[VGPU_ISA_NUM_PREDS] = { 0 };
	u32 pc = 0, steps, x, y;

	for (steps = 0; steps < 1000000; steps++) {
		const struct vgpu_insn *in = &p[pc];

		x = r[in->b];
		y = r[in->c];
		pc++;
		switch (in->op) {
		case VGPU_OP_EXIT:
			return 0;
		case VGPU_OP_S2R:
			r[in->a] = lane;
			break;
		case VGPU_OP_MOVI:
			r[in->a] = in->imm;
			break;
		case VGPU_OP_MOVR:
			r[in->a] = x;
			break;
		case VGPU_OP_IADDI:
			r[in->a] = x + in->imm;
			break;
		case VGPU_OP_IADD:
			r[in->a] = x + y;
			break;
		case VGPU_OP_ISUB:
			r[in->a] = x - y;
			break;
		case VGPU_OP_IMUL:
			r[in->a] = x * y;
			break;
		case VGPU_OP_IMIN:
			r[in->a] = (s32)x < (s32)y ? x : y;
			break;
		case VGPU_OP_IMAX:
			r[in->a] = (s32)x > (s32)y ? x : y;
			break;
		case VGPU_OP_AND:
			r[in->a] = x & y;
			break;
		case VGPU_OP_OR:
			r[in->a] = x | y;
			break;
		case VGPU_OP_XOR:
			r[in->a] = x ^ y;
			break;
		case VGPU_OP_SHL:
			r[in->a] = x << (y & 31);
			break;
		case VGPU_OP_SHR:
			r[in->a] = x >> (y & 31);
			break;
		case VGPU_OP_SRA:
			r[in->a] = (u32)((s32)x >> (y & 31));
			break;
		case VGPU_OP_UDIV:
			r[in->a] = y ? x / y : ~0U;
			break;
		case VGPU_OP_UREM:
			r[in->a] = y ? x % y : x;
			break;
		case VGPU_OP_ISETP: {
			s32 sx = x, sy = y;

			pr[in->a] = in->imm == VGPU_COND_EQ ? sx == sy :
				    in->imm == VGPU_COND_NE ? sx != sy :
				    in->imm == VGPU_COND_LT ? sx < sy :
				    in->imm == VGPU_COND_LE ? sx <= sy :
				    in->imm == VGPU_COND_GT ? sx > sy : sx >= sy;
			break;
		}
		case VGPU_OP_BRP:
			if (pr[in->a] != !!in->b)
				pc = VGPU_BRP_TARGET(in->imm);
			break;
		case VGPU_OP_JMP:
			pc = in->imm;
			break;
		default:
			return -EINVAL;
		}
	}
	return -ETIME;
}

TEST(random_programs_match_scalar)
{
	VGPU_TEST_BIG struct tl_gen g;
	VGPU_TEST_BIG struct tl t;
	u32 k, e, l, r, count, deepest, most = 0;
	struct vgpu_isa_error err;
	u32 ref[TL_REGS];

	for (k = 0; k < 3000; k++) {
		memset(&g, 0, sizeof(g));
		tg_emit(&g, S2R(0, VGPU_SR_LANE));
		tg_emit(&g, MOVI(20, 3));
		tg_emit(&g, MOVI(21, 0));
		for (r = 1; r < 8; r++)	/* lane-dependent starting values */
			tg_emit(&g, INSN(VGPU_OP_IMUL, r, 0, 0, 0));
		for (r = 1; r < 8; r++)
			tg_emit(&g, IADDI(r, r, tl_rand() % 7));
		tg_block(&g, 0);
		tg_block(&g, 0);
		for (e = 0; e < g.nexits; e++)
			g.p[g.exits[e]].imm = VGPU_BRP_IMM(g.n, VGPU_BRP_JOIN(g.p[g.exits[e]].imm));
		g.p[g.n++] = EXIT_I;
		ASSERT_EQ(0, vgpu_isa_validate_flags(g.p, g.n, VGPU_ISA_FUNCTIONAL, &err))
			TH_LOG("program %u: rule %u at %u", k, err.rule, err.index);

		tl_init(&t, k & 1 ? ALL : tl_rand() | 1);
		t.env.nregs = TL_REGS;
		ASSERT_EQ(0, tl_run(&t, g.p, g.n, 10000000, &count, &deepest))
			TH_LOG("program %u", k);
		EXPECT_EQ(0U, t.st.live);
		most = max(most, deepest);
		for (l = 0; l < 32; l++) {
			memset(ref, 0, sizeof(ref));
			ASSERT_EQ(0, tg_scalar(g.p, g.n, l, ref));
			if (!((t.st.stack[0].mask >> l) & 1))
				continue;	/* not a thread of the warp */
			for (r = 1; r < 13; r++)
				if (t.regs[r * 32 + l] != ref[r])
					break;
			if (r < 13)
				EXPECT_EQ(ref[r], t.regs[r * 32 + l])
					TH_LOG("program %u lane %u r%u", k, l, r);
		}
	}
	/* the programs did diverge, and nest */
	EXPECT_GE(most, 4U);
}

/*
 * A block driver for the examples: the warps of every block of a grid
 * take turns issuing one instruction each, like warps of one SM; BAR
 * waits for every live warp of the block; the log is applied every
 * @epoch instructions and whenever no warp can issue.
 */
struct tl_grid {
	const struct vgpu_insn *prog;
	u32 n;
	u32 blocks;
	u32 threads;
	u32 nregs;
	u32 smem;
	u32 epoch;
	u32 log_cap;
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS];
};

enum { TL_RUN, TL_BAR, TL_PARK, TL_DONE };

static int tl_grid_run(const struct tl_grid *g, u64 *issued)
{
	u32 wpb = DIV_ROUND_UP(g->threads, 32), nw = g->blocks * wpb;
	struct vgpu_lane_state *st = calloc(nw, sizeof(*st));
	struct vgpu_lane_env *env = calloc(nw, sizeof(*env));
	u32 *regs = calloc((size_t)nw * g->nregs * 32, sizeof(u32));
	u8 *smem = calloc((size_t)g->blocks, g->smem ? g->smem : 1);
	u8 *wstate = calloc(nw, 1);
	u16 *pc = calloc(nw, sizeof(*pc));
	struct vgpu_lane_log log = {
		.e = calloc(g->log_cap, sizeof(*log.e)), .cap = g->log_cap,
	};
	u32 w, b, k, since = 0, done = 0;
	int ret = 0;

	*issued = 0;
	if (!st || !env || !regs || !smem || !wstate || !pc || !log.e) {
		ret = -ENOMEM;
		goto out;
	}
	for (w = 0; w < nw; w++) {
		u32 wid = w % wpb, left = g->threads - wid * 32;

		b = w / wpb;
		vgpu_lane_state_init(&st[w], left >= 32 ? ALL : BIT(left) - 1);
		env[w].regs = &regs[(size_t)w * g->nregs * 32];
		env[w].nregs = g->nregs;
		env[w].smem = g->smem ? &smem[(size_t)b * g->smem] : NULL;
		env[w].smem_size = g->smem;
		memcpy(env[w].slot, g->slot, sizeof(g->slot));
		env[w].sr = (struct vgpu_lane_sregs){
			.warp = wid, .warp_size = 32, .ntid = g->threads,
			.ctaid = b, .nctaid = g->blocks,
		};
		env[w].log = &log;
	}
	while (done < nw) {
		u32 progress = 0;

		for (w = 0; w < nw && !ret; w++) {
			const struct vgpu_insn *in = &g->prog[pc[w]];

			if (wstate[w] != TL_RUN)
				continue;
			progress++;
			(*issued)++;
			if (in->op == VGPU_OP_EXIT) {
				if (vgpu_lane_exit(&st[w], &pc[w])) {
					wstate[w] = TL_DONE;
					done++;
				}
			} else if (in->op == VGPU_OP_BAR) {
				if (!vgpu_lane_bar_ok(&st[w])) {
					ret = -EDEADLK;
					break;
				}
				wstate[w] = TL_BAR;
			} else {
				ret = vgpu_lane_exec(&env[w], &st[w], g->prog, g->n,
						     &pc[w]);
				if (ret == VGPU_LANE_PARK)
					wstate[w] = TL_PARK;
				if (ret == VGPU_LANE_PARK || ret == VGPU_LANE_RETRY) {
					if (ret == VGPU_LANE_RETRY)
						since = g->epoch;
					ret = 0;
				}
			}
			/* a block whose live warps all wait at BAR goes on */
			b = w / wpb;
			for (k = b * wpb; k < (b + 1) * wpb; k++)
				if (wstate[k] != TL_BAR && wstate[k] != TL_DONE)
					break;
			if (k == (b + 1) * wpb) {
				for (k = b * wpb; k < (b + 1) * wpb; k++) {
					if (wstate[k] != TL_BAR)
						continue;
					wstate[k] = TL_RUN;
					pc[k]++;
					vgpu_lane_reconverge(&st[k], &pc[k]);
				}
			}
			if (++since >= g->epoch) {
				vgpu_lane_log_apply(&log);
				for (k = 0; k < nw; k++)
					if (wstate[k] == TL_PARK)
						wstate[k] = TL_RUN;
				since = 0;
			}
		}
		if (ret)
			break;
		if (!progress) {
			for (k = 0; k < nw; k++)
				if (wstate[k] == TL_PARK)
					break;
			if (k == nw && !log.n) {
				ret = -EDEADLK;
				break;
			}
			vgpu_lane_log_apply(&log);
			for (k = 0; k < nw; k++)
				if (wstate[k] == TL_PARK)
					wstate[k] = TL_RUN;
			since = 0;
		}
		if (*issued > 100000000ULL) {
			ret = -ETIME;
			break;
		}
	}
	vgpu_lane_log_apply(&log);
out:
	free(st);
	free(env);
	free(regs);
	free(smem);
	free(wstate);
	free(pc);
	free(log.e);
	return ret;
}

/* Assemble an example; 0 or the assembler's error, logged. */
static int tl_example(struct __test_metadata *_metadata, const char *name,
		      struct vgpu_vasm_prog *p, struct vgpu_isa_summary *sum)
{
	char path[128], err[256];
	int ret;

	snprintf(path, sizeof(path), "examples/vasm/%s.vasm", name);
	ret = vgpul_vasm_assemble_file(path, 0, p, err, sizeof(err));
	if (ret) {
		TH_LOG("%s", err);
		return ret;
	}
	return vgpu_isa_summarize_flags(p->insns, p->n, VGPU_ISA_FUNCTIONAL, sum);
}

#define TL_SLOT(buf, flags) \
	((struct vgpu_lane_slot){ (u8 *)(buf), sizeof(buf), (flags) })

/* Epoch lengths and log sizes every example runs with: same results. */
static const u32 tl_epochs[][2] = { { 1, 32 }, { 7, 32 }, { 1000, 4096 } };

/* examples/vasm/vector_add.vasm: 1000 floats, 8 blocks of 128. */
TEST(example_vector_add)
{
	static float a[1024], b[1024], c[1024], want[1024];
	static u32 par[4];
	struct vgpu_isa_summary sum;
	struct vgpu_vasm_prog p;
	struct tl_grid g = { 0 };
	unsigned int i, e;
	u64 issued;

	ASSERT_EQ(0, tl_example(_metadata, "vector_add", &p, &sum));
	EXPECT_TRUE(sum.uses_branch);
	EXPECT_EQ(0xfU, sum.slot_mask);
	for (i = 0; i < 1024; i++) {
		a[i] = (float)i * 0.25f - 100.0f;
		b[i] = 1.0f / (float)(i + 1);
		want[i] = i < 1000 ? a[i] + b[i] : -1.0f;
	}
	par[0] = 1000;
	g = (struct tl_grid){
		.prog = p.insns, .n = p.n, .blocks = 8, .threads = 128,
		.nregs = sum.max_reg + 1,
	};
	g.slot[0] = TL_SLOT(a, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[1] = TL_SLOT(b, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[2] = TL_SLOT(c, 0);
	g.slot[3] = TL_SLOT(par, VGPU_LANE_SLOT_CONSTANT);
	for (e = 0; e < ARRAY_SIZE(tl_epochs); e++) {
		for (i = 0; i < 1024; i++)
			c[i] = -1.0f;
		g.epoch = tl_epochs[e][0];
		g.log_cap = tl_epochs[e][1];
		ASSERT_EQ(0, tl_grid_run(&g, &issued));
		EXPECT_EQ(0, memcmp(c, want, sizeof(c))) TH_LOG("epoch %u", g.epoch);
	}
	vgpul_vasm_free(&p);
}

/* examples/vasm/reduce.vasm: 4 blocks of 256 integers, block sums, total. */
TEST(example_reduce)
{
	static u32 in[1024], out[4], total[1];
	u32 want[4] = { 0 }, all = 0;
	struct vgpu_isa_summary sum;
	struct vgpu_vasm_prog p;
	struct tl_grid g;
	unsigned int i, e;
	u64 issued;

	ASSERT_EQ(0, tl_example(_metadata, "reduce", &p, &sum));
	EXPECT_TRUE(sum.uses_atomic);
	EXPECT_TRUE(sum.uses_bar);
	for (i = 0; i < 1024; i++) {
		in[i] = i * 2654435761U >> 12;
		want[i / 256] += in[i];
		all += in[i];
	}
	g = (struct tl_grid){
		.prog = p.insns, .n = p.n, .blocks = 4, .threads = 256,
		.nregs = sum.max_reg + 1, .smem = 256 * 4,
	};
	g.slot[0] = TL_SLOT(in, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[1] = TL_SLOT(out, 0);
	g.slot[2] = TL_SLOT(total, 0);
	for (e = 0; e < ARRAY_SIZE(tl_epochs); e++) {
		memset(out, 0, sizeof(out));
		total[0] = 0;
		g.epoch = tl_epochs[e][0];
		g.log_cap = tl_epochs[e][1];
		ASSERT_EQ(0, tl_grid_run(&g, &issued));
		EXPECT_EQ(0, memcmp(out, want, sizeof(out)));
		EXPECT_EQ(all, total[0]);
	}
	vgpul_vasm_free(&p);
}

/* examples/vasm/matmul.vasm: 48 x 32 = (48 x 64) * (64 x 32), fused. */
TEST(example_matmul)
{
	enum { M = 48, N = 32, K = 64 };
	static float A[M * K], B[K * N], C[M * N], want[M * N];
	static u32 par[4];
	struct vgpu_isa_summary sum;
	struct vgpu_vasm_prog p;
	struct tl_grid g;
	unsigned int i, j, k, e;
	u64 issued;

	ASSERT_EQ(0, tl_example(_metadata, "matmul", &p, &sum));
	for (i = 0; i < M * K; i++)
		A[i] = (float)((int)(i * 37 % 101) - 50) / 16.0f + 0.001f * (float)i;
	for (i = 0; i < K * N; i++)
		B[i] = (float)((int)(i * 53 % 89) - 44) / 8.0f - 0.002f * (float)i;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			u32 acc = 0;

			for (k = 0; k < K; k++)
				acc = vgpu_hf32_fma(tl_f(A[i * K + k]),
						    tl_f(B[k * N + j]), acc);
			memcpy(&want[i * N + j], &acc, sizeof(acc));
		}
	par[0] = K;
	par[1] = N;
	par[2] = N / 16;
	g = (struct tl_grid){
		.prog = p.insns, .n = p.n, .blocks = (M / 16) * (N / 16),
		.threads = 256, .nregs = sum.max_reg + 1, .smem = 2048,
	};
	g.slot[0] = TL_SLOT(A, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[1] = TL_SLOT(B, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[2] = TL_SLOT(C, 0);
	g.slot[3] = TL_SLOT(par, VGPU_LANE_SLOT_CONSTANT);
	for (e = 0; e < ARRAY_SIZE(tl_epochs); e++) {
		memset(C, 0, sizeof(C));
		g.epoch = tl_epochs[e][0];
		g.log_cap = tl_epochs[e][1];
		ASSERT_EQ(0, tl_grid_run(&g, &issued));
		EXPECT_EQ(0, memcmp(C, want, sizeof(C)));
	}
	vgpul_vasm_free(&p);
}

/* examples/vasm/histogram.vasm: 3000 values, 5 blocks of 96, 16 bins. */
TEST(example_histogram)
{
	static u32 in[3000], hist[16], par[1];
	u32 want[16] = { 0 };
	struct vgpu_isa_summary sum;
	struct vgpu_vasm_prog p;
	struct tl_grid g;
	unsigned int i, e;
	u64 issued;

	ASSERT_EQ(0, tl_example(_metadata, "histogram", &p, &sum));
	for (i = 0; i < 3000; i++) {
		in[i] = (i * i * 7 + i / 3) ^ (i >> 2);
		want[in[i] & 15]++;
	}
	par[0] = 3000;
	g = (struct tl_grid){
		.prog = p.insns, .n = p.n, .blocks = 5, .threads = 96,
		.nregs = sum.max_reg + 1, .smem = 64,
	};
	g.slot[0] = TL_SLOT(in, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[1] = TL_SLOT(hist, 0);
	g.slot[2] = TL_SLOT(par, VGPU_LANE_SLOT_CONSTANT);
	for (e = 0; e < ARRAY_SIZE(tl_epochs); e++) {
		memset(hist, 0, sizeof(hist));
		g.epoch = tl_epochs[e][0];
		g.log_cap = tl_epochs[e][1];
		ASSERT_EQ(0, tl_grid_run(&g, &issued));
		EXPECT_EQ(0, memcmp(hist, want, sizeof(hist)));
	}
	vgpul_vasm_free(&p);
}

/* examples/vasm/scan.vasm: inclusive prefix sums of 2 blocks of 256. */
TEST(example_scan)
{
	static u32 in[512], out[512];
	u32 want[512];
	struct vgpu_isa_summary sum;
	struct vgpu_vasm_prog p;
	struct tl_grid g;
	unsigned int i, e;
	u64 issued;

	ASSERT_EQ(0, tl_example(_metadata, "scan", &p, &sum));
	for (i = 0; i < 512; i++) {
		in[i] = (i * 7919) % 1000;
		want[i] = in[i] + (i % 256 ? want[i - 1] : 0);
	}
	g = (struct tl_grid){
		.prog = p.insns, .n = p.n, .blocks = 2, .threads = 256,
		.nregs = sum.max_reg + 1, .smem = 2 * 256 * 4,
	};
	g.slot[0] = TL_SLOT(in, VGPU_LANE_SLOT_READ_ONLY);
	g.slot[1] = TL_SLOT(out, 0);
	for (e = 0; e < ARRAY_SIZE(tl_epochs); e++) {
		memset(out, 0, sizeof(out));
		g.epoch = tl_epochs[e][0];
		g.log_cap = tl_epochs[e][1];
		ASSERT_EQ(0, tl_grid_run(&g, &issued));
		EXPECT_EQ(0, memcmp(out, want, sizeof(out)));
	}
	vgpul_vasm_free(&p);
}
#endif /* !__KERNEL__ */

VGPU_TEST_SUITE(lane,
	VGPU_CASE(integer_ops)
	VGPU_CASE(inactive_lanes_untouched)
	VGPU_CASE(mov_class)
	VGPU_CASE(float_ops)
	VGPU_CASE(compares)
	VGPU_CASE(memory)
	VGPU_CASE(shared_atomics)
	VGPU_CASE(global_log)
	VGPU_CASE(log_full_retry)
	VGPU_CASE(faults)
	VGPU_CASE(if_else)
	VGPU_CASE(uniform_branch_and_bar)
	VGPU_CASE(reconverge_after_engine_step)
	VGPU_CASE(divergent_loop)
	VGPU_CASE(nested_divergence_and_overflow)
	VGPU_CASE(partial_exit)
	VGPU_NATIVE(soft_float_equals_hardware)
	VGPU_NATIVE(random_programs_match_scalar)
	VGPU_NATIVE(example_vector_add)
	VGPU_NATIVE(example_reduce)
	VGPU_NATIVE(example_matmul)
	VGPU_NATIVE(example_histogram)
	VGPU_NATIVE(example_scan))
