/* session_input.c - what a session reads: the socket's bytes through the
 * PROXY check and the transport (telnet or the browser's WebSocket), keys
 * decoded and limited, the end of negotiation, to the state's key handler
 * (session_impl.h). */
#include "session.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_io.h"
#include "keys.h"
#include "log.h"
#include "prefetch.h"
#include "refusals.h"
#include "session_impl.h"
#include "tcp_acked.h"
#include "view.h"

#define ESC_DELAY_MS 100

/* Keys per second per player: a token bucket, so that a flood of keys
 * plays no faster than a fast typist. It counts keys already decoded: what
 * bounds the server's work for a client that floods is the budget of
 * bytes read (in_budget.h, below), spent before anything is decoded.
 * Typing at a prompt takes no key here (on_key), only its bytes. */
static int take_key_token(sess_t *s)
{
    uint64_t now = sess_now(s);
    double rate = s->srv->cfg.max_keys_per_second;
    s->key_tokens += (double)(now - s->key_tokens_ms) * rate / 1000.0;
    s->key_tokens_ms = now;
    if (s->key_tokens > rate)
        s->key_tokens = rate;
    if (s->key_tokens < 1.0)
        return 0;
    s->key_tokens -= 1.0;
    return 1;
}

/* The keys taken while the terminal is too small to show anything: those
 * that leave. y and n answer a question to leave ("Really quit?"); in a
 * game asking none they would move and run unseen (a QA find). */
static int is_quit_key(const sess_t *s, int key)
{
    if (key == 'y' || key == 'Y' || key == 'n' || key == 'N')
        return s->state != S_PLAYING || !s->st.play.g.game ||
               game_quit_asked(s->st.play.g.game);
    return key == 'Q' || key == 'q' || key == KEY_CTRL_C || key == KEY_ESC;
}

/* 1 if ch may stand before an entry's letter: the row's start is a blank,
 * a box's border or any other mark, never a letter or digit (an item's
 * "(worn) " is no entry of n). */
static int entry_edge(uint32_t ch)
{
    return !(ch >= 'a' && ch <= 'z') && !(ch >= 'A' && ch <= 'Z') &&
           !(ch >= '0' && ch <= '9');
}

/* A left press on a pack menu's entry (view_shows_pack: "a) ! a murky
 * potion", in the box over the map or the narrow layout's lists, one or
 * two to a row) is that entry's letter, as typed: the nearest "L) " at or
 * left of the cell on the row the client shows, found there rather than
 * worked out again from the layout. A phone's key bar has no letters
 * (a play-test found its items out of reach but through the device's
 * keyboard). 0 for a press on no entry. */
static int pack_entry_key(const sess_t *s, const keyev_t *ev)
{
    const screen_t *sh = &s->shown;
    if (ev->y >= sh->h || ev->x >= sh->w)
        return 0;
    for (int x = ev->x; x >= 0; x--) {
        uint32_t ch = screen_cat(sh, x, ev->y)->ch;
        if (ch >= 'a' && ch <= 'z' && x + 2 < sh->w &&
            screen_cat(sh, x + 1, ev->y)->ch == ')' &&
            screen_cat(sh, x + 2, ev->y)->ch == ' ' &&
            (x == 0 || entry_edge(screen_cat(sh, x - 1, ev->y)->ch)))
            return (int)ch;
    }
    return 0;
}

/* The game key for a mouse report, or 0 for none: a left press on a map
 * tile is a click key there (view_cell_tile: the map window of a small
 * terminal shows part of the map), while aiming (the target) and on the
 * map with no menu open (travel there: docs/game.md, "Travel"); while
 * aiming a right press cancels as Esc does (docs/game.md, "Throwing and
 * wands"); in a pack menu a left press on an entry is its letter. */
