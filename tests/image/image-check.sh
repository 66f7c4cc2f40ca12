#!/usr/bin/env bash
# image-check.sh - `make image-check`: the container image builds, and what
# it holds works, on a machine where no registry is reachable and no
# container can run.
#
#  1. Tools: podman, debootstrap, tmux and telnet, installed with apt-get
#     when missing (root).
#  2. The base: a debian:bookworm-slim of our own, made by debootstrap
#     (--variant=minbase) from the Debian mirror this machine's apt uses,
#     cached in build/image/ (a second run reuses it), imported with
#     `podman import` as localhost/rogued-base:bookworm.
#  3. The image: `podman build --isolation=chroot --format docker` of the
#     Dockerfile, with --build-arg BASE= that base and --pull=never (the
#     Dockerfile's FROM stays debian:bookworm-slim for everyone else).
#  4. Its file system, taken out with `podman image mount` and copied to a
#     throwaway directory (its /data is the throwaway data directory), with
#     the device nodes a runtime gives a container (null, zero, random,
#     urandom).
#  5. The image's ENTRYPOINT and CMD, read from the image's config, run
#     there under chroot as the image's USER (its uid and gid read from the
#     image's /etc/passwd: they must be 2323), with the image's ENV, on a
#     free loopback port (ROGUED_PORT=0, ROGUED_BIND=127.0.0.1), the
#     browser port off (ROGUED_HTTP_PORT=0).
#  6. The image's HEALTHCHECK command, run the same way: it must pass
#     while the server serves and fail once it is stopped.
#  7. A guest game through it, as the telnet end-to-end test plays it
#     (lib.bash): telnet in an 80x24 tmux pane, p and Enter, one step into
#     open floor and back with an arrow (the '@' moves exactly one cell
#     each, the turn counter follows), Q y (the game recorded), q (goodbye,
#     telnet exits), then SIGTERM to the server's pid: it exits 0.
#
# What this cannot prove (no container runs here): namespaces, cgroups,
# the runtime's own /dev and /proc, port publishing, volumes as docker
# mounts them, and the HEALTHCHECK as docker schedules it.
#
# Exit 0: passed; 1: failed. IMAGE_CHECK_KEEP=1 keeps the run directory;
# DEBIAN_MIRROR and DEBIAN_SECURITY override the mirrors read from apt.
set -u
cd "$(dirname "$0")/../.." || exit 1

. tests/e2e/lib.bash # T, wait_for, e2e_play_guest_game, e2e_stop_server

SUITE=bookworm
CACHE=build/image
ROOTFS=$CACHE/rootfs-$SUITE
BASE_TAG=localhost/rogued-base:$SUITE
IMAGE_TAG=localhost/rogued:image-check
UID_WANT=2323

run=
srv_pid=
mounted=
sock="rogued-image-$$"
pane_name=image
tmp= # lib.bash's fail() reads $tmp/server.log

step() { echo; echo "== $*"; }

cleanup() {
    T kill-server >/dev/null 2>&1
    if [ -n "$srv_pid" ] && kill -0 "$srv_pid" 2>/dev/null; then
        kill -KILL "$srv_pid" 2>/dev/null
        wait "$srv_pid" 2>/dev/null
    fi
    [ -n "$mounted" ] && podman image unmount "$IMAGE_TAG" >/dev/null 2>&1
    if [ -n "$run" ]; then
        if [ -n "${IMAGE_CHECK_KEEP:-}" ]; then echo "kept $run"; else rm -rf "$run"; fi
    fi
}
trap cleanup EXIT

die() {
    echo "image-check: FAIL: $*"
    if [ -n "$tmp" ] && [ -f "$tmp/server.log" ]; then
        echo "---- the pane:"
        T capture-pane -p -t "$pane_name" 2>/dev/null
        echo "---- the server log:"
        cat "$tmp/server.log"
    fi
    exit 1
}

[ "$(id -u)" = 0 ] || die "run it as root (apt-get, debootstrap, podman's chroot isolation, chroot)"

# --- 1. tools -----------------------------------------------------------------
step "1. tools"
need=()
for t in podman:podman debootstrap:debootstrap tmux:tmux telnet:telnet; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends "${need[@]}" || die "apt-get could not install ${need[*]}"
fi
podman --version

