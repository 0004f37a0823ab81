// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ioctl: a valid argument for each ioctl, and the ways it is broken
 * (sizes, fields, pointers) before the call.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "e2e-util.h"
#include "nl-kit.h"
#include "fuzz-ioctl.h"

/* A pointer that is bad in one of several ways, for @len bytes. */
__u64 bad_ptr(size_t len)
{
	switch (rndn(8)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)unmapped + rndn(4096);
	case 2:
		return 0xffffffff81000000ULL + rndn(1 << 20);
	case 3:
		return 0xffff888000000000ULL;
	case 4:
		return 0x8000000000000000ULL + rndn(4096);
	case 5:
		return (uintptr_t)ropage;	/* fine for input, not for output */
	case 6:	/* runs into the guard page after the arena */
		return (uintptr_t)arena + ARENA_PAGES * 4096 - (len > 1 ? len / 2 : 1);
	default:
		return (uintptr_t)arena + 1 + rndn(7);	/* misaligned */
	}
}

/* Arena layout: [0, 4096) the argument; then buffers from 4096 on. */
unsigned char *buf_at;

void *buf(size_t len)
{
	void *p;

	len = (len + 63) & ~63UL;
	if (buf_at + len > arena + ARENA_PAGES * 4096)
		buf_at = arena + 4096;
	p = buf_at;
	buf_at += len;
	return p;
}

__u64 boundary(void)
{
	static const __u64 v[] = {
		0, 1, 2, 7, 8, 63, 64, 4095, 4096, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, ~0ULL,
	};
	__u64 x = v[rndn(ARRAY_SIZE(v))];

	switch (rndn(4)) {
	case 0:
		return info.ports + rndn(3) - 1;
	case 1:
		return rnd();
	default:
		return x;
	}
}

/* Sometimes break a permutation: a repeat or an entry out of range. */
static void maybe_break_perm(__u32 *p)
{
	if (rndn(4))
		return;
	if (rndn(2))
		p[rndn(info.ports)] = p[rndn(info.ports)];
	else
		p[rndn(info.ports)] = info.ports + rndn(3);
}

static void fill_labels(__u64 *lab, __u32 bits)
{
	__u32 i;

	for (i = 0; i < info.ports; i++)
		lab[i] = bits >= 64 ? rnd() : rnd() & ((1ULL << bits) - 1);
	if (!rndn(8))
		lab[rndn(info.ports)] |= 1ULL << (bits + rndn(64 - bits));
}