static int mouse_key(const sess_t *s, const keyev_t *ev)
{
    if (s->state != S_PLAYING || s->options.open || ev->release ||
        (ev->button & (32 | 64)))
        return 0;
    const game_t *g = s->st.play.g.game;
    int aiming = game_targeting(g);
    if (!aiming && view_shows_pack(g))
        return (ev->button & 3) == 0 ? pack_entry_key(s, ev) : 0;
    if (!aiming && g->mode != MODE_PLAY)
        return 0;
    if ((ev->button & 3) == 2)
        return aiming ? KEY_ESC : 0;
    int tx, ty;
    if ((ev->button & 3) != 0 ||
        !view_cell_tile(g, s->w, s->h, ev->x, ev->y, &tx, &ty))
        return 0;
    int key = game_click_key(tx, ty);
    return key > 0 ? key : 0;
}

#define CTRL_KEY(c) ((c) & 0x1f)

/* Bracketed paste (turned on with the terminal: session_render.c;
 * docs/telnet.md, "From bytes to keys"): a paste is typed at a lobby's
 * prompt (a password, a name), and dropped anywhere else. Played as
 * keys, text pasted by mistake into a game would walk, quaff and throw
 * at the key budget's pace (a play-test's finding); the notice says
 * where it went. pasting is 1 from the first mark; 2 once a key of the
 * paste was dropped. */
static void paste_mark(sess_t *s, int key)
{
    if (key == KEY_PASTE_BEGIN) {
        s->pasting = 1;
        return;
    }
    if (s->pasting == 2) {
        sess_notice(s, SESS_NOTICE_SESSION, "Pasted text is not played as "
                    "keys: it was dropped.");
        sess_owe_frame(s);
    }
    s->pasting = 0;
}

static void paste_dropped(sess_t *s)
{
    s->pasting = 2;
    s->last_input_ms = sess_now(s); /* someone is there */
}

static void dispatch_key(sess_t *s, int key);

static void on_key(void *ctx, const keyev_t *ev)
{
    sess_t *s = ctx;
    if (sess_closing(s) || s->state == S_NEGOTIATING ||
        s->state == S_ADMITTING)
        return;
    int key = ev->key;
    if (s->keys.dropped != s->keys_dropped) {
        /* The decoder dropped an escape sequence or a byte since the last
         * key: a line being typed cannot be taken as typed. */
        s->keys_dropped = s->keys.dropped;
        if (s->state == S_LOBBY)
            lobby_typed_refused(&s->lobby);
        /* what was given up may be the paste's end mark: a paste never
         * holds the keys after it for good */
        if (s->pasting)
            paste_mark(s, KEY_PASTE_END);
    }
    if (key == KEY_CPR)
        return; /* nothing asks for cursor reports */
    if (key == KEY_PASTE_BEGIN || key == KEY_PASTE_END) {
        paste_mark(s, key);
        return;
    }
    if (key == KEY_MOUSE && (key = mouse_key(s, ev)) == 0)
        return;
    /* Typing at a prompt costs no turn: a pasted password must not lose
     * characters to the limit on game keys (its bytes were counted in
     * the input budget before they were decoded: sess_on_bytes). */
    int typing = s->state == S_LOBBY && lobby_typing(&s->lobby);
    if (s->pasting && !typing) {
        paste_dropped(s);
        return;
    }
    if (!typing && !take_key_token(s))
        return;
    s->srv->stats.keys++; /* /metrics */
    s->last_input_ms = sess_now(s);
    s->warned_idle = 0;
    sess_notice_clear(s, SESS_NOTICE_NONE);
    sess_owe_frame(s);
    if (key == CTRL_KEY('L') || key == CTRL_KEY('R')) {
        /* Redraw: the terminal may show anything after a resize or noise. */
        term_state_reset(&s->term);
        sess_repaint(s);
        return;
    }
    if (s->srv->wait_keys_held)
        sess_play_waited_keys(s); /* (a wait ended in this pass): first */
    dispatch_key(s, key);
}

/* A key to the screen over the state, else the state. */
static void dispatch_key(sess_t *s, int key)
{
    /* Too small to see anything: only let the player leave. */
    if (!view_fits(s->w, s->h) && !is_quit_key(s, key))
        return;
    for (int i = 0; sess_overlays[i]; i++)
        if (sess_overlays[i]->key(s, key))
            return; /* an overlay's: the options screen's (O) */
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (ops->key)
        ops->key(s, key);
}

