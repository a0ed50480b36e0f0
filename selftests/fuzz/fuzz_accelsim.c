// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_accelsim.c - libFuzzer harness of the Accel-Sim .traceg reader
 * (userspace/libworkload/import_accelsim.c): the input is one
 * kernel-N.traceg (header and body); it either loads or fails with -EINVAL
 * naming the file; a loaded recording maps.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = vgpu_fuzz_file(data, size, ".traceg");
	struct vgpu_recording rec;
	char err[512] = "";
	int ret;

	ret = vgpul_rec_load(path, VGPU_REC_ACCELSIM, &rec, err, sizeof(err));
	vgpu_fuzz_after_load(ret, path, err, &rec);
	return 0;
}
