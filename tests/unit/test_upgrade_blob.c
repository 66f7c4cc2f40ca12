/* test_upgrade_blob.c - a session's blob for a binary upgrade
 * (server/ops/upgrade_blob.h): every field comes back as it went, for
 * each state; and the decoder refuses what is not a whole, sane blob:
 * every cut, every single-byte change that makes a field wrong, lengths
 * past their room, trailing bytes, non-printable strings, a list of the
 * watchers waiting for the next game of a bad count or beside a game;
 * a site page's mark carried (RGU4), and the previous binary's blob
 * still read, byte for byte; plus the
 * SCM_RIGHTS records it travels in (upgrade_wire.h) over a socketpair,
 * and the new process's reading of them (upgrade_receive): a listener of
 * a kind it does not know (a later binary's) is closed and the handover
 * goes on. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check_main.h"
#include "le_bytes.h"
#include "upgrade.h"
#include "upgrade_blob.h"
#include "upgrade_wire.h"

static const uint8_t keys[] = { 'h', 'j', 'k', 'l', '.', 0x81, 0x01 };
static const uint8_t checks[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static uint64_t watchers[] = { 7, 0x0102030405060708ULL };

static upgrade_sess_t playing(void)
{
    upgrade_sess_t u;
    memset(&u, 0, sizeof u);
    u.kind = UPB_WEB;
    u.state = UPB_PLAYING;
    u.id = 42;
    strcpy(u.addr, "127.0.0.1:4242");
    strcpy(u.ip, "127.0.0.1");
    u.w = 132;
    u.h = 43;
    strcpy(u.ttype, "XTERM-256COLOR");
    u.glyphs = 1;
    u.colours = 2;
    u.display_choice = 3;
    u.account_id = 9;
    strcpy(u.account, "dave");
    strcpy(u.guest, "");
    strcpy(u.token, "0123456789abcdef0123456789abcdef");
    u.nheld = 2;
    u.held[0] = 0x1b;
    u.held[1] = '[';
    u.seed = 0xdeadbeefcafef00dULL;
    u.ruleset = 2;
    u.started = 1700000000;
    u.keys = keys;
    u.keys_len = sizeof keys;
    u.checks = checks;
    u.checks_len = sizeof checks;
    u.progress_begun = 1;
    u.progress_sent = 5;
    u.nwatchers = 2;
    u.watcher_ids = watchers;
    return u;
}

static void encode(const upgrade_sess_t *u, buf_t *b)
{
    buf_init(b, 0);
    ck_assert_int_eq(upgrade_blob_encode(u, b), 0);
}

/* The handover's byte order: least significant first, only the bytes
 * asked for, and back. */
START_TEST(little_endian_bytes)
{
    uint8_t b[9];
    memset(b, 0xee, sizeof b);
    le_put(b, 0x0102030405060708ull, 8);
    static const uint8_t want[9] = { 8, 7, 6, 5, 4, 3, 2, 1, 0xee };
    ck_assert_mem_eq(b, want, sizeof want);
    ck_assert_uint_eq(le_get(b, 8), 0x0102030405060708ull);
    memset(b, 0xee, sizeof b);
    le_put(b, 0xa1b2c3d4e5ull, 4); /* the high byte is not written */
    static const uint8_t want4[5] = { 0xe5, 0xd4, 0xc3, 0xb2, 0xee };
    ck_assert_mem_eq(b, want4, sizeof want4);
    ck_assert_uint_eq(le_get(b, 4), 0xb2c3d4e5u);
    ck_assert_uint_eq(le_get(b, 1), 0xe5);
}
END_TEST

