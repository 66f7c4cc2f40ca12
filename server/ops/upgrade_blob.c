/* upgrade_blob.c - a session's blob for a binary upgrade (upgrade_blob.h).
 * Layout: a magic, then the fields in the order of upgrade_sess_t,
 * integers little-endian, strings and byte runs as a length then the
 * bytes. "RGU1": no list of the watchers waiting for the player's next
 * game (what binaries before that list wrote and read); "RGU2": a blob
 * not of a game in progress that ends with that list. A blob that needs
 * no such list is written "RGU1", so that a binary that knows only RGU1
 * still takes it (an upgrade back to an older binary). "RGU4": a byte of
 * flags after the magic says which optional parts follow, each at the
 * place RGU2 and RGU3 put it, then a site page's mark as the last byte.
 * Only a site page's session is written RGU4 (its mark is what the
 * others lack): every other blob is written as before, and a binary that
 * knows only RGU1-3 takes it; such a binary refuses a site page's blob,
 * and that one connection is closed. A telnet client in line mode (its
 * DONT ECHO) is RGU4's flag F_LINE too, with no byte of its own: the
 * rare blob an older binary refuses the same way. */
#include "upgrade_blob.h"

#include <string.h>

#include "le_bytes.h"

#define MAGIC "RGU1"
#define MAGIC_FOLLOWERS "RGU2"
/* a game and the claim the store has it under (store.h), after its
 * watchers: a blob of an older rogued has none (claim 0) */
#define MAGIC_CLAIMED "RGU3"
#define MAGIC_FLAGS "RGU4"
/* RGU4's flags: what RGU2 and RGU3 say alone, a site page's mark, and a
 * telnet client's line mode */
enum { F_FOLLOWERS = 1, F_CLAIMED = 2, F_SITE = 4, F_LINE = 8, F_ALL = 15 };

/* --- encoding ------------------------------------------------------------- */

static int put(buf_t *o, const void *p, size_t n)
{
    return buf_append(o, p, n);
}

static int put_u(buf_t *o, uint64_t v, int bytes)
{
    uint8_t b[8];
    le_put(b, v, bytes);
    return put(o, b, (size_t)bytes);
}

static int put_str(buf_t *o, const char *s)
{
    size_t n = strnlen(s, UPB_STR_MAX);
    if (n >= UPB_STR_MAX)
        return -1;
    return put_u(o, n, 1) | put(o, s, n);
}

static int put_run(buf_t *o, const uint8_t *p, uint32_t n)
{
    return put_u(o, n, 4) | (n ? put(o, p, n) : 0);
}

static int put_ids(buf_t *o, const upgrade_sess_t *u)
{
    int e = put_u(o, u->nwatchers, 2);
    for (int i = 0; i < u->nwatchers; i++)
        e |= put_u(o, u->watcher_ids[i], 8);
    return e;
}

/* The magic, and RGU4's flags: the oldest form that holds the blob. */
static int put_magic(buf_t *o, int flags)
{
    if (flags & (F_SITE | F_LINE))
        return put(o, MAGIC_FLAGS, 4) | put_u(o, (uint64_t)flags, 1);
    return put(o, flags & F_FOLLOWERS ? MAGIC_FOLLOWERS
                  : flags & F_CLAIMED ? MAGIC_CLAIMED : MAGIC, 4);
}

static int encode(const upgrade_sess_t *u, buf_t *o)
{
    int followers = u->state != UPB_PLAYING && u->nwatchers > 0;
    int claimed = u->state == UPB_PLAYING && u->claim > 0;
    int e = put_magic(o, (followers ? F_FOLLOWERS : 0) |
                         (claimed ? F_CLAIMED : 0) |
                         (u->site_page ? F_SITE : 0) |
                         (u->line_mode ? F_LINE : 0)) |
            put_u(o, u->kind, 1) | put_u(o, u->state, 1) | put_u(o, u->id, 8) | put_str(o, u->addr) | put_str(o, u->ip) |
            put_u(o, u->w, 2) | put_u(o, u->h, 2) | put_str(o, u->ttype) |
            put_u(o, u->glyphs, 1) | put_u(o, u->colours, 1) |
            put_u(o, u->display_choice, 1) |
            put_u(o, (uint64_t)u->account_id, 8) | put_str(o, u->account) |
            put_str(o, u->guest) | put_str(o, u->token) |
            put_u(o, u->nheld, 1) |
            (u->nheld ? put(o, u->held, u->nheld) : 0);
    if (u->state == UPB_PLAYING) {
        e |= put_u(o, u->seed, 8) | put_u(o, (uint32_t)u->ruleset, 4) |
             put_u(o, (uint64_t)u->started, 8) |
             put_run(o, u->keys, u->keys_len) |
             put_run(o, u->checks, u->checks_len) |
             put_u(o, u->progress_begun, 1) | put_u(o, u->progress_sent, 8) |
             put_ids(o, u) | (claimed ? put_u(o, (uint64_t)u->claim, 8) : 0);
    } else if (u->state == UPB_WATCHING) {
        e |= put_u(o, u->player, 8) | put_str(o, u->player_name);
    }
    if (followers)
        e |= put_ids(o, u);
    if (u->site_page)
        e |= put_u(o, u->site_page, 1);
    return e;
}

