/* test_export.c - rogued --export (export_main) on a real database: a
 * finished game written by the store, exported as a ttyrec and as an
 * asciicast v2 file. The ttyrec's frame headers must add up to the file;
 * the asciicast must be line-delimited JSON (checked by a small strict
 * parser here) with the header's fields; both, fed to a real terminal
 * emulator (libvterm), must end on exactly the screen view_draw draws for
 * the replayed game. Bad ids, formats, files and games fail with a
 * sentence on stderr. */
#include <check.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>
#include <vterm.h>

#include "check_main.h"
#include "config.h"
#include "dump.h"
#include "export.h"
#include "game.h"
#include "keys.h"
#include "record.h"
#include "screen.h"
#include "store.h"
#include "store_where.h"
#include "utf8.h"
#include "view.h"

static char dir[64], ttyrec[128], cast[128], errpath[128];
static config_t cfg;
static buf_t record_bytes;   /* the game's record, as stored */
static store_game_t row;

/* A game with screens of every kind: the help, moves, the history, the
 * pack, then Q y. */
static void play(game_t *g, record_t *rec)
{
    static const int opening[] = { '?', KEY_ESC, 'P', KEY_ESC, 'i', KEY_ESC };
    for (size_t i = 0; i < sizeof opening / sizeof opening[0]; i++)
        record_key(rec, g, opening[i]);
    for (int i = 0; i < 300 && !game_dead(g); i++)
        record_key(rec, g, "hjklyubn.hhjjkkll"[i % 17]);
    record_key(rec, g, 'Q');
    record_key(rec, g, 'y');
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rogued-export-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(ttyrec, sizeof ttyrec, "%s/game.ttyrec", dir);
    snprintf(cast, sizeof cast, "%s/game.cast", dir);
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    config_defaults(&cfg);
    snprintf(cfg.data_dir, sizeof cfg.data_dir, "%s", dir);
    sw_setup(dir); /* in the pg family, the store key names its database */
    snprintf(cfg.store, sizeof cfg.store, "%s", sw_pg() ? sw_url : "");

    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_opts_t fast = { .pw_ops = crypto_pwhash_OPSLIMIT_MIN,
                          .pw_mem = crypto_pwhash_MEMLIMIT_MIN };
    sw_opts(&fast);
    char err[512];
    store_t *st = store_open(&loop, dir, &fast, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    game_t *g = game_new(42, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, g, 0), 0);
    play(g, &rec);
    memset(&row, 0, sizeof row);
    snprintf(row.name, sizeof row.name, "guest1");
    row.seed = 42;
    row.score = game_score(g);
    row.depth = g->depth;
    row.turns = (int)g->turn;
    snprintf(row.cause, sizeof row.cause, "quit");
    row.started = 1700000000;
    row.ended = 1700000100;
    /* the bytes the store will make of it, for the test's own replay */
    buf_init(&record_bytes, RECORD_ENCODED_MAX);
    ck_assert_int_eq(record_finish(&rec, g), 0);
    ck_assert_int_eq(record_encode(&rec, &record_bytes), 0);
    /* game 1: with its record (the store finishes and encodes it) */
    ck_assert_int_eq(store_end_game(st, &row, g, &rec), 0);
    record_free(&rec);
    /* game 2: without */
    ck_assert_int_eq(store_add_game(st, &row, NULL, 0), 0);
    store_close(st);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
}

