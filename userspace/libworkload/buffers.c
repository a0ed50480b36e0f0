// SPDX-License-Identifier: GPL-2.0
/*
 * buffers.c - the buffers of a functional workload (Documentation/
 * workloads.rst, "Buffers"): the top-level "buffers" array (size, type,
 * flags, initial contents, expected contents), the buffers and private
 * memory each kernel names, the initial contents as the runners fill
 * them, and the check of a run's buffers against their expectations,
 * with the host references of the five examples (examples/functional/).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include <vgpu/workload.h>

#include "recording.h"
#include "workload_core.h"
#include "workload_internal.h"

enum vgpul_wl_type { VGPUL_T_U32, VGPUL_T_I32, VGPUL_T_F32 };
static const char *const vgpul_wl_type_names[] = { "u32", "i32", "f32" };

enum vgpul_wl_init {
	VGPUL_INIT_ZERO,
	VGPUL_INIT_AFFINE,	/* start + i * step; "iota": 0 + i */
	VGPUL_INIT_CONSTANT,
	VGPUL_INIT_LCG,
	VGPUL_INIT_VALUES,
};

enum vgpul_wl_ref {
	VGPUL_REF_VECTOR_ADD,
	VGPUL_REF_REDUCE,
	VGPUL_REF_MATMUL,
	VGPUL_REF_HISTOGRAM,
	VGPUL_REF_SCAN,
	VGPUL_REF_NONE,
};

/* Each reference: its name, its inputs and the output's type. */
static const struct {
	const char *name;
	uint32_t min_in, max_in;
	bool float_out;
} vgpul_wl_refs[] = {
	[VGPUL_REF_VECTOR_ADD] = { "vector_add", 2, 3, true },
	[VGPUL_REF_REDUCE] = { "reduce", 1, 1, false },
	[VGPUL_REF_MATMUL] = { "matmul", 3, 3, true },
	[VGPUL_REF_HISTOGRAM] = { "histogram", 1, 2, false },
	[VGPUL_REF_SCAN] = { "scan", 1, 1, false },
};

/* The multiplier and increment of the "lcg" generator (Numerical Recipes). */
#define VGPUL_LCG_MUL	1664525u
#define VGPUL_LCG_ADD	1013904223u
#define VGPUL_LCG_BITS	24

/**
 * struct vgpul_wl_buffer - one buffer of a workload
 * @name: its name, unique
 * @words: its size in 32-bit words
 * @type: VGPUL_T_*
 * @flags: VGPUL_BUF_*
 * @init: VGPUL_INIT_*
 * @istart: affine start (u32, i32)
 * @istep: affine step (u32, i32); lcg scale
 * @fstart: affine start (f32); lcg offset (f32)
 * @fstep: affine step (f32); lcg scale (f32)
 * @ioff: lcg offset (u32, i32)
 * @seed: lcg seed
 * @mod: lcg modulus, 1..2^24
 * @cval: the constant's bits
 * @ival: explicit initial words, @n_ival (malloc'd)
 * @n_ival: their number
 * @ref: VGPUL_REF_* of "expect", VGPUL_REF_NONE for explicit values or
 *	none
 * @ref_in: the reference's inputs (buffer indices), @n_ref_in
 * @n_ref_in: their number
 * @segment: scan: words per segment (0: the whole buffer)
 * @eval: expected words, @n_eval (malloc'd); with @ref NONE and
 *	@n_eval 0, nothing is expected
 * @n_eval: their number
 * @tenant: 1 + the tenant of the kernels naming it, 0 before one does
 */
struct vgpul_wl_buffer {
	char name[VGPU_WL_NAME_LEN];
	uint64_t words;
	uint32_t type;
	uint32_t flags;
	uint32_t init;
	int64_t istart, istep, ioff;
	double fstart, fstep;
	uint32_t seed, mod, cval;
	uint32_t *ival;
	uint32_t n_ival;
	uint32_t ref;
	uint32_t ref_in[3];
	uint32_t n_ref_in;
	uint32_t segment;
	uint32_t *eval;
	uint32_t n_eval;
	uint32_t tenant;
};

void vgpu_wl_buffers_free(struct vgpul_device *dev)
{
	uint32_t i;

	if (!dev)
		return;
	for (i = 0; dev->bufs && i < dev->nbufs; i++) {
		free(dev->bufs[i].ival);
		free(dev->bufs[i].eval);
	}
	free(dev->bufs);
	free(dev->kfn);
	dev->bufs = NULL;
	dev->kfn = NULL;
	dev->nbufs = 0;
}

static uint32_t vgpul_f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float vgpul_u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* A float result as the device gives it: every NaN is 0x7fc00000. */
static uint32_t vgpul_fbits(float f)
{
	return isnan(f) ? 0x7fc00000u : vgpul_f2u(f);
}

