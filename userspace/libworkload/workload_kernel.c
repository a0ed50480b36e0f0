// SPDX-License-Identifier: GPL-2.0
/*
 * workload_kernel.c - the kernels of a workload file (Documentation/
 * workloads.rst, "Kernels"): programs (inline or .vasm files), flags,
 * child templates (F15), queues and their pushes (F14); workload.c reads
 * the document and its device section.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include <vgpu/workload.h>

#include "recording.h"
#include "workload_core.h"
#include "workload_internal.h"


static int vgpu_wl_program(struct vgpu_rec_ctx *c, const char *pos,
			   const char *field, json_object *v,
			   struct vgpu_vasm_prog *prog)
{
	char msg[256], name[512];
	char *src = NULL;
	size_t len = 0, i, n;
	const char *line;
	int ret;

	if (json_object_is_type(v, json_type_string)) {
		src = strdup(json_object_get_string(v));
		if (!src)
			return -ENOMEM;
		len = strlen(src);
	} else if (json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(v, i);
			char *nsrc;

			if (!json_object_is_type(e, json_type_string)) {
				free(src);
				return vgpu_rec_err(c, pos, field,
						    "expected strings (lines)");
			}
			line = json_object_get_string(e);
			nsrc = realloc(src, len + strlen(line) + 2);
			if (!nsrc) {
				free(src);
				return -ENOMEM;
			}
			src = nsrc;
			memcpy(src + len, line, strlen(line));
			len += strlen(line);
			src[len++] = '\n';
			src[len] = 0;
		}
	} else {
		return vgpu_rec_err(c, pos, field,
				    "expected vasm text or an array of lines");
	}
	snprintf(name, sizeof(name), "%s: %s.%s", c->path, pos, field);
	ret = vgpul_vasm_assemble(name, src ? src : "", len, 0, prog, msg,
				 sizeof(msg));
	free(src);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return vgpu_rec_err(c, pos, field, "%s", msg);
	return 0;
}

static int vgpu_wl_program_file(struct vgpu_rec_ctx *c, const char *pos,
				json_object *v, struct vgpu_vasm_prog *prog)
{
	char msg[512], file[1024];
	const char *s = NULL, *slash;
	int ret;

	if (vgpu_wl_str(c, pos, "program_file", v, &s))
		return -EINVAL;
	slash = strrchr(c->path, '/');
	if (s[0] != '/' && slash)
		snprintf(file, sizeof(file), "%.*s/%s",
			 (int)(slash - c->path), c->path, s);
	else
		snprintf(file, sizeof(file), "%s", s);
	ret = vgpul_vasm_assemble_file(file, 0, prog, msg, sizeof(msg));
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return vgpu_rec_err(c, pos, "program_file", "%s", msg);
	return 0;
}

static const struct {
	const char *name;
	uint32_t flag;
} vgpu_wl_flags[] = {
	{ "independent", VGPU_KF_INDEPENDENT },
	{ "sequential", VGPU_KF_SEQUENTIAL },
	{ "throttle", VGPU_KF_THROTTLE },
	{ "head", VGPU_KF_HEAD },
};

static int vgpu_wl_kernel_flags(struct vgpu_rec_ctx *c, const char *pos,
				json_object *v, uint32_t *flags)
{
	size_t i, j, n;
	const char *s = NULL;

	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, pos, "flags", "expected an array");
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		if (vgpu_wl_str(c, pos, "flags",
				json_object_array_get_idx(v, i), &s))
			return -EINVAL;
		for (j = 0; j < sizeof(vgpu_wl_flags) /
			    sizeof(vgpu_wl_flags[0]); j++)
			if (!strcmp(s, vgpu_wl_flags[j].name))
				break;
		if (j == sizeof(vgpu_wl_flags) / sizeof(vgpu_wl_flags[0]))
			return vgpu_rec_err(c, pos, "flags",
					    "unknown flag '%s' (independent, sequential, throttle, head)",
					    s);
		*flags |= vgpu_wl_flags[j].flag;
	}
	return 0;
}

/* The LAUNCHes of @p name templates below @n; no LAUNCH when independent. */
static int vgpu_wl_launch_check(struct vgpu_rec_ctx *c, const char *pos,
				const struct vgpu_vasm_prog *p, uint32_t n,
				uint32_t flags)
{
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		if (p->insns[i].op != VGPU_OP_LAUNCH)
			continue;
		if (flags & VGPU_KF_INDEPENDENT)
			return vgpu_rec_err(c, pos, "program",
					    "line %u: LAUNCH in an independent kernel (a split would run it once per warp)",
					    p->lines[i]);
		if (p->insns[i].a >= n)
			return vgpu_rec_err(c, pos, "program",
					    "line %u: LAUNCH %u: only %u template%s",
					    p->lines[i], p->insns[i].a, n,
					    n == 1 ? "" : "s");
	}
	return 0;
}

