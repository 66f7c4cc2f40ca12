/* export.c - rogued --export: a finished game's record replayed into a
 * ttyrec or an asciicast v2 file, or into its character dump as text
 * (dump.h; export.h). Synchronous: it reads the
 * database through store_db's read-only connection, no loop, no thread. */
#include "export.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "record.h"
#include "screen_diff.h"
#include "store_db.h"
#include "utf8.h"
#include "view.h"

enum { FMT_TTYREC, FMT_ASCIICAST, FMT_DUMP };

/* The recording being written: one frame at a time. */
typedef struct out {
    FILE *f;
    int fmt;
    uint32_t t0;        /* ttyrec: seconds of the first frame */
    unsigned frames;
} out_t;

/* --- asciicast: JSON strings ------------------------------------------------ */

/* Writes bytes as the inside of a JSON string: quote and backslash
 * escaped, control bytes (and DEL) as \u00XX, well-formed UTF-8 as it is,
 * any other byte as U+FFFD (the encoder makes none: a guard). */
static void json_string(FILE *f, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            fputc(c, f);
            i++;
        } else {
            uint32_t cp;
            size_t len = utf8_decode(p + i, n - i, &cp);
            if (len) {
                fwrite(p + i, 1, len, f);
                i += len;
            } else {
                fputs("\\ufffd", f);
                i++;
            }
        }
    }
}

/* --- frames ------------------------------------------------------------------- */

static void le32(FILE *f, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8),
                           (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
    fwrite(b, 1, 4, f);
}

/* One frame of n bytes at t_us microseconds from the start. Errors are
 * the stream's (ferror), seen at the end. */
static void frame(out_t *o, uint64_t t_us, const void *bytes, size_t n)
{
    if (n == 0)
        return;
    if (o->fmt == FMT_TTYREC) {
        le32(o->f, o->t0 + (uint32_t)(t_us / 1000000u));
        le32(o->f, (uint32_t)(t_us % 1000000u));
        le32(o->f, (uint32_t)n);
        fwrite(bytes, 1, n, o->f);
    } else {
        fprintf(o->f, "[%" PRIu64 ".%06" PRIu64 ", \"o\", \"", t_us / 1000000u,
                t_us % 1000000u);
        json_string(o->f, bytes, n);
        fputs("\"]\n", o->f);
    }
    o->frames++;
}

static void header(out_t *o, int64_t id, const store_game_t *g)
{
    if (o->fmt != FMT_ASCIICAST)
        return;
    char title[ACCT_NAME_MAX + STORE_CAUSE_MAX + 96];
    snprintf(title, sizeof title, "rogued game %lld: %s, %s, score %d",
             (long long)id, g->name, g->cause, g->score);
    fprintf(o->f, "{\"version\": 2, \"width\": %d, \"height\": %d, "
            "\"timestamp\": %lld, \"title\": \"", EXPORT_W, EXPORT_H,
            (long long)g->started);
    json_string(o->f, title, strlen(title));
    fputs("\"}\n", o->f);
}

/* --- the replay ---------------------------------------------------------------- */

/* Replays r into o: a frame for the start and for every key that changes
 * the screen, then the end. Returns 0; or -1 (out of memory), or the
 * number of keys fed + 1 when the state first differs from the record's. */
static long long replay(const record_t *r, out_t *o, uint64_t *t_end)
{
    static const char start[] = "\033[?25l";
    char end[32];
    snprintf(end, sizeof end, "\033[0m\033[%d;1H\033[?25h\r\n", EXPORT_H);
    long long rc = -1;
    screen_t shown = { 0 }, next = { 0 };
    buf_t b;
    buf_init(&b, 0);
    term_state_t ts;
    term_state_reset(&ts);
    ts.utf8 = 1;
    /* The record player checks every check of the record, and the end. */
    record_player_t pl;
    int step = record_player_start(&pl, r, NULL);
    if (step == RECORD_EDRIFT) {
        rc = pl.drift_at + 1;
        goto done;
    }
    if (step != RECORD_OK || screen_init(&shown, EXPORT_W, EXPORT_H) != 0 ||
        screen_init(&next, EXPORT_W, EXPORT_H) != 0)
        goto done;
    uint64_t t = 0;
    view_draw(pl.game, &shown);
    if (buf_puts(&b, start) != 0 || screen_paint(&shown, &ts, &b) != 0)
        goto done;
    frame(o, t, b.data, b.len);
    while ((step = record_player_step(&pl, NULL)) == 1) {
        view_draw(pl.game, &next);
        buf_reset(&b);
        if (screen_diff(&shown, &next, &ts, &b) != 0)
            goto done;
        if (b.len) {
            t += EXPORT_FRAME_US;
            frame(o, t, b.data, b.len);
            screen_t tmp = shown;
            shown = next;
            next = tmp;
        }
    }
    if (step == RECORD_EDRIFT) {
        rc = pl.drift_at + 1;
        goto done;
    }
    if (step != RECORD_OK)
        goto done; /* cannot be: decoded whole */
    t += EXPORT_HOLD_US;
    frame(o, t, end, strlen(end));
    *t_end = t;
    rc = 0;
done:
    record_player_free(&pl);
    screen_free(&shown);
    screen_free(&next);
    buf_free(&b);
    return rc;
}

