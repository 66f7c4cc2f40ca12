/* session_names.c - the lobby's questions to the store about names
 * (lobby.h, store_name_taken): whether a guest's name is an account's,
 * asked through the lobby's wait (the game begins only once it is
 * answered), and whether a name being registered is taken, asked without
 * one (the player goes on to the password, every key taken meanwhile),
 * so that a name taken is told before its password is typed; either is
 * refused too while a guest on this host plays under it. The
 * registration's end checks the name again all the same: it may be taken
 * between the two. */
#include <strings.h>

#include "directory.h"
#include "guest_grace.h"
#include "log.h"
#include "session.h"
#include "store.h"

typedef struct kept_name {
    const char *name;
    int found;
} kept_name_t;

static void kept_is(void *ctx, const char *name, unsigned turn,
                    uint64_t left_ms)
{
    kept_name_t *k = ctx;
    (void)turn;
    (void)left_ms;
    if (strcasecmp(name, k->name) == 0)
        k->found = 1;
}

/* (guest_grace's: it would come back beside the new one, two rows alike
 * again) */
int sess_name_in_play(sess_t *s, const char *name)
{
    if (dir_name_playing(s->srv->dir, name, s->id))
        return 1;
    kept_name_t k = { name, 0 };
    grace_list(s->srv->grace, sess_now(s), kept_is, &k);
    return k.found;
}

/* A name free of accounts may still be another guest's in play here:
 * two players of one name would be two rows alike in the list of games
 * to watch. (Asked after the store's answer, so two guests who give one
 * name at the same moment can both pass: a race of a moment, left.) */
static void on_guest_checked(void *ctx, const char *name, int status,
                             int taken)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return; /* the lobby waits for this one answer (LOBBY_BUSY) */
    taken = taken ? LOBBY_NAME_ACCOUNT : LOBBY_NAME_FREE;
    if (status == STORE_OK && !taken && sess_name_in_play(s, name))
        taken = LOBBY_NAME_PLAYING;
    if (lobby_guest_checked(&s->lobby, status, taken) == LOBBY_DO_PLAY)
        sess_goto(s, S_PLAYING, NULL);
    sess_owe_frame(s);
}

static void check_name(sess_t *s);

/* The early answer for a name being registered: the lobby drops it if
 * the player has moved on, and may want the name typed since asked
 * about (its question was held while this one was out). The lobby keeps
 * its question across states, so it is told in any state (it then has
 * no registration to change). */
static void on_name_checked(void *ctx, const char *name, int status,
                            int taken)
{
    sess_t *s = ctx;
    log_debug("name id=%llu: %s is %s", (unsigned long long)s->id, name,
              status != STORE_OK ? "not known (the store failed)"
              : taken ? "taken" : "free");
    /* A guest's game under the name now: an account of it would put the
     * guest's game in the hall of fame under the account's name. */
    if (status == STORE_OK && !taken && sess_name_in_play(s, name))
        taken = LOBBY_NAME_PLAYING;
    int action = lobby_name_checked(&s->lobby, name, status, taken);
    if (s->state != S_LOBBY)
        return;
    sess_owe_frame(s);
    if (action == LOBBY_DO_CHECK_NAME)
        check_name(s);
}

/* A question the store refuses (too many owed) is no answer: the lobby
 * is told so, and the registration's end checks the name. */
static void check_name(sess_t *s)
{
    lobby_t *l = &s->lobby;
    if (store_name_taken(s->srv->store, l->name, on_name_checked, s) != 0)
        lobby_name_checked(l, l->name, STORE_ERROR, 0);
}

void sess_names_act(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    if (action == LOBBY_DO_CHECK_NAME) {
        check_name(s);
        return;
    }
    /* LOBBY_DO_CHECK_GUEST */
    if (store_name_taken(s->srv->store, l->name, on_guest_checked, s) != 0)
        lobby_guest_checked(l, STORE_ERROR, LOBBY_NAME_FREE);
}