/* The negotiation is over: the lobby starts (a page back after a drop
 * plays on), and takes what was typed meanwhile. */
void sess_start_lobby(sess_t *s)
{
    sess_goto(s, S_LOBBY, NULL);
    sess_guest_resume(s);
    uint16_t n = s->nearly;
    s->nearly = 0;
    if (n && (s->state == S_LOBBY || s->state == S_PLAYING) && !sess_closing(s))
        keydec_feed(&s->keys, s->early, n, on_key, s);
}

void sess_start_lobby_if_negotiated(sess_t *s)
{
    /* telnet: the client's answers are in; the browser: its size is */
    int ready = s->admitted && s->tr->ready(s->conn);
    if (s->state == S_NEGOTIATING && !sess_closing(s) && ready) {
        uv_timer_stop(&s->negotiate_timer);
        if (sess_web_login_wait(s))
            return; /* a page's token waits (on negotiate_timer) */
        sess_start_lobby(s);
    }
}

/* The client's data (tconn, wsconn): keys. Negotiation may have just
 * finished within the same read: the lobby then takes these keys; before
 * it has, they wait in s->early (bounded: what does not fit is dropped). */
void sess_on_tc_data(void *ctx, const char *bytes, size_t n)
{
    sess_t *s = ctx;
    sess_start_lobby_if_negotiated(s);
    if (s->state == S_NEGOTIATING || s->state == S_ADMITTING) {
        size_t room = sizeof s->early - s->nearly;
        size_t take = n < room ? n : room;
        memcpy(s->early + s->nearly, bytes, take);
        s->nearly = (uint16_t)(s->nearly + take);
        return;
    }
    keydec_feed(&s->keys, bytes, n, on_key, s);
}

void sess_on_tc_key(void *ctx, int key)
{
    keyev_t k = { key, 0, 0, 0, 0 };
    sess_start_lobby_if_negotiated(ctx);
    on_key(ctx, &k);
}

static void arm_esc(sess_t *s);

static void on_esc_timer(uv_timer_t *t)
{
    sess_t *s = t->data;
    s->esc_armed = 0;
    if (sess_closing(s))
        return;
    if (s->in_paused) {
        /* the rest of the sequence is in the socket, which the input
         * budget has stopped reading: not cut short (an arrow, a paste's
         * end mark), it is read when the budget has refilled */
        arm_esc(s);
        return;
    }
    keydec_timeout(&s->keys, on_key, s);
}

/* A held Esc (or the start of a sequence) becomes a key if nothing follows
 * within ESC_DELAY_MS. esc_armed is kept beside the fields a key touches,
 * so a key with nothing held does not look at the timer's cold line. */
static void arm_esc(sess_t *s)
{
    s->esc_armed = 1;
    uv_timer_start(&s->esc_timer, on_esc_timer, ESC_DELAY_MS, 0);
}

/* The session's lines a key reads first: its hot top and telnet's
 * connection (session.h), and the state's data; asked for before the read
 * system call, so that they come in meanwhile. */
static void warm_session(const sess_t *s)
{
    prefetch_range(s, offsetof(sess_t, tc) + sizeof s->tc);
    prefetch_range(&s->st, sizeof s->st.play);
}

/* --- the input budget (in_budget.h) ------------------------------------------ */

/* How much must have come back before reading resumes: a tenth of a
 * second's worth, so that a client held at its rate is woken ten times a
 * second, not for each byte. */
static size_t resume_want(uint32_t rate, uint32_t burst)
{
    size_t want = rate / 10 + 1;
    return want < burst ? want : burst;
}

uint32_t sess_in_rate(const sess_t *s)
{
    const config_t *c = &s->srv->cfg;
    return inb_rate(c->max_keys_per_second, c->max_input_bytes_per_second);
}

static size_t in_room(sess_t *s)
{
    uint32_t rate = sess_in_rate(s);
    return inb_room(&s->in, rate, inb_burst(rate), sess_now(s));
}

static void on_in_timer(uv_timer_t *t);

/* How often a paused session looks again while an upgrade runs. */
#define UPGRADE_RECHECK_MS 100

