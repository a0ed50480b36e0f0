// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bo_test.c - buffer objects (Documentation/uapi.rst, "Buffer
 * objects"): BO_CREATE and BO_DESTROY with every errno, mmap() of the
 * device file (zeroed memory, the bounds of a mapping, MAP_PRIVATE,
 * mremap), the per-file limits and what counts against them, isolation
 * between files, buffers named by a kernel at SUBMIT (descriptor VER6:
 * every errno, all or nothing, destroy refused while the kernel runs) and
 * release() with kernels running and a mapping alive.
 *
 * The module is loaded with one device of preset "small" and the default
 * limits: 1024 buffers and 256 MiB per file.
 */
/* mmap offsets above 2^31 from the 32-bit build (vgpu_bo_test32) */
#define _FILE_OFFSET_BITS 64

#include <stddef.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define PAGE		4096UL
#define MIB		(1ULL << 20)
#define DBG		"/sys/kernel/debug/vgpu/vgpu0/"
#define DEV		11	/* the instance the device test makes and removes */

/* Create a buffer; 0 and its handle and offset, or the errno. */
static int bo_create(int fd, __u64 size, __u32 flags, __u32 *h, __u64 *off)
{
	struct vgpu_bo_create c;

	*h = 0;
	if (off)
		*off = 0;
	memset(&c, 0, sizeof(c));
	c.size = size;
	c.flags = flags;
	if (ioctl(fd, VGPU_IOCTL_BO_CREATE, &c))
		return errno;
	*h = c.handle;
	if (off)
		*off = c.mmap_offset;
	return 0;
}

static int bo_destroy(int fd, __u32 h)
{
	struct vgpu_bo_destroy d = { .handle = h };

	return ioctl(fd, VGPU_IOCTL_BO_DESTROY, &d) ? errno : 0;
}

/* mmap() @len bytes at @off with @flags: the address, or NULL and errno. */
static void *bo_map(int fd, __u64 off, size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd,
		       (off_t)off);

	return p == MAP_FAILED ? NULL : p;
}

/* Errno of an mmap() that must fail (0 if it succeeded). */
static int map_errno(int fd, __u64 off, size_t len, int flags)
{
	void *p = bo_map(fd, off, len, flags);

	if (p) {
		munmap(p, len);
		return 0;
	}
	return errno;
}

/* Is every byte of @p zero? */
static int all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

/* A descriptor of @p on @ch naming the @n buffers of @h. */
/* The least functional program: private memory needs one. */
static const struct vgpu_insn prog_fn_min[] = {
	{ .op = VGPU_OP_MOVI },
	{ .op = VGPU_OP_EXIT },
};

#define BDESC(d, ch, p, h, n) do {				\
	VGPU_DESC(d, ch, p);					\
	(d)->buffers = (uintptr_t)(h);				\
	(d)->num_buffers = (n);					\
} while (0)

static int live_kernels(void)
{
	int fd = vgpu_test_open(0);
	struct vgpu_info info;

	if (fd < 0)
		return -1;
	info = vgpu_test_info(fd);
	close(fd);
	return info.live_kernels;
}

