// SPDX-License-Identifier: GPL-2.0
/*
 * hrel-test's relations: building them (messages, tagged payload, slots),
 * the ioctl's argument, the model of what arrives, and one run of
 * BFLY_IOC_HREL checked against it.
 */
#include <errno.h>

#include "hrel-test.h"

void *xmalloc(size_t bytes)
{
	void *p = aligned_alloc(8, (bytes + 7) / 8 * 8 ?: 8);

	if (!p) {
		fprintf(stderr, "hrel-test: out of memory\n");
		exit(1);
	}
	memset(p, 0, bytes);
	return p;
}

void rel_free(struct rel *r)
{
	free(r->msgs);
	free(r->send);
	free(r->recv);
	free(r->want);
	free(r->round);
	free(r->perms);
	memset(r, 0, sizeof(*r));
}

/* Room for @n messages and their rounds. */
void rel_alloc(struct rel *r, __u32 n)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->msgs = xmalloc((size_t)n * sizeof(*r->msgs));
	r->round = xmalloc((size_t)n * 4);
}

/* The relation's degree: the most messages one processor sends or receives. */
__u32 degree(const struct rel *r)
{
	__u32 *out = xmalloc(info.ports * 4ULL), *in = xmalloc(info.ports * 4ULL), m, h = 0;

	for (m = 0; m < r->n; m++) {
		out[r->msgs[m].src]++;
		in[r->msgs[m].dst]++;
	}
	for (m = 0; m < info.ports; m++) {
		h = out[m] > h ? out[m] : h;
		h = in[m] > h ? in[m] : h;
	}
	free(out);
	free(in);
	return h;
}

/* Byte @k of message @m: never 0xee, the receive buffer's filler. */
__u8 tag(__u32 m, __u32 k)
{
	__u8 t = (m * 37 + k * 11 + (m >> 8) + 1) & 0xff;

	return t == 0xee ? 0x11 : t;
}

/*
 * Payload: message m carries 1 .. @maxlen bytes of its own tags; send
 * slots in message order, receive slots in a shuffled order (disjoint),
 * both 8-byte aligned. The model is the receive buffer once every message
 * landed; bytes no message covers keep 0xee.
 */
void add_payload(struct rel *r, __u32 maxlen, __u64 *seed)
{
	__u32 *slot = xmalloc(r->n * 4ULL), m, k, t;
	__u64 off = 0, *roff = xmalloc(r->n * 8ULL);

	for (m = 0; m < r->n; m++) {
		r->msgs[m].len = 1 + xorshift64(seed) % maxlen;
		r->msgs[m].send_off = off;
		off += (r->msgs[m].len + 7) / 8 * 8;
		r->total += r->msgs[m].len;
		slot[m] = m;
	}
	r->send_bytes = off;
	for (m = r->n - 1; m > 0; m--) {
		k = xorshift64(seed) % (m + 1);
		t = slot[m];
		slot[m] = slot[k];
		slot[k] = t;
	}
	/* The receive slots in the shuffled order after 8 bytes no message's */
	for (off = 8, k = 0; k < r->n; k++) {
		roff[slot[k]] = off;
		off += (r->msgs[slot[k]].len + 7) / 8 * 8;
	}
	r->recv_bytes = off;
	r->send = xmalloc(r->send_bytes);
	r->recv = xmalloc(r->recv_bytes);
	r->want = xmalloc(r->recv_bytes);
	memset(r->want, 0xee, r->recv_bytes);
	for (m = 0; m < r->n; m++) {
		r->msgs[m].recv_off = roff[m];
		for (k = 0; k < r->msgs[m].len; k++) {
			r->send[r->msgs[m].send_off + k] = tag(m, k);
			r->want[roff[m] + k] = tag(m, k);
		}
	}
	free(slot);
	free(roff);
}

/*
 * Payload in an all-to-all batch's layout: every message @size bytes (a
 * multiple of 8) from send slot src * N + dst to receive slot dst * N + src,
 * the send buffer tagged by slot. The model: each receive slot its pair's
 * send slot, or 0xee where no message lands (a pair listed twice carries
 * the same bytes twice).
 */
void add_slots(struct rel *r, __u32 size)
{
	__u64 n = info.ports, k, slot;
	__u32 m;

	r->send_bytes = n * n * size;
	r->recv_bytes = r->send_bytes;
	r->send = xmalloc(r->send_bytes);
	r->recv = xmalloc(r->recv_bytes);
	r->want = xmalloc(r->recv_bytes);
	for (slot = 0; slot < n * n; slot++)
		for (k = 0; k < size; k++)
			r->send[slot * size + k] = tag(slot, k);
	memset(r->want, 0xee, r->recv_bytes);
	for (m = 0; m < r->n; m++) {
		struct bfly_msgset_msg *x = &r->msgs[m];

		x->len = size;
		x->send_off = (x->src * n + x->dst) * size;
		x->recv_off = (x->dst * n + x->src) * size;
		r->total += size;
		memcpy(r->want + x->recv_off, r->send + x->send_off, size);
	}
}

