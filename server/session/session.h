/* session.h - one connection: the session core that every state builds on.
 *
 * A session is in one state at a time (enum sess_state); each state's data
 * is its own struct in the union `st`, and sess_goto is the one way from
 * one state to the next: it runs the old state's leave and the new one's
 * enter. Each state lives in its own file (session_lobby.c, session_play.c,
 * session_watch.c, session_replay.c) and depends on this core only; the
 * core reaches the states through their sess_state_ops_t (session_states.c).
 *
 * What handlers may do. Reads, timers, store answers and messages only
 * change the session's state and mark it: sess_owe_frame (draw me),
 * sess_close (close me). They never draw, write or close anything. The
 * loop's render phase (server.c) then, for each marked session, carries
 * out a requested close (sess_phase) or draws once and writes once. A
 * change that concerns another session is a message to it (srv_post).
 * docs/architecture.md has the whole picture.
 *
 * One owner: the server's list holds the session; it is freed in the close
 * callback of its last handle, nowhere else. The session owns its socket,
 * timers, telnet state, key decoder, the screen it last sent, its output
 * buffer and its state's data. */
#ifndef ROGUE_SESSION_H
#define ROGUE_SESSION_H

#include <stdint.h>
#include <uv.h>

#include "buf.h"
#include "game.h"
#include "guest_grace.h"
#include "in_budget.h"
#include "keydec.h"
#include "lobby.h"
#include "msg.h"
#include "options.h"
#include "record.h"
#include "screen.h"
#include "screen_diff.h"
#include "server.h"
#include "telnet_conn.h"
#include "view_cache.h"

enum sess_state {
    S_NEGOTIATING = 0, /* waiting (bounded) for the client's telnet answers */
    S_LOBBY,           /* the menu, prompts, scores; may hold a saved game */
    S_PLAYING,         /* a game of its own */
    S_WATCHING,        /* a copy of another session's game */
    S_REPLAY,          /* a finished game played back */
    S_CLOSING,         /* no more input; output draining, handles closing */
    S_ADMITTING,       /* before negotiation (session_admit.c): waiting
                          (bounded) for a balancer's PROXY header or the
                          browser's WebSocket, then the limits; admit()
                          moves on to S_NEGOTIATING */
    S_NSTATES
};

/* A game with its recorder: what a player owns of a game. */
typedef struct owned_game {
    game_t *game;
    record_t rec;
    int64_t started;           /* Unix seconds */
} owned_game_t;

/* S_LOBBY */
/* Bytes a client may type before its negotiation settles that are kept
 * for the lobby (a line such as "p" Enter and a few more). */
#define SESS_EARLY_MAX 256
/* keys typed while the lobby waits for an answer, kept for it */
#define SESS_WAIT_KEYS 8

typedef struct st_lobby {
    owned_game_t held;         /* held.game: an account's saved game,
                                  p continues it */
    int takeovers_owed;        /* TAKEOVER_DONE answers still to come */
    msg_game_t *taken;         /* a game handed over by an older session */
    uint64_t watch_asked;      /* WATCH_JOIN sent to this session */
    int64_t rebuild_job;       /* a game being rebuilt for it (rebuild.h) */
    uint8_t rebuild_takeover;  /* ...handed over (else: saved, to resume) */
    uint8_t saved;             /* came here by S: the offer to resume says
                                  the game is saved, not "Welcome back" */
    uint8_t looking_up;        /* a login's takeovers and the lookup of its
                                  saved game under way ("One moment...") */
    uint8_t play_typed;        /* p pressed meanwhile: played once the
                                  lookup settles (session_saved.c) */
    uint8_t wait_keeps_keys;   /* the wait under way began with a key on a
                                  page that is no prompt (s, k, a letter):
                                  keys typed meanwhile are kept for the
                                  page its answer shows; after a prompt's
                                  Enter (a login, a registration, a
                                  password) they are dropped, as they may
                                  be the password typed again */
    uint64_t news_seen;        /* the news line last drawn (news.h) */
    /* The store's answer being waited for: since when, and which wait of
     * the lobby's (lobby.busy_gen); past store_wait_ms the player is told
     * where it waited: the store away, the password checks busy, or a
     * login still slowed after failed ones (store_wait_of;
     * session_lobby.c). 0: none. */
    uint64_t store_asked_ms;
    uint32_t store_gen;
} st_lobby_t;

