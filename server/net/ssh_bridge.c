/* ssh_bridge.c - SSH in, telnet to the game (ssh_bridge.h). */
#include "ssh_bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>
#include <libtelnet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accounts.h"
#include "log.h"
#include "refusals.h"
#include "sshkey.h"
#include "store.h"

#define SSH_ENV_VARS 4  /* LANG, LC_ALL, LC_CTYPE, COLORTERM */
#define SSH_ENV_MAX 64   /* "NAME=value" and its NUL; the game keeps 47
                            bytes of a value (TCONN_ENV_MAX) */

/* One SSH player: its thread's state. */
typedef struct conn {
    ssh_bridge_t *b;
    int fd, game_fd;           /* game_fd: -1 until the player is in */
    int worker;                /* the loop it goes to (ssh_bridge_accept) */
    char addr[64];
    char ip[64];               /* addr without its port: the guard's key */
    int counted;               /* in the guard's count of not logged in */
    ssh_session session;
    ssh_channel chan;
    telnet_t *tn;
    struct ssh_server_callbacks_struct scb;
    struct ssh_channel_callbacks_struct ccb;
    int authed, shell, closed;
    int w, h;
    char term[40];
    /* the client's environment requests we pass on (LANG, LC_ALL,
     * LC_CTYPE, COLORTERM): "NAME=value" each, printable ASCII, cut */
    char env[SSH_ENV_VARS][SSH_ENV_MAX];
    int naws_on;
    int game_ready;            /* the game's socket has bytes (on_game) */
    int key_tries;             /* keys looked up (SSH_KEY_TRIES) */
    /* a key login: the account (0: a guest), and the key last found for
     * it (a probe's answer, reused by the signed request that follows) */
    int64_t account_id;
    char account[ACCT_NAME_MAX + 1];
    char found_fp[STORE_KEY_FP_MAX + 1];
    int64_t found_id;
    char found_name[ACCT_NAME_MAX + 1];
    int found_display;                  /* the account's display choice */
} conn_t;

/* As a telnet client answers the game's options (the tests' client and
 * inetutils telnet do the same): ECHO and SGA from the server, NAWS and
 * TTYPE from us; NEW-ENVIRON from us when the SSH client sent a locale
 * (docs/telnet.md, "NEW-ENVIRON"): the game learns UTF-8 as it does from a
 * telnet client. */
static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_SGA, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_TTYPE, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_NEW_ENVIRON, TELNET_WILL, TELNET_DONT },
    { -1, 0, 0 }
};

/* Writes all of it to the game's socket (a local socketpair: it drains
 * at once unless the loop is stalled; bounded by a deadline). */
static void game_write(conn_t *c, const char *p, size_t n)
{
    time_t deadline = time(NULL) + 10;
    if (c->game_fd < 0)
        return; /* keys before the shell: there is no game yet */
    while (n > 0 && !c->closed) {
        ssize_t k = write(c->game_fd, p, n);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
        } else if (k < 0 && (errno == EAGAIN || errno == EINTR)) {
            struct pollfd pfd = { c->game_fd, POLLOUT, 0 };
            if (time(NULL) > deadline || poll(&pfd, 1, 1000) < 0)
                c->closed = 1;
        } else {
            c->closed = 1;
        }
    }
}

static void send_naws(conn_t *c)
{
    if (!c->naws_on || c->w <= 0 || c->h <= 0)
        return;
    unsigned char sz[4] = { (unsigned char)(c->w >> 8), (unsigned char)c->w,
                            (unsigned char)(c->h >> 8), (unsigned char)c->h };
    telnet_begin_sb(c->tn, TELNET_TELOPT_NAWS);
    telnet_send(c->tn, (const char *)sz, 4);
    telnet_finish_sb(c->tn);
}

/* The environment requests kept, as NEW-ENVIRON's answer to the game's
 * SEND (RFC 1572): IS, then USERVAR name VALUE value for each. Names and
 * values are printable ASCII (env_keep), so nothing needs ESC. */
