// SPDX-License-Identifier: GPL-2.0
/*
 * lane_float.c - IEEE-754 binary32 arithmetic of the lane engine.
 *
 * Operands and results are bit patterns (u32).  Semantics (the same for
 * both implementations, Documentation/isa.rst): round to nearest, ties to
 * even; subnormal inputs and results are kept; every NaN result is the
 * canonical quiet NaN VGPU_F32_NAN; min/max return the other operand when
 * one is a NaN and order -0 below +0; float to int truncates toward zero,
 * saturates and maps NaN to 0; compares with a NaN are false except "not
 * equal".
 *
 * vgpu_sf32_*() work on integers only: the module uses them (kernel code
 * may not touch the FPU).  A finite value is handled as sig * 2^e with an
 * integer significand; a sum is formed exactly in 64 bits, bits shifted
 * out below the rounding position are kept as a sticky bit, and
 * vgpu_sf32_round() rounds once.  Natively the lane engine uses
 * vgpu_hf32_*() of lane.h instead, the host's float unit with the same
 * semantics; test_lane compares the two bit for bit.
 */
#include "vgpu_os.h"
#include "lane.h"

#define VGPU_F32_SIGN		0x80000000U
#define VGPU_F32_INF		0x7f800000U
#define VGPU_F32_ABS		0x7fffffffU

static bool vgpu_f32_isnan(u32 a)
{
	return (a & VGPU_F32_ABS) > VGPU_F32_INF;
}

static bool vgpu_f32_isinf(u32 a)
{
	return (a & VGPU_F32_ABS) == VGPU_F32_INF;
}

static bool vgpu_f32_iszero(u32 a)
{
	return !(a & VGPU_F32_ABS);
}

/*
 * The significand and exponent of finite @a: value = sig * 2^e, sig below
 * 2^24 (below 2^23 for a subnormal, 0 for a zero).
 */
static u32 vgpu_f32_unpack(u32 a, int *e)
{
	u32 ex = (a >> 23) & 0xff, fr = a & 0x7fffff;

	if (!ex) {
		*e = -149;
		return fr;
	}
	*e = (int)ex - 150;
	return fr | 0x800000;
}

/*
 * sig * 2^e (sig != 0; its bit 0 may be a sticky bit, two or more places
 * below the rounding position) rounded to binary32, with sign @sign.
 */
static u32 vgpu_sf32_round(u32 sign, int e, u64 sig)
{
	int top = fls64(sig) - 1, ulp, shift;
	u64 m, rem, half;

	/* the last bit kept: 24 bits from the top, or 2^-149 */
	ulp = max(top + e - 23, -149);
	shift = ulp - e;
	if (shift <= 0) {
		m = sig << -shift;
	} else if (shift > 64) {
		m = 0;		/* below half the smallest subnormal */
	} else {
		m = shift == 64 ? 0 : sig >> shift;
		rem = shift == 64 ? sig : sig & ((1ULL << shift) - 1);
		half = 1ULL << (shift - 1);
		if (rem > half || (rem == half && (m & 1)))
			m++;
	}
	if (m >> 24) {		/* rounded up to the next binade */
		m >>= 1;
		ulp++;
	}
	if (!m)
		return sign;
	if (ulp > 104)		/* 2^128 or more: overflow */
		return sign | VGPU_F32_INF;
	/* m in [2^23, 2^24): normal; m below 2^23 only when ulp = -149 */
	return sign | (((u32)(ulp + 149) << 23) + (u32)m);
}

/* @x * 2^@ex with bit 62 the top one: x != 0. */
static u64 vgpu_sf32_norm(u64 x, int *ex)
{
	int s = 62 - (fls64(x) - 1);

	*ex -= s;
	return s >= 0 ? x << s : x >> -s;
}

/*
 * (-1)^sx * x * 2^ex + (-1)^sy * y * 2^ey, rounded once; x and y are
 * non-zero and below 2^63.
 */
static u32 vgpu_sf32_addsig(u32 sx, u64 x, int ex, u32 sy, u64 y, int ey)
{
	u64 t;
	int d;

	x = vgpu_sf32_norm(x, &ex);
	y = vgpu_sf32_norm(y, &ey);
	if (ex < ey || (ex == ey && x < y)) {
		swap(x, y);
		swap(ex, ey);
		swap(sx, sy);
	}
	d = ex - ey;
	if (d >= 63) {
		y = 1;	/* sticky only */
	} else if (d) {
		t = y >> d;
		y = t | ((t << d) != y);
	}
	if (sx == sy)
		return vgpu_sf32_round(sx, ex, x + y);
	if (x == y)
		return 0;	/* exact zero: +0 when rounding to nearest */
	return vgpu_sf32_round(sx, ex, x - y);
}

