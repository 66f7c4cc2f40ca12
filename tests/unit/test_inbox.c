/* test_inbox.c - the queue between worker loops (server/inbox.h): many
 * producer threads against one loop, nothing lost, nothing delivered
 * twice, each producer's messages in order, and a close racing the posts
 * that leaves every message with exactly one owner. `make test` also runs
 * this binary built with ThreadSanitizer (the tsan family), where a data
 * race fails it. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "check_main.h"
#include "inbox.h"
#include "msg.h"

#define PRODUCERS 4
#define PER_PRODUCER 20000

typedef struct consumer {
    inbox_t ib;
    uv_timer_t deadline;
    int64_t next[PRODUCERS];  /* the sequence number each producer owes */
    long received, out_of_order;
    long close_after;         /* close the inbox after this many (0: never) */
    msgq_t left;              /* what the close found still queued */
    int closed;
} consumer_t;

typedef struct producer {
    inbox_t *ib;
    int id;
    long refused;             /* posts after the close */
} producer_t;

static void *produce(void *arg)
{
    producer_t *p = arg;
    for (int64_t i = 0; i < PER_PRODUCER; i++) {
        smsg_t *m = msg_new(MSG_WATCH_KEY, (uint64_t)p->id, 1, NULL);
        ck_assert_ptr_nonnull(m);
        m->a = i;
        if (inbox_post(p->ib, m) != 0) {
            /* refused: the message is still ours */
            ck_assert_int_eq((int)m->a, (int)i);
            msg_free(m);
            p->refused++;
        }
    }
    return NULL;
}

static void count(consumer_t *c, smsg_t *m)
{
    int who = (int)m->from;
    ck_assert_int_ge(who, 0);
    ck_assert_int_lt(who, PRODUCERS);
    if (m->a != c->next[who])
        c->out_of_order++;
    c->next[who] = m->a + 1;
    c->received++;
    msg_free(m);
}

static void stop(consumer_t *c)
{
    c->closed = 1;
    inbox_close(&c->ib, &c->left);
    uv_close((uv_handle_t *)&c->deadline, NULL);
}

static void on_messages(inbox_t *ib, void *data)
{
    consumer_t *c = data;
    msgq_t q = { 0 };
    inbox_take(ib, &q);
    smsg_t *m;
    while ((m = msgq_pop(&q)))
        count(c, m);
    if (c->closed)
        return;
    if ((c->close_after && c->received >= c->close_after) ||
        c->received == (long)PRODUCERS * PER_PRODUCER)
        stop(c);
}

static void on_deadline(uv_timer_t *t)
{
    consumer_t *c = t->data;
    ck_abort_msg("deadline: %ld of %ld messages came", c->received,
                 (long)PRODUCERS * PER_PRODUCER);
}

/* Runs PRODUCERS threads against one loop; returns the posts refused. */
static long run(consumer_t *c)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    ck_assert_int_eq(inbox_open(&c->ib, &loop, on_messages, c), 0);
    uv_ref((uv_handle_t *)&c->ib.async); /* the test's loop lives on it */
    uv_timer_init(&loop, &c->deadline);
    c->deadline.data = c;
    uv_timer_start(&c->deadline, on_deadline, 60000, 0);
    pthread_t th[PRODUCERS];
    producer_t p[PRODUCERS];
    for (int i = 0; i < PRODUCERS; i++) {
        p[i] = (producer_t){ &c->ib, i, 0 };
        ck_assert_int_eq(pthread_create(&th[i], NULL, produce, &p[i]), 0);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    long refused = 0;
    for (int i = 0; i < PRODUCERS; i++) {
        pthread_join(th[i], NULL);
        refused += p[i].refused;
    }
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    inbox_free(&c->ib);
    return refused;
}

START_TEST(many_producers_nothing_lost_or_doubled)
{
    consumer_t c;
    memset(&c, 0, sizeof c);
    long refused = run(&c);
    ck_assert_int_eq(refused, 0);
    ck_assert_int_eq(c.received, (long)PRODUCERS * PER_PRODUCER);
    ck_assert_int_eq(c.out_of_order, 0);
    for (int i = 0; i < PRODUCERS; i++)
        ck_assert_int_eq(c.next[i], PER_PRODUCER);
    ck_assert_ptr_null(c.left.head);
}
END_TEST

/* The loop closes its inbox while the producers still post: every message
 * is received, found queued at the close, or refused back to its poster,
 * exactly one of the three. */
START_TEST(a_close_racing_the_posts_leaves_one_owner)
{
    consumer_t c;
    memset(&c, 0, sizeof c);
    c.close_after = PER_PRODUCER; /* a quarter of what comes */
    long refused = run(&c);
    long left = (long)c.left.len;
    smsg_t *m;
    while ((m = msgq_pop(&c.left)))
        count(&c, m); /* in order after what was received */
    ck_assert_int_eq(c.out_of_order, 0);
    ck_assert_int_eq(c.received + refused, (long)PRODUCERS * PER_PRODUCER);
    ck_assert_int_ge(c.received - left, PER_PRODUCER);
}
END_TEST

START_TEST(a_closed_inbox_refuses)
{
    uv_loop_t loop;
    inbox_t ib;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    ck_assert_int_eq(inbox_open(&ib, &loop, NULL, NULL), 0);
    smsg_t *first = msg_new(MSG_WATCH_KEY, 1, 2, NULL);
    ck_assert_int_eq(inbox_post(&ib, first), 0);
    msgq_t left = { 0 };
    inbox_close(&ib, &left);
    ck_assert_ptr_eq(left.head, first); /* queued, never taken: handed back */
    ck_assert_uint_eq(left.len, 1);
    smsg_t *late = msg_new(MSG_WATCH_KEY, 1, 2, NULL);
    ck_assert_int_eq(inbox_post(&ib, late), -1);
    msg_free(late);
    msgq_free(&left);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    inbox_free(&ib);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("inbox");
    TCase *tc = tcase_create("inbox");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, many_producers_nothing_lost_or_doubled);
    tcase_add_test(tc, a_close_racing_the_posts_leaves_one_owner);
    tcase_add_test(tc, a_closed_inbox_refuses);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
