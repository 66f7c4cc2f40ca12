/* lobby.c - the lobby's state machine: menu keys, prompts, answers from the
 * store. Drawing is lobby_view.c. */
#include "lobby.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "keys.h"
#include "utf8.h"

/* A login slowed after failed ones: refused (STORE_SLOW_DOWN), or given
 * up while it waited (the slow-down's wait is up to 2 minutes). */
static const char SLOWED_NOTE[] =
    "Too many failed logins for that name. Wait a while and try again.";

/* Wipes memory the compiler may not skip (a password). */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void lobby_init(lobby_t *l, const char *suggest)
{
    memset(l, 0, sizeof *l);
    l->page = LOBBY_MENU;
    if (acct_name_valid(suggest, NULL, 0))
        memcpy(l->suggest, suggest, strlen(suggest) + 1);
}

static void drop_scores(lobby_t *l)
{
    free(l->scores);
    l->scores = NULL;
}

/* The watch list is kept only while its page is shown. */
static void drop_watch(lobby_t *l)
{
    free(l->watch);
    l->watch = NULL;
    l->nwatch = 0;
}

void lobby_input_drop(lobby_t *l)
{
    if (!l->in)
        return;
    wipe(l->in, sizeof *l->in);
    free(l->in);
    l->in = NULL;
}

void lobby_free(lobby_t *l)
{
    drop_scores(l);
    drop_watch(l);
    lobby_keys_drop(l);
    lobby_input_drop(l);
}

void lobby_note(lobby_t *l, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->note, sizeof l->note, fmt, ap);
    va_end(ap);
    l->note_kind = (uint8_t)kind;
    l->note_new = 1;
}

void lobby_note_clear(lobby_t *l)
{
    l->note[0] = '\0';
    l->note_new = 0;
}

/* Each page's layout (lobby.h's enum lobby_page_flag). A page left out
 * is 0: no input line, no news on its title's row. */
static const uint8_t page_flags[LOBBY_NPAGES] = {
    [LOBBY_MENU] = LOBBY_PAGE_ROW6_FREE,
    [LOBBY_GUEST_NAME] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_ROW6_FREE,
    [LOBBY_LOGIN_NAME] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_ROW6_FREE,
    [LOBBY_LOGIN_PASS] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                         LOBBY_PAGE_ROW6_FREE,
    [LOBBY_REG_NAME] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_ROW6_FREE,
    [LOBBY_REG_PASS] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                       LOBBY_PAGE_ROW6_FREE,
    [LOBBY_REG_PASS2] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                        LOBBY_PAGE_ROW6_FREE,
    [LOBBY_BUSY] = LOBBY_PAGE_ROW6_FREE,
    [LOBBY_SCORES] = 0,
    [LOBBY_HELP] = 0,
    [LOBBY_WATCH] = 0,
    [LOBBY_PW_OLD] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                     LOBBY_PAGE_ROW6_FREE,
    [LOBBY_PW_NEW] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                     LOBBY_PAGE_ROW6_FREE,
    [LOBBY_PW_NEW2] = LOBBY_PAGE_PROMPT | LOBBY_PAGE_PASSWORD |
                      LOBBY_PAGE_ROW6_FREE,
    [LOBBY_KEYS] = 0,        /* lobby_keys.c draws the keys' pages */
    [LOBBY_KEY_ADD] = 0,
    [LOBBY_KEY_DEL] = 0,
};

unsigned lobby_page_flags(int page)
{
    return page >= 0 && page < LOBBY_NPAGES ? page_flags[page] : 0;
}

static int is_password_page(int page)
{
    return (lobby_page_flags(page) & LOBBY_PAGE_PASSWORD) != 0;
}

int lobby_in_password(const lobby_t *l)
{
    return is_password_page(l->page);
}

/* The prompts, and the keys' page a public key is pasted into (its own
 * line: lobby_keys.c). */
int lobby_typing(const lobby_t *l)
{
    return (lobby_page_flags(l->page) & LOBBY_PAGE_PROMPT) ||
           l->page == LOBBY_KEY_ADD;
}

int lobby_key_is_weighty(const lobby_t *l, int key)
{
    if (l->page == LOBBY_MENU)
        return key == 'q' || key == 'Q' || key == KEY_CTRL_C || key == 'o' ||
               key == 'O' || ((key == 'l' || key == 'L') && l->account[0]);
    if (l->page == LOBBY_KEY_DEL)
        return key == 'y' || key == 'Y';
    return 0;
}

