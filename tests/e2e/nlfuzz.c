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

#define MSG_MAX		(80 * 1024)
#define RX_MAX		(256 * 1024)
#define NL_KIT_TX_MAX	MSG_MAX
#define NL_KIT_RX_MAX	RX_MAX
#include "nl-kit.h"
#define MAX_FABRICS	8
#define MAX_REPORTS	20
#define SNAP_MAX	(64 * 1024)
#define NCMDS		(BFLY_CMD_MAX + 2)	/* the last one counts the others */

static __u64 rnd_state;

static __u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

static __u32 rn(__u32 n)
{
	return n ? rnd() % n : 0;
}

static unsigned long failures;

static void fail(const char *fmt, ...)
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

static bool unpriv;

/* Start a request with exactly @flags: a mutation may leave out NLM_F_REQUEST */
static void fuzz_start(__u16 type, __u16 flags, __u8 cmd)
{
	msg_start(type, flags, cmd);
	tx.nlh.nlmsg_flags = flags;
}

/* One answer read; 0 on timeout or error. */
static ssize_t rx_recv(void)
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
static __u16 unused_family_id(void)
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

/* A fault as fault nests carry it */
struct fault {
	__u32 kind, stage, index, state;
};

/*
 * The fabrics as a dump shows them: id, topology, ports, stages,
 * generation, matrix size (the part compared as bytes: no padding), then
 * the faults-count and the fault nests.
 */
struct fabric {
	__u32 id, topology, ports, stages;
	__u64 generation, matrix_bytes;
	__u32 nfaults, listed;
	struct fault faults[BFLY_MAX_FAULTS];
};

#define FABRIC_DESC_BYTES offsetof(struct fabric, nfaults)

static struct fabric fab[64], fab_prev[64], dump_fab[64];
static int n_fab, n_prev, n_dump;
static __u8 snap[SNAP_MAX], snap2[SNAP_MAX];
static size_t snap_len;

/* A fault nest; false when it lacks kind, stage or index. */
static bool parse_fault(struct nlattr *nest, struct fault *x)
{
	struct nlattr *a = (struct nlattr *)((__u8 *)nest + NLA_HDRLEN);
	int rem = nest->nla_len - NLA_HDRLEN, have = 0;

	memset(x, 0, sizeof(*x));
	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((__u8 *)a + NLA_ALIGN(a->nla_len))) {
		__u32 v = a->nla_len == NLA_HDRLEN + 4 ? *(__u32 *)((__u8 *)a + NLA_HDRLEN) : ~0U;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_FAULT_KIND:
			x->kind = v;
			have |= 1;
			break;
		case BFLY_A_FAULT_STAGE:
			x->stage = v;
			have |= 2;
			break;
		case BFLY_A_FAULT_INDEX:
			x->index = v;
			have |= 4;
			break;
		case BFLY_A_FAULT_STATE:
			x->state = v;
			break;
		}
	}
	return have == 7;
}

static bool same_place(const struct fault *a, const struct fault *b)
{
	return a->kind == b->kind && a->stage == b->stage && a->index == b->index;
}

/* Whether @x is a fault fabric @f can have. */
static bool fault_valid(const struct fabric *f, const struct fault *x)
{
	if (x->stage >= f->stages)
		return false;
	if (x->kind == BFLY_FAULT_STUCK)
		return x->index < f->ports / 2 && x->state <= 1;
	return x->kind == BFLY_FAULT_LINK && x->index < f->ports && !x->state;
}

/* Append the payload of @a to @out, of @len bytes used out of @max. */
static size_t append(__u8 *out, size_t len, size_t max, struct nlattr *a)
{
	size_t l = a->nla_len - NLA_HDRLEN;

	if (len + l > max)
		return len;
	memcpy(out + len, (__u8 *)a + NLA_HDRLEN, l);
	return len + l;
}

