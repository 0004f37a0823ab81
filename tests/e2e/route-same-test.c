// SPDX-License-Identifier: GPL-2.0
/*
 * The same route request through the ioctl and through netlink gets the
 * same answer: errno, method, conflicts (count, first stage, list),
 * faults, affected packets, stuck nodes unmet, and whether the matrix
 * changed, each in one call.
 *
 *   route-same-test DEV           compare the two interfaces on DEV
 *   route-same-test DEV unpriv    without CAP_NET_ADMIN: a netlink dry run
 *                                 is answered, an applying route is EPERM
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "nl-kit.h"
#include "tap.h"

#define CONFLICTS 64

/* What one route answered, on either interface. */
struct answer {
	int err;		/* 0 or a positive errno */
	bool reported;		/* the report came with the answer */
	bool applied;
	__u32 method, conflicts, first_stage, listed, faults, stuck_unmet;
	__u64 affected, generation;
	struct bfly_conflict list[CONFLICTS];
	char extack[256];
};

static struct bfly_info info;

static void route_ioctl(int fd, const __u32 *perm, bool dry_run,
			bool allow_faults, struct answer *a)
{
	struct bfly_route r = {
		.size = sizeof(r),
		.flags = (dry_run ? BFLY_ROUTE_DRY_RUN : 0) |
			 (allow_faults ? BFLY_ROUTE_ALLOW_FAULTS : 0),
		.ports = info.ports,
		.perm_ptr = (__u64)(unsigned long)perm,
		.conflicts_ptr = (__u64)(unsigned long)a->list,
		.conflicts_max = CONFLICTS,
	};
	memset(a, 0, sizeof(*a));
	a->err = ioctl(fd, BFLY_IOC_ROUTE, &r) ? errno : 0;
	a->reported = !a->err || a->err == EBUSY || a->err == EHOSTUNREACH;
	a->method = r.method;
	a->conflicts = r.conflicts_count;
	a->first_stage = r.first_conflict_stage;
	a->listed = r.conflicts_count < CONFLICTS ? r.conflicts_count : CONFLICTS;
	a->faults = r.faults;
	a->affected = r.affected_count;
	a->stuck_unmet = r.stuck_unmet;
	a->generation = r.generation;
	/* The ioctl says "applied" by succeeding without a dry run. */
	a->applied = !a->err && !dry_run;
}

/* Read one conflict nest into @c. */
static void conflict_nest(struct nlattr *nest, struct bfly_conflict *c)
{
	void *end = (__u8 *)nest + nest->nla_len;
	struct nlattr *a;

	for (a = (struct nlattr *)((__u8 *)nest + NLA_HDRLEN); attr_ok(a, end);
	     a = attr_next(a)) {
		__u32 v = attr_u64(a);

		switch (a->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_CONFLICT_STAGE:
			c->stage = v;
			break;
		case BFLY_A_CONFLICT_NODE:
			c->node = v;
			break;
		case BFLY_A_CONFLICT_INPUT0:
			c->input[0] = v;
			break;
		case BFLY_A_CONFLICT_INPUT1:
			c->input[1] = v;
			break;
		}
	}
}

static void route_reply(struct nlmsghdr *h, struct answer *a)
{
	struct nlattr *at;
	void *end;

	a->reported = true;
	for (at = genl_attrs(h, &end); attr_ok(at, end); at = attr_next(at)) {
		__u64 v = attr_u64(at);

		switch (at->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_METHOD:
			a->method = v;
			break;
		case BFLY_A_CONFLICTS_COUNT:
			a->conflicts = v;
			break;
		case BFLY_A_FIRST_CONFLICT_STAGE:
			a->first_stage = v;
			break;
		case BFLY_A_FAULTS_COUNT:
			a->faults = v;
			break;
		case BFLY_A_AFFECTED_COUNT:
			a->affected = v;
			break;
		case BFLY_A_STUCK_UNMET:
			a->stuck_unmet = v;
			break;
		case BFLY_A_GENERATION:
			a->generation = v;
			break;
		case BFLY_A_APPLIED:
			a->applied = *((__u8 *)at + NLA_HDRLEN);
			break;
		case BFLY_A_CONFLICT:
			if (a->listed < CONFLICTS)
				conflict_nest(at, &a->list[a->listed++]);
			break;
		}
	}
}

