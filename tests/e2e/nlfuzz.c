// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded, seeded fuzzer of the "bfly" generic netlink family, on raw
 * netlink sockets (no libnl: it must be able to send anything).
 *
 * Each operation builds a valid request for a random command (every
 * command, do and dump, and unknown command numbers), then applies up to
 * four random mutations: an attribute dropped, duplicated, of an unknown
 * or unaccepted type, of a wrong length, with random bytes, with a bad
 * nla_len or stray NLA_F_NESTED bit; bad switch and fault nests; perm,
 * labels and matrix arrays of wrong and huge sizes; fault nests of
 * unknown kinds, stages, nodes, links and states, incomplete, repeated,
 * more than 64; boundary and random ids; the message truncated, its
 * nlmsg_len past the data or short of the genl header; NLM_F_DUMP on a
 * do-only command, NLM_F_REQUEST missing (the kernel acks it unread); a
 * family id no family has. After every request a NLMSG_NOOP barrier with
 * NLM_F_ACK is sent, so a request that gets no answer is no hang.
 *
 * Checks, per operation:
 *  - an error's errno is in the set Documentation/bad-input.rst documents
 *    for the command;
 *  - an error for a well-formed request to a known command of the family
 *    carries an extended ack message, except EPERM, ENOMEM, and
 *    EOPNOTSUPP and E2BIG ending a dump;
 *  - run unprivileged, every well-formed changing request gets EPERM;
 *  - the fabrics (ids, topology, ports, generation, switch matrix and
 *    faults, from a fabric-get dump) are the same after every refused
 *    request, every one without NLM_F_REQUEST, and after every accepted
 *    fabric-get, a2a and stats-reset;
 *  - a dump lists as many fault nests as its faults-count, each a fault
 *    that can exist on the fabric;
 *  - an accepted fault-add appends its faults to the fabric's list, an
 *    accepted fault-del removes the faults it names (all of them with
 *    all-faults), and neither changes anything else; no other accepted
 *    request changes any fabric's faults.
 *
 *   nlfuzz SECONDS MAX-OPS SEED
 *
 * As root it creates and deletes its own fabrics (at most 8, small), keeps
 * their faults from piling up (fault-del all-faults on a fabric with 48 or
 * more, and now and then), runs one request in ten under a small
 * fabric_mem_max (1 to 128 KiB, restored for the checks), and repairs
 * every fault at the end; run unprivileged it fuzzes the fabrics that
 * exist. Prints operations per command and per errno, and TAP lines. Exit
 * status 1 on a failed check.
 */
#include <assert.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "e2e-util.h"
#include "tap.h"

#include "nlfuzz.h"

static __u64 rnd_state;

__u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

__u32 rn(__u32 n)
{
	return n ? rnd() % n : 0;
}

static unsigned long failures;

void fail(const char *fmt, ...)
{
	va_list ap;

	if (++failures > MAX_REPORTS)
		return;
	printf("not ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

bool unpriv;

/* Start a request with exactly @flags: a mutation may leave out NLM_F_REQUEST */
void fuzz_start(__u16 type, __u16 flags, __u8 cmd)
{
	msg_start(type, flags, cmd);
	tx.nlh.nlmsg_flags = flags;
}

/* One answer read; 0 on timeout or error. */
ssize_t rx_recv(void)
{
	ssize_t n = nl_recv(sizeof(rx.b));

	return n < 0 ? 0 : n;
}

/* What one request got: an error (or 0 for an ack or a reply) and its message. */
struct answer {
	int err;
	bool replied;
	bool data;
	char msg[160];
};

/*
 * Read until the ack of the barrier sequence number @bseq, noting the
 * answer to @rseq. Returns -1 when the barrier never came.
 */
static int wait_answer(__u32 rseq, __u32 bseq, struct answer *an)
{
	struct nlmsghdr *h;
	ssize_t n;
	int guard;

	memset(an, 0, sizeof(*an));
	for (guard = 0; guard < 100000; guard++) {
		n = rx_recv();
		if (!n)
			return -1;
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq == bseq) {
				if (h->nlmsg_type == NLMSG_ERROR)
					return 0;
				continue;
			}
			if (h->nlmsg_seq != rseq)
				continue;
			an->replied = true;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);
				const char *m = ext_msg(h);

				an->err = e->error;
				if (m)
					snprintf(an->msg, sizeof(an->msg), "%s", m);
			} else if (h->nlmsg_type == NLMSG_DONE) {
				int *e = NLMSG_DATA(h);

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					an->err = *e;
			} else {
				an->data = true;
			}
		}
	}
	return -1;
}

