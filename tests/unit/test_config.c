/* test_config.c - the configuration: file syntax, errors, environment. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "combat.h"
#include "conf_file.h"
#include "config.h"

START_TEST(defaults_are_sane)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_int_eq(c.port, 2323);
    ck_assert_str_eq(c.bind, "0.0.0.0");
    ck_assert_str_eq(c.data_dir, "./data");
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
    uint64_t seed;
    ck_assert_int_eq(config_seed(&c, &seed), 0);
}
END_TEST

START_TEST(file_sets_keys)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    write_file("# comment\n\nport = 4000\n  bind=127.0.0.1  \nseed = \"42\"\n"
               "server_name = \"My Dungeon\"\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    unlink(path);
    ck_assert_int_eq(c.port, 4000);
    ck_assert_str_eq(c.bind, "127.0.0.1");
    ck_assert_str_eq(c.server_name, "My Dungeon");
    uint64_t seed = 0;
    ck_assert_int_eq(config_seed(&c, &seed), 1);
    ck_assert_uint_eq(seed, 42);
    /* a UTF-8 byte order mark first (a Windows editor's): skipped, not
     * read into the first key ("unknown key 'bind'") */
    config_defaults(&c);
    write_file("\xef\xbb\xbf" "bind = 127.0.0.2\nport = 4001\n");
    ck_assert_msg(config_load_file(&c, path, 1, err, sizeof err) == 0, "%s",
                  err);
    unlink(path);
    ck_assert_str_eq(c.bind, "127.0.0.2");
    ck_assert_int_eq(c.port, 4001);
}
END_TEST

START_TEST(file_errors_name_the_line)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    write_file("port = 4000\nno_such_key = 1\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2: unknown key 'no_such_key'"));
    unlink(path);

    config_defaults(&c);
    write_file("port = 70000\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: port: 70000 is outside 0..65535"));
    unlink(path);

    config_defaults(&c);
    write_file("port 4000\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: expected 'key = value'"));
    unlink(path);

    config_defaults(&c);
    write_file("max_sessions = lots\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "is not a whole number"));
    unlink(path);
}
END_TEST

START_TEST(missing_file)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, "/nonexistent/x.conf", 0, err, sizeof err), 0);
    ck_assert_int_eq(config_load_file(&c, "/nonexistent/x.conf", 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "No such file"));
}
END_TEST

START_TEST(environment_overrides_file)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    write_file("port = 4000\nmax_sessions = 10\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    unlink(path);
    setenv("ROGUED_PORT", "5000", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.port, 5000);
    ck_assert_int_eq(c.max_sessions, 10);
    setenv("ROGUED_PORT", "x", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "ROGUED_PORT"));
    unsetenv("ROGUED_PORT");
}
END_TEST

/* ROGUED_MAKE_RUN is no key, but the environment's reading notes it for
 * the host's hint (`make run PORT=N`): set, unset, and never a default. */
START_TEST(environment_notes_make_run)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_int_eq(c.make_run, 0);
    setenv("ROGUED_MAKE_RUN", "1", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.make_run, 1);
    unsetenv("ROGUED_MAKE_RUN");
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.make_run, 0);
}
END_TEST

/* Index of the key named name (config_key_name's i); fails if none. */
static size_t key_index(const char *name)
{
    const char *k;
    for (size_t i = 0; (k = config_key_name(i)); i++)
        if (strcmp(k, name) == 0)
            return i;
    ck_abort_msg("no key %s", name);
    return 0;
}

/* What reload needs to say why a key stays: the flag that set it (the
 * last one given), and whether the environment sets it and as what. */
