// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink kit of the end-to-end test programs (nl-kit.h): one raw
 * generic netlink socket, the request buffer and the answer buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "nl-kit.h"

int nlfd;
__u16 family;
__u32 seq;
union nl_kit_tx tx;
size_t tx_len;
union nl_kit_rx rx;
char nl_extack[256];

void msg_start(__u16 type, __u16 flags, __u8 cmd)
{
	struct genlmsghdr *g = (struct genlmsghdr *)(tx.b + NLMSG_HDRLEN);

	memset(tx.b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	tx.nlh.nlmsg_type = type;
	tx.nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	tx.nlh.nlmsg_seq = ++seq;
	g->cmd = cmd;
	g->version = BFLY_FAMILY_VERSION;
	tx_len = NLMSG_HDRLEN + GENL_HDRLEN;
	tx.nlh.nlmsg_len = tx_len;
}

size_t put(__u16 type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(tx.b + tx_len);
	size_t off = tx_len;

	if (tx_len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(tx.b) ||
	    NLA_HDRLEN + len > 0xffff)
		return 0;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (data)
		memcpy((__u8 *)a + NLA_HDRLEN, data, len);
	else
		memset((__u8 *)a + NLA_HDRLEN, 0, len);
	memset((__u8 *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	tx_len += NLA_HDRLEN + NLA_ALIGN(len);
	tx.nlh.nlmsg_len = tx_len;
	return off;
}

void nest_end(size_t off)
{
	((struct nlattr *)(tx.b + off))->nla_len = tx_len - off;
	tx.nlh.nlmsg_len = tx_len;
}

int tx_send(size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(nlfd, tx.b, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 ?
	       -errno : 0;
}

int nl_send(void)
{
	tx.nlh.nlmsg_len = tx_len;
	return tx_send(tx_len);
}

ssize_t nl_recv(size_t max)
{
	ssize_t n = recv(nlfd, rx.b, max < sizeof(rx.b) ? max : sizeof(rx.b), 0);

	return n < 0 ? -errno : n;
}

__u64 attr_u64(struct nlattr *a)
{
	__u64 v = 0;

	if (a->nla_len == NLA_HDRLEN + 8)
		memcpy(&v, (__u8 *)a + NLA_HDRLEN, 8);
	else if (a->nla_len == NLA_HDRLEN + 4)
		v = *(__u32 *)((__u8 *)a + NLA_HDRLEN);
	return v;
}

const char *ext_msg(struct nlmsghdr *h)
{
	struct nlmsgerr *e = NLMSG_DATA(h);
	struct nlattr *a;
	int rem;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	a = (struct nlattr *)((__u8 *)e + sizeof(*e));
	rem = (int)h->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(*e);
	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len), a = attr_next(a))
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			return (const char *)a + NLA_HDRLEN;
	return NULL;
}

int nl_call_replies(void (*on_reply)(struct nlmsghdr *h, void *arg), void *arg)
{
	struct nlmsghdr *h;
	const char *msg;
	ssize_t n;
	int err = nl_send();

	nl_extack[0] = 0;
	if (err)
		return err;
	for (;;) {
		n = nl_recv(sizeof(rx.b));
		if (n < 0)
			return n;
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				msg = ext_msg(h);
				if (msg)
					snprintf(nl_extack, sizeof(nl_extack), "%s", msg);
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			}
			if (on_reply)
				on_reply(h, arg);
		}
	}
}

int nl_open(void)
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
