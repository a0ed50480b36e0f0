// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/core/isa.c: the virtual ISA validator, summary and
 * loop-count helpers (F04, with the BAR rule of F23/F34 and the LOCK
 * rules of F35).  Every rejection test starts from a valid program, shows
 * it is accepted, then breaks exactly one rule and checks the rule code and
 * the instruction index.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/vgpu_dispatch.h>

#include "vgpu_test.h"
#include "isa.h"

#define INSN(o, A, B, C, IMM) \
	((struct vgpu_insn){ .op = (o), .a = (A), .b = (B), .c = (C), .imm = (IMM) })
#define OP(o)		INSN(o, 0, 0, 0, 0)
#define MOV		OP(VGPU_OP_MOV)
#define LOAD		OP(VGPU_OP_LOAD)
#define STORE		OP(VGPU_OP_STORE)
#define MMA		OP(VGPU_OP_MMA)
#define CMP		OP(VGPU_OP_CMP)
#define BRA		OP(VGPU_OP_BRA)
#define ALU		OP(VGPU_OP_ALU)
#define ENDLOOP		OP(VGPU_OP_ENDLOOP)
#define BAR		OP(VGPU_OP_BAR)
#define SPIN		OP(VGPU_OP_SPIN)
#define EXIT		OP(VGPU_OP_EXIT)
#define LOCK(m)		INSN(VGPU_OP_LOCK, m, 0, 0, 0)
#define UNLOCK(m)	INSN(VGPU_OP_UNLOCK, m, 0, 0, 0)
#define LOOP(n)		INSN(VGPU_OP_LOOP, 0, 0, 0, VGPU_LOOP_IMM(n, 0))
#define LOOPX(sel, mod, base, step) \
	INSN(VGPU_OP_LOOP, sel, mod, 0, VGPU_LOOP_IMM(base, step))
#define WID		VGPU_LOOP_SEL_WID
#define BID		VGPU_LOOP_SEL_BID

/* The program (a compound literal list) is valid. */
#define ACCEPT(...) do {						\
	const struct vgpu_insn p_[] = { __VA_ARGS__ };			\
	struct vgpu_isa_error e_ = { 99, 99 };				\
	EXPECT_EQ(0, vgpu_isa_validate(p_, ARRAY_SIZE(p_), &e_));	\
	EXPECT_EQ(VGPU_ISA_OK, e_.rule);				\
} while (0)

/* The program is rejected with exactly this rule at this index. */
#define REJECT(rule_, index_, ...) do {					\
	const struct vgpu_insn p_[] = { __VA_ARGS__ };			\
	struct vgpu_isa_error e_ = { 99, 99 };				\
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(p_, ARRAY_SIZE(p_), &e_));	\
	EXPECT_EQ(rule_, e_.rule);					\
	EXPECT_EQ(index_, e_.index);					\
} while (0)

/* F04: every opcode validates and the summary counts it. */
TEST(every_opcode)
{
	const struct vgpu_insn p[] = {
		MOV, LOAD, STORE, MMA, CMP, BRA, ALU,
		LOOPX(BID, 5, 2, 3), ALU, ENDLOOP,
		BAR, LOCK(15), UNLOCK(15), SPIN, EXIT,
	};
	struct vgpu_isa_summary s;
	struct vgpu_isa_error e;
	int i;

	ASSERT_EQ(0, vgpu_isa_validate(p, ARRAY_SIZE(p), &e));
	ASSERT_EQ(0, vgpu_isa_summarize(p, ARRAY_SIZE(p), &s));
	EXPECT_EQ(ARRAY_SIZE(p), s.n_insns);
	for (i = 0; i < VGPU_ISA_NUM_CLASSES; i++)
		EXPECT_EQ(i == VGPU_OP_ALU - VGPU_OP_MOV ? 2 : 1,
			  s.class_count[i]);
	EXPECT_EQ(1, s.n_loops);
	EXPECT_EQ(1, s.max_depth);
	EXPECT_EQ(1U << 15, s.mutex_mask);
	EXPECT_TRUE(s.uses_bar);
	EXPECT_TRUE(s.uses_lock);
	EXPECT_TRUE(s.uses_spin);
	EXPECT_FALSE(s.wid_dependent);
	EXPECT_TRUE(s.bid_dependent);
	/* 7 + LOOP + (2 + 3 * 4) * (ALU + ENDLOOP) + 5 */
	EXPECT_EQ(7 + 1 + 14 * 2 + 5, s.max_dyn_insns);
}

TEST(opcode_class_and_names)
{
	static const u8 timed[] = {
		VGPU_OP_MOV, VGPU_OP_LOAD, VGPU_OP_STORE, VGPU_OP_MMA,
		VGPU_OP_CMP, VGPU_OP_BRA, VGPU_OP_ALU,
	};
	int i, known = 0;

	for (i = 0; i < (int)ARRAY_SIZE(timed); i++)
		EXPECT_EQ(i, vgpu_isa_class(timed[i]));
	EXPECT_EQ(-1, vgpu_isa_class(VGPU_OP_LOOP));
	EXPECT_EQ(-1, vgpu_isa_class(0));
	EXPECT_STREQ("MOV", vgpu_isa_op_name(VGPU_OP_MOV));
	EXPECT_STREQ("ENDLOOP", vgpu_isa_op_name(VGPU_OP_ENDLOOP));
	for (i = 0; i < 256; i++)
		known += vgpu_isa_op_name(i) != NULL;
	/* 16 of the base ISA, 42 functional */
	EXPECT_EQ(16 + 42, known);
	for (i = 0; i < 256; i++)
		EXPECT_EQ(i >= VGPU_OP_FUNC_FIRST && vgpu_isa_op_name(i),
			  vgpu_isa_is_functional(i));
	EXPECT_STREQ("LAUNCH", vgpu_isa_op_name(VGPU_OP_LAUNCH));
	EXPECT_STREQ("PUSH", vgpu_isa_op_name(VGPU_OP_PUSH));
	/* opcode space is not full: later opcodes fit */
	EXPECT_EQ(NULL, vgpu_isa_op_name(0x29));
	for (i = 0; i <= VGPU_ISA_ERR_MAX; i++)
		EXPECT_NE(NULL, vgpu_isa_rule_str(i));
	EXPECT_STREQ("unknown rule", vgpu_isa_rule_str(VGPU_ISA_ERR_MAX + 1));
}

