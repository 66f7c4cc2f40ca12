/* conf_file.h - a config file for a test: write_file(text) makes a new
 * /tmp/rogued-conf-XXXXXX holding text, its name in path; the test
 * unlinks it. Shared by the config suites (test_config, test_config_read). */
#ifndef ROGUE_TEST_CONF_FILE_H
#define ROGUE_TEST_CONF_FILE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static inline void write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/rogued-conf-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

#endif
