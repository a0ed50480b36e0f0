// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_dev.c - device instances (/dev/vgpuN): their options, the list of
 * them, probe and remove (called by the bus, vgpu_bus.c), and the open
 * files of their misc devices.
 *
 * The lifetime is the netdevsim one: vgpu_bus.c allocates an instance
 * (vgpu_device_alloc()) and adds its &struct device to the bus, whose probe
 * brings it up (vgpu_device_probe()); removal from the bus takes it down
 * (vgpu_device_remove()) and the last reference frees it
 * (vgpu_device_release()).
 */
#include <linux/compat.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/refcount.h>
#include <linux/slab.h>

#include "names.h"
#include "vgpu_drv.h"

/*
 * The instances on the bus, by index.  vgpu_devices_lock protects the list
 * and serialises instance creation and removal (vgpu_bus.c holds it across
 * device_add() and device_unregister()), so an index is free again only
 * once nothing of its instance is registered any more.
 */
LIST_HEAD(vgpu_devices);
DEFINE_MUTEX(vgpu_devices_lock);	/* protects vgpu_devices */

/**
 * vgpu_device_find_locked() - the instance with index @index
 * @index: N of /dev/vgpuN
 *
 * Return: the device (no reference taken: valid while vgpu_devices_lock is
 * held), or NULL.
 */
struct vgpu_device *vgpu_device_find_locked(u32 index)
{
	struct vgpu_device *vdev;

	lockdep_assert_held(&vgpu_devices_lock);
	list_for_each_entry(vdev, &vgpu_devices, node)
		if (vdev->index == index)
			return vdev;
	return NULL;
}

/**
 * vgpu_device_get_from() - the instance with the lowest index >= @index
 * @index: where to start
 *
 * For netlink (vgpu_netlink.c): lookups and dumps that resume from a cursor.
 *
 * Return: the device with a reference held (vgpu_device_put()), or NULL.
 */
struct vgpu_device *vgpu_device_get_from(u32 index)
{
	struct vgpu_device *vdev, *best = NULL;

	mutex_lock(&vgpu_devices_lock);
	list_for_each_entry(vdev, &vgpu_devices, node)
		if (vdev->index >= index && (!best || vdev->index < best->index))
			best = vdev;
	if (best)
		vgpu_device_get(best);
	mutex_unlock(&vgpu_devices_lock);
	return best;
}

/* The state of a new open file; it holds a reference on @vdev. */
static void vgpu_file_init(struct vgpu_file *vf, struct vgpu_device *vdev)
{
	vgpu_device_get(vdev);
	vf->vdev = vdev;
	vf->tenant = atomic_inc_return(&vdev->next_tenant);
	mutex_init(&vf->lock);
	xa_init_flags(&vf->channels, XA_FLAGS_ALLOC1);
	xa_init_flags(&vf->kernels, XA_FLAGS_ALLOC1);
	atomic_set(&vf->nr_done, 0);
	xa_init_flags(&vf->bos, XA_FLAGS_ALLOC1);
	atomic_set(&vf->nr_bos, 0);
	atomic64_set(&vf->bo_bytes, 0);
}

/* Cancel and free everything an open file owns, drop its reference. */
static void vgpu_file_fini(struct vgpu_file *vf)
{
	u64 cycle;

	mutex_lock(&vf->lock);
	if (vf->gate_held) {
		vgpu_sched_gate(&vf->vdev->sched, false, &cycle);
		vf->gate_held = false;
	}
	vgpu_jobs_release_all(vf);
	vgpu_channels_release_all(vf);
	vgpu_bos_release_all(vf);	/* after the kernels that name them */
	mutex_unlock(&vf->lock);
	xa_destroy(&vf->channels);
	xa_destroy(&vf->bos);
	mutex_destroy(&vf->lock);
	vgpu_device_put(vf->vdev);
}

static int vgpu_fop_open(struct inode *inode, struct file *file)
{
	/* misc_open() holds misc_mtx: the device cannot be deregistered now */
	struct vgpu_device *vdev = container_of(file->private_data,
						struct vgpu_device, misc);
	struct vgpu_file *vf;

	vf = kzalloc(sizeof(*vf), GFP_KERNEL);
	if (!vf)
		return -ENOMEM;
	vgpu_file_init(vf, vdev);
	file->private_data = vf;
	return 0;
}