/* A valid (mostly) argument for @ioc in @a; returns its known size. */
void build(int ioc, void *a)
{
	__u32 n = info.ports, i;

	memset(a, 0, 4096);
	switch (ioc) {
	case IOC_GETM:
	case IOC_SETM: {
		struct bfly_matrix *m = a;
		__u64 *mb = buf(mbytes);

		random_matrix(mb, mbytes, info.switches, &rnd_state);
		if (ioc == IOC_SETM && !rndn(4))
			mb[rndn(mbytes / 8)] |= 1ULL << rndn(64);
		m->matrix_ptr = (uintptr_t)mb;
		m->matrix_bytes = mbytes;
		/* One in four as port maps: 2 x 2 nodes, two bytes each. */
		if (!rndn(4) && info.port_map_bytes == 2 * info.switches) {
			unsigned char *pm = buf(info.port_map_bytes);
			__u64 j;

			for (j = 0; j < info.switches; j++) {
				pm[2 * j] = mb[j / 64] >> (j % 64) & 1;
				pm[2 * j + 1] = !pm[2 * j];
			}
			if (ioc == IOC_SETM && !rndn(4))
				pm[rndn(info.port_map_bytes)] = rndn(2) ? BFLY_PORT_UNSET : rnd();
			m->flags = BFLY_MATRIX_PORT_MAP;
			m->matrix_ptr = (uintptr_t)pm;
			m->matrix_bytes = info.port_map_bytes;
		}
		break;
	}
	case IOC_TRACE: {
		struct bfly_trace *t = a;

		t->ports = n;
		t->perm_ptr = (uintptr_t)buf(n * 4);
		break;
	}
	case IOC_ROUTE: {
		struct bfly_route *r = a;

		r->ports = n;
		r->flags = rndn(2) ? BFLY_ROUTE_DRY_RUN : 0;
		if (rndn(2))
			r->flags |= BFLY_ROUTE_ALLOW_FAULTS;
		if (info.topology == BFLY_TOPO_BFLY2 ||
		    info.topology == BFLY_TOPO_BFLY_TWICE || !rndn(3)) {
			__u64 *lab = buf(n * 8);

			r->flags |= BFLY_ROUTE_LABELS;
			r->label_bits = info.node_stages;
			fill_labels(lab, info.node_stages);
			r->labels_ptr = (uintptr_t)lab;
		} else {
			__u32 *p = buf(n * 4);

			random_perm(p, n, &rnd_state);
			maybe_break_perm(p);
			r->perm_ptr = (uintptr_t)p;
		}
		if (rndn(2)) {
			r->matrix_ptr = (uintptr_t)buf(mbytes);
			r->matrix_bytes = mbytes;
		}
		if (rndn(2)) {
			r->conflicts_max = rndn(2) ? 1 + rndn(4) : 1 + rndn(info.switches);
			r->conflicts_ptr = (uintptr_t)buf(r->conflicts_max *
							  sizeof(struct bfly_conflict));
		}
		if (rndn(2)) {
			__u64 *aff = buf(BFLY_MATRIX_BYTES(n));

			/* stale bits the call must clear */
			for (i = 0; i < BFLY_MATRIX_BYTES(n) / 8; i++)
				aff[i] = rnd();
			r->affected_ptr = (uintptr_t)aff;
		}
		break;
	}
	case IOC_LL: {
		struct bfly_link_load *l = a;

		l->ports = n;
		if (rndn(2)) {
			__u64 *lab = buf(n * 8);

			l->flags = BFLY_ROUTE_LABELS;
			l->label_bits = info.node_stages;
			fill_labels(lab, info.node_stages);
			l->labels_ptr = (uintptr_t)lab;
		}
		if (rndn(2)) {
			__u64 *act = buf(BFLY_MATRIX_BYTES(n));

			for (i = 0; i < BFLY_MATRIX_BYTES(n) / 8; i++)
				act[i] = rnd();
			l->active_ptr = (uintptr_t)act;
		}
		if (rndn(2)) {
			l->load_entries = (__u64)info.node_stages * n;
			l->load_ptr = (uintptr_t)buf(l->load_entries * 4);
		}
		break;
	}
	case IOC_RLS: {
		struct bfly_rls_labels *r = a;

		if (rndn(2)) {
			r->flags = BFLY_RLS_BY_ROTATION;
			r->rotation = rndn(n);
			r->count = n;
		} else {
			r->processor = rndn(n);
			r->rotation = rndn(n);
			r->count = rndn(n - r->rotation + 1);
		}
		r->labels_ptr = (uintptr_t)buf((r->count + 1) * 8);
		break;
	}
	case IOC_BATCH: {
		struct bfly_batch *b = a;
		__u64 msg = rndn(3) ? 8 * rndn(3) : rndn(17);
		__u64 total = (__u64)n * n * msg;
		__u64 *send;
		size_t j;

		b->ports = n;
		b->schedule = rndn(5);
		b->flags = rndn(4) ? 0 : BFLY_BATCH_STRICT;
		b->msg_size = msg;
		b->buf_bytes = total;
		if (total > 8 * 4096)	/* keep to the arena */
			b->msg_size = 0;
		if (total > 8 * 4096)
			b->buf_bytes = 0;
		total = b->buf_bytes;
		send = buf(total + 8);
		for (j = 0; j < total / 8; j++)
			send[j] = rnd();
		b->send_ptr = (uintptr_t)send;
		b->recv_ptr = (uintptr_t)buf(total + 8);
		/* receive slots never written keep this pattern */
		memset((void *)(uintptr_t)b->recv_ptr, RECV_FILL, total + 8);
		if (b->schedule == BFLY_SCHED_SQUARE) {
			__u32 *sq = buf((size_t)n * n * 4);
			__u32 k, s = rndn(n);

			for (i = 0; i < n; i++)
				for (k = 0; k < n; k++)
					sq[i * n + k] = (i + k + s) % n;
			if (!rndn(4))
				sq[rndn(n * n)] = rndn(n + 1);
			b->square_ptr = (uintptr_t)sq;
		}
		if (rndn(2))
			b->done_ptr = (uintptr_t)buf(BFLY_MATRIX_BYTES((__u64)n * n));
		if (rndn(2)) {
			b->conflicts_max = 1 + rndn(8);
			b->conflicts_ptr = (uintptr_t)buf(b->conflicts_max *
							  sizeof(struct bfly_conflict));
		}
		if (rndn(2)) {
			b->affected_max = rndn(4) ? 1 + rndn(2 * n) : n * n;
			b->affected_ptr = (uintptr_t)buf(b->affected_max *
							 sizeof(struct bfly_msg_ref));
		}
		break;
	}
	case IOC_MSGSET:
		build_msgset(a);
		break;
	case IOC_HREL:
		build_hrel(a);
		break;
	default:
		break;
	}
}

