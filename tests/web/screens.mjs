// screens.mjs URL OUTDIR PLAN - the page on any screen, by touch, and
// across a drop, in a real browser (Debian's chromium, headless, driven by
// playwright-core); tests/e2e/browser_screens.sh runs it against a server
// started with PLAN's seed (tests/web/stairs_plan):
//
// 1. At 2560x1440, 1920x1080, 1280x800 and a 390x844 phone with touch:
//    the terminal is at least 90% of the window's width, its cells at
//    least MIN_CELL (10 px wide on a desktop, 8 on the phone), at most 140
//    columns, and on a desktop at most 88 (the map's 80 fill the width);
//    in a game the log is right under the map; a screenshot of each
//    (OUTDIR/screens-WxH.png).
// 1b. The phone turned sideways (844x390) in a game: the key bar at the
//    terminal's sides, not under it; the terminal at least 85% of the height; the
//    keys play; upright again as before (OUTDIR/screens-844x390.png).
// 2. The phone plays by taps alone (the ⌨ button opens the keyboard for
//    the lobby's `p`): PLAN's steps on the key bar's arrows and `>` reach
//    depth 3 at PLAN's turn (OUTDIR/screens-phone-depth3.png). The bar
//    is the lobby's (p, w, s, Esc, Enter, ⌨; no direction, whose digit
//    would be typed into the name) in the lobby, the prompt's (Esc,
//    Enter, ⌨; no p, w, s: letters of the name there) at its name
//    prompt, the game's in the game.
// 2b. On the phone a tap on the lobby's "p   Play" row is its p, and on
//    "q   Quit" no key; a tap on a floor tile of the map travels there:
//    the @ is at the tapped cell, after one turn a step
//    (OUTDIR/screens-phone-tap.png); after Q, y and the lobby's q the
//    page says "Disconnected" with no key bar.
// 3. The connection drops (a proxy between the page and the server cuts
//    both sockets): the page says so, reconnects by itself, and is back in
//    the same game at the same turn, with no key pressed - a guest's by
//    its token, an account's by its login token. The same for a guest whose
//    page is told the server is going away (a close frame of code 1001,
//    as a shutdown sends): the page tries again by itself.
// Exit 0 on success; any failure throws with what was on the screen.
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const [url, outdir, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson);
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
async function waitFor(page, what, test) {
  const t0 = Date.now();
  for (;;) {
    const s = await screen(page);
    if (await test(s)) return s;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`no ${what} within ${DEADLINE} ms:\n${s}`);
    await page.waitForTimeout(50);
  }
}
const waitText = (page, text) => waitFor(page, `"${text}"`, (s) => s.includes(text));
const turn = (s) => { /* "Turn:N", or "T:N" where the status line is shortened to its width */ const m = s.match(/(?:Turn:\s*|\bT:)(\d+)/); return m ? Number(m[1]) : -1; };
const depth = (s) => { const m = s.match(/(?:Depth|D):\s*(\d+)/); return m ? Number(m[1]) : -1; };
async function shot(page, name) {
  const file = path.join(outdir, name);
  await page.screenshot({ path: file });
  const png = fs.readFileSync(file);
  if (png.length < 3000 || png.readUInt32BE(0) !== 0x89504e47)
    throw new Error(`the screenshot ${file} is not a real picture`);
  return file;
}
// Presses key and waits for the turn to move on from what it was.
async function keyTurn(page, press) {
  const tb = turn(await screen(page));
  await press();
  await waitFor(page, `a turn after ${tb}`, (s) => turn(s) > tb);
}

