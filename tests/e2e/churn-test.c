// SPDX-License-Identifier: GPL-2.0
/*
 * Fabric churn through the "bfly" generic netlink family while others use
 * the fabrics, on raw netlink sockets.
 *
 * Until MAX-FABRICS were churned (or the deadline): churners create a fabric
 * (fabric-new), open its node, use it with ioctls, delete it (fabric-del)
 * and check the open file then answers ENODEV; users open the fixture
 * /dev/bfly0 and random churned /dev/bfly* nodes and run GET_INFO,
 * GET_MATRIX, SET_MATRIX and dry-run ROUTEs on them (ENODEV is the only
 * error allowed once a fabric is gone; on the fixture the matrix read is
 * always one of the matrices written); dumpers run fabric-get dumps with
 * and without the matrices through a small receive buffer, restart the
 * ones flagged NLM_F_DUMP_INTR and check every complete one: ids rising,
 * each fabric's description consistent with its topology and ports, its
 * matrix chunks contiguous and complete, no bit past the last switch,
 * the fixture present with one of its matrices, churned fabrics all-zero.
 * Then: fabrics deleted while a BFLY_IOC_BATCH runs on them (the batch
 * stops with ENODEV and reports the rounds it completed, or finished
 * first); last, no fabric and no /dev/bfly* node but the fixture is left
 * and a new fabric reuses the lowest free id.
 *
 *   churn-test SECONDS MAX-FABRICS PROCESSES
 *
 * PROCESSES of each kind; SECONDS bounds the churn, which stops when
 * MAX-FABRICS were created and deleted. The fixture /dev/bfly0 must be a Benes network
 * (insmod topology=benes) and the only fabric.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "e2e-util.h"
#include "nl-kit.h"
#include "tap.h"

#define K 4
#define MAX_REPORTS 20
#define RX_SMALL 8192

enum {
	C_CREATED, C_ENODEV_AFTER_DEL, C_USE_OPS, C_USE_ENODEV, C_USE_OPEN_GONE,
	C_FIX_OPS, C_DUMPS, C_DUMPS_INTR, C_DUMP_FABRICS, C_DUMPS_GAVE_UP,
	C_MAX_ID, NCOUNT
};

static const char * const count_name[NCOUNT] = {
	"fabrics created and deleted", "ENODEV on open files after delete",
	"ioctls on churned fabrics", "of them ENODEV",
	"opens of vanished nodes", "ioctls on the fixture",
	"complete dumps", "interrupted dumps restarted",
	"fabrics seen in complete dumps", "dumps given up after 50 restarts",
	"highest id",
};

/* Shared between the processes. */
struct shared {
	unsigned long long c[NCOUNT];
	unsigned long long failures;
	unsigned long long created;
	int churners_left;
};

static struct shared *sh;
static struct bfly_info info;
static size_t mbytes;
static __u64 *mat[K];
static __u32 *perm[K];
static double end;
static unsigned long long max_fabrics;

static __u64 rnd_state;

static __u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

static void count(int what, unsigned long long n)
{
	__atomic_add_fetch(&sh->c[what], n, __ATOMIC_RELAXED);
}

/* A failed check: one line written at once, the first few only. */
#define fail(...) fail_shared(&sh->failures, MAX_REPORTS, __VA_ARGS__)

/* A reply's BFLY_A_ID into *@arg */
static void reply_id(struct nlmsghdr *h, void *arg)
{
	struct nlattr *a;
	void *end;

	for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a))
		if (a->nla_type == BFLY_A_ID)
			*(__u32 *)arg = attr_u64(a);
}

/* Send tx and wait for its answer: 0 or a negative errno. With @id, the reply's id. */
static int nl_do(__u32 *id)
{
	return nl_call_replies(id ? reply_id : NULL, id);
}

static int fabric_new(__u32 topology, __u32 ports, __u32 *id)
{
	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_NEW);
	put_u32(BFLY_A_TOPOLOGY, topology);
	put_u32(BFLY_A_PORTS, ports);
	*id = ~0U;
	return nl_do(id);
}

static int fabric_del(__u32 id)
{
	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_DEL);
	put_u32(BFLY_A_ID, id);
	return nl_do(NULL);
}

static int open_id(__u32 id, int flags)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/bfly%u", id);
	return open(path, flags | O_CLOEXEC);
}

static int get_info(int fd, struct bfly_info *in)
{
	memset(in, 0, sizeof(*in));
	in->size = sizeof(*in);
	return ioctl(fd, BFLY_IOC_GET_INFO, in);
}

