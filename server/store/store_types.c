/* store_types.c - the store's shared rules: how a game ended, whether it
 * is ranked, the names of statuses (store_types.h). */
#include "store_types.h"

#include <string.h>

int store_game_ending(const store_game_t *g)
{
    if (g->ending > STORE_END_UNSET && g->ending <= STORE_END_DISCONNECT)
        return g->ending;
    if (strcmp(g->cause, "quit") == 0)
        return STORE_END_QUIT;
    if (strncmp(g->cause, "disconnected", 12) == 0)
        return STORE_END_DISCONNECT;
    return STORE_END_DEATH;
}

int store_game_ranked(const store_game_t *g)
{
    int e = store_game_ending(g);
    return e == STORE_END_DEATH || e == STORE_END_WIN ||
           (e == STORE_END_QUIT && g->turns >= STORE_QUIT_MIN_TURNS);
}

const char *store_status_name(int status)
{
    switch (status) {
    case STORE_OK: return "ok";
    case STORE_BAD_LOGIN: return "bad login";
    case STORE_NAME_TAKEN: return "name taken";
    case STORE_INVALID: return "invalid";
    case STORE_SLOW_DOWN: return "slow down";
    case STORE_ERROR: return "error";
    case STORE_NOT_FOUND: return "not found";
    case STORE_NO_RECORD: return "no record";
    case STORE_STALE: return "another core version";
    case STORE_DUPLICATE: return "duplicate";
    case STORE_FULL: return "full";
    default: return "unknown";
    }
}
