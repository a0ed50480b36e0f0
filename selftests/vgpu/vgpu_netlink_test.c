// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_netlink_test.c - the generic netlink family "vgpu" through libnl
 * (F63): DEV_GET and STATS_GET against a scenario's counts,
 * CONFIG_SET as root and as nobody, malformed attributes with their extack
 * messages, and the "events" group.  Runs on a private instance, vgpu6
 * (preset "small": 4 SMs, 4 priorities).  64-bit only (static libnl).
 */
#include <sched.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <linux/netlink.h>
#include <linux/vgpu_netlink.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	6
#define NS	VGPU_A_STATS_MAX

/* What the replies to one request carried. */
struct reply {
	int done, err, nmsg;
	char ext[256];
	__u32 idx[32];
	char name[32], preset[32], policy[32];
	__u64 a[VGPU_A_MAX + 1];
	__u32 win[16];
	int nwin;
	__u64 st[NS + 1];
	__u64 prio[4][NS + 1];
	__u64 ch[NS + 1];
	int nch, nsm;
	__u64 sm_blocks_done, sm_syncs, sm_blocks[8];
	/* events */
	int nev;
	__u32 ev_type[256], ev_kernel[256], ev_warp[256], ev_mutex[256];
	__u32 ev_cmd[256];
	__u64 ev_seq[256];
};

static void parse_nest(struct nlattr *nest, __u64 *out)
{
	struct nlattr *a;
	int rem;

	memset(out, 0, sizeof(__u64) * (NS + 1));
	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) > NS || nla_type(a) == VGPU_A_STATS_PAD)
			continue;
		out[nla_type(a)] = nla_len(a) == 8 ? nla_get_u64(a) :
				   nla_get_u32(a);
	}
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct reply *r = arg;
	struct nlattr *a;
	__u64 tmp[NS + 1];
	int rem, t;

	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		t = nla_type(a);
		if (t > VGPU_A_MAX)
			continue;
		switch (t) {
		case VGPU_A_DEV_NAME:
			snprintf(r->name, sizeof(r->name), "%s", nla_get_string(a));
			break;
		case VGPU_A_PRESET:
			snprintf(r->preset, sizeof(r->preset), "%s", nla_get_string(a));
			break;
		case VGPU_A_POLICY:
			snprintf(r->policy, sizeof(r->policy), "%s", nla_get_string(a));
			break;
		case VGPU_A_WINDOWS:
			r->nwin = nla_len(a) / 4;
			memcpy(r->win, nla_data(a), nla_len(a));
			break;
		case VGPU_A_STATS:
			parse_nest(a, r->st);
			break;
		case VGPU_A_PRIO_STATS:
			parse_nest(a, tmp);
			if (tmp[VGPU_A_STATS_ID] < 4)
				memcpy(r->prio[tmp[VGPU_A_STATS_ID]], tmp, sizeof(tmp));
			break;
		case VGPU_A_SM_STATS:
			parse_nest(a, tmp);
			r->nsm++;
			r->sm_blocks_done += tmp[VGPU_A_STATS_BLOCKS_DONE];
			r->sm_syncs += tmp[VGPU_A_STATS_SYNCS];
			if (tmp[VGPU_A_STATS_ID] < 8)
				r->sm_blocks[tmp[VGPU_A_STATS_ID]] =
					tmp[VGPU_A_STATS_BLOCKS];
			break;
		case VGPU_A_CHANNEL_STATS:
			parse_nest(a, r->ch);
			r->nch++;
			break;
		default:
			r->a[t] = nla_len(a) == 8 ? nla_get_u64(a) :
				  nla_len(a) == 4 ? nla_get_u32(a) : 0;
		}
	}
	if ((gh->cmd == VGPU_CMD_EVENT || gh->cmd == VGPU_CMD_LOCK_EVENT) &&
	    r->nev < 256) {
		r->ev_cmd[r->nev] = gh->cmd;
		r->ev_warp[r->nev] = r->a[VGPU_A_EV_WARP];
		r->ev_mutex[r->nev] = r->a[VGPU_A_EV_MUTEX];
		r->ev_type[r->nev] = r->a[VGPU_A_EV_TYPE];
		r->ev_kernel[r->nev] = r->a[VGPU_A_EV_KERNEL];
		r->ev_seq[r->nev] = r->a[VGPU_A_EV_SEQ];
		if (r->a[VGPU_A_DEV_INDEX] == DEV)
			r->nev++;
	}
	if (r->nmsg < 32)
		r->idx[r->nmsg] = r->a[VGPU_A_DEV_INDEX];
	r->nmsg++;
	return NL_OK;
}

static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct reply *r = arg;
	struct nlattr *a;
	int off, rem;

	r->err = -e->error;
	r->done = 1;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	a = (struct nlattr *)((char *)e + off);
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - off;
	for (; nla_ok(a, rem); a = nla_next(a, &rem))
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(r->ext, sizeof(r->ext), "%s",
				 (char *)nla_data(a));
	return NL_STOP;
}

static int stop_cb(struct nl_msg *msg, void *arg)
{
	((struct reply *)arg)->done = 1;
	return NL_STOP;
}

