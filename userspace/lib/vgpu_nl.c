// SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0
/*
 * vgpu_nl.c - libvgpu: the generic netlink family "vgpu" through libnl-3 and
 * libnl-genl-3 (F63, F66; Documentation/netlink.rst).
 *
 * Requests go through one socket with a private callback set per request
 * that records the kernel's errno from the NLMSG_ERROR message, so callers
 * see -EPERM, -ENODEV, ... and not libnl's own codes.  Events arrive on a
 * second socket that joins the "events" multicast group.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <vgpu/vgpu.h>


/**
 * struct vgpu_nl - a connection to the family
 * @sk: request socket
 * @family: resolved family id
 * @ev_sk: event socket (NULL until vgpul_nl_subscribe() or
 *	vgpul_nl_subscribe_locks())
 * @ev_fn: event callback
 * @ev_arg: its argument
 * @lock_fn: lock grant callback
 * @lock_arg: its argument
 * @groups: VGPU_NL_GRP_* joined on @ev_sk
 * @ev_count: events delivered by the current vgpul_nl_recv_events()
 * @ev_stop: the callback asked to stop
 * @overruns: times the event socket's buffer overflowed (ENOBUFS)
 */
struct vgpu_nl {
	struct nl_sock *sk;
	int family;
	struct nl_sock *ev_sk;
	vgpu_nl_event_fn ev_fn;
	void *ev_arg;
	vgpu_nl_lock_fn lock_fn;
	void *lock_arg;
	unsigned int groups;
	int ev_count;
	int ev_stop;
	uint64_t overruns;
};

#define VGPU_NL_GRP_EVENTS	1u	/* "events" */
#define VGPU_NL_GRP_LOCKS	2u	/* "locks" */

struct vgpu_nl_req {
	int err;
	int done;
	int (*parse)(struct nlattr **tb, void *arg);
	void *arg;
};

static int vgpu_nl_nlerr(int nlerr)
{
	switch (-nlerr) {
	case NLE_PERM:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}

static int vgpu_nl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct vgpu_nl_req *r = arg;
	struct nlattr *tb[VGPU_A_MAX + 1];
	int ret;

	ret = genlmsg_parse(nlmsg_hdr(msg), 0, tb, VGPU_A_MAX, NULL);
	if (ret < 0) {
		r->err = -EPROTO;
		return NL_SKIP;
	}
	if (r->parse) {
		ret = r->parse(tb, r->arg);
		if (ret < 0 && !r->err)
			r->err = ret;
	}
	return NL_OK;
}

static int vgpu_nl_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e,
			  void *arg)
{
	struct vgpu_nl_req *r = arg;

	r->err = e->error;
	r->done = 1;
	return NL_STOP;
}

static int vgpu_nl_done_cb(struct nl_msg *msg, void *arg)
{
	struct vgpu_nl_req *r = arg;

	r->done = 1;
	return NL_STOP;
}

/*
 * Send @msg (consumed) and receive replies until ACK, DONE or an error
 * (in @r); @valid(@varg) sees each reply.
 */
static int vgpu_nl_exchange(struct vgpu_nl *nl, struct nl_msg *msg,
			    int (*valid)(struct nl_msg *, void *), void *varg,
			    struct vgpu_nl_req *r)
{
	struct nl_cb *cb;
	int ret;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid, varg);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, vgpu_nl_done_cb, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, vgpu_nl_done_cb, r);
	nl_cb_err(cb, NL_CB_CUSTOM, vgpu_nl_err_cb, r);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		nl_cb_put(cb);
		return vgpu_nl_nlerr(ret);
	}
	while (!r->done) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !r->done) {
			nl_cb_put(cb);
			return r->err ? r->err : vgpu_nl_nlerr(ret);
		}
	}
	nl_cb_put(cb);
	return r->err;
}

