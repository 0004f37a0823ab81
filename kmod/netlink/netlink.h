/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the netlink handler files share: the family and the helpers that
 * find a request's fabric, read its message list and word its refusals.
 */
#ifndef _BFLY_NETLINK_H
#define _BFLY_NETLINK_H

#include <net/genetlink.h>

struct bfly_fabric;
struct bfly_msgset_msg;

extern struct genl_family bfly_nl_family;

void bfly_nl_set_msg(struct netlink_ext_ack *extack,
		     const struct nlattr *attr, const char *msg);
int bfly_nl_mem_refused(struct netlink_ext_ack *extack, int err);
int bfly_nl_answered(struct netlink_ext_ack *extack, int err);
struct bfly_fabric *bfly_nl_fabric(struct genl_info *info);
int bfly_nl_msgs_count(struct genl_info *info, u32 *count);
int bfly_nl_msgs_read(void *ctx, struct bfly_msgset_msg *msgs, u32 count);
int bfly_nl_msgs_read_at(void *ctx, struct bfly_msgset_msg *msgs, u32 first, u32 count);

#endif /* _BFLY_NETLINK_H */