static struct nl_sock *nl_open(int *fam)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk || genl_connect(sk))
		return NULL;
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	*fam = genl_ctrl_resolve(sk, VGPU_FAMILY_NAME);
	return *fam < 0 ? NULL : sk;
}

/* Send @msg (consumed) and collect the answer; 0 or the errno. */
static int transact(struct nl_sock *sk, struct nl_msg *msg, struct reply *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	memset(r, 0, sizeof(*r));
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, stop_cb, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, stop_cb, r);
	nl_cb_err(cb, NL_CB_CUSTOM, err_cb, r);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (ret >= 0 && !r->done)
		ret = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (r->err)
		return r->err;
	return ret < 0 ? EIO : 0;
}

static struct nl_msg *req(int fam, __u8 cmd, int flags, int dev)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, fam, 0, flags, cmd,
		    VGPU_FAMILY_VERSION);
	if (dev >= 0)
		nla_put_u32(msg, VGPU_A_DEV_INDEX, dev);
	return msg;
}

static __u32 submit(int fd, __u32 ch, __u32 grid)
{
	struct vgpu_submit_desc d;

	VGPU_DESC(&d, ch, vgpu_prog_alu);
	d.grid = grid;
	return vgpu_test_submit(fd, &d, 1) ? ~0U : d.handle;
}

FIXTURE(nl) {
	struct nl_sock *sk;
	int fam, fd;
	__u32 ch;
	struct reply r;
};

FIXTURE_SETUP(nl)
{
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "6");
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device", "6 small"));
	self->sk = nl_open(&self->fam);
	ASSERT_NE(NULL, self->sk);
	self->fd = vgpu_test_open(DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(nl)
{
	close(self->fd);
	nl_socket_free(self->sk);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "6");
}

TEST_F(nl, dev_get)
{
	struct reply *r = &self->r;

	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(1, r->nmsg);
	EXPECT_STREQ("vgpu6", r->name);
	EXPECT_STREQ("small", r->preset);
	EXPECT_STREQ("rr", r->policy);
	EXPECT_EQ(DEV, r->a[VGPU_A_DEV_INDEX]);
	EXPECT_EQ(4, r->a[VGPU_A_NUM_SMS]);
	EXPECT_EQ(4, r->a[VGPU_A_NUM_PRIOS]);
	EXPECT_EQ(VGPU_PREEMPT_MODE_WARP, r->a[VGPU_A_PREEMPT]);
	EXPECT_EQ(1ULL << 32, r->a[VGPU_A_TIMEOUT]);
	EXPECT_EQ(1024, r->a[VGPU_A_EVENT_BUDGET]);
	EXPECT_EQ(1000000, r->a[VGPU_A_FREQ_KHZ]);
	EXPECT_EQ(32, r->a[VGPU_A_TASK_SLOTS]);
	EXPECT_EQ(64, r->a[VGPU_A_EPOCH]);
	ASSERT_EQ(4, r->nwin);
	EXPECT_EQ(4096, r->win[0]);
	EXPECT_EQ(512, r->win[3]);
}

TEST_F(nl, dev_get_dump)
{
	struct reply *r = &self->r;
	int i, seen0 = 0, seen6 = 0;

	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET,
					    NLM_F_DUMP, -1), r));
	ASSERT_LE(2, r->nmsg);
	for (i = 0; i < r->nmsg && i < 32; i++) {
		seen0 |= r->idx[i] == 0;
		seen6 |= r->idx[i] == DEV;
		if (i)
			EXPECT_LT(r->idx[i - 1], r->idx[i]);
	}
	EXPECT_TRUE(seen0 && seen6);
}

TEST_F(nl, get_errors)
{
	struct reply *r = &self->r;
	struct nl_msg *m;

	/* no device index */
	EXPECT_EQ(EINVAL, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET,
						 0, -1), r));
	EXPECT_STREQ("dev-index is required", r->ext);
	/* no such device */
	EXPECT_EQ(ENODEV, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET,
						 0, 15), r));
	EXPECT_STREQ("no such device", r->ext);
	/* index out of the policy's range: the kernel's ERANGE */
	EXPECT_EQ(ERANGE, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET,
						 0, 99), r));
	EXPECT_NE(0, r->ext[0]);
	/* a reply-only attribute in a request */
	m = req(self->fam, VGPU_CMD_DEV_GET, 0, DEV);
	nla_put_u32(m, VGPU_A_NUM_SMS, 4);
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	EXPECT_NE(0, r->ext[0]);
	/* an unknown command */
	EXPECT_EQ(EOPNOTSUPP, transact(self->sk, req(self->fam, 42, 0, DEV), r));
}