FIXTURE(bo) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(bo)
{
	struct vgpu_info info;

	self->fd = vgpu_test_open(0);
	ASSERT_LE(0, self->fd);
	info = vgpu_test_info(self->fd);
	ASSERT_EQ(VGPU_CAP_BUFFERS, info.caps & VGPU_CAP_BUFFERS);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(bo)
{
	close(self->fd);
}

/* GET_INFO VER2: the capability and the limits; pad4 is checked. */
TEST_F(bo, info_reports_the_limits)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(VGPU_INFO_SIZE_VER2, info.struct_size);
	EXPECT_EQ(1024, info.max_buffers_per_file);
	EXPECT_EQ(256 * MIB, info.max_buffer_bytes_per_file);
	EXPECT_EQ(0, info.pad4);
	memset(&info, 0, sizeof(info));
	info.pad4 = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

/* A new buffer reads zero, and what one mapping writes another reads. */
TEST_F(bo, zeroed_and_shared_between_mappings)
{
	__u64 off, off2;
	__u32 h, h2;
	char *a, *b;

	ASSERT_EQ(0, bo_create(self->fd, 3 * PAGE + 100, 0, &h, &off));
	EXPECT_NE(0, h);
	EXPECT_EQ(0, off % PAGE);
	EXPECT_GT(1ULL << 44, off);
	a = bo_map(self->fd, off, 4 * PAGE, MAP_SHARED);
	ASSERT_NE(NULL, a);
	b = bo_map(self->fd, off, 4 * PAGE, MAP_SHARED);
	ASSERT_NE(NULL, b);
	/* the tail of the last page too: nothing of a freed page shows */
	EXPECT_TRUE(all_zero(a, 4 * PAGE));
	memset(a, 0x5a, 3 * PAGE + 100);
	EXPECT_EQ(0x5a, b[0]);
	EXPECT_EQ(0x5a, b[3 * PAGE + 99]);
	EXPECT_EQ(0, b[3 * PAGE + 100]);
	/* a second buffer has its own memory and offset */
	ASSERT_EQ(0, bo_create(self->fd, PAGE, VGPU_BO_READ_ONLY, &h2, &off2));
	EXPECT_NE(h, h2);
	EXPECT_NE(off, off2);
	munmap(b, 4 * PAGE);
	b = bo_map(self->fd, off2, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, b);
	EXPECT_TRUE(all_zero(b, PAGE));
	/* the process may write a read-only buffer: it fills the inputs */
	b[0] = 1;
	EXPECT_EQ(0x5a, a[0]);
	munmap(a, 4 * PAGE);
	munmap(b, PAGE);
	EXPECT_EQ(0, bo_destroy(self->fd, h));
	EXPECT_EQ(0, bo_destroy(self->fd, h2));
}

TEST_F(bo, create_errnos)
{
	struct vgpu_bo_create c;
	struct {
		struct vgpu_bo_create c;
		__u64 tail;
	} big;
	__u32 h;

	EXPECT_EQ(EINVAL, bo_create(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(EINVAL, bo_create(self->fd, VGPU_MAX_BO_SIZE + 1, 0, &h,
				    NULL));
	EXPECT_EQ(EINVAL, bo_create(self->fd, PAGE, VGPU_BO_FLAGS_ALL + 1, &h,
				    NULL));
	EXPECT_EQ(EINVAL, bo_create(self->fd, PAGE, 1U << 31, &h, NULL));
	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	c.handle = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_BO_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	c.mmap_offset = 1ULL << 28;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_BO_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	/* shorter than version 0: EINVAL; longer with a non-zero tail: E2BIG */
	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	EXPECT_EQ(-1, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
					   VGPU_IOCTL_BASE, 0x09, 16), &c));
	EXPECT_EQ(EINVAL, errno);
	memset(&big, 0, sizeof(big));
	big.c.size = PAGE;
	big.tail = 1;
	EXPECT_EQ(-1, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
					   VGPU_IOCTL_BASE, 0x09, sizeof(big)),
			    &big));
	EXPECT_EQ(E2BIG, errno);
	/* a zero tail is fine, and the module's fields are filled */
	big.tail = 0;
	ASSERT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
					  VGPU_IOCTL_BASE, 0x09, sizeof(big)),
			   &big));
	EXPECT_NE(0, big.c.handle);
	EXPECT_EQ(0, bo_destroy(self->fd, big.c.handle));
	/* _IOW instead of _IOWR: not this command */
	EXPECT_EQ(-1, ioctl(self->fd, _IOW(VGPU_IOCTL_BASE, 0x09,
					   struct vgpu_bo_create), &c));
	EXPECT_EQ(ENOTTY, errno);
	/* a read-only argument: EFAULT before anything is made */
	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	EXPECT_EQ(EFAULT, vgpu_test_ro_ioctl(self->fd, VGPU_IOCTL_BO_CREATE,
					     &c, sizeof(c)));
	EXPECT_EQ(EFAULT, ioctl(self->fd, VGPU_IOCTL_BO_CREATE, NULL) ? errno :
		  0);
}