const char *lobby_line(const lobby_t *l)
{
    return l->in ? l->in->line : "";
}

int lobby_line_len(const lobby_t *l)
{
    return l->in ? l->in->len : 0;
}

/* Goes to a page with an empty input line. A prompt gets the input it
 * types into (a prompt that cannot have one is not shown: the menu says
 * why); the store's wait keeps what was typed for it; any other page
 * drops it. */
static void go(lobby_t *l, int page)
{
    int prompt = (lobby_page_flags(page) & LOBBY_PAGE_PROMPT) != 0;
    if (prompt && !l->in && !(l->in = calloc(1, sizeof *l->in))) {
        lobby_note(l, LOBBY_NOTE_BAD, "The server is short of memory: "
                   "please try again.");
        page = LOBBY_MENU;
        prompt = 0;
    }
    if (!prompt && page != LOBBY_BUSY)
        lobby_input_drop(l);
    if (l->in) {
        wipe(l->in->line, sizeof l->in->line);
        l->in->len = 0;
    }
    l->refused = l->too_long = 0;
    l->refused_at = l->too_long_at = 0;
    l->offered = 0;
    if (page != LOBBY_PW_NEW && page != LOBBY_PW_NEW2 && page != LOBBY_BUSY)
        l->pw_checked = 0; /* a change left: its check goes with it */
    /* A step passed or left takes its note along; one said on the way
     * (the next prompt's hint, the answer's word) is the new page's. */
    if (page != l->page && !l->note_new)
        l->note[0] = '\0';
    if (page == LOBBY_BUSY)
        l->busy_gen++;
    l->page = (uint8_t)page;
    if (page != LOBBY_WATCH)
        drop_watch(l);
    if (page != LOBBY_BUSY && page != LOBBY_KEYS && page != LOBBY_KEY_ADD &&
        page != LOBBY_KEY_DEL)
        lobby_keys_drop(l);
}

/* The prompt's line holds name (a name, no longer than the line), as if
 * typed: Enter takes it (the player's own, given back). */
static void put_line(lobby_t *l, const char *name)
{
    size_t n = strlen(name);
    if (!l->in || n >= sizeof l->in->line)
        return;
    l->in->len = (uint16_t)n;
    memcpy(l->in->line, name, n + 1);
}

/* A name the server offers: Enter takes it, a character typed replaces
 * it. */
static void offer_name(lobby_t *l, const char *name)
{
    put_line(l, name);
    l->offered = l->in != NULL;
}

/* A line the server offered is replaced by what the player types: the
 * first key on it starts the line again. */
static void take_offer(lobby_t *l)
{
    if (!l->offered || !l->in)
        return;
    l->offered = 0;
    wipe(l->in->line, sizeof l->in->line);
    l->in->len = 0;
}

/* Waits for the store; the answer returns to `back`. */
static int busy(lobby_t *l, int back, int action)
{
    l->back = (uint8_t)back;
    go(l, LOBBY_BUSY);
    return action;
}

const char *lobby_take_password(const lobby_t *l)
{
    return l->in ? l->in->pass : "";
}

void lobby_wipe_password(lobby_t *l)
{
    if (!l->in)
        return;
    wipe(l->in->pass, sizeof l->in->pass);
    wipe(l->in->pass_new, sizeof l->in->pass_new);
}

const char *lobby_take_new_password(const lobby_t *l)
{
    return l->in ? l->in->pass_new : "";
}

/* What a failed check or change says, at the menu. Returns LOBBY_DO_QUIT
 * for the last failed login the connection gets. */
static int password_refused(lobby_t *l, int status)
{
    switch (status) {
    case STORE_BAD_LOGIN:
        l->failures++;
        if (l->failures >= ACCT_LOGIN_TRIES)
            return LOBBY_DO_QUIT;
        lobby_note(l, LOBBY_NOTE_BAD, "That is not your password: it is "
                   "unchanged.");
        break;
    case STORE_SLOW_DOWN:
        lobby_note(l, LOBBY_NOTE_BAD, "Too many failed tries. Wait a minute "
                   "and try again.");
        break;
    default:
        lobby_note(l, LOBBY_NOTE_BAD, "The password could not be changed now. "
                   "Please try again.");
        break;
    }
    return LOBBY_DO_NOTHING;
}

