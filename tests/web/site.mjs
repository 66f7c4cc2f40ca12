// site.mjs BASE OUTDIR - the site's pages (docs/site.md) in a real browser
// (Debian's chromium, headless, driven by playwright-core), as a visitor
// sees them. A front page open from before the game lists it a minute later,
// in place (on a clock the test moves). A player opens the play page (/play) by the front page's Play
// button and plays a guest game; the front page (/; /home too) lists the
// live game; its Watch link opens the watch page, which counts itself
// among the watchers once its terminal watches, and whose
// terminal shows the player's moves as they are made. The player then
// rests until the game is ranked (dead, or quit after 100 turns); the hall
// of fame (/scores) links it; its page (/game/ID) shows the dump and its
// replay plays (the replay's turn counter advances), its terminal
// focused on a desktop (+ speeds it up, no click first); q on either ends
// its connection with the server's line, never the lobby; no line of the
// dump wraps, at either size (its map would fall apart), and the watch
// and game pages' terminals end with the game's status line; with its
// terminal's script refused (503) the page says so. Every page is
// screenshot at 1280x800 and 390x844 into OUTDIR (site-PAGE-WxH.png), and
// a phone's page must not scroll sideways. On the phone the watch and game
// pages' terminals are readable upright (cells of 7.5 px or more) and chosen
// again when it is turned sideways (80x24 or more, the box in the window:
// site-PAGE-844x390.png). Both pages' font is the one web/font.js chooses,
// called with each page's options (sharedFont). Exit 0 on success; a
// failure throws with what was on the screen.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const [base, outdir] = process.argv.slice(2);
const DEADLINE = 30000;
const SIZES = [[1280, 800], [390, 844]];
// The player's name: 20 letters (the most), the widest one.
const NAME = 'WWWWWWWWWWWWWWWWWWWW';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
         '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