/* vgpu_nl_exchange() with @parse(attributes, @arg) on each reply. */
static int vgpu_nl_transact(struct vgpu_nl *nl, struct nl_msg *msg,
			    int (*parse)(struct nlattr **, void *), void *arg)
{
	struct vgpu_nl_req r = { .parse = parse, .arg = arg };

	return vgpu_nl_exchange(nl, msg, vgpu_nl_valid_cb, &r, &r);
}

static struct nl_msg *vgpu_nl_msg(struct vgpu_nl *nl, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, VGPU_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/**
 * vgpul_nl_open() - connect to the generic netlink family "vgpu"
 * @nlp: the connection, release with vgpul_nl_close()
 *
 * Return: 0, -EPROTONOSUPPORT when the family is not registered (module
 * not loaded), or another negative errno.
 */
int vgpul_nl_open(struct vgpu_nl **nlp)
{
	struct vgpu_nl *nl;
	int ret;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		free(nl);
		return -ENOMEM;
	}
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = vgpu_nl_nlerr(ret);
		goto err;
	}
	nl->family = genl_ctrl_resolve(nl->sk, VGPU_FAMILY_NAME);
	if (nl->family < 0) {
		ret = -EPROTONOSUPPORT;
		goto err;
	}
	*nlp = nl;
	return 0;
err:
	nl_socket_free(nl->sk);
	free(nl);
	return ret;
}

/**
 * vgpul_nl_close() - close a connection of vgpul_nl_open()
 * @nl: the connection (NULL: nothing)
 */
void vgpul_nl_close(struct vgpu_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	nl_socket_free(nl->sk);
	free(nl);
}

static void vgpu_nl_str(char *dst, size_t len, struct nlattr *a)
{
	if (a)
		snprintf(dst, len, "%s", nla_get_string(a));
}

/* The u32 attributes of a device and where they go in struct vgpu_nl_dev. */
static const struct {
	int attr;
	size_t off;
} vgpu_nl_dev_u32[] = {
	{ VGPU_A_NUM_SMS, offsetof(struct vgpu_nl_dev, num_sms) },
	{ VGPU_A_NUM_PRIOS, offsetof(struct vgpu_nl_dev, num_prios) },
	{ VGPU_A_PREEMPT, offsetof(struct vgpu_nl_dev, preempt) },
	{ VGPU_A_EPOCH, offsetof(struct vgpu_nl_dev, epoch) },
	{ VGPU_A_EVENT_BUDGET, offsetof(struct vgpu_nl_dev, event_budget) },
	{ VGPU_A_CLOCK, offsetof(struct vgpu_nl_dev, clock) },
	{ VGPU_A_FREQ_KHZ, offsetof(struct vgpu_nl_dev, freq_khz) },
	{ VGPU_A_TASK_SLOTS, offsetof(struct vgpu_nl_dev, task_slots) },
	{ VGPU_A_SYNC_COST, offsetof(struct vgpu_nl_dev, sync_cost) },
	{ VGPU_A_PACK, offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_PACK]) },
	{ VGPU_A_SEARCH, offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_SEARCH]) },
	{ VGPU_A_SEARCH_GROUP,
	  offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_SEARCH_GROUP]) },
	{ VGPU_A_SEARCH_LATENCY,
	  offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_SEARCH_LATENCY]) },
	{ VGPU_A_THROTTLE_SMS,
	  offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_THROTTLE_SMS]) },
	{ VGPU_A_COMBO, offsetof(struct vgpu_nl_dev, opt[VGPU_NL_OPT_COMBO]) },
	{ VGPU_A_THROTTLE, offsetof(struct vgpu_nl_dev, throttle) },
	{ VGPU_A_SREGS_PER_SUBPART,
	  offsetof(struct vgpu_nl_dev, sregs_per_subpart) },
	{ VGPU_A_SREG_UNIT, offsetof(struct vgpu_nl_dev, sreg_unit) },
};

/* The attribute of each dispatch option, VGPU_NL_OPT_* order. */
static const int vgpu_nl_opt_attr[VGPU_NL_NUM_OPTS] = {
	VGPU_A_PACK, VGPU_A_SEARCH, VGPU_A_SEARCH_GROUP,
	VGPU_A_SEARCH_LATENCY, VGPU_A_THROTTLE_SMS, VGPU_A_COMBO,
};

