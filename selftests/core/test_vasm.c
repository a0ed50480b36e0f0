// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of userspace/libworkload/vasm.c: the .vasm assembler and
 * disassembler of the virtual ISA (F04).  Syntax: Documentation/isa.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#undef ARRAY_SIZE	/* the shim brings the kernel's */
#include "isa.h"
#include <vgpu/vasm.h>

static int vgpu_t_asm(const char *src, unsigned int flags,
		      struct vgpu_vasm_prog *p, char *err, size_t errlen)
{
	return vgpul_vasm_assemble("t.vasm", src, strlen(src), flags, p, err,
				  errlen);
}

/* Assembling @src fails with exactly the message @msg. */
#define ASM_ERROR(src, msg) do {					\
	struct vgpu_vasm_prog p_;					\
	char e_[256];							\
	EXPECT_EQ(-EINVAL, vgpu_t_asm(src, 0, &p_, e_, sizeof(e_)));	\
	EXPECT_STREQ(msg, e_);						\
	EXPECT_EQ(NULL, p_.insns);					\
} while (0)

/* F04: every mnemonic, any case, comments and blank lines. */
TEST(every_mnemonic)
{
	static const char src[] =
		"; comment line\n"
		"\n"
		"mov\n"
		"  Load   # trailing comment\n"
		"\tSTORE // another\n"
		"MMA\r\n"
		"cmp\n"
		"bra\n"
		"ALU\n"
		"LOOP 2+3*(bid%5)\n"
		"  alu\n"
		"EndLoop\n"
		"BAR\n"
		"LOCK 15\n"
		"unlock 15\n"
		"SPIN\n"
		"exit ; done\n";
	static const u8 ops[] = {
		VGPU_OP_MOV, VGPU_OP_LOAD, VGPU_OP_STORE, VGPU_OP_MMA,
		VGPU_OP_CMP, VGPU_OP_BRA, VGPU_OP_ALU, VGPU_OP_LOOP,
		VGPU_OP_ALU, VGPU_OP_ENDLOOP, VGPU_OP_BAR, VGPU_OP_LOCK,
		VGPU_OP_UNLOCK, VGPU_OP_SPIN, VGPU_OP_EXIT,
	};
	struct vgpu_vasm_prog p;
	char err[256];
	unsigned int i;

	ASSERT_EQ(0, vgpu_t_asm(src, 0, &p, err, sizeof(err)));
	ASSERT_EQ(ARRAY_SIZE(ops), p.n);
	for (i = 0; i < p.n; i++) {
		EXPECT_EQ(ops[i], p.insns[i].op);
		EXPECT_EQ(i + 3, p.lines[i]);
	}
	EXPECT_EQ(VGPU_LOOP_SEL_BID, p.insns[7].a);
	EXPECT_EQ(5, p.insns[7].b);
	EXPECT_EQ(VGPU_LOOP_IMM(2, 3), p.insns[7].imm);
	EXPECT_EQ(15, p.insns[11].a);
	EXPECT_EQ(15, p.insns[12].a);
	EXPECT_EQ(0, vgpu_isa_validate(p.insns, p.n, NULL));
	vgpul_vasm_free(&p);
}

