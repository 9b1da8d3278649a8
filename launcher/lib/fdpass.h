/* SPDX-License-Identifier: MIT */
/*
 * fdpass.h: one descriptor over a unix socket (SCM_RIGHTS).
 */
#ifndef WARD_FDPASS_H
#define WARD_FDPASS_H

/* Send fd on sock. Returns 0 or -1. */
int ward_send_fd(int sock, int fd);

/* The descriptor of a message on sock, or -1. */
int ward_recv_fd(int sock);

#endif
