// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fuzz.c - random-ioctl fuzzer of /dev/vgpuN (hardening).
 *
 *   vgpu_fuzz [--calls N] [--seed S] [--procs P] [--threads T] [--dev ID]
 *
 * P worker processes of T threads each make N ioctls in all on /dev/vgpu0
 * and on /dev/vgpuID, a device instance that a churn process creates and
 * deletes (/sys/bus/vgpu/new_device, del_device) while calls are in flight.
 * The calls are: random command numbers (any type, number, direction and
 * size), the eleven ioctls with random flags, pads, sizes and counts, argument
 * and inner pointers into unmapped memory, read-only pages and the kernel,
 * handles reused after close / destroy / release, random programs (mostly
 * invalid, some from a small generator of valid ones), gates taken and
 * dropped, and files closed and reopened by one thread while the others use
 * them.
 *
 * Every failure must be an errno Documentation/uapi.rst documents for that
 * ioctl (plus EBADF for a file another thread closed): the fuzzer counts the
 * calls per ioctl and errno, prints the histogram, and fails on any other
 * errno or on a child that dies of a signal.  The sequence of operations of
 * each thread depends only on --seed (the interleaving does not).  Output is
 * TAP; exit status 0 on success, 1 on failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#define VGPU_FZ_NCMD		12	/* the eleven ioctls + random numbers */
#define VGPU_FZ_OURS		11
#define VGPU_FZ_RANDOM		11
#define VGPU_FZ_NERR		134	/* errno values counted (0 = success) */
#define VGPU_FZ_FDS		6	/* open files shared by a process */
#define VGPU_FZ_HANDLES		64	/* remembered handles per kind */
#define VGPU_FZ_BAD_MAX		16	/* undocumented results reported */
#define VGPU_FZ_PAGE		4096
#define VGPU_FZ_ARG_PAGES	5	/* argument area; a guard page follows */

static const char *const vgpu_fz_names[VGPU_FZ_NCMD] = {
	"GET_INFO", "CHANNEL_CREATE", "CHANNEL_DESTROY", "SUBMIT", "WAIT",
	"QUERY", "CANCEL", "GATE", "QUEUE_PUSH", "BO_CREATE", "BO_DESTROY",
	"random-cmd",
};

static const unsigned int vgpu_fz_cmds[VGPU_FZ_OURS] = {
	VGPU_IOCTL_GET_INFO, VGPU_IOCTL_CHANNEL_CREATE,
	VGPU_IOCTL_CHANNEL_DESTROY, VGPU_IOCTL_SUBMIT, VGPU_IOCTL_WAIT,
	VGPU_IOCTL_QUERY, VGPU_IOCTL_CANCEL, VGPU_IOCTL_GATE,
	VGPU_IOCTL_QUEUE_PUSH, VGPU_IOCTL_BO_CREATE, VGPU_IOCTL_BO_DESTROY,
};

/* Documented errnos per ioctl (Documentation/uapi.rst), besides the common
 * ENOTTY, EINVAL, E2BIG, EFAULT and ENODEV; EBADF is a file closed by a
 * sibling thread (the VFS, not the module).
 */
static const int vgpu_fz_extra[VGPU_FZ_NCMD][8] = {
	[0] = { 0 },
	[1] = { EPERM, ENOSPC, ENOMEM, 0 },
	[2] = { ENOENT, 0 },
	[3] = { EPERM, ENOENT, ENOSPC, EAGAIN, ENOMEM, EMFILE, EOPNOTSUPP, 0 },
	[4] = { ENOENT, ETIME, EINTR, ENOMEM, 0 },
	[5] = { ENOENT, EBUSY, 0 },
	[6] = { ENOENT, 0 },
	[7] = { 0 },
	[8] = { ENOENT, ENOSPC, EAGAIN, ENOMEM, 0 },
	[9] = { ENOSPC, ENOMEM, 0 },
	[10] = { ENOENT, EBUSY, 0 },
	[11] = { 0 },
};

/* Counters shared by every process (MAP_SHARED), updated atomically. */
struct vgpu_fz_shared {
	unsigned long count[VGPU_FZ_NCMD][VGPU_FZ_NERR];
	unsigned long calls;
	unsigned long opens, open_fail, closes, polls;
	unsigned long dev_add, dev_add_fail, dev_del, dev_del_fail;
	unsigned long valid_submits, kernels, fills;
	unsigned long nbad;
	struct {
		unsigned int cmd;
		int err;
		int which;
		char what[48];
	} bad[VGPU_FZ_BAD_MAX];
};

struct vgpu_fz_opts {
	unsigned long calls;
	unsigned long long seed;
	int procs;
	int threads;
	int dev;
};

/* Per-process state shared by its threads. */
struct vgpu_fz_proc {
	int fds[VGPU_FZ_FDS];
	__u32 chans[VGPU_FZ_HANDLES];
	__u32 kerns[VGPU_FZ_HANDLES];
	__u32 bos[VGPU_FZ_HANDLES];
	char *bad_page;		/* PROT_NONE */
	char *ro_page;		/* PROT_READ, zeroed */
	char *ro_insn;		/* PROT_READ, a valid program */
	int tick_fd;		/* pipe to the churn process */
	int dev;
	unsigned long calls;	/* per thread */
};

struct vgpu_fz_thread {
	struct vgpu_fz_proc *p;
	unsigned long long rng;
	char *arg;		/* VGPU_FZ_ARG_PAGES pages, then a guard page */
};

static struct vgpu_fz_shared *vgpu_fz_sh;
static __thread unsigned long vgpu_fz_tcalls;	/* ioctls of this thread */

