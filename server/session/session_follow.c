/* session_follow.c - a player's watchers between two games
 * (session.h, "watchers between games"). */
#include "session.h"

#include <stdlib.h>

void follow_keep(sess_t *s, uint64_t *ids, int n)
{
    if (n <= 0) {
        free(ids);
        return;
    }
    /* (A list kept already cannot be: the lobby comes between two games.
     * Should it, the older one is told and dropped.) */
    follow_end(s, "The player has left.");
    s->followers = ids;
    s->nfollowers = n;
    for (int i = 0; i < n; i++)
        sess_post(s, MSG_WATCH_END, ids[i], MSG_WATCH_LOBBY, NULL,
                  "%s is in the lobby: waiting for them to play.",
                  sess_player_name(s));
}

int follow_take(sess_t *s, uint64_t **ids)
{
    int n = s->nfollowers;
    *ids = s->followers;
    s->followers = NULL;
    s->nfollowers = 0;
    return n;
}

void follow_forget(sess_t *s, uint64_t id)
{
    for (int i = 0; i < s->nfollowers; i++)
        if (s->followers[i] == id) {
            s->followers[i] = s->followers[--s->nfollowers];
            return;
        }
}

void follow_end(sess_t *s, const char *why)
{
    for (int i = 0; i < s->nfollowers; i++)
        sess_post(s, MSG_WATCH_END, s->followers[i], 0, NULL, "%s", why);
    free(s->followers);
    s->followers = NULL;
    s->nfollowers = 0;
}
