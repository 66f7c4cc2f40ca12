/* options.h - the options screen (`O`): the glyphs and colours a player is
 * drawn with, Auto (what the client said it can show) or a choice of
 * their own, and how that choice is kept (accounts.display).
 *
 * Like the lobby, a state machine with no I/O: keys in, whether the choice
 * changed out, and a draw function into a cell grid. The session opens it
 * over whatever it shows (lobby menu, game, watch, replay), takes the
 * changed choice (draws with it, and keeps it for an account), and closes
 * it. docs/game.md, "Options", has the keys. */
#ifndef ROGUE_OPTIONS_H
#define ROGUE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "display.h"
#include "screen.h"

/* A player's choice as one small integer, what accounts.display keeps:
 * bits 0-1 the glyphs (0 Auto, 1 ASCII, 2 UTF-8), bits 2-3 the colours
 * (0 Auto, 1 16, 2 256, 3 truecolor). 0 (the column's default) is Auto
 * for both. */
#define DISPLAY_CHOICE_AUTO 0
enum { CHOICE_AUTO = 0, CHOICE_ASCII = 1, CHOICE_UTF8 = 2 };
enum { CHOICE_16 = 1, CHOICE_256 = 2, CHOICE_TRUE = 3 };

static inline int display_choice(int glyphs, int colours)
{
    return (glyphs & 3) | (colours & 3) << 2;
}
static inline int display_choice_glyphs(int choice) { return choice & 3; }
static inline int display_choice_colours(int choice) { return choice >> 2 & 3; }

/* A choice read back from the store, made safe: a glyph value of 3, or
 * any bit beyond the four, means the row holds something we never wrote:
 * that part is Auto. */
int display_choice_clean(long long stored);

/* The display a client is drawn with: the choice where it makes one,
 * what was detected where it says Auto. */
display_t display_chosen(display_t detected, int choice);

/* "UTF-8, 256 colours": d in words, into out. Returns out. */
const char *display_describe(display_t d, char *out, size_t n);

typedef struct options {
    uint8_t open;
    uint8_t row;                /* 0: glyphs, 1: colours */
    uint8_t choice;             /* as above */
    uint8_t not_kept;           /* the store could not keep the last change */
} options_t;

/* What a key did. */
enum { OPTIONS_NOTHING = 0, OPTIONS_CHANGED, OPTIONS_CLOSED };

/* Opens the screen on the present choice. */
void options_open(options_t *o, int choice);

/* Feeds one key (common/keys.h): Up/Down (k/j) pick a line, Left/Right
 * (h/l) or Space change it, Enter, Esc, q or O close. Returns OPTIONS_*. */
int options_key(options_t *o, int key);

/* What the session knows, for the screen. */
typedef struct options_info {
    display_t detected;         /* what the client said it can show */
    const char *terminal;       /* its name(s), "" for none */
    int account;                /* 1: logged in (the choice is kept) */
} options_info_t;

/* Draws the screen into s at s's size (it clips). */
void options_draw(const options_t *o, const options_info_t *in, screen_t *s);

#endif
