// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim debug FILE [--policy NAME|FILE.so] [--preempt MODE]
 *	[--pack auto|block|sm]
 *
 * Seed 004's debugger: runs a workload as `vgpu-sim run` does, on one
 * thread, and stops the SM's thread before a functional warp executes an
 * instruction at a breakpoint, after a watched word changed or after a
 * single step (the core's hook, driver/core/fn_debug.h).  While stopped it reads commands from stdin
 * and prints a warp's pc, masks, registers, predicates and private
 * memory, its block's shared memory and the workload's buffers
 * (Documentation/workloads.rst, "Debugging a functional kernel").  The
 * hook reads and changes nothing: the run, its trace hash and its
 * results are those of `vgpu-sim run`.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"
#include "run.h"
#include "fn_debug.h"
#include "sm.h"
#include <vgpu/import.h>
#include <vgpu/vasm.h>

#include "cli.h"

#define VGPU_DBG_MAX_BP		64
#define VGPU_DBG_MAX_ARGS	8
#define VGPU_DBG_ANY		(~0U)	/* a breakpoint of every kernel */

enum vgpu_dbg_bp_type {
	VGPU_DBG_BREAK,		/* a pc */
	VGPU_DBG_WATCH_BUFFER,	/* a word of a buffer */
	VGPU_DBG_WATCH_SMEM,	/* a word of a block's shared memory */
};

/**
 * struct vgpu_dbg_bp - a breakpoint or a watchpoint
 * @num: its number (from 1, never reused)
 * @type: enum vgpu_dbg_bp_type
 * @pc: a breakpoint's instruction
 * @kernel: the workload kernel whose warps stop at a breakpoint, or
 *	VGPU_DBG_ANY; the kernel of a watched block
 * @block: the watched block (its index in the grid)
 * @buf: the watched buffer
 * @off: the watched word's byte offset
 * @old: its value at the last stop
 * @cur: its value when last seen
 * @hits: stops so far (a watchpoint: changes reported)
 */
struct vgpu_dbg_bp {
	uint32_t num;
	uint32_t type;
	uint32_t pc;
	uint32_t kernel;
	uint32_t block;
	uint32_t buf;
	uint32_t off;
	uint32_t old;
	uint32_t cur;
	uint64_t hits;
};

/**
 * struct vgpu_dbg - one debugging session
 * @wl: the workload
 * @r: its shared run (the device exists from the first hook call on)
 * @in: where the commands come from
 * @line: the last line read (getline())
 * @cap: its capacity
 * @tty: @in is a terminal: print a prompt
 * @started: the run has begun (the hook was called)
 * @quit: run to the end without stopping
 * @bp: breakpoints and watchpoints
 * @nbp: their number
 * @next_num: the number of the last one set
 * @cur: a current warp is selected (@cur_sm, @cur_ctx)
 * @cur_sm: its SM
 * @cur_ctx: its warp context
 * @step_left: instructions the stepped warp still executes before it
 *	stops, 0 when not stepping
 * @step_kernel: the stepped warp: its kernel id,
 * @step_block: its block,
 * @step_wid: its index in the block
 */
struct vgpu_dbg {
	const struct vgpu_workload *wl;
	struct vgpu_run *r;
	FILE *in;
	char *line;
	size_t cap;
	bool tty;
	bool started;
	bool quit;
	struct vgpu_dbg_bp bp[VGPU_DBG_MAX_BP];
	uint32_t nbp;
	uint32_t next_num;
	bool cur;
	uint32_t cur_sm;
	uint32_t cur_ctx;
	uint32_t step_left;
	uint32_t step_kernel;
	uint32_t step_block;
	uint32_t step_wid;
};

/* Ctrl-C on a terminal: stop at the next functional instruction */
static volatile sig_atomic_t vgpu_dbg_interrupted;

static void vgpu_dbg_sigint(int sig)
{
	vgpu_dbg_interrupted = 1;
}

static const char *const vgpu_dbg_states[] = {
	[VGPU_WARP_FREE] = "free",
	[VGPU_WARP_READY] = "ready",
	[VGPU_WARP_AT_BARRIER] = "barrier",
	[VGPU_WARP_WAIT_LOCK] = "wait_lock",
	[VGPU_WARP_SPIN] = "spin",
	[VGPU_WARP_SUSPENDED] = "suspended",
	[VGPU_WARP_DONE] = "done",
	[VGPU_WARP_WAIT_LAUNCH] = "wait_launch",
	[VGPU_WARP_WAIT_MEM] = "wait_mem",
	[VGPU_WARP_FAULTED] = "faulted",
};

static const char *vgpu_dbg_state_name(uint32_t s)
{
	if (s < sizeof(vgpu_dbg_states) / sizeof(vgpu_dbg_states[0]) &&
	    vgpu_dbg_states[s])
		return vgpu_dbg_states[s];
	return "?";
}

/* A kernel id as a name: a workload kernel's, or a child's number (F15). */
static const char *vgpu_dbg_kname(const struct vgpu_dbg *d, uint32_t id,
				  char *buf, size_t len)
{
	if (id < d->wl->nkernels)
		return d->wl->kernels[id].name;
	snprintf(buf, len, "child#%u", id);
	return buf;
}

/* What a watchpoint watches: "buffer NAME", "smem of KERNEL block B" */
static const char *vgpu_dbg_watched(const struct vgpu_dbg *d,
				    const struct vgpu_dbg_bp *b, char *buf,
				    size_t len)
{
	char name[32];

	if (b->type == VGPU_DBG_WATCH_BUFFER)
		snprintf(buf, len, "buffer %s",
			 vgpul_workload_buffer(d->wl, b->buf, NULL, NULL));
	else
		snprintf(buf, len, "smem of %s block %u",
			 vgpu_dbg_kname(d, b->kernel, name, sizeof(name)),
			 b->block);
	return buf;
}

static const struct vgpu_sm *vgpu_dbg_sm(const struct vgpu_dbg *d,
					 uint32_t i)
{
	return &d->r->g.sm[i].sm;
}

/* The current warp's view; a message and -1 when there is none. */
static int vgpu_dbg_cur(const struct vgpu_dbg *d, struct vgpu_fn_warp_view *v)
{
	if (!d->started) {
		printf("the run has not started ('continue' starts it)\n");
		return -1;
	}
	if (!d->cur ||
	    vgpu_fn_warp_view(vgpu_dbg_sm(d, d->cur_sm), d->cur_ctx, v)) {
		printf("no current warp ('warps' lists them, 'warp SM CTX' selects one)\n");
		return -1;
	}
	return 0;
}

/* Instruction @pc of @prog as .vasm text. */
static void vgpu_dbg_insn(const struct vgpu_insn *prog, uint32_t n,
			  uint32_t pc, char *buf, size_t len)
{
	if (prog && pc < n)
		vgpul_vasm_format_insn(&prog[pc], buf, len);
	else
		snprintf(buf, len, "(past the program)");
}

/* "sm S ctx C: kernel K block B warp W pc P: INSN" */
static void vgpu_dbg_where(const struct vgpu_dbg *d, const struct vgpu_sm *sm,
			   uint32_t idx, const struct vgpu_fn_warp_view *v)
{
	const struct vgpu_insn *prog;
	char name[32], text[96];
	uint32_t n;

	prog = vgpu_fn_warp_prog(sm, idx, &n);
	vgpu_dbg_insn(prog, n, v->pc, text, sizeof(text));
	printf("sm %u ctx %u: kernel %s block %u warp %u pc %u: %s\n",
	       sm->id, idx, vgpu_dbg_kname(d, v->kernel, name, sizeof(name)),
	       v->block, v->wid, v->pc, text);
}

/* A kernel named @s, or -1 after a message. */
static int vgpu_dbg_kernel_arg(const struct vgpu_dbg *d, const char *s)
{
	uint32_t i;

	for (i = 0; i < d->wl->nkernels; i++)
		if (!strcmp(d->wl->kernels[i].name, s))
			return i;
	printf("no kernel named '%s'\n", s);
	return -1;
}

static bool vgpu_dbg_u32(const char *what, const char *s, uint32_t *v)
{
	if (vgpul_cli_u32(s, v))
		return true;
	printf("%s: '%s' is not a number\n", what, s);
	return false;
}

static void vgpu_dbg_break(struct vgpu_dbg *d, int argc, char **argv)
{
	const struct vgpu_wl_kernel *wk;
	struct vgpu_dbg_bp *b;
	uint32_t pc, i, k = VGPU_DBG_ANY, longest = 0;
	int ki;

	if (argc < 2 || argc > 3) {
		printf("usage: break PC [KERNEL]\n");
		return;
	}
	if (!vgpu_dbg_u32("break", argv[1], &pc))
		return;
	if (argc == 3) {
		ki = vgpu_dbg_kernel_arg(d, argv[2]);
		if (ki < 0)
			return;
		k = ki;
		if (!vgpul_workload_kernel_functional(d->wl, k)) {
			printf("kernel %s is not functional: none of its warps stops\n",
			       argv[2]);
			return;
		}
	}
	for (i = 0; i < d->wl->nkernels; i++) {
		wk = &d->wl->kernels[i];
		if ((k == VGPU_DBG_ANY || k == i) &&
		    vgpul_workload_kernel_functional(d->wl, i) &&
		    wk->prog.n > longest)
			longest = wk->prog.n;
	}
	if (pc >= longest) {
		printf("break: pc %u is past the end of %s (%u instructions)\n",
		       pc, k == VGPU_DBG_ANY ? "every functional program" :
		       d->wl->kernels[k].name, longest);
		return;
	}
	if (d->nbp == VGPU_DBG_MAX_BP) {
		printf("break: %u breakpoints already\n", VGPU_DBG_MAX_BP);
		return;
	}
	b = &d->bp[d->nbp++];
	memset(b, 0, sizeof(*b));
	b->num = ++d->next_num;
	b->type = VGPU_DBG_BREAK;
	b->pc = pc;
	b->kernel = k;
	printf("breakpoint %u at pc %u%s%s\n", b->num, pc,
	       k == VGPU_DBG_ANY ? "" : " of kernel ",
	       k == VGPU_DBG_ANY ? "" : d->wl->kernels[k].name);
}

static void vgpu_dbg_delete(struct vgpu_dbg *d, int argc, char **argv)
{
	uint32_t num, i;

	if (argc > 2) {
		printf("usage: delete [N]\n");
		return;
	}
	if (argc == 1) {
		d->nbp = 0;
		printf("every breakpoint deleted\n");
		return;
	}
	if (!vgpu_dbg_u32("delete", argv[1], &num))
		return;
	for (i = 0; i < d->nbp; i++)
		if (d->bp[i].num == num)
			break;
	if (i == d->nbp) {
		printf("delete: no breakpoint %u\n", num);
		return;
	}
	printf("%s %u deleted\n", d->bp[i].type == VGPU_DBG_BREAK ?
	       "breakpoint" : "watchpoint", num);
	memmove(&d->bp[i], &d->bp[i + 1], (d->nbp - i - 1) * sizeof(d->bp[0]));
	d->nbp--;
}

static void vgpu_dbg_info(struct vgpu_dbg *d, int argc, char **argv)
{
	const struct vgpu_dbg_bp *b;
	char name[160];
	uint32_t i;

	if (argc != 2 || strncmp(argv[1], "breakpoints", strlen(argv[1]))) {
		printf("usage: info breakpoints\n");
		return;
	}
	if (!d->nbp) {
		printf("no breakpoints\n");
		return;
	}
	for (i = 0; i < d->nbp; i++) {
		b = &d->bp[i];
		if (b->type == VGPU_DBG_BREAK)
			printf("%-3u break pc %u of %s: %llu hits\n", b->num,
			       b->pc, b->kernel == VGPU_DBG_ANY ?
			       "every kernel" : d->wl->kernels[b->kernel].name,
			       (unsigned long long)b->hits);
		else
			printf("%-3u watch %s 0x%04x = 0x%08x: %llu changes\n",
			       b->num, vgpu_dbg_watched(d, b, name, sizeof(name)),
			       b->off, b->old, (unsigned long long)b->hits);
	}
}

static void vgpu_dbg_warps(struct vgpu_dbg *d)
{
	const struct vgpu_sm *sm;
	struct vgpu_fn_warp_view v;
	uint32_t i, idx, n = 0;
	char name[32];

	if (!d->started) {
		printf("the run has not started ('continue' starts it)\n");
		return;
	}
	for (i = 0; i < d->r->g.cfg.num_sms; i++) {
		sm = vgpu_dbg_sm(d, i);
		for (idx = 0; idx < d->r->g.cfg.max_warps_per_sm; idx++) {
			if (vgpu_fn_warp_view(sm, idx, &v))
				continue;
			n++;
			printf("%c sm %u ctx %u: kernel %s block %u warp %u %s pc %u active 0x%08x live 0x%08x\n",
			       d->cur && d->cur_sm == i && d->cur_ctx == idx ?
			       '*' : ' ', i, idx,
			       vgpu_dbg_kname(d, v.kernel, name, sizeof(name)),
			       v.block, v.wid, vgpu_dbg_state_name(v.state),
			       v.pc, v.active, v.live);
		}
	}
	if (!n)
		printf("no functional warp has started\n");
}

static void vgpu_dbg_warp(struct vgpu_dbg *d, int argc, char **argv)
{
	struct vgpu_fn_warp_view v;
	uint32_t s, c;

	if (argc != 3) {
		printf("usage: warp SM CTX\n");
		return;
	}
	if (!d->started) {
		printf("the run has not started ('continue' starts it)\n");
		return;
	}
	if (!vgpu_dbg_u32("warp", argv[1], &s) ||
	    !vgpu_dbg_u32("warp", argv[2], &c))
		return;
	if (s >= d->r->g.cfg.num_sms) {
		printf("warp: no SM %u (the device has %u)\n", s,
		       d->r->g.cfg.num_sms);
		return;
	}
	if (vgpu_fn_warp_view(vgpu_dbg_sm(d, s), c, &v)) {
		printf("warp: sm %u ctx %u holds no started functional warp\n",
		       s, c);
		return;
	}
	d->cur = true;
	d->cur_sm = s;
	d->cur_ctx = c;
	vgpu_dbg_where(d, vgpu_dbg_sm(d, s), c, &v);
}

/* ' ' an active lane, '-' a live one not active, 'x' one that exited */
static char vgpu_dbg_lane_mark(const struct vgpu_fn_warp_view *v, uint32_t l)
{
	if (v->active & (1U << l))
		return ' ';
	return v->live & (1U << l) ? '-' : 'x';
}

static void vgpu_dbg_lane_legend(void)
{
	printf("(lanes: '-' inactive, 'x' exited or absent)\n");
}

/* "R" or "rR" */
static bool vgpu_dbg_reg(const char *s, uint32_t *r)
{
	if (*s == 'r' || *s == 'R')
		s++;
	return vgpul_cli_u32(s, r);
}

static void vgpu_dbg_regs(struct vgpu_dbg *d, int argc, char **argv)
{
	struct vgpu_fn_warp_view v;
	uint32_t lo = 0, hi, r, l, c, w;
	char buf[64], *dash;
	float f;

	if (argc > 2) {
		printf("usage: regs [R[-R]]\n");
		return;
	}
	if (vgpu_dbg_cur(d, &v))
		return;
	if (!v.nregs) {
		printf("the warp has no registers\n");
		return;
	}
	hi = v.nregs - 1;
	if (argc == 2) {
		snprintf(buf, sizeof(buf), "%s", argv[1]);
		dash = strchr(buf, '-');
		if (dash)
			*dash++ = 0;
		if (!vgpu_dbg_reg(buf, &lo) ||
		    (dash && !vgpu_dbg_reg(dash, &hi))) {
			printf("regs: '%s' is no register range (r0-r%u)\n",
			       argv[1], v.nregs - 1);
			return;
		}
		if (!dash)
			hi = lo;
		if (lo > hi) {
			printf("regs: '%s': the first register is after the last\n",
			       argv[1]);
			return;
		}
		if (hi >= v.nregs) {
			printf("regs: the warp has r0-r%u\n", v.nregs - 1);
			return;
		}
	}
	if (lo == hi) {
		/* one register: hexadecimal, integer and float per lane */
		printf("lane  r%-9u int          float\n", lo);
		for (l = 0; l < VGPU_ISA_LANES; l++) {
			w = v.regs[(size_t)lo * VGPU_ISA_LANES + l];
			memcpy(&f, &w, sizeof(f));
			printf("%4u%c 0x%08x %-12d %g\n", l,
			       vgpu_dbg_lane_mark(&v, l), w, (int32_t)w, f);
		}
		vgpu_dbg_lane_legend();
		return;
	}
	/* eight registers a row, hexadecimal */
	for (r = lo; r <= hi; r += 8) {
		c = hi - r + 1 < 8 ? hi - r + 1 : 8;
		printf("lane ");
		for (w = 0; w < c; w++) {
			snprintf(buf, sizeof(buf), "r%u", r + w);
			printf(w + 1 < c ? " %-8s" : " %s", buf);
		}
		printf("\n");
		for (l = 0; l < VGPU_ISA_LANES; l++) {
			printf("%4u%c", l, vgpu_dbg_lane_mark(&v, l));
			for (w = 0; w < c; w++)
				printf(" %08x", v.regs[(size_t)(r + w) *
						     VGPU_ISA_LANES + l]);
			printf("\n");
		}
	}
	vgpu_dbg_lane_legend();
}

static void vgpu_dbg_preds(struct vgpu_dbg *d)
{
	struct vgpu_fn_warp_view v;
	uint32_t p;

	if (vgpu_dbg_cur(d, &v))
		return;
	printf("active 0x%08x live 0x%08x (bit l: lane l)\n", v.active,
	       v.live);
	for (p = 0; p < VGPU_ISA_NUM_PREDS; p++)
		printf("p%u 0x%08x\n", p, v.pred[p]);
}

static void vgpu_dbg_pc(struct vgpu_dbg *d)
{
	struct vgpu_fn_warp_view v;

	if (vgpu_dbg_cur(d, &v))
		return;
	vgpu_dbg_where(d, vgpu_dbg_sm(d, d->cur_sm), d->cur_ctx, &v);
}

/* [OFF LEN] in bytes, whole words, within @size; false after a message */
static bool vgpu_dbg_range(const char *cmd, int argc, char **argv, int first,
			   uint64_t size, uint64_t *off, uint64_t *len)
{
	uint32_t o, n;

	*off = 0;
	*len = size;
	if (argc == first)
		return true;
	if (argc != first + 2) {
		printf("%s: OFF and LEN go together\n", cmd);
		return false;
	}
	if (!vgpu_dbg_u32(cmd, argv[first], &o) ||
	    !vgpu_dbg_u32(cmd, argv[first + 1], &n))
		return false;
	if (o % 4 || n % 4) {
		printf("%s: OFF and LEN are bytes of whole 32-bit words (multiples of 4)\n",
		       cmd);
		return false;
	}
	if (o > size || n > size - o) {
		printf("%s: bytes %u..%llu are past the end (%llu bytes)\n",
		       cmd, o, (unsigned long long)o + n,
		       (unsigned long long)size);
		return false;
	}
	*off = o;
	*len = n;
	return true;
}

/* Words as hexadecimal, eight a line, each line after its byte offset. */
static void vgpu_dbg_hexdump(const uint8_t *p, uint64_t off, uint64_t len)
{
	uint64_t i;
	uint32_t w;

	for (i = 0; i < len; i += 4) {
		if (!(i % 32))
			printf("%s0x%04llx:", i ? "\n" : "",
			       (unsigned long long)(off + i));
		memcpy(&w, p + off + i, sizeof(w));
		printf(" %08x", w);
	}
	if (len)
		printf("\n");
}

static void vgpu_dbg_smem(struct vgpu_dbg *d, int argc, char **argv)
{
	struct vgpu_fn_warp_view v;
	uint64_t off, len;
	const uint8_t *p;
	uint32_t size;

	if (argc != 1 && argc != 3) {
		printf("usage: smem [OFF LEN]\n");
		return;
	}
	if (vgpu_dbg_cur(d, &v))
		return;
	p = vgpu_fn_block_smem_view(vgpu_dbg_sm(d, d->cur_sm), v.slot, &size);
	if (!p || !size) {
		printf("block %u has no shared memory\n", v.block);
		return;
	}
	if (!vgpu_dbg_range("smem", argc, argv, 1, size, &off, &len))
		return;
	printf("shared memory of block %u (%u bytes; sm %u slot %u)\n",
	       v.block, size, d->cur_sm, v.slot);
	vgpu_dbg_hexdump(p, off, len);
}

static void vgpu_dbg_priv(struct vgpu_dbg *d, int argc, char **argv)
{
	struct vgpu_fn_warp_view v;
	uint32_t l, lo = 0, hi = VGPU_ISA_LANES - 1, i, w;

	if (argc > 2) {
		printf("usage: priv [LANE]\n");
		return;
	}
	if (vgpu_dbg_cur(d, &v))
		return;
	if (!v.priv_bytes) {
		printf("the kernel has no private memory\n");
		return;
	}
	if (argc == 2) {
		if (!vgpu_dbg_u32("priv", argv[1], &lo))
			return;
		if (lo >= VGPU_ISA_LANES) {
			printf("priv: lanes are 0-%u\n", VGPU_ISA_LANES - 1);
			return;
		}
		hi = lo;
	}
	for (l = lo; l <= hi; l++) {
		printf("lane %u%c", l, vgpu_dbg_lane_mark(&v, l));
		for (i = 0; i + 4 <= v.priv_bytes; i += 4) {
			memcpy(&w, v.priv + (size_t)l * v.priv_bytes + i,
			       sizeof(w));
			printf(" %08x", w);
		}
		printf("\n");
	}
	vgpu_dbg_lane_legend();
}

/* A buffer named @s, or slot @s of the current warp's kernel; -1: none */
static int vgpu_dbg_buffer_arg(struct vgpu_dbg *d, const char *s)
{
	uint32_t i, n, slot, buf[VGPUL_WL_MAX_SLOTS];
	struct vgpu_fn_warp_view v;

	n = vgpul_workload_num_buffers(d->wl);
	for (i = 0; i < n; i++)
		if (!strcmp(vgpul_workload_buffer(d->wl, i, NULL, NULL), s))
			return i;
	if (!vgpul_cli_u32(s, &slot)) {
		printf("buffer: no buffer named '%s'\n", s);
		return -1;
	}
	if (vgpu_dbg_cur(d, &v))
		return -1;
	if (v.kernel >= d->wl->nkernels) {
		printf("buffer: a child kernel's slots: name the buffer\n");
		return -1;
	}
	n = vgpul_workload_kernel_buffers(d->wl, v.kernel, buf, NULL);
	if (slot >= n) {
		printf("buffer: kernel %s names %u buffer slot%s (s0-s%d)\n",
		       d->wl->kernels[v.kernel].name, n, n == 1 ? "" : "s",
		       (int)n - 1);
		return -1;
	}
	return buf[slot];
}

static void vgpu_dbg_buffer(struct vgpu_dbg *d, int argc, char **argv)
{
	uint64_t size, off, len, i;
	uint8_t *tmp = NULL;
	const uint8_t *p;
	const char *name;
	uint32_t w;
	float f;
	int b;

	if (argc != 2 && argc != 4) {
		printf("usage: buffer NAME|SLOT [OFF LEN]\n");
		return;
	}
	b = vgpu_dbg_buffer_arg(d, argv[1]);
	if (b < 0)
		return;
	name = vgpul_workload_buffer(d->wl, b, &size, NULL);
	if (!vgpu_dbg_range("buffer", argc, argv, 2, size, &off, &len))
		return;
	if (d->started && d->r->bufs) {
		p = d->r->bufs[b];
		printf("buffer %s (%llu bytes; the running epoch's global stores and atomics reach it at the epoch's boundary)\n",
		       name, (unsigned long long)size);
	} else {
		tmp = malloc(size ? size : 1);
		if (!tmp) {
			printf("buffer: out of memory\n");
			return;
		}
		vgpul_workload_buffer_fill(d->wl, b, tmp);
		p = tmp;
		printf("buffer %s (%llu bytes; its initial contents)\n", name,
		       (unsigned long long)size);
	}
	for (i = off; i < off + len; i += 4) {
		memcpy(&w, p + i, sizeof(w));
		memcpy(&f, &w, sizeof(f));
		printf("0x%04llx: 0x%08x %-12d %g\n", (unsigned long long)i, w,
		       (int32_t)w, f);
	}
	free(tmp);
}

/* A word's byte offset @s within @size bytes; false after a message */
static bool vgpu_dbg_word_off(const char *cmd, const char *s, uint64_t size,
			      uint32_t *off)
{
	if (!vgpu_dbg_u32(cmd, s, off))
		return false;
	if (*off % 4 || *off >= size || size - *off < 4) {
		printf("%s: %s is no word's offset (a multiple of 4 below %llu)\n",
		       cmd, s, (unsigned long long)size);
		return false;
	}
	return true;
}

/* Word @off of buffer @b: the run's, or before it the initial one. */
static bool vgpu_dbg_buffer_word(const struct vgpu_dbg *d, uint32_t b,
				 uint32_t off, uint32_t *w)
{
	uint64_t size;
	uint8_t *tmp;

	if (d->started && d->r->bufs) {
		memcpy(w, (const uint8_t *)d->r->bufs[b] + off, sizeof(*w));
		return true;
	}
	vgpul_workload_buffer(d->wl, b, &size, NULL);
	tmp = malloc(size);
	if (!tmp)
		return false;
	vgpul_workload_buffer_fill(d->wl, b, tmp);
	memcpy(w, tmp + off, sizeof(*w));
	free(tmp);
	return true;
}

static void vgpu_dbg_watch(struct vgpu_dbg *d, int argc, char **argv)
{
	struct vgpu_fn_warp_view v = { .kernel = VGPU_DBG_ANY };
	enum vgpu_dbg_bp_type type;
	struct vgpu_dbg_bp *b;
	uint32_t off, w, size32;
	const uint8_t *p;
	char name[160];
	uint64_t size;
	int buf = 0;

	if (argc == 4 && !strcmp(argv[1], "buffer")) {
		type = VGPU_DBG_WATCH_BUFFER;
		buf = vgpu_dbg_buffer_arg(d, argv[2]);
		if (buf < 0)
			return;
		vgpul_workload_buffer(d->wl, buf, &size, NULL);
		if (!vgpu_dbg_word_off("watch", argv[3], size, &off))
			return;
		if (!vgpu_dbg_buffer_word(d, buf, off, &w)) {
			printf("watch: out of memory\n");
			return;
		}
	} else if (argc == 3 && !strcmp(argv[1], "smem")) {
		type = VGPU_DBG_WATCH_SMEM;
		if (vgpu_dbg_cur(d, &v))
			return;
		p = vgpu_fn_block_smem_view(vgpu_dbg_sm(d, d->cur_sm), v.slot,
					    &size32);
		if (!p || !size32) {
			printf("block %u has no shared memory\n", v.block);
			return;
		}
		if (!vgpu_dbg_word_off("watch", argv[2], size32, &off))
			return;
		memcpy(&w, p + off, sizeof(w));
	} else {
		printf("usage: watch buffer NAME|SLOT OFF, or watch smem OFF\n");
		return;
	}
	if (d->nbp == VGPU_DBG_MAX_BP) {
		printf("watch: %u breakpoints and watchpoints already\n",
		       VGPU_DBG_MAX_BP);
		return;
	}
	b = &d->bp[d->nbp++];
	memset(b, 0, sizeof(*b));
	b->num = ++d->next_num;
	b->type = type;
	b->kernel = v.kernel;
	b->block = v.block;
	b->buf = buf;
	b->off = off;
	b->old = w;
	b->cur = w;
	printf("watchpoint %u: %s 0x%04x = 0x%08x\n", b->num,
	       vgpu_dbg_watched(d, b, name, sizeof(name)), off, w);
}

/*
 * The watched words as @v's warp is about to execute: every buffer word,
 * and the shared memory words of its block.  True if one changed since
 * the last stop.
 */
static bool vgpu_dbg_watch_check(struct vgpu_dbg *d, const struct vgpu_sm *sm,
				 const struct vgpu_fn_warp_view *v)
{
	struct vgpu_dbg_bp *b;
	bool changed = false;
	const uint8_t *p;
	uint32_t i, size;

	for (i = 0; i < d->nbp; i++) {
		b = &d->bp[i];
		if (b->type == VGPU_DBG_WATCH_BUFFER && d->r->bufs) {
			memcpy(&b->cur, (const uint8_t *)d->r->bufs[b->buf] +
			       b->off, sizeof(b->cur));
		} else if (b->type == VGPU_DBG_WATCH_SMEM &&
			   v->kernel == b->kernel && v->block == b->block) {
			p = vgpu_fn_block_smem_view(sm, v->slot, &size);
			if (p && b->off < size && size - b->off >= 4)
				memcpy(&b->cur, p + b->off, sizeof(b->cur));
		}
		if (b->type != VGPU_DBG_BREAK && b->cur != b->old)
			changed = true;
	}
	return changed;
}

/* At a stop: the watched words that changed since the last one. */
static void vgpu_dbg_watch_report(struct vgpu_dbg *d)
{
	struct vgpu_dbg_bp *b;
	char name[160];
	uint32_t i;

	for (i = 0; i < d->nbp; i++) {
		b = &d->bp[i];
		if (b->type == VGPU_DBG_BREAK || b->cur == b->old)
			continue;
		printf("watchpoint %u: %s 0x%04x: 0x%08x -> 0x%08x\n", b->num,
		       vgpu_dbg_watched(d, b, name, sizeof(name)), b->off,
		       b->old, b->cur);
		b->old = b->cur;
		b->hits++;
	}
}

static void vgpu_dbg_disasm(struct vgpu_dbg *d, int argc, char **argv)
{
	const struct vgpu_insn *prog = NULL;
	struct vgpu_fn_warp_view v;
	uint32_t n = 0, pc = 0, cnt = 16, i, j, cur = ~0U;
	char text[96];

	if (argc > 3) {
		printf("usage: disasm [PC [N]]\n");
		return;
	}
	if (d->started && d->cur &&
	    !vgpu_fn_warp_view(vgpu_dbg_sm(d, d->cur_sm), d->cur_ctx, &v)) {
		prog = vgpu_fn_warp_prog(vgpu_dbg_sm(d, d->cur_sm), d->cur_ctx,
					 &n);
		cur = v.pc;
		pc = v.pc;
	} else {
		/* no current warp: the first functional kernel's program */
		for (i = 0; i < d->wl->nkernels && !prog; i++) {
			if (!vgpul_workload_kernel_functional(d->wl, i))
				continue;
			prog = d->wl->kernels[i].prog.insns;
			n = d->wl->kernels[i].prog.n;
		}
	}
	if (!prog) {
		printf("disasm: no functional program\n");
		return;
	}
	if ((argc > 1 && !vgpu_dbg_u32("disasm", argv[1], &pc)) ||
	    (argc > 2 && !vgpu_dbg_u32("disasm", argv[2], &cnt)))
		return;
	if (pc >= n) {
		printf("disasm: pc %u is past the end (%u instructions)\n", pc,
		       n);
		return;
	}
	for (i = pc; i < n && i - pc < cnt; i++) {
		vgpu_dbg_insn(prog, n, i, text, sizeof(text));
		for (j = 0; j < d->nbp; j++)
			if (d->bp[j].type == VGPU_DBG_BREAK && d->bp[j].pc == i)
				break;
		printf("%s%c%5u  %s\n", i == cur ? "=>" : "  ",
		       j < d->nbp ? 'b' : ' ', i, text);
	}
}

static void vgpu_dbg_help(void)
{
	printf("break PC [KERNEL]   stop a warp (of KERNEL) about to execute PC\n"
	       "delete [N]          delete breakpoint N, or every one\n"
	       "info breakpoints    list them\n"
	       "continue            run to the next breakpoint or the end ('run' before the start)\n"
	       "step [N]            the current warp executes N instructions (default 1)\n"
	       "warps               every started functional warp, '*' the current one\n"
	       "warp SM CTX         make that warp the current one\n"
	       "pc                  where the current warp is\n"
	       "regs [R[-R]]        its registers per lane\n"
	       "preds               its predicates and masks\n"
	       "priv [LANE]         its lanes' private memory\n"
	       "smem [OFF LEN]      its block's shared memory (bytes, words)\n"
	       "buffer NAME|SLOT [OFF LEN]  a buffer's words (bytes)\n"
	       "watch buffer NAME|SLOT OFF  stop when the word at byte OFF changes\n"
	       "watch smem OFF      the same in the current warp's block's shared memory\n"
	       "disasm [PC [N]]     the program (the current warp's)\n"
	       "quit                run to the end without stopping\n");
}

enum vgpu_dbg_action {
	VGPU_DBG_STAY,
	VGPU_DBG_RESUME,
};

/* Split @line into words; the number of words, -1 for too many. */
static int vgpu_dbg_split(char *line, char **argv)
{
	char *save, *w;
	int argc = 0;

	for (w = strtok_r(line, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		if (*w == '#')
			break;
		if (argc == VGPU_DBG_MAX_ARGS)
			return -1;
		argv[argc++] = w;
	}
	return argc;
}

static enum vgpu_dbg_action vgpu_dbg_command(struct vgpu_dbg *d, char *line)
{
	char *argv[VGPU_DBG_MAX_ARGS];
	struct vgpu_fn_warp_view v;
	const char *c;
	uint32_t n = 1;
	int argc;

	argc = vgpu_dbg_split(line, argv);
	if (argc < 0) {
		printf("too many words (at most %d)\n", VGPU_DBG_MAX_ARGS);
		return VGPU_DBG_STAY;
	}
	if (!argc)
		return VGPU_DBG_STAY;
	c = argv[0];
	if (!strcmp(c, "break") || !strcmp(c, "b")) {
		vgpu_dbg_break(d, argc, argv);
	} else if (!strcmp(c, "delete") || !strcmp(c, "d")) {
		vgpu_dbg_delete(d, argc, argv);
	} else if (!strcmp(c, "info") || !strcmp(c, "i")) {
		vgpu_dbg_info(d, argc, argv);
	} else if (!strcmp(c, "continue") || !strcmp(c, "c") ||
		   !strcmp(c, "run") || !strcmp(c, "r")) {
		if (argc != 1) {
			printf("usage: %s\n", c);
			return VGPU_DBG_STAY;
		}
		d->step_left = 0;
		return VGPU_DBG_RESUME;
	} else if (!strcmp(c, "step") || !strcmp(c, "s")) {
		if (argc > 2) {
			printf("usage: step [N]\n");
			return VGPU_DBG_STAY;
		}
		if (argc == 2 && (!vgpu_dbg_u32("step", argv[1], &n) || !n)) {
			if (!n)
				printf("step: N is at least 1\n");
			return VGPU_DBG_STAY;
		}
		if (vgpu_dbg_cur(d, &v))
			return VGPU_DBG_STAY;
		d->step_left = n;
		d->step_kernel = v.kernel;
		d->step_block = v.block;
		d->step_wid = v.wid;
		return VGPU_DBG_RESUME;
	} else if (!strcmp(c, "warps")) {
		vgpu_dbg_warps(d);
	} else if (!strcmp(c, "warp")) {
		vgpu_dbg_warp(d, argc, argv);
	} else if (!strcmp(c, "regs")) {
		vgpu_dbg_regs(d, argc, argv);
	} else if (!strcmp(c, "preds")) {
		vgpu_dbg_preds(d);
	} else if (!strcmp(c, "pc")) {
		vgpu_dbg_pc(d);
	} else if (!strcmp(c, "smem")) {
		vgpu_dbg_smem(d, argc, argv);
	} else if (!strcmp(c, "priv")) {
		vgpu_dbg_priv(d, argc, argv);
	} else if (!strcmp(c, "watch")) {
		vgpu_dbg_watch(d, argc, argv);
	} else if (!strcmp(c, "buffer")) {
		vgpu_dbg_buffer(d, argc, argv);
	} else if (!strcmp(c, "disasm")) {
		vgpu_dbg_disasm(d, argc, argv);
	} else if (!strcmp(c, "help")) {
		vgpu_dbg_help();
	} else if (!strcmp(c, "quit") || !strcmp(c, "q")) {
		d->quit = true;
		return VGPU_DBG_RESUME;
	} else {
		printf("unknown command '%s' ('help' lists them)\n", c);
	}
	return VGPU_DBG_STAY;
}

/* Read and run commands until one resumes the run; EOF is quit. */
static void vgpu_dbg_loop(struct vgpu_dbg *d)
{
	for (;;) {
		if (d->tty)
			printf("(vgpu-sim) ");
		fflush(stdout);
		if (getline(&d->line, &d->cap, d->in) < 0) {
			d->quit = true;
			return;
		}
		vgpu_dbg_interrupted = 0;	/* a Ctrl-C at the prompt */
		if (vgpu_dbg_command(d, d->line) == VGPU_DBG_RESUME)
			break;
	}
	fflush(stdout);
}

/* The warp's last lanes are about to exit: it calls the hook no more. */
static bool vgpu_dbg_exits(const struct vgpu_sm *sm, u32 idx,
			   const struct vgpu_fn_warp_view *v)
{
	const struct vgpu_insn *prog;
	uint32_t n;

	prog = vgpu_fn_warp_prog(sm, idx, &n);
	return prog && v->pc < n && prog[v->pc].op == VGPU_OP_EXIT &&
	       v->active == v->live;
}

static bool vgpu_dbg_stepped(const struct vgpu_dbg *d,
			     const struct vgpu_fn_warp_view *v)
{
	return v->kernel == d->step_kernel && v->block == d->step_block &&
	       v->wid == d->step_wid;
}

/* A step that cannot end: its warp exits before it.  It continues. */
static void vgpu_dbg_step_exits(struct vgpu_dbg *d, const struct vgpu_sm *sm,
				u32 idx, const struct vgpu_fn_warp_view *v)
{
	if (d->step_left && vgpu_dbg_stepped(d, v) &&
	    vgpu_dbg_exits(sm, idx, v)) {
		printf("the warp exits before the step ends: continuing\n");
		d->step_left = 0;
	}
}

/* The hook (fn_debug.h): before a functional warp executes at its pc. */
static void vgpu_dbg_hook(void *cookie, const struct vgpu_sm *sm, u32 idx)
{
	const struct vgpu_dbg_bp *hit = NULL;
	struct vgpu_dbg *d = cookie;
	struct vgpu_fn_warp_view v;
	bool watched;
	uint32_t i;

	if (d->quit || vgpu_fn_warp_view(sm, idx, &v))
		return;
	d->started = true;
	watched = vgpu_dbg_watch_check(d, sm, &v);
	if (vgpu_dbg_interrupted) {
		d->step_left = 0;
		printf("interrupted, ");
	} else if (d->step_left) {
		/* a step follows its warp, wherever it runs; no breakpoint */
		if (!vgpu_dbg_stepped(d, &v))
			return;
		if (--d->step_left) {
			vgpu_dbg_step_exits(d, sm, idx, &v);
			return;
		}
	} else {
		for (i = 0; i < d->nbp; i++)
			if (d->bp[i].type == VGPU_DBG_BREAK &&
			    d->bp[i].pc == v.pc &&
			    (d->bp[i].kernel == VGPU_DBG_ANY ||
			     d->bp[i].kernel == v.kernel))
				break;
		if (i == d->nbp && !watched)
			return;
		if (i < d->nbp) {
			d->bp[i].hits++;
			hit = &d->bp[i];
		}
	}
	d->cur = true;
	d->cur_sm = sm->id;
	d->cur_ctx = idx;
	vgpu_dbg_watch_report(d);
	if (hit)
		printf("breakpoint %u, ", hit->num);
	vgpu_dbg_where(d, sm, idx, &v);
	vgpu_dbg_loop(d);
	vgpu_dbg_step_exits(d, sm, idx, &v);
	d->cur = false;
}

struct vgpu_dbg_opts {
	const char *file;
	const char *policy;
	int preempt;
	int pack;
};

static int vgpu_dbg_parse(int argc, char **argv, struct vgpu_dbg_opts *o)
{
	static const char *const valued[] = {
		"--policy", "--preempt", "--pack", NULL
	};
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_cmd_debug,
				      .valued = valued, .argc = argc,
				      .argv = argv };
	int ret, bad;

	memset(o, 0, sizeof(*o));
	o->preempt = -1;
	o->pack = -1;
	while ((ret = vgpu_sim_arg(&args)) > 0) {
		if (!args.opt) {
			if (o->file)
				return vgpu_sim_usage_error("debug",
						"one workload file only");
			o->file = args.val;
			continue;
		}
		if (!strcmp(args.opt, "--policy")) {
			o->policy = args.val;
			continue;
		}
		bad = vgpu_sim_mode_arg("debug", args.opt, args.val,
					!strcmp(args.opt, "--pack") ?
					&o->pack : &o->preempt);
		if (bad)
			return bad;
	}
	if (ret) {
		if (!args.status)
			exit(0);	/* --help */
		return args.status;
	}
	if (!o->file)
		return vgpu_sim_usage_error("debug", "which workload file?");
	return 0;
}

static int vgpu_sim_debug(int argc, char **argv)
{
	struct vgpu_sim_result res;
	struct list_head policies;
	struct vgpu_dbg_opts o;
	struct vgpu_workload wl;
	struct vgpu_run shared;
	struct vgpu_dbg d;
	char err[1024];
	int ret, rc = 1;
	uint32_t i;
	bool fn = false;

	ret = vgpu_dbg_parse(argc, argv, &o);
	if (ret)
		return ret;
	memset(&shared, 0, sizeof(shared));
	memset(&res, 0, sizeof(res));
	memset(&d, 0, sizeof(d));
	ret = vgpu_sim_load("debug", o.file, o.policy, o.preempt, o.pack,
			    &policies, &wl);
	if (ret)
		return ret;
	for (i = 0; i < wl.nkernels; i++)
		fn |= vgpul_workload_kernel_functional(&wl, i);
	if (!fn) {
		fprintf(stderr, "vgpu-sim debug: %s: no functional kernel to debug\n",
			o.file);
		vgpul_workload_free(&wl);
		return 1;
	}
	d.wl = &wl;
	d.r = &shared;
	d.in = stdin;
	d.tty = isatty(STDIN_FILENO);
	if (d.tty) {
		struct sigaction sa = { .sa_handler = vgpu_dbg_sigint,
					.sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
	}
	/* one thread: the hook stops the SMs' thread, which is ours */
	shared.threads = 1;
	shared.fn_hook = vgpu_dbg_hook;
	shared.fn_hook_cookie = &d;
	/* the commands before the run: breakpoints, disasm, buffers */
	vgpu_dbg_loop(&d);
	if (vgpu_sim_measure(&wl, &policies, &shared, &res, stdout, err,
			     sizeof(err))) {
		fflush(stdout);
		fprintf(stderr, "vgpu-sim debug: %s: %s\n", o.file, err);
		goto out;
	}
	/* then what vgpu-sim run prints, and the buffers checked */
	vgpul_report_summary(stdout, &(struct vgpul_summary){
		.makespan = res.makespan, .metrics = true, .m = res.m,
		.lat_max = res.lat_max, .hash = res.hash });
	if (vgpu_sim_tenants(&wl, &policies, &shared, stdout, err,
			     sizeof(err))) {
		fflush(stdout);
		fprintf(stderr, "vgpu-sim debug: %s: %s\n", o.file, err);
		goto out;
	}
	if (vgpu_run_check(&wl, &shared, stdout))
		goto out;
	rc = 0;
out:
	free(d.line);
	vgpu_sim_result_fini(&res);
	vgpu_run_fini(&shared);
	vgpul_workload_free(&wl);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_debug = {
	.name = "debug",
	.summary = "step through the functional kernels of a workload: breakpoints, registers, memory",
	.usage = "FILE [--policy NAME|FILE.so] [--preempt drain|warp|switch] [--pack auto|block|sm]\n"
		 "  Reads commands from stdin, one a line, before the run and at each stop\n"
		 "  ('help' lists them: break, watch, delete, info breakpoints, continue,\n"
		 "  step, warps, warp, pc, regs, preds, priv, smem, buffer, disasm, quit).\n"
		 "  Runs on one thread; quit or the end of stdin runs to the end, then\n"
		 "  prints and checks what 'vgpu-sim run FILE' does (same trace hash)",
	.run = vgpu_sim_debug,
};
