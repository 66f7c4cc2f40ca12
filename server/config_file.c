/* config_file.c - the config file read (config.h): `key = value` lines,
 * a value's quotes, a key given twice, a '#' after a value, and reading
 * one key alone; each value is set by config.c's config_set. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* A value may be quoted to keep spaces or be empty: "...". One that opens
 * a quote must close it as its last character: taken literally, a
 * forgotten quote would put `"Welcome` on every player's screen. Quotes
 * inside are kept as they are (there is no escape). 0, or -1 with why. */
static int unquote(const char *key, char **value, char *why, size_t n)
{
    char *v = *value;
    size_t len = strlen(v);
    if (v[0] != '"')
        return 0;
    if (len >= 2 && v[len - 1] == '"') {
        v[len - 1] = '\0';
        *value = v + 1;
        return 0;
    }
    if (strchr(v + 1, '"'))
        snprintf(why, n, "%s: text after the value's closing quote (a "
                 "comment takes a line of its own)", key);
    else
        snprintf(why, n, "%s: the value's quote is not closed", key);
    return -1;
}

/* One reading of a file: which keys it reads, who hears its warnings,
 * and the line each key was first given on. */
typedef struct file_read {
    const char *path;
    const char *only;   /* NULL: every key; else this key's lines alone */
    void (*warn)(const char *line, void *arg); /* NULL: none said */
    void *arg;
    int first[CONFIG_MAX_KEYS]; /* key i's line, or 0 */
} file_read_t;

/* A key given a second time in one file is refused, naming the first
 * line: with the last one winning, an edit further up (or a key pasted
 * twice) would be ignored without a word. */
static int given_again(file_read_t *fr, const char *key, int lineno,
                       char *why, size_t n)
{
    int i = config_key_index(key);
    if (i < 0) /* config_set says it is unknown */
        return 0;
    if (fr->first[i]) {
        snprintf(why, n, "%s: given again (first on line %d)", key,
                 fr->first[i]);
        return -1;
    }
    fr->first[i] = lineno;
    return 0;
}

/* An unquoted value's '#' that a host may have meant as a comment: first,
 * or after a space or a tab (`motd = hello  # note`). A comment is a line
 * of its own (config/server.conf's header), so the rest is the value. */
static int looks_commented(const char *value)
{
    return value[0] == '#' || strstr(value, " #") || strstr(value, "\t#");
}

/* The value config_set refused holds a '#': why says it is part of it. */
static void comment_hint(const char *value, char *why, size_t n)
{
    size_t len = strlen(why);
    if (strchr(value, '#') && len < n)
        snprintf(why + len, n - len, " (a comment takes a line of its own: "
                 "the # and what follows are part of the value)");
}

/* A value taken whole that looks as if it ends in a comment: said (the
 * log at start, and reload's answer), since players would see all of it;
 * quoting the value says it is meant. */
static void comment_warn(const file_read_t *fr, const char *key,
                         const char *value, int lineno)
{
    if (!fr->warn || !looks_commented(value))
        return;
    char line[512], safe[201];
    /* a secret's value (a URL's password) is not written; the rest as a
     * log line may hold it: no control bytes, cut at 200 */
    if (config_key_secret(key)) {
        snprintf(safe, sizeof safe, "%s", "(not shown: it may hold a "
                 "password)");
    } else {
        size_t j = 0;
        for (; value[j] && j + 1 < sizeof safe; j++) {
            unsigned char ch = (unsigned char)value[j];
            safe[j] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
        }
        safe[j] = '\0';
    }
    snprintf(line, sizeof line, "config: %s:%d: %s: the value holds a '#', "
             "and a comment takes a line of its own: all of '%s' is the "
             "value (put the comment on a line of its own, or quote the "
             "value to keep it so)", fr->path, lineno, key, safe);
    fr->warn(line, fr->arg);
}

