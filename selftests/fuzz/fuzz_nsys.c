// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_nsys.c - libFuzzer harness of the Nsight Systems SQLite export
 * reader (userspace/libworkload/import_nsys.c): the input is written to
 * a file and opened with libsqlite3; it either loads or fails with -EINVAL
 * naming the file; a loaded recording maps.  The seeds are databases made
 * from the test recordings, selftests/core/import/nsys-*.sql (make
 * check-fuzz).
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = vgpu_fuzz_file(data, size, ".sqlite");
	struct vgpu_recording rec;
	char err[512] = "";
	int ret;

	ret = vgpul_rec_load(path, VGPU_REC_NSYS, &rec, err, sizeof(err));
	vgpu_fuzz_after_load(ret, path, err, &rec);
	return 0;
}