/* 3 kernels of 2 blocks at priority 2: the counters say exactly that. */
TEST_F(nl, stats)
{
	struct reply *r = &self->r;
	__u64 before[NS + 1];
	__u32 h[3], i;

	for (i = 0; i < 3; i++)
		ASSERT_NE(~0U, h[i] = submit(self->fd, self->ch, 2));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 3, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(3, r->st[VGPU_A_STATS_SUBMITTED]);
	EXPECT_EQ(3, r->st[VGPU_A_STATS_COMPLETED]);
	EXPECT_EQ(0, r->st[VGPU_A_STATS_CANCELLED]);
	EXPECT_EQ(6, r->st[VGPU_A_STATS_BLOCKS]);
	EXPECT_LT(0, r->st[VGPU_A_STATS_EPOCHS]);
	EXPECT_LT(0, r->st[VGPU_A_STATS_NOW]);
	EXPECT_EQ(3, r->prio[2][VGPU_A_STATS_SUBMITTED]);
	EXPECT_EQ(3, r->prio[2][VGPU_A_STATS_COMPLETED]);
	EXPECT_EQ(6, r->prio[2][VGPU_A_STATS_BLOCKS_DONE]);
	EXPECT_EQ(0, r->prio[0][VGPU_A_STATS_SUBMITTED]);
	EXPECT_EQ(4, r->nsm);
	EXPECT_EQ(6, r->sm_blocks_done);
	EXPECT_EQ(1, r->nch);
	EXPECT_EQ(2, r->ch[VGPU_A_STATS_PRIO]);
	EXPECT_EQ(3, r->ch[VGPU_A_STATS_SUBMITTED]);
	EXPECT_EQ(3, r->ch[VGPU_A_STATS_COMPLETED]);
	memcpy(before, r->st, sizeof(before));

	/* the dump reports the same device counters; none goes backwards */
	ASSERT_NE(~0U, h[0] = submit(self->fd, self->ch, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET,
					    NLM_F_DUMP, -1), r));
	ASSERT_LE(2, r->nmsg);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	for (i = 1; i <= NS; i++) {
		EXPECT_LE(before[i], r->st[i]);
	}
	EXPECT_EQ(4, r->st[VGPU_A_STATS_COMPLETED]);
}

static struct nl_msg *config(int fam, int dev)
{
	return req(fam, VGPU_CMD_CONFIG_SET, 0, dev);
}

TEST_F(nl, config_set)
{
	__u32 win[2] = { 100, 50 }, bad[2] = { 50, 100 };
	struct reply *r = &self->r;
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	__u32 ch = 0, h;
	struct nl_msg *m;

	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PREEMPT, VGPU_PREEMPT_MODE_SWITCH);
	nla_put(m, VGPU_A_WINDOWS, sizeof(win), win);
	nla_put_u64(m, VGPU_A_TIMEOUT, 12345);
	nla_put_u32(m, VGPU_A_EVENT_BUDGET, 7);
	nla_put_string(m, VGPU_A_POLICY, "rr");
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(VGPU_PREEMPT_MODE_SWITCH, r->a[VGPU_A_PREEMPT]);
	ASSERT_EQ(2, r->nwin);
	EXPECT_EQ(100, r->win[0]);
	EXPECT_EQ(50, r->win[1]);
	EXPECT_EQ(12345, r->a[VGPU_A_TIMEOUT]);
	EXPECT_EQ(7, r->a[VGPU_A_EVENT_BUDGET]);

	/* windows off */
	m = config(self->fam, DEV);
	nla_put(m, VGPU_A_WINDOWS, 0, NULL);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(0, r->nwin);

	/* malformed or invalid: an errno and a message, nothing changes */
	m = config(self->fam, DEV);
	nla_put(m, VGPU_A_WINDOWS, 3, win);
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	EXPECT_STREQ("windows: an array of u32 lengths", r->ext);
	m = config(self->fam, DEV);
	nla_put(m, VGPU_A_WINDOWS, sizeof(bad), bad);
	nla_put_u32(m, VGPU_A_PREEMPT, VGPU_PREEMPT_MODE_DRAIN);
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	EXPECT_EQ(0, strncmp(r->ext, "windows:", 8));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PREEMPT, 7);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	EXPECT_NE(0, r->ext[0]);
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "nope");
	nla_put_u32(m, VGPU_A_PREEMPT, VGPU_PREEMPT_MODE_DRAIN);
	EXPECT_EQ(ENOENT, transact(self->sk, m, r));
	EXPECT_STREQ("unknown policy", r->ext);
	m = config(self->fam, DEV);
	nla_put_u64(m, VGPU_A_TIMEOUT, 0);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_EVENT_BUDGET, 0);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	EXPECT_EQ(ENODEV, transact(self->sk, config(self->fam, 15), r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(VGPU_PREEMPT_MODE_SWITCH, r->a[VGPU_A_PREEMPT]);
	EXPECT_EQ(0, r->nwin);
	EXPECT_EQ(12345, r->a[VGPU_A_TIMEOUT]);

	/* the new default timeout applies to new channels: a hang */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 0, &ch));
	VGPU_DESC(&d, ch, vgpu_prog_spin);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	h = d.handle;
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(ETIMEDOUT, -q.error);
}

/*
 * F17 through netlink: CONFIG_SET's state-sync cost shows in DEV_GET; a
 * kernel on the fresh device syncs every SM its blocks land on (none held
 * a kernel's state), counted by STATS_GET per device and per SM alike;
 * with the cost back at 0 nothing more is counted; a cost above
 * VGPU_MAX_LATENCY (255) is -ERANGE and changes nothing.
 */
/*
 * The policy switches at run time, between two epochs, with
 * kernels queued and running: every built-in in turn while 8 kernels of
 * 16 blocks run; nothing is lost (all 128 blocks done, no cancel, no
 * refused answer) and the device reports the last one.
 */