static unsigned long long vgpu_fz_rand(struct vgpu_fz_thread *t)
{
	/* xorshift64* */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int vgpu_fz_below(struct vgpu_fz_thread *t, unsigned int n)
{
	return (unsigned int)(vgpu_fz_rand(t) >> 33) % n;
}

static int vgpu_fz_chance(struct vgpu_fz_thread *t, unsigned int percent)
{
	return vgpu_fz_below(t, 100) < percent;
}

static void vgpu_fz_add(unsigned long *c, unsigned long n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static __u32 vgpu_fz_load32(__u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void vgpu_fz_store32(__u32 *p, __u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static __s64 vgpu_fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A value that is often at a boundary. */
static __u64 vgpu_fz_value(struct vgpu_fz_thread *t)
{
	static const __u64 edges[] = {
		0, 1, 2, 3, 7, 8, 63, 64, 65, 255, 256, 1023, 1024, 1025,
		4095, 4096, 65535, 65536, 1U << 20, (1U << 20) + 1,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
		1ULL << 32, 1ULL << 48, (1ULL << 48) + 1, 1ULL << 63,
		~0ULL, ~0ULL - 1,
	};

	if (vgpu_fz_chance(t, 70))
		return edges[vgpu_fz_below(t, sizeof(edges) / sizeof(edges[0]))];
	return vgpu_fz_rand(t) >> vgpu_fz_below(t, 64);
}

/* A user pointer to @len bytes: mostly good, else hostile. */
static __u64 vgpu_fz_ptr(struct vgpu_fz_thread *t, void *good, size_t len,
			 int writable)
{
	struct vgpu_fz_proc *p = t->p;

	if (vgpu_fz_chance(t, 90))
		return (uintptr_t)good;
	switch (vgpu_fz_below(t, 7)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)p->bad_page + vgpu_fz_below(t, VGPU_FZ_PAGE);
	case 2:
		return (uintptr_t)p->ro_page;
	case 3:
		return 0xffff888000000000ULL + (vgpu_fz_rand(t) & 0xffff8);
	case 4:
		/* straddles the guard page after the argument area */
		if (len > VGPU_FZ_PAGE || !len)
			len = VGPU_FZ_PAGE;
		return (uintptr_t)t->arg + VGPU_FZ_ARG_PAGES * VGPU_FZ_PAGE -
		       vgpu_fz_below(t, len) - 1;
	case 5:
		return vgpu_fz_rand(t);
	default:
		return (uintptr_t)good + 1;	/* misaligned */
	}
}

static __u32 vgpu_fz_handle(struct vgpu_fz_thread *t, __u32 *pool)
{
	switch (vgpu_fz_below(t, 10)) {
	case 0:
		return 0;
	case 1:
		return (__u32)vgpu_fz_value(t);
	case 2:
		return 1 + vgpu_fz_below(t, 16);
	default:
		return vgpu_fz_load32(&pool[vgpu_fz_below(t, VGPU_FZ_HANDLES)]);
	}
}

static void vgpu_fz_remember(struct vgpu_fz_thread *t, __u32 *pool, __u32 h)
{
	vgpu_fz_store32(&pool[vgpu_fz_below(t, VGPU_FZ_HANDLES)], h);
}

/* A program: mostly random (invalid) bytes, sometimes a small valid one. */
static __u32 vgpu_fz_program(struct vgpu_fz_thread *t, struct vgpu_insn *prog,
			     __u32 max)
{
	static const __u8 timed[] = {
		VGPU_OP_MOV, VGPU_OP_LOAD, VGPU_OP_STORE, VGPU_OP_MMA,
		VGPU_OP_CMP, VGPU_OP_BRA, VGPU_OP_ALU,
	};
	__u32 n = 0, i, depth = 0, held = 0;
	unsigned int kind = vgpu_fz_below(t, 10);

	if (kind < 3) {
		/* random instructions, mostly plausible opcodes */
		n = 1 + vgpu_fz_below(t, max < 32 ? max : 32);
		for (i = 0; i < n; i++) {
			__u64 r = vgpu_fz_rand(t);

			memcpy(&prog[i], &r, sizeof(prog[i]));
			if (vgpu_fz_chance(t, 70)) {
				prog[i].op = 0x01 + vgpu_fz_below(t, 0x26);
				if (vgpu_fz_chance(t, 60))
					prog[i].a = prog[i].b = prog[i].c = 0;
				if (vgpu_fz_chance(t, 50))
					prog[i].imm &= 0x000f000f;
			}
		}
		if (vgpu_fz_chance(t, 50))
			prog[n - 1] = (struct vgpu_insn){ .op = VGPU_OP_EXIT };
		return n;
	}
	/* valid: timed instructions, short loops, locks and barriers */
	while (n + 6 < max && n < 24 && vgpu_fz_chance(t, 80)) {
		switch (vgpu_fz_below(t, 8)) {
		case 0:
			if (depth < 3) {
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_LOOP,
					.a = VGPU_LOOP_SEL_BID,
					.b = 1 + vgpu_fz_below(t, 4),
					.imm = VGPU_LOOP_IMM(vgpu_fz_below(t, 4),
							     vgpu_fz_below(t, 3)),
				};
				depth++;
			}
			break;
		case 1:
			if (depth) {
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_ENDLOOP };
				depth--;
			}
			break;
		case 2:
			if (!held && !depth) {
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_LOCK, .a = 3 };
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_ALU };
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_UNLOCK, .a = 3 };
			}
			break;
		case 3:
			if (!held)
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_BAR };
			break;
		case 4:
			if (vgpu_fz_chance(t, 5))
				prog[n++] = (struct vgpu_insn){
					.op = VGPU_OP_SPIN };
			break;
		default:
			prog[n++] = (struct vgpu_insn){
				.op = timed[vgpu_fz_below(t, 7)] };
			break;
		}
	}
	while (depth--)
		prog[n++] = (struct vgpu_insn){ .op = VGPU_OP_ENDLOOP };
	prog[n++] = (struct vgpu_insn){ .op = VGPU_OP_EXIT };
	return n;
}

static void vgpu_fz_bad(unsigned int cmd, int which, int err, const char *what)
{
	unsigned long i = __atomic_fetch_add(&vgpu_fz_sh->nbad, 1,
					     __ATOMIC_RELAXED);

	if (i >= VGPU_FZ_BAD_MAX)
		return;
	vgpu_fz_sh->bad[i].cmd = cmd;
	vgpu_fz_sh->bad[i].err = err;
	vgpu_fz_sh->bad[i].which = which;
	snprintf(vgpu_fz_sh->bad[i].what, sizeof(vgpu_fz_sh->bad[i].what),
		 "%s", what);
}

static int vgpu_fz_allowed(int which, int err)
{
	const int *e;

	switch (err) {
	case 0:
	case EINVAL:
	case EFAULT:
	case ENODEV:
	case EBADF:
		return 1;
	case ENOTTY:
	case E2BIG:
		return 1;
	}
	for (e = vgpu_fz_extra[which]; *e; e++)
		if (*e == err)
			return 1;
	return 0;
}

