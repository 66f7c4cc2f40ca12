/* ssh_conn.c - one SSH connection on a bridge thread (ssh_conn.h). */
#define _GNU_SOURCE /* POLLRDHUP */
#include "ssh_conn.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ban_list.h"
#include "log.h"
#include "refusals.h"
#include "ssh_link.h"
#include "ssh_play.h"
#include "sshkey.h"

/* Keys typed before the hand-over, at most (then the connection ends). */
#define SSH_EARLY_KEYS_MAX (64 * 1024)

uint64_t ssh_mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* A record (ssh_link.h) for the session's first read, kept until the
 * hand-over. */
static void keep_record(ssh_conn_t *c, char type, const void *data, size_t n)
{
    char rec[3 + SSH_LINK_DATA_MAX];
    size_t len = ssh_link_record(rec, type, data, n);
    if (ssh_pend_add(&c->early, rec, len, SSH_EARLY_KEYS_MAX) != 0) {
        log_info("ssh %s: too many keys before the game: closed", c->addr);
        c->closed = 1;
    }
}

/* --- the guard (ssh_guard.h) ------------------------------------------------ */

static void uncount(ssh_conn_t *c)
{
    if (!c->counted)
        return;
    c->counted = 0;
    sshg_leave(&c->b->guard, c->ip);
}

/* A denied key: the address's and the name's failures counted; the wait
 * they earned is this connection's: nothing more of it is read until
 * then (ssh_conn_service takes it out of the poll), and it keeps its
 * place in the address's count of connections not in. */
static void slow_down(ssh_conn_t *c, const char *user)
{
    uint64_t now = ssh_mono_ms();
    int ms = sshg_failed(&c->b->guard, c->ip, user, now);
    if (ms <= 0)
        return;
    log_info("ssh %s: failed key tries for %s: the next answer waits %d ms",
             c->addr, user, ms);
    c->paused_until_ms = now + (uint64_t)ms;
    ssh_conn_touch(c);
}

/* A key that cannot be looked up is refused as any other ("Permission
 * denied (publickey)"), which reads as a wrong key. The client shows an
 * authentication banner (RFC 4252: allowed until the login succeeds), so
 * the player reads why, once a connection. */
static void tell_store_away(ssh_conn_t *c)
{
    static const char words[] =
        "The server's store is not answering, so SSH keys cannot be checked "
        "now: please try again in a minute. (The user play is a guest.)\r\n";
    if (c->told_store_away)
        return;
    c->told_store_away = 1;
    ssh_string banner = ssh_string_from_char(words);
    if (banner)
        ssh_send_issue_banner(c->session, banner);
    ssh_string_free(banner);
}

/* A banned address (ctl ban) logs in as nobody, the guest user too, and
 * costs no lookup of a key; it reads why in an authentication banner
 * (once a connection), as a telnet player reads it at admission. 1: it
 * is banned. */
static int banned(ssh_conn_t *c)
{
    int64_t until;
    if (!c->b->store ||
        !store_banned_addr(c->b->store, c->ip, ban_now_ms(), &until))
        return 0;
    if (!c->told_banned) {
        c->told_banned = 1;
        char line[160];
        ban_say(line, sizeof line - 2, "This address", until);
        strcat(line, "\r\n");
        ssh_string banner = ssh_string_from_char(line);
        if (banner)
            ssh_send_issue_banner(c->session, banner);
        ssh_string_free(banner);
        if (refusal_count(REFUSE_BANNED))
            log_info("refused %s: a banned address (SSH)", c->addr);
    }
    return 1;
}

/* --- libssh's callbacks ------------------------------------------------------ */

static int auth_none(ssh_session s, const char *user, void *userdata)
{
    ssh_conn_t *c = userdata;
    if (banned(c)) {
        ssh_set_auth_methods(s, SSH_AUTH_METHOD_PUBLICKEY);
        return SSH_AUTH_DENIED;
    }
    if (user && strcmp(user, SSH_GUEST_USER) == 0) {
        c->authed = 1; /* a guest, as with telnet */
        uncount(c);
        return SSH_AUTH_SUCCESS;
    }
    ssh_set_auth_methods(s, SSH_AUTH_METHOD_PUBLICKEY); /* its keys only */
    return SSH_AUTH_DENIED;
}

/* Whether `key`, offered for user, is one the account registered: the
 * store's lookup by name and fingerprint, and the key itself compared.
 * Fills c->found_* when it is. */