static int matrix_io(int fd, unsigned long req, __u64 *m, size_t bytes)
{
	struct bfly_matrix a = { .size = sizeof(a) };

	a.matrix_ptr = (uintptr_t)m;
	a.matrix_bytes = bytes;
	return ioctl(fd, req, &a);
}

static int route(int fd, const __u32 *p, __u32 ports, __u64 *m, size_t bytes,
		 __u32 flags)
{
	struct bfly_route r = { .size = sizeof(r), .flags = flags, .ports = ports };

	r.perm_ptr = (uintptr_t)p;
	r.matrix_ptr = (uintptr_t)m;
	r.matrix_bytes = m ? bytes : 0;
	return ioctl(fd, BFLY_IOC_ROUTE, &r);
}

static __u32 stages_of(__u32 topology, __u32 log2)
{
	switch (topology) {
	case BFLY_TOPO_BUTTERFLY:
		return log2;
	case BFLY_TOPO_BFLY_TWICE:
		return 2 * log2;
	default:
		return 2 * log2 - 1;
	}
}

static __u32 ilog2(__u32 v)
{
	__u32 l = 0;

	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

/* Churner: create, open, use, delete, check ENODEV on the open file. */
static bool churning(void)
{
	return now_s() < end && __atomic_load_n(&sh->churners_left, __ATOMIC_RELAXED);
}

static void churner(void)
{
	struct bfly_info in;
	__u64 m[64];
	__u32 id, topo, ports;
	int fd, err;

	while (now_s() < end &&
	       __atomic_add_fetch(&sh->created, 1, __ATOMIC_RELAXED) <= max_fabrics) {
		topo = 1 + rnd() % 4;
		ports = 2U << rnd() % 6;
		err = fabric_new(topo, ports, &id);
		if (err || id == ~0U) {
			fail("fabric-new %u %u: %s", topo, ports, strerror(-err));
			continue;
		}
		if (id > sh->c[C_MAX_ID])
			sh->c[C_MAX_ID] = id;
		fd = open_id(id, O_RDWR);
		if (fd < 0) {
			fail("open /dev/bfly%u right after fabric-new: %s", id, strerror(errno));
		} else {
			if (get_info(fd, &in) || in.id != id || in.ports != ports ||
			    in.topology != topo)
				fail("GET_INFO on new bfly%u: %s", id, strerror(errno));
			if (matrix_io(fd, BFLY_IOC_GET_MATRIX, m,
				      BFLY_MATRIX_BYTES(in.switches)))
				fail("GET_MATRIX on new bfly%u: %s", id, strerror(errno));
		}
		/* Let the users find it now and then. */
		if (!(rnd() % 4))
			usleep(2000);
		err = fabric_del(id);
		if (err)
			fail("fabric-del %u: %s", id, strerror(-err));
		if (fd >= 0) {
			if (get_info(fd, &in) != -1 || errno != ENODEV)
				fail("GET_INFO after fabric-del of bfly%u: %s", id,
				     strerror(errno));
			else
				count(C_ENODEV_AFTER_DEL, 1);
			close(fd);
		}
		count(C_CREATED, 1);
	}
	__atomic_sub_fetch(&sh->churners_left, 1, __ATOMIC_RELAXED);
}

/* Is any byte of @p non-zero? */
static bool memchr_inv_zero(const void *p, size_t len)
{
	const __u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return true;
	return false;
}

static int which_matrix(const __u64 *m)
{
	int k;

	for (k = 0; k < K; k++)
		if (!memcmp(m, mat[k], mbytes))
			return k;
	return -1;
}

/* One random churned node from /dev, not the fixture; -1 when none. */
static int open_random_node(__u32 *id)
{
	__u32 ids[64];
	struct dirent *de;
	int n = 0, fd;
	DIR *d = opendir("/dev");

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < 64)
		if (!strncmp(de->d_name, "bfly", 4) && strcmp(de->d_name, "bfly0"))
			ids[n++] = strtoul(de->d_name + 4, NULL, 10);
	closedir(d);
	if (!n)
		return -1;
	*id = ids[rnd() % n];
	fd = open_id(*id, O_RDWR);
	if (fd < 0) {
		if (errno != ENOENT && errno != ENXIO && errno != ENODEV)
			fail("open /dev/bfly%u: %s", *id, strerror(errno));
		count(C_USE_OPEN_GONE, 1);
	}
	return fd;
}