// --- 1. the terminal fills the window ------------------------------------
async function fits(width, height, phone) {
  const context = await browser.newContext(phone
    ? { viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 }
    : { viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(url);
  await waitText(page, phone ? 'Play' : 'Play (as a guest)');
  const m = await page.evaluate(() => {
    const r = document.querySelector('.xterm-screen').getBoundingClientRect();
    return { w: r.width, h: r.height, cols: term.cols, rows: term.rows,
             vw: window.innerWidth, font: term.options.fontSize,
             bar: getComputedStyle(document.getElementById('keys')).display };
  });
  const cell = m.w / m.cols, minCell = phone ? 8 : 10;
  const why = `${width}x${height}: ${JSON.stringify(m)}, cells ${cell.toFixed(2)} px`;
  if (m.w < 0.9 * m.vw) throw new Error(`the terminal is under 90% of the width: ${why}`);
  if (cell < minCell) throw new Error(`cells under ${minCell} px: ${why}`);
  if (m.cols > 140) throw new Error(`over 140 columns: ${why}`);
  if (!phone && (m.cols < 80 || m.rows < 24)) throw new Error(`under 80x24: ${why}`);
  // The map is 80 columns: on a big screen the font grows until they fill
  // the width (at least 90% of it), not to a fixed size that leaves the
  // right of the screen black.
  if (!phone && m.cols > 88) throw new Error(`the map's 80 columns fill under 90% of the width: ${why}`);
  if (phone && (m.cols < 40 || m.rows < 20)) throw new Error(`under 40x20: ${why}`);
  if ((m.bar !== 'none') !== phone) throw new Error(`the key bar is ${m.bar}: ${why}`);
  if (!phone) {
    // In a game: map, log and status line one block (docs/game.md, "The
    // screen"): the status line right under the log's rows (row 32 from
    // 33 rows on, else the last), the newest log lines right above it.
    await page.keyboard.press('p');
    await waitText(page, 'Name: guest');
    await page.keyboard.press('Enter');
    const s = await waitText(page, 'HP:');
    const rs = s.split('\n'), status = Math.min(m.rows, 33) - 1;
    if (!rs[status].includes('HP:') ||
        !rs[status - 2].includes('Welcome to the dungeon'))
      throw new Error(`the log and the status line are not one block ` +
                      `(status row ${status}):\n${s}`);
  }
  const file = await shot(page, `screens-${width}x${height}.png`);
  console.log(`ok: ${why}, ${file}`);
  await context.close();
}

// --- 2. a phone game by taps ---------------------------------------------
// The keys of the key bar's buttons in view: one bar at a time, the one
// for what the server shows (its "state NAME" messages).
const barKeys = (page) => page.$$eval('#keys button', (bs) =>
  bs.filter((b) => b.checkVisibility()).map((b) => b.dataset.key));
const DIRS = ['1', '2', '3', '4', '6', '7', '8', '9', '.'];
async function barIs(page, where, want, never) {
  const t0 = Date.now();
  for (;;) {
    const keys = await barKeys(page);
    if (want.every((k) => keys.includes(k)) && !never.some((k) => keys.includes(k)))
      return keys;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`${where} the key bar is [${keys}], not one with [${want}] and none of [${never}]`);
    await page.waitForTimeout(50);
  }
}
// In the lobby the lobby's keys, no direction: at its name prompt a
// direction's numpad digit was typed into the name ("guest17662").
const lobbyBar = (page, where) => barIs(page, where, ['p', 'w', 's', 'esc', 'enter', 'kbd'], DIRS);
// At the lobby's prompts ("state prompt") only Esc, Enter and the device's
// keyboard: the lobby's p tapped again was typed into the name (a QA find).
const promptBar = (page, where) => barIs(page, where, ['esc', 'enter', 'kbd'], ['p', 'w', 's', ...DIRS]);
// On the lobby's lists (the hall of fame, the watch list: "state list")
// Esc and the keyboard: there the menu's p, w, s are letters that pick.
const listBar = (page, where) => barIs(page, where, ['esc', 'kbd'], ['p', 'w', 's', 'enter', ...DIRS]);
const gameBar = (page, where) => barIs(page, where, [...DIRS, 'o', '>', 'g', 'i', 'enter', 'kbd'], ['p', 'w', 's']);
const button = { h: '4', l: '6', k: '8', j: '2', y: '7', u: '9', b: '1', n: '3',
                 '.': '.', '>': '>' };
// A 390x844 phone with touch on the play page's lobby.
async function phoneLobby() {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 },
                                             isMobile: true, hasTouch: true,
                                             deviceScaleFactor: 3 });
  const page = await context.newPage();
  await page.goto(url);
  await waitText(page, 'Play (as a guest)');
  await lobbyBar(page, 'in the lobby');
  return { context, page };
}
async function phoneGame() {
  const { context, page } = await phoneLobby();
  const tap = (key) => page.tap(`#keys button[data-key="${key}"]:visible`);
  // The letter keys through the device's keyboard: ⌨ focuses the terminal.
  await tap('kbd');
  const focused = await page.evaluate(() => document.activeElement &&
    document.activeElement.classList.contains('xterm-helper-textarea'));
  if (!focused) throw new Error('the keyboard button did not focus the terminal');
  await page.keyboard.press('p'); // a tap on the device's keyboard
  await waitText(page, 'Name: guest');
  await promptBar(page, 'at the name prompt');
  // The prompt's hint names the underscore: xterm.js's rows clipped it at
  // a phone's 13-14.5 px (a QA read "digits,   or -"); no row clips now.
  if (!(await screen(page)).includes('_'))
    throw new Error('no underscore on the name prompt:\n' + await screen(page));
  const clipped = await page.$$eval('.xterm-rows > div', (ds) =>
    ds.filter((d) => getComputedStyle(d).overflow !== 'visible').length);
  if (clipped) throw new Error(`${clipped} of the terminal's rows clip what is drawn below them`);
  console.log(`ok: no row clips an underscore at the name prompt, ${await shot(page, 'screens-phone-prompt.png')}`);
  await tap('enter');
  await waitFor(page, 'the game', (s) => turn(s) === 0);
  await gameBar(page, 'in the game');
  for (const k of plan.keys) {
    if (!button[k]) throw new Error(`no key bar button for ${k}`);
    if (k === '>') {
      const d = depth(await screen(page));
      await tap('>');
      await waitFor(page, `depth ${d + 1}`, (s) => depth(s) === d + 1);
    } else {
      await keyTurn(page, () => tap(button[k]));
    }
  }
  const s = await screen(page);
  if (depth(s) !== plan.depth || turn(s) !== plan.turn)
    throw new Error(`the taps ended at depth ${depth(s)}, turn ${turn(s)}, not ` +
                    `${plan.depth}, ${plan.turn}:\n${s}`);
  const file = await shot(page, 'screens-phone-depth3.png');
  console.log(`ok: the phone reached depth ${plan.depth} at turn ${plan.turn} by ${plan.keys.length} taps, ${file}`);
  await context.close();
}