/*
 * Make one ioctl and account for it.  @which is the ioctl the command
 * number selects (or VGPU_FZ_RANDOM); @expect_enotty says the number is
 * not one of ours, so ENOTTY is the only acceptable answer.
 */
static int vgpu_fz_call(int fd, unsigned int cmd, void *arg, int which,
			int expect_enotty, const char *what)
{
	int ret = ioctl(fd, cmd, arg), err = ret ? errno : 0;

	if (ret && ret != -1)
		err = 255;
	vgpu_fz_add(&vgpu_fz_sh->calls, 1);
	vgpu_fz_tcalls++;
	vgpu_fz_add(&vgpu_fz_sh->count[which][err < VGPU_FZ_NERR ?
					      err : VGPU_FZ_NERR - 1], 1);
	if (expect_enotty ? (err != ENOTTY && err != EBADF) :
	    !vgpu_fz_allowed(which, err))
		vgpu_fz_bad(cmd, which, err, what);
	return err;
}

/* The ioctl number of @which with a random size, sometimes the real one. */
static unsigned int vgpu_fz_cmd(struct vgpu_fz_thread *t, int which,
				size_t *size)
{
	unsigned int cmd = vgpu_fz_cmds[which];

	*size = _IOC_SIZE(cmd);
	if (vgpu_fz_chance(t, 8)) {
		switch (vgpu_fz_below(t, 4)) {
		case 0:
			*size = vgpu_fz_below(t, _IOC_SIZE(cmd) + 1);
			break;
		case 1:
			*size = _IOC_SIZE(cmd) + 8 * (1 + vgpu_fz_below(t, 8));
			break;
		default:
			*size = vgpu_fz_below(t, _IOC_SIZEMASK + 1);
			break;
		}
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd), *size);
	}
	return cmd;
}

/* Fill the argument area beyond the struct: mostly zero, else noise. */
static void vgpu_fz_tail(struct vgpu_fz_thread *t, size_t known, size_t size)
{
	size_t max = VGPU_FZ_ARG_PAGES * VGPU_FZ_PAGE;

	if (size > max)
		size = max;
	if (size > known) {
		memset(t->arg + known, 0, size - known);
		if (vgpu_fz_chance(t, 30))
			t->arg[known + vgpu_fz_below(t, size - known)] =
				(char)(1 + vgpu_fz_below(t, 255));
	}
}

/* Pointer to pass as the ioctl argument: the area, or a hostile one. */
static void *vgpu_fz_argp(struct vgpu_fz_thread *t, size_t size)
{
	return (void *)(uintptr_t)vgpu_fz_ptr(t, t->arg, size, 1);
}

static int vgpu_fz_fd(struct vgpu_fz_thread *t)
{
	return __atomic_load_n(&t->p->fds[vgpu_fz_below(t, VGPU_FZ_FDS)],
			       __ATOMIC_RELAXED);
}

static void vgpu_fz_mutate(struct vgpu_fz_thread *t, void *s, size_t len)
{
	__u64 v = vgpu_fz_value(t);
	size_t off;

	if (len < 4)
		return;
	off = vgpu_fz_below(t, len / 4) * 4;
	memcpy((char *)s + off, &v, 4);
}

static void vgpu_fz_get_info(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_info *info = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 0, &size);

	memset(info, 0, sizeof(*info));
	if (vgpu_fz_chance(t, 20))
		vgpu_fz_mutate(t, info, sizeof(*info));
	vgpu_fz_tail(t, sizeof(*info), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 0, 0, "get_info");
}

static void vgpu_fz_channel_create(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_channel_create *cc = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 1, &size);
	void *argp;

	memset(cc, 0, sizeof(*cc));
	cc->priority = vgpu_fz_below(t, 5);
	switch (vgpu_fz_below(t, 4)) {
	case 0:
		cc->timeout_cycles = 1000 + vgpu_fz_below(t, 100000);
		break;
	case 1:
		cc->timeout_cycles = vgpu_fz_value(t);
		break;
	default:
		break;
	}
	if (vgpu_fz_chance(t, 15))
		vgpu_fz_mutate(t, cc, sizeof(*cc));
	vgpu_fz_tail(t, sizeof(*cc), size);
	argp = vgpu_fz_argp(t, size);
	if (!vgpu_fz_call(fd, cmd, argp, 1, 0, "channel_create") &&
	    argp == (void *)t->arg)
		vgpu_fz_remember(t, t->p->chans, cc->handle);
}

static void vgpu_fz_channel_destroy(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_channel_destroy *cd = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 2, &size);

	memset(cd, 0, sizeof(*cd));
	cd->handle = vgpu_fz_handle(t, t->p->chans);
	if (vgpu_fz_chance(t, 10))
		cd->flags = (__u32)vgpu_fz_value(t);
	vgpu_fz_tail(t, sizeof(*cd), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 2, 0, "channel_destroy");
}

