// The recording written by pabd's html_writer.cpp, read from the page, and
// interpolation between its frames.
//
// Layout (see src/output/html_writer.cpp): flat frame-major arrays, so body i
// of frame f starts at (f * bodies + i) * 3 (positions, velocities, angular
// velocities) or * 4 (orientations, [w, x, y, z]).

export function loadRecording() {
  const element = document.getElementById('pabd-data');
  if (!element) throw new Error('no recording in this page (missing #pabd-data)');
  const rec = JSON.parse(element.textContent);
  const n = rec.bodies.length;
  const frames = rec.frames.time.length;
  if (frames < 1) throw new Error('the recording has no frames');
  const expect = (name, array, width, count) => {
    if (array.length !== count * width)
      throw new Error(`recording: ${name} has ${array.length} numbers, expected ${count * width}`);
  };
  expect('position', rec.frames.position, 3, frames * n);
  expect('orientation', rec.frames.orientation, 4, frames * n);
  expect('velocity', rec.frames.velocity, 3, frames * n);
  expect('angular_velocity', rec.frames.angular_velocity, 3, frames * n);
  expect('joint_a', rec.frames.joint_a, 3, frames * rec.joints.length);
  expect('joint_b', rec.frames.joint_b, 3, frames * rec.joints.length);
  // JSON has no NaN or infinity: the writer stores them as null. Draw them
  // as 0 rather than letting NaN poison three.js' bounding volumes.
  for (const key of Object.keys(rec.frames)) {
    const a = rec.frames[key];
    for (let k = 0; k < a.length; ++k) if (a[k] === null) a[k] = 0;
  }
  return rec;
}

/// Start and end time of the recording [s].
export function timeRange(rec) {
  const t = rec.frames.time;
  return [t[0], t[t.length - 1]];
}

/// The frame pair around time `t` and the blend factor: {f0, f1, alpha}.
export function locate(rec, t) {
  const times = rec.frames.time;
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

/// Linear blend of the 3-vectors at slots s0 and s1 of `array` into out[0..2].
export function lerp3(array, s0, s1, alpha, out) {
  for (let k = 0; k < 3; ++k) {
    const a = array[s0 * 3 + k];
    out[k] = a + (array[s1 * 3 + k] - a) * alpha;
  }
  return out;
}