START_TEST(playing_round_trip)
{
    upgrade_sess_t u = playing(), v;
    buf_t b;
    encode(&u, &b);
    const char *why = "unset";
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_ptr_null(why);
    ck_assert_int_eq(v.kind, UPB_WEB);
    ck_assert_int_eq(v.state, UPB_PLAYING);
    ck_assert_uint_eq(v.id, 42);
    ck_assert_str_eq(v.addr, "127.0.0.1:4242");
    ck_assert_str_eq(v.ip, "127.0.0.1");
    ck_assert_int_eq(v.w, 132);
    ck_assert_int_eq(v.h, 43);
    ck_assert_str_eq(v.ttype, "XTERM-256COLOR");
    ck_assert_int_eq(v.glyphs, 1);
    ck_assert_int_eq(v.colours, 2);
    ck_assert_int_eq(v.display_choice, 3);
    ck_assert_int_eq(v.account_id, 9);
    ck_assert_str_eq(v.account, "dave");
    ck_assert_str_eq(v.guest, "");
    ck_assert_str_eq(v.token, "0123456789abcdef0123456789abcdef");
    ck_assert_int_eq(v.nheld, 2);
    ck_assert_int_eq(v.held[0], 0x1b);
    ck_assert_int_eq(v.held[1], '[');
    ck_assert_uint_eq(v.seed, 0xdeadbeefcafef00dULL);
    ck_assert_int_eq(v.ruleset, 2);
    ck_assert_int_eq(v.started, 1700000000);
    ck_assert_uint_eq(v.keys_len, sizeof keys);
    ck_assert_mem_eq(v.keys, keys, sizeof keys);
    ck_assert_uint_eq(v.checks_len, sizeof checks);
    ck_assert_mem_eq(v.checks, checks, sizeof checks);
    ck_assert_int_eq(v.progress_begun, 1);
    ck_assert_uint_eq(v.progress_sent, 5);
    ck_assert_int_eq(v.nwatchers, 2);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 0), 7);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 1), 0x0102030405060708ULL);
    buf_free(&b);
}
END_TEST

START_TEST(lobby_and_watching_round_trip)
{
    upgrade_sess_t u = playing(), v;
    u.state = UPB_LOBBY;
    u.account_id = 0;
    u.account[0] = '\0';
    strcpy(u.guest, "guest12");
    u.nheld = 0;
    buf_t b;
    encode(&u, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, NULL), 0);
    ck_assert_int_eq(v.state, UPB_LOBBY);
    ck_assert_str_eq(v.guest, "guest12");
    ck_assert_int_eq(v.account_id, 0);
    ck_assert_int_eq(v.nheld, 0);
    ck_assert_uint_eq(v.keys_len, 0); /* no game fields in a lobby's blob */
    /* the watchers waiting for the player's next game */
    ck_assert_mem_eq(b.data, "RGU2", 4);
    ck_assert_int_eq(v.nwatchers, 2);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 0), 7);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 1), 0x0102030405060708ULL);
    buf_free(&b);
    /* none waiting: the blob an older binary writes and reads (RGU1) */
    u.nwatchers = 0;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU1", 4);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, NULL), 0);
    ck_assert_int_eq(v.state, UPB_LOBBY);
    ck_assert_int_eq(v.nwatchers, 0);
    buf_free(&b);
    u.nwatchers = 2;

    u.state = UPB_WATCHING;
    u.player = 17;
    strcpy(u.player_name, "guest3");
    encode(&u, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, NULL), 0);
    ck_assert_int_eq(v.state, UPB_WATCHING);
    ck_assert_uint_eq(v.player, 17);
    ck_assert_str_eq(v.player_name, "guest3");
    /* watching another game, with its own watchers waiting for its next */
    ck_assert_mem_eq(b.data, "RGU2", 4);
    ck_assert_int_eq(v.nwatchers, 2);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 1), 0x0102030405060708ULL);
    buf_free(&b);
}
END_TEST

START_TEST(every_cut_refused)
{
    upgrade_sess_t u = playing(), v;
    buf_t b;
    encode(&u, &b);
    for (size_t n = 0; n < b.len; n++) {
        const char *why = NULL;
        ck_assert_msg(upgrade_blob_decode(b.data, n, 1000, &v, &why) == -1,
                      "a blob cut at %zu of %zu was taken", n, b.len);
        ck_assert_ptr_nonnull(why);
    }
    /* and a byte more */
    ck_assert_int_eq(buf_append(&b, "x", 1), 0);
    const char *why = NULL;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "bytes after the last field");
    buf_free(&b);
}
END_TEST

/* The blob with one byte at offset `at` set to `val`: refused, for why. */
static void expect_refused_with(const upgrade_sess_t *u, size_t at, uint8_t val,
                                const char *want)
{
    buf_t b;
    encode(u, &b);
    ck_assert_uint_lt(at, b.len);
    b.data[at] = (char)val;
    upgrade_sess_t v;
    const char *why = NULL;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_msg(why && strcmp(why, want) == 0, "at %zu: %s, not %s", at,
                  why ? why : "(none)", want);
    buf_free(&b);
}

