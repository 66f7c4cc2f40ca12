/* site_term.c - a terminal in a page (site_term.h). The script is the
 * play page's protocol (docs/telnet.md, "The browser"): binary messages
 * both ways, "size W H" at the start and at each resize. */
#include "site_term.h"

#include <string.h>

#include "web_assets.h"

static const char script[] =
    "<script>\n(function () {\n"
    "var box = document.getElementById('term');\n"
    "var status = document.getElementById('termstatus');\n"
    /* its files refused (a 503: the address's connections a minute, a
     * full server): say so, not "Connecting..." for ever */
    "if (typeof Terminal === 'undefined' || typeof FitAddon === 'undefined' "
    "|| typeof rogueFont === 'undefined') {\n"
    "status.textContent = 'The terminal did not load (the server may be "
    "busy): reload the page in a moment.';\nreturn;\n}\n"
    /* the play page's colours (web/font.js: a bright black readable on
     * black) */
    "var term = new Terminal({ cursorBlink: false, fontSize: 15, "
    "theme: rogueTheme, fontFamily: rogueFontFamily, "
    "scrollback: 0, convertEol: false });\n"
    "var fit = new FitAddon.FitAddon();\n"
    "term.loadAddon(fit);\nterm.open(box);\n"
    /* Tab and Shift+Tab move the focus on, as on the play page: a
     * terminal that took them would trap the keyboard (nothing here
     * wants a Tab) */
    "term.attachCustomKeyEventHandler(function (e) { return e.key !== "
    "'Tab'; });\n"
    /* The font (web/font.js, the play page's search): the largest that
     * gives 80x33 where the box has room (else 80x24), no cap (15 px left
     * the game a small box on a big screen, black around it), and at 80
     * columns or more the box cut to the 33 rows the game draws there
     * (docs/game.md, "The screen"; a taller box would be black under the
     * status line) and narrowed to 80 columns, centred (the game is 80
     * wide: a wider box left it flush left, black to its right). Chosen
     * again at every resize: a phone turned sideways has room for 80
     * columns, and back again not. The box no taller than the room
     * under its top (the status line in the window, the page at its
     * top), but on a phone held sideways, whose box is the window's
     * height (site_html.c: the room under the nav would be 20 rows of
     * 6 px cells): there the page is scrolled to the box. */
    "var sideways = matchMedia('(orientation:landscape) and "
    "(max-height:500px)');\n"
    "function fitBox() {\n"
    "rogueFont(term, fit, box, { cut: 33, room: !sideways.matches });\n"
    "if (sideways.matches) box.scrollIntoView();\n}\n"
    "fitBox();\n"
    "var ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : "
    "'ws://') + location.host + '/ws?' + box.dataset.ws);\n"
    "ws.binaryType = 'arraybuffer';\nvar enc = new TextEncoder();\n"
    "window.rogueFrames = 0;\n"
    "function size() { if (ws.readyState === 1) ws.send('size ' + "
    "term.cols + ' ' + term.rows); }\n"
    /* a watch page's count of watchers (site_watch.c) was taken before
     * this terminal joined them: counted in while it watches */
    "var watching = document.getElementById('watching');\n"
    "function counted(me) { if (!watching) return; "
    "var n = +watching.dataset.others; watching.textContent = me ? "
    "(n + 1) + ' watching, you included' : n + ' watching'; }\n"
    /* the keys the banner names (space, + and -, q) reach the terminal
     * at once on a desktop (a QA pressed + and Space scrolled the page);
     * not on a touch device, whose keyboard would cover the page */
    "var touch = ('ontouchstart' in window) || navigator.maxTouchPoints > 0;\n"
    "ws.onopen = function () { status.textContent = 'Connected.'; size(); "
    "counted(true); if (!touch) term.focus(); };\n"
    /* the screen's bytes only: a text message (the play page's "state
     * NAME", which a site page is not sent) is no frame */
    "ws.onmessage = function (e) { if (typeof e.data === 'string') return; "
    "window.rogueFrames++; term.write(new Uint8Array(e.data)); };\n"
    /* 1013: refused (the server full, the address past a limit): the
     * server's line says why */
    /* its bar goes with it: a key would go nowhere (a review tapped a
     * dead q under "The connection has ended") */
    /* the keys' hint goes too, and the cursor the goodbye showed (a QA
     * found a white block under the line, and "q stops watching") */
    "ws.onclose = function (e) { counted(false); "
    "document.getElementById('termkeys').hidden = true; "
    "var hint = document.getElementById('termhint'); "
    "if (hint) hint.hidden = true; term.write('\\x1b[?25l'); "
    "status.textContent = "
    "e.code === 1013 && e.reason ? e.reason + ' Reload the page to try "
    "again.' : box.dataset.ws.indexOf('replay=') === 0 ? 'The replay has "
    "ended: reload the page to see it again.' : 'The connection has "
    "ended. If the game goes on, reload the page to watch again; Home "
    "lists the games being played.'; };\n"
    "term.onData(function (d) { if (ws.readyState === 1) "
    "ws.send(enc.encode(d)); });\n"
    /* On a touch device, the play page's view bar (no keyboard needed):
     * pause, slower, faster, a turn, leave. A button keeps the focus
     * where it was (no keyboard popping up). */
    "if (touch) {\n"
    "var keys = document.getElementById('termkeys'); keys.hidden = false;\n"
    "keys.querySelectorAll('button').forEach(function (b) {\n"
    "b.addEventListener('pointerdown', function (e) { e.preventDefault(); });\n"
    "b.addEventListener('click', function () { if (ws.readyState === 1) "
    "ws.send(enc.encode(b.dataset.key === 'esc' ? '\\x1b' : b.dataset.key)); });\n"
    "});\n}\n"
    "term.onResize(size);\n"
    "window.addEventListener('resize', fitBox);\n"
    "window.rogueTerm = term;\n"
    "})();\n</script>\n";

