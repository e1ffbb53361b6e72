// Browser test of the HTML player (registered in tests/CMakeLists.txt as
// html_player; also makes the docs screenshots):
//
//   node web/tests/player_test.mjs --pabd BUILD/pabd --scene scenes/chain.json \
//        --out BUILD/chain.html [--screenshot out.png] [--time T] [--every M]
//        [--large-scene S] [--contacts-scene S] [--contacts-screenshot out.png]
//
// Runs `pabd run SCENE --html OUT`, opens OUT in headless Debian chromium with
// every non-file request blocked, and checks the player works. Then two more
// pages beside OUT: the large scene (default: ball_into_stack.json beside
// SCENE, 120 steps) for the size of the binary recording, instancing and the
// clock, and the contacts scene (default: mass_ratio_stack.json, with
// --html-contacts) for the contact display; last a scene written beside OUT
// with sand, water and a cloth [--fields-screenshot out.png], whose surfaces
// and cloth must be meshes in the scene graph that move between two times.
// Exits 1 with the reasons on failure.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
for (const required of ['pabd', 'scene', 'out'])
  if (!args[required]) throw new Error(`player_test: --${required} is required`);
const besideOut = (name) => join(dirname(args.out), name);
const largeScene = args['large-scene'] ?? join(dirname(args.scene), 'ball_into_stack.json');
const contactsScene = args['contacts-scene'] ?? join(dirname(args.scene), 'mass_ratio_stack.json');

const failures = [];
const check = (ok, message) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures.push(message);
};

/// Runs the built program, as a user would.
const pabd = (...a) => execFileSync(args.pabd, [...a, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });

// ---------------------------------------------------------------------------
// The recording as html_writer.cpp writes it: a JSON header and a base64 block.

const TYPES = { float32: Float32Array, uint32: Uint32Array, uint16: Uint16Array, int16: Int16Array, int8: Int8Array };

function readRecording(file) {
  const html = readFileSync(file, 'utf8');
  const header = JSON.parse(html.match(/<script type="application\/json" id="pabd-data">([^]*?)<\/script>/)[1]);
  const base64 = html.match(/<script type="application\/octet-stream" id="pabd-arrays">([^]*?)<\/script>/)[1];
  const bytes = Buffer.from(base64, 'base64');
  const data = {};
  for (const [name, { type, offset, length }] of Object.entries(header.arrays)) {
    const Type = TYPES[type];
    const copy = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length * Type.BYTES_PER_ELEMENT);
    data[name] = new Type(copy);  // Node on x86/ARM is little-endian, as the writer
  }
  return { header, data, size: statSync(file).size };
}

/// Body i's decoded position at frame f.
function position(rec, f, i) {
  const n = rec.header.bodies.length;
  const r = rec.data.position_range;
  return [0, 1, 2].map((k) => r[i * 6 + k] + ((r[i * 6 + 3 + k] - r[i * 6 + k]) * rec.data.position[(f * n + i) * 3 + k]) / 65535);
}

/// Body i's decoded orientation [w, x, y, z] at frame f (see web/player/recording.js).
function orientation(rec, f, i) {
  const o = rec.data.orientation;
  const s = (f * rec.header.bodies.length + i) * 3;
  const largest = (o[s] & 1) | ((o[s + 1] & 1) << 1);
  const q = [0, 0, 0, 0];
  for (let k = 0, slot = 0; k < 4; ++k)
    if (k !== largest) q[k] = (((o[s + slot++] >> 1) / 32767) * 2 - 1) * Math.SQRT1_2;
  q[largest] = Math.sqrt(Math.max(0, 1 - q.reduce((sum, c) => sum + c * c, 0)));
  return q;
}

