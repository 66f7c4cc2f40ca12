/* export.h - rogued --export: a finished game as a terminal recording that
 * any player of the format plays back (ttyplay, asciinema play).
 *
 * The game is read from the data directory's database (read-only: a
 * running server is not disturbed, and nothing is created), replayed from
 * its record with the current core, and drawn as a player at an 80x24
 * terminal saw it: the first frame hides the cursor and paints the whole
 * screen; every key that changes the screen after that is one frame of
 * what changed (screen_diff, UTF-8), EXPORT_FRAME_US after the one before;
 * keys that change nothing make no frame and take no time. The last frame,
 * EXPORT_HOLD_US after, resets the pen, shows the cursor again and leaves
 * it on the line under the screen, so that the final screen stays whole.
 * No alternate screen: the game is still there when the player ends. */
#ifndef ROGUE_EXPORT_H
#define ROGUE_EXPORT_H

#include <stdio.h>

#include "config.h"

#define EXPORT_W 80
#define EXPORT_H 24
#define EXPORT_FRAME_US 100000u  /* 0.1 s per key that changes the screen */
#define EXPORT_HOLD_US 1000000u  /* the final screen, 1 s */

/* Writes game `id` (decimal, as the hall of fame's game_id) of the
 * database in cfg->data_dir to `file` ("-": standard output) in `format`:
 *
 *   "ttyrec"     frames of: u32 seconds, u32 microseconds, u32 length
 *                (little-endian), then the bytes; seconds count from the
 *                game's start (Unix time)
 *   "asciicast"  asciicast v2: a JSON header line {"version": 2, "width":
 *                80, "height": 24, "timestamp": the game's start, "title"},
 *                then one [seconds, "o", "bytes"] line per frame, control
 *                bytes escaped as \u001b and so on
 *
 * Refuses, with a sentence on stderr: a malformed id or format (returns
 * 2), a database that is not there or not ours, an unknown id, a game
 * kept without its record, a damaged record, one of another core version,
 * a replay that differs from its record, a file that cannot be written
 * (returns 1). The recording is written to a temporary file beside FILE
 * and renamed over it when whole, so a failure leaves what was at FILE as
 * it was and removes only that temporary file; a FILE that exists and is
 * not a regular file (a device, a fifo) is written in place and never
 * removed. Returns 0 when written, with a line on stderr saying what.
 * Uses no loop, no thread. */
int export_main(const config_t *cfg, const char *id, const char *format,
                const char *file);

/* rogued --list-games: every finished game of the database in
 * cfg->data_dir, oldest first, one line each (EXPORT_LIST_ROW): its id
 * (what --export takes), the date it ended (UTC), the player, score,
 * depth, turns and how it ended, marked when it was kept without its
 * record. A header line comes first if there is any game; a summary goes
 * to stderr. Read-only, as --export. Returns 0, or 1 (with a sentence on
 * stderr: no database, not ours, unreadable). */
#define EXPORT_LIST_HEAD "%6s  %-16s  %-20s %7s %5s %6s  %s\n"
#define EXPORT_LIST_ROW  "%6lld  %-16s  %-20s %7d %5d %6d  %s%s\n"
int export_list_main(const config_t *cfg, FILE *out);

#endif
