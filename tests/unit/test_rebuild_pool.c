/* test_rebuild_pool.c - the rebuilds' own queue (server/rebuild_pool.h)
 * and the rebuild on it (server/rebuild.h): one rebuild per session (a
 * second replaces the first), a cap per address and on the queue, a
 * cancel that frees the slot at once for a waiting job and stops a running
 * one between two chunks of keys without an answer, and the start point: a
 * summary with a snapshot replays only the keys after it; a rebuild that
 * runs out of memory on its thread still answers. Most tests run
 * the pool with no thread (rbp_run_one on the test's own), so every step
 * is the test's; the last one has threads and posters racing, and
 * `make tsan` runs this binary under ThreadSanitizer too. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "chan.h"
#include "check_main.h"
#include "game.h"
#include "rebuild.h"
#include "rebuild_pool.h"
#include "record.h"

/* --- a job that only counts ------------------------------------------------ */

typedef struct fake {
    rbp_job_t base;
    atomic_int *ran, *delivered, *dropped;
} fake_t;

static void fake_run(rbp_job_t *j, rbp_t *p)
{
    fake_t *f = (fake_t *)j;
    (void)p;
    atomic_fetch_add(f->ran, 1);
}

static void fake_deliver(rbp_job_t *j)
{
    atomic_fetch_add(((fake_t *)j)->delivered, 1);
}

static void fake_drop(rbp_job_t *j)
{
    fake_t *f = (fake_t *)j;
    atomic_fetch_add(f->dropped, 1);
    free(f);
}

static atomic_int ran, delivered, dropped;

static fake_t *fake(uint64_t session, const char *ip)
{
    fake_t *f = calloc(1, sizeof *f);
    ck_assert_ptr_nonnull(f);
    f->base.session = session;
    strcpy(f->base.ip, ip);
    f->base.run = fake_run;
    f->base.deliver = fake_deliver;
    f->base.drop = fake_drop;
    f->ran = &ran;
    f->delivered = &delivered;
    f->dropped = &dropped;
    return f;
}

static void counts_reset(void)
{
    atomic_store(&ran, 0);
    atomic_store(&delivered, 0);
    atomic_store(&dropped, 0);
}

static rbp_stats_t stats(rbp_t *p)
{
    rbp_stats_t st;
    rbp_stats(p, &st);
    return st;
}

START_TEST(a_second_request_of_a_session_replaces_the_first)
{
    counts_reset();
    rbp_t *p = rbp_new(0, 0, 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rbp_submit(p, &fake(7, "10.0.0.1")->base), RBP_OK);
    ck_assert_int_eq(rbp_submit(p, &fake(7, "10.0.0.1")->base), RBP_OK);
    rbp_stats_t st = stats(p);
    ck_assert_uint_eq(st.waiting, 1);   /* not two */
    ck_assert_uint_eq(st.cancelled, 1);
    ck_assert_int_eq(atomic_load(&dropped), 1); /* the first, never run */
    ck_assert_int_eq(atomic_load(&ran), 0);
    ck_assert_int_eq(rbp_run_one(p), 1);
    ck_assert_int_eq(rbp_run_one(p), 0);
    ck_assert_int_eq(atomic_load(&ran), 1);
    ck_assert_int_eq(atomic_load(&delivered), 1);
    ck_assert_int_eq(atomic_load(&dropped), 2);
    /* another session's job does not replace it */
    ck_assert_int_eq(rbp_submit(p, &fake(8, "10.0.0.1")->base), RBP_OK);
    ck_assert_int_eq(rbp_submit(p, &fake(9, "10.0.0.1")->base), RBP_OK);
    ck_assert_uint_eq(stats(p).waiting, 2);
    rbp_free(p); /* drops what waits, unrun */
    ck_assert_int_eq(atomic_load(&ran), 1);
    ck_assert_int_eq(atomic_load(&dropped), 4);
}
END_TEST

/* The host's own rebuilds (sessions a binary upgrade moved here) pass
 * both bounds, however many come from one address; others are still
 * held to them. */
START_TEST(the_hosts_own_rebuilds_are_held_to_no_bound)
{
    counts_reset();
    rbp_t *p = rbp_new(0, 2, 1);
    ck_assert_ptr_nonnull(p);
    for (uint64_t id = 1; id <= 5; id++) {
        fake_t *f = fake(id, "10.0.0.1");
        f->base.exempt = 1;
        ck_assert_int_eq(rbp_submit(p, &f->base), RBP_OK);
    }
    fake_t *other = fake(6, "10.0.0.1");
    ck_assert_int_eq(rbp_submit(p, &other->base), RBP_FULL);
    ck_assert_uint_eq(stats(p).waiting, 5);
    while (rbp_run_one(p))
        ;
    ck_assert_int_eq(atomic_load(&delivered), 5);
    rbp_free(p);
    fake_drop(&other->base);
}
END_TEST

