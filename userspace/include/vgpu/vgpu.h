/* SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0 */
/*
 * vgpu.h - libvgpu, the C library of vgpu-dispatch (F66).
 *
 * Every function returns 0 (or a non-negative value) on success and a
 * negative errno on failure; vgpul_strerror() turns it into a message.
 * Documentation/man/libvgpu.3 describes the whole interface.
 *
 *  - devices: vgpul_dev_open(), vgpul_get_info(), the ioctl wrappers
 *    (channels, submit, wait, query, cancel, gate), vgpul_poll() and
 *    vgpul_poll_devs(), out-fences (vgpul_submit_fence(),
 *    vgpul_fence_wait()), buffer objects (vgpul_bo_create(),
 *    vgpul_bo_map());
 *  - device instances: vgpul_dev_add(), vgpul_dev_del() (/sys/bus/vgpu);
 *  - the generic netlink family "vgpu" (libnl-3, libnl-genl-3):
 *    vgpul_nl_open(), device list, statistics, configuration and events.
 */
#ifndef VGPU_VGPU_H
#define VGPU_VGPU_H

#include <stddef.h>
#include <stdint.h>
#include <linux/vgpu_dispatch.h>
#include <linux/vgpu_netlink.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct vgpu_dev - an open /dev/vgpuN
 * @fd: the file descriptor
 * @index: N
 */
struct vgpu_dev {
	int fd;
	unsigned int index;
};

int vgpul_ioctl(int fd, unsigned long cmd, void *arg);
int vgpul_dev_open(unsigned int index, struct vgpu_dev *dev);
void vgpul_dev_close(struct vgpu_dev *dev);
int vgpul_get_info(struct vgpu_dev *dev, struct vgpu_info *info);
const char *vgpul_strerror(int err);

/* Channels, kernels and the gate (one wrapper per ioctl). */
int vgpul_channel_create(struct vgpu_dev *dev, unsigned int priority,
			uint64_t timeout_cycles, uint32_t *handle);
int vgpul_channel_destroy(struct vgpu_dev *dev, uint32_t handle);
int vgpul_submit(struct vgpu_dev *dev, struct vgpu_submit_desc *desc);
int vgpul_submit_batch(struct vgpu_dev *dev, struct vgpu_submit_desc *descs,
		      unsigned int count);
int64_t vgpul_deadline_ns(int64_t rel_ns);
int vgpul_wait(struct vgpu_dev *dev, const uint32_t *handles,
	      unsigned int count, unsigned int flags, int64_t deadline_ns,
	      unsigned int *first);
int vgpul_query(struct vgpu_dev *dev, uint32_t handle, unsigned int flags,
	       struct vgpu_kernel_query *q);
int vgpul_cancel(struct vgpu_dev *dev, uint32_t handle);
int vgpul_gate(struct vgpu_dev *dev, unsigned int op, uint64_t *cycle);
int vgpul_queue_push(struct vgpu_dev *dev, uint32_t handle, uint32_t items,
		    unsigned int flags, uint64_t arrival, uint64_t *cycle);
int vgpul_poll(struct vgpu_dev *dev, int timeout_ms);

/*
 * Waiting for many kernels: poll() on many devices, and out-fences
 * (VGPU_CAP_FENCE_OUT): a sync_file per kernel, signalled when it finishes.
 */
int vgpul_poll_devs(struct vgpu_dev *devs, unsigned int count, int timeout_ms,
		    unsigned char *ready);
int vgpul_submit_fence(struct vgpu_dev *dev, struct vgpu_submit_desc *desc,
		       int *fence_fd);
int vgpul_fence_status(int fence_fd);
int vgpul_fence_wait(int fence_fd, int timeout_ms);

/*
 * Buffer objects (VGPU_CAP_BUFFERS): memory a kernel names at SUBMIT
 * (vgpu_submit_desc.buffers), mapped into the process.
 */
int vgpul_bo_create(struct vgpu_dev *dev, uint64_t size, unsigned int flags,
		    uint32_t *handle, uint64_t *mmap_offset);
int vgpul_bo_destroy(struct vgpu_dev *dev, uint32_t handle);
int vgpul_bo_map(struct vgpu_dev *dev, uint64_t mmap_offset, size_t size,
		 void **addr);
int vgpul_bo_unmap(void *addr, size_t size);

