// SPDX-License-Identifier: GPL-2.0
/*
 * One round of an h-relation on a fabric of 2 x 2 nodes. A round is a
 * partial permutation: each input sends at most one message and each
 * output receives at most one.
 *
 * The looping algorithm routes whole permutations, so the idle inputs are
 * sent to the idle outputs, both taken in increasing order; their packets
 * carry nothing and route like the others.
 *
 * Self-routing fabrics route labels. A label is the intermediate part of
 * the route followed by the destination's n bits: nothing more on the
 * butterfly; on bfly2 and bfly-twice the node_stages - n bits before the
 * destination choose the first butterfly's output row (the intermediate
 * output I without its last bit on bfly2, all of I on bfly-twice: see
 * schedule.c). The row is random, Valiant's choice, from the caller's
 * sequence, so one seed gives one set of labels.
 *
 * A relation that sends every source to every destination once is the
 * all-to-all exchange: its rounds are then the RLS schedule's (round k
 * sends i to i - k mod N), so that it runs as an all-to-all batch does.
 */
#include "compat.h"
#include "hrel.h"
#include "hrel_round.h"
#include "rand.h"

/**
 * bfly_hrel_complete_workspace_size() - memory bfly_hrel_complete() needs
 * @ports: N
 *
 * Return: bytes: a bitmap of N bits.
 */
size_t bfly_hrel_complete_workspace_size(u32 ports)
{
	return BITS_TO_LONGS(ports) * sizeof(unsigned long);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_complete_workspace_size);

/**
 * bfly_hrel_complete() - a round's partial permutation made whole
 * @ports: N
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @perm: receives N entries: @part with every idle input sent to an idle
 *	output, the i-th idle input to the i-th idle output
 * @work: bfly_hrel_complete_workspace_size() bytes
 *
 * Return: 0; -EINVAL when @part sends to an output of N or more or to one
 * output twice (@perm is then partly written).
 */
int bfly_hrel_complete(u32 ports, const u32 *part, u32 *perm, void *work)
{
	unsigned long *taken = work;
	u32 i, o = 0;

	bitmap_zero(taken, ports);
	for (i = 0; i < ports; i++) {
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		if (part[i] >= ports || __test_and_set_bit(part[i], taken))
			return -EINVAL;
	}
	for (i = 0; i < ports; i++) {
		if (part[i] != BFLY_HREL_IDLE) {
			perm[i] = part[i];
			continue;
		}
		while (test_bit(o, taken))
			o++;
		perm[i] = o++;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_complete);

/**
 * bfly_hrel_labels() - self-routing labels of a round
 * @geo: a butterfly, bfly2 or bfly-twice geometry (N = 2^n)
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @rng: the random sequence's state (bfly_splitmix64()); drawn once per
 *	active input where the route has a middle row to choose
 * @labels: receives N labels; 0 for the idle inputs
 * @active: receives N bits: the inputs that send
 *
 * Return: 0; -EINVAL for an output of N or more.
 */
int bfly_hrel_labels(const struct bfly_geometry *geo, const u32 *part, u64 *rng,
		     u64 *labels, unsigned long *active)
{
	u32 n = geo->ports_log2, mid = geo->node_stages - n, i;
	u64 mask = mid ? (1ULL << mid) - 1 : 0;

	bitmap_zero(active, geo->ports);
	for (i = 0; i < geo->ports; i++) {
		labels[i] = 0;
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		if (part[i] >= geo->ports)
			return -EINVAL;
		__set_bit(i, active);
		labels[i] = part[i];
		if (mid)
			labels[i] |= (bfly_splitmix64(rng) & mask) << n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_labels);

/**
 * bfly_hrel_exchange_workspace_size() - memory bfly_hrel_is_exchange() needs
 * @ports: N
 *
 * Return: bytes: a bitmap of N * N bits.
 */
size_t bfly_hrel_exchange_workspace_size(u32 ports)
{
	return BITS_TO_LONGS((u64)ports * ports) * sizeof(unsigned long);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_exchange_workspace_size);

/**
 * bfly_hrel_is_exchange() - is a relation the all-to-all exchange?
 * @ports: N
 * @count: messages
 * @src: each message's source, below N
 * @dst: each message's destination, below N
 * @work: bfly_hrel_exchange_workspace_size() bytes
 *
 * Return: true when the messages are the N * N pairs, each once.
 */
bool bfly_hrel_is_exchange(u32 ports, u32 count, const u32 *src, const u32 *dst, void *work)
{
	unsigned long *seen = work;
	u32 m;

	if ((u64)count != (u64)ports * ports)
		return false;
	bitmap_zero(seen, (u64)ports * ports);
	for (m = 0; m < count; m++)
		if (__test_and_set_bit((u64)src[m] * ports + dst[m], seen))
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_is_exchange);

/**
 * bfly_hrel_exchange_rounds() - the RLS round of each message of an exchange
 * @ports: N, a power of two
 * @count: messages
 * @src: each message's source
 * @dst: each message's destination
 * @round: receives each message's round k, with @dst = @src - k mod N
 */
void bfly_hrel_exchange_rounds(u32 ports, u32 count, const u32 *src, const u32 *dst,
			       u32 *round)
{
	u32 m;

	for (m = 0; m < count; m++)
		round[m] = (src[m] - dst[m]) & (ports - 1);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_exchange_rounds);

/**
 * bfly_hrel_exchange_listed_order() - the exchange listed in order, by RLS round
 * @ports: N, a power of two
 * @first: receives N + 1 entries: round k holds @order[@first[k]] ..
 *	@order[@first[k + 1] - 1]
 * @order: receives N * N messages: message m is m / N -> m mod N, and
 *	round k holds i -> i - k mod N, i in order
 *
 * The same as bfly_hrel_exchange_rounds() counted into rounds, without the
 * count.
 */
void bfly_hrel_exchange_listed_order(u32 ports, u32 *first, u32 *order)
{
	u32 mask = ports - 1, k, i;

	for (k = 0; k <= ports; k++)
		first[k] = k * ports;
	for (k = 0; k < ports; k++, order += ports)
		for (i = 0; i < ports; i++)
			order[i] = i * ports + ((i - k) & mask);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_exchange_listed_order);

/**
 * bfly_hrel_round() - the partial permutation of one colour
 * @ports: ports on either side
 * @count: messages
 * @src: each message's source
 * @dst: each message's destination
 * @colour: each message's colour (bfly_hrel_colour())
 * @c: the colour (round) wanted
 * @perm: receives per source its destination in round @c, or
 *	%BFLY_HREL_IDLE
 * @msg: receives per source its message in round @c, or %BFLY_HREL_IDLE;
 *	may be NULL
 *
 * Return: the number of messages of colour @c; -EINVAL when two of them
 * share a source or one has an endpoint out of range.
 */
int bfly_hrel_round(u32 ports, u32 count, const u32 *src, const u32 *dst,
		    const u32 *colour, u32 c, u32 *perm, u32 *msg)
{
	u32 i;
	int sent = 0;

	memset(perm, 0xff, (size_t)ports * sizeof(u32));
	if (msg)
		memset(msg, 0xff, (size_t)ports * sizeof(u32));
	for (i = 0; i < count; i++) {
		if (colour[i] != c)
			continue;
		if (src[i] >= ports || dst[i] >= ports ||
		    perm[src[i]] != BFLY_HREL_IDLE)
			return -EINVAL;
		perm[src[i]] = dst[i];
		if (msg)
			msg[src[i]] = i;
		sent++;
	}
	return sent;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_round);
