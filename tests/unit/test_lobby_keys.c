/* test_lobby_keys.c - the lobby's SSH keys pages (server/session/lobby_keys.c) on
 * their own: k only for an account, the list as the store answers it, a
 * key line pasted (control characters refused, the length bounded, typing
 * free of the keys-per-second limit), its refusal and its acceptance, a
 * key removed after y and kept after any other key, the page's state freed
 * on the way out, and the login an SSH key made before the lobby began.
 * The store's answers are played by hand; what the screen shows is read
 * back from lobby_draw at 80x24. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "keys.h"
#include "lobby.h"

static int type(lobby_t *l, const char *text)
{
    int a = LOBBY_DO_NOTHING;
    for (const char *p = text; *p; p++)
        a = lobby_key(l, (unsigned char)*p);
    return a;
}

/* 1 when some row of the lobby drawn at 80x24 contains text. */
static int shows(const lobby_t *l, const char *text)
{
    lobby_info_t info = { .server_name = "testsrv", .motd = "", .online = 1 };
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    lobby_draw(l, &info, &s);
    int found = 0;
    for (int y = 0; y < 24 && !found; y++) {
        char line[81];
        for (int x = 0; x < 80; x++) {
            uint32_t ch = screen_cat(&s, x, y)->ch;
            line[x] = ch < 0x80 && ch >= 0x20 ? (char)ch : '?';
        }
        line[80] = '\0';
        found = strstr(line, text) != NULL;
    }
    screen_free(&s);
    return found;
}

/* l logged in as erin (account 7) by the bridge's key login. */
static void erin(lobby_t *l)
{
    lobby_init(l, "guest1");
    lobby_key_login(l, 7, "erin");
}

static store_keys_t keys_of(int status, int n)
{
    store_keys_t k;
    memset(&k, 0, sizeof k);
    k.status = status;
    k.n = n;
    for (int i = 0; i < n; i++) {
        snprintf(k.keys[i].fingerprint, sizeof k.keys[i].fingerprint,
                 "SHA256:key%d", i + 1);
        snprintf(k.keys[i].type, sizeof k.keys[i].type, "ssh-ed25519");
        k.keys[i].added = 1795000000; /* 2026-11-18 */
    }
    return k;
}

/* k, and the store's list of n keys. */
static void open_keys(lobby_t *l, int n)
{
    ck_assert_int_eq(lobby_key(l, 'k'), LOBBY_DO_KEYS_LIST);
    ck_assert_int_eq(l->page, LOBBY_BUSY);
    ck_assert_ptr_nonnull(l->keys);
    ck_assert_int_eq(lobby_key(l, 'q'), LOBBY_DO_NOTHING); /* busy */
    lobby_keys_set_reach(l, 2222, NULL);
    store_keys_t k = keys_of(STORE_OK, n);
    lobby_keys_done(l, &k);
    ck_assert_int_eq(l->page, LOBBY_KEYS);
}

START_TEST(key_login_is_a_login)
{
    lobby_t l;
    erin(&l);
    ck_assert_str_eq(l.account, "erin");
    ck_assert_int_eq(l.account_id, 7);
    ck_assert_str_eq(lobby_player_name(&l), "erin");
    ck_assert(strstr(l.note, "logged in by your SSH key") != NULL);
    /* what follows a login, once */
    ck_assert_int_eq(lobby_take_key_login(&l), 1);
    ck_assert_int_eq(lobby_take_key_login(&l), 0);
    ck_assert(shows(&l, "Logged in as erin"));
    ck_assert(shows(&l, "k   Your SSH keys"));
    lobby_free(&l);
}
END_TEST