static void teardown(void)
{
    buf_free(&record_bytes);
    sw_teardown();
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* export_main with its stderr caught into *msg (malloc'd). */
static int run_export(const config_t *c, const char *id, const char *format,
                      const char *file, char **msg)
{
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errpath, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    close(fd);
    int rc = export_main(c, id, format, file);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(errpath, "rb");
    ck_assert_ptr_nonnull(f);
    *msg = calloc(1, 4096);
    size_t n = fread(*msg, 1, 4095, f);
    (*msg)[n] = '\0';
    fclose(f);
    return rc;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s not written", path);
    struct stat sb;
    ck_assert_int_eq(fstat(fileno(f), &sb), 0);
    unsigned char *p = malloc((size_t)sb.st_size + 1);
    ck_assert_uint_eq(fread(p, 1, (size_t)sb.st_size, f), (size_t)sb.st_size);
    p[sb.st_size] = '\0';
    fclose(f);
    *len = (size_t)sb.st_size;
    return p;
}

/* --- a terminal --------------------------------------------------------------- */

/* 80x25: the recording is drawn at 80x24 and ends with the cursor on the
 * line below it, which a 24-line terminal would scroll into view. */
static VTerm *term_new(void)
{
    VTerm *vt = vterm_new(EXPORT_H + 1, EXPORT_W);
    vterm_set_utf8(vt, 1);
    vterm_screen_reset(vterm_obtain_screen(vt), 1);
    return vt;
}

static uint8_t vt_colour(const VTermColor *c, int fg)
{
    if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
        return COL_DEFAULT;
    ck_assert(VTERM_COLOR_IS_INDEXED(c));
    return c->indexed.idx;
}

/* The terminal's first 24 lines are the final game's screen, cell for
 * cell, and the cursor is on the line below. */
static void assert_final_screen(VTerm *vt)
{
    game_t *g;
    record_replay_t out;
    ck_assert_int_eq(record_replay(record_bytes.data, record_bytes.len, &out,
                                   &g), RECORD_OK);
    screen_t want;
    ck_assert_int_eq(screen_init(&want, EXPORT_W, EXPORT_H), 0);
    view_draw(g, &want);
    VTermScreen *vs = vterm_obtain_screen(vt);
    for (int y = 0; y < EXPORT_H; y++)
        for (int x = 0; x < EXPORT_W; x++) {
            VTermScreenCell vc;
            VTermPos pos = { .row = y, .col = x };
            vterm_screen_get_cell(vs, pos, &vc);
            cell_t got = { vc.chars[0] ? vc.chars[0] : ' ',
                           vt_colour(&vc.fg, 1), vt_colour(&vc.bg, 0), 0, 0 };
            got.attr = (uint8_t)((vc.attrs.bold ? ATTR_BOLD : 0) |
                                 (vc.attrs.underline ? ATTR_UNDERLINE : 0) |
                                 (vc.attrs.reverse ? ATTR_REVERSE : 0));
            cell_t w = *screen_cat(&want, x, y);
            if (memcmp(&w, &got, sizeof w) != 0)
                ck_abort_msg("cell (%d,%d): want U+%04X fg %d bg %d attr %d, "
                             "got U+%04X fg %d bg %d attr %d", x, y,
                             (unsigned)w.ch, w.fg, w.bg, w.attr,
                             (unsigned)got.ch, got.fg, got.bg, got.attr);
        }
    VTermPos cur;
    vterm_state_get_cursorpos(vterm_obtain_state(vt), &cur);
    ck_assert_int_eq(cur.row, EXPORT_H);
    ck_assert_int_eq(cur.col, 0);
    screen_free(&want);
    game_free(g);
}

/* --- ttyrec ---------------------------------------------------------------------- */

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Parses a ttyrec, feeding each frame to vt. Returns the frame count;
 * *last_us: the last frame's time from the first. */
static int check_ttyrec(const unsigned char *p, size_t len, VTerm *vt,
                        uint64_t *last_us)
{
    size_t pos = 0;
    int frames = 0;
    uint64_t first = 0, prev = 0;
    while (pos < len) {
        ck_assert_msg(len - pos >= 12, "a cut frame header at %zu", pos);
        uint32_t sec = le32(p + pos), usec = le32(p + pos + 4);
        uint32_t n = le32(p + pos + 8);
        ck_assert_uint_lt(usec, 1000000);
        ck_assert_uint_gt(n, 0);
        ck_assert_msg(n <= len - pos - 12, "frame %d: %u bytes, %zu left",
                      frames, n, len - pos - 12);
        uint64_t t = (uint64_t)sec * 1000000u + usec;
        if (frames == 0) {
            first = t;
            ck_assert_uint_eq(sec, (uint32_t)row.started);
            ck_assert_uint_eq(usec, 0);
            ck_assert(memcmp(p + pos + 12, "\033[?25l", 6) == 0);
        }
        ck_assert_uint_ge(t, prev);
        prev = t;
        vterm_input_write(vt, (const char *)p + pos + 12, n);
        pos += 12 + (size_t)n;
        frames++;
    }
    ck_assert_uint_eq(pos, len); /* the headers add up to the file */
    *last_us = prev - first;
    return frames;
}

/* --- a strict little JSON reader ------------------------------------------------- */

typedef struct jp {
    const char *p, *end;
} jp_t;

static void ws(jp_t *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' ||
                             *j->p == '\n'))
        j->p++;
}

