/* session_saved.c - an account's saved game in the lobby (session_saved.h):
 * the store's lookup and its answer, the rebuild and its answer, and what
 * the player is told when either fails. The game is kept through every
 * failure (a new game's beginning would end it for good): p asks again. */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "rebuild.h"
#include "session_saved.h"
#include "store.h"

/* Plays on a game rebuilt from its keys (a takeover) or held since the
 * login. */
void sess_saved_play_on(sess_t *s, play_arg_t *a)
{
    s->progress_known = 1; /* the game here is the account's */
    sess_goto(s, S_PLAYING, a);
    owned_game_free(&a->g); /* only if the state did not take it */
    free(a->watchers);
}

/* The account's saved game cannot be loaded now (its rebuild failed, or
 * could not be asked for): said, and p asks again. */
static void kept_for_now(sess_t *s)
{
    lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your saved game could not be "
               "loaded right now: it is kept. p tries again.");
}

/* A game rebuilt off the loop for this lobby (rebuild.h): a takeover goes
 * on at once; a saved game is held until p. */
void sess_saved_rebuilt(sess_t *s, smsg_t *m)
{
    st_lobby_t *l = &s->st.lobby;
    msg_rebuilt_t *r = m->rebuilt;
    int takeover = l->rebuild_takeover;
    l->rebuild_job = 0;
    l->looking_up = 0;
    lobby_waited(&s->lobby);
    sess_owe_frame(s);
    if (r->err != RECORD_OK) {
        l->play_typed = 0; /* what follows is said first */
        log_error("%s id=%llu: the game does not rebuild: %s",
                  takeover ? "takeover" : "resume", (unsigned long long)s->id,
                  record_strerror(r->err));
        if (takeover) {
            /* Its watchers were moved here: send them back. */
            for (int i = 0; i < r->src->nwatchers; i++)
                sess_post(s, MSG_WATCH_END, r->src->watchers[i], 0, NULL,
                          "The game you watched has ended.");
            sess_saved_load(s); /* the store's copy, then */
        } else if (r->err == RECORD_ENOMEM) {
            /* Kept, and p asks for it again: the store's game stays
             * unknown here (sess_t.progress_known). */
            kept_for_now(s);
        } else {
            /* A damaged or drifted record is still the player's game (a
             * host may mend it), which a new game's beginning would end
             * for good: kept too, unless the player says to end it. */
            lobby_saved_broken(&s->lobby);
        }
        return;
    }
    owned_game_t g = { r->game, r->rec, r->src->started };
    r->game = NULL;
    memset(&r->rec, 0, sizeof r->rec); /* moved */
    if (!takeover) {
        l->held = g;
        lobby_offer_resume(&s->lobby, g.game->depth, (int)g.game->turn,
                           l->saved);
        sess_lobby_play_typed(s); /* p pressed during the lookup */
        return;
    }
    play_arg_t a;
    memset(&a, 0, sizeof a);
    a.g = g;
    /* the game goes on as the login it was handed from (same host, or
     * the process before an upgrade): the store has it under that claim */
    if (r->src->claim > s->claim) {
        s->claim = r->src->claim;
        dir_set_claim(s->srv->dir, s->id, s->claim); /* cluster_single.c */
    }
    a.progress_begun = r->src->progress_begun;
    a.progress_sent = r->src->progress_sent;
    a.watchers = r->src->watchers; /* moved */
    a.nwatchers = r->src->nwatchers;
    r->src->watchers = NULL;
    r->src->nwatchers = 0;
    a.resumed = 1;
    a.rewatch = r->src->rewatch;
    sess_saved_play_on(s, &a);
}

/* Rebuilds src off the loop for this lobby; "One moment..." meanwhile.
 * Returns 0, or -1 (refused, said on the lobby: src freed). */
int sess_saved_rebuild(sess_t *s, msg_game_t *src, int takeover)
{
    st_lobby_t *l = &s->st.lobby;
    l->rebuild_job = ++s->jobs;
    l->rebuild_takeover = (uint8_t)takeover;
    int rc = sess_rebuild(s, l->rebuild_job, src, 1);
    if (rc != 0) {
        l->rebuild_job = 0;
        log_error("%s id=%llu: no rebuild: %s", takeover ? "takeover" :
                  "resume", (unsigned long long)s->id, rebuild_refusal(rc));
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", rebuild_refusal(rc));
        return -1; /* (the store keeps it: p asks for it again) */
    }
    lobby_wait(&s->lobby);
    return 0;
}

static void on_progress(void *ctx, const store_progress_t *pr);

/* The account's game in progress could not be looked up: said, and p
 * asks again (sess_t.progress_known). */
