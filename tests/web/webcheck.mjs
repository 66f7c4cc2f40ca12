// webcheck.mjs URL OUTDIR - what a tester's check of the play page in
// headless chromium found, each checked as the player meets it (Debian's
// chromium, headless, driven by playwright-core); tests/e2e/
// browser_webcheck.sh runs it against a server:
//
// 1. The device's keyboard open: a 360x640 phone upright, in a game, its
//    keyboard button tapped, made 360x352 (Android's resizes-content):
//    the pad and the site's line go, the commands stay in one row at the
//    foot, the terminal at least 40x20, 90% of the width, not "Enlarge";
//    the same without the focus (the height shrank, the width did not);
//    back at 360x640 the pad is there again; turned to 640x162 with the
//    terminal focused, the same layout. Held sideways (844x390 made
//    844x176, 640x360 made 640x162): every button in view, 40 px tall or
//    more. A page loaded at 360x352 is no phone held sideways: the bar at
//    the foot, the game 40x20 or more. (OUTDIR/webcheck-360x352.png,
//    webcheck-844x176.png, webcheck-640x162.png,
//    webcheck-360x352-loaded.png)
// 2. The heartbeat (its times shortened by window.rogueBeat, set before
//    the page runs): over a live connection each "ping" is answered (the
//    pings go on, the bar never says "No answer"); a connection stalled
//    by a proxy (no data either way, no close) gets "No answer from the
//    server: your keys wait..." on the bar, then the page reconnects by
//    itself and is back in the game at the same turn
//    (OUTDIR/webcheck-stalled.png).
// 3. Tab and Shift+Tab leave the terminal, on /play and on the site's
//    watch page: Shift+Tab reaches the link before it.
// 4. Words for a screen reader: the key bar's buttons' aria-labels, the
//    bar at the top a polite status, the title "rogued: play" (the front
//    page's its own).
// 5. The viewport lets a player zoom (no maximum-scale, no
//    user-scalable=no), and a double tap on the pad does not.
// 6. Contrast: the lobby's "Not logged in" (bright black) is 4.5:1 or
//    more on black and dimmer than the white text; the front page's Play
//    button 4.5:1 or more; the watch page's terminal the same colours.
// 7. The game's key bar has y and n; every button 40 px tall or more
//    (360x640, 844x390).
// 8. The watch page's view bar on a phone (390x844, touch): one button,
//    leave, 40 px tall or more, and a tap on it ends the watch
//    (OUTDIR/webcheck-watch-390x844.png).
// 9. A tablet held upright (768x1024, 820x1180, touch): the play page's
//    80 columns left room for 45 and 51 rows, the game's 33 at the top
//    and 238 and 361 px of black under them: the rows are made taller,
//    up to 1.2 times the font's (1.5 dashed the map's walls, a play-test
//    found), its status line the last row the game draws, less black
//    under it than before (OUTDIR/webcheck-tablet-WxH-DPR.png), at
//    devicePixelRatio 2 and at 1 and 1.5 too, where xterm.js rounds a row
//    down to whole device pixels. A desktop window held upright
//    (800x1280) gets rows 1.2 times the font's, the rest black. The phone
//    (360x640) and the desktop (1920x1080) keep their layout: 40 columns
//    or more upright, 80x24 on the desktop, in rows of the font's own
//    height (OUTDIR/webcheck-play-WxH-DPR.png).
// 10. The site's watch and replay pages (1280x800, 1366x768, 1920x1080,
//    2560x1440): the terminal is the game's 80 columns, centred (its
//    margins left and right within 2 px; a box the window's width left
//    the game flush left, 35 columns of black to its right), 33 rows
//    (the log's lines all the game's: 24 rows at 1920x1080 left it 3)
//    in 15 px or more, over 15 at 1920x1080, the status line its last
//    row (OUTDIR/webcheck-watch-WxH.png, webcheck-replay-WxH.png; the
//    phone's watch and replay pages at 360x640 and 844x390 too, 40x20 or
//    more). At every size the status line ends inside the window, the
//    page at its top (the box 85vh under the nav and heading ran 40 px
//    past the window at 1366x768), and a watch page made smaller
//    (1920x1080 to 1366x768) keeps it there, 80x33 still.
// 11. The site's nav on a phone (360x640) and a desktop: Home, Play,
//    Hall of fame, each link 44x44 px or more, in one row inside the
//    window (OUTDIR/webcheck-nav-PAGE-WxH.png: front, scores, watch).
//    The front page's table links (a game's Watch, a name) 44 px or more
//    on a phone (360x640, touch), their words' height with a mouse.
// 12. The nav has no link to the feed (/games.json, raw JSON in a
//    person's browser): the page's head names it (<link rel="alternate"
//    type="application/json" href="/games.json">), and the front page
//    says in words where the feeds are.
// Exit 0 on success; any failure throws with what was on the screen.
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const [url, outdir] = process.argv.slice(2);
const base = new URL(url);
const DEADLINE = 30000;
fs.mkdirSync(outdir, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
         '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});

// --- what the page shows -------------------------------------------------
const rows = (page) => page.$$eval('.xterm-rows > div', (ds) => ds.map((d) => d.textContent));
const screen = async (page) => (await rows(page)).join('\n');
async function until(what, test, page) {
  const t0 = Date.now();
  for (;;) {
    const v = await test();
    if (v) return v;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`no ${what} within ${DEADLINE} ms` +
                      (page ? `:\n${await screen(page)}` : ''));
    await new Promise((r) => setTimeout(r, 50));
  }
}
const waitText = (page, text) => until(`"${text}"`, async () => {
  const s = await screen(page);
  return s.includes(text) ? s : null;
}, page);
const turn = (s) => { const m = s.match(/(?:Turn:\s*|\bT:)(\d+)/); return m ? Number(m[1]) : -1; };
async function shot(page, name) {
  const file = path.join(outdir, name);
  await page.screenshot({ path: file });
  const png = fs.readFileSync(file);
  if (png.length < 3000 || png.readUInt32BE(0) !== 0x89504e47)
    throw new Error(`the screenshot ${file} is not a real picture`);
  return file;
}
// The terminal's size and box, the layout's class, and every button in
// view with its box.
const layoutOf = (page) => page.evaluate(() => {
  const r = document.querySelector('.xterm-screen').getBoundingClientRect();
  const vis = (el) => el.checkVisibility();
  return {
    cols: term.cols, rows: term.rows, w: r.width, h: r.height,
    vw: window.innerWidth, vh: window.innerHeight,
    kbd: document.body.classList.contains('kbd'),
    site: vis(document.getElementById('site')),
    buttons: [...document.querySelectorAll('#keys button')].filter(vis).map((b) => {
      const q = b.getBoundingClientRect();
      return { key: b.dataset.key, top: q.top, left: q.left, bottom: q.bottom,
               right: q.right, h: q.height };
    }),
  };
});
// Every button in view inside the window and 40 px tall or more.
function buttonsFit(m, where) {
  for (const b of m.buttons) {
    if (b.h < 40 - 0.01)
      throw new Error(`${where}: button ${b.key} is ${b.h} px tall: ${JSON.stringify(m)}`);
    if (b.top < 0 || b.left < 0 || b.bottom > m.vh + 0.5 || b.right > m.vw + 0.5)
      throw new Error(`${where}: button ${b.key} is off the screen: ${JSON.stringify(b)} in ${m.vw}x${m.vh}`);
  }
}
// WCAG's contrast of two "rgb(r, g, b)" colours.
function lum(css) {
  const [r, g, b] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q);
  return (y + 0.05) / (x + 0.05);
};

