// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kineto.c - libFuzzer harness of the Kineto / Chrome-trace JSON
 * reader (userspace/lib/import_kineto.c, issue 20): any bytes either load
 * or fail with "fuzz.json: ..." and -EINVAL; a loaded recording maps.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vgpu_recording rec = { 0 };
	char err[512] = "";
	struct vgpu_rec_ctx c = { .path = "fuzz.json", .err = err,
				  .errlen = sizeof(err) };
	int ret;

	ret = vgpu_rec_load_kineto(&c, &rec, (const char *)data, size);
	if (!ret && !rec.n) {	/* vgpul_rec_load() refuses it */
		ret = -EINVAL;
		snprintf(err, sizeof(err), "fuzz.json: no kernels");
	}
	vgpu_fuzz_after_load(ret, "fuzz.json", err, &rec);
	return 0;
}