/* Offsets of the pointer fields of each argument. */
static const size_t ptr_offs[NIOC][8] = {
	[IOC_GETM] = { offsetof(struct bfly_matrix, matrix_ptr) },
	[IOC_SETM] = { offsetof(struct bfly_matrix, matrix_ptr) },
	[IOC_TRACE] = { offsetof(struct bfly_trace, perm_ptr) },
	[IOC_ROUTE] = { offsetof(struct bfly_route, perm_ptr),
		offsetof(struct bfly_route, labels_ptr),
		offsetof(struct bfly_route, matrix_ptr),
		offsetof(struct bfly_route, conflicts_ptr),
		offsetof(struct bfly_route, affected_ptr) },
	[IOC_LL] = { offsetof(struct bfly_link_load, labels_ptr),
		offsetof(struct bfly_link_load, active_ptr),
		offsetof(struct bfly_link_load, load_ptr) },
	[IOC_RLS] = { offsetof(struct bfly_rls_labels, labels_ptr) },
	[IOC_BATCH] = { offsetof(struct bfly_batch, send_ptr),
		offsetof(struct bfly_batch, recv_ptr),
		offsetof(struct bfly_batch, square_ptr),
		offsetof(struct bfly_batch, done_ptr),
		offsetof(struct bfly_batch, conflicts_ptr),
		offsetof(struct bfly_batch, affected_ptr) },
	[IOC_MSGSET] = { offsetof(struct bfly_msgset, msgs_ptr),
		offsetof(struct bfly_msgset, send_ptr),
		offsetof(struct bfly_msgset, recv_ptr),
		offsetof(struct bfly_msgset, cycle_ptr),
		offsetof(struct bfly_msgset, path_ptr),
		offsetof(struct bfly_msgset, load_ptr) },
	[IOC_HREL] = { offsetof(struct bfly_hrel, msgs_ptr),
		offsetof(struct bfly_hrel, send_ptr),
		offsetof(struct bfly_hrel, recv_ptr),
		offsetof(struct bfly_hrel, round_ptr),
		offsetof(struct bfly_hrel, perm_ptr) },
};

/* Break the argument; returns the size to put in its size field. */
__u32 mutate(int ioc, unsigned char *a)
{
	__u32 ksize = ioc_size[ioc], usize = ksize;
	int nmut = rndn(4), i;
	size_t off, j;

	for (i = 0; i < nmut; i++) {
		switch (rndn(7)) {
		case 0:	/* size */
			switch (rndn(8)) {
			case 0:
				usize = rndn(ioc_ver0[ioc]);
				break;
			case 1:	/* a published size */
				usize = ioc_ver1[ioc] && rndn(2) ? ioc_ver1[ioc] : ioc_ver0[ioc];
				break;
			case 2:	/* newer uapi, zero tail */
				usize = ksize + 8 * (1 + rndn(64));
				break;
			case 3:	/* newer uapi, random tail */
				usize = ksize + 8 * (1 + rndn(64));
				for (j = ksize; j < usize; j++)
					a[j] = rndn(3) ? 0 : rnd();
				break;
			case 4:
				usize = 4096;
				break;
			case 5:	/* past the arena: into the guard page */
				usize = ARENA_PAGES * 4096 + rndn(8192);
				break;
			case 6:	/* between two published sizes */
				if (ioc_ver1[ioc]) {
					usize = ioc_ver0[ioc] +
						rndn(ioc_ver1[ioc] - ioc_ver0[ioc]);
					break;
				}
				usize = boundary();
				break;
			default:
				usize = boundary();
				break;
			}
			break;
		case 1:	/* flags */
			((__u32 *)a)[1] = rndn(2) ? rnd() : 1U << rndn(32);
			break;
		case 2:	/* a random byte anywhere past size and flags */
			a[8 + rndn(ksize - 8)] = rnd();
			break;
		case 3:	/* any 32-bit field */
			off = 8 + 4 * rndn((ksize - 8) / 4);
			*(__u32 *)(a + off) = boundary();
			break;
		case 4:	/* any 64-bit field */
			off = 8 + 8 * rndn((ksize - 8) / 8);
			*(__u64 *)(a + off) = boundary();
			break;
		default:	/* a pointer */
			for (j = 0; j < 8 && ptr_offs[ioc][j]; j++)
				;
			if (j) {
				off = ptr_offs[ioc][rndn(j)];
				*(__u64 *)(a + off) = bad_ptr(64);
			}
			break;
		}
	}
	return usize;
}