static int vgpu_nl_parse_dev(struct nlattr **tb, struct vgpu_nl_dev *d)
{
	uint32_t v;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!tb[VGPU_A_DEV_INDEX])
		return -EPROTO;
	d->index = nla_get_u32(tb[VGPU_A_DEV_INDEX]);
	vgpu_nl_str(d->name, sizeof(d->name), tb[VGPU_A_DEV_NAME]);
	vgpu_nl_str(d->preset, sizeof(d->preset), tb[VGPU_A_PRESET]);
	vgpu_nl_str(d->policy, sizeof(d->policy), tb[VGPU_A_POLICY]);
	for (i = 0; i < sizeof(vgpu_nl_dev_u32) / sizeof(vgpu_nl_dev_u32[0]);
	     i++) {
		if (!tb[vgpu_nl_dev_u32[i].attr])
			continue;
		v = nla_get_u32(tb[vgpu_nl_dev_u32[i].attr]);
		memcpy((char *)d + vgpu_nl_dev_u32[i].off, &v, sizeof(v));
	}
	if (tb[VGPU_A_WINDOWS]) {
		unsigned int n = nla_len(tb[VGPU_A_WINDOWS]) / 4;

		if (n > VGPU_NL_MAX_WINDOWS)
			n = VGPU_NL_MAX_WINDOWS;
		memcpy(d->windows, nla_data(tb[VGPU_A_WINDOWS]), n * 4);
		d->num_windows = n;
	}
	if (tb[VGPU_A_TIMEOUT])
		d->timeout = nla_get_u64(tb[VGPU_A_TIMEOUT]);
	return 0;
}

static int vgpu_nl_dev_one(struct nlattr **tb, void *arg)
{
	return vgpu_nl_parse_dev(tb, arg);
}

/**
 * vgpul_nl_dev_get() - DEV_GET of one device
 * @nl: the connection
 * @index: device index
 * @dev: the device's configuration
 *
 * Return: 0 or a negative errno (-ENODEV: no such device).
 */
int vgpul_nl_dev_get(struct vgpu_nl *nl, unsigned int index,
		    struct vgpu_nl_dev *dev)
{
	struct nl_msg *msg = vgpu_nl_msg(nl, VGPU_CMD_DEV_GET, 0);

	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, VGPU_A_DEV_INDEX, index) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	return vgpu_nl_transact(nl, msg, vgpu_nl_dev_one, dev);
}

struct vgpu_nl_list {
	struct vgpu_nl_dev *devs;
	unsigned int max, n;
};

static int vgpu_nl_dev_list_one(struct nlattr **tb, void *arg)
{
	struct vgpu_nl_list *l = arg;
	struct vgpu_nl_dev d;
	int ret;

	ret = vgpu_nl_parse_dev(tb, &d);
	if (ret)
		return ret;
	if (l->n < l->max)
		l->devs[l->n] = d;
	l->n++;
	return 0;
}

/**
 * vgpul_nl_dev_list() - DEV_GET dump: every device in index order
 * @nl: the connection
 * @devs: room for @max devices
 * @max: entries in @devs
 *
 * Return: the number of devices (may exceed @max; only @max are stored)
 * or a negative errno.
 */
int vgpul_nl_dev_list(struct vgpu_nl *nl, struct vgpu_nl_dev *devs,
		     unsigned int max)
{
	struct vgpu_nl_list l = { .devs = devs, .max = max };
	struct nl_msg *msg = vgpu_nl_msg(nl, VGPU_CMD_DEV_GET, NLM_F_DUMP);
	int ret;

	if (!msg)
		return -ENOMEM;
	ret = vgpu_nl_transact(nl, msg, vgpu_nl_dev_list_one, &l);
	return ret ? ret : (int)l.n;
}