/* One value of @b's type: its 32 bits in *out. */
static int vgpu_wl_word(struct vgpu_rec_ctx *c, const char *pos,
			const char *field, const struct vgpul_wl_buffer *b,
			json_object *v, uint32_t *out)
{
	int64_t x;

	if (b->type == VGPUL_T_F32) {
		if (!json_object_is_type(v, json_type_double) &&
		    !json_object_is_type(v, json_type_int))
			return vgpu_rec_err(c, pos, field, "expected a number");
		*out = vgpul_f2u((float)json_object_get_double(v));
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return vgpu_rec_err(c, pos, field, "expected an integer");
	errno = 0;
	x = json_object_get_int64(v);
	if (errno || (b->type == VGPUL_T_U32 && (x < 0 || x > UINT32_MAX)) ||
	    (b->type == VGPUL_T_I32 && (x < INT32_MIN || x > INT32_MAX)))
		return vgpu_rec_err(c, pos, field, "not a %s value",
				    vgpul_wl_type_names[b->type]);
	*out = (uint32_t)x;
	return 0;
}

/* An array of at most @b->words values of @b's type (malloc'd *out). */
static int vgpu_wl_words(struct vgpu_rec_ctx *c, const char *pos,
			 const char *field, const struct vgpul_wl_buffer *b,
			 json_object *v, uint32_t **out, uint32_t *n)
{
	size_t i, len;
	char epos[128];

	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, pos, field, "expected an array");
	len = json_object_array_length(v);
	if (!len || len > b->words)
		return vgpu_rec_err(c, pos, field,
				    "1..%llu values (the buffer's words)",
				    (unsigned long long)b->words);
	*out = calloc(len, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	*n = len;
	for (i = 0; i < len; i++) {
		snprintf(epos, sizeof(epos), "%s.%s[%zu]", pos, field, i);
		if (vgpu_wl_word(c, epos, "(value)", b,
				 json_object_array_get_idx(v, i), &(*out)[i]))
			return -EINVAL;
	}
	return 0;
}

/* A signed integer field (affine, lcg of integer buffers). */
static int vgpu_wl_int(struct vgpu_rec_ctx *c, const char *pos,
		       const char *field, json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return vgpu_rec_err(c, pos, field, "expected an integer");
	errno = 0;
	*out = json_object_get_int64(v);
	if (errno || *out < -(1LL << 40) || *out > (1LL << 40))
		return vgpu_rec_err(c, pos, field,
				    "expected an integer in -2^40..2^40");
	return 0;
}

/* A number field (affine, lcg of float buffers). */
static int vgpu_wl_num(struct vgpu_rec_ctx *c, const char *pos,
		       const char *field, json_object *v, double *out)
{
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return vgpu_rec_err(c, pos, field, "expected a number");
	*out = json_object_get_double(v);
	if (!isfinite(*out))
		return vgpu_rec_err(c, pos, field, "expected a finite number");
	return 0;
}

/* "start"/"step" or "offset"/"scale" of @b: integers or numbers. */
static int vgpu_wl_pair(struct vgpu_rec_ctx *c, const char *pos,
			const char *key, json_object *v,
			struct vgpul_wl_buffer *b, int64_t *i, double *f)
{
	if (b->type == VGPUL_T_F32)
		return vgpu_wl_num(c, pos, key, v, f);
	return vgpu_wl_int(c, pos, key, v, i);
}

/*
 * "init": "zero" | "iota" | {"affine": {"start", "step"}} |
 * {"constant": V} | {"lcg": {"seed", "mod", "scale", "offset"}} |
 * {"values": [...]}.
 */
static int vgpu_wl_init(struct vgpu_rec_ctx *c, const char *bpos,
			json_object *v, struct vgpul_wl_buffer *b)
{
	char pos[96];
	const char *s;
	int ret = 0;

	b->istep = 1;
	b->fstep = 1;
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		if (!strcmp(s, "zero"))
			b->init = VGPUL_INIT_ZERO;
		else if (!strcmp(s, "iota"))
			b->init = VGPUL_INIT_AFFINE;
		else
			return vgpu_rec_err(c, bpos, "init",
					    "unknown generator '%s' (zero, iota, or an object: affine, constant, lcg, values)",
					    s);
		return 0;
	}
	if (!json_object_is_type(v, json_type_object) ||
	    json_object_object_length(v) != 1)
		return vgpu_rec_err(c, bpos, "init",
				    "expected \"zero\", \"iota\" or an object with one of affine, constant, lcg, values");
	snprintf(pos, sizeof(pos), "%s.init", bpos);
	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "values")) {
			b->init = VGPUL_INIT_VALUES;
			return vgpu_wl_words(c, pos, key, b, val, &b->ival,
					     &b->n_ival);
		}
		if (!strcmp(key, "constant")) {
			b->init = VGPUL_INIT_CONSTANT;
			return vgpu_wl_word(c, pos, key, b, val, &b->cval);
		}
		if (strcmp(key, "affine") && strcmp(key, "lcg"))
			return vgpu_rec_err(c, pos, key,
					    "unknown generator (affine, constant, lcg, values)");
		if (!json_object_is_type(val, json_type_object))
			return vgpu_rec_err(c, pos, key, "expected an object");
		snprintf(pos, sizeof(pos), "%s.init.%s", bpos, key);
		if (!strcmp(key, "affine")) {
			b->init = VGPUL_INIT_AFFINE;
		} else {
			b->init = VGPUL_INIT_LCG;
			b->mod = 1u << VGPUL_LCG_BITS;
		}
		json_object_object_foreach(val, k2, v2) {
			if (b->init == VGPUL_INIT_AFFINE &&
			    !strcmp(k2, "start")) {
				ret = vgpu_wl_pair(c, pos, k2, v2, b,
						   &b->istart, &b->fstart);
			} else if (b->init == VGPUL_INIT_AFFINE &&
				   !strcmp(k2, "step")) {
				ret = vgpu_wl_pair(c, pos, k2, v2, b,
						   &b->istep, &b->fstep);
			} else if (b->init == VGPUL_INIT_LCG &&
				   !strcmp(k2, "seed")) {
				ret = vgpu_wl_u32(c, pos, k2, v2, UINT32_MAX,
						  &b->seed);
			} else if (b->init == VGPUL_INIT_LCG &&
				   !strcmp(k2, "mod")) {
				ret = vgpu_wl_count(c, pos, k2, v2,
						    1u << VGPUL_LCG_BITS,
						    &b->mod);
			} else if (b->init == VGPUL_INIT_LCG &&
				   !strcmp(k2, "scale")) {
				ret = vgpu_wl_pair(c, pos, k2, v2, b,
						   &b->istep, &b->fstep);
			} else if (b->init == VGPUL_INIT_LCG &&
				   !strcmp(k2, "offset")) {
				ret = vgpu_wl_pair(c, pos, k2, v2, b,
						   &b->ioff, &b->fstart);
			} else {
				ret = vgpu_rec_err(c, pos, k2, "unknown field");
			}
			if (ret)
				return ret;
		}
		if (b->init == VGPUL_INIT_LCG &&
		    !json_object_object_get_ex(val, "seed", NULL))
			return vgpu_rec_err(c, pos, "seed", "missing");
	}
	return 0;
}