static int barrier(__u32 *bseq)
{
	struct nlmsghdr h = {
		.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = ++seq,
	};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	*bseq = seq;
	return sendto(nlfd, &h, sizeof(h), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0;
}

/* Resolve the family id of "bfly"; collect the ids in use by any family. */
static __u16 used_ids[256];
static int n_used;

static int resolve_family(void)
{
	struct nlmsghdr *h;
	struct nlattr *a;
	ssize_t n;
	int rem, done = 0;

	fuzz_start(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, CTRL_CMD_GETFAMILY);
	tx.nlh.nlmsg_len = tx_len;
	if (tx_send(tx_len))
		return -1;
	while (!done && (n = rx_recv()) > 0) {
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			__u16 id = 0;
			bool ours = false;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			a = (struct nlattr *)((__u8 *)NLMSG_DATA(h) + GENL_HDRLEN);
			rem = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			     a->nla_len <= rem;
			     rem -= NLA_ALIGN(a->nla_len),
			     a = (struct nlattr *)((__u8 *)a + NLA_ALIGN(a->nla_len))) {
				if (a->nla_type == CTRL_ATTR_FAMILY_ID)
					id = *(__u16 *)((__u8 *)a + NLA_HDRLEN);
				if (a->nla_type == CTRL_ATTR_FAMILY_NAME &&
				    !strcmp((char *)a + NLA_HDRLEN, BFLY_FAMILY_NAME))
					ours = true;
			}
			if (ours)
				family = id;
			if (n_used < 256)
				used_ids[n_used++] = id;
		}
	}
	return family ? 0 : -1;
}

/* A family id nobody has. */
__u16 unused_family_id(void)
{
	__u16 id;
	int i;

again:
	id = NLMSG_MIN_TYPE + rn(0xffff - NLMSG_MIN_TYPE);
	for (i = 0; i < n_used; i++)
		if (used_ids[i] == id)
			goto again;
	return id;
}

/* Documented errnos per command (Documentation/bad-input.rst). */
static bool errno_ok(int cmd, int e, bool good_hdr)
{
	/* Any request: core refusals */
	if (e == EINVAL || e == ERANGE || e == EOPNOTSUPP || e == ENOMEM ||
	    e == EPERM)
		return true;
	if (e == ENOENT)	/* unknown family, or unknown id */
		return true;
	if (!good_hdr)
		return false;
	/* E2BIG: over fabric_mem_max or module_mem_max (kmod/core/memlimit.c) */
	switch (cmd) {
	case BFLY_CMD_FABRIC_GET:
		return e == EMSGSIZE || e == ENODEV || e == E2BIG;
	case BFLY_CMD_FABRIC_NEW:
		return e == ENOSPC || e == E2BIG;
	case BFLY_CMD_SWITCH_SET:
		return e == EBUSY || e == ENODEV || e == E2BIG;
	case BFLY_CMD_ROUTE:
		return e == EBUSY || e == ENODEV || e == EHOSTUNREACH || e == E2BIG;
	case BFLY_CMD_A2A:	/* faults: counted, no EHOSTUNREACH */
		return e == E2BIG || e == EINTR || e == ENODEV;
	case BFLY_CMD_MSGSET:	/* on other fabrics than an LCAN */
		return e == EOPNOTSUPP || e == E2BIG || e == ENODEV;
	case BFLY_CMD_HREL:	/* kfly, flatfly, faults; round-perms too long */
		return e == EOPNOTSUPP || e == E2BIG || e == ENODEV;
	case BFLY_CMD_FAULT_ADD:
		return e == EEXIST || e == ENOSPC || e == ENODEV;
	case BFLY_CMD_FAULT_DEL:
		return e == ENODEV;
	}
	return false;
}

