/* test_ctl_config.c - the console and the config file, as a host new to
 * them meets them (docs/hosting.md, "Operations"): `rogued ctl` needs
 * only where the server is, so a mistake in another key of the file
 * leaves the console open (and reload, sent, is refused by the server
 * with its error, status 1), one in data_dir says so with --data-dir; a
 * key the command line sets is named by reload only when the file's
 * value for it is new; what a reload did is in the log as in its answer;
 * a value that looks as if it ended in a comment is warned of at start
 * and at each reload. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"

#define WAIT_MS 30000

/* The host's steps: the server started where config/server.conf is, a
 * mistake then made in a key it never read (max_sessions = lots), and
 * `rogued ctl` run there without --data-dir: who works (a variable of
 * another key broken too), reload is sent and the server refuses it with
 * the file's error (1: the server refused it), and shutdown works. A
 * mistake in data_dir itself is said, with --data-dir, which gets
 * through. */
START_TEST(ctl_needs_only_the_data_dir)
{
    srv_next_without_config();
    tsrv_t *s = srv_start(NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    char dir[600], conf[700], out[4096];
    srv_dir(s, dir, sizeof dir);
    snprintf(conf, sizeof conf, "%s/config", dir);
    ck_assert_int_eq(mkdir(conf, 0700), 0);
    snprintf(conf, sizeof conf, "%s/config/server.conf", dir);
    srv_write_file(conf, "max_sessions = lots\nmotd_typo = x\nnot a line\n");
    ck_assert_int_eq(srv_ctl_in(dir, "ROGUED_PORT=x", "who", out, sizeof out), 0);
    ck_assert_str_eq(out, "ID ADDRESS TRANSPORT STATE NAME IDLE\n");
    ck_assert_int_eq(srv_ctl_in(dir, "", "reload", out, sizeof out), 1);
    ck_assert_str_eq(out, "rogued ctl: reload refused, nothing changed: "
                     "config/server.conf:1: max_sessions: "
                     "'lots' is not a whole number\n");
    ck_assert(srv_log_has(s, "error ctl: reload refused, nothing changed: "
                          "config/server.conf:1: max_sessions: 'lots' is not "
                          "a whole number\n"));
    /* data_dir's own mistake: said, and the way around it */
    srv_write_file(conf, "max_sessions = lots\ndata_dir = \"data\n");
    ck_assert_int_eq(srv_ctl_in(dir, "", "who", out, sizeof out), 2);
    ck_assert_str_eq(out, "rogued ctl: config/server.conf:2: data_dir: the "
                     "value's quote is not closed (rogued ctl looks there "
                     "for the server's data directory: fix it, or name the "
                     "directory with --data-dir DIR)\n");
    ck_assert_int_eq(srv_ctl_in(dir, "", "--data-dir data who", out, sizeof out),
                     0);
    ck_assert_str_eq(out, "ID ADDRESS TRANSPORT STATE NAME IDLE\n");
    srv_write_file(conf, "max_sessions = lots\ndata_dir = data\n");
    ck_assert_int_eq(srv_ctl_in(dir, "", "shutdown", out, sizeof out), 0);
    ck_assert_str_eq(out, "shutting down now\n");
    ck_assert_msg(srv_wait_exited(s, WAIT_MS), "the server did not exit:\n%s",
                  srv_log(s));
    srv_stop(s);
}
END_TEST

/* `make run PORT=4611 ARGS='--bind 127.0.0.1 --set http_port=4612'` with
 * the shipped file's bind, port and http_port: a reload that changes the
 * motd alone says that alone (the flags were over the file from the
 * start). A flag's key the file then changes is named once, with what the
 * file says and what the flag keeps. The log has each line of the answer;
 * a refused reload's error too. */
START_TEST(reload_names_a_flags_key_once_the_file_changes_it)
{
    char conf[] = "/tmp/rogued-ctl-conf-XXXXXX", out[4096], want[2048];
    srv_new_conf(conf, "bind = 0.0.0.0\nport = 2323\nhttp_port = 8023\n"
             "motd = The first\n");
    tsrv_t *s = srv_start("--config", conf, NULL);
    srv_write_file(conf, "bind = 0.0.0.0\nport = 2323\nhttp_port = 8023\n"
               "motd = The second\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "motd: changed in the file, applied\n"
             "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    ck_assert(srv_log_has(s, "info ctl: reload: motd: changed in the file, "
                          "applied\n"));
    snprintf(want, sizeof want, "info ctl: reload: reloaded %s: " LIVE_KEYS
             "\n", conf);
    ck_assert(srv_log_has(s, want));

    srv_write_file(conf, "bind = ::\nport = 2323\nhttp_port = 8023\n"
               "motd = The second\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "bind: the file now says '::'; --bind (the "
             "command line) keeps '127.0.0.1'\nreloaded %s: " LIVE_KEYS "\n",
             conf);
    ck_assert_str_eq(out, want);
    ck_assert(srv_log_has(s, "info ctl: reload: bind: the file now says "
                          "'::'; --bind (the command line) keeps "
                          "'127.0.0.1'\n"));
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);

    /* refused: the answer's error, and the log's */
    srv_write_file(conf, "motd = \"The third\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    snprintf(want, sizeof want, "rogued ctl: reload refused, nothing changed: "
             "%s:1: motd: the value's quote is "
             "not closed\n", conf);
    ck_assert_str_eq(out, want);
    snprintf(want, sizeof want, "error ctl: reload refused, nothing changed: "
             "%s:1: motd: the value's quote is not closed\n", conf);
    ck_assert(srv_log_has(s, want));
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* A comment is a line of its own: `motd = hello world  # comment` is all
 * motd, warned of in the log at start and at each reload (in its answer
 * too); quoted, it is meant, and nothing is said. A number with a comment
 * after it is refused with the reason. */
START_TEST(a_comment_after_a_value_is_warned_of)
{
    char conf[] = "/tmp/rogued-ctl-conf-XXXXXX", out[4096], line[1024],
         want[2048];
    srv_new_conf(conf, "motd = hello world  # comment\n");
    tsrv_t *s = srv_start("--config", conf, NULL);
    snprintf(line, sizeof line, "config: %s:1: motd: the value holds a '#', "
             "and a comment takes a line of its own: all of 'hello world  # "
             "comment' is the value (put the comment on a line of its own, "
             "or quote the value to keep it so)", conf);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s\nreloaded %s: " LIVE_KEYS "\n", line,
             conf);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(srv_log_count(s, line), 2);
    srv_write_file(conf, "motd = \"hello world  # not a comment\"\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "motd: changed in the file, applied\n"
             "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(srv_log_count(s, "the value holds a '#'"), 2);
    srv_write_file(conf, "max_sessions = 50 # fifty\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    snprintf(want, sizeof want, "rogued ctl: reload refused, nothing changed: "
             "%s:1: max_sessions: '50 # fifty' "
             "is not a whole number (a comment takes a line of its own: the # "
             "and what follows are part of the value)\n", conf);
    ck_assert_str_eq(out, want);
    srv_stop(s);
    unlink(conf);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ctl_config");
    TCase *tc = tcase_create("ctl_config");
    tcase_set_timeout(tc, 180);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, ctl_needs_only_the_data_dir);
    tcase_add_test(tc, reload_names_a_flags_key_once_the_file_changes_it);
    tcase_add_test(tc, a_comment_after_a_value_is_warned_of);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
