/* denied_hint.c - the words after a permission refused (denied_hint.h). */
#include "denied_hint.h"

#include <stdio.h>
#include <unistd.h>

const char *denied_hint(const char *who, const char *as_user, char *buf,
                        size_t n)
{
    snprintf(buf, n, "this user, uid %u, may not open it or a directory on "
             "its path; run %s as %s", (unsigned)geteuid(), who, as_user);
    return buf;
}
