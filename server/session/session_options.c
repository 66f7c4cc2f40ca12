/* session_options.c - a session's display: what its client can show
 * (settled when the telnet negotiation ends), the player's own choice
 * (the options screen, options.h; an account's kept in the store), and
 * the screen itself, opened over whatever the session shows. */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "options.h"
#include "session.h"
#include "session_states.h"
#include "store.h"

/* The display in use changed: everything is drawn again with it. */
static void apply(sess_t *s)
{
    display_t d = display_chosen(s->detected, s->display_choice);
    if (d.glyphs == s->display.glyphs && d.colours == s->display.colours)
        return;
    s->display = d;
    sess_display_changed(s);
}

void sess_display_settle(sess_t *s)
{
    if (s->web)
        s->detected = (display_t){ GLYPHS_UTF8, COLOURS_TRUE }; /* xterm.js */
    else
        s->detected = tconn_settle(&s->tc);
    char what[48];
    log_debug("session %llu: the client can show %s (terminal '%s'%s)",
              (unsigned long long)s->id,
              display_describe(s->detected, what, sizeof what),
              s->web ? "browser" : s->tc.ttype,
              s->tc.env_done ? ", NEW-ENVIRON" : "");
    apply(s);
}

void sess_set_display_choice(sess_t *s, int choice)
{
    s->display_choice = (uint8_t)display_choice_clean(choice);
    apply(s);
}

/* The store kept (or not) an account's choice. */
static void on_display_kept(void *ctx, int status)
{
    sess_t *s = ctx;
    if (status != STORE_OK && s->options.open) {
        s->options.not_kept = 1;
        sess_owe_frame(s);
    }
}

void sess_keep_display_choice(sess_t *s)
{
    if (s->lobby.account_id <= 0)
        return;
    if (store_set_display(s->srv->store, s->lobby.account_id,
                          s->display_choice, on_display_kept, s) != 0)
        on_display_kept(s, STORE_ERROR);
}

/* Whether key opens the screen here: the state says (its
 * opens_options). */
static int opens(const sess_t *s, int key)
{
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    return ops->opens_options && ops->opens_options(s, key);
}

int sess_options_key(sess_t *s, int key)
{
    if (!s->options.open) {
        if (!opens(s, key))
            return 0;
        options_open(&s->options, s->display_choice);
        sess_tell_state(s); /* the page's bar for the screen's keys */
        return 1;
    }
    int before = s->display_choice;
    switch (options_key(&s->options, key)) {
    case OPTIONS_CHANGED:
        s->options.not_kept = 0;
        sess_set_display_choice(s, s->options.choice);
        break;
    case OPTIONS_CLOSED:
        sess_repaint(s); /* what was under the screen, whole */
        sess_tell_state(s); /* the bar of what is under it */
        break;
    default:
        break;
    }
    if (s->display_choice != before)
        sess_keep_display_choice(s);
    return 1;
}

int sess_options_draw(sess_t *s, screen_t *next)
{
    if (!s->options.open)
        return 0;
    options_info_t in = { s->detected, s->web ? "browser" : s->tc.ttype,
                          s->lobby.account_id > 0 };
    options_draw(&s->options, &in, next);
    return 1;
}

const sess_overlay_ops_t sess_options_overlay = {
    .name = "options",
    .key = sess_options_key,
    .draw = sess_options_draw,
};
