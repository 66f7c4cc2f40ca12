/* sshkey.h - an OpenSSH public key line, as a player pastes it into the
 * lobby's keys screen (the line of ~/.ssh/id_ed25519.pub: "type base64
 * comment"), checked and fingerprinted with libssh, and the fingerprint of
 * a key the SSH bridge was offered: the same SHA-256 fingerprint as
 * `ssh-keygen -l` prints ("SHA256:" and unpadded base64), which is how the
 * store finds an account's key (store.h, "SSH public keys"). */
#ifndef ROGUE_SSHKEY_H
#define ROGUE_SSHKEY_H

#include <stddef.h>

#include "store.h"

/* The longest line the keys screen takes (bytes): a 8192-bit RSA key's
 * line with a comment fits. */
#define SSHKEY_LINE_MAX 2048

typedef struct sshkey_line {
    char key[STORE_KEY_TEXT_MAX + 1];          /* "type base64": no comment */
    char fingerprint[STORE_KEY_FP_MAX + 1];    /* "SHA256:..." */
} sshkey_line_t;

/* Checks a pasted line: blanks around it, then the key's type, its
 * base64 data and an optional comment. The types taken are Ed25519,
 * ECDSA (256, 384, 521 bits), RSA of at least 2048 bits and the security
 * keys' (sk-) Ed25519 and ECDSA; certificates, DSA and anything libssh
 * cannot read, or reads other than written (a character changed in the
 * paste), are refused. Returns 0 with out filled, or -1 with a sentence
 * for the player in why. */
int sshkey_parse_line(const char *line, sshkey_line_t *out, char *why,
                      size_t whylen);

/* The SHA-256 fingerprint of a key (an ssh_key). Returns 0, or -1. */
int sshkey_fingerprint(void *key, char *fp, size_t fplen);

#endif
