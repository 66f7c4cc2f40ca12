/* upgrade_new.c - the new process's side of a binary upgrade (upgrade.h):
 * say ready, take the listeners and sessions, give each session to a
 * worker loop, say taken. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "game.h"
#include "inbox.h"
#include "le_bytes.h"
#include "log.h"
#include "msg.h"
#include "upgrade.h"
#include "upgrade_wire.h"

/* How long the old process may take to hand everything over. */
#define UPGRADE_RECEIVE_MS 120000

/* Test hooks (docs/testing.md, "Upgrade test hooks"), read here only: the
 * GAME_VERSION this process says it has when ready, and a number of
 * sessions after which it exits mid-handover. 0 when unset. */
#define UPGRADE_TEST_VERSION_ENV "ROGUED_UPGRADE_TEST_VERSION"
#define UPGRADE_TEST_EXIT_ENV "ROGUED_UPGRADE_TEST_EXIT_AFTER"

static unsigned long test_hook(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtoul(v, NULL, 10) : 0;
}

void upgrade_in_free(upgrade_in_t *in)
{
    for (int i = 0; i < in->n; i++) {
        if (in->items[i].fd >= 0)
            close(in->items[i].fd);
        buf_free(&in->items[i].blob);
    }
    free(in->items);
    in->items = NULL;
    in->n = in->cap = 0;
    if (in->sock >= 0)
        close(in->sock);
    in->sock = -1;
}

static int keep_session(upgrade_in_t *in, int fd, buf_t *blob)
{
    if (in->n == in->cap) {
        int cap = in->cap ? in->cap * 2 : 64;
        struct upgrade_item *p = realloc(in->items, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        in->items = p;
        in->cap = cap;
    }
    in->items[in->n++] = (struct upgrade_item){ fd, *blob };
    buf_init(blob, UPW_RECORD_MAX); /* moved */
    return 0;
}

/* One record of the handover: 1 for more, 0 at its end, -1 an error. */
static int take(upgrade_in_t *in, buf_t *b)
{
    int fd;
    int type = upw_recv(in->sock, b, UPW_RECORD_MAX, &fd);
    if (type == UPW_LISTENER && b->len == 1 &&
        (uint8_t)b->data[0] < UPGRADE_LISTENERS &&
        fd >= 0 && in->listen_fd[(uint8_t)b->data[0]] < 0) {
        in->listen_fd[(uint8_t)b->data[0]] = fd;
        return 1;
    }
    if (type == UPW_LISTENER && b->len == 1 &&
        (uint8_t)b->data[0] >= UPGRADE_LISTENERS) {
        /* a kind a later binary hands over: not ours to listen on (this
         * binary binds what its configuration asks for itself) */
        if (fd >= 0)
            close(fd);
        log_info("upgrade: listener kind %u is not known here: closed",
                 (unsigned)(uint8_t)b->data[0]);
        return 1;
    }
    if (type == UPW_SESSION && fd >= 0) {
        if (keep_session(in, fd, b) == 0)
            return 1;
        close(fd);
        log_error("upgrade: out of memory for the sessions handed over");
        return -1;
    }
    if (type == UPW_END && b->len == 8 && fd < 0) {
        in->next_id = le_get((const uint8_t *)b->data, 8);
        return 0;
    }
    if (fd >= 0)
        close(fd);
    log_error("upgrade: the old process's handover broke off (%s)",
              type < 0 ? (errno ? strerror(errno) : "closed")
                       : "a record out of place");
    return -1;
}

int upgrade_receive(int fd, upgrade_in_t *in)
{
    memset(in, 0, sizeof *in);
    in->sock = fd;
    for (int k = 0; k < UPGRADE_LISTENERS; k++)
        in->listen_fd[k] = -1;
    upw_timeouts(fd, UPGRADE_RECEIVE_MS);
    /* ready: our pid and our core's version (a game of another version
     * does not move: it ends recorded in the old process) */
    uint32_t pid = (uint32_t)getpid(), v = GAME_VERSION;
    if (test_hook(UPGRADE_TEST_VERSION_ENV))
        v = (uint32_t)test_hook(UPGRADE_TEST_VERSION_ENV);
    unsigned long exit_after = test_hook(UPGRADE_TEST_EXIT_ENV);
    uint8_t ready[8];
    le_put(ready, pid, 4);
    le_put(ready + 4, v, 4);
    if (upw_send(fd, UPW_READY, ready, sizeof ready, -1) != 0) {
        log_error("upgrade: cannot reach the old process: %s", strerror(errno));
        upgrade_in_free(in);
        return -1;
    }
    buf_t b;
    buf_init(&b, UPW_RECORD_MAX);
    int rc;
    while ((rc = take(in, &b)) == 1) {
        if (exit_after > 0 && (unsigned long)in->n >= exit_after) {
            log_error("upgrade: test hook: exiting after %d sessions taken", in->n);
            _exit(70);
        }
    }
    buf_free(&b);
    if (rc != 0 || in->listen_fd[0] < 0) {
        for (int k = 0; k < UPGRADE_LISTENERS; k++)
            if (in->listen_fd[k] >= 0)
                close(in->listen_fd[k]);
        upgrade_in_free(in);
        return -1;
    }
    return 0;
}

void upgrade_dispatch(host_t *h, upgrade_in_t *in)
{
    int given = 0;
    for (int i = 0; i < in->n; i++) {
        int w = i % h->sh.nworkers;
        msg_accept_t acc = { .kind = ACCEPT_UPGRADE };
        acc.blob = (uint8_t *)in->items[i].blob.data;
        acc.blob_len = in->items[i].blob.len;
        /* the blob is the message's (freed with it, sent or not) */
        memset(&in->items[i].blob, 0, sizeof in->items[i].blob);
        atomic_fetch_add(&h->sh.load[w], 1);
        if (srv_send_connection(&h->workers[w], in->items[i].fd, &acc) != 0) {
            atomic_fetch_sub(&h->sh.load[w], 1);
            continue; /* the socket is closed with the rest below */
        }
        in->items[i].fd = -1; /* the message's now */
        given++;
    }
    /* after every session's message, in each loop's inbox: a loop that
     * reads it has taken its own (sess_upgrade_settled) */
    for (int w = 0; w < h->sh.nworkers; w++) {
        smsg_t *m = msg_new(MSG_UPGRADE_SETTLED, 0, 0, NULL);
        if (!m || inbox_post(h->sh.inbox[w], m) != 0) {
            msg_free(m);
            log_error("upgrade: loop %d not told its sessions are all sent",
                      w);
        }
    }
    int pid = (int)getpid();
    if (upw_send(in->sock, UPW_TAKEN, &pid, sizeof pid, -1) != 0)
        log_error("upgrade: cannot tell the old process: %s", strerror(errno));
    log_info("upgraded: serving as pid %d with %d session%s taken over",
             pid, given, given == 1 ? "" : "s");
    upgrade_in_free(in);
}
