/* port_claim.h - a port claimed among the test processes of a run.
 *
 * cl_free_port picks a random port below the kernel's ephemeral range
 * that can be bound now; the server the test starts binds it later,
 * seconds later for a ThreadSanitizer server on a busy machine. Another
 * test process that picked the same port in between made that server
 * exit with "Address already in use" (tsan/test_site in a
 * `make test-under-load`, 2026-11-28). A claim is a file PORT_CLAIM_DIR/
 * PORT, made with O_EXCL, holding the claiming process's id: a port a
 * live process has claimed is not picked again. A process's claims go
 * when it exits (atexit, its own only: a forked test inherits its
 * parent's list); one left by a process that died without exiting is
 * removed, once it is a few minutes old, by the next that meets it. */
#ifndef ROGUE_TEST_PORT_CLAIM_H
#define ROGUE_TEST_PORT_CLAIM_H

#define PORT_CLAIM_DIR "/tmp/rogued-test-ports"

/* 1 if this process has claimed port now (or claims cannot be kept
 * here: no such directory can be made), 0 if another live process holds
 * it. */
int port_claim(int port);

#endif
