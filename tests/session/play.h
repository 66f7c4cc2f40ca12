/* play.h - game-aware helpers for the session tests, on top of client.h:
 * connecting until the game is on screen, moving the '@' and checking
 * that it moved exactly as asked, and the "does a new player still get a
 * playable game" check used after every bad input.
 *
 * Each ends the test (ck_abort, with the screen printed to stderr) when
 * what it checks does not hold. */
#ifndef ROGUE_TEST_PLAY_H
#define ROGUE_TEST_PLAY_H

#include "client.h"
#include "game.h"
#include "screen.h"

/* The screen (and why) on stderr, then the test fails with msg. */
void play_fail(const tclient_t *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Waits until the game is on c's screen (cl_wait_ready) or fails. */
void play_ready(tclient_t *c);

/* cl_connect + play_ready. */
tclient_t *play_connect(int port, const cl_opts_t *o);

/* 1 if the map cell next to the '@' in direction (dx, dy) can be walked
 * onto as the screen shows it: floor '.' or stairs '>'. */
int play_open(const tclient_t *c, int dx, int dy);

/* Sends key (telnet mode) and checks its answer: the '@' is exactly one
 * step (dx, dy) away from where it was and the turn counter went up by
 * one. The cell must be open (checked first). */
void play_move(tclient_t *c, const char *key, int dx, int dy);

/* play_move in the first open direction around the '@' (h j k l y u b
 * n, in that order); fails if there is none. */
void play_step(tclient_t *c);

/* Sends key towards (dx, dy), where there must be a wall, and checks that
 * nothing moved, the turn counter stayed and the newest log line says
 * "There is a wall in the way.". */
void play_bump(tclient_t *c, const char *key, int dx, int dy);

/* Rows from..to of c's screen are view_draw(g) at c's size, row for row
 * (text), skipping the message log's rows when skip_log is set; else the
 * test fails, naming the row (and key_no, the key just sent, if >= 0). */
void play_expect_rows(const tclient_t *c, const game_t *g, int from, int to,
                      int skip_log, int key_no);

/* c's screen is want (its size), row for row (text); else the test
 * fails, naming the row and key_no (the key just sent). */
void play_expect_screen(const tclient_t *c, const screen_t *want, int key_no);

/* Waits for text on c's screen, or fails the test. */
void play_wait_text(tclient_t *c, const char *text);

/* Types text a key at a time (each answered), then Enter: a person at a
 * prompt. */
void play_type_line(tclient_t *c, const char *text);

/* A telnet client on port, in the lobby menu (synced). */
tclient_t *play_lobby(int port);

/* play_lobby, then name registered (password "password1") through the
 * prompts: the client back in the lobby, "Logged in as name". */
tclient_t *play_register(int port, const char *name);

/* A telnet connection to port from loopback address src ("127.0.0.2"),
 * closed again: 1 if the lobby greeted it, 0 if it was refused (closed
 * before the lobby; *banned: 1 if its last line was a ban's, "This address
 * is banned"). */
int play_admitted_from(int port, const char *src, int *banned);

/* A new telnet client on port gets the game at 80x24 and a vi-key moves
 * its '@' one step into an open direction. Closes it again. */
void play_check_new_player(int port);

/* The walk the resume tests play: moves (into walls too) and waits. Key
 * i of it, and n of them sent, each answered. */
int play_walk_key(int i);
void play_walk_keys(tclient_t *c, int n);

/* A seed whose game survives 80 keys of the walk, 40 turns or more
 * (found in-process). */
uint64_t play_walk_seed(void);

/* From the lobby: registers name with password pass (registering) or
 * logs it in, and waits for "Logged in as NAME". */
void play_account(tclient_t *c, const char *name, const char *pass,
                  int registering);

/* play_account of dave, password "davespassword". */
void play_login_dave(tclient_t *c, int registering);

/* At the lobby menu, logged in (dave, the session with id 1 in s's debug
 * log): plays the walk's first 40 keys (their turn in *turn40), waits until
 * the sweep has handed them to the store, plays 10 more and waits for them
 * too, then 5 more that a crash may lose. Returns the last turn. */
int play_walk_saved(tsrv_t *s, tclient_t *c, int *turn40);

/* At the lobby menu, logged in with a game in progress: takes the offer to
 * continue it and returns its turn, which must lie in [at_least, at_most]
 * (the turns kept a second before, the turns played). */
int play_continue(tclient_t *c, int at_least, int at_most);

/* The walk's game replayed in-process from seed to `turn` (ncalls batches
 * of play_walk_keys, calls[i] keys each, as the test sent them) is the one
 * on c's screen: its map and status line. */
void play_expect_walked(tclient_t *c, uint64_t seed, const int *calls,
                        int ncalls, int turn);

/* From the lobby menu to watching the first game listed, who's. */
void play_watch_first(tclient_t *w, const char *who);

/* Waits (up to twice CL_WAIT_MS) for a replay's line to say it has
 * ended, in whichever of its forms has room (", the end" or " ended":
 * session_replay.c); else fails the test. */
void play_wait_replay_end(tclient_t *r);

/* Rows from..to (the log's, at 80 columns) of replay viewer r at its end
 * are g's, but for one that carries the replay's ended line after the
 * game's words, which it leaves whole; else fails the test. */
void play_expect_replay_log(const tclient_t *r, const game_t *g, int from,
                            int to);

/* Watcher w shows player a's screen, cell for cell (waiting for its frame
 * up to CL_WAIT_MS), and both are g's, the test's own copy of the game:
 * every row but the log's oldest line, where each has its own line over
 * it (" 1 watching ", " Watching NAME - q leaves "). key_no is for the
 * failure message. */
void play_expect_watched(tclient_t *a, tclient_t *w, const game_t *g,
                         int key_no);

/* The idle warning ("You are idle: press a key within N seconds to
 * stay.") on c's screen, with most - (the real seconds since since_ms,
 * rounded up) <= N <= most: most is the seconds left on the server's
 * clock as the test moved it, and the real time gone since before the
 * last key may take whole seconds more off (a loaded machine). Returns
 * the row, or -1. */
int play_idle_warned(const tclient_t *c, int most, int64_t since_ms);

/* telnet's `mode character` (IAC DO ECHO) from c, in line mode at the
 * lobby's menu: the screen is painted whole (the client's own echo and its
 * telnet> lines were on it), and after the next key (the lobby's ?) the
 * line mode's notice is gone. Fails the test otherwise. */
void play_leave_line_mode(tclient_t *c);

#endif