static int key_registered(ssh_conn_t *c, const char *user, ssh_key key)
{
    char fp[STORE_KEY_FP_MAX + 1], text[STORE_KEY_TEXT_MAX + 1];
    if (sshkey_fingerprint(key, fp, sizeof fp) != 0)
        return 0;
    if (c->found_id > 0 && strcmp(fp, c->found_fp) == 0 &&
        strcasecmp(user, c->found_name) == 0)
        return 1; /* the probe's answer: the same key and name, now signed */
    if (++c->key_tries > SSH_KEY_TRIES) {
        log_info("refused %s: more than %d SSH keys offered for %s", c->addr,
                 SSH_KEY_TRIES, user);
        return 0;
    }
    store_account_t a;
    uint64_t now = ssh_mono_ms();
    int st = now < atomic_load(&c->b->store_away_until)
             ? STORE_ERROR
             : store_key_account(c->b->store, user, fp, SSH_KEY_LOOKUP_MS, &a,
                                 text, sizeof text);
    if (st == STORE_ERROR) {
        if (now >= atomic_load(&c->b->store_away_until))
            atomic_store(&c->b->store_away_until,
                         ssh_mono_ms() + SSH_STORE_AWAY_MS);
        log_error("ssh %s: the key %s for %s cannot be looked up (the store "
                  "is not answering): refused", c->addr, fp, user);
        tell_store_away(c);
        return 0;
    }
    if (st != STORE_OK) {
        /* a `refused` line, as every turned-away connection's is */
        log_info("refused %s: the SSH key %s is not registered for %s",
                 c->addr, fp, user);
        return 0;
    }
    const char *sp = strchr(text, ' ');
    ssh_key kept = NULL;
    int same = sp && ssh_pki_import_pubkey_base64(sp + 1, ssh_key_type(key),
                                                  &kept) == SSH_OK &&
               ssh_key_cmp(kept, key, SSH_KEY_CMP_PUBLIC) == 0;
    ssh_key_free(kept);
    if (!same) {
        log_error("ssh %s: the key %s of %s differs from the one kept under "
                  "its fingerprint: refused", c->addr, fp, a.name);
        return 0;
    }
    snprintf(c->found_fp, sizeof c->found_fp, "%s", fp);
    c->found_id = a.id;
    snprintf(c->found_name, sizeof c->found_name, "%s", a.name);
    c->found_display = a.display;
    return 1;
}

static int auth_pubkey(ssh_session s, const char *user,
                       struct ssh_key_struct *key, char signature_state,
                       void *userdata)
{
    ssh_conn_t *c = userdata;
    if (user && strcmp(user, SSH_GUEST_USER) != 0)
        ssh_set_auth_methods(s, SSH_AUTH_METHOD_PUBLICKEY);
    if (!user || strcmp(user, SSH_GUEST_USER) == 0 ||
        !acct_name_valid(user, NULL, 0) || !c->b->store ||
        atomic_load(&c->b->stopping) || banned(c))
        return SSH_AUTH_DENIED;
    if (signature_state != SSH_PUBLICKEY_STATE_NONE &&
        signature_state != SSH_PUBLICKEY_STATE_VALID)
        return SSH_AUTH_DENIED; /* a signature that does not verify */
    if (!key_registered(c, user, key)) {
        slow_down(c, user);
        return SSH_AUTH_DENIED;
    }
    if (signature_state == SSH_PUBLICKEY_STATE_NONE)
        return SSH_AUTH_SUCCESS; /* a probe: this key would do */
    c->account_id = c->found_id;
    snprintf(c->account, sizeof c->account, "%s", c->found_name);
    c->authed = 1;
    uncount(c);
    sshg_succeeded(&c->b->guard, c->ip);
    log_info("ssh %s: %s logged in by the key %s", c->addr, c->account,
             c->found_fp);
    return SSH_AUTH_SUCCESS;
}

static int on_pty(ssh_session s, ssh_channel ch, const char *term, int w,
                  int h, int pw, int ph, void *userdata)
{
    ssh_conn_t *c = userdata;
    (void)s, (void)ch, (void)pw, (void)ph;
    snprintf(c->term, sizeof c->term, "%s", term ? term : "");
    c->pty = 1;
    c->cols = w;
    c->rows = h; /* sent with the hand-over */
    return SSH_OK;
}

/* "SendEnv LANG" or "-o SetEnv=LANG=C.UTF-8": the locale and COLORTERM
 * are kept for the game (printable ASCII, cut); the rest is ignored but
 * accepted (a refusal makes nothing better for the player). */
