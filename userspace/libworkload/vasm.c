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
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", ctx.name);
	if (ret)
		goto fail;

	if (!(flags & VGPU_VASM_NO_VALIDATE) &&
	    vgpu_isa_validate(ctx.insns, ctx.n, &verr)) {
		char text[64];

		prog->rule = verr.rule;
		prog->index = verr.index;
		if (verr.index < ctx.n) {
			ctx.line = ctx.lines[verr.index];
			vgpul_vasm_format_insn(&ctx.insns[verr.index], text,
					      sizeof(text));
			ret = vgpu_vasm_error(&ctx, "instruction %u (%s): %s",
					      verr.index, text,
					      vgpu_isa_rule_str(verr.rule));
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

int vgpul_vasm_format_insn(const struct vgpu_insn *in, char *buf, size_t len)
{
	const char *name = vgpu_isa_op_name(in->op);
	bool canon;

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
