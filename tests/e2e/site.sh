#!/usr/bin/env bash
# site.sh - the site's pages (docs/site.md) in a real browser: Debian's
# chromium, headless, driven by playwright-core (pinned in
# tests/web/playwright.lock, fetched by browser.sh's way), against the
# release build: tests/web/site.mjs says what it checks (the front page
# lists a live game, its watch page shows the player's moves, the hall of
# fame links the game's page, whose replay plays; on a phone the watch and
# game pages' terminals readable upright and refitted when it is turned
# sideways). Screenshots of every page at 1280x800 and 390x844 (the watch
# and game pages sideways too, 844x390) are kept in build/site-shots.
# Then SIGTERM: the server must exit 0.
#
# Exit 0: passed; 1: failed; 77: skipped (no chromium, node or xterm.js,
# or playwright-core cannot be had).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

. tests/e2e/lib.bash
if ! tests/install-deps.sh chromium nodejs >/tmp/rogued-site-install.$$ 2>&1; then
    echo "skipped: chromium or nodejs cannot be installed: $(tail -1 /tmp/rogued-site-install.$$)"
    rm -f /tmp/rogued-site-install.$$
    exit 77
fi
rm -f /tmp/rogued-site-install.$$
e2e_setup site node chromium curl
grep -q '"/xterm.js"' build/gen/web_assets.c 2>/dev/null || {
    echo "skipped: the server was built without xterm.js (no npm registry at build time)"
    exit 77
}

e2e_playwright # sets pw

hport=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
# every guest game stored (the hall of fame needs this one); no limit on
# connections a minute from the address: the test opens some twenty pages
# from it within a minute, each of a context's first five or six
# connections (the page, the terminal's files, its WebSocket), past the 60
# of a visitor (docs/hosting.md), which is not what it tests
e2e_start_server --seed 42 --set http_port="$hport" --set guest_min_turns=0 \
    --set connects_per_ip_per_minute=0
page_line() { grep -q "browser page on http://127.0.0.1:$hport/" "$tmp/server.log"; }
wait_for 30 page_line || fail "no browser page line in the log"

shots=$ROOT/build/site-shots
# the game page's dump is compared with the export's (the core's own)
if ! PLAYWRIGHT_CORE=$pw ROGUED_EXPORT_BIN="$BIN" ROGUED_EXPORT_DATA="$tmp/data" \
        timeout 300 node tests/web/site.mjs \
        "http://127.0.0.1:$hport" "$shots" >"$tmp/site.log" 2>&1; then
    fail "the site test failed: $(cat "$tmp/site.log")"
fi
cat "$tmp/site.log"
e2e_stop_server
echo "passed"
exit 0
