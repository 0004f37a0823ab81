// SPDX-License-Identifier: GPL-2.0
/*
 * The whole all-to-all exchange on a k-ary n-flat (Documentation/
 * routing.rst): the fewest cycles any schedule takes, and the systolic
 * schedule, which comes within a few cycles of it.
 *
 * A cycle carries one packet on each directed channel between routers,
 * one injection per terminal and one ejection per terminal; a packet
 * crosses one channel a cycle and is ejected after its last hop.
 *
 * The systolic schedule is a Latin square whose rounds enter the network
 * one a cycle. Terminal i sits on router r = i / k as local port
 * a = i mod k; round s sends it to the terminal whose local digit is
 * a + s_0 and whose router digit b is r_b + s_(b+1) + a, all mod k.
 * Round s is injected in cycle s + 1; its packets cross router digit b,
 * the top one first, in cycle s + 1 + dims - b (a packet whose route
 * keeps that digit waits in its router), and are ejected in cycle
 * s + dims + 2. Packets of different rounds in one cycle cross different
 * digits, so they never share a channel; packets of one round that cross
 * digit b on the same channel would have the same delta r_b + s_(b+1) + a
 * there, hence the same a, hence the same router: the same packet.
 */
#include "compat.h"
#include "flatfly.h"

/**
 * bfly_flatfly_exchange_bound() - fewest cycles for the whole exchange
 * @f: the shape
 *
 * Minimal routes take N * channels hops in all (each directed channel
 * carries N packets). In cycle t of C a channel hop needs a packet
 * injected before, at most N (t - 1), and one ejected after, at most
 * N (C - t); so the first and last cycles of hops lose
 * sum_j max(0, channels - N j) hops each, and C is the least with
 * channels (C - 2) - 2 * that loss >= N * channels.
 *
 * Return: the bound; N + 2 when channels <= N.
 */
u64 bfly_flatfly_exchange_bound(const struct bfly_flatfly *f)
{
	u64 n = f->fly.ports, ch = f->channels, lost = 0, extra = 0, j;

	for (j = 1; n * j < ch; j++)
		lost += ch - n * j;
	while (extra * ch < 2 * lost)
		extra++;
	return n + 2 + extra;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_exchange_bound);

/**
 * bfly_flatfly_systolic_dest() - where round @s of the systolic schedule
 *	sends terminal @i
 * @f: the shape
 * @i: a terminal
 * @s: a round, 0 .. N-1
 *
 * Return: the terminal whose local digit is that of @i plus s_0 and whose
 * router digit b is that of @i plus s_(b+1) plus @i's local digit, mod k.
 */
u32 bfly_flatfly_systolic_dest(const struct bfly_flatfly *f, u32 i, u32 s)
{
	u32 k = f->fly.k, a = i % k, j, dest;

	/* radix 2: digit-wise sums are XOR */
	if (k == 2)
		return i ^ s ^ (a ? f->fly.ports - 2 : 0);
	dest = (a + s % k) % k;
	for (j = 1; j < f->fly.n; j++)
		dest += (bfly_flatfly_digit(f, i, j) + bfly_flatfly_digit(f, s, j) + a) % k *
			f->fly.pow[j];
	return dest;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_systolic_dest);

/**
 * bfly_flatfly_systolic_workspace_size() - memory a systolic round needs
 * @f: the shape
 *
 * Return: bytes: one u32 per channel.
 */
size_t bfly_flatfly_systolic_workspace_size(const struct bfly_flatfly *f)
{
	return (size_t)f->channels * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_systolic_workspace_size);

/**
 * bfly_flatfly_systolic_round() - one round of the systolic schedule
 * @f: the shape
 * @s: the round, 0 .. N-1
 * @dest: receives N destinations, a permutation of the terminals
 * @st: receives the round's figures: @st->cycles is dims + 2, from its
 *	injection to its ejection
 * @work: bfly_flatfly_systolic_workspace_size() bytes
 *
 * The round's packets take minimal dimension-order routes; their loads
 * are counted, not assumed: @st->max_load is 1 and @st->excess 0.
 *
 * Return: 0, or -EINVAL for a round past N - 1.
 */
int bfly_flatfly_systolic_round(const struct bfly_flatfly *f, u32 s, u32 *dest,
				struct bfly_flatfly_round_stats *st, void *work)
{
	u32 path[BFLY_MAX_PORTS_LOG2], *load = work, i, h, len, ch;

	if (s >= f->fly.ports)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	memset(load, 0, f->channels * sizeof(u32));
	for (i = 0; i < f->fly.ports; i++) {
		dest[i] = bfly_flatfly_systolic_dest(f, i, s);
		len = bfly_flatfly_dor_path(f, bfly_flatfly_router(f, i),
					    bfly_flatfly_router(f, dest[i]), path);
		st->hops += len;
		for (h = 0; h < len; h++) {
			ch = path[h];
			if (++load[ch] > 1)
				st->excess++;
			if (load[ch] > st->max_load)
				st->max_load = load[ch];
		}
	}
	st->cycles = f->dims + 2;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_systolic_round);

/**
 * bfly_flatfly_systolic_cycles() - cycles of the first rounds, pipelined
 * @f: the shape
 * @rounds: how many rounds ran, from round 0
 *
 * Return: @rounds - 1 + dims + 2, the ejection cycle of the last round;
 * 0 for no round. The whole exchange takes N + dims + 1.
 */
u64 bfly_flatfly_systolic_cycles(const struct bfly_flatfly *f, u32 rounds)
{
	return rounds ? (u64)rounds + f->dims + 1 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_systolic_cycles);