/* What a paused session waits for: resume_want at its rate. */
static size_t in_want(const sess_t *s)
{
    uint32_t rate = sess_in_rate(s);
    return resume_want(rate, inb_burst(rate));
}

/* Waits for the budget to hold in_want again (its room was just asked:
 * in_room). */
static void in_wait(sess_t *s)
{
    uint64_t ms = inb_wait_ms(&s->in, sess_in_rate(s), in_want(s));
    uv_timer_start(&s->in_timer, on_in_timer, ms ? ms : 1, 0);
}

void sess_in_reading(sess_t *s, int on)
{
    if (s->io)
        s->io->pause(s->io_conn, !on);
    else if (on)
        uv_read_start((uv_stream_t *)&s->tcp, sess_on_alloc, sess_on_read);
    else
        uv_read_stop((uv_stream_t *)&s->tcp);
}

/* The budget is spent: the socket is read no more, so that the kernel's
 * window holds the client back rather than our CPU decoding its bytes. */
static void in_pause(sess_t *s)
{
    s->in_paused = 1;
    s->srv->stats.in_pauses++; /* /metrics */
    sess_in_reading(s, 0);
    in_wait(s);
}

/* telnet's line mode began or ended (session_render.c says it while it
 * lasts): a frame now, not at the next key; and out of it a repaint, as
 * the client's own echo and its telnet> lines are on the screen (a QA). */
static void line_mode_changed(sess_t *s)
{
    s->line_mode = s->tc.echo_refused;
    if (s->state == S_NEGOTIATING || s->state == S_ADMITTING)
        return; /* (the first frame comes anyway) */
    if (!s->line_mode) {
        term_state_reset(&s->term);
        sess_repaint(s);
    }
    sess_owe_frame(s);
}

/* 1 if a paused session's client has closed or reset its connection:
 * asked of the kernel, as nothing of it is read. (An SSH connection's
 * module watches for it itself: ssh_play.c.) */
static int client_left(sess_t *s)
{
    uv_os_fd_t fd;
    return sess_own_fd(s, &fd) && tcp_peer_closed(fd);
}

static void on_in_timer(uv_timer_t *t)
{
    sess_t *s = t->data;
    /* closing reads no more; a moved session's socket is the new
     * process's */
    if (!s->in_paused || sess_closing(s) || s->handles_closing || s->moved)
        return;
    if (s->srv->upgrading) {
        /* an upgrade moves what was read, so nothing is read meanwhile;
         * if it fails the session plays on and must read again */
        uv_timer_start(&s->in_timer, on_in_timer, UPGRADE_RECHECK_MS, 0);
        return;
    }
    if (client_left(s)) {
        /* read, its FIN or RST would end it only after the backlog
         * before it, at the budget's rate (minutes of a flood): that
         * backlog is worth nothing */
        sess_close(s, "client closed", 0, NULL);
        return;
    }
    if (in_room(s) < in_want(s)) {
        in_wait(s); /* (max_keys_per_second lowered by a reload) */
        return;
    }
    s->in_paused = 0;
    sess_in_reading(s, 1);
}

void sess_on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    sess_t *s = h->data;
    (void)suggested;
    warm_session(s);
    /* One read is handled completely before the next alloc: one buffer
     * serves every session of the loop. No more is read than the budget
     * holds (at least a byte: an empty buffer is an error to libuv; a
     * spent budget has stopped the reading already). */
    size_t room = in_room(s);
    size_t len = sizeof s->srv->readbuf;
    if (room < len)
        len = room ? room : 1;
    *b = uv_buf_init(s->srv->readbuf, (unsigned)len);
}

void sess_on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *b)
{
    sess_t *s = stream->data;
    if (n < 0) {
        sess_close(s, n == UV_EOF ? "client closed" : uv_strerror((int)n), 0,
                   NULL);
        return;
    }
    if (n > 0) {
        /* the state's own lines (a game's), overlapping the decoding */
        const sess_state_ops_t *ops = sess_state_ops(s->state);
        if (ops->warm)
            ops->warm(s);
        sess_spend_input(s, (size_t)n); /* (an io module's: io_read) */
        sess_on_bytes(s, b->base, (size_t)n);
    }
}

