#!/usr/bin/env bash
# browser_screens.sh - the browser page on any screen, by touch and across a
# dropped connection, in a real browser (Debian's chromium, headless,
# driven by playwright-core, as browser.sh): tests/web/screens.mjs says
# what it checks (the terminal filling 2560x1440, 1920x1080, 1280x800 and
# a 390x844 phone, and the phone turned sideways; a phone game to depth 3
# by taps; a guest's and an account's game back at the same turn after a
# drop). build/san/tests/web/stairs_plan
# finds the seed and the taps. Screenshots in build/test-logs/web/.
# Then SIGTERM: the server must exit 0.
#
# Exit 0: passed; 1: failed; 77: skipped (as browser.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD

. tests/e2e/lib.bash
if ! tests/install-deps.sh chromium nodejs >/tmp/rogued-screens-install.$$ 2>&1; then
    echo "skipped: chromium or nodejs cannot be installed: $(tail -1 /tmp/rogued-screens-install.$$)"
    rm -f /tmp/rogued-screens-install.$$
    exit 77
fi
rm -f /tmp/rogued-screens-install.$$
e2e_setup browser-screens node chromium curl
grep -q '"/xterm.js"' build/gen/web_assets.c 2>/dev/null || {
    echo "skipped: the server was built without xterm.js (no npm registry at build time)"
    exit 77
}
e2e_playwright # sets pw

plan=$(build/san/tests/web/stairs_plan) || fail "no stairs plan (build/san/tests/web/stairs_plan)"
seed=$(echo "$plan" | sed -n 's/.*"seed":\([0-9]*\).*/\1/p')
hport=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
e2e_start_server --seed "$seed" --set http_port="$hport"
page_line() { grep -q "browser page on http://127.0.0.1:$hport/" "$tmp/server.log"; }
wait_for 30 page_line || fail "no browser page line in the log"

mkdir -p build/test-logs/web
if ! PLAYWRIGHT_CORE=$pw timeout 300 node tests/web/screens.mjs \
        "http://127.0.0.1:$hport/play" "$ROOT/build/test-logs/web" "$plan" >"$tmp/screens.log" 2>&1; then
    fail "the browser test failed: $(cat "$tmp/screens.log")"
fi
cat "$tmp/screens.log"
grep -q 'game kept id=' "$tmp/server.log" || fail "the guest's game was never kept"
grep -q 'game resumed id=' "$tmp/server.log" || fail "no game was resumed"

e2e_stop_server
echo "passed"
exit 0
