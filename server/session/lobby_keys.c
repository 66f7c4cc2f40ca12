/* lobby_keys.c - the lobby's SSH keys pages (lobby.h): the account's keys
 * listed, one added by pasting its public key line, one removed; and the
 * login an SSH key made before the lobby began. The lobby does no I/O:
 * the session checks a pasted line (sshkey.h) and asks the store, and
 * reports back with lobby_keys_refused, lobby_keys_checked and
 * lobby_keys_done. The pages' state lives in l->keys only while one of
 * them (or the wait for the store's answer) is shown: a session elsewhere
 * pays a pointer for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keys.h"
#include "lobby.h"
#include "view_parts.h"

struct lobby_keys {
    store_keys_t list;                 /* as the store last answered */
    char line[LOBBY_KEY_LINE_MAX + 1]; /* the key line being pasted */
    uint16_t len;
    int pick;                          /* LOBBY_KEY_DEL: list.keys[pick] */
    uint8_t owed;                      /* the action whose answer is owed */
    char fp[STORE_KEY_FP_MAX + 1];     /* the key being added */
    int ssh_port;                      /* for the hint; 0: none */
    char host[128];                    /* for the hint; "": this-host */
};

#define LEFT 4

static int left(const screen_t *s)
{
    return s->w > 80 ? (s->w - 80) / 2 + LEFT : LEFT;
}

/* The account, logged in without a password typed here. */
static void logged_in(lobby_t *l, int64_t account_id, const char *name)
{
    snprintf(l->account, sizeof l->account, "%s", name);
    l->account_id = account_id;
    l->guest[0] = '\0';
}

void lobby_key_login(lobby_t *l, int64_t account_id, const char *name)
{
    logged_in(l, account_id, name);
    l->key_login = 1;
    lobby_note(l, LOBBY_NOTE_GOOD, "Welcome back, %s! (logged in by your SSH "
               "key)", l->account);
}

void lobby_page_login(lobby_t *l, int64_t account_id, const char *name)
{
    logged_in(l, account_id, name);
    lobby_note(l, LOBBY_NOTE_GOOD, "Welcome back, %s! (still logged in after "
               "the connection dropped)", l->account);
}

int lobby_take_key_login(lobby_t *l)
{
    int was = l->key_login;
    l->key_login = 0;
    return was && l->account[0];
}

void lobby_keys_drop(lobby_t *l)
{
    free(l->keys);
    l->keys = NULL;
}

/* To a keys page (the note stays). */
static void show(lobby_t *l, int page)
{
    l->page = (uint8_t)page;
}

/* Waits for the store: its answer (lobby_keys_done) returns to `back`. */
static int ask(lobby_t *l, int back, int action)
{
    l->keys->owed = (uint8_t)action;
    l->back = (uint8_t)back;
    l->page = LOBBY_BUSY;
    return action;
}

int lobby_keys_open(lobby_t *l)
{
    l->note[0] = '\0';
    if (!l->keys)
        l->keys = calloc(1, sizeof *l->keys);
    if (!l->keys) {
        lobby_note(l, LOBBY_NOTE_BAD, "The server is short of memory: try "
                   "again.");
        return LOBBY_DO_NOTHING;
    }
    return ask(l, LOBBY_KEYS, LOBBY_DO_KEYS_LIST);
}

void lobby_keys_set_reach(lobby_t *l, int ssh_port, const char *host)
{
    if (!l->keys)
        return;
    l->keys->ssh_port = ssh_port;
    snprintf(l->keys->host, sizeof l->keys->host, "%s", host ? host : "");
}

const char *lobby_keys_line(const lobby_t *l)
{
    return l->keys ? l->keys->line : "";
}

const char *lobby_keys_pick(const lobby_t *l)
{
    if (!l->keys || l->keys->pick < 0 || l->keys->pick >= l->keys->list.n)
        return "";
    return l->keys->list.keys[l->keys->pick].fingerprint;
}

static void clear_line(lobby_keys_t *k)
{
    memset(k->line, 0, sizeof k->line);
    k->len = 0;
}

void lobby_keys_refused(lobby_t *l, const char *why)
{
    if (l->page != LOBBY_BUSY || !l->keys)
        return;
    lobby_note(l, LOBBY_NOTE_BAD, "%s", why);
    clear_line(l->keys);
    show(l, LOBBY_KEY_ADD);
}

void lobby_keys_checked(lobby_t *l, const char *fingerprint)
{
    if (l->keys)
        snprintf(l->keys->fp, sizeof l->keys->fp, "%s", fingerprint);
}

