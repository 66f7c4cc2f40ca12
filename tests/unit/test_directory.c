/* test_directory.c - the host's directory (sessions by id, accounts, the
 * games list) against a plain array kept beside it, shared by threads, and
 * the message queue with its bounces. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "directory.h"
#include "msg.h"
#include "rng.h"

#define NMODEL 3000

/* Random adds and removes (deletion shifts entries back): every id that
 * should be there is found with its own pointer, none other is. */
START_TEST(adds_and_removes_match_a_model)
{
    static uint8_t present[NMODEL + 1];
    directory_t d;
    dir_init(&d);
    memset(present, 0, sizeof present);
    rng_t r;
    rng_seed(&r, 11);
    size_t n = 0;
    for (int round = 0; round < 40000; round++) {
        uint64_t id = (uint64_t)rng_range(&r, 1, NMODEL);
        if (!present[id]) {
            ck_assert_int_eq(dir_add(&d, id, (void *)(uintptr_t)(id * 8), (int)(id % 3)), 0);
            present[id] = 1;
            n++;
        } else {
            dir_remove(&d, id);
            present[id] = 0;
            n--;
        }
        if (round % 997 == 0)
            for (uint64_t i = 1; i <= NMODEL; i++) {
                dir_entry_t e;
                int found = dir_lookup(&d, i, &e);
                ck_assert_int_eq(found, present[i]);
                if (found) {
                    ck_assert_ptr_eq(e.sess, (void *)(uintptr_t)(i * 8));
                    ck_assert_int_eq(e.loop, (int)(i % 3));
                }
            }
    }
    ck_assert_uint_eq(dir_count(&d), n);
    dir_entry_t e;
    ck_assert_int_eq(dir_lookup(&d, 0, &e), 0);
    ck_assert_int_eq(dir_lookup(&d, NMODEL + 1, &e), 0);
    dir_free(&d);
}
END_TEST

START_TEST(accounts_and_games)
{
    directory_t d;
    dir_init(&d);
    for (uint64_t id = 1; id <= 30; id++)
        ck_assert_int_eq(dir_add(&d, id, NULL, 0), 0);
    dir_set_account(&d, 7, 42);
    dir_set_account(&d, 19, 42);
    dir_set_account(&d, 3, 5);
    uint64_t ids[4];
    int n = dir_sessions_of(&d, 42, 19, ids, 4);
    ck_assert_int_eq(n, 1);
    ck_assert_uint_eq(ids[0], 7);
    ck_assert_int_eq(dir_sessions_of(&d, 42, 0, ids, 4), 2);
    ck_assert_int_eq(dir_sessions_of(&d, 0, 0, ids, 4), 0); /* guests: none */
    dir_set_account(&d, 7, 0); /* logged out */
    ck_assert_int_eq(dir_sessions_of(&d, 42, 0, ids, 4), 1);
    /* Every logged-in session with its account (what a host publishes),
     * at most max. */
    uint64_t sids[4];
    int64_t accts[4];
    n = dir_accounts(&d, sids, accts, 4);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < n; i++)
        ck_assert((sids[i] == 19 && accts[i] == 42) ||
                  (sids[i] == 3 && accts[i] == 5));
    ck_assert(sids[0] != sids[1]);
    ck_assert_int_eq(dir_accounts(&d, sids, accts, 1), 1);

    /* Games: listed lowest id first, at most max, never `except`. */
    for (uint64_t id = 30; id >= 10; id -= 5) {
        dir_game_t g = { .depth = (int)id };
        strcpy(g.name, "p");
        dir_set_game(&d, id, &g);
    }
    ck_assert_uint_eq(dir_ngames(&d), 5); /* 10 15 20 25 30 */
    dir_entry_t out[3];
    n = dir_games(&d, 15, out, 3);
    ck_assert_int_eq(n, 3);
    ck_assert_uint_eq(out[0].id, 10);
    ck_assert_uint_eq(out[1].id, 20);
    ck_assert_uint_eq(out[2].id, 25);
    ck_assert_int_eq(out[2].game.depth, 25);
    dir_set_game(&d, 20, NULL);
    dir_set_game(&d, 20, NULL); /* twice: counted once */
    ck_assert_uint_eq(dir_ngames(&d), 4);
    dir_remove(&d, 25); /* a playing session that goes */
    ck_assert_uint_eq(dir_ngames(&d), 3);
    n = dir_games(&d, 0, out, 3);
    ck_assert_int_eq(n, 3);
    ck_assert_uint_eq(out[0].id, 10);
    ck_assert_uint_eq(out[1].id, 15);
    ck_assert_uint_eq(out[2].id, 30);
    /* Progress: depth, turns and the last key change; the name and the
     * watchers stay; a session with no game gets none. */
    dir_game_t g = { .depth = 1, .turns = 5, .watchers = 2 };
    strcpy(g.name, "ann");
    dir_set_game(&d, 15, &g);
    dir_set_progress(&d, 15, 3, 90, 12345);
    dir_set_progress(&d, 20, 4, 40, 999); /* not playing */
    n = dir_games(&d, 0, out, 3);
    ck_assert_int_eq(n, 3);
    ck_assert_uint_eq(out[1].id, 15);
    ck_assert_str_eq(out[1].game.name, "ann");
    ck_assert_int_eq(out[1].game.depth, 3);
    ck_assert_int_eq(out[1].game.turns, 90);
    ck_assert_int_eq(out[1].game.watchers, 2);
    ck_assert_uint_eq(out[1].game.last_input_ms, 12345);
    ck_assert_uint_eq(dir_ngames(&d), 3);
    /* A name in play, letters' case aside; not the asker's own, nor a
     * game that ended. */
    ck_assert_int_eq(dir_name_playing(&d, "ANN", 0), 1);
    ck_assert_int_eq(dir_name_playing(&d, "ann", 15), 0);
    ck_assert_int_eq(dir_name_playing(&d, "an", 0), 0);
    dir_set_game(&d, 15, NULL);
    ck_assert_int_eq(dir_name_playing(&d, "ann", 0), 0);
    dir_free(&d);
}
END_TEST

