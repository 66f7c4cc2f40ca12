/* test_store_keys.c - the store's SSH public keys (store.h), on a real
 * database with a real loop: a SQLite file, or in the pg family a
 * PostgreSQL database of the test's own (tests/store_where.h). Keys are
 * added, listed (oldest first), refused when the same key comes twice,
 * past STORE_KEYS_MAX, for no such account or with bad text, removed; the
 * bridge's lookup (store_key_account, from a thread with no loop) finds
 * the account by name in any case and fingerprint, and nothing for
 * another account's key, an unknown name or a removed key; it answers
 * from several threads at once and gives up at its deadline. Every test ends with uv_loop_close() == 0. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "check_main.h"
#include "store.h"
#include "store_fixture.h"
#include "store_where.h"

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-keys-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

/* Fingerprints and keys as the lobby would hand them over (the store only
 * keeps them: sshkey.h checks real ones). */
#define FP(n) "SHA256:fingerprint" #n "AAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define KEY(n) "ssh-ed25519 AAAAkey" #n

typedef struct got {
    int calls;
    store_keys_t keys;
} got_t;

static void on_keys(void *ctx, const store_keys_t *k)
{
    got_t *g = ctx;
    g->calls++;
    g->keys = *k;
}

/* Runs the loop until the answer; returns it. */
static store_keys_t wait_keys(got_t *g)
{
    ck_assert_int_eq(g->calls, 0); /* never from inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g->calls, 1);
    return g->keys;
}

static store_keys_t add(store_t *st, int64_t id, const char *fp,
                        const char *key)
{
    got_t g = { 0 };
    ck_assert_int_eq(store_key_add(st, id, fp, key, on_keys, &g), 0);
    return wait_keys(&g);
}

static store_keys_t removed(store_t *st, int64_t id, const char *fp)
{
    got_t g = { 0 };
    ck_assert_int_eq(store_key_remove(st, id, fp, on_keys, &g), 0);
    return wait_keys(&g);
}

static store_keys_t list(store_t *st, int64_t id)
{
    got_t g = { 0 };
    ck_assert_int_eq(store_keys_list(st, id, on_keys, &g), 0);
    return wait_keys(&g);
}

START_TEST(add_list_remove)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin");
    store_keys_t k = list(st, erin);
    ck_assert_int_eq(k.status, STORE_OK);
    ck_assert_int_eq(k.n, 0);
    k = add(st, erin, FP(1), KEY(1));
    ck_assert_int_eq(k.status, STORE_OK);
    ck_assert_int_eq(k.n, 1);
    ck_assert_str_eq(k.keys[0].fingerprint, FP(1));
    ck_assert_str_eq(k.keys[0].type, "ssh-ed25519");
    ck_assert_int_gt(k.keys[0].added, 1700000000);
    k = add(st, erin, FP(2), "ssh-rsa AAAAkey2");
    ck_assert_int_eq(k.status, STORE_OK);
    ck_assert_int_eq(k.n, 2);
    ck_assert_str_eq(k.keys[1].type, "ssh-rsa");
    /* the table holds the key's text as given */
    ck_assert_int_eq(sw_int("SELECT count(*) FROM account_keys WHERE key ="
                            " 'ssh-rsa AAAAkey2'"), 1);
    /* the same key again: refused, the list unchanged */
    k = add(st, erin, FP(1), KEY(1));
    ck_assert_int_eq(k.status, STORE_DUPLICATE);
    ck_assert_int_eq(k.n, 2);
    /* removed: gone from the list; again: not found */
    k = removed(st, erin, FP(1));
    ck_assert_int_eq(k.status, STORE_OK);
    ck_assert_int_eq(k.n, 1);
    ck_assert_str_eq(k.keys[0].fingerprint, FP(2));
    k = removed(st, erin, FP(1));
    ck_assert_int_eq(k.status, STORE_NOT_FOUND);
    ck_assert_int_eq(k.n, 1);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM account_keys"), 1);
}
END_TEST

