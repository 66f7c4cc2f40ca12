/* test_help.c - what a new host meets first at the command line: `rogued
 * --help` fits an 80-column terminal and lists every configuration key with
 * its default, and a mistyped key, a config file that is not there or a
 * bind that is not an IP address is refused with a message that says what
 * it is and where to look, before any file is made (README.md,
 * "Configuration"), as are a value whose quote is not closed, a key given
 * twice and every other bad value (with its file and line, or its
 * variable); a port in use and a console with no server say so, and what
 * to do. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "config.h"

#define HELP_MAX 65536

/* The one line of out that starts with prefix, copied to line; 0: none. */
static int line_starting(const char *out, const char *prefix, char *line,
                         size_t len)
{
    size_t n = strlen(prefix);
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l >= n && strncmp(p, prefix, n) == 0) {
            snprintf(line, len, "%.*s", (int)l, p);
            return 1;
        }
        p += l + (e != NULL);
    }
    return 0;
}

START_TEST(help_fits_80_columns_and_lists_every_key)
{
    char *out = malloc(HELP_MAX), line[256], want[256];
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(srv_run_once("", "--help", out, HELP_MAX), 0);
    ck_assert_uint_lt(strlen(out), HELP_MAX - 1); /* all of it was read */
    /* Every line fits: a host reads it in an 80-column terminal. */
    int lineno = 1;
    for (const char *p = out; *p; lineno++) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        ck_assert_msg(l <= 79, "--help line %d is %zu columns: %.*s", lineno,
                      l, (int)l, p);
        p += l + (e != NULL);
    }
    /* Every key starts a line, with its built-in default beside it. */
    config_t d;
    config_defaults(&d);
    const char *k;
    for (size_t i = 0; (k = config_key_name(i)) != NULL; i++) {
        snprintf(want, sizeof want, "  %s ", k);
        ck_assert_msg(line_starting(out, want, line, sizeof line),
                      "--help has no line for key %s", k);
    }
    ck_assert(line_starting(out, "  port  ", line, sizeof line));
    ck_assert_str_eq(line, "  port                 2323         TCP port (0 "
                           "picks a free one and logs it)");
    /* A key whose help is longer than a line goes on below it, indented. */
    ck_assert_ptr_nonnull(strstr(out, "\n  bind                 \"0.0.0.0\""
                                      "    IP address to listen on "
                                      "(0.0.0.0: every\n"
                                      "                                    "
                                      "interface; 127.0.0.1: this machine "
                                      "only)\n"));
    /* A name longer than its column still has its help in the help's
     * column; a default too wide for its column puts the help below it. */
    ck_assert_ptr_nonnull(strstr(out, "\n  registrations_per_ip_per_hour 10  "
                                      "accounts one address may create an "
                                      "hour (0:\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  ssh_ciphers          \"aes128-gcm@"
                                      "openssh.com,aes256-gcm@openssh.com\"\n"
                                      "                                    "
                                      "the ciphers SSH offers,"));
    ck_assert_ptr_null(strstr(out, " \n")); /* no line ends in a space */
    /* The flag too says what --bind takes. */
    ck_assert_ptr_nonnull(strstr(out, "  -b, --bind ADDR       IP address to "
                                      "listen on (0.0.0.0: every\n"));
    free(out);
}
END_TEST

/* What rogued with args prints, having refused to start (exit status 2). */
static const char *refusal(const char *args)
{
    static char out[4096];
    int rc = srv_run_once("", args, out, sizeof out);
    ck_assert_msg(rc == 2, "%s: exit status %d: %s", args, rc, out);
    return out;
}

/* A config file of conf refused at start with exactly "rogued: FILE:LINE:
 * why" (exit status 2), before the data directory is made. */
