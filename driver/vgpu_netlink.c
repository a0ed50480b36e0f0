// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_netlink.c - the generic netlink family "vgpu" (F63).
 *
 * Commands: DEV_GET (doit, dump), STATS_GET (doit, dump), CONFIG_SET (doit,
 * CAP_NET_ADMIN), and EVENT notifications on the multicast group "events"
 * (joining it needs CAP_NET_ADMIN too: events show every user's kernels).
 * Documentation/netlink.rst and Documentation/netlink/specs/vgpu.yaml
 * describe the messages; uapi/linux/vgpu_netlink.h holds the numbers.
 *
 * Locking: a request takes a reference on its device (vgpu_device_get_from())
 * and fills its message under &vgpu_sched.lock; dumps keep the next device
 * index in cb->args[0] and hold no lock or reference between callbacks.
 * Events are sent from the core's event sink, under &vgpu_sched.lock
 * (vgpu_obs.c, to which vgpu_netlink_init() hands the family).
 */
#include <linux/build_bug.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include <linux/vgpu_netlink.h>

#include "vgpu_drv.h"
#include "vgpu_obs.h"
#include "gpu_config.h"

static struct netlink_range_validation vgpu_nl_timeout_range = {
	.min = 1,
	.max = VGPU_MAX_TIMEOUT_CYCLES,
};

static struct netlink_range_validation vgpu_nl_budget_range = {
	.min = 1,
	.max = VGPU_OBS_MAX_BUDGET,
};

/* Requests may carry only these; the rest are reply-only. */
static const struct nla_policy vgpu_nl_policy[VGPU_A_MAX + 1] = {
	[VGPU_A_DEV_INDEX] = NLA_POLICY_MAX(NLA_U32, VGPU_MAX_DEVICES - 1),
	[VGPU_A_POLICY] = { .type = NLA_NUL_STRING,
			    .len = VGPU_POLICY_NAME_LEN - 1 },
	[VGPU_A_PREEMPT] = NLA_POLICY_MAX(NLA_U32, VGPU_PREEMPT_MODE_SWITCH),
	[VGPU_A_WINDOWS] = { .type = NLA_BINARY,
			     .len = VGPU_GPU_MAX_WINDOWS * sizeof(u32) },
	[VGPU_A_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U64,
						 &vgpu_nl_timeout_range),
	[VGPU_A_EVENT_BUDGET] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &vgpu_nl_budget_range),
	[VGPU_A_SYNC_COST] = NLA_POLICY_MAX(NLA_U32, VGPU_MAX_LATENCY),
	[VGPU_A_PACK] = NLA_POLICY_MAX(NLA_U32, VGPU_PACK_MODE_SM),
	[VGPU_A_SEARCH] = NLA_POLICY_MAX(NLA_U32, VGPU_SEARCH_MODE_MUX),
	[VGPU_A_SEARCH_GROUP] = { .type = NLA_U32 },
	[VGPU_A_SEARCH_LATENCY] = NLA_POLICY_MAX(NLA_U32,
						 VGPU_SEARCH_MAX_LATENCY),
	[VGPU_A_THROTTLE_SMS] = { .type = NLA_U32 },
	[VGPU_A_COMBO] = NLA_POLICY_MAX(NLA_U32, 100),
};

/*
 * Events name every user's kernels and their timing: like CONFIG_SET, and
 * like perf's system-wide observation, joining the group is privileged
 * (CAP_NET_ADMIN).  A process follows its own kernels through its file
 * (WAIT, QUERY, poll, fdinfo).
 */
static const struct genl_multicast_group vgpu_nl_mcgrps[] = {
	[VGPU_OBS_GROUP_EVENTS] = { .name = VGPU_MCGRP_EVENTS,
				    .flags = GENL_MCAST_CAP_NET_ADMIN, },
	[VGPU_OBS_GROUP_LOCKS] = { .name = VGPU_MCGRP_LOCKS,
				   .flags = GENL_MCAST_CAP_NET_ADMIN, },
};

static struct genl_family vgpu_nl_family;