/* The play page's view bar (web/index.html), shown by the script on a
 * touch device only: a replay's keys, then leave (all a watch takes: the
 * server ignores a watcher's other keys). */
static const char replay_keys[] =
    "<button data-key=\" \" aria-label=\"pause\">||<small>pause</small></button>"
    "<button data-key=\"-\" aria-label=\"slower\">-<small>slower</small></button>"
    "<button data-key=\"+\" aria-label=\"faster\">+<small>faster</small></button>"
    "<button data-key=\".\" aria-label=\"one turn\">.<small>turn</small></button>";
/* q, as the watch's banner and the replay's help say ("q leaves"); Esc
 * leaves too, but a telnet client's Esc waits out its delay. */
static const char leave_key[] =
    "<button data-key=\"q\" aria-label=\"leave\">q<small>leave</small></button>";

void site_term(page_t *p, const char *ws_what, uint64_t id)
{
    if (!web_terminal_built) {
        html_raw(p, "<p>This server was built without the browser terminal: "
                 "use telnet or SSH to watch.</p>");
        return;
    }
    html_printf(p, "<link rel=\"stylesheet\" href=\"%s\">\n",
                web_xterm_css_url);
    html_printf(p, "<div id=\"term\" class=\"term\" data-ws=\"%s=%llu\">"
                "</div>\n<p id=\"termstatus\">Connecting...</p>\n", ws_what,
                (unsigned long long)id);
    html_raw(p, "<div id=\"termkeys\" class=\"termkeys\" hidden>");
    if (strcmp(ws_what, "replay") == 0)
        html_raw(p, replay_keys);
    html_raw(p, leave_key);
    html_raw(p, "</div>\n");
    /* (the terminal's files at their hashed, cached addresses) */
    html_printf(p, "<script src=\"%s\"></script><script src=\"%s\">"
                "</script><script src=\"%s\"></script>\n", web_xterm_js_url,
                web_fit_js_url, web_font_js_url);
    html_raw(p, script);
}