/*
 * All or nothing: a read-only BO_CREATE argument makes nothing (the next
 * buffer of the fresh file still gets handle 1); a SUBMIT whose
 * descriptors cannot take their handles holds no buffer.
 */
TEST_F(bo, read_only_arguments_make_nothing)
{
	struct vgpu_submit_desc d;
	struct vgpu_bo_create c;
	struct vgpu_submit sub;
	void *ro;
	__u32 h;
	int i;

	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	for (i = 0; i < 10; i++)
		EXPECT_EQ(EFAULT, vgpu_test_ro_ioctl(self->fd,
						     VGPU_IOCTL_BO_CREATE, &c,
						     sizeof(c)));
	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, NULL));
	EXPECT_EQ(1, h);
	BDESC(&d, self->ch, vgpu_prog_spin, &h, 1);
	ro = vgpu_test_ro_copy(&d, sizeof(d));
	ASSERT_NE(NULL, ro);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)ro;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
	EXPECT_EQ(0, bo_destroy(self->fd, h));
}

/* debugfs fail_alloc: BO_CREATE fails with ENOMEM and charges nothing. */
TEST_F(bo, create_enomem)
{
	__u32 h;

	if (vgpu_test_sysfs(DBG "fail_alloc", "1"))
		SKIP(return, "no debugfs");
	EXPECT_EQ(ENOMEM, bo_create(self->fd, PAGE, 0, &h, NULL));
	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, NULL));
	EXPECT_EQ(0, bo_destroy(self->fd, h));
}

TEST_F(bo, destroy_errnos)
{
	struct vgpu_bo_destroy d;
	__u32 h;

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, NULL));
	memset(&d, 0, sizeof(d));
	d.handle = h;
	d.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_BO_DESTROY, &d));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(ENOENT, bo_destroy(self->fd, 0));
	EXPECT_EQ(ENOENT, bo_destroy(self->fd, h + 1));
	EXPECT_EQ(ENOENT, bo_destroy(self->fd, ~0U));
	/* _IOW: works from read-only memory */
	d.flags = 0;
	EXPECT_EQ(0, vgpu_test_ro_ioctl(self->fd, VGPU_IOCTL_BO_DESTROY, &d,
					sizeof(d)));
	EXPECT_EQ(ENOENT, bo_destroy(self->fd, h));
	/* a stale handle names nothing, not even the next buffer */
	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &d.handle, NULL));
	EXPECT_NE(h, d.handle);
	EXPECT_EQ(ENOENT, bo_destroy(self->fd, h));
	EXPECT_EQ(0, bo_destroy(self->fd, d.handle));
}

