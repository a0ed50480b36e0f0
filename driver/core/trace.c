// SPDX-License-Identifier: GPL-2.0
/*
 * Event names and the FNV-1a trace hash (F51).
 */
#include "vgpu_os.h"
#include "trace.h"

/* VGPU_FNV64_PRIME^k for k = 0..8 (mod 2^64). */
static const u64 vgpu_fnv64_pow[9] = {
	0x1ULL, 0x100000001b3ULL, 0x366000002e329ULL, 0x8a97b0004e7feabULL,
	0x9ffaac085635bc91ULL, 0xcaee32a7d4f6a63ULL, 0xdc966432edf1c639ULL,
	0xc5527b8a51d3d2dbULL, 0x1efac7090aef4a21ULL,
};

/*
 * FNV-1a over the low @bytes bytes of @v (which has no bit above them).
 * A zero byte's step is a bare multiply (xor with 0 changes nothing), so
 * the zero bytes above the highest non-zero one fold as one multiply by
 * PRIME^k: the serial xor-multiply chain, which bounds the cost, only
 * covers the significant bytes.  Same result as one step per byte.
 */
static u64 vgpu_trace_fold_long(u64 hash, u64 v, u32 bytes)
{
	u32 n = (fls64(v) + 7) / 8, i;

	for (i = 0; i < n; i++) {
		hash ^= v & 0xff;
		hash *= VGPU_FNV64_PRIME;
		v >>= 8;
	}
	if (n < bytes)
		hash *= vgpu_fnv64_pow[bytes - n];
	return hash;
}

/*
 * vgpu_trace_fold_long() with the common values, of one to three
 * significant bytes, in straight lines: a byte's step multiplies by
 * PRIME, and the last significant byte's multiply and those of the zero
 * bytes above it are one multiply by PRIME^k (a zero byte inside the
 * value is a step like any other: xor with 0 changes nothing).
 */
static __always_inline u64 vgpu_trace_fold(u64 hash, u64 v, u32 bytes)
{
	if (v < 0x100)
		return (hash ^ v) * vgpu_fnv64_pow[bytes];
	if (v < 0x10000)
		return ((hash ^ (v & 0xff)) * VGPU_FNV64_PRIME ^ (v >> 8)) *
		       vgpu_fnv64_pow[bytes - 1];
	if (v < 0x1000000)
		return (((hash ^ (v & 0xff)) * VGPU_FNV64_PRIME ^
			 ((v >> 8) & 0xff)) * VGPU_FNV64_PRIME ^ (v >> 16)) *
		       vgpu_fnv64_pow[bytes - 2];
	return vgpu_trace_fold_long(hash, v, bytes);
}

/*
 * Folding the four bytes of VGPU_EV_NONE (0xff each).  Write h = H + l
 * with l its low byte: (h ^ b) = h + e with e = (l ^ b) - l, and the low
 * byte of (h ^ b) * PRIME depends on l and b only, so four steps give
 * h * PRIME^4 + sum(e_i * PRIME^(4 - i)) where every e_i depends on l
 * alone.  vgpu_fnv64_none[l] is that sum (mod 2^64): one multiply and one
 * load instead of four dependent xor-multiply steps.
 */
