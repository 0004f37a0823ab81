// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: numbers and device names on the command line, message lists
 * from files, the random patterns' shuffles.
 */
#include "lib/rand.h"

#include "bflyctl.h"

/* ---- numbers and arguments ---- */

/* A number from 0 to @max (cmdline.h), or exit naming @what */
unsigned long long parse_max(const char *what, const char *s,
			     unsigned long long max)
{
	unsigned long long v = 0;

	switch (parse_num(s, max, &v)) {
	case NUM_OK:
		break;
	case NUM_NAN:
		die("%s: '%s' is not a number", what, s);
		break;
	case NUM_RANGE:
		die("%s: %s is out of range (0 .. %llu)", what, s, max);
		break;
	}
	return v;
}

unsigned long long parse_u64(const char *what, const char *s)
{
	return parse_max(what, s, ~0ULL);
}

unsigned int parse_u32(const char *what, const char *s)
{
	return parse_max(what, s, 0xffffffffULL);
}

/* A number from @min to @max, or exit naming @what and the range */
unsigned int parse_range(const char *what, const char *s, unsigned int min,
			 unsigned int max)
{
	unsigned long long v = 0;
	enum num_err err = parse_num(s, max, &v);

	if (err == NUM_NAN)
		die("%s: '%s' is not a number", what, s);
	if (err == NUM_RANGE || v < min)
		die("%s: %s is out of range (%u .. %u)", what, s, min, max);
	return v;
}

/* DEV: bflyN, /dev/bflyN or N */
unsigned int parse_dev(const char *s)
{
	const char *p = s;

	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (!strncmp(p, "bfly", 4))
		p += 4;
	if (!*p || strspn(p, "0123456789") != strlen(p))
		die("'%s' is not a bfly device (bflyN, /dev/bflyN or N)", s);
	return parse_u32("device", p);
}

/* ---- message lists ---- */

/*
 * A message list from @path ("-": stdin): "SRC DST" per line, '#'
 * comments, at most @max messages into @src and @dst (@ioctl takes more).
 */
unsigned int read_pairs(const char *path, unsigned int *src, unsigned int *dst,
			unsigned int max, const char *ioctl)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	unsigned int n = 0, line = 0, a, b;
	char buf[256], extra;

	if (!in)
		die("%s: %s", path, strerror(errno));
	while (fgets(buf, sizeof(buf), in)) {
		char *hash = strchr(buf, '#');

		line++;
		if (hash)
			*hash = 0;
		if (strspn(buf, " \t\r\n") == strlen(buf))
			continue;
		if (sscanf(buf, "%u %u %c", &a, &b, &extra) != 2)
			die("%s:%u: expected SRC DST", path, line);
		if (n == max)
			die("%s: more than %u messages (%s takes more)", path, max, ioctl);
		src[n] = a;
		dst[n++] = b;
	}
	if (in != stdin)
		fclose(in);
	if (!n)
		die("%s: no messages", path);
	return n;
}

/* ---- random patterns ---- */

/* @v = 0, 1, ..., @n - 1 */
void identity_perm(unsigned int *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = i;
}

/* The next number of the splitmix64 stream @seed (lib/rand.h) */
unsigned long long random_next(unsigned long long *seed)
{
	u64 state = *seed, r = bfly_splitmix64(&state);

	*seed = state;
	return r;
}

/* Fisher-Yates on @v from the stream @seed: one order per seed */
void shuffle(unsigned int *v, unsigned int n, unsigned long long *seed)
{
	unsigned int i, j, t;

	for (i = n; i > 1; i--) {
		j = random_next(seed) % i;
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}
