/* session_keys.c - the lobby's SSH keys pages against the store (lobby.h,
 * store.h "SSH public keys"), and the login an SSH key made (the bridge
 * checked the key before the session began: ssh_bridge.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ban_list.h"
#include "log.h"
#include "session.h"
#include "sshkey.h"
#include "store.h"

_Static_assert(LOBBY_KEY_LINE_MAX == SSHKEY_LINE_MAX,
               "the keys page takes what sshkey.c checks");

static void on_keys(void *ctx, const store_keys_t *k)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    if (k->status != STORE_OK)
        log_info("keys id=%llu name=%s: %s", (unsigned long long)s->id,
                 s->lobby.account, store_status_name(k->status));
    lobby_keys_done(&s->lobby, k);
    sess_owe_frame(s);
}

void sess_keys_act(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    store_t *store = s->srv->store;
    store_keys_t fail;
    memset(&fail, 0, sizeof fail);
    fail.status = STORE_ERROR;
    int rc = 0;
    switch (action) {
    case LOBBY_DO_KEYS_LIST:
        lobby_keys_set_reach(l, s->srv->cfg.ssh_port, s->srv->cfg.public_host);
        rc = store_keys_list(store, l->account_id, on_keys, s);
        break;
    case LOBBY_DO_KEY_ADD: {
        sshkey_line_t k;
        char why[160];
        if (sshkey_parse_line(lobby_keys_line(l), &k, why, sizeof why) != 0) {
            lobby_keys_refused(l, why);
            return;
        }
        lobby_keys_checked(l, k.fingerprint);
        log_info("key add id=%llu name=%s %s", (unsigned long long)s->id,
                 l->account, k.fingerprint);
        rc = store_key_add(store, l->account_id, k.fingerprint, k.key, on_keys,
                           s);
        break;
    }
    case LOBBY_DO_KEY_REMOVE:
        log_info("key remove id=%llu name=%s %s", (unsigned long long)s->id,
                 l->account, lobby_keys_pick(l));
        rc = store_key_remove(store, l->account_id, lobby_keys_pick(l),
                              on_keys, s);
        break;
    default:
        return;
    }
    if (rc != 0)
        lobby_keys_done(l, &fail);
}

void sess_ssh_login(sess_t *s, const msg_accept_t *acc)
{
    /* the bridge's account (host.c), not the client's; display is the
     * account's kept choice */
    const char *name = acc->name;
    int64_t id = acc->account_id;
    int display = acc->display;
    if (id <= 0 || !acct_name_valid(name, NULL, 0))
        return;
    int64_t until;
    if (store_banned_name(s->srv->store, name, ban_now_ms(), &until)) {
        char subject[ACCT_NAME_MAX + 16], line[160];
        snprintf(subject, sizeof subject, "The name %.20s", name);
        ban_say(line, sizeof line, subject, until);
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", line);
        log_info("login by SSH key refused id=%llu name=%s: a banned name",
                 (unsigned long long)s->id, name);
        return; /* a guest, in the lobby */
    }
    lobby_key_login(&s->lobby, id, name);
    dir_set_account(s->srv->dir, s->id, id);
    sess_set_display_choice(s, display);
    log_info("login id=%llu name=%s by SSH key", (unsigned long long)s->id,
             name);
}
