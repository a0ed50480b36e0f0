// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - workload file loader (JSON via libjson-c), see
 * Documentation/workloads.rst.  Every error names the file, the position
 * (LINE:COLUMN for syntax errors, a JSON path otherwise) and the field.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include <vgpu/workload.h>

#include "recording.h"
#include "workload_core.h"
#include "workload_internal.h"

static const char *const vgpu_wl_class_names[VGPU_ISA_NUM_CLASSES] = {
	"mov", "load", "store", "mma", "cmp", "bra", "alu",
};

/* An unsigned integer <= max. */
int vgpu_wl_uint(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		 json_object *v, uint64_t max, uint64_t *out)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return vgpu_rec_err(c, pos, field, "expected an integer");
	errno = 0;
	x = json_object_get_int64(v);
	if (x < 0 || errno || (uint64_t)x > max)
		return vgpu_rec_err(c, pos, field,
				    "expected an integer in 0..%llu",
				    (unsigned long long)max);
	*out = (uint64_t)x;
	return 0;
}

int vgpu_wl_u32(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		json_object *v, uint32_t max, uint32_t *out)
{
	uint64_t x;
	int ret = vgpu_wl_uint(c, pos, field, v, max, &x);

	if (!ret)
		*out = (uint32_t)x;
	return ret;
}

int vgpu_wl_count(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		  json_object *v, uint32_t max, uint32_t *out)
{
	int ret = vgpu_wl_u32(c, pos, field, v, max, out);

	if (!ret && !*out)
		ret = vgpu_rec_err(c, pos, field, "must be >= 1");
	return ret;
}

int vgpu_wl_str(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		json_object *v, const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return vgpu_rec_err(c, pos, field, "expected a string");
	*out = json_object_get_string(v);
	return 0;
}

int vgpu_wl_name(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		 json_object *v, const char **out)
{
	const char *s;

	if (vgpu_wl_str(c, pos, field, v, &s))
		return -EINVAL;
	if (!*s || strlen(s) >= VGPU_WL_NAME_LEN || strpbrk(s, " \t\n="))
		return vgpu_rec_err(c, pos, field,
				    "1-63 characters, no blanks or '='");
	*out = s;
	return 0;
}

/* Configuration fields that may be set one by one under device.config. */
struct vgpu_wl_cfg_field {
	const char *name;
	size_t off;
};

#define VGPU_WL_CFG(f) { #f, offsetof(struct vgpu_config, f) }
static const struct vgpu_wl_cfg_field vgpu_wl_cfg_fields[] = {
	VGPU_WL_CFG(num_sms), VGPU_WL_CFG(subparts),
	VGPU_WL_CFG(regs_per_subpart), VGPU_WL_CFG(reg_unit),
	VGPU_WL_CFG(warps_per_subpart), VGPU_WL_CFG(max_warps_per_sm),
	VGPU_WL_CFG(max_blocks_per_sm), VGPU_WL_CFG(max_barriers_per_sm),
	VGPU_WL_CFG(smem_per_sm), VGPU_WL_CFG(smem_unit),
	VGPU_WL_CFG(smem_reserve), VGPU_WL_CFG(smem_max_per_block),
	VGPU_WL_CFG(max_threads_per_block), VGPU_WL_CFG(warp_size),
	VGPU_WL_CFG(num_prios), VGPU_WL_CFG(sregs_per_subpart),
	VGPU_WL_CFG(sreg_unit),
};

static int vgpu_wl_config(struct vgpu_rec_ctx *c, json_object *o,
			  struct vgpu_config *cfg)
{
	size_t i;

	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, "device", "config", "expected an object");
	json_object_object_foreach(o, key, v) {
		for (i = 0; i < sizeof(vgpu_wl_cfg_fields) /
			    sizeof(vgpu_wl_cfg_fields[0]); i++)
			if (!strcmp(key, vgpu_wl_cfg_fields[i].name))
				break;
		if (i == sizeof(vgpu_wl_cfg_fields) /
			 sizeof(vgpu_wl_cfg_fields[0]))
			return vgpu_rec_err(c, "device.config", key,
					    "unknown field");
		if (vgpu_wl_u32(c, "device.config", key, v, UINT32_MAX,
				(uint32_t *)((char *)cfg +
					     vgpu_wl_cfg_fields[i].off)))
			return -EINVAL;
	}
	cfg->preset = VGPU_CFG_PRESET_CUSTOM;
	return 0;
}