/**
 * vgpu_sf32_add() - binary32 a + b, integer implementation
 * @a: operand
 * @b: operand
 *
 * Return: the rounded sum.
 */
u32 vgpu_sf32_add(u32 a, u32 b)
{
	u32 sa = a & VGPU_F32_SIGN, sb = b & VGPU_F32_SIGN, xa, xb;
	int ea, eb;

	if (vgpu_f32_isnan(a) || vgpu_f32_isnan(b))
		return VGPU_F32_NAN;
	if (vgpu_f32_isinf(a) || vgpu_f32_isinf(b)) {
		if (vgpu_f32_isinf(a) && vgpu_f32_isinf(b) && sa != sb)
			return VGPU_F32_NAN;
		return vgpu_f32_isinf(a) ? a : b;
	}
	if (vgpu_f32_iszero(a) && vgpu_f32_iszero(b))
		return sa & sb;
	if (vgpu_f32_iszero(a))
		return b;
	if (vgpu_f32_iszero(b))
		return a;
	xa = vgpu_f32_unpack(a, &ea);
	xb = vgpu_f32_unpack(b, &eb);
	return vgpu_sf32_addsig(sa, xa, ea, sb, xb, eb);
}

/**
 * vgpu_sf32_sub() - binary32 a - b, integer implementation
 * @a: operand
 * @b: operand
 *
 * Return: the rounded difference.
 */
u32 vgpu_sf32_sub(u32 a, u32 b)
{
	return vgpu_sf32_add(a, b ^ VGPU_F32_SIGN);
}

/**
 * vgpu_sf32_mul() - binary32 a * b, integer implementation
 * @a: operand
 * @b: operand
 *
 * Return: the rounded product.
 */
u32 vgpu_sf32_mul(u32 a, u32 b)
{
	u32 s = (a ^ b) & VGPU_F32_SIGN, xa, xb;
	int ea, eb;

	if (vgpu_f32_isnan(a) || vgpu_f32_isnan(b))
		return VGPU_F32_NAN;
	if (vgpu_f32_isinf(a) || vgpu_f32_isinf(b)) {
		if (vgpu_f32_iszero(a) || vgpu_f32_iszero(b))
			return VGPU_F32_NAN;
		return s | VGPU_F32_INF;
	}
	if (vgpu_f32_iszero(a) || vgpu_f32_iszero(b))
		return s;
	xa = vgpu_f32_unpack(a, &ea);
	xb = vgpu_f32_unpack(b, &eb);
	return vgpu_sf32_round(s, ea + eb, (u64)xa * xb);
}

/**
 * vgpu_sf32_fma() - binary32 a * b + c with one rounding, integer
 *	implementation
 * @a: factor
 * @b: factor
 * @c: addend
 *
 * Return: the fused multiply-add.
 */
u32 vgpu_sf32_fma(u32 a, u32 b, u32 c)
{
	u32 sp = (a ^ b) & VGPU_F32_SIGN, sc = c & VGPU_F32_SIGN, xa, xb, xc;
	int ea, eb, ec;

	if (vgpu_f32_isnan(a) || vgpu_f32_isnan(b) || vgpu_f32_isnan(c))
		return VGPU_F32_NAN;
	if (vgpu_f32_isinf(a) || vgpu_f32_isinf(b)) {
		if (vgpu_f32_iszero(a) || vgpu_f32_iszero(b))
			return VGPU_F32_NAN;
		if (vgpu_f32_isinf(c) && sc != sp)
			return VGPU_F32_NAN;
		return sp | VGPU_F32_INF;
	}
	if (vgpu_f32_isinf(c))
		return c;
	if (vgpu_f32_iszero(a) || vgpu_f32_iszero(b))
		return vgpu_f32_iszero(c) ? sp & sc : c;
	xa = vgpu_f32_unpack(a, &ea);
	xb = vgpu_f32_unpack(b, &eb);
	if (vgpu_f32_iszero(c))
		return vgpu_sf32_round(sp, ea + eb, (u64)xa * xb);
	xc = vgpu_f32_unpack(c, &ec);
	return vgpu_sf32_addsig(sp, (u64)xa * xb, ea + eb, sc, xc, ec);
}

