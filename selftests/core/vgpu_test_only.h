/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_test_only.h - run one test of a native unit-test program: with
 * VGPU_TEST_ONLY=NAME in the environment (make check-core T=SUITE.NAME)
 * only the test NAME ("fixture.test", or "test" of any fixture; the
 * harness's own name) runs.  Include after kselftest_harness.h and end the
 * program with VGPU_TEST_MAIN instead of TEST_HARNESS_MAIN (vgpu_test.h's
 * VGPU_TEST_SUITE does).  The kselftest harness of linux 6.1 has no test
 * filter of its own.
 */
#ifndef VGPU_TEST_ONLY_H
#define VGPU_TEST_ONLY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Unlink every test but VGPU_TEST_ONLY's from the harness's lists.
 * Return: the tests left (all of them without VGPU_TEST_ONLY).
 */
static inline int vgpu_test_only(void)
{
	const char *only = getenv("VGPU_TEST_ONLY");
	struct __test_metadata *t, *next, *keep, *last;
	struct __fixture_metadata *f;
	char name[256];
	int n = 0;

	for (f = __fixture_list; f; f = f->next) {
		keep = NULL;
		last = NULL;
		for (t = f->tests; t; t = next) {
			next = t->next;
			snprintf(name, sizeof(name), "%s.%s", f->name, t->name);
			if (only && *only && strcmp(only, name) &&
			    strcmp(only, t->name))
				continue;
			/* the harness's list: prev of the head is the tail */
			t->next = NULL;
			t->prev = last ? last : t;
			if (last)
				last->next = t;
			else
				keep = t;
			last = t;
			n++;
		}
		if (keep)
			keep->prev = last;
		f->tests = keep;
	}
	return n;
}

#define VGPU_TEST_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		if (!vgpu_test_only()) {				\
			printf("1..1\nnot ok 1 no test named %s\n",	\
			       getenv("VGPU_TEST_ONLY"));		\
			return 1;					\
		}							\
		return test_harness_run(argc, argv);			\
	}

#endif /* VGPU_TEST_ONLY_H */
