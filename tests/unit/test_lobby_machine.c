/* test_lobby_machine.c - the lobby's state machine (server/session/lobby.h) on its
 * own: keys in, actions and pages out, the notices, the prompts' input line,
 * passwords wiped, the busy page ignoring keys, and the answers of the store
 * played by hand. What the screen shows is read back from lobby_draw at
 * 80x24. The session tests drive the same machine through a real server. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "keys.h"
#include "lobby.h"

/* Feeds each byte of text as a key; returns the last action. */
static int type(lobby_t *l, const char *text)
{
    int a = LOBBY_DO_NOTHING;
    for (const char *p = text; *p; p++)
        a = lobby_key(l, (unsigned char)*p);
    return a;
}

/* 1 when all n bytes are 0. */
static int zeroed(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* No password is held: the input is gone, or (while the store's wait
 * keeps it) its passwords are wiped. */
static int pass_wiped(const lobby_t *l)
{
    return !l->in || (zeroed(l->in->pass, sizeof l->in->pass) &&
                      zeroed(l->in->pass_new, sizeof l->in->pass_new));
}

/* What was typed is wiped, or gone with the input. */
static int line_wiped(const lobby_t *l)
{
    return !l->in || zeroed(l->in->line, sizeof l->in->line);
}

/* Row y of the lobby drawn at 80x24, as ASCII ('?' for any other
 * character), trailing blanks cut. */
static void row(const lobby_t *l, int y, char *out)
{
    lobby_info_t info = { "testsrv", "motd here", 3, 1, NULL, NULL, 0 };
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    lobby_draw(l, &info, &s);
    int n = 0;
    for (int x = 0; x < 80; x++) {
        uint32_t ch = screen_cat(&s, x, y)->ch;
        out[n++] = ch < 0x80 ? (char)ch : '?';
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    screen_free(&s);
}

/* 1 when some row of the drawn lobby contains text. */
static int shows(const lobby_t *l, const char *text)
{
    char line[81];
    for (int y = 0; y < 24; y++) {
        row(l, y, line);
        if (strstr(line, text))
            return 1;
    }
    return 0;
}

static store_account_t account(int status, int64_t id, const char *name)
{
    store_account_t a = { .status = status, .id = id };
    snprintf(a.name, sizeof a.name, "%s", name);
    return a;
}

/* From the menu: l, name and Enter, pass and Enter; the last key's
 * action (a login asked of the store: LOBBY_DO_LOGIN). */
static int type_login(lobby_t *l, const char *name, const char *pass)
{
    ck_assert_int_eq(lobby_key(l, 'l'), LOBBY_DO_NOTHING);
    type(l, name);
    lobby_key(l, KEY_ENTER);
    type(l, pass);
    return lobby_key(l, KEY_ENTER);
}

/* Logs l in as name (any password), through the prompts. */
static void log_in(lobby_t *l, const char *name)
{
    ck_assert_int_eq(type_login(l, name, "secret1"), LOBBY_DO_LOGIN);
    lobby_wipe_password(l);
    store_account_t a = account(STORE_OK, 7, name);
    ck_assert_int_eq(lobby_account_done(l, &a), LOBBY_DO_NOTHING);
    ck_assert_str_eq(l->account, name);
}

START_TEST(starts_at_the_menu)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.suggest, "guest7");
    ck_assert_str_eq(l.account, "");
    ck_assert_str_eq(lobby_player_name(&l), "");
    ck_assert(shows(&l, "Welcome to testsrv"));
    ck_assert(shows(&l, "3 players online, 1 game in progress"));
    ck_assert(shows(&l, "Not logged in"));
    ck_assert(shows(&l, "p   Play (as a guest)"));
    ck_assert(shows(&l, "r   Register an account"));
    lobby_free(&l);

    /* A suggestion that is not a valid name is not offered. */
    lobby_init(&l, "x");
    ck_assert_str_eq(l.suggest, "");
    lobby_free(&l);
}
END_TEST

START_TEST(guest_plays_under_the_offered_name)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_str_eq(lobby_line(&l), "guest7");
    ck_assert_str_eq(l.note, "A guest's game ends with the connection; "
                             "register to keep your name.");
    ck_assert(shows(&l, "Name: guest7"));

    /* A guest's number name is no account's (registering refuses it):
     * it plays at once, without waiting for the store. */
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_PLAY);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.guest, "guest7");
    ck_assert_str_eq(lobby_player_name(&l), "guest7");
    ck_assert(shows(&l, "You are guest7 (a guest)"));
    lobby_free(&l);
    /* The name offered is replaced by one typed (not added to), and
     * cleared whole by Backspace; a name given back after a failed check
     * is the player's own, edited a character at a time. */
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    type(&l, "Zed");
    ck_assert_str_eq(lobby_line(&l), "Zed");
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_line(&l), "Ze");
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'p');
    ck_assert_str_eq(lobby_line(&l), "guest7");
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_line(&l), "");
    type(&l, "Zed");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_ERROR, 0),
                     LOBBY_DO_NOTHING);
    ck_assert_str_eq(lobby_line(&l), "Zed");
    type(&l, "a");
    ck_assert_str_eq(lobby_line(&l), "Zeda");
    lobby_free(&l);
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    lobby_key(&l, KEY_ENTER);
    /* Back in the lobby after a game: p plays at once. */
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_PLAY);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_PLAY);
    ck_assert(shows(&l, "p   Play as guest7"));
    lobby_free(&l);
}
END_TEST

/* Another name asks the store; busy, every key is ignored until the
 * answer (here: the session keeps them and plays them once it is in,
 * test_lobby's keys_typed_during_a_wait_are_kept). */
START_TEST(guest_name_waits_for_the_store)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    lobby_key(&l, 0x15);
    type(&l, "Zed");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_str_eq(l.name, "Zed");
    ck_assert(shows(&l, "One moment..."));
    const int keys[] = { 'p', 'q', KEY_ENTER, KEY_ESC, KEY_CTRL_C, 's', 'x' };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ck_assert_int_eq(lobby_key(&l, keys[i]), LOBBY_DO_NOTHING);
        ck_assert_int_eq(l.page, LOBBY_BUSY);
    }
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_OK, 0), LOBBY_DO_PLAY);
    ck_assert_str_eq(l.guest, "Zed");
    lobby_free(&l);
}
END_TEST

/* A store that does not answer: the wait it began ends with a note and
 * the prompt again; a later wait is not ended by the old one's give-up. */
