// The recording written by pabd's html_writer.cpp, read from the page:
// a JSON header (#pabd-data) and one base64 block of binary arrays
// (#pabd-arrays), and the poses, joint ends and contacts of any time.
//
// Layout (see src/output/html_writer.cpp): frame-major arrays, so body i of
// frame f is element f * bodies + i. Positions are 16-bit fractions of each
// body's range of motion, orientations 48-bit "smallest three"; a joint's ends are
// points in its bodies' frames. Velocities are not recorded: the panel derives
// them from the poses around a frame. Sand and water surfaces keep their
// heights at some frames (rec.surfaces[k].frames), each stored as the
// rectangle that changed since the one before: loadRecording expands them to
// whole grids (rec.surfaces[k].heights, 16-bit fractions of "range").

const TYPES = {
  float32: Float32Array,
  uint32: Uint32Array,
  uint16: Uint16Array,
  int16: Int16Array,
  int8: Int8Array,
};

/// The base64 text of an element as bytes.
function decodeBase64(text) {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; ++k) bytes[k] = binary.charCodeAt(k);
  return bytes;
}

/// Typed views of the block, one per entry of the header's "arrays", in place.
/// The writer aligns each to 4 bytes; the page is little-endian, as every
/// browser's platform is.
export function decodeArrays(header, bytes) {
  const out = {};
  for (const [name, { type, offset, length }] of Object.entries(header.arrays)) {
    const Type = TYPES[type];
    if (!Type) throw new Error(`recording: array ${name} has unknown type ${type}`);
    if (offset % Type.BYTES_PER_ELEMENT || offset + length * Type.BYTES_PER_ELEMENT > bytes.byteLength)
      throw new Error(`recording: array ${name} lies outside the binary block`);
    out[name] = new Type(bytes.buffer, bytes.byteOffset + offset, length);
  }
  return out;
}

export function loadRecording() {
  const element = document.getElementById('pabd-data');
  if (!element) throw new Error('no recording in this page (missing #pabd-data)');
  const rec = JSON.parse(element.textContent);
  if (rec.version !== 2) throw new Error(`recording version ${rec.version}; this player reads version 2`);
  const block = document.getElementById('pabd-arrays');
  if (!block) throw new Error('no recording in this page (missing #pabd-arrays)');
  rec.data = decodeArrays(rec, decodeBase64(block.textContent));
  const n = rec.bodies.length;
  const frames = rec.frames.count;
  if (frames < 1 || rec.frames.time.length !== frames) throw new Error('the recording has no frames');
  const expect = (name, width, count) => {
    const a = rec.data[name];
    if (!a || a.length !== count * width)
      throw new Error(`recording: ${name} has ${a?.length ?? 0} numbers, expected ${count * width}`);
  };
  expect('position_range', 6, n);
  expect('position', 3, frames * n);
  expect('orientation', 3, frames * n);
  rec.hasContacts = 'contact_start' in rec.data;
  if (rec.hasContacts) {
    expect('contact_start', 1, frames + 1);
    const c = rec.data.contact_start[frames];
    expect('contact_point', 3, c);
    expect('contact_normal', 3, c);
    expect('contact_force', 1, c);
  }
  // JSON has no NaN or infinity: the writer stores them as null.
  rec.frames.time = rec.frames.time.map((t) => t ?? 0);
  rec.surfaces = (rec.surfaces ?? []).map((s, k) => expandSurface(rec, s, k));
  rec.cloths = rec.cloths ?? [];
  for (const c of rec.cloths) {
    if (c.particles.some((b) => !(b >= 0 && b < n)) || c.triangles.some((v) => !(v >= 0 && v < c.particles.length)))
      throw new Error(`recording: cloth ${c.name} names a body or vertex that is not there`);
  }
  return rec;
}

/// Surface k's height frames as whole grids: each frame is the one before
/// with its stored rectangle written over it (the first one is whole).
function expandSurface(rec, surface, k) {
  const rects = rec.data[`surface${k}_rect`];
  const stored = rec.data[`surface${k}_height`];
  const frames = surface.frames.length;
  const n = surface.columns * surface.rows;
  if (!rects || !stored || rects.length !== frames * 4 || frames < 1 || surface.frames.some((f) => !(f >= 0 && f < rec.frames.count)))
    throw new Error(`recording: surface ${surface.name} has ${frames} frames but not their heights`);
  const heights = new Uint16Array(frames * n);
  let at = 0;
  for (let f = 0; f < frames; ++f) {
    if (f > 0) heights.copyWithin(f * n, (f - 1) * n, f * n);
    const [c0, r0, c1, r1] = rects.subarray(f * 4, f * 4 + 4);
    if (c1 > surface.columns || r1 > surface.rows || at + Math.max(0, c1 - c0) * Math.max(0, r1 - r0) > stored.length)
      throw new Error(`recording: surface ${surface.name}'s frame ${f} lies outside its grid`);
    for (let r = r0; r < r1; ++r)
      for (let c = c0; c < c1; ++c) heights[f * n + r * surface.columns + c] = stored[at++];
  }
  const times = surface.frames.map((f) => rec.frames.time[f]);
  return { ...surface, heights, times };
}

