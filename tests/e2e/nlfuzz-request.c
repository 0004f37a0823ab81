// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: a valid-looking request for a command, and the mutations applied
 * to it before it is sent.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "nlfuzz.h"

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
void build(int cmd, bool *dump)
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
	case BFLY_CMD_MSGSET: {
		__u32 pairs[2 * 16];

		put_u32(BFLY_A_ID, pick_id());
		mb = rn(4) ? 1 + rn(16) : 0;
		for (i = 0; i < 2 * mb; i++)
			pairs[i] = rn(8) ? rn(64) : (__u32)rnd();
		if (rn(8))
			put(BFLY_A_MSGS, pairs, mb * 8 - (mb && !rn(16) ? 3 : 0));
		if (rn(2))
			put_u32(BFLY_A_MODE, rn(8) ? rn(2) : (__u32)rnd());
		if (rn(2))
			put_u32(BFLY_A_STRATEGY, rn(8) ? rn(2) : (__u32)rnd());
		break;
	}
	case BFLY_CMD_HREL: {
		__u32 pairs[2 * 16];

		put_u32(BFLY_A_ID, pick_id());
		mb = rn(4) ? 1 + rn(16) : 0;
		for (i = 0; i < 2 * mb; i++)
			pairs[i] = rn(8) ? rn(64) : (__u32)rnd();
		if (rn(8))
			put(BFLY_A_MSGS, pairs, mb * 8 - (mb && !rn(16) ? 3 : 0));
		if (rn(2))
			put(BFLY_A_SEED, &(__u64){ rnd() }, 8);
		if (rn(2))
			put(BFLY_A_WANT_ROUND_PERMS, NULL, 0);
		break;
	}
	default:
		for (i = rn(4); i > 0; i--)
			put_u32(rn(BFLY_A_MAX + 2), rnd());
	}
}

/* Offsets of the top-level attributes of tx. */
size_t attr_off[4096];

int attrs(void)
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
int mutate(__u16 *flags, size_t *send_len, int *mkind)
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
