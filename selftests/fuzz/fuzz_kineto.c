// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kineto.c - libFuzzer harness of the Kineto / Chrome-trace JSON
 * readers (userspace/libworkload/import_kineto.c): any bytes either load
 * or fail with "fuzz.json: ..." and -EINVAL; a loaded recording maps.
 * The same bytes go through the incremental reader of vgpu-sim replay
 * (import_stream.c) too: it fails with a message naming
 * the file, or returns kernels, and then the whole-document reader loads
 * the same kernels in the same order (the incremental reader is never
 * more lenient, and sorts as the whole-document one does).
 */
#include "fuzz_import.h"
#include "import_stream.h"

/* Stream the file at @path; compare with @rec (loaded: @loaded == 0). */
static void vgpu_fuzz_stream(const char *path, int loaded,
			     const struct vgpu_recording *rec)
{
	struct vgpu_rec_stream *s;
	struct vgpu_rec_kernel k;
	char err[512] = "";
	size_t n = 0;
	int ret;

	ret = vgpu_rec_stream_open(path, VGPU_REC_KINETO, &s, err,
				   sizeof(err));
	VGPU_FUZZ_CHECK(ret == 0 || ret == -ENOMEM);
	if (ret)
		return;
	while ((ret = vgpu_rec_stream_next(s, &k, err, sizeof(err))) > 0) {
		if (!loaded) {
			VGPU_FUZZ_CHECK(n < rec->n);
			VGPU_FUZZ_CHECK(!memcmp(&k, &rec->k[n], sizeof(k)));
		}
		n++;
	}
	vgpu_rec_stream_close(s);
	VGPU_FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
	if (ret == -EINVAL)
		VGPU_FUZZ_CHECK(!strncmp(err, path, strlen(path)));
	if (!ret && n)
		VGPU_FUZZ_CHECK(!loaded && n == rec->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vgpu_recording rec = { 0 };
	char err[512] = "";
	struct vgpu_rec_ctx c = { .path = "fuzz.json", .err = err,
				  .errlen = sizeof(err) };
	const char *path;
	int ret;

	ret = vgpu_rec_load_kineto(&c, &rec, (const char *)data, size);
	if (!ret && !rec.n) {	/* vgpul_rec_load() refuses it */
		ret = -EINVAL;
		snprintf(err, sizeof(err), "fuzz.json: no kernels");
	}
	path = vgpu_fuzz_file(data, size, ".json");
	if (path)
		vgpu_fuzz_stream(path, ret, &rec);
	vgpu_fuzz_after_load(ret, "fuzz.json", err, &rec);
	return 0;
}