# The Debian mirror apt uses here, for a suite: one-line sources
# ("deb [opts] URI SUITE ...") and deb822 ones (URIs:, Suites:).
apt_mirror() { # suite
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v s="$1" '$1 == "deb" { for (i = 2; i < NF; i++)
                           if ($i ~ /^https?:\/\// && $(i + 1) == s) { print $i; exit } }'
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v s="$1" 'BEGIN { RS = "" } {
            uri = ""; ok = 0
            n = split($0, l, "\n")
            for (i = 1; i <= n; i++) {
                if (l[i] ~ /^URIs:/) { split(l[i], u, " "); uri = u[2] }
                if (l[i] ~ /^Suites:/) { m = split(l[i], w, " ")
                    for (j = 2; j <= m; j++) if (w[j] == s) ok = 1 }
            }
            if (ok && uri != "") { print uri; exit } }' "$f"
    done
}
MIRROR=${DEBIAN_MIRROR:-$(apt_mirror "$SUITE" | head -1)}
SECURITY=${DEBIAN_SECURITY:-$(apt_mirror "$SUITE-security" | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
echo "mirror $MIRROR, security $SECURITY"

# --- 2. the base ----------------------------------------------------------------
step "2. the base: $SUITE by debootstrap, as $BASE_TAG"
mkdir -p "$CACHE"
if [ ! -e "$ROOTFS.done" ]; then
    rm -rf "$ROOTFS" "$ROOTFS.tmp"
    echo "debootstrap --variant=minbase $SUITE (log: $CACHE/debootstrap.log)"
    debootstrap --variant=minbase "$SUITE" "$ROOTFS.tmp" "$MIRROR" \
        >"$CACHE/debootstrap.log" 2>&1 || { tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed"; }
    # As the slim image: its suite, the updates and security, no package
    # cache or lists left.
    printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
        "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SECURITY" "$SUITE" \
        >"$ROOTFS.tmp/etc/apt/sources.list"
    rm -rf "$ROOTFS.tmp"/var/cache/apt/archives/*.deb "$ROOTFS.tmp"/var/lib/apt/lists/*
    mv "$ROOTFS.tmp" "$ROOTFS"
    touch "$ROOTFS.done"
else
    echo "cached: $ROOTFS (remove $ROOTFS.done to make it again)"
fi
if podman image exists "$BASE_TAG" && [ "$CACHE/base.imported" -nt "$ROOTFS.done" ]; then
    echo "imported already: $BASE_TAG"
else
    # /dev, /proc and /sys are the runtime's, empty in an image
    tar --numeric-owner -C "$ROOTFS" --exclude='./dev/*' --exclude='./proc/*' \
        --exclude='./sys/*' -cf - . |
        podman import --change 'CMD ["bash"]' - "$BASE_TAG" >/dev/null ||
        die "podman import of the base failed"
    touch "$CACHE/base.imported"
fi
podman image inspect --format 'base {{.Id}}, {{.Size}} bytes' "$BASE_TAG"

# --- 3. the image ----------------------------------------------------------------
step "3. podman build --isolation=chroot"
podman build --isolation=chroot --format docker --pull=never \
    --build-arg BASE="$BASE_TAG" -t "$IMAGE_TAG" . || die "podman build failed"

# One field of the image's config; a list one item a line (println), less
# the empty line inspect ends with.
fmt() { podman image inspect --format "$1" "$IMAGE_TAG" | sed '${/^$/d}'; }
mapfile -t EP < <(fmt '{{range .Config.Entrypoint}}{{println .}}{{end}}')
mapfile -t CMD < <(fmt '{{range .Config.Cmd}}{{println .}}{{end}}')
mapfile -t ENVS < <(fmt '{{range .Config.Env}}{{println .}}{{end}}')
mapfile -t HC < <(fmt '{{if .HealthCheck}}{{range .HealthCheck.Test}}{{println .}}{{end}}{{end}}')
USER_SPEC=$(fmt '{{.Config.User}}')
WORKDIR=$(fmt '{{.Config.WorkingDir}}')
echo "entrypoint: ${EP[*]}"
echo "cmd: ${CMD[*]:-}"
echo "user: $USER_SPEC; env: ${ENVS[*]:-}"
echo "healthcheck: ${HC[*]:-none}"
[ ${#EP[@]} -gt 0 ] || die "the image has no ENTRYPOINT"
[ -n "$USER_SPEC" ] || die "the image has no USER: it would run as root"
[ ${#HC[@]} -gt 1 ] || die "the image has no HEALTHCHECK"

# --- 4. its file system ------------------------------------------------------------
step "4. the image's file system, taken out"
run=$(mktemp -d "$CACHE/run.XXXXXX") || die "no run directory"
run=$(cd "$run" && pwd)
tmp=$run
root=$run/root
mkdir "$root"
mnt=$(podman image mount "$IMAGE_TAG") || die "podman image mount failed"
mounted=1
cp -a "$mnt/." "$root/" || die "copying the image's files failed"
podman image unmount "$IMAGE_TAG" >/dev/null
mounted=
mkdir -p "$root/dev"
for d in "null 1 3" "zero 1 5" "random 1 8" "urandom 1 9"; do
    read -r n ma mi <<<"$d"
    rm -f "$root/dev/$n"
    mknod -m 666 "$root/dev/$n" c "$ma" "$mi" || die "mknod /dev/$n"
done
echo "$(du -sh "$root" | cut -f1) in $root"

# The USER, as the image's own /etc/passwd says.
user=${USER_SPEC%%:*}
if [[ $user =~ ^[0-9]+$ ]]; then
    uid=$user gid=${USER_SPEC#*:}
    [ "$gid" = "$USER_SPEC" ] && gid=$uid
    home=/
else
    line=$(awk -F: -v u="$user" '$1 == u' "$root/etc/passwd")
    [ -n "$line" ] || die "user $user is not in the image's /etc/passwd"
    IFS=: read -r _ _ uid gid _ home _ <<<"$line"
fi
[ "$uid" = $UID_WANT ] && [ "$gid" = $UID_WANT ] ||
    die "the image's user is $uid:$gid, not $UID_WANT:$UID_WANT"
data=$(printf '%s\n' "${ENVS[@]}" | sed -n 's/^ROGUED_DATA_DIR=//p')
[ -n "$data" ] || die "the image sets no ROGUED_DATA_DIR"
[ "$(stat -c %u:%g "$root$data")" = "$uid:$gid" ] || die "$data is not owned by $uid:$gid"
echo "user $user = $uid:$gid (home $home), data directory $data owned by it"

# Sets IMG_CMD to the command line that runs a command in the image's file
# system as its user, with its ENV (and PATH and HOME as a runtime sets
# them), then the extra VAR=value words. chroot and env each exec the
# next: the command keeps the pid the shell started.
image_cmd() { # VAR=value... -- command...
    local extra=()
    while [ "$1" != -- ]; do extra+=("$1"); shift; done
    shift
    IMG_CMD=(chroot --userspec="$uid:$gid" --groups="$gid" "$root" /usr/bin/env -i
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
        HOME="$home" ${WORKDIR:+-C "$WORKDIR"} "${ENVS[@]}" "${extra[@]}" "$@")
}

# --- 5. the entrypoint -----------------------------------------------------------------
step "5. ENTRYPOINT ${EP[*]} ${CMD[*]:-} as $uid:$gid"
image_cmd ROGUED_PORT=0 ROGUED_BIND=127.0.0.1 ROGUED_HTTP_PORT=0 -- "${EP[@]}" "${CMD[@]}"
"${IMG_CMD[@]}" >"$run/server.log" 2>&1 &
srv_pid=$!
port_of_log() { sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$run/server.log"; }
has_port() { [ -n "$(port_of_log)" ]; }
wait_for 30 has_port || die "the server did not listen"
port=$(port_of_log)
echo "server pid $srv_pid listening on 127.0.0.1:$port"
[ "$(awk '/^Uid:/ { print $2 }' "/proc/$srv_pid/status")" = "$uid" ] ||
    die "the server does not run as uid $uid"
[ "$(readlink "/proc/$srv_pid/root")" = "$root" ] ||
    die "the server does not run in the image's file system"
[ "$(readlink "/proc/$srv_pid/exe")" = "$root${EP[0]}" ] ||
    die "pid $srv_pid is not ${EP[0]}"
ls "$root$data"/rogued.db >/dev/null 2>&1 || die "no database in $data"
echo "runs as uid $uid, in $root, as ${EP[0]}; its database is in $data"

# --- 6. the health check ------------------------------------------------------------------
healthy() {
    case ${HC[0]} in
    CMD) image_cmd ROGUED_PORT="$port" -- "${HC[@]:1}" ;;
    CMD-SHELL) image_cmd ROGUED_PORT="$port" -- /bin/sh -c "${HC[1]}" ;;
    *) return 2 ;;
    esac
    "${IMG_CMD[@]}"
}
step "6. HEALTHCHECK ${HC[*]}"
healthy || die "the health check fails while the server serves"
echo "healthy"

# --- 7. a guest game --------------------------------------------------------------------------
step "7. a guest game through telnet"
# the same game as the telnet end-to-end test (lib.bash): the lobby, a
# step and back, Q y (the game recorded), q (goodbye, telnet exits)
# (the health check's connection was the first: session 1, guest1)
E2E_ID=2 E2E_GUEST=guest2 \
    e2e_play_guest_game "telnet 127.0.0.1 $port" "Connection closed by foreign host."
T kill-server >/dev/null 2>&1

# --- the end ------------------------------------------------------------------------------------
step "stopping the server (pid $srv_pid)"
e2e_stop_server
grep -q "shutting down (SIGTERM)" "$run/server.log" || die "no shutdown line in the log"
echo "exited 0"
healthy && die "the health check passes with the server stopped"
echo "the health check fails with the server stopped"

echo
echo "image-check: passed (the image builds; its binary, libraries, user,"
echo "data directory, entrypoint and health check work; the container runtime"
echo "itself is not tested here)"
exit 0