int lobby_password_checked(lobby_t *l, int status)
{
    if (l->page != LOBBY_BUSY)
        return LOBBY_DO_NOTHING;
    if (status != STORE_OK) {
        /* Back to its prompt, not the menu: what the player typed on
         * meant for the next prompts is typed there, hidden, rather than
         * played as the menu's keys (docs/telnet.md). */
        lobby_wipe_password(l);
        go(l, LOBBY_PW_OLD);
        return password_refused(l, status);
    }
    /* The present password stays (in the lobby's input, wiped with it):
     * it is checked again as the new one is set, in case it changed
     * elsewhere meanwhile. */
    l->failures = 0;
    l->pw_checked = 1;
    lobby_note(l, LOBBY_NOTE_INFO, "Type the new password.");
    go(l, LOBBY_PW_NEW);
    return LOBBY_DO_NOTHING;
}

int lobby_password_changed(lobby_t *l, int status)
{
    if (l->page != LOBBY_BUSY)
        return LOBBY_DO_NOTHING;
    lobby_wipe_password(l);
    l->pw_checked = 0;
    go(l, LOBBY_MENU);
    if (status != STORE_OK)
        return password_refused(l, status);
    lobby_note(l, LOBBY_NOTE_GOOD, "Your password is changed.");
    return LOBBY_DO_NOTHING;
}

const char *lobby_player_name(const lobby_t *l)
{
    return l->account[0] ? l->account : l->guest;
}

/* lobby_t.refused_at and too_long_at hold a line's length */
_Static_assert(LOBBY_LINE_MAX <= UINT8_MAX, "a line's length fits a byte");

/* The rule a line too long for its prompt breaks. */
static const char *too_long_rule(const lobby_t *l)
{
    return is_password_page(l->page) ? "A password has at most 128 bytes."
                                     : "A name has at most 20 characters.";
}

/* The rule a refused character (a control character, an escape
 * sequence) breaks, said as it is typed. */
static const char *refused_rule(const lobby_t *l)
{
    return is_password_page(l->page)
        ? "A password may not hold control characters."
        : "A name may use only letters, digits, _ and -.";
}

/* A rule said while typing, no longer true of the line: its note goes
 * (another note said since stays). */
static void unsay(lobby_t *l, const char *rule)
{
    if (strcmp(l->note, rule) == 0)
        l->note[0] = '\0';
}

/* Appends a typed character to the line, as UTF-8: any printable one, so
 * that what is refused is refused with its rule, never dropped in
 * silence (names are checked at Enter by accounts.h). A line that is full
 * says so. */
static void type_char(lobby_t *l, int key)
{
    lobby_input_t *in = l->in; /* a prompt has one (go) */
    if (!in)
        return;
    take_offer(l);
    char u[UTF8_MAX_LEN];
    int n = utf8_encode((uint32_t)key, u);
    size_t max = is_password_page(l->page) ? LOBBY_LINE_MAX : ACCT_NAME_MAX;
    if (in->len + (size_t)n > max) {
        /* Left out, so the line is not what was typed: Enter refuses it
         * (a password cut short would be a password nobody knows). */
        if (!l->too_long)
            l->too_long_at = (uint8_t)in->len;
        l->too_long = 1;
        lobby_note(l, LOBBY_NOTE_BAD, "%s", too_long_rule(l));
        return;
    }
    memcpy(in->line + in->len, u, (size_t)n);
    in->len = (uint16_t)(in->len + n);
    in->line[in->len] = '\0';
}

/* Backspace: removes the last character (a whole UTF-8 sequence), and
 * with it whatever was typed after it and kept out of the line (a control
 * character, a character past the limit): the line is then taken as it
 * now stands. On an empty line it takes back all that was kept out. */
static void erase_char(lobby_t *l)
{
    lobby_input_t *in = l->in;
    if (!in)
        return;
    if (l->offered) {
        take_offer(l); /* the whole offer, as a selection is */
        return;
    }
    int was = in->len;
    while (in->len > 0) {
        unsigned char c = (unsigned char)in->line[--in->len];
        in->line[in->len] = '\0';
        if ((c & 0xc0) != 0x80)
            break;
    }
    if (l->refused && (was == 0 || l->refused_at > in->len)) {
        l->refused = l->refused_at = 0;
        unsay(l, refused_rule(l));
    }
    if (l->too_long && (was == 0 || l->too_long_at > in->len)) {
        l->too_long = l->too_long_at = 0;
        unsay(l, too_long_rule(l));
    }
}