START_TEST(bounded_per_account)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin"), finn = store_fixture_account(st, "finn");
    char fp[STORE_KEY_FP_MAX + 1], key[64];
    for (int i = 0; i < STORE_KEYS_MAX; i++) {
        snprintf(fp, sizeof fp, "SHA256:key%d", i);
        snprintf(key, sizeof key, "ssh-ed25519 AAAA%d", i);
        ck_assert_int_eq(add(st, erin, fp, key).status, STORE_OK);
    }
    store_keys_t k = add(st, erin, "SHA256:onemore", "ssh-ed25519 AAAAmore");
    ck_assert_int_eq(k.status, STORE_FULL);
    ck_assert_int_eq(k.n, STORE_KEYS_MAX);
    /* another account has room of its own, and may hold the same key */
    ck_assert_int_eq(add(st, finn, "SHA256:key0", "ssh-ed25519 AAAA0").status,
                     STORE_OK);
    /* one removed: room for one */
    ck_assert_int_eq(removed(st, erin, "SHA256:key3").status, STORE_OK);
    ck_assert_int_eq(add(st, erin, "SHA256:onemore",
                         "ssh-ed25519 AAAAmore").status, STORE_OK);
    store_close(st);
}
END_TEST

START_TEST(bad_requests_refused)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin");
    /* no such account */
    ck_assert_int_eq(add(st, erin + 100, FP(1), KEY(1)).status,
                     STORE_NOT_FOUND);
    /* text the table must not hold */
    ck_assert_int_eq(add(st, erin, "", KEY(1)).status, STORE_INVALID);
    ck_assert_int_eq(add(st, erin, FP(1), "").status, STORE_INVALID);
    ck_assert_int_eq(add(st, erin, FP(1), "ssh-ed25519 AAAA\x1b[2J").status,
                     STORE_INVALID);
    char longkey[STORE_KEY_TEXT_MAX + 2];
    memset(longkey, 'A', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    ck_assert_int_eq(add(st, erin, FP(1), longkey).status, STORE_INVALID);
    ck_assert_int_eq(add(st, 0, FP(1), KEY(1)).status, STORE_INVALID);
    ck_assert_int_eq(list(st, erin).n, 0);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM account_keys"), 0);
}
END_TEST

START_TEST(cancel_drops_answer)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin");
    got_t g = { 0 };
    ck_assert_int_eq(store_key_add(st, erin, FP(1), KEY(1), on_keys, &g), 0);
    store_cancel(st, &g);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g.calls, 0);
    /* the add itself was made */
    ck_assert_int_eq(list(st, erin).n, 1);
    store_close(st);
}
END_TEST

static void on_done(void *ctx, int status)
{
    *(int *)ctx = status;
}

START_TEST(lookup_by_name_and_fingerprint)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "Erin"), finn = store_fixture_account(st, "finn");
    ck_assert_int_eq(add(st, erin, FP(1), KEY(1)).status, STORE_OK);
    ck_assert_int_eq(add(st, finn, FP(2), KEY(2)).status, STORE_OK);
    store_account_t a;
    char key[STORE_KEY_TEXT_MAX + 1];
    /* any case of the name; the name as registered comes back */
    ck_assert_int_eq(store_key_account(st, "erin", FP(1), 60000, &a, key,
                                       sizeof key), STORE_OK);
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(a.id, erin);
    ck_assert_str_eq(a.name, "Erin");
    ck_assert_str_eq(key, KEY(1));
    ck_assert_int_eq(a.display, 0);
    /* with the account's display choice, as a password login has it */
    int kept = -1;
    ck_assert_int_eq(store_set_display(st, erin, 9, on_done, &kept), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(kept, STORE_OK);
    ck_assert_int_eq(store_key_account(st, "ERIN", FP(1), 60000, &a, NULL, 0),
                     STORE_OK);
    ck_assert_int_eq(a.display, 9);
    /* another account's key, an unknown name, a malformed one */
    ck_assert_int_eq(store_key_account(st, "erin", FP(2), 60000, &a, NULL, 0),
                     STORE_NOT_FOUND);
    ck_assert_int_eq(a.id, 0);
    ck_assert_int_eq(store_key_account(st, "nobody", FP(1), 60000, &a, key,
                                       sizeof key), STORE_NOT_FOUND);
    ck_assert_str_eq(key, "");
    ck_assert_int_eq(store_key_account(st, "no one", FP(1), 60000, &a, NULL, 0),
                     STORE_NOT_FOUND);
    /* removed: no longer */
    ck_assert_int_eq(removed(st, erin, FP(1)).status, STORE_OK);
    ck_assert_int_eq(store_key_account(st, "Erin", FP(1), 60000, &a, NULL, 0),
                     STORE_NOT_FOUND);
    store_close(st);
}
END_TEST

