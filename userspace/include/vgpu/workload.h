/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - workload files of vgpu-sim run and vgpuctl run (F66).
 *
 * A workload is a JSON document (parsed with libjson-c) describing a
 * device (preset or custom configuration, policy, preemption mode,
 * priority windows, ...) and a list of kernels.  The format is described
 * in Documentation/workloads.rst.  Part of libvgpu-workload.
 *
 * Only uapi types and the library's own appear here: the device section is
 * opaque (struct vgpul_device, read through the vgpul_workload_*()
 * calls), so the library's ABI does not follow the layout of the
 * scheduling core's structures.
 */
#ifndef VGPU_WORKLOAD_H
#define VGPU_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/vasm.h>

#define VGPU_WL_NAME_LEN	64

/*
 * Most SMs of a workload's device (the core takes more, the library's
 * workloads do not); @affinity holds a bit for each.
 */
#define VGPUL_WL_MAX_SMS	1024
#define VGPUL_WL_AFF_WORDS	(VGPUL_WL_MAX_SMS / 64)
/* Channels of a workload; tenants are below it too. */
#define VGPUL_WL_MAX_CHANNELS	256
/* A policy name is shorter (vgpul_workload_set_policy()). */
#define VGPUL_WL_POLICY_LEN	16
/* Arrivals (and the offsets that shift them) stay at or below 2^48 cycles. */
#define VGPUL_WL_MAX_ARRIVAL	(1ULL << 48)

/* struct vgpu_wl_kernel.flags and struct vgpu_wl_template.flags */
#define VGPUL_KF_INDEPENDENT	(1u << 0)	/* warps may be split (F24) */
#define VGPUL_KF_SEQUENTIAL	(1u << 1)	/* one block in flight (F26) */
#define VGPUL_KF_THROTTLE	(1u << 2)	/* throttle mode only (F26) */
#define VGPUL_KF_HEAD		(1u << 3)	/* head of its level (F16) */
#define VGPUL_KF_QUEUE		(1u << 4)	/* work-item queue (F14) */

/**
 * struct vgpu_wl_template - a child kernel a LAUNCH of the kernel (or of
 *	its children) may start (F15)
 * @grid: blocks
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block, bytes
 * @flags: VGPUL_KF_INDEPENDENT, VGPUL_KF_SEQUENTIAL
 * @prog: the assembled, validated program
 */
struct vgpu_wl_template {
	uint32_t grid;
	uint32_t threads;
	uint32_t regs;
	uint32_t smem;
	uint32_t flags;
	struct vgpu_vasm_prog prog;
};

/**
 * struct vgpu_wl_push - work items pushed to a queue kernel (F14)
 * @at: cycle at which they arrive
 * @items: how many, 0..queue_cap (0 only with @close)
 * @close: the last push: the queue is closed
 */
struct vgpu_wl_push {
	uint64_t at;
	uint32_t items;
	bool close;
};

/**
 * vgpul_wl_push_at() - arrival of a push in a run
 * @at: the push's cycle in the workload
 * @arrival: its kernel's arrival in the workload
 * @alone: the kernel runs alone, arriving at cycle 0 (F67)
 *
 * Return: @at, or for an alone run the same delay after the kernel's
 * arrival (0 if the push comes before it).
 */
static inline uint64_t vgpul_wl_push_at(uint64_t at, uint64_t arrival,
				       bool alone)
{
	if (!alone)
		return at;
	return at > arrival ? at - arrival : 0;
}

