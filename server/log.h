/* log.h - one line per event to stderr, with a UTC timestamp and a level. */
#ifndef ROGUE_LOG_H
#define ROGUE_LOG_H

#include <stddef.h>

enum log_level { LOG_ERROR = 0, LOG_INFO = 1, LOG_DEBUG = 2 };

/* Sets the most detailed level written (default LOG_INFO). */
void log_set_level(int level);

/* Parses "error", "info", "debug"; returns -1 for anything else. */
int log_level_parse(const char *name);

/* Writes one line. Never pass a password or anything a player typed unchecked. */
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Text a client typed, made safe for one log line inside quotes: printable
 * ASCII stays, anything else (controls, quotes, backslashes, UTF-8) is '?'.
 * Returns out. */
const char *log_safe(const char *in, char *out, size_t n);

/* Words that may quote a client's bytes (a library's error naming an SSH
 * banner), made safe for the rest of a log line: printable ASCII and
 * spaces stay, any other byte (a control, an escape sequence's ESC,
 * UTF-8) is '?'. Returns out. */
const char *log_printable(const char *in, char *out, size_t n);

/* Words an operator typed (a console line: a `say` in any language),
 * made safe for the rest of a log line: well-formed UTF-8 stays, a
 * control or a byte of no character is '?' (raw C0 AF made grep take the
 * log for a binary file). Returns out. */
const char *log_words(const char *in, char *out, size_t n);

/* Unix time t as the log lines' own times are written
 * (2026-11-28T15:27:06Z), for a time inside a line. Returns out. */
#define LOG_TIME_LEN 21 /* with its NUL */
const char *log_time(long long t, char out[LOG_TIME_LEN]);

#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