static void send_environ(conn_t *c)
{
    char out[1 + SSH_ENV_VARS * (SSH_ENV_MAX + 2)];
    size_t n = 0;
    out[n++] = 0; /* IS */
    for (int i = 0; i < SSH_ENV_VARS; i++) {
        const char *eq = strchr(c->env[i], '=');
        if (!eq)
            continue;
        out[n++] = 3; /* USERVAR */
        memcpy(out + n, c->env[i], (size_t)(eq - c->env[i]));
        n += (size_t)(eq - c->env[i]);
        out[n++] = 1; /* VALUE */
        memcpy(out + n, eq + 1, strlen(eq + 1));
        n += strlen(eq + 1);
    }
    telnet_subnegotiation(c->tn, TELNET_TELOPT_NEW_ENVIRON, out, n);
}

static int has_env(const conn_t *c)
{
    for (int i = 0; i < SSH_ENV_VARS; i++)
        if (c->env[i][0])
            return 1;
    return 0;
}

static void on_telnet(telnet_t *t, telnet_event_t *ev, void *user)
{
    conn_t *c = user;
    (void)t;
    switch (ev->type) {
    case TELNET_EV_DATA: /* the game's screen, to the player */
        if (c->chan && !c->closed &&
            ssh_channel_write(c->chan, ev->data.buffer,
                              (uint32_t)ev->data.size) == SSH_ERROR)
            c->closed = 1;
        break;
    case TELNET_EV_SEND:
        game_write(c, ev->data.buffer, ev->data.size);
        break;
    case TELNET_EV_DO:
        if (ev->neg.telopt == TELNET_TELOPT_NAWS) {
            c->naws_on = 1;
            send_naws(c);
        }
        break;
    case TELNET_EV_TTYPE:
        if (ev->ttype.cmd == TELNET_TTYPE_SEND)
            telnet_ttype_is(c->tn, c->term[0] ? c->term : "VT100");
        break;
    case TELNET_EV_SUBNEGOTIATION: /* the game's SEND: our variables */
        if (ev->sub.telopt == TELNET_TELOPT_NEW_ENVIRON && ev->sub.size > 0 &&
            ev->sub.buffer[0] == 1)
            send_environ(c);
        break;
    default:
        break; /* frame markers and the rest: nothing for the player */
    }
}

/* --- before login (ssh_guard.h) -------------------------------------------- */

static uint64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Logged in (or gone): no longer counted against the address. */
static void uncount(conn_t *c)
{
    if (!c->counted)
        return;
    c->counted = 0;
    sshg_leave(&c->b->guard, c->ip);
}

/* A denied key: the address's and the name's failures counted, and the
 * wait they have earned spent here, in this connection's thread (so an
 * address holds at most its cap of such waits). */
static void slow_down(conn_t *c, const char *user)
{
    int ms = sshg_failed(&c->b->guard, c->ip, user, mono_ms());
    if (ms <= 0)
        return;
    log_info("ssh %s: failed key tries for %s: the next answer waits %d ms",
             c->addr, user, ms);
    uint64_t end = mono_ms() + (uint64_t)ms;
    while (!atomic_load(&c->b->stopping) && mono_ms() < end) {
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
    }
}

/* --- libssh's callbacks --------------------------------------------------- */

static int auth_none(ssh_session s, const char *user, void *userdata)
{
    conn_t *c = userdata;
    if (user && strcmp(user, SSH_GUEST_USER) == 0) {
        c->authed = 1; /* a guest, as with telnet */
        uncount(c);
        return SSH_AUTH_SUCCESS;
    }
    /* an account's name: its keys only */
    ssh_set_auth_methods(s, SSH_AUTH_METHOD_PUBLICKEY);
    return SSH_AUTH_DENIED;
}

/* Whether `key`, offered for user, is one the account registered: the
 * store's lookup by name and fingerprint (and the key itself compared).
 * Fills c->found_* when it is. */
