// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: manage bfly switching fabrics through the "bfly" generic netlink
 * family (Documentation/netlink/specs/bfly.yaml), with libnl-3.
 *
 *   bflyctl [-j [-p]] COMMAND [ARGS]     see bflyctl --help, bflyctl.8
 *
 * Output is for people by default; -j prints JSON, -j -p pretty JSON (as
 * in iproute2, -p alone changes nothing). Errors are one line on stderr,
 * with the kernel's extended ack message, and a non-zero exit status.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "cmdline.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *prog = "bflyctl";
static const char *cmd_name = "";
static bool json, pretty;

/* The netlink connection */
static struct nl_sock *sk;
static int family_id;
static struct nl_msg *last_req;	/* to name the attribute an error points at */

/* The last kernel error: errno, extended ack message, attribute */
static int kerr;
static char kmsg[256];
static char kattr[64];

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Exit with the last kernel error as one line. */
static void die_kernel(int err)
{
	const char *what = strerror(err);

	if (*kmsg && *kattr)
		die("%s [attribute %s] (%s)", kmsg, kattr, what);
	if (*kmsg)
		die("%s (%s)", kmsg, what);
	if (*kattr)
		die("%s [attribute %s]", what, kattr);
	die("%s", what);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- names ---- */

static const char * const topo_names[] = {
	[BFLY_TOPO_BUTTERFLY] = "butterfly",
	[BFLY_TOPO_BFLY2] = "bfly2",
	[BFLY_TOPO_BFLY_TWICE] = "bfly-twice",
	[BFLY_TOPO_BENES] = "benes",
};

static const char * const method_names[] = {
	[BFLY_METHOD_NONE] = "none",
	[BFLY_METHOD_SELF_ROUTING] = "self-routing",
	[BFLY_METHOD_LOOPING] = "looping",
	[BFLY_METHOD_LABELS] = "labels",
};

static const char * const latin_names[] = {
	[BFLY_NL_LATIN_RLS] = "rls",
	[BFLY_NL_LATIN_LLS] = "lls",
	[BFLY_NL_LATIN_XOR] = "xor",
	[BFLY_NL_LATIN_SQUARE] = "square",
};

/* Attribute names as in the spec, to name the attribute an error points at */
static const char * const attr_names[BFLY_A_MAX + 1] = {
	[BFLY_A_PAD] = "pad", [BFLY_A_ID] = "id", [BFLY_A_DEV_NAME] = "dev-name",
	[BFLY_A_TOPOLOGY] = "topology", [BFLY_A_PORTS] = "ports",
	[BFLY_A_PORTS_LOG2] = "ports-log2", [BFLY_A_NODE_STAGES] = "node-stages",
	[BFLY_A_NODES_PER_STAGE] = "nodes-per-stage", [BFLY_A_SWITCHES] = "switches",
	[BFLY_A_GENERATION] = "generation", [BFLY_A_STATS] = "stats",
	[BFLY_A_WANT] = "want", [BFLY_A_MATRIX_BYTES] = "matrix-bytes",
	[BFLY_A_MATRIX_OFFSET] = "matrix-offset", [BFLY_A_MATRIX] = "matrix",
	[BFLY_A_MAX_LINK_LOAD] = "max-link-load",
	[BFLY_A_LINK_LOAD_ENTRIES] = "link-load-entries",
	[BFLY_A_LINK_LOAD_OFFSET] = "link-load-offset", [BFLY_A_LINK_LOAD] = "link-load",
	[BFLY_A_PERM] = "perm", [BFLY_A_LABELS] = "labels", [BFLY_A_DRY_RUN] = "dry-run",
	[BFLY_A_METHOD] = "method", [BFLY_A_CONFLICTS_COUNT] = "conflicts-count",
	[BFLY_A_FIRST_CONFLICT_STAGE] = "first-conflict-stage",
	[BFLY_A_CONFLICT] = "conflict", [BFLY_A_SWITCH] = "switch",
	[BFLY_A_LATIN] = "latin", [BFLY_A_ROUNDS] = "rounds", [BFLY_A_CYCLES] = "cycles",
	[BFLY_A_FAULT] = "fault", [BFLY_A_FAULTS_COUNT] = "faults-count",
	[BFLY_A_ALL_FAULTS] = "all-faults", [BFLY_A_ALLOW_FAULTS] = "allow-faults",
	[BFLY_A_AFFECTED_COUNT] = "affected-count", [BFLY_A_STUCK_UNMET] = "stuck-unmet",
};

static const char * const switch_attr_names[BFLY_A_SWITCH_MAX + 1] = {
	[BFLY_A_SWITCH_STAGE] = "stage", [BFLY_A_SWITCH_NODE] = "node",
	[BFLY_A_SWITCH_STATE] = "state",
};

static const char * const fault_attr_names[BFLY_A_FAULT_MAX + 1] = {
	[BFLY_A_FAULT_KIND] = "kind", [BFLY_A_FAULT_STAGE] = "stage",
	[BFLY_A_FAULT_INDEX] = "index", [BFLY_A_FAULT_STATE] = "state",
};

static const char * const cmd_names[BFLY_CMD_MAX + 1] = {
	[BFLY_CMD_FABRIC_GET] = "fabric-get", [BFLY_CMD_FABRIC_NEW] = "fabric-new",
	[BFLY_CMD_FABRIC_DEL] = "fabric-del", [BFLY_CMD_SWITCH_SET] = "switch-set",
	[BFLY_CMD_ROUTE] = "route", [BFLY_CMD_A2A] = "a2a",
	[BFLY_CMD_STATS_RESET] = "stats-reset",
	[BFLY_CMD_FABRIC_CREATED_NTF] = "created",
	[BFLY_CMD_FABRIC_DELETED_NTF] = "deleted",
	[BFLY_CMD_MATRIX_CHANGED_NTF] = "matrix-changed",
	[BFLY_CMD_BATCH_DONE_NTF] = "batch-done",
	[BFLY_CMD_CONFLICTS_NTF] = "conflicts",
	[BFLY_CMD_FAULT_ADD] = "fault-add", [BFLY_CMD_FAULT_DEL] = "fault-del",
	[BFLY_CMD_FAULTS_CHANGED_NTF] = "faults-changed",
};

static const char * const fault_kind_names[] = {
	[BFLY_FAULT_STUCK] = "stuck",
	[BFLY_FAULT_LINK] = "link",
};

static const char *name_of(const char * const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

static const char *topo_name(unsigned int v)
{
	return name_of(topo_names, ARRAY_SIZE(topo_names), v);
}

static const char *method_name(unsigned int v)
{
	return name_of(method_names, ARRAY_SIZE(method_names), v);
}

static const char *latin_name(unsigned int v)
{
	return name_of(latin_names, ARRAY_SIZE(latin_names), v);
}

static const char *fault_kind_name(unsigned int v)
{
	return name_of(fault_kind_names, ARRAY_SIZE(fault_kind_names), v);
}

static const char *cmd_name_of(unsigned int v)
{
	return name_of(cmd_names, ARRAY_SIZE(cmd_names), v);
}

static int lookup(const char * const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

/* ---- numbers and arguments ---- */

/* A number from 0 to @max (cmdline.h), or exit naming @what */
static unsigned long long parse_max(const char *what, const char *s,
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

static unsigned long long parse_u64(const char *what, const char *s)
{
	return parse_max(what, s, ~0ULL);
}

static unsigned int parse_u32(const char *what, const char *s)
{
	return parse_max(what, s, 0xffffffffULL);
}

/* DEV: bflyN, /dev/bflyN or N */
static unsigned int parse_dev(const char *s)
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

/* ---- JSON output ---- */

static int jdepth;
static bool jfirst[64];

static void jindent(void)
{
	int i;

	if (!pretty)
		return;
	putchar('\n');
	for (i = 0; i < jdepth; i++)
		fputs("    ", stdout);
}

/* Before a value or key: the comma and the indentation. */
static void jsep(void)
{
	if (jdepth > 0) {
		if (!jfirst[jdepth])
			putchar(',');
		jfirst[jdepth] = false;
		jindent();
	}
}

static bool jafter_key;

static void jvalue_start(void)
{
	if (jafter_key) {
		jafter_key = false;
		return;
	}
	jsep();
}

static void jk(const char *key)
{
	jsep();
	printf("\"%s\":%s", key, pretty ? " " : "");
	jafter_key = true;
}

static void jopen(char c)
{
	jvalue_start();
	putchar(c);
	jdepth++;
	jfirst[jdepth] = true;
}

static void jclose(char c)
{
	bool empty = jfirst[jdepth];

	jdepth--;
	if (!empty)
		jindent();
	putchar(c);
	if (!jdepth)
		putchar('\n');
}

static void jstr(const char *s)
{
	jvalue_start();
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void jnum(unsigned long long v)
{
	jvalue_start();
	printf("%llu", v);
}

static void jbool(bool v)
{
	jvalue_start();
	fputs(v ? "true" : "false", stdout);
}

static void jks(const char *key, const char *s)
{
	jk(key);
	jstr(s);
}

static void jkn(const char *key, unsigned long long v)
{
	jk(key);
	jnum(v);
}

/* ---- netlink requests ---- */

/* The name of attribute @t inside a nest of type @nest: "stage", "?" */
static const char *nested_attr_name(int nest, unsigned int t)
{
	if (nest == BFLY_A_SWITCH && t < ARRAY_SIZE(switch_attr_names) && switch_attr_names[t])
		return switch_attr_names[t];
	if (nest == BFLY_A_FAULT && t < ARRAY_SIZE(fault_attr_names) && fault_attr_names[t])
		return fault_attr_names[t];
	return "?";
}

/*
 * Name the attribute at @off of the last request into @buf: "ports",
 * "switch.stage", "fault #2" (the request's second fault nest),
 * "fault #2.state", "99". With @nest, set to the type of the top-level
 * attribute found (-1 inside a nest). Returns false when no attribute
 * starts at @off.
 */
static bool attr_name_at(unsigned int off, char *buf, size_t len, int *nest)
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
		else if (type <= BFLY_A_MAX && attr_names[type])
			snprintf(name, sizeof(name), "%s", attr_names[type]);
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

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
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
				 t <= BFLY_A_MAX && attr_names[t] ? attr_names[t] : "?");
	}
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
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
static int on_finish(struct nl_msg *msg, void *arg)
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

static void connect_family(void)
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
	/* Large matrix chunks come in messages of up to 32 KiB. */
	nl_socket_set_msg_buf_size(sk, 64 * 1024);
	family_id = genl_ctrl_resolve(sk, BFLY_FAMILY_NAME);
	if (family_id < 0)
		die("generic netlink family \"%s\" not found: is bfly.ko loaded?",
		    BFLY_FAMILY_NAME);
}

/* Room for the largest request: 8192 ports of perm, 4096 of labels. */
#define REQUEST_BYTES (64 * 1024)

static struct nl_msg *new_msg(int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(REQUEST_BYTES);

	if (!msg)
		die("out of memory");
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_id, 0, flags, cmd,
			 BFLY_FAMILY_VERSION))
		die("cannot build a request");
	return msg;
}