START_TEST(store_away_ends_the_wait)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(type_login(&l, "Mona", "secret1"), LOBBY_DO_LOGIN);
    uint32_t gen = l.busy_gen;
    ck_assert_int_eq(lobby_store_away(&l, gen - 1, STORE_WAIT_DB), 0); /* another wait */
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_int_eq(lobby_store_away(&l, gen, STORE_WAIT_DB), 1);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_str_eq(l.note, "The server's store is not answering: please "
                             "try again in a moment.");
    ck_assert_str_eq(lobby_take_password(&l), ""); /* wiped */
    /* its answer, if it comes after all, is nobody's */
    store_account_t a = { STORE_OK, 5, "Mona", 0 };
    ck_assert_int_eq(lobby_account_done(&l, &a), LOBBY_DO_NOTHING);
    ck_assert_str_eq(l.account, "");
    /* not busy */
    ck_assert_int_eq(lobby_store_away(&l, gen, STORE_WAIT_DB), 0);
    lobby_free(&l);
}
END_TEST

/* A wait given up in the password checks' line, or in the pool, is not
 * the store failing: the note says the server is busy checking passwords
 * (a host reading it is not sent to the database); a slowed-down login's,
 * too many failed logins. */
START_TEST(a_wait_for_the_hashing_says_so)
{
    static const struct {
        int at;
        const char *note;
    } cases[] = {
        { STORE_WAIT_HASH_LINE, "The server is busy checking passwords: "
                                "please try again in a moment." },
        { STORE_WAIT_HASHING, "The server is busy checking passwords: "
                              "please try again in a moment." },
        { STORE_WAIT_SLOWED, "Too many failed logins for that name. Wait a "
                             "while and try again." },
        { STORE_WAIT_NONE, "The server's store is not answering: please "
                           "try again in a moment." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lobby_t l;
        lobby_init(&l, "");
        ck_assert_int_eq(type_login(&l, "Mona", "secret1"), LOBBY_DO_LOGIN);
        ck_assert_int_eq(lobby_store_away(&l, l.busy_gen, cases[i].at), 1);
        ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
        ck_assert_str_eq(l.note, cases[i].note);
        ck_assert_str_eq(lobby_take_password(&l), ""); /* wiped */
        lobby_free(&l);
    }
}
END_TEST

/* Refuse, do not alter: a line typed with a control character or an
 * escape sequence (the decoder dropped it: the session says so) is
 * refused at Enter with the reason, never taken without it. */
START_TEST(line_with_a_refused_character_is_refused)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'l');
    type(&l, "ab");
    lobby_typed_refused(&l); /* ESC [ 3 1 m, dropped by the decoder */
    type(&l, "red");
    ck_assert_str_eq(lobby_line(&l), "abred");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_str_eq(l.note, "Refused: a name may use only letters, "
                             "digits, _ and -.");
    ck_assert_str_eq(l.name, "");
    ck_assert_str_eq(lobby_line(&l), "");
    /* typed again, cleanly: taken */
    type(&l, "abred");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    /* a password with Ctrl-A */
    type(&l, "pass");
    lobby_key(&l, 0x01);
    type(&l, "word");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    ck_assert_str_eq(l.note, "Refused: a password may not hold control "
                             "characters, escapes or non-UTF-8 bytes.");
    ck_assert_str_eq(lobby_take_password(&l), "");
    /* a guest name too */
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'p');
    lobby_key(&l, 0x15);
    type(&l, "ab");
    lobby_key(&l, 0x1f); /* Ctrl-_ */
    type(&l, "cd");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_str_eq(l.guest, "");
    lobby_free(&l);
}
END_TEST

/* A guest number typed that is not the one offered is refused (the
 * server's to give: it could be another guest's now, or later), the
 * offered one back on the line; the offered one typed plays at once. */
START_TEST(a_guest_number_not_offered_is_refused)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    lobby_key(&l, 0x15);
    type(&l, "GUEST2");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert_str_eq(l.note, "Names of guest and a number are the server's "
                             "to give: choose another.");
    ck_assert_str_eq(lobby_line(&l), "guest7");
    ck_assert_str_eq(l.guest, "");
    lobby_key(&l, 0x15);
    type(&l, "Guest7"); /* its own, in other capitals: its own spelling */
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_PLAY);
    ck_assert_str_eq(l.guest, "guest7");
    lobby_free(&l);
}
END_TEST

/* guest and a number is kept for guests, and play for SSH's guests:
 * registering refuses them. */
START_TEST(register_refuses_a_guest_number)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    type(&l, "Guest12");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "Names of guest and a number are kept for "
                             "guests: choose another.");
    type(&l, "guestly");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_int_eq(lobby_name_is_guest_number("guest"), 0);
    ck_assert_int_eq(lobby_name_is_guest_number("GUEST007"), 1);
    ck_assert_int_eq(lobby_name_is_guest_number("guest7x"), 0);
    /* play is SSH's guest user: an account of it could not use its keys */
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'r');
    type(&l, "PLAY");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "The name play is SSH's guest login: choose "
                             "another.");
    type(&l, "player");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    lobby_free(&l);
}
END_TEST

START_TEST(guest_name_of_an_account_is_refused)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    lobby_key(&l, 0x15); /* Ctrl-U clears the offered name */
    ck_assert_str_eq(lobby_line(&l), "");
    ck_assert_int_eq(lobby_line_len(&l), 0);
    type(&l, "Alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_OK, LOBBY_NAME_ACCOUNT),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert_str_eq(l.note, "Alice belongs to an account: log in, or "
                             "choose another name.");
    ck_assert_str_eq(l.guest, "");
    /* the name offered is back: Enter plays as it */
    ck_assert_str_eq(lobby_line(&l), "guest7");

    /* A name another guest plays under now is refused, with its reason. */
    lobby_key(&l, 0x15);
    type(&l, "zed");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_OK, LOBBY_NAME_PLAYING),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert_str_eq(l.note, "Someone is playing as zed now: choose another "
                             "name.");
    ck_assert_str_eq(l.guest, "");
    ck_assert_str_eq(lobby_line(&l), "guest7");

    /* A failed check refuses too, the name typed kept to ask again. */
    lobby_key(&l, 0x15);
    type(&l, "bob");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_ERROR, 0), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    ck_assert_str_eq(l.note, "The server could not check that name. "
                             "Please try again.");
    ck_assert_str_eq(lobby_line(&l), "bob");

    /* An answer nobody waits for changes nothing. */
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_OK, 0), LOBBY_DO_NOTHING);
    ck_assert_str_eq(l.guest, "");
    ck_assert_int_eq(l.page, LOBBY_GUEST_NAME);
    lobby_free(&l);
}
END_TEST

