/* ctl_bans.c - the console's bans (ctl.h): `ban` and `unban` go to the
 * store, which keeps them in the database (every host sharing it reads
 * them) and reads this host's list again before it answers; `bans` lists
 * what this host honours now. docs/hosting.md, "Operations". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ban_list.h"
#include "ctl.h"
#include "host.h"
#include "log.h"
#include "store.h"

/* A ban or unban on its way through the store. */
typedef struct ban_job {
    ctl_t *c;
    uint64_t req;
    int unban;
    store_ban_t ban;
} ban_job_t;

static void on_stored(void *ctx, int status)
{
    ban_job_t *j = ctx;
    ctl_req_t *r = ctl_req_find(j->c, j->req);
    if (r && status == STORE_OK) {
        char when[48];
        ban_format_until(j->ban.until_ms, when, sizeof when);
        if (j->unban)
            ctl_req_printf(r, "unbanned %s\n", j->ban.target);
        else if (j->ban.until_ms)
            ctl_req_printf(r, "banned %s until %s\n", j->ban.target, when);
        else
            ctl_req_printf(r, "banned %s for good\n", j->ban.target);
        log_info("ctl: %s %s%s%s", j->unban ? "unbanned" : "banned",
                 j->ban.target, j->unban || !j->ban.until_ms ? "" : " until ",
                 j->unban ? "" : j->ban.until_ms ? when : " for good");
        ctl_req_done(r, NULL);
    } else if (r) {
        char why[128];
        snprintf(why, sizeof why, "%s", status == STORE_NOT_FOUND
                 ? "no such ban" : "the store did not keep it (its log says why)");
        ctl_req_done(r, why);
    }
    free(j);
}

/* Splits "TARGET [DURATION]" (the duration into duration) and parses the
 * target into j. Returns 0, or
 * -1 after answering the refusal. */
static int parse(ctl_req_t *r, const char *args, ban_job_t *j,
                 char duration[32])
{
    char target[128];
    char extra[8];
    duration[0] = '\0';
    int n = sscanf(args, "%127s %31s %7s", target, duration, extra);
    if (n < 1 || n > 2 || (j->unban && n != 1)) {
        ctl_req_done(r, j->unban ? "unban needs ADDRESS[/BITS] or NAME"
                                 : "ban needs ADDRESS[/BITS] or NAME, and "
                                   "a DURATION or none");
        return -1;
    }
    ban_target_t t;
    char err[160];
    if (ban_parse_target(target, &t, err, sizeof err) != 0) {
        ctl_req_done(r, err);
        return -1;
    }
    snprintf(j->ban.target, sizeof j->ban.target, "%s", t.text);
    return 0;
}

static int submit(ctl_req_t *r, ban_job_t *j)
{
    store_t *st = ctl_req_host(r)->sh.store;
    j->c = ctl_req_ctl(r);
    j->req = ctl_req_id(r);
    int rc = j->unban ? store_unban(st, j->ban.target, on_stored, j)
                      : store_ban(st, &j->ban, on_stored, j);
    if (rc != 0) {
        free(j);
        ctl_req_done(r, "the store is busy: try again");
        return 0;
    }
    return 2; /* answered by on_stored */
}

/* A job for the command's arguments, or NULL after answering why not. */
static ban_job_t *new_job(ctl_req_t *r, const char *args, int unban,
                          char duration[32])
{
    ban_job_t *j = calloc(1, sizeof *j);
    if (!j) {
        ctl_req_done(r, "out of memory");
        return NULL;
    }
    j->unban = unban;
    if (parse(r, args, j, duration) != 0) {
        free(j);
        return NULL;
    }
    return j;
}

int ctl_ban_run(ctl_req_t *r, const char *args)
{
    char duration[32];
    ban_job_t *j = new_job(r, args, 0, duration);
    if (!j)
        return 0;
    int64_t minutes = 0, now = ban_now_ms();
    if (duration[0] && ban_parse_duration(duration, &minutes) != 0) {
        free(j);
        ctl_req_done(r, "a DURATION is a number and m, h or d: 30m, 2h, 7d");
        return 0;
    }
    j->ban.made_ms = now;
    j->ban.until_ms = minutes
        ? now + minutes * (int64_t)ctl_req_host(r)->cfg.ban_minute_ms : 0;
    return submit(r, j);
}

int ctl_unban_run(ctl_req_t *r, const char *args)
{
    char duration[32];
    ban_job_t *j = new_job(r, args, 1, duration);
    return j ? submit(r, j) : 0;
}

int ctl_bans_run(ctl_req_t *r, const char *args)
{
    (void)args;
    store_ban_t *v;
    size_t n = store_bans(ctl_req_host(r)->sh.store, ban_now_ms(), &v);
    ctl_req_printf(r, "TARGET UNTIL\n");
    for (size_t i = 0; i < n; i++) {
        char when[48];
        ban_format_until(v[i].until_ms, when, sizeof when);
        ctl_req_printf(r, "%s %s\n", v[i].target, when);
    }
    free(v);
    ctl_req_done(r, NULL);
    return 0;
}