/* The index of the buffer named @name among the first @n, or -1. */
static int vgpu_wl_buf_find(const struct vgpul_device *dev, uint32_t n,
			    const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(dev->bufs[i].name, name))
			return i;
	return -1;
}

/*
 * "expect": {"values": [...]} | {"reference": NAME, "inputs": [...],
 * "segment": N}.  The inputs are read once every buffer is (they may
 * come later in the file): their names wait in @inputs.
 */
static int vgpu_wl_expect(struct vgpu_rec_ctx *c, const char *bpos,
			  json_object *v, struct vgpul_wl_buffer *b,
			  json_object **inputs)
{
	const char *s;
	char pos[96];
	uint32_t i;
	int ret = 0;

	snprintf(pos, sizeof(pos), "%s.expect", bpos);
	b->ref = VGPUL_REF_NONE;
	if (!json_object_is_type(v, json_type_object))
		return vgpu_rec_err(c, bpos, "expect",
				    "expected an object (values, or reference and inputs)");
	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "values")) {
			ret = vgpu_wl_words(c, pos, key, b, val, &b->eval,
					    &b->n_eval);
		} else if (!strcmp(key, "reference")) {
			if (vgpu_wl_str(c, pos, key, val, &s))
				return -EINVAL;
			for (i = 0; i < VGPUL_REF_NONE; i++)
				if (!strcmp(s, vgpul_wl_refs[i].name))
					break;
			if (i == VGPUL_REF_NONE)
				return vgpu_rec_err(c, pos, key,
						    "unknown reference '%s' (vector_add, reduce, matmul, histogram, scan)",
						    s);
			b->ref = i;
		} else if (!strcmp(key, "inputs")) {
			if (!json_object_is_type(val, json_type_array))
				return vgpu_rec_err(c, pos, key,
						    "expected an array of buffer names");
			*inputs = val;
		} else if (!strcmp(key, "segment")) {
			ret = vgpu_wl_count(c, pos, key, val, UINT32_MAX,
					    &b->segment);
		} else {
			ret = vgpu_rec_err(c, pos, key, "unknown field");
		}
		if (ret)
			return ret;
	}
	if (b->n_eval && (b->ref != VGPUL_REF_NONE || *inputs))
		return vgpu_rec_err(c, pos, "values",
				    "either values or a reference");
	if (!b->n_eval && b->ref == VGPUL_REF_NONE)
		return vgpu_rec_err(c, pos, "reference",
				    "missing (or give values)");
	if (b->ref != VGPUL_REF_NONE && !*inputs)
		return vgpu_rec_err(c, pos, "inputs", "missing");
	if (b->ref != VGPUL_REF_NONE &&
	    vgpul_wl_refs[b->ref].float_out != (b->type == VGPUL_T_F32))
		return vgpu_rec_err(c, pos, "reference",
				    "%s gives %s words: the buffer is %s",
				    vgpul_wl_refs[b->ref].name,
				    vgpul_wl_refs[b->ref].float_out ? "f32" :
				    "integer", vgpul_wl_type_names[b->type]);
	if (b->segment && b->ref != VGPUL_REF_SCAN)
		return vgpu_rec_err(c, pos, "segment", "only for scan");
	return 0;
}

