/* SPDX-License-Identifier: MIT */
/* Unit tests of a session's refusals per cell
 * (launcher/unprivileged/session_denials.c, docs/spec.md 7.6): a call
 * refused in two cells is in both with each one's count, refusals between
 * cells are no cell's, a lost event is made up by the next one's running
 * count, garbage on the socket is counted and ignored, and the courier's
 * answer is taken only when it is the one asked for. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "denial_event.h"
#include "session_srv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct ward_session_srv cfg;
static struct srv s;
static int broker_end;

static int setup(void **state)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	memset(&s, 0, sizeof(s));
	memset(&cfg, 0, sizeof(cfg));
	cfg.events = sv[0];
	broker_end = sv[1];
	s.cfg = &cfg;
	return 0;
}

static int teardown(void **state)
{
	close(cfg.events);
	close(broker_end);
	free(s.den.files);
	return 0;
}

static void refuse(int32_t nr, uint64_t total)
{
	struct ward_denial_event e = {.magic = WARD_DENIAL_MAGIC,
				      .nr = nr,
				      .arch = 0xc000003e,
				      .errno_nr = 1,
				      .total = total};

	assert_int_equal(send(broker_end, &e, sizeof(e), 0), sizeof(e));
}

/* The running cell's "denials" member. */
static char *cell_json(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ward_sdenials_json(&s, f);
	fclose(f);
	return buf;
}

static void cell_start(void)
{
	ward_sdenials_start(&s);
	s.running = true;
}

static void two_cells_each_count(void **state)
{
	char *j;

	cell_start();
	refuse(165, 1);
	j = cell_json();
	assert_non_null(strstr(j, "\"nr\":165,\"arch\":3221225534,\"errno\":1,"
				  "\"count\":1,"));
	free(j);
	s.running = false;
	/* between cells: no cell's */
	refuse(165, 2);
	ward_sdenials_read(&s);
	cell_start();
	j = cell_json();
	assert_non_null(strstr(j, "\"seccomp\":[]"));
	free(j);
	s.running = false;
	cell_start();
	refuse(165, 3);
	refuse(165, 4);
	j = cell_json();
	assert_non_null(strstr(j, "\"count\":2,"));
	free(j);
}

/* A connect to ADDR:443 refused with EPERM, as the broker records it. */
static void refused_connect(struct ward_net_record *n, const char *addr)
{
	n->call = WARD_NC_CONNECT;
	n->verdict = WARD_NV_REFUSED;
	n->family = 4;
	n->proto = 6;
	n->port = 443;
	n->domain = 2;
	n->err = 1;
	memcpy(n->addr, addr, 4);
}

/* A refused connect (record 3 of the broker's table) and a refused DNS
 * query (record 0 of its dns table), as the broker sends them. */
static void refuse_net(uint32_t kind, uint32_t index, uint64_t total)
{
	struct ward_net_event e = {.magic = WARD_NETEVENT_MAGIC,
				   .kind = kind,
				   .index = index,
				   .total = total};

	if (kind == WARD_NETEV_ATTEMPT) {
		refused_connect(&e.r.net, "\xc0\x00\x02\x63");
	} else {
		strcpy(e.r.dns.name, "forbidden.test");
		e.r.dns.qtype = 1;
		e.r.dns.verdict = WARD_DNS_REFUSED;
	}
	assert_int_equal(send(broker_end, &e, sizeof(e), 0), sizeof(e));
}

#define CONN                                                                   \
	"\"network\":[{\"call\":\"connect\",\"family\":\"ipv4\","              \
	"\"protocol\":\"tcp\",\"address\":\"192.0.2.99\",\"port\":443,"        \
	"\"domain\":2,\"errno\":\"EPERM\",\"count\":"
#define DNS                                                                    \
	"\"dns\":[{\"name\":\"forbidden.test\",\"type\":\"A\","                \
	"\"verdict\":\"refused\",\"count\":"

