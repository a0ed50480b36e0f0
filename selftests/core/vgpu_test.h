/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_test.h - one source for the core's unit tests, two harnesses.
 *
 * The tests of driver/core (selftests/core/test_*.c) are written against
 * the kselftest harness (TEST, TEST_F, FIXTURE*, ASSERT_*, EXPECT_*,
 * TH_LOG).  Compiled natively (make check-core) this header is that
 * harness; compiled by kbuild into vgpu_core_kunit.ko (selftests/core/Kbuild,
 * the debug kernel of make check-debug) it maps the same macros onto KUnit,
 * so the test bodies and the core they test are compiled with the kernel's
 * compiler and flags and run in kernel context -- the model of
 * tools/testing/radix-tree, the other way round.
 *
 * Each file ends with its case list instead of TEST_HARNESS_MAIN:
 *
 *	VGPU_TEST_SUITE(bmap,
 *		VGPU_CASE(ranges)
 *		VGPU_CASE_F(engine, barrier_waits)
 *		VGPU_NATIVE(seed001_monte_carlo))
 *
 * VGPU_CASE / VGPU_CASE_F are KUnit cases of suite vgpu_core_<suite>;
 * VGPU_NATIVE / VGPU_NATIVE_F run natively only, their bodies inside
 * #ifndef __KERNEL__ (floating point, threads, files, dlopen: see
 * Documentation/testing.rst).  Natively the list is checked against the
 * tests the file registers, so a new TEST() not listed fails the suite.
 *
 * VGPU_TEST_BIG marks a local too big for a kernel stack (the KUnit
 * thread's stack and the kernel's 2 KiB frame warning): static in the
 * kernel, where the cases of a suite run one at a time, an ordinary local
 * natively.  VGPU_TEST_SCALE(n, k) is a loop count of the random tests: n
 * natively, k in the kernel (a TCG guest with KASAN: every case must end
 * well within the hung-task timeout of 60 s).
 */
#ifndef VGPU_TEST_H
#define VGPU_TEST_H

#ifndef __KERNEL__

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#undef ARRAY_SIZE	/* the core's own (vgpu_os_user.h) */
/*
 * The harness kills a test after 30 s; the randomised suites take about
 * 25 s alone under ASan and UBSan, and a loaded machine must not turn them
 * red.  A hang is still caught, later.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	300
#include "vgpu_os.h"

#define VGPU_TEST_BIG
#define VGPU_TEST_SCALE(n, k)	(n)

#define VGPU_CASE(name)		"global." #name,
#define VGPU_CASE_F(f, name)	#f "." #name,
#define VGPU_NATIVE(name)	VGPU_CASE(name)
#define VGPU_NATIVE_F(f, name)	VGPU_CASE_F(f, name)

/*
 * Every test the file registers is in the case list and every listed
 * case is a registered test; 0 if so.
 */
static inline int vgpu_test_check_list(const char *suite,
				       const char *const *list, size_t n)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	char name[256];
	size_t i, found = 0;
	int bad = 0;

	for (f = __fixture_list; f; f = f->next) {
		for (t = f->tests; t; t = t->next) {
			snprintf(name, sizeof(name), "%s.%s", f->name,
				 t->name);
			for (i = 0; i < n; i++)
				if (!strcmp(list[i], name))
					break;
			if (i == n) {
				printf("# %s: test %s not in VGPU_TEST_SUITE\n",
				       suite, name);
				bad = 1;
			} else {
				found++;
			}
		}
	}
	if (found != n) {
		printf("# vgpu_test: %s: %zu listed cases, %zu tests defined\n",
		       suite, n, found);
		bad = 1;
	}
	return bad;
}