/* Why a name may not be registered, or NULL: guest and a number is a
 * guest's; play is SSH's guest user (ssh play@HOST), and an account of
 * that name could never log in by its keys. */
static const char *kept_name(const char *name)
{
    if (lobby_name_is_guest_number(name))
        return "Names of guest and a number are kept for guests: choose "
               "another.";
    if (strcasecmp(name, "play") == 0)
        return "The name play is SSH's guest login: choose another.";
    return NULL;
}

/* A name typed at a name prompt: checked, kept in l->name. */
static int accept_name(lobby_t *l)
{
    lobby_input_t *in = l->in; /* there: submit checked */
    char why[96];
    if (!acct_name_valid(in->line, why, sizeof why)) {
        lobby_note(l, LOBBY_NOTE_BAD, "%s", why);
        go(l, l->page); /* type it again */
        return 0;
    }
    /* Valid means at most ACCT_NAME_MAX bytes: it fits. */
    memcpy(l->name, in->line, (size_t)in->len + 1);
    return 1;
}

/* Taken as typed or not at all: a line that held something refused, or
 * lost a character to its limit, is said so and typed again (1). */
static int typed_again(lobby_t *l)
{
    if (l->refused)
        /* (a name's rule is its letters: a Latin-1 é, a byte that is no
         * UTF-8, was told "control characters" by a QA's terminal) */
        lobby_note(l, LOBBY_NOTE_BAD, "%s", is_password_page(l->page)
                   ? "Refused: a password may not hold control characters, "
                     "escapes or non-UTF-8 bytes."
                   : "Refused: a name may use only letters, digits, _ and "
                     "-.");
    else if (l->too_long)
        lobby_note(l, LOBBY_NOTE_BAD, "%s", too_long_rule(l));
    else
        return 0;
    go(l, l->page);
    return 1;
}

/* Asks whether the name just typed at the registration is taken, while
 * the player goes on to the password: one question at a time (an answer
 * for a name since given up asks again for the new one). */
static int ask_name(lobby_t *l)
{
    if (l->name_asking)
        return LOBBY_DO_NOTHING;
    l->name_asking = 1;
    return LOBBY_DO_CHECK_NAME;
}

/* The answer to the question out is still wanted: the player is at the
 * password steps that follow the name. The page says so, not a flag
 * cleared on the way out: lobby_keys.c sets pages without go, and no way
 * of leaving has to remember. Every way into those steps from elsewhere
 * is the name's Enter, which asks (ask_name): a question out while there
 * is for this name, or for one given up, which asks again. */
static int at_password_steps(const lobby_t *l)
{
    return l->page == LOBBY_REG_PASS || l->page == LOBBY_REG_PASS2;
}

