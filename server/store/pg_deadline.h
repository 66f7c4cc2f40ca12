/* pg_deadline.h - a libpq connection that cannot hang its thread: the
 * settings every rogued connection to PostgreSQL is made with, and waits
 * for an answer that give the connection up at a deadline.
 *
 * PostgreSQL's own timeouts (statement_timeout, and the kernel's TCP user
 * timeout and keepalives) end a statement or a connection the database
 * can still act on. A database that hangs outright (a stopped process, a
 * machine that froze but whose kernel still answers) ends neither: libpq's
 * blocking calls would wait for ever. So every wait here also has a
 * deadline of its own; past it the connection's socket is shut down, which
 * libpq sees as a lost connection (CONNECTION_BAD, an error result), and
 * the caller's usual path for a lost connection takes over
 * (docs/hosting.md, "PostgreSQL instead of the SQLite file"). */
#ifndef ROGUE_PG_DEADLINE_H
#define ROGUE_PG_DEADLINE_H

#include <libpq-fe.h>
#include <stddef.h>

/* The defaults every connection gets (the URL's own parameters win):
 * statement_timeout 10 s, tcp_user_timeout 10 s, keepalives after 5 s
 * idle, every 2 s, 3 probes; connect_timeout 5 s. */
#define PGD_STATEMENT_MS 10000
#define PGD_TCP_USER_MS 10000
#define PGD_SLACK_MS 2000   /* the server's own timeout should come first */

/* PQconnectdbParams with the defaults above and application_name app. */
PGconn *pgd_connect(const char *url, const char *app);

/* How long a wait for an answer may last on c: its tcp_user_timeout (the
 * URL's, or the default) plus PGD_SLACK_MS. */
int pgd_answer_ms(PGconn *c);

/* Waits until a result can be read without blocking, at most ms. Returns
 * 0, or -1: the deadline passed and the connection was given up (its
 * socket shut down; the next libpq call reports the connection lost). */
int pgd_await(PGconn *c, int ms);

/* PQgetResult after pgd_await: NULL at the end of a query's results, or
 * once the connection is given up. */
PGresult *pgd_get_result(PGconn *c, int ms);

/* PQexec and PQexecPrepared with the deadline: the last result (the
 * caller clears it), or NULL (the connection is lost). */
PGresult *pgd_exec(PGconn *c, int ms, const char *sql);
PGresult *pgd_exec_prepared(PGconn *c, int ms, const char *name, int n,
                            const char *const *v, const int *len,
                            const int *fmt);
PGresult *pgd_prepare(PGconn *c, int ms, const char *name, const char *sql);

/* PQexecParams (text parameters; binary: the results in binary) with the
 * deadline: the last result, or NULL (the connection is lost). */
PGresult *pgd_exec_params(PGconn *c, int ms, const char *sql, int n,
                          const char *const *v, int binary);

/* libpq's message msg as one log line into out (len bytes): its trailing
 * newline and spaces cut, the newlines inside (a DETAIL, a HINT) made
 * spaces; "unknown error" for NULL or "". Returns out. */
const char *pgd_one_line(char *out, size_t len, const char *msg);

#endif
