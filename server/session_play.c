/* session_play.c - what a session's bytes mean: telnet negotiation, keys,
 * the game, and the screen sent back. */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "session.h"
#include "view.h"

/* The marker that ends every screen update sent to a telnet client: invisible
 * to terminals, and lets a client (our tests, the load generator) know that a
 * key's whole answer has arrived. */
static void send_frame_marker(sess_t *s)
{
    if (s->telnet_peer)
        telnet_iac(s->telnet, TELNET_NOP);
}

void sess_render(sess_t *s)
{
    srv_t *srv = s->srv;
    if (s->state != S_PLAYING && s->state != S_LOBBY &&
        s->state != S_WATCHING && s->state != S_REPLAY)
        return;
    if (s->queued > (size_t)srv->cfg.output_highwater) {
        /* Skip this frame; the next diff starts from what was last sent, so
         * nothing is lost. on_write catches up when the queue drains. */
        s->dirty = 1;
        return;
    }
    s->need_render = 0;
    s->dirty = 0;
    screen_t *next = &srv->next;
    /* view_draw clears the grid itself: resize (which clears too) only
     * when the size changes. */
    if ((next->w != s->w || next->h != s->h) &&
        screen_resize(next, s->w, s->h) != 0) {
        sess_close(s, "out of memory", 0, NULL);
        return;
    }
    if (s->state == S_LOBBY) {
        sess_lobby_draw(s, next);
    } else {
        view_draw(s->game, next);
        sess_watch_overlay(s, next);
        sess_replay_overlay(s, next);
    }
    if (s->notice[0] && view_fits(s->w, s->h)) {
        /* A host line (tips, idle warning) over the oldest log line. */
        for (int x = 0; x < s->w; x++)
            screen_put(next, x, MAP_H, ' ', COL_DEFAULT, COL_DEFAULT, 0);
        screen_puts(next, 0, MAP_H, s->notice, COL_BYELLOW, COL_DEFAULT,
                    ATTR_BOLD);
    }
    buf_reset(&srv->enc);
    int rc;
    if (s->shown.w != next->w || s->shown.h != next->h)
        rc = screen_paint(next, &s->term, &srv->enc);
    else
        rc = screen_diff(&s->shown, next, &s->term, &srv->enc);
    if (rc != 0 || screen_copy(&s->shown, next) != 0) {
        sess_close(s, "frame too large", 0, NULL);
        return;
    }
    sess_send(s, srv->enc.data, srv->enc.len);
    send_frame_marker(s);
}

void sess_overlay_line(screen_t *next, const char *text, uint8_t bg)
{
    int n = (int)strlen(text);
    screen_puts(next, next->w - n > 0 ? next->w - n : 0, 0, text, COL_BLACK,
                bg, 0);
}

void sess_redraw(sess_t *s)
{
    s->need_render = 1;
    sess_render(s);
    sess_flush(s);
}

void sess_start_play(sess_t *s)
{
    if (s->state != S_NEGOTIATING)
        return;
    uv_timer_stop(&s->timer);
    sess_lobby_enter(s);
    if (!s->telnet_peer)
        snprintf(s->notice, sizeof s->notice,
                 "Tip: for one key at a time use: stty raw -echo; nc HOST PORT; stty sane");
    log_debug("session %llu plays at %dx%d, terminal '%s'",
              (unsigned long long)s->id, s->w, s->h, s->ttype);
    /* Alternate screen, hidden cursor, normal cursor keys, numeric keypad. */
    static const char init[] = "\x1b[?1049h\x1b[?25l\x1b[?1l\x1b>";
    sess_send(s, init, sizeof init - 1);
    term_state_reset(&s->term);
    screen_free(&s->shown); /* 0x0: the next render paints everything */
    sess_render(s);
}

static void check_negotiated(sess_t *s)
{
    if (s->state == S_NEGOTIATING && s->got_echo && s->got_naws &&
        s->ttype_done)
        sess_start_play(s);
}