/* The bounds of a mapping: length, offset, sharing, growth. */
TEST_F(bo, mmap_bounds)
{
	__u64 off, off2;
	__u32 h, h2;
	char *p, *q;

	ASSERT_EQ(0, bo_create(self->fd, 2 * PAGE + 1, 0, &h, &off));
	ASSERT_EQ(0, bo_create(self->fd, 8 * PAGE, 0, &h2, &off2));
	/* past the end of its pages */
	EXPECT_EQ(EINVAL, map_errno(self->fd, off, 4 * PAGE, MAP_SHARED));
	/* in the middle of a buffer, of this one and of the next */
	EXPECT_EQ(EINVAL, map_errno(self->fd, off + PAGE, PAGE, MAP_SHARED));
	EXPECT_EQ(EINVAL, map_errno(self->fd, off2 + PAGE, PAGE, MAP_SHARED));
	EXPECT_EQ(EINVAL, map_errno(self->fd, off2 - PAGE, PAGE, MAP_SHARED));
	/* no buffer there */
	EXPECT_EQ(EINVAL, map_errno(self->fd, 0, PAGE, MAP_SHARED));
	EXPECT_EQ(EINVAL, map_errno(self->fd, off2 + (1ULL << 28), PAGE,
				    MAP_SHARED));
	EXPECT_EQ(EINVAL, map_errno(self->fd, 1ULL << 44, PAGE, MAP_SHARED));
	/* copy-on-write mappings are refused */
	EXPECT_EQ(EINVAL, map_errno(self->fd, off, PAGE, MAP_PRIVATE));
	/* the whole pages and a part of them are fine */
	EXPECT_EQ(0, map_errno(self->fd, off, 3 * PAGE, MAP_SHARED));
	EXPECT_EQ(0, map_errno(self->fd, off, PAGE, MAP_SHARED));
	EXPECT_EQ(0, map_errno(self->fd, off2, 8 * PAGE, MAP_SHARED));

	/* mremap: growing fails (VM_DONTEXPAND), shrinking and moving work */
	p = bo_map(self->fd, off, 3 * PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[0] = 7;
	q = mremap(p, 3 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	EXPECT_EQ(MAP_FAILED, q);
	EXPECT_EQ(EFAULT, errno);
	/* moved to a place reserved for it */
	q = mmap(NULL, 3 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, q);
	ASSERT_EQ(q, mremap(p, 3 * PAGE, 3 * PAGE,
			    MREMAP_MAYMOVE | MREMAP_FIXED, q));
	EXPECT_EQ(7, q[0]);
	q = mremap(q, 3 * PAGE, PAGE, 0);
	ASSERT_NE(MAP_FAILED, q);
	EXPECT_EQ(7, q[0]);
	/* a partial munmap leaves the rest mapped (split VMAs) */
	p = bo_map(self->fd, off2, 8 * PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[7 * PAGE] = 9;
	ASSERT_EQ(0, munmap(p + 2 * PAGE, 2 * PAGE));
	EXPECT_EQ(0, bo_destroy(self->fd, h2));
	EXPECT_EQ(9, p[7 * PAGE]);
	p[0] = 1;
	EXPECT_EQ(0, munmap(p, 2 * PAGE));
	EXPECT_EQ(0, munmap(p + 4 * PAGE, 4 * PAGE));
	EXPECT_EQ(0, munmap(q, PAGE));
	/* a destroyed buffer's offset maps nothing */
	EXPECT_EQ(EINVAL, map_errno(self->fd, off2, PAGE, MAP_SHARED));
	EXPECT_EQ(0, bo_destroy(self->fd, h));
	EXPECT_EQ(EINVAL, map_errno(self->fd, off, PAGE, MAP_SHARED));
}

/* A destroyed buffer's mapping keeps working until munmap(). */
TEST_F(bo, mapping_outlives_destroy)
{
	__u64 off;
	__u32 h;
	int *p;

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, &off));
	p = bo_map(self->fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[10] = 1234;
	ASSERT_EQ(0, bo_destroy(self->fd, h));
	EXPECT_EQ(1234, p[10]);
	p[11] = 5678;
	EXPECT_EQ(5678, p[11]);
	EXPECT_EQ(0, munmap(p, PAGE));
}

/* Another file can map, destroy or name none of this file's buffers. */
TEST_F(bo, cross_file_isolation)
{
	struct vgpu_submit_desc d;
	__u64 off, off2;
	__u32 h, h2, ch2 = 0;
	int fd2;
	char *p, *q;

	fd2 = vgpu_test_open(0);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, vgpu_test_channel(fd2, 2, 0, &ch2));
	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, &off));
	p = bo_map(self->fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	memset(p, 0xaa, PAGE);
	/* fd2 has no buffer: the offset names nothing there */
	EXPECT_EQ(EINVAL, map_errno(fd2, off, PAGE, MAP_SHARED));
	EXPECT_EQ(ENOENT, bo_destroy(fd2, h));
	BDESC(&d, ch2, vgpu_prog_empty, &h, 1);
	EXPECT_EQ(ENOENT, vgpu_test_submit(fd2, &d, 1));
	/* fd2's own buffer of the same handle is its own, zeroed memory */
	ASSERT_EQ(0, bo_create(fd2, PAGE, 0, &h2, &off2));
	q = bo_map(fd2, off2, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, q);
	EXPECT_TRUE(all_zero(q, PAGE));
	if (h2 == h) {
		EXPECT_EQ(off, off2);
		munmap(q, PAGE);
		q = bo_map(fd2, off, PAGE, MAP_SHARED);
		ASSERT_NE(NULL, q);
		EXPECT_TRUE(all_zero(q, PAGE));
	}
	munmap(q, PAGE);
	/* the owner's buffer is untouched by all of it */
	EXPECT_EQ(0xaa, (unsigned char)p[PAGE - 1]);
	munmap(p, PAGE);
	close(fd2);
	EXPECT_EQ(0, bo_destroy(self->fd, h));
}