static int key_registered(conn_t *c, const char *user, ssh_key key)
{
    char fp[STORE_KEY_FP_MAX + 1], text[STORE_KEY_TEXT_MAX + 1];
    if (sshkey_fingerprint(key, fp, sizeof fp) != 0)
        return 0;
    if (c->found_id > 0 && strcmp(fp, c->found_fp) == 0 &&
        strcasecmp(user, c->found_name) == 0)
        return 1; /* the probe's answer: the same key and name, now signed */
    if (++c->key_tries > SSH_KEY_TRIES) {
        log_info("ssh %s: more than %d keys offered for %s: refused", c->addr,
                 SSH_KEY_TRIES, user);
        return 0;
    }
    store_account_t a;
    int st = store_key_account(c->b->store, user, fp, SSH_KEY_LOOKUP_MS, &a,
                               text, sizeof text);
    if (st == STORE_ERROR) {
        log_error("ssh %s: the key %s for %s cannot be looked up (the store "
                  "is not answering): refused", c->addr, fp, user);
        return 0;
    }
    if (st != STORE_OK) {
        log_info("ssh %s: the key %s is not registered for %s: refused",
                 c->addr, fp, user);
        return 0;
    }
    /* the fingerprint found it; the key itself must be the one kept */
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

static int auth_pubkey(ssh_session s, const char *user, struct ssh_key_struct *key,
                       char signature_state, void *userdata)
{
    conn_t *c = userdata;
    if (user && strcmp(user, SSH_GUEST_USER) != 0)
        ssh_set_auth_methods(s, SSH_AUTH_METHOD_PUBLICKEY); /* its keys only */
    if (!user || strcmp(user, SSH_GUEST_USER) == 0 ||
        !acct_name_valid(user, NULL, 0) || !c->b->store ||
        atomic_load(&c->b->stopping))
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
    /* signed with it, and libssh checked the signature: in */
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
    conn_t *c = userdata;
    (void)s;
    (void)ch;
    (void)pw;
    (void)ph;
    snprintf(c->term, sizeof c->term, "%s", term ? term : "");
    c->w = w;
    c->h = h;
    send_naws(c); /* if the game asked already */
    return SSH_OK;
}

/* An environment request ("SendEnv LANG" or "-o SetEnv=LANG=C.UTF-8"):
 * the locale and COLORTERM are kept for the game; the rest ignored, but
 * accepted (a refusal makes nothing better for the player). */
static int on_env(ssh_session s, ssh_channel ch, const char *name,
                  const char *value, void *userdata)
{
    static const char *const wanted[SSH_ENV_VARS] = { "LANG", "LC_ALL",
                                                      "LC_CTYPE", "COLORTERM" };
    conn_t *c = userdata;
    (void)s;
    (void)ch;
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
    conn_t *c = userdata;
    (void)s;
    (void)ch;
    (void)pw;
    (void)ph;
    c->w = w;
    c->h = h;
    send_naws(c);
    return SSH_OK;
}

static int hand_over(conn_t *c);

/* The shell: the player is in (a channel comes only after authentication),
 * and the game's end goes to a worker now, so that keys sent in the same
 * packets as this request reach the game. */
static int on_shell(ssh_session s, ssh_channel ch, void *userdata)
{
    conn_t *c = userdata;
    (void)s;
    (void)ch;
    if (c->shell)
        return SSH_ERROR; /* one shell a connection */
    if (!c->authed || atomic_load(&c->b->stopping) || hand_over(c) != 0) {
        c->closed = 1;
        return SSH_ERROR;
    }
    c->shell = 1;
    if (has_env(c)) /* the game asks for them (SEND) when it sees this */
        telnet_negotiate(c->tn, TELNET_WILL, TELNET_TELOPT_NEW_ENVIRON);
    return SSH_OK;
}

static int on_data(ssh_session s, ssh_channel ch, void *data, uint32_t len,
                   int is_stderr, void *userdata)
{
    conn_t *c = userdata;
    (void)s;
    (void)ch;
    (void)is_stderr;
    telnet_send(c->tn, data, len); /* the player's keys, IAC doubled */
    return (int)len;
}

static void on_eof(ssh_session s, ssh_channel ch, void *userdata)
{
    (void)s;
    (void)ch;
    ((conn_t *)userdata)->closed = 1;
}

static ssh_channel on_channel_open(ssh_session s, void *userdata)
{
    conn_t *c = userdata;
    if (c->chan)
        return NULL; /* one session channel a connection */
    c->chan = ssh_channel_new(s);
    if (c->chan)
        ssh_set_channel_callbacks(c->chan, &c->ccb);
    return c->chan;
}

/* The game's socket is readable: noted only. Its bytes are relayed after
 * the poll returns (relay_game), never from inside libssh's poll, where a
 * blocking channel write would poll the session again from within. */
static int on_game(socket_t fd, int revents, void *userdata)
{
    conn_t *c = userdata;
    (void)fd;
    (void)revents;
    c->game_ready = 1;
    return 0;
}

/* The game's bytes: through libtelnet to the player, all that is there. */
static void relay_game(conn_t *c)
{
    char buf[16384];
    c->game_ready = 0;
    while (!c->closed) {
        ssize_t n = read(c->game_fd, buf, sizeof buf);
        if (n > 0) {
            telnet_recv(c->tn, buf, (size_t)n);
        } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
            c->closed = 1; /* the game closed the session (quit, shutdown) */
        } else {
            break;
        }
    }
}

