/* session_page.c - what a browser's page is told of the session, and
 * where a site page's terminal ends.
 *
 * The play page's key bar is the game's keys (the directions as numpad
 * digits, o, g, ...) in a game, and the lobby's (p, w, s, Enter, Esc) in
 * the lobby: typed into the lobby's name prompt, a direction was a digit
 * of the name. The page cannot tell from the screen's bytes which it is,
 * so the server says so in a text message, "state NAME", at each change
 * (docs/telnet.md, "The browser").
 *
 * A site page's terminal (/watch/ID, /game/ID: docs/site.md) watches or
 * replays one game: once that is over (q, the game's end, a game that
 * cannot be watched), the lobby would be drawn under the page's "Replay"
 * heading, a menu that has no place there. The session ends instead, its
 * goodbye line the lobby's note (why) or what happened. */
#include "game.h"
#include "lobby.h"
#include "session.h"
#include "site.h"
#include "wsconn.h"

/* web_state for a game's end screen (YOU DIED, or a win), whose keys
 * (r, Space: a new game; Esc, q: leave) a phone's game bar has not: "state
 * over" (a play-test found its Enter did nothing there); a page that does
 * not know the word keeps the bar it has. */
#define WEB_STATE_OVER 0xfe
/* web_state for the options screen over any state ("state options"): its
 * keys are arrows, which neither the lobby's bar nor a phone's keyboard
 * has (a play-test could open it and change nothing); the page's bar
 * sends the numpad's digits, which it takes. */
#define WEB_STATE_OPTIONS 0xfd
/* web_state for the lobby at a prompt (a name, a password, a key pasted:
 * lobby_typing): "state prompt", whose bar is Esc, Enter and the
 * device's keyboard; the lobby's p, w, s and ? were typed into the name
 * there (a play-test tapped p twice and was offered the name "p"). Told
 * at each frame of the lobby (session_render.c), as its page moves with
 * keys and with the store's answers alike. */
#define WEB_STATE_PROMPT 0xfc
/* web_state for the lobby's other pages (the watch list, the hall of
 * fame, the help, the SSH keys): "state list", whose bar is Esc and the
 * keyboard, a tap on a row still its letter; the menu's p, w and s are
 * letters of the list there (a QA: with 16 games listed, p watched the
 * sixteenth). */
#define WEB_STATE_LIST 0xfb

void sess_tell_state(sess_t *s)
{
    /* a site page's terminal has no key bar: nothing to tell */
    if (!s->web || s->site_page)
        return;
    const char *name;
    uint8_t told = (uint8_t)s->state;
    switch (s->state) {
    case S_LOBBY:
        if (s->lobby.page == LOBBY_BUSY) {
            /* the store's wait keeps the lobby's bar it had (a login's
             * password check, a pick from the watch list waiting for its
             * game: no menu's bar for a moment) */
            if (s->web_state == S_LOBBY || s->web_state == WEB_STATE_PROMPT ||
                s->web_state == WEB_STATE_LIST)
                return;
            name = "state lobby";
        } else if (lobby_typing(&s->lobby)) {
            name = "state prompt";
            told = WEB_STATE_PROMPT;
        } else if (s->lobby.page != LOBBY_MENU) {
            name = "state list";
            told = WEB_STATE_LIST;
        } else {
            name = "state lobby";
        }
        break;
    case S_PLAYING:
        name = "state playing";
        if (s->st.play.g.game && game_dead(s->st.play.g.game)) {
            name = "state over";
            told = WEB_STATE_OVER;
        }
        break;
    case S_WATCHING: name = "state watching"; break;
    case S_REPLAY:
        /* ended, it takes no key but q: the watch's bar (a QA tapped
         * pause and the speeds under "ended") */
        if (s->st.replay.done) {
            name = "state watching";
            told = S_WATCHING;
        } else {
            name = "state replay";
        }
        break;
    default: return; /* closing, or not started: no key is taken */
    }
    if (s->options.open) {
        name = "state options";
        told = WEB_STATE_OPTIONS;
    }
    if (s->web_state == told)
        return;
    s->web_state = told;
    wsconn_send_text(s->web, name);
}

int sess_site_page_done(sess_t *s)
{
    /* busy: the watch or replay asked for is still on its way. (The state
     * first: it is in the session's first line, which every phase reads;
     * site_page is in a line a player's key would not touch otherwise.) */
    if (s->state != S_LOBBY || !s->site_page || s->site_start ||
        s->lobby.page == LOBBY_BUSY || sess_closing(s))
        return 0;
    const char *why = s->lobby.note[0] ? s->lobby.note
        : s->site_page == SITE_START_WATCH
        ? "You have stopped watching."
        : "The replay has ended.";
    sess_close(s, s->site_page == SITE_START_WATCH ? "the watch page's watch "
               "ended" : "the game page's replay ended", 1, why);
    return 1;
}