TEST_F(nl, policy_switch_running)
{
	static const char *const pol[] = { "avail", "resource", "power", "rr",
					   "avail" };
	struct reply *r = &self->r;
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct nl_msg *m;
	__u32 h[8], i;

	for (i = 0; i < 8; i++) {
		VGPU_DESC(&d, self->ch, vgpu_prog_long);
		d.grid = 16;
		ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
		h[i] = d.handle;
	}
	/* the first kernel is on the SMs */
	for (i = 0; i < 1000000; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, h[0], 0, &q));
		if (q.t_dispatch != VGPU_NO_CYCLE)
			break;
		sched_yield();
	}
	ASSERT_NE(VGPU_NO_CYCLE, q.t_dispatch);
	for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		m = config(self->fam, DEV);
		nla_put_string(m, VGPU_A_POLICY, pol[i]);
		ASSERT_EQ(0, transact(self->sk, m, r));
	}
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 8, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, h[i], 0, &q));
		EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
		EXPECT_EQ(16, q.blocks_done);
	}
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(8, r->st[VGPU_A_STATS_COMPLETED]);
	EXPECT_EQ(0, r->st[VGPU_A_STATS_CANCELLED]);
	EXPECT_EQ(128, r->st[VGPU_A_STATS_BLOCKS]);
	EXPECT_EQ(0, r->st[VGPU_A_STATS_POLICY_ERRORS]);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0,
					    DEV), r));
	EXPECT_STREQ("avail", r->policy);
}

TEST_F(nl, config_set_sync_cost)
{
	struct reply *r = &self->r;
	struct nl_msg *m;
	__u64 syncs;
	__u32 h;

	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(0, r->a[VGPU_A_SYNC_COST]);
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SYNC_COST, 100);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(100, r->a[VGPU_A_SYNC_COST]);
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SYNC_COST, 256);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0, DEV), r));
	EXPECT_EQ(100, r->a[VGPU_A_SYNC_COST]);

	ASSERT_NE(~0U, h = submit(self->fd, self->ch, 2));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	syncs = r->st[VGPU_A_STATS_SYNCS];
	EXPECT_LE(1, syncs);
	EXPECT_GE(2, syncs);
	EXPECT_EQ(syncs, r->sm_syncs);

	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SYNC_COST, 0);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_NE(~0U, h = submit(self->fd, self->ch, 2));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(syncs, r->st[VGPU_A_STATS_SYNCS]);
}

/* DEV_GET's dispatch options of device DEV into @o, in attribute order. */
static int dispatch_opts(struct nl_sock *sk, int fam, struct reply *r,
			 __u64 *o)
{
	static const int attr[] = { VGPU_A_PACK, VGPU_A_SEARCH,
				    VGPU_A_SEARCH_GROUP, VGPU_A_SEARCH_LATENCY,
				    VGPU_A_THROTTLE_SMS, VGPU_A_COMBO };
	int ret, i;

	ret = transact(sk, req(fam, VGPU_CMD_DEV_GET, 0, DEV), r);
	for (i = 0; i < 6; i++)
		o[i] = r->a[attr[i]];
	return ret;
}

/*
 * The seeds' dispatch options through netlink: DEV_GET reports the dispatch
 * options with new_device's defaults ("small": 4 SMs, so throttle_sms 1 =
 * 4 / 4; combo 50; no scalar file), CONFIG_SET changes them together, and
 * a refused set changes nothing: grouped search without a group size
 * (-EINVAL), a group of 2^17 units, wider than any map (-EINVAL), exact
 * search with a group size (-EINVAL), latency 4, combo 101 and search
 * mode 3 (-ERANGE, the attribute policy's maxima), throttle_sms 5 on 4
 * SMs (-EINVAL), a bad window given with good options (-EINVAL: the
 * options are taken back).
 */
TEST_F(nl, config_set_dispatch_options)
{
	const __u64 dflt[6] = { VGPU_PACK_MODE_AUTO, VGPU_SEARCH_MODE_EXACT,
				0, 0, 1, 50 };
	const __u64 want[6] = { VGPU_PACK_MODE_SM, VGPU_SEARCH_MODE_GROUPED,
				4, 3, 2, 80 };
	struct reply *r = &self->r;
	struct nl_msg *m;
	__u64 o[6];
	int i;

	ASSERT_EQ(0, dispatch_opts(self->sk, self->fam, r, o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(dflt[i], o[i]);
	EXPECT_EQ(0, r->a[VGPU_A_THROTTLE]);
	EXPECT_EQ(0, r->a[VGPU_A_SREGS_PER_SUBPART]);
	EXPECT_EQ(0, r->a[VGPU_A_SREG_UNIT]);

	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PACK, want[0]);
	nla_put_u32(m, VGPU_A_SEARCH, want[1]);
	nla_put_u32(m, VGPU_A_SEARCH_GROUP, want[2]);
	nla_put_u32(m, VGPU_A_SEARCH_LATENCY, want[3]);
	nla_put_u32(m, VGPU_A_THROTTLE_SMS, want[4]);
	nla_put_u32(m, VGPU_A_COMBO, want[5]);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, dispatch_opts(self->sk, self->fam, r, o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], o[i]);

	/* each refused set leaves everything as it was */
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PACK, VGPU_PACK_MODE_BLOCK);
	nla_put_u32(m, VGPU_A_SEARCH_GROUP, 0);	/* grouped needs one */
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SEARCH_GROUP, 1 << 17);
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SEARCH, VGPU_SEARCH_MODE_EXACT);	/* group kept */
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SEARCH_LATENCY, 4);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_COMBO, 101);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SEARCH, VGPU_SEARCH_MODE_MUX + 1);
	EXPECT_EQ(ERANGE, transact(self->sk, m, r));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PACK, VGPU_PACK_MODE_BLOCK);
	nla_put_u32(m, VGPU_A_THROTTLE_SMS, 5);
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	/* a bad window after good options: the options are taken back */
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PACK, VGPU_PACK_MODE_BLOCK);
	nla_put(m, VGPU_A_WINDOWS, 4, &(__u32){ 0 });
	EXPECT_EQ(EINVAL, transact(self->sk, m, r));
	ASSERT_EQ(0, dispatch_opts(self->sk, self->fam, r, o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], o[i]);

	/* back to exact: the group size goes with it */
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_SEARCH, VGPU_SEARCH_MODE_EXACT);
	nla_put_u32(m, VGPU_A_SEARCH_GROUP, 0);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, dispatch_opts(self->sk, self->fam, r, o));
	EXPECT_EQ(VGPU_SEARCH_MODE_EXACT, o[1]);
	EXPECT_EQ(0, o[2]);
}