static void put_or_die(int err)
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

static void await_answer(void)
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
static int transact(struct nl_msg *msg, nl_recvmsg_msg_cb_t parse, void *arg)
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

/* ---- fabrics as read from the kernel ---- */

/* One injected fault: enum bfly_fault_kind, stage, node or link position */
struct fault {
	unsigned int kind, stage, index, state;
};

struct fabric {
	unsigned int id;
	char dev[32];
	unsigned int topology, ports, ports_log2, node_stages, nodes_per_stage;
	unsigned long long switches, generation;
	bool has_stats;
	unsigned long long stats[BFLY_A_STATS_MAX + 1];
	unsigned long long matrix_bytes, matrix_got;
	unsigned char *matrix;
	bool has_mll;
	unsigned int mll;
	unsigned long long ll_entries, ll_got;
	unsigned int *ll;
	bool has_faults;
	unsigned int nfaults;	/* faults-count; the list holds the first 64 */
	struct fault faults[BFLY_MAX_FAULTS];
};

struct fabrics {
	struct fabric *v;
	size_t n, cap;
};

static void fabrics_free(struct fabrics *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].matrix);
		free(fs->v[i].ll);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

static struct fabric *fabric_slot(struct fabrics *fs, unsigned int id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 16;
		fs->v = realloc(fs->v, fs->cap * sizeof(*fs->v));
		if (!fs->v)
			die("out of memory");
	}
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	fs->v[fs->n].id = id;
	return &fs->v[fs->n++];
}

static unsigned int get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static unsigned long long get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

/* A fault nest into @f; false when it lacks kind, stage or index. */
static bool parse_fault(struct nlattr *nest, struct fault *f)
{
	struct nlattr *ft[BFLY_A_FAULT_MAX + 1];

	if (nla_parse_nested(ft, BFLY_A_FAULT_MAX, nest, NULL) ||
	    !ft[BFLY_A_FAULT_KIND] || !ft[BFLY_A_FAULT_STAGE] || !ft[BFLY_A_FAULT_INDEX])
		return false;
	f->kind = nla_get_u32(ft[BFLY_A_FAULT_KIND]);
	f->stage = nla_get_u32(ft[BFLY_A_FAULT_STAGE]);
	f->index = nla_get_u32(ft[BFLY_A_FAULT_INDEX]);
	f->state = get_u32(ft, BFLY_A_FAULT_STATE);
	return true;
}

/*
 * The faults of a description message (it has faults-count): one fault
 * nest each, from the same snapshot as the count.
 */
static void parse_faults(struct nl_msg *msg, struct fabric *f)
{
	struct nlattr *a;
	unsigned int n = 0;
	int rem;

	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		if (nla_type(a) == BFLY_A_FAULT && n < BFLY_MAX_FAULTS &&
		    parse_fault(a, &f->faults[n]))
			n++;
	}
	f->has_faults = true;
	f->nfaults = n;
}

/* One fabric-get message: a description or a chunk. */
static int parse_fabric(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1], *st[BFLY_A_STATS_MAX + 1];
	struct fabrics *fs = arg;
	struct fabric *f;
	unsigned long long off, len;
	int i;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL) || !tb[BFLY_A_ID])
		return NL_SKIP;
	f = fabric_slot(fs, nla_get_u32(tb[BFLY_A_ID]));
	if (tb[BFLY_A_DEV_NAME]) {
		snprintf(f->dev, sizeof(f->dev), "%s", nla_get_string(tb[BFLY_A_DEV_NAME]));
		f->topology = get_u32(tb, BFLY_A_TOPOLOGY);
		f->ports = get_u32(tb, BFLY_A_PORTS);
		f->ports_log2 = get_u32(tb, BFLY_A_PORTS_LOG2);
		f->node_stages = get_u32(tb, BFLY_A_NODE_STAGES);
		f->nodes_per_stage = get_u32(tb, BFLY_A_NODES_PER_STAGE);
		f->switches = get_u64(tb, BFLY_A_SWITCHES);
		f->generation = get_u64(tb, BFLY_A_GENERATION);
	}
	if (tb[BFLY_A_STATS] &&
	    !nla_parse_nested(st, BFLY_A_STATS_MAX, tb[BFLY_A_STATS], NULL)) {
		f->has_stats = true;
		for (i = 0; i <= BFLY_A_STATS_MAX; i++)
			f->stats[i] = get_u64(st, i);
	}
	if (tb[BFLY_A_MATRIX_BYTES])
		f->matrix_bytes = nla_get_u64(tb[BFLY_A_MATRIX_BYTES]);
	if (tb[BFLY_A_FAULTS_COUNT])
		parse_faults(msg, f);
	if (tb[BFLY_A_MAX_LINK_LOAD]) {
		f->has_mll = true;
		f->mll = nla_get_u32(tb[BFLY_A_MAX_LINK_LOAD]);
	}
	if (tb[BFLY_A_LINK_LOAD_ENTRIES])
		f->ll_entries = nla_get_u64(tb[BFLY_A_LINK_LOAD_ENTRIES]);
	if (tb[BFLY_A_MATRIX] && f->matrix_bytes) {
		off = get_u64(tb, BFLY_A_MATRIX_OFFSET);
		len = nla_len(tb[BFLY_A_MATRIX]);
		if (!f->matrix)
			f->matrix = xcalloc(f->matrix_bytes, 1);
		if (off + len <= f->matrix_bytes) {
			memcpy(f->matrix + off, nla_data(tb[BFLY_A_MATRIX]), len);
			f->matrix_got += len;
		}
	}
	if (tb[BFLY_A_LINK_LOAD] && f->ll_entries) {
		off = get_u64(tb, BFLY_A_LINK_LOAD_OFFSET);
		len = nla_len(tb[BFLY_A_LINK_LOAD]) / sizeof(unsigned int);
		if (!f->ll)
			f->ll = xcalloc(f->ll_entries, sizeof(unsigned int));
		if (off + len <= f->ll_entries) {
			memcpy(f->ll + off, nla_data(tb[BFLY_A_LINK_LOAD]),
			       len * sizeof(unsigned int));
			f->ll_got += len;
		}
	}
	return NL_OK;
}

