// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fence_test.c - waiting the way kernel userspace waits
 * (Documentation/uapi.rst, "poll()" and "Out-fences"):
 *
 *  - poll() and epoll on device files: EPOLLIN exactly while a file has a
 *    finished kernel whose handle it has not released, for many kernels
 *    and many files in one call;
 *  - SUBMIT's out-fences (VGPU_KERNEL_FENCE_OUT): a sync_file per kernel
 *    that signals when it finishes, with the QUERY error when it was
 *    cancelled, timed out or failed; fences that outlive their file, their
 *    device and hold the module; every errno of the flag and its fields.
 *
 * The module is loaded with device 0 (preset "small"); the device tests
 * make instance 15 and remove it again.
 */
#include <poll.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <linux/sync_file.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	15

#define I(o)		{ .op = VGPU_OP_##o }
#define LAUNCHW(t)	{ .op = VGPU_OP_LAUNCH, .a = (t), .b = VGPU_LAUNCH_WAIT }

/* A kernel that launches itself with WAIT fails at VGPU_MAX_DEPTH. */
static const struct vgpu_insn self_wait[] = { LAUNCHW(0), I(EXIT) };

/* Submit one kernel of @p, with an out-fence when @fence is non-NULL. */
static int submit_fenced(int fd, __u32 ch, const struct vgpu_insn *p,
			 __u32 n, __u32 *h, int *fence)
{
	struct vgpu_submit_desc d;
	int ret;

	VGPU_DESC(&d, ch, vgpu_prog_alu);
	d.program = (uintptr_t)p;
	d.num_insns = n;
	if (fence)
		d.flags = VGPU_KERNEL_FENCE_OUT;
	ret = vgpu_test_submit(fd, &d, 1);
	if (!ret) {
		*h = d.handle;
		if (fence)
			*fence = d.fence_fd;
	}
	return ret;
}

#define SUBMIT_F(fd, ch, prog, h, fence) \
	submit_fenced(fd, ch, prog, sizeof(prog) / sizeof((prog)[0]), h, fence)

/* poll() one fd for @ev with @ms: its revents, or -1 on an error. */
static int poll1(int fd, short ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n = poll(&p, 1, ms);

	return n < 0 ? -1 : n ? p.revents : 0;
}

/* The sync_file's status: 1 signalled, 0 pending, a negative error. */
static int fence_status(int fence)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;
	return info.status;
}

/* Its one fence's info (driver and timeline names, status). */
static int fence_info(int fence, struct sync_fence_info *fi)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	memset(fi, 0, sizeof(*fi));
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)fi;
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return errno;
	return info.num_fences == 1 ? 0 : -1;
}

/*
 * The names a signalled fence reports: the module's on 6.1 and 6.12; newer
 * dma-fence cores (7.2 here) stop asking the driver once a fence is
 * signalled and report "detached-driver" and "signaled-timeline" (so the
 * names never reach into a module that may be gone).  Either is right.
 */
static int fence_names_ok(const struct sync_fence_info *fi, const char *obj)
{
	if (!strcmp(fi->driver_name, "detached-driver"))
		return !strcmp(fi->obj_name, "signaled-timeline");
	return !strcmp(fi->driver_name, "vgpu_dispatch") &&
	       !strcmp(fi->obj_name, obj);
}

/* Wait for the fence (bounded only to fail): its status afterwards. */
static int fence_wait(int fence)
{
	if (poll1(fence, POLLIN, 60000) != POLLIN)
		return -2000;
	return fence_status(fence);
}

/* Out-fences need a kernel with CONFIG_SYNC_FILE (VGPU_CAP_FENCE_OUT). */
#define NEED_FENCES(fd) do {						\
	if (!(vgpu_test_info(fd).caps & VGPU_CAP_FENCE_OUT))		\
		SKIP(return, "no VGPU_CAP_FENCE_OUT (CONFIG_SYNC_FILE)");	\
} while (0)