/* The commands of the family that take requests, and its event numbers */
static const __u8 req_cmds[] = {
	BFLY_CMD_FABRIC_GET, BFLY_CMD_FABRIC_NEW, BFLY_CMD_FABRIC_DEL,
	BFLY_CMD_SWITCH_SET, BFLY_CMD_ROUTE, BFLY_CMD_A2A, BFLY_CMD_STATS_RESET,
	BFLY_CMD_FAULT_ADD, BFLY_CMD_FAULT_DEL, BFLY_CMD_MSGSET, BFLY_CMD_HREL,
};

static const __u8 ntf_cmds[] = {
	BFLY_CMD_FABRIC_CREATED_NTF, BFLY_CMD_FABRIC_DELETED_NTF,
	BFLY_CMD_MATRIX_CHANGED_NTF, BFLY_CMD_BATCH_DONE_NTF, BFLY_CMD_CONFLICTS_NTF,
	BFLY_CMD_FAULTS_CHANGED_NTF,
};

static bool is_request(int cmd)
{
	size_t i;

	for (i = 0; i < sizeof(req_cmds); i++)
		if (req_cmds[i] == cmd)
			return true;
	return false;
}

/* The request in tx has a top-level attribute of @type. */
static bool tx_has_attr(__u16 type)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	size_t end = tx.nlh.nlmsg_len < sizeof(tx.b) ? tx.nlh.nlmsg_len : sizeof(tx.b);

	while (off + NLA_HDRLEN <= end) {
		struct nlattr *a = (struct nlattr *)(tx.b + off);

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return true;
		off += NLA_ALIGN(a->nla_len);
	}
	return false;
}

/*
 * route is no admin command (its dry run only reads): the attribute policy
 * checks it before the handler refuses an applying route with EPERM.
 */
static bool policy_first(int cmd, int e)
{
	return cmd == BFLY_CMD_ROUTE && (e == EINVAL || e == ERANGE);
}

/* A request that changes a fabric; a route's dry run only reads. */
static bool changing(int cmd)
{
	if (cmd == BFLY_CMD_ROUTE)
		return !tx_has_attr(BFLY_A_DRY_RUN);
	return is_request(cmd) && cmd != BFLY_CMD_FABRIC_GET && cmd != BFLY_CMD_MSGSET &&
	       cmd != BFLY_CMD_HREL;
}

static const char * const cmd_name[NCMDS] = {
	[BFLY_CMD_UNSPEC] = "unspec",
	[BFLY_CMD_FABRIC_GET] = "fabric-get",
	[BFLY_CMD_FABRIC_NEW] = "fabric-new",
	[BFLY_CMD_FABRIC_DEL] = "fabric-del",
	[BFLY_CMD_SWITCH_SET] = "switch-set",
	[BFLY_CMD_ROUTE] = "route",
	[BFLY_CMD_A2A] = "a2a",
	[BFLY_CMD_STATS_RESET] = "stats-reset",
	[BFLY_CMD_FABRIC_CREATED_NTF] = "created-ntf",
	[BFLY_CMD_FABRIC_DELETED_NTF] = "deleted-ntf",
	[BFLY_CMD_MATRIX_CHANGED_NTF] = "matrix-ntf",
	[BFLY_CMD_BATCH_DONE_NTF] = "batch-ntf",
	[BFLY_CMD_CONFLICTS_NTF] = "conflicts-ntf",
	[BFLY_CMD_FAULT_ADD] = "fault-add",
	[BFLY_CMD_FAULT_DEL] = "fault-del",
	[BFLY_CMD_FAULTS_CHANGED_NTF] = "faults-ntf",
	[BFLY_CMD_MSGSET] = "msgset",
	[BFLY_CMD_HREL] = "hrel",
	[NCMDS - 1] = "other",
};

static_assert(BFLY_CMD_MAX == BFLY_CMD_HREL,
	      "a new command: add it to req_cmds or ntf_cmds and cmd_name");

const char *cname(int cmd)
{
	return cmd_name[cmd < NCMDS - 1 ? cmd : NCMDS - 1];
}