static int hex4(const char *p, uint32_t *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        *v = *v << 4 | (uint32_t)d;
    }
    return 0;
}

static void put_utf8(buf_t *b, uint32_t cp)
{
    char u[UTF8_MAX_LEN];
    int n = utf8_encode(cp, u);
    ck_assert_int_eq(buf_append(b, u, (size_t)n), 0);
}

/* A JSON string into out (may be NULL): no raw control byte, only JSON's
 * escapes, surrogates in pairs. */
static void jstring(jp_t *j, buf_t *out)
{
    ws(j);
    ck_assert_msg(j->p < j->end && *j->p == '"', "a string expected");
    j->p++;
    for (;;) {
        ck_assert_msg(j->p < j->end, "an unterminated string");
        unsigned char c = (unsigned char)*j->p++;
        if (c == '"')
            return;
        ck_assert_msg(c >= 0x20, "a raw control byte %02x in a string", c);
        if (c != '\\') {
            if (out)
                ck_assert_int_eq(buf_append(out, &c, 1), 0);
            continue;
        }
        ck_assert(j->p < j->end);
        char e = *j->p++;
        uint32_t cp = 0;
        switch (e) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = 8; break;
        case 'f': cp = 12; break;
        case 'n': cp = 10; break;
        case 'r': cp = 13; break;
        case 't': cp = 9; break;
        case 'u':
            ck_assert(j->end - j->p >= 4 && hex4(j->p, &cp) == 0);
            j->p += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                uint32_t lo;
                ck_assert(j->end - j->p >= 6 && j->p[0] == '\\' &&
                          j->p[1] == 'u' && hex4(j->p + 2, &lo) == 0 &&
                          lo >= 0xdc00 && lo <= 0xdfff);
                j->p += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else {
                ck_assert_msg(cp < 0xdc00 || cp > 0xdfff, "a lone surrogate");
            }
            break;
        default:
            ck_abort_msg("a bad escape \\%c", e);
        }
        if (out)
            put_utf8(out, cp);
    }
}

/* A JSON number (the grammar, strictly). */
static double jnumber(jp_t *j)
{
    ws(j);
    const char *s = j->p;
    if (j->p < j->end && *j->p == '-')
        j->p++;
    ck_assert_msg(j->p < j->end && *j->p >= '0' && *j->p <= '9',
                  "a number expected");
    if (*j->p == '0')
        j->p++;
    else
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        ck_assert(j->p < j->end && *j->p >= '0' && *j->p <= '9');
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    char tmp[64];
    ck_assert_int_lt(j->p - s, (long)sizeof tmp);
    memcpy(tmp, s, (size_t)(j->p - s));
    tmp[j->p - s] = '\0';
    return strtod(tmp, NULL);
}

static void expect(jp_t *j, char c)
{
    ws(j);
    ck_assert_msg(j->p < j->end && *j->p == c, "'%c' expected at \"%.20s\"",
                  c, j->p);
    j->p++;
}

static void at_end(jp_t *j)
{
    ws(j);
    ck_assert_msg(j->p == j->end, "trailing bytes: \"%.20s\"", j->p);
}

