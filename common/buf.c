/* buf.c - growable, capped byte buffer. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_DEFAULT_LIMIT (1u << 20)

void buf_init(buf_t *b, size_t limit)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->limit = limit ? limit : BUF_DEFAULT_LIMIT;
}

static int buf_reserve(buf_t *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    if (need > b->limit)
        return -1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    if (cap > b->limit)
        cap = b->limit;
    char *p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

int buf_append(buf_t *b, const void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (n > b->limit - b->len || buf_reserve(b, b->len + n) != 0)
        return -1;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

int buf_puts(buf_t *b, const char *s)
{
    return buf_append(b, s, strlen(s));
}

int buf_printf(buf_t *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if ((size_t)n < sizeof small)
        return buf_append(b, small, (size_t)n);
    if ((size_t)n > b->limit - b->len || buf_reserve(b, b->len + (size_t)n + 1) != 0)
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

void buf_reset(buf_t *b)
{
    b->len = 0;
}

void buf_free(buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}
