// SPDX-License-Identifier: GPL-2.0
/*
 * Per-worker pool of warp contexts (F34, F50, seed 004).
 */
#include "vgpu_os.h"
#include "warp.h"

/**
 * vgpu_worker_pool_init() - put every context of @storage on the free list
 * @pool: pool to initialise
 * @storage: @size contexts provided by the caller
 * @size: number of contexts
 */
void vgpu_worker_pool_init(struct vgpu_worker_pool *pool,
			   struct vgpu_warp *storage, u32 size)
{
	u32 i;

	memset(storage, 0, vgpu_worker_pool_bytes(size));
	pool->warps = storage;
	pool->size = size;
	for (i = 0; i < size; i++)
		storage[i].next = i + 1 < size ? i + 1 : VGPU_WARP_NONE;
	pool->free = size ? 0 : VGPU_WARP_NONE;
	pool->nfree = size;
}

/**
 * vgpu_worker_pool_fini() - tear down a pool (the storage is the caller's)
 * @pool: the pool
 */
void vgpu_worker_pool_fini(struct vgpu_worker_pool *pool)
{
	pool->warps = NULL;
	pool->size = 0;
	pool->free = VGPU_WARP_NONE;
	pool->nfree = 0;
}

