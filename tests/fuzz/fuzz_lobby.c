/* fuzz_lobby.c - libFuzzer target for the lobby's state machine (lobby.h)
 * as a session drives it: any key a client can type, in any page, with the
 * store's answers arriving whenever the session would deliver them (or
 * never), and the page drawn at any size between two keys.
 *
 * Input: a stream of ops. A byte < 0xe0 is a key (an index into a table of
 * special keys, or the byte itself as a character); 0xe0-0xff is an event
 * (the low bits and the next byte pick it): a login or registration answer
 * of any status, a guest-name answer, a registration's early answer
 * whether its name is taken (for the name typed now or for another), a
 * hall of fame answer, the wait for a saved game and its end, a resume
 * offer, the watch list filled, an SSH keys answer (the list of any
 * status, a refused line, a checked one, a key login), a draw.
 *
 * Besides the sanitizers it checks the contracts: every action is one of
 * enum lobby_action; what is typed at a password prompt never shows (only
 * its length may); the password is wiped once the session has handed it
 * over. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "lobby.h"
#include "screen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int special[] = {
    KEY_ENTER, KEY_ESC, KEY_BACKSPACE, KEY_CTRL_C, KEY_UP, KEY_DOWN,
    KEY_MOUSE, KEY_F1, 0x15 /* Ctrl-U */, 0x7f, 0x80, 0x9b, 0xe9, 0x10ffff,
    0xd800, -1, 0,
};
#define NSPECIAL (sizeof special / sizeof special[0])

static const int statuses[] = {
    STORE_OK, STORE_BAD_LOGIN, STORE_NAME_TAKEN, STORE_INVALID,
    STORE_SLOW_DOWN, STORE_ERROR, STORE_NOT_FOUND, STORE_DUPLICATE,
    STORE_FULL,
};
#define NSTATUS (sizeof statuses / sizeof statuses[0])

/* While a password prompt is shown, what was typed must not change the
 * picture, only its length may: the same lobby with other bytes typed
 * draws the very same cells. */