/* The faults a dump lists for @f: as many as faults-count, each possible. */
static void check_listed(const struct fabric *f, bool bad_nest)
{
	const struct fault *x;
	__u32 i;

	if (bad_nest || f->listed != f->nfaults)
		fail("dump of bfly%u: faults-count %u, %u fault nests%s", f->id, f->nfaults,
		     f->listed, bad_nest ? ", one without kind, stage or index" : "");
	for (i = 0; i < f->listed; i++) {
		x = &f->faults[i];
		if (!fault_valid(f, x)) {
			fail("dump of bfly%u: fault #%u: kind %u, stage %u, index %u, state %u",
			     f->id, i, x->kind, x->stage, x->index, x->state);
			return;
		}
	}
}

/*
 * One message of a fabric-get dump: a matrix chunk is appended to @out,
 * a description (with the faults) appended and added to dump_fab[].
 * Returns the new length of @out.
 */
static size_t dump_msg(struct nlmsghdr *h, __u8 *out, size_t len, size_t max)
{
	struct nlattr *a = (struct nlattr *)((__u8 *)NLMSG_DATA(h) + GENL_HDRLEN);
	int rem = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	bool desc = false, bad_nest = false;
	static struct fabric f;

	memset(&f, 0, sizeof(f));
	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((__u8 *)a + NLA_ALIGN(a->nla_len))) {
		switch (a->nla_type & NLA_TYPE_MASK) {	/* nests carry NLA_F_NESTED */
		case BFLY_A_ID:
			f.id = attr_u64(a);
			break;
		case BFLY_A_TOPOLOGY:
			f.topology = attr_u64(a);
			desc = true;
			break;
		case BFLY_A_PORTS:
			f.ports = attr_u64(a);
			break;
		case BFLY_A_NODE_STAGES:
			f.stages = attr_u64(a);
			break;
		case BFLY_A_GENERATION:
			f.generation = attr_u64(a);
			break;
		case BFLY_A_MATRIX_BYTES:
			f.matrix_bytes = attr_u64(a);
			break;
		case BFLY_A_MATRIX:
			len = append(out, len, max, a);
			break;
		case BFLY_A_FAULTS_COUNT:
			f.nfaults = attr_u64(a);
			break;
		case BFLY_A_FAULT:
			if (f.listed < BFLY_MAX_FAULTS &&
			    !parse_fault(a, &f.faults[f.listed++]))
				bad_nest = true;
			break;
		}
	}
	if (!desc)
		return len;
	check_listed(&f, bad_nest);
	if (n_dump < 64)
		dump_fab[n_dump++] = f;
	if (len + FABRIC_DESC_BYTES <= max) {
		memcpy(out + len, &f, FABRIC_DESC_BYTES);
		len += FABRIC_DESC_BYTES;
	}
	return len;
}

/*
 * Dump every fabric with its matrix into @out (a byte string to compare:
 * descriptions and matrices), the fabrics with their faults into fab[]
 * (those before into fab_prev[]). Retries an interrupted dump. Returns
 * the length, or -1.
 */
static long dump_state(__u8 *out, size_t max)
{
	size_t len;
	ssize_t n;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		bool done = false, intr = false, err = false;
		struct nlmsghdr *h;

		len = 0;
		n_dump = 0;
		fuzz_start(family, NLM_F_REQUEST | NLM_F_DUMP, BFLY_CMD_FABRIC_GET);
		put_u32(BFLY_A_WANT, BFLY_WANT_MATRIX);
		tx.nlh.nlmsg_len = tx_len;
		if (tx_send(tx_len))
			return -1;
		while (!done && (n = rx_recv()) > 0) {
			for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
				if (h->nlmsg_seq != seq)
					continue;
				if (h->nlmsg_flags & NLM_F_DUMP_INTR)
					intr = true;
				if (h->nlmsg_type == NLMSG_DONE) {
					/* A dump ended by an error is no snapshot. */
					err = *(int *)NLMSG_DATA(h) != 0;
					done = true;
					break;
				}
				if (h->nlmsg_type == NLMSG_ERROR) {
					err = true;
					done = true;
					break;
				}
				len = dump_msg(h, out, len, max);
			}
		}
		if (!done || err)
			return -1;
		if (!intr) {
			memcpy(fab_prev, fab, n_fab * sizeof(fab[0]));
			n_prev = n_fab;
			memcpy(fab, dump_fab, n_dump * sizeof(fab[0]));
			n_fab = n_dump;
			return len;
		}
	}
	return -1;
}

