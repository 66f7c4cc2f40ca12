/* test_ssh_play.c - an SSH player's connection on the loop (ssh_play.h)
 * when its client is gone: a frame written then fails, and says so by
 * the write's -1 alone (byte_io.h): the session is not also told through
 * `ended` from inside its own call, which closed it twice. libssh's
 * server and client over a socketpair in this process (the client on a
 * thread for the handshake); the client's end closed, nothing polled,
 * then a write. And a connection paused (the session's input budget
 * spent) reads none of what the client sends until it is resumed, and
 * ends at once when the client closes; what is read is told as the
 * socket's bytes (byte_io's read), SSH_MSG_IGNORE included. */
#include <check.h>
#include <libssh/libssh.h>
#include <libssh/server.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "ssh_play.h"

/* What the connection told the session. */
typedef struct {
    int bytes, drained, ended, shut, closed;
    size_t read; /* the bytes read off the socket, as told (cb->read) */
} told_t;

static void on_bytes(void *ctx, const char *p, size_t n)
{
    (void)p, (void)n;
    ((told_t *)ctx)->bytes++;
}

static void on_read(void *ctx, size_t n)
{
    ((told_t *)ctx)->read += n;
}

static void on_drained(void *ctx, size_t queued)
{
    (void)queued;
    ((told_t *)ctx)->drained++;
}

static void on_ended(void *ctx, const char *why)
{
    (void)why;
    ((told_t *)ctx)->ended++;
}

static void on_shut(void *ctx)
{
    ((told_t *)ctx)->shut++;
}

static void on_closed(void *ctx)
{
    ((told_t *)ctx)->closed++;
}

static const byte_io_cb_t cb = { on_bytes, on_read, on_drained, on_ended,
                                 on_shut, on_closed };

/* The client's side: key exchange, "none" login, a session channel. */
typedef struct {
    int fd;
    ssh_session s;
    ssh_channel ch;
    int ok;
} client_t;

static void *client_main(void *arg)
{
    client_t *c = arg;
    c->s = ssh_new();
    if (!c->s)
        return NULL;
    ssh_options_set(c->s, SSH_OPTIONS_FD, &c->fd);
    ssh_options_set(c->s, SSH_OPTIONS_HOST, "localhost");
    ssh_options_set(c->s, SSH_OPTIONS_USER, "play");
    c->ok = ssh_connect(c->s) == SSH_OK &&
            ssh_userauth_none(c->s, NULL) == SSH_AUTH_SUCCESS &&
            (c->ch = ssh_channel_new(c->s)) != NULL &&
            ssh_channel_open_session(c->ch) == SSH_OK;
    if (!c->ok)
        shutdown(c->fd, SHUT_RDWR); /* the server's side stops waiting */
    return NULL; /* (the channel is freed with the session) */
}

/* The server's side, blocking: the login is accepted and the first
 * session channel opened. Its channel, or NULL. */
static ssh_channel serve(ssh_session s)
{
    if (ssh_handle_key_exchange(s) != SSH_OK)
        return NULL;
    ssh_channel ch = NULL;
    ssh_message m;
    while (!ch && (m = ssh_message_get(s)) != NULL) {
        if (ssh_message_type(m) == SSH_REQUEST_AUTH)
            ssh_message_auth_reply_success(m, 0);
        else if (ssh_message_type(m) == SSH_REQUEST_CHANNEL_OPEN &&
                 ssh_message_subtype(m) == SSH_CHANNEL_SESSION)
            ch = ssh_message_channel_request_open_reply_accept(m);
        else
            ssh_message_reply_default(m);
        ssh_message_free(m);
    }
    return ch;
}

/* A server and a client connected, the server's connection opened on
 * loop and started: *bind to free at the end, c the client's side. */
static ssh_play_t *connected(uv_loop_t *loop, told_t *told, ssh_bind *bindp,
                             client_t *c)
{
    signal(SIGPIPE, SIG_IGN); /* (a write to the closed end) */
    int fds[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    ssh_key key;
    ck_assert_int_eq(ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key), SSH_OK);
    ssh_bind bind = ssh_bind_new();
    ck_assert_ptr_nonnull(bind);
    ck_assert_int_eq(ssh_bind_options_set(bind, SSH_BIND_OPTIONS_IMPORT_KEY,
                                          key), SSH_OK);
    ssh_session server = ssh_new();
    ck_assert_int_eq(ssh_bind_accept_fd(bind, server, fds[0]), SSH_OK);
    *c = (client_t){ .fd = fds[1] };
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, client_main, c), 0);
    ssh_channel ch = serve(server);
    pthread_join(t, NULL);
    ck_assert(c->ok);
    ck_assert_ptr_nonnull(ch);
    ssh_set_blocking(server, 0);

    ck_assert_int_eq(uv_loop_init(loop), 0);
    ssh_play_t *p = ssh_play_new(server, ch, "", 0, 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(ssh_play_io.open(p, loop, &cb, told), 0);
    ssh_play_io.start(p);
    *bindp = bind;
    return p;
}