/* The uapi's preemption modes are the core's (one table: names.c). */
static_assert(VGPU_PREEMPT_MODE_DRAIN == VGPU_PREEMPT_DRAIN);
static_assert(VGPU_PREEMPT_MODE_WARP == VGPU_PREEMPT_WARP);
static_assert(VGPU_PREEMPT_MODE_SWITCH == VGPU_PREEMPT_SWITCH);
static_assert(VGPU_PACK_MODE_AUTO == VGPU_PACK_AUTO);
static_assert(VGPU_PACK_MODE_BLOCK == VGPU_PACK_BLOCK);
static_assert(VGPU_PACK_MODE_SM == VGPU_PACK_SM);
static_assert(VGPU_SEARCH_MODE_EXACT == VGPU_SEARCH_EXACT);
static_assert(VGPU_SEARCH_MODE_GROUPED == VGPU_SEARCH_GROUPED);
static_assert(VGPU_SEARCH_MODE_SAMPLED == VGPU_SEARCH_SAMPLED);
static_assert(VGPU_SEARCH_MODE_MUX == VGPU_SEARCH_MUX);

/* Device and configuration attributes; under vgpu_sched.lock. */
static int vgpu_nl_put_dev(struct sk_buff *skb, struct vgpu_device *vdev)
{
	struct vgpu_sched *s = &vdev->sched;
	const struct vgpu_gpu_params *p = &s->gpu->p;
	struct vgpu_gpu_dispatch_opts o;

	lockdep_assert_held(&s->lock);
	vgpu_gpu_get_dispatch(s->gpu, &o);
	if (nla_put_u32(skb, VGPU_A_DEV_INDEX, vdev->index) ||
	    nla_put_string(skb, VGPU_A_DEV_NAME, vdev->name) ||
	    nla_put_string(skb, VGPU_A_PRESET, vdev->cfg.name) ||
	    nla_put_u32(skb, VGPU_A_NUM_SMS, vdev->cfg.num_sms) ||
	    nla_put_u32(skb, VGPU_A_NUM_PRIOS, vdev->cfg.num_prios) ||
	    nla_put_string(skb, VGPU_A_POLICY, p->policy) ||
	    nla_put_u32(skb, VGPU_A_PREEMPT, p->preempt) ||
	    nla_put(skb, VGPU_A_WINDOWS, p->num_windows * sizeof(u32),
		    p->window) ||
	    nla_put_u32(skb, VGPU_A_EPOCH, p->epoch) ||
	    nla_put_u64_64bit(skb, VGPU_A_TIMEOUT,
			      READ_ONCE(vdev->limits.default_timeout),
			      VGPU_A_PAD) ||
	    nla_put_u32(skb, VGPU_A_EVENT_BUDGET, vdev->obs.budget) ||
	    nla_put_u32(skb, VGPU_A_CLOCK, s->opts.clock) ||
	    nla_put_u32(skb, VGPU_A_FREQ_KHZ, s->opts.freq_khz) ||
	    nla_put_u32(skb, VGPU_A_TASK_SLOTS, p->task_slots) ||
	    nla_put_u32(skb, VGPU_A_SYNC_COST, p->sync_cost) ||
	    nla_put_u32(skb, VGPU_A_PACK, o.pack) ||
	    nla_put_u32(skb, VGPU_A_SEARCH, o.search) ||
	    nla_put_u32(skb, VGPU_A_SEARCH_GROUP, o.search_group) ||
	    nla_put_u32(skb, VGPU_A_SEARCH_LATENCY, o.search_latency) ||
	    nla_put_u32(skb, VGPU_A_THROTTLE_SMS, o.throttle_sms) ||
	    nla_put_u32(skb, VGPU_A_THROTTLE,
			s->gpu->throttle_state != VGPU_THROTTLE_OFF) ||
	    nla_put_u32(skb, VGPU_A_COMBO, o.combo) ||
	    nla_put_u32(skb, VGPU_A_SREGS_PER_SUBPART,
			vdev->cfg.sregs_per_subpart) ||
	    nla_put_u32(skb, VGPU_A_SREG_UNIT, vdev->cfg.sreg_unit))
		return -EMSGSIZE;
	return 0;
}

/* CONFIG_SET's dispatch options (F23, F25, F26, F40-F42) over @o. */
static void vgpu_nl_get_dispatch(struct nlattr **tb,
				 struct vgpu_gpu_dispatch_opts *o)
{
	static const struct {
		int attr;
		size_t off;
	} map[] = {
		{ VGPU_A_PACK, offsetof(struct vgpu_gpu_dispatch_opts, pack) },
		{ VGPU_A_SEARCH,
		  offsetof(struct vgpu_gpu_dispatch_opts, search) },
		{ VGPU_A_SEARCH_GROUP,
		  offsetof(struct vgpu_gpu_dispatch_opts, search_group) },
		{ VGPU_A_SEARCH_LATENCY,
		  offsetof(struct vgpu_gpu_dispatch_opts, search_latency) },
		{ VGPU_A_THROTTLE_SMS,
		  offsetof(struct vgpu_gpu_dispatch_opts, throttle_sms) },
		{ VGPU_A_COMBO, offsetof(struct vgpu_gpu_dispatch_opts, combo) },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (tb[map[i].attr])
			*(u32 *)((u8 *)o + map[i].off) =
				nla_get_u32(tb[map[i].attr]);
}

static int vgpu_nl_put64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, VGPU_A_STATS_PAD);
}

