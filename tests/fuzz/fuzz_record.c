/* fuzz_record.c - libFuzzer target for game records: record_decode and
 * record_replay on arbitrary bytes (a stored record may be damaged, and
 * records may one day be uploaded), and the recorder itself.
 *
 * Input: one mode byte, then the bytes. Mode bit 0: rewrite the trailing
 * checksum first, so that damage gets past it into the structure checks and
 * the replay. Mode bit 1: instead, play the bytes as keys (after 8 bytes of
 * seed) through a small-capped recorder and check that the record replays
 * to the same hash, then damage one byte of it (the seed says where) and
 * decode and replay that: well-formed records reach the deep checks without
 * a seed corpus. Besides the sanitizers it checks that a decoded record
 * encodes back to bytes that decode to the same record, and that replay
 * results are consistent. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "game.h"
#include "keys.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t fnv32(const uint8_t *p, size_t n)
{
    uint32_t h = 0x811c9dc5u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x01000193u;
    }
    return h;
}

static void check_decoded(const uint8_t *p, size_t len)
{
    record_t r, again;
    buf_t a, b;
    buf_init(&a, RECORD_ENCODED_MAX);
    buf_init(&b, RECORD_ENCODED_MAX);
    if (record_decode(p, len, &r) == RECORD_OK) {
        if (record_encode(&r, &a) != 0)
            abort();
        if (record_decode(a.data, a.len, &again) != RECORD_OK)
            abort();
        if (record_encode(&again, &b) != 0 || a.len != b.len ||
            memcmp(a.data, b.data, a.len) != 0 || again.nkeys != r.nkeys ||
            again.seed != r.seed || again.final_hash != r.final_hash)
            abort();
        record_free(&again);
    }
    record_free(&r);
    buf_free(&a);
    buf_free(&b);

    record_replay_t out;
    game_t *g = NULL;
    int rc = record_replay(p, len, &out, &g);
    if ((rc == RECORD_OK || rc == RECORD_EDRIFT) != (g != NULL))
        abort();
    if (rc == RECORD_OK && (out.drift_at != -1 || game_hash(g) != out.final_hash))
        abort();
    if (rc == RECORD_EDRIFT && (out.drift_at < 0 ||
                                out.drift_at > (int64_t)out.keys_replayed))
        abort();
    game_free(g);
}

static void check_recorder(const uint8_t *data, size_t size)
{
    if (size < 8)
        return;
    uint64_t seed;
    memcpy(&seed, data, 8);
    game_t *g = game_new(seed, NULL);
    record_t r;
    buf_t a;
    buf_init(&a, RECORD_ENCODED_MAX);
    /* a small cap so that truncation is reached often */
    if (!g || record_init(&r, g, 1 + data[0] % 64 * 8) != 0)
        abort();
    for (size_t i = 8; i < size; i++) {
        int key = data[i] >= 0xf0 ? KEY_SPECIAL + (data[i] & 0x0f) : data[i];
        record_key(&r, g, key);
    }
    if (record_finish(&r, g) != 0 || record_encode(&r, &a) != 0)
        abort();
    record_replay_t out;
    if (record_replay(a.data, a.len, &out, NULL) != RECORD_OK ||
        out.final_hash != r.final_hash || out.keys_replayed != r.nkeys)
        abort();
    if (!r.truncated && out.final_hash != game_hash(g))
        abort();
    /* then damage the good record where the seed bytes say (checksum made
     * to match), so that decoding and replay meet well-formed structure
     * without a corpus */
    size_t at = (size_t)(seed >> 16) % a.len;
    a.data[at] ^= (char)(seed >> 8 | 1);
    if (seed & 1) {
        uint32_t h = fnv32((const uint8_t *)a.data, a.len - 4);
        for (int i = 0; i < 4; i++)
            a.data[a.len - 4 + (size_t)i] = (char)(h >> (8 * i));
    }
    check_decoded((const uint8_t *)a.data, a.len);
    record_free(&r);
    buf_free(&a);
    game_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    data++;
    size--;
    if (mode & 2) {
        check_recorder(data, size);
        return 0;
    }
    uint8_t *p = malloc(size ? size : 1);
    if (!p)
        abort();
    memcpy(p, data, size);
    if ((mode & 1) && size >= 4) {
        uint32_t h = fnv32(p, size - 4);
        for (int i = 0; i < 4; i++)
            p[size - 4 + (size_t)i] = (uint8_t)(h >> (8 * i));
    }
    check_decoded(p, size);
    free(p);
    return 0;
}