static int vgpu_nl_parse_counters(struct nlattr *nest,
				  struct vgpu_nl_counters *c)
{
	struct nlattr *a;
	int rem, t;

	memset(c, 0, sizeof(*c));
	nla_for_each_nested(a, nest, rem) {
		t = nla_type(a);
		if (t <= VGPU_A_STATS_PAD || t > VGPU_A_STATS_MAX)
			continue;
		if (nla_len(a) == 8)
			c->v[t] = nla_get_u64(a);
		else if (nla_len(a) == 4)
			c->v[t] = nla_get_u32(a);
		else
			continue;
		c->present |= 1ULL << t;
	}
	return 0;
}

static int vgpu_nl_push(struct vgpu_nl_counters **arr, unsigned int *n,
			struct nlattr *nest)
{
	struct vgpu_nl_counters *na;

	na = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!na)
		return -ENOMEM;
	*arr = na;
	return vgpu_nl_parse_counters(nest, &na[(*n)++]);
}

struct vgpu_nl_stats_req {
	struct vgpu_nl_stats *st;
	int err;
};

static int vgpu_nl_stats_valid(struct nl_msg *msg, void *arg)
{
	struct vgpu_nl_stats_req *r = arg;
	struct vgpu_nl_stats *st = r->st;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *a;
	int rem, ret = 0;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		switch (nla_type(a)) {
		case VGPU_A_STATS:
			ret = vgpu_nl_parse_counters(a, &st->dev);
			break;
		case VGPU_A_SM_STATS:
			ret = vgpu_nl_push(&st->sm, &st->n_sm, a);
			break;
		case VGPU_A_PRIO_STATS:
			ret = vgpu_nl_push(&st->prio, &st->n_prio, a);
			break;
		case VGPU_A_CHANNEL_STATS:
			ret = vgpu_nl_push(&st->chan, &st->n_chan, a);
			break;
		}
		if (ret && !r->err)
			r->err = ret;
	}
	return NL_OK;
}

/**
 * vgpul_nl_stats_get() - STATS_GET of one device (with SM and channel nests)
 * @nl: the connection
 * @index: device index
 * @st: the counters; release with vgpul_nl_stats_free()
 *
 * Return: 0 or a negative errno (-ENODEV: no such device).
 */
int vgpul_nl_stats_get(struct vgpu_nl *nl, unsigned int index,
		      struct vgpu_nl_stats *st)
{
	struct vgpu_nl_stats_req sr = { .st = st };
	struct vgpu_nl_req r = { 0 };
	struct nl_msg *msg;
	int ret;

	memset(st, 0, sizeof(*st));
	msg = vgpu_nl_msg(nl, VGPU_CMD_STATS_GET, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, VGPU_A_DEV_INDEX, index) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ret = vgpu_nl_exchange(nl, msg, vgpu_nl_stats_valid, &sr, &r);
	if (!ret)
		ret = sr.err;
	if (ret)
		vgpul_nl_stats_free(st);
	return ret;
}

/**
 * vgpul_nl_stats_free() - release the arrays of vgpul_nl_stats_get()
 * @st: the counters
 */
void vgpul_nl_stats_free(struct vgpu_nl_stats *st)
{
	free(st->sm);
	free(st->prio);
	free(st->chan);
	st->sm = st->prio = st->chan = NULL;
	st->n_sm = st->n_prio = st->n_chan = 0;
}

/**
 * vgpul_nl_config_set() - CONFIG_SET (needs CAP_NET_ADMIN)
 * @nl: the connection
 * @index: device index
 * @cfg: the fields named in @cfg->set
 *
 * The device sees the whole change or none of it.
 *
 * Return: 0 or a negative errno: -EPERM (needs CAP_NET_ADMIN), -ENOENT
 * (unknown policy), -EINVAL or -ERANGE (bad value), -EBUSY (throttle SMs
 * in throttle mode), -ENODEV.
 */