START_TEST(name_prompt_rules)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'l');
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    /* Too short: a notice, the line cleared, the same prompt. */
    type(&l, "a");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert(l.note[0] != '\0');
    ck_assert_str_eq(lobby_line(&l), "");
    /* A character outside the rules is typed, and refused at Enter with
     * the rule: never dropped in silence. */
    lobby_key(&l, 0xe9); /* e acute */
    ck_assert_int_eq(lobby_line_len(&l), 2);
    type(&l, "ric");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_str_eq(l.note, "A name may use only letters, digits, _ and -.");
    ck_assert_str_eq(lobby_line(&l), "");
    /* At most ACCT_NAME_MAX characters: the next one says so. */
    type(&l, "abcdefghijklmnopqrstuvwxyz");
    ck_assert_int_eq(lobby_line_len(&l), ACCT_NAME_MAX);
    ck_assert_str_eq(lobby_line(&l), "abcdefghijklmnopqrst");
    ck_assert_str_eq(l.note, "A name has at most 20 characters.");
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_line(&l), "abcdefghijklmnopqrs");
    ck_assert_str_eq(l.note, ""); /* no longer true of the line */
    /* Special keys type nothing; a control character types nothing and
     * shows the rule. */
    l.note[0] = '\0';
    lobby_key(&l, KEY_UP);
    ck_assert_str_eq(l.note, "");
    lobby_key(&l, 0x01);
    ck_assert_str_eq(l.note, "A name may use only letters, digits, _ and -.");
    lobby_key(&l, 0x85);
    ck_assert_str_eq(lobby_line(&l), "abcdefghijklmnopqrs");
    /* Esc: back to the menu, the line and the notice gone. */
    lobby_key(&l, KEY_ESC);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "");
    ck_assert_ptr_null(l.in); /* nothing typed is held at the menu */
    lobby_free(&l);
}
END_TEST

/* Any printable UTF-8 goes into a password, up to 128 bytes; the byte
 * that would pass that, or a control character, is refused with the rule. */
START_TEST(password_prompt_rules)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    type(&l, "Zoe");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    lobby_key(&l, 0x20ac); /* euro sign: 3 bytes */
    lobby_key(&l, 0x1f600); /* an emoji: 4 bytes */
    ck_assert_int_eq(lobby_line_len(&l), 7);
    for (int i = 0; i < 121; i++)
        lobby_key(&l, 'x');
    ck_assert_int_eq(lobby_line_len(&l), 128);
    ck_assert_str_eq(l.note, "");
    lobby_key(&l, 'x'); /* the 129th byte */
    ck_assert_int_eq(lobby_line_len(&l), 128);
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    l.note[0] = '\0';
    lobby_key(&l, 0x07);
    ck_assert_str_eq(l.note, "A password may not hold control characters.");
    ck_assert_int_eq(lobby_line_len(&l), 128);
    lobby_free(&l);
}
END_TEST

/* c changes the password of the account logged in: the present one,
 * checked by the session before anything else is asked, then the new one
 * twice (the rules checked, a mismatch typed again), which the session
 * sets; it says how it went. */
START_TEST(change_password)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(lobby_key(&l, 'c'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU); /* nobody logged in: said why */
    ck_assert_str_eq(l.note, "Log in first: a password is an account's (l "
                             "logs in, r registers).");
    ck_assert_int_eq(lobby_key(&l, 'k'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "Log in first: SSH keys are an account's (l "
                             "logs in, r registers).");
    log_in(&l, "Mona");
    ck_assert(shows(&l, "c   Change your password"));
    lobby_key(&l, 'c');
    ck_assert_int_eq(l.page, LOBBY_PW_OLD);
    ck_assert(lobby_in_password(&l) && lobby_typing(&l));
    type(&l, "oldpass1");
    ck_assert(shows(&l, "Present password: ********"));
    ck_assert(!shows(&l, "oldpass1"));
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_PASSWORD);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_str_eq(lobby_take_password(&l), "oldpass1");
    ck_assert(!l.pw_checked);
    ck_assert_int_eq(lobby_password_checked(&l, STORE_OK), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW);
    ck_assert(l.pw_checked);
    /* kept for the second check, as the new one is set */
    ck_assert_str_eq(lobby_take_password(&l), "oldpass1");
    ck_assert_str_eq(l.note, "Type the new password.");
    type(&l, "abc"); /* too short */
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW);
    ck_assert_str_eq(l.note, "A password needs at least 6 characters.");
    type(&l, "newpass1");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW2);
    type(&l, "newpass2");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW);
    ck_assert_str_eq(l.note, "The new passwords differ. Type the new one again.");
    type(&l, "newpass1");
    lobby_key(&l, KEY_ENTER);
    type(&l, "newpass1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHANGE_PASSWORD);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert(l.pw_checked);
    ck_assert_str_eq(lobby_take_password(&l), "oldpass1");
    ck_assert_str_eq(lobby_take_new_password(&l), "newpass1");
    lobby_wipe_password(&l);
    ck_assert_ptr_nonnull(l.in); /* the store's wait keeps it, wiped */
    ck_assert(pass_wiped(&l));
    ck_assert_int_eq(lobby_password_changed(&l, STORE_OK), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.in);
    ck_assert(!l.pw_checked);
    ck_assert_str_eq(l.note, "Your password is changed.");
    /* Esc after the check leaves the change, and its check with it. */
    lobby_key(&l, 'c');
    type(&l, "newpass1");
    lobby_key(&l, KEY_ENTER);
    lobby_password_checked(&l, STORE_OK);
    ck_assert(l.pw_checked);
    lobby_key(&l, KEY_ESC);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert(!l.pw_checked);
    /* The present password changed elsewhere between the two checks:
     * the second refuses it, and it counts as a failed login. */
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'c');
    type(&l, "newpass1");
    lobby_key(&l, KEY_ENTER);
    lobby_password_checked(&l, STORE_OK);
    type(&l, "newpass4");
    lobby_key(&l, KEY_ENTER);
    type(&l, "newpass4");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHANGE_PASSWORD);
    ck_assert_int_eq(lobby_password_changed(&l, STORE_BAD_LOGIN),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "That is not your password: it is unchanged.");
    ck_assert_ptr_null(l.in);
    /* A wrong present password is said at once, before a new one is
     * asked, on its own prompt again (what was typed on is typed there,
     * hidden, never played at the menu), and counts as a failed login
     * (one above). */
    lobby_key(&l, 'c');
    for (int i = 1; i < ACCT_LOGIN_TRIES; i++) {
        type(&l, "wrongone");
        ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_PASSWORD);
        int want = i + 1 < ACCT_LOGIN_TRIES ? LOBBY_DO_NOTHING : LOBBY_DO_QUIT;
        ck_assert_int_eq(lobby_password_checked(&l, STORE_BAD_LOGIN), want);
        ck_assert(!l.pw_checked);
        ck_assert(pass_wiped(&l));
        if (want == LOBBY_DO_NOTHING) {
            ck_assert_int_eq(l.page, LOBBY_PW_OLD);
            ck_assert(lobby_in_password(&l));
            ck_assert_str_eq(l.note, "That is not your password: it is unchanged.");
        }
    }
    lobby_free(&l);
}
END_TEST

