/* test_site.c - the site's pages (server/site/, site.h) against the real
 * server (sanitizer build), fetched over HTTP on the browser's port as a
 * browser would: their status, type, caching and exact HTML fragments;
 * hostile text (markup, entities, quotes, the longest values) in every
 * field the host or a player writes, always escaped; the front page
 * listing a live game whose watch page's WebSocket watches it; the hall
 * of fame linking a finished game's page whose WebSocket replays it; the
 * feeds; the icon and its links; and the news of a death,
 * rate-limited. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "dump.h"
#include "game.h"
#include "plan.h"
#include "play.h"
#include "preload.h"
#include "web_assets.h"

/* GAME_VERSION as the feeds write it */
#define STR_(x) #x
#define STR(x) STR_(x)
#define GAME_VERSION_TEXT STR(GAME_VERSION)

/* The host's hostile settings: markup, an entity, both quotes; the
 * message at its longest (159 bytes). */
#define HOSTILE_NAME "<script>alert(\"x\")</script> &amp; 'q'"
#define HOSTILE_NAME_HTML \
    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;amp; &#39;q&#39;"
#define HOSTILE_NAME_JSON \
    "\\u003cscript\\u003ealert(\\\"x\\\")\\u003c/script\\u003e \\u0026amp; 'q'"
/* A player's name as hostile as a row of the store may hold (a name has
 * at most 20 bytes), in an SQL string (its quote doubled), and escaped. */
#define HOSTILE_PLAYER_SQL "<b>&amp;\"''q</b>"
#define HOSTILE_PLAYER_HTML "&lt;b&gt;&amp;amp;&quot;&#39;q&lt;/b&gt;"
#define HOSTILE_PLAYER_TEXT "<b>&amp;\"'q</b>"
#define HOSTILE_PLAYER_JSON \
    "\\u003cb\\u003e\\u0026amp;\\\"'q\\u003c/b\\u003e"
static char hostile_motd[160], hostile_motd_html[1200];

static void make_motd(void)
{
    static const char unit[] = "<i>&\"'";
    static const char unit_html[] = "&lt;i&gt;&amp;&quot;&#39;";
    hostile_motd[0] = hostile_motd_html[0] = '\0';
    while (strlen(hostile_motd) + strlen(unit) <= 159) {
        strcat(hostile_motd, unit);
        strcat(hostile_motd_html, unit_html);
    }
    while (strlen(hostile_motd) < 159) {
        strcat(hostile_motd, "z");
        strcat(hostile_motd_html, "z");
    }
}

/* A server with the browser's port (in *http) and the hostile settings,
 * then the extra --set values (NULL-ended, at most 4). */
static tsrv_t *site_server(int *http, const char *seed, const char *set1,
                           const char *set2, const char *set3)
{
    static char port_set[32], name_set[128], motd_set[200];
    make_motd();
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    snprintf(name_set, sizeof name_set, "server_name=%s", HOSTILE_NAME);
    snprintf(motd_set, sizeof motd_set, "motd=%s", hostile_motd);
    return srv_start("--seed", seed, "--log-level", "debug", "--set",
                     port_set, "--set", name_set,
                     "--set", motd_set, "--set",
                     set1 ? set1 : "guest_min_turns=0", "--set",
                     set2 ? set2 : "guest_min_turns=0", "--set",
                     set3 ? set3 : "guest_min_turns=0", NULL);
}

typedef struct resp {
    char *all;         /* the whole answer, NUL-ended (malloc'd) */
    const char *body;  /* after the head */
} resp_t;

/* Sends GET path to 127.0.0.1:port; the connection, to read with
 * get_answer. */
static int get_send(int port, const char *path)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: rogued\r\n\r\n",
                     path);
    ck_assert_int_eq(write(fd, req, (size_t)n), n);
    return fd;
}

/* The answer to get_send's request on fd, read to its end (the server
 * closes the connection after each); fd is closed. */