/* Descriptors and programs live in the second and later pages of t->arg. */
static void vgpu_fz_submit(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_submit *sub = (void *)t->arg;
	char *descs = t->arg + VGPU_FZ_PAGE;
	struct vgpu_insn *progs = (void *)(t->arg + 3 * VGPU_FZ_PAGE);
	__u64 *aff = (void *)(t->arg + 4 * VGPU_FZ_PAGE);
	unsigned int i, count = 1 + vgpu_fz_below(t, 4), dsize = 80;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 3, &size);
	int valid = 1, err;

	if (vgpu_fz_chance(t, 10)) {
		dsize = (unsigned int)vgpu_fz_value(t);
		valid = 0;
	} else if (vgpu_fz_chance(t, 10)) {
		dsize = 88;	/* a longer caller struct */
	}
	if (vgpu_fz_chance(t, 5)) {
		count = (unsigned int)vgpu_fz_value(t);
		valid = 0;
	}
	memset(aff, 0xff, 128);
	for (i = 0; i < 4 && i * 80 < 2 * VGPU_FZ_PAGE - 80; i++) {
		struct vgpu_submit_desc *d = (void *)(descs + i * 88);
		struct vgpu_insn *prog = progs + i * 64;

		memset(d, 0, 88);
		d->channel = vgpu_fz_handle(t, t->p->chans);
		d->grid = 1 + vgpu_fz_below(t, 4);
		d->threads = 32 * (1 + vgpu_fz_below(t, 8));
		d->regs = 1 + vgpu_fz_below(t, 64);
		d->smem = vgpu_fz_chance(t, 50) ? 0 : vgpu_fz_below(t, 8192);
		d->quota = vgpu_fz_below(t, 3);
		d->num_insns = vgpu_fz_program(t, prog, 64);
		d->program = vgpu_fz_ptr(t, prog, d->num_insns * 8, 0);
		if (vgpu_fz_chance(t, 3)) {
			d->program = (uintptr_t)t->p->ro_insn;
			d->num_insns = 2;
		}
		if (vgpu_fz_chance(t, 30)) {
			d->flags = vgpu_fz_below(t, VGPU_KERNEL_FLAGS_ALL + 1);
			if (d->flags & VGPU_KERNEL_PRIORITY)
				d->priority = vgpu_fz_below(t, 5);
		}
		if (vgpu_fz_chance(t, 10)) {
			d->affinity = vgpu_fz_ptr(t, aff, 128, 0);
			d->affinity_bits = vgpu_fz_chance(t, 70) ? 64 :
					   (__u32)vgpu_fz_value(t);
		}
		if (vgpu_fz_chance(t, 10))
			d->arrival = vgpu_fz_chance(t, 50) ?
				     vgpu_fz_below(t, 100000) : vgpu_fz_value(t);
		d->user_data = vgpu_fz_rand(t);
		if (vgpu_fz_chance(t, 15))
			vgpu_fz_mutate(t, d, 80);
		if (dsize == 88 && vgpu_fz_chance(t, 20))
			((char *)d)[80 + vgpu_fz_below(t, 8)] = 1;
	}
	/* descriptors were laid out 88 bytes apart: repack for 80 */
	if (dsize == 80)
		for (i = 1; i < 4; i++)
			memmove(descs + i * 80, descs + i * 88, 80);
	memset(sub, 0, sizeof(*sub));
	sub->count = count;
	sub->desc_size = dsize;
	sub->descs = vgpu_fz_ptr(t, descs, (size_t)count * dsize, 1);
	if (vgpu_fz_chance(t, 3))
		sub->descs = (uintptr_t)t->p->ro_page;	/* handles not writable */
	if (vgpu_fz_chance(t, 5))
		vgpu_fz_mutate(t, sub, sizeof(*sub));
	vgpu_fz_tail(t, sizeof(*sub), size);
	err = vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 3, 0, "submit");
	if (!err) {
		vgpu_fz_add(&vgpu_fz_sh->valid_submits, 1);
		vgpu_fz_add(&vgpu_fz_sh->kernels, count);
		if (valid && sub->descs == (uintptr_t)descs && count <= 4)
			for (i = 0; i < count; i++)
				vgpu_fz_remember(t, t->p->kerns,
						 ((struct vgpu_submit_desc *)
						  (descs + i * dsize))->handle);
	}
}

/* One kernel naming buffers (descriptor VER6): remembered, stale, random. */
static void vgpu_fz_submit_bufs(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_submit *sub = (void *)t->arg;
	struct vgpu_submit_desc *d = (void *)(t->arg + VGPU_FZ_PAGE);
	__u32 *bufs = (void *)(t->arg + 2 * VGPU_FZ_PAGE);
	unsigned int i, n = vgpu_fz_below(t, VGPU_MAX_BUFFER_SLOTS + 2);

	for (i = 0; i < n; i++)
		bufs[i] = vgpu_fz_handle(t, t->p->bos);
	memset(d, 0, sizeof(*d));
	d->channel = vgpu_fz_handle(t, t->p->chans);
	d->grid = 1 + vgpu_fz_below(t, 4);
	d->threads = 32;
	d->regs = 8;
	d->program = (uintptr_t)t->p->ro_insn;
	d->num_insns = 2;
	d->buffers = vgpu_fz_chance(t, 90) ? (uintptr_t)bufs :
		     vgpu_fz_ptr(t, bufs, n * 4, 0);
	d->num_buffers = n;
	if (vgpu_fz_chance(t, 20))
		d->private_bytes = vgpu_fz_below(t, 2 * VGPU_MAX_PRIVATE_BYTES);
	if (vgpu_fz_chance(t, 20))
		d->insn_budget = vgpu_fz_value(t);
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, d, sizeof(*d));
	memset(sub, 0, sizeof(*sub));
	sub->count = 1;
	sub->desc_size = sizeof(*d);
	sub->descs = (uintptr_t)d;
	if (!vgpu_fz_call(fd, VGPU_IOCTL_SUBMIT, sub, 3, 0, "submit buffers")) {
		vgpu_fz_add(&vgpu_fz_sh->valid_submits, 1);
		vgpu_fz_add(&vgpu_fz_sh->kernels, 1);
		vgpu_fz_remember(t, t->p->kerns, d->handle);
	}
}

static void vgpu_fz_wait(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_wait *w = (void *)t->arg;
	__u32 *h = (void *)(t->arg + VGPU_FZ_PAGE);
	unsigned int i, count = 1 + vgpu_fz_below(t, 4);
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 4, &size);

	for (i = 0; i < 8; i++)
		h[i] = vgpu_fz_handle(t, t->p->kerns);
	memset(w, 0, sizeof(*w));
	w->flags = vgpu_fz_below(t, 2);
	w->count = vgpu_fz_chance(t, 5) ? (__u32)vgpu_fz_value(t) : count;
	w->handles = vgpu_fz_ptr(t, h, (size_t)count * 4, 0);
	/* bounded: never VGPU_WAIT_FOREVER, a spinning kernel may never end */
	w->timeout_ns = vgpu_fz_chance(t, 50) ? 0 :
			vgpu_fz_now_ns() + vgpu_fz_below(t, 2000000);
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, w, sizeof(*w));
	if (w->timeout_ns > vgpu_fz_now_ns() + 5000000)
		w->timeout_ns = 0;
	vgpu_fz_tail(t, sizeof(*w), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 4, 0, "wait");
}