/* The inputs of buffer @idx's reference, once every buffer is known. */
static int vgpu_wl_ref_inputs(struct vgpu_rec_ctx *c, struct vgpul_device *dev,
			      uint32_t idx, json_object *in)
{
	struct vgpul_wl_buffer *b = &dev->bufs[idx];
	const struct vgpul_wl_buffer *x;
	char pos[96];
	const char *s;
	size_t i, n = json_object_array_length(in);
	int j;

	snprintf(pos, sizeof(pos), "buffers[%u].expect", idx);
	if (n < vgpul_wl_refs[b->ref].min_in || n > vgpul_wl_refs[b->ref].max_in)
		return vgpu_rec_err(c, pos, "inputs",
				    "%s takes %u..%u inputs",
				    vgpul_wl_refs[b->ref].name,
				    vgpul_wl_refs[b->ref].min_in,
				    vgpul_wl_refs[b->ref].max_in);
	for (i = 0; i < n; i++) {
		if (vgpu_wl_str(c, pos, "inputs", json_object_array_get_idx(in, i),
				&s))
			return -EINVAL;
		j = vgpu_wl_buf_find(dev, dev->nbufs, s);
		if (j < 0)
			return vgpu_rec_err(c, pos, "inputs",
					    "no buffer named '%s'", s);
		if ((uint32_t)j == idx)
			return vgpu_rec_err(c, pos, "inputs",
					    "'%s' is the output itself", s);
		b->ref_in[i] = j;
	}
	b->n_ref_in = n;
	x = &dev->bufs[b->ref_in[0]];
	/* the shapes the sizes alone decide */
	if (b->ref == VGPUL_REF_REDUCE && x->words % b->words)
		return vgpu_rec_err(c, pos, "inputs",
				    "reduce: '%s' has %llu words, not a multiple of the output's %llu",
				    x->name, (unsigned long long)x->words,
				    (unsigned long long)b->words);
	if (b->ref == VGPUL_REF_HISTOGRAM && (b->words & (b->words - 1)))
		return vgpu_rec_err(c, pos, "reference",
				    "histogram: the bins (%llu words) are not a power of two",
				    (unsigned long long)b->words);
	return 0;
}

