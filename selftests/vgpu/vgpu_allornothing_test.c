// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_allornothing_test.c - every ioctl with a read-only argument: a
 * command that copies a result back fails with EFAULT and nothing
 * changed; a command without a result (_IOW) works from read-only memory.
 * Documentation/uapi.rst, "All or nothing".
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"
#include "vgpu_test_util.h"

/* The ioctl on this fixture's file with a read-only copy of @arg. */
#define RO(cmd, arg) vgpu_test_ro_ioctl(self->fd, cmd, &(arg), sizeof(arg))

FIXTURE(aon) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(aon)
{
	self->fd = vgpu_test_open(0);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(aon)
{
	close(self->fd);
}

TEST_F(aon, get_info)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_GET_INFO, info));
}

/* The handle never reached the caller: no channel may be left behind. */
TEST_F(aon, channel_create)
{
	struct vgpu_channel_create cc;
	__u32 before = vgpu_test_info(self->fd).live_channels, h = 0;
	int i;

	memset(&cc, 0, sizeof(cc));
	cc.priority = 2;
	for (i = 0; i < 10; i++)
		EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_CHANNEL_CREATE, cc));
	EXPECT_EQ(before, vgpu_test_info(self->fd).live_channels);
	/* and the file's channel count did not move either */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &h));
	EXPECT_EQ(before + 1, vgpu_test_info(self->fd).live_channels);
}

/* _IOW: nothing comes back, read-only memory is fine. */
TEST_F(aon, channel_destroy)
{
	struct vgpu_channel_destroy cd;
	__u32 h = 0;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &h));
	memset(&cd, 0, sizeof(cd));
	cd.handle = h;
	EXPECT_EQ(0, RO(VGPU_IOCTL_CHANNEL_DESTROY, cd));
	EXPECT_EQ(ENOENT, RO(VGPU_IOCTL_CHANNEL_DESTROY, cd));
}

/* A read-only struct vgpu_submit: EFAULT and nothing queued. */
TEST_F(aon, submit_struct)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;
	__u32 before = vgpu_test_info(self->fd).live_kernels;

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)&d;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_SUBMIT, sub));
	EXPECT_EQ(0, d.handle);
	EXPECT_EQ(before, vgpu_test_info(self->fd).live_kernels);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/* Read-only descriptors (the handle is written back): same. */
TEST_F(aon, submit_descs)
{
	struct vgpu_submit_desc d[2], *ro;
	__u32 before = vgpu_test_info(self->fd).live_kernels;
	struct vgpu_submit sub;

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	VGPU_DESC(&d[1], self->ch, vgpu_prog_alu);
	ro = vgpu_test_ro_copy(d, sizeof(d));
	ASSERT_NE(NULL, ro);
	memset(&sub, 0, sizeof(sub));
	sub.count = 2;
	sub.desc_size = sizeof(d[0]);
	sub.descs = (uintptr_t)ro;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(before, vgpu_test_info(self->fd).live_kernels);
	munmap(ro, 4096);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

TEST_F(aon, wait)
{
	struct vgpu_submit_desc d;
	struct vgpu_wait w;

	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	memset(&w, 0, sizeof(w));
	w.count = 1;
	w.handles = (uintptr_t)&d.handle;
	w.timeout_ns = VGPU_WAIT_FOREVER;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_WAIT, w));
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

/* QUERY | RELEASE whose result is lost keeps the handle. */
TEST_F(aon, query_release)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;

	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	memset(&q, 0, sizeof(q));
	q.handle = d.handle;
	q.flags = VGPU_QUERY_RELEASE;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_QUERY, q));
	/* still there, with its result */
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, VGPU_QUERY_RELEASE,
				     &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(ENOENT, vgpu_test_query(self->fd, d.handle, 0, &q));
}

/* _IOW: CANCEL works from read-only memory. */
TEST_F(aon, cancel)
{
	struct vgpu_kernel_cancel c;
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	memset(&c, 0, sizeof(c));
	c.handle = d.handle;
	EXPECT_EQ(0, RO(VGPU_IOCTL_CANCEL, c));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/* A GATE CLOSE whose result is lost has not taken the gate. */
TEST_F(aon, gate)
{
	struct vgpu_gate g;

	memset(&g, 0, sizeof(g));
	g.op = VGPU_GATE_CLOSE;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_GATE, g));
	/* not held: OPEN is refused, CLOSE works */
	EXPECT_EQ(EINVAL, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	EXPECT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	g.op = VGPU_GATE_OPEN;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_GATE, g));
	/* still held */
	EXPECT_EQ(EINVAL, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	EXPECT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/* A QUEUE_PUSH whose result is lost has pushed nothing. */
TEST_F(aon, queue_push)
{
	static const struct vgpu_insn p_item[] = {
		{ .op = VGPU_OP_ALU },
		{ .op = VGPU_OP_EXIT },
	};
	struct vgpu_submit_desc d;
	struct vgpu_queue_push p;

	VGPU_QDESC(&d, self->ch, p_item, 4, 8, 100000);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	memset(&p, 0, sizeof(p));
	p.handle = d.handle;
	p.items = 8;
	EXPECT_EQ(EFAULT, RO(VGPU_IOCTL_QUEUE_PUSH, p));
	/* all 8 items still fit: the lost push took none of queue_cap */
	EXPECT_EQ(0, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_QUEUE_PUSH,
					   &p)));
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

TEST_HARNESS_MAIN