/* The header line: an object whose every value is a number or a string. */
static void check_header(jp_t *j)
{
    int seen = 0;
    expect(j, '{');
    for (;;) {
        buf_t key, title;
        buf_init(&key, 0);
        buf_init(&title, 0);
        jstring(j, &key);
        buf_append(&key, "", 1);
        expect(j, ':');
        ws(j);
        if (strcmp(key.data, "version") == 0) {
            ck_assert(jnumber(j) == 2), seen |= 1;
        } else if (strcmp(key.data, "width") == 0) {
            ck_assert(jnumber(j) == EXPORT_W), seen |= 2;
        } else if (strcmp(key.data, "height") == 0) {
            ck_assert(jnumber(j) == EXPORT_H), seen |= 4;
        } else if (strcmp(key.data, "timestamp") == 0) {
            ck_assert(jnumber(j) == (double)row.started), seen |= 8;
        } else if (strcmp(key.data, "title") == 0) {
            jstring(j, &title);
            buf_append(&title, "", 1);
            ck_assert_ptr_nonnull(strstr(title.data, "guest1"));
            seen |= 16;
        } else if (*j->p == '"') {
            jstring(j, NULL);
        } else {
            jnumber(j);
        }
        buf_free(&key);
        buf_free(&title);
        ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        expect(j, '}');
        break;
    }
    at_end(j);
    ck_assert_int_eq(seen, 31);
}

/* Parses an asciicast v2 file, feeding each "o" event to vt. Returns the
 * event count; *last_us: the last event's time. */
static int check_cast(const unsigned char *p, size_t len, VTerm *vt,
                      uint64_t *last_us)
{
    const char *s = (const char *)p, *end = s + len;
    ck_assert_msg(len > 0 && s[len - 1] == '\n', "the last line is not ended");
    int lines = 0, events = 0;
    double prev = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        jp_t j = { s, nl };
        if (lines++ == 0) {
            check_header(&j);
        } else {
            buf_t out;
            buf_init(&out, 0);
            expect(&j, '[');
            double t = jnumber(&j);
            ck_assert(t >= prev);
            ck_assert(events > 0 || t == 0);
            prev = t;
            expect(&j, ',');
            buf_t code;
            buf_init(&code, 0);
            jstring(&j, &code);
            ck_assert(code.len == 1 && code.data[0] == 'o');
            buf_free(&code);
            expect(&j, ',');
            jstring(&j, &out);
            expect(&j, ']');
            at_end(&j);
            ck_assert_uint_gt(out.len, 0);
            vterm_input_write(vt, out.data, out.len);
            buf_free(&out);
            events++;
        }
        s = nl + 1;
    }
    *last_us = (uint64_t)(prev * 1e6 + 0.5);
    return events;
}

/* --- the tests ----------------------------------------------------------------- */

START_TEST(both_formats_end_on_the_final_screen)
{
    char *msg;
    ck_assert_int_eq(run_export(&cfg, "1", "ttyrec", ttyrec, &msg), 0);
    ck_assert_ptr_nonnull(strstr(msg, "game 1"));
    free(msg);
    ck_assert_int_eq(run_export(&cfg, "1", "asciicast", cast, &msg), 0);
    free(msg);
    /* the database left as it was found: no -wal, no -shm */
    char side[CONFIG_STR_MAX + 32];
    snprintf(side, sizeof side, "%s/%s-wal", dir, STORE_FILE);
    ck_assert_int_ne(access(side, F_OK), 0);
    snprintf(side, sizeof side, "%s/%s-shm", dir, STORE_FILE);
    ck_assert_int_ne(access(side, F_OK), 0);

    size_t len;
    unsigned char *p = slurp(ttyrec, &len);
    VTerm *vt = term_new();
    uint64_t t1, t2;
    int frames = check_ttyrec(p, len, vt, &t1);
    assert_final_screen(vt);
    vterm_free(vt);
    free(p);

    p = slurp(cast, &len);
    vt = term_new();
    int events = check_cast(p, len, vt, &t2);
    assert_final_screen(vt);
    vterm_free(vt);
    free(p);

    /* the same frames at the same times; paced, not instant */
    ck_assert_int_eq(frames, events);
    ck_assert_uint_eq(t1, t2);
    ck_assert_int_gt(frames, 20);
    ck_assert_uint_eq(t1, (uint64_t)(frames - 2) * EXPORT_FRAME_US +
                              EXPORT_HOLD_US);
}
END_TEST