/**
 * struct vgpu_wl_kernel - one kernel of a workload
 * @name: unique name, reported in results
 * @channel: channel number
 * @tenant: tenant number (default 0): all kernels of a channel have the
 *	same; vgpuctl run gives each tenant its own open file
 * @prio: priority (0 highest)
 * @arrival: arrival cycle
 * @grid: blocks
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block, bytes
 * @sregs: scalar registers per warp (a device with a scalar file)
 * @flags: VGPUL_KF_*
 * @quota: launch quota, 0 = none
 * @deadline: relative deadline in cycles after @arrival, 0 = none
 * @prio_wid_mod: warp w competes for mutexes at priority + w % this (F35)
 * @n_warp_prio: 0, or the warps of a block: @warp_prio is given
 * @warp_prio: warp w competes at priority + warp_prio[w] (F35, seed 003:
 *	the host sets each warp's level from its task's real-time level)
 * @affinity: SM mask, all zero = every SM
 * @cancel_at: cycle at which the runner cancels it, 0 = never
 * @prog: the assembled, validated program
 * @templates: child templates its LAUNCHes name (F15), @n_templates
 * @n_templates: 0..VGPU_MAX_TEMPLATES
 * @child_budget: children its tree may launch, 0..VGPU_MAX_CHILDREN
 * @queue_n: with VGPUL_KF_QUEUE, items per block (F14); @grid is 0
 * @queue_cap: most items waiting
 * @queue_timeout: coalescing timeout in cycles
 * @pushes: its pushes in file order, @n_pushes (malloc'd)
 * @n_pushes: their number
 * @records: with VGPUL_KF_QUEUE, PUSH instructions whose items may wait at
 *	once ("queue": {"records": R}, F14)
 * @push_to: 1 + the index of the earlier queue kernel its PUSH
 *	instructions feed ("push_to": NAME, F14), 0 for none
 */
struct vgpu_wl_kernel {
	char name[VGPU_WL_NAME_LEN];
	uint32_t channel;
	uint32_t tenant;
	uint32_t prio;
	uint64_t arrival;
	uint32_t grid;
	uint32_t threads;
	uint32_t regs;
	uint32_t smem;
	uint32_t sregs;
	uint32_t flags;
	uint32_t quota;
	uint32_t prio_wid_mod;
	uint32_t n_warp_prio;
	uint8_t warp_prio[64];
	uint64_t deadline;
	uint64_t affinity[VGPUL_WL_AFF_WORDS];
	uint64_t cancel_at;
	struct vgpu_vasm_prog prog;
	struct vgpu_wl_template templates[VGPU_MAX_TEMPLATES];
	uint32_t n_templates;
	uint32_t child_budget;
	uint32_t queue_n;
	uint32_t queue_cap;
	uint64_t queue_timeout;
	struct vgpu_wl_push *pushes;
	uint32_t n_pushes;
	uint32_t records;
	uint32_t push_to;
};

struct vgpul_device;

/**
 * struct vgpu_workload - a parsed workload file
 * @dev: its device section: configuration, scheduling parameters, SM
 *	order (opaque; vgpul_workload_new_device() and the other
 *	vgpul_workload_*() calls read and change it)
 * @kernels: @nkernels kernels (malloc'd)
 * @nkernels: number of kernels
 */
struct vgpu_workload {
	struct vgpul_device *dev;
	struct vgpu_wl_kernel *kernels;
	uint32_t nkernels;
};

/**
 * vgpul_workload_load() - read and check a workload file
 * @path: the file
 * @wl: result (free with vgpul_workload_free(), also after an error)
 * @err: first error as "FILE: POSITION: FIELD: message"; POSITION is
 *	LINE:COLUMN for JSON syntax errors and a JSON path such as
 *	kernels[2] for the others
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for a bad file, -ENOMEM, or a negative errno of a
 * failed read.
 */
int vgpul_workload_load(const char *path, struct vgpu_workload *wl,
		       char *err, size_t errlen);

/**
 * vgpul_workload_free() - release a workload
 * @wl: the workload (may be zeroed)
 */
void vgpul_workload_free(struct vgpu_workload *wl);

/**
 * vgpul_workload_num_prios() - priority levels of a workload's device
 * @wl: the workload
 *
 * Return: the levels (priorities 0 .. levels - 1).
 */
uint32_t vgpul_workload_num_prios(const struct vgpu_workload *wl);

/**
 * vgpul_workload_set_policy() - the scheduling policy the workload runs
 *	under (device "policy")
 * @wl: the workload
 * @name: a policy name (built in, or registered by a policy module)
 *
 * The workload's own SM choice, when it names a built-in one, stays the
 * device's SM choice (device "sm_choice", new_device sm_choice=): a
 * policy without one of its own runs with it.
 *
 * Return: 0, or -ENAMETOOLONG.
 */
int vgpul_workload_set_policy(struct vgpu_workload *wl, const char *name);

/**
 * vgpul_workload_set_preempt() - the preemption mode (device "preempt")
 * @wl: the workload
 * @mode: a vgpul_preempt_parse() value
 *
 * Return: 0, or -EINVAL.
 */