static void lookup_failed(sess_t *s, const char *why)
{
    s->play_if_none = 0;
    s->st.lobby.looking_up = s->st.lobby.play_typed = 0;
    log_info("progress id=%llu: not looked up (%s); p asks again",
             (unsigned long long)s->id, why);
    if (s->registered)
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "The server could not begin "
                   "your game now. p tries again.");
    else if (s->st.lobby.saved) /* this session saved it (S) */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your saved game could not be "
                   "looked up: it is kept. p looks again.");
    else
        /* (said at every login the lookup fails, with or without a
         * saved game: while the store's writes fail, each login's claim
         * fails too) */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your saved game, if any, is "
                   "kept but could not be looked up. p looks again.");
    sess_owe_frame(s);
}

/* After a login (and any takeover): ask the store for a game to continue.
 * Until it answers, no game begins (p waits, then asks again): a new
 * game's beginning ends the saved one. A store that does not answer
 * within store_wait_ms is said as for any lobby request. */
void sess_saved_load(sess_t *s)
{
    s->progress_known = 0;
    if (store_progress_load(s->srv->store, s->lobby.account_id, on_progress,
                            s) != 0) {
        lookup_failed(s, "the store is busy");
        return;
    }
    lobby_wait(&s->lobby);
    sess_lobby_wait_start(s);
}

/* A load's answer: its claim is the account's latest now, and whatever
 * this session writes after is written as it, or would be refused. */
static void on_claim(sess_t *s, const store_progress_t *pr)
{
    if (pr->account_id == s->lobby.account_id && pr->claim > s->claim) {
        s->claim = pr->claim;
        dir_set_claim(s->srv->dir, s->id, s->claim); /* cluster_single.c */
    }
}

/* The answer to store_progress_load after a login: a game to continue is
 * rebuilt now and held until p. */
static void on_progress(void *ctx, const store_progress_t *pr)
{
    sess_t *s = ctx;
    on_claim(s, pr);
    if (s->state != S_LOBBY)
        return;
    st_lobby_t *l = &s->st.lobby;
    l->looking_up = 0;
    lobby_waited(&s->lobby);
    sess_owe_frame(s);
    if (l->held.game || pr->account_id != s->lobby.account_id)
        return;
    if (pr->status == STORE_ERROR) {
        lookup_failed(s, "the store failed");
        return;
    }
    int play = s->play_if_none;
    s->play_if_none = 0;
    /* answered: from now on the account has, or had, a game of its own,
     * and a failed lookup is said as one of a saved game */
    s->registered = 0;
    /* none, or one this core cannot go on (ended below): p begins a game;
     * a game to rebuild is held (or, refused for now, asked for again) */
    s->progress_known = pr->status != STORE_OK;
    if (pr->status == STORE_NOT_FOUND && play) {
        sess_goto(s, S_PLAYING, NULL); /* p was pressed for this */
        return;
    }
    if (pr->status == STORE_STALE) {
        l->play_typed = 0; /* the note first: p begins a game then */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your game in progress was played "
                   "by another version of the server and cannot go on.");
        store_progress_end(s->srv->store, pr->account_id, s->claim, pr->seed,
                           pr->started);
    } else if (pr->status == STORE_OK) {
        buf_t keys = { (char *)pr->keys, pr->len, pr->len, pr->len };
        buf_t none = { NULL, 0, 0, 0 };
        buf_t checks = { (char *)pr->snap_checks, pr->snap_checks_len,
                         pr->snap_checks_len, pr->snap_checks_len };
        int snap = pr->snap && pr->snap_version == GAME_VERSION;
        if (pr->snap && !snap)
            log_error("resume id=%llu: the snapshot at key %u is of core "
                      "version %u, not %u: replayed from the start",
                      (unsigned long long)s->id, (unsigned)pr->snap_keys,
                      (unsigned)pr->snap_version, (unsigned)GAME_VERSION);
        /* with the snapshot (and the checks up to it), only the tail is
         * replayed (rebuild.h) */
        msg_game_t *src = msg_game_new(pr->seed, &pr->opt, pr->started, &keys,
                                       snap ? &checks : &none);
        if (src && snap && (src->snap = game_clone(pr->snap))) {
            src->snap_keys = pr->snap_keys;
            src->snap_pos = pr->snap_pos;
        }
        if (!src) {
            log_error("resume id=%llu: out of memory", (unsigned long long)s->id);
            kept_for_now(s);
        } else {
            /* (a refusal is said on the lobby; the rebuild's wait is the
             * lookup's still, for a p pressed meanwhile) */
            l->looking_up = sess_saved_rebuild(s, src, 0) == 0;
        }
    }
    if (!l->looking_up) /* no rebuild to wait for: the p is answered */
        l->play_typed = 0;
}

int sess_lobby_play_summary(sess_t *s, msg_game_t *src)
{
    if (s->state != S_LOBBY) {
        msg_game_free(src);
        return -1;
    }
    return sess_saved_rebuild(s, src, 1);
}

void sess_lobby_load_progress(sess_t *s)
{
    if (s->state == S_LOBBY && s->lobby.account_id > 0)
        sess_saved_load(s);
}