/* One child template (F15): grid, threads, regs, smem, flags, program. */
static int vgpu_wl_template(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
			    const char *kpos, uint32_t idx, json_object *o,
			    struct vgpu_wl_template *t)
{
	bool have_prog = false, have_grid = false, have_threads = false;
	uint32_t flags = 0;
	char pos[64];
	int ret;

	snprintf(pos, sizeof(pos), "%s.templates[%u]", kpos, idx);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, pos, "(template)", "expected an object");
	t->regs = 32;
	json_object_object_foreach(o, key, v) {
		if (!strcmp(key, "grid")) {
			have_grid = true;
			ret = vgpu_wl_count(c, pos, key, v, VGPU_MAX_GRID,
					    &t->grid);
		} else if (!strcmp(key, "threads")) {
			have_threads = true;
			ret = vgpu_wl_count(c, pos, key, v,
					    wl->dev->cfg.max_threads_per_block,
					    &t->threads);
		} else if (!strcmp(key, "regs")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  VGPU_MAX_REGS_PER_THREAD, &t->regs);
		} else if (!strcmp(key, "smem")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  wl->dev->cfg.smem_max_per_block, &t->smem);
		} else if (!strcmp(key, "flags")) {
			ret = vgpu_wl_kernel_flags(c, pos, v, &flags);
			if (!ret && (flags & ~(VGPU_KF_INDEPENDENT |
					       VGPU_KF_SEQUENTIAL)))
				ret = vgpu_rec_err(c, pos, key,
						   "a template may be independent or sequential only (it runs in its parent's mode)");
			t->flags = flags;
		} else if (!strcmp(key, "program") ||
			   !strcmp(key, "program_file")) {
			if (have_prog)
				return vgpu_rec_err(c, pos, key,
						    "program given twice");
			have_prog = true;
			ret = !strcmp(key, "program") ?
			      vgpu_wl_program(c, pos, key, v, &t->prog) :
			      vgpu_wl_program_file(c, pos, v, &t->prog);
		} else {
			ret = vgpu_rec_err(c, pos, key, "unknown field");
		}
		if (ret)
			return ret;
	}
	if (!have_grid)
		return vgpu_rec_err(c, pos, "grid", "missing");
	if (!have_threads)
		return vgpu_rec_err(c, pos, "threads", "missing");
	if (!have_prog)
		return vgpu_rec_err(c, pos, "program", "missing");
	return 0;
}