START_TEST(bad_fields_refused)
{
    upgrade_sess_t u = playing();
    expect_refused_with(&u, 0, 'X', "not an upgrade blob");
    expect_refused_with(&u, 4, UPB_KINDS, "an unknown transport or state");
    expect_refused_with(&u, 5, UPB_STATES, "an unknown transport or state");
    /* the id's 8 bytes at 6..13: all zero is no session */
    upgrade_sess_t z = u;
    z.id = 0;
    buf_t b;
    encode(&z, &b);
    upgrade_sess_t v;
    const char *why = NULL;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "an id or a size out of range");
    buf_free(&b);
    /* addr's length (offset 14) past the string's room */
    expect_refused_with(&u, 14, UPB_STR_MAX, "a string too long");
    /* a control character inside addr */
    expect_refused_with(&u, 15, 0x1b, "a string not printable");
    /* the game's keys: longer than the server's record limit */
    upgrade_sess_t big = u;
    encode(&big, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, sizeof keys - 1, &v,
                                         &why), -1);
    ck_assert_str_eq(why, "a byte run too long");
    buf_free(&b);
    /* checks not whole u32s, progress past the keys, an account id with
     * no name */
    upgrade_sess_t c = u;
    c.checks_len = 6;
    encode(&c, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "checks not whole");
    buf_free(&b);
    c = u;
    c.progress_sent = sizeof keys + 1;
    encode(&c, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "progress past the keys");
    buf_free(&b);
    c = u;
    c.account[0] = '\0';
    encode(&c, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a display or an account out of range");
    buf_free(&b);
    c = u;
    c.w = 0;
    encode(&c, &b);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "an id or a size out of range");
    buf_free(&b);
}
END_TEST

/* The list of the watchers waiting for the player's next game (RGU2):
 * its count is the blob's last field but the ids. */
START_TEST(bad_lobby_watchers_refused)
{
    upgrade_sess_t u = playing();
    u.state = UPB_LOBBY;
    buf_t b;
    encode(&u, &b);
    size_t count_at = b.len - 2 - 2 * 8;
    buf_free(&b);
    /* a count past the ids there are: cut short */
    expect_refused_with(&u, count_at, 3, "cut short");
    /* fewer than there are: bytes left over */
    expect_refused_with(&u, count_at, 1, "bytes after the last field");
    /* none (RGU2 says there are some), or past the bound */
    expect_refused_with(&u, count_at, 0, "a watcher count out of range");
    expect_refused_with(&u, count_at + 1, 0xff, "a watcher count out of range");
    /* RGU2 on a game's blob (its watchers are the game's) */
    upgrade_sess_t g = playing();
    encode(&g, &b);
    ck_assert_mem_eq(b.data, "RGU1", 4);
    b.data[3] = '2';
    upgrade_sess_t v;
    const char *why = NULL;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "waiting watchers beside a game");
    buf_free(&b);
    /* RGU1 with the list after it: an older binary's reading */
    encode(&u, &b);
    b.data[3] = '1';
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "bytes after the last field");
    buf_free(&b);
}
END_TEST

/* A game the store has under a claim (store.h) carries it (RGU3, after
 * the watchers); one under none is the blob an older binary writes and
 * reads (RGU1), and decodes to claim 0. Every cut of it is refused, and
 * a claim that is not one, or beside no game. */
START_TEST(claim_carried)
{
    upgrade_sess_t u = playing(), v;
    u.claim = 0x1122334455667788LL;
    buf_t b;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU3", 4);
    const char *why = "unset";
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_int_eq(v.claim, 0x1122334455667788LL);
    ck_assert_int_eq(v.nwatchers, 2);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 1), 0x0102030405060708ULL);
    for (size_t n = 0; n < b.len; n++)
        ck_assert_int_eq(upgrade_blob_decode(b.data, n, 1000, &v, &why), -1);
    /* its last byte: the claim's highest, negative */
    b.data[b.len - 1] = (char)0x80;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a claim out of range");
    buf_free(&b);
    u.claim = 0;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU1", 4);
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_int_eq(v.claim, 0);
    buf_free(&b);
    /* RGU3 on a lobby's blob */
    upgrade_sess_t l = playing();
    l.state = UPB_LOBBY;
    l.nwatchers = 0;
    encode(&l, &b);
    ck_assert_mem_eq(b.data, "RGU1", 4);
    b.data[3] = '3';
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a claim without a game");
    buf_free(&b);
}
END_TEST

/* A blob as the binary before site pages' marks wrote it (RGU1, byte for
 * byte: a browser watching player 17): still read, and no site page. */
