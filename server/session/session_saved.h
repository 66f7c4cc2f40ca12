/* session_saved.h - an account's saved game, as the lobby (S_LOBBY,
 * session_lobby.c) finds and holds it: looked up in the store after a
 * login, rebuilt from its keys off the loop (rebuild.h) and held until p;
 * a takeover's game rebuilt and played on at once. Only session_lobby.c
 * calls these (and session_saved.c the lobby's store wait, last);
 * sess_lobby_play_summary and sess_lobby_load_progress
 * (session.h) are the other states' way in. */
#ifndef ROGUE_SESSION_SAVED_H
#define ROGUE_SESSION_SAVED_H

#include "session.h"

/* Asks the store for the account's game to continue (after a login and
 * any takeover; again at p after a failure). Until it answers no game
 * begins: a new game's beginning ends the saved one. */
void sess_saved_load(sess_t *s);

/* Rebuilds src off the loop for this lobby ("One moment..." meanwhile);
 * takeover: play it on at once when rebuilt, else hold it until p.
 * Returns 0, or -1 (refused, said on the lobby: src freed). */
int sess_saved_rebuild(sess_t *s, msg_game_t *src, int takeover);

/* The rebuild's answer (MSG_REBUILT) for this lobby's job. */
void sess_saved_rebuilt(sess_t *s, smsg_t *m);

/* Plays on a game rebuilt (a takeover) or held since the login. */
void sess_saved_play_on(sess_t *s, play_arg_t *a);

/* session_lobby.c's, for the lookup above: the lobby's wait for the
 * store begins, store_wait_ms counting from now, for this wait (busy_gen)
 * only. */
void sess_lobby_wait_start(sess_t *s);

#endif
