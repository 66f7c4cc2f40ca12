/* fuzz_cluster.c - libFuzzer target for what another host may send
 * (cluster_proto.h): a NOTIFY payload, and a presence row's list of games,
 * both parsed from the same bytes. Besides the sanitizers it checks the
 * contracts: a payload taken has a known kind, a nonzero id, names and
 * texts of printable ASCII within their bounds, keys within their count
 * and range; a game taken has a nonzero session and a name; and what is
 * formatted again parses to the same game. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s, size_t max, int spaces)
{
    size_t n = strnlen(s, max + 1);
    if (n > max)
        abort();
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] > 0x7e || (!spaces && s[i] == ' '))
            abort();
}

static cluster_note_t note;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    if (cluster_note_parse(p, size, &note) == 0) {
        if (!strchr("JLSKERTDW", note.kind) || note.id == 0)
            abort();
        printable(note.name, ACCT_NAME_MAX, 1);
        printable(note.text, CLUSTER_TEXT_MAX, 1);
        if (note.chan[0] && !cluster_chan_ok(note.chan))
            abort();
        if (note.kind == 'K' && (note.nkeys < 1 || note.nkeys > CLUSTER_KEYS_MAX))
            abort();
        for (int i = 0; i < note.nkeys; i++)
            if (note.keys[i] < 0)
                abort();
        if (note.nbytes < -1 || (note.kind == 'S' && note.nbytes < 0))
            abort();
    }
    cluster_game_t games[8], again;
    int n = cluster_games_parse(p, size, games, 8);
    if (n < 0 || n > 8)
        abort();
    for (int i = 0; i < n; i++) {
        if (games[i].sess == 0 || !games[i].name[0])
            abort();
        printable(games[i].name, ACCT_NAME_MAX, 0);
        char line[160];
        size_t len = 0;
        if (cluster_game_format(&games[i], line, sizeof line, &len) != 0 ||
            cluster_games_parse(line, len, &again, 1) != 1 ||
            again.sess != games[i].sess || again.depth != games[i].depth ||
            again.turns != games[i].turns ||
            again.watchers != games[i].watchers ||
            again.idle_s != games[i].idle_s ||
            strcmp(again.name, games[i].name) != 0)
            abort();
    }
    return 0;
}
