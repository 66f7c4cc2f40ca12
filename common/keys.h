/* keys.h - the key codes shared by the key decoder (server) and the game core.
 *
 * A key is an int: a Unicode code point for a character (so 'h', '5', 13 for
 * Enter, 27 for Esc, 127 for Backspace, 3 for Ctrl-C), or one of the KEY_*
 * values above the Unicode range for keys that have no character. Game records
 * store these ints, so the values below never change once released. */
#ifndef ROGUE_KEYS_H
#define ROGUE_KEYS_H

enum {
    KEY_CTRL_C = 3,
    KEY_CTRL_L = 12,  /* redraw (the host's; the core ignores it) */
    KEY_CTRL_R = 18,  /* redraw, too */
    KEY_ENTER = 13,
    KEY_ESC = 27,
    KEY_BACKSPACE = 127,

    KEY_SPECIAL = 0x110000,
    KEY_UP = KEY_SPECIAL,
    KEY_DOWN,
    KEY_RIGHT,
    KEY_LEFT,
    KEY_HOME,
    KEY_END,
    KEY_INSERT,
    KEY_DELETE,
    KEY_PGUP,
    KEY_PGDN,
    KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6,
    KEY_F7, KEY_F8, KEY_F9, KEY_F10, KEY_F11, KEY_F12,
    KEY_MOUSE,  /* a mouse report: see keyev_t in server/net/keydec.h */
    KEY_CPR,    /* a cursor position report, only while one was asked for */
    KEY_PASTE_BEGIN, /* bracketed paste (ESC[200~ ... ESC[201~): what */
    KEY_PASTE_END,   /* comes between was pasted, not typed */
    KEY_LAST,

    /* A click on map tile (x, y), for the game core (the host turns a mouse
     * report into one while the game is targeting): KEY_CLICK_BASE +
     * y * MAP_W + x (game_click_key, game.h). A key like any other, so a
     * game record holds it as it holds every key. */
    KEY_CLICK_BASE = 0x120000,
    KEY_CLICK_END = KEY_CLICK_BASE + 0x10000 /* past the last click key */
};

#endif