int vgpul_workload_set_preempt(struct vgpu_workload *wl, int mode);

/**
 * vgpul_workload_set_pack() - the block packing (device "pack")
 * @wl: the workload
 * @mode: a vgpul_pack_parse() value
 *
 * Return: 0, or -EINVAL.
 */
int vgpul_workload_set_pack(struct vgpu_workload *wl, int mode);

/**
 * vgpul_workload_new_device() - the workload's device as the options of
 *	the module's new_device (Documentation/uapi.rst, /sys/bus/vgpu)
 * @wl: the workload
 * @buf: "PRESET [num_sms=N] policy=... preempt=... pack=... epoch=...
 *	g_max=... task_slots=... switch_cost=... channels=... windows=...
 *	[save_slots=N] [sync_cost=N]"
 * @len: size of @buf
 * @err: why the device cannot be made that way
 * @errlen: its size
 *
 * Return: 0; -EINVAL when the device section is not a preset with an
 * optional num_sms, or sets scheduling parameters new_device cannot
 * express (@err says which); -ENOSPC when @buf is too small.
 */
int vgpul_workload_new_device(const struct vgpu_workload *wl, char *buf,
			      size_t len, char *err, size_t errlen);

/**
 * vgpul_workload_tenants() - how many tenants a workload has
 * @wl: the workload
 *
 * Return: 1 + the largest tenant number of its kernels (0 without any).
 */
uint32_t vgpul_workload_tenants(const struct vgpu_workload *wl);

/**
 * vgpul_workload_shape() - set a tenant's priority and delay its arrivals
 * @wl: the workload
 * @tenant: the tenant
 * @prio: the priority of each of its kernels, or -1 to keep theirs
 * @offset: cycles added to the arrival of each of its kernels (and of
 *	their queue pushes and cancels)
 * @err: error message
 * @errlen: its size
 *
 * The same as `vgpu-sim import --priority TENANT=P --offset
 * TENANT=CYCLES` gives an imported recording (Documentation/workloads.rst).
 *
 * Return: 0, or -EINVAL (a priority the device does not have, an arrival
 * beyond 2^48 cycles) with nothing changed.
 */
int vgpul_workload_shape(struct vgpu_workload *wl, uint32_t tenant,
			 int prio, uint64_t offset, char *err, size_t errlen);

/**
 * vgpul_preempt_name() - name of a preemption mode
 * @mode: VGPU_PREEMPT_*
 *
 * Return: "drain", "warp", "switch" or "?".
 */
const char *vgpul_preempt_name(unsigned int mode);

/**
 * vgpul_preempt_parse() - preemption mode by name
 * @name: "drain", "warp" or "switch"
 *
 * Return: VGPU_PREEMPT_*, or -1.
 */
int vgpul_preempt_parse(const char *name);

/**
 * vgpul_pack_name() - name of a device's block packing (device "pack")
 * @mode: VGPU_PACK_*
 *
 * Return: "auto", "block", "sm" or "?".
 */
const char *vgpul_pack_name(unsigned int mode);

/**
 * vgpul_pack_parse() - block packing by name
 * @name: "auto", "block" or "sm"
 *
 * Return: VGPU_PACK_*, or -1.
 */
int vgpul_pack_parse(const char *name);

/**
 * vgpul_search_name() - name of a device's largest-run search mode
 * @mode: VGPU_SEARCH_* (device "search", F40-F42)
 *
 * Return: "exact", "grouped", "sampled", "mux" or "?".
 */
const char *vgpul_search_name(unsigned int mode);

/**
 * vgpul_search_parse() - largest-run search mode by name
 * @name: "exact", "grouped", "sampled" or "mux"
 *
 * Return: VGPU_SEARCH_*, or -1.
 */
int vgpul_search_parse(const char *name);

/*
 * Functional workloads (seed 004, Documentation/workloads.rst,
 * "Buffers"): the buffers of a workload, the ones each kernel names, and
 * the check of their expected contents after a run.  These calls read the
 * opaque device section, so struct vgpu_workload and struct vgpu_wl_kernel
 * keep their layout (LIBVGPU_WORKLOAD_1.1).
 */