static void vgpu_fz_query(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_kernel_query *q = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 5, &size);

	memset(q, 0, sizeof(*q));
	q->handle = vgpu_fz_handle(t, t->p->kerns);
	q->flags = vgpu_fz_chance(t, 60) ? VGPU_QUERY_RELEASE : 0;
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, q, sizeof(*q));
	vgpu_fz_tail(t, sizeof(*q), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 5, 0, "query");
}

static void vgpu_fz_cancel(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_kernel_cancel *c = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 6, &size);

	memset(c, 0, sizeof(*c));
	c->handle = vgpu_fz_handle(t, t->p->kerns);
	if (vgpu_fz_chance(t, 10))
		c->flags = (__u32)vgpu_fz_value(t);
	vgpu_fz_tail(t, sizeof(*c), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 6, 0, "cancel");
}

static void vgpu_fz_gate(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_gate *g = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 7, &size);

	memset(g, 0, sizeof(*g));
	/* open more often than close: the gate must not stay shut */
	g->op = vgpu_fz_chance(t, 35) ? VGPU_GATE_CLOSE : VGPU_GATE_OPEN;
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, g, sizeof(*g));
	vgpu_fz_tail(t, sizeof(*g), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 7, 0, "gate");
}

/*
 * F14: one queue kernel in a full-size (VGPU_SUBMIT_DESC_SIZE_VER1)
 * descriptor, mostly valid, sometimes with its queue fields mutated or a
 * grid, so that QUEUE_PUSH finds queue kernels among the handles.
 */
static void vgpu_fz_submit_queue(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_submit *sub = (void *)t->arg;
	struct vgpu_submit_desc *d = (void *)(t->arg + VGPU_FZ_PAGE);
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 3, &size);

	memset(d, 0, sizeof(*d));
	d->channel = vgpu_fz_handle(t, t->p->chans);
	d->flags = VGPU_KERNEL_QUEUE;
	if (vgpu_fz_chance(t, 20))
		d->flags |= VGPU_KERNEL_HEAD;
	d->queue_n = 1 + vgpu_fz_below(t, 8);
	d->queue_cap = 1 + vgpu_fz_below(t, 64);
	d->queue_timeout = 1 + vgpu_fz_below(t, 5000);
	d->threads = 32 * (1 + vgpu_fz_below(t, 4));
	d->regs = 1 + vgpu_fz_below(t, 32);
	d->program = (uintptr_t)t->p->ro_insn;
	d->num_insns = 2;
	if (vgpu_fz_chance(t, 10))
		d->grid = 1 + vgpu_fz_below(t, 4);
	/* an out-fence: a sync_file that outlives the kernel and the file */
	if (vgpu_fz_chance(t, 10))
		d->flags |= VGPU_KERNEL_FENCE_OUT;
	if (vgpu_fz_chance(t, 15))
		vgpu_fz_mutate(t, d, sizeof(*d));
	memset(sub, 0, sizeof(*sub));
	sub->count = 1;
	sub->desc_size = sizeof(*d);
	sub->descs = vgpu_fz_ptr(t, d, sizeof(*d), 1);
	vgpu_fz_tail(t, sizeof(*sub), size);
	if (!vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 3, 0,
			  "submit queue") && sub->descs == (uintptr_t)d) {
		vgpu_fz_add(&vgpu_fz_sh->valid_submits, 1);
		vgpu_fz_add(&vgpu_fz_sh->kernels, 1);
		vgpu_fz_remember(t, t->p->kerns, d->handle);
		/* do not run out of descriptors over thousands of calls */
		if (d->flags & VGPU_KERNEL_FENCE_OUT && d->fence_fd > 2)
			close(d->fence_fd);
	}
}

/* F14: items (sometimes a close) for a remembered or a random handle. */
static void vgpu_fz_queue_push(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_queue_push *qp = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 8, &size);

	memset(qp, 0, sizeof(*qp));
	qp->handle = vgpu_fz_handle(t, t->p->kerns);
	qp->items = vgpu_fz_chance(t, 80) ? vgpu_fz_below(t, 16) :
		    (__u32)vgpu_fz_value(t);
	if (vgpu_fz_chance(t, 15))
		qp->flags = VGPU_QUEUE_CLOSE;
	qp->arrival = vgpu_fz_chance(t, 80) ? vgpu_fz_below(t, 2000) :
		      vgpu_fz_value(t);
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, qp, sizeof(*qp));
	vgpu_fz_tail(t, sizeof(*qp), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 8, 0, "queue_push");
}

/* A buffer object, mostly small, and sometimes a mapping of it. */
static void vgpu_fz_bo_create(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_bo_create *c = (void *)t->arg;
	size_t size, len;
	unsigned int cmd = vgpu_fz_cmd(t, 9, &size);
	void *argp, *m;

	memset(c, 0, sizeof(*c));
	c->size = vgpu_fz_chance(t, 90) ? 1 + vgpu_fz_below(t, 4 * VGPU_FZ_PAGE) :
		  vgpu_fz_value(t);
	if (vgpu_fz_chance(t, 20))
		c->flags = vgpu_fz_below(t, 8);
	if (vgpu_fz_chance(t, 10))
		vgpu_fz_mutate(t, c, sizeof(*c));
	vgpu_fz_tail(t, sizeof(*c), size);
	argp = vgpu_fz_argp(t, size);
	if (vgpu_fz_call(fd, cmd, argp, 9, 0, "bo_create") ||
	    argp != (void *)t->arg)
		return;
	vgpu_fz_remember(t, t->p->bos, c->handle);
	if (!vgpu_fz_chance(t, 30))
		return;
	/* a mapping of any length, at its offset or a bit off */
	len = VGPU_FZ_PAGE * (1 + vgpu_fz_below(t, 6));
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 vgpu_fz_chance(t, 80) ? MAP_SHARED : MAP_PRIVATE, fd,
		 (off_t)(c->mmap_offset +
			 (vgpu_fz_chance(t, 80) ? 0 : VGPU_FZ_PAGE)));
	if (m != MAP_FAILED) {
		memset(m, 0x5a, VGPU_FZ_PAGE);
		munmap(m, len);
	} else if (errno != EINVAL && errno != ENOMEM && errno != EBADF &&
		   errno != ENODEV) {
		vgpu_fz_bad(0, 9, errno, "bo mmap");
	}
}

