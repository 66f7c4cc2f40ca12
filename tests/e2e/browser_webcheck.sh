#!/usr/bin/env bash
# browser_webcheck.sh - what a tester's check of the play page found, in a
# real browser (Debian's chromium, headless, driven by playwright-core, as
# browser.sh): tests/web/webcheck.mjs says what it checks (the device's
# keyboard open on a phone upright and sideways, the heartbeat over a
# stalled connection, Tab out of the terminal, words for a screen reader,
# zoom, contrast, the game's y and n; a tablet upright; the site's
# terminals on a big screen, its nav on a phone, the feed out of it).
# Screenshots in build/test-logs/web/.
# Then SIGTERM: the server must exit 0.
#
# Exit 0: passed; 1: failed; 77: skipped (as browser.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

. tests/e2e/lib.bash
if ! tests/install-deps.sh chromium nodejs >/tmp/rogued-webcheck-install.$$ 2>&1; then
    echo "skipped: chromium or nodejs cannot be installed: $(tail -1 /tmp/rogued-webcheck-install.$$)"
    rm -f /tmp/rogued-webcheck-install.$$
    exit 77
fi
rm -f /tmp/rogued-webcheck-install.$$
e2e_setup browser-webcheck node chromium curl
grep -q '"/xterm.js"' build/gen/web_assets.c 2>/dev/null || {
    echo "skipped: the server was built without xterm.js (no npm registry at build time)"
    exit 77
}
e2e_playwright # sets pw

hport=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
# No limit on connections a minute from the address: the site's pages at
# several sizes open some twenty pages within a minute, past the 60
# connections of a visitor (docs/hosting.md), which is not what it tests;
# a guest's game of three turns kept (guest_min_turns), to be replayed.
e2e_start_server --seed 42 --set http_port="$hport" \
    --set connects_per_ip_per_minute=0 --set guest_min_turns=0
page_line() { grep -q "browser page on http://127.0.0.1:$hport/" "$tmp/server.log"; }
wait_for 30 page_line || fail "no browser page line in the log"

mkdir -p build/test-logs/web
if ! PLAYWRIGHT_CORE=$pw timeout 300 node tests/web/webcheck.mjs \
        "http://127.0.0.1:$hport/play" "$ROOT/build/test-logs/web" >"$tmp/webcheck.log" 2>&1; then
    fail "the browser test failed: $(cat "$tmp/webcheck.log")"
fi
cat "$tmp/webcheck.log"
# the stalled connection's game taken over by the page back with its token
grep -q 'takes the game of id=[0-9]* by its token' "$tmp/server.log" ||
    fail "the page back after the stall did not take its game over"

e2e_stop_server
echo "passed"
exit 0