/*
 * Read fabrics: every one, or only @id (when @one); @want as the
 * BFLY_A_WANT flags. Dumps interrupted by a change are redone.
 */
static void read_fabrics(struct fabrics *fs, bool one, unsigned int id,
			 unsigned int want)
{
	struct nl_msg *msg;
	int err, tries;

	for (tries = 0; tries < 20; tries++) {
		fabrics_free(fs);
		/* A do first: an unknown id is an error with a message. */
		if (one) {
			msg = new_msg(BFLY_CMD_FABRIC_GET, 0);
			put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
			err = transact(msg, NULL, NULL);
			if (err)
				die_kernel(err);
		}
		msg = new_msg(BFLY_CMD_FABRIC_GET, NLM_F_DUMP);
		if (one)
			put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		if (want)
			put_or_die(nla_put_u32(msg, BFLY_A_WANT, want));
		err = transact(msg, parse_fabric, fs);
		if (err == -EINTR)
			continue;
		if (err)
			die_kernel(err);
		return;
	}
	die("the fabrics kept changing while being read");
}

static bool matrix_bit(const struct fabric *f, unsigned int stage, unsigned int node)
{
	unsigned long long b = (unsigned long long)stage * f->nodes_per_stage + node;
	unsigned long long word;

	memcpy(&word, f->matrix + b / 64 * 8, 8);
	return (word >> (b % 64)) & 1;
}

/* "stuck  stage 2 node 5 cross", "link   stage 1 pos 6 broken" */
static void print_fault(const char *indent, const struct fault *x)
{
	if (x->kind == BFLY_FAULT_STUCK)
		printf("%sstuck  stage %u node %u %s\n", indent, x->stage, x->index,
		       x->state ? "cross" : "straight");
	else if (x->kind == BFLY_FAULT_LINK)
		printf("%slink   stage %u pos %u broken\n", indent, x->stage, x->index);
	else
		printf("%skind %u stage %u index %u state %u\n", indent, x->kind, x->stage,
		       x->index, x->state);
}

/* "faults": the count, "fault_list": one object per fault */
static void json_faults(const struct fabric *f)
{
	const struct fault *x;
	unsigned int j;

	jkn("faults", f->nfaults);
	jk("fault_list");
	jopen('[');
	for (j = 0; j < f->nfaults; j++) {
		x = &f->faults[j];
		jopen('{');
		jks("kind", fault_kind_name(x->kind));
		jkn("stage", x->stage);
		if (x->kind == BFLY_FAULT_STUCK) {
			jkn("node", x->index);
			jks("state", x->state ? "cross" : "straight");
		} else if (x->kind == BFLY_FAULT_LINK) {
			jkn("pos", x->index);
		} else {
			jkn("index", x->index);
			jkn("state", x->state);
		}
		jclose('}');
	}
	jclose(']');
}

static void json_fabric(const struct fabric *f, bool detail)
{
	static const char * const stat_names[BFLY_A_STATS_MAX + 1] = {
		[BFLY_A_STATS_ROUTES] = "routes", [BFLY_A_STATS_REFUSALS] = "refusals",
		[BFLY_A_STATS_CONFLICTS] = "conflicts",
		[BFLY_A_STATS_MATRIX_WRITES] = "matrix_writes",
		[BFLY_A_STATS_BATCHES] = "batches",
	};
	unsigned int s, k, p;
	char *row;
	int i;

	jopen('{');
	jkn("id", f->id);
	jks("dev", f->dev);
	jks("topology", topo_name(f->topology));
	jkn("ports", f->ports);
	jkn("ports_log2", f->ports_log2);
	jkn("node_stages", f->node_stages);
	jkn("nodes_per_stage", f->nodes_per_stage);
	jkn("switches", f->switches);
	jkn("generation", f->generation);
	jkn("matrix_bytes", f->matrix_bytes);
	if (f->has_stats) {
		jk("stats");
		jopen('{');
		for (i = 0; i <= BFLY_A_STATS_MAX; i++)
			if (stat_names[i])
				jkn(stat_names[i], f->stats[i]);
		jclose('}');
	}
	if (f->has_faults)
		json_faults(f);
	if (detail && f->matrix && f->matrix_got == f->matrix_bytes) {
		/* One string per node stage: '0' straight, '1' cross. */
		row = xcalloc(f->nodes_per_stage + 1, 1);
		jk("matrix");
		jopen('[');
		for (s = 0; s < f->node_stages; s++) {
			for (k = 0; k < f->nodes_per_stage; k++)
				row[k] = matrix_bit(f, s, k) ? '1' : '0';
			jstr(row);
		}
		jclose(']');
		free(row);
	}
	if (detail && f->has_mll)
		jkn("max_link_load", f->mll);
	if (detail && f->ll && f->ll_got == f->ll_entries) {
		jk("link_loads");
		jopen('[');
		for (s = 0; s < f->node_stages; s++) {
			jopen('[');
			for (p = 0; p < f->ports; p++)
				jnum(f->ll[(unsigned long long)s * f->ports + p]);
			jclose(']');
		}
		jclose(']');
	}
	jclose('}');
}

/* ---- commands ---- */

static void usage_main(FILE *out)
{
	fprintf(out,
		"usage: bflyctl [-j [-p]] COMMAND [ARGS]\n"
		"       bflyctl COMMAND --help\n"
		"       bflyctl --version\n"
		"\n"
		"Manage bfly switching fabrics through the \"bfly\" generic netlink family.\n"
		"\n"
		"commands:\n"
		"  list                       every fabric, one line each\n"
		"  show DEV [matrix] [loads]  one fabric; draws its switches when N <= 32\n"
		"  new TOPOLOGY PORTS         create a fabric (butterfly, bfly2, bfly-twice, benes)\n"
		"  del DEV                    delete a fabric\n"
		"  set DEV ...                set switches\n"
		"  route DEV [dry-run] [allow-faults] PERM\n"
		"                             route a permutation or labels\n"
		"  a2a DEV [latin rls|lls|xor]  run an all-to-all schedule\n"
		"  fault add|del DEV FAULT... inject or repair faults (stuck nodes, broken links)\n"
		"  fault clear|list DEV       repair every fault, list them\n"
		"  stats DEV [reset]          counters, or zero them\n"
		"  monitor [count N]          print events as they happen\n"
		"  raw CMD [TYPE:KIND[:VALUE]]...  send a raw request (for testing)\n"
		"\n"
		"options:\n"
		"  -j, --json     JSON output\n"
		"  -p, --pretty   with -j, indented JSON\n"
		"  -h, --help     this help\n"
		"  -V, --version  the version\n"
		"\n"
		"DEV is bflyN, /dev/bflyN or N. Numbers are decimal, or hexadecimal\n"
		"after 0x. Changing commands need CAP_NET_ADMIN.\n"
		"See bflyctl(8).\n");
}

static bool want_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "help"))
			return true;
	return false;
}

/* --help anywhere in a command's arguments: print @text, true */
static bool help(int argc, char **argv, const char *text)
{
	if (!want_help(argc, argv))
		return false;
	fputs(text, stdout);
	return true;
}

static int cmd_list(int argc, char **argv)
{
	struct fabrics fs = {};
	size_t i;

	if (help(argc, argv,
		 "usage: bflyctl [-j] list\n"
		 "List every fabric: id, device, topology, ports, node stages, switches,\n"
		 "matrix generation and routes computed.\n"))
		return 0;
	if (argc)
		die("unexpected argument '%s' (see bflyctl list --help)", argv[0]);
	connect_family();
	read_fabrics(&fs, false, 0, 0);
	if (json) {
		jopen('[');
		for (i = 0; i < fs.n; i++)
			json_fabric(&fs.v[i], false);
		jclose(']');
	} else {
		if (fs.n)
			printf("%-4s %-10s %-11s %8s %7s %10s %6s %8s\n", "ID", "DEV",
			       "TOPOLOGY", "PORTS", "STAGES", "SWITCHES", "GEN", "ROUTES");
		for (i = 0; i < fs.n; i++) {
			const struct fabric *f = &fs.v[i];

			printf("%-4u %-10s %-11s %8u %7u %10llu %6llu %8llu\n", f->id,
			       f->dev, topo_name(f->topology), f->ports,
			       f->node_stages, f->switches, f->generation,
			       f->stats[BFLY_A_STATS_ROUTES]);
		}
	}
	fabrics_free(&fs);
	return 0;
}

/* The state node @k of node stage @s is stuck in, or -1. */
static int stuck_state(const struct fabric *f, unsigned int s, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < f->nfaults; j++)
		if (f->faults[j].kind == BFLY_FAULT_STUCK && f->faults[j].stage == s &&
		    f->faults[j].index == k)
			return f->faults[j].state;
	return -1;
}