START_TEST(only_accounts_have_keys)
{
    lobby_t l;
    lobby_init(&l, "guest1");
    ck_assert(!shows(&l, "Your SSH keys"));
    ck_assert_int_eq(lobby_key(&l, 'k'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.keys);
    lobby_free(&l);
}
END_TEST

START_TEST(list_shown)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 0);
    ck_assert(shows(&l, "Your SSH keys"));
    ck_assert(shows(&l, "No key yet."));
    ck_assert(shows(&l, "ssh -p 2222 erin@this-host"));
    /* The name the host gave (public_host) in its place. */
    lobby_keys_set_reach(&l, 2222, "play.example.org");
    ck_assert(shows(&l, "ssh -p 2222 erin@play.example.org logs you in"));
    ck_assert(!shows(&l, "this-host"));
    lobby_key(&l, 'q');
    open_keys(&l, 2);
    ck_assert(shows(&l, "1  2026-11-18  SHA256:key1  ed25519"));
    ck_assert(shows(&l, "2  2026-11-18  SHA256:key2  ed25519"));
    /* q: the menu, the pages' state freed */
    ck_assert_int_eq(lobby_key(&l, 'q'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.keys);
    lobby_free(&l);
}
END_TEST

START_TEST(list_that_fails)
{
    lobby_t l;
    erin(&l);
    lobby_key(&l, 'k');
    store_keys_t k = keys_of(STORE_ERROR, 0);
    lobby_keys_done(&l, &k);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.keys);
    ck_assert(shows(&l, "Your keys cannot be read now."));
    lobby_free(&l);
}
END_TEST

/* A real fingerprint (SHA256: and 43 characters) at 80 columns: its date
 * and the fingerprint whole on the row; a long type is what gets cut. */
START_TEST(date_whole_at_80_columns)
{
    lobby_t l;
    erin(&l);
    ck_assert_int_eq(lobby_key(&l, 'k'), LOBBY_DO_KEYS_LIST);
    lobby_keys_set_reach(&l, 2222, NULL);
    store_keys_t k = keys_of(STORE_OK, 2);
    static const char fp[] = "SHA256:uZ0Fh3N8qA4mQyV2bLx9cT7kP1sW6eR5dJ3gH8nY0oI";
    ck_assert_uint_eq(strlen(fp), 50);
    snprintf(k.keys[0].fingerprint, sizeof k.keys[0].fingerprint, "%s", fp);
    snprintf(k.keys[1].fingerprint, sizeof k.keys[1].fingerprint, "%s", fp);
    k.keys[1].fingerprint[49] = 'x';
    snprintf(k.keys[1].type, sizeof k.keys[1].type, "ecdsa-sha2-nistp256");
    lobby_keys_done(&l, &k);
    char want[128];
    snprintf(want, sizeof want, "1  2026-11-18  %s  ed25519", fp);
    ck_assert(shows(&l, want));
    /* the type in short, whole ("ecdsa-sha" said nothing) */
    snprintf(want, sizeof want, "2  2026-11-18  %.49sx  ecdsa-256", fp);
    ck_assert(shows(&l, want));
    lobby_free(&l);
}
END_TEST

START_TEST(add_pasted_line)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 1);
    ck_assert_int_eq(lobby_key(&l, 'a'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_KEY_ADD);
    ck_assert(lobby_typing(&l)); /* a paste is not held to keys per second */
    ck_assert(shows(&l, "Add an SSH key"));
    /* Enter on nothing does nothing */
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    type(&l, "ssh-ed25519 AAAAx comment");
    ck_assert(shows(&l, "ssh-ed25519 AAAAx comment"));
    /* a control character is not typed, and says why */
    lobby_key(&l, 0x01);
    ck_assert_str_eq(lobby_keys_line(&l), "ssh-ed25519 AAAAx comment");
    ck_assert(shows(&l, "A public key line is plain text"));
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_keys_line(&l), "ssh-ed25519 AAAAx commen");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_KEY_ADD);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_str_eq(lobby_keys_line(&l), "ssh-ed25519 AAAAx commen");
    /* the session's check refuses it: the prompt again, empty */
    lobby_keys_refused(&l, "That key's data is damaged: paste the whole line again.");
    ck_assert_int_eq(l.page, LOBBY_KEY_ADD);
    ck_assert_str_eq(lobby_keys_line(&l), "");
    ck_assert(shows(&l, "That key's data is damaged"));
    /* a good one: checked, added */
    type(&l, "ssh-ed25519 AAAAgood");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_KEY_ADD);
    lobby_keys_checked(&l, "SHA256:key2");
    store_keys_t k = keys_of(STORE_OK, 2);
    lobby_keys_done(&l, &k);
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    ck_assert(shows(&l, "Key added: SHA256:key2"));
    ck_assert(shows(&l, "2  2026-11-18  SHA256:key2  ed25519"));
    lobby_free(&l);
}
END_TEST

