/* web_page.c - a browser page as the tests drive it (web_page.h). */
#include "web_page.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "play.h"

tclient_t *web_page(int http, const char *resume)
{
    cl_opts_t o = { .web = 1, .resume = resume };
    return cl_connect(http, &o);
}

void web_answer(tclient_t *c, const char *at, const char *line)
{
    play_wait_text(c, at);
    ck_assert_int_eq(cl_send_str(c, line), 0);
    ck_assert_int_eq(cl_send_str(c, "\r"), 0);
}

void web_page_login(tclient_t *c, const char *name, int registering)
{
    char who[64];
    play_wait_text(c, "Play (as a guest)");
    ck_assert_int_eq(cl_send_str(c, registering ? "r" : "l"), 0);
    web_answer(c, "Name:", name);
    web_answer(c, "Password:", "password1");
    if (registering)
        web_answer(c, "Again:", "password1");
    snprintf(who, sizeof who, "Logged in as %s", name);
    play_wait_text(c, who);
}

void web_token_of(tclient_t *c, char t[40])
{
    for (int i = 0; i < 100 && strlen(cl_web_token(c)) != 32; i++)
        cl_pump(c, 100);
    ck_assert_int_eq((int)strlen(cl_web_token(c)), 32);
    snprintf(t, 40, "%s", cl_web_token(c));
}

void web_key_to_turn(tclient_t *c, const char *key, int turn)
{
    ck_assert_int_eq(cl_send_str(c, key), 0);
    if (!cl_wait(c, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(c, "key %s: the turn is %d, not %d", key, cl_turn(c), turn);
}

void web_back_logged_out(int http, const char *t)
{
    tclient_t *c = web_page(http, t);
    play_wait_text(c, "Play (as a guest)");
    ck_assert(cl_screen_has(c, "Not logged in"));
    play_wait_text(c, "Your last visit here has ended");
    /* a restart among the reasons (a play-test's guest came back from
     * one to "a login elsewhere, a logout or too long away"), the note
     * wrapped at 80 columns rather than cut at the edge */
    play_wait_text(c, "a logout, a restart or");
    play_wait_text(c, "too long away).");
    cl_close(c);
}
