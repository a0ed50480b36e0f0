// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_vasm.c - libFuzzer harness of the .vasm assembler/disassembler
 * (F04).
 *
 * The input is used twice:
 *  - as source text: assembling never crashes; on success the program
 *    passes the core validator and disassemble -> assemble gives it back
 *    bit for bit; on failure the message has the "fuzz.vasm:LINE: " form;
 *  - as a raw instruction array (size / 8 instructions): disassembling any
 *    bytes and assembling the text with VGPU_VASM_NO_VALIDATE gives the
 *    same bytes back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgpu_os.h"
#include "isa.h"
#include <vgpu/vasm.h>

#define VGPU_FUZZ_CHECK(cond) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "invariant failed: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

static void vgpu_fuzz_roundtrip(const struct vgpu_insn *insns, u32 n)
{
	struct vgpu_vasm_prog back;
	char err[256];
	size_t len;
	char *text;
	int ret;

	len = vgpul_vasm_disassemble(insns, n, NULL, 0);
	text = malloc(len + 1);
	VGPU_FUZZ_CHECK(text);
	VGPU_FUZZ_CHECK(vgpul_vasm_disassemble(insns, n, text, len + 1) == len);
	VGPU_FUZZ_CHECK(strlen(text) == len);
	ret = vgpul_vasm_assemble("dis.vasm", text, len, VGPU_VASM_NO_VALIDATE,
				 &back, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		abort();
	}
	VGPU_FUZZ_CHECK(back.n == n);
	VGPU_FUZZ_CHECK(!n || !memcmp(back.insns, insns, n * sizeof(*insns)));
	vgpul_vasm_free(&back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vgpu_vasm_prog prog;
	struct vgpu_insn *raw;
	u32 n = size / sizeof(*raw), i;
	char err[256];
	int ret;

	ret = vgpul_vasm_assemble("fuzz.vasm", (const char *)data, size, 0,
				 &prog, err, sizeof(err));
	VGPU_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	if (ret) {
		VGPU_FUZZ_CHECK(!strncmp(err, "fuzz.vasm:", 10));
		VGPU_FUZZ_CHECK(!prog.insns && !prog.n);
	} else {
		VGPU_FUZZ_CHECK(!vgpu_isa_validate_flags(prog.insns, prog.n,
						       VGPU_ISA_FUNCTIONAL, NULL));
		for (i = 1; i < prog.n; i++)
			VGPU_FUZZ_CHECK(prog.lines[i] >= prog.lines[i - 1]);
		vgpu_fuzz_roundtrip(prog.insns, prog.n);
		vgpul_vasm_free(&prog);
	}

	raw = malloc(n ? n * sizeof(*raw) : 1);
	VGPU_FUZZ_CHECK(raw);
	memcpy(raw, data, n * sizeof(*raw));
	vgpu_fuzz_roundtrip(raw, n);
	free(raw);
	return 0;
}
