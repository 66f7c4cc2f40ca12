/* session_states.c - the table that ties each state to its file: the one
 * place the session core meets the states (session.h). */
#include "session.h"
#include "session_states.h"

static const sess_state_ops_t admitting = { .name = "admitting" };
static const sess_state_ops_t negotiating = { .name = "negotiating" };
static const sess_state_ops_t closing = { .name = "closing" };

const sess_overlay_ops_t *const sess_overlays[] = {
    &sess_options_overlay,
    NULL
};

const sess_state_ops_t *sess_state_ops(int state)
{
    switch (state) {
    case S_LOBBY: return &sess_lobby_ops;
    case S_PLAYING: return &sess_play_ops;
    case S_WATCHING: return &sess_watch_ops;
    case S_REPLAY: return &sess_replay_ops;
    case S_NEGOTIATING: return &negotiating;
    case S_ADMITTING: return &admitting;
    default: return &closing;
    }
}