/* F04: loop counts depending on block and warp index. */
TEST(loop_count_index_dependent)
{
	const struct vgpu_insn c8 = LOOP(8);
	const struct vgpu_insn w = LOOPX(WID, 4, 10, 10);	/* 10*(1+wid%4) */
	const struct vgpu_insn b = LOOPX(BID, 3, 0, 1);	/* bid%3 */
	const struct vgpu_insn b2 = LOOPX(BID, 7, 5, 2);	/* 5+2*(bid%7) */
	const struct vgpu_insn alu = ALU;
	static const u32 wids[] = { 0, 1, 2, 3, 4, 5, 31, 1023 };
	static const u32 bids[] = { 0, 1, 2, 3, 4, 100, 65535, 0xffffffff };
	int i, j;

	for (i = 0; i < (int)ARRAY_SIZE(bids); i++) {
		for (j = 0; j < (int)ARRAY_SIZE(wids); j++) {
			u32 bid = bids[i], wid = wids[j];

			EXPECT_EQ(8, vgpu_isa_loop_count(&c8, bid, wid));
			EXPECT_EQ(10 * (1 + wid % 4),
				  vgpu_isa_loop_count(&w, bid, wid));
			EXPECT_EQ(bid % 3, vgpu_isa_loop_count(&b, bid, wid));
			EXPECT_EQ(5 + 2 * (bid % 7),
				  vgpu_isa_loop_count(&b2, bid, wid));
			EXPECT_EQ(0, vgpu_isa_loop_count(&alu, bid, wid));
		}
	}
	EXPECT_EQ(10, vgpu_isa_loop_count(&w, 0, 4));
	EXPECT_EQ(40, vgpu_isa_loop_count(&w, 9, 7));
	EXPECT_EQ(8, vgpu_isa_loop_max(&c8));
	EXPECT_EQ(40, vgpu_isa_loop_max(&w));
	EXPECT_EQ(2, vgpu_isa_loop_max(&b));
	EXPECT_EQ(17, vgpu_isa_loop_max(&b2));
	EXPECT_EQ(0, vgpu_isa_loop_max(&alu));
}

TEST(summary_and_link)
{
	const struct vgpu_insn p[] = {
		LOAD,				/* 0 */
		LOOPX(WID, 4, 10, 10),		/* 1 */
			LOOP(8),		/* 2 */
				ALU,		/* 3 */
			ENDLOOP,		/* 4 */
			LOOP(0),		/* 5 */
				MMA,		/* 6 */
			ENDLOOP,		/* 7 */
		ENDLOOP,			/* 8 */
		EXIT,				/* 9 */
	};
	static const u16 want[] = { 0, 8, 4, 3, 2, 7, 6, 5, 1, 9 };
	struct vgpu_isa_summary s;
	u16 match[ARRAY_SIZE(p)];
	int i;

	ASSERT_EQ(0, vgpu_isa_summarize(p, ARRAY_SIZE(p), &s));
	EXPECT_EQ(3, s.n_loops);
	EXPECT_EQ(2, s.max_depth);
	EXPECT_TRUE(s.wid_dependent);
	EXPECT_FALSE(s.bid_dependent);
	EXPECT_FALSE(s.uses_bar);
	EXPECT_FALSE(s.uses_lock);
	EXPECT_EQ(0, s.mutex_mask);
	/* 1 + 1 + 40 * (LOOP + 8 * 2 + LOOP + 0 + 0 + ENDLOOP) + 1 */
	EXPECT_EQ(1 + 1 + 40 * (1 + 16 + 1 + 1) + 1, s.max_dyn_insns);
	ASSERT_EQ(0, vgpu_isa_link(p, ARRAY_SIZE(p), match));
	for (i = 0; i < (int)ARRAY_SIZE(p); i++)
		EXPECT_EQ(want[i], match[i]);

	/* an invalid program: -EINVAL, zeroed summary, no link */
	s.n_insns = 1234;
	EXPECT_EQ(-EINVAL, vgpu_isa_summarize(p, ARRAY_SIZE(p) - 1, &s));
	EXPECT_EQ(0, s.n_insns);
	EXPECT_EQ(-EINVAL, vgpu_isa_link(p, ARRAY_SIZE(p) - 1, match));
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(p, ARRAY_SIZE(p) - 1, NULL));
}

/* Rule VGPU_ISA_ERR_LENGTH: 1..4096 instructions. */
TEST(reject_length)
{
	struct vgpu_insn *p = calloc(VGPU_ISA_MAX_INSNS + 1, sizeof(*p));
	struct vgpu_isa_error e;
	int i;

	ASSERT_NE(NULL, p);
	for (i = 0; i <= VGPU_ISA_MAX_INSNS; i++)
		p[i] = ALU;
	p[VGPU_ISA_MAX_INSNS - 1] = EXIT;
	EXPECT_EQ(0, vgpu_isa_validate(p, VGPU_ISA_MAX_INSNS, &e));
	p[VGPU_ISA_MAX_INSNS - 1] = ALU;
	p[VGPU_ISA_MAX_INSNS] = EXIT;
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(p, VGPU_ISA_MAX_INSNS + 1, &e));
	EXPECT_EQ(VGPU_ISA_ERR_LENGTH, e.rule);
	EXPECT_EQ(VGPU_ISA_MAX_INSNS, e.index);
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(p, 0, &e));
	EXPECT_EQ(VGPU_ISA_ERR_LENGTH, e.rule);
	EXPECT_EQ(0, e.index);
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(NULL, 0, &e));
	EXPECT_EQ(-EINVAL, vgpu_isa_validate(p, 0xffffffff, &e));
	EXPECT_EQ(VGPU_ISA_ERR_LENGTH, e.rule);
	free(p);
}

/* Rule VGPU_ISA_ERR_OPCODE. */
TEST(reject_opcode)
{
	ACCEPT(ALU, EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0x00), EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0x08), EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0x1f), EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0x29), EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0x40), EXIT);
	REJECT(VGPU_ISA_ERR_OPCODE, 1, ALU, OP(0xff), EXIT);
}

