/* check_main.h - the main() every check test binary shares.
 *
 * A test file defines `static Suite *make_suite(void)` and ends with
 * CHECK_MAIN(make_suite). The binary exits non-zero when any test fails;
 * tests/run-tests.sh reads check's "Checks: N, Failures: F, Errors: E" line. */
#ifndef CHECK_MAIN_H
#define CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* A property or soak test's count: `quick` in `make test`, `soak` under
 * `make soak` (which sets ROGUED_SOAK=1; docs/testing.md). */
static inline int soak_count(int quick, int soak)
{
    const char *e = getenv("ROGUED_SOAK");
    return e && *e && strcmp(e, "0") != 0 ? soak : quick;
}

#define CHECK_MAIN(make)                                        \
    int main(void)                                              \
    {                                                           \
        SRunner *sr = srunner_create(make());                   \
        srunner_run_all(sr, CK_NORMAL);                         \
        int failed = srunner_ntests_failed(sr);                 \
        srunner_free(sr);                                       \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;            \
    }

#endif