/* Buffers of a workload; a kernel names at most VGPUL_WL_MAX_SLOTS. */
#define VGPUL_WL_MAX_BUFFERS	256
#define VGPUL_WL_MAX_SLOTS	16
/* Bytes of all the buffers of a workload together (and of one). */
#define VGPUL_WL_MAX_BUFFER_BYTES	(256ULL << 20)

/* vgpul_workload_buffer() flags: the uapi's VGPU_BO_* */
#define VGPUL_BUF_READ_ONLY	(1u << 0)	/* kernels load, never store */
#define VGPUL_BUF_CONSTANT	(1u << 1)	/* constant memory (LDC) */

/**
 * vgpul_workload_num_buffers() - buffers of a workload ("buffers")
 * @wl: the workload
 *
 * Return: their number, 0 for a workload without buffers.
 */
uint32_t vgpul_workload_num_buffers(const struct vgpu_workload *wl);

/**
 * vgpul_workload_buffer() - one buffer of a workload
 * @wl: the workload
 * @i: its index, below vgpul_workload_num_buffers()
 * @size: if not NULL, its size in bytes (a multiple of 4)
 * @flags: if not NULL, its VGPUL_BUF_* flags
 *
 * Return: its name, NULL for a bad @i.
 */
const char *vgpul_workload_buffer(const struct vgpu_workload *wl, uint32_t i,
				  uint64_t *size, uint32_t *flags);

/**
 * vgpul_workload_buffer_fill() - a buffer's contents before a run ("init")
 * @wl: the workload
 * @i: the buffer
 * @mem: its size in bytes, filled with its initial words
 *
 * Return: 0, or -EINVAL for a bad @i.
 */
int vgpul_workload_buffer_fill(const struct vgpu_workload *wl, uint32_t i,
			       void *mem);

/**
 * vgpul_workload_kernel_functional() - does a kernel run a functional
 *	program (one with a functional instruction, isa.rst)?
 * @wl: the workload
 * @k: the kernel's index
 *
 * Return: true for a functional program.
 */
bool vgpul_workload_kernel_functional(const struct vgpu_workload *wl,
				      uint32_t k);

/**
 * vgpul_workload_kernel_buffers() - the buffers a kernel names ("buffers")
 * @wl: the workload
 * @k: the kernel's index
 * @buf: VGPUL_WL_MAX_SLOTS entries: buffer index of slot s in @buf[s]
 * @private_bytes: if not NULL, its private memory per thread ("private")
 *
 * Return: the slots it names (slot s is its s-th name), 0 for none.
 */
uint32_t vgpul_workload_kernel_buffers(const struct vgpu_workload *wl,
				       uint32_t k, uint32_t *buf,
				       uint32_t *private_bytes);

/**
 * vgpul_workload_kernel_budget() - a functional kernel's instruction budget
 * @wl: the workload
 * @k: the kernel's index
 *
 * Return: the functional instructions each warp of the kernel may execute
 * ("insn_budget"; the warp that would execute one more fails the kernel
 * with -EXFULL), 0 for no bound.
 */
uint64_t vgpul_workload_kernel_budget(const struct vgpu_workload *wl,
				      uint32_t k);

/**
 * vgpul_workload_check() - check a run's buffers against "expect"
 * @wl: the workload
 * @mem: the buffers after the run, vgpul_workload_num_buffers() of them
 * @kerr: per kernel, the negative errno it failed with, 0 when it did
 *	not fail; NULL: none failed
 * @out: where the lines go: "kernel NAME: failed: ENAME (what)" per failed
 *	kernel, then per buffer with an expectation "buffer NAME: ok" or
 *	"buffer NAME: MISMATCH at word I: got X want Y (N of M words differ)"
 *
 * A reference ("reference": NAME) is computed on the host from the
 * initial contents of its inputs.
 *
 * Return: the buffers that differ from their expectation (0: all as
 * expected), -EINVAL when a reference cannot apply to the buffers
 * (a line says why), or -ENOMEM.
 */
int vgpul_workload_check(const struct vgpu_workload *wl, void *const *mem,
			 const int *kerr, FILE *out);

/**
 * vgpul_errno_name() - the name of an errno a kernel failed with
 * @err: the errno (its sign is ignored)
 *
 * Return: "EFAULT", ... ("E?" when unknown).
 */
const char *vgpul_errno_name(int err);

#endif /* VGPU_WORKLOAD_H */