static void file_refused(const char *conf, int line, const char *why)
{
    char path[] = "/tmp/rogued-help-XXXXXX", args[160], want[512], data[64];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    size_t n = strlen(conf);
    ck_assert_int_eq(write(fd, conf, n), (int)n);
    close(fd);
    snprintf(data, sizeof data, "%s.data", path);
    snprintf(args, sizeof args, "--config %s --data-dir %s", path, data);
    snprintf(want, sizeof want, "rogued: %s:%d: %s\n", path, line, why);
    ck_assert_str_eq(refusal(args), want);
    ck_assert_int_ne(access(data, F_OK), 0);
    unlink(path);
}

START_TEST(a_mistyped_key_points_to_help)
{
    ck_assert_str_eq(refusal("--config /dev/null --set porte=4000"),
                     "rogued: --set: unknown key 'porte' (did you mean port? "
                     "rogued --help lists every key)\n");
    file_refused("# a host's first file\nport = 4000\nporte = 4001\n", 3,
                 "unknown key 'porte' (did you mean port? rogued --help lists "
                 "every key)");
    /* nothing near: the list alone */
    ck_assert_str_eq(refusal("--config /dev/null --set zzzzzzzz=1"),
                     "rogued: --set: unknown key 'zzzzzzzz' (rogued --help "
                     "lists every key)\n");
}
END_TEST

/* A value whose quote is left open is refused as the file's other
 * mistakes are, not put on every screen with its quote. */
START_TEST(an_unclosed_quote_is_refused_at_start)
{
    file_refused("port = 4000\nmotd = \"Welcome\n", 2,
                 "motd: the value's quote is not closed");
}
END_TEST

START_TEST(a_missing_config_file_says_it_is_the_config_file)
{
    ck_assert_str_eq(refusal("--config /nonexistent/rogued.conf"),
                     "rogued: config file /nonexistent/rogued.conf: No such "
                     "file or directory\n");
}
END_TEST

/* A mistyped option names the nearest: a key's flag, or --set for a key
 * that has none; words near no key get the plain line. */
START_TEST(a_mistyped_option_names_the_nearest)
{
    ck_assert_str_eq(refusal("--config /dev/null --prot 4000"),
                     "rogued: unknown option '--prot' (did you mean --port? "
                     "try --help)\n");
    ck_assert_str_eq(refusal("--config /dev/null --idle-timeout 5"),
                     "rogued: unknown option '--idle-timeout' (did you mean "
                     "--set idle_timeout=VALUE? try --help)\n");
    ck_assert_str_eq(refusal("--config /dev/null --frobnicate"),
                     "rogued: unknown option '--frobnicate' (try --help)\n");
    /* a value written into it, and a flag that sets no key */
    ck_assert_str_eq(refusal("--config /dev/null --port=4000"),
                     "rogued: unknown option '--port=4000' (did you mean "
                     "--port? try --help)\n");
    ck_assert_str_eq(refusal("--config /dev/null --verison"),
                     "rogued: unknown option '--verison' (did you mean "
                     "--version? try --help)\n");
}
END_TEST

/* A directory given for the file: refused, not read as an empty file
 * (the server started on its defaults, the file's settings not there). */
START_TEST(a_directory_as_the_config_file_is_refused)
{
    ck_assert_str_eq(refusal("--config /tmp"),
                     "rogued: config file /tmp: Is a directory (--config "
                     "takes the file itself)\n");
}
END_TEST

