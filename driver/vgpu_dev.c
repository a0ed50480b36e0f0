// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_dev.c - device instances (/dev/vgpuN) and open files.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static int vgpu_fop_open(struct inode *inode, struct file *file)
{
	/* misc_open() holds misc_mtx: the device cannot be deregistered now */
	struct vgpu_device *vdev = container_of(file->private_data,
						struct vgpu_device, misc);
	struct vgpu_file *vf;

	vf = kzalloc(sizeof(*vf), GFP_KERNEL);
	if (!vf)
		return -ENOMEM;
	kref_get(&vdev->ref);
	vgpu_file_init(vf, vdev);
	file->private_data = vf;
	return 0;
}

static int vgpu_fop_release(struct inode *inode, struct file *file)
{
	struct vgpu_file *vf = file->private_data;

	vgpu_file_fini(vf);
	vgpu_device_put(vf->vdev);
	kfree(vf);
	return 0;
}

static __poll_t vgpu_fop_poll(struct file *file, poll_table *wait)
{
	struct vgpu_file *vf = file->private_data;
	struct vgpu_device *vdev = vf->vdev;
	__poll_t mask = 0;

	poll_wait(file, &vdev->sched.done_wq, wait);
	if (atomic_read(&vf->nr_done) > 0)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (!vgpu_device_alive(vdev))
		mask |= EPOLLERR | EPOLLHUP;
	/* the caller may sleep: do not leave the work to the deferred kick */
	if (!mask)
		vgpu_sched_kick(&vdev->sched);
	return mask;
}

static const struct file_operations vgpu_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_fop_open,
	.release	= vgpu_fop_release,
	.poll		= vgpu_fop_poll,
	.unlocked_ioctl	= vgpu_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
	.show_fdinfo	= vgpu_fdinfo_show,
};

static void vgpu_device_free(struct kref *ref)
{
	struct vgpu_device *vdev = container_of(ref, struct vgpu_device, ref);

	vgpu_obs_device_fini(vdev);
	if (vdev->sched.gpu)
		vgpu_sched_fini(&vdev->sched);
	mutex_destroy(&vdev->lock);
	kfree(vdev);
}

/**
 * vgpu_device_put() - drop a reference on a device instance
 * @vdev: the device
 *
 * The last reference frees it.
 */
void vgpu_device_put(struct vgpu_device *vdev)
{
	kref_put(&vdev->ref, vgpu_device_free);
}

/**
 * vgpu_device_alive() - tell whether a device instance is still registered
 * @vdev: the device
 *
 * Return: false once vgpu_device_destroy() has started on @vdev.
 */
bool vgpu_device_alive(struct vgpu_device *vdev)
{
	/* lockless: also called from wait conditions, which must not sleep */
	return !READ_ONCE(vdev->dead);
}

static int vgpu_opt_u32(const char *val, u32 *out)
{
	return kstrtou32(val, 0, out);
}

/* Keys that change the configuration itself (pass 1). */
static int vgpu_dev_opt_cfg(struct vgpu_dev_opts *o, const char *key,
			    const char *val)
{
	if (!strcmp(key, "num_sms")) {
		o->cfg.preset = VGPU_PRESET_CUSTOM;
		strscpy(o->cfg.name, "custom", sizeof(o->cfg.name));
		return vgpu_opt_u32(val, &o->cfg.num_sms);
	}
	return 1;	/* not a configuration key */
}

