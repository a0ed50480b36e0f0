// SPDX-License-Identifier: GPL-2.0
/*
 * vasm.c - .vasm text assembler and disassembler of the virtual ISA
 * (F04).  Syntax: Documentation/isa.rst.
 *
 * The assembler works line by line: a mnemonic (case-insensitive) and its
 * operands; comments start with ';', '#' or '//'.  LOOP takes a count
 * expression that must reduce to base + step * (wid%N or bid%N), the form
 * the binary encoding holds.  After assembling, the core validator runs and
 * its verdict becomes a message naming the instruction and its line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <vgpu/vasm.h>

#include "workload_core.h"

#define VGPU_VASM_MAX_PAREN	64		/* expression nesting */
#define VGPU_VASM_NUM_MAX	0xffffffffULL	/* largest literal */

/**
 * struct vgpu_vasm_ctx - state of one assembly
 * @name: file name for messages
 * @line: current line (from 1)
 * @err: caller's message buffer (may be NULL)
 * @errlen: size of @err
 * @insns: instructions so far
 * @lines: source line of each instruction
 * @n: number of instructions
 * @cap: allocated entries of @insns and @lines
 * @functional: validate with VGPU_ISA_FUNCTIONAL (.functional or the
 *	VGPU_VASM_FUNCTIONAL flag)
 * @labels: labels defined so far
 * @nlabels: their number
 * @fix: branch operands that name a label, resolved at the end
 * @nfix: their number
 */
struct vgpu_vasm_ctx {
	const char *name;
	unsigned int line;
	char *err;
	size_t errlen;
	struct vgpu_insn *insns;
	unsigned int *lines;
	unsigned int n;
	unsigned int cap;
	bool functional;
	struct vgpu_vasm_label *labels;
	unsigned int nlabels;
	struct vgpu_vasm_fixup *fix;
	unsigned int nfix;
};

#define VGPU_VASM_LABEL_MAX	64	/* characters of a label name */

/**
 * struct vgpu_vasm_label - a label ("name:") and the instruction it marks
 * @name: the name
 * @index: index of the next instruction after it
 * @line: where it was defined
 */
struct vgpu_vasm_label {
	char name[VGPU_VASM_LABEL_MAX + 1];
	unsigned int index;
	unsigned int line;
};

/* branch operands a label can fill */
enum vgpu_vasm_fix_field {
	VGPU_VASM_FIX_TARGET,	/* BRP target: imm bits 0-15 */
	VGPU_VASM_FIX_JOIN,	/* BRP join: imm bits 16-31 */
	VGPU_VASM_FIX_JMP,	/* JMP target: imm */
};

/**
 * struct vgpu_vasm_fixup - a branch operand naming a label
 * @name: the label
 * @insn: the instruction
 * @field: which operand (enum vgpu_vasm_fix_field)
 * @line: its source line
 */
struct vgpu_vasm_fixup {
	char name[VGPU_VASM_LABEL_MAX + 1];
	unsigned int insn;
	unsigned int field;
	unsigned int line;
};

/**
 * struct vgpu_vasm_expr - LOOP count expression being parsed
 * @ctx: the assembly (for messages)
 * @p: cursor in the expression text
 * @sel: VGPU_LOOP_SEL_* of the index term seen, NONE if none yet
 * @mod: modulus of the index term
 * @depth: current parenthesis depth
 */
struct vgpu_vasm_expr {
	struct vgpu_vasm_ctx *ctx;
	const char *p;
	unsigned int sel;
	unsigned int mod;
	int depth;
};

/* The value c0 + c1 * (index % mod) of a (sub)expression. */
struct vgpu_vasm_val {
	u64 c0;
	u64 c1;
};

