/* fuzz_game.c - libFuzzer target for the game core as a session drives it:
 * keys -> game_key -> view_draw at the client's size -> screen_diff against
 * what was shown. Any key a client can produce may arrive in any mode, and
 * the terminal size may change between any two keys (NAWS).
 *
 * Input: 8 bytes of seed (its low bits also pick the ruleset, and bits
 * 8 and up the display, so every ruleset and display is fuzzed), then a stream of ops: a byte < 0xe0 is a key (an
 * index into a table of every key the decoder can emit and of click keys
 * the host makes while the game is targeting, or the byte itself
 * as a character); 0xe0-0xef repeats the next op's key 50 to 800 times
 * (long games from short inputs: deep levels, many monsters); 0xf0-0xff
 * changes the size (two following bytes pick it, tiny and huge sizes
 * included). Besides the sanitizers it checks that a
 * frame never fails to encode and that the same seed and keys give the same
 * state hash twice (determinism). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "combat.h"
#include "game.h"
#include "keys.h"
#include "screen.h"
#include "screen_diff.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int special[] = {
    KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END, KEY_PGUP,
    KEY_PGDN, KEY_INSERT, KEY_DELETE, KEY_F1, KEY_F12, KEY_MOUSE, KEY_CPR,
    KEY_ENTER, KEY_ESC, KEY_BACKSPACE, KEY_CTRL_C, 0xe9, 0x10ffff,
    /* clicks on the map (targeting), its corners, and one past its end */
    KEY_CLICK_BASE, KEY_CLICK_BASE + 5 * 80 + 12, KEY_CLICK_BASE + 10 * 80 + 40,
    KEY_CLICK_BASE + 21 * 80 - 1, KEY_CLICK_BASE + 21 * 80,
};

static int op_key(uint8_t b)
{
    size_t n = sizeof special / sizeof special[0];
    return b < n ? special[b] : b;
}

/* Plays the input once; returns the final state hash. */
static uint64_t play(const uint8_t *data, size_t size, int draw)
{
    uint64_t seed = 0;
    memcpy(&seed, data, 8);
    game_options_t opt = { .ruleset = (int)(seed % RULES_COUNT) };
    game_t *g = game_new(seed, &opt);
    if (!g)
        abort();
    screen_t shown, next;
    screen_init(&shown, 80, 24);
    screen_init(&next, 80, 24);
    static const display_t displays[] = {
        { GLYPHS_ASCII, COLOURS_16 },   { GLYPHS_UTF8, COLOURS_16 },
        { GLYPHS_ASCII, COLOURS_256 },  { GLYPHS_UTF8, COLOURS_256 },
        { GLYPHS_ASCII, COLOURS_TRUE }, { GLYPHS_UTF8, COLOURS_TRUE },
    };
    const display_t *d = &displays[(seed >> 8) % 6];
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_set_display(&ts, d);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 1 << 20);
    int w = 80, h = 24;
    for (size_t i = 8; i < size && !game_over(g); i++) {
        uint8_t b = data[i];
        if (b >= 0xf0 && i + 2 < size) {
            w = 1 + data[i + 1];            /* 1..256 */
            h = 1 + data[i + 2] % 120;      /* 1..120 */
            i += 2;
        } else if (b >= 0xe0 && i + 1 < size) {
            int key = op_key(data[++i]);
            for (int k = ((b & 0xf) + 1) * 50; k > 0 && !game_over(g); k--)
                game_key(g, key);
        } else {
            game_key(g, op_key(b));
        }
        if (!draw)
            continue;
        if (screen_resize(&next, w, h) != 0)
            abort();
        view_draw_display(g, d, &next);
        buf_reset(&out);
        if (screen_diff(&shown, &next, &ts, &out) != 0)
            abort(); /* a frame always fits the frame buffer */
        if (screen_copy(&shown, &next) != 0)
            abort();
    }
    uint64_t hash = game_hash(g);
    buf_free(&out);
    screen_free(&shown);
    screen_free(&next);
    game_free(g);
    return hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    /* Drawing never changes the game: with and without it, same state. */
    if (play(data, size, 1) != play(data, size, 0))
        abort();
    return 0;
}
