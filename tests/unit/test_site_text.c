/* test_site_text.c - the site's text handling (server/site/): escaping for
 * HTML and JSON, the router's ids and the WebSocket's start, the news ring
 * and its rate limit on a clock the test gives, and which games are news. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "announce.h"
#include "check_main.h"
#include "news.h"
#include "site.h"
#include "site_cache.h"
#include "site_html.h"

/* What text becomes, through fn, as a string (freed by the caller). */
static char *through(void (*fn)(page_t *, const char *), const char *text)
{
    page_t p;
    html_init(&p);
    fn(&p, text);
    ck_assert_int_eq(p.failed, 0);
    char *out = calloc(1, p.b.len + 1);
    memcpy(out, p.b.data ? p.b.data : "", p.b.len);
    buf_free(&p.b);
    return out;
}

START_TEST(html_text_escapes_markup_and_drops_controls)
{
    char *s = through(html_text, "<a href=\"x\">&'</a>\x01\x1b[31m\ttab\nnl");
    ck_assert_str_eq(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
                        "[31m\ttab\nnl");
    free(s);
    s = through(html_text, "caf\xc3\xa9"); /* UTF-8 passes */
    ck_assert_str_eq(s, "caf\xc3\xa9");
    free(s);
}
END_TEST

START_TEST(json_text_cannot_end_a_string_or_a_script)
{
    char *s = through(json_text, "a\"b\\c</script>\n\x01&");
    ck_assert_str_eq(s, "a\\\"b\\\\c\\u003c/script\\u003e\\u000a\\u0001\\u0026");
    free(s);
}
END_TEST

START_TEST(a_page_past_its_cap_is_failed_not_cut)
{
    page_t p;
    html_init(&p);
    char chunk[4096];
    memset(chunk, 'x', sizeof chunk - 1);
    chunk[sizeof chunk - 1] = '\0';
    for (int i = 0; i < SITE_PAGE_MAX / 4000 + 2; i++)
        html_raw(&p, chunk);
    ck_assert_int_eq(p.failed, 1);
    ck_assert_uint_le(p.b.len, SITE_PAGE_MAX);
    buf_free(&p.b);
}
END_TEST

START_TEST(ids_and_starts)
{
    uint64_t id = 0;
    ck_assert_int_eq(site_parse_id("42", &id), 1);
    ck_assert_uint_eq(id, 42);
    ck_assert_int_eq(site_parse_id("9999999999999999999", &id), 1);
    static const char *const bad[] = { "", "0", "-1", "+1", "1a", "a1", " 1",
                                       "1/", "10000000000000000000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(site_parse_id(bad[i], &id) == 0, "%s", bad[i]);
    ck_assert_int_eq(site_ws_start("watch=7", &id), SITE_START_WATCH);
    ck_assert_uint_eq(id, 7);
    ck_assert_int_eq(site_ws_start("replay=12", &id), SITE_START_REPLAY);
    ck_assert_uint_eq(id, 12);
    ck_assert_int_eq(site_ws_start("", &id), SITE_START_NONE);
    ck_assert_int_eq(site_ws_start("watch=", &id), SITE_START_NONE);
    ck_assert_int_eq(site_ws_start("watch=1&x=2", &id), SITE_START_NONE);
    ck_assert_int_eq(site_ws_start("play=1", &id), SITE_START_NONE);
}
END_TEST

START_TEST(news_is_rate_limited_and_keeps_the_latest)
{
    news_t n;
    news_init(&n, 1000);
    news_line_t out[NEWS_KEEP];
    ck_assert_int_eq(news_latest(&n, out, NEWS_KEEP), 0);
    ck_assert_int_eq(news_post(&n, 5000, 1, "first"), 1);
    ck_assert_int_eq(news_post(&n, 5999, 2, "too soon"), 0);
    ck_assert_int_eq(news_post(&n, 6000, 3, "second"), 1);
    ck_assert_uint_eq(news_seq(&n), 2);
    ck_assert_int_eq(news_latest(&n, out, NEWS_KEEP), 2);
    ck_assert_str_eq(out[0].text, "second");
    ck_assert_int_eq(out[0].when, 3);
    ck_assert_str_eq(out[1].text, "first");
    ck_assert_uint_eq(n.dropped, 1);
    /* the ring keeps NEWS_KEEP, newest first; a long line is cut */
    char longline[300];
    memset(longline, 'y', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    for (int i = 0; i < NEWS_KEEP + 3; i++)
        ck_assert_int_eq(news_post(&n, 10000 + 1000 * (uint64_t)i, i,
                                   i == NEWS_KEEP + 2 ? longline : "x"), 1);
    ck_assert_int_eq(news_latest(&n, out, NEWS_KEEP + 5), NEWS_KEEP);
    ck_assert_uint_eq(strlen(out[0].text), NEWS_TEXT_MAX - 1);
    ck_assert_uint_eq(out[0].seq, news_seq(&n));
    ck_assert_uint_eq(out[NEWS_KEEP - 1].seq, news_seq(&n) - NEWS_KEEP + 1);
    news_free(&n);
}
END_TEST

START_TEST(wins_and_deep_deaths_are_news)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "ann");
    snprintf(g.cause, sizeof g.cause, "killed by a troll");
    g.score = 120;
    g.turns = 900;
    g.depth = 5;
    g.ending = STORE_END_DEATH;
    char line[NEWS_TEXT_MAX];
    ck_assert_int_eq(announce_line(&g, 6, line, sizeof line), 0);
    g.depth = 6;
    ck_assert_int_eq(announce_line(&g, 6, line, sizeof line), 1);
    ck_assert_str_eq(line, "ann died on depth 6: killed by a troll (120 points).");
    g.ending = STORE_END_QUIT;
    ck_assert_int_eq(announce_line(&g, 1, line, sizeof line), 0);
    g.ending = STORE_END_DISCONNECT;
    ck_assert_int_eq(announce_line(&g, 1, line, sizeof line), 0);
    g.ending = STORE_END_WIN;
    g.depth = 1;
    ck_assert_int_eq(announce_line(&g, 6, line, sizeof line), 1);
    ck_assert_str_eq(line, "ann won with 120 points in 900 turns!");
}
END_TEST