/* --- the output file ------------------------------------------------------------- */

/* Where a recording goes. "-": standard output. A file that exists and is
 * not a regular file (a device such as /dev/full, a fifo) is written in
 * place and never removed. Anything else (a regular file, or no file yet;
 * a symbolic link is followed to what it names) is written to a temporary
 * file beside it, made here, and renamed over it only when whole: a
 * failure removes only that temporary file, and what was there stays. */
typedef struct dest {
    const char *name;          /* as given, for messages */
    char target[PATH_MAX];     /* the file renamed over (symlinks followed) */
    char tmp[PATH_MAX + 96];   /* ours, while it exists; "" otherwise */
    int in_place, to_stdout;
    mode_t mode;               /* the renamed file's permissions */
} dest_t;

static FILE *dest_open(dest_t *d, const char *file, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->name = file;
    if (strcmp(file, "-") == 0) {
        d->to_stdout = 1;
        return stdout;
    }
    struct stat sb;
    int exists = stat(file, &sb) == 0;
    if (!exists && lstat(file, &sb) == 0) {
        snprintf(err, errlen, "cannot write %s: a symbolic link to nowhere",
                 file);
        return NULL;
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        if (S_ISDIR(sb.st_mode)) {
            snprintf(err, errlen, "cannot write %s: it is a directory", file);
            return NULL;
        }
        FILE *f = fopen(file, "wb"); /* a device or a fifo: as it is */
        if (!f)
            snprintf(err, errlen, "cannot write %s: %s", file, strerror(errno));
        d->in_place = 1;
        return f;
    }
    if (exists ? !realpath(file, d->target)
               : strlen(file) >= sizeof d->target) {
        snprintf(err, errlen, "cannot write %s: %s", file,
                 exists ? strerror(errno) : "name too long");
        return NULL;
    }
    if (!exists)
        snprintf(d->target, sizeof d->target, "%s", file);
    mode_t mask = umask(0);
    umask(mask);
    d->mode = exists ? sb.st_mode & 07777 : 0666 & ~mask;
    /* beside the target, so that rename() is atomic: the same directory */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", d->target);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : d->target;
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    snprintf(d->tmp, sizeof d->tmp, "%s%s.%.64s.XXXXXX", slash ? dir : "",
             slash && slash != dir ? "/" : "", base);
    int fd = mkstemp(d->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: cannot make a temporary file "
                 "beside it: %s", file, strerror(errno));
        d->tmp[0] = '\0';
        return NULL;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", file, strerror(errno));
        close(fd);
        unlink(d->tmp);
        d->tmp[0] = '\0';
    }
    return f;
}

/* Closes f; if ok, makes the recording whole at its name (renames the
 * temporary file over the target). On a failure err (if not NULL) says
 * why, and only the temporary file is removed. Returns 0, or -1. */
static int dest_close(dest_t *d, FILE *f, int ok, char *err, size_t errlen)
{
    int werr = ferror(f) ? (errno ? errno : EIO) : 0;
    if (fflush(f) != 0 && !werr)
        werr = errno ? errno : EIO;
    if (d->tmp[0] && !werr && ok &&
        (fchmod(fileno(f), d->mode) != 0 || fsync(fileno(f)) != 0))
        werr = errno;
    if (!d->to_stdout && fclose(f) != 0 && !werr)
        werr = errno ? errno : EIO;
    if (d->tmp[0] && !werr && ok && rename(d->tmp, d->target) != 0)
        werr = errno;
    else if (d->tmp[0] && !werr && ok)
        d->tmp[0] = '\0'; /* it is the target now */
    if (d->tmp[0])
        unlink(d->tmp); /* ours: the only thing ever removed */
    if (werr && err)
        snprintf(err, errlen, "cannot write %s: %s", d->name, strerror(werr));
    return werr || !ok ? -1 : 0;
}