int vgpul_nl_config_set(struct vgpu_nl *nl, unsigned int index,
		       const struct vgpu_nl_config *cfg)
{
	struct nl_msg *msg = vgpu_nl_msg(nl, VGPU_CMD_CONFIG_SET, 0);
	int ret, i;

	if (!msg)
		return -ENOMEM;
	if (cfg->num_windows > VGPU_NL_MAX_WINDOWS) {
		nlmsg_free(msg);
		return -EINVAL;
	}
	ret = nla_put_u32(msg, VGPU_A_DEV_INDEX, index);
	if (!ret && (cfg->set & VGPU_NL_SET_POLICY))
		ret = nla_put_string(msg, VGPU_A_POLICY, cfg->policy);
	if (!ret && (cfg->set & VGPU_NL_SET_PREEMPT))
		ret = nla_put_u32(msg, VGPU_A_PREEMPT, cfg->preempt);
	if (!ret && (cfg->set & VGPU_NL_SET_WINDOWS))
		ret = nla_put(msg, VGPU_A_WINDOWS, cfg->num_windows * 4,
			      cfg->windows);
	if (!ret && (cfg->set & VGPU_NL_SET_TIMEOUT))
		ret = nla_put_u64(msg, VGPU_A_TIMEOUT, cfg->timeout);
	if (!ret && (cfg->set & VGPU_NL_SET_BUDGET))
		ret = nla_put_u32(msg, VGPU_A_EVENT_BUDGET, cfg->event_budget);
	if (!ret && (cfg->set & VGPU_NL_SET_SYNC_COST))
		ret = nla_put_u32(msg, VGPU_A_SYNC_COST, cfg->sync_cost);
	for (i = 0; !ret && i < VGPU_NL_NUM_OPTS; i++)
		if (cfg->set & VGPU_NL_SET_OPT(i))
			ret = nla_put_u32(msg, vgpu_nl_opt_attr[i],
					  cfg->opt[i]);
	if (ret < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	return vgpu_nl_transact(nl, msg, NULL, NULL);
}

static uint32_t vgpu_nl_u32_or(struct nlattr *a, uint32_t def)
{
	return a ? nla_get_u32(a) : def;
}

/* The fields every message of the "events" and "locks" groups carries. */
static void vgpu_nl_ev_parse(struct vgpu_nl_ev *ev, struct nlattr **tb)
{
	memset(ev, 0, sizeof(*ev));
	ev->dev = vgpu_nl_u32_or(tb[VGPU_A_DEV_INDEX], UINT32_MAX);
	ev->type = vgpu_nl_u32_or(tb[VGPU_A_EV_TYPE], 0);
	ev->seq = tb[VGPU_A_EV_SEQ] ? nla_get_u64(tb[VGPU_A_EV_SEQ]) : 0;
	ev->cycle = tb[VGPU_A_EV_CYCLE] ? nla_get_u64(tb[VGPU_A_EV_CYCLE]) : 0;
	ev->kernel = vgpu_nl_u32_or(tb[VGPU_A_EV_KERNEL], UINT32_MAX);
	ev->block = vgpu_nl_u32_or(tb[VGPU_A_EV_BLOCK], UINT32_MAX);
	ev->sm = vgpu_nl_u32_or(tb[VGPU_A_EV_SM], UINT32_MAX);
	ev->prio = vgpu_nl_u32_or(tb[VGPU_A_EV_PRIO], UINT32_MAX);
}

/* A "locks" message (VGPU_CMD_LOCK_EVENT) to the lock callback. */
static int vgpu_nl_lock_cb(struct vgpu_nl *nl, struct nlattr **tb)
{
	struct vgpu_nl_lock_ev ev;

	memset(&ev, 0, sizeof(ev));
	vgpu_nl_ev_parse(&ev.ev, tb);
	ev.warp = vgpu_nl_u32_or(tb[VGPU_A_EV_WARP], UINT32_MAX);
	ev.mutex = vgpu_nl_u32_or(tb[VGPU_A_EV_MUTEX], UINT32_MAX);
	nl->ev_count++;
	if (nl->lock_fn && nl->lock_fn(&ev, nl->lock_arg)) {
		nl->ev_stop = 1;
		return NL_STOP;
	}
	return NL_OK;
}

static int vgpu_nl_event_cb(struct nl_msg *msg, void *arg)
{
	struct vgpu_nl *nl = arg;
	struct nlattr *tb[VGPU_A_MAX + 1];
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct vgpu_nl_ev ev;

	if ((gh->cmd != VGPU_CMD_EVENT && gh->cmd != VGPU_CMD_LOCK_EVENT) ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, VGPU_A_MAX, NULL) < 0)
		return NL_SKIP;
	if (gh->cmd == VGPU_CMD_LOCK_EVENT)
		return nl->groups & VGPU_NL_GRP_LOCKS ?
		       vgpu_nl_lock_cb(nl, tb) : NL_SKIP;
	if (!(nl->groups & VGPU_NL_GRP_EVENTS))
		return NL_SKIP;
	vgpu_nl_ev_parse(&ev, tb);
	nl->ev_count++;
	if (nl->ev_fn && nl->ev_fn(&ev, nl->ev_arg)) {
		nl->ev_stop = 1;
		return NL_STOP;
	}
	return NL_OK;
}