START_TEST(an_address_past_its_cap_is_refused_and_a_cancel_frees_its_slot)
{
    counts_reset();
    rbp_t *p = rbp_new(0, 0, 2);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rbp_submit(p, &fake(1, "10.0.0.1")->base), RBP_OK);
    ck_assert_int_eq(rbp_submit(p, &fake(2, "10.0.0.1")->base), RBP_OK);
    fake_t *third = fake(3, "10.0.0.1");
    ck_assert_int_eq(rbp_submit(p, &third->base), RBP_ADDR);
    ck_assert_int_eq(rbp_submit(p, &fake(4, "10.0.0.2")->base), RBP_OK);
    ck_assert_uint_eq(stats(p).refused, 1);
    /* An IPv6 /64 is one address: its third is refused. */
    ck_assert_int_eq(rbp_submit(p, &fake(5, "2001:db8:1:2::5")->base), RBP_OK);
    ck_assert_int_eq(rbp_submit(p, &fake(6, "2001:db8:1:2::6")->base), RBP_OK);
    fake_t *v6 = fake(7, "2001:db8:1:2::7");
    ck_assert_int_eq(rbp_submit(p, &v6->base), RBP_ADDR);
    free(v6);
    ck_assert_uint_eq(stats(p).refused, 2);
    /* session 1 has gone: its slot is free at once */
    rbp_cancel(p, 1);
    ck_assert_int_eq(atomic_load(&dropped), 1);
    ck_assert_int_eq(rbp_submit(p, &third->base), RBP_OK);
    rbp_stats_t st = stats(p);
    ck_assert_uint_eq(st.waiting, 5);
    ck_assert_uint_eq(st.cancelled, 1);
    while (rbp_run_one(p))
        ;
    ck_assert_int_eq(atomic_load(&ran), 5);
    ck_assert_int_eq(atomic_load(&delivered), 5);
    rbp_free(p);
    ck_assert_int_eq(atomic_load(&dropped), 6);
}
END_TEST

START_TEST(a_full_queue_refuses)
{
    counts_reset();
    rbp_t *p = rbp_new(0, 2, 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(rbp_submit(p, &fake(1, "a")->base), RBP_OK);
    ck_assert_int_eq(rbp_submit(p, &fake(2, "b")->base), RBP_OK);
    fake_t *f = fake(3, "c");
    ck_assert_int_eq(rbp_submit(p, &f->base), RBP_FULL);
    ck_assert_int_eq(rbp_run_one(p), 1);
    ck_assert_int_eq(rbp_submit(p, &f->base), RBP_OK);
    rbp_free(p);
    ck_assert_int_eq(atomic_load(&dropped), 3);
}
END_TEST

/* --- real rebuilds ------------------------------------------------------------ */

enum {
    NKEYS = 3 * REBUILD_CHUNK + 100,
    SNAP_AT = 2 * REBUILD_CHUNK /* a multiple of the record's checks */
};

/* A game of NKEYS keys (a few moves, the rest keys that take no turn),
 * its recorder, and its copy after SNAP_AT keys. */
typedef struct played {
    game_t *g, *snap;
    record_t rec;
    size_t snap_pos;
} played_t;

static void play(played_t *pl)
{
    static const char walk[] = "hjkl.";
    memset(pl, 0, sizeof *pl);
    pl->g = game_new(3, NULL);
    ck_assert_ptr_nonnull(pl->g);
    ck_assert_int_eq(record_init(&pl->rec, pl->g, 0), 0);
    for (int i = 0; i < NKEYS; i++) {
        if (i == SNAP_AT) {
            pl->snap = game_clone(pl->g);
            pl->snap_pos = pl->rec.keys.len;
        }
        record_key(&pl->rec, pl->g, i % 500 < 5 ? walk[i % 5] : 'z');
    }
    ck_assert(!game_dead(pl->g));
}

static void played_free(played_t *pl)
{
    game_free(pl->g);
    game_free(pl->snap);
    record_free(&pl->rec);
}

static msg_game_t *summary(const played_t *pl, int with_snap)
{
    msg_game_t *g = msg_game_new(pl->rec.seed, &pl->rec.opt, 0,
                                 &pl->rec.keys, &pl->rec.checks);
    ck_assert_ptr_nonnull(g);
    if (with_snap) {
        g->snap = game_clone(pl->snap);
        g->snap_keys = SNAP_AT;
        g->snap_pos = pl->snap_pos;
    }
    return g;
}

/* The one answer waiting in ch (or NULL), taken. */
static smsg_t *answer(chan_t *ch)
{
    msgq_t q;
    memset(&q, 0, sizeof q);
    chan_take(ch, &q);
    ck_assert_uint_le(q.len, 1);
    return msgq_pop(&q);
}

static void check_rebuilt(smsg_t *m, const played_t *pl, int64_t job)
{
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->type, MSG_REBUILT);
    ck_assert_uint_eq(m->to, 5);
    ck_assert_int_eq(m->a, job);
    ck_assert_int_eq(m->rebuilt->err, RECORD_OK);
    ck_assert_uint_eq(game_hash(m->rebuilt->game), game_hash(pl->g));
}

