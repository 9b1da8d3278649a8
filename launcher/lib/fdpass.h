/* SPDX-License-Identifier: MIT */
/*
 * fdpass.h: a small message and at most one descriptor over a unix socket
 * (SCM_RIGHTS).
 */
#ifndef WARD_FDPASS_H
#define WARD_FDPASS_H

#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

/* Send len bytes of data, and fd unless it is -1. Returns 0 or -1. */
int ward_send_msg(int sock, const void *data, size_t len, int fd);

/* Receive at most len bytes into data; *fd: the descriptor that came with
 * them, or -1. Returns the bytes received (0 at the end), or -1. */
ssize_t ward_recv_msg(int sock, void *data, size_t len, int *fd);

/* One descriptor with one byte. Returns 0 or -1. */
int ward_send_fd(int sock, int fd);

/* The descriptor of a message on sock, or -1. */
int ward_recv_fd(int sock);

#endif
