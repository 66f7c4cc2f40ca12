/* record.c - game records: the recorder, the byte format, the replay. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "le_bytes.h"

static const uint8_t magic[4] = { 'R', 'G', 'R', 'C' };

/* Every option, in record order: a new int field of game_options_t is one
 * line at the end (the order is the format; never reorder or remove). A
 * record with fewer options (an older core) leaves the rest at 0, the
 * default; one with more is from a newer core. */
static const size_t opt_fields[] = {
    offsetof(game_options_t, ruleset),
};
#define NOPT (sizeof opt_fields / sizeof opt_fields[0])

#define VARINT_MAX 5

/* --- bytes ---------------------------------------------------------------- */

static size_t varint_put(uint8_t *p, uint32_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Reads a minimal varint of at most 5 bytes holding a uint32 from p[*pos],
 * never past len. Returns 0, or -1. */
static int varint_get(const uint8_t *p, size_t len, size_t *pos, uint32_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < VARINT_MAX; i++) {
        if (*pos >= len)
            return -1;
        uint8_t b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            /* minimal: no zero last byte after the first; fits 32 bits */
            if ((i > 0 && b == 0) || v > UINT32_MAX)
                return -1;
            *out = (uint32_t)v;
            return 0;
        }
    }
    return -1;
}

/* int <-> the uint32 that stores it, without implementation-defined casts. */
static uint32_t int_bits(int v)
{
    return v >= 0 ? (uint32_t)v : UINT32_MAX - (uint32_t)(-(v + 1));
}

static int bits_int(uint32_t u)
{
    return u <= INT32_MAX ? (int)u : -(int)(UINT32_MAX - u) - 1;
}

static uint32_t fnv32(const uint8_t *p, size_t n)
{
    uint32_t h = 0x811c9dc5u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x01000193u;
    }
    return h;
}

static int *opt_ptr(game_options_t *o, size_t i)
{
    return (int *)(void *)((char *)o + opt_fields[i]);
}

static int opt_get(const game_options_t *o, size_t i)
{
    return *(const int *)(const void *)((const char *)o + opt_fields[i]);
}

/* --- the recorder --------------------------------------------------------- */

static int push_check(record_t *r, uint64_t hash)
{
    uint8_t b[4];
    le_put(b, hash & 0xffffffffu, 4);
    return buf_append(&r->checks, b, 4);
}

static void record_blank(record_t *r, size_t limit)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->keys, limit);
    /* one check per CHECK_EVERY keys of at least one byte each, and one at
     * the start: a check never fails for the cap, only for OOM */
    buf_init(&r->checks, (limit / RECORD_CHECK_EVERY + 2) * 4);
}

int record_init(record_t *r, const game_t *g, size_t limit)
{
    record_blank(r, limit ? limit : RECORD_LIMIT_DEFAULT);
    r->game_version = GAME_VERSION;
    r->seed = g->seed;
    r->opt = g->opt;
    if (g->keys != 0 || push_check(r, game_hash(g)) != 0)
        return -1;
    return 0;
}

int record_key(record_t *r, game_t *g, int key)
{
    int rec = !r->truncated && !r->finished;
    int check = rec && (r->nkeys + 1) % RECORD_CHECK_EVERY == 0;
    if (rec) {
        /* room for the key and, if one falls due, its check, before the
         * game moves: a failure truncates at the state before this key */
        uint8_t b[VARINT_MAX];
        size_t n = varint_put(b, int_bits(key));
        static const uint8_t zero[4];
        if (buf_append(&r->keys, b, n) != 0) {
            rec = 0;
        } else if (check && buf_append(&r->checks, zero, 4) != 0) {
            r->keys.len -= n;
            rec = 0;
        }
        if (!rec) {
            r->truncated = 1;
            r->trunc_hash = game_hash(g);
        }
    }
    int took = game_key(g, key);
    if (rec) {
        r->nkeys++;
        if (check)
            le_put((uint8_t *)r->checks.data + r->checks.len - 4,
                   game_hash(g) & 0xffffffffu, 4);
    }
    return took;
}

int record_finish(record_t *r, const game_t *g)
{
    if (r->truncated) {
        r->final_hash = r->trunc_hash;
    } else {
        if (g->keys != r->nkeys)
            return -1;
        r->final_hash = game_hash(g);
    }
    r->finished = 1;
    return 0;
}

/* --- encoding ------------------------------------------------------------- */