// --- 2b. a tap on the map travels there ----------------------------------
const FLOOR = new Set(['.', '\u00b7']); // ASCII, or UTF-8's middle dot
async function phoneTap() {
  const { context, page } = await phoneLobby();
  // the hall of fame: the list's bar; Esc back to the menu's
  // (the bar's height, read after layout: the terminal's fit follows it
  // a frame later)
  const barHeight = () => page.evaluate(() =>
    document.getElementById('keys').getBoundingClientRect().height);
  const menuBar = await barHeight();
  await page.tap('#keys button[data-key="s"]:visible');
  await waitText(page, 'Hall of fame');
  await listBar(page, 'on the hall of fame');
  // the terminal keeps its size from bar to bar (a prompt's one row of
  // keys made it 3 rows taller: a resize at each p, a QA find)
  if (await barHeight() !== menuBar)
    throw new Error(`the hall of fame's bar is ${await barHeight()} px tall, the menu's ${menuBar}: the terminal resizes`);
  await page.tap('#keys button[data-key="esc"]:visible');
  await lobbyBar(page, 'back from the hall of fame');
  await waitText(page, 'Play (as a guest)'); // (the bar is told before the frame)
  // a tap on the lobby's row "p   Play (as a guest)" is its key; a tap on
  // "q   Quit" is none (the session would end at a stray thumb): sent
  // first, on the same connection, it would have ended it before the p
  const lobby = (await screen(page)).split('\n');
  const prow = lobby.findIndex((r) => r.includes('Play (as a guest)'));
  const qrow = lobby.findIndex((r) => /^\s*q\s+Quit/.test(r));
  if (qrow < 0) throw new Error(`no "q  Quit" row in the lobby:\n${lobby.join('\n')}`);
  const lbox = await page.locator('.xterm-screen').boundingBox();
  const lrows = await page.evaluate(() => term.rows);
  await page.touchscreen.tap(lbox.x + lbox.width / 2, lbox.y + (qrow + 0.5) * lbox.height / lrows);
  await page.touchscreen.tap(lbox.x + lbox.width / 2, lbox.y + (prow + 0.5) * lbox.height / lrows);
  await waitText(page, 'Name: guest');
  await promptBar(page, 'at the name prompt after a tap');
  if (await barHeight() !== menuBar)
    throw new Error(`the prompt's bar is ${await barHeight()} px tall, the menu's ${menuBar}: the terminal resizes`);
  await page.tap('#keys button[data-key="enter"]:visible');
  const s0 = await waitFor(page, 'the game', (s) => turn(s) === 0);
  // A floor cell in the @'s column two or more rows away, floor all the
  // way: the map window (which follows the player across) does not move.
  const r0 = s0.split('\n');
  const ay = r0.findIndex((r) => r.includes('@')), ax = r0[ay].indexOf('@');
  let ty = -1;
  for (const dir of [1, -1]) {
    for (let y = ay + dir; r0[y] && FLOOR.has(r0[y][ax]); y += dir)
      if (Math.abs(y - ay) >= 2) ty = y;
    if (ty >= 0) break;
  }
  if (ty < 0) throw new Error(`no floor two rows from the @ in its column:\n${s0}`);
  const box = await page.locator('.xterm-screen').boundingBox();
  const [cols, nrows] = await page.evaluate(() => [term.cols, term.rows]);
  await page.touchscreen.tap(box.x + (ax + 0.5) * box.width / cols,
                             box.y + (ty + 0.5) * box.height / nrows);
  const s = await waitFor(page, `the @ at column ${ax}, row ${ty}`,
                          (t) => (t.split('\n')[ty] || '')[ax] === '@');
  if (turn(s) !== Math.abs(ty - ay))
    throw new Error(`the tap took ${turn(s)} turns, not ${Math.abs(ty - ay)}:\n${s}`);
  const file = await shot(page, 'screens-phone-tap.png');
  console.log(`ok: a tap on (${ax},${ty}) walked the @ there from row ${ay} in ${turn(s)} turns, ${file}`);
  // Quit, then leave: "Disconnected" with no bar of buttons that would
  // send nowhere
  await page.tap('#keys button[data-key="kbd"]:visible'); // the device's keyboard
  await page.keyboard.press('Q');
  await page.keyboard.press('y');
  await waitText(page, 'Play as guest');
  // the device's keyboard open (the page made short, as it makes it):
  // its row of keys must go too, not leave an empty strip (a review)
  await page.setViewportSize({ width: 390, height: 450 });
  await page.waitForFunction(() => document.body.classList.contains('kbd'),
                             null, { timeout: DEADLINE });
  await page.keyboard.press('q');
  await page.waitForFunction(() => /Disconnected/.test(document.getElementById('conn').textContent),
                             null, { timeout: DEADLINE });
  const left = await barKeys(page);
  if (left.length) throw new Error(`after the goodbye the key bar is [${left}]`);
  const strip = await page.evaluate(() => document.getElementById('keys').getBoundingClientRect().height);
  if (strip > 0) throw new Error(`after the goodbye the key bar's box is ${strip} px tall`);
  console.log(`ok: a tap on "q  Quit" is no key; after the goodbye no key bar`);
  await context.close();
}