static void vgpu_fz_bo_destroy(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_bo_destroy *d = (void *)t->arg;
	size_t size;
	unsigned int cmd = vgpu_fz_cmd(t, 10, &size);

	memset(d, 0, sizeof(*d));
	d->handle = vgpu_fz_handle(t, t->p->bos);
	if (vgpu_fz_chance(t, 10))
		d->flags = (__u32)vgpu_fz_value(t);
	vgpu_fz_tail(t, sizeof(*d), size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), 10, 0, "bo_destroy");
}

/*
 * Drive one file to its limits: channels until ENOSPC, then batches of 64
 * one-block kernels until the file's handles (ENOSPC) or the device's queue
 * (EAGAIN) are full, so that the all-or-nothing rollback of SUBMIT runs.
 */
static void vgpu_fz_fill(struct vgpu_fz_thread *t, int fd)
{
	struct vgpu_channel_create *cc = (void *)t->arg;
	struct vgpu_submit *sub = (void *)t->arg;
	struct vgpu_submit_desc *d = (void *)(t->arg + VGPU_FZ_PAGE);
	__u32 ch = 0;
	int i, j;

	for (i = 0; i < 80; i++) {
		memset(cc, 0, sizeof(*cc));
		cc->priority = 2 + vgpu_fz_below(t, 2);
		if (vgpu_fz_call(fd, VGPU_IOCTL_CHANNEL_CREATE, cc, 1, 0,
				 "fill channels"))
			break;
		ch = cc->handle;
		vgpu_fz_remember(t, t->p->chans, ch);
	}
	if (!ch)
		return;
	for (i = 0; i < 80; i++) {
		for (j = 0; j < VGPU_MAX_SUBMIT; j++) {
			memset(&d[j], 0, sizeof(d[j]));
			d[j].channel = ch;
			d[j].grid = 1;
			d[j].threads = 32;
			d[j].regs = 8;
			d[j].program = (uintptr_t)t->p->ro_insn;
			d[j].num_insns = 2;
		}
		memset(sub, 0, sizeof(*sub));
		sub->count = VGPU_MAX_SUBMIT;
		sub->desc_size = sizeof(*d);
		sub->descs = (uintptr_t)d;
		if (vgpu_fz_call(fd, VGPU_IOCTL_SUBMIT, sub, 3, 0,
				 "fill kernels"))
			break;
		vgpu_fz_add(&vgpu_fz_sh->valid_submits, 1);
		vgpu_fz_add(&vgpu_fz_sh->kernels, VGPU_MAX_SUBMIT);
		vgpu_fz_remember(t, t->p->kerns, d[vgpu_fz_below(t, 64)].handle);
	}
	vgpu_fz_add(&vgpu_fz_sh->fills, 1);
}

/* Command types the VFS handles itself for every file (FIOCLEX, FIBMAP...). */
static int vgpu_fz_vfs_type(unsigned int type)
{
	return type == 0 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 'v' || type == 0x12;
}

static void vgpu_fz_random_cmd(struct vgpu_fz_thread *t, int fd)
{
	unsigned int dir = vgpu_fz_below(t, 4), nr, type, size, cmd;
	int which = VGPU_FZ_RANDOM, enotty = 1;

	type = vgpu_fz_chance(t, 60) ? VGPU_IOCTL_BASE : vgpu_fz_below(t, 256);
	nr = vgpu_fz_chance(t, 60) ? vgpu_fz_below(t, 12) : vgpu_fz_below(t, 256);
	size = vgpu_fz_chance(t, 50) ? vgpu_fz_below(t, 256) :
	       vgpu_fz_below(t, _IOC_SIZEMASK + 1);
	if (vgpu_fz_vfs_type(type))
		return;
	cmd = _IOC(dir, type, nr, size);
	if (type == VGPU_IOCTL_BASE && nr < VGPU_FZ_OURS &&
	    dir == _IOC_DIR(vgpu_fz_cmds[nr])) {
		/* one of ours after all: its own errors apply */
		which = nr;
		enotty = 0;
	}
	memset(t->arg, 0, 256);
	if (vgpu_fz_chance(t, 50))
		vgpu_fz_mutate(t, t->arg, 256);
	vgpu_fz_tail(t, 256, size);
	vgpu_fz_call(fd, cmd, vgpu_fz_argp(t, size), which, enotty,
		     "random command");
}

/* Replace one of the process's files: the old one may be in use elsewhere. */
static void vgpu_fz_reopen(struct vgpu_fz_thread *t)
{
	struct vgpu_fz_proc *p = t->p;
	int slot = vgpu_fz_below(t, VGPU_FZ_FDS), fd, old;
	char path[32];

	snprintf(path, sizeof(path), "/dev/vgpu%d",
		 vgpu_fz_chance(t, 50) ? 0 : p->dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	vgpu_fz_add(&vgpu_fz_sh->opens, 1);
	if (fd < 0) {
		vgpu_fz_add(&vgpu_fz_sh->open_fail, 1);
		if (errno != ENOENT && errno != ENODEV && errno != ENXIO)
			vgpu_fz_bad(0, VGPU_FZ_RANDOM, errno, "open");
		return;
	}
	old = __atomic_exchange_n(&p->fds[slot], fd, __ATOMIC_RELAXED);
	if (old >= 0) {
		close(old);
		vgpu_fz_add(&vgpu_fz_sh->closes, 1);
	}
}

static void *vgpu_fz_thread_fn(void *arg)
{
	struct vgpu_fz_thread *t = arg;
	unsigned long i;

	for (i = 0; vgpu_fz_tcalls < t->p->calls; i++) {
		int fd = vgpu_fz_fd(t);
		unsigned int op = vgpu_fz_below(t, 1000);

		if (i % 512 == 511 && write(t->p->tick_fd, "t", 1) < 0 &&
		    errno != EAGAIN)
			vgpu_fz_bad(0, VGPU_FZ_RANDOM, errno, "tick pipe");
		if (op < 8 || fd < 0) {
			vgpu_fz_reopen(t);
			continue;
		}
		if (op == 12 && vgpu_fz_chance(t, 5)) {
			vgpu_fz_fill(t, fd);
			continue;
		}
		if (op < 12) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			poll(&pfd, 1, 0);
			vgpu_fz_add(&vgpu_fz_sh->polls, 1);
			continue;
		}
		if (op < 100)
			vgpu_fz_random_cmd(t, fd);
		else if (op < 160)
			vgpu_fz_get_info(t, fd);
		else if (op < 260)
			vgpu_fz_channel_create(t, fd);
		else if (op < 320)
			vgpu_fz_channel_destroy(t, fd);
		else if (op < 600)
			vgpu_fz_submit(t, fd);
		else if (op < 620)
			vgpu_fz_submit_bufs(t, fd);
		else if (op < 720)
			vgpu_fz_wait(t, fd);
		else if (op < 860)
			vgpu_fz_query(t, fd);
		else if (op < 920)
			vgpu_fz_cancel(t, fd);
		else if (op < 935)
			vgpu_fz_submit_queue(t, fd);
		else if (op < 965)
			vgpu_fz_queue_push(t, fd);
		else if (op < 980)
			vgpu_fz_bo_create(t, fd);
		else if (op < 990)
			vgpu_fz_bo_destroy(t, fd);
		else
			vgpu_fz_gate(t, fd);
	}
	return NULL;
}