/* Keys per second per player: a token bucket, so that a flood costs the
 * server no more than a fast typist. */
static int take_key_token(sess_t *s)
{
    uint64_t now = uv_now(s->srv->loop);
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

static int is_quit_key(int key)
{
    return key == 'Q' || key == 'q' || key == 'y' || key == 'Y' ||
           key == 'n' || key == 'N' || key == KEY_CTRL_C || key == KEY_ESC;
}

/* xterm mouse reporting (1000: clicks; 1006: SGR coordinates, any size),
 * on while the game is targeting and only then. session.c's graceful close
 * turns it off too. */
void sess_set_mouse(sess_t *s, int was_on, int on)
{
    static const char mouse_on[] = "\x1b[?1000h\x1b[?1006h";
    static const char mouse_off[] = "\x1b[?1000l\x1b[?1006l";
    if (on && !was_on)
        sess_send(s, mouse_on, sizeof mouse_on - 1);
    else if (was_on && !on)
        sess_send(s, mouse_off, sizeof mouse_off - 1);
}

/* The game key for a mouse report, or 0 for none: while targeting, a left
 * press on a map tile is a click key there (the map is drawn from the top
 * left cell at every size), a right press cancels as Esc does (002). */
static int mouse_key(const sess_t *s, const keyev_t *ev)
{
    if (s->state != S_PLAYING || !game_targeting(s->game) || ev->release ||
        (ev->button & (32 | 64)))
        return 0;
    if ((ev->button & 3) == 2)
        return KEY_ESC;
    if ((ev->button & 3) != 0 || ev->x >= MAP_W || ev->y >= MAP_H)
        return 0;
    int key = game_click_key(ev->x, ev->y);
    return key > 0 ? key : 0;
}

static void on_key(void *ctx, const keyev_t *ev)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY && s->state != S_PLAYING &&
        s->state != S_WATCHING && s->state != S_REPLAY)
        return;
    int key = ev->key;
    if (key == KEY_CPR)
        return; /* nothing asks for cursor reports */
    if (key == KEY_MOUSE && (key = mouse_key(s, ev)) == 0)
        return;
    if (!take_key_token(s))
        return;
    s->last_input_ms = uv_now(s->srv->loop);
    s->warned_idle = 0;
    s->notice[0] = '\0';
    s->need_render = 1;
    /* Too small to see anything: only let the player leave. */
    if (!view_fits(s->w, s->h) && !is_quit_key(key))
        return;
    int targeting = s->state == S_PLAYING && game_targeting(s->game);
    switch (s->state) {
    case S_LOBBY: sess_lobby_key(s, key); break;
    case S_WATCHING: sess_watch_key(s, key); break;
    case S_REPLAY: sess_replay_key(s, key); break;
    default: sess_game_key(s, key); break;
    }
    /* Mouse reporting follows aiming (a key may also end the game). */
    if (s->state != S_CLOSING)
        sess_set_mouse(s, targeting, s->state == S_PLAYING && game_targeting(s->game));
}

void sess_esc_timeout(sess_t *s)
{
    if (s->state == S_CLOSING)
        return;
    keydec_timeout(&s->keys, on_key, s);
    if (s->need_render)
        sess_render(s);
}

static void on_naws(sess_t *s, const unsigned char *b, size_t n)
{
    if (n != 4)
        return; /* malformed: ignore, as if never sent */
    int w = b[0] << 8 | b[1], h = b[2] << 8 | b[3];
    s->got_naws = 1;
    if (w == 0 || h == 0)
        return; /* 0 means unknown (RFC 1073): keep what we have */
    const config_t *c = &s->srv->cfg;
    if (w > c->max_cols)
        w = c->max_cols;
    if (h > c->max_rows)
        h = c->max_rows;
    if (w == s->w && h == s->h)
        return;
    s->w = w;
    s->h = h;
    s->need_render = 1; /* the size differs from shown: a full repaint */
}

