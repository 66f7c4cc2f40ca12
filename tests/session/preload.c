/* preload.c - a test's server with an LD_PRELOAD shim (preload.h). */
#include "preload.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void shim_path(char *out, size_t len, const char *name,
                      const char *env)
{
    const char *given = env ? getenv(env) : NULL;
    if (given && *given) {
        snprintf(out, len, "%s", given);
    } else {
        char self[PATH_MAX - 64]; /* room for the shim's own path */
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        ck_assert_int_gt(n, 0);
        self[n] = '\0';
        char *at = strstr(self, "/tests/session/");
        ck_assert_ptr_nonnull(at);
        *at = '\0';
        snprintf(out, len, "%s/tests/preload/%s", self, name);
    }
    ck_assert_msg(access(out, R_OK) == 0, "%s: %s (make "
                  "build/san/tests/preload/%s)", out, strerror(errno), name);
}

/* Sets name to value (prefix, then the old value after sep, if any) and
 * returns the old value (malloc'd, NULL if unset) for env_restore. */
static char *env_prepend(const char *name, const char *value, const char *sep)
{
    const char *old = getenv(name);
    char *was = old ? strdup(old) : NULL;
    char buf[PATH_MAX + 512];
    snprintf(buf, sizeof buf, "%s%s%s", value, was && *was ? sep : "",
             was && *was ? was : "");
    ck_assert_int_eq(setenv(name, buf, 1), 0);
    return was;
}

static void env_restore(const char *name, char *was)
{
    if (was)
        ck_assert_int_eq(setenv(name, was, 1), 0);
    else
        ck_assert_int_eq(unsetenv(name), 0);
    free(was);
}

void preload_set(preload_env_t *e, const char *name, const char *env)
{
    char so[PATH_MAX];
    shim_path(so, sizeof so, name, env);
    e->preload = env_prepend("LD_PRELOAD", so, " ");
    /* (ASan reads its options in order: the last one set wins) */
    const char *asan = getenv("ASAN_OPTIONS");
    e->asan = asan ? strdup(asan) : NULL;
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0",
             e->asan ? e->asan : "", e->asan && *e->asan ? ":" : "");
    ck_assert_int_eq(setenv("ASAN_OPTIONS", opts, 1), 0);
}

void preload_unset(preload_env_t *e)
{
    env_restore("ASAN_OPTIONS", e->asan);
    env_restore("LD_PRELOAD", e->preload);
    e->asan = e->preload = NULL;
}