async function phone(width, height) {
  const context = await browser.newContext({
    viewport: { width, height }, screen: { width, height },
    isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
  const page = await context.newPage();
  await page.goto(url);
  await waitText(page, 'Play (as a guest)');
  return { context, page };
}
const tap = (page, key) => page.tap(`#keys button[data-key="${key}"]:visible`);
// From the lobby into a guest's game by taps: p, Enter.
async function tapIntoGame(page) {
  await tap(page, 'p');
  await waitText(page, 'Name: guest');
  await tap(page, 'enter');
  await until('the game', async () => turn(await screen(page)) === 0, page);
}

// --- 1 and 7. the keyboard open; the game's bar ----------------------------
async function keyboardUpright() {
  const { context, page } = await phone(360, 640);
  await tapIntoGame(page);
  let m = await layoutOf(page);
  const keys = m.buttons.map((b) => b.key);
  for (const k of ['y', 'n', '7', '.', 'esc', 'enter', 'kbd'])
    if (!keys.includes(k)) throw new Error(`the game's bar has no ${k}: [${keys}]`);
  buttonsFit(m, '360x640');
  const pads = (l) => l.buttons.filter((b) => /^[1-9.]$/.test(b.key)).length;
  const open = async (why) => {
    await page.setViewportSize({ width: 360, height: 352 });
    m = await until(`the keyboard's layout ${why}`, async () => {
      const l = await layoutOf(page);
      return l.vh === 352 && l.kbd ? l : null;
    }, page);
    const s = await waitText(page, 'HP:');
    const why2 = `360x352 ${why}: ${JSON.stringify({ ...m, buttons: m.buttons.length })}`;
    if (s.includes('Enlarge')) throw new Error(`${why2}: the game says Enlarge:\n${s}`);
    if (m.cols < 40 || m.rows < 20) throw new Error(`${why2}: under 40x20`);
    if (m.w < 0.9 * 360) throw new Error(`${why2}: the terminal under 90% of the width`);
    if (pads(m) !== 0) throw new Error(`${why2}: the pad is still there`);
    if (m.site) throw new Error(`${why2}: the site's line is still there`);
    const tops = new Set(m.buttons.map((b) => Math.round(b.top)));
    if (tops.size !== 1 || m.buttons.length !== 10)
      throw new Error(`${why2}: the commands are not one row of 10: ${JSON.stringify(m.buttons)}`);
    buttonsFit(m, why2);
    return why2;
  };
  const close = async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    await until('the pad back at 360x640', async () => {
      const l = await layoutOf(page);
      return l.vh === 640 && !l.kbd && pads(l) === 9 ? l : null;
    }, page);
  };
  // The keyboard button focuses the terminal; the page is made short.
  await tap(page, 'kbd');
  const why = await open('(the terminal focused)');
  const file = await shot(page, 'webcheck-360x352.png');
  console.log(`ok: the keyboard open upright: ${why}, ${file}`);
  await close();
  await page.evaluate(() => term.textarea.blur());
  await open('(no focus: the height shrank)');
  await close();
  console.log('ok: upright again: the pad is back');
  // Turned sideways with the keyboard open: the width changed, so the
  // height seen before says nothing; the focus and the screen do. (The
  // screen turned too: playwright's setViewportSize makes the screen the
  // page's size, a phone's never is.)
  await tap(page, 'kbd');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: 640, height: 162, deviceScaleFactor: 3, mobile: true,
    screenWidth: 640, screenHeight: 360,
    screenOrientation: { type: 'landscapePrimary', angle: 90 } });
  const t = await until('the keyboard\'s layout turned to 640x162', async () => {
    const l = await layoutOf(page);
    return l.vh === 162 && l.kbd ? l : null;
  }, page);
  buttonsFit(t, 'turned to 640x162');
  console.log(`ok: turned with the keyboard open: ${t.cols}x${t.rows}, the pad hidden, every button in view`);
  await context.close();
}
// A page loaded already short and narrow (360x352, the keyboard open
// before, no height seen without it): not a phone held sideways (pad and
// commands at the sides left the terminal 112 px: "Enlarge to 40x20"),
// the bar at the foot, the game 40x20 or more.
async function loadedShort() {
  const { context, page } = await phone(360, 352);
  await tapIntoGame(page);
  const m = await layoutOf(page);
  const s = await waitText(page, 'HP:');
  const why = `loaded at 360x352: ${JSON.stringify({ ...m, buttons: m.buttons.length })}`;
  if (s.includes('Enlarge')) throw new Error(`${why}: the game says Enlarge:\n${s}`);
  if (m.cols < 40 || m.rows < 20) throw new Error(`${why}: under 40x20`);
  if (m.w < 0.9 * 360) throw new Error(`${why}: the terminal under 90% of the width`);
  buttonsFit(m, why);
  const file = await shot(page, 'webcheck-360x352-loaded.png');
  console.log(`ok: ${why}, ${file}`);
  await context.close();
}
async function keyboardSideways(width, height, short) {
  const { context, page } = await phone(width, height);
  await tapIntoGame(page);
  buttonsFit(await layoutOf(page), `${width}x${height}`);
  await tap(page, 'kbd');
  await page.setViewportSize({ width, height: short });
  const m = await until(`the keyboard's layout at ${width}x${short}`, async () => {
    const l = await layoutOf(page);
    return l.vh === short && l.kbd ? l : null;
  }, page);
  const why = `${width}x${short}: ${m.cols}x${m.rows}, ${m.buttons.length} buttons`;
  buttonsFit(m, why);
  if (m.buttons.length !== 10) throw new Error(`${why}: not the 10 commands`);
  const file = await shot(page, `webcheck-${width}x${short}.png`);
  console.log(`ok: the keyboard open sideways: ${why}, every button in view, ${file}`);
  await context.close();
}

