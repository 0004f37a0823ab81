/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw generic netlink socket to the "bfly" family for end-to-end test
 * programs that send well-formed requests (churn-test, nl-signal-test):
 * one request built in tx, replies read into rx. nlfuzz builds malformed
 * ones with its own writer.
 */
#ifndef BFLY_NL_RAW_H
#define BFLY_NL_RAW_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <linux/bfly_netlink.h>

/* Netlink: one socket per process, requests built in tx, replies in rx. */
static int nlfd;
static __u16 family;
static __u32 seq;

static union {
	struct nlmsghdr nlh;
	__u8 b[16384];
} tx;

static union {
	struct nlmsghdr nlh;
	__u8 b[65536];
} rx;

static void msg_start(__u16 type, __u16 flags, __u8 cmd)
{
	struct genlmsghdr *g = (struct genlmsghdr *)(tx.b + NLMSG_HDRLEN);

	memset(tx.b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	tx.nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	tx.nlh.nlmsg_type = type;
	tx.nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	tx.nlh.nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = 1;
}

static void put(__u16 type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(tx.b + tx.nlh.nlmsg_len);

	/* A request larger than tx is the test's own bug. */
	if (tx.nlh.nlmsg_len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(tx.b))
		abort();

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((__u8 *)a + NLA_HDRLEN, data, len);
	tx.nlh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static void put_u32(__u16 type, __u32 v)
{
	put(type, &v, sizeof(v));
}

static int nl_send(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(nlfd, tx.b, tx.nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		      sizeof(sa)) < 0 ? -errno : 0;
}

static ssize_t nl_recv(size_t max)
{
	ssize_t n = recv(nlfd, rx.b, max, 0);

	return n < 0 ? -errno : n;
}

static bool attr_ok(const struct nlattr *a, const void *end)
{
	const __u8 *p = (const __u8 *)a;

	return p + NLA_HDRLEN <= (const __u8 *)end && a->nla_len >= NLA_HDRLEN &&
	       p + a->nla_len <= (const __u8 *)end;
}

static struct nlattr *attr_next(const struct nlattr *a)
{
	return (struct nlattr *)((__u8 *)a + NLA_ALIGN(a->nla_len));
}

/* The first attribute of a genetlink message; @end set past the last. */
static struct nlattr *genl_attrs(struct nlmsghdr *h, void **end)
{
	*end = (__u8 *)h + h->nlmsg_len;
	return (struct nlattr *)((__u8 *)NLMSG_DATA(h) + GENL_HDRLEN);
}

static int nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 30 };
	struct nlattr *a;
	struct nlmsghdr *h;
	void *end;
	ssize_t n;

	nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nlfd < 0 || bind(nlfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(nlfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -1;
	msg_start(GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY);
	put(CTRL_ATTR_FAMILY_NAME, BFLY_FAMILY_NAME, sizeof(BFLY_FAMILY_NAME));
	if (nl_send())
		return -1;
	n = nl_recv(sizeof(rx.b));
	if (n <= 0)
		return -1;
	for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type != GENL_ID_CTRL)
			continue;
		for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a))
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				family = *(__u16 *)((__u8 *)a + NLA_HDRLEN);
	}
	return family ? 0 : -1;
}

#endif /* BFLY_NL_RAW_H */
