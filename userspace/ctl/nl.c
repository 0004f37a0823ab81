// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: the netlink connection: requests, answers, and the extended
 * ack decoded into the message and the attribute it points at.
 */
#include "bflyctl.h"

/* The netlink connection */
struct nl_sock *sk;
int family_id;
struct nl_msg *last_req;	/* to name the attribute an error points at */

/* The last kernel error: errno, extended ack message, attribute */
int kerr;
char kmsg[256];
char kattr[64];

/* ---- netlink requests ---- */

/* The name of attribute @t inside a nest of type @nest: "stage", "?" */
const char *nested_attr_name(int nest, unsigned int t)
{
	if (nest == BFLY_A_SWITCH && t < bfly_switch_attr_names_count && bfly_switch_attr_names[t])
		return bfly_switch_attr_names[t];
	if (nest == BFLY_A_FAULT && t < bfly_fault_attr_names_count && bfly_fault_attr_names[t])
		return bfly_fault_attr_names[t];
	if (nest == BFLY_A_CONFLICT && t < bfly_conflict_attr_names_count &&
	    bfly_conflict_attr_names[t])
		return bfly_conflict_attr_names[t];
	return "?";
}

/*
 * Name the attribute at @off of the last request into @buf: "ports",
 * "switch.stage", "fault #2" (the request's second fault nest),
 * "fault #2.state", "99". With @nest, set to the type of the top-level
 * attribute found (-1 inside a nest). Returns false when no attribute
 * starts at @off.
 */
bool attr_name_at(unsigned int off, char *buf, size_t len, int *nest)
{
	unsigned int nfault = 0;
	struct nlmsghdr *nlh;
	struct nlattr *a, *n;
	char name[32];
	int rem, nrem;

	if (!last_req)
		return false;
	nlh = nlmsg_hdr(last_req);
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		unsigned int start = (char *)a - (char *)nlh;
		int type = nla_type(a);

		if (type == BFLY_A_FAULT)
			snprintf(name, sizeof(name), "fault #%u", ++nfault);
		else if ((size_t)type < bfly_attr_names_count && bfly_attr_names[type])
			snprintf(name, sizeof(name), "%s", bfly_attr_names[type]);
		else
			snprintf(name, sizeof(name), "%d", type);
		if (off == start) {
			snprintf(buf, len, "%s", name);
			if (nest)
				*nest = type;
			return true;
		}
		if (off <= start || off >= start + a->nla_len ||
		    (type != BFLY_A_SWITCH && type != BFLY_A_FAULT))
			continue;
		nla_for_each_nested(n, a, nrem) {
			if ((char *)n - (char *)nlh != off)
				continue;
			snprintf(buf, len, "%s.%s", name, nested_attr_name(type, nla_type(n)));
			if (nest)
				*nest = -1;
			return true;
		}
	}
	return false;
}

int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	size_t ack_len = sizeof(*e);
	int *done = arg;

	(void)nla;
	kerr = -e->error;
	*done = 1;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		ack_len += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + ack_len)
		return NL_STOP;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + ack_len),
		      nlh->nlmsg_len - NLMSG_HDRLEN - ack_len, NULL))
		return NL_STOP;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(kmsg, sizeof(kmsg), "%s", nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		attr_name_at(nla_get_u32(tb[NLMSGERR_ATTR_OFFS]), kattr, sizeof(kattr), NULL);
	if (tb[NLMSGERR_ATTR_MISS_TYPE]) {
		unsigned int t = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
		char nest[32];
		int type;

		/* Missing inside a nest: "fault #1.state missing" */
		if (tb[NLMSGERR_ATTR_MISS_NEST] &&
		    attr_name_at(nla_get_u32(tb[NLMSGERR_ATTR_MISS_NEST]), nest,
				 sizeof(nest), &type))
			snprintf(kattr, sizeof(kattr), "%s.%s missing", nest,
				 nested_attr_name(type, t));
		else
			snprintf(kattr, sizeof(kattr), "%s missing",
				 t < bfly_attr_names_count && bfly_attr_names[t] ?
				 bfly_attr_names[t] : "?");
	}
	return NL_STOP;
}