/* S_PLAYING */
typedef struct st_play {
    /* What every key reads besides the game and its record, first: in the
     * line of the game's pointer (docs/performance.md, "A key's cold
     * lines"). */
    int pub_depth, pub_turns;  /* what the directory has (publish) */
    uint32_t pub_input_s;      /* ...and the second of its last key */
    int nwatchers;             /* of watchers, below */
    owned_game_t g;
    uint8_t recorded;          /* dead: the store has the game already */
    uint8_t handed;            /* handed to another session: not ours to end */
    const char *end_cause;     /* set: the game ends for this (recorded) */
    uint64_t store_failed;     /* store_failed_batches when the store last
                                  had every key (play_enter, or the game
                                  sent again whole): another count since,
                                  and its copy may lack keys */
    game_t *snap;              /* the game every SNAP_EVERY keys: watchers
                                  rebuild only the tail since it; owned */
    uint32_t snap_keys;
    size_t snap_pos;
    uint8_t progress_begun;    /* the store has this game's begin */
    size_t progress_sent;      /* bytes of g.rec.keys the store has */
    uint64_t *watchers;        /* session ids; owned (nwatchers above) */
    int capwatchers;
    uint8_t rewatch_owed;      /* moved by an upgrade: the watchers get the
                                  summary once it is ready */
} st_play_t;

/* S_WATCHING */
typedef struct st_watch {
    game_t *game;              /* the watcher's own copy; NULL while it is
                                  being rebuilt */
    uint64_t player;           /* whose game (session id) */
    char name[ACCT_NAME_MAX + 1];
    int64_t rebuild_job;       /* the rebuild awaited (rebuild.h) */
    buf_t pending;             /* keys forwarded meanwhile, 4 bytes each */
    uint8_t waiting;           /* MSG_WATCH_LOBBY: the player is in the
                                  lobby; MSG_WATCH_AWAY: a browser guest's
                                  page dropped; either way its game comes
                                  as a WATCH_START (0: not waiting) */
    uint8_t notice_keys;       /* the player's keys since the watch's
                                  notice (WATCH_NOTICE_KEYS clear it) */
} st_watch_t;

/* S_REPLAY */
typedef struct st_replay {
    record_t rec;              /* the finished game's record */
    record_player_t player;    /* steps rec into player.game */
    uint8_t speed;             /* index into the speed table */
    uint8_t paused, done;
    int err;                   /* why it stopped early (RECORD_EDRIFT...) */
    char name[ACCT_NAME_MAX + 1];
} st_replay_t;

/* Arguments of sess_goto(s, S_PLAYING, arg); NULL: a new game. */
typedef struct play_arg {
    owned_game_t g;            /* moved into the state */
    uint8_t progress_begun;
    size_t progress_sent;
    uint64_t *watchers;        /* moved; may be NULL */
    int nwatchers;
    int resumed;               /* for the log: resumed, or taken over */
    uint8_t rewatch;           /* a binary upgrade: the watchers wait for
                                  the game's summary (WATCH_START) */
} play_arg_t;

/* Arguments of sess_goto(s, S_REPLAY, arg). */
typedef struct replay_arg {
    const char *name;
    const void *record;
    size_t len;
} replay_arg_t;