START_TEST(login_wipes_the_password)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'L');
    type(&l, "alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    ck_assert(lobby_in_password(&l));
    ck_assert_str_eq(l.name, "alice");
    type(&l, "hunter22");
    /* Drawn as stars, never as itself. */
    ck_assert(shows(&l, "Name: alice"));
    ck_assert(shows(&l, "Password: ********"));
    ck_assert(!shows(&l, "hunter22"));

    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_LOGIN);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert(line_wiped(&l));
    ck_assert_str_eq(lobby_take_password(&l), "hunter22");
    lobby_wipe_password(&l);
    ck_assert(pass_wiped(&l));

    store_account_t a = account(STORE_OK, 42, "Alice");
    ck_assert_int_eq(lobby_account_done(&l, &a), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.account, "Alice"); /* as registered */
    ck_assert_int_eq(l.account_id, 42);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_GOOD);
    ck_assert_str_eq(l.note, "Welcome back, Alice!");
    ck_assert_str_eq(lobby_player_name(&l), "Alice");
    ck_assert(shows(&l, "Logged in as Alice"));
    ck_assert(shows(&l, "l   Log out"));
    ck_assert(!shows(&l, "Register"));
    /* Logged in, r registers nothing. */
    ck_assert_int_eq(lobby_key(&l, 'r'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    lobby_free(&l);
}
END_TEST

START_TEST(answer_wipes_the_password_the_session_kept)
{
    /* If the session never wipes, the answer still does. */
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(type_login(&l, "alice", "hunter22"), LOBBY_DO_LOGIN);
    store_account_t a = account(STORE_BAD_LOGIN, 0, "");
    lobby_account_done(&l, &a);
    ck_assert(pass_wiped(&l));
    lobby_free(&l);
}
END_TEST

START_TEST(five_failed_logins_quit)
{
    lobby_t l;
    lobby_init(&l, "");
    store_account_t bad = account(STORE_BAD_LOGIN, 0, "");
    for (int i = 1; i <= ACCT_LOGIN_TRIES; i++) {
        if (l.page == LOBBY_MENU)
            lobby_key(&l, 'l');
        ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
        type(&l, "alice");
        lobby_key(&l, KEY_ENTER);
        type(&l, "wrong!!");
        ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_LOGIN);
        lobby_wipe_password(&l);
        int a = lobby_account_done(&l, &bad);
        if (i < ACCT_LOGIN_TRIES) {
            ck_assert_int_eq(a, LOBBY_DO_NOTHING);
            ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
            ck_assert_str_eq(l.note, "Wrong name or password.");
            ck_assert_int_eq(l.failures, i);
        } else {
            ck_assert_int_eq(a, LOBBY_DO_QUIT);
        }
    }
    ck_assert_str_eq(l.account, "");
    lobby_free(&l);
}
END_TEST

START_TEST(login_answers_say_why)
{
    static const struct { int status; const char *note; } cases[] = {
        { STORE_SLOW_DOWN, "Too many failed logins for that name. "
                           "Wait a while and try again." },
        { STORE_ERROR, "The server could not do that now. Please try again." },
        { STORE_INVALID, "That name or password is not allowed." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lobby_t l;
        lobby_init(&l, "");
        ck_assert_int_eq(type_login(&l, "alice", "hunter22"), LOBBY_DO_LOGIN);
        store_account_t a = account(cases[i].status, 0, "");
        ck_assert_int_eq(lobby_account_done(&l, &a), LOBBY_DO_NOTHING);
        ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
        ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
        ck_assert_str_eq(l.note, cases[i].note);
        ck_assert_int_eq(l.failures, 0); /* only a wrong password counts */
        lobby_free(&l);
    }
}
END_TEST

START_TEST(register_asks_twice)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    type(&l, "bob");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    /* Too short: refused at once, nothing kept. */
    type(&l, "abc");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert(pass_wiped(&l));
    /* Passwords take any printable character; Backspace takes a whole one. */
    type(&l, "secret");
    lobby_key(&l, 0x20ac); /* the euro sign: 3 bytes */
    ck_assert_int_eq(lobby_line_len(&l), 9);
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_line(&l), "secret");
    lobby_key(&l, 0x20ac);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS2);
    ck_assert_str_eq(l.note, "Type the same password again.");
    ck_assert(shows(&l, "Again:"));
    ck_assert_str_eq(lobby_line(&l), "");
    /* A different second password: both forgotten, choose again. */
    type(&l, "secret!");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(l.note, "The passwords differ. Choose a password again.");
    ck_assert(pass_wiped(&l));
    /* The same twice: the store is asked. */
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_REGISTER);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_str_eq(l.name, "bob");
    ck_assert_str_eq(lobby_take_password(&l), "secret1");

    /* Taken: back to the name. */
    store_account_t taken = account(STORE_NAME_TAKEN, 0, "");
    ck_assert_int_eq(lobby_account_done(&l, &taken), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "That name is taken. Choose another.");
    ck_assert(pass_wiped(&l));

    type(&l, "bobby");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_REGISTER);
    lobby_wipe_password(&l);
    store_account_t ok = account(STORE_OK, 3, "bobby");
    ck_assert_int_eq(lobby_account_done(&l, &ok), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "Welcome, bobby! Your account is ready.");
    ck_assert_str_eq(l.account, "bobby");
    lobby_free(&l);
}
END_TEST

