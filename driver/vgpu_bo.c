// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bo.c - buffer objects: the memory functional kernels compute on, the
 * ioctls BO_CREATE and BO_DESTROY, mmap() of the device file, and the
 * buffers a kernel names at SUBMIT (Documentation/uapi.rst, "Buffer
 * objects").
 */

/**
 * DOC: buffer objects
 *
 * A buffer is vmalloc_user() memory (zeroed, page aligned, mappable with
 * remap_vmalloc_range()) owned by the open file that created it, under a
 * handle of the file's table &vgpu_file.bos.  Its &struct kref is held by
 * the handle, by every VMA mapping it (vm_ops open and close) and by every
 * kernel that names it, from SUBMIT until the kernel's handle is released;
 * the memory is freed when the last reference goes.  So BO_DESTROY only
 * takes the handle away: a mapping still reads and writes the memory, and
 * a finished kernel's buffers stay as they were until its handle goes.
 *
 * Two counts bound what a file holds: its buffers and their bytes (each
 * rounded up to pages), charged at BO_CREATE and uncharged when the memory
 * is freed, so that destroying a mapped buffer does not let a file pin
 * more than its limit (module parameters max_buffers_per_file and
 * max_buffer_bytes_per_file, reported by GET_INFO).
 *
 * A kernel names up to VGPU_MAX_BUFFER_SLOTS buffers (&vgpu_job.bo) and
 * counts in each one's &vgpu_bo.active from SUBMIT until it finishes
 * (vgpu_job_bos_idle(), called where the scheduler retires the job):
 * meanwhile BO_DESTROY is -EBUSY, so a running kernel never loses a buffer
 * it was given, and what the engine reads and writes is the memory the
 * process maps.
 *
 * The mmap offset of a buffer is its handle shifted by VGPU_BO_MMAP_SHIFT:
 * every buffer has a window of VGPU_MAX_BO_SIZE bytes of the file's offset
 * space, so an offset inside another buffer's window names nothing.
 * Handles stay below 2^16 (cyclic, as the other handles: a destroyed
 * buffer's offset names nothing until the handles come round), so every
 * offset is below 2^44, which a 32-bit process reaches with mmap2().
 *
 * A buffer never outlives its file: a mapping holds the struct file (its
 * release() runs after the last munmap()), and release() drops the
 * references of the handles and of the kernels.
 */
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

/* Offset space per buffer: a handle's window (see DOC above). */
#define VGPU_BO_MMAP_SHIFT	28
#define VGPU_BO_HANDLE_MAX	0xffff

static_assert(BIT_ULL(VGPU_BO_MMAP_SHIFT) == VGPU_MAX_BO_SIZE);

static unsigned int vgpu_bo_max_per_file = VGPU_DEF_BOS_PER_FILE;
module_param_named(max_buffers_per_file, vgpu_bo_max_per_file, uint, 0444);
MODULE_PARM_DESC(max_buffers_per_file,
		 "Buffer objects one open file may hold (default 1024, at most 65535)");

static unsigned long long vgpu_bo_max_bytes = VGPU_DEF_BO_BYTES_PER_FILE;
module_param_named(max_buffer_bytes_per_file, vgpu_bo_max_bytes, ullong, 0444);
MODULE_PARM_DESC(max_buffer_bytes_per_file,
		 "Bytes of buffer objects, each rounded up to pages, one open file may hold (default 256 MiB)");

/**
 * vgpu_bo_limits_init() - the buffer limits of a new device instance
 * @limits: its limits, filled from the module parameters
 *
 * More buffers than handles (65535) cannot be, so the count is capped.
 */
void vgpu_bo_limits_init(struct vgpu_limits *limits)
{
	limits->bos_per_file = min_t(u32, vgpu_bo_max_per_file,
				     VGPU_BO_HANDLE_MAX);
	limits->bo_bytes_per_file = vgpu_bo_max_bytes;
}

/* Charge @bytes and one buffer to @vf: false at either limit. */
static bool vgpu_bo_charge(struct vgpu_file *vf, u64 bytes)
{
	const struct vgpu_limits *lim = &vf->vdev->limits;

	if (atomic_inc_return(&vf->nr_bos) > lim->bos_per_file)
		goto err_count;
	if (atomic64_add_return(bytes, &vf->bo_bytes) > lim->bo_bytes_per_file)
		goto err_bytes;
	return true;

err_bytes:
	atomic64_sub(bytes, &vf->bo_bytes);
err_count:
	atomic_dec(&vf->nr_bos);
	return false;
}

static void vgpu_bo_uncharge(struct vgpu_file *vf, u64 bytes)
{
	atomic64_sub(bytes, &vf->bo_bytes);
	atomic_dec(&vf->nr_bos);
}

/* The last reference went: free the memory, uncharge the owner. */
static void vgpu_bo_release(struct kref *ref)
{
	struct vgpu_bo *bo = container_of(ref, struct vgpu_bo, ref);

	vfree(bo->vaddr);
	vgpu_bo_uncharge(bo->owner, bo->charge);
	kfree(bo);
}

static void vgpu_bo_get(struct vgpu_bo *bo)
{
	kref_get(&bo->ref);
}

static void vgpu_bo_put(struct vgpu_bo *bo)
{
	kref_put(&bo->ref, vgpu_bo_release);
}

/*
 * Make a buffer of @size bytes and @flags for @vf, under a new handle.
 * Return: 0, -ENOSPC (a limit of the file, or no free handle), -ENOMEM.
 */
static int vgpu_bo_create(struct vgpu_file *vf, u64 size, u32 flags,
			  struct vgpu_bo **out)
{
	struct vgpu_bo *bo;
	int ret;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return -ENOMEM;
	kref_init(&bo->ref);
	atomic_set(&bo->active, 0);
	bo->owner = vf;
	bo->size = size;
	bo->charge = PAGE_ALIGN(size);
	bo->flags = flags;
	ret = -ENOSPC;
	if (!vgpu_bo_charge(vf, bo->charge))
		goto err_free;
	ret = -ENOMEM;
	if (vgpu_obs_should_fail(&vf->vdev->obs.fail_alloc))	/* debugfs knob */
		goto err_uncharge;
	bo->vaddr = vmalloc_user(size);
	if (!bo->vaddr)
		goto err_uncharge;
	/* cyclic: a destroyed buffer's handle and offset name nothing for long */
	ret = xa_alloc_cyclic(&vf->bos, &bo->handle, bo,
			      XA_LIMIT(1, VGPU_BO_HANDLE_MAX), &vf->next_bo,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_vfree;
	*out = bo;
	return 0;

err_vfree:
	vfree(bo->vaddr);
	if (ret == -EBUSY)	/* every handle taken */
		ret = -ENOSPC;
err_uncharge:
	vgpu_bo_uncharge(vf, bo->charge);
err_free:
	kfree(bo);
	return ret;
}

/**
 * vgpu_ioctl_bo_create() - VGPU_IOCTL_BO_CREATE
 * @vf: the file
 * @arg: struct vgpu_bo_create
 *
 * Return: 0 with the handle and the mmap offset in @arg; -EINVAL (flags,
 * handle or mmap_offset non-zero, size 0 or above VGPU_MAX_BO_SIZE);
 * -ENOSPC (the file's buffers or buffer bytes at their limit); -ENOMEM.
 */
int vgpu_ioctl_bo_create(struct vgpu_file *vf, void *arg)
{
	struct vgpu_bo_create *c = arg;
	struct vgpu_bo *bo;
	int ret;

	if (c->flags & ~VGPU_BO_FLAGS_ALL || c->handle || c->mmap_offset)
		return -EINVAL;
	if (!c->size || c->size > VGPU_MAX_BO_SIZE)
		return -EINVAL;
	ret = vgpu_bo_create(vf, c->size, c->flags, &bo);
	if (ret)
		return ret;
	c->handle = bo->handle;
	c->mmap_offset = (u64)bo->handle << VGPU_BO_MMAP_SHIFT;
	return 0;
}

/*
 * Take the handle of buffer @handle of @vf away and drop its reference.
 * Return: 0, -ENOENT (no such buffer), -EBUSY (an unfinished kernel names
 * it).
 */
static int vgpu_bo_destroy(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_bo *bo;
	int ret = 0;

	/* SUBMIT counts its kernels in @active under vf->lock */
	mutex_lock(&vf->lock);
	bo = xa_load(&vf->bos, handle);
	if (!bo)
		ret = -ENOENT;
	else if (atomic_read(&bo->active))
		ret = -EBUSY;
	else
		xa_erase(&vf->bos, handle);
	mutex_unlock(&vf->lock);
	if (!ret)
		vgpu_bo_put(bo);
	return ret;
}

/**
 * vgpu_ioctl_bo_create_undo() - take back a BO_CREATE whose result was lost
 * @vf: the file
 * @arg: struct vgpu_bo_create of the successful create
 *
 * The handle never reached the caller, nothing named or mapped the
 * buffer: it never existed.
 */
void vgpu_ioctl_bo_create_undo(struct vgpu_file *vf, void *arg)
{
	struct vgpu_bo_create *c = arg;

	vgpu_bo_destroy(vf, c->handle);
}

/**
 * vgpu_ioctl_bo_destroy() - VGPU_IOCTL_BO_DESTROY
 * @vf: the file
 * @arg: struct vgpu_bo_destroy
 *
 * Return: 0; -EINVAL (flags); -ENOENT (not a buffer of this file);
 * -EBUSY (a kernel that names it has not finished).
 */
int vgpu_ioctl_bo_destroy(struct vgpu_file *vf, void *arg)
{
	struct vgpu_bo_destroy *d = arg;

	if (d->flags)
		return -EINVAL;
	return vgpu_bo_destroy(vf, d->handle);
}

/**
 * vgpu_bos_release_all() - drop every buffer handle of a file
 * @vf: the file, locked, being released: no mapping is left, its kernels
 *	are freed (vgpu_jobs_release_all()), so every buffer is freed here
 */
void vgpu_bos_release_all(struct vgpu_file *vf)
{
	struct vgpu_bo *bo;
	unsigned long handle;

	lockdep_assert_held(&vf->lock);
	xa_for_each(&vf->bos, handle, bo) {
		xa_erase(&vf->bos, handle);
		vgpu_bo_put(bo);
		cond_resched();
	}
	WARN_ON_ONCE(atomic_read(&vf->nr_bos) || atomic64_read(&vf->bo_bytes));
}

/* A copy of a mapping (split, fork, mremap) holds the buffer too. */
static void vgpu_bo_vm_open(struct vm_area_struct *vma)
{
	vgpu_bo_get(vma->vm_private_data);
}

static void vgpu_bo_vm_close(struct vm_area_struct *vma)
{
	vgpu_bo_put(vma->vm_private_data);
}

static const struct vm_operations_struct vgpu_bo_vm_ops = {
	.open	= vgpu_bo_vm_open,
	.close	= vgpu_bo_vm_close,
};

/*
 * The buffer of @vf whose window starts at page offset @pgoff, with a
 * reference, or NULL.  Under mmap_lock: the xa_lock keeps it from being
 * freed between the lookup and the reference (BO_DESTROY erases the
 * handle before it drops the handle's reference).
 */
static struct vgpu_bo *vgpu_bo_lookup_offset(struct vgpu_file *vf,
					     unsigned long pgoff)
{
	const unsigned long window = VGPU_MAX_BO_SIZE >> PAGE_SHIFT;
	struct vgpu_bo *bo;

	if (pgoff % window || pgoff / window > VGPU_BO_HANDLE_MAX)
		return NULL;
	xa_lock(&vf->bos);
	bo = xa_load(&vf->bos, pgoff / window);
	if (bo)
		vgpu_bo_get(bo);
	xa_unlock(&vf->bos);
	return bo;
}

/**
 * vgpu_bo_mmap() - mmap() of the device file: map a buffer object
 * @vf: the file
 * @vma: the new mapping; its page offset must be a buffer's mmap_offset
 *
 * The whole buffer is mapped at once (remap_vmalloc_range()), so no page
 * ever faults.  VM_DONTEXPAND: mremap() cannot grow the mapping past the
 * buffer; VM_DONTDUMP: a core dump does not contain it.
 *
 * Return: 0; -EINVAL (not MAP_SHARED, an offset that is not the start of
 * a buffer of this file, or a mapping longer than the buffer's pages); or
 * the error of remap_vmalloc_range().
 */
int vgpu_bo_mmap(struct vgpu_file *vf, struct vm_area_struct *vma)
{
	struct vgpu_bo *bo;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	bo = vgpu_bo_lookup_offset(vf, vma->vm_pgoff);
	if (!bo)
		return -EINVAL;
	ret = -EINVAL;
	if (vma->vm_end - vma->vm_start > bo->charge)
		goto err_put;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	ret = remap_vmalloc_range(vma, bo->vaddr, 0);
	if (ret)
		goto err_put;
	/* the reference taken above is the mapping's, dropped by close */
	vma->vm_private_data = bo;
	vma->vm_ops = &vgpu_bo_vm_ops;
	return 0;

err_put:
	vgpu_bo_put(bo);
	return ret;
}

/**
 * vgpu_bo_desc_check() - the buffer fields of one SUBMIT descriptor
 * @d: the descriptor, copied in and zero-extended
 *
 * Return: 0; -EINVAL (more than VGPU_MAX_BUFFER_SLOTS buffers, a pointer
 * without a count or a count without a pointer, @d.private_bytes not a
 * multiple of 4 or above VGPU_MAX_PRIVATE_BYTES).
 */
int vgpu_bo_desc_check(const struct vgpu_submit_desc *d)
{
	if (d->num_buffers > VGPU_MAX_BUFFER_SLOTS ||
	    !d->buffers != !d->num_buffers)
		return -EINVAL;
	if (d->private_bytes % 4 || d->private_bytes > VGPU_MAX_PRIVATE_BYTES)
		return -EINVAL;
	return 0;
}

/* What a buffer's flags mean to the lane engine (fn.h). */
static u32 vgpu_bo_slot_flags(u32 flags)
{
	if (flags & VGPU_BO_CONSTANT)
		return VGPU_LANE_SLOT_CONSTANT | VGPU_LANE_SLOT_READ_ONLY;
	return flags & VGPU_BO_READ_ONLY ? VGPU_LANE_SLOT_READ_ONLY : 0;
}

/**
 * vgpu_job_bos_name() - bind the buffers a descriptor names to its kernel
 * @vf: the file, locked
 * @job: the kernel being built, not yet submitted
 * @d: its descriptor, checked by vgpu_bo_desc_check()
 *
 * Copies the handles in, takes a reference on each buffer and counts the
 * kernel in its &vgpu_bo.active (BO_DESTROY is -EBUSY from now on).  On error what
 * was taken stays in @job for vgpu_job_bos_put().
 *
 * Return: 0; -EFAULT (@d.buffers unreadable); -ENOENT (a handle that is
 * not a buffer of this file).
 */
int vgpu_job_bos_name(struct vgpu_file *vf, struct vgpu_job *job,
		      const struct vgpu_submit_desc *d)
{
	u32 handles[VGPU_MAX_BUFFER_SLOTS];
	struct vgpu_bo *bo;
	u32 i;

	lockdep_assert_held(&vf->lock);
	if (!d->num_buffers)
		return 0;
	if (copy_from_user(handles, u64_to_user_ptr(d->buffers),
			   d->num_buffers * sizeof(handles[0])))
		return -EFAULT;
	job->bo_active = true;
	for (i = 0; i < d->num_buffers; i++) {
		bo = xa_load(&vf->bos, handles[i]);
		if (!bo)
			return -ENOENT;
		vgpu_bo_get(bo);
		atomic_inc(&bo->active);
		job->slots[job->nbo] = (struct vgpu_lane_slot){
			.base = vgpu_bo_vaddr(bo),
			.size = vgpu_bo_size(bo),
			.flags = vgpu_bo_slot_flags(vgpu_bo_flags(bo)),
		};
		job->bo[job->nbo++] = bo;
	}
	return 0;
}

/**
 * vgpu_job_bos_idle() - a kernel finished: it no longer keeps its buffers
 * from being destroyed
 * @job: the kernel
 *
 * Called once per kernel, where the scheduler sees it finished (under
 * &vgpu_sched.lock), or by vgpu_job_bos_put() for a kernel never
 * submitted.  The references stay: the memory lives on until the kernel's
 * handle is released.
 */
void vgpu_job_bos_idle(struct vgpu_job *job)
{
	u32 i;

	if (!job->bo_active)
		return;
	job->bo_active = false;
	for (i = 0; i < job->nbo; i++)
		atomic_dec(&job->bo[i]->active);
}

/**
 * vgpu_job_bos_put() - drop the references a kernel holds on its buffers
 * @job: the kernel: finished, or never submitted; its file still open
 *
 * Called when its handle is released (QUERY with VGPU_QUERY_RELEASE, or
 * close), or when its SUBMIT failed; a buffer already destroyed is freed
 * with its last reference.
 */
void vgpu_job_bos_put(struct vgpu_job *job)
{
	vgpu_job_bos_idle(job);
	while (job->nbo)
		vgpu_bo_put(job->bo[--job->nbo]);
}
