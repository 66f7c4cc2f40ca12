// full.mjs URL - the play page on a full server (max_sessions = 1), in a
// real browser (Debian's chromium, headless, driven by playwright-core).
// The page's files are fetched first and both pages are served from
// them (each of the browser's fetches would take the one slot for a
// moment): each page's only connection is its WebSocket. Page A takes
// the only slot (the lobby on its screen). Page B's WebSocket is
// refused: the server
// opens it and closes it with 1013 and its line, and the bar must say
// that line, not "Connection lost", and wait at least 10 s before trying
// again by itself. Once A has gone, B's Now button plays. Exit 0 on
// success; any failure throws with what the page showed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const [url] = process.argv.slice(2);
const DEADLINE = 30000; // ends a wait only (docs/testing.md)
const FULL = 'Sorry, the server is full (1 player). Please try again later.';

// The page and the files it loads, while the server has room.
const files = new Map();
const origin = new URL(url).origin;
const fetchFile = async (p) => {
  const r = await fetch(origin + p);
  if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
  files.set(p, { type: r.headers.get('content-type'),
                 body: Buffer.from(await r.arrayBuffer()) });
};
await fetchFile('/play');
const html = files.get('/play').body.toString();
for (const m of html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css|svg))"/g))
  await fetchFile(m[1]);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
         '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync',
         // a page served by the test (not by 127.0.0.1) may still open
         // its WebSocket to 127.0.0.1
         '--disable-features=LocalNetworkAccessChecks'],
});
const screenOf = (p) => p.$$eval('.xterm-rows > div', (ds) => ds.map((d) => d.textContent).join('\n'));
const waitFor = async (what, fn, deadline = DEADLINE) => {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > deadline) throw new Error(`no ${what} within ${deadline} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const bar = (p) => p.evaluate(() => {
  const e = document.getElementById('conn');
  return getComputedStyle(e).display !== 'none' ? e.textContent : '';
});
let a, b;
try {
  // Both pages' files come from those (with one slot, even A's parallel
  // fetches would be refused): each page's one connection is its socket.
  const fromFiles = (r) => {
    const f = files.get(new URL(r.request().url()).pathname);
    if (!f) return r.fulfill({ status: 404, body: '' });
    return r.fulfill({ status: 200, contentType: f.type, body: f.body });
  };
  const ctxA = await browser.newContext({ viewport: { width: 900, height: 560 } });
  a = await ctxA.newPage();
  await a.route('**/*', fromFiles);
  await a.goto(url);
  // (a socket the browser opened ahead and left silent may hold the slot
  // until its request's time is up, 10 s: A's first try may be refused)
  await waitFor('lobby on page A', async () => (await screenOf(a)).includes('Play (as a guest)'),
                2 * DEADLINE);

  const ctxB = await browser.newContext({ viewport: { width: 900, height: 560 } });
  b = await ctxB.newPage();
  await b.route('**/*', fromFiles);
  await b.goto(url);
  const said = await waitFor('the refusal in the bar', async () => {
    const t = await bar(b);
    return t.includes('Trying again') ? t : null;
  });
  if (!said.includes(FULL) || /Connection lost/.test(said))
    throw new Error(`page B's bar says "${said}"`);
  // the wait the page set for this try (the countdown in the bar moves on
  // with the clock, which a busy machine may have moved)
  const wait = await b.evaluate(() => document.getElementById('conn').dataset.wait);
  if (wait !== '10000')
    throw new Error(`page B tries again after ${wait} ms, not 10000: "${said}"`);
  console.log(`ok: on a full server the bar says "${said}"`);

  // A goes: its slot is free; B's Now button gets in.
  await ctxA.close();
  a = null;
  await waitFor('the lobby on page B', async () => {
    if ((await screenOf(b)).includes('Play (as a guest)')) return true;
    if ((await bar(b)).includes('Trying again')) await b.click('#again');
    return false;
  });
  console.log('ok: once the slot is free, Now plays');
} catch (e) {
  for (const p of [a, b]) {
    try { if (p) console.error('bar: ' + await bar(p) + '\nscreen:\n' + await screenOf(p)); } catch {}
  }
  console.error(String(e && e.stack || e));
  await browser.close();
  process.exit(1);
}
await browser.close();