/* F04: the LOOP count grammar reduces to base + step * (index % mod). */
TEST(loop_expressions)
{
	static const struct {
		const char *expr;
		u8 sel, mod;
		u16 base, step;
	} t[] = {
		{ "8", VGPU_LOOP_SEL_NONE, 0, 8, 0 },
		{ "0", VGPU_LOOP_SEL_NONE, 0, 0, 0 },
		{ "0x10", VGPU_LOOP_SEL_NONE, 0, 16, 0 },
		{ "2*3+1", VGPU_LOOP_SEL_NONE, 0, 7, 0 },
		{ "65535", VGPU_LOOP_SEL_NONE, 0, 65535, 0 },
		{ "10*(1+wid%4)", VGPU_LOOP_SEL_WID, 4, 10, 10 },
		{ "(wid%4+1)*10", VGPU_LOOP_SEL_WID, 4, 10, 10 },
		{ "10 * ( 1 + WID % 4 )", VGPU_LOOP_SEL_WID, 4, 10, 10 },
		{ "bid%3", VGPU_LOOP_SEL_BID, 3, 0, 1 },
		{ "2*(bid%3)", VGPU_LOOP_SEL_BID, 3, 0, 2 },
		{ "5+bid%3", VGPU_LOOP_SEL_BID, 3, 5, 1 },
		{ "1+2*wid%8", VGPU_LOOP_SEL_WID, 8, 1, 2 },
		{ "wid%4+wid%4", VGPU_LOOP_SEL_WID, 4, 0, 2 },
		{ "0*(wid%4)", VGPU_LOOP_SEL_WID, 4, 0, 0 },
		{ "3*(2+bid%255)*2", VGPU_LOOP_SEL_BID, 255, 12, 6 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vgpu_vasm_prog p;
		char src[128], err[256];

		snprintf(src, sizeof(src), "LOOP %s\nENDLOOP\nEXIT\n", t[i].expr);
		ASSERT_EQ(0, vgpu_t_asm(src, 0, &p, err, sizeof(err)))
			TH_LOG("%s: %s", t[i].expr, err);
		EXPECT_EQ(VGPU_OP_LOOP, p.insns[0].op);
		EXPECT_EQ(t[i].sel, p.insns[0].a);
		EXPECT_EQ(t[i].mod, p.insns[0].b);
		EXPECT_EQ(0, p.insns[0].c);
		EXPECT_EQ(t[i].base, VGPU_LOOP_BASE(p.insns[0].imm));
		EXPECT_EQ(t[i].step, VGPU_LOOP_STEP(p.insns[0].imm));
		vgpul_vasm_free(&p);
	}
}

/* F14: "items" selects the block's work items; bare items is mod 255. */
TEST(loop_items)
{
	struct vgpu_vasm_prog p;
	char err[256], buf[64];
	u32 items;

	ASSERT_EQ(0, vgpu_t_asm("LOOP 5+3*items\nENDLOOP\n"
				"LOOP 2*(1+items%4)\nENDLOOP\nEXIT\n", 0, &p,
				err, sizeof(err)));
	EXPECT_EQ(VGPU_LOOP_SEL_ITEMS, p.insns[0].a);
	EXPECT_EQ(VGPU_ISA_MAX_LOOP_MOD, p.insns[0].b);
	EXPECT_EQ(4, p.insns[2].b);
	for (items = 0; items <= VGPU_MAX_COALESCE; items++) {
		EXPECT_EQ(5 + 3 * items,
			  vgpu_isa_loop_count_items(&p.insns[0], 7, 3, items));
		EXPECT_EQ(2 * (1 + items % 4),
			  vgpu_isa_loop_count_items(&p.insns[2], 7, 3, items));
	}
	/* a grid kernel's block has no items: index 0 */
	EXPECT_EQ(5, vgpu_isa_loop_count(&p.insns[0], 7, 3));
	/* the validator's bound knows a block has at most 128 items */
	EXPECT_EQ(5 + 3 * VGPU_MAX_COALESCE, vgpu_isa_loop_max(&p.insns[0]));
	vgpul_vasm_format_insn(&p.insns[0], buf, sizeof(buf));
	EXPECT_STREQ("LOOP 5+3*(items%255)", buf);
	vgpul_vasm_format_insn(&p.insns[2], buf, sizeof(buf));
	EXPECT_STREQ("LOOP 2*(1+items%4)", buf);
	vgpul_vasm_free(&p);
	ASM_ERROR("LOOP items%0\n", "t.vasm:1: modulus must be 1..255");
}

/* Index-dependent counts evaluate as written, for several (bid, wid). */
TEST(loop_expression_values)
{
	struct vgpu_vasm_prog p;
	char err[256];
	u32 bid, wid;

	ASSERT_EQ(0, vgpu_t_asm("LOOP 10*(1+wid%4)\nENDLOOP\n"
				"LOOP 7+2*(bid%5)\nENDLOOP\nEXIT\n", 0, &p,
				err, sizeof(err)));
	for (bid = 0; bid < 12; bid++) {
		for (wid = 0; wid < 40; wid += 3) {
			EXPECT_EQ(10 * (1 + wid % 4),
				  vgpu_isa_loop_count(&p.insns[0], bid, wid));
			EXPECT_EQ(7 + 2 * (bid % 5),
				  vgpu_isa_loop_count(&p.insns[2], bid, wid));
		}
	}
	vgpul_vasm_free(&p);
}

/* Syntax errors carry FILE:LINE of the offending line. */
TEST(syntax_errors_with_lines)
{
	ASM_ERROR("ALU\n\n; c\nFROB\nEXIT\n", "t.vasm:4: unknown mnemonic 'FROB'");
	ASM_ERROR("ALU\nALU 3\nEXIT\n", "t.vasm:2: ALU takes no operand");
	ASM_ERROR("LOCK\nEXIT\n", "t.vasm:1: LOCK needs a mutex id");
	ASM_ERROR("MMA 3\nEXIT\n", "t.vasm:1: MMA size 3 is not 1, 2, 4 or 8 tiles");
	ASM_ERROR("MMA 16\nEXIT\n", "t.vasm:1: MMA size 16 is not 1, 2, 4 or 8 tiles");
	ASM_ERROR("MMA 0\nEXIT\n", "t.vasm:1: MMA size 0 is not 1, 2, 4 or 8 tiles");
	ASM_ERROR("MMA 2 4\nEXIT\n", "t.vasm:1: MMA takes one size");
	ASM_ERROR("PUSH\nEXIT\n", "t.vasm:1: PUSH needs a number of items");
	ASM_ERROR("PUSH 0\nEXIT\n", "t.vasm:1: PUSH of 0 items (1..1048576)");
	ASM_ERROR("PUSH 2 3\nEXIT\n", "t.vasm:1: PUSH takes one number of items");
	ASM_ERROR("LOCK 1 2\nEXIT\n", "t.vasm:1: LOCK takes one mutex id");
	ASM_ERROR("LOCK 256\nEXIT\n", "t.vasm:1: mutex id 256 out of range (0..15)");
	ASM_ERROR("ALU\nLOOP\n", "t.vasm:2: LOOP needs a count");
	ASM_ERROR("ALU\nALU\nLOOP wid\n",
		  "t.vasm:3: wid must be reduced modulo a constant: write wid%N");
	ASM_ERROR("LOOP wid%0\n", "t.vasm:1: modulus must be 1..255");
	ASM_ERROR("LOOP bid%256\n", "t.vasm:1: modulus must be 1..255");
	ASM_ERROR("LOOP wid%4*(wid%4)\n",
		  "t.vasm:1: index term multiplied by itself: the count must be base + step*(wid%N)");
	ASM_ERROR("LOOP wid%4+bid%4\n",
		  "t.vasm:1: only one index term (wid%N, bid%N or items) per LOOP");
	ASM_ERROR("LOOP wid%4+wid%2\n",
		  "t.vasm:1: only one index term (wid%N, bid%N or items) per LOOP");
	ASM_ERROR("LOOP 70000\n", "t.vasm:1: LOOP base 70000 exceeds 65535");
	ASM_ERROR("LOOP 70000*(bid%2)\n", "t.vasm:1: LOOP step 70000 exceeds 65535");
	ASM_ERROR("LOOP 4294967296\n", "t.vasm:1: number too large");
	ASM_ERROR("LOOP 65536*65536\n", "t.vasm:1: loop count too large");
	ASM_ERROR("LOOP 3-1\n", "t.vasm:1: unexpected '-' in loop count");
	ASM_ERROR("LOOP 1+\n", "t.vasm:1: expected a number, '(', wid%N, bid%N or items");
	ASM_ERROR("LOOP (1+2\n", "t.vasm:1: expected ')'");
	ASM_ERROR("LOOP 12ab\n", "t.vasm:1: invalid number");
	ASM_ERROR("LOOP widx%2\n", "t.vasm:1: expected a number, '(', wid%N, bid%N or items");
	ASM_ERROR(".isa 2\n", "t.vasm:1: unsupported ISA version 2 (this assembler knows 1)");
	ASM_ERROR(".insn 1, 2, 3\n", "t.vasm:1: expected a number");
	ASM_ERROR(".insn 256 0 0 0 0\n", "t.vasm:1: .insn byte field 0 exceeds 255");
	ASM_ERROR("ALU\n  $x\n", "t.vasm:2: expected a mnemonic, found '$'");
	ASM_ERROR("ALU\nEXIT,\n", "t.vasm:2: unexpected ',' after mnemonic");
}

/* A NUL byte inside the given length is an error, not an end of text. */
TEST(nul_byte)
{
	static const char src[] = "ALU\nALU\nA\0LU\nEXIT\n";
	struct vgpu_vasm_prog p;
	char err[256];

	EXPECT_EQ(-EINVAL, vgpul_vasm_assemble("t.vasm", src, sizeof(src) - 1,
					      0, &p, err, sizeof(err)));
	EXPECT_STREQ("t.vasm:3: NUL byte in source", err);
	/* no trailing newline, no NUL terminator needed */
	EXPECT_EQ(0, vgpul_vasm_assemble("t.vasm", "ALU\nEXITXXX", 8, 0, &p,
					err, sizeof(err)));
	EXPECT_EQ(2, p.n);
	vgpul_vasm_free(&p);
}

/* Deep parentheses are refused, not recursed into. */
TEST(deep_parentheses)
{
	struct vgpu_vasm_prog p;
	char src[4096], err[256];
	int i, n = 0;

	n += sprintf(src, "LOOP ");
	for (i = 0; i < 2000; i++)
		src[n++] = '(';
	src[n] = '\0';
	EXPECT_EQ(-EINVAL, vgpu_t_asm(src, 0, &p, err, sizeof(err)));
	EXPECT_STREQ("t.vasm:1: expression nested too deeply", err);
}

/* Validator verdicts name the instruction, its text and its source line. */
TEST(validator_errors_with_lines)
{
	struct vgpu_vasm_prog p;
	char err[256];

	ASM_ERROR("ALU\n; comment\nLOCK 20\nUNLOCK 20\nEXIT\n",
		  "t.vasm:3: instruction 1 (LOCK 20): mutex id out of range (0..15)");
	ASM_ERROR("ALU\nLOOP 10*(1+wid%4)\n  ALU\n\nEXIT\n",
		  "t.vasm:2: instruction 1 (LOOP 10*(1+wid%4)): LOOP without a matching ENDLOOP");
	ASM_ERROR("LOOP 1+wid%4\n  BAR\nENDLOOP\nEXIT\n",
		  "t.vasm:2: instruction 1 (BAR): BAR inside a loop whose count depends on the warp index");
	ASM_ERROR("ALU\nALU\n", "t.vasm:2: instruction 1 (ALU): last instruction is not EXIT");
	ASM_ERROR("LOOP 65535+wid%2\nENDLOOP\nEXIT\n",
		  "t.vasm:1: instruction 0 (LOOP 65535+wid%2): LOOP count exceeds 65535");
	ASM_ERROR("", "t.vasm:1: program must have 1 to 4096 instructions (found 0)");
	ASM_ERROR("; nothing\n\n; here\n",
		  "t.vasm:3: program must have 1 to 4096 instructions (found 0)");
	ASM_ERROR(".insn 0x07 0 0 0 1\nEXIT\n",
		  "t.vasm:1: instruction 0 (.insn 0x07, 0x00, 0x00, 0x00, 0x00000001): reserved or unused field is not zero");

	/* the rule and index are returned too */
	EXPECT_EQ(-EINVAL, vgpu_t_asm("LOCK 1\nEXIT\n", 0, &p, err, sizeof(err)));
	EXPECT_EQ(VGPU_ISA_ERR_LOCK_EXIT, p.rule);
	EXPECT_EQ(1, p.index);
	/* ... and skipped on request */
	EXPECT_EQ(0, vgpu_t_asm("LOCK 1\nEXIT\n", VGPU_VASM_NO_VALIDATE, &p,
				err, sizeof(err)));
	EXPECT_EQ(2, p.n);
	vgpul_vasm_free(&p);
	/* a NULL or tiny message buffer is fine */
	EXPECT_EQ(-EINVAL, vgpu_t_asm("FROB\n", 0, &p, NULL, 0));
	EXPECT_EQ(-EINVAL, vgpu_t_asm("FROB\n", 0, &p, err, 4));
	EXPECT_STREQ("t.v", err);
	EXPECT_EQ(-EINVAL, vgpu_t_asm("EXIT\n", 0x80, &p, err, sizeof(err)));
}

/* The 4097th instruction is the one named. */
TEST(too_long)
{
	struct vgpu_vasm_prog p;
	char err[256], want[128];
	size_t len = (VGPU_ISA_MAX_INSNS + 1) * 4 + 1;
	char *src = malloc(len);
	int i;

	ASSERT_NE(NULL, src);
	for (i = 0; i < VGPU_ISA_MAX_INSNS; i++)
		memcpy(src + i * 4, "ALU\n", 4);
	strcpy(src + i * 4, "EXIT");
	EXPECT_EQ(-EINVAL, vgpu_t_asm(src, 0, &p, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "t.vasm:%d: instruction %d (EXIT): program must have 1 to 4096 instructions",
		 VGPU_ISA_MAX_INSNS + 1, VGPU_ISA_MAX_INSNS);
	EXPECT_STREQ(want, err);
	free(src);
}

/* Disassembly is readable and indented. */
TEST(disassemble_text)
{
	static const char src[] =
		"load\nmma 8\nmma 1\npush 12\nloop 10*(1+wid%4)\nloop 8\nalu\nendloop\ncmp\n"
		"endloop\nlock 3\nunlock 3\nloop bid%3\nbar\nendloop\nexit\n";
	static const char want[] =
		"LOAD\n"
		"MMA 8\n"
		"MMA\n"
		"PUSH 12\n"
		"LOOP 10*(1+wid%4)\n"
		"    LOOP 8\n"
		"        ALU\n"
		"    ENDLOOP\n"
		"    CMP\n"
		"ENDLOOP\n"
		"LOCK 3\n"
		"UNLOCK 3\n"
		"LOOP bid%3\n"
		"    BAR\n"
		"ENDLOOP\n"
		"EXIT\n";
	struct vgpu_vasm_prog p;
	char err[256], out[512], small[8];

	ASSERT_EQ(0, vgpu_t_asm(src, 0, &p, err, sizeof(err)));
	EXPECT_EQ(strlen(want), vgpul_vasm_disassemble(p.insns, p.n, out,
						      sizeof(out)));
	EXPECT_STREQ(want, out);
	/* truncation: the full length is still returned */
	EXPECT_EQ(strlen(want), vgpul_vasm_disassemble(p.insns, p.n, small,
						      sizeof(small)));
	EXPECT_EQ(0, strncmp(small, want, sizeof(small) - 1));
	EXPECT_EQ('\0', small[sizeof(small) - 1]);
	vgpul_vasm_free(&p);
}

static void vgpu_t_roundtrip(struct __test_metadata *_metadata,
			     const struct vgpu_insn *insns, unsigned int n)
{
	struct vgpu_vasm_prog back;
	char err[256];
	size_t len = vgpul_vasm_disassemble(insns, n, NULL, 0);
	char *text = malloc(len + 1);

	ASSERT_NE(NULL, text);
	ASSERT_EQ(len, vgpul_vasm_disassemble(insns, n, text, len + 1));
	ASSERT_EQ(0, vgpul_vasm_assemble("rt.vasm", text, len,
					VGPU_VASM_NO_VALIDATE, &back, err,
					sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(n, back.n);
	EXPECT_EQ(0, n ? memcmp(back.insns, insns, n * sizeof(*insns)) : 0);
	vgpul_vasm_free(&back);
	free(text);
}

/* disassemble -> assemble gives the same bytes: examples and random. */
TEST(roundtrip)
{
	static const char * const files[] = {
		"examples/vasm/alu_loop.vasm", "examples/vasm/barrier.vasm",
		"examples/vasm/mutex.vasm", "examples/vasm/spin.vasm",
		"examples/vasm/all_opcodes.vasm",
		"examples/vasm/vector_add.vasm", "examples/vasm/reduce.vasm",
		"examples/vasm/matmul.vasm", "examples/vasm/histogram.vasm",
		"examples/vasm/scan.vasm",
	};
	static const u8 ops[] = {
		0x00, 0x01, 0x07, 0x08, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25,
		0x26, 0x27, 0x40, 0xff, VGPU_OP_MOVR, VGPU_OP_S2R, VGPU_OP_SELP,
		VGPU_OP_IMAD, VGPU_OP_IADDI, VGPU_OP_ISETP, VGPU_OP_PLOP,
		VGPU_OP_LDG, VGPU_OP_STS, VGPU_OP_ATOMG, VGPU_OP_ATOMS,
		VGPU_OP_BRP, VGPU_OP_JMP, 0x44,
	};
	struct vgpu_insn r[64];
	unsigned int i, k, seed = 1;
	char err[256];

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		struct vgpu_vasm_prog p;

		ASSERT_EQ(0, vgpul_vasm_assemble_file(files[i], 0, &p, err,
						     sizeof(err)))
			TH_LOG("%s", err);
		vgpu_t_roundtrip(_metadata, p.insns, p.n);
		vgpul_vasm_free(&p);
	}
	/* arbitrary, mostly invalid instructions round-trip as well */
	for (k = 0; k < 2000; k++) {
		for (i = 0; i < ARRAY_SIZE(r); i++) {
			seed = seed * 1103515245 + 12345;
			r[i].op = ops[(seed >> 16) % ARRAY_SIZE(ops)];
			seed = seed * 1103515245 + 12345;
			r[i].a = (seed >> 20) & 3;
			r[i].b = (seed >> 8) & (k & 1 ? 0xff : 0x3);
			r[i].c = (seed >> 30) == 3;
			seed = seed * 1103515245 + 12345;
			r[i].imm = k & 2 ? seed : (seed >> 16) & 0x3000f;
		}
		vgpu_t_roundtrip(_metadata, r, 1 + k % ARRAY_SIZE(r));
	}
}

/* Every example program assembles and validates (F04). */
TEST(examples_valid)
{
	static const char * const files[] = {
		"examples/vasm/alu_loop.vasm", "examples/vasm/barrier.vasm",
		"examples/vasm/mutex.vasm", "examples/vasm/spin.vasm",
		"examples/vasm/all_opcodes.vasm",
	};
	struct vgpu_isa_summary s;
	struct vgpu_vasm_prog p;
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, vgpul_vasm_assemble_file(files[i], 0, &p, err,
						     sizeof(err)))
			TH_LOG("%s", err);
		/* the functional examples pass the validator in that mode */
		EXPECT_EQ(0, vgpu_isa_summarize_flags(p.insns, p.n,
						      i >= 5 ? VGPU_ISA_FUNCTIONAL : 0,
						      &s));
		EXPECT_EQ(i >= 5, s.uses_functional);
		if (i >= 5)
			EXPECT_EQ(-EINVAL, vgpu_isa_validate(p.insns, p.n, NULL));
		if (i == 1)
			EXPECT_TRUE(s.uses_bar);
		if (i == 2)
			EXPECT_EQ(0x7, s.mutex_mask);
		if (i == 3)
			EXPECT_TRUE(s.uses_spin);
		vgpul_vasm_free(&p);
	}
	EXPECT_EQ(-ENOENT, vgpul_vasm_assemble_file("examples/vasm/none.vasm",
						   0, &p, err, sizeof(err)));
	EXPECT_STREQ("examples/vasm/none.vasm: No such file or directory", err);
}

/* Seed 004: the functional mnemonics, their operands and encodings. */
TEST(functional_mnemonics)
{
	static const char src[] =
		".functional\n"
		"movi r1, 0x10\n"
		"MOVI r2, -1\n"
		"mov r3, r1\n"
		"MOVI r0, 0\n"
		"s2r r4, %TID\n"
		"SELP r5, r1, r2, p7\n"
		"IADD r6, r1, r2\n"
		"IMAD r6, r1, r2, r254\n"
		"IADDI r6, r6, 4\n"
		"FFMA r7, r1, r2, r3\n"
		"I2F r8, r1\n"
		"ISETP p1, r1, r2, GE\n"
		"FSETP p2, r1, r2, ne\n"
		"PLOP p3, p1, p2, andnot\n"
		"LDG r9, [s15 + r1 + 16]\n"
		"STG [ s3 + r1 ], r9\n"
		"LDS r9, [r1+8]\n"
		"STS [r1], r9\n"
		"LDC r9, [s2 + r1 + 0x20]\n"
		"LDL r9, [r1]\n"
		"STL [r1 + 4], r9\n"
		"ATOMG r10, [s1 + r1], r2, add\n"
		"ATOMS r10, [r1], r2, CAS, r3\n"
		"BRP !p1, 25, 24\n"
		"JMP 25\n"
		"EXIT\n";
	static const struct vgpu_insn want[] = {
		{ VGPU_OP_MOVI, 1, 0, 0, 16 },
		{ VGPU_OP_MOVI, 2, 0, 0, 0xffffffff },
		{ VGPU_OP_MOVR, 3, 1, 0, 0 },
		{ VGPU_OP_MOVI, 0, 0, 0, 0 },
		{ VGPU_OP_S2R, 4, VGPU_SR_TID, 0, 0 },
		{ VGPU_OP_SELP, 5, 1, 2, 7 },
		{ VGPU_OP_IADD, 6, 1, 2, 0 },
		{ VGPU_OP_IMAD, 6, 1, 2, 254 },
		{ VGPU_OP_IADDI, 6, 6, 0, 4 },
		{ VGPU_OP_FFMA, 7, 1, 2, 3 },
		{ VGPU_OP_I2F, 8, 1, 0, 0 },
		{ VGPU_OP_ISETP, 1, 1, 2, VGPU_COND_GE },
		{ VGPU_OP_FSETP, 2, 1, 2, VGPU_COND_NE },
		{ VGPU_OP_PLOP, 3, 1, 2, VGPU_PLOP_ANDNOT },
		{ VGPU_OP_LDG, 9, 15, 1, 16 },
		{ VGPU_OP_STG, 9, 3, 1, 0 },
		{ VGPU_OP_LDS, 9, 0, 1, 8 },
		{ VGPU_OP_STS, 9, 0, 1, 0 },
		{ VGPU_OP_LDC, 9, 2, 1, 32 },
		{ VGPU_OP_LDL, 9, 0, 1, 0 },
		{ VGPU_OP_STL, 9, 0, 1, 4 },
		{ VGPU_OP_ATOMG, 10, 1, 1, VGPU_ATOM_IMM(2, VGPU_ATOM_ADD, 0) },
		{ VGPU_OP_ATOMS, 10, 0, 1, VGPU_ATOM_IMM(2, VGPU_ATOM_CAS, 3) },
		{ VGPU_OP_BRP, 1, 1, 0, VGPU_BRP_IMM(25, 24) },
		{ VGPU_OP_JMP, 0, 0, 0, 25 },
		{ VGPU_OP_EXIT, 0, 0, 0, 0 },
	};
	struct vgpu_vasm_prog p;
	char err[256];
	unsigned int i;

	/* MOV without operands is the timed class, with them MOVR */
	ASSERT_EQ(0, vgpu_t_asm(".functional\nMOV\nmov r3, r1\nEXIT\n", 0, &p,
				err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(VGPU_OP_MOV, p.insns[0].op);
	EXPECT_EQ(VGPU_OP_MOVR, p.insns[1].op);
	vgpul_vasm_free(&p);
	ASSERT_EQ(0, vgpu_t_asm(src, 0, &p, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(ARRAY_SIZE(want), p.n);
	for (i = 0; i < p.n; i++) {
		EXPECT_EQ(want[i].op, p.insns[i].op) TH_LOG("insn %u", i);
		EXPECT_EQ(want[i].a, p.insns[i].a) TH_LOG("insn %u", i);
		EXPECT_EQ(want[i].b, p.insns[i].b) TH_LOG("insn %u", i);
		EXPECT_EQ(want[i].c, p.insns[i].c) TH_LOG("insn %u", i);
		EXPECT_EQ(want[i].imm, p.insns[i].imm) TH_LOG("insn %u", i);
		EXPECT_EQ(i + 2, p.lines[i]);
	}
	vgpu_t_roundtrip(_metadata, p.insns, p.n);
	vgpul_vasm_free(&p);

	/* without .functional the validator says what is missing */
	ASM_ERROR("MOVI r1, 2\nEXIT\n",
		  "t.vasm:1: instruction 0 (MOVI r1, 2): unknown opcode (functional instructions need .functional)");
	/* the flag does what the directive does */
	EXPECT_EQ(0, vgpu_t_asm("MOVI r1, 2\nEXIT\n", VGPU_VASM_FUNCTIONAL, &p,
				err, sizeof(err)));
	vgpul_vasm_free(&p);
	/* the functional validator's rules, with lines */
	ASM_ERROR(".functional\nLOOP 2\nENDLOOP\nJMP 0\nEXIT\n",
		  "t.vasm:4: instruction 2 (JMP 0): BRP/JMP with LOOP, LOCK, LAUNCH, SPIN, PUSH or timed op");
	ASM_ERROR(".functional\nJMP 5\nEXIT\n",
		  "t.vasm:2: instruction 0 (JMP 5): branch target or join beyond the program");
}

/* Labels: forward and backward, alone or before an instruction. */
TEST(labels)
{
	static const char src[] =
		".functional\n"
		"top:\n"
		"	MOVI r0, 1\n"
		"again: loop_2:	IADDI r0, r0, 1 ; two labels\n"
		"	ISETP p0, r0, r0, eq\n"
		"	BRP p0, out, again\n"
		"	JMP top\n"
		"_out_:\n"
		"out:\n"
		"	BRP !p0, loop_2, 2\n"
		"	EXIT\n";
	struct vgpu_vasm_prog p;
	char err[256], text[512];

	ASSERT_EQ(0, vgpu_t_asm(src, 0, &p, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(7, p.n);
	EXPECT_EQ(VGPU_BRP_IMM(5, 1), p.insns[3].imm);
	EXPECT_EQ(0, p.insns[4].imm);
	EXPECT_EQ(VGPU_BRP_IMM(1, 2), p.insns[5].imm);
	EXPECT_EQ(1, p.insns[5].b);
	EXPECT_EQ(4, p.lines[1]);
	vgpul_vasm_disassemble(p.insns, p.n, text, sizeof(text));
	EXPECT_STREQ(".functional\n"
		     "MOVI r0, 1\n"
		     "IADDI r0, r0, 1\n"
		     "ISETP p0, r0, r0, eq\n"
		     "BRP p0, 5, 1\n"
		     "JMP 0\n"
		     "BRP !p0, 1, 2\n"
		     "EXIT\n", text);
	vgpul_vasm_free(&p);

	ASM_ERROR(".functional\nJMP nowhere\nEXIT\n",
		  "t.vasm:2: undefined label 'nowhere'");
	ASM_ERROR(".functional\na:\nMOVI r1, 1\na: EXIT\n",
		  "t.vasm:4: label 'a' already defined at line 2");
	ASM_ERROR("9x: EXIT\n", "t.vasm:1: invalid label '9x'");
	ASM_ERROR(".x: EXIT\n", "t.vasm:1: invalid label '.x'");
	ASM_ERROR(".functional\nJMP 1x\nEXIT\n", "t.vasm:2: invalid number");
	ASM_ERROR(".functional\nJMP 70000\nEXIT\n",
		  "t.vasm:2: branch target 70000 above 65535");
	ASM_ERROR(".functional\nJMP a-b\nEXIT\n",
		  "t.vasm:2: expected a label or an instruction index, found 'a-b'");
}

/* Operand errors of the functional instructions, with lines. */
TEST(functional_syntax_errors)
{
	ASM_ERROR(".functional\nIADD r1, r2\n",
		  "t.vasm:2: IADD takes rD, rA, rB");
	ASM_ERROR(".functional\nIADD r1, r2, r3, r4\n",
		  "t.vasm:2: IADD takes rD, rA, rB");
	ASM_ERROR("IADD r1, r2,\n", "t.vasm:1: empty operand");
	ASM_ERROR("IADD r1,, r2\n", "t.vasm:1: empty operand");
	ASM_ERROR("IADD r1, r255, r2\n", "t.vasm:1: r255 out of range (r0..r254)");
	ASM_ERROR("IADD r1, x2, r2\n",
		  "t.vasm:1: expected a register r0..r254, found 'x2'");
	ASM_ERROR("ISETP r1, r2, r3, lt\n",
		  "t.vasm:1: expected a predicate p0..p7, found 'r1'");
	ASM_ERROR("ISETP p8, r2, r3, lt\n", "t.vasm:1: p8 out of range (p0..p7)");
	ASM_ERROR("ISETP p1, r2, r3, less\n",
		  "t.vasm:1: unknown condition 'less' (eq ne lt le gt ge)");
	ASM_ERROR("PLOP p1, p2, p3, nand\n",
		  "t.vasm:1: unknown predicate operation 'nand' (and or xor andnot)");
	ASM_ERROR("S2R r1, %clock\n",
		  "t.vasm:1: unknown special register '%clock' (%lane %warp %tid %ntid %ctaid %nctaid %item %nitems)");
	ASM_ERROR("MOVI r1, -2147483649\n", "t.vasm:1: immediate -2147483649 below -2^31");
	ASM_ERROR("MOVI r1, 4294967296\n", "t.vasm:1: number too large");
	ASM_ERROR("LDG r1, [r2]\n", "t.vasm:1: expected a buffer slot sN first in '[r2]'");
	ASM_ERROR("LDG r1, [s16 + r2]\n", "t.vasm:1: slot s16 out of range (s0..s15)");
	ASM_ERROR("LDS r1, [s0 + r2]\n",
		  "t.vasm:1: no buffer slot here: shared and private memory are addressed [rN + OFFSET]");
	ASM_ERROR("LDS r1, r2\n",
		  "t.vasm:1: expected a memory operand [r + OFFSET], found 'r2'");
	ASM_ERROR("LDS r1, [r2 + 4 + 4]\n", "t.vasm:1: too many terms in '[r2 + 4 + 4]'");
	ASM_ERROR("LDS r1, [4]\n",
		  "t.vasm:1: expected a register r0..r254, found '4'");
	ASM_ERROR("STG [s0 + r1], 5\n",
		  "t.vasm:1: expected a register r0..r254, found '5'");
	ASM_ERROR("ATOMS r1, [r2 + 4], r3, add\n", "t.vasm:1: atomics take no offset: [r2]");
	ASM_ERROR("ATOMG r1, [s0 + r2], r3, inc\n",
		  "t.vasm:1: unknown atomic operation 'inc' (add min max exch cas)");
	ASM_ERROR("ATOMG r1, [s0 + r2], r3, cas\n",
		  "t.vasm:1: cas needs a compare register: OP, rCMP");
	ASM_ERROR("ATOMG r1, [s0 + r2], r3, add, r4\n",
		  "t.vasm:1: only cas takes a compare register");
	ASM_ERROR("BRP p1, 2\n", "t.vasm:1: BRP takes [!]pN, TARGET, JOIN");
	ASM_ERROR("JMP\n", "t.vasm:1: JMP takes TARGET");
	ASM_ERROR(".functional 1\n", "t.vasm:1: .functional takes no operand");
}

VGPU_TEST_MAIN