/* The module's reference count (/sys/module/.../refcnt), or -1. */
static long module_refs(void)
{
	char buf[32];

	if (vgpu_test_slurp("/sys/module/vgpu_dispatch/refcnt", buf,
			    sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Wait until the module's reference count is @want: a fence is freed
 * after an RCU grace period, so the count falls a little after the last
 * close.  The deadline only bounds a failure.
 */
static int module_refs_reach(long want)
{
	__s64 end = vgpu_test_now_ns() + 30 * 1000000000LL;

	while (module_refs() != want) {
		if (vgpu_test_now_ns() > end)
			return 0;
		usleep(1000);
	}
	return 1;
}

/* The lowest free file descriptor (what the next open() returns). */
static int lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), ret = fd;

	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Every fence pins the module (its fence ops are module code): one
 * reference per live fence, with no file of the device open, gone once
 * the last descriptor is closed (after an RCU grace period).  First in
 * this file, so that no earlier test's fence is still being freed.
 */
TEST(fence_holds_the_module)
{
	long base = module_refs();
	__u32 ch = 0, h = 0;
	int fd, fence[2] = { -1, -1 };

	ASSERT_LE(0, base);
	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	NEED_FENCES(fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_alu, &h, &fence[0]));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_alu, &h, &fence[1]));
	EXPECT_EQ(1, fence_wait(fence[1]));
	close(fd);
	EXPECT_EQ(base + 2, module_refs());
	close(fence[0]);
	EXPECT_TRUE(module_refs_reach(base + 1));
	close(fence[1]);
	EXPECT_TRUE(module_refs_reach(base));
}

FIXTURE(f) {
	int fd;
	__u32 ch;
	int fences;	/* VGPU_CAP_FENCE_OUT: a kernel with CONFIG_SYNC_FILE */
};

FIXTURE_SETUP(f)
{
	struct vgpu_info info;

	self->fd = vgpu_test_open(0);
	ASSERT_LE(0, self->fd);
	info = vgpu_test_info(self->fd);
	ASSERT_EQ(1, info.version_major);
	ASSERT_EQ(VGPU_CAP_POLL, info.caps & VGPU_CAP_POLL);
	self->fences = !!(info.caps & VGPU_CAP_FENCE_OUT);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(f)
{
	close(self->fd);
}

/* Without VGPU_CAP_FENCE_OUT the flag is -EOPNOTSUPP, nothing queued. */
TEST_F(f, fence_eopnotsupp_without_the_cap)
{
	struct vgpu_submit_desc d;

	if (self->fences)
		SKIP(return, "VGPU_CAP_FENCE_OUT: the kernel has CONFIG_SYNC_FILE");
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	d.flags = VGPU_KERNEL_FENCE_OUT;
	EXPECT_EQ(EOPNOTSUPP, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(0, d.handle);
	EXPECT_EQ(0, d.fence_fd);
}

/*
 * The ioctl type is 0xD5 (Documentation/uapi.rst): a command of the
 * pre-1.0 type 'V' is -ENOTTY, the same command under 0xD5 works.
 */
TEST_F(f, ioctl_type_0xd5)
{
	struct vgpu_info info;

	EXPECT_EQ(0xD5, _IOC_TYPE(VGPU_IOCTL_GET_INFO));
	memset(&info, 0, sizeof(info));
	EXPECT_EQ(ENOTTY, ioctl(self->fd, _IOWR('V', 0x00, struct vgpu_info),
				&info) ? errno : 0);
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info) ? errno : 0);
	EXPECT_EQ(1, info.version_major);
	EXPECT_EQ(0, info.version_minor);
}

/*
 * Many kernels, one poll(): nothing is reported while the gate holds them
 * all, EPOLLIN once one of them has finished.
 */
TEST_F(f, poll_many_kernels_reports_a_finish_not_before)
{
	struct vgpu_submit_desc d[16];
	struct vgpu_kernel_query q;
	int i, done = 0;

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	for (i = 0; i < 16; i++)
		VGPU_DESC(&d[i], self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 16));
	/* held behind the gate: no EPOLLIN, however long one waits */
	EXPECT_EQ(0, poll1(self->fd, POLLIN, 0));
	EXPECT_EQ(0, poll1(self->fd, POLLIN, 50));
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, d[i].handle, 0, &q));
		EXPECT_NE(VGPU_KSTATE_DONE, q.state);
	}
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	EXPECT_EQ(POLLIN, poll1(self->fd, POLLIN, -1) & POLLIN);
	/* it reported a finished kernel of this file */
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, d[i].handle, 0, &q));
		done += q.state == VGPU_KSTATE_DONE;
	}
	EXPECT_LT(0, done);
}