static int snapshot(void)
{
	long l = dump_state(snap, sizeof(snap));

	if (l < 0)
		return -1;
	snap_len = l;
	return 0;
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
	BFLY_CMD_FAULT_ADD, BFLY_CMD_FAULT_DEL,
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
	return is_request(cmd) && cmd != BFLY_CMD_FABRIC_GET;
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
	[NCMDS - 1] = "other",
};

static_assert(BFLY_CMD_MAX == BFLY_CMD_FAULTS_CHANGED_NTF,
	      "a new command: add it to req_cmds or ntf_cmds and cmd_name");

static const char *cname(int cmd)
{
	return cmd_name[cmd < NCMDS - 1 ? cmd : NCMDS - 1];
}

static unsigned long ops_cmd[NCMDS], errs[256], acks, no_answer, unchanged_checks;

/* A random existing fabric, or NULL. */
static struct fabric *pick(void)
{
	return n_fab ? &fab[rn(n_fab)] : NULL;
}

static __u32 pick_id(void)
{
	static const __u32 odd[] = { 0, 1, 1023, 1024, 65535, 0x7fffffff, 0xffffffff };
	struct fabric *f = pick();

	if (f && rn(8))
		return f->id;
	return rn(2) ? odd[rn(7)] : (__u32)rnd();
}