START_TEST(a_failed_write_is_told_by_its_result_alone)
{
    uv_loop_t loop;
    told_t told = { 0 };
    ssh_bind bind;
    client_t c;
    ssh_play_t *p = connected(&loop, &told, &bind, &c);
    ck_assert_int_eq(ssh_play_io.write(p, "a frame", 7), 0);

    ssh_free(c.s); /* the client's end closed (no goodbye) */
    ck_assert_int_eq(ssh_play_io.write(p, "the next", 8), -1);
    ck_assert_int_eq(told.ended, 0);
    ck_assert_int_eq(ssh_play_io.write(p, "and one more", 12), -1);
    ck_assert_int_eq(told.ended, 0);

    ssh_play_io.close(p); /* frees the server's session */
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(told.closed, 1);
    ck_assert_int_eq(told.ended, 0);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ssh_bind_free(bind); /* (with the key: the bind's once imported) */
}
END_TEST

/* Paused, the connection is not watched for the client's bytes: a loop
 * turn with a key in the socket hands nothing to the session; resumed,
 * the key comes. */
START_TEST(paused_reads_nothing_until_resumed)
{
    uv_loop_t loop;
    told_t told = { 0 };
    ssh_bind bind;
    client_t c;
    ssh_play_t *p = connected(&loop, &told, &bind, &c);
    ssh_play_io.pause(p, 1);
    ck_assert_int_eq(ssh_channel_write(c.ch, "k", 1), 1);
    /* watched for the client's leaving alone */
    for (int i = 0; i < 10; i++)
        uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert_int_eq(told.bytes, 0);
    ck_assert_uint_eq(told.read, 0);
    ssh_play_io.pause(p, 0);
    /* each turn waits for the socket (the test's timeout ends a hang) */
    while (told.bytes == 0)
        uv_run(&loop, UV_RUN_ONCE);
    ck_assert_int_eq(told.ended, 0);
    ssh_play_io.close(p);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(told.closed, 1);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ssh_free(c.s);
    ssh_bind_free(bind);
}
END_TEST

/* What is read is told as the socket's bytes: a key's packet with its
 * overhead (more than its one byte), and an SSH_MSG_IGNORE that never
 * reaches the session, all the same. */
START_TEST(the_wire_bytes_are_told)
{
    uv_loop_t loop;
    told_t told = { 0 };
    ssh_bind bind;
    client_t c;
    ssh_play_t *p = connected(&loop, &told, &bind, &c);
    ck_assert_int_eq(ssh_channel_write(c.ch, "k", 1), 1);
    while (told.bytes == 0)
        uv_run(&loop, UV_RUN_ONCE);
    ck_assert_uint_gt(told.read, 1 + 16); /* (a length, a MAC: more) */
    size_t key = told.read;
    char junk[4000];
    memset(junk, 'j', sizeof junk - 1);
    junk[sizeof junk - 1] = 0;
    ck_assert_int_eq(ssh_send_ignore(c.s, junk), SSH_OK);
    while (told.read < key + sizeof junk - 1)
        uv_run(&loop, UV_RUN_ONCE);
    ck_assert_int_eq(told.bytes, 1);
    ssh_play_io.close(p);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ssh_free(c.s);
    ssh_bind_free(bind);
}
END_TEST

/* Paused, with bytes unread, the client's leaving ends it at once (its
 * backlog would be read at the budget's rate first). */
START_TEST(paused_sees_the_client_leave)
{
    uv_loop_t loop;
    told_t told = { 0 };
    ssh_bind bind;
    client_t c;
    ssh_play_t *p = connected(&loop, &told, &bind, &c);
    ssh_play_io.pause(p, 1);
    ck_assert_int_eq(ssh_channel_write(c.ch, "k", 1), 1);
    shutdown(c.fd, SHUT_WR); /* its FIN, behind the key */
    while (told.ended == 0)
        uv_run(&loop, UV_RUN_ONCE);
    ck_assert_int_eq(told.bytes, 0);
    ssh_play_io.close(p);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ssh_free(c.s);
    ssh_bind_free(bind);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh play");
    TCase *tc = tcase_create("play");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_failed_write_is_told_by_its_result_alone);
    tcase_add_test(tc, paused_reads_nothing_until_resumed);
    tcase_add_test(tc, the_wire_bytes_are_told);
    tcase_add_test(tc, paused_sees_the_client_leave);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
