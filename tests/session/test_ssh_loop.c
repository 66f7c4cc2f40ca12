/* test_ssh_loop.c - a logged-in SSH player is played on its session's
 * worker loop (issue 26, docs/architecture.md, "Transports"): the bridge's
 * threads do the key exchange and the login, then hand libssh's session
 * over, so a key is decrypted, played and its frame encrypted on one
 * thread. Checked with libssh's client as a guest:
 *
 * - 40 waits, each answered by a frame, cost the "rogued-ssh" threads no
 *   read or write system call (their /proc/.../io counters do not move:
 *   no socketpair between them and the session), and the game counted
 *   the 40 turns;
 * - a client that rekeys every KiB (libssh's own rekey limit) goes on
 *   playing through the key exchanges: 200 waits, each answered, and a
 *   redraw after each ten;
 * - a client whose program stops reading fills its window, then the
 *   session's queue, and is cut off by write_timeout as telnet is;
 * - a shutdown with one SSH player in the lobby and one in a game tells
 *   both goodbye and exits 0 with every handle closed.
 * Counts and log lines, no timing. */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <dirent.h>
#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "ssh_guest.h"

static int sport;

static tsrv_t *start(const char *a, const char *b)
{
    static char ssh_set[32];
    sport = cl_free_port();
    snprintf(ssh_set, sizeof ssh_set, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--seed", "42", "--set", ssh_set, "--set",
                          "ssh_threads=2", "--set", "ssh_unauth_per_ip=0",
                          "--set", "max_keys_per_second=1000", "--set", a,
                          "--set", b, NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", CL_WAIT_MS));
    return s;
}

static ssh_session guest(long rekey_bytes, ssh_channel *chp)
{
    return ssh_guest(sport, "vt100", 80, 24, rekey_bytes, chp);
}

/* Reads ch until its output (since the last call that found its text)
 * holds text, 30 s at most. Returns 1 if it did. */
static int read_until(ssh_channel ch, const char *text)
{
    static char seen[65536];
    size_t got = 0, want = strlen(text);
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    while (time(NULL) <= deadline && !ssh_channel_is_eof(ch)) {
        if (got + 4096 > sizeof seen) { /* keep the tail a match may span */
            memmove(seen, seen + got - want, want);
            got = want;
        }
        int k = ssh_channel_read_timeout(ch, seen + got,
                                         (uint32_t)(sizeof seen - 1 - got),
                                         0, 1000);
        if (k < 0)
            return 0;
        got += (size_t)k;
        seen[got] = '\0';
        if (memmem(seen, got, text, want))
            return 1;
    }
    return 0;
}

/* Reads whatever ch has within 30 s: the bytes read (0: none came). */
static int read_some(ssh_channel ch)
{
    char buf[16384];
    time_t deadline = time(NULL) + 31;
    while (time(NULL) <= deadline && !ssh_channel_is_eof(ch)) {
        int k = ssh_channel_read_timeout(ch, buf, sizeof buf, 0, 1000);
        if (k != 0)
            return k < 0 ? 0 : k;
    }
    return 0;
}

/* From the lobby into a guest game. */
static void enter_game(ssh_channel ch)
{
    ck_assert(read_until(ch, "Play (as a guest)"));
    ck_assert_int_eq(ssh_channel_write(ch, "p", 1), 1);
    ck_assert(read_until(ch, "Play as a guest"));
    ck_assert_int_eq(ssh_channel_write(ch, "\r", 1), 1);
    ck_assert(read_until(ch, "HP:"));
}

/* n waits ('.'), each sent once the frame of the last has come. */
static void waits(ssh_channel ch, int n)
{
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(ssh_channel_write(ch, ".", 1), 1);
        ck_assert_msg(read_some(ch) > 0, "no frame for wait %d", i + 1);
    }
}

/* The read and write system calls of the server's "rogued-ssh" threads so
 * far (/proc/PID/task/TID/io: syscr + syscw; a socket's recv and send are
 * not among them, a socketpair's read and write are). */
static long ssh_thread_rw(const tsrv_t *s)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", srv_pid(s));
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    long sum = 0;
    int named = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char p[400], line[64] = "";
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s/comm", path, e->d_name);
        FILE *f = fopen(p, "r");
        int ssh = f && fgets(line, sizeof line, f) &&
                  strncmp(line, "rogued-ssh", 10) == 0;
        if (f)
            fclose(f);
        if (!ssh)
            continue;
        named++;
        snprintf(p, sizeof p, "%s/%s/io", path, e->d_name);
        f = fopen(p, "r");
        ck_assert_msg(f != NULL, "cannot read %s", p);
        long v;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "syscr: %ld", &v) == 1 ||
                sscanf(line, "syscw: %ld", &v) == 1)
                sum += v;
        fclose(f);
    }
    closedir(d);
    ck_assert_int_gt(named, 0);
    return sum;
}