/* Is an output link of node @k of node stage @s broken? */
static bool output_broken(const struct fabric *f, unsigned int s, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < f->nfaults; j++)
		if (f->faults[j].kind == BFLY_FAULT_LINK && f->faults[j].stage == s &&
		    f->faults[j].index / 2 == k)
			return true;
	return false;
}

/*
 * Switches as text: one row per node, one column per node stage. A stuck
 * node shows the state it is stuck in between braces; a '/' after a node
 * marks a broken output link.
 */
static void draw_fabric(const struct fabric *f)
{
	bool stuck = false, broken = false;
	unsigned int s, k, j;
	int st;

	for (j = 0; j < f->nfaults; j++) {
		stuck |= f->faults[j].kind == BFLY_FAULT_STUCK;
		broken |= f->faults[j].kind == BFLY_FAULT_LINK;
	}
	printf("\n  switches (= straight, X cross), inputs on the left:\n");
	if (stuck)
		printf("  {=} {X} stuck straight, stuck cross: the node ignores its matrix bit\n");
	if (broken)
		printf("  / after a node: one of its output links is broken\n");
	printf("  %9s", "");
	for (s = 0; s < f->node_stages; s++)
		printf(" %3u", s);
	printf("   <- node stage\n");
	for (k = 0; k < f->nodes_per_stage; k++) {
		printf("  %2u,%-2u  ", 2 * k, 2 * k + 1);
		for (s = 0; s < f->node_stages; s++) {
			st = stuck_state(f, s, k);
			putchar(!s ? ' ' : output_broken(f, s - 1, k) ? '/' : '-');
			if (st < 0)
				printf("[%c]", matrix_bit(f, s, k) ? 'X' : '=');
			else
				printf("{%c}", st ? 'X' : '=');
		}
		printf("%c node %u\n", output_broken(f, f->node_stages - 1, k) ? '/' : ' ', k);
	}
}

static int cmd_show(int argc, char **argv)
{
	bool want_matrix = false, want_loads = false;
	struct fabrics fs = {};
	const struct fabric *f;
	unsigned int id, want = 0, s, p, max, j;
	int i;

	if (help(argc, argv,
		 "usage: bflyctl [-j] show DEV [matrix] [loads]\n"
		 "Describe one fabric: topology, ports, node stages, switches, matrix\n"
		 "generation, counters and injected faults. For N <= 32 the switch states\n"
		 "are drawn (= straight, X cross; a stuck node as {=} or {X}, the state it\n"
		 "is stuck in; '/' after a node for a broken output link). 'matrix' adds\n"
		 "the switch matrix to JSON output (one string of 0/1 per node stage) and\n"
		 "draws it for any N; 'loads' adds the link loads following the matrix\n"
		 "with a packet at every input.\n"))
		return 0;
	if (argc < 1)
		die("missing DEV (see bflyctl show --help)");
	id = parse_dev(argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "matrix"))
			want_matrix = true;
		else if (!strcmp(argv[i], "loads"))
			want_loads = true;
		else
			die("unexpected argument '%s' (see bflyctl show --help)", argv[i]);
	}
	connect_family();
	/* The description first: its size decides whether to draw. */
	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	if (want_matrix || (!json && fs.v[0].ports <= 32))
		want |= BFLY_WANT_MATRIX;
	if (want_loads)
		want |= BFLY_WANT_LINK_LOAD;
	if (want)
		read_fabrics(&fs, true, id, want);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];

	if (json) {
		json_fabric(f, true);
		fabrics_free(&fs);
		return 0;
	}
	printf("%s: %s fabric, id %u\n", f->dev, topo_name(f->topology), f->id);
	printf("  ports            %u (n = %u)\n", f->ports, f->ports_log2);
	printf("  node stages      %u\n", f->node_stages);
	printf("  nodes per stage  %u\n", f->nodes_per_stage);
	printf("  switches         %llu\n", f->switches);
	printf("  generation       %llu\n", f->generation);
	printf("  routes %llu, refused %llu, conflicts %llu, matrix writes %llu, batches %llu\n",
	       f->stats[BFLY_A_STATS_ROUTES], f->stats[BFLY_A_STATS_REFUSALS],
	       f->stats[BFLY_A_STATS_CONFLICTS], f->stats[BFLY_A_STATS_MATRIX_WRITES],
	       f->stats[BFLY_A_STATS_BATCHES]);
	if (f->has_mll)
		printf("  max link load    %u\n", f->mll);
	if (f->has_faults) {
		printf("  faults           %u\n", f->nfaults);
		for (j = 0; j < f->nfaults; j++)
			print_fault("    ", &f->faults[j]);
	}
	if (f->matrix && f->matrix_got == f->matrix_bytes)
		draw_fabric(f);
	if (f->ll && f->ll_got == f->ll_entries) {
		printf("\n  link loads after each node stage (max per stage):\n");
		for (s = 0; s < f->node_stages; s++) {
			max = 0;
			for (p = 0; p < f->ports; p++)
				if (f->ll[(unsigned long long)s * f->ports + p] > max)
					max = f->ll[(unsigned long long)s * f->ports + p];
			printf("  stage %3u: %u\n", s, max);
		}
	} else if (want_loads && f->ll_entries && !f->ll) {
		printf("\n  (per-link loads are not sent for fabrics this large)\n");
	}
	fabrics_free(&fs);
	return 0;
}

static int cmd_new(int argc, char **argv)
{
	struct fabrics fs = {};
	struct nl_msg *msg;
	int topo, err;
	unsigned int ports;

	if (help(argc, argv,
		 "usage: bflyctl [-j] new TOPOLOGY PORTS\n"
		 "       bflyctl [-j] new topology TOPOLOGY ports PORTS\n"
		 "Create a fabric. TOPOLOGY is butterfly, bfly2, bfly-twice or benes;\n"
		 "PORTS a power of two from 2 to 2^20. Prints the new device's name\n"
		 "(/dev/<name> exists at once), or with -j its description.\n"))
		return 0;
	if (argc == 4 && !strcmp(argv[0], "topology") && !strcmp(argv[2], "ports")) {
		argv[0] = argv[1];
		argv[1] = argv[3];
		argc = 2;
	}
	if (argc != 2)
		die("expected TOPOLOGY PORTS (see bflyctl new --help)");
	topo = lookup(topo_names, ARRAY_SIZE(topo_names), argv[0]);
	if (topo < 0)
		die("unknown topology '%s' (butterfly, bfly2, bfly-twice, benes)", argv[0]);
	ports = parse_u32("ports", argv[1]);
	connect_family();
	msg = new_msg(BFLY_CMD_FABRIC_NEW, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_TOPOLOGY, topo));
	put_or_die(nla_put_u32(msg, BFLY_A_PORTS, ports));
	err = transact(msg, parse_fabric, &fs);
	if (err)
		die_kernel(err);
	if (fs.n != 1)
		die("no reply from the kernel");
	if (json)
		json_fabric(&fs.v[0], false);
	else
		printf("%s\n", fs.v[0].dev);
	fabrics_free(&fs);
	return 0;
}