static int vgpu_fop_release(struct inode *inode, struct file *file)
{
	struct vgpu_file *vf = file->private_data;

	vgpu_file_fini(vf);
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

/*
 * Map a buffer object (vgpu_bo.c); the offset names it.  A removed
 * device's files map nothing new (-ENODEV, as their ioctls); mappings
 * made before stay.
 */
static int vgpu_fop_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vgpu_file *vf = file->private_data;

	if (!vgpu_device_alive(vf->vdev))
		return -ENODEV;
	return vgpu_bo_mmap(vf, vma);
}

static const struct file_operations vgpu_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_fop_open,
	.release	= vgpu_fop_release,
	.poll		= vgpu_fop_poll,
	.mmap		= vgpu_fop_mmap,
	.unlocked_ioctl	= vgpu_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
	.show_fdinfo	= vgpu_fdinfo_show,
};

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
	/* the scalar register file (seed 001 [0042]), off in the presets */
	if (!strcmp(key, "sregs_per_subpart"))
		return vgpu_opt_u32(val, &o->cfg.sregs_per_subpart);
	if (!strcmp(key, "sreg_unit"))
		return vgpu_opt_u32(val, &o->cfg.sreg_unit);
	return 1;	/* not a configuration key */
}

/* "windows": lengths of T1..Ty, decreasing (F22); "0" turns them off. */
static int vgpu_dev_opt_windows(struct vgpu_gpu_params *p, char *val)
{
	u32 n = 0;
	char *w;
	int ret;

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

/**
 * struct vgpu_dev_key - one scheduling key of a new_device line
 * @key: its name
 * @off: offset of its field in &struct vgpu_dev_opts
 * @type: how the value is read: a u32 or u64 number, a mode's name
 *	(@mode), a clock mode's name, a policy name, or window lengths
 * @mode: for a mode's name: which parameter's (driver/core/names.h)
 */
struct vgpu_dev_key {
	const char *key;
	size_t off;
	enum { VGPU_KEY_U32, VGPU_KEY_U64, VGPU_KEY_MODE, VGPU_KEY_CLOCK,
	       VGPU_KEY_POLICY, VGPU_KEY_WINDOWS } type;
	enum vgpu_mode_kind mode;
};

#define VGPU_KEY(name, field, t) \
	{ name, offsetof(struct vgpu_dev_opts, field), VGPU_KEY_##t }
/* a parameter of &struct vgpu_gpu_params, its key the field's name */
#define VGPU_PARAM(field, t) VGPU_KEY(#field, sched.params.field, t)
#define VGPU_PARAM_MODE(field, kind) \
	{ #field, offsetof(struct vgpu_dev_opts, sched.params.field), \
	  VGPU_KEY_MODE, VGPU_MODE_##kind }

/* Scheduling keys (pass 2, after the defaults for the configuration). */
static const struct vgpu_dev_key vgpu_dev_keys[] = {
	VGPU_PARAM(policy, POLICY),
	VGPU_PARAM(sm_choice, POLICY),
	VGPU_PARAM_MODE(preempt, PREEMPT),
	VGPU_PARAM_MODE(pack, PACK),
	VGPU_PARAM_MODE(search, SEARCH),
	VGPU_PARAM(search_group, U32),
	VGPU_PARAM(search_latency, U32),
	VGPU_PARAM(combo, U32),
	VGPU_PARAM(throttle_sms, U32),
	VGPU_KEY("clock", sched.clock, CLOCK),
	VGPU_KEY("windows", sched.params, WINDOWS),
	VGPU_KEY("timeout", timeout, U64),
	VGPU_KEY("max_arrival", max_arrival, U64),
	VGPU_PARAM(epoch, U32),
	VGPU_KEY("workers", sched.workers, U32),
	VGPU_KEY("freq_khz", sched.freq_khz, U32),
	VGPU_PARAM(g_max, U32),
	VGPU_PARAM(task_slots, U32),
	VGPU_PARAM(switch_cost, U32),
	VGPU_PARAM(sync_cost, U32),
	VGPU_PARAM(save_slots, U32),
	VGPU_KEY("channels", sched.params.max_channels, U32),
	VGPU_PARAM(assign_latency, U32),
	VGPU_PARAM(dealloc_latency, U32),
	VGPU_PARAM(seed, U32),
};

/* Set the scheduling key @key to @val: 0 or -EINVAL (or kstrto*()'s). */
static int vgpu_dev_opt_sched(struct vgpu_dev_opts *o, const char *key,
			      char *val)
{
	const struct vgpu_dev_key *k;
	void *field;
	int v;

	for (k = vgpu_dev_keys; k < vgpu_dev_keys + ARRAY_SIZE(vgpu_dev_keys);
	     k++) {
		if (strcmp(key, k->key))
			continue;
		field = (u8 *)o + k->off;
		switch (k->type) {
		case VGPU_KEY_U32:
			return vgpu_opt_u32(val, field);
		case VGPU_KEY_U64:
			return kstrtou64(val, 0, field);
		case VGPU_KEY_MODE:
		case VGPU_KEY_CLOCK:
			v = k->type == VGPU_KEY_MODE ?
			    vgpu_mode_parse(k->mode, val) :
			    vgpu_sched_clock_parse(val);
			if (v < 0)
				return v;
			*(u32 *)field = v;
			return 0;
		case VGPU_KEY_POLICY:
			return strscpy(field, val, VGPU_POLICY_NAME_LEN) < 0 ?
			       -EINVAL : 0;
		case VGPU_KEY_WINDOWS:
			return vgpu_dev_opt_windows(field, val);
		}
	}
	return -EINVAL;		/* unknown key */
}

/**
 * vgpu_dev_opts_parse() - build device options from a new_device line
 * @o: options to fill
 * @line: "[PRESET] [key=value ...]" (modified)
 *
 * Keys: num_sms (a custom configuration from the preset's per-SM limits),
 * policy, sm_choice (the device's own SM choice, a built-in one's name, which
 * a policy without one runs with), preempt (drain|warp|switch), windows
 * (comma-separated lengths, or 0), epoch, workers, clock (free|paced),
 * freq_khz, timeout, g_max, task_slots, switch_cost, sync_cost (F17),
 * save_slots, channels, pack, search (exact|grouped|sampled|mux), search_group,
 * search_latency (F40-F42), combo (F25), throttle_sms (F26),
 * sregs_per_subpart and sreg_unit (the scalar register file),
 * assign_latency and dealloc_latency (F13, F17), seed (the device's
 * pseudo-random generator, F21).
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

/*
 * Instances allocated and not yet released, plus one for the module
 * itself: the release functions are module code, so module exit waits in
 * vgpu_devices_drain() until the count reaches zero.
 */
static refcount_t vgpu_devices_unreleased = REFCOUNT_INIT(1);
static DECLARE_COMPLETION(vgpu_devices_released);

/*
 * The last reference is gone (struct device's release): free what probe
 * made and remove left, then the instance.  Probe undoes its own steps on
 * failure, so only a scheduler still set up is left to free.
 */
static void vgpu_device_release(struct device *dev)
{
	struct vgpu_device *vdev = to_vgpu_device(dev);

	if (vdev->sched.gpu)
		vgpu_sched_fini(&vdev->sched);
	vgpu_obs_device_fini(vdev);
	mutex_destroy(&vdev->lock);
	kfree(vdev);
	if (refcount_dec_and_test(&vgpu_devices_unreleased))
		complete(&vgpu_devices_released);
}

/**
 * vgpu_devices_drain() - wait until every instance ever allocated is freed
 *
 * Module exit, once every instance is off the bus and no new one can be
 * made (vgpu_bus_fini()): a reference still held elsewhere (a netlink
 * request, say) delays the return until it is dropped, so no release
 * function runs after the module is gone.  Called once.
 */
void vgpu_devices_drain(void)
{
	if (!refcount_dec_and_test(&vgpu_devices_unreleased))
		wait_for_completion(&vgpu_devices_released);
}

/**
 * vgpu_device_alloc() - a new instance, not yet on the bus
 * @index: N of /dev/vgpuN
 * @opts: configuration and scheduling options (vgpu_dev_opts_parse())
 *
 * Every option is checked here, so that the probe of a device added to the
 * bus fails only for lack of resources.  The caller sets the bus and adds
 * the device (device_add()), or drops it with vgpu_device_put().
 *
 * Return: the device (device_initialize()d, one reference), ERR_PTR(-EINVAL)
 * for invalid options or ERR_PTR(-ENOMEM).
 */
struct vgpu_device *vgpu_device_alloc(u32 index,
				      const struct vgpu_dev_opts *opts)
{
	struct vgpu_device *vdev;
	const char *bad = NULL;

	if (vgpu_config_validate(&opts->cfg, &bad) ||
	    vgpu_sched_opts_check(&opts->sched, &opts->cfg, &bad)) {
		pr_debug("vgpu_dispatch: vgpu%u: invalid %s\n", index,
			 bad ? bad : "parameter");
		return ERR_PTR(-EINVAL);
	}
	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return ERR_PTR(-ENOMEM);
	device_initialize(&vdev->dev);
	vdev->dev.release = vgpu_device_release;
	refcount_inc(&vgpu_devices_unreleased);
	/* unbound without our probe run: the driver core's allocations failed */
	vdev->probe_err = -ENOMEM;
	mutex_init(&vdev->lock);
	INIT_LIST_HEAD(&vdev->node);
	vdev->index = index;
	vdev->dev.id = index;
	snprintf(vdev->name, sizeof(vdev->name), "vgpu%u", index);
	vdev->opts = *opts;
	vdev->cfg = opts->cfg;

	vdev->limits.channels_per_file = VGPU_DEF_CHANNELS_PER_FILE;
	vdev->limits.channels = opts->sched.params.max_channels;
	vdev->limits.kernels_per_file = VGPU_DEF_KERNELS_PER_FILE;
	vdev->limits.queued = VGPU_DEF_QUEUED;
	vdev->limits.prog_bytes_per_file = VGPU_DEF_PROG_BYTES_PER_FILE;
	vdev->limits.default_timeout = opts->timeout;
	vdev->limits.max_arrival = opts->max_arrival;
	vgpu_bo_limits_init(&vdev->limits);
	/* the upper half of the priorities is open to everybody */
	vdev->default_prio = vdev->cfg.num_prios / 2;
	return vdev;
}

/**
 * vgpu_device_probe() - bring an instance added to the bus up
 * @vdev: the device, from vgpu_device_alloc()
 *
 * The scheduler and its threads, the observability state and event sink,
 * debugfs, then /dev/vgpuN; each step undone by its own label on failure
 * (netdevsim's nsim_drv_probe() is the model).
 *
 * Return: 0, -ENOMEM, or the error of the scheduler's threads or of
 * misc_register().
 */
int vgpu_device_probe(struct vgpu_device *vdev)
{
	int ret;

	ret = vgpu_sched_init(&vdev->sched, vdev, &vdev->opts.sched,
			      &vgpu_job_backend_ops);
	if (ret)
		goto err;
	ret = vgpu_obs_device_init(vdev);	/* counters, event sink */
	if (ret)
		goto err_sched_fini;
	vgpu_debugfs_device_add(vdev);

	vdev->misc.minor = MISC_DYNAMIC_MINOR;
	vdev->misc.name = vdev->name;
	vdev->misc.fops = &vgpu_fops;
	vdev->misc.mode = 0666;
	vdev->misc.parent = &vdev->dev;
	ret = misc_register(&vdev->misc);
	if (ret)
		goto err_debugfs_remove;
	return 0;

err_debugfs_remove:
	vgpu_debugfs_device_remove(vdev);	/* and the counters with it */
	vgpu_obs_device_fini(vdev);
err_sched_fini:
	vgpu_sched_fini(&vdev->sched);
err:
	vdev->probe_err = ret;	/* for vgpu_bus_add_device() */
	return ret;
}

/**
 * vgpu_device_remove() - take an instance down (removal from the bus)
 * @vdev: the device
 *
 * New opens fail once this returns; files still open get -ENODEV from every
 * call, and the device is freed when the last reference goes.
 */
void vgpu_device_remove(struct vgpu_device *vdev)
{
	WRITE_ONCE(vdev->dead, true);
	misc_deregister(&vdev->misc);
	vgpu_sched_stop(&vdev->sched);
	vgpu_debugfs_device_remove(vdev);
	vgpu_obs_device_remove(vdev);
}
