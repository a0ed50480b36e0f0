-- SPDX-License-Identifier: GPL-2.0
-- A small Nsight Systems SQLite export (nsys export --type sqlite), the
-- tables and columns of its published schema that the importer reads plus
-- some it ignores.  Two processes (pids 4242 and 5151, in globalPid bits
-- 24..47), streams 7 and 13 of 4242 and stream 7 of 5151, times in ns.
-- Turned into a .sqlite at test time (test_import.c, sqlite3_exec()).
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
	start INTEGER NOT NULL, end INTEGER NOT NULL,
	deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
	streamId INTEGER NOT NULL, correlationId INTEGER,
	globalPid INTEGER, demangledName INTEGER NOT NULL,
	shortName INTEGER NOT NULL, mangledName INTEGER,
	launchType INTEGER NOT NULL, cacheConfig INTEGER NOT NULL,
	registersPerThread INTEGER NOT NULL,
	gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
	blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
	staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
	localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,
	gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER,
	graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE TARGET_INFO_GPU (id INTEGER NOT NULL, name TEXT NOT NULL, smCount INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100 80GB HBM3', 132);
INSERT INTO StringIds VALUES (1, 'void gemm_kernel<float, 128, 64>(float const*, float*)');
INSERT INTO StringIds VALUES (2, 'gemm_kernel');
INSERT INTO StringIds VALUES (3, 'layer_norm_fwd');
INSERT INTO StringIds VALUES (4, 'flash_fwd_kernel');
INSERT INTO StringIds VALUES (5, 'too_many_registers');
INSERT INTO StringIds VALUES (6, 'reduce=sum kernel');
-- rows deliberately not in start order: the importer sorts by start
-- pid 4242 stream 7: gemm at 1000000 ns for 40 us
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000000, 1040000, 0, 1, 7, 101,
	72057665206878208, 1, 2, 1, 0, 0, 168, 8, 16, 1, 256, 1, 1, 16384, 32768,
	0, 0, 1, 0, NULL, NULL);
-- pid 4242 stream 13: layer norm 5 us later, 6 us
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1005000, 1011000, 0, 1, 13, 102,
	72057665206878208, 3, 3, 3, 0, 0, 30, 2048, 1, 1, 32, 4, 1, 0, 0,
	0, 0, 2, 0, NULL, NULL);
-- pid 5151 stream 7: flash attention at 1002000 ns, 25 us
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1002000, 1027000, 0, 2, 7, 201,
	72057680457367552, 4, 4, 4, 0, 0, 255, 4, 8, 2, 128, 1, 1, 0, 98304,
	0, 0, 3, 0, NULL, NULL);
-- pid 4242 stream 7 again: 256 registers never fit (skipped, reported)
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1050000, 1052000, 0, 1, 7, 103,
	72057665206878208, 5, 5, 5, 0, 0, 256, 1, 1, 1, 32, 1, 1, 0, 0,
	0, 0, 4, 0, NULL, NULL);
-- pid 4242 stream 7: a name with a blank and '=' (made legal)
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1060000, 1063000, 0, 1, 7, 104,
	72057665206878208, 6, 6, 6, 0, 0, 16, 1, 1, 1, 1024, 1, 1, 4096, 0,
	0, 0, 5, 0, NULL, NULL);