static const uint8_t old_watcher_blob[] = {
    'R', 'G', 'U', '1', UPB_WEB, UPB_WATCHING,
    42, 0, 0, 0, 0, 0, 0, 0,                            /* id */
    14, '1', '2', '7', '.', '0', '.', '0', '.', '1', ':', '4', '2', '4', '2',
    9, '1', '2', '7', '.', '0', '.', '0', '.', '1',
    100, 0, 30, 0,                                      /* 100x30 */
    7, 'b', 'r', 'o', 'w', 's', 'e', 'r',
    1, 2, 0,                                            /* display */
    0, 0, 0, 0, 0, 0, 0, 0,                             /* no account */
    0,                                                  /* account */
    7, 'g', 'u', 'e', 's', 't', '1', '2',               /* guest */
    0,                                                  /* token */
    0,                                                  /* nothing held */
    17, 0, 0, 0, 0, 0, 0, 0,                            /* the player */
    6, 'g', 'u', 'e', 's', 't', '3',
};

START_TEST(previous_format_still_read)
{
    upgrade_sess_t v;
    const char *why = "unset";
    ck_assert_int_eq(upgrade_blob_decode(old_watcher_blob,
                                         sizeof old_watcher_blob, 1000, &v,
                                         &why), 0);
    ck_assert_ptr_null(why);
    ck_assert_int_eq(v.kind, UPB_WEB);
    ck_assert_int_eq(v.state, UPB_WATCHING);
    ck_assert_uint_eq(v.id, 42);
    ck_assert_str_eq(v.addr, "127.0.0.1:4242");
    ck_assert_int_eq(v.w, 100);
    ck_assert_int_eq(v.h, 30);
    ck_assert_str_eq(v.ttype, "browser");
    ck_assert_str_eq(v.guest, "guest12");
    ck_assert_uint_eq(v.player, 17);
    ck_assert_str_eq(v.player_name, "guest3");
    ck_assert_int_eq(v.site_page, UPB_SITE_NONE);
    /* and this binary writes such a session (no site page) the same way,
     * byte for byte, for a binary that knows only RGU1-3 */
    buf_t b;
    encode(&v, &b);
    ck_assert_uint_eq(b.len, sizeof old_watcher_blob);
    ck_assert_mem_eq(b.data, old_watcher_blob, sizeof old_watcher_blob);
    buf_free(&b);
}
END_TEST

/* A site page's terminal (RGU4: flags, then its mark last): a watch
 * page's, and a replay page's in the lobby with the list RGU2 has;
 * every cut refused, a mark out of range or beside a game refused, and a
 * flag this binary does not know. */
START_TEST(site_page_carried)
{
    upgrade_sess_t u = playing(), v;
    u.state = UPB_WATCHING;
    u.player = 17;
    strcpy(u.player_name, "guest3");
    u.nwatchers = 0;
    u.site_page = UPB_SITE_WATCH;
    buf_t b;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU4\x04", 5);
    const char *why = "unset";
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_ptr_null(why);
    ck_assert_int_eq(v.state, UPB_WATCHING);
    ck_assert_uint_eq(v.player, 17);
    ck_assert_str_eq(v.player_name, "guest3");
    ck_assert_int_eq(v.site_page, UPB_SITE_WATCH);
    ck_assert_int_eq(v.nwatchers, 0);
    for (size_t n = 0; n < b.len; n++)
        ck_assert_int_eq(upgrade_blob_decode(b.data, n, 1000, &v, &why), -1);
    b.data[b.len - 1] = UPB_SITES;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a site page out of range");
    b.data[b.len - 1] = UPB_SITE_NONE;
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a site page out of range");
    b.data[b.len - 1] = UPB_SITE_WATCH;
    b.data[4] = 16; /* a later binary's part */
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "an unknown part");
    buf_free(&b);

    u.state = UPB_LOBBY;
    u.site_page = UPB_SITE_REPLAY;
    u.nwatchers = 2;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU4\x05", 5); /* the waiting list too */
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_int_eq(v.state, UPB_LOBBY);
    ck_assert_int_eq(v.site_page, UPB_SITE_REPLAY);
    ck_assert_int_eq(v.nwatchers, 2);
    ck_assert_uint_eq(upgrade_blob_watcher(&v, 1), 0x0102030405060708ULL);
    buf_free(&b);

    /* a site page never plays: the encoder refuses it, and so does the
     * decoder (a game's blob given the flag and the mark by hand) */
    upgrade_sess_t g = playing();
    g.site_page = UPB_SITE_WATCH;
    buf_init(&b, 0);
    ck_assert_int_eq(upgrade_blob_encode(&g, &b), -1);
    g.site_page = UPB_SITE_NONE;
    encode(&g, &b);
    buf_t h;
    buf_init(&h, 0);
    ck_assert_int_eq(buf_append(&h, "RGU4\x04", 5), 0);
    ck_assert_int_eq(buf_append(&h, b.data + 4, b.len - 4), 0);
    ck_assert_int_eq(buf_append(&h, "\x01", 1), 0);
    ck_assert_int_eq(upgrade_blob_decode(h.data, h.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "a site page out of range");
    buf_free(&h);
    buf_free(&b);
}
END_TEST

