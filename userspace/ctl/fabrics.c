// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: fabrics as fabric-get reads them, and their JSON and text forms.
 */
#include "bflyctl.h"

/* ---- fabrics as read from the kernel ---- */

void fabrics_free(struct fabrics *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].matrix);
		free(fs->v[i].ll);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

struct fabric *fabric_slot(struct fabrics *fs, unsigned int id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 16;
		fs->v = realloc(fs->v, fs->cap * sizeof(*fs->v));
		if (!fs->v)
			die("out of memory");
	}
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	fs->v[fs->n].id = id;
	return &fs->v[fs->n++];
}

unsigned int get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

unsigned long long get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

/* A fault nest into @f; false when it lacks kind, stage or index. */
bool parse_fault(struct nlattr *nest, struct fault *f)
{
	struct nlattr *ft[BFLY_A_FAULT_MAX + 1];

	if (nla_parse_nested(ft, BFLY_A_FAULT_MAX, nest, NULL) ||
	    !ft[BFLY_A_FAULT_KIND] || !ft[BFLY_A_FAULT_STAGE] || !ft[BFLY_A_FAULT_INDEX])
		return false;
	f->kind = nla_get_u32(ft[BFLY_A_FAULT_KIND]);
	f->stage = nla_get_u32(ft[BFLY_A_FAULT_STAGE]);
	f->index = nla_get_u32(ft[BFLY_A_FAULT_INDEX]);
	f->state = get_u32(ft, BFLY_A_FAULT_STATE);
	return true;
}

/*
 * The faults of a description message (it has faults-count): one fault
 * nest each, from the same snapshot as the count.
 */
void parse_faults(struct nl_msg *msg, struct fabric *f)
{
	struct nlattr *a;
	unsigned int n = 0;
	int rem;

	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		if (nla_type(a) == BFLY_A_FAULT && n < BFLY_MAX_FAULTS &&
		    parse_fault(a, &f->faults[n]))
			n++;
	}
	f->has_faults = true;
	f->nfaults = n;
}

