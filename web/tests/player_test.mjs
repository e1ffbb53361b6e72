// Browser test of the HTML player (registered in tests/CMakeLists.txt as
// html_player; also makes the docs screenshots):
//
//   node web/tests/player_test.mjs --pabd BUILD/pabd --scene scenes/chain.json \
//        --out BUILD/chain.html [--screenshot out.png] [--time T] [--every M]
//
// Runs `pabd run SCENE --html OUT`, opens OUT in headless Debian chromium with
// every non-file request blocked, and checks the player works. Exits 1 with
// the reasons on failure.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
for (const required of ['pabd', 'scene', 'out'])
  if (!args[required]) throw new Error(`player_test: --${required} is required`);

const failures = [];
const check = (ok, message) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures.push(message);
};

// (a) Write the page with the built program, as a user would.
const runArgs = ['run', args.scene, '--html', args.out, '--quiet'];
if (args.every) runArgs.push('--every', args.every);
execFileSync(args.pabd, runArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
const html = readFileSync(args.out, 'utf8');
const rec = JSON.parse(html.match(/<script type="application\/json" id="pabd-data">([^]*?)<\/script>/)[1]);
console.log(`${args.out}: ${(html.length / 1024).toFixed(0)} KiB, ${rec.bodies.length} bodies, ${rec.frames.time.length} frames`);

/// Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what chromium writes) to RGBA.
function decodePng(png) {
  let offset = 8;
  let width = 0, height = 0, channels = 0;
  const idat = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0 || (data[9] !== 2 && data[9] !== 6)) throw new Error('unsupported PNG');
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      pixels[y * stride + x] = (line[x] + predictor) & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; ++i)
    for (let k = 0; k < 4; ++k) rgba[i * 4 + k] = k < channels ? pixels[i * channels + k] : 255;
  return { width, height, rgba };
}