/* A telnet client in line mode (its DONT ECHO) is carried as RGU4's flag
 * F_LINE, with no byte of its own: the rest as without it, every cut
 * refused; a blob without it keeps its older form; a browser's is refused
 * both ways. */
START_TEST(line_mode_carried)
{
    upgrade_sess_t u = playing(), v;
    u.kind = UPB_TELNET;
    buf_t b;
    encode(&u, &b);
    ck_assert_int_ne(memcmp(b.data, "RGU4", 4), 0); /* without: as before */
    size_t plain = b.len;
    buf_free(&b);
    u.line_mode = 1;
    encode(&u, &b);
    ck_assert_mem_eq(b.data, "RGU4", 4);
    ck_assert_uint_eq(b.data[4] & 8, 8);
    ck_assert_uint_eq(b.len, plain + 1); /* the flags' byte alone */
    const char *why = "unset";
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), 0);
    ck_assert_int_eq(v.line_mode, 1);
    ck_assert_int_eq(v.kind, UPB_TELNET);
    ck_assert_uint_eq(v.keys_len, u.keys_len);
    ck_assert_int_eq(v.claim, u.claim);
    for (size_t n = 0; n < b.len; n++)
        ck_assert_int_eq(upgrade_blob_decode(b.data, n, 1000, &v, &why), -1);
    b.data[5] = UPB_WEB; /* the kind, after the flags: a browser's */
    ck_assert_int_eq(upgrade_blob_decode(b.data, b.len, 1000, &v, &why), -1);
    ck_assert_str_eq(why, "line mode on a browser");
    buf_free(&b);
    u.kind = UPB_WEB;
    buf_init(&b, 0);
    ck_assert_int_eq(upgrade_blob_encode(&u, &b), -1);
    buf_free(&b);
}
END_TEST

START_TEST(encoder_refuses_out_of_bounds)
{
    upgrade_sess_t u = playing();
    buf_t b;
    buf_init(&b, 0);
    ck_assert_int_eq(buf_append(&b, "ab", 2), 0);
    u.state = UPB_STATES;
    ck_assert_int_eq(upgrade_blob_encode(&u, &b), -1);
    u = playing();
    u.nwatchers = UPB_WATCHERS_MAX + 1;
    ck_assert_int_eq(upgrade_blob_encode(&u, &b), -1);
    u.state = UPB_LOBBY;
    ck_assert_int_eq(upgrade_blob_encode(&u, &b), -1);
    ck_assert_uint_eq(b.len, 2); /* left as it was */
    buf_free(&b);
}
END_TEST

/* Random bytes (a fixed generator) never crash the decoder nor pass. */
START_TEST(noise_refused)
{
    uint64_t x = 88172645463325252ULL;
    uint8_t b[256];
    for (int round = 0; round < 20000; round++) {
        size_t n = (size_t)(round % 256);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (uint8_t)x;
        }
        if (n >= 4) /* past the magic, to the fields */
            memcpy(b, round % 2 ? "RGU2" : "RGU1", 4);
        upgrade_sess_t v;
        const char *why = NULL;
        if (upgrade_blob_decode(b, n, 1000, &v, &why) == 0)
            ck_assert_uint_eq(v.id != 0, 1); /* whatever passes is sane */
        else
            ck_assert_ptr_nonnull(why);
    }
}
END_TEST