static const u64 vgpu_fnv64_none[256] = {
	0xc5cede4fcf44295cULL, 0x4ed0323c2e5eff5cULL, 0xd7cf86288d766f5cULL,
	0xb3c4da1ebc8b355cULL, 0x43922e0b216c5d5cULL, 0xcc9181f78083cd5cULL,
	0xa886d5edaf98935cULL, 0x318829da0eb3695cULL, 0xba877dc66dcad95cULL,
	0x967cd1bc9cdf9f5cULL, 0x264a25a901c0c75cULL, 0xaf49799560d8375cULL,
	0x3848cd81bfefa75cULL, 0x14402177ef07d35cULL, 0x9d3f75644e1f435cULL,
	0x263ec950ad36b35cULL, 0x09021d46e215315cULL, 0x92017133412ca15cULL,
	0x1b00c51fa044115cULL, 0xf6f81915cf5c3d5cULL, 0x7ff76d022e73ad5cULL,
	0x08f6c0ee8d8b1d5cULL, 0x91f814daeca5f35cULL, 0x74b968d121810b5cULL,
	0xfdb8bcbd80987b5cULL, 0x86ba10a9dfb3515cULL, 0x62af64a00ec8175cULL,
	0xebaeb88c6ddf875cULL, 0x74b00c78ccfa5d5cULL, 0x5771606f01d5755cULL,
	0xe070b45b60ece55cULL, 0x69720847c007bb5cULL, 0xf2715c341f1f2b5cULL,
	0xce66b02a4e33f15cULL, 0x57680416ad4ec75cULL, 0xe7335803122c895cULL,
	0xc328abf941414f5cULL, 0x4c29ffe5a05c255cULL, 0xd52953d1ff73955cULL,
	0xb11ea7c82e885b5cULL, 0x3a1ffbb48da3315cULL, 0xc9eb4fa0f280f35cULL,
	0x52eaa38d5198635cULL, 0x2ee1f78380b08f5cULL, 0xb7e14b6fdfc7ff5cULL,
	0x40e09f5c3edf6f5cULL, 0x1cd7f3526df79b5cULL, 0xa5d7473ecd0f0b5cULL,
	0x35a29b2b31eccd5cULL, 0x1199ef216104f95cULL, 0x9a99430dc01c695cULL,
	0x239896fa1f33d95cULL, 0xac99eae67e4eaf5cULL, 0x888f3edcad63755cULL,
	0x185a92c91241375cULL, 0xa15be6b5715c0d5cULL, 0x7d513aaba070d35cULL,
	0x06508e97ff88435cULL, 0x8f51e2845ea3195cULL, 0x6b47367a8db7df5cULL,
	0xfb128a66f295a15cULL, 0x8413de5351b0775cULL, 0x0d13323fb0c7e75cULL,
	0xe9088635dfdcad5cULL, 0x7209da223ef7835cULL, 0xfb092e0e9e0ef35cULL,
	0xddca8204d2ea0b5cULL, 0x66cbd5f13204e15cULL, 0xefcb29dd911c515cULL,
	0xcbc07dd3c031175cULL, 0x54c1d1c01f4bed5cULL, 0xddc125ac7e635d5cULL,
	0x66c07998dd7acd5cULL, 0x4983cd8f12594b5cULL, 0xd283217b7170bb5cULL,
	0x5b827567d0882b5cULL, 0x3779c95dffa0575cULL, 0xc0791d4a5eb7c75cULL,
	0x49787136bdcf375cULL, 0x2c3bc52cf2adb55cULL, 0xb53b191951c5255cULL,
	0x3e3a6d05b0dc955cULL, 0xc73bc0f20ff76b5cULL, 0xa33114e83f0c315cULL,
	0x2c3068d49e23a15cULL, 0xbbfdbcc10304c95cULL, 0x97f310b732198f5cULL,
	0x20f264a39130ff5cULL, 0xa9f3b88ff04bd55cULL, 0x85e90c861f609b5cULL,
	0x0ee860727e780b5cULL, 0x9eb5b45ee359335cULL, 0x27b5084b4270a35cULL,
	0x03aa5c417185695cULL, 0x8cabb02dd0a03f5cULL, 0x15ab041a2fb7af5cULL,
	0xf1a058105ecc755cULL, 0x7aa1abfcbde74b5cULL, 0x0a6cffe922c50d5cULL,
	0xe66253df51d9d35cULL, 0x6f61a7cbb0f1435cULL, 0xf862fbb8100c195cULL,
	0x81624fa46f23895cULL, 0x5d57a39a9e384f5cULL, 0xed24f7870319775cULL,
	0x76244b736230e75cULL, 0x52199f699145ad5cULL, 0xdb1af355f060835cULL,
	0x641a47424f77f35cULL, 0x400f9b387e8cb95cULL, 0xcfdcef24e36de15cULL,
	0x58dc43114285515cULL, 0xe1db96fda19cc15cULL, 0xbdd2eaf3d0b4ed5cULL,
	0x46d23ee02fcc5d5cULL, 0xcfd192cc8ee3cd5cULL, 0xb294e6c2c3c24b5cULL,
	0x3b943aaf22d9bb5cULL, 0xc4938e9b81f12b5cULL, 0xa08ae291b109575cULL,
	0x298a367e1020c75cULL, 0xb2898a6a6f38375cULL, 0x4256de56d4195f5cULL,
	0x1e4c324d032e255cULL, 0xa74b86396245955cULL, 0x304cda25c1606b5cULL,
	0x0c422e1bf075315cULL, 0x954182084f8ca15cULL, 0x1e42d5f4aea7775cULL,
	0x010429eae3828f5cULL, 0x8a037dd74299ff5cULL, 0x1304d1c3a1b4d55cULL,
	0xeefa25b9d0c99b5cULL, 0x77f979a62fe10b5cULL, 0x00facd928efbe15cULL,
	0x90c6217ef3d9a35cULL, 0x6cbb757522ee695cULL, 0xf5bcc96182093f5cULL,
	0x7ebc1d4de120af5cULL, 0x5ab171441035755cULL, 0xe3b2c5306f504b5cULL,
	0x737e191cd42e0d5cULL, 0x4f736d130342d35cULL, 0xd874c0ff625da95cULL,
	0x617414ebc175195cULL, 0xea7368d8208c895cULL, 0xc66abcce4fa4b55cULL,
	0x563610bab482775cULL, 0xdf3564a71399e75cULL, 0xbb2cb89d42b2135cULL,
	0x442c0c89a1c9835cULL, 0xcd2b607600e0f35cULL, 0xa922b46c2ff91f5cULL,
	0x322208588f108f5cULL, 0xc1ed5c44f3ee515cULL, 0x4aeeb0315309275cULL,
	0x26e40427821ded5cULL, 0xafe35813e1355d5cULL, 0x38e4ac004050335cULL,
	0x14d9fff66f64f95cULL, 0xa4a553e2d442bb5cULL, 0x2da6a7cf335d915cULL,
	0x099bfbc56272575cULL, 0x929b4fb1c189c75cULL, 0x1b9ca39e20a49d5cULL,
	0xa49bf78a7fbc0d5cULL, 0x875d4b80b497255cULL, 0x105e9f6d13b1fb5cULL,
	0x995df35972c96b5cULL, 0x7553474fa1de315cULL, 0xfe549b3c00f9075cULL,
	0x8753ef286010775cULL, 0x6a15431e94eb8f5cULL, 0xf316970af406655cULL,
	0x7c15eaf7531dd55cULL, 0x05153ee3b235455cULL, 0xe10c92d9e14d715cULL,
	0x6a0be6c64064e15cULL, 0xf30b3ab29f7c515cULL, 0xd5ce8ea8d45acf5cULL,
	0x5ecde29533723f5cULL, 0xe7cd36819289af5cULL, 0xc3c48a77c1a1db5cULL,
	0x4cc3de6420b94b5cULL, 0xd5c332507fd0bb5cULL, 0x6590863ce4b1e35cULL,
	0x4185da3313c6a95cULL, 0xca852e1f72de195cULL, 0x5386820bd1f8ef5cULL,
	0x2f7bd602010db55cULL, 0xb87b29ee6025255cULL, 0x48487ddac5064d5cULL,
	0x243dd1d0f41b135cULL, 0xad3d25bd5332835cULL, 0x363e79a9b24d595cULL,
	0xbf3dcd961164c95cULL, 0x9b33218c40798f5cULL, 0x2b007578a55ab75cULL,
	0xb3ffc9650472275cULL, 0x8ff51d5b3386ed5cULL, 0x18f6714792a1c35cULL,
	0xa1f5c533f1b9335cULL, 0x7deb192a20cdf95cULL, 0x06ec6d167fe8cf5cULL,
	0x96b7c102e4c6915cULL, 0x1fb714ef43de015cULL, 0xfbae68e572f62d5cULL,
	0x84adbcd1d20d9d5cULL, 0x0dad10be31250d5cULL, 0xe9a464b4603d395cULL,
	0x796fb8a0c51afb5cULL, 0x026f0c8d24326b5cULL, 0xde666083534a975cULL,
	0x6765b46fb262075cULL, 0xf065085c1179775cULL, 0x79665c4870944d5cULL,
	0x5c27b03ea56f655cULL, 0xe527042b0486d55cULL, 0x6e28581763a1ab5cULL,
	0x4a1dac0d92b6715cULL, 0xd31cfff9f1cde15cULL, 0x5c1e53e650e8b75cULL,
	0x3edfa7dc85c3cf5cULL, 0xc7defbc8e4db3f5cULL, 0x50e04fb543f6155cULL,
	0xd9dfa3a1a30d855cULL, 0xb5d4f797d2224b5cULL, 0x3ed64b84313d215cULL,
	0xc7d59f709054915cULL, 0xaa96f366c52fa95cULL, 0x33984753244a7f5cULL,
	0xbc979b3f8361ef5cULL, 0x988cef35b276b55cULL, 0x218e432211918b5cULL,
	0xaa8d970e70a8fb5cULL, 0x3a58eafad586bd5cULL, 0x16503ef1049ee95cULL,
	0x9f4f92dd63b6595cULL, 0x284ee6c9c2cdc95cULL, 0x04463abff1e5f55cULL,
	0x8d458eac50fd655cULL, 0x1d10e298b5db275cULL, 0xf908368ee4f3535cULL,
	0x82078a7b440ac35cULL, 0x0b06de67a322335cULL, 0x94083254023d095cULL,
	0x6ffd864a3151cf5cULL, 0xffc8da36962f915cULL, 0x88ca2e22f54a675cULL,
	0x64bf8219245f2d5cULL, 0xedbed60583769d5cULL, 0x76c029f1e291735cULL,
	0x52b57de811a6395cULL, 0xdbb4d1d470bda95cULL, 0x6b8225c0d59ed15cULL,
	0x477779b704b3975cULL,
};

