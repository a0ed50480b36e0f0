/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vasm.h - .vasm text assembler and disassembler of the virtual ISA
 * (F04).  Part of libvgpu-workload.
 *
 * The syntax is described in Documentation/isa.rst.  After assembling, the
 * program is checked with the core validator (driver/core/isa.c, the same
 * code the kernel runs), so a program the assembler accepts is accepted by
 * the kernel; a violation is reported as "FILE:LINE: instruction N (TEXT):
 * rule".  A program with ".functional" (or assembled with
 * VGPU_VASM_FUNCTIONAL) is validated in functional mode: it may use the
 * functional instructions and labels for their branches.
 */
#ifndef VGPU_VASM_H
#define VGPU_VASM_H

#include <stddef.h>
#include <linux/vgpu_dispatch.h>

/* vgpul_vasm_assemble() flags */
#define VGPU_VASM_NO_VALIDATE	0x1u	/* skip the core validator */
#define VGPU_VASM_FUNCTIONAL	0x2u	/* validate as functional, like
					 * a .functional line
					 */
#define VGPU_VASM_FLAGS_ALL	(VGPU_VASM_NO_VALIDATE | VGPU_VASM_FUNCTIONAL)

/**
 * struct vgpu_vasm_prog - an assembled program
 * @insns: @n instructions (malloc'd, free with vgpul_vasm_free())
 * @lines: source line (from 1) of each instruction (malloc'd)
 * @n: number of instructions
 * @rule: after a validator rejection, VGPU_ISA_ERR_*, else VGPU_ISA_OK
 * @index: after a validator rejection, the offending instruction
 */
struct vgpu_vasm_prog {
	struct vgpu_insn *insns;
	unsigned int *lines;
	unsigned int n;
	unsigned int rule;
	unsigned int index;
};

/**
 * vgpul_vasm_assemble() - assemble .vasm source text
 * @name: file name used in messages (NULL: "<input>")
 * @src: source text, @len bytes (need not be NUL-terminated)
 * @len: length of @src
 * @flags: VGPU_VASM_* flags
 * @prog: receives the program (zeroed on entry; on error @insns/@lines
 *        are freed, but @rule/@index tell a validator rejection)
 * @err: buffer for the first error, "FILE:LINE: message" (may be NULL)
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for a syntax or validation error, -ENOMEM.
 */
int vgpul_vasm_assemble(const char *name, const char *src, size_t len,
		       unsigned int flags, struct vgpu_vasm_prog *prog,
		       char *err, size_t errlen);

/**
 * vgpul_vasm_assemble_file() - read and assemble a .vasm file
 * @path: file to read
 * @flags: VGPU_VASM_* flags
 * @prog: as for vgpul_vasm_assemble()
 * @err: as for vgpul_vasm_assemble(); I/O errors are "FILE: strerror"
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL, -ENOMEM or the negative errno of a failed read.
 */
int vgpul_vasm_assemble_file(const char *path, unsigned int flags,
			    struct vgpu_vasm_prog *prog, char *err,
			    size_t errlen);

/**
 * vgpul_vasm_free() - release an assembled program
 * @prog: program filled by vgpul_vasm_assemble() (may be all zero)
 */
void vgpul_vasm_free(struct vgpu_vasm_prog *prog);

/**
 * vgpul_vasm_format_insn() - one instruction as .vasm text
 * @insn: the instruction (any bytes: a non-canonical one prints as .insn)
 * @buf: output buffer, always NUL-terminated if @len > 0
 * @len: size of @buf
 *
 * Return: the length of the text (like snprintf()).
 */
int vgpul_vasm_format_insn(const struct vgpu_insn *insn, char *buf,
			  size_t len);

/**
 * vgpul_vasm_disassemble() - a program as .vasm text, one line per
 *	instruction, loop bodies indented
 * @insns: the instructions (any bytes)
 * @n: number of instructions
 * @buf: output buffer, always NUL-terminated if @len > 0
 * @len: size of @buf
 *
 * Assembling the output with VGPU_VASM_NO_VALIDATE gives back @insns
 * exactly, for any input.
 *
 * Return: the length of the full text (like snprintf()); the text was
 * truncated if the result is >= @len.
 */
size_t vgpul_vasm_disassemble(const struct vgpu_insn *insns, unsigned int n,
			     char *buf, size_t len);

#endif /* VGPU_VASM_H */