static int vgpu_wl_class_table(struct vgpu_rec_ctx *c, const char *field,
			       json_object *o, uint32_t *out)
{
	char pos[64];
	int i;

	snprintf(pos, sizeof(pos), "device.%s", field);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, "device", field, "expected an object");
	json_object_object_foreach(o, key, v) {
		for (i = 0; i < VGPU_ISA_NUM_CLASSES; i++)
			if (!strcmp(key, vgpu_wl_class_names[i]))
				break;
		if (i == VGPU_ISA_NUM_CLASSES)
			return vgpu_rec_err(c, pos, key,
					    "unknown instruction class");
		if (vgpu_wl_u32(c, pos, key, v, VGPU_MAX_ENERGY, &out[i]))
			return -EINVAL;
	}
	return 0;
}

int vgpu_wl_u32_array(struct vgpu_rec_ctx *c, const char *pos,
		      const char *field, json_object *v, uint32_t maxn,
		      uint32_t maxv, uint32_t *out, uint32_t *n)
{
	size_t i, len;

	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, pos, field, "expected an array");
	len = json_object_array_length(v);
	if (len > maxn)
		return vgpu_rec_err(c, pos, field, "more than %u entries", maxn);
	for (i = 0; i < len; i++)
		if (vgpu_wl_u32(c, pos, field, json_object_array_get_idx(v, i),
				maxv, &out[i]))
			return -EINVAL;
	*n = len;
	return 0;
}

/* The device keys that are one bounded number. */
static const struct vgpu_wl_num {
	const char *key;
	uint32_t max;
	size_t off;		/* in struct vgpu_gpu_params */
} vgpu_wl_nums[] = {
	{ "search_group", VGPU_BMAP_MAX_BITS,
	  offsetof(struct vgpu_gpu_params, search_group) },
	{ "search_latency", VGPU_SEARCH_MAX_LATENCY,
	  offsetof(struct vgpu_gpu_params, search_latency) },
	{ "epoch", VGPU_GPU_MAX_EPOCH,
	  offsetof(struct vgpu_gpu_params, epoch) },
	{ "g_max", UINT32_MAX,
	  offsetof(struct vgpu_gpu_params, g_max) },
	{ "task_slots", VGPU_GPU_MAX_SLOTS,
	  offsetof(struct vgpu_gpu_params, task_slots) },
	{ "channels", VGPU_GPU_MAX_CHANNELS,
	  offsetof(struct vgpu_gpu_params, max_channels) },
	{ "sync_cost", VGPU_MAX_LATENCY,
	  offsetof(struct vgpu_gpu_params, sync_cost) },
	{ "switch_cost", VGPU_GPU_MAX_EPOCH,
	  offsetof(struct vgpu_gpu_params, switch_cost) },
	{ "power_nx", VGPU_MAX_WINDOW,
	  offsetof(struct vgpu_gpu_params, timing.window) },
	{ "ctrl_latency", VGPU_MAX_LATENCY,
	  offsetof(struct vgpu_gpu_params, timing.ctrl_latency) },
	{ "hold_max", UINT32_MAX,
	  offsetof(struct vgpu_gpu_params, timing.hold_max) },
	{ "throttle_sms", VGPU_MAX_SMS,
	  offsetof(struct vgpu_gpu_params, throttle_sms) },
	{ "save_slots", 4 * VGPU_MAX_SMS,
	  offsetof(struct vgpu_gpu_params, save_slots) },
	{ "combo", 100,
	  offsetof(struct vgpu_gpu_params, combo) },
	{ "assign_latency", VGPU_MAX_LATENCY,
	  offsetof(struct vgpu_gpu_params, assign_latency) },
	{ "dealloc_latency", VGPU_MAX_LATENCY,
	  offsetof(struct vgpu_gpu_params, dealloc_latency) },
	{ "seed", UINT32_MAX,
	  offsetof(struct vgpu_gpu_params, seed) },
};

