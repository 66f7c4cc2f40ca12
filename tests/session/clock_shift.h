/* clock_shift.h - a test's server whose monotonic clocks the test moves
 * forward (tests/preload/clock_shift.c): behaviour about time, such as
 * the idle warning and disconnect, checked without waiting its real
 * seconds. The server's own timers still fire on their real schedule
 * (the once-a-second sweep); a shift only makes them find more time gone. */
#ifndef ROGUE_TEST_CLOCK_SHIFT_H
#define ROGUE_TEST_CLOCK_SHIFT_H
#include <stdint.h>

#include "preload.h"

typedef struct clock_shift {
    char path[320];            /* the file the shim maps, in the suite's
                                  directory (removed even if a test fails) */
    uint64_t *mapped;          /* the same 8 bytes, mapped here: a shift is
                                  one atomic store, never read half made */
    uint64_t ms;               /* the shift so far */
    preload_env_t env;
} clock_shift_t;

/* Before srv_start: makes the file (a shift of 0) and sets the variables
 * that preload the shim into the next server started. */
void clock_shift_begin(clock_shift_t *c);
/* After srv_start: puts the variables back (only that server has them). */
void clock_shift_started(clock_shift_t *c);
/* Moves the server's monotonic clocks ms further forward, at once. */
void clock_shift_by(clock_shift_t *c, uint64_t ms);
/* Removes the file (after srv_stop). */
void clock_shift_end(clock_shift_t *c);
#endif