static void check_password_hidden(const lobby_t *l, const lobby_info_t *info,
                                  const screen_t *drawn)
{
    static lobby_t other;
    static lobby_input_t other_in;
    screen_t s2;
    other = *l; /* shallow: drawing only reads */
    if (!l->in)
        return;
    other.in = &other_in;
    /* One ASCII byte for each character typed, never the same one. */
    const char *line = lobby_line(l);
    uint16_t n = 0;
    for (int i = 0; i < lobby_line_len(l); i++)
        if (((unsigned char)line[i] & 0xc0) != 0x80)
            other_in.line[n++] = line[i] == 'x' ? 'y' : 'x';
    other_in.line[n] = '\0';
    other_in.len = n;
    if (screen_init(&s2, drawn->w, drawn->h) != 0)
        return;
    lobby_draw(&other, info, &s2);
    for (int y = 0; y < drawn->h; y++)
        for (int x = 0; x < drawn->w; x++)
            if (screen_cat(drawn, x, y)->ch != screen_cat(&s2, x, y)->ch)
                abort();
    screen_free(&s2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lobby_t l;
    screen_t s;
    static store_scores_t sc;
    lobby_info_t info = { "fuzz", "motd", 3, 1, NULL, NULL, 0 };
    if (screen_init(&s, 80, 24) != 0)
        return 0;
    lobby_init(&l, "guest7");
    for (size_t i = 0; i < size; i++) {
        uint8_t b = data[i];
        int action = LOBBY_DO_NOTHING;
        if (b < 0xe0) {
            int key = b < NSPECIAL ? special[b] : b;
            action = lobby_key(&l, key);
        } else {
            uint8_t arg = i + 1 < size ? data[++i] : 0;
            switch (b & 7) {
            case 0: {
                store_account_t a = { statuses[arg % NSTATUS], 1 + arg, "Someone", 0 };
                action = lobby_account_done(&l, &a);
                break;
            }
            case 1:
                if (arg & 2) /* the registration's early answer: for the
                                name typed now, or for one given up */
                    action = lobby_name_checked(&l, arg & 4 ? l.name
                                                : "Someone",
                                                statuses[(arg >> 3) % NSTATUS],
                                                arg & 1);
                else
                    action = lobby_guest_checked(&l, statuses[arg % NSTATUS],
                                                 arg & 1);
                break;
            case 2:
                memset(&sc, 0, sizeof sc);
                sc.status = statuses[arg % NSTATUS];
                sc.n = arg % (STORE_TOP_MAX + 1);
                for (int k = 0; k < sc.n; k++) {
                    sc.top[k].game_id = k + 1;
                    sc.top[k].score = 1000 - k;
                    memset(sc.top[k].name, 'a' + k % 26, ACCT_NAME_MAX);
                    memset(sc.top[k].cause, 'c', STORE_CAUSE_MAX);
                }
                sc.has_best = arg & 1;
                sc.best_rank = arg * 1000003LL;
                lobby_scores_done(&l, &sc);
                break;
            case 3:
                if (arg & 1)
                    lobby_wait(&l);
                else
                    lobby_waited(&l);
                break;
            case 4:
                if ((arg & 3) == 3)
                    lobby_saved_broken(&l);
                else if (arg & 1)
                    lobby_offer_resume(&l, arg, arg * 1000, arg & 4);
                else if (((arg & 2) ? lobby_password_checked
                                    : lobby_password_changed)(
                             &l, statuses[(arg >> 2) % NSTATUS]) ==
                         LOBBY_DO_QUIT) {
                    lobby_free(&l); /* the session would close */
                    lobby_init(&l, "guest8");
                }
                break;
            case 5:
                lobby_show_watch(&l);
                if (!l.watch)
                    break;
                l.nwatch = arg % (LOBBY_WATCH_MAX + 1);
                for (int k = 0; k < l.nwatch; k++) {
                    l.watch[k].session_id = (uint64_t)k + 1;
                    memset(l.watch[k].name, 'w', ACCT_NAME_MAX);
                    l.watch[k].name[ACCT_NAME_MAX] = '\0';
                    l.watch[k].idle_s = arg * 100;
                }
                break;
            case 6: {
                static store_keys_t ks;
                memset(&ks, 0, sizeof ks);
                switch (arg & 3) {
                case 0:
                    ks.status = statuses[(arg >> 2) % NSTATUS];
                    ks.n = (arg >> 2) % (STORE_KEYS_MAX + 1);
                    for (int k = 0; k < ks.n; k++) {
                        memset(ks.keys[k].fingerprint, 'f', STORE_KEY_FP_MAX);
                        memset(ks.keys[k].type, 't', STORE_KEY_TYPE_MAX);
                        ks.keys[k].added = (int64_t)arg << 40;
                    }
                    lobby_keys_done(&l, &ks);
                    break;
                case 1:
                    lobby_keys_refused(&l, "That is not a public key line.");
                    break;
                case 2:
                    lobby_keys_checked(&l, "SHA256:checked");
                    break;
                default:
                    lobby_key_login(&l, 1 + arg, "Keyed");
                    break;
                }
                break;
            }
            default: {
                int w = 1 + arg % 300, h = 1 + (arg * 7) % 120;
                if (screen_resize(&s, w, h) != 0)
                    break;
                lobby_draw(&l, &info, &s);
                if (lobby_in_password(&l))
                    check_password_hidden(&l, &info, &s);
                break;
            }
            }
        }
        if (action < LOBBY_DO_NOTHING || action > LOBBY_DO_CHECK_PASSWORD)
            abort();
        if (action == LOBBY_DO_LOGIN || action == LOBBY_DO_REGISTER ||
            action == LOBBY_DO_CHANGE_PASSWORD) {
            /* The session hands the passwords over, then wipes them. */
            (void)lobby_take_password(&l);
            (void)lobby_take_new_password(&l);
            lobby_wipe_password(&l);
            if (lobby_take_password(&l)[0] != '\0' ||
                lobby_take_new_password(&l)[0] != '\0')
                abort();
        }
    }
    lobby_free(&l);
    screen_free(&s);
    return 0;
}