START_TEST(flags_and_environment_name_their_keys)
{
    static config_flags_t f; /* zeroed: no key set */
    size_t port = key_index("port"), motd = key_index("motd");
    ck_assert_ptr_null(config_flags_by(&f, port));
    config_flags_note(&f, "port", "--port");
    config_flags_note(&f, "motd", "--set motd");
    config_flags_note(&f, "motd", "--set motd");
    config_flags_note(&f, "no_such_key", "--set no_such_key");
    ck_assert_str_eq(config_flags_by(&f, port), "--port");
    ck_assert_str_eq(config_flags_by(&f, motd), "--set motd");
    ck_assert_ptr_null(config_flags_by(&f, key_index("bind")));
    ck_assert_ptr_null(config_flags_by(&f, 1000));
    char name[64];
    unsetenv("ROGUED_MAX_SESSIONS");
    ck_assert_int_eq(config_env_sets(key_index("max_sessions"), name,
                                     sizeof name), 0);
    ck_assert_str_eq(name, "ROGUED_MAX_SESSIONS");
    setenv("ROGUED_MAX_SESSIONS", "12", 1);
    ck_assert_int_eq(config_env_sets(key_index("max_sessions"), name,
                                     sizeof name), 1);
    ck_assert_int_eq(config_env_sets(1000, name, sizeof name), 0);
    unsetenv("ROGUED_MAX_SESSIONS");
}
END_TEST

START_TEST(validation)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    c.idle_timeout = 10;
    c.idle_warning = 10;
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    config_defaults(&c);
    c.output_highwater = c.output_limit;
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    config_defaults(&c);
    snprintf(c.seed, sizeof c.seed, "-4");
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    config_defaults(&c);
    snprintf(c.log_level, sizeof c.log_level, "loud");
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    /* Behind a balancer, the balancer must be named. */
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "proxy_protocol", "on", err, sizeof err), 0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "proxy_trusted"));
    ck_assert_int_eq(config_set(&c, "proxy_trusted", "10.0.0.0/8, ::1", err,
                                sizeof err), 0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
    ck_assert_int_eq(config_set(&c, "proxy_trusted", "10.0.0.0/40", err,
                                sizeof err), -1);
    ck_assert_int_eq(config_set(&c, "proxy_protocol", "yes", err, sizeof err), -1);
    /* Two listeners on one port: said as their keys. */
    config_defaults(&c);
    c.http_port = c.port;
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "port and http_port are both 2323: give each a port "
                          "of its own");
    c.http_port = 0; /* off: no clash */
    c.ssh_port = 0;
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
    c.metrics_port = c.port; /* on loopback, under port's 0.0.0.0 */
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "port and metrics_port are both 2323: give each a "
                          "port of its own");
    snprintf(c.bind, sizeof c.bind, "127.0.0.2");
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
}
END_TEST

/* Line 2 of a file (port = 4000 first) refused with exactly
 * "FILE:2: why", and the key left at its default. */
static void line_refused(const char *line, const char *why)
{
    config_t c, d;
    char err[512], text[256], want[512];
    config_defaults(&c);
    config_defaults(&d);
    snprintf(text, sizeof text, "port = 4000\n%s\n", line);
    write_file(text);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2: %s", path, why);
    ck_assert_str_eq(err, want);
    unlink(path);
    ck_assert(memcmp(c.log_level, d.log_level, sizeof c.log_level) == 0);
    ck_assert_str_eq(c.bind, d.bind);
    ck_assert_str_eq(c.seed, d.seed);
}

/* The keys checked only after every source was read used to be refused
 * without their file and line ("rogued: log_level: ..."): each is
 * refused where it is read, as a port out of range is, and from the
 * environment with the variable's name. */
