// browser.mjs URL OUTDIR PLAN - plays rogued in a real browser (Debian's
// chromium, headless, driven by playwright-core): the page shows the
// lobby, a guest game starts, movement keys move the '@' and the turn
// counter, a larger window gets a larger font (still at least 80x24, the
// status line on the last row), and a screenshot of the game is
// taken and checked against the terminal's own text. Offline (the
// device's network gone, the socket still open) the page says so, and a
// key typed meanwhile is played once it is back; a paste past the
// server's 4 KiB message keeps the connection, and in a game is dropped
// with a notice. Then a new game of
// the same seed follows PLAN (JSON from tests/web/fireball_plan: the keys
// to a scroll of fireball, the keys that start aiming it, the tile to
// click) and casts the scroll with a mouse click on that tile, and again
// on a touch tablet with a tap; Ctrl+C over selected text in the lobby
// copies it and leaves the connection be; there, q in the lobby: the server's
// goodbye is not hidden by the bar that offers to connect again. A page
// whose terminal script is refused (503) says so and reloads on its
// button. Reloaded, the page is answered 304 and the terminal's files
// (xterm.js, its CSS, the fit add-on and web/font.js) come from the
// browser's cache. Exit 0 on success; any failure throws
// with what was on the screen.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const [url, outdir, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const DEADLINE = 30000; // ends a wait only (docs/testing.md)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
         '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