/* The bridge's threads: several at once, none running a loop. */
typedef struct looker {
    store_t *st;
    const char *name, *fp;
    int rounds, ok;
} looker_t;

static void look(void *arg)
{
    looker_t *l = arg;
    for (int i = 0; i < l->rounds; i++) {
        store_account_t a;
        if (store_key_account(l->st, l->name, l->fp, 60000, &a, NULL, 0) ==
            STORE_OK && strcmp(a.name, l->name) == 0)
            l->ok++;
    }
}

START_TEST(lookups_from_threads)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin"), finn = store_fixture_account(st, "finn");
    ck_assert_int_eq(add(st, erin, FP(1), KEY(1)).status, STORE_OK);
    ck_assert_int_eq(add(st, finn, FP(2), KEY(2)).status, STORE_OK);
    looker_t l[4] = {
        { st, "erin", FP(1), 50, 0 }, { st, "finn", FP(2), 50, 0 },
        { st, "erin", FP(2), 50, 0 }, { st, "finn", FP(1), 50, 0 },
    };
    uv_thread_t th[4];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(uv_thread_create(&th[i], look, &l[i]), 0);
    /* the loop's own requests go on meanwhile */
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(list(st, erin).n, 1);
    for (int i = 0; i < 4; i++)
        uv_thread_join(&th[i]);
    ck_assert_int_eq(l[0].ok, 50);
    ck_assert_int_eq(l[1].ok, 50);
    ck_assert_int_eq(l[2].ok, 0);
    ck_assert_int_eq(l[3].ok, 0);
    store_close(st);
}
END_TEST

/* A lookup that cannot be answered in time gives up (STORE_ERROR): with no
 * time at all it gives up before the database thread can take it (it is
 * queued and checked under the one lock). The request it left is answered
 * later and freed by the store (ASan would see a leak or a use after
 * free). */
START_TEST(lookup_deadline)
{
    store_t *st = store_fixture_open(&fast);
    int64_t erin = store_fixture_account(st, "erin");
    ck_assert_int_eq(add(st, erin, FP(1), KEY(1)).status, STORE_OK);
    store_account_t a;
    ck_assert_int_eq(store_key_account(st, "erin", FP(1), 0, &a, NULL, 0),
                     STORE_ERROR);
    /* with time enough, the answer */
    ck_assert_int_eq(store_key_account(st, "erin", FP(1), 60000, &a, NULL, 0),
                     STORE_OK);
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "store keys (PostgreSQL)" : "store keys");
    TCase *tc = tcase_create("keys");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, add_list_remove);
    tcase_add_test(tc, bounded_per_account);
    tcase_add_test(tc, bad_requests_refused);
    tcase_add_test(tc, cancel_drops_answer);
    tcase_add_test(tc, lookup_by_name_and_fingerprint);
    tcase_add_test(tc, lookups_from_threads);
    tcase_add_test(tc, lookup_deadline);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
