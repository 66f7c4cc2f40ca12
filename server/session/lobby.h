/* lobby.h - what a player meets before and between games: a menu, the
 * prompts of logging in, registering and naming a guest, the hall of fame
 * and the help page.
 *
 * A state machine behind a handle, like the game: keys in, an action out,
 * and a draw function that paints the lobby into a cell grid at any size
 * (the session diffs it like any game frame). It does no I/O and knows
 * nothing of the store: an action such as LOBBY_DO_LOGIN asks the session
 * to call the store, and the session reports the answer back with
 * lobby_account_done or lobby_scores_done. While such an answer is owed the
 * lobby is busy and ignores keys; but for one question, asked without a
 * wait so that keys typed ahead are kept: whether a name being registered
 * is taken (LOBBY_DO_CHECK_NAME, lobby_name_checked).
 *
 * Passwords are held only between the Enter that completes them and the
 * session's call to the store (lobby_take_password), then wiped; they are
 * drawn as '*'. */
#ifndef ROGUE_LOBBY_H
#define ROGUE_LOBBY_H

#include <stdint.h>

#include "accounts.h"
#include "screen.h"
#include "store.h"

/* The longest line a player may type at a prompt (a password's bytes). */
#define LOBBY_LINE_MAX ACCT_PASS_MAX

enum lobby_page {
    LOBBY_MENU = 0,
    LOBBY_GUEST_NAME,   /* the name to play under as a guest */
    LOBBY_LOGIN_NAME,
    LOBBY_LOGIN_PASS,
    LOBBY_REG_NAME,
    LOBBY_REG_PASS,
    LOBBY_REG_PASS2,    /* the password again */
    LOBBY_BUSY,         /* an answer from the store is owed */
    LOBBY_SCORES,
    LOBBY_HELP,
    LOBBY_WATCH,        /* the games in progress; a letter picks one */
    LOBBY_PW_OLD,       /* changing the password: the present one, */
    LOBBY_PW_NEW,       /* the new one, */
    LOBBY_PW_NEW2,      /* and the new one again */
    LOBBY_KEYS,         /* the account's SSH keys (lobby_keys.c) */
    LOBBY_KEY_ADD,      /* a public key line being pasted */
    LOBBY_KEY_DEL,      /* y removes the key picked */
    LOBBY_NPAGES
};

/* What a page is, for its keys (lobby.c) and its drawing (lobby_view.c):
 * one row per page in lobby.c's table, the one place that says it. */
enum lobby_page_flag {
    LOBBY_PAGE_PROMPT = 1,    /* a name or a password typed at a prompt:
                                 the page has an input line (lobby.c) and
                                 is drawn as a prompt, its note next to
                                 the line (lobby_view.c) */
    LOBBY_PAGE_PASSWORD = 2,  /* ...a password: drawn as stars */
    LOBBY_PAGE_ROW6_FREE = 4  /* its first line is below row 6 (the menu
                                 and the prompts begin on row 7, "One
                                 moment..." lower): the header's news may
                                 go down to row 6 (under a motd of two
                                 rows); any other page's title is there */
};

/* The page's flags (enum lobby_page_flag): 0 for a page not in the
 * table, which so has no prompt and keeps row 6 for its title. */
unsigned lobby_page_flags(int page);

