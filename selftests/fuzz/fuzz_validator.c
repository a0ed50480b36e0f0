// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_validator.c - libFuzzer harness of the ISA validator (F04).
 *
 * The input bytes are an instruction array (size / 8 instructions, a
 * trailing partial instruction is ignored), copied into a buffer of exactly
 * that size so AddressSanitizer catches any read past prog[n-1].
 *
 * Invariants checked on every input:
 *  - vgpu_isa_validate() never crashes and fills a sane error record;
 *  - it accepts exactly the programs an independent reference checker
 *    (below: written differently, 128-bit arithmetic, no saturation, explicit
 *    enclosing-loop lists) accepts;
 *  - vgpu_isa_summarize() and vgpu_isa_link() agree with it;
 *  - an accepted program, interpreted for several (bid, wid) when its
 *    worst case is small, reaches EXIT (or SPIN) within the summary's
 *    worst-case count, never locks a held mutex, never unlocks a free one,
 *    never holds a lock at BAR or EXIT, and never reaches BAR a number of
 *    times that depends on wid.
 *
 * A custom mutator works on whole instructions half of the time (insert a
 * plausible instruction, delete, swap, duplicate a range, tweak one field)
 * so that the fuzzer reaches deep structural states (nested loops around
 * locks and barriers) that byte-level mutation rarely builds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgpu_os.h"
#include "isa.h"

#define VGPU_FUZZ_CHECK(cond) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "invariant failed: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

/* Reference checker: same rules, different algorithm; true if valid. */
static bool vgpu_fuzz_ref_valid(const struct vgpu_insn *p, u32 n)
{
	static u32 open[VGPU_ISA_MAX_INSNS + 1];	/* open LOOP indices */
	static u32 held_at[VGPU_ISA_MAX_INSNS + 1];
	unsigned __int128 total = 0;
	u32 nopen = 0, held = 0, i, k;

	if (n < 1 || n > VGPU_ISA_MAX_INSNS)
		return false;
	for (i = 0; i < n; i++) {
		const struct vgpu_insn *in = &p[i];
		unsigned __int128 w = 1;
		bool body_of_wid = false;
		u64 cnt;

		/* field usage per opcode */
		switch (in->op) {
		case 0x01: case 0x02: case 0x03:
		case 0x05: case 0x06: case 0x07:
		case 0x21: case 0x22: case 0x25: case 0x26:
			if (in->a != 0 || in->b != 0 || in->c != 0 || in->imm != 0)
				return false;
			break;
		case 0x04:	/* MMA: a = log2 of its size, 0..3 (F25) */
			if (in->a > 3 || in->b != 0 || in->c != 0 || in->imm != 0)
				return false;
			break;
		case 0x28:	/* PUSH (F14): 1..2^20 items in imm */
			if (in->a != 0 || in->b != 0 || in->c != 0 ||
			    in->imm == 0 || in->imm > (1u << 20))
				return false;
			break;
		case 0x20:
			if (in->c != 0)
				return false;
			if (in->a == 0 && (in->b != 0 || (in->imm >> 16) != 0))
				return false;
			if (in->a >= 1 && in->a <= 3 && in->b == 0)
				return false;
			if (in->a > 3)	/* 3: work items (F14) */
				return false;
			break;
		case 0x27:	/* LAUNCH (F15): template < 8, flag WAIT */
			if (in->c != 0 || in->imm != 0 || in->a >= 8 ||
			    (in->b & ~1))
				return false;
			break;
		case 0x23: case 0x24:
			if (in->b != 0 || in->c != 0 || in->imm != 0)
				return false;
			if (in->a > 15)
				return false;
			break;
		default:
			return false;
		}
		/* weight: product of the max counts of the open loops */
		for (k = 0; k < nopen; k++) {
			const struct vgpu_insn *l = &p[open[k]];

			cnt = (l->imm & 0xffff);
			if (l->a)	/* a block has at most 128 items */
				cnt += (u64)(l->imm >> 16) *
				       (l->a == 3 && l->b > 129 ? 128 : l->b - 1);
			w *= cnt;
			if (l->a == 1)
				body_of_wid = true;
		}
		if (in->op == 0x20) {
			cnt = (in->imm & 0xffff);
			if (in->a)
				cnt += (u64)(in->imm >> 16) *
				       (in->a == 3 && in->b > 129 ? 128 : in->b - 1);
			if (cnt > 65535)
				return false;
			if (nopen == 8)
				return false;
			held_at[nopen] = held;
			open[nopen++] = i;
		} else if (in->op == 0x21) {
			if (nopen == 0)
				return false;
			if (held_at[nopen - 1] != held)
				return false;
			nopen--;
		} else if (in->op == 0x22) {
			if (held != 0 || body_of_wid)
				return false;
		} else if (in->op == 0x23) {
			if (held & (1u << in->a))
				return false;
			held |= 1u << in->a;
		} else if (in->op == 0x24) {
			if (!(held & (1u << in->a)))
				return false;
			held &= ~(1u << in->a);
		} else if (in->op == 0x26) {
			if (i + 1 != n || held != 0)
				return false;
		} else if (in->op == 0x27 && (in->b & 1)) {
			/* a waiting LAUNCH is block-wide, like BAR */
			if (held != 0 || body_of_wid)
				return false;
		}
		total += w;
	}
	if (nopen != 0 || p[n - 1].op != 0x26)
		return false;
	return total <= ((unsigned __int128)1 << 32);
}

