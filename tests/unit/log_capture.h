/* log_capture.h - a unit test's log (stderr) read back: log_begin sends it
 * to a fresh file named for the test and its process, log_end gives
 * stderr back and returns what was written since, the file removed. One
 * capture at a time. (store_log.h is the store fixture's own, kept in its
 * directory for later counts.) */
#ifndef ROGUE_TEST_LOG_CAPTURE_H
#define ROGUE_TEST_LOG_CAPTURE_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static char log_capture_path[96];
static int log_capture_saved = -1;

/* stderr into /tmp/NAME.PID.log until log_end. */
static inline void log_begin_named(const char *name)
{
    snprintf(log_capture_path, sizeof log_capture_path, "/tmp/%s.%d.log",
             name, (int)getpid());
    fflush(stderr);
    log_capture_saved = dup(2);
    ck_assert_int_ge(log_capture_saved, 0);
    int fd = open(log_capture_path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(dup2(fd, 2), 2);
    close(fd);
}

/* stderr back; what was logged since log_begin_named, into out. */
static inline void log_end(char *out, size_t n)
{
    fflush(stderr);
    ck_assert_int_eq(dup2(log_capture_saved, 2), 2);
    close(log_capture_saved);
    log_capture_saved = -1;
    FILE *f = fopen(log_capture_path, "r");
    ck_assert_ptr_nonnull(f);
    size_t k = fread(out, 1, n - 1, f);
    out[k] = '\0';
    fclose(f);
    unlink(log_capture_path);
}

#endif
