/* test_outbox.c - the render phase's frames kept in order and written
 * together (server/outbox.h): every byte to its owner in the order added,
 * nothing past its two bounds, nothing added while it drains
 * (docs/performance.md, "Frames written together"). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "outbox.h"

static outbox_t box;

/* What the drain wrote: "who:bytes|" for each frame. */
static char seen[OUTBOX_BYTES * 2];
static size_t seen_len;
static int writes;

static void record(void *who, const char *p, size_t len, void *ctx)
{
    (void)ctx;
    writes++;
    seen_len += (size_t)snprintf(seen + seen_len, sizeof seen - seen_len,
                                 "%s:%.*s|", (const char *)who, (int)len, p);
}

static void setup(void)
{
    outbox_init(&box);
    seen_len = 0;
    seen[0] = 0;
    writes = 0;
}

START_TEST(frames_come_out_in_order_with_their_owners)
{
    setup();
    ck_assert_int_eq(outbox_empty(&box), 1);
    ck_assert_int_eq(outbox_add(&box, "a", "one", 3), 0);
    ck_assert_int_eq(outbox_add(&box, "b", "two", 3), 0);
    ck_assert_int_eq(outbox_add(&box, "a", "three", 5), 0);
    ck_assert_int_eq(outbox_empty(&box), 0);
    outbox_drain(&box, record, NULL);
    ck_assert_str_eq(seen, "a:one|b:two|a:three|");
    ck_assert_int_eq(outbox_empty(&box), 1);
    /* Drained, it starts again from nothing. */
    ck_assert_int_eq(outbox_add(&box, "c", "four", 4), 0);
    outbox_drain(&box, record, NULL);
    ck_assert_str_eq(seen, "a:one|b:two|a:three|c:four|");
    ck_assert_int_eq(writes, 4);
}
END_TEST

START_TEST(frames_past_the_count_are_refused)
{
    setup();
    for (int i = 0; i < OUTBOX_FRAMES; i++)
        ck_assert_int_eq(outbox_add(&box, "x", "k", 1), 0);
    ck_assert_int_eq(outbox_add(&box, "y", "k", 1), -1);
    outbox_drain(&box, record, NULL);
    ck_assert_int_eq(writes, OUTBOX_FRAMES);
    ck_assert(strstr(seen, "y:") == NULL);
    ck_assert_int_eq(outbox_add(&box, "y", "k", 1), 0);
}
END_TEST

START_TEST(bytes_past_the_buffer_are_refused)
{
    static char big[OUTBOX_BYTES + 1];
    memset(big, 'z', sizeof big);
    setup();
    /* Exactly full fits; one byte more does not, alone or after others. */
    ck_assert_int_eq(outbox_add(&box, "a", big, OUTBOX_BYTES + 1), -1);
    ck_assert_int_eq(outbox_add(&box, "a", big, OUTBOX_BYTES - 1), 0);
    ck_assert_int_eq(outbox_add(&box, "b", "12", 2), -1);
    ck_assert_int_eq(outbox_add(&box, "b", "1", 1), 0);
    ck_assert_int_eq(outbox_add(&box, "c", "", 0), 0);
    outbox_drain(&box, record, NULL);
    ck_assert_int_eq(writes, 3);
    ck_assert_uint_eq(seen_len, 2 + (OUTBOX_BYTES - 1) + 1 + 4 + 3);
    ck_assert(strstr(seen, "|b:1|c:|") != NULL);
}
END_TEST

/* A write that tries to add (its session ending and saying goodbye) is
 * refused, and the frames after it still come out intact. */
static void add_while_writing(void *who, const char *p, size_t len, void *ctx)
{
    int *refused = ctx;
    if (outbox_add(&box, "late", "zzzz", 4) != 0)
        (*refused)++;
    record(who, p, len, NULL);
}

START_TEST(nothing_is_added_while_it_drains)
{
    setup();
    ck_assert_int_eq(outbox_add(&box, "a", "one", 3), 0);
    ck_assert_int_eq(outbox_add(&box, "b", "two", 3), 0);
    int refused = 0;
    outbox_drain(&box, add_while_writing, &refused);
    ck_assert_int_eq(refused, 2);
    ck_assert_str_eq(seen, "a:one|b:two|");
    ck_assert_int_eq(outbox_empty(&box), 1);
    ck_assert_int_eq(outbox_add(&box, "c", "ok", 2), 0);
}
END_TEST

/* A write that asks for a drain (its session closing its socket) gets
 * none: each frame is still written once. */
static void drain_while_writing(void *who, const char *p, size_t len, void *ctx)
{
    (void)ctx;
    outbox_drain(&box, record, NULL);
    record(who, p, len, NULL);
}

START_TEST(a_drain_within_a_drain_writes_nothing_twice)
{
    setup();
    ck_assert_int_eq(outbox_add(&box, "a", "one", 3), 0);
    ck_assert_int_eq(outbox_add(&box, "b", "two", 3), 0);
    outbox_drain(&box, drain_while_writing, NULL);
    ck_assert_str_eq(seen, "a:one|b:two|");
    ck_assert_int_eq(writes, 2);
    ck_assert_int_eq(outbox_empty(&box), 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("outbox");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, frames_come_out_in_order_with_their_owners);
    tcase_add_test(tc, frames_past_the_count_are_refused);
    tcase_add_test(tc, bytes_past_the_buffer_are_refused);
    tcase_add_test(tc, nothing_is_added_while_it_drains);
    tcase_add_test(tc, a_drain_within_a_drain_writes_nothing_twice);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(suite)