/* Gives the game's end of a new socketpair to the worker, with the
 * player's address and, after a key login, the account. Returns 0, or -1
 * (no socketpair, or the worker is gone or stopping: the connection
 * ends). */
static int hand_over(conn_t *c)
{
    ssh_bridge_t *b = c->b;
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0) {
        log_error("ssh %s: socketpair: %s", c->addr, strerror(errno));
        return -1;
    }
    char what[160];
    if (c->account_id > 0)
        snprintf(what, sizeof what, "ssh %s %lld %s %d", c->addr,
                 (long long)c->account_id, c->account, c->found_display);
    else
        snprintf(what, sizeof what, "ssh %s", c->addr);
    pthread_mutex_lock(&b->hand_mu);
    int rc = !b->handing_stopped && b->hand ? b->hand(b->hand_arg, c->worker,
                                                       sp[1], what) : -1;
    /* handed: the session gives the worker's count back when it ends;
     * refused: the host gave it back */
    c->worker = -1;
    pthread_mutex_unlock(&b->hand_mu);
    if (rc != 0) {
        close(sp[0]);
        close(sp[1]);
        return -1;
    }
    fcntl(sp[0], F_SETFL, fcntl(sp[0], F_GETFL) | O_NONBLOCK);
    c->game_fd = sp[0];
    return 0;
}

/* A connection that ended before it was handed: the worker's count of it
 * goes back (unless the workers are gone). */
static void not_handed(conn_t *c)
{
    ssh_bridge_t *b = c->b;
    if (c->worker < 0)
        return;
    pthread_mutex_lock(&b->hand_mu);
    if (!b->handing_stopped && b->hand)
        b->hand(b->hand_arg, c->worker, -1, NULL);
    pthread_mutex_unlock(&b->hand_mu);
    c->worker = -1;
}

void ssh_bridge_stop_handing(ssh_bridge_t *b)
{
    if (!b->bind)
        return;
    pthread_mutex_lock(&b->hand_mu);
    b->handing_stopped = 1;
    pthread_mutex_unlock(&b->hand_mu);
}

/* The server's and the channel's callbacks, with c as their userdata. */
static void set_callbacks(conn_t *c)
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

