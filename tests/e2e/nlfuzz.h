/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of nlfuzz share: the random source and failure reports
 * (nlfuzz.c), the fabrics as dumps show them and the fault checks
 * (nlfuzz-state.c), the requests built and mutated (nlfuzz-request.c).
 */
#ifndef BFLY_NLFUZZ_H
#define BFLY_NLFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <linux/bfly.h>
#include <linux/types.h>

#include "nl-kit.h"

#define MSG_MAX		NL_KIT_TX_MAX
#define RX_MAX		NL_KIT_RX_MAX
#define MAX_FABRICS	8
#define MAX_REPORTS	20
#define SNAP_MAX	(64 * 1024)
#define NCMDS		(BFLY_CMD_MAX + 2)	/* the last one counts the others */

/* A fault as fault nests carry it */
struct fault {
	__u32 kind, stage, index, state;
};

/*
 * The fabrics as a dump shows them: id, topology, ports, stages,
 * generation, matrix size (the part compared as bytes: no padding), then
 * the faults-count and the fault nests.
 */
struct fabric {
	__u32 id, topology, ports, stages;
	__u64 generation, matrix_bytes;
	__u32 nfaults, listed;
	struct fault faults[BFLY_MAX_FAULTS];
};

#define FABRIC_DESC_BYTES offsetof(struct fabric, nfaults)

/* The fault nests of a request, its id and all-faults */
struct fault_req {
	struct fault x[80];
	int k;
	__u32 id;
	bool all;
};

/* nlfuzz.c */
__u64 rnd(void);
__u32 rn(__u32 n);
void fail(const char *fmt, ...);
extern bool unpriv;
void fuzz_start(__u16 type, __u16 flags, __u8 cmd);
ssize_t rx_recv(void);
__u16 unused_family_id(void);
const char *cname(int cmd);

/* nlfuzz-state.c */
extern struct fabric fab[64], fab_prev[64];
extern int n_fab, n_prev;
extern __u8 snap[SNAP_MAX], snap2[SNAP_MAX];
extern size_t snap_len;
extern unsigned long faults_added, faults_repaired, all_clears;
bool parse_fault(struct nlattr *nest, struct fault *x);
bool same_place(const struct fault *a, const struct fault *b);
long dump_state(__u8 *out, size_t max);
int snapshot(void);
void request_faults(struct fault_req *r);
void check_faults(int cmd, const struct fault_req *r);

/* nlfuzz-request.c */
extern size_t attr_off[4096];
int attrs(void);
void build(int cmd, bool *dump);
int mutate(__u16 *flags, size_t *send_len, int *mkind);

#endif /* BFLY_NLFUZZ_H */