/* The error of an NLMSG_ERROR message and its extack message. */
static void route_error(struct nlmsghdr *h, struct answer *a)
{
	const char *msg = ext_msg(h);

	a->err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	if (msg)
		snprintf(a->extack, sizeof(a->extack), "%s", msg);
}

/* One netlink request, read to its final NLMSG_ERROR; false on no answer. */
static bool route_netlink(const __u32 *perm, bool dry_run, bool allow_faults,
			  struct answer *a)
{
	bool done = false;
	int replies = 0;

	memset(a, 0, sizeof(*a));
	msg_start(family, NLM_F_ACK, BFLY_CMD_ROUTE);
	put_u32(BFLY_A_ID, info.id);
	put(BFLY_A_PERM, perm, info.ports * sizeof(*perm));
	if (dry_run)
		put(BFLY_A_DRY_RUN, NULL, 0);
	if (allow_faults)
		put(BFLY_A_ALLOW_FAULTS, NULL, 0);
	if (nl_send())
		return false;
	while (!done) {
		ssize_t n = nl_recv(sizeof(rx.b));
		struct nlmsghdr *h;

		if (n <= 0)
			return false;
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				route_error(h, a);
				done = true;
			} else if (h->nlmsg_type == family) {
				route_reply(h, a);
				replies++;
			}
		}
	}
	return replies <= 1;
}

/* The two answers match in everything but the generation. */
static void agree(const char *what, const struct answer *io,
		  const struct answer *nl, int want_err)
{
	tap_check(io->err == want_err && nl->err == want_err,
		  "%s: errno %s on both (ioctl %d, netlink %d)", what,
		  want_err ? strerrorname_np(want_err) : "0", io->err, nl->err);
	tap_check(io->reported && nl->reported,
		  "%s: the report comes with the answer on both", what);
	tap_check(io->method == nl->method && io->conflicts == nl->conflicts &&
		  io->first_stage == nl->first_stage && io->listed == nl->listed &&
		  !memcmp(io->list, nl->list, io->listed * sizeof(io->list[0])),
		  "%s: same method and conflicts (%u, listed %u; netlink %u, listed %u)",
		  what, io->conflicts, io->listed, nl->conflicts, nl->listed);
	tap_check(io->faults == nl->faults && io->affected == nl->affected &&
		  io->stuck_unmet == nl->stuck_unmet,
		  "%s: same fault report (faults %u, affected %llu, stuck unmet %u)",
		  what, nl->faults, (unsigned long long)nl->affected, nl->stuck_unmet);
	tap_check(io->applied == nl->applied,
		  "%s: both %s the matrix", what, nl->applied ? "replace" : "keep");
	if (want_err)
		tap_check(nl->extack[0], "%s: netlink says why: %s", what, nl->extack);
}

static void identity(__u32 *p)
{
	__u32 i;

	for (i = 0; i < info.ports; i++)
		p[i] = i;
}

/*
 * A permutation whose dry run on the ioctl answers @want; false if none.
 * A routable one is where a random matrix sends the packets.
 */
static bool find_perm(int fd, __u32 *p, int want, __u64 *rng)
{
	size_t mbytes = (info.switches + 63) / 64 * 8;
	__u64 *m = calloc(1, mbytes), gen;
	struct answer a;
	int i;

	for (i = 0; i < 2000; i++) {
		if (want) {
			random_perm(p, info.ports, rng);
		} else {
			random_matrix(m, mbytes, info.switches, rng);
			if (set_matrix(fd, m, mbytes) || trace(fd, p, info.ports, &gen))
				break;
		}
		route_ioctl(fd, p, true, false, &a);
		if (a.err == want) {
			free(m);
			return true;
		}
	}
	free(m);
	return false;
}

