/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one netlink kit of bfly's end-to-end test programs (nl-kit.c): a raw
 * generic netlink socket to the "bfly" family, a request built in tx
 * (attributes, nests), answers read into rx, attributes and extended acks
 * read back. The fuzzer (nlfuzz) mutates the requests it builds with it.
 */
#ifndef BFLY_NL_KIT_H
#define BFLY_NL_KIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <linux/bfly_netlink.h>

/* The largest request and the most answer bytes one read takes */
#define NL_KIT_TX_MAX	(80 * 1024)
#define NL_KIT_RX_MAX	(256 * 1024)

/* One socket per process, its family id and the last sequence number */
extern int nlfd;
extern __u16 family;
extern __u32 seq;

/* The extended ack message of the last nl_call_replies() answer */
extern char nl_extack[256];

extern union nl_kit_tx {
	struct nlmsghdr nlh;
	__u8 b[NL_KIT_TX_MAX];
} tx;

/* The bytes of the request in tx; nl_send() puts it in nlmsg_len */
extern size_t tx_len;

extern union nl_kit_rx {
	struct nlmsghdr nlh;
	__u8 b[NL_KIT_RX_MAX];
} rx;

/* Start a request of @type (the family, or another) in tx */
void msg_start(__u16 type, __u16 flags, __u8 cmd);

/* Append an attribute (zeros without @data); its offset, 0 if it does not fit */
size_t put(__u16 type, const void *data, size_t len);

static inline size_t put_u32(__u16 type, __u32 v)
{
	return put(type, &v, sizeof(v));
}

/* Close the nest put() started at @off (a nest is an attribute of its own) */
void nest_end(size_t off);

/* Send the first @len bytes of tx as they are */
int tx_send(size_t len);

/* Send the request built in tx */
int nl_send(void);

/* Read answers into rx, at most @max bytes: their length or -errno */
ssize_t nl_recv(size_t max);

static inline bool attr_ok(const struct nlattr *a, const void *end)
{
	const __u8 *p = (const __u8 *)a;

	return p + NLA_HDRLEN <= (const __u8 *)end && a->nla_len >= NLA_HDRLEN &&
	       p + a->nla_len <= (const __u8 *)end;
}

static inline struct nlattr *attr_next(const struct nlattr *a)
{
	return (struct nlattr *)((__u8 *)a + NLA_ALIGN(a->nla_len));
}

/* The first attribute of a genetlink message; @end set past the last */
static inline struct nlattr *genl_attrs(struct nlmsghdr *h, void **end)
{
	*end = (__u8 *)h + h->nlmsg_len;
	return (struct nlattr *)((__u8 *)NLMSG_DATA(h) + GENL_HDRLEN);
}

/* A u32 or u64 attribute (NLA_UINT) as a u64; 0 for any other length */
__u64 attr_u64(struct nlattr *a);

/* The extended ack message of an NLMSG_ERROR message, or NULL */
const char *ext_msg(struct nlmsghdr *h);

/*
 * Send the request built in tx and read to its NLMSG_ERROR: 0 or -errno.
 * Each reply before it goes to @on_reply (with @arg), when given. The
 * extended ack message lands in nl_extack (empty without one; the socket
 * needs NETLINK_EXT_ACK and NETLINK_CAP_ACK).
 */
int nl_call_replies(void (*on_reply)(struct nlmsghdr *h, void *arg), void *arg);

static inline int nl_call(void)
{
	return nl_call_replies(NULL, NULL);
}

/* Open the socket (answers within 30 s) and resolve the family "bfly" */
int nl_open(void);

#endif /* BFLY_NL_KIT_H */
