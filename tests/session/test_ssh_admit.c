/* test_ssh_admit.c - SSH's port admits as telnet's and the browser's do
 * (issue 25, docs/hosting.md, "The network"): an SSH connection holds a slot of
 * max_sessions and a place among the startups from its accept, before its
 * handshake. Silent SSH connections (TCP only, no banner sent, from
 * 127.0.0.2) fill max_sessions so a telnet player is told the server is
 * full, and get in once one has gone; with startups_start = startups_full
 * = 2 a third SSH connection is closed at once, before the server's
 * banner, logged and counted, while past startups_start a fresh address
 * (none of its connections before the lobby) is let in; a guest logged in
 * over SSH (libssh's client) is counted once (/metrics; with
 * max_sessions=1 it gets in, a telnet player is then told the server is
 * full, and gets in once it has gone).
 * The ciphers offered are AES-GCM's alone. Counts and log lines, no
 * timing. */
#include <check.h>
#include <libssh/libssh.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"
#include "ssh_guest.h"

static int sport, metrics;

/* A server with SSH and /metrics on free ports, and the settings given
 * (up to three "key=value"). */
static tsrv_t *start(const char *a, const char *b, const char *c)
{
    static char ssh_set[32], metrics_set[32];
    sport = cl_free_port();
    metrics = cl_free_port();
    snprintf(ssh_set, sizeof ssh_set, "ssh_port=%d", sport);
    snprintf(metrics_set, sizeof metrics_set, "metrics_port=%d", metrics);
    tsrv_t *s = srv_start("--set", ssh_set, "--set", metrics_set, "--set",
                          "ssh_login_grace_ms=60000", "--set",
                          "ssh_unauth_per_ip=0", "--set", a, "--set", b,
                          "--set", c, NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", CL_WAIT_MS));
    return s;
}

/* A TCP connection to SSH's port from src that says nothing, once the
 * server's banner has come (it is in an SSH thread). */
static tclient_t *silent_from(const char *src)
{
    cl_opts_t o = { .raw = 1, .src = src };
    tclient_t *c = cl_connect(sport, &o);
    ck_assert_msg(cl_wait_text(c, "SSH-2.0", CL_WAIT_MS) ||
                  cl_stream_has(c, "SSH-2.0"), "no banner");
    return c;
}

static tclient_t *silent(void)
{
    return silent_from("127.0.0.2");
}

/* A telnet connection from 127.0.0.1 is refused with line: 1 if so. */
static int telnet_refused(const tsrv_t *s, const char *line)
{
    cl_opts_t raw = { .raw = 1 };
    tclient_t *t = cl_connect(srv_port(s), &raw);
    int yes = cl_wait_eof(t, CL_WAIT_MS) && cl_stream_has(t, line);
    cl_close(t);
    return yes;
}

/* One more SSH connection from 127.0.0.2 is closed before the server's
 * banner: 1 if so. */
static int ssh_closed_before_banner(void)
{
    cl_opts_t o = { .raw = 1, .src = "127.0.0.2" };
    tclient_t *c = cl_connect(sport, &o);
    int yes = cl_wait_eof(c, CL_WAIT_MS) && !cl_stream_has(c, "SSH-2.0");
    cl_close(c);
    return yes;
}

START_TEST(silent_ssh_connections_hold_max_sessions)
{
    tsrv_t *s = start("max_sessions=2", "startups_start=0", "max_sessions_per_ip=0");
    tclient_t *held[2] = { silent(), silent() };
    ck_assert(metrics_wait(metrics, "rogued_players_online", 2));
    ck_assert(metrics_is(metrics, "rogued_startups", 2));
    /* a telnet player: told the server is full */
    ck_assert(telnet_refused(s, "Sorry, the server is full (2 players)."));
    ck_assert(srv_wait_log(s, "refused 127.0.0.1:", CL_WAIT_MS));
    ck_assert(srv_log_has(s, ": server full"));
    /* a third SSH connection: closed at once, before the banner */
    ck_assert(ssh_closed_before_banner());
    ck_assert(srv_wait_log(s, ": server full (SSH, 2 players)", CL_WAIT_MS));
    /* one goes: its slot is given back once, and the player gets in */
    cl_close(held[0]);
    ck_assert(srv_wait_log(s, "closed before it was in", CL_WAIT_MS));
    ck_assert(metrics_wait(metrics, "rogued_players_online", 1));
    /* the startups gauge falls after the slot is given back, so it is
     * waited for too */
    ck_assert(metrics_wait(metrics, "rogued_startups", 1));
    tclient_t *p = play_lobby(srv_port(s));
    ck_assert(metrics_is(metrics, "rogued_players_online", 2));
    cl_close(p);
    cl_close(held[1]);
    ck_assert(metrics_wait(metrics, "rogued_players_online", 0));
    ck_assert(metrics_wait(metrics, "rogued_startups", 0));
    srv_stop(s);
}
END_TEST

START_TEST(startups_drop_the_newest_ssh_connection)
{
    tsrv_t *s = start("startups_start=2", "startups_full=2", "max_sessions=50");
    tclient_t *held[2] = { silent(), silent() };
    ck_assert(metrics_wait(metrics, "rogued_startups", 2));
    ck_assert(ssh_closed_before_banner());
    ck_assert(srv_wait_log(s, "refused 127.0.0.2:", CL_WAIT_MS));
    ck_assert(srv_log_has(s, ": busy: 2 connections before the lobby (SSH)"));
    ck_assert(metrics_is(metrics,
                         "rogued_refusals_total{reason=\"startups\"}", 1));
    /* the dropped one held nothing: still two, two slots */
    ck_assert(metrics_is(metrics, "rogued_startups", 2));
    ck_assert(metrics_is(metrics, "rogued_players_online", 2));
    /* a telnet connection meets the same count: dropped too */
    ck_assert(telnet_refused(s, "The server is busy"));
    cl_close(held[0]);
    ck_assert(metrics_wait(metrics, "rogued_startups", 1));
    tclient_t *again = silent(); /* room for one again */
    ck_assert(metrics_wait(metrics, "rogued_startups", 2));
    ck_assert_int_eq(srv_log_count(s, "before the lobby"), 2);
    cl_close(again);
    cl_close(held[1]);
    srv_stop(s);
}
END_TEST

/* Reads ch until its output holds text (30 s at most): 1 if it did. */
static int channel_wait(ssh_channel ch, const char *text)
{
    static char seen[65536];
    size_t got = 0;
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    while (time(NULL) <= deadline && !ssh_channel_is_eof(ch)) {
        if (got > sizeof seen / 2) { /* keep the latter half */
            memmove(seen, seen + got / 2, got - got / 2);
            got -= got / 2;
        }
        int k = ssh_channel_read_timeout(ch, seen + got,
                                         (uint32_t)(sizeof seen - 1 - got), 0,
                                         1000);
        if (k < 0)
            return 0;
        for (int i = 0; i < k; i++) /* the terminal's NULs: blanks */
            if (seen[got + (size_t)i] == '\0')
                seen[got + (size_t)i] = ' ';
        got += (size_t)k;
        seen[got] = '\0';
        if (strstr(seen, text))
            return 1;
    }
    return 0;
}

/* With max_sessions=1 the SSH guest's one slot, taken at its accept, is
 * the one its admission keeps: counted twice, it would be told the server
 * is full (or /metrics would say 2), and given back twice or never, the
 * count after it would not be 0 and the telnet player not let in. */
START_TEST(a_logged_in_ssh_player_is_counted_once)
{
    tsrv_t *s = start("max_sessions=1", "startups_start=0", "max_sessions_per_ip=0");
    ssh_channel ch;
    ssh_session ss = ssh_guest(sport, "xterm", 80, 24, 0, &ch);
    ck_assert(channel_wait(ch, "Play (as a guest)"));
    /* in the lobby: one slot (the one taken at its accept), no startup */
    ck_assert(metrics_wait(metrics, "rogued_startups", 0));
    ck_assert(metrics_is(metrics, "rogued_players_online", 1));
    /* the slot is held: a telnet player is told the server is full */
    ck_assert(telnet_refused(s, "Sorry, the server is full (1 player)."));
    ssh_guest_bye(ss, ch);
    ck_assert(srv_wait_log(s, "disconnect 127.0.0.1:", CL_WAIT_MS));
    ck_assert(metrics_wait(metrics, "rogued_players_online", 0));
    /* given back once: the one slot is free again */
    tclient_t *p = play_lobby(srv_port(s));
    ck_assert(metrics_is(metrics, "rogued_players_online", 1));
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* An address's connections a minute and its sessions are counted at an
 * SSH connection's accept, as a telnet connection's at its first byte:
 * one past either is closed before the server's banner (no key exchange,
 * no lookup), logged and counted; a telnet player from that address is
 * refused by the same count; another address is not. */
START_TEST(an_address_s_limits_hold_before_the_ssh_banner)
{
    tsrv_t *s = start("connects_per_ip_per_minute=2", "max_sessions_per_ip=0",
                      "startups_start=0");
    tclient_t *a = silent(), *b = silent(); /* 127.0.0.2's two */
    ck_assert(ssh_closed_before_banner());
    ck_assert(srv_wait_log(s, ": too many connections from this address "
                              "(SSH)", CL_WAIT_MS));
    ck_assert(metrics_wait(metrics, "rogued_refusals_total{reason=\""
                                    "per_address_connects\"}", 1));
    /* another address gets in */
    tclient_t *c = silent_from("127.0.0.3");
    cl_close(a);
    cl_close(b);
    cl_close(c);
    srv_stop(s);

    s = start("max_sessions_per_ip=2", "connects_per_ip_per_minute=0",
              "startups_start=0");
    a = silent();
    b = silent();
    ck_assert(ssh_closed_before_banner());
    ck_assert(srv_wait_log(s, ": too many sessions from this address (SSH)",
                           CL_WAIT_MS));
    ck_assert(metrics_wait(metrics, "rogued_refusals_total{reason=\""
                                    "per_address_sessions\"}", 1));
    /* one gone: its place is free again (given back once) */
    cl_close(a);
    tclient_t *again = NULL;
    for (time_t end = time(NULL) + 30; !again && time(NULL) <= end;) {
        cl_opts_t o = { .raw = 1, .src = "127.0.0.2" };
        tclient_t *t = cl_connect(sport, &o);
        if (cl_wait_text(t, "SSH-2.0", CL_WAIT_MS) || cl_stream_has(t, "SSH-2.0"))
            again = t;
        else
            cl_close(t);
    }
    ck_assert_msg(again != NULL, "127.0.0.2's place never came back");
    cl_close(again);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A client connecting with ciphers (libssh's client, the key exchange
 * only): the cipher each way, or NULL if the key exchange failed. */
static const char *negotiated(const char *ciphers, char *out, size_t n)
{
    ssh_session ss = ssh_guest_session(sport);
    ck_assert_int_eq(ssh_options_set(ss, SSH_OPTIONS_CIPHERS_C_S, ciphers), 0);
    ck_assert_int_eq(ssh_options_set(ss, SSH_OPTIONS_CIPHERS_S_C, ciphers), 0);
    const char *got = NULL;
    if (ssh_connect(ss) == SSH_OK) {
        snprintf(out, n, "%s %s", ssh_get_cipher_in(ss), ssh_get_cipher_out(ss));
        got = out;
        ssh_disconnect(ss);
    }
    ssh_free(ss);
    return got;
}

/* Appends an SSH string (a 4-byte length, then the bytes). */
static size_t put_str(unsigned char *p, const char *v)
{
    size_t n = strlen(v);
    p[0] = (unsigned char)(n >> 24);
    p[1] = (unsigned char)(n >> 16);
    p[2] = (unsigned char)(n >> 8);
    p[3] = (unsigned char)n;
    memcpy(p + 4, v, n);
    return 4 + n;
}

/* A client's identification (RFC 4253, 4.2), sent alone first. */
static const char client_banner[] = "SSH-2.0-rogued_test\r\n";

/* The same client's key-exchange offer (RFC 4253, 7.1) whose only cipher
 * is aes128-ctr, made by hand: a client that stays connected until the
 * server has read it (libssh's own client hangs up as soon as it sees the
 * server's offer, and may never send its own). Sent only once the
 * server's offer has come: with libssh 0.10, a server that reads the
 * client's offer in the same poll as it first writes its own banner
 * closes the connection, then flushes the banner to the closed socket,
 * and the error it keeps is that socket error ("key exchange failed:
 * Socket error: ..."), not the cipher. Returns its length. */
static size_t kexinit_without_gcm(unsigned char *out)
{
    static const char *const lists[10] = {
        "curve25519-sha256", "ssh-ed25519", "aes128-ctr", "aes128-ctr",
        "hmac-sha2-256", "hmac-sha2-256", "none", "none", "", ""
    };
    unsigned char payload[512];
    size_t n = 0;
    payload[n++] = 20; /* SSH_MSG_KEXINIT */
    for (int i = 0; i < 16; i++)
        payload[n++] = (unsigned char)i; /* the cookie */
    for (int i = 0; i < 10; i++)
        n += put_str(payload + n, lists[i]);
    memset(payload + n, 0, 5); /* first_kex_packet_follows, reserved */
    n += 5;
    /* length (4) + padding length (1) + payload + padding: a multiple of
     * 8, with at least 4 bytes of padding */
    size_t pad = 8 - (5 + n) % 8;
    if (pad < 4)
        pad += 8;
    size_t len = 1 + n + pad, at = 0;
    out[at++] = (unsigned char)(len >> 24);
    out[at++] = (unsigned char)(len >> 16);
    out[at++] = (unsigned char)(len >> 8);
    out[at++] = (unsigned char)len;
    out[at++] = (unsigned char)pad;
    memcpy(out + at, payload, n);
    at += n;
    memset(out + at, 0, pad);
    return at + pad;
}

/* The server's key-exchange offer has come (its cipher list, as the
 * server's "ciphers offered" line has it). */
static int has_server_offer(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_stream_has(c, "aes128-gcm@openssh.com,aes256-gcm@openssh.com");
}

/* The server offers AES-GCM alone (docs/performance.md, "SSH, fewer calls
 * a key"): a client that puts chacha20-poly1305 and aes128-ctr first, as
 * OpenSSH's does, gets AES-GCM both ways; one without AES-GCM is refused
 * at the key exchange. */
START_TEST(the_cipher_is_aes_gcm)
{
    tsrv_t *s = start("max_sessions=4", "startups_start=0", "max_sessions_per_ip=0");
    char got[128];
    const char *c = negotiated("chacha20-poly1305@openssh.com,aes128-ctr,"
                               "aes256-gcm@openssh.com", got, sizeof got);
    ck_assert_ptr_nonnull(c);
    ck_assert_str_eq(c, "aes256-gcm@openssh.com aes256-gcm@openssh.com");
    ck_assert(srv_wait_log(s, "ssh: ciphers offered: aes128-gcm@openssh.com,"
                           "aes256-gcm@openssh.com", CL_WAIT_MS));
    c = negotiated("chacha20-poly1305@openssh.com,aes128-ctr,aes256-ctr", got,
                   sizeof got);
    ck_assert_ptr_null(c);
    /* Why, in the log, of a client that waits for the server's offer
     * before it sends its own (the libssh client above may log it too, or
     * only "closed before it was in", when it hung up before its offer
     * went out: this client is told by its own list, aes128-ctr alone). */
    unsigned char offer[600];
    size_t n = kexinit_without_gcm(offer);
    tclient_t *raw = cl_connect(sport, &(cl_opts_t){ .raw = 1 });
    ck_assert_ptr_nonnull(raw);
    size_t bn = sizeof client_banner - 1;
    ck_assert_uint_eq(cl_send_raw(raw, client_banner, bn, 1, CL_WAIT_MS), bn);
    ck_assert_msg(cl_wait(raw, has_server_offer, NULL, CL_WAIT_MS),
                  "no key-exchange offer from the server");
    ck_assert_uint_eq(cl_send_raw(raw, offer, n, 1, CL_WAIT_MS), n);
    ck_assert(srv_wait_log(s, ": closed before it was in: kex error : no "
                           "match for method encryption client->server: "
                           "server [aes128-gcm@openssh.com,"
                           "aes256-gcm@openssh.com], client [aes128-ctr] "
                           "(the client has none of ssh_ciphers)\n",
                           CL_WAIT_MS));
    cl_close(raw);
    srv_stop(s);
}
END_TEST

/* A host may widen the list (ssh_ciphers): a client that puts
 * chacha20-poly1305 first, as OpenSSH's does, then gets it. */
START_TEST(ssh_ciphers_widened)
{
    tsrv_t *s = start("max_sessions=4", "startups_start=0",
                      "ssh_ciphers=aes128-gcm@openssh.com,"
                      "chacha20-poly1305@openssh.com");
    char got[128];
    const char *c = negotiated("chacha20-poly1305@openssh.com,"
                               "aes128-gcm@openssh.com", got, sizeof got);
    ck_assert_ptr_nonnull(c);
    ck_assert_str_eq(c, "chacha20-poly1305@openssh.com "
                        "chacha20-poly1305@openssh.com");
    srv_stop(s);
}
END_TEST

/* A server started with ssh_ciphers=list must not start: it names the
 * cipher it does not know, and exits 2 as for any bad value, before the
 * store is opened or a host key made (config.c asks libssh). */
static void ciphers_refused(const char *list, const char *line)
{
    char dir[] = "/tmp/rogued-ciphers-XXXXXX", args[512], out[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(args, sizeof args, "--config /dev/null --set data_dir=%s "
             "--set ssh_port=%d --set ssh_ciphers=%s", dir, cl_free_port(),
             list);
    int rc = srv_run_once("", args, out, sizeof out);
    ck_assert_int_ne(rmdir(dir), -1); /* still empty: nothing was made */
    ck_assert_msg(rc == 2, "%s: exit status %d: %s", list, rc, out);
    ck_assert_msg(strstr(out, line), "%s: no \"%s\" in: %s", list, line, out);
    ck_assert_msg(!strstr(out, "listening"), "%s: %s", list, out);
}

/* A cipher libssh does not know stops the server at start, naming it,
 * instead of a port no client can agree with; so does a typo beside a
 * known name, which libssh alone would drop without a word. */
START_TEST(unknown_ssh_ciphers_refused)
{
    ciphers_refused("rot13", "ssh_ciphers: libssh does not know 'rot13'");
    ciphers_refused("aes128-gcm@openssh.com,aes256-ctrr",
                    "ssh_ciphers: libssh does not know 'aes256-ctrr'");
}
END_TEST

/* A fresh address goes first (startups.h): past startups_start, at a
 * drop's chance of 100%, a third SSH connection from 127.0.0.2 (two held)
 * is closed before the banner while one from 127.0.0.3 is let in; each
 * address's count is given back as its connections end before the lobby,
 * so 127.0.0.2 is fresh again once its two have gone. */
START_TEST(a_fresh_address_goes_first_on_ssh)
{
    tsrv_t *s = start("startups_start=2", "startups_rate=100",
                      "max_sessions=50");
    tclient_t *held[2] = { silent(), silent() };
    ck_assert(metrics_wait(metrics, "rogued_startups", 2));
    ck_assert(ssh_closed_before_banner());
    ck_assert(srv_wait_log(s, ": busy: 2 connections before the lobby (SSH), "
                              "2 from its address", CL_WAIT_MS));
    tclient_t *fresh = silent_from("127.0.0.3");
    ck_assert(metrics_wait(metrics, "rogued_startups", 3));
    cl_close(fresh);
    cl_close(held[0]);
    cl_close(held[1]);
    ck_assert(metrics_wait(metrics, "rogued_startups", 0));
    held[0] = silent_from("127.0.0.4");
    held[1] = silent_from("127.0.0.4");
    ck_assert(metrics_wait(metrics, "rogued_startups", 2));
    tclient_t *again = silent(); /* 127.0.0.2, fresh again */
    ck_assert(metrics_wait(metrics, "rogued_startups", 3));
    ck_assert_int_eq(srv_log_count(s, "before the lobby"), 1);
    cl_close(again);
    cl_close(held[0]);
    cl_close(held[1]);
    ck_assert(metrics_wait(metrics, "rogued_startups", 0));
    srv_stop(s);
}
END_TEST

static int has_server_banner(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_stream_has(c, "SSH-2.0-");
}

/* A stranger's banner with escape sequences in it: libssh quotes it in
 * its error, and the log line carries it made safe (every byte outside
 * printable ASCII a '?'), never an escape to the operator's terminal. */
START_TEST(a_banner_s_escapes_never_reach_the_log)
{
    tsrv_t *s = start("max_sessions=10", "startups_start=0",
                      "max_sessions_per_ip=0");
    static const char banner[] = "SSH-1.5-\x1b[31mRED\x1b]0;pwned\x07 tail\r\n";
    tclient_t *raw = cl_connect(sport, &(cl_opts_t){ .raw = 1 });
    ck_assert_ptr_nonnull(raw);
    ck_assert_msg(cl_wait(raw, has_server_banner, NULL, CL_WAIT_MS),
                  "no banner from the server");
    size_t n = sizeof banner - 1;
    ck_assert_uint_eq(cl_send_raw(raw, banner, n, 1, CL_WAIT_MS), n);
    ck_assert(srv_wait_log(s, "closed before it was in: No version of SSH "
                           "protocol usable (banner: SSH-1.5-?[31mRED?]0;"
                           "pwned? tail)\n", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "\x1b"));
    ck_assert(!srv_log_has(s, "\x07"));
    cl_close(raw);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh admit");
    TCase *tc = tcase_create("admit");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, silent_ssh_connections_hold_max_sessions);
    tcase_add_test(tc, startups_drop_the_newest_ssh_connection);
    tcase_add_test(tc, a_fresh_address_goes_first_on_ssh);
    tcase_add_test(tc, a_logged_in_ssh_player_is_counted_once);
    tcase_add_test(tc, an_address_s_limits_hold_before_the_ssh_banner);
    tcase_add_test(tc, the_cipher_is_aes_gcm);
    tcase_add_test(tc, ssh_ciphers_widened);
    tcase_add_test(tc, unknown_ssh_ciphers_refused);
    tcase_add_test(tc, a_banner_s_escapes_never_reach_the_log);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