/* A reading is kept only if no game ended between its request and its
 * answer, and only until the next game ends or the store writes a held
 * game (store_held_written moves on: one queued before the reading but
 * written after it). */
START_TEST(the_hall_of_fame_is_kept_only_while_true)
{
    site_cache_t c;
    site_cache_init(&c);
    store_scores_t in, out;
    memset(&in, 0, sizeof in);
    in.status = STORE_OK;
    in.n = 1;
    in.top[0].score = 77;
    ck_assert_int_eq(site_cache_get(&c, 0, &out), 0);
    uint64_t asked = site_cache_gen(&c);
    site_cache_changed(&c); /* a game ended before the answer came */
    site_cache_put(&c, asked, 0, &in);
    ck_assert_int_eq(site_cache_get(&c, 0, &out), 0);
    asked = site_cache_gen(&c);
    site_cache_put(&c, asked, 0, &in);
    ck_assert_int_eq(site_cache_get(&c, 0, &out), 1);
    ck_assert_int_eq(out.top[0].score, 77);
    /* a held game written since the reading was asked */
    ck_assert_int_eq(site_cache_get(&c, 1, &out), 0);
    site_cache_put(&c, site_cache_gen(&c), 1, &in); /* asked after it */
    ck_assert_int_eq(site_cache_get(&c, 1, &out), 1);
    site_cache_changed(&c);
    ck_assert_int_eq(site_cache_get(&c, 1, &out), 0);
    in.status = STORE_ERROR; /* a failed reading is never kept */
    site_cache_put(&c, site_cache_gen(&c), 1, &in);
    ck_assert_int_eq(site_cache_get(&c, 1, &out), 0);
    ck_assert_uint_eq(c.hits, 2);
    site_cache_free(&c);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("site_text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, html_text_escapes_markup_and_drops_controls);
    tcase_add_test(tc, json_text_cannot_end_a_string_or_a_script);
    tcase_add_test(tc, a_page_past_its_cap_is_failed_not_cut);
    tcase_add_test(tc, ids_and_starts);
    tcase_add_test(tc, news_is_rate_limited_and_keeps_the_latest);
    tcase_add_test(tc, wins_and_deep_deaths_are_news);
    tcase_add_test(tc, the_hall_of_fame_is_kept_only_while_true);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