/*
 * Block packing through netlink: under rr, eight one-warp blocks of one
 * kernel on the 4-SM device.  pack=block (seed 002: an SM chosen per
 * block) spreads them two per SM; pack=sm (seed 000, F23 (a): min(
 * undispatched, fit) blocks to the chosen SM) puts all eight on one.
 */
TEST_F(nl, config_set_pack_spreads_or_packs)
{
	const __u32 mode[2] = { VGPU_PACK_MODE_BLOCK, VGPU_PACK_MODE_SM };
	struct reply *r = &self->r;
	struct vgpu_submit_desc d;
	__u64 before[4], most;
	struct nl_msg *m;
	int i, j;

	for (j = 0; j < 2; j++) {
		m = config(self->fam, DEV);
		nla_put_u32(m, VGPU_A_PACK, mode[j]);
		ASSERT_EQ(0, transact(self->sk, m, r));
		ASSERT_EQ(0, transact(self->sk, req(self->fam,
						     VGPU_CMD_STATS_GET, 0,
						     DEV), r));
		ASSERT_EQ(4, r->nsm);
		memcpy(before, r->sm_blocks, sizeof(before));
		VGPU_DESC(&d, self->ch, vgpu_prog_alu);
		d.grid = 8;
		d.threads = 32;
		ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
		ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
					    VGPU_WAIT_FOREVER, NULL));
		memset(r, 0, sizeof(*r));
		ASSERT_EQ(0, transact(self->sk, req(self->fam,
						     VGPU_CMD_STATS_GET, 0,
						     DEV), r));
		most = 0;
		for (i = 0; i < 4; i++) {
			__u64 n = r->sm_blocks[i] - before[i];

			if (mode[j] == VGPU_PACK_MODE_BLOCK)
				EXPECT_EQ(2, n);
			most = n > most ? n : most;
		}
		EXPECT_EQ(mode[j] == VGPU_PACK_MODE_SM ? 8 : 2, most);
	}
}

/*
 * F26 through netlink: while a THROTTLE kernel holds the device in
 * throttle mode (it spins until cancelled), DEV_GET says so and the SMs of
 * the mode cannot change (-EBUSY; the pack given with them is not taken
 * either); once it is cancelled and an ordinary kernel ran (which needs
 * the mode off), they can.
 */
TEST_F(nl, config_set_throttle_sms_busy)
{
	struct reply *r = &self->r;
	struct vgpu_submit_desc d;
	struct nl_msg *m;
	__u32 h, i;

	VGPU_DESC(&d, self->ch, vgpu_prog_spin);
	d.flags |= VGPU_KERNEL_THROTTLE;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	h = d.handle;
	for (i = 0; i < 1000000; i++) {
		ASSERT_EQ(0, transact(self->sk, req(self->fam,
						     VGPU_CMD_DEV_GET, 0,
						     DEV), r));
		if (r->a[VGPU_A_THROTTLE])
			break;
		sched_yield();
	}
	ASSERT_EQ(1, r->a[VGPU_A_THROTTLE]);
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PACK, VGPU_PACK_MODE_SM);
	nla_put_u32(m, VGPU_A_THROTTLE_SMS, 2);
	EXPECT_EQ(EBUSY, transact(self->sk, m, r));
	EXPECT_NE(NULL, strstr(r->ext, "throttle"));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0,
					    DEV), r));
	EXPECT_EQ(1, r->a[VGPU_A_THROTTLE_SMS]);
	EXPECT_EQ(VGPU_PACK_MODE_AUTO, r->a[VGPU_A_PACK]);

	ASSERT_EQ(0, vgpu_test_cancel(self->fd, h));
	ASSERT_NE(~0U, h = submit(self->fd, self->ch, 2));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_THROTTLE_SMS, 2);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_DEV_GET, 0,
					    DEV), r));
	EXPECT_EQ(2, r->a[VGPU_A_THROTTLE_SMS]);
	EXPECT_EQ(0, r->a[VGPU_A_THROTTLE]);
}