static int vgpu_nl_put_count(struct sk_buff *skb, int type, u32 id,
			     const struct vgpu_obs_count *c)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VGPU_A_STATS_ID, id) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_SUBMITTED, c->submitted) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_COMPLETED, c->completed) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS, c->blocks) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_PREEMPTIONS, c->preempted) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS_DONE, c->blocks_done)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Statistics; under vgpu_sched.lock.  @full adds per-SM and channel. */
static int vgpu_nl_put_stats(struct sk_buff *skb, struct vgpu_device *vdev,
			     bool full)
{
	struct vgpu_sched *s = &vdev->sched;
	const struct vgpu_gpu_stats *gs = &s->gpu->stats;
	struct vgpu_obs *o = &vdev->obs;
	struct nlattr *nest;
	u32 i;

	lockdep_assert_held(&s->lock);
	if (nla_put_u32(skb, VGPU_A_DEV_INDEX, vdev->index))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, VGPU_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (vgpu_nl_put64(skb, VGPU_A_STATS_NOW, s->gpu->now) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_SUBMITTED, s->stats.submitted) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_COMPLETED, s->stats.completed) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_CANCELLED, s->stats.cancelled) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_HANGS, s->stats.hangs) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_EPOCHS, s->stats.epochs) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_DECISIONS, gs->decisions) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS, gs->blocks) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_PREEMPTIONS, gs->preemptions) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_RESUMES, gs->resumes) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_SPLITS, gs->splits) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_EVICTIONS, gs->evictions) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_FAILED_ROUNDS, gs->failed_rounds) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_EVENTS, gs->events) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_EVENTS_SENT, o->ev_sent) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_EVENTS_DROPPED, o->ev_dropped) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_CHILDREN, gs->children) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_SUSPENSIONS, gs->suspensions) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_FAILED, s->stats.failed) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_SYNCS, vgpu_gpu_syncs(s->gpu)) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_QUEUE_ITEMS, gs->queue_items) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_QUEUE_BLOCKS, gs->queue_blocks) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_QUEUE_PARTIAL, gs->queue_partial) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_POLICY_ERRORS, gs->policy_errors) ||
	    vgpu_nl_put64(skb, VGPU_A_STATS_DEADLINE_MISSES,
			  gs->deadline_misses))
		goto err_cancel;
	nla_nest_end(skb, nest);

	for (i = 0; i < vdev->cfg.num_prios; i++)
		if (vgpu_nl_put_count(skb, VGPU_A_PRIO_STATS, i, &o->prio[i]))
			return -EMSGSIZE;
	if (!full)
		return 0;
	for (i = 0; i < vdev->cfg.num_sms; i++) {
		const struct vgpu_sm_stats *ss = &s->gpu->sm[i].sm.stats;

		nest = nla_nest_start(skb, VGPU_A_SM_STATS);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, VGPU_A_STATS_ID, i) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS, o->sm[i].blocks) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_PREEMPTIONS,
				  o->sm[i].preempted) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS_DONE,
				  o->sm[i].blocks_done) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_ISSUED, ss->issued) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_WARPS_DONE, ss->warps_done) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS_CANCELLED,
				  ss->blocks_cancelled) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_SYNCS, ss->syncs))
			goto err_cancel;
		nla_nest_end(skb, nest);
	}
	for (i = 0; i < s->opts.params.max_channels; i++) {
		if (!s->gpu->chan[i].used)
			continue;
		nest = nla_nest_start(skb, VGPU_A_CHANNEL_STATS);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, VGPU_A_STATS_ID, i) ||
		    nla_put_u32(skb, VGPU_A_STATS_PRIO, s->gpu->chan[i].prio) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_SUBMITTED,
				  o->chan[i].submitted) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_COMPLETED,
				  o->chan[i].completed) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS, o->chan[i].blocks) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_PREEMPTIONS,
				  o->chan[i].preempted) ||
		    vgpu_nl_put64(skb, VGPU_A_STATS_BLOCKS_DONE,
				  o->chan[i].blocks_done))
			goto err_cancel;
		nla_nest_end(skb, nest);
	}
	return 0;