START_TEST(every_bad_value_names_its_file_and_line)
{
    line_refused("log_level = verbose",
                 "log_level: 'verbose' is not error, info or debug");
    line_refused("seed = -4", "seed: '-4' is not a number from 0 to 2^64-1");
    line_refused("seed = 18446744073709551616",
                 "seed: '18446744073709551616' is not a number from 0 to "
                 "2^64-1");
    line_refused("seed = 12x", "seed: '12x' is not a number from 0 to 2^64-1");
    line_refused("bind = localhost", "bind: 'localhost' is not an IP address "
                 "(0.0.0.0: every interface; 127.0.0.1: this machine only)");
    line_refused("bind = \"\"", "bind: '' is not an IP address (0.0.0.0: "
                 "every interface; 127.0.0.1: this machine only)");
    line_refused("data_dir = \"\"", "data_dir: may not be empty");
    line_refused("metrics_addr = localhost", "metrics_addr: 'localhost' is "
                 "not an IP address (127.0.0.1: this machine only; 0.0.0.0: "
                 "every interface)");
    line_refused("store = mysql://x", "store: neither empty (the SQLite file "
                 "in data_dir) nor a postgresql:// URL");
    config_t c;
    char err[512];
    config_defaults(&c);
    setenv("ROGUED_LOG_LEVEL", "loud", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "environment ROGUED_LOG_LEVEL: log_level: 'loud' "
                     "is not error, info or debug");
    unsetenv("ROGUED_LOG_LEVEL");
    setenv("ROGUED_METRICS_ADDR", "::1", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.metrics_addr, "::1");
    unsetenv("ROGUED_METRICS_ADDR");
    ck_assert_int_eq(config_set(&c, "seed", "18446744073709551615", err,
                                sizeof err), 0);
    ck_assert_int_eq(config_set(&c, "bind", "::", err, sizeof err), 0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
}
END_TEST

/* An on/off key's refusal names the key, as every other key's does. */
START_TEST(on_off_refusal_names_the_key)
{
    line_refused("proxy_protocol = yes",
                 "proxy_protocol: 'yes' is neither on nor off");
}
END_TEST

/* A key given twice in one file: the second is refused with the first's
 * line (the last one winning would hide an edit higher up), whatever the
 * two values are; one in each of the file and the environment is the
 * usual override. */
START_TEST(a_key_given_twice_is_refused)
{
    config_t c;
    char err[512], want[512];
    config_defaults(&c);
    write_file("# a host's file\nport = 4000\nmotd = hi\n\nport = 4000\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:5: port: given again (first on line 2)",
             path);
    ck_assert_str_eq(err, want);
    unlink(path);
    line_refused("port = 4001", "port: given again (first on line 1)");
    /* a file read again (reload) starts afresh */
    config_defaults(&c);
    write_file("port = 4000\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    setenv("ROGUED_PORT", "5000", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    unsetenv("ROGUED_PORT");
    unlink(path);
    ck_assert_int_eq(c.port, 5000);
}
END_TEST

/* ssh_ciphers is asked of libssh when it is read (ssh_port on or not),
 * not once the store is open and the host key made: a bad list is a bad
 * value like any other. */
START_TEST(ssh_ciphers_checked_when_read)
{
    line_refused("ssh_ciphers = rot13", "ssh_ciphers: libssh does not know "
                 "'rot13' (for example aes128-gcm@openssh.com, "
                 "chacha20-poly1305@openssh.com, aes256-ctr)");
    line_refused("ssh_ciphers = aes128-gcm@openssh.com,,aes256-ctr",
                 "ssh_ciphers: libssh does not know '' (for example "
                 "aes128-gcm@openssh.com, chacha20-poly1305@openssh.com, "
                 "aes256-ctr)");
    line_refused("ssh_ciphers = \"\"",
                 "ssh_ciphers: '' is not a list of ciphers");
    config_t c;
    char err[512];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "ssh_ciphers",
                                "chacha20-poly1305@openssh.com,aes256-ctr",
                                err, sizeof err), 0);
    ck_assert_str_eq(c.ssh_ciphers, "chacha20-poly1305@openssh.com,aes256-ctr");
}
END_TEST

START_TEST(shipped_config_matches_defaults)
{
    /* config/server.conf documents every key with its default value: loading
     * it must change nothing (and it gives none twice: it loads at all). */
    config_t d, c;
    char err[256];
    config_defaults(&d);
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, "config/server.conf", 1, err, sizeof err), 0);
    ck_assert(memcmp(&c, &d, sizeof c) == 0);
}
END_TEST

