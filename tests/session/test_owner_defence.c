/* test_owner_defence.c - a defence that cannot be turned against the owner
 * (issue 25, docs/hosting.md "The network"): 60 addresses (PROXY headers
 * from a trusted test peer give them) each try a wrong password for the
 * owner's name at once, past the per-name ceiling; the owner, from the
 * address they logged in from before, still gets in. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define STRANGERS 60

/* A telnet client through the "balancer" (this test) as addr, in the
 * lobby. */
static tclient_t *from(int port, const char *addr, int sport)
{
    char hdr[96];
    int n = snprintf(hdr, sizeof hdr, "PROXY TCP4 %s 127.0.0.1 %d 2323\r\n",
                     addr, sport);
    tclient_t *c = cl_connect(port, NULL);
    ck_assert_uint_eq(cl_send_raw(c, hdr, (size_t)n, 1, CL_WAIT_MS),
                      (size_t)n);
    play_wait_text(c, "Play (as a guest)");
    return c;
}

static void login(tclient_t *c, const char *name, const char *pass)
{
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Name:");
    play_type_line(c, name);
    play_wait_text(c, "Password:");
    ck_assert_int_eq(cl_send_str(c, pass), 0);
    ck_assert_int_eq(cl_send_str(c, "\r"), 0);
}

/* The owner registers, then logs in from their address (which the
 * store then knows as theirs). */
static void owner_known(int port)
{
    tclient_t *o = from(port, "192.0.2.10", 40000);
    ck_assert(cl_key(o, "r"));
    play_type_line(o, "owner");
    play_type_line(o, "ownerspassword");
    play_type_line(o, "ownerspassword");
    play_wait_text(o, "Logged in as owner");
    ck_assert(cl_key(o, "l")); /* log out */
    play_wait_text(o, "Play (as a guest)");
    login(o, "owner", "ownerspassword");
    play_wait_text(o, "Logged in as owner");
    cl_close(o);
}

/* n strangers, each from an address of its own, try a wrong password for
 * the owner's name, all at once; then the owner from their address. */
static tclient_t *strangers_then_owner(int port, tclient_t **x, int n)
{
    for (int i = 0; i < n; i++) {
        char addr[32];
        snprintf(addr, sizeof addr, "198.51.100.%d", i + 1);
        x[i] = from(port, addr, 41000 + i);
        login(x[i], "owner", "notthepassword");
    }
    tclient_t *o = from(port, "192.0.2.10", 40001);
    login(o, "owner", "ownerspassword");
    return o;
}

START_TEST(owner_gets_in_while_many_addresses_fail)
{
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.0/8", "--set",
                          "store_wait_ms=120000", "--set",
                          "connects_per_ip_per_minute=0", NULL);
    int port = srv_port(s);
    owner_known(port);
    /* strangers from 60 addresses, one wrong password each, all at once;
     * the owner, from the address they logged in from: in */
    static tclient_t *x[STRANGERS];
    tclient_t *o = strangers_then_owner(port, x, STRANGERS);
    if (!cl_wait_text(o, "Logged in as owner", 120000))
        play_fail(o, "the owner was locked out by strangers' failures");
    ck_assert(!cl_screen_has(o, "Too many failed logins"));
    /* the strangers' tries were checked (or slowed): not one got in */
    ck_assert_int_eq(srv_log_count(s, "login id="), 2);
    for (int i = 0; i < STRANGERS; i++)
        cl_close(x[i]);
    cl_close(o);
    srv_stop(s);
}
END_TEST

/* Either answer a stranger's login may get. */
static int answered(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_screen_has(c, "Wrong name or password") ||
           cl_screen_has(c, "Too many failed logins for that name");
}

START_TEST(one_name_holds_few_checks_and_every_refusal_is_said)
{
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.0/8", "--set",
                          "store_wait_ms=120000", "--set",
                          "connects_per_ip_per_minute=0", "--set",
                          "hashes_per_name=1", NULL);
    int port = srv_port(s);
    owner_known(port);
    enum { N = 30 };
    static tclient_t *x[N];
    tclient_t *o = strangers_then_owner(port, x, N);
    if (!cl_wait_text(o, "Logged in as owner", 120000))
        play_fail(o, "the owner was held to strangers' bound");
    /* every stranger is answered: checked and wrong, or refused */
    int refused_screens = 0;
    for (int i = 0; i < N; i++) {
        if (!cl_wait(x[i], answered, NULL, 120000))
            play_fail(x[i], "a stranger's login was never answered");
        refused_screens +=
            cl_screen_has(x[i], "Too many failed logins for that name");
    }
    int refused = srv_log_count(s, "checks of the name are waiting already: "
                                   "refused");
    ck_assert_int_gt(refused, 0); /* (else the lines below test nothing) */
    /* a refusal is logged as one (no password was checked), not as a
     * failed login a host would count as a guess */
    ck_assert(srv_wait_log_count(s, "login failed id=", N - refused, 60000));
    ck_assert(srv_wait_log_count(s, "login refused id=", refused, 60000));
    ck_assert_int_eq(srv_log_count(s, "slowed down after failed logins of "
                                      "the name; not checked"), refused);
    ck_assert_int_eq(srv_log_count(s, ": bad login"), N - refused);
    ck_assert_int_eq(srv_log_count(s, "login failed id="), N - refused);
    ck_assert_int_eq(refused_screens, refused);
    for (int i = 0; i < N; i++)
        cl_close(x[i]);
    cl_close(o);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("owner_defence");
    TCase *tc = tcase_create("owner_defence");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, owner_gets_in_while_many_addresses_fail);
    tcase_add_test(tc, one_name_holds_few_checks_and_every_refusal_is_said);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
