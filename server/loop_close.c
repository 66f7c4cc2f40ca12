/* loop_close.c - see loop_close.h. */
#include "loop_close.h"

#include "log.h"

static void on_left_closed(uv_handle_t *h)
{
    (void)h; /* its owner frees it, as with every handle */
}

static void close_left(uv_handle_t *h, void *arg)
{
    const char *who = arg;
    if (uv_is_closing(h))
        return;
    log_error("%s: left open: %s (%s, %s, data %p)", who,
              uv_handle_type_name(uv_handle_get_type(h)),
              uv_is_active(h) ? "active" : "inactive",
              uv_has_ref(h) ? "referenced" : "unreferenced", uv_handle_get_data(h));
    uv_close(h, on_left_closed);
}

int loop_close(uv_loop_t *loop, const char *who)
{
    int rc = uv_loop_close(loop);
    if (rc != UV_EBUSY)
        return rc;
    /* A request still owed (a job in libuv's pool, a write) makes EBUSY
     * too, with no handle to name: said as well, on the same words, so
     * that a harness looking for "left open" sees every cause. (The
     * count is the public field uv_loop_close itself reads.) */
    if (loop->active_reqs.count > 0)
        log_error("%s: left open: %u active requests", who,
                  loop->active_reqs.count);
    uv_walk(loop, close_left, (void *)who);
    uv_run(loop, UV_RUN_DEFAULT);
    if (uv_loop_close(loop) != 0)
        log_error("%s: the loop still does not close", who);
    return UV_EBUSY;
}