START_TEST(combat_ruleset_key)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_str_eq(c.combat, "attack-defense");
    ck_assert_int_eq(config_ruleset(&c), RULES_ATTACK_DEFENSE);
    static const struct { const char *name; int r; } names[] = {
        { "power", RULES_POWER }, { "attack-defense", RULES_ATTACK_DEFENSE },
        { "d10", RULES_D10 }, { "dice-pool", RULES_DICE_POOL },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ck_assert_int_eq(config_set(&c, "combat", names[i].name, err, sizeof err), 0);
        ck_assert_int_eq(config_ruleset(&c), names[i].r);
        ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
    }
    write_file("combat = dice-pool\n");
    config_defaults(&c);
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    unlink(path);
    ck_assert_int_eq(config_ruleset(&c), RULES_DICE_POOL);

    /* An unknown name is refused, naming the line and every valid name. */
    config_defaults(&c);
    write_file("port = 4000\ncombat = chess\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
    unlink(path);
    ck_assert_ptr_nonnull(strstr(err, ":2: combat: unknown ruleset 'chess' "
                                      "(valid: power, attack-defense, d10, dice-pool)"));
    ck_assert_str_eq(c.combat, "attack-defense"); /* unchanged */
    setenv("ROGUED_COMBAT", "D10", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "ROGUED_COMBAT"));
    ck_assert_ptr_nonnull(strstr(err, "valid: power"));
    setenv("ROGUED_COMBAT", "d10", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    ck_assert_int_eq(config_ruleset(&c), RULES_D10);
    unsetenv("ROGUED_COMBAT");
    snprintf(c.combat, sizeof c.combat, "nope");
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown ruleset 'nope'"));
}
END_TEST

/* The store's lock wait: 10 s unless set, within 1..10000 ms (PostgreSQL
 * ends a statement at 10 s anyway), from the file or the environment. */
START_TEST(store_lock_timeout_key)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_int_eq(c.store_lock_timeout_ms, 10000);
    ck_assert_int_eq(config_set(&c, "store_lock_timeout_ms", "0", err,
                                sizeof err), -1);
    ck_assert_str_eq(err, "store_lock_timeout_ms: 0 is outside 1..10000");
    ck_assert_int_eq(config_set(&c, "store_lock_timeout_ms", "10001", err,
                                sizeof err), -1);
    ck_assert_str_eq(err, "store_lock_timeout_ms: 10001 is outside 1..10000");
    ck_assert_int_eq(c.store_lock_timeout_ms, 10000); /* unchanged */
    ck_assert_int_eq(config_set(&c, "store_lock_timeout_ms", "1", err,
                                sizeof err), 0);
    ck_assert_int_eq(c.store_lock_timeout_ms, 1);
    write_file("store_lock_timeout_ms = 2500\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    unlink(path);
    ck_assert_int_eq(c.store_lock_timeout_ms, 2500);
    setenv("ROGUED_STORE_LOCK_TIMEOUT_MS", "750", 1);
    ck_assert_int_eq(config_load_env(&c, err, sizeof err), 0);
    unsetenv("ROGUED_STORE_LOCK_TIMEOUT_MS");
    ck_assert_int_eq(c.store_lock_timeout_ms, 750);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0);
}
END_TEST

/* ws_origins is read as the upgrade reads it (ws_sites.h: host or
 * host:port, maybe after its scheme, IPv6 in brackets; commas, spaces or
 * tabs between), so that a typo is refused at start rather than every
 * page from that site refused 403 unsaid. */