static void net_and_dns_per_cell(void **state)
{
	char *j;

	cell_start();
	refuse_net(WARD_NETEV_ATTEMPT, 3, 1);
	refuse_net(WARD_NETEV_DNS, 0, 1);
	j = cell_json();
	assert_non_null(strstr(j, CONN "1}]"));
	assert_non_null(strstr(j, DNS "1}]"));
	free(j);
	s.running = false;
	/* a cell without: neither */
	cell_start();
	j = cell_json();
	assert_non_null(strstr(j, "\"network\":[],\"dns\":[]"));
	free(j);
	s.running = false;
	/* twice more, the broker's count running on: this cell's 2 */
	cell_start();
	refuse_net(WARD_NETEV_ATTEMPT, 3, 2);
	refuse_net(WARD_NETEV_ATTEMPT, 3, 3);
	j = cell_json();
	assert_non_null(strstr(j, CONN "2}]"));
	assert_non_null(strstr(j, "\"dns\":[]"));
	free(j);
	/* an unknown kind is garbage, not a denial */
	refuse_net(9, 1, 1);
	ward_sdenials_read(&s);
	assert_int_equal(s.den.garbage, 1);
}

/* A relayed connection refused on its server name (relay.c's end()):
 * the cell's denial says which name and why. */
static void relay_refusal_in_cell(void **state)
{
	struct ward_net_event e = {.magic = WARD_NETEVENT_MAGIC,
				   .kind = WARD_NETEV_ATTEMPT,
				   .index = 5,
				   .total = 1};
	char *j;

	refused_connect(&e.r.net, "\xcb\x00\x71\x05");
	e.r.net.relay = WARD_RELAY_OTHER;
	strcpy(e.r.net.name, "index.test");
	strcpy(e.r.net.sni, "other.test");
	cell_start();
	assert_int_equal(send(broker_end, &e, sizeof(e), 0), sizeof(e));
	j = cell_json();
	assert_non_null(strstr(j, "\"address\":\"203.0.113.5\",\"port\":443,"));
	assert_non_null(
	    strstr(j, "\"errno\":\"EPERM\",\"relay\":{\"server_name\": "
		      "\"other.test\", \"sent\": 0, \"received\": 0, "
		      "\"ended\": \"refused: another name's server\"},"
		      "\"count\":1}"));
	free(j);
}

static void lost_event_made_up(void **state)
{
	char *j;

	cell_start();
	refuse(101, 1);
	/* the broker's event of its 2nd call was lost: the 3rd says 3 */
	refuse(101, 3);
	j = cell_json();
	assert_non_null(strstr(j, "\"count\":3,"));
	free(j);
}

static void garbage_counted(void **state)
{
	char junk[7] = "garbage";
	char *j;

	cell_start();
	assert_int_equal(send(broker_end, junk, sizeof(junk), 0), sizeof(junk));
	refuse(165, 1);
	j = cell_json();
	assert_int_equal(s.den.garbage, 1);
	assert_non_null(strstr(j, "\"count\":1,"));
	free(j);
}

static void only_the_answer_asked_for(void **state)
{
	struct {
		struct ward_cell_msg m;
		char body[8];
	} a = {{WARD_CELLDIFF_MAGIC, WARD_CELL_END, 7}, "[1]"};

	s.den.files_kind = WARD_CELL_END;
	s.den.files_cell = 8;
	/* an answer for cell 7, late: not cell 8's */
	assert_int_equal(send(broker_end, &a, sizeof(a.m) + 3, 0),
			 sizeof(a.m) + 3);
	ward_sdenials_read(&s);
	assert_false(s.den.files_got);
	a.m.cell = 8;
	assert_int_equal(send(broker_end, &a, sizeof(a.m) + 3, 0),
			 sizeof(a.m) + 3);
	ward_sdenials_read(&s);
	assert_true(s.den.files_got);
	assert_string_equal(s.den.files, "[1]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(two_cells_each_count, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(net_and_dns_per_cell, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(relay_refusal_in_cell, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(lost_event_made_up, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(garbage_counted, setup, teardown),
	    cmocka_unit_test_setup_teardown(only_the_answer_asked_for, setup,
					    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