/* PUSH (F14): 1..VGPU_MAX_QUEUE_ITEMS items, every other field zero. */
TEST(push_items)
{
	ACCEPT(INSN(VGPU_OP_PUSH, 0, 0, 0, 1), EXIT);
	ACCEPT(INSN(VGPU_OP_PUSH, 0, 0, 0, VGPU_MAX_QUEUE_ITEMS), EXIT);
	REJECT(VGPU_ISA_ERR_PUSH, 0, INSN(VGPU_OP_PUSH, 0, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_PUSH, 1, ALU,
	       INSN(VGPU_OP_PUSH, 0, 0, 0, VGPU_MAX_QUEUE_ITEMS + 1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_PUSH, 1, 0, 0, 4), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_PUSH, 0, 1, 0, 4), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_PUSH, 0, 0, 1, 4), EXIT);
}

/* Rule VGPU_ISA_ERR_RESERVED: every unused field must be zero. */
TEST(reject_reserved)
{
	ACCEPT(ALU, LOOP(2), BAR, ENDLOOP, LOCK(1), UNLOCK(1), SPIN, EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_ALU, 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MOV, 0, 1, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MMA, 0, 0, 1, 0), EXIT);
	/* MMA's a is its size, log2 tiles, 0..VGPU_MMA_SIZE_MAX (F25) */
	ACCEPT(INSN(VGPU_OP_MMA, VGPU_MMA_SIZE_MAX, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0,
	       INSN(VGPU_OP_MMA, VGPU_MMA_SIZE_MAX + 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MMA, 1, 1, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MMA, 1, 0, 0, 1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_LOAD, 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BRA, 0, 0, 0, 1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU,
	       INSN(VGPU_OP_LOOP, 0, 0, 1, 2), BAR, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 3, ALU, LOOP(2), BAR,
	       INSN(VGPU_OP_ENDLOOP, 0, 0, 0, 0x80000000), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BAR, 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_LOCK, 1, 1, 0, 0),
	       UNLOCK(1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 1, LOCK(1),
	       INSN(VGPU_OP_UNLOCK, 1, 0, 0, 7), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_SPIN, 0, 0, 1, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU, INSN(VGPU_OP_EXIT, 0, 1, 0, 0));
	/* each field alone, where every field is unused */
	REJECT(VGPU_ISA_ERR_RESERVED, 2, LOOP(2), ALU,
	       INSN(VGPU_OP_ENDLOOP, 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 2, LOOP(2), ALU,
	       INSN(VGPU_OP_ENDLOOP, 0, 1, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 2, LOOP(2), ALU,
	       INSN(VGPU_OP_ENDLOOP, 0, 0, 1, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BAR, 0, 1, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BAR, 0, 0, 1, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BAR, 0, 0, 0, 1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_SPIN, 1, 0, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_SPIN, 0, 1, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_SPIN, 0, 0, 0, 1), EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU, INSN(VGPU_OP_EXIT, 1, 0, 0, 0));
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU, INSN(VGPU_OP_EXIT, 0, 0, 1, 0));
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU, INSN(VGPU_OP_EXIT, 0, 0, 0, 1));
}

/* Rule VGPU_ISA_ERR_OPERAND: LOOP selector and modulus. */
TEST(reject_operand)
{
	ACCEPT(LOOPX(WID, 4, 1, 1), ALU, ENDLOOP, EXIT);
	ACCEPT(LOOPX(BID, 1, 3, 7), ALU, ENDLOOP, EXIT);
	/* F14: selector 3 is the block's work items */
	ACCEPT(LOOPX(VGPU_LOOP_SEL_ITEMS, 4, 1, 1), ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(4, 4, 1, 1), ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(VGPU_LOOP_SEL_ITEMS, 0, 1, 1),
	       ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(0xff, 4, 1, 1), ALU, ENDLOOP,
	       EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(WID, 0, 1, 1), ALU, ENDLOOP,
	       EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(0, 4, 1, 0), ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_OPERAND, 0, LOOPX(0, 0, 1, 1), ALU, ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_LOOP_COUNT: at most 65535 iterations for any index. */
TEST(reject_loop_count)
{
	ACCEPT(LOOP(65535), ENDLOOP, EXIT);
	ACCEPT(LOOPX(WID, 2, 65534, 1), ENDLOOP, EXIT);
	ACCEPT(LOOPX(BID, 255, 0, 257), ENDLOOP, EXIT);	/* 254 * 257 */
	REJECT(VGPU_ISA_ERR_LOOP_COUNT, 1, ALU, LOOPX(WID, 2, 65535, 1),
	       ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_LOOP_COUNT, 1, ALU, LOOPX(BID, 255, 0, 259),
	       ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_LOOP_COUNT, 1, ALU,
	       LOOPX(BID, 255, 65535, 65535), ENDLOOP, EXIT);
	/* F14: a block has at most 128 items, whatever the modulus */
	ACCEPT(LOOPX(VGPU_LOOP_SEL_ITEMS, 255, 0, 511), ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_LOOP_COUNT, 0,
	       LOOPX(VGPU_LOOP_SEL_ITEMS, 255, 0, 513), ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_NESTING: at most 8 nested loops. */
TEST(reject_nesting)
{
	ACCEPT(LOOP(1), LOOP(1), LOOP(1), LOOP(1), LOOP(1), LOOP(1), LOOP(1),
	       LOOP(1), ALU, ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP,
	       ENDLOOP, ENDLOOP, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_NESTING, 8, LOOP(1), LOOP(1), LOOP(1), LOOP(1),
	       LOOP(1), LOOP(1), LOOP(1), LOOP(1), LOOP(1), ALU, ENDLOOP,
	       ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP, ENDLOOP,
	       ENDLOOP, EXIT);
	/* sequential loops do not nest */
	ACCEPT(LOOP(1), ENDLOOP, LOOP(1), ENDLOOP, LOOP(1), ENDLOOP, LOOP(1),
	       ENDLOOP, LOOP(1), ENDLOOP, LOOP(1), ENDLOOP, LOOP(1), ENDLOOP,
	       LOOP(1), ENDLOOP, LOOP(1), ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_ENDLOOP: ENDLOOP without LOOP. */
TEST(reject_endloop)
{
	ACCEPT(LOOP(2), ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_ENDLOOP, 1, ALU, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_ENDLOOP, 3, LOOP(2), ALU, ENDLOOP, ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_UNCLOSED: LOOP without ENDLOOP (innermost reported). */
TEST(reject_unclosed)
{
	ACCEPT(ALU, LOOP(2), LOOP(3), ALU, ENDLOOP, ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_UNCLOSED, 1, ALU, LOOP(2), LOOP(3), ALU, ENDLOOP,
	       EXIT);
	REJECT(VGPU_ISA_ERR_UNCLOSED, 2, ALU, LOOP(2), LOOP(3), ALU, EXIT);
}

/* Rule VGPU_ISA_ERR_MUTEX_ID: ids 0..VGPU_ISA_MAX_MUTEX-1. */
TEST(reject_mutex_id)
{
	ACCEPT(LOCK(15), UNLOCK(15), LOCK(0), UNLOCK(0), EXIT);
	REJECT(VGPU_ISA_ERR_MUTEX_ID, 0, LOCK(16), UNLOCK(16), EXIT);
	REJECT(VGPU_ISA_ERR_MUTEX_ID, 1, LOCK(15), UNLOCK(255), EXIT);
}

/* Rule VGPU_ISA_ERR_LOCK_HELD: no recursive LOCK. */
TEST(reject_lock_held)
{
	ACCEPT(LOCK(1), LOCK(2), UNLOCK(1), UNLOCK(2), EXIT);
	REJECT(VGPU_ISA_ERR_LOCK_HELD, 2, LOCK(1), LOCK(2), LOCK(1),
	       UNLOCK(1), UNLOCK(2), EXIT);
}

/* Rule VGPU_ISA_ERR_NOT_HELD: UNLOCK only what is held. */
TEST(reject_not_held)
{
	ACCEPT(LOCK(3), ALU, UNLOCK(3), EXIT);
	REJECT(VGPU_ISA_ERR_NOT_HELD, 1, ALU, UNLOCK(3), EXIT);
	REJECT(VGPU_ISA_ERR_NOT_HELD, 2, LOCK(3), UNLOCK(3), UNLOCK(3), EXIT);
}

/* Rule VGPU_ISA_ERR_LOCK_LOOP: a loop body releases what it takes. */
TEST(reject_lock_loop)
{
	ACCEPT(LOOP(2), LOCK(0), ALU, UNLOCK(0), ENDLOOP, EXIT);
	ACCEPT(LOCK(0), LOOP(2), ALU, ENDLOOP, UNLOCK(0), EXIT);
	REJECT(VGPU_ISA_ERR_LOCK_LOOP, 3, LOOP(2), LOCK(0), ALU, ENDLOOP,
	       UNLOCK(0), EXIT);
	REJECT(VGPU_ISA_ERR_LOCK_LOOP, 4, LOCK(0), LOOP(2), ALU, UNLOCK(0),
	       ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_LOCK_EXIT: nothing held at EXIT. */
TEST(reject_lock_exit)
{
	ACCEPT(LOCK(0), ALU, UNLOCK(0), EXIT);
	REJECT(VGPU_ISA_ERR_LOCK_EXIT, 2, LOCK(0), ALU, EXIT);
}

/* Rule VGPU_ISA_ERR_BAR_LOCK: no BAR under a lock (F34 + F35 deadlock). */
TEST(reject_bar_lock)
{
	ACCEPT(LOCK(0), UNLOCK(0), BAR, EXIT);
	REJECT(VGPU_ISA_ERR_BAR_LOCK, 1, LOCK(0), BAR, UNLOCK(0), EXIT);
}

/* Rule VGPU_ISA_ERR_BAR_DIVERGENT: warps of a block agree on BAR counts. */
TEST(reject_bar_divergent)
{
	ACCEPT(LOOPX(BID, 3, 1, 1), BAR, ENDLOOP, EXIT);
	ACCEPT(LOOPX(WID, 4, 1, 1), ALU, ENDLOOP, BAR, EXIT);
	REJECT(VGPU_ISA_ERR_BAR_DIVERGENT, 1, LOOPX(WID, 4, 1, 1), BAR,
	       ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_BAR_DIVERGENT, 3, LOOPX(WID, 2, 0, 1), LOOP(3),
	       ALU, BAR, ENDLOOP, ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_EXIT_POS: EXIT only as the last instruction. */
TEST(reject_exit_pos)
{
	ACCEPT(ALU, ALU, EXIT);
	REJECT(VGPU_ISA_ERR_EXIT_POS, 1, ALU, EXIT, ALU, EXIT);
	REJECT(VGPU_ISA_ERR_EXIT_POS, 1, LOOP(2), EXIT, ENDLOOP, EXIT);
}

/* Rule VGPU_ISA_ERR_NO_EXIT: every path ends in EXIT. */
TEST(reject_no_exit)
{
	ACCEPT(SPIN, EXIT);
	REJECT(VGPU_ISA_ERR_NO_EXIT, 1, ALU, ALU);
	REJECT(VGPU_ISA_ERR_NO_EXIT, 0, SPIN);
	REJECT(VGPU_ISA_ERR_NO_EXIT, 2, LOOP(2), ALU, ENDLOOP);
}

/* Rule VGPU_ISA_ERR_DYN_COUNT: a warp runs at most 2^32 instructions. */
TEST(reject_dyn_count)
{
	const struct vgpu_insn ok[] = {
		LOOP(65535), LOOP(65534), ENDLOOP, ENDLOOP, EXIT,
	};
	struct vgpu_isa_summary s;

	ASSERT_EQ(0, vgpu_isa_summarize(ok, ARRAY_SIZE(ok), &s));
	EXPECT_EQ(1ULL + 65535 + 65535ULL * 65534 + 65535 + 1,
		  s.max_dyn_insns);
	/* exactly 2^32 + 1: the EXIT is one too many */
	REJECT(VGPU_ISA_ERR_DYN_COUNT, 4, LOOP(65535), LOOP(65535), ENDLOOP,
	       ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_DYN_COUNT, 3, LOOP(65535), LOOP(65535), LOOP(2),
	       ALU, ENDLOOP, ENDLOOP, ENDLOOP, EXIT);
	/* index-dependent counts use their maximum */
	REJECT(VGPU_ISA_ERR_DYN_COUNT, 4, LOOPX(WID, 2, 0, 65535),
	       LOOPX(BID, 2, 65535, 0), ENDLOOP, ENDLOOP, EXIT);
	/* a zero-count loop costs nothing inside */
	ACCEPT(LOOP(0), LOOP(65535), LOOP(65535), LOOP(65535), ALU, ENDLOOP,
	       ENDLOOP, ENDLOOP, ENDLOOP, EXIT);
}

/* The first violation in program order is the one reported. */
TEST(first_violation_wins)
{
	REJECT(VGPU_ISA_ERR_RESERVED, 1, ALU, INSN(VGPU_OP_ALU, 0, 0, 0, 1),
	       OP(0x99), UNLOCK(3), ALU);
	REJECT(VGPU_ISA_ERR_OPCODE, 2, ALU, ALU, OP(0x99), UNLOCK(3), ALU);
	REJECT(VGPU_ISA_ERR_UNCLOSED, 0, LOOP(1), ALU);
}

/*
 * Security boundary: only prog[0..n-1] is read, whatever the bytes say.
 * The buffers are heap-allocated to the exact size, so ASan traps any
 * read past the end.
 */
TEST(no_read_past_end)
{
	static const struct vgpu_insn tails[] = {
		LOOP(3), LOCK(0), EXIT, ENDLOOP, OP(0xff), ALU,
	};
	unsigned int seed = 12345, i, k, n;

	for (k = 0; k < 2000; k++) {
		struct vgpu_insn *p;
		struct vgpu_isa_error e;

		n = 1 + k % 40;
		p = malloc(n * sizeof(*p));
		ASSERT_NE(NULL, p);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			p[i] = tails[(seed >> 16) % ARRAY_SIZE(tails)];
		}
		if (vgpu_isa_validate(p, n, &e))
			EXPECT_LT(e.index, n);
		free(p);
	}
}

#define LAUNCH(t)	INSN(VGPU_OP_LAUNCH, t, 0, 0, 0)
#define LAUNCHW(t)	INSN(VGPU_OP_LAUNCH, t, VGPU_LAUNCH_WAIT, 0, 0)

/*
 * Rule VGPU_ISA_ERR_LAUNCH (F15): a template index below
 * VGPU_MAX_TEMPLATES, known flags, and a LAUNCH WAIT (a block-wide wait)
 * neither under a lock nor in a loop whose count depends on the warp
 * index; a LAUNCH without WAIT may be anywhere.
 */
TEST(launch)
{
	const struct vgpu_insn p[] = {
		LAUNCH(0), LOOPX(BID, 4, 1, 1), LAUNCHW(7), ENDLOOP,
		LOCK(1), LAUNCH(3), UNLOCK(1), LOOPX(WID, 2, 1, 1), LAUNCH(2),
		ENDLOOP, EXIT,
	};
	const struct vgpu_insn q[] = { LAUNCH(1), EXIT };
	struct vgpu_isa_summary s;

	ACCEPT(LAUNCH(0), EXIT);
	ACCEPT(LAUNCHW(7), EXIT);
	ASSERT_EQ(0, vgpu_isa_summarize(p, ARRAY_SIZE(p), &s));
	EXPECT_EQ(0x8d, s.launch_mask);
	EXPECT_TRUE(s.uses_launch);
	EXPECT_TRUE(s.uses_launch_wait);
	EXPECT_FALSE(s.uses_bar);
	ASSERT_EQ(0, vgpu_isa_summarize(q, ARRAY_SIZE(q), &s));
	EXPECT_EQ(0x2, s.launch_mask);
	EXPECT_FALSE(s.uses_launch_wait);
	/* template index and flags */
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, ALU, LAUNCH(VGPU_MAX_TEMPLATES), EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, ALU, LAUNCH(255), EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, ALU,
	       INSN(VGPU_OP_LAUNCH, 0, 0x2, 0, 0), EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, ALU,
	       INSN(VGPU_OP_LAUNCH, 0, 0x81, 0, 0), EXIT);
	/* reserved fields */
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_LAUNCH, 0, 0, 1, 0),
	       EXIT);
	REJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_LAUNCH, 0, 0, 0, 1),
	       EXIT);
	/* WAIT under a lock; without WAIT it is fine */
	ACCEPT(LOCK(2), LAUNCH(0), UNLOCK(2), LAUNCHW(0), EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, LOCK(2), LAUNCHW(0), UNLOCK(2), EXIT);
	/* WAIT in a warp-dependent loop, even nested; bid loops are fine */
	ACCEPT(LOOPX(WID, 4, 1, 1), LAUNCH(0), ENDLOOP, EXIT);
	ACCEPT(LOOPX(BID, 4, 1, 1), LAUNCHW(0), ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 1, LOOPX(WID, 4, 1, 1), LAUNCHW(0),
	       ENDLOOP, EXIT);
	REJECT(VGPU_ISA_ERR_LAUNCH, 2, LOOPX(WID, 4, 1, 1), LOOP(3),
	       LAUNCHW(0), ENDLOOP, ENDLOOP, EXIT);
	/* after the warp-dependent loop closed, WAIT is fine again */
	ACCEPT(LOOPX(WID, 4, 1, 1), ALU, ENDLOOP, LAUNCHW(0), EXIT);
	EXPECT_NE(NULL, strstr(vgpu_isa_rule_str(VGPU_ISA_ERR_LAUNCH),
			       "LAUNCH"));
}

/* Functional mode: validate with VGPU_ISA_FUNCTIONAL. */
#define FACCEPT(...) do {						\
	const struct vgpu_insn p_[] = { __VA_ARGS__ };			\
	struct vgpu_isa_error e_ = { 99, 99 };				\
	EXPECT_EQ(0, vgpu_isa_validate_flags(p_, ARRAY_SIZE(p_),	\
					     VGPU_ISA_FUNCTIONAL, &e_));	\
	EXPECT_EQ(VGPU_ISA_OK, e_.rule);				\
} while (0)

#define FREJECT(rule_, index_, ...) do {				\
	const struct vgpu_insn p_[] = { __VA_ARGS__ };			\
	struct vgpu_isa_error e_ = { 99, 99 };				\
	EXPECT_EQ(-EINVAL, vgpu_isa_validate_flags(p_, ARRAY_SIZE(p_),	\
						   VGPU_ISA_FUNCTIONAL, &e_)); \
	EXPECT_EQ(rule_, e_.rule);					\
	EXPECT_EQ(index_, e_.index);					\
} while (0)

#define R3(o, d, x, y)	INSN(o, d, x, y, 0)
#define BRP(p, neg, t, j) INSN(VGPU_OP_BRP, p, neg, 0, VGPU_BRP_IMM(t, j))
#define JMP(t)		INSN(VGPU_OP_JMP, 0, 0, 0, t)
#define MOVI(r, v)	INSN(VGPU_OP_MOVI, r, 0, 0, v)

/*
 * Seed 004: one of every functional opcode validates in functional mode,
 * is an unknown opcode otherwise (SUBMIT keeps rejecting them), and has
 * its class.
 */
TEST(functional_opcodes)
{
	const struct vgpu_insn p[] = {
		INSN(VGPU_OP_MOVI, 0, 0, 0, 0xdeadbeef),
		INSN(VGPU_OP_MOVR, 1, 0, 0, 0),
		INSN(VGPU_OP_S2R, 2, VGPU_SR_NITEMS, 0, 0),
		INSN(VGPU_OP_SELP, 3, 1, 2, 7),
		R3(VGPU_OP_IADD, 4, 1, 2), R3(VGPU_OP_ISUB, 4, 1, 2),
		R3(VGPU_OP_IMUL, 4, 1, 2),
		INSN(VGPU_OP_IMAD, 4, 1, 2, 254),
		R3(VGPU_OP_IMIN, 4, 1, 2), R3(VGPU_OP_IMAX, 4, 1, 2),
		R3(VGPU_OP_AND, 4, 1, 2), R3(VGPU_OP_OR, 4, 1, 2),
		R3(VGPU_OP_XOR, 4, 1, 2), R3(VGPU_OP_SHL, 4, 1, 2),
		R3(VGPU_OP_SHR, 4, 1, 2), R3(VGPU_OP_SRA, 4, 1, 2),
		INSN(VGPU_OP_IADDI, 4, 1, 0, 0xffffffff),
		R3(VGPU_OP_UDIV, 4, 1, 2), R3(VGPU_OP_UREM, 4, 1, 2),
		R3(VGPU_OP_FADD, 4, 1, 2), R3(VGPU_OP_FSUB, 4, 1, 2),
		R3(VGPU_OP_FMUL, 4, 1, 2),
		INSN(VGPU_OP_FFMA, 4, 1, 2, 3),
		R3(VGPU_OP_FMIN, 4, 1, 2), R3(VGPU_OP_FMAX, 4, 1, 2),
		R3(VGPU_OP_I2F, 4, 1, 0), R3(VGPU_OP_F2I, 4, 1, 0),
		INSN(VGPU_OP_ISETP, 7, 1, 2, VGPU_COND_GE),
		INSN(VGPU_OP_USETP, 0, 1, 2, VGPU_COND_EQ),
		INSN(VGPU_OP_FSETP, 0, 1, 2, VGPU_COND_NE),
		INSN(VGPU_OP_PLOP, 0, 7, 6, VGPU_PLOP_ANDNOT),
		INSN(VGPU_OP_LDG, 5, 15, 1, 16),
		INSN(VGPU_OP_STG, 5, 3, 1, 0),
		INSN(VGPU_OP_LDS, 5, 0, 1, 4),
		INSN(VGPU_OP_STS, 5, 0, 1, 4),
		INSN(VGPU_OP_LDC, 5, 4, 1, 0),
		INSN(VGPU_OP_LDL, 5, 0, 1, 0),
		INSN(VGPU_OP_STL, 5, 0, 1, 0),
		INSN(VGPU_OP_ATOMG, 6, 2, 1, VGPU_ATOM_IMM(9, VGPU_ATOM_CAS, 10)),
		INSN(VGPU_OP_ATOMS, 6, 0, 1, VGPU_ATOM_IMM(9, VGPU_ATOM_MAX, 0)),
		BRP(3, 1, 0, 42),
		JMP(42),
		EXIT,
	};
	static const struct {
		u8 op;
		u8 op_class;
	} cls[] = {
		{ VGPU_OP_MOVI, VGPU_OP_MOV }, { VGPU_OP_SELP, VGPU_OP_MOV },
		{ VGPU_OP_IADD, VGPU_OP_ALU }, { VGPU_OP_F2I, VGPU_OP_ALU },
		{ VGPU_OP_ISETP, VGPU_OP_CMP }, { VGPU_OP_PLOP, VGPU_OP_CMP },
		{ VGPU_OP_LDG, VGPU_OP_LOAD }, { VGPU_OP_LDC, VGPU_OP_LOAD },
		{ VGPU_OP_STG, VGPU_OP_STORE }, { VGPU_OP_ATOMS, VGPU_OP_STORE },
		{ VGPU_OP_BRP, VGPU_OP_BRA }, { VGPU_OP_JMP, VGPU_OP_BRA },
	};
	struct vgpu_isa_summary s;
	struct vgpu_isa_error e;
	unsigned int i;

	ASSERT_EQ(43, ARRAY_SIZE(p));
	ASSERT_EQ(0, vgpu_isa_validate_flags(p, ARRAY_SIZE(p),
					     VGPU_ISA_FUNCTIONAL, &e));
	ASSERT_EQ(0, vgpu_isa_summarize_flags(p, ARRAY_SIZE(p),
					      VGPU_ISA_FUNCTIONAL, &s));
	EXPECT_TRUE(s.uses_functional);
	EXPECT_TRUE(s.uses_branch);
	EXPECT_TRUE(s.uses_global_store);
	EXPECT_TRUE(s.uses_atomic);
	EXPECT_EQ(254, s.max_reg);
	EXPECT_EQ(BIT(15) | BIT(4) | BIT(3) | BIT(2), s.slot_mask);
	EXPECT_EQ(VGPU_ISA_DYN_UNBOUNDED, s.max_dyn_insns);
	EXPECT_EQ(4, s.class_count[0]);			/* MOV */
	EXPECT_EQ(2, s.class_count[VGPU_OP_BRA - VGPU_OP_MOV]);
	EXPECT_EQ(15 + 8, s.class_count[VGPU_OP_ALU - VGPU_OP_MOV]);
	EXPECT_EQ(4, s.class_count[VGPU_OP_LOAD - VGPU_OP_MOV]);
	EXPECT_EQ(5, s.class_count[VGPU_OP_STORE - VGPU_OP_MOV]);
	for (i = 0; i < ARRAY_SIZE(cls); i++)
		EXPECT_EQ(cls[i].op_class - VGPU_OP_MOV, vgpu_isa_class(cls[i].op));
	EXPECT_EQ(-1, vgpu_isa_class(0x44));
	EXPECT_EQ(-1, vgpu_isa_class(0x80));
	EXPECT_STREQ("MOV", vgpu_isa_op_name(VGPU_OP_MOVR));
	EXPECT_STREQ("ATOMG", vgpu_isa_op_name(VGPU_OP_ATOMG));

	/* timing-only validation (SUBMIT today): each is an unknown opcode */
	for (i = 0; i + 1 < ARRAY_SIZE(p); i++) {
		const struct vgpu_insn q[] = { ALU, p[i], EXIT };

		EXPECT_EQ(-EINVAL, vgpu_isa_validate(q, 3, &e));
		EXPECT_EQ(VGPU_ISA_ERR_OPCODE, e.rule);
		EXPECT_EQ(1, e.index);
		EXPECT_EQ(-EINVAL, vgpu_isa_summarize(q, 3, &s));
	}
	/* free opcodes of the range stay unknown in functional mode */
	FREJECT(VGPU_ISA_ERR_OPCODE, 0, OP(0x44), EXIT);
	FREJECT(VGPU_ISA_ERR_OPCODE, 0, OP(0x57), EXIT);
	FREJECT(VGPU_ISA_ERR_OPCODE, 0, OP(0x7f), EXIT);
	FREJECT(VGPU_ISA_ERR_OPCODE, 0, OP(0x80), EXIT);
	/* unknown validation flags */
	EXPECT_EQ(-EINVAL, vgpu_isa_validate_flags(p, ARRAY_SIZE(p), 2, &e));
	EXPECT_EQ(VGPU_ISA_OK, e.rule);
	/* a timing-only program validates the same in functional mode */
	FACCEPT(MOV, LOOP(3), ALU, ENDLOOP, LOCK(1), UNLOCK(1), BAR, EXIT);
}

/* The summary of a functional program without branches: bounded. */
TEST(functional_summary)
{
	const struct vgpu_insn p[] = {
		INSN(VGPU_OP_MOVI, 7, 0, 0, 1),
		LOOP(10),
			INSN(VGPU_OP_LDS, 3, 0, 7, 0),
			INSN(VGPU_OP_ATOMS, 2, 0, 7, VGPU_ATOM_IMM(3, 0, 0)),
		ENDLOOP,
		INSN(VGPU_OP_LDC, 1, 9, 7, 0),
		EXIT,
	};
	const struct vgpu_insn q[] = { MOV, LOAD, EXIT };
	struct vgpu_isa_summary s;

	ASSERT_EQ(0, vgpu_isa_summarize_flags(p, ARRAY_SIZE(p),
					      VGPU_ISA_FUNCTIONAL, &s));
	EXPECT_TRUE(s.uses_functional);
	EXPECT_FALSE(s.uses_branch);
	EXPECT_FALSE(s.uses_global_store);
	EXPECT_TRUE(s.uses_atomic);
	EXPECT_EQ(7, s.max_reg);
	EXPECT_EQ(BIT(9), s.slot_mask);
	EXPECT_EQ(1 + 1 + 10 * 3 + 1 + 1, s.max_dyn_insns);
	/* no functional instruction: nothing of it in the summary */
	ASSERT_EQ(0, vgpu_isa_summarize_flags(q, 3, VGPU_ISA_FUNCTIONAL, &s));
	EXPECT_FALSE(s.uses_functional);
	EXPECT_EQ(0, s.max_reg);
	EXPECT_EQ(0, s.slot_mask);
	EXPECT_EQ(3, s.max_dyn_insns);
}

/* The operand rules of functional mode, each with its index. */
TEST(functional_reject)
{
	/* registers r0..r254 in every register field */
	FACCEPT(INSN(VGPU_OP_MOVI, 254, 0, 0, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 1, ALU, INSN(VGPU_OP_MOVI, 255, 0, 0, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0, R3(VGPU_OP_IADD, 1, 255, 2), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0, R3(VGPU_OP_IADD, 1, 2, 255), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0, INSN(VGPU_OP_IMAD, 1, 2, 3, 255), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0, INSN(VGPU_OP_FFMA, 1, 2, 3, 256), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0,
		INSN(VGPU_OP_ATOMS, 1, 0, 2, VGPU_ATOM_IMM(255, 0, 0)), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0,
		INSN(VGPU_OP_ATOMG, 1, 0, 2, VGPU_ATOM_IMM(1, VGPU_ATOM_CAS, 255)),
		EXIT);
	/* predicates p0..p7 */
	FREJECT(VGPU_ISA_ERR_PREDICATE, 0, INSN(VGPU_OP_ISETP, 8, 1, 2, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_PREDICATE, 0, INSN(VGPU_OP_SELP, 1, 2, 3, 8), EXIT);
	FREJECT(VGPU_ISA_ERR_PREDICATE, 0, INSN(VGPU_OP_PLOP, 0, 1, 8, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_PREDICATE, 0, BRP(8, 0, 0, 0), EXIT);
	/* special registers */
	FACCEPT(INSN(VGPU_OP_S2R, 1, VGPU_SR_MAX, 0, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_SREG, 0, INSN(VGPU_OP_S2R, 1, VGPU_SR_MAX + 1, 0, 0), EXIT);
	/* slots */
	FACCEPT(INSN(VGPU_OP_LDG, 1, VGPU_ISA_MAX_SLOTS - 1, 2, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_SLOT, 0, INSN(VGPU_OP_LDG, 1, VGPU_ISA_MAX_SLOTS, 2, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_SLOT, 0, INSN(VGPU_OP_LDC, 1, 200, 2, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_SLOT, 0, INSN(VGPU_OP_ATOMG, 1, 16, 2, 0), EXIT);
	/* conditions, predicate and atomic operations, BRP negation */
	FACCEPT(INSN(VGPU_OP_FSETP, 1, 2, 3, VGPU_COND_MAX), EXIT);
	FREJECT(VGPU_ISA_ERR_MODIFIER, 0, INSN(VGPU_OP_FSETP, 1, 2, 3, VGPU_COND_MAX + 1), EXIT);
	FREJECT(VGPU_ISA_ERR_MODIFIER, 0, INSN(VGPU_OP_PLOP, 1, 2, 3, VGPU_PLOP_MAX + 1), EXIT);
	FREJECT(VGPU_ISA_ERR_MODIFIER, 0,
		INSN(VGPU_OP_ATOMS, 1, 0, 2, VGPU_ATOM_IMM(1, VGPU_ATOM_OP_MAX + 1, 0)),
		EXIT);
	FREJECT(VGPU_ISA_ERR_MODIFIER, 0, BRP(0, 2, 0, 0), EXIT);
	/* reserved fields */
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MOVI, 1, 1, 0, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MOVR, 1, 1, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_IADD, 1, 1, 1, 1), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_LDS, 1, 1, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_STL, 1, 1, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_ATOMS, 1, 1, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_ATOMS, 1, 0, 1, 1U << 24), EXIT);
	/* a compare register only with CAS */
	FREJECT(VGPU_ISA_ERR_RESERVED, 0,
		INSN(VGPU_OP_ATOMG, 1, 0, 1, VGPU_ATOM_IMM(2, VGPU_ATOM_ADD, 3)), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_BRP, 0, 0, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_JMP, 1, 0, 0, 0), EXIT);
	/* reserved first, then a, b, c, imm */
	FREJECT(VGPU_ISA_ERR_RESERVED, 0, INSN(VGPU_OP_MOVR, 255, 1, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_REGISTER, 0, INSN(VGPU_OP_LDG, 255, 16, 1, 0), EXIT);
	FREJECT(VGPU_ISA_ERR_SLOT, 0, INSN(VGPU_OP_LDG, 1, 16, 255, 0), EXIT);
	/* branch targets and joins within the program */
	FACCEPT(BRP(0, 0, 2, 2), MOVI(0, 1), EXIT);
	FREJECT(VGPU_ISA_ERR_TARGET, 0, BRP(0, 0, 3, 2), MOVI(0, 1), EXIT);
	FREJECT(VGPU_ISA_ERR_TARGET, 0, BRP(0, 0, 2, 3), MOVI(0, 1), EXIT);
	FREJECT(VGPU_ISA_ERR_TARGET, 1, MOVI(0, 1), JMP(3), EXIT);
	FREJECT(VGPU_ISA_ERR_TARGET, 1, MOVI(0, 1), JMP(0x10002), EXIT);
	FACCEPT(MOVI(0, 1), JMP(0), EXIT);
	/* EXIT is still last and only last */
	FREJECT(VGPU_ISA_ERR_EXIT_POS, 1, BRP(0, 0, 2, 2), EXIT, EXIT);
}

/* Branches and structured control flow do not mix, either order. */
TEST(functional_branch_mix)
{
	static const u8 ops[] = {
		VGPU_OP_LOCK, VGPU_OP_LAUNCH, VGPU_OP_SPIN, VGPU_OP_MOV,
		VGPU_OP_LOAD, VGPU_OP_STORE, VGPU_OP_MMA, VGPU_OP_CMP,
		VGPU_OP_BRA, VGPU_OP_ALU,
	};
	unsigned int i;

	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 3, LOOP(2), MOVI(0, 1), ENDLOOP, JMP(4),
		EXIT);
	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 1, BRP(0, 0, 4, 4), LOOP(2), MOVI(0, 1),
		ENDLOOP, EXIT);
	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 2, MOVI(0, 1), JMP(2), LOCK(0),
		UNLOCK(0), EXIT);
	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 2, LOCK(0), UNLOCK(0), JMP(3), EXIT);
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 1, JMP(2), INSN(ops[i], 0, 0, 0, 0),
			EXIT);
	/* what the SM engine steps itself would pass a join unseen */
	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 1, JMP(2), INSN(VGPU_OP_PUSH, 0, 0, 0, 1),
		EXIT);
	FREJECT(VGPU_ISA_ERR_BRANCH_MIX, 1, ALU, BRP(0, 0, 2, 2), EXIT);
	/* BAR mixes with branches, the timed classes without them */
	FACCEPT(BRP(0, 0, 2, 2), BAR, EXIT);
	FACCEPT(MOVI(0, 1), ALU, BAR, INSN(VGPU_OP_PUSH, 0, 0, 0, 1), EXIT);
	EXPECT_NE(NULL, strstr(vgpu_isa_rule_str(VGPU_ISA_ERR_BRANCH_MIX), "BRP"));
	EXPECT_NE(NULL, strstr(vgpu_isa_rule_str(VGPU_ISA_ERR_REGISTER), "r254"));
}

VGPU_TEST_SUITE(isa,
	VGPU_CASE(every_opcode)
	VGPU_CASE(opcode_class_and_names)
	VGPU_CASE(loop_count_index_dependent)
	VGPU_CASE(summary_and_link)
	VGPU_CASE(reject_length)
	VGPU_CASE(reject_opcode)
	VGPU_CASE(push_items)
	VGPU_CASE(reject_reserved)
	VGPU_CASE(reject_operand)
	VGPU_CASE(reject_loop_count)
	VGPU_CASE(reject_nesting)
	VGPU_CASE(reject_endloop)
	VGPU_CASE(reject_unclosed)
	VGPU_CASE(reject_mutex_id)
	VGPU_CASE(reject_lock_held)
	VGPU_CASE(reject_not_held)
	VGPU_CASE(reject_lock_loop)
	VGPU_CASE(reject_lock_exit)
	VGPU_CASE(reject_bar_lock)
	VGPU_CASE(reject_bar_divergent)
	VGPU_CASE(reject_exit_pos)
	VGPU_CASE(reject_no_exit)
	VGPU_CASE(reject_dyn_count)
	VGPU_CASE(first_violation_wins)
	VGPU_CASE(no_read_past_end)
	VGPU_CASE(launch)
	VGPU_CASE(functional_opcodes)
	VGPU_CASE(functional_summary)
	VGPU_CASE(functional_reject)
	VGPU_CASE(functional_branch_mix))
