// The page around the 3D view: title, controls (play/pause, scrubber, speed,
// joints and contacts toggles), the selected body's panel, the timing plot
// and the error overlay. Plain DOM; player.js wires the events.
import { motionAt, positionAt } from './recording.js';

function element(tag, attributes = {}, children = []) {
  const e = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') e.textContent = value;
    else e.setAttribute(key, value);
  }
  for (const child of children) e.append(child);
  return e;
}

/// Shows an error over the page; used for every uncaught error so a broken
/// player never fails silently.
export function showError(message) {
  let overlay = document.getElementById('pabd-error');
  if (!overlay) {
    overlay = element('div', { id: 'pabd-error', role: 'alert' }, [element('b', { text: 'Player error' })]);
    document.body.append(overlay);
  }
  overlay.append(element('pre', { text: String(message) }));
}

export function installErrorOverlay() {
  window.addEventListener('error', (e) => showError(e.error?.stack || e.message));
  window.addEventListener('unhandledrejection', (e) => showError(e.reason?.stack || e.reason));
}

const fmt = (x) => (Math.abs(x) < 5e-5 ? '0' : x.toFixed(3));
const vec = (a) => `${fmt(a[0])}, ${fmt(a[1])}, ${fmt(a[2])}`;

export function buildUi(rec) {
  const steps = rec.timing.solve_ms.length;
  const title = element('header', { id: 'pabd-title' }, [
    element('h1', { text: rec.scene || 'pabd' }),
    element('span', {
      text:
        `${rec.bodies.length} bodies · ${rec.joints.length} joints · ${steps} steps · ` +
        `dt ${+rec.dt.toPrecision(4)} s · ${rec.iterations} iterations · ` +
        `frame every ${rec.every} step${rec.every === 1 ? '' : 's'}`,
    }),
  ]);

  const play = element('button', { id: 'pabd-play', type: 'button', title: 'Play / pause (space)' });
  const scrubber = element('input', { id: 'pabd-scrubber', type: 'range', min: '0', max: '1', step: 'any', value: '0' });
  const clock = element('span', { id: 'pabd-clock' });
  const speed = element('select', { id: 'pabd-speed', title: 'Playback speed' });
  for (const s of [0.25, 0.5, 1, 2, 4]) {
    const option = element('option', { value: String(s), text: `${s}×` });
    if (s === 1) option.selected = true;
    speed.append(option);
  }
  const jointsBox = element('input', { id: 'pabd-joints', type: 'checkbox' });
  jointsBox.checked = true;
  const jointsLabel = element('label', { title: 'Show joints (j)' }, [jointsBox, ' joints']);
  // Contacts: offered only when the recording has them (pabd run --html-contacts).
  const contactsBox = element('input', { id: 'pabd-contacts', type: 'checkbox' });
  contactsBox.checked = rec.hasContacts;
  const contactsLabel = element('label', { title: 'Show contact points and normals (c)' }, [contactsBox, ' contacts']);
  contactsLabel.hidden = !rec.hasContacts;
  const bar = element('div', { id: 'pabd-controls' }, [play, scrubber, clock, speed, jointsLabel, contactsLabel]);

  const plot = element('canvas', { id: 'pabd-plot', title: 'Time per step [ms]' });
  const info = element('div', { id: 'pabd-info', hidden: '' });
  const view = element('div', { id: 'pabd-view' });
  document.body.append(view, title, info, plot, bar);

  return {
    view,
    play,
    scrubber,
    speed,
    joints: jointsBox,
    contacts: contactsBox,
    plot,
    setPlaying(playing) {
      play.textContent = playing ? '❚❚' : '▶';
      play.setAttribute('aria-label', playing ? 'pause' : 'play');
    },
    /// The time is never shown below 0: a recording starts at t = 0 (and
    /// "-0.000" would read as a fault).
    setClock(t, frame, frames) {
      clock.textContent = `${Math.max(0, t).toFixed(3)} s · frame ${frame + 1}/${frames}`;
    },
    /// Shows body `i`'s state at frame `frame`, or hides the panel (i < 0).
    showBody(i, frame) {
      if (i < 0) {
        info.hidden = true;
        return;
      }
      const body = rec.bodies[i];
      const f = rec.frames;
      const shape = rec.shapes[body.shape];
      const motion = motionAt(rec, frame, i);
      const rows = [
        ['shape', shape.type + (body.static ? ' (static)' : `, ${+body.mass.toPrecision(4)} kg`)],
        ['frame', `${frame + 1} (t = ${Math.max(0, f.time[frame]).toFixed(3)} s)`],
        ['position', `${vec(positionAt(rec, frame, i, [0, 0, 0]))} m`],
        // Not recorded: differences of the poses around the frame.
        ['velocity', `${vec(motion.velocity)} m/s`],
        ['angular velocity', `${vec(motion.angularVelocity)} rad/s`],
      ];
      const swatch = element('span', { class: 'swatch' });
      swatch.style.background = `rgb(${body.color.map((c) => Math.round(c * 255)).join(',')})`;
      const table = element('table', {}, rows.map(([k, value]) =>
        element('tr', {}, [element('th', { text: k }), element('td', { text: value })])));
      const note = element('p', { class: 'note', text: 'velocities from the poses of the frames around it' });
      info.replaceChildren(element('h2', {}, [swatch, body.name]), table, note);
      info.hidden = false;
    },
  };
}
