// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fence.c - out-fences of submitted kernels: a sync_file per kernel
 * (VGPU_KERNEL_FENCE_OUT, Documentation/uapi.rst "Out-fences").
 *
 * DOC: out-fences
 *
 * A kernel submitted with VGPU_KERNEL_FENCE_OUT gets a &struct dma_fence
 * of its own, handed to userspace as a sync_file file descriptor in
 * &vgpu_submit_desc.fence_fd.  The fence signals when the kernel finishes
 * (vgpu_job_fence_signal(), called where the scheduler retires the job):
 * without an error when it completed, with its QUERY error
 * (dma_fence_set_error()) when it was cancelled (-ECANCELED), timed out
 * (-ETIMEDOUT, F53) or failed (-ELOOP, -EDQUOT, F15; -EPIPE, F14).
 *
 * Each fence has a fence context of its own (seqno 1): kernels of one
 * channel start in order but do not finish in order, and fences of one
 * context must signal in seqno order (sync_file merges keep only the later
 * fence of a context).
 *
 * Lifetime.  The fence points at nothing of the device, the file or the
 * job: its lock and its timeline name live in &struct vgpu_fence, so the
 * fence outlives them all.  What it does reference is this module: its
 * &dma_fence_ops (code and read-only data of the module) are called by the
 * dma-fence core and sync_file for as long as the fence exists, signalled
 * or not (the names by SYNC_IOC_FILE_INFO and the dma_fence tracepoints,
 * the release when the last reference goes).  So every fence holds a
 * reference on the module from its creation until it is freed: rmmod fails
 * ("in use", EWOULDBLOCK) while a fence file descriptor is open anywhere.
 * The reference is dropped by the fence's RCU callback, the last code of
 * the module a fence runs, and module exit waits for those callbacks
 * (vgpu_fence_exit(): rcu_barrier()), so no CPU is still in the module's
 * text when it is freed.
 *
 * Without CONFIG_SYNC_FILE the module builds without fences: GET_INFO
 * does not report VGPU_CAP_FENCE_OUT and the flag is -EOPNOTSUPP.
 */
#include <linux/dma-fence.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

#if IS_ENABLED(CONFIG_SYNC_FILE)

/**
 * struct vgpu_fence - the out-fence of one kernel
 * @base: the fence; its &dma_fence.lock is @lock
 * @lock: protects @base's state and callbacks
 * @timeline: its timeline's name, "vgpu<N>" of the device it came from
 */
struct vgpu_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's */
	char timeline[16];
};

static struct vgpu_fence *to_vgpu_fence(struct dma_fence *f)
{
	return container_of(f, struct vgpu_fence, base);
}

static const char *vgpu_fence_driver_name(struct dma_fence *f)
{
	return "vgpu_dispatch";
}

static const char *vgpu_fence_timeline_name(struct dma_fence *f)
{
	return to_vgpu_fence(f)->timeline;
}

/* The last code of the module a fence runs: free it, unpin the module. */
static void vgpu_fence_free_rcu(struct rcu_head *rcu)
{
	struct dma_fence *f = container_of(rcu, struct dma_fence, rcu);

	kfree(to_vgpu_fence(f));
	module_put(THIS_MODULE);
}

/* The last reference went (dma_fence_release()): free after RCU readers. */
static void vgpu_fence_release(struct dma_fence *f)
{
	call_rcu(&f->rcu, vgpu_fence_free_rcu);
}

static const struct dma_fence_ops vgpu_fence_ops = {
	.get_driver_name	= vgpu_fence_driver_name,
	.get_timeline_name	= vgpu_fence_timeline_name,
	.release		= vgpu_fence_release,
};

/* A new, unsignalled fence for a kernel of @vdev, or NULL. */
static struct dma_fence *vgpu_fence_create(struct vgpu_device *vdev)
{
	struct vgpu_fence *vf = kzalloc(sizeof(*vf), GFP_KERNEL);

