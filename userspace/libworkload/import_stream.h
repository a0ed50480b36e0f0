/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import_stream.h - recordings kernel by kernel: a
 * recording read as a stream in start order, and the mapping of one
 * recorded kernel at a time onto a preset, so that a replay holds the
 * kernels in flight and not the whole recording.  Used by vgpu-sim replay
 * and bench replay; vgpul_import_map() maps through the same code.  Not
 * installed.
 */
#ifndef VGPU_IMPORT_STREAM_H
#define VGPU_IMPORT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vgpu/import.h>

#include "workload_core.h"

/**
 * struct vgpu_imp_chan - the (recording, process, device, stream) of a
 *	channel
 * @rec: recording (tenant) index
 * @pid: process id
 * @device: device id
 * @stream: stream id
 */
struct vgpu_imp_chan {
	size_t rec;
	uint64_t pid;
	uint64_t device;
	uint64_t stream;
};

#define VGPU_IMP_PCACHE	32	/* synthesised programs remembered */

/**
 * struct vgpu_imp_pcache - one remembered synthesised program
 * @k: LOADs per iteration
 * @n: iterations
 * @prog: the assembled program (@prog.n == 0: the entry is empty)
 */
struct vgpu_imp_pcache {
	uint64_t k;
	uint64_t n;
	struct vgpu_vasm_prog prog;
};

/**
 * struct vgpu_import_mapper - the mapping of recorded kernels, one by one
 * @cfg: the preset's configuration
 * @params: its default parameters (max_channels raised to the channels
 *	seen, by vgpul_import_map())
 * @opts: the caller's options (may be NULL)
 * @preset: the preset's name
 * @mhz: the device clock the timestamps convert with
 * @max_channels: channels allowed (at most VGPU_GPU_MAX_CHANNELS)
 * @chans: the channels met so far, in order of first kernel
 * @nch: their number
 * @st: kernels seen, mapped, skipped, clamped; channels
 * @cache: synthesised programs by shape (Documentation/workloads.rst,
 *	"Duration": recordings repeat their kernels)
 * @cache_next: the entry replaced next
 */
struct vgpu_import_mapper {
	struct vgpu_config cfg;
	struct vgpu_gpu_params params;
	const struct vgpu_import_opts *opts;
	const char *preset;
	uint32_t mhz;
	uint32_t max_channels;
	struct vgpu_imp_chan chans[VGPU_GPU_MAX_CHANNELS];
	uint32_t nch;
	struct vgpu_import_stats st;
	struct vgpu_imp_pcache cache[VGPU_IMP_PCACHE];
	unsigned int cache_next;
};

/**
 * vgpu_import_mapper_init() - start mapping onto a preset
 * @m: the mapper
 * @opts: preset, clock, priorities, offsets, report stream (NULL: h100)
 * @err: message buffer
 * @errlen: its size
 *
 * Return: 0, or -EINVAL for an unknown preset (@err set).
 */
int vgpu_import_mapper_init(struct vgpu_import_mapper *m,
			    const struct vgpu_import_opts *opts, char *err,
			    size_t errlen);

/**
 * vgpu_import_mapper_fini() - free the program cache
 * @m: the mapper
 */
void vgpu_import_mapper_fini(struct vgpu_import_mapper *m);

/**
 * vgpu_import_map_one() - map one recorded kernel
 * @m: the mapper
 * @r: the recording (tenant) it belongs to
 * @path: that recording's file (messages)
 * @first: the first start of that recording (ns)
 * @rk: the recorded kernel
 * @index: the workload index it gets (its name's suffix)
 * @k: out: the workload kernel (its program the caller's to free); left
 *	alone when the kernel is skipped
 * @err: message buffer
 * @errlen: its size
 *
 * A kernel that cannot run on the preset is counted, reported on
 * @m->opts->report and skipped.
 *
 * Return: 1 mapped, 0 skipped, or a negative errno with @err set.
 */
int vgpu_import_map_one(struct vgpu_import_mapper *m, size_t r,
			const char *path, uint64_t first,
			const struct vgpu_rec_kernel *rk, uint64_t index,
			struct vgpu_wl_kernel *k, char *err, size_t errlen);

/**
 * vgpu_import_scan_one() - the channel of one recorded kernel, nothing else
 * @m: the mapper
 * @r: the recording (tenant) it belongs to
 * @path: that recording's file (messages)
 * @rk: the recorded kernel
 * @err: message buffer
 * @errlen: its size
 *
 * A first pass over recordings tenant by tenant numbers the channels as
 * vgpul_import_map() does (vgpu-sim replay of several recordings); nothing
 * is counted or reported.
 *
 * Return: 1 if the kernel fits the preset (it will be mapped), 0 if not,
 * or -EINVAL with @err set (too many channels).
 */
int vgpu_import_scan_one(struct vgpu_import_mapper *m, size_t r,
			 const char *path, const struct vgpu_rec_kernel *rk,
			 char *err, size_t errlen);

struct vgpu_rec_stream;

/**
 * vgpu_rec_stream_open() - open a recording to read kernel by kernel
 * @path: the file (or Accel-Sim directory)
 * @format: VGPU_REC_* (VGPU_REC_AUTO: detected)
 * @sp: out: the stream
 * @err: message buffer
 * @errlen: its size
 *
 * Nsight SQLite: a cursor over the kernel table ordered by start; Kineto
 * JSON: read 64 KiB at a time, one event parsed at a time, put in start
 * order through a window of VGPU_REC_STREAM_WINDOW kernels; Accel-Sim:
 * read whole (its kernel list is small).
 *
 * Return: 0, or a negative errno with @err set.
 */
int vgpu_rec_stream_open(const char *path, int format,
			 struct vgpu_rec_stream **sp, char *err,
			 size_t errlen);

#define VGPU_REC_STREAM_WINDOW	4096	/* Kineto kernels held to sort */

/**
 * vgpu_rec_stream_next() - the next kernel in (start, record) order
 * @s: the stream
 * @k: out: the kernel
 * @err: message buffer (the same messages as vgpul_rec_load())
 * @errlen: its size
 *
 * Return: 1 with @k filled, 0 at the end, or a negative errno with @err
 * set (a malformed file, a Kineto kernel that starts before one already
 * returned by more than the window).
 */
int vgpu_rec_stream_next(struct vgpu_rec_stream *s,
			 struct vgpu_rec_kernel *k, char *err, size_t errlen);

/**
 * vgpu_rec_stream_rewind() - start again from the first kernel
 * @s: the stream (an error of a previous read is not cleared)
 * @err: message buffer
 * @errlen: its size
 *
 * Return: 0 or a negative errno with @err set.
 */
int vgpu_rec_stream_rewind(struct vgpu_rec_stream *s, char *err,
			   size_t errlen);

/**
 * vgpu_rec_stream_close() - close a stream
 * @s: the stream, or NULL
 */
void vgpu_rec_stream_close(struct vgpu_rec_stream *s);

/**
 * vgpu_rec_stream_progress() - how much of the recording was read
 * @s: the stream
 *
 * Return: 0..1: rows returned of the table's (Nsight), bytes read of the
 * file's (Kineto), kernels returned (Accel-Sim).
 */
double vgpu_rec_stream_progress(const struct vgpu_rec_stream *s);

/**
 * vgpu_rec_stream_path() - the file a stream reads
 * @s: the stream
 *
 * Return: its path.
 */
const char *vgpu_rec_stream_path(const struct vgpu_rec_stream *s);

#endif /* VGPU_IMPORT_STREAM_H */