typedef struct sess {
    struct sess *prev, *next;  /* the server's list of every session */
    struct sess *mprev, *mnext; /* the render phase's list of marked ones */
    srv_t *srv;
    /* What a key and the sweep touch, together at the top (the session is
     * allocated on a cache line): a few lines instead of one here and
     * there over 4.7 KB (docs/performance.md, "Closer to the floor"). */
    uint64_t id;               /* the session's number (its directory
                                  line's key: a key that takes a turn
                                  writes it there) */
    uint8_t state;             /* enum sess_state */
    uint8_t marked, owe_frame, admitted;
    uint8_t in_outbox;  /* a frame of it waits in the loop's outbox */
    uint8_t handles_closing;
    uint8_t check_first_read;  /* an untrusted peer: refuse a PROXY header */
    uint8_t esc_armed;         /* esc_timer runs (no look at a cold timer) */
    struct {
        uint8_t requested, graceful;
        uint8_t away;          /* the server goes away, not the player
                                  (sess_close_away) */
        uint8_t reset;         /* the client does not read: its socket is
                                  reset, its unsent bytes dropped
                                  (sess_close_unread, the close deadline) */
        uint8_t by_page;       /* the browser closed the WebSocket (a
                                  reload, a page left or shut) before any
                                  close of ours: the page may be back */
        uint8_t taken_over;    /* a later login took the account's game
                                  (MSG_TAKEOVER): its page's token ends
                                  however the close goes */
        /* Set by the request: the reason (for the log) and the goodbye
         * (may be ""), in one allocation made then (buf, owned; freed with
         * the session): no session carries their room until it closes. */
        const char *reason, *message;
        char *buf;
    } close;
    proxy_parser_t *proxy;     /* a trusted balancer's header being read */
    const transport_t *tr;     /* the protocol the bytes come in (transport.h):
                                  telnet's or the browser's; NULL until set */
    void *conn;                /* its connection: &tc, or web */
    const struct byte_io *io;  /* or another carrier of the bytes: an SSH
                                  player's libssh session (byte_io.h) */
    void *io_conn;             /* io's; closed with the handles */
    struct wsconn *web;        /* the browser's HTTP and WebSocket; owned;
                                  NULL for telnet */
    /* output: gathered during a loop iteration, written in the render phase */
    buf_t out;
    size_t queued;             /* bytes handed to libuv, not yet written */
    uint8_t out_borrowed;      /* out is the loop's write buffer, lent for
                                  this render phase call (session.c) */
    uint64_t drained_ms;       /* the queue last shrank or was empty */
    /* over TCP, what the client's side took (tcp_acked.h): its count of
     * bytes acknowledged at the last sweep, and since when that count last
     * grew or nothing was held; out_held: bytes were written since a sweep
     * last found none held (session_output.c) */
    uint64_t acked, acked_ms;
    uint64_t acked_asked_ms;   /* when the sweep last asked the kernel that
                                  count (sess_stall_ask_ms: not every
                                  sweep when write_timeout is long) */
    uint8_t out_held;
    int fd_plus1;              /* the socket's descriptor + 1, looked up by
                                  the first sweep that asks the kernel (0:
                                  not yet): not uv_fileno's lines a second */
    uint64_t last_output_ms;
    /* Turns of the last game this session played (the one in play as it
     * closes, or the last it left: saved, over, or handed on), for the
     * disconnect line; 0: none. Set as the playing state leaves. */
    unsigned last_turns;
    /* input */
    uint64_t started_ms, last_input_ms;
    double key_tokens;         /* keys-per-second bucket */
    uint64_t key_tokens_ms;
    /* The bytes it may still send before the server stops reading them
     * (in_budget.h); in_paused: stopped until in_timer finds it refilled
     * (session_input.c) */
    in_budget_t in;
    uint8_t in_paused;
    uint8_t warned_idle;
    uint8_t line_mode;         /* tc.echo_refused as last seen (a change:
                                  a frame, and back out of it a repaint) */
    uint8_t notice_by;         /* who set notice (sess_notice_by) */
    uint8_t pasting;           /* between bracketed paste's marks: the keys
                                  were pasted (session_input.c) */
    int w, h;
    uint8_t term_ready;        /* alternate screen set up */
    uint8_t mouse_on;          /* xterm mouse reporting is on */
    /* the display (session_options.c; docs/telnet.md) */
    display_t detected;        /* what the client can show: settled when
                                  the negotiation ends */
    display_t display;         /* what it is drawn with: the choice over
                                  detected */
    uint8_t display_choice;    /* the player's (options.h); 0: Auto */
    options_t options;         /* the options screen, while open */
    keydec_t keys;
    unsigned keys_dropped;     /* keys.dropped as last seen (session.c) */
    char notice[80];           /* a host line over the log, until a key
                                  (or its owner takes it back) */
    /* transport */
    tconn_t tc;                /* telnet (unused for the browser) */
    uv_tcp_t tcp;              /* the socket (not opened when io is set) */
    /* the account's game in progress, as the store holds it
     * (session_lobby.c); a browser guest's game kept after a drop */
    int64_t claim;             /* an account's claim on its game in
                                  progress (store.h, "Claims"): its last
                                  load's, or that of the game handed to
                                  it; every progress write carries it
                                  (0: none) */
    char guest_token[GRACE_TOKEN_LEN + 1]; /* a browser guest's: resumes
                                  the game after a drop ("" : none) */
    char login_token[GRACE_TOKEN_LEN + 1]; /* a browser page's login:
                                  logs it in again after a drop
                                  (login_tokens.h; "": none) */
    /* 1 once the session knows what the store holds of the account's
     * game in progress: none (the store said so), one of another
     * version, which is ended (p replaces it), one that cannot be
     * rebuilt and the player ends (n), or a game played here.
     * Until then (since the login or registration, or after an upgrade;
     * a lookup failed or was given up, a rebuild refused or failed) the
     * lobby's p asks the store rather than begin a game, whose beginning
     * would end the saved one (or, for a new account, play under no
     * claim). Kept across states (watching, a replay), unlike st.
     * session_lobby.c. */
    uint8_t progress_known;
    uint8_t play_if_none;      /* a lookup p asked for: none, play */
    uint8_t registered;        /* the account was made on this connection
                                  and no lookup has answered yet: a failed
                                  one is said as a game that cannot begin,
                                  there being none saved */
    int64_t jobs;              /* rebuilds asked for so far (their numbers) */
    uv_timer_t negotiate_timer; /* the negotiation deadline */
    uv_timer_t esc_timer;       /* a held Esc becomes a key after 100 ms */
    uv_timer_t replay_timer;    /* the replay's clock */
    uv_timer_t close_timer;     /* how long a graceful close may drain */
    uv_shutdown_t shutdown_req;
    int open_handles;
    char addr[64];             /* "ip:port", for the log */
    char ip[ADDR_MAX];         /* the address alone, for its limits */
    char startup_ip[ADDR_MAX]; /* the one its startup is counted under
                                  (srv_startup_begin): ip then, before a
                                  balancer's PROXY header says another */
    uint8_t ip_counted;        /* addr_admit counted this session */
    uint8_t refusal_quiet;     /* refused past its reason's log lines
                                  (refusals.h): counted, not logged */
    uint8_t startup;           /* counted in sh->startups: not yet in the
                                  lobby (startups.h) */
    uint8_t slot_early;        /* a browser's connection (from its first
                                  byte) or an SSH player's (from its
                                  accept, srv_ssh_hold) holds a slot of
                                  max_sessions before it is admitted */
    uint8_t hashing;           /* addr_hash_begin counted its password check */
    uint8_t via_ssh;           /* an SSH player's (io): cannot move to a
                                  new process (session_upgrade.c);
                                  the console counts it as "ssh" */
    uint8_t moved;             /* handed to a new process by a binary
                                  upgrade: closes without a word, ends
                                  nothing, tells nobody */
    uint8_t rebuild_exempt;    /* arrived by a binary upgrade: its game's
                                  rebuild is the host's own, not held to the
                                  per-address cap (rebuild.h) */
    uint8_t site_start;        /* a site page's terminal asked to watch or
                                  replay (site.h's enum site_start): the
                                  lobby starts it on entering, once */
    uint64_t site_start_id;    /* ...that game */
    uint8_t site_page;         /* the same, kept for the session's life: a
                                  site page's terminal never shows the
                                  lobby; back there it ends
                                  (sess_site_page_done) */
    uint8_t token_waited;      /* its page's token waited for the
                                  cluster's first heartbeat (said once:
                                  sess_web_login_wait) */
    uint8_t web_state;         /* the state last told to the play page
                                  ("state NAME", sess_tell_state), or 0 */
    struct {                   /* a site page's store request (site/) */
        uint64_t gen;          /* the hall of fame's generation asked at */
        uint64_t held;         /* ...and the store's held games written
                                  (store_held_written) */
        void (*scores)(void *ctx, const struct store_scores *sc);
        struct site_dump *dump; /* a game page's dump being made off the
                                   loop (site_dump.h); not owned: the job
                                   clears it when it answers */
        void (*cancel)(struct sess *s); /* set while a job of the site's
                                   may still answer (site_dump.h): called
                                   when the session is freed, so the
                                   session names no part of the site */
    } site_req;
    uint64_t *followers;       /* watchers waiting in the lobby for the
                                  player's next game (session_follow.c);
                                  owned */
    int nfollowers;

    /* Resizes (NAWS, the page's size messages, SSH window changes): the
     * first resizes_per_window of a window of resize_window_ms are drawn
     * at once; later ones only keep the size (owed_w x owed_h), drawn by
     * resize_timer when the window ends (session_resize.c). w x h stays
     * the size drawn meanwhile. */
    uint64_t resize_window_ms; /* when the window began (the loop's clock) */
    uint32_t resizes;
    uint8_t resize_owed;
    int owed_w, owed_h;
    uv_timer_t resize_timer;
    uv_timer_t in_timer;       /* reading resumes (in_paused) */
    /* Bytes typed before the negotiation settled (with or before the
     * client's answers): kept, up to SESS_EARLY_MAX, and handed to the
     * lobby when it starts (docs/telnet.md). */
    char early[SESS_EARLY_MAX];
    uint16_t nearly;
    /* the terminal */
    term_state_t term;
    screen_t shown;            /* what the client's terminal shows */
    view_cache_t view;         /* how shown was drawn (session_render.c) */
    union {
        st_lobby_t lobby;
        st_play_t play;
        st_watch_t watch;
        st_replay_t replay;
    } st;
    /* the player: identity and lobby pages, kept across states. Last: a
     * key in play never touches it, and it is big (the pages), so the
     * fields a key does touch, above, stay in fewer cache lines. */
    lobby_t lobby;
    /* Keys typed while the lobby waits for an answer ("One moment..."):
     * kept, up to SESS_WAIT_KEYS, and played in order once it has it, if
     * it is still on a page of the lobby that takes keys, not a prompt,
     * and the answer said nothing went wrong (sess_play_waited_keys): a
     * typist's "s h" loses nothing, a password typed on after a login
     * never reaches its name prompt (docs/telnet.md, "What the server
     * negotiates"). Lobby-only, with it at the end. */
    int wait_keys[SESS_WAIT_KEYS];
    uint8_t nwait_keys;
} sess_t;

