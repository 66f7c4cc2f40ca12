// font.js - the font of a terminal in its box: one search for the play
// page (web/index.html) and the site's watch and replay pages
// (server/site/site_term.c), their differences passed as options.
// docs/telnet.md, "The browser"; docs/site.md, "Watching and replaying in
// the page". web/embed.sh builds it into the server, served at an address
// named by its hash (/font.HASH.js), cached for good.
//
// rogueFont(term, fit, box, opt): term is the xterm.js Terminal opened in
// the element box, fit its FitAddon. The font is the largest that gives
// at least 80x24 in the box: the game's full layout, the whole map. In a
// box too short for 24 rows of cells 16 px tall, 20 rows instead; in a
// box narrower than 80 columns of 8 px (a phone held upright, where 80
// columns are cells of 4 px), cells of 8 px and 40 columns or more. Both
// are the game's narrow layout, a window on the map that follows the
// player (docs/game.md, "Small terminals"), chosen at the same cell, 8x16
// px (a monospace cell's usual 1:2): the smallest the page asks the eye
// to read before it gives up the full layout for a larger font. (The play
// page's own search gave up 24 rows below 24 of 20 px, with no reason
// given; at 1366x450 that was 121x20 in 18.7 px, the map in a window,
// where 24 rows of 17 px, the whole map, fit.) Then
// the terminal is fitted to the box (fit.fit()), which resizes it and so
// makes the page send its size. No cap in pixels on any page: on a big
// screen a cap left the play page's map in the left part of the window,
// black to its right, and the watch page's game a third of the screen.
// Options:
//   cut  at 80 columns or more the box is cut to this many rows (33: the
//        game draws at most 33 there, docs/game.md, "The screen") and
//        narrowed to 80 columns, centred: the site's watch and replay
//        pages, whose game is 80 columns wide (a box the window's width
//        left it flush left, 35 columns of black to its right). The font
//        is then the largest that gives 80 columns and the cut's rows
//        where the box has room for them in cells 16 px tall (the rule
//        for 24 rows above), so that the log's lines are the game's full
//        33 (the box of 70vh gave 24 rows at 1920x1080, 3 log lines);
//        a shorter box, 80x24 as without it. None: the box is left as
//        its page lays it out (the play page's fills the window
//        whatever it holds)
//   room the box is first made no taller than the window's room under
//        its top (toRoom), so that the status line is in the window with
//        the page at its top: the site's pages, whose box begins under
//        the nav and a heading
//   fill at 80 columns or more, a box taller than this many rows (33, as
//        cut) gets rows made taller (xterm.js's lineHeight, up to 1.2
//        times the font's) until this many fill it: the play page on a
//        tablet held upright (768x1024), whose 80 columns make the font
//        small for its height, held 45 rows, the game's 33 at the top
//        and 238 px of black under them (361 px at 820x1180). The page
//        is the whole window: there is no box to cut, and the space is
//        the terminal's. Rows much taller than the font break the map's
//        walls into dashes (a play-test found them at 1.5 on a tablet):
//        past 1.2 the rest is left black.
// The rows and columns needed are worked out from the box as laid out,
// any earlier cut undone first, so that a phone turned back and forth
// gets the same fonts.
function rogueFont(term, fit, box, opt) {
  'use strict';
  const MIN_FONT = 6;
  const cut = opt && opt.cut ? opt.cut : 0;
  const fill = opt && opt.fill ? opt.fill : 0;
  box.style.height = box.style.minHeight = '';
  box.style.width = box.style.marginLeft = '';
  term.options.lineHeight = 1;
  if (opt && opt.room) toRoom(box);
  const r = box.getBoundingClientRect();
  const needCols = r.width >= 80 * 8 ? 80 : Math.max(40, Math.floor(r.width / 8));
  const needRows = cut && needCols >= 80 && r.height >= cut * 16 ? cut
    : r.height >= 24 * 16 ? 24 : 20;
  const fits = (size) => {
    term.options.fontSize = size;
    const d = fit.proposeDimensions();
    return d && d.cols >= needCols && d.rows >= needRows;
  };
  // (no font taller than the box over the rows it needs fits: the
  // search's top)
  let lo = MIN_FONT;
  let hi = Math.max(MIN_FONT, Math.floor(r.height / needRows));
  if (fits(hi)) lo = hi;
  while (hi - lo > 0.25) { // in quarter pixels: the cells fill the width
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid; else hi = mid;
  }
  term.options.fontSize = lo;
  const d = fit.proposeDimensions();
  if (cut && d && d.cols >= 80 && d.rows > cut) {
    // The cut is worked out from the rows proposed, so that a resize fits
    // once and sends one size: the box's height over them is a cell's
    // height, give or take the rounding; cut of them, a little over, are
    // cut rows, never one more.
    box.style.minHeight = '0';
    box.style.height = (r.height * cut / d.rows + 0.05) + 'px';
  }
  if (cut && d && d.cols > 80) {
    // (the cell's width as the fit addon reads it; the addon reads the
    // box's width in whole pixels, so a whole pixel over the 80 cells)
    const cell = term._core._renderService.dimensions.css.cell.width;
    narrow(box, Math.ceil(80 * cell));
  }
  if (fill && d && d.cols >= 80 && d.rows > fill)
    tallRows(term, fit, fill);
  fit.fit();
}