START_TEST(ws_origins_checked_when_read)
{
    static const char *const good[] = {
        "", "example.org", "example.org:8443, https://play.example.org",
        "http://[::1]:8080,[2001:db8::1]", " a.b , c-d.e:1 ", "HTTPS://X:65535",
        "play.example.org www.example.org", /* spaces separate too */
    };
    static const char *const bad[][2] = {
        { "http://a b:", "'b:'" },
        { "[::1", "'[::1'" },
        { "example.org/play", "'example.org/play'" },
        { "example.org:0", "'example.org:0'" },
        { "example.org:65536", "'example.org:65536'" },
        { "ftp://example.org", "'ftp://example.org'" },
        { "a.org,,b.org:x", "'b.org:x'" },
    };
    config_t c;
    char err[256], want[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        config_defaults(&c);
        ck_assert_msg(config_set(&c, "ws_origins", good[i], err, sizeof err) ==
                      0, "%s: %s", good[i], err);
        ck_assert_str_eq(c.ws_origins, good[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        config_defaults(&c);
        ck_assert_int_eq(config_set(&c, "ws_origins", bad[i][0], err,
                                    sizeof err), -1);
        snprintf(want, sizeof want, "ws_origins: %s is not a host or "
                 "host:port (maybe after http:// or https://; IPv6 in "
                 "brackets: [::1]:8080)", bad[i][1]);
        ck_assert_str_eq(err, want);
        ck_assert_str_eq(c.ws_origins, ""); /* unchanged */
    }
}
END_TEST

/* A whole number past what a long holds is out of range, as one past the
 * key's bound is; and startups_start above startups_full is refused. */
START_TEST(huge_numbers_and_startups_bounds)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "max_sessions", "99999999999999999999",
                                err, sizeof err), -1);
    ck_assert_str_eq(err, "max_sessions: 99999999999999999999 is outside "
                          "1..1000000");
    ck_assert_int_eq(config_set(&c, "max_sessions", "12x", err, sizeof err),
                     -1);
    ck_assert_str_eq(err, "max_sessions: '12x' is not a whole number");
    ck_assert_int_eq(config_set(&c, "startups_full", "100", err, sizeof err),
                     0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "startups_start (200) must not be above "
                          "startups_full (100)");
    ck_assert_int_eq(config_set(&c, "startups_full", "200", err, sizeof err),
                     0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0); /* a step */
    ck_assert_int_eq(config_set(&c, "startups_start", "0", err, sizeof err), 0);
    ck_assert_int_eq(config_set(&c, "startups_full", "0", err, sizeof err), 0);
    ck_assert_int_eq(config_validate(&c, err, sizeof err), 0); /* never */
}
END_TEST

/* A value that opens a quote must close it: the line, the key and what
 * is wrong, and the key keeps its value. */