static int cmd_del(int argc, char **argv)
{
	struct nl_msg *msg;
	unsigned int id;
	int err;

	if (help(argc, argv,
		 "usage: bflyctl del DEV\n"
		 "Delete a fabric. Its device node goes away at once; programs that\n"
		 "still have it open get ENODEV from then on.\n"))
		return 0;
	if (argc != 1)
		die("expected DEV (see bflyctl del --help)");
	id = parse_dev(argv[0]);
	connect_family();
	msg = new_msg(BFLY_CMD_FABRIC_DEL, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	err = transact(msg, NULL, NULL);
	if (err)
		die_kernel(err);
	return 0;
}

static int parse_generation(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];

	if (!genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		*(unsigned long long *)arg = get_u64(tb, BFLY_A_GENERATION);
	return NL_OK;
}

static int parse_state(const char *s)
{
	if (!strcmp(s, "straight") || !strcmp(s, "0") || !strcmp(s, "="))
		return 0;
	if (!strcmp(s, "cross") || !strcmp(s, "1") || !strcmp(s, "X") || !strcmp(s, "x"))
		return 1;
	die("'%s' is not a switch state (straight or cross)", s);
	return -1;
}

static int cmd_set(int argc, char **argv)
{
	unsigned long long generation = 0;
	struct fabrics fs = {};
	struct nl_msg *msg;
	struct nlattr *nest;
	unsigned int id;
	int i, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] set DEV stage S node K straight|cross [stage S node K STATE]...\n"
		 "       bflyctl [-j] set DEV all straight|cross\n"
		 "Set switches of a fabric in one change of its matrix: the listed nodes,\n"
		 "or every node. Prints the new matrix generation.\n"))
		return 0;
	if (argc < 3)
		die("expected DEV and switches (see bflyctl set --help)");
	id = parse_dev(argv[0]);
	connect_family();
	msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	if (!strcmp(argv[1], "all")) {
		unsigned char *m;
		int state;

		if (argc != 3)
			die("expected 'all straight' or 'all cross'");
		state = parse_state(argv[2]);
		nlmsg_free(msg);
		read_fabrics(&fs, true, id, 0);
		if (fs.v[0].matrix_bytes > BFLY_CHUNK_BYTES)
			die("%s: the matrix is too large for one request", fs.v[0].dev);
		m = xcalloc(fs.v[0].matrix_bytes, 1);
		for (i = 0; state && (unsigned long long)i < fs.v[0].switches; i++)
			m[i / 8] |= 1 << (i % 8);
		msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		put_or_die(nla_put(msg, BFLY_A_MATRIX, fs.v[0].matrix_bytes, m));
		free(m);
		fabrics_free(&fs);
	} else {
		for (i = 1; i < argc; i += 5) {
			if (i + 5 > argc)
				die("incomplete switch: expected 'stage S node K STATE'");
			if (strcmp(argv[i], "stage") || strcmp(argv[i + 2], "node"))
				die("expected 'stage S node K STATE', got '%s'", argv[i]);
			nest = nla_nest_start(msg, BFLY_A_SWITCH);
			if (!nest)
				die("request too large");
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_STAGE,
					       parse_u32("stage", argv[i + 1])));
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_NODE,
					       parse_u32("node", argv[i + 3])));
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_STATE,
					       parse_state(argv[i + 4])));
			nla_nest_end(msg, nest);
		}
	}
	err = transact(msg, parse_generation, &generation);
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("generation", generation);
		jclose('}');
	} else {
		printf("bfly%u: generation %llu\n", id, generation);
	}
	return 0;
}

struct route_reply {
	unsigned int method, count, first_stage, n;
	unsigned long long generation;
	unsigned int conflicts[BFLY_CONFLICTS_MAX][4];
	unsigned int faults, stuck_unmet;
	unsigned long long affected;
	bool applied;
};

static int parse_route(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1], *c[BFLY_A_CONFLICT_MAX + 1], *a;
	struct route_reply *r = arg;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->method = get_u32(tb, BFLY_A_METHOD);
	r->count = get_u32(tb, BFLY_A_CONFLICTS_COUNT);
	r->first_stage = get_u32(tb, BFLY_A_FIRST_CONFLICT_STAGE);
	r->generation = get_u64(tb, BFLY_A_GENERATION);
	r->faults = get_u32(tb, BFLY_A_FAULTS_COUNT);
	r->affected = get_u64(tb, BFLY_A_AFFECTED_COUNT);
	r->stuck_unmet = get_u32(tb, BFLY_A_STUCK_UNMET);
	r->applied = tb[BFLY_A_APPLIED] && nla_get_u8(tb[BFLY_A_APPLIED]);
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		if (nla_type(a) != BFLY_A_CONFLICT || r->n >= BFLY_CONFLICTS_MAX)
			continue;
		if (nla_parse_nested(c, BFLY_A_CONFLICT_MAX, a, NULL))
			continue;
		r->conflicts[r->n][0] = get_u32(c, BFLY_A_CONFLICT_STAGE);
		r->conflicts[r->n][1] = get_u32(c, BFLY_A_CONFLICT_NODE);
		r->conflicts[r->n][2] = get_u32(c, BFLY_A_CONFLICT_INPUT0);
		r->conflicts[r->n][3] = get_u32(c, BFLY_A_CONFLICT_INPUT1);
		r->n++;
	}
	return NL_OK;
}

/*
 * A comma-separated list of exactly @n numbers (an empty entry is not
 * one). A perm's entries are outputs, 0 .. @n - 1; that no entry repeats
 * is left to the kernel's check. Labels are u64; their width too.
 */
static void parse_list(const char *what, const char *s, unsigned int n,
		       unsigned long long *out)
{
	bool perm = !strcmp(what, "perm");
	unsigned long long max = perm ? n - 1 : ~0ULL;
	char *copy = strdup(s), *tok, *next;
	unsigned int i = 0;

	if (!copy)
		die("out of memory");
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = 0;
		if (i == n)
			die("%s: more than %u entries", what, n);
		switch (parse_num(tok, max, &out[i++])) {
		case NUM_OK:
			break;
		case NUM_NAN:
			die("%s: entry %u: '%s' is not a number", what, i, tok);
			break;
		case NUM_RANGE:
			if (perm)
				die("%s: entry %u: %s is out of range: %s of 0 .. %u",
				    what, i, tok, "not a permutation", n - 1);
			die("%s: entry %u: %s is out of range (0 .. %llu)", what, i, tok, max);
			break;
		}
	}
	if (i != n)
		die("%s: %u entries, the fabric has %u ports", what, i, n);
	free(copy);
}

static int cmd_route(int argc, char **argv)
{
	bool dry_run = false, labels = false, allow_faults = false;
	struct route_reply r = {};
	struct fabrics fs = {};
	unsigned long long *v;
	unsigned int id, n, i, j, t;
	struct nl_msg *msg;
	void *buf;
	int a, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] route DEV [dry-run] [allow-faults] PERM\n"
		 "PERM is one of:\n"
		 "  perm P0,P1,...      input i goes to output Pi\n"
		 "  identity | reverse  i -> i, i -> N-1-i\n"
		 "  shift K | xor K     i -> (i + K) mod N, i -> i XOR K\n"
		 "  random [seed S]     a random permutation\n"
		 "  labels L0,L1,...    route labels (node-stages bits each, first stage\n"
		 "                      most significant): any topology\n"
		 "A permutation routes by self-routing on butterfly and by looping on benes.\n"
		 "A route without conflicts replaces the switch matrix unless dry-run;\n"
		 "a route with conflicts is refused (exit 1) and its conflicts listed.\n"
		 "On a fabric with faults, the inputs a fault would hit are counted\n"
		 "(affected) with the stuck nodes the route needs in the other state\n"
		 "(stuck unmet); such a route is refused (exit 1) unless allow-faults.\n"))
		return 0;
	if (argc < 2)
		die("expected DEV and a permutation (see bflyctl route --help)");
	id = parse_dev(argv[0]);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "dry-run"))
			dry_run = true;
		else if (!strcmp(argv[a], "allow-faults"))
			allow_faults = true;
		else
			break;
	}
	if (a >= argc)
		die("missing the permutation (see bflyctl route --help)");
	connect_family();
	read_fabrics(&fs, true, id, 0);
	n = fs.v[0].ports;
	fabrics_free(&fs);
	v = xcalloc(n, sizeof(*v));

	if (!strcmp(argv[a], "perm") && a + 1 < argc) {
		parse_list("perm", argv[++a], n, v);
	} else if (!strcmp(argv[a], "labels") && a + 1 < argc) {
		parse_list("labels", argv[++a], n, v);
		labels = true;
	} else if (!strcmp(argv[a], "identity") || !strcmp(argv[a], "reverse")) {
		for (i = 0; i < n; i++)
			v[i] = argv[a][0] == 'i' ? i : n - 1 - i;
	} else if ((!strcmp(argv[a], "shift") || !strcmp(argv[a], "xor")) && a + 1 < argc) {
		/* shift is modulo N; xor K past N - 1 would leave 0 .. N-1 */
		unsigned int k = parse_max(argv[a], argv[a + 1],
					   argv[a][0] == 's' ? 0xffffffffULL : n - 1);

		for (i = 0; i < n; i++)
			v[i] = argv[a][0] == 's' ? (i + k) % n : i ^ k;
		a++;
	} else if (!strcmp(argv[a], "random")) {
		unsigned int seed = time(NULL);

		if (a + 2 < argc && !strcmp(argv[a + 1], "seed")) {
			seed = parse_u32("seed", argv[a + 2]);
			a += 2;
		}
		srand(seed);
		for (i = 0; i < n; i++)
			v[i] = i;
		for (i = n - 1; i > 0; i--) {
			j = rand() % (i + 1);
			t = v[i];
			v[i] = v[j];
			v[j] = t;
		}
	} else {
		die("unknown permutation '%s' (see bflyctl route --help)", argv[a]);
	}
	if (a + 1 != argc)
		die("unexpected argument '%s'", argv[a + 1]);

	if (labels) {
		unsigned long long *l = xcalloc(n, sizeof(*l));

		memcpy(l, v, n * sizeof(*l));
		buf = l;
	} else {
		unsigned int *p = xcalloc(n, sizeof(*p));

		/* Each entry is below n (parse_list) */
		for (i = 0; i < n; i++)
			p[i] = v[i];
		buf = p;
	}
	free(v);
	/* One attribute holds at most 64 KiB. */
	if ((unsigned long long)n * (labels ? 8 : 4) > 65535 - NLA_HDRLEN)
		die("%s: %u ports do not fit in one netlink attribute %s",
		    labels ? "labels" : "perm", n, "(at most 8192 ports, 4096 with labels)");
	msg = new_msg(BFLY_CMD_ROUTE, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	put_or_die(nla_put(msg, labels ? BFLY_A_LABELS : BFLY_A_PERM,
			   n * (labels ? 8 : 4), buf));
	if (dry_run)
		put_or_die(nla_put_flag(msg, BFLY_A_DRY_RUN));
	if (allow_faults)
		put_or_die(nla_put_flag(msg, BFLY_A_ALLOW_FAULTS));
	/* A refused route is answered with its report, then the error. */
	err = transact(msg, parse_route, &r);
	if (err && err != EBUSY && err != EHOSTUNREACH)
		die_kernel(err);
	free(buf);

	if (json) {
		jopen('{');
		jkn("id", id);
		jks("method", method_name(r.method));
		jk("applied");
		jbool(r.applied);
		jkn("conflicts", r.count);
		if (r.count)
			jkn("first_conflict_stage", r.first_stage);
		jkn("generation", r.generation);
		jkn("faults", r.faults);
		jkn("affected", r.affected);
		jkn("stuck_unmet", r.stuck_unmet);
		jk("conflict_list");
		jopen('[');
		for (i = 0; i < r.n; i++) {
			jopen('{');
			jkn("stage", r.conflicts[i][0]);
			jkn("node", r.conflicts[i][1]);
			jk("inputs");
			jopen('[');
			jnum(r.conflicts[i][2]);
			jnum(r.conflicts[i][3]);
			jclose(']');
			jclose('}');
		}
		jclose(']');
		jclose('}');
	} else {
		printf("bfly%u: %s, %s", id, method_name(r.method),
		       err ? "refused" : r.applied ? "applied" : "dry run");
		if (r.count)
			printf(", %u conflicts, first at node stage %u", r.count, r.first_stage);
		else
			printf(", no conflicts");
		printf(", generation %llu\n", r.generation);
		if (r.faults)
			printf("  faults %u: affected %llu, stuck unmet %u%s\n", r.faults,
			       r.affected, r.stuck_unmet,
			       r.affected && r.applied ? " (allowed)" : "");
		for (i = 0; i < r.n; i++)
			printf("  conflict: stage %u node %u, inputs %u and %u\n",
			       r.conflicts[i][0], r.conflicts[i][1], r.conflicts[i][2],
			       r.conflicts[i][3]);
		if (r.n < r.count)
			printf("  (%u more)\n", r.count - r.n);
	}
	fflush(stdout);
	if (err)
		die_kernel(err);
	return 0;
}