/* At the registration the name is asked about as its Enter is typed,
 * without a wait: the password prompt takes keys at once, and a taken
 * name is told before the password is done. */
START_TEST(register_name_taken_told_early)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    type(&l, "bob");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS); /* no wait: keys go on */
    ck_assert_str_eq(l.name, "bob");
    /* Free: nothing changes, what was typed meanwhile stays. */
    type(&l, "sec");
    ck_assert_int_eq(lobby_name_checked(&l, "bob", STORE_OK, 0),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(lobby_line(&l), "sec");
    /* Answered: another answer, to no question out, is none of ours. */
    ck_assert_int_eq(lobby_name_checked(&l, "bob", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(lobby_line(&l), "sec");
    lobby_key(&l, KEY_ESC);

    /* Taken, nothing of the password typed yet: back to the name. */
    lobby_key(&l, 'r');
    type(&l, "alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    ck_assert_int_eq(lobby_name_checked(&l, "alice", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert_str_eq(l.note, "The name alice is taken: choose another.");
    ck_assert(shows(&l, "The name alice is taken: choose another."));
    type(&l, "carol"); /* the name prompt takes keys at once */
    ck_assert_str_eq(lobby_line(&l), "carol");
    lobby_key(&l, KEY_ESC);

    /* Taken at the second password: both wiped, and the rest of the line
     * is dropped up to its Enter, never shown as a name. */
    lobby_key(&l, 'r');
    type(&l, "alice");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    type(&l, "sec");
    ck_assert_int_eq(lobby_name_checked(&l, "alice", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert(pass_wiped(&l));
    ck_assert(line_wiped(&l));
    ck_assert_str_eq(l.note, "The name alice is taken. Press Enter, then "
                     "choose another.");
    type(&l, "ret1");
    ck_assert_str_eq(lobby_line(&l), "");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "The name alice is taken: choose another.");
    type(&l, "dave");
    ck_assert_str_eq(lobby_line(&l), "dave");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    /* A guest plays under it now: said so, either way */
    type(&l, "se");
    ck_assert_int_eq(lobby_name_checked(&l, "dave", STORE_OK,
                                        LOBBY_NAME_PLAYING), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert(pass_wiped(&l));
    ck_assert_str_eq(l.note, "Someone is playing as dave now. Press Enter, "
                     "then choose another.");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    type(&l, "dave");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    ck_assert_int_eq(lobby_name_checked(&l, "dave", STORE_OK,
                                        LOBBY_NAME_PLAYING), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "Someone is playing as dave now: choose "
                     "another.");
    type(&l, "dave");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);

    /* The store could not say: nothing changes (the end checks). */
    ck_assert_int_eq(lobby_name_checked(&l, "dave", STORE_ERROR, 0),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    lobby_free(&l);
}
END_TEST

/* An answer for a name the player has moved on from is dropped: gone
 * back to the menu, or to another name (which is then asked about, one
 * question at a time), or at the registration's own wait. */
START_TEST(register_stale_name_answer_is_dropped)
{
    lobby_t l;
    lobby_init(&l, "");
    /* Left for the menu: the answer changes nothing. */
    lobby_key(&l, 'r');
    type(&l, "alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    lobby_key(&l, KEY_ESC);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_int_eq(lobby_name_checked(&l, "alice", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "");

    /* Another name typed while the first question is out: not asked yet
     * (one at a time); the first answer is dropped and asks for it. */
    lobby_key(&l, 'r');
    type(&l, "alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'r');
    type(&l, "bob");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    type(&l, "pass");
    ck_assert_int_eq(lobby_name_checked(&l, "alice", STORE_OK, 1),
                     LOBBY_DO_CHECK_NAME);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(lobby_line(&l), "pass");
    ck_assert_str_eq(l.note, "");
    /* bob's own answer counts. */
    ck_assert_int_eq(lobby_name_checked(&l, "bob", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "The name bob is taken. Press Enter, then "
                     "choose another.");
    lobby_key(&l, KEY_ENTER);

    /* At the registration's own wait: the end's answer decides. */
    type(&l, "carol");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_NAME);
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_REGISTER);
    ck_assert_int_eq(lobby_name_checked(&l, "carol", STORE_OK, 1),
                     LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_str_eq(lobby_take_password(&l), "secret1");
    lobby_free(&l);
}
END_TEST

START_TEST(esc_at_a_password_wipes_it)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    type(&l, "bob");
    lobby_key(&l, KEY_ENTER);
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER); /* kept for the second prompt */
    ck_assert_str_eq(lobby_take_password(&l), "secret1");
    type(&l, "secr");
    ck_assert_int_eq(lobby_key(&l, KEY_CTRL_C), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.in); /* wiped and freed */
    ck_assert_str_eq(l.note, "");
    lobby_free(&l);
}
END_TEST

START_TEST(logout_drops_the_account)
{
    lobby_t l;
    lobby_init(&l, "");
    log_in(&l, "Alice");
    ck_assert_int_eq(lobby_key(&l, 'l'), LOBBY_DO_LOGOUT);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.account, "");
    ck_assert_int_eq(l.account_id, 0);
    ck_assert_str_eq(l.note, "Logged out of Alice.");
    ck_assert_str_eq(lobby_player_name(&l), "");
    lobby_free(&l);
}
END_TEST

START_TEST(resume_offer_and_wait)
{
    lobby_t l;
    lobby_init(&l, "");
    log_in(&l, "Alice");
    /* The session asks the store about a saved game: p must wait. */
    lobby_wait(&l);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_NOTHING);
    lobby_offer_resume(&l, 3, 250, 0);
    lobby_waited(&l);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_GOOD);
    ck_assert_str_eq(l.note, "Welcome back, Alice! Your game is waiting: "
                             "p continues it.");
    ck_assert(shows(&l, "p   Continue your game (depth 3, turn 250)"));
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_PLAY);
    ck_assert_int_eq(l.resume, 0);
    ck_assert_str_eq(l.note, "");
    /* Back by S: the game is said saved, not welcomed back as a login. */
    lobby_wait(&l);
    lobby_offer_resume(&l, 3, 251, 1);
    lobby_waited(&l);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_GOOD);
    ck_assert_str_eq(l.note, "Your game is saved: p goes on with it.");
    ck_assert(shows(&l, "p   Continue your game (depth 3, turn 251)"));
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_PLAY);
    /* lobby_waited when not waiting changes nothing. */
    lobby_key(&l, '?');
    lobby_waited(&l);
    ck_assert_int_eq(l.page, LOBBY_HELP);
    lobby_free(&l);
}
END_TEST