/* Ioctls on a churned fabric: only ENODEV may fail them. */
static void use_churned(void)
{
	struct bfly_info in;
	__u64 m[64];
	int fd, i, r;
	__u32 id;

	fd = open_random_node(&id);
	if (fd < 0)
		return;
	for (i = 0; i < 8; i++) {
		r = get_info(fd, &in);
		if (!r && in.switches <= 64 * 64) {
			size_t b = BFLY_MATRIX_BYTES(in.switches);

			r = matrix_io(fd, BFLY_IOC_GET_MATRIX, m, b);
			if (!r && memchr_inv_zero(m, b))
				fail("bfly%u: a churned fabric's matrix is not all zero", id);
			if (!r)
				r = matrix_io(fd, BFLY_IOC_SET_MATRIX, m, b);
		}
		count(C_USE_OPS, 1);
		if (r && errno == ENODEV) {
			count(C_USE_ENODEV, 1);
			break;
		}
		if (r)
			fail("ioctl on bfly%u: %s", id, strerror(errno));
	}
	close(fd);
}

static void user(void)
{
	__u64 *m = malloc(mbytes);
	int fd = open("/dev/bfly0", O_RDWR | O_CLOEXEC), k;

	if (fd < 0 || !m) {
		fail("open /dev/bfly0: %s", strerror(errno));
		return;
	}
	while (churning()) {
		k = rnd() % K;
		switch (rnd() % 4) {
		case 0:
			if (matrix_io(fd, BFLY_IOC_SET_MATRIX, mat[k], mbytes))
				fail("SET_MATRIX on bfly0: %s", strerror(errno));
			break;
		case 1:
			if (matrix_io(fd, BFLY_IOC_GET_MATRIX, m, mbytes))
				fail("GET_MATRIX on bfly0: %s", strerror(errno));
			else if (which_matrix(m) < 0)
				fail("GET_MATRIX on bfly0: not one of the matrices written");
			break;
		case 2:
			if (route(fd, perm[k], info.ports, m, mbytes, BFLY_ROUTE_DRY_RUN) ||
			    which_matrix(m) != k)
				fail("dry-run ROUTE on bfly0: %s", strerror(errno));
			break;
		default:
			use_churned();
			continue;
		}
		count(C_FIX_OPS, 1);
	}
	free(m);
	close(fd);
}

/* The state of one dump being checked. */
struct dump_check {
	__u32 last_id;
	bool any;
	bool fixture;
	__u32 id, topology, ports, stages, npst;
	__u64 switches, matrix_bytes, offset;
	__u8 *matrix;
	bool want_matrix;
	char why[160];
};

static void dump_fabric_done(struct dump_check *d)
{
	__u64 bit;

	if (!d->any || d->why[0])
		return;
	if (d->want_matrix && d->offset != d->matrix_bytes) {
		snprintf(d->why, sizeof(d->why), "bfly%u: %llu of %llu matrix bytes",
			 d->id, (unsigned long long)d->offset,
			 (unsigned long long)d->matrix_bytes);
		return;
	}
	if (!d->want_matrix)
		return;
	for (bit = d->switches; bit < d->matrix_bytes * 8; bit++)
		if (d->matrix[bit / 8] & (1 << (bit % 8))) {
			snprintf(d->why, sizeof(d->why), "bfly%u: bit %llu past the last switch",
				 d->id, (unsigned long long)bit);
			return;
		}
	if (d->id == 0 && which_matrix((__u64 *)d->matrix) < 0)
		snprintf(d->why, sizeof(d->why), "bfly0: matrix not one of those written");
	if (d->id && memchr_inv_zero(d->matrix, d->matrix_bytes))
		snprintf(d->why, sizeof(d->why), "bfly%u: churned matrix not zero", d->id);
}