/*
 * Run @fn as nobody in a child with a fresh netlink socket: its exit status
 * (0: as expected; 10, 11: could not drop privileges or open the socket).
 */
static int as_nobody(int (*fn)(struct nl_sock *sk, int fam))
{
	pid_t pid = fork();
	struct nl_sock *sk;
	int fam, status;

	if (pid < 0)
		return -1;
	if (!pid) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		sk = nl_open(&fam);
		if (!sk)
			_exit(11);
		_exit(fn(sk, fam));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* CONFIG_SET needs CAP_NET_ADMIN; DEV_GET does not. */
static int config_set_nobody(struct nl_sock *sk, int fam)
{
	struct reply r;
	int e1, e2;

	e1 = transact(sk, config(fam, DEV), &r);
	e2 = transact(sk, req(fam, VGPU_CMD_DEV_GET, 0, DEV), &r);
	return e1 == EPERM && e2 == 0 ? 0 : 12;
}

TEST_F(nl, config_set_unprivileged)
{
	EXPECT_EQ(0, as_nobody(config_set_nobody));
}

static struct nl_sock *ev_open(void);

/* Joining the events group, or the locks group, needs CAP_NET_ADMIN. */
static int events_nobody(struct nl_sock *sk, int fam)
{
	int grp = genl_ctrl_resolve_grp(sk, VGPU_FAMILY_NAME,
					VGPU_MCGRP_EVENTS);
	int lgrp = genl_ctrl_resolve_grp(sk, VGPU_FAMILY_NAME,
					 VGPU_MCGRP_LOCKS);

	if (grp < 0 || lgrp < 0)
		return 12;
	if (nl_socket_add_membership(sk, lgrp) != -NLE_PERM)
		return 14;
	return nl_socket_add_membership(sk, grp) == -NLE_PERM ? 0 : 13;
}

/*
 * Events show every user's kernels, so an unprivileged process
 * may not join the group (EPERM); it still reads DEV_GET and STATS_GET.
 */
TEST_F(nl, events_unprivileged)
{
	struct nl_sock *ev;

	EXPECT_EQ(0, as_nobody(events_nobody));
	/* root may */
	ev = ev_open();
	ASSERT_NE(NULL, ev);
	nl_socket_free(ev);
}

static int seq_ok(struct nl_msg *msg, void *arg)
{
	return NL_OK;
}

/* Drain the group socket without blocking. */
static void drain(struct nl_sock *ev, struct reply *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	/* notifications carry sequence number 0 */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_ok, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, r);
	while (nl_recvmsgs(ev, cb) >= 0)
		;
	nl_cb_put(cb);
}

static struct nl_sock *grp_open(const char *name)
{
	struct nl_sock *ev;
	int fam, grp;

	ev = nl_open(&fam);
	if (!ev)
		return NULL;
	grp = genl_ctrl_resolve_grp(ev, VGPU_FAMILY_NAME, name);
	if (grp < 0 || nl_socket_add_membership(ev, grp))
		return NULL;
	nl_socket_disable_seq_check(ev);
	nl_socket_set_nonblocking(ev);
	return ev;
}

static struct nl_sock *ev_open(void)
{
	return grp_open(VGPU_MCGRP_EVENTS);
}

/* Four warps taking turns on mutex 1: the arbiter grants it (F35). */
static const struct vgpu_insn vgpu_prog_lock[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(8, 0) },
	{ .op = VGPU_OP_LOCK, .a = 1 },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_UNLOCK, .a = 1 },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

/*
 * Lock grants of the arbiter (F35, seed 003) on the group "locks", a
 * notification of their own (LOCK_EVENT): four warps of one block take
 * turns on mutex 1, so the lock goes at least once to a warp that waited
 * for it, never first to warp 0, which asked first and found it free (a
 * free lock is no grant).  They number on their own, without a gap, and
 * never reach the "events" group.
 */
TEST_F(nl, lock_events)
{
	struct reply lk_r, ev_r;
	struct nl_sock *lk, *ev;
	struct vgpu_submit_desc d;
	int i;
	__u32 h;

	lk = grp_open(VGPU_MCGRP_LOCKS);
	ASSERT_NE(NULL, lk);
	ev = ev_open();
	ASSERT_NE(NULL, ev);
	VGPU_DESC(&d, self->ch, vgpu_prog_lock);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	h = d.handle;
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	memset(&lk_r, 0, sizeof(lk_r));
	drain(lk, &lk_r);
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	ASSERT_LT(0, lk_r.nev);
	EXPECT_NE(0, lk_r.ev_warp[0]);
	for (i = 0; i < lk_r.nev; i++) {
		EXPECT_EQ(VGPU_CMD_LOCK_EVENT, lk_r.ev_cmd[i]);
		EXPECT_EQ(VGPU_EVENT_MUTEX, lk_r.ev_type[i]);
		EXPECT_EQ(1, lk_r.ev_mutex[i]);
		EXPECT_GT(4, lk_r.ev_warp[i]);
		if (i)
			EXPECT_EQ(lk_r.ev_seq[i - 1] + 1, lk_r.ev_seq[i]);
	}
	/* submit, dispatch, complete; no grant */
	EXPECT_EQ(3, ev_r.nev);
	for (i = 0; i < ev_r.nev; i++)
		EXPECT_NE(VGPU_EVENT_MUTEX, ev_r.ev_type[i]);
	nl_socket_free(ev);
	nl_socket_free(lk);
}

