/* ssh_pend.c - bytes waiting for a peer (ssh_pend.h). */
#include "ssh_pend.h"

#include <stdlib.h>
#include <string.h>

int ssh_pend_add(ssh_pend_t *p, const char *data, size_t n, size_t max)
{
    if (max && p->len + n > max)
        return -1;
    if (n == 0)
        return 0; /* (nothing held yet: no buffer to copy into) */
    if (p->len + n > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 4096;
        while (cap < p->len + n)
            cap *= 2;
        char *d = realloc(p->data, cap);
        if (!d)
            return -1;
        p->data = d;
        p->cap = cap;
    }
    memcpy(p->data + p->len, data, n);
    p->len += n;
    return 0;
}

void ssh_pend_drop(ssh_pend_t *p, size_t n)
{
    memmove(p->data, p->data + n, p->len - n);
    p->len -= n;
    if (p->len == 0)
        ssh_pend_free(p);
}

void ssh_pend_free(ssh_pend_t *p)
{
    free(p->data);
    *p = (ssh_pend_t){ 0 };
}