// --- 2. the heartbeat -----------------------------------------------------
// A TCP proxy to the server: stall() stops every connection through it
// dead (what comes either way is dropped, a close is not passed on: a
// network gone without a word); new connections pass.
function startProxy() {
  const pairs = new Set();
  const server = net.createServer((c) => {
    const up = net.connect(base.port, base.hostname);
    const pair = { c, up, stalled: false };
    pairs.add(pair);
    c.on('data', (d) => { if (!pair.stalled) up.write(d); });
    up.on('data', (d) => { if (!pair.stalled) c.write(d); });
    const end = () => {
      if (!pair.stalled) { c.destroy(); up.destroy(); }
      pairs.delete(pair);
    };
    c.on('error', end); up.on('error', end); c.on('close', end); up.on('close', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/play`,
    stall: () => { for (const p of pairs) p.stalled = true; },
    close: () => new Promise((r) => {
      for (const p of pairs) { p.c.destroy(); p.up.destroy(); }
      server.close(r);
    }),
  })));
}
async function heartbeat() {
  const proxy = await startProxy();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => { window.rogueBeat = { ping: 300, warn: 3000, drop: 6000 }; });
  const page = await context.newPage();
  await page.goto(proxy.url);
  await waitText(page, 'Play (as a guest)');
  // every text the bar shows, from here on
  await page.evaluate(() => {
    window.barSaid = [];
    const conn = document.getElementById('conn');
    new MutationObserver(() => window.barSaid.push(conn.textContent))
      .observe(conn, { childList: true, characterData: true, subtree: true });
  });
  await page.keyboard.press('p');
  await waitText(page, 'Name: guest');
  await page.keyboard.press('Enter');
  await until('the game', async () => turn(await screen(page)) === 0, page);
  await page.keyboard.press('.');
  await until('turn 1', async () => turn(await screen(page)) === 1, page);
  const t = 1;
  // A live connection: the pings are answered, the next comes after
  // ping ms of quiet again, and the bar says nothing.
  const pings = () => page.evaluate(() => Number(document.getElementById('conn').dataset.pings || 0));
  await until('five pings', async () => (await pings()) >= 5, page);
  const said = await page.evaluate(() => window.barSaid);
  if (said.some((x) => x.includes('No answer')))
    throw new Error(`the bar said "No answer" over a live connection: ${JSON.stringify(said)}`);
  console.log(`ok: over a live connection ${await pings()} pings answered, the bar quiet`);
  proxy.stall();
  await until('"No answer from the server" on the bar', () => page.evaluate(() =>
    window.barSaid.some((x) => x.includes('No answer from the server: reconnecting if it stays silent...'))), page);
  const file = await shot(page, 'webcheck-stalled.png');
  await until('the reconnect', () => page.evaluate(() =>
    window.barSaid.some((x) => x.includes('Connection lost: reconnecting'))), page);
  await until('the bar gone, the game back', async () => {
    const gone = await page.evaluate(() => document.getElementById('conn').style.display === 'none');
    return gone && turn(await screen(page)) === t;
  }, page);
  await page.keyboard.press('.');
  await until('turn 2 after the stall', async () => turn(await screen(page)) === 2, page);
  console.log(`ok: a stalled connection: "No answer", then back in the game at turn ${t}, ${file}`);
  await context.close();
  await proxy.close();
}

// --- 3. Tab leaves the terminal -------------------------------------------
const focusedIs = (page) => page.evaluate(() => {
  const a = document.activeElement;
  if (!a) return '';
  if (a.classList.contains('xterm-helper-textarea')) return 'terminal';
  return a.tagName + ':' + (a.tagName === 'A' ? a.textContent : '');
});
async function tabOut(page, where, linkBefore) {
  await page.locator('.xterm-screen').click();
  if (await focusedIs(page) !== 'terminal') throw new Error(`${where}: a click did not focus the terminal`);
  await page.keyboard.press('Shift+Tab');
  const back = await focusedIs(page);
  if (back !== 'A:' + linkBefore) throw new Error(`${where}: Shift+Tab went to "${back}", not the link "${linkBefore}"`);
  await page.locator('.xterm-screen').click();
  await page.keyboard.press('Tab');
  const on = await focusedIs(page);
  if (on === 'terminal') throw new Error(`${where}: Tab stayed in the terminal`);
  console.log(`ok: ${where}: Shift+Tab reaches "${linkBefore}", Tab leaves the terminal (to "${on}")`);
}

// --- 3 to 7 on a desktop ----------------------------------------------------
async function desktop() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  const s = await waitText(page, 'Play (as a guest)');
  await tabOut(page, '/play', 'Hall of fame');
  // 4. words for a screen reader
  const a11y = await page.evaluate(() => ({
    title: document.title,
    role: document.getElementById('conn').getAttribute('role'),
    live: document.getElementById('conn').getAttribute('aria-live'),
    labels: Object.fromEntries([...document.querySelectorAll('#keys .game button')]
      .map((b) => [b.dataset.key, b.getAttribute('aria-label')])),
    unlabelled: [...document.querySelectorAll('#keys button')]
      .filter((b) => !b.getAttribute('aria-label')).map((b) => b.dataset.key),
    viewport: document.querySelector('meta[name=viewport]').content,
  }));
  const want = { 7: 'up left', '.': 'wait', enter: 'Enter', kbd: 'keyboard', y: 'yes', n: 'no', esc: 'Escape' };
  for (const [k, l] of Object.entries(want))
    if (a11y.labels[k] !== l) throw new Error(`the button ${k} is labelled "${a11y.labels[k]}", not "${l}"`);
  if (a11y.unlabelled.length) throw new Error(`buttons without a label: [${a11y.unlabelled}]`);
  if (a11y.title !== 'rogued: play' || a11y.role !== 'status' || a11y.live !== 'polite')
    throw new Error(`the page's words: ${JSON.stringify(a11y)}`);
  // 5. the viewport lets the player zoom
  if (/maximum-scale|user-scalable/.test(a11y.viewport))
    throw new Error(`the viewport stops zooming: "${a11y.viewport}"`);
  console.log(`ok: labels ${JSON.stringify(a11y.labels)}, #conn role=status aria-live=polite, title "${a11y.title}", viewport "${a11y.viewport}"`);
  // 6. bright black: "Not logged in" readable, dimmer than white text
  if (!s.includes('Not logged in')) throw new Error(`no "Not logged in" in the lobby:\n${s}`);
  const colours = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('.xterm-rows span')];
    const dim = spans.find((x) => x.textContent.includes('Not logged in'));
    const bright = spans.find((x) => x.textContent.includes('Play (as a guest)'));
    return { dim: dim && getComputedStyle(dim).color,
             text: getComputedStyle(document.querySelector('.xterm-rows')).color,
             bright: bright && getComputedStyle(bright).color,
             theme: term.options.theme };
  });
  if (!colours.dim) throw new Error(`"Not logged in" is no span of its own: ${JSON.stringify(colours)}`);
  const cDim = contrast(colours.dim, 'rgb(0, 0, 0)');
  const cText = contrast(colours.text, 'rgb(0, 0, 0)');
  if (cDim < 4.5) throw new Error(`"Not logged in" (${colours.dim}) is ${cDim.toFixed(2)}:1 on black`);
  if (cText < 1.5 * cDim) throw new Error(`the white text (${colours.text}, ${cText.toFixed(2)}:1) is not clearly brighter than ${colours.dim}`);
  console.log(`ok: "Not logged in" ${colours.dim} ${cDim.toFixed(2)}:1 on black, the text ${colours.text} ${cText.toFixed(2)}:1`);
  // the front page's Play button, its title its own
  const home = await context.newPage();
  await home.goto(new URL('/', base).href);
  const play = await home.evaluate(() => {
    const b = document.querySelector('a.play');
    return b && { fg: getComputedStyle(b).color, bg: getComputedStyle(b).backgroundColor,
                  title: document.title };
  });
  if (!play) throw new Error('no Play button on the front page');
  const cPlay = contrast(play.fg, play.bg);
  if (cPlay < 4.5) throw new Error(`the Play button is ${cPlay.toFixed(2)}:1 (${play.fg} on ${play.bg})`);
  if (play.title === 'rogued: play') throw new Error('the front page has the play page\'s title');
  console.log(`ok: the Play button ${play.fg} on ${play.bg}, ${cPlay.toFixed(2)}:1; the front page's title "${play.title}"`);
  // the watch page: the same colours, and Tab leaves its terminal. The
  // game watched: this page's, from the lobby (the terminal focused
  // again: Tab left it).
  await page.locator('.xterm-screen').click();
  await page.keyboard.press('p');
  await waitText(page, 'Name: guest');
  await page.keyboard.press('Enter');
  await waitText(page, 'HP:');
  await home.reload();
  const watch = await home.locator('#games a', { hasText: 'Watch' }).first().getAttribute('href');
  await home.goto(new URL(watch, base).href);
  await waitText(home, 'Watching');
  const theme = await home.evaluate(() => window.rogueTerm.options.theme);
  if (JSON.stringify(theme) !== JSON.stringify(colours.theme))
    throw new Error(`the watch page's colours ${JSON.stringify(theme)} are not the play page's ${JSON.stringify(colours.theme)}`);
  const before = await home.evaluate(() => {
    const links = [...document.querySelectorAll('a')];
    const box = document.getElementById('term');
    return links.filter((a) => a.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING)
      .pop().textContent;
  });
  await tabOut(home, watch, before);
  console.log(`ok: the watch page's terminal has the play page's colours ${JSON.stringify(theme)}`);
  if (await home.locator('#termkeys').isVisible())
    throw new Error('the watch page shows its view bar without touch');
  await watchBar(new URL(watch, base).href);
  await context.close();
}

