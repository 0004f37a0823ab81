// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: the fabrics as a fabric-get dump shows them (descriptions,
 * matrices, faults), and the check of every fabric's faults after a
 * request against what the request asked.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "nlfuzz.h"

struct fabric fab[64], fab_prev[64];
int n_fab, n_prev;
__u8 snap[SNAP_MAX], snap2[SNAP_MAX];
size_t snap_len;
static struct fabric dump_fab[64];
static int n_dump;

/* A fault nest; false when it lacks kind, stage or index. */
bool parse_fault(struct nlattr *nest, struct fault *x)
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

bool same_place(const struct fault *a, const struct fault *b)
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
long dump_state(__u8 *out, size_t max)
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

int snapshot(void)
{
	long l = dump_state(snap, sizeof(snap));

	if (l < 0)
		return -1;
	snap_len = l;
	return 0;
}

static const struct fabric *find(const struct fabric *v, int n, __u32 id)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/*
 * Parse the request sent (before anything else overwrites tx) as the
 * kernel does: the last of duplicate attributes counts.
 */
void request_faults(struct fault_req *r)
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
void check_faults(int cmd, const struct fault_req *r)
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