/* The vgpu_wl_nums[] entry of @key, or NULL. */
static const struct vgpu_wl_num *vgpu_wl_num(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(vgpu_wl_nums) / sizeof(vgpu_wl_nums[0]); i++)
		if (!strcmp(key, vgpu_wl_nums[i].key))
			return &vgpu_wl_nums[i];
	return NULL;
}

/*
 * The device key @key naming a mode: @parse(name) >= 0, else the error
 * "unknown mode '...' (@names)".
 */
static int vgpu_wl_mode(struct vgpu_rec_ctx *c, const char *key,
			json_object *val, int (*parse)(const char *),
			const char *names, int *mode)
{
	const char *s;

	if (vgpu_wl_str(c, "device", key, val, &s))
		return -EINVAL;
	*mode = parse(s);
	if (*mode < 0)
		return vgpu_rec_err(c, "device", key,
				    "unknown mode '%s' (%s)", s, names);
	return 0;
}

/*
 * The error of a search_group vgpu_gpu_params_validate() refused: a group
 * without the grouped search, none with it, or one that does not divide a
 * map the search runs over (seed 001 [0127]), named with its size.
 */
static int vgpu_wl_search_group_err(struct vgpu_rec_ctx *c,
				    const struct vgpu_gpu_params *p,
				    const struct vgpu_config *cfg)
{
	static const char *const what[] = {
		"the register map of a sub-partition",
		"the shared memory map of an SM",
		"the scalar register map of a sub-partition",
	};
	uint32_t units[] = { vgpu_config_reg_units(cfg),
			     vgpu_config_smem_units(cfg),
			     vgpu_config_sreg_units(cfg) };
	size_t i;

	if (p->search != VGPU_SEARCH_GROUPED)
		return vgpu_rec_err(c, "device", "search_group",
				    "only with \"search\": \"grouped\"");
	if (!p->search_group)
		return vgpu_rec_err(c, "device", "search_group",
				    "the grouped search needs a group of 1 or more units");
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i] % p->search_group)
			return vgpu_rec_err(c, "device", "search_group",
					    "%u does not divide %s (%u units)",
					    p->search_group, what[i], units[i]);
	return vgpu_rec_err(c, "device", "search_group", "invalid value");
}

static int vgpu_wl_device(struct vgpu_rec_ctx *c, json_object *dev,
			  struct vgpu_workload *wl)
{
	struct vgpu_gpu_params *p = &wl->dev->params;
	json_object *v;
	const char *s, *bad;
	const struct vgpu_wl_num *num;
	uint32_t tmp[VGPU_MAX_SMS], n, i;
	int mode;