static void put_perm(struct fabric *f, size_t ports)
{
	static __u32 p[16384];
	size_t i, j;

	for (i = 0; i < ports && i < 16384; i++)
		p[i] = i;
	for (i = ports - 1; i > 0 && i < 16384; i--) {
		__u32 t;

		j = rn(i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	if (ports && !rn(8))
		p[rn(ports)] = rn(2) ? (__u32)rnd() : f ? f->ports : 0;
	put(BFLY_A_PERM, p, ports * 4 > 65000 ? 65000 : ports * 4);
}

static void put_labels(struct fabric *f, size_t ports)
{
	static __u64 l[8192];
	size_t i;
	int bits = f && f->stages < 64 ? f->stages : 63;

	for (i = 0; i < ports && i < 8192; i++)
		l[i] = rn(16) ? rnd() & ((1ULL << bits) - 1) : rnd();
	put(BFLY_A_LABELS, l, ports * 8 > 65000 ? 65000 : ports * 8);
}

/* An array size: mostly right for @f, sometimes wrong or huge. */
static size_t some_ports(struct fabric *f)
{
	size_t n = f ? f->ports : 8;

	switch (rn(10)) {
	case 0:
		return rn(2) ? n + 1 : n - 1;
	case 1:
		return rn(16384);
	case 2:
		return 0;
	default:
		return n;
	}
}

/* A port count fabric-new refuses: no fabric of 2^7 .. 2^20 ports, too slow. */
static __u32 bad_ports(void)
{
	static const __u32 bad[] = { 0, 1, 3, 12, 1U << 21, 1U << 31, ~0U };
	__u32 p = rn(2) ? bad[rn(7)] : (__u32)rnd();

	return p & (p - 1) || p > 1U << 20 ? p : p | 3;
}

/* The faults put in the request being built */
static struct fault put_list[BFLY_MAX_FAULTS + 8];
static int n_put;

/*
 * A fault nest: a fault @f can have (for fault-del mostly one it has);
 * with @may_break, one time in six broken: an unknown kind, a stage, node
 * or link past the fabric's, a bad state, kind, stage or index missing, a
 * stuck node's state missing, an unknown inner attribute.
 */
static void put_fault(struct fabric *f, bool del, bool may_break)
{
	int bad = !may_break || rn(6) ? -1 : (int)rn(7), drop = bad == 4 ? (int)rn(3) : -1;
	struct fault x;
	int tries, j;
	size_t off;

	for (tries = 0; tries < 8; tries++) {
		if (del && f && f->nfaults && rn(4)) {
			x = f->faults[rn(f->nfaults)];
		} else {
			x.kind = 1 + rn(2);
			x.stage = f ? rn(f->stages) : rn(8);
			x.index = f ? rn(x.kind == BFLY_FAULT_STUCK ? f->ports / 2 : f->ports) :
				  rn(64);
			x.state = x.kind == BFLY_FAULT_STUCK ? rn(2) : 0;
		}
		/* Mostly not twice in one request (EEXIST, ENOENT) */
		for (j = 0; j < n_put && !same_place(&x, &put_list[j]); j++)
			;
		if (j == n_put || !rn(16))
			break;
	}
	if (n_put < BFLY_MAX_FAULTS + 8)
		put_list[n_put++] = x;
	switch (bad) {
	case 0:
		x.kind = rn(2) ? 3 * rn(2) : (__u32)rnd();
		break;
	case 1:
		x.stage = f && rn(2) ? f->stages + rn(2) : (__u32)rnd();
		break;
	case 2:
		if (f && rn(2))
			x.index = (x.kind == BFLY_FAULT_STUCK ? f->ports / 2 : f->ports) + rn(2);
		else
			x.index = rnd();
		break;
	case 3:
		x.state = x.kind == BFLY_FAULT_LINK && rn(2) ? 1 : 2 + rn(100);
		break;
	}
	off = put(BFLY_A_FAULT | NLA_F_NESTED, NULL, 0);
	if (!off)
		return;
	if (drop != 0)
		put_u32(BFLY_A_FAULT_KIND, x.kind);
	if (drop != 1)
		put_u32(BFLY_A_FAULT_STAGE, x.stage);
	if (drop != 2)
		put_u32(BFLY_A_FAULT_INDEX, x.index);
	if (bad != 5 && (x.kind != BFLY_FAULT_LINK || x.state || rn(2)))
		put_u32(BFLY_A_FAULT_STATE, x.state);
	if (bad == 6)
		put_u32(rn(2) ? 0 : BFLY_A_FAULT_MAX + 1 + rn(4), rnd());
	nest_end(off);
}

/* A valid-looking request for @cmd (attributes only). */
static void build(int cmd, bool *dump)
{
	struct fabric *f = pick();
	size_t off, i, mb;
	__u8 m[4096];

	switch (cmd) {
	case BFLY_CMD_FABRIC_GET:
		*dump = rn(2);
		if (!*dump || rn(2))
			put_u32(BFLY_A_ID, pick_id());
		if (rn(2))
			put_u32(BFLY_A_WANT, rn(4));
		break;
	case BFLY_CMD_FABRIC_NEW:
		put_u32(BFLY_A_TOPOLOGY, 1 + rn(4));
		put_u32(BFLY_A_PORTS, rn(8) ? 2U << rn(6) : bad_ports());
		break;
	case BFLY_CMD_FABRIC_DEL:
	case BFLY_CMD_STATS_RESET:
		put_u32(BFLY_A_ID, pick_id());
		break;
	case BFLY_CMD_SWITCH_SET:
		put_u32(BFLY_A_ID, pick_id());
		if (rn(2)) {
			for (i = rn(5); i > 0; i--) {
				off = put(BFLY_A_SWITCH | (rn(2) ? NLA_F_NESTED : 0), NULL, 0);
				if (!off)
					break;
				put_u32(BFLY_A_SWITCH_STAGE, f && rn(8) ? rn(f->stages) : rnd());
				put_u32(BFLY_A_SWITCH_NODE, f && rn(8) ? rn(f->ports / 2) : rnd());
				put_u32(BFLY_A_SWITCH_STATE, rn(8) ? rn(2) : (__u32)rnd());
				nest_end(off);
			}
		} else {
			mb = f ? f->matrix_bytes : 8;
			if (!rn(8))
				mb = rn(2) ? mb + 8 : rn(70000);
			if (mb <= sizeof(m)) {
				for (i = 0; i < mb; i++)
					m[i] = rnd();
				/* mostly within the switches */
				if (f && rn(4) && mb == f->matrix_bytes) {
					__u64 sw = (__u64)f->stages * f->ports / 2;

					for (i = sw; i < mb * 8; i++)
						m[i / 8] &= ~(1 << (i % 8));
				}
				put(BFLY_A_MATRIX, m, mb);
			} else {
				put(BFLY_A_MATRIX, NULL, mb > 65000 ? 65000 : mb);
			}
		}
		break;
	case BFLY_CMD_ROUTE:
		put_u32(BFLY_A_ID, pick_id());
		if (rn(2))
			put_perm(f, some_ports(f));
		else
			put_labels(f, some_ports(f));
		if (rn(2))
			put(BFLY_A_DRY_RUN, NULL, 0);
		if (rn(2))
			put(BFLY_A_ALLOW_FAULTS, NULL, 0);
		break;
	case BFLY_CMD_FAULT_ADD:
		n_put = 0;
		switch (rn(8)) {
		case 6:		/* many, all good: ENOSPC on a fabric with faults */
			mb = 8 + rn(40);
			for (i = 0; i < (size_t)n_fab && rn(2); i++)
				if (fab[i].nfaults > f->nfaults)
					f = &fab[i];
			break;
		case 7:		/* none, or more than a fabric holds */
			mb = rn(2) ? 0 : BFLY_MAX_FAULTS - 1 + rn(4);
			break;
		default:
			mb = 1 + rn(3);
			break;
		}
		put_u32(BFLY_A_ID, f && rn(8) ? f->id : pick_id());
		for (i = 0; i < mb; i++)
			put_fault(f, false, mb < 8 || !rn(64));
		break;
	case BFLY_CMD_FAULT_DEL:
		put_u32(BFLY_A_ID, pick_id());
		n_put = 0;
		if (!rn(8)) {
			put(BFLY_A_ALL_FAULTS, NULL, 0);
			if (rn(4))
				break;
		}
		for (i = rn(8) ? 1 + rn(3) : 0; i > 0; i--)
			put_fault(f, true, true);
		break;
	case BFLY_CMD_A2A:
		put_u32(BFLY_A_ID, pick_id());
		if (rn(2))
			put_u32(BFLY_A_LATIN, rn(8) ? 1 + rn(4) : (__u32)rnd());
		break;
	default:
		for (i = rn(4); i > 0; i--)
			put_u32(rn(BFLY_A_MAX + 2), rnd());
	}
}

/* Offsets of the top-level attributes of tx. */
static size_t attr_off[4096];

static int attrs(void)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;
	int n = 0;

	while (off + NLA_HDRLEN <= tx_len && n < 4096) {
		struct nlattr *a = (struct nlattr *)(tx.b + off);

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > tx_len)
			break;
		attr_off[n++] = off;
		off += NLA_ALIGN(a->nla_len);
	}
	return n;
}