START_TEST(a_summary_with_a_snapshot_replays_only_the_keys_after_it)
{
    played_t pl;
    play(&pl);
    chan_t ch;
    ck_assert_int_eq(chan_init(&ch, 0, NULL, NULL), 0);
    rbp_t *p = rbp_new(0, 0, 0);
    ck_assert_int_eq(rebuild_start(p, &ch, 5, "10.0.0.1", 11,
                                   summary(&pl, 1), 1), 0);
    ck_assert_int_eq(rbp_run_one(p), 1);
    smsg_t *m = answer(&ch);
    check_rebuilt(m, &pl, 11);
    ck_assert_uint_eq(stats(p).keys, NKEYS - SNAP_AT);
    msg_free(m);
    /* without one: every key */
    ck_assert_int_eq(rebuild_start(p, &ch, 5, "10.0.0.1", 12,
                                   summary(&pl, 0), 0), 0);
    ck_assert_int_eq(rbp_run_one(p), 1);
    m = answer(&ch);
    check_rebuilt(m, &pl, 12);
    ck_assert_uint_eq(stats(p).keys, NKEYS - SNAP_AT + NKEYS);
    msg_free(m);
    rbp_free(p);
    chan_free(&ch);
    played_free(&pl);
}
END_TEST

/* The check hook: the asker goes as the first chunk is done. */
static void cancel_at_first_check(void *ctx, rbp_job_t *j)
{
    rbp_cancel(ctx, j->session);
}

START_TEST(a_running_rebuild_whose_asker_goes_stops_between_chunks)
{
    played_t pl;
    play(&pl);
    chan_t ch;
    ck_assert_int_eq(chan_init(&ch, 0, NULL, NULL), 0);
    rbp_t *p = rbp_new(0, 0, 1);
    rbp_set_check_hook(p, cancel_at_first_check, p);
    ck_assert_int_eq(rebuild_start(p, &ch, 5, "10.0.0.1", 1, summary(&pl, 0),
                                   1), 0);
    /* the address's one slot is taken */
    ck_assert_int_eq(rebuild_start(p, &ch, 6, "10.0.0.1", 1, summary(&pl, 0),
                                   0), RBP_ADDR);
    ck_assert_int_eq(rbp_run_one(p), 1);
    ck_assert_ptr_null(answer(&ch)); /* nothing for a session gone */
    rbp_stats_t st = stats(p);
    ck_assert_uint_eq(st.keys, REBUILD_CHUNK); /* one chunk, not NKEYS */
    ck_assert_uint_eq(st.cancelled, 1);
    ck_assert_uint_eq(st.running, 0);
    /* and the slot is free again */
    rbp_set_check_hook(p, NULL, NULL);
    ck_assert_int_eq(rebuild_start(p, &ch, 6, "10.0.0.1", 2, summary(&pl, 1),
                                   0), 0);
    ck_assert_int_eq(rbp_run_one(p), 1);
    smsg_t *m = answer(&ch);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(m->to, 6);
    msg_free(m);
    rbp_free(p);
    chan_free(&ch);
    played_free(&pl);
}
END_TEST

START_TEST(a_closed_inbox_drops_the_answer)
{
    played_t pl;
    play(&pl);
    chan_t ch;
    ck_assert_int_eq(chan_init(&ch, 0, NULL, NULL), 0);
    chan_close(&ch, NULL);
    rbp_t *p = rbp_new(0, 0, 0);
    ck_assert_int_eq(rebuild_start(p, &ch, 5, "", 1, summary(&pl, 1), 1), 0);
    ck_assert_int_eq(rbp_run_one(p), 1); /* freed, not leaked (ASan) */
    rbp_free(p);
    chan_free(&ch);
    played_free(&pl);
}
END_TEST