/* What the session must do after a key. */
enum lobby_action {
    LOBBY_DO_NOTHING = 0,
    LOBBY_DO_PLAY,        /* start a game: as the account if logged in,
                             else as the guest lobby_player_name gives */
    LOBBY_DO_CHECK_GUEST, /* ask whether the guest name is an account's;
                             answer with lobby_guest_checked */
    LOBBY_DO_LOGIN,       /* store_login(lobby_name, lobby_take_password) */
    LOBBY_DO_REGISTER,    /* store_register(the same) */
    LOBBY_DO_SCORES,      /* store_scores(20, the account or NULL) */
    LOBBY_DO_QUIT,        /* say goodbye and close */
    LOBBY_DO_WATCH,       /* watch the game of session lobby.pick_id */
    LOBBY_DO_REPLAY,      /* replay the finished game lobby.pick_id */
    LOBBY_DO_LOGOUT,      /* logged out: drop a game held for the account */
    LOBBY_DO_CHANGE_PASSWORD, /* after a LOBBY_DO_CHECK_PASSWORD found it
                              right: check lobby_take_password again (it
                              may have changed elsewhere since), then set
                              lobby_take_new_password; answer with
                              lobby_password_changed */
    LOBBY_DO_KEYS_LIST,   /* store_keys_list(account); answer with
                             lobby_keys_done */
    LOBBY_DO_KEY_ADD,     /* check lobby_keys_line (lobby_keys_refused if
                             it is no key, else lobby_keys_checked), then
                             store_key_add; answer with lobby_keys_done */
    LOBBY_DO_KEY_REMOVE,  /* store_key_remove(account, lobby_keys_pick);
                             answer with lobby_keys_done */
    LOBBY_DO_CHECK_NAME,  /* ask whether lobby.name is an account's
                             (store_name_taken) while the player goes on
                             to the password, keys taken meanwhile;
                             answer with lobby_name_checked */
    LOBBY_DO_PLAY_NEW,    /* the player ends the saved game that cannot
                             be rebuilt (lobby_saved_broken): begin a new
                             game, whose beginning ends it */
    LOBBY_DO_CHECK_PASSWORD /* check lobby_take_password for the account
                               (the first step of a change, before the new
                               one is asked); answer with
                               lobby_password_checked */
};

/* One game in progress as the watch page lists it (the session fills the
 * list before each frame; a key picks by the letter it was drawn with). */
#define LOBBY_WATCH_MAX 20
typedef struct lobby_game {
    uint64_t session_id;
    char name[ACCT_NAME_MAX + 1];
    int depth, turns, idle_s, watchers;
} lobby_game_t;

/* The keys pages' state (lobby_keys.c). */
typedef struct lobby_keys lobby_keys_t;

/* Kinds of the one-line notice under the menu. */
enum { LOBBY_NOTE_INFO = 0, LOBBY_NOTE_GOOD, LOBBY_NOTE_BAD };

/* The row the lobby's note is drawn from (lobby_draw), but for a name or
 * password prompt's, which is under the line typed; the keys pages leave
 * it and the rows under it free while there is one. */
#define LOBBY_NOTE_ROW 17

/* 1 if s is narrower than the lobby's 80-column layout: its lines are
 * broken at spaces and its tables drop columns. */
static inline int lobby_narrow(const screen_t *s)
{
    return s->w < 80;
}

/* What is typed at a prompt and the passwords awaiting the store: held
 * only while a prompt or its store request lasts (lobby_t.in), so a
 * session in a game or at the menu does not carry them. */
typedef struct lobby_input {
    char line[LOBBY_LINE_MAX + 1];   /* what is being typed */
    uint16_t len;
    char pass[LOBBY_LINE_MAX + 1];   /* a password awaiting the store */
    char pass_new[LOBBY_LINE_MAX + 1]; /* a new password awaiting it */
} lobby_input_t;