/* Remove @len bytes at @off from tx. */
static void cut(size_t off, size_t len)
{
	if (off + len > tx_len)
		len = tx_len - off;
	memmove(tx.b + off, tx.b + off + len, tx_len - off - len);
	tx_len -= len;
}

/*
 * Mutate tx. Returns how the header is: 1 well formed, 0 not (no answer
 * or an errno from the core only).
 */
static int mutate(__u16 *flags, size_t *send_len, int *mkind)
{
	int n = attrs(), k = rn(15);
	struct nlattr *a = n ? (struct nlattr *)(tx.b + attr_off[rn(n)]) : NULL;
	__u8 junk[64];
	size_t i, l;

	*mkind = k;
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = rnd();
	switch (k) {
	case 0:		/* drop an attribute */
		if (a)
			cut((__u8 *)a - tx.b, NLA_ALIGN(a->nla_len));
		break;
	case 1:		/* duplicate one */
		if (a && tx_len + NLA_ALIGN(a->nla_len) <= sizeof(tx.b)) {
			l = NLA_ALIGN(a->nla_len);
			memcpy(tx.b + tx_len, a, l);
			tx_len += l;
		}
		break;
	case 2:		/* unknown or unaccepted type */
		put(rn(2) ? rn(BFLY_A_MAX + 1) : BFLY_A_MAX + 1 + rn(0x3fff - BFLY_A_MAX),
		    junk, rn(17));
		break;
	case 3:		/* wrong length */
		if (a) {
			__u16 t = a->nla_type;

			cut((__u8 *)a - tx.b, NLA_ALIGN(a->nla_len));
			put(t, junk, rn(13));
		}
		break;
	case 4:		/* random bytes in an attribute */
		if (a)
			for (i = NLA_HDRLEN; i < a->nla_len; i++)
				if (!rn(4))
					((__u8 *)a)[i] = rnd();
		break;
	case 5:		/* bad nla_len */
		if (a)
			a->nla_len = rn(2) ? rn(NLA_HDRLEN) : a->nla_len + 1 + rn(64);
		break;
	case 6:		/* stray type flag bits */
		if (a)
			a->nla_type ^= rn(2) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		break;
	case 7: {	/* a bad switch or fault nest */
		size_t off = put((rn(2) ? BFLY_A_SWITCH : BFLY_A_FAULT) | NLA_F_NESTED, NULL, 0);

		if (!off)
			break;
		switch (rn(4)) {
		case 0:
			put(rn(6), junk, rn(9));
			break;
		case 1:
			put(BFLY_A_SWITCH_STAGE, junk, 4);
			put(BFLY_A_SWITCH_STAGE, junk + 4, 4);
			break;
		case 2:
			memcpy(tx.b + tx_len, junk, 8);
			tx_len += 8;
			break;
		default:
			break;
		}
		nest_end(off);
		if (!rn(4))
			((struct nlattr *)(tx.b + off))->nla_len += 4 + rn(64);
		break;
	}
	case 8:		/* a huge array */
		put(BFLY_A_PERM + rn(2), NULL, 32768 + rn(32000));
		break;
	case 9:		/* truncated message */
		if (tx_len > 1)
			tx_len = rn(tx_len);
		*send_len = tx_len;
		tx.nlh.nlmsg_len = tx_len;
		return tx_len >= NLMSG_HDRLEN + GENL_HDRLEN;
	case 10:	/* nlmsg_len past the data */
		*send_len = tx_len;
		tx.nlh.nlmsg_len = tx_len + 1 + rn(4096);
		return 0;
	case 11:	/* dump flag on a do, or no request flag */
		if (rn(2))
			*flags |= NLM_F_DUMP;
		else
			*flags &= ~NLM_F_REQUEST;
		break;
	case 12:	/* a family nobody has */
		tx.nlh.nlmsg_type = unused_family_id();
		break;
	case 13:	/* junk after the attributes */
		l = 1 + rn(3);
		if (tx_len + l <= sizeof(tx.b)) {
			memcpy(tx.b + tx_len, junk, l);
			tx_len += l;
		}
		break;
	default:	/* random genl version; reserved must be 0 (EINVAL first) */
		tx.b[NLMSG_HDRLEN + 1] = rnd();
		if (!rn(4)) {
			tx.b[NLMSG_HDRLEN + 2] = 1 + rn(255);
			*send_len = tx_len;
			tx.nlh.nlmsg_len = tx_len;
			return 0;
		}
		break;
	}
	*send_len = tx_len;
	tx.nlh.nlmsg_len = tx_len;
	return 1;
}

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