START_TEST(an_unclosed_quote_is_refused)
{
    static const struct { const char *line, *why; } bad[] = {
        { "motd = \"Welcome\n", "motd: the value's quote is not closed" },
        { "motd = \"\n", "motd: the value's quote is not closed" },
        { "server_name=\"My Dungeon   \n",
          "server_name: the value's quote is not closed" },
        { "motd = \"Welcome\" # greeting\n", "motd: text after the value's "
          "closing quote (a comment takes a line of its own)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        config_t c, d;
        char err[512], want[512];
        config_defaults(&c);
        d = c;
        char text[600];
        snprintf(text, sizeof text, "port = 4000\n%s", bad[i].line);
        write_file(text);
        ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s:2: %s", path, bad[i].why);
        ck_assert_str_eq(err, want);
        ck_assert_str_eq(c.motd, d.motd);
        ck_assert_str_eq(c.server_name, d.server_name);
        unlink(path);
    }
}
END_TEST

/* Quotes that are closed, or inside a value that does not open one, are
 * as before: the outer pair taken off, anything else kept. */
START_TEST(closed_and_inner_quotes_are_kept)
{
    config_t c;
    char err[256];
    config_defaults(&c);
    write_file("motd = \"say \"hi\" first\"\nserver_name = The \"Pit\"\n"
               "seed = \"\"\n");
    ck_assert_int_eq(config_load_file(&c, path, 1, err, sizeof err), 0);
    unlink(path);
    ck_assert_str_eq(c.motd, "say \"hi\" first");
    ck_assert_str_eq(c.server_name, "The \"Pit\"");
    ck_assert_str_eq(c.seed, "");
}
END_TEST

static void collect(const char *line, void *arg)
{
    char *out = arg;
    size_t n = strlen(out);
    snprintf(out + n, 4096 - n, "%s\n", line);
}

/* Each ROGUED_ variable that is no key is named, with the nearest key
 * when one is a few edits away (a swap counts as one; case is ignored);
 * keys and the variables read on purpose are not (the tests' ROGUED_BIN
 * only when it names a program: ROGUED_BIN=0.0.0.0 was meant for BIND). */
START_TEST(stray_environment_variables_are_named)
{
    char *env[] = {
        "HOME=/root", "ROGUED_PROT=2424", "ROGUED_PORT=2424",
        "ROGUED_max_session=5", "ROGUED_Port=1", "ROGUED_BIN=0.0.0.0",
        "ROGUED_REL_BIN=/nonexistent",
        "ROGUED_UPGRADE_FD=3", "ROGUED_TEST_PG=postgresql://x",
        "ROGUED_CONECTS_PER_IP_PER_MINUTE=1", "ROGUED_FOO=1", "ROGUED_=",
        "ROGUED_BAD\001NAME=1", "XROGUED_PROT=1", "ROGUED_MOTD=a=b",
        NULL,
    };
    static char out[4096];
    out[0] = '\0';
    ck_assert_int_eq(config_env_strays(env, collect, out), 8);
    ck_assert_str_eq(out,
        "config: ROGUED_PROT is not a configuration key (did you mean "
        "ROGUED_PORT?); it is ignored\n"
        "config: ROGUED_max_session is not a configuration key (did you mean "
        "ROGUED_MAX_SESSIONS?); it is ignored\n"
        "config: ROGUED_Port is not a configuration key (did you mean "
        "ROGUED_PORT?); it is ignored\n"
        "config: ROGUED_BIN is not a configuration key (did you mean "
        "ROGUED_BIND?); it is ignored\n"
        "config: ROGUED_CONECTS_PER_IP_PER_MINUTE is not a configuration key "
        "(did you mean ROGUED_CONNECTS_PER_IP_PER_MINUTE?); it is ignored\n"
        "config: ROGUED_FOO is not a configuration key (rogued --help lists "
        "every key); it is ignored\n"
        "config: ROGUED_ is not a configuration key (rogued --help lists "
        "every key); it is ignored\n"
        "config: ROGUED_BAD?NAME is not a configuration key (rogued --help "
        "lists every key); it is ignored\n");
    char *none[] = { "ROGUED_PORT=1", "ROGUED_BIN=/bin/sh", NULL };
    out[0] = '\0';
    ck_assert_int_eq(config_env_strays(none, collect, out), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

/* A name too long to compare is cut in the line, with no suggestion. */
START_TEST(a_long_stray_name_is_cut)
{
    char var[200] = "ROGUED_";
    memset(var + 7, 'A', 100);
    snprintf(var + 107, sizeof var - 107, "=1");
    char *env[] = { var, NULL };
    static char out[4096];
    out[0] = '\0';
    ck_assert_int_eq(config_env_strays(env, collect, out), 1);
    char want[300];
    snprintf(want, sizeof want, "config: ROGUED_%.64s... is not a "
             "configuration key (rogued --help lists every key); it is "
             "ignored\n", var + 7);
    ck_assert_str_eq(out, want);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, defaults_are_sane);
    tcase_add_test(tc, file_sets_keys);
    tcase_add_test(tc, file_errors_name_the_line);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, environment_overrides_file);
    tcase_add_test(tc, environment_notes_make_run);
    tcase_add_test(tc, flags_and_environment_name_their_keys);
    tcase_add_test(tc, validation);
    tcase_add_test(tc, every_bad_value_names_its_file_and_line);
    tcase_add_test(tc, on_off_refusal_names_the_key);
    tcase_add_test(tc, a_key_given_twice_is_refused);
    tcase_add_test(tc, ssh_ciphers_checked_when_read);
    tcase_add_test(tc, shipped_config_matches_defaults);
    tcase_add_test(tc, combat_ruleset_key);
    tcase_add_test(tc, store_lock_timeout_key);
    tcase_add_test(tc, ws_origins_checked_when_read);
    tcase_add_test(tc, huge_numbers_and_startups_bounds);
    tcase_add_test(tc, an_unclosed_quote_is_refused);
    tcase_add_test(tc, closed_and_inner_quotes_are_kept);
    tcase_add_test(tc, stray_environment_variables_are_named);
    tcase_add_test(tc, a_long_stray_name_is_cut);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