static resp_t get_answer(int fd, const char *path)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        ck_assert_msg(time(NULL) <= deadline, "no end of the answer to %s", path);
        if (poll(&p, 1, 1000) <= 0)
            continue;
        if (len + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        ssize_t k = read(fd, buf + len, cap - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    buf[len] = '\0';
    resp_t r = { buf, strstr(buf, "\r\n\r\n") };
    ck_assert_msg(r.body != NULL, "no head in the answer to %s: %s", path, buf);
    r.body += 4;
    return r;
}

/* GET path on 127.0.0.1:port, the answer read to its end. */
static resp_t get(int port, const char *path)
{
    return get_answer(get_send(port, path), path);
}

static void has(const resp_t *r, const char *text)
{
    ck_assert_msg(strstr(r->all, text) != NULL, "no \"%s\" in:\n%s", text,
                  r->all);
}

static void has_not(const resp_t *r, const char *text)
{
    ck_assert_msg(strstr(r->all, text) == NULL, "\"%s\" in:\n%s", text, r->all);
}

/* The head says status and type, and the body is as long as it says. */
static void head_is(const resp_t *r, const char *status, const char *type,
                    const char *cache)
{
    char line[160];
    snprintf(line, sizeof line, "HTTP/1.1 %s\r\n", status);
    ck_assert_msg(strncmp(r->all, line, strlen(line)) == 0, "%s", r->all);
    snprintf(line, sizeof line, "\r\nContent-Type: %s\r\n", type);
    has(r, line);
    if (cache) {
        snprintf(line, sizeof line, "\r\nCache-Control: %s\r\n", cache);
        has(r, line);
    }
    snprintf(line, sizeof line, "\r\nContent-Length: %zu\r\n", strlen(r->body));
    has(r, line);
}

/* Every HTML page: the host's name and nothing of it unescaped. */
static void page_is_safe(const resp_t *r)
{
    has_not(r, "<script>alert");
    has_not(r, "<i>&");
    has(r, "<title>");
}

/* text as the site escapes it (site_html.h's html_text); malloc'd. */
static char *html_escaped(const char *text)
{
    char *out = malloc(strlen(text) * 6 + 1), *o = out;
    ck_assert_ptr_nonnull(out);
    for (const char *p = text; *p; p++) {
        const char *e = *p == '&' ? "&amp;" : *p == '<' ? "&lt;"
                      : *p == '>' ? "&gt;" : *p == '"' ? "&quot;"
                      : *p == '\'' ? "&#39;" : NULL;
        if (e) {
            strcpy(o, e);
            o += strlen(e);
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

/* What the page's <pre id="dump"> holds (malloc'd); the test fails if the
 * page has none. */
static char *dump_of(const resp_t *r)
{
    static const char open[] = "<pre id=\"dump\">";
    const char *a = strstr(r->body, open);
    ck_assert_msg(a != NULL, "no dump in:\n%s", r->all);
    a += strlen(open);
    const char *b = strstr(a, "</pre>");
    ck_assert_msg(b != NULL, "no end of the dump in:\n%s", r->all);
    return strndup(a, (size_t)(b - a));
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The nav of each of the site's pages, whole, no feed (a person's tap on
 * it opened raw JSON); the feed named in the head. (The play page's line
 * above its terminal is a nav of its own, #site, in small text so as to
 * take little of a phone's height: checked apart, below.) */
#define NAV "<nav><a href=\"/\">Home</a><a href=\"/play\">Play</a>" \
            "<a href=\"/scores\">Hall of fame</a></nav>\n<h1>"
#define FEED_LINK "<link rel=\"alternate\" type=\"application/json\" " \
                  "href=\"/games.json\" title=\"Finished games (JSON)\">"

START_TEST(pages_answer_with_their_types_and_escape_the_host)
{
    int http;
    tsrv_t *s = site_server(&http, "42", NULL, NULL, NULL);
    resp_t r = get(http, "/");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    page_is_safe(&r);
    has(&r, "<title>" HOSTILE_NAME_HTML "</title>");
    has(&r, "<h1>" HOSTILE_NAME_HTML "</h1>");
    char motd[1300];
    snprintf(motd, sizeof motd, "<p id=\"motd\">%s</p>", hostile_motd_html);
    has(&r, motd);
    has(&r, "<p><a class=\"play\" href=\"/play\">Play</a></p>");
    has(&r, NAV);
    has(&r, FEED_LINK);
    has_not(&r, "<a href=\"/games.json\"");
    has(&r, "<p id=\"feeds\">For programs: the latest finished games are "
            "at <code>/games.json</code> (JSON) and <code>/games.xlog</code> "
            "(the xlogfile lines community scoreboards read).</p>");
    has(&r, "<p id=\"counts\">0 online, 0 games in progress.</p>");
    has(&r, "<p id=\"nogames\">Nobody is playing right now.</p>");
    has(&r, "<ul id=\"news\"><li class=\"none\">Nothing yet.</li></ul>");
    has(&r, "<meta name=\"viewport\" content=\"width=device-width, "
            "initial-scale=1\">");
    free(r.all);

    r = get(http, "/scores");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    page_is_safe(&r);
    has(&r, "<h1>Hall of fame</h1>");
    /* the window's title names the site too, escaped */
    has(&r, "<title>Hall of fame - " HOSTILE_NAME_HTML "</title>");
    has(&r, NAV);
    has(&r, FEED_LINK);
    has(&r, "<p id=\"noscores\">The hall of fame is empty: it lists "
            "deaths, wins and games quit after 100 turns.</p>");
    free(r.all);

    r = get(http, "/games.json");
    head_is(&r, "200 OK", "application/json", "no-cache");
    ck_assert_str_eq(r.body, "{\"server\": \"" HOSTILE_NAME_JSON
                             "\", \"version\": " GAME_VERSION_TEXT ", \"games\": [\n]}\n");
    free(r.all);
    r = get(http, "/games.xlog");
    head_is(&r, "200 OK", "text/plain; charset=utf-8", "no-cache");
    ck_assert_str_eq(r.body, "");
    free(r.all);

    /* what is not there: 404, never the path given back */
    static const char *const missing[] = {
        "/game/1", "/game/abc", "/game/99999999999999999999", "/game/",
        "/game/-1", "/watch/7", "/watch/%3Cscript%3E", "/game/1%3Cb%3E",
    };
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        r = get(http, missing[i]);
        head_is(&r, "404 Not Found", "text/html; charset=utf-8", "no-cache");
        page_is_safe(&r);
        has_not(&r, "%3C");
        has_not(&r, "abc");
        free(r.all);
    }
    /* any other path: the site's 404 too, with its links home */
    static const char *const nopage[] = { "/nothing-here", "/nope",
                                          "/%3Cscript%3E", "/play/x" };
    for (size_t i = 0; i < sizeof nopage / sizeof nopage[0]; i++) {
        r = get(http, nopage[i]);
        head_is(&r, "404 Not Found", "text/html; charset=utf-8", "no-cache");
        page_is_safe(&r);
        has(&r, NAV);
        has(&r, FEED_LINK);
        has(&r, "<title>404 Not Found - " HOSTILE_NAME_HTML "</title>");
        has(&r, "<h1>404 Not Found</h1>\n<p>There is no page at this "
                "address.</p>");
        has_not(&r, "nothing-here");
        has_not(&r, "nope");
        has_not(&r, "%3C");
        free(r.all);
    }
    /* the play page is at /play, and links the front page; the front
     * page's old address still answers with it */
    r = get(http, "/play");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    has(&r, "<div id=\"terminal\"></div>");
    has(&r, "<nav id=\"site\"><a href=\"/\">");
    free(r.all);
    r = get(http, "/home");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    has(&r, "<p><a class=\"play\" href=\"/play\">Play</a></p>");
    free(r.all);
    srv_stop(s);
}
END_TEST

#define ICON_LINK "<link rel=\"icon\" href=\"/favicon.svg\" " \
    "type=\"image/svg+xml\">"

/* The icon (web/favicon.svg, built in) is served at /favicon.svg and at
 * /favicon.ico, the same bytes with the SVG's type; each kind of page
 * links it: the site's own, one of its 404s, the play page. */
/* With guest_min_turns set, the hall of fame says a guest's short game is
 * not kept (a newcomer looked for one there). */
START_TEST(hall_of_fame_says_a_guest_s_short_game_is_not_kept)
{
    int http;
    tsrv_t *s = site_server(&http, "42", "guest_min_turns=50",
                            "news_min_depth=5", "news_min_depth=5");
    resp_t r = get(http, "/scores");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    has(&r, "<p id=\"noscores\">The hall of fame is empty: it lists "
            "deaths, wins and games quit after 100 turns.</p>");
    has(&r, "<p id=\"guests\">A guest's game of fewer than 50 turns is not "
            "kept.</p>");
    free(r.all);
    srv_stop(s);
}
END_TEST

START_TEST(icon_is_served_and_every_page_links_it)
{
    int http;
    tsrv_t *s = site_server(&http, "42", NULL, NULL, NULL);
    char *svg = srv_read_file("web/favicon.svg");
    ck_assert(strncmp(svg, "<svg ", 5) == 0);
    static const char *const icons[] = { "/favicon.svg", "/favicon.ico" };
    for (size_t i = 0; i < 2; i++) {
        resp_t r = get(http, icons[i]);
        head_is(&r, "200 OK", "image/svg+xml", "no-cache");
        ck_assert_str_eq(r.body, svg);
        free(r.all);
    }
    free(svg);
    static const char *const pages[] = { "/", "/scores", "/game/1", "/play" };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        resp_t r = get(http, pages[i]);
        has(&r, "</title>");
        const char *link = strstr(r.body, ICON_LINK);
        ck_assert_msg(link && link < strstr(r.body, "</head>"),
                      "no icon in the head of %s:\n%s", pages[i], r.all);
        free(r.all);
    }
    srv_stop(s);
}
END_TEST

static int pred_turn_is(tclient_t *w, void *arg)
{
    return cl_turn(w) == cl_turn(arg);
}

/* Registers name over telnet and plays: the client at its game. */
static tclient_t *account_playing(int port, const char *name)
{
    tclient_t *c = play_register(port, name);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "Turn:0");
    return c;
}

/* The longest name there may be, with both of its punctuation marks. */
#define LONG_NAME "Zz-_9abcdefghijklmno"

START_TEST(front_page_lists_a_live_game_and_its_watch_page_watches_it)
{
    int http;
    tsrv_t *s = site_server(&http, "42", NULL, NULL, NULL);
    tclient_t *p = account_playing(srv_port(s), LONG_NAME);
    play_move(p, "l", 1, 0);
    resp_t r = get(http, "/");
    page_is_safe(&r);
    has(&r, "<p id=\"counts\">1 online, 1 game in progress.</p>");
    has(&r, "<tr><td>" LONG_NAME "</td><td class=\"n\">1</td>"
            "<td class=\"n\">1</td><td class=\"n\">0</td>"
            "<td><a href=\"/watch/1\">Watch</a></td></tr>");
    free(r.all);

    r = get(http, "/watch/1");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    page_is_safe(&r);
    has(&r, "<h1>Watching " LONG_NAME "</h1>");
    /* counted before the page's own terminal, which its script adds */
    has(&r, "<p id=\"where\">Depth 1, turn 1, <span id=\"watching\" "
            "data-others=\"0\">0 watching</span>.</p>");
    has(&r, "<div id=\"term\" class=\"term\" data-ws=\"watch=1\"></div>");
    /* a touch device's bar: leave, all a watch takes */
    has(&r, "<div id=\"termkeys\" class=\"termkeys\" hidden><button "
            "data-key=\"q\" aria-label=\"leave\">");
    /* the terminal's files at their hashed, cached addresses */
    char script[96];
    snprintf(script, sizeof script, "<script src=\"%s\"></script>",
             web_xterm_js_url);
    has(&r, script);
    /* and the font search it shares with the play page (web/font.js),
     * served as JavaScript and cached for good */
    snprintf(script, sizeof script, "<script src=\"%s\"></script>\n<script>",
             web_font_js_url);
    has(&r, script);
    /* no cap on the font: on a big screen the terminal grows with the
     * window (15 px left it a third of 1920x1080); the box no taller
     * than the room under its top but on a phone held sideways */
    has(&r, "rogueFont(term, fit, box, { cut: 33, room: !sideways.matches })");
    has_not(&r, "cap:");
    free(r.all);
    r = get(http, web_font_js_url);
    head_is(&r, "200 OK", "text/javascript",
            "public, max-age=31536000, immutable");
    has(&r, "\r\n\r\n// font.js - ");
    has(&r, "\nfunction rogueFont(term, fit, box, opt) {\n");
    free(r.all);

    /* the page's WebSocket: straight into watching, at its own size */
    cl_opts_t o = { .web = 1, .w = 100, .h = 30, .ws_path = "/ws?watch=1" };
    tclient_t *w = cl_connect(http, &o);
    play_wait_text(w, "Watching " LONG_NAME " - q leaves");
    ck_assert_str_eq(cl_web_states(w), ""); /* no key bar to tell */
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    char row[256];
    ck_assert(strncmp(cl_row(w, 29, row, sizeof row), "HP: ", 4) == 0);
    play_wait_text(p, "1 watching");
    const char *keys[] = { "h", "l", "." };
    for (int i = 0; i < 3; i++) {
        ck_assert(cl_key(p, keys[i]));
        if (!cl_wait(w, pred_turn_is, p, CL_WAIT_MS))
            play_fail(w, "the page's watcher is at turn %d, the player at %d",
                      cl_turn(w), cl_turn(p));
    }
    r = get(http, "/");
    has(&r, "<td class=\"n\">4</td><td class=\"n\">1</td>"
            "<td><a href=\"/watch/1\">Watch</a></td>");
    free(r.all);
    /* q ends the page's watch, and its connection: not the lobby's menu
     * under the page's heading */
    ck_assert_int_eq(cl_send_str(w, "q"), 0);
    ck_assert(cl_wait_eof(w, CL_WAIT_MS));
    ck_assert(cl_stream_has(w, "You have stopped watching.\r\n"));
    ck_assert(!cl_stream_has(w, "Watch a game"));
    ck_assert_int_eq(cl_web_close_code(w), 1000);
    ck_assert(srv_wait_log(s, "reason=\"the watch page's watch ended\"",
                           CL_WAIT_MS));
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A watch page asked for its own session (the server's first
 * connection, id 1, asks /ws?watch=1) is told the game cannot be found
 * and closed, as for any game gone: a QA's page waited on "One
 * moment..." for good. */
START_TEST(a_watch_page_of_itself_is_closed_with_why)
{
    int http;
    tsrv_t *s = site_server(&http, "42", NULL, NULL, NULL);
    cl_opts_t o = { .web = 1, .w = 100, .h = 30, .ws_path = "/ws?watch=1" };
    tclient_t *w = cl_connect(http, &o);
    ck_assert(cl_wait_eof(w, CL_WAIT_MS));
    ck_assert(cl_stream_has(w, "That game cannot be found now.\r\n"));
    ck_assert_int_eq(cl_web_close_code(w), 1000);
    /* it was the first and only connection: id 1, its own */
    ck_assert_int_eq(srv_log_count(s, "info connect 127.0.0.1:"), 1);
    ck_assert(srv_log_has(s, " id=1 worker="));
    cl_close(w);
    srv_stop(s);
}
END_TEST

/* A death plan whose character dump has markup to escape (the stairs '>'
 * seen, a quote in a message): the game page's escaping is then seen. */
static int plan_death_to_escape(uint64_t seed, int ruleset, plan_t *pl)
{
    if (!plan_death(seed, ruleset, pl))
        return 0;
    game_options_t o = { .ruleset = ruleset };
    game_t *g = game_new(seed, &o);
    ck_assert_ptr_nonnull(g);
    for (int i = 0; i < pl->n; i++)
        game_key(g, pl->keys[i]);
    char text[8192];
    game_dump(g, NULL, text, sizeof text);
    game_free(g);
    return strpbrk(text, "<>&\"'") != NULL;
}

START_TEST(hall_of_fame_links_a_game_page_whose_replay_plays)
{
    plan_t pl;
    find_plan(plan_death_to_escape, RULES_ATTACK_DEFENSE, &pl);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    int http;
    /* deaths from depth 1 are news, at most one line in ten minutes */
    tsrv_t *s = site_server(&http, seed, "news_min_depth=1",
                            "news_interval_ms=600000", "combat=attack-defense");
    tclient_t *watcher_lobby = play_lobby(srv_port(s));
    tclient_t *p = play_connect(srv_port(s), NULL);
    game_t *g = play_plan(p, &pl);
    ck_assert(game_dead(g));
    char cause[64], want[512];
    game_death_cause(g, cause, sizeof cause);
    int score = game_score(g), turns = (int)g->turn, kills = g->kills;
    /* the dump the page must show: the core's, of the test's own copy of
     * the game (the same seed and keys as the server's record) */
    size_t dump_len = game_dump(g, NULL, NULL, 0);
    char *dump = malloc(dump_len + 1);
    ck_assert_ptr_nonnull(dump);
    game_dump(g, NULL, dump, dump_len + 1);
    game_free(g);
    ck_assert(srv_wait_log(s, "game over id=2 name=guest2", CL_WAIT_MS));

    /* the news: the lobby's line, and the front page's */
    snprintf(want, sizeof want, "guest2 died on depth 1: %s (%d points).",
             cause, score);
    play_wait_text(watcher_lobby, want);
    resp_t r = get(http, "/");
    has(&r, want);
    ck_assert_int_eq(count(r.body, "<li>"), 1);
    free(r.all);

    /* the store has it once its batch commits: the hall of fame links it */
    char link[256];
    snprintf(link, sizeof link, "<tr><td class=\"n\">1</td><td><a href=\"/game/1\">"
             "guest2</a></td><td class=\"n\">%d</td><td class=\"n\">1</td>"
             "<td class=\"n\">%d</td><td>%s</td>", score, turns, cause);
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    for (;;) {
        r = get(http, "/scores");
        if (strstr(r.all, link) || time(NULL) > deadline)
            break;
        free(r.all);
        struct timespec ms = { 0, 50 * 1000000L };
        nanosleep(&ms, NULL);
    }
    head_is(&r, "200 OK", "text/html; charset=utf-8", "no-cache");
    page_is_safe(&r);
    has(&r, link);
    /* the rule under the table; no guests' line at guest_min_turns=0 */
    has(&r, "</table>\n<p id=\"rule\">It lists deaths, wins and games quit "
            "after 100 turns.</p>");
    has_not(&r, "id=\"guests\"");
    free(r.all);

    r = get(http, "/game/1");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "public, max-age=86400");
    page_is_safe(&r);
    snprintf(want, sizeof want, "<h1>Game 1: guest2, %d points</h1>", score);
    has(&r, want);
    /* the character dump, whole and escaped: it has the map's stairs or
     * the quotes of a message to escape (else this proves nothing) */
    ck_assert_msg(strpbrk(dump, "<>&\"'") != NULL, "nothing to escape in:\n%s",
                  dump);
    char *want_dump = html_escaped(dump), *got_dump = dump_of(&r);
    ck_assert_str_eq(got_dump, want_dump);
    free(got_dump);
    free(want_dump);
    free(dump);
    has_not(&r, "id=\"nodump\"");
    has(&r, "<div id=\"term\" class=\"term\" data-ws=\"replay=1\"></div>");
    /* a touch device's bar: a replay's keys, then leave */
    has(&r, "<div id=\"termkeys\" class=\"termkeys\" hidden><button "
            "data-key=\" \" aria-label=\"pause\">");
    has(&r, "aria-label=\"one turn\">.<small>turn</small></button><button "
            "data-key=\"q\" aria-label=\"leave\">");
    free(r.all);
    /* made in the thread pool, not on the loop */
    ck_assert(srv_log_has(s, "site: game 1's dump made off the loop, "));

    r = get(http, "/games.json");
    snprintf(want, sizeof want, "\n  {\"id\": 1, \"name\": \"guest2\", \"score\": "
             "%d, \"depth\": 1, \"turns\": %d, \"kills\": %d, \"ruleset\": "
             "\"attack-defense\", \"ending\": \"death\", \"cause\": \"%s\", "
             "\"ended\": ", score, turns, kills, cause);
    has(&r, want);
    has(&r, ", \"url\": \"/game/1\"}\n]}\n");
    free(r.all);
    r = get(http, "/games.xlog");
    snprintf(want, sizeof want, "version=%d:gameid=1:points=%d:deathlev=1:"
             "maxlvl=1:turns=%d:kills=%d:ruleset=attack-defense:ending=death:"
             "endtime=", GAME_VERSION, score, turns, kills);
    ck_assert_msg(strncmp(r.body, want, strlen(want)) == 0, "%s", r.body);
    snprintf(want, sizeof want, ":name=guest2:death=%s\n", cause);
    has(&r, want);
    ck_assert_int_eq(count(r.body, "\n"), 1);
    free(r.all);
    /* the hall of fame's reading is kept while true; the feeds read the
     * store's latest games, not it */
    r = get(http, "/scores");
    has(&r, link);
    free(r.all);
    ck_assert_int_ge(srv_log_count(s, "site: the hall of fame from the cache"),
                     1);
    int from_store = srv_log_count(s, "site: the hall of fame from the store");

    /* the page's WebSocket replays it, at the page's size */
    cl_opts_t o = { .web = 1, .w = 90, .h = 28, .ws_path = "/ws?replay=1" };
    tclient_t *rp = cl_connect(http, &o);
    play_wait_text(rp, "Replay: guest2");
    play_wait_text(rp, "YOU DIED");
    /* its end screen's keys: no lobby to go back to on a site page */
    play_wait_text(rp, "Esc or q: leave");
    ck_assert(!cl_screen_has(rp, "back to the lobby"));
    ck_assert_str_eq(cl_web_states(rp), "");
    /* q ends the replay, and the page's connection: not the lobby */
    ck_assert_int_eq(cl_send_str(rp, "q"), 0);
    ck_assert(cl_wait_eof(rp, CL_WAIT_MS));
    ck_assert(cl_stream_has(rp, "The replay has ended.\r\n"));
    ck_assert(!cl_stream_has(rp, "Watch a game"));
    ck_assert_int_eq(cl_web_close_code(rp), 1000);
    cl_close(rp);
    /* a game there is none of: why, as the goodbye, not the lobby */
    o.ws_path = "/ws?replay=99";
    rp = cl_connect(http, &o);
    ck_assert(cl_wait_eof(rp, CL_WAIT_MS));
    ck_assert(cl_stream_has(rp, "That game cannot be found now.\r\n"));
    ck_assert(!cl_stream_has(rp, "Watch a game"));
    ck_assert_int_eq(cl_web_close_code(rp), 1000);
    cl_close(rp);

    /* the same death again within the ten minutes: no second line */
    ck_assert(cl_key(p, "r"));
    play_wait_text(p, "Turn:0");
    g = play_plan(p, &pl);
    ck_assert(game_dead(g));
    game_free(g);
    ck_assert(srv_wait_log_count(s, "game over id=2 name=guest2", 2,
                                 CL_WAIT_MS));
    r = get(http, "/");
    ck_assert_int_eq(count(r.body, "<li>"), 1);
    free(r.all);
    /* a game ended: the hall of fame is read again, and has both */
    r = get(http, "/scores");
    has(&r, "<tr><td class=\"n\">2</td><td><a href=\"/game/2\">guest2</a>");
    free(r.all);
    ck_assert_int_eq(srv_log_count(s, "site: the hall of fame from the store"),
                     from_store + 1);
    cl_close(p);
    cl_close(watcher_lobby);
    srv_stop(s);
}
END_TEST

/* GET path until the store has the game (not a 404), within 30 s. */
static resp_t get_found(int port, const char *path)
{
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    for (;;) {
        resp_t r = get(port, path);
        if (strncmp(r.all, "HTTP/1.1 404 ", 13) != 0 || time(NULL) > deadline)
            return r;
        free(r.all);
        struct timespec ms = { 0, 50 * 1000000L };
        nanosleep(&ms, NULL);
    }
}

/* Waits until /games.json lists game id (the store has it), within 30 s:
 * its page is not asked, so no dump of it is made or kept. */
static void wait_game_listed(int port, int id)
{
    char want[32];
    snprintf(want, sizeof want, "{\"id\": %d, ", id);
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    for (;;) {
        resp_t r = get(port, "/games.json");
        int found = strstr(r.body, want) != NULL;
        free(r.all);
        if (found)
            return;
        ck_assert_msg(time(NULL) <= deadline, "game %d never listed", id);
        struct timespec ms = { 0, 50 * 1000000L };
        nanosleep(&ms, NULL);
    }
}

/* One SQL statement on the stopped server's database in dir. */
static void sql(const char *dir, const char *statement)
{
    char path[600];
    snprintf(path, sizeof path, "%s/rogued.db", dir);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    int rc = sqlite3_exec(db, statement, NULL, NULL, &err);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", statement, err ? err : "?");
    ck_assert_int_eq(sqlite3_changes(db), 1);
    sqlite3_close(db);
}

/* Where each of the games 3, 2, 1 begins in body (given as a fragment
 * printed with the id, e.g. "{\"id\": %d,"): asserts each is there once,
 * in that order (the newest first). */
static void newest_first(const char *body, const char *fmt, int newest,
                         int n)
{
    const char *last = body;
    for (int id = newest; id > newest - n; id--) {
        char frag[64];
        snprintf(frag, sizeof frag, fmt, id);
        const char *at = strstr(body, frag);
        ck_assert_msg(at != NULL && at >= last, "game %d not in order:\n%s",
                      id, body);
        ck_assert_int_eq(count(body, frag), 1);
        last = at;
    }
}

/* The feeds on a store of three quit games (no quit is in the hall of
 * fame: the feeds list every ending), game 2 by a hostile name: the
 * newest first, `limit` and `after` as docs/site.md says. */
static void feeds_list_the_latest_games(int http)
{
    resp_t r = get(http, "/games.json");
    head_is(&r, "200 OK", "application/json", "no-cache");
    ck_assert_int_eq(count(r.body, "{\"id\": "), 3);
    newest_first(r.body, "{\"id\": %d, ", 3, 3);
    has(&r, "{\"id\": 2, \"name\": \"" HOSTILE_PLAYER_JSON "\", ");
    has(&r, "\"ending\": \"quit\", \"cause\": \"quit\"");
    free(r.all);
    r = get(http, "/games.xlog");
    head_is(&r, "200 OK", "text/plain; charset=utf-8", "no-cache");
    ck_assert_int_eq(count(r.body, "\n"), 3);
    newest_first(r.body, ":gameid=%d:", 3, 3);
    has(&r, ":gameid=2:");
    has(&r, ":ending=quit:");
    has(&r, ":name=" HOSTILE_PLAYER_TEXT ":death=quit\n");
    free(r.all);
    r = get(http, "/games.xlog?limit=2");
    ck_assert_int_eq(count(r.body, "\n"), 2);
    newest_first(r.body, ":gameid=%d:", 3, 2);
    free(r.all);
    r = get(http, "/games.json?after=1&limit=100");
    ck_assert_int_eq(count(r.body, "{\"id\": "), 2);
    newest_first(r.body, "{\"id\": %d, ", 3, 2);
    free(r.all);
    r = get(http, "/games.xlog?limit=1&after=1");
    ck_assert_int_eq(count(r.body, "\n"), 1);
    newest_first(r.body, ":gameid=%d:", 3, 1);
    free(r.all);
    r = get(http, "/games.json?after=3");
    ck_assert_int_eq(count(r.body, "{\"id\": "), 0);
    has(&r, "\"games\": [\n]}\n");
    free(r.all);
}

START_TEST(game_page_replays_within_its_bound_else_a_summary_or_503)
{
    char dir[] = "/tmp/rogued-site-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    int http;
    char set_dir[700];
    snprintf(set_dir, sizeof set_dir, "data_dir=%s", dir);
    /* no replay at once on this server: a game's page is refused */
    tsrv_t *s = site_server(&http, "42", "site_replays=0", set_dir, NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(c, "."));
    ck_assert(cl_key(c, "Q"));
    ck_assert(cl_key(c, "y"));
    play_wait_text(c, "Play as guest");
    cl_close(c);
    resp_t r = get_found(http, "/game/1");
    head_is(&r, "503 Service Unavailable", "text/html; charset=utf-8",
            "no-cache");
    has(&r, "The server is busy replaying other games: try again in a "
            "moment.");
    free(r.all);
    srv_stop(s); /* everything committed */

    /* the same game twice more, as the store keeps them: one without its
     * record, by a hostile name; one whose record is damaged */
    sql(dir, "INSERT INTO games (player, account_id, ruleset, seed, score, "
             "depth, turns, kills, cause, started, ended, ending, record) SELECT "
             "'" HOSTILE_PLAYER_SQL "', account_id, ruleset, seed, score, depth, "
             "turns, kills, cause, started, ended, ending, NULL FROM games "
             "WHERE id = 1");
    sql(dir, "INSERT INTO games (player, account_id, ruleset, seed, score, "
             "depth, turns, kills, cause, started, ended, ending, record) SELECT "
             "player, account_id, ruleset, seed, score, depth, turns, kills, "
             "cause, started, ended, ending, X'52475243' FROM games "
             "WHERE id = 1");
    /* one replay at a time: pages one after another each get theirs (one
     * worker loop: each loop keeps its own dumps) */
    s = site_server(&http, "42", "site_replays=1", set_dir, "workers=1");
    /* the pool has room for every dump and every password check at once */
    ck_assert(srv_log_has(s, "libuv's thread pool: 4 threads: 2 for password "
                             "checks, 1 for game pages' dumps, 1 for a "
                             "backup"));
    for (int i = 0; i < 2; i++) {
        r = get(http, "/game/1");
        head_is(&r, "200 OK", "text/html; charset=utf-8",
                "public, max-age=86400");
        has(&r, "<pre id=\"dump\">rogued character dump (game version ");
        has(&r, "\nquit on depth 1 after 1 turn; score ");
        has(&r, "data-ws=\"replay=1\"");
        free(r.all);
    }
    /* made once: the second page had the dump the first made */
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump made off the "
                                      "loop, 3 keys replayed, for 1 "
                                      "reader\n"), 1);
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump as kept"), 1);
    /* no record: the row's summary, every field escaped, no replay */
    r = get(http, "/game/2");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "public, max-age=86400");
    page_is_safe(&r);
    has(&r, "<h1>Game 2: " HOSTILE_PLAYER_HTML ", ");
    has(&r, "<pre id=\"dump\">" HOSTILE_PLAYER_HTML " quit after 1 turn on "
            "depth 1.\n");
    has(&r, "<p id=\"norecord\">");
    has_not(&r, "data-ws=");
    free(r.all);
    /* a record that cannot be replayed: the summary, and why */
    r = get(http, "/game/3");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "public, max-age=86400");
    has(&r, "<pre id=\"dump\">guest");
    has(&r, "<p id=\"nodump\">This server cannot replay the game's record (");
    free(r.all);
    ck_assert(srv_log_has(s, "site: game 3's dump cannot be made: "));
    feeds_list_the_latest_games(http);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* A page's request is in before its deadline (twenty times
 * negotiation_ms from the first byte) but the page is not made by then:
 * the request's deadline no longer closes it unanswered; the page's own,
 * as long from the request, answers 503. The dump is held behind a
 * password check in libuv's pool (one thread, held by hash_hold.so). */