/* buffers[@idx]. */
static int vgpu_wl_buffer(struct vgpu_rec_ctx *c, struct vgpul_device *dev,
			  uint32_t idx, json_object *o, json_object **inputs,
			  uint64_t *total)
{
	struct vgpul_wl_buffer *b = &dev->bufs[idx];
	json_object *init = NULL, *expect = NULL;
	bool have_size = false;
	uint64_t x;
	char pos[32];
	const char *s;
	size_t i, n;
	int ret = 0;

	snprintf(pos, sizeof(pos), "buffers[%u]", idx);
	if (!json_object_is_type(o, json_type_object))
		return vgpu_rec_err(c, pos, "(buffer)", "expected an object");
	json_object_object_foreach(o, key, v) {
		if (!strcmp(key, "name")) {
			if (vgpu_wl_name(c, pos, key, v, &s))
				return -EINVAL;
			if (vgpu_wl_buf_find(dev, idx, s) >= 0)
				return vgpu_rec_err(c, pos, key,
						    "'%s' already used", s);
			snprintf(b->name, sizeof(b->name), "%s", s);
		} else if (!strcmp(key, "size") || !strcmp(key, "words")) {
			if (have_size)
				return vgpu_rec_err(c, pos, key,
						    "either size or words");
			have_size = true;
			ret = vgpu_wl_uint(c, pos, key, v,
					   VGPUL_WL_MAX_BUFFER_BYTES /
					   (key[0] == 's' ? 1 : 4), &x);
			if (!ret && (!x || (key[0] == 's' && x % 4)))
				ret = vgpu_rec_err(c, pos, key,
						   key[0] == 's' ?
						   "a positive multiple of 4 bytes" :
						   "must be >= 1");
			b->words = key[0] == 's' ? x / 4 : x;
		} else if (!strcmp(key, "type")) {
			if (vgpu_wl_str(c, pos, key, v, &s))
				return -EINVAL;
			for (i = 0; i < 3; i++)
				if (!strcmp(s, vgpul_wl_type_names[i]))
					break;
			if (i == 3)
				return vgpu_rec_err(c, pos, key,
						    "unknown type '%s' (u32, i32, f32)",
						    s);
			b->type = i;
		} else if (!strcmp(key, "flags")) {
			if (!json_object_is_type(v, json_type_array))
				return vgpu_rec_err(c, pos, key,
						    "expected an array");
			n = json_object_array_length(v);
			for (i = 0; i < n; i++) {
				if (vgpu_wl_str(c, pos, key,
						json_object_array_get_idx(v, i),
						&s))
					return -EINVAL;
				if (!strcmp(s, "read_only"))
					b->flags |= VGPUL_BUF_READ_ONLY;
				else if (!strcmp(s, "constant"))
					b->flags |= VGPUL_BUF_CONSTANT;
				else
					return vgpu_rec_err(c, pos, key,
							    "unknown flag '%s' (read_only, constant)",
							    s);
			}
		} else if (!strcmp(key, "init")) {
			init = v;
		} else if (!strcmp(key, "expect")) {
			expect = v;
		} else {
			ret = vgpu_rec_err(c, pos, key, "unknown field");
		}
		if (ret)
			return ret;
	}
	if (!b->name[0])
		return vgpu_rec_err(c, pos, "name", "missing");
	if (!have_size)
		return vgpu_rec_err(c, pos, "size", "missing (size or words)");
	*total += b->words * 4;
	if (*total > VGPUL_WL_MAX_BUFFER_BYTES)
		return vgpu_rec_err(c, pos, "size",
				    "the buffers of a workload hold at most %llu bytes together",
				    (unsigned long long)VGPUL_WL_MAX_BUFFER_BYTES);
	/* type and size first: init and expect values depend on them */
	b->ref = VGPUL_REF_NONE;
	if (init && vgpu_wl_init(c, pos, init, b))
		return -EINVAL;
	if (expect)
		return vgpu_wl_expect(c, pos, expect, b, inputs);
	return 0;
}

int vgpu_wl_buffers(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		    json_object *v)
{
	struct vgpul_device *dev = wl->dev;
	json_object **inputs;
	uint64_t total = 0;
	size_t n;
	uint32_t i;
	int ret = 0;

	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, "(top)", "buffers", "expected an array");
	n = json_object_array_length(v);
	if (n > VGPUL_WL_MAX_BUFFERS)
		return vgpu_rec_err(c, "(top)", "buffers",
				    "more than %u buffers", VGPUL_WL_MAX_BUFFERS);
	if (!n)
		return 0;
	dev->bufs = calloc(n, sizeof(*dev->bufs));
	inputs = calloc(n, sizeof(*inputs));
	if (!dev->bufs || !inputs) {
		free(inputs);
		return -ENOMEM;
	}
	for (i = 0; !ret && i < n; i++) {
		dev->nbufs = i + 1;	/* buffers.c frees what was read */
		ret = vgpu_wl_buffer(c, dev, i, json_object_array_get_idx(v, i),
				     &inputs[i], &total);
	}
	for (i = 0; !ret && i < n; i++)
		if (inputs[i])
			ret = vgpu_wl_ref_inputs(c, dev, i, inputs[i]);
	free(inputs);
	return ret;
}