static unsigned long ops_cmd[NCMDS], errs[256], acks, no_answer, unchanged_checks;

/* Send the request built, read up to its barrier: 0 or the error. */
static int transact(const char *what)
{
	struct answer an;
	__u32 bseq;

	tx.nlh.nlmsg_len = tx_len;
	if (tx_send(tx_len) || barrier(&bseq) || wait_answer(tx.nlh.nlmsg_seq, bseq, &an)) {
		fail("housekeeping %s: no answer", what);
		return -1;
	}
	if (an.err)
		fail("housekeeping %s: %s", what, strerror(-an.err));
	return an.err;
}

static unsigned long hk_clears;
unsigned long faults_added, faults_repaired, all_clears;
static __u32 most_faults;

/* Repair every fault of fabric @id. */
static void clear_faults(__u32 id)
{
	fuzz_start(family, NLM_F_REQUEST | NLM_F_ACK, BFLY_CMD_FAULT_DEL);
	put_u32(BFLY_A_ID, id);
	put(BFLY_A_ALL_FAULTS, NULL, 0);
	transact("fault-del all-faults");
	hk_clears++;
}

/*
 * Root housekeeping: between 2 and MAX_FABRICS small fabrics; no fabric
 * keeps 48 faults or more (so fault-add mostly fits), and now and then
 * (one operation in 64) one loses all of them.
 */
static void keep_fabrics(void)
{
	int i, pick = -1;

	if (unpriv)
		return;
	if (n_fab < 2 || n_fab > MAX_FABRICS) {
		if (n_fab > MAX_FABRICS) {
			fuzz_start(family, NLM_F_REQUEST | NLM_F_ACK, BFLY_CMD_FABRIC_DEL);
			put_u32(BFLY_A_ID, fab[rn(n_fab)].id);
		} else {
			fuzz_start(family, NLM_F_REQUEST | NLM_F_ACK, BFLY_CMD_FABRIC_NEW);
			put_u32(BFLY_A_TOPOLOGY, 1 + rn(4));
			put_u32(BFLY_A_PORTS, 2U << rn(5));
		}
		transact(tx.b[NLMSG_HDRLEN] == BFLY_CMD_FABRIC_NEW ? "fabric-new" : "fabric-del");
		snapshot();
	}
	for (i = 0; i < n_fab; i++) {
		if (fab[i].nfaults > most_faults)
			most_faults = fab[i].nfaults;
		if (fab[i].nfaults >= 48 || (fab[i].nfaults && !rn(64 * n_fab)))
			pick = i;
	}
	if (pick >= 0) {
		clear_faults(fab[pick].id);
		snapshot();
	}
}

/* fabric_mem_max, to run some requests under a small limit (root) */
static int limit_fd = -1;
static char limit_orig[32];
static unsigned long tight_ops;

static void limit_init(void)
{
	ssize_t n;

	if (unpriv)
		return;
	limit_fd = open("/sys/module/bfly/parameters/fabric_mem_max", O_RDWR | O_CLOEXEC);
	if (limit_fd < 0)
		return;
	n = pread(limit_fd, limit_orig, sizeof(limit_orig) - 1, 0);
	if (n <= 0) {
		close(limit_fd);
		limit_fd = -1;
		return;
	}
	limit_orig[n] = 0;
}

static void limit_set(const char *v)
{
	if (pwrite(limit_fd, v, strlen(v), 0) < 0)
		fail("writing fabric_mem_max %s: %s", v, strerror(errno));
}

/* The first extended ack message of some command and errno pairs */
static struct {
	int cmd, err;
	char msg[160];
} first_msg[48];
static int n_first_msg;

static void note_msg(int cmd, int e, const char *msg)
{
	int i;

	if (cmd != BFLY_CMD_FAULT_ADD && cmd != BFLY_CMD_FAULT_DEL && e != E2BIG &&
	    e != EHOSTUNREACH)
		return;
	for (i = 0; i < n_first_msg; i++)
		if (first_msg[i].cmd == cmd && first_msg[i].err == e)
			return;
	if (n_first_msg == 48)
		return;
	first_msg[n_first_msg].cmd = cmd;
	first_msg[n_first_msg].err = e;
	snprintf(first_msg[n_first_msg].msg, sizeof(first_msg[0].msg), "%s",
		 msg[0] ? msg : "(no message)");
	n_first_msg++;
}