// --- 3. a drop and the way back -------------------------------------------
// A TCP proxy to the server's port: cut() ends every connection through it
// (both sides see them drop); goAway() gives the page what a server
// shutting down sends, a WebSocket close frame of code 1001, ends the
// connection (the server sees it drop) and drops the next connection at
// once (the server still down); it goes on accepting new ones.
function startProxy(target) {
  const socks = new Set();
  const pairs = new Set();
  let down = 0;
  const server = net.createServer((c) => {
    if (down > 0) { down--; c.destroy(); return; }
    const up = net.connect(target.port, target.hostname);
    const pair = [c, up];
    socks.add(c);
    socks.add(up);
    pairs.add(pair);
    c.pipe(up);
    up.pipe(c);
    const end = () => { c.destroy(); up.destroy(); socks.delete(c); socks.delete(up); pairs.delete(pair); };
    c.on('error', end); up.on('error', end); c.on('close', end); up.on('close', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/play`,
    cut: () => { for (const s of socks) s.resetAndDestroy ? s.resetAndDestroy() : s.destroy(); },
    goAway: () => {
      down = 1;
      for (const [c, up] of pairs) {
        up.unpipe(c);
        c.unpipe(up);
        c.end(Buffer.from([0x88, 0x02, 0x03, 0xe9]), () => up.destroy()); // close, 1001
      }
    },
    close: () => new Promise((r) => { for (const s of socks) s.destroy(); server.close(r); }),
  })));
}

// how: 'cut' (the connection drops) or 'away' (the server goes away).
async function dropAndBack(proxy, account, how = 'cut') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(proxy.url);
  await waitText(page, 'Play (as a guest)');
  const typeLine = async (text) => { await page.keyboard.type(text); await page.keyboard.press('Enter'); };
  if (account) {
    await page.keyboard.press('r');
    await waitText(page, 'Register an account');
    await typeLine(account);
    await typeLine('pass-' + account);
    await typeLine('pass-' + account);
    await waitText(page, `Logged in as ${account}`);
    await page.keyboard.press('p');
  } else {
    await page.keyboard.press('p');
    await waitText(page, 'Name: guest');
    await page.keyboard.press('Enter');
  }
  await waitFor(page, 'the game', (s) => turn(s) === 0);
  for (const k of plan.keys.slice(0, 6)) await keyTurn(page, () => page.keyboard.press(k));
  const before = await screen(page);
  const t = turn(before);
  if (how === 'away') proxy.goAway(); else proxy.cut();
  // The page says so, then comes back by itself.
  // the predicate hands back the text it matched: the bar may be gone by a later read
  const bar = await (await page.waitForFunction(() => {
    const text = document.getElementById('conn').textContent;
    return /reconnecting|Disconnected/.test(text) ? text : null;
  }, null, { timeout: DEADLINE })).jsonValue();
  const said = how === 'away' ? /The server went away: reconnecting/ : /Connection lost: reconnecting/;
  if (!said.test(bar)) throw new Error(`the bar says "${bar}"`);
  if (how === 'away') {
    // its first try fails (the server still down): still the server away
    const bar2 = await (await page.waitForFunction(() => {
      const text = document.getElementById('conn').textContent;
      return /\(try 2\)/.test(text) ? text : null;
    }, null, { timeout: DEADLINE })).jsonValue();
    if (!said.test(bar2)) throw new Error(`after a failed try the bar says "${bar2}"`);
  }
  await page.waitForFunction(() => getComputedStyle(document.getElementById('conn')).display === 'none',
                             null, { timeout: DEADLINE });
  // an account's page is logged in again by its login token (the same
  // server process behind the proxy) and, dropped in its game, goes on
  // with it with no key pressed, as a guest's does
  const after = await waitFor(page, `the game at turn ${t}`, (s) => turn(s) === t);
  if (after.includes('Play (as a guest)')) throw new Error('the lobby, not the game:\n' + after);
  // The same game: the map rows are what they were. Trailing blanks do not
  // count: a cell once written with a space (over the lobby's text) reads as
  // one, a cell the repaint after the drop never wrote reads as nothing, and
  // a person sees the same either way.
  const map = (s) => s.split('\n').slice(0, 20).map((l) => l.trimEnd()).join('\n');
  if (map(after) !== map(before))
    throw new Error(`the map differs after the drop:\n${map(before)}\n---\n${map(after)}`);
  await keyTurn(page, () => page.keyboard.press('.'));
  const file = await shot(page, `screens-back-${account ? 'account' : 'guest'}${how === 'away' ? '-away' : ''}.png`);
  console.log(`ok: ${account ? 'an account' : 'a guest'} ${how === 'away' ? 'left by a server going away' : 'dropped'} at turn ${t} and back in the same game, ${file}`);
  await context.close();
}

// --- 1b. a phone turned sideways -----------------------------------------
// The terminal's box and the key bar's two groups (the pad, the commands).
const layout = (page) => page.evaluate(() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height }; };
  const s = box(document.querySelector('.xterm-screen'));
  return { vw: innerWidth, vh: innerHeight, cols: term.cols, rows: term.rows,
           font: term.options.fontSize, cell: s.w / term.cols, screen: s,
           term: box(document.getElementById('terminal')),
           buttons: [...document.querySelectorAll('#keys button')]
             .filter((b) => b.checkVisibility()).map(box) };
});
// Turned from upright to sideways and back: sideways (844x390) the key
// bar must not take the rows under the terminal (a bar across the foot
// took 36% of the height, leaving 21 rows of 10 px): the pad and the
// commands stand at the sides, the terminal keeps at least 85% of the
// height, filled (90% or more each way) with cells of 7.5 px or more,
// every button in view, at least 40 px high, off the terminal. The keys
// still play; upright again, the page is as it was.
async function phoneTurned() {
  const { context, page } = await phoneLobby();
  // in a game: its bar's two halves are the ones to stand at the sides
  await page.tap('#keys button[data-key="p"]:visible');
  await waitText(page, 'Name: guest');
  await page.tap('#keys button[data-key="enter"]:visible');
  await waitFor(page, 'the game', (s) => turn(s) === 0);
  await gameBar(page, 'upright in the game');
  const up = await layout(page);
  await page.setViewportSize({ width: 844, height: 390 });
  const t0 = Date.now();
  let m;
  for (;;) {
    m = await layout(page);
    // (the cells fill the box once the font is chosen for it: until then
    // they are the upright ones)
    if (m.vw === 844 && m.term.h >= 0.85 * m.vh && m.cell >= 7.5 &&
        m.screen.w >= 0.9 * m.term.w && m.screen.w <= m.term.w + 1 &&
        m.screen.h >= 0.9 * m.term.h && m.screen.h <= m.term.h + 1) break;
    if (Date.now() - t0 > DEADLINE)
      throw new Error(`sideways the terminal is ${Math.round(m.term.w)}x${Math.round(m.term.h)} ` +
                      `of 844x390, its cells ${Math.round(m.screen.w)}x${Math.round(m.screen.h)}, ` +
                      `${m.cell.toFixed(2)} px (${m.cols}x${m.rows})`);
    await page.waitForTimeout(50);
  }
  const over = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  for (const b of m.buttons) {
    const why = `a button at ${JSON.stringify(b)}, the terminal ${JSON.stringify(m.term)}`;
    if (b.l < 0 || b.t < 0 || b.r > m.vw + 0.5 || b.b > m.vh + 0.5) throw new Error(`sideways ${why} is out of view`);
    if (b.h < 40) throw new Error(`sideways ${why} is under 40 px high`);
    if (over(b, m.term)) throw new Error(`sideways ${why} is over the terminal`);
  }
  await waitFor(page, 'the game', (s) => turn(s) === 0); // redrawn at the new size
  await keyTurn(page, () => page.tap('#keys button[data-key="."]:visible'));
  const file = await shot(page, 'screens-844x390.png');
  await page.setViewportSize({ width: 390, height: 844 });
  const t1 = Date.now();
  let back;
  for (;;) {
    back = await layout(page);
    if (back.cols === up.cols && back.rows === up.rows && Math.abs(back.term.h - up.term.h) < 1) break;
    if (Date.now() - t1 > DEADLINE)
      throw new Error(`upright again ${back.cols}x${back.rows}, ${back.term.h} px high, not ` +
                      `${up.cols}x${up.rows}, ${up.term.h} px as before`);
    await page.waitForTimeout(50);
  }
  console.log(`ok: sideways the terminal is ${Math.round(m.term.w)}x${Math.round(m.term.h)} of 844x390 ` +
              `(${m.cols}x${m.rows}, cells ${m.cell.toFixed(2)} px), the keys at its sides; ` +
              `upright again ${back.cols}x${back.rows}, ${file}`);
  await context.close();
}

let page0;
try {
  await fits(2560, 1440, false);
  await fits(1920, 1080, false);
  await fits(1280, 800, false);
  await fits(390, 844, true);
  await phoneTurned();
  await phoneGame();
  await phoneTap();
  const proxy = await startProxy(new URL(url));
  try {
    await dropAndBack(proxy, null);
    await dropAndBack(proxy, 'erin');
    await dropAndBack(proxy, null, 'away');
  } finally {
    await proxy.close();
  }
} catch (e) {
  console.error(String(e && e.stack || e));
  await browser.close();
  process.exit(1);
}
await browser.close();
