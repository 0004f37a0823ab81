// SPDX-License-Identifier: GPL-2.0
/*
 * Every netlink request is answered, also when signals arrive while the
 * kernel works on it. Sends long requests with NLM_F_ACK on a raw socket
 * while a timer signal fires every millisecond, or while another process
 * stops and continues this one, and checks the reply and the ack arrive
 * (a bounded wait: a request left unanswered fails, it does not hang).
 *
 *   nl-signal-test ID             ID: a benes fabric of 1024 ports or more
 *   nl-signal-test hold-dump ID   start a fabric-get dump of ID with its
 *                                 matrix, read one message, then sleep
 *                                 (the dump stays open until killed)
 *   nl-signal-test msgset-kill ID ID: an LCAN of 64 PEs or fewer. A forked
 *                                 child sends a msgset of 8191 messages to
 *                                 PE 0 (8191 cycles: seconds natively) on
 *                                 the socket it shares with the parent and
 *                                 is killed 0.5 s later, inside the
 *                                 routing: the answer the parent reads is
 *                                 ECANCELED with its reason, no reply
 *   nl-signal-test hrel-kill ID   ID: a multibutterfly. The same with an
 *                                 hrel of 8191 messages (h up to 256),
 *                                 the child killed at fractions of the
 *                                 time the request takes: each answer is
 *                                 the reply or ECANCELED without one, one
 *                                 ECANCELED at least
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly_netlink.h>

#include "nl-kit.h"
#include "tap.h"

/* Signals caught; the handler and main() share it atomically. */
static int signals;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_add_fetch(&signals, 1, __ATOMIC_RELAXED);
}

/* What the answer to the request in tx held. */
struct answer {
	bool reply;	/* a reply message of the family */
	bool ack;	/* the NLMSG_ERROR ack */
	int err;	/* its error */
	__u64 rounds;	/* BFLY_A_ROUNDS of an a2a reply */
	char msg[128];	/* the ack's extended ack message, if any */
};

/* Read the answer to tx's sequence number for at most 60 s. */
static void read_answer(struct answer *an)
{
	struct timeval tv = { .tv_sec = 60 };
	struct nlmsghdr *h;
	struct nlattr *a;
	void *end;
	ssize_t n;

	memset(an, 0, sizeof(*an));
	setsockopt(nlfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (!an->ack) {
		n = nl_recv(sizeof(rx.b));
		if (n == -EINTR)
			continue;
		if (n < 0)
			return;
		for (h = &rx.nlh; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				an->ack = true;
				an->err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				if (ext_msg(h))
					snprintf(an->msg, sizeof(an->msg), "%s", ext_msg(h));
				continue;
			}
			an->reply = true;
			for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a))
				if (a->nla_type == BFLY_A_ROUNDS)
					an->rounds = attr_u64(a);
		}
	}
}

/* Send tx while a 1 ms timer signals this process; the signals counted. */
static int send_with_timer(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	struct itimerval off = { 0 };
	int err;

	__atomic_store_n(&signals, 0, __ATOMIC_RELAXED);
	setitimer(ITIMER_REAL, &it, NULL);
	do
		err = nl_send();
	while (err == -EINTR);
	setitimer(ITIMER_REAL, &off, NULL);
	return err;
}

/* The stopping child: told to finish by SIGTERM; its handler sets it. */
static int stopper_done;

static void on_term(int sig)
{
	(void)sig;
	__atomic_store_n(&stopper_done, 1, __ATOMIC_RELAXED);
}

/*
 * Send tx while a child stops and continues this process every 2 ms. The
 * child ends on SIGTERM and continues this process last: a SIGSTOP it
 * sent as it was told to end is always followed by a SIGCONT. (Killing
 * it instead could leave this process stopped for good, when its last
 * SIGSTOP crossed the kill.)
 */
static int send_with_stops(int *stops)
{
	struct sigaction sa = { .sa_handler = on_term };
	pid_t parent = getpid(), child;
	int err, status;

	child = fork();
	if (child == 0) {
		sigaction(SIGTERM, &sa, NULL);
		while (!__atomic_load_n(&stopper_done, __ATOMIC_RELAXED)) {
			kill(parent, SIGSTOP);
			usleep(1000);
			kill(parent, SIGCONT);
			usleep(1000);
		}
		kill(parent, SIGCONT);
		_exit(0);
	}
	/* Let the child's first stop land before the request. */
	usleep(20000);
	do
		err = nl_send();
	while (err == -EINTR);
	kill(child, SIGTERM);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	*stops = 1;
	return err;
}

