/* transport.h - what a session asks of the protocol its bytes come in, as
 * one table per transport (Redis's ConnectionType): telnet
 * (telnet_conn.c: telnet_transport), the browser's HTTP and WebSocket
 * (wsconn.c: ws_transport) and SSH's records from the player's libssh
 * session (ssh_link.c: ssh_transport). A transport has no libuv: bytes in (feed),
 * callbacks out (the module's own), on the session's socket; the session
 * holds the table and the connection and never asks which it is.
 * docs/architecture.md, "Transports". */
#ifndef ROGUE_TRANSPORT_H
#define ROGUE_TRANSPORT_H

#include <stddef.h>

typedef struct transport {
    const char *name;
    /* The client's bytes: 0, or -1 once the connection must end (error
     * says why; every later call returns -1 too). */
    int (*feed)(void *conn, const void *bytes, size_t n);
    /* The game's bytes for the client, in the transport's framing. */
    void (*send)(void *conn, const void *data, size_t n);
    /* What the session says first once admitted (telnet's options), or
     * NULL. */
    void (*start)(void *conn);
    /* 1 once the client's setup is in and the lobby may start (telnet's
     * answers, the browser's size). */
    int (*ready)(const void *conn);
    /* The last bytes of a goodbye (the browser's close frame), or NULL.
     * going_away: the server is shutting down, not done with this client
     * (the page reconnects by itself: docs/telnet.md, "The browser"). */
    void (*close)(void *conn, int going_away);
    /* Frees what the module allocated (conn itself only if the module
     * allocated it: ssh_link_new). */
    void (*free)(void *conn);
    /* Why feed failed. */
    const char *(*error)(const void *conn);
} transport_t;

#endif