/* Check one description message. */
static void dump_desc(struct dump_check *d, struct nlattr *start, void *end)
{
	char name[32] = "";
	struct nlattr *a;

	for (a = start; attr_ok(a, end); a = attr_next(a)) {
		switch (a->nla_type) {
		case BFLY_A_DEV_NAME:
			snprintf(name, sizeof(name), "%.*s", (int)(a->nla_len - NLA_HDRLEN),
				 (char *)a + NLA_HDRLEN);
			break;
		case BFLY_A_TOPOLOGY:
			d->topology = attr_u64(a);
			break;
		case BFLY_A_PORTS:
			d->ports = attr_u64(a);
			break;
		case BFLY_A_NODE_STAGES:
			d->stages = attr_u64(a);
			break;
		case BFLY_A_NODES_PER_STAGE:
			d->npst = attr_u64(a);
			break;
		case BFLY_A_SWITCHES:
			d->switches = attr_u64(a);
			break;
		case BFLY_A_MATRIX_BYTES:
			d->matrix_bytes = attr_u64(a);
			break;
		}
	}
	if (d->any && d->id <= d->last_id)
		snprintf(d->why, sizeof(d->why), "id %u after %u", d->id, d->last_id);
	else if (strtoul(name + 4, NULL, 10) != d->id || strncmp(name, "bfly", 4))
		snprintf(d->why, sizeof(d->why), "bfly%u named %s", d->id, name);
	else if (d->ports < 2 || d->ports & (d->ports - 1) ||
		 d->stages != stages_of(d->topology, ilog2(d->ports)) ||
		 d->npst != d->ports / 2 ||
		 d->switches != (__u64)d->stages * d->npst ||
		 d->matrix_bytes != BFLY_MATRIX_BYTES(d->switches) ||
		 d->matrix_bytes > (1 << 20))
		snprintf(d->why, sizeof(d->why),
			 "bfly%u: inconsistent description (topology %u ports %u stages %u)",
			 d->id, d->topology, d->ports, d->stages);
	if (d->id == 0)
		d->fixture = true;
	d->any = true;
	d->last_id = d->id;
	d->offset = 0;
	free(d->matrix);
	d->matrix = calloc(1, d->matrix_bytes + 8);
}

static void dump_chunk(struct dump_check *d, struct nlattr *start, void *end)
{
	struct nlattr *a, *data = NULL;
	__u64 off = ~0ULL;

	for (a = start; attr_ok(a, end); a = attr_next(a)) {
		if (a->nla_type == BFLY_A_MATRIX_OFFSET)
			off = attr_u64(a);
		if (a->nla_type == BFLY_A_MATRIX)
			data = a;
	}
	if (!data || !d->matrix || off != d->offset ||
	    off + data->nla_len - NLA_HDRLEN > d->matrix_bytes) {
		snprintf(d->why, sizeof(d->why), "bfly%u: matrix chunk at %llu, expected %llu",
			 d->id, (unsigned long long)off, (unsigned long long)d->offset);
		return;
	}
	memcpy(d->matrix + off, (__u8 *)data + NLA_HDRLEN, data->nla_len - NLA_HDRLEN);
	d->offset += data->nla_len - NLA_HDRLEN;
}

/* One dump: 1 complete and checked, 0 interrupted, -1 failed. */
static int one_dump(bool want_matrix)
{
	struct dump_check d = { .want_matrix = want_matrix };
	bool intr = false, done = false;
	unsigned long fabrics = 0;
	struct nlmsghdr *h;
	struct nlattr *a;
	void *end;
	ssize_t n;

	msg_start(family, NLM_F_DUMP, BFLY_CMD_FABRIC_GET);
	if (want_matrix)
		put_u32(BFLY_A_WANT, BFLY_WANT_MATRIX);
	if (nl_send())
		return -1;
	while (!done) {
		n = nl_recv(RX_SMALL);
		if (n <= 0) {
			fail("dump: recv: %s", strerror(-n));
			return -1;
		}
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			bool desc = false;
			__u32 id = ~0U;

			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (h->nlmsg_type == NLMSG_DONE) {
				int *e = NLMSG_DATA(h);

				if (!intr && *e) {
					fail("dump ended with error %s", strerror(-*e));
					return -1;
				}
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				fail("dump: error %d", ((struct nlmsgerr *)NLMSG_DATA(h))->error);
				return -1;
			}
			for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a)) {
				if (a->nla_type == BFLY_A_ID)
					id = attr_u64(a);
				if (a->nla_type == BFLY_A_TOPOLOGY)
					desc = true;
			}
			if (desc) {
				dump_fabric_done(&d);
				d.id = id;
				a = genl_attrs(h, &end);
				dump_desc(&d, a, end);
				fabrics++;
			} else if (id != d.id || !d.any) {
				snprintf(d.why, sizeof(d.why), "chunk of bfly%u inside bfly%u",
					 id, d.id);
			} else {
				a = genl_attrs(h, &end);
				dump_chunk(&d, a, end);
			}
		}
	}
	dump_fabric_done(&d);
	free(d.matrix);
	if (intr)
		return 0;
	if (!d.fixture)
		snprintf(d.why, sizeof(d.why), "the fixture bfly0 is missing");
	if (d.why[0]) {
		fail("complete dump inconsistent: %s", d.why);
		return -1;
	}
	count(C_DUMP_FABRICS, fabrics);
	return 1;
}