/*
 * Join multicast group @name (VGPU_NL_GRP_* @bit) on the event socket,
 * creating the socket first if no group was joined yet.
 */
static int vgpu_nl_join(struct vgpu_nl *nl, const char *name,
			unsigned int bit)
{
	int created = 0;
	int grp, ret;

	if (nl->groups & bit)
		return -EBUSY;
	grp = genl_ctrl_resolve_grp(nl->sk, VGPU_FAMILY_NAME, name);
	if (grp < 0)
		return -EPROTONOSUPPORT;
	if (!nl->ev_sk) {
		nl->ev_sk = nl_socket_alloc();
		if (!nl->ev_sk)
			return -ENOMEM;
		created = 1;
		nl_socket_disable_seq_check(nl->ev_sk);
		nl_socket_modify_cb(nl->ev_sk, NL_CB_VALID, NL_CB_CUSTOM,
				    vgpu_nl_event_cb, nl);
		ret = genl_connect(nl->ev_sk);
		if (!ret)
			ret = nl_socket_set_buffer_size(nl->ev_sk, 8 << 20, 0);
		if (!ret)
			ret = nl_socket_set_nonblocking(nl->ev_sk);
		if (ret < 0)
			goto err;
	}
	ret = nl_socket_add_membership(nl->ev_sk, grp);
	if (ret < 0)
		goto err;
	nl->groups |= bit;
	return 0;
err:
	if (created) {
		nl_socket_free(nl->ev_sk);
		nl->ev_sk = NULL;
	}
	return vgpu_nl_nlerr(ret);
}

/**
 * vgpul_nl_subscribe() - join the "events" multicast group
 * @nl: the connection
 * @fn: called for every event by vgpul_nl_recv_events(); a non-zero return
 *	stops that call
 * @arg: passed to @fn
 *
 * Events of every device arrive; filter on &vgpu_nl_event.dev.
 *
 * Return: 0 or a negative errno (-EBUSY: already joined).
 */
int vgpul_nl_subscribe(struct vgpu_nl *nl, vgpu_nl_event_fn fn, void *arg)
{
	int ret = vgpu_nl_join(nl, VGPU_MCGRP_EVENTS, VGPU_NL_GRP_EVENTS);

	if (ret)
		return ret;
	nl->ev_fn = fn;
	nl->ev_arg = arg;
	return 0;
}

/**
 * vgpul_nl_subscribe_locks() - join the "locks" multicast group
 * @nl: the connection
 * @fn: called for every lock grant by vgpul_nl_recv_events(); a non-zero
 *	return stops that call
 * @arg: passed to @fn
 *
 * The arbiter's lock grants (F35) of every device arrive, on the same
 * socket as the "events" group's if joined too (vgpul_nl_event_fd(),
 * vgpul_nl_recv_events() deliver both); filter on &vgpu_nl_lock_ev.dev.
 * The module builds them only while someone is in the group.  Joining
 * needs CAP_NET_ADMIN.
 *
 * Return: 0 or a negative errno (-EBUSY: already joined,
 * -EPROTONOSUPPORT: a module without the group).
 */