err_cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* One message about @vdev into @skb. */
static int vgpu_nl_fill(struct sk_buff *skb, struct vgpu_device *vdev, u8 cmd,
			u32 portid, u32 seq, int flags, bool full)
{
	struct vgpu_sched *s = &vdev->sched;
	void *hdr;
	int ret;

	hdr = genlmsg_put(skb, portid, seq, &vgpu_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&s->lock);
	if (cmd == VGPU_CMD_DEV_GET)
		ret = vgpu_nl_put_dev(skb, vdev);
	else
		ret = vgpu_nl_put_stats(skb, vdev, full);
	mutex_unlock(&s->lock);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The device a request names, referenced; NULL with extack set. */
static struct vgpu_device *vgpu_nl_device(struct genl_info *info)
{
	struct vgpu_device *vdev;
	u32 index;

	if (GENL_REQ_ATTR_CHECK(info, VGPU_A_DEV_INDEX)) {
		NL_SET_ERR_MSG(info->extack, "dev-index is required");
		return ERR_PTR(-EINVAL);
	}
	index = nla_get_u32(info->attrs[VGPU_A_DEV_INDEX]);
	vdev = vgpu_device_get_from(index);
	if (vdev && vdev->index != index) {
		vgpu_device_put(vdev);
		vdev = NULL;
	}
	if (!vdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[VGPU_A_DEV_INDEX],
				    "no such device");
		return ERR_PTR(-ENODEV);
	}
	return vdev;
}

/* Reply size: the per-SM and per-channel nests dominate. */
static size_t vgpu_nl_size(struct vgpu_device *vdev)
{
	size_t nest = nla_total_size(0) + nla_total_size(4) +
		      7 * nla_total_size_64bit(8);

	return NLMSG_GOODSIZE + nest * (vdev->cfg.num_sms + vdev->cfg.num_prios +
					vdev->sched.opts.params.max_channels);
}

static int vgpu_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	struct vgpu_device *vdev;
	struct sk_buff *msg;
	int ret;

	vdev = vgpu_nl_device(info);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	msg = genlmsg_new(vgpu_nl_size(vdev), GFP_KERNEL);
	if (!msg) {
		vgpu_device_put(vdev);
		return -ENOMEM;
	}
	ret = vgpu_nl_fill(msg, vdev, cmd, info->snd_portid, info->snd_seq, 0,
			   true);
	vgpu_device_put(vdev);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int vgpu_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	u8 cmd = ((struct genlmsghdr *)nlmsg_data(cb->nlh))->cmd;
	struct vgpu_device *vdev;
	int ret = 0;

	/* cb->args[0]: the next device index to report */
	while ((vdev = vgpu_device_get_from(cb->args[0]))) {
		ret = vgpu_nl_fill(skb, vdev, cmd, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI, false);
		cb->args[0] = vdev->index + (ret ? 0 : 1);
		vgpu_device_put(vdev);
		if (ret)
			break;
	}
	/* a message that did not fit an empty skb can never fit */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

