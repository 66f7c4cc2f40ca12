/* msg.c - messages between sessions (msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_io.h"
#include "record.h"

smsg_t *msg_newv(int type, uint64_t from, uint64_t to, const char *fmt,
                 va_list ap)
{
    smsg_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->type = (uint16_t)type;
    m->from = from;
    m->to = to;
    if (fmt)
        vsnprintf(m->text, sizeof m->text, fmt, ap);
    return m;
}

smsg_t *msg_new(int type, uint64_t from, uint64_t to, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smsg_t *m = msg_newv(type, from, to, fmt, ap);
    va_end(ap);
    return m;
}

msg_game_t *msg_game_new(uint64_t seed, const game_options_t *opt,
                         int64_t started, const buf_t *keys,
                         const buf_t *checks)
{
    msg_game_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->seed = seed;
    g->opt = *opt;
    g->started = started;
    /* The recorder's caps bound both copies. */
    buf_init(&g->keys, RECORD_ENCODED_MAX);
    buf_init(&g->checks, RECORD_ENCODED_MAX);
    if (buf_append(&g->keys, keys->data, keys->len) != 0 ||
        buf_append(&g->checks, checks->data, checks->len) != 0) {
        msg_game_free(g);
        return NULL;
    }
    return g;
}

void msg_game_free(msg_game_t *g)
{
    if (!g)
        return;
    buf_free(&g->keys);
    buf_free(&g->checks);
    free(g->watchers);
    game_free(g->snap);
    free(g);
}

void msg_rebuilt_free(msg_rebuilt_t *r)
{
    if (!r)
        return;
    game_free(r->game);
    record_free(&r->rec);
    msg_game_free(r->src);
    free(r);
}

void msg_free(smsg_t *m)
{
    if (!m)
        return;
    msg_game_free(m->game);
    msg_rebuilt_free(m->rebuilt);
    if (m->accept) {
        free(m->accept->blob);
        if (m->accept->conn) /* an SSH player never taken by a session */
            m->accept->io->drop(m->accept->conn);
    }
    free(m->accept);
    free(m->cfg);
    free(m->who);
    free(m);
}

smsg_t *msg_bounce(const smsg_t *m)
{
    switch (m->type) {
    case MSG_WATCH_JOIN:
        return msg_new(MSG_WATCH_REFUSED, m->to, m->from, "That game is over.");
    case MSG_TAKEOVER:
        return msg_new(MSG_TAKEOVER_DONE, m->to, m->from, NULL);
    case MSG_WATCH_START:
        /* a watcher gone while it waited (a page's drop, the lobby): it
         * leaves, so that the player stops counting and telling it */
        return msg_new(MSG_WATCH_LEAVE, m->to, m->from, NULL);
    default:
        return NULL;
    }
}

void msgq_push(msgq_t *q, smsg_t *m)
{
    m->next = NULL;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
    q->len++;
}

smsg_t *msgq_pop(msgq_t *q)
{
    smsg_t *m = q->head;
    if (!m)
        return NULL;
    q->head = m->next;
    if (!q->head)
        q->tail = NULL;
    q->len--;
    m->next = NULL;
    return m;
}

void msgq_free(msgq_t *q)
{
    smsg_t *m;
    while ((m = msgq_pop(q)))
        msg_free(m);
}

const char *msg_type_name(int type)
{
    switch (type) {
    case MSG_WATCH_JOIN: return "watch-join";
    case MSG_WATCH_START: return "watch-start";
    case MSG_WATCH_REFUSED: return "watch-refused";
    case MSG_WATCH_KEY: return "watch-key";
    case MSG_WATCH_LEAVE: return "watch-leave";
    case MSG_WATCH_END: return "watch-end";
    case MSG_WATCH_MOVED: return "watch-moved";
    case MSG_TAKEOVER: return "takeover";
    case MSG_TAKEOVER_DONE: return "takeover-done";
    case MSG_REBUILT: return "rebuilt";
    case MSG_CONNECTION: return "connection";
    case MSG_SHUTDOWN: return "shutdown";
    case MSG_CTL_WHO: return "ctl-who";
    case MSG_CTL_SAY: return "ctl-say";
    case MSG_CTL_KICK: return "ctl-kick";
    case MSG_CTL_RELOAD: return "ctl-reload";
    case MSG_CTL_STATS: return "ctl-stats";
    case MSG_CTL_LINE: return "ctl-line";
    case MSG_CTL_END: return "ctl-end";
    case MSG_UPGRADE: return "upgrade";
    case MSG_UPGRADE_SETTLED: return "upgrade-settled";
    case MSG_UPGRADE_READY: return "upgrade-ready";
    default: return "?";
    }
}