/* max_buffers_per_file: the 1025th buffer is ENOSPC, freed ones count not. */
TEST_F(bo, count_limit)
{
	static __u32 h[1024];
	__u64 off;
	__u32 x;
	void *p;
	int i;

	for (i = 0; i < 1024; i++)
		ASSERT_EQ(0, bo_create(self->fd, 1, 0, &h[i], NULL));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 1, 0, &x, NULL));
	ASSERT_EQ(0, bo_destroy(self->fd, h[5]));
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, &h[5], &off));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 1, 0, &x, NULL));
	/* a destroyed buffer still mapped still counts, until munmap() */
	p = bo_map(self->fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, bo_destroy(self->fd, h[5]));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 1, 0, &x, NULL));
	ASSERT_EQ(0, munmap(p, PAGE));
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, &h[5], NULL));
	/* another file has limits of its own */
	i = vgpu_test_open(0);
	ASSERT_LE(0, i);
	EXPECT_EQ(0, bo_create(i, 1, 0, &x, NULL));
	close(i);
}

/*
 * max_buffer_bytes_per_file: a VGPU_MAX_BO_SIZE buffer fills the 256 MiB;
 * sizes count in whole pages; the bytes of a destroyed buffer held by a
 * kernel handle count until the handle is released.
 */
TEST_F(bo, bytes_limit)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	__u32 h, x, y;

	ASSERT_EQ(0, bo_create(self->fd, VGPU_MAX_BO_SIZE - PAGE, 0, &h, NULL));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, PAGE + 1, 0, &x, NULL));
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, &y, NULL));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 1, 0, &x, NULL));
	ASSERT_EQ(0, bo_destroy(self->fd, y));
	BDESC(&d, self->ch, vgpu_prog_empty, &h, 1);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, bo_destroy(self->fd, h));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 2 * PAGE, 0, &x, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, VGPU_QUERY_RELEASE,
				     &q));
	ASSERT_EQ(0, bo_create(self->fd, VGPU_MAX_BO_SIZE, 0, &h, NULL));
	EXPECT_EQ(ENOSPC, bo_create(self->fd, 1, 0, &x, NULL));
	EXPECT_EQ(0, bo_destroy(self->fd, h));
}

