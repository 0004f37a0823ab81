/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bflyctl's files share this: the output mode, the netlink connection,
 * the fabrics as read from the kernel and every function one file calls
 * in another.
 */
#ifndef BFLYCTL_H
#define BFLYCTL_H

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "../cmdline.h"
#include "../names.gen.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One injected fault: enum bfly_fault_kind, stage, node or link position */
struct fault {
	unsigned int kind, stage, index, state;
};

struct fabric {
	unsigned int id;
	char dev[32];
	unsigned int topology, ports, ports_log2, node_stages, nodes_per_stage;
	unsigned long long switches, generation;
	/* k and the figures (uapi 5); radix 2 when the kernel sends none */
	bool has_figures;
	unsigned int radix, degree, diameter, routers;
	/* u of an LCAN (uapi 6); 0 on the other fabrics */
	unsigned int up;
	/* a multibutterfly's d, seed and measured expansion (uapi 9); d 0 elsewhere */
	unsigned int mbfly_d, exp_col, exp_inputs, exp_kmax, exp_beta, exp_exhaustive;
	unsigned long long seed, exp_subsets;
	unsigned long long channels, bisection, port_map_bytes;
	bool has_stats;
	unsigned long long stats[BFLY_A_STATS_MAX + 1];
	/*
	 * The settings as they travel: the bit matrix, or with port_maps the
	 * port maps (kfly, flatfly), one byte per input port of every switch
	 */
	unsigned long long matrix_bytes, matrix_got;
	unsigned char *matrix;
	bool port_maps;
	bool has_mll;
	unsigned int mll;
	unsigned long long ll_entries, ll_got;
	unsigned int *ll;
	bool has_faults;
	unsigned int nfaults;	/* faults-count; the list holds the first 64 */
	struct fault faults[BFLY_MAX_FAULTS];
};

/* A route request's report (cmd_route.c) */
struct route_reply {
	unsigned int method, count, first_stage, n;
	unsigned long long generation;
	/* stage, node, input0, input1, port; port only with has_port */
	unsigned int conflicts[BFLY_CONFLICTS_MAX][5];
	bool has_port[BFLY_CONFLICTS_MAX];
	unsigned int faults, stuck_unmet;
	unsigned long long affected;
	bool applied;
};

struct fabrics {
	struct fabric *v;
	size_t n, cap;
};

extern const char *prog;
extern const char *cmd_name;
extern bool json, pretty;
extern struct nl_sock *sk;
extern int family_id;
extern struct nl_msg *last_req;
extern int kerr;
extern char kmsg[256];
extern char kattr[64];
extern long events_left;

void usage_main(FILE *out);
bool want_help(int argc, char **argv);
bool help(int argc, char **argv, const char *text);
int main(int argc, char **argv);
void jk(const char *key);
void jopen(char c);
void jclose(char c);
void jstr(const char *s);
void jnum(unsigned long long v);
void jdouble(double v);
void jbool(bool v);
void jks(const char *key, const char *s);
void jkn(const char *key, unsigned long long v);
void jnull(void);
const char *nested_attr_name(int nest, unsigned int t);
bool attr_name_at(unsigned int off, char *buf, size_t len, int *nest);
int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg);
int on_done(struct nl_msg *msg, void *arg);
int on_finish(struct nl_msg *msg, void *arg);
void connect_family(void);
struct nl_msg *new_msg(int cmd, int flags);
void put_or_die(int err);
void await_answer(void);
int transact(struct nl_msg *msg, nl_recvmsg_msg_cb_t parse, void *arg);
noreturn void die(const char *fmt, ...);
noreturn void die_kernel(int err);
void *xcalloc(size_t n, size_t size);
unsigned int read_pairs(const char *path, unsigned int *src, unsigned int *dst,
			unsigned int max, const char *ioctl);
const char *name_of(const char * const *names, size_t n, unsigned int v);
const char *topo_name(unsigned int v);
bool topo_kxk(unsigned int topology);
const char *topo_list(void);
const char *method_name(unsigned int v);
const char *latin_name(unsigned int v);
const char *fault_kind_name(unsigned int v);
const char *cmd_name_of(unsigned int v);
int lookup(const char * const *names, size_t n, const char *s);
unsigned long long parse_max(const char *what, const char *s,
			     unsigned long long max);
unsigned long long parse_u64(const char *what, const char *s);
unsigned long long random_next(unsigned long long *seed);
void identity_perm(unsigned int *v, unsigned int n);
void shuffle(unsigned int *v, unsigned int n, unsigned long long *seed);
unsigned int parse_u32(const char *what, const char *s);
unsigned int parse_range(const char *what, const char *s, unsigned int min,
			 unsigned int max);
