/* sshkey.c - public key lines checked and fingerprinted with libssh
 * (sshkey.h). */
#include "sshkey.h"

#include <libssh/libssh.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A line that is no key's. Short enough for one row of the lobby's note
 * at 80 columns (a play-test met the longer words cut at "your ."). */
#define KEY_LINE_REFUSED \
    "Not a public key line (type, key, comment): paste your .pub file's line."

#define SSHKEY_RSA_MIN_BITS 2048

int sshkey_fingerprint(void *key, char *fp, size_t fplen)
{
    unsigned char *hash = NULL;
    size_t hlen = 0;
    if (ssh_get_publickey_hash((ssh_key)key, SSH_PUBLICKEY_HASH_SHA256, &hash,
                               &hlen) != 0)
        return -1;
    char *text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash,
                                          hlen);
    ssh_clean_pubkey_hash(&hash);
    int ok = text && strlen(text) < fplen;
    if (ok)
        snprintf(fp, fplen, "%s", text);
    ssh_string_free_char(text);
    return ok ? 0 : -1;
}

/* An RSA key's modulus in bits, read from its base64 blob (string
 * "ssh-rsa", mpint e, mpint n: RFC 4253, 6.6), or 0 if unreadable.
 * (libssh 0.10 has no public call for it.) */
static int rsa_bits(const char *b64)
{
    unsigned char blob[STORE_KEY_TEXT_MAX];
    size_t len = 0;
    if (sodium_base642bin(blob, sizeof blob, b64, strlen(b64), NULL, &len,
                          NULL, sodium_base64_VARIANT_ORIGINAL) != 0)
        return 0;
    size_t at = 0;
    uint32_t n = 0;
    for (int field = 0; field < 3; field++) {
        if (len - at < 4)
            return 0;
        n = (uint32_t)blob[at] << 24 | (uint32_t)blob[at + 1] << 16 |
            (uint32_t)blob[at + 2] << 8 | blob[at + 3];
        at += 4;
        if (n > len - at)
            return 0;
        if (field < 2)
            at += n;
    }
    while (n > 0 && blob[at] == 0) { /* an mpint's sign byte */
        at++;
        n--;
    }
    if (n == 0)
        return 0;
    int bits = (int)n * 8;
    for (unsigned char top = blob[at]; !(top & 0x80); top <<= 1)
        bits--;
    return bits;
}

/* The plain key types a player may register. */
static int type_taken(enum ssh_keytypes_e t)
{
    switch (t) {
    case SSH_KEYTYPE_ED25519:
    case SSH_KEYTYPE_RSA:
    case SSH_KEYTYPE_ECDSA_P256:
    case SSH_KEYTYPE_ECDSA_P384:
    case SSH_KEYTYPE_ECDSA_P521:
    case SSH_KEYTYPE_SK_ED25519:
    case SSH_KEYTYPE_SK_ECDSA:
        return 1;
    default:
        return 0;
    }
}

/* The next blank-separated word of *p: its start and length; *p moves on. */
static size_t word(const char **p, const char **start)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    *start = s;
    while (*s && *s != ' ' && *s != '\t')
        s++;
    *p = s;
    return (size_t)(s - *start);
}

int sshkey_parse_line(const char *line, sshkey_line_t *out, char *why,
                      size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (strnlen(line, SSHKEY_LINE_MAX + 1) > SSHKEY_LINE_MAX) {
        snprintf(why, whylen, "That line is too long for a public key.");
        return -1;
    }
    const char *p = line, *tw, *bw;
    size_t tn = word(&p, &tw), bn = word(&p, &bw);
    char type[64], b64[STORE_KEY_TEXT_MAX + 1];
    if (tn == 0) {
        snprintf(why, whylen, "Paste the line of your .pub file.");
        return -1;
    }
    if (tn >= sizeof type || bn == 0 || bn >= sizeof b64) {
        snprintf(why, whylen, "%s", KEY_LINE_REFUSED);
        return -1;
    }
    memcpy(type, tw, tn);
    type[tn] = '\0';
    memcpy(b64, bw, bn);
    b64[bn] = '\0';
    enum ssh_keytypes_e t = ssh_key_type_from_name(type);
    if (t == SSH_KEYTYPE_UNKNOWN) {
        snprintf(why, whylen, "%s", KEY_LINE_REFUSED);
        return -1;
    }
    if (!type_taken(t)) {
        snprintf(why, whylen, "Keys of type %.40s are not taken: use an "
                 "Ed25519, ECDSA or RSA key.", type);
        return -1;
    }
    ssh_key key = NULL;
    if (ssh_pki_import_pubkey_base64(b64, t, &key) != SSH_OK || !key) {
        snprintf(why, whylen, "That key's data is damaged: paste the whole "
                 "line again.");
        return -1;
    }
    /* the data says its own type: it must be the one named */
    const char *real = ssh_key_type(key) == SSH_KEYTYPE_ECDSA_P256 ||
                       ssh_key_type(key) == SSH_KEYTYPE_ECDSA_P384 ||
                       ssh_key_type(key) == SSH_KEYTYPE_ECDSA_P521
                       ? ssh_pki_key_ecdsa_name(key)
                       : ssh_key_type_to_char(ssh_key_type(key));
    int rc = -1;
    char *again = NULL;
    if (!real || strcmp(real, type) != 0) {
        snprintf(why, whylen, "That key's data is not of the type its line "
                 "names.");
    } else if (ssh_pki_export_pubkey_base64(key, &again) != SSH_OK) {
        snprintf(why, whylen, "That key cannot be used here.");
    } else if (strcmp(again, b64) != 0) {
        /* libssh read something from it, but not all of it, or not as
         * written: a character changed or a piece lost in the paste */
        snprintf(why, whylen, "That key's data is damaged: paste the whole "
                 "line again.");
    } else if (ssh_key_type(key) == SSH_KEYTYPE_RSA &&
               rsa_bits(again) < SSHKEY_RSA_MIN_BITS) {
        snprintf(why, whylen, "That RSA key is too short (%d bits): use one "
                 "of at least %d, or an Ed25519 key.", rsa_bits(again),
                 SSHKEY_RSA_MIN_BITS);
    } else if (strlen(real) + 1 + strlen(again) > STORE_KEY_TEXT_MAX ||
               sshkey_fingerprint(key, out->fingerprint,
                                  sizeof out->fingerprint) != 0) {
        snprintf(why, whylen, "That key cannot be used here.");
    } else {
        snprintf(out->key, sizeof out->key, "%s %s", real, again);
        rc = 0;
    }
    ssh_string_free_char(again);
    ssh_key_free(key);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}
