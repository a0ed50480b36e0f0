// SPDX-License-Identifier: GPL-2.0
/*
 * vasm2bin.c - assemble a .vasm file into a raw instruction array (the
 * input format of fuzz_validator); used to regenerate the seed corpus with
 * `make fuzz-corpus`.
 *
 *   vasm2bin [-n] IN.vasm OUT.bin    (-n: do not validate)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/vasm.h>

int main(int argc, char **argv)
{
	struct vgpu_vasm_prog prog;
	unsigned int flags = 0;
	char err[256];
	FILE *f;

	if (argc == 4 && !strcmp(argv[1], "-n")) {
		flags = VGPU_VASM_NO_VALIDATE;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s [-n] IN.vasm OUT.bin\n", argv[0]);
		return 2;
	}
	if (vgpul_vasm_assemble_file(argv[1], flags, &prog, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(prog.insns, sizeof(*prog.insns), prog.n, f) != prog.n ||
	    fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	vgpul_vasm_free(&prog);
	return 0;
}