START_TEST(add_refused_by_store)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 1);
    lobby_key(&l, 'q');
    lobby_free(&l);
    erin(&l);
    open_keys(&l, 2);
    lobby_key(&l, 'a');
    type(&l, "ssh-ed25519 AAAAsame");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_KEY_ADD);
    store_keys_t k = keys_of(STORE_DUPLICATE, 1);
    lobby_keys_done(&l, &k);
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    ck_assert(shows(&l, "That key is registered already."));
    /* Esc on the prompt: the list again, the line dropped */
    lobby_key(&l, 'a');
    type(&l, "ssh-");
    lobby_key(&l, KEY_ESC);
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    lobby_key(&l, 'a');
    ck_assert_str_eq(lobby_keys_line(&l), "");
    lobby_free(&l);
}
END_TEST

START_TEST(full_list_takes_no_more)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, STORE_KEYS_MAX);
    ck_assert_int_eq(lobby_key(&l, 'a'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    ck_assert(shows(&l, "An account has at most 8 keys"));
    lobby_free(&l);
}
END_TEST

START_TEST(line_is_bounded)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 0);
    lobby_key(&l, 'a');
    for (int i = 0; i < LOBBY_KEY_LINE_MAX + 10; i++)
        lobby_key(&l, 'A');
    ck_assert_int_eq((int)strlen(lobby_keys_line(&l)), LOBBY_KEY_LINE_MAX);
    ck_assert(shows(&l, "That line is too long for a public key"));
    /* the end of a long line is what is shown */
    ck_assert(shows(&l, "AAAAAAAAAAAAAAAAAAAA"));
    lobby_free(&l);
}
END_TEST

START_TEST(remove_after_y)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 2);
    /* a number beyond the list: nothing */
    lobby_key(&l, '3');
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    lobby_key(&l, '2');
    ck_assert_int_eq(l.page, LOBBY_KEY_DEL);
    ck_assert(shows(&l, "Remove SHA256:key2?"));
    /* any other key keeps it */
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_KEYS);
    lobby_key(&l, '1');
    ck_assert_int_eq(lobby_key(&l, 'y'), LOBBY_DO_KEY_REMOVE);
    ck_assert_str_eq(lobby_keys_pick(&l), "SHA256:key1");
    store_keys_t k = keys_of(STORE_OK, 1);
    lobby_keys_done(&l, &k);
    ck_assert(shows(&l, "Key removed."));
    ck_assert(!shows(&l, "2   ssh-ed25519"));
    lobby_free(&l);
}
END_TEST

/* Row y of the lobby drawn at w x 20 into out, trailing blanks cut. */
static const char *row_at(const lobby_t *l, int w, int y)
{
    static char line[128];
    lobby_info_t info = { .server_name = "testsrv", .motd = "", .online = 1 };
    screen_t s;
    ck_assert_int_eq(screen_init(&s, w, 20), 0);
    lobby_draw(l, &info, &s);
    int x = 0;
    for (; x < w; x++) {
        uint32_t ch = screen_cat(&s, x, y)->ch;
        line[x] = ch < 0x80 && ch >= 0x20 ? (char)ch : '?';
    }
    while (x > 0 && line[x - 1] == ' ')
        x--;
    line[x] = '\0';
    screen_free(&s);
    return line;
}

/* The keys' pages at 40x20: the sentences broken at spaces, a key a row
 * (eight fit), a fingerprint too long for the row ending in "..." rather
 * than at the edge, the hints whole; at 60 columns the fingerprint
 * whole. */
