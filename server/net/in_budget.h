/* in_budget.h - how many of a client's bytes the server reads: a token
 * bucket of bytes, spent before a byte is decoded (telnet, WebSocket,
 * SSH's records alike), so that a client sending faster than anyone types
 * costs the server its budget and no more. The session reads no more than
 * the bucket holds (its read buffer is cut to it) and, once it is empty,
 * stops reading the socket until it has refilled: the kernel's TCP window
 * then holds the sender back (session_input.c).
 *
 * The bucket refills at `rate` bytes a second up to `burst`. Bytes may be
 * spent past what it holds (a read the transport could not cut: SSH's
 * records); that debt is paid back before anything more is read.
 *
 * Pure: no clock (the caller passes now_ms, the loop's), no I/O. */
#ifndef ROGUE_IN_BUDGET_H
#define ROGUE_IN_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* The bytes a second a session may send for each key a second it may
 * press (max_keys_per_second), unless max_input_bytes_per_second says:
 * room for a key that is an escape sequence (an arrow's 3 bytes, a mouse
 * report's 12 and more) or a WebSocket frame of its own (6 bytes of head
 * and the message). */
#define INB_BYTES_PER_KEY 16
/* What the bucket holds when full: a burst no honest client comes near
 * (a pasted password, a window dragged: a NAWS or a size message per
 * step, the browser's HTTP request), however low the rate. */
#define INB_BURST_MIN 16384

typedef struct in_budget {
    int64_t milli;             /* bytes x 1000 it holds; below 0: owed */
    uint64_t at_ms;            /* when milli was last brought up to date */
} in_budget_t;

/* A full bucket at now_ms. */
void inb_init(in_budget_t *b, uint32_t burst, uint64_t now_ms);

/* The whole bytes that may be read now (0 while any is owed), after the
 * refill since the last call. rate: bytes a second (> 0). */
size_t inb_room(in_budget_t *b, uint32_t rate, uint32_t burst,
                uint64_t now_ms);

/* n bytes were read: taken from the bucket, below 0 if it held fewer. */
void inb_spend(in_budget_t *b, size_t n);

/* 1 if the bucket held less than a whole byte when last brought up to
 * date (inb_room, less inb_spend since): only then can inb_room say 0. */
int inb_low(const in_budget_t *b);

/* Milliseconds from the last inb_room until the bucket holds `want`
 * bytes at `rate` (0: it does); want is at most the burst. */
uint64_t inb_wait_ms(const in_budget_t *b, uint32_t rate, size_t want);

/* A session's rate for max_input_bytes_per_second, or (0) for
 * max_keys_per_second (config.h); the burst for a rate. */
uint32_t inb_rate(int max_keys_per_second, int max_bytes_per_second);
uint32_t inb_burst(uint32_t rate);

#endif