// --- 8. the watch page's view bar on a phone -------------------------------
async function watchBar(href) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
  const page = await context.newPage();
  await page.goto(href);
  await waitText(page, 'Watching');
  const bar = await page.$$eval('#termkeys button', (bs) => bs.filter((b) => b.checkVisibility())
    .map((b) => ({ key: b.dataset.key, label: b.getAttribute('aria-label'),
                   h: b.getBoundingClientRect().height })));
  const labels = bar.map((b) => b.label).join(',');
  if (labels !== 'leave') // a watch takes no other key
    throw new Error(`the watch page's bar on a phone: ${JSON.stringify(bar)}`);
  const low = bar.find((b) => b.h < 40);
  if (low) throw new Error(`the watch page's button ${low.label} is ${low.h} px tall`);
  await page.locator('#termkeys').scrollIntoViewIfNeeded();
  const file = await shot(page, 'webcheck-watch-390x844.png');
  // q, as the banner says ("Watching NAME - q leaves")
  await page.tap('#termkeys button[data-key="q"]');
  await until('the watch ended by "leave"', async () =>
    /has ended/.test(await page.locator('#termstatus').textContent()), page);
  // and its bar with it: a key would go nowhere (a review tapped a dead q)
  if (await page.locator('#termkeys').isVisible())
    throw new Error('the watch page keeps its bar after the watch ended');
  console.log(`ok: the watch page on a phone: a bar of ${labels}, 40 px or taller; leave ends the watch, ${file}`);
  await context.close();
}