	if (dev && !json_object_is_type(dev, json_type_object))
		return vgpu_rec_err(c, "(top)", "device", "expected an object");
	s = "small";
	if (dev && json_object_object_get_ex(dev, "preset", &v) &&
	    vgpu_wl_str(c, "device", "preset", v, &s))
		return -EINVAL;
	if (vgpu_config_preset(&wl->dev->cfg, s))
		return vgpu_rec_err(c, "device", "preset",
				    "unknown preset '%s' (small, a100, h100)", s);
	if (dev && json_object_object_get_ex(dev, "config", &v) &&
	    vgpu_wl_config(c, v, &wl->dev->cfg))
		return -EINVAL;
	if (vgpu_config_validate(&wl->dev->cfg, &bad))
		return vgpu_rec_err(c, "device.config", bad ? bad : "?",
				    "invalid configuration");
	/* a kernel's affinity names VGPUL_WL_MAX_SMS SMs (workload.h) */
	if (wl->dev->cfg.num_sms > VGPUL_WL_MAX_SMS)
		return vgpu_rec_err(c, "device.config", "num_sms",
				    "at most %u SMs in a workload",
				    VGPUL_WL_MAX_SMS);
	vgpu_gpu_params_default(p, &wl->dev->cfg);
	if (!dev)
		return 0;
	json_object_object_foreach(dev, key, val) {
		num = vgpu_wl_num(key);
		if (num) {
			if (vgpu_wl_u32(c, "device", key, val, num->max,
					(uint32_t *)((char *)p + num->off)))
				return -EINVAL;
		} else if (!strcmp(key, "preset") || !strcmp(key, "config")) {
			continue;
		} else if (!strcmp(key, "policy")) {
			if (vgpu_wl_str(c, "device", key, val, &s))
				return -EINVAL;
			if (!*s || strlen(s) >= VGPU_POLICY_NAME_LEN)
				return vgpu_rec_err(c, "device", key,
						    "bad policy name");
			snprintf(p->policy, sizeof(p->policy), "%s", s);
		} else if (!strcmp(key, "sm_choice")) {
			if (vgpu_wl_str(c, "device", key, val, &s))
				return -EINVAL;
			if (!vgpu_policy_sm_choice(s))
				return vgpu_rec_err(c, "device", key,
						    "expected rr, avail, resource, power or combined");
			snprintf(p->sm_choice, sizeof(p->sm_choice), "%s", s);
		} else if (!strcmp(key, "preempt")) {
			if (vgpu_wl_mode(c, key, val, vgpul_preempt_parse,
					 "drain, warp, switch", &mode))
				return -EINVAL;
			p->preempt = mode;
		} else if (!strcmp(key, "pack")) {
			if (vgpu_wl_mode(c, key, val, vgpul_pack_parse,
					 "auto, block, sm", &mode))
				return -EINVAL;
			p->pack = mode;
		} else if (!strcmp(key, "search")) {
			if (vgpu_wl_mode(c, key, val, vgpul_search_parse,
					 "exact, grouped, sampled, mux", &mode))
				return -EINVAL;
			p->search = mode;
		} else if (!strcmp(key, "windows")) {
			if (vgpu_wl_u32_array(c, "device", key, val,
					      VGPU_GPU_MAX_WINDOWS,
					      VGPU_GPU_MAX_EPOCH, p->window,
					      &p->num_windows))
				return -EINVAL;
		} else if (!strcmp(key, "throttle") ||
			   !strcmp(key, "calibrate")) {
			if (!json_object_is_type(val, json_type_boolean))
				return vgpu_rec_err(c, "device", key,
						    "expected true or false");
			*(!strcmp(key, "throttle") ? &p->throttle :
			  &p->calibrate) = json_object_get_boolean(val);
		} else if (!strcmp(key, "latency")) {
			if (vgpu_wl_class_table(c, key, val,
						p->timing.latency))
				return -EINVAL;
		} else if (!strcmp(key, "power_weight")) {
			if (vgpu_wl_class_table(c, key, val,
						p->timing.weight))
				return -EINVAL;
		} else if (!strcmp(key, "res_weight")) {
			if (vgpu_wl_u32_array(c, "device", key, val, 4, 1 << 20,
					      p->res_weight, &n))
				return -EINVAL;
			if (n != 4)
				return vgpu_rec_err(c, "device", key,
						    "expected 4 weights");
		} else if (!strcmp(key, "res_energy")) {
			if (vgpu_wl_u32_array(c, "device", key, val, 4,
					      VGPU_MAX_ENERGY, p->res_energy,
					      &n))
				return -EINVAL;
			if (n != 4)
				return vgpu_rec_err(c, "device", key,
						    "expected 4 energies");
		} else if (!strcmp(key, "sm_order")) {
			if (vgpu_wl_u32_array(c, "device", key, val,
					      wl->dev->cfg.num_sms,
					      wl->dev->cfg.num_sms - 1, tmp, &n))
				return -EINVAL;
			for (i = 0; i < n; i++)
				wl->dev->sm_order[i] = tmp[i];
			wl->dev->n_sm_order = n;
		} else {
			return vgpu_rec_err(c, "device", key, "unknown field");
		}
	}
	if (vgpu_gpu_params_validate(p, &wl->dev->cfg, &bad)) {
		if (bad && !strcmp(bad, "search_group"))
			return vgpu_wl_search_group_err(c, p, &wl->dev->cfg);
		return vgpu_rec_err(c, "device", bad ? bad : "?",
				    "invalid value");
	}
	return 0;
}
static int vgpu_wl_parse(struct vgpu_rec_ctx *c, const char *text, size_t len,
			 struct vgpu_workload *wl)
{
	json_object *root, *v, *dev = NULL, *kernels = NULL, *bufs = NULL;
	size_t i, n;
	int ret;

