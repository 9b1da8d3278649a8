/* SPDX-License-Identifier: MIT */
/*
 * fdpass.h: one descriptor over a unix socket (SCM_RIGHTS): how init hands
 * the target's seccomp listener to the supervisor, and the supervisor to
 * the broker. In launcher/lib: both sides of the privilege line use it.
 */
#ifndef WARD_FDPASS_H
#define WARD_FDPASS_H

/* Send fd on sock. Returns 0 or -1. */
int ward_send_fd(int sock, int fd);

/* The descriptor of a message on sock, or -1. */
int ward_recv_fd(int sock);

/* One message of one byte, with or without a descriptor: 1 with *byte and
 * *fd (-1 when none came), 0 at the end, -1 on an error. */
int ward_recv_byte_fd(int sock, char *byte, int *fd);

#endif
