/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recording.h - what the recording readers and the workload file parser
 * share (recording.c).  Not installed.
 */
#ifndef VGPU_RECORDING_H
#define VGPU_RECORDING_H

#include <stdarg.h>
#include <stddef.h>

#include <vgpu/import.h>

struct json_object;

/**
 * struct vgpu_rec_ctx - one load: where its errors go
 * @path: the file named in messages
 * @err: the message buffer
 * @errlen: its size
 * @failed: an error was recorded (the first one wins)
 */
struct vgpu_rec_ctx {
	const char *path;
	char *err;
	size_t errlen;
	int failed;
};

/**
 * vgpu_rec_err() - record "FILE: RECORD: FIELD: message"
 * @c: the load
 * @record: which record ("row 3", "traceEvents[2]", "(file)")
 * @field: which field ("gridX", "args.grid", "(syntax)")
 * @fmt: printf format of the message
 *
 * Return: -EINVAL.
 */
int vgpu_rec_err(struct vgpu_rec_ctx *c, const char *record,
		 const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * vgpu_rec_json_parse() - parse one whole JSON document
 * @c: the load; a syntax error names its line and column
 * @text: the document, @len bytes (not NUL-terminated)
 * @len: its length
 * @root: out: the document (json_object_put() it) on success
 *
 * Return: 0; -ENOMEM; or -EINVAL, recorded in @c, for a syntax error or
 * anything but white space after the document.
 */
int vgpu_rec_json_parse(struct vgpu_rec_ctx *c, const char *text, size_t len,
			struct json_object **root);

/**
 * vgpu_rec_push() - append a zeroed kernel to @rec
 * @rec: the recording
 *
 * Return: the new kernel, or NULL when out of memory.
 */
struct vgpu_rec_kernel *vgpu_rec_push(struct vgpu_recording *rec);

/**
 * vgpu_rec_set_name() - copy a recorded name, truncated
 * @k: the kernel
 * @s: the name (NULL or empty: "kernel")
 */
void vgpu_rec_set_name(struct vgpu_rec_kernel *k, const char *s);

/**
 * vgpu_rec_read_file() - a whole file in memory, NUL-terminated
 * @path: the file
 * @len: its length
 *
 * Return: the text (free()), or NULL with errno set.
 */
char *vgpu_rec_read_file(const char *path, size_t *len);

#endif /* VGPU_RECORDING_H */