static int vgpu_wl_templates(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
			     const char *pos, json_object *v,
			     struct vgpu_wl_kernel *k)
{
	size_t i, n;
	int ret;

	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, pos, "templates", "expected an array");
	n = json_object_array_length(v);
	if (n > VGPU_MAX_TEMPLATES)
		return vgpu_rec_err(c, pos, "templates", "more than %u entries",
				    VGPU_MAX_TEMPLATES);
	for (i = 0; i < n; i++) {
		/* counted first: vgpul_workload_free() frees what was parsed */
		k->n_templates = i + 1;
		ret = vgpu_wl_template(c, wl, pos, i,
				       json_object_array_get_idx(v, i),
				       &k->templates[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* One entry of "push": {"at": C, "items": N, "close": B}. */
static int vgpu_wl_push(struct vgpu_rec_ctx *c, const char *kpos, uint32_t idx,
			json_object *o, struct vgpu_wl_kernel *k)
{
	struct vgpu_wl_push *p = &k->pushes[idx];
	bool have_items = false;
	char pos[64];
	int ret = 0;

	snprintf(pos, sizeof(pos), "%s.queue.push[%u]", kpos, idx);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, pos, "(push)", "expected an object");
	json_object_object_foreach(o, key, v) {
		if (!strcmp(key, "at")) {
			ret = vgpu_wl_uint(c, pos, key, v, 1ULL << 48, &p->at);
		} else if (!strcmp(key, "items")) {
			have_items = true;
			ret = vgpu_wl_u32(c, pos, key, v, k->queue_cap,
					  &p->items);
		} else if (!strcmp(key, "close")) {
			if (!json_object_is_type(v, json_type_boolean))
				return vgpu_rec_err(c, pos, key,
						    "expected true or false");
			p->close = json_object_get_boolean(v);
		} else {
			ret = vgpu_rec_err(c, pos, key, "unknown field");
		}
		if (ret)
			return ret;
	}
	if (!have_items && !p->close)
		return vgpu_rec_err(c, pos, "items", "missing");
	if (!p->items && !p->close)
		return vgpu_rec_err(c, pos, "items",
				    "must be >= 1 (or the push closes)");
	if (p->close && idx + 1 != k->n_pushes)
		return vgpu_rec_err(c, pos, "close",
				    "only the last push may close the queue");
	return 0;
}

/*
 * "queue": {"n": N, "cap": C, "timeout": T, "push": [...]}: a queue kernel
 * (F14).  "n", "cap" and "timeout" come first in the check, whatever their
 * order in the file, so that "push" is checked against "cap".
 */
static int vgpu_wl_queue(struct vgpu_rec_ctx *c, const char *kpos,
			 json_object *o, struct vgpu_wl_kernel *k)
{
	json_object *v, *push = NULL;
	char pos[48];
	uint32_t i;
	int ret = 0;

	snprintf(pos, sizeof(pos), "%s.queue", kpos);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, kpos, "queue", "expected an object");
	json_object_object_foreach(o, key, val) {
		if (strcmp(key, "n") && strcmp(key, "cap") &&
		    strcmp(key, "timeout") && strcmp(key, "push") &&
		    strcmp(key, "records"))
			return vgpu_rec_err(c, pos, key, "unknown field");
	}
	k->flags |= VGPU_KF_QUEUE;
	if (!json_object_object_get_ex(o, "n", &v))
		return vgpu_rec_err(c, pos, "n", "missing");
	ret = vgpu_wl_count(c, pos, "n", v, VGPU_MAX_COALESCE, &k->queue_n);
	if (ret)
		return ret;
	k->queue_cap = VGPU_MAX_QUEUE_ITEMS;
	if (json_object_object_get_ex(o, "cap", &v)) {
		ret = vgpu_wl_count(c, pos, "cap", v, VGPU_MAX_QUEUE_ITEMS,
				    &k->queue_cap);
		if (ret)
			return ret;
	}
	if (!json_object_object_get_ex(o, "timeout", &v))
		return vgpu_rec_err(c, pos, "timeout", "missing");
	ret = vgpu_wl_uint(c, pos, "timeout", v, VGPU_GPU_MAX_QTIMEOUT,
			   &k->queue_timeout);
	if (!ret && !k->queue_timeout)
		ret = vgpu_rec_err(c, pos, "timeout", "must be >= 1");
	if (ret)
		return ret;
	if (json_object_object_get_ex(o, "records", &v)) {
		ret = vgpu_wl_u32(c, pos, "records", v, k->queue_cap,
				  &k->records);
		if (ret)
			return ret;
	}
	if (json_object_object_get_ex(o, "push", &push)) {
		if (!json_object_is_type(push, json_type_array))
			return vgpu_rec_err(c, pos, "push", "expected an array");
		k->n_pushes = json_object_array_length(push);
		if (k->n_pushes > 65536)
			return vgpu_rec_err(c, pos, "push", "too many pushes");
		k->pushes = calloc(k->n_pushes ? k->n_pushes : 1,
				   sizeof(*k->pushes));
		if (!k->pushes)
			return -ENOMEM;
		for (i = 0; !ret && i < k->n_pushes; i++)
			ret = vgpu_wl_push(c, kpos, i,
					   json_object_array_get_idx(push, i),
					   k);
	}
	return ret;
}

/*
 * A block the device's search mode can never find room for, not even on
 * an empty SM (F40-F43, seed 001 [0041]): the sampled search sees runs of
 * powers of two only.  What fits no empty SM at all the controller
 * refuses at submission (-E2BIG); this names the search and its run, of
 * shared memory, registers or scalar registers (@sregs, 0 for none).
 */
static int vgpu_wl_search_check(struct vgpu_rec_ctx *c,
				const struct vgpu_workload *wl,
				const char *pos, uint32_t threads,
				uint32_t regs, uint32_t smem, uint32_t sregs)
{
	const struct vgpu_config *cfg = &wl->dev->cfg;
	const struct vgpu_gpu_params *p = &wl->dev->params;
	struct vgpu_block_shape shape;
	uint32_t run;

	if (vgpu_block_shape_init(&shape, cfg, threads, regs, smem, 0, NULL) ||
	    vgpu_block_shape_set_sregs(&shape, cfg, sregs) ||
	    !vgpu_block_fits_empty(cfg, &shape) ||
	    vgpu_gpu_search_fits_empty(cfg, p, &shape))
		return 0;
	run = vgpu_gpu_search_run_empty(p, vgpu_config_smem_units(cfg));
	if (shape.smem_units > run)
		return vgpu_rec_err(c, pos, "smem",
				    "%u bytes (%u units of %u with the block's reserve) never fit the %s search's largest run on an empty SM (%u of %u units)",
				    smem, shape.smem_units, cfg->smem_unit,
				    vgpu_mode_name(VGPU_MODE_SEARCH, p->search),
				    run, vgpu_config_smem_units(cfg));
	run = vgpu_gpu_search_run_empty(p, vgpu_config_sreg_units(cfg));
	if (shape.sreg_units > run)
		return vgpu_rec_err(c, pos, "sregs",
				    "%u a warp (%u units) never fit the %s search's largest run on an empty sub-partition's scalar file (%u of %u units)",
				    sregs, shape.sreg_units,
				    vgpu_mode_name(VGPU_MODE_SEARCH, p->search),
				    run, vgpu_config_sreg_units(cfg));
	run = vgpu_gpu_search_run_empty(p, vgpu_config_reg_units(cfg));
	return vgpu_rec_err(c, pos, "regs",
			    "%u per thread (%u units a warp) never fit the %s search's largest run on an empty sub-partition (%u of %u units)",
			    regs, shape.reg_units,
			    vgpu_mode_name(VGPU_MODE_SEARCH, p->search), run,
			    vgpu_config_reg_units(cfg));
}

int vgpu_wl_kernel(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		   uint32_t idx, json_object *o)
{
	struct vgpu_wl_kernel *k = &wl->kernels[idx];
	uint32_t aff[VGPU_MAX_SMS], n, i;
	const char *push_name = NULL;
	bool have_prog = false, have_grid = false, have_threads = false;
	const char *s = NULL;
	char pos[32];
	int ret;

	snprintf(pos, sizeof(pos), "kernels[%u]", idx);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, pos, "(kernel)", "expected an object");
	k->regs = 32;
	json_object_object_foreach(o, key, v) {
		if (!strcmp(key, "name")) {
			if (vgpu_wl_name(c, pos, key, v, &s))
				return -EINVAL;
			snprintf(k->name, sizeof(k->name), "%s", s);
		} else if (!strcmp(key, "channel")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  wl->dev->params.max_channels - 1,
					  &k->channel);
		} else if (!strcmp(key, "tenant")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  VGPU_GPU_MAX_CHANNELS - 1,
					  &k->tenant);
		} else if (!strcmp(key, "priority")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  wl->dev->cfg.num_prios - 1, &k->prio);
		} else if (!strcmp(key, "arrival")) {
			ret = vgpu_wl_uint(c, pos, key, v, 1ULL << 48,
					   &k->arrival);
		} else if (!strcmp(key, "cancel_at")) {
			ret = vgpu_wl_uint(c, pos, key, v, 1ULL << 48,
					   &k->cancel_at);
		} else if (!strcmp(key, "grid")) {
			have_grid = true;
			ret = vgpu_wl_count(c, pos, key, v, 1U << 24, &k->grid);
		} else if (!strcmp(key, "threads")) {
			have_threads = true;
			ret = vgpu_wl_count(c, pos, key, v,
					    wl->dev->cfg.max_threads_per_block,
					    &k->threads);
		} else if (!strcmp(key, "regs")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  VGPU_MAX_REGS_PER_THREAD, &k->regs);
		} else if (!strcmp(key, "sregs")) {
			ret = vgpu_wl_u32(c, pos, key, v, UINT32_MAX, &k->sregs);
		} else if (!strcmp(key, "smem")) {
			ret = vgpu_wl_u32(c, pos, key, v,
					  wl->dev->cfg.smem_max_per_block, &k->smem);
		} else if (!strcmp(key, "quota")) {
			ret = vgpu_wl_u32(c, pos, key, v, UINT32_MAX,
					  &k->quota);
		} else if (!strcmp(key, "deadline")) {
			ret = vgpu_wl_uint(c, pos, key, v, VGPU_MAX_DEADLINE,
					   &k->deadline);
		} else if (!strcmp(key, "prio_wid_mod")) {
			ret = vgpu_wl_u32(c, pos, key, v, VGPU_MAX_PRIOS,
					  &k->prio_wid_mod);
		} else if (!strcmp(key, "push_to")) {
			ret = vgpu_wl_str(c, pos, key, v, &push_name);
		} else if (!strcmp(key, "warp_prio")) {
			/* checked against the block's warps at submission */
			ret = vgpu_wl_u32_array(c, pos, key, v,
						sizeof(k->warp_prio),
						wl->dev->cfg.num_prios - 1, aff, &n);
			for (i = 0; !ret && i < n; i++)
				k->warp_prio[i] = aff[i];
			k->n_warp_prio = ret ? 0 : n;
		} else if (!strcmp(key, "flags")) {
			ret = vgpu_wl_kernel_flags(c, pos, v, &k->flags);
		} else if (!strcmp(key, "affinity")) {
			ret = vgpu_wl_u32_array(c, pos, key, v, wl->dev->cfg.num_sms,
						wl->dev->cfg.num_sms - 1, aff, &n);
			for (i = 0; !ret && i < n; i++)
				k->affinity[aff[i] / 64] |= 1ULL << (aff[i] % 64);
			if (!ret && !n)
				ret = vgpu_rec_err(c, pos, key,
						   "must list at least one SM");
		} else if (!strcmp(key, "templates")) {
			ret = vgpu_wl_templates(c, wl, pos, v, k);
		} else if (!strcmp(key, "child_budget")) {
			ret = vgpu_wl_u32(c, pos, key, v, VGPU_MAX_CHILDREN,
					  &k->child_budget);
		} else if (!strcmp(key, "queue")) {
			ret = vgpu_wl_queue(c, pos, v, k);
		} else if (!strcmp(key, "program")) {
			if (have_prog)
				return vgpu_rec_err(c, pos, key,
						    "program given twice");
			have_prog = true;
			ret = vgpu_wl_program(c, pos, key, v, &k->prog);
		} else if (!strcmp(key, "program_file")) {
			if (have_prog)
				return vgpu_rec_err(c, pos, key,
						    "program given twice");
			have_prog = true;
			ret = vgpu_wl_program_file(c, pos, v, &k->prog);
		} else if (!strcmp(key, "buffers") ||
			   !strcmp(key, "private") ||
			   !strcmp(key, "insn_budget")) {
			ret = vgpu_wl_kernel_fn(c, wl, idx, pos, key, v);
		} else {
			ret = vgpu_rec_err(c, pos, key, "unknown field");
		}
		if (ret)
			return ret;
	}
	if (!k->name[0])
		return vgpu_rec_err(c, pos, "name", "missing");
	if ((k->flags & VGPU_KF_QUEUE) && have_grid)
		return vgpu_rec_err(c, pos, "grid",
				    "a queue kernel has no grid (its blocks come from pushed items)");
	if ((k->flags & VGPU_KF_QUEUE) && !k->cancel_at &&
	    (!k->n_pushes || !k->pushes[k->n_pushes - 1].close))
		return vgpu_rec_err(c, pos, "queue",
				    "never closed: end \"push\" with {\"at\": C, \"close\": true} (or set cancel_at)");
	if (!have_grid && !(k->flags & VGPU_KF_QUEUE))
		return vgpu_rec_err(c, pos, "grid", "missing");
	if (!have_threads)
		return vgpu_rec_err(c, pos, "threads", "missing");
	if (!have_prog)
		return vgpu_rec_err(c, pos, "program", "missing");
	ret = vgpu_wl_kernel_fn_check(c, wl, idx, pos);
	if (!ret)
		ret = vgpu_wl_launch_check(c, pos, &k->prog, k->n_templates,
					   k->flags);
	for (i = 0; !ret && i < k->n_templates; i++) {
		char tpos[64];

		snprintf(tpos, sizeof(tpos), "%s.templates[%u]", pos, i);
		ret = vgpu_wl_launch_check(c, tpos, &k->templates[i].prog,
					   k->n_templates,
					   k->templates[i].flags);
	}
	if (!ret)
		ret = vgpu_wl_search_check(c, wl, pos, k->threads, k->regs,
					   k->smem, k->sregs);
	for (i = 0; !ret && i < k->n_templates; i++) {
		char tpos[64];

		snprintf(tpos, sizeof(tpos), "%s.templates[%u]", pos, i);
		ret = vgpu_wl_search_check(c, wl, tpos, k->templates[i].threads,
					   k->templates[i].regs,
					   k->templates[i].smem, 0);
	}
	if (ret)
		return ret;
	/* F35: one level per warp of a block */
	if (k->n_warp_prio &&
	    k->n_warp_prio != (k->threads + wl->dev->cfg.warp_size - 1) /
			      wl->dev->cfg.warp_size)
		return vgpu_rec_err(c, pos, "warp_prio",
				    "one level per warp: %u given for blocks of %u warps",
				    k->n_warp_prio,
				    (k->threads + wl->dev->cfg.warp_size - 1) /
				    wl->dev->cfg.warp_size);
	/* F14: PUSH feeds an earlier queue kernel, named by push_to */
	for (i = 0; push_name && i < idx; i++)
		if (!strcmp(wl->kernels[i].name, push_name))
			break;
	if (push_name && (i == idx || !(wl->kernels[i].flags & VGPU_KF_QUEUE)))
		return vgpu_rec_err(c, pos, "push_to",
				    "'%s' is not an earlier queue kernel",
				    push_name);
	if (push_name)
		k->push_to = i + 1;
	for (i = 0; i < idx; i++) {
		if (!strcmp(wl->kernels[i].name, k->name))
			return vgpu_rec_err(c, pos, "name",
					    "'%s' already used by kernels[%u]",
					    k->name, i);
		/* a channel belongs to one open file through the module */
		if (wl->kernels[i].channel == k->channel &&
		    wl->kernels[i].tenant != k->tenant)
			return vgpu_rec_err(c, pos, "tenant",
					    "channel %u is tenant %u's (kernels[%u])",
					    k->channel, wl->kernels[i].tenant, i);
	}
	return 0;
}