static int vgpu_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 windows[VGPU_GPU_MAX_WINDOWS], old_windows[VGPU_GPU_MAX_WINDOWS];
	struct vgpu_gpu_dispatch_opts disp, saved;
	u32 nwin = 0, preempt, i, old_preempt, old_nwin;
	struct nlattr **tb = info->attrs;
	struct vgpu_device *vdev;
	struct vgpu_gpu *g;
	const char *bad = NULL;
	int ret = 0;

	if (tb[VGPU_A_WINDOWS]) {
		if (nla_len(tb[VGPU_A_WINDOWS]) % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[VGPU_A_WINDOWS],
					    "windows: an array of u32 lengths");
			return -EINVAL;
		}
		nwin = nla_len(tb[VGPU_A_WINDOWS]) / sizeof(u32);
		nla_memcpy(windows, tb[VGPU_A_WINDOWS], sizeof(windows));
	}
	vdev = vgpu_nl_device(info);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	mutex_lock(&vdev->sched.lock);
	g = vdev->sched.gpu;
	old_preempt = g->p.preempt;
	old_nwin = g->p.num_windows;
	for (i = 0; i < old_nwin; i++)
		old_windows[i] = g->p.window[i];
	if (!tb[VGPU_A_WINDOWS]) {
		nwin = g->p.num_windows;
		for (i = 0; i < nwin; i++)
			windows[i] = g->p.window[i];
	}
	/* at most VGPU_PREEMPT_MODE_SWITCH (vgpu_nl_policy) */
	preempt = tb[VGPU_A_PREEMPT] ? nla_get_u32(tb[VGPU_A_PREEMPT]) :
		  g->p.preempt;
	/* validate everything before changing anything */
	if (tb[VGPU_A_POLICY] &&
	    !vgpu_policy_exists(nla_data(tb[VGPU_A_POLICY]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[VGPU_A_POLICY],
				    "unknown policy");
		ret = -ENOENT;
		goto out;
	}
	/* the dispatch options first; undone if the rest is refused */
	vgpu_gpu_get_dispatch(g, &saved);
	disp = saved;
	vgpu_nl_get_dispatch(tb, &disp);
	ret = vgpu_gpu_set_dispatch(g, &disp, &bad);
	if (ret) {
		if (ret == -EBUSY && !strcmp(bad, "search"))
			NL_SET_ERR_MSG(info->extack,
				       "search: a kernel of the device has a block this search never finds room for");
		else if (ret == -EBUSY)
			NL_SET_ERR_MSG(info->extack,
				       "throttle-sms: not while in throttle mode");
		else
			NL_SET_ERR_MSG(info->extack,
				       "search-group or throttle-sms: out of range for this device");
		goto out;
	}
	ret = vgpu_gpu_set_sched(g, preempt, nwin, windows, &bad);
	if (ret) {
		WARN_ON(vgpu_gpu_set_dispatch(g, &saved, &bad));
		NL_SET_ERR_MSG_ATTR(info->extack, tb[VGPU_A_WINDOWS],
				    "windows: at most one per priority, each 1..2^20 cycles, not increasing");
		goto out;
	}
	if (tb[VGPU_A_POLICY]) {
		ret = vgpu_sched_policy_set_locked(&vdev->sched,
						   nla_data(tb[VGPU_A_POLICY]));
		if (ret) {
			/* its init refused the device: undo the rest */
			WARN_ON(vgpu_gpu_set_sched(g, old_preempt, old_nwin,
						   old_windows, &bad));
			WARN_ON(vgpu_gpu_set_dispatch(g, &saved, &bad));
			NL_SET_ERR_MSG_ATTR(info->extack, tb[VGPU_A_POLICY],
					    "policy refused this device or is going away");
			goto out;
		}
	}
	if (tb[VGPU_A_TIMEOUT])
		WRITE_ONCE(vdev->limits.default_timeout,
			   nla_get_u64(tb[VGPU_A_TIMEOUT]));
	if (tb[VGPU_A_EVENT_BUDGET])
		vdev->obs.budget = nla_get_u32(tb[VGPU_A_EVENT_BUDGET]);
	if (tb[VGPU_A_SYNC_COST])
		vgpu_gpu_set_sync_cost(g, nla_get_u32(tb[VGPU_A_SYNC_COST]));
out:
	/* SUBMIT checks blocks against the search in force */
	WRITE_ONCE(vdev->sched.search, vgpu_sched_search_word(&g->p));
	mutex_unlock(&vdev->sched.lock);
	vgpu_device_put(vdev);
	return ret;
}

static const struct genl_ops vgpu_nl_ops[] = {
	{
		.cmd	= VGPU_CMD_DEV_GET,
		.doit	= vgpu_nl_get_doit,
		.dumpit	= vgpu_nl_get_dumpit,
	},
	{
		.cmd	= VGPU_CMD_STATS_GET,
		.doit	= vgpu_nl_get_doit,
		.dumpit	= vgpu_nl_get_dumpit,
	},
	{
		.cmd	= VGPU_CMD_CONFIG_SET,
		.doit	= vgpu_nl_config_set_doit,
		.flags	= GENL_ADMIN_PERM,
	},
};

static struct genl_family vgpu_nl_family __ro_after_init = {
	.name		= VGPU_FAMILY_NAME,
	.version	= VGPU_FAMILY_VERSION,
	.maxattr	= VGPU_A_MAX,
	.policy		= vgpu_nl_policy,
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= vgpu_nl_ops,
	.n_ops		= ARRAY_SIZE(vgpu_nl_ops),
	.resv_start_op	= 0,	/* strict validation of every command */
	.mcgrps		= vgpu_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(vgpu_nl_mcgrps),
};

/**
 * vgpu_netlink_init() - register the family
 *
 * Return: 0 or the error of genl_register_family().
 */
int vgpu_netlink_init(void)
{
	int ret;

	ret = genl_register_family(&vgpu_nl_family);
	if (!ret)
		vgpu_obs_set_family(&vgpu_nl_family);
	return ret;
}

/**
 * vgpu_netlink_exit() - unregister the family
 */
void vgpu_netlink_exit(void)
{
	vgpu_obs_set_family(NULL);
	genl_unregister_family(&vgpu_nl_family);
}
