/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink helpers shared by bfly's end-to-end test programs that speak to
 * the "bfly" generic netlink family on raw sockets (churn-test, nlfuzz):
 * reading attributes of the replies.
 */
#ifndef BFLY_NL_UTIL_H
#define BFLY_NL_UTIL_H

#include <string.h>

#include <linux/netlink.h>
#include <linux/types.h>

/* A u32 or u64 attribute (NLA_UINT) as a u64; 0 for any other length. */
static inline __u64 attr_u64(struct nlattr *a)
{
	__u64 v = 0;

	if (a->nla_len == NLA_HDRLEN + 8)
		memcpy(&v, (__u8 *)a + NLA_HDRLEN, 8);
	else if (a->nla_len == NLA_HDRLEN + 4)
		v = *(__u32 *)((__u8 *)a + NLA_HDRLEN);
	return v;
}

#endif /* BFLY_NL_UTIL_H */