static void *vgpu_fz_map(int prot)
{
	void *m = mmap(NULL, VGPU_FZ_PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (m == MAP_FAILED) {
		perror("vgpu_fuzz: mmap");
		_exit(3);
	}
	return m;
}

static void vgpu_fz_worker(const struct vgpu_fz_opts *o, int index,
			   int tick_fd)
{
	struct vgpu_fz_proc p;
	struct vgpu_fz_thread *t;
	pthread_t *tid;
	int i;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < VGPU_FZ_FDS; i++)
		p.fds[i] = -1;
	p.dev = o->dev;
	p.tick_fd = tick_fd;
	p.calls = o->calls / ((unsigned long)o->procs * o->threads) + 1;
	p.bad_page = vgpu_fz_map(PROT_NONE);
	p.ro_page = vgpu_fz_map(PROT_READ | PROT_WRITE);
	p.ro_insn = p.ro_page + VGPU_FZ_PAGE / 2;
	((struct vgpu_insn *)p.ro_insn)[0] =
		(struct vgpu_insn){ .op = VGPU_OP_ALU };
	((struct vgpu_insn *)p.ro_insn)[1] =
		(struct vgpu_insn){ .op = VGPU_OP_EXIT };
	if (mprotect(p.ro_page, VGPU_FZ_PAGE, PROT_READ)) {
		perror("vgpu_fuzz: mprotect");
		_exit(3);
	}
	t = calloc(o->threads, sizeof(*t));
	tid = calloc(o->threads, sizeof(*tid));
	if (!t || !tid)
		_exit(3);
	for (i = 0; i < o->threads; i++) {
		char *m = mmap(NULL, (VGPU_FZ_ARG_PAGES + 1) * VGPU_FZ_PAGE,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED ||
		    mprotect(m + VGPU_FZ_ARG_PAGES * VGPU_FZ_PAGE, VGPU_FZ_PAGE,
			     PROT_NONE)) {
			perror("vgpu_fuzz: argument area");
			_exit(3);
		}
		t[i].p = &p;
		t[i].arg = m;
		t[i].rng = (o->seed + 1) * 0x9E3779B97F4A7C15ULL ^
			   ((unsigned long long)index << 32 | i) ^ 0x5851f42d;
		if (!t[i].rng)
			t[i].rng = 1;
		if (pthread_create(&tid[i], NULL, vgpu_fz_thread_fn, &t[i])) {
			fprintf(stderr, "vgpu_fuzz: pthread_create failed\n");
			_exit(3);
		}
	}
	for (i = 0; i < o->threads; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < VGPU_FZ_FDS; i++)
		if (p.fds[i] >= 0)
			close(p.fds[i]);
	_exit(0);
}