/* --- the command ---------------------------------------------------------------- */

/* The database the server uses: the store key's URL, or the SQLite file
 * in the data directory. */
static void store_where(const config_t *cfg, char *path, size_t len)
{
    if (cfg->store[0])
        snprintf(path, len, "%s", cfg->store);
    else
        snprintf(path, len, "%s/%s", cfg->data_dir, STORE_FILE);
}

/* The game's row and record from the database, or a sentence in err.
 * Returns 0, or 1. */
static int read_game(const config_t *cfg, int64_t id, store_game_t *g,
                     void **bytes, size_t *len, char *err, size_t errlen)
{
    char path[CONFIG_STR_MAX + sizeof STORE_FILE + 1];
    store_where(cfg, path, sizeof path);
    store_db_t *db = sdb_open_read(path, err, errlen);
    if (!db)
        return 1;
    int status = sdb_get_record(db, id, g, bytes, len);
    /* messages name it without a URL's password */
    snprintf(path, sizeof path, "%s", sdb_name(db));
    sdb_close(db);
    if (status == STORE_NOT_FOUND)
        snprintf(err, errlen, "no game %lld in %s (rogued --list-games "
                 "lists every finished game's id)", (long long)id, path);
    else if (status == STORE_NO_RECORD)
        snprintf(err, errlen, "game %lld (%s, %s) was kept without its "
                 "record: there is nothing to replay", (long long)id, g->name,
                 g->cause);
    else if (status != STORE_OK)
        snprintf(err, errlen, "%s: game %lld cannot be read", path,
                 (long long)id);
    return status == STORE_OK ? 0 : 1;
}

/* The dump: the record replayed to its end (every check checked), then
 * the core's dump of that game. Returns as replay: 0, the keys + 1 at a
 * drift, or -1. */
static long long write_dump(const record_t *r, const char *end, out_t *o)
{
    record_player_t pl;
    long long rc = -1;
    int step = record_player_start(&pl, r, NULL);
    if (step == RECORD_OK)
        step = record_player_run(&pl, 0);
    if (step == RECORD_EDRIFT) {
        rc = pl.drift_at + 1;
    } else if (step == 0) {
        size_t n = game_dump(pl.game, end, NULL, 0);
        char *text = malloc(n + 1);
        if (text) {
            game_dump(pl.game, end, text, n + 1);
            rc = fwrite(text, 1, n, o->f) == n ? 0 : -1;
            free(text);
        }
    }
    record_player_free(&pl);
    return rc;
}

/* Decodes and writes; a sentence in err. Returns 0, or 1. */
static int write_game(int64_t id, const store_game_t *g, const void *bytes,
                      size_t len, out_t *o, char *err, size_t errlen)
{
    record_t r;
    int rc = record_decode(bytes, len, &r);
    if (rc != RECORD_OK) {
        snprintf(err, errlen, "game %lld: its record cannot be read: %s",
                 (long long)id, record_strerror(rc));
        record_free(&r);
        return 1;
    }
    if (r.game_version != GAME_VERSION) {
        snprintf(err, errlen, "game %lld was played by game core version %u; "
                 "this rogued replays version %d only", (long long)id,
                 (unsigned)r.game_version, GAME_VERSION);
        record_free(&r);
        return 1;
    }
    uint64_t t_end = 0;
    long long drift;
    if (o->fmt == FMT_DUMP) {
        drift = write_dump(&r, g->cause, o);
    } else {
        header(o, id, g);
        drift = replay(&r, o, &t_end);
    }
    record_free(&r);
    if (drift < 0)
        snprintf(err, errlen, "out of memory");
    else if (drift > 0)
        snprintf(err, errlen, "game %lld: the replay differs from its record "
                 "after %lld keys (the game core changed): not exported",
                 (long long)id, drift - 1);
    return drift != 0;
}

