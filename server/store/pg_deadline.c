/* pg_deadline.c - libpq waits with a deadline (pg_deadline.h). */
#include "pg_deadline.h"

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "log.h"

PGconn *pgd_connect(const char *url, const char *app)
{
    char stmt[64], tcp[16];
    snprintf(stmt, sizeof stmt, "-c statement_timeout=%d", PGD_STATEMENT_MS);
    snprintf(tcp, sizeof tcp, "%d", PGD_TCP_USER_MS);
    /* the URL's own settings, coming last, win over these */
    const char *const kw[] = { "connect_timeout", "application_name",
                               "options", "keepalives", "keepalives_idle",
                               "keepalives_interval", "keepalives_count",
                               "tcp_user_timeout", "dbname", NULL };
    const char *const val[] = { "5", app, stmt, "1", "5", "2", "3", tcp, url,
                                NULL };
    return PQconnectdbParams(kw, val, 1);
}

int pgd_answer_ms(PGconn *c)
{
    long ms = PGD_TCP_USER_MS;
    PQconninfoOption *o = c ? PQconninfo(c) : NULL;
    for (PQconninfoOption *p = o; p && p->keyword; p++)
        if (strcmp(p->keyword, "tcp_user_timeout") == 0 && p->val &&
            *p->val) {
            long v = strtol(p->val, NULL, 10);
            if (v > 0 && v < 3600000)
                ms = v;
        }
    PQconninfoFree(o);
    return (int)ms + PGD_SLACK_MS;
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int pgd_await(PGconn *c, int ms)
{
    if (!c || PQstatus(c) != CONNECTION_OK)
        return 0; /* libpq answers at once */
    int64_t end = now_ms() + ms;
    while (PQisBusy(c)) {
        int fd = PQsocket(c);
        if (fd < 0)
            return 0;
        int64_t left = end - now_ms();
        if (left <= 0) {
            /* libpq then sees the connection end: its callers' path for
             * a lost connection (reconnect at the next batch) */
            log_error("postgresql: no answer within %d ms: the connection "
                      "is given up", ms);
            shutdown(fd, SHUT_RDWR);
            PQconsumeInput(c);
            return -1;
        }
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r = poll(&p, 1, (int)left);
        if (r < 0)
            continue; /* EINTR */
        if (r > 0 && !PQconsumeInput(c))
            return 0; /* lost: PQgetResult says so */
    }
    return 0;
}

PGresult *pgd_get_result(PGconn *c, int ms)
{
    pgd_await(c, ms);
    return PQgetResult(c);
}

/* Every result of the query sent; the last one kept. */
static PGresult *last_result(PGconn *c, int ms)
{
    PGresult *last = NULL, *r;
    while ((r = pgd_get_result(c, ms)) != NULL) {
        PQclear(last);
        last = r;
        if (PQstatus(c) != CONNECTION_OK)
            break;
    }
    return last;
}

PGresult *pgd_exec(PGconn *c, int ms, const char *sql)
{
    if (!PQsendQuery(c, sql))
        return NULL;
    return last_result(c, ms);
}

PGresult *pgd_exec_prepared(PGconn *c, int ms, const char *name, int n,
                            const char *const *v, const int *len,
                            const int *fmt)
{
    if (!PQsendQueryPrepared(c, name, n, v, len, fmt, 0))
        return NULL;
    return last_result(c, ms);
}

PGresult *pgd_prepare(PGconn *c, int ms, const char *name, const char *sql)
{
    if (!PQsendPrepare(c, name, sql, 0, NULL))
        return NULL;
    return last_result(c, ms);
}

PGresult *pgd_exec_params(PGconn *c, int ms, const char *sql, int n,
                          const char *const *v, int binary)
{
    if (!PQsendQueryParams(c, sql, n, NULL, v, NULL, NULL, binary))
        return NULL;
    return last_result(c, ms);
}

const char *pgd_one_line(char *out, size_t len, const char *msg)
{
    snprintf(out, len, "%s", msg && *msg ? msg : "unknown error");
    size_t n = strlen(out);
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
        out[--n] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return out;
}