	ret = vgpu_rec_json_parse(c, text, len, &root);
	if (ret)
		return ret;
	if (!json_object_is_type(root, json_type_object)) {
		ret = vgpu_rec_err(c, "(top)", "(document)",
				   "expected an object");
		goto out;
	}
	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "device"))
			dev = val;
		else if (!strcmp(key, "kernels"))
			kernels = val;
		else if (!strcmp(key, "buffers"))
			bufs = val;
		else if (strcmp(key, "comment") && strcmp(key, "name")) {
			ret = vgpu_rec_err(c, "(top)", key, "unknown field");
			goto out;
		}
	}
	ret = vgpu_wl_device(c, dev, wl);
	if (!ret && bufs)
		ret = vgpu_wl_buffers(c, wl, bufs);
	if (ret)
		goto out;
	if (!kernels || !json_object_is_type(kernels, json_type_array) ||
	    !json_object_array_length(kernels)) {
		ret = vgpu_rec_err(c, "(top)", "kernels",
				   "expected a non-empty array");
		goto out;
	}
	n = json_object_array_length(kernels);
	if (n > 65536) {
		ret = vgpu_rec_err(c, "(top)", "kernels", "too many kernels");
		goto out;
	}
	wl->kernels = calloc(n, sizeof(*wl->kernels));
	wl->dev->kfn = calloc(n, sizeof(*wl->dev->kfn));
	if (!wl->kernels || !wl->dev->kfn) {
		ret = -ENOMEM;
		goto out;
	}
	wl->nkernels = n;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(kernels, i);
		ret = vgpu_wl_kernel(c, wl, i, v);
		if (ret)
			goto out;
	}
out:
	json_object_put(root);
	return ret;
}

int vgpul_workload_load(const char *path, struct vgpu_workload *wl,
		       char *err, size_t errlen)
{
	struct vgpu_rec_ctx c = { .path = path, .err = err, .errlen = errlen };
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int ret;

	memset(wl, 0, sizeof(*wl));
	if (err && errlen)
		err[0] = 0;
	if (vgpul_device_new(wl)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	for (;;) {
		if (len + 4096 > cap) {
			char *nt;

			cap = cap ? 2 * cap : 16384;
			nt = realloc(text, cap + 1);
			if (!nt) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = nt;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		ret = -EIO;
		if (err && errlen)
			snprintf(err, errlen, "%s: read error", path);
		fclose(f);
		free(text);
		return ret;
	}
	fclose(f);
	text[len] = 0;
	ret = vgpu_wl_parse(&c, text, len, wl);
	free(text);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", path);
	return ret;
}

void vgpul_workload_free(struct vgpu_workload *wl)
{
	uint32_t i, j;

	for (i = 0; wl->kernels && i < wl->nkernels; i++) {
		vgpul_vasm_free(&wl->kernels[i].prog);
		free(wl->kernels[i].pushes);
		for (j = 0; j < wl->kernels[i].n_templates; j++)
			vgpul_vasm_free(&wl->kernels[i].templates[j].prog);
	}
	free(wl->kernels);
	vgpu_wl_buffers_free(wl->dev);
	free(wl->dev);
	wl->kernels = NULL;
	wl->nkernels = 0;
	wl->dev = NULL;
}