static void dumper(void)
{
	int tries, r;

	while (churning()) {
		bool want = rnd() % 2;

		for (tries = 0; tries < 50; tries++) {
			r = one_dump(want);
			if (r)
				break;
			count(C_DUMPS_INTR, 1);
		}
		if (r < 0)
			return;
		count(r ? C_DUMPS : C_DUMPS_GAVE_UP, 1);
	}
}

/*
 * Delete fabrics while a batch runs on them. Returns the deletions that
 * stopped a batch.
 */
static int batch_delete(int tries)
{
	__u32 ports = 64, id, n;
	struct bfly_batch *b;
	int t, stopped = 0, finished = 0;
	double dur = 0, t0;
	size_t bytes;
	void *buf;
	pid_t pid;
	int fd, st, err;

	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	/*
	 * Grow the fabric until one batch takes 100 ms. The best of three
	 * runs: one run the host stalled would make every wait below
	 * outlast the batch it means to interrupt.
	 */
	for (;;) {
		err = fabric_new(BFLY_TOPO_BFLY2, ports, &id);
		fd = err ? -1 : open_id(id, O_RDWR);
		if (fd < 0) {
			fail("batch: fabric-new/open: %s", strerror(err ? -err : errno));
			return 0;
		}
		for (t = 0, dur = 1e9; t < 3 && !err; t++) {
			memset(b, 0, sizeof(*b));
			b->size = sizeof(*b);
			b->ports = ports;
			t0 = now_s();
			err = ioctl(fd, BFLY_IOC_BATCH, b);
			t0 = now_s() - t0;
			dur = t0 < dur ? t0 : dur;
		}
		close(fd);
		fabric_del(id);
		if (err) {
			fail("batch: calibration: %s", strerror(errno));
			return 0;
		}
		if (dur > 0.1 || ports >= 1024)
			break;
		ports *= 2;
	}
	bytes = (size_t)ports * ports * 8;
	buf = mmap(NULL, 2 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 0;
	printf("# batch: bfly2 %u ports, %.0f ms per schedule-only batch\n", ports, dur * 1e3);
	for (t = 0; t < tries; t++) {
		bool data = t % 2;

		if (fabric_new(BFLY_TOPO_BFLY2, ports, &id)) {
			fail("batch: fabric-new");
			break;
		}
		fd = open_id(id, O_RDWR);
		memset(b, 0, sizeof(*b));
		b->size = sizeof(*b);
		b->ports = ports;
		if (data) {
			/* With 8-byte messages: moving data takes longer still. */
			b->msg_size = 8;
			b->send_ptr = (uintptr_t)buf;
			b->recv_ptr = (uintptr_t)buf + bytes;
			b->buf_bytes = bytes;
		}
		pid = fork();
		if (!pid) {
			errno = 0;
			_exit(ioctl(fd, BFLY_IOC_BATCH, b) ? errno : 0);
		}
		usleep((useconds_t)(dur * 1e6 * (0.2 + (rnd() % 50) / 100.0)));
		err = fabric_del(id);
		waitpid(pid, &st, 0);
		close(fd);
		n = b->rounds;
		if (err)
			fail("batch: fabric-del during a batch: %s", strerror(-err));
		if (!WIFEXITED(st)) {
			fail("batch: the process running the batch died");
		} else if (WEXITSTATUS(st) == ENODEV) {
			stopped++;
			if (n >= ports)
				fail("batch stopped with ENODEV after %u rounds of %u", n, ports);
			else
				printf("# batch %d: deleted after %u of %u rounds: ENODEV\n",
				       t, n, ports);
		} else if (WEXITSTATUS(st) == 0) {
			finished++;
			if (n != ports)
				fail("batch finished with %u rounds of %u", n, ports);
		} else {
			fail("batch during fabric-del: %s", strerror(WEXITSTATUS(st)));
		}
	}
	printf("# batch: %d stopped by fabric-del, %d finished first\n", stopped, finished);
	munmap(buf, 2 * bytes);
	munmap(b, sizeof(*b));
	return stopped;
}

/* Is the fixture the only /dev/bfly* node? */
static int stale_nodes(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir("/dev");

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "bfly", 4) && strcmp(de->d_name, "bfly0")) {
			printf("# stale node /dev/%s\n", de->d_name);
			n++;
		}
	if (d)
		closedir(d);
	return n;
}