/* Enter at a prompt. */
static int submit(lobby_t *l)
{
    lobby_input_t *in = l->in;
    const char *kept;
    char why[96];
    if (!in || typed_again(l))
        return LOBBY_DO_NOTHING;
    switch (l->page) {
    case LOBBY_GUEST_NAME:
        if (!accept_name(l))
            return LOBBY_DO_NOTHING;
        if (lobby_name_is_guest_number(l->name)) {
            /* The name offered (no account can have it, and its number
             * is never given twice): plays at once, without a word from
             * the store, which may be away. Another guest number typed
             * is the server's to give, to someone else perhaps, or one
             * played under now (a review): refused. */
            if (strcasecmp(l->name, l->suggest) != 0) {
                lobby_note(l, LOBBY_NOTE_BAD, "Names of guest and a number "
                           "are the server's to give: choose another.");
                go(l, LOBBY_GUEST_NAME);
                offer_name(l, l->suggest);
                return LOBBY_DO_NOTHING;
            }
            /* (typed in other capitals: the number's own spelling) */
            memcpy(l->guest, l->suggest, sizeof l->guest);
            go(l, LOBBY_MENU);
            return LOBBY_DO_PLAY;
        }
        return busy(l, LOBBY_GUEST_NAME, LOBBY_DO_CHECK_GUEST);
    case LOBBY_LOGIN_NAME:
        if (accept_name(l))
            go(l, LOBBY_LOGIN_PASS);
        return LOBBY_DO_NOTHING;
    case LOBBY_LOGIN_PASS:
        memcpy(in->pass, in->line, sizeof in->pass);
        return busy(l, LOBBY_LOGIN_NAME, LOBBY_DO_LOGIN);
    case LOBBY_REG_NAME:
        if ((kept = kept_name(in->line)) != NULL) {
            lobby_note(l, LOBBY_NOTE_BAD, "%s", kept);
            go(l, LOBBY_REG_NAME);
            return LOBBY_DO_NOTHING;
        }
        if (!accept_name(l))
            return LOBBY_DO_NOTHING;
        go(l, LOBBY_REG_PASS);
        return ask_name(l);
    case LOBBY_REG_PASS:
        if (!acct_password_valid(in->line, why, sizeof why)) {
            lobby_note(l, LOBBY_NOTE_BAD, "%s", why);
            go(l, LOBBY_REG_PASS);
            return LOBBY_DO_NOTHING;
        }
        memcpy(in->pass, in->line, sizeof in->pass);
        lobby_note(l, LOBBY_NOTE_INFO, "Type the same password again.");
        go(l, LOBBY_REG_PASS2);
        return LOBBY_DO_NOTHING;
    case LOBBY_PW_OLD:
        /* checked before the new one is asked: a mistyped present
         * password is said at once */
        memcpy(in->pass, in->line, sizeof in->pass);
        return busy(l, LOBBY_PW_OLD, LOBBY_DO_CHECK_PASSWORD);
    case LOBBY_PW_NEW:
        if (!acct_password_valid(in->line, why, sizeof why)) {
            lobby_note(l, LOBBY_NOTE_BAD, "%s", why);
            go(l, LOBBY_PW_NEW);
            return LOBBY_DO_NOTHING;
        }
        memcpy(in->pass_new, in->line, sizeof in->pass_new);
        lobby_note(l, LOBBY_NOTE_INFO, "Type the new password again.");
        go(l, LOBBY_PW_NEW2);
        return LOBBY_DO_NOTHING;
    case LOBBY_PW_NEW2:
        if (strcmp(in->pass_new, in->line) != 0) {
            wipe(in->pass_new, sizeof in->pass_new);
            lobby_note(l, LOBBY_NOTE_BAD,
                       "The new passwords differ. Type the new one again.");
            go(l, LOBBY_PW_NEW);
            return LOBBY_DO_NOTHING;
        }
        l->note[0] = '\0';
        return busy(l, LOBBY_MENU, LOBBY_DO_CHANGE_PASSWORD);
    case LOBBY_REG_PASS2:
        if (strcmp(in->pass, in->line) != 0) {
            lobby_wipe_password(l);
            lobby_note(l, LOBBY_NOTE_BAD,
                       "The passwords differ. Choose a password again.");
            go(l, LOBBY_REG_PASS);
            return LOBBY_DO_NOTHING;
        }
        return busy(l, LOBBY_REG_NAME, LOBBY_DO_REGISTER);
    default:
        return LOBBY_DO_NOTHING;
    }
}

/* An account's key pressed by a guest: said why nothing opens (a
 * play-test pressed c and k and was told nothing), not done. */
static int logged_in(lobby_t *l, const char *what)
{
    if (l->account[0])
        return 1;
    lobby_note(l, LOBBY_NOTE_INFO, "Log in first: %s (l logs in, r "
               "registers).", what);
    return 0;
}