START_TEST(keys_and_frames_stay_off_the_ssh_threads)
{
    tsrv_t *s = start("output_highwater=65536", "write_timeout=0");
    ssh_channel ch;
    ssh_session ss = guest(0, &ch);
    enter_game(ch);
    long before = ssh_thread_rw(s);
    waits(ch, 40);
    ck_assert_int_eq(ssh_thread_rw(s), before);
    ssh_guest_bye(ss, ch);
    ck_assert(srv_wait_log(s, "reason=\"client closed\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "s turns=40"), 1); /* disconnect */
    srv_stop(s);
}
END_TEST

static int negotiated; /* key exchanges the client logged */

static void on_client_log(int priority, const char *function,
                          const char *buffer, void *userdata)
{
    (void)priority, (void)function, (void)userdata;
    if (strstr(buffer, "Negotiated"))
        negotiated++;
}

START_TEST(a_rekeying_client_plays_on)
{
    tsrv_t *s = start("output_highwater=65536", "write_timeout=0");
    negotiated = 0;
    ssh_set_log_callback(on_client_log);
    ssh_set_log_level(SSH_LOG_INFO);
    ssh_channel ch;
    ssh_session ss = guest(1024, &ch);
    enter_game(ch);
    int first = negotiated;
    ck_assert_int_ge(first, 1);
    /* A wait's frame is a few bytes, which libssh's count of blocks (a
     * packet's payload / 16 with AES-GCM) may never see: a redraw
     * (Ctrl-L, the whole screen, not a turn) after each ten waits. */
    for (int i = 0; i < 20; i++) {
        waits(ch, 10);
        ck_assert_int_eq(ssh_channel_write(ch, "\x0c", 1), 1);
        ck_assert(read_until(ch, "HP:"));
    }
    ck_assert_msg(negotiated >= first + 2, "%d key exchanges, %d at the start",
                  negotiated, first);
    ssh_guest_bye(ss, ch);
    ssh_set_log_level(SSH_LOG_NOLOG);
    ck_assert(srv_wait_log(s, "reason=\"client closed\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "s turns=200"), 1);
    srv_stop(s);
}
END_TEST

/* Waits (1 s at most) for more than `had` bytes kept in ch, unread by the
 * program: libssh's client takes the packets (ev: its session's event),
 * and the window shrinks. Returns what is kept. */
static int kept_beyond(ssh_event ev, ssh_channel ch, int had)
{
    time_t until = time(NULL) + 1;
    int kept;
    while ((kept = ssh_channel_poll(ch, 0)) >= 0 && kept <= had &&
           time(NULL) <= until)
        ssh_event_dopoll(ev, 100);
    return kept;
}

START_TEST(a_client_that_stops_reading_is_cut_off)
{
    tsrv_t *s = start("write_timeout=1", "resizes_per_window=1000000");
    ssh_channel ch;
    ssh_session ss = guest(0, &ch);
    enter_game(ch);
    /* Each new size is a whole new screen (as many a second as come), and
     * the client's program reads none of them: once libssh's client has
     * taken its window's worth (1,280,000 bytes), the server keeps the
     * rest, and the session's queue stalls. A size at a time, each once
     * the last one's screen has come (or a second has passed: the window
     * is shut), until the server says so. The window takes some 2,300
     * screens, each a round trip: the deadline only catches a hang, 30 s
     * in which not a byte more was kept and the server said nothing (a
     * total would bound the machine's speed: under TSan on a loaded
     * machine 91 s saw 1,524 screens). */
    ssh_event ev = ssh_event_new();
    ck_assert_ptr_nonnull(ev);
    ck_assert_int_eq(ssh_event_add_session(ev, ss), SSH_OK);
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    int sizes = 0, kept = 0;
    while (!srv_log_has(s, "reason=\"output stalled (client not reading)\"") &&
           time(NULL) <= deadline) {
        ck_assert_int_eq(ssh_channel_change_pty_size(ch, 250 - sizes % 2, 100),
                         SSH_OK);
        /* sent now (libssh's client keeps it until it polls) */
        ck_assert_int_eq(ssh_blocking_flush(ss, 30000), SSH_OK);
        int had = kept;
        kept = kept_beyond(ev, ch, had);
        ck_assert_int_ge(kept, 0);
        if (kept > had)
            deadline = time(NULL) + 31;
        sizes++;
    }
    ck_assert_msg(srv_log_has(s, "reason=\"output stalled (client not "
                              "reading)\""), "%d sizes, %d bytes kept, no "
                  "stall", sizes, kept);
    ssh_event_remove_session(ev, ss);
    ssh_event_free(ev);
    ssh_guest_bye(ss, ch);
    srv_stop(s);
}
END_TEST

START_TEST(a_shutdown_says_goodbye_to_ssh_players)
{
    tsrv_t *s = start("output_highwater=65536", "write_timeout=0");
    ssh_channel lobby_ch, game_ch;
    ssh_session lobby = guest(0, &lobby_ch), game = guest(0, &game_ch);
    ck_assert(read_until(lobby_ch, "Play (as a guest)"));
    enter_game(game_ch);
    waits(game_ch, 3);
    srv_signal(s, SIGTERM);
    ck_assert(read_until(lobby_ch, "shutting down"));
    ck_assert(read_until(game_ch, "shutting down"));
    srv_stop(s); /* exit 0: every handle closed, no leak */
    ssh_guest_bye(lobby, lobby_ch);
    ssh_guest_bye(game, game_ch);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh loop");
    TCase *tc = tcase_create("loop");
    tcase_set_timeout(tc, 300); /* a hang catcher: the window's round trips */
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, keys_and_frames_stay_off_the_ssh_threads);
    tcase_add_test(tc, a_rekeying_client_plays_on);
    tcase_add_test(tc, a_client_that_stops_reading_is_cut_off);
    tcase_add_test(tc, a_shutdown_says_goodbye_to_ssh_players);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
