/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_import.h - what the libFuzzer harnesses of the recording readers
 * (fuzz_kineto.c, fuzz_nsys.c, fuzz_accelsim.c) share: a load
 * either succeeds or fails with -EINVAL naming the file, never crashes or
 * leaks; a loaded recording maps onto the small preset.
 */
#ifndef VGPU_FUZZ_IMPORT_H
#define VGPU_FUZZ_IMPORT_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vgpu/import.h>
#include "import_internal.h"

#define VGPU_FUZZ_CHECK(cond) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "invariant failed: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

/* Check a load's result; map a good recording onto the small preset. */
static inline void vgpu_fuzz_after_load(int ret, const char *path,
					const char *err,
					struct vgpu_recording *rec)
{
	struct vgpu_import_opts o = { .preset = "small" };
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	char merr[512];
	size_t i;

	VGPU_FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
	if (ret == -EINVAL)
		VGPU_FUZZ_CHECK(!strncmp(err, path, strlen(path)));
	if (!ret) {
		VGPU_FUZZ_CHECK(rec->n > 0);
		for (i = 0; i < rec->n; i++) {
			VGPU_FUZZ_CHECK(rec->k[i].end >= rec->k[i].start);
			VGPU_FUZZ_CHECK(rec->k[i].grid[0] && rec->k[i].grid[1] &&
					rec->k[i].grid[2]);
			VGPU_FUZZ_CHECK(rec->k[i].block[0] &&
					rec->k[i].block[1] &&
					rec->k[i].block[2]);
		}
		/* big recordings: the mapping of the first few is enough */
		if (rec->n > 64)
			rec->n = 64;
		ret = vgpul_import_map(rec, 1, &o, &wl, &st, merr,
				      sizeof(merr));
		VGPU_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
		if (!ret)
			VGPU_FUZZ_CHECK(st.mapped + st.skipped == st.kernels &&
					st.mapped == wl.nkernels);
		vgpul_workload_free(&wl);
	}
	vgpul_rec_free(rec);
}

static char vgpu_fuzz_path[64];

static void vgpu_fuzz_cleanup(void)
{
	unlink(vgpu_fuzz_path);
}

/* Write @data to a private file ending in @suffix (removed at exit). */
static inline const char *vgpu_fuzz_file(const uint8_t *data, size_t size,
					 const char *suffix)
{
	char *path = vgpu_fuzz_path;
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(vgpu_fuzz_path), "/tmp/vgpu-fuzz-%d%s",
			 (int)getpid(), suffix);
		atexit(vgpu_fuzz_cleanup);
	}
	f = fopen(path, "w");
	VGPU_FUZZ_CHECK(f);
	VGPU_FUZZ_CHECK(fwrite(data, 1, size, f) == size);
	VGPU_FUZZ_CHECK(!fclose(f));
	return path;
}

#endif /* VGPU_FUZZ_IMPORT_H */
