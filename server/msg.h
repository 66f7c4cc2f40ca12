/* msg.h - what one session says to another.
 *
 * A session never calls into another session or reads its state: anything
 * that crosses sessions is a message, posted to the loop (srv_post) and
 * delivered to the addressee in the loop's render phase, in the order
 * posted. Only keys and summaries cross, never game memory: a watcher or a
 * new connection rebuilds a game from its seed, options and keys (the
 * record player), as a process on another loop or host would.
 * docs/architecture.md, "Messages", has the conversations.
 *
 * A message to a session that is gone is bounced by the loop: a request
 * gets its refusal back (msg_bounce), anything else is dropped. Messages
 * cross worker loops the same way (the loop delivering one finds its
 * addressee's loop in the directory and posts it to that loop's inbox). No
 * I/O, no libuv: the same messages can later cross hosts. */
#ifndef ROGUE_MSG_H
#define ROGUE_MSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "buf.h"
#include "game.h"
#include "record.h"

enum msg_type {
    /* watcher -> player: let me watch (answer: WATCH_START or WATCH_REFUSED) */
    MSG_WATCH_JOIN = 1,
    /* player -> watcher: your copy starts here (game: the summary; text:
     * the player's name). Also sent when the player starts a new game. */
    MSG_WATCH_START,
    /* -> watcher: there is nothing to watch (text: why) */
    MSG_WATCH_REFUSED,
    /* player -> watcher: I fed my game this key (a) */
    MSG_WATCH_KEY,
    /* watcher -> player: I stop watching */
    MSG_WATCH_LEAVE,
    /* player -> watcher: the watch is over (text: why); a: 0 for good,
     * MSG_WATCH_LOBBY the player is in the lobby, MSG_WATCH_AWAY a
     * browser guest's page dropped (its game kept): the watcher waits for
     * the game to start, or go on, with a MSG_WATCH_START */
    MSG_WATCH_END,
    /* player -> watcher: my game goes on at session a (a takeover) */
    MSG_WATCH_MOVED,
    /* new login -> older session of the account: hand me your game and go
     * (answer: TAKEOVER_DONE); a MSG_TAKEOVER_UNSAVED: go without writing
     * the game (another host went on with it: cluster_single.c) */
    MSG_TAKEOVER,
    /* -> new login: the game (game), or none (game NULL) */
    MSG_TAKEOVER_DONE,
    /* the loop -> a session: a game rebuilt off the loop (rebuilt; a: the
     * job's number, to tell a stale answer from the one awaited) */
    MSG_REBUILT,
    /* the host -> a worker loop (to 0): a socket to make a session of
     * (a: the descriptor, owned by the message until taken; accept: how
     * it came) */
    MSG_CONNECTION,
    /* the host -> a worker loop (to 0): shut down (text: why) */
    MSG_SHUTDOWN,
    /* The operator's console (server/ops/ctl.h), host -> a worker loop (to
     * 0; from: the console's request number): list the sessions, say
     * text to each, close session a, take the reloadable keys of cfg, give
 * its figures.
     * The loop answers on the host's inbox: CTL_LINE per line of the
     * answer (who's: a row as data, in who), then CTL_END (a: how many
     * it concerned). */
    MSG_CTL_WHO,
    MSG_CTL_SAY,
    MSG_CTL_KICK,
    MSG_CTL_RELOAD,
    MSG_CTL_STATS,            /* the loop's figures, for /metrics */
    MSG_CTL_LINE,
    MSG_CTL_END,
    /* the host -> a worker loop (to 0): a binary upgrade: pack every
     * session for the new process (server/ops/upgrade.h; a: its core's
     * GAME_VERSION) */
    MSG_UPGRADE,
    /* the new process of a binary upgrade, to every loop (to 0), after
     * every moved session was posted: SETTLED once this loop has taken
     * its own (its inbox is in order); the last loop to settle posts
     * READY to all: every moved session is in the directory now, so the
     * watchers a moved game sends its summary to can be found */
    MSG_UPGRADE_SETTLED,
    MSG_UPGRADE_READY
};

/* A game in progress, as much as rebuilds it and goes on recording it. */
typedef struct msg_game {
    uint64_t seed;
    game_options_t opt;
    int64_t started;          /* Unix seconds */
    buf_t keys;               /* the recorder's key bytes so far */
    buf_t checks;             /* and its checks */
    uint8_t progress_begun;   /* the store has the game's begin... */
    size_t progress_sent;     /* ...and this many of its key bytes */
    int64_t claim;            /* ...as the login of this claim (store.h) */
    uint64_t *watchers;       /* TAKEOVER_DONE: who watches it */
    int nwatchers;
    /* The latest snapshot, if the game has one: the game after its first
     * snap_keys keys (snap_pos bytes of keys), so that a rebuild replays
     * only the tail. NULL for none; owned. */
    game_t *snap;
    uint32_t snap_keys;
    size_t snap_pos;
    uint8_t rewatch;          /* a binary upgrade's: the watchers wait for a
                                 WATCH_START (session_upgrade.c) */
} msg_game_t;

