/* log.c - the server's event log. The level is process-wide configuration
 * set once at start-up, never game state. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "utf8.h"

static int log_level = LOG_INFO;

void log_set_level(int level)
{
    log_level = level;
}

int log_level_parse(const char *name)
{
    if (strcmp(name, "error") == 0)
        return LOG_ERROR;
    if (strcmp(name, "info") == 0)
        return LOG_INFO;
    if (strcmp(name, "debug") == 0)
        return LOG_DEBUG;
    return -1;
}

#define LOG_TIME_FORMAT "%Y-%m-%dT%H:%M:%SZ"

const char *log_time(long long t, char out[LOG_TIME_LEN])
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) ||
        strftime(out, LOG_TIME_LEN, LOG_TIME_FORMAT, &tm) == 0)
        snprintf(out, LOG_TIME_LEN, "%lld", t); /* a year past 9999 */
    return out;
}

void log_msg(int level, const char *fmt, ...)
{
    static const char *const names[] = { "error", "info", "debug" };
    if (level > log_level)
        return;
    char line[1024];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    int n = (int)strftime(line, sizeof line, LOG_TIME_FORMAT " ", &tm);
    n += snprintf(line + n, sizeof line - (size_t)n, "%s ", names[level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* One write per line so that lines from a busy server never interleave. */
    fprintf(stderr, "%s\n", line);
}

const char *log_printable(const char *in, char *out, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; in[i] && j + 1 < n; i++) {
        unsigned char c = (unsigned char)in[i];
        out[j++] = c >= ' ' && c < 127 ? (char)c : '?';
    }
    if (n)
        out[j] = '\0';
    return out;
}

const char *log_words(const char *in, char *out, size_t n)
{
    size_t len = strlen(in), j = 0;
    for (size_t i = 0; i < len && j + UTF8_MAX_LEN < n;) {
        uint32_t cp;
        size_t k = utf8_decode((const unsigned char *)in + i, len - i, &cp);
        if (k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
            out[j++] = '?';
            i += k ? k : 1;
        } else {
            memcpy(out + j, in + i, k);
            j += k;
            i += k;
        }
    }
    if (n)
        out[j] = '\0';
    return out;
}

const char *log_safe(const char *in, char *out, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; in[i] && j + 1 < n; i++) {
        unsigned char c = (unsigned char)in[i];
        out[j++] = c > ' ' && c < 127 && c != '"' && c != '\\' ? (char)c : '?';
    }
    if (n)
        out[j] = '\0';
    return out;
}