#define VGPU_TEST_SUITE(suite, ...)					\
	static const char *const vgpu_test_list[] = { __VA_ARGS__ };	\
	static void __attribute__((constructor))			\
	__constructor_order_last(void)					\
	{								\
		if (!__constructor_order)				\
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	}								\
	int main(int argc, char **argv)					\
	{								\
		if (vgpu_test_check_list(#suite, vgpu_test_list,	\
					 ARRAY_SIZE(vgpu_test_list))) {	\
			printf("1..1\nnot ok 1 %s case list\n", #suite); \
			return 1;					\
		}							\
		if (!vgpu_test_only()) {				\
			printf("1..1\nnot ok 1 no test named %s\n",	\
			       getenv("VGPU_TEST_ONLY"));		\
			return 1;					\
		}							\
		return test_harness_run(argc, argv);			\
	}

#else /* __KERNEL__: KUnit */

#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#define VGPU_TEST_BIG		static
#define VGPU_TEST_SCALE(n, k)	(k)

/**
 * struct vgpu_kt - what the kselftest macros call _metadata, under KUnit
 * @test: the KUnit test
 * @trigger: the last ASSERT/EXPECT failed (runs its TH_LOG, then bails)
 * @self: fixture data (TEST_F)
 */
struct vgpu_kt {
	struct kunit *test;
	int trigger;
	void *self;
};

/* helpers of the tests take a struct __test_metadata * */
#define __test_metadata vgpu_kt

__printf(4, 5) void vgpu_kt_fail(struct vgpu_kt *kt, const char *file,
				 int line, const char *fmt, ...);
__printf(4, 5) void vgpu_kt_log(struct vgpu_kt *kt, const char *file,
				int line, const char *fmt, ...);
struct vgpu_kt *vgpu_kt_fixture(struct kunit *test, size_t size);

static inline void vgpu_kt_arm(struct vgpu_kt *kt, int fail)
{
	kt->trigger = fail;
}

static inline void vgpu_kt_bail(struct vgpu_kt *kt, int assert)
{
	if (assert)
		__kunit_abort(kt->test);
	kt->trigger = 0;
}

/*
 * As the kselftest harness: evaluate each side once, report, then run an
 * optional TH_LOG() statement and bail out of an ASSERT.  One for
 * statement (natively: a block and a for), so that a check in an unbraced
 * loop body stays one statement.
 */
#define __VGPU_CHECK(_e, _es, _s, _ss, _t) ({				\
	__typeof__(_e) __exp = (_e);					\
	__typeof__(_s) __seen = (_s);					\
	int __fail = !(__exp _t __seen);				\
									\
	if (__fail)							\
		vgpu_kt_fail(_metadata, __FILE__, __LINE__,		\
			     "Expected %s (%lld) %s %s (%lld)",		\
			     _es, (long long)__exp, #_t, _ss,		\
			     (long long)__seen);			\
	__fail;								\
})

#define __VGPU_CHECK_STR(_e, _s, _t) ({					\
	const char *__exp = (_e);					\
	const char *__seen = (_s);					\
	int __fail = !(strcmp(__exp, __seen) _t 0);			\
									\
	if (__fail)							\
		vgpu_kt_fail(_metadata, __FILE__, __LINE__,		\
			     "Expected '%s' %s '%s'", __exp, #_t, __seen); \
	__fail;								\
})

#define __VGPU_EXPECT(_e, _es, _s, _ss, _t, _assert)			\
	for (vgpu_kt_arm(_metadata, __VGPU_CHECK(_e, _es, _s, _ss, _t)); \
	     _metadata->trigger; vgpu_kt_bail(_metadata, _assert))

#define __VGPU_EXPECT_STR(_e, _s, _t, _assert)				\
	for (vgpu_kt_arm(_metadata, __VGPU_CHECK_STR(_e, _s, _t));	\
	     _metadata->trigger; vgpu_kt_bail(_metadata, _assert))

