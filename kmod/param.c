// SPDX-License-Identifier: GPL-2.0
/*
 * The kinds of module parameter bfly defines beyond the kernel's own:
 * byte sizes with an optional K, M, G, T, P or E suffix (powers of 1024),
 * and read-only figures that refuse to be set, at load time as at run
 * time. Each refusal logs one line naming the parameter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "core/core.h"

/* How much of a refused value the log line shows. */
#define BFLY_PARAM_SHOWN 32

static int bfly_param_set_bytes(const char *val, const struct kernel_param *kp)
{
	static const char suffixes[] = "KMGTPE";
	size_t len = strcspn(val, "\n");
	const char *suffix = NULL;
	unsigned int shift = 0;
	char buf[32];
	u64 v;
	int err;

	if (!len || len >= sizeof(buf))
		goto invalid;
	memcpy(buf, val, len);
	buf[len] = '\0';
	/* No suffix on hex numbers, whose digits include B and E. */
	if (len > 1 && strncasecmp(buf, "0x", 2))
		suffix = strchr(suffixes, toupper(buf[len - 1]));
	if (suffix) {
		shift = 10 * (suffix - suffixes + 1);
		buf[len - 1] = '\0';
	}
	err = kstrtou64(buf, 0, &v);
	if (err == -ERANGE || (!err && shift && v > (U64_MAX >> shift))) {
		pr_err("%s=%.*s: more than 2^64 - 1 bytes\n", kp->name, (int)len, val);
		return -ERANGE;
	}
	if (err)
		goto invalid;
	WRITE_ONCE(*(unsigned long *)kp->arg, v << shift);
	return 0;

invalid:
	pr_err("%s=%.*s%s: not a size (bytes, or a number with K, M, G, T, P or E)\n",
	       kp->name, (int)min_t(size_t, len, BFLY_PARAM_SHOWN), val,
	       len > BFLY_PARAM_SHOWN ? "..." : "");
	return -EINVAL;
}

/* Byte sizes: unsigned long parameters set as "4096", "96M" or "1G". */
const struct kernel_param_ops bfly_param_ops_bytes = {
	.set = bfly_param_set_bytes,
	.get = param_get_ulong,
};

static int bfly_param_set_figure(const char *val, const struct kernel_param *kp)
{
	pr_err("%s: read only: a figure the module keeps, not a setting\n", kp->name);
	return -EINVAL;
}

static int bfly_param_get_figure(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(kp->arg));
}

/* Read-only atomic64_t figures: setting one, even at load, is refused. */
const struct kernel_param_ops bfly_param_ops_figure = {
	.set = bfly_param_set_figure,
	.get = bfly_param_get_figure,
};