START_TEST(a_page_not_made_in_time_is_503)
{
    char dir[] = "/tmp/rogued-page-XXXXXX", fifo[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/hold", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(setenv("HASH_HOLD_FIFO", fifo, 1), 0);
    ck_assert_int_eq(setenv("UV_THREADPOOL_SIZE", "1", 1), 0);
    preload_env_t env;
    preload_set(&env, "hash_hold.so", NULL);
    int http;
    tsrv_t *s = site_server(&http, "42", "negotiation_ms=50",
                            "hashes_per_ip=0", NULL);
    preload_unset(&env);
    ck_assert_int_eq(unsetenv("HASH_HOLD_FIFO"), 0);
    ck_assert_int_eq(unsetenv("UV_THREADPOOL_SIZE"), 0);

    tclient_t *c = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(c, "."));
    ck_assert(cl_key(c, "Q"));
    ck_assert(cl_key(c, "y"));
    play_wait_text(c, "Play as guest");
    /* (its page not asked: a dump made would be kept, and answer) */
    wait_game_listed(http, 1);
    /* a login's password check takes the pool's one thread */
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "ann");
    play_type_line(c, "password1");
    ck_assert(srv_wait_log_count(s, "hash_hold: holding", 1, CL_WAIT_MS));
    resp_t r = get(http, "/game/1");
    head_is(&r, "503 Service Unavailable", "text/html; charset=utf-8",
            "no-cache");
    has(&r, "The server could not make that page in time: try again in a "
            "moment.");
    free(r.all);
    ck_assert(srv_log_has(s, "not made within 1000 ms: 503"));
    ck_assert(!srv_log_has(s, "no HTTP request in time"));

    int fd = open(fifo, O_WRONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert(srv_wait_log_count(s, "hash_hold: let go", 1, CL_WAIT_MS));
    ck_assert_int_eq(close(fd), 0);
    ck_assert(srv_wait_log_count(s, "hash_hold: checked", 1, CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* Readers of one game's page while its dump is being made wait for the
 * same replay, past site_replays; a page of another game is refused
 * meanwhile; a later reader has the dump as kept, with no replay. The
 * pool's one thread is held by a password check (hash_hold.so), so the
 * dump waits until the test lets it go. */
START_TEST(readers_of_one_game_share_its_dump)
{
    char dir[] = "/tmp/rogued-share-XXXXXX", fifo[64], set_dir[700];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(set_dir, sizeof set_dir, "data_dir=%s", dir);
    int http;
    tsrv_t *s = site_server(&http, "42", set_dir, NULL, NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(c, "."));
    ck_assert(cl_key(c, "Q"));
    ck_assert(cl_key(c, "y"));
    play_wait_text(c, "Play as guest");
    cl_close(c);
    srv_stop(s); /* everything committed */
    /* game 2: the same game again, record and all */
    sql(dir, "INSERT INTO games (player, account_id, ruleset, seed, score, "
             "depth, turns, kills, cause, started, ended, ending, record) "
             "SELECT player, account_id, ruleset, seed, score, depth, turns, "
             "kills, cause, started, ended, ending, record FROM games "
             "WHERE id = 1");

    snprintf(fifo, sizeof fifo, "%s/hold", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(setenv("HASH_HOLD_FIFO", fifo, 1), 0);
    ck_assert_int_eq(setenv("UV_THREADPOOL_SIZE", "1", 1), 0);
    preload_env_t env;
    preload_set(&env, "hash_hold.so", NULL);
    /* one worker loop: each loop makes and keeps its own dumps */
    s = site_server(&http, "42", set_dir, "site_replays=1", "workers=1");
    preload_unset(&env);
    ck_assert(srv_log_has(s, "libuv's thread pool: UV_THREADPOOL_SIZE=1, as "
                             "given"));
    ck_assert_int_eq(unsetenv("HASH_HOLD_FIFO"), 0);
    ck_assert_int_eq(unsetenv("UV_THREADPOOL_SIZE"), 0);
    c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "ann");
    play_type_line(c, "password1");
    ck_assert(srv_wait_log_count(s, "hash_hold: holding", 1, CL_WAIT_MS));

    int readers[3];
    for (int i = 0; i < 3; i++)
        readers[i] = get_send(http, "/game/1");
    ck_assert(srv_wait_log_count(s, "site: game 1's dump: one more reader "
                                    "waits for it (3)", 1, CL_WAIT_MS));
    resp_t r = get(http, "/game/2"); /* site_replays=1: game 1's is made */
    head_is(&r, "503 Service Unavailable", "text/html; charset=utf-8",
            "no-cache");
    has(&r, "The server is busy replaying other games");
    free(r.all);

    int fd = open(fifo, O_WRONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert(srv_wait_log_count(s, "hash_hold: let go", 1, CL_WAIT_MS));
    ck_assert_int_eq(close(fd), 0);
    for (int i = 0; i < 3; i++) {
        r = get_answer(readers[i], "/game/1");
        head_is(&r, "200 OK", "text/html; charset=utf-8",
                "public, max-age=86400");
        has(&r, "<pre id=\"dump\">rogued character dump (game version ");
        free(r.all);
    }
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump made off the "
                                      "loop, 3 keys replayed, for 3 "
                                      "readers\n"), 1);
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump as kept"), 0);
    /* a later reader: the kept dump, no replay */
    r = get(http, "/game/1");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "public, max-age=86400");
    has(&r, "\nquit on depth 1 after 1 turn; score ");
    free(r.all);
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump as kept"), 1);
    ck_assert_int_eq(srv_log_count(s, "site: game 1's dump made off the "
                                      "loop"), 1);
    /* and game 2's page, the pool free again */
    r = get(http, "/game/2");
    head_is(&r, "200 OK", "text/html; charset=utf-8", "public, max-age=86400");
    free(r.all);
    ck_assert(srv_wait_log_count(s, "hash_hold: checked", 1, CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("site");
    TCase *tc = tcase_create("pages");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, pages_answer_with_their_types_and_escape_the_host);
    tcase_add_test(tc, hall_of_fame_says_a_guest_s_short_game_is_not_kept);
    tcase_add_test(tc, icon_is_served_and_every_page_links_it);
    tcase_add_test(tc, front_page_lists_a_live_game_and_its_watch_page_watches_it);
    tcase_add_test(tc, a_watch_page_of_itself_is_closed_with_why);
    tcase_add_test(tc, hall_of_fame_links_a_game_page_whose_replay_plays);
    tcase_add_test(tc, game_page_replays_within_its_bound_else_a_summary_or_503);
    tcase_add_test(tc, a_page_not_made_in_time_is_503);
    tcase_add_test(tc, readers_of_one_game_share_its_dump);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
