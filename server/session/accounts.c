/* accounts.c - name, password and shown-text rules. */
#include "accounts.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

static int say(char *why, size_t whylen, const char *text)
{
    if (why && whylen)
        snprintf(why, whylen, "%s", text);
    return 0;
}

static int name_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '-';
}

int acct_name_valid(const char *name, char *why, size_t whylen)
{
    size_t n = strnlen(name, ACCT_NAME_MAX + 1);
    if (n < ACCT_NAME_MIN)
        return say(why, whylen, "A name needs at least 2 characters.");
    if (n > ACCT_NAME_MAX)
        return say(why, whylen, "A name has at most 20 characters.");
    for (size_t i = 0; i < n; i++)
        if (!name_char((unsigned char)name[i]))
            return say(why, whylen,
                       "A name may use only letters, digits, _ and -.");
    return 1;
}

/* Controls, and the invisible characters that can disguise text. */
static int cp_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
           (cp >= 0x200b && cp <= 0x200f) ||  /* zero-width, LRM, RLM */
           (cp >= 0x2028 && cp <= 0x202e) ||  /* separators, embeddings, overrides */
           (cp >= 0x2060 && cp <= 0x206f) ||  /* word joiner, isolates, ... */
           cp == 0xfeff ||                    /* BOM, zero-width no-break */
           (cp >= 0xfff9 && cp <= 0xfffb) ||  /* interlinear annotation */
           (cp >= 0xe0000 && cp <= 0xe007f);  /* tag characters */
}

int acct_text_is_safe(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0 || cp_unsafe(cp))
            return 0;
        i += n;
    }
    return 1;
}

int acct_password_valid(const char *pass, char *why, size_t whylen)
{
    size_t len = strnlen(pass, ACCT_PASS_MAX + 1);
    if (len > ACCT_PASS_MAX)
        return say(why, whylen, "A password has at most 128 bytes.");
    const unsigned char *p = (const unsigned char *)pass;
    size_t i = 0, chars = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
            return say(why, whylen,
                       "A password may not hold control characters.");
        i += n;
        chars++;
    }
    if (chars < ACCT_PASS_MIN)
        return say(why, whylen, "A password needs at least 6 characters.");
    return 1;
}

void acct_name_key(const char *name, char *out, size_t outlen)
{
    size_t n = 0;
    if (outlen == 0)
        return;
    for (; name[n] && n < ACCT_NAME_MAX && n + 1 < outlen; n++) {
        char c = name[n];
        out[n] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[n] = '\0';
}
