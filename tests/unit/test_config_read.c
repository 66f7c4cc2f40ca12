/* test_config_read.c - reading the configuration in part and with its
 * warnings: `rogued ctl` reads data_dir alone (a mistake in another key is
 * not its to refuse, one in data_dir is), a '#' after a value is part of
 * it (refused with a hint where the key refuses it, warned of where a
 * text takes it), and a key's value as the console says it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "conf_file.h"
#include "config.h"

/* Each warning, one line each, into arg (4096 bytes). */
static void collect(const char *line, void *arg)
{
    char *out = arg;
    size_t n = strlen(out);
    snprintf(out + n, 4096 - n, "%s\n", line);
}

/* data_dir alone: lines a whole reading refuses (a bad value, an unknown
 * key, no '=', a line too long) are skipped, the variables of other keys
 * too; data_dir's own line is held to the rules. */
START_TEST(one_key_alone)
{
    config_t c;
    char err[512], want[512];
    static char text[4096];
    memset(text, 'x', 2000);
    memcpy(text, "motd = ", 7);
    snprintf(text + 2000, sizeof text - 2000, "\nmax_sessions = lots\n"
             "not a line\nporte = 1\ndata_dir = /srv/rogued\n");
    write_file(text);
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    config_defaults(&c);
    ck_assert_int_eq(config_load_file_key(&c, path, 1, "data_dir", err,
                                          sizeof err), 0);
    ck_assert_str_eq(c.data_dir, "/srv/rogued");
    ck_assert_int_eq(c.max_sessions, 1000);
    unlink(path);

    write_file("max_sessions = lots\ndata_dir = \"/srv/rogued\n");
    ck_assert_int_eq(config_load_file_key(&c, path, 1, "data_dir", err,
                                          sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: data_dir: the value's quote is not "
             "closed", path);
    ck_assert_str_eq(err, want);
    unlink(path);
    write_file("data_dir = /a\ndata_dir = /b\n");
    ck_assert_int_eq(config_load_file_key(&c, path, 1, "data_dir", err,
                                          sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: data_dir: given again (first on line "
             "1)", path);
    ck_assert_str_eq(err, want);
    unlink(path);
    /* data_dir's own line too long is refused, not skipped */
    memcpy(text, "  data_dir=", 11);
    text[2000] = '\0';
    write_file(text);
    ck_assert_int_eq(config_load_file_key(&c, path, 1, "data_dir", err,
                                          sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: line too long", path);
    ck_assert_str_eq(err, want);
    unlink(path);

    setenv("ROGUED_MAX_SESSIONS", "lots", 1);
    setenv("ROGUED_DATA_DIR", "/var/lib/rogued", 1);
    config_defaults(&c);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), -1);
    config_defaults(&c);
    ck_assert_int_eq(config_load_env_key(&c, "data_dir", err, sizeof err), 0);
    ck_assert_str_eq(c.data_dir, "/var/lib/rogued");
    ck_assert_int_eq(c.max_sessions, 1000);
    setenv("ROGUED_DATA_DIR", "", 1);
    ck_assert_int_eq(config_load_env_key(&c, "data_dir", err, sizeof err), -1);
    ck_assert_str_eq(err, "environment ROGUED_DATA_DIR: data_dir: may not be "
                     "empty");
    unsetenv("ROGUED_DATA_DIR");
    unsetenv("ROGUED_MAX_SESSIONS");
}
END_TEST

/* A comment is a line of its own: after a value, the '#' and what follows
 * are the value. A key that refuses it says so; a text that takes it is
 * warned of, unless quoted (meant so). */
START_TEST(a_comment_after_a_value)
{
    config_t c;
    char err[512], want[512];
    static char warned[4096];
    write_file("max_sessions = 50 # fifty\n");
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: max_sessions: '50 # fifty' is not a "
             "whole number (a comment takes a line of its own: the # and "
             "what follows are part of the value)", path);
    ck_assert_str_eq(err, want);
    unlink(path);
    write_file("combat = d10 #dice\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ":1: combat: unknown ruleset 'd10 #dice' ") &&
                  strstr(err, "(a comment takes a line of its own: the # "
                         "and what follows are part of the value)"), "%s",
                  err);
    unlink(path);
    /* no '#': no hint */
    write_file("max_sessions = lots\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: max_sessions: 'lots' is not a whole "
             "number", path);
    ck_assert_str_eq(err, want);
    unlink(path);

    write_file("motd = hello world  # comment\n"
               "server_name = Dungeon#2\n"
               "data_dir = \"/srv/rogued #2\"\n"
               "max_sessions = 50\n");
    config_defaults(&c);
    warned[0] = '\0';
    ck_assert_int_eq(config_load_file_warn(&c, path, 1, collect, warned, err,
                                           sizeof err), 0);
    ck_assert_str_eq(c.motd, "hello world  # comment");
    ck_assert_str_eq(c.server_name, "Dungeon#2");
    ck_assert_str_eq(c.data_dir, "/srv/rogued #2");
    snprintf(want, sizeof want, "config: %s:1: motd: the value holds a '#', "
             "and a comment takes a line of its own: all of 'hello world  # "
             "comment' is the value (put the comment on a line of its own, "
             "or quote the value to keep it so)\n", path);
    ck_assert_str_eq(warned, want);
    /* config_load_file says nothing (no callback) and reads the same */
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    ck_assert_str_eq(c.motd, "hello world  # comment");
    unlink(path);
    /* the store's URL may hold a password: warned of, its value unsaid */
    write_file("store = postgres://rogue:s3cret@db.example/rogued  # prod\n");
    config_defaults(&c);
    warned[0] = '\0';
    ck_assert_int_eq(config_load_file_warn(&c, path, 1, collect, warned, err,
                                           sizeof err), 0);
    snprintf(want, sizeof want, "config: %s:1: store: the value holds a '#', "
             "and a comment takes a line of its own: all of '(not shown: it "
             "may hold a password)' is the value (put the comment on a line "
             "of its own, or quote the value to keep it so)\n", path);
    ck_assert_str_eq(warned, want);
    ck_assert_ptr_null(strstr(warned, "s3cret"));
    unlink(path);
}
END_TEST

/* As reload's answer says a value: a number as it is, a text quoted with
 * its control bytes escaped, store's not at all (a password). */
START_TEST(a_value_as_the_console_says_it)
{
    config_t c;
    char out[64];
    config_defaults(&c);
    size_t port = 0, motd = 0, store = 0;
    for (size_t i = 0; config_key_name(i); i++) {
        if (strcmp(config_key_name(i), "port") == 0)
            port = i;
        if (strcmp(config_key_name(i), "motd") == 0)
            motd = i;
        if (strcmp(config_key_name(i), "store") == 0)
            store = i;
    }
    ck_assert_int_eq(config_key_value(&c, port, out, sizeof out), 1);
    ck_assert_str_eq(out, "2323");
    snprintf(c.motd, sizeof c.motd, "a\nb\x1b" "c; d");
    ck_assert_int_eq(config_key_value(&c, motd, out, sizeof out), 1);
    ck_assert_str_eq(out, "'a\\x0ab\\x1bc; d'");
    snprintf(c.store, sizeof c.store, "postgresql://u:secret@db/rogued");
    ck_assert_int_eq(config_key_value(&c, store, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
    /* cut to fit, still closed */
    memset(c.motd, 'm', 100);
    c.motd[100] = '\0';
    ck_assert_int_eq(config_key_value(&c, motd, out, 16), 1);
    ck_assert_str_eq(out, "'mmmmmmmmmmmmm'");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("config_read");
    TCase *tc = tcase_create("config_read");
    tcase_add_test(tc, one_key_alone);
    tcase_add_test(tc, a_comment_after_a_value);
    tcase_add_test(tc, a_value_as_the_console_says_it);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