/* A saved game that cannot be rebuilt: said with both ways on; n ends
 * it (LOBBY_DO_PLAY_NEW) once, and only then: before it, after p (which
 * asks again), after a logout, or once a game is offered again, n is no
 * key. */
START_TEST(a_broken_saved_game_is_ended_by_n_only)
{
    lobby_t l;
    lobby_init(&l, "");
    log_in(&l, "Alice");
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    lobby_saved_broken(&l);
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert_str_eq(l.note, "Your saved game cannot be rebuilt. p tries "
                             "again; n ends it for a new game.");
    ck_assert_int_eq(lobby_key(&l, 'N'), LOBBY_DO_PLAY_NEW);
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    /* p asks again: n is for what its own answer says, not the last */
    lobby_saved_broken(&l);
    ck_assert_int_eq(lobby_key(&l, 'p'), LOBBY_DO_PLAY);
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    lobby_saved_broken(&l);
    lobby_offer_resume(&l, 2, 40, 0); /* mended: p continues it */
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    lobby_saved_broken(&l);
    ck_assert_int_eq(lobby_key(&l, 'l'), LOBBY_DO_LOGOUT);
    log_in(&l, "Bob");
    ck_assert_int_eq(lobby_key(&l, 'n'), LOBBY_DO_NOTHING);
    lobby_free(&l);
}
END_TEST

/* A hall of fame of n rows with game ids 100, 101, ... */
static store_scores_t scores(int n)
{
    store_scores_t s;
    memset(&s, 0, sizeof s);
    s.status = STORE_OK;
    s.n = n;
    for (int i = 0; i < n; i++) {
        s.top[i].game_id = 100 + i;
        snprintf(s.top[i].name, sizeof s.top[i].name, "p%02d", i);
        s.top[i].score = 1000 - i;
        s.top[i].depth = 2;
        s.top[i].turns = 300;
        snprintf(s.top[i].cause, sizeof s.top[i].cause, "killed by a troll");
        s.top[i].ended = 1795392000; /* 2026-11-23 */
    }
    return s;
}

