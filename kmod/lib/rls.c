// SPDX-License-Identifier: GPL-2.0
/*
 * RLS all-to-all labels (RLS paper, Sections IV-V, Algorithm 1).
 *
 * N = 2^n processors; in rotation k (k = 0 .. N - 1, k = 0 the identity)
 * processor i sends to d = (i - k) mod N. On the Butterfly-Butterfly the
 * message self-routes with the (2n - 1)-bit label
 *
 *	label = I (n bits) followed by d without its leftmost bit (n - 1 bits)
 *
 * used most significant first, one bit per node stage 0 .. 2n - 2, where I,
 * the intermediate destination reached at the middle node stage n - 1, is
 *
 *	I = pihat((i - k) mod N)               for even k,
 *	I = pihat((N/2 - i + k - 1) mod N)     for odd k.
 *
 * The last bit of I always equals the leftmost bit of d, so the shared
 * middle node stage uses one bit for both.
 *
 * pi-hat (Section IV-A) sends even inputs to the upper half and odd inputs
 * to the lower half of the outputs: an even input of the upper half and an
 * odd input of the lower half stay where they are, the other inputs x go
 * to N - 1 - x, the n-bit complement of x. So with x_0 the lowest and
 * x_(n-1) the highest bit of x:
 *
 *	pihat(x) = x                    if x_0 == x_(n-1),
 *	pihat(x) = x XOR (N - 1)        otherwise,
 *
 * a branch-free mask and one XOR (bfly_rls_pihat()). pi-hat is its own
 * inverse (complementing x complements both bits, so their equality is
 * kept) and, for N = 16, is 0 14 2 12 4 10 6 8 7 9 5 11 3 13 1 15.
 *
 * For a whole rotation the argument of pi-hat moves by +1 (even k) or -1
 * (odd k) with i, so bfly_rls_labels_round() needs per label a subtraction,
 * a few shifts, masks and XORs, and no table: nothing is stored between
 * rounds, as the paper intends.
 */
#include "compat.h"
#include "geometry.h"
#include "rls.h"

/* n = log2(@ports) for a valid port count, else -EINVAL */
static int rls_log2(u32 ports)
{
	if (ports < 2 || ports > (1U << BFLY_MAX_PORTS_LOG2) ||
	    (ports & (ports - 1)))
		return -EINVAL;
	return __builtin_ctz(ports);
}

/* I and d of rotation @k for processor @i; @n >= 1, @i and @k below 2^n */
static __always_inline u64 rls_label(u32 n, u32 i, u32 k)
{
	u32 mask = (1U << n) - 1, half = 1U << (n - 1);
	u32 d = (i - k) & mask;
	u32 x = (k & 1) ? (half - i + k - 1) & mask : d;

	return ((u64)bfly_rls_pihat(n, x) << (n - 1)) | (d & (half - 1));
}

/**
 * bfly_rls_intermediate() - the intermediate destination I of Algorithm 1
 * @ports: N, a power of two from 2 to 2^%BFLY_MAX_PORTS_LOG2 (not checked)
 * @i: the processor, below @ports
 * @k: the rotation, below @ports; 0 is the identity
 *
 * Return: I = pihat((i - k) mod N) for even @k, pihat((N/2 - i + k - 1)
 * mod N) for odd @k: the output of the first butterfly (node stage n - 1)
 * that processor @i's message reaches in rotation @k.
 */
u32 bfly_rls_intermediate(u32 ports, u32 i, u32 k)
{
	u32 n = __builtin_ctz(ports), mask = ports - 1;
	u32 x = (k & 1) ? (ports / 2 - i + k - 1) & mask : (i - k) & mask;

	return bfly_rls_pihat(n, x);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_rls_intermediate);

/**
 * bfly_rls_label() - one RLS label (Algorithm 1)
 * @ports: N, a power of two from 2 to 2^%BFLY_MAX_PORTS_LOG2 (not checked)
 * @i: the processor, below @ports
 * @k: the rotation, below @ports; 0 is the identity
 *
 * Return: the (2n - 1)-bit label of processor @i in rotation @k: the n bits
 * of bfly_rls_intermediate() followed by the low n - 1 bits of the
 * destination (i - k) mod N. Node stage j of the Butterfly-Butterfly uses
 * bit 2n - 2 - j.
 */
u64 bfly_rls_label(u32 ports, u32 i, u32 k)
{
	return rls_label(__builtin_ctz(ports), i, k);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_rls_label);

/**
 * bfly_rls_labels_proc() - one processor's labels for a range of rotations
 * @ports: N, a power of two from 2 to 2^%BFLY_MAX_PORTS_LOG2
 * @i: the processor, below @ports
 * @k_first: the first rotation
 * @count: number of rotations; @k_first + @count must not exceed @ports
 * @labels: receives @count labels, entry j for rotation @k_first + j
 *
 * Algorithm 1 for processor @i, rotations @k_first .. @k_first + @count - 1
 * (the paper's loop is @k_first = 1, @count = N - 1).
 *
 * Return: 0; -EINVAL for a bad @ports, @i or range (nothing written).
 */
int bfly_rls_labels_proc(u32 ports, u32 i, u32 k_first, u32 count,
			 u64 *labels)
{
	int n = rls_log2(ports);
	u32 j;

	if (n < 0)
		return n;
	if (i >= ports || k_first > ports || count > ports - k_first)
		return -EINVAL;
	for (j = 0; j < count; j++)
		labels[j] = rls_label(n, i, k_first + j);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_rls_labels_proc);

/**
 * bfly_rls_labels_round() - the labels of all processors for one rotation
 * @ports: N, a power of two from 2 to 2^%BFLY_MAX_PORTS_LOG2
 * @k: the rotation, below @ports; 0 is the identity
 * @labels: receives @ports labels, entry i for processor i
 *
 * O(N) with no division and no table: per label one subtraction, a shift,
 * masks and XORs (see the comment at the top of rls.c).
 *
 * Return: 0; -EINVAL for a bad @ports or @k (nothing written).
 */
int bfly_rls_labels_round(u32 ports, u32 k, u64 *labels)
{
	int n = rls_log2(ports);
	u32 mask, low, top, c, i;

	if (n < 0)
		return n;
	if (k >= ports)
		return -EINVAL;
	mask = ports - 1;
	low = (ports >> 1) - 1;
	top = n - 1;
	/* argument of pi-hat: c + i (even k) or c - i (odd k), mod N */
	c = (k & 1) ? ports / 2 + k - 1 : -k;
	if (k & 1) {
		for (i = 0; i < ports; i++) {
			u32 x = (c - i) & mask;
			u32 p = x ^ (mask & -((x ^ (x >> top)) & 1));

			labels[i] = ((u64)p << top) | ((i - k) & low);
		}
	} else {
		for (i = 0; i < ports; i++) {
			u32 x = (c + i) & mask;
			u32 p = x ^ (mask & -((x ^ (x >> top)) & 1));

			labels[i] = ((u64)p << top) | (x & low);
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_rls_labels_round);
