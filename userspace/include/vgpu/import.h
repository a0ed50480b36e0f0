/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import.h - recorded GPU kernel timelines as workloads (F68).
 * Part of libvgpu-workload.
 *
 * Three recording formats are read into one list of recorded kernels
 * (struct vgpu_recording): the Nsight Systems SQLite export
 * (CUPTI_ACTIVITY_KIND_KERNEL + StringIds, libsqlite3), PyTorch profiler /
 * Kineto Chrome-trace JSON (complete "kernel" events, libjson-c) and
 * Accel-Sim traces (kernelslist.g and the kernel-N.traceg headers, with
 * the instruction counts by class when the body is there).  One or more
 * recordings are then mapped onto a struct vgpu_workload for a preset
 * (vgpul_import_map()), as Documentation/workloads.rst describes.
 */
#ifndef VGPU_IMPORT_H
#define VGPU_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/workload.h>

/* Recording formats (vgpul_rec_load()). */
#define VGPU_REC_AUTO		0	/* by content, then by extension */
#define VGPU_REC_NSYS		1	/* Nsight Systems SQLite export */
#define VGPU_REC_KINETO		2	/* Kineto / Chrome-trace JSON */
#define VGPU_REC_ACCELSIM	3	/* Accel-Sim kernelslist.g / .traceg */
#define VGPU_REC_WORKLOAD	4	/* a workload file (not a recording) */

#define VGPU_REC_NAME_LEN	128
#define VGPU_REC_CLASSES	7	/* VGPU_ISA_NUM_CLASSES */

/**
 * struct vgpu_rec_kernel - one recorded kernel launch
 * @name: kernel name as recorded (truncated)
 * @record: where it was in its file, for messages ("row 12",
 *	"traceEvents[3]", "kernel-2.traceg")
 * @start: start timestamp in ns (0 without @timed)
 * @end: end timestamp in ns
 * @timed: @start and @end were recorded (not Accel-Sim)
 * @pid: recording process (Nsight: from globalPid; else 0)
 * @device: device id
 * @stream: stream id
 * @grid: grid dimensions x, y, z
 * @block: block dimensions x, y, z
 * @regs: registers per thread
 * @smem: static + dynamic shared memory per block, bytes
 * @insns: Accel-Sim body: instructions of each class (MOV, LOAD, STORE,
 *	MMA, CMP, BRA, ALU) over every traced warp
 * @warps: Accel-Sim body: traced warps (0: no body)
 */
struct vgpu_rec_kernel {
	char name[VGPU_REC_NAME_LEN];
	char record[48];
	uint64_t start;
	uint64_t end;
	bool timed;
	uint64_t pid;
	uint64_t device;
	uint64_t stream;
	uint32_t grid[3];
	uint32_t block[3];
	uint32_t regs;
	uint32_t smem;
	uint64_t insns[VGPU_REC_CLASSES];
	uint64_t warps;
};

/**
 * struct vgpu_recording - the kernels of one recording, in start order
 * @path: the file it was read from (malloc'd)
 * @format: VGPU_REC_NSYS, _KINETO or _ACCELSIM
 * @k: @n kernels (malloc'd)
 * @n: number of kernels
 * @cap: capacity of @k
 */
struct vgpu_recording {
	char *path;
	int format;
	struct vgpu_rec_kernel *k;
	size_t n;
	size_t cap;
};

/**
 * vgpul_rec_format_parse() - a format by name
 * @name: "auto", "nsys", "kineto" or "accelsim"
 *
 * Return: VGPU_REC_*, or -1.
 */
int vgpul_rec_format_parse(const char *name);

/**
 * vgpul_rec_format_name() - name of a format
 * @format: VGPU_REC_*
 *
 * Return: "auto", "nsys", "kineto", "accelsim", "workload" or "?".
 */
const char *vgpul_rec_format_name(int format);

/**
 * vgpul_rec_detect() - the format of a file, by content then extension
 * @path: the file (or an Accel-Sim trace directory)
 *
 * SQLite's header string makes an Nsight export; a JSON object naming
 * "kernels" in its first 64 KiB a workload, else one naming "traceEvents"
 * (or a *.pt.trace.json file), or a JSON array, a Kineto trace; a
 * directory, "-kernel name" or a kernel list an Accel-Sim trace; then
 * .sqlite/.db, .traceg/.g; anything else is taken for a workload.
 *
 * Return: VGPU_REC_*, or -errno if @path cannot be read.
 */
