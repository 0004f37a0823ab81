// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ioctl: valid (mostly) arguments for MSGSET and HREL, and the check
 * of an HREL whose argument was not broken: the error it must give for a
 * bad message, or its degree, its rounds (each a partial permutation of
 * the messages) and every payload byte.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/bfly.h>

#include "fuzz-ioctl.h"

/* Messages of a relation at most, and payload bytes of each */
#define REL_MAX 48
#define REL_LEN 64

unsigned long long hrel_checked;

/* The last relation built, as check_hrel() compares with it */
static struct bfly_msgset_msg rel[REL_MAX];
static __u32 rel_count;
static int rel_bad;		/* index of the first bad message, or -1 */
static const unsigned char *rel_send;
static const unsigned char *rel_recv;
static __u32 *rel_round;

/*
 * Messages with random ports; with @payload each has its own slot of
 * REL_LEN bytes in both buffers. Sometimes one is broken: a port out of
 * range, a pad, an odd offset or a slot past the buffer.
 */
static void fill_msgs(struct bfly_msgset_msg *m, __u32 count, int payload)
{
	__u32 n = info.ports, i;

	memset(m, 0, count * sizeof(*m));
	for (i = 0; i < count; i++) {
		m[i].src = rndn(n);
		m[i].dst = rndn(n);
		if (payload) {
			m[i].len = rndn(REL_LEN + 1);
			m[i].send_off = (__u64)i * REL_LEN;
			m[i].recv_off = (__u64)(count - 1 - i) * REL_LEN;
		}
	}
	rel_bad = -1;
	if (rndn(4))
		return;
	i = rndn(count);
	switch (rndn(payload ? 5 : 3)) {
	case 0:
		m[i].src = n + rndn(2);
		break;
	case 1:
		m[i].dst = rndn(2) ? n : ~0U;
		break;
	case 2:
		m[i].pad = 1 + rndn(7);
		break;
	case 3:
		m[i].len = REL_LEN;
		m[i].recv_off = (__u64)count * REL_LEN - REL_LEN / 2;
		break;
	default:
		m[i].len = 8;
		m[i].send_off += 4;
		break;
	}
	rel_bad = i;
}

/* Buffers for @count messages of REL_LEN bytes: random send, patterned recv */
static void payload_bufs(__u32 count, __u64 *send_ptr, __u64 *send_bytes,
			 __u64 *recv_ptr, __u64 *recv_bytes)
{
	size_t bytes = (size_t)count * REL_LEN, j;
	unsigned char *send = buf(bytes), *recv = buf(bytes);

	for (j = 0; j < bytes; j++)
		send[j] = rnd();
	memset(recv, RECV_FILL, bytes);
	*send_ptr = (uintptr_t)send;
	*recv_ptr = (uintptr_t)recv;
	*send_bytes = bytes;
	*recv_bytes = bytes;
	rel_send = send;
	rel_recv = recv;
}

void build_msgset(struct bfly_msgset *s)
{
	__u32 count = 1 + rndn(REL_MAX);
	struct bfly_msgset_msg *m = buf(count * sizeof(*m));
	int payload = rndn(2);

	fill_msgs(m, count, payload);
	s->count = count;
	s->msgs_ptr = (uintptr_t)m;
	s->mode = rndn(3);
	s->strategy = rndn(3);
	s->max_cycles = rndn(2) ? 0 : 1 + rndn(8);
	s->seed = rnd();
	if (payload)
		payload_bufs(count, &s->send_ptr, &s->send_bytes, &s->recv_ptr,
			     &s->recv_bytes);
	if (rndn(2))
		s->cycle_ptr = (uintptr_t)buf(count * 4);
}

