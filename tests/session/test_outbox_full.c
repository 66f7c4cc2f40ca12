/* test_outbox_full.c - render phases whose frames outgrow the loop's
 * outbox, through the real server (docs/architecture.md, "Frames written
 * together"). A loop keeps the phase's frames in a fixed buffer
 * (server/outbox.h: OUTBOX_BYTES, OUTBOX_FRAMES) and writes them at the
 * phase's end; a frame that does not fit makes it write what it holds
 * first, then keeps the frame (session_output.c, keep_for_later).
 *
 * One loop (workers = 1), one player and many watchers of its game at
 * sizes of their own: each key of the player is forwarded to every
 * watcher and draws every watcher's screen in the same phase. Once with
 * 60 watchers whose screens change whole (the help's pages opened and
 * closed: about 1.4 KiB each, more than OUTBOX_BYTES in all), once with
 * OUTBOX_FRAMES + 4 watchers of a player who waits (a few bytes each).
 * After each key every client has exactly one frame marker more (IAC NOP
 * after each frame: none lost, none doubled) and shows the game as the
 * test plays it in-process at its own size, with its own line ("Watching
 * guest1 - q leaves", " N watching "); /metrics'
 * rogued_outbox_early_drains_total says the early drains happened. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "map.h"
#include "metrics.h"
#include "outbox.h"
#include "play.h"
#include "view.h"

#define EARLY "rogued_outbox_early_drains_total"

/* c's screen is g drawn at c's size with a host's line over it where the
 * server puts it (session_render.c, sess_overlay_line: the first of forms
 * that fits beside the map on row 0 or at the right end of a log row,
 * view_label_place; with none that fits, the last over the oldest log
 * row if cover, else none; forms NULL: no line), row for row; else the
 * test fails, naming the row and the key. */
static void expect_screen(const tclient_t *c, const game_t *g,
                          const char *const *forms, int cover, int key_no)
{
    screen_t want;
    ck_assert_int_eq(screen_init(&want, cl_w(c), cl_h(c)), 0);
    view_draw(g, &want);
    int y, i = forms ? view_label_place(&want, forms, &y) : -1;
    if (forms && i < 0 && cover)
        for (i = 0; forms[i + 1]; i++)
            ;
    if (i >= 0) {
        int n = (int)strlen(forms[i]);
        screen_puts(&want, view_label_x(&want, n, y), y, forms[i], COL_BLACK,
                    COL_BCYAN, 0);
    }
    play_expect_screen(c, &want, key_no);
    screen_free(&want);
}

static int pred_frames_reach(tclient_t *c, void *arg)
{
    return cl_frames(c) >= *(int *)arg;
}

/* Waits until c has a frame marker more than before. */
static void wait_frame(tclient_t *c, int before, int key_no)
{
    int want = before + 1;
    if (!cl_wait(c, pred_frames_reach, &want, CL_WAIT_MS))
        play_fail(c, "after key %d, %d frame markers, not %d", key_no,
                  cl_frames(c), want);
}

/* Exactly one frame marker more than before, once c is synced (all the
 * server wrote before its answers to the sync is in). */
static void expect_one_frame(tclient_t *c, int before, int key_no)
{
    if (!cl_sync(c, CL_WAIT_MS))
        play_fail(c, "no sync after key %d", key_no);
    if (cl_frames(c) != before + 1)
        play_fail(c, "after key %d, %d frame markers, not %d", key_no,
                  cl_frames(c), before + 1);
}

/* A server of one loop with a player and n watchers of its game. */
typedef struct scene {
    tsrv_t *s;
    int mport;         /* /metrics */
    tclient_t *p;
    tclient_t **w;
    int n;
    char watching[32]; /* the player's line */
    game_t *g;         /* the player's game, played in-process */
} scene_t;

/* Watcher i's size is sizes[i % nsizes]. */
static void scene_start(scene_t *sc, int n, const int (*sizes)[2], int nsizes)
{
    char set[64], max[16];
    sc->mport = cl_free_port();
    snprintf(set, sizeof set, "metrics_port=%d", sc->mport);
    snprintf(max, sizeof max, "%d", n + 10);
    sc->s = srv_start("--seed", "42", "--max-sessions", max, "--set",
                      "workers=1", "--set", set, NULL);
    sc->p = play_connect(srv_port(sc->s), NULL);
    sc->n = n;
    sc->w = calloc((size_t)n, sizeof *sc->w);
    ck_assert_ptr_nonnull(sc->w);
    for (int i = 0; i < n; i++) {
        cl_opts_t o = { .w = sizes[i % nsizes][0], .h = sizes[i % nsizes][1] };
        sc->w[i] = cl_connect(srv_port(sc->s), &o);
        play_wait_text(sc->w[i], "Play (as a guest)");
        ck_assert(cl_sync(sc->w[i], CL_WAIT_MS));
        play_watch_first(sc->w[i], "guest1");
    }
    snprintf(sc->watching, sizeof sc->watching, "%d watching", n);
    play_wait_text(sc->p, sc->watching);
    snprintf(sc->watching, sizeof sc->watching, " %d watching ", n);
    ck_assert(cl_sync(sc->p, CL_WAIT_MS));
    sc->g = game_new(42, NULL);
    ck_assert_ptr_nonnull(sc->g);
}