/* A running kernel's buffers cannot be destroyed; cancelled, they can. */
TEST_F(bo, destroy_while_running_is_ebusy)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	__u32 h[2];
	__u64 off;
	int *p;

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h[0], &off));
	ASSERT_EQ(0, bo_create(self->fd, PAGE, VGPU_BO_CONSTANT, &h[1], NULL));
	p = bo_map(self->fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[0] = 42;
	BDESC(&d, self->ch, vgpu_prog_spin, h, 2);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(EBUSY, bo_destroy(self->fd, h[0]));
	EXPECT_EQ(EBUSY, bo_destroy(self->fd, h[1]));
	/* still busy while it runs, and mapped all along */
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_GE(VGPU_KSTATE_RUNNING, q.state);
	EXPECT_EQ(EBUSY, bo_destroy(self->fd, h[0]));
	EXPECT_EQ(42, p[0]);
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	/* finished, its handle not released: destroy works again */
	EXPECT_EQ(0, bo_destroy(self->fd, h[0]));
	EXPECT_EQ(0, bo_destroy(self->fd, h[1]));
	EXPECT_EQ(42, p[0]);
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, VGPU_QUERY_RELEASE,
				     &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(42, p[0]);
	munmap(p, PAGE);
}

/* Queued behind the closed gate, or completed: busy until it finishes. */
TEST_F(bo, destroy_busy_until_the_kernel_completes)
{
	struct vgpu_submit_desc d;
	__u32 h[3];

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h[0], NULL));
	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h[1], NULL));
	/* one buffer in two slots counts twice, and is released twice */
	h[2] = h[0];
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	BDESC(&d, self->ch, vgpu_prog_alu, h, 3);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(EBUSY, bo_destroy(self->fd, h[0]));
	EXPECT_EQ(EBUSY, bo_destroy(self->fd, h[1]));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	EXPECT_EQ(0, bo_destroy(self->fd, h[0]));
	EXPECT_EQ(0, bo_destroy(self->fd, h[1]));
}

/* Descriptor VER6: every errno, all or nothing, VER5 still works. */
TEST_F(bo, submit_desc_errnos)
{
	struct vgpu_submit_desc d[2];
	struct vgpu_submit sub;
	__u32 h[VGPU_MAX_BUFFER_SLOTS + 1], bad;
	int i;

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h[0], NULL));
	for (i = 1; i <= VGPU_MAX_BUFFER_SLOTS; i++)
		h[i] = h[0];
	/* 16 slots are fine, and the most private memory (functional) */
	BDESC(&d[0], self->ch, prog_fn_min, h, VGPU_MAX_BUFFER_SLOTS);
	d[0].private_bytes = VGPU_MAX_PRIVATE_BYTES;
	d[0].insn_budget = 1000;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d[0].handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	BDESC(&d[0], self->ch, vgpu_prog_empty, h, VGPU_MAX_BUFFER_SLOTS + 1);
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	BDESC(&d[0], self->ch, vgpu_prog_empty, NULL, 1);
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	BDESC(&d[0], self->ch, vgpu_prog_empty, h, 0);
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	BDESC(&d[0], self->ch, vgpu_prog_empty, h, 1);
	d[0].private_bytes = 6;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	d[0].private_bytes = VGPU_MAX_PRIVATE_BYTES + 4;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	/* a budget for a program without functional instructions */
	BDESC(&d[0], self->ch, vgpu_prog_empty, h, 1);
	d[0].insn_budget = 1000;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	/* a handle that is no buffer, an unreadable array */
	bad = h[0] + 1000;
	BDESC(&d[0], self->ch, vgpu_prog_empty, &bad, 1);
	EXPECT_EQ(ENOENT, vgpu_test_submit(self->fd, d, 1));
	BDESC(&d[0], self->ch, vgpu_prog_empty, 8, 1);
	EXPECT_EQ(EFAULT, vgpu_test_submit(self->fd, d, 1));
	/* all or nothing: the first kernel's buffer is not held after all */
	BDESC(&d[0], self->ch, vgpu_prog_empty, h, 1);
	BDESC(&d[1], self->ch, vgpu_prog_empty, &bad, 1);
	EXPECT_EQ(ENOENT, vgpu_test_submit(self->fd, d, 2));
	EXPECT_EQ(0, d[0].handle);
	EXPECT_EQ(0, bo_destroy(self->fd, h[0]));
	/* a VER5 descriptor (160 bytes) knows no buffers and still submits */
	VGPU_DESC(&d[0], self->ch, vgpu_prog_empty);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = VGPU_SUBMIT_DESC_SIZE_VER5;
	sub.descs = (uintptr_t)d;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub));
	EXPECT_NE(0, d[0].handle);
	EXPECT_EQ(VGPU_SUBMIT_DESC_SIZE_VER6, sizeof(d[0]));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d[0].handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

