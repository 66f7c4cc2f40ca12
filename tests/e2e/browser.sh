#!/usr/bin/env bash
# browser.sh - the browser page in a real browser: Debian's chromium,
# headless, driven by playwright-core (from the npm registry, pinned and
# SHA-512 checked in tests/web/playwright.lock), plays a guest game through
# http_port; tests/web/browser.mjs says what it checks (lobby, a guest game,
# moves, a resize the view follows, a screenshot checked, a scroll aimed
# with a mouse click: build/san/tests/web/fireball_plan finds the seed).
# Then SIGTERM: the server must exit 0.
#
# Installs chromium and nodejs when missing. Exit 0: passed; 1: failed;
# 77: skipped, only when they cannot be installed or playwright-core cannot
# be fetched (it says which).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

. tests/e2e/lib.bash
if ! tests/install-deps.sh chromium nodejs >/tmp/rogued-browser-install.$$ 2>&1; then
    echo "skipped: chromium or nodejs cannot be installed: $(tail -1 /tmp/rogued-browser-install.$$)"
    rm -f /tmp/rogued-browser-install.$$
    exit 77
fi
rm -f /tmp/rogued-browser-install.$$
e2e_setup browser node chromium curl
grep -q '"/xterm.js"' build/gen/web_assets.c 2>/dev/null || {
    echo "skipped: the server was built without xterm.js (no npm registry at build time)"
    exit 77
}

e2e_playwright # sets pw

# A free port for the page: bound by the kernel, then given to the server.
plan=$(build/san/tests/web/fireball_plan) || fail "no fireball plan (build/san/tests/web/fireball_plan)"
seed=$(echo "$plan" | sed -n 's/.*"seed":\([0-9]*\).*/\1/p')
hport=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
e2e_start_server --seed "$seed" --set http_port="$hport"
page_line() { grep -q "browser page on http://127.0.0.1:$hport/" "$tmp/server.log"; }
wait_for 30 page_line || fail "no browser page line in the log"

mkdir -p build/test-logs
if ! PLAYWRIGHT_CORE=$pw timeout 300 node tests/web/browser.mjs \
        "http://127.0.0.1:$hport/play" "$ROOT/build/test-logs" "$plan" >"$tmp/browser.log" 2>&1; then
    fail "the browser test failed: $(cat "$tmp/browser.log")"
fi
cat "$tmp/browser.log"
played() { grep -q 'connect 127.0.0.1:[0-9]* id=[0-9]* worker=' "$tmp/server.log"; }
played || fail "the page's WebSocket never became a session"

e2e_stop_server
echo "passed"
exit 0