/// Start and end time of the recording [s].
export function timeRange(rec) {
  const t = rec.frames.time;
  return [t[0], t[t.length - 1]];
}

/// The frame pair around time `t` and the blend factor: {f0, f1, alpha}.
export function locate(rec, t) {
  return locateIn(rec.frames.time, t);
}

/// The pair of `times` (increasing) around `t` and the blend factor: {f0, f1, alpha}.
export function locateIn(times, t) {
  const last = times.length - 1;
  if (last === 0 || t <= times[0]) return { f0: 0, f1: 0, alpha: 0 };
  if (t >= times[last]) return { f0: last, f1: last, alpha: 0 };
  let lo = 0;
  let hi = last;  // times[lo] <= t < times[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  const span = times[hi] - times[lo];
  return { f0: lo, f1: hi, alpha: span > 0 ? (t - times[lo]) / span : 0 };
}

/// Body i's position at frame f into out[0..2] [m].
export function positionAt(rec, f, i, out) {
  const n = rec.bodies.length;
  const u = rec.data.position;
  const r = rec.data.position_range;
  for (let k = 0; k < 3; ++k) {
    const lo = r[i * 6 + k];
    out[k] = lo + ((r[i * 6 + 3 + k] - lo) * u[(f * n + i) * 3 + k]) / 65535;
  }
  return out;
}

/// Body i's orientation at frame f as a unit quaternion [x, y, z, w] (three's
/// order), from the writer's "smallest three": three 15-bit components in
/// [-1/sqrt2, 1/sqrt2] (the bits above the lowest) and the index of the
/// dropped, largest one of [w, x, y, z] (the lowest bits of the first two).
export function orientationAt(rec, f, i, out) {
  const o = rec.data.orientation;
  const s = (f * rec.bodies.length + i) * 3;
  const largest = (o[s] & 1) | ((o[s + 1] & 1) << 1);
  const q = [0, 0, 0, 0];  // w, x, y, z
  let sum = 0;
  for (let k = 0, slot = 0; k < 4; ++k) {
    if (k === largest) continue;
    const x = (((o[s + slot++] >> 1) / 32767) * 2 - 1) * Math.SQRT1_2;
    q[k] = x;
    sum += x * x;
  }
  q[largest] = Math.sqrt(Math.max(0, 1 - sum));
  const norm = Math.hypot(q[0], q[1], q[2], q[3]);
  out[0] = q[1] / norm;
  out[1] = q[2] / norm;
  out[2] = q[3] / norm;
  out[3] = q[0] / norm;
  return out;
}

/// Body i's velocity [m/s] and angular velocity [rad/s] at frame f, from the
/// poses of the frames around it (central differences; one-sided at the ends).
export function motionAt(rec, f, i) {
  const last = rec.frames.count - 1;
  const a = Math.max(0, f - 1);
  const b = Math.min(last, f + 1);
  const h = rec.frames.time[b] - rec.frames.time[a];
  if (!(h > 0)) return { velocity: [0, 0, 0], angularVelocity: [0, 0, 0] };
  const pa = positionAt(rec, a, i, [0, 0, 0]);
  const pb = positionAt(rec, b, i, [0, 0, 0]);
  const velocity = [0, 1, 2].map((k) => (pb[k] - pa[k]) / h);
  // q_b conj(q_a) is the turn from a to b, in world axes: angle * axis / h.
  const [ax, ay, az, aw] = orientationAt(rec, a, i, [0, 0, 0, 1]);
  const [bx, by, bz, bw] = orientationAt(rec, b, i, [0, 0, 0, 1]);
  let w = bw * aw + bx * ax + by * ay + bz * az;
  let x = -bw * ax + bx * aw - by * az + bz * ay;
  let y = -bw * ay + by * aw - bz * ax + bx * az;
  let z = -bw * az + bz * aw - bx * ay + by * ax;
  if (w < 0) [w, x, y, z] = [-w, -x, -y, -z];  // the shorter way round
  const s = Math.hypot(x, y, z);
  const angle = 2 * Math.atan2(s, w);
  const scale = s > 0 ? angle / (s * h) : 0;
  return { velocity, angularVelocity: [x * scale, y * scale, z * scale] };
}

/// Contacts of frame f: indices [begin, end) into the contact arrays.
export function contactRange(rec, f) {
  if (!rec.hasContacts) return [0, 0];
  return [rec.data.contact_start[f], rec.data.contact_start[f + 1]];
}