TEST_F(nl, events)
{
	struct reply *r = &self->r, ev_r;
	__u64 sent0;
	struct nl_sock *ev;
	__u32 h[2];
	int i, k, sub, disp, comp;

	ev = ev_open();
	ASSERT_NE(NULL, ev);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	sent0 = r->st[VGPU_A_STATS_EVENTS_SENT];
	h[0] = submit(self->fd, self->ch, 2);
	h[1] = submit(self->fd, self->ch, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	/* 2 submit + 4 dispatch + 2 complete, numbered without a gap */
	ASSERT_EQ(8, ev_r.nev);
	for (i = 1; i < ev_r.nev; i++) {
		EXPECT_EQ(ev_r.ev_seq[i - 1] + 1, ev_r.ev_seq[i]);
	}
	for (k = 0; k < 2; k++) {
		sub = disp = comp = -1;
		for (i = 0; i < ev_r.nev; i++) {
			if (ev_r.ev_kernel[i] != (__u32)k)
				continue;
			if (ev_r.ev_type[i] == VGPU_EVENT_SUBMIT)
				sub = i;
			if (ev_r.ev_type[i] == VGPU_EVENT_DISPATCH && disp < 0)
				disp = i;
			if (ev_r.ev_type[i] == VGPU_EVENT_COMPLETE)
				comp = i;
		}
		EXPECT_LE(0, sub);
		EXPECT_LT(sub, disp);
		EXPECT_LT(disp, comp);
	}
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(sent0 + 8, r->st[VGPU_A_STATS_EVENTS_SENT]);
	EXPECT_EQ(0, r->st[VGPU_A_STATS_EVENTS_DROPPED]);
	nl_socket_free(ev);
}

/*
 * A policy whose answers the core refuses (the test module
 * vgpu_policy_liar.ko: every SM choice out of range).  Its kernels still
 * complete, placed where the default places them; the refusals are
 * counted in POLICY_ERRORS and announced by POLICY_ERROR events.
 */
TEST_F(nl, policy_error_event)
{
	struct reply *r = &self->r, ev_r;
	struct nl_sock *ev;
	struct nl_msg *m;
	int fd, i, nerr = 0;
	__u32 h[2];

	fd = open("/vgpu/test-policies/vgpu_policy_liar.ko", O_RDONLY);
	if (fd < 0)
		SKIP(return, "no test policy module");
	ASSERT_EQ(0, syscall(SYS_finit_module, fd, "", 0));
	close(fd);
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "liar");
	ASSERT_EQ(0, transact(self->sk, m, r));
	ev = ev_open();
	ASSERT_NE(NULL, ev);
	h[0] = submit(self->fd, self->ch, 2);
	h[1] = submit(self->fd, self->ch, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	for (i = 0; i < ev_r.nev; i++)
		if (ev_r.ev_type[i] == VGPU_EVENT_POLICY_ERROR)
			nerr++;
	EXPECT_LT(0, nerr);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(2, r->st[VGPU_A_STATS_COMPLETED]);
	EXPECT_LE(nerr, r->st[VGPU_A_STATS_POLICY_ERRORS]);
	EXPECT_LT(0, r->st[VGPU_A_STATS_POLICY_ERRORS]);
	nl_socket_free(ev);
	/* back to the default: the device lets go of the module */
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "rr");
	ASSERT_EQ(0, transact(self->sk, m, r));
	EXPECT_EQ(0, syscall(SYS_delete_module, "vgpu_policy_liar", O_NONBLOCK));
}

