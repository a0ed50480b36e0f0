// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fdinfo.c - per-client usage in /proc/<pid>/fdinfo/<fd> (F65),
 * in the keys of Documentation/gpu/drm-usage-stats.rst.
 *
 * The engine is "sm".  A file's busy time is the sum, over the completed
 * blocks of its kernels, of the cycles each block was resident on its SM
 * (accounted at block completion by the event sink, vgpu_obs.c), in block
 * cycles.  One SM offers max_blocks_per_sm block slots, so:
 *
 *   drm-cycles-sm          block-cycles of the file
 *   drm-total-cycles-sm    device virtual cycles x max_blocks_per_sm (the
 *                          block-slot cycles of one SM so far)
 *   drm-engine-capacity-sm num_sms
 *   drm-engine-sm          drm-cycles-sm / max_blocks_per_sm in ns of
 *                          virtual time at the device's freq_khz
 *
 * so utilisation is delta(cycles) / (delta(total-cycles) x capacity), at
 * most 1.  Cancelled blocks are not counted.
 */
#include <linux/math64.h>
#include <linux/seq_file.h>

#include "vgpu_drv.h"
#include "vgpu_obs.h"

static atomic64_t vgpu_fdinfo_next_id = ATOMIC64_INIT(0);

/**
 * vgpu_fdinfo_show() - the .show_fdinfo of /dev/vgpuN files
 * @m: the fdinfo seq_file
 * @file: the device file
 */
void vgpu_fdinfo_show(struct seq_file *m, struct file *file)
{
	struct vgpu_file *vf = file->private_data;
	struct vgpu_device *vdev = vf->vdev;
	struct vgpu_sched *s = &vdev->sched;
	struct vgpu_file_usage u;
	u32 nch, nk, slots = vdev->cfg.max_blocks_per_sm;
	u64 now, prog, ns;

	mutex_lock(&vf->lock);
	if (!vf->usage.client_id)
		vf->usage.client_id = atomic64_inc_return(&vgpu_fdinfo_next_id);
	nch = vf->nr_channels;
	nk = vf->nr_kernels;
	prog = vf->prog_bytes;
	mutex_lock(&s->lock);
	u = vf->usage;
	now = s->gpu->now;
	mutex_unlock(&s->lock);
	mutex_unlock(&vf->lock);

	/* block-cycles / slots -> SM-cycles -> ns at freq_khz */
	ns = mul_u64_u64_div_u64(u.busy_cycles, 1000000ULL,
				 (u64)slots * s->opts.freq_khz);
	seq_puts(m, "drm-driver:\tvgpu_dispatch\n");
	seq_printf(m, "drm-client-id:\t%llu\n", u.client_id);
	seq_printf(m, "drm-engine-sm:\t%llu ns\n", ns);
	seq_printf(m, "drm-engine-capacity-sm:\t%u\n", vdev->cfg.num_sms);
	seq_printf(m, "drm-cycles-sm:\t%llu\n", u.busy_cycles);
	seq_printf(m, "drm-total-cycles-sm:\t%llu\n", now * slots);
	seq_printf(m, "vgpu-device:\t%s\n", vdev->name);
	seq_printf(m, "vgpu-channels:\t%u\n", nch);
	seq_printf(m, "vgpu-kernels:\t%u\n", nk);
	seq_printf(m, "vgpu-kernels-submitted:\t%llu\n", u.submitted);
	seq_printf(m, "vgpu-kernels-completed:\t%llu\n", u.completed);
	seq_printf(m, "vgpu-blocks-completed:\t%llu\n", u.blocks_done);
	seq_printf(m, "vgpu-program-bytes:\t%llu\n", prog);
}