void build_hrel(struct bfly_hrel *r)
{
	__u32 count = 1 + rndn(REL_MAX);
	struct bfly_msgset_msg *m = buf(count * sizeof(*m));
	int payload = rndn(2);

	fill_msgs(m, count, payload);
	memcpy(rel, m, count * sizeof(*m));
	rel_count = count;
	rel_send = NULL;
	rel_recv = NULL;
	rel_round = NULL;
	r->count = count;
	r->msgs_ptr = (uintptr_t)m;
	r->seed = rnd();
	if (payload)
		payload_bufs(count, &r->send_ptr, &r->send_bytes, &r->recv_ptr,
			     &r->recv_bytes);
	if (rndn(2)) {
		rel_round = buf(count * 4);
		memset(rel_round, 0xee, count * 4);
		r->round_ptr = (uintptr_t)rel_round;
	}
	if (rndn(2)) {
		/* room for a few rounds, or for every one */
		r->perm_entries = (__u64)info.ports * (rndn(2) ? 1 + rndn(3) : count * 2);
		r->perm_ptr = (uintptr_t)buf(r->perm_entries * 4);
	}
}

/* The relation's degree: the most messages a port sends or receives */
static __u32 rel_degree(void)
{
	static __u32 out[1024], in[1024];
	__u32 i, h = 0;

	memset(out, 0, sizeof(out));
	memset(in, 0, sizeof(in));
	for (i = 0; i < rel_count; i++) {
		if (++out[rel[i].src % 1024] > h)
			h = out[rel[i].src % 1024];
		if (++in[rel[i].dst % 1024] > h)
			h = in[rel[i].dst % 1024];
	}
	return h;
}

/* Each round a partial permutation: no two of its messages share a port */
static int rounds_ok(__u32 rounds)
{
	__u32 i, j;

	for (i = 0; i < rel_count; i++) {
		if (rel_round[i] >= rounds)
			return 0;
		for (j = 0; j < i; j++)
			if (rel_round[j] == rel_round[i] &&
			    (rel[j].src == rel[i].src || rel[j].dst == rel[i].dst))
				return 0;
	}
	return 1;
}

/* Every message's bytes in its slot, the rest of each slot untouched */
static int payload_ok(__u64 moved)
{
	__u64 sum = 0;
	__u32 i, b;

	for (i = 0; i < rel_count; i++) {
		const unsigned char *got = rel_recv + rel[i].recv_off;

		if (memcmp(got, rel_send + rel[i].send_off, rel[i].len))
			return 0;
		for (b = rel[i].len; b < REL_LEN; b++)
			if (got[b] != RECV_FILL)
				return 0;
		sum += rel[i].len;
	}
	return sum == moved;
}

void check_hrel(const struct bfly_hrel *r, __u32 usize, int e)
{
	if (usize != sizeof(*r) || !faults_known)
		return;
	/* a read-only descriptor with payload, or the tight memory limit */
	if (e == EBADF || (tight && (e == ENOMEM || e == E2BIG)))
		return;
	/* faults are refused before the messages are read */
	if (e == EOPNOTSUPP && nfaults)
		return;
	if (rel_bad >= 0) {
		if (e != EINVAL || r->bad_msg != (__u32)rel_bad)
			REPORT("op %llu: HREL: message %d is bad: %s, bad_msg %u",
			       total_ops, rel_bad, e ? strerrorname_np(e) : "success",
			       r->bad_msg);
		return;
	}
	if (e == EINVAL)
		REPORT("op %llu: HREL: a valid relation refused with EINVAL", total_ops);
	if (e == EOPNOTSUPP && !nfaults)
		REPORT("op %llu: HREL: EOPNOTSUPP on a fabric without faults", total_ops);
	if (e)
		return;
	hrel_checked++;
	if (r->h != rel_degree() || r->colours != r->h || r->rounds < r->h)
		REPORT("op %llu: HREL: h %u, colours %u, rounds %u for a relation of degree %u",
		       total_ops, r->h, r->colours, r->rounds, rel_degree());
	if (rel_round && !rounds_ok(r->rounds))
		REPORT("op %llu: HREL: a message's round is out of range or shares a port",
		       total_ops);
	if (rel_recv && !payload_ok(r->bytes_moved))
		REPORT("op %llu: HREL: payload not moved whole to its slot (bytes_moved %llu)",
		       total_ops, (unsigned long long)r->bytes_moved);
}
