// SPDX-License-Identifier: GPL-2.0
/*
 * Run a command as another user: drop every supplementary group, set the
 * group and user ids, exec. For the permission tests in the test VM,
 * whose busybox has no setuid helper to rely on.
 *
 *   runas UID GID COMMAND [ARG]...
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: %s UID GID COMMAND [ARG]...\n", argv[0]);
		return 2;
	}
	uid = strtoul(argv[1], NULL, 10);
	gid = strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		perror("runas");
		return 126;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