void lobby_keys_done(lobby_t *l, const store_keys_t *k)
{
    if (l->page != LOBBY_BUSY || !l->keys)
        return;
    lobby_keys_t *ks = l->keys;
    int owed = ks->owed;
    ks->owed = 0;
    if (k->status != STORE_ERROR)
        ks->list = *k;
    int page = LOBBY_KEYS;
    switch (k->status) {
    case STORE_OK:
        if (owed == LOBBY_DO_KEY_ADD)
            lobby_note(l, LOBBY_NOTE_GOOD, "Key added: %s", ks->fp);
        else if (owed == LOBBY_DO_KEY_REMOVE)
            lobby_note(l, LOBBY_NOTE_GOOD, "Key removed.");
        break;
    case STORE_DUPLICATE:
        lobby_note(l, LOBBY_NOTE_BAD, "That key is registered already.");
        break;
    case STORE_FULL:
        lobby_note(l, LOBBY_NOTE_BAD, "An account has at most %d keys: "
                   "remove one first.", STORE_KEYS_MAX);
        break;
    case STORE_NOT_FOUND:
        lobby_note(l, LOBBY_NOTE_BAD, "%s", owed == LOBBY_DO_KEY_REMOVE
                   ? "That key was removed already." : "Your account cannot "
                   "be found now.");
        break;
    default:
        lobby_note(l, LOBBY_NOTE_BAD, "Your keys cannot be %s now. Please try "
                   "again.", owed == LOBBY_DO_KEYS_LIST ? "read" : "changed");
        if (owed == LOBBY_DO_KEYS_LIST)
            page = LOBBY_MENU;
        break;
    }
    clear_line(ks);
    if (page == LOBBY_MENU) {
        lobby_keys_drop(l);
        l->page = LOBBY_MENU;
        lobby_input_drop(l);
        return;
    }
    show(l, page);
}

/* A character pasted or typed into the key line: printable ASCII only (a
 * key line is nothing else). */
static void type_key_char(lobby_t *l, int key)
{
    lobby_keys_t *k = l->keys;
    if (key < 0x20 || key > 0x7e) {
        lobby_note(l, LOBBY_NOTE_BAD, "A public key line is plain text: "
                   "paste it as it is in the .pub file.");
        return;
    }
    if (k->len >= LOBBY_KEY_LINE_MAX) {
        lobby_note(l, LOBBY_NOTE_BAD, "That line is too long for a public "
                   "key (at most %d characters).", LOBBY_KEY_LINE_MAX);
        return;
    }
    k->line[k->len++] = (char)key;
    k->line[k->len] = '\0';
}

static void to_menu(lobby_t *l)
{
    lobby_keys_drop(l);
    l->note[0] = '\0';
    l->page = LOBBY_MENU;
}

int lobby_keys_key(lobby_t *l, int key)
{
    lobby_keys_t *k = l->keys;
    if (!k) { /* (cannot be: every way in makes it) */
        l->page = LOBBY_MENU;
        return LOBBY_DO_NOTHING;
    }
    switch (l->page) {
    case LOBBY_KEYS:
        l->note[0] = '\0';
        if (key == 'a' || key == 'A') {
            if (k->list.n >= STORE_KEYS_MAX) {
                lobby_note(l, LOBBY_NOTE_BAD, "An account has at most %d keys: "
                           "remove one first.", STORE_KEYS_MAX);
                return LOBBY_DO_NOTHING;
            }
            clear_line(k);
            show(l, LOBBY_KEY_ADD);
        } else if (key >= '1' && key < '1' + k->list.n) {
            k->pick = key - '1';
            show(l, LOBBY_KEY_DEL);
        } else if (key == 'q' || key == 'Q' || key == KEY_ESC ||
                   key == KEY_CTRL_C) {
            to_menu(l);
        }
        return LOBBY_DO_NOTHING;
    case LOBBY_KEY_DEL:
        if (key == 'y' || key == 'Y')
            return ask(l, LOBBY_KEYS, LOBBY_DO_KEY_REMOVE);
        show(l, LOBBY_KEYS);
        return LOBBY_DO_NOTHING;
    default: /* LOBBY_KEY_ADD */
        if (key == KEY_ESC || key == KEY_CTRL_C) {
            clear_line(k);
            l->note[0] = '\0';
            show(l, LOBBY_KEYS);
        } else if (key == KEY_ENTER) {
            if (k->len == 0)
                return LOBBY_DO_NOTHING;
            l->note[0] = '\0';
            return ask(l, LOBBY_KEYS, LOBBY_DO_KEY_ADD);
        } else if (key == KEY_BACKSPACE) {
            if (k->len > 0)
                k->line[--k->len] = '\0';
        } else if (key == 0x15) { /* Ctrl-U: clear the line */
            clear_line(k);
        } else if (key < KEY_SPECIAL) {
            type_key_char(l, key);
        }
        return LOBBY_DO_NOTHING;
    }
}