int upgrade_blob_encode(const upgrade_sess_t *u, buf_t *out)
{
    size_t was = out->len;
    if (u->kind >= UPB_KINDS || u->state >= UPB_STATES ||
        u->nheld > UPB_HELD_MAX || u->nwatchers > UPB_WATCHERS_MAX ||
        u->site_page >= UPB_SITES || u->line_mode > 1 ||
        (u->line_mode && u->kind != UPB_TELNET) ||
        (u->site_page && u->state == UPB_PLAYING) || encode(u, out) != 0) {
        out->len = was;
        return -1;
    }
    return 0;
}

/* --- decoding ------------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t left;
    const char *why;
} rd_t;

static int fail(rd_t *r, const char *why)
{
    if (!r->why)
        r->why = why;
    return -1;
}

static const uint8_t *take(rd_t *r, size_t n)
{
    if (r->why || n > r->left) {
        fail(r, "cut short");
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}

static uint64_t get_u(rd_t *r, int bytes)
{
    const uint8_t *b = take(r, (size_t)bytes);
    return b ? le_get(b, bytes) : 0;
}

/* A printable ASCII string of at most UPB_STR_MAX - 1 bytes into out. */
static void get_str(rd_t *r, char out[UPB_STR_MAX])
{
    size_t n = (size_t)get_u(r, 1);
    out[0] = '\0';
    if (n >= UPB_STR_MAX) {
        fail(r, "a string too long");
        return;
    }
    const uint8_t *b = take(r, n);
    if (!b)
        return;
    for (size_t i = 0; i < n; i++)
        if (b[i] < ' ' || b[i] > '~') {
            fail(r, "a string not printable");
            return;
        }
    memcpy(out, b, n);
    out[n] = '\0';
}

static const uint8_t *get_run(rd_t *r, uint32_t *len, size_t max)
{
    *len = (uint32_t)get_u(r, 4);
    if (*len > max) {
        fail(r, "a byte run too long");
        *len = 0;
        return NULL;
    }
    return take(r, *len);
}

/* A count (at most UPB_WATCHERS_MAX, at least `least`) and the ids. */
static void get_ids(rd_t *r, upgrade_sess_t *u, int least)
{
    u->nwatchers = (uint16_t)get_u(r, 2);
    if (!r->why && (u->nwatchers > UPB_WATCHERS_MAX || u->nwatchers < least))
        fail(r, "a watcher count out of range");
    else
        u->watchers = take(r, (size_t)u->nwatchers * 8);
}

static void get_game(rd_t *r, upgrade_sess_t *u, size_t keys_max)
{
    u->seed = get_u(r, 8);
    u->ruleset = (int32_t)(uint32_t)get_u(r, 4);
    u->started = (int64_t)get_u(r, 8);
    u->keys = get_run(r, &u->keys_len, keys_max);
    /* a check per RECORD_CHECK_EVERY keys at most: a key is a byte at least */
    u->checks = get_run(r, &u->checks_len, keys_max + 4);
    u->progress_begun = (uint8_t)get_u(r, 1);
    u->progress_sent = get_u(r, 8);
    get_ids(r, u, 0);
    if (r->why)
        return;
    if (u->ruleset < 0 || u->ruleset > 255)
        fail(r, "a ruleset out of range");
    else if (u->checks_len % 4 != 0)
        fail(r, "checks not whole");
    else if (u->progress_begun > 1 || u->progress_sent > u->keys_len)
        fail(r, "progress past the keys");
}

/* The magic: the optional parts that follow (RGU4 says so in a byte of
 * flags; RGU2 and RGU3 each name one; RGU1 none). */
