/* web_page.h - a browser page, as the tests drive it through the tests'
 * WebSocket client (client.h, cl_opts_t.web and .resume): its login, its
 * token, its return with one (test_web_login.c, test_pg_cluster_tokens.c):
 * web_page.c. */
#ifndef ROGUE_TEST_WEB_PAGE_H
#define ROGUE_TEST_WEB_PAGE_H

#include "client.h"

/* A play page on the browser port http, sending token resume first (NULL:
 * none). */
tclient_t *web_page(int http, const char *resume);

/* Types a line at a prompt whose text is `at` (the web client has no
 * frame markers: each step waits for what the screen says next). */
void web_answer(tclient_t *c, const char *at, const char *line);

/* A page in the lobby logs name in (password "password1"), registering
 * it first if asked. */
void web_page_login(tclient_t *c, const char *name, int registering);

/* The token the page holds now, once it has one of 32 characters. */
void web_token_of(tclient_t *c, char t[40]);

/* Sends key and waits for the turn counter to read turn. */
void web_key_to_turn(tclient_t *c, const char *key, int turn);

/* A page back with token t lands logged out, and is told why. */
void web_back_logged_out(int http, const char *t);

#endif