/*
 * EPOLLIN stays while a finished kernel's handle is not released and goes
 * with the last release; a running kernel alone never sets it.
 */
TEST_F(f, pollin_cleared_by_releasing_finished_handles)
{
	struct vgpu_kernel_query q;
	__u32 a = 0, b = 0, spin = 0;

	ASSERT_EQ(0, SUBMIT_F(self->fd, self->ch, vgpu_prog_spin, &spin, NULL));
	EXPECT_EQ(0, poll1(self->fd, POLLIN, 0));
	/* the spin kernel holds the channel: a second channel for the rest */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
	ASSERT_EQ(0, SUBMIT_F(self->fd, self->ch, vgpu_prog_alu, &a, NULL));
	ASSERT_EQ(0, SUBMIT_F(self->fd, self->ch, vgpu_prog_alu, &b, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &b, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &a, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	EXPECT_EQ(POLLIN, poll1(self->fd, POLLIN, 0) & POLLIN);
	ASSERT_EQ(0, vgpu_test_query(self->fd, a, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(POLLIN, poll1(self->fd, POLLIN, 0) & POLLIN);
	ASSERT_EQ(0, vgpu_test_query(self->fd, b, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(0, poll1(self->fd, POLLIN, 0));
	/* cancelled is finished too */
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, spin));
	EXPECT_EQ(POLLIN, poll1(self->fd, POLLIN, -1) & POLLIN);
	ASSERT_EQ(0, vgpu_test_query(self->fd, spin, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(0, poll1(self->fd, POLLIN, 0));
}

/*
 * Many files in one poll(): only the file whose kernel finished is
 * readable; the others' kernels keep spinning.
 */
TEST_F(f, poll_many_files_reports_only_the_finished_one)
{
	struct pollfd p[4];
	struct vgpu_kernel_query q;
	__u32 ch[4], h[4];
	int fd[4], i;

	for (i = 0; i < 4; i++) {
		fd[i] = vgpu_test_open(0);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ(0, vgpu_test_channel(fd[i], 2, 0, &ch[i]));
		ASSERT_EQ(0, SUBMIT_F(fd[i], ch[i], vgpu_prog_spin, &h[i],
				      NULL));
		p[i].fd = fd[i];
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	EXPECT_EQ(0, poll(p, 4, 0));
	ASSERT_EQ(0, vgpu_test_cancel(fd[2], h[2]));
	ASSERT_EQ(1, poll(p, 4, -1));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(i == 2 ? POLLIN : 0, p[i].revents);
	ASSERT_EQ(0, vgpu_test_query(fd[2], h[2], VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(0, poll(p, 4, 0));
	for (i = 0; i < 4; i++)
		close(fd[i]);
}

/* epoll: the same, level-triggered, with the file's own cookie. */
TEST_F(f, epoll_reports_the_file_whose_kernel_finished)
{
	struct epoll_event ev, out[4];
	struct vgpu_kernel_query q;
	__u32 ch[3], h;
	int ep, fd[3], i;

	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	for (i = 0; i < 3; i++) {
		fd[i] = vgpu_test_open(0);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ(0, vgpu_test_channel(fd[i], 2, 0, &ch[i]));
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.u32 = 100 + i;
		ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &ev));
	}
	EXPECT_EQ(0, epoll_wait(ep, out, 4, 0));
	ASSERT_EQ(0, SUBMIT_F(fd[1], ch[1], vgpu_prog_alu, &h, NULL));
	ASSERT_EQ(1, epoll_wait(ep, out, 4, -1));
	EXPECT_EQ(101, out[0].data.u32);
	EXPECT_EQ(EPOLLIN, out[0].events & EPOLLIN);
	/* level-triggered: still there until the handle is released */
	ASSERT_EQ(1, epoll_wait(ep, out, 4, 0));
	ASSERT_EQ(0, vgpu_test_query(fd[1], h, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, epoll_wait(ep, out, 4, 0));
	for (i = 0; i < 3; i++)
		close(fd[i]);
	close(ep);
}

/*
 * The out-fence of a completed kernel: pending while the gate holds the
 * kernel, then signalled without an error; by then QUERY says DONE.  The
 * descriptor is close-on-exec; the fence names the driver and device.
 */
TEST_F(f, fence_signals_when_the_kernel_completes)
{
	struct sync_fence_info fi;
	struct vgpu_kernel_query q;
	__u32 h = 0;
	int fence = -1;

	NEED_FENCES(self->fd);

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, SUBMIT_F(self->fd, self->ch, vgpu_prog_alu, &h, &fence));
	ASSERT_LE(3, fence);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fence, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(0, fence_status(fence));
	EXPECT_EQ(0, poll1(fence, POLLIN, 50));
	/* pending: every kernel asks the module for the names */
	ASSERT_EQ(0, fence_info(fence, &fi));
	EXPECT_STREQ("vgpu_dispatch", fi.driver_name);
	EXPECT_STREQ("vgpu0", fi.obj_name);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	EXPECT_EQ(1, fence_wait(fence));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	ASSERT_EQ(0, fence_info(fence, &fi));
	EXPECT_TRUE(fence_names_ok(&fi, "vgpu0")) {
		TH_LOG("names %s, %s", fi.driver_name, fi.obj_name);
	}
	EXPECT_EQ(1, fi.status);
	close(fence);
}

/* A batch: a fence per kernel that asked for one, each its own. */
TEST_F(f, fence_per_kernel_of_a_batch)
{
	struct vgpu_submit_desc d[3];
	struct vgpu_kernel_query q;
	int i;

	NEED_FENCES(self->fd);

	for (i = 0; i < 3; i++) {
		VGPU_DESC(&d[i], self->ch, vgpu_prog_alu);
		if (i != 1)
			d[i].flags = VGPU_KERNEL_FENCE_OUT;
	}
	d[2].program = (uintptr_t)vgpu_prog_spin;
	d[2].num_insns = 2;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 3));
	EXPECT_LE(3, d[0].fence_fd);
	EXPECT_EQ(0, d[1].fence_fd);
	EXPECT_LE(3, d[2].fence_fd);
	EXPECT_NE(d[0].fence_fd, d[2].fence_fd);
	EXPECT_EQ(1, fence_wait(d[0].fence_fd));
	EXPECT_EQ(0, fence_status(d[2].fence_fd));
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d[2].handle));
	EXPECT_EQ(-ECANCELED, fence_wait(d[2].fence_fd));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[2].handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	close(d[0].fence_fd);
	close(d[2].fence_fd);
}

/* CANCEL: the fence signals with -ECANCELED, QUERY's error. */
TEST_F(f, fence_error_on_cancel)
{
	struct sync_fence_info fi;
	__u32 h = 0;
	int fence = -1;

	NEED_FENCES(self->fd);

	ASSERT_EQ(0, SUBMIT_F(self->fd, self->ch, vgpu_prog_spin, &h, &fence));
	EXPECT_EQ(0, poll1(fence, POLLIN, 0));
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, h));
	EXPECT_EQ(-ECANCELED, fence_wait(fence));
	ASSERT_EQ(0, fence_info(fence, &fi));
	EXPECT_EQ(-ECANCELED, fi.status);
	close(fence);
}

/* The hang timeout (F53): the fence signals with -ETIMEDOUT. */
TEST_F(f, fence_error_on_hang)
{
	struct vgpu_kernel_query q;
	__u32 hung_ch = 0, h = 0;
	int fence = -1;

	NEED_FENCES(self->fd);

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 20000, &hung_ch));
	ASSERT_EQ(0, SUBMIT_F(self->fd, hung_ch, vgpu_prog_spin, &h, &fence));
	EXPECT_EQ(-ETIMEDOUT, fence_wait(fence));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(-ETIMEDOUT, q.error);
	close(fence);
}