/*
 * Interpret an accepted program for one (bid, wid).  Returns the number of
 * instructions executed (SPIN ends the run), checks the lock and barrier
 * rules dynamically, and reports the BAR count through @bars.
 */
static u64 vgpu_fuzz_run(const struct vgpu_insn *p, u32 n, const u16 *match,
			 u32 bid, u32 wid, u64 limit, u64 *bars)
{
	u32 cnt[VGPU_ISA_MAX_NEST];
	u32 depth = 0, held = 0, pc = 0;
	u64 steps = 0;

	*bars = 0;
	for (;;) {
		const struct vgpu_insn *in;

		VGPU_FUZZ_CHECK(pc < n);
		VGPU_FUZZ_CHECK(steps < limit);
		in = &p[pc];
		steps++;
		switch (in->op) {
		case VGPU_OP_LOOP: {
			u32 c = vgpu_isa_loop_count_items(in, bid, wid,
							  bid % 200);

			VGPU_FUZZ_CHECK(c <= vgpu_isa_loop_max(in));
			if (!c) {
				pc = match[pc] + 1;
				continue;
			}
			VGPU_FUZZ_CHECK(depth < VGPU_ISA_MAX_NEST);
			cnt[depth++] = c;
			break;
		}
		case VGPU_OP_ENDLOOP:
			VGPU_FUZZ_CHECK(depth > 0);
			if (--cnt[depth - 1]) {
				pc = match[pc] + 1;
				continue;
			}
			depth--;
			break;
		case VGPU_OP_BAR:
			VGPU_FUZZ_CHECK(!held);
			(*bars)++;
			break;
		case VGPU_OP_LOCK:
			VGPU_FUZZ_CHECK(in->a < VGPU_ISA_MAX_MUTEX);
			VGPU_FUZZ_CHECK(!(held & (1u << in->a)));
			held |= 1u << in->a;
			break;
		case VGPU_OP_UNLOCK:
			VGPU_FUZZ_CHECK(held & (1u << in->a));
			held &= ~(1u << in->a);
			break;
		case VGPU_OP_LAUNCH:
			VGPU_FUZZ_CHECK(in->a < VGPU_MAX_TEMPLATES);
			if (in->b & VGPU_LAUNCH_WAIT) {
				VGPU_FUZZ_CHECK(!held);
				(*bars)++;	/* block-wide, like BAR */
			}
			break;
		case VGPU_OP_PUSH:
			VGPU_FUZZ_CHECK(in->imm && in->imm <= VGPU_MAX_QUEUE_ITEMS);
			break;
		case VGPU_OP_SPIN:
			return steps;
		case VGPU_OP_EXIT:
			VGPU_FUZZ_CHECK(!held);
			VGPU_FUZZ_CHECK(depth == 0);
			VGPU_FUZZ_CHECK(pc == n - 1);
			return steps;
		default:
			VGPU_FUZZ_CHECK(vgpu_isa_class(in->op) >= 0);
			break;
		}
		pc++;
	}
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static u32 vgpu_fuzz_rand(u32 *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* A plausible instruction: mostly valid operands, sometimes boundary ones. */
static struct vgpu_insn vgpu_fuzz_template(u32 *r)
{
	static const u16 counts[] = { 0, 1, 2, 3, 7, 255, 65534, 65535 };
	struct vgpu_insn in = { 0 };

	switch (vgpu_fuzz_rand(r) % 12) {
	case 0: case 1:
		in.op = VGPU_OP_MOV + vgpu_fuzz_rand(r) % VGPU_ISA_NUM_CLASSES;
		break;
	case 2: case 3:
		in.op = VGPU_OP_LOOP;
		in.a = vgpu_fuzz_rand(r) % 4;
		in.b = in.a ? 1 + vgpu_fuzz_rand(r) % 5 : 0;
		in.imm = VGPU_LOOP_IMM(counts[vgpu_fuzz_rand(r) % 8],
				       in.a ? counts[vgpu_fuzz_rand(r) % 8] : 0);
		break;
	case 4: case 5:
		in.op = VGPU_OP_ENDLOOP;
		break;
	case 6:
		if (vgpu_fuzz_rand(r) % 2) {
			in.op = VGPU_OP_BAR;
		} else {
			in.op = VGPU_OP_LAUNCH;
			in.a = vgpu_fuzz_rand(r) % 9;
			in.b = vgpu_fuzz_rand(r) % 3;
		}
		break;
	case 7: case 8:
		in.op = VGPU_OP_LOCK;
		in.a = vgpu_fuzz_rand(r) % 4;
		break;
	case 9: case 10:
		in.op = VGPU_OP_UNLOCK;
		in.a = vgpu_fuzz_rand(r) % 4;
		break;
	default:
		in.op = vgpu_fuzz_rand(r) % 2 ? VGPU_OP_SPIN : VGPU_OP_EXIT;
		break;
	}
	return in;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	const size_t sz = sizeof(struct vgpu_insn);
	size_t n = size / sz, maxn = max_size / sz, i, j, k, len;
	struct vgpu_insn in;
	u32 r = seed;
	u8 *tmp;

	if (vgpu_fuzz_rand(&r) % 2 || !maxn)
		return LLVMFuzzerMutate(data, size, max_size);
	i = n ? vgpu_fuzz_rand(&r) % n : 0;
	j = n ? vgpu_fuzz_rand(&r) % n : 0;
	switch (vgpu_fuzz_rand(&r) % 6) {
	case 0:		/* insert */
		if (n >= maxn)
			break;
		i = vgpu_fuzz_rand(&r) % (n + 1);
		memmove(data + (i + 1) * sz, data + i * sz, (n - i) * sz);
		in = vgpu_fuzz_template(&r);
		memcpy(data + i * sz, &in, sz);
		n++;
		break;
	case 1:		/* delete */
		if (n <= 1)
			break;
		memmove(data + i * sz, data + (i + 1) * sz, (n - i - 1) * sz);
		n--;
		break;
	case 2:		/* swap */
		if (n < 2)
			break;
		memcpy(&in, data + i * sz, sz);
		memmove(data + i * sz, data + j * sz, sz);
		memcpy(data + j * sz, &in, sz);
		break;
	case 3:		/* replace */
		if (!n)
			break;
		in = vgpu_fuzz_template(&r);
		memcpy(data + i * sz, &in, sz);
		break;
	case 4:		/* duplicate data[i..i+len) at k */
		if (!n)
			break;
		len = 1 + vgpu_fuzz_rand(&r) % (n - i);
		if (n + len > maxn)
			break;
		tmp = malloc(len * sz);
		if (!tmp)
			break;
		memcpy(tmp, data + i * sz, len * sz);
		k = vgpu_fuzz_rand(&r) % (n + 1);
		memmove(data + (k + len) * sz, data + k * sz, (n - k) * sz);
		memcpy(data + k * sz, tmp, len * sz);
		free(tmp);
		n += len;
		break;
	default:	/* tweak one field */
		if (!n)
			break;
		memcpy(&in, data + i * sz, sz);
		switch (vgpu_fuzz_rand(&r) % 4) {
		case 0:
			in.a = vgpu_fuzz_rand(&r) % 20;
			break;
		case 1:
			in.b = vgpu_fuzz_rand(&r) % 8;
			break;
		case 2:
			in.imm = vgpu_fuzz_rand(&r) % 4 ? vgpu_fuzz_rand(&r) % 70000 :
				 vgpu_fuzz_rand(&r) << 8;
			break;
		default:
			in.c = !in.c;
			break;
		}
		memcpy(data + i * sz, &in, sz);
		break;
	}
	return n * sz;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 ids[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 3 }, { 7, 5 }, { 254, 31 }, { 1000, 1023 },
	};
	struct vgpu_isa_summary sum;
	struct vgpu_isa_error err;
	struct vgpu_insn *prog;
	u32 n = size / sizeof(*prog), i, c;
	u16 *match;
	int ret;

	prog = malloc(n ? n * sizeof(*prog) : 1);
	match = malloc(n ? n * sizeof(*match) : 1);
	VGPU_FUZZ_CHECK(prog && match);
	memcpy(prog, data, n * sizeof(*prog));

	ret = vgpu_isa_validate(n ? prog : NULL, n, &err);
	VGPU_FUZZ_CHECK(ret == 0 || ret == -EINVAL);
	VGPU_FUZZ_CHECK((ret == 0) == vgpu_fuzz_ref_valid(prog, n));
	if (ret) {
		VGPU_FUZZ_CHECK(err.rule >= 1 && err.rule <= VGPU_ISA_ERR_MAX);
		if (err.rule == VGPU_ISA_ERR_LENGTH)
			VGPU_FUZZ_CHECK(err.index == (n ? VGPU_ISA_MAX_INSNS : 0));
		else
			VGPU_FUZZ_CHECK(err.index < n);
		VGPU_FUZZ_CHECK(vgpu_isa_summarize(prog, n, &sum) == -EINVAL);
		VGPU_FUZZ_CHECK(vgpu_isa_link(prog, n, match) == -EINVAL);
		goto out;
	}
	VGPU_FUZZ_CHECK(err.rule == VGPU_ISA_OK);
	VGPU_FUZZ_CHECK(vgpu_isa_summarize(prog, n, &sum) == 0);
	VGPU_FUZZ_CHECK(vgpu_isa_link(prog, n, match) == 0);
	VGPU_FUZZ_CHECK(sum.n_insns == n);
	VGPU_FUZZ_CHECK(sum.max_depth <= VGPU_ISA_MAX_NEST);
	VGPU_FUZZ_CHECK(sum.max_dyn_insns >= 1);
	VGPU_FUZZ_CHECK(sum.max_dyn_insns <= VGPU_ISA_MAX_DYN_INSNS);
	for (i = 0, c = 0; i < VGPU_ISA_NUM_CLASSES; i++)
		c += sum.class_count[i];
	VGPU_FUZZ_CHECK(c <= n);
	VGPU_FUZZ_CHECK(prog[n - 1].op == VGPU_OP_EXIT);
	for (i = 0; i < n; i++) {
		if (prog[i].op == VGPU_OP_LOOP || prog[i].op == VGPU_OP_ENDLOOP) {
			VGPU_FUZZ_CHECK(match[i] < n && match[i] != i);
			VGPU_FUZZ_CHECK(match[match[i]] == i);
		} else {
			VGPU_FUZZ_CHECK(match[i] == i);
		}
	}
	if (sum.max_dyn_insns <= 100000) {
		for (i = 0; i < ARRAY_SIZE(ids); i++) {
			u64 bars, bars0 = 0, w;

			vgpu_fuzz_run(prog, n, match, ids[i][0], 0,
				      sum.max_dyn_insns + 1, &bars0);
			/* every warp of a block reaches the same BAR count */
			for (w = 1; w < 4; w++) {
				vgpu_fuzz_run(prog, n, match, ids[i][0],
					      ids[i][1] + w, sum.max_dyn_insns + 1,
					      &bars);
				VGPU_FUZZ_CHECK(sum.uses_spin || bars == bars0);
			}
		}
	}
out:
	free(match);
	free(prog);
	return 0;
}