static int get_magic(rd_t *r)
{
    const uint8_t *m = take(r, 4);
    if (!m)
        return 0;
    if (memcmp(m, MAGIC, 4) == 0)
        return 0;
    if (memcmp(m, MAGIC_FOLLOWERS, 4) == 0)
        return F_FOLLOWERS;
    if (memcmp(m, MAGIC_CLAIMED, 4) == 0)
        return F_CLAIMED;
    if (memcmp(m, MAGIC_FLAGS, 4) != 0) {
        fail(r, "not an upgrade blob");
        return 0;
    }
    int flags = (int)get_u(r, 1);
    /* a later binary's part (a bit this one does not know) cannot be
     * skipped: its length is its own */
    if (!r->why && (flags & ~F_ALL) != 0)
        fail(r, "an unknown part");
    return r->why ? 0 : flags;
}

/* A site page's mark: its terminal watches (state UPB_WATCHING, or the
 * lobby while its watch is on its way) or replays (the lobby: a replay
 * does not move), never plays. */
static void get_site(rd_t *r, upgrade_sess_t *u)
{
    u->site_page = (uint8_t)get_u(r, 1);
    if (!r->why && (u->site_page == UPB_SITE_NONE ||
                    u->site_page >= UPB_SITES || u->state == UPB_PLAYING))
        fail(r, "a site page out of range");
}

int upgrade_blob_decode(const void *b, size_t n, size_t keys_max,
                        upgrade_sess_t *u, const char **why)
{
    rd_t r = { b, n, NULL };
    memset(u, 0, sizeof *u);
    int flags = get_magic(&r);
    int followers = flags & F_FOLLOWERS, claimed = flags & F_CLAIMED;
    u->kind = (uint8_t)get_u(&r, 1);
    u->state = (uint8_t)get_u(&r, 1);
    u->id = get_u(&r, 8);
    get_str(&r, u->addr);
    get_str(&r, u->ip);
    u->w = (uint16_t)get_u(&r, 2);
    u->h = (uint16_t)get_u(&r, 2);
    get_str(&r, u->ttype);
    u->glyphs = (uint8_t)get_u(&r, 1);
    u->colours = (uint8_t)get_u(&r, 1);
    u->display_choice = (uint8_t)get_u(&r, 1);
    u->account_id = (int64_t)get_u(&r, 8);
    get_str(&r, u->account);
    get_str(&r, u->guest);
    get_str(&r, u->token);
    u->nheld = (uint8_t)get_u(&r, 1);
    if (u->nheld > UPB_HELD_MAX)
        fail(&r, "too many held bytes");
    const uint8_t *held = take(&r, u->nheld);
    if (held)
        memcpy(u->held, held, u->nheld);
    if (!r.why && (u->kind >= UPB_KINDS || u->state >= UPB_STATES))
        fail(&r, "an unknown transport or state");
    if (!r.why && (u->id == 0 || u->w == 0 || u->h == 0 ||
                   u->w > UPB_SIZE_MAX || u->h > UPB_SIZE_MAX))
        fail(&r, "an id or a size out of range");
    if (!r.why && (u->glyphs > 1 || u->colours > 2 || u->account_id < 0 ||
                   (u->account_id > 0) != (u->account[0] != '\0')))
        fail(&r, "a display or an account out of range");
    if (u->state == UPB_PLAYING)
        get_game(&r, u, keys_max);
    else if (u->state == UPB_WATCHING) {
        u->player = get_u(&r, 8);
        get_str(&r, u->player_name);
        if (!r.why && u->player == 0)
            fail(&r, "no player to watch");
    }
    if (claimed && !r.why && u->state != UPB_PLAYING)
        fail(&r, "a claim without a game");
    else if (claimed) {
        u->claim = (int64_t)get_u(&r, 8);
        if (!r.why && u->claim <= 0)
            fail(&r, "a claim out of range");
    }
    if (followers && !r.why && u->state == UPB_PLAYING)
        fail(&r, "waiting watchers beside a game");
    else if (followers)
        get_ids(&r, u, 1);
    if (flags & F_SITE)
        get_site(&r, u);
    u->line_mode = (flags & F_LINE) != 0;
    if (!r.why && u->line_mode && u->kind != UPB_TELNET)
        fail(&r, "line mode on a browser");
    if (!r.why && r.left != 0)
        fail(&r, "bytes after the last field");
    if (why)
        *why = r.why;
    return r.why ? -1 : 0;
}

uint64_t upgrade_blob_watcher(const upgrade_sess_t *u, int i)
{
    return le_get(u->watchers + (size_t)i * 8, 8);
}