START_TEST(records_carry_descriptors)
{
    int sv[2], pipefd[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    ck_assert_int_eq(pipe(pipefd), 0);
    upw_timeouts(sv[1], 30000);
    ck_assert_int_eq(upw_send(sv[0], UPW_SESSION, "hello", 5, pipefd[1]), 0);
    ck_assert_int_eq(upw_send(sv[0], UPW_END, "", 0, -1), 0);
    buf_t b;
    buf_init(&b, 64);
    int fd;
    ck_assert_int_eq(upw_recv(sv[1], &b, 64, &fd), UPW_SESSION);
    ck_assert_uint_eq(b.len, 5);
    ck_assert_mem_eq(b.data, "hello", 5);
    ck_assert_int_ge(fd, 0);
    /* the descriptor is the pipe's write end: what goes in comes out */
    ck_assert_int_eq(write(fd, "z", 1), 1);
    char c = 0;
    ck_assert_int_eq(read(pipefd[0], &c, 1), 1);
    ck_assert_int_eq(c, 'z');
    close(fd);
    ck_assert_int_eq(upw_recv(sv[1], &b, 64, &fd), UPW_END);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_int_eq(fd, -1);
    /* a record past the receiver's bound is refused */
    ck_assert_int_eq(upw_send(sv[0], UPW_SESSION, "0123456789", 10, -1), 0);
    ck_assert_int_eq(upw_recv(sv[1], &b, 4, &fd), -1);
    /* the peer gone: -1 */
    close(sv[0]);
    ck_assert_int_eq(upw_recv(sv[1], &b, 64, &fd), -1);
    buf_free(&b);
    close(sv[1]);
    close(pipefd[0]);
    close(pipefd[1]);
}
END_TEST

/* The records an old process sends, read by upgrade_receive: the telnet
 * listener, one of kind 9 (none this binary knows), /metrics', the end.
 * Each "listener" is a pipe's read end: once the receiver has closed its
 * copy (and we ours), the write end's peer is gone. */
START_TEST(unknown_listener_kind_skipped)
{
    int sv[2], telnet[2], unknown[2], metrics[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    ck_assert_int_eq(pipe(telnet), 0);
    ck_assert_int_eq(pipe(unknown), 0);
    ck_assert_int_eq(pipe(metrics), 0);
    const uint8_t kinds[3] = { 0, 9, 4 };
    const int fds[3] = { telnet[0], unknown[0], metrics[0] };
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(upw_send(sv[0], UPW_LISTENER, &kinds[i], 1, fds[i]), 0);
        close(fds[i]);
    }
    const uint8_t next[8] = { 77 };
    ck_assert_int_eq(upw_send(sv[0], UPW_END, next, sizeof next, -1), 0);

    upgrade_in_t in;
    ck_assert_int_eq(upgrade_receive(sv[1], &in), 0);
    ck_assert_int_eq((int)in.next_id, 77);
    ck_assert_int_ge(in.listen_fd[0], 0);
    ck_assert_int_ge(in.listen_fd[4], 0);
    for (int k = 1; k < 4; k++)
        ck_assert_int_eq(in.listen_fd[k], -1);
    /* the unknown kind's copy is closed: its pipe has no reader left */
    signal(SIGPIPE, SIG_IGN);
    ck_assert_int_eq(write(unknown[1], "x", 1), -1);
    ck_assert_int_eq(write(metrics[1], "x", 1), 1); /* kept, read end open */
    close(in.listen_fd[0]);
    close(in.listen_fd[4]);
    upgrade_in_free(&in); /* closes sv[1] */
    buf_t b;
    buf_init(&b, 64);
    int fd;
    ck_assert_int_eq(upw_recv(sv[0], &b, 64, &fd), UPW_READY);
    buf_free(&b);
    close(sv[0]);
    close(telnet[1]);
    close(unknown[1]);
    close(metrics[1]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade_blob");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, little_endian_bytes);
    tcase_add_test(tc, playing_round_trip);
    tcase_add_test(tc, lobby_and_watching_round_trip);
    tcase_add_test(tc, every_cut_refused);
    tcase_add_test(tc, bad_fields_refused);
    tcase_add_test(tc, bad_lobby_watchers_refused);
    tcase_add_test(tc, claim_carried);
    tcase_add_test(tc, previous_format_still_read);
    tcase_add_test(tc, site_page_carried);
    tcase_add_test(tc, line_mode_carried);
    tcase_add_test(tc, encoder_refuses_out_of_bounds);
    tcase_add_test(tc, noise_refused);
    tcase_add_test(tc, records_carry_descriptors);
    tcase_add_test(tc, unknown_listener_kind_skipped);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