static int vgpu_fz_sysfs(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, line, strlen(line)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * Create and delete /dev/vgpu<dev> while the workers run: one operation per
 * tick the workers send (every 512 calls of a thread), until they are done
 * and the pipe reports end of file.
 */
static void vgpu_fz_churn(const struct vgpu_fz_opts *o, int tick_fd)
{
	static const char *const opts[] = {
		"small workers=1", "small workers=2 preempt=switch",
		"small preempt=warp timeout=100000", "small policy=rr",
		"small clock=paced freq_khz=100000", "small windows=5000,2000",
	};
	unsigned long long rng = o->seed * 31 + 7;
	char line[96], c;
	int err;

	while (read(tick_fd, &c, 1) == 1) {
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if ((rng >> 40) & 1) {
			snprintf(line, sizeof(line), "%d %s", o->dev,
				 opts[(rng >> 41) % (sizeof(opts) / sizeof(opts[0]))]);
			err = vgpu_fz_sysfs("/sys/bus/vgpu/new_device", line);
			vgpu_fz_add(&vgpu_fz_sh->dev_add, 1);
			if (err)
				vgpu_fz_add(&vgpu_fz_sh->dev_add_fail, 1);
			if (err && err != EEXIST) {
				fprintf(stderr, "vgpu_fuzz: new_device \"%s\": %s\n",
					line, strerror(err));
				vgpu_fz_bad(0, VGPU_FZ_RANDOM, err, "new_device");
			}
		} else {
			snprintf(line, sizeof(line), "%d", o->dev);
			err = vgpu_fz_sysfs("/sys/bus/vgpu/del_device", line);
			vgpu_fz_add(&vgpu_fz_sh->dev_del, 1);
			if (err)
				vgpu_fz_add(&vgpu_fz_sh->dev_del_fail, 1);
			if (err && err != ENOENT)
				vgpu_fz_bad(0, VGPU_FZ_RANDOM, err, "del_device");
		}
	}
	_exit(0);
}

static void vgpu_fz_usage(void)
{
	fprintf(stderr,
		"usage: vgpu_fuzz [--calls N] [--seed S] [--procs P] [--threads T] [--dev ID]\n");
	exit(2);
}

static int vgpu_fz_report(const struct vgpu_fz_opts *o, double secs,
			  int crashed)
{
	struct vgpu_fz_shared *s = vgpu_fz_sh;
	unsigned long tot[VGPU_FZ_NERR] = { 0 };
	int w, e, ok;

	printf("# %lu ioctls in %.1f s (%.0f/s), seed %llu, %d processes x %d threads\n",
	       s->calls, secs, secs > 0 ? s->calls / secs : 0.0, o->seed,
	       o->procs, o->threads);
	for (w = 0; w < VGPU_FZ_NCMD; w++) {
		unsigned long n = 0;
		char buf[512];
		int len = 0;

		for (e = 0; e < VGPU_FZ_NERR; e++) {
			if (!s->count[w][e])
				continue;
			n += s->count[w][e];
			tot[e] += s->count[w][e];
			len += snprintf(buf + len, sizeof(buf) - len, " %s=%lu",
					e ? strerrorname_np(e) ?: "?" : "ok",
					s->count[w][e]);
			if (len >= (int)sizeof(buf))
				len = sizeof(buf) - 1;
		}
		printf("# %-15s %9lu:%s\n", vgpu_fz_names[w], n, n ? buf : "");
	}
	printf("# total          ");
	for (e = 0; e < VGPU_FZ_NERR; e++)
		if (tot[e])
			printf(" %s=%lu", e ? strerrorname_np(e) ?: "?" : "ok",
			       tot[e]);
	printf("\n# %lu successful submits (%lu kernels), %lu files filled to their limits; %lu opens (%lu failed), %lu closes, %lu polls\n",
	       s->valid_submits, s->kernels, s->fills, s->opens, s->open_fail,
	       s->closes, s->polls);
	printf("# device %d: %lu new_device (%lu EEXIST), %lu del_device (%lu ENOENT)\n",
	       o->dev, s->dev_add, s->dev_add_fail, s->dev_del, s->dev_del_fail);
	for (e = 0; e < (int)s->nbad && e < VGPU_FZ_BAD_MAX; e++)
		printf("# UNDOCUMENTED: %s (cmd 0x%08x) in %s returned %s (%d)\n",
		       vgpu_fz_names[s->bad[e].which], s->bad[e].cmd,
		       s->bad[e].what, strerrorname_np(s->bad[e].err) ?: "?",
		       s->bad[e].err);
	ok = !s->nbad && !crashed && s->calls >= o->calls;
	if (s->calls < o->calls)
		printf("# only %lu of %lu calls made\n", s->calls, o->calls);
	printf("%s 1 vgpu_fuzz.ioctl_errnos_documented (%lu calls, %lu undocumented, %d crashed)\n",
	       ok ? "ok" : "not ok", s->calls, s->nbad, crashed);
	return ok;
}

int main(int argc, char **argv)
{
	struct vgpu_fz_opts o = {
		.calls = 200000, .seed = 1, .procs = 2, .threads = 3, .dev = 9,
	};
	int tick[2], i, status, crashed = 0, fd, ok;
	pid_t churn, *pids;
	struct vgpu_info info;
	__s64 t0;
	char line[16];

	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			vgpu_fz_usage();
		if (!strcmp(argv[i], "--calls"))
			o.calls = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			o.seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--procs"))
			o.procs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--threads"))
			o.threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--dev"))
			o.dev = atoi(argv[++i]);
		else
			vgpu_fz_usage();
	}
	if (o.procs < 1 || o.threads < 1 || o.dev < 1 || o.dev > 15 || !o.calls)
		vgpu_fz_usage();
	printf("TAP version 13\n1..2\n");
	fflush(stdout);

	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("not ok 1 vgpu_fuzz.ioctl_errnos_documented # cannot open /dev/vgpu0: %s\n",
		       strerror(errno));
		printf("not ok 2 vgpu_fuzz.device0_usable_and_empty # skipped\n");
		return 1;
	}
	close(fd);
	vgpu_fz_sh = mmap(NULL, sizeof(*vgpu_fz_sh), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(o.procs, sizeof(*pids));
	if (vgpu_fz_sh == MAP_FAILED || !pids || pipe2(tick, O_CLOEXEC)) {
		perror("vgpu_fuzz: setup");
		return 1;
	}
	/* workers never block on the churn process */
	fcntl(tick[1], F_SETFL, O_NONBLOCK);
	t0 = vgpu_fz_now_ns();
	churn = fork();
	if (churn < 0) {
		perror("vgpu_fuzz: fork");
		return 1;
	}
	if (!churn) {
		close(tick[1]);
		vgpu_fz_churn(&o, tick[0]);
	}
	close(tick[0]);
	for (i = 0; i < o.procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("vgpu_fuzz: fork");
			return 1;
		}
		if (!pids[i])
			vgpu_fz_worker(&o, i, tick[1]);
	}
	close(tick[1]);
	for (i = 0; i < o.procs; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i]) {
			crashed++;
			continue;
		}
		if (WIFSIGNALED(status)) {
			printf("# worker %d killed by signal %d\n", i,
			       WTERMSIG(status));
			crashed++;
		} else if (WEXITSTATUS(status)) {
			printf("# worker %d exited with %d\n", i,
			       WEXITSTATUS(status));
			crashed++;
		}
	}
	if (waitpid(churn, &status, 0) != churn || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("# churn process failed (status 0x%x)\n", status);
		crashed++;
	}
	snprintf(line, sizeof(line), "%d", o.dev);
	i = vgpu_fz_sysfs("/sys/bus/vgpu/del_device", line);
	if (i && i != ENOENT) {
		printf("# final del_device %d: %s\n", o.dev, strerror(i));
		crashed++;
	}
	ok = vgpu_fz_report(&o, (vgpu_fz_now_ns() - t0) / 1e9, crashed);

	/* every file is closed: /dev/vgpu0 must be back to zero objects */
	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	memset(&info, 0, sizeof(info));
	if (fd < 0 || ioctl(fd, VGPU_IOCTL_GET_INFO, &info)) {
		printf("not ok 2 vgpu_fuzz.device0_usable_and_empty # GET_INFO: %s\n",
		       strerror(errno));
		ok = 0;
	} else if (info.live_channels || info.live_kernels) {
		printf("not ok 2 vgpu_fuzz.device0_usable_and_empty # %u channels, %u kernels still live\n",
		       info.live_channels, info.live_kernels);
		ok = 0;
	} else {
		printf("ok 2 vgpu_fuzz.device0_usable_and_empty\n");
	}
	if (fd >= 0)
		close(fd);
	return ok ? 0 : 1;
}