static void compare(int fd)
{
	struct answer io, nl;
	__u64 rng = 7;
	__u32 *p = calloc(info.ports, sizeof(*p));

	if (find_perm(fd, p, 0, &rng)) {
		route_ioctl(fd, p, true, false, &io);
		tap_check(route_netlink(p, true, false, &nl), "dry run: one reply, one ack");
		agree("dry run", &io, &nl, 0);

		route_ioctl(fd, p, false, false, &io);
		tap_check(route_netlink(p, false, false, &nl), "applied: one reply, one ack");
		agree("applied route", &io, &nl, 0);
		tap_check(nl.generation == io.generation + 1,
			  "applied route: each changes the generation once (%llu, %llu)",
			  (unsigned long long)io.generation,
			  (unsigned long long)nl.generation);
	} else {
		tap_check(0, "applied route: a routable permutation exists");
	}

	if (info.topology == BFLY_TOPO_BUTTERFLY) {
		if (find_perm(fd, p, EBUSY, &rng)) {
			route_ioctl(fd, p, false, false, &io);
			tap_check(route_netlink(p, false, false, &nl),
				  "conflicts: one reply, then the error");
			agree("refused for conflicts", &io, &nl, EBUSY);
			route_ioctl(fd, p, true, false, &io);
			route_netlink(p, true, false, &nl);
			agree("dry run with conflicts", &io, &nl, EBUSY);
		} else {
			tap_check(0, "conflicts: a conflicting permutation exists");
		}
	}
	free(p);
}

/* The fabric has faults (the script added them): a hit is refused alike. */
static void compare_faults(int fd)
{
	struct answer io, nl;
	__u64 rng = 11;
	__u32 *p = calloc(info.ports, sizeof(*p));

	if (find_perm(fd, p, EHOSTUNREACH, &rng)) {
		route_ioctl(fd, p, false, false, &io);
		tap_check(route_netlink(p, false, false, &nl),
			  "faults: one reply, then the error");
		agree("refused for faults", &io, &nl, EHOSTUNREACH);
		route_ioctl(fd, p, false, true, &io);
		route_netlink(p, false, true, &nl);
		agree("faults allowed", &io, &nl, 0);
	} else {
		tap_check(0, "faults: a permutation a fault hits exists");
	}
	free(p);
}

static void unprivileged(void)
{
	struct answer nl;
	__u32 *p = calloc(info.ports, sizeof(*p));

	bool answered;

	identity(p);
	answered = route_netlink(p, true, false, &nl);
	tap_check(answered && (nl.err == 0 || nl.err == EBUSY) && nl.reported &&
		  !nl.applied,
		  "no CAP_NET_ADMIN: a dry run is answered with its report (errno %d)",
		  nl.err);
	answered = route_netlink(p, false, false, &nl);
	tap_check(answered && nl.err == EPERM && !nl.reported && nl.extack[0],
		  "no CAP_NET_ADMIN: an applying route is EPERM, no report (errno %d: %s)",
		  nl.err, nl.extack);
	free(p);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[2] : "compare";
	int one = 1, fd;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEV [compare|faults|unpriv]\n", argv[0]);
		return 2;
	}
	tap_check(nl_open() == 0, "netlink: family bfly resolved");
	setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (!strcmp(mode, "unpriv")) {
		/* The id and size, from the fabric's sysfs attributes. */
		FILE *f = fopen(argv[1], "r");

		if (!f || fscanf(f, "%u %u", &info.id, &info.ports) != 2) {
			tap_check(0, "read %s", argv[1]);
			return 1;
		}
		fclose(f);
		unprivileged();
		return tap_failed ? 1 : 0;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0) {
		tap_check(0, "open %s", argv[1]);
		return 1;
	}
	if (!strcmp(mode, "faults"))
		compare_faults(fd);
	else
		compare(fd);
	close(fd);
	return tap_failed ? 1 : 0;
}