/* The player's key number k (from 1): every client gets exactly one frame
 * and shows the game after it. Returns the bytes the server wrote to its
 * clients for it (its phase's frames, and the player's syncs around it). */
static double scene_key(scene_t *sc, char key, int k)
{
    int *before = calloc((size_t)sc->n, sizeof *before);
    ck_assert_ptr_nonnull(before);
    for (int i = 0; i < sc->n; i++)
        before[i] = cl_frames(sc->w[i]);
    double bytes = metrics_value(sc->mport, "rogued_bytes_out_total");
    char text[2] = { key, 0 };
    int player_before = cl_frames(sc->p);
    if (!cl_key(sc->p, text))
        play_fail(sc->p, "no answer to key %d", k);
    for (int i = 0; i < sc->n; i++)
        wait_frame(sc->w[i], before[i], k);
    bytes = metrics_value(sc->mport, "rogued_bytes_out_total") - bytes;
    game_key(sc->g, key);
    expect_one_frame(sc->p, player_before, k);
    /* the player's count: not over the help's page (session_play.c) */
    const char *const mine[] = {sc->watching, NULL};
    expect_screen(sc->p, sc->g, sc->g->mode == MODE_HELP ? NULL : mine, 0, k);
    static const char *const theirs[] = {" Watching guest1 - q leaves ",
                                         " guest1 - q leaves ", NULL};
    for (int i = 0; i < sc->n; i++) {
        expect_one_frame(sc->w[i], before[i], k);
        expect_screen(sc->w[i], sc->g, theirs, 1, k);
    }
    free(before);
    return bytes;
}

static void scene_stop(scene_t *sc)
{
    game_free(sc->g);
    for (int i = 0; i < sc->n; i++)
        cl_close(sc->w[i]);
    free(sc->w);
    cl_close(sc->p);
    srv_stop(sc->s);
}

/* Frames larger in all than OUTBOX_BYTES: 60 watchers of six sizes, the
 * help's pages opened and closed (about 1.4 KiB a watcher each way). */
START_TEST(a_phase_larger_than_the_outbox)
{
    static const int sizes[][2] = { { 80, 24 }, { 100, 40 }, { 120, 30 },
                                    { 132, 50 }, { 90, 26 }, { 200, 60 } };
    static const char keys[] = "??z??z";
    scene_t sc;
    scene_start(&sc, 60, sizes, 6);
    double early = metrics_value(sc.mport, EARLY);
    ck_assert(early >= 0);
    for (int k = 0; keys[k]; k++) {
        double bytes = scene_key(&sc, keys[k], k + 1);
        fprintf(stderr, "key %d (%c): %.0f bytes\n", k + 1, keys[k], bytes);
        if (keys[k] == '?')
            ck_assert_msg(bytes > OUTBOX_BYTES, "key %d: %g bytes", k + 1,
                          bytes);
    }
    double after = metrics_value(sc.mport, EARLY);
    fprintf(stderr, "early drains: %.0f -> %.0f\n", early, after);
    ck_assert_msg(after >= early + 4, "early drains: %g -> %g", early, after);
    scene_stop(&sc);
}
END_TEST

/* More frames than OUTBOX_FRAMES, small ones: OUTBOX_FRAMES + 4 watchers
 * (the narrow layout among them) of a player who waits. */
START_TEST(more_frames_than_the_outbox_holds)
{
    static const int sizes[][2] = { { 80, 24 }, { 40, 20 }, { 100, 30 } };
    scene_t sc;
    scene_start(&sc, OUTBOX_FRAMES + 4, sizes, 3);
    double early = metrics_value(sc.mport, EARLY);
    ck_assert(early >= 0);
    for (int k = 1; k <= 3; k++) {
        double bytes = scene_key(&sc, '.', k);
        fprintf(stderr, "key %d (.): %.0f bytes\n", k, bytes);
        /* the frame count, not the bytes, fills the outbox */
        ck_assert_msg(bytes < OUTBOX_BYTES, "key %d: %g bytes", k, bytes);
    }
    double after = metrics_value(sc.mport, EARLY);
    fprintf(stderr, "early drains: %.0f -> %.0f\n", early, after);
    ck_assert_msg(after >= early + 3, "early drains: %g -> %g", early, after);
    scene_stop(&sc);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("outbox_full");
    TCase *tc = tcase_create("outbox_full");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, a_phase_larger_than_the_outbox);
    tcase_add_test(tc, more_frames_than_the_outbox_holds);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