static void *conn_main(void *arg)
{
    conn_t *c = arg;
    ssh_bridge_t *b = c->b;
    ssh_event ev = NULL;
    /* The game side first: keys typed right after the shell request (in
     * the same packets) go to it, never lost. */
    c->tn = telnet_init(telopts, on_telnet, 0, c);
    c->session = ssh_new();
    if (!c->tn || !c->session)
        goto out;
    /* the key exchange's blocking reads: within the grace time too */
    uint64_t deadline = mono_ms() + (uint64_t)b->grace_ms;
    long timeout = (b->grace_ms + 999) / 1000;
    ssh_options_set(c->session, SSH_OPTIONS_TIMEOUT, &timeout);
    set_callbacks(c);
    pthread_mutex_lock(&b->mu);
    int rc = ssh_bind_accept_fd(b->bind, c->session, c->fd);
    pthread_mutex_unlock(&b->mu);
    if (rc != SSH_OK)
        goto out;
    c->fd = -1; /* the session's now */
    ssh_set_auth_methods(c->session,
                         SSH_AUTH_METHOD_NONE | SSH_AUTH_METHOD_PUBLICKEY);
    ssh_set_server_callbacks(c->session, &c->scb);
    int kex = ssh_handle_key_exchange(c->session);
    if (mono_ms() >= deadline) { /* a silent client: its reads timed out */
        log_info("ssh %s: not in within %d ms: closed (key exchange)",
                 c->addr, b->grace_ms);
        goto out;
    }
    if (kex != SSH_OK) {
        log_info("ssh %s: key exchange failed: %s", c->addr,
                 ssh_get_error(c->session));
        goto out;
    }
    ev = ssh_event_new();
    if (!ev || ssh_event_add_session(ev, c->session) != SSH_OK)
        goto out;
    /* Authentication, the channel, its pty and shell: within the grace
     * time (ssh_login_grace_ms), counted from the connection. */
    while (!(c->authed && c->chan && c->shell) && !c->closed &&
           !atomic_load(&b->stopping)) {
        if (ssh_event_dopoll(ev, 200) == SSH_ERROR)
            goto out;
        if (mono_ms() >= deadline) {
            log_info("ssh %s: not in within %d ms: closed", c->addr,
                     b->grace_ms);
            goto out;
        }
    }
    if (c->closed || atomic_load(&b->stopping) || c->game_fd < 0)
        goto out;
    if (ssh_event_add_fd(ev, c->game_fd, POLLIN, on_game, c) != SSH_OK)
        goto out;
    relay_game(c); /* what the game said before the shell */
    while (!c->closed && !atomic_load(&b->stopping)) {
        if (ssh_event_dopoll(ev, 500) == SSH_ERROR)
            break;
        if (c->game_ready)
            relay_game(c);
        if (!ssh_is_connected(c->session))
            break;
    }
    ssh_event_remove_fd(ev, c->game_fd);
out:
    if (c->chan) {
        /* what the game said last (the goodbye) reaches the player before
         * the channel closes */
        ssh_blocking_flush(c->session, 2000);
        ssh_channel_send_eof(c->chan);
        ssh_channel_close(c->chan);
    }
    if (ev)
        ssh_event_free(ev);
    if (c->session) {
        ssh_disconnect(c->session);
        ssh_free(c->session); /* (frees the channel) */
    }
    if (c->tn)
        telnet_free(c->tn);
    if (c->fd >= 0)
        close(c->fd);
    if (c->game_fd >= 0)
        close(c->game_fd);
    not_handed(c);
    uncount(c);
    free(c);
    atomic_fetch_sub(&b->live, 1);
    return NULL;
}

void ssh_bridge_accept(ssh_bridge_t *b, int fd, int worker, const char *addr)
{
    conn_t *c = NULL;
    char ip[64];
    sshg_ip_of(addr, ip, sizeof ip);
    if (atomic_fetch_add(&b->live, 1) >= SSH_BRIDGE_MAX ||
        atomic_load(&b->stopping))
        goto refused;
    if (sshg_enter(&b->guard, ip, mono_ms()) != 0) {
        log_info("refused %s: %d SSH connections from its address are not "
                 "logged in yet (ssh_unauth_per_ip)", addr,
                 b->guard.pending_cap);
        goto refused;
    }
    c = calloc(1, sizeof *c);
    if (c) {
        c->counted = 1;
        snprintf(c->ip, sizeof c->ip, "%s", ip);
    } else {
        sshg_leave(&b->guard, ip);
    }
    pthread_attr_t at;
    pthread_t th;
    int ok = c && pthread_attr_init(&at) == 0;
    if (ok) {
        c->b = b;
        c->fd = fd;
        c->game_fd = -1;
        c->worker = worker;
        snprintf(c->addr, sizeof c->addr, "%s", addr);
        pthread_attr_setstacksize(&at, SSH_BRIDGE_STACK);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        ok = pthread_create(&th, &at, conn_main, c) == 0;
        pthread_attr_destroy(&at);
    }
    if (ok)
        return;
    log_error("ssh %s: cannot start its thread", addr);
    if (c)
        uncount(c);
refused:
    refusal_count(REFUSE_SSH_GUARD);
    free(c);
    close(fd);
    atomic_fetch_sub(&b->live, 1);
    pthread_mutex_lock(&b->hand_mu);
    if (!b->handing_stopped && b->hand)
        b->hand(b->hand_arg, worker, -1, NULL);
    pthread_mutex_unlock(&b->hand_mu);
}

