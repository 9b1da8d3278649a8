/* SPDX-License-Identifier: MIT */
/*
 * ns.h: create the sandbox's init in its new namespaces.
 */
#ifndef WARD_NS_H
#define WARD_NS_H

#include "launch.h"
#include "util.h"

/* The namespaces of every sandbox: user, mount, pid, net, ipc, uts,
 * cgroup. */
#define WARD_CLONE_NS                                                          \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET |           \
	 CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)

struct ward_child {
	pid_t pid;
	int pidfd;   /* init's pidfd: for poll, waitid and signals */
	int msg_rd;  /* messages from init and the target */
	int sync_wr; /* the lifeline: keep open while init lives */
};

/* One clone3() makes init in all the namespaces at once (and, with
 * l->cgroup_fd, in the run's cgroup2 directory); the supervisor writes its
 * id maps. init is then held until ward_release(): whatever must be in
 * place before it goes on (its v1 cgroups) goes in between. l->sync_rd and
 * l->msg_wr are filled here. On failure no child is left (it is killed and
 * reaped), and the message explains a host that forbids user namespaces. */
int ward_spawn(struct ward_launch *l, struct ward_child *child, ward_err *err);

/* Let init go on (one byte on the sync pipe). On failure init is killed
 * and reaped, and err says why (init's own message if it failed first). */
int ward_release(struct ward_child *child, ward_err *err);

/* Let the released init start the target (a second byte), once what must
 * be ready before it runs is. Not checked: if init has ended already (its
 * setup failed), the supervision loop hears why. */
void ward_start(struct ward_child *child);

/* Kill and reap a spawned init that must not go on; returns -1 with err
 * replaced by init's own failure if it had one. */
int ward_spawn_abort(struct ward_child *child, ward_err *err);

#endif
