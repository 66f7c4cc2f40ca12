/* preload.h - a test's server with a test-only LD_PRELOAD shim from
 * tests/preload/ (built beside the session tests: docs/testing.md).
 *
 * The sanitizer build's runtime checks that it comes first among the
 * libraries loaded, and a preloaded one comes before it: the server gets
 * ASAN_OPTIONS=...:verify_asan_link_order=0. That check is there for an
 * object that would take malloc and the like before ASan's; a shim
 * defines one call and calls on to the next in the search order (a
 * sanitizer's interceptor, then libc's), so ASan still sees every call.
 * ThreadSanitizer and the release build (-fno-plt: a GOT entry the
 * dynamic linker fills, preloaded objects first) need nothing. */
#ifndef ROGUE_TEST_PRELOAD_H
#define ROGUE_TEST_PRELOAD_H

/* The environment srv_start is to pass on, and what it was before. */
typedef struct preload_env {
    char *preload;             /* LD_PRELOAD as it was (NULL: unset) */
    char *asan;                /* ASAN_OPTIONS as it was */
} preload_env_t;

/* Sets LD_PRELOAD (and ASAN_OPTIONS) so that the next srv_start preloads
 * the shim `name` (accept_fault.so): $env if that variable is set, else
 * next to this binary's folder (build/san/tests/session/TEST ->
 * build/san/tests/preload/NAME). Fails the test if it is not built. */
void preload_set(preload_env_t *e, const char *name, const char *env);

/* Puts the variables back: only the server's process got them. */
void preload_unset(preload_env_t *e);

#endif