/* FNV-1a over a 4-byte field. */
static __always_inline u64 vgpu_trace_fold32(u64 hash, u32 v)
{
	if (v < 0x100)
		return (hash ^ v) * vgpu_fnv64_pow[4];
	if (v == VGPU_EV_NONE)
		return hash * vgpu_fnv64_pow[4] + vgpu_fnv64_none[hash & 0xff];
	return vgpu_trace_fold(hash, v, 4);
}

/**
 * vgpu_trace_hash_u64() - fold the low @bytes bytes of @v into a hash
 * @hash: running FNV-1a 64 hash
 * @v: value
 * @bytes: how many bytes of @v, least significant first (1..8)
 *
 * Byte order is fixed (little-endian) whatever the host's.
 *
 * Return: the new hash.
 */
u64 vgpu_trace_hash_u64(u64 hash, u64 v, u32 bytes)
{
	if (!bytes || bytes > 8)
		return hash;
	if (bytes < 8)
		v &= (1ULL << (8 * bytes)) - 1;
	return vgpu_trace_fold(hash, v, bytes);
}

/**
 * vgpu_trace_hash_event() - fold one event into a trace hash
 * @hash: running hash (start from VGPU_FNV64_OFFSET)
 * @ev: the event
 *
 * The fields are hashed individually in declaration order: cycle (8
 * bytes), then type, kernel, block, warp, sm, arg0, arg1 (4 bytes each),
 * each little-endian.  Padding is never read.
 *
 * Return: the new hash.
 */