START_TEST(pages_fit_40x20)
{
    static const char fp[] = "SHA256:uZ0Fh3N8qA4mQyV2bLx9cT7kP1sW6eR5dJ3gH8nY0oI";
    lobby_t l;
    erin(&l);
    ck_assert_int_eq(lobby_key(&l, 'k'), LOBBY_DO_KEYS_LIST);
    lobby_keys_set_reach(&l, 2222, NULL);
    store_keys_t k = keys_of(STORE_OK, 8);
    for (int i = 0; i < 8; i++)
        snprintf(k.keys[i].fingerprint, sizeof k.keys[i].fingerprint, "%s", fp);
    lobby_keys_done(&l, &k);
    static const char *const list[] = {
        "    Your SSH keys",
        "    With one of them, ssh -p 2222",
        "    erin@this-host logs you in with no",
        "    password.",
        "",
        "    1  SHA256:uZ0Fh3N8qA4mQyV2bLx9cT7...",
    };
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(row_at(&l, 40, 6 + i), list[i]);
    ck_assert_str_eq(row_at(&l, 40, 18), "    8  SHA256:uZ0Fh3N8qA4mQyV2bLx9cT7...");
    ck_assert_str_eq(row_at(&l, 40, 19), "    a adds, a number removes, q: menu");
    ck_assert_str_eq(row_at(&l, 60, 10), "    1  SHA256:uZ0Fh3N8qA4mQyV2bLx9cT7kP1sW6eR5dJ3gH8nY0oI");
    ck_assert_int_eq(lobby_key(&l, '2'), LOBBY_DO_NOTHING);
    ck_assert_str_eq(row_at(&l, 40, 8), "    Remove SHA256:uZ0Fh3N8qA4mQyV2bL...?");
    ck_assert_str_eq(row_at(&l, 40, 10), "    y removes it; any other key keeps");
    ck_assert_str_eq(row_at(&l, 40, 11), "    it.");
    lobby_free(&l);
    erin(&l);
    open_keys(&l, 2);
    ck_assert_int_eq(lobby_key(&l, 'a'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_KEY_ADD);
    type(&l, "ssh-ed25519 AAAA erin@laptop");
    static const char *const add[] = {
        "    Paste the line of your public key",
        "    file (~/.ssh/id_ed25519.pub), then",
        "    Enter:",
        "",
        "    ssh-ed25519 AAAA erin@laptop",
    };
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(row_at(&l, 40, 7 + i), add[i]);
    ck_assert_str_eq(row_at(&l, 40, 17), "    Enter adds it, Esc returns. No key");
    ck_assert_str_eq(row_at(&l, 40, 18), "    yet? ssh-keygen -t ed25519 makes");
    ck_assert_str_eq(row_at(&l, 40, 19), "    one.");
    lobby_free(&l);
}
END_TEST

/* A message of the day wider than the terminal takes two rows and moves
 * the news line to row 6, where the keys' pages have their titles: the
 * news is left out there, never drawn into the title. */
START_TEST(news_never_over_the_keys_title)
{
    lobby_t l;
    erin(&l);
    open_keys(&l, 1);
    lobby_info_t info = { .server_name = "testsrv",
                          .motd = "Be kind to each other, and have fun down "
                                  "there",
                          .online = 1,
                          .news = "tester won with 13841 points" };
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 40, 20), 0);
    lobby_draw(&l, &info, &s);
    char row6[41];
    for (int x = 0; x < 40; x++) {
        uint32_t ch = screen_cat(&s, x, 6)->ch;
        row6[x] = ch < 0x80 && ch >= 0x20 ? (char)ch : '?';
    }
    row6[40] = '\0';
    ck_assert_str_eq(row6, "    Your SSH keys                       ");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("lobby keys");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, key_login_is_a_login);
    tcase_add_test(tc, only_accounts_have_keys);
    tcase_add_test(tc, list_shown);
    tcase_add_test(tc, date_whole_at_80_columns);
    tcase_add_test(tc, pages_fit_40x20);
    tcase_add_test(tc, list_that_fails);
    tcase_add_test(tc, add_pasted_line);
    tcase_add_test(tc, add_refused_by_store);
    tcase_add_test(tc, full_list_takes_no_more);
    tcase_add_test(tc, line_is_bounded);
    tcase_add_test(tc, remove_after_y);
    tcase_add_test(tc, news_never_over_the_keys_title);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
