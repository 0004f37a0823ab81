// SPDX-License-Identifier: GPL-2.0
/*
 * The messages of an h-relation request, read and checked (hrel.c and
 * hrel_mbfly.c call these): each message in turn, so that the first bad
 * one is named, and in the same pass whether the list is the all-to-all
 * exchange in order with its payload in a batch's slots.
 */
#include "hrel.h"
#include "msglist.h"

/*
 * How many of @msgs, from the first, list the all-to-all exchange in order
 * (message m is m / N -> m mod N) with payload in a batch's layout of
 * @size bytes (a multiple of 8) that fits both buffers, their sources and
 * destinations written to @res: no message of them is refused. The
 * general checks go on from there; this loop keeps only their compares.
 */
static u32 bfly_hrel_listed_slots(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
				  const struct bfly_msgset_msg *msgs, u64 size)
{
	const struct bfly_msglist_bufs *b = &req->bufs;
	u32 ports = res->ports, i, d, m = 0;
	u64 all = (u64)ports * ports, soff = 0, roff, rstep = ports * size;

	if (req->count != all || !size || size % 8 || !b->send || !b->recv ||
	    b->send_bytes / size < all || b->recv_bytes / size < all)
		return 0;
	for (i = 0; i < ports; i++) {
		roff = i * size;
		for (d = 0; d < ports; d++, m++, soff += size, roff += rstep) {
			const struct bfly_msgset_msg *x = &msgs[m];

			if (x->src != i || x->dst != d || x->pad || x->len != size ||
			    x->send_off != soff || x->recv_off != roff)
				return m;
			res->src[m] = i;
			res->dst[m] = d;
		}
	}
	return m;
}

/**
 * bfly_hrel_check_msgs() - check an h-relation's messages
 * @req: the request: its @count and payload buffers
 * @res: receives each message's source and destination (@res->src,
 *	@res->dst), whether they list the all-to-all exchange in order
 *	(@res->listed_a2a) and whether their payload lies in a batch's layout
 *	(@res->slot_size), or the first bad message (@res->bad_msg,
 *	@res->why); @res->ports is the fabric's
 * @msgs: the @req->count messages
 * @payload: receives whether any message carries payload
 *
 * Each message is checked in turn, so that the first bad one is named.
 * The same pass compares message m with the pair m / N -> m mod N, and its
 * offsets with the slots of a batch of the first message's length; the
 * list in order in those slots (the batch's exchange as a list) is first
 * checked by compares alone.
 *
 * Return: 0, or -EINVAL for a bad message.
 */
int bfly_hrel_check_msgs(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			 const struct bfly_msgset_msg *msgs, bool *payload)
{
	u32 m, i = 0, d = 0, ports = res->ports;
	bool listed = (u64)req->count == (u64)ports * ports, slots;
	u64 size;

	size = msgs[0].len;
	slots = size != 0;
	m = bfly_hrel_listed_slots(req, res, msgs, size);
	*payload = m != 0;
	i = m / ports;
	d = m % ports;
	res->has_bad_msg = true;
	for (; m < req->count; m++) {
		const struct bfly_msgset_msg *x = &msgs[m];

		res->bad_msg = m;
		if (x->src >= ports || x->dst >= ports) {
			res->why = "a message's source or destination is no port of the fabric";
			return -EINVAL;
		}
		if (x->pad) {
			res->why = "a message's pad is not zero";
			return -EINVAL;
		}
		if (x->len) {
			res->why = bfly_msglist_payload_check(&req->bufs, x);
			if (res->why)
				return -EINVAL;
			*payload = true;
		}
		res->src[m] = x->src;
		res->dst[m] = x->dst;
		listed &= (x->src == i) & (x->dst == d);
		slots &= bfly_msglist_in_slots(x, ports, size);
		if (++d == ports) {
			d = 0;
			i++;
		}
	}
	res->listed_a2a = listed;
	res->slot_size = slots ? size : 0;
	res->has_bad_msg = false;
	res->bad_msg = 0;
	return 0;
}

/**
 * bfly_hrel_read_msgs() - read an h-relation's messages and check them
 * @req: the request: its @read_msgs, @count and payload buffers
 * @res: as for bfly_hrel_check_msgs()
 * @msgs: receives the @req->count messages
 * @payload: receives whether any message carries payload
 *
 * Return: 0, -EINVAL for a bad message, or @req->read_msgs()'s error.
 */
int bfly_hrel_read_msgs(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			struct bfly_msgset_msg *msgs, bool *payload)
{
	int err;

	err = req->read_msgs(req->ctx, msgs, 0, req->count);
	return err ?: bfly_hrel_check_msgs(req, res, msgs, payload);
}