	if (!vf)
		return NULL;
	spin_lock_init(&vf->lock);
	strscpy(vf->timeline, vdev->name, sizeof(vf->timeline));
	/* called from an ioctl of the device: the module is pinned already */
	__module_get(THIS_MODULE);
	dma_fence_init(&vf->base, &vgpu_fence_ops, &vf->lock,
		       dma_fence_context_alloc(1), 1);
	return &vf->base;
}

/* Signal @f with @error (0: completed) and drop the reference on it. */
static void vgpu_fence_signal_put(struct dma_fence *f, int error)
{
	if (error)
		dma_fence_set_error(f, error);
	dma_fence_signal(f);
	dma_fence_put(f);
}

/**
 * vgpu_job_fence_signal() - signal the out-fence of a finished kernel
 * @job: the kernel, just finished: its state and error are final
 *
 * Called once per job where the scheduler sees it finished, under
 * &vgpu_sched.lock; a job without a fence is left alone.  The fence
 * carries no error when the kernel completed, else its QUERY error.
 */
void vgpu_job_fence_signal(struct vgpu_job *job)
{
	struct dma_fence *f = job->fence;

	if (!f)
		return;
	job->fence = NULL;
	vgpu_fence_signal_put(f, job->k.state == VGPU_KS_DONE ? 0 :
			      job->error ?: -ECANCELED);
}

/**
 * vgpu_fence_exit() - module exit: wait until no fence runs module code
 *
 * Every fence was freed (each held a module reference), but the RCU
 * callback that dropped the last reference may still be returning.
 */
void vgpu_fence_exit(void)
{
	rcu_barrier();
}

#else /* !CONFIG_SYNC_FILE */

void vgpu_job_fence_signal(struct vgpu_job *job)
{
}

void vgpu_fence_exit(void)
{
}

#endif /* CONFIG_SYNC_FILE */

/**
 * vgpu_fence_desc_check() - the out-fence fields of one SUBMIT descriptor
 * @d: the descriptor, copied in and zero-extended
 * @desc_size: the caller's descriptor size
 *
 * Return: 0; -EINVAL (@d.fence_fd or @d.pad4 non-zero, or
 * VGPU_KERNEL_FENCE_OUT in a descriptor too short to carry the fd);
 * -EOPNOTSUPP (VGPU_KERNEL_FENCE_OUT on a kernel without CONFIG_SYNC_FILE).
 */
int vgpu_fence_desc_check(const struct vgpu_submit_desc *d, u32 desc_size)
{
	if (d->fence_fd || d->pad4)
		return -EINVAL;
	if (!(d->flags & VGPU_KERNEL_FENCE_OUT))
		return 0;
	if (desc_size < VGPU_SUBMIT_DESC_SIZE_VER5)
		return -EINVAL;
	return IS_ENABLED(CONFIG_SYNC_FILE) ? 0 : -EOPNOTSUPP;
}

/**
 * struct vgpu_fence_out - the out-fences of one SUBMIT on their way
 * @n: kernels of the submission
 * @fd: per kernel, the file descriptor reserved for its sync_file, or -1
 * @file: per kernel, the sync_file's file, not yet installed, or NULL
 */
struct vgpu_fence_out {
	u32 n;
	int fd[VGPU_MAX_SUBMIT];
	struct file *file[VGPU_MAX_SUBMIT];
};

/* Where descriptor @i's fence_fd is in the caller's array. */
static s32 __user *vgpu_fence_ufd(u8 __user *udescs, u32 desc_size, u32 i)
{
	return (s32 __user *)(udescs + (size_t)i * desc_size +
			      offsetof(struct vgpu_submit_desc, fence_fd));
}

/**
 * vgpu_fence_out_abort() - take back vgpu_fence_out_prepare()
 * @fo: the out-fences, or NULL (nothing prepared); freed
 * @jobs: the kernels, never handed to the scheduler
 * @udescs: the caller's descriptors, whose fence_fd are set back to 0
 *	(best effort), or NULL when vgpu_fence_out_prepare() wrote none
 * @desc_size: their size
 *
 * The reserved descriptors are released and the fences signalled with
 * -ECANCELED and dropped: nobody has seen them.
 */