/* The kernel of a failed batch holds nothing: destroy works at once. */
TEST_F(bo, failed_submit_holds_no_buffer)
{
	struct vgpu_submit_desc d[2];
	__u32 h, bad;

	ASSERT_EQ(0, bo_create(self->fd, PAGE, 0, &h, NULL));
	bad = h + 1;
	BDESC(&d[0], self->ch, vgpu_prog_spin, &h, 1);
	BDESC(&d[1], self->ch, vgpu_prog_spin, &bad, 1);
	EXPECT_EQ(ENOENT, vgpu_test_submit(self->fd, d, 2));
	/* the second names a channel that does not exist: fails later */
	BDESC(&d[0], self->ch, vgpu_prog_spin, &h, 1);
	BDESC(&d[1], self->ch + 100, vgpu_prog_spin, &h, 1);
	EXPECT_EQ(ENOENT, vgpu_test_submit(self->fd, d, 2));
	EXPECT_EQ(0, bo_destroy(self->fd, h));
}

/*
 * Closing the file with a kernel running and a mapping alive: the mapping
 * holds the file, so its data stays readable and the kernel runs on until
 * munmap(), which releases the file: the kernel is cancelled, everything
 * freed.
 */
TEST(release_with_kernels_running_and_a_mapping)
{
	struct vgpu_submit_desc d;
	__u32 ch = 0, h;
	__u64 off;
	int fd, base, *p;

	base = live_kernels();
	ASSERT_LE(0, base);
	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, bo_create(fd, 2 * PAGE, 0, &h, &off));
	p = bo_map(fd, off, 2 * PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[0] = 11;
	p[2 * PAGE / sizeof(int) - 1] = 22;
	BDESC(&d, ch, vgpu_prog_spin, &h, 1);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	ASSERT_EQ(0, close(fd));
	EXPECT_EQ(base + 1, live_kernels());
	EXPECT_EQ(11, p[0]);
	EXPECT_EQ(22, p[2 * PAGE / sizeof(int) - 1]);
	p[1] = 33;
	EXPECT_EQ(33, p[1]);
	ASSERT_EQ(0, munmap(p, 2 * PAGE));
	/* the release ran when munmap() dropped the file */
	EXPECT_EQ(base, live_kernels());
}

/* Closing a file with buffers, kernels naming them and no mapping. */
TEST(release_frees_every_buffer)
{
	struct vgpu_submit_desc d;
	__u32 ch = 0, h[4];
	int fd, i, base;

	base = live_kernels();
	ASSERT_LE(0, base);
	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, bo_create(fd, 64 * PAGE, 0, &h[i], NULL));
	BDESC(&d, ch, vgpu_prog_spin, h, 4);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	BDESC(&d, ch, vgpu_prog_spin, h + 2, 2);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	EXPECT_EQ(EBUSY, bo_destroy(fd, h[1]));
	EXPECT_EQ(base + 2, live_kernels());
	ASSERT_EQ(0, close(fd));
	EXPECT_EQ(base, live_kernels());
}

/* A forked child's copy of a mapping holds the buffer too. */
TEST(fork_shares_the_mapping)
{
	__u64 off;
	__u32 h;
	int fd, st;
	volatile int *p;
	pid_t pid;

	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bo_create(fd, PAGE, 0, &h, &off));
	p = bo_map(fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		p[3] = 77;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(77, p[3]);
	ASSERT_EQ(0, bo_destroy(fd, h));
	close(fd);
	EXPECT_EQ(77, p[3]);
	munmap((void *)p, PAGE);
}