static int __attribute__((format(printf, 2, 3)))
vgpu_vasm_error(struct vgpu_vasm_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int off;

	if (!ctx->err || !ctx->errlen)
		return -EINVAL;
	off = snprintf(ctx->err, ctx->errlen, "%s:%u: ", ctx->name, ctx->line);
	if (off < 0 || (size_t)off >= ctx->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ctx->err + off, ctx->errlen - off, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void vgpu_vasm_skip_ws(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* Decimal or 0x-prefixed hexadecimal literal, at most VGPU_VASM_NUM_MAX. */
static int vgpu_vasm_parse_num(struct vgpu_vasm_ctx *ctx, const char **pp,
			       u64 *out)
{
	const char *p = *pp;
	unsigned int base = 10, digits = 0;
	u64 v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (tolower((unsigned char)*p) - 'a') + 10;
		else
			break;
		v = v * base + d;
		if (v > VGPU_VASM_NUM_MAX)
			return vgpu_vasm_error(ctx, "number too large");
	}
	if (!digits)
		return vgpu_vasm_error(ctx, "expected a number");
	if (isalnum((unsigned char)*p) || *p == '_')
		return vgpu_vasm_error(ctx, "invalid number");
	*pp = p;
	*out = v;
	return 0;
}

static int vgpu_vasm_expr_sum(struct vgpu_vasm_expr *e,
			      struct vgpu_vasm_val *v);

static int vgpu_vasm_check_val(struct vgpu_vasm_expr *e,
			       const struct vgpu_vasm_val *v)
{
	if (v->c0 > VGPU_VASM_NUM_MAX || v->c1 > VGPU_VASM_NUM_MAX)
		return vgpu_vasm_error(e->ctx, "loop count too large");
	return 0;
}

static const char *vgpu_vasm_sel_name(unsigned int sel)
{
	return sel == VGPU_LOOP_SEL_WID ? "wid" :
	       sel == VGPU_LOOP_SEL_BID ? "bid" : "items";
}

/*
 * primary := NUMBER | '(' sum ')' | ('wid' | 'bid') '%' NUMBER
 *	    | 'items' ['%' NUMBER]
 *
 * A bare "items" (F14) is items % VGPU_ISA_MAX_LOOP_MOD: a block never has
 * more than VGPU_MAX_COALESCE items, so that is the item count itself.
 */
static int vgpu_vasm_expr_primary(struct vgpu_vasm_expr *e,
				  struct vgpu_vasm_val *v)
{
	const char *p;
	unsigned int sel;
	u64 mod;
	int ret;

	vgpu_vasm_skip_ws(&e->p);
	p = e->p;
	if (*p == '(') {
		if (++e->depth > VGPU_VASM_MAX_PAREN)
			return vgpu_vasm_error(e->ctx, "expression nested too deeply");
		e->p++;
		ret = vgpu_vasm_expr_sum(e, v);
		if (ret)
			return ret;
		vgpu_vasm_skip_ws(&e->p);
		if (*e->p != ')')
			return vgpu_vasm_error(e->ctx, "expected ')'");
		e->p++;
		e->depth--;
		return 0;
	}
	if (*p >= '0' && *p <= '9') {
		v->c1 = 0;
		return vgpu_vasm_parse_num(e->ctx, &e->p, &v->c0);
	}
	if (!strncasecmp(p, "wid", 3))
		sel = VGPU_LOOP_SEL_WID;
	else if (!strncasecmp(p, "bid", 3))
		sel = VGPU_LOOP_SEL_BID;
	else if (!strncasecmp(p, "items", 5))
		sel = VGPU_LOOP_SEL_ITEMS;
	else
		return vgpu_vasm_error(e->ctx,
				       "expected a number, '(', wid%%N, bid%%N or items");
	p += sel == VGPU_LOOP_SEL_ITEMS ? 5 : 3;
	if (isalnum((unsigned char)*p) || *p == '_')
		return vgpu_vasm_error(e->ctx,
				       "expected a number, '(', wid%%N, bid%%N or items");
	vgpu_vasm_skip_ws(&p);
	if (*p != '%' && sel == VGPU_LOOP_SEL_ITEMS) {
		mod = VGPU_ISA_MAX_LOOP_MOD;
	} else if (*p != '%') {
		return vgpu_vasm_error(e->ctx,
				       "%s must be reduced modulo a constant: write %s%%N",
				       vgpu_vasm_sel_name(sel),
				       vgpu_vasm_sel_name(sel));
	} else {
		p++;
		vgpu_vasm_skip_ws(&p);
		ret = vgpu_vasm_parse_num(e->ctx, &p, &mod);
		if (ret)
			return ret;
	}
	if (mod < 1 || mod > VGPU_ISA_MAX_LOOP_MOD)
		return vgpu_vasm_error(e->ctx, "modulus must be 1..%u",
				       VGPU_ISA_MAX_LOOP_MOD);
	if (e->sel != VGPU_LOOP_SEL_NONE && (e->sel != sel || e->mod != mod))
		return vgpu_vasm_error(e->ctx,
				       "only one index term (wid%%N, bid%%N or items) per LOOP");
	e->sel = sel;
	e->mod = mod;
	e->p = p;
	v->c0 = 0;
	v->c1 = 1;
	return 0;
}

/* product := primary ('*' primary)* */
static int vgpu_vasm_expr_product(struct vgpu_vasm_expr *e,
				  struct vgpu_vasm_val *v)
{
	struct vgpu_vasm_val r;
	int ret;

	ret = vgpu_vasm_expr_primary(e, v);
	while (!ret) {
		vgpu_vasm_skip_ws(&e->p);
		if (*e->p != '*')
			break;
		e->p++;
		ret = vgpu_vasm_expr_primary(e, &r);
		if (ret)
			break;
		if (v->c1 && r.c1)
			return vgpu_vasm_error(e->ctx,
					       "index term multiplied by itself: the count must be base + step*(wid%%N)");
		/* operands are <= 2^32 - 1, so no product overflows */
		v->c1 = v->c0 * r.c1 + v->c1 * r.c0;
		v->c0 = v->c0 * r.c0;
		ret = vgpu_vasm_check_val(e, v);
	}
	return ret;
}

/* sum := product ('+' product)* */
static int vgpu_vasm_expr_sum(struct vgpu_vasm_expr *e,
			      struct vgpu_vasm_val *v)
{
	struct vgpu_vasm_val r;
	int ret;

	ret = vgpu_vasm_expr_product(e, v);
	while (!ret) {
		vgpu_vasm_skip_ws(&e->p);
		if (*e->p != '+')
			break;
		e->p++;
		ret = vgpu_vasm_expr_product(e, &r);
		if (ret)
			break;
		v->c0 += r.c0;
		v->c1 += r.c1;
		ret = vgpu_vasm_check_val(e, v);
	}
	return ret;
}

static int vgpu_vasm_parse_loop(struct vgpu_vasm_ctx *ctx, const char *s,
				struct vgpu_insn *in)
{
	struct vgpu_vasm_expr e = { .ctx = ctx, .p = s };
	struct vgpu_vasm_val v;
	int ret;

	if (!*s)
		return vgpu_vasm_error(ctx, "LOOP needs a count");
	ret = vgpu_vasm_expr_sum(&e, &v);
	if (ret)
		return ret;
	vgpu_vasm_skip_ws(&e.p);
	if (*e.p)
		return vgpu_vasm_error(ctx, "unexpected '%c' in loop count",
				       *e.p);
	if (v.c0 > 0xffff)
		return vgpu_vasm_error(ctx, "LOOP base %llu exceeds 65535",
				       (unsigned long long)v.c0);
	if (v.c1 > 0xffff)
		return vgpu_vasm_error(ctx, "LOOP step %llu exceeds 65535",
				       (unsigned long long)v.c1);
	in->a = e.sel;
	in->b = e.sel == VGPU_LOOP_SEL_NONE ? 0 : e.mod;
	in->imm = VGPU_LOOP_IMM(v.c0, v.c1);
	return 0;
}

/* .insn OP, A, B, C, IMM (commas optional) */
static int vgpu_vasm_parse_raw(struct vgpu_vasm_ctx *ctx, const char *s,
			       struct vgpu_insn *in)
{
	u64 v[5];
	int i, ret;

	for (i = 0; i < 5; i++) {
		vgpu_vasm_skip_ws(&s);
		if (i && *s == ',') {
			s++;
			vgpu_vasm_skip_ws(&s);
		}
		ret = vgpu_vasm_parse_num(ctx, &s, &v[i]);
		if (ret)
			return ret;
		if (i < 4 && v[i] > 0xff)
			return vgpu_vasm_error(ctx, ".insn byte field %d exceeds 255",
					       i);
	}
	vgpu_vasm_skip_ws(&s);
	if (*s)
		return vgpu_vasm_error(ctx, ".insn takes 5 numbers: op, a, b, c, imm");
	in->op = v[0];
	in->a = v[1];
	in->b = v[2];
	in->c = v[3];
	in->imm = v[4];
	return 0;
}

static int vgpu_vasm_emit(struct vgpu_vasm_ctx *ctx,
			  const struct vgpu_insn *in)
{
	if (ctx->n == ctx->cap) {
		unsigned int cap = ctx->cap ? ctx->cap * 2 : 64;
		struct vgpu_insn *insns;
		unsigned int *lines;

		insns = realloc(ctx->insns, cap * sizeof(*insns));
		if (!insns)
			return -ENOMEM;
		ctx->insns = insns;
		lines = realloc(ctx->lines, cap * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		ctx->lines = lines;
		ctx->cap = cap;
	}
	ctx->insns[ctx->n] = *in;
	ctx->lines[ctx->n] = ctx->line;
	ctx->n++;
	return 0;
}

static const struct {
	const char *name;
	u8 op;
} vgpu_vasm_mnemonics[] = {
	{ "MOV", VGPU_OP_MOV }, { "LOAD", VGPU_OP_LOAD },
	{ "STORE", VGPU_OP_STORE }, { "MMA", VGPU_OP_MMA },
	{ "CMP", VGPU_OP_CMP }, { "BRA", VGPU_OP_BRA },
	{ "ALU", VGPU_OP_ALU }, { "LOOP", VGPU_OP_LOOP },
	{ "ENDLOOP", VGPU_OP_ENDLOOP }, { "BAR", VGPU_OP_BAR },
	{ "LOCK", VGPU_OP_LOCK }, { "UNLOCK", VGPU_OP_UNLOCK },
	{ "SPIN", VGPU_OP_SPIN }, { "EXIT", VGPU_OP_EXIT },
	{ "LAUNCH", VGPU_OP_LAUNCH }, { "PUSH", VGPU_OP_PUSH },
};

/* LAUNCH T [, wait] (F15): template index T, optional "wait" flag. */
static int vgpu_vasm_parse_launch(struct vgpu_vasm_ctx *ctx, const char *q,
				  struct vgpu_insn *in)
{
	u64 v;
	int ret;

	if (!*q)
		return vgpu_vasm_error(ctx, "LAUNCH needs a template index");
	ret = vgpu_vasm_parse_num(ctx, &q, &v);
	if (ret)
		return ret;
	if (v > 0xff)
		return vgpu_vasm_error(ctx, "template index %llu out of range (0..%u)",
				       (unsigned long long)v,
				       VGPU_MAX_TEMPLATES - 1);
	in->a = v;
	vgpu_vasm_skip_ws(&q);
	if (!*q)
		return 0;
	if (*q != ',')
		return vgpu_vasm_error(ctx, "LAUNCH takes a template index and optionally ', wait'");
	q++;
	vgpu_vasm_skip_ws(&q);
	if (strncasecmp(q, "wait", 4))
		return vgpu_vasm_error(ctx, "unknown LAUNCH flag '%s' (wait)", q);
	q += 4;
	vgpu_vasm_skip_ws(&q);
	if (*q)
		return vgpu_vasm_error(ctx, "unexpected '%c' after LAUNCH flag", *q);
	in->b = VGPU_LAUNCH_WAIT;
	return 0;
}

/* Operand syntax of the functional instructions (Documentation/isa.rst). */
enum vgpu_vasm_syn {
	VGPU_VASM_S_RI,		/* rd, imm */
	VGPU_VASM_S_RR,		/* rd, rs */
	VGPU_VASM_S_RSR,	/* rd, %sr */
	VGPU_VASM_S_RRRP,	/* rd, rs1, rs2, p */
	VGPU_VASM_S_RRR,	/* rd, rs1, rs2 */
	VGPU_VASM_S_RRRR,	/* rd, rs1, rs2, rs3 */
	VGPU_VASM_S_RRI,	/* rd, rs, imm */
	VGPU_VASM_S_SETP,	/* pd, rs1, rs2, cond */
	VGPU_VASM_S_PLOP,	/* pd, ps1, ps2, op */
	VGPU_VASM_S_LD,		/* rd, [mem] */
	VGPU_VASM_S_ST,		/* [mem], rs */
	VGPU_VASM_S_ATOM,	/* rd, [mem], rv, op[, rcmp] */
	VGPU_VASM_S_BRP,	/* [!]p, target, join */
	VGPU_VASM_S_JMP,	/* target */
};

static const char *const vgpu_vasm_syn_text[] = {
	[VGPU_VASM_S_RI]	= "rD, IMM",
	[VGPU_VASM_S_RR]	= "rD, rS",
	[VGPU_VASM_S_RSR]	= "rD, %SREG",
	[VGPU_VASM_S_RRRP]	= "rD, rA, rB, pN",
	[VGPU_VASM_S_RRR]	= "rD, rA, rB",
	[VGPU_VASM_S_RRRR]	= "rD, rA, rB, rC",
	[VGPU_VASM_S_RRI]	= "rD, rA, IMM",
	[VGPU_VASM_S_SETP]	= "pD, rA, rB, COND",
	[VGPU_VASM_S_PLOP]	= "pD, pA, pB, and|or|xor|andnot",
	[VGPU_VASM_S_LD]	= "rD, [ADDRESS]",
	[VGPU_VASM_S_ST]	= "[ADDRESS], rS",
	[VGPU_VASM_S_ATOM]	= "rD, [ADDRESS], rV, OP[, rCMP]",
	[VGPU_VASM_S_BRP]	= "[!]pN, TARGET, JOIN",
	[VGPU_VASM_S_JMP]	= "TARGET",
};

/**
 * struct vgpu_vasm_fmn - a functional mnemonic
 * @name: the mnemonic (MOV with operands is VGPU_OP_MOVR)
 * @op: its opcode
 * @syn: its operand syntax, enum vgpu_vasm_syn
 * @slot: memory operand: 1 when it names a buffer slot ([sN + ...])
 */
struct vgpu_vasm_fmn {
	const char *name;
	u8 op;
	u8 syn;
	u8 slot;
};

static const struct vgpu_vasm_fmn vgpu_vasm_func[] = {
	{ "MOVI", VGPU_OP_MOVI, VGPU_VASM_S_RI, 0 },
	{ "MOV", VGPU_OP_MOVR, VGPU_VASM_S_RR, 0 },
	{ "S2R", VGPU_OP_S2R, VGPU_VASM_S_RSR, 0 },
	{ "SELP", VGPU_OP_SELP, VGPU_VASM_S_RRRP, 0 },
	{ "IADD", VGPU_OP_IADD, VGPU_VASM_S_RRR, 0 },
	{ "ISUB", VGPU_OP_ISUB, VGPU_VASM_S_RRR, 0 },
	{ "IMUL", VGPU_OP_IMUL, VGPU_VASM_S_RRR, 0 },
	{ "IMAD", VGPU_OP_IMAD, VGPU_VASM_S_RRRR, 0 },
	{ "IMIN", VGPU_OP_IMIN, VGPU_VASM_S_RRR, 0 },
	{ "IMAX", VGPU_OP_IMAX, VGPU_VASM_S_RRR, 0 },
	{ "AND", VGPU_OP_AND, VGPU_VASM_S_RRR, 0 },
	{ "OR", VGPU_OP_OR, VGPU_VASM_S_RRR, 0 },
	{ "XOR", VGPU_OP_XOR, VGPU_VASM_S_RRR, 0 },
	{ "SHL", VGPU_OP_SHL, VGPU_VASM_S_RRR, 0 },
	{ "SHR", VGPU_OP_SHR, VGPU_VASM_S_RRR, 0 },
	{ "SRA", VGPU_OP_SRA, VGPU_VASM_S_RRR, 0 },
	{ "IADDI", VGPU_OP_IADDI, VGPU_VASM_S_RRI, 0 },
	{ "UDIV", VGPU_OP_UDIV, VGPU_VASM_S_RRR, 0 },
	{ "UREM", VGPU_OP_UREM, VGPU_VASM_S_RRR, 0 },
	{ "FADD", VGPU_OP_FADD, VGPU_VASM_S_RRR, 0 },
	{ "FSUB", VGPU_OP_FSUB, VGPU_VASM_S_RRR, 0 },
	{ "FMUL", VGPU_OP_FMUL, VGPU_VASM_S_RRR, 0 },
	{ "FFMA", VGPU_OP_FFMA, VGPU_VASM_S_RRRR, 0 },
	{ "FMIN", VGPU_OP_FMIN, VGPU_VASM_S_RRR, 0 },
	{ "FMAX", VGPU_OP_FMAX, VGPU_VASM_S_RRR, 0 },
	{ "I2F", VGPU_OP_I2F, VGPU_VASM_S_RR, 0 },
	{ "F2I", VGPU_OP_F2I, VGPU_VASM_S_RR, 0 },
	{ "ISETP", VGPU_OP_ISETP, VGPU_VASM_S_SETP, 0 },
	{ "USETP", VGPU_OP_USETP, VGPU_VASM_S_SETP, 0 },
	{ "FSETP", VGPU_OP_FSETP, VGPU_VASM_S_SETP, 0 },
	{ "PLOP", VGPU_OP_PLOP, VGPU_VASM_S_PLOP, 0 },
	{ "LDG", VGPU_OP_LDG, VGPU_VASM_S_LD, 1 },
	{ "STG", VGPU_OP_STG, VGPU_VASM_S_ST, 1 },
	{ "LDS", VGPU_OP_LDS, VGPU_VASM_S_LD, 0 },
	{ "STS", VGPU_OP_STS, VGPU_VASM_S_ST, 0 },
	{ "LDC", VGPU_OP_LDC, VGPU_VASM_S_LD, 1 },
	{ "LDL", VGPU_OP_LDL, VGPU_VASM_S_LD, 0 },
	{ "STL", VGPU_OP_STL, VGPU_VASM_S_ST, 0 },
	{ "ATOMG", VGPU_OP_ATOMG, VGPU_VASM_S_ATOM, 1 },
	{ "ATOMS", VGPU_OP_ATOMS, VGPU_VASM_S_ATOM, 0 },
	{ "BRP", VGPU_OP_BRP, VGPU_VASM_S_BRP, 0 },
	{ "JMP", VGPU_OP_JMP, VGPU_VASM_S_JMP, 0 },
};

static const char *const vgpu_vasm_sregs[] = {
	[VGPU_SR_LANE] = "lane", [VGPU_SR_WARP] = "warp",
	[VGPU_SR_TID] = "tid", [VGPU_SR_NTID] = "ntid",
	[VGPU_SR_CTAID] = "ctaid", [VGPU_SR_NCTAID] = "nctaid",
	[VGPU_SR_ITEM] = "item", [VGPU_SR_NITEMS] = "nitems",
};

static const char *const vgpu_vasm_conds[] = {
	[VGPU_COND_EQ] = "eq", [VGPU_COND_NE] = "ne", [VGPU_COND_LT] = "lt",
	[VGPU_COND_LE] = "le", [VGPU_COND_GT] = "gt", [VGPU_COND_GE] = "ge",
};

static const char *const vgpu_vasm_plops[] = {
	[VGPU_PLOP_AND] = "and", [VGPU_PLOP_OR] = "or",
	[VGPU_PLOP_XOR] = "xor", [VGPU_PLOP_ANDNOT] = "andnot",
};

static const char *const vgpu_vasm_atoms[] = {
	[VGPU_ATOM_ADD] = "add", [VGPU_ATOM_MIN] = "min",
	[VGPU_ATOM_MAX] = "max", [VGPU_ATOM_EXCH] = "exch",
	[VGPU_ATOM_CAS] = "cas",
};

#define VGPU_VASM_MAX_OPS	6

/* The index of @tok in @names (case-insensitive), -1 if none. */
static int vgpu_vasm_word(const char *tok, const char *const *names,
			  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcasecmp(tok, names[i]))
			return i;
	return -1;
}

static bool vgpu_vasm_is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* A whole token that is a number: decimal or 0x hex, up to 2^32 - 1. */
static int vgpu_vasm_tok_num(struct vgpu_vasm_ctx *ctx, const char *tok,
			     u64 *v)
{
	const char *p = tok;
	int ret;

	ret = vgpu_vasm_parse_num(ctx, &p, v);
	if (!ret && *p)
		ret = vgpu_vasm_error(ctx, "unexpected '%s' after a number", p);
	return ret;
}

/* An immediate: a number or a negative one (two's complement). */
static int vgpu_vasm_tok_imm(struct vgpu_vasm_ctx *ctx, const char *tok,
			     u32 *v)
{
	bool neg = *tok == '-';
	u64 x;
	int ret;

	ret = vgpu_vasm_tok_num(ctx, tok + neg, &x);
	if (ret)
		return ret;
	if (neg && x > 0x80000000ULL)
		return vgpu_vasm_error(ctx, "immediate %s below -2^31", tok);
	*v = neg ? (u32)-x : (u32)x;
	return 0;
}

/* 'r' N (register) or 'p' N (predicate) with N up to @max. */
static int vgpu_vasm_tok_reg(struct vgpu_vasm_ctx *ctx, const char *tok,
			     char kind, unsigned int max, u8 *v)
{
	u64 x;

	if (tolower((unsigned char)tok[0]) != kind ||
	    !isdigit((unsigned char)tok[1]))
		return vgpu_vasm_error(ctx, "expected %s, found '%s'",
				       kind == 'r' ? "a register r0..r254" :
				       "a predicate p0..p7", tok);
	if (vgpu_vasm_tok_num(ctx, tok + 1, &x))
		return -EINVAL;
	if (x > max)
		return vgpu_vasm_error(ctx, "%s out of range (%c0..%c%u)", tok,
				       kind, kind, max);
	*v = x;
	return 0;
}

#define VGPU_VASM_R(ctx, tok, v) \
	vgpu_vasm_tok_reg(ctx, tok, 'r', VGPU_ISA_NUM_REGS - 1, v)
#define VGPU_VASM_P(ctx, tok, v) \
	vgpu_vasm_tok_reg(ctx, tok, 'p', VGPU_ISA_NUM_PREDS - 1, v)

/*
 * A memory operand: "[sS + rC + OFF]" with @slot, "[rC + OFF]" without;
 * no offset for atomics (@off NULL).
 */
static int vgpu_vasm_tok_mem(struct vgpu_vasm_ctx *ctx, const char *tok,
			     bool slot, u8 *b, u8 *c, u32 *off)
{
	char buf[128], *term[3], *q;
	unsigned int n = 0, i = 0;
	size_t len = strlen(tok);
	u64 x;

	if (len < 2 || tok[0] != '[' || tok[len - 1] != ']' ||
	    len - 2 >= sizeof(buf))
		return vgpu_vasm_error(ctx, "expected a memory operand [%sr%s], found '%s'",
				       slot ? "sN + " : "",
				       off ? " + OFFSET" : "", tok);
	memcpy(buf, tok + 1, len - 2);
	buf[len - 2] = '\0';
	for (q = buf; n < ARRAY_SIZE(term); n++) {
		char *plus = strchr(q, '+'), *e;

		if (plus)
			*plus = '\0';
		while (isspace((unsigned char)*q))
			q++;
		e = q + strlen(q);
		while (e > q && isspace((unsigned char)e[-1]))
			*--e = '\0';
		term[n] = q;
		if (!plus) {
			n++;
			break;
		}
		q = plus + 1;
		if (n + 1 == ARRAY_SIZE(term))
			return vgpu_vasm_error(ctx, "too many terms in '%s'", tok);
	}
	if (slot) {
		if (tolower((unsigned char)term[0][0]) != 's' ||
		    !isdigit((unsigned char)term[0][1]))
			return vgpu_vasm_error(ctx, "expected a buffer slot sN first in '%s'",
					       tok);
		if (vgpu_vasm_tok_num(ctx, term[0] + 1, &x))
			return -EINVAL;
		if (x >= VGPU_ISA_MAX_SLOTS)
			return vgpu_vasm_error(ctx, "slot %s out of range (s0..s%u)",
					       term[0], VGPU_ISA_MAX_SLOTS - 1);
		*b = x;
		i = 1;
	} else if (tolower((unsigned char)term[0][0]) == 's' &&
		   isdigit((unsigned char)term[0][1])) {
		return vgpu_vasm_error(ctx, "no buffer slot here: shared and private memory are addressed [rN + OFFSET]");
	}
	if (i >= n)
		return vgpu_vasm_error(ctx, "expected an address register in '%s'", tok);
	if (VGPU_VASM_R(ctx, term[i], c))
		return -EINVAL;
	i++;
	if (i < n) {
		if (!off)
			return vgpu_vasm_error(ctx, "atomics take no offset: [%sr%u]",
					       slot ? "sN + " : "", *c);
		if (vgpu_vasm_tok_num(ctx, term[i], &x))
			return -EINVAL;
		*off = x;
		i++;
	}
	if (i < n)
		return vgpu_vasm_error(ctx, "too many terms in '%s'", tok);
	return 0;
}

/* A branch target: a number (instruction index) or a label. */
static int vgpu_vasm_tok_target(struct vgpu_vasm_ctx *ctx, const char *tok,
				unsigned int field, u32 *v)
{
	struct vgpu_vasm_fixup *f;
	u64 x;

	if (isdigit((unsigned char)*tok)) {
		if (vgpu_vasm_tok_num(ctx, tok, &x))
			return -EINVAL;
		if (x > 0xffff)
			return vgpu_vasm_error(ctx, "branch target %s above 65535", tok);
		*v = x;
		return 0;
	}
	if (!vgpu_vasm_is_ident(tok) || strlen(tok) > VGPU_VASM_LABEL_MAX)
		return vgpu_vasm_error(ctx, "expected a label or an instruction index, found '%s'",
				       tok);
	f = realloc(ctx->fix, (ctx->nfix + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	ctx->fix = f;
	f += ctx->nfix++;
	strcpy(f->name, tok);
	f->insn = ctx->n;
	f->field = field;
	f->line = ctx->line;
	*v = 0;
	return 0;
}

/* "name:" at @s: a new label for the next instruction. */
static int vgpu_vasm_label(struct vgpu_vasm_ctx *ctx, const char *s,
			   size_t len)
{
	struct vgpu_vasm_label *l;
	unsigned int i;

	if (len > VGPU_VASM_LABEL_MAX)
		return vgpu_vasm_error(ctx, "label longer than %u characters",
				       VGPU_VASM_LABEL_MAX);
	for (i = 0; i < ctx->nlabels; i++)
		if (strlen(ctx->labels[i].name) == len &&
		    !strncmp(ctx->labels[i].name, s, len))
			return vgpu_vasm_error(ctx, "label '%.*s' already defined at line %u",
					       (int)len, s,
					       ctx->labels[i].line);
	l = realloc(ctx->labels, (ctx->nlabels + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	ctx->labels = l;
	l += ctx->nlabels++;
	memcpy(l->name, s, len);
	l->name[len] = '\0';
	l->index = ctx->n;
	l->line = ctx->line;
	return 0;
}

/* Every label operand gets its instruction index. */
static int vgpu_vasm_resolve(struct vgpu_vasm_ctx *ctx)
{
	struct vgpu_insn *in;
	unsigned int i, j;

	for (i = 0; i < ctx->nfix; i++) {
		const struct vgpu_vasm_fixup *f = &ctx->fix[i];

		for (j = 0; j < ctx->nlabels; j++)
			if (!strcmp(ctx->labels[j].name, f->name))
				break;
		if (j == ctx->nlabels) {
			ctx->line = f->line;
			return vgpu_vasm_error(ctx, "undefined label '%s'",
					       f->name);
		}
		in = &ctx->insns[f->insn];
		if (f->field == VGPU_VASM_FIX_JOIN)
			in->imm = VGPU_BRP_IMM(VGPU_BRP_TARGET(in->imm),
					       ctx->labels[j].index);
		else if (f->field == VGPU_VASM_FIX_TARGET)
			in->imm = VGPU_BRP_IMM(ctx->labels[j].index,
					       VGPU_BRP_JOIN(in->imm));
		else
			in->imm = ctx->labels[j].index;
	}
	return 0;
}

/* The operands @s of functional mnemonic @m into @in. */
static int vgpu_vasm_parse_func(struct vgpu_vasm_ctx *ctx,
				const struct vgpu_vasm_fmn *m, char *s,
				struct vgpu_insn *in)
{
	static const u8 nops[] = {
		[VGPU_VASM_S_RI] = 2, [VGPU_VASM_S_RR] = 2,
		[VGPU_VASM_S_RSR] = 2, [VGPU_VASM_S_RRRP] = 4,
		[VGPU_VASM_S_RRR] = 3, [VGPU_VASM_S_RRRR] = 4,
		[VGPU_VASM_S_RRI] = 3, [VGPU_VASM_S_SETP] = 4,
		[VGPU_VASM_S_PLOP] = 4, [VGPU_VASM_S_LD] = 2,
		[VGPU_VASM_S_ST] = 2, [VGPU_VASM_S_ATOM] = 4,
		[VGPU_VASM_S_BRP] = 3, [VGPU_VASM_S_JMP] = 1,
	};
	char *tok[VGPU_VASM_MAX_OPS + 1];
	unsigned int n = 0;
	u8 r, x, y;
	u32 v = 0;
	int k;

	in->op = m->op;
	while (*s && n <= VGPU_VASM_MAX_OPS) {
		char *comma = strchr(s, ','), *e;

		if (comma)
			*comma = '\0';
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!*s)
			return vgpu_vasm_error(ctx, "empty operand");
		tok[n++] = s;
		if (!comma)
			break;
		s = comma + 1;
		if (!*s)
			return vgpu_vasm_error(ctx, "empty operand");
	}
	if (n != nops[m->syn] &&
	    !(m->syn == VGPU_VASM_S_ATOM && n == 5))
		return vgpu_vasm_error(ctx, "%s takes %s", m->name,
				       vgpu_vasm_syn_text[m->syn]);

	switch (m->syn) {
	case VGPU_VASM_S_RI:
		if (VGPU_VASM_R(ctx, tok[0], &in->a) ||
		    vgpu_vasm_tok_imm(ctx, tok[1], &in->imm))
			return -EINVAL;
		return 0;
	case VGPU_VASM_S_RR:
		return VGPU_VASM_R(ctx, tok[0], &in->a) ||
		       VGPU_VASM_R(ctx, tok[1], &in->b) ? -EINVAL : 0;
	case VGPU_VASM_S_RSR:
		if (VGPU_VASM_R(ctx, tok[0], &in->a))
			return -EINVAL;
		k = tok[1][0] == '%' ?
		    vgpu_vasm_word(tok[1] + 1, vgpu_vasm_sregs,
				   ARRAY_SIZE(vgpu_vasm_sregs)) : -1;
		if (k < 0)
			return vgpu_vasm_error(ctx, "unknown special register '%s' (%%lane %%warp %%tid %%ntid %%ctaid %%nctaid %%item %%nitems)",
					       tok[1]);
		in->b = k;
		return 0;
	case VGPU_VASM_S_RRRP:
		if (VGPU_VASM_R(ctx, tok[0], &in->a) ||
		    VGPU_VASM_R(ctx, tok[1], &in->b) ||
		    VGPU_VASM_R(ctx, tok[2], &in->c) ||
		    VGPU_VASM_P(ctx, tok[3], &r))
			return -EINVAL;
		in->imm = r;
		return 0;
	case VGPU_VASM_S_RRR:
	case VGPU_VASM_S_RRRR:
		if (VGPU_VASM_R(ctx, tok[0], &in->a) ||
		    VGPU_VASM_R(ctx, tok[1], &in->b) ||
		    VGPU_VASM_R(ctx, tok[2], &in->c))
			return -EINVAL;
		if (m->syn == VGPU_VASM_S_RRRR) {
			if (VGPU_VASM_R(ctx, tok[3], &r))
				return -EINVAL;
			in->imm = r;
		}
		return 0;
	case VGPU_VASM_S_RRI:
		return VGPU_VASM_R(ctx, tok[0], &in->a) ||
		       VGPU_VASM_R(ctx, tok[1], &in->b) ||
		       vgpu_vasm_tok_imm(ctx, tok[2], &in->imm) ? -EINVAL : 0;
	case VGPU_VASM_S_SETP:
		if (VGPU_VASM_P(ctx, tok[0], &in->a) ||
		    VGPU_VASM_R(ctx, tok[1], &in->b) ||
		    VGPU_VASM_R(ctx, tok[2], &in->c))
			return -EINVAL;
		k = vgpu_vasm_word(tok[3], vgpu_vasm_conds,
				   ARRAY_SIZE(vgpu_vasm_conds));
		if (k < 0)
			return vgpu_vasm_error(ctx, "unknown condition '%s' (eq ne lt le gt ge)",
					       tok[3]);
		in->imm = k;
		return 0;
	case VGPU_VASM_S_PLOP:
		if (VGPU_VASM_P(ctx, tok[0], &in->a) ||
		    VGPU_VASM_P(ctx, tok[1], &in->b) ||
		    VGPU_VASM_P(ctx, tok[2], &in->c))
			return -EINVAL;
		k = vgpu_vasm_word(tok[3], vgpu_vasm_plops,
				   ARRAY_SIZE(vgpu_vasm_plops));
		if (k < 0)
			return vgpu_vasm_error(ctx, "unknown predicate operation '%s' (and or xor andnot)",
					       tok[3]);
		in->imm = k;
		return 0;
	case VGPU_VASM_S_LD:
		if (VGPU_VASM_R(ctx, tok[0], &in->a))
			return -EINVAL;
		return vgpu_vasm_tok_mem(ctx, tok[1], m->slot, &in->b, &in->c,
					 &in->imm);
	case VGPU_VASM_S_ST:
		if (vgpu_vasm_tok_mem(ctx, tok[0], m->slot, &in->b, &in->c,
				      &in->imm))
			return -EINVAL;
		return VGPU_VASM_R(ctx, tok[1], &in->a);
	case VGPU_VASM_S_ATOM:
		if (VGPU_VASM_R(ctx, tok[0], &in->a) ||
		    vgpu_vasm_tok_mem(ctx, tok[1], m->slot, &in->b, &in->c,
				      NULL) ||
		    VGPU_VASM_R(ctx, tok[2], &x))
			return -EINVAL;
		k = vgpu_vasm_word(tok[3], vgpu_vasm_atoms,
				   ARRAY_SIZE(vgpu_vasm_atoms));
		if (k < 0)
			return vgpu_vasm_error(ctx, "unknown atomic operation '%s' (add min max exch cas)",
					       tok[3]);
		if (k == VGPU_ATOM_CAS && n != 5)
			return vgpu_vasm_error(ctx, "cas needs a compare register: OP, rCMP");
		if (k != VGPU_ATOM_CAS && n == 5)
			return vgpu_vasm_error(ctx, "only cas takes a compare register");
		y = 0;
		if (n == 5 && VGPU_VASM_R(ctx, tok[4], &y))
			return -EINVAL;
		in->imm = VGPU_ATOM_IMM(x, k, y);
		return 0;
	case VGPU_VASM_S_BRP:
		if (tok[0][0] == '!') {
			in->b = 1;
			tok[0]++;
		}
		if (VGPU_VASM_P(ctx, tok[0], &in->a) ||
		    vgpu_vasm_tok_target(ctx, tok[1], VGPU_VASM_FIX_TARGET, &v))
			return -EINVAL;
		in->imm = v;
		if (vgpu_vasm_tok_target(ctx, tok[2], VGPU_VASM_FIX_JOIN, &v))
			return -EINVAL;
		in->imm = VGPU_BRP_IMM(in->imm, v);
		return 0;
	default:	/* VGPU_VASM_S_JMP */
		return vgpu_vasm_tok_target(ctx, tok[0], VGPU_VASM_FIX_JMP,
					    &in->imm) ? -EINVAL : 0;
	}
}

/* One NUL-terminated source line (comments still in it). */
static int vgpu_vasm_parse_line(struct vgpu_vasm_ctx *ctx, char *s)
{
	struct vgpu_insn in = { 0 };
	char *p, *start, *end, mn[16];
	size_t i;
	u64 v;
	int ret;

	for (p = s; *p; p++) {
		if (*p == ';' || *p == '#' || (p[0] == '/' && p[1] == '/')) {
			*p = '\0';
			break;
		}
	}
	end = p;
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	p = s;
again:
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	start = p;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		p++;
	if (p == start)
		return vgpu_vasm_error(ctx, "expected a mnemonic, found '%c'",
				       *p);
	end = p;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end == ':') {	/* "name:" labels the next instruction */
		if ((!isalpha((unsigned char)*start) && *start != '_') ||
		    memchr(start, '.', p - start))
			return vgpu_vasm_error(ctx, "invalid label '%.*s'",
					       (int)(p - start), start);
		ret = vgpu_vasm_label(ctx, start, p - start);
		if (ret)
			return ret;
		p = end + 1;
		goto again;
	}
	if (*p && !isspace((unsigned char)*p) && *p != '(')
		return vgpu_vasm_error(ctx, "unexpected '%c' after mnemonic",
				       *p);
	if ((size_t)(p - start) >= sizeof(mn))
		return vgpu_vasm_error(ctx, "unknown mnemonic '%.*s...'",
				       (int)sizeof(mn) - 1, start);
	memcpy(mn, start, p - start);
	mn[p - start] = '\0';
	while (isspace((unsigned char)*p))
		p++;

	if (!strcasecmp(mn, ".isa")) {
		const char *q = p;

		ret = vgpu_vasm_parse_num(ctx, &q, &v);
		if (ret)
			return ret;
		if (*q)
			return vgpu_vasm_error(ctx, ".isa takes one number");
		if (v != VGPU_ISA_VERSION)
			return vgpu_vasm_error(ctx,
					       "unsupported ISA version %llu (this assembler knows %u)",
					       (unsigned long long)v,
					       VGPU_ISA_VERSION);
		return 0;
	}
	if (!strcasecmp(mn, ".insn")) {
		ret = vgpu_vasm_parse_raw(ctx, p, &in);
		return ret ? ret : vgpu_vasm_emit(ctx, &in);
	}
	if (!strcasecmp(mn, ".functional")) {
		if (*p)
			return vgpu_vasm_error(ctx, ".functional takes no operand");
		ctx->functional = true;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(vgpu_vasm_func); i++) {
		/* MOV without operands is the timed class */
		if (strcasecmp(mn, vgpu_vasm_func[i].name) ||
		    (vgpu_vasm_func[i].op == VGPU_OP_MOVR && !*p))
			continue;
		ret = vgpu_vasm_parse_func(ctx, &vgpu_vasm_func[i], p, &in);
		return ret ? ret : vgpu_vasm_emit(ctx, &in);
	}
	for (i = 0; i < ARRAY_SIZE(vgpu_vasm_mnemonics); i++)
		if (!strcasecmp(mn, vgpu_vasm_mnemonics[i].name))
			break;
	if (i == ARRAY_SIZE(vgpu_vasm_mnemonics))
		return vgpu_vasm_error(ctx, "unknown mnemonic '%s'", mn);
	in.op = vgpu_vasm_mnemonics[i].op;

	switch (in.op) {
	case VGPU_OP_LOOP:
		ret = vgpu_vasm_parse_loop(ctx, p, &in);
		break;
	case VGPU_OP_LAUNCH:
		ret = vgpu_vasm_parse_launch(ctx, p, &in);
		break;
	case VGPU_OP_PUSH: {	/* PUSH n: n work items to the target (F14) */
		const char *q = p;

		if (!*q)
			return vgpu_vasm_error(ctx, "PUSH needs a number of items");
		ret = vgpu_vasm_parse_num(ctx, &q, &v);
		if (ret)
			return ret;
		if (*q)
			return vgpu_vasm_error(ctx, "PUSH takes one number of items");
		if (!v || v > VGPU_MAX_QUEUE_ITEMS)
			return vgpu_vasm_error(ctx, "PUSH of %llu items (1..%lu)",
					       (unsigned long long)v,
					       (unsigned long)VGPU_MAX_QUEUE_ITEMS);
		in.imm = v;
		break;
	}
	case VGPU_OP_MMA: {	/* MMA [tiles]: 1, 2, 4 or 8 base tiles */
		const char *q = p;

		ret = 0;
		if (!*q)
			break;
		ret = vgpu_vasm_parse_num(ctx, &q, &v);
		if (ret)
			return ret;
		if (*q)
			return vgpu_vasm_error(ctx, "MMA takes one size");
		if (!v || v > (1U << VGPU_MMA_SIZE_MAX) || (v & (v - 1)))
			return vgpu_vasm_error(ctx, "MMA size %llu is not 1, 2, 4 or 8 tiles",
					       (unsigned long long)v);
		in.a = __builtin_ctzll(v);
		break;
	}
	case VGPU_OP_LOCK:
	case VGPU_OP_UNLOCK: {
		const char *q = p;

		if (!*q)
			return vgpu_vasm_error(ctx, "%s needs a mutex id",
					       vgpu_vasm_mnemonics[i].name);
		ret = vgpu_vasm_parse_num(ctx, &q, &v);
		if (ret)
			return ret;
		if (*q)
			return vgpu_vasm_error(ctx, "%s takes one mutex id",
					       vgpu_vasm_mnemonics[i].name);
		if (v > 0xff)
			return vgpu_vasm_error(ctx, "mutex id %llu out of range (0..%u)",
					       (unsigned long long)v,
					       VGPU_ISA_MAX_MUTEX - 1);
		in.a = v;
		ret = 0;
		break;
	}
	default:
		if (*p)
			return vgpu_vasm_error(ctx, "%s takes no operand",
					       vgpu_vasm_mnemonics[i].name);
		ret = 0;
		break;
	}
	return ret ? ret : vgpu_vasm_emit(ctx, &in);
}

static void vgpu_vasm_reset(struct vgpu_vasm_ctx *ctx)
{
	free(ctx->insns);
	free(ctx->lines);
	free(ctx->labels);
	free(ctx->fix);
	ctx->labels = NULL;
	ctx->fix = NULL;
	ctx->nlabels = 0;
	ctx->nfix = 0;
	ctx->insns = NULL;
	ctx->lines = NULL;
	ctx->n = 0;
	ctx->cap = 0;
}

int vgpul_vasm_assemble(const char *name, const char *src, size_t len,
		       unsigned int flags, struct vgpu_vasm_prog *prog,
		       char *err, size_t errlen)
{
	struct vgpu_vasm_ctx ctx = {
		.name = name ? name : "<input>",
		.err = err,
		.errlen = errlen,
	};
	struct vgpu_isa_error verr;
	size_t pos = 0, cap = 0;
	char *buf = NULL;
	int ret = 0;

	memset(prog, 0, sizeof(*prog));
	if (err && errlen)
		err[0] = '\0';
	if (flags & ~VGPU_VASM_FLAGS_ALL)
		return -EINVAL;
	if (!src)
		len = 0;

	while (pos < len) {
		const char *nl = memchr(src + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (src + pos)) : len - pos;

		ctx.line++;
		if (l + 1 > cap) {
			char *nb = realloc(buf, l + 1);

			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap = l + 1;
		}
		memcpy(buf, src + pos, l);
		buf[l] = '\0';
		pos += l + 1;
		if (memchr(buf, '\0', l)) {
			ret = vgpu_vasm_error(&ctx, "NUL byte in source");
			break;
		}
		ret = vgpu_vasm_parse_line(&ctx, buf);
		if (ret)
			break;
	}
	free(buf);
	if (!ret)
		ret = vgpu_vasm_resolve(&ctx);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", ctx.name);
	if (ret)
		goto fail;
	free(ctx.labels);
	free(ctx.fix);
	ctx.labels = NULL;
	ctx.fix = NULL;

	if (flags & VGPU_VASM_FUNCTIONAL)
		ctx.functional = true;
	if (!(flags & VGPU_VASM_NO_VALIDATE) &&
	    vgpu_isa_validate_flags(ctx.insns, ctx.n,
				    ctx.functional ? VGPU_ISA_FUNCTIONAL : 0,
				    &verr)) {
		const char *hint = "";
		char text[64];

		prog->rule = verr.rule;
		prog->index = verr.index;
		if (verr.index < ctx.n) {
			ctx.line = ctx.lines[verr.index];
			vgpul_vasm_format_insn(&ctx.insns[verr.index], text,
					      sizeof(text));
			if (verr.rule == VGPU_ISA_ERR_OPCODE &&
			    vgpu_isa_is_functional(ctx.insns[verr.index].op))
				hint = " (functional instructions need .functional)";
			ret = vgpu_vasm_error(&ctx, "instruction %u (%s): %s%s",
					      verr.index, text,
					      vgpu_isa_rule_str(verr.rule), hint);
		} else {
			if (!ctx.line)
				ctx.line = 1;
			ret = vgpu_vasm_error(&ctx, "%s (found %u)",
					      vgpu_isa_rule_str(verr.rule),
					      ctx.n);
		}
		goto fail;
	}
	prog->insns = ctx.insns;
	prog->lines = ctx.lines;
	prog->n = ctx.n;
	return 0;
fail:
	vgpu_vasm_reset(&ctx);
	return ret;
}

int vgpul_vasm_assemble_file(const char *path, unsigned int flags,
			    struct vgpu_vasm_prog *prog, char *err,
			    size_t errlen)
{
	size_t len = 0, cap = 0;
	char *src = NULL;
	FILE *f;
	int ret;

	memset(prog, 0, sizeof(*prog));
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	for (;;) {
		size_t got;

		if (len == cap) {
			char *ns = realloc(src, cap ? cap * 2 : 4096);

			if (!ns) {
				fclose(f);
				free(src);
				if (err && errlen)
					snprintf(err, errlen, "%s: out of memory",
						 path);
				return -ENOMEM;
			}
			src = ns;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(src + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(src);
		if (err && errlen)
			snprintf(err, errlen, "%s: read error", path);
		return -EIO;
	}
	fclose(f);
	ret = vgpul_vasm_assemble(path, src, len, flags, prog, err, errlen);
	free(src);
	return ret;
}

void vgpul_vasm_free(struct vgpu_vasm_prog *prog)
{
	free(prog->insns);
	free(prog->lines);
	memset(prog, 0, sizeof(*prog));
}

static int vgpu_vasm_format_loop(const struct vgpu_insn *in, char *buf,
				 size_t len)
{
	const char *s = vgpu_vasm_sel_name(in->a);
	unsigned int base = VGPU_LOOP_BASE(in->imm);
	unsigned int step = VGPU_LOOP_STEP(in->imm);
	unsigned int mod = in->b;

	if (in->a == VGPU_LOOP_SEL_NONE)
		return snprintf(buf, len, "LOOP %u", base);
	if (base == 0 && step == 1)
		return snprintf(buf, len, "LOOP %s%%%u", s, mod);
	if (base == 0)
		return snprintf(buf, len, "LOOP %u*(%s%%%u)", step, s, mod);
	if (step == base)
		return snprintf(buf, len, "LOOP %u*(1+%s%%%u)", base, s, mod);
	if (step == 1)
		return snprintf(buf, len, "LOOP %u+%s%%%u", base, s, mod);
	return snprintf(buf, len, "LOOP %u+%u*(%s%%%u)", base, step, s, mod);
}

/* A valid functional instruction's text (vgpu_vasm_func syntax). */
static int vgpu_vasm_format_func(const struct vgpu_insn *in, char *buf,
				 size_t len)
{
	const char *name = vgpu_isa_op_name(in->op);
	char mem[48];
	unsigned int i, syn = 0;
	bool atom = in->op == VGPU_OP_ATOMG || in->op == VGPU_OP_ATOMS;
	bool slot = in->op == VGPU_OP_LDG || in->op == VGPU_OP_STG ||
		    in->op == VGPU_OP_LDC || in->op == VGPU_OP_ATOMG;
	int k;

	for (i = 0; i < ARRAY_SIZE(vgpu_vasm_func); i++)
		if (vgpu_vasm_func[i].op == in->op)
			syn = vgpu_vasm_func[i].syn;
	k = snprintf(mem, sizeof(mem), "[");
	if (slot)
		k += snprintf(mem + k, sizeof(mem) - k, "s%u + ", in->b);
	k += snprintf(mem + k, sizeof(mem) - k, "r%u", in->c);
	if (!atom && in->imm)
		k += snprintf(mem + k, sizeof(mem) - k, " + %u", in->imm);
	snprintf(mem + k, sizeof(mem) - k, "]");
	switch (syn) {
	case VGPU_VASM_S_RI:
		return snprintf(buf, len, "%s r%u, %u", name, in->a, in->imm);
	case VGPU_VASM_S_RR:
		return snprintf(buf, len, "%s r%u, r%u", name, in->a, in->b);
	case VGPU_VASM_S_RSR:
		return snprintf(buf, len, "%s r%u, %%%s", name, in->a,
				vgpu_vasm_sregs[in->b]);
	case VGPU_VASM_S_RRRP:
		return snprintf(buf, len, "%s r%u, r%u, r%u, p%u", name, in->a,
				in->b, in->c, in->imm);
	case VGPU_VASM_S_RRR:
		return snprintf(buf, len, "%s r%u, r%u, r%u", name, in->a,
				in->b, in->c);
	case VGPU_VASM_S_RRRR:
		return snprintf(buf, len, "%s r%u, r%u, r%u, r%u", name, in->a,
				in->b, in->c, in->imm);
	case VGPU_VASM_S_RRI:
		return snprintf(buf, len, "%s r%u, r%u, %u", name, in->a,
				in->b, in->imm);
	case VGPU_VASM_S_SETP:
		return snprintf(buf, len, "%s p%u, r%u, r%u, %s", name, in->a,
				in->b, in->c, vgpu_vasm_conds[in->imm]);
	case VGPU_VASM_S_PLOP:
		return snprintf(buf, len, "%s p%u, p%u, p%u, %s", name, in->a,
				in->b, in->c, vgpu_vasm_plops[in->imm]);
	case VGPU_VASM_S_LD:
		return snprintf(buf, len, "%s r%u, %s", name, in->a, mem);
	case VGPU_VASM_S_ST:
		return snprintf(buf, len, "%s %s, r%u", name, mem, in->a);
	case VGPU_VASM_S_ATOM:
		if (VGPU_ATOM_OP(in->imm) == VGPU_ATOM_CAS)
			return snprintf(buf, len, "%s r%u, %s, r%u, cas, r%u",
					name, in->a, mem,
					VGPU_ATOM_VREG(in->imm),
					VGPU_ATOM_CREG(in->imm));
		return snprintf(buf, len, "%s r%u, %s, r%u, %s", name, in->a,
				mem, VGPU_ATOM_VREG(in->imm),
				vgpu_vasm_atoms[VGPU_ATOM_OP(in->imm)]);
	case VGPU_VASM_S_BRP:
		return snprintf(buf, len, "%s %sp%u, %u, %u", name,
				in->b ? "!" : "", in->a,
				VGPU_BRP_TARGET(in->imm), VGPU_BRP_JOIN(in->imm));
	default:
		return snprintf(buf, len, "%s %u", name, in->imm);
	}
}

int vgpul_vasm_format_insn(const struct vgpu_insn *in, char *buf, size_t len)
{
	const char *name = vgpu_isa_op_name(in->op);
	bool canon;

	/* branch targets print as numbers: any 16-bit one is canonical */
	if (vgpu_isa_is_functional(in->op) &&
	    vgpu_isa_func_operands(in, 0x10000) == VGPU_ISA_OK)
		return vgpu_vasm_format_func(in, buf, len);

	switch (in->op) {
	case VGPU_OP_LOOP:
		canon = !in->c &&
			((in->a == VGPU_LOOP_SEL_NONE && !in->b &&
			  !VGPU_LOOP_STEP(in->imm)) ||
			 ((in->a == VGPU_LOOP_SEL_WID ||
			   in->a == VGPU_LOOP_SEL_BID ||
			   in->a == VGPU_LOOP_SEL_ITEMS) && in->b));
		if (canon)
			return vgpu_vasm_format_loop(in, buf, len);
		break;
	case VGPU_OP_LOCK:
	case VGPU_OP_UNLOCK:
		if (!in->b && !in->c && !in->imm)
			return snprintf(buf, len, "%s %u", name, in->a);
		break;
	case VGPU_OP_PUSH:
		if (!in->a && !in->b && !in->c && in->imm &&
		    in->imm <= VGPU_MAX_QUEUE_ITEMS)
			return snprintf(buf, len, "%s %u", name, in->imm);
		break;
	case VGPU_OP_MMA:
		if (in->a && in->a <= VGPU_MMA_SIZE_MAX && !in->b && !in->c &&
		    !in->imm)
			return snprintf(buf, len, "%s %u", name, 1U << in->a);
		if (!in->a && !in->b && !in->c && !in->imm)
			return snprintf(buf, len, "%s", name);
		break;
	case VGPU_OP_LAUNCH:
		if (!in->c && !in->imm && !(in->b & ~VGPU_LAUNCH_WAIT))
			return snprintf(buf, len, "%s %u%s", name, in->a,
					in->b ? ", wait" : "");
		break;
	default:
		if (name && !in->a && !in->b && !in->c && !in->imm)
			return snprintf(buf, len, "%s", name);
		break;
	}
	return snprintf(buf, len, ".insn 0x%02x, 0x%02x, 0x%02x, 0x%02x, 0x%08x",
			in->op, in->a, in->b, in->c, in->imm);
}

size_t vgpul_vasm_disassemble(const struct vgpu_insn *insns, unsigned int n,
			     char *buf, size_t len)
{
	unsigned int i, depth = 0;
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && !vgpu_isa_is_functional(insns[i].op); i++)
		;
	if (i < n) {	/* the text validates as it came */
		off = strlen(".functional\n");
		if (len)
			snprintf(buf, len, "%s", ".functional\n");
	}
	for (i = 0; i < n; i++) {
		char line[96];
		int l;

		if (insns[i].op == VGPU_OP_ENDLOOP && depth)
			depth--;
		l = snprintf(line, sizeof(line), "%*s",
			     (int)(4 * min(depth, (unsigned int)VGPU_ISA_MAX_NEST)),
			     "");
		l += vgpul_vasm_format_insn(&insns[i], line + l,
					   sizeof(line) - l - 1);
		line[l++] = '\n';
		line[l] = '\0';
		if (off < len)
			snprintf(buf + off, len - off, "%s", line);
		off += l;
		if (insns[i].op == VGPU_OP_LOOP)
			depth++;
	}
	return off;
}