static void on_ttype(sess_t *s, const char *name)
{
    /* Ask again while the answer changes, at most 3 times (RFC 1091: a
     * repeat ends the list). Only the first answer picks the terminal. */
    char clean[sizeof s->ttype];
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < sizeof clean; i++)
        if (name[i] > ' ' && name[i] < 127)
            clean[j++] = name[i];
    clean[j] = '\0';
    int repeat = s->ttype_asks > 0 && strcmp(clean, s->ttype) == 0;
    if (s->ttype_asks == 1 || s->ttype[0] == '\0')
        memcpy(s->ttype, clean, j + 1);
    if (repeat || s->ttype_asks >= 3) {
        s->ttype_done = 1;
        return;
    }
    s->ttype_asks++;
    telnet_ttype_send(s->telnet);
}

void sess_telnet_event(telnet_t *t, telnet_event_t *ev, void *user)
{
    sess_t *s = user;
    srv_t *srv = s->srv;
    (void)t;
    if (ev->type != TELNET_EV_DATA && ev->type != TELNET_EV_SEND)
        s->telnet_peer = 1;
    switch (ev->type) {
    case TELNET_EV_DATA:
        keydec_feed(&s->keys, ev->data.buffer, ev->data.size, on_key, s);
        break;
    case TELNET_EV_SEND:
        /* The buffer lives only during this callback: gather a copy. */
        if (srv->out_owner && srv->out_owner != s)
            sess_flush(srv->out_owner);
        srv->out_owner = s;
        if (buf_append(&srv->out, ev->data.buffer, ev->data.size) != 0) {
            sess_flush(s);
            srv->out_owner = s;
            if (buf_append(&srv->out, ev->data.buffer, ev->data.size) != 0)
                sess_close(s, "output too large", 0, NULL);
        }
        break;
    case TELNET_EV_DO:
    case TELNET_EV_DONT:
        if (ev->neg.telopt == TELNET_TELOPT_ECHO)
            s->got_echo = 1;
        break;
    case TELNET_EV_WILL:
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE && s->ttype_asks == 0) {
            s->ttype_asks = 1;
            telnet_ttype_send(s->telnet);
        }
        break;
    case TELNET_EV_WONT:
        if (ev->neg.telopt == TELNET_TELOPT_NAWS)
            s->got_naws = 1;
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE)
            s->ttype_done = 1;
        break;
    case TELNET_EV_SUBNEGOTIATION:
        if (ev->sub.telopt == TELNET_TELOPT_NAWS)
            on_naws(s, (const unsigned char *)ev->sub.buffer, ev->sub.size);
        break;
    case TELNET_EV_TTYPE:
        if (ev->ttype.cmd == TELNET_TTYPE_IS && ev->ttype.name)
            on_ttype(s, ev->ttype.name);
        break;
    case TELNET_EV_IAC: {
        keyev_t k = { 0, 0, 0, 0, 0 };
        if (ev->iac.cmd == TELNET_EC)
            k.key = KEY_BACKSPACE;
        else if (ev->iac.cmd == TELNET_IP)
            k.key = KEY_CTRL_C;
        if (k.key)
            on_key(s, &k);
        break;
    }
    case TELNET_EV_WARNING:
        /* libtelnet 0.21 passes the rest of an oversized subnegotiation on as
         * DATA, that is as keystrokes: end the session instead. */
        if (ev->error.msg && strstr(ev->error.msg, "subnegotiation buffer size"))
            sess_close(s, "oversized subnegotiation", 0, NULL);
        else
            log_debug("session %llu telnet warning: %s",
                      (unsigned long long)s->id,
                      ev->error.msg ? ev->error.msg : "?");
        break;
    case TELNET_EV_ERROR:
        sess_close(s, "telnet protocol error", 0, NULL);
        break;
    default:
        break;
    }
    check_negotiated(s);
}