static int menu_key(lobby_t *l, int key)
{
    l->note[0] = '\0';
    switch (key) {
    case 'p':
    case 'P':
    case KEY_ENTER:
        if (l->account[0] || l->guest[0]) {
            l->resume = 0;
            /* n is for the failure said last: p's own load says again
             * (lobby_saved_broken) if the game still does not rebuild */
            l->broken = 0;
            return LOBBY_DO_PLAY;
        }
        lobby_note(l, LOBBY_NOTE_INFO,
                   "A guest's game ends with the connection; "
                   "register to keep your name.");
        go(l, LOBBY_GUEST_NAME);
        offer_name(l, l->suggest); /* Enter plays at once */
        return LOBBY_DO_NOTHING;
    case 's':
    case 'S':
        return busy(l, LOBBY_MENU, LOBBY_DO_SCORES);
    case 'n':
    case 'N':
        if (!l->broken || !l->account[0])
            return LOBBY_DO_NOTHING;
        l->broken = 0;
        return LOBBY_DO_PLAY_NEW;
    case 'l':
    case 'L':
        if (l->account[0]) {
            lobby_note(l, LOBBY_NOTE_INFO, "Logged out of %s.", l->account);
            l->account[0] = '\0';
            l->account_id = 0;
            l->resume = 0;
            l->broken = 0;
            return LOBBY_DO_LOGOUT;
        }
        go(l, LOBBY_LOGIN_NAME);
        return LOBBY_DO_NOTHING;
    case 'c':
    case 'C':
        if (logged_in(l, "a password is an account's")) {
            lobby_note(l, LOBBY_NOTE_INFO, "Type your present password.");
            go(l, LOBBY_PW_OLD);
        }
        return LOBBY_DO_NOTHING;
    case 'r':
    case 'R':
        if (!l->account[0])
            go(l, LOBBY_REG_NAME);
        return LOBBY_DO_NOTHING;
    case 'k':
    case 'K':
        return logged_in(l, "SSH keys are an account's") ? lobby_keys_open(l)
                                        : LOBBY_DO_NOTHING;
    case '?':
    case 'h':
        go(l, LOBBY_HELP);
        return LOBBY_DO_NOTHING;
    case 'w':
    case 'W':
        lobby_show_watch(l);
        return LOBBY_DO_NOTHING;
    case 'q':
    case 'Q':
    case KEY_CTRL_C:
        return LOBBY_DO_QUIT;
    default:
        return LOBBY_DO_NOTHING;
    }
}

/* The name being registered is an account's: the name prompt's note. */
static void say_taken(lobby_t *l)
{
    lobby_note(l, LOBBY_NOTE_BAD, "The name %s is taken: choose another.",
               l->name);
}

/* Why the rest of a line is dropped (lobby_t.drop_line). */
enum { DROP_UPGRADE = 1, DROP_TAKEN };

void lobby_drop_line(lobby_t *l)
{
    l->drop_line = DROP_UPGRADE;
    lobby_note(l, LOBBY_NOTE_BAD, "The server was upgraded as you typed: "
               "that line is dropped. Press Enter.");
}

/* A key of the line typed before an upgrade (lobby_drop_line): dropped;
 * its end ends the dropping. */
static void drop_key(lobby_t *l, int key)
{
    if (key == KEY_ENTER || key == KEY_ESC || key == KEY_CTRL_C) {
        int taken = l->drop_line == DROP_TAKEN;
        l->drop_line = 0;
        lobby_note_clear(l);
        if (taken) /* the name prompt's word, now that it takes keys */
            say_taken(l);
    }
}

int lobby_key(lobby_t *l, int key)
{
    /* Keys ignored while busy do not age the note: it is still for the
     * page the wait returns to. */
    if (l->page != LOBBY_BUSY)
        l->note_new = 0;
    if (l->drop_line) {
        drop_key(l, key);
        return LOBBY_DO_NOTHING;
    }
    switch (l->page) {
    case LOBBY_MENU:
        return menu_key(l, key);
    case LOBBY_BUSY:
        return LOBBY_DO_NOTHING;
    case LOBBY_SCORES:
        if (key >= 'a' && key < 'a' + STORE_TOP_MAX && l->scores &&
            key - 'a' < l->scores->n) {
            l->pick_id = (uint64_t)l->scores->top[key - 'a'].game_id;
            return busy(l, LOBBY_SCORES, LOBBY_DO_REPLAY);
        }
        drop_scores(l);
        go(l, LOBBY_MENU);
        return LOBBY_DO_NOTHING;
    case LOBBY_WATCH:
        if (key >= 'a' && key < 'a' + l->nwatch) {
            l->pick_id = l->watch[key - 'a'].session_id;
            return LOBBY_DO_WATCH;
        }
        if (key == 'q' || key == KEY_ESC || key == KEY_CTRL_C)
            go(l, LOBBY_MENU);
        return LOBBY_DO_NOTHING;
    case LOBBY_HELP:
        go(l, LOBBY_MENU);
        return LOBBY_DO_NOTHING;
    case LOBBY_KEYS:
    case LOBBY_KEY_ADD:
    case LOBBY_KEY_DEL:
        return lobby_keys_key(l, key);
    default: /* a prompt */
        if (key == KEY_ESC || key == KEY_CTRL_C) {
            lobby_wipe_password(l);
            l->note[0] = '\0';
            go(l, LOBBY_MENU);
        } else if (key == KEY_ENTER) {
            return submit(l);
        } else if (key == KEY_BACKSPACE) {
            erase_char(l);
        } else if (key == 0x15) { /* Ctrl-U: clear the line */
            if (l->refused) /* and what was said of what it held */
                unsay(l, refused_rule(l));
            if (l->too_long)
                unsay(l, too_long_rule(l));
            go(l, l->page);
        } else if (key >= 0x20 && key != 0x7f && key < KEY_SPECIAL &&
                   !(key >= 0x80 && key < 0xa0)) {
            type_char(l, key);
        } else if (key < KEY_SPECIAL) {
            /* A control character: the line cannot be taken as typed, so
             * Enter refuses it (submit), and the rule says why now. */
            lobby_typed_refused(l);
        }
        return LOBBY_DO_NOTHING;
    }
}