fs.mkdirSync(outdir, { recursive: true });
const pages = [];
const rowsOf = (page) => page.$$eval('.xterm-rows > div', (ds) => ds.map((d) => d.textContent));
const screenOf = async (page) => (await rowsOf(page)).join('\n');
const waitText = async (page, text) => {
  const t0 = Date.now();
  for (;;) {
    const s = await screenOf(page);
    if (s.includes(text)) return s;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`no "${text}" on ${page.url()} within ${DEADLINE} ms:\n${s}`);
    await page.waitForTimeout(50);
  }
};
const turn = (s) => { /* "Turn:N", or "T:N" where the status line is shortened to its width */ const m = s.match(/(?:Turn:\s*|\bT:)(\d+)/); return m ? Number(m[1]) : -1; };
const waitTurn = async (page, want) => {
  const t0 = Date.now();
  for (;;) {
    const s = await screenOf(page);
    if (turn(s) === want) return s;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`${page.url()} is not at turn ${want}:\n${s}`);
    await page.waitForTimeout(30);
  }
};
// The first turn past `after` the page shows (for keys that may take none).
const waitTurnPast = async (page, after) => {
  const t0 = Date.now();
  for (;;) {
    const s = await screenOf(page);
    if (turn(s) > after) return turn(s);
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`${page.url()} is not past turn ${after}:\n${s}`);
    await page.waitForTimeout(30);
  }
};
// The game is drawn at 80 columns or more, where everything under its
// status line (row 32 at most: docs/game.md, "The screen") is blank: a
// page's terminal box ends with the status line, not with an empty void.
const statusLast = async (page, w) => {
  const s = await waitText(page, 'HP:');
  const rows = s.split('\n');
  if (!rows[rows.length - 1].includes('HP:'))
    throw new Error(`at ${w} px ${page.url()}'s terminal has ${rows.length} rows, ` +
                    `the status line not the last:\n${s}`);
};
// A page's terminal as it stands: its size in cells, a cell's width, and
// its box against the window.
const termOf = (page) => page.evaluate(() => {
  const t = window.rogueTerm;
  const r = document.querySelector('#term .xterm-screen').getBoundingClientRect();
  const b = document.getElementById('term').getBoundingClientRect();
  return { cols: t.cols, rows: t.rows, font: t.options.fontSize, cell: r.width / t.cols,
           boxH: Math.round(b.height), vw: innerWidth, vh: innerHeight };
});
const waitTerm = async (page, what, test) => {
  const t0 = Date.now();
  for (;;) {
    const m = await termOf(page);
    if (test(m)) return m;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`${page.url()}: no ${what} within ${DEADLINE} ms: ${JSON.stringify(m)}`);
    await page.waitForTimeout(50);
  }
};
// The server's redraw at a new size: the status line on the last row.
const waitStatusLast = async (page) => {
  const t0 = Date.now();
  for (;;) {
    const rows = await rowsOf(page);
    if (rows.length && rows[rows.length - 1].includes('HP:')) return;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`${page.url()}: the status line is not the last row:\n${rows.join('\n')}`);
    await page.waitForTimeout(50);
  }
};
// A watch or game page on a phone, turned. Upright, 80 columns would be
// cells of 4 px: the terminal takes cells of about 8 px instead (7.5 or
// more; the game's narrow layout, a window on the map that follows the
// player, as the phone's play page has). Sideways the font is chosen again, not kept
// from the load: at least 80x24 (the whole map) in cells of 7.5 px or
// more, the box no taller than the window (it is seen whole); upright
// again as before. A screenshot sideways (site-NAME-844x390.png).
const phoneTurns = async (page, name) => {
  const up = await waitTerm(page, 'cells of 7.5 px upright', (m) => m.cell >= 7.5 && m.cols >= 40);
  await page.setViewportSize({ width: 844, height: 390 });
  const side = await waitTerm(page, 'sideways 80x24 in cells of 7.5 px, in the window',
    (m) => m.vw === 844 && m.cols >= 80 && m.rows >= 24 && m.cell >= 7.5 && m.boxH <= m.vh);
  await waitStatusLast(page);
  await page.locator('#term').scrollIntoViewIfNeeded();
  const shot = path.join(outdir, `site-${name}-844x390.png`);
  await page.screenshot({ path: shot });
  await page.setViewportSize({ width: 390, height: 844 });
  await waitTerm(page, `${up.cols}x${up.rows} upright again`,
                 (m) => m.vw === 390 && m.cols === up.cols && m.rows === up.rows);
  await waitStatusLast(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  console.log(`ok: ${page.url()} on a phone: upright ${up.cols}x${up.rows} (cells ${up.cell.toFixed(2)} px), ` +
              `sideways ${side.cols}x${side.rows} (cells ${side.cell.toFixed(2)} px), ${shot}`);
};
// Both pages' font is web/font.js's, one search for both (docs/telnet.md,
// "The browser"): each page loads it and calls it, at its load and again
// at a resize, with its own options (the watch page: cut to 33 rows and
// the room under its top; the
// play page: 33 rows made taller to fill it), and its terminal is left as
// that call left it. The script is served here with a wrapper that notes each
// call and the terminal after it; a page with a search of its own, or
// none, has no calls. A phone upright, where both take cells of 8 px or
// so; a desktop, where both fonts are larger than the watch page's old
// cap (15 px); the desktop's window 450 px high, where both keep 24 rows
// (the full map: the box is taller than 24 rows of cells 16 px tall; the
// play page took 20 rows there in 18.7 px before the two searches were
// one, its threshold 24 rows of 20 px).
const FONT_SPY = `
;{ const shared = rogueFont;
  rogueFont = function (term, fit, box, opt) {
    shared(term, fit, box, opt);
    (window.rogueFontCalls = window.rogueFontCalls || []).push({ opt: opt || {},
      font: term.options.fontSize, cols: term.cols, rows: term.rows });
  };
}
`;
// q on a watch or game page's terminal ends its watch or replay, and the
// connection, with the server's line in the terminal and the page's under
// it: not the lobby's menu (the server's, for the play page) under the
// page's heading.
const leaves = async (page, line, under) => {
  await page.locator('#term').click();
  await page.keyboard.press('q');
  const s = await waitText(page, line);
  const t0 = Date.now();
  while (!/has ended/.test(await page.locator('#termstatus').textContent())) {
    if (Date.now() - t0 > DEADLINE) throw new Error(`${page.url()}: no end under the terminal`);
    await page.waitForTimeout(50);
  }
  const said = await page.locator('#termstatus').textContent();
  if (said !== under)
    throw new Error(`${page.url()}: under the terminal "${said}", not "${under}"`);
  if (/Play \(as a guest\)|Watch a game/.test(await screenOf(page)))
    throw new Error(`${page.url()}: q shows the lobby:\n${await screenOf(page)}`);
  // no key hint left under it ("q stops watching": a QA), and the
  // goodbye's cursor hidden
  if (await page.locator('#termhint:visible').count() !== 0)
    throw new Error(`${page.url()}: the keys' hint is still shown after the end`);
  const cursors = await page.locator('.xterm-rows .xterm-cursor').count();
  if (cursors !== 0)
    throw new Error(`${page.url()}: a cursor is drawn after the end (${cursors})`);
  console.log(`ok: q on ${page.url()} ends it: "${line}", no lobby`);
  return s;
};
const sharedFont = async (watchUrl) => {
  // (the watch page's box no taller than the room under its top, but
  // in a window in landscape at most 500 px high, a phone held sideways,
  // where it is the window's height: 1366x450)
  const want = (name, m) => JSON.stringify(name === 'play' ? { fill: 33 }
    : { cut: 33, room: !(m.vw > m.vh && m.vh <= 500) });
  const check = async (page, name, what, test) => {
    const t0 = Date.now();
    for (;;) {
      const m = await page.evaluate(() => {
        const t = window.rogueTerm || term; // (the play page's is a const)
        const s = document.querySelector('.xterm-screen').getBoundingClientRect();
        return { calls: window.rogueFontCalls || [], vw: innerWidth, vh: innerHeight,
                 font: t.options.fontSize, cols: t.cols, rows: t.rows, cell: s.width / t.cols };
      });
      const last = m.calls[m.calls.length - 1];
      const mine = last && JSON.stringify(last.opt) === want(name, m) &&
                   last.font === m.font && last.cols === m.cols && last.rows === m.rows;
      if (mine && test(m)) return m;
      if (Date.now() - t0 > DEADLINE)
        throw new Error(`the ${name} page at ${m.vw}x${m.vh}: not ${what} by web/font.js ` +
                        `(calls ${JSON.stringify(m.calls)}, ${m.cols}x${m.rows} in ${m.font} px)`);
      await page.waitForTimeout(50);
    }
  };
  for (const [name, url, ready] of [['play', base + '/play', 'Play (as a guest)'],
                                    ['watch', watchUrl, 'HP:']]) {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 },
                                             isMobile: true, hasTouch: true });
    const desk = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    try {
      for (const ctx of [phone, desk])
        await ctx.route(/\/font\.[0-9a-f]{16}\.js$/, async (route) => {
          const r = await route.fetch();
          await route.fulfill({ response: r, body: (await r.text()) + FONT_SPY });
        });
      const p = await phone.newPage();
      await p.goto(url);
      await waitText(p, ready);
      const up = await check(p, name, 'cells of 7.5 px, 40 columns or more',
                             (m) => m.cell >= 7.5 && m.cols >= 40 && m.cols < 80);
      const d = await desk.newPage();
      await d.goto(url);
      await waitText(d, ready);
      const big = await check(d, name, '80x24 in more than 15 px',
        (m) => m.cols >= 80 && m.rows >= 24 && m.rows <= 33 && m.font > 15);
      const n = (await d.evaluate(() => window.rogueFontCalls.length));
      await d.setViewportSize({ width: 1366, height: 450 });
      const low = await check(d, name, '80x24 again at the resize',
        (m) => m.vh === 450 && m.calls.length > n && m.cols >= 80 && m.rows >= 24);
      console.log(`ok: the ${name} page's font is web/font.js's: ${up.cols}x${up.rows} in ` +
                  `${up.font} px at 390x844, ${big.cols}x${big.rows} in ${big.font} px at ` +
                  `1366x768, ${low.cols}x${low.rows} in ${low.font} px at 1366x450`);
    } finally {
      await phone.close();
      await desk.close();
    }
  }
};
// A page at both sizes: loaded, checked by fn, screenshot.
const shoot = async (ctxs, url, name, fn) => {
  for (const [w, h] of SIZES) {
    const page = await ctxs[`${w}x${h}`].newPage();
    pages.push(page);
    const r = await page.goto(url);
    if (!r.ok()) throw new Error(`${url}: HTTP ${r.status()}`);
    if (fn) await fn(page, w);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > w + 1) throw new Error(`${url} at ${w}x${h} scrolls sideways (${wide} px wide)`);
    const shot = path.join(outdir, `site-${name}-${w}x${h}.png`);
    await page.screenshot({ path: shot });
    const png = fs.readFileSync(shot);
    if (png.length < 3000 || png.readUInt32BE(0) !== 0x89504e47)
      throw new Error(`the screenshot ${shot} is not a real picture (${png.length} bytes)`);
    console.log(`ok: ${shot}`);
  }
};

