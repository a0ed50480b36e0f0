// SPDX-License-Identifier: GPL-2.0
/*
 * recording.c - what the recording readers (import_nsys.c,
 * import_kineto.c, import_accelsim.c) and the workload file parser
 * (workload.c, workload_kernel.c) share: the error message of a load, the
 * JSON document parse, the kernel array of a recording and reading a
 * whole file.  import.c dispatches to the readers and calls none of them
 * back; recording.h is the interface.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "recording.h"

int vgpu_rec_err(struct vgpu_rec_ctx *c, const char *record,
		 const char *field, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (c->failed)
		return -EINVAL;
	c->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: %s: %s: %s", c->path, record,
			 field, msg);
	return -EINVAL;
}

int vgpu_rec_json_parse(struct vgpu_rec_ctx *c, const char *text, size_t len,
			struct json_object **root)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t off, i, line = 1, col = 1;
	char pos[48];

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	*root = json_tokener_parse_ex(tok, text, len);
	jerr = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (*root && off < len && (text[off] == ' ' || text[off] == '\n' ||
				      text[off] == '\t' || text[off] == '\r'))
		off++;
	if (*root && jerr == json_tokener_success && off >= len)
		return 0;
	if (jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(pos, sizeof(pos), "%zu:%zu", line, col);
	vgpu_rec_err(c, pos, "(syntax)", "%s",
		     *root ? "trailing data after the document" :
		     json_tokener_error_desc(jerr));
	if (*root)
		json_object_put(*root);
	*root = NULL;
	return -EINVAL;
}

struct vgpu_rec_kernel *vgpu_rec_push(struct vgpu_recording *rec)
{
	struct vgpu_rec_kernel *nk;
	size_t ncap;

	if (rec->n == rec->cap) {
		ncap = rec->cap ? 2 * rec->cap : 64;
		nk = realloc(rec->k, ncap * sizeof(*nk));
		if (!nk)
			return NULL;
		rec->k = nk;
		rec->cap = ncap;
	}
	memset(&rec->k[rec->n], 0, sizeof(rec->k[0]));
	return &rec->k[rec->n++];
}

void vgpu_rec_set_name(struct vgpu_rec_kernel *k, const char *s)
{
	snprintf(k->name, sizeof(k->name), "%s", s && *s ? s : "kernel");
}

char *vgpu_rec_read_file(const char *path, size_t *len)
{
	size_t cap = 0, got;
	char *text = NULL, *nt;
	FILE *f;
	int e;

	*len = 0;
	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 4096 > cap) {
			cap = cap ? 2 * cap : 16384;
			nt = realloc(text, cap + 1);
			if (!nt) {
				free(text);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			text = nt;
		}
		got = fread(text + *len, 1, cap - *len, f);
		*len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		e = EIO;
		free(text);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	text[*len] = 0;
	return text;
}