/* The ioctl's argument for @r: every output wanted. */
struct bfly_hrel args(struct rel *r, __u64 seed)
{
	struct bfly_hrel a = {
		.size = sizeof(a), .count = r->n, .seed = seed,
		.msgs_ptr = (uintptr_t)r->msgs, .round_ptr = (uintptr_t)r->round,
	};

	if (r->send) {
		memset(r->recv, 0xee, r->recv_bytes);
		a.send_ptr = (uintptr_t)r->send;
		a.send_bytes = r->send_bytes;
		a.recv_ptr = (uintptr_t)r->recv;
		a.recv_bytes = r->recv_bytes;
	}
	if (r->perms) {
		a.perm_ptr = (uintptr_t)r->perms;
		a.perm_entries = r->perm_entries;
	}
	return a;
}

/* Each round's permutation is a partial permutation holding exactly its messages. */
int perms_agree(const struct rel *r, __u32 rounds)
{
	__u64 entries = (__u64)rounds * info.ports, e;
	__u32 *want = xmalloc(entries * 4), m, bad = 0;
	__u8 *dst_used = xmalloc(entries);

	memset(want, 0xff, entries * 4);
	for (m = 0; m < r->n; m++) {
		__u32 k = r->round[m];
		__u64 at = (__u64)k * info.ports;

		if (k >= rounds || want[at + r->msgs[m].src] != BFLY_HREL_IDLE ||
		    dst_used[at + r->msgs[m].dst]++) {
			bad++;
			continue;
		}
		want[at + r->msgs[m].src] = r->msgs[m].dst;
	}
	for (e = 0; e < entries; e++)
		bad += want[e] != r->perms[e];
	free(want);
	free(dst_used);
	return bad;
}

/*
 * Run @r with payload, then again with the round permutations: the same
 * result; check everything. Returns the rounds (0 on failure).
 */
__u32 run_check(struct rel *r, __u64 seed, const char *what)
{
	struct bfly_hrel a = args(r, seed), b;
	__u32 *first = xmalloc(r->n * 4ULL), h = degree(r);
	int ok, res = ioctl(fd, BFLY_IOC_HREL, &a);

	tap_check(res == 0, "%s: HREL (%s)", what, res ? strerrorname_np(errno) : "0");
	if (res)
		goto out;
	tap_check(a.h == h && a.colours == h, "%s: h %u (want %u), %u colours", what, a.h, h,
		  a.colours);
	if (info.topology == BFLY_TOPO_BENES || info.topology == BFLY_TOPO_FLATFLY)
		tap_check(a.rounds == h && (a.cycles >= a.rounds || !a.rounds),
			  "%s: benes and flatfly: rounds %u == h, %llu cycles", what, a.rounds,
			  (unsigned long long)a.cycles);
	else
		tap_check(a.rounds >= h && a.cycles >= a.rounds,
			  "%s: rounds %u >= h %u (%u extra), %llu cycles", what, a.rounds, h,
			  a.rounds - h, (unsigned long long)a.cycles);
	if (r->send)
		tap_check(a.bytes_moved == r->total && !memcmp(r->recv, r->want, r->recv_bytes),
			  "%s: payload byte-exact: %llu of %llu bytes", what,
			  (unsigned long long)a.bytes_moved, (unsigned long long)r->total);
	/* Again with room for every round's permutation: one seed, one result */
	memcpy(first, r->round, r->n * 4ULL);
	r->perm_entries = (__u64)a.rounds * info.ports;
	r->perms = xmalloc(r->perm_entries * 4);
	b = args(r, seed);
	res = ioctl(fd, BFLY_IOC_HREL, &b);
	ok = !res && b.rounds == a.rounds && b.cycles == a.cycles &&
	     b.bytes_moved == a.bytes_moved && !memcmp(first, r->round, r->n * 4ULL) &&
	     (!r->send || !memcmp(r->recv, r->want, r->recv_bytes));
	tap_check(ok, "%s: again with the permutations: the same rounds, cycles and payload",
		  what);
	if (ok)
		tap_check(!perms_agree(r, a.rounds),
			  "%s: each round a partial permutation of exactly its messages", what);
	free(r->perms);
	r->perms = NULL;
out:
	free(first);
	return res ? 0 : a.rounds;
}

/* The union of @h random permutations (h exactly @h). */
void union_of_perms(struct rel *r, __u32 h, __u64 *seed)
{
	__u32 *p = xmalloc(info.ports * 4ULL), i, j, m = 0;

	rel_alloc(r, h * info.ports);
	for (j = 0; j < h; j++) {
		random_perm(p, info.ports, seed);
		for (i = 0; i < info.ports; i++, m++) {
			r->msgs[m].src = i;
			r->msgs[m].dst = p[i];
		}
	}
	free(p);
}

/* Does the fabric run the all-to-all exchange in the batch's RLS rounds? */
int runs_exchange(void)
{
	return info.topology == BFLY_TOPO_BENES || info.topology == BFLY_TOPO_BUTTERFLY ||
	       info.topology == BFLY_TOPO_BFLY2 || info.topology == BFLY_TOPO_BFLY_TWICE;
}