int on_done(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 1;
	return NL_STOP;
}

/*
 * NLMSG_DONE ends a dump and carries its status: a dump the kernel
 * refused (say, over the memory limits) ends with a negative errno there,
 * followed by its extended ack. libnl hands it over as a plain finish.
 */
int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	int status;

	*(int *)arg = 1;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(status))
		return NL_STOP;
	memcpy(&status, nlmsg_data(nlh), sizeof(status));
	if (status >= 0)
		return NL_STOP;
	kerr = -status;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX,
		       (struct nlattr *)((char *)nlmsg_data(nlh) + sizeof(status)),
		       nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(status), NULL) &&
	    tb[NLMSGERR_ATTR_MSG])
		snprintf(kmsg, sizeof(kmsg), "%s", nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

void connect_family(void)
{
	int one = 1, fd;

	sk = nl_socket_alloc();
	if (!sk)
		die("out of memory");
	if (genl_connect(sk))
		die("cannot open a generic netlink socket");
	fd = nl_socket_get_fd(sk);
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/*
	 * Large matrix chunks come in messages of up to 32 KiB; an hrel reply
	 * holds the rounds of 8191 messages and 16382 permutation entries.
	 * The socket queues such a reply and the ack after it: libnl's 32 KiB
	 * receive buffer would drop the ack (ENOBUFS).
	 */
	nl_socket_set_msg_buf_size(sk, 128 * 1024);
	nl_socket_set_buffer_size(sk, 512 * 1024, 0);
	family_id = genl_ctrl_resolve(sk, BFLY_FAMILY_NAME);
	if (family_id < 0)
		die("generic netlink family \"%s\" not found: is bfly.ko loaded?",
		    BFLY_FAMILY_NAME);
}

/*
 * Room for the largest request: 8192 ports of perm, 4096 of labels, and
 * 8191 message pairs (one attribute of 65528 bytes) with msgset's others.
 */
#define REQUEST_BYTES (64 * 1024 + 1024)

struct nl_msg *new_msg(int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(REQUEST_BYTES);

	if (!msg)
		die("out of memory");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_id, 0, flags, cmd,
			 BFLY_FAMILY_VERSION))
		die("cannot build a request");
	return msg;
}

void put_or_die(int err)
{
	if (err < 0)
		die("request too large: %s", nl_geterror(err));
}

/*
 * Wait until the kernel's answer can be read. The kernel works on a
 * request inside our sendmsg(), so once that returned the answer is
 * queued already or was lost: a bounded wait turns a lost one into an
 * error instead of a hang.
 */
#define ANSWER_TIMEOUT_S 30

void await_answer(void)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
	int n;

	do
		n = poll(&pfd, 1, ANSWER_TIMEOUT_S * 1000);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		die("no answer from the kernel within %d s", ANSWER_TIMEOUT_S);
}

/*
 * Send @msg (freed here) and read the replies, calling @parse on each
 * message. Returns 0, a positive errno from the kernel (kmsg, kattr set),
 * or -EINTR when a dump was interrupted by a change and must be redone.
 */
int transact(struct nl_msg *msg, nl_recvmsg_msg_cb_t parse, void *arg)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int done = 0, err;

	if (!cb)
		die("out of memory");
	kerr = 0;
	kmsg[0] = 0;
	kattr[0] = 0;
	if (parse)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse, arg);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &done);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &done);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &done);

	last_req = msg;
	err = nl_send_auto(sk, msg);
	if (err < 0)
		die("cannot send the request: %s", nl_geterror(err));
	while (!done) {
		await_answer();
		err = nl_recvmsgs(sk, cb);
		if (err == -NLE_DUMP_INTR) {
			/* Drain what is left; the caller starts again. */
			kerr = -EINTR;
			break;
		}
		if (err < 0 && !kerr)
			die("netlink: %s", nl_geterror(err));
		if (kerr)
			break;
	}
	nl_cb_put(cb);
	nlmsg_free(msg);
	last_req = NULL;
	return kerr;
}
