// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: fatal errors (with the kernel's extended ack) and allocation.
 */
#include "bflyctl.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Exit with the last kernel error as one line. */
void die_kernel(int err)
{
	const char *what = strerror(err);

	if (*kmsg && *kattr)
		die("%s [attribute %s] (%s)", kmsg, kattr, what);
	if (*kmsg)
		die("%s (%s)", kmsg, what);
	if (*kattr)
		die("%s [attribute %s]", what, kattr);
	die("%s", what);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}
