/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_test_util.h - small helpers shared by the in-VM kselftests.
 */
#ifndef VGPU_TEST_UTIL_H
#define VGPU_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

/* Programs (F04). */
static const struct vgpu_insn vgpu_prog_alu[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(100, 0) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn vgpu_prog_long[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(2000, 0) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_LOAD },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn vgpu_prog_spin[] = {
	{ .op = VGPU_OP_SPIN },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn vgpu_prog_empty[] = {
	{ .op = VGPU_OP_EXIT },
};

#define VGPU_PROG(d, p) do {					\
	(d)->program = (uintptr_t)(p);				\
	(d)->num_insns = sizeof(p) / sizeof((p)[0]);		\
} while (0)

static inline int vgpu_test_open(unsigned int index)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/vgpu%u", index);
	return open(path, O_RDWR | O_CLOEXEC);
}

static inline int vgpu_test_errno(int ret)
{
	return ret ? errno : 0;
}

/* Create a channel; 0 and *handle, or the errno. */
static inline int vgpu_test_channel(int fd, __u32 prio, __u64 timeout,
				    __u32 *handle)
{
	struct vgpu_channel_create cc;

	memset(&cc, 0, sizeof(cc));
	cc.priority = prio;
	cc.timeout_cycles = timeout;
	if (ioctl(fd, VGPU_IOCTL_CHANNEL_CREATE, &cc))
		return errno;
	*handle = cc.handle;
	return 0;
}

/* A valid descriptor: one block of 128 threads running @p. */
#define VGPU_DESC(d, ch, p) do {				\
	memset((d), 0, sizeof(*(d)));				\
	(d)->channel = (ch);					\
	(d)->grid = 1;						\
	(d)->threads = 128;					\
	(d)->regs = 32;						\
	VGPU_PROG(d, p);					\
} while (0)

static inline int vgpu_test_submit(int fd, struct vgpu_submit_desc *d,
				   __u32 n)
{
	struct vgpu_submit sub;

	memset(&sub, 0, sizeof(sub));
	sub.count = n;
	sub.desc_size = sizeof(*d);
	sub.descs = (uintptr_t)d;
	return ioctl(fd, VGPU_IOCTL_SUBMIT, &sub) ? errno : 0;
}

static inline int vgpu_test_wait(int fd, const __u32 *h, __u32 n, __u32 flags,
				 __s64 timeout_ns, __u32 *first)
{
	struct vgpu_wait w;

	memset(&w, 0, sizeof(w));
	w.flags = flags;
	w.count = n;
	w.handles = (uintptr_t)h;
	w.timeout_ns = timeout_ns;
	if (ioctl(fd, VGPU_IOCTL_WAIT, &w))
		return errno;
	if (first)
		*first = w.first;
	return 0;
}

static inline int vgpu_test_query(int fd, __u32 h, __u32 flags,
				  struct vgpu_kernel_query *q)
{
	memset(q, 0, sizeof(*q));
	q->handle = h;
	q->flags = flags;
	return ioctl(fd, VGPU_IOCTL_QUERY, q) ? errno : 0;
}

static inline int vgpu_test_cancel(int fd, __u32 h)
{
	struct vgpu_kernel_cancel c = { .handle = h };

	return ioctl(fd, VGPU_IOCTL_CANCEL, &c) ? errno : 0;
}

static inline int vgpu_test_gate(int fd, __u32 op, __u64 *cycle)
{
	struct vgpu_gate g = { .op = op };

	if (ioctl(fd, VGPU_IOCTL_GATE, &g))
		return errno;
	if (cycle)
		*cycle = g.cycle;
	return 0;
}

static inline __s64 vgpu_test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline struct vgpu_info vgpu_test_info(int fd)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		memset(&info, 0xff, sizeof(info));
	return info;
}

/* Write @line to a sysfs file; 0 or the errno of write(). */
static inline int vgpu_test_sysfs(const char *path, const char *line)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

/* The whole file @path in @buf (NUL-terminated); its length, or -errno. */
static inline int vgpu_test_slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = 0, r;

	if (fd < 0)
		return -errno;
	while ((r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	if (r < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/*
 * Value of the first "key value" (debugfs) or "key:\tvalue" (fdinfo) line
 * of @text, or -1.
 */
static inline long long vgpu_test_keyval(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, n) && (p[n] == ' ' || p[n] == ':'))
			return strtoll(p + n + 1 + (p[n] == ':'), NULL, 0);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* A queue kernel (F14) of one-warp blocks running @p. */
#define VGPU_QDESC(d, ch, p, n, cap, tmo) do {			\
	VGPU_DESC(d, ch, p);					\
	(d)->flags = VGPU_KERNEL_QUEUE;				\
	(d)->grid = 0;						\
	(d)->threads = 32;					\
	(d)->queue_n = (n);					\
	(d)->queue_cap = (cap);					\
	(d)->queue_timeout = (tmo);				\
} while (0)

/* One one-block kernel of vgpu_prog_alu arriving @arrival after the clock. */
static inline int vgpu_test_submit_at(int fd, __u32 ch, __u64 arrival,
				      __u32 *h)
{
	struct vgpu_submit_desc d;
	int ret;

	VGPU_DESC(&d, ch, vgpu_prog_alu);
	d.arrival = arrival;
	ret = vgpu_test_submit(fd, &d, 1);
	*h = d.handle;
	return ret;
}

/* Instance @id made afresh: "ID small@opts" (@opts starts with a space). */
static inline int vgpu_test_new_device(unsigned int id, const char *opts)
{
	char line[128];

	snprintf(line, sizeof(line), "%u", id);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
	snprintf(line, sizeof(line), "%u small%s", id, opts);
	return vgpu_test_sysfs("/sys/bus/vgpu/new_device", line);
}

/* A private page holding @len bytes of @src, made read-only; NULL on error. */
static inline void *vgpu_test_ro_copy(const void *src, size_t len)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, src, len);
	if (mprotect(p, 4096, PROT_READ)) {
		munmap(p, 4096);
		return NULL;
	}
	return p;
}

/* The ioctl with a read-only copy of @arg: 0 or its errno. */
static inline int vgpu_test_ro_ioctl(int fd, unsigned long cmd, const void *arg,
				     size_t len)
{
	void *ro = vgpu_test_ro_copy(arg, len);
	int ret;

	if (!ro)
		return -1;
	ret = ioctl(fd, cmd, ro) ? errno : 0;
	munmap(ro, 4096);
	return ret;
}

#endif /* VGPU_TEST_UTIL_H */