static void try_a2a(__u32 id, __u32 ports, bool stops)
{
	const char *how = stops ? "stopped and continued" : "timer signals";
	struct answer an;
	int err, n = 0;

	msg_start(family, NLM_F_ACK, BFLY_CMD_A2A);
	put_u32(BFLY_A_ID, id);
	err = stops ? send_with_stops(&n) : send_with_timer();
	tap_check(!err, "a2a, %s: sent (%s)", how, err ? strerror(-err) : "ok");
	if (!stops)
		tap_check(__atomic_load_n(&signals, __ATOMIC_RELAXED) > 0,
			  "a2a: %d signals arrived while the kernel worked",
			  __atomic_load_n(&signals, __ATOMIC_RELAXED));
	read_answer(&an);
	tap_check(an.reply && an.ack && an.err == 0,
		  "a2a, %s: a reply and the ack came (reply %d, ack %d, error %d)",
		  how, an.reply, an.ack, an.err);
	tap_check(an.rounds == ports, "a2a, %s: every round ran (%llu of %u)",
		  how, (unsigned long long)an.rounds, ports);
}

static void try_route(__u32 id, __u32 ports)
{
	__u32 *perm = malloc(ports * sizeof(*perm)), i;
	struct answer an;
	int err;

	for (i = 0; i < ports; i++)
		perm[i] = ports - 1 - i;
	msg_start(family, NLM_F_ACK, BFLY_CMD_ROUTE);
	put_u32(BFLY_A_ID, id);
	put(BFLY_A_PERM, perm, ports * sizeof(*perm));
	put(BFLY_A_DRY_RUN, "", 0);
	err = send_with_timer();
	tap_check(!err, "route, timer signals: sent (%s)", err ? strerror(-err) : "ok");
	read_answer(&an);
	tap_check(an.ack && (an.reply || an.err),
		  "route, timer signals: answered (reply %d, ack %d, error %d)",
		  an.reply, an.ack, an.err);
	free(perm);
}

/**
 * struct kill_result - what kill_sender() saw
 * @started: the child said it sends
 * @returned: its send returned before the kill
 * @killed: it died of SIGKILL
 * @an: the answer on the shared socket
 */
struct kill_result {
	bool started, returned, killed;
	struct answer an;
};