/* The debugfs file @name of the test device, up to @len - 1 bytes. */
static int read_debugfs(const char *name, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgpu/vgpu%d/%s", DEV,
		 name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/*
 * A policy that stalls the device (the test module
 * vgpu_policy_staller.ko: every SM choice "wait") is ejected by the
 * core's watchdog (driver/core/policy_watch.c): one POLICY_EXIT event
 * naming it, reason stall; debugfs policy says so and names the
 * fallback; every kernel completes.  The ejection drops the device's pin
 * on the module: a child retrying rmmod from before the ejection unloads
 * it while the device lives on (no crash, no leak, the registry's count
 * right: unregistering WARNs on a user left).
 */
TEST_F(nl, policy_exit_event)
{
	struct reply *r = &self->r, ev_r;
	char buf[1024];
	struct nl_sock *ev;
	struct nl_msg *m;
	int fd, i, nexit = 0, status;
	long tries;
	__u32 h[2];
	pid_t pid;

	fd = open("/vgpu/test-policies/vgpu_policy_staller.ko", O_RDONLY);
	if (fd < 0)
		SKIP(return, "no test policy module");
	ASSERT_EQ(0, syscall(SYS_finit_module, fd, "", 0));
	close(fd);
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "staller");
	ASSERT_EQ(0, transact(self->sk, m, r));
	/* pinned while the device uses it */
	EXPECT_NE(0, syscall(SYS_delete_module, "vgpu_policy_staller",
			     O_NONBLOCK));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* rmmod racing the ejection: it succeeds once unpinned */
		for (tries = 0; tries < 100000000L; tries++)
			if (!syscall(SYS_delete_module, "vgpu_policy_staller",
				     O_NONBLOCK))
				_exit(0);
		_exit(1);
	}
	ev = ev_open();
	ASSERT_NE(NULL, ev);
	h[0] = submit(self->fd, self->ch, 2);
	h[1] = submit(self->fd, self->ch, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	for (i = 0; i < ev_r.nev; i++)
		if (ev_r.ev_type[i] == VGPU_EVENT_POLICY_EXIT)
			nexit++;
	EXPECT_EQ(1, nexit);
	EXPECT_STREQ("staller", ev_r.policy);
	EXPECT_EQ(VGPU_POLICY_EXIT_REASON_STALL, ev_r.a[VGPU_A_EV_REASON]);
	EXPECT_EQ(0xffffffffU, ev_r.a[VGPU_A_EV_OP]);
	nl_socket_free(ev);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(2, r->st[VGPU_A_STATS_COMPLETED]);
	ASSERT_EQ(0, read_debugfs("policy", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "name rr\nstate ejected\nejections 1\n"));
	EXPECT_NE(NULL, strstr(buf, "exit_policy staller\nexit_reason stall\n"));
	/* the name is gone with the module; the device runs on */
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "staller");
	EXPECT_NE(0, transact(self->sk, m, r));
	h[0] = submit(self->fd, self->ch, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 1, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	/* chosen again, the fallback is active */
	m = config(self->fam, DEV);
	nla_put_string(m, VGPU_A_POLICY, "rr");
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, read_debugfs("policy", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "name rr\nstate active\n"));
}

/*
 * PREEMPT events: with "switch" preemption set through CONFIG_SET, a
 * high-priority kernel arriving while long low-priority blocks fill every
 * SM switches some of them out; each switch is one PREEMPT event naming the
 * preempted kernel, between the high kernel's SUBMIT and COMPLETE, and
 * STATS_GET counts them.
 */
TEST_F(nl, events_preempt)
{
	struct reply *r = &self->r, ev_r;
	struct vgpu_submit_desc d;
	__u32 chh = 0, lo, hi;
	struct nl_sock *ev;
	struct nl_msg *m;
	int i, sub = -1, pre = -1, comp = -1, npre = 0;

	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_PREEMPT, VGPU_PREEMPT_MODE_SWITCH);
	ASSERT_EQ(0, transact(self->sk, m, r));
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 0, 0, &chh));
	ev = ev_open();
	ASSERT_NE(NULL, ev);

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	/* 1024-thread blocks: 2 per SM fill the warp slots of all 4 SMs */
	VGPU_DESC(&d, self->ch, vgpu_prog_long);
	d.grid = 8;
	d.threads = 1024;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	lo = d.handle;
	VGPU_DESC(&d, chh, vgpu_prog_alu);
	d.arrival = 1000;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	hi = d.handle;
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &hi, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &lo, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	/* kernel ids on the fresh device: 0 low, 1 high */
	for (i = 0; i < ev_r.nev; i++) {
		if (ev_r.ev_kernel[i] == 1 &&
		    ev_r.ev_type[i] == VGPU_EVENT_SUBMIT)
			sub = i;
		if (ev_r.ev_kernel[i] == 1 &&
		    ev_r.ev_type[i] == VGPU_EVENT_COMPLETE)
			comp = i;
		if (ev_r.ev_type[i] == VGPU_EVENT_PREEMPT) {
			EXPECT_EQ(0, ev_r.ev_kernel[i]);
			if (pre < 0)
				pre = i;
			npre++;
		}
	}
	ASSERT_LE(0, sub);
	ASSERT_LE(0, pre);
	EXPECT_LT(sub, pre);
	EXPECT_LT(pre, comp);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_EQ(npre, r->st[VGPU_A_STATS_PREEMPTIONS]);
	nl_socket_free(ev);
}

/* A budget of 1 event per epoch: the rest are counted as dropped. */
TEST_F(nl, events_budget)
{
	struct reply *r = &self->r, ev_r;
	struct nl_sock *ev;
	struct nl_msg *m;
	__u32 h;

	ev = ev_open();
	ASSERT_NE(NULL, ev);
	m = config(self->fam, DEV);
	nla_put_u32(m, VGPU_A_EVENT_BUDGET, 1);
	ASSERT_EQ(0, transact(self->sk, m, r));
	h = submit(self->fd, self->ch, 8);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	memset(&ev_r, 0, sizeof(ev_r));
	drain(ev, &ev_r);
	ASSERT_EQ(0, transact(self->sk, req(self->fam, VGPU_CMD_STATS_GET, 0,
					    DEV), r));
	EXPECT_LT(0, r->st[VGPU_A_STATS_EVENTS_DROPPED]);
	EXPECT_EQ(ev_r.nev, r->st[VGPU_A_STATS_EVENTS_SENT]);
	/* 1 submit + 8 dispatch + 1 complete in all */
	EXPECT_EQ(10, r->st[VGPU_A_STATS_EVENTS_SENT] +
		  r->st[VGPU_A_STATS_EVENTS_DROPPED]);
	EXPECT_LT(ev_r.nev, 10);
	nl_socket_free(ev);
}

TEST_HARNESS_MAIN