/// Checks a recording's counts, and its last frame against `pabd run --states`
/// of the same run (CSV: step,time,body,x,y,z,qw,qx,qy,qz,...).
function checkDecoding(label, rec, steps, every, csvFile) {
  const { header, data } = rec;
  const n = header.bodies.length;
  const frames = 1 + Math.floor(steps / every);
  check(header.version === 2 && header.frames.count === frames && header.frames.time.length === frames,
    `${label}: ${header.frames.count} frames recorded (1 + ${steps} steps / ${every})`);
  check(data.position.length === frames * n * 3 && data.orientation.length === frames * n * 3 && data.position_range.length === n * 6,
    `${label}: binary poses decode to ${frames} frames x ${n} bodies`);
  const rows = readFileSync(csvFile, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
  const lastStep = String(Math.floor(steps / every) * every);
  const last = rows.filter((r) => r[0] === lastStep);
  const moving = header.bodies.filter((b) => !b.static).length;
  check(last.length === moving, `${label}: ${last.length} CSV rows of step ${lastStep} for ${moving} moving bodies`);
  // Tolerances: quantisation rounds to the nearest of 65535 steps of each
  // body's range of motion (error <= half a step; a whole step is allowed,
  // plus float32 rounding of the range); orientations keep three components
  // of magnitude <= 1/sqrt2 in 15 bits, each off by <= 2.2e-5, and the fourth
  // follows from them (it is >= 1/2, so its error is at most ~2x theirs): the
  // body turns by < 1.5e-4 rad; 2e-4 allowed.
  let worstPosition = 0;
  let worstAngle = 0;
  const index = new Map(header.bodies.map((b, i) => [b.name, i]));
  for (const r of last) {
    const i = index.get(r[2]);
    const p = position(rec, frames - 1, i);
    for (let k = 0; k < 3; ++k) {
      const range = data.position_range[i * 6 + 3 + k] - data.position_range[i * 6 + k];
      const allowed = range / 65535 + 1e-6 * Math.abs(Number(r[3 + k])) + 1e-9;
      worstPosition = Math.max(worstPosition, Math.abs(p[k] - Number(r[3 + k])) / allowed);
    }
    const q = orientation(rec, frames - 1, i);
    const dot = Math.abs(q.reduce((sum, c, k) => sum + c * Number(r[6 + k]), 0)) / Math.hypot(...q);
    worstAngle = Math.max(worstAngle, 2 * Math.acos(Math.min(1, dot)));
  }
  check(worstPosition <= 1, `${label}: last frame's positions match the CSV within quantisation (worst ${worstPosition.toFixed(2)} of the allowed error)`);
  check(worstAngle <= 2e-4, `${label}: last frame's orientations match the CSV within ${worstAngle.toExponential(1)} rad (2e-4 allowed)`);
}

// ---------------------------------------------------------------------------
// Pixels.

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

/// The 3D view alone (no panels over it), decoded.
async function canvasPixels(page) {
  const dataUrl = await page.evaluate(() => document.querySelector('#pabd-view canvas').toDataURL('image/png'));
  return decodePng(Buffer.from(dataUrl.split(',')[1], 'base64'));
}

/// Pixels within `tolerance` levels (each channel) of one of `colours`
/// (0xRRGGBB), optionally only within `radius` pixels of (cx, cy).
function countColour(img, colours, tolerance, around) {
  let count = 0;
  for (let y = 0; y < img.height; ++y)
    for (let x = 0; x < img.width; ++x) {
      if (around && Math.hypot(x - around.x, y - around.y) > around.radius) continue;
      const p = (y * img.width + x) * 4;
      for (const c of colours)
        if (Math.abs(img.rgba[p] - (c >> 16)) <= tolerance && Math.abs(img.rgba[p + 1] - ((c >> 8) & 255)) <= tolerance &&
            Math.abs(img.rgba[p + 2] - (c & 255)) <= tolerance) {
          ++count;
          break;
        }
    }
  return count;
}

// The colours the player draws unlit (web/player/selection.js, contacts.js).
const OUTLINE = 0xffd21f;
const CONTACT_COLOURS = [0xff5a1f, 0x7f9cc0];

// ---------------------------------------------------------------------------
// The browser.

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
});

/// Opens a page with every non-file request blocked and waits for the player.
async function open(file) {
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
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => window.pabdPlayer?.ready || document.getElementById('pabd-error'), null, { timeout: 60000 });
  const label = basename(file);
  const overlay = await page.locator('#pabd-error').count();
  // The overlay shows every uncaught error: none must have happened while starting.
  check(overlay === 0, `${label}: no error overlay${overlay ? ': ' + (await page.locator('#pabd-error').innerText()) : ''}`);
  return { page, errors, blocked, label };
}

/// Self-contained: nothing outside the file was requested; no errors at all.
function checkClean({ errors, blocked, label }) {
  check(blocked.length === 0, `${label}: no network requests${blocked.length ? ': ' + blocked.join(', ') : ''}`);
  check(errors.length === 0, `${label}: no console or page errors${errors.length ? ':\n  ' + errors.join('\n  ') : ''}`);
}

