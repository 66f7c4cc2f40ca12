#!/usr/bin/env bash
# browser_full.sh - a full server as the play page shows it: Debian's
# chromium, headless, driven by playwright-core (tests/web/playwright.lock),
# against a server of max_sessions = 1. tests/web/full.mjs says what it
# checks: with the only slot taken, the page's WebSocket is refused and
# the bar says the server's own line (not "Connection lost") and waits
# 10 s before trying again; once the slot is free, its button plays.
# Then SIGTERM: the server must exit 0.
#
# Exit 0: passed; 1: failed; 77: skipped (no chromium, node or xterm.js,
# or playwright-core cannot be had).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

. tests/e2e/lib.bash
if ! tests/install-deps.sh chromium nodejs >/tmp/rogued-browser-full-install.$$ 2>&1; then
    echo "skipped: chromium or nodejs cannot be installed: $(tail -1 /tmp/rogued-browser-full-install.$$)"
    rm -f /tmp/rogued-browser-full-install.$$
    exit 77
fi
rm -f /tmp/rogued-browser-full-install.$$
e2e_setup browser_full node chromium curl
grep -q '"/xterm.js"' build/gen/web_assets.c 2>/dev/null || {
    echo "skipped: the server was built without xterm.js (no npm registry at build time)"
    exit 77
}

e2e_playwright # sets pw

hport=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
e2e_start_server --set http_port="$hport" --set max_sessions=1
page_line() { grep -q "browser page on http://127.0.0.1:$hport/" "$tmp/server.log"; }
wait_for 30 page_line || fail "no browser page line in the log"

if ! PLAYWRIGHT_CORE=$pw timeout 300 node tests/web/full.mjs \
        "http://127.0.0.1:$hport/play" >"$tmp/full.log" 2>&1; then
    fail "the full-server test failed: $(cat "$tmp/full.log")"
fi
cat "$tmp/full.log"
refused() { grep -q 'refused 127.0.0.1:[0-9]*: close 1013: server full' "$tmp/server.log"; }
refused || fail "the server did not log the page's WebSocket refused with 1013"

e2e_stop_server
echo "passed"
exit 0
