/* session_states.h - each state's operations, defined in its own file and
 * gathered only by session_states.c. A state's file includes session.h,
 * never another state's. */
#ifndef ROGUE_SESSION_STATES_H
#define ROGUE_SESSION_STATES_H

#include "session.h"

extern const sess_state_ops_t sess_lobby_ops;   /* session_lobby.c */
extern const sess_state_ops_t sess_play_ops;    /* session_play.c */
extern const sess_state_ops_t sess_watch_ops;   /* session_watch.c */
extern const sess_state_ops_t sess_replay_ops;  /* session_replay.c */
extern const sess_overlay_ops_t sess_options_overlay; /* session_options.c */

#endif
