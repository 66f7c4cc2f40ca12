#!/bin/sh
# fetch-assets.sh OUTDIR - fetches the xterm.js releases named in
# web/assets.lock from the npm registry, checks each tarball's SHA-512, and
# puts the files the page needs in OUTDIR (flat: xterm.js, xterm.css,
# addon-fit.js). Already there: nothing to do. Without the network the
# build goes on without them (web/embed.sh then builds a page that says how
# to play with telnet) and says so.
set -u
out=$1
lock=$(dirname "$0")/assets.lock
mkdir -p "$out"
if [ -f "$out/.complete" ] && [ "$out/.complete" -nt "$lock" ]; then
    exit 0
fi
rm -f "$out/.complete"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$lock" | while read -r name url sum files; do
    [ -n "$name" ] || continue
    if ! curl -fsSL --retry 2 --max-time 60 -o "$tmp/pkg.tgz" "$url"; then
        echo "web: cannot fetch $name from the npm registry; the browser page will only point to telnet" >&2
        exit 1
    fi
    if ! echo "$sum  $tmp/pkg.tgz" | sha512sum -c --status; then
        echo "web: $name: the tarball's SHA-512 is not the one in web/assets.lock: refused" >&2
        exit 1
    fi
    # shellcheck disable=SC2086
    tar -xzf "$tmp/pkg.tgz" -C "$tmp" $files || exit 1
    for f in $files; do
        cp "$tmp/$f" "$out/$(basename "$f")" || exit 1
    done
done && touch "$out/.complete"
exit 0