/* --- the host key ---------------------------------------------------------- */

static int load_or_make_key(ssh_bridge_t *b, const char *path, char *err,
                            size_t errlen)
{
    ssh_key key = NULL;
    if (access(path, F_OK) != 0) {
        if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK ||
            ssh_pki_export_privkey_file(key, NULL, NULL, NULL, path) != SSH_OK) {
            snprintf(err, errlen, "cannot make the SSH host key %s", path);
            ssh_key_free(key);
            return -1;
        }
        chmod(path, 0600);
        log_info("ssh: made the host key %s", path);
    } else if (ssh_pki_import_privkey_file(path, NULL, NULL, NULL, &key) !=
               SSH_OK) {
        snprintf(err, errlen, "cannot read the SSH host key %s (delete it "
                 "to make a new one; players will see the key change)", path);
        return -1;
    }
    unsigned char *hash = NULL;
    size_t hlen = 0;
    ssh_key pub = NULL;
    if (ssh_pki_export_privkey_to_pubkey(key, &pub) == SSH_OK &&
        ssh_get_publickey_hash(pub, SSH_PUBLICKEY_HASH_SHA256, &hash,
                               &hlen) == 0) {
        char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash,
                                            hlen);
        snprintf(b->fingerprint, sizeof b->fingerprint, "%s", fp ? fp : "?");
        ssh_string_free_char(fp);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(pub);
    ssh_key_free(key);
    return 0;
}

int ssh_bridge_init(ssh_bridge_t *b, const char *data_dir, char *err,
                    size_t errlen)
{
    memset(b, 0, sizeof *b);
    char path[600];
    snprintf(path, sizeof path, "%s/%s", data_dir, SSH_HOST_KEY_FILE);
    if (ssh_init() != SSH_OK) {
        snprintf(err, errlen, "libssh cannot start");
        return -1;
    }
    if (load_or_make_key(b, path, err, errlen) != 0) {
        ssh_finalize();
        return -1;
    }
    ssh_bind bind = ssh_bind_new();
    if (!bind ||
        ssh_bind_options_set(bind, SSH_BIND_OPTIONS_HOSTKEY, path) != SSH_OK) {
        snprintf(err, errlen, "cannot use the SSH host key %s", path);
        if (bind)
            ssh_bind_free(bind);
        ssh_finalize();
        return -1;
    }
    if (sshg_init(&b->guard, 10, 1000) != 0) {
        snprintf(err, errlen, "out of memory");
        ssh_bind_free(bind);
        ssh_finalize();
        return -1;
    }
    b->grace_ms = 30000;
    b->bind = bind;
    pthread_mutex_init(&b->mu, NULL);
    pthread_mutex_init(&b->hand_mu, NULL);
    return 0;
}

void ssh_bridge_set_limits(ssh_bridge_t *b, int unauth_per_ip, int grace_ms,
                           int fail_delay_ms)
{
    b->guard.pending_cap = unauth_per_ip;
    b->guard.base_ms = fail_delay_ms;
    b->guard.max_ms = fail_delay_ms * 16;
    b->grace_ms = grace_ms > 0 ? grace_ms : 30000;
}

int ssh_bridge_free(ssh_bridge_t *b)
{
    if (!b->bind)
        return 0;
    atomic_store(&b->stopping, 1);
    /* Each thread sees the flag within its poll's timeout. */
    for (int i = 0; i < 100 && atomic_load(&b->live) > 0; i++) {
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
    }
    if (atomic_load(&b->live) > 0) {
        /* Their threads still use libssh and b: both stay as they are
         * until the process ends. */
        log_error("ssh: %d connections still ending at shutdown: left to "
                  "the process's exit", atomic_load(&b->live));
        return -1;
    }
    ssh_bind_free(b->bind);
    b->bind = NULL;
    sshg_free(&b->guard);
    pthread_mutex_destroy(&b->mu);
    pthread_mutex_destroy(&b->hand_mu);
    ssh_finalize();
    return 0;
}