int vgpu_wl_kernel_fn(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
		      uint32_t idx, const char *pos, const char *key,
		      json_object *v)
{
	struct vgpul_device *dev = wl->dev;
	struct vgpul_wl_fn *f = &dev->kfn[idx];
	const char *s;
	size_t i, n;
	int j;

	if (!strcmp(key, "insn_budget"))
		return vgpu_wl_uint(c, pos, key, v, UINT64_MAX,
				    &f->insn_budget);
	if (!strcmp(key, "private")) {
		if (vgpu_wl_u32(c, pos, key, v, VGPU_MAX_PRIVATE_BYTES,
				&f->private_bytes))
			return -EINVAL;
		if (f->private_bytes % 4)
			return vgpu_rec_err(c, pos, key,
					    "a multiple of 4 bytes");
		return 0;
	}
	if (!json_object_is_type(v, json_type_array))
		return vgpu_rec_err(c, pos, key,
				    "expected an array of buffer names");
	n = json_object_array_length(v);
	if (!n || n > VGPUL_WL_MAX_SLOTS)
		return vgpu_rec_err(c, pos, key, "1..%u buffer names (slots)",
				    VGPUL_WL_MAX_SLOTS);
	for (i = 0; i < n; i++) {
		if (vgpu_wl_str(c, pos, key, json_object_array_get_idx(v, i),
				&s))
			return -EINVAL;
		j = vgpu_wl_buf_find(dev, dev->nbufs, s);
		if (j < 0)
			return vgpu_rec_err(c, pos, key,
					    "no buffer named '%s'", s);
		f->buf[i] = j;
	}
	f->nbuf = n;
	return 0;
}

int vgpu_wl_kernel_fn_check(struct vgpu_rec_ctx *c, struct vgpu_workload *wl,
			    uint32_t idx, const char *pos)
{
	const struct vgpu_wl_kernel *k = &wl->kernels[idx];
	struct vgpul_wl_fn *f = &wl->dev->kfn[idx];
	struct vgpul_wl_buffer *b;
	struct vgpu_isa_summary sum;
	uint32_t i;

	if (vgpu_isa_summarize_flags(k->prog.insns, k->prog.n,
				     VGPU_ISA_FUNCTIONAL, &sum))
		return 0;	/* not functional; the submission says why */
	f->functional = sum.uses_functional;
	if (!f->functional && (f->nbuf || f->private_bytes || f->insn_budget))
		return vgpu_rec_err(c, pos, f->nbuf ? "buffers" :
				    f->private_bytes ? "private" :
				    "insn_budget",
				    "only for a functional program (.functional)");
	if (f->functional && sum.max_reg >= k->regs)
		return vgpu_rec_err(c, pos, "regs",
				    "the program uses r%u: at least %u registers per thread",
				    sum.max_reg, sum.max_reg + 1);
	for (i = 0; i < f->nbuf; i++) {
		b = &wl->dev->bufs[f->buf[i]];
		if (b->tenant && b->tenant != k->tenant + 1)
			return vgpu_rec_err(c, pos, "buffers",
					    "'%s' is tenant %u's (a buffer belongs to one open file)",
					    b->name, b->tenant - 1);
		b->tenant = k->tenant + 1;
	}
	return 0;
}

uint32_t vgpul_workload_num_buffers(const struct vgpu_workload *wl)
{
	return wl->dev ? wl->dev->nbufs : 0;
}

const char *vgpul_workload_buffer(const struct vgpu_workload *wl, uint32_t i,
				  uint64_t *size, uint32_t *flags)
{
	const struct vgpul_wl_buffer *b;

	if (i >= vgpul_workload_num_buffers(wl))
		return NULL;
	b = &wl->dev->bufs[i];
	if (size)
		*size = b->words * 4;
	if (flags)
		*flags = b->flags;
	return b->name;
}

/* Word @i of @b's "lcg" generator, advancing *s. */
static uint32_t vgpul_lcg_word(const struct vgpul_wl_buffer *b, uint32_t *s)
{
	uint32_t r;

	*s = *s * VGPUL_LCG_MUL + VGPUL_LCG_ADD;
	r = (*s >> (32 - VGPUL_LCG_BITS)) % b->mod;
	if (b->type == VGPUL_T_F32)
		return vgpul_fbits((float)((double)r * b->fstep + b->fstart));
	return (uint32_t)((int64_t)r * b->istep + b->ioff);
}

int vgpul_workload_buffer_fill(const struct vgpu_workload *wl, uint32_t i,
			       void *mem)
{
	const struct vgpul_wl_buffer *b;
	uint32_t *w = mem, s;
	uint64_t j;

	if (i >= vgpul_workload_num_buffers(wl))
		return -EINVAL;
	b = &wl->dev->bufs[i];
	memset(mem, 0, b->words * 4);
	s = b->seed;
	for (j = 0; j < b->words; j++) {
		switch (b->init) {
		case VGPUL_INIT_AFFINE:
			if (b->type == VGPUL_T_F32)
				w[j] = vgpul_fbits((float)(b->fstart +
							   (double)j * b->fstep));
			else
				w[j] = (uint32_t)(b->istart +
						  (int64_t)j * b->istep);
			break;
		case VGPUL_INIT_CONSTANT:
			w[j] = b->cval;
			break;
		case VGPUL_INIT_LCG:
			w[j] = vgpul_lcg_word(b, &s);
			break;
		case VGPUL_INIT_VALUES:
			if (j < b->n_ival)
				w[j] = b->ival[j];
			break;
		}
	}
	return 0;
}