/* One fabric-get message: a description or a chunk. */
int parse_fabric(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1], *st[BFLY_A_STATS_MAX + 1], *chunk;
	struct fabrics *fs = arg;
	struct fabric *f;
	unsigned long long off, len;
	int i;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL) || !tb[BFLY_A_ID])
		return NL_SKIP;
	f = fabric_slot(fs, nla_get_u32(tb[BFLY_A_ID]));
	if (tb[BFLY_A_DEV_NAME]) {
		snprintf(f->dev, sizeof(f->dev), "%s", nla_get_string(tb[BFLY_A_DEV_NAME]));
		f->topology = get_u32(tb, BFLY_A_TOPOLOGY);
		f->ports = get_u32(tb, BFLY_A_PORTS);
		f->ports_log2 = get_u32(tb, BFLY_A_PORTS_LOG2);
		f->node_stages = get_u32(tb, BFLY_A_NODE_STAGES);
		f->up = tb[BFLY_A_UP] ? nla_get_u32(tb[BFLY_A_UP]) : 0;
		if (tb[BFLY_A_MBFLY_D]) {
			f->mbfly_d = nla_get_u32(tb[BFLY_A_MBFLY_D]);
			f->seed = get_u64(tb, BFLY_A_SEED);
			f->exp_col = get_u32(tb, BFLY_A_EXP_COL);
			f->exp_inputs = get_u32(tb, BFLY_A_EXP_INPUTS);
			f->exp_kmax = get_u32(tb, BFLY_A_EXP_KMAX);
			f->exp_beta = get_u32(tb, BFLY_A_EXP_BETA);
			f->exp_exhaustive = tb[BFLY_A_EXP_EXHAUSTIVE] ?
					    nla_get_u8(tb[BFLY_A_EXP_EXHAUSTIVE]) : 0;
			f->exp_subsets = get_u64(tb, BFLY_A_EXP_SUBSETS);
		}
		f->nodes_per_stage = get_u32(tb, BFLY_A_NODES_PER_STAGE);
		f->switches = get_u64(tb, BFLY_A_SWITCHES);
		f->generation = get_u64(tb, BFLY_A_GENERATION);
		f->has_figures = tb[BFLY_A_RADIX];
		f->radix = tb[BFLY_A_RADIX] ? nla_get_u32(tb[BFLY_A_RADIX]) : 2;
		f->degree = get_u32(tb, BFLY_A_DEGREE);
		f->diameter = get_u32(tb, BFLY_A_DIAMETER);
		f->routers = get_u32(tb, BFLY_A_ROUTERS);
		f->channels = get_u64(tb, BFLY_A_CHANNELS);
		f->bisection = get_u64(tb, BFLY_A_BISECTION);
		f->port_map_bytes = get_u64(tb, BFLY_A_PORT_MAP_BYTES);
	}
	if (tb[BFLY_A_STATS] &&
	    !nla_parse_nested(st, BFLY_A_STATS_MAX, tb[BFLY_A_STATS], NULL)) {
		f->has_stats = true;
		for (i = 0; i <= BFLY_A_STATS_MAX; i++)
			f->stats[i] = get_u64(st, i);
	}
	if (tb[BFLY_A_MATRIX_BYTES])
		f->matrix_bytes = nla_get_u64(tb[BFLY_A_MATRIX_BYTES]);
	if (tb[BFLY_A_FAULTS_COUNT])
		parse_faults(msg, f);
	if (tb[BFLY_A_MAX_LINK_LOAD]) {
		f->has_mll = true;
		f->mll = nla_get_u32(tb[BFLY_A_MAX_LINK_LOAD]);
	}
	if (tb[BFLY_A_LINK_LOAD_ENTRIES])
		f->ll_entries = nla_get_u64(tb[BFLY_A_LINK_LOAD_ENTRIES]);
	/* Chunks of the settings: the bit matrix, or the port maps */
	chunk = tb[BFLY_A_MATRIX] ? tb[BFLY_A_MATRIX] : tb[BFLY_A_PORT_MAP];
	if (chunk && f->matrix_bytes) {
		off = get_u64(tb, BFLY_A_MATRIX_OFFSET);
		len = nla_len(chunk);
		if (!f->matrix)
			f->matrix = xcalloc(f->matrix_bytes, 1);
		f->port_maps = chunk == tb[BFLY_A_PORT_MAP];
		if (off + len <= f->matrix_bytes) {
			memcpy(f->matrix + off, nla_data(chunk), len);
			f->matrix_got += len;
		}
	}
	if (tb[BFLY_A_LINK_LOAD] && f->ll_entries) {
		off = get_u64(tb, BFLY_A_LINK_LOAD_OFFSET);
		len = nla_len(tb[BFLY_A_LINK_LOAD]) / sizeof(unsigned int);
		if (!f->ll)
			f->ll = xcalloc(f->ll_entries, sizeof(unsigned int));
		if (off + len <= f->ll_entries) {
			memcpy(f->ll + off, nla_data(tb[BFLY_A_LINK_LOAD]),
			       len * sizeof(unsigned int));
			f->ll_got += len;
		}
	}
	return NL_OK;
}

/*
 * Read fabrics: every one, or only @id (when @one); @want as the
 * BFLY_A_WANT flags. Dumps interrupted by a change are redone.
 */
void read_fabrics(struct fabrics *fs, bool one, unsigned int id,
		  unsigned int want)
{
	struct nl_msg *msg;
	int err, tries;

	for (tries = 0; tries < 20; tries++) {
		fabrics_free(fs);
		/* A do first: an unknown id is an error with a message. */
		if (one) {
			msg = new_msg(BFLY_CMD_FABRIC_GET, 0);
			put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
			err = transact(msg, NULL, NULL);
			if (err)
				die_kernel(err);
		}
		msg = new_msg(BFLY_CMD_FABRIC_GET, NLM_F_DUMP);
		if (one)
			put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		if (want)
			put_or_die(nla_put_u32(msg, BFLY_A_WANT, want));
		err = transact(msg, parse_fabric, fs);
		if (err == -EINTR)
			continue;
		if (err)
			die_kernel(err);
		return;
	}
	die("the fabrics kept changing while being read");
}

bool matrix_bit(const struct fabric *f, unsigned int stage, unsigned int node)
{
	unsigned long long b = (unsigned long long)stage * f->nodes_per_stage + node;
	unsigned long long word;

	memcpy(&word, f->matrix + b / 64 * 8, 8);
	return (word >> (b % 64)) & 1;
}