/* A failed kernel (a LAUNCH beyond VGPU_MAX_DEPTH, F15): -ELOOP. */
TEST_F(f, fence_error_on_failure)
{
	struct vgpu_submit_desc d;
	struct vgpu_template t;
	struct vgpu_kernel_query q;

	NEED_FENCES(self->fd);

	memset(&t, 0, sizeof(t));
	t.grid = 1;
	t.threads = 32;
	t.regs = 32;
	t.program = (uintptr_t)self_wait;
	t.num_insns = 2;
	VGPU_DESC(&d, self->ch, self_wait);
	d.threads = 32;
	d.templates = (uintptr_t)&t;
	d.num_templates = 1;
	d.template_size = sizeof(t);
	d.child_budget = 100;
	d.flags = VGPU_KERNEL_FENCE_OUT;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(-ELOOP, fence_wait(d.fence_fd));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_FAILED, q.state);
	EXPECT_EQ(-ELOOP, q.error);
	close(d.fence_fd);
}

/*
 * The fence outlives its file: closing the file cancels its unfinished
 * kernel (-ECANCELED); a completed kernel's fence keeps its status; both
 * still answer SYNC_IOC_FILE_INFO afterwards.
 */
TEST_F(f, fence_outlives_the_file)
{
	struct sync_fence_info fi;
	__u32 ch = 0, h = 0;
	int fd, done = -1, spin = -1;

	NEED_FENCES(self->fd);

	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_alu, &h, &done));
	EXPECT_EQ(1, fence_wait(done));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_spin, &h, &spin));
	EXPECT_EQ(0, fence_status(spin));
	close(fd);
	EXPECT_EQ(-ECANCELED, fence_wait(spin));
	EXPECT_EQ(1, fence_status(done));
	ASSERT_EQ(0, fence_info(spin, &fi));
	EXPECT_TRUE(fence_names_ok(&fi, "vgpu0")) {
		TH_LOG("names %s, %s", fi.driver_name, fi.obj_name);
	}
	close(spin);
	close(done);
}

