/* upgrade_blob.h - one session as a binary upgrade hands it to the new
 * process: a small, bounded blob beside the connection's descriptor
 * (docs/hosting.md, "Upgrading without a goodbye").
 *
 * What it holds is what the takeover's message holds (msg.h: seed,
 * options, keys, checks, how far the store has the game and under which
 * claim) plus what the
 * connection needs to go on talking without a new negotiation: the
 * transport, the terminal's size and name, what it can show, the
 * player's display choice, the account or guest name, the state (lobby,
 * playing, watching), whether it is a site page's terminal, the game's
 * watchers (not playing: those waiting
 * for the player's next game), the watched player, and the
 * bytes of an escape sequence the old process read but had not decoded
 * yet. Pure: no libuv, no session. The decoder trusts nothing: every
 * length is checked against its room and the rest of the blob, every
 * string must be printable ASCII, every enum in range, and nothing may
 * follow the last field. */
#ifndef ROGUE_UPGRADE_BLOB_H
#define ROGUE_UPGRADE_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define UPB_STR_MAX 64         /* a string's room, its NUL included */
#define UPB_HELD_MAX 32        /* undecoded input bytes (KEYDEC_SEQ_MAX) */
#define UPB_WATCHERS_MAX 4096
#define UPB_SIZE_MAX 4096      /* columns or rows */

enum upb_kind { UPB_TELNET = 0, UPB_WEB = 1, UPB_KINDS };
/* UPB_LOBBY_TYPING: the lobby, with a line (a name, a password) being
 * typed: the new process drops the rest of it (lobby_drop_line). A
 * binary older than that state refuses such a blob (an enum out of its
 * range), and that one connection is closed. */
enum upb_state { UPB_LOBBY = 0, UPB_PLAYING = 1, UPB_WATCHING = 2,
                 UPB_LOBBY_TYPING = 3, UPB_STATES };
/* A site page's terminal (site.h's enum site_start, the same numbers):
 * it never shows the lobby (session_page.c). Not in a game. */
enum upb_site { UPB_SITE_NONE = 0, UPB_SITE_WATCH = 1, UPB_SITE_REPLAY = 2,
                UPB_SITES };

typedef struct upgrade_sess {
    uint8_t kind;              /* enum upb_kind */
    uint8_t state;             /* enum upb_state */
    uint64_t id;               /* the session's id: kept, so that watchers
                                  and players still name each other */
    char addr[UPB_STR_MAX];    /* "ip:port" (a balancer's header may have
                                  named it: the socket cannot tell) */
    char ip[UPB_STR_MAX];
    uint16_t w, h;
    char ttype[UPB_STR_MAX];
    uint8_t glyphs, colours;   /* what the client can show (display.h) */
    uint8_t display_choice;    /* the player's (options.h) */
    int64_t account_id;        /* 0: a guest */
    char account[UPB_STR_MAX];
    char guest[UPB_STR_MAX];
    char token[UPB_STR_MAX];   /* a browser guest's resume token ("": none) */
    uint8_t nheld;
    uint8_t held[UPB_HELD_MAX];
    /* UPB_PLAYING: the game, as the takeover's summary has it */
    uint64_t seed;
    int32_t ruleset;
    int64_t started;
    const uint8_t *keys, *checks; /* decoded: into the blob, not copied */
    uint32_t keys_len, checks_len;
    uint8_t progress_begun;
    uint64_t progress_sent;
    int64_t claim;             /* the store's claim it goes on as (0: none;
                                  an older rogued's blob has none) */
    /* UPB_PLAYING: the game's watchers; otherwise those waiting for the
     * player's next game (session_follow.c) */
    uint16_t nwatchers;
    const uint8_t *watchers;   /* decoded: 8 bytes each, little-endian */
    uint64_t *watcher_ids;     /* encoding: the ids (nwatchers) */
    /* UPB_WATCHING */
    uint64_t player;
    char player_name[UPB_STR_MAX];
    uint8_t site_page;         /* enum upb_site (an older rogued's blob has
                                  none: UPB_SITE_NONE) */
    uint8_t line_mode;         /* telnet: the client said DONT ECHO (its
                                  line mode); an older rogued's: 0 */
} upgrade_sess_t;

/* Appends u's blob to out. Returns 0, or -1 (out of memory, or a field
 * out of its bounds: out as it was). */
int upgrade_blob_encode(const upgrade_sess_t *u, buf_t *out);

/* Reads a blob into u (keys, checks and watchers point into b, which
 * must outlive u). keys_max: the longest key record accepted (the
 * server's record_limit). Returns 0, or -1 with why (a static string). */
int upgrade_blob_decode(const void *b, size_t n, size_t keys_max,
                        upgrade_sess_t *u, const char **why);

/* Watcher i of a decoded blob. */
uint64_t upgrade_blob_watcher(const upgrade_sess_t *u, int i);

#endif
