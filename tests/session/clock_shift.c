/* clock_shift.c - the test's side of tests/preload/clock_shift.c
 * (clock_shift.h). */
#include "clock_shift.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(clock_shift_t *c)
{
    ck_assert_int_eq(pwrite(c->fd, &c->ms, sizeof c->ms, 0),
                     (ssize_t)sizeof c->ms);
}

void clock_shift_begin(clock_shift_t *c)
{
    memset(c, 0, sizeof *c);
    strcpy(c->path, "/tmp/rogued-clock-XXXXXX");
    c->fd = mkstemp(c->path);
    ck_assert_int_ge(c->fd, 0);
    put(c);
    ck_assert_int_eq(setenv("CLOCK_SHIFT_FILE", c->path, 1), 0);
    preload_set(&c->env, "clock_shift.so", NULL);
}

void clock_shift_started(clock_shift_t *c)
{
    preload_unset(&c->env);
    ck_assert_int_eq(unsetenv("CLOCK_SHIFT_FILE"), 0);
}

void clock_shift_by(clock_shift_t *c, uint64_t ms)
{
    c->ms += ms;
    put(c);
}

void clock_shift_end(clock_shift_t *c)
{
    close(c->fd);
    unlink(c->path);
    c->fd = -1;
}