int export_main(const config_t *cfg, const char *id, const char *format,
                const char *file)
{
    char err[768];
    char *end;
    errno = 0;
    long long n = strtoll(id, &end, 10);
    if (errno || end == id || *end || n < 1) {
        fprintf(stderr, "rogued: --export needs a game id (a number from 1, "
                "as rogued --list-games shows), not '%s'\n", id);
        return 2;
    }
    out_t o = { NULL, 0, 0, 0 };
    if (strcmp(format, "ttyrec") == 0) {
        o.fmt = FMT_TTYREC;
    } else if (strcmp(format, "asciicast") == 0) {
        o.fmt = FMT_ASCIICAST;
    } else if (strcmp(format, "dump") == 0) {
        o.fmt = FMT_DUMP;
    } else {
        fprintf(stderr, "rogued: --format must be ttyrec or asciicast (a "
                "recording) or dump (the character dump), not '%s'\n",
                format);
        return 2;
    }
    store_game_t g;
    void *bytes = NULL;
    size_t len = 0;
    if (read_game(cfg, n, &g, &bytes, &len, err, sizeof err) != 0) {
        fprintf(stderr, "rogued: %s\n", err);
        free(bytes);
        return 1;
    }
    dest_t d;
    o.f = dest_open(&d, file, err, sizeof err);
    if (!o.f) {
        fprintf(stderr, "rogued: %s\n", err);
        free(bytes);
        return 1;
    }
    errno = 0;
    o.t0 = g.started > 0 && g.started <= (int64_t)UINT32_MAX - 86400 * 365
           ? (uint32_t)g.started : 0;
    int rc = write_game(n, &g, bytes, len, &o, err, sizeof err);
    free(bytes);
    if (dest_close(&d, o.f, rc == 0, rc == 0 ? err : NULL, sizeof err) != 0)
        rc = 1;
    if (rc != 0) {
        fprintf(stderr, "rogued: %s\n", err);
        return 1;
    }
    const char *to = d.to_stdout ? "standard output" : file;
    if (o.fmt == FMT_DUMP)
        fprintf(stderr, "rogued: game %lld (%s, %s, %d turns) written to %s "
                "as its character dump\n", n, g.name, g.cause, g.turns, to);
    else
        fprintf(stderr, "rogued: game %lld (%s, %s, %d turns) written to %s "
                "as %s: %u frames\n", n, g.name, g.cause, g.turns, to,
                format, o.frames);
    return 0;
}

/* --- rogued --list-games ---------------------------------------------------------- */

int export_list_main(const config_t *cfg, FILE *out)
{
    char path[CONFIG_STR_MAX + sizeof STORE_FILE + 1], err[768];
    store_where(cfg, path, sizeof path);
    store_db_t *db = sdb_open_read(path, err, sizeof err);
    if (!db) {
        fprintf(stderr, "rogued: %s\n", err);
        return 1;
    }
    snprintf(path, sizeof path, "%s", sdb_name(db)); /* no password */
    static store_listed_t page[256];
    int64_t after = 0;
    long long total = 0;
    int n;
    while ((n = sdb_list_games(db, after, 256, page)) > 0) {
        for (int i = 0; i < n; i++) {
            const store_game_t *g = &page[i].game;
            char date[24];
            time_t t = (time_t)g->ended;
            struct tm tm;
            if (!gmtime_r(&t, &tm) ||
                strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm) == 0)
                snprintf(date, sizeof date, "?");
            if (total++ == 0)
                fprintf(out, EXPORT_LIST_HEAD, "ID", "Ended (UTC)", "Player",
                        "Score", "Depth", "Turns", "How it ended");
            fprintf(out, EXPORT_LIST_ROW, (long long)page[i].game_id, date,
                    g->name, g->score, g->depth, g->turns, g->cause,
                    page[i].has_record ? "" : " (no record: cannot be exported)");
            after = page[i].game_id;
        }
    }
    sdb_close(db);
    if (n < 0) {
        fprintf(stderr, "rogued: %s: the games cannot be read\n", path);
        return 1;
    }
    if (fflush(out) != 0) {
        fprintf(stderr, "rogued: cannot write the list: %s\n", strerror(errno));
        return 1;
    }
    if (total == 0)
        fprintf(stderr, "rogued: no game has ended yet in %s\n", path);
    else
        fprintf(stderr, "rogued: %lld game%s in %s; rogued --export ID "
                "--format ttyrec|asciicast|dump FILE writes one\n", total,
                total == 1 ? "" : "s", path);
    return 0;
}