/*
 * The fence outlives its device, removed through the bus: the file's
 * kernel is cancelled when the file closes, and the fence, signalled,
 * still answers after the device is gone.
 */
TEST(fence_outlives_the_device)
{
	struct sync_fence_info fi;
	char line[16];
	__u32 ch = 0, h = 0;
	int fd, fence = -1, done = -1;

	ASSERT_EQ(0, vgpu_test_new_device(DEV, ""));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	NEED_FENCES(fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_alu, &h, &done));
	EXPECT_EQ(1, fence_wait(done));
	ASSERT_EQ(0, SUBMIT_F(fd, ch, vgpu_prog_spin, &h, &fence));
	snprintf(line, sizeof(line), "%d", DEV);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", line));
	/* the device is gone; its open file cancels what it owns on close */
	close(fd);
	EXPECT_EQ(-ECANCELED, fence_wait(fence));
	EXPECT_EQ(1, fence_status(done));
	ASSERT_EQ(0, fence_info(fence, &fi));
	EXPECT_TRUE(fence_names_ok(&fi, "vgpu15")) {
		TH_LOG("names %s, %s", fi.driver_name, fi.obj_name);
	}
	EXPECT_EQ(-ECANCELED, fi.status);
	close(fence);
	close(done);
}

/* Every errno of the flag and its fields, with nothing queued after it. */
TEST_F(f, fence_errnos)
{
	struct vgpu_submit_desc d[2];
	struct vgpu_submit sub;
	__u8 big[sizeof(d[0]) + 8];
	int live, free_fd = lowest_free_fd();

	NEED_FENCES(self->fd);

	live = vgpu_test_info(self->fd).live_kernels;

	/* an unknown kernel flag */
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	d[0].flags = VGPU_KERNEL_FENCE_OUT << 1;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	/* non-zero pad4; fence_fd set on input */
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	d[0].flags = VGPU_KERNEL_FENCE_OUT;
	d[0].pad4 = 1;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	d[0].pad4 = 0;
	d[0].fence_fd = 5;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 1));
	/* the flag in a descriptor too short to carry the fd */
	d[0].fence_fd = 0;
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = VGPU_SUBMIT_DESC_SIZE_VER4;
	sub.descs = (uintptr_t)d;
	EXPECT_EQ(EINVAL, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub) ? errno : 0);
	/* a longer descriptor with bytes this module does not know */
	memset(big, 0, sizeof(big));
	memcpy(big, &d[0], sizeof(d[0]));
	big[sizeof(d[0])] = 1;
	sub.desc_size = sizeof(big);
	sub.descs = (uintptr_t)big;
	EXPECT_EQ(E2BIG, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub) ? errno : 0);
	/* all or nothing: the second kernel's error leaves no first fence */
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	VGPU_DESC(&d[1], self->ch, vgpu_prog_alu);
	d[0].flags = VGPU_KERNEL_FENCE_OUT;
	d[1].flags = VGPU_KERNEL_FENCE_OUT;
	d[1].pad4 = 1;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, d, 2));
	EXPECT_EQ(0, d[0].fence_fd);
	EXPECT_EQ(0, d[0].handle);

	EXPECT_EQ(live, vgpu_test_info(self->fd).live_kernels);
	EXPECT_EQ(free_fd, lowest_free_fd());
}