int vgpul_rec_detect(const char *path);

/**
 * vgpul_rec_load() - read a recording
 * @path: the file (for Accel-Sim: kernelslist.g, a .traceg or their
 *	directory)
 * @format: VGPU_REC_* (VGPU_REC_AUTO: vgpul_rec_detect())
 * @rec: result (free with vgpul_rec_free(), also after an error)
 * @err: first error, "FILE: RECORD: FIELD: message"
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for a malformed file, -ENOMEM, or -errno of a read.
 */
int vgpul_rec_load(const char *path, int format, struct vgpu_recording *rec,
		  char *err, size_t errlen);

/**
 * vgpul_rec_free() - release a recording
 * @rec: the recording (may be zeroed)
 */
void vgpul_rec_free(struct vgpu_recording *rec);

/**
 * vgpul_rec_clock_mhz() - the documented device clock of a preset
 * @preset: "small", "a100" or "h100"
 *
 * Return: MHz (1000, 1410, 1980), 0 for an unknown preset.
 */
uint32_t vgpul_rec_clock_mhz(const char *preset);

/**
 * struct vgpu_import_opts - how recordings become a workload
 * @preset: device preset ("h100" if NULL)
 * @clock_mhz: device clock, 0 = vgpul_rec_clock_mhz(@preset)
 * @priority: per recording (tenant), NULL = all 0
 * @offset: per recording, cycles added to its arrivals, NULL = none
 * @report: where skipped and clamped kernels are listed, or NULL
 */
struct vgpu_import_opts {
	const char *preset;
	uint32_t clock_mhz;
	const uint32_t *priority;
	const uint64_t *offset;
	FILE *report;
};

/**
 * struct vgpu_import_stats - what the mapping did
 * @kernels: recorded kernels
 * @mapped: kernels in the workload
 * @skipped: kernels that cannot run on the preset (reported)
 * @clamped: kernels shorter than the shortest synthesised program
 *	(they run longer than recorded; reported)
 * @channels: channels used (one per (recording, process, device, stream))
 */
struct vgpu_import_stats {
	uint64_t kernels;
	uint64_t mapped;
	uint64_t skipped;
	uint64_t clamped;
	uint32_t channels;
};

/**
 * vgpul_import_map() - map recordings onto a workload
 * @recs: @nrecs recordings; recording i is tenant i
 * @nrecs: 1..256
 * @opts: options
 * @wl: result (free with vgpul_workload_free(), also after an error)
 * @st: what was mapped, skipped and clamped
 * @err: error message
 * @errlen: its size
 *
 * Return: 0, -EINVAL (nothing to run, too many channels), -ENOMEM.
 */
int vgpul_import_map(const struct vgpu_recording *recs, size_t nrecs,
		    const struct vgpu_import_opts *opts,
		    struct vgpu_workload *wl, struct vgpu_import_stats *st,
		    char *err, size_t errlen);

/**
 * vgpul_import_program() - the program of a kernel that lasts @cycles alone
 * @preset: the device: "small", "a100" or "h100"
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block
 * @grid: blocks
 * @cycles: wanted duration alone on @preset, in cycles
 * @prog: result (vgpul_vasm_free())
 * @clamped: set when @cycles is below the shortest program
 *
 * Return: 0, -E2BIG if the block never fits an SM of @preset, -EINVAL for
 * an unknown preset, -ENOMEM.
 */
int vgpul_import_program(const char *preset, uint32_t threads,
			 uint32_t regs, uint32_t smem, uint32_t grid,
			 uint64_t cycles, struct vgpu_vasm_prog *prog,
			 bool *clamped);

/**
 * vgpul_workload_write() - write a workload as a workload file (JSON)
 * @f: the stream
 * @wl: a workload without queue kernels or templates (an imported one)
 *
 * Return: 0 or -EIO.
 */
int vgpul_workload_write(FILE *f, const struct vgpu_workload *wl);

/**
 * vgpul_workload_load_any() - a workload file or a recording
 * @path: the file
 * @wl: as for vgpul_workload_load()
 * @err: as for vgpul_workload_load()
 * @errlen: its size
 *
 * A recording (vgpul_rec_detect()) is mapped onto the h100 preset with the
 * default options; skipped kernels are listed on stderr.
 *
 * Return: as vgpul_workload_load().
 */
int vgpul_workload_load_any(const char *path, struct vgpu_workload *wl,
			   char *err, size_t errlen);

#endif /* VGPU_IMPORT_H */
