/* denied_hint.h - the words after a permission refused (EACCES, EPERM) on
 * a file in the data directory (the database, the console's socket), so
 * that it is never read as a missing database or server. A module of its
 * own: the SQLite backend and rogued ctl both say it, and neither should
 * depend on the settings. */
#ifndef ROGUE_DENIED_HINT_H
#define ROGUE_DENIED_HINT_H

#include <stddef.h>

/* "this user, uid N, may not open it or a directory on its path; run WHO
 * as AS_USER" into buf (n bytes): who is the command to run again
 * ("rogued", "rogued ctl"); as_user the user who may ("the user the data
 * directory belongs to" for the database; "the user the server runs as"
 * for the console's socket, which is that user's, 0600). Returns buf. */
const char *denied_hint(const char *who, const char *as_user, char *buf,
                        size_t n);

#endif