static int on_env(ssh_session s, ssh_channel ch, const char *name,
                  const char *value, void *userdata)
{
    static const char *const wanted[SSH_ENV_VARS] = { "LANG", "LC_ALL",
                                                      "LC_CTYPE", "COLORTERM" };
    ssh_conn_t *c = userdata;
    (void)s, (void)ch;
    for (int i = 0; name && value && i < SSH_ENV_VARS; i++) {
        if (strcmp(name, wanted[i]) != 0)
            continue;
        size_t n = (size_t)snprintf(c->env[i], SSH_ENV_MAX, "%s=", name);
        for (const char *v = value; *v && n + 1 < SSH_ENV_MAX; v++)
            if (*v > ' ' && *v < 127)
                c->env[i][n++] = *v;
        c->env[i][n] = '\0';
    }
    return SSH_OK;
}

static int on_window(ssh_session s, ssh_channel ch, int w, int h, int pw,
                     int ph, void *userdata)
{
    ssh_conn_t *c = userdata;
    (void)s, (void)ch, (void)pw, (void)ph;
    c->cols = w;
    c->rows = h;
    return SSH_OK;
}

/* The shell: the player is in (a channel comes only after authentication).
 * The hand-over waits until the poll has returned (ssh_conn_service):
 * the session leaves this thread's event, which libssh is walking now;
 * keys sent in the same packets as this request are kept for it. */
static int on_shell(ssh_session s, ssh_channel ch, void *userdata)
{
    ssh_conn_t *c = userdata;
    (void)s, (void)ch;
    if (c->shell)
        return SSH_ERROR; /* one shell a connection */
    if (!c->authed || atomic_load(&c->b->stopping)) {
        c->closed = 1;
        ssh_conn_touch(c);
        return SSH_ERROR;
    }
    c->shell = 1;
    ssh_conn_touch(c);
    return SSH_OK;
}

static int on_data(ssh_session s, ssh_channel ch, void *data, uint32_t len,
                   int is_stderr, void *userdata)
{
    ssh_conn_t *c = userdata;
    (void)s, (void)ch, (void)is_stderr;
    const char *p = data;
    for (uint32_t at = 0; at < len && !c->closed; at += SSH_LINK_DATA_MAX) {
        uint32_t k = len - at < SSH_LINK_DATA_MAX ? len - at : SSH_LINK_DATA_MAX;
        keep_record(c, 'D', p + at, k); /* the player's keys, as typed */
    }
    if (c->closed)
        ssh_conn_touch(c);
    return (int)len;
}

/* The client's end: before the shell, the connection's; after it (in
 * the same packets), the session's, which still starts and then ends. */
static void on_eof(ssh_session s, ssh_channel ch, void *userdata)
{
    ssh_conn_t *c = userdata;
    (void)s, (void)ch;
    c->eof = 1;
    if (!c->shell)
        c->closed = 1;
    ssh_conn_touch(c);
}

static ssh_channel on_channel_open(ssh_session s, void *userdata)
{
    ssh_conn_t *c = userdata;
    if (c->chan)
        return NULL; /* one session channel a connection */
    c->chan = ssh_channel_new(s);
    if (c->chan)
        ssh_set_channel_callbacks(c->chan, &c->ccb);
    return c->chan;
}

static void set_callbacks(ssh_conn_t *c)
{
    c->scb = (struct ssh_server_callbacks_struct){
        .userdata = c,
        .auth_none_function = auth_none,
        .auth_pubkey_function = auth_pubkey,
        .channel_open_request_session_function = on_channel_open,
    };
    ssh_callbacks_init(&c->scb);
    c->ccb = (struct ssh_channel_callbacks_struct){
        .userdata = c,
        .channel_data_function = on_data,
        .channel_eof_function = on_eof,
        .channel_close_function = on_eof,
        .channel_pty_request_function = on_pty,
        .channel_shell_request_function = on_shell,
        .channel_pty_window_change_function = on_window,
        .channel_env_request_function = on_env,
    };
    ssh_callbacks_init(&c->ccb);
}

/* --- the connection's life ------------------------------------------------- */

