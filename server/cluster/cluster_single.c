/* cluster_single.c - one account, one host. A login on host B asks the
 * hosts that play its account to let go (cluster_takeover.c), and waits
 * for a host that lost the database a while; a host away for longer (or
 * a login on it while it was away, which could ask nobody) leaves the
 * account live on two hosts, each playing its own copy of the game. The
 * later login wins, as on one host: each heartbeat, a host whose session
 * of an account is older than another live host's session of it lets its
 * own go. Older is by the claims their logins loaded the game under, when
 * both have one (whether they play yet or not): the store refuses the
 * writes of the older claim (store.h), so the two rules must pick the
 * same session, and two logins within a heartbeat of each other may be
 * published in the other order than they claimed. Else (a login still
 * waiting for its takeover or its load, or a host older than the column)
 * it is older than a session that plays (so is past its takeover) and was
 * first published with the account after it. It
 * writes nothing of its game then: the store's game in progress is the
 * other host's now (it went on from the database), and this host's keys
 * would be appended to it, or its end would remove it. The player is
 * told as for a second login. (A dropped page's token's row, held, is
 * no session: it neither goes nor makes one go.) docs/hosting.md, "What
 * the hosts share, and how". */
#include <libpq-fe.h>
#include <stdlib.h>

#include "cluster_impl.h"
#include "log.h"

int cluster_let_go_pending(cluster_t *c, uint64_t sess)
{
    for (int i = 0; i < c->nlet_go; i++)
        if (c->let_go[i] == sess)
            return 1;
    return 0;
}

/* Sessions let go that have ended leave the list. */
static void forget_ended(cluster_t *c)
{
    for (int i = 0; i < c->nlet_go;) {
        dir_entry_t e;
        if (!dir_lookup(&c->sh->dir, c->let_go[i], &e))
            c->let_go[i] = c->let_go[--c->nlet_go];
        else
            i++;
    }
}

void cluster_single_beat(cluster_t *c)
{
    forget_ended(c);
    const char *v[1] = { c->chan };
    PGresult *r = cluster_query(c, "SELECT m.session_id, m.account_id,"
                                " min(o.host) FROM rogued_online m JOIN"
                                " rogued_online o ON o.account_id ="
                                " m.account_id AND o.host <> m.host AND"
                                " NOT o.held AND"
                                " CASE WHEN o.claim > 0 AND m.claim > 0"
                                " THEN o.claim > m.claim ELSE o.playing AND"
                                " o.since > m.since END JOIN"
                                " rogued_hosts h ON h.host = o.host WHERE"
                                " m.host = $1 AND NOT m.held AND h.seen >"
                                " now() - interval"
                                " '5 seconds' GROUP BY m.session_id,"
                                " m.account_id LIMIT 64", 1, v, 0);
    for (int i = 0; r && i < PQntuples(r) && c->nlet_go < LET_GO_MAX; i++) {
        uint64_t sess = strtoull(PQgetvalue(r, i, 0), NULL, 10);
        long long account = strtoll(PQgetvalue(r, i, 1), NULL, 10);
        dir_entry_t e;
        if (cluster_let_go_pending(c, sess) ||
            !dir_lookup(&c->sh->dir, sess, &e) || e.account_id != account)
            continue;
        c->let_go[c->nlet_go++] = sess;
        /* (one in the lobby, or closing already, has no game to keep) */
        if (e.playing)
            log_info("cluster: account %lld went on on %s (logged in there "
                     "later): this host lets go of its session %llu without "
                     "saving", account, PQgetvalue(r, i, 2),
                     (unsigned long long)sess);
        else
            log_debug("cluster: account %lld went on on %s: session %llu "
                      "here lets go", account, PQgetvalue(r, i, 2),
                      (unsigned long long)sess);
        /* (its answer, to the takeover id, is dropped there) */
        cluster_postf(c, MSG_TAKEOVER, CLUSTER_TAKEOVER_ID, sess,
                      MSG_TAKEOVER_UNSAVED, NULL, NULL);
    }
    PQclear(r);
}
