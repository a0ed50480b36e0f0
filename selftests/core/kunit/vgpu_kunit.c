// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_core_kunit.ko: the unit tests of driver/core (selftests/core/test_*.c,
 * see ../vgpu_test.h) as KUnit suites vgpu_core_*, with their own copy of
 * the core compiled by kbuild.  This file holds what the macros of
 * vgpu_test.h and vgpu_kunit_libc.h call.
 */
#include <linux/module.h>

#include "../vgpu_test.h"
#include "vgpu_kunit_libc.h"

int vgpu_kt_errno;

/**
 * vgpu_kt_fail() - a failed ASSERT_* / EXPECT_*: mark the test failed
 * @kt: the test
 * @file: source file of the check
 * @line: its line
 * @fmt: what was expected and seen
 */
void vgpu_kt_fail(struct vgpu_kt *kt, const char *file, int line,
		  const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	kunit_set_failure(kt->test);
	kunit_err(kt->test, "%s:%d: %pV\n", file, line, &vaf);
	va_end(args);
}

/**
 * vgpu_kt_log() - TH_LOG(): a diagnostic line of the test
 * @kt: the test
 * @file: source file
 * @line: its line
 * @fmt: the message
 */
void vgpu_kt_log(struct vgpu_kt *kt, const char *file, int line,
		 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	kunit_info(kt->test, "%s:%d: %pV\n", file, line, &vaf);
	va_end(args);
}

/**
 * vgpu_kt_fixture() - the context of a TEST_F case and its zeroed data
 * @test: the KUnit test
 * @size: size of the fixture data
 *
 * Both are freed by KUnit when the case ends.
 *
 * Return: the context, NULL without memory.
 */
struct vgpu_kt *vgpu_kt_fixture(struct kunit *test, size_t size)
{
	struct vgpu_kt *kt = kunit_kzalloc(test, sizeof(*kt), GFP_KERNEL);

	if (!kt)
		return NULL;
	kt->test = test;
	kt->self = kunit_kzalloc(test, size, GFP_KERNEL);
	return kt->self ? kt : NULL;
}

/**
 * vgpu_kt_printf() - printf() / fprintf() of the tests: the kernel log
 * @fmt: format
 *
 * Return: 0.
 */
int vgpu_kt_printf(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("%pV", &vaf);
	va_end(args);
	return 0;
}

MODULE_DESCRIPTION("vgpu-dispatch: KUnit suites of the scheduling core");
MODULE_LICENSE("GPL");