/* What each state does; NULL members do nothing. session_states.c. */
typedef struct sess_state_ops {
    const char *name;
    /* Sets the state's data up (st is zeroed before). Returns 0, or -1:
     * the session goes to the lobby instead (enter said why in a note). */
    int (*enter)(sess_t *s, void *arg);
    /* Releases the state's data and does what leaving means (a game is
     * recorded or kept, watchers are told). */
    void (*leave)(sess_t *s);
    void (*key)(sess_t *s, int key);
    /* Returns 1 if the message was handled; else the core's default. */
    int (*msg)(sess_t *s, smsg_t *m);
    void (*draw)(sess_t *s, screen_t *next);
    /* Once a second. */
    void (*sweep)(sess_t *s, uint64_t now_ms);
    /* Whether key opens the options screen over this state (docs/game.md);
     * NULL: it never opens here. */
    int (*opens_options)(const sess_t *s, int key);
    /* A binary upgrade takes the game to a new process: the store is
     * brought up to date, the summary (with its watchers, moved out) is
     * returned and the game is not this session's to end any more. NULL
     * (no such op, or no game that goes on): the session moves as in the
     * lobby. end: the new process plays by other rules (GAME_VERSION):
     * the game ends here for that cause, recorded as the session closes,
     * its watchers wait for the player's next game (follow_keep), and
     * NULL is returned. */
    msg_game_t *(*hand_off)(sess_t *s, const char *end);
    /* A read has come (the key not yet decoded): asks the memory for the
     * state's lines a key is about to touch, so that their misses overlap
     * the telnet and key decoding (docs/performance.md, "A key's cold
     * lines"). Only prefetches: changes nothing. NULL: nothing to ask. */
    void (*warm)(const sess_t *s);
} sess_state_ops_t;