ssh_conn_t *ssh_conn_new(ssh_bridge_t *b, struct ssh_worker *w, ssh_event ev,
                         int fd, int worker, const char *addr, const char *ip,
                         uint64_t now_ms)
{
    ssh_conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->b = b;
    c->w = w;
    c->ev = ev;
    c->fd = fd;
    c->worker = worker;
    c->counted = 1;
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    snprintf(c->ip, sizeof c->ip, "%s", ip);
    c->deadline_ms = now_ms + (uint64_t)b->grace_ms;
    return c;
}

int ssh_conn_start(ssh_conn_t *c)
{
    ssh_bridge_t *b = c->b;
    c->session = ssh_new();
    if (!c->session)
        return -1;
    set_callbacks(c);
    pthread_mutex_lock(&b->mu); /* the bind's keys are shared */
    int rc = ssh_bind_accept_fd(b->bind, c->session, c->fd);
    pthread_mutex_unlock(&b->mu);
    if (rc != SSH_OK)
        return -1;
    /* keys and frames are small and each wanted at once, as telnet's
     * (the session sets the same on its sockets) */
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->fd = -1; /* the session's now */
    ssh_set_blocking(c->session, 0);
    ssh_set_auth_methods(c->session,
                         SSH_AUTH_METHOD_NONE | SSH_AUTH_METHOD_PUBLICKEY);
    ssh_set_server_callbacks(c->session, &c->scb);
    /* Non-blocking: the banner goes out, and the rest of the key exchange
     * runs in the thread's event as the client's packets come. */
    if (ssh_handle_key_exchange(c->session) == SSH_ERROR) {
        char safe[256];
        log_info("ssh %s: key exchange failed: %s", c->addr,
                 log_printable(ssh_get_error(c->session), safe, sizeof safe));
        return -1;
    }
    uint64_t now = ssh_mono_ms();
    int owed = sshg_owed(&b->guard, c->ip, now);
    if (owed > 0) {
        /* out of the event until then (follow_pause puts it in) */
        log_info("ssh %s: waits out its address's failed key tries: "
                 "nothing read for %d ms", c->addr, owed);
        c->paused_until_ms = now + (uint64_t)owed;
        ssh_conn_touch(c);
        return 0;
    }
    if (ssh_event_add_session(c->ev, c->session) != SSH_OK)
        return -1;
    c->in_event = 1;
    return 0;
}

/* 1 if the client has closed its side: looked at without reading, as
 * nothing of a paused connection is read. */