/* A child sends tx and is killed @delay s after it says so; the answer read. */
static void kill_sender(double delay, struct kill_result *k)
{
	int status, p[2];
	char c = 0;
	pid_t pid;

	memset(k, 0, sizeof(*k));
	if (pipe(p))
		return;
	pid = fork();
	if (!pid) {
		/* The request runs in this process's sendmsg(): killed there */
		if (write(p[1], "S", 1) != 1)
			_exit(1);
		nl_send();
		if (write(p[1], "E", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	k->started = read(p[0], &c, 1) == 1 && c == 'S';
	usleep(delay * 1e6);
	kill(pid, SIGKILL);
	k->killed = waitpid(pid, &status, 0) == pid && WIFSIGNALED(status);
	k->returned = read(p[0], &c, 1) == 1;
	close(p[0]);
	read_answer(&k->an);
}

/* A fatal signal during a msgset: ECANCELED reaches the shared socket. */
static int msgset_kill(__u32 id)
{
	__u32 n = 8191, m, *pairs = calloc(2 * n, sizeof(*pairs));
	struct kill_result k;
	int one = 1;

	if (!pairs || nl_open())
		return 1;
	setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	for (m = 0; m < n; m++)
		pairs[2 * m] = m % 64;	/* destination 0: PE 0's wire takes 8191 cycles */
	msg_start(family, NLM_F_ACK, BFLY_CMD_MSGSET);
	put_u32(BFLY_A_ID, id);
	put(BFLY_A_MSGS, pairs, 2 * n * sizeof(*pairs));
	kill_sender(0.5, &k);
	tap_check(k.started, "msgset-kill: the child sends the set");
	tap_check(k.killed, "msgset-kill: the child died of the signal");
	tap_check(!k.returned, "msgset-kill: it died inside the routing (sendmsg)");
	tap_check(k.an.ack && k.an.err == -ECANCELED && !k.an.reply,
		  "msgset-kill: answered ECANCELED, no reply (reply %d, ack %d, error %d)",
		  k.an.reply, k.an.ack, k.an.err);
	tap_check(!!strstr(k.an.msg, "being killed"), "msgset-kill: extack \"%s\"", k.an.msg);
	free(pairs);
	return tap_failed != 0;
}

/* A fatal signal during an hrel on a multibutterfly: ECANCELED, or the reply. */
static int hrel_kill(__u32 id, __u32 ports)
{
	__u32 n = ports * 256 < 8191 ? ports * 256 : 8191, m, tries, cancelled = 0, bad = 0;
	__u32 *pairs = calloc(2 * n, sizeof(*pairs));
	struct timespec t0, t1;
	struct kill_result k;
	struct answer an;
	double full;
	int one = 1;

	if (!pairs || nl_open())
		return 1;
	setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	for (m = 0; m < n; m++) {
		pairs[2 * m] = m % ports;
		pairs[2 * m + 1] = (m * 7 + m / ports) % ports;
	}
	msg_start(family, NLM_F_ACK, BFLY_CMD_HREL);
	put_u32(BFLY_A_ID, id);
	put(BFLY_A_MSGS, pairs, 2 * n * sizeof(*pairs));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	nl_send();
	read_answer(&an);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	full = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_check(an.reply && an.ack && !an.err, "hrel-kill: %u messages answered in %.3f s", n,
		  full);
	/*
	 * Kills from 10 ms after the child says it sends: a kill before its
	 * sendmsg() would leave nothing to answer (a loaded host can hold
	 * the child that long between the two).
	 */
	for (tries = 0; tries < 8; tries++) {
		double delay = 0.01 + full * (0.1 + 0.1 * tries);

		kill_sender(delay, &k);
		an = k.an;
		if (an.ack && an.err == -ECANCELED && !an.reply && strstr(an.msg, "being killed")) {
			cancelled++;
		} else if (!(an.ack && !an.err && an.reply)) {
			bad++;
			printf("# hrel-kill: killed after %.3f s: ack %d, error %d, reply %d, ",
			       delay, an.ack, an.err, an.reply);
			printf("\"%s\"\n", an.msg);
		}
	}
	tap_check(cancelled > 0 && !bad,
		  "hrel-kill: %u of %u killed senders answered ECANCELED with its reason, no reply; the rest the reply (%u wrong)",
		  cancelled, tries, bad);
	free(pairs);
	return tap_failed != 0;
}

/* Open a dump and leave it unread, as a stalled client would. */
static int hold_dump(__u32 id)
{
	int small = 4096;

	if (nl_open())
		return 1;
	setsockopt(nlfd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	msg_start(family, NLM_F_DUMP, BFLY_CMD_FABRIC_GET);
	put_u32(BFLY_A_ID, id);
	put_u32(BFLY_A_WANT, BFLY_WANT_MATRIX);
	if (nl_send() || nl_recv(sizeof(rx.b)) <= 0)
		return 1;
	printf("holding the dump\n");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	char path[32];
	__u32 id, ports;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "hold-dump"))
		return hold_dump(strtoul(argv[2], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "msgset-kill"))
		return msgset_kill(strtoul(argv[2], NULL, 10));
	if (argc != 2 && !(argc == 3 && !strcmp(argv[1], "hrel-kill"))) {
		fprintf(stderr, "usage: %s ID | hold-dump ID | msgset-kill ID | hrel-kill ID\n",
			argv[0]);
		return 2;
	}
	id = strtoul(argv[argc - 1], NULL, 10);
	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/ports", id);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &ports) != 1) {
		fprintf(stderr, "nl-signal-test: no fabric bfly%u\n", id);
		return 2;
	}
	fclose(f);
	if (argc == 3)
		return hrel_kill(id, ports);
	sigaction(SIGALRM, &sa, NULL);
	tap_check(nl_open() == 0, "netlink socket and family");
	try_a2a(id, ports, false);
	try_a2a(id, ports, true);
	try_route(id, ports);
	return tap_failed != 0;
}