// The box no taller than the window's room below its top (the page
// scrolled to its top), a few px left under it: the site's 85vh box
// began under the nav, the heading and a line of words, and at 1366x768
// ran 40 px below the window, the game's status line out of sight.
function toRoom(box) {
  'use strict';
  const MARGIN = 8;
  const r = box.getBoundingClientRect();
  const room = Math.floor(innerHeight - (r.top + scrollY) - MARGIN);
  if (room < r.height) {
    box.style.minHeight = '0';
    box.style.height = Math.max(0, room) + 'px';
  }
}

// The box `width` px wide, centred in the window: its margin is from the
// middle of its parent (the site's column, itself centred), so that a box
// wider than the column (80 columns of a big screen's font) is centred
// too, where margin auto would leave it flush with the column's left.
function narrow(box, width) {
  'use strict';
  box.style.width = width + 'px';
  box.style.marginLeft = 'calc(50% - ' + (width / 2) + 'px)';
}

// The tallest rows, found to a hundredth of the font's height and at
// most TALL_ROWS_MAX times it, at which the box still holds `rows` of them. The
// search's top is the cap, not
// had / rows: xterm.js rounds a row's height down to whole device
// pixels, so at had / rows (45 / 33 at 768x1024) a row could come out
// shorter than asked and 34 fit, a row of black left under the game (40
// px at a devicePixelRatio of 1); rows only get fewer as they get
// taller, so the search finds the tallest that still gives `rows`.
// (1.5 dashed the walls on a tablet, a play-test found: the DOM renderer
// draws box-drawing glyphs at the font's height, so a taller row leaves a
// gap under each; at 1.2 the gap is a few pixels.)
const TALL_ROWS_MAX = 1.2;
function tallRows(term, fit, rows) {
  'use strict';
  const holds = (h) => {
    term.options.lineHeight = h;
    const d = fit.proposeDimensions();
    return d && d.rows >= rows;
  };
  let lo = 1, hi = TALL_ROWS_MAX;
  if (holds(hi)) lo = hi;
  while (hi - lo > 0.01) {
    const mid = (lo + hi) / 2;
    if (holds(mid)) lo = mid; else hi = mid;
  }
  term.options.lineHeight = lo;
}

// The terminals' colours: xterm.js's own, but for bright black, which the
// game draws hints, "Not logged in", older messages and remembered tiles
// in: xterm.js's #555753 is 2.87:1 on black, under the 4.5:1 text needs
// (WCAG AA); #808080 is 5.3:1, still well dimmer than the white text
// (#d3d7cf is 14:1).
var rogueTheme = { brightBlack: '#808080' };

// The terminals' font: a monospace face with whole box-drawing glyphs
// (the map's walls), the one each system ships first. xterm.js's own
// list begins with Courier New, which a machine with fonts-liberation (or
// Windows) has: its taller cells put 40 rows, not the game's 33, in an
// upright tablet's height (tests/web/webcheck.mjs), and its strokes are
// thin.
var rogueFontFamily = '"DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace';