/// One instance per recorded body in one instanced mesh per shape used.
async function checkInstancing(page, rec, label) {
  const player = await page.evaluate(() => ({ ...window.pabdPlayer }));
  const shapes = new Set(rec.header.bodies.map((b) => b.shape)).size;
  check(player.ready === true, `${label}: window.pabdPlayer.ready`);
  check(player.bodies === rec.header.bodies.length && player.instances === player.bodies && player.meshes === shapes,
    `${label}: ${player.instances} instances in ${player.meshes} meshes for ${player.bodies} bodies of ${shapes} shapes`);
  return player;
}

/// The clock never shows a time before the recording's start: the earliest
/// time drawn since the page loaded (its first animation frames included),
/// and the clock's text at frame 0.
async function checkClock(page, rec, label) {
  const t0 = rec.header.frames.time[0];
  await page.waitForTimeout(300);  // a few animation frames while playing
  const earliest = await page.evaluate(() => window.pabdPlayer.minTimeShown);
  check(earliest >= t0, `${label}: earliest time drawn ${earliest.toFixed(3)} s >= ${t0} s`);
  await page.evaluate(() => { window.pabdPlayer.pause(); window.pabdPlayer.setTime(-1); });
  const clock = await page.locator('#pabd-clock').innerText();
  check(parseFloat(clock) >= 0 && /frame 1\//.test(clock), `${label}: clock at frame 0 reads "${clock}"`);
}

/// A box dropped on a 41 x 41 sand bed, a pool of waves beside it and a 4 x 4
/// cloth falling freely above: the fields the player draws as meshes.
function fieldsScene() {
  const vertices = [];
  const triangles = [];
  for (let r = 0; r < 4; ++r) for (let c = 0; c < 4; ++c) vertices.push([1.2 + 0.2 * c, 1.5, -0.3 + 0.2 * r]);
  for (let r = 0; r < 3; ++r)
    for (let c = 0; c < 3; ++c) {
      const v = r * 4 + c;
      triangles.push([v, v + 4, v + 1], [v + 1, v + 4, v + 5]);
    }
  return {
    settings: { dt: 1 / 60, iterations: 10, gravity: [0, -9.81, 0] },
    sand: { columns: 41, rows: 41, spacing: 0.05, depth: 0.2 },
    water: { level: 0, columns: 24, rows: 24, spacing: 0.25, centre: [5, 0, 0], waves: [{ amplitude: 0.1, wavelength: 3 }] },
    cloths: [{ name: 'flag', vertices, triangles }],
    bodies: [{ name: 'box', shape: { type: 'box', size: [0.4, 0.2, 0.4] }, mass: 40, position: [0, 0.31, 0] }],
  };
}

/// (d) Sand, water and cloth: the recording's surfaces and cloth decode, the
/// bodies they draw are not instanced, their meshes are in the scene graph
/// with the recorded vertex counts, every one of them moves between two
/// times, and the sand is on screen in its colour.
async function checkFields() {
  const scene = besideOut('html_player_fields.json');
  writeFileSync(scene, JSON.stringify(fieldsScene()));
  const out = besideOut('html_player_fields.html');
  pabd('run', scene, '--steps', '60', '--html', out);
  const rec = readRecording(out);
  const { header, data } = rec;
  const hidden = header.bodies.filter((b) => b.hidden).map((b) => b.name);
  check(hidden.length === 17 && hidden.includes('sand') && hidden.includes('flag_15') && !hidden.includes('box'),
    `${basename(out)}: the sand's body and the 16 cloth particles are hidden (${hidden.length})`);
  const [sand, water] = header.surfaces ?? [];
  check(sand?.kind === 'sand' && sand.columns === 41 && sand.rows === 41 && header.bodies[sand.body]?.name === 'sand' &&
    water?.kind === 'water' && water.columns === 24 && water.rows === 24,
    `${basename(out)}: a 41 x 41 sand surface and a 24 x 24 water surface recorded`);
  for (const [k, s] of (header.surfaces ?? []).entries()) {
    const rects = data[`surface${k}_rect`];
    let stored = 0;
    for (let f = 0; f < s.frames.length; ++f) stored += (rects[4 * f + 2] - rects[4 * f]) * (rects[4 * f + 3] - rects[4 * f + 1]);
    check(s.frames.length === 61 && rects.length === 4 * 61 && stored === data[`surface${k}_height`].length &&
      rects[2] === s.columns && rects[3] === s.rows,
      `${s.name}: 61 height frames, the first whole, ${stored} heights stored (${s.columns * s.rows} a frame)`);
  }
  const cloth = header.cloths?.[0];
  check(cloth?.name === 'flag' && cloth.particles.length === 16 && cloth.triangles.length === 54 &&
    cloth.particles.every((b) => header.bodies[b].name.startsWith('flag_')),
    `${basename(out)}: the cloth's 16 vertices are its particles, 18 triangles`);

  const f = await open(out);
  const player = await f.page.evaluate(() => ({ ...window.pabdPlayer, list: window.pabdPlayer.fields() }));
  check(player.instances === header.bodies.length - hidden.length,
    `${f.label}: ${player.instances} instances: the hidden bodies are not drawn as bodies`);
  const want = { sand: ['sand', 41 * 41], water: ['water', 24 * 24], flag: ['cloth', 16] };
  for (const [name, [kind, vertices]] of Object.entries(want)) {
    const m = player.list.find((x) => x.name === name);
    check(m?.kind === kind && m.vertices === vertices && m.triangles > 0 && m.visible,
      `${f.label}: the scene graph has the ${kind} mesh "${name}" with ${m?.vertices} vertices (${vertices})`);
  }
  const times = header.frames.time;
  const at = async (t) => f.page.evaluate((time) => {
    window.pabdPlayer.pause();
    window.pabdPlayer.setTime(time);
    return Object.fromEntries(['sand', 'water', 'flag'].map((n) => [n, window.pabdPlayer.fieldPositions(n)]));
  }, t);
  const early = await at(times[0]);
  const late = await at(times.at(-1));
  for (const name of Object.keys(want)) {
    let moved = 0;
    for (let k = 0; k < early[name].length; ++k) moved = Math.max(moved, Math.abs(late[name][k] - early[name][k]));
    // The box presses the sand by millimetres, the waves are 0.1 m high, the
    // cloth falls a metre and more in the second recorded.
    const need = name === 'sand' ? 1e-3 : 0.02;
    check(moved > need, `${name}: vertices move between the first and last frames (by up to ${moved.toFixed(4)} m)`);
  }
  // The last frame of the sand shows the recording's last heights (16 bits of its range).
  const last = expandSurfaceFrame(rec, 0, sand.frames.length - 1);
  let worst = 0;
  for (let v = 0; v < 41 * 41; ++v) worst = Math.max(worst, Math.abs(late.sand[3 * v + 1] - last[v]));
  check(worst <= (sand.range[1] - sand.range[0]) / 65535 + 1e-6, `sand: the last frame drawn matches its recorded heights (worst ${worst.toExponential(1)} m)`);
  // The sand's colour on screen: a lit sandy pixel keeps roughly its hue, 0.11.
  const img = await canvasPixels(f.page);
  if (args['fields-screenshot']) writeFileSync(args['fields-screenshot'], await f.page.screenshot());
  let sandy = 0;
  for (let p = 0; p < img.width * img.height; ++p) {
    const [h, sat] = hueSat(img.rgba[p * 4] / 255, img.rgba[p * 4 + 1] / 255, img.rgba[p * 4 + 2] / 255);
    if (Math.abs(h - 0.11) < 0.03 && sat > 0.2 && sat < 0.6) ++sandy;
  }
  check(sandy > 0.02 * img.width * img.height, `sand on screen: ${sandy} sandy pixels (> 2% of the view)`);
  checkClean(f);
  await f.page.close();
}

/// Surface k's frame `frame` as heights [m], from its stored rectangles.
function expandSurfaceFrame(rec, k, frame) {
  const s = rec.header.surfaces[k];
  const rects = rec.data[`surface${k}_rect`];
  const stored = rec.data[`surface${k}_height`];
  const u = new Uint16Array(s.columns * s.rows);
  let at = 0;
  for (let f = 0; f <= frame; ++f) {
    const [c0, r0, c1, r1] = rects.subarray(4 * f, 4 * f + 4);
    for (let r = r0; r < r1; ++r) for (let c = c0; c < c1; ++c) u[r * s.columns + c] = stored[at++];
  }
  return Array.from(u, (x) => s.range[0] + ((s.range[1] - s.range[0]) * x) / 65535);
}

try {
  // -------------------------------------------------------------------------
  // (a) The main scene: counts, decoding, frame lookup, colours, selection.
  const every = Number(args.every ?? 1);
  pabd('run', args.scene, '--html', args.out, '--every', String(every));
  const rec = readRecording(args.out);
  const steps = rec.header.timing.solve_ms.length;
  const csv = besideOut('html_player_states.csv');
  pabd('run', args.scene, '--steps', String(steps), '--every', String(every), '--states', csv);
  console.log(`${args.out}: ${(rec.size / 1024).toFixed(0)} KiB, ${rec.header.bodies.length} bodies, ${rec.header.frames.count} frames`);
  checkDecoding(basename(args.out), rec, steps, every, csv);

  const main = await open(args.out);
  const { page } = main;
  await checkInstancing(page, rec, main.label);
  await checkClock(page, rec, main.label);

  // The player loops from its start time: a time inside the run must show the
  // frame nearest to it (frames are `every * dt` apart).
  const times = rec.header.frames.time;
  const [t0, t1] = [times[0], times.at(-1)];
  const t = args.time !== undefined ? Number(args.time) : t0 + 0.25 * (t1 - t0);
  await page.evaluate((time) => { window.pabdPlayer.pause(); window.pabdPlayer.setTime(time); }, t);
  const expected = times.reduce((best, ft, i) => (Math.abs(ft - t) < Math.abs(times[best] - t) ? i : best), 0);
  const frame = await page.evaluate(() => window.pabdPlayer.frame);
  check(Math.abs(frame - expected) <= 1, `setTime(${t.toFixed(3)}) shows frame ${frame} (nearest ${expected})`);
  // Paused means the time stays put across animation frames.
  await page.waitForTimeout(200);
  check(await page.evaluate((time) => Math.abs(window.pabdPlayer.time - time) < 1e-9, t), 'pause() holds the time');

  // Most moving bodies' colours are on screen. Lights are white, so a lit
  // face keeps roughly its body's hue; a body counts when 20+ saturated
  // pixels are nearest to its hue.
  const gl = await canvasPixels(page);
  const moving = rec.header.bodies.map((b, i) => [i, b]).filter(([, b]) => !b.static);
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

  // Clicking a body's centre selects it: the panel names it and shows its
  // state, its outline is drawn around it and the body itself lightens.
  const target = moving.length ? moving[Math.floor(moving.length / 2)][0] : 0;
  const at = await page.evaluate((i) => window.pabdPlayer.bodyScreenPosition(i), target);
  const before = await canvasPixels(page);
  await page.mouse.click(at.x, at.y);
  const info = (await page.locator('#pabd-info').isVisible()) ? await page.locator('#pabd-info').innerText() : '';
  check(info.includes(rec.header.bodies[target].name) && info.includes('angular velocity'),
    `clicking ${rec.header.bodies[target].name} shows its panel`);
  check(await page.evaluate(() => window.pabdPlayer.selected) === target, `clicking selects body ${target}`);
  const after = await canvasPixels(page);
  // The outline's colour is drawn unlit; it is more saturated (0.88) than any
  // lit body (body_color's 0.65), so none of it is there before the click.
  // A box around a body at least ~10 px across has 40+ outline pixels; the
  // 150 px radius holds the outline of a body up to ~200 px across.
  const ring = { x: at.x, y: at.y, radius: 150 };
  const outlineBefore = countColour(before, [OUTLINE], 8, ring);
  const outlineAfter = countColour(after, [OUTLINE], 8, ring);
  check(outlineBefore === 0 && outlineAfter >= 40, `selection outline pixels near the body: ${outlineBefore} before, ${outlineAfter} after (need 0, >= 40)`);
  // The body's own colour lightens towards white (45%): the clicked pixel
  // gets brighter by far more than antialiasing noise (a few levels).
  const px = (img) => { const p = (Math.round(at.y) * img.width + Math.round(at.x)) * 4; return img.rgba[p] + img.rgba[p + 1] + img.rgba[p + 2]; };
  check(px(after) - px(before) >= 30, `selected body lightens: ${px(before)} -> ${px(after)} (sum of RGB at its centre, +30 needed)`);
  // No contacts were recorded: the checkbox is hidden and nothing is drawn.
  check(await page.locator('#pabd-contacts').isHidden() && (await page.evaluate(() => window.pabdPlayer.contacts)) === 0,
    'without --html-contacts: no contacts toggle, no contacts drawn');

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
  const later = await page.evaluate(() => { window.pabdPlayer.pause(); return window.pabdPlayer.time; });
  check(t1 === t0 || later !== t, `play() advances the time (${t.toFixed(3)} -> ${later.toFixed(3)} s)`);
  checkClean(main);
  await page.close();

  // -------------------------------------------------------------------------
  // (b) A large scene: 1001 bodies over 121 frames fit in under 3 MB (the
  // issue's bound; JSON numbers took 16 MB), as 3 instanced meshes, and the
  // clock starts at 0 (a long first frame once made it read -0.17 s). The
  // page's size depends on bodies and frames only (12 bytes a pose), not on
  // the solver: 2 iterations keep the run short.
  const largeOut = besideOut('html_player_large.html');
  pabd('run', largeScene, '--steps', '120', '--iterations', '2', '--html', largeOut);
  const large = readRecording(largeOut);
  check(large.size < 3e6, `${basename(largeOut)}: ${(large.size / 1e6).toFixed(2)} MB (< 3 MB)`);
  check(large.header.frames.count === 121 && large.data.position.length === 121 * 3 * large.header.bodies.length &&
    large.data.orientation.length === 121 * 3 * large.header.bodies.length,
    `${basename(largeOut)}: ${large.header.frames.count} frames x ${large.header.bodies.length} bodies decode`);
  const big = await open(largeOut);
  await checkInstancing(big.page, large, big.label);
  await checkClock(big.page, large, big.label);
  checkClean(big);
  await big.page.close();

  // -------------------------------------------------------------------------
  // (c) Contacts, recorded with --html-contacts: the arrays decode, the frame
  // shown draws exactly its recorded contacts, and they show on screen in
  // their colours (unlit, over the bodies) only while the toggle is on.
  const contactsOut = besideOut('html_player_contacts.html');
  pabd('run', contactsScene, '--steps', '30', '--html', contactsOut, '--html-contacts');
  const withContacts = readRecording(contactsOut);
  const starts = withContacts.data.contact_start;
  const frames = withContacts.header.frames.count;
  const total = starts[frames];
  check(starts.length === frames + 1 && starts[0] === 0 && starts.every((s, f) => f === 0 || s >= starts[f - 1]) &&
    withContacts.data.contact_point.length === 3 * total && withContacts.data.contact_normal.length === 3 * total &&
    withContacts.data.contact_force.length === total, `${basename(contactsOut)}: ${total} contacts over ${frames} frames decode`);
  const last = frames - 1;
  const lastCount = starts[last + 1] - starts[last];
  check(lastCount > 0, `${basename(contactsOut)}: the last frame has ${lastCount} contacts (a stack at rest touches)`);
  const c = await open(contactsOut);
  await c.page.evaluate((time) => { window.pabdPlayer.pause(); window.pabdPlayer.setTime(time); }, withContacts.header.frames.time[last]);
  const drawn = await c.page.evaluate(() => window.pabdPlayer.contacts);
  check(drawn === lastCount, `contacts drawn at the last frame: ${drawn} (recorded ${lastCount})`);
  await c.page.evaluate(() => window.pabdPlayer.showContacts(true));
  const on = countColour(await canvasPixels(c.page), CONTACT_COLOURS, 8);
  if (args['contacts-screenshot']) writeFileSync(args['contacts-screenshot'], await c.page.screenshot());
  await c.page.evaluate(() => window.pabdPlayer.showContacts(false));
  const off = countColour(await canvasPixels(c.page), CONTACT_COLOURS, 8);
  // Each contact is a 6 px dot and a normal line of 4% of the scene, tens of
  // pixels; 10 per contact leaves room for dots drawn over one another.
  // Counted beyond the same frame without them, where a lit body may match
  // the grey-blue by chance.
  check(on - off >= 10 * lastCount, `contact pixels: ${on} shown, ${off} hidden (need ${10 * lastCount} more)`);
  checkClean(c);
  await c.page.close();

  await checkFields();
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`player_test: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('player_test: all checks passed');