// --- 5. a double tap on the pad does not zoom ------------------------------
async function doubleTap() {
  const { context, page } = await phone(390, 844);
  await tapIntoGame(page);
  const b = await page.locator('#keys button[data-key="."]:visible').boundingBox();
  const x = b.x + b.width / 2, y = b.y + b.height / 2;
  await page.touchscreen.tap(x, y);
  await page.touchscreen.tap(x, y);
  await until('two turns', async () => turn(await screen(page)) === 2, page);
  const scale = await page.evaluate(() => window.visualViewport.scale);
  if (scale !== 1) throw new Error(`a double tap on the pad zoomed to ${scale}`);
  console.log('ok: a double tap on the pad is two turns, no zoom');
  await context.close();
}

// --- 9. a tablet upright; the phone and the desktop as they were ----------
// The play page's terminal and what is under it: the rows the game drew
// (the last one not blank), the black between the terminal's last row and
// the key bar (or the window's foot), a row's height.
const playFill = (page) => page.evaluate(() => {
  const s = document.querySelector('.xterm-screen').getBoundingClientRect();
  const k = document.getElementById('keys').getBoundingClientRect();
  const rs = [...document.querySelectorAll('.xterm-rows > div')].map((d) => d.textContent);
  let last = rs.length - 1;
  while (last > 0 && !rs[last].trim()) last--;
  const foot = k.height ? k.top : window.innerHeight;
  const row = s.height / term.rows;
  return { cols: term.cols, rows: term.rows, font: term.options.fontSize,
           lineHeight: term.options.lineHeight, lastDrawn: last,
           status: rs[last].includes('HP:'), row,
           black: foot - (s.top + (last + 1) * row), w: s.width, vw: innerWidth, vh: innerHeight };
});
async function playSize(width, height, touch, dpr, name, test) {
  const context = await browser.newContext({
    viewport: { width, height }, screen: { width, height },
    isMobile: touch, hasTouch: touch, deviceScaleFactor: dpr });
  const page = await context.newPage();
  await page.goto(url);
  await waitText(page, 'Play (as a guest)');
  await page.evaluate(() => term.focus());
  await page.keyboard.press('p');
  await waitText(page, 'Name: guest');
  await page.keyboard.press('Enter');
  await waitText(page, 'HP:');
  const m = await until(`the game drawn at ${width}x${height}`, async () => {
    const l = await playFill(page);
    return l.status ? l : null;
  }, page);
  const why = `${width}x${height} at ${dpr}: ${JSON.stringify(m)}`;
  test(m, why);
  const file = await shot(page, `webcheck-${name}-${width}x${height}-${dpr}.png`);
  console.log(`ok: the play page at ${width}x${height}, devicePixelRatio ${dpr}: ` +
              `${m.cols}x${m.rows} in ${m.font} px, rows ${m.lineHeight}x the font's, ` +
              `${Math.round(m.black)} px of black under the status line, ${file}`);
  await context.close();
}
async function tabletUpright() {
  // 33 rows, under a row of black; at the cap (rows 1.2 times the
  // font's: taller ones dash the walls), the game's 33 at the top and
  // less black under them than the font's own rows left (45 and 51 rows
  // at 768x1024 and 820x1180, 12 and 18 rows of black)
  const fills = (m, why) => {
    const capped = m.lineHeight === 1.2;
    if (m.black < 0 || m.black > (capped ? m.rows - 32 : 1) * m.row)
      throw new Error(`${why}: ${m.black} px of black under the game, more than ` +
                      (capped ? 'the rows past 33' : 'a row'));
    if (m.cols < 80 || (m.rows !== 33 && !capped) || m.lastDrawn !== 32 ||
        m.lineHeight > 1.2 || (capped && m.rows > (m.vh > 1100 ? 44 : 39)))
      throw new Error(`${why}: not the game's 33 rows in rows up to 1.2 times the font's`);
  };
  for (const dpr of [2, 1, 1.5]) {
    await playSize(768, 1024, true, dpr, 'tablet', fills);
    await playSize(820, 1180, true, dpr, 'tablet', fills);
  }
  // a desktop window held upright: rows 1.2 times the font's at most,
  // the game's 33 at the top, the rest black
  await playSize(800, 1280, false, 1, 'play', (m, why) => {
    if (m.lineHeight > 1.2 || m.lineHeight < 1.1 || m.cols < 80 || m.rows < 33 ||
        m.lastDrawn !== 32)
      throw new Error(`${why}: not the game's 33 rows in rows 1.2 times the font's`);
  });
  await playSize(360, 640, true, 2, 'play', (m, why) => {
    if (m.cols < 40 || m.rows < 20 || m.lineHeight !== 1 || m.lastDrawn !== m.rows - 1)
      throw new Error(`${why}: the phone's layout changed`);
  });
  await playSize(1920, 1080, false, 1, 'play', (m, why) => {
    if (m.cols < 80 || m.rows < 24 || m.lineHeight !== 1 || m.w < 0.9 * m.vw)
      throw new Error(`${why}: the desktop's layout changed`);
  });
}

