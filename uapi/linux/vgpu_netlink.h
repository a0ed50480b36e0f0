/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_netlink.h - the generic netlink family "vgpu" (F63).
 *
 * Documentation/netlink/specs/vgpu.yaml describes the same family; the
 * names and values below are checked against it by
 * scripts/check-netlink-spec (part of make check).  See
 * Documentation/netlink.rst.
 */
#ifndef _UAPI_LINUX_VGPU_NETLINK_H
#define _UAPI_LINUX_VGPU_NETLINK_H

#define VGPU_FAMILY_NAME	"vgpu"
#define VGPU_FAMILY_VERSION	1
#define VGPU_MCGRP_EVENTS	"events"
/* Lock grants of the arbiter (F35), a group of their own: warp-level. */
#define VGPU_MCGRP_LOCKS	"locks"

/* Preemption modes (VGPU_A_PREEMPT), as in new_device's preempt= key. */
enum vgpu_preempt_mode {
	VGPU_PREEMPT_MODE_DRAIN,
	VGPU_PREEMPT_MODE_WARP,
	VGPU_PREEMPT_MODE_SWITCH,
};

/* Blocks one decision places (VGPU_A_PACK), as new_device's pack= key. */
enum vgpu_pack_mode {
	VGPU_PACK_MODE_AUTO,	/* block under rr and avail, else sm */
	VGPU_PACK_MODE_BLOCK,	/* one block per decision (seed 002) */
	VGPU_PACK_MODE_SM,	/* as many as fit the SM (seed 000, F23 (a)) */
};

/* Largest free run search (VGPU_A_SEARCH), as new_device's search= key. */
enum vgpu_search_mode {
	VGPU_SEARCH_MODE_EXACT,		/* F40 */
	VGPU_SEARCH_MODE_GROUPED,	/* F41: whole groups of search-group */
	VGPU_SEARCH_MODE_SAMPLED,	/* F42: powers of two */
	VGPU_SEARCH_MODE_MUX,		/* F43: time-multiplexed, exact */
};

/* Event types of the "events" multicast group (VGPU_A_EV_TYPE). */
enum vgpu_nl_event {
	VGPU_EVENT_SUBMIT = 1,
	VGPU_EVENT_DISPATCH,
	VGPU_EVENT_PREEMPT,
	VGPU_EVENT_COMPLETE,
	VGPU_EVENT_HANG,
	VGPU_EVENT_FAIL,	/* a LAUNCH beyond a limit failed it (F15) */
	VGPU_EVENT_POLICY_ERROR, /* the core refused answers of the policy */
	VGPU_EVENT_POLICY_EXIT,	/* the watchdog ejected the policy */
	VGPU_EVENT_MUTEX,	/* a lock granted by the arbiter: "locks" */
};

/* Why a policy was ejected (VGPU_A_EV_REASON of VGPU_EVENT_POLICY_EXIT). */
enum vgpu_policy_exit_reason {
	VGPU_POLICY_EXIT_REASON_NONE,
	VGPU_POLICY_EXIT_REASON_STALL,	/* it held work back, nothing ran */
	VGPU_POLICY_EXIT_REASON_ERRORS,	/* its answers were refused in a row */
};

/* Top-level attributes. */
enum {
	VGPU_A_UNSPEC,
	VGPU_A_PAD,
	VGPU_A_DEV_INDEX,
	VGPU_A_DEV_NAME,
	VGPU_A_PRESET,
	VGPU_A_NUM_SMS,
	VGPU_A_NUM_PRIOS,
	VGPU_A_POLICY,
	VGPU_A_PREEMPT,
	VGPU_A_WINDOWS,
	VGPU_A_EPOCH,
	VGPU_A_TIMEOUT,
	VGPU_A_EVENT_BUDGET,
	VGPU_A_CLOCK,
	VGPU_A_FREQ_KHZ,
	VGPU_A_TASK_SLOTS,
	VGPU_A_STATS,
	VGPU_A_SM_STATS,
	VGPU_A_CHANNEL_STATS,
	VGPU_A_PRIO_STATS,
	VGPU_A_EV_TYPE,
	VGPU_A_EV_SEQ,
	VGPU_A_EV_CYCLE,
	VGPU_A_EV_KERNEL,
	VGPU_A_EV_BLOCK,
	VGPU_A_EV_SM,
	VGPU_A_EV_PRIO,
	VGPU_A_SYNC_COST,
	VGPU_A_PACK,
	VGPU_A_SEARCH,
	VGPU_A_SEARCH_GROUP,
	VGPU_A_SEARCH_LATENCY,
	VGPU_A_THROTTLE_SMS,
	VGPU_A_THROTTLE,
	VGPU_A_COMBO,
	VGPU_A_SREGS_PER_SUBPART,
	VGPU_A_SREG_UNIT,
	VGPU_A_EV_REASON,
	VGPU_A_EV_OP,
	VGPU_A_EV_WARP,
	VGPU_A_EV_MUTEX,

	__VGPU_A_MAX,
	VGPU_A_MAX = (__VGPU_A_MAX - 1)
};

/* Counters, nested in VGPU_A_STATS / _SM_STATS / _CHANNEL_STATS / _PRIO_STATS. */
enum {
	VGPU_A_STATS_UNSPEC,
	VGPU_A_STATS_PAD,
	VGPU_A_STATS_ID,
	VGPU_A_STATS_PRIO,
	VGPU_A_STATS_NOW,
	VGPU_A_STATS_SUBMITTED,
	VGPU_A_STATS_COMPLETED,
	VGPU_A_STATS_CANCELLED,
	VGPU_A_STATS_HANGS,
	VGPU_A_STATS_EPOCHS,
	VGPU_A_STATS_DECISIONS,
	VGPU_A_STATS_BLOCKS,
	VGPU_A_STATS_PREEMPTIONS,
	VGPU_A_STATS_RESUMES,
	VGPU_A_STATS_SPLITS,
	VGPU_A_STATS_EVICTIONS,
	VGPU_A_STATS_FAILED_ROUNDS,
	VGPU_A_STATS_EVENTS,
	VGPU_A_STATS_EVENTS_SENT,
	VGPU_A_STATS_EVENTS_DROPPED,
	VGPU_A_STATS_ISSUED,
	VGPU_A_STATS_WARPS_DONE,
	VGPU_A_STATS_BLOCKS_DONE,
	VGPU_A_STATS_BLOCKS_CANCELLED,
	VGPU_A_STATS_CHILDREN,
	VGPU_A_STATS_SUSPENSIONS,
	VGPU_A_STATS_FAILED,
	VGPU_A_STATS_SYNCS,
	VGPU_A_STATS_QUEUE_ITEMS,
	VGPU_A_STATS_QUEUE_BLOCKS,
	VGPU_A_STATS_QUEUE_PARTIAL,
	VGPU_A_STATS_POLICY_ERRORS,
	VGPU_A_STATS_DEADLINE_MISSES,

	__VGPU_A_STATS_MAX,
	VGPU_A_STATS_MAX = (__VGPU_A_STATS_MAX - 1)
};

/* Commands. */
enum {
	VGPU_CMD_UNSPEC,
	VGPU_CMD_DEV_GET,
	VGPU_CMD_STATS_GET,
	VGPU_CMD_CONFIG_SET,
	VGPU_CMD_EVENT,
	VGPU_CMD_LOCK_EVENT,

	__VGPU_CMD_MAX,
	VGPU_CMD_MAX = (__VGPU_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_VGPU_NETLINK_H */
