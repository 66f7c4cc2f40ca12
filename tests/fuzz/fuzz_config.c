/* fuzz_config.c - libFuzzer target for the configuration file parser:
 * config_load_file on arbitrary bytes (a host's file, any length of line,
 * any byte), then config_validate and config_print_keys on what it set.
 * Besides the sanitizers it checks that every integer key stays in its
 * range whatever the file (a key set out of range must have been refused)
 * and that every string key stays NUL-terminated within its buffer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;

static void cleanup(void)
{
    if (path[0])
        unlink(path);
}

/* The input as a file (one per process, rewritten each run). */
static int as_file(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        /* memory if we may: a disk makes this a hundred times slower */
        snprintf(path, sizeof path, "/dev/shm/fuzz_config-XXXXXX");
        fd = mkstemp(path);
        if (fd < 0) {
            snprintf(path, sizeof path, "/tmp/fuzz_config-XXXXXX");
            fd = mkstemp(path);
        }
        if (fd < 0)
            abort();
        atexit(cleanup);
    }
    if (ftruncate(fd, 0) != 0 ||
        (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        abort();
    return 0;
}

static void check_strings(const config_t *c)
{
    const char *fields[] = { c->bind, c->data_dir, c->server_name, c->motd,
                             c->seed, c->combat, c->log_level };
    size_t sizes[] = { sizeof c->bind, sizeof c->data_dir,
                       sizeof c->server_name, sizeof c->motd, sizeof c->seed,
                       sizeof c->combat, sizeof c->log_level };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strnlen(fields[i], sizes[i]) == sizes[i])
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_file(data, size);
    config_t c;
    config_defaults(&c);
    char err[512];
    err[0] = '\0';
    int rc = config_load_file(&c, path, 1, err, sizeof err);
    if (rc != 0 && (err[0] == '\0' || strnlen(err, sizeof err) == sizeof err))
        abort(); /* a refusal always says why */
    check_strings(&c);
    /* ranges config.c promises (its key table) */
    if (c.port < 0 || c.port > 65535 || c.max_sessions < 1 ||
        c.negotiation_ms < 10 || c.max_cols < 80 || c.max_rows < 24 ||
        c.max_keys_per_second < 1 || c.max_input_bytes_per_second < 0 ||
        c.guest_min_turns < 0 ||
        c.guest_keep_days < 0)
        abort();
    if (config_validate(&c, err, sizeof err) == 0) {
        uint64_t seed;
        config_seed(&c, &seed);
        if (config_ruleset(&c) < 0)
            abort();
    }
    FILE *devnull = fopen("/dev/null", "w");
    if (!devnull)
        abort();
    config_print_keys(&c, devnull);
    fclose(devnull);
    return 0;
}