/* --- drawing ------------------------------------------------------------------ */

static void date_of(int64_t t, char *out, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || strftime(out, n, "%Y-%m-%d", &tm) == 0)
        snprintf(out, n, "?");
}

/* Below 80 columns (view_puts_wrapped: broken at spaces, not cut). */
static void hint(screen_t *s, int y, const char *text)
{
    if (lobby_narrow(s)) /* broken at spaces, not cut at the edge */
        view_puts_wrapped(s, left(s), y, s->w - left(s), 2, text, COL_GREY,
                          0);
    else
        screen_puts(s, left(s), y, text, COL_GREY, COL_DEFAULT, 0);
}

/* A key's type as its row shows it, in the 9 columns an 80-column row
 * leaves: "ed25519", "rsa", "ecdsa-256" ("ecdsa-sha2-nistp256" was cut
 * to "ecdsa-sha", which says nothing). */
static void key_type_shown(const char *type, char *out, size_t n)
{
    if (strncmp(type, "ssh-", 4) == 0)
        type += 4;
    if (strncmp(type, "ecdsa-sha2-nistp", 16) == 0)
        snprintf(out, n, "ecdsa-%.3s", type + 16);
    else
        snprintf(out, n, "%s", type);
}

/* A key's row in w columns below 80: the date, fingerprint and type as
 * at 80 where they fit, else the fingerprint and type, else the
 * fingerprint alone; a fingerprint (one word of 50 characters) wider
 * than the row ends in "..." rather than at the edge. */
static void key_row_narrow(const char *date, const char *fp,
                           const char *type, int w, char *line, size_t n)
{
    snprintf(line, n, "   %s  %s  %s", date, fp, type);
    if ((int)strlen(line) <= w)
        return;
    snprintf(line, n, "   %s  %s", fp, type);
    if ((int)strlen(line) <= w)
        return;
    snprintf(line, n, "   %s", fp);
    if ((int)strlen(line) > w && w > 6)
        snprintf(line, n, "   %.*s...", w - 6, fp);
}

/* The list below 80 columns: the sentence wrapped, a key a row, the
 * keys' hint in fewer words on the last row (8 keys fit 40x20). A note
 * (lobby_draw's, from LOBBY_NOTE_ROW: "Key added: ...") takes the rows under
 * it, so the list stops above it while one is shown. */
_Static_assert(STORE_KEYS_MAX <= 8, "the narrow list fits 40x20");
static void draw_list_narrow(const lobby_t *l, const char *says,
                             screen_t *s)
{
    const lobby_keys_t *k = l->keys;
    int x = left(s), w = s->w - x;
    char line[160];
    int y = 7 + view_puts_wrapped(s, x, 7, w, 3, says, COL_WHITE, 0) + 1;
    if (k->list.n == 0)
        screen_puts(s, x, y, "No key yet.", COL_WHITE, COL_DEFAULT, 0);
    int end = l->note[0] ? LOBBY_NOTE_ROW : s->h - 1;
    for (int i = 0; i < k->list.n && y + i < end; i++) {
        const store_key_t *key = &k->list.keys[i];
        char date[16];
        date_of(key->added, date, sizeof date);
        char type[16];
        key_type_shown(key->type, type, sizeof type);
        key_row_narrow(date, key->fingerprint, type, w, line, sizeof line);
        screen_puts(s, x, y + i, line, COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x, y + i, (uint32_t)('1' + i), COL_BYELLOW,
                   COL_DEFAULT, ATTR_BOLD);
    }
    view_puts_wrapped(s, x, s->h - 1, w, 1, "a adds, a number removes, q: "
                      "menu", COL_GREY, 0);
}