void lobby_wait(lobby_t *l)
{
    busy(l, LOBBY_MENU, LOBBY_DO_NOTHING);
}

void lobby_waited(lobby_t *l)
{
    if (l->page == LOBBY_BUSY)
        go(l, l->back);
}

void lobby_saved_broken(lobby_t *l)
{
    l->broken = 1;
    lobby_note(l, LOBBY_NOTE_BAD, "Your saved game cannot be rebuilt. p "
               "tries again; n ends it for a new game.");
}

void lobby_offer_resume(lobby_t *l, int depth, int turns, int saved)
{
    l->broken = 0;
    l->resume = 1;
    l->resume_depth = depth;
    l->resume_turns = turns;
    if (saved)
        lobby_note(l, LOBBY_NOTE_GOOD, LOBBY_SAID_SAVED);
    else
        lobby_note(l, LOBBY_NOTE_GOOD, "Welcome back, %s! Your game is "
                   "waiting: p continues it.", l->account);
}

void lobby_show_watch(lobby_t *l)
{
    l->note[0] = '\0';
    go(l, LOBBY_WATCH);
    if (!l->watch) /* out of memory: an empty list */
        l->watch = calloc(LOBBY_WATCH_MAX, sizeof *l->watch);
}

int lobby_guest_checked(lobby_t *l, int status, int taken)
{
    if (l->page != LOBBY_BUSY)
        return LOBBY_DO_NOTHING;
    if (status != STORE_OK) {
        lobby_note(l, LOBBY_NOTE_BAD, "The server could not check that name. "
                   "Please try again.");
        go(l, LOBBY_GUEST_NAME);
        put_line(l, l->name); /* Enter asks again */
        return LOBBY_DO_NOTHING;
    }
    if (taken) {
        if (taken == LOBBY_NAME_PLAYING)
            lobby_note(l, LOBBY_NOTE_BAD, "Someone is playing as %s now: "
                       "choose another name.", l->name);
        else
            lobby_note(l, LOBBY_NOTE_BAD, "%s belongs to an account: log "
                       "in, or choose another name.", l->name);
        go(l, LOBBY_GUEST_NAME);
        offer_name(l, l->suggest); /* Enter plays as the name offered */
        return LOBBY_DO_NOTHING;
    }
    memcpy(l->guest, l->name, sizeof l->guest);
    go(l, LOBBY_MENU);
    return LOBBY_DO_PLAY;
}

int lobby_name_checked(lobby_t *l, const char *name, int status, int taken)
{
    int asked = l->name_asking;
    l->name_asking = 0;
    if (!asked || !at_password_steps(l))
        return LOBBY_DO_NOTHING; /* the password steps were left */
    if (strcmp(name, l->name) != 0)
        return ask_name(l); /* for a name given up: ask for this one */
    if (status != STORE_OK || !taken)
        return LOBBY_DO_NOTHING; /* the registration's end checks again */
    /* Some of a password typed: the rest of its line would come as the
     * name, shown as typed; it is dropped up to its Enter. */
    int typing = l->page == LOBBY_REG_PASS2 || lobby_line_len(l) > 0;
    lobby_wipe_password(l);
    go(l, LOBBY_REG_NAME);
    const char *then = typing ? ". Press Enter, then choose another."
                              : ": choose another.";
    if (typing)
        l->drop_line = DROP_TAKEN;
    if (taken == LOBBY_NAME_PLAYING)
        lobby_note(l, LOBBY_NOTE_BAD, "Someone is playing as %s now%s",
                   l->name, then);
    else if (typing)
        lobby_note(l, LOBBY_NOTE_BAD, "The name %s is taken%s", l->name,
                   then);
    else
        say_taken(l);
    return LOBBY_DO_NOTHING;
}

