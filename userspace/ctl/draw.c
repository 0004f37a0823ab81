// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: a fabric's switches drawn as text.
 */
#include "bflyctl.h"

/* The state node @k of node stage @s is stuck in, or -1. */
int stuck_state(const struct fabric *f, unsigned int s, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < f->nfaults; j++)
		if (f->faults[j].kind == BFLY_FAULT_STUCK && f->faults[j].stage == s &&
		    f->faults[j].index == k)
			return f->faults[j].state;
	return -1;
}

/* Is an output link of node @k of node stage @s broken? */
bool output_broken(const struct fabric *f, unsigned int s, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < f->nfaults; j++)
		if (f->faults[j].kind == BFLY_FAULT_LINK && f->faults[j].stage == s &&
		    f->faults[j].index / 2 == k)
			return true;
	return false;
}

/*
 * Switches as text: one row per node, one column per node stage. A stuck
 * node shows the state it is stuck in between braces; a '/' after a node
 * marks a broken output link.
 */
void draw_fabric(const struct fabric *f)
{
	bool stuck = false, broken = false;
	unsigned int s, k, j;
	int st;

	for (j = 0; j < f->nfaults; j++) {
		stuck |= f->faults[j].kind == BFLY_FAULT_STUCK;
		broken |= f->faults[j].kind == BFLY_FAULT_LINK;
	}
	printf("\n  switches (= straight, X cross), inputs on the left:\n");
	if (stuck)
		printf("  {=} {X} stuck straight, stuck cross: the node ignores its matrix bit\n");
	if (broken)
		printf("  / after a node: one of its output links is broken\n");
	printf("  %9s", "");
	for (s = 0; s < f->node_stages; s++)
		printf(" %3u", s);
	printf("   <- node stage\n");
	for (k = 0; k < f->nodes_per_stage; k++) {
		printf("  %2u,%-2u  ", 2 * k, 2 * k + 1);
		for (s = 0; s < f->node_stages; s++) {
			st = stuck_state(f, s, k);
			putchar(!s ? ' ' : output_broken(f, s - 1, k) ? '/' : '-');
			if (st < 0)
				printf("[%c]", matrix_bit(f, s, k) ? 'X' : '=');
			else
				printf("{%c}", st ? 'X' : '=');
		}
		printf("%c node %u\n", output_broken(f, f->node_stages - 1, k) ? '/' : ' ', k);
	}
}
