/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload_internal.h - what the two halves of the workload reader share:
 * workload.c (the document, its device section, load and free) and
 * workload_kernel.c (the kernels).  Every error goes through the load's
 * struct vgpu_rec_ctx as "FILE: POSITION: FIELD: message".  Not installed.
 */
#ifndef VGPUL_WORKLOAD_INTERNAL_H
#define VGPUL_WORKLOAD_INTERNAL_H

#include <stdint.h>
#include <json-c/json.h>

#include <vgpu/workload.h>

#include "recording.h"

/**
 * vgpu_wl_uint() - an unsigned integer field <= @max
 * @c: the load
 * @pos: JSON path of the object, e.g. "kernels[2]"
 * @field: the field's name
 * @v: its value
 * @max: largest value allowed
 * @out: the value
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_uint(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		 json_object *v, uint64_t max, uint64_t *out);

/**
 * vgpu_wl_u32() - vgpu_wl_uint() for a 32-bit field
 * @c: the load
 * @pos: JSON path of the object
 * @field: the field's name
 * @v: its value
 * @max: largest value allowed
 * @out: the value
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_u32(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		json_object *v, uint32_t max, uint32_t *out);

/**
 * vgpu_wl_count() - vgpu_wl_u32() for a count: 1..@max ("must be >= 1")
 * @c: the load
 * @pos: JSON path of the object
 * @field: the field's name
 * @v: its value
 * @max: largest value allowed
 * @out: the value
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_count(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		  json_object *v, uint32_t max, uint32_t *out);

/**
 * vgpu_wl_str() - a string field
 * @c: the load
 * @pos: JSON path of the object
 * @field: the field's name
 * @v: its value
 * @out: the string (owned by @v)
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_str(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		json_object *v, const char **out);

/**
 * vgpu_wl_name() - a name field (a kernel's, a buffer's)
 * @c: the load
 * @pos: JSON path of the object
 * @field: the field's name
 * @v: its value
 * @out: the name (owned by @v): 1-63 characters, no blanks or '='
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_name(struct vgpu_rec_ctx *c, const char *pos, const char *field,
		 json_object *v, const char **out);

/**
 * vgpu_wl_u32_array() - an array of at most @maxn integers <= @maxv
 * @c: the load
 * @pos: JSON path of the object
 * @field: the field's name
 * @v: its value
 * @maxn: most entries
 * @maxv: largest value of an entry
 * @out: room for @maxn values
 * @n: entries read
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_u32_array(struct vgpu_rec_ctx *c, const char *pos,
		      const char *field, json_object *v, uint32_t maxn,
		      uint32_t maxv, uint32_t *out, uint32_t *n);

/**
 * vgpu_wl_kernel() - read kernels[@idx] into @wl->kernels[@idx]
 * @c: the load
 * @wl: the workload, its device section read
 * @idx: the kernel's index
 * @o: its JSON object
 *
 * Return: 0, -EINVAL recorded in @c, or -ENOMEM.
 */
int vgpu_wl_kernel(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		   uint32_t idx, json_object *o);

/**
 * vgpu_wl_buffers() - read the top-level "buffers" array (buffers.c)
 * @c: the load
 * @wl: the workload, its device section read
 * @v: the array
 *
 * Return: 0, -EINVAL recorded in @c, or -ENOMEM.
 */
int vgpu_wl_buffers(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		    json_object *v);

/**
 * vgpu_wl_kernel_fn() - a kernel's "buffers", "private" and "insn_budget"
 *	(buffers.c)
 * @c: the load
 * @wl: the workload, its buffers read
 * @idx: the kernel's index
 * @pos: its JSON path
 * @key: "buffers", "private" or "insn_budget"
 * @v: the value
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_kernel_fn(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		      uint32_t idx, const char *pos, const char *key,
		      json_object *v);

/**
 * vgpu_wl_kernel_fn_check() - a kernel's functional checks once it is
 *	read: "buffers", "private" and "insn_budget" need a functional
 *	program, whose
 *	registers fit "regs"; a buffer belongs to one tenant (buffers.c)
 * @c: the load
 * @wl: the workload
 * @idx: the kernel's index
 * @pos: its JSON path
 *
 * Return: 0, or -EINVAL recorded in @c.
 */
int vgpu_wl_kernel_fn_check(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
			    uint32_t idx, const char *pos);

/**
 * vgpu_wl_buffers_free() - free what buffers.c allocated
 * @dev: the device section (may be NULL)
 */
void vgpu_wl_buffers_free(struct vgpul_device *dev);

#endif /* VGPUL_WORKLOAD_INTERNAL_H */