/* --format dump: the core's character dump of the game the record
 * replays to (dump.h), byte for byte. */
START_TEST(dump_format_writes_the_character_dump)
{
    char path[160], *msg;
    snprintf(path, sizeof path, "%s/game.txt", dir);
    ck_assert_int_eq(run_export(&cfg, "1", "dump", path, &msg), 0);
    ck_assert_ptr_nonnull(strstr(msg, "as its character dump"));
    free(msg);
    size_t len;
    unsigned char *p = slurp(path, &len);
    game_t *g = game_new(42, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, g, 0), 0);
    play(g, &rec);
    size_t n = game_dump(g, NULL, NULL, 0);
    char *want = malloc(n + 1);
    ck_assert_ptr_nonnull(want);
    game_dump(g, NULL, want, n + 1);
    ck_assert_uint_eq(len, n);
    ck_assert(memcmp(p, want, n) == 0);
    ck_assert_ptr_nonnull(strstr(want, "quit on depth 1"));
    free(want);
    free(p);
    record_free(&rec);
    game_free(g);
    /* Game 2 has no record: nothing to make a dump of. */
    ck_assert_int_eq(run_export(&cfg, "2", "dump", path, &msg), 1);
    free(msg);
    /* "-": standard output, named so (not "written to -"); what it
     * writes goes to a file of the test's */
    fflush(stdout);
    int saved = dup(1), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 1);
    close(fd);
    int rc = run_export(&cfg, "1", "dump", "-", &msg);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(msg, "written to standard output as its character "
                              "dump"), "%s", msg);
    free(msg);
    p = slurp(path, &len);
    ck_assert_ptr_nonnull(strstr((char *)p, "quit on depth 1"));
    free(p);
}
END_TEST

/* A game its record leaves alive (a disconnect ended it, not the game):
 * its dump says the end the host recorded, not "alive" (a newcomer QA
 * read "alive on depth 1" beside --list-games' "disconnected"). */
START_TEST(dump_of_a_disconnected_game_says_so)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_opts_t fast = { .pw_ops = crypto_pwhash_OPSLIMIT_MIN,
                          .pw_mem = crypto_pwhash_MEMLIMIT_MIN };
    sw_opts(&fast);
    char err[512], path[160], *msg;
    store_t *st = store_open(&loop, dir, &fast, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    game_t *g = game_new(42, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, g, 0), 0);
    for (int i = 0; i < 3; i++)
        record_key(&rec, g, '.');
    store_game_t gone = row;
    snprintf(gone.cause, sizeof gone.cause, "disconnected (client closed)");
    gone.turns = (int)g->turn;
    /* game 3 (the store takes the game) */
    ck_assert_int_eq(store_end_game(st, &gone, g, &rec), 0);
    record_free(&rec);
    store_close(st);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    snprintf(path, sizeof path, "%s/gone.txt", dir);
    ck_assert_int_eq(run_export(&cfg, "3", "dump", path, &msg), 0);
    free(msg);
    size_t len;
    unsigned char *p = slurp(path, &len);
    ck_assert_msg(strstr((char *)p, "\n\ndisconnected (client closed) on "
                                    "depth 1 after 3 turns; score "),
                  "%s", p);
    free(p);
}
END_TEST