void sess_spend_input(sess_t *s, size_t len)
{
    if (len == 0 || sess_closing(s))
        return;
    /* An io module's bytes come without a read buffer cut to the room
     * (sess_on_alloc, which brings the bucket up to now first): the
     * refill since its last look goes in before the spend, or a spend
     * after a quiet spell would be forgiven by the refill that follows
     * (capped at the burst, above the spend). */
    if (s->io)
        (void)in_room(s);
    inb_spend(&s->in, len);
    s->srv->stats.bytes_in += len; /* /metrics */
    /* (the room asked again only when it may be gone: a refill adds) */
    if (!s->in_paused && inb_low(&s->in) && in_room(s) == 0)
        in_pause(s); /* these are taken; the next wait */
}

void sess_on_bytes(sess_t *s, const char *p, size_t len)
{
    if (len == 0 || sess_closing(s))
        return;
    if (s->proxy) {
        long used = sess_read_proxy_header(s, p, len);
        if (used < 0)
            return;
        p += used;
        len -= (size_t)used;
        if (len == 0)
            return;
    } else if (s->check_first_read) {
        s->check_first_read = 0;
        if (proxy_looks_like_header(p, len)) {
            if (refusal_count(REFUSE_PROXY))
                log_info("refused %s: a PROXY header from an address not "
                         "in proxy_trusted", s->addr);
            sess_close(s, "untrusted PROXY header", 0, NULL);
            return;
        }
    }
    if (s->tr->feed(s->conn, p, len) != 0) {
        sess_close(s, s->tr->error(s->conn), 0, NULL);
        return;
    }
    if (s->tc.echo_refused != s->line_mode)
        line_mode_changed(s);
    sess_start_lobby_if_negotiated(s);
    if (keydec_pending(&s->keys))
        arm_esc(s);
    else if (s->esc_armed) {
        s->esc_armed = 0;
        uv_timer_stop(&s->esc_timer);
    }
}

void sess_keep_waited_key(sess_t *s, int key)
{
    if (s->nwait_keys == SESS_WAIT_KEYS)
        return;
    if (s->nwait_keys == 0)
        s->srv->wait_keys_held++;
    s->wait_keys[s->nwait_keys++] = key;
}

/* No key kept: the phase of a loop with none held reads nothing of it. */
void sess_drop_waited_keys(sess_t *s)
{
    if (s->nwait_keys)
        s->srv->wait_keys_held--;
    s->nwait_keys = 0;
}

/* 1 while kept keys may be played: the lobby on a page that takes keys,
 * not a prompt (a line typed there could be a password), and no new word
 * that something failed (the player reads it first). */
static int waited_keys_playable(const sess_t *s)
{
    const lobby_t *l = &s->lobby;
    return s->state == S_LOBBY && !sess_closing(s) && !lobby_typing(l) &&
           !(l->note[0] && l->note_kind == LOBBY_NOTE_BAD);
}

void sess_play_waited_keys(sess_t *s)
{
    int keys[SESS_WAIT_KEYS], n = s->nwait_keys;
    if (n == 0 || (s->state == S_LOBBY && s->lobby.page == LOBBY_BUSY))
        return;
    memcpy(keys, s->wait_keys, (size_t)n * sizeof *keys);
    sess_drop_waited_keys(s);
    /* A key that starts another wait: the lobby keeps the rest itself
     * (session_lobby.c's lobby_key_in), as keys typed then are. */
    for (int i = 0; i < n && waited_keys_playable(s); i++) {
        if (lobby_key_is_weighty(&s->lobby, keys[i]))
            break; /* a quit or a logout typed in impatience: dropped */
        dispatch_key(s, keys[i]);
    }
    sess_owe_frame(s);
}

void sess_feed_held(sess_t *s, const void *bytes, size_t n)
{
    if (n == 0 || sess_closing(s))
        return;
    keydec_feed(&s->keys, bytes, n, on_key, s);
    if (keydec_pending(&s->keys))
        arm_esc(s);
}