/// HSV hue in [0, 1) and saturation of an RGB colour in [0, 1].
function hueSat(r, g, b) {
  const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
  if (d === 0) return [0, 0];
  let h = max === r ? (g - b) / d : max === g ? 2 + (b - r) / d : 4 + (r - g) / d;
  h = (h / 6 + 1) % 1;
  return [h, d / max];
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  const blocked = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`page error: ${e.stack || e}`));
  // Only the page itself may load: any other request means it is not self-contained.
  await page.route('**', (r) => {
    if (r.request().url().startsWith('file:')) return r.continue();
    blocked.push(r.request().url());
    return r.abort();
  });
  await page.goto(pathToFileURL(args.out).href);
  await page.waitForFunction(() => window.pabdPlayer?.ready || document.getElementById('pabd-error'), null, { timeout: 60000 });
  const overlay = await page.locator('#pabd-error').count();
  // The overlay shows every uncaught error: none must have happened while starting.
  check(overlay === 0, `no error overlay${overlay ? ': ' + (await page.locator('#pabd-error').innerText()) : ''}`);
  const player = await page.evaluate(() => ({ ...window.pabdPlayer }));
  check(player.ready === true, 'window.pabdPlayer.ready');
  // One mesh per recorded body, planes included: nothing skipped or doubled.
  check(player.bodies === rec.bodies.length && player.meshes === rec.bodies.length,
    `meshes ${player.meshes} == bodies ${player.bodies} == recorded bodies ${rec.bodies.length}`);

  // The player loops from its start time: a time inside the run must show the
  // frame nearest to it (frames are `every * dt` apart).
  const [t0, t1] = [rec.frames.time[0], rec.frames.time.at(-1)];
  const t = args.time !== undefined ? Number(args.time) : t0 + 0.25 * (t1 - t0);
  await page.evaluate((time) => { window.pabdPlayer.pause(); window.pabdPlayer.setTime(time); }, t);
  const expected = rec.frames.time.reduce((best, ft, i) => (Math.abs(ft - t) < Math.abs(rec.frames.time[best] - t) ? i : best), 0);
  const frame = await page.evaluate(() => window.pabdPlayer.frame);
  check(Math.abs(frame - expected) <= 1, `setTime(${t.toFixed(3)}) shows frame ${frame} (nearest ${expected})`);
  // Paused means the time stays put across animation frames.
  await page.waitForTimeout(200);
  check(await page.evaluate((time) => Math.abs(window.pabdPlayer.time - time) < 1e-9, t), 'pause() holds the time');

  // The 3D view alone (no panels over it): most moving bodies' colours are on
  // screen. Lights are white, so a lit face keeps roughly its body's hue;
  // a body counts when 20+ saturated pixels are nearest to its hue.
  const dataUrl = await page.evaluate(() => document.querySelector('#pabd-view canvas').toDataURL('image/png'));
  const gl = decodePng(Buffer.from(dataUrl.split(',')[1], 'base64'));
  const moving = rec.bodies.map((b, i) => [i, b]).filter(([, b]) => !b.static);
  const hues = moving.map(([, b]) => hueSat(...b.color)[0]);
  const hits = new Array(moving.length).fill(0);
  for (let p = 0; p < gl.width * gl.height; ++p) {
    const [h, s] = hueSat(gl.rgba[p * 4] / 255, gl.rgba[p * 4 + 1] / 255, gl.rgba[p * 4 + 2] / 255);
    if (s < 0.35) continue;
    let best = -1, distance = 0.03;
    hues.forEach((hb, k) => {
      const d = Math.min(Math.abs(h - hb), 1 - Math.abs(h - hb));
      if (d < distance) [best, distance] = [k, d];
    });
    if (best >= 0) ++hits[best];
  }
  const seen = hits.filter((n) => n >= 20).length;
  const need = Math.min(moving.length, Math.max(1, Math.ceil(moving.length / 2)));
  check(seen >= need, `body colours on screen: ${seen} of ${moving.length} (need ${need})`);

  // Clicking a body's centre selects it: the panel names it and shows its state.
  const target = moving.length ? moving[Math.floor(moving.length / 2)][0] : 0;
  const at = await page.evaluate((i) => window.pabdPlayer.bodyScreenPosition(i), target);
  await page.mouse.click(at.x, at.y);
  const info = (await page.locator('#pabd-info').isVisible()) ? await page.locator('#pabd-info').innerText() : '';
  check(info.includes(rec.bodies[target].name) && info.includes('angular velocity'),
    `clicking ${rec.bodies[target].name} shows its panel`);

  // Full page as a user sees it (the docs screenshot): not blank, i.e. many
  // pixels differ from the background and there are many distinct colours.
  const shot = await page.screenshot();
  if (args.screenshot) writeFileSync(args.screenshot, shot);
  const img = decodePng(shot);
  const colours = new Set();
  let foreground = 0;
  for (let p = 0; p < img.width * img.height; ++p) {
    const [r, g, b] = [img.rgba[p * 4], img.rgba[p * 4 + 1], img.rgba[p * 4 + 2]];
    colours.add((r >> 4) * 256 + (g >> 4) * 16 + (b >> 4));
    if (Math.abs(r - 0x1d) + Math.abs(g - 0x21) + Math.abs(b - 0x27) > 24) ++foreground;
  }
  const fraction = foreground / (img.width * img.height);
  check(img.width === 1280 && img.height === 720, `screenshot ${img.width}x${img.height}`);
  check(fraction > 0.02 && colours.size > 30,
    `screenshot not blank: ${(100 * fraction).toFixed(1)}% non-background pixels, ${colours.size} colours`);

  // play() advances the time (the animation loop runs).
  await page.evaluate(() => window.pabdPlayer.play());
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => { window.pabdPlayer.pause(); return window.pabdPlayer.time; });
  check(t1 === t0 || after !== t, `play() advances the time (${t.toFixed(3)} -> ${after.toFixed(3)} s)`);

  // Self-contained: nothing outside the file was requested; no errors at all.
  check(blocked.length === 0, `no network requests${blocked.length ? ': ' + blocked.join(', ') : ''}`);
  check(errors.length === 0, `no console or page errors${errors.length ? ':\n  ' + errors.join('\n  ') : ''}`);
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`player_test: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('player_test: all checks passed');