int record_encode(const record_t *r, buf_t *out)
{
    if (!r->finished)
        return -1;
    size_t start = out->len;
    uint8_t h[4 + 1 + 3 * VARINT_MAX + 8 + 1 + VARINT_MAX * NOPT];
    size_t n = 0;
    memcpy(h, magic, 4);
    n = 4;
    h[n++] = RECORD_FORMAT;
    n += varint_put(h + n, r->game_version);
    le_put(h + n, r->seed, 8);
    n += 8;
    n += varint_put(h + n, (uint32_t)NOPT);
    for (size_t i = 0; i < NOPT; i++)
        n += varint_put(h + n, int_bits(opt_get(&r->opt, i)));
    h[n++] = r->truncated ? 1 : 0;
    n += varint_put(h + n, r->nkeys);
    if (buf_append(out, h, n) != 0 ||
        buf_append(out, r->keys.data, r->keys.len) != 0)
        goto fail;
    n = varint_put(h, (uint32_t)(r->checks.len / 4));
    if (buf_append(out, h, n) != 0 ||
        buf_append(out, r->checks.data, r->checks.len) != 0)
        goto fail;
    le_put(h, r->final_hash, 8);
    if (buf_append(out, h, 8) != 0)
        goto fail;
    le_put(h, fnv32((const uint8_t *)out->data + start, out->len - start), 4);
    if (buf_append(out, h, 4) != 0)
        goto fail;
    return 0;
fail:
    out->len = start;
    return -1;
}

static int decode_body(const uint8_t *p, size_t len, record_t *r)
{
    size_t pos = 5;
    uint32_t v, nopt, nchecks;
    if (p[4] != RECORD_FORMAT)
        return RECORD_EVERSION;
    if (varint_get(p, len, &pos, &r->game_version) != 0 || len - pos < 8)
        return RECORD_ECORRUPT;
    r->seed = le_get(p + pos, 8);
    pos += 8;
    if (varint_get(p, len, &pos, &nopt) != 0)
        return RECORD_ECORRUPT;
    if (nopt > NOPT)
        return RECORD_EVERSION;
    for (size_t i = 0; i < nopt; i++) {
        if (varint_get(p, len, &pos, &v) != 0)
            return RECORD_ECORRUPT;
        *opt_ptr(&r->opt, i) = bits_int(v);
    }
    if (pos >= len || p[pos] > 1)
        return RECORD_ECORRUPT;
    r->truncated = p[pos++];
    if (varint_get(p, len, &pos, &r->nkeys) != 0 || r->nkeys > len - pos)
        return RECORD_ECORRUPT;
    size_t keys_at = pos;
    for (uint32_t i = 0; i < r->nkeys; i++)
        if (varint_get(p, len, &pos, &v) != 0)
            return RECORD_ECORRUPT;
    if (buf_append(&r->keys, p + keys_at, pos - keys_at) != 0)
        return RECORD_ENOMEM;
    if (varint_get(p, len, &pos, &nchecks) != 0 ||
        nchecks != r->nkeys / RECORD_CHECK_EVERY + 1 || len - pos < 8 ||
        (size_t)nchecks * 4 != len - pos - 8)
        return RECORD_ECORRUPT;
    if (buf_append(&r->checks, p + pos, (size_t)nchecks * 4) != 0)
        return RECORD_ENOMEM;
    pos += (size_t)nchecks * 4;
    r->final_hash = le_get(p + pos, 8);
    r->trunc_hash = r->truncated ? r->final_hash : 0;
    r->finished = 1;
    return RECORD_OK;
}

int record_decode(const void *bytes, size_t len, record_t *r)
{
    const uint8_t *p = bytes;
    record_blank(r, RECORD_ENCODED_MAX);
    /* magic, format, and the trailer are the least a record has */
    if (len < 4 + 1 + 4 || memcmp(p, magic, 4) != 0 || len > RECORD_ENCODED_MAX)
        return RECORD_EFORMAT;
    if (fnv32(p, len - 4) != (uint32_t)le_get(p + len - 4, 4))
        return p[4] != RECORD_FORMAT ? RECORD_EVERSION : RECORD_ECORRUPT;
    int rc = decode_body(p, len - 4, r);
    if (rc != RECORD_OK) {
        record_free(r);
        record_blank(r, RECORD_ENCODED_MAX);
    }
    return rc;
}