typedef struct lobby {
    uint8_t page;                    /* enum lobby_page */
    uint8_t back;                    /* the page LOBBY_BUSY returns to */
    uint8_t note_kind;
    uint8_t failures;                /* failed logins on this connection */
    lobby_input_t *in;               /* while typing or awaiting the store
                                        with what was typed; owned (wiped
                                        and freed after) */
    char name[ACCT_NAME_MAX + 1];    /* the name typed at the last name prompt */
    char account[ACCT_NAME_MAX + 1]; /* logged in as; "" for none */
    int64_t account_id;
    char guest[ACCT_NAME_MAX + 1];   /* the guest name once accepted */
    char suggest[ACCT_NAME_MAX + 1]; /* offered at the guest prompt */
    char note[96];                   /* the notice line */
    store_scores_t *scores;          /* the hall of fame while shown; owned */
    lobby_game_t *watch;             /* LOBBY_WATCH_MAX games, the list
                                        shown: only while LOBBY_WATCH is
                                        (NULL otherwise); owned */
    int nwatch;
    uint64_t pick_id;                /* LOBBY_DO_WATCH: a session id;
                                        LOBBY_DO_REPLAY: a game id */
    uint8_t resume;                  /* a game in progress waits: p continues */
    uint8_t key_login;               /* logged in by an SSH key, not yet
                                        taken over (lobby_take_key_login) */
    uint8_t drop_line;               /* the rest of a line typed before an
                                        upgrade, or of a password typed
                                        for a name found taken: dropped
                                        up to Enter (lobby_drop_line,
                                        lobby_name_checked) */
    int resume_depth, resume_turns;
    lobby_keys_t *keys;              /* the keys pages' state while shown
                                        (NULL otherwise); owned */
    uint32_t busy_gen;               /* counts the waits for an answer, so
                                        that a wait given up is told from a
                                        later one (lobby_store_away) */
    uint8_t refused;                 /* the line being typed held something
                                        refused (a control character, an
                                        escape sequence): Enter refuses it */
    uint8_t too_long;                /* a character would not fit the line
                                        and was left out: Enter refuses it */
    uint8_t refused_at, too_long_at; /* the line's length when the first
                                        of each was typed: erased back
                                        below it, the line holds none */
    uint8_t offered;                 /* the line is a name the server
                                        offered, untouched: a character
                                        typed replaces it, Backspace
                                        clears it */
    uint8_t broken;                  /* the account's saved game cannot
                                        be rebuilt (lobby_saved_broken):
                                        n ends it for a new game */
    uint8_t name_asking;             /* a LOBBY_DO_CHECK_NAME is out: one
                                        at a time, so that a player going
                                        back and forth asks no more; its
                                        answer is wanted while the page is
                                        a password step of registering */
    uint8_t pw_checked;              /* the present password was found
                                        right for the change being typed
                                        (lobby_password_checked); the
                                        change's end clears it */
    uint8_t note_new;                /* the note was said since the last
                                        key: it is for the page that key
                                        leads to; an older one is the page
                                        it was said at's, and goes with it */
} lobby_t;

/* What the lobby shows about the server (the session fills it per frame). */
typedef struct lobby_info {
    const char *server_name;
    const char *motd;        /* may be "" */
    int online;              /* connected players */
    int playing;             /* games in progress */
    const char *hosts;       /* a note on the other hosts of a cluster
                                ("other hosts unavailable"), or NULL */
    const char *news;        /* the latest line of news (news.h), or NULL */
    int guest_min_turns;     /* a guest's game of fewer turns is not kept
                                (the hall of fame says so; 0: every one) */
} lobby_info_t;

/* The menu, nobody logged in. suggest: the guest name offered at the
 * guest prompt, so that `p` then Enter plays at once (may be ""). */
void lobby_init(lobby_t *l, const char *suggest);

/* Frees what the lobby owns and wipes any password. */
void lobby_free(lobby_t *l);

/* Feeds one key (common/keys.h). Returns an enum lobby_action. */
int lobby_key(lobby_t *l, int key);

/* The answer to LOBBY_DO_CHECK_GUEST. status: STORE_OK, or why the check
 * failed (then taken is not read). taken: LOBBY_NAME_FREE,
 * LOBBY_NAME_ACCOUNT (the name is an account's) or LOBBY_NAME_PLAYING (a
 * game on this host is played under it now, or kept for a browser
 * guest's page). Returns LOBBY_DO_PLAY when the guest may play now, else
 * LOBBY_DO_NOTHING (a notice says why). */
enum { LOBBY_NAME_FREE = 0, LOBBY_NAME_ACCOUNT, LOBBY_NAME_PLAYING };
int lobby_guest_checked(lobby_t *l, int status, int taken);

/* The account's saved game cannot be rebuilt (a damaged or drifted
 * record): said, with the two ways on: p tries again (a host may mend
 * it), n ends it and begins a new game (LOBBY_DO_PLAY_NEW). Until a
 * logout, a game offered again, or n. */
void lobby_saved_broken(lobby_t *l);