static int setup_fixture(void)
{
	int fd = open("/dev/bfly0", O_RDWR | O_CLOEXEC), k;
	__u32 i, j, t;

	if (fd < 0 || get_info(fd, &info) || info.topology != BFLY_TOPO_BENES)
		return -1;
	mbytes = BFLY_MATRIX_BYTES(info.switches);
	for (k = 0; k < K; k++) {
		perm[k] = malloc(info.ports * 4);
		mat[k] = malloc(mbytes);
		for (i = 0; i < info.ports; i++)
			perm[k][i] = i;
		for (i = info.ports - 1; i > 0; i--) {
			j = rnd() % (i + 1);
			t = perm[k][i];
			perm[k][i] = perm[k][j];
			perm[k][j] = t;
		}
		if (route(fd, perm[k], info.ports, mat[k], mbytes, 0))
			return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int procs, p, kinds = 3, st, stopped;
	unsigned long long seed;
	__u32 id = ~0U;
	pid_t pid;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SECONDS MAX-FABRICS PROCESSES\n", argv[0]);
		return 2;
	}
	seed = getenv("BFLY_CHURN_SEED") ? strtoull(getenv("BFLY_CHURN_SEED"), NULL, 0) :
	       (unsigned long long)time(NULL);
	rnd_state = seed * 2654435761ULL + 1;
	max_fabrics = strtoull(argv[2], NULL, 0);
	procs = atoi(argv[3]);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || setup_fixture() || nl_open()) {
		tap_check(0, "churn: setup (a Benes /dev/bfly0, the bfly family)");
		return 1;
	}
	printf("# churn: seed %llu, %s s, at most %llu fabrics, %d processes of each kind\n",
	       seed, argv[1], max_fabrics, procs);
	end = now_s() + atof(argv[1]);
	sh->churners_left = procs;
	for (p = 0; p < procs * kinds; p++) {
		pid = fork();
		if (pid)
			continue;
		rnd_state = seed * 2654435761ULL + 2 + p;
		if (nl_open())
			fail("netlink socket");
		else if (p % kinds == 0)
			churner();
		else if (p % kinds == 1)
			user();
		else
			dumper();
		_exit(0);
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			fail("a churn process died (status %#x)", st);
	for (p = 0; p < NCOUNT; p++)
		printf("# churn: %s: %llu\n", count_name[p], sh->c[p]);
	/* A VM slowed down by others may reach the deadline first: 100 do then. */
	tap_check(sh->c[C_CREATED] >= max_fabrics ||
		  (now_s() >= end && sh->c[C_CREATED] >= 100),
		  "churn: %llu fabrics created, used and deleted through netlink (want %llu%s)",
		  sh->c[C_CREATED], max_fabrics,
		  sh->c[C_CREATED] < max_fabrics ? ", or 100 by the deadline" : "");
	tap_check(sh->c[C_ENODEV_AFTER_DEL] == sh->c[C_CREATED],
		  "churn: ENODEV on the open file after every delete (%llu)",
		  sh->c[C_ENODEV_AFTER_DEL]);
	tap_check(sh->c[C_USE_OPS] > 0 && sh->c[C_FIX_OPS] > 0,
		  "churn: %llu ioctls on churned fabrics (%llu ENODEV), %llu on the fixture",
		  sh->c[C_USE_OPS], sh->c[C_USE_ENODEV], sh->c[C_FIX_OPS]);
	tap_check(sh->c[C_DUMPS] > 0,
		  "churn: %llu complete dumps checked (%llu fabrics), %llu interrupted and restarted",
		  sh->c[C_DUMPS], sh->c[C_DUMP_FABRICS], sh->c[C_DUMPS_INTR]);

	stopped = batch_delete(6);
	tap_check(stopped > 0, "churn: fabric-del stopped %d running batches with ENODEV",
		  stopped);

	tap_check(!stale_nodes(), "churn: no /dev/bfly* node left but the fixture");
	tap_check(one_dump(false) == 1, "churn: a final dump is complete and consistent");
	st = fabric_new(BFLY_TOPO_BENES, 8, &id);
	tap_check(!st && id == 1 && !fabric_del(id),
		  "churn: ids reused: a new fabric is bfly1 again (got %u, highest id seen %llu)",
		  id, sh->c[C_MAX_ID]);
	tap_check(!sh->failures, "churn: %llu failed checks", sh->failures);
	return sh->failures ? 1 : 0;
}