let page;
try {
  const context = await browser.newContext({ viewport: { width: 900, height: 560 } });
  page = await context.newPage();
  await page.goto(url);
  // The terminal's rows as text (xterm.js's DOM renderer: one div a row).
  const rows = () => page.$$eval('.xterm-rows > div', (ds) => ds.map((d) => d.textContent));
  const screen = async () => (await rows()).join('\n');
  const waitText = async (text) => {
    const t0 = Date.now();
    for (;;) {
      const s = await screen();
      if (s.includes(text)) return s;
      if (Date.now() - t0 > DEADLINE)
        throw new Error(`no "${text}" on the screen within ${DEADLINE} ms:\n${s}`);
      await page.waitForTimeout(50);
    }
  };
  const turn = (s) => { /* "Turn:N", or "T:N" where the status line is shortened to its width */ const m = s.match(/(?:Turn:\s*|\bT:)(\d+)/); return m ? Number(m[1]) : -1; };
  const at = (rs) => { for (let y = 0; y < rs.length; y++) { const x = rs[y].indexOf('@'); if (x >= 0) return [x, y]; } return null; };

  await waitText('Play (as a guest)');
  await page.locator('.xterm').click(); // focus the terminal
  await page.keyboard.press('p');
  await waitText('Name: guest');
  await page.keyboard.press('Enter'); // the guest name offered
  const first = await waitText('HP:');
  const t0 = turn(first);
  if (t0 < 0) throw new Error('no turn counter on the status line:\n' + first);
  // Move until a key moves the '@' (walls may be in the way).
  let moved = false;
  for (const key of ['l', 'h', 'j', 'k', 'y', 'u', 'b', 'n']) {
    const before = at(await rows());
    const tb = turn(await screen());
    await page.keyboard.press(key);
    const t1 = Date.now();
    while (Date.now() - t1 < DEADLINE && turn(await screen()) === tb)
      await page.waitForTimeout(20);
    const after = at(await rows());
    if (turn(await screen()) !== tb + 1)
      throw new Error(`key ${key}: the turn did not advance:\n` + await screen());
    if (before && after && (before[0] !== after[0] || before[1] !== after[1])) { moved = true; break; }
  }
  if (!moved) throw new Error('no key moved the @:\n' + await screen());

  // A larger window: the page picks a larger font (the terminal keeps at
  // least 80x24 and fills the window), reports the new size, and the
  // server redraws at it (the status line is on the terminal's last row,
  // or past 33 rows under the log's twelve: row 32).
  const small = (await rows()).length;
  const font0 = await page.evaluate(() => term.options.fontSize);
  await page.setViewportSize({ width: 1300, height: 900 });
  const t2 = Date.now();
  let rs;
  for (;;) {
    rs = await rows();
    const f = await page.evaluate(() => [term.options.fontSize, term.cols, term.rows]);
    if (f[0] > font0 && f[1] >= 80 && f[2] >= 24 && rs.length === f[2] &&
        /HP:/.test(rs[Math.min(rs.length - 1, 32)])) break;
    if (Date.now() - t2 > DEADLINE)
      throw new Error(`the view did not follow the window (font ${font0} -> ${f}):\n` + rs.join('\n'));
    await page.waitForTimeout(50);
  }

  // A screenshot, checked: the terminal's text holds the '@' and the
  // status line, and the picture is a real one (not blank).
  fs.mkdirSync(outdir, { recursive: true });
  const shot = path.join(outdir, 'browser-game.png');
  await page.screenshot({ path: shot });
  const png = fs.readFileSync(shot);
  if (png.length < 5000 || png.readUInt32BE(0) !== 0x89504e47)
    throw new Error(`the screenshot ${shot} is not a real picture (${png.length} bytes)`);
  const text = await screen();
  if (!at(await rows()) || !/HP:\s*\d+\/\d+/.test(text))
    throw new Error('the screenshot\'s screen lacks the @ or the status line:\n' + text);
  // The picture has light pixels where the terminal drew (sampled through
  // the canvas of a second page that loads the PNG).
  const lit = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 300) n++;
    return n;
  }, png.toString('base64'));
  if (lit < 500)
    throw new Error(`the screenshot has ${lit} light pixels: nothing drawn?`);
  console.log(`ok: lobby, guest game, moved, resized ${small} -> ${rs.length} rows at a larger font, screenshot ${shot} (${lit} light pixels)`);

  // The device goes offline (the socket stays open, as it can for minutes
  // on a real network): the bar says the keys wait; a key typed meanwhile
  // is played once the network is back, and the bar goes.
  const bar = () => page.$eval('#conn', (e) => (e.style.display === 'none' ? '' : e.textContent));
  const waitBar = async (want) => {
    const t0 = Date.now();
    for (;;) {
      const b = await bar();
      if (b === want) return;
      if (Date.now() - t0 > DEADLINE) throw new Error(`the bar says "${b}", not "${want}"`);
      await page.waitForTimeout(50);
    }
  };
  const tOff = turn(await screen());
  await context.setOffline(true);
  await waitBar('No network: your keys wait until it is back.');
  await page.keyboard.press('.');
  await context.setOffline(false);
  await waitBar('');
  const t5 = Date.now();
  while (turn(await screen()) !== tOff + 1) {
    if (Date.now() - t5 > DEADLINE) throw new Error(`the key typed offline was not played (turn ${tOff}):\n` + await screen());
    await page.waitForTimeout(50);
  }
  console.log(`ok: offline, the bar said so; the key typed meanwhile played once back (turn ${tOff + 1})`);

  // A paste past the server's 4 KiB message (5,000 dots): the page sends
  // it in parts, so the connection stays (it was closed with 1009, and
  // the page reconnected). The terminal marks it (bracketed paste, which
  // the server turns on), and in a game the server drops it and says so:
  // no turn is played.
  const tPaste = turn(await screen());
  await page.evaluate(() => { window.wsBeforePaste = ws; term.paste('.'.repeat(5000)); });
  const tp0 = Date.now();
  while (!(await screen()).includes('Pasted text is not played as keys: it was dropped.')) {
    if (Date.now() - tp0 > DEADLINE) throw new Error(`the paste was not said dropped (turn ${tPaste}):\n` + await screen());
    await page.waitForTimeout(50);
  }
  if (turn(await screen()) !== tPaste)
    throw new Error(`the paste played turns (${tPaste} -> ${turn(await screen())})`);
  if (!await page.evaluate(() => ws === window.wsBeforePaste && ws.readyState === WebSocket.OPEN))
    throw new Error('a paste of 5,000 keys cost the connection');
  console.log(`ok: a paste of 5,000 keys kept the connection and played no turn (turn ${tPaste})`);

  // Quit this game; a new one (the same seed) to aim a scroll with the mouse.
  await page.keyboard.press('Q');
  await waitText('Really quit? (y/n)');
  await page.keyboard.press('y');
  await waitText('Play as guest1');
  // Ctrl+C with text selected is the browser's copy, not a ^C to the
  // server, which quits the lobby ("Thanks for playing. Goodbye!"): after
  // it the connection is there and p plays.
  await page.evaluate(() => term.select(0, 0, 12));
  if (!await page.evaluate(() => term.hasSelection()))
    throw new Error('no text selected for Ctrl+C');
  await page.keyboard.press('Control+c');
  await page.keyboard.press('p');
  await waitText('HP:');
  if ((await screen()).includes('Goodbye'))
    throw new Error('Ctrl+C over a selection reached the server:\n' + await screen());
  console.log('ok: Ctrl+C over selected text copied it; the lobby stayed');
  for (const k of plan.keys) {
    if (k === 'g') { // the pick-up: said in the log (by its label: unknown)
      await page.keyboard.press(k);
      await waitText('You pick up a scroll');
      continue;
    }
    const tb = turn(await screen());
    await page.keyboard.press(k);
    const t3 = Date.now();
    while (turn(await screen()) === tb) {
      if (Date.now() - t3 > DEADLINE) throw new Error(`key ${k} took no turn:\n` + await screen());
      await page.waitForTimeout(10);
    }
  }
  for (const k of plan.aim) await page.keyboard.press(k);
  if ((await waitText('Aim the scroll ')).includes('Aim the scroll of')) // unknown until cast
    throw new Error('aiming told the scroll');
  // The click: the middle of terminal cell (column, row) = the map tile.
  const box = await page.locator('.xterm-screen').boundingBox();
  const cols = await page.evaluate(() => term.cols);
  const nrows = await page.evaluate(() => term.rows);
  const [cx, cy] = plan.click;
  await page.mouse.click(box.x + (cx + 0.5) * box.width / cols,
                         box.y + (cy + 0.5) * box.height / nrows);
  // Only a cast says this (an Esc or a click off range says otherwise).
  await waitText('The fireball explodes');
  console.log(`ok: the scroll of fireball cast by a mouse click on (${cx},${cy})`);

  // The same by touch: a tablet (full layout, 80 columns or more), the
  // plan's keys, then a tap on the tile is the click.
  const tablet = await browser.newContext({ viewport: { width: 1024, height: 700 },
                                            hasTouch: true, isMobile: true });
  page = await tablet.newPage();
  await page.goto(url);
  await waitText('Play (as a guest)');
  await page.tap('#keys button[data-key="kbd"]:visible');
  await page.keyboard.press('p');
  await waitText('Name: guest');
  await page.tap('#keys button[data-key="enter"]:visible');
  await waitText('HP:');
  for (const k of plan.keys) {
    if (k === 'g') { await page.keyboard.press(k); await waitText('You pick up a scroll'); continue; }
    const tb = turn(await screen());
    await page.keyboard.press(k);
    const t4 = Date.now();
    while (turn(await screen()) === tb) {
      if (Date.now() - t4 > DEADLINE) throw new Error(`key ${k} took no turn:\n` + await screen());
      await page.waitForTimeout(10);
    }
  }
  for (const k of plan.aim) await page.keyboard.press(k);
  if ((await waitText('Aim the scroll ')).includes('Aim the scroll of')) // unknown until cast
    throw new Error('aiming told the scroll');
  const tbox = await page.locator('.xterm-screen').boundingBox();
  const [tcols, trows] = await page.evaluate(() => [term.cols, term.rows]);
  if (tcols < 80 || trows < 24) throw new Error(`the tablet is ${tcols}x${trows}`);
  await page.touchscreen.tap(tbox.x + (cx + 0.5) * tbox.width / tcols,
                             tbox.y + (cy + 0.5) * tbox.height / trows);
  await waitText('The fireball explodes');
  console.log(`ok: the scroll of fireball cast by a tap on (${cx},${cy})`);

  // The server's goodbye (q in the lobby) is the terminal's first row;
  // the bar that offers to connect again must not hide it.
  await page.keyboard.press('Q');
  await waitText('Really quit? (y/n)');
  await page.keyboard.press('y');
  await waitText('Play as guest');
  const rowsBefore = await page.evaluate(() => term.rows);
  await page.keyboard.press('q');
  await waitText('Thanks for playing. Goodbye!');
  const t6 = Date.now();
  while ((await page.$eval('#conn', (e) => getComputedStyle(e).display)) === 'none') {
    if (Date.now() - t6 > DEADLINE) throw new Error('no bar after the goodbye');
    await page.waitForTimeout(50);
  }
  const hidden = await page.evaluate(() => {
    const row = [...document.querySelectorAll('.xterm-rows > div')]
      .find((d) => d.textContent.includes('Goodbye'));
    const r = row.getBoundingClientRect();
    const covered = [];
    for (const fx of [0.02, 0.1, 0.3]) { // the row's text is at its left
      const x = r.left + fx * r.width, y = r.top + r.height / 2;
      if (document.getElementById('conn').contains(document.elementFromPoint(x, y)))
        covered.push([Math.round(x), Math.round(y)]);
    }
    return covered;
  });
  if (hidden.length)
    throw new Error(`the bar hides the goodbye at ${JSON.stringify(hidden)}`);
  console.log('ok: the goodbye shows under the bar that offers to connect again');
  // Above the terminal, the bar moves it down: the terminal is fitted
  // again, its last row in sight; once the bar goes, again to its rows.
  const inSight = () => page.evaluate(() => {
    const t = document.getElementById('terminal').getBoundingClientRect();
    const s = document.querySelector('.xterm-screen').getBoundingClientRect();
    return s.bottom <= t.bottom + 1;
  });
  if (!(await inSight())) throw new Error('the bar pushes the last rows out of sight');
  await page.click('#again');
  await waitText('Play (as a guest)');
  const rowsAfter = await page.evaluate(() => term.rows);
  if (!(await inSight()) || rowsAfter !== rowsBefore)
    throw new Error(`after the bar: ${rowsAfter} rows (${rowsBefore} before)`);
  console.log(`ok: the terminal refits under the bar and back (${rowsBefore} rows)`);

  // The terminal's script refused (503, as the server answers an address
  // past its connections a minute): the page says so and offers a reload,
  // which plays once the script comes.
  const busy = await browser.newContext({ viewport: { width: 900, height: 560 } });
  page = await busy.newPage();
  await page.route('**/xterm.*js', (r) => r.fulfill({ status: 503, contentType: 'text/plain',
    headers: { 'Retry-After': '10' }, body: 'Too many connections from your address: try again later.\n' }));
  await page.goto(url);
  const said = await (await page.waitForFunction(() => {
    const e = document.getElementById('conn');
    return getComputedStyle(e).display !== 'none' && e.textContent ? e.textContent : null;
  }, null, { timeout: DEADLINE })).jsonValue();
  if (!/did not load/.test(said)) throw new Error(`the page without its terminal says "${said}"`);
  await page.unroute('**/xterm.*js');
  await page.click('#again');
  await waitText('Play (as a guest)');
  console.log(`ok: without its terminal's script the page says "${said}"; its button reloads it`);
  // A reload: the page is asked again (304 while it is the same), the
  // terminal's files, at their hashed addresses, come from the browser's
  // cache without a request to the server (docs/site.md, "The play
  // page's files").
  const cachectx = await browser.newContext({ viewport: { width: 900, height: 560 } });
  page = await cachectx.newPage();
  await page.goto(url);
  await waitText('Play (as a guest)');
  const cdp = await cachectx.newCDPSession(page);
  await cdp.send('Network.enable');
  const asked = new Map(), cached = new Set(), status = new Map();
  cdp.on('Network.requestWillBeSent', (e) => asked.set(e.requestId, new URL(e.request.url).pathname));
  cdp.on('Network.requestServedFromCache', (e) => cached.add(asked.get(e.requestId)));
  cdp.on('Network.responseReceivedExtraInfo', (e) => status.set(asked.get(e.requestId), e.statusCode));
  await page.reload();
  await waitText('Play (as a guest)');
  await cdp.detach();
  const files = [...asked.values()].filter((p) => /^\/(xterm|addon-fit|font)\.[0-9a-f]{16}\.(js|css)$/.test(p));
  if (files.length !== 4 || !files.every((p) => cached.has(p) && !status.has(p)))
    throw new Error(`reloaded, the terminal's files were not all from the cache: asked ${JSON.stringify([...asked.values()])}, cached ${JSON.stringify([...cached])}, from the server ${JSON.stringify([...status])}`);
  if (status.get('/play') !== 304)
    throw new Error(`reloaded, /play was answered ${status.get('/play')}, not 304`);
  console.log(`ok: reloaded, /play was answered 304 and ${files.join(', ')} came from the cache`);
} catch (e) {
  if (page) {
    try { fs.mkdirSync(outdir, { recursive: true }); await page.screenshot({ path: path.join(outdir, 'browser-failed.png') }); } catch {}
  }
  console.error(String(e && e.stack || e));
  await browser.close();
  process.exit(1);
}
await browser.close();
