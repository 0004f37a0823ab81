/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for bfly's end-to-end test programs: one line per
 * check, "ok - what" or "not ok - what", counted by the harness.
 */
#ifndef BFLY_TAP_H
#define BFLY_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_failed;

static inline void tap_check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
}

/* Check that a call returning -1/errno failed with @want. */
#define TAP_ERRNO(call, want, what)					\
	do {								\
		int __w = (want);					\
		int __r = (call);					\
		int __e = errno;					\
		tap_check(__r == -1 && __e == __w,			\
			  "%s: errno %s (got %d, %s)", what,		\
			  strerrorname_np(__w), __r,			\
			  __r == -1 ? strerrorname_np(__e) : "success");	\
	} while (0)

#endif /* BFLY_TAP_H */