#define ASSERT_EQ(e, s)	__VGPU_EXPECT(e, #e, s, #s, ==, 1)
#define ASSERT_NE(e, s)	__VGPU_EXPECT(e, #e, s, #s, !=, 1)
#define ASSERT_LT(e, s)	__VGPU_EXPECT(e, #e, s, #s, <, 1)
#define ASSERT_LE(e, s)	__VGPU_EXPECT(e, #e, s, #s, <=, 1)
#define ASSERT_GT(e, s)	__VGPU_EXPECT(e, #e, s, #s, >, 1)
#define ASSERT_GE(e, s)	__VGPU_EXPECT(e, #e, s, #s, >=, 1)
#define ASSERT_TRUE(s)	__VGPU_EXPECT(0, "0", s, #s, !=, 1)
#define ASSERT_FALSE(s)	__VGPU_EXPECT(0, "0", s, #s, ==, 1)
#define EXPECT_EQ(e, s)	__VGPU_EXPECT(e, #e, s, #s, ==, 0)
#define EXPECT_NE(e, s)	__VGPU_EXPECT(e, #e, s, #s, !=, 0)
#define EXPECT_LT(e, s)	__VGPU_EXPECT(e, #e, s, #s, <, 0)
#define EXPECT_LE(e, s)	__VGPU_EXPECT(e, #e, s, #s, <=, 0)
#define EXPECT_GT(e, s)	__VGPU_EXPECT(e, #e, s, #s, >, 0)
#define EXPECT_GE(e, s)	__VGPU_EXPECT(e, #e, s, #s, >=, 0)
#define EXPECT_TRUE(s)	__VGPU_EXPECT(0, "0", s, #s, !=, 0)
#define EXPECT_FALSE(s)	__VGPU_EXPECT(0, "0", s, #s, ==, 0)
#define ASSERT_STREQ(e, s)	__VGPU_EXPECT_STR(e, s, ==, 1)
#define ASSERT_STRNE(e, s)	__VGPU_EXPECT_STR(e, s, !=, 1)
#define EXPECT_STREQ(e, s)	__VGPU_EXPECT_STR(e, s, ==, 0)
#define EXPECT_STRNE(e, s)	__VGPU_EXPECT_STR(e, s, !=, 0)

#define TH_LOG(fmt, ...)						\
	vgpu_kt_log(_metadata, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define TEST(name)							\
	static void name##_vgpu_body(struct vgpu_kt *_metadata);	\
	static void name(struct kunit *test)				\
	{								\
		struct vgpu_kt kt = { .test = test };			\
									\
		name##_vgpu_body(&kt);					\
	}								\
	static void name##_vgpu_body(struct vgpu_kt __maybe_unused *_metadata)

#define FIXTURE_DATA(f)		struct _test_data_##f

#define __VGPU_FIXTURE_FN(f, what)					\
	static void f##_##what(struct vgpu_kt __maybe_unused *_metadata, \
			       FIXTURE_DATA(f) __maybe_unused *self,	\
			       const void __maybe_unused *variant)

/* The teardown runs as a KUnit action: also after a failed ASSERT. */
#define FIXTURE(f)							\
	FIXTURE_DATA(f);						\
	__VGPU_FIXTURE_FN(f, setup);					\
	__VGPU_FIXTURE_FN(f, teardown);					\
	static void f##_vgpu_down(void *ctx)				\
	{								\
		struct vgpu_kt *kt = ctx;				\
									\
		f##_teardown(kt, kt->self, NULL);			\
	}								\
	FIXTURE_DATA(f)

#define FIXTURE_SETUP(f)	__VGPU_FIXTURE_FN(f, setup)
#define FIXTURE_TEARDOWN(f)	__VGPU_FIXTURE_FN(f, teardown)

#define TEST_F(f, name)							\
	static void f##_##name##_vgpu_body(struct vgpu_kt *_metadata,	\
					   struct _test_data_##f *self,	\
					   const void *variant);	\
	static void f##_##name(struct kunit *test)			\
	{								\
		struct vgpu_kt *kt;					\
									\
		kt = vgpu_kt_fixture(test, sizeof(FIXTURE_DATA(f)));	\
		KUNIT_ASSERT_NOT_NULL(test, kt);			\
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, \
					f##_vgpu_down, kt));		\
		f##_setup(kt, kt->self, NULL);				\
		f##_##name##_vgpu_body(kt, kt->self, NULL);		\
	}								\
	static void f##_##name##_vgpu_body(struct vgpu_kt __maybe_unused *_metadata, \
					   struct _test_data_##f __maybe_unused *self, \
					   const void __maybe_unused *variant)

#define VGPU_CASE(name)		KUNIT_CASE(name),
#define VGPU_CASE_F(f, name)	KUNIT_CASE(f##_##name),
#define VGPU_NATIVE(name)
#define VGPU_NATIVE_F(f, name)

#define VGPU_TEST_SUITE(suite, ...)					\
	static struct kunit_case vgpu_core_##suite##_cases[] = {	\
		__VA_ARGS__						\
		{}							\
	};								\
	static struct kunit_suite vgpu_core_##suite##_suite = {		\
		.name = "vgpu_core_" #suite,				\
		.test_cases = vgpu_core_##suite##_cases,		\
	};								\
	kunit_test_suite(vgpu_core_##suite##_suite);

#endif /* __KERNEL__ */

#endif /* VGPU_TEST_H */