void vgpu_fence_out_abort(struct vgpu_fence_out *fo, struct vgpu_job **jobs,
			  u8 __user *udescs, u32 desc_size)
{
	u32 i;

	if (!fo)
		return;
	for (i = 0; i < fo->n; i++) {
		if (fo->file[i])
			fput(fo->file[i]);
		if (fo->fd[i] >= 0) {
			put_unused_fd(fo->fd[i]);
			if (udescs)
				put_user(0, vgpu_fence_ufd(udescs, desc_size, i));
		}
#if IS_ENABLED(CONFIG_SYNC_FILE)
		if (jobs[i]->fence) {
			vgpu_fence_signal_put(jobs[i]->fence, -ECANCELED);
			jobs[i]->fence = NULL;
		}
#endif
	}
	kfree(fo);
}

/**
 * vgpu_fence_out_prepare() - the out-fences of a SUBMIT, before its commit
 * @vf: the file
 * @jobs: the kernels, handles given, not yet handed to the scheduler
 * @n: how many
 * @fenced: bit i set: kernel i asked for a fence (VGPU_KERNEL_FENCE_OUT)
 * @udescs: the caller's descriptors
 * @desc_size: their size
 * @out: the prepared out-fences, NULL when none was asked for; to
 *	vgpu_fence_out_commit() once the kernels are queued, or to
 *	vgpu_fence_out_abort()
 *
 * Creates each fence (@jobs[i]->fence, the scheduler's reference), reserves
 * a file descriptor and makes the sync_file, and writes the descriptor
 * number into the caller's fence_fd.  Nothing is visible to userspace
 * before vgpu_fence_out_commit() installs the files.
 *
 * Return: 0; -ENOMEM; -EMFILE (the process is out of file descriptors);
 * -EFAULT (a fence_fd cannot be written).  On failure nothing is left.
 */
int vgpu_fence_out_prepare(struct vgpu_file *vf, struct vgpu_job **jobs,
			   u32 n, u64 fenced, u8 __user *udescs,
			   u32 desc_size, struct vgpu_fence_out **out)
{
#if IS_ENABLED(CONFIG_SYNC_FILE)
	struct vgpu_fence_out *fo;
	struct sync_file *sf;
	u32 i;
	int ret;

	*out = NULL;
	if (!fenced)
		return 0;
	fo = kmalloc(sizeof(*fo), GFP_KERNEL);
	if (!fo)
		return -ENOMEM;
	fo->n = n;
	for (i = 0; i < n; i++) {
		fo->fd[i] = -1;
		fo->file[i] = NULL;
	}
	for (i = 0; i < n; i++) {
		if (!(fenced & BIT_ULL(i)))
			continue;
		ret = -ENOMEM;
		jobs[i]->fence = vgpu_fence_create(vf->vdev);
		if (!jobs[i]->fence)
			goto err;
		ret = get_unused_fd_flags(O_CLOEXEC);
		if (ret < 0)
			goto err;
		fo->fd[i] = ret;
		ret = -ENOMEM;
		sf = sync_file_create(jobs[i]->fence);
		if (!sf)
			goto err;
		fo->file[i] = sf->file;
		ret = -EFAULT;
		if (put_user(fo->fd[i], vgpu_fence_ufd(udescs, desc_size, i)))
			goto err;
	}
	*out = fo;
	return 0;

err:
	vgpu_fence_out_abort(fo, jobs, udescs, desc_size);
	return ret;
#else
	*out = NULL;
	return fenced ? -EOPNOTSUPP : 0;
#endif
}

/**
 * vgpu_fence_out_commit() - hand the out-fences of a queued SUBMIT over
 * @fo: from vgpu_fence_out_prepare(), or NULL; freed
 *
 * Installs every sync_file in its reserved descriptor: from here on the
 * process owns them, and the SUBMIT cannot be taken back.
 */
void vgpu_fence_out_commit(struct vgpu_fence_out *fo)
{
	u32 i;

	if (!fo)
		return;
	for (i = 0; i < fo->n; i++)
		if (fo->file[i])
			fd_install(fo->fd[i], fo->file[i]);
	kfree(fo);
}