START_TEST(hall_of_fame_and_replay)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(lobby_key(&l, 's'), LOBBY_DO_SCORES);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    store_scores_t s = scores(STORE_TOP_MAX);
    lobby_scores_done(&l, &s);
    ck_assert_int_eq(l.page, LOBBY_SCORES);
    ck_assert_ptr_nonnull(l.scores);
    ck_assert(shows(&l, "Hall of fame"));
    /* 80x24 has rows for 13 of the 20; the letter has a column of its own
     * (test_hall_of_fame.c has the layout) */
    ck_assert(shows(&l, "m   13 p12                     988   2    300 a troll       att-def   2026-11-23"));
    ck_assert(!shows(&l, "p13"));
    /* A letter replays that row's game (keys wait for the store). */
    ck_assert_int_eq(lobby_key(&l, 'c'), LOBBY_DO_REPLAY);
    ck_assert_int_eq(l.pick_id, 102);
    ck_assert_int_eq(l.page, LOBBY_BUSY);
    lobby_waited(&l);
    ck_assert_int_eq(l.page, LOBBY_SCORES);
    /* Any other key returns, and the table is freed. */
    ck_assert_int_eq(lobby_key(&l, '!'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.scores);

    /* A letter past the rows returns too. */
    lobby_key(&l, 's');
    s = scores(2);
    lobby_scores_done(&l, &s);
    ck_assert_int_eq(lobby_key(&l, 'c'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);

    /* The store failed: a notice, the menu. */
    lobby_key(&l, 's');
    s.status = STORE_ERROR;
    lobby_scores_done(&l, &s);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_ptr_null(l.scores);
    ck_assert_str_eq(l.note, "The high scores cannot be read now.");
    lobby_free(&l);
}
END_TEST

START_TEST(watch_list_picks_by_letter)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(lobby_key(&l, 'w'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_WATCH);
    ck_assert(shows(&l, "Nobody is playing right now."));
    ck_assert_int_eq(lobby_key(&l, 'a'), LOBBY_DO_NOTHING);
    l.nwatch = 2;
    l.watch[0] = (lobby_game_t){ 11, "ann", 1, 10, 5, 0 };
    l.watch[1] = (lobby_game_t){ 22, "ben", 4, 900, 125, 2 };
    ck_assert(shows(&l, "b  ben                      4    900       2m        2"));
    ck_assert_int_eq(lobby_key(&l, 'c'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_WATCH);
    ck_assert_int_eq(lobby_key(&l, 'b'), LOBBY_DO_WATCH);
    ck_assert_int_eq(l.pick_id, 22);
    ck_assert_int_eq(lobby_key(&l, 'q'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    lobby_free(&l);
}
END_TEST

START_TEST(help_quit_and_other_keys)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(lobby_key(&l, '?'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_HELP);
    /* The help says what happens and fits 80x24. */
    ck_assert(shows(&l, "13 at 80x24, 12 over your own best"));
    ck_assert(shows(&l, "YOU DIED"));
    ck_assert(shows(&l, "Press any key to return."));
    ck_assert_int_eq(lobby_key(&l, 'x'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    /* Keys the menu does not know do nothing. */
    ck_assert_int_eq(lobby_key(&l, 'z'), LOBBY_DO_NOTHING);
    ck_assert_int_eq(lobby_key(&l, KEY_F1), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_int_eq(lobby_key(&l, 'q'), LOBBY_DO_QUIT);
    ck_assert_int_eq(lobby_key(&l, KEY_CTRL_C), LOBBY_DO_QUIT);
    lobby_free(&l);
}
END_TEST

START_TEST(note_is_cleared_by_the_next_menu_key)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_note(&l, LOBBY_NOTE_BAD, "The game %d could not be %s.", 5, "read");
    ck_assert_str_eq(l.note, "The game 5 could not be read.");
    ck_assert_int_eq(l.note_kind, LOBBY_NOTE_BAD);
    ck_assert(shows(&l, "The game 5 could not be read."));
    lobby_key(&l, 'z');
    ck_assert_str_eq(l.note, "");
    /* A note longer than its line is cut, not overrun. */
    char longer[200];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    lobby_note(&l, LOBBY_NOTE_INFO, "%s", longer);
    ck_assert_uint_eq(strlen(l.note), sizeof l.note - 1);
    lobby_free(&l);
}
END_TEST

/* A note belongs to the step it was said at: a prompt typed again keeps
 * its refusal; the step passed or left takes it along, and the next
 * page shows only what was said for it. */
START_TEST(note_goes_with_its_step)
{
    lobby_t l;
    lobby_init(&l, "guest7");
    /* A refused name, then a good one: the password step is clean. */
    lobby_key(&l, 'r');
    type(&l, "xy");
    lobby_key(&l, 0x01);
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_NAME);
    ck_assert_str_eq(l.note, "Refused: a name may use only letters, "
                             "digits, _ and -.");
    type(&l, "abcd");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(l.note, "");
    ck_assert(!shows(&l, "Refused"));
    /* the hint said on the way is the next step's */
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS2);
    ck_assert_str_eq(l.note, "Type the same password again.");
    lobby_key(&l, KEY_ESC);

    /* A guest name refused, then one that the store lets play: the menu
     * it plays from keeps neither the rule nor the prompt's hint. */
    lobby_key(&l, 'p');
    lobby_key(&l, 0x15);
    type(&l, "a b");
    lobby_key(&l, KEY_ENTER);
    ck_assert_str_eq(l.note, "A name may use only letters, digits, _ and -.");
    type(&l, "Tester");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_GUEST);
    ck_assert_int_eq(lobby_guest_checked(&l, STORE_OK, 0), LOBBY_DO_PLAY);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "");
    lobby_free(&l);

    /* The offered guest name plays at once: the prompt's hint goes. */
    lobby_init(&l, "guest7");
    lobby_key(&l, 'p');
    ck_assert_str_eq(l.note, "A guest's game ends with the connection; "
                             "register to keep your name.");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_PLAY);
    ck_assert_str_eq(l.note, "");
    lobby_free(&l);

    /* The store's answer is said for the page it moves to, and stays
     * through the session's waits that follow, keys pressed meanwhile
     * or not; leaving the lobby for a game clears it. */
    lobby_init(&l, "");
    log_in(&l, "hero1");
    ck_assert_str_eq(l.note, "Welcome back, hero1!");
    lobby_wait(&l);
    lobby_key(&l, 'x');
    lobby_waited(&l);
    ck_assert_int_eq(l.page, LOBBY_MENU);
    ck_assert_str_eq(l.note, "Welcome back, hero1!");
    /* (the session clears it as the lobby is left for the game:
     * test_lobby's old_notes_do_not_outlive_their_step) */
    lobby_free(&l);
}
END_TEST

/* A line longer than its prompt takes is refused at Enter with the rule,
 * never taken cut short: a password's first 128 bytes are not the
 * password typed. */
START_TEST(too_long_a_line_is_refused_at_enter)
{
    char many[151];
    memset(many, 'x', 150);
    many[150] = '\0';
    lobby_t l;
    lobby_init(&l, "");
    /* registering */
    lobby_key(&l, 'r');
    type(&l, "Zoe");
    lobby_key(&l, KEY_ENTER);
    type(&l, many);
    ck_assert_int_eq(lobby_line_len(&l), 128);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    ck_assert_str_eq(lobby_line(&l), "");
    ck_assert(pass_wiped(&l));
    /* typed again within the limit: taken */
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS2);
    lobby_key(&l, KEY_ESC);
    /* logging in */
    lobby_key(&l, 'l');
    type(&l, "Zoe");
    lobby_key(&l, KEY_ENTER);
    type(&l, many);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    ck_assert(pass_wiped(&l));
    /* Ctrl-U starts the line again: within the limit, it is asked */
    type(&l, many);
    lobby_key(&l, 0x15);
    type(&l, "secret1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_LOGIN);
    lobby_wipe_password(&l);
    store_account_t a = account(STORE_OK, 7, "Zoe");
    lobby_account_done(&l, &a);
    /* changing the password: the present one, and the new one */
    lobby_key(&l, 'c');
    type(&l, many);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_PW_OLD);
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    type(&l, "secret1");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_CHECK_PASSWORD);
    lobby_wipe_password(&l);
    lobby_password_checked(&l, STORE_OK);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW);
    type(&l, many);
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_PW_NEW);
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    ck_assert(zeroed(l.in->pass_new, sizeof l.in->pass_new));
    lobby_key(&l, KEY_ESC);
    /* a name too: refused, not cut to its first 20 characters */
    lobby_key(&l, 'l'); /* logs out */
    lobby_key(&l, 'l');
    type(&l, "abcdefghijklmnopqrstuvwxyz");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_str_eq(l.note, "A name has at most 20 characters.");
    ck_assert_str_eq(l.name, "Zoe");
    lobby_free(&l);
}
END_TEST

/* What was kept out of the line goes with the characters typed before it
 * when they are erased: the line is then judged as it stands, not
 * refused for a character no longer in what was typed. */
START_TEST(erasing_takes_back_what_was_kept_out)
{
    lobby_t l;
    lobby_init(&l, "");
    /* 22 letters at a name prompt (2 past the limit), all erased: a name
     * typed then is taken */
    lobby_key(&l, 'l');
    type(&l, "abcdefghijklmnopqrstuv");
    ck_assert_str_eq(l.note, "A name has at most 20 characters.");
    lobby_key(&l, KEY_BACKSPACE); /* the line holds all it kept */
    ck_assert_str_eq(l.note, "");
    for (int i = 1; i < 20; i++)
        lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(lobby_line(&l), "");
    type(&l, "bobby");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    ck_assert_str_eq(l.name, "bobby");
    lobby_key(&l, KEY_ESC);
    /* alice, Ctrl-W: one Backspace takes the e and the Ctrl-W typed
     * after it */
    lobby_key(&l, 'l');
    type(&l, "alice");
    lobby_key(&l, 0x17);
    ck_assert_str_eq(l.note, "A name may use only letters, digits, _ and -.");
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(l.note, ""); /* the Ctrl-W went with the e */
    type(&l, "e");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    ck_assert_str_eq(l.name, "alice");
    lobby_key(&l, KEY_ESC);
    /* a control character typed before a letter stays while only the
     * letter is erased: still refused */
    lobby_key(&l, 'l');
    type(&l, "alic");
    lobby_key(&l, 0x01);
    type(&l, "e");
    lobby_key(&l, KEY_BACKSPACE);
    ck_assert_str_eq(l.note, "A name may use only letters, digits, _ and -.");
    type(&l, "e");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    ck_assert_str_eq(l.note, "Refused: a name may use only letters, "
                             "digits, _ and -.");
    /* on an empty line, Backspace takes back what was kept out: an
     * escape sequence typed first, then erased */
    lobby_typed_refused(&l);
    lobby_key(&l, KEY_BACKSPACE);
    type(&l, "alice");
    ck_assert_int_eq(lobby_key(&l, KEY_ENTER), LOBBY_DO_NOTHING);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    /* a password 130 bytes long, all erased, then secret1: taken */
    lobby_key(&l, KEY_ESC);
    lobby_key(&l, 'r');
    type(&l, "Zoe");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS);
    for (int i = 0; i < 130; i++)
        lobby_key(&l, 'x');
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    for (int i = 0; i < 128; i++)
        lobby_key(&l, KEY_BACKSPACE);
    type(&l, "secret1");
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_REG_PASS2);
    /* Ctrl-U clears the line and the rule said of what it held */
    for (int i = 0; i < 130; i++)
        lobby_key(&l, 'x');
    ck_assert_str_eq(l.note, "A password has at most 128 bytes.");
    lobby_key(&l, 0x15);
    ck_assert_str_eq(l.note, "");
    lobby_key(&l, 0x01);
    ck_assert_str_eq(l.note, "A password may not hold control characters.");
    lobby_key(&l, 0x15);
    ck_assert_str_eq(l.note, "");
    lobby_free(&l);
}
END_TEST