/* Scheduling keys (pass 2, after the defaults for the configuration). */
static int vgpu_dev_opt_sched(struct vgpu_dev_opts *o, const char *key,
			      char *val)
{
	struct vgpu_gpu_params *p = &o->sched.params;
	char *w;
	u32 n = 0;
	int ret;

	if (!strcmp(key, "policy")) {
		if (strscpy(p->policy, val, sizeof(p->policy)) < 0)
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "preempt")) {
		if (!strcmp(val, "drain"))
			p->preempt = VGPU_PREEMPT_DRAIN;
		else if (!strcmp(val, "warp"))
			p->preempt = VGPU_PREEMPT_WARP;
		else if (!strcmp(val, "switch"))
			p->preempt = VGPU_PREEMPT_SWITCH;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "pack")) {
		if (!strcmp(val, "auto"))
			p->pack = VGPU_PACK_AUTO;
		else if (!strcmp(val, "block"))
			p->pack = VGPU_PACK_BLOCK;
		else if (!strcmp(val, "sm"))
			p->pack = VGPU_PACK_SM;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "clock")) {
		if (!strcmp(val, "free"))
			o->sched.clock = VGPU_CLOCK_FREE;
		else if (!strcmp(val, "paced"))
			o->sched.clock = VGPU_CLOCK_PACED;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "windows")) {
		/* lengths of T1..Ty, decreasing (F22); "0" turns them off */
		if (!strcmp(val, "0")) {
			p->num_windows = 0;
			return 0;
		}
		while ((w = strsep(&val, ",")) != NULL) {
			if (n >= VGPU_GPU_MAX_WINDOWS)
				return -EINVAL;
			ret = vgpu_opt_u32(w, &p->window[n++]);
			if (ret)
				return ret;
		}
		p->num_windows = n;
		return 0;
	}
	if (!strcmp(key, "timeout"))
		return kstrtou64(val, 0, &o->timeout);
	if (!strcmp(key, "max_arrival"))
		return kstrtou64(val, 0, &o->max_arrival);
	if (!strcmp(key, "epoch"))
		return vgpu_opt_u32(val, &p->epoch);
	if (!strcmp(key, "workers"))
		return vgpu_opt_u32(val, &o->sched.workers);
	if (!strcmp(key, "freq_khz"))
		return vgpu_opt_u32(val, &o->sched.freq_khz);
	if (!strcmp(key, "g_max"))
		return vgpu_opt_u32(val, &p->g_max);
	if (!strcmp(key, "task_slots"))
		return vgpu_opt_u32(val, &p->task_slots);
	if (!strcmp(key, "switch_cost"))
		return vgpu_opt_u32(val, &p->switch_cost);
	if (!strcmp(key, "sync_cost"))
		return vgpu_opt_u32(val, &p->sync_cost);
	if (!strcmp(key, "save_slots"))
		return vgpu_opt_u32(val, &p->save_slots);
	if (!strcmp(key, "channels"))
		return vgpu_opt_u32(val, &p->max_channels);
	return -EINVAL;		/* unknown key */
}

/**
 * vgpu_dev_opts_parse() - build device options from a new_device line
 * @o: options to fill
 * @line: "[PRESET] [key=value ...]" (modified)
 *
 * Keys: num_sms (a custom configuration from the preset's per-SM limits),
 * policy, preempt (drain|warp|switch), windows (comma-separated lengths, or
 * 0), epoch, workers, clock (free|paced), freq_khz, timeout, g_max,
 * task_slots, switch_cost, sync_cost (F17), save_slots, channels.
 *
 * Return: 0 or -EINVAL (unknown preset or key, malformed or invalid value).
 */
int vgpu_dev_opts_parse(struct vgpu_dev_opts *o, char *line)
{
	char *tok[VGPU_DEV_MAX_OPTS], *t, *val;
	const char *bad = NULL;
	u32 n = 0, i, first = 0;
	int ret;

	while ((t = strsep(&line, " \t\n")) != NULL) {
		if (!*t)
			continue;
		if (n == ARRAY_SIZE(tok))
			return -EINVAL;
		tok[n++] = t;
	}

	if (n && !strchr(tok[0], '=')) {
		ret = vgpu_config_preset(&o->cfg, tok[0]);
		if (ret)
			return ret;
		first = 1;
	} else {
		vgpu_config_preset(&o->cfg, "small");
	}
	/* split key=value once for both passes */
	for (i = first; i < n; i++) {
		val = strchr(tok[i], '=');
		if (!val || val == tok[i])
			return -EINVAL;
		*val = '\0';
	}

	/* pass 1: the configuration, then the defaults it implies */
	for (i = first; i < n; i++) {
		ret = vgpu_dev_opt_cfg(o, tok[i], tok[i] + strlen(tok[i]) + 1);
		if (ret < 0)
			return ret;
	}
	if (vgpu_config_validate(&o->cfg, &bad)) {
		pr_debug("vgpu_dispatch: invalid %s\n", bad);
		return -EINVAL;
	}
	vgpu_sched_opts_default(&o->sched, &o->cfg);
	o->sched.params.max_channels = VGPU_DEF_CHANNELS;
	o->timeout = VGPU_DEF_TIMEOUT_CYCLES;
	o->max_arrival = VGPU_DEF_MAX_ARRIVAL;

	/* pass 2: scheduling options */
	for (i = first; i < n; i++) {
		val = tok[i] + strlen(tok[i]) + 1;
		if (vgpu_dev_opt_cfg(o, tok[i], val) == 0)
			continue;
		ret = vgpu_dev_opt_sched(o, tok[i], val);
		if (ret) {
			pr_debug("vgpu_dispatch: bad option %s\n", tok[i]);
			return -EINVAL;
		}
	}
	if (!o->timeout || o->timeout > VGPU_MAX_TIMEOUT_CYCLES ||
	    o->max_arrival > VGPU_MAX_TIMEOUT_CYCLES)
		return -EINVAL;
	return 0;
}