static unsigned long hk_clears, faults_added, faults_repaired, all_clears;
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

static const struct fabric *find(const struct fabric *v, int n, __u32 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/* The fault nests of a request, its id and all-faults */
struct fault_req {
	struct fault x[80];
	int k;
	__u32 id;
	bool all;
};

/*
 * Parse the request sent (before anything else overwrites tx) as the
 * kernel does: the last of duplicate attributes counts.
 */
static void request_faults(struct fault_req *r)
{
	int n = attrs(), i;

	r->k = 0;
	r->id = ~0U;
	r->all = false;
	for (i = 0; i < n; i++) {
		struct nlattr *a = (struct nlattr *)(tx.b + attr_off[i]);

		switch (a->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_ID:
			r->id = attr_u64(a);
			break;
		case BFLY_A_FAULT:
			if (r->k < 80)
				parse_fault(a, &r->x[r->k]);
			r->k++;
			break;
		case BFLY_A_ALL_FAULTS:
			r->all = true;
			break;
		}
	}
}

/*
 * The faults of every fabric after an accepted request of @cmd (0 for
 * one that changes no faults): as before, but for a fault-add or
 * fault-del's own fabric, whose list must have changed as it asked. A
 * new fabric has none.
 */
static void check_faults(int cmd, const struct fault_req *r)
{
	const struct fault *x = r->x;
	struct fault want[BFLY_MAX_FAULTS];
	const struct fabric *old, *now;
	__u32 id = ~0U, n_want = 0, j;
	bool all = r->all;
	int i, k = r->k;

	if (cmd == BFLY_CMD_FAULT_ADD || cmd == BFLY_CMD_FAULT_DEL)
		id = r->id;
	for (i = 0; i < n_fab; i++) {
		now = &fab[i];
		old = find(fab_prev, n_prev, now->id);
		if (!old) {
			if (now->nfaults)
				fail("new fabric bfly%u has %u faults", now->id, now->nfaults);
			continue;
		}
		if (now->id != id) {
			if (now->nfaults != old->nfaults ||
			    memcmp(now->faults, old->faults, now->listed * sizeof(x[0])))
				fail("%s changed the faults of bfly%u: %u, were %u", cname(cmd),
				     now->id, now->nfaults, old->nfaults);
			continue;
		}
		/* The faults the fabric should have now (listed: at most 64) */
		if (cmd == BFLY_CMD_FAULT_ADD) {
			if (old->listed + k > BFLY_MAX_FAULTS) {
				fail("fault-add of %d faults accepted on bfly%u, which had %u",
				     k, id, old->listed);
				return;
			}
			memcpy(want, old->faults, old->listed * sizeof(x[0]));
			memcpy(want + old->listed, x, k * sizeof(x[0]));
			n_want = old->listed + k;
			faults_added += k;
		} else if (!all) {
			for (j = 0; j < old->listed; j++) {
				int m;

				for (m = 0; m < k && m < 80; m++)
					if (same_place(&old->faults[j], &x[m]))
						break;
				if (m == k || m == 80)
					want[n_want++] = old->faults[j];
			}
			if (n_want + k != old->listed)
				fail("fault-del of %d faults accepted on bfly%u, which had %u",
				     k, id, old->listed - n_want);
			faults_repaired += k;
		} else {
			faults_repaired += old->listed;
			all_clears++;
		}
		if (now->nfaults != n_want ||
		    memcmp(now->faults, want, n_want * sizeof(x[0])))
			fail("%s of %d faults%s accepted: bfly%u had %u, has %u, not %u",
			     cname(cmd), k, all ? " (all-faults)" : "", id, old->nfaults,
			     now->nfaults, n_want);
	}
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
		   cmd == BFLY_CMD_A2A || cmd == BFLY_CMD_STATS_RESET || unpriv ||
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