/* The line being typed is drawn a character a cell, as typed: an e acute
 * one cell (not its two bytes), a character two columns wide a '?' */
START_TEST(prompt_line_drawn_a_character_a_cell)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'l');
    lobby_key(&l, 0xe9);  /* e acute */
    type(&l, "ric");
    lobby_key(&l, 0x65e5); /* a CJK character, two columns */
    lobby_info_t info = { "testsrv", "motd here", 3, 1, NULL, NULL, 0 };
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    lobby_draw(&l, &info, &s);
    int found = 0;
    for (int y = 0; y < 24 && !found; y++)
        for (int x = 0; x + 5 < 80 && !found; x++)
            found = screen_cat(&s, x, y)->ch == 0xe9 &&
                    screen_cat(&s, x + 1, y)->ch == 'r' &&
                    screen_cat(&s, x + 2, y)->ch == 'i' &&
                    screen_cat(&s, x + 3, y)->ch == 'c' &&
                    screen_cat(&s, x + 4, y)->ch == '?' &&
                    screen_cat(&s, x + 5, y)->attr == ATTR_REVERSE;
    ck_assert_msg(found, "the line is not drawn as typed");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

/* The keys that stop keys typed ahead from being played (the session's
 * kept keys, test_lobby): at the menu a quit, the options and a logout
 * (l only while logged in); a removal confirmed on the keys' page; no
 * other key, and none on another page (q leaves the hall of fame). */
START_TEST(weighty_keys_stop_keys_typed_ahead)
{
    lobby_t l;
    lobby_init(&l, "");
    ck_assert_int_eq(l.page, LOBBY_MENU);
    const int stop[] = { 'q', 'Q', KEY_CTRL_C, 'o', 'O' };
    for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
        ck_assert(lobby_key_is_weighty(&l, stop[i]));
    const int go_on[] = { 's', 'w', 'p', 'h', 'l', 'L', 'y', ' ' };
    for (size_t i = 0; i < sizeof go_on / sizeof go_on[0]; i++)
        ck_assert(!lobby_key_is_weighty(&l, go_on[i]));
    snprintf(l.account, sizeof l.account, "Zoe");
    ck_assert(lobby_key_is_weighty(&l, 'l'));
    ck_assert(lobby_key_is_weighty(&l, 'L'));
    l.page = LOBBY_KEY_DEL;
    ck_assert(lobby_key_is_weighty(&l, 'y'));
    ck_assert(lobby_key_is_weighty(&l, 'Y'));
    ck_assert(!lobby_key_is_weighty(&l, 'n'));
    ck_assert(!lobby_key_is_weighty(&l, 'q'));
    l.page = LOBBY_SCORES;
    ck_assert(!lobby_key_is_weighty(&l, 'q'));
    l.page = LOBBY_MENU;
    lobby_free(&l);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("lobby machine");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, starts_at_the_menu);
    tcase_add_test(tc, guest_plays_under_the_offered_name);
    tcase_add_test(tc, guest_name_of_an_account_is_refused);
    tcase_add_test(tc, guest_name_waits_for_the_store);
    tcase_add_test(tc, store_away_ends_the_wait);
    tcase_add_test(tc, a_wait_for_the_hashing_says_so);
    tcase_add_test(tc, line_with_a_refused_character_is_refused);
    tcase_add_test(tc, register_refuses_a_guest_number);
    tcase_add_test(tc, a_guest_number_not_offered_is_refused);
    tcase_add_test(tc, name_prompt_rules);
    tcase_add_test(tc, password_prompt_rules);
    tcase_add_test(tc, change_password);
    tcase_add_test(tc, login_wipes_the_password);
    tcase_add_test(tc, answer_wipes_the_password_the_session_kept);
    tcase_add_test(tc, five_failed_logins_quit);
    tcase_add_test(tc, login_answers_say_why);
    tcase_add_test(tc, register_asks_twice);
    tcase_add_test(tc, register_name_taken_told_early);
    tcase_add_test(tc, register_stale_name_answer_is_dropped);
    tcase_add_test(tc, esc_at_a_password_wipes_it);
    tcase_add_test(tc, logout_drops_the_account);
    tcase_add_test(tc, resume_offer_and_wait);
    tcase_add_test(tc, a_broken_saved_game_is_ended_by_n_only);
    tcase_add_test(tc, hall_of_fame_and_replay);
    tcase_add_test(tc, watch_list_picks_by_letter);
    tcase_add_test(tc, help_quit_and_other_keys);
    tcase_add_test(tc, note_is_cleared_by_the_next_menu_key);
    tcase_add_test(tc, note_goes_with_its_step);
    tcase_add_test(tc, too_long_a_line_is_refused_at_enter);
    tcase_add_test(tc, erasing_takes_back_what_was_kept_out);
    tcase_add_test(tc, prompt_line_drawn_a_character_a_cell);
    tcase_add_test(tc, weighty_keys_stop_keys_typed_ahead);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
