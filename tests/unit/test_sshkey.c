/* test_sshkey.c - public key lines as players paste them (sshkey.h):
 * keys made by OpenSSH's ssh-keygen, with the fingerprints its
 * `ssh-keygen -l` printed for them, are taken, written back without their
 * comment and fingerprinted the same; damaged, mislabelled, short, DSA,
 * empty and overlong lines are refused with a sentence; and a key libssh
 * holds is fingerprinted as its line is (what the SSH bridge looks up). */
#include <check.h>
#include <libssh/libssh.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "sshkey.h"

/* Made with ssh-keygen -t ed25519 / rsa -b 3072 / ecdsa -b 256 / rsa -b
 * 1024 / dsa; the fingerprints are ssh-keygen -l's. */
static const char ED25519[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINlKS5rWHEtsU85C/f1DFP+NCJ8r"
    "zIuwpt94Xr8HYTzY erin@laptop";
static const char ED25519_FP[] = "SHA256:vAYPzkcWQDW4A2roJfd/oqIELarVRxxRdFDnSHZtTvE";
static const char RSA3072[] =
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDKQr5HHJrbAZYxuGqxSbsCH3Je"
    "ZOc5XSZ1/+PZ73lsl8eHeIw6SuftH+WDPBebH0SxTzvb+FdZ0AAHLb/78BDVhHHo"
    "Aj6Fwe9oU+iUj023X50GXQvDHTzHn/kRQ1z8hZizM97rCaYJhaKLi0h0YmCt8jdk"
    "m7c93qVWSPalAYG5qTIIYaLzr3wA5eEZgiyLvveAe5UjbKYE7o/DEERAVi4Mb4Nz"
    "H9QJ9CSnYPf/3cCwXvkeR70PkdYsFYn0rorsA57Z4tNGKxzOeYTqd/4yLdBBRu6j"
    "kNZ2q45QUCo3w+9FctnBNZzxVUUtVS5KMG/+El8LLYmuVRqHx+BPYYSX6HloofEP"
    "GwpygpCSRCptlIF7/OE1bvvocFLtbej7wjz5RAOk1ZXVIv7gTvCDXi9HfYbGpwHa"
    "1tv1+4K3XjsmOhlhpqKDXudeVz7RooEdjyGcNDXM7tFPGO9sD1h6vrWzhdXcLFOV"
    "AEQqloKF3Gl88V+mQwxsSdLBpjhD8YZg+waAWPE= rsa key";
static const char RSA3072_FP[] = "SHA256:iUHdqBkyl5iJq+ZZJ5EaycqcqMWG3NaYGFMe5J23Ek4";
static const char ECDSA256[] =
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAy"
    "NTYAAABBBDp1XyaqW5wugFwB0A94wRHxih8dcAAibotj038P2Nf5vOPcygI/159+"
    "jE1gEkZtUWSjOEI6Jtg8S9ghol4hSlw=";
static const char ECDSA256_FP[] = "SHA256:LB3tYW9OWCq+jUSmyN0nwbR177vk9igA5NZkSwS5vA0";
static const char RSA1024[] =
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC+XTLqN+grcbi1l3yTL8ZdtlWQ"
    "d0BUXjr/YhZah0GhEHXcCqImK/vlwhs1nTPC/qOOX6Vm5AM2xStmj8ekr6ClVhnW"
    "yVWGSiRuINaz+cxVVUFe0DMrXef4uLEuyjZRiC9pK8uR7dxdA2bRk1Vj/yWmcf3p"
    "d9OahhBmDgqGZXIT6Q== root@vm";
static const char DSA[] =
    "ssh-dss AAAAB3NzaC1kc3MAAACBAI6DFSqYyMtITZJ6+TE8pdcUFMrqhVaF2Smn"
    "Rj9ZOWqTYSh0SqRed4tW+PdU3Pj4YDDwPEmMssDby+DBYksE3PAqw0B3ZVuSUzvW"
    "+QLr6TRwDojQZ2xkseYK0jrJZGUZ3PIb2rZ9omvEzxdcy8q6ZRm2ihWSXaTaS6+0"
    "Yaq8COvNAAAAFQC81xWOge7HtkUYBcqdbkGEJ/t3EQAAAIBBaQmCHOJ2NbQ8ck6U"
    "oQhYNo+mC3yk3hNjL1zyFK52iEL/yB8g+66Szlf0jW/G+MXMcyCNDBabKOtlTh2Y"
    "+jG/mVhOcsw9FHnSKNYPEmGoglHuRgSJmfs2Wg7uHaYTDswWU7rRyIqhL9Ebzwoo"
    "JWStHy73S0Zeoho9XA1FLlq+uQAAAIB4zH4EYeOcNDBxBIUuifGM6JJAsOTmtu4y"
    "9I+/zVup5wvlbwszvPOwYFUdmZsZwsWBncvp0Tp9ZQCSTF8N/PwtUGS1/qZsaUeZ"
    "VFq1eEWKNy9S7bm3EFcUOhdz7RQINkGpJpMhYqD8fLc0Ia984QenkU03xt8q00uZ"
    "l9db3/ioHA== root@vm";

/* The line's first two words: what is stored. */
static void first_two(const char *line, char *out, size_t n)
{
    const char *sp = strchr(line, ' ');
    sp = sp ? strchr(sp + 1, ' ') : NULL;
    size_t len = sp ? (size_t)(sp - line) : strlen(line);
    snprintf(out, n, "%.*s", (int)len, line);
}

/* Taken, stored as `want` (NULL: the line's first two words). */
static void taken_as(const char *line, const char *fp, const char *want)
{
    sshkey_line_t k;
    char why[160] = "", two[STORE_KEY_TEXT_MAX + 1];
    ck_assert_msg(sshkey_parse_line(line, &k, why, sizeof why) == 0, "%s", why);
    ck_assert_str_eq(k.fingerprint, fp);
    first_two(line, two, sizeof two);
    ck_assert_str_eq(k.key, want ? want : two);
}

static void taken(const char *line, const char *fp)
{
    taken_as(line, fp, NULL);
}

static void refused(const char *line, const char *because)
{
    sshkey_line_t k;
    char why[160] = "";
    ck_assert_int_eq(sshkey_parse_line(line, &k, why, sizeof why), -1);
    ck_assert_msg(strstr(why, because) != NULL, "\"%s\" lacks \"%s\"", why,
                  because);
    ck_assert_str_eq(k.key, "");
    ck_assert_str_eq(k.fingerprint, "");
}

START_TEST(keygen_keys_taken)
{
    taken(ED25519, ED25519_FP);
    taken(RSA3072, RSA3072_FP);
    taken(ECDSA256, ECDSA256_FP);
}
END_TEST

START_TEST(blanks_and_comment_do_not_matter)
{
    char line[STORE_KEY_TEXT_MAX + 64], bare[STORE_KEY_TEXT_MAX + 1];
    first_two(ED25519, bare, sizeof bare);
    snprintf(line, sizeof line, "  \t%s  ", bare);
    taken_as(line, ED25519_FP, bare);
    snprintf(line, sizeof line, "%s another comment with words", bare);
    taken(line, ED25519_FP);
}
END_TEST

START_TEST(bad_lines_refused)
{
    char line[SSHKEY_LINE_MAX + 2], bare[STORE_KEY_TEXT_MAX + 1];
    refused("", "Paste the line");
    refused("   ", "Paste the line");
    refused("hello world", "Not a public key line");
    refused("ssh-ed25519", "Not a public key line");
    /* a character of the data changed: libssh cannot read it */
    first_two(ED25519, bare, sizeof bare);
    bare[20] = bare[20] == 'A' ? 'B' : 'A';
    refused(bare, "damaged");
    /* cut short */
    first_two(ED25519, bare, sizeof bare);
    bare[40] = '\0';
    refused(bare, "damaged");
    /* an Ed25519 key's data under RSA's name */
    snprintf(line, sizeof line, "ssh-rsa %s", strchr(ED25519, ' ') + 1);
    refused(line, "damaged");
    refused(RSA1024, "too short (1024 bits)");
    refused(DSA, "are not taken");
    memset(line, 'A', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    refused(line, "too long");
}
END_TEST

/* The bridge fingerprints the key libssh was offered: the same as its
 * line's. */
START_TEST(offered_key_fingerprint)
{
    ssh_key key = NULL;
    char fp[STORE_KEY_FP_MAX + 1];
    char b64[STORE_KEY_TEXT_MAX + 1];
    const char *sp = strchr(ED25519, ' ') + 1;
    snprintf(b64, sizeof b64, "%.*s", (int)(strchr(sp, ' ') - sp), sp);
    ck_assert_int_eq(ssh_pki_import_pubkey_base64(b64, SSH_KEYTYPE_ED25519,
                                                  &key), SSH_OK);
    ck_assert_int_eq(sshkey_fingerprint(key, fp, sizeof fp), 0);
    ck_assert_str_eq(fp, ED25519_FP);
    ck_assert_int_eq(sshkey_fingerprint(key, fp, 10), -1); /* no room */
    ssh_key_free(key);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sshkey");
    TCase *tc = tcase_create("sshkey");
    tcase_add_test(tc, keygen_keys_taken);
    tcase_add_test(tc, blanks_and_comment_do_not_matter);
    tcase_add_test(tc, bad_lines_refused);
    tcase_add_test(tc, offered_key_fingerprint);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