unsigned int parse_dev(const char *s);
void fabrics_free(struct fabrics *fs);
struct fabric *fabric_slot(struct fabrics *fs, unsigned int id);
unsigned int get_u32(struct nlattr **tb, int type);
unsigned long long get_u64(struct nlattr **tb, int type);
bool parse_fault(struct nlattr *nest, struct fault *f);
void parse_faults(struct nl_msg *msg, struct fabric *f);
int parse_fabric(struct nl_msg *msg, void *arg);
void read_fabrics(struct fabrics *fs, bool one, unsigned int id,
		  unsigned int want);
bool matrix_bit(const struct fabric *f, unsigned int stage, unsigned int node);

/**
 * struct dot_view - what a picture shows beyond the fabric (dot.c)
 * @matrix: NULL for the fabric's own settings, else a bit matrix to draw
 *	instead (a route's, computed here)
 * @conflicts: the nodes where two packets asked for one output
 * @nconflicts: entries in @conflicts
 * @deflected: NULL, or per input: its packet did not reach its
 *	destination (its links dashed)
 * @first: the first node stage drawn
 * @last: the last node stage drawn
 * @stages_set: @first and @last were given; else every node stage
 */
struct dot_view {
	const unsigned long long *matrix;
	const struct bfly_conflict *conflicts;
	unsigned int nconflicts;
	const bool *deflected;
	unsigned int first, last;
	bool stages_set;
};

bool picture_fabric(const struct fabric *f);
FILE *picture_open(bool svg);
void picture_heat(FILE *out, double t);
void picture_close(FILE *out, bool svg);
void dot_fabric(const struct fabric *f, const struct dot_view *v, bool svg);
bool parse_format(const char *s, bool *svg);
int route_send(unsigned int id, const void *buf, unsigned int n, bool labels, bool dry_run,
	       bool allow_faults, struct route_reply *r);
void route_picture(unsigned int id, const void *buf, bool labels, bool applied,
		   const struct bfly_conflict *conflicts, unsigned int nconflicts, bool svg);
void parse_stages(const char *s, struct dot_view *v);

/**
 * struct msgset_heat - a routed message set a heat map shows (msgset_heat.c)
 * @pattern: the set's name in the title ("transpose", "file PATH", ...)
 * @strategy: "online" or "offline"
 * @mode: BFLY_MSGSET_BIDIR or BFLY_MSGSET_UNIDIR
 * @seed: the set's seed
 * @messages: messages in the set
 * @routed: messages routed
 * @cycles: cycles used
 * @bound: ceil(lambda(M))
 * @lambda_load: lambda(M)'s load
 * @lambda_cap: lambda(M)'s capacity
 * @load: each channel's load, as Documentation/lcan.rst orders them
 * @channels: entries in @load
 */
struct msgset_heat {
	const char *pattern, *strategy;
	unsigned int mode;
	unsigned long long seed;
	unsigned int messages, routed;
	unsigned long long cycles;
	unsigned int bound, lambda_load, lambda_cap;
	const unsigned int *load;
	unsigned int channels;
};

struct bfly_lcan;
void msgset_heat_shape(const struct fabric *f, struct bfly_lcan *g);
void msgset_heatmap(const struct fabric *f, const struct msgset_heat *h, bool svg);
void print_fault(const char *indent, const struct fault *x);
void json_faults(const struct fabric *f);
void json_fabric(const struct fabric *f, bool detail);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_new(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int stuck_state(const struct fabric *f, unsigned int s, unsigned int k);
bool output_broken(const struct fabric *f, unsigned int s, unsigned int k);
void draw_fabric(const struct fabric *f);
unsigned int radix_exponent(unsigned int ports, unsigned int radix);
void print_figures(const struct fabric *f);
void json_figures(const struct fabric *f);
void print_port_maps(const struct fabric *f);
void json_port_maps(const struct fabric *f);
int parse_generation(struct nl_msg *msg, void *arg);
int parse_state(const char *s);
int cmd_set(int argc, char **argv);
int parse_route(struct nl_msg *msg, void *arg);
void parse_list(const char *what, const char *s, unsigned int n,
		unsigned long long *out);
int cmd_route(int argc, char **argv);
int cmd_chart(int argc, char **argv);
int parse_a2a(struct nl_msg *msg, void *arg);
double now(void);
int cmd_a2a(int argc, char **argv);
int cmd_msgset(int argc, char **argv);
int cmd_hrel(int argc, char **argv);
void parse_fault_arg(int argc, char **argv, int *a, bool state, struct fault *x);
int parse_faults_count(struct nl_msg *msg, void *arg);
void fault_list(unsigned int id);
int cmd_fault(int argc, char **argv);
int on_ctrl_event(struct nl_msg *msg);
int on_event(struct nl_msg *msg, void *arg);
int cmd_monitor(int argc, char **argv);
void put_raw(struct nl_msg *msg, const char *spec);
int print_raw(struct nl_msg *msg, void *arg);
int cmd_raw(int argc, char **argv);

#endif /* BFLYCTL_H */