/* Device instances (/sys/bus/vgpu/new_device, del_device; root only). */
int vgpul_dev_add(unsigned int index, const char *options);
int vgpul_dev_del(unsigned int index);
int vgpul_dev_exists(unsigned int index);

/* The generic netlink family "vgpu" (uapi/linux/vgpu_netlink.h). */
struct vgpu_nl;

#define VGPU_NL_MAX_WINDOWS	16
#define VGPU_NL_NAME_LEN	32

/*
 * The dispatch options of a device: index in
 * struct vgpu_nl_dev.opt and struct vgpu_nl_config.opt, and the bit
 * VGPU_NL_SET_OPT(i) of struct vgpu_nl_config.set.  Pack and search take
 * enum vgpu_pack_mode and enum vgpu_search_mode.
 */
#define VGPU_NL_OPT_PACK		0
#define VGPU_NL_OPT_SEARCH		1
#define VGPU_NL_OPT_SEARCH_GROUP	2
#define VGPU_NL_OPT_SEARCH_LATENCY	3
#define VGPU_NL_OPT_THROTTLE_SMS	4
#define VGPU_NL_OPT_COMBO		5
#define VGPU_NL_NUM_OPTS		6

/**
 * struct vgpu_nl_dev - one device as DEV_GET reports it
 * @index: N of /dev/vgpuN
 * @name: instance name
 * @preset: preset name ("small", "a100", "h100", "custom")
 * @num_sms: SMs
 * @num_prios: priority levels
 * @policy: SM-selection policy name
 * @preempt: enum vgpu_preempt_mode
 * @num_windows: entries in @windows (0: windows off)
 * @windows: priority window lengths in cycles
 * @epoch: cycles per epoch
 * @timeout: default hang timeout of new channels in cycles
 * @event_budget: events per epoch on the "events" group
 * @clock: clock mode (0 free-running, 1 paced)
 * @freq_khz: virtual frequency of the paced clock
 * @task_slots: task table slots
 * @sync_cost: state sync cost in cycles (F17), 0 = off
 * @opt: the dispatch options, indexed by VGPU_NL_OPT_*
 * @throttle: 1 while throttle mode is entered or in force (F26)
 * @sregs_per_subpart: scalar registers per sub-partition, 0 = no file
 * @sreg_unit: their allocation unit
 */
struct vgpu_nl_dev {
	uint32_t index;
	char name[VGPU_NL_NAME_LEN];
	char preset[VGPU_NL_NAME_LEN];
	uint32_t num_sms;
	uint32_t num_prios;
	char policy[VGPU_NL_NAME_LEN];
	uint32_t preempt;
	uint32_t num_windows;
	uint32_t windows[VGPU_NL_MAX_WINDOWS];
	uint32_t epoch;
	uint64_t timeout;
	uint32_t event_budget;
	uint32_t clock;
	uint32_t freq_khz;
	uint32_t task_slots;
	uint32_t sync_cost;
	uint32_t opt[VGPU_NL_NUM_OPTS];
	uint32_t throttle;
	uint32_t sregs_per_subpart;
	uint32_t sreg_unit;
};

/**
 * struct vgpu_nl_counters - one nest of counters (VGPU_A_STATS_*)
 * @v: value of each counter, indexed by VGPU_A_STATS_*
 * @present: bit i set when counter i was in the message
 */
struct vgpu_nl_counters {
	uint64_t v[VGPU_A_STATS_MAX + 1];
	uint64_t present;
};

/**
 * struct vgpu_nl_stats - STATS_GET of one device
 * @dev: device counters
 * @sm: per-SM counters (@n_sm), ordered by ID
 * @n_sm: entries in @sm
 * @prio: per-priority counters (@n_prio)
 * @n_prio: entries in @prio
 * @chan: per-channel counters (@n_chan), channels in use
 * @n_chan: entries in @chan
 */
struct vgpu_nl_stats {
	struct vgpu_nl_counters dev;
	struct vgpu_nl_counters *sm;
	unsigned int n_sm;
	struct vgpu_nl_counters *prio;
	unsigned int n_prio;
	struct vgpu_nl_counters *chan;
	unsigned int n_chan;
};