/*
 * -1, 0 or 1 as a is below, equal to or above b (not NaNs); -0 and +0
 * are equal.
 */
static int vgpu_sf32_order(u32 a, u32 b)
{
	s64 ka = a & VGPU_F32_ABS, kb = b & VGPU_F32_ABS;

	if (a & VGPU_F32_SIGN)
		ka = -ka;
	if (b & VGPU_F32_SIGN)
		kb = -kb;
	return ka < kb ? -1 : ka > kb;
}

/**
 * vgpu_sf32_min() - binary32 minimum, integer implementation
 * @a: operand
 * @b: operand
 *
 * Return: the smaller operand (-0 below +0); the other one if one is a
 * NaN, VGPU_F32_NAN if both are.
 */
u32 vgpu_sf32_min(u32 a, u32 b)
{
	int o;

	if (vgpu_f32_isnan(a))
		return vgpu_f32_isnan(b) ? VGPU_F32_NAN : b;
	if (vgpu_f32_isnan(b))
		return a;
	o = vgpu_sf32_order(a, b);
	return o < 0 ? a : o > 0 ? b : a | b;
}

/**
 * vgpu_sf32_max() - binary32 maximum, integer implementation
 * @a: operand
 * @b: operand
 *
 * Return: the larger operand (+0 above -0); the other one if one is a
 * NaN, VGPU_F32_NAN if both are.
 */
u32 vgpu_sf32_max(u32 a, u32 b)
{
	int o;

	if (vgpu_f32_isnan(a))
		return vgpu_f32_isnan(b) ? VGPU_F32_NAN : b;
	if (vgpu_f32_isnan(b))
		return a;
	o = vgpu_sf32_order(a, b);
	return o > 0 ? a : o < 0 ? b : a & b;
}

/**
 * vgpu_sf32_from_int() - signed 32-bit integer to binary32, integer
 *	implementation
 * @a: the integer's bits
 *
 * Return: the nearest float (ties to even).
 */
u32 vgpu_sf32_from_int(u32 a)
{
	u32 s = a & VGPU_F32_SIGN;

	if (!a)
		return 0;
	return vgpu_sf32_round(s, 0, s ? -(u64)(s32)a : a);
}

/**
 * vgpu_sf32_to_int() - binary32 to signed 32-bit integer, integer
 *	implementation
 * @a: the float's bits
 *
 * Return: the value truncated toward zero, saturated to
 * [-2^31, 2^31 - 1]; 0 for a NaN.
 */
u32 vgpu_sf32_to_int(u32 a)
{
	u32 s = a & VGPU_F32_SIGN, x;
	int e;
	u64 m;

	if (vgpu_f32_isnan(a))
		return 0;
	if (vgpu_f32_isinf(a))
		return s ? 0x80000000U : 0x7fffffffU;
	x = vgpu_f32_unpack(a, &e);
	if (e >= 8)		/* |a| >= 2^31 */
		return s ? 0x80000000U : 0x7fffffffU;
	m = e >= 0 ? (u64)x << e : e > -32 ? x >> -e : 0;
	if (m > 0x7fffffffU)
		return s ? 0x80000000U : 0x7fffffffU;
	return s ? -(u32)m : (u32)m;
}

/**
 * vgpu_sf32_cmp() - binary32 compare, integer implementation
 * @a: left operand
 * @b: right operand
 * @cond: VGPU_COND_*
 *
 * Return: a @cond b; false when either is a NaN, except for
 * VGPU_COND_NE; -0 equals +0.
 */
bool vgpu_sf32_cmp(u32 a, u32 b, u32 cond)
{
	int o;

	if (vgpu_f32_isnan(a) || vgpu_f32_isnan(b))
		return cond == VGPU_COND_NE;
	o = vgpu_sf32_order(a, b);
	switch (cond) {
	case VGPU_COND_EQ:
		return o == 0;
	case VGPU_COND_NE:
		return o != 0;
	case VGPU_COND_LT:
		return o < 0;
	case VGPU_COND_LE:
		return o <= 0;
	case VGPU_COND_GT:
		return o > 0;
	default:
		return o >= 0;
	}
}
