/* test_store_bans.c - bans in the store (store.h), on a real database with
 * a real loop: a SQLite file, or in the pg family a PostgreSQL database of
 * the test's own (tests/store_where.h). A ban is kept in the bans table and
 * honoured by this host as soon as it is answered; a ban of the same
 * target replaces the one before; an unban removes it (then none to
 * remove); bans outlive the store's close; a row written by another host
 * (straight into the table here) is honoured within STORE_BAN_REFRESH_MS,
 * and one it deletes stops being honoured. Every test ends with
 * uv_loop_close() == 0. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "ban_list.h"
#include "check_main.h"
#include "store.h"
#include "store_fixture.h"
#include "store_where.h"

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-bans-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

typedef struct got {
    int calls, status;
} got_t;

static void on_done(void *ctx, int status)
{
    got_t *g = ctx;
    g->calls++;
    g->status = status;
}

static int ban(store_t *st, const char *target, int64_t until_ms)
{
    store_ban_t b = { .until_ms = until_ms, .made_ms = ban_now_ms() };
    snprintf(b.target, sizeof b.target, "%s", target);
    got_t g = { 0 };
    ck_assert_int_eq(store_ban(st, &b, on_done, &g), 0);
    ck_assert_int_eq(g.calls, 0); /* never from inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g.calls, 1);
    return g.status;
}

static int unban(store_t *st, const char *target)
{
    got_t g = { 0 };
    ck_assert_int_eq(store_unban(st, target, on_done, &g), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g.calls, 1);
    return g.status;
}

START_TEST(ban_replace_unban)
{
    store_t *st = store_fixture_open(&fast);
    int64_t now = ban_now_ms(), until;
    ck_assert_int_eq(store_banned_addr(st, "10.1.2.3", now, &until), 0);
    ck_assert_int_eq(ban(st, "10.0.0.0/8", 0), STORE_OK);
    /* honoured once answered: no wait for the next read */
    ck_assert_int_eq(store_banned_addr(st, "10.1.2.3", now, &until), 1);
    ck_assert_int_eq(until, 0);
    ck_assert_int_eq(store_banned_addr(st, "11.1.2.3", now, &until), 0);
    ck_assert_int_eq(ban(st, "dave", now + 3600000), STORE_OK);
    ck_assert_int_eq(store_banned_name(st, "Dave", now, &until), 1);
    ck_assert_int_eq(until, now + 3600000);
    ck_assert_int_eq(store_banned_name(st, "Dave", now + 3600000, &until), 0);
    /* the same target again: its end replaced */
    ck_assert_int_eq(ban(st, "dave", now + 60000), STORE_OK);
    ck_assert_int_eq(store_banned_name(st, "dave", now, &until), 1);
    ck_assert_int_eq(until, now + 60000);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM bans"), 2);
    store_ban_t *v;
    ck_assert_uint_eq(store_bans(st, now, &v), 2);
    ck_assert_str_eq(v[0].target, "10.0.0.0/8");
    ck_assert_str_eq(v[1].target, "dave");
    free(v);
    ck_assert_int_eq(unban(st, "10.0.0.0/8"), STORE_OK);
    ck_assert_int_eq(store_banned_addr(st, "10.1.2.3", now, &until), 0);
    ck_assert_int_eq(unban(st, "10.0.0.0/8"), STORE_NOT_FOUND);
    store_close(st);
    /* kept: read again at the next open */
    st = store_fixture_open(&fast);
    ck_assert_int_eq(store_banned_name(st, "DAVE", now, &until), 1);
    ck_assert_int_eq(until, now + 60000);
    store_close(st);
}
END_TEST

static void on_tick(uv_timer_t *t)
{
    (void)t; /* it only wakes the loop */
}

/* Runs the loop until store_banned_addr(ip) is `want`, or 30 s. */
static int wait_banned(store_t *st, const char *ip, int want)
{
    uv_timer_t tick;
    uv_timer_init(&loop, &tick);
    uv_timer_start(&tick, on_tick, 20, 20);
    uint64_t end = uv_now(&loop) + 30000;
    int64_t until;
    int is = store_banned_addr(st, ip, ban_now_ms(), &until);
    while (is != want && uv_now(&loop) < end) {
        uv_run(&loop, UV_RUN_ONCE);
        is = store_banned_addr(st, ip, ban_now_ms(), &until);
    }
    uv_close((uv_handle_t *)&tick, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    return is == want;
}

START_TEST(another_hosts_bans_are_read)
{
    store_t *st = store_fixture_open(&fast);
    sw_exec("INSERT INTO bans (target, until_ms, made_ms) VALUES"
            " ('192.0.2.0/24', 0, 1)");
    ck_assert_msg(wait_banned(st, "192.0.2.9", 1), "never read");
    sw_exec("DELETE FROM bans");
    ck_assert_msg(wait_banned(st, "192.0.2.9", 0), "never read again");
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("store_bans");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, ban_replace_unban);
    tcase_add_test(tc, another_hosts_bans_are_read);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
