/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of the scheduling parameters' modes (names.c): one table each,
 * shared by the module (new_device, debugfs), vgpu-sim and libvgpu.
 */
#ifndef VGPU_CORE_NAMES_H
#define VGPU_CORE_NAMES_H

#include "vgpu_os.h"

const char *vgpu_gpu_preempt_name(u32 mode);
int vgpu_gpu_preempt_parse(const char *name);
const char *vgpu_gpu_pack_name(u32 pack);
int vgpu_gpu_pack_parse(const char *name);
const char *vgpu_gpu_search_name(u32 mode);
int vgpu_gpu_search_parse(const char *name);

#endif /* VGPU_CORE_NAMES_H */