struct a2a_reply {
	unsigned int latin, rounds, conflicts, faults;
	unsigned long long cycles, affected;
};

static int parse_a2a(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];
	struct a2a_reply *r = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->latin = get_u32(tb, BFLY_A_LATIN);
	r->rounds = get_u32(tb, BFLY_A_ROUNDS);
	r->cycles = get_u64(tb, BFLY_A_CYCLES);
	r->conflicts = get_u32(tb, BFLY_A_CONFLICTS_COUNT);
	r->faults = get_u32(tb, BFLY_A_FAULTS_COUNT);
	r->affected = get_u64(tb, BFLY_A_AFFECTED_COUNT);
	return NL_OK;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_a2a(int argc, char **argv)
{
	bool tty = isatty(STDERR_FILENO);
	struct a2a_reply r = {};
	struct pollfd pfd;
	struct nl_msg *msg;
	int latin = 0, err;
	double start;
	unsigned int id;

	if (help(argc, argv,
		 "usage: bflyctl [-j] a2a DEV [latin rls|lls|xor]\n"
		 "Run an all-to-all schedule on a fabric: every input sends to every\n"
		 "output, round by round along a Latin square (default: the module's\n"
		 "choice for the topology). On a terminal, the elapsed time is shown\n"
		 "while it runs; piped, nothing but the result is printed. On a fabric\n"
		 "with faults, the faults and the messages they would hit are counted.\n"))
		return 0;
	if (argc != 1 && argc != 3)
		die("expected DEV [latin rls|lls|xor] (see bflyctl a2a --help)");
	id = parse_dev(argv[0]);
	if (argc == 3) {
		if (strcmp(argv[1], "latin"))
			die("unexpected argument '%s'", argv[1]);
		latin = lookup(latin_names, ARRAY_SIZE(latin_names), argv[2]);
		if (latin < 0)
			die("unknown Latin square '%s' (rls, lls, xor)", argv[2]);
	}
	connect_family();
	msg = new_msg(BFLY_CMD_A2A, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	if (latin)
		put_or_die(nla_put_u32(msg, BFLY_A_LATIN, latin));

	/* Progress on a terminal while the kernel works. */
	start = now();
	if (tty) {
		pfd.fd = nl_socket_get_fd(sk);
		pfd.events = POLLIN;
		nl_send_auto(sk, msg);
		while (poll(&pfd, 1, 200) == 0)
			fprintf(stderr, "\rbflyctl: a2a on bfly%u: running, %.1f s", id,
				now() - start);
		fprintf(stderr, "\r\033[K");
		/* The request went out; read its answer. */
		{
			struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
			int done = 0;

			kerr = 0;
			last_req = msg;
			nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse_a2a, &r);
			nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &done);
			nl_cb_err(cb, NL_CB_CUSTOM, on_error, &done);
			while (!done && !kerr) {
				await_answer();
				if (nl_recvmsgs(sk, cb) < 0)
					break;
			}
			nl_cb_put(cb);
			nlmsg_free(msg);
			last_req = NULL;
			err = kerr;
		}
	} else {
		err = transact(msg, parse_a2a, &r);
	}
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jks("latin", latin_name(r.latin));
		jkn("rounds", r.rounds);
		jkn("cycles", r.cycles);
		jkn("conflicts", r.conflicts);
		jkn("faults", r.faults);
		jkn("affected", r.affected);
		jclose('}');
	} else {
		printf("bfly%u: all-to-all (%s): %u rounds, %llu cycles, %u conflicts",
		       id, latin_name(r.latin), r.rounds, r.cycles, r.conflicts);
		if (r.faults)
			printf(", faults %u, affected %llu", r.faults, r.affected);
		printf(", %.2f s\n", now() - start);
	}
	return 0;
}

/*
 * One fault from argv[*@a] on: "stuck STAGE NODE straight|cross" (the state
 * only with @state) or "link STAGE POS". Moves *@a past it.
 */
static void parse_fault_arg(int argc, char **argv, int *a, bool state, struct fault *x)
{
	const char *form;
	int i = *a, need = 3;

	memset(x, 0, sizeof(*x));
	if (!strcmp(argv[i], "stuck")) {
		x->kind = BFLY_FAULT_STUCK;
		need = state ? 4 : 3;
		form = state ? "stuck STAGE NODE straight|cross" : "stuck STAGE NODE";
	} else if (!strcmp(argv[i], "link")) {
		x->kind = BFLY_FAULT_LINK;
		form = "link STAGE POS";
	} else {
		die("expected 'stuck' or 'link', got '%s' (see bflyctl fault --help)", argv[i]);
	}
	if (i + need > argc)
		die("incomplete fault: expected '%s'", form);
	x->stage = parse_u32("stage", argv[i + 1]);
	x->index = parse_u32(x->kind == BFLY_FAULT_STUCK ? "node" : "pos", argv[i + 2]);
	if (need == 4)
		x->state = parse_state(argv[i + 3]);
	*a = i + need;
}

static int parse_faults_count(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];

	if (!genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		*(unsigned int *)arg = get_u32(tb, BFLY_A_FAULTS_COUNT);
	return NL_OK;
}

/* fault list: the faults of one fabric */
static void fault_list(unsigned int id)
{
	struct fabrics fs = {};
	const struct fabric *f;
	unsigned int j;

	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];
	if (json) {
		jopen('{');
		jkn("id", f->id);
		json_faults(f);
		jclose('}');
	} else {
		printf("%s: %u fault%s\n", f->dev, f->nfaults, f->nfaults == 1 ? "" : "s");
		for (j = 0; j < f->nfaults; j++)
			print_fault("  ", &f->faults[j]);
	}
	fabrics_free(&fs);
}

