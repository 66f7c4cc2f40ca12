/* ssh_guest.c - a guest over SSH for the session tests (ssh_guest.h). */
#include "ssh_guest.h"

#include <check.h>
#include <stdint.h>

ssh_session ssh_guest_session(int port)
{
    ssh_session ss = ssh_new();
    ck_assert_ptr_nonnull(ss);
    long timeout = 30;
    unsigned int p = (unsigned int)port;
    ssh_options_set(ss, SSH_OPTIONS_HOST, "127.0.0.1");
    ssh_options_set(ss, SSH_OPTIONS_PORT, &p);
    ssh_options_set(ss, SSH_OPTIONS_USER, "play");
    ssh_options_set(ss, SSH_OPTIONS_TIMEOUT, &timeout);
    return ss;
}

ssh_session ssh_guest(int port, const char *term, int cols, int rows,
                      long rekey_bytes, ssh_channel *chp)
{
    ssh_session ss = ssh_guest_session(port);
    if (rekey_bytes > 0) {
        uint64_t limit = (uint64_t)rekey_bytes;
        ck_assert_int_eq(ssh_options_set(ss, SSH_OPTIONS_REKEY_DATA, &limit),
                         0);
    }
    ck_assert_int_eq(ssh_connect(ss), SSH_OK);
    ck_assert_int_eq(ssh_userauth_none(ss, NULL), SSH_AUTH_SUCCESS);
    ssh_channel ch = ssh_channel_new(ss);
    ck_assert_ptr_nonnull(ch);
    ck_assert_int_eq(ssh_channel_open_session(ch), SSH_OK);
    ck_assert_int_eq(ssh_channel_request_pty_size(ch, term, cols, rows),
                     SSH_OK);
    ck_assert_int_eq(ssh_channel_request_shell(ch), SSH_OK);
    *chp = ch;
    return ss;
}

void ssh_guest_bye(ssh_session ss, ssh_channel ch)
{
    ssh_channel_close(ch);
    ssh_channel_free(ch);
    ssh_disconnect(ss);
    ssh_free(ss);
}