START_TEST(a_host_name_as_bind_is_refused_before_any_file_is_made)
{
    char dir[] = "/tmp/rogued-help-XXXXXX", args[256], data[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s --bind "
             "localhost", data);
    ck_assert_str_eq(refusal(args), "rogued: --bind: 'localhost' is not an IP "
                     "address (0.0.0.0: every interface; 127.0.0.1: this "
                     "machine only)\n");
    ck_assert_int_ne(access(data, F_OK), 0); /* no data directory, no db */
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s --set "
             "bind=10.0.0.300", data);
    ck_assert_str_eq(refusal(args), "rogued: --set bind: '10.0.0.300' is not an "
                     "IP address (0.0.0.0: every interface; 127.0.0.1: this "
                     "machine only)\n");
    ck_assert_int_ne(access(data, F_OK), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A value the configuration used to check only once every source was
 * read, or only once the store was open (ssh_ciphers), or never (a key
 * given twice, the last winning): refused as any other, with the file
 * and line, exit status 2, before the data directory is made. */
START_TEST(every_bad_value_names_its_file_and_line)
{
    static const struct { const char *conf; int line; const char *why; } bad[] = {
        { "port = 4000\nlog_level = verbose\n", 2,
          "log_level: 'verbose' is not error, info or debug" },
        { "seed = -4\n", 1, "seed: '-4' is not a number from 0 to 2^64-1" },
        { "\n\nbind = localhost\n", 3, "bind: 'localhost' is not an IP "
          "address (0.0.0.0: every interface; 127.0.0.1: this machine "
          "only)" },
        { "proxy_protocol = yes\n", 1,
          "proxy_protocol: 'yes' is neither on nor off" },
        { "port = 4000\nmotd = hi\nport = 4001\n", 3,
          "port: given again (first on line 1)" },
        { "metrics_port = 9323\nmetrics_addr = localhost\n", 2,
          "metrics_addr: 'localhost' is not an IP address (127.0.0.1: this "
          "machine only; 0.0.0.0: every interface)" },
        { "ssh_port = 2222\nssh_ciphers = rot13\n", 2, "ssh_ciphers: libssh "
          "does not know 'rot13' (for example aes128-gcm@openssh.com, "
          "chacha20-poly1305@openssh.com, aes256-ctr)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        file_refused(bad[i].conf, bad[i].line, bad[i].why);
}
END_TEST

/* The environment's bad value names its variable. */
START_TEST(a_bad_variable_is_named)
{
    static char out[4096];
    int rc = srv_run_once("env ROGUED_LOG_LEVEL=loud", "--config /dev/null", out,
                          sizeof out);
    ck_assert_msg(rc == 2, "exit status %d: %s", rc, out);
    ck_assert_str_eq(out, "rogued: environment ROGUED_LOG_LEVEL: log_level: "
                     "'loud' is not error, info or debug\n");
}
END_TEST

/* What rogued prints when the port given by args (a flag ending where
 * the number goes, started with prefix) is held by another socket: it
 * must not start. */
static const char *port_in_use(const char *prefix, const char *args,
                               int *port)
{
    *port = cl_free_port();
    int fd = cl_hold_port(*port);
    char dir[] = "/tmp/rogued-help-XXXXXX", full[256];
    static char out[8192];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(full, sizeof full, "--config /dev/null --data-dir %s/data "
             "%s%d", dir, args, *port);
    ck_assert_int_ne(srv_run_once(prefix, full, out, sizeof out), 0);
    /* stopped before anything was made on disk */
    char data[sizeof dir + 8];
    snprintf(data, sizeof data, "%s/data", dir);
    ck_assert_msg(access(data, F_OK) != 0 && errno == ENOENT,
                  "the data directory was made: %s", out);
    close(fd);
    srv_remove_tree(dir);
    return out;
}

/* A port another process listens on: the error names the key that moves
 * this server (a second server on one machine, most often), and nothing
 * is made on disk first (port_in_use). */
START_TEST(a_port_in_use_names_the_key_that_moves_it)
{
    int port;
    const char *out = port_in_use("", "--port ", &port);
    char want[256];
    snprintf(want, sizeof want, "cannot listen on 127.0.0.1 port %d (port): "
             "Address already in use (another server on it? --set port=N "
             "moves this one)\n", port);
    ck_assert_msg(strstr(out, want), "%s", out);
}
END_TEST

/* Started by `make run` (which sets ROGUED_MAKE_RUN), the host is told
 * the make run way to move it: PORT= for telnet's port, ARGS= for the
 * others. Nor is the variable named as a mistyped key. */
START_TEST(a_port_in_use_under_make_run_says_make_run)
{
    int port;
    const char *out = port_in_use("ROGUED_MAKE_RUN=1", "--port ", &port);
    char want[256];
    snprintf(want, sizeof want, "cannot listen on 127.0.0.1 port %d (port): "
             "Address already in use (another server on it? make run "
             "PORT=N moves this one)\n", port);
    ck_assert_msg(strstr(out, want), "%s", out);
    ck_assert_msg(!strstr(out, "MAKE_RUN is not"), "%s", out);
    out = port_in_use("ROGUED_MAKE_RUN=1", "--set http_port=", &port);
    snprintf(want, sizeof want, "cannot listen on 127.0.0.1 port %d "
             "(http_port): Address already in use (another server on it? "
             "make run ARGS=\"--set http_port=N\" moves this one)\n", port);
    ck_assert_msg(strstr(out, want), "%s", out);
}
END_TEST

/* A flag's bad value is named as the flag the host typed, not as the key
 * it sets (which they may never have seen); --set names itself and its
 * key, as a file's mistake names its file and line. */
START_TEST(a_bad_flag_value_names_the_flag)
{
    ck_assert_str_eq(refusal("--config /dev/null --port 99999"),
                     "rogued: --port: 99999 is outside 0..65535\n");
    ck_assert_str_eq(refusal("--config /dev/null -p 99999"),
                     "rogued: -p: 99999 is outside 0..65535\n");
    ck_assert_str_eq(refusal("--config /dev/null --set port=99999"),
                     "rogued: --set port: 99999 is outside 0..65535\n");
    ck_assert_str_eq(refusal("--config /dev/null --max-sessions many"),
                     "rogued: --max-sessions: 'many' is not a whole "
                     "number\n");
    ck_assert_str_eq(refusal("--config /dev/null --set max_sessions=x"),
                     "rogued: --set max_sessions: 'x' is not a whole "
                     "number\n");
}
END_TEST

/* rogued ctl where no server runs: said so, and how to name another
 * data directory. */
START_TEST(ctl_where_no_server_runs_says_so)
{
    char dir[] = "/tmp/rogued-help-XXXXXX", cmd[512], want[512];
    static char out[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *bin = getenv("ROGUED_BIN");
    snprintf(cmd, sizeof cmd, "timeout 60 %s ctl --data-dir %s who 2>&1 "
             "</dev/null", bin ? bin : "build/san/rogued", dir);
    int rc = srv_ctl_finish(popen(cmd, "r"), out, sizeof out);
    ck_assert_msg(rc == 2, "exit status %d: %s", rc, out);
    snprintf(want, sizeof want, "rogued ctl: cannot reach the server at "
             "%s/ctl.sock: No such file or directory (no server runs with "
             "this data directory: start one, or name its own with "
             "--data-dir DIR)\n", dir);
    ck_assert_str_eq(out, want);
    srv_remove_tree(dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("help");
    TCase *tc = tcase_create("help");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, help_fits_80_columns_and_lists_every_key);
    tcase_add_test(tc, a_mistyped_key_points_to_help);
    tcase_add_test(tc, a_missing_config_file_says_it_is_the_config_file);
    tcase_add_test(tc, a_directory_as_the_config_file_is_refused);
    tcase_add_test(tc, a_mistyped_option_names_the_nearest);
    tcase_add_test(tc, an_unclosed_quote_is_refused_at_start);
    tcase_add_test(tc, a_host_name_as_bind_is_refused_before_any_file_is_made);
    tcase_add_test(tc, every_bad_value_names_its_file_and_line);
    tcase_add_test(tc, a_bad_variable_is_named);
    tcase_add_test(tc, a_port_in_use_names_the_key_that_moves_it);
    tcase_add_test(tc, a_port_in_use_under_make_run_says_make_run);
    tcase_add_test(tc, a_bad_flag_value_names_the_flag);
    tcase_add_test(tc, ctl_where_no_server_runs_says_so);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