static int cmd_fault(int argc, char **argv)
{
	static char name[32];
	struct fault *v = NULL;
	unsigned int id, count = 0, n = 0, j;
	struct nl_msg *msg;
	struct nlattr *nest;
	const char *sub;
	bool add;
	int a, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] fault add DEV FAULT...\n"
		 "       bflyctl [-j] fault del DEV FAULT...\n"
		 "       bflyctl [-j] fault clear DEV\n"
		 "       bflyctl [-j] fault list DEV\n"
		 "Inject faults into a fabric, repair them, or list them. A FAULT is\n"
		 "  stuck STAGE NODE straight|cross  node NODE of node stage STAGE stuck\n"
		 "                                   in that state (del: without the state)\n"
		 "  link STAGE POS                   the link at position POS leaving node\n"
		 "                                   stage STAGE broken: its packet is lost\n"
		 "add and del take several faults, all of them or none; clear repairs\n"
		 "every fault. A fabric holds at most 64. Prints the number of faults.\n"))
		return 0;
	if (argc < 2)
		die("expected add, del, clear or list, and DEV (see bflyctl fault --help)");
	sub = argv[0];
	if (strcmp(sub, "add") && strcmp(sub, "del") && strcmp(sub, "clear") &&
	    strcmp(sub, "list"))
		die("unknown fault command '%s' (add, del, clear, list)", sub);
	/* Errors name the subcommand: "bflyctl: fault add: ..." */
	snprintf(name, sizeof(name), "fault %s", sub);
	cmd_name = name;
	id = parse_dev(argv[1]);
	if (!strcmp(sub, "list") || !strcmp(sub, "clear")) {
		if (argc > 2)
			die("unexpected argument '%s' (see bflyctl fault --help)", argv[2]);
		connect_family();
		if (sub[0] == 'l') {
			fault_list(id);
			return 0;
		}
		msg = new_msg(BFLY_CMD_FAULT_DEL, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		put_or_die(nla_put_flag(msg, BFLY_A_ALL_FAULTS));
	} else {
		add = sub[0] == 'a';
		if (argc < 3)
			die("expected faults: '%s' or 'link STAGE POS' (see bflyctl fault --help)",
			    add ? "stuck STAGE NODE straight|cross" : "stuck STAGE NODE");
		v = xcalloc(argc, sizeof(*v));
		for (a = 2; a < argc; n++)
			parse_fault_arg(argc, argv, &a, add, &v[n]);
		connect_family();
		msg = new_msg(add ? BFLY_CMD_FAULT_ADD : BFLY_CMD_FAULT_DEL, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		for (j = 0; j < n; j++) {
			nest = nla_nest_start(msg, BFLY_A_FAULT);
			if (!nest)
				die("request too large");
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_KIND, v[j].kind));
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_STAGE, v[j].stage));
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_INDEX, v[j].index));
			if (add && v[j].kind == BFLY_FAULT_STUCK)
				put_or_die(nla_put_u32(msg, BFLY_A_FAULT_STATE, v[j].state));
			nla_nest_end(msg, nest);
		}
		free(v);
	}
	err = transact(msg, parse_faults_count, &count);
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("faults", count);
		jclose('}');
	} else {
		printf("bfly%u: %u fault%s\n", id, count, count == 1 ? "" : "s");
	}
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	struct fabrics fs = {};
	struct nl_msg *msg;
	unsigned int id;
	int err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] stats DEV [reset]\n"
		 "Print a fabric's counters (routes, refusals, conflicts, matrix writes,\n"
		 "batches), or zero them with 'reset'.\n"))
		return 0;
	if (argc < 1 || argc > 2 || (argc == 2 && strcmp(argv[1], "reset")))
		die("expected DEV [reset] (see bflyctl stats --help)");
	id = parse_dev(argv[0]);
	connect_family();
	if (argc == 2) {
		msg = new_msg(BFLY_CMD_STATS_RESET, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		err = transact(msg, NULL, NULL);
		if (err)
			die_kernel(err);
		return 0;
	}
	read_fabrics(&fs, true, id, 0);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("routes", fs.v[0].stats[BFLY_A_STATS_ROUTES]);
		jkn("refusals", fs.v[0].stats[BFLY_A_STATS_REFUSALS]);
		jkn("conflicts", fs.v[0].stats[BFLY_A_STATS_CONFLICTS]);
		jkn("matrix_writes", fs.v[0].stats[BFLY_A_STATS_MATRIX_WRITES]);
		jkn("batches", fs.v[0].stats[BFLY_A_STATS_BATCHES]);
		jclose('}');
	} else {
		printf("%s: routes %llu, refusals %llu, conflicts %llu, ", fs.v[0].dev,
		       fs.v[0].stats[BFLY_A_STATS_ROUTES],
		       fs.v[0].stats[BFLY_A_STATS_REFUSALS],
		       fs.v[0].stats[BFLY_A_STATS_CONFLICTS]);
		printf("matrix writes %llu, batches %llu\n",
		       fs.v[0].stats[BFLY_A_STATS_MATRIX_WRITES],
		       fs.v[0].stats[BFLY_A_STATS_BATCHES]);
	}
	fabrics_free(&fs);
	return 0;
}

static long events_left = -1;

/*
 * A message of nlctrl's "notify" group: when the bfly family is
 * unregistered (rmmod bfly), its events group is gone with it, so the
 * monitor says so and exits with status 1, as "ip monitor" users expect
 * when the source disappears.
 */
static int on_ctrl_event(struct nl_msg *msg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (gh->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), BFLY_FAMILY_NAME))
		return NL_SKIP;
	fflush(stdout);
	die("the %s family went away (module unloaded)", BFLY_FAMILY_NAME);
	return NL_STOP;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[BFLY_A_MAX + 1];
	const char *ev = cmd_name_of(gh->cmd);
	unsigned int id;

	(void)arg;
	if (nlmsg_hdr(msg)->nlmsg_type == GENL_ID_CTRL)
		return on_ctrl_event(msg);
	if (nlmsg_hdr(msg)->nlmsg_type != family_id ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	id = get_u32(tb, BFLY_A_ID);
	if (json) {
		bool p = pretty;

		pretty = false;	/* one event per line */
		jopen('{');
		jks("event", ev);
		jkn("id", id);
		if (tb[BFLY_A_DEV_NAME])
			jks("dev", nla_get_string(tb[BFLY_A_DEV_NAME]));
		if (tb[BFLY_A_TOPOLOGY])
			jks("topology", topo_name(nla_get_u32(tb[BFLY_A_TOPOLOGY])));
		if (tb[BFLY_A_PORTS])
			jkn("ports", nla_get_u32(tb[BFLY_A_PORTS]));
		if (tb[BFLY_A_GENERATION])
			jkn("generation", nla_get_u64(tb[BFLY_A_GENERATION]));
		if (tb[BFLY_A_CONFLICTS_COUNT])
			jkn("conflicts", nla_get_u32(tb[BFLY_A_CONFLICTS_COUNT]));
		if (tb[BFLY_A_FIRST_CONFLICT_STAGE])
			jkn("first_conflict_stage", nla_get_u32(tb[BFLY_A_FIRST_CONFLICT_STAGE]));
		if (tb[BFLY_A_LATIN])
			jks("latin", latin_name(nla_get_u32(tb[BFLY_A_LATIN])));
		if (tb[BFLY_A_ROUNDS])
			jkn("rounds", nla_get_u32(tb[BFLY_A_ROUNDS]));
		if (tb[BFLY_A_CYCLES])
			jkn("cycles", nla_get_u64(tb[BFLY_A_CYCLES]));
		if (tb[BFLY_A_FAULTS_COUNT])
			jkn("faults", nla_get_u32(tb[BFLY_A_FAULTS_COUNT]));
		jclose('}');
		pretty = p;
	} else {
		switch (gh->cmd) {
		case BFLY_CMD_FABRIC_CREATED_NTF:
			printf("created bfly%u: %s, %u ports\n", id,
			       topo_name(get_u32(tb, BFLY_A_TOPOLOGY)),
			       get_u32(tb, BFLY_A_PORTS));
			break;
		case BFLY_CMD_FABRIC_DELETED_NTF:
			printf("deleted bfly%u\n", id);
			break;
		case BFLY_CMD_MATRIX_CHANGED_NTF:
			printf("matrix-changed bfly%u: generation %llu\n", id,
			       get_u64(tb, BFLY_A_GENERATION));
			break;
		case BFLY_CMD_CONFLICTS_NTF:
			printf("conflicts bfly%u: %u conflicts, first at node stage %u\n", id,
			       get_u32(tb, BFLY_A_CONFLICTS_COUNT),
			       get_u32(tb, BFLY_A_FIRST_CONFLICT_STAGE));
			break;
		case BFLY_CMD_BATCH_DONE_NTF:
			printf("batch-done bfly%u: %s, %u rounds, %llu cycles, %u conflicts\n",
			       id, latin_name(get_u32(tb, BFLY_A_LATIN)),
			       get_u32(tb, BFLY_A_ROUNDS), get_u64(tb, BFLY_A_CYCLES),
			       get_u32(tb, BFLY_A_CONFLICTS_COUNT));
			break;
		case BFLY_CMD_FAULTS_CHANGED_NTF:
			printf("faults-changed bfly%u: %u fault%s\n", id,
			       get_u32(tb, BFLY_A_FAULTS_COUNT),
			       get_u32(tb, BFLY_A_FAULTS_COUNT) == 1 ? "" : "s");
			break;
		default:
			printf("event %u bfly%u\n", gh->cmd, id);
		}
	}
	fflush(stdout);
	if (events_left > 0 && !--events_left)
		exit(0);
	return NL_OK;
}