int record_next_key(const record_t *r, size_t *pos, int *key)
{
    uint32_t v;
    if (varint_get((const uint8_t *)r->keys.data, r->keys.len, pos, &v) != 0)
        return -1;
    *key = bits_int(v);
    return 0;
}

/* --- the record player ------------------------------------------------- */

static int player_begin(record_player_t *p, uint64_t seed,
                        const game_options_t *opt, record_t *into)
{
    p->game = game_new(seed, opt);
    if (!p->game)
        return p->err = RECORD_ENOMEM;
    if (into && record_init(into, p->game, 0) != 0) {
        record_free(into);
        record_blank(into, 0);
        return p->err = RECORD_ENOMEM;
    }
    p->into = into;
    if (p->nchecks > 0 &&
        (uint32_t)le_get(p->checks, 4) != (uint32_t)game_hash(p->game)) {
        p->drift_at = 0;
        return p->err = RECORD_EDRIFT;
    }
    return RECORD_OK;
}

static void player_blank(record_player_t *p, record_t *into)
{
    memset(p, 0, sizeof *p);
    p->drift_at = -1;
    if (into)
        record_blank(into, 0);
}

int record_player_start(record_player_t *p, const record_t *r, record_t *into)
{
    player_blank(p, into);
    if (r->game_version != GAME_VERSION)
        return p->err = RECORD_EVERSION;
    p->keys = (const uint8_t *)r->keys.data;
    p->keys_len = r->keys.len;
    p->checks = (const uint8_t *)r->checks.data;
    p->nchecks = r->checks.len / 4;
    p->has_final = r->finished;
    p->final_hash = r->final_hash;
    return player_begin(p, r->seed, &r->opt, into);
}

int record_player_start_raw(record_player_t *p, uint64_t seed,
                            const game_options_t *opt, const void *keys,
                            size_t keys_len, const void *checks,
                            size_t checks_len, record_t *into)
{
    player_blank(p, into);
    p->keys = keys;
    p->keys_len = keys_len;
    p->checks = checks;
    p->nchecks = checks ? checks_len / 4 : 0;
    return player_begin(p, seed, opt, into);
}

/* record_player_start_at once p is blank (and p->into set up, if any). */
static int player_at(record_player_t *p, game_t *g, uint32_t fed,
                     const void *keys, size_t keys_len, size_t pos,
                     const void *checks, size_t checks_len)
{
    p->game = g;
    p->keys = keys;
    p->keys_len = keys_len;
    p->pos = pos <= keys_len ? pos : keys_len;
    p->fed = fed;
    p->checks = checks;
    p->nchecks = checks ? checks_len / 4 : 0;
    size_t c = fed / RECORD_CHECK_EVERY;
    if (fed % RECORD_CHECK_EVERY == 0 && c < p->nchecks &&
        (uint32_t)le_get(p->checks + 4 * c, 4) != (uint32_t)game_hash(g)) {
        p->drift_at = fed;
        return p->err = RECORD_EDRIFT;
    }
    return RECORD_OK;
}

int record_player_start_at(record_player_t *p, game_t *g, uint32_t fed,
                           const void *keys, size_t keys_len, size_t pos,
                           const void *checks, size_t checks_len)
{
    player_blank(p, NULL);
    return player_at(p, g, fed, keys, keys_len, pos, checks, checks_len);
}

int record_player_resume_at(record_player_t *p, game_t *g, uint32_t fed,
                            const void *keys, size_t keys_len, size_t pos,
                            const void *checks, size_t checks_len,
                            record_t *into)
{
    player_blank(p, into);
    p->game = g; /* taken whatever follows */
    size_t nchecks = (size_t)fed / RECORD_CHECK_EVERY + 1;
    /* The snapshot must be what it says: the game after exactly the
     * whole varints before pos, with a check for each CHECK_EVERY of
     * them (the last is compared with the game below). */
    const uint8_t *k = keys;
    size_t at = 0;
    uint32_t n = 0, v;
    if (pos > keys_len)
        return p->err = RECORD_ECORRUPT;
    while (at < pos && varint_get(k, pos, &at, &v) == 0)
        n++;
    if (at != pos || n != fed || g->keys != fed || !checks ||
        checks_len < nchecks * 4)
        return p->err = RECORD_ECORRUPT;
    /* the recorder of those keys, as record_init and record_key made it */
    record_blank(into, RECORD_LIMIT_DEFAULT);
    into->game_version = GAME_VERSION;
    into->seed = g->seed;
    into->opt = g->opt;
    into->nkeys = fed;
    if (buf_append(&into->keys, keys, pos) != 0 ||
        buf_append(&into->checks, checks, nchecks * 4) != 0) {
        record_free(into);
        record_blank(into, 0);
        return p->err = RECORD_ENOMEM;
    }
    p->into = into;
    return player_at(p, g, fed, keys, keys_len, pos, checks, checks_len);
}

