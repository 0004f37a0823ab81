// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the KUnit suites of the algorithm library as a user program (the
 * suites registered themselves with kunit_test_suite()) and prints their
 * results as KTAP, one suite at a time between BFLY-KTAP-BEGIN and
 * BFLY-KTAP-END lines, as the test VM prints the kernel's: tests/run-all.sh
 * parses both with kunit.py. Exits 1 when a case failed.
 */
#include <stdarg.h>

#include <kunit/test.h>

static struct kunit_suite *suites[32];
static int nsuites;

void kunit_native_register(struct kunit_suite *suite)
{
	if (nsuites < (int)ARRAY_SIZE(suites))
		suites[nsuites++] = suite;
}

void kunit_native_fail(struct kunit *test, bool assert, const char *file, int line,
		       const char *what, const char *fmt, ...)
{
	va_list ap;

	test->failed = true;
	printf("    # %s: %s:%d: expected %s, got ", test->name, file, line, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (assert)
		longjmp(test->abort, 1);
}

void kunit_native_skip(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	test->skipped = true;
	va_start(ap, fmt);
	vsnprintf(test->skip_reason, sizeof(test->skip_reason), fmt, ap);
	va_end(ap);
	longjmp(test->abort, 1);
}

/* Run one case; its result line's directive (" # SKIP ...") goes to @skip. */
static bool run_case(struct kunit_suite *suite, struct kunit_case *c, char *skip, size_t len)
{
	struct kunit test = { .name = c->name };

	if (!setjmp(test.abort)) {
		if (!suite->init || !suite->init(&test))
			c->run_case(&test);
		if (suite->exit)
			suite->exit(&test);
	}
	while (test.nactions--)
		test.actions[test.nactions].fn(test.actions[test.nactions].ctx);
	free(test.actions);
	skip[0] = 0;
	if (test.skipped)
		snprintf(skip, len, " # SKIP %s", test.skip_reason);
	return !test.failed;
}

int main(void)
{
	int s, failed = 0;

	for (s = 0; s < nsuites; s++) {
		struct kunit_suite *suite = suites[s];
		struct kunit_case *c;
		int n = 0, i = 0, bad = 0;

		for (c = suite->test_cases; c->run_case; c++)
			n++;
		printf("BFLY-KTAP-BEGIN %s\nKTAP version 1\n1..1\n", suite->name);
		printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", suite->name, n);
		for (c = suite->test_cases; c->run_case; c++) {
			char skip[100];
			bool ok = run_case(suite, c, skip, sizeof(skip));

			bad += !ok;
			printf("    %s %d %s%s\n", ok ? "ok" : "not ok", ++i, c->name, skip);
			fflush(stdout);
		}
		printf("%s 1 %s\nBFLY-KTAP-END\n", bad ? "not ok" : "ok", suite->name);
		failed += bad;
	}
	return failed ? 1 : 0;
}