/* The answer to LOBBY_DO_CHECK_NAME, for `name` (the name it was asked
 * for; the session also calls it with status STORE_ERROR when the store
 * refused the question). An answer for another name than the one now
 * typed, or come after the password steps were left (back at the name or
 * the menu, or at the registration's own wait), is stale: dropped. A
 * name taken (STORE_OK, taken) is said, and the registration goes back
 * to the name prompt with the password typed so far wiped; if some of it
 * had been typed, the rest of that line is dropped up to Enter, so that
 * it is never shown as a name. Any other answer changes nothing: the
 * registration checks again at its end. Returns LOBBY_DO_CHECK_NAME when
 * the answer was stale and the name typed now is still to be asked
 * about (one question at a time), else LOBBY_DO_NOTHING. */
int lobby_name_checked(lobby_t *l, const char *name, int status, int taken);

/* The answer to LOBBY_DO_LOGIN or LOBBY_DO_REGISTER. Returns
 * LOBBY_DO_QUIT when this was the last failed login the connection gets
 * (ACCT_LOGIN_TRIES), else LOBBY_DO_NOTHING. */
int lobby_account_done(lobby_t *l, const store_account_t *a);

/* The answer to LOBBY_DO_SCORES (copied). */
void lobby_scores_done(lobby_t *l, const store_scores_t *s);

/* The password typed for the pending login or registration, for the store
 * call. Valid until lobby_wipe_password, which the session calls right
 * after handing it over (the store copies it). */
const char *lobby_take_password(const lobby_t *l);
void lobby_wipe_password(lobby_t *l);

/* LOBBY_DO_CHECK_PASSWORD's answer (STORE_OK, STORE_BAD_LOGIN for a
 * wrong present password, or why not): right, the new password is asked
 * (the present one kept for the change's second check); else the
 * present password's prompt again says why, and a wrong one counts as a
 * failed login. Returns LOBBY_DO_QUIT as lobby_account_done. */
int lobby_password_checked(lobby_t *l, int status);

/* LOBBY_DO_CHANGE_PASSWORD: the new password (lobby_wipe_password wipes it
 * too), and the answer (STORE_OK, STORE_BAD_LOGIN for a present password
 * no longer right, or why not). Returns LOBBY_DO_QUIT as
 * lobby_account_done. */
const char *lobby_take_new_password(const lobby_t *l);
int lobby_password_changed(lobby_t *l, int status);

/* Waits (keys ignored, "One moment...") until lobby_waited: the session
 * asks the store whether the account has a game in progress, and p must
 * not start a new one (and so end the saved one) before the answer. */
void lobby_wait(lobby_t *l);
void lobby_waited(lobby_t *l);

/* An account's game in progress is ready to continue (p plays it on).
 * saved: the player has just saved it with S, and is told so rather than
 * welcomed back as after a login. */
void lobby_offer_resume(lobby_t *l, int depth, int turns, int saved);

/* What the lobby says after S saved the game in play, and again once the
 * saved game is offered (a welcome back would be wrong: the player never
 * left). */
#define LOBBY_SAID_SAVED "Your game is saved: p goes on with it."

/* Shows the watch page (the session fills l->watch before each frame). */
void lobby_show_watch(lobby_t *l);

/* A guest's game comes back on this connection (session_guest.c): the
 * guest is known by the name it was played under. */
void lobby_set_guest(lobby_t *l, const char *name);

/* The name a game is played and recorded under: the account's, else the
 * guest's. */
const char *lobby_player_name(const lobby_t *l);

/* 1 while a password prompt is shown (drawn as stars). */
int lobby_in_password(const lobby_t *l);

/* 1 while a line is being typed: at a prompt (a name, a password), or
 * a public key pasted on the keys' page (LOBBY_KEY_ADD). */
int lobby_typing(const lobby_t *l);

/* 1 if key, on the page l shows, ends or undoes something, or opens a
 * screen over the lobby: quitting or the options (o) at the menu, a
 * logout (l while logged in), a key's removal confirmed (y). Keys typed
 * ahead during a wait stop before it (session_input.c). */
int lobby_key_is_weighty(const lobby_t *l, int key);

/* The player was typing a line (a name, a password) when a binary
 * upgrade moved the connection, and the new process shows the menu: the
 * rest of that line is not the menu's (a password's last letters would
 * be read as menu keys, and echoed). Keys are dropped up to Enter (or
 * Esc, or Ctrl-C), and the note says so. */