const sess_state_ops_t *sess_state_ops(int state);

/* An overlay: a screen over whatever state the session is in (the options
 * screen), which takes keys and draws before the state while it is open.
 * The core asks each of sess_overlays (session_states.c) in turn. */
typedef struct sess_overlay_ops {
    const char *name;
    /* Returns 1 if the key was the overlay's (it opened, or is open). */
    int (*key)(sess_t *s, int key);
    /* Draws into next if open: 1, and the state draws nothing. */
    int (*draw)(sess_t *s, screen_t *next);
} sess_overlay_ops_t;

/* The overlays, NULL-ended. */
extern const sess_overlay_ops_t *const sess_overlays[];

/* --- the core (session.c, session_admit.c, session_input.c,
 * session_output.c) -------------------------------------------------------- */

/* Makes a session of an accepted socket (the host's acceptor handed it to
 * this loop; taken): acc says how it came (msg.h: telnet, the browser's
 * HTTP and WebSocket, or an SSH player's libssh session from the bridge's
 * thread with the player's address: acc->conn, taken). Refuses it (one line, close) when
 * the server is full or shutting down. */
void sess_accept(srv_t *srv, int fd, msg_accept_t *acc);

/* Moves s to `state` (leave, then enter with arg). */
void sess_goto(sess_t *s, int state, void *arg);

/* Asks for the session to be closed in the render phase. graceful: say
 * `message` (may be NULL), restore the terminal, flush and shut the socket
 * down (bounded by a deadline); otherwise drop it at once. A second request
 * changes nothing, except that a forced one wins over a graceful one. */
void sess_close(sess_t *s, const char *reason, int graceful,
                const char *message);

/* sess_close, graceful, because the server goes away (an upgrade that
 * cannot move it): a browser's page is told so (close code 1001) and
 * connects again by itself, as at a shutdown. */
void sess_close_away(sess_t *s, const char *reason, const char *message);

/* In the render phase only: closes s at once, without a word, its socket
 * closed before this returns (a session moved by an upgrade: the new
 * process has its own descriptor for the connection). */
void sess_close_now(sess_t *s, const char *reason);

/* 1 once a close was asked for: no more input is taken. */
int sess_closing(const sess_t *s);

/* The session owes its client a frame: drawn in the render phase. */
void sess_owe_frame(sess_t *s);

/* Redraw everything from scratch at the next frame (Ctrl-L, Ctrl-R). */
void sess_repaint(sess_t *s);

/* The render phase's work for one marked session: the requested close, or
 * the frame it owes, then its output written (server.c calls it). */
void sess_phase(sess_t *s);

/* A message for this session (the render phase delivers it). Takes m. */
void sess_deliver(sess_t *s, smsg_t *m);

/* The once-a-second check: idle warning and timeout, keepalive, the
 * state's own sweep. */
void sess_sweep(sess_t *s, uint64_t now_ms);

/* Sends bytes to the client through telnet (IAC doubled): gathered in the
 * session's own buffer, written in the render phase. */
void sess_send(sess_t *s, const void *data, size_t len);

/* Writes the frames the render phase left in the loop's outbox (outbox.h),
 * in order: at the phase's end, and before any write that must follow
 * one of them. */
void sess_outbox_drain(srv_t *srv);

/* The loop's clock. */
uint64_t sess_now(const sess_t *s);

/* A password check (a login, a registration, a password change) from this
 * session, counted against its address (addr_limits.h): returns 0 when it
 * may go (sess_hash_end when it is answered or cannot start), -1 when the
 * address has its share in flight. sess_hash_end does nothing if none is
 * counted; closing the session ends it too. */
int sess_hash_begin(sess_t *s);
void sess_hash_end(sess_t *s);

/* Rebuilds a game for this session (rebuild.h: the answer is MSG_REBUILT
 * with a = job; src taken), cancelling the one before. Returns 0, or a
 * refusal for rebuild_refusal. sess_rebuild_cancel: the session no longer
 * waits for it (freeing the session cancels it too). */
int sess_rebuild(sess_t *s, int64_t job, msg_game_t *src, int record);

/* The session has left the stages before the lobby (or is gone): no
 * longer counted among the startups (startups.h), its address's too
 * (srv_startup_end). Once only. */