u64 vgpu_trace_hash_event(u64 hash, const struct vgpu_event *ev)
{
	hash = vgpu_trace_fold(hash, ev->cycle, 8);
	hash = vgpu_trace_fold32(hash, ev->type);
	hash = vgpu_trace_fold32(hash, ev->kernel);
	hash = vgpu_trace_fold32(hash, ev->block);
	hash = vgpu_trace_fold32(hash, ev->warp);
	hash = vgpu_trace_fold32(hash, ev->sm);
	hash = vgpu_trace_fold32(hash, ev->arg0);
	return vgpu_trace_fold32(hash, ev->arg1);
}

static const char * const vgpu_event_names[VGPU_EV_MAX + 1] = {
	[VGPU_EV_BLOCK_ADD]	= "block_add",
	[VGPU_EV_WARP_START]	= "warp_start",
	[VGPU_EV_WARP_EXIT]	= "warp_exit",
	[VGPU_EV_BLOCK_DONE]	= "block_done",
	[VGPU_EV_BAR_ARRIVE]	= "bar_arrive",
	[VGPU_EV_BAR_RELEASE]	= "bar_release",
	[VGPU_EV_LOCK_ACQUIRE]	= "lock_acquire",
	[VGPU_EV_LOCK_WAIT]	= "lock_wait",
	[VGPU_EV_UNLOCK]	= "unlock",
	[VGPU_EV_LOCK_PREEMPT]	= "lock_preempt",
	[VGPU_EV_LOCK_YIELD]	= "lock_yield",
	[VGPU_EV_LOCK_HOLD_MAX]	= "lock_hold_max",
	[VGPU_EV_SPIN]		= "spin",
	[VGPU_EV_BLOCK_CANCEL]	= "block_cancel",
	[VGPU_EV_SM_PRIO]	= "sm_prio",
	[VGPU_EV_LAUNCH]	= "launch",
	[VGPU_EV_SYNC]		= "sync",
	[VGPU_EV_PUSH]		= "push",
	[VGPU_EV_FAULT]		= "fault",
};

/**
 * vgpu_event_name() - name of an event type
 * @type: enum vgpu_event_type
 *
 * Return: a constant lower-case name, "unknown" for an unknown type.
 */
const char *vgpu_event_name(u32 type)
{
	if (type > VGPU_EV_MAX || !vgpu_event_names[type])
		return "unknown";
	return vgpu_event_names[type];
}