START_TEST(bad_requests_fail_with_a_message)
{
    char *msg;
    const char *bad_ids[] = { "0", "-1", "abc", "1x", "" };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        ck_assert_int_eq(run_export(&cfg, bad_ids[i], "ttyrec", ttyrec, &msg), 2);
        ck_assert_ptr_nonnull(strstr(msg, "game id"));
        ck_assert_ptr_nonnull(strstr(msg, "as rogued --list-games shows"));
        free(msg);
    }
    ck_assert_int_eq(run_export(&cfg, "1", "gif", ttyrec, &msg), 2);
    ck_assert_ptr_nonnull(strstr(msg, "ttyrec or asciicast"));
    free(msg);
    ck_assert_int_eq(run_export(&cfg, "3", "ttyrec", ttyrec, &msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "no game 3"));
    /* where the ids are: not the hall of fame (short quits are not in it) */
    ck_assert_ptr_nonnull(strstr(msg, "(rogued --list-games lists every "
                                      "finished game's id)"));
    free(msg);
    ck_assert_int_eq(run_export(&cfg, "2", "asciicast", cast, &msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "without its record"));
    free(msg);
    ck_assert_int_eq(run_export(&cfg, "1", "ttyrec", "/nonexistent/x.ttyrec",
                                &msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "cannot write /nonexistent/x.ttyrec"));
    free(msg);
    /* a data directory without a database: none is made */
    config_t other = cfg;
    snprintf(other.data_dir, sizeof other.data_dir, "%s/empty", dir);
    ck_assert_int_eq(mkdir(other.data_dir, 0700), 0);
    if (sw_pg()) /* a database with nothing of rogued's: none is made */
        sw_url_for("postgres", other.store, sizeof other.store);
    ck_assert_int_eq(run_export(&other, "1", "ttyrec", ttyrec, &msg), 1);
    ck_assert_msg(strstr(msg, sw_pg() ? "no rogued database" : "no database"),
                  "%s", msg);
    free(msg);
    char db[CONFIG_STR_MAX + 16];
    snprintf(db, sizeof db, "%s/%s", other.data_dir, STORE_FILE);
    ck_assert_int_ne(access(db, F_OK), 0);
    /* nothing written by any of them */
    ck_assert_int_ne(access(ttyrec, F_OK), 0);
    ck_assert_int_ne(access(cast, F_OK), 0);
}
END_TEST

/* A damaged record is refused, and nothing appears at the target. */
START_TEST(damaged_record_refused)
{
    /* game 3: game 1's record with a byte flipped */
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_opts_t fast = { .pw_ops = crypto_pwhash_OPSLIMIT_MIN,
                          .pw_mem = crypto_pwhash_MEMLIMIT_MIN };
    sw_opts(&fast);
    char err[512];
    store_t *st = store_open(&loop, dir, &fast, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    buf_t bad;
    buf_init(&bad, 0);
    ck_assert_int_eq(buf_append(&bad, record_bytes.data, record_bytes.len), 0);
    bad.data[bad.len / 2] ^= 0x55;
    ck_assert_int_eq(store_add_game(st, &row, bad.data, bad.len), 0); /* 3 */
    store_close(st);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    buf_free(&bad);
    char *msg;
    ck_assert_int_eq(run_export(&cfg, "3", "ttyrec", ttyrec, &msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "record cannot be read"));
    free(msg);
    ck_assert_int_ne(access(ttyrec, F_OK), 0);
}
END_TEST

/* --- the output file: what was there stays unless the export is whole ------ */

#define NOBODY 65534

static void put_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_int_eq(chmod(path, mode), 0);
}

static void assert_file(const char *path, const char *text)
{
    size_t len;
    unsigned char *p = slurp(path, &len);
    ck_assert_str_eq((const char *)p, text);
    free(p);
}

/* Files in d whose names start with prefix (a temporary file left?). */
static int count_prefixed(const char *d, const char *prefix)
{
    DIR *dh = opendir(d);
    ck_assert_ptr_nonnull(dh);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dh)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(dh);
    return n;
}

