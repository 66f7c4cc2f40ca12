/* session_follow.h - a player's watchers between two games: when the
 * player goes back to the lobby, the watchers of the game that ended wait
 * (their screen says so) and follow the player into the next game, until
 * they leave or the player does (docs/architecture.md, "Messages between
 * sessions"). The list is the session's, outside any state, because it
 * passes from the game that ended, through the lobby, to the next one. */
#ifndef ROGUE_SESSION_FOLLOW_H
#define ROGUE_SESSION_FOLLOW_H

#include <stdint.h>

struct sess;

/* The game's watchers wait for the next one: takes ids (malloc'd, n of
 * them; ownership passes) and tells each (WATCH_END with a = 1). */
void follow_keep(struct sess *s, uint64_t *ids, int n);

/* The next game begins: moves the waiting watchers out (*ids malloc'd,
 * the caller's; NULL when none). Returns how many. */
int follow_take(struct sess *s, uint64_t **ids);

/* A waiting watcher left (its WATCH_LEAVE). */
void follow_forget(struct sess *s, uint64_t id);

/* The player is gone: every waiting watcher is told (WATCH_END, a = 0,
 * text why) and the list freed. */
void follow_end(struct sess *s, const char *why);

#endif
