/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of the scheduling parameters' modes (names.c): one table,
 * shared by the module (new_device, debugfs), vgpu-sim and libvgpu.
 */
#ifndef VGPU_CORE_NAMES_H
#define VGPU_CORE_NAMES_H

#include "vgpu_os.h"

/**
 * enum vgpu_mode_kind - the parameters whose values have names
 * @VGPU_MODE_PREEMPT: &vgpu_gpu_params.preempt, VGPU_PREEMPT_* (F23)
 * @VGPU_MODE_PACK: &vgpu_gpu_params.pack, VGPU_PACK_* (F25)
 * @VGPU_MODE_SEARCH: &vgpu_gpu_params.search, VGPU_SEARCH_* (F40-F43)
 * @VGPU_MODE_KINDS: how many
 */
enum vgpu_mode_kind {
	VGPU_MODE_PREEMPT,
	VGPU_MODE_PACK,
	VGPU_MODE_SEARCH,
	VGPU_MODE_KINDS
};

const char *vgpu_mode_name(enum vgpu_mode_kind kind, u32 v);
int vgpu_mode_parse(enum vgpu_mode_kind kind, const char *name);

#endif /* VGPU_CORE_NAMES_H */
