/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_kunit_libc.h - the few C library calls of the core's unit tests and
 * of the .vasm assembler they use (userspace/libworkload/vasm.c), on kernel
 * primitives, for vgpu_core_kunit.ko.  libc/<header>.h, first on the
 * module's include path, include this in place of the C library's headers
 * (tools/testing/radix-tree does the reverse: kernel headers on libc).
 *
 * Memory comes from kvmalloc() and friends (KASAN and kmemleak watch it);
 * printing goes to the kernel log; there are no files: fopen() fails.
 */
#ifndef VGPU_KUNIT_LIBC_H
#define VGPU_KUNIT_LIBC_H

/* before the macros below: kunit/resource.h calls res->free() */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>

#define malloc(n)		kvmalloc(n, GFP_KERNEL)
#define calloc(n, s)		kvcalloc(n, s, GFP_KERNEL)
#define realloc(p, n)		kvrealloc(p, n, GFP_KERNEL)
#define free(p)			kvfree(p)
/* page aligned: enough for any alignment the tests ask for */
#define aligned_alloc(a, n)	vzalloc(n)

/* abort(): fail and end the current case (the tests run in one) */
static inline void __noreturn vgpu_kt_abort(void)
{
	struct kunit *test = kunit_get_current_test();

	kunit_set_failure(test);
	__kunit_abort(test);
}

#define abort()			vgpu_kt_abort()

/**
 * struct vgpu_kt_file - a FILE: none can be opened in the kernel
 * @unused: nothing
 */
struct vgpu_kt_file {
	int unused;
};

typedef struct vgpu_kt_file FILE;

#define stdout			((FILE *)NULL)
#define stderr			((FILE *)NULL)

__printf(1, 2) int vgpu_kt_printf(const char *fmt, ...);
#define printf(...)		vgpu_kt_printf(__VA_ARGS__)
#define fprintf(f, ...)		vgpu_kt_printf(__VA_ARGS__)

extern int vgpu_kt_errno;
#define errno			vgpu_kt_errno

static inline FILE *fopen(const char *path, const char *mode)
{
	errno = ENOENT;
	return NULL;
}

static inline size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
	return 0;
}

static inline int ferror(FILE *f)
{
	return 1;
}

static inline int fclose(FILE *f)
{
	return 0;
}

static inline const char *strerror(int err)
{
	return "no files in the kernel";
}

#endif /* VGPU_KUNIT_LIBC_H */
