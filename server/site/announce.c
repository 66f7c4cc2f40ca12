/* announce.c - a finished game as news (announce.h). */
#include "announce.h"

#include <stdio.h>

int announce_line(const store_game_t *row, int min_depth, char *out, size_t n)
{
    int ending = store_game_ending(row);
    if (ending == STORE_END_WIN) {
        snprintf(out, n, "%s won with %d points in %d turns!", row->name,
                 row->score, row->turns);
        return 1;
    }
    if (ending == STORE_END_DEATH && row->depth >= min_depth) {
        snprintf(out, n, "%s died on depth %d: %s (%d points).", row->name,
                 row->depth, row->cause, row->score);
        return 1;
    }
    return 0;
}

int announce_game_end(news_t *news, uint64_t now_ms, int min_depth,
                      const store_game_t *row)
{
    char line[NEWS_TEXT_MAX];
    if (!announce_line(row, min_depth, line, sizeof line))
        return 0;
    return news_post(news, now_ms, row->ended, line);
}