/* Runs fn in a child (as NOBODY if asked); returns its exit status. */
static int in_child(int (*fn)(void), int nobody)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (nobody && getuid() == 0 &&
            (setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
            _exit(90);
        _exit(fn());
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(whole_export_replaces_the_file)
{
    put_file(ttyrec, "old", 0640);
    char *msg;
    ck_assert_int_eq(run_export(&cfg, "1", "ttyrec", ttyrec, &msg), 0);
    free(msg);
    size_t len;
    unsigned char *p = slurp(ttyrec, &len);
    ck_assert_uint_gt(len, 12);
    ck_assert_uint_eq(le32(p), 1700000000u); /* the first frame's seconds */
    free(p);
    struct stat sb;
    ck_assert_int_eq(stat(ttyrec, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 07777, 0640); /* its permissions kept */
    ck_assert_int_eq(count_prefixed(dir, ".game.ttyrec."), 0);
    /* through a symbolic link: the file it names is replaced, the link kept */
    char link[160];
    snprintf(link, sizeof link, "%s/link.cast", dir);
    ck_assert_int_eq(symlink(cast, link), 0);
    put_file(cast, "old", 0600);
    ck_assert_int_eq(run_export(&cfg, "1", "asciicast", link, &msg), 0);
    free(msg);
    ck_assert_int_eq(lstat(link, &sb), 0);
    ck_assert(S_ISLNK(sb.st_mode));
    p = slurp(cast, &len);
    ck_assert_int_eq(p[0], '{');
    free(p);
}
END_TEST

static char ro_dir[128], ro_file[160];

static int export_into_read_only_dir(void)
{
    char *msg;
    int rc = run_export(&cfg, "1", "asciicast", ro_file, &msg);
    int ok = rc == 1 && strstr(msg, "cannot write ") &&
             strstr(msg, "temporary file beside it: Permission denied");
    fprintf(stderr, "%s", msg);
    free(msg);
    return ok ? 0 : 1;
}

START_TEST(read_only_directory_left_as_it_was)
{
    /* the data directory is nobody's; the target's directory root's */
    char db[160];
    snprintf(db, sizeof db, "%s/%s", dir, STORE_FILE);
    ck_assert_int_eq(chown(dir, NOBODY, NOBODY), 0);
    ck_assert_int_eq(chown(db, NOBODY, NOBODY), 0);
    snprintf(ro_dir, sizeof ro_dir, "%s/ro", dir);
    snprintf(ro_file, sizeof ro_file, "%s/old.cast", ro_dir);
    ck_assert_int_eq(mkdir(ro_dir, 0755), 0);
    put_file(ro_file, "old", 0666); /* writable, in a directory that is not */
    ck_assert_int_eq(in_child(export_into_read_only_dir, 1), 0);
    assert_file(ro_file, "old");
    ck_assert_int_eq(count_prefixed(ro_dir, "."), 2); /* . and .. */
}
END_TEST

static char dev_path[160];

static int export_to_full_device(void)
{
    char *msg;
    int rc = run_export(&cfg, "1", "ttyrec", dev_path, &msg);
    int ok = rc == 1 && strstr(msg, "No space left on device");
    fprintf(stderr, "%s", msg);
    free(msg);
    return ok ? 0 : 1;
}

START_TEST(full_device_left_in_place)
{
    /* a /dev/full of our own (char 1,7); /dev/full itself where mknod is
     * not allowed */
    snprintf(dev_path, sizeof dev_path, "%s/full", dir);
    if (mknod(dev_path, S_IFCHR | 0666, makedev(1, 7)) != 0)
        snprintf(dev_path, sizeof dev_path, "/dev/full");
    ck_assert_int_eq(in_child(export_to_full_device, 0), 0);
    struct stat sb;
    ck_assert_int_eq(stat(dev_path, &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
    ck_assert_uint_eq(sb.st_rdev, makedev(1, 7));
    ck_assert_int_eq(count_prefixed(dir, ".full."), 0);
}
END_TEST

static rlim_t fsize_limit;

static int export_past_file_size_limit(void)
{
    /* writes past the limit fail (EFBIG) */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = { fsize_limit, fsize_limit };
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 2;
    char *msg;
    int rc = run_export(&cfg, "1", "asciicast", ttyrec, &msg);
    int ok = rc == 1 && strstr(msg, "cannot write") && strstr(msg, "too large");
    fprintf(stderr, "%s", msg);
    free(msg);
    return ok ? 0 : 1;
}

START_TEST(failed_write_keeps_the_old_file)
{
    /* a limit under the recording's size but above SQLite's 32 KiB -shm
     * file, so that the database is read and the recording is cut */
    char *msg;
    ck_assert_int_eq(run_export(&cfg, "1", "asciicast", cast, &msg), 0);
    free(msg);
    struct stat sb;
    ck_assert_int_eq(stat(cast, &sb), 0);
    ck_assert_int_gt(sb.st_size, 40000);
    fsize_limit = (rlim_t)sb.st_size - 1;
    put_file(ttyrec, "old", 0644);
    ck_assert_int_eq(in_child(export_past_file_size_limit, 0), 0);
    assert_file(ttyrec, "old");
    ck_assert_int_eq(count_prefixed(dir, ".game.ttyrec."), 0);
}
END_TEST

/* --- rogued --list-games ----------------------------------------------------- */

START_TEST(list_games_prints_every_game)
{
    char listpath[160];
    snprintf(listpath, sizeof listpath, "%s/list.txt", dir);
    FILE *f = fopen(listpath, "w");
    ck_assert_ptr_nonnull(f);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errpath, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    dup2(fd, 2);
    close(fd);
    int rc = export_list_main(&cfg, f);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    ck_assert_int_eq(rc, 0);
    char want[1024], line[256];
    int n = snprintf(want, sizeof want, EXPORT_LIST_HEAD, "ID", "Ended (UTC)",
                     "Player", "Score", "Depth", "Turns", "How it ended");
    /* ended 1700000100: 2023-11-14 22:15 UTC */
    snprintf(line, sizeof line, EXPORT_LIST_ROW, 1LL, "2023-11-14 22:15",
             "guest1", row.score, row.depth, row.turns, "quit", "");
    n += snprintf(want + n, sizeof want - (size_t)n, "%s", line);
    snprintf(line, sizeof line, EXPORT_LIST_ROW, 2LL, "2023-11-14 22:15",
             "guest1", row.score, row.depth, row.turns, "quit",
             " (no record: cannot be exported)");
    snprintf(want + n, sizeof want - (size_t)n, "%s", line);
    size_t len;
    unsigned char *got = slurp(listpath, &len);
    ck_assert_str_eq((const char *)got, want);
    ck_assert_ptr_nonnull(strstr(want, "     1  2023-11-14 22:15  guest1 "));
    free(got);
    got = slurp(errpath, &len);
    ck_assert_ptr_nonnull(strstr((const char *)got, "2 games in "));
    free(got);
    /* a data directory without a database: refused, none made */
    config_t other = cfg;
    snprintf(other.data_dir, sizeof other.data_dir, "%s/none", dir);
    ck_assert_int_eq(mkdir(other.data_dir, 0700), 0);
    if (sw_pg())
        sw_url_for("postgres", other.store, sizeof other.store);
    f = fopen(listpath, "w");
    ck_assert_int_eq(export_list_main(&other, f), 1);
    fclose(f);
    char db[CONFIG_STR_MAX + 16];
    snprintf(db, sizeof db, "%s/%s", other.data_dir, STORE_FILE);
    ck_assert_int_ne(access(db, F_OK), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "export (PostgreSQL)" : "export");
    TCase *tc = tcase_create("export");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, both_formats_end_on_the_final_screen);
    tcase_add_test(tc, dump_format_writes_the_character_dump);
    tcase_add_test(tc, dump_of_a_disconnected_game_says_so);
    tcase_add_test(tc, bad_requests_fail_with_a_message);
    tcase_add_test(tc, damaged_record_refused);
    tcase_add_test(tc, whole_export_replaces_the_file);
    if (!sw_pg()) /* the SQLite file's directory */
        tcase_add_test(tc, read_only_directory_left_as_it_was);
    tcase_add_test(tc, full_device_left_in_place);
    tcase_add_test(tc, failed_write_keeps_the_old_file);
    tcase_add_test(tc, list_games_prints_every_game);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