void lobby_set_guest(lobby_t *l, const char *name)
{
    snprintf(l->guest, sizeof l->guest, "%s", name);
}

int lobby_account_done(lobby_t *l, const store_account_t *a)
{
    if (l->page != LOBBY_BUSY)
        return LOBBY_DO_NOTHING;
    int registering = l->back == LOBBY_REG_NAME;
    lobby_wipe_password(l);
    switch (a->status) {
    case STORE_OK:
        snprintf(l->account, sizeof l->account, "%s", a->name);
        l->account_id = a->id;
        l->guest[0] = '\0';
        l->failures = 0;
        lobby_note(l, LOBBY_NOTE_GOOD, registering
                   ? "Welcome, %s! Your account is ready."
                   : "Welcome back, %s!", a->name);
        go(l, LOBBY_MENU);
        return LOBBY_DO_NOTHING;
    case STORE_BAD_LOGIN:
        l->failures++;
        if (l->failures >= ACCT_LOGIN_TRIES)
            return LOBBY_DO_QUIT;
        lobby_note(l, LOBBY_NOTE_BAD, "Wrong name or password.");
        break;
    case STORE_NAME_TAKEN:
        lobby_note(l, LOBBY_NOTE_BAD, "That name is taken. Choose another.");
        break;
    case STORE_INVALID:
        lobby_note(l, LOBBY_NOTE_BAD, "That name or password is not allowed.");
        break;
    case STORE_SLOW_DOWN:
        lobby_note(l, LOBBY_NOTE_BAD, SLOWED_NOTE);
        break;
    default:
        lobby_note(l, LOBBY_NOTE_BAD, "The server could not do that now. "
                   "Please try again.");
        break;
    }
    go(l, l->back);
    return LOBBY_DO_NOTHING;
}

void lobby_scores_done(lobby_t *l, const store_scores_t *s)
{
    if (l->page != LOBBY_BUSY)
        return;
    drop_scores(l);
    if (s->status != STORE_OK || !(l->scores = malloc(sizeof *l->scores))) {
        lobby_note(l, LOBBY_NOTE_BAD, "The high scores cannot be read now.");
        go(l, LOBBY_MENU);
        return;
    }
    *l->scores = *s;
    go(l, LOBBY_SCORES);
}

void lobby_typed_refused(lobby_t *l)
{
    if (!lobby_typing(l) || l->page == LOBBY_KEY_ADD)
        return;
    take_offer(l);
    if (!l->refused)
        l->refused_at = (uint8_t)(l->in ? l->in->len : 0);
    l->refused = 1;
    lobby_note(l, LOBBY_NOTE_BAD, "%s", refused_rule(l));
}

/* What a player is told when the wait for the store ends at `at` (enum
 * store_wait): only a wait for the database is the store not answering. */
static const char *away_note(int at)
{
    switch (at) {
    case STORE_WAIT_HASH_LINE:
    case STORE_WAIT_HASHING:
        return "The server is busy checking passwords: please try again "
               "in a moment.";
    case STORE_WAIT_SLOWED: /* (the slow-down's wait is up to 2 minutes) */
        return SLOWED_NOTE;
    default:
        return "The server's store is not answering: please try again in "
               "a moment.";
    }
}

int lobby_store_away(lobby_t *l, uint32_t gen, int at)
{
    if (l->page != LOBBY_BUSY || l->busy_gen != gen)
        return 0;
    l->name_asking = 0; /* the session cancels every question it asked */
    lobby_wipe_password(l);
    lobby_keys_drop(l);
    go(l, l->back == LOBBY_BUSY ? LOBBY_MENU : l->back);
    lobby_note(l, LOBBY_NOTE_BAD, "%s", away_note(at));
    return 1;
}

int lobby_name_is_guest_number(const char *name)
{
    if (strncasecmp(name, "guest", 5) != 0 || !name[5])
        return 0;
    for (const char *p = name + 5; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}
