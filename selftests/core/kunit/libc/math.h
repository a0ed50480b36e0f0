/* SPDX-License-Identifier: GPL-2.0 */
/* <math.h> of vgpu_core_kunit.ko: see ../vgpu_kunit_libc.h. */
#include "../vgpu_kunit_libc.h"