void sess_startup_done(sess_t *s);
void sess_rebuild_cancel(sess_t *s);

/* The name of the player on this session (the account's or the guest's). */
const char *sess_player_name(const sess_t *s);

/* Posts a message from this session to session `to` (text printf-style,
 * may be NULL); game (may be NULL) passes to the message. Returns 0, or -1
 * (OOM: logged; game freed). */
int sess_post(sess_t *s, int type, uint64_t to, int64_t a, msg_game_t *game,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* --- drawing (session_render.c) -------------------------------------------- */

/* Draws the session's state and writes the difference from what the
 * client shows, ended by the frame marker; skipped (owed still) while the
 * client's output is backed up. Only the render phase calls it. */
void sess_render(sess_t *s);

/* Draws game g into next for this session (the states' draw calls it, not
 * view_draw): over the frame the client shows when that is possible, so
 * only what changed is drawn (view_cache.h). */
void sess_view_draw(sess_t *s, const game_t *g, screen_t *next);

/* --- what a browser's page is told (session_page.c) --- */

/* After a change of state: a play page's WebSocket gets "state NAME"
 * (lobby, playing, watching, replay) when the name differs from the one
 * it had last, for its key bar (docs/telnet.md, "The browser"). Nothing
 * for telnet, SSH or a site page's terminal. */
void sess_tell_state(sess_t *s);

/* A site page's terminal (site_page) in the lobby, with no watch or
 * replay on its way: its watch or replay is over, and the session is
 * closed (gracefully: the lobby's note or what ended, as its goodbye)
 * rather than shown the lobby. Returns 1 when it closed it. */
int sess_site_page_done(sess_t *s);

/* --- a browser guest's game across a drop (session_guest.c) --- */

/* A browser guest's game begins or resumes: the page gets its token (a
 * text message "token T") to resume it with after a drop. */
void sess_guest_started(sess_t *s);

/* In the lobby: asks session `from` to hand its game over (MSG_TAKEOVER)
 * and waits for it ("One moment..."); the game goes on here when it comes
 * (session_lobby.c). Returns 0, or -1 (not in the lobby, or the message
 * cannot be sent). */
int sess_lobby_take_game(sess_t *s, uint64_t from);

/* The session no longer plays its game (any end: kept, recorded, handed
 * over): it is not the one to take it from any more. A closing session
 * stays the one until sess_guest_closed, after its leave has kept the
 * game. */
void sess_guest_left(sess_t *s);
void sess_guest_closed(sess_t *s);

/* The connection of a browser guest's game in progress ended: keeps the
 * game (moved out of g) for guest_grace, and its watchers (*watchers,
 * *nwatchers: moved too, and each told to wait for the page to come
 * back; the page that comes back has them follow it again). 1 if kept,
 * 0 if not (g and the watchers are then still the caller's: it ends as
 * before). */
int sess_guest_keep(sess_t *s, owned_game_t *g, uint64_t **watchers,
                    int *nwatchers);

/* A page that asked to resume (its "resume T" message) and is in the
 * lobby now: plays on the game kept under T, if there is one, or takes it
 * over from the session still playing it (its old connection, not seen
 * to drop yet). */
void sess_guest_resume(sess_t *s);

/* A page whose takeover (sess_guest_resume) got no game: the session
 * playing it closed as it was asked, and kept the game under the token.
 * 1 if that game plays on here, 0 if there is none (the lobby). */
int sess_guest_take_kept(sess_t *s);

/* A browser page's login across a dropped connection
 * (session_web_login.c; login_tokens.h): a token for the page at a login
 * on it (replacing any it had), none after a logout (the page told to
 * forget it), every one of the account's forgotten as a password
 * change sets the new one (then sess_web_login_issue gives this page a
 * new one), those of the account's closed sessions forgotten at a login
 * that takes its game, the token held or forgotten as its session closes
 * (held for a drop or a server going away, noting whether it closed
 * in_game, so that the page back goes on with the game; gone after a
 * takeover, close.taken_over), a token carried by a
 * binary upgrade taken on again, and a page's "resume T" that is no
 * guest's game tried as a login: 1 if it was one (logged in, or refused
 * for a banned name or, on a host of a cluster the others may not see
 * now, as a token that holds nothing: said), else 0. _ended: the page
 * back with a token that holds nothing is told its visit has ended, and
 * to forget the token. */
void sess_web_login_issue(sess_t *s);
void sess_web_login_ended(sess_t *s);
void sess_web_login_forget(sess_t *s);
void sess_web_login_forget_account(sess_t *s);
void sess_web_login_forget_closed(sess_t *s);
void sess_web_login_closed(sess_t *s, int in_game);
void sess_web_login_moved(sess_t *s, const char *token);
int sess_web_login_resume(sess_t *s, const char *token);
/* A page back with a token (s->web->resume), its negotiation over, on a
 * host of a cluster that has not written its first heartbeat since it
 * started (a binary upgrade's new process, a moment): the lobby waits for
 * it, looking again on negotiate_timer (keys kept meanwhile as before the
 * lobby), rather than have the token refused; returns 1 while it waits,
 * else 0. docs/telnet.md, "The browser". */
int sess_web_login_wait(sess_t *s);

/* The account is logged in here (a password, an SSH key, the page's
 * token): its older sessions are asked to hand its game over, then the
 * store for its saved game (session_lobby.c). */
void sess_lobby_logged_in(sess_t *s);

/* The login's lookup has settled (session_saved.c): a p pressed during
 * it plays the game found (none: the load's answer began a game
 * already, through play_if_none); forgotten whatever happened. */
void sess_lobby_play_typed(sess_t *s);

/* As a p pressed now: the game the login's lookup finds (or has found)
 * goes on; none, and the lobby stays (a page back in its game). */
void sess_lobby_play_when_found(sess_t *s);

/* Ends the kept games expired at now (every one if all), recording them
 * as the disconnects they are. */
void sess_guest_sweep(srv_t *srv, uint64_t now, int all);

/* The end screen's keys line for one who watches or replays a game: q
 * (or Esc) leaves; the player's Space or r (a new game) do nothing there
 * (view_end_keys). A site page's terminal has no lobby to go back to
 * (session_page.c): there q ends the page's watch or replay. */
#define SESS_END_KEYS_VIEWER "Esc or q: back to the lobby"
#define SESS_END_KEYS_SITE "Esc or q: leave"
static inline const char *sess_end_keys_viewer(const sess_t *s)
{
    return s->site_page ? SESS_END_KEYS_SITE : SESS_END_KEYS_VIEWER;
}

/* Who set the notice line: the one line over the log is shared, and
 * whoever clears it clears only its own (a state left takes back what it
 * said, never the operator's `say` put over it since). */
enum sess_notice_by {
    SESS_NOTICE_NONE,
    SESS_NOTICE_HOST,     /* the operator: `say`, the shutdown's countdown */
    SESS_NOTICE_SESSION,  /* the session's own: the tip, the idle warning,
                             the game's saving */
    SESS_NOTICE_WATCH,    /* about the game watched: it goes with that game */
};

/* Sets the notice line (printf-style, cut at its 79 bytes), owned by `by`
 * until the player's next key or sess_notice_clear(s, by). Owes no frame:
 * the caller does, when it is not drawing one already. */
void sess_notice(sess_t *s, enum sess_notice_by by, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears the notice line if `by` set it (SESS_NOTICE_NONE: whoever did,
 * as a key does). */
void sess_notice_clear(sess_t *s, enum sess_notice_by by);

/* Writes a host line (who is watched, the replay's speed) black on bg,
 * right-aligned, where it hides no map cell: forms is the line's forms,
 * longest first, NULL-ended, and the first that fits beside the map on
 * row 0 or at the end of a log line is drawn there; when none fits and
 * cover is 1, the shortest over the end of the log's oldest line, and
 * with cover 0 none (view_label_place; on a log row it tells the view
 * cache: view_cache_log_overdrawn). */
void sess_overlay_line(sess_t *s, screen_t *next, const char *const *forms,
                       uint8_t bg, int cover);

/* --- the display and the options screen (session_options.c) --------------- */

/* The negotiation has ended: what the client said it can show (the
 * browser's terminal: UTF-8 and truecolor) becomes the detected display,
 * and the display in use follows unless the player chose otherwise. */
void sess_display_settle(sess_t *s);

/* The player's choice (options.h: an account's from the store at login);
 * the display in use follows it. */
void sess_set_display_choice(sess_t *s, int choice);

/* Keeps the choice for the logged-in account (nothing for a guest). */
void sess_keep_display_choice(sess_t *s);

/* A key for the options screen: opens it where the key does that
 * (docs/game.md), or goes to it while it is open. Returns 1 if the key
 * was the screen's, 0 for the state's own. */
int sess_options_key(sess_t *s, int key);

/* Draws the options screen into next if it is open. Returns 1 if it did
 * (the state draws nothing then). */
int sess_options_draw(sess_t *s, screen_t *next);

/* The display in use changed (session_render.c): the encoder is told and
 * the next frame is painted whole. */
void sess_display_changed(sess_t *s);

/* --- shared by the states ---------------------------------------------------- */

/* Frees a game with its recorder; o is empty afterwards. */
void owned_game_free(owned_game_t *o);

/* --- names (session_names.c) ------------------------------------------------- */

/* The lobby's questions about names (LOBBY_DO_CHECK_GUEST, through its
 * wait; LOBBY_DO_CHECK_NAME, without one): the store asked, its answer
 * given to the lobby. */
void sess_names_act(sess_t *s, int action);

/* 1 if a game on this host is played under name now by another session,
 * or kept for a browser guest's page that may come back to it. */
int sess_name_in_play(sess_t *s, const char *name);

/* --- SSH keys (session_keys.c) ----------------------------------------------- */

/* The lobby's keys actions (LOBBY_DO_KEYS_LIST, _KEY_ADD, _KEY_REMOVE):
 * the pasted line checked (sshkey.h), the store asked, its answer given
 * to the lobby. */
void sess_keys_act(sess_t *s, int action);

/* An SSH connection whose key the bridge checked (acc's account, from the
 * bridge through the host, never from the client): the session is logged
 * in as that account from its start. Does nothing without an account.
 * Call once admitted. */
void sess_ssh_login(sess_t *s, const msg_accept_t *acc);

/* --- a binary upgrade (session_upgrade.c; docs/hosting.md) --------------- */

/* Packs s for a new process: its blob (upgrade_blob.h) appended to out,
 * the session marked moved. A game goes with it when the new process
 * plays by the same rules (new_version: its GAME_VERSION); otherwise the
 * game ends recorded and the player moves to the lobby. Returns 1, or 0 when it cannot move (an SSH
 * player, a browser, one not admitted or closing), or -1 (out of memory:
 * it stays). Stops reading first: no key is taken after its blob. */
int sess_upgrade_pack(sess_t *s, buf_t *out, uint32_t new_version);

/* Makes a session of a socket and its blob from the old process (fd
 * taken): the same id, terminal, player and state; a game is rebuilt from
 * its keys off the loop and repainted. */
void sess_upgrade_accept(srv_t *srv, int fd, const void *blob, size_t len);

/* The new process: this loop has taken every session moved to it
 * (MSG_UPGRADE_SETTLED); the last loop to say so tells every loop
 * (MSG_UPGRADE_READY). */
void sess_upgrade_settled(srv_t *srv);

/* Every moved session is in the directory: the moved games send their
 * summaries to their watchers now (a summary sent sooner could find no
 * one, the watcher's loop not having taken it yet). */
void sess_upgrade_ready(srv_t *srv);

/* A moved game's watchers: their summaries, now or once the upgrade is
 * ready (session_play.c). */
void sess_play_rewatch(sess_t *s);

/* For the upgrade (session_lobby.c): in the lobby, plays on the game of
 * summary src (taken) once it is rebuilt; or asks the store for the
 * account's game in progress, as after a login. */
int sess_lobby_play_summary(sess_t *s, msg_game_t *src);
void sess_lobby_load_progress(sess_t *s);

/* What becomes of s's game if s closes now, for its goodbye: no game
 * going on (none, or over); a guest's, which ends (recorded, or kept a
 * while for a browser's page); an account's, kept for the next login; an
 * account's kept, but some of its keys may not have reached the store
 * (its writes fail now, a batch failed since the game last went whole,
 * or its database has not answered for store_wait_ms or more: one that
 * hangs, store_db_stalled): the turns since the store's last write may
 * be lost.
 * session_play.c. */
enum sess_game_fate {
    SESS_GAME_NONE,
    SESS_GAME_ENDS,
    SESS_GAME_KEPT,
    SESS_GAME_KEPT_BEHIND,
};
enum sess_game_fate sess_play_game_fate(sess_t *s);

/* The bytes of an escape sequence read before a move (session_input.c):
 * decoded as if just read. */
void sess_feed_held(sess_t *s, const void *bytes, size_t n);

/* A key the lobby cannot take while it waits for an answer: kept (the
 * first SESS_WAIT_KEYS; any more are dropped, as a wait of seconds is
 * the store's, not a typist's). */
void sess_keep_waited_key(sess_t *s, int key);

/* The keys kept by sess_keep_waited_key, played in order once the lobby
 * no longer waits (in the phase, before the frame: every answer that ends
 * a wait owes one; and before a key read after the wait ended), while it
 * stays on a page of the lobby that is no prompt and no answer or key
 * said something went wrong; the rest are dropped (a failed login's page
 * is its name prompt: a password typed on must not land there). A key
 * that starts another wait keeps the rest. */
void sess_play_waited_keys(sess_t *s);

/* Forgets them (the session is freed). */
void sess_drop_waited_keys(sess_t *s);

/* --- watchers between games ---------------------------------------------------- */

/* A player's watchers between two games (session_follow.c): when the
 * player goes back to the lobby, the watchers of the game that ended wait
 * (their screen says so) and follow the player into the next game, until
 * they leave or the player does (docs/architecture.md, "Messages between
 * sessions"). The list is the session's, outside any state, because it
 * passes from the game that ended, through the lobby, to the next one. */

/* The game's watchers wait for the next one: takes ids (malloc'd, n of
 * them; ownership passes) and tells each (WATCH_END with a = 1). */
void follow_keep(sess_t *s, uint64_t *ids, int n);

/* The next game begins: moves the waiting watchers out (*ids malloc'd,
 * the caller's; NULL when none). Returns how many. */
int follow_take(sess_t *s, uint64_t **ids);

/* A waiting watcher left (its WATCH_LEAVE). */
void follow_forget(sess_t *s, uint64_t id);

/* The player is gone: every waiting watcher is told (WATCH_END, a = 0,
 * text why) and the list freed. */
void follow_end(sess_t *s, const char *why);

#endif