// --- 10 to 12. the site on a big screen and on a phone ----------------------
// A site page's terminal: its size, font and box against the window.
const siteTerm = (page) => page.evaluate(() => {
  const t = window.rogueTerm;
  const s = document.querySelector('#term .xterm-screen').getBoundingClientRect();
  const divs = [...document.querySelectorAll('#term .xterm-rows > div')];
  const rs = divs.map((d) => d.textContent);
  const last = divs.length > 0 ? divs[divs.length - 1].getBoundingClientRect() : null;
  // (the page's width without its scrollbar: what the column is centred in)
  return { cols: t.cols, rows: t.rows, font: t.options.fontSize, w: s.width, h: s.height,
           left: s.left, right: s.right, vw: document.documentElement.clientWidth,
           vh: innerHeight, bottom: last && last.bottom + scrollY, top: s.top + scrollY,
           scrollH: document.documentElement.scrollHeight, scrollY,
           status: rs.length > 0 && rs[rs.length - 1].includes('HP:') };
});
async function bigTerm(href, name, sizes) {
  for (const [width, height, touch] of sizes) {
    const context = await browser.newContext({ viewport: { width, height },
                                               isMobile: touch, hasTouch: touch });
    const page = await context.newPage();
    await page.goto(href);
    const m = await until(`${name}'s terminal at ${width}x${height}`, async () => {
      const t = await page.evaluate(() => !!window.rogueTerm);
      const l = t && await siteTerm(page);
      return l && l.status ? l : null;
    }, page);
    const why = `${name} at ${width}x${height}: ${JSON.stringify(m)}`;
    if (m.left < 0 || m.right > m.vw + 0.5) throw new Error(`${why}: the terminal is off the window`);
    if (!touch && (m.cols !== 80 || m.rows !== 33 || m.font < 15 ||
                   (width === 1920 && m.font <= 15)))
      throw new Error(`${why}: not the game's 80x33 in 15 px or more (over 15 at 1920x1080)`);
    if (!touch && Math.abs(m.left - (m.vw - m.right)) > 2)
      throw new Error(`${why}: the terminal is not centred`);
    if (touch && (m.cols < 40 || m.rows < 20)) throw new Error(`${why}: under 40x20`);
    // (a phone sideways: its box the window's height, scrolled to)
    const sideways = height <= 500 && width > height;
    if (!sideways && m.scrollY !== 0) throw new Error(`${why}: the page is scrolled`);
    if (sideways && (m.top < m.scrollY - 1 || m.cols < 80 || m.rows < 24))
      throw new Error(`${why}: sideways, not 80x24 or more with its top in the window`);
    if (m.bottom > m.scrollY + m.vh)
      throw new Error(`${why}: the status line ends ${m.bottom - m.scrollY - m.vh} px below the window`);
    const file = await shot(page, `webcheck-${name}-${width}x${height}.png`);
    console.log(`ok: ${name} at ${width}x${height}: ${m.cols}x${m.rows} in ${m.font} px, ` +
                `${Math.round(m.w)}x${Math.round(m.h)} px from ${Math.round(m.top)} px, scrolled ${m.scrollY} px, ` +
                `the status line's bottom ${Math.round(m.bottom - m.scrollY)} px down the window of ${m.vh}, page ${m.scrollH} px, ` +
                `margins ${Math.round(m.left)} and ${Math.round(m.vw - m.right)} px, ${file}`);
    await context.close();
  }
}
// The box chosen again at a resize: a window made smaller (1920x1080 to
// 1366x768) keeps the status line in it, 80x33 still.
async function termResized(href, name) {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  await page.goto(href);
  await until(`${name}'s terminal at 1920x1080`, async () =>
    await page.evaluate(() => !!window.rogueTerm) && (await siteTerm(page)).rows === 33, page);
  await page.setViewportSize({ width: 1366, height: 768 });
  const m = await until(`${name}'s terminal resized to 1366x768`, async () => {
    const l = await siteTerm(page);
    return l.vh === 768 && l.bottom <= l.vh && l.font < 20 && l.status ? l : null;
  }, page);
  if (m.cols !== 80 || m.rows !== 33 || m.font < 15)
    throw new Error(`${name} resized to 1366x768: ${JSON.stringify(m)}: not 80x33 in 15 px or more`);
  console.log(`ok: ${name} resized from 1920x1080 to 1366x768: ${m.cols}x${m.rows} in ${m.font} px, ` +
              `the status line's bottom at ${Math.round(m.bottom)} of ${m.vh} px`);
  await context.close();
}
// The nav: its links' words and boxes; the feed named in the head.
async function siteNav(href, name, width, height, touch) {
  const context = await browser.newContext({ viewport: { width, height },
                                             isMobile: touch, hasTouch: touch });
  const page = await context.newPage();
  await page.goto(href);
  const m = await page.evaluate(() => ({
    links: [...document.querySelectorAll('nav a')].map((a) => {
      const r = a.getBoundingClientRect();
      return { text: a.textContent, href: a.getAttribute('href'), w: r.width, h: r.height,
               top: r.top, left: r.left, right: r.right };
    }),
    alternate: [...document.querySelectorAll('head link[rel=alternate]')].map((l) => l.outerHTML),
    feeds: document.getElementById('feeds') && document.getElementById('feeds').textContent,
    vw: innerWidth, wide: document.documentElement.scrollWidth,
  }));
  const why = `${name} at ${width}x${height}: ${JSON.stringify(m)}`;
  const words = m.links.map((l) => `${l.text}=${l.href}`).join(',');
  if (words !== 'Home=/,Play=/play,Hall of fame=/scores')
    throw new Error(`${why}: the nav is not Home, Play, Hall of fame (no feed)`);
  for (const l of m.links)
    if (l.w < 44 || l.h < 44) throw new Error(`${why}: "${l.text}" is ${l.w}x${l.h} px, under 44x44`);
  if (new Set(m.links.map((l) => Math.round(l.top))).size !== 1 ||
      m.links.some((l) => l.left < 0 || l.right > m.vw) || m.wide > m.vw)
    throw new Error(`${why}: the nav is not one row inside the window`);
  if (m.alternate.join() !== '<link rel="alternate" type="application/json" href="/games.json" ' +
                             'title="Finished games (JSON)">')
    throw new Error(`${why}: the head does not name the feed`);
  if (name === 'front' && m.feeds !== 'For programs: the latest finished games are at ' +
      '/games.json (JSON) and /games.xlog (the xlogfile lines community scoreboards read).')
    throw new Error(`${why}: the front page does not say where the feeds are`);
  const file = await shot(page, `webcheck-nav-${name}-${width}x${height}.png`);
  console.log(`ok: ${name}'s nav at ${width}x${height}: ${m.links.map((l) =>
    `${l.text} ${Math.round(l.w)}x${Math.round(l.h)}`).join(', ')}, one row; the feed in the head, ${file}`);
  await context.close();
}
async function site() {
  const home = new URL('/', base).href;
  for (const [w, h, touch] of [[360, 640, true], [1920, 1080, false]]) {
    await siteNav(home, 'front', w, h, touch);
    await siteNav(new URL('/scores', base).href, 'scores', w, h, touch);
  }
  // a game to watch, then to replay: a guest's, a few turns, then quit
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const player = await context.newPage();
  await player.goto(url);
  await waitText(player, 'Play (as a guest)');
  await player.locator('.xterm-screen').click();
  await player.keyboard.press('p');
  await waitText(player, 'Name: guest');
  await player.keyboard.press('Enter');
  await until('the game', async () => turn(await screen(player)) === 0, player);
  for (let t = 1; t <= 3; t++) {
    await player.keyboard.press('.');
    await until(`turn ${t}`, async () => turn(await screen(player)) === t, player);
  }
  const front = await context.newPage();
  await front.goto(home);
  const watch = new URL(await front.locator('#games a', { hasText: 'Watch' }).first()
    .getAttribute('href'), base).href;
  // On a phone the table's links are tap targets of 44 px too (the Watch
  // link was 16 px tall at 360 px); a mouse's table stays as it was.
  for (const [w, h, touch] of [[360, 640, true], [1280, 800, false]]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h },
                                           isMobile: touch, hasTouch: touch });
    const p = await ctx.newPage();
    await p.goto(home);
    const links = await p.$$eval('#games td a', (as) => as.map((a) => {
      const r = a.getBoundingClientRect();
      return { text: a.textContent, w: r.width, h: r.height };
    }));
    if (!links.length) throw new Error(`no link in the front page's games at ${w}x${h}`);
    for (const l of links)
      if (touch ? l.w < 44 || l.h < 44 : l.h >= 44)
        throw new Error(`the games' "${l.text}" at ${w}x${h} (${touch ? 'touch' : 'mouse'}) is ` +
                        `${Math.round(l.w)}x${Math.round(l.h)} px`);
    console.log(`ok: the front page's game links at ${w}x${h}: ` +
                links.map((l) => `${l.text} ${Math.round(l.w)}x${Math.round(l.h)}`).join(', '));
    await ctx.close();
  }
  await bigTerm(watch, 'watch', [[1280, 800, false], [1366, 768, false], [1920, 1080, false], [2560, 1440, false], [360, 640, true], [844, 390, true]]);
  await termResized(watch, 'watch');
  await siteNav(watch, 'watch', 360, 640, true);
  await player.keyboard.press('Q');
  await waitText(player, 'Really quit? (y/n)');
  await player.keyboard.press('y');
  await waitText(player, 'it has ended');
  // (the store writes the game after the lobby says so)
  const feed = await until('the game in /games.json', async () => {
    const f = await (await front.request.get(new URL('/games.json', base).href)).json();
    return f.games.length ? f : null;
  });
  const game = new URL(feed.games[0].url, base).href;
  await bigTerm(game, 'replay', [[1280, 800, false], [1366, 768, false], [1920, 1080, false], [2560, 1440, false], [360, 640, true], [844, 390, true]]);
  await context.close();
}

try {
  await tabletUpright();
  await site();
  await keyboardUpright();
  await loadedShort();
  await keyboardSideways(844, 390, 176);
  await keyboardSideways(640, 360, 162);
  await heartbeat();
  await desktop();
  await doubleTap();
} finally {
  await browser.close();
}
console.log('passed');