/*
 * A removed device's file maps nothing new (ENODEV, as its ioctls), but
 * its buffers' mappings keep their memory until unmapped.
 */
TEST(mapping_outlives_the_device)
{
	char path[32];
	__u64 off, off2;
	__u32 h, h2;
	int fd, *p;

	ASSERT_EQ(0, vgpu_test_new_device(DEV, ""));
	snprintf(path, sizeof(path), "/dev/vgpu%u", DEV);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bo_create(fd, PAGE, 0, &h, &off));
	ASSERT_EQ(0, bo_create(fd, PAGE, 0, &h2, &off2));
	p = bo_map(fd, off, PAGE, MAP_SHARED);
	ASSERT_NE(NULL, p);
	p[0] = 99;
	snprintf(path, sizeof(path), "%u", DEV);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", path));
	EXPECT_EQ(ENODEV, map_errno(fd, off2, PAGE, MAP_SHARED));
	EXPECT_EQ(ENODEV, bo_destroy(fd, h));
	EXPECT_EQ(99, p[0]);
	p[1] = 100;
	EXPECT_EQ(100, p[1]);
	close(fd);
	EXPECT_EQ(100, p[1]);
	EXPECT_EQ(0, munmap(p, PAGE));
}

#define KO		"/vgpu/vgpu_dispatch.ko"
/* reload with the parameters vm-run loaded it with, and more */
#define RELOAD		"rmmod vgpu_dispatch && insmod " KO \
			" $(cat /vgpu/modparams 2>/dev/null)"

/* GET_INFO's limits of device 0 (all ones when it cannot be read). */
static struct vgpu_info info0(void)
{
	int fd = vgpu_test_open(0);
	struct vgpu_info info;

	memset(&info, 0xff, sizeof(info));
	if (fd >= 0) {
		info = vgpu_test_info(fd);
		close(fd);
	}
	return info;
}

/*
 * The module parameters set both limits (the count capped at 65535
 * handles); the module is loaded with the defaults again at the end.
 */
TEST(module_parameters_set_the_limits)
{
	struct vgpu_info info;
	__u32 h[4];
	int fd;

	if (access(KO, R_OK))
		SKIP(return, "no " KO);
	ASSERT_EQ(0, system(RELOAD " max_buffers_per_file=3 max_buffer_bytes_per_file=12288"));
	info = info0();
	EXPECT_EQ(3, info.max_buffers_per_file);
	EXPECT_EQ(3 * PAGE, info.max_buffer_bytes_per_file);
	fd = vgpu_test_open(0);
	if (fd >= 0) {
		EXPECT_EQ(0, bo_create(fd, 1, 0, &h[0], NULL));
		/* one page and three more: past the bytes */
		EXPECT_EQ(ENOSPC, bo_create(fd, 2 * PAGE + 1, 0, &h[1], NULL));
		EXPECT_EQ(0, bo_create(fd, 2 * PAGE, 0, &h[1], NULL));
		EXPECT_EQ(ENOSPC, bo_create(fd, 1, 0, &h[2], NULL));
		EXPECT_EQ(0, bo_destroy(fd, h[1]));
		EXPECT_EQ(0, bo_create(fd, 1, 0, &h[1], NULL));
		EXPECT_EQ(0, bo_create(fd, 1, 0, &h[2], NULL));
		/* three buffers of one page each: past the count */
		EXPECT_EQ(ENOSPC, bo_create(fd, 1, 0, &h[3], NULL));
		close(fd);
	}
	EXPECT_EQ(0, system(RELOAD " max_buffers_per_file=100000"));
	EXPECT_EQ(65535, info0().max_buffers_per_file);
	ASSERT_EQ(0, system(RELOAD));
	info = info0();
	EXPECT_EQ(1024, info.max_buffers_per_file);
	EXPECT_EQ(256 * MIB, info.max_buffer_bytes_per_file);
}

TEST_HARNESS_MAIN