bool vgpul_workload_kernel_functional(const struct vgpu_workload *wl,
				      uint32_t k)
{
	return wl->dev && wl->dev->kfn && k < wl->nkernels &&
	       wl->dev->kfn[k].functional;
}

uint32_t vgpul_workload_kernel_buffers(const struct vgpu_workload *wl,
				       uint32_t k, uint32_t *buf,
				       uint32_t *private_bytes)
{
	const struct vgpul_wl_fn *f;

	if (private_bytes)
		*private_bytes = 0;
	if (!wl->dev || !wl->dev->kfn || k >= wl->nkernels)
		return 0;
	f = &wl->dev->kfn[k];
	memcpy(buf, f->buf, f->nbuf * sizeof(*buf));
	if (private_bytes)
		*private_bytes = f->private_bytes;
	return f->nbuf;
}

uint64_t vgpul_workload_kernel_budget(const struct vgpu_workload *wl,
				      uint32_t k)
{
	if (!wl->dev || !wl->dev->kfn || k >= wl->nkernels)
		return 0;
	return wl->dev->kfn[k].insn_budget;
}

/* The initial words of every buffer (malloc'd, one block). */
static uint32_t **vgpul_initial(const struct vgpu_workload *wl)
{
	uint32_t **in, i;

	in = calloc(wl->dev->nbufs, sizeof(*in));
	for (i = 0; in && i < wl->dev->nbufs; i++) {
		in[i] = malloc(wl->dev->bufs[i].words * 4);
		if (!in[i])
			break;
		vgpul_workload_buffer_fill(wl, i, in[i]);
	}
	if (in && i < wl->dev->nbufs) {
		while (i--)
			free(in[i]);
		free(in);
		in = NULL;
	}
	return in;
}

/* Word 0 of input @k of @b's reference, or @dflt without one. */
static uint64_t vgpul_param(const struct vgpul_wl_buffer *b, uint32_t *const *in,
			    uint32_t k, uint64_t dflt)
{
	return k < b->n_ref_in ? in[b->ref_in[k]][0] : dflt;
}

