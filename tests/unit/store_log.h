/* store_log.h - the store's log (stderr) sent to a file in the fixture's
 * directory while a test reads it (store_fixture.h): log_to_file, then
 * logged(what) as often as wanted, log_restore at the end (the file stays
 * for a last count; the test unlinks it). */
#ifndef ROGUE_TEST_STORE_LOG_H
#define ROGUE_TEST_STORE_LOG_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store_fixture.h"

static char logpath[160];
static int saved_stderr = -1;

static inline void log_to_file(void)
{
    snprintf(logpath, sizeof logpath, "%s/log", dir);
    fflush(stderr);
    saved_stderr = dup(2);
    int lfd = open(logpath, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    ck_assert_int_ge(lfd, 0);
    dup2(lfd, 2);
    close(lfd);
}

static inline void log_restore(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
}

/* Lines of the store's log so far that hold what. */
static inline int logged(const char *what)
{
    fflush(stderr);
    FILE *f = fopen(logpath, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, what) != NULL;
    fclose(f);
    return n;
}

#endif