void lobby_drop_line(lobby_t *l);

/* What is typed at the prompt now ("" with none), and its length. */
const char *lobby_line(const lobby_t *l);
int lobby_line_len(const lobby_t *l);

/* Wipes and frees what was typed and any password awaiting the store
 * (lobby_keys.c, leaving its pages for the menu). */
void lobby_input_drop(lobby_t *l);

/* Sets the notice line (printf-style). A note belongs to the step it was
 * said at: it stays while that page does (a prompt typed again keeps its
 * refusal), and goes when the page is passed or left, unless it was said
 * for the page being gone to (since the last key, or by the store's
 * answer that moves on). */
void lobby_note(lobby_t *l, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The lobby is left for a game, a watch or a replay: what its note said
 * was for a step that is over (the session calls it as it leaves). */
void lobby_note_clear(lobby_t *l);

/* Draws the lobby into s at s's size (any size; it clips). */
void lobby_draw(const lobby_t *l, const lobby_info_t *info, screen_t *s);

/* --- SSH keys (lobby_keys.c) ----------------------------------------------- */

/* The longest public key line the keys page takes (sshkey.h's too). */
#define LOBBY_KEY_LINE_MAX 2048

/* The account logged in by an SSH key before the lobby began (the SSH
 * bridge checked it): shown as logged in at once. */
void lobby_key_login(lobby_t *l, int64_t account_id, const char *name);

/* 1 once after lobby_key_login: the session then does what follows a
 * login (takes the account's other sessions over, loads its saved game). */
int lobby_take_key_login(lobby_t *l);

/* Logged in as name by the browser page's token (login_tokens.h), back
 * after a drop: as lobby_key_login, with its own welcome. */
void lobby_page_login(lobby_t *l, int64_t account_id, const char *name);

/* The keys pages' keys (lobby_key passes them on). */
int lobby_keys_key(lobby_t *l, int key);

/* The menu's k (logged in only): the keys page, once listed. */
int lobby_keys_open(lobby_t *l);

/* The server's SSH port (0: none) and the name players reach it by
 * (public_host; "" or NULL: "this-host" is shown), for the keys page's
 * hint; the session says them with LOBBY_DO_KEYS_LIST. */
void lobby_keys_set_reach(lobby_t *l, int ssh_port, const char *host);

/* LOBBY_DO_KEY_ADD: the line pasted; the session's check of it: refused
 * (why: a sentence), or its fingerprint (then the store is asked). */
const char *lobby_keys_line(const lobby_t *l);
void lobby_keys_refused(lobby_t *l, const char *why);
void lobby_keys_checked(lobby_t *l, const char *fingerprint);

/* LOBBY_DO_KEY_REMOVE: the fingerprint of the key picked. */
const char *lobby_keys_pick(const lobby_t *l);

/* The store's answer to any of the three (copied). */
void lobby_keys_done(lobby_t *l, const store_keys_t *k);

/* Frees the keys pages' state (going to any other page does). */
void lobby_keys_drop(lobby_t *l);

/* Draws a keys page (lobby_draw calls it). */
void lobby_keys_draw(const lobby_t *l, screen_t *s);

/* The store did not answer the wait that began as busy_gen was `gen`:
 * the wait ends, back to the page it came from, with a note that says
 * where it waited (at: enum store_wait, store_wait_of: the password
 * checks' line or the pool, "the server is busy checking passwords"; a
 * slowed-down login, too many failed logins; else the store is not
 * answering) and asks to try again. Returns 1 if it ended a wait, else
 * 0. */
int lobby_store_away(lobby_t *l, uint32_t gen, int at);

/* Something was typed that a line cannot hold as typed (a control
 * character, or an escape sequence the decoder dropped): the line is
 * refused at Enter with the reason, never taken without it. */
void lobby_typed_refused(lobby_t *l);

/* 1 if name is a guest's number name (guest and digits, any case): kept
 * for guests, so that the name the lobby offers plays without asking the
 * store whether an account has it. */
int lobby_name_is_guest_number(const char *name);

#endif