static int peer_gone(ssh_conn_t *c)
{
    struct pollfd p = { .fd = ssh_get_fd(c->session), .events = POLLRDHUP };
    return p.fd >= 0 && poll(&p, 1, 0) > 0 &&
           (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* A failed key's wait: out of the poll until it is over. A client that
 * leaves meanwhile ends it at once (at the next sweep): else its
 * connection, never read, sat in CLOSE-WAIT to the wait's end, holding
 * its place among the connections not in (a red-team run held 397 that
 * way and had honest players told the server was busy). 1: it left. */
static int follow_pause(ssh_conn_t *c, uint64_t now)
{
    if (!c->paused_until_ms)
        return 0;
    if (now < c->paused_until_ms) {
        if (c->in_event && ssh_event_remove_session(c->ev, c->session) == SSH_OK)
            c->in_event = 0;
        if (!c->in_event && peer_gone(c)) {
            /* its place free before it is said (a test, or an operator,
             * reading the line may count on it) */
            uncount(c);
            log_info("ssh %s: left during its wait after failed keys",
                     c->addr);
            return 1;
        }
        return 0;
    }
    c->paused_until_ms = 0;
    if (!c->in_event && ssh_event_add_session(c->ev, c->session) == SSH_OK)
        c->in_event = 1;
    return 0;
}

/* The records the session reads first (ssh_link.h): the terminal, the
 * locale, the size, 'G' (the lobby may start), then the keys kept. */
static int setup_records(ssh_conn_t *c, ssh_pend_t *out)
{
    char rec[3 + SSH_ENV_MAX + sizeof c->term];
    /* no terminal asked for: an empty name says so (ssh_link.c) */
    const char *term = !c->pty ? "" : c->term[0] ? c->term : "VT100";
    int rc = ssh_pend_add(out, rec, ssh_link_record(rec, 'T', term,
                                                    strlen(term)), 0);
    for (int i = 0; i < SSH_ENV_VARS; i++)
        if (c->env[i][0])
            rc |= ssh_pend_add(out, rec, ssh_link_record(rec, 'E', c->env[i],
                                                         strlen(c->env[i])), 0);
    if (c->cols > 0 && c->rows > 0)
        rc |= ssh_pend_add(out, rec, ssh_link_size(rec, c->cols, c->rows), 0);
    rc |= ssh_pend_add(out, rec, ssh_link_record(rec, 'G', NULL, 0), 0);
    if (c->early.len > 0)
        rc |= ssh_pend_add(out, c->early.data, c->early.len, 0);
    return rc;
}

/* The player is in: the libssh session leaves this thread's event and
 * goes, whole, to the worker that plays it (ssh_play.h), with the
 * player's address and, after a key login, the account. The hand
 * function takes it either way. */
static void hand_over(ssh_conn_t *c)
{
    ssh_bridge_t *b = c->b;
    ssh_pend_t setup = { 0 };
    if (c->in_event && ssh_event_remove_session(c->ev, c->session) == SSH_OK)
        c->in_event = 0;
    if (c->in_event || setup_records(c, &setup) != 0) {
        ssh_pend_free(&setup);
        return;
    }
    ssh_remove_channel_callbacks(c->chan, &c->ccb);
    ssh_play_t *p = ssh_play_new(c->session, c->chan, setup.data, setup.len,
                                 c->eof);
    ssh_pend_free(&setup);
    if (!p) {
        log_error("ssh %s: out of memory", c->addr);
        return;
    }
    c->session = NULL; /* the play's now */
    c->chan = NULL;
    char what[160];
    if (c->account_id > 0)
        snprintf(what, sizeof what, "ssh %s %lld %s %d", c->addr,
                 (long long)c->account_id, c->account, c->found_display);
    else
        snprintf(what, sizeof what, "ssh %s", c->addr);
    /* taken: the session gives the worker's count back when it ends;
     * refused: the host gave it back */
    if (!ssh_bridge_hand(b, c->worker, p, &ssh_play_io, what))
        ssh_play_io.drop(p);
    c->worker = -1;
}

int ssh_conn_service(ssh_conn_t *c, uint64_t now)
{
    if (!c->closed && !ssh_is_connected(c->session) && !c->authed) {
        /* a failed key exchange too; one over the cipher says which
         * setting the host may widen (docs/hosting.md, ssh_ciphers) */
        /* libssh's words may quote the client's (its banner, in
         * "banner: ..."): a stranger's bytes, made safe for the log as
         * any a client sends (escape sequences reached an operator's
         * terminal through tail -f: a host QA's find) */
        const char *why = ssh_get_error(c->session);
        char safe[256];
        log_info("ssh %s: closed before it was in: %s%s", c->addr,
                 log_printable(why, safe, sizeof safe),
                 strstr(why, "method encryption")
                     ? " (the client has none of ssh_ciphers)" : "");
    }
    if (c->authed && !c->shell && !atomic_load(&c->b->stopping) &&
        (c->eof || !ssh_is_connected(c->session)))
        /* in, then gone without a shell: a command (ssh play@host id),
         * sftp, a forwarding alone, or nothing asked at all; said, as a
         * connection that never got in is (a QA saw nothing logged) */
        log_info("ssh %s: closed after its login without a shell (a "
                 "command, sftp, a forwarding or nothing asked: only the "
                 "game is served)", c->addr);
    if (c->closed || atomic_load(&c->b->stopping) ||
        (!ssh_is_connected(c->session) && !c->shell))
        return 1; /* (a session that saw no frame needs no goodbye) */
    if (c->authed && c->shell) {
        hand_over(c);
        return 1; /* this thread is done with it, handed or not */
    }
    if (now >= c->deadline_ms) {
        log_info("ssh %s: not in within %d ms: closed", c->addr,
                 c->b->grace_ms);
        return 1;
    }
    return follow_pause(c, now);
}

/* A connection that ended before it was handed: the worker's count of it
 * goes back (unless the workers are gone). */
static void not_handed(ssh_conn_t *c)
{
    if (c->worker < 0)
        return;
    char what[96];
    snprintf(what, sizeof what, "ssh %s", c->addr);
    ssh_bridge_hand(c->b, c->worker, NULL, NULL, what);
    c->worker = -1;
}

void ssh_conn_free(ssh_conn_t *c)
{
    if (c->session) {
        if (c->in_event)
            ssh_event_remove_session(c->ev, c->session);
        ssh_disconnect(c->session);
        ssh_free(c->session); /* (frees the channel) */
    }
    if (c->fd >= 0)
        close(c->fd);
    not_handed(c);
    uncount(c);
    ssh_pend_free(&c->early);
    free(c);
}