static void draw_list(const lobby_t *l, screen_t *s)
{
    const lobby_keys_t *k = l->keys;
    int x = left(s);
    char line[320]; /* the hint with an account's name and a host's */
    screen_puts(s, x, 6, "Your SSH keys", COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
    if (k->ssh_port > 0)
        snprintf(line, sizeof line, "With one of them, ssh -p %d %s@%s "
                 "logs you in with no password.", k->ssh_port, l->account,
                 k->host[0] ? k->host : "this-host");
    else
        snprintf(line, sizeof line, "This server has no SSH port open now; "
                 "keys are kept for when it has.");
    if (lobby_narrow(s)) {
        draw_list_narrow(l, line, s);
        return;
    }
    /* Two rows: a long public_host takes the second. */
    view_puts_wrapped(s, x, 7, s->w - x, 2, line, COL_WHITE, 0);
    if (k->list.n == 0)
        screen_puts(s, x, 9, "No key yet.", COL_WHITE, COL_DEFAULT, 0);
    for (int i = 0; i < k->list.n; i++) {
        const store_key_t *key = &k->list.keys[i];
        char date[16];
        date_of(key->added, date, sizeof date);
        /* The date and the fingerprint whole at 80 columns (76 after the
         * margin: 3 + 10 + 2 + 50 + 2 leaves 9); the type last, in
         * short. */
        char type[16];
        key_type_shown(key->type, type, sizeof type);
        snprintf(line, sizeof line, "   %s  %s  %s", date, key->fingerprint,
                 type);
        screen_puts(s, x, 9 + i, line, COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x, 9 + i, (uint32_t)('1' + i), COL_BYELLOW,
                   COL_DEFAULT, ATTR_BOLD);
    }
    hint(s, 19, "a adds a key (paste its public key line); a number removes "
         "that key;");
    hint(s, 20, "q returns to the menu.");
}

/* The line pasted so far, wrapped over rows y..y+rows-1 (its end shown if
 * longer), then the cursor. */
static void draw_line(const lobby_keys_t *k, screen_t *s, int y, int rows)
{
    int x = left(s), w = s->w - 2 * x;
    if (w < 10)
        w = 10;
    int len = k->len, first = 0;
    int need = len / w + 1;
    if (need > rows)
        first = (need - rows) * w;
    char part[LOBBY_KEY_LINE_MAX + 1];
    for (int r = 0; r < rows && first + r * w <= len; r++) {
        int at = first + r * w;
        int n = len - at < w ? len - at : w;
        memcpy(part, k->line + at, (size_t)n);
        part[n] = '\0';
        int cx = x + screen_puts(s, x, y + r, part, COL_BWHITE, COL_DEFAULT, 0);
        if (n < w) {
            screen_put(s, cx, y + r, ' ', COL_DEFAULT, COL_DEFAULT, ATTR_REVERSE);
            break;
        }
    }
}

#define ADD_SAYS "Paste the line of your public key file " \
                 "(~/.ssh/id_ed25519.pub), then Enter:"
#define ADD_HINT "Enter adds it, Esc returns. No key yet? ssh-keygen -t " \
                 "ed25519 makes one."

/* The add page below 80 columns: its sentences wrapped, the line pasted
 * in the rows between them. */
static void draw_add_narrow(const lobby_keys_t *k, screen_t *s)
{
    int x = left(s), w = s->w - x;
    int y = 7 + view_puts_wrapped(s, x, 7, w, 3, ADD_SAYS, COL_WHITE, 0);
    int start[4], len[4], n = game_text_wrap(ADD_HINT, w, start, len, 4);
    view_puts_wrapped(s, x, s->h - n, w, n, ADD_HINT, COL_GREY, 0);
    int rows = s->h - n - 1 - (y + 1); /* a blank row above the hint */
    draw_line(k, s, y + 1, rows > 1 ? rows : 1);
}

void lobby_keys_draw(const lobby_t *l, screen_t *s)
{
    const lobby_keys_t *k = l->keys;
    if (!k)
        return;
    int x = left(s);
    char line[160];
    switch (l->page) {
    case LOBBY_KEYS:
        draw_list(l, s);
        break;
    case LOBBY_KEY_ADD:
        screen_puts(s, x, 6, "Add an SSH key", COL_BWHITE, COL_DEFAULT,
                    ATTR_BOLD);
        if (lobby_narrow(s)) {
            draw_add_narrow(k, s);
            break;
        }
        screen_puts(s, x, 7, ADD_SAYS, COL_WHITE, COL_DEFAULT, 0);
        draw_line(k, s, 9, 7);
        hint(s, 19, ADD_HINT);
        break;
    default: /* LOBBY_KEY_DEL */
        screen_puts(s, x, 6, "Remove an SSH key", COL_BWHITE, COL_DEFAULT,
                    ATTR_BOLD);
        snprintf(line, sizeof line, "Remove %s?", lobby_keys_pick(l));
        if (lobby_narrow(s) && (int)strlen(line) > s->w - x) /* one long word */
            snprintf(line, sizeof line, "Remove %.*s...?", s->w - x - 11,
                     lobby_keys_pick(l));
        screen_puts(s, x, 8, line, COL_WHITE, COL_DEFAULT, 0);
        hint(s, 10, "y removes it; any other key keeps it.");
        break;
    }
}
