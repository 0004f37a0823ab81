/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thin stand-in for <kunit/test.h>, so that the KUnit suites of the
 * algorithm library (kmod/lib/tests/) also build as a user program and
 * print KTAP that kunit.py parses, as the kernel's tools/testing/radix-tree
 * builds kernel code natively. Only what the suites use is here.
 */
#ifndef BFLY_NATIVE_KUNIT_TEST_H
#define BFLY_NATIVE_KUNIT_TEST_H

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

struct kunit;

/* A deferred action, run when the case ends */
struct kunit_action {
	void (*fn)(void *ctx);
	void *ctx;
};

struct kunit {
	const char *name;
	bool failed;
	bool skipped;
	char skip_reason[80];
	jmp_buf abort;
	struct kunit_action *actions;
	int nactions;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
};

/* Natively, the cases sweep to the largest sizes (kunit_util.h) */
#ifndef BFLY_TEST_LARGE
#define BFLY_TEST_LARGE 1
#endif

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }
#define KUNIT_CASE_SLOW(fn) KUNIT_CASE(fn)

void kunit_native_register(struct kunit_suite *suite);

#define kunit_test_suite(s)						\
	static void __attribute__((constructor)) kunit_register_##s(void)	\
	{								\
		kunit_native_register(&(s));				\
	}

static inline int kunit_add_action_or_reset(struct kunit *test,
					    void (*fn)(void *), void *ctx)
{
	struct kunit_action *a = realloc(test->actions,
					 (test->nactions + 1) * sizeof(*a));

	if (!a) {
		fn(ctx);
		return -ENOMEM;
	}
	test->actions = a;
	a[test->nactions++] = (struct kunit_action){ fn, ctx };
	return 0;
}

#ifndef cond_resched
#define cond_resched() do { } while (0)
#endif

/* Skip the rest of the case, saying why */
void kunit_native_skip(struct kunit *test, const char *fmt, ...);
#define kunit_skip(test, fmt, ...) kunit_native_skip(test, fmt, ##__VA_ARGS__)

#define kunit_info(test, fmt, ...) printf("    # %s: " fmt, (test)->name, ##__VA_ARGS__)

/* A failed expectation: say where and what, go on (or end the case) */
void kunit_native_fail(struct kunit *test, bool assert, const char *file, int line,
		       const char *what, const char *fmt, ...);

#define KUNIT_BINARY(test, assert, op, a, b, ...)				\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (!(__a op __b))					\
			kunit_native_fail(test, assert, __FILE__, __LINE__,	\
					  #a " " #op " " #b, "%lld vs %lld " __VA_ARGS__); \
	} while (0)

#define KUNIT_EXPECT_EQ(t, a, b) KUNIT_BINARY(t, false, ==, a, b, "", __a, __b)
#define KUNIT_EXPECT_NE(t, a, b) KUNIT_BINARY(t, false, !=, a, b, "", __a, __b)
#define KUNIT_EXPECT_GT(t, a, b) KUNIT_BINARY(t, false, >, a, b, "", __a, __b)
#define KUNIT_EXPECT_GE(t, a, b) KUNIT_BINARY(t, false, >=, a, b, "", __a, __b)
#define KUNIT_EXPECT_LT(t, a, b) KUNIT_BINARY(t, false, <, a, b, "", __a, __b)
#define KUNIT_EXPECT_LE(t, a, b) KUNIT_BINARY(t, false, <=, a, b, "", __a, __b)
#define KUNIT_ASSERT_EQ(t, a, b) KUNIT_BINARY(t, true, ==, a, b, "", __a, __b)
#define KUNIT_ASSERT_NE(t, a, b) KUNIT_BINARY(t, true, !=, a, b, "", __a, __b)
#define KUNIT_ASSERT_GT(t, a, b) KUNIT_BINARY(t, true, >, a, b, "", __a, __b)
#define KUNIT_ASSERT_GE(t, a, b) KUNIT_BINARY(t, true, >=, a, b, "", __a, __b)
#define KUNIT_ASSERT_LE(t, a, b) KUNIT_BINARY(t, true, <=, a, b, "", __a, __b)
#define KUNIT_ASSERT_LT(t, a, b) KUNIT_BINARY(t, true, <, a, b, "", __a, __b)
#define KUNIT_EXPECT_TRUE(t, c) KUNIT_EXPECT_EQ(t, !!(c), 1)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_EXPECT_EQ(t, !!(c), 0)
#define KUNIT_ASSERT_TRUE(t, c) KUNIT_ASSERT_EQ(t, !!(c), 1)
#define KUNIT_ASSERT_FALSE(t, c) KUNIT_ASSERT_EQ(t, !!(c), 0)
#define KUNIT_ASSERT_NOT_NULL(t, p) KUNIT_ASSERT_TRUE(t, (p) != NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p) KUNIT_EXPECT_TRUE(t, (p) != NULL)

/* A binary check with a message (KUNIT_{EXPECT,ASSERT}_{op}_MSG) */
#define KUNIT_BINARY_MSG(test, assert, op, a, b, fmt, ...)			\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (!(__a op __b))					\
			kunit_native_fail(test, assert, __FILE__, __LINE__,	\
					  #a " " #op " " #b, "%lld vs %lld: " fmt, \
					  __a, __b, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_EXPECT_EQ_MSG(t, a, b, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, ==, a, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, a, b, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, !=, a, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, a, b, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, <=, a, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, a, b, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, >=, a, b, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, a, b, fmt, ...) \
	KUNIT_BINARY_MSG(t, true, ==, a, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, ==, !!(c), 1, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...) \
	KUNIT_BINARY_MSG(t, false, ==, !!(c), 0, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_BINARY_MSG(t, true, ==, !!(c), 1, fmt, ##__VA_ARGS__)

/* An unconditional failure */
#define KUNIT_FAIL(t, fmt, ...)							\
	kunit_native_fail(t, false, __FILE__, __LINE__, "no failure", fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_MEMEQ(t, a, b, size)					\
	KUNIT_BINARY(t, false, ==, memcmp((a), (b), (size)), 0, "", __a, __b)

#define KUNIT_EXPECT_STREQ(t, a, b)						\
	do {								\
		const char *__a = (a), *__b = (b);			\
		if (strcmp(__a, __b))					\
			kunit_native_fail(t, false, __FILE__, __LINE__,	\
					  #a " == " #b, "\"%s\" vs \"%s\"", __a, __b); \
	} while (0)

#endif /* BFLY_NATIVE_KUNIT_TEST_H */