/* A game rebuilt from a summary by the record player (rebuild.h). */
typedef struct msg_rebuilt {
    int err;                  /* RECORD_OK, or why it did not rebuild */
    game_t *game;             /* RECORD_OK: the game */
    record_t rec;             /* a recorder that goes on, if one was asked */
    msg_game_t *src;          /* the summary it was rebuilt from */
} msg_rebuilt_t;

/* MSG_TAKEOVER's a: let go without writing the game (cluster_single.c). */
#define MSG_TAKEOVER_UNSAVED 1

/* How an accepted connection came, as MSG_CONNECTION carries it. */
enum msg_accept_kind {
    ACCEPT_TELNET,            /* the telnet port */
    ACCEPT_WEB,               /* the browser's port (http_port) */
    ACCEPT_SSH,               /* an SSH connection from the bridge's
                                 thread, logged in (conn, io) */
    ACCEPT_UPGRADE            /* a session handed over by the old process
                                 of a binary upgrade, with its blob */
};

typedef struct msg_accept {
    int kind;                 /* enum msg_accept_kind */
    char addr[96];            /* ACCEPT_SSH: the player's "ip:port" */
    struct sockaddr_storage peer; /* ACCEPT_TELNET, ACCEPT_WEB: the
                                 address accept() gave (family 0: none);
                                 a peer that has hung up already (a
                                 balancer's health check) has none to
                                 ask for later */
    int64_t account_id;       /* ACCEPT_SSH after a key login: the account
                                 the bridge checked; else 0 */
    char name[32];            /* its name, as the bridge gave it */
    int display;              /* its kept display choice */
    uint8_t *blob;            /* ACCEPT_UPGRADE: the session's blob
                                 (upgrade_blob.h); owned by the message */
    size_t blob_len;
    void *conn;               /* ACCEPT_SSH: the connection (ssh_play.h),
                                 the message's until a session takes it */
    const struct byte_io *io; /* conn's table (byte_io.h) */
} msg_accept_t;

/* MSG_WATCH_END's a: why the watcher waits (0: it does not, the watch
 * is over). */
enum { MSG_WATCH_LOBBY = 1, MSG_WATCH_AWAY = 2 };

typedef struct smsg {
    struct smsg *next;
    uint16_t type;            /* enum msg_type */
    uint64_t from, to;        /* session ids */
    int64_t a;                /* a key, a session id */
    char text[96];            /* a line for a player, or a name */
    msg_game_t *game;         /* owned by the message */
    msg_rebuilt_t *rebuilt;   /* owned by the message */
    msg_accept_t *accept;     /* MSG_CONNECTION; owned by the message */
    struct config *cfg;       /* MSG_CTL_RELOAD; owned by the message */
    struct ctl_who_row *who;  /* MSG_CTL_LINE of a `who`: one session's
                                 row (server/ops/ctl.h), which the console
                                 sorts and formats; owned by the message */
} smsg_t;

/* A message queue, first in first out. */
typedef struct msgq {
    smsg_t *head, *tail;
    size_t len;
} msgq_t;

/* A new message (text: printf-style, may be NULL). NULL on OOM. */
smsg_t *msg_new(int type, uint64_t from, uint64_t to, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same with a va_list. */
smsg_t *msg_newv(int type, uint64_t from, uint64_t to, const char *fmt,
                 va_list ap) __attribute__((format(printf, 4, 0)));

/* A copy of a game's summary: its recorder's keys and checks (copied),
 * seed, options and start. NULL on OOM. */
msg_game_t *msg_game_new(uint64_t seed, const game_options_t *opt,
                         int64_t started, const buf_t *keys,
                         const buf_t *checks);

void msg_game_free(msg_game_t *g);

void msg_rebuilt_free(msg_rebuilt_t *r);

/* Frees the message and what it owns. NULL is fine. */
void msg_free(smsg_t *m);

/* The answer the loop gives the sender of m when m's addressee is gone:
 * a refusal for a request, a watcher's leave for a WATCH_START, NULL for
 * anything else. */
smsg_t *msg_bounce(const smsg_t *m);

void msgq_push(msgq_t *q, smsg_t *m);
smsg_t *msgq_pop(msgq_t *q);
void msgq_free(msgq_t *q);

/* The type's name, for the log. */
const char *msg_type_name(int type);

#endif
