/* clock_shift.c - the test's side of tests/preload/clock_shift.c
 * (clock_shift.h). */
#include "clock_shift.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client.h"

void clock_shift_begin(clock_shift_t *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s/clock-XXXXXX", srv_tmp_base());
    int fd = mkstemp(c->path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, sizeof(uint64_t)), 0); /* a shift of 0 */
    void *m = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, 0);
    close(fd);
    ck_assert(m != MAP_FAILED);
    c->mapped = m;
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
    __atomic_store_n(c->mapped, c->ms, __ATOMIC_RELEASE);
}

void clock_shift_end(clock_shift_t *c)
{
    munmap(c->mapped, sizeof(uint64_t));
    c->mapped = NULL;
    unlink(c->path);
}
