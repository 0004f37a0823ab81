/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line helpers shared by bfly-info, bfly-route and bflyctl: the
 * version line and numbers checked against their range.
 */
#ifndef BFLY_CMDLINE_H
#define BFLY_CMDLINE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BFLY_VERSION
#error "BFLY_VERSION is defined by userspace/Makefile from the VERSION file"
#endif

/* --version: "PROGRAM VERSION" on stdout */
static inline void print_version(const char *prog)
{
	printf("%s %s\n", prog, BFLY_VERSION);
}

enum num_err {
	NUM_OK,
	NUM_NAN,	/* not a number */
	NUM_RANGE,	/* negative, or above the maximum */
};

/*
 * Parse @s as a number from 0 to @max into *@v: decimal digits, or
 * hexadecimal ones after "0x". A leading zero is decimal, not octal.
 * Nothing else is allowed: no sign, no blanks, nothing after the digits.
 * A negative number ("-" and digits) is out of range, not "not a number".
 */
static inline enum num_err parse_num(const char *s, unsigned long long max,
				     unsigned long long *v)
{
	const char *digits = "0123456789";
	int base = 10;

	if (s[0] == '-' && s[1] && strspn(s + 1, digits) == strlen(s + 1))
		return NUM_RANGE;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		digits = "0123456789abcdefABCDEF";
		base = 16;
	}
	if (!*s || strspn(s, digits) != strlen(s))
		return NUM_NAN;
	errno = 0;
	*v = strtoull(s, NULL, base);
	if (errno == ERANGE || *v > max)
		return NUM_RANGE;
	return NUM_OK;
}

/* Does @s look like a negative number, an operand rather than an option? */
static inline int is_negative_number(const char *s)
{
	return s[0] == '-' && s[1] >= '0' && s[1] <= '9';
}

#endif /* BFLY_CMDLINE_H */