START_TEST(queue_is_fifo_and_requests_bounce)
{
    msgq_t q = { 0 };
    for (int i = 0; i < 100; i++) {
        smsg_t *m = msg_new(MSG_WATCH_KEY, 1, 2, "k%d", i);
        ck_assert_ptr_nonnull(m);
        m->a = i;
        msgq_push(&q, m);
    }
    ck_assert_uint_eq(q.len, 100);
    for (int i = 0; i < 100; i++) {
        smsg_t *m = msgq_pop(&q);
        ck_assert_int_eq((int)m->a, i);
        msg_free(m);
    }
    ck_assert_ptr_null(msgq_pop(&q));

    /* A request to a session that is gone comes back refused, to its
     * sender; anything else is dropped. */
    smsg_t *join = msg_new(MSG_WATCH_JOIN, 5, 9, NULL);
    smsg_t *b = msg_bounce(join);
    ck_assert_int_eq(b->type, MSG_WATCH_REFUSED);
    ck_assert_uint_eq(b->from, 9);
    ck_assert_uint_eq(b->to, 5);
    ck_assert_str_eq(b->text, "That game is over.");
    msg_free(b);
    msg_free(join);
    smsg_t *take = msg_new(MSG_TAKEOVER, 5, 9, NULL);
    b = msg_bounce(take);
    ck_assert_int_eq(b->type, MSG_TAKEOVER_DONE);
    ck_assert_ptr_null(b->game);
    msg_free(b);
    msg_free(take);
    smsg_t *key = msg_new(MSG_WATCH_KEY, 5, 9, NULL);
    ck_assert_ptr_null(msg_bounce(key));
    /* a game's summary to a watcher gone while it waited: its leave */
    smsg_t *start = msg_new(MSG_WATCH_START, 5, 9, NULL);
    b = msg_bounce(start);
    ck_assert_int_eq(b->type, MSG_WATCH_LEAVE);
    ck_assert_uint_eq(b->from, 9);
    ck_assert_uint_eq(b->to, 5);
    msg_free(b);
    msg_free(start);

    /* A message with a game summary owns (and frees) it; a queue freed
     * with messages in it frees them. */
    buf_t keys, checks;
    buf_init(&keys, 0);
    buf_init(&checks, 0);
    buf_puts(&keys, "hjkl");
    buf_puts(&checks, "abcd");
    game_options_t opt = { .ruleset = 2 };
    key->game = msg_game_new(77, &opt, 123, &keys, &checks);
    ck_assert_uint_eq(key->game->keys.len, 4);
    ck_assert(!memcmp(key->game->checks.data, "abcd", 4));
    msgq_push(&q, key);
    msgq_push(&q, msg_new(MSG_WATCH_END, 1, 2, "%s", "bye"));
    msgq_free(&q);
    ck_assert_uint_eq(q.len, 0);
    buf_free(&keys);
    buf_free(&checks);
}
END_TEST

/* Worker loops share the directory: each thread adds, publishes, looks up
 * and removes its own sessions while the others do the same and list the
 * games. Every thread finds each of its own entries as it left it, and
 * the table ends empty. (The tsan family runs this under ThreadSanitizer.) */
#define THREADS 4
#define PER_THREAD 2000

typedef struct worker_arg {
    directory_t *d;
    int loop;
    int mismatches;
} worker_arg_t;

static void *churn(void *arg)
{
    worker_arg_t *w = arg;
    for (int round = 0; round < 3; round++) {
        for (uint64_t i = 1; i <= PER_THREAD; i++) {
            uint64_t id = i * THREADS + (uint64_t)w->loop;
            ck_assert_int_eq(dir_add(w->d, id, (void *)(uintptr_t)id, w->loop), 0);
            dir_game_t g = { .depth = (int)(id % 50), .turns = round };
            strcpy(g.name, "p");
            dir_set_game(w->d, id, &g);
            dir_set_account(w->d, id, (int64_t)id);
        }
        dir_entry_t games[8];
        dir_games(w->d, 0, games, 8);
        for (uint64_t i = 1; i <= PER_THREAD; i++) {
            uint64_t id = i * THREADS + (uint64_t)w->loop;
            dir_entry_t e;
            if (!dir_lookup(w->d, id, &e) || e.loop != w->loop ||
                e.sess != (void *)(uintptr_t)id || e.account_id != (int64_t)id ||
                e.game.turns != round)
                w->mismatches++;
            dir_remove(w->d, id);
        }
    }
    return NULL;
}

START_TEST(loops_share_one_directory)
{
    directory_t d;
    dir_init(&d);
    pthread_t th[THREADS];
    worker_arg_t w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker_arg_t){ &d, i, 0 };
        ck_assert_int_eq(pthread_create(&th[i], NULL, churn, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        ck_assert_int_eq(w[i].mismatches, 0);
    }
    ck_assert_uint_eq(dir_count(&d), 0);
    ck_assert_uint_eq(dir_ngames(&d), 0);
    dir_free(&d);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("directory");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, adds_and_removes_match_a_model);
    tcase_add_test(tc, accounts_and_games);
    tcase_add_test(tc, queue_is_fifo_and_requests_bounce);
    tcase_add_test(tc, loops_share_one_directory);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