static int cmd_monitor(int argc, char **argv)
{
	int grp, ctrl_grp, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] monitor [count N]\n"
		 "Print the family's events as they happen, one line each (with -j one\n"
		 "JSON object per line): created, deleted, matrix-changed, conflicts,\n"
		 "batch-done, faults-changed. With count N, exit after N events. When\n"
		 "the family goes away (rmmod bfly), say so and exit with status 1.\n"))
		return 0;
	if (argc == 2 && !strcmp(argv[0], "count"))
		events_left = parse_u32("count", argv[1]);
	else if (argc)
		die("unexpected argument '%s' (see bflyctl monitor --help)", argv[0]);
	if (!events_left)
		return 0;
	connect_family();
	grp = genl_ctrl_resolve_grp(sk, BFLY_FAMILY_NAME, BFLY_MCGRP_EVENTS);
	if (grp < 0)
		die("multicast group \"%s\" not found", BFLY_MCGRP_EVENTS);
	/* nlctrl's notifications tell when the family goes away */
	ctrl_grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	if (ctrl_grp < 0)
		die("multicast group \"notify\" of nlctrl not found");
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, NULL);
	/* Room for bursts of events; the default is 32 KiB. */
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	err = nl_socket_add_memberships(sk, grp, ctrl_grp, 0);
	if (err < 0)
		die("cannot join the events groups: %s", nl_geterror(err));
	/*
	 * Always said, once the group is joined, as tcpdump says "listening":
	 * a script that starts a monitor in the background waits for this
	 * line before it makes the changes it wants to see.
	 */
	fprintf(stderr, "bflyctl: monitoring bfly events (Ctrl-C to stop)\n");
	for (;;) {
		err = nl_recvmsgs_default(sk);
		/* ENOBUFS: the kernel dropped events; say so and go on. */
		if (err == -NLE_NOMEM)
			fprintf(stderr, "bflyctl: events lost: the receive buffer overflowed\n");
		else if (err < 0 && err != -NLE_INTR)
			die("netlink: %s", nl_geterror(err));
	}
}

/*
 * raw: TYPE:KIND[:VALUE], KIND u8 u16 u32 u64 str flag hex nest; a nest's
 * VALUE is its attributes, TYPE:KIND[:VALUE] each, separated by '+'.
 */
static void put_raw(struct nl_msg *msg, const char *spec)
{
	char *copy = strdup(spec), *kind, *val;
	unsigned int type;
	int err = 0;

	if (!copy)
		die("out of memory");
	kind = strchr(copy, ':');
	if (!kind)
		die("raw attribute '%s': expected TYPE:KIND[:VALUE]", spec);
	*kind++ = 0;
	val = strchr(kind, ':');
	if (val)
		*val++ = 0;
	/* nla_type is 16 bits wide, the flag bits included */
	type = parse_max("attribute type", copy, 0xffff);
	if (!strcmp(kind, "flag")) {
		err = nla_put_flag(msg, type);
	} else if (!strcmp(kind, "nest")) {
		struct nlattr *nest = nla_nest_start(msg, type);
		char *sub, *save = NULL;

		if (!nest)
			die("request too large");
		for (sub = val ? strtok_r(val, "+", &save) : NULL; sub;
		     sub = strtok_r(NULL, "+", &save))
			put_raw(msg, sub);
		nla_nest_end(msg, nest);
	} else if (!val) {
		die("raw attribute '%s': missing VALUE", spec);
	} else if (!strcmp(kind, "u8")) {
		err = nla_put_u8(msg, type, parse_max("u8", val, 0xff));
	} else if (!strcmp(kind, "u16")) {
		err = nla_put_u16(msg, type, parse_max("u16", val, 0xffff));
	} else if (!strcmp(kind, "u32")) {
		err = nla_put_u32(msg, type, parse_u32("u32", val));
	} else if (!strcmp(kind, "u64")) {
		err = nla_put_u64(msg, type, parse_u64("u64", val));
	} else if (!strcmp(kind, "str")) {
		err = nla_put_string(msg, type, val);
	} else if (!strcmp(kind, "hex")) {
		size_t i, n = strlen(val) / 2;
		unsigned char *b;

		if (strlen(val) % 2 || strspn(val, "0123456789abcdefABCDEF") != strlen(val))
			die("hex: '%s' is not pairs of hex digits", val);
		b = xcalloc(n, 1);
		for (i = 0; i < n; i++) {
			char h[3] = { val[2 * i], val[2 * i + 1], 0 };

			b[i] = strtoul(h, NULL, 16);
		}
		err = nla_put(msg, type, n, b);
		free(b);
	} else {
		die("raw attribute '%s': unknown kind '%s'", spec, kind);
	}
	put_or_die(err);
	free(copy);
}

static int print_raw(struct nl_msg *msg, void *arg)
{
	struct nlattr *a;
	int rem;

	(void)arg;
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem)
		printf("attr %d len %d\n", nla_type(a), nla_len(a));
	return NL_OK;
}

static int cmd_raw(int argc, char **argv)
{
	struct nl_msg *msg;
	int cmd, i, err, flags = 0;

	if (help(argc, argv,
		 "usage: bflyctl raw [dump] CMD [TYPE:KIND[:VALUE]]...\n"
		 "Send a request built by hand, for testing the kernel's validation.\n"
		 "CMD is a command name (fabric-get, fabric-new, ...) or number; KIND\n"
		 "is u8, u16, u32, u64, str, flag, hex or nest, whose VALUE is its\n"
		 "attributes joined by '+' (31:nest:1:u32:1+2:u32:0). Prints the type and\n"
		 "length of each reply attribute; errors as every command does.\n"))
		return 0;
	if (argc && !strcmp(argv[0], "dump")) {
		flags = NLM_F_DUMP;
		argc--;
		argv++;
	}
	if (argc < 1)
		die("expected CMD (see bflyctl raw --help)");
	cmd = lookup(cmd_names, ARRAY_SIZE(cmd_names), argv[0]);
	/* The genetlink header's command is 8 bits wide */
	if (cmd < 0)
		cmd = parse_max("command", argv[0], 0xff);
	connect_family();
	msg = new_msg(cmd, flags);
	for (i = 1; i < argc; i++)
		put_raw(msg, argv[i]);
	err = transact(msg, print_raw, NULL);
	if (err)
		die_kernel(err);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "list", cmd_list }, { "show", cmd_show }, { "new", cmd_new },
	{ "del", cmd_del }, { "set", cmd_set }, { "route", cmd_route },
	{ "a2a", cmd_a2a }, { "fault", cmd_fault }, { "stats", cmd_stats },
	{ "monitor", cmd_monitor }, { "raw", cmd_raw },
};

int main(int argc, char **argv)
{
	size_t i;
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-j") || !strcmp(argv[a], "--json")) {
			json = true;
			continue;
		}
		/* As in iproute2, -p only prettifies -j. */
		if (!strcmp(argv[a], "-p") || !strcmp(argv[a], "--pretty")) {
			pretty = true;
			continue;
		}
		if (!strcmp(argv[a], "-jp") || !strcmp(argv[a], "-pj")) {
			json = true;
			pretty = true;
			continue;
		}
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage_main(stdout);
			return 0;
		}
		if (!strcmp(argv[a], "-V") || !strcmp(argv[a], "--version")) {
			print_version(prog);
			return 0;
		}
		fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[a]);
		usage_main(stderr);
		return 2;
	}
	if (a == argc) {
		usage_main(stderr);
		return 2;
	}
	if (!strcmp(argv[a], "help")) {
		usage_main(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[a], commands[i].name)) {
			cmd_name = commands[i].name;
			return commands[i].fn(argc - a - 1, argv + a + 1);
		}
	}
	fprintf(stderr, "%s: unknown command '%s' (see bflyctl --help)\n", prog, argv[a]);
	return 2;
}