/**
 * vgpu_device_create() - create and register a device instance
 * @index: N of /dev/vgpuN
 * @opts: configuration and scheduling options (vgpu_dev_opts_parse())
 * @out: the new device on success
 *
 * Return: 0, -EINVAL for invalid options, -ENOMEM, or the error of
 * misc_register() or of the scheduler's threads.
 */
int vgpu_device_create(u32 index, const struct vgpu_dev_opts *opts,
		       struct vgpu_device **out)
{
	struct vgpu_device *vdev;
	const char *bad_field;
	int ret;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return -ENOMEM;
	kref_init(&vdev->ref);
	mutex_init(&vdev->lock);
	INIT_LIST_HEAD(&vdev->node);
	vdev->index = index;
	snprintf(vdev->name, sizeof(vdev->name), "vgpu%u", index);

	vdev->cfg = opts->cfg;
	ret = vgpu_config_validate(&vdev->cfg, &bad_field);
	if (ret) {
		pr_debug("vgpu_dispatch: %s: invalid %s\n", vdev->name, bad_field);
		goto err_config;
	}

	vdev->limits.channels_per_file = VGPU_DEF_CHANNELS_PER_FILE;
	vdev->limits.channels = opts->sched.params.max_channels;
	vdev->limits.kernels_per_file = VGPU_DEF_KERNELS_PER_FILE;
	vdev->limits.queued = VGPU_DEF_QUEUED;
	vdev->limits.prog_bytes_per_file = VGPU_DEF_PROG_BYTES_PER_FILE;
	vdev->limits.default_timeout = opts->timeout;
	vdev->limits.max_arrival = opts->max_arrival;
	/* the upper half of the priorities is open to everybody */
	vdev->default_prio = vdev->cfg.num_prios / 2;

	ret = vgpu_sched_init(&vdev->sched, vdev, &opts->sched);
	if (ret)
		goto err_sched;
	ret = vgpu_obs_device_init(vdev);	/* event sink, debugfs */
	if (ret)
		goto err_misc;

	vdev->misc.minor = MISC_DYNAMIC_MINOR;
	vdev->misc.name = vdev->name;
	vdev->misc.fops = &vgpu_fops;
	vdev->misc.mode = 0666;
	ret = misc_register(&vdev->misc);
	if (ret)
		goto err_misc;

	*out = vdev;
	return 0;

err_misc:
	vgpu_sched_stop(&vdev->sched);
err_sched:
err_config:
	vgpu_device_put(vdev);
	return ret;
}

/**
 * vgpu_device_destroy() - unregister a device instance
 * @vdev: the device
 *
 * New opens fail once this returns; files still open get -ENODEV from every
 * call, and the device is freed when the last of them closes.
 */
void vgpu_device_destroy(struct vgpu_device *vdev)
{
	WRITE_ONCE(vdev->dead, true);
	misc_deregister(&vdev->misc);
	vgpu_sched_stop(&vdev->sched);
	vgpu_obs_device_remove(vdev);
	vgpu_device_put(vdev);
}