int vgpul_nl_subscribe_locks(struct vgpu_nl *nl, vgpu_nl_lock_fn fn,
			     void *arg)
{
	int ret = vgpu_nl_join(nl, VGPU_MCGRP_LOCKS, VGPU_NL_GRP_LOCKS);

	if (ret)
		return ret;
	nl->lock_fn = fn;
	nl->lock_arg = arg;
	return 0;
}

/**
 * vgpul_nl_event_fd() - file descriptor of the event socket (for poll())
 * @nl: the connection
 *
 * Return: the fd, or -EINVAL before vgpul_nl_subscribe() or
 * vgpul_nl_subscribe_locks().
 */
int vgpul_nl_event_fd(struct vgpu_nl *nl)
{
	return nl->ev_sk ? nl_socket_get_fd(nl->ev_sk) : -EINVAL;
}

/**
 * vgpul_nl_recv_events() - deliver pending events to the callback
 * @nl: a subscribed connection
 * @timeout_ms: wait this long for the first event (0: do not wait, -1:
 *	without a limit)
 *
 * Delivers every event already queued, then returns.  A receive buffer
 * overflow (ENOBUFS: events lost in the socket) is counted in
 * vgpul_nl_overruns() and not an error.
 *
 * Return: the number of events delivered (0 on timeout) or a negative
 * errno.
 */