static void one_op(void)
{
	int cmd, good, mkind = -1, nmut, i;
	__u16 flags = NLM_F_REQUEST | NLM_F_ACK;
	size_t send_len;
	struct answer an;
	bool dump = false, known, tight, readonly;
	static struct fault_req req;
	__u32 rseq, bseq;
	char limit[32];
	long l;

	if (!rn(20))
		cmd = rn(2) ? rn(256) : ntf_cmds[rn(sizeof(ntf_cmds))];
	else
		cmd = req_cmds[rn(sizeof(req_cmds))];
	known = is_request(cmd);
	fuzz_start(family, 0, cmd);
	build(cmd, &dump);
	if (dump)
		flags |= NLM_F_DUMP;
	good = 1;
	send_len = tx_len;
	nmut = rn(4) ? 1 + rn(4) : 0;
	for (i = 0; i < nmut && good; i++)
		good = mutate(&flags, &send_len, &mkind);
	if (good && tx.nlh.nlmsg_type != family)
		good = 0;
	if (mkind != 9 && mkind != 10)
		tx.nlh.nlmsg_len = tx_len;
	tx.nlh.nlmsg_flags = flags;
	rseq = tx.nlh.nlmsg_seq;
	ops_cmd[cmd < NCMDS - 1 ? cmd : NCMDS - 1]++;

	/* One request in ten under 1 to 128 KiB per fabric */
	tight = limit_fd >= 0 && !rn(10);
	if (tight) {
		snprintf(limit, sizeof(limit), "%u", 1024U << rn(8));
		limit_set(limit);
		tight_ops++;
	}
	if (tx_send(send_len)) {
		if (tight)
			limit_set(limit_orig);
		return;	/* refused by the socket layer (size): nothing sent */
	}
	i = barrier(&bseq) || wait_answer(rseq, bseq, &an);
	if (tight)
		limit_set(limit_orig);
	if (i) {
		fail("%s: no barrier ack (seq %u)", cname(cmd), rseq);
		return;
	}
	request_faults(&req);
	if (!an.replied) {
		no_answer++;
	} else if (an.err) {
		int e = -an.err;

		errs[e < 256 && e > 0 ? e : 255]++;
		if (!errno_ok(cmd, e, good && known))
			fail("%s: undocumented errno %d %s (mutation %d)",
			     cname(cmd), e, strerrorname_np(e) ?: "?", mkind);
		/* A dump's memory refusal ends it with no message. */
		if (good && known && e != EPERM && e != ENOMEM && !an.msg[0] &&
		    !(flags & NLM_F_DUMP && (e == EOPNOTSUPP || e == E2BIG)))
			fail("%s%s: %s without an extended ack message (mutation %d%s)",
			     cmd_name[cmd], flags & NLM_F_DUMP ? " dump" : "",
			     strerrorname_np(e), mkind, tight ? ", small fabric_mem_max" : "");
		if (unpriv && good && changing(cmd) && !(flags & NLM_F_DUMP) &&
		    (flags & NLM_F_REQUEST) && e != EPERM && !policy_first(cmd, e))
			fail("unprivileged %s: %s, not EPERM", cmd_name[cmd], strerrorname_np(e));
		if (good && known)
			note_msg(cmd, e, an.msg);
	} else {
		acks++;
		if (unpriv && good && changing(cmd) && (flags & NLM_F_REQUEST))
			fail("unprivileged %s accepted", cmd_name[cmd]);
	}

	/*
	 * Refused, unanswered, read-only, or no request (acked unread, with
	 * NLM_F_ACK): nothing changed.
	 */
	readonly = an.err || !an.replied || !known || cmd == BFLY_CMD_FABRIC_GET ||
		   cmd == BFLY_CMD_A2A || cmd == BFLY_CMD_STATS_RESET ||
		   cmd == BFLY_CMD_MSGSET || cmd == BFLY_CMD_HREL || unpriv ||
		   !(flags & NLM_F_REQUEST);
	l = dump_state(snap2, sizeof(snap2));
	if (l < 0) {
		fail("fabric-get dump failed after %s", cname(cmd));
		return;
	}
	/* Faults change no matrix, generation or fabric. */
	if (readonly || cmd == BFLY_CMD_FAULT_ADD || cmd == BFLY_CMD_FAULT_DEL) {
		unchanged_checks++;
		if ((size_t)l != snap_len || memcmp(snap, snap2, l))
			fail("%s (errno %d, mutation %d) changed the fabrics",
			     cname(cmd), -an.err, mkind);
	}
	check_faults(readonly ? 0 : cmd, &req);
	memcpy(snap, snap2, l);
	snap_len = l;
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 10 };
	unsigned long max_ops, ops = 0;
	double secs, end;
	int one = 1, i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SECONDS MAX-OPS SEED\n", argv[0]);
		return 2;
	}
	secs = atof(argv[1]);
	max_ops = strtoul(argv[2], NULL, 0);
	rnd_state = strtoull(argv[3], NULL, 0) * 2654435761ULL + 1;
	unpriv = geteuid() != 0;
	printf("# nlfuzz: seed %s, %.0f s, at most %lu operations, %s\n", argv[3], secs,
	       max_ops, unpriv ? "unprivileged" : "root");

	nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nlfd < 0 || bind(nlfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)) ||
	    setsockopt(nlfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		tap_check(0, "nlfuzz: netlink socket: %s", strerror(errno));
		return 1;
	}
	one = 1 << 20;
	setsockopt(nlfd, SOL_SOCKET, SO_SNDBUF, &one, sizeof(one));
	setsockopt(nlfd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
	if (resolve_family()) {
		tap_check(0, "nlfuzz: family %s not found", BFLY_FAMILY_NAME);
		return 1;
	}
	if (snapshot()) {
		tap_check(0, "nlfuzz: first fabric-get dump");
		return 1;
	}
	limit_init();
	end = now_s() + secs;
	while (ops < max_ops && now_s() < end) {
		keep_fabrics();
		one_op();
		ops++;
	}
	if (!unpriv) {
		/* Leave no fault behind. */
		for (i = 0; i < n_fab; i++)
			if (fab[i].nfaults)
				clear_faults(fab[i].id);
		snapshot();
		for (i = 0; i < n_fab && !fab[i].nfaults; i++)
			;
		tap_check(i == n_fab, "nlfuzz root: no fabric keeps a fault at the end");
	}
	printf("# nlfuzz: operations per command:");
	for (i = 0; i < NCMDS; i++)
		printf(" %s %lu", cmd_name[i], ops_cmd[i]);
	printf("\n# nlfuzz: answers: %lu accepted, %lu unanswered;", acks, no_answer);
	for (i = 1; i < 256; i++)
		if (errs[i])
			printf(" %s %lu", strerrorname_np(i) ?: "?", errs[i]);
	printf("\n# nlfuzz: faults: %lu added, %lu repaired (%lu all-faults);",
	       faults_added, faults_repaired, all_clears);
	printf(" housekeeping: %lu all-faults, at most %u on a fabric\n", hk_clears, most_faults);
	if (limit_fd >= 0)
		printf("# nlfuzz: %lu requests under a small fabric_mem_max\n", tight_ops);
	for (i = 0; i < n_first_msg; i++)
		printf("# nlfuzz: %s %s: \"%s\"\n", cname(first_msg[i].cmd),
		       strerrorname_np(first_msg[i].err) ?: "?", first_msg[i].msg);
	tap_check(!failures,
		  "nlfuzz %s: %lu operations, %lu state comparisons, %lu failed checks (seed %s)",
		  unpriv ? "unprivileged" : "root", ops, unchanged_checks, failures, argv[3]);
	tap_check(ops > 0 && (unpriv || acks > 0), "nlfuzz %s: some requests accepted",
		  unpriv ? "unprivileged" : "root");
	return failures ? 1 : 0;
}