static uint64_t vgpul_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * @want (the output's initial words) as reference @b->ref computes it
 * from the initial words @in of every buffer.  0, or -EINVAL with a line
 * to @out.
 */
static int vgpul_reference(const struct vgpu_workload *wl,
			   const struct vgpul_wl_buffer *b, uint32_t *const *in,
			   uint32_t *want, FILE *out)
{
	const struct vgpul_wl_buffer *bufs = wl->dev->bufs;
	const struct vgpul_wl_buffer *x = &bufs[b->ref_in[0]];
	const uint32_t *a = in[b->ref_in[0]];
	const uint32_t *y = b->n_ref_in > 1 ? in[b->ref_in[1]] : NULL;
	uint64_t n, m, i, j, kk, K, N, M;
	float acc;

	switch (b->ref) {
	case VGPUL_REF_VECTOR_ADD:	/* c[i] = a[i] + b[i], i < n */
		n = vgpul_min(vgpul_min(x->words, bufs[b->ref_in[1]].words),
			      b->words);
		n = vgpul_min(n, vgpul_param(b, in, 2, n));
		for (i = 0; i < n; i++)
			want[i] = vgpul_fbits(vgpul_u2f(a[i]) + vgpul_u2f(y[i]));
		return 0;
	case VGPUL_REF_REDUCE:		/* out[j] = sum of chunk j of in */
		m = x->words / b->words;
		for (j = 0; j < b->words; j++) {
			want[j] = 0;
			for (i = 0; i < m; i++)
				want[j] += a[j * m + i];
		}
		return 0;
	case VGPUL_REF_MATMUL:		/* C = A * B, fused multiply-adds */
		K = in[b->ref_in[2]][0];
		N = bufs[b->ref_in[2]].words > 1 ? in[b->ref_in[2]][1] : 0;
		M = N ? b->words / N : 0;
		if (!K || !N || M * N != b->words || M * K > x->words ||
		    K * N > bufs[b->ref_in[1]].words) {
			fprintf(out, "buffer %s: reference matmul: K=%llu N=%llu (the first words of '%s') do not fit %s (%llu words), %s (%llu), %s (%llu)\n",
				b->name, (unsigned long long)K,
				(unsigned long long)N, bufs[b->ref_in[2]].name,
				x->name, (unsigned long long)x->words,
				bufs[b->ref_in[1]].name,
				(unsigned long long)bufs[b->ref_in[1]].words,
				b->name, (unsigned long long)b->words);
			return -EINVAL;
		}
		for (i = 0; i < M; i++)
			for (j = 0; j < N; j++) {
				acc = 0.0f;
				for (kk = 0; kk < K; kk++)
					acc = fmaf(vgpul_u2f(a[i * K + kk]),
						   vgpul_u2f(y[kk * N + j]),
						   acc);
				want[i * N + j] = vgpul_fbits(acc);
			}
		return 0;
	case VGPUL_REF_HISTOGRAM:	/* out[v & (bins - 1)] += 1 */
		n = vgpul_min(x->words, vgpul_param(b, in, 1, x->words));
		for (i = 0; i < n; i++)
			want[a[i] & (b->words - 1)]++;
		return 0;
	case VGPUL_REF_SCAN:		/* inclusive, restarting per segment */
		n = vgpul_min(x->words, b->words);
		m = b->segment ? b->segment : n;
		for (i = 0; i < n; i++)
			want[i] = a[i] + (i % m ? want[i - 1] : 0);
		return 0;
	}
	return -EINVAL;
}

/* One word of buffer @b as text. */
static void vgpul_word_text(const struct vgpul_wl_buffer *b, uint32_t w,
			    char *buf, size_t len)
{
	if (b->type == VGPUL_T_F32)
		snprintf(buf, len, "%.9g (0x%08x)", vgpul_u2f(w), w);
	else if (b->type == VGPUL_T_I32)
		snprintf(buf, len, "%d", (int32_t)w);
	else
		snprintf(buf, len, "%u", w);
}

const char *vgpul_errno_name(int err)
{
	const char *s;

	if (err < 0)
		err = -err;
	s = strerrorname_np(err);
	return s ? s : "E?";
}

/* What a functional kernel's errno means (isa.rst, "Faults"). */
static const char *vgpul_fault_text(int err)
{
	switch (err < 0 ? -err : err) {
	case EFAULT:
		return "an access out of bounds";
	case EBADF:
		return "a buffer slot the kernel did not name (or LDC of a buffer that is not constant)";
	case EILSEQ:
		return "a misaligned access";
	case EROFS:
		return "a store or atomic to a read-only buffer";
	case EDEADLK:
		return "a divergent barrier";
	case EOVERFLOW:
		return "the reconvergence stack overflowed";
	case EXFULL:
		return "the instruction budget is exhausted";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

int vgpul_workload_check(const struct vgpu_workload *wl, void *const *mem,
			 const int *kerr, FILE *out)
{
	const struct vgpul_wl_buffer *b;
	uint32_t **in = NULL, *want = NULL, i;
	char got_s[48], want_s[48];
	uint64_t j, first, bad, n;
	const uint32_t *got;
	int ret = 0, r;

	for (i = 0; kerr && i < wl->nkernels; i++)
		if (kerr[i])
			fprintf(out, "kernel %s: failed: %s (%s)\n",
				wl->kernels[i].name, vgpul_errno_name(kerr[i]),
				vgpul_fault_text(kerr[i]));
	if (!vgpul_workload_num_buffers(wl))
		return 0;
	in = vgpul_initial(wl);
	if (!in)
		return -ENOMEM;
	for (i = 0; i < wl->dev->nbufs; i++) {
		b = &wl->dev->bufs[i];
		if (b->ref == VGPUL_REF_NONE && !b->n_eval)
			continue;
		got = mem[i];
		n = b->n_eval ? b->n_eval : b->words;
		if (b->n_eval) {
			want = b->eval;
		} else {
			want = malloc(b->words * 4);
			if (!want) {
				ret = -ENOMEM;
				break;
			}
			memcpy(want, in[i], b->words * 4);
			r = vgpul_reference(wl, b, in, want, out);
			if (r) {
				free(want);
				ret = r;
				break;
			}
		}
		for (j = 0, bad = 0, first = 0; j < n; j++)
			if (got[j] != want[j] && !bad++)
				first = j;
		if (!bad) {
			fprintf(out, "buffer %s: ok\n", b->name);
		} else {
			vgpul_word_text(b, got[first], got_s, sizeof(got_s));
			vgpul_word_text(b, want[first], want_s, sizeof(want_s));
			fprintf(out, "buffer %s: MISMATCH at word %llu: got %s want %s (%llu of %llu words differ)\n",
				b->name, (unsigned long long)first, got_s,
				want_s, (unsigned long long)bad,
				(unsigned long long)n);
			ret++;
		}
		if (!b->n_eval)
			free(want);
	}
	for (i = 0; i < wl->dev->nbufs; i++)
		free(in[i]);
	free(in);
	return ret;
}