int record_player_step(record_player_t *p, int *key)
{
    uint32_t v;
    if (p->err != RECORD_OK)
        return p->err;
    if (p->done)
        return 0;
    if (p->pos >= p->keys_len) {
        p->done = 1;
        if (p->has_final && game_hash(p->game) != p->final_hash) {
            p->drift_at = p->fed;
            return p->err = RECORD_EDRIFT;
        }
        return 0;
    }
    if (varint_get(p->keys, p->keys_len, &p->pos, &v) != 0)
        return p->err = RECORD_ECORRUPT;
    int k = bits_int(v);
    if (p->into)
        record_key(p->into, p->game, k);
    else
        game_key(p->game, k);
    p->fed++;
    if (key)
        *key = k;
    size_t c = p->fed / RECORD_CHECK_EVERY;
    if (p->fed % RECORD_CHECK_EVERY == 0 && c < p->nchecks &&
        (uint32_t)le_get(p->checks + 4 * c, 4) != (uint32_t)game_hash(p->game)) {
        p->drift_at = p->fed;
        return p->err = RECORD_EDRIFT;
    }
    return 1;
}

int record_player_run(record_player_t *p, uint32_t max)
{
    int rc;
    uint32_t n = 0;
    while ((rc = record_player_step(p, NULL)) == 1)
        if (max && ++n >= max)
            return 1;
    return rc;
}

game_t *record_player_take(record_player_t *p)
{
    game_t *g = p->game;
    p->game = NULL;
    return g;
}

void record_player_free(record_player_t *p)
{
    game_free(p->game);
    p->game = NULL;
}

/* --- replay and resume ----------------------------------------------------- */

int record_replay(const void *bytes, size_t len, record_replay_t *out,
                  game_t **game_out)
{
    record_t r;
    record_player_t p;
    out->keys_replayed = 0;
    out->drift_at = -1;
    out->final_hash = 0;
    if (game_out)
        *game_out = NULL;
    int rc = record_decode(bytes, len, &r);
    if (rc == RECORD_OK)
        rc = record_player_start(&p, &r, NULL);
    else
        player_blank(&p, NULL);
    if (rc == RECORD_OK)
        rc = record_player_run(&p, 0);
    if (p.game) {
        out->keys_replayed = p.fed;
        out->drift_at = p.drift_at;
        out->final_hash = game_hash(p.game);
        if (game_out && (rc == RECORD_OK || rc == RECORD_EDRIFT))
            *game_out = record_player_take(&p);
    }
    record_player_free(&p);
    record_free(&r);
    return rc;
}

int record_resume(uint64_t seed, const game_options_t *opt, const void *keys,
                  size_t len, game_t **game_out, record_t *rec)
{
    const uint8_t *p = keys;
    size_t pos = 0;
    uint32_t v;
    *game_out = NULL;
    record_blank(rec, 0);
    while (pos < len) /* every varint before any is fed */
        if (varint_get(p, len, &pos, &v) != 0)
            return RECORD_ECORRUPT;
    record_player_t pl;
    int rc = record_player_start_raw(&pl, seed, opt, keys, len, NULL, 0, rec);
    if (rc == RECORD_OK)
        rc = record_player_run(&pl, 0);
    if (rc != RECORD_OK) {
        record_player_free(&pl);
        record_free(rec);
        record_blank(rec, 0);
        return rc;
    }
    *game_out = record_player_take(&pl);
    return RECORD_OK;
}

void record_free(record_t *r)
{
    buf_free(&r->keys);
    buf_free(&r->checks);
}

const char *record_strerror(int err)
{
    switch (err) {
    case RECORD_OK: return "ok";
    case RECORD_EFORMAT: return "not a game record";
    case RECORD_EVERSION: return "a record of another format or core version";
    case RECORD_ECORRUPT: return "a damaged record";
    case RECORD_EDRIFT: return "the replay differs from the record";
    case RECORD_ENOMEM: return "out of memory";
    default: return "unknown record error";
    }
}