let player;
try {
  const ctxs = {};
  for (const [w, h] of SIZES)
    ctxs[`${w}x${h}`] = await browser.newContext({ viewport: { width: w, height: h },
                                                   isMobile: w < 500, hasTouch: w < 500 });
  // The player: the front page's Play button opens the play page, which
  // links the front page back.
  const pctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // A front page open from before the game, on a clock the test moves: it
  // fetches its lists again every 20 s, in place (no reload).
  // (a context of its own: its clock stands still but when moved)
  const fctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const front = await fctx.newPage();
  pages.push(front);
  const t00 = Date.now();
  await front.clock.install({ time: t00 });
  await front.clock.pauseAt(t00 + 1000);
  await front.goto(base + '/');
  await front.locator('#nogames').waitFor({ timeout: DEADLINE });
  await front.evaluate(() => { window.rogueSamePage = 1; });
  player = await pctx.newPage();
  await player.goto(base + '/');
  await player.locator('a.play').click();
  await player.waitForURL('**/play');
  await waitText(player, 'Play (as a guest)');
  if (await player.locator('#site a[href="/"]').count() !== 1)
    throw new Error('the play page does not link the front page');
  await player.locator('.xterm').click();
  await player.keyboard.press('p');
  await waitText(player, 'Name: guest');
  // the longest name, of the widest letter: no page may scroll sideways
  // with it on a phone (tables widened to 418 px at 390: a QA find)
  await player.keyboard.press('Control+U');
  await player.keyboard.type(NAME);
  await player.keyboard.press('Enter');
  const t0 = turn(await waitText(player, 'HP:'));
  await player.keyboard.press('.');
  await waitTurn(player, t0 + 1);

  // The front page open since before the game lists it a minute on, in
  // place.
  await front.clock.runFor(59000);
  if (await front.locator('#games').count() !== 0)
    throw new Error('the front page refreshed before its minute');
  await front.clock.runFor(1500);
  await front.locator('#games tr', { hasText: NAME }).waitFor({ timeout: DEADLINE });
  if (await front.locator('#nogames').count() !== 0 ||
      await front.evaluate(() => window.rogueSamePage) !== 1)
    throw new Error('the front page was not refreshed in place');
  console.log('ok: a front page open before the game lists it a minute later, without a reload');
  // A refresh that changes nothing leaves the page as it is: a reader's
  // focus on a Watch link stays (it fell back to the page: a QA). One
  // that fails says the lists may be out of date, until one succeeds.
  await front.locator('#games a').first().focus();
  const same = front.waitForResponse((r) => r.url() === base + '/');
  await front.clock.runFor(61000);
  await same;
  await front.waitForFunction(() => document.getElementById('stale').hidden);
  if (!(await front.evaluate(() => document.activeElement &&
                                   document.activeElement.closest('#games'))))
    throw new Error('a refresh that changed nothing took the focus off the Watch link');
  await front.route(base + '/', (r) => r.abort());
  await front.clock.runFor(61000);
  await front.locator('#stale').waitFor({ state: 'visible', timeout: DEADLINE });
  await front.unroute(base + '/');
  await front.clock.runFor(121000); // twice as long after a failure
  await front.locator('#stale').waitFor({ state: 'hidden', timeout: DEADLINE });
  console.log('ok: a refresh that changes nothing keeps the focus; a failed one says the lists may be out of date');

  // The front page lists the game; its Watch link watches it.
  let watchHref;
  await shoot(ctxs, base + '/', 'home', async (page) => {
    const row = page.locator('#games tr', { hasText: NAME });
    await row.waitFor({ timeout: DEADLINE });
    const cells = await row.locator('td').allTextContents();
    if (cells[0] !== NAME || cells[1] !== '1' || cells[2] !== String(t0 + 1))
      throw new Error('the front page\'s row of the game: ' + JSON.stringify(cells));
    watchHref = await row.locator('a', { hasText: 'Watch' }).getAttribute('href');
    if (!(await page.locator('a.play').isVisible()))
      throw new Error('no Play button on the front page');
  });
  const watch = await ctxs['1280x800'].newPage();
  pages.push(watch);
  await watch.goto(base + '/home'); // the front page's old address
  await watch.locator('#games a', { hasText: 'Watch' }).first().click();
  await watch.waitForURL('**' + watchHref);
  await waitText(watch, `Watching ${NAME} - q leaves`);
  // its own terminal is counted among the watchers (not "0 watching")
  const where = await (await watch.waitForFunction(() => {
    const e = document.getElementById('where');
    return e && /you included/.test(e.textContent) ? e.textContent : null;
  }, null, { timeout: DEADLINE })).jsonValue();
  if (!/, 1 watching, you included\.$/.test(where))
    throw new Error(`the watch page says "${where}"`);
  console.log(`ok: the watch page says "${where}"`);
  // the player's moves, seen on the watch page as they are made
  let t = t0 + 1;
  await waitTurn(watch, t);
  for (const key of ['l', 'h', '.', 'j', 'k']) {
    // a move into a wall takes no turn: a rest after it always takes one
    await player.keyboard.press(key);
    await player.keyboard.press('.');
    t = await waitTurnPast(player, t);
    await waitTurnPast(watch, t - 1);
  }
  console.log(`ok: the watch page ${watchHref} followed the player to turn ${t}`);
  await shoot(ctxs, base + watchHref, 'watch', async (page, w) => {
    await waitText(page, NAME);
    await statusLast(page, w);
    if (w < 500) await phoneTurns(page, 'watch');
  });

  await sharedFont(base + watchHref);
  await leaves(watch, 'You have stopped watching.', 'The connection has ended. '
    + 'If the game goes on, reload the page to watch again; Home lists the '
    + 'games being played.');

  // Rest until the game is ranked: dead, or quit past 100 turns.
  let dead = false;
  for (let i = 0; i < 400 && !dead && t <= 105; i++) {
    await player.keyboard.press('.');
    const t1 = Date.now();
    for (;;) {
      const s = await screenOf(player);
      if (s.includes('YOU DIED')) { dead = true; break; }
      if (turn(s) > t) { t = turn(s); break; }
      if (Date.now() - t1 > DEADLINE) throw new Error('a wait took no turn:\n' + s);
      await player.waitForTimeout(10);
    }
  }
  if (dead) {
    await player.keyboard.press('q');
  } else {
    await player.keyboard.press('Q');
    await waitText(player, 'Really quit? (y/n)');
    await player.keyboard.press('y');
  }
  await waitText(player, `Play as ${NAME}`);
  console.log(`ok: the game ended (${dead ? 'a death' : 'a quit'} at turn ${t})`);

  // The hall of fame links it; its page shows the dump and replays it.
  let gameHref;
  await shoot(ctxs, base + '/scores', 'scores', async (page) => {
    const t1 = Date.now();
    for (;;) {
      const link = page.locator('#scores a', { hasText: NAME });
      if (await link.count() > 0) { gameHref = await link.first().getAttribute('href'); break; }
      if (Date.now() - t1 > DEADLINE) throw new Error(`the hall of fame has no ${NAME}:\n` + await page.content());
      await page.waitForTimeout(200);
      await page.reload();
    }
  });
  const game = await ctxs['1280x800'].newPage();
  pages.push(game);
  await game.goto(base + '/scores');
  await game.locator('#scores a', { hasText: NAME }).first().click();
  await game.waitForURL('**' + gameHref);
  // The page's dump is the core's: the same text as the export writes.
  const dump = await game.locator('#dump').textContent();
  const id = gameHref.split('/').pop();
  const golden = execFileSync(process.env.ROGUED_EXPORT_BIN,
    ['--config', '/dev/null', '--data-dir', process.env.ROGUED_EXPORT_DATA,
     '--export', id, '--format', 'dump', '-'], { encoding: 'utf8' });
  if (dump.trimEnd() !== golden.trimEnd() ||
      !dump.includes(`${dead ? 'killed' : 'quit'}`))
    throw new Error('the game page\'s dump:\n' + dump + '\nnot the export\'s:\n' + golden);
  console.log(`ok: the game page's dump is the export's (${golden.split('\n').length} lines)`);
  await waitText(game, `Replay: ${NAME}`);
  const r0 = turn(await screenOf(game));
  const t2 = Date.now();
  let r1 = r0;
  while (r1 <= r0 + 2) {
    if (Date.now() - t2 > DEADLINE) throw new Error(`the replay did not play (turn ${r0} -> ${r1}):\n` + await screenOf(game));
    await game.waitForTimeout(100);
    r1 = turn(await screenOf(game));
  }
  console.log(`ok: ${gameHref} replays (turn ${r0} -> ${r1})`);
  // The keys its banner names reach the terminal with no click first: it
  // has the focus on a desktop (+ did nothing, Space scrolled the page)
  const focused = await game.evaluate(() => document.activeElement &&
    document.activeElement.classList.contains('xterm-helper-textarea'));
  if (!focused) throw new Error(`${gameHref}: the terminal has not the focus`);
  await game.keyboard.press('+');
  await waitText(game, ', 20 keys/s');
  console.log(`ok: ${gameHref}'s terminal has the focus: + went to 20/s`);
  // (a replay's page says so, not a watch's "while the game goes on")
  await leaves(game, 'The replay has ended.', 'The replay has ended: reload '
    + 'the page to see it again.');
  await shoot(ctxs, base + gameHref, 'game', async (page, w) => {
    await page.locator('#dump').waitFor();
    await waitText(page, NAME); // (on a phone the line's short form)
    await statusLast(page, w);
    if (w < 500) await phoneTurns(page, 'game');
    // The dump is 80 columns of text with a map in it: each of its lines
    // is one line on the screen, at any width (the box scrolls sideways
    // on a phone), or the map falls apart.
    const broken = await page.evaluate(() => {
      const text = document.getElementById('dump').firstChild;
      const out = [];
      let at = 0;
      for (const line of text.data.split('\n')) {
        if (line.trim()) {
          const r = document.createRange();
          r.setStart(text, at);
          r.setEnd(text, at + line.length);
          const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
          if (tops.size > 1) out.push(line);
        }
        at += line.length + 1;
      }
      return out;
    });
    if (broken.length)
      throw new Error(`at ${w} px the dump wraps ${broken.length} line(s), ` +
                      `the first: ${JSON.stringify(broken[0])}`);
  });
  const feed = await (await game.request.get(base + '/games.json')).json();
  if (!feed.games.some((g) => g.name === NAME && '/game/' + g.id === gameHref))
    throw new Error('the feed lacks the game: ' + JSON.stringify(feed));
  console.log('ok: /games.json lists it');
  // The terminal's script refused (503, as an address past its connections
  // a minute is answered): the game's page says so under its box.
  const busy = await ctxs['1280x800'].newPage();
  pages.push(busy);
  await busy.route('**/xterm.*js', (r) => r.fulfill({ status: 503, contentType: 'text/plain', body: 'busy\n' }));
  await busy.goto(base + gameHref);
  const said = await busy.locator('#termstatus').textContent();
  if (!/did not load/.test(said))
    throw new Error(`the game page without its terminal's script says "${said}"`);
  console.log(`ok: without its terminal's script ${gameHref} says "${said}"`);
} catch (e) {
  for (const [i, p] of [player, ...pages].entries()) {
    try { if (p) await p.screenshot({ path: path.join(outdir, `site-failed-${i}.png`) }); } catch {}
  }
  console.error(String(e && e.stack || e));
  await browser.close();
  process.exit(1);
}
await browser.close();
