/* hash_hold.c - a test-only LD_PRELOAD shim: password checks held in
 * libuv's pool until the test lets them go (tests/session/test_hash_busy.c,
 * docs/testing.md).
 *
 * A login told that the server is busy checking passwords needs the
 * hash_parallel slots held past store_wait_ms, and a real check is over
 * in tens of milliseconds. So the test starts the server with this object
 * preloaded, and it interposes crypto_pwhash_str_verify, libsodium's
 * check of a password against its hash, which every login makes (found
 * or not: store_hash.c, hash_work) in the pool, holding its slot:
 *
 *   HASH_HOLD_FIFO=PATH   until the first let-go, each check says
 *                         "hash_hold: holding" on stderr (the server's
 *                         log) and opens PATH (a FIFO the test made) for
 *                         reading, which blocks until the test opens it
 *                         for writing; then it says "hash_hold: let go"
 *                         and checks for real, and "hash_hold: checked"
 *                         once that check has ended. The test keeps its
 *                         end open until every check it held has said
 *                         "let go", so none is left behind; later checks
 *                         go straight on.
 *
 * Otherwise (no variable) it is the real check, the next one in the
 * search order (dlsym(RTLD_NEXT): libsodium's). Built without sanitizers,
 * like accept_fault.c and rebuild_hold.c: it runs inside servers built
 * with any of them. A registration's new hash (crypto_pwhash_str) and the
 * store's dummy hash at start are not held. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*verify_fn)(const char *, const char *, unsigned long long);

/* libsodium's declaration, without its header (the shim links nothing
 * but libdl). */
int crypto_pwhash_str_verify(const char *str, const char *passwd,
                             unsigned long long passwdlen);

static int released; /* the test has let the checks go (atomic) */

static void say(const char *what, const char *detail)
{
    char line[256];
    int n = snprintf(line, sizeof line, "hash_hold: %s: %s\n", what, detail);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1) < 0)
        return;
}

/* Blocks until the test has opened the FIFO for writing. */
static void hold(const char *fifo)
{
    say("holding a password check", fifo);
    int fd = open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        say("cannot open", fifo);
        return;
    }
    close(fd);
    __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
    say("let go", fifo);
}

int crypto_pwhash_str_verify(const char *str, const char *passwd,
                             unsigned long long passwdlen)
{
    static verify_fn real;
    verify_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        next = (verify_fn)dlsym(RTLD_NEXT, "crypto_pwhash_str_verify");
        if (!next) {
            say("dlsym", "no crypto_pwhash_str_verify after this object");
            abort();
        }
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    const char *fifo = getenv("HASH_HOLD_FIFO");
    int held = fifo && *fifo && !__atomic_load_n(&released, __ATOMIC_ACQUIRE);
    if (held)
        hold(fifo);
    int rc = next(str, passwd, passwdlen);
    if (held) /* its answer is on the way: the test may look for it */
        say("checked", fifo);
    return rc;
}
