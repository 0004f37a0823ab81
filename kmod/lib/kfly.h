/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The k-ary n-fly: N = k^n terminals, n node stages of N/k switches of
 * k x k ports, destination-digit routing with internal-conflict detection
 * and its conflict-window test. See kfly.c.
 */
#ifndef _BFLY_KFLY_H
#define _BFLY_KFLY_H

#include "compat.h"
#include "geometry.h"

/*
 * struct bfly_kfly (the shape) comes from geometry.h; a conflict is the
 * uapi's struct bfly_port_conflict: the switch, the packet that holds the
 * port (it came in on the lower input port), the one refused, the port.
 */

/**
 * struct bfly_kfly_conflicts - where destination-digit routing reports
 * @list: caller's array of @capacity conflicts, or NULL with @capacity 0;
 *	filled in stage, switch and port order
 * @capacity: entries in @list
 * @count: out: every conflict, even beyond @capacity
 * @first_stage: out: the node stage of the first one, or %BFLY_NO_CONFLICT
 */
struct bfly_kfly_conflicts {
	struct bfly_port_conflict *list;
	u32 capacity;
	u32 count;
	u32 first_stage;
};

int bfly_kfly_init(struct bfly_kfly *g, u32 k, u32 ports, const char **why);

/* Bytes of a setting: one u8 per input port of every switch, n * N. */
static inline size_t bfly_kfly_settings_size(const struct bfly_kfly *g)
{
	return (size_t)g->n * g->ports;
}

u32 bfly_kfly_link(const struct bfly_kfly *g, u32 edge, u32 addr);
int bfly_kfly_settings_check(const struct bfly_kfly *g, const u8 *set, u32 *bad);
void bfly_kfly_trace(const struct bfly_kfly *g, const u8 *set, u32 *out);
size_t bfly_kfly_route_workspace_size(const struct bfly_kfly *g);
int bfly_kfly_route_dest(const struct bfly_kfly *g, const u32 *perm, u8 *set,
			 u32 *delivered, struct bfly_kfly_conflicts *conflicts, void *work);
int bfly_kfly_link_load(const struct bfly_kfly *g, const u64 *labels, const u8 *set,
			const unsigned long *active, u32 *load, u32 *stage_max, u32 *mll,
			void *work);
size_t bfly_kfly_split_workspace_size(const struct bfly_kfly *g);
int bfly_kfly_split(const struct bfly_kfly *g, const u32 *part, u32 *sub, void *work);
void bfly_kfly_subround_settings(const struct bfly_kfly *g, const u32 *part, const u32 *sub,
				 u32 r, u8 *set);
u32 bfly_kfly_window_first_conflict(const struct bfly_kfly *g, const u32 *perm,
				    unsigned long *seen);

/**
 * struct bfly_kfly_figures - the butterfly note's figures, computed
 * @terminals: terminals on each side, N (the note's 2N processing nodes
 *	in all)
 * @switches: switches in all, n N / k
 * @channels: channels in all: N into node stage 0, N out of the last,
 *	N between each pair of consecutive node stages
 * @degree: channels at a switch, 2k
 * @diameter: channels on the path from any input to any output, n + 1
 * @half_cut: channels the standard cut crosses (every switch and terminal
 *	by the top digit of its label, below k/2 or not); 0 for odd k
 */
struct bfly_kfly_figures {
	u32 terminals;
	u32 switches;
	u64 channels;
	u32 degree;
	u32 diameter;
	u64 half_cut;
};

void bfly_kfly_figures(const struct bfly_kfly *g, struct bfly_kfly_figures *f);
u64 bfly_kfly_cut(const struct bfly_kfly *g, const unsigned long *side);

/**
 * enum bfly_kfly_traffic - traffic patterns for bfly_kfly_traffic_mll()
 * @BFLY_KFLY_UNIFORM: every terminal sends to every terminal alike
 * @BFLY_KFLY_HALVES: the note's adversarial case: every terminal sends,
 *	alike, to every terminal of the other half (halves by the top digit,
 *	below k/2 or not; even k)
 */
enum bfly_kfly_traffic {
	BFLY_KFLY_UNIFORM,
	BFLY_KFLY_HALVES,
};

/**
 * enum bfly_kfly_pattern - permutations for bfly_kfly_pattern()
 * @BFLY_KFLY_TRANSPOSE: the address's low and high n/2 digits trade
 *	places (even n)
 * @BFLY_KFLY_DIGIT_REVERSAL: the address's digits in reverse order (bit
 *	reversal for k = 2)
 */
enum bfly_kfly_pattern {
	BFLY_KFLY_TRANSPOSE,
	BFLY_KFLY_DIGIT_REVERSAL,
};

u32 bfly_kfly_perm_mll(const struct bfly_kfly *g, const u32 *perm, u32 *count);
u64 bfly_kfly_traffic_mll(const struct bfly_kfly *g, enum bfly_kfly_traffic traffic,
			  u64 *load);
int bfly_kfly_pattern(const struct bfly_kfly *g, enum bfly_kfly_pattern pattern, u32 *perm);

#endif /* _BFLY_KFLY_H */