/* --- memory running out on the pool's thread ---------------------------------
 *
 * This binary is linked with -Wl,--wrap=calloc (Makefile): every calloc of
 * the test's and the server's objects comes here, and fails while
 * calloc_fails is set. */

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

static atomic_int calloc_fails;

void *__wrap_calloc(size_t n, size_t size)
{
    if (atomic_load(&calloc_fails))
        return NULL;
    return __real_calloc(n, size);
}

/* The check hook: from the first chunk on, no calloc succeeds. */
static void no_memory_from_first_check(void *ctx, rbp_job_t *j)
{
    (void)ctx;
    (void)j;
    atomic_store(&calloc_fails, 1);
}

/* The asker shows "One moment..." until its answer comes, with no
 * deadline: a rebuild run to its end answers even when memory runs out on
 * the pool's thread (the answer is made with the job). */
START_TEST(a_rebuild_answers_when_memory_runs_out_on_its_thread)
{
    played_t pl;
    play(&pl);
    chan_t ch;
    ck_assert_int_eq(chan_init(&ch, 0, NULL, NULL), 0);
    rbp_t *p = rbp_new(0, 0, 0);
    rbp_set_check_hook(p, no_memory_from_first_check, NULL);
    ck_assert_int_eq(rebuild_start(p, &ch, 5, "10.0.0.1", 21,
                                   summary(&pl, 0), 1), 0);
    ck_assert_int_eq(rbp_run_one(p), 1);
    atomic_store(&calloc_fails, 0);
    smsg_t *m = answer(&ch);
    check_rebuilt(m, &pl, 21);
    msg_free(m);
    /* and with no memory for the job itself, a refusal the lobby says */
    msg_game_t *src = summary(&pl, 0);
    atomic_store(&calloc_fails, 1);
    int rc = rebuild_start(p, &ch, 5, "10.0.0.1", 22, src, 1);
    atomic_store(&calloc_fails, 0);
    ck_assert_int_eq(rc, REBUILD_NOMEM);
    ck_assert_ptr_null(answer(&ch));
    rbp_free(p);
    chan_free(&ch);
    played_free(&pl);
}
END_TEST

/* --- threads ------------------------------------------------------------------- */

enum { POSTERS = 4, PER_POSTER = 2000 };

typedef struct poster {
    rbp_t *p;
    int id;
} poster_t;

/* Each poster's sessions ask, ask again (a replacement) and cancel, while
 * the pool's threads run. */
static void *post_many(void *arg)
{
    poster_t *po = arg;
    for (int i = 0; i < PER_POSTER; i++) {
        uint64_t session = (uint64_t)(po->id * PER_POSTER + i % 50 + 1);
        fake_t *f = fake(session, po->id % 2 ? "10.0.0.1" : "10.0.0.2");
        if (rbp_submit(po->p, &f->base) != RBP_OK)
            fake_drop(&f->base);
        if (i % 3 == 0)
            rbp_cancel(po->p, session);
    }
    return NULL;
}

START_TEST(every_job_is_dropped_once_with_threads_racing)
{
    counts_reset();
    rbp_t *p = rbp_new(2, 64, 8);
    ck_assert_ptr_nonnull(p);
    pthread_t t[POSTERS];
    poster_t po[POSTERS];
    for (int i = 0; i < POSTERS; i++) {
        po[i] = (poster_t){ p, i };
        ck_assert_int_eq(pthread_create(&t[i], NULL, post_many, &po[i]), 0);
    }
    for (int i = 0; i < POSTERS; i++)
        pthread_join(t[i], NULL);
    rbp_free(p);
    ck_assert_int_eq(atomic_load(&dropped), POSTERS * PER_POSTER);
    ck_assert_int_le(atomic_load(&delivered), atomic_load(&ran));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rebuild_pool");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_second_request_of_a_session_replaces_the_first);
    tcase_add_test(tc,
                   an_address_past_its_cap_is_refused_and_a_cancel_frees_its_slot);
    tcase_add_test(tc, a_full_queue_refuses);
    tcase_add_test(tc, the_hosts_own_rebuilds_are_held_to_no_bound);
    tcase_add_test(tc, a_summary_with_a_snapshot_replays_only_the_keys_after_it);
    tcase_add_test(tc, a_running_rebuild_whose_asker_goes_stops_between_chunks);
    tcase_add_test(tc, a_closed_inbox_drops_the_answer);
    tcase_add_test(tc, a_rebuild_answers_when_memory_runs_out_on_its_thread);
    tcase_add_test(tc, every_job_is_dropped_once_with_threads_racing);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