/* No file descriptor left: -EMFILE, nothing queued, no handle written. */
TEST_F(f, fence_out_of_fds)
{
	struct vgpu_submit_desc d[2];
	struct rlimit old, lim;
	int live = vgpu_test_info(self->fd).live_kernels;
	int free_fd = lowest_free_fd();

	NEED_FENCES(self->fd);

	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	lim = old;
	/* room for one more descriptor: the first fence gets it */
	lim.rlim_cur = free_fd + 1;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &lim));
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	VGPU_DESC(&d[1], self->ch, vgpu_prog_alu);
	d[0].flags = VGPU_KERNEL_FENCE_OUT;
	d[1].flags = VGPU_KERNEL_FENCE_OUT;
	EXPECT_EQ(EMFILE, vgpu_test_submit(self->fd, d, 2));
	EXPECT_EQ(0, d[0].handle);
	EXPECT_EQ(0, d[1].handle);
	EXPECT_EQ(0, d[0].fence_fd);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &old));
	EXPECT_EQ(live, vgpu_test_info(self->fd).live_kernels);
	EXPECT_EQ(free_fd, lowest_free_fd());
}

/*
 * fence_fd cannot be written (the descriptor's tail on a read-only page,
 * its handle still writable): -EFAULT, nothing queued, no fd left.
 */
TEST_F(f, fence_efault)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;
	int live = vgpu_test_info(self->fd).live_kernels;
	int free_fd = lowest_free_fd();
	size_t off = offsetof(struct vgpu_submit_desc, fence_fd);
	__u8 *pages, *ud;

	NEED_FENCES(self->fd);

	pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pages);
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	d.flags = VGPU_KERNEL_FENCE_OUT;
	ud = pages + 4096 - off;
	memcpy(ud, &d, sizeof(d));
	ASSERT_EQ(0, mprotect(pages + 4096, 4096, PROT_READ));
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)ud;
	EXPECT_EQ(EFAULT, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub) ? errno : 0);
	memcpy(&d, ud, sizeof(d));
	EXPECT_EQ(0, d.handle);
	EXPECT_EQ(live, vgpu_test_info(self->fd).live_kernels);
	EXPECT_EQ(free_fd, lowest_free_fd());
	munmap(pages, 8192);
}

/* A template may not ask for a fence (VGPU_TEMPLATE_FLAGS_ALL). */
TEST_F(f, fence_not_in_a_template)
{
	struct vgpu_submit_desc d;
	struct vgpu_template t;

	memset(&t, 0, sizeof(t));
	t.grid = 1;
	t.threads = 32;
	t.regs = 32;
	t.program = (uintptr_t)vgpu_prog_alu;
	t.num_insns = 4;
	t.flags = VGPU_KERNEL_FENCE_OUT;
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	d.templates = (uintptr_t)&t;
	d.num_templates = 1;
	d.template_size = sizeof(t);
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1));
}

FIXTURE(dev15) {
};

FIXTURE_SETUP(dev15)
{
}

/* Device 15 is gone after the device test, whatever happened. */
FIXTURE_TEARDOWN(dev15)
{
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "15");
}

TEST_F(dev15, device_15_removed)
{
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "15");
	EXPECT_GT(0, vgpu_test_open(DEV));
}

TEST_HARNESS_MAIN