/* "stuck  stage 2 node 5 cross", "link   stage 1 pos 6 broken" */
void print_fault(const char *indent, const struct fault *x)
{
	if (x->kind == BFLY_FAULT_STUCK)
		printf("%sstuck  stage %u node %u %s\n", indent, x->stage, x->index,
		       x->state ? "cross" : "straight");
	else if (x->kind == BFLY_FAULT_LINK)
		printf("%slink   stage %u pos %u broken\n", indent, x->stage, x->index);
	else
		printf("%skind %u stage %u index %u state %u\n", indent, x->kind, x->stage,
		       x->index, x->state);
}

/* "faults": the count, "fault_list": one object per fault */
void json_faults(const struct fabric *f)
{
	const struct fault *x;
	unsigned int j;

	jkn("faults", f->nfaults);
	jk("fault_list");
	jopen('[');
	for (j = 0; j < f->nfaults; j++) {
		x = &f->faults[j];
		jopen('{');
		jks("kind", fault_kind_name(x->kind));
		jkn("stage", x->stage);
		if (x->kind == BFLY_FAULT_STUCK) {
			jkn("node", x->index);
			jks("state", x->state ? "cross" : "straight");
		} else if (x->kind == BFLY_FAULT_LINK) {
			jkn("pos", x->index);
		} else {
			jkn("index", x->index);
			jkn("state", x->state);
		}
		jclose('}');
	}
	jclose(']');
}

/* "matrix": one string per node stage, '0' straight, '1' cross */
static void json_matrix(const struct fabric *f)
{
	char *row = xcalloc(f->nodes_per_stage + 1, 1);
	unsigned int s, k;

	jk("matrix");
	jopen('[');
	for (s = 0; s < f->node_stages; s++) {
		for (k = 0; k < f->nodes_per_stage; k++)
			row[k] = matrix_bit(f, s, k) ? '1' : '0';
		jstr(row);
	}
	jclose(']');
	free(row);
}

void json_fabric(const struct fabric *f, bool detail)
{
	static const char * const stat_names[BFLY_A_STATS_MAX + 1] = {
		[BFLY_A_STATS_ROUTES] = "routes", [BFLY_A_STATS_REFUSALS] = "refusals",
		[BFLY_A_STATS_CONFLICTS] = "conflicts",
		[BFLY_A_STATS_MATRIX_WRITES] = "matrix_writes",
		[BFLY_A_STATS_BATCHES] = "batches",
	};
	unsigned int s, p;
	int i;

	jopen('{');
	jkn("id", f->id);
	jks("dev", f->dev);
	jks("topology", topo_name(f->topology));
	jkn("ports", f->ports);
	jkn("ports_log2", f->ports_log2);
	jkn("node_stages", f->node_stages);
	jkn("nodes_per_stage", f->nodes_per_stage);
	if (f->up)
		jkn("up", f->up);
	if (f->mbfly_d) {
		jkn("mbfly_d", f->mbfly_d);
		jkn("seed", f->seed);
		jkn("exp_col", f->exp_col);
		jkn("exp_inputs", f->exp_inputs);
		jkn("exp_kmax", f->exp_kmax);
		jkn("exp_beta_fp16", f->exp_beta);
		jkn("exp_exhaustive", f->exp_exhaustive);
		jkn("exp_subsets", f->exp_subsets);
	}
	jkn("switches", f->switches);
	jkn("generation", f->generation);
	jkn("matrix_bytes", f->matrix_bytes);
	if (f->has_figures)
		json_figures(f);
	if (f->has_stats) {
		jk("stats");
		jopen('{');
		for (i = 0; i <= BFLY_A_STATS_MAX; i++)
			if (stat_names[i])
				jkn(stat_names[i], f->stats[i]);
		jclose('}');
	}
	if (f->has_faults)
		json_faults(f);
	if (detail && f->matrix && f->matrix_got == f->matrix_bytes) {
		if (f->port_maps)
			json_port_maps(f);
		else
			json_matrix(f);
	}
	if (detail && f->has_mll)
		jkn("max_link_load", f->mll);
	if (detail && f->ll && f->ll_got == f->ll_entries) {
		jk("link_loads");
		jopen('[');
		for (s = 0; s < f->node_stages; s++) {
			jopen('[');
			for (p = 0; p < f->ports; p++)
				jnum(f->ll[(unsigned long long)s * f->ports + p]);
			jclose(']');
		}
		jclose(']');
	}
	jclose('}');
}