/* struct vgpu_nl_config.set: which fields CONFIG_SET changes. */
#define VGPU_NL_SET_POLICY	(1u << 0)
#define VGPU_NL_SET_PREEMPT	(1u << 1)
#define VGPU_NL_SET_WINDOWS	(1u << 2)
#define VGPU_NL_SET_TIMEOUT	(1u << 3)
#define VGPU_NL_SET_BUDGET	(1u << 4)
#define VGPU_NL_SET_SYNC_COST	(1u << 5)
#define VGPU_NL_SET_OPT(i)	(1u << (8 + (i)))	/* VGPU_NL_OPT_* */

/**
 * struct vgpu_nl_config - a CONFIG_SET request
 * @set: VGPU_NL_SET_* of the fields to change
 * @policy: SM-selection policy name
 * @preempt: enum vgpu_preempt_mode
 * @num_windows: entries in @windows (0 turns windows off)
 * @windows: window lengths, non-increasing
 * @timeout: default hang timeout in cycles
 * @event_budget: events per epoch
 * @sync_cost: state sync cost in cycles (F17)
 * @opt: dispatch options, VGPU_NL_OPT_* (with VGPU_NL_SET_OPT(i))
 */
struct vgpu_nl_config {
	unsigned int set;
	char policy[VGPU_NL_NAME_LEN];
	uint32_t preempt;
	uint32_t num_windows;
	uint32_t windows[VGPU_NL_MAX_WINDOWS];
	uint64_t timeout;
	uint32_t event_budget;
	uint32_t sync_cost;
	uint32_t opt[VGPU_NL_NUM_OPTS];
};

/**
 * struct vgpu_nl_ev - one message of the "events" group
 * @dev: device index
 * @type: enum vgpu_nl_event
 * @seq: per-device sequence number (gaps: events dropped)
 * @cycle: virtual cycle
 * @kernel: core kernel id
 * @block: block index, or UINT32_MAX
 * @sm: SM, or UINT32_MAX
 * @prio: priority, or UINT32_MAX
 */
struct vgpu_nl_ev {
	uint32_t dev;
	uint32_t type;
	uint64_t seq;
	uint64_t cycle;
	uint32_t kernel;
	uint32_t block;
	uint32_t sm;
	uint32_t prio;
};

typedef int (*vgpu_nl_event_fn)(const struct vgpu_nl_ev *ev, void *arg);

/**
 * struct vgpu_nl_lock_ev - one message of the "locks" group: a lock the
 *	arbiter granted to a warp that waited for it (F35)
 * @ev: what every event carries: @ev.type is VGPU_EVENT_MUTEX, @ev.seq
 *	the group's own per-device sequence (gaps: grants dropped), @ev.cycle
 *	the grant's, @ev.prio the kernel's priority
 * @warp: the warp granted the lock, its index in the block
 * @mutex: the lock
 */
struct vgpu_nl_lock_ev {
	struct vgpu_nl_ev ev;
	uint32_t warp;
	uint32_t mutex;
};

typedef int (*vgpu_nl_lock_fn)(const struct vgpu_nl_lock_ev *ev, void *arg);

int vgpul_nl_open(struct vgpu_nl **nlp);
void vgpul_nl_close(struct vgpu_nl *nl);
int vgpul_nl_dev_get(struct vgpu_nl *nl, unsigned int index,
		    struct vgpu_nl_dev *dev);
int vgpul_nl_dev_list(struct vgpu_nl *nl, struct vgpu_nl_dev *devs,
		     unsigned int max);
int vgpul_nl_stats_get(struct vgpu_nl *nl, unsigned int index,
		      struct vgpu_nl_stats *st);
void vgpul_nl_stats_free(struct vgpu_nl_stats *st);
int vgpul_nl_config_set(struct vgpu_nl *nl, unsigned int index,
		       const struct vgpu_nl_config *cfg);
int vgpul_nl_subscribe(struct vgpu_nl *nl, vgpu_nl_event_fn fn, void *arg);
int vgpul_nl_subscribe_locks(struct vgpu_nl *nl, vgpu_nl_lock_fn fn,
			     void *arg);
int vgpul_nl_event_fd(struct vgpu_nl *nl);
int vgpul_nl_recv_events(struct vgpu_nl *nl, int timeout_ms);
uint64_t vgpul_nl_overruns(struct vgpu_nl *nl);
const char *vgpul_nl_stat_name(unsigned int attr);
const char *vgpul_nl_event_name(unsigned int type);
const char *vgpul_nl_preempt_name(unsigned int mode);
int vgpul_nl_preempt_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_VGPU_H */