int vgpul_nl_recv_events(struct vgpu_nl *nl, int timeout_ms)
{
	struct pollfd p;
	int ret;

	if (!nl->ev_sk)
		return -EINVAL;
	p.fd = nl_socket_get_fd(nl->ev_sk);
	p.events = POLLIN;
	do {
		ret = poll(&p, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	nl->ev_count = 0;
	nl->ev_stop = 0;
	while (!nl->ev_stop) {
		ret = nl_recvmsgs_default(nl->ev_sk);
		if (ret == -NLE_AGAIN)
			break;
		if (ret == -NLE_NOMEM) {	/* ENOBUFS: overrun */
			nl->overruns++;
			continue;
		}
		if (ret < 0)
			return vgpu_nl_nlerr(ret);
	}
	return nl->ev_count;
}

/**
 * vgpul_nl_overruns() - event socket buffer overruns so far
 * @nl: the connection
 *
 * Return: the count.
 */
uint64_t vgpul_nl_overruns(struct vgpu_nl *nl)
{
	return nl->overruns;
}

static const char *const vgpu_nl_stat_names[] = {
	[VGPU_A_STATS_ID] = "id",
	[VGPU_A_STATS_PRIO] = "prio",
	[VGPU_A_STATS_NOW] = "now",
	[VGPU_A_STATS_SUBMITTED] = "submitted",
	[VGPU_A_STATS_COMPLETED] = "completed",
	[VGPU_A_STATS_CANCELLED] = "cancelled",
	[VGPU_A_STATS_HANGS] = "hangs",
	[VGPU_A_STATS_EPOCHS] = "epochs",
	[VGPU_A_STATS_DECISIONS] = "decisions",
	[VGPU_A_STATS_BLOCKS] = "blocks",
	[VGPU_A_STATS_PREEMPTIONS] = "preemptions",
	[VGPU_A_STATS_RESUMES] = "resumes",
	[VGPU_A_STATS_SPLITS] = "splits",
	[VGPU_A_STATS_EVICTIONS] = "evictions",
	[VGPU_A_STATS_FAILED_ROUNDS] = "failed_rounds",
	[VGPU_A_STATS_EVENTS] = "events",
	[VGPU_A_STATS_EVENTS_SENT] = "events_sent",
	[VGPU_A_STATS_EVENTS_DROPPED] = "events_dropped",
	[VGPU_A_STATS_ISSUED] = "issued",
	[VGPU_A_STATS_WARPS_DONE] = "warps_done",
	[VGPU_A_STATS_BLOCKS_DONE] = "blocks_done",
	[VGPU_A_STATS_BLOCKS_CANCELLED] = "blocks_cancelled",
	[VGPU_A_STATS_CHILDREN] = "children",
	[VGPU_A_STATS_SUSPENSIONS] = "suspensions",
	[VGPU_A_STATS_FAILED] = "failed",
	[VGPU_A_STATS_SYNCS] = "syncs",
	[VGPU_A_STATS_QUEUE_ITEMS] = "queue_items",
	[VGPU_A_STATS_QUEUE_BLOCKS] = "queue_blocks",
	[VGPU_A_STATS_QUEUE_PARTIAL] = "queue_partial",
	[VGPU_A_STATS_POLICY_ERRORS] = "policy_errors",
	[VGPU_A_STATS_DEADLINE_MISSES] = "deadline_misses",
};

/**
 * vgpul_nl_stat_name() - name of a counter
 * @attr: VGPU_A_STATS_*
 *
 * Return: "submitted", ..., or NULL for an unknown attribute.
 */
const char *vgpul_nl_stat_name(unsigned int attr)
{
	if (attr >= sizeof(vgpu_nl_stat_names) / sizeof(vgpu_nl_stat_names[0]))
		return NULL;
	return vgpu_nl_stat_names[attr];
}

/**
 * vgpul_nl_event_name() - name of an event type
 * @type: enum vgpu_nl_event
 *
 * Return: "submit", "dispatch", "preempt", "complete", "hang", "fail",
 * "policy_error" or "?".
 */
const char *vgpul_nl_event_name(unsigned int type)
{
	static const char *const names[] = {
		[VGPU_EVENT_SUBMIT] = "submit",
		[VGPU_EVENT_DISPATCH] = "dispatch",
		[VGPU_EVENT_PREEMPT] = "preempt",
		[VGPU_EVENT_COMPLETE] = "complete",
		[VGPU_EVENT_HANG] = "hang",
		[VGPU_EVENT_FAIL] = "fail",
		[VGPU_EVENT_POLICY_ERROR] = "policy_error",
		[VGPU_EVENT_POLICY_EXIT] = "policy_exit",
	};

	if (type >= sizeof(names) / sizeof(names[0]) || !names[type])
		return "?";
	return names[type];
}

/*
 * The names of enum vgpu_preempt_mode, as the module's new_device and
 * debugfs spell them (libvgpu links nothing of the scheduling core; a unit
 * test checks this table against the core's).
 */
static const char *const vgpu_nl_preempt_names[] = {
	[VGPU_PREEMPT_MODE_DRAIN] = "drain",
	[VGPU_PREEMPT_MODE_WARP] = "warp",
	[VGPU_PREEMPT_MODE_SWITCH] = "switch",
};

/**
 * vgpul_nl_preempt_name() - name of a preemption mode
 * @mode: enum vgpu_preempt_mode
 *
 * Return: "drain", "warp", "switch" or "?".
 */
const char *vgpul_nl_preempt_name(unsigned int mode)
{
	if (mode >= sizeof(vgpu_nl_preempt_names) /
		    sizeof(vgpu_nl_preempt_names[0]))
		return "?";
	return vgpu_nl_preempt_names[mode];
}

/**
 * vgpul_nl_preempt_parse() - preemption mode by name
 * @name: "drain", "warp" or "switch"
 *
 * Return: enum vgpu_preempt_mode or -EINVAL.
 */
int vgpul_nl_preempt_parse(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < sizeof(vgpu_nl_preempt_names) /
				 sizeof(vgpu_nl_preempt_names[0]); i++)
		if (!strcmp(name, vgpu_nl_preempt_names[i]))
			return i;
	return -EINVAL;
}