/* One line of the file (its newline still on): a comment, a blank line
 * or `key = value`. Reading one key alone (fr->only), every other line is
 * skipped, a mistake in it too. 0, or -1 with why. */
static int load_line(config_t *c, file_read_t *fr, char *line, int lineno,
                     char *why, size_t n)
{
    char *s = trim(line);
    if (*s == '#' || *s == '\0')
        return 0;
    char *eq = strchr(s, '=');
    if (!eq) {
        if (fr->only)
            return 0;
        snprintf(why, n, "expected 'key = value'");
        return -1;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1), *raw = value;
    if (fr->only && strcmp(key, fr->only) != 0)
        return 0;
    if (given_again(fr, key, lineno, why, n) != 0 ||
        unquote(key, &value, why, n) != 0)
        return -1;
    if (config_set(c, key, value, why, n) != 0) {
        comment_hint(value, why, n);
        return -1;
    }
    if (value == raw) /* a quoted value is meant as it is */
        comment_warn(fr, key, value, lineno);
    return 0;
}

/* 1 when line (cut: longer than the buffer) is key's own, so that one
 * key's reading refuses it as a whole reading does. */
static int line_of_key(const char *line, const char *key)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = strlen(key);
    return strncmp(line, key, n) == 0 &&
           (line[n] == '=' || isspace((unsigned char)line[n]));
}

static int load_file(config_t *c, file_read_t *fr, int required, char *err,
                     size_t errlen)
{
    FILE *f = fopen(fr->path, "r");
    if (!f) {
        if (!required && errno == ENOENT)
            return 0;
        snprintf(err, errlen, "config file %s: %s", fr->path, strerror(errno));
        return -1;
    }
    char line[1024], why[384];
    int lineno = 0, rc = 0, ch;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        /* A UTF-8 byte order mark, which some Windows editors write
         * first: unseen, it made the first key "unknown key 'bind'" (a
         * host QA). Skipped. */
        if (lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
            memmove(line, line + 3, strlen(line + 3) + 1);
        if (strchr(line, '\n') || feof(f)) {
            rc = load_line(c, fr, line, lineno, why, sizeof why);
        } else if (fr->only && !line_of_key(line, fr->only)) {
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ; /* another key's line: skipped whole */
        } else {
            snprintf(why, sizeof why, "line too long");
            rc = -1;
        }
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s:%d: %s", fr->path, lineno, why);
    } else if (ferror(f)) {
        /* A read that failed (a directory given for the file, EISDIR)
         * looked like the end of an empty file: the server started on
         * its defaults, the file's settings silently not there. */
        int e = errno;
        snprintf(err, errlen, "config file %s: %s%s", fr->path, strerror(e),
                 e == EISDIR ? " (--config takes the file itself)" : "");
        rc = -1;
    }
    fclose(f);
    return rc;
}

int config_load_file(config_t *c, const char *path, int required, char *err,
                     size_t errlen)
{
    return config_load_file_warn(c, path, required, NULL, NULL, err, errlen);
}

int config_load_file_warn(config_t *c, const char *path, int required,
                          void (*warn)(const char *line, void *arg),
                          void *arg, char *err, size_t errlen)
{
    return config_load_file_given(c, path, required, warn, arg, NULL, err,
                                  errlen);
}

int config_load_file_given(config_t *c, const char *path, int required,
                           void (*warn)(const char *line, void *arg),
                           void *arg, uint8_t *given,
                           char *err, size_t errlen)
{
    file_read_t fr = { .path = path, .warn = warn, .arg = arg };
    int rc = load_file(c, &fr, required, err, errlen);
    for (int i = 0; given && i < CONFIG_MAX_KEYS; i++)
        given[i] = fr.first[i] != 0;
    return rc;
}

int config_load_file_key(config_t *c, const char *path, int required,
                         const char *key, char *err, size_t errlen)
{
    file_read_t fr = { .path = path, .only = key };
    return load_file(c, &fr, required, err, errlen);
}

