/* session_resize.c - the client's window size: telnet's NAWS, the page's
 * size messages and an SSH window change (relayed by the SSH thread as a
 * size record, ssh_link.c) all come here through the transport's resize
 * callback.
 *
 * A new size costs a full repaint. So that a client flooding sizes costs
 * its own redraws and not everyone's CPU, each session has a budget: the
 * first resizes_per_window sizes of a window of resize_window_ms are drawn
 * at once; later ones in the window only keep the size, frames go on at
 * the size last drawn (keys are still answered), and the window's end
 * draws the last size once, unless it is the size drawn already
 * (docs/telnet.md, "What the server negotiates": NAWS). */
#include "session.h"

#include "session_impl.h"

static void draw_at(sess_t *s, int w, int h)
{
    s->w = w;
    s->h = h;
    sess_owe_frame(s); /* the size differs from shown: a full repaint */
}

/* The window ends with sizes owed: the last one is drawn, and that
 * repaint is the first of a new window, so a steady flood is drawn
 * resizes_per_window times a window, no more. A last size that is the
 * one drawn already (A, B, A) owes nothing: no frame, and no new window
 * begun by it. */
static void on_window_end(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (sess_closing(s) || !s->resize_owed)
        return;
    s->resize_owed = 0;
    if (s->owed_w == s->w && s->owed_h == s->h)
        return;
    s->resize_window_ms = sess_now(s);
    s->resizes = 1;
    draw_at(s, s->owed_w, s->owed_h);
}

void sess_on_tc_resize(void *ctx, int w, int h)
{
    sess_t *s = ctx;
    const config_t *c = &s->srv->cfg;
    uint64_t now = sess_now(s);
    if (sess_closing(s))
        return;
    if (s->state == S_NEGOTIATING || s->state == S_ADMITTING) {
        /* nothing drawn yet: the first frame is at this size, free */
        s->w = w;
        s->h = h;
        return;
    }
    if (s->resize_owed) { /* the window's end draws the latest */
        s->owed_w = w;
        s->owed_h = h;
        return;
    }
    if (w == s->w && h == s->h)
        return; /* the size drawn already: nothing to repaint */
    if (now - s->resize_window_ms >= (uint64_t)c->resize_window_ms) {
        s->resize_window_ms = now;
        s->resizes = 0;
    }
    if (s->resizes < (uint32_t)c->resizes_per_window) {
        s->resizes++;
        draw_at(s, w, h);
        return;
    }
    s->resize_owed = 1;
    s->owed_w = w;
    s->owed_h = h;
    uv_timer_start(&s->resize_timer, on_window_end,
                   s->resize_window_ms + (uint64_t)c->resize_window_ms - now,
                   0);
}
